"""Names are text everywhere: in the terminal (no rich markup, no escape sequences sent), in CSV
(formula prefixes neutralised; Parquet and JSON keep the raw text) and in the HTML of ``report``
and ``diff -o`` (a ``$`` is no mathtext)."""

from __future__ import annotations

import csv
import html as html_lib
import json
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from brutal_sim.cli import app
from brutal_sim.outputs import csv_writer, neutralised

runner = CliRunner()

MARKUP = "[red]x[/red] \x1b[31mred\x1b[0m [bold]b"
FORMULA = '=HYPERLINK("http://example.invalid","x")'
MONEY = "$5 a day, $10"


def fighter(folder: Path, stem: str, name: str) -> Path:
    """A militia spearman under another name."""
    path = folder / f"{stem}.toml"
    path.write_text(f"name = {json.dumps(name)}\nmain_hand = \"spear\"\narmour = [\"gambeson\"]\n"
                    "checks = { melee = 1, dodge = 1, athletics = 1, toughness = 1, resolve = 0, willpower = 0 }\n"
                    "attributes = { endurance = 3, strength = 1, agility = 1 }\n")
    return path


def ok(args: list[str]):
    r = runner.invoke(app, args)
    assert r.exit_code == 0, r.output
    return r


# -- the terminal ----------------------------------------------------------------------------------

def test_markup_and_escape_sequences_in_a_name_print_as_literal_text(tmp_path):
    f = fighter(tmp_path, "odd", MARKUP)
    r = ok(["duel", str(f), "brute", "-n", "50", "--option", "round_cap=5"])
    assert "\x1b" not in r.stdout
    literal = "[red]x[/red] \\x1b[31mred\\x1b[0m [bold]b"
    assert r.stdout.count(literal) >= 2, r.stdout  # the heading and the table's row
    r = ok(["attack", str(f), "brute", "-n", "50"])
    assert "\x1b" not in r.stdout and literal in r.stdout


def test_an_error_quoting_an_escape_sequence_prints_it_as_text(tmp_path):
    r = runner.invoke(app, ["duel", "\x1b[31mbrute[red]", "militia"])
    assert r.exit_code == 2 and "\x1b" not in r.stderr
    assert "'\\x1b[31mbrute[red]'" in r.stderr, r.stderr


# -- CSV -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("value, written", [
    ("=1+1", "'=1+1"), ("+cmd", "'+cmd"), ("-2+3", "'-2+3"), ("@SUM(A1)", "'@SUM(A1)"), ("\tx", "'\tx"),
    ("\rx", "'\rx"), ("-1", "-1"), ("+0.5", "+0.5"), ("1e-3", "1e-3"), ("plain", "plain"), ("a=b", "a=b"),
    (-1.5, -1.5), (None, None),
])
def test_neutralised(value, written):
    assert neutralised(value) == written


def test_csv_writer_neutralises_text_columns_only(tmp_path):
    frame = pd.DataFrame({"name": [FORMULA, "Brute", "-1"], "rate": [-0.5, 0.25, 1.0]})
    csv_writer(frame)(tmp_path / "t.csv")
    rows = list(csv.DictReader((tmp_path / "t.csv").open()))
    assert [r["name"] for r in rows] == ["'" + FORMULA, "Brute", "-1"]
    assert [r["rate"] for r in rows] == ["-0.5", "0.25", "1.0"]
    assert frame["name"][0] == FORMULA  # the frame itself is untouched


def test_report_csv_neutralises_names_and_parquet_keeps_them(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    fighter(tmp_path, "f", FORMULA)
    fighter(tmp_path, "g", "@attack")
    (tmp_path / "s.toml").write_text('n = 50\nmatchups = [["f.toml", "g.toml"]]\noptions = { round_cap = 5 }\n'
                                     '[[sweeps]]\nfighter = "f.toml"\nfield = "checks.melee"\nvalues = [-1, 2]\n')
    ok(["report", "s.toml", "-o", "r.html", "--csv", "c", "--parquet", "p"])
    rows = list(csv.DictReader((tmp_path / "c" / "summary.csv").open()))
    assert {r["fighter"] for r in rows} - {""} == {"'" + FORMULA, "'@attack"}  # '': the draws
    assert {r["matchup"] for r in rows} == {f"'{FORMULA} vs @attack"}
    assert {r["value"] for r in rows} == {"", "-1", "2"}  # plain numbers as text are no formula
    raw = pd.read_parquet(tmp_path / "p" / "summary.parquet")
    assert set(raw["fighter"]) - {""} == {FORMULA, "@attack"} and set(raw["matchup"]) == {f"{FORMULA} vs @attack"}
    r = ok(["duel", "f.toml", "g.toml", "-n", "20", "--option", "round_cap=5", "--json"])
    assert json.loads(r.stdout)["a"]["name"] == FORMULA


# -- HTML: report and diff -o, end to end ---------------------------------------------------------

def test_a_dollar_name_goes_through_report_and_diff_as_literal_text(tmp_path, monkeypatch):
    """``$5 a day, $10`` as a fighter's name: ``report`` and ``diff -o`` finish (no mathtext parse
    error after the duels) and the page shows the name as written."""
    monkeypatch.chdir(tmp_path)
    fighter(tmp_path, "money", MONEY)
    (tmp_path / "s.toml").write_text('n = 50\nmatchups = [["money.toml", "brute"]]\noptions = { round_cap = 5 }\n'
                                     f'[[variants]]\nname = "{MONEY} variant"\n')
    ok(["report", "s.toml", "-o", "r.html"])
    page = html_lib.unescape((tmp_path / "r.html").read_text())
    assert MONEY in page and f"{MONEY} variant" in page
    ok(["diff", "money.toml", "brute", "--option-b", "round_cap=6", "--option-a", "round_cap=5", "-n", "50",
        "-o", "d.html", "--csv", "dc"])
    page = html_lib.unescape((tmp_path / "d.html").read_text())
    assert MONEY in page
    rows = list(csv.DictReader((tmp_path / "dc" / "diff.csv").open()))
    assert MONEY in {rows[0]["a"], rows[0]["b"]}
