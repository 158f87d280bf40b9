"""Scenario files and one-file HTML reports."""

from __future__ import annotations

import base64
import gzip
import re
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from brutal_sim import report
from brutal_sim.cli import app
from brutal_sim.core.errors import DataError
from brutal_sim.results import findings
from brutal_sim.results.frames import summary_frame
from brutal_sim.rulesets.brutal import layout as L
from brutal_sim.scenario import load_scenario, run_scenario

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
runner = CliRunner()
#: the stylesheet every page includes (one copy: templates/page.css)
STYLESHEET = (Path(__file__).resolve().parents[2] / "brutal_sim" / "templates" / "page.css").read_text(encoding="utf-8")

SMALL = """
title = "Small test"
notes = "Three fighters, a variant and a sweep."
n = 3000
seed = 5
fighters = ["militia", "swordsman", "brute"]
round_robin = true

[[variants]]
name = "default"

[[variants]]
name = "protection only"
options = { armour_model = "protection_only" }

[[sweeps]]
name = "shield"
fighter = "swordsman"
field = "off_hand.parry_bonus"
values = [0, 2, 4]
opponents = ["brute"]
"""


def test_example_scenarios_load():
    rr = load_scenario(str(EXAMPLES / "round_robin.toml"))
    assert len(rr.cells) == 15 and rr.spec.round_robin
    sweep = load_scenario(str(EXAMPLES / "axe_sweep.toml"))
    assert [c.value for c in sweep.cells if c.sweep] == ["d6", "d6", "d8", "d8", "d10", "d10", "d12", "d12"]
    assert {c.variant for c in sweep.cells} == {"marker (default)", "protection only"}


def test_sweep_changes_the_field_and_shares_random_numbers(tmp_path):
    f = tmp_path / "s.toml"
    f.write_text(SMALL)
    sc = load_scenario(str(f))
    assert len(sc.cells) == 3 * 2 + 3 * 2
    parry = [int(c.compiled.fighters[0, L.P_WEAPONS + L.SLOT_OFF * L.WN + L.W_PARRY_BONUS])
             for c in sc.cells if c.sweep]
    assert parry == [0, 0, 2, 2, 4, 4]
    results = run_scenario(sc)
    frame = summary_frame(results)
    base = frame[(frame.sweep == "") & (frame.matchup == "Swordsman vs Brute") & (frame.variant == "default")
                 & (frame.measure == "win_rate") & (frame.side == "a")]
    same = frame[(frame.sweep == "shield") & (frame.value == "2") & (frame.variant == "default")
                 & (frame.measure == "win_rate") & (frame.side == "a")]
    # the swept value equal to the catalog's (heater shield +2) replays the very same duels
    assert base.estimate.item() == same.estimate.item()


def test_report_is_self_contained_and_matches_the_frames(tmp_path, monkeypatch):
    f = tmp_path / "s.toml"
    f.write_text(SMALL)
    out = tmp_path / "out" / "report.html"
    csv = tmp_path / "csv"
    monkeypatch.setattr(findings, "SHOWN", 2)  # the key findings beyond SHOWN are folded
    r = runner.invoke(app, ["report", str(f), "-o", str(out), "--csv", str(csv)])
    assert r.exit_code == 0, r.output
    html = out.read_text()
    start = html.index('<section class="findings"')
    box = html[start:html.index("</section>", start)]
    shown, folded = box.split('<details class="more">')
    # the sweep under two variants (read in full, then the other counted), the round robin, the variant
    assert shown.count("<li>") == 2 and folded.count("<li>") == 2 and "<summary>2 more findings</summary>" in folded
    assert not re.search(r'(src|href)\s*=\s*"(?!data:|#)', html), "external reference in the report"
    assert "<link" not in html and not re.search(r"<script[^>]*\bsrc\b", html)  # inline only
    assert html.count("<script>") == 1  # the tables' script (templates/tables.js), nothing fetched
    assert html.count("<style>") == 1 and STYLESHEET in html  # the one stylesheet (templates/page.css)
    # sections by value: those the key findings rest on in the findings' order (the sweep's chart, the
    # round robin's matrix among the plots, the variants' paired differences), then the summary table
    order = ["sweeps-section", "plots", "differences-section", "summary-section", "fighters", "rule-options",
             "setup-section"]
    assert re.findall(r'<h2 id="([^"]+)"', html) == order
    toc = html[html.index('<nav class="toc"'):html.index("</nav>")]
    assert re.findall(r'href="#([^"]+)"', toc) == ["key-findings", *order]
    imgs = re.findall(r'<svg role="img" aria-label="([^"]+)" class="plot"', html)
    assert "Win rates" in imgs and any(t.startswith("Matchup matrix") for t in imgs)
    assert any(t.startswith("Sweep: shield") for t in imgs) and "Rounds to decision" in imgs
    summary = pd.read_csv(csv / "summary.csv", keep_default_na=False)
    wins = summary[(summary.measure == "win_rate")]
    shown = [float(x) for x in re.findall(r'<td data-value="([0-9.e-]+)">', html)]
    # the plain matchups a sweep plays as they are show once, as the sweep's rows (the frame keeps both)
    same = html.count("(as it is)</td>")
    assert len(wins) == 2 * 12 and same >= 1 and len(shown) == len(wins) - 2 * same
    assert set(round(x, 12) for x in shown) <= set(round(x, 12) for x in wins.estimate)
    for name in ("Militia spearman", "Swordsman", "Brute", "armour_model", "protection_only", "Reproduce"):
        assert name in html
    assert (csv / "rounds.csv").exists() and (csv / "wounds.csv").exists()
    by = pd.read_csv(csv / "decided_by.csv", keep_default_na=False)
    plain_cells = by[by.sweep == ""][["matchup", "variant"]].drop_duplicates()
    assert "Decided by round" in imgs and len(plain_cells) <= report.MAX_CURVE_CELLS
    last = by.groupby(["matchup", "variant", "sweep", "value", "side"], sort=False).tail(1)
    merged = last[last.side != ""].merge(wins, on=["matchup", "variant", "sweep", "value", "side"])
    assert len(merged) == len(wins) and (merged.p_decided_by == merged.estimate).all()  # at the end: the win rates
    # every tidy frame embedded (gzip, base64) as --csv writes it, behind the CSV links of the tables and the data line
    embedded = dict((m[0], m[2]) for m in re.findall(
        r'<script type="application/gzip" id="frame-([a-z_]+)" data-rows="(\d+)">([^<]+)</script>', html))
    assert set(embedded) == {p.stem for p in csv.glob("*.csv")} >= {"summary", "rounds", "decided_by", "differences"}
    for name, data in embedded.items():
        assert gzip.decompress(base64.b64decode(data)).decode() == (csv / f"{name}.csv").read_text(), name
    assert '<table id="summary" class="data" data-frame="summary">' in html
    assert re.findall(r'<a class="frame" data-frame="([a-z_]+)"', html) == list(embedded)
    least = pd.read_csv(csv / "wounds_at_least.csv", keep_default_na=False)
    assert (least[least.k == 0].p == 1.0).all() and set(least.k) == set(range(9))


@pytest.mark.parametrize("text,needle", [
    ('fighters = ["militia", "brutee"]\nround_robin = true\n',
     "fighters[1]: unknown fighter 'brutee'; did you mean 'brute'"),
    ('matchups = [["militia", "brute"]]\noptions = { armour = "x" }\n', "options.armour: unknown rule option"),
    ('matchups = [["militia", "brute"]]\n[[variants]]\nname = "v"\noptions = { margin_against = "x" }\n',
     "variants[0].options.margin_against: unknown value"),
    ('matchups = [["militia", "brute"]]\ncolour = "red"\n', "colour: unknown field; allowed: title"),
    ('matchups = [["militia", "brute"]]\n[[sweeps]]\nfighter = "brute"\nfield = "main_hand.sharpness"\nvalues = [1]\n',
     "sweeps[0]: field: 'main_hand.sharpness': no field 'sharpness'; allowed here: name"),
    ('matchups = [["militia", "brute"]]\n[[sweeps]]\nfighter = "brute"\nfield = "main_hand.damage"\nvalues = ["d7"]\n',
     "main_hand.damage: die size"),
    ('matchups = [["militia", "brute"]]\nn = 0\n', "n: Input should be greater than 0"),
    ('n = 10\n', "nothing to run"),
    ('matchups = [["militia"]]\n', "matchups"),
])
def test_bad_scenarios_exit_2_and_write_nothing(tmp_path, text, needle):
    f = tmp_path / "bad.toml"
    f.write_text(text)
    out = tmp_path / "r.html"
    r = runner.invoke(app, ["report", str(f), "-o", str(out)])
    assert r.exit_code == 2, r.output
    assert str(f) in r.stderr and needle in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert not out.exists() and not list(tmp_path.glob(".r.html*"))


def test_missing_scenario_and_bad_n(tmp_path):
    r = runner.invoke(app, ["report", str(tmp_path / "none.toml"), "-o", str(tmp_path / "r.html")])
    assert r.exit_code == 2 and "file not found" in r.stderr
    r = runner.invoke(app, ["report", str(EXAMPLES / "axe_sweep.toml"), "-o", str(tmp_path / "r.html"), "-n", "0"])
    assert r.exit_code == 2 and "-n" in r.stderr


def test_load_scenario_errors_are_data_errors(tmp_path):
    f = tmp_path / "x.toml"
    f.write_text('round_robin = true\nfighters = ["militia"]\n')
    with pytest.raises(DataError, match="round_robin: needs at least two fighters"):
        load_scenario(str(f))


def test_a_duel_result_converts_to_tidy_frames():
    from brutal_sim import api

    r = api.duel("swordsman", "brute", n=4000, seed=2)
    frames = r.frames()
    s = frames["summary"]
    wins = s[s.measure == "win_rate"].set_index("side").estimate
    assert wins["a"] == r.wins(0) / r.n and wins["b"] == r.wins(1) / r.n
    assert frames["rounds"]["count"].sum() == r.wins(0) + r.wins(1)
    taken = frames["wounds"].query("direction == 'taken' and side == 'a'")["count"].sum()
    assert taken == r.wounds_taken(0).sum()
    by = frames["decided_by"]
    assert by.groupby("side")["count"].max().to_dict() == {"": r.wins(0) + r.wins(1), "a": r.wins(0), "b": r.wins(1)}
    least = frames["wounds_at_least"]
    assert least.query("k == 0")["count"].sum() == (r.wins(0) + r.wins(1)) * 6  # every decided duel, each level


def test_small_previews_and_zero_counts_render(tmp_path):
    """Rows with a count of 0 (draws) have exact interval ends and plot without negative bars."""
    from brutal_sim.results.stats import wilson

    assert wilson(0, 1000) == (0.0, pytest.approx(0.00383, abs=1e-5)) and wilson(0, 1000)[0] == 0.0
    assert wilson(1000, 1000)[1] == 1.0
    out = tmp_path / "r.html"
    r = runner.invoke(app, ["report", str(EXAMPLES / "axe_sweep.toml"), "-o", str(out), "-n", "1000"])
    assert r.exit_code == 0, r.output
    assert out.exists()
    one = tmp_path / "one.toml"  # one cell: "1 cell", not "1 cells"
    one.write_text('n = 200\nmatchups = [["militia", "brute"]]\n')
    r = runner.invoke(app, ["report", str(one), "-o", str(tmp_path / "one.html")])
    assert r.exit_code == 0, r.output
    assert '<p class="meta">1 cell × 200 duels · seed' in (tmp_path / "one.html").read_text()
    fights = tmp_path / "fights.toml"  # group fights only: no "0 cells"
    fights.write_text('n = 200\n[[fights]]\na = ["knight"]\nb = ["militia*2"]\n')
    r = runner.invoke(app, ["report", str(fights), "-o", str(tmp_path / "fights.html")])
    assert r.exit_code == 0, r.output
    assert '<p class="meta">1 group fight × 200 fights · seed' in (tmp_path / "fights.html").read_text()


@pytest.mark.parametrize("flag", ["-o", "--csv"])
def test_unwritable_outputs_fail_before_running(tmp_path, flag):
    blocker = tmp_path / "afile"
    blocker.write_text("")
    args = ["report", str(EXAMPLES / "axe_sweep.toml"), "-n", "10"]
    args += ["-o", str(blocker / "r.html")] if flag == "-o" else ["-o", str(tmp_path / "r.html"), "--csv", str(blocker)]
    r = runner.invoke(app, args)
    expected = f"{blocker} is not a folder" if flag == "-o" else f"{blocker} is a file; give a folder"
    assert r.exit_code == 2 and f"{flag}: " in r.stderr and expected in r.stderr, r.stderr
    assert r.stderr.count("\n") == 1
    assert "cell 1/" not in r.stderr  # nothing ran
    assert not (tmp_path / "r.html").exists()


def test_scenario_with_missing_rules_file(tmp_path):
    f = tmp_path / "s.toml"
    f.write_text('matchups = [["militia", "brute"]]\nrules = "nosuch.toml"\n')
    with pytest.raises(DataError, match="rules: rules file 'nosuch.toml' not found"):
        load_scenario(str(f))


def test_cross_system_report(tmp_path):
    """One scenario runs matched archetypes under every ruleset and reports
    lethality side by side; each cell equals a direct run of that ruleset with the same seed."""
    from brutal_sim import api

    out = tmp_path / "cross.html"
    csv = tmp_path / "csv"
    r = runner.invoke(app, ["report", str(EXAMPLES / "cross_system.toml"), "-o", str(out), "--csv", str(csv),
                            "-n", "3000"])
    assert r.exit_code == 0, r.output
    html = out.read_text()
    imgs = re.findall(r'<svg role="img" aria-label="([^"]+)" class="plot"', html)
    assert "Lethality by ruleset" in imgs
    assert sum(t.startswith("Matchup matrix") for t in imgs) == 3  # one per ruleset
    assert len(re.findall(r'<table id="options', html)) == 3 and "<th class=\"l\">ruleset</th>" in html
    summary = pd.read_csv(csv / "summary.csv", keep_default_na=False)
    assert set(summary.variant) == {"brutal", "wfrp2e", "vereteno"}
    # the findings read every ruleset: the round robin over all 18 matchups, and how lethal each is
    assert "Most balanced of 18 matchups across brutal, wfrp2e, vereteno:" in html
    assert re.search(r"How lethal: a decided duel ends in the loser&#39;s death in \d+\.\d % under brutal, "
                     r"\d+\.\d % under wfrp2e, \d+\.\d % under vereteno;", html)
    assert len(summary[summary.measure == "one_blow_share"]) == 3 * 6
    for ruleset in ("wfrp2e", "vereteno"):
        direct = api.duel("swordsman", "brute", n=3000, seed=2026, ruleset=ruleset)
        row = summary[(summary.variant == ruleset) & (summary.matchup == "Swordsman vs Brute")
                      & (summary.measure == "win_rate") & (summary.side == "a")]
        assert int(row["count"].iloc[0]) == direct.wins(0)


SET_SCENARIO = """
title = "Set test"
n = 2000
seed = 9
matchups = [["brute", "swordsman"]]

[[sweeps]]
name = "axe"
fighter = "brute"
field = "main_hand.damage"
values = ["d6"]
opponents = ["swordsman"]
"""


def _win_rates(html: str) -> list[float]:
    return [float(x) for x in re.findall(r'<td data-value="([0-9.e-]+)">', html)]


def test_report_set_changes_a_fighter_of_the_scenario_is_echoed_and_replayed(tmp_path):
    f = tmp_path / "s.toml"
    f.write_text(SET_SCENARIO)
    plain, changed, again = (tmp_path / f"{k}.html" for k in ("plain", "changed", "again"))
    assert runner.invoke(app, ["report", str(f), "-o", str(plain)]).exit_code == 0
    r = runner.invoke(app, ["report", str(f), "-o", str(changed), "--set", "brute.main_hand.damage=d6"])
    assert r.exit_code == 0, r.output
    # rows: the matchup's a and b, then the sweep cell's (axe d6); the same seed and duel indices
    before, after = _win_rates(plain.read_text()), _win_rates(changed.read_text())
    assert before[:2] != before[2:]  # the catalog's great axe is d12, not d6
    # --set gave the brute of the matchup the d6 of the sweep: the very same duels, one row "as it is"
    html = changed.read_text()
    assert before[2:] == after and "axe = d6 (as it is)" in html
    assert "<code>brute.main_hand.damage=d6</code>" in html.split('<nav')[0]  # echoed under the title
    assert report.read_setup(str(changed))["set"] == {"brute.main_hand.damage": "d6"}
    r = runner.invoke(app, ["report", "--rerun", str(changed), "-o", str(again)])
    assert r.exit_code == 0, r.output
    assert (_win_rates(again.read_text()) == after
            and report.read_setup(str(again))["set"] == {"brute.main_hand.damage": "d6"})


@pytest.mark.parametrize("flag,needle", [
    ("brut.main_hand.damage=d6", "error: --set: 'brut' is no fighter of the scenario; allowed: brute, swordsman"),
    ("brute.main_hand.damag=d6", "error: --set brute: field: 'main_hand.damag': no field 'damag'"),
    ("brute=d6", "error: --set: 'brute=d6': write FIGHTER.PATH=VALUE"),
])
def test_report_set_refuses_a_bad_target_in_one_line_and_writes_nothing(tmp_path, flag, needle):
    f = tmp_path / "s.toml"
    f.write_text(SET_SCENARIO)
    out = tmp_path / "r.html"
    r = runner.invoke(app, ["report", str(f), "-o", str(out), "--set", flag])
    assert r.exit_code == 2 and r.output.startswith(needle) and r.output.count("\n") == 1, r.output
    assert not out.exists() and not list(tmp_path.glob(".r.html*"))


def test_a_batch_is_named_by_what_changes_and_the_baseline_shows_once(tmp_path):
    """The progress line names a batch of cells played together by what changes along it (a sweep's
    values, a matchup's variants), not by its first cell; the plain matchup that the sweep also plays
    as it is (the brute's own d12) is one row of the summary table, marked "as it is"."""
    from brutal_sim.scenario import load_scenario, run_scenario

    sc = load_scenario("examples/axe_sweep.toml", n=500)
    labels = []
    results = run_scenario(sc, progress=lambda done, total, label: labels.append(label))
    assert "Brute vs Swordsman [marker (default)] axe damage = d6 … d12, 4 values" in labels
    assert "Brute vs Swordsman under 2 variants: marker (default) … protection only" in labels
    html = report.render_report(sc, results, "test")
    summary = html[html.index('id="summary-section"'):html.index("</table>", html.index('id="summary-section"'))]
    assert summary.count("<tr>") == 1 + 8  # the header, four values under two variants; no plain rows
    assert summary.count("axe damage = d12 (as it is)") == 2 and "axe damage = d10 (as it is)" not in summary
