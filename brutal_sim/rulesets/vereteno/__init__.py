"""«Звёздное Веретено» (d20 pools, action points; digest ``docs/rules/vereteno.md``): melee
duels (rules V-1 … V-8), duels at a distance (V-10 … V-16: moves, shots, sector control) and fights
of several a side (V-14).

Files, one job each: :mod:`.model` (data schema), :mod:`.catalog` (bundled catalog with the d66
trauma table, fighter files, rules files), :mod:`.options` (rule options, every GAP, with their
slots and codes in the kernels' option row), :mod:`.layout` (fighter, state, trauma-table and
counter layouts), :mod:`.compile` (models → arrays), :mod:`.kernel` (the numba duel and attack
kernels, a package of one module per rule chapter), :mod:`.exact` (exact single-attack
enumeration). This module ties them into :data:`RULESET`. Reference: ``docs/reference-vereteno.md``.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from ...core.battle import TARGETING, TARGETING_MORE
from ...core.data import validated_fighter
from ...core.errors import DataError
from ...core.options import RuleOptions
from ...core.ruleset import (
    Compiled,
    ExactAttack,
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
from .catalog import RULES_FILE_TABLES, Catalog, load_rules
from .compile import compile_pair, compile_sides, compile_traumas
from .exact import enumerate_attack, enumerate_shot, first_turn
from .kernel import (
    BAND_OUT,
    TO_MELEE,
    TO_SHOTS,
    band,
    engaged,
    in_reach,
    open_duel,
    paired,
    plan,
    plan_shot,
    ready_weapon,
    run,
)
from .model import Fighter
from .options import (
    O_ROUND_CAP,
    O_START_DISTANCE,
    O_STEALTH,
    O_VISIBILITY,
    OPTION_SPECS,
    VISIBILITY_POOR,
    compile_options,
)

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


def kernel_set(fighters: np.ndarray, options: np.ndarray, group: bool = False) -> KernelSet:
    """The kernel set of a Vereteno run: ``ranged`` (V-10, V-11) when :func:`at_distance` or a fighter
    grapples (:func:`has_grapplers`); a melee duel at point blank (V-7.6) compiles nothing of the
    duels at a distance or of the grapple's turns, and the ranged kernels give it the same counters;
    ``group`` for a fight of several a side (V-14: the group block)."""
    return KernelSet(ranged=at_distance(fighters, options) or has_grapplers(fighters), group=group)


def has_grapplers(fighters: np.ndarray) -> bool:
    """Does a fighter spend its extras on the grapple (``grapple_first``, V-4.5)? Its turns in a grapple
    (V-6.10) are compiled only in the kernel variant ``ranged`` (:mod:`.kernel.grapple`)."""
    return bool((fighters[:, L.P_ATTACK_SPENDING] == L.AS_GRAPPLE_FIRST).any())


def _gun_in_hand(fighters: np.ndarray, i: int) -> bool:
    """V-10.9: does fighter ``i`` start with its gun in hand (it has one and its tactic shoots)?"""
    shot = fighters[i, L.P_T_SHOT]
    return bool(fighters[i, L.P_WEAPONS + L.SLOT_GUN * L.WN + L.W_PRESENT] and shot != L.SH_NONE
                and shot != L.SH_THROW)


def _shoots_first(fighters: np.ndarray) -> bool:
    """Is side a measured by its first shot or throw at a distance: its gun in hand (V-10.9) or a
    throwing tactic (V-11.20)?"""
    return _gun_in_hand(fighters, 0) or bool(fighters[0, L.P_T_SHOT] == L.SH_THROW)


#: the words of a shot kind (``SH_*``) in ``attack``'s header
SHOT_WORDS = {L.SH_HIP: "hip shot", L.SH_STANDARD: "standard shot", L.SH_AIMED: "aimed shot",
              L.SH_BURST: "long burst", L.SH_THROW: "throw"}


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
    #: duels from a distance: moves, shots, reloads (V-10, V-11); fights of several a side (V-14)
    capabilities = frozenset({"distance", "fights"})
    #: V-14.3: ``nearest`` (in line) is the digest's default
    targeting_policies = ("nearest", *(p for p in TARGETING + TARGETING_MORE if p != "nearest"))
    #: the items a gauntlet swaps: the melee weapon, the gun, the armour, the shield, the tactic
    item_slots = (ItemSlot("weapon", "weapon", "weapons"), ItemSlot("gun", "gun", "guns"),
                  ItemSlot("armour", "armour", "armour"), ItemSlot("shield", "shield", "shields"),
                  ItemSlot("tactic", "tactic", "tactics", empty=False))

    def item_placed(self, data: dict[str, Any], slot: ItemSlot, item: Any) -> None:
        """A two-handed melee weapon leaves no hand for a shield (V-4.7; the fighter file allows
        none beside it): the shield is put away."""
        if slot.field != "weapon" or item is None:
            return
        if (item.get("two_handed") if isinstance(item, dict) else getattr(item, "two_handed", False)):
            data["shield"] = None

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
        for key, f in (("a", fa), ("b", fb)):
            if f.arrive_round != 1:
                raise DataError(f"side {key} ({f.name})", "arrive_round",
                                f"{f.arrive_round}: a duel's fighters are in it from round 1; arrive_round is for "
                                "fights of several a side (V-14)")
        return Prepared(fa, fb, opts, compiled(compile_pair(fa, fb), compile_options(opts),
                                               compile_traumas(self.catalog().traumas)))

    def prepare_fight(self, side_a: Sequence[Any], side_b: Sequence[Any], rules: str | None = None,
                      options: Mapping[str, str] | None = None) -> PreparedFight:
        """Load, validate and compile a fight of several a side (V-14, docs/groups.md): each side 1 … 6
        fighter refs (catalog names, TOML paths or :class:`Fighter` objects) in line order; side b
        ``start_distance`` metres from side a."""
        sides = []
        for key, refs in (("a", side_a), ("b", side_b)):
            refs = [refs] if isinstance(refs, (str, Fighter)) else list(refs)
            if not 1 <= len(refs) <= L.MAX_SIDE:
                raise DataError(f"side {key}", None, f"has {len(refs)} fighters; allowed 1..{L.MAX_SIDE} a side")
            sides.append(tuple(self.load_fighter(ref, f"side {key} fighter {n + 1}") for n, ref in enumerate(refs)))
        opts, _ = load_rules(rules, options or {})
        cap = int(opts.values["round_cap"])
        for key, fighters in zip("ab", sides):
            if all(f.arrive_round > 1 for f in fighters):
                raise DataError(f"side {key}", "arrive_round", "every fighter arrives after round 1; at least one "
                                "must be in the fight from round 1 (V-14)")
            for n, f in enumerate(fighters):
                if f.arrive_round > cap:
                    raise DataError(f"side {key} fighter {n + 1} ({f.name})", "arrive_round",
                                    f"{f.arrive_round} is after the round cap ({cap}): it would never arrive; "
                                    f"allowed 1..{cap}")
        for k, (key, fighters) in enumerate(zip("ab", sides)):
            for n, f in enumerate(fighters):
                name = f.commander.casefold()
                if name and not any(c.name.casefold() == name for r, c in enumerate(fighters) if r != n) and any(
                        c.name.casefold() == name for c in sides[1 - k]):
                    raise DataError(f"side {key} fighter {n + 1} ({f.name})", "commander",
                                    f"{f.commander!r} fights on the other side (side {'ab'[1 - k]}); a commander "
                                    "orders fighters of its own side (V-13.4)")
        F = compile_sides(sides[0], sides[1])
        row = compile_options(opts)
        k = L.n_fight_counters(int(row[O_ROUND_CAP]), F.shape[0])
        return PreparedFight(sides[0], sides[1], opts,
                             Compiled(F, row, (compile_traumas(self.catalog().traumas),),
                                      KERNELS.playing(kernel_set(F, row, group=True)), k), self.name)

    def behaviour(self, fighter: Fighter) -> dict[str, str]:
        return {"tactic": fighter.tactic.name, "reaction": fighter.reaction}

    #: V-11.2–V-11.5, V-11.7: ``attack --shot KIND`` plays side a's first turn with its tactic's
    #: ``shot`` replaced by KIND
    shot_kinds = ("hip", "standard", "aimed", "burst", "throw")

    def shot_changed(self, prepared: Prepared, kind: str) -> Prepared:
        """Side a's tactic with ``shot = kind`` (its other fields kept), the fighter validated again
        (a gun, an automatic one for a burst, items to throw: a :class:`DataError` naming ``shot``)."""
        fa = prepared.a
        tactic = fa.tactic.model_copy(update={"shot": kind})
        fa = validated_fighter(Fighter, {**dict(fa), "tactic": tactic}, "shot")
        return Prepared(fa, prepared.b, prepared.options,
                        compiled(compile_pair(fa, prepared.b), compile_options(prepared.options),
                                 compile_traumas(self.catalog().traumas)))

    @staticmethod
    def _first_turn(prepared: Prepared) -> tuple[np.ndarray, int, bool] | None:
        """Side a's first turn up to its first shot or throw (:func:`.exact.first_turn`) when it is
        measured by one at a distance, else None."""
        c = prepared.compiled
        if not (c.kernels.variant.ranged and _shoots_first(c.fighters)):
            return None
        S, step, drew = first_turn(c.fighters, c.options, c.tables[0])
        return S, int(step), bool(drew)

    def check_attack(self, prepared: Prepared) -> None:
        F = prepared.compiled.fighters
        S = np.zeros((2, L.NS), dtype=np.int64)
        name = prepared.a.tactic.name
        first = self._first_turn(prepared)
        if first is not None:
            S, step, drew = first
            d = int(prepared.options["start_distance"])
            if drew:
                raise DataError("tactic_a", None, f"tactic {name!r} steps back out of its engaged foe's reach "
                                f"before its first shot, drawing the foe's opportunity attack (V-10.7, V-15.2): "
                                f"attack measures a first shot that no dice come before; start beyond the foe's "
                                f"reach (start_distance) or choose another tactic")
            if step == TO_SHOTS:
                if plan_shot(F, S, 0) == L.SH_NONE:
                    at = abs(int(S[0, L.S_X]) - int(S[1, L.S_X]))
                    what = "throw" if F[0, L.P_T_SHOT] == L.SH_THROW else "shot"
                    if F[0, L.P_T_SHOT] == L.SH_NONE:
                        why = "it sets its AP aside for sector shots instead (V-15.7)"
                    elif band(at) == BAND_OUT:
                        why = f"its foe is {at} m away, beyond 1000 m (V-10.1)"
                    else:
                        why = "the AP its reserve leaves after the turn's first steps do not pay one (V-15.6)"
                    raise DataError("tactic_a", None, f"tactic {name!r} makes no {what} in its first turn from "
                                    f"{d} m: {why}")
                return
            if step == TO_MELEE and not (in_reach(F, S, 0) and ready_weapon(S, 0)):
                raise DataError("options", "start_distance", f"{d} m: side a ({prepared.a.name}) draws its melee "
                                f"weapon in its first turn and its foe is beyond its reach, so it makes no attack "
                                f"then; start within its reach or choose a tactic that shoots engaged")
        elif prepared.compiled.kernels.variant.ranged:
            d = int(prepared.options["start_distance"])
            long = prepared.a.weapon is not None and "long" in prepared.a.weapon.properties
            if d > (L.REACH_LONG if long else L.REACH):  # V-3.15: a long weapon reaches close range
                raise DataError("options", "start_distance", f"{d} m: side a ({prepared.a.name}) has no gun in hand "
                                f"and its foe is beyond its melee reach, so it makes no attack from there; a single "
                                f"attack at a distance needs a tactic that shoots (std_shot, hip_spam, aimed, "
                                f"autofire) or start_distance ≤ 1 (≤ 2 with a long melee weapon, V-3.15)")
        if first is None:
            S[0, L.S_AP] = F[0, L.P_AP]
        if plan(F, S, 0) == L.K_NONE:
            usable = ", ".join(k for k, t in Catalog.bundled().tactics.items() if t.attack != "none")
            raise DataError("tactic_a", None, f"tactic {name!r} makes no attack with "
                            f"{prepared.a.weapon.name if prepared.a.weapon else 'bare hands'}; "
                            f"allowed for attack: {usable}")

    def enumerate_attack(self, compiled: Compiled) -> ExactAttack:
        """Exact distribution of side a's first attack on a fresh side b: with its gun in hand or a
        throwing tactic at a distance, the first shot or throw of its first turn
        (:func:`.exact.enumerate_shot`; a melee attack after drawing its melee weapon), else its
        melee attack. A first turn that draws dice before its shot is a :class:`DataError`."""
        if not (compiled.kernels.variant.ranged and _shoots_first(compiled.fighters)):
            return super().enumerate_attack(compiled)
        c = self.counters
        outcomes, levels, damage = np.zeros(len(c.outcomes)), np.zeros((len(c.levels), len(c.zones))), np.zeros(1)
        if enumerate_shot(*compiled.args(), outcomes, levels, damage) != 0:
            raise DataError("tactic_a", None, "side a's first turn draws dice before its first shot (an "
                            "opportunity attack, V-10.7): no exact enumeration follows it")
        return ExactAttack(outcomes, levels, float(damage[0]))

    def attack_measure(self, prepared: Prepared) -> ShotMeasure | None:
        """The first shot or throw of side a's first turn (:func:`.exact.first_turn`): its kind, where
        it is fired from, braced or lying prone, after a move or readying, under poor visibility
        after a perception check (V-11.18); None for a melee attack."""
        first = self._first_turn(prepared)
        if first is None or first[1] != TO_SHOTS or first[2]:
            return None
        S, _, _ = first
        F = prepared.compiled.fighters
        shot = int(plan_shot(F, S, 0))
        if shot == L.SH_NONE:
            return None
        d = abs(int(S[0, L.S_X]) - int(S[1, L.S_X]))
        start = int(prepared.options["start_distance"])
        words = [SHOT_WORDS[shot]]
        if shot == L.SH_THROW:
            words = [f"throw of {prepared.a.thrown[int(S[0, L.S_THROWN])].name}"]
        if S[0, L.S_BRACED]:
            words.append("braced")
        if S[0, L.S_LYING]:
            words.append("lying prone")
        if engaged(F, S, 0):
            words.append("engaged (−3, V-11.11)")
        text = ", ".join([*words, f"from {d} m"]) if len(words) > 1 else f"{words[0]} from {d} m"
        done = []
        fresh = np.zeros((2, L.NS), dtype=np.int64)
        open_duel(F, fresh, prepared.compiled.options)
        if fresh[0, L.S_UNREADY] != 0 and S[0, L.S_UNREADY] == 0:
            done.append("readying its weapon (start_ready = no, V-10.9)")
        if d != start:
            done.append(f"moving from {start} m")
        if done:
            text += " after " + " and ".join(done)
        if prepared.compiled.options[O_VISIBILITY] == VISIBILITY_POOR and d > L.REACH:
            text += "; a perception check first (poor visibility, V-11.18: blind, no aimed shot and −3)"
        kind = next(k for k, v in L.SHOT_CODES.items() if v == shot)
        return ShotMeasure(kind, d, text)

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
