"""Gauntlets (every item of a slot against a pool, on the same duels) and head-count balance (how
many of one fighter make a fair fight for another), with the item slots they vary.

Compiles: Brutal's paired duels at point blank (the gauntlets: melee items against melee
opponents), its plain duel driver (the plain duels a row must equal) and its group fights (the
head-counts); every test shares them."""

from __future__ import annotations

import json
import math
from html import unescape
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from brutal_sim import api, designer
from brutal_sim.cli import app
from brutal_sim.core.errors import DataError
from brutal_sim.core.ruleset import NO_ITEM, get_ruleset, ruleset_names
from brutal_sim.core.variants import with_changes

runner = CliRunner()
N, SEED = 2_000, 7


@pytest.fixture(scope="module")
def sword() -> designer.Gauntlet:
    """The swordsman (arming sword and heater shield) with a great axe or a mace against the brute
    and the militia."""
    return designer.gauntlet("swordsman", "main_hand", against=["brute", "militia"], values=["great_axe", "mace"],
                             n=N, seed=SEED)


# -- item slots ---------------------------------------------------------------------------------------

def test_every_ruleset_declares_slots_its_catalog_and_fighters_have():
    for name in ruleset_names():
        rs = get_ruleset(name)
        assert {"armour", "tactic"} <= {s.name for s in rs.item_slots}, name
        if name == "brutal":  # an aiming tactic once per zone (B-4.9)
            tactics = rs.slot_values(rs.item_slot("tactic"))
            assert {"aimed:head", "aimed:left_leg", "single"} <= set(tactics) and "aimed" not in tactics
        fighter = rs.load_fighter(rs.fighter_names()[0])
        for slot in rs.item_slots:
            assert not slot.table or slot.table in rs.catalog_type.TABLES, (name, slot.table)
            assert slot.field in {*type(fighter).model_fields, "talents"}, (name, slot.field)
            assert rs.slot_values(slot), (name, slot.name)
            assert isinstance(rs.held_item(fighter, slot), str)


def test_a_two_handed_weapon_in_the_main_hand_empties_the_off_hand():
    """Brutal B-7.6: a second weapon needs a free hand (the swordsman's shield goes); WFRP W-4.10:
    a great weapon leaves no hand for the shield; Vereteno V-4.7: a greatsword puts the shield away.
    A one-handed weapon keeps the off hand."""
    sw = api.load_fighter("swordsman")
    assert sw.off_hand.name == "heater_shield"
    axe = with_changes(sw, {"main_hand": "great_axe"}, "--set a")
    assert axe.main_hand.name == "great_axe" and axe.off_hand is None
    assert with_changes(sw, {"main_hand": "mace"}).off_hand.name == "heater_shield"
    wfrp = get_ruleset("wfrp2e")
    knight = wfrp.load_fighter("knight")
    assert knight.off_hand.name == "shield"
    assert with_changes(knight, {"main_hand": "great_weapon"}).off_hand is None
    assert with_changes(knight, {"main_hand": "hand_weapon"}).off_hand.name == "shield"
    vrt = get_ruleset("vereteno")
    man = vrt.load_fighter("swordsman")
    assert man.shield is not None
    assert with_changes(man, {"weapon": "greatsword"}).shield is None


def test_off_hand_none_empties_the_hand_and_an_unknown_item_is_named():
    sw = api.load_fighter("swordsman")
    assert with_changes(sw, {"off_hand": "none"}, "--set a").off_hand is None
    assert with_changes(sw, {"main_hand": NO_ITEM}).main_hand is None
    with pytest.raises(DataError, match="tactic cannot be empty"):
        with_changes(sw, {"tactic": "none"})
    with pytest.raises(DataError, match="unknown weapon 'nonee'"):
        with_changes(sw, {"off_hand": "nonee"})


def test_an_items_name_is_refused_with_the_settable_paths():
    sw = api.load_fighter("swordsman")
    with pytest.raises(DataError) as e:
        with_changes(sw, {"main_hand.name": "greatsword"}, "--set a")
    text = str(e.value)
    assert "\n" not in text and "main_hand.name" in text
    assert "settable in main_hand: damage, type, penetration, durability" in text
    assert "main_hand=ITEM" in text
    assert with_changes(sw, {"name": "Bob"}).name == "Bob"  # the fighter's own name is its label


def test_slot_and_value_errors_name_what_is_allowed():
    with pytest.raises(DataError, match="unknown slot 'hand'; did you mean 'off_hand'.*main_hand, off_hand, armour, "
                                        "talent, tactic"):
        designer.gauntlet("swordsman", "hand")
    with pytest.raises(DataError, match="wfrp2e ruleset's item slots: main_hand, off_hand, missile"):
        designer.gauntlet("swordsman", "weapon", ruleset="wfrp2e")
    with pytest.raises(DataError, match="off_hand must be empty"):
        designer.gauntlet("knight", "off_hand", values=["buckler"])
    with pytest.raises(DataError, match="no item but Knight's own 'none' fits off_hand"):
        designer.gauntlet("knight", "off_hand")
    with pytest.raises(DataError, match="unknown fighter 'nobody'"):
        designer.gauntlet("swordsman", "main_hand", against=["brute", "nobody"])


# -- gauntlets ----------------------------------------------------------------------------------------

def test_a_row_is_the_plain_duels_of_that_item_bit_for_bit(sword):
    """Each item against each opponent plays the duels of ``api.duel`` with that item and the same
    seed: the same wins, losses and draws, and the row's rate is their mean over the pool."""
    axe = sword.variants["great_axe"]
    assert axe.main_hand.name == "great_axe" and axe.off_hand is None
    per = sword.by_opponent.set_index(["item", "opponent"])
    for item in ("great_axe", "arming_sword"):
        for opp in ("brute", "militia"):
            r = api.duel(sword.variants[item], opp, n=N, seed=SEED)
            row = per.loc[(item, r.names[1])]
            assert (row.wins, row.losses, row.draws) == (r.wins(0), r.wins(1), r.draws), (item, opp)
    rows = sword.rows.set_index("item")
    mine = sword.by_opponent[sword.by_opponent["item"] == "great_axe"]
    p = mine["win_rate"].to_numpy()
    assert rows.loc["great_axe", "win_rate"] == pytest.approx(p.mean(), abs=1e-15)
    half = 1.959963984540054 * math.sqrt(sum(p * (1 - p) / N)) / 2
    assert rows.loc["great_axe", "ci_high"] - rows.loc["great_axe", "win_rate"] == pytest.approx(half, rel=1e-6)


def test_the_change_against_the_held_item_is_the_paired_difference_of_a_sweep(sword):
    """Against one opponent an item's change and its paired interval are those of a sweep of the
    slot over the held item and that item on the same duels; over the pool, their mean with the
    half-widths added in quadrature (the opponents' duels are independent)."""
    one = designer.gauntlet("swordsman", "main_hand", against=["brute"], values=["great_axe", "mace"], n=N,
                            seed=SEED).rows.set_index("item")
    for item in ("great_axe", "mace"):
        s = designer.sweep("swordsman", "brute", "main_hand", ["arming_sword", item], n=N, seed=SEED)
        d = s.differences[s.differences.side == "a"].iloc[0]
        assert one.loc[item, "delta"] == pytest.approx(d["difference"], abs=1e-15)
        assert one.loc[item, "delta_low"] == pytest.approx(d["ci_low"], abs=1e-12)
        assert one.loc[item, "delta_high"] == pytest.approx(d["ci_high"], abs=1e-12)
    rows = sword.rows.set_index("item")
    axe = rows.loc["great_axe"]
    assert axe.delta == pytest.approx(axe.win_rate - rows.loc["arming_sword", "win_rate"], abs=1e-12)
    # common random numbers: the paired interval is narrower than that of independent runs
    assert axe.delta_high - axe.delta < (axe.ci_high - axe.win_rate) * math.sqrt(2)
    assert rows.loc["arming_sword", ["delta", "delta_low", "delta_high"]].tolist() == [0, 0, 0]
    assert sword.played == 3 * N * 2  # per opponent: great_axe, the held sword beside it, mace


def test_rows_sorted_best_first_with_the_held_item_marked(sword):
    f = sword.frame()
    assert list(f["win_rate"]) == sorted(f["win_rate"], reverse=True)
    assert set(f["item"]) == {"great_axe", "mace", "arming_sword"}  # the held item is always a row
    assert list(f.loc[f["baseline"], "item"]) == ["arming_sword"] and sword.baseline == "arming_sword"
    base = f.set_index("item").loc["arming_sword"]
    assert base.delta == 0 and (f["n"] == N).all() and (f["pool"] == 2).all()
    assert sword.pool == ["Brute", "Militia spearman"]
    d = sword.to_dict()
    assert d["slot"] == "main_hand" and [r["item"] for r in d["rows"]] == list(f["item"])
    assert set(d["rows"][0]["by_opponent"]) == {"Brute", "Militia spearman"}
    assert sword.verdict().startswith(f"Best in main_hand against 2 fighters: {sword.best} ")
    assert "arming_sword" in sword._repr_html_() and sword.figure() is not None


def test_a_list_slot_adds_the_item_and_its_baseline_is_the_fighter_as_is():
    g = designer.gauntlet("swordsman", "talent", against=["brute"], values=["mighty_blow"], n=500, seed=1)
    assert g.baseline == NO_ITEM and set(g.rows["item"]) == {NO_ITEM, "mighty_blow"}
    assert [t.name for t in g.variants["mighty_blow"].talents] == ["shield_master", "mighty_blow"]
    assert [t.name for t in g.variants[NO_ITEM].talents] == ["shield_master"]
    everything = designer.gauntlet("swordsman", "talent", against=["brute"], n=100, seed=1)
    assert everything.left_out == {"shield_master": "the fighter has it already"}
    assert len(everything.rows) == len(get_ruleset("brutal").catalog().talents)


# -- head-count balance -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def knight_militia() -> designer.Headcount:
    return designer.headcount("knight", "militia", max_count=3, n=N, seed=SEED)


def test_each_count_is_the_plain_group_fight_bit_for_bit(knight_militia):
    """Row k is ``api.fight([knight], [militia]*k)`` with the same seed: the same counts."""
    rows = knight_militia.rows.set_index("count")
    for k in (1, 3):
        r = api.fight(["knight"], [f"militia*{k}"], n=N, seed=SEED)
        assert rows.loc[k, "win_rate"] == r.wins(0) / N and rows.loc[k, "many_win_rate"] == r.wins(1) / N
        assert (rows.loc[k, "ci_low"], rows.loc[k, "ci_high"]) == pytest.approx(_wilson(r.wins(0), N))
    # the plate knight (B-4.14) beats one spearman nearly always and loses ground with each one more
    rates = list(rows["win_rate"])
    assert rates[0] > 0.95 and rates[0] > rates[1] > rates[2]
    assert knight_militia.smallest is None  # three militia do not win half against the knight
    assert knight_militia.even == 3
    assert knight_militia.verdict().startswith("No count of Militia spearman up to 3 wins more than half")


def _wilson(k: int, n: int) -> tuple[float, float]:
    z = 1.959963984540054
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def test_smallest_and_even_counts_read_from_the_rows():
    rows = pd.DataFrame({"count": [1, 2, 3, 4], "win_rate": [0.9, 0.62, 0.45, 0.2], "ci_low": 0, "ci_high": 1,
                         "many_win_rate": [0.1, 0.38, 0.52, 0.8], "draw_rate": [0, 0, 0.03, 0], "n": 100})
    h = designer.Headcount("Knight", "Militia", "brutal", 0, rows)
    assert h.smallest == 3 and h.even == 3
    assert h.verdict() == "3 Militia win more than half against one Knight (52.0 %); nearest even: 3 (Knight " \
                          "45.0 %, Militia 52.0 %)"
    assert h.to_dict()["smallest"] == 3


def test_headcount_refuses_counts_beyond_a_side_and_rulesets_without_fights():
    from duels_only_ruleset import duels_only

    with pytest.raises(DataError, match="max_count: expected a count 1 … 6"):
        designer.headcount("knight", "militia", max_count=7)
    with duels_only():
        with pytest.raises(DataError, match="headcount: the duels_only ruleset plays no group fights"):
            designer.headcount("swordsman", "brute", ruleset="duels_only")
        r = runner.invoke(app, ["headcount", "swordsman", "brute", "--ruleset", "duels_only"])
        assert r.exit_code == 2 and r.output.count("\n") == 1 and "rulesets that do: brutal" in r.output


# -- command line -------------------------------------------------------------------------------------

def test_cli_gauntlet_table_json_and_csv(tmp_path):
    r = runner.invoke(app, ["gauntlet", "swordsman", "--vary", "main_hand", "--against", "brute,militia",
                            "--values", "great_axe", "--values", "mace", "-n", str(N), "--seed", str(SEED)])
    assert r.exit_code == 0, r.output
    assert "arming_sword (held)" in r.output and "verdict: Best in main_hand against 2 fighters:" in r.output
    csv = tmp_path / "g.csv"
    r = runner.invoke(app, ["gauntlet", "swordsman", "--vary", "main_hand", "--against", "brute", "--against",
                            "militia", "--values", "great_axe,mace", "-n", str(N), "--seed", str(SEED), "--json",
                            "--csv", str(csv)])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert [(x["item"], x["win_rate"]) for x in d["rows"]] == [(x["item"], x["win_rate"])
                                                               for x in designer.gauntlet(
        "swordsman", "main_hand", ["brute", "militia"], ["great_axe", "mace"], n=N, seed=SEED).to_dict()["rows"]]
    table = pd.read_csv(csv)
    assert list(table["item"]) == [x["item"] for x in d["rows"]] and table["baseline"].sum() == 1


@pytest.mark.parametrize("args, said", [
    (["--vary", "hand"], "error: --vary: unknown slot 'hand'"),
    (["--vary", "main_hand", "--against", "brute,nobody"], "unknown fighter 'nobody'"),
    (["--vary", "main_hand", "--values", "sword"], "error: --values main_hand=sword: main_hand: unknown weapon"),
    (["--vary", "main_hand", "--against", "brute,brute"], "error: --against: 'brute' is listed twice"),
])
def test_cli_gauntlet_refusals_are_one_line_and_write_nothing(tmp_path, args, said):
    csv = tmp_path / "out" / "g.csv"
    r = runner.invoke(app, ["gauntlet", "swordsman", *args, "-n", "100", "--csv", str(csv)])
    assert r.exit_code == 2 and said in r.output and r.output.count("\n") == 1, r.output
    assert not csv.exists() and not csv.parent.exists()


def test_cli_headcount():
    r = runner.invoke(app, ["headcount", "knight", "militia", "--max", "3", "-n", str(N), "--seed", str(SEED),
                            "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert [x["count"] for x in d["rows"]] == [1, 2, 3] and d["smallest"] is None and d["even"] == 3
    r = runner.invoke(app, ["headcount", "knight", "militia", "--max", "7"])
    assert r.exit_code == 2 and "error: --max: expected a count 1 … 6" in r.output


def test_cli_set_off_hand_none_and_name_refused():
    r = runner.invoke(app, ["duel", "swordsman", "brute", "-n", "200", "--set", "a.off_hand=none", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["set"] == {"a.off_hand": "none"}
    r = runner.invoke(app, ["duel", "swordsman", "brute", "-n", "200", "--set", "a.main_hand.name=longsword"])
    assert r.exit_code == 2 and r.output.count("\n") == 1
    assert "an item's name is not a value to set; settable in main_hand: damage" in r.output


def test_the_benchmark_script_plays_a_gauntlet():
    """benchmarks/gauntlet.py (benchmarks/README.md) on a tiny sample: its rows are the API's."""
    import importlib.util
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "gauntlet.py"
    spec = importlib.util.spec_from_file_location("bench_gauntlet", path)
    bench = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = bench
    spec.loader.exec_module(bench)
    g, seconds = bench.run_gauntlet("swordsman", "main_hand", N, against=["brute", "militia"],
                                    values=["great_axe", "mace"], seed=SEED)
    assert seconds > 0 and list(g.rows["item"]) == list(designer.gauntlet(
        "swordsman", "main_hand", ["brute", "militia"], ["great_axe", "mace"], n=N, seed=SEED).rows["item"])


QUESTIONS = """title = "questions"
n = 2000
seed = 7
[[gauntlet]]
fighter = "swordsman"
vary = "{vary}"
against = ["brute", "militia"]
values = ["great_axe", "mace"]
[[headcount]]
one = "knight"
many = "militia"
max = {max}
"""


def test_a_scenario_asks_for_a_gauntlet_and_a_head_count(tmp_path):
    """``[[gauntlet]]`` and ``[[headcount]]`` play as ``designer.gauntlet`` and ``designer.headcount``
    with the scenario's seed and n; each is a section of the report with its answer as a key finding,
    and a frame of ``--csv``."""
    path = tmp_path / "q.toml"
    path.write_text(QUESTIONS.format(vary="main_hand", max=3))
    out = tmp_path / "r.html"
    r = runner.invoke(app, ["report", str(path), "-o", str(out), "--csv", str(tmp_path / "csv")])
    assert r.exit_code == 0, r.output
    g = designer.gauntlet("swordsman", "main_hand", ["brute", "militia"], ["great_axe", "mace"], n=2000, seed=7)
    h = designer.headcount("knight", "militia", max_count=3, n=2000, seed=7)
    html = unescape(out.read_text())
    assert g.verdict() in html and h.verdict() in html and f"key finding: {g.verdict()}" in r.stdout
    assert 'data-frame="gauntlet"' in html and 'data-frame="headcount"' in html
    frame = pd.read_csv(tmp_path / "csv" / "gauntlet.csv")
    assert frame["win_rate"].tolist() == pytest.approx(g.rows["win_rate"].tolist())
    counts = pd.read_csv(tmp_path / "csv" / "headcount.csv")
    assert counts["win_rate"].tolist() == pytest.approx(h.rows["win_rate"].tolist())


@pytest.mark.parametrize("vary, max_, field", [("hand", 3, "gauntlet[0].vary"), ("main_hand", 7, "headcount[0].max")])
def test_bad_questions_in_a_scenario(tmp_path, vary, max_, field):
    path = tmp_path / "q.toml"
    path.write_text(QUESTIONS.format(vary=vary, max=max_))
    r = runner.invoke(app, ["report", str(path), "-o", str(tmp_path / "r.html")])
    assert r.exit_code == 2 and field in r.output and len(r.output.strip().splitlines()) == 1, r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["q.toml"]


@pytest.mark.parametrize("old, new, told", [
    ('against = ["brute", "militia"]', 'against = ["militia", "militia"]',
     "gauntlet[0]: against: 'Militia spearman' is listed twice"),
    ('values = ["great_axe", "mace"]', 'values = ["mace", "mace"]', "gauntlet[0]: values: 'mace' is listed twice"),
    ('values = ["great_axe", "mace"]', 'values = ["great_axe", "nosuch"]',
     "gauntlet[0]: values main_hand=nosuch: main_hand: unknown weapon 'nosuch'"),
])
def test_a_question_checked_only_as_it_plays_is_refused_before_the_cells(tmp_path, old, new, told):
    """What a question checks of its entry is checked before the scenario's first duel (the
    questions rehearsed on an executor that plays nothing): one line, the matchup never played."""
    path = tmp_path / "q.toml"
    text = QUESTIONS.format(vary="main_hand", max=3).replace(old, new)
    path.write_text(text.replace("seed = 7\n", 'seed = 7\nmatchups = [["swordsman", "brute"]]\n'))
    r = runner.invoke(app, ["report", str(path), "-o", str(tmp_path / "r.html")])
    assert r.exit_code == 2 and r.stderr == f"error: {path}: {told}" + r.stderr.split(told)[1], r.stderr
    assert r.stderr.count("\n") == 1 and sorted(p.name for p in tmp_path.iterdir()) == ["q.toml"]


def test_rehearsing_the_questions_plays_and_compiles_nothing(monkeypatch):
    """Every question of the example scenarios that ask them stops at its first chunk."""
    from brutal_sim.run import executor
    from brutal_sim.scenario import load_scenario
    from brutal_sim.scenario.run import rehearse

    def played(*_a, **_k):
        raise AssertionError("a rehearsal played a chunk")

    monkeypatch.setattr(executor, "run_chunk", played)
    examples = Path(__file__).resolve().parents[2] / "examples"
    asked = 0
    for name in ("stat_weights.toml", "round_robin.toml", "group_fights.toml"):
        scenario = load_scenario(str(examples / name))
        asked += len(scenario.weight_jobs) + len(scenario.analysis_jobs)
        rehearse(scenario)
    assert asked >= 4
