"""WFRP 2e missile qualities and talents (W-7.3, W-7.8, W-7.10, W-7.12 – W-7.14): Sure Shot and its
stacking with Armour Piercing, the misfire dial, Shrapnel, Sharpshooter, Mighty Shot, Rapid Reload,
Master Gunner, Quick Draw, Ambidextrous, Marksman; exact single shots, kernel steps and the naive
reference duel by duel."""

from __future__ import annotations

import naive_wfrp2e as naive
import numpy as np
import pytest
from wfrp2e_util import exact, fighter, prepared, state, within

from brutal_sim import api
from brutal_sim.rulesets.wfrp2e import RULESET, layout as L
from brutal_sim.rulesets.wfrp2e.compile import compile_fighter
from brutal_sim.rulesets.wfrp2e.exact import first_turn_shot
from brutal_sim.rulesets.wfrp2e.kernel import (
    absorbed,
    aim_bonus,
    attack_target,
    damage_bonus,
    reload_need,
    turn,
)
from brutal_sim.toolbox.rng import seed_duel

WALL = {"t": 99, "tb": 10, "w": 100}
PLATE = {"body": 3}  # an inline armour piece: body AP 3


def _p(a, b, **options) -> dict:
    return exact(a, b, **options).to_dict()


@pytest.mark.parametrize("missile,talents,stack,ap", [
    ("bow", [], "true", 3),
    ("bow", ["sure_shot"], "true", 2),  # Sure Shot −1 AP
    ("longbow", [], "true", 2),  # Armour Piercing −1 AP
    ("longbow", ["sure_shot"], "true", 1),  # both: −2
    ("longbow", ["sure_shot"], "false", 2),  # sure_shot_stack = false: −1 in all
])
def test_w7_13_sure_shot_and_sure_shot_stack(missile, talents, stack, ap):
    """W-7.13: Sure Shot ignores 1 AP of a ranged hit; with the weapon's Armour Piercing the
    ``sure_shot_stack`` GAP: −2 AP (true) or −1 (false). TB 3 + the AP left on the body; nothing
    where unarmoured (the arm), and nothing for a melee blow."""
    p = prepared(fighter(bs=40, missile=missile, talents=talents, main_hand="hand_weapon"),
                 fighter(armour=[PLATE]), start_distance=20, sure_shot_stack=stack)
    F, o = p.compiled.fighters, p.compiled.options
    assert absorbed(F, o, 0, 1, L.SLOT_MISSILE, L.LOC_BODY) == 3 + ap
    assert absorbed(F, o, 0, 1, L.SLOT_MISSILE, L.LOC_LARM) == 3
    assert absorbed(F, o, 0, 1, L.SLOT_MAIN, L.LOC_BODY) == 3 + 3


def test_w7_13_sure_shot_moves_the_exact_shot():
    """W-7.13: an exact shot (BS 100, bow 3 at 10 yards, aimed: always a hit) on TB 3, W 1: more than
    1 damage is critical (sudden death: out). Elsewhere (75 %) d10 + 3 − 3 > 1: 90 %; on the body
    (25 %, AP 3) d10 − 3 > 1: 60 %, with Sure Shot d10 − 2 > 1: 70 %."""
    b = fighter(armour=[PLATE], w=1, reaction="none")
    for talents, p_body in (([], 0.60), (["sure_shot"], 0.70)):
        d = _p(fighter(bs=100, missile="bow", talents=talents, tactic="marksman"), b, start_distance=10)
        assert d["p_hit"] == pytest.approx(1.0, abs=1e-12)
        assert d["wound_level"]["out"] == pytest.approx(0.75 * 0.9 + 0.25 * p_body, abs=1e-12)


@pytest.mark.parametrize("band,weapon,expected", [(0, "pistol", 1.0), (10, "pistol", 0.90), (10, "bow", 1.0),
                                                  (4, "firearm", 0.96)])
def test_w7_13_the_misfire_dial_jams_unreliable_weapons(band, weapon, expected):
    """W-7.13 ``misfire_band``: an Unreliable weapon's shot whose d100 is above 100 − band jams (a
    miss), whatever its BS (100 + aim); a bow is not Unreliable."""
    a = fighter(bs=100, missile=weapon, tactic="marksman")
    assert _p(a, fighter(reaction="none"), start_distance=6, misfire_band=band)["p_hit"] == pytest.approx(expected)


def test_w7_13_a_jam_sampled_and_it_empties_a_weapon_without_reload():
    """W-7.13: the sampled shot agrees with the exact one (BS 95 + 10 aim: every roll hits, but band
    10 jams 91–100: 90 %); a jam empties a weapon with reload 0, which otherwise stays loaded
    (W-7.10), so after one turn it is loaded exactly when its shot hit."""
    n = 20_000
    gun = {"group": "blackpowder", "damage": 4, "short": 8, "long": 16, "reload": "0", "qualities": ["unreliable"]}
    a = fighter(bs=95, missile=gun, tactic="marksman")
    b = fighter(reaction="none", **WALL)
    ex = api.attack(a, b, options={"start_distance": "6", "misfire_band": "10"}, ruleset="wfrp2e")
    sa = api.attack(a, b, n=n, seed=5, options={"start_distance": "6", "misfire_band": "10"}, ruleset="wfrp2e")
    assert ex.outcomes[L.OUT_HIT] == pytest.approx(0.90) and within(0.90, sa.outcomes[L.OUT_HIT], n)
    p = prepared(a, b, start_distance=6, misfire_band=10)
    F, o = p.compiled.fighters, p.compiled.options
    jammed = 0
    for seed in range(60):  # a turn: aim + shot; loaded afterwards unless it jammed
        S = state(p)
        cnt = np.zeros(p.compiled.n_counters, dtype=np.int64)
        st = np.empty(4, dtype=np.uint64)
        seed_duel(st, np.uint64(7), seed)
        turn(F, S, o, *p.compiled.tables, st, cnt, 0)
        hit = cnt[L.C_ATTACKS + L.OUT_HIT]
        assert S[0, L.S_LOADED] == hit
        jammed += 1 - hit
    assert 0 < jammed < 20


@pytest.mark.parametrize("rule,distance,expected", [
    ("no_test", 20, 1.0),  # within short range (32): hit without a BS test
    ("bs_test", 20, 0.40),  # BS 30 + aim 10
    ("no_test", 32, 1.0),
    ("no_test", 40, 0.0),  # beyond short range: a very long shot, BS 30 − 30
])
def test_w7_13_shrapnel_no_test_or_bs_test(rule, distance, expected):
    """W-7.13 ``shrapnel`` (W-9.4 blunderbuss 32/–, Shrapnel, Unreliable): no_test hits its one target
    within short range without a test; bs_test shoots as any other weapon."""
    a = fighter(bs=30, missile="blunderbuss", tactic="marksman")
    assert _p(a, fighter(reaction="none"), start_distance=distance, shrapnel=rule)["p_hit"] == pytest.approx(expected)
    assert RULESET.catalog().weapons["blunderbuss"].has("shrapnel")


def test_w7_13_shrapnel_with_the_misfire_dial():
    """W-7.13: a shrapnel shot without a test still draws its d100 (the location), which may jam."""
    a = fighter(bs=30, missile="blunderbuss", tactic="marksman")
    assert _p(a, fighter(reaction="none"), start_distance=20, misfire_band=10)["p_hit"] == pytest.approx(0.90)


def test_w7_3_sharpshooter_aims_for_plus_20():
    """W-7.3, W-7.14: Sharpshooter's aim gives +20 instead of +10: the kithband's aimed shot at 30
    yards (BS 42) 52 % → 62 %, at 40 yards (long, −20) 32 % → 42 %."""
    kith = RULESET.catalog().fighter("kithband")
    sharp = kith.model_copy(update={"talent_items": [RULESET.catalog().talents["sharpshooter"]]})
    for distance, plain, better in ((30, 0.52, 0.62), (40, 0.32, 0.42)):
        assert _p(kith, "orc", start_distance=distance)["p_hit"] == pytest.approx(plain, abs=1e-12)
        assert _p(sharp, "orc", start_distance=distance)["p_hit"] == pytest.approx(better, abs=1e-12)
    p = prepared(sharp, "orc", start_distance=30)
    assert aim_bonus(p.compiled.fighters, 0) == 20
    assert first_turn_shot(*p.compiled.args())[1:4] == (L.SLOT_MISSILE, L.BAND_SHORT, 20)


def test_w7_14_mighty_shot_and_marksman():
    """W-7.14: Mighty Shot +1 missile damage (not melee); Marksman's +5 BS is in the profile: the
    talent changes nothing of the compiled fighter."""
    plain = fighter(bs=40, missile="longbow", main_hand="hand_weapon")
    mighty = fighter(bs=40, missile="longbow", main_hand="hand_weapon", talents=["mighty_shot"])
    for f, extra in ((plain, 0), (mighty, 1)):
        p = prepared(f, fighter(), start_distance=20)
        S = state(p)
        assert damage_bonus(p.compiled.fighters, S, p.compiled.options, 0, L.SLOT_MISSILE) == 3 + extra
        assert damage_bonus(p.compiled.fighters, S, p.compiled.options, 0, L.SLOT_MAIN) == 3
    marks = fighter(bs=40, missile="longbow", main_hand="hand_weapon", talents=["marksman"])
    assert (compile_fighter(marks) == compile_fighter(plain)).all()


def _turns(shooter, turns: int, distance: int = 6):
    """Side a's turns alone against a standing wall: (shots fired, loaded) after each."""
    p = prepared(shooter, fighter(tactic="turtle", **WALL), start_distance=distance)
    F, o = p.compiled.fighters, p.compiled.options
    S = state(p)
    cnt = np.zeros(p.compiled.n_counters, dtype=np.int64)
    st = np.zeros(4, dtype=np.uint64) + np.uint64(11)
    out = []
    for _ in range(turns):
        turn(F, S, o, *p.compiled.tables, st, cnt, 0)
        out.append((int(cnt[L.C_ATTACKS:L.C_ATTACKS + L.N_OUTCOMES].sum()), int(S[0, L.S_LOADED])))
    return out


@pytest.mark.parametrize("missile,talents,need,sequence", [
    ("bow", ["rapid_reload"], 0, [(1, 1), (2, 1), (3, 1)]),  # 1 half → free: aim + shot every turn
    ("crossbow", ["rapid_reload"], 1, [(1, 0), (2, 0), (3, 0)]),  # 1 full → 1 half: reload + shot
    ("pistol", [], 4, [(1, 0), (1, 0), (1, 1), (2, 0)]),  # 2 full
    ("pistol", ["rapid_reload"], 3, [(1, 0), (1, 0), (2, 0), (2, 0)]),  # 1½ full: a turn, then a half + shot
    ("pistol", ["rapid_reload", "master_gunner"], 2, [(1, 0), (1, 1), (2, 0), (2, 1)]),  # 1 full
    ("crossbow", ["master_gunner"], 2, [(1, 0), (1, 1), (2, 0), (2, 1)]),  # not blackpowder: unchanged
])
def test_w7_10_rapid_reload_and_master_gunner(missile, talents, need, sequence):
    """W-7.10: Rapid Reload takes one half action off a reload (a half becomes free), Master Gunner
    one more for blackpowder; 1½ full actions = one turn, then a half action (W-8.9 marksman turns:
    (shots fired, loaded) after each)."""
    shooter = fighter(bs=40, missile=missile, tactic="marksman", talents=talents)
    assert reload_need(prepared(shooter, fighter()).compiled.fighters, 0, L.SLOT_MISSILE) == need
    assert _turns(shooter, len(sequence)) == sequence


@pytest.mark.parametrize("talents,stance", [([], 0), (["quick_draw"], 1)])
def test_w7_12_quick_draw_readies_for_free(talents, stance):
    """W-7.12 Quick Draw: engaged with a longbow (W-8.10) the archer stows it and readies its hand
    weapon for free, so its guarded turn is a standard attack + parry stance (without: the Ready, one
    attack). A pistol's shot (the round's attack) leaves the half action for the parry stance. A
    dropped weapon (W-3.11) is readied for free too."""
    foe = fighter(reaction="none", **WALL)
    archer = fighter(bs=40, missile="longbow", main_hand="hand_weapon", talents=talents)
    p = prepared(archer, foe)
    S = state(p)
    cnt = np.zeros(p.compiled.n_counters, dtype=np.int64)
    st = np.zeros(4, dtype=np.uint64) + np.uint64(3)
    turn(p.compiled.fighters, S, p.compiled.options, *p.compiled.tables, st, cnt, 0)
    assert cnt[L.C_ATTACKS:L.C_ATTACKS + L.N_OUTCOMES].sum() == 1 and S[0, L.S_MISSILE] == 0
    assert S[0, L.S_PARRY_STANCE] == stance
    pistolier = fighter(bs=40, missile="pistol", main_hand="rapier", talents=talents)
    p = prepared(pistolier, foe)
    S = state(p)
    cnt[:] = 0
    turn(p.compiled.fighters, S, p.compiled.options, *p.compiled.tables, st, cnt, 0)
    assert cnt[L.C_ATTACKS:L.C_ATTACKS + L.N_OUTCOMES].sum() == 1  # the shot only
    assert S[0, L.S_MISSILE] == 0 and S[0, L.S_PARRY_STANCE] == stance
    swordsman = fighter(main_hand="hand_weapon", talents=talents)
    p = prepared(swordsman, foe)
    S = state(p)
    S[0, L.S_HELD_MAIN] = 0  # dropped
    turn(p.compiled.fighters, S, p.compiled.options, *p.compiled.tables, st, cnt, 0)
    assert S[0, L.S_HELD_MAIN] == 1 and S[0, L.S_PARRY_STANCE] == stance


def test_w7_8_ambidextrous_has_no_off_hand_penalty():
    """W-7.8, W-4.10: an off-hand blow is −20 WS; Ambidextrous removes it (WS 40: 20 → 40); the
    exact attack of an off-hand-only fighter moves with it (guarded, no off-hand parry item: attack +
    parry stance)."""
    for talents, ws in (([], 20), (["ambidextrous"], 40)):
        a = fighter(off_hand="hand_weapon", talents=talents)
        p = prepared(a, fighter())
        assert attack_target(p.compiled.fighters, state(p), p.compiled.options, 0, L.SLOT_OFF, 0) == ws
    d = _p(fighter(ws=40, off_hand="hand_weapon", talents=["ambidextrous"], tactic="berserk"),
           fighter(reaction="none"))
    assert d["p_hit"] == pytest.approx(0.60, abs=1e-12)  # WS 40 + all-out 20


SEED = 31
CASES = [
    (fighter(ws=35, bs=42, ag=45, m=5, missile="longbow", main_hand="dagger", armour=["leather_jack"],
             talents=["sure_shot", "sharpshooter", "mighty_shot"]), "knight", {"start_distance": 40,
                                                                              "sure_shot_stack": "false"}),
    (fighter(ws=40, bs=41, ag=42, missile="pistol", main_hand="rapier", dodge=42,
             talents=["rapid_reload", "master_gunner", "quick_draw"]), "duelist",
     {"start_distance": 6, "misfire_band": 10}),
    (fighter(bs=35, missile="blunderbuss", main_hand="hand_weapon", talents=["quick_draw"]), "orc",
     {"start_distance": 30, "misfire_band": 6}),
    (fighter(bs=35, missile="blunderbuss", main_hand="hand_weapon"), "orc",
     {"start_distance": 30, "shrapnel": "bs_test", "no_long": "double_short"}),
    (fighter(ws=45, off_hand="hand_weapon", talents=["ambidextrous", "quick_draw"]), "goblin",
     {"crit_model": "table", "crit_table": "example"}),
    (fighter(bs=45, missile="crossbow", main_hand="hand_weapon", talents=["rapid_reload"], tactic="kite"), "orc",
     {"start_distance": 30, "round_cap": 30}),
]


@pytest.mark.parametrize("k", range(len(CASES)))
def test_w7_13_w7_14_kernel_and_naive_reference_agree(k):
    """W-7.10, W-7.12, W-7.13, W-7.14, W-7.8: the kernel against ``naive_wfrp2e``, duel by duel and
    single attack by single attack, with the missile talents and options of this file."""
    a, b, options = CASES[k]
    p = prepared(a, b, **options)
    F, o, grid, fx = p.compiled.args()
    n = p.compiled.n_counters
    for i in range(60):
        row = p.compiled.kernels.duels(F, o, grid, fx, np.uint64(SEED), np.int64(i), np.int64(1), 1, n)[0]
        assert row.tolist() == naive.duel(F, o, grid, fx, SEED, i).counter_row(n), f"duel {i}"
        row = p.compiled.kernels.attacks(F, o, grid, fx, np.uint64(SEED), np.int64(i), np.int64(1), 1, n)[0]
        assert row.tolist() == naive.attack(F, o, grid, fx, SEED, i).counter_row(n), f"attack {i}"


def test_w7_9_a_shield_bearer_is_harder_to_hit_unless_surprised():
    """W-7.9: shots at a fighter holding a shield −10 while it is aware (not surprised, W-2.6): the
    kithband's aimed short shot (52) at the swordsman (hand weapon + shield) 42 %, 52 % with
    surprise = b; the orc (no shield) 52 %."""
    assert _p("kithband", "swordsman", start_distance=20)["p_hit"] == pytest.approx(0.42, abs=1e-12)
    assert _p("kithband", "swordsman", start_distance=20, surprise="b")["p_hit"] == pytest.approx(0.52, abs=1e-12)
    assert _p("kithband", "orc", start_distance=20)["p_hit"] == pytest.approx(0.52, abs=1e-12)
    assert RULESET.catalog().weapons["shield"].shield and not RULESET.catalog().weapons["buckler"].shield


@pytest.mark.parametrize("option,stunned,target", [
    ("none", 0, 52), ("none", 1, 52), ("plus20", 1, 72), ("plus20", 0, 52)])
def test_w7_9_bs_bonus_against_a_stunned_target(option, stunned, target):
    """W-7.9 ``bs_bonus``: a stunned target's +20 is a melee bonus (none) or also BS (plus20)."""
    p = prepared("kithband", "orc", start_distance=20, bs_bonus=option)
    S = state(p)
    S[1, L.S_STUN] = stunned
    from brutal_sim.rulesets.wfrp2e.kernel import shot_target
    assert shot_target(p.compiled.fighters, S, p.compiled.options, 0, L.SLOT_MISSILE, L.BAND_SHORT, 10) == target


def test_w7_9_visibility_and_cover():
    """W-7.9 ``visibility`` (a dial: N off every shot): 52 % → 22 % at 30; ``cover = legs``: a shot's
    leg hit (reversed roll 81–00, 20 %) strikes the body (25 % → 45 %); melee is not covered."""
    assert _p("kithband", "orc", start_distance=20, visibility=30)["p_hit"] == pytest.approx(0.22, abs=1e-12)
    a = fighter(bs=100, missile="bow", tactic="marksman")
    for cover, body, leg in (("none", 0.25, 0.20), ("legs", 0.45, 0.0)):
        d = exact(a, fighter(reaction="none", **WALL), start_distance=10, cover=cover)
        zone = d.levels.sum(axis=0)
        assert (zone[L.ZONE_BODY], zone[L.ZONE_LEG]) == (pytest.approx(body), pytest.approx(leg))
    m = exact(fighter(ws=100, main_hand="hand_weapon", tactic="berserk"), fighter(reaction="none", **WALL),
              cover="legs")
    assert m.levels.sum(axis=0)[L.ZONE_LEG] == pytest.approx(0.20)


@pytest.mark.parametrize("options", [
    {"start_distance": 20, "visibility": 10, "cover": "legs", "bs_bonus": "plus20", "crit_model": "table",
     "crit_table": "example", "surprise": "b"},
    {"start_distance": 40, "bs_bonus": "plus20", "crit_model": "table", "crit_table": "example"},
])
def test_w7_9_target_modifiers_kernel_and_naive_reference_agree(options):
    """W-7.9: shield, stunned target, visibility and cover, the kernel against ``naive_wfrp2e``."""
    p = prepared("kithband", "swordsman", **options)
    F, o, grid, fx = p.compiled.args()
    n = p.compiled.n_counters
    for i in range(60):
        row = p.compiled.kernels.duels(F, o, grid, fx, np.uint64(SEED), np.int64(i), np.int64(1), 1, n)[0]
        assert row.tolist() == naive.duel(F, o, grid, fx, SEED, i).counter_row(n), f"duel {i}"
        row = p.compiled.kernels.attacks(F, o, grid, fx, np.uint64(SEED), np.int64(i), np.int64(1), 1, n)[0]
        assert row.tolist() == naive.attack(F, o, grid, fx, SEED, i).counter_row(n), f"attack {i}"


@pytest.mark.parametrize("body,needles", [
    ('[missile]\ngroup = "bow"\ndamage = 3\n', ("archer.toml", "missile", "short")),  # no range
    ('[missile]\ngroup = "bow"\ndamage = 3\nshort = 10\nreload = "one half"\n', ("archer.toml", "reload",
                                                                               "count of actions")),
    ('m = 0\nmissile = "bow"\n', ("archer.toml", "m")),  # Movement outside 1 … 10 (W-11.1)
    ('thrown = 3\nmissile = "bow"\n', ("archer.toml", "thrown", "ammo")),  # a supply for a bow (W-7.12)
])
def test_w9_4_w11_1_bad_shooters_stop_a_report_before_anything_is_written(tmp_path, body, needles):
    """W-9.4, W-7.10, W-11.1: a missile weapon without range, a reload that is not a count of
    actions, a Movement of 0 — one line naming the file and the field, exit 2, no report and no
    CSV folder written."""
    from typer.testing import CliRunner

    from brutal_sim.cli import app

    (tmp_path / "archer.toml").write_text(f'ruleset = "wfrp2e"\nws = 30\nbs = 40\ns = 30\n'
                                          f't = 30\nag = 30\nw = 10\n{body}')
    (tmp_path / "s.toml").write_text('title = "t"\nn = 10\nruleset = "wfrp2e"\nmatchups = [["archer.toml", "orc"]]\n'
                                     'options = { start_distance = 20 }\n')
    out, csv = tmp_path / "r.html", tmp_path / "csv"
    r = CliRunner().invoke(app, ["report", str(tmp_path / "s.toml"), "-o", str(out), "--csv", str(csv)])
    lines = r.output.strip().splitlines()
    assert r.exit_code == 2 and len(lines) == 1 and all(x in lines[0] for x in needles), r.output
    assert not out.exists() and not csv.exists()


def _shots_and_missile(shooter, turns: int, **options):
    """Side a's turns alone against a standing wall 6 yards away: (shots fired, missile in hand)."""
    p = prepared(shooter, fighter(tactic="turtle", **WALL), **{"start_distance": 6, **options})
    F, o = p.compiled.fighters, p.compiled.options
    S = state(p)
    cnt = np.zeros(p.compiled.n_counters, dtype=np.int64)
    st = np.zeros(4, dtype=np.uint64) + np.uint64(11)
    out = []
    for _ in range(turns):
        turn(F, S, o, *p.compiled.tables, st, cnt, 0)
        out.append((int(cnt[L.C_ATTACKS:L.C_ATTACKS + L.N_OUTCOMES].sum()), int(S[0, L.S_MISSILE])))
    return out


def test_w7_11_swift_shots_need_a_free_or_no_reload():
    """W-7.11, W-8.9: with A 2 and a free reload (a bow with Rapid Reload) a turn is a swift attack
    of two unaimed shots (the attack measure's first shot: BS 40, 40 %); with A 1, or a reload
    left (A 2 without the talent), one aimed shot (50 %)."""
    swift = fighter(bs=40, a=2, missile="bow", tactic="marksman", talents=["rapid_reload"])
    assert _shots_and_missile(swift, 2) == [(2, 1), (4, 1)]
    for f in (fighter(bs=40, missile="bow", tactic="marksman", talents=["rapid_reload"]),
              fighter(bs=40, a=2, missile="bow", tactic="marksman")):
        assert _shots_and_missile(f, 1)[0][0] == 1
        assert _p(f, fighter(reaction="none"), start_distance=20)["p_hit"] == pytest.approx(0.50)
    assert _p(swift, fighter(reaction="none"), start_distance=20)["p_hit"] == pytest.approx(0.40)


@pytest.mark.parametrize("shooter,options,expected", [
    (fighter(bs=40, missile="javelin", main_hand="hand_weapon", tactic="marksman", thrown=2), {},
     [(1, 1), (2, 1), (2, 0)]),  # two javelins: aim + throw, ready the next + throw; then the hand weapon
    (fighter(bs=40, missile="javelin", main_hand="hand_weapon", tactic="marksman"), {},
     [(1, 1), (2, 1), (3, 1)]),  # no thrown field: unlimited
    (fighter(bs=40, missile="bow", main_hand="hand_weapon", tactic="marksman"), {"ammo": 1},
     [(1, 1), (1, 0), (2, 0)]),  # one arrow: the shot; the hand weapon drawn, a Move to 4 yards; a charge
    (fighter(bs=40, missile="bow", main_hand="hand_weapon", tactic="marksman"), {"ammo": 0},
     [(1, 1), (2, 1), (3, 1)]),
])
def test_w7_12_thrown_supply_and_ammunition(shooter, options, expected):
    """W-7.12: a throw spends an item (fighter field ``thrown``), a shot a round of ``ammo``; spent,
    the shooter stows the missile weapon and readies its melee items (a half action), then closes in
    by its melee tactic: (shots fired, missile weapon in hand) after each turn."""
    assert _shots_and_missile(shooter, len(expected), **options) == expected


@pytest.mark.parametrize("a,b,options", [
    (fighter(bs=40, missile="javelin", main_hand="hand_weapon", thrown=3), "orc", {"start_distance": 16}),
    ("kithband", "orc", {"start_distance": 40, "ammo": 3}),
    (fighter(bs=45, a=2, missile="shortbow", main_hand="dagger", talents=["rapid_reload", "quick_draw"], thrown=None),
     "orc", {"start_distance": 30, "ammo": 5}),
])
def test_w7_11_w7_12_kernel_and_naive_reference_agree(a, b, options):
    """W-7.11, W-7.12: swift shots, thrown supply and ammunition, the kernel against ``naive_wfrp2e``."""
    p = prepared(a, b, **options)
    F, o, grid, fx = p.compiled.args()
    n = p.compiled.n_counters
    for i in range(60):
        row = p.compiled.kernels.duels(F, o, grid, fx, np.uint64(SEED), np.int64(i), np.int64(1), 1, n)[0]
        assert row.tolist() == naive.duel(F, o, grid, fx, SEED, i).counter_row(n), f"duel {i}"
        row = p.compiled.kernels.attacks(F, o, grid, fx, np.uint64(SEED), np.int64(i), np.int64(1), 1, n)[0]
        assert row.tolist() == naive.attack(F, o, grid, fx, SEED, i).counter_row(n), f"attack {i}"


def _watch(shooter, foe, distance: int, **options):
    """The overwatcher's turn (side a), then its foe's: (a's shots after its turn, a's shots after
    the foe's turn, the half action still kept, the distance)."""
    p = prepared(shooter, foe, start_distance=distance, **options)
    F, o = p.compiled.fighters, p.compiled.options
    S = state(p)
    cnt = np.zeros(p.compiled.n_counters, dtype=np.int64)
    st = np.empty(4, dtype=np.uint64)
    seed_duel(st, np.uint64(3), 0)
    turn(F, S, o, *p.compiled.tables, st, cnt, 0)
    first = int(cnt[L.C_ATTACKS:L.C_ATTACKS + L.N_OUTCOMES].sum())
    kept = int(S[0, L.S_KEPT])
    turn(F, S, o, *p.compiled.tables, st, cnt, 1)
    return first, kept, int(cnt[L.C_ATTACKS:L.C_ATTACKS + L.N_OUTCOMES].sum()), int(S[1, L.S_X] - S[0, L.S_X])


def test_w8_14_overwatch_delays_and_shoots_the_runner_w11_6():
    """W-8.14, W-11.6, W-3.10: the kithband (longbow, short 30) with the orc 40 yards off delays (no
    shot, a half action kept); the orc runs 24 yards to 16 (W-8.12), within short range: the kept shot
    comes right after the run. An orc already within short range: marksman (aim + shot)."""
    kith = RULESET.catalog().fighter("kithband").model_copy(update={"tactic": "overwatch"})
    assert _watch(kith, "orc", 40) == (0, 1, 1, 16)
    assert _watch(kith, "orc", 30)[:2] == (1, 0)
    with pytest.raises(Exception, match="missile"):
        fighter(tactic="overwatch")


@pytest.mark.parametrize("cut,shots", [("between_actions", 0), ("after_move", 1)])
def test_w11_6_delay_cut_a_charger_before_or_after_its_blow(cut, shots):
    """W-11.6 ``delay_cut``, W-8.14: a thrower (throwing dagger, short 6) overwatching an orc 10
    yards off; the orc charges (W-3.3). between_actions: the kept half comes after the whole charge,
    engaged, where a throwing dagger cannot be used (W-7.6): lost; after_move: the shot comes
    between the charge's move and its blow."""
    thrower = fighter(bs=40, missile="throwing_dagger", main_hand="hand_weapon", tactic="overwatch")
    assert _watch(thrower, fighter(main_hand="hand_weapon"), 10, delay_cut=cut) == (0, 1, shots, 2)


@pytest.mark.parametrize("a,b,options", [
    ("kithband", "orc", {"start_distance": 40}),
    ("kithband", "orc", {"start_distance": 40, "delay_cut": "after_move", "approach": "double_move"}),
    (fighter(bs=40, missile="throwing_dagger", main_hand="hand_weapon", thrown=4), "orc",
     {"start_distance": 12, "delay_cut": "after_move"}),
    ("pistolier", "duelist", {"start_distance": 14}),
])
def test_w8_14_overwatch_kernel_and_naive_reference_agree(a, b, options):
    """W-8.14, W-11.6: overwatch and both delay cuts, the kernel against ``naive_wfrp2e``."""
    p = RULESET.prepare(a, b, options={k: str(v) for k, v in options.items()}, tactic_a="overwatch")
    F, o, grid, fx = p.compiled.args()
    n = p.compiled.n_counters
    for i in range(60):
        row = p.compiled.kernels.duels(F, o, grid, fx, np.uint64(SEED), np.int64(i), np.int64(1), 1, n)[0]
        assert row.tolist() == naive.duel(F, o, grid, fx, SEED, i).counter_row(n), f"duel {i}"
        row = p.compiled.kernels.attacks(F, o, grid, fx, np.uint64(SEED), np.int64(i), np.int64(1), 1, n)[0]
        assert row.tolist() == naive.attack(F, o, grid, fx, SEED, i).counter_row(n), f"attack {i}"
