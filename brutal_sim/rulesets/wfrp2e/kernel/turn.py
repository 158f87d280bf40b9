"""The turn and the duel (W-2): fresh fighters, initiative, one fighter's turn, the rounds of a
duel until a side is out or the round cap; and the situation the attack kind measures.

Rules: W-2.2, W-2.3, W-2.6, W-2.7, W-3.2, W-3.4, W-3.7, W-3.11, W-3.12, W-3.16, W-6.1, W-6.2, W-6.5,
W-8.8.

Arguments are those of the kernel package (:mod:`brutal_sim.rulesets.wfrp2e.kernel`).
"""

from __future__ import annotations

from ....core.battle import STATE_BLOCK
from ....toolbox.battle import decided, loser_side, place_sides, set_round, start_battle
from ....toolbox.jit import rule
from ....toolbox.rng import roll_die
from ....toolbox.tally import count_decision
from ..layout import (
    CAUSE_FLED,
    C_DRAWS,
    S_ENGAGED,
    NS,
    P_AG,
    P_AG_PENALTY,
    P_FLEE_AT,
    P_FORTUNE,
    P_A,
    P_QUICK_DRAW,
    P_THROWN,
    S_ENTANGLED,
    W_SNARE,
    P_W,
    BAND_EXTREME,
    SLOT_MAIN,
    SLOT_MISSILE,
    SLOT_MISSILE_OFF,
    SLOT_OFF,
    S_CAUTIOUS,
    S_DEAD,
    S_DEF_STANCE,
    S_DODGE_USED,
    S_FORTUNE,
    S_HARMED,
    S_HELD_MAIN,
    S_HELD_OFF,
    S_HELPLESS,
    S_LOADED,
    S_LOADED_OFF,
    S_OFF_MISSILE,
    S_MISSILE,
    S_NO_REACT,
    S_OUT,
    S_PARRY_STANCE,
    S_PARRY_USED,
    S_PEN_AG,
    S_PRONE,
    S_RELOADING,
    S_RUNNING,
    S_STUN,
    S_SUPPLY,
    S_KEPT,
    S_AIM,
    S_SURPRISED,
    S_W,
    TALLY,
    W_PRESENT,
    W_THROWN,
    BAND_LONG,
)
from ..options import (
    O_AMMO, O_DELAY_CUT, O_FORTUNE_HALF_ACTION, O_FORTUNE_INITIATIVE, O_INITIATIVE_ROLL, O_ROUND_CAP, O_START_DISTANCE, O_START_LOADED,
    O_SURPRISE,
)
from .fortune import _fortune_spare
from .weapons import _wf
from .movement import _settle
from .attack import _attack
from .actions import _feint, _flee, _overwatch_shot, _plan, _plan_aims, _ranged_turn, _swift_ready
from .ranged import _aim_bonus, _band, _escape, _fire_slot, _shoot


@rule
def _reset(F, S, opts):
    """Fresh fighters: the battle block (``start_battle``: both in, each the other's foe; side b
    ``start_distance`` yards from side a, ``place_sides``), full Wounds and fortune (W-6.5), items in
    hand, surprise (W-2.6), engaged when at most 2 yards apart (W-11.3, W-8.8)."""
    start_battle(F, S)
    place_sides(F, S, opts[O_START_DISTANCE])
    for i in range(2):
        for k in range(STATE_BLOCK, NS):
            S[i, k] = 0
        S[i, S_W] = F[i, P_W]
        S[i, S_FORTUNE] = F[i, P_FORTUNE]
        if _wf(F, i, SLOT_MISSILE, W_PRESENT) != 0:  # W-7: the missile weapon in hand, loaded or not
            S[i, S_MISSILE] = 1
            S[i, S_LOADED] = opts[O_START_LOADED]
            if _wf(F, i, SLOT_MISSILE_OFF, W_PRESENT) != 0:  # W-7.8: a second one in the off hand
                S[i, S_OFF_MISSILE] = 1
                S[i, S_LOADED_OFF] = opts[O_START_LOADED]
            if _wf(F, i, SLOT_MISSILE, W_THROWN) != 0 or _wf(F, i, SLOT_MISSILE, W_SNARE) != 0:  # W-7.12: the supply
                S[i, S_SUPPLY] = F[i, P_THROWN]
            else:
                S[i, S_SUPPLY] = opts[O_AMMO] if opts[O_AMMO] > 0 else -1
        else:
            S[i, S_HELD_MAIN] = _wf(F, i, SLOT_MAIN, W_PRESENT)
            S[i, S_HELD_OFF] = _wf(F, i, SLOT_OFF, W_PRESENT)
    if opts[O_SURPRISE] > 0:
        S[opts[O_SURPRISE] - 1, S_SURPRISED] = 1
    set_round(S, 1)
    _settle(S)


@rule
def _initiative(F, S, opts, st):
    """W-2.2: d10 + Ag (armour and critical Ag penalties off) for a, then b; ties go to the higher
    Ag, then both roll again. With ``fortune_initiative`` a fighter with a spare fortune point
    spends it for 2d10 + Ag (W-6.5; a tie's reroll keeps the dice). Returns the side that acts
    first."""
    ag_a = F[0, P_AG] - F[0, P_AG_PENALTY] - S[0, S_PEN_AG]
    ag_b = F[1, P_AG] - F[1, P_AG_PENALTY] - S[1, S_PEN_AG]
    two_a = False
    two_b = False
    if opts[O_FORTUNE_INITIATIVE] != 0:
        if _fortune_spare(opts, S, 0):
            S[0, S_FORTUNE] -= 1
            two_a = True
        if _fortune_spare(opts, S, 1):
            S[1, S_FORTUNE] -= 1
            two_b = True
    while True:
        ia = roll_die(st, 10) + ag_a
        if two_a:
            ia += roll_die(st, 10)
        ib = roll_die(st, 10) + ag_b
        if two_b:
            ib += roll_die(st, 10)
        if ia != ib:
            return 0 if ia > ib else 1
        if ag_a != ag_b:
            return 0 if ag_a > ag_b else 1


@rule
def _turn(F, S, opts, grid, fx, st, cnt, i, ranged):
    """One turn of fighter i (W-2.3); ``ranged`` None in a duel without missile weapons (the steps
    of W-7 and W-8.14 are then not compiled), True otherwise.

    Stances and a run's modifiers end (W-3.4 – W-3.7, W-11.2); a surprised (W-2.6) or helpless (W-6.2) fighter or a stunned one
    (W-6.1, one lost turn counted off) does nothing; an entangled one tries to escape (W-7.13,
    :func:`_escape`); a fighter at or below its ``flee_at`` Wounds
    flees (W-3.16); else it stands up (W-3.12) and readies a dropped item (W-3.11, main hand
    first), a half action each (Quick Draw: the Ready free, W-7.12), and spends the rest on its tactic (:func:`_plan`). With
    ``fortune_half_action`` a spare fortune point buys one extra half action (W-6.5): it makes up a
    half action lost to the upkeep, else it aims (W-3.2, +10 on the first attack) before an
    unaimed attack of an engaged fighter that is no feint. An aim kept from its last turn (W-7.3
    ``aim = next_action``, ``S_AIM``) goes to its missile turn when nothing comes first (a lost
    turn, a flight or standing up lose it).
    """
    S[i, S_PARRY_STANCE] = 0
    S[i, S_DEF_STANCE] = 0
    S[i, S_CAUTIOUS] = 0
    S[i, S_NO_REACT] = 0
    S[i, S_RUNNING] = 0
    S[i, S_KEPT] = 0  # W-11.6: a kept half action not used is lost
    kept = S[i, S_AIM]  # W-7.3: an aim kept for this turn's first action
    S[i, S_AIM] = 0
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
        if halves > 0 and S[i, S_MISSILE] == 0 and _wf(F, i, slot, W_PRESENT) != 0 and S[i, S_HELD_MAIN + slot] == 0:
            S[i, S_HELD_MAIN + slot] = 1
            if F[i, P_QUICK_DRAW] == 0:  # W-7.12 Quick Draw: the Ready is free
                halves -= 1
            break
    spare = opts[O_FORTUNE_HALF_ACTION] != 0 and _fortune_spare(opts, S, i)
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
    attacks, mod, feint = _plan(F, S, opts, i, halves)
    e = 1 - i
    charge = False
    if ranged is not None:
        if S[e, S_KEPT] != 0 and not engaged:  # W-8.14: the foe's kept shot after this approach
            charge = S[i, S_ENGAGED] != 0 and mod == 10
            if not charge or opts[O_DELAY_CUT] != 0:
                _overwatch_shot(F, S, opts, grid, fx, st, cnt, e, charge)
                if decided(S):
                    return
    aim = 0
    if spare and engaged and halves == 2 and attacks > 0 and not feint and not _plan_aims(F, S, i):
        S[i, S_FORTUNE] -= 1
        aim = 10
    feinted = feint and _feint(F, S, opts, st, i)
    for k in range(attacks):
        if decided(S):
            break
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
def _duel(F, S, opts, grid, fx, st, cnt, ranged):
    """One duel (W-2): rounds of two turns in initiative order until one side is out or the round
    cap (W-2.7); ``ranged`` as for :func:`_turn`. Returns 0 if side a won, 1 if side b won, 2 for
    a draw."""
    _reset(F, S, opts)
    first = _initiative(F, S, opts, st)
    for rnd in range(1, opts[O_ROUND_CAP] + 1):
        set_round(S, rnd)
        if rnd > 1 and opts[O_INITIATIVE_ROLL] != 0:
            first = _initiative(F, S, opts, st)
        for i in range(2):
            S[i, S_PARRY_USED] = 0
            S[i, S_DODGE_USED] = 0
        for k in range(2):
            i = first if k == 0 else 1 - first
            _turn(F, S, opts, grid, fx, st, cnt, i, ranged)
            if decided(S):
                loser = loser_side(S)
                cause = S[loser, S_OUT] - 1
                count_decision(cnt, S, loser, cause, S[loser, S_DEAD],
                                S[loser, S_HARMED] == 1 and cause != CAUSE_FLED, rnd, opts[O_ROUND_CAP], TALLY)
                return 1 - loser
        S[0, S_SURPRISED] = 0
        S[1, S_SURPRISED] = 0
    cnt[C_DRAWS] += 1
    return 2


@rule
def _single_attack(F, S, opts, grid, fx, st, cnt, ranged):
    """One attack by side a on a fresh side b (:func:`_attack_setup`): a's first attack of its turn,
    a feint, aim or charge included; with ``ranged`` not None a shooter's first shot
    (:func:`_shot_setup`)."""
    if ranged is not None:
        slot, band, aim = _shot_setup(F, S, opts)
        if slot >= 0:
            _shoot(F, S, opts, grid, fx, st, cnt, 0, slot, band, aim)
            return
    attacks, mod, feint = _attack_setup(F, S, opts)
    if attacks > 0:
        _attack(F, S, opts, grid, fx, st, cnt, 0, mod, feint and _feint(F, S, opts, st, 0))


@rule
def _shot_setup(F, S, opts):
    """The situation ``attack`` measures for a shooter: fresh fighters; side a's first shot, if its
    turn starts with one: engaged, a loaded pistol-class weapon fires unaimed (W-7.6; the main-hand
    one, else the off-hand one, W-7.8); apart and loaded, the foe within very long range: aimed
    (W-8.9), or unaimed as the first of a swift attack (W-7.11). Returns (slot, band, aim), slot −1
    for none."""
    _reset(F, S, opts)
    if S[0, S_MISSILE] == 0:
        return -1, -1, 0
    slot = _fire_slot(F, S, 0, S[0, S_ENGAGED] != 0)
    if slot < 0:
        return -1, -1, 0
    band = _band(F, S, opts, 0, slot)
    if S[0, S_ENGAGED] != 0:
        return slot, band, 0
    if band <= BAND_LONG and F[0, P_A] >= 2 and _swift_ready(F, S, opts, 0, slot):
        return slot, band, 0  # W-7.11: the first of a swift attack's shots, unaimed
    return (slot, band, _aim_bonus(F, 0)) if band <= BAND_EXTREME else (-1, -1, 0)


@rule
def _attack_setup(F, S, opts):
    """The situation ``attack`` measures: fresh fighters, side b in the stances its tactic takes when
    engaged, side a's plan for its turn. Returns a's (attacks, modifier, feint) of :func:`_plan`."""
    _reset(F, S, opts)
    engaged = S[1, S_ENGAGED]
    S[1, S_ENGAGED] = 1
    _plan(F, S, opts, 1, 2)
    S[1, S_ENGAGED] = engaged
    return _plan(F, S, opts, 0, 2)
