"""The drivers of duels with missile weapons (W-7), the same loops as :mod:`.drivers` around
:mod:`.turn`'s duel and single attack with missile weapons: a matchup in which a fighter carries
one plays these, any other the others, so a melee duel compiles no ranged code.

The drivers: duels or single attacks, one per index, counted in parallel lanes; the paired runs
of several configurations on the same random numbers. ``_run`` and ``_run_paired`` are compiled
(``driver(parallel=True)``); ``_run_duels`` and ``_run_attacks`` are Python functions that pass
``_run`` its flag.

Rules: none of their own: a duel (W-2) or one attack or shot (W-4, W-7) per index (:mod:`.turn`).

Arguments are those of the kernel package (:mod:`brutal_sim.rulesets.wfrp2e.kernel`).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ....toolbox.jit import driver
from ....toolbox.rng import seed_duel
from ..layout import NS
from .turn import _missile_duel as _duel, _missile_single_attack as _single_attack


@driver(parallel=True)
def _run(F, opts, grid, fx, seed, start, n, lanes, k, single_attacks):
    """Indices ``start … start+n−1`` in ``lanes`` contiguous parts run in parallel; each a duel or
    (``single_attacks``) one attack of side a. Returns ``int64[lanes, k]`` counters whose sum does
    not depend on ``lanes``."""
    cnt = np.zeros((lanes, k), dtype=np.int64)
    for lane in prange(lanes):
        lo = start + (n * lane) // lanes
        hi = start + (n * (lane + 1)) // lanes
        st = np.empty(4, dtype=np.uint64)
        S = np.empty((3, NS), dtype=np.int64)
        row = cnt[lane]
        for idx in range(lo, hi):
            seed_duel(st, seed, idx)
            if single_attacks:
                _single_attack(F, S, opts, grid, fx, st, row)
            else:
                _duel(F, S, opts, grid, fx, st, row)
    return cnt


def _run_duels(F, opts, grid, fx, seed, start, n, lanes, k):
    """Duels ``start … start+n−1``: ``int64[lanes, k]`` counters."""
    return _run(F, opts, grid, fx, seed, start, n, lanes, k, False)


def _run_attacks(F, opts, grid, fx, seed, start, n, lanes, k):
    """Single attacks of side a on a fresh side b: ``int64[lanes, k]`` counters."""
    return _run(F, opts, grid, fx, seed, start, n, lanes, k, True)


@driver(parallel=True)
def _run_paired(Fs, optss, grid, fx, seed, start, n, lanes, k):
    """Common random numbers: each duel index under ``m`` configurations ``Fs`` ``int64[m, 2, NF]``,
    ``optss`` ``int64[m, NO]`` with the same random stream. Returns ``(int64[lanes, m, k],
    int64[lanes, max(m − 1, 1), 3, 3])``: counters, and joint outcomes of neighbouring
    configurations (0 a won, 1 b won, 2 draw)."""
    m = Fs.shape[0]
    cnt = np.zeros((lanes, m, k), dtype=np.int64)
    joint = np.zeros((lanes, max(m - 1, 1), 3, 3), dtype=np.int64)
    for lane in prange(lanes):
        lo = start + (n * lane) // lanes
        hi = start + (n * (lane + 1)) // lanes
        st = np.empty(4, dtype=np.uint64)
        S = np.empty((3, NS), dtype=np.int64)
        for idx in range(lo, hi):
            previous = -1
            for j in range(m):
                seed_duel(st, seed, idx)
                outcome = _duel(Fs[j], S, optss[j], grid, fx, st, cnt[lane, j])
                if j > 0:
                    joint[lane, j - 1, previous, outcome] += 1
                previous = outcome
    return cnt, joint
