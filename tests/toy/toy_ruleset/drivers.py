"""The toy's drivers: one fight or one attack per index, counted in parallel lanes; the paired runs
of several configurations on the same random numbers. ``run`` and ``paired`` are the compiled
loops the ruleset's :class:`~brutal_sim.core.ruleset.Kernels` bind; their trailing flags are the
kernel variants (:data:`~brutal_sim.core.ruleset.VARIANTS`), each ``None`` to leave its part out of
the compiled code or ``True`` to play it:

- ``ranged``: passed to the per-index rule functions, which play their steps at a distance only
  when it is not None;
- ``group``: count the group block after the header (``k`` is then ``n_fight_counters(round_cap,
  N)``).

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
from .layout import N_CAUSES, NS


@driver(parallel=True)
def run(F, opts, seed, start, n, lanes, k, single_attacks, ranged, group):
    """Indices ``start … start+n−1`` split into ``lanes`` contiguous parts run in parallel.

    Parameters
    ----------
    F : int64[N, NF]
        The fighters (N = 2 for duels and single attacks).
    single_attacks : bool
        Each index is one attack by side a on a fresh side b (``single_attack``); else a fight.
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
                single_attack(F, S, opts, st, row, ranged)
            else:
                fight(F, S, opts, st, row, ranged, group)
                if group is not None:
                    count_group(F, S, row, k, N_CAUSES)
    return cnt


@driver(parallel=True)
def paired(Fs, optss, seed, start, n, lanes, k, ranged, group):
    """Common random numbers: index ``idx`` is played under each of ``m`` configurations
    (``Fs`` int64[m, N, NF], ``optss`` int64[m, NO]) with the same random stream; ``ranged`` and
    ``group`` as for :func:`run`.

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
        S = np.empty((Fs.shape[1], NS), dtype=np.int64)
        for idx in range(lo, hi):
            previous = -1
            for j in range(m):
                seed_duel(st, seed, idx)
                outcome = fight(Fs[j], S, optss[j], st, cnt[lane, j], ranged, group)
                if group is not None:
                    count_group(Fs[j], S, cnt[lane, j], k, N_CAUSES)
                if j > 0:
                    joint[lane, j - 1, previous, outcome] += 1
                previous = outcome
    return cnt, joint
