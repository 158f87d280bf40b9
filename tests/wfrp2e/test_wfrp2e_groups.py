"""WFRP 2e fights of several a side (W-13, W-8.15, docs/groups.md) for users: the one-against-one
fight is the duel, the options reach the kernel, the fight command and a scenario's ``[[fights]]``.
The kernel against the reference fight by fight is ``test_wfrp2e_naive.py``."""

from __future__ import annotations

import json

import numpy as np
from typer.testing import CliRunner

from brutal_sim import api
from brutal_sim.cli import app
from brutal_sim.rulesets.wfrp2e import RULESET, options as O

runner = CliRunner()


def test_w13_7_one_against_one_is_the_duel():
    """W-13.7, W-8.15: with one fighter a side the fight plays the duel's rules with the same dice
    (its header equals the duel's counters), in melee and from 30 yards with a crossbow."""
    for a, b, options in (("swordsman", "orc", {}), ("crossbowman", "orc", {"start_distance": "30"})):
        fight = api.fight([a], [b], n=3000, seed=7, options=options, ruleset="wfrp2e")
        duel = api.duel(a, b, n=3000, seed=7, options=options, ruleset="wfrp2e")
        assert np.array_equal(fight.counters[:fight.header_end], duel.counters)
        assert fight.fighter_standing(0) == fight.survivors(0)[1] == duel.wins(0) + duel.draws


def test_w13_5_max_engaged_both_ways():
    """W-13.5: ``max_engaged`` is the limit choose_foe reads (8, or 99 for unlimited); with at most
    six a side no fighter ever has eight engagers, so both give the same fights."""
    fights = []
    for value, code in (("8", 8), ("unlimited", 99)):
        p = RULESET.prepare_fight(["swordsman", "duelist"], ["goblin"] * 6, options={"max_engaged": value})
        assert p.compiled.options[O.O_MAX_ENGAGED] == code
        fights.append(api.fights([p], n=2000, seed=4)[0].counters)
    assert np.array_equal(*fights)


def test_fight_command_under_wfrp2e():
    """W-13: the README's ``brutal-sim fight swordsman duelist vs 'goblin_archer*3' --ruleset wfrp2e
    --option start_distance=24``; every fight decided or drawn, each side's survivors count every
    fight once; two against two orcs from 30 yards as JSON."""
    readme = ["fight", "swordsman", "duelist", "vs", "goblin_archer*3", "--ruleset", "wfrp2e", "--option",
              "start_distance=24"]
    r = runner.invoke(app, [*readme, "-n", "2000"])
    assert r.exit_code == 0, r.output
    for text in ("Swordsman + Duelist (a)", "Goblin archer ×3 (b)", "Still in at the end", "start_distance=24"):
        assert text in r.stdout, text
    r = runner.invoke(app, ["fight", "crossbowman", "swordsman", "vs", "orc*2", "--ruleset", "wfrp2e", "-n", "2000",
                            "--seed", "3", "--option", "start_distance=30", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["ruleset"] == "wfrp2e" and d["b"]["fighters"] == ["Orc", "Orc"]
    assert d["a"]["wins"] + d["b"]["wins"] + d["draws"] == 2000
    assert sum(d["a"]["survivors"]) == sum(d["b"]["survivors"]) == 2000
    assert [f["tactic"] for f in d["fighters"]] == ["shoot_then_draw", "guarded", "guarded", "guarded"]
    r = runner.invoke(app, ["fight", "swordsman", "vs", "orc*4", "orc*3", "--ruleset", "wfrp2e", "-n", "10"])
    assert r.exit_code == 2 and "1 … 6" in r.stderr and "Traceback" not in r.output
    r = runner.invoke(app, ["fight", "swordsman", "vs", "orc", "--ruleset", "wfrp2e", "-n", "10",
                            "--option", "max_engaged=4"])
    assert r.exit_code == 2 and "allowed: 8, unlimited" in r.stderr


def test_scenario_fights_under_wfrp2e(tmp_path):
    """W-13: a scenario's ``[[fights]]`` under WFRP 2e gives a report with the fights and each
    fighter's fate."""
    f = tmp_path / "s.toml"
    f.write_text('title = "Two against three"\nruleset = "wfrp2e"\nn = 1000\nseed = 2\n'
                 '[[fights]]\na = ["swordsman", "duelist"]\nb = ["goblin_archer*3"]\n'
                 'options = { start_distance = 24 }\n')
    out = tmp_path / "r.html"
    r = runner.invoke(app, ["report", str(f), "-o", str(out)])
    assert r.exit_code == 0, r.output
    html = out.read_text()
    assert '<h2 id="fights-section">Group fights</h2>' in html and 'id="fight-fighters"' in html
    assert "Goblin" in html and "start_distance=24" in html
