"""A fourth ruleset from the recipe of docs/rulesets.md: the toy of ``tests/toy/toy_ruleset`` (2d6 +
skill against 2d6 + skill, d6 damage, hit points; rules T-1 … T-4 in its docstring), registered
for each test and removed after it, plays duels, exact and sampled attacks, reports and Dask runs
through the shared engine like a bundled ruleset (its group fights and fights at a distance, T-5 and
T-6: ``test_toy_fights.py``).

Each number is checked against something the toy's code does not compute: P(hit) counted by
hand, the win rates of an exact Markov chain over both fighters' hit points, and the pure-Python
reference ``naive_toy.py`` duel by duel.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
from fractions import Fraction
from pathlib import Path
from typing import Iterator

import numba
import numpy as np
import pytest
import toy_ruleset
from distributed import Client, LocalCluster
from naive_toy import NaiveToy, Side
from typer.testing import CliRunner

from brutal_sim import api, designer
from brutal_sim.cli import app
from brutal_sim.core.errors import DataError
from brutal_sim.core.ruleset import Ruleset, get_ruleset, register, resolve_ruleset, ruleset_names, unregister
from brutal_sim.run.cluster import DaskExecutor
from brutal_sim.run.executor import LocalExecutor
from brutal_sim.scenario import load_scenario, run_scenario

runner = CliRunner()
SEED = 20261201


@contextlib.contextmanager
def toy_registered() -> Iterator[Ruleset]:
    """The toy in the registry inside the block, and out of it after."""
    register("toy", "toy_ruleset")
    try:
        yield get_ruleset("toy")
    finally:
        unregister("toy")


@pytest.fixture
def toy() -> Iterator[Ruleset]:
    with toy_registered() as rs:
        yield rs


def toy_fighter(rs: Ruleset, name: str, **changes):
    data = rs.fighter_data(rs.load_fighter(name))
    data.update(changes)
    return rs.fighter_from_data(data, "test", name)


# -- registry ---------------------------------------------------------------------------------------

def test_registration_is_scoped_and_checked():
    assert "toy" not in ruleset_names()
    with toy_registered() as rs:
        assert rs is toy_ruleset.RULESET and ruleset_names()[-1] == "toy"
        register("toy", "toy_ruleset")  # the same module again: nothing changes
        with pytest.raises(ValueError, match="already registered as toy_ruleset"):
            register("toy", "somewhere.else")
    assert "toy" not in ruleset_names()
    with pytest.raises(DataError, match="unknown ruleset 'toy'"):
        get_ruleset("toy")
    with pytest.raises(ValueError, match="bundled"):
        unregister("brutal")
    with pytest.raises(ValueError, match="identifier"):
        register("my toy", "toy_ruleset")


def test_the_toy_implements_the_interface(toy, tmp_path):
    assert toy.fighter_names() == ["archer", "giant", "recruit", "veteran"]
    assert toy.option_defaults() == {"round_cap": 50, "ties": "miss", "strikes": "in_turn", "turn_order": "sides",
                                    "start_distance": 0}
    veteran = toy.load_fighter("veteran")
    assert (veteran.name, veteran.skill, veteran.hit_points, veteran.weapon.damage_bonus) == ("Veteran", 3, 12, 1)
    assert toy.fighter_from_data(toy.fighter_data(veteran), "test", "veteran") == veteran  # variants round trip
    assert designer.vary(veteran, "weapon.damage_bonus", 4).weapon.damage_bonus == 4
    # catalog names of the toy alone resolve to it; a file names it with its ruleset key
    assert resolve_ruleset(["veteran", "recruit"]).name == "toy"
    assert resolve_ruleset(["swordsman", "brute"]).name == "brutal"
    f = tmp_path / "champion.toml"
    f.write_text('ruleset = "toy"\nname = "Champion"\nskill = 4\nweapon = { damage_bonus = 3 }\n')
    assert resolve_ruleset([str(f), "giant"]).name == "toy"
    assert api.load_fighter(str(f)).weapon.damage_bonus == 3
    f.write_text('ruleset = "toy"\nweapon = "axx"\n')
    with pytest.raises(DataError, match="unknown weapon 'axx'; did you mean 'axe'"):
        api.load_fighter(str(f))
    with pytest.raises(DataError, match="allowed: miss, hit"):
        api.duel("veteran", "recruit", n=10, options={"ties": "maybe"})
    with pytest.raises(DataError, match="allowed: strike"):
        api.duel("veteran", "recruit", n=10, tactic_a="feint")
    r = runner.invoke(app, ["list", "fighters", "--ruleset", "toy"])
    assert r.exit_code == 0 and "Veteran" in r.output and "Giant" in r.output
    r = runner.invoke(app, ["list", "rulesets"])
    assert r.exit_code == 0 and "Toy (2d6 + skill" in r.output


# -- exact attack -------------------------------------------------------------------------------------

#: T-1 by hand: 2d6 totals 2 … 12 come in 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1 of 36 ways. The veteran
#: (skill 3) hits the recruit (skill 0) unless the recruit's 2d6 beats the veteran's by 3 or more:
#: Σ over the recruit's totals y of ways(y) × ways(veteran's total ≤ y − 3) =
#: 4·1 + 5·3 + 6·6 + 5·10 + 4·15 + 3·21 + 2·26 + 1·30 = 310 of 1296 pairs miss.
P_VETERAN_HITS = Fraction(1296 - 310, 1296)
#: with ties = hit the veteran misses only when beaten by 4 or more: 5·1 + 6·3 + 5·6 + 4·10 + 3·15 +
#: 2·21 + 1·26 = 206 of 1296.
P_VETERAN_HITS_ON_TIES = Fraction(1296 - 206, 1296)
#: the recruit hits the veteran only by beating it by 4 or more (the same 206 pairs)
P_RECRUIT_HITS = Fraction(206, 1296)
#: the giant (skill 1) hits the recruit when its 2d6 is at least the recruit's: ties (Σ ways² = 146)
#: and half of the rest, (1296 − 146) / 2 = 575
P_GIANT_HITS = Fraction(146 + 575, 1296)


def test_exact_attack_is_the_hand_computed_probability(toy):
    """T-1 (ties miss or hit), T-2 (d6 + bonus, at least 0), T-3 (a blow that leaves 0 HP is out)."""
    d = api.attack("veteran", "recruit").to_dict()
    assert d["ruleset"] == "toy" and d["method"] == "exact"
    assert d["p_hit"] == pytest.approx(float(P_VETERAN_HITS), abs=1e-12)  # 0.7608
    assert d["p_miss"] == pytest.approx(float(1 - P_VETERAN_HITS), abs=1e-12)
    assert d["mean_damage"] == pytest.approx(4.5)  # T-2: d6 + 1 (sword), the recruit's 10 HP outlast it
    assert d["mean_damage_per_attack"] == pytest.approx(4.5 * float(P_VETERAN_HITS))
    assert d["wound_level"] == pytest.approx({"none": 0.0, "wounded": 1.0, "out": 0.0})
    assert api.attack("veteran", "recruit", options={"ties": "hit"}).to_dict()["p_hit"] == \
        pytest.approx(float(P_VETERAN_HITS_ON_TIES), abs=1e-12)  # 0.8410
    # fists d6 − 2: faces 1 and 2 deal nothing (level none), 3 … 6 deal 1 … 4
    fists = api.attack(toy_fighter(toy, "recruit", weapon="fists"), "veteran").to_dict()
    assert fists["p_hit"] == pytest.approx(float(P_RECRUIT_HITS), abs=1e-12)
    assert fists["wound_level"] == pytest.approx({"none": 2 / 6, "wounded": 4 / 6, "out": 0.0})
    assert fists["mean_damage"] == pytest.approx(10 / 6)
    # T-3: the axe (d6 + 2) puts a 5-HP recruit out on faces 3 … 6
    frail = api.attack("giant", toy_fighter(toy, "recruit", hit_points=5)).to_dict()
    assert frail["p_hit"] == pytest.approx(float(P_GIANT_HITS), abs=1e-12)
    assert frail["wound_level"] == pytest.approx({"none": 0.0, "wounded": 2 / 6, "out": 4 / 6})


def test_sampled_attacks_agree_with_the_exact_ones_within_4_sigma(toy):
    n = 200_000
    for a, b, options in (("veteran", "recruit", {}), ("giant", "veteran", {"ties": "hit"})):
        exact = api.attack(a, b, options=options).to_dict()
        sampled = api.attack(a, b, n=n, seed=SEED, options=options).to_dict()
        assert sampled["method"] == "sampled"
        for key in ("p_hit", "p_miss"):
            p = exact[key]
            assert abs(sampled[key] - p) <= 4 * math.sqrt(p * (1 - p) / n), (a, b, key)
        blows = sampled["p_hit"] * n
        for level, p in exact["wound_level"].items():
            assert abs(sampled["wound_level"][level] - p) <= 4 * math.sqrt(p * (1 - p) / blows) + 1e-12, level


# -- duels --------------------------------------------------------------------------------------------

def markov_duel(a, b, round_cap: int, ties_hit: bool = False, simultaneous: bool = False) -> tuple[float, float, float]:
    """Exact P(a wins), P(b wins), P(draw) of T-1 … T-4 by a Markov chain over both hit points."""
    def p_hit(x, y) -> float:
        ways = [6 - abs(t - 7) for t in range(2, 13)]
        pairs = sum(wx * wy for i, wx in enumerate(ways) for j, wy in enumerate(ways)
                    if i + x.skill > j + y.skill or (ties_hit and i + x.skill == j + y.skill))
        return pairs / 1296

    def strike(state: dict, x, y, hit: float, target: int) -> dict:
        out: dict = {}
        for hp, p in state.items():
            out[hp] = out.get(hp, 0.0) + p * (1 - hit)
            for face in range(1, 7):
                after = list(hp)
                after[target] -= max(face + x.weapon.damage_bonus, 0)
                out[tuple(after)] = out.get(tuple(after), 0.0) + p * hit / 6
        return out

    pa, pb = p_hit(a, b), p_hit(b, a)
    state = {(a.hit_points, b.hit_points): 1.0}
    win_a = win_b = draw = 0.0
    for _ in range(round_cap):
        state = strike(state, a, b, pa, 1)
        if not simultaneous:
            win_a += sum(p for hp, p in state.items() if hp[1] <= 0)
            state = {hp: p for hp, p in state.items() if hp[1] > 0}
        state = strike(state, b, a, pb, 0)
        win_a += sum(p for hp, p in state.items() if hp[1] <= 0 < hp[0])
        win_b += sum(p for hp, p in state.items() if hp[0] <= 0 < hp[1])
        draw += sum(p for hp, p in state.items() if hp[0] <= 0 and hp[1] <= 0)
        state = {hp: p for hp, p in state.items() if hp[0] > 0 and hp[1] > 0}
    return win_a, win_b, draw + sum(state.values())


@pytest.mark.parametrize("a, b, options", [
    ("veteran", "giant", {}),
    ("giant", "recruit", {"strikes": "simultaneous", "ties": "hit"}),
    ("recruit", "giant", {"round_cap": "3"}),  # most duels reach the cap: draws
])
def test_duel_win_rates_match_the_exact_markov_chain_within_4_sigma(toy, a, b, options):
    """T-4: strikes in turn or simultaneous (both out: a draw), the round cap's draws."""
    n = 200_000
    r = api.duel(a, b, n=n, seed=SEED, options=options, ruleset="toy")
    d = r.to_dict()
    assert d["ruleset"] == "toy"
    exact = markov_duel(toy.load_fighter(a), toy.load_fighter(b), int(options.get("round_cap", 50)),
                        options.get("ties") == "hit", options.get("strikes") == "simultaneous")
    got = (d["a"]["wins"] / n, d["b"]["wins"] / n, d["draws"] / n)
    for p, q in zip(exact, got):
        assert abs(q - p) <= 4 * math.sqrt(p * (1 - p) / n) + 1e-12, (exact, got)
    assert sum(exact) == pytest.approx(1.0)


def markov_cumulative(a, b, round_cap: int) -> tuple[list[list[float]], list[np.ndarray]]:
    """Exact, for sequential strikes and ties missing (T-1 … T-4): ``won[side][r]`` = P(side wins in
    round r), and ``lost[side][level, k]`` = P(side loses having taken k blows of that level, k capped
    at LOSER_WOUNDS_CAP), by a Markov chain over both hit points and both sides' blows by level."""
    from brutal_sim.core.counters import LOSER_WOUNDS_CAP

    ways = [6 - abs(t - 7) for t in range(2, 13)]

    def p_hit(x, y) -> float:
        return sum(wx * wy for i, wx in enumerate(ways) for j, wy in enumerate(ways)
                   if i + x.skill > j + y.skill) / 1296

    def strike(state: dict, x, hit: float, target: int) -> dict:
        out: dict = {}
        for (hp, took), p in state.items():
            out[hp, took] = out.get((hp, took), 0.0) + p * (1 - hit)
            for face in range(1, 7):
                damage = max(face + x.weapon.damage_bonus, 0)
                hp2, took2 = list(hp), [list(t) for t in took]
                hp2[target] -= damage
                took2[target][0 if damage == 0 else 2 if hp2[target] <= 0 else 1] += 1  # none, wounded, out
                key = (tuple(hp2), tuple(tuple(t) for t in took2))
                out[key] = out.get(key, 0.0) + p * hit / 6
        return out

    def settle(state: dict, loser: int, rnd: int) -> dict:
        for (hp, took), p in state.items():
            if hp[loser] <= 0:
                won[1 - loser][rnd] += p
                for level, k in enumerate(took[loser]):
                    lost[loser][level, min(k, LOSER_WOUNDS_CAP)] += p
        return {key: p for key, p in state.items() if key[0][loser] > 0}

    won = [[0.0] * (round_cap + 1) for _ in range(2)]
    lost = [np.zeros((3, LOSER_WOUNDS_CAP + 1)) for _ in range(2)]
    pa, pb = p_hit(a, b), p_hit(b, a)
    state = {((a.hit_points, b.hit_points), ((0, 0, 0), (0, 0, 0))): 1.0}
    for rnd in range(1, round_cap + 1):
        state = settle(strike(state, a, pa, 1), 1, rnd)
        state = settle(strike(state, b, pb, 0), 0, rnd)
    return won, lost


def test_decided_by_and_loser_wounds_match_the_exact_markov_chain_within_4_sigma(toy):
    """T-2 … T-4 through the shared header's rounds_a and loser_wounds blocks: each side's chance to
    have won by round r, and the chance that the loser took at least k blows of each level, against
    an exact chain. The recruit's fists (d6 − 2) deal nothing on faces 1 and 2 (level none); the
    6-HP giant needs two or more harmful blows to go down."""
    n, cap = 200_000, 5
    fa, fb = toy_fighter(toy, "recruit", weapon="fists"), toy_fighter(toy, "giant", hit_points=6)
    r = api.duel(fa, fb, n=n, seed=SEED, options={"round_cap": str(cap)}, ruleset="toy")
    won, lost = markov_cumulative(fa, fb, cap)
    assert r.round_cap == cap
    assert np.array_equal(r.rounds_won_hist(0) + r.rounds_won_hist(1), r.rounds_hist)
    frames = r.frames()
    by = frames["decided_by"]
    for side, key in ((0, "a"), (1, "b")):
        rows = by[by["side"] == key]
        assert rows["count"].iloc[-1] == r.wins(side) == r.rounds_won_hist(side).sum()
        assert rows["p_decided_by"].iloc[-1] == pytest.approx(r.wins(side) / n)  # = the win rate
        exact = np.cumsum(won[side][1:])
        for rnd, got in zip(rows["round"], rows["p_decided_by"]):
            p = exact[rnd - 1]
            assert abs(got - p) <= 4 * math.sqrt(p * (1 - p) / n) + 1e-12, (key, rnd, got, p)
    assert r.wins(0) > 10_000 and r.wins(1) > 100_000  # both curves are tested on many duels
    least = frames["wounds_at_least"]
    for side, key in ((0, "a"), (1, "b")):
        losses = r.wins(1 - side)
        assert (r.loser_wounds(side).sum(axis=1) == losses).all()  # every level's row counts each loss once
        exact = np.cumsum(lost[side][:, ::-1], axis=1)[:, ::-1] / lost[side][0].sum()  # P(≥ k | lost)
        for lv, level in enumerate(toy.counters.levels):
            rows = least[(least["side"] == key) & (least["level"] == level)]
            assert rows["p"].iloc[0] == 1.0 and rows["count"].iloc[0] == losses
            for k, got in zip(rows["k"], rows["p"]):
                p = exact[lv, k]
                assert abs(got - p) <= 4 * math.sqrt(p * (1 - p) / losses) + 1e-12, (key, level, k, got, p)
    # the giant's losses: two or more harmful blows, the last one "out"; some with blows that did nothing
    b_lost = least[(least["side"] == "b")].set_index(["level", "k"])["p"]
    assert b_lost["out", 1] == 1.0 and b_lost["out", 2] == 0.0 and b_lost["wounded", 1] == 1.0
    assert 0.05 < b_lost["none", 1] < 0.95


NAIVE_CASES = [
    ("veteran", "recruit", {}, {}),
    ("giant", "veteran", {"weapon": "fists"}, {"round_cap": "4", "ties": "hit"}),
    ("recruit", "giant", {"hit_points": 3}, {"strikes": "simultaneous"}),
]


def _opts(options: dict) -> tuple[int, bool, bool]:
    return (int(options.get("round_cap", 50)), options.get("ties") == "hit",
            options.get("strikes") == "simultaneous")


@pytest.mark.parametrize("a, b, changes, options", NAIVE_CASES)
def test_duels_and_attacks_agree_with_the_naive_reference_one_by_one(toy, a, b, changes, options):
    """T-1 … T-4 and the draw order, counter by counter: the same row for the same (seed, index)."""
    fa, fb = toy_fighter(toy, a, **changes), toy.load_fighter(b)
    c = toy.prepare(fa, fb, options=options).compiled
    sides = [Side(f.skill, f.hit_points, f.weapon.damage_bonus) for f in (fa, fb)]
    round_cap, ties_hit, simultaneous = _opts(options)
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        for kernel, play in ((c.kernels.duels, "duel"), (c.kernels.attacks, "attack")):
            total = np.zeros(c.n_counters, dtype=np.int64)
            for i in range(150):
                naive = NaiveToy(*sides, SEED, round_cap, ties_hit, simultaneous)
                getattr(naive, play)(i)
                row = kernel(*c.args(), np.uint64(SEED), np.int64(i), np.int64(1), 1, c.n_counters)[0]
                assert np.array_equal(row, naive.cnt), (play, i)
                total += row
            # the sample covers the counters: both outcomes, decided duels, damage
            assert total[toy.counters.attack:toy.counters.attack + 2].all() and total[toy.counters.damage + 1] > 0
            if play == "duel":
                assert total[toy.counters.wins:toy.counters.wins + 2].sum() > 0
    finally:
        numba.set_num_threads(before)


def test_the_naive_cases_reach_draws_deaths_and_blows_without_damage(toy):
    """The reference comparison above covers each of the toy's special counts somewhere."""
    seen = {"draws": 0, "deaths": 0, "none": 0, "one_blow": 0, "sixes": 0}
    c = toy.counters
    for a, b, changes, options in NAIVE_CASES:
        naive = NaiveToy(*[Side(f.skill, f.hit_points, f.weapon.damage_bonus)
                           for f in (toy_fighter(toy, a, **changes), toy.load_fighter(b))], SEED, *_opts(options))
        for i in range(150):
            naive.duel(i)
        seen["draws"] += naive.cnt[c.draws]
        seen["deaths"] += naive.cnt[c.death:c.death + 2].sum()
        seen["none"] += naive.cnt[c.wound] + naive.cnt[c.wound + c.wound_size]
        seen["one_blow"] += naive.cnt[c.one_blow:c.one_blow + 2].sum()
        seen["sixes"] += naive.cnt[c.special_at:c.special_at + 2].sum()
    assert all(seen.values()), seen


def test_counters_do_not_depend_on_threads_or_chunks(toy):
    one = api.duel("giant", "veteran", n=25_000, seed=9, threads=1)
    two = api.duel("giant", "veteran", n=25_000, seed=9, executor=LocalExecutor(threads=2, chunk=6000))
    assert np.array_equal(one.counters, two.counters) and one.counters[:3].sum() == 25_000


def test_cli_duel_and_attack_of_the_toy(toy):
    r = runner.invoke(app, ["duel", "veteran", "recruit", "-n", "20000", "--seed", "3", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["ruleset"] == "toy" and d["a"]["name"] == "Veteran" and d["a"]["tactic"] == "strike"
    assert d["b"]["defeat_cause"] == {"hit_points": d["a"]["wins"]} and d["defeat_cause"] == {"hit_points": 20_000}
    r = runner.invoke(app, ["attack", "veteran", "recruit", "--json", "--ruleset", "toy"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["p_hit"] == pytest.approx(float(P_VETERAN_HITS), abs=1e-12)


# -- report ---------------------------------------------------------------------------------------------

SCENARIO = """
title = "Toy report"
ruleset = "toy"
n = 4000
seed = 11
fighters = ["veteran", "recruit", "giant"]
round_robin = true

[[variants]]
name = "ties miss"

[[variants]]
name = "ties hit"
options = { ties = "hit" }

[[sweeps]]
name = "axe bonus"
fighter = "giant"
field = "weapon.damage_bonus"
values = [0, 2, 4]
opponents = ["veteran"]
"""


def test_report_of_a_toy_scenario_names_its_fighters(toy, tmp_path):
    f = tmp_path / "toy.toml"
    f.write_text(SCENARIO)
    out = tmp_path / "toy.html"
    r = runner.invoke(app, ["report", str(f), "-o", str(out), "--csv", str(tmp_path / "csv")])
    assert r.exit_code == 0, r.output
    html = out.read_text()
    # the matchups, the toy's one loss cause, its options, the sweep, the fighters' stat blocks
    for text in ("Toy report", "Veteran vs Recruit", "Recruit vs Giant", "hit points 100\u00a0%", "strikes", "in_turn",
                 "axe bonus", '<td class="l">hit points</td><td class="l">18</td>'):
        assert text in html, text
    summary = (tmp_path / "csv" / "summary.csv").read_text()
    assert "Veteran vs Recruit" in summary and "ties hit" in summary


# -- Dask ---------------------------------------------------------------------------------------------

def test_dask_runs_equal_the_local_runs_bit_for_bit(toy, tmp_path):
    """A worker process imports the toy's kernels by their module path (``toy_ruleset.drivers``): a
    local cluster's workers inherit this process's ``sys.path``, where pytest put ``tests/toy``."""
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0") as lc, \
            Client(lc) as client:
        worker_pids = set(client.run(os.getpid).values())
        assert os.getpid() not in worker_pids
        assert set(client.run(lambda: __import__("toy_ruleset.drivers").drivers.__file__).values()) == \
            {str(Path(toy_ruleset.__file__).with_name("drivers.py"))}
        dask = DaskExecutor(client, threads=1, chunk=7000)
        local = api.duel("giant", "veteran", n=30_000, seed=5, options={"strikes": "simultaneous"})
        remote = api.duel("giant", "veteran", n=30_000, seed=5, options={"strikes": "simultaneous"}, executor=dask)
        assert np.array_equal(local.counters, remote.counters) and local.counters[:3].sum() == 30_000
        assert api.attack("veteran", "giant", n=20_000, seed=2).to_dict() == \
            api.attack("veteran", "giant", n=20_000, seed=2, client=client).to_dict()
        # a scenario with a paired sweep (common random numbers), as `report --cluster` runs it
        f = tmp_path / "toy.toml"
        f.write_text(SCENARIO)
        sc_local, sc_remote = load_scenario(str(f)), load_scenario(str(f))
        local_cells = run_scenario(sc_local)
        remote_cells = run_scenario(sc_remote, executor=dask)
        assert [c.labels for c in local_cells] == [c.labels for c in remote_cells]
        assert all(np.array_equal(a.counters, b.counters) for a, b in zip(local_cells, remote_cells))
        assert sc_local.differences.equals(sc_remote.differences)

