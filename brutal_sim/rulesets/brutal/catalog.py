"""Brutal's rules data: the bundled catalog, fighter files, rules files (check formula, hit-zone
table) on top of the shared loaders of :mod:`brutal_sim.core.data`.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import Any, Mapping

import numpy as np

from ...core.data import (
    BaseCatalog,
    Table,
    read_option_file,
    read_rules_file,
    read_toml,
    suggest,
    validate,
    validated_fighter,
)
from ...core.errors import DataError
from ...core.options import RuleOptions
from .model import (
    ATTRIBUTES,
    CHECKS,
    REACTIONS,
    ZONE_SHORTHANDS,
    ZONES,
    Armour,
    Fighter,
    FighterSpec,
    Tactic,
    Talent,
    Weapon,
    aim_zone,
    split_tactic,
)
from .options import OPTION_SPECS

DATA_ROOT = resources.files("brutal_sim") / "data" / "brutal"


class Catalog(BaseCatalog):
    """The named weapons, armour, talents and fighters a Brutal fighter file may refer to."""

    TABLES = {"weapons": Table("weapons.toml", Weapon), "armour": Table("armour.toml", Armour),
              "talents": Table("talents.toml", Talent), "tactics": Table("tactics.toml", Tactic)}
    DATA_ROOT = DATA_ROOT
    weapons: dict[str, Weapon]
    armour: dict[str, Armour]
    talents: dict[str, Talent]
    tactics: dict[str, Tactic]

    # -- resolution -------------------------------------------------------------------------
    def weapon(self, ref: Any, source: str = "weapon", field: str = "weapon") -> Weapon:
        return self._lookup("weapon", self.weapons, ref, Weapon, source, field)

    def tactic(self, ref: Any, source: str = "tactic", field: str = "tactic") -> tuple[Tactic, int]:
        """A tactic by name (``"aimed:head"`` for aiming ones) or inline table → (tactic, aim zone)."""
        if isinstance(ref, str):
            name, arg = split_tactic(ref)
            if name not in self.tactics:
                names = [k + (":<zone>" if t.aims else "") for k, t in self.tactics.items()]
                raise DataError(source, field, f"unknown tactic {ref!r}; {suggest(name, names)}")
            t = self.tactics[name]
        elif isinstance(ref, Tactic):
            t, arg = (ref if ref.name else ref.model_copy(update={"name": "custom tactic"})), ""
            if ref.aims:
                raise DataError(source, field, "an inline aiming tactic cannot name its zone; "
                                               "use a catalog tactic such as 'aimed:head'")
        else:
            raise DataError(source, field, "expected a tactic name or an inline table")
        try:
            return t, aim_zone(t, arg)
        except ValueError as exc:
            raise DataError(source, field, str(exc)) from None

    def with_behaviour(self, f: Fighter, tactic: Any = None, reaction: str | None = None,
                       source: str = "tactic") -> Fighter:
        """A copy of ``f`` with another tactic and/or reaction."""
        update: dict[str, Any] = {}
        if tactic is not None:
            update["tactic"], update["aim_zone"] = self.tactic(tactic, source, "tactic")
        if reaction is not None:
            if reaction not in REACTIONS:
                raise DataError(source.replace("tactic", "reaction"), "reaction",
                                f"unknown reaction {reaction!r}; allowed: {', '.join(REACTIONS)}")
            update["reaction"] = reaction
        return f.model_copy(update=update)

    def fighter_from_data(self, data: dict[str, Any], source: str, default_name: str) -> Fighter:
        spec = validate(FighterSpec, data, source)
        main = None if spec.main_hand is None else self.weapon(spec.main_hand, source, "main_hand")
        off = None if spec.off_hand is None else self.weapon(spec.off_hand, source, "off_hand")
        armour = [self._lookup("armour", self.armour, a, Armour, source, f"armour[{i}]")
                  for i, a in enumerate(spec.armour)]
        talents = [self._lookup("talent", self.talents, t, Talent, source, f"talents[{i}]")
                   for i, t in enumerate(spec.talents)]
        tactic, zone = self.tactic(spec.tactic, source, "tactic")
        payload = spec.model_dump(exclude={"main_hand", "off_hand", "armour", "talents", "ruleset", "tactic"})
        payload.update(name=spec.name or default_name, main_hand=main, off_hand=off, armour=armour, talents=talents,
                       tactic=tactic, aim_zone=zone)
        return validated_fighter(Fighter, payload, source)

    def fighter_data(self, f: Fighter) -> dict[str, Any]:
        """A resolved Brutal fighter as fighter-file data (inline tables), ready to be edited and reloaded."""
        data = f.model_dump(exclude={"aim_zone", "tactic"})
        known = self.tactics.get(f.tactic.name)
        data["tactic"] = f.tactic_text if known == f.tactic else f.tactic.model_dump()
        return data


# -- hit-zone table (B-4.9) ---------------------------------------------------------------------

def zone_table_from_data(data: Mapping[str, Any], source: str) -> np.ndarray:
    """Compile ``{die = 20, ranges = {"1-6" = "legs", ...}}`` into an int8 array: roll−1 → zone code.

    A pair shorthand (``arms``, ``legs``) splits by parity: odd rolls left, even rolls right (B-4.9).
    """
    if not isinstance(data, Mapping):
        raise DataError(source, None, f'expected a table such as {{ die = 20, ranges = {{ "1-20" = "torso" }} }}, '
                        f"got {data!r}")
    unknown = set(data) - {"die", "ranges", "description"}
    if unknown:
        raise DataError(source, sorted(unknown)[0], "unknown field; allowed: die, ranges, description")
    die = data.get("die", 20)
    if not isinstance(die, int) or not 2 <= die <= 100:
        raise DataError(source, "die", f"expected an integer 2..100, got {die!r}")
    ranges = data.get("ranges")
    if not isinstance(ranges, dict) or not ranges:
        raise DataError(source, "ranges", 'expected a table such as {"1-6" = "legs", "7-14" = "torso"}')
    table = np.full(die, -1, dtype=np.int8)
    for key, zone in ranges.items():
        lo_s, _, hi_s = str(key).partition("-")
        try:
            lo, hi = int(lo_s), int(hi_s or lo_s)
        except ValueError:
            raise DataError(source, f"ranges.{key}", "expected a roll or a range such as '7-14'") from None
        if not 1 <= lo <= hi <= die:
            raise DataError(source, f"ranges.{key}", f"range must lie within 1..{die}")
        for roll in range(lo, hi + 1):
            if isinstance(zone, str) and zone in ZONE_SHORTHANDS and zone != "all":  # not a list or table
                left, right = ZONE_SHORTHANDS[zone]
                code = ZONES.index(left if roll % 2 else right)
            elif zone in ZONES:
                code = ZONES.index(zone)
            else:
                raise DataError(source, f"ranges.{key}",
                                f"unknown zone {zone!r}; allowed: {', '.join(ZONES)}, arms, legs")
            if table[roll - 1] >= 0:
                raise DataError(source, f"ranges.{key}", f"roll {roll} is covered twice")
            table[roll - 1] = code
    missing = [i + 1 for i in range(die) if table[i] < 0]
    if missing:
        raise DataError(source, "ranges", f"rolls {missing} have no zone; every roll 1..{die} needs one")
    return table


#: B-1.1 default formula of ``check_bonus = attribute_plus_skill``: check = attribute + skill.
DEFAULT_CHECK_FORMULA: dict[str, tuple[str, ...]] = {
    "melee": ("agility", "skill"), "ranged": ("agility", "skill"), "dodge": ("mobility", "skill"),
    "athletics": ("strength", "skill"), "toughness": ("fortitude", "skill"), "resolve": ("confidence", "skill"),
    "willpower": ("spirit", "skill"),
}


def check_formula(raw: Any, options: RuleOptions, rules_file: str | None) -> dict[str, tuple[str, ...]] | None:
    """The check formula in force: None for ``check_bonus = total``, else the default formula
    updated by the rules file's ``[check_formula]`` table ``raw`` (``melee = "agility + skill"``)."""
    if options["check_bonus"] != "attribute_plus_skill":
        return None
    formula = dict(DEFAULT_CHECK_FORMULA)
    if not isinstance(raw, dict):
        raise DataError(str(rules_file), "check_formula", 'expected a table such as { melee = "agility + skill" }')
    for check, text in raw.items():
        field = f"check_formula.{check}"
        if check not in CHECKS:
            raise DataError(str(rules_file), field, f"unknown check; allowed: {', '.join(CHECKS)}")
        terms = tuple(t.strip() for t in str(text).split("+"))
        bad = [t for t in terms if t not in ATTRIBUTES and t != "skill"]
        if bad or not isinstance(text, str):
            raise DataError(str(rules_file), field, f"unknown term {bad[0] if bad else text!r}; a formula adds "
                            f"terms from: skill, {', '.join(ATTRIBUTES)}")
        formula[check] = terms
    return formula


#: the top-level tables a Brutal rules file may contain
RULES_FILE_TABLES = ("options", "zone_table", "check_formula", "description")


@dataclass(frozen=True)
class Rules:
    """A rules file read once: the resolved options, the tables the kernels read (the hit-zone
    table ``int8[die]``, B-4.9) and the check formula (B-1.1; None for ``check_bonus = total``)."""

    options: RuleOptions
    tables: tuple[np.ndarray]
    formula: dict[str, tuple[str, ...]] | None


def read_rules(rules_file: str | None, option_flags: Mapping[str, str]) -> Rules:
    """Options (defaults < the rules file's ``[options]`` < ``--option`` flags), the hit-zone table
    (bundled, the rules file's ``[zone_table]``, or the file ``zone_table`` names: a path in a rules
    file is read from the rules file's folder) and the check formula, reading each file once."""
    options, raw = read_rules_file(rules_file, RuleOptions.defaults(OPTION_SPECS), option_flags, RULES_FILE_TABLES)
    inline_zone: Mapping[str, Any] | None = raw.get("zone_table")
    if inline_zone is not None:
        table = zone_table_from_data(inline_zone, f"{rules_file}: zone_table")
        if "zone_table" not in option_flags:  # the file's own zone table, unless a flag names another
            options = options.with_overrides({"zone_table": rules_file}, str(rules_file))
    zt = str(options["zone_table"])
    if zt == "default":
        table = zone_table_from_data(read_toml(DATA_ROOT / "zones.toml", "catalog/zones.toml"), "catalog/zones.toml")
    elif inline_zone is None or zt != rules_file:
        data, source = read_option_file("zone_table", zt, rules_file, option_flags)
        table = zone_table_from_data(data, source)
    return Rules(options, (table,), check_formula(raw.get("check_formula", {}), options, rules_file))


def load_rules(rules_file: str | None, option_flags: Mapping[str, str]) -> tuple[RuleOptions, tuple[np.ndarray]]:
    """The rule options and the tables the kernels read (:func:`read_rules`)."""
    rules = read_rules(rules_file, option_flags)
    return rules.options, rules.tables
