"""Rules checked with scripted dice: checks, opposed checks, the round and the turn, the base
difficulty, damage types, the wound track, unarmed fighting (rule ids in each test name/doc).

A kernel step draws its dice from the duel's random state. To script them, ``scripted`` picks the
first duel index whose state draws the wanted faces in the wanted order (a 2d6 is one draw of a
uniform 1…36, docs/engine.md), so each scenario below is played on exactly known dice and its
outcome is computed by hand.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from conftest import blank_fighters, counters, default_options, fresh_state, give_weapon, set_tactic
from numba import njit

from brutal_sim.rulesets.brutal import layout as L
from brutal_sim.rulesets.brutal.compile import compile_fighter, tactic_row
from brutal_sim.rulesets.brutal.kernel import (
    attack,
    fear,
    feint,
    fight,
    reaction_modifier,
    record,
    take_wound,
    turn,
    wound_penalty,
)
from brutal_sim.rulesets.brutal.model import Tactic
from brutal_sim.toolbox.rng import roll_2d6, roll_die, seed_duel

ZT = np.zeros(20, dtype=np.int8)  # zone table (only drawn from where no zone is aimed)
HUGE_LEVELS = (100, 101, 102, 103)  # every blow is light damage: no wound effects, no further dice


@njit(cache=True)
def _first_index(seed, sides, faces):
    """The first duel index of run ``seed`` whose state's first draws are ``faces`` of dice of
    ``sides`` (−1 if none in the first 10⁷)."""
    st = np.empty(4, dtype=np.uint64)
    for i in range(10_000_000):
        seed_duel(st, np.uint64(seed), i)
        ok = True
        for k in range(sides.shape[0]):
            if roll_die(st, sides[k]) != faces[k]:
                ok = False
                break
        if ok:
            return i
    return -1


def scripted(*draws, seed: int = 0) -> np.ndarray:
    """A random state whose next draws are ``draws``: ``(x, y)`` a 2d6 showing x and y, or
    ``("d", sides, face)`` one die."""
    sides, faces = [], []
    for d in draws:
        if d[0] == "d":
            sides.append(d[1])
            faces.append(d[2])
        else:
            sides.append(36)
            faces.append((d[0] - 1) * 6 + d[1])
    i = _first_index(seed, np.array(sides, dtype=np.int64), np.array(faces, dtype=np.int64))
    assert i >= 0
    st = np.empty(4, dtype=np.uint64)
    seed_duel(st, np.uint64(seed), np.int64(i))
    return st


def test_scripted_states_draw_the_wanted_faces():
    st = scripted((6, 6), ("d", 12, 7), (3, 5))
    assert roll_2d6(st) == (6, 6) and roll_die(st, 12) == 7 and roll_2d6(st) == (3, 5)


def outcomes(cnt, side=0):
    """The attack outcomes of ``side`` as a dict of the non-zero counts."""
    got = cnt[L.C_ATTACKS + 5 * side:L.C_ATTACKS + 5 * side + 5]
    return {L.OUTCOME_NAMES[k]: int(v) for k, v in enumerate(got) if v}


# -- B-1 checks ---------------------------------------------------------------------------------------

def _check_passes(kind: str, bonus: int, roll: tuple[int, int]) -> bool:
    """Whether one check of ``kind`` with ``bonus`` passes when its 2d6 shows ``roll``."""
    F = blank_fighters()
    st = scripted(roll)
    if kind.startswith("fear"):  # B-7.10: willpower of a (row 0) against b's fear rating
        F[1, L.P_FEAR] = int(kind[-1])
        F[0, L.P_WILLPOWER] = bonus
        S = fresh_state(F)
        fear(F, S, st)
        return S[0, L.S_FRIGHTENED] == 0
    if kind.startswith("attack"):  # B-4.1: a fist against no reaction, ordinary or moving target
        F[0, L.P_MELEE] = bonus
        F[1, L.P_REACTION] = L.R_NONE
        S = fresh_state(F)
        S[1, L.S_MOVING] = int(kind == "attack moving")
        cnt = counters()
        attack(F, S, default_options(), ZT, st, cnt, 0, 1, L.SLOT_FISTS, 0, L.ZONE_TORSO, L.K_NORMAL)
        return cnt[L.C_ATTACKS + L.OUT_HIT] == 1
    # toughness of b against a blunt torso wound's effect (B-7.1–B-7.3) or death (B-5.4)
    damage = {"light wound": 5, "heavy wound": 8, "critical wound": 12, "mortal wound": 16}[kind]
    F[1, L.P_TOUGHNESS] = bonus
    S = fresh_state(F)
    take_wound(F, S, default_options(), st, counters(), 1, damage, L.DT_BLUNT, L.ZONE_TORSO)
    if kind == "light wound":
        return S[1, L.S_STUN] == 0  # failed: stunned
    if kind == "heavy wound":
        return S[1, L.S_DAZE] == 0  # stunned anyway; failed: dazed too
    if kind == "critical wound":
        return S[1, L.S_OUT] == 0  # dazed anyway; failed: unconscious
    return S[1, L.S_DEAD] == 0  # out anyway; failed: dead


@pytest.mark.parametrize("kind,difficulty", [
    ("fear 1", 8), ("fear 2", 10), ("fear 3", 12), ("fear 4", 14), ("fear 5", 16),
    ("light wound", 8), ("heavy wound", 12), ("critical wound", 14), ("mortal wound", 12),
    ("attack", 8), ("attack moving", 12),
])
def test_b1_2_and_b1_3_a_check_succeeds_on_the_edge_of_its_difficulty(kind, difficulty):
    """B-1.2: the difficulties the kernel's checks use — simple 8, ordinary 10, hard 12, very hard
    14, extreme 16 (fear ratings 1–5, B-7.10; wound effects 8/12/14 and death 12, B-7.1–B-7.3,
    B-5.4; an attack 8, a moving target 12, B-4.1). The helpless target's 4 never arises (see the
    ids not modelled in docs/reference.md). B-1.3: a result equal to the difficulty succeeds, one
    below fails. B-1.5: a natural 1+1 or 6+6 changes neither (2 + (d − 2) = d passes;
    12 + (d − 13) = d − 1 fails)."""
    assert _check_passes(kind, difficulty - 2, (1, 1))
    assert not _check_passes(kind, difficulty - 3, (1, 1))
    assert _check_passes(kind, difficulty - 12, (6, 6))
    assert not _check_passes(kind, difficulty - 13, (6, 6))
    assert _check_passes(kind, difficulty - 7, (3, 4)) and not _check_passes(kind, difficulty - 8, (3, 4))


def _blow(*, floor_extra=True, melee=0, react=None, reaction_bonus=0, reaction_roll=(2, 2),
          d12=1):
    """a (d12 cutting, melee ``melee``) attacks b's torso with a 2d6 of 3+4; b reacts with
    ``react`` (a roll of ``reaction_roll`` + ``reaction_bonus``), its weapon die shows ``d12``.
    Returns (outcomes of a, damage b took)."""
    F = blank_fighters()
    give_weapon(F, 0, L.SLOT_MAIN, 1, 12)
    F[0, L.P_MELEE] = melee
    F[1, L.P_DL0:L.P_DL0 + 4] = HUGE_LEVELS
    draws = [(3, 4)]
    if react is None:
        F[1, L.P_REACTION] = L.R_NONE
    else:
        F[1, L.P_REACTION] = react
        if react == L.R_PARRY:
            give_weapon(F, 1, L.SLOT_MAIN, 1, 6)
            F[1, L.P_MELEE] = reaction_bonus
        else:
            F[1, L.P_DODGE] = reaction_bonus
        draws.append(reaction_roll)
    draws.append(("d", 12, d12))
    S = fresh_state(F)
    cnt = counters()
    attack(F, S, default_options(extra_successes_floor_damage=str(floor_extra).lower()), ZT, scripted(*draws), cnt,
           0, 1, L.SLOT_MAIN, 0, L.ZONE_TORSO, L.K_NORMAL)
    return outcomes(cnt), int(cnt[L.C_DAMAGE + 1])


@pytest.mark.parametrize("extra,damage,damage_without_floor", [
    (0, 1, 1), (1, 1, 1), (2, 2, 1), (3, 3, 1), (4, 6, 6), (5, 6, 6), (7, 7, 6), (12, 12, 6), (13, 12, 6)])
def test_b1_3_extra_successes_are_the_result_minus_the_difficulty(extra, damage, damage_without_floor):
    """B-1.3, B-4.6: with no reaction a hit's extra successes are the attack result − 8. The d12
    of the blow shows 1, so the damage is the floor they set (B-4.11): min(extra, 12), and half the
    die (6) from 4 extra on; without ``extra_successes_floor_damage`` only the half-die floor."""
    melee = 1 + extra  # 3 + 4 + melee = 8 + extra
    assert _blow(melee=melee) == ({"hit": 1}, damage)
    assert _blow(melee=melee, floor_extra=False) == ({"hit": 1}, damage_without_floor)


@pytest.mark.parametrize("react,bonus,expected", [
    (L.R_DODGE, 1, ({"hit": 1}, 7)),         # 12 vs 4 + 1: wins by 7 → floor 7
    (L.R_DODGE, 6, ({"hit": 1}, 2)),         # 12 vs 10: by 2
    (L.R_DODGE, 8, ({"hit": 1}, 1)),         # 12 vs 12: a dodge tie hits with 0 extra (B-4.5)
    (L.R_DODGE, 9, ({"dodged": 1}, 0)),      # 12 vs 13: dodged
    (L.R_PARRY, 5, ({"hit": 1}, 3)),         # 12 vs 4 + 5: by 3
    (L.R_PARRY, 8, ({"hard_block": 1}, 0)),  # 12 vs 12: a parry tie is a hard block (B-4.4)
    (L.R_PARRY, 9, ({"parried": 1}, 0)),     # 12 vs 13: parried
])
def test_b1_4_opposed_check_higher_wins_by_the_difference_ties_by_the_rule(react, bonus, expected):
    """B-1.4: attack 3+4 + melee 5 = 12 against a reaction 2+2 + bonus: the higher result wins,
    the winner's extra successes are the difference (seen as the floor of the blow's d12 showing 1,
    B-4.11), a tie goes as the reaction's rule says."""
    assert _blow(melee=5, react=react, reaction_bonus=bonus) == expected


@pytest.mark.parametrize("rolls,wins", [(((3, 4), (2, 2)), True), (((3, 4), (4, 3)), False),
                                        (((1, 1), (1, 2)), False), (((6, 6), (6, 5)), True)])
def test_b1_4_feint_is_an_opposed_melee_check_a_tie_is_no_win(rolls, wins):
    """B-1.4, B-3.6: the feint wins only with the higher result (melee 1 against melee 1)."""
    F = blank_fighters()
    F[:, L.P_MELEE] = 1
    assert feint(F, fresh_state(F), scripted(*rolls), 0) is wins


def test_b1_5_natural_6_6_and_1_1_change_no_success_by_themselves():
    """B-1.5: a 6+6 that falls short of the difficulty is a miss (12 − 5 = 7 < 8), not a critical
    hit; a 6+6 that hits is critical (B-4.12: the d12 counts 12, plus the critical d6 showing 3 =
    15; no weapon die is drawn). A 1+1 that reaches it hits (2 + 6 = 8). A 1+1 parry above the
    attack parries it, a 6+6 attack below the parry is parried."""
    F = blank_fighters()
    give_weapon(F, 0, L.SLOT_MAIN, 1, 12)
    F[1, L.P_DL0:L.P_DL0 + 4] = HUGE_LEVELS
    F[1, L.P_REACTION] = L.R_NONE
    o = default_options()

    def swing(melee, *draws):
        F[0, L.P_MELEE] = melee
        cnt = counters()
        attack(F, fresh_state(F), o, ZT, scripted(*draws), cnt, 0, 1, L.SLOT_MAIN, 0, L.ZONE_TORSO, L.K_NORMAL)
        return outcomes(cnt), int(cnt[L.C_DAMAGE + 1])

    assert swing(-5, (6, 6), ("d", 6, 3)) == ({"miss": 1}, 0)
    assert swing(0, (6, 6), ("d", 6, 3)) == ({"hit": 1}, 15)
    assert swing(6, (1, 1), ("d", 12, 5)) == ({"hit": 1}, 5)
    F[1, L.P_REACTION] = L.R_PARRY
    give_weapon(F, 1, L.SLOT_MAIN, 1, 6)
    F[1, L.P_MELEE] = 10
    assert swing(5, (3, 3), (1, 1)) == ({"parried": 1}, 0)  # 11 < 1 + 1 + 10
    F[1, L.P_MELEE] = 1
    assert swing(-1, (6, 6), (6, 6)) == ({"parried": 1}, 0)  # 11 < 13


# -- B-2 round, turn, actions --------------------------------------------------------------------------

def _killers(resolve_a: int, resolve_b: int) -> np.ndarray:
    """Two fighters whose every attack hits (melee 20, no reactions) for a mortal wound (d6 + 60)."""
    F = blank_fighters()
    for i in (0, 1):
        give_weapon(F, i, L.SLOT_MAIN, 1, 6, bonus=60)
        F[i, L.P_MELEE] = 20
        F[i, L.P_REACTION] = L.R_NONE
    F[0, L.P_RESOLVE], F[1, L.P_RESOLVE] = resolve_a, resolve_b
    return F


@pytest.mark.parametrize("first", [0, 1])
def test_b2_1_one_turn_each_per_round_in_initiative_order(first):
    """B-2.1: the fighter first in initiative (resolve 20 against −5: 2d6 + 20 > 2d6 − 5 always,
    B-2.2) takes its turn first and kills with its first blow in round 1; the other never gets a
    turn. Two fighters in total defence for a round cap of 7 take exactly 7 turns each."""
    F = _killers(20, -5) if first == 0 else _killers(-5, 20)
    for i in range(20):
        S = np.zeros((2, L.NS), dtype=np.int64)
        cnt = counters(7)
        assert fight(F, S, default_options(round_cap=7), ZT, scripted(seed=i), cnt) == first
        assert (S[first, L.S_TURNS], S[1 - first, L.S_TURNS]) == (1, 0)
        assert cnt[L.C_ROUNDS + 1] == 1 and cnt[L.C_ATTACKS + 5 * first + L.OUT_HIT] == 1
    for i in (0, 1):
        set_tactic(F, i, "total_defence")
    S = np.zeros((2, L.NS), dtype=np.int64)
    assert fight(F, S, default_options(round_cap=7), ZT, scripted(seed=1), counters(7)) == 2
    assert S[0, L.S_TURNS] == S[1, L.S_TURNS] == 7


def _turn_of_a(tactic: str = "single", prone: bool = False, dropped: bool = False, paired: bool = False,
               options: dict | None = None):
    """One turn of a (a sword, melee 20) against b (no reaction, no opportunity attack left,
    wounds without effects). Returns (a's attacks, a's state row)."""
    F = blank_fighters()
    give_weapon(F, 0, L.SLOT_MAIN, 1, 8)
    F[0, L.P_MELEE] = 20
    if paired:
        give_weapon(F, 0, L.SLOT_OFF, 1, 6)
        F[0, L.P_PAIRED] = 1
    set_tactic(F, 0, tactic)
    F[1, L.P_REACTION] = L.R_NONE
    F[1, L.P_DL0:L.P_DL0 + 4] = HUGE_LEVELS
    S = fresh_state(F)
    S[0, L.S_PRONE] = int(prone)
    S[0, L.S_HELD_MAIN] = int(not dropped)
    cnt = counters()
    turn(F, S, default_options(**(options or {})), ZT, scripted(seed=2), cnt, 0)
    return int(cnt[L.C_ATTACKS:L.C_ATTACKS + 5].sum()), S[0]


def test_b2_4_and_b2_5_two_standard_actions_or_one_full_and_one_attack_a_turn():
    """B-2.4: two standard actions or one full action a turn; B-2.5: at most one attack action.
    A single attack (standard) leaves its second action unused — no second attack. A furious
    attack (full) takes the whole turn. Prone, standing up takes one action: the single attack
    follows; a furious attack cannot (one action left), a plain attack is made instead (no
    "no reactions"). Prone and disarmed: stand up, pick the weapon up, no attack. Standing up as a
    full action (option): no attack, and the −2 to reactions (B-2.6). The paired-weapons talent
    is the one that allows more: both weapons attack in one action (B-7.6). (Free actions: the only
    one the kernel takes is dropping a ranged weapon, B-8.)"""
    assert _turn_of_a("single")[0] == 1
    attacks, row = _turn_of_a("furious")
    assert attacks == 1 and row[L.S_NO_REACT] == 1
    attacks, row = _turn_of_a("single", prone=True)
    assert attacks == 1 and row[L.S_PRONE] == 0
    attacks, row = _turn_of_a("furious", prone=True)
    assert attacks == 1 and row[L.S_PRONE] == 0 and row[L.S_NO_REACT] == 0
    attacks, row = _turn_of_a("single", prone=True, dropped=True)
    assert attacks == 0 and row[L.S_PRONE] == 0 and row[L.S_HELD_MAIN] == 1
    attacks, row = _turn_of_a("single", prone=True, options={"stand_up_action": "full"})
    assert attacks == 0 and row[L.S_PRONE] == 0 and row[L.S_FULL_PEN] == 1
    assert _turn_of_a("single", paired=True)[0] == 2


def test_b2_6_full_action_minus_2_to_reactions_until_the_own_next_turn_and_b3_2_b3_7_stances():
    """B-2.6: after a full-action attack (a custom tactic keeping its reactions) a has −2 to parry
    and dodge until the start of its next turn. Its next turn in total defence (B-3.7, full but
    without the −2) leaves +4; the turn after, a single attack leaves 0 (the stance ended at the
    start of the turn); a defensive attack (B-3.2) +2, gone again after the next single attack."""
    F = blank_fighters()
    give_weapon(F, 0, L.SLOT_MAIN, 1, 8)
    F[1, L.P_REACTION] = L.R_NONE
    F[1, L.P_DL0:L.P_DL0 + 4] = HUGE_LEVELS
    S = fresh_state(F)
    o = default_options()
    seen = []
    for k, tactic in enumerate(["full swing", "total_defence", "single", "defensive", "single"]):
        if tactic == "full swing":
            tactic_row(F[0], Tactic(name="full_swing", full_action=True), -1)
        else:
            set_tactic(F, 0, tactic)
        turn(F, S, o, ZT, scripted(seed=k), counters(), 0)
        seen.append((reaction_modifier(F, S, o, 0, True), reaction_modifier(F, S, o, 0, False)))
    assert seen == [(-2, -2), (4, 4), (0, 0), (2, 2), (0, 0)]


def test_b2_7_reactions_are_unlimited():
    """B-2.7: b (dodge 30) dodges every attack made on it, as many as come: both attacks of a's
    paired-weapons action (melee 12: 2d6 + 12 − 4 − 2 ≥ 8, so neither misses before the dodge), and
    both again in a's next turn, with no turn of b in between."""
    F = blank_fighters()
    give_weapon(F, 0, L.SLOT_MAIN, 1, 8)
    give_weapon(F, 0, L.SLOT_OFF, 1, 6)
    F[0, L.P_PAIRED] = 1
    F[0, L.P_MELEE] = 12
    F[1, L.P_DODGE] = 30
    F[1, L.P_REACTION] = L.R_DODGE
    for seed in range(5):
        S = fresh_state(F)
        cnt = counters()
        turn(F, S, default_options(), ZT, scripted(seed=seed), cnt, 0)
        assert outcomes(cnt) == {"dodged": 2}
        turn(F, S, default_options(), ZT, scripted(seed=seed + 5), cnt, 0)
        assert outcomes(cnt) == {"dodged": 4}


# -- B-4 resolving an attack -----------------------------------------------------------------------------

@pytest.mark.parametrize("react", [L.R_PARRY, L.R_DODGE, L.R_NONE])
def test_b4_3_a_result_below_the_base_difficulty_misses_before_any_reaction(react):
    """B-4.3: attack 3+4 + melee 0 = 7 < 8: a miss, the defender does not react (its 2+2 is not
    even drawn). With ``attack_needs_base_difficulty = false`` only the opposed check counts:
    7 beats a reaction of 2+2 + 0 = 4 by 3 (the blow's d12 showing 1 is floored to 3, B-4.11);
    without a reaction the attack is still compared with 8."""
    F = blank_fighters()
    give_weapon(F, 0, L.SLOT_MAIN, 1, 12)
    F[1, L.P_DL0:L.P_DL0 + 4] = HUGE_LEVELS
    F[1, L.P_REACTION] = react
    if react == L.R_PARRY:
        give_weapon(F, 1, L.SLOT_MAIN, 1, 6)
    for option, expected in (("true", ({"miss": 1}, 0)),
                             ("false", ({"miss": 1}, 0) if react == L.R_NONE else ({"hit": 1}, 3))):
        draws = [(3, 4)] + ([] if react == L.R_NONE else [(2, 2)]) + [("d", 12, 1)]
        cnt = counters()
        attack(F, fresh_state(F), default_options(attack_needs_base_difficulty=option), ZT, scripted(*draws), cnt,
               0, 1, L.SLOT_MAIN, 0, L.ZONE_TORSO, L.K_NORMAL)
        assert (outcomes(cnt), int(cnt[L.C_DAMAGE + 1])) == expected


def test_b4_3_option_off_exactly():
    """B-4.3 off: militia (melee 1) against the swordsman's parry (+6) never misses; it hits when
    2d6 + 1 > 2d6 + 6, by enumeration — also below 8, which the default counts as a miss."""
    from brutal_sim import api

    pairs = list(itertools.product(range(1, 7), repeat=2))
    hit = sum(a1 + a2 + 1 > p1 + p2 + 6 for a1, a2 in pairs for p1, p2 in pairs)
    low_hits = sum(8 > a1 + a2 + 1 > p1 + p2 + 6 for a1, a2 in pairs for p1, p2 in pairs)
    off = api.attack("militia", "swordsman", options={"attack_needs_base_difficulty": "false"}).to_dict()
    on = api.attack("militia", "swordsman").to_dict()
    assert off["p_miss"] == 0
    assert off["p_hit"] == pytest.approx(hit / 1296, abs=1e-12)
    assert on["p_hit"] == pytest.approx((hit - low_hits) / 1296, abs=1e-12)
    assert on["p_miss"] == pytest.approx(15 / 36, abs=1e-12)  # 2d6 + 1 < 8


def test_b4_15_damage_types():
    """B-4.15: a weapon without a type deals blunt damage; piercing is the seed's cutting (Р). One
    heavy wound (8) to the torso of each type (toughness always passes): cutting bleeds, blunt does
    not, shock is recorded one level lower (B-5.2: a light wound in the first cell), fire brings 2
    fatigue levels (B-7.8), blast does not bleed."""
    from brutal_sim import api

    plain = api.load_fighter("militia").with_weapon(weapon={"name": "cudgel", "damage": "d6"})
    assert compile_fighter(plain)[L.P_WEAPONS + L.W_TYPE] == L.DT_BLUNT
    for name, code in L.DAMAGE_TYPE_CODES.items():
        typed = api.load_fighter("militia").with_weapon(weapon={"name": "x", "damage": "d6", "type": name})
        assert compile_fighter(typed)[L.P_WEAPONS + L.W_TYPE] == code
    assert L.DAMAGE_TYPE_CODES["piercing"] == L.DT_CUTTING
    heavy_cell = 1 << 4  # ТР of a 7-cell track
    for dtype, track, bleed, fatigue in ((L.DT_CUTTING, heavy_cell, 1, 0), (L.DT_BLUNT, heavy_cell, 0, 0),
                                         (L.DT_SHOCK, 1, 0, 0), (L.DT_FIRE, heavy_cell, 0, 2),
                                         (L.DT_BLAST, heavy_cell, 0, 0)):
        F = blank_fighters()
        F[1, L.P_TOUGHNESS] = 20
        F[1, L.P_WILLPOWER] = 20
        S = fresh_state(F)
        take_wound(F, S, default_options(), scripted(seed=dtype), counters(), 1, 8, dtype, L.ZONE_TORSO)
        assert (S[1, L.S_TRACK], S[1, L.S_BLEED], S[1, L.S_FATIGUE]) == (track, bleed, fatigue), dtype
        assert S[1, L.S_STUN] == 1  # the heavy torso wound's effect, whatever the type


# -- B-6 the wound track --------------------------------------------------------------------------------

@pytest.mark.parametrize("endurance", [0, 3, 5])
def test_b6_1_track_of_4_plus_endurance_cells_named_from_the_right(endurance):
    """B-6.1: 4 + endurance cells; from the right И (out), КР, ТР, ЛР, the rest plain. Compiled
    from the stat block; then light wounds fill the plain cells without a penalty, the next one ЛР
    (−1), a heavy wound ТР (−2), a critical КР (−4), a second critical И: out (B-6.2–B-6.6)."""
    from brutal_sim import api

    row = compile_fighter(api.load_fighter("militia").with_attributes(endurance=endurance))
    n = 4 + endurance
    assert row[L.P_NCELLS] == n and row[L.P_ENDURANCE] == endurance
    F = np.stack([row, row])
    F[1, L.P_SIDE] = 1
    S = fresh_state(F)
    for k in range(endurance):
        record(F, S, 1, L.LVL_LIGHT)
        assert S[1, L.S_TRACK] == (1 << (k + 1)) - 1 and wound_penalty(F, S, 1) == 0
    for level, cell, penalty in ((L.LVL_LIGHT, n - 4, 1), (L.LVL_HEAVY, n - 3, 2), (L.LVL_CRITICAL, n - 2, 4)):
        record(F, S, 1, level)
        assert (S[1, L.S_TRACK] >> cell) & 1 and wound_penalty(F, S, 1) == penalty and S[1, L.S_OUT] == 0
    record(F, S, 1, L.LVL_CRITICAL)
    assert S[1, L.S_TRACK] == (1 << n) - 1 and S[1, L.S_OUT] == L.CAUSE_TRACK_FULL + 1


# -- B-7.7 unarmed -----------------------------------------------------------------------------------------

def test_b7_7_fists_are_d4_plus_strength_shock_reach_0():
    from brutal_sim import api

    row = compile_fighter(api.load_fighter("militia").with_attributes(strength=3))
    fists = L.P_WEAPONS + L.SLOT_FISTS * L.WN
    assert (row[fists + L.W_NDICE], row[fists + L.W_SIDES], row[fists + L.W_BONUS], row[fists + L.W_TYPE],
            row[fists + L.W_REACH], row[fists + L.W_UNARMED]) == (1, 4, 3, L.DT_SHOCK, 0, 1)


@pytest.mark.parametrize("parry_melee,outcome,damage", [(4, "hit", 15), (8, "hard_block", 15), (11, "parried", 12),
                                                        (25, "parried", 0)])
def test_b7_7_bare_handed_parry_takes_the_blow_on_the_arm_less_the_margin(parry_melee, outcome, damage):
    """B-7.7: a's sword (d8 + 10, aimed at the head) at 3+4 + 5 = 12 against b's bare-handed parry
    2+2 + melee; the d8 shows 5. Parry 8: a hit on the head (extra 4: the die at least 4, B-4.11):
    15. Parry 12, a tie: the full blow (15) on b's right arm. Parry 15: parried by 3, the blow
    lands on the right arm less 3: 12. Parried by 17: less than nothing, 0."""
    F = blank_fighters()
    give_weapon(F, 0, L.SLOT_MAIN, 1, 8, bonus=10)
    F[0, L.P_MELEE] = 5
    F[1, L.P_MELEE] = parry_melee
    F[1, L.P_REACTION] = L.R_PARRY
    F[1, L.P_DL0:L.P_DL0 + 4] = HUGE_LEVELS
    cnt = counters()
    attack(F, fresh_state(F), default_options(), ZT, scripted((3, 4), (2, 2), ("d", 8, 5)), cnt,
           0, 1, L.SLOT_MAIN, 0, L.ZONE_HEAD, L.K_NORMAL)
    assert outcomes(cnt) == {outcome: 1} and cnt[L.C_DAMAGE + 1] == damage
    group = 0 if outcome == "hit" else 2  # head, else the arm
    blows = cnt[L.C_WOUNDS + 24:L.C_WOUNDS + 48].reshape(6, 4)
    assert blows[:, group].sum() == 1 and blows.sum() == 1


@pytest.mark.parametrize("parry_melee,outcome,damage", [(1, "hit", 0), (6, "hard_block", 1), (7, "parried", 1),
                                                        (9, "parried", 3), (10, "parried", 4), (12, "parried", 6),
                                                        (15, "parried", 8)])
def test_b7_7_a_weapon_parrying_fists_strikes_the_attacking_arm(parry_melee, outcome, damage):
    """B-7.7: a's fists at 3+4 + 3 = 10 against b's parry with a d8 at 2+2 + melee. Parried by a
    margin m, b's weapon strikes a's right arm with m extra successes: its d8 shows 1, floored to
    min(m, 8), and to half the die (4) from 4 extra on (B-4.11): 1, 3, 4, 6, 8 for m = 1, 3, 4, 6, 9.
    A tie counts as parried with 0 extra: 1. Parry 5 < 10: a's fists hit b, a takes nothing."""
    F = blank_fighters()
    F[0, L.P_MELEE] = 3
    F[0, L.P_DL0:L.P_DL0 + 4] = HUGE_LEVELS
    give_weapon(F, 1, L.SLOT_MAIN, 1, 8)
    F[1, L.P_MELEE] = parry_melee
    F[1, L.P_REACTION] = L.R_PARRY
    cnt = counters()
    attack(F, fresh_state(F), default_options(), ZT, scripted((3, 4), (2, 2), ("d", 8, 1)), cnt,
           0, 1, L.SLOT_FISTS, 0, L.ZONE_HEAD, L.K_NORMAL)
    assert outcomes(cnt) == {outcome: 1} and int(cnt[L.C_DAMAGE + 0]) == damage
    arm_blows = cnt[L.C_WOUNDS:L.C_WOUNDS + 24].reshape(6, 4)[:, 2].sum()
    assert arm_blows == (0 if outcome == "hit" else 1) and cnt[L.C_WOUNDS:L.C_WOUNDS + 24].sum() == arm_blows
