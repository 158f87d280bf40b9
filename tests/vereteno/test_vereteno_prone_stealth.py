"""Vereteno lying prone by choice (V-10.8, with V-10.5, V-10.6, V-11.16, V-11.19) and the stealth
approach (V-10.10, with V-2.5, V-1.5): pools and moves on hand-made states, a prone tactic's turns
traced by hand, exact attacks and stealth chances against hand-computed numbers and against
sampling within 4σ, each option both ways against a win rate that moves, and bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest
from vereteno_util import fighter, opened, prepared

from brutal_sim import api
from brutal_sim.rulesets.vereteno import RULESET, layout as L
from brutal_sim.rulesets.vereteno.exact import check_pmf, stealth_chance
from brutal_sim.rulesets.vereteno.kernel import (
    attack_pool,
    melee_pool,
    move_metres,
    open_duel,
    ranged_turn,
    shot_pool,
    stealth_approach,
    stealth_pool,
)
from brutal_sim.rulesets.vereteno.options import O_STEALTH, STEALTH_DICE
from brutal_sim.toolbox.rng import seed_duel

#: the raider of V-16.4 with Скрытность 3 (the bundled one has none)
STEALTHY = {"melee": 3, "nimbleness": 1, "influence": 1, "stealth": 3}




def apart(S: np.ndarray) -> int:
    return int(abs(S[0, L.S_X] - S[1, L.S_X]))


def shots(cnt: np.ndarray, side: int) -> int:
    return int(cnt[L.C_ATTACKS + side * 5:L.C_ATTACKS + side * 5 + 5].sum())


# -- V-10.8 lying prone by choice ------------------------------------------------------------------------

def test_v10_6_v10_8_v11_19_a_fighter_lying_by_choice_is_shot_at_minus_1():
    """V-10.6, V-10.8, V-11.19: a fighter with ``prone = true`` starts lying (not knocked down); a
    shot at it loses 1 die (the rifleman's aimed shot at 20 m: 10 dice at a standing target, 9 at a
    lying one), as a shot at a knocked-down target does, and the two do not add up."""
    p = prepared("rifleman", fighter("swordsman", prone=True), start_distance="20")
    F, S, o = p.compiled.fighters, opened(p), p.compiled.options
    assert (S[1, L.S_LYING], S[1, L.S_PRONE]) == (1, 0)
    lying = shot_pool(F, S, o, 0, L.SH_AIMED)
    S[1, L.S_LYING] = 0
    standing = shot_pool(F, S, o, 0, L.SH_AIMED)
    S[1, L.S_PRONE] = 1
    knocked_down = shot_pool(F, S, o, 0, L.SH_AIMED)
    S[1, L.S_LYING] = 1
    assert (standing, lying, knocked_down, shot_pool(F, S, o, 0, L.SH_AIMED)) == (10, 9, 9, 9)


@pytest.mark.parametrize("value, dice", [("plus2", 2), ("0", 0)])
def test_v10_8_prone_melee_dice_against_a_fighter_lying_by_choice(value, dice):
    """V-10.8 GAP ``prone_melee``: a melee attack at a fighter lying by choice gains 2 dice (as at a
    knocked-down one, V-6.7) or none; at a knocked-down one it gains V-6.7's 2 once, either way."""
    p = prepared("swordsman", fighter("swordsman", prone=True), prone_melee=value)
    F, S, o = p.compiled.fighters, opened(p), p.compiled.options
    base = attack_pool(F, S, 0, 1, L.K_STANDARD)
    assert base == 4 + 3 + 1  # Телосложение + Ближний бой + the sword's modifier
    assert melee_pool(F, S, o, 0, 1, L.K_STANDARD) == base + dice
    S[1, L.S_PRONE] = 1
    assert melee_pool(F, S, o, 0, 1, L.K_STANDARD) == attack_pool(F, S, 0, 1, L.K_STANDARD) == base + 2


def test_v10_8_exact_attack_at_a_lying_fighter_is_the_attack_with_two_more_dice():
    """V-10.8, V-4.1: the exact standard blow at a swordsman lying by choice (``prone_melee =
    plus2``) is the exact blow of an attacker with 2 more Ближний бой at a standing one (the
    defender's choice of reaction does not depend on the attacker's skill); with ``prone_melee = 0``
    it is the plain blow; the sampled blow agrees within 4σ."""
    lying = fighter("swordsman", prone=True)
    plus2 = api.attack("swordsman", lying, ruleset="vereteno")
    zero = api.attack("swordsman", lying, ruleset="vereteno", options={"prone_melee": "0"})
    skilled = api.attack(fighter("swordsman", skills={"melee": 5, "nimbleness": 1}), "swordsman",
                         ruleset="vereteno")
    plain = api.attack("swordsman", "swordsman", ruleset="vereteno")
    assert np.allclose(plus2.outcomes, skilled.outcomes, atol=1e-12)
    assert np.allclose(zero.outcomes, plain.outcomes, atol=1e-12)
    hit = RULESET.counters.outcomes.index("hit")
    assert plus2.outcomes[hit] > zero.outcomes[hit] + 0.035  # 0.317 against 0.279
    n = 20_000
    sampled = api.attack("swordsman", lying, ruleset="vereteno", n=n, seed=4, threads=1)
    for p, q in zip(plus2.outcomes, sampled.outcomes):
        assert abs(p - q) <= 4 * math.sqrt(max(p * (1 - p), 1e-12) / n) + 1e-9


def test_v10_8_v11_19_exact_shot_at_a_lying_fighter_is_the_shot_at_size_minus_1():
    """V-10.8, V-11.19: the rifleman's exact aimed shot at 50 m at a swordsman lying by choice is its
    shot at a standing swordsman of ``size_mod = −1`` (one die fewer either way), below the shot at a
    standing one; the sampled shot agrees within 4σ."""
    o = {"start_distance": "50"}
    lying = api.attack("rifleman", fighter("swordsman", prone=True), ruleset="vereteno", options=o)
    small = api.attack("rifleman", fighter("swordsman", size_mod=-1), ruleset="vereteno", options=o)
    standing = api.attack("rifleman", "swordsman", ruleset="vereteno", options=o)
    assert np.allclose(lying.outcomes, small.outcomes, atol=1e-12)
    miss = RULESET.counters.outcomes.index("miss")
    assert lying.outcomes[miss] > standing.outcomes[miss] + 0.015  # 0.354 against 0.335
    n = 20_000
    sampled = api.attack("rifleman", fighter("swordsman", prone=True), ruleset="vereteno", options=o, n=n, seed=8,
                         threads=1)
    for p, q in zip(lying.outcomes, sampled.outcomes):
        assert abs(p - q) <= 4 * math.sqrt(max(p * (1 - p), 1e-12) / n) + 1e-9


@pytest.mark.parametrize("halving, halfspd, metres", [("once", 0, 5), ("once", 1, 5), ("stack", 1, 2)])
def test_v10_5_v10_8_lying_halves_the_speed(halving, halfspd, metres):
    """V-10.5, V-10.8: lying prone is a cause of halved speed: 10 m → 5 m; with a HALFSPD trauma too,
    halved once (``halving = once``) or twice (``stack``: 2 m)."""
    p = prepared(fighter("swordsman", prone=True), "swordsman", start_distance="30", halving=halving)
    F, S, o = p.compiled.fighters, opened(p), p.compiled.options
    S[0, L.S_HALFSPD] = halfspd
    assert move_metres(F, S, o, 0) == metres
    S[0, L.S_LYING] = 0
    assert move_metres(F, S, o, 0) == (10 if halfspd == 0 else 5)


def _turn(p, S, i, seed=1):
    c = p.compiled
    st, cnt = np.empty(4, dtype=np.uint64), np.zeros(c.n_counters, dtype=np.int64)
    seed_duel(st, np.uint64(seed), np.int64(0))
    S[i, L.S_AP] = c.fighters[i, L.P_AP]
    ranged_turn(c.fighters, S, c.options, c.tables[0], st, cnt, i)
    return cnt


def test_v10_8_v11_16_v15_5_prone_aimed_lies_down_braces_then_aims():
    """V-10.8, V-11.16, V-15.5, V-15.8: the rifleman's ``prone_aimed`` at 900 m lies down (1 AP) and
    fires a standard shot in its first turn, braces (1 AP, lying supports the gun) and fires a
    standard shot in its second, then aimed shots (3 AP) of 6 dice, 5 unbraced."""
    p = prepared(fighter("rifleman", tactic="prone_aimed"), "swordsman", start_distance="900")
    F, S, o = p.compiled.fighters, opened(p), p.compiled.options
    cnt = _turn(p, S, 0)
    assert (S[0, L.S_LYING], S[0, L.S_BRACED], S[0, L.S_AP], shots(cnt, 0)) == (1, 0, 0, 1)
    cnt = _turn(p, S, 0)
    assert (S[0, L.S_LYING], S[0, L.S_BRACED], S[0, L.S_AP], shots(cnt, 0)) == (1, 1, 0, 1)
    S[0, L.S_AP] = 3
    assert shot_pool(F, S, o, 0, L.SH_AIMED) == 6
    S[0, L.S_BRACED] = 0
    assert shot_pool(F, S, o, 0, L.SH_AIMED) == 5
    S[0, L.S_BRACED] = 1
    cnt = _turn(p, S, 0)
    assert (S[0, L.S_LYING], S[0, L.S_BRACED], S[0, L.S_AP], shots(cnt, 0)) == (1, 1, 0, 1)


def test_v10_8_v15_2_a_lying_shooter_stands_up_once_engaged_then_draws_and_strikes():
    """V-10.8 [reading], V-15.2: engaged while lying, the rifleman stands up (1 AP), readies its
    knife (1 AP, ``engaged = draw``) and makes a quick attack (1 AP)."""
    p = prepared(fighter("rifleman", tactic="prone_aimed", prone=True), "swordsman", start_distance="1")
    S = opened(p)
    cnt = _turn(p, S, 0)
    assert (S[0, L.S_LYING], S[0, L.S_AP], S[0, L.S_DROPPED] & L.HAND_GUN, shots(cnt, 0)) == (0, 0, 0, 1)


def test_v10_8_a_lying_fighter_stands_up_to_close_in_and_crawls_away():
    """V-10.8 [reading], V-15.4, V-10.5: a swordsman lying at 30 m stands up (1 AP), then makes two
    moves of 10 m (10 m apart); a kiting gunfighter lying at 5 m from a swordsman crawls away at half
    speed (5 m: 10 m apart) and stays lying."""
    p = prepared("rifleman", fighter("swordsman", prone=True), start_distance="30")
    S = opened(p)
    _turn(p, S, 1)
    assert (S[1, L.S_LYING], S[1, L.S_AP], apart(S)) == (0, 0, 10)
    p = prepared(fighter("gunfighter", tactic="kite", prone=True), "swordsman", start_distance="5")
    S = opened(p)
    _turn(p, S, 0)
    assert S[0, L.S_LYING] == 1 and apart(S) == 10


def test_v10_8_prone_melee_both_ways_moves_the_win_rate():
    """V-10.8 ``prone_melee``: a quick-striking swordsman that surprises (V-2.5) a swordsman lying at
    1 m wins 56.5 % of 20,000 duels with +2 dice at it and 45.1 % with none (44 % against one
    standing); here 4000 duels each, apart by more than 6σ."""
    n = 4000
    a = fighter("swordsman", tactic="quick3")
    b = fighter("swordsman", prone=True)
    rates = [api.duel(a, b, n=n, seed=5, ruleset="vereteno", threads=1,
                      options={"surprise": "a", "prone_melee": v}).counters[L.C_WINS] / n for v in ("plus2", "0")]
    sigma = math.sqrt(sum(r * (1 - r) for r in rates) / n)
    assert rates[0] - rates[1] > 6 * sigma, rates


def test_v10_8_prone_aimed_against_a_charging_swordsman_from_30_m():
    """V-10.8, V-16.4 A: against the swordsman charging from 30 m (it reaches the rifleman in its
    first turn) lying down costs the AP of a shot: ``prone_aimed`` wins 8.1 % of 20,000 duels,
    the rifleman's ``aimed`` 10.1 %; here 10,000 each, apart by more than 3σ."""
    n = 10_000
    rates = [api.duel("rifleman", "swordsman", n=n, seed=2, ruleset="vereteno", threads=1,
                      options={"start_distance": "30"}, **kw).counters[L.C_WINS] / n
             for kw in ({}, {"tactic_a": "prone_aimed"})]
    sigma = math.sqrt(sum(r * (1 - r) for r in rates) / n)
    assert rates[0] - rates[1] > 3 * sigma, rates


# -- V-10.10 the stealth approach ------------------------------------------------------------------------

@pytest.mark.parametrize("distance, ambush, dice", [
    ("0", "off", 3), ("2", "off", 4), ("15", "off", 5), ("50", "off", 7), ("1000", "off", 9), ("2", "on", 6)])
def test_v10_10_stealth_pool_by_the_declared_band_and_ambush(distance, ambush, dice):
    """V-10.10 (seed 30, 33–39): Ловкость 2 + Скрытность 3, point blank −2, close −1, medium 0,
    long +2, extreme +4; in ambush +2."""
    p = prepared(fighter("raider", skills=STEALTHY), "rifleman", start_distance="1000", stealth="a",
                 stealth_distance=distance, stealth_ambush=ambush)
    assert stealth_pool(p.compiled.fighters, p.compiled.options, 0) == dice


def _approaches(p, n: int) -> tuple[float, list[int]]:
    """``n`` stealth approaches on fresh duels (seed 7, duels 0 … n − 1): the success rate and the
    distances the fights start at."""
    c = p.compiled
    F, o = c.fighters, c.options
    st, S = np.empty(4, dtype=np.uint64), np.zeros((2, L.NS), dtype=np.int64)
    wins, starts = 0, []
    for idx in range(n):
        seed_duel(st, np.uint64(7), np.int64(idx))
        open_duel(F, S, o)
        ok = stealth_approach(F, S, o, st)
        assert bool(S[int(o[O_STEALTH]) - 1, L.S_SURPRISE]) == ok
        wins += ok
        starts.append(apart(S))
    return wins / n, starts


def test_v10_10_v1_5_exact_stealth_chance_by_hand():
    """V-10.10, V-1.3, V-1.5: one die (Ловкость 1, medium band): plain P = P(17–20) = 0.2; opposed
    against one die (Интеллект 1): P(2 > t) + P(1 > t) + P(0 > −2) = 0.05·0.95 + 0.15·0.8 + 0.75·0.05
    = 0.205 (a tie fails)."""
    a = fighter(attributes={"physique": 3, "agility": 1, "intellect": 2, "empathy": 2})
    b = fighter(attributes={"physique": 3, "agility": 3, "intellect": 1, "empathy": 2})
    plain = prepared(a, b, start_distance="20", stealth="a", stealth_distance="15")
    opposed = prepared(a, b, start_distance="20", stealth="a", stealth_distance="15", stealth_check="opposed")
    assert stealth_chance(plain.compiled.fighters, plain.compiled.options) == pytest.approx(0.2, abs=1e-15)
    assert stealth_chance(opposed.compiled.fighters, opposed.compiled.options) == pytest.approx(0.205, abs=1e-15)


def test_v1_5_ties_of_the_opposed_stealth_check_by_hand():
    """V-1.5 GAP ``ties``: the one-die checks above tie with P(2,2) + P(1,1) + P(0,0) + P(−2,−2) =
    0.05·0.05 + 0.15·0.15 + 0.75·0.75 + 0.05·0.05 = 0.59: a tie that fails gives 0.205, one that
    succeeds 0.205 + 0.59 = 0.795, rolling again 0.205 / (1 − 0.59) = 0.5 (the two dice are alike)."""
    a = fighter(attributes={"physique": 3, "agility": 1, "intellect": 2, "empathy": 2})
    b = fighter(attributes={"physique": 3, "agility": 3, "intellect": 1, "empathy": 2})
    chances = {}
    for ties in ("initiator_fails", "initiator_wins", "reroll"):
        p = prepared(a, b, start_distance="20", stealth="a", stealth_distance="15", stealth_check="opposed", ties=ties)
        chances[ties] = stealth_chance(p.compiled.fighters, p.compiled.options)
    assert chances == pytest.approx({"initiator_fails": 0.205, "initiator_wins": 0.795, "reroll": 0.5}, abs=1e-12)


@pytest.mark.parametrize("ties", ["initiator_wins", "reroll"])
def test_v1_5_sampled_ties_agree_with_the_exact_chance(ties):
    """V-1.5 ``ties``: the raider's opposed stealth check against the rifleman over 20,000 duels
    succeeds as often as the exact chance within 4σ, a tie counted a success or rolled again; both
    above the chance when a tie fails."""
    p = prepared(fighter("raider", skills=STEALTHY), "rifleman", start_distance="40", stealth="a",
                 stealth_distance="2", stealth_check="opposed", ties=ties)
    fails = prepared(fighter("raider", skills=STEALTHY), "rifleman", start_distance="40", stealth="a",
                     stealth_distance="2", stealth_check="opposed")
    exact = stealth_chance(p.compiled.fighters, p.compiled.options)
    assert exact > stealth_chance(fails.compiled.fighters, fails.compiled.options) + 0.05
    n = 20_000
    rate, _ = _approaches(p, n)
    assert abs(rate - exact) <= 4 * math.sqrt(exact * (1 - exact) / n), (rate, exact)


@pytest.mark.parametrize("check, side", [("plain", "a"), ("opposed", "a"), ("opposed", "b")])
def test_v10_10_sampled_stealth_success_agrees_with_the_exact_chance(check, side):
    """V-10.10: the kernel's stealth approach over 20,000 duels succeeds as often as the exact pool
    probability within 4σ (the raider's 4 dice at a close declared distance; opposed against the
    rifleman's Интеллект 2 + Наблюдательность 1)."""
    a, b = fighter("raider", skills=STEALTHY), "rifleman"
    if side == "b":
        a, b = b, a
    p = prepared(a, b, start_distance="40", stealth=side, stealth_distance="2", stealth_check=check)
    exact = stealth_chance(p.compiled.fighters, p.compiled.options)
    pmf, lo = check_pmf(4, p.compiled.options)
    if check == "plain":
        assert exact == pytest.approx(pmf[1 - lo:].sum(), abs=1e-15)
    n = 20_000
    rate, _ = _approaches(p, n)
    assert abs(rate - exact) <= 4 * math.sqrt(exact * (1 - exact) / n), (rate, exact)


@pytest.mark.parametrize("fail, failed_at", [("start_distance", 40), ("declared_distance", 2)])
def test_v10_10_where_the_fight_starts(fail, failed_at):
    """V-10.10 GAP ``stealth_fail``: a success starts the fight at the declared 2 m with the
    surprise; a failure at ``start_distance`` (40 m) or at the declared distance, without it."""
    p = prepared(fighter("raider", skills=STEALTHY), "rifleman", start_distance="40", stealth="a",
                 stealth_distance="2", stealth_fail=fail)
    rate, starts = _approaches(p, 400)
    assert 0 < rate < 1 and set(starts) == {2, failed_at}


def test_v10_10_v2_5_stealth_both_ways_moves_the_win_rate():
    """V-10.10, V-2.5: the raider (Скрытность 3) against the rifleman from 40 m wins 69.9 % of
    20,000 duels without a stealth approach and 84.8 % with ``stealth = a`` (declared 1 m: 3 dice,
    P = 0.39 exactly); here 4000 each, apart by more than 6σ."""
    n = 4000
    raider = fighter("raider", skills=STEALTHY)
    rates = [api.duel(raider, "rifleman", n=n, seed=6, ruleset="vereteno", threads=1,
                      options={"start_distance": "40", "stealth": s}).counters[L.C_WINS] / n for s in ("none", "a")]
    sigma = math.sqrt(sum(r * (1 - r) for r in rates) / n)
    assert rates[1] - rates[0] > 6 * sigma, rates


def test_v10_10_v2_5_a_successful_approach_brings_the_stealth_attack():
    """V-10.10, V-2.5: on success the stealthy side's stealth attack (``stealth_attack = dice``: +3
    to its first attack) is due and the surprise dice join its first initiative."""
    p = RULESET.prepare(fighter("raider", skills=STEALTHY), "rifleman",
                        options={"start_distance": "40", "stealth": "a", "stealth_attack": "dice"})
    c = p.compiled
    F, o = c.fighters, c.options
    st, S = np.empty(4, dtype=np.uint64), np.zeros((2, L.NS), dtype=np.int64)
    for idx in range(50):
        seed_duel(st, np.uint64(7), np.int64(idx))
        open_duel(F, S, o)
        ok = stealth_approach(F, S, o, st)
        assert (S[0, L.S_STEALTH], S[0, L.S_SURPRISE], apart(S)) == ((STEALTH_DICE, 1, 1) if ok else (0, 0, 40))


def test_v10_10_v10_8_deterministic_across_lanes():
    """V-10.10, V-10.8: the stealth check draws from the duel's own stream, so a run with a stealth
    approach and prone fighters gives the same counters in 1 or 3 parallel lanes."""
    p = RULESET.prepare(fighter("raider", skills=STEALTHY), fighter("rifleman", tactic="prone_aimed"),
                        options={"start_distance": "60", "stealth": "a", "stealth_distance": "20",
                                 "stealth_check": "opposed", "stealth_attack": "extra_attack"})
    c = p.compiled
    runs = [c.kernels.duels(*c.args(), np.uint64(9), np.int64(0), np.int64(600), lanes, c.n_counters).sum(axis=0)
            for lanes in (1, 3)]
    assert runs[0].tolist() == runs[1].tolist() and runs[0][L.C_WINS:L.C_WINS + 2].sum() > 0
