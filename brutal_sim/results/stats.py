"""Small statistics helpers: Wilson score intervals and histogram quantiles."""

from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054


def wilson(k: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion ``k / n`` (``k`` may count halves: a score with draws;
    ``(0, 1)`` when ``n == 0``)."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if k == 0 else max(0.0, centre - half)  # exact ends: rounding must not leave 1e-19
    hi = 1.0 if k == n else min(1.0, centre + half)
    return lo, hi


def paired_difference(joint: np.ndarray, n: int, side: int = 0, z: float = Z95) -> tuple[float, float, float]:
    """The change of side ``side``'s win rate between two runs of the same ``n`` duels (common random
    numbers), from their joint outcomes ``joint`` (int64[3, 3]: first run's outcome × second's; 0 a
    won, 1 b won, 2 draw): ``(difference, paired half-width, half-width of independent runs)`` of
    the 95 % interval. The paired interval uses the per-duel variance of the change."""
    p0 = joint[side, :].sum() / n
    p1 = joint[:, side].sum() / n
    d = float(p1 - p0)
    changed = (joint[side, :].sum() + joint[:, side].sum() - 2 * joint[side, side]) / n  # E[(X1 - X0)^2]
    var_paired = max(changed - d * d, 0.0) / n
    var_indep = (p0 * (1 - p0) + p1 * (1 - p1)) / n
    return d, z * math.sqrt(var_paired), z * math.sqrt(var_indep)


def independent_half_width(p0: float, n0: int, p1: float, n1: int, z: float = Z95) -> float:
    """The half-width of the 95 % interval of ``p1 − p0`` for two independent runs of ``n0`` and
    ``n1`` duels (normal approximation)."""
    return z * math.sqrt(p0 * (1 - p0) / n0 + p1 * (1 - p1) / n1)


def sides_difference_half_width(pa: float, pb: float, n: int, z: float = Z95) -> float:
    """The half-width of the 95 % interval of ``pb − pa``, the two sides' win rates of one run of
    ``n`` duels (multinomial: draws count for neither; normal approximation)."""
    return z * math.sqrt(max(pa + pb - (pb - pa) ** 2, 0.0) / n)


def hist_mean(hist: np.ndarray) -> float | None:
    """Mean of values ``0 … len−1`` weighted by ``hist``; None if empty."""
    total = int(hist.sum())
    if total == 0:
        return None
    return float((np.arange(hist.size) * hist).sum() / total)


def hist_quantile(hist: np.ndarray, q: float) -> int | None:
    """Smallest value v with P(X ≤ v) ≥ q under the histogram; None if empty."""
    total = int(hist.sum())
    if total == 0:
        return None
    cum = np.cumsum(hist)
    return int(np.searchsorted(cum, q * total - 1e-9 * total, side="left"))
