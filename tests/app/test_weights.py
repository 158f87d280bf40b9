"""Stat weights: each adjustable stat one step down and up, paired with the unchanged fighter."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from brutal_sim import designer
from brutal_sim.cli import app
from brutal_sim.core.variants import expand_paths, stepped

runner = CliRunner()


def test_steps_of_integers_dice_and_list_items():
    assert stepped(3, 1) == 4 and stepped(3, -5) == -2
    assert stepped("d8+1", 1) == "d10+1" and stepped("2d6", -1) == "2d4"
    assert stepped("d12", 1) is None and stepped("d4", -1) is None and stepped("d7", 1) is None
    assert stepped(True, 1) is None and stepped(None, 1) is None
    data = {"armour": [{"protection": 3}, {"protection": 1}]}
    assert expand_paths(data, "armour.*.protection") == ["armour.0.protection", "armour.1.protection"]
    assert expand_paths({"armour": []}, "armour.*.protection") == []


@pytest.fixture(scope="module")
def sword_vs_brute() -> designer.Weights:
    return designer.stat_weights("swordsman", "brute", n=20_000, seed=5)


def test_a_weight_is_the_paired_difference_of_a_sweep_of_that_stat(sword_vs_brute):
    """+1 on the sword's die is the d8 → d10 difference of a paired sweep on the same duels; −1 is
    minus the d6 → d8 difference."""
    rows = sword_vs_brute.rows.set_index(["stat", "step"])
    s = designer.sweep("swordsman", "brute", "main_hand.damage", ["d6", "d8", "d10"], n=20_000, seed=5)
    d = s.differences[s.differences.side == "a"].set_index("to")
    up, down = rows.loc[("main_hand.damage", 1)], rows.loc[("main_hand.damage", -1)]
    assert (up["from"], up["to"], down["to"]) == ("d8", "d10", "d6")
    assert up.delta == pytest.approx(d.loc["d10", "difference"], abs=1e-15)
    assert up.ci_low == pytest.approx(d.loc["d10", "ci_low"], abs=1e-15)
    assert down.delta == pytest.approx(-d.loc["d8", "difference"], abs=1e-15)
    assert down.ci_high == pytest.approx(-d.loc["d8", "ci_low"], abs=1e-15)
    assert up.delta > 0.15 and down.delta < -0.15  # a die step moves the even-ish duel a lot


def test_rows_are_sorted_by_size_and_stats_without_effect_change_nothing(sword_vs_brute):
    f = sword_vs_brute.frame()
    sizes = f.delta.abs().to_numpy()
    assert np.all(sizes[:-1] >= sizes[1:])
    assert f.iloc[0].stat in {"main_hand.damage", "checks.melee"}
    ranged = f[f.stat == "checks.ranged"]  # a melee duel never rolls a ranged check
    assert len(ranged) == 2 and (ranged.delta == 0).all() and (ranged.ci_low == 0).all()
    assert "armour.0.protection (mail_hauberk)" in set(f.stat)
    d = sword_vs_brute.to_dict()
    assert {"a", "b", "ruleset", "rows"} <= set(d) and d["ruleset"] == "brutal"
    assert set(d["rows"][0]) == {"stat", "step", "from", "to", "delta", "ci95", "n", "cost", "per_point"}
    assert sword_vs_brute.figure() is not None


def test_steps_without_room_are_left_out(tmp_path):
    f = tmp_path / "stiff.toml"
    f.write_text('name = "Stiff"\nmain_hand = "arming_sword"\n[checks]\nmelee = 2\ndodge = -5\n')
    w = designer.stat_weights(str(f), "militia", n=2000, seed=1)
    dodge = w.rows[w.rows.stat == "checks.dodge"]
    assert dodge.step.tolist() == [1]  # −5 is the lowest a check may be


def test_wfrp_characteristics_step_by_five_and_vereteno_stats_by_one():
    w = designer.stat_weights("orc", "goblin", ruleset="wfrp2e", n=5000, seed=2)
    ws = w.rows[w.rows.stat == "ws"].set_index("step")
    assert sorted(ws.index) == [-5, 5] and int(ws.loc[5, "to"]) == int(ws.loc[5, "from"]) + 5
    assert ws.loc[5, "delta"] > 0 > ws.loc[-5, "delta"]
    v = designer.stat_weights("militia", "brawler", ruleset="vereteno", n=5000, seed=2)
    assert {"skills.melee", "attributes.physique", "action_points"} <= set(v.rows.stat)
    assert set(v.rows.step) == {-1, 1}


def test_shooting_stats_are_stepped_for_a_fighter_with_a_gun_or_missile_weapon_only():
    """V-11.1 (pool: Ловкость + Стрельба + the gun's modifier) and W-7.1 (a BS test): a shooter's
    skill is stepped when it carries a gun, and a step up buys win rate at a distance; a fighter
    without one has no shooting skill or gun rows (nothing would read them)."""
    from brutal_sim.core.ruleset import get_ruleset
    from brutal_sim.core.variants import stat_steps

    rs = get_ruleset("vereteno")
    paths = {p for p, _, _ in stat_steps(rs.load_fighter("swordsman", "a"), rs.adjustable)}
    assert "skills.shooting" not in paths and "gun.damage" not in paths and "speed" in paths
    v = designer.stat_weights("rifleman", "swordsman", ruleset="vereteno", n=20_000, seed=3,
                              options={"start_distance": "30"})
    shoot = v.rows[v.rows.stat == "skills.shooting"].set_index("step")
    assert shoot.loc[1, "delta"] > 0 > shoot.loc[-1, "delta"]
    w = designer.stat_weights("kithband", "orc", ruleset="wfrp2e", n=20_000, seed=3, options={"start_distance": "40"})
    bs = w.rows[w.rows.stat == "bs"].set_index("step")
    assert sorted(bs.index) == [-5, 5] and bs.loc[5, "delta"] > 0 > bs.loc[-5, "delta"]
    rw = get_ruleset("wfrp2e")
    assert "bs" not in {p for p, _, _ in stat_steps(rw.load_fighter("orc", "a"), rw.adjustable)}


def test_target_error_bounds_every_interval():
    w = designer.stat_weights("swordsman", "brute", seed=3, target_error=1.0)
    assert w.precision["target_met"] is True
    assert ((w.rows.ci_high - w.rows.ci_low) / 2 <= 0.01 + 1e-12).all()


def test_cli_weights_json_and_errors():
    res = runner.invoke(app, ["weights", "swordsman", "brute", "-n", "5000", "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    sizes = [abs(r["delta"]) for r in d["rows"]]
    assert sizes == sorted(sizes, reverse=True) and all(r["ci95"][0] <= r["delta"] <= r["ci95"][1] for r in d["rows"])
    res = runner.invoke(app, ["weights", "swordsman", "brute", "-n", "5000"])
    assert res.exit_code == 0 and "main_hand.damage" in res.stdout and "d8 → d10" in res.stdout
    # the steps that change no duel leave the table for one line; the verdict is the largest steps
    idle = sorted({r["stat"] for r in d["rows"] if r["delta"] == 0 and r["ci95"] == [0, 0]})
    shown = [line for line in res.stdout.splitlines() if "pt" in line and "…" in line]
    assert len(shown) == len(d["rows"]) - sum(r["delta"] == 0 and r["ci95"] == [0, 0] for r in d["rows"])
    assert idle and f"changed no duel: {', '.join(idle)}" in res.stdout
    top = d["rows"][0]
    assert f"verdict: Stat weights of Swordsman against Brute: {top['stat']} {top['from']} → {top['to']} " \
           f"{100 * top['delta']:+.1f} points" in " ".join(res.stdout.split())
    for args, message in ((["swordsmn", "brute"], "did you mean 'swordsman'"),
                          (["swordsman", "brute", "-n", "5", "--target-error", "1"], "give -n or --target-error"),
                          (["swordsman", "brute", "--option", "armour_model=x"], "--option")):
        res = runner.invoke(app, ["weights", *args])
        assert res.exit_code == 2 and message in res.output and res.output.count("\n") == 1, res.output


def test_scenario_weights_section_in_the_report_and_csv(tmp_path):
    """A scenario's [[weights]] entries: the report's "Stat weights" section and weights.csv hold the
    rows of designer.stat_weights for the scenario's seed and n."""
    from brutal_sim.scenario import load_scenario, run_scenario

    sc = load_scenario("examples/stat_weights.toml", n=4000)
    run_scenario(sc)
    (w,) = sc.weight_results
    # the scenario's [costs] prices the sword's die at 5 points over Brutal's bundled list
    direct = designer.stat_weights("swordsman", "brute", n=4000, seed=sc.spec.seed,
                                   costs={"stats": {"main_hand.damage": 5}})
    assert w.rows.equals(direct.rows)
    out, csv = tmp_path / "w.html", tmp_path / "csv"
    res = runner.invoke(app, ["report", "examples/stat_weights.toml", "-n", "4000", "-o", str(out), "--csv", str(csv)])
    assert res.exit_code == 0, res.output
    html = out.read_text()
    assert '<h2 id="weights-section">Stat weights</h2>' in html and "Swordsman against Brute" in html
    first = direct.rows.iloc[0]
    assert f"{100 * first.delta:+.2f}" in html
    table = (csv / "weights.csv").read_text().splitlines()
    assert table[0].startswith("stat,step,from,to,delta") and len(table) == len(direct.rows) + 1


def test_scenario_weights_fighters_are_checked_before_any_run(tmp_path):
    f = tmp_path / "s.toml"
    f.write_text('n = 100\n[[weights]]\na = "swordsmn"\nb = "brute"\n')
    res = runner.invoke(app, ["report", str(f), "-o", str(tmp_path / "r.html")])
    assert res.exit_code == 2 and "weights[0].a" in res.output and "swordsman" in res.output
    assert not (tmp_path / "r.html").exists()
