"""Same seed → bit-identical counters for any thread count and block size."""

from __future__ import annotations

import numpy as np
from conftest import compiled

from brutal_sim.run.engine import run_attack_counters, run_duel_counters


def test_threads_and_blocks_do_not_change_results():
    c = compiled("duelist", "knight")
    one, _ = run_duel_counters(c, 20_000, seed=5, threads=1)
    two, _ = run_duel_counters(c, 20_000, seed=5, threads=2)
    small_blocks, _ = run_duel_counters(c, 20_000, seed=5, threads=2, block=777)
    assert np.array_equal(one, two)
    assert np.array_equal(one, small_blocks)
    assert one[:2].sum() + one[2] == 20_000


def test_prefix_of_a_run_is_the_smaller_run():
    """Duel i depends only on (seed, i): the first 1000 duels of a bigger run are the 1000-duel run."""
    c = compiled("swordsman", "brute")
    seen = []
    run_duel_counters(c, 3000, seed=9, block=1000, progress=lambda done, total: seen.append(done))
    small, _ = run_duel_counters(c, 1000, seed=9)
    big_first, _ = run_duel_counters(c, 1000, seed=9, block=250)
    assert seen == [1000, 2000, 3000]
    assert np.array_equal(small, big_first)


def test_different_seeds_differ():
    c = compiled("swordsman", "brute")
    a, _ = run_duel_counters(c, 5000, seed=1)
    b, _ = run_duel_counters(c, 5000, seed=2)
    assert not np.array_equal(a, b)


def test_attack_sampler_is_deterministic_across_threads():
    c = compiled("brute", "swordsman")
    one, _ = run_attack_counters(c, 50_000, seed=3, threads=1)
    two, _ = run_attack_counters(c, 50_000, seed=3, threads=2)
    assert np.array_equal(one, two)
