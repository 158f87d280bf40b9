"""A report carries exactly the files its setup names, and a replay reads no other file and
overwrites none of its inputs."""

from __future__ import annotations

import base64
import json
import os
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from brutal_sim import __version__
from brutal_sim.cli import app
from brutal_sim.core.errors import DataError
from brutal_sim.report import SETUP_FORMAT, embedded_files, read_setup, report_setup
from brutal_sim.scenario import load_scenario, scenario_files

runner = CliRunner()

#: the text of every foreign file: it must never appear in a report
CANARY = "CANARY-7f3e-never-in-a-report"
ZONES = 'die = 6\n[ranges]\n"1-6" = "head"\n'


def _decoded(html: str) -> str:
    """The page with the text of each of its base64 data links appended (where files are embedded)."""
    texts = [base64.b64decode(data).decode("utf-8", "replace")
             for data in re.findall(r'href="data:[^;,"]+(?:;charset=utf-8)?;base64,([^"]*)"', html)]
    return "\n".join([html, *texts])


def _foreign(folder: Path) -> None:
    """Files a hostile fighter file or option tries to pull into a report, each holding the canary."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / ".env").write_text(f"TOKEN={CANARY}\n")
    (folder / "marker").write_text(f"{CANARY}\n")


def test_free_text_and_option_values_never_pull_a_file_into_the_report(tmp_path, monkeypatch):
    """A talent's ``rule = ".env"``, a title naming a file and ``armour_model = "marker"`` (a choice,
    not a path) with files of those names in the current folder and beside the scenario: the
    report's HTML and setup.json hold none of them, only the fighter file the scenario names."""
    cwd = tmp_path / "cwd"
    _foreign(cwd)
    _foreign(tmp_path / "sc")
    monkeypatch.chdir(cwd)
    hero = 'name = "Hero"\ntalents = [{ name = "sly", rule = ".env", description = "marker" }]\n'
    (tmp_path / "sc" / "hero.toml").write_text(hero)
    (tmp_path / "sc" / "s.toml").write_text('title = ".env"\nnotes = "marker"\nn = 100\n'
                                            'matchups = [["hero.toml", "brute"]]\n'
                                            'options = { armour_model = "marker" }\n')
    r = runner.invoke(app, ["report", str(tmp_path / "sc" / "s.toml"), "-o", "r.html"])
    assert r.exit_code == 0, r.output
    html = (cwd / "r.html").read_text()
    setup = read_setup(str(cwd / "r.html"))
    assert setup["files"] == {"hero.toml": hero}
    assert CANARY not in _decoded(html) and CANARY not in json.dumps(setup)


def test_vereteno_free_text_naming_a_file_is_not_embedded(tmp_path, monkeypatch):
    """A Vereteno weapon's ``name_ru`` naming ``/etc/passwd`` or another absolute path is text."""
    monkeypatch.chdir(tmp_path)
    secret = tmp_path / "secret.txt"
    secret.write_text(CANARY)
    for name, text in (("vile", "/etc/passwd"), ("sly", str(secret))):
        (tmp_path / f"{name}.toml").write_text(
            f'ruleset = "vereteno"\nname = "{name}"\n'
            f'weapon = {{ name = "knife", name_ru = "{text}", damage = 2 }}\n'
            'attributes = { physique = 3, agility = 3, intellect = 2, empathy = 2 }\n'
            'skills = { melee = 2 }\n')
    (tmp_path / "s.toml").write_text('ruleset = "vereteno"\nn = 100\n'
                                     'matchups = [["vile.toml", "brute"], ["sly.toml", "brute"]]\n')
    setup = report_setup(load_scenario("s.toml"))
    assert sorted(setup["files"]) == ["sly.toml", "vile.toml"]
    text = json.dumps(setup)
    assert CANARY not in text and "root:" not in text


def test_the_files_are_those_of_the_reference_fields_resolved_beside_who_names_them(tmp_path, monkeypatch):
    """Fighters of every field (``NAME*N`` too), the rules file of each ruleset, the tables their
    path-valued options name (Brutal ``zone_table``, WFRP 2e ``crit_table``) and those the
    scenario's own options name; a path option's word (``example``, ``default``) names no file even
    when a file of that name lies beside it."""
    sc = tmp_path / "sc"
    (sc / "f").mkdir(parents=True)
    (sc / "rules").mkdir()
    monkeypatch.chdir(tmp_path)
    for name in ("a", "b", "c", "d", "e"):
        (sc / "f" / f"{name}.toml").write_text(f'name = "{name}"\n')
    (sc / "rules" / "brutal.toml").write_text('[options]\nzone_table = "../zones.toml"\n')
    (sc / "rules" / "wfrp.toml").write_text('[options]\ncrit_model = "table"\ncrit_table = "example"\n')
    (sc / "rules" / "example").write_text(CANARY)
    (sc / "zones.toml").write_text(ZONES)
    (sc / "one.toml").write_text('fighters = ["f/a.toml", "militia"]\nmatchups = [["f/b.toml", "brute"]]\n'
                                 'rules = "rules/brutal.toml"\n'
                                 '[[sweeps]]\nfighter = "f/a.toml"\nfield = "checks.melee"\nvalues = [1]\n'
                                 'opponents = ["f/c.toml"]\n'
                                 '[[weights]]\na = "f/d.toml"\nb = "brute"\n'
                                 '[[fights]]\na = ["f/e.toml*2"]\nb = ["militia"]\n'
                                 'options = { zone_table = "zones.toml" }\n')
    refs = list(scenario_files(str(sc / "one.toml")))
    assert {(r.where, r.key) for r in refs} == {
        ("fighters[0]", "f/a.toml"), ("matchups[0][0]", "f/b.toml"), ("sweeps[0].fighter", "f/a.toml"),
        ("sweeps[0].opponents[0]", "f/c.toml"), ("weights[0].a", "f/d.toml"), ("fights[0].a[0]", "f/e.toml"),
        ("fights[0].options.zone_table", "zones.toml"), ("rules", "rules/brutal.toml"),
        ("rules/brutal.toml: options.zone_table", "zones.toml")}
    assert all(r.path.is_file() for r in refs)
    cross = sc / "cross.toml"
    cross.write_text('rulesets = ["brutal", "wfrp2e"]\nmatchups = [["swordsman", "brute"]]\n'
                     '[rules]\nbrutal = "rules/brutal.toml"\nwfrp2e = "rules/wfrp.toml"\n')
    assert embedded_files(str(cross)) == {"rules/brutal.toml": (sc / "rules" / "brutal.toml").read_text(),
                                          "zones.toml": ZONES,
                                          "rules/wfrp.toml": (sc / "rules" / "wfrp.toml").read_text()}
    (sc / "rules" / "wfrp.toml").write_text('[options]\ncrit_model = "table"\ncrit_table = "../crit.toml"\n')
    assert (("rules/wfrp.toml: options.crit_table", "crit.toml")
            in {(r.where, r.key) for r in scenario_files(str(cross))})
    (sc / "crit.toml").write_text("[crit_grid]\n")
    assert embedded_files(str(cross))["crit.toml"] == "[crit_grid]\n"


def test_scenario_files_are_read_beside_the_scenario_never_from_the_current_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sc").mkdir()
    (tmp_path / "r.toml").write_text("[options]\nround_cap = 5\n")
    (tmp_path / "hero.toml").write_text('name = "Hero"\n')
    (tmp_path / "brute").write_text('name = "Not the catalog brute"\n')  # a catalog name stays a name
    (tmp_path / "sc" / "s.toml").write_text('matchups = [["militia", "brute"]]\nrules = "r.toml"\n')
    with pytest.raises(DataError, match=r"rules: rules file 'r.toml' not found \(looked for sc/r.toml"):
        load_scenario("sc/s.toml")
    (tmp_path / "sc" / "s.toml").write_text('matchups = [["hero.toml", "brute"]]\n')
    with pytest.raises(DataError, match=r"matchups\[0\]\[0\]: sc/hero.toml: fighter file not found"):
        load_scenario("sc/s.toml")
    (tmp_path / "sc" / "s.toml").write_text('matchups = [["militia", "brute"]]\noptions = { zone_table = "z.toml" }\n')
    (tmp_path / "z.toml").write_text(ZONES)
    with pytest.raises(DataError, match="sc/z.toml"):
        load_scenario("sc/s.toml")
    (tmp_path / "sc" / "z.toml").write_text(ZONES)
    sc = load_scenario("sc/s.toml")
    assert sc.cells[0].b.name == "Brute" and embedded_files("sc/s.toml") == {"z.toml": ZONES}


def _page(scenario: str, files: dict[str, str]) -> str:
    setup = {"format": SETUP_FORMAT, "format_version": 1, "brutal_sim": __version__,
             "scenario": {"name": "s.toml", "text": scenario}, "files": files,
             "seed": 0, "n": 100, "target_error": None, "max_n": 100_000_000}
    data = base64.b64encode(json.dumps(setup).encode()).decode()
    return f'<a id="brutal-sim-setup" download="s.setup.json" href="data:application/json;base64,{data}">setup</a>'


def _secret(tmp_path: Path) -> Path:
    """A fighter file outside any setup: read, its name (the canary) would enter the report."""
    (tmp_path / "outside").mkdir(exist_ok=True)
    secret = tmp_path / "outside" / "secret.toml"
    secret.write_text(f'name = "{CANARY}"\n')
    return secret


def _crafted(tmp_path: Path) -> list[tuple[str, dict[str, str]]]:
    secret = _secret(tmp_path)
    up = "../" * 40 + str(secret).lstrip("/")
    duel = 'n = 100\nmatchups = [["militia", "brute"]]\n'
    return [
        (duel, {"/proc/self/environ": "x"}),
        (duel + 'rules = "/proc/self/environ"\n', {}),
        (duel + f'rules = "{secret}"\n', {}),
        (f'n = 100\nmatchups = [["{secret}", "brute"]]\n', {}),
        (f'n = 100\nmatchups = [["{up}", "brute"]]\n', {}),
        (f'n = 100\nfighters = ["militia", "{up}"]\nround_robin = true\n', {}),
        (f'n = 100\n[[fights]]\na = ["{secret}*2"]\nb = ["militia"]\n', {}),
        (duel + 'rules = "r.toml"\n', {"r.toml": '[options]\nzone_table = "/proc/self/environ"\n'}),
        (duel + 'rules = "r.toml"\n', {"r.toml": f'[options]\nzone_table = "{up}"\n'}),
        (duel + 'options = { zone_table = "/proc/self/environ" }\n', {}),
        (duel + 'rules = "../r.toml"\n', {"r.toml": "[options]\n"}),  # not the name it is carried under
    ]


@pytest.mark.parametrize("case", range(11))
def test_a_replay_reads_no_file_outside_its_own_setup(tmp_path, monkeypatch, case):
    """Absolute paths, ``/proc``, names going out of the laid-out folder with ``..`` and files the
    report does not carry are refused in one line before anything is read or played."""
    scenario, files = _crafted(tmp_path)[case]
    monkeypatch.chdir(tmp_path)
    old = tmp_path / "old.html"
    old.write_text(_page(scenario, files))
    r = runner.invoke(app, ["report", "--rerun", str(old), "-o", "new.html", "--csv", "csv"])
    assert r.exit_code == 2, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {old}: setup.files: "), r.stderr
    assert CANARY not in r.output and "Traceback" not in r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.html", "outside"]


def test_a_replay_never_overwrites_a_file_its_scenario_names_by_absolute_path(tmp_path):
    victim = tmp_path / "rules.toml"
    victim.write_text("[options]\nround_cap = 9\n")
    old = tmp_path / "old.html"
    old.write_text(_page(f'n = 100\nmatchups = [["militia", "brute"]]\nrules = "{victim}"\n', {}))
    r = runner.invoke(app, ["report", "--rerun", str(old), "-o", str(victim)])
    assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert victim.read_text() == "[options]\nround_cap = 9\n"


def test_a_replay_obeys_the_output_rules_of_a_plain_run(tmp_path, monkeypatch):
    """``-o`` naming an input of the setup at its original path, a link, a FIFO or a folder, and
    ``--csv`` naming a file, are refused in one line before any duel; nothing is written."""
    made = tmp_path / "made"
    made.mkdir()
    (made / "r.toml").write_text("[options]\nround_cap = 30\n")
    (made / "s.toml").write_text('n = 100\nmatchups = [["militia", "brute"]]\nrules = "r.toml"\n')
    first = tmp_path / "first.html"
    r = runner.invoke(app, ["report", str(made / "s.toml"), "-o", str(first)])
    assert r.exit_code == 0, r.output
    (tmp_path / "link.html").symlink_to(tmp_path / "elsewhere.html")
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "folder").mkdir()
    before = {p.name: p.read_text() for p in made.iterdir()}
    for args, needle in ((["-o", str(made / "r.toml")], "is an input of this run"),
                         (["-o", str(made / "s.toml")], "is an input of this run"),
                         (["-o", str(first)], "is an input of this run"),
                         (["-o", str(tmp_path / "link.html")], "is a symbolic link"),
                         (["-o", str(tmp_path / "fifo")], "is a FIFO"),
                         (["-o", str(tmp_path / "folder")], "is a folder"),
                         (["-o", str(tmp_path / "new.html"), "--csv", str(made / "r.toml")], "is a file"),
                         (["-o", str(tmp_path / "new.html"), "--parquet", str(made)], "holds files brutal-sim")):
        r = runner.invoke(app, ["report", "--rerun", str(first), *args])
        assert r.exit_code == 2, (args, r.output)
        assert len(r.stderr.strip().splitlines()) == 1 and needle in r.stderr and "cell 1/" not in r.stderr, r.stderr
    assert {p.name: p.read_text() for p in made.iterdir()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo", "first.html", "folder", "link.html", "made"]
