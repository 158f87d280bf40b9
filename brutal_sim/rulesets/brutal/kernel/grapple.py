"""Grappling (B-3.12): free hands, the grapple contest, holding, striking and throwing, escaping.

Rules: B-2.6, B-3.12.

Arguments are those of the kernel package (:mod:`brutal_sim.rulesets.brutal.kernel`).
"""

from __future__ import annotations

from ....toolbox.jit import rule
from ....toolbox.rng import roll_2d6, roll_die
from ..layout import (
    DT_SHOCK,
    G_CONTROLS,
    G_HELD,
    G_NONE,
    GA_THROW,
    K_NORMAL,
    P_ATHLETICS,
    P_DODGE,
    P_T_GRAPPLE_ACTION,
    S_DEALT,
    S_FOE,
    S_FULL_PEN,
    S_GRAPPLE,
    S_PRONE,
    SLOT_FISTS,
    SLOT_MAIN,
    SLOT_OFF,
    W_REACH,
    ZONE_TORSO,
)
from .attack import _attack
from .checks import _check_penalty, _free_hands, _usable, _wb
from .wounds import _take_wound


@rule
def _release(S, i, e):
    """The grapple between i and e ends for both."""
    S[i, S_GRAPPLE] = G_NONE
    S[e, S_GRAPPLE] = G_NONE


@rule
def _grapple_bonus(F, S, i, slip):
    """What i adds to its 2d6 in a grapple contest: athletics, −4 with an item in a hand; or for
    slipping out (``slip``) mobility [our ``dodge``]; less wounds, stunned/dazed and fatigue."""
    if slip:
        return F[i, P_DODGE] - _check_penalty(F, S, i)
    b = F[i, P_ATHLETICS] - _check_penalty(F, S, i)
    if _free_hands(F, S, i) < 2:
        b -= 4
    return b


@rule
def _grapple_contest(F, S, st, i, e, slip):
    """Opposed check of i (athletics, or mobility when ``slip``) against e's athletics: 2d6 for
    i, then 2d6 for e. Returns i's margin; i must win outright (a tie fails)."""
    r1, r2 = roll_2d6(st)
    q1, q2 = roll_2d6(st)
    return r1 + r2 + _grapple_bonus(F, S, i, slip) - (q1 + q2 + _grapple_bonus(F, S, e, False))


@rule
def _grapple_slot(F, S, i):
    """Weapon i strikes with in a grapple: a usable reach-0 item (main hand first), else fists."""
    for slot in (SLOT_MAIN, SLOT_OFF):
        if _usable(F, S, i, slot) and F[i, _wb(slot) + W_REACH] == 0:
            return slot
    return SLOT_FISTS


@rule
def _grapple_hold(F, S, opts, zt, st, cnt, i):
    """B-3.12: the full action of i controlling a grapple (B-2.6: −2 to reactions after it).

    Both prone: rise (opposed athletics; a win stands both up). A ``throw`` tactic, with both hands
    free and both standing: opposed athletics; a win fells the victim (d4+2 shock to the torso,
    armour ignored, at 2+ extra successes) and i lets go, standing. Otherwise strike: a single attack
    with a reach-0 item or fists, which the victim (i's foe) cannot parry or dodge.
    """
    e = S[i, S_FOE]
    S[i, S_FULL_PEN] = 1
    if S[i, S_PRONE] != 0 and S[e, S_PRONE] != 0:
        if _grapple_contest(F, S, st, i, e, False) > 0:
            S[i, S_PRONE] = 0
            S[e, S_PRONE] = 0
        return
    if (F[i, P_T_GRAPPLE_ACTION] == GA_THROW and _free_hands(F, S, i) == 2
            and S[i, S_PRONE] == 0 and S[e, S_PRONE] == 0):
        margin = _grapple_contest(F, S, st, i, e, False)
        if margin > 0:
            S[e, S_PRONE] = 1
            _release(S, i, e)
            if margin >= 2:
                damage = roll_die(st, 4) + 2
                S[i, S_DEALT] += damage
                _take_wound(F, S, opts, st, cnt, e, damage, DT_SHOCK, ZONE_TORSO)
        return
    _attack(F, S, opts, zt, st, cnt, i, e, _grapple_slot(F, S, i), 0, -1, K_NORMAL)


@rule
def _grapple_escape(F, S, opts, zt, st, cnt, i):
    """B-3.12: the full action of i held in a grapple (B-2.6: −2 to reactions after it).

    Bare-handed: take over (opposed athletics; a win reverses the roles and i at once takes a
    controlling action). Otherwise break free by force (athletics) or slip out (mobility against
    athletics), whichever bonus is higher (force on ties); a win ends the grapple and i takes one
    more standard action.

    Returns
    -------
    int64
        The standard actions i has left after it (1 after breaking free, else 0); ``_turn`` takes
        them, and i's controlling action after a take-over.
    """
    e = S[i, S_FOE]
    S[i, S_FULL_PEN] = 1
    if _free_hands(F, S, i) == 2:
        if _grapple_contest(F, S, st, i, e, False) > 0:
            S[i, S_GRAPPLE] = G_CONTROLS
            S[e, S_GRAPPLE] = G_HELD
        return 0
    slip = _grapple_bonus(F, S, i, True) > _grapple_bonus(F, S, i, False)
    if _grapple_contest(F, S, st, i, e, slip) > 0:
        _release(S, i, e)
        return 1
    return 0
