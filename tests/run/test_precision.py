"""Runs played to a target error: stages decided from the counters alone, so the same seed and
target give the same n and bits on any threads, chunks or executor, equal to a fixed-n run."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import compiled
from typer.testing import CliRunner

from brutal_sim import api
from brutal_sim.cli import app
from brutal_sim.results.header import rates_half_width
from brutal_sim.results.stats import wilson
from brutal_sim.run.engine import Precision, duel_work, run_duel_counters, run_to_precision
from brutal_sim.run.executor import LocalExecutor

runner = CliRunner()


def test_next_stage_aims_past_the_n_the_half_width_asks_for():
    p = Precision(0.001, max_n=10**8, step=1000)
    # half-width 0.004 after 10,000: (0.004/0.001)² · 10,000 · 1.05 = 168,000 → a multiple of 1000
    assert p.next_n(10_000, 0.004) == 160_000  # capped at 16 × 10,000
    assert p.next_n(100_000, 0.0012) == 152_000  # 100,000 · 1.44 · 1.05 = 151,200 → 152,000
    assert p.next_n(100_000, 0.00101) == 108_000  # 107,121 → 108,000
    assert p.next_n(100_000, 0.0005) == 101_000  # never less than one step more
    assert Precision(0.001, max_n=120_000, step=1000).next_n(100_000, 0.01) == 120_000
    with pytest.raises(ValueError):
        Precision(0.0)


def test_rates_half_width_is_the_widest_wilson_half_width():
    c = compiled("swordsman", "brute")
    counters, _ = run_duel_counters(c, 5000, seed=2)
    L = api.prepare("swordsman", "brute")[0].counters
    wins_a, wins_b, draws = int(counters[L.wins]), int(counters[L.wins + 1]), int(counters[L.draws])
    halves = [(hi - lo) / 2 for lo, hi in (wilson(k, 5000) for k in (wins_a, wins_b, draws))]
    assert rates_half_width(L, counters, 5000) == max(halves)
    assert 0.012 < max(halves) < 0.014  # about 1.96 · √(0.25 / 5000) = 0.0139 near 50 %


@pytest.mark.parametrize("threads,chunk", [(1, 1 << 20), (2, 1 << 20), (2, 3001)])
def test_same_seed_and_target_give_the_same_n_and_bits_as_a_fixed_run(threads, chunk):
    c = compiled("swordsman", "brute")
    L = api.prepare("swordsman", "brute")[0].counters
    prec = Precision(0.006, max_n=10**6, step=4096)
    r = run_to_precision([duel_work(c.kernels.duels, c, 11)], prec,
                         lambda w, totals, n: (rates_half_width(L, totals[0], n), False),
                         executor=LocalExecutor(threads, chunk=chunk))
    n = r.n[0]
    # stages: 4096, then what the half-width after 4096 asks for (and, if short, more)
    assert n > 4096 and n % 4096 == 0 and r.met == [True]
    fixed, _ = run_duel_counters(c, n, seed=11)
    assert np.array_equal(r.totals[0][0], fixed)
    assert r.half_width[0] == rates_half_width(L, fixed, n) <= 0.006
    assert (n, r.totals[0][0].tolist()) == EXPECTED.setdefault("run", (n, r.totals[0][0].tolist()))


EXPECTED: dict[str, tuple[int, list[int]]] = {}


def test_each_work_stops_at_its_own_target():
    """A lopsided matchup (narrow interval) needs fewer duels than an even one for the same target."""
    even, lopsided = compiled("swordsman", "brute"), compiled("knight", "militia")
    L = api.prepare("swordsman", "brute")[0].counters
    prec = Precision(0.004, max_n=10**6, step=2048)
    r = run_to_precision([duel_work(x.kernels.duels, x, 3) for x in (even, lopsided)], prec,
                         lambda w, totals, n: (rates_half_width(L, totals[0], n), False))
    assert r.met == [True, True]
    assert r.n[1] < r.n[0]
    for x, n, totals in zip((even, lopsided), r.n, r.totals):
        assert np.array_equal(totals[0], run_duel_counters(x, n, seed=3)[0])


def test_api_duel_stops_at_max_n_when_the_target_is_out_of_reach():
    r = api.duel("swordsman", "brute", seed=1, target_error=0.05, max_n=30_000)
    assert r.n == 30_000
    assert r.precision["target_met"] is False
    assert r.precision["target_error"] == 0.0005
    assert r.precision["half_width"] > 0.0005
    assert r.to_dict()["target_met"] is False
    with pytest.raises(api.DataError, match="target_error: .*above 0"):
        api.duel("swordsman", "brute", target_error=-1)
    with pytest.raises(api.DataError, match="max_n: "):
        api.duel("swordsman", "brute", target_error=1, max_n=0)


def test_cli_duel_to_a_target_error_reports_it():
    res = runner.invoke(app, ["duel", "swordsman", "brute", "--target-error", "0.1", "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert d["target_met"] is True and d["half_width"] <= 0.001 and d["target_error"] == 0.001
    # a half-width of 0.1 points near 32 % needs about 1.96² · 0.32 · 0.68 / 0.001² ≈ 836,000 duels
    assert 836_000 <= d["n"] <= 1_000_000
    lo, hi = d["a"]["ci95"]
    assert (hi - lo) / 2 <= 0.001


def test_cli_fight_to_a_target_error_prints_the_verdict():
    res = runner.invoke(app, ["fight", "knight", "vs", "militia*2", "--target-error", "2"])
    assert res.exit_code == 0, res.output
    assert "target ±2 points met" in res.stdout


@pytest.mark.parametrize("args,message", [
    (["-n", "5", "--target-error", "1"], "-n: give -n or --target-error, not both"),
    (["--max-n", "5"], "--max-n: needs --target-error"),
    (["--target-error", "0"], "--target-error: target error must be percentage points above 0"),
    (["--target-error", "1", "--max-n", "0"], "--max-n: number of duels must be a positive integer"),
])
def test_cli_precision_errors_are_one_line(args, message):
    res = runner.invoke(app, ["duel", "swordsman", "brute", *args])
    assert res.exit_code == 2
    assert message in res.output and res.output.count("\n") == 1


# -- designer workflows ------------------------------------------------------------------------------

def test_round_robin_cells_each_meet_the_target_and_early_stop_decides_lopsided_pairs():
    from brutal_sim import designer

    full = designer.round_robin(["swordsman", "brute", "knight"], seed=2, target_error=0.3)
    assert all(r.precision["target_met"] and r.precision["half_width"] <= 0.003 for r in full)
    quick = designer.round_robin(["swordsman", "brute", "knight"], seed=2, target_error=0.3, early_stop=True)
    for r, q in zip(full, quick):
        assert q.n <= r.n
        lo, hi = q.to_dict()["a"]["ci95"]
        # stopped early: a's interval excludes 50 %; otherwise it met the target as the full run did
        assert (q.precision["decided"] and not lo <= 0.5 <= hi) or (q.precision["target_met"] and q.n == r.n)
    assert any(q.precision["decided"] for q in quick)  # knight vs swordsman is far from even


def test_tactic_matrix_cells_play_to_the_target_each():
    from brutal_sim import designer

    m = designer.tactic_matrix("swordsman", "brute", ["single", "furious"], ["single"], seed=3, target_error=1.5)
    f = m.frame()
    assert list(f.n) == m.ns.ravel().tolist() and m.n == int(f.n.max())
    assert ((f.ci_high - f.ci_low) / 2 <= 0.015).all()
    fixed = designer.tactic_matrix("swordsman", "brute", ["single", "furious"], ["single"], seed=3, n=int(f.n[0]))
    assert fixed.wins_a[0, 0] == m.wins_a[0, 0]  # the same duels: a cell equals the fixed run of its n


def test_sweep_plays_every_value_on_the_same_duels_to_the_target():
    from brutal_sim import designer

    s = designer.sweep("brute", "swordsman", "checks.melee", [3, 5], seed=4, target_error=1.0)
    n = s.results[0].n
    assert {r.n for r in s.results} == {n} and all(r.precision["half_width"] <= 0.01 for r in s.results)
    fixed = designer.sweep("brute", "swordsman", "checks.melee", [3, 5], seed=4, n=n)
    assert [r.counters.tolist() for r in s.results] == [r.counters.tolist() for r in fixed.results]


def test_adaptive_balance_finds_the_fixed_answer_with_fewer_duels():
    """The best value's interval is as narrow as the target asks; far values stop once their
    interval excludes the target. The fixed-n search with that n gives the same best value."""
    from brutal_sim import designer

    values = list(range(0, 13))
    ad = designer.balance("swordsman", "brute", "checks.melee", values, target=0.5, target_error=0.5, seed=1)
    r, lo, hi = ad.tried[ad.best]
    assert (hi - lo) / 2 <= 0.005
    nbest = ad.played[ad.best]
    fixed = designer.balance("swordsman", "brute", "checks.melee", values, target=0.5, n=nbest, seed=1)
    assert (fixed.best, fixed.bracket) == (ad.best, ad.bracket)
    assert fixed.tried[fixed.best] == ad.tried[ad.best]
    assert ad.duels < fixed.duels and min(ad.played.values()) < nbest


def test_scenario_cells_play_to_the_target_and_the_report_says_so(tmp_path):
    from brutal_sim.scenario import load_scenario, run_scenario

    sc = load_scenario("examples/round_robin.toml", target_error=0.5)
    results = run_scenario(sc)
    assert sc.spec.target_error == 0.5 and all(r.precision["target_met"] for r in results)
    assert all(r.precision["half_width"] <= 0.005 for r in results)
    assert len({r.n for r in results}) > 1  # cells stop at their own n
    first = results[0]
    fixed = run_scenario(load_scenario("examples/round_robin.toml", n=first.n))[0]
    assert np.array_equal(first.counters, fixed.counters)
    out = tmp_path / "r.html"
    res = runner.invoke(app, ["report", "examples/round_robin.toml", "-o", str(out), "--target-error", "0.5"])
    assert res.exit_code == 0, res.output
    ns = sorted({r.n for r in results})
    assert f"{ns[0]:,} – {ns[-1]:,} (to ±0.5 points)" in out.read_text()
    res = runner.invoke(app, ["report", "examples/round_robin.toml", "-o", str(tmp_path / "x.html"), "--max-n", "9"])
    assert res.exit_code == 2 and "--max-n: needs a target error" in res.output
    assert not (tmp_path / "x.html").exists()
