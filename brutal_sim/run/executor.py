"""Where the chunks of a run execute: splitting duel indices into fixed-size chunks, running them,
and summing their counters.

A run is one or more :class:`Work` items (a kernel and its arrays, keyed by a seed) over duel
indices ``0 … n−1``. :func:`run_works` splits the indices into chunks of a fixed size (``CHUNK``
on a cluster, ``LOCAL_CHUNK`` in this process; independent of threads and workers), hands every
chunk to an :class:`Executor` and sums the counters of the chunks of each work as they complete.
Kernels are keyed by (seed, duel index), and int64 sums do not depend on their order, so every
executor and chunk size gives bit-identical counters.

Executors differ only in where a chunk runs: :class:`LocalExecutor` runs them one after the other
in this process on numba's threads (the default); :class:`brutal_sim.run.cluster.DaskExecutor` sends
them to a Dask cluster.
"""

from __future__ import annotations

import os
import threading
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence

import numba
import numpy as np

from ..core.limits import check_thread_count
from ..core.ruleset import Bound
from ..toolbox.compiling import timed, total_seconds, watching

#: Duel indices per chunk: the unit of work an executor runs. Results do not depend on it.
CHUNK = 1 << 20
#: Duel indices per chunk in this process (:class:`LocalExecutor`): a stop requested during a run
#: ends it after the chunk playing, well within a second on one thread (a kernel call cannot be
#: interrupted)
LOCAL_CHUNK = 1 << 16

#: ``on_chunk(work index, indices in the chunk)``, called as each chunk completes.
ChunkProgress = Callable[[int, int], None]

#: One kernel call at a time per process: the kernel already uses all of numba's threads, and
#: numba's default (workqueue) threading layer must not be entered from two threads at once —
#: as a Dask worker with several threads would.
_KERNEL_LOCK = threading.Lock()


#: whether this process started numba's threads, and whether it is a child forked after they
#: started: GNU OpenMP's threads do not survive a fork, so a kernel call there would hang forever
_THREADS = {"started": False, "forked_after": False}


def _after_fork_in_child() -> None:
    _THREADS["forked_after"] = _THREADS["started"]


os.register_at_fork(after_in_child=_after_fork_in_child)

FORK_MESSAGE = ("this process was forked after numba's threads started and cannot run kernels; start "
                "worker processes with the spawn or forkserver start method "
                "(multiprocessing.get_context('spawn').Pool())")


def lanes(threads: int | None) -> int:
    """Set and return numba's thread count for this process: ``threads`` capped at the cores
    numba may use, all of them if None; a ``NUMBA_NUM_THREADS`` above the machine's cores is a
    :class:`~brutal_sim.core.errors.DataError` before any thread starts. In a child forked after
    the threads started this is a RuntimeError (:data:`FORK_MESSAGE`) instead of a hang."""
    if _THREADS["forked_after"]:
        raise RuntimeError(FORK_MESSAGE)
    check_thread_count(numba.config.NUMBA_NUM_THREADS, "NUMBA_NUM_THREADS")  # before the pool starts
    _THREADS["started"] = True
    threads = threads or numba.config.NUMBA_NUM_THREADS
    threads = max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS))
    numba.set_num_threads(threads)
    return threads


def _rebuild_work(kernel: Bound, args: tuple[np.ndarray, ...], seed: int, n_counters: int) -> "Work":
    return Work(kernel, args, seed, n_counters)


@dataclass(frozen=True)
class Work:
    """A kernel, its leading array arguments and a seed: everything a chunk of duel indices needs.

    ``kernel(*args, seed, start, size, lanes, n_counters)`` returns one int64 array with a leading
    lane axis, or a tuple of such arrays (paired runs: counters and joint outcomes). Pickled, the
    kernel travels as its import path, so a worker process looks up its own compiled copy instead
    of receiving (and recompiling) code.
    """

    kernel: Callable[..., Any]
    args: tuple[np.ndarray, ...]
    seed: int
    n_counters: int

    def run(self, start: int, size: int, threads: int | None = None) -> tuple[np.ndarray, ...]:
        """Counters of duel indices ``start … start+size−1``, summed over lanes."""
        n_lanes = lanes(threads)
        out = self.kernel(*self.args, np.uint64(self.seed & 0xFFFFFFFFFFFFFFFF), np.int64(start), np.int64(size),
                          n_lanes, self.n_counters)
        parts = out if isinstance(out, tuple) else (out,)
        return tuple(p.sum(axis=0) for p in parts)

    def __reduce__(self) -> tuple[Any, ...]:
        # the kernel travels as a Bound: its loop's import path and its fixed arguments
        kernel = self.kernel if isinstance(self.kernel, Bound) else Bound(self.kernel, ())
        return _rebuild_work, (kernel, self.args, self.seed, self.n_counters)


@dataclass(frozen=True)
class Task:
    """One chunk: duel indices ``start … start+size−1`` of ``works[work]``."""

    work: int
    start: int
    size: int


@dataclass(frozen=True)
class ChunkResult:
    """A chunk's summed counters, the seconds its kernel call took and the process that ran it."""

    parts: tuple[np.ndarray, ...]
    seconds: float
    pid: int


def run_chunk(work: Work, start: int, size: int, threads: int | None = None) -> ChunkResult:
    """Run one chunk in this process (the function every executor calls, locally or on a worker)."""
    with _KERNEL_LOCK, watching():
        parts, seconds = timed(lambda: work.run(start, size, threads))
        return ChunkResult(parts, seconds, os.getpid())


class Executor(ABC):
    """Where chunks run. ``chunk`` is the number of duel indices per chunk (``CHUNK`` unless a
    test asks for small chunks); ``threads`` the numba threads of each kernel call."""

    def __init__(self, threads: int | None = None, chunk: int = CHUNK) -> None:
        if chunk <= 0:
            raise ValueError(f"chunk must be positive, got {chunk}")
        self.threads = threads
        self.chunk = chunk

    @abstractmethod
    def map(self, works: Sequence[Work], tasks: Sequence[Task]) -> Iterator[tuple[int, ChunkResult]]:
        """Run every task; yield ``(task position, result)`` as each completes, in any order."""


class LocalExecutor(Executor):
    """Chunks one after the other in this process, on numba's threads: nothing to start."""

    def __init__(self, threads: int | None = None, chunk: int = LOCAL_CHUNK) -> None:
        super().__init__(threads, chunk)

    def map(self, works: Sequence[Work], tasks: Sequence[Task]) -> Iterator[tuple[int, ChunkResult]]:
        for i, t in enumerate(tasks):
            yield i, run_chunk(works[t.work], t.start, t.size, self.threads)


class Rehearsed(Exception):
    """Raised by :class:`Rehearsal` where a run would play its first chunk."""


class Rehearsal(Executor):
    """An executor that plays nothing: a question asked with it checks its arguments, loads and
    prepares what it would play, then stops with :class:`Rehearsed` at its first chunk — before any
    kernel compiles or any duel is played. A scenario rehearses its questions so that a bad one is
    refused before its cells play."""

    def map(self, works: Sequence[Work], tasks: Sequence[Task]) -> Iterator[tuple[int, ChunkResult]]:
        raise Rehearsed


@dataclass
class Run:
    """The merged result of :func:`run_works`: per work, the summed counter arrays and its share of
    the wall-clock seconds (split by the kernel time of its chunks; the shares add up to ``wall``).
    (:func:`run_spans`: a work whose span was empty has ``None`` totals.)"""

    totals: list[tuple[np.ndarray, ...]]
    seconds: list[float]
    wall: float
    chunks: list[ChunkResult]


def split(n: int, size: int, first: int = 0) -> list[tuple[int, int]]:
    """``(start, size)`` of the chunks of ``first … n−1``: all of ``size`` but the last."""
    return [(start, min(size, n - start)) for start in range(first, n, size)]


def run_works(works: Sequence[Work], n: int, executor: Executor | None = None, chunk: int | None = None,
              on_chunk: ChunkProgress | None = None) -> Run:
    """Run duel indices ``0 … n−1`` of every work in chunks and sum each work's counters.

    ``chunk`` overrides the executor's chunk size. All chunks are handed to the executor at once
    (work by work, in index order), so a cluster can run chunks of different works side by side.
    """
    if n <= 0:
        raise ValueError(f"n must be positive, got {n}")
    return run_spans(works, [(0, n)] * len(works), executor, chunk, on_chunk)


def run_spans(works: Sequence[Work], spans: Sequence[tuple[int, int]], executor: Executor | None = None,
              chunk: int | None = None, on_chunk: ChunkProgress | None = None) -> Run:
    """Run duel indices ``start … stop−1`` of each work (``spans[w] = (start, stop)``, one per work)
    in chunks and sum each work's counters, as :func:`run_works` does; a work with an empty span
    gets ``None`` totals."""
    executor = executor or LocalExecutor()
    size = chunk or executor.chunk
    tasks = [Task(w, start, k) for w, (first, stop) in enumerate(spans) for start, k in split(stop, size, first)]
    totals: list[tuple[np.ndarray, ...] | None] = [None] * len(works)
    busy = [0.0] * len(works)
    results: list[ChunkResult] = []
    t0, c0 = time.perf_counter(), total_seconds()
    for i, res in executor.map(works, tasks):
        w = tasks[i].work
        prev = totals[w]
        totals[w] = res.parts if prev is None else tuple(a + b for a, b in zip(prev, res.parts))
        busy[w] += res.seconds
        results.append(res)
        if on_chunk is not None:
            on_chunk(w, tasks[i].size)
    wall = max(0.0, time.perf_counter() - t0 - (total_seconds() - c0))  # a compile in the run is no duel's time
    spent = sum(busy)
    seconds = [wall * b / spent if spent > 0 else wall / len(works) for b in busy]
    return Run(totals, seconds, wall, results)  # type: ignore[arg-type]  # None only for an empty span
