"""Running kernels in fixed-size blocks: streaming counters, flat memory, any thread count, any
executor (in-process by default, or a Dask cluster: :mod:`brutal_sim.run.executor`)."""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from .executor import CHUNK, Executor, LocalExecutor, Run, Work, run_works
from ..core.ruleset import Compiled

#: Duels per kernel call (a chunk). Memory stays flat in n; results do not depend on it.
BLOCK = CHUNK

ProgressFn = Callable[[int, int], None]


def duel_work(kernel: Callable[..., np.ndarray], compiled: Compiled, seed: int) -> Work:
    """One configuration's kernel (``compiled.kernels.duels`` or ``.attacks``) as a :class:`Work`."""
    return Work(kernel, compiled.args(), seed, compiled.n_counters)


def paired_work(cells: Sequence[Compiled], seed: int) -> Work:
    """The configurations ``cells`` replayed on the same duels (common random numbers) as one
    :class:`Work`: its chunks give counters ``int64[m, k]`` and joint outcomes ``int64[max(m−1, 1), 3, 3]``.

    All cells must share the ruleset (kernels), the round cap and the tables (e.g. the hit-zone table).
    """
    first = cells[0]
    if any(c.kernels != first.kernels or c.n_counters != first.n_counters or len(c.tables) != len(first.tables)
           or not all(np.array_equal(x, y) for x, y in zip(c.tables, first.tables)) for c in cells):
        raise ValueError("paired cells must share the ruleset, the round cap and the tables")
    Fs = np.ascontiguousarray(np.stack([c.fighters for c in cells]))
    optss = np.ascontiguousarray(np.stack([c.options for c in cells]))
    return Work(first.kernels.paired, (Fs, optss, *first.tables), seed, first.n_counters)


def run(works: Sequence[Work], n: int, threads: int | None = None, block: int | None = None,
        progress: ProgressFn | None = None, executor: Executor | None = None) -> Run:
    """Run duel indices ``0 … n−1`` of each work on ``executor`` (default: in-process on ``threads``
    numba threads) in chunks of ``block`` (default: the executor's, ``BLOCK``);
    ``progress(indices done, total)`` is called as chunks complete."""
    total = n * len(works)
    done = 0

    def step(_work: int, size: int) -> None:
        nonlocal done
        done += size
        if progress is not None:
            progress(done, total)

    return run_works(works, n, executor or LocalExecutor(threads), block, step)


def run_blocks(kernel: Callable[..., np.ndarray], compiled: Compiled, n: int, seed: int, threads: int | None = None,
               block: int | None = None, progress: ProgressFn | None = None,
               executor: Executor | None = None) -> tuple[np.ndarray, float]:
    """Run ``kernel`` over duel indices ``0 … n−1`` in blocks; return summed counters and seconds."""
    r = run([duel_work(kernel, compiled, seed)], n, threads, block, progress, executor)
    return r.totals[0][0], r.wall


def run_duel_counters(compiled: Compiled, n: int, seed: int, threads: int | None = None, block: int | None = None,
                      progress: ProgressFn | None = None, executor: Executor | None = None) -> tuple[np.ndarray, float]:
    return run_blocks(compiled.kernels.duels, compiled, n, seed, threads, block, progress, executor)


def run_attack_counters(compiled: Compiled, n: int, seed: int, threads: int | None = None, block: int | None = None,
                        executor: Executor | None = None) -> tuple[np.ndarray, float]:
    return run_blocks(compiled.kernels.attacks, compiled, n, seed, threads, block, executor=executor)


def run_paired_counters(cells: list[Compiled], n: int, seed: int, threads: int | None = None,
                        block: int | None = None, progress: ProgressFn | None = None,
                        executor: Executor | None = None) -> tuple[list[np.ndarray], np.ndarray, float]:
    """Play duels ``0 … n−1`` under each configuration with the same random numbers (common random
    numbers). Returns each configuration's counters (the same as a separate run would give), the
    joint outcome counts ``int64[m−1, 3, 3]`` of neighbouring configurations, and the seconds.

    All cells must share the ruleset (kernels), the round cap and the tables (e.g. the hit-zone table).
    """
    r = run([paired_work(cells, seed)], n, threads, block, progress, executor)
    totals, joint = r.totals[0]
    return list(totals), joint[: len(cells) - 1], r.wall
