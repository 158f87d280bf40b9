"""V-4 resolving a melee attack: a blow's damage, traumas, disarm and Will damage through the
armour roll (V-4.5, V-4.6, V-5.4, V-6.2), the blow's level for the counters, and one attack with
its reaction, checks and the defence's counter (V-4, V-4.3). Imports :mod:`.checks`,
:mod:`.actions`, :mod:`.armour` and :mod:`.traumas`."""

from __future__ import annotations

from ....core.battle import B_DEALT, B_TAKEN
from ....toolbox.battle import put_out
from ....toolbox.jit import rule
from ..layout import (
    AS_GRAPPLE_FIRST,
    C_ATTACKS,
    C_DAMAGE,
    C_WOUNDS,
    CAUSE_WILL,
    HAND_DROPPED,
    LVL_NONE,
    LVL_OUT,
    LVL_SCRATCH,
    LVL_TRAUMA,
    LVL_WOUND,
    N_LEVELS,
    N_OUTCOMES,
    OUT_ARMOUR_STOPPED,
    P_ATTACK_SPENDING,
    P_SIDE,
    R_DEFEND,
    R_DODGE,
    R_NONE,
    S_DROPPED,
    S_GRAPPLE,
    S_HARMED,
    S_INIT_BONUS,
    S_OUT,
    S_STEALTH,
    S_TOOK,
    S_WILL,
    W_DAMAGE,
)
from ..options import GRAB_ARMOUR_KEPT, O_GRAB_ARMOUR
from .actions import _choose_reaction, _grapple_extras, _resolve, _spend, _take_reaction
from .armour import _armour_roll, _lose_health
from .checks import _choke_pool, _defence_pool, _dodge_pool, _fighter_check, _melee_pool, _weapon
from .traumas import _strain, _trauma


@rule
def _level(stopped, final, traumas, out):
    """Level of a blow (counter names): ``out`` it put the target out of the fight (V-6.1: also
    through its Will, V-5.3, when the armour stopped its damage, V-12.3), ``none`` the armour
    stopped it, ``trauma`` it inflicted one, else ``wound`` (2+ damage), ``scratch`` (1) or ``none``
    (a hit for 0 damage, V-16.2)."""
    if out:
        return LVL_OUT
    if stopped:
        return LVL_NONE
    if traumas > 0:
        return LVL_TRAUMA
    if final >= 2:
        return LVL_WOUND
    if final == 1:
        return LVL_SCRATCH
    return LVL_NONE


@rule
def _blow(F, S, opts, tt, st, cnt, src, tgt, damage, traumas, disarm, will):
    """V-4.5, V-4.6, V-5.4, V-6.2: deliver ``damage``, ``traumas``, a disarm and Will damage from
    ``src`` to ``tgt``. Damage goes through the armour roll; if it reaches 0 the traumas and the
    disarm are cancelled too (Will damage stays). Counts the blow's level (a blow for 0 damage
    too: ``none``).

    Returns 1 if the armour stopped all the damage, else 0.
    """
    final = damage
    if damage > 0:
        final = max(damage - _armour_roll(F, S, opts, st, cnt, src, tgt), 0)
    return _land(F, S, opts, tt, st, cnt, src, tgt, damage, final, traumas, disarm, will)


@rule
def _land(F, S, opts, tt, st, cnt, src, tgt, damage, final, traumas, disarm, will):
    """V-4.6, V-5.2, V-6.2, V-12.3, V-5.3: a blow or shot of ``damage`` left ``final`` after the
    armour roll: Health, then the traumas and the disarm unless the armour stopped it all, then the
    Will damage (never stopped; Will ≤ 0 puts the target out; a grapple it is in ends, V-6.10);
    counts the blow's level (:func:`_level`). Returns 1 if the armour stopped all the damage, else 0."""
    was_out = S[tgt, S_OUT] != 0
    stopped = damage > 0 and final == 0
    side = F[tgt, P_SIDE]
    if side < 0:  # (never: an index guard, kernel docstring)
        return 0
    cnt[C_DAMAGE + side] += final
    S[src, B_DEALT] += final  # the group block (docs/groups.md)
    S[tgt, B_TAKEN] += final
    _lose_health(F, S, tgt, final)
    applied = 0
    if not stopped:
        for _ in range(traumas):
            _trauma(F, S, opts, tt, st, tgt)
        applied = traumas
        if disarm != 0:
            S[tgt, S_DROPPED] = S[tgt, S_DROPPED] | HAND_DROPPED
    S[tgt, S_WILL] -= will
    if S[tgt, S_WILL] <= 0:
        put_out(F, S, tgt, CAUSE_WILL)
    out = S[tgt, S_OUT] != 0 and not was_out
    if out and S[tgt, S_GRAPPLE] != 0:  # V-6.10: a grapple ends when either fighter is out
        partner = abs(S[tgt, S_GRAPPLE]) - 1
        S[tgt, S_GRAPPLE] = 0
        S[partner, S_GRAPPLE] = 0
    level = _level(stopped, final, applied, out)
    cnt[C_WOUNDS + side * N_LEVELS + level] += 1
    S[side, S_TOOK + level] += 1  # the per-side tally (a per-side cell)
    if level != LVL_NONE:
        S[tgt, S_HARMED] += 1
    return 1 if stopped else 0


@rule
def _exchange(F, S, opts, st, a, d, kind, choke):
    """V-4.1–V-4.4, V-7.2: the checks of one melee attack of ``kind`` by ``a`` on ``d``: ``d``'s
    reaction chosen and paid (its AP and tokens, V-2.2, V-3.17), ``a``'s check (its melee pool, or
    the choke's, :func:`.checks._choke_pool`, when ``choke``; the stealth bonus spent, V-2.5), the
    defence's or dodge's check, each check's strain (V-6.11), and the result
    (:func:`.actions._resolve`), the defence's initiative bonus added to ``d``. Returns (outcome,
    extra successes, counter, the counter's damage with the weapon ``d`` defended with, ``d``'s
    traumas on ``a``)."""
    react = _choose_reaction(F, S, opts, a, d, kind)
    if react != R_NONE:
        _take_reaction(F, S, opts, d)
    pool = _choke_pool(F, S, a) if choke else _melee_pool(F, S, opts, a, d, kind)
    sa = _fighter_check(F, S, opts, st, pool, a)
    S[a, S_STEALTH] = 0  # V-2.5: the stealth bonus is the first attacking action's
    _strain(F, S, a)
    r = 0
    if react == R_DEFEND:
        r = _fighter_check(F, S, opts, st, _defence_pool(F, S, d), d)
        _strain(F, S, d)
    elif react == R_DODGE:
        r = _fighter_check(F, S, opts, st, _dodge_pool(F, S, opts, a, d, kind), d)
        _strain(F, S, d)
    outcome, s, counter, d_traumas, d_init = _resolve(F, S, opts, a, d, react, sa, r)
    S[d, S_INIT_BONUS] += d_init
    return outcome, s, counter, _weapon(F, S, d, W_DAMAGE) * counter, d_traumas


@rule
def _answer(F, S, opts, tt, st, cnt, a, d, outcome, counter, counter_damage, d_traumas):
    """V-4.3: an attack's close: its outcome counted for ``a``'s side, then the defence's counter and
    traumas on ``a`` (:func:`_blow`)."""
    side = F[a, P_SIDE]
    if side >= 0:  # (always: an index guard, kernel docstring)
        cnt[C_ATTACKS + side * N_OUTCOMES + outcome] += 1
    if counter != 0 or d_traumas != 0:
        _blow(F, S, opts, tt, st, cnt, d, a, counter_damage, d_traumas, 0, 0)


@rule
def _attack(F, S, opts, tt, st, cnt, a, d, kind):
    """V-4: one melee attack of ``kind`` by ``a`` on ``d`` (its foe, or the fighter stepping out of its
    reach, V-10.7): reaction, checks, effects, counter. The reaction's AP and tokens are ``d``'s, so a
    fighter attacked by several answers each from the same pool (V-2.2, V-3.17).

    The attack's effects on ``d`` resolve first, then the defence's counter and traumas on ``a``
    (simultaneous, V-4.3: they use the weapon ``d`` defended with even if the attack disarmed it).

    Returns the extra successes put into the grapple (V-4.5, :func:`.actions._grapple_extras`; 0
    when the armour stopped the blow's damage, V-5.4 **[reading: the grab is a harmful effect]**,
    unless ``grab_armour = kept``): the grab's check is the caller's (:func:`.grapple._grab`).
    """
    if a < 0 or d < 0:  # (never: an index guard, kernel docstring)
        return 0
    outcome, s, counter, counter_damage, d_traumas = _exchange(F, S, opts, st, a, d, kind, False)
    grab = 0
    if s > 0:
        damage, traumas, disarm, will = _spend(F, S, a, d, s)
        if F[a, P_ATTACK_SPENDING] == AS_GRAPPLE_FIRST:
            grab = _grapple_extras(F, S, a, d, s)
        if _blow(F, S, opts, tt, st, cnt, a, d, damage, traumas, disarm, will):
            outcome = OUT_ARMOUR_STOPPED
            if grab > 0 and opts[O_GRAB_ARMOUR] != GRAB_ARMOUR_KEPT:
                grab = 0
    _answer(F, S, opts, tt, st, cnt, a, d, outcome, counter, counter_damage, d_traumas)
    return grab
