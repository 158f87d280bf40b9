"""The turn and the duel (W-2): fresh fighters, initiative, one fighter's turn, the rounds of a
duel until a side is out or the round cap; and the situation the attack kind measures.

Rules: W-2.2, W-2.3, W-2.6, W-2.7, W-3.2, W-3.4, W-3.7, W-3.11, W-3.12, W-3.16, W-6.1, W-6.2, W-6.5,
W-8.8, W-8.13, W-8.15, W-12.1, W-12.3, W-12.4, W-12.5, W-13.1, W-13.7.

Arguments are those of the kernel package (:mod:`brutal_sim.rulesets.wfrp2e.kernel`).
"""

from __future__ import annotations

from ....core.battle import B_INIT_EXTRA, B_INIT_MOD, B_INIT_TIE, B_ORDER, B_SIDE_IN, STATE_BLOCK
from ....toolbox.battle import (
    arrive,
    decided,
    foe,
    last_out,
    loser_side,
    place_sides,
    set_round,
    start_battle,
    turn_order,
)
from ....toolbox.jit import rule
from ....toolbox.tally import count_decision
from ..layout import (
    ATTACK_SHOT_CODES,
    C_DRAWS,
    CAUSE_FLED,
    NS,
    P_AG,
    P_AG_PENALTY,
    P_ARRIVE,
    P_ATTACK_SHOT,
    P_FLEE_AT,
    P_FORTUNE,
    P_QUICK_DRAW,
    P_SIDE,
    P_TACTIC,
    P_THROWN,
    P_W,
    S_AIM,
    S_AWAY,
    S_CAUTIOUS,
    S_DEAD,
    S_DEF_STANCE,
    S_DODGE_USED,
    S_ENGAGED,
    S_ENTANGLED,
    S_FORTUNE,
    S_GRAPPLE,
    S_HARMED,
    S_HELD_AIM,
    S_HELD_BAND,
    S_HELD_IN,
    S_HELD_MAIN,
    S_HELD_OFF,
    S_HELD_SLOT,
    S_HELPLESS,
    S_HOLD,
    S_KEPT,
    S_LOADED,
    S_LOADED_OFF,
    S_MISSILE,
    S_NO_REACT,
    S_OFF_MISSILE,
    S_OUT,
    S_PARRY_STANCE,
    S_PARRY_USED,
    S_PEN_AG,
    S_PRONE,
    S_RELOADING,
    S_RUNNING,
    S_STUN,
    S_SUPPLY,
    S_SURPRISED,
    S_W,
    SLOT_MAIN,
    SLOT_MISSILE,
    SLOT_MISSILE_OFF,
    SLOT_OFF,
    T_GRAPPLER,
    TALLY,
    W_PRESENT,
    W_SNARE,
    W_THROWN,
)
from ..options import (
    DELAY_CUT_AFTER_MOVE,
    FORTUNE_HALF_ACTION_ON,
    FORTUNE_INITIATIVE_ON,
    INITIATIVE_EVERY_ROUND,
    O_AMMO,
    O_DELAY_CUT,
    O_FORTUNE_HALF_ACTION,
    O_FORTUNE_INITIATIVE,
    O_INITIATIVE_ROLL,
    O_ROUND_CAP,
    O_START_DISTANCE,
    O_START_LOADED,
    O_SURPRISE,
    START_LOADED_TRUE,
    SURPRISE_A,
    SURPRISE_NONE,
    UNLIMITED_AMMO,
)
from .actions import _feint, _flee, _overwatch_shot, _plan, _plan_aims, _ranged_turn
from .attack import _attack
from .fortune import _fortune_spare
from .grapple import _frees_hands, _grapple_attempt, _grapple_turn, _grappler_plan
from .groups import _choose_foe, _lost_foe
from .movement import _settle
from .ranged import _aim_bonus, _escape, _shoot
from .weapons import _wf

#: attack --shot (``P_ATTACK_SHOT``): the first turn's first shot fired unaimed or aimed
ATTACK_UNAIMED, ATTACK_AIMED = ATTACK_SHOT_CODES["unaimed"], ATTACK_SHOT_CODES["aimed"]


@rule
def _reset(F, S, opts):
    """Fresh fighters: the battle block (``start_battle``: everyone in, a duel's two fighters each
    other's foe; side b ``start_distance`` yards from side a, ``place_sides``), full Wounds and
    fortune (W-6.5), items in hand, the fighters of the surprised side surprised (W-2.6), engaged
    when at most 2 yards from its foe (W-11.3, W-8.8), round 1."""
    start_battle(F, S)
    place_sides(F, S, opts[O_START_DISTANCE])
    loaded = 1 if opts[O_START_LOADED] == START_LOADED_TRUE else 0
    supply = opts[O_AMMO] if opts[O_AMMO] != UNLIMITED_AMMO else -1
    surprise = opts[O_SURPRISE]
    for i in range(F.shape[0]):
        for k in range(STATE_BLOCK, NS):
            S[i, k] = 0
        S[i, S_W] = F[i, P_W]
        S[i, S_FORTUNE] = F[i, P_FORTUNE]
        if _wf(F, i, SLOT_MISSILE, W_PRESENT) != 0:  # W-7: the missile weapon in hand, loaded or not
            S[i, S_MISSILE] = 1
            S[i, S_LOADED] = loaded
            if _wf(F, i, SLOT_MISSILE_OFF, W_PRESENT) != 0:  # W-7.8: a second one in the off hand
                S[i, S_OFF_MISSILE] = 1
                S[i, S_LOADED_OFF] = loaded
            if _wf(F, i, SLOT_MISSILE, W_THROWN) != 0 or _wf(F, i, SLOT_MISSILE, W_SNARE) != 0:  # W-7.12: the supply
                S[i, S_SUPPLY] = F[i, P_THROWN]
            else:
                S[i, S_SUPPLY] = supply
        else:
            S[i, S_HELD_MAIN] = _wf(F, i, SLOT_MAIN, W_PRESENT)
            S[i, S_HELD_OFF] = _wf(F, i, SLOT_OFF, W_PRESENT)
        if surprise != SURPRISE_NONE and F[i, P_SIDE] == surprise - SURPRISE_A:
            S[i, S_SURPRISED] = 1
    set_round(S, 1)
    _settle(S)


@rule
def _initiative(F, S, opts, st):
    """W-2.2: the turn order, written to ``B_ORDER`` (row p: the row acting at place p) by the
    shared ``turn_order``: every fighter in row order rolls d10 + Ag (armour and critical Ag
    penalties off, ``B_INIT_MOD``); the higher total goes first, then the higher Ag (``B_INIT_TIE``);
    fighters tied on both roll again among themselves and are ordered within their places by the
    new roll. With ``fortune_initiative`` a fighter with a spare fortune point spends it for 2d10 +
    Ag, the second d10 right after its first (W-6.5, ``B_INIT_EXTRA``; a tie's reroll keeps the
    dice). A duel: a rolls, b rolls, a full tie rerolls both. A fighter still away (W-13.2) rolls
    nothing and is placed last (``turn_order``); with ``initiative_group = per_type`` (W-13.1) a
    fighter takes the dice of the first fighter of its profile (``P_INIT_SHARE``)."""
    for i in range(F.shape[0]):
        if S[i, S_AWAY] == 0:
            _initiative_terms(F, S, opts, i)
    turn_order(F, S, st, 10)


@rule
def _initiative_terms(F, S, opts, i):
    """W-2.2, W-6.5: i's initiative modifier and tie key (Ag less armour and critical penalties)
    and, with ``fortune_initiative`` and a spare fortune point, the point spent on a second d10."""
    ag = F[i, P_AG] - F[i, P_AG_PENALTY] - S[i, S_PEN_AG]
    S[i, B_INIT_MOD] = ag
    S[i, B_INIT_TIE] = ag
    S[i, B_INIT_EXTRA] = 0
    if opts[O_FORTUNE_INITIATIVE] == FORTUNE_INITIATIVE_ON and _fortune_spare(opts, S, i):
        S[i, S_FORTUNE] -= 1
        S[i, B_INIT_EXTRA] = 1


@rule
def _arrivals(F, S, opts, st, rnd):
    """W-13.2: the fighters joining in round ``rnd`` (``arrive_round``), in row order: with
    ``initiative_roll = once_per_fight`` each rolls d10 + Ag then (its fortune as for
    :func:`_initiative`) and takes its place in the order, the others keeping theirs (a full tie:
    after them **[reading]**); with ``every_round`` they join the new order of the round."""
    every_round = opts[O_INITIATIVE_ROLL] == INITIATIVE_EVERY_ROUND
    if not every_round:
        for i in range(F.shape[0]):
            if S[i, S_AWAY] != 0 and F[i, P_ARRIVE] == rnd:
                _initiative_terms(F, S, opts, i)
    arrive(F, S, st, 10, rnd, not every_round)


@rule
def _turn(F, S, opts, grid, fx, st, cnt, i, ranged):
    """One turn of fighter i (W-2.3); ``ranged`` None in a duel without missile weapons and without a
    grappler (the steps of W-7, W-8.14 and W-12 are then not compiled), True otherwise.

    Stances and a run's modifiers end (W-3.4 – W-3.7, W-11.2); a fighter in a grapple breaks free or
    hurts (W-12.4, W-12.5, :func:`.grapple._grapple_turn`) unless it loses its turn or releases; a
    surprised (W-2.6) or helpless (W-6.2) fighter or a stunned one (W-6.1, one lost turn counted
    off) does nothing; an entangled one tries to escape (W-7.13, :func:`_escape`); a fighter at or
    below its ``flee_at`` Wounds flees (W-3.16); else it stands up (W-3.12) and readies a dropped
    item (W-3.11, main hand first), a half action each (Quick Draw: the Ready free, W-7.12; a
    grappler with ``grapple_hands = free`` readies nothing, W-8.13), and spends the rest on its
    tactic (:func:`_plan`; a grappler's attack may be a grapple attempt,
    :func:`.grapple._grapple_attempt`, W-12.1). With ``fortune_half_action`` a spare fortune point
    buys one extra half action (W-6.5): it makes up a half action lost to the upkeep, else it aims
    (W-3.2, +10 on the first attack) before an unaimed attack of an engaged fighter that is no feint
    (nor a grapple attempt). An aim kept from its last turn (W-7.3 ``aim = next_action``,
    ``S_AIM``) goes to its missile turn when nothing comes first (a lost turn, a flight or standing
    up lose it).
    """
    S[i, S_PARRY_STANCE] = 0
    S[i, S_DEF_STANCE] = 0
    S[i, S_CAUTIOUS] = 0
    S[i, S_NO_REACT] = 0
    S[i, S_RUNNING] = 0
    S[i, S_KEPT] = 0  # W-11.6: a kept half action not used is lost
    kept = S[i, S_AIM]  # W-7.3: an aim kept for this turn's first action
    S[i, S_AIM] = 0
    if ranged is not None:
        if S[i, S_GRAPPLE] != 0 and _grapple_turn(F, S, opts, grid, fx, st, cnt, i):  # W-12: break free, hurt
            return
    if S[i, S_SURPRISED] != 0 or S[i, S_HELPLESS] != 0:
        return
    if S[i, S_STUN] > 0:
        S[i, S_STUN] -= 1
        S[i, S_RELOADING] = 0  # W-7.10: an interrupted reload starts again
        return
    if ranged is not None:
        if S[i, S_ENTANGLED] != 0:  # W-7.13: caught by a snare, it may only try to escape
            _escape(F, S, opts, st, i)
            return
    if F[i, P_FLEE_AT] >= 0 and S[i, S_W] <= F[i, P_FLEE_AT]:
        _flee(F, S, opts, grid, fx, st, cnt, i)
        return
    halves = 2
    if S[i, S_PRONE] != 0:
        S[i, S_PRONE] = 0
        halves -= 1
        kept = 0
    for slot in (SLOT_MAIN, SLOT_OFF):
        if (halves > 0 and S[i, S_MISSILE] == 0 and _wf(F, i, slot, W_PRESENT) != 0 and S[i, S_HELD_MAIN + slot] == 0
                and (ranged is None or not _frees_hands(F, opts, i))):  # W-12.1 grapple_hands = free: it stays down
            S[i, S_HELD_MAIN + slot] = 1
            if F[i, P_QUICK_DRAW] == 0:  # W-7.12 Quick Draw: the Ready is free
                halves -= 1
            break
    spare = opts[O_FORTUNE_HALF_ACTION] == FORTUNE_HALF_ACTION_ON and _fortune_spare(opts, S, i)
    if spare and halves < 2:
        S[i, S_FORTUNE] -= 1
        halves += 1
        spare = False
    if halves == 0:
        return
    if ranged is not None:
        if S[i, S_MISSILE] != 0:
            halves = _ranged_turn(F, S, opts, grid, fx, st, cnt, i, halves, kept)
            if halves == 0 or decided(S):
                return
    engaged = S[i, S_ENGAGED] != 0
    attempt = 0
    feint = False
    if ranged is not None and F[i, P_TACTIC] == T_GRAPPLER:  # W-8.13: its attack a grapple attempt (W-12.1)
        attacks, mod, attempt, halves = _grappler_plan(F, S, opts, i, halves)
        if attempt < 0:  # a foe it may not grapple: its melee tactic
            attempt = 0
            attacks, mod, feint = _plan(F, S, opts, i, halves)
    else:
        attacks, mod, feint = _plan(F, S, opts, i, halves)
    e = foe(S, i)
    charge = False
    if ranged is not None:
        if S[e, S_KEPT] != 0 and not engaged and foe(S, e) == i:  # W-8.14: the foe's kept shot at i
            charge = S[i, S_ENGAGED] != 0 and mod == 10
            if not charge or opts[O_DELAY_CUT] == DELAY_CUT_AFTER_MOVE:
                _overwatch_shot(F, S, opts, grid, fx, st, cnt, e, charge)
                if decided(S):
                    return
    aim = 0
    if spare and engaged and halves == 2 and attacks > 0 and not feint and attempt == 0 and not _plan_aims(F, S, i):
        S[i, S_FORTUNE] -= 1
        aim = 10
    feinted = feint and _feint(F, S, opts, st, i)
    for k in range(attacks):
        if _lost_foe(F, S, opts, st, i) or S[i, S_ENGAGED] == 0:  # W-13: a foe out, the next engaged one
            break
        if ranged is not None and attempt == 1:
            _grapple_attempt(F, S, opts, st, cnt, i, mod)
        else:
            _attack(F, S, opts, grid, fx, st, cnt, i, mod + aim if k == 0 else mod, feinted)
    if ranged is not None:
        if charge and S[e, S_KEPT] != 0:  # delay_cut = between_actions: after the whole charge
            _overwatch_shot(F, S, opts, grid, fx, st, cnt, e, False)


@rule
def _any_turn(F, S, opts, grid, fx, st, cnt, i):
    """One turn of fighter i (:func:`_turn`) with every step of W-7 compiled, whatever it carries
    (for the rule tests, which play single turns)."""
    _turn(F, S, opts, grid, fx, st, cnt, i, True)


@rule
def _duel(F, S, opts, grid, fx, st, cnt, ranged, group):
    """One fight (W-2, W-13): fresh fighters, the turn order (W-2.2, W-13.1, again at the start of
    every round with ``initiative_roll = every_round``), then rounds in which every fighter still in
    takes its turn in that order, until every fighter of a side is out (side a checked first,
    W-13.7) or the round cap (W-2.7, a draw). In a fight of more than two, every fighter chooses its
    foe after the first initiative, in turn order, and again at the start of each of its turns
    (W-8.15, :func:`_choose_foe`). The header's cause, death and one-blow counters describe the losing side's
    last fighter to go out. ``ranged`` as for :func:`_turn`; ``group``, the drivers' flag for a fight of more
    than two, changes nothing here (the fight reads its size from ``F``, its group steps out of
    line). Returns 0 if side a won, 1 if side b won, 2 for a draw."""
    n = F.shape[0]
    _reset(F, S, opts)
    _initiative(F, S, opts, st)
    if n > 2:  # W-8.15: every fighter in turn order chooses its foe (a duel's foes are set by _reset)
        for p in range(n):
            if S[S[p, B_ORDER], S_AWAY] == 0:
                _choose_foe(F, S, opts, st, S[p, B_ORDER])
    every_round = opts[O_INITIATIVE_ROLL] == INITIATIVE_EVERY_ROUND
    for rnd in range(1, opts[O_ROUND_CAP] + 1):
        set_round(S, rnd)
        if rnd > 1 and n > 2:
            _arrivals(F, S, opts, st, rnd)
        if rnd > 1 and every_round:
            _initiative(F, S, opts, st)
        for j in range(n):  # W-4.3, W-4.4: a parry and a dodge a round
            S[j, S_PARRY_USED] = 0
            S[j, S_DODGE_USED] = 0
        for p in range(n):
            i = S[p, B_ORDER]
            if i < 0 or S[i, S_OUT] != 0:  # (i < 0 never: an index guard, kernel docstring)
                continue
            if n > 2:  # W-8.15: the foe is chosen again at the start of each turn (no dice)
                if S[i, S_AWAY] != 0:
                    continue
                _choose_foe(F, S, opts, st, i)
                if foe(S, i) < 0:  # no enemy in the fight (those left are still to arrive): it waits
                    continue
            _turn(F, S, opts, grid, fx, st, cnt, i, ranged)
            if decided(S):
                loser = loser_side(S)
                last = last_out(F, S, loser)
                cause = S[last, S_OUT] - 1
                count_decision(cnt, S, loser, cause, S[last, S_DEAD],
                                S[last, S_HARMED] == 1 and cause != CAUSE_FLED, rnd, opts[O_ROUND_CAP], TALLY)
                return 1 - loser
        for j in range(n):  # W-2.6: surprise lasts the first round
            S[j, S_SURPRISED] = 0
    cnt[C_DRAWS] += 1
    return 2


@rule
def _single_attack(F, S, opts, grid, fx, st, cnt, ranged):
    """One attack by side a on a fresh side b: side a's first fighter (row 0) on its foe
    (:func:`_attack_setup`), its first attack of its turn, a feint, aim or charge included; with
    ``ranged`` not None a shooter's first shot of its first turn (:func:`_first_shot`), none when
    that turn fires none."""
    if ranged is not None:
        if _wf(F, 0, SLOT_MISSILE, W_PRESENT) != 0:
            slot, band, aim = _first_shot(F, S, opts, grid, fx, st, cnt, ranged)
            if slot >= 0:
                _shoot(F, S, opts, grid, fx, st, cnt, 0, slot, band, aim)
            return
    attacks, mod, feint = _attack_setup(F, S, opts)
    if attacks > 0:
        _attack(F, S, opts, grid, fx, st, cnt, 0, mod, feint and _feint(F, S, opts, st, 0))


@rule
def _first_shot(F, S, opts, grid, fx, st, cnt, ranged):
    """The shot ``attack`` measures for a shooter: fresh fighters (:func:`_reset`) and side a's first
    fighter's first turn (:func:`_turn`) played up to its first shot, which is held, not fired
    (``S_HOLD``, ``ranged._hold``): moves, a reload, an aim or the first of a swift attack's shots
    as its tactic makes them (W-8.9 – W-8.11; a kiter within its foe's charge reach moves away and
    shoots unaimed, W-8.11 (2)); engaged, a loaded pistol-class weapon fires first (W-7.6, W-8.10).
    ``S`` is then the state it fires from. ``attack --shot`` (``P_ATTACK_SHOT``) fires it unaimed or
    aimed (:func:`_aim_bonus`, W-7.3) instead. Returns (slot, band, aim), slot −1 when the first
    turn fires no shot (the fighter has no missile weapon in hand, is surprised, moves away, delays,
    aims for its next turn, or fights in melee)."""
    _reset(F, S, opts)
    if S[0, S_MISSILE] == 0:
        return -1, -1, 0
    S[0, S_HOLD] = 1
    _turn(F, S, opts, grid, fx, st, cnt, 0, ranged)
    if S[0, S_HOLD] != 2:
        S[0, S_HOLD] = 0
        return -1, -1, 0
    S[0, S_HOLD] = 0
    S[F[foe(S, 0), P_SIDE], B_SIDE_IN] = S[0, S_HELD_IN]
    aim = S[0, S_HELD_AIM]
    if F[0, P_ATTACK_SHOT] == ATTACK_UNAIMED:
        aim = 0
    elif F[0, P_ATTACK_SHOT] == ATTACK_AIMED:
        aim = _aim_bonus(F, 0)
    return S[0, S_HELD_SLOT], S[0, S_HELD_BAND], aim


@rule
def _attack_setup(F, S, opts):
    """The situation ``attack`` measures: fresh fighters, the foe of side a's first fighter (row 0)
    in the stances its tactic takes when engaged (a grappler: none, its hands emptied with
    ``grapple_hands = free``, W-8.13), row 0's plan for its turn. Returns row 0's (attacks, modifier,
    feint) of :func:`_plan`."""
    _reset(F, S, opts)
    e = foe(S, 0)
    engaged = S[e, S_ENGAGED]
    S[e, S_ENGAGED] = 1
    if F[e, P_TACTIC] != T_GRAPPLER or _grappler_plan(F, S, opts, e, 2)[2] < 0:
        _plan(F, S, opts, e, 2)
    S[e, S_ENGAGED] = engaged
    return _plan(F, S, opts, 0, 2)
