"""V-10 distance and movement on the shared line model (:mod:`brutal_sim.toolbox.battle`): the
range band of a distance (V-10.1, V-16.1), melee reach (V-3.15) and engagement (V-11.11), the opening at
``start_distance`` with cover and the gun in hand (V-10.6, V-11.17), a move (V-10.4) and closing
in (V-15.4). Positions are the battle block's ``S_X`` in metres (V-10.3 ``space = line``: side a
from 0, side b from ``start_distance``). Nothing here runs in a melee duel. Imports
:mod:`.checks` and :mod:`.initiative`."""

from __future__ import annotations

import numpy as np

from ....toolbox.battle import apart, foe, move_away, move_toward, place_sides
from ....toolbox.jit import rule
from ..layout import (
    BAND_CLOSE,
    BAND_EXTREME,
    BAND_LONG,
    BAND_MEDIUM,
    BAND_POINT_BLANK,
    HAND_GUN,
    HAND_GUN_DROPPED,
    HAND_THROW,
    P_COVER,
    P_PERC_POOL,
    P_SIDE,
    P_SPEED,
    P_STEALTH_POOL,
    P_T_SHOT,
    REACH,
    S_AMMO,
    S_AP,
    S_BRACED,
    S_COVER,
    S_DROPPED,
    S_GUN_DOWN,
    S_HALFSPD,
    S_LYING,
    S_PRONE,
    S_THROW_READY,
    SH_THROW,
    SLOT_GUN,
    SLOT_WEAPON,
    W_MAGAZINE,
    W_PRESENT,
)
from ..options import (
    COVER_MOVE_KEEP,
    HALVING_STACK,
    O_COVER_MOVE,
    O_HALVING,
    O_PICKUP,
    O_START_DISTANCE,
    O_STEALTH,
    O_STEALTH_AMBUSH,
    O_STEALTH_CHECK,
    O_STEALTH_DISTANCE,
    O_STEALTH_FAIL,
    O_THROW_READY,
    O_TIES,
    STEALTH_FAIL_DECLARED,
    STEALTH_OPPOSED,
    THROW_READY_FREE,
    TIE_REROLLS,
    TIES_INITIATOR_WINS,
    TIES_REROLL,
)
from .checks import _fighter_check, _in_reach, _reach, _wb, _weapon  # noqa: F401  (_in_reach: re-exported)
from .initiative import _reset, _surprise

#: V-10.1: a distance beyond the extreme band (1000 m) has no band: nothing can be shot there
BAND_OUT = BAND_EXTREME + 1
#: V-10.10 (seed 33–39): dice the declared distance's band adds to the stealth check
STEALTH_BAND_DICE = np.array([-2, -1, 0, 2, 4], dtype=np.int64)


@rule
def _band(d):
    """V-10.1: the band of a distance of ``d`` metres (the metres are upper bounds): 0 point blank
    (d ≤ 1), 1 close (≤ 2), 2 medium (≤ 20), 3 long (≤ 100), 4 extreme (≤ 1000), else ``BAND_OUT``."""
    if d <= 1:
        return BAND_POINT_BLANK
    if d <= 2:
        return BAND_CLOSE
    if d <= 20:
        return BAND_MEDIUM
    if d <= 100:
        return BAND_LONG
    if d <= 1000:
        return BAND_EXTREME
    return BAND_OUT


@rule
def _engaged(F, S, i):
    """V-11.11, V-3.15: ``i`` is engaged when it stands within its foe's melee reach (point blank:
    bare hands reach, V-5.6 **[reading]**; close range against a long weapon) (bool)."""
    e = foe(S, i)
    if e < 0:  # (never: an index guard, kernel docstring)
        return False
    return apart(S, i, e) <= _reach(F, S, e)


@rule
def _point_blank(S, i):
    """V-10.1: do ``i`` and its foe stand at point blank (1 m)? (bool)"""
    return apart(S, i, foe(S, i)) <= REACH


@rule
def _open(F, S, opts):
    """V-10.6, V-11.17, V-11.14: a fresh fight (:func:`_reset`: the gun in hand if the tactic shoots,
    V-10.9) with side b ``start_distance`` metres from side a, each fighter behind its cover, its
    magazine full; a thrower (V-11.20) with its first item in hand, its melee weapon stowed
    (``throw_ready = quick``) or ready too (``free``)."""
    _reset(F, S)
    place_sides(F, S, opts[O_START_DISTANCE])
    for i in range(F.shape[0]):
        S[i, S_COVER] = F[i, P_COVER]
        S[i, S_AMMO] = F[i, _wb(SLOT_GUN) + W_MAGAZINE]
        if F[i, P_T_SHOT] == SH_THROW:  # V-11.20, V-10.9: the first item to throw in hand, no gun
            S[i, S_THROW_READY] = 1
            S[i, S_DROPPED] = HAND_THROW if opts[O_THROW_READY] != THROW_READY_FREE else 0


@rule
def _draw(F, S, i):
    """V-10.9, V-15.2 ``engaged = draw``: ``i`` readies its melee weapon (quick, 1 AP), the gun put
    away; without one it drops the gun (free **[reading]**: "dropping the held one is free") and
    fights bare-handed (V-5.6). Returns whether it switched (not without the AP to ready) (bool)."""
    if F[i, _wb(SLOT_WEAPON) + W_PRESENT] == 0:
        S[i, S_GUN_DOWN] = 1
    elif S[i, S_AP] >= 1:
        S[i, S_AP] -= 1
    else:
        return False
    S[i, S_DROPPED] -= HAND_GUN
    return True


@rule
def _redraw_cost(opts, S, i):
    """V-10.9, V-3.9: AP to take ``i``'s gun in hand again: readying it (1), or picking it up if it
    was dropped, for bare hands or by a DROP trauma (option ``pickup``: 1, or 2 with
    ``pickup_and_ready``). int64."""
    return opts[O_PICKUP] if S[i, S_GUN_DOWN] != 0 or (S[i, S_DROPPED] & HAND_GUN_DROPPED) != 0 else 1


@rule
def _redraw(opts, S, i):
    """V-10.9: ``i`` takes its gun in hand again (:func:`_redraw_cost` AP), the melee weapon put away."""
    S[i, S_AP] -= _redraw_cost(opts, S, i)
    S[i, S_GUN_DOWN] = 0
    S[i, S_DROPPED] = (S[i, S_DROPPED] | HAND_GUN) & ~HAND_GUN_DROPPED


@rule
def _speed(F, S, opts, i):
    """V-10.4, V-10.5, V-10.8: metres of one move: the fighter's speed, halved (rounded down) by HALFSPD
    traumas and lying prone once (``halving = once``) or once per cause (``stack``). int64."""
    n = S[i, S_HALFSPD] + S[i, S_LYING]
    if n > 0 and opts[O_HALVING] != HALVING_STACK:
        n = 1
    return F[i, P_SPEED] >> n


@rule
def _step_back(F, S, opts, i):
    """V-10.4, V-15.2: one move (1 AP) of up to the fighter's speed away from its foe (the line has
    no end); cover and a brace are lost as on any move (:func:`_step`)."""
    S[i, S_AP] -= 1
    move_away(F, S, i, foe(S, i), _speed(F, S, opts, i))
    if opts[O_COVER_MOVE] != COVER_MOVE_KEEP:
        S[i, S_COVER] = 0
    S[i, S_BRACED] = 0


@rule
def _step(F, S, opts, i):
    """V-10.4, V-11.17, V-3.15: one move (quick, 1 AP) of up to the fighter's speed toward its foe,
    stopping at its own melee reach (:func:`_reach`: a long weapon stops at close range), never
    nearer than point blank (V-10.2, V-10.3); a move forfeits cover (the line has no cover
    positions **[reading]**; ``cover_move = keep`` keeps it) and a braced gun's support (V-11.16)."""
    S[i, S_AP] -= 1
    move_toward(S, i, foe(S, i), _speed(F, S, opts, i), _reach(F, S, i))
    if opts[O_COVER_MOVE] != COVER_MOVE_KEEP:
        S[i, S_COVER] = 0
    S[i, S_BRACED] = 0


@rule
def _step_to(F, S, opts, i, stop):
    """V-10.4 (a move may stop short), V-11.20: one move (1 AP) of up to the fighter's speed toward
    its foe, stopping ``stop`` metres from it (a thrower's effective range); cover and a brace are
    lost as on any move (:func:`_step`)."""
    S[i, S_AP] -= 1
    move_toward(S, i, foe(S, i), _speed(F, S, opts, i), stop)
    if opts[O_COVER_MOVE] != COVER_MOVE_KEEP:
        S[i, S_COVER] = 0
    S[i, S_BRACED] = 0


@rule
def _stand(S, i):
    """V-10.8, V-3.10, V-11.16: ``i`` lying prone by choice stands up (quick, 1 AP); a braced gun
    loses its support unless ``i`` is behind cover."""
    S[i, S_AP] -= 1
    S[i, S_LYING] = 0
    if S[i, S_COVER] <= 0 and S[i, S_PRONE] == 0:
        S[i, S_BRACED] = 0


@rule
def _stealth_pool(F, opts, i):
    """V-10.10: ``i``'s stealth check: Ловкость + Скрытность + the declared distance's band
    (``STEALTH_BAND_DICE``: point blank −2 … extreme +4) + 2 in ambush (``stealth_ambush``). int64."""
    return F[i, P_STEALTH_POOL] + STEALTH_BAND_DICE[_band(opts[O_STEALTH_DISTANCE])] + opts[O_STEALTH_AMBUSH]


@rule
def _leader(F, side):
    """The first fighter of ``side`` in row order (its line's first place; in a duel, the side's
    fighter)."""
    for i in range(F.shape[0]):
        if F[i, P_SIDE] == side:
            return i
    return -1


@rule
def _stealth_approach(F, S, opts, st):
    """V-10.10, V-2.5: the stealth approach of side ``stealth`` − 1, once, before initiative: the
    check of its first fighter (:func:`_leader`; :func:`_stealth_pool`; prayer V-1.6 as for any
    check) succeeds with ≥ 1 success (``stealth_check = plain``) or with more successes than its
    foe's (the other side's first fighter's) Интеллект + Наблюдательность check rolled after it
    (``opposed``; a tie by ``ties``, V-1.5: fails, succeeds, or both roll again, the stealthy fighter first, at most
    ``TIE_REROLLS`` times). Success: the fight starts at ``stealth_distance`` with that side's
    surprise (:func:`_surprise`); failure: no surprise, at ``start_distance`` (``stealth_fail``) or
    at ``stealth_distance`` (``declared_distance``). Returns whether it succeeded (bool)."""
    side = opts[O_STEALTH] - 1
    i = _leader(F, side)
    t = _leader(F, 1 - side)  # its foe in a duel; in a fight of several the other side's first fighter
    pool = _stealth_pool(F, opts, i)
    perception = F[t, P_PERC_POOL]
    r = _fighter_check(F, S, opts, st, pool, i)
    if opts[O_STEALTH_CHECK] == STEALTH_OPPOSED:
        q = _fighter_check(F, S, opts, st, perception, t)
        if opts[O_TIES] == TIES_REROLL:
            for _k in range(TIE_REROLLS):
                if r != q:
                    break
                r = _fighter_check(F, S, opts, st, pool, i)
                q = _fighter_check(F, S, opts, st, perception, t)
        ok = r > q or (r == q and opts[O_TIES] == TIES_INITIATOR_WINS)
    else:
        ok = r >= 1
    if ok:
        _surprise(F, S, opts, side)
    if ok or opts[O_STEALTH_FAIL] == STEALTH_FAIL_DECLARED:
        place_sides(F, S, opts[O_STEALTH_DISTANCE])
    return ok
