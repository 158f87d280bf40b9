"""WFRP 2e: same seed → bit-identical counters for any thread count and block size; paired runs
equal separate runs."""

from __future__ import annotations

import numpy as np
from wfrp2e_util import prepared

from brutal_sim.run.engine import run_attack_counters, run_duel_counters, run_paired_counters


def test_threads_and_blocks_do_not_change_results():
    c = prepared("duelist", "swordsman", crit_model="table", crit_table="example").compiled
    one, _ = run_duel_counters(c, 20_000, seed=5, threads=1)
    two, _ = run_duel_counters(c, 20_000, seed=5, threads=2)
    small, _ = run_duel_counters(c, 20_000, seed=5, threads=2, block=777)
    assert np.array_equal(one, two) and np.array_equal(one, small)
    assert one[:3].sum() == 20_000
    other, _ = run_duel_counters(c, 20_000, seed=6, threads=2)
    assert not np.array_equal(one, other)


def test_attack_sampler_is_deterministic_across_threads():
    c = prepared("knight", "orc").compiled
    one, _ = run_attack_counters(c, 50_000, seed=3, threads=1)
    two, _ = run_attack_counters(c, 50_000, seed=3, threads=2, block=999)
    assert np.array_equal(one, two)


def test_paired_runs_equal_separate_runs():
    cells = [prepared("orc", "goblin").compiled, prepared("orc", "goblin", fury_confirm="none").compiled,
             prepared("orc", "goblin", strike_mighty_blow="plus1").compiled]
    totals, joint, _ = run_paired_counters(cells, 5000, seed=8, threads=2)
    for cell, total in zip(cells, totals):
        alone, _ = run_duel_counters(cell, 5000, seed=8, threads=1)
        assert np.array_equal(alone, total)
    assert joint.shape == (2, 3, 3) and joint.sum() == 2 * 5000
