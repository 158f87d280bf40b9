"""A quieter, handier command line: the options echo only what differs from the defaults, a one-line
verdict, the ruleset named in the header, plurals, `list … PATTERN` and `--json`, no truncation off
a terminal, a clean exit on a closed pipe, `report --open`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import webbrowser
from pathlib import Path

from typer.testing import CliRunner

from brutal_sim.cli import app
from brutal_sim.cli.base import plural, verdict
from brutal_sim.rulesets.brutal.options import OPTION_SPECS

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def _cli(*args: str, **kw) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    return subprocess.Popen([sys.executable, "-m", "brutal_sim.cli", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def test_a_default_duel_echoes_no_option_list_and_show_options_echoes_all():
    r = run("duel", "swordsman", "brute", "-n", "2000", "--seed", "1")
    assert r.exit_code == 0, r.output
    last = r.stdout.strip().splitlines()[-1]
    assert last == (f"ruleset: brutal; every option at its default ({len(OPTION_SPECS)} options: --show-options, "
                    "`brutal-sim list options`)")
    assert "armour_model=" not in r.stdout
    r = run("duel", "swordsman", "brute", "-n", "200", "--ruleset", "vereteno")  # the hint names its ruleset
    assert r.stdout.strip().splitlines()[-1].endswith("--show-options, `brutal-sim list options --ruleset vereteno`)")
    r = run("duel", "swordsman", "brute", "-n", "2000", "--seed", "1", "--show-options")
    assert all(f"{s.name}=" in r.stdout for s in OPTION_SPECS)
    r = run("duel", "swordsman", "brute", "-n", "2000", "--seed", "1", "--option", "round_cap=40")
    assert r.stdout.strip().splitlines()[-1] == "ruleset: brutal; options changed from the defaults: round_cap=40"
    r = run("duel", "swordsman", "brute", "-n", "2000", "--seed", "1", "--json")
    assert set(json.loads(r.stdout)["options"]) == {s.name for s in OPTION_SPECS}  # JSON keeps all


def test_the_verdict_is_the_difference_of_the_win_rates_with_its_interval():
    # 320,061 : 679,939 of 10⁶: b − a = 0.359878, sd = sqrt((1 − 0.359878²) / 10⁶) = 0.000933
    assert verdict("Swordsman", "Brute", 320_061, 679_939, 1_000_000) == \
        "Brute favoured by 35.99 points (95 % CI 35.80 – 36.17)"
    assert verdict("A", "B", 60, 40, 100).startswith("A favoured by 20.00 points (95 % CI 0.80 – 39.20)")
    # 50 : 50 of 100: sd = sqrt(1 / 100) = 0.1, the interval ±19.60 holds 0
    assert verdict("A", "B", 50, 50, 100) == \
        "no side favoured: win rates differ by 0.00 points (95 % CI -19.60 – +19.60, b − a)"
    r = run("duel", "swordsman", "brute", "-n", "20000", "--seed", "3", "--json")
    d = json.loads(r.stdout)
    text = run("duel", "swordsman", "brute", "-n", "20000", "--seed", "3").stdout
    assert verdict("Swordsman", "Brute", d["a"]["wins"], d["b"]["wins"], 20000) in text


def test_the_header_names_the_ruleset_and_says_when_the_fighters_picked_it():
    r = run("duel", "swordsman", "brute", "-n", "1000", "--threads", "1")
    assert "(b) under brutal: 1,000 duels, seed 0," in r.stdout and "duels/s, 1 thread)" in r.stdout
    r = run("duel", "swordsman", "orc", "-n", "1000")
    assert "(b) under wfrp2e (picked from the fighters; --ruleset to choose): 1,000 duels" in r.stdout
    r = run("duel", "swordsman", "orc", "-n", "1000", "--ruleset", "wfrp2e")
    assert "(b) under wfrp2e: 1,000 duels" in r.stdout


def test_plurals():
    assert (plural(1, "thread"), plural(2, "thread"), plural(1000, "cell"), plural(0, "duel")) == \
        ("1 thread", "2 threads", "1,000 cells", "0 duels")


def test_list_filters_rows_by_a_pattern_and_prints_json():
    r = run("list", "options", "cover", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    names = [row[0] for row in d["rows"]]
    assert d["columns"][:3] == ["option", "rule", "default"]
    assert "cover_a" in names and "armour_model" not in names
    assert all(any("cover" in cell.casefold() for cell in row) for row in d["rows"])
    assert len(names) < len(OPTION_SPECS)
    r = run("list", "weapons", "GREAT", "--json")
    assert [row[0] for row in json.loads(r.stdout)["rows"]] == ["great_axe"]
    r = run("list", "rulesets", "--json")
    assert [row[0] for row in json.loads(r.stdout)["rows"]][:3] == ["brutal", "wfrp2e", "vereteno"]
    r = run("list", "weapons", "no-such-weapon")
    assert r.exit_code == 0 and "great_axe" not in r.stdout


def test_off_a_terminal_tables_keep_every_name_and_allowed_value_whole():
    p = _cli("list", "options")
    stdout, _ = p.communicate(timeout=120)
    assert p.returncode == 0
    for s in OPTION_SPECS:
        assert s.name in stdout and (s.allowed or "PATH") in stdout


def test_a_closed_pipe_ends_the_command_quietly_with_exit_0():
    p = _cli("list", "options")
    p.stdout.close()  # the reader is gone before anything is written (as `| head -0`)
    stderr = p.stderr.read()
    assert p.wait(timeout=120) == 0, stderr
    assert "Traceback" not in stderr and "Broken pipe" not in stderr


def test_report_open_opens_the_written_page(tmp_path, monkeypatch):
    opened = []
    monkeypatch.setattr(webbrowser, "open", lambda url: opened.append(url) or True)
    scenario = tmp_path / "s.toml"
    scenario.write_text('title = "open"\nn = 500\nmatchups = [["swordsman", "brute"]]\n')
    out = tmp_path / "r.html"
    r = run("report", str(scenario), "-o", str(out), "--open")
    assert r.exit_code == 0, r.output
    assert opened == [out.resolve().as_uri()]
    assert "1 cell," in r.stderr
    r = run("report", str(scenario), "-o", str(tmp_path / "s2.html"))
    assert len(opened) == 1  # only when asked


def test_shell_completion_is_offered():
    r = run("--help")
    assert "--install-completion" in r.stdout and "--show-completion" in r.stdout


def test_set_changes_a_field_for_the_run_as_a_fighter_file_would():
    from brutal_sim import api
    from brutal_sim.core.variants import with_changes

    r = run("duel", "swordsman", "brute", "-n", "20000", "--seed", "4", "--json", "--set", "a.main_hand.damage=d10",
            "--set", "b.checks.melee=3")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["set"] == {"a.main_hand.damage": "d10", "b.checks.melee": 3}
    a = with_changes(api.load_fighter("swordsman"), {"main_hand.damage": "d10"})
    b = with_changes(api.load_fighter("brute"), {"checks.melee": 3})
    same = api.duel(a, b, n=20000, seed=4)
    assert (d["a"]["wins"], d["b"]["wins"]) == (same.to_dict()["a"]["wins"], same.to_dict()["b"]["wins"])
    plain = json.loads(run("duel", "swordsman", "brute", "-n", "20000", "--seed", "4", "--json").stdout)
    assert plain["a"]["wins"] != d["a"]["wins"] and "set" not in plain
    text = run("duel", "swordsman", "brute", "-n", "2000", "--set", "a.main_hand.damage=d10").stdout
    assert "set: a.main_hand.damage=d10" in text


def test_set_on_a_fight_changes_every_fighter_of_the_side():
    from brutal_sim import api
    from brutal_sim.core.variants import with_changes

    r = run("fight", "swordsman", "vs", "militia*2", "-n", "3000", "--seed", "2", "--json", "--set",
            "b.checks.melee=5")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    militia = with_changes(api.load_fighter("militia"), {"checks.melee": 5})
    same = api.fight(["swordsman"], [militia, militia], n=3000, seed=2)
    assert d["a"]["wins"] == same.to_dict()["a"]["wins"] and d["set"] == {"b.checks.melee": 5}


def test_a_bad_set_is_one_line_naming_the_flag():
    for flag, words in (("c.x=1", "write SIDE.PATH=VALUE with SIDE a or b"),
                        ("a.main_hand.damage", "write SIDE.PATH=VALUE"),
                        ("a.main_hand.dmg=d10", "no field 'dmg'; allowed here: name, description, damage"),
                        ("a.main_hand.damage=d11", "die size in 'd11' must be one of")):
        r = run("duel", "swordsman", "brute", "-n", "1000", "--set", flag)
        assert r.exit_code == 2 and r.stdout == ""
        assert r.stderr.startswith("error: --set") and words in r.stderr and len(r.stderr.strip().splitlines()) == 1
