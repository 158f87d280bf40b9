"""Hand-computed Vereteno scenarios, one group per rule id of ``docs/rules/vereteno.md``.

The rule functions of the kernel are called directly on hand-built fighter rows and states; rules
that roll are driven by duel seeds whose first dice are read off the reference generator."""

from __future__ import annotations

import numpy as np
import pytest

from naive_rng import Xoshiro256StarStar
from brutal_sim.toolbox.rng import _seed_duel
from brutal_sim.rulesets.vereteno import RULESET
from brutal_sim.rulesets.vereteno import kernel as K
from brutal_sim.rulesets.vereteno import layout as L
from brutal_sim.rulesets.vereteno.catalog import Catalog
from brutal_sim.rulesets.vereteno.options import compile_options

SEED = 77


def opts(**kw: str) -> np.ndarray:
    return compile_options(RULESET.default_options().with_overrides(kw, "test"))


def pair(a: str = "swordsman", b: str = "brute", **kw: str) -> tuple[np.ndarray, np.ndarray]:
    """Compiled fighters and a fresh state."""
    p = RULESET.prepare(a, b, options=kw)
    F = p.compiled.fighters.copy()
    S = np.zeros((2, L.NS), dtype=np.int64)
    K._reset(F, S)
    return F, S


def traumas() -> np.ndarray:
    return RULESET.prepare("swordsman", "brute").compiled.tables[0]


def index_with_dice(*want: tuple[int, int | tuple[int, ...]]) -> int:
    """A duel index whose generator's first draws are the given ``(die size, face or faces)``."""
    for idx in range(200_000):
        rng = Xoshiro256StarStar.for_duel(SEED, idx)
        if all(rng.die(n) in (face if isinstance(face, tuple) else (face,)) for n, face in want):
            return idx
    raise AssertionError("no such index")


def dice(idx: int, n: int, size: int = 20) -> list[int]:
    """The first ``n`` dice of duel ``idx``'s generator."""
    rng = Xoshiro256StarStar.for_duel(SEED, idx)
    return [rng.die(size) for _ in range(n)]


def state_at(idx: int) -> np.ndarray:
    st = np.empty(4, dtype=np.uint64)
    _seed_duel(st, np.uint64(SEED), np.int64(idx))
    return st


# -- V-1 checks ------------------------------------------------------------------------------------

def test_v1_3_face_values():
    assert [K._successes(f, -2) for f in (1, 2, 16, 17, 19, 20)] == [-2, 0, 0, 1, 1, 2]
    assert K._successes(1, -1) == -1


def test_v1_4_desperate_rolls():
    fvtt, yze = L.DESP_FVTT, L.DESP_YZE
    assert [K._desperate_dice(m, p) for m, p in ((fvtt, 0), (fvtt, -3), (yze, 0), (L.DESP_APP, -1))] == [1, 2, 2, 0]
    # fvtt: 1 success only if every die is 20; else the total capped at 0 (1s count −1)
    assert K._desperate(fvtt, 1, 1, 0, 2) == 1
    assert K._desperate(fvtt, 2, 2, 0, 4) == 1
    assert K._desperate(fvtt, 2, 1, 0, 2) == 0
    assert K._desperate(fvtt, 2, 1, 1, 0) == 0
    assert K._desperate(fvtt, 2, 0, 2, -4) == -2
    # yze: normal count, ≥ 2 successes count as 1, 1 success fails
    assert [K._desperate(yze, 2, 0, 0, n) for n in (3, 2, 1, 0, -2)] == [1, 1, 0, 0, -2]


def test_v1_check_rolls_the_pool_die_by_die():
    idx = index_with_dice((20, 20), (20, 18), (20, 1))
    assert K._check(state_at(idx), 3, opts()) == 2 + 1 - 2
    assert K._check(state_at(idx), 3, opts(one_value="-1")) == 2
    assert K._check(state_at(idx), 0, opts()) == 1  # fvtt: one die, a 20
    assert K._check(state_at(idx), -1, opts()) == 0  # fvtt: 20 and 18
    assert K._check(state_at(idx), -1, opts(desperation="yze")) == 1  # 2 + 1 ≥ 2
    assert K._check(state_at(idx), 0, opts(desperation="app")) == 0


# -- V-2 action points, initiative ---------------------------------------------------------------

def test_v2_3_refill_and_v6_3_shock():
    F, S = pair()
    S[0, L.S_AP] = 1
    K._shock(S, opts(), 0, 3)
    assert (S[0, L.S_AP], S[0, L.S_AP_DEBT]) == (0, 2)
    K._refill(F, S, 0)
    assert (S[0, L.S_AP], S[0, L.S_AP_DEBT]) == (1, 0)
    K._shock(S, opts(shock_timing="next_turn"), 0, 5)
    assert (S[0, L.S_AP], S[0, L.S_AP_DEBT]) == (1, 5)
    K._refill(F, S, 0)
    assert (S[0, L.S_AP], S[0, L.S_AP_DEBT]) == (0, 2)
    K._refill(F, S, 0)
    assert (S[0, L.S_AP], S[0, L.S_AP_DEBT]) == (1, 0)


def test_v2_4_initiative_terms_and_ties():
    F, S = pair("duelist", "brute")  # sword init +2 mod +1, nimbleness 3; great axe init −2 mod +1, 0
    idx = index_with_dice((20, 10), (20, 10))
    K._roll_initiative(F, S, opts(), state_at(idx), True)
    assert (S[0, L.S_INIT_ROLL], S[1, L.S_INIT_ROLL]) == (10 + 2 + 3, 10 - 2)
    K._roll_initiative(F, S, opts(init_weapon_term="modifier"), state_at(idx), True)
    assert (S[0, L.S_INIT_ROLL], S[1, L.S_INIT_ROLL]) == (10 + 1 + 3, 10 + 1)
    # V-2.5 surprise by b: two more d20 added, or the highest of three kept
    _, b1, b2, b3 = dice(3, 4)
    K._roll_initiative(F, S, opts(surprise="b"), state_at(3), True)
    assert S[1, L.S_INIT_ROLL] == b1 + b2 + b3 - 2
    K._roll_initiative(F, S, opts(surprise="b", surprise_init="keep_highest"), state_at(3), True)
    assert S[1, L.S_INIT_ROLL] == max(b1, b2, b3) - 2
    # a tie is broken by bare d20 pairs (a, b) until they differ
    S[0, L.S_INIT_ROLL], S[1, L.S_INIT_ROLL] = 12, 10
    S[1, L.S_INIT_BONUS] = 2
    idx = next(i for i in range(10_000) if (d := dice(i, 4))[0] == d[1] and d[2] != d[3])
    _, _, da, db = dice(idx, 4)
    assert K._first(S, state_at(idx)) == (0 if da > db else 1)
    S[1, L.S_INIT_BONUS] = 4  # +2 effects raise the kept base (V-4.3, V-4.4)
    assert K._first(S, state_at(idx)) == 1
    S[1, L.S_INIT_BONUS] = 0
    assert K._first(S, state_at(idx)) == 0


# -- V-3 actions, V-7.1 tactics -------------------------------------------------------------------

def test_v3_attack_kinds_costs_and_weapon_limits():
    cat = Catalog.bundled()
    F, S = pair("swordsman", "brute")
    F[0, L.P_T_KIND], F[0, L.P_T_KEEP] = L.K_STANDARD, 1  # std_guard
    for ap, kind in ((3, L.K_STANDARD), (2, L.K_QUICK), (1, L.K_NONE)):
        S[0, L.S_AP] = ap
        assert K._plan(F, S, 0) == kind
    F[1, L.P_T_KIND], F[1, L.P_T_KEEP] = L.K_POWER, 0  # brute: heavy great axe
    for ap, kind in ((3, L.K_POWER), (2, L.K_STANDARD), (1, L.K_NONE)):  # no quick with a heavy weapon
        S[1, L.S_AP] = ap
        assert K._plan(F, S, 1) == kind
    F[1, L.P_T_KIND] = L.K_QUICK  # quick3 with a heavy weapon strikes standard
    S[1, L.S_AP] = 3
    assert K._plan(F, S, 1) == L.K_STANDARD
    S[0, L.S_DROPPED] = 1  # bare hands: no power strike
    assert not K._allowed(F, S, 0, L.K_POWER) and K._allowed(F, S, 0, L.K_QUICK)
    assert cat.weapons["knife"].properties[0] == "light"
    F2, S2 = pair("swordsman", "brute")
    F2[0, L.P_WEAPONS + L.W_LIGHT] = 1
    assert not K._allowed(F2, S2, 0, L.K_POWER)


def test_v3_1_attack_pool_and_v4_4_dodge_pool():
    F, S = pair("swordsman", "brute")  # swordsman phys 4 + melee 3 + sword 1; brute agi 1 + nimble 0
    assert K._attack_pool(F, S, 0, 1, L.K_STANDARD) == 8
    assert K._attack_pool(F, S, 0, 1, L.K_QUICK) == 6
    assert K._attack_pool(F, S, 0, 1, L.K_POWER) == 10
    S[1, L.S_PRONE] = 1
    S[0, L.S_PEN_MELEE] = 3
    assert K._attack_pool(F, S, 0, 1, L.K_STANDARD) == 8 + 2 - 3  # V-6.7, V-6.4
    assert K._dodge_pool(F, S, opts(), 0, 1, L.K_POWER) == 1 + 0 - 1
    assert K._dodge_pool(F, S, opts(dodge_modifier="weapon_plus_attack_type"), 0, 1, L.K_POWER) == -2
    assert K._defence_pool(F, S, 1) == 5 + 3 + 1


def test_v7_2_reaction_choice():
    F, S = pair("duelist", "swordsman")  # duelist: defence 3+4+1 = 8, dodge 5+3−1 = 7
    o = opts()
    assert K._choose_reaction(F, S, o, 1, 0, L.K_STANDARD) == L.R_DEFEND
    S[0, L.S_PEN_MELEE] = 2
    assert K._choose_reaction(F, S, o, 1, 0, L.K_STANDARD) == L.R_DODGE
    S[0, L.S_AP] = 0  # V-2.3: no AP left, no reaction
    assert K._choose_reaction(F, S, o, 1, 0, L.K_STANDARD) == L.R_NONE


# -- V-4 resolving an attack ---------------------------------------------------------------------

def test_v4_3_defence_spending():
    F, S = pair("brute", "swordsman")  # defender swordsman: sword crit 2 → trauma costs 3
    r = K._resolve(F, S, 0, 1, L.R_DEFEND, 3, 5)  # 3 blocks, 2 left: no trauma, counter, +2 init
    assert r == (L.OUT_DEFENDED, 0, 1, 0, 2)
    r = K._resolve(F, S, 0, 1, L.R_DEFEND, 1, 5)  # 1 block, 4 left: trauma (3), counter
    assert r == (L.OUT_DEFENDED, 0, 1, 1, 0)
    r = K._resolve(F, S, 0, 1, L.R_DEFEND, 4, 2)  # not enough blocks: 2 attacker successes go through
    assert r == (L.OUT_HIT, 2, 0, 0, 0)
    r = K._resolve(F, S, 0, 1, L.R_DEFEND, 0, -2)  # a missed attack; negative defence does nothing
    assert r == (L.OUT_MISS, 0, 0, 0, 0)
    F[1, L.P_DEFENCE_SPENDING] = L.DS_COUNTER_FIRST
    r = K._resolve(F, S, 0, 1, L.R_DEFEND, 3, 3)  # counter first, then 2 blocks: both hit at once
    assert r == (L.OUT_HIT, 1, 1, 0, 0)


@pytest.mark.parametrize("r,sa,want", [
    (3, 4, (L.OUT_DODGED, 0, 0, 0, 2)),   # 3+: dodged, +2 initiative
    (2, 4, (L.OUT_DODGED, 0, 0, 0, 0)),   # 2: dodged
    (1, 3, (L.OUT_HIT, 2, 0, 0, 0)),      # 1: half, rounded up
    (1, 1, (L.OUT_HIT, 1, 0, 0, 0)),
    (0, 2, (L.OUT_HIT, 2, 0, 0, 0)),      # 0: no effect
    (-2, 1, (L.OUT_HIT, 3, 0, 0, 0)),     # ≤ −1: exposed, +2 extra successes
    (2, 0, (L.OUT_MISS, 0, 0, 0, 0)),
])
def test_v4_4_dodge_table(r, sa, want):
    F, S = pair()
    assert K._resolve(F, S, 0, 1, L.R_DODGE, sa, r) == want


def test_v4_5_extra_successes_by_policy():
    F, S = pair("swordsman", "brute")  # sword: damage 2, crit 2; brute armed
    s = 6  # 5 extras
    F[0, L.P_ATTACK_SPENDING] = L.AS_TRAUMA_FIRST
    assert K._spend(F, S, 0, 1, s) == (2 + 1, 2, 0, 0)
    F[0, L.P_ATTACK_SPENDING] = L.AS_DAMAGE_ONLY
    assert K._spend(F, S, 0, 1, s) == (2 + 5, 0, 0, 0)
    F[0, L.P_ATTACK_SPENDING] = L.AS_DISARM_FIRST
    assert K._spend(F, S, 0, 1, s) == (2 + 3, 0, 1, 0)
    S[1, L.S_DROPPED] = 1  # nothing to disarm
    assert K._spend(F, S, 0, 1, s) == (2 + 5, 0, 0, 0)
    F[0, L.P_ATTACK_SPENDING] = L.AS_INTIMIDATE
    assert K._spend(F, S, 0, 1, s) == (2, 0, 0, 5)
    F[0, L.P_ATTACK_SPENDING] = L.AS_TRAUMA_FIRST
    S[0, L.S_DROPPED] = 1  # bare hands: crit "—", damage 1
    assert K._spend(F, S, 0, 1, s) == (1 + 5, 0, 0, 0)


# -- V-5 armour, Health, Will ----------------------------------------------------------------------

def test_v5_1_health_and_will():
    f = Catalog.bundled().fighter("swordsman")
    assert (f.health, f.will) == (4 + 3, 2 + 2)


def test_v5_4_armour_dice_shield_piercing_and_reduction():
    F, S = pair("brute", "swordsman")  # swordsman: armoured shirt 3, archaic shield 2; great axe
    assert K._armour_dice(F, S, opts(), 0, 1) == (3, 2)
    assert K._armour_dice(F, S, opts(shield="ignore"), 0, 1) == (3, 0)
    assert K._armour_dice(F, S, opts(shield="cover_like"), 0, 1) == (3, 0)
    F[0, L.P_WEAPONS + L.W_PIERCING] = 1
    assert K._armour_dice(F, S, opts(armour_piercing_dice="4"), 0, 1) == (0, 1)
    assert K._armour_reduction(opts(), 3, 2) == 3
    assert K._armour_reduction(opts(armour_ones="net"), 3, 1) == 1
    assert K._armour_reduction(opts(armour_ones="net", one_value="-1"), 3, 1) == 2
    assert K._armour_reduction(opts(armour_ones="net"), 1, 2) == 0


def test_v5_4_armour_roll_degrades_the_class_that_rolled_the_one():
    F, S = pair("brute", "swordsman")
    S[1, L.S_ARMOUR], S[1, L.S_SHIELD] = 1, 1  # one armour die, one shield die
    cnt = np.zeros(L.n_counters(100), dtype=np.int64)
    idx = index_with_dice((20, 1), (20, (17, 18, 19)))
    assert K._armour_roll(F, S, opts(), state_at(idx), cnt, 0, 1) == 1
    assert (S[1, L.S_ARMOUR], S[1, L.S_SHIELD], cnt[L.C_DEGRADED + 1]) == (0, 1, 1)
    S[1, L.S_ARMOUR] = 1
    idx = index_with_dice((20, 20), (20, 1))
    assert K._armour_roll(F, S, opts(), state_at(idx), cnt, 0, 1) == 2
    assert (S[1, L.S_ARMOUR], S[1, L.S_SHIELD], cnt[L.C_DEGRADED + 1]) == (1, 0, 2)
    S[1, L.S_SHIELD] = 1
    assert K._armour_roll(F, S, opts(armour_ones="net"), state_at(idx), cnt, 0, 1) == 0  # 2 − 2


def test_v4_6_blow_cancelled_by_armour_keeps_will_damage():
    F, S = pair("brute", "swordsman")
    cnt = np.zeros(L.n_counters(100), dtype=np.int64)
    S[1, L.S_SHIELD] = 0  # armour shirt 3 only
    idx = index_with_dice((20, 20), (20, tuple(range(2, 17))), (20, tuple(range(2, 17))))  # armour removes 2
    stopped = K._blow(F, S, opts(), traumas(), state_at(idx), cnt, 0, 1, 2, 1, 1, 1)
    assert stopped == 1
    assert S[1, L.S_HEALTH] == 7 and S[1, L.S_DROPPED] == 0  # no damage, trauma and disarm cancelled
    assert S[1, L.S_WILL] == 4 - 1
    assert cnt[L.C_WOUNDS + 1 * 5 + L.LVL_NONE] == 1


# -- V-6 traumas and conditions -------------------------------------------------------------------

@pytest.mark.parametrize("tens,units,check", [
    (6, 5, lambda S: S[1, L.S_OUT] == L.CAUSE_DEATH + 1 and S[1, L.S_DEAD] == 1),
    (5, 1, lambda S: S[1, L.S_OUT] == L.CAUSE_TRAUMA_OUT + 1 and S[1, L.S_DEAD] == 0),
    (3, 3, lambda S: S[1, L.S_PRONE] == 1 and S[1, L.S_PEN_AGIL] == 2 and S[1, L.S_AP] == 0
     and S[1, L.S_AP_DEBT] == 0),
    (1, 3, lambda S: S[1, L.S_DROPPED] == 1 and S[1, L.S_PEN_MELEE] == 1 and S[1, L.S_OUT] == 0),
    (5, 5, lambda S: S[1, L.S_BLEED] == 3 and S[1, L.S_AP] == 0 and S[1, L.S_PEN_MELEE] == 1),
    (4, 3, lambda S: S[1, L.S_NO2H] == 1 and S[1, L.S_AP] == 0 and S[1, L.S_AP_DEBT] == 2),
    (2, 5, lambda S: S[1, L.S_DMGCHK] == 1 and S[1, L.S_AP] == 0 and S[1, L.S_AP_DEBT] == 1),
    (5, 3, lambda S: S[1, L.S_DMG_TURN] == 1),
])
def test_v6_2_trauma_codes(tens, units, check):
    F, S = pair("swordsman", "knight")
    idx = index_with_dice((6, tens), (6, units))
    K._trauma(F, S, opts(), traumas(), state_at(idx), 1)
    assert check(S)


def test_v8_4_no2h_disarms_a_two_handed_weapon_for_good():
    F, S = pair("swordsman", "knight")  # greatsword
    S[1, L.S_NO2H] = 1
    assert K._slot(F, S, 1) == L.SLOT_UNARMED
    assert K._slot(F, S, 0) == L.SLOT_WEAPON


def test_v6_5_bleeding_and_v6_7_prone_and_v3_9_pickup_in_a_turn():
    F, S = pair("swordsman", "brute")
    F[0, L.P_T_KIND], F[0, L.P_T_KEEP] = L.K_NONE, 3  # turtle: nothing random happens
    cnt = np.zeros(L.n_counters(100), dtype=np.int64)
    st = state_at(0)
    S[0, L.S_BLEED], S[0, L.S_PRONE], S[0, L.S_DROPPED] = 3, 1, 1
    K._turn(F, S, opts(), traumas(), st, cnt, 0)
    assert S[0, L.S_HEALTH] == 7 - 3 and S[0, L.S_BLEED] == 2
    assert S[0, L.S_PRONE] == 0 and S[0, L.S_DROPPED] == 0 and S[0, L.S_AP] == 3 - 1 - 1
    S[0, L.S_DROPPED], S[0, L.S_AP] = 1, 3
    K._turn(F, S, opts(pickup="pickup_and_ready"), traumas(), st, cnt, 0)
    assert S[0, L.S_HEALTH] == 4 - 2 and S[0, L.S_AP] == 1 and S[0, L.S_DROPPED] == 0
    S[0, L.S_DROPPED], S[0, L.S_AP] = 1, 1
    K._turn(F, S, opts(pickup="pickup_and_ready"), traumas(), st, cnt, 0)  # bleed 1 → Health 1
    assert S[0, L.S_DROPPED] == 1 and S[0, L.S_HEALTH] == 1 and S[0, L.S_OUT] == 0
    K._turn(F, S, opts(), traumas(), st, cnt, 0)  # bleeding has run out
    assert S[0, L.S_HEALTH] == 1
    S[0, L.S_DMG_TURN] = 1
    K._turn(F, S, opts(), traumas(), st, cnt, 0)  # V-8.4 belly wound: 1 per turn → out
    assert S[0, L.S_OUT] == L.CAUSE_HEALTH + 1


def test_v6_11_every_check_costs_health():
    F, S = pair()
    S[0, L.S_DMGCHK] = 2
    K._strain(S, 0)
    assert S[0, L.S_HEALTH] == 7 - 2


def test_v6_1_both_out_at_once_is_a_draw():
    F, S = pair()
    cnt = np.zeros(L.n_counters(100), dtype=np.int64)
    S[0, L.S_OUT], S[1, L.S_OUT] = L.CAUSE_HEALTH + 1, L.CAUSE_HEALTH + 1
    assert K._finish(S, cnt, 3) == 2
    assert cnt[L.C_DRAWS] == 1 and cnt[L.C_WINS:L.C_WINS + 2].sum() == 0
    S[0, L.S_OUT] = 0
    S[1, L.S_DEAD] = 1
    assert K._finish(S, cnt, 3) == 0
    assert cnt[L.C_CAUSE + 4 + L.CAUSE_HEALTH] == 1 and cnt[L.C_DEATHS + 1] == 1 and cnt[L.C_ROUNDS + 3] == 1


def test_v5_level_names():
    assert K._level(True, 0, 1, True) == L.LVL_NONE
    assert K._level(False, 1, 0, True) == L.LVL_OUT
    assert K._level(False, 1, 1, False) == L.LVL_TRAUMA
    assert K._level(False, 2, 0, False) == L.LVL_WOUND
    assert K._level(False, 1, 0, False) == L.LVL_SCRATCH


def test_v2_5_stealth_attack():
    F, S = pair("swordsman", "brute")
    S[0, L.S_STEALTH] = L.STEALTH_DICE
    assert K._attack_pool(F, S, 0, 1, L.K_STANDARD) == 8 + 3
    # a turtle that surprises with extra_attack still makes one free standard attack, once
    F[:, L.P_T_KIND], F[:, L.P_T_KEEP] = L.K_NONE, 3
    for surprise, want in (("none", 0), ("a", 1)):
        o = opts(round_cap="3", surprise=surprise, stealth_attack="extra_attack" if surprise != "none" else "none")
        cnt = K._run_duels(F, o, traumas(), np.uint64(1), np.int64(0), np.int64(200), 1, L.n_counters(3)).sum(axis=0)
        a_attacks = cnt[L.C_ATTACKS:L.C_ATTACKS + 5].sum()
        assert a_attacks == 200 * want
        assert cnt[L.C_ATTACKS + 5:L.C_ATTACKS + 10].sum() == 0
