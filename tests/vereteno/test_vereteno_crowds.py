"""Crowds in fights of several a side (V-14.2 outnumbering, V-14.5 shooting into melee, V-14.7
crowding): the dials ``outnumber_dice`` and ``into_melee_dice`` on the kernel's pools, the cap
``melee_cap`` on the choice of a foe, each both ways, and the naive reference fight by fight."""

from __future__ import annotations

import math

import naive_vereteno as nv
import numpy as np
import pytest

from brutal_sim.core.battle import B_ENGAGERS, B_FOE, B_X
from brutal_sim.rulesets.vereteno import RULESET, kernel as K, layout as L
from brutal_sim.rulesets.vereteno.catalog import Catalog
from brutal_sim.rulesets.vereteno.options import compile_options

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
])
def test_fights_with_crowds_agree_with_the_reference(one_thread, side_a, side_b, options):
    """V-14.2, V-14.5, V-14.7: fight by fight, counter for counter."""
    p = RULESET.prepare_fight(side_a, side_b, options=options)
    o = p.options.as_dict()
    k = p.compiled.n_counters
    for index in range(120):
        got = p.compiled.kernels.duels(*p.compiled.args(), np.uint64(SEED), np.int64(index), np.int64(1), 1, k)[0]
        assert got.tolist() == nv.fight(p.a, p.b, o, TRAUMAS, SEED, index), f"fight {index}"
