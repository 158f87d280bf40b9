"""The toy duel kernel (numba): arrays and scalars in, counters out.

Inputs everywhere below:

F : int64[2, NF]
    Compiled fighters (``P_*`` of :mod:`.layout`); row 0 is side a, row 1 side b.
S : int64[2, NS]
    Their changing state during one duel (``S_*``), reset at the start of every duel.
opts : int64[NO]
    Rule options (``O_*`` of :mod:`.options`).
st : uint64[4]
    The duel's random state (:mod:`brutal_sim.toolbox.rng`), seeded once per duel index.
cnt : int64[K]
    Counters (``C_*``), added to, never cleared.

Draw order (the contract with the pure-Python reference ``tests/toy/naive_toy.py``): per attack,
the attacker's 2d6 (one draw, :func:`~brutal_sim.toolbox.rng.roll_2d6`), the defender's 2d6, and
on a hit the damage d6. Side a attacks before side b in every round.

Public names, for the other modules: the drivers ``run_duels``, ``run_attacks``, ``run_paired``
(the ruleset's :class:`~brutal_sim.core.ruleset.Kernels`) and the pure rule functions the exact
enumeration reuses (``hits``, ``hit_damage``, ``blow_level``); the ``_`` names are this module's own.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from brutal_sim.toolbox.jit import driver, rule
from brutal_sim.toolbox.rng import roll_die, roll_2d6, seed_duel
from brutal_sim.toolbox.tally import count_decision

from .layout import (
    C_ATTACKS,
    C_DAMAGE,
    C_DRAWS,
    C_SIXES,
    C_WOUNDS,
    DEAD_AT,
    LVL_NONE,
    LVL_OUT,
    LVL_WOUNDED,
    NS,
    N_LEVELS,
    N_OUTCOMES,
    OUT_HIT,
    OUT_MISS,
    P_DAMAGE_BONUS,
    P_HIT_POINTS,
    P_SKILL,
    S_HARMED,
    S_HP,
    S_TOOK,
    TALLY,
)
from .options import O_ROUND_CAP, O_STRIKES, O_TIES, STRIKES_SIMULTANEOUS, TIES_HIT

# -- pure rule functions (no random numbers): shared with the exact enumeration ----------------------


@rule
def hits(F, opts, a, d, attack_2d6, defence_2d6):
    """T-1: does ``attack_2d6`` + a's skill beat ``defence_2d6`` + d's skill? A tie hits only
    with ``ties = hit``."""
    margin = attack_2d6 + F[a, P_SKILL] - defence_2d6 - F[d, P_SKILL]
    return margin > 0 or (margin == 0 and opts[O_TIES] == TIES_HIT)


@rule
def hit_damage(F, a, face):
    """T-2: damage of a hit by ``a`` whose d6 shows ``face``: face + weapon bonus, at least 0."""
    return max(face + F[a, P_DAMAGE_BONUS], 0)


@rule
def blow_level(damage, hp_after):
    """The blow's level: ``none`` (no damage), ``out`` (T-3: 0 hit points or fewer), else
    ``wounded``."""
    if damage == 0:
        return LVL_NONE
    return LVL_OUT if hp_after <= 0 else LVL_WOUNDED


# -- the duel ------------------------------------------------------------------------------------


@rule
def _attack(F, S, opts, st, cnt, a):
    """T-1, T-2: one attack by side ``a`` on the other side, counted by outcome and level."""
    d = 1 - a
    x1, x2 = roll_2d6(st)
    y1, y2 = roll_2d6(st)
    if not hits(F, opts, a, d, x1 + x2, y1 + y2):
        cnt[C_ATTACKS + a * N_OUTCOMES + OUT_MISS] += 1
        return
    cnt[C_ATTACKS + a * N_OUTCOMES + OUT_HIT] += 1
    face = roll_die(st, 6)
    damage = hit_damage(F, a, face)
    S[d, S_HP] -= damage
    level = blow_level(damage, S[d, S_HP])
    cnt[C_WOUNDS + d * N_LEVELS + level] += 1  # one zone: body
    S[d, S_TOOK + level] += 1
    cnt[C_DAMAGE + d] += damage
    if face == 6:
        cnt[C_SIXES + a] += 1
    if damage > 0:
        S[d, S_HARMED] += 1


@rule
def _reset(F, S):
    """T-3: both fighters at full hit points, unharmed."""
    for i in range(2):
        S[i, S_HP] = F[i, P_HIT_POINTS]
        S[i, S_HARMED] = 0
        for level in range(N_LEVELS):
            S[i, S_TOOK + level] = 0


@rule
def _finish(S, cnt, rnd, round_cap):
    """Count a duel in which a fighter went out in round ``rnd``: 0 a won, 1 b won, 2 both went
    out at once (a draw)."""
    a_out = S[0, S_HP] <= 0
    b_out = S[1, S_HP] <= 0
    if a_out and b_out:
        cnt[C_DRAWS] += 1
        return 2
    loser = 0 if a_out else 1
    count_decision(cnt, S, loser, 0, S[loser, S_HP] <= DEAD_AT, S[loser, S_HARMED] == 1, rnd, round_cap,
                    TALLY)
    return 1 - loser


@rule
def _duel(F, S, opts, st, cnt):
    """T-4: rounds of one attack each (a, then b) until a side is out or the round cap (a draw).

    Returns 0 if side a won, 1 if side b won, 2 for a draw.
    """
    _reset(F, S)
    for rnd in range(1, opts[O_ROUND_CAP] + 1):
        _attack(F, S, opts, st, cnt, 0)
        if S[1, S_HP] <= 0 and opts[O_STRIKES] != STRIKES_SIMULTANEOUS:
            return _finish(S, cnt, rnd, opts[O_ROUND_CAP])
        _attack(F, S, opts, st, cnt, 1)
        if S[0, S_HP] <= 0 or S[1, S_HP] <= 0:
            return _finish(S, cnt, rnd, opts[O_ROUND_CAP])
    cnt[C_DRAWS] += 1
    return 2


@rule
def _single_attack(F, S, opts, st, cnt):
    """One attack by side a on a fresh side b."""
    _reset(F, S)
    _attack(F, S, opts, st, cnt, 0)


# -- drivers (the ruleset's Kernels) -------------------------------------------------------------


@driver(parallel=True)
def _run(F, opts, seed, start, n, lanes, k, single_attacks):
    """Indices ``start … start+n−1`` split into ``lanes`` contiguous parts run in parallel:
    ``int64[lanes, k]`` counters, whose sum does not depend on ``lanes``."""
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
                _single_attack(F, S, opts, st, row)
            else:
                _duel(F, S, opts, st, row)
    return cnt


def run_duels(F, opts, seed, start, n, lanes, k):
    """Duels ``start … start+n−1``: ``int64[lanes, k]`` counters."""
    return _run(F, opts, seed, start, n, lanes, k, False)


def run_attacks(F, opts, seed, start, n, lanes, k):
    """Single attacks by side a on a fresh side b: ``int64[lanes, k]`` counters."""
    return _run(F, opts, seed, start, n, lanes, k, True)


@driver(parallel=True)
def run_paired(Fs, optss, seed, start, n, lanes, k):
    """Common random numbers: every index played under each of ``m`` configurations
    (``Fs`` int64[m, 2, NF], ``optss`` int64[m, NO]) with the same random stream.

    Returns counters ``int64[lanes, m, k]`` and the joint outcomes of neighbouring configurations
    ``int64[lanes, max(m − 1, 1), 3, 3]`` (0 a won, 1 b won, 2 draw).
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
                outcome = _duel(Fs[j], S, optss[j], st, cnt[lane, j])
                if j > 0:
                    joint[lane, j - 1, previous, outcome] += 1
                previous = outcome
    return cnt, joint
