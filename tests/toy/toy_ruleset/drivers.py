"""The toy's drivers: one fight or one attack per index, counted in parallel lanes; the paired runs
of several configurations on the same random numbers. ``_run`` and ``_paired`` are compiled;
``run_duels``, ``run_attacks``, ``run_fights``, ``run_paired`` and ``run_paired_fights`` (the
ruleset's :class:`~brutal_sim.core.ruleset.Kernels`) are Python functions that pass them their
flags, so that no compiled wrapper links in the whole kernel and compiles it once more.

Every ruleset's drivers are these, statement for statement, once its tables and rule names are set
aside (``tests/core/test_driver_contract.py``). Arguments are those of :mod:`.kernel`.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from brutal_sim.toolbox.battle import count_group
from brutal_sim.toolbox.jit import driver
from brutal_sim.toolbox.rng import seed_duel

from .kernel import fight, single_attack
from .layout import GB_FIGHTERS, GB_PER_FIGHTER, NS, N_CAUSES


@driver(parallel=True)
def _run(F, opts, seed, start, n, lanes, k, single_attacks, group):
    """Indices ``start … start+n−1`` split into ``lanes`` contiguous parts run in parallel.

    Parameters
    ----------
    F : int64[N, NF]
        The fighters (N = 2 for duels and single attacks).
    single_attacks : bool
        Each index is one attack by side a on a fresh side b (``single_attack``); else a fight.
    group : bool
        Also count the group block after the header: ``k`` is then ``n_fight_counters(round_cap, N)``.

    Returns
    -------
    int64[lanes, k]
        One counter row per lane; their sum does not depend on ``lanes``.
    """
    cnt = np.zeros((lanes, k), dtype=np.int64)
    base = k - (GB_FIGHTERS + F.shape[0] * GB_PER_FIGHTER)
    for lane in prange(lanes):
        lo = start + (n * lane) // lanes
        hi = start + (n * (lane + 1)) // lanes
        st = np.empty(4, dtype=np.uint64)
        S = np.empty((F.shape[0], NS), dtype=np.int64)
        row = cnt[lane]
        for idx in range(lo, hi):
            seed_duel(st, seed, idx)
            if single_attacks:
                single_attack(F, S, opts, st, row)
            else:
                fight(F, S, opts, st, row)
                if group:
                    count_group(F, S, row, base, N_CAUSES)
    return cnt


def run_duels(F, opts, seed, start, n, lanes, k):
    """Duels ``start … start+n−1``: ``int64[lanes, k]`` counters (F ``int64[2, NF]``,
    k = ``n_counters(round_cap)``)."""
    return _run(F, opts, seed, start, n, lanes, k, False, False)


def run_attacks(F, opts, seed, start, n, lanes, k):
    """Single attacks by side a on a fresh side b: ``int64[lanes, k]`` counters."""
    return _run(F, opts, seed, start, n, lanes, k, True, False)


def run_fights(F, opts, seed, start, n, lanes, k):
    """Group fights ``start … start+n−1`` (F ``int64[N, NF]``, side a's rows first; k =
    ``n_fight_counters(round_cap, N)``): ``int64[lanes, k]`` counters, the header then the group
    block; a 1 vs 1's header equals ``run_duels``'s."""
    return _run(F, opts, seed, start, n, lanes, k, False, True)


@driver(parallel=True)
def _paired(Fs, optss, seed, start, n, lanes, k, group):
    """Common random numbers: index ``idx`` is played under each of ``m`` configurations
    (``Fs`` int64[m, N, NF], ``optss`` int64[m, NO]) with the same random stream (with the group
    block when ``group``).

    Returns counters ``int64[lanes, m, k]`` and the joint outcomes of neighbouring configurations
    ``int64[lanes, max(m − 1, 1), 3, 3]`` (0 a won, 1 b won, 2 draw).
    """
    m = Fs.shape[0]
    cnt = np.zeros((lanes, m, k), dtype=np.int64)
    joint = np.zeros((lanes, max(m - 1, 1), 3, 3), dtype=np.int64)
    base = k - (GB_FIGHTERS + Fs.shape[1] * GB_PER_FIGHTER)
    for lane in prange(lanes):
        lo = start + (n * lane) // lanes
        hi = start + (n * (lane + 1)) // lanes
        st = np.empty(4, dtype=np.uint64)
        S = np.empty((Fs.shape[1], NS), dtype=np.int64)
        for idx in range(lo, hi):
            previous = -1
            for j in range(m):
                seed_duel(st, seed, idx)
                outcome = fight(Fs[j], S, optss[j], st, cnt[lane, j])
                if group:
                    count_group(Fs[j], S, cnt[lane, j], base, N_CAUSES)
                if j > 0:
                    joint[lane, j - 1, previous, outcome] += 1
                previous = outcome
    return cnt, joint


def run_paired(Fs, optss, seed, start, n, lanes, k):
    """Common random numbers for duels (``Fs`` int64[m, 2, NF]): ``(int64[lanes, m, k],
    int64[lanes, max(m − 1, 1), 3, 3])``, counters and joint outcomes of neighbours."""
    return _paired(Fs, optss, seed, start, n, lanes, k, False)


def run_paired_fights(Fs, optss, seed, start, n, lanes, k):
    """``run_paired`` for group fights (``Fs`` int64[m, N, NF], the same N in all; k =
    ``n_fight_counters(round_cap, N)``), with the group block."""
    return _paired(Fs, optss, seed, start, n, lanes, k, True)
