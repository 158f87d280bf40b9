"""The parallel loops of the duels at a distance (V-10, V-11) and their Python wrappers (no rules),
the same loops as :mod:`.drivers` around :mod:`.ranged`'s duel and single attack: a matchup with a
gun or a ``start_distance`` beyond point blank plays these, a melee duel the others, so a melee
duel compiles no ranged code. Imports :mod:`.ranged`.

The parallel loop of ``_run`` is compiled with this package's functions internal to it
(:mod:`brutal_sim.toolbox.jit`): LLVM passes only the arguments a function uses, 1.6× the duels per
second without it (benchmarks/README.md). ``_run_duels`` and ``_run_attacks`` are Python functions
that pass ``_run`` its flag.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ....toolbox.jit import driver
from ....toolbox.rng import seed_duel
from ..layout import NS
from .ranged import _ranged_duel as _duel, _ranged_single_attack as _single_attack


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
    """Duels at a distance ``start … start+n−1`` in ``lanes`` parallel parts: ``int64[lanes, k]`` counters."""
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
