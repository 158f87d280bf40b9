"""The grapple and finishing off (V-4.5 grapple, V-6.10, V-3.12, V-3.13, V-3.11): the grab an
attack's extra successes buy, the grappled state, breaking free, the choke, and the finishing blow
on a helpless foe. Imports :mod:`.checks`, :mod:`.actions`, :mod:`.traumas` and :mod:`.melee`.

Rules: V-4.5, V-1.5, V-6.10, V-3.12, V-3.13, V-5.6, V-6.11, V-3.11, V-6.6.

A grapple is two fighters' ``S_GRAPPLE``: the grappler's is its partner's row + 1, the grappled
fighter's −(the grappler's row + 1); one grapple per fighter (a fighter in one, either role, is no
target of a grab, and a grappler grabs nobody else). It ends for both at once
(:func:`_release`): a break free, or either fighter out (found at the start of a turn of either,
:func:`_in_grapple`). While it is on the grappled fighter neither defends nor dodges
(``grappled_reactions = none``, :func:`.actions._choose_reaction`) and both fighters' turns are
the grapple's (:func:`_grapple_actions`). The turns are compiled only in the kernel variant
``ranged``, which a matchup with a fighter of the spending policy ``grapple_first`` plays
(:func:`brutal_sim.rulesets.vereteno.kernel_set`); without one ``S_GRAPPLE`` is always 0.

Arguments are those of the kernel package (:mod:`brutal_sim.rulesets.vereteno.kernel`).
"""

from __future__ import annotations

from ....toolbox.battle import apart, foe
from ....toolbox.jit import rule
from ..layout import (
    AS_INTIMIDATE,
    C_ATTACKS,
    HAND_GUN,
    K_STANDARD,
    N_OUTCOMES,
    OUT_HIT,
    OUT_MISS,
    P_ATTACK_SPENDING,
    P_SHOOT_POOL,
    P_SIDE,
    P_T_KEEP,
    REACH,
    S_AP,
    S_DEAD,
    S_DROPPED,
    S_GRAPPLE,
    S_OUT,
    S_PEN_SHOOT,
    SLOT_GUN,
    W_DAMAGE,
    W_MOD,
)
from ..options import O_TIES, TIE_REROLLS, TIES_INITIATOR_WINS, TIES_REROLL
from .checks import _defence_pool, _fighter_check, _wb, _weapon
from .melee import _answer, _blow, _exchange, _land
from .traumas import _strain, _trauma

#: V-3.11: AP of the finishing blow (an extended action)
FINISH_COST = 3
#: V-3.11: the finishing blow's damage is this many times the weapon's
FINISH_TIMES = 3
#: V-3.12, V-3.13: AP of a break free and of a choke (standard actions)
GRAPPLE_COST = 2


@rule
def _release(S, i):
    """V-6.10: the grapple ``i`` is in ends for both fighters."""
    j = abs(S[i, S_GRAPPLE]) - 1
    S[i, S_GRAPPLE] = 0
    if j >= 0:
        S[j, S_GRAPPLE] = 0


@rule
def _in_grapple(S, i):
    """V-6.10: whether ``i`` is in a grapple whose partner is still in the fight; a grapple whose
    partner went out ends here (:func:`_release`). bool."""
    g = S[i, S_GRAPPLE]
    if g == 0:
        return False
    j = abs(g) - 1
    if S[j, S_OUT] != 0 or S[i, S_OUT] != 0:
        _release(S, i)
        return False
    return True


@rule
def _grab(F, S, opts, st, a, d, extra):
    """V-4.5 grapple, V-1.5: ``a``'s hit on ``d`` put ``extra`` ≥ 1 successes into the grapple (the
    first buys it, each further adds a die, app). Both roll a melee check (Телосложение + Ближний бой
    + the weapon in hand − melee penalties, the pool of a defence, V-4.3 **[reading]**; prayer V-1.6;
    the strain of V-6.11), ``a`` first; the grab fails only if ``d``'s successes exceed ``a``'s
    (seed 127: a tie goes to the grabber). Success: ``a`` holds ``d`` (V-6.10). Returns whether it
    holds (bool)."""
    r = _fighter_check(F, S, opts, st, _defence_pool(F, S, a) + extra - 1, a)
    _strain(F, S, a)
    q = _fighter_check(F, S, opts, st, _defence_pool(F, S, d), d)
    _strain(F, S, d)
    if q > r or S[a, S_OUT] != 0 or S[d, S_OUT] != 0:
        return False
    S[a, S_GRAPPLE] = d + 1
    S[d, S_GRAPPLE] = -(a + 1)
    return True


@rule
def _break_hold(F, S, opts, st, i):
    """V-3.12, V-1.5: grappled ``i`` spends a standard action (2 AP) on an opposed melee check against
    its grappler (both the pool of a defence, V-4.3 **[reading]**; prayer V-1.6; V-6.11 strain), ``i``
    first; more successes free it; a tie by option ``ties`` (fails, succeeds, or both roll again, at
    most ``TIE_REROLLS`` times)."""
    j = abs(S[i, S_GRAPPLE]) - 1
    S[i, S_AP] -= GRAPPLE_COST
    r = _fighter_check(F, S, opts, st, _defence_pool(F, S, i), i)
    _strain(F, S, i)
    q = _fighter_check(F, S, opts, st, _defence_pool(F, S, j), j)
    _strain(F, S, j)
    if opts[O_TIES] == TIES_REROLL:
        for _k in range(TIE_REROLLS):
            if r != q:
                break
            r = _fighter_check(F, S, opts, st, _defence_pool(F, S, i), i)
            q = _fighter_check(F, S, opts, st, _defence_pool(F, S, j), j)
    if r > q or (r == q and opts[O_TIES] == TIES_INITIATOR_WINS):
        _release(S, i)


@rule
def _choke(F, S, opts, tt, st, cnt, a, d):
    """V-3.13: grappler ``a`` chokes ``d`` (2 AP): a melee attack with :func:`.checks._choke_pool`; the grappled
    fighter does not react (``grappled_reactions = none``; ``allowed``: its defence or dodge as against
    any standard blow, V-4.3, V-4.4, the counter too); a hit deals unarmed damage (1, V-5.6) + 1 per
    extra success (crit "—": no trauma; ``intimidate`` puts the extras into Will), with no armour roll;
    counted as an attack of ``a``."""
    S[a, S_AP] -= GRAPPLE_COST
    outcome, s, counter, counter_damage, d_traumas = _exchange(F, S, opts, st, a, d, K_STANDARD, True)
    if s > 0:
        damage = s
        will = 0
        if F[a, P_ATTACK_SPENDING] == AS_INTIMIDATE:
            damage = 1
            will = s - 1
        _land(F, S, opts, tt, st, cnt, a, d, damage, damage, 0, 0, will)
    _answer(F, S, opts, tt, st, cnt, a, d, outcome, counter, counter_damage, d_traumas)


@rule
def _grapple_actions(F, S, opts, tt, st, cnt, i):
    """V-6.10: the actions of ``i`` in a grapple (its turn's start done). Grappled: it breaks free
    (:func:`_break_hold`) while it has 2 AP and is held; freed, its turn ends, the AP left kept for
    its reactions **[reading]**. Grappling: it chokes (:func:`_chokes`)."""
    if S[i, S_GRAPPLE] < 0:
        while S[i, S_AP] >= GRAPPLE_COST and S[i, S_OUT] == 0 and S[i, S_GRAPPLE] != 0:
            _break_hold(F, S, opts, st, i)
        return
    _chokes(F, S, opts, tt, st, cnt, i)


@rule
def _chokes(F, S, opts, tt, st, cnt, i):
    """V-3.13: grappler ``i`` chokes its partner while 2 AP leave its tactic's reserve and the grapple
    holds (either fighter out ends it)."""
    while S[i, S_AP] - GRAPPLE_COST >= F[i, P_T_KEEP] and _in_grapple(S, i):
        _choke(F, S, opts, tt, st, cnt, i, S[i, S_GRAPPLE] - 1)
    _in_grapple(S, i)


@rule
def _finish_off(F, S, opts, tt, st, cnt, i):
    """V-3.11, V-6.6: ``i`` finishes off its helpless foe ``e`` at point blank (3 AP, an extended
    action): a shooting check with its gun in hand (Ловкость + Стрельба + the gun's modifier −
    shooting penalties **[reading: no range dice]**), else a melee check (the pool of a defence,
    V-4.3; V-6.11 strain); prayer V-1.6. Success: 3 × the weapon's damage + 1 per extra success
    through the armour roll (V-5.4), a trauma whatever the armour did (V-6.2), and ``e`` is dead
    **[reading: finished off]**; failure: nothing (counted as a miss). Counted as an attack of ``i``."""
    e = foe(S, i)
    if e < 0:  # (never: an index guard, kernel docstring)
        return
    S[i, S_AP] -= FINISH_COST
    gun = (S[i, S_DROPPED] & HAND_GUN) != 0
    if gun:
        pool = F[i, P_SHOOT_POOL] + F[i, _wb(SLOT_GUN) + W_MOD] - S[i, S_PEN_SHOOT]
        damage = F[i, _wb(SLOT_GUN) + W_DAMAGE]
    else:
        pool = _defence_pool(F, S, i)
        damage = _weapon(F, S, i, W_DAMAGE)
    r = _fighter_check(F, S, opts, st, pool, i)
    if not gun:
        _strain(F, S, i)
    outcome = OUT_MISS
    if r >= 1 and S[i, S_OUT] == 0:
        outcome = OUT_HIT
        _blow(F, S, opts, tt, st, cnt, i, e, FINISH_TIMES * damage + r - 1, 0, 0, 0)
        _trauma(F, S, opts, tt, st, e)
        S[e, S_DEAD] = 1
    cnt[C_ATTACKS + F[i, P_SIDE] * N_OUTCOMES + outcome] += 1


@rule
def _can_finish(S, i):
    """V-3.11: whether ``i`` may finish off its foe now: 3 AP and its foe at point blank (bool)."""
    e = foe(S, i)
    return e >= 0 and S[i, S_AP] >= FINISH_COST and apart(S, i, e) <= REACH
