"""Rule-version diffs: the round robin under old and new rules, paired, per matchup."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from brutal_sim import api, designer
from brutal_sim.cli import app
from brutal_sim.results.stats import paired_difference
from brutal_sim.run.engine import run_paired_counters

runner = CliRunner()
FIGHTERS = ["swordsman", "brute", "knight"]
#: the stylesheet every page includes (one copy: templates/page.css)
STYLESHEET = (Path(__file__).resolve().parents[2] / "brutal_sim" / "templates" / "page.css").read_text(encoding="utf-8")


def test_cli_diff_gives_a_row_per_matchup_sorted_by_size():
    res = runner.invoke(app, ["diff", "--option-a", "armour_model=marker", "--option-b", "armour_model=protection_only",
                              "--fighters", "swordsman", "brute", "knight", "-n", "20000", "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    rows = d["rows"]
    assert {(r["a"], r["b"]) for r in rows} == {("Swordsman", "Brute"), ("Swordsman", "Knight"), ("Brute", "Knight")}
    sizes = [abs(r["delta"]) for r in rows]
    assert sizes == sorted(sizes, reverse=True)
    for r in rows:
        assert r["delta"] == pytest.approx(r["win_rate_new"] - r["win_rate_old"], abs=1e-12)
        assert r["paired"] and r["ci95"][0] <= r["delta"] <= r["ci95"][1]
        # each version's rate is that of a plain duel of the same seed and n
        old = api.duel(r["a"].lower(), r["b"].lower(), n=20_000, options={"armour_model": "marker"})
        new = api.duel(r["a"].lower(), r["b"].lower(), n=20_000, options={"armour_model": "protection_only"})
        assert (r["win_rate_old"], r["win_rate_new"]) == (old.wins(0) / 20_000, new.wins(0) / 20_000)
    assert d["options_old"]["armour_model"] == "marker" and d["options_new"]["armour_model"] == "protection_only"
    # in the terminal, the page's first finding as a verdict: how many matchups changed beyond noise
    res = runner.invoke(app, ["diff", "--option-a", "armour_model=marker", "--option-b", "armour_model=protection_only",
                              "--fighters", "swordsman", "brute", "knight", "-n", "20000"])
    flagged = sum(r["excludes_zero"] for r in rows)
    assert f"verdict: {flagged} of 3 matchups changed beyond noise" in " ".join(res.stdout.split())


def test_the_paired_interval_is_that_of_the_joint_outcomes():
    d = designer.rule_diff(["swordsman", "knight"], options_new={"armour_model": "protection_only"}, n=10_000, seed=3)
    r = d.rows.iloc[0]

    old = api.prepare("swordsman", "knight")[1].compiled
    new = api.prepare("swordsman", "knight", options={"armour_model": "protection_only"})[1].compiled
    _, joint, _ = run_paired_counters([old, new], 10_000, 3)
    delta, half, _ = paired_difference(joint[0], 10_000)
    assert (r.delta, r.ci_low, r.ci_high) == pytest.approx((delta, delta - half, delta + half), abs=1e-15)
    assert bool(r.excludes_zero) == (not delta - half <= 0 <= delta + half)


def test_no_change_changes_nothing_and_a_new_round_cap_is_not_paired():
    same = designer.rule_diff(FIGHTERS, n=5000, seed=1)
    assert (same.rows.delta == 0).all() and (same.rows.ci_low == 0).all() and not same.rows.excludes_zero.any()
    capped = designer.rule_diff(FIGHTERS, options_new={"round_cap": "3"}, n=5000, seed=1)
    assert not capped.rows.paired.any()  # other counters: two runs of the same duel indices
    assert (capped.rows.delta < 0).all() and capped.rows.excludes_zero.all()  # a cap of 3 rounds turns wins into draws
    assert capped.changed_options == {"round_cap": (100, 3)}


def test_diff_writes_the_page_and_the_table_and_refuses_bad_flags(tmp_path):
    page, table = tmp_path / "diff.html", tmp_path / "csv"
    res = runner.invoke(app, ["diff", "--option-b", "broken_weapon=destroyed", "--fighters", "swordsman", "brute",
                              "-n", "3000", "-o", str(page), "--csv", str(table)])
    assert res.exit_code == 0, res.output
    html = page.read_text()
    assert ("broken_weapon" in html and '<svg role="img" aria-label="changes of the win rates"' in html
            and "Swordsman" in html)
    # a hover value on each bar: the matchup, its change and interval
    assert re.search(r"<title>Swordsman vs Brute: change of the win rate "
                     r"\(percentage points, 95 % interval\) -?[0-9.]+ "
                     r"\(95 % interval -?[0-9.]+ – -?[0-9.]+\)</title>", html)
    assert STYLESHEET in html  # the one stylesheet of every page (templates/page.css)
    assert (table / "diff.csv").read_text().startswith("a,b,win_rate_old,win_rate_new,delta")
    for args, message in ((["--option-a", "armour_mdel=x"], "--option-a: armour_mdel"),
                          (["--rules-b", str(tmp_path / "none.toml")], "--rules-b"),
                          (["--fighters", "swordsmn", "brute"], "did you mean 'swordsman'")):
        out = tmp_path / "never.html"
        res = runner.invoke(app, ["diff", *args, "-n", "100", "-o", str(out)])
        assert res.exit_code == 2 and message in res.output and res.output.count("\n") == 1, res.output
        assert not out.exists()
