"""V-15 turns at a distance: a shooter's turn (V-15.1–V-15.7: engaged handling, reload, advance,
bracing, shots, sector control, each action drawing the foe's sector shot, V-11.13), a thrower's
(V-11.20), and a fighter's turn at a distance (closing in, then melee as in :mod:`.rounds`). The
fight of rounds (V-2.6) that plays these turns is :mod:`.fight`, only with its flag ``ranged``: a
melee fight compiles nothing of this module. With no gun in hand and ``start_distance`` ≤ 1 a turn
here draws the melee turn's dice in the melee turn's order, so both give the same counters.
Imports :mod:`.rounds` and the chapters above it."""

from __future__ import annotations

import numpy as np

from ....core.battle import B_AWAY
from ....toolbox.battle import apart, foe
from ....toolbox.jit import rule
from ..layout import (
    BAND_METRES,
    EN_DRAW,
    EN_STEP_BACK,
    HAND_GUN_DROPPED,
    HAND_THROW,
    K_QUICK,
    MV_ADVANCE,
    MV_CLOSE_IN,
    MV_KEEP_DISTANCE,
    P_N_THROWN,
    P_SIDE,
    P_SPEED,
    P_T_ENGAGED,
    P_T_KEEP,
    P_T_MOVE,
    P_T_OVERWATCH,
    P_T_REDRAW,
    P_T_SHOT,
    S_AP,
    S_BRACED,
    S_DROPPED,
    S_GRAPPLE,
    S_HIP_CHAIN,
    S_LYING,
    S_OUT,
    S_RELOAD,
    S_SECTOR,
    S_SIGHT,
    S_THROWN,
    SH_NONE,
    SH_THROW,
    SLOT_GUN,
    W_PRESENT,
    W_RANGE,
)
from ..options import (
    GUN_MELEE_NONE,
    HIP_CHAIN_PER_TURN,
    O_AP_REFILL,
    O_GUN_MELEE,
    O_HIP_CHAIN,
    O_OPPORTUNITY_FROM,
    O_OVERWATCH_MOVE,
    O_OVERWATCH_TURN_START,
    O_THROW_RANGE,
    OPPORTUNITY_FROM_EVERY,
    OVERWATCH_MOVE_END,
    OVERWATCH_TURN_START_EXEMPT,
)
from .checks import _gun_in_hand, _wb
from .distance import (
    _band,
    _draw,
    _engaged,
    _in_reach,
    _reach,
    _redraw,
    _redraw_cost,
    _stand,
    _step,
    _step_back,
    _step_to,
)
from .grapple import _grapple_actions, _in_grapple
from .groups import _lost_foe, _stops
from .initiative import _refill
from .melee import _attack
from .orders import INSPIRE_COST, WILL_ACTION_COST, _give_order, _inspire, _wants_inspire, _wants_order
from .rounds import N_START_STEPS, START_BLEED, START_READY, _melee_actions, _start_cost, _start_step
from .shooting import (
    READY_COST,
    SHOT_COST,
    _gun,
    _look,
    _plan_shot,
    _reload,
    _reload_cost,
    _sector_shot,
    _set_aside,
    _shoot,
    _supported,
    _throw,
    _throw_cost,
    _wants_brace,
    _wants_lie,
)

#: V-10.1: the upper bound in metres of band b (a thrower's effective range, V-11.20)
BAND_TOP = np.array(BAND_METRES, dtype=np.int64)
#: what the steps of a turn before its shots or throws leave the fighter to do (:func:`_before_shots`,
#: :func:`_before_throws`, :func:`_to_first_shot`): its shots or throws, nothing (the fight is
#: decided), or melee
TO_SHOTS = 0
TURN_OVER = 1
TO_MELEE = 2


@rule
def _get_up(F, S, opts, tt, st, cnt, i):
    """V-10.8, V-11.13: ``i`` lying prone by choice stands up (1 AP, :func:`_stand`), the foe in
    sector control firing at it first. Returns whether it stood up (bool: not if the shot put a
    fighter out or its shock left no AP)."""
    if not _sector_shot(F, S, opts, tt, st, cnt, i, 1):
        return False
    _stand(S, i)
    return True


@rule
def _move(F, S, opts, tt, st, cnt, i):
    """V-10.4, V-11.13, V-10.8: one move of ``i`` toward its foe, its foe in sector control firing at
    it where the move starts (the move is lost if the shot's shock leaves no AP for it) or, with
    ``overwatch_move = end``, where it ends (the move made: it is never lost); lying prone by choice,
    it stands up first (:func:`_get_up`) **[reading: nobody crawls toward its foe]**."""
    if S[i, S_LYING] != 0 and (not _get_up(F, S, opts, tt, st, cnt, i) or S[i, S_AP] < 1):
        return
    if opts[O_OVERWATCH_MOVE] == OVERWATCH_MOVE_END:
        _step(F, S, opts, i)
        _sector_shot(F, S, opts, tt, st, cnt, i, 0)
    elif _sector_shot(F, S, opts, tt, st, cnt, i, 1):
        _step(F, S, opts, i)


@rule
def _retreat(F, S, opts, tt, st, cnt, i):
    """V-15.2, V-15.4, V-10.7 (= V-3.6): one move of ``i`` away from its foe (drawing the foe's
    sector shot first, V-11.13); a move that starts within the foe's melee reach and ends outside it
    draws one opportunity attack: a free blow at −2 dice (a quick attack without its AP
    **[reading]**), which ``i`` may answer with a reaction; not from a foe with its gun in hand under
    ``gun_melee = none``. In a fight of several with ``opportunity_from = every`` (V-14.6) from every
    enemy whose reach it leaves (:func:`_step_back_among`)."""
    if not _sector_shot(F, S, opts, tt, st, cnt, i, 1):
        return
    if F.shape[0] > 2 and opts[O_OPPORTUNITY_FROM] == OPPORTUNITY_FROM_EVERY:
        _step_back_among(F, S, opts, tt, st, cnt, i)
        return
    was = _engaged(F, S, i)
    _step_back(F, S, opts, i)
    e = foe(S, i)
    if was and not _engaged(F, S, i) and not (_gun_in_hand(S, e) and opts[O_GUN_MELEE] == GUN_MELEE_NONE):
        _attack(F, S, opts, tt, st, cnt, e, i, K_QUICK)


@rule
def _step_back_among(F, S, opts, tt, st, cnt, i):
    """V-14.6, V-10.7: ``i`` steps back from its foe in a fight of several: every enemy in the fight (in
    row order) whose melee reach (V-3.15) it was in before the move and is not after makes its
    opportunity attack (a free quick attack, as :func:`_retreat`; not with its gun in hand under
    ``gun_melee = none``), until the fight is decided or ``i`` is out."""
    mask = 0
    for j in range(F.shape[0]):
        if (F[j, P_SIDE] != F[i, P_SIDE] and S[j, S_OUT] == 0 and S[j, B_AWAY] == 0
                and apart(S, j, i) <= _reach(F, S, j)):
            mask |= 1 << j
    _step_back(F, S, opts, i)
    for j in range(F.shape[0]):
        if (mask >> j) & 1 == 0 or S[j, S_OUT] != 0 or apart(S, j, i) <= _reach(F, S, j):
            continue
        if _gun_in_hand(S, j) and opts[O_GUN_MELEE] == GUN_MELEE_NONE:
            continue
        _attack(F, S, opts, tt, st, cnt, j, i, K_QUICK)
        if _stops(S, i):
            return


@rule
def _wants_redraw(F, S, opts, i):
    """V-10.9: does ``i``'s tactic (``redraw``) take its gun in hand again now? It has a gun, holds
    it not, is not engaged and the AP (:func:`_redraw_cost`) leave the tactic's reserve (bool)."""
    return (F[i, P_T_REDRAW] != 0 and F[i, _wb(SLOT_GUN) + W_PRESENT] != 0 and not _gun_in_hand(S, i)
            and not _engaged(F, S, i) and S[i, S_AP] - F[i, P_T_KEEP] >= _redraw_cost(opts, S, i))


@rule
def _approach(F, S, opts, tt, st, cnt, i, stop):
    """V-10.4, V-11.13, V-11.20: one move of ``i`` toward its foe stopping ``stop`` metres from it,
    the foe's sector shot fired where it starts (or ends, ``overwatch_move = end``: the move is then
    never lost) and standing up first as for :func:`_move`."""
    if S[i, S_LYING] != 0 and (not _get_up(F, S, opts, tt, st, cnt, i) or S[i, S_AP] < 1):
        return
    if opts[O_OVERWATCH_MOVE] == OVERWATCH_MOVE_END:
        _step_to(F, S, opts, i, stop)
        _sector_shot(F, S, opts, tt, st, cnt, i, 0)
    elif _sector_shot(F, S, opts, tt, st, cnt, i, 1):
        _step_to(F, S, opts, i, stop)


@rule
def _before_throws(F, S, opts, tt, st, cnt, i):
    """V-11.20, V-15.4: the part of fighter ``i``'s turn with a throwing tactic (``shot = throw``) before
    its throws: beyond the item's effective range (``throw_range``) a tactic that moves
    (``close_in``, ``advance``) moves toward its foe, stopping at that range (V-10.4: a move may stop
    short) **[reading]**, 1 AP a move above the reserve, each move drawing the foe's sector shot
    (V-11.13, :func:`_approach`). Returns ``TO_SHOTS`` (its throws come next), ``TURN_OVER`` (the
    fight is decided) or ``TO_MELEE`` (engaged, or its supply spent: it closes in and fights in
    melee)."""
    keep = F[i, P_T_KEEP]
    move = F[i, P_T_MOVE]
    stop = BAND_TOP[opts[O_THROW_RANGE]]
    while S[i, S_THROWN] < F[i, P_N_THROWN]:
        if _engaged(F, S, i):
            return TO_MELEE
        if not ((move == MV_CLOSE_IN or move == MV_ADVANCE) and apart(S, i, foe(S, i)) > stop
                and S[i, S_AP] - keep >= 1):
            return TO_SHOTS
        _approach(F, S, opts, tt, st, cnt, i, stop)
        if _stops(S, i):
            return TURN_OVER
    return TO_MELEE


@rule
def _thrower_actions(F, S, opts, tt, st, cnt, i):
    """V-11.7, V-11.20, V-15.4, V-15.6: fighter ``i``'s turn with a throwing tactic (``shot = throw``)
    while items are left and it is not engaged: its moves to the item's effective range
    (:func:`_before_throws`), then throws while :func:`_plan_shot` allows (after its perception
    check under poor visibility, V-11.18), each throw drawing the foe's sector shot (V-11.13); the
    throws move nobody, so no move comes between them. Returns True when the turn is over (items
    are left: it holds there), False to go on closing in and fighting in melee (engaged, or its
    supply spent)."""
    step = _before_throws(F, S, opts, tt, st, cnt, i)
    if step != TO_SHOTS:
        return step == TURN_OVER
    while S[i, S_THROWN] < F[i, P_N_THROWN]:
        if _engaged(F, S, i):
            return False
        if _plan_shot(F, S, i) != SH_THROW:
            return True
        _look(F, S, opts, st, i)
        if _stops(S, i):
            return True
        if _sector_shot(F, S, opts, tt, st, cnt, i, _throw_cost(S, i)):
            _throw(F, S, opts, tt, st, cnt, i)
        if _lost_foe(F, S, opts, st, i):
            return True
    return False


@rule
def _ready_weapon(S, i):
    """V-10.9, V-11.20: a thrower whose hand holds an item to throw or nothing readies its melee
    weapon (quick, 1 AP) before fighting in melee (``throw_ready = quick``). Returns whether it may
    go on (bool: not if it lacks the AP)."""
    if (S[i, S_DROPPED] & HAND_THROW) == 0:
        return True
    if S[i, S_AP] < READY_COST:
        return False
    S[i, S_AP] -= READY_COST
    S[i, S_DROPPED] -= HAND_THROW
    return True


@rule
def _threatened(F, S, i):
    """V-15.4 ``keep_distance``: is ``i``'s foe one without a gun in hand within 2 × its speed + its
    reach (V-3.15) (bool)?"""
    e = foe(S, i)
    return not _gun_in_hand(S, e) and apart(S, i, e) <= 2 * F[e, P_SPEED] + _reach(F, S, e)


@rule
def _before_shots(F, S, opts, tt, st, cnt, i):
    """V-15.1–V-15.5: the part of fighter ``i``'s turn with its gun in hand before its shots. Engaged
    under ``engaged = draw``: ready the melee weapon (1 AP, V-10.9) to fight in melee; under
    ``step_back`` one move away (:func:`_retreat`) and go on. Then a reload if one is due and its AP
    leave the reserve (V-15.3); with ``move = advance`` one move while the foe is beyond the gun's
    effective range and 1 AP leaves the reserve, with ``keep_distance`` one move away while
    :func:`_threatened` (V-15.4; lying prone, it crawls away at half speed, V-10.8); lying down with
    a ``prone`` tactic (:func:`_wants_lie`, V-10.8); bracing (V-15.5). Each action but the draw (the
    foe is engaged then) first draws the foe's sector shot (V-11.13). Returns ``TO_SHOTS`` (its
    shots come next), ``TURN_OVER`` (the fight is decided) or ``TO_MELEE`` (it drew its melee
    weapon)."""
    keep = F[i, P_T_KEEP]
    if F[i, P_T_ENGAGED] == EN_DRAW and _engaged(F, S, i) and _draw(F, S, i):
        return TO_MELEE
    if F[i, P_T_ENGAGED] == EN_STEP_BACK and _engaged(F, S, i) and S[i, S_AP] >= 1:
        _retreat(F, S, opts, tt, st, cnt, i)
        if _lost_foe(F, S, opts, st, i):
            return TURN_OVER
    cost = _reload_cost(F, opts, i)
    if S[i, S_RELOAD] != 0 and S[i, S_AP] - keep >= cost:
        if _sector_shot(F, S, opts, tt, st, cnt, i, cost):
            _reload(F, S, opts, i)
        if _stops(S, i):
            return TURN_OVER
    if (F[i, P_T_MOVE] == MV_ADVANCE and S[i, S_AP] - keep >= 1
            and _band(apart(S, i, foe(S, i))) > _gun(F, i, W_RANGE)):
        _move(F, S, opts, tt, st, cnt, i)
        if _stops(S, i):
            return TURN_OVER
    if F[i, P_T_MOVE] == MV_KEEP_DISTANCE and S[i, S_AP] - keep >= 1 and _threatened(F, S, i):
        _retreat(F, S, opts, tt, st, cnt, i)
        if _lost_foe(F, S, opts, st, i):
            return TURN_OVER
    if not _engaged(F, S, i) and _wants_lie(F, S, i):  # V-10.8: lie down (1 AP) to shoot
        if _sector_shot(F, S, opts, tt, st, cnt, i, 1):
            S[i, S_AP] -= 1
            S[i, S_LYING] = 1
        if _stops(S, i):
            return TURN_OVER
    if _wants_brace(F, S, i):
        if _sector_shot(F, S, opts, tt, st, cnt, i, 1):
            S[i, S_AP] -= 1
            S[i, S_BRACED] = 1
        if _stops(S, i):
            return TURN_OVER
    return TO_SHOTS


@rule
def _shooter_actions(F, S, opts, tt, st, cnt, i):
    """V-15.1–V-15.7: fighter ``i``'s turn with its gun in hand: the steps before its shots
    (:func:`_before_shots`: the draw, a step back, a reload, a move, lying down, bracing); shots by
    :func:`_plan_shot` (V-15.6), each after the perception check under poor visibility (V-11.18)
    and drawing the foe's sector shot (V-11.13); sector control with the AP left (V-15.7). Returns
    True when the turn is over, False when it drew its melee weapon to fight in melee."""
    step = _before_shots(F, S, opts, tt, st, cnt, i)
    if step != TO_SHOTS:
        return step == TURN_OVER
    while True:
        if _plan_shot(F, S, i) == SH_NONE:
            break
        _look(F, S, opts, st, i)  # V-11.18: blind, the aimed shot gives way to a standard one
        shot = _plan_shot(F, S, i)
        if _stops(S, i):
            return True
        if shot == SH_NONE:
            break
        if _sector_shot(F, S, opts, tt, st, cnt, i, SHOT_COST[shot]):
            _shoot(F, S, opts, tt, st, cnt, i, shot)
        if _lost_foe(F, S, opts, st, i):
            return True
    _set_aside(F, S, opts, i)
    return True


@rule
def _ready_to_act(F, S, opts, tt, st, cnt, i):
    """V-11.16, V-10.8, V-10.9: the steps of ``i``'s turn at a distance between its start and its
    actions: a brace without support lapses; lying prone by choice and engaged, it stands up (1 AP)
    **[reading: a fighter lying by choice may attack, but stands up to fight in melee]**; with
    ``redraw`` it takes its gun in hand again (:func:`_wants_redraw`), each drawing the foe's sector
    shot. Returns whether it goes on (bool: not once the fight is decided)."""
    if not _supported(S, i):  # V-11.16: stood up without cover, no brace
        S[i, S_BRACED] = 0
    if S[i, S_LYING] != 0 and S[i, S_AP] >= 1 and _engaged(F, S, i):  # V-10.8: it stands up to fight
        _get_up(F, S, opts, tt, st, cnt, i)
        if _stops(S, i):
            return False
    if _wants_redraw(F, S, opts, i):
        if _sector_shot(F, S, opts, tt, st, cnt, i, _redraw_cost(opts, S, i)):
            _redraw(opts, S, i)
        if _stops(S, i):
            return False
    return True


@rule
def _to_first_shot(F, S, opts, tt, st, cnt, i):
    """``attack``'s measure at a distance (V-15): fighter ``i``'s first turn on a fresh state, up to
    its first shot or throw, by the turn's own steps: with its gun in hand or a throwing tactic, the
    readying of its first turn (:func:`_ranged_start_step`, V-10.9), :func:`_ready_to_act`, then
    :func:`_before_shots` (a reload, a move, lying down, bracing …) or :func:`_before_throws` (the
    moves to the item's effective range). Its foe has set no AP aside at a fight's start, so these
    steps draw no dice (no sector shot, V-11.13), but for the opportunity attack of a step back out
    of an engaged foe's reach (V-10.7). Of the turn's start only the readying is played: a fresh
    fighter has no wound to bleed and nothing to stand up from or pick up, and breaking free (V-6.9)
    is left out, the measure being the attack, as for a melee attack. Returns ``TO_SHOTS`` (its
    first shot or throw comes next, :func:`_plan_shot`), ``TURN_OVER`` (the fight was decided first)
    or ``TO_MELEE`` (no gun in hand and no throwing tactic, its melee weapon drawn, or a thrower
    engaged: its first attack is a melee one)."""
    if not _gun_in_hand(S, i) and F[i, P_T_SHOT] != SH_THROW:
        return TO_MELEE
    if not _ranged_start_step(F, S, opts, tt, st, cnt, i, START_READY):
        return TURN_OVER
    if not _ready_to_act(F, S, opts, tt, st, cnt, i):
        return TURN_OVER
    if _gun_in_hand(S, i):
        return _before_shots(F, S, opts, tt, st, cnt, i)
    return _before_throws(F, S, opts, tt, st, cnt, i)


@rule
def _ranged_start_step(F, S, opts, tt, st, cnt, i, step):
    """V-2.3, V-11.13: turn-start step ``step`` (``START_*`` of :mod:`.rounds`) of fighter ``i`` at a
    distance: an action (readying, standing up, picking up, breaking free; not the bleeding) draws
    the foe's sector shot first when ``i`` has its AP (``overwatch_turn_start = fires``; ``exempt``:
    none); an action the shot leaves no longer possible (its shock took the AP, V-6.3) is not taken
    (:func:`_start_cost`, :func:`_start_step`). Returns whether the fighter goes on with its turn
    (bool)."""
    cost = _start_cost(F, S, opts, i, step)
    if cost < 0:
        return True
    if cost > 0 and S[i, S_AP] >= cost and opts[O_OVERWATCH_TURN_START] != OVERWATCH_TURN_START_EXEMPT:
        _sector_shot(F, S, opts, tt, st, cnt, i, cost)
        if _stops(S, i):
            return False
        if _start_cost(F, S, opts, i, step) < 0:
            return True
    return _start_step(F, S, opts, st, i, step)


@rule
def _ranged_start(F, S, opts, tt, st, cnt, i):
    """V-2.3, V-11.13: the start of fighter ``i``'s turn at a distance: (refill), then the steps of
    :func:`_turn_start` in the same order, each by :func:`_ranged_start_step` (its action drawing the
    foe's sector shot first); a knocked-down fighter without the AP to stand up ends its turn there.
    Returns whether the fighter goes on with its turn (bool)."""
    if opts[O_AP_REFILL] != 0:
        _refill(F, S, i)
    for step in range(N_START_STEPS):
        if not _ranged_start_step(F, S, opts, tt, st, cnt, i, step):
            return False
    return S[i, S_OUT] == 0


@rule
def _grapple_turn(F, S, opts, tt, st, cnt, i):
    """V-2.3, V-6.5, V-6.10: the turn of ``i`` in a grapple (:func:`.grapple._in_grapple`: one whose
    partner went out ends here, and the turn goes as usual): (refill), bleeding (no action), then the
    grapple's actions (:func:`.grapple._grapple_actions`); the other turn-start steps are actions,
    and a fighter in a grapple takes none but the grapple's **[reading]**. Returns whether the
    grapple took the turn (bool)."""
    if not _in_grapple(S, i):
        return False
    if opts[O_AP_REFILL] != 0:
        _refill(F, S, i)
    if _start_cost(F, S, opts, i, START_BLEED) >= 0 and not _start_step(F, S, opts, st, i, START_BLEED):
        return True
    _grapple_actions(F, S, opts, tt, st, cnt, i)
    return True


@rule
def _ranged_turn(F, S, opts, tt, st, cnt, i):
    """Fighter ``i``'s turn in a duel at a distance (:func:`_ranged_turn_in`)."""
    _ranged_turn_in(F, S, opts, tt, st, cnt, i, None)


@rule
def _ranged_turn_in(F, S, opts, tt, st, cnt, i, group):
    """V-15.1: fighter ``i``'s turn in a fight at a distance: its sector control lapses
    (``overwatch_expiry = next_turn``, V-11.13); its start (:func:`_ranged_start`; with ``hip_chain =
    per_turn`` a new chain of hip shots); :func:`_ready_to_act` (a brace without support lapses,
    lying prone by choice and engaged it stands up, ``redraw`` takes the gun in hand again); in a
    fight of several a commander's order (V-15.10, :func:`.orders._wants_order`) and an inspiration
    (V-13.7, ``inspire = on``), each drawing the foe's sector shot; its shooting with the gun in hand
    (:func:`_shooter_actions`); its throws (:func:`_thrower_actions`, V-11.20); otherwise, its foe
    beyond its melee reach, closing in (``move = close_in``, or a
    shooting tactic that drew its melee weapon, V-15.2 **[reading]**, not one whose gun a DROP took
    and that lacked the AP to pick it up, V-3.9; V-15.4: moves while AP last, each drawing the
    foe's sector shot, stopping at its reach, V-3.15), then melee (:func:`_melee_actions`) once the
    foe is within its reach (V-10.4), a thrower readying its weapon first (:func:`_ready_weapon`).
    ``group`` the drivers' flag (None in a duel). In a grapple (V-6.10) the turn is the grapple's
    (:func:`_grapple_turn`)."""
    S[i, S_SECTOR] = 0
    for j in range(F.shape[0]):  # V-11.18: a new turn, new perception checks
        S[j, S_SIGHT] = 0
    if opts[O_HIP_CHAIN] == HIP_CHAIN_PER_TURN:
        S[i, S_HIP_CHAIN] = 0
    if S[i, S_GRAPPLE] != 0 and _grapple_turn(F, S, opts, tt, st, cnt, i):  # V-6.10: the grapple's turn
        return
    if not _ranged_start(F, S, opts, tt, st, cnt, i) or not _ready_to_act(F, S, opts, tt, st, cnt, i):
        return
    if group is not None:
        if _wants_order(F, S, opts, i):  # V-15.10: the order first, drawing the foe's sector shot
            if _sector_shot(F, S, opts, tt, st, cnt, i, WILL_ACTION_COST) and _wants_order(F, S, opts, i):
                _give_order(F, S, opts, st, i)
            if _stops(S, i):
                return
        if _wants_inspire(F, S, opts, i):  # V-13.7 (inspire = on)
            if _sector_shot(F, S, opts, tt, st, cnt, i, INSPIRE_COST) and _wants_inspire(F, S, opts, i):
                _inspire(F, S, opts, st, i)
            if _stops(S, i):
                return
    if _gun_in_hand(S, i) and _shooter_actions(F, S, opts, tt, st, cnt, i):
        return
    if F[i, P_T_SHOT] == SH_THROW and _thrower_actions(F, S, opts, tt, st, cnt, i):
        return
    if not _in_reach(F, S, i):
        drew = (F[i, _wb(SLOT_GUN) + W_PRESENT] != 0 and (F[i, P_T_SHOT] != SH_NONE or F[i, P_T_OVERWATCH] != 0)
                and (S[i, S_DROPPED] & HAND_GUN_DROPPED) == 0)  # a gun a DROP took is picked up, V-3.9
        if F[i, P_T_MOVE] != MV_CLOSE_IN and not drew:  # V-15.2: after a draw, the melee tactic closes in
            return
        while S[i, S_AP] >= 1 and not _in_reach(F, S, i):
            _move(F, S, opts, tt, st, cnt, i)
            if _stops(S, i):
                return
        if not _in_reach(F, S, i):
            return
    if _ready_weapon(S, i):
        _melee_actions(F, S, opts, tt, st, cnt, i, group, True)
