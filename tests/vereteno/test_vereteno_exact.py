"""Exact Vereteno attacks: pool distributions by convolution against brute-force enumeration of
every face combination, hand-computed probabilities, and exact against sampled within 4σ."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from brutal_sim import api
from brutal_sim.rulesets.vereteno import RULESET, layout as L
from brutal_sim.rulesets.vereteno.exact import check_pmf, reduction_pmf
from brutal_sim.rulesets.vereteno.options import compile_options


def opts(**kw: str) -> np.ndarray:
    return compile_options(RULESET.default_options().with_overrides(kw, "test"))


def value(face: int, one: int) -> int:
    return 2 if face == 20 else 1 if face >= 17 else one if face == 1 else 0


def brute_check(pool: int, one: int, desperation: str) -> dict[int, float]:
    """Every face combination of the dice a check rolls (V-1.3, V-1.4), counted by hand."""
    out: dict[int, float] = {}
    if pool > 0:
        n = pool
    elif desperation == "app":
        return {0: 1.0}
    else:
        n = 1 if (desperation == "fvtt" and pool == 0) else 2
    for faces in itertools.product(range(1, 21), repeat=n):
        if pool > 0:
            t = sum(value(f, one) for f in faces)
        elif desperation == "fvtt":
            t = 1 if all(f == 20 for f in faces) else min(faces.count(20) - faces.count(1), 0)
        else:
            net = sum(value(f, one) for f in faces)
            t = 1 if net >= 2 else min(net, 0)
        out[t] = out.get(t, 0.0) + 20.0 ** -n
    return out


def as_dict(pmf: np.ndarray, lo: int) -> dict[int, float]:
    return {i + lo: float(p) for i, p in enumerate(pmf) if p > 0}


@pytest.mark.parametrize("one", ["-2", "-1"])
@pytest.mark.parametrize("desperation", ["fvtt", "yze", "app"])
@pytest.mark.parametrize("pool", [-2, -1, 0, 1, 2, 3])
def test_check_pmf_matches_brute_force(pool, one, desperation):
    pmf, lo = check_pmf(pool, opts(one_value=one, desperation=desperation))
    got, want = as_dict(pmf, lo), brute_check(pool, int(one), desperation)
    assert got.keys() == want.keys()
    for k in want:
        assert got[k] == pytest.approx(want[k], abs=1e-12)


def test_hand_computed_pool_probabilities():
    """V-1.3/V-8.1: one die hits (≥ 1 success) on 17–20: 4/20. Two dice with 1 = −2: the pairs
    with net ≥ 1 are 20+20, 20+(17–19), 20+(2–16), (17–19)+(17–19), (17–19)+(2–16):
    (1 + 2·3 + 2·15 + 9 + 2·45) / 400 = 136/400. Mean per die: 0.15 (−2) and 0.20 (−1)."""
    pmf, lo = check_pmf(1, opts())
    assert pmf[1 - lo:].sum() == pytest.approx(0.2)
    pmf, lo = check_pmf(2, opts())
    assert pmf[1 - lo:].sum() == pytest.approx(136 / 400)
    for one, mean in (("-2", 0.15), ("-1", 0.20)):
        pmf, lo = check_pmf(10, opts(one_value=one))
        assert float(np.dot(pmf, np.arange(lo, lo + len(pmf)))) == pytest.approx(10 * mean)
    # V-1.4 fvtt: a pool of −1 rolls 2d20 and succeeds only on 20+20
    pmf, lo = check_pmf(-1, opts())
    assert pmf[1 - lo] == pytest.approx(1 / 400)


@pytest.mark.parametrize("ones", ["separate", "net"])
@pytest.mark.parametrize("one", ["-2", "-1"])
@pytest.mark.parametrize("n", [0, 1, 2, 3])
def test_armour_reduction_matches_brute_force(n, ones, one):
    o = opts(armour_ones=ones, one_value=one)
    want: dict[int, float] = {}
    for faces in itertools.product(range(1, 21), repeat=n):
        succ = sum(value(f, 0) for f in faces)
        if ones == "net":
            succ = max(succ + faces.count(1) * int(one), 0)
        want[succ] = want.get(succ, 0.0) + 20.0 ** -n
    got = {i: float(p) for i, p in enumerate(reduction_pmf(n, o)) if p > 0}
    assert got.keys() == want.keys()
    for k in want:
        assert got[k] == pytest.approx(want[k], abs=1e-12)


def inline(attack_pool: int, **extra) -> dict:
    """A fighter whose melee pool with bare hands is ``attack_pool`` (physique + melee)."""
    data = {"ruleset": "vereteno", "attributes": {"physique": 1, "agility": 5, "intellect": 2, "empathy": 2},
            "skills": {"melee": attack_pool - 1, "nimbleness": 0}, "tactic": "std_guard", "reaction": "none"}
    data.update(extra)
    return data


def test_hand_computed_single_attack():
    """Pool 3 (bare hands, V-5.6: damage 1 + 1 per extra success, crit — so no trauma) on a defender
    that does not react, armour class 1: the attack misses with S ≤ 0 (V-4.2); a hit with S successes
    deals S; the armour die removes 2 on a 20, 1 on 17–19, else 0 — so it stops S = 1 with 4/20 and
    S = 2 with 1/20."""
    a = RULESET.fighter_from_data(inline(3), "a", "a")
    b = RULESET.fighter_from_data(inline(3, armour={"protection": 1}), "b", "b")
    ex = RULESET.enumerate_attack(RULESET.prepare(a, b).compiled)
    check = brute_check(3, -2, "fvtt")
    p_roll = sum(v for k, v in check.items() if k >= 1)
    armour = {0: 16 / 20, 1: 3 / 20, 2: 1 / 20}
    out = dict(zip(RULESET.counters.outcomes, ex.outcomes))
    assert out["miss"] == pytest.approx(1 - p_roll)
    assert out["armour_stopped"] == pytest.approx(check[1] * 4 / 20 + check[2] * 1 / 20)
    assert out["hit"] == pytest.approx(p_roll - out["armour_stopped"])
    assert out["defended"] == out["dodged"] == 0.0
    mean = sum(v * pr * max(k - r, 0) for k, v in check.items() if k >= 1 for r, pr in armour.items())
    assert ex.mean_damage == pytest.approx(mean)


def sigma(p: float, n: int) -> float:
    return math.sqrt(max(p * (1 - p), 1e-12) / n)


@pytest.mark.parametrize("a,b,flags,tactic,reaction", [
    ("swordsman", "brute", {}, None, None),
    ("brute", "knight", {}, None, None),
    ("duelist", "swordsman", {"one_value": "-1", "armour_ones": "net"}, "quick3", "dodge"),
    ("militia", "knight", {"desperation": "yze", "dodge_modifier": "weapon_plus_attack_type"}, "power", "dodge"),
    ("brawler", "duelist", {"shield": "ignore"}, "quick_guard2", "best"),
    ("knight", "militia", {"armour_piercing_dice": "1"}, None, "defend"),
    ("brute", "militia", {"prayer": "app"}, None, "defend"),
    ("militia", "brawler", {"prayer": "app", "npc_reactions": "tokens", "npc_tokens_b": "1"}, "quick3", "dodge"),
    ("duelist", "swordsman", {"prayer": "yze", "npc": "both", "npc_reactions": "tokens"}, None, "best"),
])
def test_exact_matches_sampled(a, b, flags, tactic, reaction):
    n = 200_000
    ex = api.attack(a, b, options=flags, tactic=tactic, reaction=reaction, ruleset="vereteno")
    sa = api.attack(a, b, n=n, seed=11, options=flags, tactic=tactic, reaction=reaction, ruleset="vereteno")
    assert ex.outcomes.sum() == pytest.approx(1.0)
    for pe, ps in zip(ex.outcomes, sa.outcomes):
        assert abs(pe - ps) <= 4 * sigma(pe, n) + 1e-9
    for pe, ps in zip(ex.levels.ravel(), sa.levels.ravel()):
        assert abs(pe - ps) <= 4 * sigma(pe, n) + 1e-9
    assert sa.mean_damage_per_attack == pytest.approx(ex.mean_damage_per_attack,
                                                      abs=0.01 + 0.01 * ex.mean_damage_per_attack)


def test_level_out_uses_the_trauma_table():
    """A trauma-only kill chance: 10 of 36 d66 rows end the fight (V-8.4)."""
    t = RULESET.prepare("swordsman", "brute").compiled.tables[0]
    assert int(((t[:, L.T_OUT] + t[:, L.T_DEAD]) > 0).sum()) == 10


def test_v4_4_exposure_adds_only_to_a_hit():
    """V-4.4 exposure (option ``exposure``): a dodge of ≤ −1 gives the attacker extra successes, and
    extras are the surplus beyond the first success (seed 118), so with ``hit_only`` a missed attack
    stays a miss. Militia (spear) on a dodging brawler: exactly the attacks that rolled ≤ 0 against a
    dodge of ≤ −1 move from hit to miss, P(S ≤ 0)·P(dodge ≤ −1), 0.436 → 0.359."""
    from brutal_sim.rulesets.vereteno import kernel as K
    p = RULESET.prepare("militia", "brawler")
    F = p.compiled.fighters
    S = np.zeros((2, L.NS), dtype=np.int64)
    K.reset(F, S)
    o = opts()
    pa, loa = check_pmf(K.attack_pool(F, S, 0, 1, L.K_STANDARD), o)
    pr, lor = check_pmf(K.dodge_pool(F, S, o, 0, 1, L.K_STANDARD), o)
    moved = pa[:1 - loa].sum() * pr[:-lor].sum()
    old = api.attack("militia", "brawler", ruleset="vereteno", options={"exposure": "miss_becomes_hit"})
    new = api.attack("militia", "brawler", ruleset="vereteno")
    assert new.options["exposure"] == "hit_only"
    out_old = dict(zip(RULESET.counters.outcomes, old.outcomes))
    out_new = dict(zip(RULESET.counters.outcomes, new.outcomes))
    assert out_old["hit"] == pytest.approx(0.435979, abs=1e-6)
    assert out_new["hit"] == pytest.approx(0.358900, abs=1e-6)
    assert out_old["hit"] - out_new["hit"] == pytest.approx(moved, abs=1e-12)
    assert out_new["miss"] - out_old["miss"] == pytest.approx(moved, abs=1e-12)
    assert out_new["dodged"] == pytest.approx(out_old["dodged"], abs=1e-12)


def test_v1_6_prayer_exact_hand_computed():
    """V-1.6: pool 1 on a defender that does not react: the attack hits on 17–20 (4/20); a failed die
    (1–16) is prayed once (app: Will 4 ≥ 2; yze: it is not a 20), so P(hit) = 4/20 + 16/20 · 4/20."""
    a = RULESET.fighter_from_data(inline(1), "a", "a")
    b = RULESET.fighter_from_data(inline(3), "b", "b")
    for prayer, want in (("off", 0.2), ("app", 0.2 + 0.8 * 0.2), ("yze", 0.2 + 0.8 * 0.2)):
        ex = RULESET.enumerate_attack(RULESET.prepare(a, b, options={"prayer": prayer}).compiled)
        assert dict(zip(RULESET.counters.outcomes, ex.outcomes))["hit"] == pytest.approx(want, abs=1e-12)


def test_v1_6_prayer_and_v3_17_npc_reactions_change_an_attack():
    """V-1.6 and V-3.17, militia on brawler (brawler dodges): P(hit) 0.3589 at the defaults; both pray
    (app 0.3803, yze 0.3940); the GM's brawler never reacts (``npc_reactions = none``: 0.5577) or has
    no token (``tokens``, 0 tokens); as side a's only GM character it reacts freely."""
    def p_hit(**o: str) -> float:
        r = api.attack("militia", "brawler", ruleset="vereteno", options=o)
        return float(dict(zip(RULESET.counters.outcomes, r.outcomes))["hit"])
    assert p_hit() == pytest.approx(0.35890, abs=5e-5)
    assert p_hit(prayer="app") == pytest.approx(0.38030, abs=5e-5)
    assert p_hit(prayer="yze") == pytest.approx(0.39400, abs=5e-5)
    assert p_hit(npc_reactions="none") == pytest.approx(0.55770, abs=5e-5)
    assert p_hit(npc_reactions="tokens", npc_tokens_b="0") == pytest.approx(p_hit(npc_reactions="none"), abs=1e-12)
    assert p_hit(npc_reactions="tokens") == pytest.approx(p_hit(), abs=1e-12)
    assert p_hit(npc_reactions="none", npc="a") == pytest.approx(p_hit(), abs=1e-12)


def test_v6_9_attacks_at_an_immobilised_fighter_gain_two_dice():
    """V-6.9: pool 1 on an immobilised defender that does not react rolls 3 dice: P(hit) from 4/20 to
    P(3d20 ≥ 1) (brute force); the attacker's own immobilisation changes nothing."""
    a = RULESET.fighter_from_data(inline(1), "a", "a")
    b = RULESET.fighter_from_data(inline(3), "b", "b")
    want = sum(v for k, v in brute_check(3, -2, "fvtt").items() if k >= 1)
    for side, p in (("none", 0.2), ("a", 0.2), ("b", want), ("both", want)):
        ex = RULESET.enumerate_attack(RULESET.prepare(a, b, options={"immobilised": side}).compiled)
        assert dict(zip(RULESET.counters.outcomes, ex.outcomes))["hit"] == pytest.approx(p, abs=1e-12)
