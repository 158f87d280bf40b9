"""The bundled WFRP 2e catalog (``brutal_sim/data/wfrp2e``), fighter files and rules files (options,
critical table).

Every failure is a :class:`~brutal_sim.core.errors.DataError` naming the file, the field and what is
allowed; unknown names come with close suggestions.
"""

from __future__ import annotations

from importlib import resources
from typing import Any, Mapping

import numpy as np

from ...core.data import BaseCatalog, Table, read_option_file, read_rules_file, suggest, validate, validated_fighter
from ...core.errors import DataError
from ...core.options import RuleOptions
from .crit import EXAMPLE, crit_tables_from_data, empty_tables, load_crit_table
from .layout import REACTION_NAMES, TACTIC_NAMES
from .model import Armour, Fighter, FighterSpec, Talent, Weapon
from .options import OPTION_SPECS

DATA_ROOT = resources.files("brutal_sim") / "data" / "wfrp2e"


class Catalog(BaseCatalog):
    """Named weapons, armour, talents and fighter files."""

    source_prefix = "catalog/wfrp2e"
    TABLES = {"weapons": Table("weapons.toml", Weapon), "armour": Table("armour.toml", Armour),
              "talents": Table("talents.toml", Talent)}
    DATA_ROOT = DATA_ROOT
    weapons: dict[str, Weapon]
    armour: dict[str, Armour]
    talents: dict[str, Talent]

    def fighter_from_data(self, data: dict[str, Any], source: str, default_name: str) -> Fighter:
        spec = validate(FighterSpec, data, source)

        def weapon(ref: Any, field: str) -> Weapon | None:
            return None if ref is None else self._lookup("weapon", self.weapons, ref, Weapon, source, field)

        armour = [self._lookup("armour", self.armour, a, Armour, source, f"armour[{i}]")
                  for i, a in enumerate(spec.armour)]
        talents = [self._lookup("talent", self.talents, t, Talent, source, f"talents[{i}]")
                   for i, t in enumerate(spec.talents)]
        payload = spec.model_dump(exclude={"main_hand", "off_hand", "missile", "off_hand_missile", "armour",
                                           "ruleset"})
        payload.update(name=spec.name or default_name, main_hand=weapon(spec.main_hand, "main_hand"),
                       off_hand=weapon(spec.off_hand, "off_hand"), missile=weapon(spec.missile, "missile"),
                       off_hand_missile=weapon(spec.off_hand_missile, "off_hand_missile"),
                       armour=armour, talent_items=talents)
        if spec.missile is not None and "tactic" not in spec.model_fields_set:
            payload["tactic"] = "shoot_then_draw"  # W-8.10: the default with a missile weapon
        return validated_fighter(Fighter, payload, source)


    def with_behaviour(self, f: Fighter, tactic: str | None, reaction: str | None, source: str) -> Fighter:
        """A copy of ``f`` with another tactic and/or reaction (``--tactic-a`` …)."""
        update: dict[str, str] = {}
        if tactic is not None:
            if tactic not in TACTIC_NAMES:
                raise DataError(source, "tactic", f"unknown tactic {tactic!r}; {suggest(tactic, list(TACTIC_NAMES))}")
            update["tactic"] = tactic
        if reaction is not None:
            if reaction not in REACTION_NAMES:
                raise DataError(source.replace("tactic", "reaction"), "reaction",
                                f"unknown reaction {reaction!r}; allowed: {', '.join(REACTION_NAMES)}")
            update["reaction"] = reaction
        return f.model_copy(update=update)

    def fighter_data(self, f: Fighter) -> dict[str, Any]:
        """A fighter as fighter-file data with its catalog items as inline tables."""
        data = f.model_dump(exclude={"talent_items"})
        data["ruleset"] = "wfrp2e"
        return data


#: the top-level tables a WFRP 2e rules file may contain
RULES_FILE_TABLES = ("options", "description", "ruleset")


def load_rules(rules_file: str | None,
               option_flags: Mapping[str, str]) -> tuple[RuleOptions, tuple[np.ndarray, np.ndarray]]:
    """The rule options (defaults < the rules file's ``[options]`` < ``--option`` flags) and the rule
    tables the kernels read: the critical grid and effects of ``crit_model = table`` (W-5.4; empty
    tables for the other models)."""
    options = read_rules_file(rules_file, RuleOptions.defaults(OPTION_SPECS), option_flags, RULES_FILE_TABLES)[0]
    if options["crit_model"] != "table":
        return options, empty_tables()
    value = str(options["crit_table"])
    if value in ("", "none", EXAMPLE):
        return options, load_crit_table(value)
    # a path in a rules file is read from the rules file's folder
    return options, crit_tables_from_data(*read_option_file("crit_table", value, rules_file, option_flags))
