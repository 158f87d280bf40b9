"""Exact distribution of one Vereteno attack, reusing the kernel's rule functions.

Checks (V-1.3) and armour rolls (V-5.4) come from one convolution, die by die, of the joint count
of successes and 1s; a desperate roll (V-1.4) from the category counts of its ≤ 2 dice; a prayed
check (V-1.6) from the category counts of its first roll and the convolution of its rerolled dice.
Reaction choice, pools, the reaction's effect, the attacker's spending, the armour reduction and
the blow level are the kernel's own rule functions, so enumeration and sampler cannot drift.

A shot (:func:`enumerate_shot`, V-11) is the first one of the attacker's first turn, after the
turn's own steps before it (:func:`first_turn`); it has no reaction; a long burst's continuation dice
(:func:`continuation_pmf`, V-11.12) are a geometric number of dice, summed until the remaining
probability is below 1e-20.
"""

from __future__ import annotations

import numpy as np

from ...core.battle import B_FOE
from ...toolbox.jit import driver
from ...toolbox.rng import seed_duel
from .kernel import (
    KIND_COST,
    LOOK_DICE,
    SHOT_COST,
    TO_MELEE,
    TURN_OVER,
    armour_dice,
    armour_reduction,
    can_pray,
    choose_reaction,
    defence_pool,
    desperate,
    desperate_dice,
    dodge_pool,
    immobilise,
    in_reach,
    level,
    melee_pool,
    missile,
    missile_armour_dice,
    open_duel,
    plan,
    plan_shot,
    ready_weapon,
    reset,
    resolve,
    shot_armour_dice,
    shot_pool,
    shot_spend,
    spend,
    stealth_pool,
    take_reaction,
    to_first_shot,
)
from .layout import (
    C_ROUNDS,
    K_NONE,
    K_STANDARD,
    NS,
    OUT_ARMOUR_STOPPED,
    OUT_HIT,
    OUT_MISS,
    P_AGIL_SKILL,
    P_AGILITY,
    P_HEALTH,
    P_PERC_POOL,
    P_WEAPONS,
    P_WILL,
    R_DEFEND,
    R_DODGE,
    R_NONE,
    REACH,
    S_AP,
    S_PEN_AGIL,
    S_SIGHT,
    S_WILL,
    S_X,
    SH_BURST,
    SH_NONE,
    SH_THROW,
    SLOT_GUN,
    T_DEAD,
    T_OUT,
    W_HIGH_CAPACITY,
    W_MOD,
    W_PIERCING,
    WN,
)
from .options import (
    BURST_HIT_FIRST_CHECK,
    BURST_NO_CONTINUATION,
    HIGH_CAPACITY_EXTRA_CHAIN,
    O_BURST_DESPERATE,
    O_BURST_HIT,
    O_DESPERATION,
    O_HIGH_CAPACITY,
    O_ONE_VALUE,
    O_PRAYER,
    O_STEALTH,
    O_STEALTH_CHECK,
    O_STOP_DIE,
    O_TIES,
    O_VISIBILITY,
    PRAYER_APP,
    PRAYER_OFF,
    STEALTH_OPPOSED,
    STOP_DIE_NOT_COUNTED,
    TIES_INITIATOR_WINS,
    TIES_REROLL,
    VISIBILITY_POOR,
)

#: V-1.3 per-die categories: 20 (2 successes), 17–19 (1), 2–16 (0), 1 (a one)
_FACES = np.array([1.0, 3.0, 15.0, 1.0]) / 20.0


@driver
def _joint_pmf(n):
    """Joint distribution of (successes from 17–20, number of 1s) of ``n`` d20:
    float64[2n + 1, n + 1], by convolution die by die."""
    joint = np.zeros((2 * n + 1, n + 1))
    joint[0, 0] = 1.0
    for _ in range(n):
        nxt = np.zeros((2 * n + 1, n + 1))
        for s in range(2 * n + 1):
            for o in range(n + 1):
                p = joint[s, o]
                if p != 0.0:
                    nxt[s + 2, o] += p * _FACES[0]
                    nxt[s + 1, o] += p * _FACES[1]
                    nxt[s, o] += p * _FACES[2]
                    nxt[s, o + 1] += p * _FACES[3]
        joint = nxt
    return joint


@driver
def check_pmf(pool, opts):
    """Exact distribution of ``kernel.check(st, pool, opts)`` (V-1.3, V-1.4).

    Returns
    -------
    (float64[4m + 1], int64)
        Probabilities of the net totals ``lo … 2m`` and ``lo = −2m`` (m = max(dice, 2)).
    """
    one = opts[O_ONE_VALUE]
    mode = opts[O_DESPERATION]
    n = pool if pool > 0 else desperate_dice(mode, pool)
    m = max(n, 2)
    lo = -2 * m
    pmf = np.zeros(4 * m + 1)
    if pool > 0:
        joint = _joint_pmf(n)
        for s in range(2 * n + 1):
            for o in range(n + 1):
                pmf[s + o * one - lo] += joint[s, o]
    elif n == 0:
        pmf[-lo] = 1.0
    else:  # V-1.4: the total needs the count of 20s too; enumerate the dice by category counts
        for n20 in range(n + 1):
            for n1 in range(n + 1 - n20):
                for n17 in range(n + 1 - n20 - n1):
                    net = 2 * n20 + n17 + n1 * one
                    pmf[desperate(mode, n, n20, n1, net) - lo] += _split(n, n20, n17, n - n20 - n1 - n17, n1)
    return pmf, lo


@driver
def _split(n, n20, n17, n_mid, n1):
    """Multinomial probability of ``n`` d20 showing ``n20`` 20s, ``n17`` 17–19s, ``n_mid`` 2–16s
    and ``n1`` 1s."""
    ways = 1.0
    k = 0
    for count in (n20, n17, n_mid, n1):
        for j in range(count):
            k += 1
            ways = ways * k / (j + 1)
    return ways * _FACES[0] ** n20 * _FACES[1] ** n17 * _FACES[2] ** n_mid * _FACES[3] ** n1


@driver
def _prayer_pmf(pool, opts, can_pray):
    """Exact joint distribution of ``kernel.fighter_check``'s total and the Will its prayer costs
    (V-1.6; ``can_pray`` as :func:`kernel.can_pray`).

    Returns
    -------
    (float64[4m + 1, pool + 2], int64)
        Probabilities of (net total ``lo … 2m``, Will lost ``0 … pool + 1``) and ``lo`` (as
        :func:`check_pmf`).
    """
    pmf, lo = check_pmf(pool, opts)
    mode = opts[O_PRAYER]
    out = np.zeros((pmf.shape[0], max(pool, 0) + 2))
    if mode == PRAYER_OFF or pool <= 0 or not can_pray:
        out[:, 0] = pmf
        return out, lo
    one = opts[O_ONE_VALUE]
    n = pool
    for n20 in range(n + 1):  # the first roll by category counts: 20s, 17–19s, 1s, the rest
        for n1 in range(n + 1 - n20):
            for n17 in range(n + 1 - n20 - n1):
                p = _split(n, n20, n17, n - n20 - n1 - n17, n1)
                net = 2 * n20 + n17 + n1 * one
                if mode == PRAYER_APP:  # app keeps the dice with a success, yze only the 20s
                    kept, n_re = 2 * n20 + n17, n - n20 - n17
                else:
                    kept, n_re = 2 * n20, n - n20
                if net > 0 or n_re == 0:
                    out[net - lo, 0] += p
                    continue
                joint = _joint_pmf(n_re)
                for s in range(2 * n_re + 1):
                    for o in range(n_re + 1):
                        if joint[s, o] != 0.0:
                            cost = 1 + o if mode == PRAYER_APP else 0
                            out[kept + s + o * one - lo, cost] += p * joint[s, o]
    return out, lo


def stealth_chance(F: np.ndarray, opts: np.ndarray) -> float:
    """V-10.10: the exact probability that the stealth approach of side ``stealth`` − 1 succeeds, as
    ``kernel.stealth_approach`` rolls it on a fresh duel: its check (with its prayer, V-1.6) ≥ 1
    (``stealth_check = plain``), or above the target's Интеллект + Наблюдательность check
    (``opposed``; a tie by ``ties``, V-1.5: fails, succeeds, or is rolled again — with ``reroll``
    exact while a reroll's prayers are those of the first checks, i.e. with prayer off or Will to
    spare, and ``TIE_REROLLS`` taken as unbounded)."""
    S = np.empty((2, NS), dtype=np.int64)
    reset(F, S)
    i = int(opts[O_STEALTH]) - 1
    ps2, los = _prayer_pmf(stealth_pool(F, opts, i), opts, can_pray(F, S, opts, i))
    ps = ps2.sum(axis=1)
    totals = np.arange(ps.shape[0]) + los
    if opts[O_STEALTH_CHECK] != STEALTH_OPPOSED:
        return float(ps[totals >= 1].sum())
    t = int(S[i, B_FOE])  # the stealthy fighter's foe (the battle block)
    pt2, lot = _prayer_pmf(F[t, P_PERC_POOL], opts, can_pray(F, S, opts, t))
    pt = pt2.sum(axis=1)
    below = np.concatenate(([0.0], np.cumsum(pt)))  # below[k]: P(target's total < lot + k)
    win = float(sum(ps[j] * below[min(max(totals[j] - lot, 0), pt.shape[0])] for j in range(ps.shape[0])))
    tie = float(sum(ps[j] * pt[totals[j] - lot] for j in range(ps.shape[0]) if 0 <= totals[j] - lot < pt.shape[0]))
    if opts[O_TIES] == TIES_INITIATOR_WINS:
        return win + tie
    if opts[O_TIES] == TIES_REROLL:
        return win / (1.0 - tie) if tie < 1.0 else 0.0
    return win


@driver
def reduction_pmf(n, opts):
    """Exact distribution of the damage an armour roll of ``n`` d20 removes (V-5.4):
    float64[2n + 1] indexed by the reduction."""
    joint = _joint_pmf(n)
    out = np.zeros(2 * n + 1)
    for s in range(2 * n + 1):
        for o in range(n + 1):
            if joint[s, o] != 0.0:
                out[armour_reduction(opts, s, o)] += joint[s, o]
    return out


@driver
def _trauma_out_chance(tt):
    """V-8.4: the chance that one trauma (a d66 row of ``tt``) ends the fight: KO, PARA or DEAD. float."""
    q = 0.0
    for row in range(tt.shape[0]):
        if tt[row, T_OUT] != 0 or tt[row, T_DEAD] != 0:
            q += 1.0 / tt.shape[0]
    return q


@driver
def enumerate_attack(F, opts, tt, outcomes, levels, damage):
    """Add the exact outcome distribution of side a's first attack on a fresh side b.

    ``outcomes`` float64[5] (``OUT_*``), ``levels`` float64[5, 1] (``LVL_*`` × zone ``body``),
    ``damage`` float64[1] (mean final damage per attack).
    """
    S = np.empty((2, NS), dtype=np.int64)
    reset(F, S)
    immobilise(F, S, opts)
    _add_melee(F, S, opts, tt, outcomes, levels, damage)


@driver
def _add_melee(F, S, opts, tt, outcomes, levels, damage):
    """:func:`enumerate_attack` from state ``S``: side a's tactic's first melee attack (``plan``)
    with the AP it has there."""
    kind = plan(F, S, 0)
    if kind == K_NONE:
        return
    S[0, S_AP] -= KIND_COST[kind]
    react = choose_reaction(F, S, opts, 0, 1, kind)
    if react != R_NONE:
        take_reaction(F, S, opts, 1)
    pa2, loa = _prayer_pmf(melee_pool(F, S, opts, 0, 1, kind), opts, can_pray(F, S, opts, 0))
    pa = pa2.sum(axis=1)  # the attacker's Will spent on prayer does not change this attack
    if react == R_DEFEND:
        pr, lor = _prayer_pmf(defence_pool(F, S, 1), opts, can_pray(F, S, opts, 1))
    elif react == R_DODGE:
        pr, lor = _prayer_pmf(dodge_pool(F, S, opts, 0, 1, kind), opts, can_pray(F, S, opts, 1))
    else:
        pr, lor = np.ones((1, 1)), 0
    q = _trauma_out_chance(tt)  # V-8.4
    na, ns = armour_dice(F, S, opts, 0, 1)
    red = reduction_pmf(na + ns, opts)
    for i in range(pa.shape[0]):
        for jc in range(pr.size):  # j: the reaction's total; c: Will its prayer cost (V-1.6)
            j, c = jc // pr.shape[1], jc % pr.shape[1]
            p = pa[i] * pr[j, c]
            if p == 0.0:
                continue
            will_left = F[1, P_WILL] - c
            outcome, s, counter, d_traumas, d_init = resolve(F, S, opts, 0, 1, react, i + loa, j + lor)
            if s <= 0:
                outcomes[outcome] += p
                continue
            dmg, traumas, disarm, will = spend(F, S, 0, 1, s)
            _add_blow(F, p, dmg, traumas, will, will_left, red, q, outcomes, levels, damage)


#: V-11.12: the continuation's dice beyond which the remaining probability (0.8 ** n) is below 1e-20
_CONTINUATION_DICE = 210


@driver
def continuation_pmf(opts):
    """Exact distribution of ``kernel``'s long-burst continuation (V-11.12): dice until one shows
    1–4, each counted by V-1.3, the stopping die too (a 1 adds ``one_value``) unless ``stop_die =
    not_counted``. Returns (float64[2n + 3], int64): probabilities of the totals ``lo …`` and
    ``lo = −2`` (n = :data:`_CONTINUATION_DICE`)."""
    one = opts[O_ONE_VALUE]
    n = _CONTINUATION_DICE
    lo = -2
    out = np.zeros(2 * n + 3)
    run = np.zeros(2 * n + 1)  # totals of the dice before the stopping one, k dice so far
    run[0] = 1.0
    go = 1.0  # probability of k dice without a stop
    stop_one = one if opts[O_STOP_DIE] != STOP_DIE_NOT_COUNTED else 0
    for k in range(n + 1):
        for v in range(2 * k + 1):
            p = run[v] * go
            if p != 0.0:
                out[v - lo] += p * 0.15  # a 2–4 stops it
                out[v + stop_one - lo] += p * 0.05  # a 1 stops it
        nxt = np.zeros(2 * n + 1)
        for v in range(2 * k + 1):
            if run[v] != 0.0 and v + 2 <= 2 * n:
                nxt[v] += run[v] * 12.0 / 16.0
                nxt[v + 1] += run[v] * 3.0 / 16.0
                nxt[v + 2] += run[v] * 1.0 / 16.0
        run = nxt
        go *= 0.8
    return out, lo


@driver
def first_turn(F, opts, tt):
    """The state ``attack`` measures at a distance: a fresh fight (``open_duel``, the immobilised
    fighters) and side a's first turn up to its first shot or throw by the turn's own steps (the
    kernel's ``to_first_shot``: readying, a reload, a move, lying down, bracing, a thrower's moves),
    on a state of its own, with counters that are thrown away and random numbers that must stay
    unused.

    Returns (S int64[2, NS], step, drew): the state then, the kernel's ``TO_SHOTS``, ``TURN_OVER``
    or ``TO_MELEE``, and whether those steps drew dice. The foe has set no AP aside at a fight's
    start, so no sector shot (V-11.13) answers them: only a step back out of an engaged foe's reach
    draws its opportunity attack (V-10.7, V-15.2)."""
    S = np.empty((2, NS), dtype=np.int64)
    open_duel(F, S, opts)
    immobilise(F, S, opts)
    st = np.empty(4, dtype=np.uint64)
    seed_duel(st, np.uint64(0), np.int64(0))
    before = st.copy()
    cnt = np.zeros(C_ROUNDS, dtype=np.int64)  # every counter an attack writes lies below the rounds
    step = to_first_shot(F, S, opts, tt, st, cnt, 0)
    drew = False
    for k in range(4):
        drew = drew or st[k] != before[k]
    return S, step, drew


@driver
def enumerate_shot(F, opts, tt, outcomes, levels, damage):
    """Add the exact outcome distribution of side a's first shot or throw (V-11) on a fresh side b,
    as ``kernel``'s single attack at a distance: its first turn up to that shot
    (:func:`first_turn`: from ``start_distance``, or where its moves took it, braced, lying …);
    under poor visibility the perception check first (V-11.18: seeing or blind, jointly with the
    Will its prayer costs), then the shooting check (its prayer), a long burst's continuation, no
    reaction (V-11.15), the extras (V-12), the armour + cover roll. Its first turn drawing its melee
    weapon (or a thrower engaged): its first melee attack from that state (:func:`_add_melee`).

    ``outcomes`` float64[5] (``OUT_*``), ``levels`` float64[5, 1] (``LVL_*`` × zone ``body``),
    ``damage`` float64[1] (mean final damage per shot). Returns 1 (nothing added) when the first
    turn drew dice before the shot, which this enumeration does not follow; else 0.
    """
    S, step, drew = first_turn(F, opts, tt)
    if drew:
        return 1
    if step == TURN_OVER:
        return 0
    if step == TO_MELEE:
        if in_reach(F, S, 0) and ready_weapon(S, 0):
            _add_melee(F, S, opts, tt, outcomes, levels, damage)
        return 0
    if plan_shot(F, S, 0) == SH_NONE:
        return 0
    if opts[O_VISIBILITY] != VISIBILITY_POOR or abs(S[0, S_X] - S[1, S_X]) <= REACH:
        _add_shot(F, S, opts, tt, 1.0, outcomes, levels, damage)
        return 0
    pl, lol = _prayer_pmf(F[0, P_PERC_POOL] + LOOK_DICE, opts, can_pray(F, S, opts, 0))
    for j in range(pl.shape[0]):
        for c in range(pl.shape[1]):
            if pl[j, c] == 0.0:
                continue
            S2 = S.copy()
            S2[0, S_SIGHT] = 1 if j + lol >= 1 else 2
            S2[0, S_WILL] -= c
            _add_shot(F, S2, opts, tt, pl[j, c], outcomes, levels, damage)
    return 0


@driver
def _add_blow(F, p, dmg, traumas, will, will_left, red, q, outcomes, levels, damage):
    """A blow of probability ``p`` that lands on side b (a melee hit, V-4.6, or a shot's or throw's,
    V-11.15, V-11.17, V-12), as the kernel's ``land``: ``dmg`` damage against the armour (+ cover)
    roll (``red``: the pmf of the damage it takes off; none for no damage, V-16.2: a hit for 0
    damage is a blow of level ``none``), ``traumas`` traumas (each ending the fight with chance
    ``q``; cancelled with the damage, V-5.4) and ``will`` Will damage (never stopped, V-12.3: Will
    ≤ 0 puts the target out, V-5.3, also when the armour stopped the damage) on a target left with
    ``will_left`` Will (≤ 0: out by its own prayer, so no blow puts it out)."""
    for x in range(red.shape[0] if dmg > 0 else 1):
        px = p * (red[x] if dmg > 0 else 1.0)
        if px == 0.0:
            continue
        final = max(dmg - x, 0)
        stopped = dmg > 0 and final == 0
        outcomes[OUT_ARMOUR_STOPPED if stopped else OUT_HIT] += px
        damage[0] += final * px
        if will_left <= 0:
            p_out = 0.0
        elif F[1, P_HEALTH] - final <= 0 or will_left - will <= 0:
            p_out = 1.0
        elif stopped:
            p_out = 0.0
        else:
            p_out = 1.0 - (1.0 - q) ** traumas
        levels[level(stopped, final, traumas, True), 0] += px * p_out
        levels[level(stopped, final, traumas, False), 0] += px * (1.0 - p_out)


@driver
def _add_shot(F, S, opts, tt, weight, outcomes, levels, damage):
    """:func:`enumerate_shot` from the shooting check on, each probability times ``weight``."""
    shot = plan_shot(F, S, 0)
    if shot == SH_NONE:
        return
    if shot == SH_THROW:
        _add_throw(F, S, opts, tt, weight, outcomes, levels, damage)
        return
    S[0, S_AP] -= SHOT_COST[shot]
    pool = shot_pool(F, S, opts, 0, shot)
    pa2, lo = _prayer_pmf(pool, opts, can_pray(F, S, opts, 0))
    pa = pa2.sum(axis=1)
    if shot == SH_BURST and (pool > 0 or opts[O_BURST_DESPERATE] != BURST_NO_CONTINUATION):
        pc, loc = continuation_pmf(opts)
        high = F[0, P_WEAPONS + SLOT_GUN * WN + W_HIGH_CAPACITY] != 0
        if opts[O_HIGH_CAPACITY] == HIGH_CAPACITY_EXTRA_CHAIN and high:
            two = np.zeros(2 * pc.shape[0] - 1)  # V-11.12: a second chain
            for j in range(pc.shape[0]):
                for k in range(pc.shape[0]):
                    two[j + k] += pc[j] * pc[k]
            pc, loc = two, 2 * loc
        total = np.zeros(pa.shape[0] + pc.shape[0] - 1)
        first = opts[O_BURST_HIT] == BURST_HIT_FIRST_CHECK
        for i in range(pa.shape[0]):
            if pa[i] == 0.0:
                continue
            if first and i + lo < 1:  # the check alone missed: no continuation
                total[i - loc] += pa[i]
                continue
            for j in range(pc.shape[0]):
                if first:  # the check hit: a hit whatever the continuation adds
                    total[max(i + lo + j + loc, 1) - lo - loc] += pa[i] * pc[j]
                else:
                    total[i + j] += pa[i] * pc[j]
        pa = total
        lo = lo + loc
    q = _trauma_out_chance(tt)  # V-8.4
    na, ns, nc = shot_armour_dice(F, S, opts, 0, 1)
    red = reduction_pmf(na + ns + nc, opts)
    for i in range(pa.shape[0]):
        p = pa[i]
        s = i + lo
        if p == 0.0:
            continue
        if s < 1:
            outcomes[OUT_MISS] += p * weight
            continue
        dmg, traumas, disarm, will = shot_spend(F, S, opts, 0, s, shot)
        _add_blow(F, p * weight, dmg, traumas, will, F[1, P_WILL], red, q, outcomes, levels, damage)


@driver
def _add_throw(F, S, opts, tt, weight, outcomes, levels, damage):
    """:func:`enumerate_shot` for a throw (V-11.7, V-11.20): the Сила check (its prayer), the target's
    dodge (V-4.4, jointly with the Will its prayer costs), the kernel's ``resolve`` of the dodge,
    the extras (V-12.5), the armour + cover roll; each probability times ``weight``."""
    react = R_DODGE if choose_reaction(F, S, opts, 0, 1, K_STANDARD) != R_NONE else R_NONE
    if react != R_NONE:
        take_reaction(F, S, opts, 1)
    pa2, loa = _prayer_pmf(shot_pool(F, S, opts, 0, SH_THROW), opts, can_pray(F, S, opts, 0))
    pa = pa2.sum(axis=1)
    if react == R_DODGE:
        dodge = F[1, P_AGILITY] + F[1, P_AGIL_SKILL] - missile(F, S, 0, SH_THROW, W_MOD) - S[1, S_PEN_AGIL]
        pr, lor = _prayer_pmf(dodge, opts, can_pray(F, S, opts, 1))
    else:
        pr, lor = np.ones((1, 1)), 0
    q = _trauma_out_chance(tt)  # V-8.4
    na, ns, nc = missile_armour_dice(F, S, opts, 0, 1, missile(F, S, 0, SH_THROW, W_PIERCING))
    red = reduction_pmf(na + ns + nc, opts)
    for i in range(pa.shape[0]):
        for jc in range(pr.size):  # j: the dodge's total; c: Will its prayer cost (V-1.6)
            j, c = jc // pr.shape[1], jc % pr.shape[1]
            p = pa[i] * pr[j, c] * weight
            if p == 0.0:
                continue
            will_left = F[1, P_WILL] - c
            outcome, s, _, _, _ = resolve(F, S, opts, 0, 1, react, i + loa, j + lor)
            if s <= 0:
                outcomes[outcome] += p
                continue
            dmg, traumas, disarm, will = shot_spend(F, S, opts, 0, s, SH_THROW)
            _add_blow(F, p, dmg, traumas, will, will_left, red, q, outcomes, levels, damage)
