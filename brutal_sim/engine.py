"""Running kernels in fixed-size blocks: streaming counters, flat memory, any thread count."""

from __future__ import annotations

import time
from typing import Callable

import numba
import numpy as np

from .ruleset import Compiled

#: Duels per kernel call. Memory stays flat in n; results do not depend on it.
BLOCK = 1 << 20

ProgressFn = Callable[[int, int], None]


def _lanes(threads: int | None) -> int:
    threads = threads or numba.config.NUMBA_NUM_THREADS
    threads = max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS))
    numba.set_num_threads(threads)
    return threads


def _in_blocks(n: int, block: int, run: Callable[[int, int], None], progress: ProgressFn | None) -> float:
    """Call ``run(start, size)`` over ``0 … n−1`` in blocks of at most ``block``; return the seconds."""
    t0 = time.perf_counter()
    done = 0
    while done < n:
        size = min(block, n - done)
        run(done, size)
        done += size
        if progress is not None:
            progress(done, n)
    return time.perf_counter() - t0


def _seed64(seed: int) -> np.uint64:
    return np.uint64(seed & 0xFFFFFFFFFFFFFFFF)


def run_blocks(kernel, compiled: Compiled, n: int, seed: int, threads: int | None = None,
               block: int = BLOCK, progress: ProgressFn | None = None) -> tuple[np.ndarray, float]:
    """Run ``kernel`` over duel indices ``0 … n−1`` in blocks; return summed counters and seconds."""
    lanes = _lanes(threads)
    total = np.zeros(compiled.n_counters, dtype=np.int64)

    def run(start: int, size: int) -> None:
        total[:] += kernel(*compiled.args(), _seed64(seed), np.int64(start), np.int64(size), lanes,
                           compiled.n_counters).sum(axis=0)

    return total, _in_blocks(n, block, run, progress)


def run_duel_counters(compiled: Compiled, n: int, seed: int, threads: int | None = None,
                      block: int = BLOCK, progress: ProgressFn | None = None) -> tuple[np.ndarray, float]:
    return run_blocks(compiled.kernels.duels, compiled, n, seed, threads, block, progress)


def run_attack_counters(compiled: Compiled, n: int, seed: int, threads: int | None = None,
                        block: int = BLOCK) -> tuple[np.ndarray, float]:
    return run_blocks(compiled.kernels.attacks, compiled, n, seed, threads, block)


def run_paired_counters(cells: list[Compiled], n: int, seed: int, threads: int | None = None, block: int = BLOCK,
                        progress: ProgressFn | None = None) -> tuple[list[np.ndarray], np.ndarray, float]:
    """Play duels ``0 … n−1`` under each configuration with the same random numbers (common random
    numbers). Returns each configuration's counters (the same as a separate run would give), the
    joint outcome counts ``int64[m−1, 3, 3]`` of neighbouring configurations, and the seconds.

    All cells must share the ruleset (kernels), the round cap and the tables (e.g. the hit-zone table).
    """
    first = cells[0]
    if any(c.kernels != first.kernels or c.n_counters != first.n_counters or len(c.tables) != len(first.tables)
           or not all(np.array_equal(x, y) for x, y in zip(c.tables, first.tables)) for c in cells):
        raise ValueError("paired cells must share the ruleset, the round cap and the tables")
    lanes = _lanes(threads)
    m = len(cells)
    Fs = np.ascontiguousarray(np.stack([c.fighters for c in cells]))
    optss = np.ascontiguousarray(np.stack([c.options for c in cells]))
    k = cells[0].n_counters
    totals = np.zeros((m, k), dtype=np.int64)
    joint = np.zeros((max(m - 1, 1), 3, 3), dtype=np.int64)

    def run(start: int, size: int) -> None:
        cnt, jt = first.kernels.paired(Fs, optss, *first.tables, _seed64(seed), np.int64(start), np.int64(size),
                                       lanes, k)
        totals[:] += cnt.sum(axis=0)
        joint[:] += jt.sum(axis=0)

    seconds = _in_blocks(n, block, run, progress)
    return list(totals), joint[: m - 1], seconds
