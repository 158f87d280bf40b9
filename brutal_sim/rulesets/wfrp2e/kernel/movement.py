"""Movement and distance (W-11): yards per move, charge and run, engagement, the line model with its
arena, closing in from a distance, fleeing.

Rules: W-3.3, W-3.14, W-3.15, W-11.1, W-11.2, W-11.3, W-11.4, W-11.5, W-8.8, W-8.11, W-8.12.

Positions are the battle block's ``S_X`` (yards on one line, W-11.5: side a from 0, side b from
``start_distance``); a fighter's ``S_ENGAGED`` is 1 while it is adjacent to its foe (d ≤ 2 yards,
W-11.3: engagement is pairwise, between a fighter and its foe) and is kept by :func:`_settle` after
every move. A duel at ``start_distance`` ≤ 2 starts engaged and
no fighter ever moves, so nothing here runs.

Arguments are those of the kernel package (:mod:`brutal_sim.rulesets.wfrp2e.kernel`).
"""

from __future__ import annotations

from ....toolbox.battle import apart, foe, move_away, move_toward
from ....toolbox.jit import rule
from ..layout import CHARGE_DISTANCE, ENGAGE_DISTANCE, P_M, P_SIDE, S_ENGAGED, S_RUNNING, S_X
from ..options import (
    APPROACH_RUN,
    DIFFICULT_CHARGE_FORBIDDEN,
    NO_ARENA,
    O_APPROACH,
    O_ARENA,
    O_DIFFICULT_CHARGE,
    O_START_DISTANCE,
    O_TERRAIN,
    TERRAIN_DIFFICULT,
)


@rule
def _settle(S):
    """W-11.3: every fighter's ``S_ENGAGED`` from the positions: 1 when it is at most 2 yards from
    its foe (none: 0)."""
    for i in range(S.shape[0]):
        e = foe(S, i)
        S[i, S_ENGAGED] = 1 if e >= 0 and apart(S, i, e) <= ENGAGE_DISTANCE else 0


@rule
def _move_yards(F, opts, i):
    """W-11.2: yards of i's Move (a half action) or Flee: 2·M, halved in difficult terrain. int64."""
    yards = 2 * F[i, P_M]
    if opts[O_TERRAIN] == TERRAIN_DIFFICULT:
        yards = F[i, P_M]
    return yards


@rule
def _charge_yards(F, opts, i):
    """W-11.2: the farthest i charges: 4·M; in difficult terrain 2·M (``difficult_charge = half``)
    or 0, no charge (``forbidden``). int64."""
    if opts[O_TERRAIN] == TERRAIN_DIFFICULT:
        return 0 if opts[O_DIFFICULT_CHARGE] == DIFFICULT_CHARGE_FORBIDDEN else 2 * F[i, P_M]
    return 4 * F[i, P_M]


@rule
def _reach(F, opts, i):
    """W-8.11, W-8.12, W-11.2: reach(i), the farthest i's melee attack comes from in one turn: its
    charge reach (:func:`_charge_yards`), or, when it cannot charge (a charge reach under the 4
    yards a charge needs: ``difficult_charge = forbidden``), a Move and an attack (its Move + 2
    yards). int64."""
    c = _charge_yards(F, opts, i)
    if c >= CHARGE_DISTANCE:
        return c
    return _move_yards(F, opts, i) + ENGAGE_DISTANCE


@rule
def _run_yards(F, opts, i):
    """W-11.2: yards of i's Run (a full action): 6·M; 0 in difficult terrain (forbidden). int64."""
    return 0 if opts[O_TERRAIN] == TERRAIN_DIFFICULT else 6 * F[i, P_M]


@rule
def _at_edge(F, S, opts, i):
    """W-11.5: whether i stands at the arena's end on the side away from its foe (it cannot move
    away); never without an arena."""
    if opts[O_ARENA] == NO_ARENA:
        return False
    lo = (opts[O_START_DISTANCE] - opts[O_ARENA]) // 2
    gap = S[i, S_X] - S[foe(S, i), S_X]
    if gap > 0 or (gap == 0 and F[i, P_SIDE] == 1):
        return S[i, S_X] >= lo + opts[O_ARENA]
    return S[i, S_X] <= lo


@rule
def _retreat(F, S, opts, i, yards):
    """W-11.5: i moves ``yards`` away from its foe, kept within the arena (``arena`` N > 0: N yards
    round the starting midpoint, from (start_distance − N) // 2)."""
    move_away(F, S, i, foe(S, i), yards)
    if opts[O_ARENA] != NO_ARENA:
        lo = (opts[O_START_DISTANCE] - opts[O_ARENA]) // 2
        hi = lo + opts[O_ARENA]
        if S[i, S_X] < lo:
            S[i, S_X] = lo
        elif S[i, S_X] > hi:
            S[i, S_X] = hi
    _settle(S)


@rule
def _close(F, S, opts, i, halves):
    """W-8.12 (every melee tactic closes this way; W-8.8): i, not engaged, closes on its foe with
    ``halves`` half actions (1 or 2). Returns (attacks, WS modifier) for the rest of its turn.

    d = the distance. 2 < d < 4: Move (adjacent, W-11.2: a foe nearer than 4 yards cannot be
    charged), then a standard attack with a half action left. 4 ≤ d ≤ charge reach and two half
    actions: Charge (W-3.3): adjacent, one attack at +10. Farther: Run (6·M, W-3.15) toward it,
    stopping 4 yards from it; running: until its next turn melee at it +20 WS (W-11.2); with
    ``approach = double_move`` or in difficult terrain (no run) two Moves (W-3.14), also stopping
    4 yards short. One half action and d ≥ 4: one Move stopping 4 yards short. When i cannot
    charge at all (a charge reach under 4 yards: ``difficult_charge = forbidden``) it closes as
    from under 4 yards, whatever d **[reading]**: Moves to contact, a standard attack with the half
    action left once adjacent (W-11.2: Move, then attack).
    """
    e = foe(S, i)
    d = apart(S, i, e)
    if d < CHARGE_DISTANCE or _charge_yards(F, opts, i) < CHARGE_DISTANCE:
        move_toward(S, i, e, _move_yards(F, opts, i), ENGAGE_DISTANCE)
        _settle(S)
        if S[i, S_ENGAGED] != 0:
            return (1, 0) if halves == 2 else (0, 0)
        if halves == 2:
            move_toward(S, i, e, _move_yards(F, opts, i), ENGAGE_DISTANCE)
            _settle(S)
        return 0, 0
    if halves == 2 and d <= _charge_yards(F, opts, i):
        move_toward(S, i, e, d, ENGAGE_DISTANCE)
        _settle(S)
        return 1, 10
    run = _run_yards(F, opts, i)
    if halves == 2 and opts[O_APPROACH] == APPROACH_RUN and run > 0:
        move_toward(S, i, e, run, CHARGE_DISTANCE)
        S[i, S_RUNNING] = 1
    else:
        move_toward(S, i, e, halves * _move_yards(F, opts, i), CHARGE_DISTANCE)
    _settle(S)
    return 0, 0
