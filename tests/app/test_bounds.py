"""Untrusted input is parsed within bounds: the nesting depth of TOML files and of a report's setup
JSON, the size of each file read, the length of names, and the number of cells a scenario expands
into (counted before any is built). Each bound is one line naming the file, the field and the
limit, exit code 2, and nothing written."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from brutal_sim import __version__, report, scenario
from brutal_sim.cli import app
from brutal_sim.core.data import parse_toml
from brutal_sim.core.errors import DataError
from brutal_sim.core.limits import MAX_DEPTH, MAX_FILE_BYTES, MAX_NAME, check_toml_nesting, size_text
from brutal_sim.core.variants import stat_steps
from brutal_sim.report import SETUP_FORMAT, find_setup, read_setup
from brutal_sim.scenario import estimated_cells, load_scenario, read_spec
from brutal_sim.scenario.spec import question_cells, weights_cells

runner = CliRunner()
EXAMPLES = Path(__file__).parents[2] / "examples"


def refused(args: list[str], *needles: str) -> str:
    """Run the CLI: exit 2 with one short line ``error: …`` holding every needle; that line."""
    r = runner.invoke(app, args)
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert r.exit_code == 2, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    assert "Traceback" not in r.output
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def page(setup_json: str, before: str = "") -> str:
    data = base64.b64encode(setup_json.encode()).decode()
    return (f'<html>{before}<a id="brutal-sim-setup" download="s.setup.json" '
            f'href="data:application/json;base64,{data}">setup</a></html>')


def setup_of(text: str, **extra: object) -> dict:
    return {"format": SETUP_FORMAT, "format_version": 1, "brutal_sim": __version__,
            "scenario": {"name": "s.toml", "text": text}, "files": {}, "seed": 0, "n": 20,
            "target_error": None, "max_n": 100_000_000, **extra}


# -- nesting depth ---------------------------------------------------------------------------------

DEEP = 500


@pytest.mark.parametrize("text, field", [
    (f"description = {'[' * DEEP}{']' * DEEP}\n", "description"),
    (f"checks = {'{ a = ' * DEEP}1{' }' * DEEP}\n", "checks"),
    ("x" + ".x" * DEEP + " = 1\n", "x." + ".".join(["x"] * (MAX_DEPTH - 1))),
    ("[" + ".".join(["t"] * DEEP) + "]\n", "t." + ".".join(["t"] * (MAX_DEPTH - 1))),
])
def test_deep_fighter_file_is_one_line(tmp_path, text, field):
    """Arrays, inline tables, dotted keys and table headers nested ~500 deep (a RecursionError in
    the TOML parser, or later in validation): one line naming the file, the key and the limit."""
    f = tmp_path / "deep.toml"
    f.write_text('name = "Deep"\n' + text)
    refused(["duel", str(f), "brute", "-n", "10"], f"{f}: {field}: nested deeper than {MAX_DEPTH} levels",
            f"allowed: at most {MAX_DEPTH}")


def test_deep_scenario_and_rules_files_are_one_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    s = tmp_path / "s.toml"
    s.write_text(f'matchups = [["militia", "brute"]]\nnotes = {"[" * DEEP}{"]" * DEEP}\n')
    refused(["report", str(s), "-o", "r.html"], f"{s}: notes: nested deeper than {MAX_DEPTH}")
    r = tmp_path / "r.toml"
    r.write_text(f"[options]\nround_cap = {'[' * DEEP}{']' * DEEP}\n")
    refused(["duel", "militia", "brute", "--rules", str(r), "-n", "10"], str(r), f"at most {MAX_DEPTH}")
    s.write_text('matchups = [["militia", "brute"]]\nrules = "r.toml"\n')
    refused(["report", str(s), "-o", "r.html"], f"at most {MAX_DEPTH}")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.toml", "s.toml"]


def test_deep_setup_json_is_one_line(tmp_path, monkeypatch):
    """A report whose setup JSON nests 5,000 deep (a RecursionError in the JSON parser), or whose
    embedded scenario does: one line naming the report; nothing written."""
    monkeypatch.chdir(tmp_path)
    deep = json.dumps(setup_of('n = 20\nmatchups = [["militia", "brute"]]\n'))[:-1] + ', "x": ' + "[" * 5000 + \
        "]" * 5000 + "}"
    (tmp_path / "old.html").write_text(page(deep))
    refused(["report", "--rerun", "old.html", "-o", "new.html"], "old.html: setup: nested deeper than 32")
    inner = setup_of(f'n = 20\nmatchups = [["militia", "brute"]]\nnotes = {"[" * DEEP}{"]" * DEEP}\n')
    (tmp_path / "old2.html").write_text(page(json.dumps(inner)))
    refused(["report", "--rerun", "old2.html", "-o", "new.html"], "notes: nested deeper than 32")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.html", "old2.html"]


def test_nesting_scan_skips_strings_and_comments():
    """Brackets inside strings (of every kind) and comments are no nesting; the parsed data agrees."""
    text = ('a = "[[[[\\"[[[["  # [[[[[[[[\n'
            "b = '[[[[[['\n"
            'c = """[[[[\n[[[[\\"""[[[["""\n'
            "d = '''[[[[\n[[[['''\n"
            'e = [[1], [2, [3]]]\n')
    assert parse_toml(text, "t")["e"] == [[1], [2, [3]]]
    check_toml_nesting(text, "t", limit=3)
    with pytest.raises(DataError, match="e: nested deeper than 2"):
        check_toml_nesting(text, "t", limit=2)


# -- the setup locator -----------------------------------------------------------------------------

def test_the_setup_locator_uses_no_regular_expression():
    """The locator is a left-to-right scan with str.find (linear in the page's length): the module
    holds no compiled pattern to backtrack over a crafted page."""
    assert not any(isinstance(v, re.Pattern) for v in vars(report).values())
    assert "re" not in vars(report)


SETUP = json.dumps(setup_of('n = 20\nmatchups = [["militia", "brute"]]\n'))
MB = 1024 * 1024


@pytest.mark.parametrize("junk", [
    '<a id="brutal-sim-setup" ' * (MB // 8),  # the tag opened again and again, never closed
    "<a " * MB,
    '<a id="brutal-sim-setup" href="data:application/json;base64,' + "A" * (3 * MB),
    "<a " + "x" * (3 * MB),
    "<abbr" * MB + ">",
    '<a href="data:application/json;base64,' + "QUFB" * MB + '" id="brutal-sim-sets">',
])
def test_the_setup_locator_on_multi_megabyte_crafted_pages(tmp_path, junk):
    """Pages of several MB made to make a backtracking pattern take hours: found or refused in one
    pass; before the real link they hide nothing and after it they change nothing."""
    assert find_setup(junk) is None
    good = base64.b64encode(SETUP.encode()).decode()
    assert find_setup(page(SETUP, before=junk.replace("<a id=", "<a data-x=") + ">")) == good
    f = tmp_path / "junk.html"
    f.write_text(junk)
    refused(["report", "--rerun", str(f), "-o", str(tmp_path / "new.html")], "holds no brutal-sim setup")


def test_the_setup_locator_reads_only_its_link():
    good = base64.b64encode(SETUP.encode()).decode()
    link = f'href="data:application/json;base64,{good}"'
    assert find_setup(f'<a\nid="brutal-sim-setup"\n{link}>') == good
    assert find_setup(f'<a {link} download="x" id="brutal-sim-setup">') == good
    assert find_setup(f'<abbr id="brutal-sim-setup" {link}>') is None
    assert find_setup(f'<a data-id="brutal-sim-setup" {link}>') is None
    assert find_setup(f'<a id="brutal-sim-setup" data-{link}>') is None
    assert find_setup('<a id="brutal-sim-setup" href="data:application/json;base64,QUF!">') is None
    two = f'<a id="other" {link}><a id="brutal-sim-setup" href="data:application/json;base64,e30=">'
    assert find_setup(two) == "e30="


# -- file sizes ------------------------------------------------------------------------------------

def big(path: Path, head: str) -> Path:
    path.write_text(head + 'description = "' + "x" * (MAX_FILE_BYTES + 10) + '"\n')
    return path


def test_oversized_fighter_scenario_and_rules_files_are_one_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    f = big(tmp_path / "huge.toml", 'name = "Huge"\n')
    refused(["duel", str(f), "brute", "-n", "10"], f"{f}: the file is more than 2.0 MiB; allowed: at most 2.0 MiB")
    s = tmp_path / "s.toml"
    s.write_text('n = 20\nmatchups = [["huge.toml", "brute"]]\n')
    refused(["report", str(s), "-o", "r.html"], "huge.toml: the file is", "allowed: at most 2.0 MiB")
    s.write_text('n = 20\nmatchups = [["militia", "brute"]]\nnotes = "' + "x" * (3 * MB) + '"\n')
    refused(["report", str(s), "-o", "r.html"], f"{s}: the file is 3.0 MiB; allowed: at most 2.0 MiB")
    r = tmp_path / "r.toml"
    r.write_text("[options]\nround_cap = 9\n# " + "x" * (3 * MB) + "\n")
    refused(["duel", "militia", "brute", "--rules", str(r), "-n", "10"], "the file is 3.0 MiB")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["huge.toml", "r.toml", "s.toml"]


def test_an_oversized_report_is_one_line(tmp_path, monkeypatch):
    monkeypatch.setattr(report, "MAX_REPORT_BYTES", 1000)
    old = tmp_path / "old.html"
    old.write_text(page(SETUP, before="x" * 2000))
    refused(["report", "--rerun", str(old), "-o", str(tmp_path / "new.html")],
            f"{old}: the report is {size_text(old.stat().st_size)}; allowed: at most 1,000 bytes")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.html"]


# -- names -----------------------------------------------------------------------------------------

LONG = "n" * 100_000


def test_a_long_fighter_name_is_one_short_line(tmp_path):
    f = tmp_path / "long.toml"
    f.write_text(f'name = "{LONG}"\n')
    line = refused(["duel", str(f), "brute", "-n", "10"],
                   f"{f}: name: a name of 100,000 characters; allowed: at most {MAX_NAME}")
    assert len(line) < 300


def test_a_long_weapon_name_is_one_short_line(tmp_path):
    f = tmp_path / "w.toml"
    f.write_text(f'name = "W"\nmain_hand = {{ name = "{LONG}", damage = "d6" }}\n')
    line = refused(["duel", str(f), "brute", "-n", "10"], "main_hand.name: a name of 100,000 characters")
    assert len(line) < 300


@pytest.mark.parametrize("tail, field", [
    (f'[[variants]]\nname = "{LONG}"\n', "variants[0].name"),
    (f'[[sweeps]]\nname = "{LONG}"\nfighter = "militia"\nfield = "attributes.strength"\nvalues = [1, 2]\n',
     "sweeps[0].name"),
    (f'[[fights]]\nlabel = "{LONG}"\na = ["militia"]\nb = ["brute"]\n', "fights[0].label"),
])
def test_long_variant_sweep_and_fight_names_are_one_short_line(tmp_path, monkeypatch, tail, field):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.toml").write_text('n = 20\nmatchups = [["militia", "brute"]]\n' + tail)
    line = refused(["report", "s.toml", "-o", "r.html"], f"s.toml: {field}: ")
    assert str(MAX_NAME) in line and len(line) < 300
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.toml"]


def test_a_long_unknown_name_is_cut_in_the_message(tmp_path):
    line = refused(["duel", "x" * 1_000_000, "brute", "-n", "10"], "unknown fighter", "(1,000,002 characters)")
    assert len(line) < 1_500


# -- the size of a scenario ------------------------------------------------------------------------

@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.toml")))
def test_the_estimate_is_the_number_of_cells(example):
    path = str(EXAMPLES / example)
    try:
        sc = load_scenario(path)
    except DataError:
        pytest.skip(f"{example} is not a scenario")
    runs = len(sc.spec.rulesets) or max(len(sc.spec.variants), 1)
    asked = runs * question_cells(sc.spec)  # the designer's questions, counted from the file
    assert estimated_cells(sc.spec) == sc.n_runs + len(sc.weight_jobs) * weights_cells() + asked
    for job in sc.weight_jobs:  # a stat-weights entry plays each stat's steps and its baseline: within the estimate
        steps = stat_steps(job.a, job.ruleset.adjustable)
        assert 0 < len(steps) + len({path for path, _, _ in steps}) <= weights_cells()


def test_the_estimate_counts_sweeps_round_robins_and_variants(tmp_path):
    s = tmp_path / "s.toml"
    s.write_text('fighters = ["a", "b", "c", "d"]\nround_robin = true\nmatchups = [["a", "x"], ["y", "a"]]\n'
                 '[[variants]]\nname = "one"\n[[variants]]\nname = "two"\n'
                 '[[sweeps]]\nfighter = "a"\nfield = "f"\nvalues = [1, 2, 3]\n'
                 '[[sweeps]]\nfighter = "b"\nfield = "f"\nvalues = [1, 2]\nopponents = ["c"]\n'
                 '[[fights]]\na = ["a"]\nb = ["b"]\n')
    # 6 pairs + 2 matchups + 3 values × 5 opponents of a + 2 × 1 + 1 fight, under 2 variants
    assert estimated_cells(read_spec(str(s))) == 2 * (6 + 2 + 15 + 2 + 1)


def test_a_huge_scenario_is_refused_before_its_cells_are_built(tmp_path, monkeypatch):
    """200,001 cells: refused in one line with the estimate and the limit, before one cell is
    built (building them took minutes and gigabytes)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(scenario.load, "_add_cell", lambda *a, **k: pytest.fail("a cell was built"))
    monkeypatch.setattr(scenario.load, "_Fighters", lambda *a, **k: pytest.fail("fighters were loaded"))
    (tmp_path / "s.toml").write_text('n = 20\nmatchups = [["militia", "brute"]]\n[[sweeps]]\nfighter = "militia"\n'
                                     f'field = "attributes.strength"\nvalues = {list(range(200_000))}\n')
    refused(["report", "s.toml", "-o", "r.html"], "s.toml: about 200,001 cells",
            "allowed: at most 10,000 cells, or more with --force")
    fighters = [f"f{i}" for i in range(200)]
    (tmp_path / "s.toml").write_text(f"n = 20\nround_robin = true\nfighters = {fighters}\n".replace("'", '"'))
    refused(["report", "s.toml", "-o", "r.html"], "about 19,900 cells")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.toml"]


def test_force_runs_a_scenario_over_the_limit(tmp_path, monkeypatch):
    """With the limit at 1 cell: two cells are refused, and run with --force after the size note."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(scenario, "MAX_CELLS", 1)
    (tmp_path / "s.toml").write_text('n = 20\nmatchups = [["militia", "brute"], ["brute", "militia"]]\n'
                                     "options = { round_cap = 5 }\n")
    refused(["report", "s.toml", "-o", "r.html"], "about 2 cells", "at most 1 cells")
    assert not (tmp_path / "r.html").exists()
    r = runner.invoke(app, ["report", "s.toml", "-o", "r.html", "--force"])
    assert r.exit_code == 0, r.output
    assert read_setup("r.html")["n"] == 20


def test_the_size_is_told_before_the_cells_are_built(tmp_path):
    """The estimate comes from the file alone: it is told even when a fighter then fails to load."""
    told: list[int] = []
    sweep = '[[sweeps]]\nfighter = "militia"\nfield = "attributes.strength"\nvalues = [1, 2, 3]\n'
    (tmp_path / "bad.toml").write_text('n = 20\nmatchups = [["militia", "no_such_fighter"]]\n' + sweep)
    with pytest.raises(DataError, match="no_such_fighter"):
        load_scenario(str(tmp_path / "bad.toml"), on_size=told.append)
    assert told == [4]  # before any fighter was loaded or any cell built
    (tmp_path / "s.toml").write_text('n = 20\nmatchups = [["militia", "brute"]]\n' + sweep)
    sc = load_scenario(str(tmp_path / "s.toml"), on_size=told.append)
    assert told == [4, 4] and len(sc.cells) == 4
    with pytest.raises(DataError, match="about 4 cells"):
        load_scenario(str(tmp_path / "s.toml"), max_cells=3)
    assert len(load_scenario(str(tmp_path / "s.toml"), max_cells=None).cells) == 4


def test_a_gauntlet_is_estimated_at_least_as_large_as_any_bundled_slot():
    """The estimate counts a ``[[gauntlet]]`` as :data:`GAUNTLET_ITEMS` items: every item slot of every
    bundled ruleset holds at most that many (an aimed tactic counts once per zone)."""
    from brutal_sim.core.ruleset import get_ruleset, ruleset_names
    from brutal_sim.scenario.spec import GAUNTLET_ITEMS

    sizes = {(name, slot.name): len(get_ruleset(name).slot_values(slot))
             for name in ruleset_names() for slot in get_ruleset(name).item_slots}
    assert sizes and max(sizes.values()) <= GAUNTLET_ITEMS, sizes
