"""The grapple (W-12, W-3.17, W-6.3) and the tactic ``grappler`` (W-8.13): exact probabilities worked
out here (the attempt by hand, the opposed S tests of breaking free and hurting by enumerating every
pair of d100 rolls under W-1.4) against single turns of the kernel, sampled within 4σ; the state
changes of a grapple's start and end, step by step."""

from __future__ import annotations

import numpy as np
import pytest
from wfrp2e_util import fighter, prepared, state, within

from brutal_sim import api
from brutal_sim.core.battle import B_ENGAGERS, B_FOE
from brutal_sim.core.errors import DataError
from brutal_sim.rulesets.wfrp2e import RULESET, layout as L
from brutal_sim.rulesets.wfrp2e.kernel import attack_target, availability, reset, take_damage, turn
from brutal_sim.toolbox.rng import seed_duel

N = 20_000

WRESTLER = dict(ws=40, s=40, ag=30, w=12, talents=["wrestling"], tactic="grappler")


def _turn(p, S, i: int, seed: int) -> np.ndarray:
    """Fighter i's turn (the kernel's ``turn``) from ``S`` with the random stream of ``(seed, 0)``;
    the counters it adds."""
    cnt = np.zeros(p.compiled.n_counters, dtype=np.int64)
    st = np.empty(4, dtype=np.uint64)
    seed_duel(st, np.uint64(seed), 0)
    turn(p.compiled.fighters, S, p.compiled.options, *p.compiled.tables, st, cnt, i)
    return cnt


def _hold(S, a: int, d: int) -> None:
    """a holds d (W-12.2)."""
    S[a, L.S_GRAPPLE], S[a, L.S_HOLDING] = d + 1, 1
    S[d, L.S_GRAPPLE], S[d, L.S_HOLDING] = a + 1, 0


def _outcomes(cnt: np.ndarray, side: int) -> np.ndarray:
    return cnt[L.C_ATTACKS + side * L.N_OUTCOMES:L.C_ATTACKS + (side + 1) * L.N_OUTCOMES]


def _p_opposed(t_init: int, t_def: int, rule: str = "official_like") -> float:
    """W-1.4: the initiator's chance to win an opposed test, every pair of d100 rolls enumerated: a
    success beats a failure; two successes: more degrees, then (official_like, both_fail_reroll) the
    higher target, equal targets again, or (defender_wins_ties) the defender; two failures: nobody
    (again with both_fail_reroll)."""
    win = again = 0
    for ri in range(1, 101):
        for rd in range(1, 101):
            si, sd = ri <= t_init, rd <= t_def
            if si and sd:
                di, dd = (t_init - ri) // 10, (t_def - rd) // 10
                if di != dd:
                    win += di > dd
                elif rule == "defender_wins_ties":
                    pass
                elif t_init != t_def:
                    win += t_init > t_def
                else:
                    again += 1
            elif si or sd:
                win += si
            elif rule == "both_fail_reroll":
                again += 1
    return win / (10_000 - again)


# -- the attempt (W-12.1, W-12.2) --------------------------------------------------------------------

#: the target: Ag 40 and Dodge Blow 35 in a sleeved mail shirt (−10 Ag, W-9.2): dodge 25, Ag test 30
TARGET = dict(ws=40, ag=40, dodge=35, armour=["sleeved_mail_shirt"])


@pytest.mark.parametrize("reaction,talents,street,to_hit,p_dodge", [
    ("allowed", ["wrestling"], "ignore", 60, 0.25),
    ("none", ["wrestling"], "ignore", 60, 0.0),
    ("allowed", [], "ignore", 50, 0.25),
    ("allowed", ["wrestling", "street_fighting"], "on", 70, 0.25),
    ("allowed", ["wrestling", "street_fighting"], "ignore", 60, 0.25),
])
def test_w12_1_w12_2_attempt_grapples_with_the_chance_worked_by_hand(reaction, talents, street, to_hit, p_dodge):
    """W-12.1, W-12.2, W-3.17, W-8.13: an engaged grappler aims (+10, W-3.2) and attempts, an unarmed
    attack (W-4.9) at WS 40 + Wrestling 10 (+ Street Fighting 10 under its option); a hit the target
    does not dodge (``grapple_reaction = allowed``: Dodge Blow 35 − 10 for its armour) makes it test Ag
    40 − 10 (W-9.2 armour penalty); a failure: grappled. P = to-hit × (1 − dodge) × (1 − 0.30), and
    the attempt counts as an attack: miss, dodged, hit."""
    p = prepared(fighter(**{**WRESTLER, "talents": talents}), fighter(**TARGET), grapple_reaction=reaction,
                 street_fighting=street)
    held = 0
    out = np.zeros(L.N_OUTCOMES, dtype=np.int64)
    for seed in range(N):
        S = state(p)
        cnt = _turn(p, S, 0, seed)
        out += _outcomes(cnt, 0)
        held += S[1, L.S_GRAPPLE] == 1 and S[0, L.S_GRAPPLE] == 2 and S[0, L.S_HOLDING] == 1
        assert cnt[L.C_DAMAGE + 1] == 0  # W-12.1: instead of damage
    h = to_hit / 100
    assert out.sum() == N
    assert within(1 - h, out[L.OUT_MISS] / N, N)
    assert within(h * p_dodge, out[L.OUT_DODGED] / N, N)
    assert within(h * (1 - p_dodge), out[L.OUT_HIT] / N, N)
    assert within(h * (1 - p_dodge) * (1 - 0.30), held / N, N)


@pytest.mark.parametrize("via,to_hit,p_held", [("standard_or_charge", 0.60, 0.60 * 0.75 * 0.70),
                                               ("standard", 0.50, 0.0)])
def test_w12_1_grapple_via_a_charge_attempts_at_plus_10(via, to_hit, p_held):
    """W-12.1 ``grapple_via``, W-8.13: from 8 yards the grappler closes as ``rush`` with a charge (W-3.3,
    +10): under ``standard_or_charge`` its one attack is an attempt at 40 + 10 + Wrestling 10; under
    ``standard`` it strikes at 40 + 10 (d10 + SB − 4), no grapple."""
    p = prepared(fighter(**WRESTLER), fighter(**TARGET), start_distance=8, grapple_via=via)
    held = hits = damage = 0
    for seed in range(N):
        S = state(p)
        cnt = _turn(p, S, 0, seed)
        assert S[0, L.S_X] == 6  # charged, adjacent
        held += S[1, L.S_GRAPPLE] != 0
        hits += _outcomes(cnt, 0)[L.OUT_HIT]
        damage += cnt[L.C_DAMAGE + 1]
    assert within(p_held, held / N, N)
    assert within(to_hit * 0.75, hits / N, N)
    assert (damage == 0) == (via == "standard_or_charge")


@pytest.mark.parametrize("hands,drop,mod", [("any", "free", 10), ("free", "free", 10), ("free", "half", 0)])
def test_w12_1_grapple_hands_free_drops_the_items_first(hands, drop, mod):
    """W-12.1 ``grapple_hands``, W-8.13, W-7.12 ``drop``: an armed grappler attempts with its items in
    hand (any), or drops both first and aims (drop free) or attempts unaimed (drop a half action);
    what it dropped it never readies again (W-3.11 not played for it)."""
    a = fighter(**{**WRESTLER, "main_hand": "hand_weapon", "off_hand": "shield"})
    p = prepared(a, fighter(**TARGET), grapple_hands=hands, drop=drop)
    held = 0
    for seed in range(N // 4):
        S = state(p)
        _turn(p, S, 0, seed)
        held += S[1, L.S_GRAPPLE] != 0
        assert (S[0, L.S_HELD_MAIN], S[0, L.S_HELD_OFF]) == ((1, 1) if hands == "any" else (0, 0))
        if hands == "free":  # a later turn: nothing readied
            S[:, L.S_GRAPPLE] = S[:, L.S_HOLDING] = 0
            _turn(p, S, 0, seed + N)
            assert S[0, L.S_HELD_MAIN] == 0 and S[0, L.S_HELD_OFF] == 0
    assert within((50 + mod) / 100 * 0.75 * 0.70, held / (N // 4), N // 4)


# -- held and grappling (W-12.3 – W-12.5) ------------------------------------------------------------

@pytest.mark.parametrize("rule", ["official_like", "both_fail_reroll", "defender_wins_ties"])
def test_w12_4_break_free_is_an_opposed_s_test_with_wrestling(rule):
    """W-12.4, W-1.4: the held fighter's turn is one full action, breaking free: an opposed S test, it
    the initiator (S 45) against its grappler's S 40 + Wrestling 10 (talents.db line 60); a win frees
    both, anything else leaves it held; it attacks nothing (W-12.3)."""
    p = prepared(fighter(**WRESTLER), fighter(ws=40, s=45, main_hand="hand_weapon"), opposed=rule)
    freed = 0
    for seed in range(N):
        S = state(p)
        _hold(S, 0, 1)
        cnt = _turn(p, S, 1, seed)
        assert _outcomes(cnt, 1).sum() == 0 and cnt[L.C_DAMAGE] == 0
        free = S[1, L.S_GRAPPLE] == 0
        assert free == (S[0, L.S_GRAPPLE] == 0 and S[0, L.S_HOLDING] == 0)
        freed += free
    assert within(_p_opposed(45, 50, rule), freed / N, N)


def _hurt_moments(k: int, fury: bool) -> tuple[float, float]:
    """Mean and variance of max(0, d10 + k) where a 10 adds d10s while they show 10 when ``fury``."""
    pmf: dict[int, float] = {}
    for d in range(1, 10):
        pmf[max(0, d + k)] = pmf.get(max(0, d + k), 0.0) + 0.1
    mass, total = 0.1, 10
    for _ in range(12 if fury else 0):
        for d in range(1, 10):
            pmf[total + d + k] = pmf.get(total + d + k, 0.0) + mass / 10
        mass, total = mass / 10, total + 10
    pmf[total + k] = pmf.get(total + k, 0.0) + mass
    mean = sum(v * q for v, q in pmf.items())
    return mean, sum((v - mean) ** 2 * q for v, q in pmf.items())


@pytest.mark.parametrize("fury,street,k", [
    ("none", "ignore", -5),  # d10 + SB 4 − 4 − TB 3 − 2 × AP 1
    ("none", "on", -4),  # Street Fighting +1
    ("auto", "ignore", -5),
])
def test_w12_5_hurt_wins_an_opposed_s_test_and_deals_unarmed_damage(fury, street, k):
    """W-12.5, W-4.9, W-1.4: the grappler's turn is a hurt: opposed S (its S 40 against 45; Wrestling
    counts in breaking free only), a win deals d10 + SB − 4 (Street Fighting +1 under its option) −
    TB 3 − AP doubled (a leather jerkin on the body: 2), ``grapple_location = body``, Ulric's Fury
    without a test under ``grapple_fury = auto`` (counted), none under ``none``; a loss: no damage,
    still held."""
    a = fighter(**{**WRESTLER, "talents": ["wrestling", "street_fighting"]})
    b = fighter(ws=40, s=45, t=30, w=100, armour=["leather_jerkin"])
    p = prepared(a, b, grapple_location="body", grapple_fury=fury, street_fighting=street)
    won = damage = fury_hits = 0
    for seed in range(N):
        S = state(p)
        _hold(S, 0, 1)
        cnt = _turn(p, S, 0, seed)
        assert S[0, L.S_GRAPPLE] == 2 and S[1, L.S_GRAPPLE] == 1  # still held either way
        blows = cnt[L.C_WOUNDS + L.N_LEVELS * L.N_ZONES:L.C_WOUNDS + 2 * L.N_LEVELS * L.N_ZONES]
        won += blows.sum()
        assert blows.sum() == blows.reshape(L.N_LEVELS, L.N_ZONES)[:, L.ZONE_BODY].sum()
        damage += cnt[L.C_DAMAGE + 1]
        fury_hits += cnt[L.C_FURY]
        assert _outcomes(cnt, 0).sum() == 0  # a hurt is no attack (no to-hit test)
    p_win = _p_opposed(40, 45)
    assert within(p_win, won / N, N)
    mean, var = _hurt_moments(k, fury == "auto")
    assert won and abs(damage / won - mean) < 4 * np.sqrt(var / won)
    assert within(p_win * 0.1 if fury == "auto" else 0.0, fury_hits / N, N)


def test_w12_5_hurt_location_rolls_a_fresh_d100():
    """W-12.5 ``grapple_location = roll``: the hurt's location is a fresh d100 read as W-4.2 (head 15 %,
    arms 40 %, body 25 %, legs 20 %)."""
    p = prepared(fighter(**WRESTLER), fighter(ws=40, s=30, w=100))
    zones = np.zeros(L.N_ZONES)
    for seed in range(N):
        S = state(p)
        _hold(S, 0, 1)
        cnt = _turn(p, S, 0, seed)
        zones += cnt[L.C_WOUNDS + L.N_LEVELS * L.N_ZONES:L.C_WOUNDS + 2 * L.N_LEVELS * L.N_ZONES] \
            .reshape(L.N_LEVELS, L.N_ZONES).sum(axis=0)
    n = int(zones.sum())
    assert n > 0.3 * N
    for zone, share in ((L.ZONE_HEAD, 0.15), (L.ZONE_ARM, 0.40), (L.ZONE_BODY, 0.25), (L.ZONE_LEG, 0.20)):
        assert within(share, zones[zone] / n, n)


def test_w12_3_w6_3_in_a_grapple_no_reactions_and_plus_20_from_outside():
    """W-12.3, W-6.3, W-13.6: a fighter in a grapple (either role) neither parries nor dodges, and a
    melee attack at it gets +20 WS; out of it, both come back (W-12.6)."""
    p = prepared(fighter(ws=40, main_hand="hand_weapon", off_hand="shield"),
                 fighter(ws=40, dodge=40, main_hand="hand_weapon", off_hand="shield"))
    F, o = p.compiled.fighters, p.compiled.options
    S = state(p)
    base = attack_target(F, S, o, 0, L.SLOT_MAIN, 0)
    assert availability(F, S, o, 1, L.REACT_PARRY) == 1 and availability(F, S, o, 1, L.REACT_DODGE) == 1
    for holder, held in ((0, 1), (1, 0)):
        _hold(S, holder, held)
        assert attack_target(F, S, o, 0, L.SLOT_MAIN, 0) == base + 20
        assert availability(F, S, o, 1, L.REACT_PARRY) == 0 and availability(F, S, o, 1, L.REACT_DODGE) == 0
        S[:, L.S_GRAPPLE] = S[:, L.S_HOLDING] = 0
        assert attack_target(F, S, o, 0, L.SLOT_MAIN, 0) == base


def test_w12_2_w12_3_one_grappler_per_target_in_a_fight_of_several():
    """W-12.2, W-12.3, W-8.13, W-13.6: a second grappler whose foe is already held attacks it as its
    ``melee_tactic`` (guarded, unarmed) from outside: WS 36 + 20, and its Dodge Blow 50 does not
    answer; the foe stays the first grappler's."""
    fight = RULESET.prepare_fight(["wrestler", "wrestler"], [fighter(ws=35, dodge=50, w=100)])
    F, o = fight.compiled.fighters, fight.compiled.options
    hits = 0
    for seed in range(N):
        S = np.zeros((3, L.NS), dtype=np.int64)
        reset(F, S, o)
        S[0, B_FOE] = S[1, B_FOE] = 2
        S[2, B_FOE] = 0
        S[2, B_ENGAGERS], S[0, B_ENGAGERS] = 2, 1
        S[:, L.S_ENGAGED] = 1
        _hold(S, 0, 2)
        cnt = np.zeros(fight.compiled.n_counters, dtype=np.int64)
        st = np.empty(4, dtype=np.uint64)
        seed_duel(st, np.uint64(seed), 0)
        turn(F, S, o, *fight.compiled.tables, st, cnt, 1)
        out = _outcomes(cnt, 0)
        assert out.sum() == 1 and out[L.OUT_DODGED] == 0
        assert S[2, L.S_GRAPPLE] == 1 and S[1, L.S_GRAPPLE] == 0
        hits += out[L.OUT_HIT]
    assert within(0.56, hits / N, N)


# -- the end of a grapple (W-12.6) -------------------------------------------------------------------

def test_w12_6_a_grappler_that_cannot_take_its_full_action_releases():
    """W-12.6: stunned, the grappler releases and loses its turn; prone, it releases, stands up (a half
    action) and attempts again with the other (unaimed); at its ``flee_at`` it releases and flees, and
    the freed foe takes its free attack (W-3.16, W-13.4)."""
    p = prepared(fighter(**WRESTLER), fighter(**TARGET))
    S = state(p)
    _hold(S, 0, 1)
    S[0, L.S_STUN] = 1
    cnt = _turn(p, S, 0, 1)
    assert (S[0, L.S_GRAPPLE], S[1, L.S_GRAPPLE], S[0, L.S_STUN]) == (0, 0, 0) and _outcomes(cnt, 0).sum() == 0
    for seed in range(20):
        S = state(p)
        _hold(S, 0, 1)
        S[0, L.S_PRONE] = 1
        cnt = _turn(p, S, 0, seed)
        assert S[0, L.S_PRONE] == 0 and _outcomes(cnt, 0).sum() == 1 and cnt[L.C_DAMAGE + 1] == 0
    fleer = fighter(**{**WRESTLER, "flee_at": 12})
    p = prepared(fleer, fighter(ws=40, main_hand="hand_weapon"))
    S = state(p)
    _hold(S, 0, 1)
    cnt = _turn(p, S, 0, 3)
    assert S[0, L.S_OUT] == L.CAUSE_FLED + 1 and S[1, L.S_GRAPPLE] == 0 and _outcomes(cnt, 1).sum() == 1


def test_w12_6_a_fighter_out_ends_its_grapple():
    """W-12.6, W-5.3: a critical that takes the held fighter (or the grappler) out clears both sides
    of the grapple, so the other is free at once (reactions back, no +20)."""
    p = prepared(fighter(**WRESTLER), fighter(**TARGET))
    F, o = p.compiled.fighters, p.compiled.options
    for victim in (0, 1):
        S = state(p)
        _hold(S, 0, 1)
        st = np.empty(4, dtype=np.uint64)
        seed_duel(st, np.uint64(1), 0)
        cnt = np.zeros(p.compiled.n_counters, dtype=np.int64)
        take_damage(F, S, o, *p.compiled.tables, st, cnt, 1 - victim, victim, L.SLOT_FISTS, L.LOC_BODY, 50)
        assert S[victim, L.S_OUT] != 0
        assert S[0, L.S_GRAPPLE] == S[1, L.S_GRAPPLE] == S[0, L.S_HOLDING] == 0


# -- the tactic, the talent, the measure ---------------------------------------------------------------

def test_w8_13_grappler_in_the_tactic_list_and_the_wrestler_fighter():
    """W-8.13: ``grappler`` is a tactic (its rule listed); Wrestling compiles to its fighter column;
    the bundled ``wrestler`` is the brawler's profile with Wrestling and the tactic grappler (W-9.5);
    a grappler carries no missile weapon."""
    assert L.TACTIC_RULES["grappler"] == "W-8.13"
    assert ("grappler", "W-8.13") in RULESET.listings()["tactics"].rows
    w, b = RULESET.load_fighter("wrestler"), RULESET.load_fighter("brawler")
    assert w.tactic == "grappler" and "wrestling" in w.talents
    assert {k: v for k, v in w.model_dump().items() if k not in ("name", "description", "talents", "tactic",
                                                                  "talent_items")} == \
        {k: v for k, v in b.model_dump().items() if k not in ("name", "description", "talents", "tactic",
                                                              "talent_items")}
    row = prepared("wrestler", "brawler").compiled.fighters
    assert row[0, L.P_WRESTLING] == 1 and row[1, L.P_WRESTLING] == 0
    assert row[0, L.P_TACTIC] == L.T_GRAPPLER
    with pytest.raises(DataError, match="grappler"):
        fighter(tactic="grappler", missile="shortbow", bs=30)


def test_w12_1_attack_refuses_a_grappler():
    """W-12.1: a grapple attempt deals no damage, so ``attack`` measures no grappler (one line naming
    the tactic); a grappler as side b is measured as any fighter (the orc's WS 35, its Dodge Blow 35)."""
    with pytest.raises(DataError, match="tactic 'grappler' makes grapple attempts"):
        api.attack("wrestler", "orc", ruleset="wfrp2e")
    r = api.attack("orc", "wrestler", ruleset="wfrp2e").to_dict()
    assert r["p_hit"] == pytest.approx(0.35 * 0.65)
