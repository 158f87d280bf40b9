"""Statistical properties of whole duels that hold exactly by the rules' symmetry or by extremes."""

from __future__ import annotations

import numpy as np
import pytest

from brutal_sim import api


@pytest.mark.parametrize("name", ["swordsman", "brute", "duelist", "brawler"])
def test_mirror_match_is_fair(name):
    """Mirror matches are symmetric under swapping sides (initiative is symmetric): P(a) = P(b)."""
    n = 100_000
    r = api.duel(name, name, n=n, seed=11)
    decided = r.wins(0) + r.wins(1)
    se = np.sqrt(0.25 / decided)
    assert abs(r.wins(0) / decided - 0.5) < 4 * se


def test_overwhelming_fighter_wins_nearly_always(tmp_path):
    hero = tmp_path / "hero.toml"
    hero.write_text('name = "Hero"\nmain_hand = "great_axe"\narmour = ["plate_cuirass", "plate_arms", '
                    '"plate_legs", "great_helm"]\nchecks = { melee = 12, dodge = 10, toughness = 10, resolve = 10 }\n'
                    'attributes = { endurance = 10 }\n')
    r = api.duel(str(hero), "militia", n=20_000, seed=3)
    assert r.wins(0) / r.n > 0.995


def test_counters_are_consistent():
    r = api.duel("swordsman", "brute", n=50_000, seed=4)
    d = r.to_dict()
    assert r.wins(0) + r.wins(1) + r.draws == r.n
    assert r.rounds_hist.sum() == r.wins(0) + r.wins(1)
    assert sum(r.defeats(0).values()) == r.wins(1)
    assert sum(r.defeats(1).values()) == r.wins(0)
    assert r.deaths(0) <= r.defeats(0)["mortal"]
    assert d["a"]["ci95"][0] < d["a"]["win_rate"] < d["a"]["ci95"][1]
    assert d["rounds"]["p50"] <= d["rounds"]["p90"]
