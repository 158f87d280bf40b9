"""Bradley–Terry ratings (draws as half a win), their intervals, suggested points and the choice of
the checks: pure numbers, no ruleset (:mod:`brutal_sim.results.ratings`)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from brutal_sim.results.ratings import (
    GroupCheck,
    bradley_terry,
    check_pairs,
    expected_score,
    group_checks,
    head_exponent,
    points_flags,
    suggested_points,
)

NAMES = ["A", "B", "C"]
#: wins[i][j]: duels i won against j. A v B 1–2, A v C 1–4, B v C 1–2: every pair's score is that of
#: strengths 1, 2, 4 exactly (1/3, 1/5, 1/3 for the weaker side)
HAND = [[0, 1, 1], [2, 0, 1], [4, 2, 0]]


def test_three_fighters_by_hand():
    """Every pair's observed score equals the model's for strengths A 1, B 2, C 4, so the likelihood
    equations Σ_j S_ij = Σ_j N_ij p_ij hold there and the fit is exactly (1, 2, 4).

    The information of the pairs, N p (1 − p): A–B 3·(1/3)(2/3) = 2/3, A–C 5·(1/5)(4/5) = 4/5,
    B–C 3·(2/3)(1/3) = 2/3. With A the reference, the information of (θ_B, θ_C) is
    [[2/3 + 2/3, −2/3], [−2/3, 4/5 + 2/3]] = [[4/3, −2/3], [−2/3, 22/15]], determinant
    88/45 − 20/45 = 68/45; its inverse: var θ_B = (22/15)/(68/45) = 33/34, var θ_C = (4/3)/(68/45)
    = 15/17, cov = (2/3)/(68/45) = 15/34. 95 % interval of B: 2·exp(±1.959964·√(33/34)) =
    0.29003 … 13.792 (exp(1.93093) = 6.8959). With C the reference the strengths are (1/4, 1/2, 1)
    and var θ_A = 15/17."""
    fit = bradley_terry(HAND, NAMES)
    assert fit.strength == pytest.approx([1, 2, 4], rel=1e-9)
    assert fit.covariance[1:, 1:].ravel() == pytest.approx([33 / 34, 15 / 34, 15 / 34, 15 / 17], rel=1e-9)
    assert fit.se[0] == 0
    lo, hi = fit.interval()
    assert (lo[1], hi[1]) == pytest.approx((0.290028, 13.7918), rel=1e-4)
    assert fit.chi2 == pytest.approx(0, abs=1e-12) and fit.df == 1 and fit.prior == 0
    assert fit.expected(2, 0) == pytest.approx(0.8)
    by_c = bradley_terry(HAND, NAMES, reference="C")
    assert by_c.strength == pytest.approx([0.25, 0.5, 1], rel=1e-9)
    assert by_c.se[0] ** 2 == pytest.approx(15 / 17, rel=1e-9)
    points, low, high = suggested_points(fit, 100)
    assert points == pytest.approx([100, 200, 400]) and low[0] == high[0] == pytest.approx(100)
    assert (low[1], high[1]) == pytest.approx((29.0028, 1379.18), rel=1e-4)


def test_draws_count_half_a_win_each():
    """A draw scores ½ for each side: 10 draws are 5 wins each; a pair that only drew is even."""
    wins = np.array([[0, 3, 1], [5, 0, 2], [7, 4, 0]])
    draws = np.array([[0, 10, 0], [10, 0, 4], [0, 4, 0]])
    with_draws = bradley_terry(wins, NAMES, draws)
    halves = bradley_terry(wins + draws / 2, NAMES)
    assert with_draws.theta == pytest.approx(halves.theta, abs=1e-10)
    assert with_draws.covariance.ravel() == pytest.approx(halves.covariance.ravel(), abs=1e-10)
    only_draws = bradley_terry([[0, 0], [0, 0]], ["x", "y"], [[0, 8], [8, 0]])
    assert only_draws.strength == pytest.approx([1, 1]) and only_draws.prior == 0


def _tournament(rng: np.random.Generator, strength: np.ndarray, n: int, draw: float) -> tuple[np.ndarray, np.ndarray]:
    """A round robin of ``n`` games a pair from the model: a draw with probability ``draw``, else a
    win with the probability q that makes the expected score the model's p = s_i / (s_i + s_j):
    (1 − draw) q + draw / 2 = p."""
    k = len(strength)
    wins, draws = np.zeros((k, k)), np.zeros((k, k))
    for i in range(k):
        for j in range(i + 1, k):
            p = strength[i] / (strength[i] + strength[j])
            q = (p - draw / 2) / (1 - draw)
            w, l_, d = rng.multinomial(n, [(1 - draw) * q, (1 - draw) * (1 - q), draw])
            wins[i, j], wins[j, i], draws[i, j], draws[j, i] = w, l_, d, d
    return wins, draws


TRUE = np.array([1.0, 0.5, 2.0, 3.5, 0.8])


def test_a_simulated_tournament_recovers_the_strengths_within_their_intervals():
    """Five fighters of known strengths, 2000 games a pair, 10 % draws: each strength within its 95 %
    interval (the next test checks the intervals' coverage over many tournaments)."""
    rng = np.random.default_rng(3)
    wins, draws = _tournament(rng, TRUE, 2000, 0.1)
    fit = bradley_terry(wins, list("vwxyz"), draws)
    lo, hi = fit.interval()
    assert np.all((lo <= TRUE) & (TRUE <= hi)), (lo, fit.strength, hi)
    assert fit.se[1:] == pytest.approx(0.03, abs=0.01)  # about √2/√(Σ N p (1 − p)): 4 opponents of 2000 games


def test_the_intervals_cover_the_true_strengths_about_95_percent_of_the_time():
    """200 tournaments of 300 games a pair with 20 % draws: the intervals assume a draw varies as a
    coin flip, so with draws they are somewhat wide: coverage at least 93 %, at most 99.5 %."""
    rng = np.random.default_rng(7)
    covered = []
    for _ in range(200):
        wins, draws = _tournament(rng, TRUE, 300, 0.2)
        lo, hi = bradley_terry(wins, list("vwxyz"), draws).interval()
        covered += list((lo[1:] <= TRUE[1:]) & (TRUE[1:] <= hi[1:]))
    assert 0.93 <= np.mean(covered) <= 0.995


def test_a_fighter_that_won_every_duel_gets_one_draw_per_pair_and_a_finite_strength():
    fit = bradley_terry([[0, 50, 40], [0, 0, 20], [0, 30, 0]], NAMES)
    assert fit.prior == 1
    assert np.all(np.isfinite(fit.theta)) and fit.strength[1] < 0.02 and fit.strength[2] < 0.05
    with pytest.raises(ValueError, match="do not all meet"):
        bradley_terry([[0, 3, 0, 0], [2, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]], list("abcd"))
    with pytest.raises(ValueError, match="reference"):
        bradley_terry(HAND, NAMES, reference="D")
    with pytest.raises(ValueError, match="symmetric"):
        bradley_terry(HAND, NAMES, [[0, 1, 0], [0, 0, 0], [0, 0, 0]])


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 5).flatmap(lambda k: st.tuples(
    st.lists(st.lists(st.integers(1, 40), min_size=k, max_size=k), min_size=k, max_size=k),
    st.permutations(list(range(k))))))
def test_permuting_the_fighters_permutes_the_strengths_and_symmetric_tables_are_even(case):
    table, order = case
    w = np.array(table, dtype=float)
    names = [f"f{i}" for i in range(len(w))]
    fit = bradley_terry(w, names)
    perm = bradley_terry(w[np.ix_(order, order)], [names[i] for i in order], reference=names[0])
    assert perm.theta == pytest.approx(fit.theta[order], abs=1e-7)
    even = bradley_terry(w + w.T, names)
    assert even.theta == pytest.approx(0, abs=1e-7)


def test_points_flags_checks_and_the_head_count_exponent():
    assert expected_score(200, 100) == pytest.approx(2 / 3) and expected_score(50, 50) == 0.5
    assert points_flags(np.array([80.0, 100, 130]), np.array([90.0, 90, 90]), np.array([110.0, 110, 110])) == \
        ["underpriced", "", "overpriced"]
    assert check_pairs([100, 150, 90, 210], 2) == [(0, 2), (1, 3)]  # ratios 1.11 and 1.4 the nearest
    # exact matches, the fewest heads first: 100 v 2 × 50, then (100 as the stronger side taken)
    # 150 v 3 × 50 before 2 × 150 v 3 × 100
    assert group_checks([100, 150, 50], 2) == [GroupCheck(0, 1, 2, 2), GroupCheck(1, 1, 2, 3)]
    assert group_checks([100, 101], 2) == []  # no m < k ≤ 6 within 25 %
    # a 1 v 2 fight of 200 against 2 × 100 that scores the points' 50 % implies γ = 1; one scoring
    # as if two counted as four (200 v 400: 1/3) implies γ = 2
    assert head_exponent(0.5, 200, 100, 1, 2) == pytest.approx(1)
    assert head_exponent(1 / 3, 200, 100, 1, 2) == pytest.approx(2)
    assert math.isnan(head_exponent(0.0, 200, 100, 1, 2)) and math.isnan(head_exponent(0.4, 1, 1, 2, 2))
