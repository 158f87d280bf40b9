"""Ratings and suggested points (``designer.rate``, ``brutal-sim rate``): Bradley–Terry strengths of
played duels, points proportional to strength, the checks of the points by play. Brutal duels only
(no group-fight kernels are compiled here: ``group_checks=0``); the fit's math is checked in
``tests/results/test_ratings_math.py``."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from brutal_sim import api, designer
from brutal_sim.cli import app
from brutal_sim.core.errors import DataError
from brutal_sim.results.ratings import bradley_terry
from brutal_sim.results.stats import wilson

runner = CliRunner()
TRIO = ["swordsman", "brute", "knight"]
N = 4000


@pytest.fixture(scope="module")
def rated() -> designer.Ratings:
    return designer.rate(TRIO, n=N, seed=3, group_checks=0, points={"brute": 120, "knight": 500})


def test_the_round_robin_is_plain_duels_and_the_fit_is_bradley_terry_of_their_counts(rated):
    """Each pair's counts are those of ``api.duel`` on the same seed; the strengths are the fit of
    those counts (a draw half a win), the swordsman (the first fighter) 1 and 100 points."""
    names = {"swordsman": "Swordsman", "brute": "Brute", "knight": "Knight"}
    pairs = rated.pairs.set_index(["a", "b"])
    wins = np.zeros((3, 3))
    draws = np.zeros((3, 3))
    for i, a in enumerate(TRIO):
        for j, b in enumerate(TRIO[i + 1:], i + 1):
            r = api.duel(a, b, n=N, seed=3)
            row = pairs.loc[(names[a], names[b])]
            assert (row.wins_a, row.wins_b, row.draws, row.n) == (r.wins(0), r.wins(1), r.draws, N)
            wins[i, j], wins[j, i], draws[i, j], draws[j, i] = r.wins(0), r.wins(1), r.draws, r.draws
    fit = bradley_terry(wins, [names[f] for f in TRIO], draws)
    f = rated.frame().set_index("fighter")
    for name, strength in zip(fit.names, fit.strength):
        assert f.loc[name, "strength"] == pytest.approx(strength, rel=1e-12)
        assert f.loc[name, "suggested_points"] == pytest.approx(100 * strength, rel=1e-12)
    assert rated.reference == "Swordsman" and f.loc["Swordsman", "se"] == 0
    assert list(rated.frame().fighter) == ["Knight", "Brute", "Swordsman"]  # strongest first
    # the brute beats the swordsman about 2 in 3 (README's matchup): about twice as strong
    assert 1.6 < f.loc["Brute", "strength"] < 2.4 and f.loc["Knight", "strength"] > 4
    assert (f.ci_low <= f.strength).all() and (f.strength <= f.ci_high).all()


def test_the_points_check_plays_new_duels_and_they_come_out_as_the_points_promise(rated):
    """Three fighters, three check pairs, on the next seed (duels the fit has not seen): each
    pair's score within the stated tolerance (5 points) of the score its points promise,
    p_a / (p_a + p_b)."""
    c = rated.checks
    assert len(c) == 3 and set(c.kind) == {"duel"} and rated.tolerance == 0.05
    for row in c.itertuples():
        assert row.expected == pytest.approx(row.points_a / (row.points_a + row.points_b))
        assert abs(row.score - row.expected) <= 0.05, row
        assert row.even and row.ci_low <= row.score <= row.ci_high and row.n == N
    first = c.iloc[0]
    refs = {"Swordsman": "swordsman", "Brute": "brute", "Knight": "knight"}
    again = api.duel(refs[first.a], refs[first.b], n=N, seed=4)
    assert (first.wins_a, first.wins_b, first.draws) == (again.wins(0), again.wins(1), again.draws)


def test_given_points_give_efficiency_and_flags(rated):
    """The brute at 120 points is below its suggested points' interval (about 200): underpriced; the
    knight at 500 lies above or below its own interval as the duels say; the swordsman, given no
    points, has none."""
    f = rated.frame().set_index("fighter")
    assert f.loc["Brute", "flag"] == "underpriced"
    assert f.loc["Brute", "efficiency"] == pytest.approx(100 * f.loc["Brute", "score"] / 120)
    knight = f.loc["Knight"]
    assert knight.flag == ("underpriced" if 500 < knight.points_low else "overpriced" if 500 > knight.points_high
                           else "")
    assert np.isnan(f.loc["Swordsman", "points"]) and f.loc["Swordsman", "flag"] == ""
    d = rated.to_dict()
    assert {x["name"]: x["flag"] for x in d["fighters"]}["Brute"] == "underpriced"
    json.dumps(d, allow_nan=False)  # a fighter without given points: null, not NaN
    assert {x["name"]: x["points"] for x in d["fighters"]}["Swordsman"] is None
    ax = rated.figure().axes[0]  # strongest at the top, the points beside
    assert [t.get_text() for t in ax.get_yticklabels()] == ["Swordsman", "Brute", "Knight"]
    assert "100 pts" in [t.get_text() for t in ax.texts]
    assert "Strongest: Knight" in rated._repr_html_()
    gaps = (rated.pairs.score_a - rated.pairs.expected_a).abs()
    assert rated.misfits(1).gap.abs().iloc[0] == gaps.max() and len(rated.misfits(5)) == 3


def test_each_pair_plays_to_a_target_error():
    r = designer.rate(TRIO, seed=2, checks=0, group_checks=0, target_error=2.0)
    assert r.precision == {"target_error": 0.02, "target_met": True}
    for row in r.pairs.itertuples():  # each pair's win rates within ±2 points
        for wins in (row.wins_a, row.wins_b):
            lo, hi = wilson(wins, row.n)
            assert (hi - lo) / 2 <= 0.02


def test_a_gauntlet_plays_each_fighter_against_the_pool_only():
    r = designer.rate(["swordsman", "brute"], pool=["militia", "duelist"], n=1000, seed=1, checks=0,
                      group_checks=0, reference="militia", reference_points=10)
    assert sorted(zip(r.pairs.a, r.pairs.b)) == sorted([("Swordsman", "Militia spearman"), ("Swordsman", "Duelist"),
                                                       ("Brute", "Militia spearman"), ("Brute", "Duelist")])
    assert r.pool == ["Militia spearman", "Duelist"] and len(r.frame()) == 4 and r.checks.empty
    f = r.frame().set_index("fighter")
    assert f.loc["Militia spearman", "suggested_points"] == 10 and f.loc["Brute", "suggested_points"] > 10


def test_a_gauntlet_of_fighter_objects_and_in_a_scenario(tmp_path):
    """Fighters given as loaded objects rate as their catalog names do, and a scenario's
    ``[[rate]]`` with ``against`` plays as ``designer.rate(pool=…)``; a pool that holds only the
    fighter rated has no pair to play."""
    by_name = designer.rate(["brute", "knight"], pool=["brute"], n=1000, seed=3, checks=0, group_checks=0)
    objects = [api.load_fighter(name) for name in ("brute", "knight")]
    by_object = designer.rate(objects, pool=objects[:1], n=1000, seed=3, checks=0, group_checks=0)
    assert by_name.pairs.equals(by_object.pairs) and len(by_name.pairs) == 1
    with pytest.raises(DataError, match="no pair to play"):
        designer.rate(objects[:1], pool=objects[:1], n=10)
    path = tmp_path / "s.toml"
    path.write_text(RATE_SCENARIO.format(body='[[rate]]\nfighters = ["brute", "knight"]\nagainst = ["brute"]\n'
                                              'checks = 0\ngroup_checks = 0\n').replace("n = 4000", "n = 1000"))
    r = runner.invoke(app, ["report", str(path), "-o", str(tmp_path / "r.html"), "--csv", str(tmp_path / "csv")])
    assert r.exit_code == 0, r.output
    frame = pd.read_csv(tmp_path / "csv" / "ratings.csv")
    assert frame["suggested_points"].tolist() == pytest.approx(by_name.rows["suggested_points"].tolist())


@pytest.mark.parametrize("kwargs, message", [
    (dict(fighters=["swordsman"]), "at least two"),
    (dict(fighters=["swordsman", "brute"], reference="knight"), "reference: 'knight' is not among"),
    (dict(fighters=["swordsman", "brute"], reference_points=-5), "reference_points: must be a positive"),
    (dict(fighters=["swordsman", "brute", "swordsman"]), "fighters[2]: the same fighter"),
    (dict(fighters=["swordsman", "brute"], points={"brute": -1}), "points must be a positive"),
    (dict(fighters=["swordsman", "brute"], points={"ghoul": 5}), "'ghoul' is not among"),
    (dict(fighters=["swordsman"], pool=["nobody"]), "unknown fighter 'nobody'"),
])
def test_bad_arguments_are_refused_before_any_duel(kwargs, message):
    with pytest.raises(DataError, match=None) as exc:
        designer.rate(**kwargs, n=10)
    assert message in str(exc.value)


def test_cli_rate_table_json_and_csv(tmp_path):
    csv = tmp_path / "ratings.csv"
    res = runner.invoke(app, ["rate", *TRIO, "-n", "3000", "--group-checks", "0", "--given", "brute=120",
                              "--csv", str(csv)])
    assert res.exit_code == 0, res.output
    text = " ".join(res.stdout.split())
    assert "verdict: Strongest: Knight" in text and "Swordsman = 100" in text and "underpriced" in text
    assert "Checks by play (seed 1)" in text
    lines = csv.read_text().splitlines()
    assert lines[0].startswith("fighter,strength,ci_low,ci_high") and len(lines) == 4
    res = runner.invoke(app, ["rate", *TRIO, "-n", "3000", "--group-checks", "0", "--reference", "brute",
                              "--points", "50", "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert d["reference"] == "Brute" and d["reference_points"] == 50 and d["ruleset"] == "brutal"
    by = {f["name"]: f for f in d["fighters"]}
    assert by["Brute"]["suggested_points"] == 50 and by["Swordsman"]["suggested_points"] < 50
    assert len(d["pairs"]) == 3 and len(d["checks"]) == 3 and {"chi2", "df"} <= set(d["fit"])


@pytest.mark.parametrize("args, message", [
    (["swordsman", "brute", "--against", "nobody"], "error: --against: unknown fighter 'nobody'"),
    (["swordsman", "brute", "--reference", "knight"], "error: --reference: 'knight' is not among"),
    (["swordsman"], "error: fighter: rate needs at least two fighters"),
    (["swordsman", "brute", "--points", "-5"], "error: --points: the reference's points must be a positive"),
    (["swordsman", "brute", "--given", "brute=-3"], "error: --given: 'brute=-3': write NAME=POINTS"),
])
def test_cli_refusals_are_one_line_and_write_nothing(tmp_path, args, message):
    csv = tmp_path / "r.csv"
    res = runner.invoke(app, ["rate", *args, "-n", "500", "--csv", str(csv)])
    assert res.exit_code == 2 and res.output.startswith(message) and res.output.count("\n") == 1, res.output
    assert not csv.exists()


RATE_SCENARIO = """title = "rate"
n = 4000
seed = 3
fighters = ["swordsman", "brute", "knight"]
{body}
"""


def test_a_scenario_rates_its_fighters(tmp_path):
    """``[[rate]]`` plays as ``designer.rate`` with the scenario's seed and n (its fighters the
    scenario's, the reference and given points by reference); its answer is the report's first key
    finding and a section; ``--csv`` writes ``ratings.csv``."""
    path = tmp_path / "s.toml"
    path.write_text(RATE_SCENARIO.format(body='[[rate]]\nreference = "brute"\npoints = 50\ngroup_checks = 0\n'
                                              'given = { knight = 500 }\n'))
    out = tmp_path / "r.html"
    r = runner.invoke(app, ["report", str(path), "-o", str(out), "--csv", str(tmp_path / "csv")])
    assert r.exit_code == 0, r.output
    want = designer.rate(TRIO, n=N, seed=3, group_checks=0, reference="Brute", reference_points=50,
                         points={"Knight": 500})
    assert f"key finding: {want.verdict()}" in r.stdout
    html = out.read_text()
    assert "Ratings and suggested points (round robin)" in html and 'data-frame="ratings"' in html
    frame = pd.read_csv(tmp_path / "csv" / "ratings.csv")
    assert frame["suggested_points"].tolist() == pytest.approx(want.rows["suggested_points"].tolist())
    assert frame.set_index("fighter").loc["Brute", "suggested_points"] == pytest.approx(50)


@pytest.mark.parametrize("body, field", [
    ('[[rate]]\nreference = "nosuch"\n', "rate[0].reference"),
    ('[[rate]]\nreference = "militia"\n', "rate[0].reference"),  # a fighter, but not one rated
    ('[[rate]]\ngiven = { militia = 40 }\n', "rate[0].given"),
    ('[[rate]]\nfighters = ["knight"]\n', "rate[0].fighters"),
    ('[[rate]]\npoints = 0\n', "rate[0].points"),
    ('[[rate]]\nagainst = ["nosuch"]\n', "rate[0].against[0]"),
    ('[[rate]]\nfighters = ["brute", "knight", "brute"]\n', "rate[0].fighters[2]"),
    ('[[rate]]\nfighters = ["brute"]\nagainst = ["brute"]\n', "rate[0].against"),
])
def test_bad_rate_entries_in_a_scenario(tmp_path, body, field):
    path = tmp_path / "s.toml"
    path.write_text(RATE_SCENARIO.format(body=body))
    r = runner.invoke(app, ["report", str(path), "-o", str(tmp_path / "r.html")])
    assert r.exit_code == 2 and field in r.output and len(r.output.strip().splitlines()) == 1, r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.toml"]
