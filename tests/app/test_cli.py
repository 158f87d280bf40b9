"""The command line: JSON shapes, summaries, and bad input → one line, exit code 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from brutal_sim.cli import app

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def test_duel_json_keys():
    r = run("duel", "swordsman", "brute", "-n", "20000", "--seed", "7", "--json", "--option", "round_cap=50")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert {"n", "seed", "options", "a", "b", "draws", "rounds", "defeat_cause", "elapsed_s"} <= set(d)
    assert set(d["a"]) >= {"name", "wins", "win_rate", "ci95"}
    assert set(d["rounds"]) == {"mean", "p50", "p90"}
    assert set(d["defeat_cause"]) == {"track_full", "knocked_out", "mortal", "fled", "exhausted"}
    assert d["options"]["round_cap"] == 50 and d["n"] == 20000 and d["seed"] == 7
    assert d["a"]["wins"] + d["b"]["wins"] + d["draws"] == 20000
    assert sum(d["defeat_cause"].values()) == d["a"]["wins"] + d["b"]["wins"]


def test_crossbowman_vs_swordsman_runs_engaged_and_from_a_distance():
    """B-8 from the command line: at 0 m the crossbow is fired in melee; from 40 m it shoots first
    and the swordsman must close in, which helps the crossbowman."""
    rates = []
    for extra in ((), ("--option", "start_distance=40")):
        r = run("duel", "crossbowman", "swordsman", "-n", "20000", "--seed", "2", "--json", *extra)
        assert r.exit_code == 0, r.output
        d = json.loads(r.stdout)
        assert d["a"]["attacks"]["hit"] > 0
        rates.append(d["a"]["win_rate"])
    assert rates[1] > rates[0]
    r = run("attack", "crossbowman", "swordsman", "--option", "start_distance=200")
    assert r.exit_code == 2 and "start_distance" in r.stderr and "long range" in r.stderr


def test_duel_same_seed_same_numbers_across_threads():
    outs = []
    for threads in ("1", "2"):
        r = run("duel", "duelist", "knight", "-n", "30000", "--seed", "3", "--threads", threads, "--json")
        d = json.loads(r.stdout)
        outs.append((d["a"]["wins"], d["b"]["wins"], d["draws"], d["rounds"], d["defeat_cause"]))
    assert outs[0] == outs[1]


def test_duel_summary_text():
    r = run("duel", "swordsman", "brute", "-n", "5000", "--option", "armour_model=protection_only")
    assert r.exit_code == 0
    for text in ("Swordsman", "Brute", "win rate", "Rounds to decision", "track full", "knocked out",
                 "armour_model=protection_only", "changed from the defaults"):
        assert text in r.stdout


def test_attack_json_keys_and_exact_default():
    r = run("attack", "swordsman", "brute", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    for key in ("p_miss", "p_parried", "p_dodged", "p_hard_block", "p_hit", "wound_level", "zone", "mean_damage"):
        assert key in d
    assert set(d["wound_level"]) == {"none", "light_damage", "light", "heavy", "critical", "mortal"}
    assert set(d["zone"]) == {"head", "torso", "arm", "leg"}
    assert d["method"] == "exact"
    assert sum(d[k] for k in ("p_miss", "p_parried", "p_dodged", "p_hard_block", "p_hit")) == pytest.approx(1)
    # the table gives each wound level's share and that of it or worse (a blow lands at exactly one level)
    shares = list(d["wound_level"].values())
    worse = [sum(shares[i:]) for i in range(len(shares))]
    table = run("attack", "swordsman", "brute").stdout
    rows = [line.split() for line in table.splitlines() if line.strip().split(" ")[0] in
            ("none", "light", "heavy", "critical", "mortal")]
    assert "this or worse" in table and len(rows) == len(shares)
    assert [float(r[-2]) for r in rows] == pytest.approx([100 * w for w in worse], abs=0.0051)
    r = run("attack", "swordsman", "brute", "-n", "10000", "--json", "--tactic", "defensive", "--reaction", "none")
    d = json.loads(r.stdout)
    assert d["method"] == "sampled" and d["tactic"] == "defensive" and d["p_dodged"] == 0


def test_attack_names_the_brutal_shooters_aimed_shot():
    """B-8: a shooter's single attack is its aimed shot (+1) from start_distance, fired in melee at 0;
    the header and the JSON say so, a melee attack names no shot."""
    r = run("attack", "crossbowman", "swordsman", "--option", "start_distance=20")
    assert r.exit_code == 0, r.output
    assert "aimed shot (+1) from 20 m; exact enumeration" in r.stdout.splitlines()[0]
    d = json.loads(run("attack", "crossbowman", "swordsman", "--json").stdout)
    assert (d["shot"], d["distance"], d["measured"]) == ("aimed", 0, "aimed shot (+1) fired in melee (0 m, B-8)")
    d = json.loads(run("attack", "swordsman", "brute", "--json").stdout)
    assert (d["shot"], d["distance"], d["measured"]) == (None, None, "")


@pytest.mark.parametrize("args,needle", [
    (("duel", "swordsman", "brutee"), "did you mean 'brute'"),
    (("duel", "swordsman", "brute", "-n", "0"), "-n"),
    (("duel", "swordsman", "brute", "-n", "-5"), "-n"),
    (("duel", "swordsman", "brute", "--seed", "-1"), "--seed"),
    (("duel", "swordsman", "brute", "--option", "margin_against=foo"), "allowed: reaction, max(base,reaction)"),
    (("duel", "swordsman", "brute", "--option", "nonsense=1"), "unknown rule option"),
    (("duel", "swordsman", "brute", "--option", "round_cap"), "expected key=value"),
    (("duel", "swordsman", "brute", "--option", "round_cap=0"), "out of range"),
    (("duel", "swordsman", "brute", "--rules", "missing.toml"), "missing.toml: file not found"),
    (("duel", "missing.toml", "brute"), "missing.toml"),
    (("duel", "swordsman", "brute", "--tactic-a", "berserk"), "unknown tactic"),
    (("duel", "swordsman", "brute", "--reaction-b", "pray"), "unknown reaction"),
    (("duel", "swordsman", "brute", "--threads", "99"), "--threads"),
    (("attack", "brawler", "knight", "--tactic", "knockdown"), "no damaging attack"),
    (("attack", "crossbowman", "swordsman", "--shot", "hip"), "--shot: 'hip': the brutal ruleset measures no other"),
    (("list", "spells"), "unknown topic"),
    (("list", "weapon"), "list: unknown topic 'weapon' for the brutal ruleset; did you mean 'weapons'? allowed: "),
])
def test_bad_arguments_exit_2_with_one_line(args, needle):
    r = run(*args)
    assert r.exit_code == 2, r.output
    assert needle in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert "Traceback" not in r.output


BAD_FILES = [
    ('name = "X"\nmain_hand = "arming_swrd"\n', "main_hand: unknown weapon 'arming_swrd'; did you mean 'arming_sword'"),
    ('main_hand = { damage = "d8++1" }\n', "main_hand.damage: malformed dice expression"),
    ('checks = { melee = "high" }\n', "checks.melee"),
    ('checks = { parry = 2 }\n', "checks.parry: unknown field; allowed: melee, ranged, dodge"),
    ('attributes = { endurance = 99 }\n', "attributes.endurance"),
    ('armour = [{ protection = 2, zones = ["tail"] }]\n', "armour[0].zones: unknown zone 'tail'"),
    ('tactic = "aimed:foot"\n', "tactic: unknown zone 'foot' for the aiming tactic 'aimed'"),
    ('tactic = "aimed"\n', "tactic: no zone for the aiming tactic 'aimed'"),
    ('tactic = "single:head"\n', "tactic: tactic 'single' takes no ':argument'"),
    ('tactic = "berserk"\n', "tactic: unknown tactic 'berserk'"),
    ('tactic = { attack = "bite" }\n', "tactic.attack"),
    ('name = "X\n', "not valid TOML"),
    ('weapon = 3\n', "weapon: unknown field"),
    ('damage_levels = [3, 2, 9, 15]\n', "damage_levels: levels must be"),
    ('talents = ["toughasnails"]\n', "did you mean 'tough_as_nails'"),
    ('main_hand = "great_axe"\noff_hand = "dagger"\n', "two-handed"),
    ('reaction = "pray"\n', "reaction"),
    ('size = "enormous"\n', "size: Input should be 'tiny', 'miniature'"),  # B-8 target size
]


@pytest.mark.parametrize("text,needle", BAD_FILES)
def test_bad_fighter_files_exit_2_naming_file_and_field(tmp_path: Path, text, needle):
    f = tmp_path / "bad.toml"
    f.write_text(text)
    r = run("duel", str(f), "brute", "-n", "10")
    assert r.exit_code == 2, r.output
    assert str(f) in r.stderr and needle in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_bad_rules_file(tmp_path: Path):
    f = tmp_path / "rules.toml"
    f.write_text('[options]\narmour_model = "paper"\n')
    r = run("duel", "swordsman", "brute", "--rules", str(f))
    assert r.exit_code == 2 and "armour_model: unknown value 'paper'; allowed: marker" in r.stderr
    f.write_text('[optoins]\n')
    r = run("duel", "swordsman", "brute", "--rules", str(f))
    assert r.exit_code == 2 and "optoins" in r.stderr


def test_fighter_file_round_trip(tmp_path: Path):
    f = tmp_path / "mine.toml"
    f.write_text('name = "Sergeant"\nmain_hand = { damage = "d10", type = "cutting", penetration = 2 }\n'
                 'off_hand = "buckler"\n'
                 'armour = ["mail_hauberk", { protection = 2, toughness = 2, zones = ["legs"] }]\n'
                 'checks = { melee = 3, dodge = 1, toughness = 2, resolve = 1 }\n')
    r = run("duel", str(f), "militia", "-n", "2000", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["a"]["name"] == "Sergeant"


def test_list_topics():
    for topic in ("fighters", "weapons", "armour", "talents", "tactics", "options"):
        r = run("list", topic)
        assert r.exit_code == 0
    assert "margin_against" in run("list", "options").stdout


def test_real_process_exit_code_and_no_traceback():
    """The installed console script path: a real process, one stderr line, exit code 2."""
    p = subprocess.run([sys.executable, "-m", "brutal_sim.cli", "duel", "swordsman", "nobody"],
                       capture_output=True, text=True)
    assert p.returncode == 2
    assert "Traceback" not in p.stderr and len(p.stderr.strip().splitlines()) == 1
    p = subprocess.run([sys.executable, "-m", "brutal_sim.cli", "duel", "swordsman", "brute", "-n", "1000", "--json"],
                       capture_output=True, text=True)
    assert p.returncode == 0 and json.loads(p.stdout)["n"] == 1000
