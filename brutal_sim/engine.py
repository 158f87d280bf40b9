"""Running kernels in fixed-size blocks: streaming counters, flat memory, any thread count."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import numba
import numpy as np

from . import layout as L
from .kernel import _run_attacks, _run_duels, _run_paired

#: Duels per kernel call. Memory stays flat in n; results do not depend on it.
BLOCK = 1 << 20

ProgressFn = Callable[[int, int], None]


@dataclass(frozen=True)
class Compiled:
    """Everything a kernel needs: fighters ``int64[2, NF]``, options ``int64[NO]``, zone table."""

    fighters: np.ndarray
    options: np.ndarray
    zone_table: np.ndarray

    @property
    def n_counters(self) -> int:
        return L.n_counters(int(self.options[L.O_ROUND_CAP]))


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
        total[:] += kernel(compiled.fighters, compiled.options, compiled.zone_table, _seed64(seed),
                           np.int64(start), np.int64(size), lanes, compiled.n_counters).sum(axis=0)

    return total, _in_blocks(n, block, run, progress)


def run_duel_counters(compiled: Compiled, n: int, seed: int, threads: int | None = None,
                      block: int = BLOCK, progress: ProgressFn | None = None) -> tuple[np.ndarray, float]:
    return run_blocks(_run_duels, compiled, n, seed, threads, block, progress)


def run_attack_counters(compiled: Compiled, n: int, seed: int, threads: int | None = None,
                        block: int = BLOCK) -> tuple[np.ndarray, float]:
    return run_blocks(_run_attacks, compiled, n, seed, threads, block)


def run_paired_counters(cells: list[Compiled], n: int, seed: int, threads: int | None = None, block: int = BLOCK,
                        progress: ProgressFn | None = None) -> tuple[list[np.ndarray], np.ndarray, float]:
    """Play duels ``0 … n−1`` under each configuration with the same random numbers (common random
    numbers). Returns each configuration's counters (the same as a separate run would give), the
    joint outcome counts ``int64[m−1, 3, 3]`` of neighbouring configurations, and the seconds.

    All cells must share the round cap and the hit-zone table.
    """
    if len({c.n_counters for c in cells}) != 1 or any(not np.array_equal(c.zone_table, cells[0].zone_table)
                                                        for c in cells):
        raise ValueError("paired cells must share the round cap and the zone table")
    lanes = _lanes(threads)
    m = len(cells)
    Fs = np.ascontiguousarray(np.stack([c.fighters for c in cells]))
    optss = np.ascontiguousarray(np.stack([c.options for c in cells]))
    k = cells[0].n_counters
    totals = np.zeros((m, k), dtype=np.int64)
    joint = np.zeros((max(m - 1, 1), 3, 3), dtype=np.int64)

    def run(start: int, size: int) -> None:
        cnt, jt = _run_paired(Fs, optss, cells[0].zone_table, _seed64(seed), np.int64(start), np.int64(size),
                              lanes, k)
        totals[:] += cnt.sum(axis=0)
        joint[:] += jt.sum(axis=0)

    seconds = _in_blocks(n, block, run, progress)
    return list(totals), joint[: m - 1], seconds
