"""The benchmark scripts keep working (benchmarks/README.md): their pieces on tiny samples.

No timing is asserted (machines are shared); the numbers checked are exact: the number of random
draws a duel consumes, and the numpy baseline's counts adding up.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_run_pieces_on_tiny_samples():
    run = _load("run")
    c = run.compiled("swordsman", "brute")
    draws = run.draws_per_duel(c, sample=20)
    # every duel draws its initiative (two 2d6, one draw each) and at least one attack roll
    assert draws >= 3 and draws == int(draws * 20) / 20
    assert run.naive_rate(c, 3) > 0
    assert run.numpy_rate(c, 500) > 0


def test_numpy_duel_counts_add_up():
    nd = _load("numpy_duel")
    c = nd._compiled("militia", "brawler")
    r = nd.run_numpy_duels(c.fighters, c.options, c.tables[0], 2000, 5)
    assert r["wins_a"] + r["wins_b"] + r["draws"] == 2000
    assert np.isfinite(r["mean_rounds"]) and r["mean_rounds"] >= 1
