"""The drivers: one fight or one attack per index, counted; the paired runs of several configurations
on the same random numbers. ``_run`` and ``_paired`` are the compiled loops the ruleset's
:class:`~brutal_sim.core.ruleset.Kernels` bind; their trailing flags are the kernel variants
(:data:`~brutal_sim.core.ruleset.VARIANTS`), each ``None`` to leave its part out of the compiled
code or ``True`` to play it: ``ranged`` (the steps of B-8, :func:`.turn._turn`) and ``group`` (the
group block of the counters, docs/groups.md).

Rules: none of their own: a fight (B-2) or one attack (B-4, B-8) per index (:mod:`.turn`).

Arguments are those of the kernel package (:mod:`brutal_sim.rulesets.brutal.kernel`).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ....toolbox.battle import count_group
from ....toolbox.jit import driver
from ....toolbox.rng import seed_duel
from ..layout import NCAUSES as N_CAUSES, NS
from .turn import _fight, _single_attack


@driver(parallel=True)
def _run(F, opts, zt, seed, start, n, lanes, k, single_attacks, ranged, group):
    """Indices ``start … start+n−1`` split into ``lanes`` contiguous parts run in parallel.

    Parameters
    ----------
    F : int64[N, NF]
        The fighters (N = 2 for duels and single attacks; side a's rows first, N ≤ 12).
    opts : int64[NO]
        Rule options.
    zt : int8[die]
        Hit-zone table.
    seed : uint64
    start, n : int64
        The first index and the number of indices.
    lanes : int
        Parallel parts.
    k : int
        The counter row's length: ``n_counters(round_cap)``, or with ``group``
        ``n_fight_counters(round_cap, N)`` (the header, then the group block).
    single_attacks : bool
        Each index is one attack by side a on a fresh side b (``_single_attack``); else a fight.
    ranged, group : True or None
        The kernel variants (module docstring).

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
        S = np.empty((F.shape[0], NS), dtype=np.int64)
        row = cnt[lane]
        for idx in range(lo, hi):
            seed_duel(st, seed, idx)
            if single_attacks:
                _single_attack(F, S, opts, zt, st, row, ranged)
            else:
                _fight(F, S, opts, zt, st, row, ranged, group)
                if group is not None:
                    count_group(F, S, row, k, N_CAUSES)
    return cnt


@driver(parallel=True)
def _paired(Fs, optss, zt, seed, start, n, lanes, k, ranged, group):
    """Common random numbers: fight index ``idx`` is played under each of ``m`` configurations
    (``Fs`` int64[m, N, NF], ``optss`` int64[m, NO], one zone table ``zt`` for all) with the same
    random stream, and the joint outcome of neighbouring configurations is counted; ``ranged`` and
    ``group`` as for :func:`_run`.

    Returns
    -------
    (int64[lanes, m, k], int64[lanes, max(m - 1, 1), 3, 3])
        Counters per lane and configuration; and for each neighbouring pair (j, j+1) the count of
        fights with outcome x under j and y under j+1 (0 a won, 1 b won, 2 draw).
    """
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
                outcome = _fight(Fs[j], S, optss[j], zt, st, cnt[lane, j], ranged, group)
                if group is not None:
                    count_group(Fs[j], S, cnt[lane, j], k, N_CAUSES)
                if j > 0:
                    joint[lane, j - 1, previous, outcome] += 1
                previous = outcome
    return cnt, joint
