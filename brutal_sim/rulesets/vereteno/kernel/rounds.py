"""V-2.3 turns in melee: the battle cry (seed 41–43, 62; V-6.4), the start of a fighter's turn
(V-2.3, V-10.9, V-6.5, V-6.7, V-3.9, V-6.9), its melee actions (V-2.5, V-7.1) and its turn in a
melee fight. The fight of rounds (V-2.6) that plays these turns is :mod:`.fight`. Imports
:mod:`.checks`, :mod:`.initiative`, :mod:`.actions`, :mod:`.armour`, :mod:`.traumas` and
:mod:`.melee`."""

from __future__ import annotations

from ....toolbox.battle import decided, foe, put_out
from ....toolbox.jit import rule
from ..layout import (
    CAUSE_WILL,
    HAND_DROPPED,
    K_NONE,
    K_STANDARD,
    P_CRY_POOL,
    P_T_CRY,
    P_T_KEEP,
    S_AP,
    S_BLEED,
    S_DMG_TURN,
    S_DROPPED,
    S_LYING,
    S_NO2H,
    S_OUT,
    S_PEN_INFL,
    S_PRONE,
    S_STEALTH,
    S_UNREADY,
    S_WILL,
    SLOT_WEAPON,
    W_TWO_HANDED,
)
from ..options import O_AP_REFILL, O_PICKUP, O_START_READY, START_READY_NO, STEALTH_EXTRA_ATTACK
from .actions import _plan
from .armour import _lose_health
from .checks import KIND_COST, _fighter_check, _wb
from .initiative import _refill
from .melee import _attack
from .traumas import _break_free


@rule
def _battle_cry(F, S, opts, st, i):
    """Battle cry (seed 41–43, 62): a standard action (2 AP), an Influence check of Эмпатия + Влияние
    less influence penalties (V-6.4; prayer V-1.6 as for any check); its successes are Will damage to
    its foe (Will ≤ 0 puts it out, V-5.3). No reaction and no armour roll apply."""
    S[i, S_AP] -= 2
    r = _fighter_check(F, S, opts, st, F[i, P_CRY_POOL] - S[i, S_PEN_INFL], i)
    if r >= 1:
        e = foe(S, i)
        S[e, S_WILL] -= r
        if S[e, S_WILL] <= 0:
            put_out(F, S, e, CAUSE_WILL)


@rule
def _get_ready(S, opts, i):
    """V-10.9: in its first turn ``i`` readies the gun or weapon in hand it holds still unready
    (``start_ready = no``: quick, 1 AP; not with ``fastest_hand``)."""
    if S[i, S_UNREADY] != 0 and opts[O_START_READY] == START_READY_NO and S[i, S_AP] >= 1:
        S[i, S_AP] -= 1
        S[i, S_UNREADY] = 0


@rule
def _turn_start(F, S, opts, tt, st, cnt, i):
    """V-2.3, V-10.9, V-6.5, V-6.7, V-3.9, V-6.9: the start of fighter ``i``'s turn: (refill), readying
    the weapon in hand in its first turn (:func:`_get_ready`), bleeding, standing up when
    knocked down (also from lying by choice, V-10.8),
    recovering a dropped weapon, breaking free if immobilised. Returns whether the fighter goes on
    with its turn (bool)."""
    if opts[O_AP_REFILL] != 0:
        _refill(F, S, i)
    _get_ready(S, opts, i)
    bleed = S[i, S_BLEED] + S[i, S_DMG_TURN]
    if bleed > 0:
        if S[i, S_BLEED] > 0:
            S[i, S_BLEED] -= 1
        _lose_health(F, S, i, bleed)
        if S[i, S_OUT] != 0:
            return False
    if S[i, S_PRONE] != 0:
        if S[i, S_AP] < 1:
            return False
        S[i, S_AP] -= 1
        S[i, S_PRONE] = 0
        S[i, S_LYING] = 0  # V-10.8: knocked down while lying, it gets up
    if (S[i, S_DROPPED] & HAND_DROPPED) != 0 and S[i, S_AP] >= opts[O_PICKUP]:
        if S[i, S_NO2H] == 0 or F[i, _wb(SLOT_WEAPON) + W_TWO_HANDED] == 0:
            S[i, S_AP] -= opts[O_PICKUP]
            S[i, S_DROPPED] -= HAND_DROPPED
    _break_free(F, S, opts, st, i)
    return S[i, S_OUT] == 0


@rule
def _melee_actions(F, S, opts, tt, st, cnt, i):
    """V-2.5, V-7.1: fighter ``i``'s actions in melee: a free stealth attack, a battle cry if its
    tactic has one and 2 AP leave its reserve, then attacks by its tactic, until the fight is
    decided."""
    if S[i, S_STEALTH] == STEALTH_EXTRA_ATTACK:  # V-2.5: a standard attack as a free action first
        _attack(F, S, opts, tt, st, cnt, i, K_STANDARD)
        if decided(S):
            return
    if F[i, P_T_CRY] != 0 and S[i, S_AP] - 2 >= F[i, P_T_KEEP]:
        _battle_cry(F, S, opts, st, i)
        if decided(S):
            return
    while True:
        kind = _plan(F, S, i)
        if kind == K_NONE:
            return
        S[i, S_AP] -= KIND_COST[kind]
        _attack(F, S, opts, tt, st, cnt, i, kind)
        if decided(S):
            return


@rule
def _turn(F, S, opts, tt, st, cnt, i):
    """V-2.3, V-6.5, V-6.7, V-3.9, V-6.9, V-2.5, V-7.1: fighter ``i``'s turn in a melee fight: its
    start (:func:`_turn_start`), then its melee actions (:func:`_melee_actions`)."""
    if _turn_start(F, S, opts, tt, st, cnt, i):
        _melee_actions(F, S, opts, tt, st, cnt, i)
