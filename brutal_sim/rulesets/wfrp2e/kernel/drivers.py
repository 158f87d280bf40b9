"""The drivers: duels or single attacks, one per index, counted in parallel lanes; the paired runs
of several configurations on the same random numbers. ``_run`` and ``_paired`` are the compiled
loops the ruleset's :class:`~brutal_sim.core.ruleset.Kernels` bind; their trailing flags are the
kernel variants (:data:`~brutal_sim.core.ruleset.VARIANTS`), each ``None`` to leave its part out of
the compiled code or ``True`` to play it: ``ranged`` (the steps of W-7 and W-8.14, for a matchup in
which a fighter carries a missile weapon, and of the grapple, W-12, for one with a grappler,
:func:`.turn._turn`); ``group`` (the group block of the
counters; WFRP 2e plays duels only, so it is always None).

Rules: none of their own: a duel (W-2) or one attack or shot (W-4, W-7) per index (:mod:`.turn`).

Arguments are those of the kernel package (:mod:`brutal_sim.rulesets.wfrp2e.kernel`).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ....toolbox.battle import count_group
from ....toolbox.jit import driver
from ....toolbox.rng import seed_duel
from ..layout import N_CAUSES, NS
from .turn import _duel, _single_attack


@driver(parallel=True)
def _run(F, opts, grid, fx, seed, start, n, lanes, k, single_attacks, ranged, group):
    """Indices ``start … start+n−1`` in ``lanes`` contiguous parts run in parallel; each a duel or
    (``single_attacks``) one attack of side a; ``ranged`` and ``group`` the kernel variants (module
    docstring). Returns ``int64[lanes, k]`` counters whose sum does not depend on ``lanes``."""
    cnt = np.zeros((lanes, k), dtype=np.int64)
    for lane in prange(lanes):
        lo = start + (n * lane) // lanes
        hi = start + (n * (lane + 1)) // lanes
        st = np.empty(4, dtype=np.uint64)
        S = np.empty((F.shape[0], NS), dtype=np.int64)
        row = cnt[lane]
        for idx in range(lo, hi):
            seed_duel(st, seed, idx)
            if single_attacks:
                _single_attack(F, S, opts, grid, fx, st, row, ranged)
            else:
                _duel(F, S, opts, grid, fx, st, row, ranged, group)
                if group is not None:
                    count_group(F, S, row, k, N_CAUSES)
    return cnt


@driver(parallel=True)
def _paired(Fs, optss, grid, fx, seed, start, n, lanes, k, ranged, group):
    """Common random numbers: each duel index under ``m`` configurations ``Fs`` ``int64[m, 2, NF]``,
    ``optss`` ``int64[m, NO]`` with the same random stream; ``ranged`` and ``group`` as for
    :func:`_run`. Returns ``(int64[lanes, m, k], int64[lanes, max(m − 1, 1), 3, 3])``: counters, and
    joint outcomes of neighbouring configurations (0 a won, 1 b won, 2 draw)."""
    m = Fs.shape[0]
    cnt = np.zeros((lanes, m, k), dtype=np.int64)
    joint = np.zeros((lanes, max(m - 1, 1), 3, 3), dtype=np.int64)
    for lane in prange(lanes):
        lo = start + (n * lane) // lanes
        hi = start + (n * (lane + 1)) // lanes
        st = np.empty(4, dtype=np.uint64)
        S = np.empty((Fs.shape[1], NS), dtype=np.int64)
        for idx in range(lo, hi):
            previous = -1
            for j in range(m):
                seed_duel(st, seed, idx)
                outcome = _duel(Fs[j], S, optss[j], grid, fx, st, cnt[lane, j], ranged, group)
                if group is not None:
                    count_group(Fs[j], S, cnt[lane, j], k, N_CAUSES)
                if j > 0:
                    joint[lane, j - 1, previous, outcome] += 1
                previous = outcome
    return cnt, joint
