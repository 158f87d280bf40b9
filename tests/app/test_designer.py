"""Designer workflows: fighter variants, the tactic matrix, auto-balance."""

from __future__ import annotations

import numpy as np
import pytest

from brutal_sim import api
from brutal_sim.core.errors import DataError
from brutal_sim.designer import balance, tactic_matrix


def test_fighter_variants():
    s = api.load_fighter("swordsman")
    assert s.with_weapon(damage="d10").main_hand.damage == "d10"
    assert s.with_weapon("off_hand", "buckler").off_hand.parry_bonus == 1
    assert s.with_checks(melee=5).checks.melee == 5 and s.checks.melee == 3  # a copy
    assert [t.name for t in s.with_talent("tough_as_nails").talents] == ["shield_master", "tough_as_nails"]
    assert s.without_talent("shield_master").talents == []
    assert s.vary(main_hand__damage__bonus=2).main_hand.damage == "d8+2"
    assert s.vary(armour__0__protection=5).armour[0].protection == 5
    assert s.with_tactic("aimed:head").tactic_text == "aimed:head"
    with pytest.raises(DataError, match="die size"):
        s.with_weapon(damage="d7")
    with pytest.raises(DataError, match="no field 'sharpness'"):
        s.vary(main_hand__sharpness=3)
    # a variant plays like the same fighter written in a file
    r1 = api.duel(s.with_checks(melee=5), "brute", n=5000, seed=3)
    r2 = api.duel(s.vary(checks__melee=5), "brute", n=5000, seed=3)
    assert np.array_equal(r1.counters, r2.counters)


def test_tactic_matrix_best_responses_and_maximin():
    m = tactic_matrix("duelist", "brute", tactics_a=["single", "feint", "total_defence"],
                      tactics_b=["single", "furious", "total_defence"], n=3000, seed=1)
    assert m.rate_a.shape == (3, 3)
    # total defence against total defence: nobody attacks, every duel is a draw (B-3.7, B-2.9)
    assert m.wins_a[2, 2] == 0 and m.wins_b[2, 2] == 0
    for i, ca in enumerate(m.choices_a):
        assert m.best_response_b()[ca] == m.choices_b[int(np.argmax(m.rate_b[i]))]
    choice, worst = m.maximin_a()
    assert worst == pytest.approx(max(m.rate_a.min(axis=1)))
    assert choice != "total_defence"  # it never wins
    f = m.frame()
    assert len(f) == 9 and (f.ci_low <= f.win_rate_a).all() and (f.win_rate_a <= f.ci_high).all()
    assert "<table" in m._repr_html_()


def test_balance_brackets_the_target():
    b = balance("brute", "swordsman", "main_hand.damage.bonus", values=range(-4, 5), target=0.5, n=8000, seed=2)
    rates = {v: r for v, (r, _, _) in b.tried.items()}
    lo, hi = b.bracket
    assert hi == lo + 1
    assert rates[lo] < 0.5 <= rates[hi]  # more damage, more wins
    assert abs(rates[b.best] - 0.5) == min(abs(r - 0.5) for r in rates.values())
    assert len(b.tried) <= 6  # bisection, not a full sweep of 9 values


def test_balance_bad_input():
    with pytest.raises(DataError, match="target"):
        balance("brute", "swordsman", "checks.melee", values=[1, 2], target=1.5)
    with pytest.raises(DataError, match="no field 'melle'"):
        balance("brute", "swordsman", "checks.melle", values=[1, 2], n=100)


def test_results_show_as_small_tables_in_jupyter():
    r = api.duel("swordsman", "brute", n=2000, seed=1)
    html = r._repr_html_()
    assert html.startswith("<table>") and "Swordsman" in html and f"{r.wins(0):,}" in html
    a = api.attack("brute", "swordsman")._repr_html_()
    assert "hard block" in a and "<table>" in a


def test_sweep_and_round_robin_from_python():
    from brutal_sim.designer import round_robin, sweep
    from brutal_sim.results.frames import summary_frame
    from brutal_sim.results.plots import matchup_matrix_figure

    s = sweep("brute", "swordsman", "main_hand.damage", ["d8", "d10", "d12"], n=5000, seed=4)
    rates = [r.wins(0) / r.n for r in s.results]
    assert rates[0] < rates[1] < rates[2]
    same = api.duel("brute", "swordsman", n=5000, seed=4)  # d12 is the brute's own axe
    assert np.array_equal(s.results[2].counters, same.counters)
    d = s.differences[s.differences.side == "a"]
    assert d.difference.tolist() == pytest.approx([rates[1] - rates[0], rates[2] - rates[1]])
    assert s.figure().axes and "<table" in s._repr_html_()
    rr = round_robin(["militia", "swordsman", "brute"], n=2000, seed=1)
    assert [r.labels["matchup"] for r in rr] == ["Militia spearman vs Swordsman", "Militia spearman vs Brute",
                                                 "Swordsman vs Brute"]
    assert matchup_matrix_figure(summary_frame(rr)).axes


def test_with_talent_refuses_a_talent_the_fighter_has():
    with pytest.raises(DataError, match="already has this talent"):
        api.load_fighter("swordsman").with_talent("shield_master")


def test_duel_labels_name_runs_in_frames():
    from brutal_sim.results.frames import summary_frame
    from brutal_sim.results.plots import sweep_figure

    rs = [api.duel(api.load_fighter("brute").with_weapon(damage=d), "swordsman", n=2000, seed=1,
                   labels={"sweep": "axe", "value": d}) for d in ("d8", "d12")]
    s = summary_frame(rs)
    assert set(s.value) == {"d8", "d12"} and set(s.matchup) == {"Brute vs Swordsman"}
    fig = sweep_figure(s, x_label="axe damage")  # picks the value column by itself
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == ["d8", "d12"]
