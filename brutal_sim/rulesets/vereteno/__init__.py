"""«Звёздное Веретено» duels (d20 pools, action points; digest ``docs/rules/vereteno.md``): melee
duels (rules V-1 … V-8) and duels at a distance (V-10 … V-16: moves, shots, sector control).

Files, one job each: :mod:`.model` (data schema), :mod:`.catalog` (bundled catalog with the d66
trauma table, fighter files, rules files), :mod:`.options` (rule options, every GAP, with their
slots and codes in the kernels' option row), :mod:`.layout` (fighter, state, trauma-table and
counter layouts), :mod:`.compile` (models → arrays), :mod:`.kernel` (the numba duel and attack
kernels, a package of one module per rule chapter), :mod:`.exact` (exact single-attack
enumeration). This module ties them into :data:`RULESET`. Reference: ``docs/reference-vereteno.md``.
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

from ...core.errors import DataError
from ...core.options import RuleOptions
from ...core.ruleset import Compiled, ExactAttack, Kernels, KernelSet, Listing, Prepared, Ruleset
from ...core.schema_tools import FileKind
from . import layout as L
from .catalog import RULES_FILE_TABLES, Catalog, load_rules
from .compile import compile_pair, compile_traumas
from .exact import enumerate_attack, enumerate_shot
from .kernel import (
    BAND_OUT,
    band,
    open_duel,
    paired,
    plan,
    plan_shot,
    run,
)
from .model import Fighter
from .options import O_ROUND_CAP, O_START_DISTANCE, O_STEALTH, OPTION_SPECS, compile_options

#: Vereteno's drivers; a run plays the kernel set :func:`kernel_set` names
KERNELS = Kernels(run, paired)


def at_distance(fighters: np.ndarray, options: np.ndarray) -> bool:
    """Does this matchup need the duels at a distance: a gun or a throwing tactic (V-11.20) on either
    side, a ``start_distance`` beyond point blank (V-10.1), a fighter starting prone (V-10.8) or a
    stealth approach (V-10.10)?"""
    gun = L.P_WEAPONS + L.SLOT_GUN * L.WN + L.W_PRESENT
    throws = (fighters[:, L.P_T_SHOT] == L.SH_THROW).any()
    return bool(options[O_START_DISTANCE] > L.REACH or fighters[:, gun].any() or throws
                or fighters[:, L.P_PRONE].any() or options[O_STEALTH] != 0)


def kernel_set(fighters: np.ndarray, options: np.ndarray) -> KernelSet:
    """The kernel set of a Vereteno run: ``ranged`` (V-10, V-11) when :func:`at_distance`; a melee
    duel at point blank (V-7.6) compiles nothing of the duels at a distance, and the ranged kernels
    give it the same counters."""
    return KernelSet(ranged=at_distance(fighters, options))


def _gun_in_hand(fighters: np.ndarray, i: int) -> bool:
    """V-10.9: does fighter ``i`` start with its gun in hand (it has one and its tactic shoots)?"""
    shot = fighters[i, L.P_T_SHOT]
    return bool(fighters[i, L.P_WEAPONS + L.SLOT_GUN * L.WN + L.W_PRESENT] and shot != L.SH_NONE
                and shot != L.SH_THROW)


def _shoots_first(compiled: Compiled) -> bool:
    """Is side a's first attack from ``start_distance`` a shot or a throw (V-11, V-11.20)?"""
    F = compiled.fighters
    S = np.zeros((2, L.NS), dtype=np.int64)
    open_duel(F, S, compiled.options)
    return plan_shot(F, S, 0) != L.SH_NONE


def compiled(fighters: np.ndarray, options: np.ndarray, traumas: np.ndarray) -> Compiled:
    """Vereteno arrays as a :class:`Compiled`: fighters ``int64[2, NF]``, options ``int64[NO]``
    and the trauma table ``int64[36, NT]``; the kernels at a distance when :func:`at_distance`."""
    return Compiled(fighters, options, (traumas,), KERNELS.playing(kernel_set(fighters, options)),
                    L.n_counters(int(options[O_ROUND_CAP])))


def _signed(v: int) -> str:
    return f"{v:+d}"


class VeretenoRuleset(Ruleset):
    name = "vereteno"
    title = "Звёздное Веретено (d20 pools, action points)"
    counters = L.COUNTERS
    option_specs = OPTION_SPECS
    rules_file_tables = RULES_FILE_TABLES
    fighter_type = Fighter
    catalog_type = Catalog
    exact = staticmethod(enumerate_attack)
    warm_up_pair = ("swordsman", "brute")
    #: stat weights step the attributes, the combat skills, the weapon's modifier and damage, the
    #: armour's and shield's protection and the action points by one
    adjustable = (("attributes.physique", 1), ("attributes.agility", 1), ("attributes.intellect", 1),
                  ("attributes.empathy", 1), ("skills.melee", 1), ("skills.nimbleness", 1),
                  ("weapon.modifier", 1), ("weapon.damage", 1), ("armour.protection", 1),
                  ("shield.protection", 1), ("action_points", 1), ("speed", 1), ("skills.shooting", 1, "gun"),
                  ("gun.modifier", 1), ("gun.damage", 1))
    compile_seconds = {"duel": 13, "paired": 13, "attack": 13, "exact": 10}
    #: duels from a distance: moves, shots, reloads (V-10, V-11)
    capabilities = frozenset({"distance"})

    matrix_tactics = ("std_guard", "quick3", "power", "quick_guard2", "turtle", "battle_cry")
    matrix_reactions = ("defend", "dodge")

    rule_prefix, digest, reference = "V", "rules/vereteno.md", "reference-vereteno.md"

    def file_kinds(self) -> dict[str, FileKind]:
        from .schema import file_kinds

        return file_kinds()

    def rule_options(self, rules: str | None, options: Mapping[str, str]) -> RuleOptions:
        return load_rules(rules, options)[0]

    def compile_matchup(self, fa: Fighter, fb: Fighter, rules: str | None, options: Mapping[str, str]) -> Prepared:
        opts, _ = load_rules(rules, options)
        return Prepared(fa, fb, opts, compiled(compile_pair(fa, fb), compile_options(opts),
                                               compile_traumas(self.catalog().traumas)))

    def behaviour(self, fighter: Fighter) -> dict[str, str]:
        return {"tactic": fighter.tactic.name, "reaction": fighter.reaction}

    def check_attack(self, prepared: Prepared) -> None:
        F = prepared.compiled.fighters
        S = np.zeros((2, L.NS), dtype=np.int64)
        if prepared.compiled.kernels.variant.ranged:
            open_duel(F, S, prepared.compiled.options)
            d = int(prepared.options["start_distance"])
            if F[0, L.P_T_SHOT] == L.SH_THROW and d > L.REACH:
                if plan_shot(F, S, 0) == L.SH_NONE:
                    raise DataError("tactic_a", None, f"tactic {prepared.a.tactic.name!r} makes no throw from {d} m "
                                    f"(beyond 1000 m, V-10.1, or with the AP its reserve leaves)")
                return
            if S[0, L.S_DROPPED] & L.HAND_GUN:
                if plan_shot(F, S, 0) == L.SH_NONE:
                    why = "beyond 1000 m (V-10.1)" if band(d) == BAND_OUT else "with the AP its reserve leaves"
                    raise DataError("tactic_a", None, f"tactic {prepared.a.tactic.name!r} fires no shot from "
                                    f"{d} m {why}")
                return
            long = prepared.a.weapon is not None and "long" in prepared.a.weapon.properties
            if d > (L.REACH_LONG if long else L.REACH):  # V-3.15: a long weapon reaches close range
                raise DataError("options", "start_distance", f"{d} m: side a ({prepared.a.name}) has no gun in hand "
                                f"and its foe is beyond its melee reach, so it makes no attack from there; a single "
                                f"attack at a distance needs a tactic that shoots (std_shot, hip_spam, aimed, "
                                f"autofire) or start_distance ≤ 1 (≤ 2 with a long melee weapon, V-3.15)")
        S[0, L.S_AP] = F[0, L.P_AP]
        if plan(F, S, 0) == L.K_NONE:
            usable = ", ".join(k for k, t in Catalog.bundled().tactics.items() if t.attack != "none")
            raise DataError("tactic_a", None, f"tactic {prepared.a.tactic.name!r} makes no attack with "
                            f"{prepared.a.weapon.name if prepared.a.weapon else 'bare hands'}; "
                            f"allowed for attack: {usable}")

    def enumerate_attack(self, compiled: Compiled) -> ExactAttack:
        """Exact distribution of side a's first attack on a fresh side b: its first shot when it
        starts with a gun in hand, or its first throw (:func:`.exact.enumerate_shot`), else its melee
        attack."""
        if not (compiled.kernels.variant.ranged and (_gun_in_hand(compiled.fighters, 0) or _shoots_first(compiled))):
            return super().enumerate_attack(compiled)
        c = self.counters
        outcomes, levels, damage = np.zeros(len(c.outcomes)), np.zeros((len(c.levels), len(c.zones))), np.zeros(1)
        enumerate_shot(*compiled.args(), outcomes, levels, damage)
        return ExactAttack(outcomes, levels, float(damage[0]))

    def listings(self) -> dict[str, Listing]:
        cat = Catalog.bundled()
        fighters = []
        for key in sorted(cat.fighter_files):
            f = cat.fighter(key)
            a, s = f.attributes, f.skills
            fighters.append((key, f.name, f"{a.physique}/{a.agility}/{a.intellect}/{a.empathy}",
                             f"{s.melee}/{s.nimbleness}", f"{f.health}/{f.will}",
                             f.weapon.name if f.weapon else "unarmed", f.armour.name if f.armour else "—",
                             f.shield.name if f.shield else "—", f.tactic.name, f.reaction))
        return {
            "fighters": Listing(("name", "fighter", "phys/agi/int/emp", "melee/nimble", "health/will", "weapon",
                                 "armour", "shield", "tactic", "reaction"), fighters),
            "weapons": Listing(("name", "Russian", "mod", "init", "damage", "crit", "two-handed", "properties"), [
                (k, w.name_ru, _signed(w.modifier), _signed(w.initiative), str(w.damage), str(w.crit or "—"),
                 "yes" if w.two_handed else "", ", ".join(w.properties)) for k, w in cat.weapons.items()]),
            "guns": Listing(("name", "Russian", "mod", "init", "damage", "crit", "range", "magazine", "properties"), [
                (k, g.name_ru, _signed(g.modifier), _signed(g.initiative), str(g.damage), str(g.crit or "—"),
                 g.range.replace("_", " "), str(g.magazine), ", ".join(g.properties)) for k, g in cat.guns.items()]),
            "armour": Listing(("name", "Russian", "weight", "class", "quality"), [
                (k, x.name_ru, x.weight, str(x.protection), str(x.quality)) for k, x in cat.armour.items()]
                + [(k, x.name_ru, "shield", str(x.protection), "0") for k, x in cat.shields.items()]),
            "tactics": Listing(("name", "rule", "attack", "shot", "move", "engaged", "keep AP", "battle cry",
                                "description"), [
                (k, t.rule, t.attack, t.shot, t.move, t.engaged, str(t.keep), "yes" if t.battle_cry else "",
                 t.description)
                for k, t in cat.tactics.items()]),
            "traumas": Listing(("d66", "trauma", "death", "combat codes"), [
                (k, t.name, t.death, t.codes) for k, t in cat.traumas.items()]),
        }


RULESET = VeretenoRuleset()
