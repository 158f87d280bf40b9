"""Suggested fixes checked by play (``designer.suggest``, ``brutal-sim suggest``): every suggestion
played on the same duels as the matchup, equal to a plain duel with that change, and the search
equal to a brute-force one on a small space."""

from __future__ import annotations

import itertools
import json

import pandas as pd
import pytest
from typer.testing import CliRunner

from brutal_sim import api, designer
from brutal_sim.cli import app
from brutal_sim.core.errors import DataError
from brutal_sim.core.variants import with_changes
from brutal_sim.results.stats import wilson

runner = CliRunner()
N, SEED = 3000, 4
#: a small space: three stats of the swordsman, each a step down and up
STATS = ["checks.melee", "main_hand.damage", "off_hand.parry_bonus"]
VALUES = {"checks.melee": (2, 4), "main_hand.damage": ("d6", "d10"), "off_hand.parry_bonus": (1, 3)}
PRICE = {"checks.melee": 3, "main_hand.damage": 4, "off_hand.parry_bonus": 2}  # Brutal's bundled list


@pytest.fixture(scope="module")
def small() -> designer.Suggestions:
    return designer.suggest("swordsman", "brute", n=N, seed=SEED, stats=STATS, items=[], verify=50)


def test_every_suggestion_is_a_plain_duel_with_that_change(small):
    """The win rate of each suggestion is the count of a plain ``duel`` of the changed fighters with
    the same seed and number of duels (common random numbers, not an estimate)."""
    for _, row in small.rows.head(4).iterrows():
        fa, fb = small.apply(row)
        r = api.duel(fa, fb, n=N, seed=SEED)
        assert row["win_rate"] == r.wins(0) / N, row["changes"]
        assert row["ci_low"] <= row["win_rate"] <= row["ci_high"]
    base = api.duel("swordsman", "brute", n=N, seed=SEED)
    assert small.base[0] == base.wins(0) / N


def test_the_search_equals_a_brute_force_one_on_a_small_space(small):
    """Six single steps and the twelve pairs of steps of different stats, every one played by plain
    duels: the suggestions are exactly these eighteen, with the same win rates and costs, and the
    first is the brute force's first under the documented ranking (the interval holding 50 % first,
    fewest changes, least cost moved, nearest)."""
    base = api.duel("swordsman", "brute", n=N, seed=SEED).wins(0) / N
    sword = api.load_fighter("swordsman")
    singles = [(p, v, PRICE[p] * (1 if k else -1)) for p in STATS for k, v in enumerate(VALUES[p])]
    combos = [(c,) for c in singles] + [pair for pair in itertools.combinations(singles, 2) if pair[0][0] != pair[1][0]]
    assert len(combos) == 18
    found = {}
    for combo in combos:
        fa = with_changes(sword, {p: v for p, v, _ in combo})
        r = api.duel(fa, "brute", n=N, seed=SEED)
        found[frozenset((p, str(v)) for p, v, _ in combo)] = (r.wins(0) / N, sum(c for _, _, c in combo))
    rows = small.rows
    assert len(rows) == 18
    for _, row in rows.iterrows():
        fa, _ = small.apply(row)
        data = api.get_ruleset("brutal").fighter_data(fa)
        key = frozenset((p, str(_get(data, p))) for p in STATS if str(_get(data, p)) != str(_get(_sword(), p)))
        assert (row["win_rate"], row["cost"]) == found[key]
    first = rows.iloc[0]
    reaching = [(len(k), abs(c), abs(w - 0.5)) for k, (w, c) in found.items() if _holds(w)]
    best = min(reaching) if reaching else None
    if best is None:
        assert not first["reaches"] and first["distance"] == min(abs(w - 0.5) for w, _ in found.values())
    else:
        assert (first["size"], abs(first["cost"]), first["distance"]) == pytest.approx(best)
    assert base == small.base[0]


def _sword() -> dict:
    return api.get_ruleset("brutal").fighter_data(api.load_fighter("swordsman"))


def _get(data: dict, path: str):
    for part in path.split("."):
        data = data[part]
    return data


def _holds(w: float) -> bool:
    lo, hi = wilson(round(w * N), N)
    return lo <= 0.5 <= hi


def test_a_budget_bounds_every_suggestion_and_opens_triples():
    s = designer.suggest("swordsman", "brute", n=N, seed=SEED, stats=STATS, items=[], budget=3)
    assert len(s.rows) and (s.rows["cost"].abs() <= 3).all()
    assert 3 in set(s.rows["size"])  # e.g. d10, melee −1 and parry +1: +4 − 3 + 2
    assert s.to_dict()["budget"] == 3


def test_side_b_and_an_unreachable_target():
    s = designer.suggest("swordsman", "brute", n=N, seed=SEED, side="b", stats=["main_hand.damage"], items=[],
                         target=99)
    assert all(c.startswith("b.main_hand.damage") for c in s.rows["changes"])
    assert "no suggestion reaches 99 %" in s.verdict()


@pytest.mark.parametrize("kw, message", [
    ({"budget": -1}, "budget"), ({"side": "c"}, "side"), ({"target": 120}, "target"),
    ({"stats": ["checks.melle"]}, "stats"), ({"costs": {"stats": {"sharpness": 1}}}, "costs.stats.sharpness"),
])
def test_bad_arguments_are_refused(kw, message):
    with pytest.raises(DataError, match=message):
        designer.suggest("swordsman", "brute", n=100, **kw)


def test_cli_suggest_and_its_refusals(tmp_path):
    r = runner.invoke(app, ["suggest", "swordsman", "brute", "-n", str(N), "--seed", str(SEED), "--stat",
                            "main_hand.damage", "--stat", "checks.melee", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["unit"] == "points" and d["suggestions"][0]["rank"] == 1 and d["verdict"].startswith("Swordsman wins")
    r = runner.invoke(app, ["suggest", "swordsman", "brute", "-n", str(N), "--stat", "main_hand.damage"])
    assert r.exit_code == 0 and "verdict: Swordsman wins" in r.stdout
    rules = tmp_path / "rules.toml"
    rules.write_text("[costs.stats]\nsharpness = 2\n")
    for args, needle in ((["--budget", "-1"], "budget"), (["--side", "c"], "side"),
                         (["--rules", str(rules)], "costs.stats.sharpness")):
        r = runner.invoke(app, ["suggest", "swordsman", "brute", "-n", "100", *args])
        assert r.exit_code == 2 and needle in r.output and len(r.output.strip().splitlines()) == 1, r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rules.toml"]


SCENARIO = """title = "suggest"
n = 2000
seed = 4
matchups = [["swordsman", "brute"]]

[[weights]]
a = "swordsman"
b = "brute"

[[suggest]]
a = "swordsman"
b = "brute"
{suggest}

[costs]
unit = "marks"
[costs.stats]
"main_hand.damage" = {price}
"""
STATS_LINE = 'stats = ["main_hand.damage", "checks.melee"]\nitems = []'


def test_a_scenario_asks_for_suggestions_with_its_own_costs(tmp_path):
    """``[[suggest]]`` plays as ``designer.suggest`` with the scenario's seed and n; its answer is the
    report's first key finding and section; ``[costs]`` prices the steps of the suggestions and of
    ``[[weights]]`` over the bundled list; ``--csv`` writes ``suggestions.csv``."""
    path = tmp_path / "s.toml"
    path.write_text(SCENARIO.format(suggest=STATS_LINE, price=7))
    out = tmp_path / "r.html"
    r = runner.invoke(app, ["report", str(path), "-o", str(out), "--csv", str(tmp_path / "csv")])
    assert r.exit_code == 0, r.output
    want = designer.suggest("swordsman", "brute", n=2000, seed=4, stats=["main_hand.damage", "checks.melee"],
                            items=[], costs={"unit": "marks", "stats": {"main_hand.damage": 7}})
    assert want.unit == "marks" and want.rows["cost"].abs().max() == 7 + 3  # d10 and melee +1: 7 + 3
    assert f"key finding: {want.verdict()}" in r.stdout
    html = out.read_text()
    assert html.index("What to change, and what it costs") < html.index("Stat weights</h2>")
    assert 'data-frame="suggestions"' in html and "Δ per mark" in html
    frame = pd.read_csv(tmp_path / "csv" / "suggestions.csv")
    assert frame["win_rate"].tolist() == pytest.approx(want.rows["win_rate"].tolist())


@pytest.mark.parametrize("suggest, price, field", [
    (STATS_LINE, -1, "costs"), (STATS_LINE, '"x"', "costs"), ('stats = ["sharpness"]', 3, "suggest[0].stats[0]"),
    ('side = "c"', 3, "suggest[0].side"), ("budget = -2", 3, "suggest[0].budget"),
    ('items = ["hand"]', 3, "suggest[0].items[0]"),
])
def test_bad_suggest_entries_and_costs_in_a_scenario(tmp_path, suggest, price, field):
    path = tmp_path / "s.toml"
    path.write_text(SCENARIO.format(suggest=suggest, price=price))
    r = runner.invoke(app, ["report", str(path), "-o", str(tmp_path / "r.html")])
    assert r.exit_code == 2 and field in r.output and len(r.output.strip().splitlines()) == 1, r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.toml"]


def test_item_swaps_are_suggested_with_their_prices():
    """Items of the catalog join the changes (``items``): a swap of the main hand's weapon costs the
    difference of the two weapons' prices (``[costs.items]``), plays as the fighter with that item
    (the slot's rules applied: a two-hander empties the off hand), and never pairs with a stat of the
    weapon it replaces."""
    costs = {"items": {"arming_sword": 4, "great_axe": 9, "longsword": 6}}
    s = designer.suggest("swordsman", "brute", n=N, seed=SEED, stats=["checks.melee"], items=["main_hand"],
                         costs=costs, verify=200)
    rows = s.rows.set_index("changes")
    axe = rows.loc["a.main_hand arming_sword → great_axe"]
    assert axe["cost"] == 9 - 4 and rows.loc["a.main_hand arming_sword → longsword", "cost"] == 6 - 4
    fa, _ = s.apply(rows.index.get_loc("a.main_hand arming_sword → great_axe"))
    assert fa.main_hand.name == "great_axe" and fa.off_hand is None
    assert axe["win_rate"] == api.duel(fa, "brute", n=N, seed=SEED).wins(0) / N
    unpriced = [c for c in rows.index if c.startswith("a.main_hand") and " + " not in c and "→ mace" in c]
    assert unpriced and rows.loc[unpriced[0]].isna()["cost"]
    assert not any("main_hand.damage" in c for c in rows.index)  # no stat of the weapon was asked


def test_list_costs_shows_the_bundled_price_list():
    r = runner.invoke(app, ["list", "costs", "--json"])
    d = json.loads(r.stdout)
    assert r.exit_code == 0 and d["columns"] == ["priced", "kind", "points"]
    assert ["checks.melee", "stat step", "3"] in d["rows"] and ["main_hand.damage", "stat step", "4"] in d["rows"]
    r = runner.invoke(app, ["list", "costs", "--ruleset", "wfrp2e", "--json"])
    assert ["ws", "stat step", "100"] in json.loads(r.stdout)["rows"]
    r = runner.invoke(app, ["list", "costs", "--ruleset", "vereteno"])
    assert r.exit_code == 0 and "bundles no price list" in r.stdout
