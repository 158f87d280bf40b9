"""The drivers: one fight or one attack per index, counted; the paired runs of several configurations
on the same random numbers. Each takes only arrays and scalars. ``_run`` and ``_paired`` are
compiled; ``_run_duels``, ``_run_attacks``, ``_run_fights``, ``_run_paired`` and
``_run_paired_fights`` are Python functions that pass them their flags, so that no compiled wrapper
links in the whole kernel and compiles it once more.

Rules: B-8, B-9.9.

Arguments are those of the kernel package (:mod:`brutal_sim.rulesets.brutal.kernel`).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ....toolbox.battle import count_group, place_sides
from ....toolbox.jit import driver, rule
from ....toolbox.rng import seed_duel
from ..layout import (
    GB_FIGHTERS,
    GB_PER_FIGHTER,
    NCAUSES as N_CAUSES,
    NS,
    S_HELD_MAIN,
    S_IN_TURN,
)
from ..options import O_START_DISTANCE
from .checks import _lets_go_of_ranged, _set_ground, _shooter
from .situation import _draw_shown
from .actions import _tactic_attack
from .ranged import _shot_action
from .turn import _fight, _reset


@rule
def _single_attack(F, S, opts, zt, st, cnt):
    """One attack by side a's first fighter on a fresh foe (row 1), the first attack roll of its
    tactic; a shooter aims and shoots from the start distance (engaged at 0). The foe first draws
    the arm and leg it shows behind three-quarter horizontal cover (B-9.9)."""
    _reset(F, S)
    _set_ground(F, S, opts)  # B-9.6
    _draw_shown(F, S, opts, st, 1)
    S[0, S_IN_TURN] = 1
    if _shooter(F, S, 0):  # B-8: aimed shot from the start distance
        place_sides(F, S, opts[O_START_DISTANCE])
        if _lets_go_of_ranged(F, S, 0):
            S[0, S_HELD_MAIN] = 0
    if _shooter(F, S, 0):
        _shot_action(F, S, opts, zt, st, cnt, 0, 2)
    else:
        _tactic_attack(F, S, opts, zt, st, cnt, 0, 2, True)


@driver(parallel=True)
def _run(F, opts, zt, seed, start, n, lanes, k, single_attacks, group):
    """Indices ``start … start+n−1`` split into ``lanes`` contiguous parts run in parallel.

    Parameters
    ----------
    F : int64[N, NF]
        The fighters (N = 2 for duels and single attacks).
    single_attacks : bool
        Each index is one attack by side a on a fresh side b (``_single_attack``); else a fight.
    group : bool
        Also count the group block (docs/groups.md) after the header: ``k`` is then
        ``n_fight_counters(round_cap, N)``.

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
                _single_attack(F, S, opts, zt, st, row)
            else:
                _fight(F, S, opts, zt, st, row)
                if group:
                    count_group(F, S, row, base, N_CAUSES)
    return cnt


def _run_duels(F, opts, zt, seed, start, n, lanes, k):
    """Duels ``start … start+n−1`` in ``lanes`` parallel parts: ``int64[lanes, k]`` counters
    (F ``int64[2, NF]``, k = ``n_counters(round_cap)``)."""
    return _run(F, opts, zt, seed, start, n, lanes, k, False, False)


def _run_attacks(F, opts, zt, seed, start, n, lanes, k):
    """Single attacks by side a on a fresh side b: ``int64[lanes, k]`` counters (outcomes at
    ``C_ATTACKS``, b's wounds at ``C_WOUNDS``)."""
    return _run(F, opts, zt, seed, start, n, lanes, k, True, False)


def _run_fights(F, opts, zt, seed, start, n, lanes, k):
    """Group fights ``start … start+n−1`` in ``lanes`` parallel parts (docs/groups.md).

    Parameters
    ----------
    F : int64[N, NF]
        Side a's fighters, then side b's (``compile_sides``), N ≤ 12.
    opts : int64[NO]
        Rule options (``start_distance`` 0).
    zt : int8[die]
        Hit-zone table.
    seed : uint64
    start, n : int64
        The first fight index and the number of fights.
    lanes : int
        Parallel parts.
    k : int
        ``n_fight_counters(round_cap, N)``: the header, then the group block.

    Returns
    -------
    int64[lanes, k]
        Counter rows; a 1 vs 1's header equals ``_run_duels``'s.
    """
    return _run(F, opts, zt, seed, start, n, lanes, k, False, True)


@driver(parallel=True)
def _paired(Fs, optss, zt, seed, start, n, lanes, k, group):
    """Common random numbers: fight index ``idx`` is played under each of ``m`` configurations with
    the same random stream, and the joint outcome of neighbouring configurations is counted
    (with the group block when ``group``)."""
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
                outcome = _fight(Fs[j], S, optss[j], zt, st, cnt[lane, j])
                if group:
                    count_group(Fs[j], S, cnt[lane, j], base, N_CAUSES)
                if j > 0:
                    joint[lane, j - 1, previous, outcome] += 1
                previous = outcome
    return cnt, joint


def _run_paired(Fs, optss, zt, seed, start, n, lanes, k):
    """Common random numbers: duel index ``idx`` is played under each of ``m`` configurations with
    the same random stream, and the joint outcome of neighbouring configurations is counted.

    Parameters
    ----------
    Fs : int64[m, 2, NF]
        The fighters of each configuration.
    optss : int64[m, NO]
        The options of each configuration (one zone table ``zt`` for all).

    Returns
    -------
    (int64[lanes, m, k], int64[lanes, max(m - 1, 1), 3, 3])
        Counters per lane and configuration; and for each neighbouring pair (j, j+1) the count of
        duels with outcome x under j and y under j+1 (0 a won, 1 b won, 2 draw).
    """
    return _paired(Fs, optss, zt, seed, start, n, lanes, k, False)


def _run_paired_fights(Fs, optss, zt, seed, start, n, lanes, k):
    """``_run_paired`` for group fights, with the group block (docs/groups.md).

    Parameters
    ----------
    Fs : int64[m, N, NF]
        The fighters of each configuration (the same N in all).
    optss : int64[m, NO]
        The options of each configuration.
    k : int
        ``n_fight_counters(round_cap, N)``.

    Returns
    -------
    (int64[lanes, m, k], int64[lanes, max(m - 1, 1), 3, 3])
        Counters per lane and configuration (header and group block), and the joint outcomes of
        neighbouring configurations (0 a won, 1 b won, 2 draw).
    """
    return _paired(Fs, optss, zt, seed, start, n, lanes, k, True)
