"""B-9.4 (a dodge ends the defensive stance), B-9.5 (a dazed fighter's passive checks) and B-9.6
(terrain per side, darkness): scripted dice computed by hand, and the exact enumeration of one
attack against the sampling kernel."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import (
    assert_exact_matches_sampled,
    blank_fighters,
    compiled,
    counters,
    default_options,
    fresh_state,
    p_2d6_at_least,
    set_tactic,
    within,
)
from test_rules_scripted import ZT, scripted

from brutal_sim import api
from brutal_sim.rulesets.brutal import layout as L
from brutal_sim.rulesets.brutal.exact import enumerate_attack_on
from brutal_sim.rulesets.brutal.kernel import (
    active_penalty,
    attack,
    attack_bonus,
    attack_situation,
    check_penalty,
    dodge_bonus_total,
    gain_fatigue,
    passive_bonus,
    reaction_modifier,
    set_ground,
    shot_cover_penalty,
    tactic_attack,
    take_wound,
)
from brutal_sim.toolbox.rng import seed_duel


def _dodge_or_hit(cnt) -> str:
    got = cnt[L.C_ATTACKS:L.C_ATTACKS + 5]
    return L.OUTCOME_NAMES[int(np.flatnonzero(got)[0])]


# -- B-9.4 a dodge interrupts concentration ------------------------------------------------------------

def _stance_pair(tactic: str = "defensive", reaction: int = L.R_DODGE):
    """b (dodge 3, melee 3) holds its tactic's stance, as after its own turn; a attacks with fists."""
    F = blank_fighters()
    set_tactic(F, 1, tactic)
    F[1, L.P_REACTION] = reaction
    F[1, L.P_DODGE] = 3
    F[1, L.P_MELEE] = 3
    S = fresh_state(F)
    S[1, L.S_STANCE] = F[1, L.P_T_STANCE]
    return F, S


@pytest.mark.parametrize("mode,dodge,outcome,left", [("after", 5, "dodged", 0), ("before", 3, "hit", 0),
                                                      ("never", 5, "dodged", 2)])
def test_b9_4_a_dodge_ends_the_defensive_stance(mode, dodge, outcome, left):
    """B-9.4: b in the defensive stance (+2, B-3.2) dodges a's attack of 4+4 = 8 with 2+2.
    ``after``: 4 + 3 + 2 = 9 dodges it, then the stance ends; ``before``: 4 + 3 = 7 is hit (a tie or
    less hits, B-4.5) and the stance ends; ``never``: dodged, the +2 stays until b's next turn."""
    F, S = _stance_pair()
    opts = default_options(dodge_ends_stance=mode)
    assert dodge_bonus_total(F, S, opts, 1) == dodge
    cnt = counters()
    attack(F, S, opts, ZT, scripted((4, 4), (2, 2)), cnt, 0, 1, L.SLOT_FISTS, 0, L.ZONE_TORSO, L.K_NORMAL)
    assert _dodge_or_hit(cnt) == outcome
    assert S[1, L.S_STANCE] == left
    assert dodge_bonus_total(F, S, opts, 1) == 3 + left  # the next dodge this round


def test_b9_4_a_parry_keeps_the_stance_and_total_defence_is_not_concentration():
    """B-9.4: a parry does not interrupt concentration (the +2 stays); total defence (B-3.7) is a
    defence action, not concentration: its +4 survives a dodge with every option value."""
    F, S = _stance_pair(reaction=L.R_PARRY)
    cnt = counters()
    attack(F, S, default_options(), ZT, scripted((4, 4), (2, 2)), cnt, 0, 1, L.SLOT_FISTS, 0, L.ZONE_TORSO,
           L.K_NORMAL)
    assert _dodge_or_hit(cnt) == "parried" and S[1, L.S_STANCE] == 2  # 4 + 3 + 2 = 9 > 8
    for mode in ("after", "before"):
        F, S = _stance_pair("total_defence")
        opts = default_options(dodge_ends_stance=mode)
        assert dodge_bonus_total(F, S, opts, 1) == 3 + 4
        cnt = counters()
        attack(F, S, opts, ZT, scripted((4, 4), (2, 2)), cnt, 0, 1, L.SLOT_FISTS, 0, L.ZONE_TORSO, L.K_NORMAL)
        assert _dodge_or_hit(cnt) == "dodged" and S[1, L.S_STANCE] == 4


# -- B-9.5 dazed: passive checks ---------------------------------------------------------------------

@pytest.mark.parametrize("mode,stunned", [("active_only", 0), ("all_checks", 1)])
def test_b9_5_toughness_against_a_wound_effect_is_passive(mode, stunned):
    """B-9.5: dazed b (toughness 0) takes a light torso wound (5 blunt) and rolls 4+4 against 8:
    passive, 8 passes; with all_checks the dazed −2 makes it 6 and b is stunned (B-7.1). Its
    reactions take the −2 either way."""
    F = blank_fighters()
    S = fresh_state(F)
    S[1, L.S_DAZE] = 1
    opts = default_options(dazed_penalty=mode)
    assert reaction_modifier(F, S, opts, 1, True) == reaction_modifier(F, S, opts, 1, False) == -2
    assert passive_bonus(F, S, opts, 1, L.P_TOUGHNESS) == -2 * stunned
    take_wound(F, S, opts, scripted((4, 4)), counters(), 1, 5, L.DT_BLUNT, L.ZONE_TORSO)
    assert S[1, L.S_STUN] == stunned


@pytest.mark.parametrize("mode,out", [("active_only", 0), ("all_checks", L.CAUSE_EXHAUSTED + 1)])
def test_b9_5_willpower_against_exhaustion_is_passive(mode, out):
    """B-9.5, B-7.8: dazed b of endurance 1 and willpower 2 gains its 2nd level (exhausted, −2) and
    rolls 6+6 against 12: 12 + 2 − 2 = 12 passes; with all_checks a further −2 makes 10: unconscious."""
    F = blank_fighters()
    F[1, L.P_ENDURANCE] = 1
    F[1, L.P_WILLPOWER] = 2
    S = fresh_state(F)
    S[1, L.S_FATIGUE] = 1
    S[1, L.S_DAZE] = 1
    gain_fatigue(F, S, default_options(dazed_penalty=mode), scripted((6, 6)), 1, 1)
    assert S[1, L.S_OUT] == out


@pytest.mark.parametrize("mode,dead", [("active_only", 0), ("all_checks", 1)])
def test_b9_5_toughness_against_death_after_a_mortal_wound_is_passive(mode, dead):
    """B-9.5, B-5.4: dazed b (toughness 0) takes 16 (mortal) and rolls 6+6 against 12: alive
    (12); with all_checks 10: dead."""
    F = blank_fighters()
    S = fresh_state(F)
    S[1, L.S_DAZE] = 1
    take_wound(F, S, default_options(dazed_penalty=mode), scripted((6, 6)), counters(), 1, 16, L.DT_BLUNT,
               L.ZONE_TORSO)
    assert S[1, L.S_OUT] == L.CAUSE_MORTAL + 1 and S[1, L.S_DEAD] == dead


N_DAZED = 400_000


def _dazed_defender(mode: str):
    c = compiled("brute", "swordsman", {"dazed_penalty": mode})
    F, opts, (zt,) = c.fighters, c.options, c.tables
    S = fresh_state(F)
    set_ground(F, S, opts)
    S[1, L.S_DAZE] = 1
    return F, opts, zt, S


def _exact_fates(mode: str) -> tuple[np.ndarray, np.ndarray]:
    F, opts, zt, S = _dazed_defender(mode)
    outcomes, levels, damage, fates = np.zeros(5), np.zeros((6, 4)), np.zeros(1), np.zeros(2)
    enumerate_attack_on(F, S.copy(), opts, zt, outcomes, levels, damage, fates, np.zeros(2))
    return outcomes, fates


@pytest.mark.parametrize("mode", ["active_only", "all_checks"])
def test_b9_5_exact_knock_outs_of_a_dazed_defender_match_the_kernel(mode):
    """B-9.5: the brute's furious attack on a dazed swordsman (parry −2 either way). Exact: the
    outcome shares and P(knocked out by the wound's effects: heavy head and toughness 12 failed,
    critical head, other critical and toughness 14 failed, B-7.2, B-7.3), P(dead: mortal and
    toughness 12 failed, B-5.4), the toughness checks without the dazed −2 unless all_checks.
    Sampled: the kernel's own attack on the same state, N times, within 4 standard errors."""
    outcomes, fates = _exact_fates(mode)
    F, opts, zt, S0 = _dazed_defender(mode)
    S0[0, L.S_IN_TURN] = 1
    got = np.zeros(5)
    knocked = dead = 0
    st = np.empty(4, dtype=np.uint64)
    for i in range(N_DAZED):
        S = S0.copy()
        cnt = counters()
        seed_duel(st, np.uint64(91), np.int64(i))
        tactic_attack(F, S, opts, zt, st, cnt, 0, 2, True)
        got += cnt[L.C_ATTACKS:L.C_ATTACKS + 5]
        knocked += S[1, L.S_OUT] == L.CAUSE_KNOCKED_OUT + 1
        dead += S[1, L.S_DEAD]
    assert fates[0] > 0.05 and fates[1] > 0.002
    for k in range(5):
        assert within(outcomes[k], got[k] / N_DAZED, N_DAZED), L.OUTCOME_NAMES[k]
    assert within(fates[0], knocked / N_DAZED, N_DAZED)
    assert within(fates[1], dead / N_DAZED, N_DAZED)


def test_b9_5_a_dazed_defender_is_knocked_out_less_often_with_passive_toughness():
    """B-9.5: the same attack outcomes under both values (reactions take −2 either way); the
    passive reading lowers P(knocked out) and P(dead) by more than 4 standard errors of the
    sampled test above."""
    o_active, f_active = _exact_fates("active_only")
    o_all, f_all = _exact_fates("all_checks")
    np.testing.assert_allclose(o_active, o_all, atol=1e-12)
    se = np.sqrt(f_all * (1 - f_all) / N_DAZED)
    assert (f_all - f_active > 4 * se).all()


# -- B-9.6 terrain and darkness ---------------------------------------------------------------------

def test_b9_6_terrain_penalises_each_side_s_active_checks_only():
    """B-9.6: difficult ground −1 for side a, very difficult −2 for side b, on attacks, feints,
    athletics, mobility and shots (``active_penalty``, ``check_penalty``) and on parries and dodges;
    not on the passive toughness and willpower checks (B-9.5)."""
    F = blank_fighters()
    opts = default_options(terrain_a="difficult", terrain_b="very_difficult")
    S = fresh_state(F)
    set_ground(F, S, opts)
    for i, pen in ((0, 1), (1, 2)):
        assert (active_penalty(F, S, i), check_penalty(F, S, i)) == (pen, pen)
        assert reaction_modifier(F, S, opts, i, True) == reaction_modifier(F, S, opts, i, False) == -pen
        assert passive_bonus(F, S, opts, i, L.P_TOUGHNESS) == passive_bonus(F, S, opts, i, L.P_WILLPOWER) == 0
    assert attack_bonus(F, S, 0, L.SLOT_FISTS, 0) == -1
    S = fresh_state(F)
    set_ground(F, S, default_options())
    assert active_penalty(F, S, 0) == check_penalty(F, S, 1) == 0


@pytest.mark.parametrize("dodge_option,dodge", [("no", 0), ("yes", -4)])
def test_b9_6_darkness_on_attacks_shots_parries_and_dodges_by_option(dodge_option, dodge):
    """B-9.6: darkness −4 to melee attacks (``attack_situation``), shots (``shot_cover_penalty``)
    and parries; dodges by ``darkness_dodge``; athletics and mobility checks never."""
    F = blank_fighters()
    opts = default_options(darkness="on", darkness_dodge=dodge_option)
    S = fresh_state(F)
    set_ground(F, S, opts)
    assert attack_situation(F, S, opts, 0, 1) == -4
    assert shot_cover_penalty(F, opts, 0, 1) == 4
    assert reaction_modifier(F, S, opts, 1, True) == -4
    assert reaction_modifier(F, S, opts, 1, False) == dodge
    assert check_penalty(F, S, 1) == 0
    off = default_options()
    assert (attack_situation(F, S, off, 0, 1), shot_cover_penalty(F, off, 0, 1),
            reaction_modifier(F, S, off, 1, True)) == (0, 0, 0)


@pytest.mark.parametrize("options,minus", [({}, 0), ({"terrain_a": "difficult"}, 1),
                                           ({"terrain_a": "very_difficult"}, 2), ({"terrain_b": "very_difficult"}, 0),
                                           ({"darkness": "on"}, 4), ({"darkness": "on", "terrain_a": "difficult"}, 5)])
def test_b9_6_exact_hit_chance_without_a_reaction(options, minus):
    """B-9.6: the swordsman's single attack on a militia that does not react hits on
    2d6 + melee − penalty ≥ 8 (exact enumeration, computed by hand); b's ground does not matter."""
    c = compiled("swordsman", "militia", options, reaction_b="none")
    bonus = int(c.fighters[0, L.P_MELEE] + c.fighters[0, L.P_ATTACK_MOD])
    ex = api.attack("swordsman", "militia", reaction="none", options=options)
    assert ex.outcomes[L.OUT_HIT] == pytest.approx(p_2d6_at_least(8 - bonus + minus), abs=1e-12)


N = 200_000
MATCHUPS = [
    ("swordsman", "brute", {"terrain_a": "difficult", "terrain_b": "very_difficult", "darkness": "on"}, {}),
    ("duelist", "knight", {"darkness": "on", "darkness_dodge": "yes", "terrain_b": "difficult"}, {}),
    ("crossbowman", "swordsman", {"start_distance": 40, "darkness": "on", "darkness_dodge": "yes",
                                  "terrain_a": "very_difficult", "terrain_b": "difficult"}, {}),
]


@pytest.mark.parametrize("a,b,options,kw", MATCHUPS, ids=[m[0] + "-" + m[1] for m in MATCHUPS])
def test_b9_6_exact_matches_sampled(a, b, options, kw):
    """B-9.6 terrain and darkness: the exact enumeration of one attack (melee, feint, shot at 40 m
    with a dodge) against the sampling kernel, within 4 standard errors."""
    ex = api.attack(a, b, options=options, **kw)
    sa = api.attack(a, b, n=N, seed=23, options=options, **kw)
    assert_exact_matches_sampled(ex, sa, N)
