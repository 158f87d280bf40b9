"""Vereteno through the command line and the API: JSON shapes with the ruleset's counter names,
ruleset resolution from fighter files, determinism across threads and blocks, bad input → one
line and exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from brutal_sim import api
from brutal_sim.cli import app
from brutal_sim.core.errors import DataError
from brutal_sim.rulesets.vereteno import RULESET
from brutal_sim.run.engine import run_attack_counters, run_duel_counters, run_paired_counters

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args), env={"COLUMNS": "250"})


def test_duel_json_uses_vereteno_names():
    r = run("duel", "swordsman", "brute", "--ruleset", "vereteno", "-n", "20000", "--seed", "3", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["ruleset"] == "vereteno"
    assert set(d["defeat_cause"]) == {"health", "will", "trauma_out", "death"}
    assert set(d["a"]["attacks"]) == {"miss", "defended", "dodged", "armour_stopped", "hit"}
    assert "armour_degraded" in d["a"] and d["a"]["tactic"] == "std_guard" and d["b"]["reaction"] == "dodge"
    assert d["a"]["wins"] + d["b"]["wins"] + d["draws"] == 20000
    assert sum(d["defeat_cause"].values()) == d["a"]["wins"] + d["b"]["wins"]
    assert d["options"]["one_value"] == "-2" and d["options"]["round_cap"] == 100


def test_duel_summary_and_options():
    r = run("duel", "duelist", "knight", "--ruleset", "vereteno", "-n", "5000", "--option", "one_value=-1",
            "--tactic-a", "quick3", "--reaction-b", "dodge")
    assert r.exit_code == 0, r.output
    assert "Duelist" in r.stdout and "Health ≤ 0" in r.stdout
    assert "changed from the defaults: one_value=-1" in r.stdout
    assert "a quick3 / best, b std_guard / dodge" in r.stdout


def test_attack_exact_by_default_and_sampled():
    r = run("attack", "brute", "knight", "--ruleset", "vereteno", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["method"] == "exact" and d["zone"] == {"body": 1.0}
    assert set(d["wound_level"]) == {"none", "scratch", "wound", "trauma", "out"}
    assert sum(d[f"p_{k}"] for k in ("miss", "defended", "dodged", "armour_stopped", "hit")) == pytest.approx(1)
    r = run("attack", "brute", "knight", "--ruleset", "vereteno", "-n", "50000", "--json")
    s = json.loads(r.stdout)
    assert s["method"] == "sampled" and s["n"] == 50000
    assert abs(s["p_hit"] - d["p_hit"]) < 0.01


@pytest.mark.parametrize("topic,needle", [("fighters", "swordsman"), ("weapons", "Двуручный меч"),
                                          ("armour", "combat_shield"), ("options", "desperation"),
                                          ("tactics", "quick_guard2"), ("traumas", "brain pierced"),
                                          ("guns", "Винтовка Косина"), ("tactics", "braced_aimed")])
def test_list_topics(topic, needle):
    r = run("list", topic, "--ruleset", "vereteno")
    assert r.exit_code == 0, r.output
    assert needle in r.stdout


def test_list_rulesets_shows_vereteno():
    r = run("list", "rulesets")
    assert r.exit_code == 0 and "vereteno" in r.stdout


def test_fighter_file_selects_the_ruleset(tmp_path: Path):
    f = tmp_path / "hero.toml"
    f.write_text('ruleset = "vereteno"\nname = "Hero"\nweapon = "axe"\n'
                 'attributes = { physique = 3, agility = 3, intellect = 2, empathy = 2 }\n'
                 'skills = { melee = 2, nimbleness = 1 }\n', encoding="utf-8")
    r = run("duel", str(f), "militia", "-n", "2000", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["ruleset"] == "vereteno" and d["a"]["name"] == "Hero"


@pytest.mark.parametrize("args,needle", [
    (("duel", "swordsman", "goblin", "--ruleset", "vereteno"), "unknown fighter 'goblin'"),
    (("duel", "swordsman", "brute", "--ruleset", "vereteno", "--option", "one_value=-3"), "allowed: -2, -1"),
    (("duel", "swordsman", "brute", "--ruleset", "vereteno", "--option", "prayer=fvtt"), "allowed: off, app, yze"),
    (("duel", "swordsman", "brute", "--ruleset", "vereteno", "--option", "zone_table=x"), "unknown rule option"),
    (("duel", "swordsman", "brute", "--ruleset", "vereteno", "--tactic-a", "quick4"), "did you mean 'quick3'"),
    (("duel", "swordsman", "brute", "--ruleset", "vereteno", "--reaction-b", "parry"), "allowed: best, defend"),
    (("attack", "swordsman", "brute", "--ruleset", "vereteno", "--tactic", "turtle"), "makes no attack"),
    (("list", "talents", "--ruleset", "vereteno"), "unknown topic 'talents'"),
    (("duel", "swordsman", "brute", "--ruleset", "vereteno", "--option", "stealth_attack=dice"), "set surprise"),
    (("duel", "rifleman", "swordsman", "--ruleset", "vereteno", "--option", "start_distance=1001"), "allowed 0..1000"),
    (("duel", "rifleman", "swordsman", "--ruleset", "vereteno", "--option", "start_distance=-1"), "allowed 0..1000"),
    (("duel", "rifleman", "swordsman", "--ruleset", "vereteno", "--tactic-a", "autofire"), "automatic gun"),
    (("duel", "swordsman", "brute", "--ruleset", "vereteno", "--tactic-a", "std_shot"), "needs a gun"),
    # V-10.10 the stealth approach, V-10.8 prone_melee
    (("duel", "raider", "rifleman", "--ruleset", "vereteno", "--option", "stealth=a", "--option",
      "stealth_distance=1001"), "allowed 0..1000"),
    (("duel", "raider", "rifleman", "--ruleset", "vereteno", "--option", "stealth=a", "--option",
      "stealth_check=blind"), "allowed: plain, opposed"),
    (("duel", "raider", "rifleman", "--ruleset", "vereteno", "--option", "stealth=c"), "allowed: none, a, b"),
    (("duel", "raider", "rifleman", "--ruleset", "vereteno", "--option", "start_distance=30", "--option",
      "stealth=a", "--option", "stealth_distance=40"), "nearer than start_distance (30 m); allowed: 0..30"),
    (("duel", "raider", "rifleman", "--ruleset", "vereteno", "--option", "stealth=a", "--option", "surprise=a"),
     "the stealth check decides the surprise"),
    (("duel", "swordsman", "brute", "--ruleset", "vereteno", "--option", "prone_melee=2"), "allowed: plus2, 0"),
])
def test_bad_input_is_one_line_exit_2(args, needle):
    r = run(*args)
    assert r.exit_code == 2, r.output
    assert needle in r.output
    assert len(r.output.strip().splitlines()) == 1


def test_an_attack_by_a_tactic_that_makes_none_is_refused_before_any_compile(monkeypatch):
    """With a cold cache the refusal would otherwise follow a compile notice: the one line comes first."""
    import brutal_sim.cli.duels as duels

    monkeypatch.setattr(duels, "warm_up", lambda *a, **k: pytest.fail("warmed up before the check"))
    r = run("attack", "swordsman", "brute", "--ruleset", "vereteno", "--tactic", "turtle")
    assert r.exit_code == 2 and "makes no attack" in r.output and len(r.output.strip().splitlines()) == 1, r.output


@pytest.mark.parametrize("body,needle", [
    ('weapon = "chainsword"', "unknown weapon 'chainsword'"),
    ('weapon = { damage = 2, properties = ["energy"] }', "not modelled"),
    ('weapon = { damage = 2, properties = ["sharp"] }', "unknown property 'sharp'"),
    ('weapon = "greatsword"\nshield = "combat_shield"', "two-handed"),
    ('armour = { protection = 3, thickness = 1 }', "unknown field"),
    ('tactic = { attack = "lunge" }', "tactic.attack"),
    ('strength = 3', "unknown field"),
    ('weapon = "kosin_rifle"', "'kosin_rifle' is a gun (guns.toml)"),
    ('gun = "sword"', "'sword' is a melee weapon"),
    ('gun = { damage = 2, range = "very_far" }', "range: Input should be 'point_blank'"),
    ('gun = { damage = 2, properties = ["laser"] }', "unknown gun property 'laser'"),
    ('gun = "kosin_rifle"\ntactic = "autofire"', "automatic"),
    ('speed = 0', "speed"),
    ('thrown = ["boomerang"]\ntactic = "throw_then_close"', "unknown item 'boomerang' to throw"),
    ('tactic = "throw_then_close"', "needs items in thrown"),
    ('thrown = ["knife", "knife", "knife", "knife", "knife", "knife", "knife"]', "thrown"),
])
def test_bad_fighter_files(tmp_path: Path, body: str, needle: str):
    f = tmp_path / "bad.toml"
    f.write_text('ruleset = "vereteno"\nattributes = { physique = 3, agility = 3, intellect = 2, empathy = 2 }\n'
                 + body + "\n", encoding="utf-8")
    with pytest.raises(DataError) as exc:
        api.prepare(str(f), "militia")
    assert needle in str(exc.value)
    r = run("duel", str(f), "militia")
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1


def test_rules_file(tmp_path: Path):
    rules = tmp_path / "rules.toml"
    rules.write_text('[options]\ndesperation = "yze"\nround_cap = 20\n', encoding="utf-8")
    _, p = api.prepare("swordsman", "brute", rules=str(rules), options={"round_cap": "30"}, ruleset="vereteno")
    assert p.options["desperation"] == "yze" and p.options["round_cap"] == 30
    rules.write_text('[zone_table]\ndie = 20\n', encoding="utf-8")
    with pytest.raises(DataError, match="unknown table"):
        api.prepare("swordsman", "brute", rules=str(rules), ruleset="vereteno")


def test_determinism_across_threads_and_blocks():
    c = RULESET.prepare("duelist", "knight").compiled
    one, _ = run_duel_counters(c, 20_000, seed=5, threads=1)
    two, _ = run_duel_counters(c, 20_000, seed=5, threads=2)
    small, _ = run_duel_counters(c, 20_000, seed=5, threads=2, block=777)
    assert np.array_equal(one, two) and np.array_equal(one, small)
    other, _ = run_duel_counters(c, 20_000, seed=6, threads=2)
    assert not np.array_equal(one, other)
    a1, _ = run_attack_counters(c, 30_000, seed=3, threads=1)
    a2, _ = run_attack_counters(c, 30_000, seed=3, threads=2, block=1000)
    assert np.array_equal(a1, a2)


def test_paired_runs_equal_separate_runs():
    cells = [RULESET.prepare("swordsman", "brute", options=o).compiled for o in ({}, {"one_value": "-1"})]
    totals, joint, _ = run_paired_counters(cells, 5000, seed=4, threads=2)
    for cell, total in zip(cells, totals):
        alone, _ = run_duel_counters(cell, 5000, seed=4, threads=1)
        assert np.array_equal(alone, total)
    assert joint.sum() == 5000


def test_fighter_data_round_trip():
    f = RULESET.load_fighter("swordsman")
    again = RULESET.fighter_from_data(RULESET.fighter_data(f), "round trip", "x")
    assert again == f
