"""Vereteno duels at a distance (V-10, V-11, V-12, V-15, V-16): bands, moves, the shooting pool and
its modifiers on hand-made states, reload triggers, the burst's continuation dice exactly, exact
single shots against hand-computed probabilities and against sampling within 4σ, the kernels at a
distance agreeing with the melee kernels at point blank, and bad input.

Every duel and sampled attack here runs the one compiled driver of the duels at a distance
(``kernel.drivers._run`` with the flag ``ranged``) on small n.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from vereteno_util import fighter, opened, prepared

from brutal_sim import api
from brutal_sim.core.errors import DataError
from brutal_sim.core.ruleset import KernelSet
from brutal_sim.rulesets.vereteno import KERNELS, RULESET, layout as L
from brutal_sim.rulesets.vereteno.exact import continuation_pmf
from brutal_sim.rulesets.vereteno.kernel import (
    BAND_OUT,
    after_shot,
    band,
    brace,
    drop,
    engaged,
    in_reach,
    move_metres,
    plan_shot,
    range_dice,
    ranged_start,
    ranged_turn,
    reach,
    reload_gun,
    retreat,
    sector_shot,
    set_aside,
    shot_armour_dice,
    shot_pool,
    shot_spend,
    slot,
    step,
    throw_cost,
)
from brutal_sim.rulesets.vereteno.options import compile_options
from brutal_sim.toolbox.rng import seed_duel


def opts(**kw: str) -> np.ndarray:
    return compile_options(RULESET.default_options().with_overrides(kw, "test"))




def at(S: np.ndarray, d: int) -> np.ndarray:
    S[0, L.S_X], S[1, L.S_X] = 0, d
    return S


def close_in(F, S, opts, i) -> bool:
    """V-15.4 ``close_in`` as the turn at a distance plays it: moves while AP last, not engaged."""
    while S[i, L.S_AP] >= 1 and abs(S[0, L.S_X] - S[1, L.S_X]) > L.REACH:
        step(F, S, opts, i)
    return bool(abs(S[0, L.S_X] - S[1, L.S_X]) <= L.REACH)


# -- V-10 distance and movement ------------------------------------------------------------------

def test_v10_1_and_v16_1_bands_are_upper_bounds_in_metres():
    """V-10.1: d ≤ 1 point blank, ≤ 2 close, ≤ 20 medium, ≤ 100 long, ≤ 1000 extreme, beyond none."""
    cases = {0: 0, 1: 0, 2: 1, 3: 2, 20: 2, 21: 3, 100: 3, 101: 4, 1000: 4, 1001: BAND_OUT}
    assert {d: band(d) for d in cases} == cases


def test_v10_6_v10_3_opening_places_the_sides_on_the_line_with_cover_and_gun_in_hand():
    """V-10.6, V-10.3: side b ``start_distance`` metres from side a; each behind its cover (V-11.17);
    a shooting tactic starts with its gun in hand, a melee one with its melee weapon (V-10.9); the
    gun-holder's melee profile is bare hands (V-11.22), its initiative term the gun's (V-11.1)."""
    p = prepared(fighter(gun="kosin_rifle", weapon="knife", tactic="aimed", cover=3), "swordsman", start_distance="30")
    S = opened(p)
    assert (S[0, L.S_X], S[1, L.S_X]) == (0, 30)
    assert (S[0, L.S_COVER], S[1, L.S_COVER]) == (3, 0)
    assert (S[0, L.S_DROPPED], S[1, L.S_DROPPED]) == (L.HAND_GUN, 0)
    assert slot(p.compiled.fighters, S, 0) == L.SLOT_UNARMED and slot(p.compiled.fighters, S, 1) == L.SLOT_WEAPON
    assert p.compiled.kernels.variant == KernelSet(ranged=True)
    assert RULESET.prepare("swordsman", "brute").compiled.kernels.variant == KernelSet()


@pytest.mark.parametrize("d, moves, engaged",
                         [(30, 3, True), (31, 3, True), (32, 3, False), (12, 2, True), (2, 1, True)])
def test_v10_4_v15_4_closing_in_moves_speed_metres_a_move_to_point_blank(d, moves, engaged):
    """V-10.4 (= V-3.7), V-10.2, V-15.4: a move costs 1 AP and covers up to the speed (10 m), never nearer
    than point blank; ``close_in`` moves while AP last and it is not engaged: from 30 m three moves
    (30 → 20 → 10 → 1), from 32 m three are not enough. A move forfeits cover (V-11.17)."""
    p = prepared("swordsman", fighter(cover=4), start_distance=str(d))
    S = opened(p)
    S[1, L.S_AP] = 3
    assert close_in(p.compiled.fighters, S, p.compiled.options, 1) is engaged
    assert (S[1, L.S_AP], abs(S[1, L.S_X] - S[0, L.S_X])) == (3 - moves, 1 if engaged else d - 30)
    assert S[1, L.S_COVER] == 0


# -- V-11 shooting ---------------------------------------------------------------------------------

def test_v16_1_worked_example_aimed_kosin_rifle_at_50_m_rolls_9_dice():
    """V-16.1, V-11.1, V-11.4: Ловкость 4 + Стрельба 3 + Kosin rifle +1 + aimed +2 + long band −1 = 9."""
    p = prepared("rifleman", "swordsman", start_distance="50")
    S = opened(p)
    assert plan_shot(p.compiled.fighters, S, 0) == L.SH_AIMED
    assert shot_pool(p.compiled.fighters, S, p.compiled.options, 0, L.SH_AIMED) == 9


@pytest.mark.parametrize("d, expected", [(2, 1), (20, 0), (60, -4), (300, -8)])
def test_v11_10_band_dice_and_minus_3_per_band_beyond_effective_range(d, expected):
    """V-11.10: the band's dice plus −3 per band beyond the effective range: a medium-range pistol
    at 60 m −1 − 3 = −4, at 300 m −2 − 6 = −8 (the digest's examples)."""
    p = prepared("gunfighter", "swordsman", start_distance=str(d))
    assert range_dice(p.compiled.fighters, opened(p), p.compiled.options, 0) == expected


def test_v11_11_engaged_shooter_minus_3_replaces_or_adds_to_the_point_blank_bonus_and_no_aimed_shot():
    """V-11.11: engaged (point blank) −3 instead of +2 (``engaged_range = replace``) or +2 − 3 = −1
    (``add``); V-11.4, V-15.6: no aimed shot engaged, so the aimed tactic fires a standard shot."""
    for option, expected in (("replace", -3), ("add", -1)):
        p = prepared("rifleman", "swordsman", start_distance="1", engaged_range=option)
        assert range_dice(p.compiled.fighters, opened(p), p.compiled.options, 0) == expected
    p = prepared("rifleman", "swordsman", start_distance="1")
    assert plan_shot(p.compiled.fighters, opened(p), 0) == L.SH_STANDARD


def test_v15_6_v11_2_v11_3_shots_fall_back_to_cheaper_ones_as_ap_run_low():
    """V-15.6: aimed (3 AP) while 3 AP leave the reserve, then standard (2), then hip (1); V-11.19:
    a prone target −1, the target's size added."""
    p = prepared("rifleman", fighter(size_mod=2), start_distance="50")
    F, S = p.compiled.fighters, opened(p)
    assert [plan_shot(F, S, 0) for S[0, L.S_AP] in (3, 2, 1, 0)] == [L.SH_AIMED, L.SH_STANDARD, L.SH_HIP, L.SH_NONE]
    base = shot_pool(F, S, p.compiled.options, 0, L.SH_STANDARD)
    assert base == 4 + 3 + 1 + 0 - 1 + 2
    S[1, L.S_PRONE] = 1
    assert shot_pool(F, S, p.compiled.options, 0, L.SH_STANDARD) == base - 1
    assert shot_pool(F, S, p.compiled.options, 0, L.SH_HIP) == base - 1 - 2


def test_v11_9_v11_16_v15_5_v16_4_matchup_b_braced_aimed_gunfighter_behind_a_table():
    """V-16.4 B, V-11.9, V-11.16, V-15.5: behind a table (cover 3) at 20 m the ``braced_aimed``
    gunfighter braces (1 AP) and fires a standard shot of 9 dice in its first turn (4 + 3 + 1 + 0
    + 1), then aimed shots of 11; it braces once; without cover it cannot brace."""
    p = prepared(fighter(attributes={"physique": 3, "agility": 4, "intellect": 2, "empathy": 2},
                         skills={"shooting": 3}, gun="makov_pistol", tactic="braced_aimed", cover=3),
                 "gunfighter", start_distance="20")
    F, S, o = p.compiled.fighters, opened(p), p.compiled.options
    brace(F, S, 0)
    assert (S[0, L.S_BRACED], S[0, L.S_AP]) == (1, 2)
    assert plan_shot(F, S, 0) == L.SH_STANDARD and shot_pool(F, S, o, 0, L.SH_STANDARD) == 9
    S[0, L.S_AP] = 3
    brace(F, S, 0)
    assert S[0, L.S_AP] == 3 and plan_shot(F, S, 0) == L.SH_AIMED and shot_pool(F, S, o, 0, L.SH_AIMED) == 11
    S[0, L.S_BRACED], S[0, L.S_COVER] = 0, 0
    brace(F, S, 0)
    assert S[0, L.S_BRACED] == 0


def test_v11_13_v11_6_v15_7_v16_4_matchup_a_sector_control_against_a_charge():
    """V-16.4 A rerun, V-15.7, V-11.13, V-11.6: the rifleman on ``overwatch`` sets its 3 AP aside;
    each action of the charging swordsman draws a sector shot (a hip shot: 5 dice at 30 m, 6 at
    20 m) paid from them; after 3 (hip shots in a row, V-11.14) a reload is due and the AP are
    spent; sector control ends once the shooter is engaged."""
    p = RULESET.prepare("rifleman", "swordsman", options={"start_distance": "30"}, tactic_a="overwatch")
    c = p.compiled
    F, S, o, tt = c.fighters, opened(p), c.options, c.tables[0]
    set_aside(F, S, o, 0)
    assert (S[0, L.S_SECTOR], S[0, L.S_AP]) == (3, 0)
    assert shot_pool(F, S, o, 0, L.SH_HIP) == 5 and shot_pool(F, at(S.copy(), 20), o, 0, L.SH_HIP) == 6
    st, cnt = np.empty(4, dtype=np.uint64), np.zeros(c.n_counters, dtype=np.int64)
    seed_duel(st, np.uint64(1), np.int64(0))
    S[1, L.S_AP] = 3
    for left in (2, 1, 0):
        sector_shot(F, S, o, tt, st, cnt, 1, 1)
        assert S[0, L.S_SECTOR] == left
    assert cnt[L.C_ATTACKS:L.C_ATTACKS + 5].sum() == 3 and (S[0, L.S_HIP_CHAIN], S[0, L.S_RELOAD]) == (3, 1)
    assert sector_shot(F, S, o, tt, st, cnt, 1, 1) and cnt[L.C_ATTACKS:L.C_ATTACKS + 5].sum() == 3
    S[0, L.S_SECTOR], S[0, L.S_RELOAD] = 2, 0
    assert sector_shot(F, at(S, 1), o, tt, st, cnt, 1, 1) and S[0, L.S_SECTOR] == 0
    assert cnt[L.C_ATTACKS:L.C_ATTACKS + 5].sum() == 3


def _start_under_sector(option: str, ap: int, **conditions: int):
    """The swordsman's turn start (:func:`ranged_start`) 30 m from the rifleman, whose 3 AP are set
    aside for sector shots (``overwatch``) that always miss (a pool below 0 under ``desperation =
    app`` rolls nothing, V-1.4), ``start_ready = no``; the swordsman has ``ap`` AP and the given
    state fields. Returns the state and the rifleman's shots."""
    p = RULESET.prepare("rifleman", "swordsman", tactic_a="overwatch", options={
        "start_distance": "30", "start_ready": "no", "desperation": "app", "overwatch_turn_start": option})
    c = p.compiled
    F, S, o, tt = c.fighters, opened(p), c.options, c.tables[0]
    set_aside(F, S, o, 0)
    S[0, L.S_PEN_SHOOT] = 20
    S[1, L.S_AP] = ap
    for field, value in conditions.items():
        S[1, getattr(L, field)] = value
    st, cnt = np.empty(4, dtype=np.uint64), np.zeros(c.n_counters, dtype=np.int64)
    seed_duel(st, np.uint64(1), np.int64(0))
    assert ranged_start(F, S, o, tt, st, cnt, 1)
    return S, int(cnt[L.C_ATTACKS:L.C_ATTACKS + 5].sum())


@pytest.mark.parametrize("option, shots", [("fires", 1), ("exempt", 0)])
def test_v11_13_readying_in_the_first_turn_draws_a_sector_shot(option, shots):
    """V-11.13 (seed 139: an enemy in the sector taking any action draws a sector shot), V-10.9
    ``start_ready = no``: the swordsman readies its sword (1 AP) at the start of its first turn; by
    default (``overwatch_turn_start = fires``) the rifleman fires one hip shot first, from one of
    its 3 set-aside AP; ``exempt``: the readying goes free. Either way the sword is ready, 2 AP left."""
    S, fired = _start_under_sector(option, 3)
    assert fired == shots and S[0, L.S_SECTOR] == 3 - shots
    assert (S[1, L.S_UNREADY], S[1, L.S_AP]) == (0, 2)


@pytest.mark.parametrize("option, shots", [("fires", 3), ("exempt", 0)])
def test_v11_13_standing_up_and_picking_up_draw_sector_shots(option, shots):
    """V-11.13, V-10.9, V-6.7, V-3.9: unready, knocked down and its sword dropped, with 10 AP, the
    swordsman readies (1), stands up (1) and picks the sword up (1): three actions, three sector
    shots by default (the rifleman's 3 set-aside AP; a 4th would find a reload due after 3 hip shots
    in a row, V-11.14), none with ``exempt``; 7 AP left either way."""
    S, fired = _start_under_sector(option, 10, S_PRONE=1, S_DROPPED=L.HAND_DROPPED)
    assert fired == shots and S[0, L.S_SECTOR] == 3 - shots
    assert (S[1, L.S_UNREADY], S[1, L.S_PRONE], S[1, L.S_DROPPED], S[1, L.S_AP]) == (0, 0, 0, 7)


@pytest.mark.parametrize("option, shots", [("fires", 1), ("exempt", 0)])
def test_v11_13_breaking_free_draws_a_sector_shot(option, shots):
    """V-11.13, V-6.9: the immobilised swordsman (its sword ready) spends a standard action (2 AP) on
    its agility check; by default the rifleman's sector shot comes first."""
    S, fired = _start_under_sector(option, 3, S_UNREADY=0, S_IMMOBILISED=1)
    assert fired == shots and S[0, L.S_SECTOR] == 3 - shots and S[1, L.S_AP] == 1


def test_v11_13_sector_shots_at_the_readying_cost_the_overwatcher_duels():
    """V-11.13, V-10.9, V-15.7: the rifleman on ``overwatch`` against the charging swordsman from
    30 m, ``start_ready = no``. When the rifleman acts first, the swordsman's readying draws a sector
    shot from 30 m by default, one of the 3 set-aside AP that ``exempt`` keeps for a shot at its
    moves from nearer (and a reload falls due after 3 hip shots in a row, V-11.14): on the same
    50,000 duels the rifleman wins less often with ``fires`` (18.9 % against 19.7 %), beyond
    4σ of the paired difference."""
    from brutal_sim.results.stats import paired_difference
    from brutal_sim.run.engine import run_paired_counters

    n = 50_000
    cells = [RULESET.prepare("rifleman", "swordsman", tactic_a="overwatch", options={
        "start_distance": "30", "start_ready": "no", "overwatch_turn_start": option}).compiled
        for option in ("exempt", "fires")]
    _, joint, _ = run_paired_counters(cells, n, seed=0, threads=1)
    d, half, _ = paired_difference(joint[0], n, side=0, z=4.0)
    assert d < -half, (d, half)


def test_v10_1_nothing_beyond_1000_m_can_be_shot():
    """V-10.1: beyond the extreme band no shot is allowed."""
    p = prepared("rifleman", "swordsman", start_distance="1000")
    F, S = p.compiled.fighters, opened(p)
    assert plan_shot(F, S, 0) == L.SH_AIMED
    at(S, 1001)
    assert plan_shot(F, S, 0) == L.SH_NONE


def test_v11_14_reload_triggers_hip_chains_single_shot_guns_and_bursts():
    """V-11.14: 3 hip shots in a row make a reload due, another shot resets the count (b); every shot
    of a single-shot gun (a) and every long burst (c) does; a gun needing a reload cannot shoot;
    V-11.8 the reload (2 AP) clears it and the chain."""
    p = prepared("gunfighter", "swordsman", start_distance="10")
    F, S = p.compiled.fighters, opened(p)
    for shot in (L.SH_HIP, L.SH_HIP, L.SH_STANDARD, L.SH_HIP, L.SH_HIP):
        after_shot(F, S, p.compiled.options, 0, shot)
    assert (S[0, L.S_HIP_CHAIN], S[0, L.S_RELOAD]) == (2, 0)
    after_shot(F, S, p.compiled.options, 0, L.SH_HIP)
    assert S[0, L.S_RELOAD] == 1 and plan_shot(F, S, 0) == L.SH_NONE
    S[0, L.S_AP] = 3
    reload_gun(F, S, p.compiled.options, 0)
    assert (S[0, L.S_AP], S[0, L.S_RELOAD], S[0, L.S_HIP_CHAIN]) == (1, 0, 0)
    after_shot(F, S, p.compiled.options, 0, L.SH_BURST)
    assert S[0, L.S_RELOAD] == 1
    p = prepared(fighter(gun="bow", tactic="std_shot"), "swordsman", start_distance="10")
    F, S = p.compiled.fighters, opened(p)
    after_shot(F, S, p.compiled.options, 0, L.SH_STANDARD)
    assert S[0, L.S_RELOAD] == 1


def _shots_in_first_draw(a, b, **options) -> int:
    """Shots side a fired in the first duel (seed 5) that reached the round cap: every shot its
    tactic planned was fired."""
    c = prepared(a, b, **options).compiled
    for idx in range(200):
        row = c.kernels.duels(*c.args(), np.uint64(5), np.int64(idx), np.int64(1), 1, c.n_counters).sum(axis=0)
        if row[L.C_DRAWS] == 1:
            return int(row[L.C_ATTACKS:L.C_ATTACKS + 5].sum())
    raise AssertionError("no duel reached the round cap")


def test_v11_14_long_reload_and_magazine_options_change_the_shots_fired():
    """V-11.14 ``long_reload``: hip shots with a pump shotgun (long reload) fire 3 then 1 in two
    turns (a reload of 2 AP), 3 then 0 with ``extended`` (3 AP); ``ammo = magazine``: a 2-round gun
    fires 2 hip shots in its first turn (then it is empty), 3 with ammunition uncounted."""
    target = fighter(armour="power_armour", tactic="turtle", attributes={"physique": 10, "agility": 10,
                                                                        "intellect": 10, "empathy": 10})
    pump = fighter(attributes={"physique": 3, "agility": 4, "intellect": 2, "empathy": 2}, gun="pump_shotgun",
                   tactic="hip_spam")
    assert [_shots_in_first_draw(pump, target, start_distance="15", round_cap="2", long_reload=v)
            for v in ("normal", "extended")] == [3 + 1, 3 + 0]
    two = fighter(gun={"damage": 1, "magazine": 2}, tactic="hip_spam")
    assert [_shots_in_first_draw(two, target, start_distance="15", round_cap="1", ammo=v)
            for v in ("uncounted", "magazine")] == [3, 2]


def test_v11_17_cover_move_keep_keeps_cover_on_a_move():
    """V-11.17 ``cover_move``: a move forfeits cover (default) or keeps it (``keep``)."""
    for option, left in (("forfeit", 0), ("keep", 4)):
        p = prepared("swordsman", fighter(cover=4), start_distance="30", cover_move=option)
        S = opened(p)
        S[1, L.S_AP] = 3
        close_in(p.compiled.fighters, S, p.compiled.options, 1)
        assert S[1, L.S_COVER] == left


def test_v11_12_burst_desperate_no_continuation_by_hand():
    """V-11.12 ``burst_desperate``, V-1.4: a long burst of a pool < 0 rolls the fvtt desperate 2d20
    (1 success only on two 20s: 1/400); with ``no_continuation`` that alone decides: P(hit or
    stopped) = 1/400 exactly; with the continuation dice added it is higher."""
    a = fighter(attributes={"physique": 3, "agility": 1, "intellect": 2, "empathy": 2},
                gun={"damage": 2, "range": "close", "properties": ["automatic"]}, tactic="autofire")
    rates = {}
    for v in ("continue", "no_continuation"):
        r = api.attack(a, fighter(), ruleset="vereteno", options={"start_distance": "90", "burst_desperate": v})
        rates[v] = float(r.outcomes[3] + r.outcomes[4])
    assert rates["no_continuation"] == pytest.approx(1 / 400, abs=1e-15)
    assert rates["continue"] > rates["no_continuation"] + 0.01


def test_v11_14_hip_chain_across_turns_or_per_turn_changes_the_shots_fired():
    """V-11.14 ``hip_chain``, V-15.3: hip_spam fires 3, 1, 2 shots in three turns across turns (a reload,
    first in the turn, after every 3 in a row), 3, 1, 3 with ``per_turn`` (the first duel that reaches the round cap of
    3 against a target in power armour that never attacks)."""
    target = fighter(armour="power_armour", cover=8, tactic="turtle")
    shots = {}
    for option in ("across_turns", "per_turn"):
        p = prepared("gunfighter", target, start_distance="10", round_cap="3", hip_chain=option)
        c = p.compiled
        for idx in range(200):
            row = c.kernels.duels(*c.args(), np.uint64(5), np.int64(idx), np.int64(1), 1, c.n_counters).sum(axis=0)
            if row[L.C_DRAWS] == 1:
                shots[option] = int(row[L.C_ATTACKS:L.C_ATTACKS + 5].sum())
                break
    assert shots == {"across_turns": 3 + 1 + 2, "per_turn": 3 + 1 + 3}


def test_v11_12_continuation_dice_expected_successes():
    """V-11.12: the continuation adds E = 4 × 5/16 + one_value/4: +0.75 (one_value −2), +1.0 (−1),
    +1.25 with ``stop_die = not_counted``; the distribution sums to 1."""
    for kw, mean in (({}, 0.75), ({"one_value": "-1"}, 1.0), ({"stop_die": "not_counted"}, 1.25)):
        pmf, lo = continuation_pmf(opts(**kw))
        assert pmf.sum() == pytest.approx(1.0, abs=1e-15)
        assert float(np.dot(pmf, np.arange(lo, lo + pmf.size))) == pytest.approx(mean, abs=1e-12)
    pmf, lo = continuation_pmf(opts())  # −2: every die before the stopping 1 shows 5–16
    assert pmf[-2 - lo] == pytest.approx(0.05 / (1 - 0.6), abs=1e-15)


def test_v12_2_v12_3_v12_4_extras_of_a_hit_damage_trauma_suppression_no_disarm():
    """V-12.2: extras buy traumas at the gun's crit or +1 damage; V-12.3 suppression 1 Will each, 2
    from a long burst; V-12.4 no disarm at range (``disarm_first`` spends as damage)."""
    cases = {("trauma_first", L.SH_STANDARD): (3, 1, 0, 0), ("intimidate", L.SH_STANDARD): (3, 0, 0, 2),
             ("intimidate", L.SH_BURST): (3, 0, 0, 4), ("disarm_first", L.SH_STANDARD): (5, 0, 0, 0),
             ("damage_only", L.SH_STANDARD): (5, 0, 0, 0)}
    for (spending, shot), expected in cases.items():
        p = prepared(fighter(gun="kurovski_assault_rifle", tactic="std_shot", attack_spending=spending),
                     "swordsman", start_distance="10")
        assert shot_spend(p.compiled.fighters, opened(p), p.compiled.options, 0, 3, shot) == expected, spending


def test_v15_9_suppress_covered_suppresses_a_target_rolling_many_armour_and_cover_dice():
    """V-15.9 ``suppress_covered``: a shot's extras go to Will (suppression) when the target rolls at
    least ``suppress_at`` (default 6) armour + shield + cover dice against it, else they buy traumas
    (``trauma_first``): leather (2) behind a table (3) is 5 dice, behind a door (4) 6."""
    shooter = fighter(gun="kurovski_assault_rifle", tactic="std_shot", attack_spending="suppress_covered")
    for cover, expected in ((3, (3, 1, 0, 0)), (4, (3, 0, 0, 2))):
        p = prepared(shooter, fighter(armour="leather_armour", cover=cover), start_distance="10")
        assert shot_spend(p.compiled.fighters, opened(p), p.compiled.options, 0, 3, L.SH_STANDARD) == expected


def test_v11_17_v5_7_cover_and_armour_dice_against_a_shot():
    """V-11.17 (= V-5.5): cover joins the armour roll against shots; V-5.7 ``armour_piercing_dice`` comes off
    the armour dice, never the cover's; V-4.7 ``shield = cover_like`` counts a shield against shots."""
    tgt = fighter(armour="leather_armour", shield="archaic_shield", cover=3)
    rail = fighter(gun="kurovski_rail_pistol", tactic="std_shot")
    for options, dice in (({}, (2, 2, 3)), ({"shield": "ignore"}, (2, 0, 3)), ({"shield": "cover_like"}, (2, 2, 3)),
                          ({"armour_piercing_dice": "3"}, (0, 1, 3))):
        p = prepared(rail, tgt, start_distance="10", **options)
        assert shot_armour_dice(p.compiled.fighters, opened(p), p.compiled.options, 0, 1) == dice, options


# -- exact single shots ------------------------------------------------------------------------------

def test_v11_1_v11_15_exact_shot_of_one_die_by_hand():
    """V-11.1, V-11.15, V-12.1: a shot of 1 die (Ловкость 1, medium band) at an unarmoured target:
    no reaction, so it hits on 17–20 (0.2); a 20's extra success is +1 damage: mean 0.15·3 + 0.05·4."""
    a = fighter(attributes={"physique": 3, "agility": 1, "intellect": 2, "empathy": 2},
                gun={"damage": 3, "range": "medium"}, tactic="std_shot")
    r = api.attack(a, fighter(), ruleset="vereteno", options={"start_distance": "20"})
    out = dict(zip(RULESET.counters.outcomes, r.outcomes))
    assert out["hit"] == pytest.approx(0.2, abs=1e-15) and out["miss"] == pytest.approx(0.8, abs=1e-15)
    assert out["defended"] == out["dodged"] == 0.0
    assert r.mean_damage_per_attack == pytest.approx(0.15 * 3 + 0.05 * 4, abs=1e-15)


@pytest.mark.parametrize("cover", [0, 3])
def test_v11_17_exact_cover_stops_a_shot_by_hand(cover):
    """V-11.17, V-5.4: a 1-damage shot of 1 die (extras to Will) at leather armour (2) behind cover c
    is stopped when any of the 2 + c armour dice shows 17–20: P = 0.2 · (1 − 0.8^(2 + c))."""
    a = fighter(attributes={"physique": 3, "agility": 1, "intellect": 2, "empathy": 2},
                gun={"damage": 1, "range": "medium"}, tactic="std_shot", attack_spending="intimidate")
    r = api.attack(a, fighter(armour="leather_armour", cover=cover), ruleset="vereteno",
                   options={"start_distance": "20"})
    out = dict(zip(RULESET.counters.outcomes, r.outcomes))
    assert out["armour_stopped"] == pytest.approx(0.2 * (1 - 0.8 ** (2 + cover)), abs=1e-15)


def _within_4_sigma(exact, sampled, n):
    for p, q in zip(exact.outcomes, sampled.outcomes):
        assert abs(p - q) <= 4 * math.sqrt(max(p * (1 - p), 1e-12) / n) + 1e-9, (exact.outcomes, sampled.outcomes)
    for p, q in zip(np.ravel(exact.levels), np.ravel(sampled.levels)):
        assert abs(p - q) <= 4 * math.sqrt(max(p * (1 - p), 1e-12) / n) + 1e-9


@pytest.mark.parametrize("a, b, options", [
    ("rifleman", "swordsman", {"start_distance": "50"}),
    ("gunner", "rifleman", {"start_distance": "20"}),
    ("gunner", "rifleman", {"start_distance": "20", "burst_hit": "first_check", "stop_die": "not_counted"}),
    ("gunfighter", "gunfighter", {"start_distance": "1", "prayer": "app"}),
    ("rifleman", "swordsman", {"start_distance": "50", "visibility": "poor", "prayer": "app"}),
])
def test_v11_12_v11_2_v11_4_exact_shots_agree_with_sampled_ones(a, b, options):
    """V-11.2, V-11.4, V-11.5, V-11.12, V-11.18: exact single shots (aimed; a long burst with its
    continuation under both ``burst_hit`` readings; an engaged hip-spam shot at point blank, prayed;
    an aimed shot in poor visibility after a prayed perception check) within 4σ of 20,000 sampled
    ones."""
    n = 20_000
    exact = api.attack(a, b, ruleset="vereteno", options=options)
    sampled = api.attack(a, b, ruleset="vereteno", options=options, n=n, seed=3, threads=1)
    _within_4_sigma(exact, sampled, n)


def test_v11_12_burst_hit_reading_moves_the_hit_rate():
    """V-11.12 ``burst_hit``: the continuation lets a failed check hit (``total``) or not
    (``first_check``); the gunner's exact hit rate at 20 m drops with ``first_check``."""
    hit = RULESET.counters.outcomes.index("hit")
    total = api.attack("gunner", "rifleman", ruleset="vereteno", options={"start_distance": "20"})
    first = api.attack("gunner", "rifleman", ruleset="vereteno",
                       options={"start_distance": "20", "burst_hit": "first_check"})
    assert first.outcomes[hit] + first.outcomes[3] < total.outcomes[hit] + total.outcomes[3] - 0.05


# -- the duel at a distance --------------------------------------------------------------------------

def test_v10_6_kernels_at_a_distance_play_a_melee_duel_at_point_blank_as_the_melee_kernels():
    """V-10.6: the default ``start_distance`` 1 is the melee duel (V-7.6): the drivers at a distance
    give the melee drivers' counters bit for bit, duel by duel."""
    c = RULESET.prepare("swordsman", "brute").compiled
    args = (*c.args(), np.uint64(11), np.int64(0), np.int64(1500), 1, c.n_counters)
    ranged, melee = KERNELS.playing(KernelSet(ranged=True)), KERNELS.playing(KernelSet())
    assert np.array_equal(ranged.duels(*args), melee.duels(*args))
    assert np.array_equal(ranged.attacks(*args), melee.attacks(*args))


def test_v16_4_matchup_a_rifleman_against_a_charging_swordsman_from_30_m():
    """V-16.4 A, V-15.8: the swordsman charges (three moves) while the rifleman fires; its aimed
    shots (3 AP) and drawn knife lose to the swordsman far more often than standard shots keeping
    1 AP for a dodge (win rates of 4000 duels, apart by more than 8σ)."""
    aimed = api.duel("rifleman", "swordsman", n=4000, seed=2, ruleset="vereteno", threads=1,
                     options={"start_distance": "30"})
    std = api.duel("rifleman", "swordsman", n=4000, seed=2, ruleset="vereteno", threads=1,
                   options={"start_distance": "30"}, tactic_a="std_shot")
    wa, ws = aimed.counters[L.C_WINS] / 4000, std.counters[L.C_WINS] / 4000
    assert ws - wa > 8 * math.sqrt((wa * (1 - wa) + ws * (1 - ws)) / 4000)


# -- bad input -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("value", ["-1", "1001"])
def test_v10_6_start_distance_beyond_0_to_1000_m_is_refused(value):
    with pytest.raises(DataError, match="start_distance"):
        prepared("rifleman", "swordsman", start_distance=value)


def test_v16_2_a_gun_in_the_melee_slot_and_a_burst_without_an_automatic_gun_are_refused():
    """V-16.2, V-11.5: ``weapon = "kosin_rifle"`` names a gun; ``autofire`` needs an automatic gun."""
    with pytest.raises(DataError, match="'kosin_rifle' is a gun"):
        fighter(weapon="kosin_rifle")
    with pytest.raises(DataError, match="automatic"):
        fighter(gun="kosin_rifle", tactic="autofire")
    with pytest.raises(DataError, match="automatic"):
        RULESET.prepare("rifleman", "swordsman", tactic_a="autofire")
    with pytest.raises(DataError, match="needs a gun"):
        fighter(tactic="std_shot")


def test_a_single_attack_from_a_distance_without_a_gun_is_refused():
    with pytest.raises(DataError, match="start_distance"):
        api.attack("swordsman", "rifleman", ruleset="vereteno", options={"start_distance": "30"})


def test_v11_22_gun_melee_a_gun_holder_defends_bare_handed_or_only_dodges():
    """V-11.22: a gunfighter with its pistol in hand, defending against the raider's blow at point
    blank, blocks with bare hands (``gun_melee = unarmed``: some blows defended) or cannot defend and
    dodges (``none``: none defended, some dodged); exact single attacks."""
    gunman = fighter(attributes={"physique": 3, "agility": 4, "intellect": 2, "empathy": 2},
                     skills={"shooting": 3, "nimbleness": 1, "melee": 2}, gun="makov_pistol", tactic="hip_spam",
                     reaction="defend")
    out = {}
    for v in ("unarmed", "none"):
        r = api.attack("raider", gunman, ruleset="vereteno", options={"start_distance": "1", "gun_melee": v})
        out[v] = dict(zip(RULESET.counters.outcomes, r.outcomes))
    assert out["unarmed"]["defended"] > 0.05 and out["unarmed"]["dodged"] == 0.0
    assert out["none"]["defended"] == 0.0 and out["none"]["dodged"] > 0.05


def test_v10_7_v3_6_v15_2_stepping_back_out_of_reach_draws_one_free_blow():
    """V-10.7 (= V-3.6), V-15.2 ``step_back``: the kiting gunfighter engaged at point blank moves
    away (1 AP, 10 m); leaving the raider's reach draws one opportunity attack, free for the raider
    (its AP untouched); a move away that starts outside reach draws none."""
    p = RULESET.prepare("gunfighter", "raider", options={"start_distance": "1"}, tactic_a="kite")
    c = p.compiled
    F, S, o, tt = c.fighters, opened(p), c.options, c.tables[0]
    st, cnt = np.empty(4, dtype=np.uint64), np.zeros(c.n_counters, dtype=np.int64)
    seed_duel(st, np.uint64(2), np.int64(0))
    S[1, L.S_AP] = 3
    retreat(F, S, o, tt, st, cnt, 0)
    b_attacks = slice(L.C_ATTACKS + 5, L.C_ATTACKS + 10)
    assert abs(S[0, L.S_X] - S[1, L.S_X]) == 11 and cnt[b_attacks].sum() == 1 and S[1, L.S_AP] == 3
    assert S[0, L.S_OUT] == 0
    metres = move_metres(F, S, o, 0)  # the free blow may have left a HALFSPD trauma (V-10.5)
    retreat(F, S, o, tt, st, cnt, 0)
    assert abs(S[0, L.S_X] - S[1, L.S_X]) == 11 + metres and cnt[b_attacks].sum() == 1


def test_v10_5_halfspd_traumas_halve_the_speed_once_or_each_again():
    """V-10.5 ``halving``, V-8.4 HALFSPD: two HALFSPD traumas leave 10 m a move at 5 m (``once``)
    or 2 m (``stack``)."""
    for option, metres in (("once", 5), ("stack", 2)):
        p = prepared("swordsman", "brute", start_distance="30", halving=option)
        S = opened(p)
        assert move_metres(p.compiled.fighters, S, p.compiled.options, 0) == 10
        S[0, L.S_HALFSPD] = 2
        assert move_metres(p.compiled.fighters, S, p.compiled.options, 0) == metres


def test_v11_12_high_capacity_extra_chain_adds_a_second_continuation():
    """V-11.12 ``high_capacity = extra_chain``: a long burst of the Shagov SMG (high-capacity
    magazine) rolls a second chain of continuation dice, so it hits more often; the Kurovski assault
    rifle (none) is unchanged (exact)."""
    def p_blow(gun, option):
        a = fighter(gun=gun, tactic="autofire", skills={"shooting": 1})
        r = api.attack(a, fighter(armour="leather_armour"), ruleset="vereteno",
                       options={"start_distance": "20", "high_capacity": option})
        return float(r.outcomes[3] + r.outcomes[4])
    assert p_blow("shagov_smg", "extra_chain") > p_blow("shagov_smg", "none") + 0.02
    assert p_blow("kurovski_assault_rifle", "extra_chain") == p_blow("kurovski_assault_rifle", "none")


def test_v11_18_poor_visibility_blinds_a_shooter_that_fails_its_perception_check():
    """V-11.18: in poor visibility the rifleman's perception check is 1 die (Интеллект 2 +
    Наблюдательность 1 − 2): it sees its foe on 17–20 (0.2) and fires its aimed shot of 9 dice, else
    it is blind: a standard shot (no aimed shot) at −3, 4 dice. Exactly the mixture of the two
    clear-sky shots with those pools; at point blank no check is made."""
    def hit(options, a="rifleman", **kw):
        r = api.attack(a, "swordsman", ruleset="vereteno", options=options, **kw)
        return float(r.outcomes[3] + r.outcomes[4])
    poor = hit({"start_distance": "50", "visibility": "poor"})
    seeing = hit({"start_distance": "50"})
    blind = hit({"start_distance": "50"}, a=fighter(attributes={"physique": 3, "agility": 1, "intellect": 2,
                                                                "empathy": 2}, skills={"shooting": 3},
                                                    gun="kosin_rifle", tactic="std_shot"))
    assert poor == pytest.approx(0.2 * seeing + 0.8 * blind, abs=1e-12)
    assert hit({"start_distance": "1", "visibility": "poor"}) == hit({"start_distance": "1"})


def test_variants_at_point_blank_and_at_a_distance_play_on_the_same_duels(tmp_path):
    """A scenario whose variants put one matchup at point blank (the melee kernel set) and at 30 m
    (the set at a distance): the cells play the union of their sets on the same duels, so their
    difference is paired, and each has the counters of a plain duel of its options."""
    from brutal_sim.scenario import load_scenario, run_scenario

    path = tmp_path / "mix.toml"
    path.write_text('n = 400\nruleset = "vereteno"\nmatchups = [["swordsman", "brute"]]\n'
                    '[[variants]]\nname = "point blank"\noptions = { start_distance = 1 }\n'
                    '[[variants]]\nname = "30 m"\noptions = { start_distance = 30 }\n')
    sc = load_scenario(path)
    near, far = run_scenario(sc, threads=1)
    assert len(sc.differences) == 2 and (sc.differences["n"] == 400).all()
    for result, distance in ((near, "1"), (far, "30")):
        alone = api.duel("swordsman", "brute", n=400, seed=sc.spec.seed, ruleset="vereteno", threads=1,
                         options={"start_distance": distance})
        assert np.array_equal(result.counters, alone.counters), distance
    assert not np.array_equal(near.counters, far.counters)


# -- V-3.15 reach ----------------------------------------------------------------------------------

@pytest.mark.parametrize("weapon, d, moves, gap", [("spear", 30, 3, 2), ("spear", 12, 1, 2), ("sword", 12, 2, 1),
                                                   ("spear", 2, 0, 2)])
def test_v3_15_v15_4_a_long_weapon_closes_in_to_close_range_and_attacks_from_there(weapon, d, moves, gap):
    """V-3.15, V-10.4, V-15.4: a closer stops at its own reach, m = ⌈(d − reach)/speed⌉ moves: the
    spear (long) at 2 m (from 12 m one move, from 30 m three), the sword at 1 m (from 12 m two);
    then its foe is within its reach and it may attack with the AP left."""
    p = prepared(fighter(gun="kosin_rifle", tactic="aimed"), fighter(weapon=weapon, tactic="charge"),
                 start_distance=str(d))
    F, S, o = p.compiled.fighters, opened(p), p.compiled.options
    S[1, L.S_AP] = 3
    while S[1, L.S_AP] >= 1 and not in_reach(F, S, 1):
        step(F, S, o, 1)
    assert (3 - S[1, L.S_AP], abs(S[1, L.S_X] - S[0, L.S_X])) == (moves, gap)
    assert reach(F, S, 1) == gap and in_reach(F, S, 1)


def test_v3_15_v11_11_a_long_weapon_at_close_range_engages_a_shooter():
    """V-3.15, V-11.11: at 2 m a spear engages the rifleman (no aimed shot; −3 instead of the close
    band's +1, or +1 − 3 = −2 with ``engaged_range = add``), a sword does not (+1, aimed allowed);
    the rifleman with its gun in hand reaches only point blank, so the spearman is not engaged."""
    for weapon, option, dice, shot in (("spear", "replace", -3, L.SH_STANDARD), ("spear", "add", -2, L.SH_STANDARD),
                                       ("sword", "replace", 1, L.SH_AIMED)):
        p = prepared("rifleman", fighter(weapon=weapon), start_distance="2", engaged_range=option)
        F, S = p.compiled.fighters, opened(p)
        assert engaged(F, S, 0) is (weapon == "spear") and not engaged(F, S, 1)
        assert range_dice(F, S, p.compiled.options, 0) == dice
        assert plan_shot(F, S, 0) == shot


def test_v3_15_v10_7_stepping_back_out_of_a_long_weapons_reach_draws_its_free_blow():
    """V-3.15, V-10.7 (= V-3.6): the kiting gunfighter 2 m from a spear is engaged; its step back
    (1 AP, 10 m) leaves the spear's reach and draws one free blow; 2 m from a sword it is not
    engaged, and the same move draws none."""
    for weapon, blows in (("spear", 1), ("sword", 0)):
        p = RULESET.prepare("gunfighter", fighter(weapon=weapon), options={"start_distance": "2"}, tactic_a="kite")
        c = p.compiled
        F, S, o, tt = c.fighters, opened(p), c.options, c.tables[0]
        st, cnt = np.empty(4, dtype=np.uint64), np.zeros(c.n_counters, dtype=np.int64)
        seed_duel(st, np.uint64(2), np.int64(0))
        retreat(F, S, o, tt, st, cnt, 0)
        assert abs(S[0, L.S_X] - S[1, L.S_X]) == 12
        assert cnt[L.C_ATTACKS + 5:L.C_ATTACKS + 10].sum() == blows


def test_v3_15_a_spear_gains_against_a_sword_closing_from_30_m():
    """V-3.15, V-15.4: two like chargers from 30 m, one weapon long (a spear: after three moves it
    stands at 2 m, so the sword spends 1 AP of its turn on the last metre, and a sword arriving first
    is struck by a spear at full AP). The spear as side a wins more often than the sword as side a
    against the spear (the same duel with the sides' weapons swapped), by more than 4σ."""
    spear = {"weapon": {"modifier": 0, "initiative": 0, "damage": 3, "crit": 3, "properties": ["long"]},
             "tactic": "charge"}
    sword = {"weapon": {"modifier": 0, "initiative": 0, "damage": 3, "crit": 3}, "tactic": "charge"}
    n = 4000
    wins = []
    for a, b in ((spear, sword), (sword, spear)):
        r = api.duel(fighter(**a), fighter(**b), ruleset="vereteno", n=n, seed=5, threads=1,
                     options={"start_distance": "30"})
        wins.append(r.counters[L.C_WINS] / n)
    assert wins[0] - wins[1] > 4 * math.sqrt(2 * 0.25 / n)


# -- V-10.9 ready / switch weapon --------------------------------------------------------------------

def _turn_of_a(p, S, seed=3):
    """Side a's turn at a distance on state ``S``; returns the counters."""
    c = p.compiled
    st, cnt = np.empty(4, dtype=np.uint64), np.zeros(c.n_counters, dtype=np.int64)
    seed_duel(st, np.uint64(seed), np.int64(0))
    ranged_turn(c.fighters, S, c.options, c.tables[0], st, cnt, 0)
    return cnt


@pytest.mark.parametrize("redraw, down, pickup, gap", [
    (True, False, "pick_up", 11), (True, True, "pickup_and_ready", 11), (False, False, "pick_up", 1)])
def test_v10_9_redraw_takes_the_gun_again_once_no_longer_engaged(redraw, down, pickup, gap):
    """V-10.9, V-3.8, V-3.9, V-15.2: a rifleman that drew its knife stands 11 m from the swordsman.
    With ``redraw`` it readies its rifle again (1 AP; a dropped one is picked up, 2 AP under
    ``pickup = pickup_and_ready``) and fires the shot the AP left allow (standard, then hip): one
    shot, no move. Without it the drawn knife's melee tactic closes in (1 AP, to 1 m) and strikes."""
    tactic = {"shot": "aimed", "keep": 0, "move": "hold", "engaged": "draw", "redraw": redraw}
    p = prepared(fighter(gun="kosin_rifle", weapon="knife", tactic=tactic), "swordsman", start_distance="11",
                 pickup=pickup)
    S = opened(p)
    S[0, L.S_DROPPED] = 0  # the knife in hand
    S[0, L.S_GUN_DOWN] = int(down)
    cnt = _turn_of_a(p, S)
    assert abs(S[0, L.S_X] - S[1, L.S_X]) == gap and S[0, L.S_AP] == 0
    assert bool(S[0, L.S_DROPPED] & L.HAND_GUN) is redraw
    assert S[0, L.S_GUN_DOWN] == (0 if redraw else int(down))
    assert cnt[L.C_ATTACKS:L.C_ATTACKS + 5].sum() == 1


def test_v10_9_drawing_without_a_sidearm_drops_the_gun_for_free():
    """V-10.9 ("dropping the held one is free"), V-15.2 ``draw``: engaged, the gunner (no melee
    weapon) drops its rifle at no AP and strikes bare-handed with all 3 AP (one standard attack,
    then a quick one); the rifleman pays 1 AP to ready its knife (one standard attack)."""
    draw = {"shot": "standard", "attack": "standard", "keep": 0, "move": "hold", "engaged": "draw"}
    for gun, weapon, attacks, down in (("kurovski_assault_rifle", None, 2, 1), ("kosin_rifle", "knife", 1, 0)):
        p = prepared(fighter(gun=gun, weapon=weapon, tactic=draw), "swordsman", start_distance="1")
        S = opened(p)
        cnt = _turn_of_a(p, S)
        assert S[0, L.S_GUN_DOWN] == down and not S[0, L.S_DROPPED] & L.HAND_GUN
        assert cnt[L.C_ATTACKS:L.C_ATTACKS + 5].sum() == attacks


# -- V-8.4 DROP at a distance -----------------------------------------------------------------------

@pytest.mark.parametrize("name, held, after", [
    ("rifleman", L.HAND_GUN, L.HAND_GUN_DROPPED),  # the rifle in hand falls, the knife stays stowed
    ("rifleman", 0, L.HAND_DROPPED),  # the knife drawn (V-15.2 draw): the knife falls
    ("rifleman", L.HAND_GUN_DROPPED, L.HAND_GUN_DROPPED),  # empty hands: nothing more falls
    ("gunner", L.HAND_GUN, L.HAND_GUN_DROPPED),  # no melee weapon: the rifle falls all the same
    ("gunner", 0, 0),  # bare hands (its rifle dropped to fight, V-10.9): nothing falls
])
def test_v8_4_drop_takes_what_is_in_hand(name, held, after):
    """V-8.4 DROP ("drops held items"), V-6.2: what falls is the item in hand."""
    p = prepared(name, "swordsman", start_distance="30")
    F, S = p.compiled.fighters, opened(p)
    S[0, L.S_DROPPED] = held
    drop(F, S, 0)
    assert S[0, L.S_DROPPED] == after


def test_v8_4_a_throwers_item_in_hand_falls():
    """V-8.4 DROP, V-11.20, V-10.9: the knife thrower holds its first knife (its hatchet stowed,
    ``throw_ready = quick``): the knife falls, so its next throw readies one first: 2 + 1 AP."""
    p = prepared("knife_thrower", "swordsman", start_distance="30")
    F, S = p.compiled.fighters, opened(p)
    assert (S[0, L.S_DROPPED], S[0, L.S_THROW_READY], throw_cost(S, 0)) == (L.HAND_THROW, 1, 2)
    drop(F, S, 0)
    assert (S[0, L.S_DROPPED], S[0, L.S_THROW_READY], throw_cost(S, 0)) == (L.HAND_THROW, 0, 3)


@pytest.mark.parametrize("pickup, ap, left, shots", [
    ("pick_up", 3, 0, 1),  # picks the rifle up (1 AP), a standard shot with the 2 left (no burst: 3 AP)
    ("pickup_and_ready", 3, 0, 1),  # 2 AP, then a hip shot with the 1 left
    ("pickup_and_ready", 1, 1, 0),  # 1 AP: the rifle stays on the ground and the gunner holds its place
])
def test_v3_9_a_gun_a_drop_took_is_picked_up_at_the_turn_start(pickup, ap, left, shots):
    """V-3.9, V-8.4: the gunner (autofire) 20 m from the swordsman, its rifle knocked out of hand by a
    DROP, picks it up at the start of its turn (option ``pickup``: 1 AP, or 2) and shoots with the
    AP left; without the AP it stays down (bare hands) and, no draw being made, the gunner does not
    close in."""
    p = prepared("gunner", "swordsman", start_distance="20", pickup=pickup)
    S = opened(p)
    S[0, L.S_DROPPED], S[0, L.S_AP] = L.HAND_GUN_DROPPED, ap
    cnt = _turn_of_a(p, S)
    assert S[0, L.S_AP] == left and cnt[L.C_ATTACKS:L.C_ATTACKS + 5].sum() == shots
    assert S[0, L.S_DROPPED] == (L.HAND_GUN if shots else L.HAND_GUN_DROPPED)
    assert abs(S[0, L.S_X] - S[1, L.S_X]) == 20


@pytest.mark.parametrize("option, talent, weapon, ap", [("yes", False, "sword", 3), ("no", False, "sword", 2),
                                                         ("no", True, "sword", 3), ("no", False, None, 3)])
def test_v10_9_start_ready_no_costs_1_ap_in_the_first_turn(option, talent, weapon, ap):
    """V-10.9 ``start_ready``: ``no`` spends 1 AP at the start of the fighter's first turn on readying
    the weapon in hand (only once); the talent ``fastest_hand`` waives it, bare hands need none."""
    from brutal_sim.rulesets.vereteno.kernel import reset, turn_start
    p = prepared(fighter(weapon=weapon, fastest_hand=talent), "swordsman", start_ready=option)
    c = p.compiled
    S = np.zeros((2, L.NS), dtype=np.int64)
    reset(c.fighters, S)
    st = np.empty(4, dtype=np.uint64)
    seed_duel(st, np.uint64(1), np.int64(0))
    cnt = np.zeros(c.n_counters, dtype=np.int64)
    turn_start(c.fighters, S, c.options, c.tables[0], st, cnt, 0)
    assert S[0, L.S_AP] == ap
    S[0, L.S_AP] = 3
    turn_start(c.fighters, S, c.options, c.tables[0], st, cnt, 0)
    assert S[0, L.S_AP] == 3


def test_v10_9_start_ready_no_favours_the_fastest_hand():
    """V-10.9: a swordsman with «Самая быстрая рука в Славии» against its twin: even under
    ``start_ready = yes`` (the talent does nothing), ahead by more than 4σ under ``no`` (its twin's
    first turn has 2 AP)."""
    n = 100_000
    rates = {}
    for option in ("yes", "no"):
        r = api.duel(fighter(weapon="sword", fastest_hand=True), fighter(weapon="sword"), ruleset="vereteno", n=n,
                     seed=7, options={"start_ready": option})
        rates[option] = (r.counters[L.C_WINS] - r.counters[L.C_WINS + 1]) / n
    assert abs(rates["yes"]) < 4 * math.sqrt(1 / n)
    assert rates["no"] > 4 * math.sqrt(1 / n)
