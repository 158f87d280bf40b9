"""A slow, readable, pure-Python reference of one WFRP 2e duel and of one single attack.

Written from the digest (``docs/rules/wfrp2e.md``, rule ids ``W-…``) and the readings documented in
``docs/reference-wfrp2e.md``, independently of :mod:`brutal_sim.rulesets.wfrp2e.kernel`, drawing
random numbers in the documented order so that the same ``(seed, duel index)`` gives the same
counters. Random numbers come from :class:`naive_rng.Xoshiro256StarStar` (shared with the Brutal
reference). The compiled arrays are read once into plain dataclasses; the game logic never indexes
arrays.

The fight is one of N fighters in a list (the compiled rows, side a's first), each with its side
and its foe (an index into the list; in a fight of two each is the other's foe), taking their turns
in the initiative order until every fighter of a side is out; the counters are kept per side.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from naive_rng import Xoshiro256StarStar

from brutal_sim.core.battle import TARGETING, TARGETING_MORE
from brutal_sim.rulesets.wfrp2e import layout as L, options as O

#: the choices of the option codes the reference reads (docs/reference-wfrp2e.md), in code order
OPPOSED = ("official_like", "both_fail_reroll", "defender_wins_ties")  # W-1.4
FURY = ("each", "first_only", "none")  # W-4.11
CRIT = ("sudden_death", "threshold", "table")  # W-5.4
FORTUNE = ("reaction_first", "attack_first", "never")  # W-8.7
CHOPPA = ("hand_weapon", "plus1_first_round", "impact_first_round")  # W-9.3
LOCATIONS = [(15, "head"), (35, "right_arm"), (55, "left_arm"), (80, "body"), (90, "right_leg"), (100, "left_leg")]
ZONE_OF = {"head": "head", "right_arm": "arm", "left_arm": "arm", "body": "body", "right_leg": "leg", "left_leg": "leg"}


def location_of(roll: int) -> str:
    """W-4.2: the hit location of a d100 roll, its digits reversed ("00" = 100)."""
    reversed_roll = int(f"{roll % 100:02d}"[::-1]) or 100
    return next(name for upper, name in LOCATIONS if reversed_roll <= upper)


# --------------------------------------------------------------------------------------------------
# Inputs as plain objects
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Item:
    damage: int
    qualities: frozenset[str]
    unarmed: bool = False
    choppa: bool = False
    shield: bool = False  # W-7.9


@dataclass(frozen=True)
class Missile:
    """A missile weapon (W-9.4): damage flat or SB + damage (thrown), ranges, reload in half actions."""
    item: Item
    short: int
    long: int
    reload: int
    full: bool
    thrown: bool
    in_melee: bool
    unreliable: bool = False  # Unreliable or Experimental (W-7.13)
    shrapnel: bool = False
    blackpowder: bool = False
    snare: bool = False  # W-7.13


@dataclass(frozen=True)
class Profile:
    ws: int
    ag: int
    attacks: int
    wounds: int
    sb: int
    tb: int
    dodge: int | None
    fortune: int
    fate: int
    tactic: str
    reaction: str
    ag_penalty: int
    mighty_blow: bool
    street_fighting: bool
    flee_at: int | None
    movement: int
    ap: dict[str, int]
    main: Item | None
    off: Item | None
    fists: Item
    bs: int = 0
    missile: Missile | None = None
    melee_tactic: str = "guarded"
    talents: frozenset[str] = frozenset()  # the talents that always play (model.TALENT_EFFECTS: W-7, W-12)
    thrown_supply: int | None = None  # W-7.12
    off_missile: Missile | None = None  # W-7.8: a second one in the off hand
    push: bool = False  # W-11.7: an engaged kiter or marksman manoeuvres
    s: int = 0  # Strength (W-7.13: escaping a snare)


def _item(row, slot: int) -> Item | None:
    base = L.P_WEAPONS + slot * L.WN
    if not row[base + L.W_PRESENT]:
        return None
    qualities = frozenset(q for q, f in L.QUALITY_FIELDS.items() if row[base + f])
    return Item(int(row[base + L.W_DAMAGE]), qualities, bool(row[base + L.W_UNARMED]), bool(row[base + L.W_CHOPPA]),
                bool(row[base + L.W_SHIELD]))


def _missile(row, slot: int = L.SLOT_MISSILE) -> Missile | None:
    item = _item(row, slot)
    if item is None:
        return None
    b = L.P_WEAPONS + slot * L.WN
    return Missile(item, int(row[b + L.W_SHORT]), int(row[b + L.W_LONG]), int(row[b + L.W_RELOAD]),
                   bool(row[b + L.W_RELOAD_FULL]), bool(row[b + L.W_THROWN]), bool(row[b + L.W_ENGAGED_FIRE]),
                   bool(row[b + L.W_UNRELIABLE]), bool(row[b + L.W_SHRAPNEL]), bool(row[b + L.W_BLACKPOWDER]),
                   bool(row[b + L.W_SNARE]))


TALENT_FIELDS = {"sure_shot": L.P_SURE_SHOT, "sharpshooter": L.P_SHARPSHOOTER, "mighty_shot": L.P_MIGHTY_SHOT,
                 "rapid_reload": L.P_RAPID_RELOAD, "master_gunner": L.P_MASTER_GUNNER, "quick_draw": L.P_QUICK_DRAW,
                 "ambidextrous": L.P_AMBIDEXTROUS, "wrestling": L.P_WRESTLING}


def profile_from_row(row) -> Profile:
    return Profile(
        ws=int(row[L.P_WS]), ag=int(row[L.P_AG]), attacks=int(row[L.P_A]), wounds=int(row[L.P_W]),
        sb=int(row[L.P_SB]), tb=int(row[L.P_TB]), dodge=None if row[L.P_DODGE] < 0 else int(row[L.P_DODGE]),
        fortune=int(row[L.P_FORTUNE]), fate=int(row[L.P_FATE]), tactic=L.TACTIC_NAMES[row[L.P_TACTIC]],
        reaction=L.REACTION_NAMES[row[L.P_REACTION]], ag_penalty=int(row[L.P_AG_PENALTY]),
        mighty_blow=bool(row[L.P_MIGHTY_BLOW]), street_fighting=bool(row[L.P_STREET_FIGHTING]),
        flee_at=None if row[L.P_FLEE_AT] < 0 else int(row[L.P_FLEE_AT]), movement=int(row[L.P_M]),
        ap={z: int(row[L.P_AP + k]) for k, z in enumerate(L.ZONE_NAMES)},
        main=_item(row, L.SLOT_MAIN), off=_item(row, L.SLOT_OFF), fists=_item(row, L.SLOT_FISTS),
        bs=int(row[L.P_BS]), missile=_missile(row), melee_tactic=L.TACTIC_NAMES[row[L.P_MELEE_TACTIC]],
        talents=frozenset(t for t, k in TALENT_FIELDS.items() if row[k]),
        thrown_supply=None if row[L.P_THROWN] < 0 else int(row[L.P_THROWN]),
        off_missile=_missile(row, L.SLOT_MISSILE_OFF), push=bool(row[L.P_PUSH]), s=int(row[L.P_S]))


@dataclass(frozen=True)
class Rules:
    round_cap: int
    initiative_every_round: bool
    surprised: int | None
    opposed: str
    auto: bool
    cap: int
    defensive_full: bool
    per_round: bool
    balanced_offhand: bool
    fury: str
    tiring_ignored: bool
    crit: str
    threshold: int
    prone_bonus: int
    fortune: str
    reroll_only: bool
    mighty_blow: bool
    street_fighting: bool
    start_distance: int
    spend_last: bool = False
    fortune_initiative: bool = False
    fortune_half_action: bool = False
    helpless_attackable: bool = False
    choppa: str = "hand_weapon"
    disengage: bool = False  # leave_melee = rulebook
    reposition: bool = False  # flee_outcome = reposition
    difficult: bool = False
    no_difficult_charge: bool = False
    arena: int = 0
    double_move: bool = False
    start_loaded: bool = True
    double_short: bool = False
    no_extreme: bool = False
    extreme_mod: str = "flat"
    reload_break_damage: bool = False
    sure_shot_stack: bool = True
    misfire_band: int = 0
    shrapnel_test: bool = False
    stunned_plus20: bool = False  # bs_bonus = plus20
    visibility: int = 0
    cover_legs: bool = False
    ammo: int = 0
    cut_after_move: bool = False  # delay_cut = after_move (W-11.6)
    swift_brace: bool = False  # W-7.11
    drop_half: bool = False  # W-7.12 drop = half
    manoeuvre_opposed: bool = False  # W-11.7 manoeuvre_test = opposed_ws
    manoeuvre_advance: bool = False  # W-11.7 manoeuvre_follow = advance
    kite_flee: bool = False  # W-8.11
    aim_next: bool = False  # W-7.3 aim = next_action
    snare: bool = False  # W-7.13 snare = entangle
    grapple_standard: bool = False  # W-12.1 grapple_via = standard (no attempt in a charge)
    grapple_no_reaction: bool = False  # W-12.1 grapple_reaction = none
    grapple_free_hands: bool = False  # W-12.1 grapple_hands = free
    grapple_body: bool = False  # W-12.5 grapple_location = body
    grapple_fury: bool = False  # W-12.5 grapple_fury = auto

    @classmethod
    def from_array(cls, o) -> "Rules":
        return cls(int(o[O.O_ROUND_CAP]), bool(o[O.O_INITIATIVE_ROLL]),
                   None if o[O.O_SURPRISE] == 0 else int(o[O.O_SURPRISE]) - 1, OPPOSED[o[O.O_OPPOSED]],
                   bool(o[O.O_AUTO_RESULTS]), int(o[O.O_MODIFIER_CAP]), bool(o[O.O_DEFENSIVE_STANCE]),
                   bool(o[O.O_PARRY_DODGE_CHOICE]), bool(o[O.O_BALANCED_OFFHAND]), FURY[o[O.O_FURY_CONFIRM]],
                   bool(o[O.O_TIRING]), CRIT[o[O.O_CRIT_MODEL]], int(o[O.O_CRIT_THRESHOLD]),
                   int(o[O.O_PRONE_BONUS]), FORTUNE[o[O.O_FORTUNE]], bool(o[O.O_FORTUNE_EXTRA_REACTION]),
                   bool(o[O.O_STRIKE_MIGHTY_BLOW]), bool(o[O.O_STREET_FIGHTING]), int(o[O.O_START_DISTANCE]),
                   bool(o[O.O_FORTUNE_KEEP_LAST]), bool(o[O.O_FORTUNE_INITIATIVE]),
                   bool(o[O.O_FORTUNE_HALF_ACTION]), bool(o[O.O_HELPLESS]), CHOPPA[o[O.O_CHOPPA]],
                   bool(o[O.O_LEAVE_MELEE]), bool(o[O.O_FLEE_OUTCOME]), bool(o[O.O_TERRAIN]),
                   bool(o[O.O_DIFFICULT_CHARGE]), int(o[O.O_ARENA]), bool(o[O.O_APPROACH]),
                   bool(o[O.O_START_LOADED]), bool(o[O.O_NO_LONG]), bool(o[O.O_EXTREME]),
                   ("flat", "aim_adds", "stack")[o[O.O_EXTREME_MOD]], bool(o[O.O_RELOAD_BREAK]),
                   bool(o[O.O_SURE_SHOT_STACK]), int(o[O.O_MISFIRE_BAND]), bool(o[O.O_SHRAPNEL]),
                   bool(o[O.O_BS_BONUS]), int(o[O.O_VISIBILITY]), bool(o[O.O_COVER]), int(o[O.O_AMMO]),
                   bool(o[O.O_DELAY_CUT]), bool(o[O.O_SWIFT_BRACE]), bool(o[O.O_DROP]),
                   bool(o[O.O_MANOEUVRE_TEST]), bool(o[O.O_MANOEUVRE_FOLLOW]), bool(o[O.O_KITE_FLEE]),
                   bool(o[O.O_AIM]), bool(o[O.O_SNARE]), bool(o[O.O_GRAPPLE_VIA]), bool(o[O.O_GRAPPLE_REACTION]),
                   bool(o[O.O_GRAPPLE_HANDS]), bool(o[O.O_GRAPPLE_LOCATION]), bool(o[O.O_GRAPPLE_FURY]))


@dataclass(frozen=True)
class Effect:
    out: bool = False
    death: bool = False
    helpless: bool = False
    stun: int = 0
    drop: bool = False
    prone: bool = False
    pen_ws: int = 0
    pen_ag: int = 0


class CritTable:
    """The critical table (W-5.4) as lookups: ``effect(value, roll)`` and ``effects[zone][number]``."""

    def __init__(self, grid, fx) -> None:
        self.grid = [[int(x) for x in row] for row in grid]
        self.effects = {zone: [Effect(bool(r[L.FX_OUT]), bool(r[L.FX_DEATH]), bool(r[L.FX_HELPLESS]), int(r[L.FX_STUN]),
                                      bool(r[L.FX_DROP]), bool(r[L.FX_PRONE]), int(r[L.FX_PEN_WS]), int(r[L.FX_PEN_AG]))
                               for r in fx[z]] for z, zone in enumerate(L.ZONE_NAMES)}

    def effect(self, zone: str, value: int, roll: int) -> Effect:
        return self.effects[zone][self.grid[roll - 1][min(value, len(self.grid[0]) - 1)]]


# --------------------------------------------------------------------------------------------------
# A fighter during a duel
# --------------------------------------------------------------------------------------------------


@dataclass
class Combatant:
    p: Profile
    side: int = 0  # 0 side a, 1 side b
    rank: int = 0  # its place in its side's line (docs/groups.md)
    targeting: str = "spread"  # its targeting policy in a fight of several (W-8.15, docs/groups.md)
    foe: int = -1  # the index of its foe in the fight's list
    dealt: int = 0  # final damage dealt and taken (the group block)
    taken: int = 0
    harmed: int = 0  # hits of a level above none it took (the one-blow counter)
    arrive: int = 1  # W-13.2: the round it joins the fight
    away: bool = False  # still to arrive
    init_share: int = 0  # W-13.1 per_type: r + 1 takes the initiative dice of row r
    out_seq: int = 0  # its place in the order of going out (1 first)
    wounds: int = 0
    fortune: int = 0
    stunned_turns: int = 0
    prone: bool = False
    holds_main: bool = False
    holds_off: bool = False
    parry_stance: bool = False
    defensive_stance: bool = False
    cautious: bool = False
    all_out: bool = False
    parried_this_round: bool = False
    dodged_this_round: bool = False
    surprised: bool = False
    out: str | None = None
    helpless: bool = False
    dead: bool = False
    pen_ws: int = 0
    pen_ag: int = 0
    x: int = 0  # yards on the line (W-11.5)
    running: bool = False
    bow_in_hand: bool = False  # the missile weapon (W-7), melee items stowed
    loaded: bool = False
    reload_done: int = 0
    supply: int | None = None  # shots left (W-7.12); None: unlimited
    kept: bool = False  # a delayed half action for a shot (W-11.6, W-8.14)
    entangled: bool = False  # W-7.13: caught by a snare
    aim_kept: int = 0  # W-7.3 next_action: an aim's bonus kept for the next turn's first action
    off_in_hand: bool = False  # W-7.8: the second missile weapon, in the off hand
    off_loaded: bool = False
    grapple: int = -1  # W-12: the index of the fighter it grapples with
    holding: bool = False  # W-12.5: it is the grappler

    def __post_init__(self) -> None:
        self.wounds = self.p.wounds
        self.fortune = self.p.fortune
        self.bow_in_hand = self.p.missile is not None
        self.off_in_hand = self.p.off_missile is not None
        self.holds_main = self.p.main is not None and not self.bow_in_hand
        self.holds_off = self.p.off is not None and not self.bow_in_hand

    def weapon(self) -> tuple[str, Item]:
        if self.holds_main:
            return "main", self.p.main
        if self.holds_off:
            return "off", self.p.off
        return "fists", self.p.fists

    def parry_item(self) -> Item | None:
        items = [x for x, held in ((self.p.off, self.holds_off), (self.p.main, self.holds_main)) if held]
        defensive = [x for x in items if "defensive" in x.qualities]
        return (defensive or items or [None])[0]


@dataclass
class Record:
    """What happened in one duel (or one single attack), laid out like the kernel's counters."""

    winner: int | None = None
    loser: int | None = None
    cause: str | None = None
    died: bool = False
    round: int = 0
    outcomes: list[list[int]] = field(default_factory=lambda: [[0] * 4 for _ in range(2)])
    hits: list[list[list[int]]] = field(default_factory=lambda: [[[0] * 4 for _ in range(5)] for _ in range(2)])
    fury: list[int] = field(default_factory=lambda: [0, 0])
    damage: list[int] = field(default_factory=lambda: [0, 0])
    round_cap: int = 0
    fighters: list = field(default_factory=list)  # the fight's Combatants, in row order
    last_harmed: int = 0  # harmful hits the losing side's last fighter out took

    def counter_row(self, k: int) -> list[int]:
        """The record in the kernel's counter layout: the header; when ``k`` is a fight of
        several's length (``n_fight_counters``), then the group block (docs/groups.md)."""
        c = L.COUNTERS
        row = [0] * k
        if self.winner is None and self.round:
            row[c.draws] = 1
        if self.winner is not None:
            row[c.wins + self.winner] = 1
            row[c.cause + self.loser * len(c.causes) + c.causes.index(self.cause)] = 1
            row[c.death + self.loser] = int(self.died)
            row[c.rounds + self.round] = 1
            row[c.one_blow + self.loser] = int(self.last_harmed == 1 and self.cause != "fled")
            row[c.rounds_a(self.round_cap or c.round_cap_of(k)) + self.round] = int(self.winner == 0)
            for lv in range(5):  # hits of each level the loser took, the last bin k or more
                row[c.loser_wounds_at(self.loser, lv, sum(self.hits[self.loser][lv]))] = 1
        for side in range(2):
            for k2 in range(4):
                row[c.attack + side * 4 + k2] = self.outcomes[side][k2]
            for lv in range(5):
                for z in range(4):
                    row[c.wound + side * 20 + lv * 4 + z] = self.hits[side][lv][z]
            row[c.special_at + side] = self.fury[side]
            row[c.damage + side] = self.damage[side]
        if self.fighters and k == L.n_fight_counters(self.round_cap, len(self.fighters)):
            g, base = L.GROUP, L.n_counters(self.round_cap)
            for side in (0, 1):
                standing = sum(1 for f in self.fighters if f.side == side and f.out is None)
                row[base + g.survivors + (L.MAX_SIDE + 1) * side + standing] += 1
            for r, f in enumerate(self.fighters):
                at = base + g.fighters + g.per_fighter * r
                row[at + (g.out + c.causes.index(f.out) if f.out is not None else g.standing)] += 1
                row[at + g.dead] += int(f.dead)
                row[at + g.dealt] += f.dealt
                row[at + g.taken] += f.taken
        return row


# --------------------------------------------------------------------------------------------------
# The duel
# --------------------------------------------------------------------------------------------------


class HeldShot(Exception):
    """``attack``'s measure: the first shot of side a's first turn, held (band, aim, hand) where the
    turn fires it, the turn stopped there."""


class Duel:
    def __init__(self, F, opts, grid, fx, seed: int, index: int) -> None:
        self.holding = False  # attack: side a's next shot is held, not fired
        self.attack_shot = int(F[0][L.P_ATTACK_SHOT])  # attack --shot: 0 as fired, 1 unaimed, 2 aimed
        self.rules = Rules.from_array(opts)
        self.max_engaged = int(opts[O.O_MAX_ENGAGED])  # W-13.5 (8, or 99: unlimited)
        self.outnumber = bool(opts[O.O_OUTNUMBER])  # W-13.4 table_6_2
        self.finish_first = bool(opts[O.O_FINISH_HELPLESS])  # W-13.6 on
        self.init_total: list[int] = []  # each fighter's initiative total and tie key (W-2.2)
        self.init_tie: list[int] = []
        self.crit = CritTable(grid, fx)
        self.rng = Xoshiro256StarStar.for_duel(seed, index)
        self.f = [Combatant(profile_from_row(row), side=int(row[L.P_SIDE]), rank=int(row[L.P_RANK]),
                            targeting=(TARGETING + TARGETING_MORE)[row[L.P_TARGETING]],
                            arrive=max(int(row[L.P_ARRIVE]), 1), init_share=int(row[L.P_INIT_SHARE])) for row in F]
        for f in self.f:
            f.away = f.arrive > 1
            if len(self.f) == 2:  # a fight of two: the other; of several: chosen (choose_foe)
                f.foe = next(j for j, g in enumerate(self.f) if g.side != f.side)
            f.surprised = f.side == self.rules.surprised
            f.x = self.rules.start_distance if f.side == 1 else 0  # W-11.5: side b start_distance away
            f.loaded = f.bow_in_hand and self.rules.start_loaded
            f.off_loaded = f.off_in_hand and self.rules.start_loaded
            if f.p.missile is not None:
                f.supply = f.p.thrown_supply if f.p.missile.thrown or f.p.missile.snare else (self.rules.ammo or None)
        self.outs = 0
        self.round = 1
        self.rec = Record(round_cap=self.rules.round_cap, fighters=self.f)

    # -- tests (W-1) ------------------------------------------------------------------------------
    def d100(self) -> int:
        return self.rng.die(100)

    def passes(self, roll: int, target: int) -> bool:
        if self.rules.auto and roll <= 5:
            return True
        if self.rules.auto and roll >= 96:
            return False
        return roll <= target

    def modifiers(self, total: int) -> int:
        cap = self.rules.cap
        return max(-cap, min(cap, total)) if cap else total

    def may_spend(self, who: Combatant, on_reaction: bool) -> bool:
        """W-8.7: the preferred use may take the last fortune point, the other keeps one back
        (``fortune_keep_last = keep``)."""
        if self.rules.fortune == "never":
            return False
        preferred = on_reaction == (self.rules.fortune == "reaction_first")
        return who.fortune >= (1 if preferred or self.rules.spend_last else 2)

    def spare_point(self, who: Combatant) -> bool:
        """W-6.5: 2d10 initiative and the extra half action are never the preferred use."""
        return self.rules.fortune != "never" and who.fortune >= (1 if self.rules.spend_last else 2)

    def test(self, who: Combatant, target: int, on_reaction: bool, may_reroll: bool = True) -> tuple[bool, int]:
        """A d100 test; a failure is rerolled with a fortune point when the policy allows (W-6.5)."""
        allowed = may_reroll and self.may_spend(who, on_reaction)
        roll = self.d100()
        if self.passes(roll, target) or not allowed:
            return self.passes(roll, target), roll
        who.fortune -= 1
        roll = self.d100()
        return self.passes(roll, target), roll

    def opposed(self, t_init: int, t_def: int) -> bool:
        while True:
            ri, rd = self.d100(), self.d100()
            si, sd = self.passes(ri, t_init), self.passes(rd, t_def)
            if si and sd:
                di, dd = abs(t_init - ri) // 10, abs(t_def - rd) // 10
                if di != dd:
                    return di > dd
                if self.rules.opposed == "defender_wins_ties":
                    return False
                if t_init != t_def:
                    return t_init > t_def
                continue
            if si or sd:
                return si
            if self.rules.opposed != "both_fail_reroll":
                return False

    # -- weapons ----------------------------------------------------------------------------------
    def has(self, item: Item, quality: str) -> bool:
        if quality == "impact" and item.choppa and self.rules.choppa == "impact_first_round" and self.round == 1:
            return True
        if quality not in item.qualities:
            return False
        if quality in ("impact", "fast") and "tiring" in item.qualities:
            return self.rules.tiring_ignored or self.round == 1
        return True

    # -- reactions (W-4.3 – W-4.6) --------------------------------------------------------------------
    def can_react(self, d: Combatant) -> bool:
        return (d.out is None and d.stunned_turns == 0 and not d.all_out and not d.surprised and not d.helpless
                and not self.in_grapple(d))  # W-12.3

    def reaction_cost(self, d: Combatant, kind: str) -> int | None:
        """0 free, 1 a fortune point for an extra use, None impossible."""
        if not self.can_react(d):
            return None
        if kind == "parry":
            if d.parry_item() is None or not (d.parry_stance or d.holds_off):
                return None
            blocked = d.parried_this_round or (self.rules.per_round and d.dodged_this_round)
        else:
            if d.p.dodge is None:
                return None
            blocked = d.dodged_this_round or (self.rules.per_round and d.parried_this_round)
        if not blocked:
            return 0
        if not self.rules.reroll_only and self.may_spend(d, True):
            return 1
        return None

    def speed(self, item: Item) -> int:
        return (-10 if self.has(item, "fast") else 0) + (10 if self.has(item, "slow") else 0)

    def parry_target(self, d: Combatant, weapon: Item) -> int:
        item = d.parry_item()
        bonus = 10 * d.cautious + (10 if "defensive" in item.qualities else 0)
        return d.p.ws + self.modifiers(self.speed(weapon) + bonus - d.pen_ws)

    def dodge_target(self, d: Combatant, weapon: Item) -> int:
        return d.p.dodge + self.modifiers(self.speed(weapon) + 10 * d.cautious - d.pen_ag)

    def react(self, d: Combatant, weapon: Item) -> str | None:
        """``d`` answers a hit with the reaction it picks (its Fortune cost paid, the
        round's parry or dodge spent): the kind ("parry", "dodge") if its test stops the hit, else
        None (no reaction, or a failed one)."""
        kind, cost = self.pick_reaction(d, weapon)
        if kind is None:
            return None
        d.fortune -= cost
        if kind == "parry":
            d.parried_this_round = True
            d.parry_stance = False
            t = self.parry_target(d, weapon)
        else:
            d.dodged_this_round = True
            t = self.dodge_target(d, weapon)
        return kind if self.test(d, t, on_reaction=True, may_reroll=cost == 0)[0] else None  # one point per test

    def pick_reaction(self, d: Combatant, weapon: Item) -> tuple[str | None, int]:
        if d.p.reaction == "none":
            return None, 0
        costs = {"parry": self.reaction_cost(d, "parry"), "dodge": self.reaction_cost(d, "dodge")}
        for cost in (0, 1):
            options = [k for k, c in costs.items() if c == cost]
            if not options:
                continue
            if len(options) == 1:
                return options[0], cost
            if d.p.reaction == "parry_first":
                return "parry", cost
            if d.p.reaction == "best":
                better = self.parry_target(d, weapon) >= self.dodge_target(d, weapon)
                return ("parry" if better else "dodge"), cost
            return "dodge", cost
        return None, 0

    # -- an attack (W-4) --------------------------------------------------------------------------
    def to_hit(self, a: Combatant, d: Combatant, hand: str, weapon: Item, modifier: int) -> int:
        """W-4.1: the to-hit target of a's attack at d."""
        total = modifier - a.pen_ws
        total += 20 if d.stunned_turns else 0
        total += 20 if self.in_grapple(d) else 0  # W-12.3: an attack from outside the grapple
        total += self.rules.prone_bonus if d.prone else 0
        total -= 20 if d.defensive_stance else 0
        total += 20 if d.running else 0  # W-11.2
        if (hand == "off" and not ("balanced" in weapon.qualities and self.rules.balanced_offhand)
                and "ambidextrous" not in a.p.talents):  # W-7.8
            total -= 20
        street = a.p.street_fighting and self.rules.street_fighting
        if hand == "fists" and street:
            total += 10
        total += self.outnumbered(next(j for j, f in enumerate(self.f) if f is d))  # W-13.4
        return a.p.ws + self.modifiers(total)

    def attack(self, ai: int, modifier: int, feinted: bool) -> None:
        a = self.f[ai]
        d = self.f[a.foe]
        hand, weapon = a.weapon()
        target = self.to_hit(a, d, hand, weapon, modifier)
        if d.helpless:  # W-6.2: hit automatically; the d100 only places the blow
            roll = self.d100()
        else:
            hit, roll = self.test(a, target, on_reaction=False)
            if not hit:
                self.rec.outcomes[a.side][L.OUT_MISS] += 1
                return
        outcome = "hit"
        if not feinted and not d.helpless:
            kind = self.react(d, weapon)
            if kind is not None:
                outcome = "parried" if kind == "parry" else "dodged"
        self.rec.outcomes[a.side][("miss", "parried", "dodged", "hit").index(outcome)] += 1
        if outcome != "hit":
            return
        self.land(ai, hand, weapon, roll, target)

    def land(self, ai: int, hand: str, weapon: Item, roll: int, target: int) -> None:
        """A hit (W-4.2 – W-4.12, W-5): location, damage with Fury, TB and AP, criticals; ``hand``
        ``"missile"`` for a shot (W-7.1: flat damage, SB + damage thrown)."""
        a = self.f[ai]
        d = self.f[a.foe]
        street = a.p.street_fighting and self.rules.street_fighting
        location = location_of(roll)
        if hand == "missile" and self.rules.cover_legs and location.endswith("_leg"):
            location = "body"  # W-7.9 cover
        # damage (W-4.7, W-4.11, W-4.12)
        kept = self.rng.die(10)
        if self.has(weapon, "impact"):
            kept = max(kept, self.rng.die(10))
        if hand == "missile":
            raw = kept + weapon.damage + (a.p.sb if a.p.missile.thrown else 0)
            raw += 1 if "mighty_shot" in a.p.talents else 0  # W-7.14
        else:
            raw = kept + a.p.sb + weapon.damage
            raw += 1 if a.p.mighty_blow and self.rules.mighty_blow else 0
            raw += 1 if hand == "fists" and street else 0
            raw += 1 if weapon.choppa and self.rules.choppa == "plus1_first_round" and self.round == 1 else 0
        if d.helpless:
            raw += self.rng.die(10)  # W-6.2: +1d10
        fury_dice = 0
        last = kept
        while last == 10:
            confirm = self.rules.fury == "each" or (self.rules.fury == "first_only" and fury_dice == 0)
            confirm = confirm and not d.helpless
            if confirm and not self.passes(self.d100(), target):
                break
            last = self.rng.die(10)
            raw += last
            fury_dice += 1
        if fury_dice:
            self.rec.fury[a.side] += 1
        zone = ZONE_OF[location]
        ap = d.p.ap[zone] * (2 if weapon.unarmed else 1)
        pierced = "armour_piercing" in weapon.qualities and ap > 0
        if pierced:
            ap -= 1
        if hand == "missile" and "sure_shot" in a.p.talents and not (pierced and not self.rules.sure_shot_stack):
            ap = max(0, ap - 1)  # W-7.13 Sure Shot
        self.wound(a, d, location, weapon, max(0, raw - d.p.tb - ap))

    def wound(self, a: Combatant, d: Combatant, location: str, weapon: Item, final: int) -> None:
        """W-5: d takes ``final`` damage on ``location``: Wounds, criticals, the counters."""
        zone = ZONE_OF[location]
        if final and self.rules.reload_break_damage:
            d.reload_done = 0  # W-7.10
        self.rec.damage[d.side] += final
        a.dealt += final
        d.taken += final
        if final == 0:
            level = "none"
        elif final <= d.wounds:
            d.wounds -= final
            level = "wounded" if d.wounds > 3 else "heavily_wounded"
        else:
            value = final - d.wounds + (1 if "precise" in weapon.qualities else 0)
            d.wounds = 0
            self.critical(d, location, value)
            level = "out" if d.out else "critical"
        self.rec.hits[d.side][L.LEVEL_NAMES.index(level)][L.ZONE_NAMES.index(zone)] += 1
        d.harmed += level != "none"

    def critical(self, d: Combatant, location: str, value: int) -> None:
        """W-5.3, W-5.4, W-5.6."""
        if self.rules.crit == "sudden_death" or (self.rules.crit == "threshold" and value >= self.rules.threshold):
            self.take_out(d, "critical", deadly=True)
            return
        if self.rules.crit == "threshold":
            return
        e = self.crit.effect(ZONE_OF[location], value, self.d100())
        d.stunned_turns = max(d.stunned_turns, e.stun)
        if e.drop:
            if location == "left_arm":
                d.holds_off = False
            else:
                d.holds_main = False
        d.prone = d.prone or e.prone
        d.pen_ws += e.pen_ws
        d.pen_ag += e.pen_ag
        if e.death:
            self.take_out(d, "critical", deadly=True)
        elif e.out:
            self.take_out(d, "critical")
        elif e.helpless:
            if self.rules.helpless_attackable:
                d.helpless = True
            else:
                self.take_out(d, "helpless")

    def take_out(self, d: Combatant, cause: str, deadly: bool = False) -> None:
        if d.out is None:
            d.out = cause
            self.outs += 1
            d.out_seq = self.outs
        if deadly:
            d.dead = d.dead or d.p.fate == 0

    # -- turns (W-2, W-3, W-8) ----------------------------------------------------------------------
    def foe_could_parry(self, e: Combatant) -> bool:
        return self.reaction_cost(e, "parry") == 0

    def plan(self, i: int, halves: int) -> tuple[int, int, bool]:
        me = self.f[i]
        foe = self.f[me.foe]
        tactic = me.p.tactic
        if tactic == "grappler":  # W-8.13 (after drop_hands); the third value marks a grapple attempt
            if halves == 0:
                return 0, 0, False
            if self.can_seize(i):
                if self.engaged(i):
                    return 1, 10 if halves == 2 else 0, True  # aim + attempt
                n, modifier, _ = self.close_in(i, halves)  # as rush (W-8.12)
                return n, modifier, n > 0 and (modifier != 10 or not self.rules.grapple_standard)
        if tactic in ("marksman", "shoot_then_draw", "rush", "grappler"):
            tactic = me.p.melee_tactic
        if tactic == "turtle":
            if self.rules.defensive_full:
                me.defensive_stance = me.defensive_stance or halves == 2
                me.parry_stance = me.parry_stance or halves < 2
            else:
                me.defensive_stance = True
                me.parry_stance = me.parry_stance or halves == 2
            return 0, 0, False
        if not self.engaged(i):
            return self.close_in(i, halves)
        if halves == 1:
            return 1, 0, False
        if tactic == "swift" and me.p.attacks >= 2:
            return me.p.attacks, 0, False
        if tactic == "berserk":
            me.all_out = True
            return 1, 20, False
        if tactic == "cautious":
            me.cautious = True
            return 1, -10, False
        if tactic == "feinter" and me.p.ws >= foe.p.ws and self.foe_could_parry(foe):
            return 1, 0, True
        if me.holds_off:
            return 1, 10, False  # aim + attack, parrying with the off-hand item
        me.parry_stance = True
        return 1, 0, False

    # -- distance (W-11) ----------------------------------------------------------------------------
    def gap(self, i: int) -> int:
        """The distance from fighter i to its foe (W-11.5)."""
        return abs(self.f[i].x - self.f[self.f[i].foe].x)

    as_if_engaged = False  # b's stances of the single attack
    as_if_apart = False  # a kept shot at a charger before its blow (W-8.14, delay_cut = after_move)

    def engaged(self, i: int) -> bool:
        """W-11.3: fighter i is adjacent to its foe."""
        return not self.as_if_apart and (self.as_if_engaged or self.gap(i) <= 2)

    def step(self, me: Combatant) -> int:
        return me.p.movement if self.rules.difficult else 2 * me.p.movement  # W-11.2 Move, Flee

    def go_toward(self, i: int, yards: int, stop: int) -> None:
        me = self.f[i]
        foe = self.f[me.foe]
        gap = self.gap(i)
        new_gap = max(stop, gap - yards) if gap > stop else gap
        me.x = foe.x - new_gap if me.x <= foe.x else foe.x + new_gap

    def charge_reach(self, me: Combatant) -> int:
        """W-11.2: 4·M; in difficult terrain 2·M, or none with difficult_charge = forbidden."""
        if self.rules.difficult:
            return 0 if self.rules.no_difficult_charge else 2 * me.p.movement
        return 4 * me.p.movement

    def reach(self, me: Combatant) -> int:
        """W-8.11: the farthest its melee attack comes from in a turn: the charge reach, or with no
        charge possible (under 4 yards) a Move to contact and an attack."""
        charge = self.charge_reach(me)
        return charge if charge >= 4 else self.step(me) + 2

    def close_in(self, i: int, halves: int) -> tuple[int, int, bool]:
        """W-8.12: move + attack under 4 yards, a charge within 4·M, else a run (or two moves) that
        stops 4 yards short; a fighter that cannot charge (W-11.2 forbidden) Moves to contact and
        attacks once adjacent with a half action left."""
        me = self.f[i]
        m = me.p.movement
        reach = self.charge_reach(me)
        if self.gap(i) < 4 or reach < 4:
            self.go_toward(i, self.step(me), 2)
            if self.engaged(i):
                return (1, 0, False) if halves == 2 else (0, 0, False)
            if halves == 2:
                self.go_toward(i, self.step(me), 2)
            return 0, 0, False
        if halves == 2 and self.gap(i) <= reach:
            self.go_toward(i, self.gap(i), 2)
            return 1, 10, False  # W-3.3 charge
        if halves == 2 and not self.rules.double_move and not self.rules.difficult:
            self.go_toward(i, 6 * m, 4)
            me.running = True
        else:
            self.go_toward(i, halves * self.step(me), 4)
        return 0, 0, False

    # -- shooting (W-7) ------------------------------------------------------------------------------
    def band(self, i: int, hand: str = "main") -> str:
        """W-7.4, W-7.5."""
        w = self.f[i].p.missile if hand == "main" else self.f[i].p.off_missile
        longest = w.long or (2 * w.short if self.rules.double_short else w.short)
        gap = self.gap(i)
        if gap <= w.short:
            return "short"
        if gap <= longest:
            return "long"
        if not self.rules.no_extreme and gap <= 2 * longest:
            return "very_long"
        return "out"

    @staticmethod
    def hand_to_fire(me: Combatant, engaged: bool) -> str | None:
        """W-7.8: the loaded weapon, the main hand's first; engaged only a pistol-class one (W-7.6)."""
        if me.loaded and (not engaged or me.p.missile.in_melee):
            return "main"
        if me.off_loaded and (not engaged or (me.p.off_missile.in_melee and "ambidextrous" in me.p.talents)):
            return "off"
        return None

    def unload(self, me: Combatant, hand: str) -> None:
        if hand == "main":
            me.loaded = False
        else:
            me.off_loaded = False

    def shoot(self, ai: int, band: str, aim: int, hand: str = "main") -> None:
        """W-7.1, W-7.2, W-7.7, W-7.8, W-7.9: a BS test, no parry or dodge."""
        if self.holding and ai == 0:
            raise HeldShot(band, aim, hand)
        a = self.f[ai]
        d = self.f[a.foe]
        if band == "very_long":
            total = {"flat": -30, "aim_adds": -30 + aim, "stack": -50 + aim}[self.rules.extreme_mod]
        else:
            total = aim - (20 if band == "long" else 0)
        total -= 20 if d.running else 0
        total -= 20 if self.engaged(ai) else 0
        shields = [x for x, held in ((d.p.main, d.holds_main), (d.p.off, d.holds_off)) if held and x.shield]
        total -= 10 if shields and not d.surprised else 0  # W-7.9: a shield bearer, aware
        total += 20 if d.stunned_turns and self.rules.stunned_plus20 else 0
        total += 20 if self.in_grapple(d) and self.rules.stunned_plus20 else 0  # W-12.3
        total -= self.rules.visibility
        total -= 20 if hand == "off" and "ambidextrous" not in a.p.talents else 0  # W-7.8
        target = a.p.bs + self.modifiers(total)
        w = a.p.missile if hand == "main" else a.p.off_missile
        if self.reload_need(a, w) > 0:
            self.unload(a, hand)
        if a.supply is not None:
            a.supply -= 1
            if a.supply == 0:
                a.loaded = a.off_loaded = False
        if d.helpless or (w.shrapnel and band == "short" and not self.rules.shrapnel_test):  # W-7.13 Shrapnel
            roll, hit = self.d100(), True
        else:
            hit, roll = self.test(a, target, on_reaction=False)
        if w.unreliable and roll > 100 - self.rules.misfire_band:  # W-7.13: a jam
            self.unload(a, hand)
            a.reload_done, hit = 0, False
        if not hit:
            self.rec.outcomes[a.side][L.OUT_MISS] += 1
            return
        self.rec.outcomes[a.side][L.OUT_HIT] += 1
        self.land(ai, "missile", w.item, roll, target)
        if w.snare and self.rules.snare and d.out is None:  # W-7.13: entangled
            d.entangled = True

    def escape(self, i: int) -> None:
        """W-7.13: a full action, the higher of S and Ag (Ag penalties off), no fortune."""
        me = self.f[i]
        target = max(me.p.s, me.p.ag - me.p.ag_penalty + self.modifiers(-me.pen_ag))
        ok, _ = self.test(me, target, on_reaction=False, may_reroll=False)
        if ok:
            me.entangled = False
        me.reload_done = 0

    @staticmethod
    def reload_need(me: Combatant, w: Missile | None = None) -> int:
        """W-7.10: Rapid Reload −1 half action, Master Gunner −1 more for blackpowder."""
        w = w or me.p.missile
        if w.reload == 0:
            return 0
        n = w.reload - ("rapid_reload" in me.p.talents) - ("master_gunner" in me.p.talents and w.blackpowder)
        return max(n, 0)

    @staticmethod
    def aim(me: Combatant) -> int:
        return 20 if "sharpshooter" in me.p.talents else 10  # W-7.3

    def swift_ready(self, me: Combatant, w: Missile) -> bool:
        """W-7.11: a free or no reload, or with swift_brace both weapons loaded."""
        return self.reload_need(me, w) == 0 or (self.rules.swift_brace and me.loaded and me.off_loaded)

    def draw_weapons(self, i: int, halves: int, attacked: bool) -> int:
        """W-8.10, W-7.12: drop the off-hand missile weapon (drop = half: a half action), the Ready
        (a half action, free with Quick Draw), a standard attack with a half action left."""
        me = self.f[i]
        if halves == 0 or self.lost_foe(i):
            return 0
        if me.off_in_hand:
            me.off_in_hand = me.off_loaded = False
            halves -= 1 if self.rules.drop_half else 0
            if halves == 0:
                return 0
        me.bow_in_hand = False
        me.reload_done = 0
        me.holds_main, me.holds_off = me.p.main is not None, me.p.off is not None
        if "quick_draw" in me.p.talents:  # the Ready is free
            if attacked:
                me.parry_stance = True  # the round's attack is spent (W-2.4)
                return 0
            return halves
        if halves == 2:
            self.attack(i, 0, False)
        return 0

    def manoeuvre(self, i: int) -> None:
        """W-3.13, W-11.7: a WS attack (parry and dodge allowed) or an opposed WS test; a hit pushes
        the foe 2 yards; with advance the manoeuvrer follows."""
        me = self.f[i]
        foe = self.f[me.foe]
        if self.rules.manoeuvre_opposed:
            won = self.opposed(me.p.ws + self.modifiers(-me.pen_ws), foe.p.ws + self.modifiers(-foe.pen_ws))
        else:
            hand, weapon = me.weapon()
            total = -me.pen_ws + (20 if foe.stunned_turns else 0) + (self.rules.prone_bonus if foe.prone else 0)
            total -= 20 if foe.defensive_stance else 0
            total += 20 if foe.running else 0
            if hand == "fists" and me.p.street_fighting and self.rules.street_fighting:
                total += 10
            total += self.outnumbered(me.foe)  # W-13.4
            won, _ = self.test(me, me.p.ws + self.modifiers(total), on_reaction=False)
            if won:
                won = self.react(foe, weapon) is None
        if won:
            self.step_away(me.foe, 4 - self.gap(i))  # to 4 yards apart
            if self.rules.manoeuvre_advance:
                self.go_toward(i, 2, 2)

    def ranged_turn(self, i: int, halves: int, kept: int = 0) -> int:
        """W-8.9 marksman / W-8.10 shoot_then_draw with the missile weapon in hand; the half actions
        left for the melee tactic (W-7.12 Quick Draw). ``kept``: an aim kept from the last turn
        (W-7.3 next_action), for a shot as the first action only."""
        me = self.f[i]
        w = me.p.missile
        if self.engaged(i):
            if me.p.push and not self.f[me.foe].helpless and not self.in_grapple(self.f[me.foe]):  # W-11.7, W-12.3
                self.manoeuvre(i)
                halves -= 1
                if halves == 0 or self.lost_foe(i):
                    return 0
                if not self.engaged(i):
                    self.step_away(i, self.step(me))
                    return 0
                return self.draw_weapons(i, halves, attacked=True)
            if me.p.tactic == "kite" and halves == 2 and self.rules.kite_flee and self.rules.reposition:
                self.flee(i)  # W-8.11
                return 0
            hand = self.hand_to_fire(me, engaged=True)  # W-8.10: a pistol fires, then the melee weapon is drawn
            if hand:
                self.shoot(i, self.band(i, hand), kept, hand)
                halves -= 1
            return self.draw_weapons(i, halves, attacked=hand is not None)
        if not me.loaded and me.supply == 0:  # W-7.12: spent; the melee items readied
            if me.off_in_hand:
                me.off_in_hand = me.off_loaded = False
                halves -= 1 if self.rules.drop_half else 0
                if halves == 0:
                    return 0
            me.bow_in_hand = False
            me.reload_done = 0
            me.holds_main, me.holds_off = me.p.main is not None, me.p.off is not None
            return halves if "quick_draw" in me.p.talents else halves - 1
        if me.p.tactic == "kite" and halves == 2 and self.kite(i):
            return 0
        foe = self.f[me.foe]
        foe_tactic = foe.p.melee_tactic if foe.p.tactic in ("marksman", "shoot_then_draw", "rush", "overwatch",
                                                            "grappler") else foe.p.tactic
        if (me.p.tactic == "overwatch" and halves == 2 and self.hand_to_fire(me, False) and not foe.bow_in_hand
                and foe_tactic != "turtle" and self.gap(i) > w.short):
            me.kept = True  # W-8.14: delay (W-11.6)
            return 0
        while halves and not self.lost_foe(i):
            hand = self.hand_to_fire(me, engaged=False)
            if kept:  # W-7.3: the kept aim goes to a shot as the first action, else it is lost
                aim, kept = kept, 0
                if hand and self.band(i, hand) != "out":
                    self.shoot(i, self.band(i, hand), aim, hand)
                    halves -= 1
                    continue
            if hand is None:  # W-7.10: the main-hand weapon first
                if me.supply == 0:
                    return 0
                rw = w if not me.loaded else me.p.off_missile
                need = self.reload_need(me, rw)
                cost = 2 if rw.full and need - me.reload_done >= 2 else 1
                if cost > halves:
                    return 0
                me.reload_done += cost
                halves -= cost
                if me.reload_done >= need:
                    if not me.loaded:
                        me.loaded = True
                    else:
                        me.off_loaded = True
                    me.reload_done = 0
                continue
            hw = w if hand == "main" else me.p.off_missile
            band = self.band(i, hand)
            if band in ("short", "long") and halves == 2 and me.p.attacks >= 2 and self.swift_ready(me, hw):
                for _ in range(me.p.attacks):  # W-7.11 swift shots
                    if self.lost_foe(i):
                        break
                    shot = self.hand_to_fire(me, False) if self.rules.swift_brace else hand
                    if shot is None or not (me.loaded if shot == "main" else me.off_loaded):
                        break
                    if self.band(i, shot) not in ("short", "long"):
                        break
                    self.shoot(i, self.band(i, shot), 0, shot)
                halves = 0
            elif band in ("short", "long") and halves == 1 and self.rules.aim_next:
                me.aim_kept = self.aim(me)  # W-7.3 next_action: the last half action aims for the next turn
                halves = 0
            elif band in ("short", "long"):
                self.shoot(i, band, self.aim(me) if halves == 2 else 0, hand)  # W-7.3 aim with a half to spare
                halves = 0 if halves == 2 else halves - 1
            elif band == "very_long" and halves == 2:
                self.shoot(i, band, self.aim(me), hand)
                return 0
            else:
                longest = hw.long or (2 * hw.short if self.rules.double_short else hw.short)
                self.go_toward(i, self.step(me), longest)
                halves -= 1
        return 0

    def arena_bounds(self) -> tuple[int, int] | None:
        if not self.rules.arena:
            return None
        low = (self.rules.start_distance - self.rules.arena) // 2
        return low, low + self.rules.arena

    def step_away(self, i: int, yards: int) -> None:
        me = self.f[i]
        foe = self.f[me.foe]
        away = -1 if me.x < foe.x or (me.x == foe.x and me.side == 0) else 1
        me.x += away * yards
        bounds = self.arena_bounds()
        if bounds:
            me.x = min(max(me.x, bounds[0]), bounds[1])

    def kite(self, i: int) -> bool:
        """W-8.11 with two half actions; False: play as marksman (rules 1 and 6, the arena's end)."""
        me = self.f[i]
        foe = self.f[me.foe]
        r = self.reach(foe)
        s, run, d = self.step(me), 0 if self.rules.difficult else 6 * me.p.movement, self.gap(i)
        bounds = self.arena_bounds()
        if bounds:
            away = -1 if me.x < foe.x or (me.x == foe.x and me.side == 0) else 1
            if (away < 0 and me.x <= bounds[0]) or (away > 0 and me.x >= bounds[1]):
                return False
        if d > r:
            return False
        hand = self.hand_to_fire(me, engaged=False)
        if d + s > r and hand:
            self.step_away(i, s)
            if self.band(i, hand) in ("short", "long"):
                self.shoot(i, self.band(i, hand), 0, hand)
        elif d + s > r and self.reload_need(me) <= 1:
            self.step_away(i, s)
            me.loaded, me.reload_done = True, 0
        elif d + 2 * s > r:
            self.step_away(i, s)
            self.step_away(i, s)
        elif run and d + run > r:
            self.step_away(i, run)
            me.running = True
        else:
            return False
        return True

    def flee(self, i: int) -> None:
        """W-3.16, W-11.4."""
        me = self.f[i]
        foe = self.f[me.foe]
        if self.engaged(i) and not self.rules.disengage:
            for j, f in enumerate(self.f):  # W-13.4: a free attack for every enemy engaged with it
                if f.out is None and f.foe == i and abs(f.x - me.x) <= 2 and me.out is None and not self.in_grapple(f):
                    self.attack(j, 0, False)
        if not self.rules.reposition:
            self.take_out(me, "fled")
            return
        if me.out is not None:
            return
        away = -1 if me.x < foe.x or (me.x == foe.x and me.side == 0) else 1
        me.x += away * self.step(me)
        if self.rules.arena:
            low = (self.rules.start_distance - self.rules.arena) // 2
            me.x = min(max(me.x, low), low + self.rules.arena)

    def feint(self, i: int) -> bool:
        me = self.f[i]
        foe = self.f[me.foe]
        return self.opposed(me.p.ws + self.modifiers(-me.pen_ws), foe.p.ws + self.modifiers(-foe.pen_ws))

    def side_out(self, side: int) -> bool:
        """Every fighter of ``side`` is out."""
        return all(f.out for f in self.f if f.side == side)

    def decided(self) -> bool:
        """A side is out (the fight is over)."""
        return self.side_out(0) or self.side_out(1)

    # -- fights of several a side (W-13, W-8.15, docs/groups.md) -----------------------------------
    def engagers(self, j: int) -> int:
        """Fighters in the fight whose foe is j."""
        return sum(1 for f in self.f if f.out is None and f.foe == j)

    def choose_foe(self, i: int) -> None:
        """docs/groups.md: i's foe among the enemies in the fight with fewer other engagers than
        ``max_engaged``: ``spread`` the fewest other engagers, ``weakest`` the fewest Wounds left
        (capped at 127; ``focus`` alike), ``nearest`` no preference, ``shooters_first`` those holding
        a loaded missile weapon, then the fewest engagers; ties: the current foe, the nearest in
        line, the lowest row; ``random`` keeps its foe while it may, else a die among the candidates
        of the lowest tier. With ``helpless = attackable`` a helpless enemy comes last (``finish_helpless =
        off``) or first (``on``), W-13.6."""
        me = self.f[i]
        best, best_key = -1, None
        candidates = []
        for j, f in enumerate(self.f):
            if f.side == me.side or f.out is not None or f.away:
                continue
            others = self.engagers(j) - (1 if j == me.foe else 0)
            if others >= self.max_engaged:
                continue
            shooter = f.bow_in_hand and (f.loaded or f.off_loaded)
            primary = {"spread": others, "weakest": min(f.wounds, 127), "focus": min(f.wounds, 127), "nearest": 0,
                       "shooters_first": (0 if shooter else 1, others), "random": 0}[me.targeting]
            tier = (-1 if self.finish_first else 1) if self.rules.helpless_attackable and f.helpless else 0
            candidates.append((tier, j))
            key = (tier, primary, j != me.foe, abs(f.rank - me.rank), j)
            if best_key is None or key < best_key:
                best, best_key = j, key
        if me.targeting == "random" and best >= 0 and best != me.foe:  # a die among the lowest tier
            lowest = [j for tier, j in candidates if tier == best_key[0]]
            best = lowest[self.rng.die(len(lowest)) - 1]
        me.foe = best

    def outnumbered(self, d: int) -> int:
        """W-13.4 ``outnumber = table_6_2``: enemies engaged with d (their foe, within 2 yards)
        against d and its allies engaged with those enemies: 3 to 1 or more +20, 2 to 1 +10."""
        if not self.outnumber:
            return 0
        target = self.f[d]

        def engaged_with(f: Combatant) -> bool:
            return f.foe >= 0 and abs(f.x - self.f[f.foe].x) <= 2

        enemies = [j for j, f in enumerate(self.f) if f.side != target.side and f.out is None and not f.away
                   and f.foe == d and engaged_with(f)]
        friends = 1 + sum(1 for j, f in enumerate(self.f) if f.side == target.side and j != d and f.out is None
                          and not f.away and f.foe in enemies and engaged_with(f))
        return 20 if len(enemies) >= 3 * friends else 10 if len(enemies) >= 2 * friends else 0

    def lost_foe(self, i: int) -> bool:
        """i's turn stops acting on its foe: the fight is decided, i is out, or its foe is out and
        no other enemy is left to choose (one is chosen at once)."""
        if self.decided() or self.f[i].out is not None:
            return True
        if self.f[i].foe >= 0 and self.f[self.f[i].foe].out is None:
            return False
        self.choose_foe(i)
        return self.f[i].foe < 0

    def turn(self, i: int) -> None:
        me = self.f[i]
        me.parry_stance = me.defensive_stance = me.cautious = me.all_out = me.running = False
        me.kept = False
        kept, me.aim_kept = me.aim_kept, 0
        if me.grapple >= 0 and self.grapple_turn(i):  # W-12
            return
        if me.surprised or me.helpless:
            return
        if me.stunned_turns:
            me.stunned_turns -= 1
            me.reload_done = 0
            return
        if me.entangled:
            self.escape(i)
            return
        if me.p.flee_at is not None and me.wounds <= me.p.flee_at:
            self.flee(i)
            return
        halves = 2
        if me.prone:
            me.prone = False
            halves -= 1
            kept = 0
        ready = 0 if "quick_draw" in me.p.talents else 1  # W-7.12
        if me.p.tactic == "grappler" and self.rules.grapple_free_hands:  # W-12.1: what it dropped stays down
            pass
        elif me.bow_in_hand:
            pass
        elif me.p.main is not None and not me.holds_main:
            me.holds_main = True
            halves -= ready
        elif me.p.off is not None and not me.holds_off:
            me.holds_off = True
            halves -= ready
        extra_half = self.rules.fortune_half_action and self.spare_point(me)  # W-6.5
        if extra_half and halves < 2:
            me.fortune -= 1
            halves += 1
            extra_half = False
        if halves == 0:
            return
        if me.bow_in_hand:
            halves = self.ranged_turn(i, halves, kept)
            if halves == 0 or self.decided():
                return
        was_engaged = self.engaged(i)
        if me.p.tactic == "grappler":
            halves -= self.drop_hands(me)
        n, modifier, feint = self.plan(i, halves)
        watcher = self.f[me.foe]
        charge = False
        if watcher.kept and not was_engaged and watcher.foe == i:  # W-8.14: the kept shot at i
            charge = self.engaged(i) and modifier == 10
            if not charge or self.rules.cut_after_move:
                self.kept_shot(me.foe, arriving=charge)
                if self.decided():
                    return
        tactic = me.p.melee_tactic if me.p.tactic in ("marksman", "shoot_then_draw", "rush", "grappler") \
            else me.p.tactic
        aims_already = (tactic not in ("berserk", "cautious", "turtle")
                        and not (tactic == "swift" and me.p.attacks >= 2) and me.holds_off)
        aim = 0
        if extra_half and was_engaged and halves == 2 and n and not feint and not aims_already:
            me.fortune -= 1
            aim = 10  # W-3.2 before the first attack
        attempt = feint and me.p.tactic == "grappler"  # W-12.1: the grappler's plan marks an attempt
        feinted = feint and not attempt and self.feint(i)
        for k in range(n):
            if self.lost_foe(i) or not self.engaged(i):  # W-13: the next foe, if engaged
                break
            if attempt:
                self.grapple_attempt(i, modifier + aim)
            else:
                self.attack(i, modifier + (aim if k == 0 else 0), feinted)
        if charge and watcher.kept:
            self.kept_shot(me.foe, arriving=False)

    # -- the grapple (W-12) ---------------------------------------------------------------------------
    def in_grapple(self, c: Combatant) -> bool:
        """W-12.3, W-12.6: c grapples or is held, and both are still in the fight."""
        return c.grapple >= 0 and c.out is None and self.f[c.grapple].out is None

    def can_seize(self, i: int) -> bool:
        """W-12.2: i's foe may be grappled: in, not helpless, in no grapple (one grappler per target)."""
        me = self.f[i]
        if me.foe < 0:
            return False
        foe = self.f[me.foe]
        return foe.out is None and not foe.helpless and not self.in_grapple(foe)

    def drop_hands(self, me: Combatant) -> int:
        """W-12.1 grapple_hands = free: a grappler lets go of both items (W-7.12 drop: free or a half)."""
        if not self.rules.grapple_free_hands or not (me.holds_main or me.holds_off):
            return 0
        me.holds_main = me.holds_off = False
        return 1 if self.rules.drop_half else 0

    def release(self, i: int) -> None:
        me = self.f[i]
        if me.grapple >= 0 and self.f[me.grapple].grapple == i:
            self.f[me.grapple].grapple, self.f[me.grapple].holding = -1, False
        me.grapple, me.holding = -1, False

    def grapple_attempt(self, ai: int, modifier: int) -> None:
        """W-12.1, W-12.2: an unarmed attack (Wrestling +10 WS) that deals no damage; a hit that is not
        parried or dodged (grapple_reaction = allowed) makes the target test Ag; a failure: grappled."""
        a = self.f[ai]
        d = self.f[a.foe]
        wrestling = 10 if "wrestling" in a.p.talents else 0
        target = self.to_hit(a, d, "fists", a.p.fists, modifier + wrestling)
        hit, _ = self.test(a, target, on_reaction=False)
        if not hit:
            self.rec.outcomes[a.side][L.OUT_MISS] += 1
            return
        kind = None if self.rules.grapple_no_reaction else self.react(d, a.p.fists)
        outcome = {None: "hit", "parry": "parried", "dodge": "dodged"}[kind]
        self.rec.outcomes[a.side][("miss", "parried", "dodged", "hit").index(outcome)] += 1
        if kind is not None:
            return
        ag = d.p.ag - d.p.ag_penalty + self.modifiers(-d.pen_ag)  # W-9.2 armour penalty
        if not self.test(d, ag, on_reaction=True)[0]:
            a.grapple, a.holding = a.foe, True
            d.grapple, d.holding = ai, False
            d.reload_done, d.kept = 0, False  # W-7.10, W-12.3
            d.foe = ai

    def grapple_turn(self, i: int) -> bool:
        """W-12.3 – W-12.6: True when the grapple takes i's turn."""
        me = self.f[i]
        other = self.f[me.grapple]
        if other.out is not None:
            self.release(i)
            return False
        me.foe = me.grapple
        lost = me.surprised or me.helpless or me.stunned_turns > 0
        if not me.holding:
            if lost:
                return False

            def strength(c: Combatant) -> int:
                return c.p.s + self.modifiers(10 if "wrestling" in c.p.talents else 0)

            if self.opposed(strength(me), strength(other)):  # W-12.4 break free
                self.release(i)
            return True
        if lost or me.prone or (me.p.flee_at is not None and me.wounds <= me.p.flee_at):
            self.release(i)
            return False
        if not self.opposed(me.p.s, other.p.s):  # W-12.5 hurt
            return True
        location = "body" if self.rules.grapple_body else location_of(self.d100())
        last = self.rng.die(10)
        raw = last + me.p.sb + me.p.fists.damage
        raw += 1 if me.p.mighty_blow and self.rules.mighty_blow else 0
        raw += 1 if me.p.street_fighting and self.rules.street_fighting else 0
        if last == 10 and self.rules.grapple_fury:
            while last == 10:
                last = self.rng.die(10)
                raw += last
            self.rec.fury[me.side] += 1
        ap = 2 * other.p.ap[ZONE_OF[location]]  # W-4.9 unarmed
        self.wound(me, other, location, me.p.fists, max(0, raw - other.p.tb - ap))
        return True

    def kept_shot(self, i: int, arriving: bool) -> None:
        """W-8.14, W-11.6: the overwatcher's kept half action once its foe is within short range."""
        me = self.f[i]
        if not me.kept or self.decided() or self.gap(i) > me.p.missile.short:
            return
        me.kept = False
        if not me.bow_in_hand:
            return
        hand = self.hand_to_fire(me, engaged=self.engaged(i) and not arriving)
        if hand is None:
            return
        self.as_if_apart = arriving
        self.shoot(i, self.band(i, hand), 0, hand)
        self.as_if_apart = False

    def initiative(self) -> list[int]:
        """W-2.2: the turn order (indices, first to act first). Every fighter in list order rolls
        d10 + Ag (2d10 + Ag after spending a spare fortune point, W-6.5, the points spent first);
        the higher total first, then the higher Ag; fighters tied on both roll again among
        themselves, in turn order, and are ordered among themselves by the new roll."""
        ag = [f.p.ag - f.p.ag_penalty - f.pen_ag for f in self.f]
        dice = [1] * len(self.f)
        for k, f in enumerate(self.f):
            if not f.away and self.rules.fortune_initiative and self.spare_point(f):  # W-6.5: 2d10
                f.fortune -= 1
                dice[k] = 2
        total = [0] * len(self.f)
        self.init_total, self.init_tie, self.init_dice = total, ag, dice

        def roll(k: int) -> None:
            total[k] = sum(self.rng.die(10) for _ in range(dice[k])) + ag[k]

        def key(k: int) -> tuple[int, int]:
            return -total[k], -ag[k]

        def settle(places: list[int]) -> list[int]:
            """``places`` sorted; each group tied on total and Ag rolls again and is settled."""
            order: list[int] = []
            while places:
                group = [k for k in places if key(k) == key(places[0])]
                places = places[len(group):]
                if len(group) > 1:
                    for k in group:
                        roll(k)
                    group = settle(sorted(group, key=key))
                order += group
            return order

        present = [k for k, f in enumerate(self.f) if not f.away]  # W-13.2: those still away roll nothing
        for k in present:
            src = self.f[k].init_share - 1  # W-13.1 per_type: the dice of the first of its profile
            if 0 <= src < k and not self.f[src].away:
                total[k] = total[src] - ag[src] + ag[k]
            else:
                roll(k)
        away = [k for k, f in enumerate(self.f) if f.away]
        return settle(sorted(present, key=key)) + away

    def arrivals(self, order: list[int], rnd: int) -> list[int]:
        """W-13.2: the fighters joining in round ``rnd``, in list order. Once per fight, each rolls
        d10 + Ag then (its fortune as at the start) and is placed after the lowest fighter in the
        fight it does not act before (a full tie: after it), counting from the end; with every
        round's roll they only join."""
        for k, f in enumerate(self.f):
            if not f.away or f.arrive != rnd:
                continue
            f.away = False
            if self.rules.initiative_every_round:
                continue
            ag = f.p.ag - f.p.ag_penalty - f.pen_ag
            dice = 1
            if self.rules.fortune_initiative and self.spare_point(f):
                f.fortune -= 1
                dice = 2
            self.init_total[k] = sum(self.rng.die(10) for _ in range(dice)) + ag
            self.init_tie[k] = ag
            order.remove(k)
            place = len(order)
            while place > 0:
                r = order[place - 1]
                beats = (self.init_total[k], self.init_tie[k]) > (self.init_total[r], self.init_tie[r])
                if not self.f[r].away and not beats:
                    break
                place -= 1
            order.insert(place, k)
        return order

    def play(self) -> Record:
        order = self.initiative()
        if len(self.f) > 2:
            for i in order:
                if not self.f[i].away:
                    self.choose_foe(i)
        for rnd in range(1, self.rules.round_cap + 1):
            self.round = rnd
            if rnd > 1 and len(self.f) > 2:
                order = self.arrivals(order, rnd)
            if rnd > 1 and self.rules.initiative_every_round:
                order = self.initiative()
            for f in self.f:
                f.parried_this_round = f.dodged_this_round = False
            for i in order:
                if self.f[i].out:
                    continue
                if len(self.f) > 2:
                    if self.f[i].away:
                        continue
                    self.choose_foe(i)
                    if self.f[i].foe < 0:  # no enemy in the fight yet: it waits
                        continue
                self.turn(i)
                if self.decided():
                    loser = 0 if self.side_out(0) else 1
                    last = max((f for f in self.f if f.side == loser), key=lambda f: f.out_seq)  # the last out
                    self.rec.winner, self.rec.loser = 1 - loser, loser
                    self.rec.cause, self.rec.died, self.rec.round = last.out, last.dead, rnd
                    self.rec.last_harmed = last.harmed
                    return self.rec
            for f in self.f:
                f.surprised = False
        self.rec.round = self.rules.round_cap
        return self.rec

    def single_attack(self) -> Record:
        """A shooter's first shot of its first turn: the turn played until it fires (its moves,
        reload, aim or swift attack, W-8.9 – W-8.11), the shot then fired from there (unaimed or
        aimed with ``attack --shot``); none when the turn fires none. Else the foe of side a's first
        fighter in the stances its tactic takes when engaged, then that fighter's first attack of its
        turn."""
        a = self.f[0]
        if a.p.missile is not None:
            self.holding = True
            try:
                self.turn(0)
            except HeldShot as held:
                self.holding = False
                band, aim, hand = held.args
                aim = {0: aim, 1: 0, 2: self.aim(a)}[self.attack_shot]
                self.shoot(0, band, aim, hand)
            return self.rec
        self.as_if_engaged = True
        if self.f[a.foe].p.tactic == "grappler":
            self.drop_hands(self.f[a.foe])
        self.plan(a.foe, 2)
        self.as_if_engaged = False
        n, modifier, feint = self.plan(0, 2)
        if n:
            self.attack(0, modifier, feint and self.feint(0))
        return self.rec


def duel(F, opts, grid, fx, seed: int, index: int) -> Record:
    """Duel ``index`` of a run with ``seed`` (``api.duel``'s duel, one at a time)."""
    return Duel(F, opts, grid, fx, seed, index).play()


def attack(F, opts, grid, fx, seed: int, index: int) -> Record:
    """Side a's first attack or shot on a fresh side b (``api.attack``'s sampled attack, one at a time)."""
    return Duel(F, opts, grid, fx, seed, index).single_attack()
