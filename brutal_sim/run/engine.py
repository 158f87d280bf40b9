"""Running kernels in fixed-size blocks: streaming counters, flat memory, any thread count, any
executor (in-process by default, or a Dask cluster: :mod:`brutal_sim.run.executor`)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from ..core.ruleset import Compiled
from .executor import Executor, LocalExecutor, Run, Work, run_spans, run_works

ProgressFn = Callable[[int, int], None]


def duel_work(kernel: Callable[..., np.ndarray], compiled: Compiled, seed: int) -> Work:
    """One configuration's kernel (``compiled.kernels.duels`` or ``.attacks``) as a :class:`Work`."""
    return Work(kernel, compiled.args(), seed, compiled.n_counters)


def unpaired(cells: Sequence[Compiled]) -> str | None:
    """Why ``cells`` cannot be replayed on the same duels (:func:`paired_work`), or None when they
    can: they must share the ruleset's drivers (any kernel sets: they play their union), the round
    cap (the counters' size) and the tables."""
    first = cells[0]
    for c in cells[1:]:
        if not c.kernels.same_drivers(first.kernels):
            return "they play on different rulesets' kernels"
        if c.n_counters != first.n_counters:
            return "their round caps differ (the size of the counters)"
        if len(c.tables) != len(first.tables) or not all(np.array_equal(x, y) for x, y in zip(c.tables, first.tables)):
            return "their tables differ (e.g. Brutal's hit-zone table)"
    return None


def paired_work(cells: Sequence[Compiled], seed: int) -> Work:
    """The configurations ``cells`` replayed on the same duels (common random numbers) as one
    :class:`Work`: its chunks give counters ``int64[m, k]`` and joint outcomes ``int64[max(m−1, 1), 3, 3]``.

    All cells must share the ruleset (its drivers), the round cap and the tables (e.g. the
    hit-zone table): :func:`unpaired`. They play the union of their kernel sets (a duel at point
    blank beside one at a distance plays the kernels at a distance too), so every cell draws the
    same random numbers.
    """
    reason = unpaired(cells)
    if reason is not None:
        raise ValueError(f"paired cells must share the ruleset, the round cap and the tables: {reason}")
    first = cells[0]
    Fs = np.ascontiguousarray(np.stack([c.fighters for c in cells]))
    optss = np.ascontiguousarray(np.stack([c.options for c in cells]))
    variant = first.kernels.variant
    for c in cells:
        variant = variant | c.kernels.variant
    return Work(first.kernels.playing(variant).paired, (Fs, optss, *first.tables), seed, first.n_counters)


def beside_baseline(m: int) -> tuple[list[int], dict[int, tuple[int, int]]]:
    """The cells of a paired run (:func:`paired_work`) of a baseline (index 0) and ``m`` other
    configurations (1 … m): each beside a baseline cell, one baseline between two of them
    (``1, 0, 2, 3, 0, 4, …``), so that the joint outcomes of neighbours give each one's paired change
    against the baseline. Returns the
    index of each cell's configuration and, per configuration, (the joint index of its pair, +1 if
    the baseline comes first else −1: the sign of the pair's change as that configuration's change)."""
    seq: list[int] = []
    pairs: dict[int, tuple[int, int]] = {}
    for first in range(1, m + 1, 2):
        seq += [first, 0]
        pairs[first] = (len(seq) - 2, -1)
        if first + 1 <= m:
            seq.append(first + 1)
            pairs[first + 1] = (len(seq) - 2, 1)
    return seq, pairs


def run(works: Sequence[Work], n: int, threads: int | None = None, block: int | None = None,
        progress: ProgressFn | None = None, executor: Executor | None = None) -> Run:
    """Run duel indices ``0 … n−1`` of each work on ``executor`` (default: in-process on ``threads``
    numba threads) in chunks of ``block`` (default: the executor's, ``CHUNK``);
    ``progress(indices done, total)`` is called as chunks complete."""
    total = n * len(works)
    done = 0

    def step(_work: int, size: int) -> None:
        nonlocal done
        done += size
        if progress is not None:
            progress(done, total)

    return run_works(works, n, executor or LocalExecutor(threads), block, step)


@dataclass(frozen=True)
class Precision:
    """Play each work until the half-width of its counters' interval is at most ``target`` or
    ``max_n`` duels are played; with ``threshold``, also stop a work as soon as its interval
    excludes that rate (the caller's interval decides). ``step`` is the first stage's size and the
    granularity of every later one."""

    target: float
    max_n: int = 100_000_000
    step: int = 1 << 14
    threshold: float | None = None

    def __post_init__(self) -> None:
        if not self.target > 0 or self.max_n <= 0 or self.step <= 0:
            raise ValueError(f"bad precision {self}")

    def next_n(self, n: int, half_width: float) -> int:
        """The next stage's total after ``n`` duels gave ``half_width``: a half-width shrinks as
        1/√n, so aim 5 % past ``n · (half_width / target)²``; at least one ``step`` more, at most 16×
        ``n`` (an early estimate can be far off), never past ``max_n``."""
        want = n * (half_width / self.target) ** 2 * 1.05
        grown = max(n + self.step, math.ceil(want / self.step) * self.step)
        return min(grown, 16 * n, self.max_n)


@dataclass
class PreciseRun:
    """The result of :func:`run_to_precision`: per work, the summed counters, seconds, the duels
    played, the half-width reached, whether it met the target, and whether it stopped early
    because its interval excluded the threshold."""

    totals: list[tuple[np.ndarray, ...]]
    seconds: list[float]
    n: list[int]
    half_width: list[float]
    met: list[bool]
    decided: list[bool]
    wall: float


#: ``(work index, its summed counters, its n) → (half-width, interval excludes the threshold)``
IntervalFn = Callable[[int, tuple[np.ndarray, ...], int], tuple[float, bool]]


def run_to_precision(works: Sequence[Work], precision: Precision, interval: IntervalFn,
                     threads: int | None = None, block: int | None = None, progress: ProgressFn | None = None,
                     executor: Executor | None = None) -> PreciseRun:
    """Run each work in stages of duel indices ``0 … n₁−1``, ``n₁ … n₂−1``, … until its half-width
    (from ``interval``) is at most ``precision.target``, its interval excludes the threshold (with
    ``precision.threshold``), or ``precision.max_n``.

    Stages are decided from the counters alone, after each stage has completed, so a seed and a
    target give the same n and the same counters on any threads, chunk size or executor — and the
    counters of a fixed-n run of that n. ``progress(duels done, duels planned so far)``.
    """
    m = len(works)
    executor = executor or LocalExecutor(threads)
    n = [0] * m
    goal = [min(precision.step, precision.max_n)] * m
    totals: list[tuple[np.ndarray, ...] | None] = [None] * m
    seconds = [0.0] * m
    widths = [1.0] * m
    met = [False] * m
    decided = [False] * m
    active = list(range(m))
    done = 0
    wall = 0.0

    def step(_work: int, size: int) -> None:
        nonlocal done
        done += size
        if progress is not None:
            progress(done, sum(goal))

    while active:
        spans = [(n[w], goal[w]) if w in active else (0, 0) for w in range(m)]
        r = run_spans(works, spans, executor, block, step)
        wall += r.wall
        for w in active:
            part = r.totals[w]
            prev = totals[w]
            totals[w] = part if prev is None else tuple(a + b for a, b in zip(prev, part))
            seconds[w] += r.seconds[w]
            n[w] = goal[w]
            widths[w], excludes = interval(w, totals[w], n[w])
            met[w] = widths[w] <= precision.target
            decided[w] = precision.threshold is not None and excludes and not met[w]
        active = [w for w in active if not (met[w] or decided[w]) and n[w] < precision.max_n]
        for w in active:
            goal[w] = precision.next_n(n[w], widths[w])
    return PreciseRun(totals, seconds, n, widths, met, decided, wall)  # type: ignore[arg-type]  # every work ran


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
                        executor: Executor | None = None,
                        progress: ProgressFn | None = None) -> tuple[np.ndarray, float]:
    return run_blocks(compiled.kernels.attacks, compiled, n, seed, threads, block, progress, executor)


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
