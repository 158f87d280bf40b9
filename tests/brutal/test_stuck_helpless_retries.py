"""Stuck weapons (B-9.7), finishing the helpless in group fights (B-9.8: B-4.13, B-6.7) and the
readings of a second break (B-4.4), of being felled again while standing up (B-3.11), of a weapon
knocked away again or a fighter felled while readying (B-3.10) and of reactions in the own turn
(B-2.7): kernel steps on scripted dice (``scripted``, see ``test_rules_scripted``), hand-computed;
and the options' effect on whole fights.
"""

from __future__ import annotations

import numpy as np
import pytest
from brutal_drivers import run_fights, run_paired
from conftest import blank_fighters, counters, default_options, fresh_state, give_weapon, set_tactic
from test_groups_naive import blank_group
from test_rules_scripted import HUGE_LEVELS, scripted

from brutal_sim.rulesets.brutal import layout as L
from brutal_sim.rulesets.brutal.catalog import Catalog, load_rules
from brutal_sim.rulesets.brutal.compile import compile_pair, compile_sides
from brutal_sim.rulesets.brutal.kernel import (
    attack,
    attack_slot,
    base_difficulty,
    break_weapon,
    choose_foe,
    parry_slot,
    record,
    take_wound,
    turn,
)
from brutal_sim.rulesets.brutal.options import O_ROUND_CAP, compile_options

ZT_HEAD = np.zeros(20, dtype=np.int8)
ZT_LEG = np.full(20, 4, dtype=np.int8)  # every roll: the left leg
ZT_RARM = np.full(20, 3, dtype=np.int8)  # every roll: the right arm


def _damage_to_b(cnt) -> int:
    return int(cnt[L.C_DAMAGE + 1])


# -- B-9.7 stuck weapon ------------------------------------------------------------------------------


@pytest.mark.parametrize("mode,dtype,stuck", [
    ("never", L.DT_CUTTING, False),
    ("cutting_and_piercing", L.DT_CUTTING, True),
    ("cutting_and_piercing", L.DT_BLUNT, False),
    ("always", L.DT_BLUNT, True),
])
def test_b9_7_a_voided_attack_in_cramped_space_leaves_the_weapon_stuck_by_option(mode, dtype, stuck):
    """B-9.7, B-7.9: a's attack with a sword (cutting) or a club (blunt) rolls 1+1 in cramped space:
    no attack (a miss, nothing else drawn); the weapon is stuck for ``always``, for
    ``cutting_and_piercing`` only if it cuts, never for ``never``. A stuck main weapon is out of use:
    a attacks and parries bare-handed (fists, slot 2)."""
    F = blank_fighters()
    give_weapon(F, 0, L.SLOT_MAIN, 1, 8, dtype=dtype, parry=1)
    S = fresh_state(F)
    cnt = counters()
    attack(F, S, default_options(cramped_space="true", stuck_weapon=mode), ZT_HEAD, scripted((1, 1)), cnt,
           0, 1, L.SLOT_MAIN, 0, -1, L.K_NORMAL)
    assert cnt[L.C_ATTACKS + L.OUT_MISS] == 1 and cnt[L.C_ATTACKS:L.C_ATTACKS + 5].sum() == 1
    assert S[0, L.S_HELD_MAIN] == (L.HELD_STUCK if stuck else 1)
    assert (attack_slot(F, S, 0), parry_slot(F, S, 0)) == ((L.SLOT_FISTS,) * 2 if stuck else (L.SLOT_MAIN,) * 2)


def test_b9_7_a_stuck_weapon_stays_stuck_when_the_arm_is_wounded():
    """B-9.7, B-7.1: an arm wound drops what the hand holds, but a stuck weapon stays stuck (it is
    not lying on the ground to be readied)."""
    F = blank_fighters()
    give_weapon(F, 1, L.SLOT_MAIN, 1, 8)
    S = fresh_state(F)
    S[1, L.S_HELD_MAIN] = L.HELD_STUCK
    # a light wound (5) on the right arm, toughness 2 < 8: the effect applies
    take_wound(F, S, default_options(), scripted((1, 1)), counters(), 1, 5, L.DT_CUTTING, L.ZONE_RARM)
    assert S[1, L.S_HELD_MAIN] == L.HELD_STUCK


@pytest.mark.parametrize("dice,freed", [((5, 5), True), ((4, 5), False)])
def test_b9_7_freeing_a_stuck_weapon_takes_an_action_and_athletics_vs_10(dice, freed):
    """B-9.7: a's turn with its sword stuck: the first standard action tries to free it, 2d6 +
    athletics (0) against 10: 5+5 frees it, 4+5 does not. The second action is the single attack
    either way (with the sword, or bare-handed), on b without a reaction, 6+5 = 11 against 8: a hit
    with 3 extra successes; b's huge damage levels make it light damage with no further dice. The
    damage: sword d8 showing 5 → 5; fists d4 showing 3 → 3."""
    F = blank_fighters()
    give_weapon(F, 0, L.SLOT_MAIN, 1, 8)
    F[1, L.P_REACTION] = L.R_NONE
    F[1, L.P_DL0:L.P_DL0 + 4] = HUGE_LEVELS
    S = fresh_state(F)
    S[0, L.S_HELD_MAIN] = L.HELD_STUCK
    cnt = counters()
    die = ("d", 8, 5) if freed else ("d", 4, 3)
    turn(F, S, default_options(), ZT_HEAD, scripted(dice, (6, 5), ("d", 20, 1), die), cnt, 0)
    assert S[0, L.S_HELD_MAIN] == (1 if freed else L.HELD_STUCK)
    assert cnt[L.C_ATTACKS + L.OUT_HIT] == 1
    assert _damage_to_b(cnt) == (5 if freed else 3)


# -- B-9.8: B-4.13 helpless targets, B-6.7 coma ----------------------------------------------------------


def _out(S, i, cause=L.CAUSE_KNOCKED_OUT):
    S[i, L.S_OUT] = cause + 1


def test_b4_1_and_b9_8_base_difficulty_of_a_helpless_target_is_4():
    """B-4.1: 8 for an ordinary target, 12 moving, 4 helpless (out of the fight, B-9.8)."""
    F = blank_fighters()
    S = fresh_state(F)
    assert base_difficulty(S, 1) == 8
    S[1, L.S_MOVING] = 1
    assert base_difficulty(S, 1) == 12
    _out(S, 1)
    assert base_difficulty(S, 1) == 4


@pytest.mark.parametrize("helpless,dice,draws,damage", [
    # standing: 2+3 = 5 < 8 misses
    (False, (2, 3), [], 0),
    # helpless: 5 ≥ 4, 1 extra: ordinary → confident, d8 showing 1 counts 4 (B-4.11 half the die)
    (True, (2, 3), [("d", 8, 1)], 4),
    # standing: 4+4 = 8, 0 extra: d8 showing 1 → 1
    (False, (4, 4), [("d", 8, 1)], 1),
    # helpless: 8 − 4 = 4 extra: confident → critical (B-4.12): d8 at 8 + the critical d6 (3) = 11
    (True, (4, 4), [("d", 6, 3)], 11),
])
def test_b4_13_hits_on_a_helpless_target_are_upgraded(helpless, dice, draws, damage):
    """B-4.13 (B-9.8): a (melee 0, sword d8) attacks b, who cannot react; b helpless: difficulty 4,
    an ordinary hit (0–3 extra) counts as confident, a confident one (4+) as critical. The zone die
    (head) comes first; a wound on a fighter out of the fight has no effects (no toughness check)."""
    F = blank_fighters()
    give_weapon(F, 0, L.SLOT_MAIN, 1, 8)
    F[1, L.P_DL0:L.P_DL0 + 4] = HUGE_LEVELS
    F[1, L.P_REACTION] = L.R_NONE
    S = fresh_state(F)
    if helpless:
        _out(S, 1)
    cnt = counters()
    zone = [("d", 20, 1)] if draws else []
    attack(F, S, default_options(extra_successes_floor_damage="false"), ZT_HEAD,
           scripted(dice, *zone, *draws), cnt, 0, 1, L.SLOT_MAIN, 0, -1, L.K_NORMAL)
    assert _damage_to_b(cnt) == damage


def test_b6_7_wounds_with_no_cell_left_coma_then_death():
    """B-6.7: b (7 cells) with ТР, КР and И filled (out, B-6.6): a heavy wound finds no cell — a
    coma; the next wound (a critical) kills. A light wound still finds a plain cell (no coma)."""
    F = blank_fighters()
    S = fresh_state(F)
    S[1, L.S_TRACK] = 0b1110000
    _out(S, 1, L.CAUSE_TRACK_FULL)
    record(F, S, 1, L.LVL_LIGHT)
    assert (S[1, L.S_TRACK], S[1, L.S_COMA], S[1, L.S_DEAD]) == (0b1110001, 0, 0)
    record(F, S, 1, L.LVL_HEAVY)
    assert (S[1, L.S_COMA], S[1, L.S_DEAD]) == (1, 0)
    record(F, S, 1, L.LVL_CRITICAL)
    assert (S[1, L.S_COMA], S[1, L.S_DEAD]) == (1, 1)


@pytest.mark.parametrize("coma,dead", [(0, 0), (1, 1)])
def test_b6_7_a_mortal_wound_in_a_coma_kills_even_after_the_toughness_check(coma, dead):
    """B-5.4 and B-6.7: a mortal wound (16) on an unconscious b: toughness 6+6 ≥ 12 survives it —
    unless b is in a coma, where any wound kills."""
    F = blank_fighters()
    S = fresh_state(F)
    _out(S, 1)
    S[1, L.S_COMA] = coma
    take_wound(F, S, default_options(), scripted((6, 6)), counters(), 1, 16, L.DT_CUTTING, L.ZONE_TORSO)
    assert S[1, L.S_DEAD] == dead


def test_b9_8_choice_of_foe_with_finish_helpless():
    """B-9.8 (docs/groups.md): a (row 0) against b1, b2 (rows 1, 2) in a corridor (attack limit 1).
    Without ``finish_helpless`` a whose foe b1 lies unconscious turns to b2, if b2 has room, else
    has no foe. With it a keeps the helpless b1; with b1 dead (or fled) and b2's place taken by
    another a, no foe; a dead b1 is never chosen."""
    F = blank_group(2, 2)[[0, 2, 3, 1]]  # rows: a0, b0, b1, a1
    F[:, L.P_SIDE] = (0, 1, 1, 0)
    F[:, L.P_RANK] = (0, 0, 1, 1)
    for finish, b1_state, b2_taken, expected in [
        ("off", "knocked_out", False, 2), ("off", "knocked_out", True, -1),
        ("on", "knocked_out", False, 1), ("on", "knocked_out", True, 1),
        ("on", "dead", False, 2), ("on", "fled", True, -1), ("on", "dead", True, -1),
    ]:
        o = default_options(attack_limit="corridor", finish_helpless=finish)
        S = fresh_state(F)
        S[0, L.S_FOE], S[1, L.S_ENGAGERS] = 1, 1
        _out(S, 1, L.CAUSE_FLED if b1_state == "fled" else L.CAUSE_KNOCKED_OUT)
        S[1, L.S_DEAD] = int(b1_state == "dead")
        if b2_taken:
            S[3, L.S_FOE], S[2, L.S_ENGAGERS] = 2, 1
        choose_foe(F, S, o, np.zeros(4, dtype=np.uint64), 0)
        assert S[0, L.S_FOE] == expected, (finish, b1_state, b2_taken)
    # no standing enemy with room and no foe: the nearest helpless one (rank 0, row 1)
    o = default_options(attack_limit="corridor", finish_helpless="on")
    S = fresh_state(F)
    _out(S, 1)
    S[3, L.S_FOE], S[2, L.S_ENGAGERS] = 2, 1
    choose_foe(F, S, o, np.zeros(4, dtype=np.uint64), 0)
    assert (S[0, L.S_FOE], S[1, L.S_ENGAGERS]) == (1, 1)


@pytest.mark.parametrize("finish,cause,attacks", [
    ("off", L.CAUSE_KNOCKED_OUT, 0), ("on", L.CAUSE_KNOCKED_OUT, 1), ("on", L.CAUSE_FLED, 0),
])
def test_b9_8_a_foe_out_of_the_fight_is_attacked_only_when_finishing(finish, cause, attacks):
    """B-9.8 (docs/groups.md): a's foe b0 went out (as during a's turn, by a blow of its own
    opportunity attack) while b1 fights on. Without ``finish_helpless`` a makes no attack; with it
    a attacks the unconscious b0 (2d6 1+2 = 3 < 4: a miss), but never one that fled."""
    F = blank_group(1, 2)
    S = fresh_state(F)
    S[0, L.S_FOE], S[1, L.S_ENGAGERS] = 1, 1
    _out(S, 1, cause)
    S[0, L.S_SIDE_IN], S[1, L.S_SIDE_IN] = 1, 1
    cnt = counters()
    turn(F, S, default_options(finish_helpless=finish), ZT_HEAD, scripted((1, 2)), cnt, 0)
    assert cnt[L.C_ATTACKS:L.C_ATTACKS + 5].sum() == attacks
    assert cnt[L.C_ATTACKS + L.OUT_MISS] == attacks


def _group_dead(options: dict, n: int = 400):
    """Deaths per fighter row over ``n`` fights: swordsman, militia, brute against knight, militia."""
    cat = Catalog.bundled()
    F = compile_sides([cat.fighter(x) for x in ("swordsman", "militia", "brute")],
                      [cat.fighter(x) for x in ("knight", "militia")])
    rules, (zt,) = load_rules(None, options)
    opts = compile_options(rules)
    k = L.n_fight_counters(int(opts[O_ROUND_CAP]), len(F))
    row = run_fights(F, opts, zt, np.uint64(7), np.int64(0), np.int64(n), 1, k).sum(axis=0)
    g = L.n_counters(int(opts[O_ROUND_CAP]))
    return [int(row[g + L.GB_FIGHTERS + j * L.GB_PER_FIGHTER + L.NCAUSES]) for j in range(len(F))]


def test_b9_8_finishing_the_helpless_kills_the_first_of_a_side_to_fall():
    """B-9.8, B-4.13, B-6.7 in whole fights (400 on one seed): side b's militia (row 4) falls first
    in most fights. Without ``finish_helpless`` only a failed B-5.4 check kills (7 deaths); with it
    the side a fighters that felled it finish it: dead in 373 fights."""
    off = _group_dead({})
    on = _group_dead({"finish_helpless": "on"})
    assert off[4] < 20 and on[4] > 300
    assert sum(on) > sum(off) + 300


# -- B-4.4 second break -------------------------------------------------------------------------------


@pytest.mark.parametrize("broken_weapon,second,first_state,after", [
    ("degraded", "destroyed", 0, L.BROKEN_DEGRADED),
    ("degraded", "destroyed", L.BROKEN_DEGRADED, L.BROKEN_DESTROYED),
    ("degraded", "degraded_again", 0, L.BROKEN_DEGRADED),
    ("degraded", "degraded_again", L.BROKEN_DEGRADED, L.BROKEN_DEGRADED),
    ("destroyed", "degraded_again", 0, L.BROKEN_DESTROYED),
])
def test_b4_4_second_break_destroys_or_leaves_the_weapon_degraded(broken_weapon, second, first_state, after):
    """B-4.4: a break degrades an intact weapon (or destroys it, ``broken_weapon=destroyed``); a
    degraded weapon breaking again is destroyed (``second_break=destroyed``) or stays degraded
    (``degraded_again``). Every break is counted at the owner's side."""
    F = blank_fighters()
    give_weapon(F, 1, L.SLOT_MAIN, 1, 8)
    S = fresh_state(F)
    S[1, L.S_BROKEN_MAIN] = first_state
    cnt = counters()
    break_weapon(F, S, default_options(broken_weapon=broken_weapon, second_break=second), cnt, 1, L.SLOT_MAIN)
    assert S[1, L.S_BROKEN_MAIN] == after and cnt[L.C_BREAKS + 1] == 1


# -- B-3.11 felled again while standing up, B-3.10 knocked away again while readied --------------------


def _opportunist(F):
    """b: a d4+3 weapon, two opportunity attacks; a: no reaction, toughness 0, total defence (with
    one action left it does nothing)."""
    give_weapon(F, 1, L.SLOT_MAIN, 1, 4, bonus=3)
    F[1, L.P_OA_PER_ROUND] = 2
    F[0, L.P_REACTION] = L.R_NONE
    set_tactic(F, 0, "total_defence")


# b's opportunity attack 6+5 − 2 = 9 ≥ 8: a hit with 1 extra; the zone die; d4 showing 1 (+3) = 4, a
# light wound; a's toughness 1+1 < 8: the effect. Then b's second opportunity attack: 1+2 − 2 misses.
OA_HIT_THEN_MISS = ((6, 5), ("d", 20, 1), ("d", 4, 1), (1, 1), (1, 2))


@pytest.mark.parametrize("option,prone,b_attacks", [("may_retry", 0, 2), ("stays_down", 1, 1), ("stands", 0, 1)])
def test_b3_11_felled_again_while_standing_up(option, prone, b_attacks):
    """B-3.11, B-3.8: prone a stands up; b's opportunity attack wounds a's leg and fells it again.
    ``refelled=may_retry``: a stands up again with its second action, b's second opportunity attack
    misses, a is up. ``stays_down``: a stays prone for the turn (b attacked once). ``stands``: the
    attack resolves first and the stand-up still completes: a is up, b attacked once."""
    F = blank_fighters()
    _opportunist(F)
    S = fresh_state(F)
    S[0, L.S_PRONE] = 1
    S[1, L.S_OA_LEFT] = 2
    cnt = counters()
    turn(F, S, default_options(refelled=option), ZT_LEG, scripted(*OA_HIT_THEN_MISS), cnt, 0)
    assert S[0, L.S_PRONE] == prone
    assert cnt[L.C_ATTACKS + 5:L.C_ATTACKS + 10].sum() == b_attacks


@pytest.mark.parametrize("option,held,b_attacks", [("stays_down", 0, 1), ("may_retry", 1, 2),
                                                    ("ready_completes", 1, 1)])
def test_b3_10_knocked_away_again_while_readied(option, held, b_attacks):
    """B-3.10, B-3.8: a picks up its dropped sword; b's opportunity attack wounds a's right arm and
    knocks it away again. ``knocked_away_again=stays_down``: it stays on the ground this turn.
    ``may_retry``: a readies it again with its second action (b's second opportunity attack
    misses): in hand. ``ready_completes``: the attack resolves before the Ready takes effect (a
    holds nothing yet) and the Ready still puts the sword in hand: in hand, b attacked once."""
    F = blank_fighters()
    give_weapon(F, 0, L.SLOT_MAIN, 1, 8)
    _opportunist(F)
    S = fresh_state(F)
    S[0, L.S_HELD_MAIN] = 0
    S[1, L.S_OA_LEFT] = 2
    cnt = counters()
    turn(F, S, default_options(knocked_away_again=option), ZT_RARM, scripted(*OA_HIT_THEN_MISS), cnt, 0)
    assert S[0, L.S_HELD_MAIN] == held
    assert cnt[L.C_ATTACKS + 5:L.C_ATTACKS + 10].sum() == b_attacks


@pytest.mark.parametrize("option,oa_per_round,prone,b_attacks", [
    ("fight_prone", 2, 1, 1),
    ("stand_up", 2, 0, 2),
    ("stand_up", 1, 0, 1),
])
def test_b3_10_felled_while_readying(option, oa_per_round, prone, b_attacks):
    """B-3.10, B-3.8, B-3.11: standing a picks up its dropped sword; b's opportunity attack wounds
    a's leg and knocks it down; the sword is in hand. ``felled_while_readying=fight_prone``: a goes
    on prone with its second action (total defence with one action: nothing) and is still prone
    for b's turn. ``stand_up``: with its second action a stands up first; that provokes b's second
    opportunity attack (it misses) when b has one left; with one a round b has none: a stands up
    unopposed."""
    F = blank_fighters()
    give_weapon(F, 0, L.SLOT_MAIN, 1, 8)
    _opportunist(F)
    F[1, L.P_OA_PER_ROUND] = oa_per_round
    S = fresh_state(F)
    S[0, L.S_HELD_MAIN] = 0
    S[1, L.S_OA_LEFT] = oa_per_round
    cnt = counters()
    turn(F, S, default_options(felled_while_readying=option), ZT_LEG, scripted(*OA_HIT_THEN_MISS), cnt, 0)
    assert S[0, L.S_HELD_MAIN] == 1
    assert S[0, L.S_PRONE] == prone
    assert cnt[L.C_ATTACKS + 5:L.C_ATTACKS + 10].sum() == b_attacks
    assert S[1, L.S_OA_LEFT] == oa_per_round - b_attacks


@pytest.mark.parametrize("option,outcome", [("yes", L.OUT_DODGED), ("no", L.OUT_HIT)])
def test_b2_7_reactions_in_the_own_turn(option, outcome):
    """B-2.7, B-3.8, B-3.10: a (a dodger, dodge 0) picks up its dropped sword in its own turn; b's
    opportunity attack: 6+5 − 2 = 9 ≥ 8. ``react_in_own_turn=yes``: a dodges, 6+6 = 12 > 9, dodged.
    ``no`` (reactions happen outside the own turn): no dodge, 9 ≥ 8 hits (every blow is light
    damage here, no wound effects)."""
    F = blank_fighters()
    give_weapon(F, 0, L.SLOT_MAIN, 1, 8)
    _opportunist(F)
    F[0, L.P_REACTION] = L.R_DODGE
    F[0, L.P_DL0:L.P_DL0 + 4] = HUGE_LEVELS
    S = fresh_state(F)
    S[0, L.S_HELD_MAIN] = 0
    S[1, L.S_OA_LEFT] = 1
    cnt = counters()
    turn(F, S, default_options(react_in_own_turn=option), ZT_LEG, scripted((6, 5), (6, 6)), cnt, 0)
    b_outcomes = cnt[L.C_ATTACKS + 5:L.C_ATTACKS + 10]
    assert b_outcomes[outcome] == 1 and b_outcomes.sum() == 1


def test_b2_7_outside_the_own_turn_a_fighter_reacts_either_way():
    """B-2.7: ``react_in_own_turn=no`` takes only the reactions inside the own turn: b's attack on a
    in b's turn (a not in its own turn), 6+5 = 11, is dodged by a's 6+6 = 12 under both readings."""
    F = blank_fighters()
    F[0, L.P_REACTION] = L.R_DODGE
    for option in ("yes", "no"):
        S = fresh_state(F)
        cnt = counters()
        attack(F, S, default_options(react_in_own_turn=option), ZT_LEG, scripted((6, 5), (6, 6)), cnt, 1, 0,
               L.SLOT_FISTS, 0, -1, L.K_NORMAL)
        assert cnt[L.C_ATTACKS + 5 + L.OUT_DODGED] == 1, option


# -- whole duels: the options change the numbers ----------------------------------------------------------


def _paired_duels(a: str, b: str, options: tuple[dict, dict], n: int) -> np.ndarray:
    """``joint[x, y]``: duels (one seed, common random numbers) with outcome x under the first
    options and y under the second (0 a won, 1 b won, 2 draw)."""
    cat = Catalog.bundled()
    rows = []
    for o in options:
        rules, (zt,) = load_rules(None, o)
        rows.append(compile_options(rules))
    optss = np.stack(rows)
    F = compile_pair(cat.fighter(a), cat.fighter(b))
    k = L.n_counters(int(optss[0, O_ROUND_CAP]))
    _, joint = run_paired(np.stack([F, F]), optss, zt, np.uint64(11), np.int64(0), np.int64(n), 2, k)
    return joint.sum(axis=0)[0]


def test_b9_7_stuck_weapons_cost_the_armed_fighter_wins():
    """B-9.7: brute (great axe) against brawler (fists, never stuck) in cramped space, 40,000 duels
    on common random numbers, ``stuck_weapon`` never → always. The duels differ only after a voided
    attack of the brute; those that change their winner turn mostly against the brute: the flips
    to the brawler exceed the flips back by more than 4 standard errors of the paired difference."""
    cramped = {"cramped_space": "true"}
    joint = _paired_duels("brute", "brawler", (cramped, {**cramped, "stuck_weapon": "always"}), 40_000)
    lost, won = int(joint[0, 1]), int(joint[1, 0])
    assert lost - won > 4 * (lost + won) ** 0.5, (lost, won)
