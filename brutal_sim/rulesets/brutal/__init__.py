"""The Brutal ruleset (2d6 checks, wound track; digest ``docs/rules/brutal.md``, rules B-1 … B-8).

Files, one job each: :mod:`.model` (data schema), :mod:`.catalog` (bundled catalog, fighter files,
rules files: options, hit-zone table, check formula), :mod:`.options` (rule options, every GAP, with
their slots and codes in the kernels' option row), :mod:`.layout` (fighter, state and counter
layouts), :mod:`.compile` (models → arrays), :mod:`.kernel` (the ``@njit`` kernels, a package split
by rule chapter), :mod:`.exact` (exact single-attack enumeration), and for group fights
the group-fight checks of :meth:`BrutalRuleset.prepare_fight` (sides are parsed by
:mod:`brutal_sim.core.sides`). This module ties them into :data:`RULESET`.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from ...core.battle import TARGETING
from ...core.errors import DataError
from ...core.options import RuleOptions
from ...core.ruleset import (
    Compiled,
    ItemSlot,
    Kernels,
    KernelSet,
    Listing,
    Prepared,
    PreparedFight,
    Ruleset,
    ShotMeasure,
)
from ...core.schema_tools import FileKind
from . import layout as L
from .catalog import RULES_FILE_TABLES, Catalog, read_rules
from .compile import compile_pair, compile_sides
from .exact import enumerate_attack
from .kernel import paired, run
from .model import ZONES, Fighter, Tactic, Weapon
from .options import O_ROUND_CAP, O_START_DISTANCE, OPTION_SPECS, compile_options

#: Brutal's drivers; a run plays the kernel set :func:`kernel_set` names
KERNELS = Kernels(run, paired)


def kernel_set(fighters: np.ndarray, options: np.ndarray, group: bool = False) -> KernelSet:
    """The kernel set of a Brutal run: ``ranged`` (B-8) when the sides start apart or a fighter
    holds a ranged weapon in either hand; ``group`` for a group fight (docs/groups.md: the group
    block, no single-attack sampler)."""
    ranged = int(options[O_START_DISTANCE]) > 0 or any(
        int(fighters[i, L.P_WEAPONS + slot * L.WN + L.W_LONG]) > 0 for i in range(fighters.shape[0])
        for slot in (L.SLOT_MAIN, L.SLOT_OFF))
    return KernelSet(ranged=ranged, group=group)


def _no_group_tactic(tactic: Tactic) -> str | None:
    """Why ``tactic`` cannot be used in a group fight (docs/groups.md), or None."""
    if tactic.attack == "grapple":
        return "grapples (B-3.12)"
    if tactic.kite:
        return "steps back from the enemy, which needs a map (B-8)"
    return None


def compiled(fighters: np.ndarray, options: np.ndarray, zone_table: np.ndarray) -> Compiled:
    """Brutal arrays as a :class:`Compiled`: fighters ``int64[2, NF]``, options ``int64[NO]`` and
    the hit-zone table ``int8[die]``."""
    return Compiled(fighters, options, (zone_table,), KERNELS.playing(kernel_set(fighters, options)),
                    L.n_counters(int(options[O_ROUND_CAP])))


def _two_handed(item: Any) -> bool:
    """Whether a weapon (a catalog item or an inline table) is used with both hands."""
    if isinstance(item, dict):
        return bool(item.get("two_handed"))
    return bool(getattr(item, "two_handed", False))


def _weapon_text(w: Weapon | None) -> str:
    if w is None:
        return "—"
    extra = [f"pen {w.penetration}", f"dur {w.durability}"]
    if w.two_handed:
        extra.append("two-handed")
    if w.parry_bonus:
        extra.append(f"parry {w.parry_bonus:+d}")
    return f"{w.name}: {w.damage} {w.type} ({', '.join(extra)})"


class BrutalRuleset(Ruleset):
    name = "brutal"
    title = "Brutal (2d6 checks, wound track)"
    counters = L.COUNTERS
    option_specs = OPTION_SPECS
    rules_file_tables = RULES_FILE_TABLES
    fighter_type = Fighter
    catalog_type = Catalog
    exact = staticmethod(enumerate_attack)
    warm_up_pair = ("swordsman", "brute")
    #: stat weights step the checks and attributes the duel uses, the main weapon's die, penetration
    #: and durability, a shield's parry bonus and each armour's protection and toughness by one
    adjustable = (("checks.melee", 1), ("checks.ranged", 1), ("checks.dodge", 1), ("checks.athletics", 1),
                  ("checks.toughness", 1), ("checks.willpower", 1), ("attributes.endurance", 1),
                  ("attributes.strength", 1), ("attributes.agility", 1), ("main_hand.damage", 1),
                  ("main_hand.penetration", 1), ("main_hand.durability", 1), ("off_hand.parry_bonus", 1),
                  ("armour.*.protection", 1), ("armour.*.toughness", 1))
    #: the tactic matrix's defaults: aimed at the head as the aimed representative
    matrix_tactics = ("single", "feint", "defensive", "furious", "step", "aimed:head", "knockdown", "total_defence")
    matrix_reactions = ("parry", "dodge")
    capabilities = frozenset({"fights", "distance"})
    targeting_policies = TARGETING
    #: the items a gauntlet swaps: the two hands' weapons (shields among them), a piece of armour or a
    #: talent added, the tactic
    item_slots = (ItemSlot("main_hand", "main_hand", "weapons"), ItemSlot("off_hand", "off_hand", "weapons"),
                  ItemSlot("armour", "armour", "armour", many=True),
                  ItemSlot("talent", "talents", "talents", many=True),
                  ItemSlot("tactic", "tactic", "tactics", empty=False))

    rule_prefix, digest, reference = "B", "rules/brutal.md", "reference.md"

    def slot_values(self, slot: ItemSlot) -> list[str]:
        """The catalog's items; an aiming tactic once per zone it may aim at (``aimed:head`` …, B-4.9)."""
        if slot.table != "tactics":
            return super().slot_values(slot)
        return [f"{name}:{zone}" if t.aims else name for name, t in self.catalog().tactics.items()
                for zone in (ZONES if t.aims else ("",))]

    def item_placed(self, data: dict[str, Any], slot: ItemSlot, item: Any) -> None:
        """A two-handed weapon in the main hand leaves the off hand empty (B-7.6: a second weapon
        needs a free hand; the fighter file allows no off-hand item beside it)."""
        if slot.field == "main_hand" and _two_handed(item):
            data["off_hand"] = None

    def file_kinds(self) -> dict[str, FileKind]:
        from .schema import file_kinds

        return file_kinds()

    def compile_matchup(self, fa: Fighter, fb: Fighter, rules: str | None, options: Mapping[str, str]) -> Prepared:
        r = read_rules(rules, options)
        opts, (zone_table,) = r.options, r.tables
        F = compile_pair(fa, fb, formula=r.formula)
        return Prepared(fa, fb, opts, compiled(F, compile_options(opts), zone_table))

    def rule_options(self, rules: str | None, options: Mapping[str, str]) -> RuleOptions:
        return read_rules(rules, options).options

    def prepare_fight(self, side_a: Sequence[Any], side_b: Sequence[Any], rules: str | None = None,
                      options: Mapping[str, str] | None = None) -> PreparedFight:
        """Load, validate and compile a group fight (docs/groups.md): each side 1–6 fighter refs
        (catalog names, TOML paths or :class:`Fighter` objects) in line order."""
        sides = []
        for key, refs in (("a", side_a), ("b", side_b)):
            refs = [refs] if isinstance(refs, (str, Fighter)) else list(refs)
            if not 1 <= len(refs) <= L.MAX_SIDE:
                raise DataError(f"side {key}", None, f"has {len(refs)} fighters; allowed 1..{L.MAX_SIDE} a side")
            fighters = tuple(self.load_fighter(ref, f"side {key} fighter {n + 1}") for n, ref in enumerate(refs))
            for n, f in enumerate(fighters):
                why = _no_group_tactic(f.tactic)
                if why is not None:
                    allowed = ", ".join(k for k, t in Catalog.bundled().tactics.items() if _no_group_tactic(t) is None)
                    raise DataError(f"side {key} fighter {n + 1} ({f.name})", "tactic",
                                    f"tactic {f.tactic.name!r} {why} and is not allowed in group fights; "
                                    f"allowed: {allowed}")
            sides.append(fighters)
        r = read_rules(rules, options or {})
        opts, tables = r.options, r.tables
        if int(opts["start_distance"]) != 0:
            raise DataError("options", "start_distance", f"{opts['start_distance']}: group fights start engaged; "
                            "allowed 0")
        F = compile_sides(sides[0], sides[1], formula=r.formula)
        row = compile_options(opts)
        k = L.n_fight_counters(int(row[O_ROUND_CAP]), F.shape[0])
        return PreparedFight(sides[0], sides[1], opts,
                             Compiled(F, row, tables, KERNELS.playing(kernel_set(F, row, group=True)), k), self.name)

    def behaviour(self, fighter: Fighter) -> dict[str, str]:
        return {"tactic": fighter.tactic_text, "reaction": fighter.reaction}

    def check_attack(self, prepared: Prepared) -> None:
        """``attack`` measures one melee attack (an aim at the weapon, B-9.3, included), or one shot
        (B-8: aimed, +1) from ``start_distance`` (fired in melee at 0)."""
        fa = prepared.a
        distance = int(prepared.options["start_distance"])
        weapon = fa.main_hand
        shooter = weapon is not None and weapon.ranges is not None
        if shooter and distance > weapon.ranges[2]:  # type: ignore[index, union-attr]
            raise DataError("options", "start_distance", f"{distance} m is beyond the long range of "
                            f"{weapon.name or 'the weapon'} ({weapon.ranges[2]} m); "  # type: ignore[index, union-attr]
                            f"allowed 0..{weapon.ranges[2]} for a single shot")  # type: ignore[index, union-attr]
        if not shooter and distance > 0:
            raise DataError("options", "start_distance", f"{fa.name} has no ranged weapon: its single attack "
                            "is made engaged; allowed 0 (duels close the distance)")
        if not shooter and fa.tactic.attack not in ("normal", "weapon"):
            usable = ", ".join(k for k, t in Catalog.bundled().tactics.items() if t.attack in ("normal", "weapon"))
            raise DataError("tactic_a", None, f"tactic {fa.tactic.name!r} makes no damaging attack "
                            f"({fa.tactic.attack}); allowed for attack: {usable}")

    #: ``attack --shot``: a Brutal shooter's single attack is always its aimed shot
    no_shot_kinds = "its shooter aims, +1, and shoots, B-8"

    def attack_measure(self, prepared: Prepared) -> ShotMeasure | None:
        """B-8: a shooter (a ranged weapon in its main hand) aims (+1) and shoots from
        ``start_distance``, fired in melee at 0; None for a melee attacker."""
        weapon = prepared.a.main_hand
        if weapon is None or weapon.ranges is None:
            return None
        d = int(prepared.options["start_distance"])
        text = f"aimed shot (+1) from {d} m" if d > 0 else "aimed shot (+1) fired in melee (0 m, B-8)"
        return ShotMeasure("aimed", d, text)

    def stat_block(self, f: Fighter) -> list[tuple[str, str]]:
        worn = []
        for a in f.armour:
            zones = ", ".join(a.zones) if len(a.zones) < len(ZONES) else "all"
            worn.append(f"{a.name} {a.protection}/{a.toughness} ({zones})")
        size = [("size", f"{f.size} ({L.SIZE_MODIFIERS[L.SIZE_NAMES.index(f.size)]:+d} to attacks on it, B-8)")]
        return [
            ("description", f.description or "—"),
            ("checks", ", ".join(f"{k} {v:+d}" for k, v in f.checks.model_dump().items())),
            ("attributes", ", ".join(f"{k} {v}" for k, v in f.attributes.model_dump().items()
                                     if v or k == "endurance")),
            ("damage levels", " / ".join(str(x) for x in f.damage_levels)),
            ("main hand", _weapon_text(f.main_hand)), ("off hand", _weapon_text(f.off_hand)),
            ("armour", "; ".join(worn) or "—"), ("talents", ", ".join(t.name for t in f.talents) or "—"),
            ("tactic / reaction", f"{f.tactic_text} / {f.reaction}"),
        ] + (size if f.size != "medium" else [])

    def listings(self) -> dict[str, Listing]:
        cat = Catalog.bundled()
        fighters = []
        for key in sorted(cat.fighter_files):
            f = cat.fighter(key)
            fighters.append((key, f.name, f.main_hand.name if f.main_hand else "—",
                             f.off_hand.name if f.off_hand else "—", ", ".join(x.name for x in f.armour) or "—",
                             f.tactic_text, f.reaction))
        return {
            "fighters": Listing(("name", "fighter", "main hand", "off hand", "armour", "tactic", "reaction"), fighters),
            "weapons": Listing(("name", "damage", "type", "pen", "dur", "two-handed", "reach", "parry", "ranges",
                                "reload"), [
                (k, w.damage, w.type, str(w.penetration), str(w.durability), "yes" if w.two_handed else "",
                 str(w.reach), f"{w.parry_bonus:+d}" if w.parry_bonus else "",
                 "/".join(map(str, w.ranges)) if w.ranges else "", str(w.reload) if w.reload else "")
                for k, w in cat.weapons.items()]),
            "armour": Listing(("name", "protection", "toughness", "zones"), [
                (k, str(x.protection), str(x.toughness), ", ".join(x.zones)) for k, x in cat.armour.items()]),
            "talents": Listing(("name", "rule", "description"), [
                (k, x.rule, x.description) for k, x in cat.talents.items()]),
            "tactics": Listing(("name", "rule", "attack", "modifier", "description"), [
                (k + (":<zone>" if x.aims else ""), x.rule, x.attack, f"{x.attack_modifier:+d}", x.description)
                for k, x in cat.tactics.items()]),
        }


RULESET = BrutalRuleset()
