"""Hand-computed Vereteno scenarios, one group per rule id of ``docs/rules/vereteno.md``.

The rule functions of the kernel are called directly on hand-built fighter rows and states; rules
that roll are driven by duel seeds whose first dice are read off the reference generator."""

from __future__ import annotations

import numpy as np
import pytest
from naive_rng import Xoshiro256StarStar

from brutal_sim.core.battle import B_ORDER
from brutal_sim.rulesets.vereteno import KERNELS, RULESET, kernel as K, layout as L, options as O
from brutal_sim.rulesets.vereteno.catalog import Catalog
from brutal_sim.rulesets.vereteno.options import compile_options
from brutal_sim.toolbox.battle import put_out
from brutal_sim.toolbox.rng import roll_die, seed_duel

SEED = 77


def opts(**kw: str) -> np.ndarray:
    return compile_options(RULESET.default_options().with_overrides(kw, "test"))


def pair(a: str = "swordsman", b: str = "brute", **kw: str) -> tuple[np.ndarray, np.ndarray]:
    """Compiled fighters and a fresh state."""
    p = RULESET.prepare(a, b, options=kw)
    F = p.compiled.fighters.copy()
    S = np.zeros((2, L.NS), dtype=np.int64)
    K.reset(F, S)
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
    seed_duel(st, np.uint64(SEED), np.int64(idx))
    return st


#: d20 faces that count no success (V-1.3)
BLANK = tuple(range(2, 17))


def fighter(physique: int = 1, agility: int = 1, melee: int = 0, nimbleness: int = 0, **extra):
    """An inline fighter (bare hands, no armour, ``std_guard``, no reaction unless given)."""
    data = {"ruleset": "vereteno", "attributes": {"physique": physique, "agility": agility, "intellect": 2,
                                                  "empathy": 2},
            "skills": {"melee": melee, "nimbleness": nimbleness}, "tactic": "std_guard", "reaction": "none"}
    data.update(extra)
    return RULESET.fighter_from_data(data, "test", "test")


# -- V-1 checks ------------------------------------------------------------------------------------

def test_v1_3_face_values():
    assert [K.successes(f, -2) for f in (1, 2, 16, 17, 19, 20)] == [-2, 0, 0, 1, 1, 2]
    assert K.successes(1, -1) == -1


def test_v1_4_desperate_rolls():
    fvtt, yze = O.DESP_FVTT, O.DESP_YZE
    assert [K.desperate_dice(m, p) for m, p in ((fvtt, 0), (fvtt, -3), (yze, 0), (O.DESP_APP, -1))] == [1, 2, 2, 0]
    # fvtt: 1 success only if every die is 20; else the total capped at 0 (1s count −1)
    assert K.desperate(fvtt, 1, 1, 0, 2) == 1
    assert K.desperate(fvtt, 2, 2, 0, 4) == 1
    assert K.desperate(fvtt, 2, 1, 0, 2) == 0
    assert K.desperate(fvtt, 2, 1, 1, 0) == 0
    assert K.desperate(fvtt, 2, 0, 2, -4) == -2
    # yze: normal count, ≥ 2 successes count as 1, 1 success fails
    assert [K.desperate(yze, 2, 0, 0, n) for n in (3, 2, 1, 0, -2)] == [1, 1, 0, 0, -2]


def test_v1_check_rolls_the_pool_die_by_die():
    """V-1.1: a check rolls as many d20 as its pool and nets their successes (V-1.3); a pool ≤ 0 is a
    desperate roll (V-1.4)."""
    idx = index_with_dice((20, 20), (20, 18), (20, 1))
    assert K.check(state_at(idx), 3, opts()) == 2 + 1 - 2
    assert K.check(state_at(idx), 3, opts(one_value="-1")) == 2
    assert K.check(state_at(idx), 0, opts()) == 1  # fvtt: one die, a 20
    assert K.check(state_at(idx), -1, opts()) == 0  # fvtt: 20 and 18
    assert K.check(state_at(idx), -1, opts(desperation="yze")) == 1  # 2 + 1 ≥ 2
    assert K.check(state_at(idx), 0, opts(desperation="app")) == 0


# -- V-2 action points, initiative ---------------------------------------------------------------

def test_v2_3_refill_and_v6_3_shock():
    F, S = pair()
    S[0, L.S_AP] = 1
    K.shock(S, opts(), 0, 3)
    assert (S[0, L.S_AP], S[0, L.S_AP_DEBT]) == (0, 2)
    K.refill(F, S, 0)
    assert (S[0, L.S_AP], S[0, L.S_AP_DEBT]) == (1, 0)
    K.shock(S, opts(shock_timing="next_turn"), 0, 5)
    assert (S[0, L.S_AP], S[0, L.S_AP_DEBT]) == (1, 5)
    K.refill(F, S, 0)
    assert (S[0, L.S_AP], S[0, L.S_AP_DEBT]) == (0, 2)
    K.refill(F, S, 0)
    assert (S[0, L.S_AP], S[0, L.S_AP_DEBT]) == (1, 0)


def test_v2_4_initiative_terms_and_ties():
    F, S = pair("duelist", "brute")  # sword init +2 mod +1, nimbleness 3; great axe init −2 mod +1, 0
    idx = index_with_dice((20, 10), (20, 10))
    K.roll_initiative(F, S, opts(), state_at(idx), True)
    assert (S[0, L.S_INIT_ROLL], S[1, L.S_INIT_ROLL]) == (10 + 2 + 3, 10 - 2)
    K.roll_initiative(F, S, opts(init_weapon_term="modifier"), state_at(idx), True)
    assert (S[0, L.S_INIT_ROLL], S[1, L.S_INIT_ROLL]) == (10 + 1 + 3, 10 + 1)
    # V-2.5 surprise by b (the duel marks the surprising side first): two more d20 added, or the highest
    # of three kept
    _, b1, b2, b3 = dice(3, 4)
    K.surprise(F, S, opts(surprise="b"), 1)
    K.roll_initiative(F, S, opts(surprise="b"), state_at(3), True)
    assert S[1, L.S_INIT_ROLL] == b1 + b2 + b3 - 2
    K.roll_initiative(F, S, opts(surprise="b", surprise_init="keep_highest"), state_at(3), True)
    assert S[1, L.S_INIT_ROLL] == max(b1, b2, b3) - 2
    # a tie is broken by bare d20 pairs (a, b) until they differ
    S[0, L.S_INIT_ROLL], S[1, L.S_INIT_ROLL] = 12, 10
    S[1, L.S_INIT_BONUS] = 2
    idx = next(i for i in range(10_000) if (d := dice(i, 4))[0] == d[1] and d[2] != d[3])
    _, _, da, db = dice(idx, 4)

    def first(st):
        """The fighter at the first place of the turn order."""
        K.order(F, S, st, None)
        return S[0, B_ORDER]

    assert first(state_at(idx)) == (0 if da > db else 1)
    S[1, L.S_INIT_BONUS] = 4  # +2 effects raise the kept base (V-4.3, V-4.4)
    assert first(state_at(idx)) == 1
    S[1, L.S_INIT_BONUS] = 0
    assert first(state_at(idx)) == 0


# -- V-3 actions, V-7.1 tactics -------------------------------------------------------------------

def test_v3_attack_kinds_costs_and_weapon_limits():
    """V-2.2 costs (quick 1, standard 2, power 3 AP) decide what a tactic (V-7.1) can still afford;
    V-3.2 no quick attack with a heavy weapon, V-3.3 no power strike with a light one or bare hands
    (V-5.7 light/heavy)."""
    cat = Catalog.bundled()
    F, S = pair("swordsman", "brute")
    F[0, L.P_T_KIND], F[0, L.P_T_KEEP] = L.K_STANDARD, 1  # std_guard
    for ap, kind in ((3, L.K_STANDARD), (2, L.K_QUICK), (1, L.K_NONE)):
        S[0, L.S_AP] = ap
        assert K.plan(F, S, 0) == kind
    F[1, L.P_T_KIND], F[1, L.P_T_KEEP] = L.K_POWER, 0  # brute: heavy great axe
    for ap, kind in ((3, L.K_POWER), (2, L.K_STANDARD), (1, L.K_NONE)):  # no quick with a heavy weapon
        S[1, L.S_AP] = ap
        assert K.plan(F, S, 1) == kind
    F[1, L.P_T_KIND] = L.K_QUICK  # quick3 with a heavy weapon strikes standard
    S[1, L.S_AP] = 3
    assert K.plan(F, S, 1) == L.K_STANDARD
    S[0, L.S_DROPPED] = 1  # bare hands: no power strike
    assert not K.allowed(F, S, 0, L.K_POWER) and K.allowed(F, S, 0, L.K_QUICK)
    assert cat.weapons["knife"].properties[0] == "light"
    F2, S2 = pair("swordsman", "brute")
    F2[0, L.P_WEAPONS + L.W_LIGHT] = 1
    assert not K.allowed(F2, S2, 0, L.K_POWER)


def test_v3_1_attack_pool_and_v4_4_dodge_pool():
    """V-1.1 pools are attribute + skill; V-1.2 modifiers are whole dice: the weapon's modifier, the
    attack kind (V-3.2 quick −2, V-3.3 power +2), +2 against a prone target (V-6.7); V-6.4 melee
    penalties come off attack and defence (V-4.3) pools, Проворство penalties off the dodge pool."""
    F, S = pair("swordsman", "brute")  # swordsman phys 4 + melee 3 + sword 1; brute agi 1 + nimble 0
    assert K.attack_pool(F, S, 0, 1, L.K_STANDARD) == 8
    assert K.attack_pool(F, S, 0, 1, L.K_QUICK) == 6
    assert K.attack_pool(F, S, 0, 1, L.K_POWER) == 10
    S[1, L.S_PRONE] = 1
    S[0, L.S_PEN_MELEE] = 3
    assert K.attack_pool(F, S, 0, 1, L.K_STANDARD) == 8 + 2 - 3  # V-6.7, V-6.4
    assert K.dodge_pool(F, S, opts(), 0, 1, L.K_POWER) == 1 + 0 - 1
    assert K.dodge_pool(F, S, opts(dodge_modifier="weapon_plus_attack_type"), 0, 1, L.K_POWER) == -2
    assert K.defence_pool(F, S, 1) == 5 + 3 + 1
    S[1, L.S_PEN_MELEE], S[1, L.S_PEN_AGIL] = 2, 1
    assert K.defence_pool(F, S, 1) == 5 + 3 + 1 - 2
    assert K.dodge_pool(F, S, opts(), 0, 1, L.K_POWER) == 1 + 0 - 1 - 1


def test_v7_2_reaction_choice():
    F, S = pair("duelist", "swordsman")  # duelist: defence 3+4+1 = 8, dodge 5+3−1 = 7
    o = opts()
    assert K.choose_reaction(F, S, o, 1, 0, L.K_STANDARD) == L.R_DEFEND
    S[0, L.S_PEN_MELEE] = 2
    assert K.choose_reaction(F, S, o, 1, 0, L.K_STANDARD) == L.R_DODGE
    S[0, L.S_AP] = 0  # V-2.3: no AP left, no reaction
    assert K.choose_reaction(F, S, o, 1, 0, L.K_STANDARD) == L.R_NONE


# -- V-4 resolving an attack ---------------------------------------------------------------------

def test_v4_3_defence_spending():
    """V-4.3 defence effects bought in the V-7.3 order: blocks, traumas at crit + 1, the counter, +2
    initiative; ``counter_first`` buys the counter before blocking. V-4.2: 0 successes is a miss."""
    F, S = pair("brute", "swordsman")  # defender swordsman: sword crit 2 → trauma costs 3
    r = K.resolve(F, S, opts(), 0, 1, L.R_DEFEND, 3, 5)  # 3 blocks, 2 left: no trauma, counter, +2 init
    assert r == (L.OUT_DEFENDED, 0, 1, 0, 2)
    r = K.resolve(F, S, opts(), 0, 1, L.R_DEFEND, 1, 5)  # 1 block, 4 left: trauma (3), counter
    assert r == (L.OUT_DEFENDED, 0, 1, 1, 0)
    r = K.resolve(F, S, opts(), 0, 1, L.R_DEFEND, 4, 2)  # not enough blocks: 2 attacker successes go through
    assert r == (L.OUT_HIT, 2, 0, 0, 0)
    r = K.resolve(F, S, opts(), 0, 1, L.R_DEFEND, 0, -2)  # a missed attack; negative defence does nothing
    assert r == (L.OUT_MISS, 0, 0, 0, 0)
    F[1, L.P_DEFENCE_SPENDING] = L.DS_COUNTER_FIRST
    r = K.resolve(F, S, opts(), 0, 1, L.R_DEFEND, 3, 3)  # counter first, then 2 blocks: both hit at once
    assert r == (L.OUT_HIT, 1, 1, 0, 0)


@pytest.mark.parametrize("r,sa,want", [
    (3, 4, (L.OUT_DODGED, 0, 0, 0, 2)),   # 3+: dodged, +2 initiative
    (2, 4, (L.OUT_DODGED, 0, 0, 0, 0)),   # 2: dodged
    (1, 3, (L.OUT_HIT, 2, 0, 0, 0)),      # 1: half, rounded up
    (1, 1, (L.OUT_HIT, 1, 0, 0, 0)),
    (0, 2, (L.OUT_HIT, 2, 0, 0, 0)),      # 0: no effect
    (-2, 1, (L.OUT_HIT, 3, 0, 0, 0)),     # ≤ −1: exposed, +2 extra successes
    (2, 0, (L.OUT_MISS, 0, 0, 0, 0)),
    (-2, 0, (L.OUT_MISS, 0, 0, 0, 0)),    # exposure = hit_only: extras need a hit
    (-1, -3, (L.OUT_MISS, 0, 0, 0, 0)),
])
def test_v4_4_dodge_table(r, sa, want):
    """V-4.4 dodge results by its net successes; V-4.2: an attack with 0 successes misses."""
    F, S = pair()
    assert K.resolve(F, S, opts(), 0, 1, L.R_DODGE, sa, r) == want


@pytest.mark.parametrize("r,sa,want", [
    (-2, 0, (L.OUT_HIT, 2, 0, 0, 0)),     # the miss clipped at 0 plus 2: a hit
    (-1, -3, (L.OUT_HIT, 1, 0, 0, 0)),
    (-2, 1, (L.OUT_HIT, 3, 0, 0, 0)),
    (0, 0, (L.OUT_MISS, 0, 0, 0, 0)),
])
def test_v4_4_exposure_miss_becomes_hit(r, sa, want):
    """V-4.4 with ``exposure = miss_becomes_hit``: a dodge of ≤ −1 adds its negative to the attack's
    successes clipped at 0, so it can turn a miss into a hit."""
    F, S = pair()
    assert K.resolve(F, S, opts(exposure="miss_becomes_hit"), 0, 1, L.R_DODGE, sa, r) == want


def test_v4_5_extra_successes_by_policy():
    """V-4.5 extras after the first success, spent by the V-7.4 policies; bare hands (V-5.6) deal 1
    and, with crit "—", buy no trauma."""
    F, S = pair("swordsman", "brute")  # sword: damage 2, crit 2; brute armed
    s = 6  # 5 extras
    F[0, L.P_ATTACK_SPENDING] = L.AS_TRAUMA_FIRST
    assert K.spend(F, S, 0, 1, s) == (2 + 1, 2, 0, 0)
    F[0, L.P_ATTACK_SPENDING] = L.AS_DAMAGE_ONLY
    assert K.spend(F, S, 0, 1, s) == (2 + 5, 0, 0, 0)
    F[0, L.P_ATTACK_SPENDING] = L.AS_DISARM_FIRST
    assert K.spend(F, S, 0, 1, s) == (2 + 3, 0, 1, 0)
    S[1, L.S_DROPPED] = 1  # nothing to disarm
    assert K.spend(F, S, 0, 1, s) == (2 + 5, 0, 0, 0)
    F[0, L.P_ATTACK_SPENDING] = L.AS_INTIMIDATE
    assert K.spend(F, S, 0, 1, s) == (2, 0, 0, 5)
    F[0, L.P_ATTACK_SPENDING] = L.AS_TRAUMA_FIRST
    S[0, L.S_DROPPED] = 1  # bare hands: crit "—", damage 1
    assert K.spend(F, S, 0, 1, s) == (1 + 5, 0, 0, 0)


# -- V-5 armour, Health, Will ----------------------------------------------------------------------

def test_v5_1_health_and_will():
    f = Catalog.bundled().fighter("swordsman")
    assert (f.health, f.will) == (4 + 3, 2 + 2)


def test_v5_4_armour_dice_shield_piercing_and_reduction():
    """V-5.4 armour dice = class + quality; V-4.7 a held shield adds its class (``ignore`` and
    ``cover_like`` add nothing in melee); V-5.7 ``armour_piercing_dice`` for an armour-piercing
    weapon removes armour dice first, then shield dice."""
    F, S = pair("brute", "swordsman")  # swordsman: armoured shirt 3, archaic shield 2; great axe
    assert K.armour_dice(F, S, opts(), 0, 1) == (3, 2)
    assert K.armour_dice(F, S, opts(shield="ignore"), 0, 1) == (3, 0)
    assert K.armour_dice(F, S, opts(shield="cover_like"), 0, 1) == (3, 0)
    F[0, L.P_WEAPONS + L.W_PIERCING] = 1
    assert K.armour_dice(F, S, opts(armour_piercing_dice="4"), 0, 1) == (0, 1)
    assert K.armour_reduction(opts(), 3, 2) == 3
    assert K.armour_reduction(opts(armour_ones="net"), 3, 1) == 1
    assert K.armour_reduction(opts(armour_ones="net", one_value="-1"), 3, 1) == 2
    assert K.armour_reduction(opts(armour_ones="net"), 1, 2) == 0


def test_v5_4_armour_roll_degrades_the_class_that_rolled_the_one():
    F, S = pair("brute", "swordsman")
    S[1, L.S_ARMOUR], S[1, L.S_SHIELD] = 1, 1  # one armour die, one shield die
    cnt = np.zeros(L.n_counters(100), dtype=np.int64)
    idx = index_with_dice((20, 1), (20, (17, 18, 19)))
    assert K.armour_roll(F, S, opts(), state_at(idx), cnt, 0, 1) == 1
    assert (S[1, L.S_ARMOUR], S[1, L.S_SHIELD], cnt[L.C_DEGRADED + 1]) == (0, 1, 1)
    S[1, L.S_ARMOUR] = 1
    idx = index_with_dice((20, 20), (20, 1))
    assert K.armour_roll(F, S, opts(), state_at(idx), cnt, 0, 1) == 2
    assert (S[1, L.S_ARMOUR], S[1, L.S_SHIELD], cnt[L.C_DEGRADED + 1]) == (1, 0, 2)
    S[1, L.S_SHIELD] = 1
    assert K.armour_roll(F, S, opts(armour_ones="net"), state_at(idx), cnt, 0, 1) == 0  # 2 − 2


def test_v4_6_blow_cancelled_by_armour_keeps_will_damage():
    F, S = pair("brute", "swordsman")
    cnt = np.zeros(L.n_counters(100), dtype=np.int64)
    S[1, L.S_SHIELD] = 0  # armour shirt 3 only
    idx = index_with_dice((20, 20), (20, tuple(range(2, 17))), (20, tuple(range(2, 17))))  # armour removes 2
    stopped = K.blow(F, S, opts(), traumas(), state_at(idx), cnt, 0, 1, 2, 1, 1, 1)
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
    K.trauma(F, S, opts(), traumas(), state_at(idx), 1)
    assert check(S)


@pytest.mark.parametrize("name", ["rifleman", "gunner"])
def test_v8_4_drop_trauma_takes_the_gun_out_of_a_shooters_hand(name):
    """V-6.2, V-8.4 d66 13 (sprained wrist: DROP, "drops held items"; PEN(shoot, melee, −1)) on a
    shooter, its gun in hand: the gun falls (``HAND_GUN_DROPPED``), the rifleman's knife stays stowed
    (bit ``HAND_DROPPED`` clear: nothing to pick up for it), bare hands meanwhile (V-5.6); the
    gunner, with no melee weapon, loses its gun all the same."""
    F, S = pair("swordsman", name)
    assert S[1, L.S_DROPPED] == L.HAND_GUN
    K.trauma(F, S, opts(), traumas(), state_at(index_with_dice((6, 1), (6, 3))), 1)
    assert S[1, L.S_DROPPED] == L.HAND_GUN_DROPPED and S[1, L.S_PEN_SHOOT] == 1 and S[1, L.S_PEN_MELEE] == 1
    assert K.slot(F, S, 1) == L.SLOT_UNARMED


def test_v8_4_no2h_disarms_a_two_handed_weapon_for_good():
    F, S = pair("swordsman", "knight")  # greatsword
    S[1, L.S_NO2H] = 1
    assert K.slot(F, S, 1) == L.SLOT_UNARMED
    assert K.slot(F, S, 0) == L.SLOT_WEAPON


def test_v6_5_bleeding_and_v6_7_prone_and_v3_9_pickup_in_a_turn():
    """V-6.5 bleeding at turn start, falling by 1; V-3.10 standing up costs 1 AP; V-3.9 picking up
    costs 1 AP, and with ``pickup_and_ready`` readying (V-3.8) 1 more; V-5.2 Health 0 puts out."""
    F, S = pair("swordsman", "brute")
    F[0, L.P_T_KIND], F[0, L.P_T_KEEP] = L.K_NONE, 3  # turtle: nothing random happens
    cnt = np.zeros(L.n_counters(100), dtype=np.int64)
    st = state_at(0)
    S[0, L.S_BLEED], S[0, L.S_PRONE], S[0, L.S_DROPPED] = 3, 1, 1
    K.turn(F, S, opts(), traumas(), st, cnt, 0)
    assert S[0, L.S_HEALTH] == 7 - 3 and S[0, L.S_BLEED] == 2
    assert S[0, L.S_PRONE] == 0 and S[0, L.S_DROPPED] == 0 and S[0, L.S_AP] == 3 - 1 - 1
    S[0, L.S_DROPPED], S[0, L.S_AP] = 1, 3
    K.turn(F, S, opts(pickup="pickup_and_ready"), traumas(), st, cnt, 0)
    assert S[0, L.S_HEALTH] == 4 - 2 and S[0, L.S_AP] == 1 and S[0, L.S_DROPPED] == 0
    S[0, L.S_DROPPED], S[0, L.S_AP] = 1, 1
    K.turn(F, S, opts(pickup="pickup_and_ready"), traumas(), st, cnt, 0)  # bleed 1 → Health 1
    assert S[0, L.S_DROPPED] == 1 and S[0, L.S_HEALTH] == 1 and S[0, L.S_OUT] == 0
    K.turn(F, S, opts(), traumas(), st, cnt, 0)  # bleeding has run out
    assert S[0, L.S_HEALTH] == 1
    S[0, L.S_DMG_TURN] = 1
    K.turn(F, S, opts(), traumas(), st, cnt, 0)  # V-8.4 belly wound: 1 per turn → out
    assert S[0, L.S_OUT] == L.CAUSE_HEALTH + 1


def test_v6_11_every_check_costs_health():
    F, S = pair()
    S[0, L.S_DMGCHK] = 2
    K.strain(F, S, 0)
    assert S[0, L.S_HEALTH] == 7 - 2


def test_v6_1_both_out_at_once_is_a_draw():
    F, S = pair()
    cnt = np.zeros(L.n_counters(100), dtype=np.int64)
    put_out(F, S, 0, L.CAUSE_HEALTH)
    put_out(F, S, 1, L.CAUSE_HEALTH)
    assert K.finish(F, S, cnt, 3, 100) == 2
    assert cnt[L.C_DRAWS] == 1 and cnt[L.C_WINS:L.C_WINS + 2].sum() == 0
    F, S = pair()
    S[1, L.S_DEAD] = 1
    S[1, L.S_TOOK + L.LVL_WOUND] = 2
    put_out(F, S, 1, L.CAUSE_HEALTH)
    assert K.finish(F, S, cnt, 3, 100) == 0
    assert cnt[L.C_CAUSE + 4 + L.CAUSE_HEALTH] == 1 and cnt[L.C_DEATHS + 1] == 1 and cnt[L.C_ROUNDS + 3] == 1
    assert cnt[L.COUNTERS.rounds_a(100) + 3] == 1  # side a won in round 3
    lost = cnt[L.C_LOSER_WOUNDS:L.C_LOSER_WOUNDS + 2 * L.COUNTERS.loser_wounds_size].reshape(2, 5, -1)
    assert lost[0].sum() == 0 and lost[1, L.LVL_WOUND, 2] == 1 and lost[1, L.LVL_NONE, 0] == 1
    assert lost[1].sum() == 5


def test_v5_level_names():
    """Blow levels; V-5.3, V-12.3: a blow whose Will damage puts the target out is ``out`` even when
    the armour stopped its damage; V-16.2: a hit for 0 damage is ``none``."""
    assert K.level(True, 0, 1, False) == L.LVL_NONE
    assert K.level(True, 0, 1, True) == L.LVL_OUT
    assert K.level(False, 1, 0, True) == L.LVL_OUT
    assert K.level(False, 0, 0, False) == L.LVL_NONE
    assert K.level(False, 0, 1, False) == L.LVL_TRAUMA
    assert K.level(False, 1, 1, False) == L.LVL_TRAUMA
    assert K.level(False, 2, 0, False) == L.LVL_WOUND
    assert K.level(False, 1, 0, False) == L.LVL_SCRATCH


def test_v2_5_stealth_attack():
    F, S = pair("swordsman", "brute")
    S[0, L.S_STEALTH] = O.STEALTH_DICE
    assert K.attack_pool(F, S, 0, 1, L.K_STANDARD) == 8 + 3
    # a turtle that surprises with extra_attack still makes one free standard attack, once
    F[:, L.P_T_KIND], F[:, L.P_T_KEEP] = L.K_NONE, 3
    for surprise, want in (("none", 0), ("a", 1)):
        o = opts(round_cap="3", surprise=surprise, stealth_attack="extra_attack" if surprise != "none" else "none")
        cnt = KERNELS.duels(F, o, traumas(), np.uint64(1), np.int64(0), np.int64(200), 1, L.n_counters(3)).sum(axis=0)
        a_attacks = cnt[L.C_ATTACKS:L.C_ATTACKS + 5].sum()
        assert a_attacks == 200 * want
        assert cnt[L.C_ATTACKS + 5:L.C_ATTACKS + 10].sum() == 0


# -- V-2 action points and rounds, V-4.1 reactions, V-7 tactics in play ----------------------------

@pytest.mark.parametrize("name,kinds,left", [
    ("std_guard", [L.K_STANDARD], 1),
    ("quick3", [L.K_QUICK] * 3, 0),
    ("power", [L.K_POWER], 0),
    ("quick_guard2", [L.K_QUICK], 2),
    ("turtle", [], 3),
])
def test_v7_1_bundled_tactics_spend_a_round(name, kinds, left):
    """V-7.1 the bundled AP budgets, with a sword and 3 AP, at the V-2.2 costs (quick 1, standard 2,
    power — an extended action — 3): the attacks of one turn and the AP kept for reactions."""
    assert (K.KIND_COST[L.K_QUICK], K.KIND_COST[L.K_STANDARD], K.KIND_COST[L.K_POWER]) == (1, 2, 3)
    t = Catalog.bundled().tactics[name]
    F, S = pair("swordsman", "brute")
    F[0, L.P_T_KIND], F[0, L.P_T_KEEP] = L.KIND_CODES[t.attack], t.keep
    got = []
    while (kind := K.plan(F, S, 0)) != L.K_NONE:
        got.append(kind)
        S[0, L.S_AP] -= K.KIND_COST[kind]
    assert (got, S[0, L.S_AP]) == (kinds, left)


@pytest.mark.parametrize("ap", [3, 5])
def test_v2_1_v3_16_action_points_alone_limit_attacks(ap):
    """V-2.1: a fighter's action points (3, or what a GM character is given) come back every round;
    V-3.16: nothing but AP limits attacks — under ``quick3`` a fighter makes one quick attack per AP
    every round. The target (Health 20) cannot fall: a quick pool of 1 − 2 = −1 is a desperate 2d20
    (1 success only on 20 + 20, V-1.4) for 1 bare-handed damage, at most 3·5 damage in 3 rounds. So
    every duel runs to the round cap and is a draw (V-2.6), not counted among the rounds to decision."""
    a = fighter(tactic="quick3", action_points=ap)
    b = fighter(physique=10, agility=10, tactic="turtle")
    F, _ = pair(a, b)
    assert F[0, L.P_AP] == ap
    n, cap = 300, 3
    cnt = KERNELS.duels(F, opts(round_cap=str(cap)), traumas(), np.uint64(5), np.int64(0), np.int64(n), 1,
                       L.n_counters(cap)).sum(axis=0)
    assert cnt[L.C_ATTACKS:L.C_ATTACKS + 5].sum() == n * ap * cap
    assert cnt[L.C_ATTACKS + 5:L.C_ATTACKS + 10].sum() == 0
    assert cnt[L.C_DRAWS] == n and cnt[L.C_WINS:L.C_WINS + 2].sum() == 0
    assert cnt[L.C_ROUNDS:L.C_ROUNDS + cap + 1].sum() == 0


@pytest.mark.parametrize("cap", [1, 3])
def test_v7_6_duels_start_engaged(cap):
    """V-7.6: a duel starts engaged at point blank — nobody spends AP to close in: under ``std_guard``
    (V-7.1: one standard attack, 1 AP kept) each side attacks once in round 1 and once in every
    later round. Health raised to 100 and damage-only spending keep both standing, so the round
    cap (V-2.6) ends every duel in a draw."""
    F, _ = pair("swordsman", "brute")
    F[:, L.P_HEALTH] = 100  # at most 17 (sword) or 20 (great axe) damage per attack
    F[:, L.P_T_KIND], F[:, L.P_T_KEEP] = L.K_STANDARD, 1
    F[:, L.P_REACTION] = L.R_NONE
    F[:, L.P_ATTACK_SPENDING] = L.AS_DAMAGE_ONLY
    n = 300
    cnt = KERNELS.duels(F, opts(round_cap=str(cap)), traumas(), np.uint64(9), np.int64(0), np.int64(n), 1,
                       L.n_counters(cap)).sum(axis=0)
    assert cnt[L.C_ATTACKS:L.C_ATTACKS + 5].sum() == n * cap
    assert cnt[L.C_ATTACKS + 5:L.C_ATTACKS + 10].sum() == n * cap
    assert cnt[L.C_DRAWS] == n
    assert cnt[L.C_DAMAGE:L.C_DAMAGE + 2].min() > 0


def test_v2_6_the_fight_stops_when_a_side_is_out():
    """V-2.6: a fight ends as soon as a side is out. A ``quick3`` attacker with a quick pool of
    3 − 2 = 1 die against a Health-2 target that does not react: a 20 (2 successes: bare-handed
    damage 1 + 1 extra, V-4.5) puts the target out (V-5.2) with the first attack, and the other 2 AP
    stay unspent; three blank dice are three misses and all 3 AP spent."""
    a = fighter(physique=3, tactic="quick3")
    b = fighter(tactic="turtle")
    F, S = pair(a, b)
    cnt = np.zeros(L.n_counters(100), dtype=np.int64)
    K.turn(F, S, opts(), traumas(), state_at(index_with_dice((20, 20))), cnt, 0)
    assert (S[1, L.S_HEALTH], S[1, L.S_OUT], S[0, L.S_AP]) == (0, L.CAUSE_HEALTH + 1, 2)
    assert cnt[L.C_ATTACKS + L.OUT_HIT] == 1 and cnt[L.C_ATTACKS:L.C_ATTACKS + 5].sum() == 1
    F, S = pair(a, b)
    cnt[:] = 0
    K.turn(F, S, opts(), traumas(), state_at(index_with_dice(*[(20, BLANK)] * 3)), cnt, 0)
    assert (S[1, L.S_HEALTH], S[1, L.S_OUT], S[0, L.S_AP]) == (2, 0, 0)
    assert cnt[L.C_ATTACKS + L.OUT_MISS] == 3


@pytest.mark.parametrize("reaction,ap,reaction_dice,ap_after", [
    ("defend", 3, 3, 2),   # defence pool: physique 2 + melee 1
    ("dodge", 3, 4, 2),    # dodge pool: agility 4 + Проворство 0 − the attacker's modifier 0
    ("none", 3, 0, 3),
    ("defend", 0, 0, 0),   # no AP left: no reaction (V-2.3)
])
def test_v3_4_v3_5_v4_1_one_reaction_for_one_ap(reaction, ap, reaction_dice, ap_after):
    """V-3.4 defence and V-3.5 dodge are reactions costing 1 AP each (V-2.2), declared before the
    attacker rolls (V-4.1): paid even though the attack then misses; and one reaction per attack:
    the dice drawn are the attack pool (2) and that one reaction's pool, nothing else."""
    a = fighter(physique=1, melee=1)
    b = fighter(physique=2, agility=4, melee=1, reaction=reaction)
    F, S = pair(a, b)
    S[1, L.S_AP] = ap
    drawn = 2 + reaction_dice
    idx = index_with_dice(*[(20, BLANK)] * drawn)
    st = state_at(idx)
    cnt = np.zeros(L.n_counters(100), dtype=np.int64)
    K.attack(F, S, opts(), traumas(), st, cnt, 0, 1, L.K_STANDARD)
    assert S[1, L.S_AP] == ap_after
    assert cnt[L.C_ATTACKS + L.OUT_MISS] == 1
    assert [roll_die(st, 20) for _ in range(3)] == dice(idx, drawn + 3)[drawn:]


def test_v7_5_ap_spent_in_ones_turn_are_gone_for_reactions():
    """V-7.5 (V-2.3 refill at round start): a ``power`` fighter acting first spends all 3 AP and
    cannot react to the other's attack that round; acting second, it defends the first attack
    (1 AP), is left with 2 — too few for a power strike (3) — and strikes standard (2) instead.
    Weapons with crit "—" and Health 100 keep both standing whatever the dice."""
    w = {"damage": 1, "crit": 0}
    a = fighter(physique=3, melee=2, weapon=w, tactic="power", reaction="defend")
    b = fighter(physique=3, melee=2, weapon=w, tactic="std_guard", reaction="defend")
    for idx in range(10):
        st = state_at(idx)
        cnt = np.zeros(L.n_counters(100), dtype=np.int64)
        F, S = pair(a, b)
        S[:, L.S_HEALTH] = 100
        K.turn(F, S, opts(), traumas(), st, cnt, 0)  # a first: power strike, b defends
        K.turn(F, S, opts(), traumas(), st, cnt, 1)  # b: standard leaves 1 < keep, so one quick attack
        assert (S[0, L.S_AP], S[1, L.S_AP]) == (0, 3 - 1 - 1)
        assert cnt[L.C_ATTACKS + 5 + L.OUT_DEFENDED] == cnt[L.C_ATTACKS + 5 + L.OUT_DODGED] == 0
        assert cnt[L.C_ATTACKS + 5:L.C_ATTACKS + 10].sum() == 1
        F, S = pair(a, b)
        S[:, L.S_HEALTH] = 100
        K.turn(F, S, opts(), traumas(), st, cnt, 1)  # b first: standard, a defends
        assert (S[0, L.S_AP], S[1, L.S_AP]) == (2, 1)
        K.turn(F, S, opts(), traumas(), st, cnt, 0)  # a: 2 AP, a standard attack; b defends with its kept AP
        assert (S[0, L.S_AP], S[1, L.S_AP]) == (0, 0)
        assert cnt[L.C_ATTACKS:L.C_ATTACKS + 5].sum() == 2


def test_v5_2_v5_3_v6_6_health_or_will_at_zero_puts_out():
    """V-5.2 Health ≤ 0: unfit for combat and helpless (V-6.6), out of the fight; V-5.3 Will ≤ 0
    (here from intimidation, which rolls no armour): incapacitated, out by the digest's reading.
    The first cause is the one kept (V-6.1)."""
    F, S = pair()  # swordsman Health 7; brute Health 6, Will 5
    K.lose_health(F, S, 0, 6)
    assert (S[0, L.S_HEALTH], S[0, L.S_OUT]) == (1, 0)
    K.lose_health(F, S, 0, 1)
    assert S[0, L.S_OUT] == L.CAUSE_HEALTH + 1
    st = state_at(0)
    before = st.copy()
    cnt = np.zeros(L.n_counters(100), dtype=np.int64)
    K.blow(F, S, opts(), traumas(), st, cnt, 0, 1, 0, 0, 0, 3)
    assert (S[1, L.S_WILL], S[1, L.S_OUT]) == (2, 0)
    K.blow(F, S, opts(), traumas(), st, cnt, 0, 1, 0, 0, 0, 2)
    assert (S[1, L.S_WILL], S[1, L.S_HEALTH], S[1, L.S_OUT]) == (0, 6, L.CAUSE_WILL + 1)
    assert np.array_equal(st, before)
    K.lose_health(F, S, 1, 6)
    assert S[1, L.S_OUT] == L.CAUSE_WILL + 1


def test_v5_6_bare_hands_profile():
    """V-5.6 unarmed: modifier 0, initiative 0, damage 1, crit "—" (no trauma, no disarm), for a
    fighter without a weapon (brawler) and for one who dropped its weapon (swordsman)."""
    F, S = pair("brawler", "swordsman")  # brawler physique 4, melee 3, Проворство 3; swordsman 4, 3, 1
    S[1, L.S_DROPPED] = 1
    for i in range(2):
        assert K.slot(F, S, i) == L.SLOT_UNARMED
        assert [K.weapon(F, S, i, f) for f in (L.W_MOD, L.W_INIT, L.W_DAMAGE, L.W_CRIT)] == [0, 0, 1, 0]
    assert K.attack_pool(F, S, 0, 1, L.K_STANDARD) == 4 + 3
    assert K.attack_pool(F, S, 1, 0, L.K_STANDARD) == 4 + 3  # without the sword's +1
    K.roll_initiative(F, S, opts(), state_at(index_with_dice((20, 10), (20, 10))), True)
    assert (S[0, L.S_INIT_ROLL], S[1, L.S_INIT_ROLL]) == (10 + 0 + 3, 10 + 0 + 1)
    S[1, L.S_DROPPED] = 0
    F[0, L.P_ATTACK_SPENDING] = L.AS_DISARM_FIRST
    assert K.spend(F, S, 0, 1, 4) == (1 + 3, 0, 0, 0)


# -- V-1.6 prayer, V-3.17 GM characters' reactions --------------------------------------------------

def test_v1_6_prayer_app_rerolls_the_dice_without_a_success_for_will():
    """V-1.6 ``prayer = app``: a failed check (≤ 0) rerolls its dice without a success, after its own
    dice; it costs 1 Will plus 1 per 1 among the new dice, and needs Will ≥ 2; a success is kept."""
    F, S = pair()
    idx = index_with_dice((20, 5), (20, 1))
    new = dice(idx, 4)[2:]
    S[0, L.S_WILL] = 5
    o = opts(prayer="app")
    assert K.fighter_check(F, S, o, state_at(idx), 2, 0) == sum(K.successes(x, -2) for x in new)
    assert S[0, L.S_WILL] == 5 - 1 - new.count(1)
    S[0, L.S_WILL] = 1  # too little Will to pray: the check stands
    assert K.fighter_check(F, S, o, state_at(idx), 2, 0) == -2
    assert S[0, L.S_WILL] == 1
    assert K.fighter_check(F, S, opts(), state_at(idx), 2, 0) == -2  # prayer = off
    idx = index_with_dice((20, 17), (20, 1))  # net −1: app keeps the 17 and rerolls the 1
    S[0, L.S_WILL] = 5
    third = dice(idx, 3)[2]
    assert K.fighter_check(F, S, o, state_at(idx), 2, 0) == 1 + K.successes(third, -2)
    idx = index_with_dice((20, 18), (20, 5))  # a success: no prayer, no Will spent
    assert K.fighter_check(F, S, o, state_at(idx), 2, 0) == 1
    assert S[0, L.S_WILL] == 5 - 1 - (third == 1)


def test_v1_6_prayer_yze_rerolls_all_but_twenties_and_v3_17_tokens():
    """V-1.6 ``prayer = yze``: a failed check rerolls every die but the 20s, for no Will; a GM
    character under ``npc_reactions = tokens`` (V-3.17) pays a Chernobog token and needs one."""
    F, S = pair()
    idx = index_with_dice((20, 17), (20, 1))  # net −1: yze rerolls both (the 17 too)
    a, b = dice(idx, 4)[2:]
    want = K.successes(a, -2) + K.successes(b, -2)
    assert K.fighter_check(F, S, opts(prayer="yze"), state_at(idx), 2, 0) == want
    o = opts(prayer="yze", npc="a", npc_reactions="tokens", npc_tokens_a="0")
    assert K.fighter_check(F, S, o, state_at(idx), 2, 0) == -1  # no token left
    o = opts(prayer="yze", npc="a", npc_reactions="tokens", npc_tokens_a="1")
    assert K.fighter_check(F, S, o, state_at(idx), 2, 0) == want
    assert S[0, L.S_TOKENS_USED] == 1 and S[0, L.S_WILL] == 4
    idx = index_with_dice((20, 20), (20, 1))  # net 0: the 20 is kept
    third = dice(idx, 3)[2]
    assert K.fighter_check(F, S, opts(prayer="yze"), state_at(idx), 2, 1) == 2 + K.successes(third, -2)


def test_v3_17_gm_characters_react_for_tokens_or_never():
    """V-3.17: a GM character (option ``npc``, default side b) reacts freely (``free``), only while the GM
    has a Chernobog token for it (``tokens``: each defence or dodge costs 1 AP and 1 token), or never."""
    F, S = pair()
    assert K.choose_reaction(F, S, opts(), 0, 1, L.K_STANDARD) != L.R_NONE
    assert K.choose_reaction(F, S, opts(npc_reactions="none"), 0, 1, L.K_STANDARD) == L.R_NONE
    assert K.choose_reaction(F, S, opts(npc_reactions="none"), 1, 0, L.K_STANDARD) != L.R_NONE  # a is no NPC
    assert K.choose_reaction(F, S, opts(npc_reactions="none", npc="none"), 0, 1, L.K_STANDARD) != L.R_NONE
    o = opts(npc_reactions="tokens", npc_tokens_b="1")
    assert K.choose_reaction(F, S, o, 0, 1, L.K_STANDARD) != L.R_NONE
    K.take_reaction(F, S, o, 1)
    assert (S[1, L.S_AP], S[1, L.S_TOKENS_USED]) == (2, 1)
    assert K.choose_reaction(F, S, o, 0, 1, L.K_STANDARD) == L.R_NONE  # AP left, no token
    K.take_reaction(F, S, opts(), 1)  # free: AP only
    assert (S[1, L.S_AP], S[1, L.S_TOKENS_USED]) == (1, 1)


def test_v6_9_immobilised_breaks_free_with_a_standard_action():
    """V-6.9: the sides option ``immobilised`` names start immobilised (attacks at them +2 dice); in its
    turn such a fighter with 2 AP spends a standard action on an agility check (Ловкость + Проворство)
    and is free with ≥ 1 success; it then attacks with what AP are left."""
    f = fighter(physique=2, agility=1, melee=1)  # agility check pool 1; attack pool 3 (std_guard)
    p = RULESET.prepare(f, f, options={"immobilised": "a"})
    F = p.compiled.fighters
    o = p.compiled.options
    S = np.zeros((2, L.NS), dtype=np.int64)
    K.reset(F, S)
    K.immobilise(F, S, o)
    assert (S[0, L.S_IMMOBILISED], S[1, L.S_IMMOBILISED]) == (1, 0)
    assert K.attack_pool(F, S, 1, 0, L.K_STANDARD) == 3 + 2
    assert K.attack_pool(F, S, 0, 1, L.K_STANDARD) == 3
    cnt = np.zeros(p.compiled.n_counters, dtype=np.int64)
    idx = index_with_dice((20, BLANK))  # the check fails: still immobilised, 1 AP left, no attack
    K.turn(F, S, o, traumas(), state_at(idx), cnt, 0)
    assert (S[0, L.S_IMMOBILISED], S[0, L.S_AP]) == (1, 1)
    assert cnt[L.C_ATTACKS:L.C_ATTACKS + 5].sum() == 0
    K.reset(F, S)
    K.immobilise(F, S, o)
    F[0, L.P_AP] = S[0, L.S_AP] = 4  # 4 AP: free on a 17, then a quick attack (std_guard keeps 1 AP)
    idx = index_with_dice((20, 17))
    K.turn(F, S, o, traumas(), state_at(idx), cnt, 0)
    assert (S[0, L.S_IMMOBILISED], S[0, L.S_AP]) == (0, 1)
    assert cnt[L.C_ATTACKS:L.C_ATTACKS + 5].sum() == 1


def test_battle_cry_influence_successes_are_will_damage():
    """Battle cry (seed 41–43: "the number of successes equals the strength of the effect on Will";
    seed 62: a standard action): the tactic ``battle_cry`` first spends 2 AP on an Influence check of
    Эмпатия + Влияние (less PEN(infl), V-6.4), its successes are Will damage (Will ≤ 0 puts the target
    out, V-5.3), then makes a quick attack with the last AP."""
    f = fighter(physique=2, melee=1, skills={"melee": 1, "nimbleness": 0, "influence": 1}, tactic="battle_cry")
    g = fighter(physique=2, melee=1)
    p = RULESET.prepare(f, g)
    F, o = p.compiled.fighters, p.compiled.options
    assert F[0, L.P_CRY_POOL] == 2 + 1 and F[0, L.P_T_CRY] == 1 and F[1, L.P_T_CRY] == 0
    S = np.zeros((2, L.NS), dtype=np.int64)
    K.reset(F, S)
    cnt = np.zeros(p.compiled.n_counters, dtype=np.int64)
    idx = index_with_dice((20, 20), (20, 17), (20, 5))  # 3 successes: Will 4 → 1
    K.turn(F, S, o, traumas(), state_at(idx), cnt, 0)
    assert S[1, L.S_WILL] == 4 - 3 and S[1, L.S_OUT] == 0
    assert S[0, L.S_AP] == 0 and cnt[L.C_ATTACKS:L.C_ATTACKS + 5].sum() == 1  # the quick attack
    K.refill(F, S, 0)
    idx = index_with_dice((20, 18), (20, BLANK), (20, BLANK))  # 1 success: Will 1 → 0, out
    K.turn(F, S, o, traumas(), state_at(idx), cnt, 0)
    assert S[1, L.S_WILL] == 0 and S[1, L.S_OUT] == L.CAUSE_WILL + 1
    assert cnt[L.C_ATTACKS:L.C_ATTACKS + 5].sum() == 1  # the fight is over: no attack
    K.reset(F, S)
    K.trauma(F, S, o, traumas(), state_at(index_with_dice((6, 2), (6, 1))), 0)  # 21 broken nose: infl −2
    assert S[0, L.S_PEN_INFL] == 2
    S[0, L.S_AP] = 3
    K.battle_cry(F, S, o, state_at(index_with_dice((20, 20), (20, 20))), 0)  # pool 3 − 2 = 1 die: a 20
    assert S[1, L.S_WILL] == 4 - 2 and S[0, L.S_AP] == 1


def test_v14_9_v14_2_one_token_pool_a_side_and_reactions_drain_the_defender():
    """V-14.9, V-3.17: the GM's Chernobog tokens are one pool per side: a token spent on one fighter of
    side b leaves none for the other (``npc_tokens_b = 1``); V-14.2: each reaction costs the defender
    1 AP whoever attacks it, so two attackers drain one defender."""
    from brutal_sim.rulesets.vereteno.compile import compile_sides

    cat = RULESET.catalog()
    F = compile_sides([cat.fighter("swordsman"), cat.fighter("duelist")],
                      [cat.fighter("brute"), cat.fighter("militia")])
    S = np.zeros((4, L.NS), dtype=np.int64)
    K.reset(F, S)
    o = opts(npc_reactions="tokens", npc_tokens_b="1")
    assert K.choose_reaction(F, S, o, 0, 2, L.K_STANDARD) != L.R_NONE
    assert K.choose_reaction(F, S, o, 1, 3, L.K_STANDARD) != L.R_NONE
    K.take_reaction(F, S, o, 2)  # the brute reacts: side b's one token is spent
    assert S[1, L.S_TOKENS_USED] == 1 and S[2, L.S_AP] == 2
    assert K.choose_reaction(F, S, o, 1, 3, L.K_STANDARD) == L.R_NONE  # the militia has AP, its side no token
    assert K.choose_reaction(F, S, o, 2, 0, L.K_STANDARD) != L.R_NONE  # side a is no GM character
    K.take_reaction(F, S, opts(), 0)  # two attackers at the swordsman: 3 AP → 1
    K.take_reaction(F, S, opts(), 0)
    assert S[0, L.S_AP] == 1
