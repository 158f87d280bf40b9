"""The cumulative views of the shared counter header in every ruleset: per side, the rounds in which it
won (``rounds_a``; side b's are ``rounds`` − ``rounds_a``) and, per losing side, how many blows of each
level it took in the duel it lost (``loser_wounds``), and the frames built on them (``decided_by``,
``wounds_at_least``). Exact cases: ``tests/toy`` (a Markov chain), ``tests/brutal/test_groups_api.py``
(a hand-made counter row); duel by duel: the naive references."""

from __future__ import annotations

import numpy as np
import pytest

from brutal_sim import api
from brutal_sim.core.counters import LOSER_WOUNDS_CAP


@pytest.mark.parametrize("ruleset", ["brutal", "wfrp2e", "vereteno"])
def test_per_side_curves_and_loser_wounds_add_up(ruleset):
    n = 20_000
    r = api.duel("swordsman", "brute", n=n, seed=5, ruleset=ruleset, threads=1)
    won = [r.rounds_won_hist(0), r.rounds_won_hist(1)]
    assert r.round_cap == 100 and len(won[0]) == 101
    assert (won[1] >= 0).all() and won[0][0] == won[1][0] == 0
    assert won[0].sum() == r.wins(0) and won[1].sum() == r.wins(1)
    decided = r.wins(0) + r.wins(1)
    assert min(r.wins(0), r.wins(1)) > 1000 and decided + r.draws == n
    frames = r.frames()
    last = frames["decided_by"].groupby("side").tail(1).set_index("side")
    assert last.loc["a", "p_decided_by"] == r.wins(0) / n and last.loc["b", "p_decided_by"] == r.wins(1) / n
    assert last.loc["", "count"] == decided
    by = frames["decided_by"].pivot(index="round", columns="side", values="count")
    assert (by["a"] + by["b"] == by[""]).all() and (np.diff(by.to_numpy(), axis=0) >= 0).all()
    cdf = frames["rounds"].set_index("round")["cdf"]  # the rounds-to-decision CDF of decided duels
    assert np.allclose(by[""] / decided, cdf.reindex(by.index))
    least = frames["wounds_at_least"]
    assert least.loc[least["k"] == 0, "count"].sum() == decided * len(r.c.levels)
    for side, key in ((0, "a"), (1, "b")):
        hist = r.loser_wounds(side)
        assert hist.shape == (len(r.c.levels), LOSER_WOUNDS_CAP + 1)
        assert (hist.sum(axis=1) == r.wins(1 - side)).all()
        # the losses' blows of each level are among all the blows the side took
        assert ((hist[:, :-1] * np.arange(LOSER_WOUNDS_CAP)).sum(axis=1) <= r.wounds_taken(side).sum(axis=1)).all()
        mine = least[least["side"] == key]
        for level, rows in mine.groupby("level", sort=False):
            p = rows["p"].to_numpy()
            assert p[0] == 1.0 and (np.diff(p) <= 0).all(), level
        # a decided loser took at least one blow above level none (none of these fighters flees)
        harmful = hist[1:].sum(axis=0)
        assert hist[1:, 1:].sum() > 0 and harmful[0] < (len(r.c.levels) - 1) * r.wins(1 - side)


def test_group_fights_carry_the_per_side_curves_and_the_losing_sides_blows():
    """docs/groups.md: the losing side's blows are all its fighters' together (a side of three militia
    can take more mortal wounds than one fighter could)."""
    n = 5_000
    r = api.fight(["knight"], ["militia*3"], n=n, seed=4, threads=1)
    assert r.round_cap == 100
    for side in (0, 1):
        assert r.rounds_won_hist(side).sum() == r.wins(side) > 0
        assert (r.loser_wounds(side).sum(axis=1) == r.wins(1 - side)).all()
    frames = r.frames()
    last = frames["decided_by"].groupby("side").tail(1).set_index("side")["p_decided_by"]
    assert last["a"] == r.wins(0) / n and last["b"] == r.wins(1) / n
    least = frames["wounds_at_least"].set_index(["side", "level", "k"])["p"]
    # no militia fled, so each beaten militia side had three fighters put out by blows: at least three
    # blows above level none per loss (here 12.4 on average, light wounds capped at 8)
    assert r.defeats(1)["fled"] == 0 and least["b", "none", 0] == 1.0
    harmful = (r.loser_wounds(1)[1:] * np.arange(LOSER_WOUNDS_CAP + 1)).sum()
    assert 3 * r.wins(0) <= harmful and harmful / r.wins(0) == pytest.approx(12.37, abs=0.01)
    assert least["b", "light", 8] == pytest.approx(665 / 4562) and least["b", "mortal", 1] == pytest.approx(114 / 4562)
