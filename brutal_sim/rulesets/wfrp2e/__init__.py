"""The WFRP 2nd edition melee duel ruleset (digest ``docs/rules/wfrp2e.md``, rules W-1 … W-9).

Files, one job each: :mod:`.model` (data schema), :mod:`.catalog` (bundled catalog, fighter files,
rules files: options, critical table), :mod:`.options` (rule options, every GAP, with their slots
and codes in the kernels' option row), :mod:`.layout` (fighter, state and counter layouts, the
critical table's codes), :mod:`.compile` (models → arrays), :mod:`.kernel` (the numba duel and
attack kernels, a package with one module per rule chapter), :mod:`.exact` (exact single-attack
enumeration), and :mod:`.crit` (critical table files → arrays, for ``crit_model = table``). This
module ties them into :data:`RULESET`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping, Sequence

import numpy as np

from ...core.battle import TARGETING, TARGETING_MORE
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
from .catalog import RULES_FILE_TABLES, Catalog, load_rules
from .compile import compile_pair, compile_sides, missile_as_played
from .exact import enumerate_attack, first_turn_shot
from .kernel import paired, run
from .model import Fighter, Weapon
from .options import O_ROUND_CAP, OPTION_SPECS, compile_options

#: WFRP 2e's drivers; a run plays the kernel set :func:`kernel_set` names
KERNELS = Kernels(run, paired)
#: the column of ``int64[2, NF]`` fighters that marks a missile weapon in hand at the start (W-7)
_MISSILE_PRESENT = L.P_WEAPONS + L.SLOT_MISSILE * L.WN + L.W_PRESENT


def has_missiles(fighters: np.ndarray) -> bool:
    """Whether a fighter of ``int64[N, NF]`` carries a missile weapon (W-7)."""
    return bool(fighters[:, _MISSILE_PRESENT].any())


def has_grapplers(fighters: np.ndarray) -> bool:
    """Whether a fighter of ``int64[N, NF]`` has the tactic ``grappler`` (W-8.13, W-12)."""
    return bool((fighters[:, L.P_TACTIC] == L.T_GRAPPLER).any())


def kernel_set(fighters: np.ndarray, group: bool = False) -> KernelSet:
    """The kernel set of a WFRP 2e run: ``ranged`` (the steps of W-7 and W-8.14, and those of the
    grapple, W-12) when a fighter carries a missile weapon (:func:`has_missiles`) or grapples
    (:func:`has_grapplers`); any other matchup compiles none of them, and plays as before them."""
    return KernelSet(ranged=has_missiles(fighters) or has_grapplers(fighters), group=group)


def compiled(fighters: np.ndarray, options: np.ndarray, grid: np.ndarray, effects: np.ndarray) -> Compiled:
    """WFRP arrays as a :class:`Compiled`: fighters ``int64[2, NF]``, options ``int64[NO]`` and the
    critical tables ``int64[100, CRIT_COLUMNS]``, ``int64[4, n, NFX]``; the kernel set of
    :func:`kernel_set`."""
    return Compiled(fighters, options, (grid, effects), KERNELS.playing(kernel_set(fighters)),
                    L.n_counters(int(options[O_ROUND_CAP])))


def _check_arena(opts: RuleOptions) -> None:
    """W-11.5: the sides' starting positions lie within the arena (a :class:`DataError` naming
    ``arena`` otherwise)."""
    arena, start = int(opts.values["arena"]), int(opts.values["start_distance"])
    if 0 < arena < start:
        raise DataError("options", "arena", f"{arena} yards is shorter than start_distance {start}: the "
                                        "fighters' starting positions lie within the arena (W-11.5)")


def _damage_text(w: Weapon) -> str:
    """A weapon's damage as the tables write it: SB ± n (melee, thrown), or the flat number."""
    if w.missile and not w.thrown:
        return str(w.damage)
    return f"SB{w.damage:+d}" if w.damage else "SB"


class WfrpRuleset(Ruleset):
    name = "wfrp2e"
    title = "WFRP 2nd edition (d100 duels: melee, moving, shooting)"
    counters = L.COUNTERS
    option_specs = OPTION_SPECS
    rules_file_tables = RULES_FILE_TABLES
    fighter_type = Fighter
    catalog_type = Catalog
    exact = staticmethod(enumerate_attack)
    warm_up_pair = ("orc", "goblin")
    #: stat weights step the characteristics by 5 (one advance of a career scheme), Attacks and
    #: Wounds by one, the main weapon's damage and each armour's points by one
    adjustable = (("ws", 5), ("s", 5), ("t", 5), ("ag", 5), ("a", 1), ("w", 1), ("main_hand.damage", 1),
                  ("armour.*.head", 1), ("armour.*.arms", 1), ("armour.*.body", 1), ("armour.*.legs", 1),
                  ("m", 1), ("bs", 5, "missile"), ("missile.damage", 1))

    matrix_tactics = L.MELEE_TACTIC_NAMES
    matrix_reactions = ("parry_first", "dodge_first")

    rule_prefix, digest, reference = "W", "rules/wfrp2e.md", "reference-wfrp2e.md"
    #: duels from a distance: moves, charges, runs (W-11) and shots (W-7); fights of several a side (W-13)
    capabilities = frozenset({"distance", "fights"})
    targeting_policies = TARGETING + TARGETING_MORE
    #: the items a gauntlet swaps: the melee hands, the missile weapon, a piece of armour or a talent
    #: added, the tactic (W-8.10's names)
    item_slots = (ItemSlot("main_hand", "main_hand", "weapons"), ItemSlot("off_hand", "off_hand", "weapons"),
                  ItemSlot("missile", "missile", "weapons"), ItemSlot("armour", "armour", "armour", many=True),
                  ItemSlot("talent", "talents", "talents", many=True),
                  ItemSlot("tactic", "tactic", choices=L.TACTIC_NAMES, empty=False))

    def item_placed(self, data: dict[str, Any], slot: ItemSlot, item: Any) -> None:
        """W-4.10: a main-hand weapon that is two-handed, or not one of those wielded beside an
        off-hand item, leaves the off hand empty."""
        if slot.field != "main_hand" or item is None:
            return
        get = item.get if isinstance(item, dict) else lambda k, d=None: getattr(item, k, d)
        if get("two_handed", False) or not get("main_with_off_hand", False):
            data["off_hand"] = None

    def file_kinds(self) -> dict[str, FileKind]:
        from .schema import file_kinds

        return file_kinds()

    def rule_options(self, rules: str | None, options: Mapping[str, str]) -> RuleOptions:
        return load_rules(rules, options)[0]

    def compile_matchup(self, fa: Fighter, fb: Fighter, rules: str | None, options: Mapping[str, str]) -> Prepared:
        opts, (grid, effects) = load_rules(rules, options)
        _check_arena(opts)
        for key, f in (("a", fa), ("b", fb)):
            if f.arrive_round != 1:
                raise DataError(f"side {key} ({f.name})", "arrive_round",
                                f"{f.arrive_round}: a duel's fighters are in it from round 1; arrive_round is for "
                                "fights of several a side (W-13.2)")
        return Prepared(fa, fb, opts, compiled(compile_pair(fa, fb, opts.values), compile_options(opts), grid, effects))

    def prepare_fight(self, side_a: Sequence[Any], side_b: Sequence[Any], rules: str | None = None,
                      options: Mapping[str, str] | None = None) -> PreparedFight:
        """Load, validate and compile a fight of several a side (W-13, docs/groups.md): each side 1 … 6
        fighter refs (catalog names, TOML paths or :class:`Fighter` objects) in line order; side b
        ``start_distance`` yards from side a."""
        sides = []
        for key, refs in (("a", side_a), ("b", side_b)):
            refs = [refs] if isinstance(refs, (str, Fighter)) else list(refs)
            if not 1 <= len(refs) <= L.MAX_SIDE:
                raise DataError(f"side {key}", None, f"has {len(refs)} fighters; allowed 1..{L.MAX_SIDE} a side")
            sides.append(tuple(self.load_fighter(ref, f"side {key} fighter {n + 1}") for n, ref in enumerate(refs)))
        opts, (grid, effects) = load_rules(rules, options or {})
        _check_arena(opts)
        cap = int(opts.values["round_cap"])
        for key, fighters in zip("ab", sides):
            if all(f.arrive_round > 1 for f in fighters):
                raise DataError(f"side {key}", "arrive_round", "every fighter arrives after round 1; at least one "
                                "must be in the fight from round 1 (W-13.2)")
            for n, f in enumerate(fighters):
                if f.arrive_round > cap:
                    raise DataError(f"side {key} fighter {n + 1} ({f.name})", "arrive_round",
                                    f"{f.arrive_round} is after the round cap ({cap}): it would never arrive; "
                                    f"allowed 1..{cap}")
        F = compile_sides(sides[0], sides[1], opts.values)
        row = compile_options(opts)
        k = L.n_fight_counters(int(row[O_ROUND_CAP]), F.shape[0])
        return PreparedFight(sides[0], sides[1], opts,
                             Compiled(F, row, (grid, effects), KERNELS.playing(kernel_set(F, group=True)), k),
                             self.name)

    def behaviour(self, fighter: Fighter) -> dict[str, str]:
        return {"tactic": fighter.tactic, "reaction": fighter.reaction}

    def check_attack(self, prepared: Prepared) -> None:
        if prepared.a.tactic in ("turtle", "grappler"):
            usable = ", ".join(t for t in L.TACTIC_NAMES if t not in ("turtle", "grappler"))
            what = "makes no attack" if prepared.a.tactic == "turtle" else \
                "makes grapple attempts, which deal no damage (W-12.1)"
            raise DataError("tactic_a", None, f"tactic {prepared.a.tactic!r} {what}; allowed for attack: {usable}")
        d = int(prepared.options["start_distance"])
        if prepared.a.missile is not None:
            self._check_shot(prepared, d)
            return
        difficult = prepared.options["terrain"] == "difficult"
        reach, move = 4 * prepared.a.m, (1 if difficult else 2) * prepared.a.m
        if difficult:
            reach = 0 if prepared.options["difficult_charge"] == "forbidden" else 2 * prepared.a.m
        if reach < L.CHARGE_DISTANCE:  # W-8.12: no charge at all, a Move to contact and an attack
            reach = move + L.ENGAGE_DISTANCE
            if d > reach:
                raise DataError("options", "start_distance",
                                f"{d} yards is beyond side a's reach ({reach} yards: it cannot charge, W-11.2, "
                                f"so a Move of {move} yards and an attack): it makes no attack in its first turn")
        elif d >= L.CHARGE_DISTANCE and d > reach:
            raise DataError("options", "start_distance",
                            f"{d} yards is beyond side a's charge reach ({reach} yards, W-11.2): it makes no attack "
                            "in its first turn; attack measures from at most 3 yards (a move and an attack) or "
                            "from 4 yards up to the charge reach (a charge, +10 WS)")

    @staticmethod
    def _check_shot(prepared: Prepared, d: int) -> None:
        """The attack measure of a shooter is the first shot of its first turn
        (:func:`.exact.first_turn_shot`): refused when that turn fires none, or draws dice first."""
        _, slot, _, _, drew = first_turn_shot(*prepared.compiled.args())
        if slot >= 0 and not drew:
            return
        w = missile_as_played(prepared.a, prepared.a.missile, prepared.options.values)
        second = prepared.a.off_hand_missile
        fires_second = second is not None and second.engaged_fire and prepared.a.talent_effect("ambidextrous")
        if d <= L.ENGAGE_DISTANCE and not w.engaged_fire and not fires_second:
            raise DataError("options", "start_distance", f"{d} yards: side a is engaged and its {w.name!r} does not "
                                                         "fire in melee (W-7.6: pistols, crossbow pistols)")
        tactic = prepared.a.tactic
        if drew:
            raise DataError("tactic_a", None, f"tactic {tactic!r} draws dice in its first turn before any shot (a "
                            f"push's manoeuvre, W-11.7, or a flight, W-3.16): attack measures a first shot that no "
                            f"dice come before")
        if prepared.options["surprise"] == "a":
            raise DataError("options", "surprise", "a: side a is surprised in round 1 (W-2.6), so its first turn "
                                                   "fires no shot")
        raise DataError("tactic_a", None, f"tactic {tactic!r} fires no shot in its first turn from {d} yards (W-8.9 – "
                        f"W-8.14: it moves out of range or away, reloads, aims for its next turn or delays); attack "
                        f"measures the first turn's first shot")

    #: ``attack --shot``: the first shot of the first turn, fired unaimed or aimed (W-7.3) instead
    shot_kinds = tuple(L.ATTACK_SHOT_CODES)

    def shot_changed(self, prepared: Prepared, kind: str) -> Prepared:
        """Side a's first shot of its first turn fired ``kind`` (``P_ATTACK_SHOT``: unaimed, or aimed
        with :func:`~.kernel.aim_bonus`, W-7.3); a fighter without a missile weapon is a
        :class:`DataError` naming ``shot``."""
        if prepared.a.missile is None:
            raise DataError("shot", None, f"{kind!r}: side a ({prepared.a.name}) has no missile weapon, so its "
                                          f"attack is a melee one")
        fighters = prepared.compiled.fighters.copy()
        fighters[0, L.P_ATTACK_SHOT] = L.ATTACK_SHOT_CODES[kind]
        return replace(prepared, compiled=replace(prepared.compiled, fighters=fighters))

    def attack_measure(self, prepared: Prepared) -> ShotMeasure | None:
        """The first shot of side a's first turn (:func:`.exact.first_turn_shot`): aimed or not, its
        weapon, the distance and band it is fired from, in melee, after a move or a reload; None for
        a melee attack."""
        if prepared.a.missile is None:
            return None
        S, slot, band, aim, drew = first_turn_shot(*prepared.compiled.args())
        if slot < 0 or drew:
            return None
        d = abs(int(S[0, L.S_X]) - int(S[1, L.S_X]))
        start = int(prepared.options["start_distance"])
        weapon = prepared.a.missile if slot == L.SLOT_MISSILE else prepared.a.off_hand_missile
        kind = "aimed" if aim > 0 else "unaimed"
        words = [f"{kind} shot (+{int(aim)})" if aim > 0 else f"{kind} shot", f"with its {weapon.name}"]
        if slot == L.SLOT_MISSILE_OFF:
            words.append("(off hand, W-7.8)")
        where = ("short", "long", "very long")[int(band)]
        text = " ".join(words) + f" from {d} yards ({where} range)"
        if S[0, L.S_ENGAGED]:
            text += ", fired in melee (−20, W-7.7)"
        done = []
        if d != start:
            done.append(f"moving from {start} yards")
        if prepared.options["start_loaded"] == "false":
            done.append("reloading")
        if done:
            text += ", after " + " and ".join(done)
        return ShotMeasure(kind, d, text)

    def listings(self) -> dict[str, Listing]:
        cat = Catalog.bundled()
        fighters = []
        for key in sorted(cat.fighter_files):
            f = cat.fighter(key)
            hands = " + ".join(x.name for x in (f.missile, f.off_hand_missile, f.main_hand, f.off_hand)
                               if x is not None) or "unarmed"
            fighters.append((key, f.name, f"{f.ws}/{f.bs}", f"{f.ag}", f"{f.a}", f"{f.w}", f"{f.m}",
                             f"{f.strength_bonus}/{f.toughness_bonus}", "—" if f.dodge is None else str(f.dodge), hands,
                             ", ".join(x.name for x in f.armour) or "—", f.tactic, f.reaction))
        return {
            "fighters": Listing(("name", "fighter", "WS/BS", "Ag", "A", "W", "M", "SB/TB", "dodge", "weapons",
                                 "armour", "tactic", "reaction"), fighters),
            "weapons": Listing(("name", "group", "damage", "qualities", "two-handed", "off hand"), [
                (k, w.group, _damage_text(w), ", ".join(w.qualities) or "—",
                 "yes" if w.two_handed else "", "yes" if w.off_hand else "")
                for k, w in cat.weapons.items() if not w.missile]),
            "missiles": Listing(("name", "group", "damage", "range", "reload", "qualities", "2H", "in melee"), [
                (k, w.group, _damage_text(w), f"{w.short}/{w.long or '–'}", w.reload, ", ".join(w.qualities) or "—",
                 "yes" if w.two_handed else "", "yes" if w.engaged_fire else "")
                for k, w in cat.weapons.items() if w.missile]),
            "armour": Listing(("name", "head", "arms", "body", "legs", "Ag penalty"), [
                (k, str(x.head), str(x.arms), str(x.body), str(x.legs), f"-{x.ag_penalty}" if x.ag_penalty else "")
                for k, x in cat.armour.items()]),
            "talents": Listing(("name", "rule", "option", "description"), [
                (k, x.rule, x.option or ("— (always)" if x.effect else "— (no effect)"), x.description)
                for k, x in cat.talents.items()]),
            "tactics": Listing(("name", "rule"), [(t, L.TACTIC_RULES[t]) for t in L.TACTIC_NAMES]),
        }


RULESET = WfrpRuleset()
