"""The bundled Vereteno catalog, fighter files and rules files.

Every failure is a :class:`~brutal_sim.core.errors.DataError` naming the file, the field and what is
allowed (the shared :func:`~brutal_sim.core.data.read_toml`, :func:`~brutal_sim.core.data.validate`
and :func:`~brutal_sim.core.data.suggest`).
"""

from __future__ import annotations

from importlib import resources
from typing import Any, Mapping

from ...core.data import BaseCatalog, Table, read_rules_file, suggest, validate, validated_fighter
from ...core.errors import DataError
from ...core.options import RuleOptions
from .model import IMPROVISED, REACTIONS, Armour, Fighter, FighterSpec, Gun, Shield, Tactic, Trauma, Weapon
from .options import OPTION_SPECS

DATA_ROOT = resources.files("brutal_sim") / "data" / "vereteno"
D66 = tuple(f"{t}{u}" for t in range(1, 7) for u in range(1, 7))


class Catalog(BaseCatalog):
    """Named weapons, armour, shields, tactics, the trauma table and the bundled fighter files."""

    source_prefix = "catalog/vereteno"

    TABLES = {"weapons": Table("weapons.toml", Weapon), "guns": Table("guns.toml", Gun),
              "armour": Table("armour.toml", Armour),
              "shields": Table("shields.toml", Shield), "tactics": Table("tactics.toml", Tactic),
              "traumas": Table("traumas.toml", Trauma, named=False)}
    DATA_ROOT = DATA_ROOT
    weapons: dict[str, Weapon]
    guns: dict[str, Gun]
    armour: dict[str, Armour]
    shields: dict[str, Shield]
    tactics: dict[str, Tactic]
    traumas: dict[str, Trauma]

    @classmethod
    def checked(cls, tables: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        """The d66 trauma table has exactly the keys 11 … 66 (V-6), kept in that order."""
        traumas = tables["traumas"]
        if sorted(traumas) != list(D66):
            missing = sorted(set(D66) - set(traumas)) or sorted(set(traumas) - set(D66))
            raise DataError(f"{cls.source_prefix}/traumas.toml", missing[0], "the d66 table needs exactly the keys "
                            "11 … 66")
        return {**tables, "traumas": {k: traumas[k] for k in D66}}

    # -- resolution -------------------------------------------------------------------------

    def tactic(self, ref: Any, source: str = "tactic", field: str = "tactic") -> Tactic:
        return self._lookup("tactic", self.tactics, ref, Tactic, source, field)

    def with_behaviour(self, f: Fighter, tactic: str | None, reaction: str | None, source: str) -> Fighter:
        """A copy of ``f`` with another tactic and/or reaction (``--tactic-a`` …)."""
        update: dict[str, Any] = {}
        if tactic is not None:
            update["tactic"] = self.tactic(tactic, source, "tactic")
        if reaction is not None:
            if reaction not in REACTIONS:
                raise DataError(source.replace("tactic", "reaction"), "reaction",
                                f"unknown reaction {reaction!r}; allowed: {', '.join(REACTIONS)}")
            update["reaction"] = reaction
        return validated_fighter(Fighter, {**dict(f), **update}, source)

    def fighter_from_data(self, data: dict[str, Any], source: str, default_name: str) -> Fighter:
        spec = validate(FighterSpec, data, source)
        if isinstance(spec.weapon, str) and spec.weapon in self.guns and spec.weapon not in self.weapons:
            raise DataError(source, "weapon", f"{spec.weapon!r} is a gun (guns.toml), not a melee weapon: "
                            f"give it as gun = {spec.weapon!r}")
        if isinstance(spec.gun, str) and spec.gun in self.weapons and spec.gun not in self.guns:
            raise DataError(source, "gun", f"{spec.gun!r} is a melee weapon (weapons.toml), not a gun: "
                            f"give it as weapon = {spec.gun!r}")
        gun = None if spec.gun is None else self._lookup("gun", self.guns, spec.gun, Gun, source, "gun")
        weapon = None if spec.weapon is None else self._lookup(
            "weapon", self.weapons, spec.weapon, Weapon, source, "weapon")
        armour = None if spec.armour is None else self._lookup(
            "armour", self.armour, spec.armour, Armour, source, "armour")
        shield = None if spec.shield is None else self._lookup(
            "shield", self.shields, spec.shield, Shield, source, "shield")
        payload = spec.model_dump(exclude={"ruleset", "weapon", "gun", "armour", "shield", "tactic", "thrown"})
        payload.update(name=spec.name or default_name, weapon=weapon, gun=gun, armour=armour, shield=shield,
                       tactic=self.tactic(spec.tactic, source, "tactic"),
                       thrown=[self.throwable(ref, source) for ref in spec.thrown])
        return validated_fighter(Fighter, payload, source)

    def throwable(self, ref: Any, source: str) -> Weapon:
        """V-11.20: an item of a fighter's ``thrown``: a melee weapon (weapons.toml or inline) with its
        own stats; a gun (guns.toml) or ``improvised`` with the V-5.6 bare-hands stats (mod 0, init 0,
        damage 1, crit —)."""
        if isinstance(ref, str) and (ref == IMPROVISED or (ref in self.guns and ref not in self.weapons)):
            return Weapon(name=f"{ref} (thrown, improvised)" if ref != IMPROVISED else IMPROVISED)
        if isinstance(ref, str) and ref not in self.weapons:
            raise DataError(source, "thrown", f"unknown item {ref!r} to throw; allowed: a weapons.toml or "
                            f"guns.toml name or {IMPROVISED!r}; "
                            f"{suggest(ref, [*self.weapons, *self.guns, IMPROVISED])}")
        return self._lookup("weapon", self.weapons, ref, Weapon, source, "thrown")

    def fighter_data(self, f: Fighter) -> dict[str, Any]:
        """A fighter as fighter-file data with its catalog items as inline tables."""
        data = f.model_dump(exclude={"weapon", "gun", "armour", "shield", "tactic"})
        data["ruleset"] = "vereteno"
        for key in ("weapon", "gun", "armour", "shield", "tactic"):
            item = getattr(f, key)
            if item is not None:
                data[key] = item.model_dump()
        return data


#: the top-level tables a Vereteno rules file may contain
RULES_FILE_TABLES = ("options", "description")


def load_rules(rules_file: str | None, option_flags: Mapping[str, str]) -> tuple[RuleOptions, tuple[()]]:
    """The rule options (defaults < the rules file's ``[options]`` < ``--option`` flags) and the rule
    tables the kernels read: none (the trauma table is the catalog's)."""
    options = read_rules_file(rules_file, RuleOptions.defaults(OPTION_SPECS), option_flags, RULES_FILE_TABLES)[0]
    if options["stealth_attack"] != "none" and options["surprise"] == "none" and options["stealth"] == "none":
        raise DataError("options", "stealth_attack", "a stealth attack needs the side that surprises: "
                        "set surprise = a | b, or stealth = a | b")
    if options["stealth"] != "none" and options["surprise"] != "none":
        raise DataError("options", "surprise", "surprise and stealth both name a surprising side: with stealth = "
                        "a | b the stealth check decides the surprise (V-10.10), so set surprise = none")
    if options["stealth"] != "none" and int(options["stealth_distance"]) > int(options["start_distance"]):
        raise DataError("options", "stealth_distance", f"{options['stealth_distance']} m: a stealth approach "
                        f"(V-10.10) ends nearer than start_distance ({options['start_distance']} m); allowed: "
                        f"0..{options['start_distance']}")
    return options, ()
