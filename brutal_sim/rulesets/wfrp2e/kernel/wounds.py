"""Damage taken, Wounds and critical hits (W-5), and the conditions critical effects cause (W-6):
the critical models, the critical table's effects, out of the fight and fate points, the level a
hit is counted at.

Rules: W-3.11, W-5.1, W-5.2, W-5.3, W-5.4, W-5.5, W-5.6, W-6.1, W-6.2, W-6.4, W-7.10, W-12.6.

Arguments are those of the kernel package (:mod:`brutal_sim.rulesets.wfrp2e.kernel`).
"""

from __future__ import annotations

import numpy as np

from ....core.battle import B_DEALT, B_TAKEN
from ....toolbox.battle import put_out
from ....toolbox.jit import rule
from ....toolbox.rng import roll_die
from .. import layout
from ..layout import (
    C_DAMAGE,
    C_WOUNDS,
    CAUSE_CRITICAL,
    CAUSE_HELPLESS,
    CRIT_COLUMNS,
    FX_DEATH,
    FX_DROP,
    FX_HELPLESS,
    FX_OUT,
    FX_PEN_AG,
    FX_PEN_WS,
    FX_PRONE,
    FX_STUN,
    LOC_LARM,
    LVL_CRITICAL,
    LVL_HEAVILY,
    LVL_NONE,
    LVL_OUT,
    LVL_WOUNDED,
    N_LEVELS,
    N_ZONES,
    P_FATE,
    P_SIDE,
    S_DEAD,
    S_GRAPPLE,
    S_HARMED,
    S_HELD_MAIN,
    S_HELD_OFF,
    S_HELPLESS,
    S_HOLDING,
    S_OUT,
    S_PEN_AG,
    S_PEN_WS,
    S_PRONE,
    S_RELOADING,
    S_STUN,
    S_TOOK,
    S_W,
    W_PRECISE,
)
from ..options import (
    CRIT_SUDDEN_DEATH,
    CRIT_THRESHOLD,
    HELPLESS_ATTACKABLE,
    HELPLESS_OUT,
    O_CRIT_MODEL,
    O_CRIT_THRESHOLD,
    O_HELPLESS,
    O_RELOAD_BREAK,
    RELOAD_BREAK_ALSO_DAMAGE,
)
from .weapons import _wf

#: the zone (``ZONE_*``) of each hit location (``LOC_*``, W-4.2): ``int64[6]``
LOCATION_ZONE = np.array(layout.LOCATION_ZONE, dtype=np.int64)


@rule
def _crit_effect(grid, value, roll):
    """W-5.4 table: the effect number of a critical value and a d100 roll."""
    col = value if value < CRIT_COLUMNS else CRIT_COLUMNS - 1
    return grid[roll - 1, col]


@rule
def _effect_takes_out(opts, fx, zone, e):
    """Whether effect ``e`` on ``zone`` ends the fight (OUT, DEATH, or HELPLESS unless
    ``helpless = attackable``, W-6.2)."""
    if fx[zone, e, FX_HELPLESS] != 0 and opts[O_HELPLESS] == HELPLESS_OUT:
        return True
    return fx[zone, e, FX_OUT] != 0 or fx[zone, e, FX_DEATH] != 0


@rule
def _model_takes_out(opts, value):
    """W-5.4 sudden_death / threshold(X): whether a critical value takes the fighter out."""
    if opts[O_CRIT_MODEL] == CRIT_SUDDEN_DEATH:
        return True
    return value >= opts[O_CRIT_THRESHOLD]


@rule
def _release(S, i):
    """W-12.6: the grapple of i ends (break free, release, either fighter out of the fight): both
    fighters' grapple state (``S_GRAPPLE``, ``S_HOLDING``) cleared."""
    j = S[i, S_GRAPPLE] - 1
    S[i, S_GRAPPLE] = 0
    S[i, S_HOLDING] = 0
    if j >= 0:
        S[j, S_GRAPPLE] = 0
        S[j, S_HOLDING] = 0


@rule
def _deadly(F, S, d):
    """W-5.6: an out-by-critical (W-5.5: out of the fight, ``put_out``) that kills, unless a fate
    point is spent (then only out)."""
    put_out(F, S, d, CAUSE_CRITICAL)
    if F[d, P_FATE] == 0:
        S[d, S_DEAD] = 1


@rule
def _apply_effect(F, S, opts, fx, d, loc, e):
    """W-5.4 table: apply effect ``e`` of the hit location's zone to d (W-6.1 stun, W-3.11 drop:
    the left arm drops the off-hand item, others the main-hand weapon; W-6.4 prone; penalties;
    W-6.2 helpless: out, or helpless in the fight with ``helpless = attackable``)."""
    zone = LOCATION_ZONE[loc]
    if fx[zone, e, FX_STUN] > S[d, S_STUN]:
        S[d, S_STUN] = fx[zone, e, FX_STUN]
    if fx[zone, e, FX_DROP] != 0:
        S[d, S_HELD_OFF if loc == LOC_LARM else S_HELD_MAIN] = 0
    if fx[zone, e, FX_PRONE] != 0:
        S[d, S_PRONE] = 1
    S[d, S_PEN_WS] += fx[zone, e, FX_PEN_WS]
    S[d, S_PEN_AG] += fx[zone, e, FX_PEN_AG]
    if fx[zone, e, FX_DEATH] != 0:
        _deadly(F, S, d)
    elif fx[zone, e, FX_OUT] != 0:
        put_out(F, S, d, CAUSE_CRITICAL)
    elif fx[zone, e, FX_HELPLESS] != 0:
        if opts[O_HELPLESS] == HELPLESS_ATTACKABLE:
            S[d, S_HELPLESS] = 1
        else:
            put_out(F, S, d, CAUSE_HELPLESS)  # W-5.5: helpless with nobody to defend it


@rule
def _wound_level(left, critical, out):
    """Counter level of a hit: none / wounded (> 3 Wounds left) / heavily wounded (W-5.2) /
    critical / out (W-5.3 – W-5.5). ``left`` is the Wounds left after a non-critical hit."""
    if out:
        return LVL_OUT
    if critical:
        return LVL_CRITICAL
    return LVL_WOUNDED if left > 3 else LVL_HEAVILY


@rule
def _take_damage(F, S, opts, grid, fx, st, cnt, a, d, slot, loc, final):
    """W-5.1 – W-5.4: d takes ``final`` damage on ``loc``; counts the hit's level × zone.

    Damage above the Wounds left (any damage at 0) is critical: value = damage − Wounds left
    (+1 Precise), Wounds become 0, and the critical model decides (one d100 for the table model).
    With ``reload_break = also_damage`` damage restarts d's reload under way (W-7.10). The damage
    and the hit are counted at d's side, its per-side tally ``S_TOOK`` in the side's row; the
    damage dealt by a and taken by d in the battle block (``B_DEALT``, ``B_TAKEN``). A critical
    that takes d out ends its grapple (W-12.6, :func:`_release`).
    """
    side = F[d, P_SIDE]
    cnt[C_DAMAGE + side] += final
    S[a, B_DEALT] += final  # the group block (docs/groups.md)
    S[d, B_TAKEN] += final
    zone = LOCATION_ZONE[loc]
    level = LVL_NONE
    if final > 0:
        if opts[O_RELOAD_BREAK] == RELOAD_BREAK_ALSO_DAMAGE:
            S[d, S_RELOADING] = 0  # W-7.10 reload_break = also_damage
        left = S[d, S_W]
        if final <= left:
            S[d, S_W] = left - final
            level = _wound_level(left - final, False, False)
        else:
            S[d, S_W] = 0
            value = final - left
            if _wf(F, a, slot, W_PRECISE) != 0:
                value += 1
            if opts[O_CRIT_MODEL] == CRIT_SUDDEN_DEATH or opts[O_CRIT_MODEL] == CRIT_THRESHOLD:
                if _model_takes_out(opts, value):
                    _deadly(F, S, d)
            else:
                _apply_effect(F, S, opts, fx, d, loc, _crit_effect(grid, value, roll_die(st, 100)))
            level = _wound_level(0, True, S[d, S_OUT] != 0)
            if S[d, S_OUT] != 0 and S[d, S_GRAPPLE] != 0:
                _release(S, d)
    cnt[C_WOUNDS + side * N_LEVELS * N_ZONES + level * N_ZONES + zone] += 1
    S[side, S_TOOK + level] += 1
    if level != LVL_NONE:
        S[d, S_HARMED] += 1
