"""Hand-computed scenarios, one or more per rule of the Brutal digest (ids in each test name/doc).

Scenarios call the kernel's rule functions on hand-built fighter arrays. Where a check decides an
effect, the toughness is set so that the check always fails (2d6 − 5 ≤ 7) or always succeeds
(2d6 + 20), which makes the outcome certain.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from conftest import blank_fighters, counters, default_options, fresh_state, give_weapon, set_tactic
from numba import njit

from brutal_sim.rulesets.brutal import layout as L, options as O
from brutal_sim.rulesets.brutal.kernel import (
    active_penalty,
    attack_bonus,
    break_weapon,
    choose_reaction,
    die_floor,
    fatigue_penalty,
    final_damage,
    initiative,
    light_damage,
    plan_attack,
    reaction_modifier,
    record,
    set_fatigue,
    take_wound,
    turn,
    weapon_die,
    wound_level,
    wound_penalty,
)
from brutal_sim.toolbox.battle import foe_distance, place_sides
from brutal_sim.toolbox.rng import seed_duel

ALWAYS_FAIL, ALWAYS_PASS = -5, 20


def rng(seed: int = 1, index: int = 0) -> np.ndarray:
    st = np.empty(4, dtype=np.uint64)
    seed_duel(st, np.uint64(seed), np.int64(index))
    return st


def cells(S, i, n=7):
    return [(S[i, L.S_TRACK] >> c) & 1 for c in range(n)]


# -- B-5 wound levels ------------------------------------------------------------------------------

@pytest.mark.parametrize("damage,level", [(0, "none"), (1, "light_damage"), (3, "light_damage"), (4, "light"),
                                          (6, "light"), (7, "heavy"), (9, "heavy"), (10, "critical"),
                                          (15, "critical"), (16, "mortal")])
def test_b5_1_wound_levels_3_6_9_15(damage, level):
    F = blank_fighters()
    assert L.LEVEL_NAMES[wound_level(F, 1, damage)] == level


def test_b5_1_talent_raises_levels(catalog):
    from brutal_sim.rulesets.brutal.compile import compile_fighter

    brute = compile_fighter(catalog.fighter("brute"))  # tough_as_nails: +1 to each level
    assert list(brute[L.P_DL0:L.P_DL0 + 4]) == [4, 7, 10, 16]
    F = np.stack([brute, brute])
    assert L.LEVEL_NAMES[wound_level(F, 1, 4)] == "light_damage"
    assert L.LEVEL_NAMES[wound_level(F, 1, 16)] == "critical"


# -- B-6 the wound track --------------------------------------------------------------------------

def test_b6_2_light_wounds_fill_from_the_left_then_b6_5_penalty():
    F = blank_fighters()  # endurance 3: 7 cells, ЛР=3, ТР=4, КР=5, И=6 (B-6.1)
    S = fresh_state(F)
    for k in range(3):
        record(F, S, 1, L.LVL_LIGHT)
    assert cells(S, 1) == [1, 1, 1, 0, 0, 0, 0]
    assert wound_penalty(F, S, 1) == 0
    record(F, S, 1, L.LVL_LIGHT)
    assert cells(S, 1)[3] == 1 and wound_penalty(F, S, 1) == 1  # ЛР filled: −1


def test_b6_3_heavy_takes_tr_then_cells_to_its_right_and_b6_6_full_track_is_out():
    F = blank_fighters()
    S = fresh_state(F)
    record(F, S, 1, L.LVL_HEAVY)
    assert cells(S, 1) == [0, 0, 0, 0, 1, 0, 0] and wound_penalty(F, S, 1) == 2
    record(F, S, 1, L.LVL_HEAVY)
    assert cells(S, 1) == [0, 0, 0, 0, 1, 1, 0] and wound_penalty(F, S, 1) == 4
    assert S[1, L.S_OUT] == 0
    record(F, S, 1, L.LVL_HEAVY)
    assert cells(S, 1)[6] == 1
    assert S[1, L.S_OUT] == L.CAUSE_TRACK_FULL + 1


def test_b6_4_critical_takes_kr_else_i():
    F = blank_fighters()
    S = fresh_state(F)
    record(F, S, 1, L.LVL_CRITICAL)
    assert cells(S, 1) == [0, 0, 0, 0, 0, 1, 0] and wound_penalty(F, S, 1) == 4
    record(F, S, 1, L.LVL_CRITICAL)
    assert S[1, L.S_OUT] == L.CAUSE_TRACK_FULL + 1


def test_b5_3_light_damage_tally_exceeding_endurance_becomes_a_light_wound():
    F = blank_fighters()  # endurance 3
    S = fresh_state(F)
    for _ in range(3):
        light_damage(F, S, 1)
    assert S[1, L.S_TALLY] == 3 and S[1, L.S_TRACK] == 0
    light_damage(F, S, 1)
    assert S[1, L.S_TALLY] == 0 and cells(S, 1)[0] == 1


# -- B-5.2 shock, B-7 effects ---------------------------------------------------------------------

def wound(damage, dtype, zone, toughness, in_turn=0, **state):
    F = blank_fighters()
    F[1, L.P_TOUGHNESS] = toughness
    give_weapon(F, 1, L.SLOT_MAIN, 1, 8)
    give_weapon(F, 1, L.SLOT_OFF, 1, 4)
    S = fresh_state(F)
    S[1, L.S_IN_TURN] = in_turn
    for k, v in state.items():
        S[1, getattr(L, k)] = v
    cnt = counters()
    take_wound(F, S, default_options(), rng(), cnt, 1, damage, dtype, zone)
    return S, cnt


def test_b5_2_shock_heavy_recorded_light_with_heavy_effects():
    S, cnt = wound(8, L.DT_SHOCK, L.ZONE_TORSO, ALWAYS_FAIL)
    assert cells(S, 1) == [1, 0, 0, 0, 0, 0, 0]  # recorded as a light wound
    assert S[1, L.S_STUN] == 1 and S[1, L.S_DAZE] == 1  # heavy torso effects, failed vs 12 (B-7.2)
    assert cnt[L.C_WOUNDS + 24 + L.LVL_HEAVY * 4 + 1] == 1  # counted by effect level, torso


def test_b5_2_shock_light_damage_is_not_recorded():
    S, _ = wound(2, L.DT_SHOCK, L.ZONE_TORSO, ALWAYS_FAIL)
    assert S[1, L.S_TRACK] == 0 and S[1, L.S_TALLY] == 0


@pytest.mark.parametrize("zone,field", [(L.ZONE_RARM, "S_HELD_MAIN"), (L.ZONE_LARM, "S_HELD_OFF"),
                                        (L.ZONE_LLEG, "S_PRONE"), (L.ZONE_TORSO, "S_STUN"),
                                        (L.ZONE_HEAD, "S_DAZE")])
def test_b7_1_light_wound_effect_on_a_failed_toughness_8(zone, field):
    S, _ = wound(5, L.DT_BLUNT, zone, ALWAYS_FAIL)
    expected = 0 if field.startswith("S_HELD") else 1
    assert S[1, getattr(L, field)] == expected
    S, _ = wound(5, L.DT_BLUNT, zone, ALWAYS_PASS)
    assert S[1, getattr(L, field)] == (1 if field.startswith("S_HELD") else 0)


def test_b2_8_stun_in_own_turn_lasts_through_the_next_turn():
    S, _ = wound(5, L.DT_BLUNT, L.ZONE_TORSO, ALWAYS_FAIL, in_turn=1)
    assert S[1, L.S_STUN] == 2


def test_b7_1_two_handed_weapon_dropped_by_either_arm():
    F = blank_fighters()
    F[1, L.P_TOUGHNESS] = ALWAYS_FAIL
    give_weapon(F, 1, L.SLOT_MAIN, 1, 12, two_handed=1)
    S = fresh_state(F)
    take_wound(F, S, default_options(), rng(), counters(), 1, 5, L.DT_BLUNT, L.ZONE_LARM)
    assert S[1, L.S_HELD_MAIN] == 0


@pytest.mark.parametrize("dtype,bleed", [(L.DT_CUTTING, 1), (L.DT_BLUNT, 0)])
def test_b7_2_heavy_head_wound(dtype, bleed):
    S, _ = wound(8, dtype, L.ZONE_HEAD, ALWAYS_PASS)
    assert S[1, L.S_DAZE] == 1 and S[1, L.S_OUT] == 0 and S[1, L.S_BLEED] == bleed
    S, _ = wound(8, dtype, L.ZONE_HEAD, ALWAYS_FAIL)
    assert S[1, L.S_OUT] == L.CAUSE_KNOCKED_OUT + 1


def test_b7_2_heavy_leg_wound_prone_and_stunned_on_failure():
    S, _ = wound(8, L.DT_BLUNT, L.ZONE_RLEG, ALWAYS_PASS)
    assert S[1, L.S_PRONE] == 1 and S[1, L.S_STUN] == 0
    S, _ = wound(8, L.DT_BLUNT, L.ZONE_RLEG, ALWAYS_FAIL)
    assert S[1, L.S_PRONE] == 1 and S[1, L.S_STUN] == 1


def test_b7_3_critical_wounds_and_b7_4_lasting_stun():
    S, _ = wound(12, L.DT_BLUNT, L.ZONE_HEAD, ALWAYS_PASS)
    assert S[1, L.S_OUT] == L.CAUSE_KNOCKED_OUT + 1  # head: unconscious, no check
    S, _ = wound(12, L.DT_CUTTING, L.ZONE_TORSO, ALWAYS_PASS)
    assert S[1, L.S_OUT] == 0 and S[1, L.S_DAZE] == 1 and S[1, L.S_PERM_STUN] == 1 and S[1, L.S_BLEED] == 1
    S, _ = wound(12, L.DT_BLUNT, L.ZONE_RARM, ALWAYS_FAIL)
    assert S[1, L.S_HELD_MAIN] == 0 and S[1, L.S_OUT] == L.CAUSE_KNOCKED_OUT + 1


def test_b5_4_mortal_wound_is_out_and_toughness_12_decides_death():
    S, _ = wound(16, L.DT_CUTTING, L.ZONE_TORSO, ALWAYS_PASS)
    assert S[1, L.S_OUT] == L.CAUSE_MORTAL + 1 and S[1, L.S_DEAD] == 0
    S, _ = wound(16, L.DT_CUTTING, L.ZONE_TORSO, ALWAYS_FAIL)
    assert S[1, L.S_OUT] == L.CAUSE_MORTAL + 1 and S[1, L.S_DEAD] == 1


# -- B-4 resolving an attack -----------------------------------------------------------------------

def armoured(prot=3, tough=3, pen=1, dtype=L.DT_CUTTING):
    F = blank_fighters()
    give_weapon(F, 0, L.SLOT_MAIN, 1, 8, bonus=0, dtype=dtype, pen=pen)
    F[1, L.P_ARMOUR + 2 * L.ZONE_TORSO] = prot
    F[1, L.P_ARMOUR + 2 * L.ZONE_TORSO + 1] = tough
    return F, fresh_state(F)


@pytest.mark.parametrize("marker,final,dtype", [(6, 5, L.DT_CUTTING), (5, 5, L.DT_BLUNT), (1, 5, L.DT_BLUNT)])
def test_b4_14_penetration_marker(marker, final, dtype):
    # d6 + pen 1 − toughness 3 ≥ 4 pierces only on a 6; protection 3 always subtracts: 8 − 3 = 5
    F, S = armoured()
    got = final_damage(F, S, default_options(), 0, 1, L.SLOT_MAIN, L.ZONE_TORSO, 8, 0, marker, 0, 0)
    assert got == (final, dtype)


def test_b4_14_armour_model_options():
    F, S = armoured()
    o = default_options(armour_model="marker_pierce_ignores_protection")
    assert final_damage(F, S, o, 0, 1, L.SLOT_MAIN, L.ZONE_TORSO, 8, 0, 6, 0, 0) == (8, L.DT_CUTTING)
    assert final_damage(F, S, o, 0, 1, L.SLOT_MAIN, L.ZONE_TORSO, 8, 0, 5, 0, 0) == (5, L.DT_BLUNT)
    o = default_options(armour_model="protection_only")
    assert final_damage(F, S, o, 0, 1, L.SLOT_MAIN, L.ZONE_TORSO, 8, 0, 0, 0, 0) == (5, L.DT_CUTTING)
    o = default_options(pierce_threshold=3)  # 5 + 1 − 3 = 3 ≥ 3 now pierces
    assert final_damage(F, S, o, 0, 1, L.SLOT_MAIN, L.ZONE_TORSO, 8, 0, 5, 0, 0) == (5, L.DT_CUTTING)


def test_b4_14_unarmoured_zone_and_fire_and_blast():
    F, S = armoured()
    assert final_damage(F, S, default_options(), 0, 1, L.SLOT_MAIN, L.ZONE_HEAD, 8, 0, 0, 0, 0) == (8, L.DT_CUTTING)
    F, S = armoured(dtype=L.DT_FIRE)  # protection doubled: 8 − 6
    assert final_damage(F, S, default_options(), 0, 1, L.SLOT_MAIN, L.ZONE_TORSO, 8, 0, 1, 0, 0) == (2, L.DT_FIRE)
    F, S = armoured(dtype=L.DT_BLAST)  # protection halved: 8 − 1
    assert final_damage(F, S, default_options(), 0, 1, L.SLOT_MAIN, L.ZONE_TORSO, 8, 0, 1, 0, 0) == (7, L.DT_BLAST)


def test_b4_10_strength_option_and_b4_12_critical_die():
    F, S = armoured(prot=0, tough=0)
    F[0, L.P_STRENGTH] = 3
    o = default_options()
    assert final_damage(F, S, o, 0, 1, L.SLOT_MAIN, L.ZONE_TORSO, 8, 4, 0, 0, 0)[0] == 12
    o = default_options(melee_damage_adds_strength="true")
    assert final_damage(F, S, o, 0, 1, L.SLOT_MAIN, L.ZONE_TORSO, 8, 4, 0, 0, 0)[0] == 15
    # fists add strength through their own bonus (B-7.7), never twice
    F[0, L.P_WEAPONS + L.SLOT_FISTS * L.WN + L.W_BONUS] = 3
    assert final_damage(F, S, o, 0, 1, L.SLOT_FISTS, L.ZONE_TORSO, 2, 0, 0, 0, 0)[0] == 5


@pytest.mark.parametrize("sides,extra,floor_extra,floor", [(8, 4, 0, 4), (12, 5, 0, 6), (8, 3, 0, 0),
                                                           (8, 3, 1, 3), (6, 9, 1, 6), (4, 4, 1, 4)])
def test_b4_11_confident_hit_and_extra_success_floor(sides, extra, floor_extra, floor):
    assert die_floor(sides, extra, floor_extra) == floor


def test_b4_4_broken_weapon_degrades_then_is_destroyed():
    F = blank_fighters()
    give_weapon(F, 0, L.SLOT_MAIN, 1, 8, pen=2)
    S = fresh_state(F)
    cnt = counters()
    o = default_options()
    base = attack_bonus(F, S, 0, L.SLOT_MAIN, 0)
    break_weapon(F, S, o, cnt, 0, L.SLOT_MAIN)
    assert S[0, L.S_BROKEN_MAIN] == L.BROKEN_DEGRADED
    assert weapon_die(F, S, 0, L.SLOT_MAIN) == 6  # one die step lower
    assert attack_bonus(F, S, 0, L.SLOT_MAIN, 0) == base - 2
    break_weapon(F, S, o, cnt, 0, L.SLOT_MAIN)
    assert S[0, L.S_BROKEN_MAIN] == L.BROKEN_DESTROYED
    S = fresh_state(F)
    break_weapon(F, S, default_options(broken_weapon="destroyed"), cnt, 0, L.SLOT_MAIN)
    assert S[0, L.S_BROKEN_MAIN] == L.BROKEN_DESTROYED and cnt[L.C_BREAKS] == 3


def test_b4_7_reaction_modifiers():
    F = blank_fighters()
    S = fresh_state(F)
    opts = default_options()
    assert reaction_modifier(F, S, opts, 1, True) == 0
    S[1, L.S_STANCE] = 2  # defensive stance
    assert reaction_modifier(F, S, opts, 1, True) == 2
    S[1, L.S_STANCE] = 0
    S[1, L.S_PRONE] = 1
    assert (reaction_modifier(F, S, opts, 1, True), reaction_modifier(F, S, opts, 1, False)) == (-4, -2)
    S[1, L.S_STUN] = 1  # conditions: the largest applies (B-1.6)
    assert (reaction_modifier(F, S, opts, 1, True), reaction_modifier(F, S, opts, 1, False)) == (-4, -2)
    S[1, L.S_PRONE] = 0
    S[1, L.S_FULL_PEN] = 1  # B-2.6 −2 after a full action; a different kind, adds
    assert reaction_modifier(F, S, opts, 1, False) == -4
    record(F, S, 1, L.LVL_HEAVY)  # −2 wound penalty adds too
    assert reaction_modifier(F, S, opts, 1, False) == -6


def test_b4_2_attack_penalties_off_hand_and_ambidexterity():
    F = blank_fighters()
    F[0, L.P_MELEE] = 3
    give_weapon(F, 0, L.SLOT_MAIN, 1, 6)
    give_weapon(F, 0, L.SLOT_OFF, 1, 4)
    S = fresh_state(F)
    assert attack_bonus(F, S, 0, L.SLOT_MAIN, 0) == 3
    assert attack_bonus(F, S, 0, L.SLOT_OFF, 0) == 1  # off hand −2 (B-7.6)
    F[0, L.P_AMBIDEXTROUS] = 1
    assert attack_bonus(F, S, 0, L.SLOT_OFF, 0) == 3
    S[0, L.S_PRONE] = 1
    assert active_penalty(F, S, 0) == 4  # prone −4 to melee attacks (B-7.5)


def test_b4_8_reaction_choice():
    F = blank_fighters()
    F[1, L.P_MELEE] = 2
    F[1, L.P_DODGE] = 3
    S = fresh_state(F)
    opts = default_options()
    assert choose_reaction(F, S, opts, 1, L.K_NORMAL) == L.R_DODGE  # unarmed defenders dodge
    give_weapon(F, 1, L.SLOT_MAIN, 1, 8, parry=1)
    S = fresh_state(F)
    assert choose_reaction(F, S, opts, 1, L.K_NORMAL) == L.R_PARRY  # 2 + 1 ≥ 3: parry on ties
    F[1, L.P_DODGE] = 4
    assert choose_reaction(F, S, opts, 1, L.K_NORMAL) == L.R_DODGE
    F[1, L.P_REACTION] = L.R_PARRY
    assert choose_reaction(F, S, opts, 1, L.K_NORMAL) == L.R_PARRY
    assert choose_reaction(F, S, opts, 1, L.K_KNOCKDOWN) == L.R_DODGE  # B-3.9 knock-down cannot be parried
    S[1, L.S_NO_REACT] = 1  # B-3.4 after a furious attack
    assert choose_reaction(F, S, opts, 1, L.K_NORMAL) == L.R_NONE


@pytest.mark.parametrize("tactic,slot,mod,zone,kind,acts_left,flag", [
    ("single", L.SLOT_MAIN, 0, -1, L.K_NORMAL, 1, None),
    ("defensive", L.SLOT_MAIN, -2, -1, L.K_NORMAL, 1, ("S_STANCE", 2)),      # B-3.2
    ("aimed:head", L.SLOT_MAIN, -4, L.ZONE_HEAD, L.K_NORMAL, 1, None),      # B-3.3
    ("furious", L.SLOT_MAIN, 4, -1, L.K_NORMAL, 0, ("S_NO_REACT", 1)),      # B-3.4
    ("step", L.SLOT_MAIN, -2, -1, L.K_NORMAL, 1, None),                     # B-3.5
    ("knockdown", L.SLOT_FISTS, -2, -1, L.K_KNOCKDOWN, 1, None),            # B-3.9
    ("total_defence", L.SLOT_FISTS, 0, -1, -1, 0, ("S_STANCE", 4)),         # B-3.7
])
def test_b3_action_modifiers(tactic, slot, mod, zone, kind, acts_left, flag):
    """What each action of B-3 makes of the attack, planned with two standard actions: B-3.1 single
    attack — the plain attack (modifier 0, a standard action: one left); B-3.2 defensive — −2 and
    +2 stance; B-3.3 aimed — −4 at the chosen zone; B-3.4 furious — +4, the full turn, no
    reactions; B-3.5 step and attack — −2 (the 1 m step is not tracked); B-3.7 total defence — no
    attack, +4 stance, the full turn; B-3.9 knock-down — unarmed at −2."""
    F = blank_fighters()
    give_weapon(F, 0, L.SLOT_MAIN, 1, 8)
    set_tactic(F, 0, tactic)
    S = fresh_state(F)
    got = plan_attack(F, S, default_options(), 0, 2)
    assert got[:5] == (mod, zone, kind, slot, acts_left)
    if flag:
        assert S[0, getattr(L, flag[0])] == flag[1]


def test_b3_3_aimed_unarmed_is_minus_2_and_b3_4_furious_needs_a_full_turn():
    F = blank_fighters()
    set_tactic(F, 0, "aimed:torso")
    assert plan_attack(F, fresh_state(F), default_options(), 0, 2)[:2] == (-2, L.ZONE_TORSO)
    set_tactic(F, 0, "furious")
    S = fresh_state(F)
    assert plan_attack(F, S, default_options(), 0, 1)[:3] == (0, -1, L.K_NORMAL)  # one action left: a plain attack
    assert S[0, L.S_NO_REACT] == 0
    set_tactic(F, 0, "total_defence")
    S = fresh_state(F)
    assert plan_attack(F, S, default_options(), 0, 1)[2:5] == (-1, L.SLOT_FISTS, 1)  # nothing; the action stays spare
    assert S[0, L.S_STANCE] == 0


def test_b3_6_feint_and_b7_6_paired_weapons():
    F = blank_fighters()
    give_weapon(F, 0, L.SLOT_MAIN, 1, 8)
    give_weapon(F, 0, L.SLOT_OFF, 1, 6)
    set_tactic(F, 0, "feint")
    assert plan_attack(F, fresh_state(F), default_options(), 0, 2)[5] is True
    assert plan_attack(F, fresh_state(F), default_options(), 0, 1)[5] is False
    set_tactic(F, 0, "single")
    F[0, L.P_PAIRED] = 1
    mod, *_, paired = plan_attack(F, fresh_state(F), default_options(), 0, 2)
    assert (mod, paired) == (-4, True)


# -- B-2 initiative and turns ----------------------------------------------------------------------

@njit
def _first_counts(F, n):
    st = np.empty(4, dtype=np.uint64)
    S = np.zeros((F.shape[0], L.NS), dtype=np.int64)
    firsts = 0
    for i in range(n):
        seed_duel(st, np.uint64(3), i)
        initiative(F, S, st)
        firsts += S[0, L.S_ORDER]
    return firsts


def test_b2_2_initiative_ties_go_to_talent_then_agility():
    p_tie = sum((min(s - 1, 13 - s) / 36) ** 2 for s in range(2, 13))  # 146/1296
    n = 200_000
    F = blank_fighters()
    F[1, L.P_INIT_TALENT] = 1  # b wins every tie: P(b first) = (1 − p_tie)/2 + p_tie
    expected = (1 - p_tie) / 2 + p_tie
    se = np.sqrt(expected * (1 - expected) / n)
    assert abs(_first_counts(F, n) / n - expected) < 4 * se
    F[1, L.P_INIT_TALENT] = 0
    F[0, L.P_AGILITY] = 1  # a wins ties by agility
    assert abs(_first_counts(F, n) / n - (1 - p_tie) / 2) < 4 * se
    F[0, L.P_RESOLVE] = 11  # 2d6+11 ≥ 13 > 12 ≥ 2d6
    assert _first_counts(F, 1000) == 0


def test_b7_5_bleeding_before_the_turn():
    F = blank_fighters()
    F[0, L.P_ENDURANCE] = 0  # every light damage is a light wound
    set_tactic(F, 0, "total_defence")
    S = fresh_state(F)
    S[0, L.S_BLEED] = 2
    turn(F, S, default_options(), np.zeros(20, np.int8), rng(), counters(), 0)
    assert bin(S[0, L.S_TRACK]).count("1") == 2


def test_b2_3_surprised_and_b7_5_dazed_fighters_do_not_act():
    for field in ("S_SURPRISED", "S_DAZE"):
        F = blank_fighters()
        S = fresh_state(F)
        S[0, getattr(L, field)] = 1
        cnt = counters()
        turn(F, S, default_options(), np.zeros(20, np.int8), rng(), cnt, 0)
        assert cnt[L.C_ATTACKS:L.C_ATTACKS + 5].sum() == 0
    assert S[0, L.S_DAZE] == 0  # dazed until the end of that turn (B-2.8)


def test_b3_11_standing_up_provokes_b3_8_opportunity_attack():
    F = blank_fighters()
    set_tactic(F, 0, "total_defence")
    S = fresh_state(F)
    S[0, L.S_PRONE] = 1
    S[1, L.S_OA_LEFT] = 1
    cnt = counters()
    turn(F, S, default_options(), np.zeros(20, np.int8), rng(), cnt, 0)
    assert S[0, L.S_PRONE] == 0
    assert cnt[L.C_ATTACKS + 5:L.C_ATTACKS + 10].sum() == 1  # b attacked once, as a reaction
    assert S[1, L.S_OA_LEFT] == 0
    # no opportunity attack from a fighter who used its one per round …
    S = fresh_state(F)
    S[0, L.S_PRONE] = 1
    cnt = counters()
    turn(F, S, default_options(), np.zeros(20, np.int8), rng(), cnt, 0)
    assert cnt[L.C_ATTACKS + 5:L.C_ATTACKS + 10].sum() == 0
    # … or who attacked furiously (B-3.4: no reactions until its next turn)
    S = fresh_state(F)
    S[0, L.S_PRONE] = 1
    S[1, L.S_OA_LEFT] = 1
    S[1, L.S_NO_REACT] = 1
    cnt = counters()
    turn(F, S, default_options(), np.zeros(20, np.int8), rng(), cnt, 0)
    assert cnt[L.C_ATTACKS + 5:L.C_ATTACKS + 10].sum() == 0 and S[1, L.S_OA_LEFT] == 1


def test_b3_10_dropped_weapon_is_readied_with_an_opportunity_attack():
    F = blank_fighters()
    give_weapon(F, 0, L.SLOT_MAIN, 1, 8)
    set_tactic(F, 0, "total_defence")
    S = fresh_state(F)
    S[0, L.S_HELD_MAIN] = 0
    S[1, L.S_OA_LEFT] = 1
    cnt = counters()
    turn(F, S, default_options(), np.zeros(20, np.int8), rng(), cnt, 0)
    assert S[0, L.S_HELD_MAIN] == 1
    assert cnt[L.C_ATTACKS + 5:L.C_ATTACKS + 10].sum() == 1
    assert S[0, L.S_NO_OA] == 0 and S[0, L.S_STANCE] == 0  # one action left: no total defence (a full action)


def test_b2_9_round_cap_records_draws(tmp_path):
    from brutal_sim import api

    r = api.duel("swordsman", "knight", n=200, seed=1, options={"round_cap": "3"},
                 tactic_a="total_defence", tactic_b="total_defence")
    assert r.draws == 200 and r.wins(0) == 0 and r.rounds_hist.sum() == 0


# -- exact single attacks, enumerated by hand ------------------------------------------------------

TWO_D6 = [a + b for a, b in itertools.product(range(1, 7), repeat=2)]


def test_b4_1_no_reaction_hits_on_8_or_more(catalog):
    from brutal_sim import api

    r = api.attack("militia", "militia", reaction="none").to_dict()
    # militia melee +1: 2d6 + 1 ≥ 8 ⇔ 2d6 ≥ 7: 21/36
    assert r["p_hit"] == pytest.approx(21 / 36, abs=1e-12)
    assert r["p_miss"] == pytest.approx(15 / 36, abs=1e-12)


def test_b4_4_parry_hard_block_and_b4_5_dodge_ties_hit():
    from brutal_sim import api

    # militia (melee 1) attacks; defender swordsman parries with melee 3 + shield 2 + shield_master 1 = +6
    r = api.attack("militia", "swordsman").to_dict()
    hit = block = parried = miss = 0
    for x in TWO_D6:
        att = x + 1
        if att < 8:
            miss += 36
            continue
        for y in TWO_D6:
            par = y + 6
            hit += att > par
            block += att == par
            parried += att < par
    assert r["p_miss"] == pytest.approx(miss / 1296, abs=1e-12)
    assert r["p_hit"] == pytest.approx(hit / 1296, abs=1e-12)
    assert r["p_hard_block"] == pytest.approx(block / 1296, abs=1e-12)
    assert r["p_parried"] == pytest.approx(parried / 1296, abs=1e-12)
    # the same attack dodged (swordsman dodge +1): ties hit
    r = api.attack("militia", "swordsman", reaction="dodge").to_dict()
    hit = sum(36 * 0 + sum(x + 1 >= y + 1 for y in TWO_D6) for x in TWO_D6 if x + 1 >= 8)
    assert r["p_hit"] == pytest.approx(hit / 1296, abs=1e-12)


def test_b4_6_margin_option_changes_only_extra_successes():
    from brutal_sim import api

    a = api.attack("duelist", "militia").to_dict()
    b = api.attack("duelist", "militia", options={"margin_against": "max(base,reaction)"}).to_dict()
    assert a["p_hit"] == pytest.approx(b["p_hit"], abs=1e-12)
    assert b["mean_damage"] <= a["mean_damage"] + 1e-12


def _oa_setup(zone: int):
    """Fighter a prone/disarmed on its turn; b's opportunity attack always hits ``zone`` for a
    light wound (damage 4–5 against levels 3/6/9/15) that a's toughness always fails."""
    F = blank_fighters()
    give_weapon(F, 0, L.SLOT_MAIN, 1, 8)
    F[0, L.P_TOUGHNESS] = ALWAYS_FAIL
    F[0, L.P_REACTION] = L.R_NONE
    give_weapon(F, 1, L.SLOT_MAIN, 1, 2, bonus=3, dtype=L.DT_BLUNT)
    F[1, L.P_MELEE] = 20
    S = fresh_state(F)
    S[1, L.S_OA_LEFT] = 1
    zt = np.full(20, zone, dtype=np.int8)
    return F, S, zt


def test_b7_5_dazed_by_the_opportunity_attack_ends_the_turns_actions():
    F, S, zt = _oa_setup(L.ZONE_HEAD)
    S[0, L.S_PRONE] = 1
    cnt = counters()
    turn(F, S, default_options(), zt, rng(), cnt, 0)
    assert cnt[L.C_ATTACKS + 5 + L.OUT_HIT] == 1  # b's opportunity attack hit the head
    assert cnt[L.C_ATTACKS:L.C_ATTACKS + 5].sum() == 0  # a, dazed, did not attack
    assert S[0, L.S_PRONE] == 0 and S[0, L.S_DAZE] == 1  # it did get up; dazed through its next turn


def test_b3_11_felled_again_while_rising_stands_up_again():
    F, S, zt = _oa_setup(L.ZONE_LLEG)
    S[0, L.S_PRONE] = 1
    cnt = counters()
    turn(F, S, default_options(), zt, rng(), cnt, 0)
    assert cnt[L.C_ATTACKS + 5:L.C_ATTACKS + 10].sum() == 1  # one opportunity attack per round
    assert S[0, L.S_PRONE] == 0  # the second attempt provoked nothing and succeeded
    assert cnt[L.C_ATTACKS:L.C_ATTACKS + 5].sum() == 0  # both actions went into standing up


def test_b3_10_weapon_knocked_away_again_while_readying():
    F, S, zt = _oa_setup(L.ZONE_RARM)
    S[0, L.S_HELD_MAIN] = 0
    cnt = counters()
    turn(F, S, default_options(), zt, rng(), cnt, 0)
    assert S[0, L.S_HELD_MAIN] == 0  # dropped again by the arm wound
    assert cnt[L.C_ATTACKS:L.C_ATTACKS + 5].sum() == 1  # a attacked with its remaining action (fists)


# -- B-7.9 cramped space, B-7.10 fear ---------------------------------------------------------------

def test_b7_9_cramped_parry_on_1_1_is_void():
    """Swordsman parries militia's spear at +6; in cramped space a natural 1+1 parry never happened
    (the attack then only needs the base difficulty 8)."""
    from brutal_sim import api

    r = api.attack("militia", "swordsman", options={"cramped_space": "true"}).to_dict()
    pairs = list(itertools.product(range(1, 7), repeat=2))
    hit = 0
    for a1, a2 in pairs:
        att = a1 + a2 + 1
        if att < 8:
            continue
        for p1, p2 in pairs:
            hit += (p1 == 1 and p2 == 1) or att > p1 + p2 + 6
    assert r["p_hit"] == pytest.approx(hit / 1296, abs=1e-12)
    base = api.attack("militia", "swordsman").to_dict()
    assert r["p_hit"] > base["p_hit"]


def test_b7_9_cramped_armed_attack_on_1_1_is_void_but_not_fists():
    F = blank_fighters()
    give_weapon(F, 0, L.SLOT_MAIN, 1, 8)
    F[0, L.P_MELEE] = 20  # every roll hits … except a voided 1+1
    F[1, L.P_REACTION] = L.R_NONE
    from brutal_sim.rulesets.brutal.kernel import attack

    o = default_options(cramped_space="true")
    zt = np.zeros(20, dtype=np.int8)
    voided = hits = 0
    for i in range(3000):
        S = fresh_state(F)
        cnt = counters()
        attack(F, S, o, zt, rng(9, i), cnt, 0, 1, L.SLOT_MAIN, 0, -1, L.K_NORMAL)
        voided += cnt[L.C_ATTACKS + L.OUT_MISS]
        hits += cnt[L.C_ATTACKS + L.OUT_HIT]
        S = fresh_state(F)
        cnt = counters()
        attack(F, S, o, zt, rng(9, i), cnt, 0, 1, L.SLOT_FISTS, 0, -1, L.K_NORMAL)
        assert cnt[L.C_ATTACKS + L.OUT_HIT] == 1  # fists are no weapon: never voided
    p = 1 / 36
    assert abs(voided / 3000 - p) < 4 * np.sqrt(p * (1 - p) / 3000) and voided + hits == 3000


def test_b7_10_fear_dazes_then_panics():
    """Militia (willpower 0) facing the ghoul's fear 3 (difficulty 12) fails each check with 35/36;
    the ghoul only defends, so the militia flees at its first turn with probability (35/36)²."""
    from brutal_sim import api

    n = 20_000
    r = api.duel("militia", "ghoul", n=n, seed=5, tactic_b="total_defence")
    p = (35 / 36) ** 2
    fled = r.defeats(0)["fled"]
    assert abs(fled / n - p) < 4 * np.sqrt(p * (1 - p) / n)
    steady = api.load_fighter("militia").with_checks(willpower=10)  # 2d6 + 10 ≥ 12 always
    r = api.duel(steady, "ghoul", n=2000, seed=5, tactic_b="total_defence")
    assert r.defeats(0)["fled"] == 0
    assert r.to_dict()["defeat_cause"]["fled"] == 0


def test_one_blow_counter_counts_losses_to_a_single_harmful_blow():
    """The shared ``one_blow`` counter: with damage far above the mortal level every harmful blow is
    mortal (B-5.4), so every decided duel ends on the loser's only harmful blow; fleeing (B-7.10)
    never counts."""
    from brutal_sim import api

    killer = api.load_fighter("swordsman").with_weapon(damage="d6+60")
    r = api.duel(killer, killer.named("Other killer"), n=3000, seed=3)
    decided = r.wins(0) + r.wins(1)
    assert decided > 2900
    assert r.one_blow(0) + r.one_blow(1) == decided
    assert r.to_dict()["one_blow_share"] == 1.0
    r = api.duel("militia", "ghoul", n=3000, seed=5, tactic_b="total_defence")
    assert r.defeats(0)["fled"] > 2500 and r.one_blow(0) == 0


# -- B-7.8 fatigue ------------------------------------------------------------------------------------

@pytest.mark.parametrize("levels,penalty", [(0, 0), (1, 1), (3, 1), (4, 2), (6, 2), (7, 4), (9, 4)])
def test_b7_8_fatigue_penalty_tired_exhausted_depleted(levels, penalty):
    """Endurance 3: 1+ levels tired −1, more than 3 exhausted −2, more than 6 depleted −4."""
    F = blank_fighters()
    S = fresh_state(F)
    set_fatigue(F, S, 1, levels)
    assert fatigue_penalty(F, S, 1) == penalty and S[1, L.S_FATIGUE] == levels


def test_b7_8_fatigue_applies_to_all_checks_and_adds_to_wounds():
    """Exhausted (4 levels, endurance 3): −2 to attacks, parry, dodge, athletics; a filled ЛР adds its
    −1 (different kinds add, B-1.6)."""
    from brutal_sim.rulesets.brutal.kernel import check_penalty

    F = blank_fighters()
    S = fresh_state(F)
    opts = default_options()
    fresh = (attack_bonus(F, S, 0, L.SLOT_FISTS, 0), reaction_modifier(F, S, opts, 0, True),
             reaction_modifier(F, S, opts, 0, False), check_penalty(F, S, 0))
    set_fatigue(F, S, 0, 4)
    assert (attack_bonus(F, S, 0, L.SLOT_FISTS, 0), reaction_modifier(F, S, opts, 0, True),
            reaction_modifier(F, S, opts, 0, False), check_penalty(F, S, 0)) == (
        fresh[0] - 2, fresh[1] - 2, fresh[2] - 2, fresh[3] + 2)
    record(F, S, 0, L.LVL_HEAVY)  # ТР filled: −2 wounds
    assert active_penalty(F, S, 0) == 4


def test_b7_8_fatigue_applies_to_toughness_checks():
    """Toughness 6 passes a light wound's check (vs 8) on 2d6 ≥ 2 always; depleted (−4) it needs
    2d6 ≥ 6: the effect (torso: stunned) then follows with P = 10/36."""
    F = blank_fighters()
    F[1, L.P_TOUGHNESS] = 6
    stunned = 0
    n = 4000
    for i in range(n):
        S = fresh_state(F)
        set_fatigue(F, S, 1, 7)
        take_wound(F, S, default_options(), rng(3, i), counters(), 1, 5, L.DT_CUTTING, L.ZONE_TORSO)
        stunned += S[1, L.S_STUN] > 0
    p = 10 / 36
    assert abs(stunned / n - p) < 4 * np.sqrt(p * (1 - p) / n)


@pytest.mark.parametrize("damage,gained", [(2, 0), (5, 1), (8, 2), (12, 4)])
def test_b7_8_fire_wounds_bring_1_2_4_fatigue_levels(damage, gained):
    """Light / heavy / critical fire wounds: 1 / 2 / 4 levels; light damage none; cutting none."""
    F = blank_fighters()
    F[1, L.P_TOUGHNESS] = ALWAYS_PASS
    F[1, L.P_WILLPOWER] = ALWAYS_PASS
    F[1, L.P_ENDURANCE] = 4  # 8 cells; 4 levels is still tired, no exhaustion check
    F[1, L.P_NCELLS] = 8
    S = fresh_state(F)
    take_wound(F, S, default_options(), rng(), counters(), 1, damage, L.DT_FIRE, L.ZONE_LLEG)
    assert S[1, L.S_FATIGUE] == gained and S[1, L.S_OUT] == 0
    assert fatigue_penalty(F, S, 1) == (1 if gained else 0)  # kept in step: up to 4 levels is tired
    S = fresh_state(F)
    take_wound(F, S, default_options(), rng(), counters(), 1, damage, L.DT_CUTTING, L.ZONE_LLEG)
    assert S[1, L.S_FATIGUE] == 0


def test_b7_8_exhaustion_check_and_death_by_exhaustion():
    """Endurance 1: the 2nd level is exhaustion — willpower vs 12 with −2 (2d6 − 5 − 2 always fails:
    unconscious, out); a fighter who always passes dies at the 4th level (more than 3 × 1)."""
    from brutal_sim.rulesets.brutal.kernel import gain_fatigue

    F = blank_fighters()
    F[1, L.P_ENDURANCE] = 1
    F[1, L.P_WILLPOWER] = ALWAYS_FAIL
    S = fresh_state(F)
    gain_fatigue(F, S, default_options(), rng(), 1, 1)
    assert S[1, L.S_OUT] == 0  # tired only: no check
    gain_fatigue(F, S, default_options(), rng(), 1, 1)
    assert S[1, L.S_OUT] == L.CAUSE_EXHAUSTED + 1 and S[1, L.S_DEAD] == 0
    F[1, L.P_WILLPOWER] = 14  # 2d6 + 14 − 4 ≥ 12 always, even depleted
    S = fresh_state(F)
    gain_fatigue(F, S, default_options(), rng(), 1, 3)
    assert S[1, L.S_OUT] == 0 and S[1, L.S_FATIGUE] == 3
    gain_fatigue(F, S, default_options(), rng(), 1, 5)
    assert S[1, L.S_FATIGUE] == 4 and S[1, L.S_OUT] == L.CAUSE_EXHAUSTED + 1 and S[1, L.S_DEAD] == 1


@pytest.mark.parametrize("mode,round_decided", [("per_round_after_endurance", 9), ("every_endurance_rounds", 14),
                                                ("off", None)])
def test_b7_8_exertion_fatigue_option(mode, round_decided):
    """Two steadfast (willpower 20) fighters in total defence. Endurance 3 vs 2: after the first
    <endurance> turns a level per turn kills b (7 levels > 3 × 2) in turn 2 + 7 = 9 (a would need
    13); every <endurance>-th turn kills b at turn 2 × 7 = 14 (a at 30); off: a draw at the cap."""
    from brutal_sim import api

    a = api.load_fighter("militia").vary(**{"checks.willpower": 20, "attributes.endurance": 3})
    b = api.load_fighter("militia").vary(**{"checks.willpower": 20, "attributes.endurance": 2})
    r = api.duel(a, b, n=200, seed=4, tactic_a="total_defence", tactic_b="total_defence",
                 options={"exertion_fatigue": mode, "round_cap": 40})
    d = r.to_dict()
    if round_decided is None:
        assert d["draws"] == 200
        return
    assert d["a"]["wins"] == 200 and d["b"]["defeat_cause"]["exhausted"] == 200 and d["b"]["deaths"] == 200
    assert int(np.nonzero(r.rounds_hist)[0][0]) == round_decided == d["rounds"]["p50"]


def test_b7_8_starting_fatigue_lowers_initiative_and_is_validated():
    """A fighter starting tired (−1) loses ties it would otherwise reach; more than 3 × endurance
    levels is refused with a DataError naming the field."""
    from brutal_sim import api
    from brutal_sim.core.errors import DataError

    F = blank_fighters()
    F[1, L.P_FATIGUE0] = 1
    F[0, L.P_RESOLVE] = 0
    F[1, L.P_RESOLVE] = 1  # b's +1 is cancelled by the −1: equal odds, ties rerolled
    n = 4000
    p = _first_counts(F, n) / n
    assert abs(p - 0.5) < 4 * np.sqrt(0.25 / n)
    with pytest.raises(DataError, match="fatigue"):
        api.load_fighter("militia").vary(fatigue=10)


# -- B-3.12 grapple -----------------------------------------------------------------------------------

def _grapple_pair():
    """a controls b; both bare-handed, checks 0."""
    F = blank_fighters()
    S = fresh_state(F)
    S[0, L.S_GRAPPLE] = L.G_CONTROLS
    S[1, L.S_GRAPPLE] = L.G_HELD
    return F, S


def test_b3_12_grapple_attack_is_unarmed_at_minus_2_and_needs_a_free_hand():
    F = blank_fighters()
    set_tactic(F, 0, "grapple")
    S = fresh_state(F)
    mod, zone, kind, slot, acts, feint, paired = plan_attack(F, S, default_options(), 0, 2)
    assert (mod, kind, slot, acts) == (-2, L.K_GRAPPLE, L.SLOT_FISTS, 1)
    give_weapon(F, 0, L.SLOT_MAIN, 1, 8)  # one hand free: still a grapple
    S = fresh_state(F)
    assert plan_attack(F, S, default_options(), 0, 2)[2] == L.K_GRAPPLE
    # option grapple_hands = both_free: an unarmed attack in the strict sense, the sword attacks
    assert plan_attack(F, S, default_options(grapple_hands="both_free"), 0, 2)[1:4] == (-1, L.K_NORMAL, L.SLOT_MAIN)
    give_weapon(F, 0, L.SLOT_MAIN, 1, 10, two_handed=1)  # both hands full: a plain weapon attack
    S = fresh_state(F)
    mod, zone, kind, slot, *_ = plan_attack(F, S, default_options(), 0, 2)
    assert (mod, kind, slot) == (0, L.K_NORMAL, L.SLOT_MAIN)


def test_b3_12_a_grapple_hit_deals_no_damage_and_starts_the_grapple():
    from brutal_sim.rulesets.brutal.kernel import attack

    F = blank_fighters()
    F[0, L.P_MELEE] = 20
    F[1, L.P_REACTION] = L.R_NONE
    S = fresh_state(F)
    cnt = counters()
    attack(F, S, default_options(), np.zeros(20, np.int8), rng(), cnt, 0, 1, L.SLOT_FISTS, -2, -1, L.K_GRAPPLE)
    assert cnt[L.C_ATTACKS + L.OUT_HIT] == 1 and cnt[L.C_DAMAGE + 1] == 0
    assert (S[0, L.S_GRAPPLE], S[1, L.S_GRAPPLE]) == (L.G_CONTROLS, L.G_HELD)
    # in the grapple neither side reacts to the other (nor makes opportunity attacks)
    give_weapon(F, 1, L.SLOT_MAIN, 1, 8)
    F[1, L.P_REACTION] = L.R_BEST
    assert choose_reaction(F, S, default_options(), 1, L.K_NORMAL) == L.R_NONE
    assert choose_reaction(F, S, default_options(), 0, L.K_NORMAL) == L.R_NONE


def test_b3_12_controller_strikes_with_a_reach_0_weapon_or_fists_and_no_reaction():
    """Melee 20 always hits; the victim's sword cannot parry in the grapple. A sword (reach 1) is
    not used: fists; a dagger (reach 0) is."""
    from brutal_sim.rulesets.brutal.kernel import grapple_hold, grapple_slot

    F, S = _grapple_pair()
    F[0, L.P_MELEE] = 20
    give_weapon(F, 1, L.SLOT_MAIN, 1, 8)
    give_weapon(F, 0, L.SLOT_MAIN, 1, 8)
    F[0, L.P_WEAPONS + L.W_REACH] = 1
    S = fresh_state(F)
    S[0, L.S_GRAPPLE], S[1, L.S_GRAPPLE] = L.G_CONTROLS, L.G_HELD
    assert grapple_slot(F, S, 0) == L.SLOT_FISTS
    F[0, L.P_WEAPONS + L.W_REACH] = 0
    assert grapple_slot(F, S, 0) == L.SLOT_MAIN
    cnt = counters()
    grapple_hold(F, S, default_options(), np.zeros(20, np.int8), rng(), cnt, 0)
    assert cnt[L.C_ATTACKS + L.OUT_HIT] == 1 and cnt[L.C_ATTACKS:L.C_ATTACKS + 5].sum() == 1
    assert S[0, L.S_GRAPPLE] == L.G_CONTROLS and S[0, L.S_FULL_PEN] == 1  # a full action (B-2.6)


@pytest.mark.parametrize("athletics,prone,hurt", [(20, 1, 1), (-5, 0, 0)])
def test_b3_12_throw_fells_hurts_at_2_extra_and_lets_go(athletics, prone, hurt):
    """Athletics 20 vs 0 wins by 2+: the victim is prone, takes d4+2 shock in the torso (armour
    ignored) and the controller lets go; athletics −5 never wins: nothing happens, the hold stays."""
    from brutal_sim.rulesets.brutal.kernel import grapple_hold

    F, S = _grapple_pair()
    set_tactic(F, 0, "grapple_throw")
    F[0, L.P_ATHLETICS] = athletics
    F[1, L.P_ARMOUR + 2 * L.ZONE_TORSO] = 10  # protection 10 would stop d4+2: it is ignored
    cnt = counters()
    grapple_hold(F, S, default_options(), np.zeros(20, np.int8), rng(), cnt, 0)
    assert S[1, L.S_PRONE] == prone
    assert cnt[L.C_WOUNDS + 24 + 4 * L.LVL_NONE:L.C_WOUNDS + 48].reshape(6, 4)[:, 1].sum() == hurt
    assert 3 * hurt <= cnt[L.C_DAMAGE + 1] <= 6 * hurt
    assert S[0, L.S_GRAPPLE] == (L.G_NONE if prone else L.G_CONTROLS)


def test_b3_12_item_in_hand_is_minus_4_to_grapple_athletics():
    from brutal_sim.rulesets.brutal.kernel import grapple_bonus

    F, S = _grapple_pair()
    F[1, L.P_ATHLETICS] = 3
    F[1, L.P_DODGE] = 1
    assert grapple_bonus(F, S, 1, False) == 3
    give_weapon(F, 1, L.SLOT_OFF, 1, 4)
    S[1, L.S_HELD_OFF] = 1
    assert grapple_bonus(F, S, 1, False) == -1 and grapple_bonus(F, S, 1, True) == 1


def test_b3_12_armed_victim_slips_out_then_has_one_standard_action():
    """Mobility 20 > athletics − 4: the victim slips out (always wins) and attacks once."""
    from brutal_sim.rulesets.brutal.kernel import grapple_escape

    F, S = _grapple_pair()
    give_weapon(F, 1, L.SLOT_MAIN, 1, 8)
    S[1, L.S_HELD_MAIN] = 1
    F[1, L.P_DODGE] = 20
    cnt = counters()
    assert grapple_escape(F, S, default_options(), np.zeros(20, np.int8), rng(), cnt, 1) == 1  # one action left
    assert S[0, L.S_GRAPPLE] == L.G_NONE and S[1, L.S_GRAPPLE] == L.G_NONE
    F, S = _grapple_pair()  # the whole turn: slip out, then the attack
    give_weapon(F, 1, L.SLOT_MAIN, 1, 8)
    S[1, L.S_HELD_MAIN] = 1
    F[1, L.P_DODGE] = 20
    turn(F, S, default_options(), np.zeros(20, np.int8), rng(), cnt, 1)
    assert S[1, L.S_GRAPPLE] == L.G_NONE and cnt[L.C_ATTACKS + 5:L.C_ATTACKS + 10].sum() == 1


def test_b3_12_bare_handed_victim_takes_over_and_acts_at_once():
    F, S = _grapple_pair()
    F[1, L.P_ATHLETICS] = 20
    cnt = counters()
    turn(F, S, default_options(), np.zeros(20, np.int8), rng(), cnt, 1)
    assert (S[1, L.S_GRAPPLE], S[0, L.S_GRAPPLE]) == (L.G_CONTROLS, L.G_HELD)
    assert cnt[L.C_ATTACKS + 5:L.C_ATTACKS + 10].sum() == 1  # its controlling blow


def test_b3_12_dazed_controller_lets_go():
    F, S = _grapple_pair()
    S[0, L.S_DAZE] = 1
    cnt = counters()
    turn(F, S, default_options(), np.zeros(20, np.int8), rng(), cnt, 0)
    assert S[0, L.S_GRAPPLE] == L.G_NONE and S[1, L.S_GRAPPLE] == L.G_NONE
    assert cnt[L.C_ATTACKS:L.C_ATTACKS + 10].sum() == 0


def test_b3_12_grapple_hold_vs_base_8_monte_carlo():
    """Held and striking with fists (melee 0) against base 8 and no reaction: P(hit) = 15/36 per turn."""
    from brutal_sim.rulesets.brutal.kernel import grapple_hold

    n, hits = 6000, 0
    for i in range(n):
        F, S = _grapple_pair()
        cnt = counters()
        grapple_hold(F, S, default_options(), np.zeros(20, np.int8), rng(11, i), cnt, 0)
        hits += cnt[L.C_ATTACKS + L.OUT_HIT]
    p = 15 / 36
    assert abs(hits / n - p) < 4 * np.sqrt(p * (1 - p) / n)


# -- B-8 distance and ranged combat -----------------------------------------------------------------

def _shooter_pair(ranges=(30, 60, 120), reload=2, two_handed=1):
    """a holds a ranged weapon (d10 piercing, pen 3) in its main hand; b is bare-handed."""
    F = blank_fighters()
    give_weapon(F, 0, L.SLOT_MAIN, 1, 10, pen=3, two_handed=two_handed)
    b = L.P_WEAPONS + L.SLOT_MAIN * L.WN
    F[0, b + L.W_SHORT], F[0, b + L.W_MEDIUM], F[0, b + L.W_LONG] = ranges
    F[0, b + L.W_RELOAD] = reload
    F[:, L.P_MOVEMENT] = 5
    F[:, L.P_T_RUN] = 1
    return F


@pytest.mark.parametrize("dist,moving,bonus", [(2, 0, 2), (3, 0, 2), (10, 0, 1), (20, 0, 0), (40, 0, -2),
                                               (100, 0, -4), (2, 1, 0), (10, 1, 0)])
def test_b8_range_bands_point_blank_and_close(dist, moving, bonus):
    """Crossbow 30/60/120: ≤ 3 m +2, ≤ 10 m +1 (not at a moving target), medium −2, long −4."""
    from brutal_sim.rulesets.brutal.kernel import shot_bonus

    F = _shooter_pair()
    S = fresh_state(F)
    place_sides(F, S, dist)
    S[1, L.S_MOVING] = moving
    for bands in ("literal", "single_shift"):  # a 120 m crossbow is no short weapon
        assert shot_bonus(F, S, default_options(short_weapon_bands=bands), 0, 0) == bonus


@pytest.mark.parametrize("dist,bonus", [(1, 2), (3, 1), (4, 0), (6, -2)])
def test_b9_10_single_shift_short_weapon_point_blank_is_1_m_and_close_3_m(dist, bonus):
    """B-9.10 ``short_weapon_bands = single_shift``: a weapon whose range is ≤ 10 m (here 4/8/10):
    point blank ≤ 1 m, close ≤ 3 m."""
    from brutal_sim.rulesets.brutal.kernel import shot_bonus

    F = _shooter_pair(ranges=(4, 8, 10))
    S = fresh_state(F)
    place_sides(F, S, dist)
    assert shot_bonus(F, S, default_options(short_weapon_bands="single_shift"), 0, 0) == bonus


@pytest.mark.parametrize("ranges,bands,expected", [
    # the close / point-blank bonus at 1, 2, 3, 5 m (a range-3 weapon cannot shoot at 5 m: None)
    ((1, 2, 3), "literal", (2, 1, 1, None)),
    ((1, 2, 3), "single_shift", (2, 1, 1, None)),
    ((2, 5, 8), "literal", (2, 2, 2, 0)),
    ((2, 5, 8), "single_shift", (2, 1, 1, 0)),
])
def test_b9_10_point_blank_and_close_of_range_3_and_range_8_weapons(ranges, bands, expected):
    """B-9.10 (seed lines 297–304): ``literal`` (default): a weapon of range ≤ 3 m (1/2/3) has point
    blank +2 within 1 m and close +1 within 3 m; a weapon of range 8 m (2/5/8) has close within 3 m,
    but keeps point blank +2 within 3 m, and gets no close bonus at 5 m (beyond it, medium band −2
    at 5 m). ``single_shift``: the range-8 weapon too has point blank within 1 m, close within 3 m.
    The shot modifier (``shot_bonus``: ranged 0, no modifier) is the close bonus less 2 per band."""
    from brutal_sim.rulesets.brutal.kernel import close_bonus, shot_bonus

    F = _shooter_pair(ranges=ranges)
    opts = default_options(short_weapon_bands=bands)
    for dist, bonus in zip((1, 2, 3, 5), expected):
        if bonus is None:
            assert dist > ranges[2]
            continue
        assert close_bonus(F, opts, 0, dist) == bonus
        S = fresh_state(F)
        place_sides(F, S, dist)
        band = 0 if dist <= ranges[0] else 1 if dist <= ranges[1] else 2
        assert shot_bonus(F, S, opts, 0, 0) == bonus - 2 * band
    assert default_options()[O.O_SHORT_WEAPON_BANDS] == O.SHORT_BANDS_LITERAL


@pytest.mark.parametrize("dist,bands,need", [(3, "literal", 4), (3, "single_shift", 5), (2, "literal", 2),
                                             (2, "single_shift", 3), (1, "single_shift", 2), (5, "literal", 6)])
def test_b9_10_exact_shot_of_a_range_8_crossbow(dist, bands, need):
    """B-9.10, the exact single shot of the crossbowman (ranged 3, aim +1) with its crossbow cut to
    ranges 2/5/8 at a non-reacting militia (difficulty 8): at 3 m (medium band −2) literal point
    blank +2 → 2d6 + 4 ≥ 8, single_shift close +1 → 2d6 + 3 ≥ 8; at 2 m (short band) 2d6 + 6 and
    2d6 + 5; at 1 m both +2 (single_shift shown); at 5 m (medium) no bonus (literal: close ends at
    3 m) → 2d6 + 2 ≥ 8."""
    from conftest import p_2d6_at_least

    from brutal_sim import api

    shooter = api.load_fighter("crossbowman").with_weapon(ranges=[2, 5, 8])
    r = api.attack(shooter, "militia", reaction="none", options={"start_distance": dist, "short_weapon_bands": bands})
    assert r.outcomes[L.OUT_HIT] == pytest.approx(p_2d6_at_least(need), abs=1e-12)


def test_b8_b4_1_shot_difficulty_moving_12_prone_plus_2_and_melee_base():
    from brutal_sim.rulesets.brutal.kernel import base_difficulty, shot_difficulty

    F = _shooter_pair()
    S = fresh_state(F)
    assert shot_difficulty(S, 1) == 8
    S[1, L.S_PRONE] = 1
    assert shot_difficulty(S, 1) == 10 and base_difficulty(S, 1) == 8  # prone: ranged only
    S[1, L.S_MOVING] = 1
    assert shot_difficulty(S, 1) == 14 and base_difficulty(S, 1) == 12  # a runner, also in melee


def test_b8_medium_and_long_range_cut_damage_and_penetration():
    """Band 1: damage −1, penetration 3 → 2; band 2 on penetration 1: 0 (not below). A marker of 2
    pierces toughness 0 at threshold 4 with penetration 2, not with 1."""
    F = _shooter_pair()
    S = fresh_state(F)
    o = default_options()
    assert final_damage(F, S, o, 0, 1, L.SLOT_MAIN, L.ZONE_TORSO, 8, 0, 0, 0, 1) == (7, L.DT_CUTTING)
    assert final_damage(F, S, o, 0, 1, L.SLOT_MAIN, L.ZONE_TORSO, 1, 0, 0, 0, 2) == (0, L.DT_CUTTING)
    F[1, L.P_ARMOUR + 2 * L.ZONE_TORSO] = 1  # protection 1
    assert final_damage(F, S, o, 0, 1, L.SLOT_MAIN, L.ZONE_TORSO, 8, 0, 2, 0, 1) == (6, L.DT_CUTTING)
    assert final_damage(F, S, o, 0, 1, L.SLOT_MAIN, L.ZONE_TORSO, 8, 0, 2, 0, 2) == (5, L.DT_BLUNT)


def test_b8_shots_have_no_extra_success_floor():
    """B-4.11: extra successes floor the die of a melee blow, not of a shot (3 extra: the d10 shows
    at least 3 in melee, any face on a shot)."""
    F = _shooter_pair()
    F[1, L.P_DL0:L.P_DL0 + 4] = (100, 101, 102, 103)  # nothing but light damage
    lows = {band: min(_hit_damage(F, band, i) for i in range(300)) for band in (-1, 0)}
    assert lows[-1] == 3 and lows[0] == 1


def _hit_damage(F, band, i):
    from brutal_sim.rulesets.brutal.kernel import hit

    S = fresh_state(F)
    cnt = counters()
    hit(F, S, default_options(), np.zeros(20, np.int8), rng(5, i), cnt, 0, 1, L.SLOT_MAIN, 3, False,
         L.ZONE_TORSO, 0, band)
    return cnt[L.C_DAMAGE + 1]


def test_b8_dodging_a_shot_raises_the_difficulty_exactly():
    """Crossbowman (ranged 3) aims (+1) and shoots at 20 m (short, no close bonus) at the militia
    (dodge 1): a hit needs 2d6 + 4 ≥ 8; the dodge 2d6 + 1 ≥ 10 raises it to 8 + 2 + extra."""
    from brutal_sim import api

    pairs = list(itertools.product(range(1, 7), repeat=2))
    hit = dodged = 0
    for a1, a2 in pairs:
        att = a1 + a2 + 4
        if att < 8:
            continue
        for d1, d2 in pairs:
            dodge = d1 + d2 + 1
            diff = 8 + 2 + dodge - 10 if dodge >= 10 else 8
            hit += att >= diff
            dodged += att < diff
    r = api.attack("crossbowman", "militia", options={"start_distance": 20}).to_dict()
    assert r["p_hit"] == pytest.approx(hit / 1296, abs=1e-12)
    assert r["p_dodged"] == pytest.approx(dodged / 1296, abs=1e-12)
    assert r["p_parried"] == 0 and r["p_hard_block"] == 0


def test_b8_firing_in_melee_minus_4_two_handed_parryable_bare_hands_unhurt():
    """Engaged: the melee check, −4 with a two-handed weapon (−2 one-handed); a bare-handed parry
    meets the weapon, not the bolt: the parrying arm is not hit. The shot empties the weapon."""
    from brutal_sim.rulesets.brutal.kernel import attack

    F = _shooter_pair()
    S = fresh_state(F)
    assert attack_bonus(F, S, 0, L.SLOT_MAIN, 0) == -4
    F1 = _shooter_pair(two_handed=0)
    assert attack_bonus(F1, fresh_state(F1), 0, L.SLOT_MAIN, 0) == -2
    F[1, L.P_MELEE] = 20
    F[1, L.P_REACTION] = L.R_PARRY
    cnt = counters()
    attack(F, S, default_options(attack_needs_base_difficulty="false"), np.zeros(20, np.int8), rng(), cnt, 0,
            1, L.SLOT_MAIN, 0, -1, L.K_NORMAL)
    assert cnt[L.C_ATTACKS + L.OUT_PARRIED] == 1 and cnt[L.C_WOUNDS + 24:L.C_WOUNDS + 48].sum() == 0
    assert S[0, L.S_RELOAD] == 2


def test_b8_reload_takes_actions_and_provokes_only_when_engaged():
    from brutal_sim.rulesets.brutal.kernel import shooter_actions

    F = _shooter_pair()
    F[1, L.P_MELEE] = 20
    for dist, opportunity in ((0, 1), (20, 0)):
        S = fresh_state(F)
        place_sides(F, S, dist)
        S[0, L.S_RELOAD] = 2
        S[1, L.S_OA_LEFT] = 1
        cnt = counters()
        left = shooter_actions(F, S, default_options(), np.zeros(20, np.int8), rng(), cnt, 0, 2)
        assert left == 0 and S[0, L.S_RELOAD] == 0  # two actions spanning, no shot
        assert cnt[L.C_ATTACKS + 5:L.C_ATTACKS + 10].sum() == opportunity
        assert cnt[L.C_ATTACKS:L.C_ATTACKS + 5].sum() == 0


@pytest.mark.parametrize("dist,run,after,acts,moving", [(4, 1, 0, 1, 0), (9, 1, 0, 0, 0), (10, 1, 0, 0, 0),
                                                        (30, 1, 10, 0, 1), (30, 0, 20, 0, 0), (11, 1, 0, 0, 1)])
def test_b8_closing_in_moves_or_runs(dist, run, after, acts, moving):
    """Movement 5: one move engages at 4 m and leaves an action; two moves reach 10 m; beyond, a
    run covers 20 m (a moving target without reactions) unless the tactic walks (``advance``)."""
    from brutal_sim.rulesets.brutal.kernel import close_in

    F = _shooter_pair()
    F[1, L.P_T_RUN] = run
    S = fresh_state(F)
    place_sides(F, S, dist)
    assert close_in(F, S, default_options(), 1, 2) == acts
    assert foe_distance(S, 0) == foe_distance(S, 1) == after
    assert S[1, L.S_MOVING] == moving and S[1, L.S_NO_REACT] == moving


def test_b7_4_heavy_wound_forbids_running():
    from brutal_sim.rulesets.brutal.kernel import close_in

    F = _shooter_pair()
    F[1, L.P_TOUGHNESS] = ALWAYS_PASS
    S = fresh_state(F)
    take_wound(F, S, default_options(), rng(), counters(), 1, 8, L.DT_BLUNT, L.ZONE_LLEG)
    S[1, L.S_PRONE] = 0
    place_sides(F, S, 30)
    assert close_in(F, S, default_options(), 1, 2) == 0 and foe_distance(S, 1) == 20 and S[1, L.S_MOVING] == 0


def test_b8_kite_steps_back_from_melee_with_an_opportunity_attack_then_shoots():
    from brutal_sim.rulesets.brutal.kernel import shooter_actions

    F = _shooter_pair()
    F[0, L.P_T_KITE] = 1
    S = fresh_state(F)
    S[1, L.S_OA_LEFT] = 1
    cnt = counters()
    shooter_actions(F, S, default_options(), np.zeros(20, np.int8), rng(), cnt, 0, 2)
    assert foe_distance(S, 0) == 5  # one move away
    assert cnt[L.C_ATTACKS + 5:L.C_ATTACKS + 10].sum() == 1  # b's opportunity attack (B-3.8)
    assert cnt[L.C_ATTACKS:L.C_ATTACKS + 5].sum() == 1 and S[0, L.S_RELOAD] == 2  # then a shot


def test_b8_data_errors_name_the_field():
    from brutal_sim import api
    from brutal_sim.core.errors import DataError

    with pytest.raises(DataError, match="ranges"):
        api.load_fighter("militia").with_weapon(damage="d8", ranges=[30, 20, 10])
    with pytest.raises(DataError, match="reload"):
        api.load_fighter("militia").with_weapon(reload=2)
    with pytest.raises(DataError, match="ranged weapon"):
        api.load_fighter("swordsman").vary(off_hand="crossbow", main_hand="dagger")
    from brutal_sim.core.data import validate
    from brutal_sim.rulesets.brutal.model import Tactic

    with pytest.raises(DataError, match="ranged: a shot is a standard action"):
        validate(Tactic, {"name": "volley", "ranged": True, "full_action": True}, "tactics.toml", "volley")


def test_b8_shoot_until_engaged_drops_the_ranged_weapon_and_keeps_it_down():
    """Tactic ``shoot_until_engaged`` (drop_ranged): engaged, the crossbow is dropped (a free
    action) and the fighter strikes with fists in the same turn; it is not picked up in melee."""
    from brutal_sim.rulesets.brutal.kernel import needs_ready

    F = _shooter_pair()
    set_tactic(F, 0, "shoot_until_engaged")
    F[0, L.P_MELEE] = 20
    S = fresh_state(F)
    cnt = counters()
    turn(F, S, default_options(), np.zeros(20, np.int8), rng(), cnt, 0)
    assert S[0, L.S_HELD_MAIN] == 0 and S[0, L.S_RELOAD] == 0
    assert cnt[L.C_ATTACKS + L.OUT_HIT] == 1 and cnt[L.C_DAMAGE + 1] <= 4  # a fist (d4 + 0)
    assert not needs_ready(F, S, 0, L.SLOT_MAIN)
    place_sides(F, S, 10)
    assert needs_ready(F, S, 0, L.SLOT_MAIN)  # apart again, it would pick it up
