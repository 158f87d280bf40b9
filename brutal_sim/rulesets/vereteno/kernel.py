"""The Vereteno melee duel kernel (numba): arrays and scalars in, counters out.

Inputs everywhere below:

F : int64[2, NF]
    Compiled fighters (``P_*`` of :mod:`.layout`); row 0 is side a, row 1 side b.
S : int64[2, NS]
    Their changing state during one duel (``S_*``), reset at the start of every duel.
opts : int64[NO]
    Rule options (``O_*``).
tt : int64[36, NT]
    The d66 trauma table (``T_*`` combat codes), row ``(tens − 1)·6 + units − 1`` (V-8.4).
st : uint64[4]
    The duel's random state (:mod:`brutal_sim.toolbox.rng`).
cnt : int64[K]
    Counters (``C_*``), added to, never cleared.

Draw order (the contract with ``tests/vereteno/naive_vereteno.py``, written down in
``docs/reference-vereteno.md``): initiative d20 a then b (plus the surprise dice, then the tie
d20 pairs); per attack: the attacker's pool (then its prayer's rerolled dice, V-1.6), then the
reaction's pool (and its prayer's dice), then the armour dice of the
target (armour part then shield part), then two d6 per trauma, then the same for the counter on
the attacker. Pools are rolled die by die with ``roll_die(st, 20)``.

The parallel loop of ``_run`` is compiled with this package's functions internal to it
(:mod:`brutal_sim.toolbox.jit`): LLVM passes only the arguments a function uses, 1.6× the duels per
second without it (benchmarks/README.md). ``_run_duels`` and ``_run_attacks`` are Python functions
that pass ``_run`` its flag.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ...toolbox.jit import driver, inline_rule, rule
from ...toolbox.tally import count_decision
from ...toolbox.rng import roll_die, seed_duel
from .layout import (
    N_CAUSES, AS_DISARM_FIRST, AS_INTIMIDATE, AS_TRAUMA_FIRST, CAUSE_DEATH, CAUSE_HEALTH, CAUSE_TRAUMA_OUT,
    CAUSE_WILL, C_ATTACKS, C_DAMAGE, C_DEGRADED, C_DRAWS, C_ONE_BLOW, C_ROUNDS, S_HARMED, C_WOUNDS,
    DS_COUNTER_FIRST, K_NONE, K_POWER, K_QUICK, K_STANDARD, LVL_NONE, LVL_OUT, LVL_SCRATCH, LVL_TRAUMA, LVL_WOUND,
    NS, OUT_ARMOUR_STOPPED, OUT_DEFENDED, OUT_DODGED, OUT_HIT, OUT_MISS, P_AGILITY, P_AGIL_SKILL, P_AP,
    P_ARMOUR_CLASS, P_ARMOUR_QUALITY, P_ATTACK_SPENDING, P_BODY, P_DEFENCE_SPENDING, P_HEALTH, P_MELEE, P_REACTION,
    P_SHIELD_CLASS, P_T_KEEP, P_T_KIND, P_WEAPONS, P_WILL, R_BEST, R_DEFEND, R_DODGE, R_NONE, SLOT_UNARMED,
    SLOT_WEAPON, S_AP, S_AP_DEBT, S_ARMOUR, S_BLEED, S_DEAD, S_DMGCHK, S_DMG_TURN, S_DROPPED, S_HEALTH,
    S_INIT_BONUS, S_INIT_ROLL, S_NO2H, S_OUT, S_PEN_AGIL, S_PEN_MELEE, S_PRONE, S_SHIELD, S_STEALTH, S_WILL,
    T_BLEED, T_DEAD, T_DMGCHK, T_DMG_TURN, T_DROP, T_NO2H, T_OUT, T_PEN_AGIL, T_PEN_MELEE, T_PRONE, T_SHOCK, WN,
    W_CRIT, W_DAMAGE, W_HEAVY, W_INIT, W_LIGHT, W_MOD, W_PIERCING, W_PRESENT, W_TWO_HANDED,
)
from .options import (
    DESP_APP, DESP_FVTT, O_AP_REFILL, O_ARMOUR_ONES, O_DESPERATION, O_DODGE_MODIFIER, O_INIT_ROLL,
    O_INIT_WEAPON_TERM, O_ONE_VALUE, O_PICKUP, O_ARMOUR_PIERCING_DICE, O_ROUND_CAP, O_SHIELD, O_SHOCK_TIMING,
    O_STEALTH_ATTACK, O_SURPRISE, O_SURPRISE_INIT, SHIELD_ARMOUR_POOL, STEALTH_DICE, STEALTH_EXTRA_ATTACK,
)
from .options import (
    EXPOSURE_MISS_BECOMES_HIT, NPC_NONE, NPC_TOKENS, O_EXPOSURE, O_NPC, O_NPC_REACTIONS, O_NPC_TOKENS, O_PRAYER,
    PRAYER_APP, PRAYER_OFF, PRAYER_YZE,
)
from .layout import P_CRY_POOL, P_T_CRY, S_IMMOBILISED, S_PEN_INFL, S_TOKENS_USED, T_PEN_INFL
from .layout import C_LOSER_WOUNDS, S_TOOK
from .options import O_IMMOBILISED

#: V-2.2 AP cost and V-3.1–3.3 pool modifier by attack kind (none, quick, standard, power)
KIND_COST = np.array([0, 1, 2, 3], dtype=np.int64)
KIND_MODIFIER = np.array([0, -2, 0, 2], dtype=np.int64)
N_LEVELS = 5

# --------------------------------------------------------------------------------------------------
# Pure helpers (no random numbers): shared by the duel kernel and the exact enumeration.
# --------------------------------------------------------------------------------------------------


@inline_rule
def _successes(face, one_value):
    """V-1.3: successes of one d20 face (int64): 20 → 2, 17–19 → 1, 1 → ``one_value``, else 0."""
    if face == 20:
        return 2
    if face >= 17:
        return 1
    if face == 1:
        return one_value
    return 0


@rule
def _desperate(mode, n_dice, n20, n1, net):
    """V-1.4: total of a desperate roll (pool ≤ 0) from its dice (int64).

    Parameters
    ----------
    mode : int64
        ``DESP_FVTT`` (every 20 → +1, 1 → −1; 1 success only if all dice are 20, else ≤ 0),
        ``DESP_YZE`` (2d20 counted by V-1.3; ≥ 2 successes count as 1, else at most 0).
    n_dice, n20, n1, net : int64
        Dice rolled, 20s among them, 1s among them, V-1.3 net successes.
    """
    if mode == DESP_FVTT:
        if n20 == n_dice:
            return 1
        return min(n20 - n1, 0)
    if net >= 2:
        return 1
    return min(net, 0)


@rule
def _desperate_dice(mode, pool):
    """V-1.4: number of d20 a desperate roll (pool ≤ 0) rolls: fvtt 1 (pool 0) or 2, yze 2, app 0."""
    if mode == DESP_APP:
        return 0
    if mode == DESP_FVTT and pool == 0:
        return 1
    return 2


@inline_rule
def _wb(slot):
    """Base index of weapon ``slot`` inside a fighter row."""
    return P_WEAPONS + slot * WN


@rule
def _slot(F, S, i):
    """The weapon slot fighter ``i`` fights with: its weapon unless it has none, dropped it
    (V-3.9) or may no longer wield a two-handed one (NO2H, V-8.4); else bare hands (V-5.6)."""
    b = _wb(SLOT_WEAPON)
    if F[i, b + W_PRESENT] == 0 or S[i, S_DROPPED] != 0:
        return SLOT_UNARMED
    if S[i, S_NO2H] != 0 and F[i, b + W_TWO_HANDED] != 0:
        return SLOT_UNARMED
    return SLOT_WEAPON


@rule
def _weapon(F, S, i, field):
    """A field (``W_*``) of the weapon fighter ``i`` fights with."""
    return F[i, _wb(_slot(F, S, i)) + field]


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
def _attack_pool(F, S, a, d, kind):
    """V-3.1–3.3, V-6.4, V-6.7, V-6.9, V-2.5: Телосложение + Ближний бой + weapon modifier + attack
    kind − melee penalties, +2 against a prone target, +2 against an immobilised one, +3 on a stealth
    attack (int64, may be ≤ 0)."""
    pool = F[a, P_BODY] + F[a, P_MELEE] + _weapon(F, S, a, W_MOD) + KIND_MODIFIER[kind] - S[a, S_PEN_MELEE]
    if S[d, S_PRONE] != 0:
        pool += 2
    if S[d, S_IMMOBILISED] != 0:
        pool += 2
    if S[a, S_STEALTH] == STEALTH_DICE:
        pool += 3
    return pool


@rule
def _defence_pool(F, S, d):
    """V-4.3: the defender's melee pool with its own weapon modifier, minus melee penalties."""
    return F[d, P_BODY] + F[d, P_MELEE] + _weapon(F, S, d, W_MOD) - S[d, S_PEN_MELEE]


@rule
def _dodge_pool(F, S, opts, a, d, kind):
    """V-4.4: Ловкость + Проворство − the attacker's weapon modifier (and, by option
    ``dodge_modifier``, its attack kind's modifier) − Проворство penalties."""
    pool = F[d, P_AGILITY] + F[d, P_AGIL_SKILL] - _weapon(F, S, a, W_MOD) - S[d, S_PEN_AGIL]
    if opts[O_DODGE_MODIFIER] != 0:
        pool -= KIND_MODIFIER[kind]
    return pool


@rule
def _is_npc(opts, i):
    """V-3.17: is side ``i`` a GM character (option ``npc`` codes: bit 0 side a, bit 1 side b)?"""
    return (opts[O_NPC] >> i) & 1 != 0


@rule
def _tokens_left(S, opts, i):
    """V-3.17: Chernobog tokens the GM has left for side ``i`` (``npc_tokens_a``/``_b`` less those spent)."""
    return opts[O_NPC_TOKENS + i] - S[i, S_TOKENS_USED]


@rule
def _pays_tokens(opts, i):
    """V-3.17: does side ``i`` cost the GM tokens (a GM character under ``npc_reactions = tokens``)?"""
    return _is_npc(opts, i) and opts[O_NPC_REACTIONS] == NPC_TOKENS


@rule
def _take_reaction(S, opts, d):
    """V-2.2, V-3.17: a declared defence or dodge costs ``d`` 1 AP, and a GM character under
    ``npc_reactions = tokens`` 1 Chernobog token."""
    S[d, S_AP] -= 1
    if _pays_tokens(opts, d):
        S[d, S_TOKENS_USED] += 1


@rule
def _choose_reaction(F, S, opts, a, d, kind):
    """V-4.1, V-7.2, V-3.17: ``R_DEFEND``, ``R_DODGE`` or ``R_NONE`` (no AP left, the fighter never
    reacts, or a GM character under ``npc_reactions = none``, or ``tokens`` with none left).
    ``best`` defends if the melee pool is at least the dodge pool."""
    if S[d, S_AP] < 1 or S[d, S_OUT] != 0:
        return R_NONE
    if _is_npc(opts, d):
        if opts[O_NPC_REACTIONS] == NPC_NONE:
            return R_NONE
        if opts[O_NPC_REACTIONS] == NPC_TOKENS and _tokens_left(S, opts, d) < 1:
            return R_NONE
    pref = F[d, P_REACTION]
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
    if policy == AS_TRAUMA_FIRST and crit > 0:
        traumas = extra // crit
        extra -= traumas * crit
    elif policy == AS_DISARM_FIRST and crit > 0 and extra >= crit and _slot(F, S, d) == SLOT_WEAPON:
        disarm = 1
        extra -= crit
    elif policy == AS_INTIMIDATE:
        will = extra
        extra = 0
    return _weapon(F, S, a, W_DAMAGE) + extra, traumas, disarm, will


@rule
def _armour_dice(F, S, opts, src, tgt):
    """V-5.4, V-4.7, V-5.7: dice of ``tgt``'s armour roll against ``src``'s weapon.

    Returns ``(armour dice, shield dice)``: class + quality, the held shield's class (option
    ``shield``), less ``armour_piercing_dice`` for an armour-piercing weapon (armour dice first).
    """
    na = S[tgt, S_ARMOUR] + F[tgt, P_ARMOUR_QUALITY]
    ns = S[tgt, S_SHIELD] if opts[O_SHIELD] == SHIELD_ARMOUR_POOL else 0
    if _weapon(F, S, src, W_PIERCING) != 0:
        cut = opts[O_ARMOUR_PIERCING_DICE]
        take = min(cut, na)
        na -= take
        ns = max(ns - (cut - take), 0)
    return na, ns


@rule
def _armour_reduction(opts, successes, ones):
    """V-5.4: damage removed by an armour roll: its successes (``armour_ones = separate``) or
    successes plus 1s at ``one_value`` (``net``), never below 0."""
    if opts[O_ARMOUR_ONES] != 0:
        return max(successes + ones * opts[O_ONE_VALUE], 0)
    return successes


@rule
def _level(stopped, final, traumas, out):
    """Level of a blow (counter names): ``none`` armour stopped it, ``out`` it put the target out
    of the fight, ``trauma`` it inflicted one, else ``wound`` (2+ damage) or ``scratch`` (1)."""
    if stopped:
        return LVL_NONE
    if out:
        return LVL_OUT
    if traumas > 0:
        return LVL_TRAUMA
    if final >= 2:
        return LVL_WOUND
    return LVL_SCRATCH


# --------------------------------------------------------------------------------------------------
# Rules that roll dice.
# --------------------------------------------------------------------------------------------------


@rule
def _check(st, pool, opts):
    """V-1.1–V-1.4: roll a check of ``pool`` d20 (desperate if ≤ 0); its net successes (int64)."""
    one = opts[O_ONE_VALUE]
    n = pool
    if pool <= 0:
        n = _desperate_dice(opts[O_DESPERATION], pool)
    net = 0
    n20 = 0
    n1 = 0
    for _ in range(n):
        face = roll_die(st, 20)
        net += _successes(face, one)
        n20 += face == 20
        n1 += face == 1
    if pool > 0:
        return net
    if n == 0:
        return 0
    return _desperate(opts[O_DESPERATION], n, n20, n1, net)


@rule
def _mark_out(S, i, cause):
    """V-6.1: fighter ``i`` is out of the fight by ``cause`` (the first cause is kept)."""
    if S[i, S_OUT] == 0:
        S[i, S_OUT] = cause + 1


@rule
def _can_pray(S, opts, i):
    """V-1.6: may fighter ``i`` pray now? ``app``: with Will ≥ 2 (the basic cost leaves it standing)
    **[reading]**; ``yze``: always, but a GM character under ``npc_reactions = tokens`` needs a token."""
    mode = opts[O_PRAYER]
    if mode == PRAYER_APP:
        return S[i, S_WILL] >= 2
    if mode == PRAYER_YZE:
        return not _pays_tokens(opts, i) or _tokens_left(S, opts, i) >= 1
    return False


@inline_rule
def _rerolled(mode, face, one):
    """V-1.6: does a prayer reroll this face? ``app``: a die without a success (1–16); ``yze``: every
    die but a 20."""
    if mode == PRAYER_YZE:
        return face != 20
    return _successes(face, one) <= 0


@rule
def _fighter_check(S, opts, st, pool, i):
    """V-1.1–V-1.4 and V-1.6: fighter ``i``'s check of ``pool`` d20 (attack, defence, dodge, agility,
    battle cry; not the armour roll).

    With option ``prayer``, a check of a pool > 0 that failed (≤ 0 successes) is prayed once if
    :func:`_can_pray`: the dice :func:`_rerolled` picks are rolled again, after the check's own dice.
    ``app`` costs 1 Will plus 1 per 1 among the new dice (Will ≤ 0 puts the fighter out, V-5.3);
    ``yze`` costs a GM character under ``npc_reactions = tokens`` one token. Returns the net
    successes (int64).
    """
    mode = opts[O_PRAYER]
    if mode == PRAYER_OFF or pool <= 0:
        return _check(st, pool, opts)
    one = opts[O_ONE_VALUE]
    net = 0
    kept = 0
    n_re = 0
    for _ in range(pool):
        face = roll_die(st, 20)
        v = _successes(face, one)
        net += v
        if _rerolled(mode, face, one):
            n_re += 1
        else:
            kept += v
    if net > 0 or n_re == 0 or not _can_pray(S, opts, i):
        return net
    ones = 0
    for _ in range(n_re):
        face = roll_die(st, 20)
        kept += _successes(face, one)
        ones += face == 1
    if mode == PRAYER_APP:
        S[i, S_WILL] -= 1 + ones
        if S[i, S_WILL] <= 0:
            _mark_out(S, i, CAUSE_WILL)
    elif _pays_tokens(opts, i):
        S[i, S_TOKENS_USED] += 1
    return kept


@rule
def _lose_health(S, i, amount):
    """Health damage; Health ≤ 0 puts the fighter out (V-5.2)."""
    S[i, S_HEALTH] -= amount
    if S[i, S_HEALTH] <= 0:
        _mark_out(S, i, CAUSE_HEALTH)


@rule
def _shock(S, opts, i, n):
    """V-6.3: lose ``n`` AP; ``now``: off the current pool, the rest off the next refill;
    ``next_turn``: all off the next refill."""
    take = 0
    if opts[O_SHOCK_TIMING] == 0:
        take = min(n, S[i, S_AP])
    S[i, S_AP] -= take
    S[i, S_AP_DEBT] += n - take


@rule
def _trauma(F, S, opts, tt, st, i):
    """V-6.2: roll d66 (tens then units) and apply the row's combat codes to fighter ``i``."""
    tens = roll_die(st, 6)
    units = roll_die(st, 6)
    row = (tens - 1) * 6 + units - 1
    if tt[row, T_SHOCK] > 0:
        _shock(S, opts, i, tt[row, T_SHOCK])
    if tt[row, T_DROP] != 0 and F[i, _wb(SLOT_WEAPON) + W_PRESENT] != 0:
        S[i, S_DROPPED] = 1
    if tt[row, T_PRONE] != 0:
        S[i, S_PRONE] = 1
    S[i, S_PEN_MELEE] += tt[row, T_PEN_MELEE]
    S[i, S_PEN_AGIL] += tt[row, T_PEN_AGIL]
    S[i, S_PEN_INFL] += tt[row, T_PEN_INFL]
    S[i, S_DMGCHK] += tt[row, T_DMGCHK]
    S[i, S_BLEED] += tt[row, T_BLEED]
    S[i, S_DMG_TURN] += tt[row, T_DMG_TURN]
    if tt[row, T_NO2H] != 0:
        S[i, S_NO2H] = 1
    if tt[row, T_OUT] != 0:
        _mark_out(S, i, CAUSE_TRAUMA_OUT)
    if tt[row, T_DEAD] != 0:
        S[i, S_DEAD] = 1
        _mark_out(S, i, CAUSE_DEATH)


@rule
def _armour_roll(F, S, opts, st, cnt, src, tgt):
    """V-5.4: ``tgt`` rolls its armour against ``src``'s weapon; every 1 lowers the class of the
    armour (or shield) whose die showed it. Returns the damage removed (int64)."""
    na, ns = _armour_dice(F, S, opts, src, tgt)
    one = opts[O_ONE_VALUE]
    successes = 0
    ones_a = 0
    ones_s = 0
    for k in range(na + ns):
        face = roll_die(st, 20)
        if face != 1:
            successes += _successes(face, one)
        elif k < na:
            ones_a += 1
        else:
            ones_s += 1
    lost_a = min(ones_a, S[tgt, S_ARMOUR])
    lost_s = min(ones_s, S[tgt, S_SHIELD])
    S[tgt, S_ARMOUR] -= lost_a
    S[tgt, S_SHIELD] -= lost_s
    cnt[C_DEGRADED + tgt] += lost_a + lost_s
    return _armour_reduction(opts, successes, ones_a + ones_s)


@rule
def _blow(F, S, opts, tt, st, cnt, src, tgt, damage, traumas, disarm, will):
    """V-4.5, V-4.6, V-5.4, V-6.2: deliver ``damage``, ``traumas``, a disarm and Will damage from
    ``src`` to ``tgt``. Damage goes through the armour roll; if it reaches 0 the traumas and the
    disarm are cancelled too (Will damage stays). Counts the blow's level.

    Returns 1 if the armour stopped all the damage, else 0.
    """
    if damage == 0 and traumas == 0 and disarm == 0 and will == 0:
        return 0
    was_out = S[tgt, S_OUT] != 0
    final = damage
    if damage > 0:
        final = max(damage - _armour_roll(F, S, opts, st, cnt, src, tgt), 0)
    stopped = damage > 0 and final == 0
    cnt[C_DAMAGE + tgt] += final
    _lose_health(S, tgt, final)
    applied = 0
    if not stopped:
        for _ in range(traumas):
            _trauma(F, S, opts, tt, st, tgt)
        applied = traumas
        if disarm != 0:
            S[tgt, S_DROPPED] = 1
    S[tgt, S_WILL] -= will
    if S[tgt, S_WILL] <= 0:
        _mark_out(S, tgt, CAUSE_WILL)
    out = S[tgt, S_OUT] != 0 and not was_out
    level = _level(stopped, final, applied, out)
    cnt[C_WOUNDS + tgt * N_LEVELS + level] += 1
    S[tgt, S_TOOK + level] += 1
    if level != LVL_NONE:
        S[tgt, S_HARMED] += 1
    return 1 if stopped else 0


@rule
def _strain(S, i):
    """V-6.11 (DMGCHK): each melee or Проворство check costs the fighter 1 Health per such trauma."""
    if S[i, S_DMGCHK] > 0:
        _lose_health(S, i, S[i, S_DMGCHK])


@rule
def _attack(F, S, opts, tt, st, cnt, a, kind):
    """V-4: one melee attack of ``kind`` by ``a`` on ``d``: reaction, checks, effects, counter.

    The attack's effects on ``d`` resolve first, then the defence's counter and traumas on ``a``
    (simultaneous, V-4.3: they use the weapon ``d`` defended with even if the attack disarmed it).
    """
    d = 1 - a
    react = _choose_reaction(F, S, opts, a, d, kind)
    if react != R_NONE:
        _take_reaction(S, opts, d)
    sa = _fighter_check(S, opts, st, _attack_pool(F, S, a, d, kind), a)
    S[a, S_STEALTH] = 0  # V-2.5: the stealth bonus is the first attacking action's
    _strain(S, a)
    r = 0
    if react == R_DEFEND:
        r = _fighter_check(S, opts, st, _defence_pool(F, S, d), d)
        _strain(S, d)
    elif react == R_DODGE:
        r = _fighter_check(S, opts, st, _dodge_pool(F, S, opts, a, d, kind), d)
        _strain(S, d)
    outcome, s, counter, d_traumas, d_init = _resolve(F, S, opts, a, d, react, sa, r)
    S[d, S_INIT_BONUS] += d_init
    counter_damage = _weapon(F, S, d, W_DAMAGE) * counter  # the weapon it defended with
    if s > 0:
        damage, traumas, disarm, will = _spend(F, S, a, d, s)
        if _blow(F, S, opts, tt, st, cnt, a, d, damage, traumas, disarm, will):
            outcome = OUT_ARMOUR_STOPPED
    cnt[C_ATTACKS + a * 5 + outcome] += 1
    if counter != 0 or d_traumas != 0:
        _blow(F, S, opts, tt, st, cnt, d, a, counter_damage, d_traumas, 0, 0)


@rule
def _either_out(S):
    """V-6.1: is either side out of the fight (bool)?"""
    return S[0, S_OUT] != 0 or S[1, S_OUT] != 0


@rule
def _refill(F, S, i):
    """V-2.1, V-6.3: the AP pool refills to the fighter's AP less any shock carried over."""
    ap = F[i, P_AP] - S[i, S_AP_DEBT]
    if ap < 0:
        S[i, S_AP_DEBT] = -ap
        ap = 0
    else:
        S[i, S_AP_DEBT] = 0
    S[i, S_AP] = ap


@rule
def _immobilise(S, opts):
    """V-6.9: the sides option ``immobilised`` names (bit 0 side a, bit 1 side b) start immobilised."""
    for i in range(2):
        S[i, S_IMMOBILISED] = (opts[O_IMMOBILISED] >> i) & 1


@rule
def _break_free(F, S, opts, st, i):
    """V-6.9: an immobilised fighter with 2 AP spends a standard action on an agility check
    (Ловкость + Проворство − Проворство penalties **[reading]**; V-6.11 strain); ≥ 1 success frees it."""
    if S[i, S_IMMOBILISED] == 0 or S[i, S_AP] < 2:
        return
    S[i, S_AP] -= 2
    r = _fighter_check(S, opts, st, F[i, P_AGILITY] + F[i, P_AGIL_SKILL] - S[i, S_PEN_AGIL], i)
    _strain(S, i)
    if r >= 1:
        S[i, S_IMMOBILISED] = 0


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
def _turn(F, S, opts, tt, st, cnt, i):
    """V-2.3, V-6.5, V-6.7, V-3.9, V-6.9, V-2.5, V-7.1: fighter ``i``'s turn: (refill), bleeding,
    standing up, recovering a dropped weapon, breaking free if immobilised, a free stealth attack,
    a battle cry if its tactic has one and 2 AP leave its reserve, then attacks by its tactic."""
    if opts[O_AP_REFILL] != 0:
        _refill(F, S, i)
    bleed = S[i, S_BLEED] + S[i, S_DMG_TURN]
    if bleed > 0:
        if S[i, S_BLEED] > 0:
            S[i, S_BLEED] -= 1
        _lose_health(S, i, bleed)
        if S[i, S_OUT] != 0:
            return
    if S[i, S_PRONE] != 0:
        if S[i, S_AP] < 1:
            return
        S[i, S_AP] -= 1
        S[i, S_PRONE] = 0
    if S[i, S_DROPPED] != 0 and S[i, S_AP] >= opts[O_PICKUP]:
        if S[i, S_NO2H] == 0 or F[i, _wb(SLOT_WEAPON) + W_TWO_HANDED] == 0:
            S[i, S_AP] -= opts[O_PICKUP]
            S[i, S_DROPPED] = 0
    _break_free(F, S, opts, st, i)
    if S[i, S_OUT] != 0:
        return
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
def _reset(F, S):
    """Fresh state ``S`` int64[2, NS] for a duel: full Health, Will (V-5.1) and AP (V-2.1), armour
    and shield at their class (V-5.4), no conditions."""
    for i in range(2):
        for k in range(NS):
            S[i, k] = 0
        S[i, S_HEALTH] = F[i, P_HEALTH]
        S[i, S_WILL] = F[i, P_WILL]
        S[i, S_AP] = F[i, P_AP]
        S[i, S_ARMOUR] = F[i, P_ARMOUR_CLASS]
        S[i, S_SHIELD] = F[i, P_SHIELD_CLASS]


@rule
def _roll_initiative(F, S, opts, st, first_round):
    """V-2.4, V-2.5: each side's initiative base (a then b): 1d20 + weapon term (initiative or,
    by option, modifier, of the weapon in hand now) + bare Проворство; the surprising side
    (round 1 only) adds two more d20 or keeps the highest of three. +2 bonuses earned so far
    join the new base (``init_roll = every_round``; at the first roll there are none)."""
    for i in range(2):
        roll = roll_die(st, 20)
        if first_round and opts[O_SURPRISE] == i + 1:
            for _ in range(2):
                extra = roll_die(st, 20)
                if opts[O_SURPRISE_INIT] == 0:
                    roll += extra
                elif extra > roll:
                    roll = extra
        term = _weapon(F, S, i, W_MOD) if opts[O_INIT_WEAPON_TERM] != 0 else _weapon(F, S, i, W_INIT)
        S[i, S_INIT_ROLL] = roll + term + F[i, P_AGIL_SKILL] + S[i, S_INIT_BONUS]
        S[i, S_INIT_BONUS] = 0


@rule
def _first(S, st):
    """V-2.4: who acts first this round (0 or 1): the higher base + bonuses; a tie is broken by
    fresh d20 pairs (a then b) until they differ."""
    ta = S[0, S_INIT_ROLL] + S[0, S_INIT_BONUS]
    tb = S[1, S_INIT_ROLL] + S[1, S_INIT_BONUS]
    if ta != tb:
        return 0 if ta > tb else 1
    while True:
        da = roll_die(st, 20)
        db = roll_die(st, 20)
        if da != db:
            return 0 if da > db else 1


@rule
def _finish(S, cnt, rnd, round_cap):
    """Count a duel decided in round ``rnd``: 0 a won, 1 b won, 2 both went out at once (a draw)."""
    if S[0, S_OUT] != 0 and S[1, S_OUT] != 0:
        cnt[C_DRAWS] += 1
        return 2
    loser = 0 if S[0, S_OUT] != 0 else 1
    count_decision(cnt, S, loser, S[loser, S_OUT] - 1, S[loser, S_DEAD], S[loser, S_HARMED] == 1, rnd, round_cap,
                    S_TOOK, N_CAUSES, N_LEVELS, C_ONE_BLOW, C_LOSER_WOUNDS, C_ROUNDS)
    return 1 - loser


@rule
def _duel(F, S, opts, tt, st, cnt):
    """One duel (V-2.6): rounds of two turns in initiative order until a side is out or the cap.

    Returns 0 if side a won, 1 if side b won, 2 for a draw.
    """
    _reset(F, S)
    _immobilise(S, opts)
    if opts[O_SURPRISE] > 0:
        S[opts[O_SURPRISE] - 1, S_STEALTH] = opts[O_STEALTH_ATTACK]
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


@driver(parallel=True)
def _run(F, opts, tt, seed, start, n, lanes, k, single_attacks):
    """Indices ``start … start+n−1`` split into ``lanes`` contiguous parts run in parallel.

    Returns
    -------
    int64[lanes, k]
        One counter row per lane; their sum does not depend on ``lanes``.
    """
    cnt = np.zeros((lanes, k), dtype=np.int64)
    for lane in prange(lanes):
        lo = start + (n * lane) // lanes
        hi = start + (n * (lane + 1)) // lanes
        st = np.empty(4, dtype=np.uint64)
        S = np.empty((2, NS), dtype=np.int64)
        row = cnt[lane]
        for idx in range(lo, hi):
            seed_duel(st, seed, idx)
            if single_attacks:
                _single_attack(F, S, opts, tt, st, row)
            else:
                _duel(F, S, opts, tt, st, row)
    return cnt


def _run_duels(F, opts, tt, seed, start, n, lanes, k):
    """Duels ``start … start+n−1`` in ``lanes`` parallel parts: ``int64[lanes, k]`` counters."""
    return _run(F, opts, tt, seed, start, n, lanes, k, False)


def _run_attacks(F, opts, tt, seed, start, n, lanes, k):
    """Single attacks by side a on a fresh side b: ``int64[lanes, k]`` counters."""
    return _run(F, opts, tt, seed, start, n, lanes, k, True)


@driver(parallel=True)
def _run_paired(Fs, optss, tt, seed, start, n, lanes, k):
    """Common random numbers: every index played under each of ``m`` configurations
    (``Fs`` int64[m, 2, NF], ``optss`` int64[m, NO]) with the same random stream.

    Returns
    -------
    (int64[lanes, m, k], int64[lanes, max(m − 1, 1), 3, 3])
        Counters per lane and configuration; joint outcomes of neighbouring configurations
        (0 a won, 1 b won, 2 draw).
    """
    m = Fs.shape[0]
    cnt = np.zeros((lanes, m, k), dtype=np.int64)
    joint = np.zeros((lanes, max(m - 1, 1), 3, 3), dtype=np.int64)
    for lane in prange(lanes):
        lo = start + (n * lane) // lanes
        hi = start + (n * (lane + 1)) // lanes
        st = np.empty(4, dtype=np.uint64)
        S = np.empty((2, NS), dtype=np.int64)
        for idx in range(lo, hi):
            previous = -1
            for j in range(m):
                seed_duel(st, seed, idx)
                outcome = _duel(Fs[j], S, optss[j], tt, st, cnt[lane, j])
                if j > 0:
                    joint[lane, j - 1, previous, outcome] += 1
                previous = outcome
    return cnt, joint
