"""V-10 distance and movement on the shared line model (:mod:`brutal_sim.toolbox.battle`): the
range band of a distance (V-10.1, V-16.1), engagement (V-11.11), the opening at
``start_distance`` with cover and the gun in hand (V-10.6, V-11.17), a move (V-10.4) and closing
in (V-15.4). Positions are the battle block's ``S_X`` in metres (V-10.3 ``space = line``: side a
from 0, side b from ``start_distance``). Nothing here runs in a melee duel. Imports
:mod:`.checks` and :mod:`.initiative`."""

from __future__ import annotations

from ....toolbox.battle import apart, move_away, move_toward, place_sides
from ....toolbox.jit import rule
from ..layout import (
    BAND_CLOSE, BAND_EXTREME, BAND_LONG, BAND_MEDIUM, BAND_POINT_BLANK, P_COVER, P_SPEED, REACH, SLOT_GUN, S_AMMO,
    S_AP, S_BRACED, S_COVER, S_HALFSPD, W_MAGAZINE,
)
from ..options import COVER_MOVE_KEEP, HALVING_STACK, O_COVER_MOVE, O_HALVING, O_START_DISTANCE
from ..layout import HAND_THROW, P_T_SHOT, SH_THROW, S_DROPPED, S_THROW_READY
from ..options import O_THROW_READY, THROW_READY_FREE
from .checks import _wb
from .initiative import _reset

#: V-10.1: a distance beyond the extreme band (1000 m) has no band: nothing can be shot there
BAND_OUT = BAND_EXTREME + 1


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
def _engaged(S, i):
    """V-11.11, V-3.15: ``i`` is engaged when its foe is within melee reach (point blank: bare
    hands reach, V-5.6 **[reading]**), where it may attack in melee (V-10.4) (bool)."""
    return apart(S, i, 1 - i) <= REACH


@rule
def _open(F, S, opts):
    """V-10.6, V-11.17, V-11.14: a fresh duel (:func:`_reset`: the gun in hand if the tactic shoots,
    V-10.9) with side b ``start_distance`` metres from side a, each fighter behind its cover, its
    magazine full; a thrower (V-11.20) with its first item in hand, its melee weapon stowed
    (``throw_ready = quick``) or ready too (``free``)."""
    _reset(F, S)
    place_sides(F, S, opts[O_START_DISTANCE])
    for i in range(2):
        S[i, S_COVER] = F[i, P_COVER]
        S[i, S_AMMO] = F[i, _wb(SLOT_GUN) + W_MAGAZINE]
        if F[i, P_T_SHOT] == SH_THROW:  # V-11.20, V-10.9: the first item to throw in hand, no gun
            S[i, S_THROW_READY] = 1
            S[i, S_DROPPED] = HAND_THROW if opts[O_THROW_READY] != THROW_READY_FREE else 0


@rule
def _speed(F, S, opts, i):
    """V-10.4, V-10.5: metres of one move: the fighter's speed, halved (rounded down) by HALFSPD
    traumas once (``halving = once``) or once per trauma (``stack``). int64."""
    n = S[i, S_HALFSPD]
    if n > 0 and opts[O_HALVING] != HALVING_STACK:
        n = 1
    return F[i, P_SPEED] >> n


@rule
def _step_back(F, S, opts, i):
    """V-10.4, V-15.2: one move (1 AP) of up to the fighter's speed away from its foe (the line has
    no end); cover and a brace are lost as on any move (:func:`_step`)."""
    S[i, S_AP] -= 1
    move_away(F, S, i, 1 - i, _speed(F, S, opts, i))
    if opts[O_COVER_MOVE] != COVER_MOVE_KEEP:
        S[i, S_COVER] = 0
    S[i, S_BRACED] = 0


@rule
def _step(F, S, opts, i):
    """V-10.4, V-11.17: one move (quick, 1 AP) of up to the fighter's speed toward its foe, never
    nearer than point blank (V-10.2, V-10.3); a move forfeits cover (the line has no cover
    positions **[reading]**; ``cover_move = keep`` keeps it) and a braced gun's support (V-11.16)."""
    S[i, S_AP] -= 1
    move_toward(S, i, 1 - i, _speed(F, S, opts, i), REACH)
    if opts[O_COVER_MOVE] != COVER_MOVE_KEEP:
        S[i, S_COVER] = 0
    S[i, S_BRACED] = 0


@rule
def _step_to(F, S, opts, i, stop):
    """V-10.4 (a move may stop short), V-11.20: one move (1 AP) of up to the fighter's speed toward
    its foe, stopping ``stop`` metres from it (a thrower's effective range); cover and a brace are
    lost as on any move (:func:`_step`)."""
    S[i, S_AP] -= 1
    move_toward(S, i, 1 - i, _speed(F, S, opts, i), stop)
    if opts[O_COVER_MOVE] != COVER_MOVE_KEEP:
        S[i, S_COVER] = 0
    S[i, S_BRACED] = 0
