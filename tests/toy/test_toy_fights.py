"""The toy's group fights (T-5) and fights at a distance (T-6), written only against the shared
battle mechanics (``brutal_sim.toolbox.battle``), through the shared app like a bundled ruleset that
plays fights: ``api.fight``, ``brutal-sim fight``, a scenario's ``[[fights]]`` and its report.

Each number is checked against something the toy's kernel does not compute: the pure-Python
reference ``naive_toy.py`` fight by fight (the header and the group block), and exact Markov chains
over the fighters' hit points and the distance (kernel within 4σ).
"""

from __future__ import annotations

import contextlib
import json
import math
from itertools import product
from typing import Any, Iterator

import numba
import numpy as np
import pytest
from naive_toy import NaiveToy, Side
from rule_ids import account
from toy_ruleset.layout import GROUP
from typer.testing import CliRunner

from brutal_sim import api
from brutal_sim.cli import app
from brutal_sim.core.errors import DataError
from brutal_sim.core.ruleset import Ruleset, get_ruleset, register, unregister
from brutal_sim.run.executor import LocalExecutor

runner = CliRunner()
SEED = 20261202
WAYS = [6 - abs(t - 7) for t in range(2, 13)]  # 2d6 totals 2 … 12 in 36ths


@contextlib.contextmanager
def toy_registered() -> Iterator[Ruleset]:
    register("toy", "toy_ruleset")
    try:
        yield get_ruleset("toy")
    finally:
        unregister("toy")


@pytest.fixture
def toy() -> Iterator[Ruleset]:
    with toy_registered() as rs:
        yield rs


def toy_fighter(rs: Ruleset, name: str, **changes: Any) -> Any:
    data = rs.fighter_data(rs.load_fighter(name))
    data.update(changes)
    return rs.fighter_from_data(data, "test", name)


def side_of(f: Any) -> Side:
    return Side(f.skill, f.hit_points, f.weapon.damage_bonus, f.speed, f.weapon.range, f.targeting)


# -- fight by fight against the naive reference -------------------------------------------------------

#: (side a, side b, options): 1v1, 2v1, 3v2 under each policy, both turn orders, distance with
#: melee vs melee and a shooter vs melee, a group fight at a distance
FIGHT_CASES = [
    (["veteran"], ["recruit"], {}),
    (["veteran"], ["giant"], {"turn_order": "initiative"}),
    (["recruit", "veteran"], ["giant"], {}),
    (["recruit", "recruit", "veteran"], ["giant", "archer"], {}),
    (["recruit", "recruit", "veteran"], ["giant", "archer:weakest"], {"turn_order": "initiative"}),
    (["recruit:weakest", "recruit:weakest", "veteran:weakest"], ["giant", "recruit"], {"ties": "hit"}),
    (["recruit:nearest", "giant:nearest", "veteran"], ["veteran:nearest", "recruit"], {"turn_order": "initiative"}),
    (["veteran"], ["giant"], {"start_distance": "8", "round_cap": "6"}),
    (["archer"], ["recruit"], {"start_distance": "12"}),
    (["recruit"], ["archer"], {"start_distance": "9", "strikes": "simultaneous", "turn_order": "initiative"}),
    (["archer", "recruit", "recruit"], ["archer", "veteran"], {"start_distance": "10", "turn_order": "initiative"}),
]


def _load(rs: Ruleset, ref: str) -> Any:
    name, _, targeting = ref.partition(":")
    f = rs.load_fighter(name)
    return f.model_copy(update={"targeting": targeting}) if targeting else f


def _naive(a: list, b: list, options: dict, group: bool) -> NaiveToy:
    return NaiveToy([side_of(f) for f in a], [side_of(f) for f in b], SEED, int(options.get("round_cap", 50)),
                    options.get("ties") == "hit", options.get("strikes") == "simultaneous",
                    options.get("turn_order") == "initiative", int(options.get("start_distance", 0)), group)


@pytest.mark.parametrize("side_a, side_b, options", FIGHT_CASES)
def test_fights_agree_with_the_naive_reference_one_by_one(toy, side_a, side_b, options):
    """T-1 … T-6 and the draw order: the full counter row (header and group block) of every fight
    index equals the reference's; a duel's header through the fight driver equals the duel
    driver's."""
    a, b = [_load(toy, r) for r in side_a], [_load(toy, r) for r in side_b]
    c = toy.prepare_fight(a, b, options=options).compiled
    duel = toy.prepare(a[0], b[0], options=options).compiled if len(a) + len(b) == 2 else None
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    total = np.zeros(c.n_counters, dtype=np.int64)
    try:
        for i in range(120):
            naive = _naive(a, b, options, True)
            naive.fight(i)
            row = c.kernels.duels(*c.args(), np.uint64(SEED), np.int64(i), np.int64(1), 1, c.n_counters)[0]
            assert np.array_equal(row, naive.cnt), (i, np.nonzero(row != naive.cnt))
            if duel is not None:
                header = duel.kernels.duels(*duel.args(), np.uint64(SEED), np.int64(i), np.int64(1), 1,
                                            duel.n_counters)[0]
                assert np.array_equal(header, row[:duel.n_counters]), i
            total += row
    finally:
        numba.set_num_threads(before)
    h = toy.counters
    # the sample covers the counters: decided fights, hits on both sides, fighters out and standing
    assert total[h.wins:h.wins + 2].sum() > 0 and total[h.damage] > 0 and total[h.damage + 1] > 0
    g = GROUP
    per = [total[c.n_counters - g.size(len(a) + len(b)) + g.fighters + j * g.per_fighter:][:g.per_fighter]
           for j in range(len(a) + len(b))]
    assert sum(p[g.out] for p in per) > 0 and sum(p[g.standing] for p in per) > 0


def test_the_naive_cases_reach_every_rule(toy):
    """The reference comparison above covers shots, moves, every policy changing foes, initiative
    rerolls, deaths and draws somewhere (counted by the reference itself)."""
    seen = {"shots": 0, "moves": 0, "switches": 0, "rerolls": 0, "deaths": 0, "draws": 0}

    class Watching(NaiveToy):
        def _attack(self, fs, rng, a, d, shot, took, outs):
            seen["shots"] += shot
            super()._attack(fs, rng, a, d, shot, took, outs)
            seen["deaths"] += fs[d].dead and fs[d].out_seq == outs[0] and fs[d].hp <= -3

        def _turn(self, fs, rng, i, took, outs):
            me = fs[i]
            x = me.x
            super()._turn(fs, rng, i, took, outs)
            seen["moves"] += me.x != x

        def _choose(self, fs, i):
            old = fs[i].foe
            super()._choose(fs, i)
            seen["switches"] += old >= 0 and fs[old].side != fs[i].side and not fs[old].out and fs[i].foe != old

        def _order(self, rng, fs, rows):
            seen["rerolls"] += rows != list(range(len(fs)))
            return super()._order(rng, fs, rows)

    for side_a, side_b, options in FIGHT_CASES:
        a, b = [_load(toy, r) for r in side_a], [_load(toy, r) for r in side_b]
        w = Watching([side_of(f) for f in a], [side_of(f) for f in b], SEED, int(options.get("round_cap", 50)),
                     options.get("ties") == "hit", options.get("strikes") == "simultaneous",
                     options.get("turn_order") == "initiative", int(options.get("start_distance", 0)), True)
        for i in range(120):
            w.fight(i)
        seen["draws"] += int(w.cnt[w.c.draws])
    assert all(seen.values()), seen


# -- exact chains ----------------------------------------------------------------------------------

def p_hit(x: Any, y: Any, penalty: int = 0, ties_hit: bool = False) -> float:
    """T-1 (T-6: the attack total less ``penalty``): P(x's total beats y's)."""
    return sum(wx * wy for i, wx in enumerate(WAYS) for j, wy in enumerate(WAYS)
               if i + x.skill - penalty > j + y.skill or (ties_hit and i + x.skill - penalty == j + y.skill)) / 1296


def markov_line(a: Any, b: Any, distance: int, round_cap: int, a_first: bool = True) -> tuple[float, float, float]:
    """Exact P(a wins), P(b wins), P(draw) of a duel at a distance (T-1 … T-4, T-6, in turn) by a
    Markov chain over (hp_a, hp_b, distance): each turn engaged a strike, apart a shot if the
    range reaches, else a move of the fighter's speed toward the other."""
    fighters = (a, b)
    order = (0, 1) if a_first else (1, 0)
    state = {(a.hit_points, b.hit_points, distance): 1.0}
    won = [0.0, 0.0]
    for _ in range(round_cap):
        for i in order:
            x, y = fighters[i], fighters[1 - i]
            nxt: dict = {}
            for (ha, hb, d), p in state.items():
                hp = [ha, hb]
                if d > 0 and d > x.weapon.range:
                    key = (ha, hb, max(d - x.speed, 0))
                    nxt[key] = nxt.get(key, 0.0) + p
                    continue
                hit = p_hit(x, y, 2 if d > 0 else 0)
                nxt[ha, hb, d] = nxt.get((ha, hb, d), 0.0) + p * (1 - hit)
                for face in range(1, 7):
                    after = list(hp)
                    after[1 - i] -= max(face + x.weapon.damage_bonus, 0)
                    if after[1 - i] <= 0:
                        won[i] += p * hit / 6
                    else:
                        key = (after[0], after[1], d)
                        nxt[key] = nxt.get(key, 0.0) + p * hit / 6
            state = nxt
    return won[0], won[1], sum(state.values())


def markov_duel(a: Any, b: Any, round_cap: int) -> tuple[float, float, float]:
    """The engaged duel of T-1 … T-4 (in turn, a first) as an independent chain over both hit
    points, strike by strike."""
    state = {(a.hit_points, b.hit_points): 1.0}
    won = [0.0, 0.0]
    for _ in range(round_cap):
        for i in (0, 1):
            x, y = (a, b)[i], (a, b)[1 - i]
            hit, nxt = p_hit(x, y), {}
            for hp, p in state.items():
                nxt[hp] = nxt.get(hp, 0.0) + p * (1 - hit)
                for face in range(1, 7):
                    after = list(hp)
                    after[1 - i] -= max(face + x.weapon.damage_bonus, 0)
                    if after[1 - i] <= 0:
                        won[i] += p * hit / 6
                    else:
                        nxt[tuple(after)] = nxt.get(tuple(after), 0.0) + p * hit / 6
            state = nxt
    return won[0], won[1], sum(state.values())


def _within_4_sigma(exact: tuple[float, ...], got: tuple[float, ...], n: int) -> None:
    for p, q in zip(exact, got):
        assert abs(q - p) <= 4 * math.sqrt(p * (1 - p) / n) + 1e-12, (exact, got)
    assert sum(exact) == pytest.approx(1.0)


def _rates(d: dict) -> tuple[float, float, float]:
    n = d["n"]
    return d["a"]["wins"] / n, d["b"]["wins"] / n, d["draws"] / n


def test_melee_at_a_distance_is_the_engaged_duel_with_the_first_striker_shifted(toy):
    """T-6, melee vs melee (speeds 5): from 8 apart a and b each move (8 → 3 → 0) and a strikes
    first in round 2: the engaged duel a round shorter. From 5 apart a's move ends engaged and b
    strikes first: the engaged duel with b first (a's last strike at the cap missing)."""
    n = 200_000
    vet, giant = toy.load_fighter("veteran"), toy.load_fighter("giant")
    shifted = markov_duel(vet, giant, 49)
    assert markov_line(vet, giant, 8, 50) == pytest.approx(shifted, abs=1e-12)
    b_first = markov_duel(giant, vet, 50)
    assert markov_line(vet, giant, 5, 50) == pytest.approx((b_first[1], b_first[0], b_first[2]), abs=1e-9)
    assert abs(shifted[0] - b_first[1]) > 0.03  # who strikes first matters
    for distance, exact in ((8, shifted), (5, (b_first[1], b_first[0], b_first[2]))):
        d = api.duel(vet, giant, n=n, seed=SEED, options={"start_distance": str(distance)}, ruleset="toy").to_dict()
        _within_4_sigma(exact, _rates(d), n)


def test_a_shooter_against_melee_matches_the_exact_chain(toy):
    """T-6: the archer (bow, range 12: shots at skill 1 − 2) shoots while the recruit closes 5 a
    turn, then both fight engaged; with the archer as side a (it shoots three times first) and as
    side b (the recruit's first move comes before its first shot)."""
    n = 200_000
    archer, recruit = toy.load_fighter("archer"), toy.load_fighter("recruit")
    assert (archer.weapon.range, recruit.weapon.range, recruit.speed) == (12, 0, 5)
    for a, b, distance, cap in ((archer, recruit, 12, 50), (recruit, archer, 14, 50), (archer, recruit, 30, 6)):
        exact = markov_line(a, b, distance, cap)
        d = api.duel(a, b, n=n, seed=SEED, options={"start_distance": str(distance), "round_cap": str(cap)},
                     ruleset="toy").to_dict()
        _within_4_sigma(exact, _rates(d), n)
    engaged = markov_line(archer, recruit, 0, 50)
    assert markov_line(archer, recruit, 12, 50)[0] > engaged[0] + 0.05  # three free shots help the archer


def test_initiative_in_a_duel_mixes_the_two_orders_exactly(toy):
    """T-5 ``turn_order = initiative``: a acts first with P(d6 + skill higher) + P(equal totals) ×
    [a has more hit points]; equal hit points reroll the full tie."""
    n = 200_000
    vet, giant = toy.load_fighter("veteran"), toy.load_fighter("giant")
    gt = sum(1 for x, y in product(range(1, 7), repeat=2) if x + vet.skill > y + giant.skill) / 36
    eq = sum(1 for x, y in product(range(1, 7), repeat=2) if x + vet.skill == y + giant.skill) / 36
    p_first = gt + eq * (vet.hit_points > giant.hit_points)  # the giant's 18 hit points win ties
    # skill 3 against 1: the veteran is not ahead when the giant's d6 shows 2 … 5 more (4 + 3 + 2 + 1 of
    # 36 pairs), and the 4 pairs of 2 more are ties the giant's 18 hit points win
    assert (gt, eq, p_first) == pytest.approx((26 / 36, 4 / 36, 26 / 36))
    first, second = markov_line(vet, giant, 0, 50), markov_line(vet, giant, 0, 50, a_first=False)
    exact = tuple(p_first * x + (1 - p_first) * y for x, y in zip(first, second))
    d = api.duel(vet, giant, n=n, seed=SEED, options={"turn_order": "initiative"}, ruleset="toy").to_dict()
    _within_4_sigma(exact, _rates(d), n)
    # twins tie on hit points too: full ties reroll until one is ahead, each first half the time
    twins = api.duel(vet, vet, n=n, seed=SEED, options={"turn_order": "initiative"}, ruleset="toy").to_dict()
    first_wins, second_wins, draws = markov_line(vet, vet, 0, 50)
    half = (first_wins + second_wins) / 2
    _within_4_sigma((half, half, draws), _rates(twins), n)


def markov_two_on_one(a1: Any, a2: Any, b: Any, round_cap: int, targeting: str) -> tuple[float, float, float]:
    """Exact P(side a wins), P(side b wins), P(draw) of a1, a2 against b, engaged, turn order sides
    (a1, a2, b), by a chain over (hp_a1, hp_a2, hp_b, b's foe). b chooses before each turn (T-5):
    ``spread`` and ``nearest`` keep a1 (its current foe, nearest in line) while it stands, then a2;
    ``weakest`` takes the one with more hit points lost, a tie kept on its current foe, at first a1."""
    def choose(h1: int, h2: int, foe: int) -> int:
        standing = [j for j, h in ((0, h1), (1, h2)) if h > 0]
        if len(standing) == 1:
            return standing[0]
        if targeting == "weakest":
            lost = (a1.hit_points - h1, a2.hit_points - h2)
            if lost[0] != lost[1]:
                return 0 if lost[0] > lost[1] else 1
        return foe if foe >= 0 else 0

    state = {(a1.hit_points, a2.hit_points, b.hit_points, -1): 1.0}
    won = [0.0, 0.0]
    hit_b = (p_hit(a1, b), p_hit(a2, b))
    for _ in range(round_cap):
        for k in (0, 1):  # a1's, then a2's turn: a strike at b if still in
            x, nxt = (a1, a2)[k], {}
            for (h1, h2, hb, foe), p in state.items():
                if (h1, h2)[k] <= 0:
                    nxt[h1, h2, hb, foe] = nxt.get((h1, h2, hb, foe), 0.0) + p
                    continue
                nxt[h1, h2, hb, foe] = nxt.get((h1, h2, hb, foe), 0.0) + p * (1 - hit_b[k])
                for face in range(1, 7):
                    after = hb - max(face + x.weapon.damage_bonus, 0)
                    if after <= 0:
                        won[0] += p * hit_b[k] / 6
                    else:
                        nxt[h1, h2, after, foe] = nxt.get((h1, h2, after, foe), 0.0) + p * hit_b[k] / 6
            state = nxt
        nxt = {}
        for (h1, h2, hb, foe), p in state.items():  # b's turn
            foe = choose(h1, h2, foe)
            target = (a1, a2)[foe]
            hit = p_hit(b, target)
            nxt[h1, h2, hb, foe] = nxt.get((h1, h2, hb, foe), 0.0) + p * (1 - hit)
            for face in range(1, 7):
                hp = [h1, h2]
                hp[foe] -= max(face + b.weapon.damage_bonus, 0)
                if hp[0] <= 0 and hp[1] <= 0:
                    won[1] += p * hit / 6
                else:
                    key = (hp[0], hp[1], hb, foe)
                    nxt[key] = nxt.get(key, 0.0) + p * hit / 6
        state = nxt
    return won[0], won[1], sum(state.values())


@pytest.mark.parametrize("targeting", ["spread", "weakest"])
def test_two_against_one_matches_the_exact_chain(toy, targeting):
    """T-5: two recruits against the giant, engaged; the giant's foe by its policy (with one
    attacker on side b, ``weakest`` keeps the foe it has been hitting, as ``spread`` does: the
    chain's own ``choose`` plays both readings)."""
    n = 200_000
    r1, r2 = toy.load_fighter("recruit"), toy_fighter(toy, "recruit", hit_points=14, skill=1)
    giant = toy_fighter(toy, "giant", targeting=targeting)
    exact = markov_two_on_one(r1, r2, giant, 50, targeting)
    d = api.fight([r1, r2], [giant], n=n, seed=SEED, ruleset="toy").to_dict()
    _within_4_sigma(exact, _rates(d), n)
    assert 0.2 < exact[0] < 0.8


# -- rule ids --------------------------------------------------------------------------------------

def test_every_toy_rule_id_is_cited_by_a_test(toy):
    """The rule-id accounting of the bundled rulesets (``tests/rule_ids.py``) reads a plug-in's
    digest as it reads theirs: the toy's rulebook, its package docstring, defines T-1 … T-6, and a
    test cites each."""
    a = account(toy)
    assert a.defined == {f"T-{k}" for k in range(1, 7)}
    assert not a.neither and not a.unknown and not a.listed, (a.neither, a.unknown)


# -- the app -----------------------------------------------------------------------------------------

def test_fight_counters_do_not_depend_on_threads_or_chunks(toy):
    sides = (["recruit*2", "veteran"], ["giant", "archer"])
    opts = {"start_distance": "6", "turn_order": "initiative"}
    one = api.fight(*sides, n=20_000, seed=4, threads=1, options=opts)
    two = api.fight(*sides, n=20_000, seed=4, options=opts, executor=LocalExecutor(threads=2, chunk=3000))
    assert np.array_equal(one.counters, two.counters) and one.counters[:3].sum() == 20_000


def test_api_fight_and_its_refusals(toy):
    r = api.fight(["veteran"], ["recruit*2"], n=5000, seed=2, targeting_b="weakest").to_dict()
    assert r["ruleset"] == "toy" and r["n"] == 5000 and r["a"]["fighters"] == ["Veteran"]
    assert r["a"]["wins"] + r["b"]["wins"] + r["draws"] == 5000
    assert [f["targeting"] for f in r["fighters"]] == ["spread", "weakest", "weakest"]
    assert r["b"]["survivors"][0] == r["a"]["wins"]  # a wins exactly when no recruit is still in
    assert sum(f["standing"] for f in r["fighters"][1:]) == sum(k * c for k, c in enumerate(r["b"]["survivors"]))
    with pytest.raises(DataError, match="simultaneous is for duels"):
        api.fight(["veteran"], ["recruit*2"], n=10, options={"strikes": "simultaneous"})
    with pytest.raises(DataError, match="allowed 1..6 a side"):
        toy.prepare_fight(["recruit"] * 7, ["giant"])
    with pytest.raises(DataError, match="unknown targeting 'closest'; allowed: spread, weakest, nearest"):
        api.fight(["veteran"], ["recruit"], n=10, targeting_a="closest")
    from duels_only_ruleset import duels_only

    with duels_only(), pytest.raises(DataError, match="the duels_only ruleset plays no group fights .*; rulesets "
                                                      "that do: brutal, wfrp2e, vereteno, toy"):
        api.fight(["swordsman"], ["brute"], n=10, ruleset="duels_only")  # the registered plug-in is named
    with pytest.raises(DataError, match="a single toy attack is made engaged"):
        api.attack("archer", "recruit", options={"start_distance": "5"})


def test_cli_fight_of_the_toy(toy):
    args = ["fight", "veteran", "archer", "vs", "recruit*3", "-n", "6000", "--seed", "3",
            "--option", "start_distance=7", "--targeting-b", "weakest"]
    r = runner.invoke(app, args + ["--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    same = api.fight(["veteran", "archer"], ["recruit*3"], n=6000, seed=3, options={"start_distance": "7"},
                     targeting_b="weakest").to_dict()
    assert d["ruleset"] == "toy" and d["options"]["start_distance"] == 7
    for key in ("a", "b", "draws", "fighters"):
        assert d[key] == same[key], key
    r = runner.invoke(app, args)
    assert r.exit_code == 0, r.output
    assert "Veteran" in r.output and "Still in at the end" in r.output
    r = runner.invoke(app, ["fight", "veteran", "vs", "recruit*2", "--option", "strikes=simultaneous"])
    assert r.exit_code == 2 and "simultaneous is for duels" in r.output


FIGHT_SCENARIO = """
title = "Toy fights"
ruleset = "toy"
n = 3000
seed = 5

[[fights]]
a = ["veteran"]
b = ["recruit*2"]

[[fights]]
label = "Archers at range"
a = ["archer*2"]
b = ["giant"]
options = { start_distance = 12 }
"""


def test_report_of_a_toy_scenario_with_fights(toy, tmp_path):
    f = tmp_path / "fights.toml"
    f.write_text(FIGHT_SCENARIO)
    out = tmp_path / "fights.html"
    r = runner.invoke(app, ["report", str(f), "-o", str(out), "--csv", str(tmp_path / "csv")])
    assert r.exit_code == 0, r.output
    html = out.read_text()
    for text in ("Toy fights", "Group fights", "Archers at range", "Veteran vs Recruit", "Archer", "Giant"):
        assert text in html, text
    fighters = (tmp_path / "csv" / "fighters.csv").read_text()
    assert "Archers at range" in fighters and "Recruit" in fighters
    summary = (tmp_path / "csv" / "fight_summary.csv").read_text()
    assert "start_distance=12" in summary
