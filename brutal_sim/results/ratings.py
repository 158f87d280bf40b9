"""Ratings from a table of pairwise results: Bradley–Terry strengths with 95 % intervals, suggested
points, points efficiency, and the choice of the pairs and groups that check the points by play.

Pure numbers, no ruleset: :func:`brutal_sim.designer.rate` plays the duels and calls these.

The model (Bradley–Terry, draws as half a win)
    Fighter ``i`` has a strength ``s_i = exp(θ_i)``; its expected score against ``j`` is
    ``p_ij = s_i / (s_i + s_j)``, a score being a win 1, a draw ½, a loss 0. The fit maximises
    ``Σ_{i≠j} S_ij log p_ij`` with ``S_ij = wins_ij + draws_ij / 2`` (Newton's method; the
    log-likelihood is concave), then sets the reference fighter's ``θ`` to 0 (strength 1).
    A draw counted as half a win for each side keeps the reading "a score of 50 %" for an even
    pair whatever the draw rate, which is what equal points promise.

The intervals (observed Fisher information)
    The covariance of the ``θ`` relative to the reference is the inverse of the observed
    information ``I = Σ_pairs N_ij p_ij p_ji (e_i − e_j)(e_i − e_j)ᵀ`` restricted to the other
    fighters (``N_ij`` duels of the pair); a strength's 95 % interval is ``exp(θ_i ± 1.96 se_i)``.
    Counting a draw as half a win, the binomial variance ``p (1 − p)`` it assumes is at least the
    variance of a score with draws (a draw scores exactly ½), so with many draws the intervals are
    somewhat wide rather than narrow.

When no finite fit exists (a fighter that won, or lost, every duel against everyone it met, or
more generally a group of fighters that never scored against the rest), one draw is added to every
pair that played (``prior``; :attr:`BTFit.prior` says how many were added).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

from .stats import Z95

__all__ = ["BTFit", "GroupCheck", "bradley_terry", "check_pairs", "expected_score", "group_checks",
           "head_exponent", "points_flags", "suggested_points"]


@dataclass(frozen=True)
class BTFit:
    """A Bradley–Terry fit: log-strengths relative to the reference, their covariance and the fit's
    misfit (Pearson's chi-square of the pairs' scores against the model)."""

    names: list[str]
    reference: str
    theta: np.ndarray  # log-strength, the reference's 0
    covariance: np.ndarray  # of theta (the reference's row and column 0)
    games: np.ndarray  # N_ij: duels of each pair (symmetric, as fitted: the prior's draws included)
    scores: np.ndarray  # S_ij: i's score against j (wins + draws / 2, as fitted)
    prior: float = 0.0  # draws added to every pair that played
    iterations: int = 0
    chi2: float = 0.0  # Pearson's chi-square of the pairs' scores
    df: int = 0  # its degrees of freedom: pairs played − (fighters − 1)

    @property
    def se(self) -> np.ndarray:
        """Standard error of each log-strength (0 for the reference)."""
        return np.sqrt(np.maximum(np.diag(self.covariance), 0.0))

    @property
    def strength(self) -> np.ndarray:
        return np.exp(self.theta)

    def interval(self, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
        """The 95 % interval (``z``) of each strength: ``exp(θ ± z se)``."""
        return np.exp(self.theta - z * self.se), np.exp(self.theta + z * self.se)

    def expected(self, i: int, j: int) -> float:
        """The model's expected score of fighter ``i`` against ``j``."""
        return float(1.0 / (1.0 + math.exp(self.theta[j] - self.theta[i])))

    def index(self, name: str) -> int:
        return self.names.index(name)


def _log_likelihood(theta: np.ndarray, scores: np.ndarray) -> float:
    diff = theta[:, None] - theta[None, :]
    return float(-(scores * np.logaddexp(0.0, -diff)).sum())


def _gradient_information(theta: np.ndarray, scores: np.ndarray, games: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))  # p[i, j]: i's expected score against j
    np.fill_diagonal(p, 0.5)
    grad = (scores - games * p).sum(axis=1)
    w = games * p * p.T
    np.fill_diagonal(w, 0.0)
    info = np.diag(w.sum(axis=1)) - w
    return grad, info


def _strongly_connected(beats: np.ndarray) -> bool:
    """Whether every fighter reaches every other along "scored against" edges."""
    k = len(beats)
    reach = beats.astype(bool) | np.eye(k, dtype=bool)
    for m in range(k):  # Warshall's transitive closure
        reach |= reach[:, m:m + 1] & reach[m:m + 1, :]
    return bool(reach.all())


def bradley_terry(wins: np.ndarray | Sequence[Sequence[float]], names: Sequence[str],
                  draws: np.ndarray | Sequence[Sequence[float]] | None = None, reference: str | None = None,
                  prior: float | None = None, tol: float = 1e-10, max_iter: int = 200) -> BTFit:
    """Fit Bradley–Terry strengths (draws as half a win each) to ``wins[i][j]`` (duels ``i`` won
    against ``j``) and ``draws[i][j]`` (symmetric), normalised so that ``reference`` (default: the
    first name) has strength 1; see the module text for the model and the intervals.

    ``prior``: draws added to every pair that played; None adds one only when the maximum
    likelihood is not finite. Raises ``ValueError`` for bad tables, and when the fighters do not
    all meet, directly or through others.
    """
    w = np.asarray(wins, dtype=float)
    k = len(names)
    if w.shape != (k, k):
        raise ValueError(f"wins must be a {k}×{k} table, got shape {w.shape}")
    d = np.zeros_like(w) if draws is None else np.asarray(draws, dtype=float)
    if d.shape != (k, k):
        raise ValueError(f"draws must be a {k}×{k} table, got shape {d.shape}")
    if not np.allclose(d, d.T):
        raise ValueError("draws must be symmetric (draws[i][j] == draws[j][i])")
    if (w < 0).any() or (d < 0).any() or not (np.isfinite(w).all() and np.isfinite(d).all()):
        raise ValueError("wins and draws must be finite and at least 0")
    if len(set(names)) != k or k < 2:
        raise ValueError("needs at least two fighters, each named once")
    reference = names[0] if reference is None else reference
    if reference not in names:
        raise ValueError(f"reference {reference!r} is not among the fighters")
    w, d = w.copy(), d.copy()
    np.fill_diagonal(w, 0.0)
    np.fill_diagonal(d, 0.0)
    met = (w + w.T + d) > 0
    if not _strongly_connected(met):
        raise ValueError("the fighters do not all meet, directly or through others; no common scale")
    scores = w + d / 2
    if prior is None:
        prior = 0.0 if _strongly_connected(scores > 0) else 1.0
    scores = scores + met * prior / 2
    games = scores + scores.T
    r = list(names).index(reference)
    free = [i for i in range(k) if i != r]
    theta = np.zeros(k)
    ll = _log_likelihood(theta, scores)
    iterations = 0
    for iterations in range(1, max_iter + 1):
        grad, info = _gradient_information(theta, scores, games)
        step = np.zeros(k)
        step[free] = np.linalg.solve(info[np.ix_(free, free)], grad[free])
        t = 1.0
        while True:  # halve the step until the log-likelihood does not fall
            trial = theta + t * step
            ll_trial = _log_likelihood(trial, scores)
            if ll_trial >= ll - 1e-12 or t < 1e-8:
                break
            t /= 2
        theta, ll = trial, ll_trial
        if np.abs(t * step).max() < tol:
            break
    _, info = _gradient_information(theta, scores, games)
    cov = np.zeros((k, k))
    cov[np.ix_(free, free)] = np.linalg.inv(info[np.ix_(free, free)])
    p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))
    upper = np.triu(met, 1)
    var = games * p * (1 - p)
    chi2 = float((((scores - games * p) ** 2 / np.where(var > 0, var, 1.0)) * upper).sum())
    return BTFit(list(names), reference, theta, cov, games, scores, float(prior), iterations, chi2,
                 int(upper.sum()) - (k - 1))


def expected_score(points_a: float, points_b: float) -> float:
    """The score a side of ``points_a`` points is expected to make against one of ``points_b``
    when points are proportional to strength (and a group's strength is its members' sum):
    ``points_a / (points_a + points_b)``; equal points, 50 %."""
    return points_a / (points_a + points_b)


def head_exponent(score: float, points_a: float, points_b: float, m: int, k: int) -> float:
    """The head-count exponent ``γ`` an ``m`` v ``k`` fight implies: the ``γ`` for which a group of
    ``m`` fighters of ``points_a`` points each (points proportional to strength) counts as one of
    strength ``m^γ · points_a`` and the model's expected score equals ``score``:
    ``γ = (logit(score) − log(points_a / points_b)) / log(m / k)``. 1 is the "points add up"
    reading (1 of 200 ≈ 2 of 100); Lanchester's square law would give 2. NaN when ``m == k`` or
    the score is 0 or 1 (no finite logit)."""
    if m == k or not 0 < score < 1:
        return float("nan")
    return (math.log(score / (1 - score)) - math.log(points_a / points_b)) / math.log(m / k)


def suggested_points(fit: BTFit, reference_points: float = 100.0, z: float = Z95
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Points proportional to strength, the reference at ``reference_points``: each fighter's
    points and their 95 % interval (``reference_points · exp(θ ± z se)``). Two fighters of equal
    points then have equal strengths, an even pair in the model; and 1 fighter of 200 points
    meets 2 of 100 as equals if a group's strength is the sum of its members' (the reading the
    group checks test)."""
    lo, hi = fit.interval(z)
    return reference_points * fit.strength, reference_points * lo, reference_points * hi


def points_flags(given: np.ndarray, low: np.ndarray, high: np.ndarray) -> list[str]:
    """The rule for a fighter out of line: its given points outside the 95 % interval of its
    suggested points. ``"underpriced"`` (given below the interval: it is stronger than it costs),
    ``"overpriced"`` (above), else ``""``."""
    return ["underpriced" if g < lo else "overpriced" if g > hi else "" for g, lo, hi in zip(given, low, high)]


def check_pairs(points: Sequence[float], count: int = 3) -> list[tuple[int, int]]:
    """The ``count`` pairs ``(i, j)`` whose points lie nearest each other (smallest ratio): the
    nearest to equal-points pairs a catalog offers."""
    k = len(points)
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    pairs.sort(key=lambda ij: (abs(math.log(points[ij[0]] / points[ij[1]])), ij))
    return pairs[:max(count, 0)]


@dataclass(frozen=True)
class GroupCheck:
    """``m`` of fighter ``i`` against ``k`` of fighter ``j``: sides of nearly equal points."""

    i: int
    m: int
    j: int
    k: int


def group_checks(points: Sequence[float], count: int = 2, max_side: int = 6,
                 exclude: Mapping[int, bool] | None = None) -> list[GroupCheck]:
    """Up to ``count`` N v M fights of two fighters' groups whose points total nearly the same:
    ``m`` of the stronger ``i`` (1 or 2) against ``k`` (``m < k ≤ max_side``) of the weaker ``j``,
    the smallest points mismatch ``|log(m p_i / (k p_j))|`` first, each fighter in at most one
    check as the stronger side, each pair once; none whose mismatch exceeds 25 %. ``exclude``:
    indices not to use (e.g. fighters that cannot join a group fight)."""
    exclude = exclude or {}
    options = []
    for i, pi in enumerate(points):
        for j, pj in enumerate(points):
            if i == j or exclude.get(i) or exclude.get(j) or pi <= pj:
                continue
            for m in (1, 2):
                for k in range(m + 1, max_side + 1):
                    mismatch = abs(math.log(m * pi / (k * pj)))
                    if mismatch <= math.log(1.25):
                        options.append((mismatch, i, m, j, k))
    options.sort()
    chosen: list[GroupCheck] = []
    strong: set[int] = set()
    for _, i, m, j, k in options:
        if len(chosen) >= count:
            break
        if i in strong or any(c.i == i and c.j == j for c in chosen):
            continue
        strong.add(i)
        chosen.append(GroupCheck(i, m, j, k))
    return chosen
