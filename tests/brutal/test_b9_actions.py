"""Actions found on the second reading of the seed (docs/rules/brutal.md, B-9): the readied attack
(B-9.1), the unarmed full attack (B-9.2) and the aimed attack at the weapon (B-9.3), computed by hand
on hand-made arrays and scripted dice, and exactly against the sampling kernel."""

from __future__ import annotations

import numpy as np
import pytest
from brutal_drivers import run_attacks
from conftest import (
    assert_exact_matches_sampled,
    blank_fighters,
    counters,
    default_options,
    fresh_state,
    give_weapon,
    set_tactic,
)
from test_rules_scripted import HUGE_LEVELS, ZT, scripted

from brutal_sim import api
from brutal_sim.rulesets.brutal import layout as L, options as O
from brutal_sim.rulesets.brutal.catalog import Catalog
from brutal_sim.rulesets.brutal.compile import compile_fighter
from brutal_sim.rulesets.brutal.exact import attack_weapon_breaks, enumerate_attack
from brutal_sim.rulesets.brutal.kernel import (
    answer_readied,
    plan_attack,
    readies,
    tactic_attack,
    turn,
)
from brutal_sim.toolbox.battle import foe_distance, place_sides
from brutal_sim.toolbox.rng import seed_duel

N = 200_000


def _state(seed: int = 0, index: int = 0) -> np.ndarray:
    st = np.empty(4, dtype=np.uint64)
    seed_duel(st, np.uint64(seed), np.int64(index))
    return st


def _attacks(cnt: np.ndarray, side: int) -> int:
    return int(cnt[L.C_ATTACKS + 5 * side:L.C_ATTACKS + 5 * side + 5].sum())


# -- B-9.1 readied attack --------------------------------------------------------------------------------

@pytest.mark.parametrize("dist,trigger,expected", [
    (10, "enemy_enters_reach", True), (0, "enemy_enters_reach", False),
    (10, "enemy_attacks", True), (0, "enemy_attacks", True),
])
def test_b9_1_when_a_sensible_fighter_readies(dist, trigger, expected):
    """B-9.1: the ready_attack tactic readies with a full action (both actions left) when apart, or at
    any distance when the trigger is the enemy's attack; engaged under enemy_enters_reach the trigger
    cannot happen and it attacks plainly. Never with one action left, nor against a shooter apart."""
    F = blank_fighters()
    set_tactic(F, 0, "ready_attack")
    S = fresh_state(F)
    place_sides(F, S, dist)
    opts = default_options(readied_trigger=trigger)
    assert readies(F, S, opts, 0, 2) is expected
    assert readies(F, S, opts, 0, 1) is False
    give_weapon(F, 1, L.SLOT_MAIN, 1, 10)  # b a shooter: a crossbow of 20/40/80 m
    F[1, L.P_WEAPONS + L.W_SHORT], F[1, L.P_WEAPONS + L.W_MEDIUM], F[1, L.P_WEAPONS + L.W_LONG] = 20, 40, 80
    S = fresh_state(F)
    place_sides(F, S, dist)
    assert readies(F, S, opts, 0, 2) is (expected and dist == 0)


@pytest.mark.parametrize("trigger", ["enemy_enters_reach", "enemy_attacks"])
def test_b9_1_readied_attack_fires_when_the_enemy_walks_into_reach(trigger):
    """B-9.1: a (ready_attack, 10 m apart) readies in its turn: −2 to reactions (B-2.6), no move. b
    (movement 5) walks two moves into reach and has no action left to attack: with
    ``enemy_enters_reach`` a's readied attack fires on b's arrival (one attack by a, none by b); with
    ``enemy_attacks`` nothing fires and the attack stays readied until a's next turn begins. In that
    turn, engaged, a attacks plainly under ``enemy_enters_reach`` and readies again under
    ``enemy_attacks``."""
    F = blank_fighters()
    set_tactic(F, 0, "ready_attack")
    F[:, L.P_MOVEMENT] = 5
    F[:, L.P_DL0:L.P_DL0 + 4] = HUGE_LEVELS
    opts = default_options(readied_trigger=trigger, start_distance=10)
    S = fresh_state(F)
    place_sides(F, S, 10)
    S[1, L.S_ORDER] = 1
    cnt = counters()
    st = _state()
    turn(F, S, opts, ZT, st, cnt, 0)
    assert (S[0, L.S_READIED], S[0, L.S_FULL_PEN], foe_distance(S, 0)) == (1, 1, 10)
    turn(F, S, opts, ZT, st, cnt, 1)
    assert foe_distance(S, 1) == 0 and _attacks(cnt, 1) == 0
    fired = trigger == "enemy_enters_reach"
    assert (_attacks(cnt, 0), S[0, L.S_READIED]) == ((1, 0) if fired else (0, 1))
    turn(F, S, opts, ZT, st, cnt, 0)
    assert (_attacks(cnt, 0), S[0, L.S_READIED], S[0, L.S_FULL_PEN]) == ((2, 0, 0) if fired else (0, 1, 1))


@pytest.mark.parametrize("seed", range(5))
def test_b9_1_readied_attack_resolves_before_the_triggering_attack(seed):
    """B-9.1, trigger ``enemy_attacks``, engaged: b starts its attack; a's readied attack (melee 20:
    it always hits a defenceless b whose damage levels are all 0, so any blow is mortal) resolves
    first and puts b out, so b's attack never happens."""
    F = blank_fighters()
    set_tactic(F, 0, "ready_attack")
    F[0, L.P_MELEE] = 20
    F[1, L.P_REACTION] = L.R_NONE
    F[1, L.P_DL0:L.P_DL0 + 4] = 0
    S = fresh_state(F)
    S[0, L.S_READIED] = 1
    cnt = counters()
    tactic_attack(F, S, default_options(readied_trigger="enemy_attacks"), ZT, _state(seed), cnt, 1, 2, False)
    assert S[1, L.S_OUT] == L.CAUSE_MORTAL + 1
    assert (_attacks(cnt, 0), _attacks(cnt, 1), S[0, L.S_READIED]) == (1, 0, 0)


@pytest.mark.parametrize("first", [0, 1])
def test_b9_1_two_readied_attacks_fire_higher_initiative_first(first):
    """B-9.1: two readied fighters of side a (rows 0, 1) engaged with b (row 2), who starts an attack:
    the one earlier in the turn order (higher initiative) fires first; its sure, mortal blow puts b
    out, so the other's readied attack never fires and stays readied."""
    F = np.vstack([blank_fighters(), blank_fighters()[:1]])
    F[:2, L.P_SIDE] = 0
    F[2, L.P_SIDE] = 1
    F[:2, L.P_MELEE] = 20
    F[2, L.P_REACTION] = L.R_NONE
    F[2, L.P_DL0:L.P_DL0 + 4] = 0
    S = fresh_state(F)
    S[0, L.S_FOE], S[1, L.S_FOE], S[2, L.S_FOE] = 2, 2, 0
    S[0, L.S_READIED] = S[1, L.S_READIED] = 1
    for p, r in enumerate((first, 1 - first, 2)):
        S[p, L.S_ORDER] = r
    answer_readied(F, S, default_options(readied_trigger="enemy_attacks"), ZT, _state(), counters(), 2,
                   O.TRIGGER_ATTACKS)
    assert S[2, L.S_OUT] != 0
    assert (S[first, L.S_READIED], S[1 - first, L.S_READIED]) == (0, 1)


# -- B-9.2 unarmed full attack ----------------------------------------------------------------------------

def _unarmed_full_attack(tactic: str, option: str, melee: int) -> tuple[int, int]:
    """a's fists (melee ``melee``) on a defenceless b whose blows are all light damage, with the
    attack 2d6 showing 6+5 and then, per blow, the zone d20 and the fist d4 showing 3, 1, 2.
    Returns (blows on b, b's damage)."""
    F = blank_fighters()
    set_tactic(F, 0, tactic)
    F[0, L.P_MELEE] = F[0, L.P_MELEE_SKILL] = melee
    F[1, L.P_REACTION] = L.R_NONE
    F[1, L.P_DL0:L.P_DL0 + 4] = HUGE_LEVELS
    st = scripted((6, 5), ("d", 20, 1), ("d", 4, 3), ("d", 20, 1), ("d", 4, 1), ("d", 20, 1), ("d", 4, 2))
    cnt = counters()
    tactic_attack(F, fresh_state(F), default_options(unarmed_full_attack=option), ZT, st, cnt, 0, 2, False)
    blows = int(cnt[L.C_WOUNDS + 24:L.C_WOUNDS + 48].sum())
    return blows, int(cnt[L.C_DAMAGE + 1])


def test_b9_2_unarmed_full_attack_hits_once_more_per_two_extra_successes():
    """B-9.2: a furious attack with fists (+4) by melee 3 rolls 6+5 = 18 against 8: 10 extra
    successes, so 1 + 10 // 2 = 6 hits, capped at the melee skill 3. The first hit is the normal one
    (its d4 raised to min(10, 4) = 4 by the extra successes, B-4.11); the other two roll their own
    zone and die with no extra successes (1 and 2): damage 4 + 1 + 2 = 7. Under
    ``unarmed_full_attack = flurry`` the furious attack is a single hit (damage 4) and the flurry
    tactic (no +4: 14 against 8, 6 extra → 4 hits, capped at 3) scores the three; under the default
    the flurry is a full action with one hit. Melee 1 caps the hits at one."""
    assert _unarmed_full_attack("furious", "furious", 3) == (3, 7)
    assert _unarmed_full_attack("furious", "flurry", 3) == (1, 4)
    assert _unarmed_full_attack("flurry", "flurry", 3) == (3, 7)
    assert _unarmed_full_attack("flurry", "furious", 3) == (1, 4)
    assert _unarmed_full_attack("furious", "furious", 1) == (1, 4)


def test_b9_2_extra_hits_need_fists_and_the_full_action():
    """B-9.2: an armed furious attack, and a furious tactic with one action left (a plain attack),
    are not unarmed full attacks."""
    F = blank_fighters()
    set_tactic(F, 0, "furious")
    S = fresh_state(F)
    assert plan_attack(F, S, default_options(), 0, 2)[2] == L.K_FULL_UNARMED
    assert plan_attack(F, S, default_options(), 0, 1)[2] == L.K_NORMAL
    assert plan_attack(F, S, default_options(unarmed_full_attack="flurry"), 0, 2)[2] == L.K_NORMAL
    give_weapon(F, 0, L.SLOT_MAIN, 1, 8)
    assert plan_attack(F, fresh_state(F), default_options(), 0, 2)[2] == L.K_NORMAL


def test_b9_2_most_hits_are_the_melee_skill_or_the_melee_total():
    """B-9.2: the cap is the melee skill when the check formula names it (check_bonus =
    attribute_plus_skill), else the melee check's total (stat blocks give totals, B-1.1)."""
    brawler = Catalog.bundled().fighter("brawler").vary(**{"skills.melee": 2, "attributes.agility": 3})
    row = compile_fighter(brawler)
    assert row[L.P_MELEE_SKILL] == row[L.P_MELEE] == 3
    row = compile_fighter(brawler, formula={"melee": ("agility", "skill")})
    assert (row[L.P_MELEE], row[L.P_MELEE_SKILL]) == (5, 2)


# -- B-9.3 aimed attack at the weapon ---------------------------------------------------------------------

def test_b9_3_aim_weapon_is_a_full_action_at_minus_4_against_a_held_weapon():
    """B-9.3: aim_weapon: full action (both actions, −2 to reactions, B-2.6) at −4 (fists −2, B-3.3)
    against the foe's main-hand item, else its off-hand item; a bare-handed foe is attacked plainly."""
    F = blank_fighters()
    set_tactic(F, 0, "aim_weapon")
    give_weapon(F, 0, L.SLOT_MAIN, 1, 8)
    give_weapon(F, 1, L.SLOT_OFF, 1, 6)
    S = fresh_state(F)
    mod, zone, kind, slot, acts, feint, paired = plan_attack(F, S, default_options(), 0, 2)
    assert (mod, zone, kind, slot, acts) == (-4, -1, L.K_WEAPON, L.SLOT_MAIN, 0) and S[0, L.S_FULL_PEN] == 1
    F2 = F.copy()
    F2[0, L.P_WEAPONS + L.W_PRESENT] = 0
    assert plan_attack(F2, fresh_state(F2), default_options(), 0, 2)[:4] == (-2, -1, L.K_WEAPON, L.SLOT_FISTS)
    F[1, L.P_WEAPONS + L.SLOT_OFF * L.WN + L.W_PRESENT] = 0
    assert plan_attack(F, fresh_state(F), default_options(), 0, 2)[:4] == (0, -1, L.K_NORMAL, L.SLOT_MAIN)


def test_b9_3_exact_break_probability_by_hand():
    """B-9.3: a (melee 4, −4: the attack is 2d6) aims at b's weapon; b does not react: the attack hits
    on 2d6 ≥ 8 (15/36) and makes the hard block (B-4.4): 2d6 + 4 (a's durability) against 2d6 + 0; b's
    weapon breaks when a wins by 6+, i.e. its 2d6 beats b's by 2 or more; a's when b's 2d6 beats a's
    by 10 (12 against 2). Every hit counts as a hard block, none as a blow on b."""
    F = blank_fighters()
    set_tactic(F, 0, "aim_weapon")
    F[0, L.P_MELEE] = 4
    F[1, L.P_REACTION] = L.R_NONE
    give_weapon(F, 0, L.SLOT_MAIN, 1, 8, dur=4)
    give_weapon(F, 1, L.SLOT_MAIN, 1, 8, dur=0)
    opts = default_options()
    two_d6 = [x + y for x in range(1, 7) for y in range(1, 7)]
    p_hit = sum(t >= 8 for t in two_d6) / 36
    p_b = p_hit * sum(x - y >= 2 for x in two_d6 for y in two_d6) / 1296
    p_a = p_hit * sum(y - x >= 10 for x in two_d6 for y in two_d6) / 1296
    zt = np.zeros(20, dtype=np.int8)
    assert attack_weapon_breaks(F, opts, zt) == pytest.approx([p_a, p_b], abs=1e-12)
    outcomes, levels, damage = np.zeros(5), np.zeros((6, 4)), np.zeros(1)
    enumerate_attack(F, opts, zt, outcomes, levels, damage)
    assert outcomes[L.OUT_HARD_BLOCK] == pytest.approx(p_hit) and outcomes[L.OUT_MISS] == pytest.approx(1 - p_hit)
    assert levels.sum() == 0.0 and damage[0] == 0.0


@pytest.mark.parametrize("a,b,options,kw", [
    ("swordsman", "knight", {}, {"tactic": "aim_weapon"}),                           # parried, dodged, hard blocks
    ("brute", "duelist", {"broken_weapon": "destroyed"}, {"tactic": "aim_weapon"}),  # strong axe against a rapier
    ("militia", "swordsman", {}, {"tactic": "aim_weapon", "reaction": "none"}),
    ("brawler", "swordsman", {}, {"tactic": "aim_weapon"}),                           # fists: no durability test
    ("swordsman", "militia", {}, {"reaction": "parry"}),                             # parry ties (B-4.4)
])
def test_b9_3_exact_weapon_breaks_match_the_sampling_kernel(a, b, options, kw):
    """B-9.3 (and B-4.4): the exact probability that one attack breaks b's (or a's own) weapon equals
    the kernel's sampled share of weapon breaks within 4 standard errors; outcomes and blows as well."""
    from conftest import within

    ex = api.attack(a, b, options=options, **kw)
    sa = api.attack(a, b, n=N, seed=29, options=options, **kw)
    assert_exact_matches_sampled(ex, sa, N)
    _, prepared = api.prepare(a, b, options=options, tactic_a=kw.get("tactic"), reaction_b=kw.get("reaction"))
    F, opts, zt = prepared.compiled.args()
    exact = attack_weapon_breaks(F, opts, zt)
    k = prepared.compiled.n_counters
    cnt = run_attacks(F, opts, zt, np.uint64(29), np.int64(0), np.int64(N), 2, k).sum(axis=0)
    sampled = cnt[L.C_BREAKS:L.C_BREAKS + 2] / N
    for side in range(2):
        assert within(exact[side], sampled[side], N), (side, exact, sampled)
    if kw.get("tactic") == "aim_weapon" and a != "brawler":
        assert exact[1] > 0.0  # the path is exercised
