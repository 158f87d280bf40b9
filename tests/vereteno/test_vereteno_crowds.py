"""Crowds in fights of several a side (V-14.2 outnumbering, V-14.5 shooting into melee, V-14.7
crowding, V-14.8 several overwatching shooters, V-14.6 opportunity attacks from every enemy, V-15.9
the burst's spread): the
dials ``outnumber_dice`` and ``into_melee_dice`` on the kernel's pools, the cap ``melee_cap`` on the
choice of a foe, ``overwatch_shooters`` and ``opportunity_from``, each both ways, and the naive
reference fight by fight."""

from __future__ import annotations

import math

import naive_vereteno as nv
import numpy as np
import pytest

from brutal_sim.core.battle import B_ENGAGERS, B_FOE, B_X
from brutal_sim.rulesets.vereteno import RULESET, kernel as K, layout as L
from brutal_sim.rulesets.vereteno.catalog import Catalog
from brutal_sim.rulesets.vereteno.options import compile_options
from brutal_sim.toolbox.rng import seed_duel

SEED = 20261205
TRAUMAS = list(Catalog.bundled().traumas.values())


def opts(**kw: str) -> np.ndarray:
    return compile_options(RULESET.default_options().with_overrides(kw, "test"))


def fighters(side_a, side_b, **options):
    p = RULESET.prepare_fight(side_a, side_b, options=options or None)
    F = p.compiled.fighters.copy()
    S = np.zeros((F.shape[0], L.NS), dtype=np.int64)
    K.open_duel(F, S, p.compiled.options)
    return p, F, S


def engage(S, i, j):
    S[i, B_FOE] = j
    S[j, B_ENGAGERS] += 1


def test_v14_2_outnumber_dice_per_other_enemy_within_reach():
    """V-14.2: ``outnumber_dice`` (default 0: no modifier) adds its dice to a melee attack per other
    enemy of the target fighting it within that enemy's reach: three swordsmen on one brute, the
    third 5 m off; the first one's pool rises by 1 × the dial (one other within reach), by 2 × once
    the third closes in."""
    _p, F, S = fighters(["swordsman"] * 3, ["brute"])
    for j in range(3):
        engage(S, j, 3)
    S[2, B_X] = -5
    base = K.melee_pool(F, S, opts(), 0, 3, L.K_STANDARD)
    assert K.melee_pool(F, S, opts(outnumber_dice="2"), 0, 3, L.K_STANDARD) == base + 2
    S[2, B_X] = S[3, B_X]
    assert K.melee_pool(F, S, opts(), 0, 3, L.K_STANDARD) == base
    assert K.melee_pool(F, S, opts(outnumber_dice="-1"), 0, 3, L.K_STANDARD) == base - 2


def test_v14_5_into_melee_dice_when_an_ally_is_at_point_blank_of_the_target():
    """V-14.5: ``into_melee_dice`` (default 0: no penalty, no friendly fire) adds its dice to a shot at
    a target at point blank of one of the shooter's allies; a target alone is shot as before."""
    _p, F, S = fighters(["rifleman", "swordsman"], ["raider"], start_distance="20")
    engage(S, 0, 2)
    S[2, B_X] = 20
    S[1, B_X] = 10
    base = K.shot_pool(F, S, opts(start_distance="20"), 0, L.SH_STANDARD)
    assert K.shot_pool(F, S, opts(start_distance="20", into_melee_dice="-2"), 0, L.SH_STANDARD) == base
    S[1, B_X] = 19
    assert K.shot_pool(F, S, opts(start_distance="20", into_melee_dice="-2"), 0, L.SH_STANDARD) == base - 2
    assert K.shot_pool(F, S, opts(start_distance="20"), 0, L.SH_STANDARD) == base


def _rate(p, n):
    k = p.compiled.n_counters
    got = p.compiled.kernels.duels(*p.compiled.args(), np.uint64(SEED), np.int64(0), np.int64(n), 1, k).sum(0)
    return got[RULESET.counters.wins] / n, got


def test_v14_7_melee_cap_limits_the_enemies_on_one():
    """V-14.7: ``melee_cap`` (default 8, more than a side has: no limit) caps how many enemies fight
    one fighter; three militia against one knight with a cap of 1 fight it one at a time (the others
    wait), so the knight wins far more (beyond 8σ)."""
    n = 4000
    free, _got = _rate(RULESET.prepare_fight(["militia"] * 3, ["knight"]), n)
    capped, _got = _rate(RULESET.prepare_fight(["militia"] * 3, ["knight"], options={"melee_cap": "1"}), n)
    assert free - capped > 8 * math.sqrt(0.25 / n)


def fighter(name: str, **changes):
    f = Catalog.bundled().fighter(name)
    data = RULESET.fighter_data(f)
    data.update(changes)
    return RULESET.fighter_from_data(data, "test", name)


def test_v14_8_every_overwatching_shooter_fires():
    """V-14.8, V-11.13: two riflemen in sector control against two raiders charging from 30 m:
    ``overwatch_shooters = every`` (the digest's reading) lets both fire at each raider's move, ``foe``
    only the mover's own foe; the riflemen win more (beyond 4σ of the difference)."""
    n = 16_000
    rates = {}
    for mode in ("every", "foe"):
        p = RULESET.prepare_fight([fighter("rifleman", tactic="overwatch")] * 2, ["raider"] * 2,
                                  options={"start_distance": "30", "overwatch_shooters": mode})
        rates[mode], _got = _rate(p, n)
    spread = math.sqrt(sum(r * (1 - r) for r in rates.values()) / n)
    assert rates["every"] - rates["foe"] > 4 * spread


@pytest.mark.parametrize("mode", ["every", "foe"])
def test_v14_6_every_enemy_whose_reach_is_left_strikes(mode):
    """V-14.6, V-10.7: a gunfighter at point blank of two raiders steps back 10 m: ``opportunity_from =
    every`` (the digest's reading) draws a free blow from each raider whose reach it leaves (the
    second only if the first left it in the fight), ``foe`` from its foe only."""
    p, F, S = fighters(["gunfighter"], ["raider", "raider"], start_distance="1")
    o = p.compiled.options.copy()
    o[:] = opts(start_distance="1", opportunity_from=mode)
    tt = RULESET.prepare("swordsman", "brute").compiled.tables[0]
    c = RULESET.counters
    st = np.empty(4, dtype=np.uint64)
    seed_duel(st, np.uint64(SEED), np.int64(0))
    for _ in range(300):
        S[:] = 0
        K.open_duel(F, S, o)
        for j in (1, 2):
            S[j, B_X] = 1
        engage(S, 0, 1)
        S[1, B_FOE] = S[2, B_FOE] = 0
        cnt = np.zeros(p.compiled.n_counters, dtype=np.int64)
        K.retreat(F, S, o, tt, st, cnt, 0)
        blows = cnt[c.attack + L.N_OUTCOMES:c.attack + 2 * L.N_OUTCOMES].sum()
        assert S[0, B_X] == -10
        want = 1 if mode == "foe" or S[0, L.S_OUT] != 0 and blows == 1 else 2
        assert blows == want


def test_v15_9_burst_spread_one_each_hits_the_neighbours():
    """V-15.9, V-11.12, V-14.4: the gunner's long bursts at two riflemen abreast (matchup C of V-16.4,
    20 m): ``spread = one_each`` puts one success on the other rifleman (a hit of its own, own armour
    roll), ``none`` (default) every success on the target; blows landed on side b rise and side b's
    damage per blow falls on the target (beyond 8σ of the blow counts' Poisson spread)."""
    n = 4000
    c = RULESET.counters
    blows = {}
    for spread in ("none", "one_each"):
        p = RULESET.prepare_fight([fighter("gunner", spread=spread)], ["rifleman", "rifleman"],
                                  options={"start_distance": "20"})
        _r, got = _rate(p, n)
        side_b = c.wound + L.N_LEVELS  # the blows side b took, by level (one zone)
        blows[spread] = int(got[side_b:side_b + L.N_LEVELS].sum())
    assert blows["one_each"] - blows["none"] > 8 * math.sqrt(blows["none"])


@pytest.fixture(scope="module")
def one_thread():
    import numba

    before = numba.get_num_threads()
    numba.set_num_threads(1)
    yield
    numba.set_num_threads(before)


@pytest.mark.parametrize("side_a,side_b,options", [
    (["militia"] * 3, ["knight", "brute"], {"melee_cap": "1", "outnumber_dice": "2"}),
    (["swordsman", "swordsman"], ["raider"] * 3, {"melee_cap": "1", "finish_helpless": "on"}),
    (["rifleman", "swordsman", "rifleman"], ["raider", "raider"],
     {"start_distance": "20", "into_melee_dice": "-2", "outnumber_dice": "1", "melee_cap": "2"}),
    ([("rifleman", {"tactic": "overwatch"}), ("rifleman", {"tactic": "overwatch"})], ["raider", "raider"],
     {"start_distance": "30"}),
    ([("rifleman", {"tactic": "overwatch"}), "gunfighter"], ["raider", "raider", "swordsman"],
     {"start_distance": "30", "overwatch_shooters": "foe", "overwatch_move": "end"}),
    ([("gunfighter", {"tactic": "kite"}), ("gunfighter", {"tactic": "kite"})], ["raider", "raider"], {}),
    ([("gunfighter", {"tactic": "kite"})], ["raider", "raider"], {"opportunity_from": "foe"}),
    ([("gunner", {"spread": "one_each"})], ["rifleman", "rifleman", "raider"], {"start_distance": "20"}),
    ([("gunner", {"spread": "one_each", "attack_spending": "intimidate"}), "rifleman"], ["raider", "raider"],
     {"start_distance": "25", "stop_die": "not_counted"}),
])
def test_fights_with_crowds_agree_with_the_reference(one_thread, side_a, side_b, options):
    """V-14.2, V-14.5, V-14.7, V-14.8, V-14.6: fight by fight, counter for counter."""
    side_a, side_b = ([x if isinstance(x, str) else fighter(x[0], **x[1]) for x in side] for side in (side_a, side_b))
    p = RULESET.prepare_fight(side_a, side_b, options=options)
    o = p.options.as_dict()
    k = p.compiled.n_counters
    for index in range(120):
        got = p.compiled.kernels.duels(*p.compiled.args(), np.uint64(SEED), np.int64(index), np.int64(1), 1, k)[0]
        assert got.tolist() == nv.fight(p.a, p.b, o, TRAUMAS, SEED, index), f"fight {index}"
