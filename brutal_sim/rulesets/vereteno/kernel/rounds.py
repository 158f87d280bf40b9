"""V-2.3, V-2.6 turns, rounds and the duel: the battle cry (seed 41–43, 62; V-6.4), a fighter's
turn (V-2.3, V-6.5, V-6.7, V-3.9, V-6.9, V-2.5, V-7.1), counting a decided duel, the duel of
rounds (V-2.6) and the single attack of ``run_attacks``. Imports every chapter above it."""

from __future__ import annotations

from ....toolbox.jit import rule
from ....toolbox.tally import count_decision
from ..layout import (
    CAUSE_WILL,
    HAND_DROPPED,
    C_DRAWS,
    K_NONE,
    K_STANDARD,
    P_CRY_POOL,
    P_T_CRY,
    P_T_KEEP,
    SLOT_WEAPON,
    S_AP,
    S_BLEED,
    S_DEAD,
    S_DMG_TURN,
    S_DROPPED,
    S_HARMED,
    S_NO2H,
    S_OUT,
    S_PEN_INFL,
    S_PRONE,
    S_STEALTH,
    S_UNREADY,
    S_WILL,
    TALLY,
    W_TWO_HANDED,
)
from ..options import (
    O_AP_REFILL, O_INIT_ROLL, O_PICKUP, O_ROUND_CAP, O_SURPRISE, STEALTH_EXTRA_ATTACK,
)
from ..options import O_START_READY, START_READY_NO
from .checks import KIND_COST, _either_out, _fighter_check, _mark_out, _wb
from .initiative import _first, _refill, _reset, _roll_initiative, _surprise
from ..layout import S_LYING
from .actions import _plan
from .armour import _lose_health
from .traumas import _break_free, _immobilise
from .melee import _attack


@rule
def _battle_cry(F, S, opts, st, i):
    """Battle cry (seed 41–43, 62): a standard action (2 AP), an Influence check of Эмпатия + Влияние
    less influence penalties (V-6.4; prayer V-1.6 as for any check); its successes are Will damage to
    the opponent (Will ≤ 0 puts it out, V-5.3). No reaction and no armour roll apply."""
    S[i, S_AP] -= 2
    r = _fighter_check(S, opts, st, F[i, P_CRY_POOL] - S[i, S_PEN_INFL], i)
    if r >= 1:
        S[1 - i, S_WILL] -= r
        if S[1 - i, S_WILL] <= 0:
            _mark_out(S, 1 - i, CAUSE_WILL)


@rule
def _turn_start(F, S, opts, tt, st, cnt, i):
    """V-2.3, V-10.9, V-6.5, V-6.7, V-3.9, V-6.9: the start of fighter ``i``'s turn: (refill), readying
    the weapon in hand in its first turn (``start_ready = no``: 1 AP), bleeding, standing up when
    knocked down (also from lying by choice, V-10.8),
    recovering a dropped weapon, breaking free if immobilised. Returns whether the fighter goes on
    with its turn (bool)."""
    if opts[O_AP_REFILL] != 0:
        _refill(F, S, i)
    if S[i, S_UNREADY] != 0 and opts[O_START_READY] == START_READY_NO and S[i, S_AP] >= 1:
        S[i, S_AP] -= 1
        S[i, S_UNREADY] = 0
    bleed = S[i, S_BLEED] + S[i, S_DMG_TURN]
    if bleed > 0:
        if S[i, S_BLEED] > 0:
            S[i, S_BLEED] -= 1
        _lose_health(S, i, bleed)
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
    tactic has one and 2 AP leave its reserve, then attacks by its tactic."""
    if S[i, S_STEALTH] == STEALTH_EXTRA_ATTACK:  # V-2.5: a standard attack as a free action first
        _attack(F, S, opts, tt, st, cnt, i, K_STANDARD)
        if _either_out(S):
            return
    if F[i, P_T_CRY] != 0 and S[i, S_AP] - 2 >= F[i, P_T_KEEP]:
        _battle_cry(F, S, opts, st, i)
        if _either_out(S):
            return
    while True:
        kind = _plan(F, S, i)
        if kind == K_NONE:
            return
        S[i, S_AP] -= KIND_COST[kind]
        _attack(F, S, opts, tt, st, cnt, i, kind)
        if _either_out(S):
            return


@rule
def _turn(F, S, opts, tt, st, cnt, i):
    """V-2.3, V-6.5, V-6.7, V-3.9, V-6.9, V-2.5, V-7.1: fighter ``i``'s turn in a melee duel: its
    start (:func:`_turn_start`), then its melee actions (:func:`_melee_actions`)."""
    if _turn_start(F, S, opts, tt, st, cnt, i):
        _melee_actions(F, S, opts, tt, st, cnt, i)


@rule
def _finish(S, cnt, rnd, round_cap):
    """Count a duel decided in round ``rnd``: 0 a won, 1 b won, 2 both went out at once (a draw)."""
    if S[0, S_OUT] != 0 and S[1, S_OUT] != 0:
        cnt[C_DRAWS] += 1
        return 2
    loser = 0 if S[0, S_OUT] != 0 else 1
    count_decision(cnt, S, loser, S[loser, S_OUT] - 1, S[loser, S_DEAD], S[loser, S_HARMED] == 1, rnd, round_cap,
                    TALLY)
    return 1 - loser


@rule
def _duel(F, S, opts, tt, st, cnt):
    """One duel (V-2.6): rounds of two turns in initiative order until a side is out or the cap.

    Returns 0 if side a won, 1 if side b won, 2 for a draw.
    """
    _reset(F, S)
    _immobilise(S, opts)
    if opts[O_SURPRISE] > 0:
        _surprise(S, opts, opts[O_SURPRISE] - 1)
    _roll_initiative(F, S, opts, st, True)
    for rnd in range(1, opts[O_ROUND_CAP] + 1):
        if rnd > 1 and opts[O_INIT_ROLL] != 0:
            _roll_initiative(F, S, opts, st, False)
        first = _first(S, st)
        if opts[O_AP_REFILL] == 0:
            _refill(F, S, 0)
            _refill(F, S, 1)
        for k in range(2):
            _turn(F, S, opts, tt, st, cnt, first if k == 0 else 1 - first)
            if _either_out(S):
                return _finish(S, cnt, rnd, opts[O_ROUND_CAP])
    cnt[C_DRAWS] += 1
    return 2


@rule
def _single_attack(F, S, opts, tt, st, cnt):
    """One attack by side a (its tactic's first attack kind) on a fresh side b."""
    _reset(F, S)
    _immobilise(S, opts)
    kind = _plan(F, S, 0)
    if kind != K_NONE:
        S[0, S_AP] -= KIND_COST[kind]
        _attack(F, S, opts, tt, st, cnt, 0, kind)
