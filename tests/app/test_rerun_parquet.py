"""Reports that carry their setup (``report --rerun``) and the Parquet exports (``--parquet``)."""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import sys
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from brutal_sim import __version__
from brutal_sim.cli import app
from brutal_sim.report import SETUP_FORMAT, embedded_files, read_setup

pq = pytest.importorskip("pyarrow.parquet")
runner = CliRunner()

#: a scenario whose rules file lies in a sibling folder and names a zone table beside itself, with a
#: fighter file below the scenario's folder: every kind of name a rerun must lay out again
SCENARIO = """
title = "Rerun"
n = 3000
seed = 9
matchups = [["sub/sergeant.toml", "brute"], ["swordsman", "brute"]]
rules = "../shared/rules.toml"

[[variants]]
name = "default"

[[variants]]
name = "protection only"
options = { armour_model = "protection_only" }
"""
RULES = '[options]\nround_cap = 40\nzone_table = "zones.toml"\n'
# every blow lands on the head: a rerun that lost this file would play other duels
ZONES = 'die = 6\n[ranges]\n"1-6" = "head"\n'
SERGEANT = Path(__file__).resolve().parents[2] / "examples" / "sergeant.toml"


def _files(root: Path) -> Path:
    (root / "sc" / "sub").mkdir(parents=True)
    (root / "shared").mkdir()
    scenario = root / "sc" / "s.toml"
    scenario.write_text(SCENARIO)
    (root / "shared" / "rules.toml").write_text(RULES)
    (root / "shared" / "zones.toml").write_text(ZONES)
    shutil.copy(SERGEANT, root / "sc" / "sub" / "sergeant.toml")
    return scenario


def _summary_table(html: str) -> str:
    return re.search(r'<table id="summary"[^>]*>.*?</table>', html, re.S).group(0)


def _links(html: str) -> dict[str, str]:
    """download name → text of each data: link of the page."""
    return {name: base64.b64decode(data).decode() for name, data in
            re.findall(r'download="([^"]+)" href="data:[^;,]+(?:;charset=utf-8)?;base64,([^"]*)"', html)}


def test_a_report_carries_its_setup_and_plays_again_with_identical_tables(tmp_path, monkeypatch):
    scenario = _files(tmp_path / "made")
    first, csv1 = tmp_path / "first.html", tmp_path / "csv1"
    r = runner.invoke(app, ["report", str(scenario), "-o", str(first), "--csv", str(csv1), "-n", "2500"])
    assert r.exit_code == 0, r.output
    html = first.read_text()
    setup = read_setup(str(first))
    assert setup["format"] == SETUP_FORMAT and setup["brutal_sim"] == __version__
    assert setup["scenario"] == {"name": str(scenario), "text": SCENARIO}
    assert setup["files"] == {"sub/sergeant.toml": SERGEANT.read_text(), "../shared/rules.toml": RULES,
                              "../shared/zones.toml": ZONES}
    assert (setup["seed"], setup["n"], setup["target_error"]) == (9, 2500, None)  # the -n played, not the file's
    assert setup["options"]["protection only"]["armour_model"] == "protection_only"
    assert setup["options"]["default"]["round_cap"] == 40
    sergeant = next(f for f in setup["fighters"] if f["name"] == "Sergeant")
    assert sergeant["ruleset"] == "brutal" and sergeant["data"]["tactic"] == "defensive"
    # readable in a collapsed section, each file downloadable from the page
    assert re.search(r'<details id="setup">', html) and html.count("<script>") == 1
    links = _links(html)
    assert links["s.toml"] == SCENARIO and links["zones.toml"] == ZONES and links["rules.toml"] == RULES
    assert json.loads(links["s.setup.json"]) == setup
    assert "Resolved fighters" in html and "<summary>Sergeant (brutal)</summary>" in html

    # on another machine: the original files gone, another current folder
    shutil.rmtree(tmp_path / "made")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    r = runner.invoke(app, ["report", "--rerun", str(first), "-o", "second.html", "--csv", "csv2"])
    assert r.exit_code == 0, r.output
    assert Path.cwd() == elsewhere and sorted(p.name for p in elsewhere.iterdir()) == ["csv2", "second.html"]
    again = (elsewhere / "second.html").read_text()
    assert _summary_table(again) == _summary_table(html)
    names = sorted(p.name for p in csv1.glob("*.csv"))
    assert names == sorted(p.name for p in (elsewhere / "csv2").glob("*.csv")) and "summary.csv" in names
    for name in names:
        assert (elsewhere / "csv2" / name).read_text() == (csv1 / name).read_text(), name
    summary = pd.read_csv(csv1 / "summary.csv")
    assert set(summary[summary["measure"] == "win_rate"]["n"]) == {2500}
    # the head-only zone table was played: no blow lands on the torso or the legs
    wounds = pd.read_csv(csv1 / "wounds.csv")
    zones = wounds.groupby("zone")["count"].sum()
    assert zones["head"] > 0.99 * zones.sum() and zones.get("torso", 0) == zones.get("legs", 0) == 0
    # the rerun's report carries the same setup, under the original scenario's name
    assert {k: v for k, v in read_setup("second.html").items() if k != "brutal_sim"} == \
        {k: v for k, v in setup.items() if k != "brutal_sim"}

    # -n still overrides
    r = runner.invoke(app, ["report", "--rerun", str(first), "-o", "third.html", "--csv", "csv3", "-n", "700"])
    assert r.exit_code == 0, r.output
    summary = pd.read_csv("csv3/summary.csv")
    assert set(summary[summary["measure"] == "win_rate"]["n"]) == {700}


def test_a_rerun_plays_the_target_error_it_was_played_to(tmp_path):
    scenario = tmp_path / "t.toml"
    scenario.write_text('n = 100\nseed = 4\nmatchups = [["militia", "brute"]]\n')
    first = tmp_path / "first.html"
    r = runner.invoke(app, ["report", str(scenario), "-o", str(first), "--csv", str(tmp_path / "c1"),
                            "--target-error", "4", "--max-n", "4000"])
    assert r.exit_code == 0, r.output
    setup = read_setup(str(first))
    assert (setup["target_error"], setup["max_n"]) == (4.0, 4000)
    scenario.unlink()
    r = runner.invoke(app, ["report", "--rerun", str(first), "-o", str(tmp_path / "second.html"),
                            "--csv", str(tmp_path / "c2")])
    assert r.exit_code == 0, r.output
    one, two = (pd.read_csv(tmp_path / c / "summary.csv") for c in ("c1", "c2"))
    n = one[one["measure"] == "win_rate"]["n"]
    assert one.equals(two) and 100 < n.min() and n.max() <= 4000


def test_embedded_files_are_named_as_seen_from_the_scenario(tmp_path, monkeypatch):
    """Files are found beside the file that names them, never in the current folder; names inside
    a rules file are joined to the rules file's own name; catalog names and texts that name no file
    (a title, notes, a variant's name) are not embedded."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("private")
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "r.toml").write_text("[options]\nround_cap = 7\n")  # in the current folder: not read
    (tmp_path / "sc" / "rules").mkdir(parents=True)
    (tmp_path / "sc" / "rules" / "r.toml").write_text('[options]\nzone_table = "../z.toml"\n')
    (tmp_path / "sc" / "z.toml").write_text(ZONES)
    (tmp_path / "sc" / "s.toml").write_text('matchups = [["militia", "brute"]]\nrules = "rules/r.toml"\n'
                                            'title = "s.toml"\nnotes = "notes.txt"\n'
                                            '[[variants]]\nname = "notes.txt"\n')
    assert embedded_files("sc/s.toml") == {"rules/r.toml": (tmp_path / "sc" / "rules" / "r.toml").read_text(),
                                           "z.toml": ZONES}


def _good_setup() -> dict:
    return {"format": SETUP_FORMAT, "format_version": 1, "brutal_sim": __version__,
            "scenario": {"name": "s.toml", "text": 'matchups = [["militia", "brute"]]\n'}, "files": {},
            "seed": 0, "n": 100, "target_error": None, "max_n": 100_000_000}


def _page(setup_json: str) -> str:
    data = base64.b64encode(setup_json.encode()).decode()
    return f'<html><body><a id="brutal-sim-setup" download="s.setup.json" href="data:application/json;base64,{data}">' \
           "setup</a></body></html>"


@pytest.mark.parametrize("page, needle", [
    ("<html><body>no setup here</body></html>", "holds no brutal-sim setup"),
    ('<a id="brutal-sim-setup" href="data:application/json;base64,@@@">', "holds no brutal-sim setup"),
    ('<a id="brutal-sim-setup" href="data:application/json;base64,AAAA">', "malformed: not base64-encoded JSON"),
    (_page("[1, 2]"), "setup.format: malformed"),
    (_page(json.dumps({**_good_setup(), "format_version": 2})), "this brutal_sim reads version 1"),
    (_page(json.dumps({**_good_setup(), "files": {"a.toml": 3}})), "setup.files: malformed"),
    (_page(json.dumps({**_good_setup(), "files": {"a/../b.toml": ""}})), "is not a file name"),
    (_page(json.dumps({**_good_setup(), "scenario": {"name": "s.toml"}})), "setup.scenario: malformed"),
    (_page(json.dumps({**_good_setup(), "n": 0})), "setup.n: malformed"),
    (_page(json.dumps({**_good_setup(), "target_error": "x"})), "setup.target_error: malformed"),
    (_page(json.dumps({**_good_setup(), "set": {"brute": "d10"}})), "setup.set: malformed"),
    (_page(json.dumps({**_good_setup(), "set": {"brut.main_hand.damage": "d10"}})),
     "setup: --set: 'brut' is no fighter of the scenario; allowed: militia, brute"),
])
def test_a_report_without_a_good_setup_is_refused_in_one_line(tmp_path, page, needle):
    old = tmp_path / "old.html"
    old.write_text(page)
    out = tmp_path / "new.html"
    r = runner.invoke(app, ["report", "--rerun", str(old), "-o", str(out), "--csv", str(tmp_path / "csv")])
    assert r.exit_code == 2, r.output
    assert len(r.stderr.strip().splitlines()) == 1 and str(old) in r.stderr and needle in r.stderr, r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.html"]


def test_a_good_handmade_setup_plays(tmp_path):
    old = tmp_path / "old.html"
    old.write_text(_page(json.dumps(_good_setup())))
    r = runner.invoke(app, ["report", "--rerun", str(old), "-o", str(tmp_path / "new.html"), "--csv",
                            str(tmp_path / "csv")])
    assert r.exit_code == 0, r.output
    summary = pd.read_csv(tmp_path / "csv" / "summary.csv")
    assert set(summary[summary["measure"] == "win_rate"]["n"]) == {100}


def test_rerun_arguments_are_checked(tmp_path):
    scenario = tmp_path / "s.toml"
    scenario.write_text('n = 100\nmatchups = [["militia", "brute"]]\n')
    for args, needle in ((["--rerun", str(tmp_path / "none.html")], "report not found"),
                         ([str(scenario), "--rerun", str(tmp_path / "x.html")], "not both"),
                         ([], "give a scenario TOML file, or --rerun")):
        r = runner.invoke(app, ["report", *args, "-o", str(tmp_path / "r.html")])
        assert r.exit_code == 2 and needle in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert not (tmp_path / "r.html").exists()


def _metadata(path: Path) -> dict[str, object]:
    """The file's ``brutal_sim.*`` metadata: texts as they are, the rest decoded from JSON."""
    texts = {"version", "table", "title", "scenario", "ruleset"}
    meta = {k.decode()[len("brutal_sim."):]: v.decode() for k, v in pq.read_schema(path).metadata.items()
            if k.startswith(b"brutal_sim.")}
    return {k: v if k in texts else json.loads(v) for k, v in meta.items()}


def test_parquet_files_carry_the_run_and_equal_the_csv(tmp_path):
    scenario = tmp_path / "p.toml"
    scenario.write_text('title = "Parquet"\nn = 1200\nseed = 21\nmatchups = [["militia", "brute"]]\n'
                        '[[sweeps]]\nname = "axe"\nfighter = "brute"\nopponents = ["militia"]\n'
                        'field = "main_hand.damage"\nvalues = ["d6", "d8"]\n[[variants]]\nname = "plain"\n'
                        '[[variants]]\nname = "cap"\noptions = { round_cap = 20 }\n')
    r = runner.invoke(app, ["report", str(scenario), "-o", str(tmp_path / "r.html"), "--csv", str(tmp_path / "csv"),
                            "--parquet", str(tmp_path / "pq")])
    assert r.exit_code == 0, r.output
    csvs = sorted(p.stem for p in (tmp_path / "csv").glob("*.csv"))
    assert csvs == sorted(p.stem for p in (tmp_path / "pq").glob("*.parquet"))
    assert {"summary", "rounds", "wounds", "differences"} <= set(csvs)
    for name in csvs:
        path = tmp_path / "pq" / f"{name}.parquet"
        frame = pq.read_table(path).to_pandas()
        assert frame.to_csv(index=False) == (tmp_path / "csv" / f"{name}.csv").read_text(), name
        meta = _metadata(path)
        assert meta["table"] == name and meta["version"] == __version__ and meta["title"] == "Parquet"
        assert meta["seed"] == 21 and meta["n"] == 1200 and meta["target_error"] is None
        assert meta["rulesets"] == ["brutal"] and meta["scenario"] == str(scenario)
        assert meta["options"]["cap"]["round_cap"] == 20 and meta["options"]["plain"]["round_cap"] == 100
    summary = pq.read_table(tmp_path / "pq" / "summary.parquet").to_pandas()
    wins = summary[summary["measure"] == "win_rate"]
    assert set(wins["n"]) == {1200} and summary["n"].dtype.kind == "i"


def test_diff_writes_parquet_with_its_metadata(tmp_path):
    r = runner.invoke(app, ["diff", "militia", "brute", "swordsman", "--option-b", "round_cap=20", "-n", "800",
                            "--seed", "3", "--csv", str(tmp_path / "csv"), "--parquet", str(tmp_path / "pq")])
    assert r.exit_code == 0, r.output
    path = tmp_path / "pq" / "diff.parquet"
    assert pq.read_table(path).to_pandas().to_csv(index=False) == (tmp_path / "csv" / "diff.csv").read_text()
    meta = _metadata(path)
    assert meta["table"] == "diff" and meta["ruleset"] == "brutal" and meta["seed"] == 3 and meta["n"] == 800
    assert meta["options_old"]["round_cap"] == 100 and meta["options_new"]["round_cap"] == 20


@pytest.mark.parametrize("command", [["report", "NOSUCH.toml", "-o", "r.html"], ["diff", "militia", "brute"]])
def test_parquet_without_pyarrow_is_refused_before_anything_runs(tmp_path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # import pyarrow raises ImportError
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    r = runner.invoke(app, [*command, "--parquet", "pq"])
    assert r.exit_code == 2, r.output
    assert r.stderr.strip() == "error: --parquet: --parquet needs pip install 'brutal-sim[parquet]'", r.stderr
    assert os.listdir(tmp_path) == []


def test_parquet_and_csv_into_one_folder_is_refused(tmp_path):
    scenario = tmp_path / "s.toml"
    scenario.write_text('n = 100\nmatchups = [["militia", "brute"]]\n')
    r = runner.invoke(app, ["report", str(scenario), "-o", str(tmp_path / "r.html"), "--csv", str(tmp_path / "o"),
                            "--parquet", str(tmp_path / "o")])
    assert r.exit_code == 2 and "name the same folder" in r.stderr, r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.toml"]


def test_the_page_and_the_csv_folder_on_one_path_are_refused(tmp_path, monkeypatch):
    """-o 0 --csv 0 (found by the CLI fuzzing): one line naming both flags, exit 2, nothing created."""
    scenario = tmp_path / "s.toml"
    scenario.write_text('n = 100\nmatchups = [["militia", "brute"]]\n')
    monkeypatch.chdir(tmp_path)
    for args in (["-o", "0", "--csv", "0"], ["-o", "r.html", "--csv", "r.html"], ["-o", "x", "--parquet", "./x"]):
        r = runner.invoke(app, ["report", str(scenario), *args])
        assert r.exit_code == 2 and "name the same path" in r.stderr and "Traceback" not in r.output, r.stderr
        assert len(r.stderr.strip().splitlines()) == 1, r.stderr
        assert sorted(p.name for p in tmp_path.iterdir()) == ["s.toml"]


def test_a_cross_system_report_with_a_rules_file_per_ruleset_plays_again(tmp_path, monkeypatch):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "b.toml").write_text("[options]\nround_cap = 3\n")
    scenario = tmp_path / "x.toml"
    scenario.write_text('n = 400\nseed = 2\nrulesets = ["brutal", "wfrp2e"]\nmatchups = [["swordsman", "brute"]]\n'
                        '[rules]\nbrutal = "rules/b.toml"\n')
    r = runner.invoke(app, ["report", str(scenario), "-o", str(tmp_path / "a.html"), "--csv", str(tmp_path / "c1")])
    assert r.exit_code == 0, r.output
    shutil.rmtree(tmp_path / "rules")
    scenario.unlink()
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, ["report", "--rerun", "a.html", "-o", "b.html", "--csv", "c2"])
    assert r.exit_code == 0, r.output
    one, two = (pd.read_csv(tmp_path / c / "summary.csv") for c in ("c1", "c2"))
    assert one.equals(two) and set(one["variant"]) == {"brutal", "wfrp2e"}
    # the rules file was played: no Brutal duel lasted beyond the cap of 3 rounds
    rounds = pd.read_csv(tmp_path / "c2" / "rounds.csv")
    brutal = rounds[(rounds["variant"] == "brutal") & (rounds["count"] > 0)]
    assert not brutal.empty and brutal["round"].max() <= 3
