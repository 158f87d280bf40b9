"""Common random numbers: paired runs and the intervals of differences."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import compiled
from test_report import EXAMPLES

from brutal_sim.results.stats import paired_difference
from brutal_sim.run.engine import run_duel_counters, run_paired_counters
from brutal_sim.scenario import load_scenario, run_scenario


def test_paired_runs_equal_separate_runs_and_count_joint_outcomes():
    cells = [compiled("brute", "swordsman"), compiled("brute", "swordsman", {"armour_model": "protection_only"}),
             compiled("militia", "swordsman")]
    totals, joint, _ = run_paired_counters(cells, 20_000, seed=7, block=6000)
    for c, t in zip(cells, totals):
        alone, _ = run_duel_counters(c, 20_000, seed=7)
        assert np.array_equal(alone, t)
    for j in range(2):
        assert joint[j].sum() == 20_000
        assert joint[j].sum(axis=1)[0] == totals[j][0] and joint[j].sum(axis=0)[0] == totals[j + 1][0]
        assert joint[j].sum(axis=1)[2] == totals[j][2]  # draws


def test_paired_runs_do_not_depend_on_threads():
    cells = [compiled("duelist", "knight"), compiled("duelist", "knight", {"margin_against": "max(base,reaction)"})]
    one = run_paired_counters(cells, 10_000, seed=3, threads=1)
    two = run_paired_counters(cells, 10_000, seed=3, threads=2)
    assert all(np.array_equal(a, b) for a, b in zip(one[0], two[0])) and np.array_equal(one[1], two[1])


def test_sweep_differences_are_sharper_than_independent_runs():
    sc = load_scenario(str(EXAMPLES / "axe_sweep.toml"), n=20_000)
    results = run_scenario(sc)
    d = sc.differences
    a = d[(d.side == "a") & (d.sweep == "axe damage") & (d.variant == "marker (default)")]
    assert list(zip(a["from"], a["to"])) == [("d6", "d8"), ("d8", "d10"), ("d10", "d12")]
    rate = {r.labels["value"]: r.wins(0) / r.n for r in results
            if r.labels["sweep"] and r.labels["variant"] == "marker (default)"}
    for _, row in a.iterrows():
        assert row.difference == pytest.approx(rate[row["to"]] - rate[row["from"]], abs=1e-12)
        assert row.ci_low < row.difference < row.ci_high
        # replaying the same duels makes the difference more precise than two independent runs
        assert row.variance_ratio > 1.2
        assert (row.ci_high - row.ci_low) / 2 < row.halfwidth_independent
    # the variant comparison of the plain matchup is paired too
    assert ((d.sweep == "") & (d["from"] == "marker (default)") & (d["to"] == "protection only")).sum() == 2


def _paired_and_unpaired_half_widths(cells, n: int, seed: int) -> tuple[float, float, list[np.ndarray]]:
    """95 % half-widths of side a's win-rate difference between two cells: from the joint outcomes
    of a paired run, and as two independent runs would give them."""
    totals, joint, _ = run_paired_counters(cells, n, seed=seed, threads=1)
    _, paired, unpaired = paired_difference(joint[0], n, 0)
    return paired, unpaired, totals


@pytest.mark.parametrize("ruleset, a, b, near, far", [
    ("brutal", "swordsman", "brute", "0", "1"),  # B-8: 0 engaged (no ranged kernels), 1 apart
    ("vereteno", "swordsman", "brute", "1", "2"),  # V-10.6: 1 point blank (the melee kernels), 2 apart
])
def test_a_paired_step_across_point_blank_keeps_common_random_numbers(ruleset, a, b, near, far):
    """A ``start_distance`` step from point blank to apart pairs cells of two kernel sets: both play
    the set at a distance (the union), so every duel draws the same numbers in both cells; each
    cell's counters equal its own run, and the paired interval of the step is narrower than two
    independent runs'."""
    from brutal_sim.core.ruleset import get_ruleset

    rs = get_ruleset(ruleset)
    cells = [rs.prepare(a, b, options={"start_distance": d}).compiled for d in (near, far)]
    assert not cells[0].kernels.variant.ranged and cells[1].kernels.variant.ranged
    n = 4000
    paired, unpaired, totals = _paired_and_unpaired_half_widths(cells, n, seed=5)
    for c, t in zip(cells, totals):
        alone, _ = run_duel_counters(c, n, seed=5, threads=1)
        assert np.array_equal(alone, t)
    assert paired < 0.95 * unpaired
