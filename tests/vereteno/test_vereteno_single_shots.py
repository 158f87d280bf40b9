"""Vereteno single shots and throws measured exactly (``attack``) against numbers computed here by
hand: the dice an immobilised target gives (V-6.9), a long burst under ``burst_hit = first_check``
(V-11.12), a blow that puts the target out through its Will although the armour stopped its damage
(V-12.3, V-5.3), a hit for 0 damage (V-16.2); the sampled attack within 4σ of the exact one.

A check's distribution is counted here from the four face categories of a d20 (V-1.3: 20 two
successes, 17–19 one, 1 ``one_value``, the rest none), multinomially; an armour roll's by every face
combination of its dice (V-5.4)."""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
import pytest
from vereteno_util import fighter, opened, prepared

from brutal_sim import api
from brutal_sim.rulesets.vereteno import RULESET, layout as L
from brutal_sim.rulesets.vereteno.kernel import immobilise, shot_pool

OUT = RULESET.counters.outcomes
LEVELS = RULESET.counters.levels


def check(n: int, one: int = -2) -> dict[int, float]:
    """V-1.3: the net successes of ``n`` ≥ 1 d20 (20: 2, 17–19: 1, 1: ``one``, 2–16: 0), by the
    multinomial counts of the four categories."""
    out: dict[int, float] = {}
    for n20 in range(n + 1):
        for n17 in range(n + 1 - n20):
            for n1 in range(n + 1 - n20 - n17):
                rest = n - n20 - n17 - n1
                ways = math.factorial(n) // (math.factorial(n20) * math.factorial(n17) * math.factorial(n1)
                                             * math.factorial(rest))
                p = ways * 1 ** n20 * 3 ** n17 * 1 ** n1 * 15 ** rest / 20 ** n
                t = 2 * n20 + n17 + one * n1
                out[t] = out.get(t, 0.0) + p
    return out


def miss(n: int) -> float:
    return sum(p for t, p in check(n).items() if t <= 0)


def armour_roll(n: int) -> dict[int, float]:
    """V-5.4 (``armour_ones = separate``): damage removed by ``n`` armour dice, every face combination."""
    out: dict[int, float] = {}
    for faces in itertools.product(range(1, 21), repeat=n):
        r = sum(2 if f == 20 else 1 if f >= 17 else 0 for f in faces)
        out[r] = out.get(r, 0.0) + 20.0 ** -n
    return out


def continuation(one: int = -2, dice: int = 250) -> dict[int, float]:
    """V-11.12: a long burst's continuation: d20s until one shows 1–4, each counted by V-1.3, the
    stopping die too (a 1 adds ``one``); ``dice`` rolls cover all but 0.8 ** dice of it."""
    out: dict[int, float] = {}
    running = {0: 1.0}  # the sum of the dice so far, none of them stopping
    for _ in range(dice):
        nxt: dict[int, float] = {}
        for v, p in running.items():
            out[v] = out.get(v, 0.0) + p * 3 / 20  # 2–4 stops, adds nothing
            out[v + one] = out.get(v + one, 0.0) + p * 1 / 20  # a 1 stops, adds one_value
            for add, q in ((2, 1 / 20), (1, 3 / 20), (0, 12 / 20)):  # 20, 17–19, 5–16 go on
                nxt[v + add] = nxt.get(v + add, 0.0) + p * q
        running = nxt
    return out


def attack(a: Any, b: Any, n: int | None = None, **options: str):
    return api.attack(a, b, ruleset="vereteno", options=options, n=n, seed=5, threads=1)


def outcomes(r) -> dict[str, float]:
    return dict(zip(OUT, r.outcomes))


def levels(r) -> dict[str, float]:
    return dict(zip(LEVELS, r.levels[:, 0]))


def within_4_sigma(exact, sampled, n: int) -> None:
    for p, q in zip(np.ravel(exact.outcomes), np.ravel(sampled.outcomes)):
        assert abs(p - q) <= 4 * math.sqrt(max(p * (1 - p), 1e-12) / n) + 1e-9, (exact.outcomes, sampled.outcomes)
    for p, q in zip(np.ravel(exact.levels), np.ravel(sampled.levels)):
        assert abs(p - q) <= 4 * math.sqrt(max(p * (1 - p), 1e-12) / n) + 1e-9, (exact.levels, sampled.levels)


# -- V-6.9 an immobilised target: +2 dice against shots and throws too --------------------------------

def test_v6_9_shots_and_throws_at_an_immobilised_target_gain_two_dice():
    """V-6.9 "attacks at it +2 dice": the rifleman's aimed shot from 50 m (V-16.1: 4 + 3 + 1 + 2 − 1 =
    9 dice) rolls 11 at an immobilised gunner (its hip shot, a sector shot's, 5 → 7), the knife
    thrower's throw from 20 m (``throw_range = medium``: 4 + 3 + 0 + 0 = 7) 9; the shooter's own
    immobilisation changes nothing."""
    p = prepared("rifleman", "gunner", start_distance="50")
    F, o = p.compiled.fighters, p.compiled.options
    for side, aimed, hip in (("none", 9, 5), ("a", 9, 5), ("b", 11, 7), ("both", 11, 7)):
        q = prepared("rifleman", "gunner", start_distance="50", immobilised=side)
        S = opened(p)
        immobilise(F, S, q.compiled.options)
        assert (shot_pool(F, S, o, 0, L.SH_AIMED), shot_pool(F, S, o, 0, L.SH_HIP)) == (aimed, hip)
    t = prepared("knife_thrower", "swordsman", start_distance="20", throw_range="medium")
    for side, dice in (("none", 7), ("a", 7), ("b", 9)):
        S = opened(t)
        immobilise(t.compiled.fighters, S, prepared("knife_thrower", "swordsman", immobilised=side).compiled.options)
        assert shot_pool(t.compiled.fighters, S, t.compiled.options, 0, L.SH_THROW) == dice


def test_v6_9_exact_shot_and_throw_at_an_immobilised_target():
    """V-6.9, V-11.15: no reaction answers the rifleman's shot, so P(miss) = P(check ≤ 0): 9 dice
    0.3348, at an immobilised gunner 11 dice 0.3042; the knife throw at a swordsman that does not
    react (no dodge, V-11.20): 7 dice, immobilised 9."""
    for side, dice in (("none", 9), ("a", 9), ("b", 11)):
        r = attack("rifleman", "gunner", start_distance="50", immobilised=side)
        assert outcomes(r)["miss"] == pytest.approx(miss(dice), abs=1e-12)
    assert miss(9) == pytest.approx(0.334828, abs=1e-6) and miss(11) == pytest.approx(0.304162, abs=1e-6)
    target = fighter("swordsman", reaction="none")
    for side, dice in (("none", 7), ("b", 9)):
        r = attack("knife_thrower", target, start_distance="20", throw_range="medium", immobilised=side)
        assert outcomes(r)["miss"] == pytest.approx(miss(dice), abs=1e-12)


# -- V-11.12 burst_hit = first_check: the check alone decides -----------------------------------------

def test_v11_12_first_check_the_check_alone_decides_the_hit():
    """V-11.12 ``burst_hit = first_check``: the gunner's long burst at 20 m (3 + 3 + 0 − 2 = 4 dice)
    misses exactly when the check does, P(check ≤ 0) = 0.4924, however low the continuation (a 1
    stopping it adds −2); a hit's successes are check + continuation, at least 1 **[reading]**. With
    ``damage_only`` at the unarmoured duelist each hit deals 3 + successes − 1. ``total``: the sum
    decides."""
    target = fighter("duelist", reaction="none")
    gunner = fighter("gunner", attack_spending="damage_only")
    c, k = check(4), continuation()
    first = attack(gunner, target, start_distance="20", burst_hit="first_check")
    assert outcomes(first)["miss"] == pytest.approx(miss(4), abs=1e-12)
    assert miss(4) == pytest.approx(0.492425, abs=1e-9)
    mean = sum(pc * pk * (2 + max(s + j, 1)) for s, pc in c.items() if s >= 1 for j, pk in k.items())
    assert first.mean_damage_per_attack == pytest.approx(mean, abs=1e-12)
    total = attack(gunner, target, start_distance="20")
    assert outcomes(total)["miss"] == pytest.approx(
        sum(pc * pk for s, pc in c.items() for j, pk in k.items() if s + j <= 0), abs=1e-12)
    mean = sum(pc * pk * (2 + s + j) for s, pc in c.items() for j, pk in k.items() if s + j >= 1)
    assert total.mean_damage_per_attack == pytest.approx(mean, abs=1e-12)


def test_v11_12_first_check_sampled_within_4_sigma():
    """V-11.12: the sampled burst under ``first_check`` (the stopping 1 counted) within 4σ of the exact
    one: the kernel keeps a hit that the continuation takes below 1 success."""
    n = 20_000
    options = {"start_distance": "20", "burst_hit": "first_check"}
    within_4_sigma(attack("gunner", "rifleman", **options), attack("gunner", "rifleman", n=n, **options), n)


# -- V-12.3, V-5.3 a blow that puts the target out through its Will -----------------------------------

#: a pistol shooter (Ловкость 3 + Стрельба 2 + Makov pistol +1: a standard shot of 6 dice at 10 m)
#: buying suppression with its extra successes (1 Will each, V-12.3)
SUPPRESSOR = {"attributes": {"physique": 3, "agility": 3, "intellect": 2, "empathy": 2},
              "skills": {"shooting": 2}, "gun": "makov_pistol", "tactic": "std_shot",
              "attack_spending": "intimidate"}
#: Will 2 (Интеллект 1 + Эмпатия 1, V-5.1), leather armour (2 dice) behind cover 2: 4 armour dice
WEAK_WILLED = {"attributes": {"physique": 4, "agility": 3, "intellect": 1, "empathy": 1},
               "armour": "leather_armour", "cover": 2, "reaction": "none"}


def test_v12_3_a_blow_putting_the_target_out_through_its_will_is_level_out():
    """V-12.3, V-5.3: each extra success of the shot (6 dice) is 1 Will the armour and cover never
    stop, so s ≥ 3 puts the Will-2 target out whatever the 4 armour dice do (level ``out``, also when
    they stop the pistol's 2 damage: outcome ``armour_stopped``); s = 1, 2 is ``none`` when they stop
    it (≥ 2 removed), ``scratch`` (1) or ``wound`` (0); Health 7 never falls to 0 from one shot."""
    shooter, target = fighter(**SUPPRESSOR), fighter(**WEAK_WILLED)
    p = prepared(shooter, target, start_distance="10")
    assert shot_pool(p.compiled.fighters, opened(p), p.compiled.options, 0, L.SH_STANDARD) == 6
    c, red = check(6), armour_roll(4)
    p_out = sum(p for s, p in c.items() if s >= 3)
    p_low = sum(p for s, p in c.items() if 1 <= s <= 2)
    stop = sum(p for r, p in red.items() if r >= 2)
    r = attack(shooter, target, start_distance="10")
    lv, oc = levels(r), outcomes(r)
    assert lv["out"] == pytest.approx(p_out, abs=1e-12)
    assert lv["none"] == pytest.approx(p_low * stop, abs=1e-12)
    assert lv["scratch"] == pytest.approx(p_low * red[1], abs=1e-12)
    assert lv["wound"] == pytest.approx(p_low * red[0], abs=1e-12)
    assert oc["armour_stopped"] == pytest.approx((p_out + p_low) * stop, abs=1e-12)
    assert sum(lv.values()) == pytest.approx(oc["hit"] + oc["armour_stopped"], abs=1e-12)
    n = 20_000
    within_4_sigma(r, attack(shooter, target, n=n, start_distance="10"), n)


def test_v12_3_melee_suppression_through_armour_puts_out_in_attack_as_in_the_duel():
    """V-4.5, V-12.3, V-5.3 in melee: militia buying Will damage (``intimidate``) at a Will-2 knight
    that does not react; the sampled attack (the kernel's blow) and the exact one agree within 4σ on
    a level ``out`` that includes the blows the armour stopped."""
    knight = fighter("knight", reaction="none", attributes={"physique": 4, "agility": 3, "intellect": 1,
                                                            "empathy": 1})
    militia = fighter("militia", attack_spending="intimidate", skills={"melee": 4})
    n = 20_000
    exact = attack(militia, knight)
    within_4_sigma(exact, attack(militia, knight, n=n), n)
    oc, lv = outcomes(exact), levels(exact)
    assert oc["armour_stopped"] > 0.01 and lv["none"] < oc["armour_stopped"] - 0.005  # some stopped blows put out


# -- V-16.2 a hit for 0 damage is a blow ---------------------------------------------------------------

def test_v16_2_a_hit_for_0_damage_is_a_blow_of_level_none():
    """V-16.2 the grenade launcher deals 0 (crit "—": every extra success +1 damage, V-12.2): the
    rifleman's aimed shot at the unarmoured duelist from 20 m (4 + 3 + 0 + 2 = 9 dice) hits with
    P(s ≥ 1) = 0.6652, every hit a blow of s − 1 damage: level ``none`` at s = 1, ``scratch`` at 2,
    ``wound`` from 3, ``out`` from s − 1 ≥ 8 (Health 3 + 5); ``mean_damage`` × ``p_blow`` =
    ``mean_damage_per_attack`` = Σ (s − 1) P(s)."""
    shooter = fighter("rifleman", gun="grenade_launcher")
    c = check(9)
    r = attack(shooter, "duelist", start_distance="20")
    lv, oc, d = levels(r), outcomes(r), r.to_dict()
    hit = sum(p for s, p in c.items() if s >= 1)
    assert oc["hit"] == pytest.approx(hit, abs=1e-12) and oc["armour_stopped"] == 0.0
    assert r.p_blow == pytest.approx(hit, abs=1e-12)
    assert lv["none"] == pytest.approx(c[1], abs=1e-12)
    assert lv["scratch"] == pytest.approx(c[2], abs=1e-12)
    assert lv["out"] == pytest.approx(sum(p for s, p in c.items() if s >= 9), abs=1e-12)
    mean = sum((s - 1) * p for s, p in c.items() if s >= 1)
    assert r.mean_damage_per_attack == pytest.approx(mean, abs=1e-12)
    assert d["mean_damage"] * r.p_blow == pytest.approx(d["mean_damage_per_attack"], abs=1e-12)
    assert (round(hit, 4), round(d["mean_damage"], 3), round(mean, 3)) == (0.6652, 1.542, 1.026)
    n = 20_000
    sampled = attack(shooter, "duelist", n=n, start_distance="20")
    within_4_sigma(r, sampled, n)
    assert sampled.p_blow == pytest.approx(float(sampled.outcomes[L.OUT_HIT] + sampled.outcomes[L.OUT_ARMOUR_STOPPED]),
                                           abs=1e-12)
