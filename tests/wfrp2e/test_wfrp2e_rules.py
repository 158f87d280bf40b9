"""Hand-computed scenarios of the WFRP 2e rules, one or more per rule id of the digest."""

from __future__ import annotations

import numpy as np
import pytest
from wfrp2e_util import exact, fighter, prepared, state, turn_outcomes, within

from brutal_sim.core.battle import B_ORDER, B_ROUND, FIGHT_ROW
from brutal_sim.rulesets.wfrp2e import layout as L
from brutal_sim.rulesets.wfrp2e.crit import load_crit_table
from brutal_sim.rulesets.wfrp2e.kernel import (
    attack_target,
    availability,
    crit_effect,
    degrees,
    initiative,
    location,
    opposed_result,
    plan,
    react,
    succeeds,
    take_damage,
)
from brutal_sim.run.engine import run_duel_counters
from brutal_sim.toolbox.rng import roll_die, seed_duel


def p_hit(a, b, **options) -> float:
    return exact(a, b, **options).to_dict()["p_hit"]


# -- W-1 tests ------------------------------------------------------------------------------------

def test_w1_1_a_roll_at_or_under_the_target_succeeds():
    """d100 ≤ target succeeds, one more fails; 100 is the highest roll ("00"): it fails every target below
    100. So a standard attack with no modifier hits with probability WS / 100."""
    o = prepared(fighter(), fighter()).compiled.options
    assert succeeds(o, 40, 40) and not succeeds(o, 41, 40)
    assert succeeds(o, 1, 1) and not succeeds(o, 2, 1)
    assert not succeeds(o, 100, 99) and succeeds(o, 100, 100)
    b = fighter(reaction="none")
    for ws in (1, 35, 73, 99):
        assert p_hit(fighter(ws=ws), b) == pytest.approx(ws / 100, abs=1e-12)


def test_w1_2_degrees_are_full_tens_between_roll_and_target():
    """Seed: failing by 21 is 2 degrees. An opposed test (W-1.4) between two successes goes to the
    more degrees of success; equal degrees to the higher target, equal targets: roll again."""
    assert degrees(40, 61) == 2  # failing by 21
    assert [degrees(40, r) for r in (40, 31, 30, 21, 20, 1, 49, 50, 51)] == [0, 0, 1, 1, 2, 3, 0, 1, 1]
    o = prepared(fighter(), fighter()).compiled.options
    assert opposed_result(o, 5, 25, 40, 40) == 1  # 3 degrees beat 1
    assert opposed_result(o, 25, 5, 40, 40) == 0
    assert opposed_result(o, 21, 30, 40, 40) == -1  # 1 degree each, same target: again
    assert opposed_result(o, 40, 35, 45, 40) == 1  # 0 degrees each: the higher target
    assert opposed_result(o, 35, 40, 40, 45) == 0


def test_w1_5_automatic_results():
    b = fighter(reaction="none")
    assert p_hit(fighter(ws=100), b) == pytest.approx(1.0)
    assert p_hit(fighter(ws=100), b, auto_results="auto_01_05_96_00") == pytest.approx(0.95)
    assert p_hit(fighter(ws=0), b) == pytest.approx(0.0)
    assert p_hit(fighter(ws=0), b, auto_results="auto_01_05_96_00") == pytest.approx(0.05)


def test_w1_6_modifier_cap():
    """All-out +20 (W-3.4) capped at ±10."""
    a, b = fighter(ws=40, tactic="berserk"), fighter(reaction="none")
    assert p_hit(a, b) == pytest.approx(0.60)
    assert p_hit(a, b, modifier_cap=10) == pytest.approx(0.50)


@pytest.mark.parametrize("rule", ["official_like", "both_fail_reroll", "defender_wins_ties"])
def test_w1_4_opposed_feint(rule):
    """W-3.9 feint, W-1.4: the feint's win probability, enumerated here independently of the kernel,
    times the defender's parry chance (WS 40) is the parried share the feint removes."""
    wins = again = 0
    for ri in range(1, 101):
        for rd in range(1, 101):
            si, sd = ri <= 40, rd <= 40
            if si and sd:
                di, dd = (40 - ri) // 10, (40 - rd) // 10
                if di != dd:
                    wins += di > dd
                elif rule != "defender_wins_ties":
                    again += 1
            elif si:
                wins += 1
            elif not sd and rule == "both_fail_reroll":
                again += 1
    p_feint = wins / (10_000 - again)
    a = fighter(ws=40, main_hand="hand_weapon", tactic="feinter")
    b = fighter(ws=40, main_hand="hand_weapon", reaction="parry_first")  # guarded: parry stance
    d = exact(a, b, opposed=rule).to_dict()
    assert d["p_parried"] == pytest.approx(0.40 * (1 - p_feint) * 0.40, abs=1e-12)
    assert d["p_hit"] == pytest.approx(0.40 * (1 - (1 - p_feint) * 0.40), abs=1e-12)


# -- W-2 round, initiative, surprise --------------------------------------------------------------

def _killers(ag_a: int, ag_b: int):
    """Two berserks that hit on every roll and kill with any hit (W 1, sudden death), not reacting."""
    return [fighter(ws=100, s=90, ag=ag, w=1, tactic="berserk", main_hand="great_weapon", reaction="none")
            for ag in (ag_a, ag_b)]


def test_w2_1_one_turn_each_per_round_in_initiative_order():
    """The side with Ag 60 (d10 + 60 ≥ 61) always acts before the side with Ag 30 (≤ 40) and, with a sure
    kill, wins every duel in round 1; swapped, the other side does. Two fighters that never hit (WS 0)
    each make exactly one attack per round: one turn each per round, round after round."""
    for ag_a, ag_b, winner in ((60, 30, 0), (30, 60, 1)):
        p = prepared(*_killers(ag_a, ag_b))
        cnt, _ = run_duel_counters(p.compiled, 300, seed=4)
        assert cnt[L.C_WINS + winner] == 300 and cnt[L.C_ROUNDS + 1] == 300
    p = prepared(fighter(ws=0), fighter(ws=0), round_cap=6)
    cnt, _ = run_duel_counters(p.compiled, 200, seed=4)
    attacks = cnt[L.C_ATTACKS:L.C_ATTACKS + 2 * L.N_OUTCOMES].reshape(2, L.N_OUTCOMES)
    assert cnt[L.C_DRAWS] == 200 and attacks[:, L.OUT_MISS].tolist() == [200 * 6, 200 * 6]
    assert attacks.sum() == 2 * 200 * 6


def test_w2_3_two_half_actions_or_one_full_action():
    """A full action (all-out W-3.4, cautious W-3.5, swift W-3.8) takes both half actions: with one half
    action left (after standing up, W-3.12) a tactic makes a standard attack at +0 and takes no stance,
    and a prone fighter that also readies a dropped weapon (W-3.11) has none left for an attack."""
    for fields, full in (({"tactic": "berserk"}, (1, 20, False)), ({"tactic": "cautious"}, (1, -10, False)),
                         ({"tactic": "swift", "a": 3}, (3, 0, False)), ({"tactic": "guarded"}, (1, 0, False))):
        p = prepared(fighter(main_hand="hand_weapon", **fields), fighter())
        F, o = p.compiled.fighters, p.compiled.options
        S = state(p)
        assert tuple(plan(F, S, o, 0, 2)) == full
        S = state(p)
        assert tuple(plan(F, S, o, 0, 1)) == (1, 0, False)
        assert S[0, L.S_NO_REACT] == S[0, L.S_CAUTIOUS] == S[0, L.S_PARRY_STANCE] == S[0, L.S_DEF_STANCE] == 0
    # a prone berserk: stand up + a standard attack, and it may still react afterwards
    p = prepared(fighter(main_hand="hand_weapon", tactic="berserk"), fighter())
    S = state(p)
    S[0, L.S_PRONE] = 1
    assert _turn_of_a(p, S) == 1 and S[0, L.S_PRONE] == 0 and S[0, L.S_NO_REACT] == 0
    S = state(p)
    S[0, L.S_PRONE] = 1
    S[0, L.S_HELD_MAIN] = 0
    assert _turn_of_a(p, S) == 0 and S[0, L.S_PRONE] == 0 and S[0, L.S_HELD_MAIN] == 1


def test_w2_4_one_attack_action_per_round():
    """With A 3, every tactic but swift makes one attack per round (aim + attack, feint + attack,
    all-out, cautious); swift attack is one action that makes A attacks (W-3.8). The defender's
    parries are free actions, not attacks: the turtle makes none, yet parries."""
    b = fighter(ws=40, t=99, tb=10, w=100, armour=["full_mail"], main_hand="hand_weapon", tactic="turtle")
    for tactic, per_round in (("guarded", 1), ("feinter", 1), ("berserk", 1), ("cautious", 1), ("swift", 3)):
        a = fighter(ws=60, a=3, main_hand="hand_weapon", off_hand="shield", tactic=tactic)
        cnt, _ = run_duel_counters(prepared(a, b, round_cap=4).compiled, 200, seed=6)
        attacks = cnt[L.C_ATTACKS:L.C_ATTACKS + 2 * L.N_OUTCOMES].reshape(2, L.N_OUTCOMES)
        assert cnt[L.C_DRAWS] == 200
        assert attacks[0].sum() == 200 * 4 * per_round and attacks[1].sum() == 0
        assert attacks[0, L.OUT_PARRIED] > 0


def test_w2_2_initiative_d10_plus_ag():
    """Ag 35 vs 30: b acts first only when its d10 beats a's by 6 or more (10 of 100 pairs); a tie
    (diff 5) goes to the higher Ag. Ag 45 vs 30: a always first."""
    for ag_b, p_b in ((30, 0.10), (25, 0.0)):
        p = prepared(fighter(ag=35), fighter(ag=ag_b))
        S = state(p)
        st = np.empty(4, dtype=np.uint64)
        n = 20_000
        firsts = 0
        for i in range(n):
            seed_duel(st, np.uint64(3), i)
            initiative(p.compiled.fighters, S, p.compiled.options, st)
            firsts += S[0, B_ORDER]  # the row acting first
        assert within(p_b, firsts / n, n)


def test_w2_6_surprise_and_w2_7_round_cap():
    """Turtles (W-8.5) never attack: every duel is a draw at the round cap. A surprised defender cannot
    parry in round 1 (the attack measure)."""
    p = prepared(fighter(tactic="turtle"), fighter(tactic="turtle"), round_cap=7)
    cnt, _ = run_duel_counters(p.compiled, 500, seed=1)
    assert cnt[L.C_DRAWS] == 500 and cnt[L.C_WINS:L.C_WINS + 2].sum() == 0
    a, b = fighter(main_hand="hand_weapon"), fighter(main_hand="hand_weapon", off_hand="shield")
    assert exact(a, b).to_dict()["p_parried"] > 0
    assert exact(a, b, surprise="b").to_dict()["p_parried"] == 0


def test_w2_6_surprised_side_loses_its_first_turn():
    """A surprised berserk with a sure hit and a sure kill still loses round 1 to the other side."""
    killer = fighter(ws=100, s=90, tactic="berserk", main_hand="great_weapon")
    victim = fighter(w=1, ag=90, reaction="none", tactic="berserk", main_hand="great_weapon", ws=100, s=90)
    p = prepared(killer, victim, surprise="a")
    cnt, _ = run_duel_counters(p.compiled, 300, seed=2)
    assert cnt[L.C_WINS + 1] == 300  # b always wins in round 1, though it acts first only by Ag
    p = prepared(killer, victim, surprise="b")
    cnt, _ = run_duel_counters(p.compiled, 300, seed=2)
    assert cnt[L.C_WINS + 0] == 300


# -- W-3 actions ------------------------------------------------------------------------------------

def test_w3_actions_modifiers():
    """To-hit of each action on a defender that does not react: W-3.1 standard attack (+ parry stance)
    at WS; W-3.2 aim (guarded with an off-hand item) +10; W-3.3 charge +10 from a start distance of
    4 yards (W-8.8 opening), none at 3; W-3.4 all-out +20 (W-8.3 berserk); W-3.5 cautious −10
    (W-8.4); W-3.6 the target's defensive stance −20 (W-8.5 turtle)."""
    b = fighter(reaction="none")
    assert p_hit(fighter(ws=40, main_hand="hand_weapon"), b) == pytest.approx(0.40)  # W-3.1 + parry stance
    assert p_hit(fighter(ws=40, main_hand="hand_weapon", off_hand="shield"), b) == pytest.approx(0.50)  # W-3.2 aim
    assert p_hit(fighter(ws=40), b, start_distance=4) == pytest.approx(0.50)  # W-3.3 charge
    assert p_hit(fighter(ws=40), b, start_distance=3) == pytest.approx(0.40)
    assert p_hit(fighter(ws=40, tactic="berserk"), b) == pytest.approx(0.60)  # W-3.4
    assert p_hit(fighter(ws=40, tactic="cautious"), b) == pytest.approx(0.30)  # W-3.5
    assert p_hit(fighter(ws=40), fighter(tactic="turtle", reaction="none")) == pytest.approx(0.20)  # W-3.6


def test_w3_4_all_out_and_w3_5_cautious_defenders():
    """A berserk (W-8.3) cannot parry after its all-out attack; a cautious one (W-8.4) parries at +10."""
    a = fighter(ws=50, main_hand="hand_weapon")
    d = exact(a, fighter(ws=40, main_hand="hand_weapon", tactic="berserk")).to_dict()
    assert d["p_parried"] == 0 and d["p_hit"] == pytest.approx(0.5)
    d = exact(a, fighter(ws=40, main_hand="hand_weapon", off_hand="shield", tactic="cautious")).to_dict()
    assert d["p_parried"] == pytest.approx(0.5 * 0.6)  # WS 40 + cautious 10 + Defensive shield 10


def test_w3_6_defensive_stance_half_or_full():
    """turtle (W-8.5): defensive stance + parry stance (half), or only the defensive stance (full)."""
    a = fighter(ws=60, main_hand="hand_weapon")
    b = fighter(ws=40, main_hand="hand_weapon", tactic="turtle")
    half = exact(a, b).to_dict()
    assert half["p_hit"] + half["p_parried"] == pytest.approx(0.40)
    assert half["p_parried"] == pytest.approx(0.40 * 0.40)
    full = exact(a, b, defensive_stance="full").to_dict()
    assert full["p_parried"] == 0 and full["p_hit"] == pytest.approx(0.40)


def test_w3_8_swift_attack_makes_a_attacks():
    """Swift with A 3 against an untouchable turtle: 3 attack rolls per round; A 1 falls back to one."""
    b = fighter(t=99, tb=10, w=100, tactic="turtle", reaction="none")
    for attacks, expected in ((3, 3), (1, 1)):
        p = prepared(fighter(a=attacks, tactic="swift"), b, round_cap=4)
        cnt, _ = run_duel_counters(p.compiled, 200, seed=3)
        assert cnt[L.C_ATTACKS:L.C_ATTACKS + 4].sum() == 200 * 4 * expected


def test_w3_7_parry_stance_gives_one_parry_until_the_next_turn():
    """Without an off-hand item a fighter parries only from a parry stance, and the stance parries one
    attack: against a swift attacker's two sure hits the first is parried at WS 40 (a failure rerolled
    with a fortune point), the second never — fortune buys no second parry without the means. The
    stance ends at the start of the fighter's next turn (a stunned turn included)."""
    a = fighter(ws=100, a=2, tactic="swift", main_hand="hand_weapon")
    b = fighter(ws=40, t=99, tb=10, w=100, main_hand="hand_weapon", fortune=2)
    p = prepared(a, b)
    F, o = p.compiled.fighters, p.compiled.options
    S = state(p)
    assert availability(F, S, o, 1, L.REACT_PARRY) == 0  # no stance, no off-hand item
    S[1, L.S_PARRY_STANCE] = 1
    assert availability(F, S, o, 1, L.REACT_PARRY) == 1
    st = np.empty(4, dtype=np.uint64)
    seed_duel(st, np.uint64(0), 0)
    react(F, S, o, st, 1, 0, L.SLOT_MAIN)
    assert S[1, L.S_PARRY_STANCE] == 0 and S[1, L.S_FORTUNE] >= 1
    assert availability(F, S, o, 1, L.REACT_PARRY) == 0
    # sampled: a's turn of two sure hits against b in its guarded stance (attack + parry stance)
    n = 3000
    per_turn = np.zeros(3, dtype=np.int64)  # turns with 0, 1, 2 parries
    for seed in range(n):
        S = state(p)
        plan(F, S, o, 1, 2)
        out = turn_outcomes(p, S, 0, seed)
        assert out.sum() == 2 and out[L.OUT_MISS] == out[L.OUT_DODGED] == 0
        per_turn[out[L.OUT_PARRIED]] += 1
    assert per_turn[2] == 0 and within(1 - 0.6 ** 2, per_turn[1] / n, n)  # a failed parry rerolled (W-6.5)
    S = state(p)
    S[1, L.S_PARRY_STANCE] = 1
    S[1, L.S_STUN] = 1
    turn_outcomes(p, S, 1)
    assert S[1, L.S_PARRY_STANCE] == 0


def test_w3_16_flee_gives_a_free_attack_and_ends_the_fight():
    a = fighter(ws=0, reaction="none", tactic="turtle")  # never attacks on its own turns
    b = fighter(flee_at=12)  # flees at once
    cnt = run_duel_counters(prepared(a, b).compiled, 400, seed=5)[0]
    assert cnt[L.C_WINS] == 400
    assert cnt[L.C_CAUSE + L.N_CAUSES + L.CAUSE_FLED] == 400
    # the free attack (even for a turtle) is the only attack roll of those duels; WS 0 always misses
    assert cnt[L.C_ATTACKS + L.OUT_MISS] == 400 and cnt[L.C_ATTACKS:L.C_ATTACKS + 2 * L.N_OUTCOMES].sum() == 400


# -- W-4 attack resolution ----------------------------------------------------------------------

def test_w4_2_location_of_reversed_digits():
    cases = {37: L.LOC_BODY, 10: L.LOC_HEAD, 100: L.LOC_LLEG, 51: L.LOC_HEAD, 61: L.LOC_RARM, 3: L.LOC_RARM,
             4: L.LOC_LARM, 8: L.LOC_BODY, 9: L.LOC_RLEG, 19: L.LOC_LLEG, 90: L.LOC_HEAD, 53: L.LOC_RARM}
    assert {r: location(r) for r in cases} == cases


def test_w4_3_parry_modifiers():
    """Parry (stance) WS 40; Defensive item +10; attacker's Fast −10, Slow +10."""
    d = fighter(ws=40, main_hand="hand_weapon", reaction="parry_first")
    shield = fighter(ws=40, main_hand="hand_weapon", off_hand="shield", reaction="parry_first")
    for attacker_weapon, mod in (("hand_weapon", 0), ("rapier", -10), ("great_weapon", 10)):
        a = fighter(ws=100, main_hand=attacker_weapon)
        assert exact(a, d).to_dict()["p_parried"] == pytest.approx((40 + mod) / 100)
        assert exact(a, shield).to_dict()["p_parried"] == pytest.approx((50 + mod) / 100)


def test_w4_3_unarmed_fighters_cannot_parry_and_w4_4_dodge():
    a = fighter(ws=100, main_hand="hand_weapon")
    assert exact(a, fighter(ws=60)).to_dict()["p_parried"] == 0
    d = exact(a, fighter(ws=60, dodge=45, armour=["sleeved_mail_shirt"])).to_dict()
    assert d["p_dodged"] == pytest.approx(0.35)  # dodge 45 − armour Ag penalty 10 (W-9.2)
    d = exact(fighter(ws=100, main_hand="spear"), fighter(dodge=45)).to_dict()
    assert d["p_dodged"] == pytest.approx(0.35)  # Fast −10


def test_w4_6_per_round_scope_and_w6_5_extra_reactions():
    b = fighter(ws=40, dodge=40, main_hand="hand_weapon", off_hand="shield", fortune=2)
    for scope, dodge_after_parry in (("per_attack", 1), ("per_round", 2)):
        p = prepared(fighter(), b, parry_dodge_choice=scope)
        S = state(p)
        S[1, L.S_PARRY_USED] = 1
        F, o = p.compiled.fighters, p.compiled.options
        assert availability(F, S, o, 1, L.REACT_PARRY) == 2  # once per round: only with fortune
        assert availability(F, S, o, 1, L.REACT_DODGE) == dodge_after_parry
    p = prepared(fighter(), b, fortune_extra_reaction="reroll_only")
    S = state(p)
    S[1, L.S_PARRY_USED] = 1
    assert availability(p.compiled.fighters, S, p.compiled.options, 1, L.REACT_PARRY) == 0


def test_w4_8_absorption_w4_9_unarmed_and_armour_piercing():
    """Final damage = d10 + SB + weapon − TB − AP (W-4.8), checked through the share of hits doing no
    damage. Defender TB 3 in full leather + helmet: AP 3 on the head, 1 elsewhere. WS 100 hits on
    every roll; reversed digits 01–15 (rolls 10, 20, …, 100, 1, 11, 21, 31, 41, 51) are the head."""
    b = fighter(t=30, w=100, reaction="none", armour=["full_leather", "helmet"])
    head = sum(location(r) == L.LOC_HEAD for r in range(1, 101)) / 100
    assert head == pytest.approx(0.15)

    def none(a) -> float:
        return exact(a, b).to_dict()["wound_level"]["none"]

    # hand weapon, SB 3: final = k − AP → none for k ≤ AP
    assert none(fighter(ws=100, s=30, main_hand="hand_weapon")) == pytest.approx(head * 0.3 + (1 - head) * 0.1)
    # unarmed SB 3 − 4, AP doubled (W-4.9): final = k − 4 − 2·AP; head: a 10 only hurts with a Fury die
    assert none(fighter(ws=100, s=30)) == pytest.approx(head * 0.9 + (1 - head) * 0.6)
    # Armour Piercing (W-4.12): AP − 1
    piercing = fighter(ws=100, s=30, main_hand={"damage": 0, "qualities": ["armour_piercing"]})
    assert none(piercing) == pytest.approx(head * 0.2)


def test_w4_10_off_hand_attack():
    """After a drop the off-hand item attacks at −20 WS, a Balanced one without it (option)."""
    for off, option, expected in (("shield", "true", 20), ("main_gauche", "true", 40), ("main_gauche", "false", 20)):
        p = prepared(fighter(ws=40, main_hand="hand_weapon", off_hand=off), fighter(), balanced_offhand=option)
        S = state(p)
        S[0, L.S_HELD_MAIN] = 0
        assert attack_target(p.compiled.fighters, S, p.compiled.options, 0, L.SLOT_OFF, 0) == expected


def test_w6_1_stunned_and_w6_4_prone_targets():
    p = prepared(fighter(ws=40), fighter(), prone_bonus=20)
    S = state(p)
    F, o = p.compiled.fighters, p.compiled.options
    S[1, L.S_STUN] = 1
    assert attack_target(F, S, o, 0, L.SLOT_FISTS, 0) == 60
    S[1, L.S_PRONE] = 1
    assert attack_target(F, S, o, 0, L.SLOT_FISTS, 0) == 80
    S[1, L.S_STUN] = 0
    p0 = prepared(fighter(ws=40), fighter())
    assert attack_target(p0.compiled.fighters, S, p0.compiled.options, 0, L.SLOT_FISTS, 0) == 40


# -- W-5 wounds and criticals --------------------------------------------------------------------

def _hit(p, damage: int, wounds: int, loc: int = L.LOC_BODY, slot: int = L.SLOT_FISTS, roll_seed: int = 0):
    S = state(p)
    S[1, L.S_W] = wounds
    cnt = np.zeros(p.compiled.n_counters, dtype=np.int64)
    st = np.empty(4, dtype=np.uint64)
    seed_duel(st, np.uint64(roll_seed), 0)
    take_damage(p.compiled.fighters, S, p.compiled.options, *p.compiled.tables, st, cnt, 0, 1, slot, loc, damage)
    level = int(np.argmax(cnt[L.C_WOUNDS + 20:L.C_WOUNDS + 40].reshape(5, 4).sum(axis=1)))
    return S, L.LEVEL_NAMES[level]


def test_w5_1_w5_2_w5_3_wounds_and_critical_values():
    """W-5.1: final damage comes off the Wounds, never below 0; W-5.2: > 3 left is wounded, ≤ 3 heavily
    wounded. Seed examples: W 3, damage 8 → critical value +5; W 2, damage 9 → +7 (threshold model)."""
    a, b = fighter(), fighter(w=12)
    S, level = _hit(prepared(a, b), 5, 12)
    assert S[1, L.S_W] == 7 and level == "wounded"
    S, level = _hit(prepared(a, b), 4, 7)
    assert S[1, L.S_W] == 3 and level == "heavily_wounded"
    S, level = _hit(prepared(a, b), 7, 7)
    assert S[1, L.S_W] == 0 and level == "heavily_wounded"  # equal to the Wounds left: not critical
    S, level = _hit(prepared(a, b, crit_model="threshold", crit_threshold=5), 8, 3)
    assert level == "out" and S[1, L.S_OUT] == L.CAUSE_CRITICAL + 1
    S, level = _hit(prepared(a, b, crit_model="threshold", crit_threshold=6), 8, 3)
    assert level == "critical" and S[1, L.S_OUT] == 0 and S[1, L.S_W] == 0
    S, level = _hit(prepared(a, b, crit_model="threshold", crit_threshold=7), 9, 2)
    assert level == "out"
    S, level = _hit(prepared(a, b, crit_model="threshold", crit_threshold=2), 1, 0)
    assert level == "critical"  # any damage at 0 Wounds is critical, value +1


def test_w4_12_precise_adds_one_to_the_critical_value():
    a = fighter(main_hand="foil")
    p = prepared(a, fighter(), crit_model="threshold", crit_threshold=6)
    assert _hit(p, 8, 3, slot=L.SLOT_MAIN)[1] == "out"
    assert _hit(p, 8, 3, slot=L.SLOT_FISTS)[1] == "critical"


def test_w5_4_sudden_death_and_w5_6_fate():
    """Any critical hit is out; it kills unless the fighter has a fate point."""
    for fate, deaths in ((0, 1), (1, 0)):
        S, level = _hit(prepared(fighter(), fighter(fate=fate)), 1, 0)
        assert level == "out" and S[1, L.S_DEAD] == deaths


def test_w5_4_table_seed_example():
    """Head, critical value +7, d100 85 → effect 7, knocked out (the example table keeps the seed's case)."""
    grid, fx = load_crit_table("example")
    p = prepared(fighter(), fighter(), crit_model="table", crit_table="example")
    assert np.array_equal(p.compiled.tables[0], grid) and np.array_equal(p.compiled.tables[1], fx)
    assert crit_effect(grid, 7, 85) == 7
    assert fx[L.ZONE_HEAD, 7, L.FX_OUT] == 1
    # a value above the last column uses the last column; below the first, the first
    assert crit_effect(grid, 25, 100) == 10
    assert crit_effect(grid, 1, 1) == 1


def test_w5_4_table_effects_apply():
    """Arm effect 5 (DROP + STUN(1)) on the left arm drops the off-hand item; leg 3 is PRONE."""
    p = prepared(fighter(), fighter(main_hand="hand_weapon", off_hand="shield"), crit_model="table",
                 crit_table="example")
    grid = p.compiled.tables[0]
    # critical value 5 and a roll of the band "76-00" (shift 0) → effect 5
    for seed in range(200):
        st = np.empty(4, dtype=np.uint64)
        seed_duel(st, np.uint64(seed), 0)
        if grid[roll_die(st, 100) - 1, 5] == 5:
            break
    S, level = _hit(p, 5, 0, loc=L.LOC_LARM, roll_seed=seed)
    assert level == "critical" and S[1, L.S_HELD_OFF] == 0 and S[1, L.S_HELD_MAIN] == 1 and S[1, L.S_STUN] == 1


# -- W-6.5 fortune ------------------------------------------------------------------------------------

@pytest.mark.parametrize("fortune,policy,expected", [
    (1, "reaction_first", 0.40), (2, "reaction_first", 1 - 0.6 ** 2), (1, "attack_first", 1 - 0.6 ** 2),
    (2, "never", 0.40)])
def test_w6_5_fortune_rerolls_a_failed_attack(fortune, policy, expected):
    """W-8.7 order: reaction_first keeps the last point for a reaction (an attack is rerolled only
    with two left), attack_first spends it on the attack, never spends none."""
    a = fighter(ws=40, fortune=fortune)
    assert p_hit(a, fighter(reaction="none"), fortune=policy) == pytest.approx(expected)


def test_w6_5_fortune_rerolls_a_failed_parry():
    """W-8.7: reaction_first rerolls a failed parry with the last point; attack_first keeps it."""
    a = fighter(ws=100, main_hand="hand_weapon")
    b = fighter(ws=40, main_hand="hand_weapon", off_hand="main_gauche", fortune=1)  # parry 50
    assert exact(a, b).to_dict()["p_parried"] == pytest.approx(1 - 0.5 ** 2)
    assert exact(a, b, fortune="attack_first").to_dict()["p_parried"] == pytest.approx(0.5)


# -- W-9.3 talents ------------------------------------------------------------------------------------

def test_w9_3_talent_options():
    b = fighter(t=30, w=100, reaction="none")
    brawler = fighter(ws=40, s=30, talents=["street_fighting"])
    assert p_hit(brawler, b) == pytest.approx(0.40)
    assert p_hit(brawler, b, street_fighting="on") == pytest.approx(0.50)
    mighty = fighter(ws=100, s=30, main_hand="hand_weapon", talents=["strike_mighty_blow"])
    plain = exact(mighty, b).mean_damage_per_attack
    assert exact(mighty, b, strike_mighty_blow="plus1").mean_damage_per_attack == pytest.approx(plain + 1)


# -- W-4.12 Tiring, W-3.11/W-3.12 turn upkeep, W-6.1 stun, W-5.5 helpless ---------------------------

def test_w4_12_tiring_impact_and_fast_only_in_round_1():
    from brutal_sim.rulesets.wfrp2e.kernel import quality

    tiring = {"damage": 0, "qualities": ["impact", "fast", "tiring"]}
    for option, later in (("first_round", False), ("ignore", True)):
        p = prepared(fighter(main_hand=tiring), fighter(), tiring=option)
        S = state(p)
        F, o = p.compiled.fighters, p.compiled.options
        for field in (L.W_IMPACT, L.W_FAST):
            S[FIGHT_ROW, B_ROUND] = 1
            assert quality(F, S, o, 0, L.SLOT_MAIN, field)
            S[FIGHT_ROW, B_ROUND] = 2
            assert quality(F, S, o, 0, L.SLOT_MAIN, field) == later
    # the attack measure is a first-round attack: the Fast −10 applies to the parry
    a = fighter(ws=100, main_hand=tiring)
    assert exact(a, fighter(ws=40, main_hand="hand_weapon")).to_dict()["p_parried"] == pytest.approx(0.30)


def _turn_of_a(p, S):
    return int(turn_outcomes(p, S, 0).sum())


def test_w3_11_w3_12_w6_1_turn_upkeep():
    """Ready a dropped weapon and stand up: a half action each; a stunned fighter loses its turn."""
    p = prepared(fighter(ws=40, main_hand="hand_weapon", off_hand="shield"), fighter())
    S = state(p)
    S[0, L.S_HELD_MAIN] = 0
    assert _turn_of_a(p, S) == 1 and S[0, L.S_HELD_MAIN] == 1  # ready + a standard attack
    S = state(p)
    S[0, L.S_HELD_MAIN] = 0
    S[0, L.S_PRONE] = 1
    assert _turn_of_a(p, S) == 0 and S[0, L.S_HELD_MAIN] == 1 and S[0, L.S_PRONE] == 0
    S = state(p)
    S[0, L.S_STUN] = 2
    assert _turn_of_a(p, S) == 0 and S[0, L.S_STUN] == 1
    assert _turn_of_a(p, S) == 0 and S[0, L.S_STUN] == 0
    assert _turn_of_a(p, S) == 1


@pytest.mark.parametrize("code,cause,deadly", [("HELPLESS", L.CAUSE_HELPLESS, False), ("OUT", L.CAUSE_CRITICAL, False),
                                               ("DEATH", L.CAUSE_CRITICAL, True), ("STUN(1)", None, False)])
def test_w5_5_table_outcomes_in_duels(tmp_path, code, cause, deadly):
    """A table whose every effect is ``code``: the losers' cause and deaths follow it (W-5.5, W-5.6)."""
    f = tmp_path / "crit.toml"
    f.write_text('[crit_grid]\ncolumns = [1]\nbands = [{ rolls = "01-00", effects = [1] }]\n'
                 + "".join(f'[crit_effects.{z}]\n1 = "{code}"\n' for z in L.ZONE_NAMES))
    a = fighter(ws=60, s=50, main_hand="great_weapon", tactic="berserk", fate=1)
    b = fighter(ws=40, w=6, main_hand="hand_weapon", tactic="berserk", fate=0)
    p = prepared(a, b, crit_model="table", crit_table=str(f), round_cap=30)
    cnt, _ = run_duel_counters(p.compiled, 2000, seed=9)
    losses = cnt[L.C_CAUSE:L.C_CAUSE + 2 * L.N_CAUSES].reshape(2, L.N_CAUSES)
    if cause is None:  # nobody ever leaves the fight
        assert cnt[L.C_DRAWS] == 2000
        return
    assert losses.sum() == 2000 - cnt[L.C_DRAWS] and losses[:, cause].sum() == losses.sum()
    assert cnt[L.C_DEATHS + 1] == (losses[1].sum() if deadly else 0)
    assert cnt[L.C_DEATHS + 0] == 0  # side a has a fate point
