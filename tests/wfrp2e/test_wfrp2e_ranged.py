"""WFRP 2e ranged combat (W-7, W-9.4, W-9.5, W-8.9, W-8.10): the seed's longbow shot, exact single
shots by band and aim against the sampling kernel, reload sequences, the example fighters, bad
input."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner
from wfrp2e_util import exact, fighter, prepared, state, within

from brutal_sim import api
from brutal_sim.cli import app
from brutal_sim.rulesets.wfrp2e import RULESET, layout as L
from brutal_sim.rulesets.wfrp2e.kernel import (
    absorbed,
    band,
    damage_bonus,
    location,
    reload,
    shot_target,
    succeeds,
    take_damage,
    turn,
)
from brutal_sim.run.engine import run_duel_counters

N = 200_000
WALL = {"t": 99, "tb": 10, "w": 100}


def _p(a, b, **options) -> dict:
    return exact(a, b, **options).to_dict()


def test_w7_1_seed_91_longbow_shot_on_a_goblin():
    """W-7.1 test vector (seed 91): BS 42 rolls 25 → a hit; reversed 52 → left arm; longbow 3 + d10 8
    = 11; goblin TB 2 in a leather jerkin (body only): the arm has no AP → 9 Wounds. W-9.4 longbow."""
    kith = RULESET.catalog().fighter("kithband")
    goblin = fighter(t=25, tb=2, w=8, armour=["leather_jerkin"])
    p = prepared(kith, goblin, start_distance=20)
    F, o = p.compiled.fighters, p.compiled.options
    assert kith.bs == 42 and succeeds(o, 25, 42) and not succeeds(o, 43, 42)
    assert location(25) == L.LOC_LARM
    assert 8 + damage_bonus(F, state(p), o, 0, L.SLOT_MISSILE) - absorbed(F, o, 0, 1, L.SLOT_MISSILE, L.LOC_LARM) == 9
    assert absorbed(F, o, 0, 1, L.SLOT_MISSILE, L.LOC_BODY) == 2 + 1 - 1  # W-7.13 Armour Piercing: jerkin 1 → 0


@pytest.mark.parametrize("distance,options,expected", [
    (30, {}, 0.52),  # W-7.4 short (≤ 30), W-7.3 aim +10: 42 + 10
    (31, {}, 0.32),  # long: −20 + 10
    (60, {}, 0.32),
    (61, {}, 0.12),  # W-7.5 very long (≤ 120): −30 flat, aim does not add
    (120, {"extreme_mod": "aim_adds"}, 0.22),
    (120, {"extreme_mod": "stack"}, 0.02),
])
def test_w7_3_w7_4_w7_5_exact_shots_by_band_and_aim(distance, options, expected):
    """W-7.1 – W-7.5: the kithband's first shot (BS 42, longbow 30/60) is aimed; no parry or dodge
    against a shot (W-7.2, W-4.5: the duelist's Dodge Blow and parry never come up)."""
    d = _p("kithband", "duelist", start_distance=distance, **options)
    assert d["p_hit"] == pytest.approx(expected, abs=1e-12)
    assert d["p_parried"] == d["p_dodged"] == 0


def test_w7_5_very_long_range_off_and_w7_4_no_long_range():
    """extreme = off: beyond long range there is no shot: from 61 yards the kithband's first turn
    (W-8.9) moves to its long range (60) and shoots unaimed with the half action left; from 100
    yards its two moves (2 × 10 yards) leave it out of range, no shot (the measure refuses it).
    W-7.4: a throwing axe (8/–) reaches 8 yards (short_is_max), with very long range 16;
    double_short: long 16 (SB 3 − 2 damage; WS 40 thrower BS 40)."""
    moved = api.attack("kithband", "orc", ruleset="wfrp2e", options={"start_distance": "61", "extreme": "off"})
    assert (moved.shot, moved.distance) == ("unaimed", 60)
    r = CliRunner().invoke(app, ["attack", "kithband", "orc", "--ruleset", "wfrp2e", "--option", "start_distance=100",
                                 "--option", "extreme=off"])
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1 and "no shot in its first turn" in r.output
    axe = fighter(bs=40, missile="throwing_axe", tactic="marksman")
    b = fighter(reaction="none")
    assert _p(axe, b, start_distance=8)["p_hit"] == pytest.approx(0.50)
    assert _p(axe, b, start_distance=9)["p_hit"] == pytest.approx(0.10)
    assert _p(axe, b, start_distance=9, no_long="double_short")["p_hit"] == pytest.approx(0.30)
    p = prepared(axe, b, start_distance=17, no_long="double_short")
    assert band(p.compiled.fighters, state(p), p.compiled.options, 0, L.SLOT_MISSILE) == L.BAND_EXTREME


def test_w7_9_a_running_target_and_w7_7_shooting_in_melee():
    """W-7.9: shots at a runner −20 (W-11.2, until its next turn); W-7.7: a shooter engaged −20;
    W-7.2: the target's defensive stance (a melee modifier) does nothing against a shot."""
    p = prepared("kithband", "orc", start_distance=20)
    F, o = p.compiled.fighters, p.compiled.options
    S = state(p)
    assert (shot_target(F, S, o, 0, L.SLOT_MISSILE, L.BAND_SHORT, 10) == 52
            and shot_target(F, S, o, 0, L.SLOT_MISSILE, L.BAND_LONG, 0) == 22)
    S[1, L.S_DEF_STANCE] = 1
    assert shot_target(F, S, o, 0, L.SLOT_MISSILE, L.BAND_SHORT, 10) == 52
    S[1, L.S_RUNNING] = 1
    assert shot_target(F, S, o, 0, L.SLOT_MISSILE, L.BAND_SHORT, 10) == 32
    S[0, L.S_ENGAGED] = 1
    assert shot_target(F, S, o, 0, L.SLOT_MISSILE, L.BAND_SHORT, 0) == 2


def test_w7_6_engaged_only_pistols_shoot_and_w7_7_minus_20():
    """W-7.6: engaged, the pistol fires (unaimed, W-7.7 −20: BS 41 → 21 %), the longbow does not."""
    assert _p("pistolier", "orc")["p_hit"] == pytest.approx(0.21, abs=1e-12)
    r = CliRunner().invoke(app, ["attack", "kithband", "orc", "--ruleset", "wfrp2e"])
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1 and "W-7.6" in r.output


@pytest.mark.parametrize("a,b,distance", [("kithband", "orc", 40), ("crossbowman", "knight", 20),
                                          ("pistolier", "duelist", 0), ("goblin_archer", "swordsman", 60)])
def test_w7_1_exact_shot_matches_sampled(a, b, distance):
    """W-7.1: the enumeration of one shot (bands, aim, Impact, Armour Piercing, criticals) against
    the sampling kernel within 4σ, outcome by outcome and level by level."""
    opts = {"start_distance": str(distance)}
    ex = api.attack(a, b, options=opts, ruleset="wfrp2e")
    sa = api.attack(a, b, n=N, seed=29, options=opts, ruleset="wfrp2e")
    assert ex.outcomes.sum() == pytest.approx(1.0, abs=1e-12) and ex.outcomes[1] == ex.outcomes[2] == 0
    for k in range(4):
        assert within(ex.outcomes[k], sa.outcomes[k], N), (k, ex.outcomes, sa.outcomes)
    for lv in range(5):
        for z in range(4):
            assert within(ex.levels[lv, z], sa.levels[lv, z], N), (lv, z, ex.levels, sa.levels)


@pytest.mark.parametrize("qualities,p_low", [(["impact"], 0.16), ([], 0.40)])
def test_w7_13_impact_pistol_damage_is_the_higher_of_two_d10(qualities, p_low):
    """W-7.13 Impact (pistol 4, flat damage): engaged a hit (BS 100 − 20: 80 %) deals k + 4 − TB 3 =
    k + 1 with k the higher of 2d10 (without Impact one d10); on W 5: k ≤ 4 leaves it heavily
    wounded (16 % with Impact, 40 % without), k ≥ 5 is critical (sudden death: out)."""
    pistol = {"group": "blackpowder", "damage": 4, "short": 8, "long": 16, "reload": "2 full", "engaged_fire": True,
              "qualities": qualities}
    d = _p(fighter(bs=100, missile=pistol, tactic="marksman"), fighter(t=30, w=5, reaction="none"))
    assert d["p_hit"] == pytest.approx(0.80, abs=1e-12)
    levels = d["wound_level"]
    assert levels["heavily_wounded"] / (levels["heavily_wounded"] + levels["out"]) == pytest.approx(p_low, abs=1e-12)
    assert levels["wounded"] == levels["critical"] == 0


def _turns(shooter, foe, turns: int, **options):
    """Side a's turns alone, foe standing still (WALL, turtle): (shots fired, S_LOADED) after each."""
    p = prepared(shooter, foe, **options)
    F, o = p.compiled.fighters, p.compiled.options
    S = state(p)
    cnt = np.zeros(p.compiled.n_counters, dtype=np.int64)
    st = np.zeros(4, dtype=np.uint64) + np.uint64(11)
    out = []
    for _ in range(turns):
        turn(F, S, o, *p.compiled.tables, st, cnt, 0)
        out.append((int(cnt[L.C_ATTACKS:L.C_ATTACKS + L.N_OUTCOMES].sum()), int(S[0, L.S_LOADED])))
    return out


def test_w7_10_reloads_over_half_and_full_actions_and_rounds_w8_9():
    """W-7.10, W-8.9, W-2.5 (an action over several rounds): bow (1 half): aim + shoot, then
    reload + shoot every turn; crossbow (1 full): aim + shoot, reload (a whole turn), aim + shoot;
    pistol (2 full): shoot, two turns of reloading, shoot; start_loaded = false: a reload first."""
    foe = fighter(tactic="turtle", **WALL)
    bow = fighter(bs=40, missile="bow", tactic="marksman")
    assert _turns(bow, foe, 3, start_distance=20) == [(1, 0), (2, 0), (3, 0)]
    xbow = fighter(bs=40, missile="crossbow", tactic="marksman")
    assert _turns(xbow, foe, 4, start_distance=20) == [(1, 0), (1, 1), (2, 0), (2, 1)]
    pistol = fighter(bs=40, missile="pistol", tactic="marksman")
    assert _turns(pistol, foe, 4, start_distance=6) == [(1, 0), (1, 0), (1, 1), (2, 0)]
    assert _turns(xbow, foe, 2, start_distance=20, start_loaded="false") == [(0, 1), (1, 0)]
    assert _turns(bow, foe, 1, start_distance=20, start_loaded="false") == [(1, 0)]  # reload + shoot
    p = prepared(pistol, foe)
    F, S = p.compiled.fighters, state(p)
    S[0, L.S_LOADED] = 0
    assert reload(F, S, 0, 1) == 0 and reload(F, S, 0, 2) == 2 and S[0, L.S_RELOADING] == 2


def test_w8_9_out_of_range_the_marksman_walks_to_long_range():
    """W-8.9 (4): beyond very long range (shortbow 16/32: 64) it Moves 2·M toward the foe, stopping
    at long range; from 70 yards a Move of 8 → 62, within very long range but with one half action
    left (no unaimed very long shot): a second Move → 54; next turn aim + shot at −30."""
    p = prepared(fighter(bs=40, missile="shortbow", tactic="marksman"), fighter(tactic="turtle", **WALL),
                 start_distance=70)
    F, o = p.compiled.fighters, p.compiled.options
    S = state(p)
    cnt = np.zeros(p.compiled.n_counters, dtype=np.int64)
    st = np.zeros(4, dtype=np.uint64) + np.uint64(2)
    turn(F, S, o, *p.compiled.tables, st, cnt, 0)
    assert S[1, L.S_X] - S[0, L.S_X] == 54 and cnt[L.C_ATTACKS:L.C_ATTACKS + 4].sum() == 0
    turn(F, S, o, *p.compiled.tables, st, cnt, 0)
    assert S[1, L.S_X] - S[0, L.S_X] == 54 and cnt[L.C_ATTACKS:L.C_ATTACKS + 4].sum() == 1


def test_w8_10_engaged_the_shooter_draws_and_fights_in_melee():
    """W-8.10 shoot_then_draw, W-7.6: engaged with a longbow: stow it, ready the dagger (half), a
    standard attack; with a pistol: the shot, then the rapier (no attack left). Sampled, WS 40 on a
    foe that does not react, round 1: 40 % hits (bow drawn to dagger); the pistol BS 41 − 20: 21 %."""
    n = 4000
    foe = fighter(ws=0, ag=0, reaction="none", **WALL)
    archer = fighter(ws=40, bs=40, ag=90, missile="longbow", main_hand="dagger")
    cnt, _ = run_duel_counters(prepared(archer, foe, round_cap=1).compiled, n, seed=3)
    mine = cnt[L.C_ATTACKS:L.C_ATTACKS + L.N_OUTCOMES]
    assert mine.sum() == n and within(0.40, mine[L.OUT_HIT] / n, n)
    pistolier = fighter(ws=40, bs=41, ag=90, missile="pistol", main_hand="rapier")
    cnt, _ = run_duel_counters(prepared(pistolier, foe, round_cap=2).compiled, n, seed=3)
    mine = cnt[L.C_ATTACKS:L.C_ATTACKS + L.N_OUTCOMES]
    assert mine.sum() == 2 * n  # round 1 the shot, round 2 a rapier attack (guarded, WS 40)
    assert abs(mine[L.OUT_HIT] / n - 0.61) <= 4 * np.sqrt((0.21 * 0.79 + 0.40 * 0.60) / n)


def test_w9_4_missile_weapons_and_w9_5_example_fighters():
    """W-9.4: the catalog's ranged weapons (damage, ranges, reload); W-9.5: the example fighters."""
    cat = RULESET.catalog()
    w = cat.weapons
    assert (w["longbow"].damage, w["longbow"].short, w["longbow"].long, w["longbow"].reload) == (3, 30, 60, "1 half")
    assert w["longbow"].has("armour_piercing") and w["pistol"].has("impact") and w["pistol"].engaged_fire
    assert (w["crossbow"].damage, w["crossbow"].reload, w["pistol"].reload) == (4, "1 full", "2 full")
    assert w["javelin"].thrown and not w["bow"].thrown
    for name, bs, m, missile in (("kithband", 42, 5, "longbow"), ("crossbowman", 38, 4, "crossbow"),
                                 ("pistolier", 41, 4, "pistol"), ("goblin_archer", 30, 4, "shortbow")):
        f = cat.fighter(name)
        assert (f.bs, f.m, f.missile.name) == (bs, m, missile)
    assert cat.fighter("kithband").tactic == "shoot_then_draw" and cat.fighter("goblin_archer").tactic == "marksman"
    assert RULESET.plays("distance") and RULESET.plays("fights")


@pytest.mark.parametrize("weapon,message", [
    ({"group": "bow", "damage": 3}, "short"),  # a missile weapon without range
    ({"group": "bow", "damage": 3, "short": 10, "reload": "one half"}, "count of actions"),
    ({"group": "bow", "damage": 3, "short": 10, "reload": "2 turns"}, "count of actions"),
])
def test_w9_4_bad_missile_weapons_are_refused(tmp_path, weapon, message):
    """One line, exit 2: a missile weapon without range, a reload that is not a count of actions."""
    body = "\n".join(f"{k} = {v!r}".replace("'", '"') for k, v in weapon.items())
    f = tmp_path / "archer.toml"
    f.write_text(f'ruleset = "wfrp2e"\nws = 30\nbs = 40\ns = 30\nt = 30\nag = 30\nw = 10\n[missile]\n{body}\n')
    r = CliRunner().invoke(app, ["duel", str(f), "orc", "-n", "10", "--option", "start_distance=20"])
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1 and message in r.output, r.output


@pytest.mark.parametrize("distance,foe_m,loaded,options,expected", [
    (40, 4, 1, {}, (1, 40, 0)),  # (1) d 40 > r 16: marksman, aim + shot
    (16, 4, 1, {}, (1, 26, 0)),  # (2) 16 + 10 > 16, loaded: Move away 10 + a shot
    (16, 4, 0, {}, (0, 26, 0)),  # (3) empty, longbow 1 half: Move away + reload
    (4, 4, 1, {}, (0, 24, 0)),  # (4) 4 + 20 > 16: Move away twice
    (4, 6, 1, {}, (0, 34, 1)),  # (5) r 24: 4 + 20 ≤ 24 < 4 + 30: Run away 30 (a runner)
    (4, 10, 1, {}, (1, 4, 0)),  # (6) r 40: no escape, marksman: aim + shot
    (10, 4, 1, {"arena": 20}, (1, 10, 0)),  # at the arena's end (x = −5): marksman
])
def test_w8_11_kite_keeps_out_of_the_foes_charge_reach(distance, foe_m, loaded, options, expected):
    """W-8.11 kite (kithband, M 5: s = 10, Run 30) against a foe of charge reach r = 4·M (W-11.2):
    (shots fired, distance after its turn, running)."""
    p = prepared(RULESET.catalog().fighter("kithband").model_copy(update={"tactic": "kite"}),
                 fighter(m=foe_m, tactic="turtle", **WALL), start_distance=distance, **options)
    F, o = p.compiled.fighters, p.compiled.options
    S = state(p)
    S[0, L.S_LOADED] = loaded
    if options:
        S[0, L.S_X] = -5
        S[1, L.S_X] = 5
    cnt = np.zeros(p.compiled.n_counters, dtype=np.int64)
    st = np.zeros(4, dtype=np.uint64) + np.uint64(5)
    turn(F, S, o, *p.compiled.tables, st, cnt, 0)
    shots = int(cnt[L.C_ATTACKS:L.C_ATTACKS + L.N_OUTCOMES].sum())
    assert (shots, int(S[1, L.S_X] - S[0, L.S_X]), int(S[0, L.S_RUNNING])) == expected


@pytest.mark.parametrize("rule,expected", [("other_action", (1, 0)), ("also_damage", (0, 2))])
def test_w7_10_reload_break_restarts_a_reload_on_damage(rule, expected):
    """W-7.10 reload_break: a pistol (2 full) shot, then one turn of reloading (2 of 4 half actions);
    a hit of 3 damage; the next turn completes the reload (other_action) or, the reload restarted by
    the damage (also_damage), leaves it half done again: (loaded, half actions under way)."""
    p = prepared(fighter(bs=40, missile="pistol", tactic="marksman"), fighter(tactic="turtle", **WALL),
                 start_distance=6, reload_break=rule)
    F, o = p.compiled.fighters, p.compiled.options
    S = state(p)
    cnt = np.zeros(p.compiled.n_counters, dtype=np.int64)
    st = np.zeros(4, dtype=np.uint64) + np.uint64(5)
    for _ in range(2):
        turn(F, S, o, *p.compiled.tables, st, cnt, 0)
    assert (S[0, L.S_LOADED], S[0, L.S_RELOADING]) == (0, 2)
    take_damage(F, S, o, *p.compiled.tables, st, cnt, 1, 0, L.SLOT_MAIN, L.LOC_BODY, 3)
    turn(F, S, o, *p.compiled.tables, st, cnt, 0)
    assert (int(S[0, L.S_LOADED]), int(S[0, L.S_RELOADING])) == expected
