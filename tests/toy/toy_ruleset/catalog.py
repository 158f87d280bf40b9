"""The toy catalog (``data/`` beside this package), fighter files and rules files.

Every failure is a :class:`~brutal_sim.core.errors.DataError` naming the file, the field and what is
allowed; unknown names come with close suggestions (the shared :mod:`brutal_sim.core.data`).
"""

from __future__ import annotations

from importlib import resources
from typing import Any, Mapping

from brutal_sim.core.data import BaseCatalog, Table, read_rules_file, validate, validated_fighter
from brutal_sim.core.errors import DataError
from brutal_sim.core.options import RuleOptions

from .model import REACTIONS, TACTICS, Fighter, FighterSpec, Weapon
from .options import OPTION_SPECS

DATA_ROOT = resources.files(__package__) / "data"


class Catalog(BaseCatalog):
    """Named weapons and the bundled fighter files."""

    source_prefix = "catalog/toy"

    TABLES = {"weapons": Table("weapons.toml", Weapon)}
    DATA_ROOT = DATA_ROOT
    weapons: dict[str, Weapon]

    def fighter_from_data(self, data: dict[str, Any], source: str, default_name: str) -> Fighter:
        spec = validate(FighterSpec, data, source)
        payload = spec.model_dump(exclude={"ruleset", "weapon"})
        payload.update(name=spec.name or default_name,
                       weapon=self._lookup("weapon", self.weapons, spec.weapon, Weapon, source, "weapon"))
        return validated_fighter(Fighter, payload, source)

    def with_behaviour(self, f: Fighter, tactic: str | None, reaction: str | None, source: str) -> Fighter:
        """``f`` under a tactic and reaction override (``--tactic-a`` …): the toy knows one of each, so
        this only refuses any other."""
        if tactic not in (None, *TACTICS):
            raise DataError(source, "tactic", f"unknown tactic {tactic!r}; allowed: {', '.join(TACTICS)}")
        if reaction not in (None, *REACTIONS):
            raise DataError(source.replace("tactic", "reaction"), "reaction",
                            f"unknown reaction {reaction!r}; allowed: {', '.join(REACTIONS)}")
        return f

    def fighter_data(self, f: Fighter) -> dict[str, Any]:
        """A fighter as fighter-file data, its weapon as an inline table (for variants)."""
        data = f.model_dump(exclude={"weapon"})
        data.update(ruleset="toy", weapon=f.weapon.model_dump())
        return data


#: the top-level tables a toy rules file may contain
RULES_FILE_TABLES = ("options", "description")


def load_rules(rules_file: str | None, option_flags: Mapping[str, str]) -> tuple[RuleOptions, tuple[()]]:
    """The rule options (defaults < the rules file's ``[options]`` < ``--option`` flags) and the rule
    tables the kernels read: none."""
    return read_rules_file(rules_file, RuleOptions.defaults(OPTION_SPECS), option_flags, RULES_FILE_TABLES)[0], ()
