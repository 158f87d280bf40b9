"""V-3 actions and V-4.1–V-4.5 reactions, with the V-7 policies that choose them: which attack
kinds a weapon allows (V-3.2, V-3.3) and the tactic's next one (V-7.1), the reaction's choice and
cost (V-4.1, V-7.2, V-2.2, V-3.17), its effect on the attack (V-4.2–V-4.4, V-7.3) and the
attacker's spending of extra successes (V-4.5, V-7.4). No dice: these are shared with the exact
enumeration. Imports :mod:`.checks`."""

from __future__ import annotations

from ....toolbox.jit import rule
from ..layout import (
    AS_DISARM_FIRST,
    AS_GRAPPLE_FIRST,
    AS_INTIMIDATE,
    AS_SUPPRESS_COVERED,
    AS_TRAUMA_FIRST,
    DS_COUNTER_FIRST,
    K_NONE,
    K_POWER,
    K_QUICK,
    OUT_DEFENDED,
    OUT_DODGED,
    OUT_HIT,
    OUT_MISS,
    P_ATTACK_SPENDING,
    P_DEFENCE_SPENDING,
    P_REACTION,
    P_T_KEEP,
    P_T_KIND,
    R_BEST,
    R_DEFEND,
    R_DODGE,
    R_NONE,
    S_AP,
    S_GRAPPLE,
    S_OUT,
    SLOT_WEAPON,
    W_CRIT,
    W_DAMAGE,
    W_HEAVY,
    W_LIGHT,
)
from ..options import (
    EXPOSURE_MISS_BECOMES_HIT,
    GUN_MELEE_NONE,
    NPC_NONE,
    NPC_TOKENS,
    O_EXPOSURE,
    O_GRAPPLED_REACTIONS,
    O_GUN_MELEE,
    O_NPC_REACTIONS,
)
from .checks import (
    KIND_COST,
    _defence_pool,
    _dodge_pool,
    _gun_in_hand,
    _is_npc,
    _pays_tokens,
    _slot,
    _spend_token,
    _tokens_left,
    _wb,
    _weapon,
)


@rule
def _allowed(F, S, i, kind):
    """V-3.2/V-3.3: quick attacks not with a heavy weapon; power strikes only with a melee weapon
    that is not light."""
    slot = _slot(F, S, i)
    if kind == K_QUICK:
        return F[i, _wb(slot) + W_HEAVY] == 0
    if kind == K_POWER:
        return slot == SLOT_WEAPON and F[i, _wb(slot) + W_LIGHT] == 0
    return True


@rule
def _plan(F, S, i):
    """V-7.1: the next attack kind of fighter ``i``'s tactic, or ``K_NONE``.

    The first kind the weapon allows (V-3.2, V-3.3) whose AP cost leaves at least the tactic's
    reserve (``P_T_KEEP``), trying the tactic's kind, then the cheaper kinds (power → standard →
    quick), then the costlier ones (a heavy weapon under a quick tactic strikes standard).
    """
    ap = S[i, S_AP]
    keep = F[i, P_T_KEEP]
    pref = F[i, P_T_KIND]
    if pref == K_NONE:
        return K_NONE
    for step in range(K_POWER):
        kind = pref - step if step < pref else step + 1
        if _allowed(F, S, i, kind) and ap - KIND_COST[kind] >= keep:
            return kind
    return K_NONE


@rule
def _take_reaction(F, S, opts, d):
    """V-2.2, V-3.17: a declared defence or dodge costs ``d`` 1 AP, and a GM character under
    ``npc_reactions = tokens`` 1 Chernobog token."""
    S[d, S_AP] -= 1
    if _pays_tokens(F, opts, d):
        _spend_token(F, S, d)


@rule
def _choose_reaction(F, S, opts, a, d, kind):
    """V-4.1, V-7.2, V-3.17, V-11.22: ``R_DEFEND``, ``R_DODGE`` or ``R_NONE`` (no AP left, the fighter
    never reacts, or a GM character under ``npc_reactions = none``, or ``tokens`` with none left).
    ``best`` defends if the melee pool is at least the dodge pool. With its gun in hand under
    ``gun_melee = none`` a fighter that reacts dodges. A grappled fighter never reacts under
    ``grappled_reactions = none`` (V-6.10: its only action is breaking free)."""
    if S[d, S_AP] < 1 or S[d, S_OUT] != 0:
        return R_NONE
    if S[d, S_GRAPPLE] < 0 and opts[O_GRAPPLED_REACTIONS] == 0:
        return R_NONE
    if _is_npc(F, opts, d):
        if opts[O_NPC_REACTIONS] == NPC_NONE:
            return R_NONE
        if opts[O_NPC_REACTIONS] == NPC_TOKENS and _tokens_left(F, S, opts, d) < 1:
            return R_NONE
    pref = F[d, P_REACTION]
    if opts[O_GUN_MELEE] == GUN_MELEE_NONE and pref != R_NONE and _gun_in_hand(S, d):
        return R_DODGE
    if pref == R_BEST:
        if _defence_pool(F, S, d) >= _dodge_pool(F, S, opts, a, d, kind):
            return R_DEFEND
        return R_DODGE
    return pref


@rule
def _resolve(F, S, opts, a, d, react, sa, r):
    """V-4.2–V-4.4: the attack's result after the reaction.

    Parameters
    ----------
    opts : int64[NO]
        Option ``exposure``: a dodge of ≤ −1 adds its negative to an attack that hit
        (``hit_only``) or also to a missed one (``miss_becomes_hit``).
    react : int64
        ``R_DEFEND``, ``R_DODGE`` or ``R_NONE``.
    sa, r : int64
        Net successes of the attack and of the reaction check.

    Returns
    -------
    (outcome, s, counter, d_traumas, d_init) : int64 tuple
        ``OUT_MISS``/``OUT_DEFENDED``/``OUT_DODGED``/``OUT_HIT``; successes left for the hit
        (≥ 1 on a hit); 1 if the defender counterattacks; traumas the defence inflicts; its
        initiative bonus (V-4.3 by the defender's policy, V-7.3; V-4.4 dodge 3+).
    """
    sa0 = max(sa, 0)
    s = sa0
    counter = 0
    traumas = 0
    init = 0
    if react == R_DEFEND:
        dd = max(r, 0)
        counter_first = F[d, P_DEFENCE_SPENDING] == DS_COUNTER_FIRST
        if counter_first and dd >= 1:
            counter = 1
            dd -= 1
        blocks = min(dd, sa0)
        dd -= blocks
        s = sa0 - blocks
        cost = _weapon(F, S, d, W_CRIT) + 1
        if cost > 1:
            traumas = dd // cost
            dd -= traumas * cost
        if not counter_first and dd >= 1:
            counter = 1
            dd -= 1
        init = 2 * dd
    elif react == R_DODGE:
        if r >= 2:
            s = 0
            if r >= 3:
                init = 2
        elif r == 1:
            s = (sa0 + 1) // 2
        elif r < 0 and (sa0 > 0 or opts[O_EXPOSURE] == EXPOSURE_MISS_BECOMES_HIT):
            s = sa0 - r
    if s > 0:
        outcome = OUT_HIT
    elif sa0 == 0:
        outcome = OUT_MISS
    elif react == R_DEFEND:
        outcome = OUT_DEFENDED
    else:
        outcome = OUT_DODGED
    return outcome, s, counter, traumas, init


@rule
def _spend(F, S, a, d, s):
    """V-4.5, V-7.4: a hit with ``s`` ≥ 1 successes; the extras bought by the attacker's policy.
    ``grapple_first`` puts every extra into the grapple (:func:`_grapple_extras`), which adds nothing
    here; with none to put there (neither fighter may grapple) it spends as ``damage_only``.

    Returns
    -------
    (damage, traumas, disarm, will) : int64 tuple
        Weapon damage plus +1 per extra bought; traumas (``crit`` each); 1 to disarm (``crit``,
        only a held weapon); Will damage (intimidation, 1 each).
    """
    extra = s - 1
    crit = _weapon(F, S, a, W_CRIT)
    policy = F[a, P_ATTACK_SPENDING]
    traumas = 0
    disarm = 0
    will = 0
    if (policy == AS_TRAUMA_FIRST or policy == AS_SUPPRESS_COVERED) and crit > 0:
        traumas = extra // crit
        extra -= traumas * crit
    elif policy == AS_DISARM_FIRST and crit > 0 and extra >= crit and _slot(F, S, d) == SLOT_WEAPON:
        disarm = 1
        extra -= crit
    elif policy == AS_INTIMIDATE:
        will = extra
        extra = 0
    elif policy == AS_GRAPPLE_FIRST and _grapple_extras(F, S, a, d, s) > 0:
        extra = 0
    return _weapon(F, S, a, W_DAMAGE) + extra, traumas, disarm, will


@rule
def _grapple_extras(F, S, a, d, s):
    """V-4.5 grapple, V-7.4 ``grapple_first``: the extra successes of a hit with ``s`` successes that
    ``a`` puts into the grapple: every one (s − 1 ≥ 1) when neither ``a`` nor ``d`` is in a grapple
    (one grapple per fighter), else 0. int64."""
    if F[a, P_ATTACK_SPENDING] != AS_GRAPPLE_FIRST or s < 2 or S[a, S_GRAPPLE] != 0 or S[d, S_GRAPPLE] != 0:
        return 0
    return s - 1
