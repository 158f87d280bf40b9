"""B-8 cover [Укрытие], indirect cover [Неявное укрытие] and charge [Натиск] (seed lines ~383–414,
53, 105, 208, 506–510): exact single-attack numbers by hand, exact against sampled, charge turns,
bad option values."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_exact_matches_sampled, p_2d6_at_least, within

from brutal_sim import api
from brutal_sim.core.errors import DataError
from brutal_sim.rulesets.brutal import layout as L, options as O
from brutal_sim.rulesets.brutal.kernel import charges, open_aim, zone_hidden
from brutal_sim.toolbox.battle import place_sides, start_battle

N = 200_000


# -- explicit cover: the attack penalty (a smaller target) -----------------------------------------

@pytest.mark.parametrize("degree,penalty", [("none", 0), ("quarter", 1), ("half", 2), ("three_quarters", 4)])
def test_cover_penalises_melee_attack(degree, penalty):
    """B-8: swordsman (melee 3) on a militia that does not react: hit when 2d6 + 3 − penalty ≥ 8."""
    r = api.attack("swordsman", "militia", reaction="none", options={"cover_b": degree})
    assert r.outcomes[L.OUT_HIT] == pytest.approx(p_2d6_at_least(5 + penalty), abs=1e-12)
    assert r.outcomes[L.OUT_MISS] == pytest.approx(1 - p_2d6_at_least(5 + penalty), abs=1e-12)


def test_half_cover_hit_probability_by_hand():
    # 2d6 ≥ 7 (half cover −2): 21 of 36
    r = api.attack("swordsman", "militia", reaction="none", options={"cover_b": "half"})
    assert r.outcomes[L.OUT_HIT] == pytest.approx(21 / 36, abs=1e-12)


def test_attackers_own_cover_does_not_penalise_melee():
    r = api.attack("swordsman", "militia", reaction="none", options={"cover_a": "three_quarters"})
    assert r.outcomes[L.OUT_HIT] == pytest.approx(30 / 36, abs=1e-12)


def test_cover_penalises_shots_and_shooter_behind_cover():
    """B-8 shot at 40 m (medium −2) by the crossbowman (ranged 3, aim +1) at a non-reacting target:
    difficulty 8, so hit when 2d6 + 2 − penalties ≥ 8. Half cover −2; shooting from behind cover −2
    (option cover_shooter_penalty); indirect penalty dense −2."""
    base = {"start_distance": 40}
    cases = [({}, 6), ({"cover_b": "half"}, 8), ({"cover_a": "quarter"}, 8),
             ({"cover_a": "quarter", "cover_shooter_penalty": 0}, 6),
             ({"indirect_cover_penalty_b": "dense"}, 8),
             ({"indirect_cover_penalty_b": "thicket", "cover_b": "quarter"}, 11)]
    for extra, need in cases:
        r = api.attack("crossbowman", "militia", reaction="none", options={**base, **extra})
        assert r.outcomes[L.OUT_HIT] == pytest.approx(p_2d6_at_least(need), abs=1e-12), extra


# -- explicit cover: zone re-rolls -------------------------------------------------------------------

def test_horizontal_cover_zone_shares():
    """B-8: horizontal cover hides rolls 1–10 (legs 1–6, torso 7–10); the open rolls 11–20 are
    torso 11–14, arms 15–18, head 19–20 (B-4.9 default table), renormalised."""
    r = api.attack("swordsman", "militia", reaction="none", options={"cover_b": "half"}).to_dict()
    assert r["zone"] == pytest.approx({"head": 0.2, "torso": 0.4, "arm": 0.4, "leg": 0.0}, abs=1e-12)


def test_vertical_cover_zone_shares():
    """B-8: vertical cover to the left hides the odd rolls except 19 (head): open 2 4 6 (legs),
    8 10 12 14 (torso), 16 18 (arms), 19 20 (head): 11 rolls."""
    r = api.attack("swordsman", "militia", reaction="none",
                   options={"cover_b": "quarter", "cover_zones_b": "vertical_left"}).to_dict()
    assert r["zone"] == pytest.approx({"head": 2 / 11, "torso": 4 / 11, "arm": 2 / 11, "leg": 3 / 11}, abs=1e-12)


def test_aimed_attack_into_hidden_zone_is_rolled():
    """B-8: an aimed blow hits an open zone; a zone wholly behind cover is rolled among the open ones
    (the −4 of the aimed attack still applies)."""
    opts = {"cover_b": "half"}
    legs = api.attack("swordsman", "militia", reaction="none", tactic="aimed:left_leg", options=opts).to_dict()
    assert legs["zone"] == pytest.approx({"head": 0.2, "torso": 0.4, "arm": 0.4, "leg": 0.0}, abs=1e-12)
    assert legs["p_hit"] == pytest.approx(p_2d6_at_least(11), abs=1e-12)  # −4 aimed, −2 half cover
    torso = api.attack("swordsman", "militia", reaction="none", tactic="aimed:torso", options=opts).to_dict()
    assert torso["zone"]["torso"] == pytest.approx(1.0)  # rolls 11–14 of the torso are open


DEFAULT_ZT = np.array([4, 5] * 3 + [1] * 8 + [2, 3] * 2 + [0, 0], dtype=np.int8)  # the default table


def test_zone_hidden_and_open_aim_kernel_rules():
    zt = DEFAULT_ZT
    F = np.zeros((2, L.NF), dtype=np.int64)
    F[1, L.P_SIDE] = 1
    S = np.zeros((2, L.NS), dtype=np.int64)
    opts = np.zeros(O.NO, dtype=np.int64)
    assert not any(zone_hidden(F, S, opts, zt, 1, r) for r in range(20))  # no cover: all open
    opts[O.O_COVER + 1] = 2
    assert [r + 1 for r in range(20) if zone_hidden(F, S, opts, zt, 1, r)] == list(range(1, 11))
    assert not any(zone_hidden(F, S, opts, zt, 0, r) for r in range(20))  # side a has no cover
    opts[O.O_COVER_ZONES + 1] = O.COVER_VERTICAL_RIGHT
    assert [r + 1 for r in range(20) if zone_hidden(F, S, opts, zt, 1, r)] == [2, 4, 6, 8, 10, 12, 14, 16, 18]
    assert open_aim(F, S, opts, zt, 1, L.ZONE_RARM) == -1  # right arm rolls 16, 18: hidden
    assert open_aim(F, S, opts, zt, 1, L.ZONE_LARM) == L.ZONE_LARM
    assert open_aim(F, S, opts, zt, 1, -1) == -1


def _hidden_rolls(opts, S=None, zt=DEFAULT_ZT):
    F = np.zeros((2, L.NF), dtype=np.int64)
    F[1, L.P_SIDE] = 1
    S = np.zeros((2, L.NS), dtype=np.int64) if S is None else S
    return [r + 1 for r in range(zt.shape[0]) if zone_hidden(F, S, opts, zt, 1, r)]


def test_b9_9_rolls_hidden_by_each_degree_kernel_rule():
    """B-9.9 ``by_degree`` on the default d20 table (legs 1–6 odd left, torso 7–14, arms 15–18 odd
    left, head 19–20): quarter horizontal the legs, half rolls 1–10, three quarters all but the head
    and the shown arm and leg (``S_SHOWN`` v: arm left + v % 2, leg left + v // 2; vertical cover:
    the open side's); vertical quarter and half cover the side's rolls. ``same_as_half``: every
    degree as half cover."""
    opts = np.zeros(O.NO, dtype=np.int64)
    opts[O.O_COVER + 1] = 1
    assert _hidden_rolls(opts) == [1, 2, 3, 4, 5, 6]
    opts[O.O_COVER + 1] = 2
    assert _hidden_rolls(opts) == list(range(1, 11))
    opts[O.O_COVER + 1] = 3
    S = np.zeros((2, L.NS), dtype=np.int64)
    shown = {0: (15, 1, 3, 5), 1: (16, 1, 3, 5), 2: (15, 2, 4, 6), 3: (16, 2, 4, 6)}  # open arm and leg rolls
    for v, open_rolls in shown.items():
        S[1, L.S_SHOWN] = v
        arm, legs = open_rolls[0], open_rolls[1:]
        assert _hidden_rolls(opts, S) == [r for r in range(1, 19) if r not in legs and r not in (arm, arm + 2)]
    opts[O.O_COVER_ZONES + 1] = O.COVER_VERTICAL_LEFT  # shows the right arm and leg whatever S_SHOWN says
    assert _hidden_rolls(opts, S) == [1, 3, 5] + list(range(7, 16)) + [17]
    S[1, L.S_SHOWN] = 0
    assert _hidden_rolls(opts, S) == [1, 3, 5] + list(range(7, 16)) + [17]
    for degree in (1, 2):
        opts[O.O_COVER + 1] = degree
        assert _hidden_rolls(opts) == [1, 3, 5, 7, 9, 11, 13, 15, 17]
    opts[O.O_COVER_DEGREE_ZONES] = O.COVER_DEGREES_SAME_AS_HALF
    opts[O.O_COVER_ZONES + 1] = O.COVER_HORIZONTAL
    for degree in (1, 2, 3):
        opts[O.O_COVER + 1] = degree
        assert _hidden_rolls(opts) == list(range(1, 11))


def test_b9_9_custom_zone_table_defines_the_hidden_rolls():
    """B-9.9 with a custom table (B-4.9): the leg rolls and the shown zones are the table's; a cover
    that would hide every roll (quarter cover on a table of legs) hides none."""
    zt = np.array([1, 4, 5, 4, 2, 3], dtype=np.int8)  # d6: torso, left leg, right leg, left leg, arms
    opts = np.zeros(O.NO, dtype=np.int64)
    opts[O.O_COVER + 1] = 1
    assert _hidden_rolls(opts, zt=zt) == [2, 3, 4]
    opts[O.O_COVER + 1] = 3
    S = np.zeros((2, L.NS), dtype=np.int64)
    S[1, L.S_SHOWN] = 3  # right arm, right leg
    assert _hidden_rolls(opts, S, zt) == [1, 2, 4, 5]
    legs = np.array([4, 5], dtype=np.int8)
    opts[O.O_COVER + 1] = 1
    assert _hidden_rolls(opts, zt=legs) == []
    opts[O.O_COVER + 1] = 3
    assert _hidden_rolls(opts, S, legs) == [1]


@pytest.mark.parametrize("degree,zones,shares", [
    ("quarter", "horizontal", {"head": 2 / 14, "torso": 8 / 14, "arm": 4 / 14, "leg": 0.0}),
    ("half", "horizontal", {"head": 0.2, "torso": 0.4, "arm": 0.4, "leg": 0.0}),
    ("three_quarters", "horizontal", {"head": 2 / 7, "torso": 0.0, "arm": 2 / 7, "leg": 3 / 7}),
    ("three_quarters", "vertical_right", {"head": 2 / 7, "torso": 0.0, "arm": 2 / 7, "leg": 3 / 7}),
    ("quarter", "vertical_right", {"head": 2 / 11, "torso": 4 / 11, "arm": 2 / 11, "leg": 3 / 11}),
])
def test_b9_9_zone_shares_behind_each_degree_exact(degree, zones, shares):
    """B-9.9 (seed lines 394–402), exact zone shares of the hits on a militia behind cover
    (``cover_degree_zones = by_degree``, the default): quarter hides the legs (14 open rolls), half
    rolls 1–10, three quarters all but the head (2 rolls), one arm (2) and one leg (3); vertical
    quarter cover its side's rolls. With ``same_as_half`` every degree gives half cover's shares;
    the hit chance is the degree's either way."""
    opts = {"cover_b": degree, "cover_zones_b": zones}
    r = api.attack("swordsman", "militia", reaction="none", options=opts).to_dict()
    assert r["zone"] == pytest.approx(shares, abs=1e-12)
    half = api.attack("swordsman", "militia", reaction="none",
                      options={**opts, "cover_zones_b": "horizontal", "cover_degree_zones": "same_as_half"}).to_dict()
    assert half["zone"] == pytest.approx({"head": 0.2, "torso": 0.4, "arm": 0.4, "leg": 0.0}, abs=1e-12)
    assert half["p_hit"] == pytest.approx(r["p_hit"], abs=1e-12)


def test_b9_9_aimed_at_an_arm_behind_three_quarter_cover_exact():
    """B-9.9: the duelist (melee 4: aimed −4, cover −4, a hit needs 6+6) aimed at the left arm of a
    militia behind three-quarter horizontal cover: the arm shows in half the fights (hit there),
    else the blow is rolled among head 2, right arm 2, leg 3: arm 1/2 + 1/2 · 2/7, head 1/7, leg
    3/14. Behind vertical_left cover (right arm shown) it is always rolled."""
    r = api.attack("duelist", "militia", reaction="none", tactic="aimed:left_arm",
                   options={"cover_b": "three_quarters"}).to_dict()
    assert r["zone"] == pytest.approx({"head": 1 / 7, "torso": 0.0, "arm": 9 / 14, "leg": 3 / 14}, abs=1e-12)
    v = api.attack("duelist", "militia", reaction="none", tactic="aimed:left_arm",
                   options={"cover_b": "three_quarters", "cover_zones_b": "vertical_left"}).to_dict()
    assert v["zone"] == pytest.approx({"head": 2 / 7, "torso": 0.0, "arm": 2 / 7, "leg": 3 / 7}, abs=1e-12)


def test_b9_9_shown_arm_and_leg_drawn_uniformly_per_fight():
    """B-9.9: the d4 of the shown arm and leg, drawn at the start of every fight (after fear) only
    for a fighter behind three-quarter horizontal cover with ``by_degree``: over 4000 duel streams
    each value 0…3 comes within 4σ of 1/4; nothing is drawn with ``same_as_half``, vertical cover or
    another degree."""
    from brutal_sim.rulesets.brutal.kernel import draw_shown, draws_shown
    from brutal_sim.toolbox.rng import seed_duel

    F = np.zeros((2, L.NF), dtype=np.int64)
    F[1, L.P_SIDE] = 1
    opts = np.zeros(O.NO, dtype=np.int64)
    opts[O.O_COVER + 1] = 3
    assert draws_shown(F, opts, 1) and not draws_shown(F, opts, 0)
    S = np.zeros((2, L.NS), dtype=np.int64)
    st = np.empty(4, dtype=np.uint64)
    n = 4000
    seen = np.zeros(4, dtype=np.int64)
    for i in range(n):
        seed_duel(st, np.uint64(7), np.int64(i))
        draw_shown(F, S, opts, st, 1)
        seen[S[1, L.S_SHOWN]] += 1
    assert all(within(0.25, c / n, n) for c in seen)
    for off in ({O.O_COVER_DEGREE_ZONES: O.COVER_DEGREES_SAME_AS_HALF}, {O.O_COVER_ZONES + 1: O.COVER_VERTICAL_LEFT},
                {O.O_COVER + 1: 2}):
        o = opts.copy()
        for k, v in off.items():
            o[k] = v
        assert not draws_shown(F, o, 1)


# -- exact against sampled ---------------------------------------------------------------------------

SAMPLED_CASES = [
    ("swordsman", "knight", {"cover_b": "half"}, {}),
    ("duelist", "militia", {"cover_b": "three_quarters", "cover_zones_b": "vertical_right"}, {}),
    ("militia", "swordsman", {"cover_b": "quarter", "cover_zones_b": "vertical_left"}, {"tactic": "aimed:left_arm"}),
    ("crossbowman", "swordsman", {"start_distance": 40, "cover_b": "half", "indirect_cover_b": 30}, {}),
    ("crossbowman", "knight", {"start_distance": 20, "cover_a": "half", "indirect_cover_b": 55,
                               "indirect_cover_penalty_b": "sparse"}, {"tactic": "aimed:head"}),
    # B-9.9: the shown arm and leg drawn per attack (sampled) and averaged over the four (exact)
    ("crossbowman", "knight", {"start_distance": 20, "cover_b": "three_quarters"}, {"tactic": "aimed:right_arm"}),
    ("brute", "militia", {"cover_b": "three_quarters"}, {}),
    ("knight", "militia", {"cover_b": "quarter"}, {}),
]


@pytest.mark.parametrize("a,b,options,kw", SAMPLED_CASES, ids=lambda v: str(v) if isinstance(v, dict) else v)
def test_exact_matches_sampled_with_cover(a, b, options, kw):
    ex = api.attack(a, b, options=options, **kw)
    sa = api.attack(a, b, n=N, seed=23, options=options, **kw)
    assert_exact_matches_sampled(ex, sa, N)


# -- indirect cover ------------------------------------------------------------------------------------

@pytest.mark.parametrize("value", [25, 60])
def test_indirect_cover_deflects_value_percent_of_hits(value):
    """B-8: a d100 ≤ value after a hit deflects the shot (counted a miss): exactly
    P(hit) = (1 − value/100) · P(hit without), and the sampled rate within 4σ of it."""
    opts = {"start_distance": 40}
    p0 = api.attack("crossbowman", "swordsman", options=opts).outcomes
    ex = api.attack("crossbowman", "swordsman", options={**opts, "indirect_cover_b": value}).outcomes
    deflected = value / 100 * p0[L.OUT_HIT]
    assert ex[L.OUT_HIT] == pytest.approx(p0[L.OUT_HIT] - deflected, abs=1e-12)
    assert ex[L.OUT_MISS] == pytest.approx(p0[L.OUT_MISS] + deflected, abs=1e-12)
    sa = api.attack("crossbowman", "swordsman", n=N, seed=5, options={**opts, "indirect_cover_b": value}).outcomes
    assert within(ex[L.OUT_HIT], sa[L.OUT_HIT], N)
    assert within(deflected + p0[L.OUT_MISS], sa[L.OUT_MISS], N)


def test_unseen_target_is_never_shot():
    """B-8: indirect cover 100 %: the shooter cannot shoot at all; two unseen shooters never fight."""
    r = api.attack("crossbowman", "swordsman", options={"start_distance": 40, "indirect_cover_b": 100})
    assert r.outcomes.sum() == 0.0
    d = api.duel("crossbowman", "crossbowman", n=2000, seed=3,
                 options={"start_distance": 40, "indirect_cover_a": 100, "indirect_cover_b": 100, "round_cap": 5})
    assert d.draws == 2000
    assert sum(d.attack_outcomes(0).values()) + sum(d.attack_outcomes(1).values()) == 0


def test_indirect_cover_does_not_apply_in_melee():
    """A shot fired in melee (distance 0) is a melee attack: no d100, no indirect penalty."""
    plain = api.attack("crossbowman", "militia")
    covered = api.attack("crossbowman", "militia",
                         options={"indirect_cover_b": 80, "indirect_cover_penalty_b": "thicket"})
    assert np.allclose(plain.outcomes, covered.outcomes, atol=1e-15)


# -- charge ----------------------------------------------------------------------------------------------

def charge_round(tactic: str, distance: int, **options: object):
    """Round 1 only, b surprised: what side a's swordsman (movement 5) does from ``distance`` m."""
    return api.duel("swordsman", "militia", n=20_000, seed=11, tactic_a=tactic,
                    options={"start_distance": distance, "surprise": "b", "round_cap": 1, **options})


def test_charge_closes_and_attacks_in_one_turn():
    """B-8: from 15 m (within a run's 20 m) a charge engages and attacks in the same turn; a run
    (full action) or two moves (10 m) does not attack."""
    n = 20_000
    charged = charge_round("charge", 15)
    assert sum(charged.attack_outcomes(0).values()) == n
    assert sum(charge_round("single", 15).attack_outcomes(0).values()) == 0
    assert sum(charge_round("advance", 15).attack_outcomes(0).values()) == 0
    assert sum(charge_round("charge", 21).attack_outcomes(0).values()) == 0  # beyond a run: no charge


@pytest.mark.parametrize("modifier", [0, 2, -3])
def test_charge_attack_hit_rate(modifier):
    """The surprised militia cannot react: the charge hits when 2d6 + 3 + modifier ≥ 8 (within 4σ)."""
    n = 20_000
    r = charge_round("charge", 12, charge_attack_modifier=modifier)
    p = p_2d6_at_least(5 - modifier)
    assert within(p, r.attack_outcomes(0)["hit"] / n, n)


def test_charge_forbidden_after_heavy_wound():
    """B-7.4: no charge after a heavy or critical wound (S_NO_RUN), nor with one action left or
    beyond four moves or when engaged."""
    F = np.zeros((2, L.NF), dtype=np.int64)
    F[0, L.P_T_CHARGE] = 1
    F[0, L.P_MOVEMENT] = 5
    F[1, L.P_SIDE] = 1
    S = np.zeros((2, L.NS), dtype=np.int64)
    start_battle(F, S)
    place_sides(F, S, 12)
    assert charges(F, S, 0, 2)
    assert not charges(F, S, 0, 1)
    S[0, L.S_NO_RUN] = 1
    assert not charges(F, S, 0, 2)
    S[0, L.S_NO_RUN] = 0
    place_sides(F, S, 21)
    assert not charges(F, S, 0, 2)
    place_sides(F, S, 0)
    assert not charges(F, S, 0, 2)
    F[0, L.P_T_CHARGE] = 0
    place_sides(F, S, 12)
    assert not charges(F, S, 0, 2)


def test_charge_provokes_the_target_by_option():
    """B-3.8 GAP: with charge_provokes = target the (unsurprised, engaged on arrival) militia makes an
    opportunity attack at every charge; by default a charge from apart provokes nothing."""
    n = 5_000
    opts = {"start_distance": 15, "round_cap": 1}
    base = api.duel("swordsman", "militia", n=n, seed=2, tactic_a="charge", tactic_b="total_defence", options=opts)
    prov = api.duel("swordsman", "militia", n=n, seed=2, tactic_a="charge", tactic_b="total_defence",
                    options={**opts, "charge_provokes": "target"})
    # total defence: no attacks and no opportunity attacks (B-3.7) once it has acted; militia's
    # attacks happen only when the charge comes before its turn
    assert sum(base.attack_outcomes(1).values()) == 0
    assert 0 < sum(prov.attack_outcomes(1).values()) < n


# -- bad values ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("key,value,text", [
    ("cover_a", "full", "allowed: none, quarter, half, three_quarters"),
    ("cover_zones_b", "diagonal", "allowed: horizontal, vertical_left, vertical_right"),
    ("indirect_cover_b", "150", "out of range; allowed 0..100"),
    ("indirect_cover_penalty_a", "-2", "allowed: none, sparse, dense, thicket"),
    ("charge_attack_modifier", "9", "out of range; allowed -4..4"),
    ("charge_provokes", "always", "allowed: engaged_start, target"),
])
def test_bad_option_values_are_one_line_errors(key, value, text):
    with pytest.raises(DataError) as err:
        api.attack("swordsman", "militia", options={key: value})
    message = str(err.value)
    assert "\n" not in message and key in message and text in message


def test_charge_tactic_must_attack_in_melee():
    from brutal_sim.rulesets.brutal.model import Tactic

    for bad in ({"charge": True, "ranged": True}, {"charge": True, "attack": "none"}):
        with pytest.raises(ValueError, match="charge"):
            Tactic(name="x", **bad)


def test_cli_bad_cover_option_exits_2():
    from typer.testing import CliRunner

    from brutal_sim.cli import app

    res = CliRunner().invoke(app, ["attack", "swordsman", "militia", "--option", "cover_b=most"])
    assert res.exit_code == 2
    assert "cover_b" in res.output


def test_charge_knockdown_gets_two_athletics():
    """Seed line 208 (B-3.9 inside a charge): the attacker's athletics +2. With the defender's
    mobility hopeless (dodge −20) it falls whenever 2d6 + A (+2) > 2d6 + D; sampled within 4σ of the
    exact share."""
    from brutal_sim.rulesets.brutal.kernel import knockdown
    from brutal_sim.toolbox.rng import seed_duel

    F = np.zeros((2, L.NF), dtype=np.int64)
    F[:, L.P_NCELLS] = 7
    F[0, L.P_ATHLETICS], F[1, L.P_ATHLETICS], F[1, L.P_DODGE] = 1, 2, -20
    st = np.empty(4, dtype=np.uint64)
    n = 20_000
    for charging, bonus in ((0, 0), (1, 2)):
        exact = sum(1 for x in range(2, 13) for y in range(2, 13)
                    if x + 1 + bonus > y + 2 for _ in range(min(x - 1, 13 - x) * min(y - 1, 13 - y))) / 1296
        prone = 0
        for i in range(n):
            S = np.zeros((2, L.NS), dtype=np.int64)
            S[0, L.S_CHARGING] = charging
            seed_duel(st, np.uint64(99), np.int64(i))
            knockdown(F, S, st, 0, 1)
            prone += int(S[1, L.S_PRONE])
        assert within(exact, prone / n, n), (charging, exact, prone / n)
