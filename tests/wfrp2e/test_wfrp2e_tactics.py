"""The WFRP 2e duel tactics (W-8, the policy menu of W-3.19): what each one does in a turn, checked by
exact single attacks, by the kernel's turn and plan functions, and by sampled duels within 4σ."""

from __future__ import annotations

import numpy as np
import pytest
from wfrp2e_util import exact, fighter, prepared, state, turn_outcomes, within

from brutal_sim.rulesets.wfrp2e import RULESET, layout as L
from brutal_sim.rulesets.wfrp2e.kernel import plan
from brutal_sim.run.engine import run_duel_counters

#: a defender nothing hurts but an Ulric's Fury chain (TB 10, W 100), no armour (no Ag penalty)
WALL = {"t": 99, "tb": 10, "w": 100}
STANCES = {"parry stance": L.S_PARRY_STANCE, "defensive stance": L.S_DEF_STANCE, "cautious": L.S_CAUTIOUS,
           "no reactions": L.S_NO_REACT}


def p_hit(a, b, **options) -> float:
    return exact(a, b, **options).to_dict()["p_hit"]


def outcomes(a, b, **options) -> dict:
    d = exact(a, b, **options).to_dict()
    return {k: d[f"p_{k}"] for k in ("miss", "parried", "dodged", "hit")}


def attacks_of(cnt: np.ndarray, side: int) -> np.ndarray:
    return cnt[L.C_ATTACKS + side * L.N_OUTCOMES:L.C_ATTACKS + (side + 1) * L.N_OUTCOMES]


def p_feint(t_init: int, t_def: int) -> float:
    """W-1.4 (official_like) win probability of a feint, enumerated here independently of the kernel."""
    wins = again = 0
    for ri in range(1, 101):
        for rd in range(1, 101):
            si, sd = ri <= t_init, rd <= t_def
            if si and sd:
                di, dd = (t_init - ri) // 10, (t_def - rd) // 10
                if di != dd:
                    wins += di > dd
                elif t_init != t_def:
                    wins += t_init > t_def
                else:
                    again += 1
            elif si:
                wins += 1
    return wins / (10_000 - again)


# -- W-3.19 the menu ---------------------------------------------------------------------------------

PLANS = [  # tactic, fighter fields, (attacks, WS modifier, feint first), stances taken: the half/full actions
    ("guarded", {}, (1, 0, False), {"parry stance"}),  # standard attack + parry stance
    ("guarded", {"off_hand": "shield"}, (1, 10, False), set()),  # aim + standard attack (a free parry held)
    ("swift", {"a": 2}, (2, 0, False), set()),  # swift attack (full)
    ("swift", {"a": 1}, (1, 0, False), {"parry stance"}),  # A 1: as guarded
    ("berserk", {}, (1, 20, False), {"no reactions"}),  # all-out attack (full)
    ("cautious", {}, (1, -10, False), {"cautious"}),  # cautious attack (full)
    ("turtle", {}, (0, 0, False), {"defensive stance", "parry stance"}),  # defensive + parry stance
    ("feinter", {}, (1, 0, True), set()),  # feint + standard attack
]


@pytest.mark.parametrize("tactic,fields,expected,stances", PLANS)
def test_w3_19_each_tactic_is_two_half_actions_or_one_full_action(tactic, fields, expected, stances):
    """W-3.19: the tactics are the action menu; a turn of two half actions takes the plan and stances
    of the digest's policy (W-8.1 – W-8.6)."""
    a = fighter(ws=40, main_hand="hand_weapon", tactic=tactic, **fields)
    p = prepared(a, fighter(ws=40, main_hand="hand_weapon", off_hand="shield"))
    S = state(p)
    assert tuple(plan(p.compiled.fighters, S, p.compiled.options, 0, 2)) == expected
    assert {name for name, k in STANCES.items() if S[0, k]} == stances


def test_w3_19_the_tactics_listed_are_the_w8_policies():
    rows = RULESET.listings()["tactics"].rows
    assert [tuple(r) for r in rows] == [("guarded", "W-8.1"), ("swift", "W-8.2"), ("berserk", "W-8.3"),
                                        ("cautious", "W-8.4"), ("turtle", "W-8.5"), ("feinter", "W-8.6"),
                                        ("marksman", "W-8.9"), ("shoot_then_draw", "W-8.10"), ("kite", "W-8.11"),
                                        ("rush", "W-8.12"), ("overwatch", "W-8.14"), ("grappler", "W-8.13")]


# -- W-8.1 guarded -----------------------------------------------------------------------------------

def test_w8_1_guarded_attacks_with_a_parry_stance_or_aims_and_dodges_before_it_parries():
    """Attack + parry stance (WS 40: 40 %), with an off-hand item aim + attack (50 %). A hit meets a
    dodge first (Dodge Blow 30) when the fighter has one, a parry (WS 40 + Defensive shield 10)
    otherwise: in a turn of two sure hits the first is dodged 30 % of the time, the second parried
    50 % — one of each, never two of either."""
    b = fighter(reaction="none")
    assert p_hit(fighter(ws=40, main_hand="hand_weapon"), b) == pytest.approx(0.40, abs=1e-12)
    assert p_hit(fighter(ws=40, main_hand="hand_weapon", off_hand="shield"), b) == pytest.approx(0.50, abs=1e-12)
    a = fighter(ws=100, main_hand="hand_weapon")
    assert outcomes(a, fighter(ws=40, main_hand="hand_weapon")) == \
        pytest.approx({"miss": 0, "parried": 0.40, "dodged": 0, "hit": 0.60}, abs=1e-12)  # the stance's parry
    both = dict(ws=40, dodge=30, main_hand="hand_weapon", off_hand="shield", **WALL)
    assert outcomes(a, fighter(**both)) == pytest.approx({"miss": 0, "parried": 0, "dodged": 0.30, "hit": 0.70},
                                                         abs=1e-12)
    assert outcomes(a, fighter(reaction="parry_first", **both)) == \
        pytest.approx({"miss": 0, "parried": 0.50, "dodged": 0, "hit": 0.50}, abs=1e-12)
    p = prepared(fighter(ws=100, a=2, tactic="swift", main_hand="hand_weapon"), fighter(**both))
    F, o = p.compiled.fighters, p.compiled.options
    n = 3000
    total = np.zeros(L.N_OUTCOMES, dtype=np.int64)
    for seed in range(n):
        S = state(p)
        plan(F, S, o, 1, 2)
        out = turn_outcomes(p, S, 0, seed)
        assert out.sum() == 2 and out[L.OUT_PARRIED] <= 1 and out[L.OUT_DODGED] <= 1
        total += out
    assert within(0.30, total[L.OUT_DODGED] / n, n) and within(0.50, total[L.OUT_PARRIED] / n, n)


# -- W-8.2 swift -------------------------------------------------------------------------------------

def test_w8_2_swift_with_a_2_or_more_and_guarded_with_a_1():
    """With A ≥ 2 a swift attack (A attacks at +0, no stance: it relies on a free parry); with A = 1
    the guarded turn (aim with an off-hand item, else a parry stance)."""
    b = fighter(reaction="none")
    shield = {"main_hand": "hand_weapon", "off_hand": "shield"}
    assert p_hit(fighter(ws=40, a=2, tactic="swift", **shield), b) == pytest.approx(0.40, abs=1e-12)
    assert p_hit(fighter(ws=40, a=1, tactic="swift", **shield), b) == pytest.approx(0.50, abs=1e-12)
    a = fighter(ws=100, main_hand="hand_weapon")
    assert outcomes(a, fighter(ws=40, a=2, tactic="swift", main_hand="hand_weapon"))["parried"] == 0
    assert outcomes(a, fighter(ws=40, a=1, tactic="swift", main_hand="hand_weapon"))["parried"] == \
        pytest.approx(0.40, abs=1e-12)
    assert outcomes(a, fighter(ws=40, a=2, tactic="swift", **shield))["parried"] == pytest.approx(0.50, abs=1e-12)
    # every turn of a duel: A 3 attacks at WS 40 on a foe that never reacts
    p = prepared(fighter(ws=40, a=3, tactic="swift", main_hand="hand_weapon", **WALL),
                 fighter(ws=0, reaction="none", **WALL), round_cap=5)
    cnt, _ = run_duel_counters(p.compiled, 1000, seed=12)
    mine = attacks_of(cnt, 0)
    assert cnt[L.C_DRAWS] == 1000 and mine.sum() == 1000 * 5 * 3
    assert within(0.40, mine[L.OUT_HIT] / mine.sum(), mine.sum())


# -- W-8.3 berserk, W-8.4 cautious ------------------------------------------------------------------

def test_w8_3_berserk_attacks_all_out_every_turn_and_never_reacts():
    """All-out every turn: WS 40 + 20 hits 60 % of the attacks. After its first turn a berserk neither
    parries nor dodges (Ag 90: it always acts first, so even round 1's hits come after its turn);
    the same fighter guarded dodges 60 % of them (Dodge Blow 60, shield held)."""
    p = prepared(fighter(ws=40, tactic="berserk", main_hand="hand_weapon", **WALL),
                 fighter(ws=0, reaction="none", **WALL), round_cap=5)
    cnt, _ = run_duel_counters(p.compiled, 1000, seed=13)
    mine = attacks_of(cnt, 0)
    assert cnt[L.C_DRAWS] == 1000 and mine.sum() == 5000 and within(0.60, mine[L.OUT_HIT] / 5000, 5000)
    me = dict(ws=0, ag=90, dodge=60, main_hand="hand_weapon", off_hand="shield", **WALL)
    foe = fighter(ws=100, ag=30, **WALL)
    for tactic, p_dodged in (("berserk", 0.0), ("guarded", 0.60)):
        cnt, _ = run_duel_counters(prepared(fighter(tactic=tactic, **me), foe, round_cap=5).compiled, 1000, seed=14)
        theirs = attacks_of(cnt, 1)
        assert cnt[L.C_DRAWS] == 1000 and theirs.sum() == 5000 and theirs[L.OUT_PARRIED] == 0
        assert within(p_dodged, theirs[L.OUT_DODGED] / 5000, 5000)


def test_w8_4_cautious_attacks_at_minus_10_and_reacts_at_plus_10():
    """Cautious every turn: WS 40 − 10 hits 30 %. Until its next turn +10 to dodge (30 → 40) and to
    parry (WS 40 + 10 + Defensive main gauche 10); a full action, so no parry stance without an
    off-hand item."""
    a = fighter(ws=100, main_hand="hand_weapon")
    cautious = dict(ws=40, tactic="cautious", main_hand="hand_weapon")
    assert outcomes(a, fighter(dodge=30, **cautious))["dodged"] == pytest.approx(0.40, abs=1e-12)
    assert outcomes(a, fighter(reaction="parry_first", **cautious))["parried"] == 0
    assert outcomes(a, fighter(reaction="parry_first", off_hand="main_gauche", **cautious))["parried"] == \
        pytest.approx(0.60, abs=1e-12)
    p = prepared(fighter(**cautious, **WALL), fighter(ws=0, reaction="none", **WALL), round_cap=5)
    cnt, _ = run_duel_counters(p.compiled, 1000, seed=15)
    mine = attacks_of(cnt, 0)
    assert mine.sum() == 5000 and within(0.30, mine[L.OUT_HIT] / 5000, 5000)


# -- W-8.5 turtle, W-8.6 feinter ----------------------------------------------------------------------

def test_w8_5_turtle_never_attacks_and_stands_in_both_stances():
    """Defensive stance (attackers −20) + parry stance, no attack: a WS 60 attacker hits at 40 and is
    parried at the turtle's WS 40; two turtles draw every duel at the round cap."""
    a = fighter(ws=60, main_hand="hand_weapon")
    assert outcomes(a, fighter(ws=40, main_hand="hand_weapon", tactic="turtle")) == \
        pytest.approx({"miss": 0.60, "parried": 0.40 * 0.40, "dodged": 0, "hit": 0.40 * 0.60}, abs=1e-12)
    turtle = fighter(ws=60, main_hand="hand_weapon", tactic="turtle")
    cnt, _ = run_duel_counters(prepared(turtle, turtle, round_cap=3).compiled, 300, seed=16)
    assert cnt[L.C_DRAWS] == 300 and cnt[L.C_ATTACKS:L.C_ATTACKS + 2 * L.N_OUTCOMES].sum() == 0


def test_w8_6_feinter_feints_only_against_a_parry_and_an_equal_or_lower_ws():
    """Feint + standard attack (no aim) when the foe could parry now and its WS is not above ours; a
    won feint is neither parried nor dodged. Otherwise the guarded turn: aim + attack (+10) with the
    main gauche held. The rapier is Fast: the foe's Dodge Blow 40 counts 30."""
    a = fighter(ws=40, main_hand="rapier", off_hand="main_gauche", tactic="feinter")
    pf = p_feint(40, 40)
    # success vs failure 0.4 · 0.6; both succeed 0.16 with degrees 0–3 equally likely: 3/8 won, 1/4 again
    assert pf == pytest.approx((0.24 + 0.16 * 3 / 8) / (1 - 0.16 / 4), abs=1e-12)
    # foe WS 40 in its parry stance, dodging first: a feint, then the attack at 40
    foe = dict(dodge=40, main_hand="hand_weapon")
    assert outcomes(a, fighter(ws=40, **foe)) == pytest.approx(
        {"miss": 0.60, "parried": 0, "dodged": 0.40 * (1 - pf) * 0.30, "hit": 0.40 * (1 - (1 - pf) * 0.30)}, abs=1e-12)
    # foe WS 41: no feint, aim + attack
    assert outcomes(a, fighter(ws=41, **foe)) == pytest.approx(
        {"miss": 0.50, "parried": 0, "dodged": 0.50 * 0.30, "hit": 0.50 * 0.70}, abs=1e-12)
    # foe WS 40 that cannot parry (unarmed: only its dodge; berserk: no reactions at all): no feint
    assert outcomes(a, fighter(ws=40, dodge=40)) == pytest.approx(
        {"miss": 0.50, "parried": 0, "dodged": 0.50 * 0.30, "hit": 0.50 * 0.70}, abs=1e-12)
    assert p_hit(a, fighter(ws=40, tactic="berserk", **foe)) == pytest.approx(0.50, abs=1e-12)


# -- W-8.7 fortune, W-8.8 opening ---------------------------------------------------------------------

def test_w8_7_fortune_order_on_a_failed_attack_and_a_failed_parry():
    """reaction_first (default) spends the last point on a failed parry, a failed attack only while two
    are left; attack_first the reverse; never spends none. Attack WS 40 on a foe that does not react;
    parry WS 40 + main gauche 10 against sure hits."""
    b = fighter(reaction="none")
    for points, policy, expected in ((1, "reaction_first", 0.40), (2, "reaction_first", 1 - 0.6 ** 2),
                                     (1, "attack_first", 1 - 0.6 ** 2), (3, "never", 0.40)):
        assert p_hit(fighter(ws=40, fortune=points), b, fortune=policy) == pytest.approx(expected, abs=1e-12)
    a = fighter(ws=100, main_hand="hand_weapon")
    for points, policy, expected in ((1, "reaction_first", 1 - 0.5 ** 2), (1, "attack_first", 0.50),
                                     (2, "attack_first", 1 - 0.5 ** 2), (3, "never", 0.50)):
        d = fighter(ws=40, main_hand="hand_weapon", off_hand="main_gauche", fortune=points)
        assert outcomes(a, d, fortune=policy)["parried"] == pytest.approx(expected, abs=1e-12)


def test_w8_8_the_first_mover_charges_from_4_yards():
    """start_distance ≥ 4: the first to act with an attacking tactic charges (a full action: one attack
    at +10, no stance) and engages; the other then fights as usual. A turtle waits in its stances.
    Sampled: side a (Ag 90) always acts first; WS 40 on a foe that does not react hits 50 % in round 1
    and 40 % in rounds 2 and 3 (mean 1.3 hits per duel); from 3 yards (a Move and an attack, W-11.2)
    40 % throughout (1.2)."""
    p = prepared(fighter(main_hand="hand_weapon"), fighter(main_hand="hand_weapon"), start_distance=4)
    F, o = p.compiled.fighters, p.compiled.options
    S = state(p)
    assert S[0, L.S_ENGAGED] == 0
    assert tuple(plan(F, S, o, 1, 2)) == (1, 10, False) and S[1, L.S_PARRY_STANCE] == 0 and S[0, L.S_ENGAGED] == 1
    assert tuple(plan(F, S, o, 0, 2)) == (1, 0, False) and S[0, L.S_PARRY_STANCE] == 1
    assert state(prepared(fighter(), fighter(), start_distance=2))[0, L.S_ENGAGED] == 1
    assert state(prepared(fighter(), fighter(), start_distance=3))[0, L.S_ENGAGED] == 0  # a move, no charge
    p = prepared(fighter(tactic="turtle"), fighter(), start_distance=10)
    F, o = p.compiled.fighters, p.compiled.options
    S = state(p)
    assert tuple(plan(F, S, o, 0, 2)) == (0, 0, False) and S[0, L.S_ENGAGED] == 0
    assert S[0, L.S_DEF_STANCE] == S[0, L.S_PARRY_STANCE] == 1
    assert tuple(plan(F, S, o, 1, 2)) == (1, 10, False)
    n = 3000
    for distance, mean, var in ((8, 1.3, 0.25 + 2 * 0.24), (3, 1.2, 3 * 0.24)):
        p = prepared(fighter(ws=40, ag=90, main_hand="hand_weapon", **WALL), fighter(ws=0, reaction="none", **WALL),
                     start_distance=distance, round_cap=3)
        cnt, _ = run_duel_counters(p.compiled, n, seed=18)
        mine = attacks_of(cnt, 0)
        assert mine.sum() == 3 * n
        assert abs(mine[L.OUT_HIT] / n - mean) <= 4 * np.sqrt(var / n)
