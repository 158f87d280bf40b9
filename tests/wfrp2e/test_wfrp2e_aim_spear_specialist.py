"""WFRP 2e options of W-7.3 (``aim``), W-7.12 (``spear_thrown``), W-7.13 (``snare``) and W-7.14
(``specialist``): kernel turns, exact single shots, the weapons as compiled, duel win rates both
ways, the naive reference duel by duel, and bad input (one line, exit 2)."""

from __future__ import annotations

from pathlib import Path

import naive_wfrp2e as naive
import numpy as np
import pytest
from typer.testing import CliRunner
from wfrp2e_util import exact, fighter, prepared, state, turn_outcomes, within

from brutal_sim import api
from brutal_sim.cli import app
from brutal_sim.rulesets.wfrp2e import layout as L

WALL = {"t": 99, "tb": 10, "w": 100}
SEED = 23
MISSILE = L.P_WEAPONS + L.SLOT_MISSILE * L.WN


def _hits(p, preset: dict[int, int], turns: int, n: int = 4000) -> float:
    """The hit rate of side a's shots in its ``turns``-th turn from a fresh state with ``preset``
    (state slot → value) for side a, over ``n`` random streams."""
    hits = shots = 0
    for seed in range(n):
        S = state(p)
        for k, v in preset.items():
            S[0, k] = v
        for t in range(turns):
            out = turn_outcomes(p, S, 0, seed=seed * 8 + t)
        hits += int(out[L.OUT_HIT])
        shots += int(out.sum())
    assert shots == n
    return hits / n


def _win_rate(a, b, n: int = 20_000, **options) -> float:
    r = api.duel(a, b, n=n, seed=7, options={k: str(v) for k, v in options.items()}, ruleset="wfrp2e", threads=1)
    return r.to_dict()["a"]["win_rate"]


# -- W-7.3 aim ------------------------------------------------------------------------------------

def test_w7_3_next_action_the_last_half_aims_for_the_next_turn():
    """W-7.3: a marksman with an empty bow (reload 1 half) at a standing foe. same_turn: reload +
    an unaimed shot (BS 40: 40 %); next_action: reload + aim (no shot, +10 kept; Sharpshooter +20),
    and its next turn's first shot is aimed: 50 %."""
    foe = fighter(tactic="turtle", **WALL)
    for talents, bonus in (([], 10), (["sharpshooter"], 20)):
        bow = fighter(bs=40, missile="bow", tactic="marksman", talents=talents)
        p = prepared(bow, foe, start_distance=20, aim="next_action")
        S = state(p)
        S[0, L.S_LOADED] = 0
        assert turn_outcomes(p, S, 0).sum() == 0 and S[0, L.S_AIM] == bonus and S[0, L.S_LOADED] == 1
        assert turn_outcomes(p, S, 0).sum() == 1 and S[0, L.S_AIM] == 0 and S[0, L.S_LOADED] == 1  # shot + reload
    bow = fighter(bs=40, missile="bow", tactic="marksman")
    same = _hits(prepared(bow, foe, start_distance=20), {L.S_LOADED: 0}, 1)
    kept = _hits(prepared(bow, foe, start_distance=20, aim="next_action"), {L.S_LOADED: 0}, 2)
    assert within(0.40, same, 4000) and within(0.50, kept, 4000)


def test_w7_3_a_kept_aim_goes_to_a_pistol_shot_in_melee_and_is_lost_otherwise():
    """W-7.3 next_action: the following action must be the shot. Engaged, a pistol's shot (BS 40,
    −20 in melee, W-7.7) takes the kept +10: 30 % instead of 20 %; a lost turn (stunned) or
    standing up (prone) loses it."""
    foe = fighter(tactic="turtle", **WALL)
    p = prepared(fighter(bs=40, missile="pistol", main_hand="hand_weapon", tactic="marksman"), foe,
                 aim="next_action")
    assert within(0.20, _hits(p, {}, 1), 4000)
    assert within(0.30, _hits(p, {L.S_AIM: 10}, 1), 4000)
    S = state(p)
    S[0, L.S_AIM], S[0, L.S_STUN] = 10, 1
    assert turn_outcomes(p, S, 0).sum() == 0 and S[0, L.S_AIM] == 0
    bow = prepared(fighter(bs=40, missile="bow", tactic="marksman"), foe, start_distance=20, aim="next_action")
    S = state(bow)
    S[0, L.S_AIM], S[0, L.S_PRONE] = 10, 1  # stands up (a half action); the other half aims anew
    assert turn_outcomes(bow, S, 0).sum() == 0 and S[0, L.S_AIM] == 10


KITH = dict(name="kith", ws=40, bs=42, s=30, t=30, ag=45, w=11, m=5, missile="longbow", main_hand="dagger",
            armour=["leather_jack"], tactic="marksman")


@pytest.mark.parametrize("rule,expected", [("same_turn", 0.3047), ("next_action", 0.2632)])
def test_w7_3_aim_moves_the_marksmans_duel(rule, expected):
    """W-7.3: a longbow marksman against the orc from 40 yards (200,000 duels, seed 7: 30.47 % and
    26.32 %): with next_action it aims with the half action after a reload and the orc's charge
    comes before the aimed shot."""
    assert within(expected, _win_rate(fighter(**KITH), "orc", start_distance=40, aim=rule), 20_000)


# -- W-7.12 spear_thrown ----------------------------------------------------------------------------

SPEARMAN = dict(name="spearman", ws=35, bs=35, missile="spear", thrown=1, main_hand="spear", tactic="shoot_then_draw")


def test_w7_12_spear_thrown_compiles_a_thrown_spear():
    """W-7.12 spear_thrown = on: the spear as missile is thrown: short 8, no long, SB + 0 (thrown),
    reload 1 half; the main-hand spear stays a melee weapon."""
    F = prepared(fighter(**SPEARMAN), "orc", start_distance=10, spear_thrown="on").compiled.fighters
    assert (F[0, MISSILE + L.W_SHORT], F[0, MISSILE + L.W_LONG], F[0, MISSILE + L.W_THROWN],
            F[0, MISSILE + L.W_RELOAD], F[0, MISSILE + L.W_DAMAGE]) == (8, 0, 1, 1, 0)
    main = L.P_WEAPONS + L.SLOT_MAIN * L.WN
    assert F[0, main + L.W_SHORT] == 0 and F[0, main + L.W_FAST] == 1
    assert F[0, L.P_THROWN] == 1


@pytest.mark.parametrize("distance,options,p_hit", [
    (6, {}, 0.45),  # short: BS 35 + aim 10
    (12, {}, 0.05),  # beyond 8 (no long: short_is_max), very long up to 16: −30 flat
    (12, {"no_long": "double_short"}, 0.25),  # long 16: −20 + aim 10
])
def test_w7_12_exact_spear_throw(distance, options, p_hit):
    """W-7.12, W-7.4, W-7.5: the exact first throw of a spear (short 8, no long range)."""
    d = exact(fighter(**SPEARMAN), fighter(reaction="none"), start_distance=distance, spear_thrown="on",
              **options).to_dict()
    assert d["p_hit"] == pytest.approx(p_hit, abs=1e-12)


@pytest.mark.parametrize("thrown,expected", [(True, 0.417), (False, 0.505)])
def test_w7_12_spear_thrown_moves_the_duel(thrown, expected):
    """W-7.12: a spearman (WS 35, BS 35) against the orc from 12 yards, a spear thrown first (on)
    and a second in hand, or only the spear in hand (200,000 duels, seed 7: 41.7 % and 50.5 %:
    the throw at −30 beyond 8 yards costs the first charge)."""
    if thrown:
        rate = _win_rate(fighter(**SPEARMAN), "orc", start_distance=12, spear_thrown="on")
    else:
        rate = _win_rate(fighter(name="spearman", ws=35, bs=35, main_hand="spear"), "orc", start_distance=12)
    assert within(expected, rate, 20_000)


# -- W-7.14 specialist ------------------------------------------------------------------------------

def test_w7_14_specialist_pack_text_compiles_the_unskilled_numbers():
    """W-7.14 specialist = pack_text: the elfbow without SWG (Longbow) has the shortbow's numbers
    (16/32, no Armour Piercing), the blunderbuss without SWG (Gunpowder) reloads in 6 full actions
    (12 half actions); with the talent, or with specialist = ignore, the weapon as written."""
    def row(missile, talents, rule):
        F = prepared(fighter(bs=40, missile=missile, talents=talents), "orc", start_distance=20,
                     specialist=rule).compiled.fighters
        return tuple(int(F[0, MISSILE + k]) for k in (L.W_SHORT, L.W_LONG, L.W_ARMOUR_PIERCING, L.W_RELOAD,
                                                       L.W_RELOAD_FULL))
    assert row("elfbow", [], "ignore") == row("elfbow", ["specialist_longbow"], "pack_text") == (36, 72, 1, 1, 0)
    assert row("elfbow", [], "pack_text") == row("shortbow", [], "pack_text") == (16, 32, 0, 1, 0)
    assert row("blunderbuss", [], "ignore") == row("blunderbuss", ["specialist_gunpowder"], "pack_text") \
        == (32, 0, 0, 6, 1)
    assert row("blunderbuss", [], "pack_text") == (32, 0, 0, 12, 1)
    assert row("elfbow", ["specialist_gunpowder"], "pack_text") == (16, 32, 0, 1, 0)  # the other group


@pytest.mark.parametrize("rule,p_hit", [("ignore", 0.52), ("pack_text", 0.32)])
def test_w7_14_exact_elfbow_shot(rule, p_hit):
    """W-7.14: BS 42 at 30 yards, aimed: the elfbow's short range (36) 52 %; as a shortbow 30 yards
    is long range (16 < 30 ≤ 32): 42 + 10 − 20 = 32 %."""
    d = exact(fighter(bs=42, missile="elfbow", tactic="marksman"), fighter(reaction="none"), start_distance=30,
              specialist=rule).to_dict()
    assert d["p_hit"] == pytest.approx(p_hit, abs=1e-12)


ELF = dict(name="elf", bs=42, ag=45, w=11, m=5, missile="elfbow", main_hand="dagger", tactic="marksman")
GUNNER = dict(name="gunner", bs=40, missile="blunderbuss", main_hand="hand_weapon", tactic="marksman")


@pytest.mark.parametrize("who,foe,distance,rule,expected", [
    ("elf", "orc", 40, "ignore", 0.268), ("elf", "orc", 40, "pack_text", 0.2295),
    ("gunner", "goblin_archer", 30, "ignore", 0.9378), ("gunner", "goblin_archer", 30, "pack_text", 0.8567),
])
def test_w7_14_specialist_moves_the_duel(who, foe, distance, rule, expected):
    """W-7.14 (200,000 duels, seed 7): an elfbow marksman without the talent against the orc from
    40 yards, 26.8 % (ignore) and 22.95 % (pack_text: a shortbow); a blunderbuss marksman against
    the goblin archer from 30 yards, 93.78 % and 85.67 % (6 full actions to reload)."""
    f = fighter(**(ELF if who == "elf" else GUNNER))
    assert within(expected, _win_rate(f, foe, start_distance=distance, specialist=rule), 20_000)


# -- W-7.13 snare ------------------------------------------------------------------------------------

def test_w7_13_a_snare_hit_entangles_only_with_snare_entangle():
    """W-7.13: a bola (BS 100, aimed at 6 yards: a hit) entangles its target with snare = entangle;
    with off the hit deals its damage only. Each throw spends one of the supply ``thrown``."""
    for rule, caught in (("off", 0), ("entangle", 1)):
        p = prepared(fighter(bs=100, missile="bola", thrown=2, tactic="marksman"), fighter(tactic="turtle", **WALL),
                     start_distance=6, snare=rule)
        S = state(p)
        assert S[0, L.S_SUPPLY] == 2
        out = turn_outcomes(p, S, 0)
        assert out[L.OUT_HIT] == 1 and S[1, L.S_ENTANGLED] == caught and S[0, L.S_SUPPLY] == 1


@pytest.mark.parametrize("s_,ag,armour,p_escape", [
    (45, 30, [], 0.45),  # S the higher
    (30, 45, [], 0.45),  # Ag the higher
    (30, 45, [{"body": 1, "ag_penalty": 10}], 0.35),  # Ag 45 − 10 (armour) = 35 > S 30
])
def test_w7_13_the_entangled_turn_is_an_escape_test(s_, ag, armour, p_escape):
    """W-7.13 snare = entangle: an entangled fighter's turn is a full action to escape, a test of the
    higher of S and Ag (armour Ag penalty off, W-9.2): no attack, no move; a success frees it."""
    p = prepared(fighter(s=s_, ag=ag, main_hand="hand_weapon", armour=armour), fighter(tactic="turtle", **WALL),
                 snare="entangle")
    freed = 0
    for seed in range(4000):
        S = state(p)
        S[0, L.S_ENTANGLED] = 1
        assert turn_outcomes(p, S, 0, seed=seed).sum() == 0
        freed += S[0, L.S_ENTANGLED] == 0
    assert within(p_escape, freed / 4000, 4000)


@pytest.mark.parametrize("weapon,rule,expected", [
    ("bola", "off", 0.4681), ("bola", "entangle", 0.5003), ("lasso", "off", 0.4768), ("lasso", "entangle", 0.5384),
])
def test_w7_13_snare_moves_the_duel(weapon, rule, expected):
    """W-7.13 (200,000 duels, seed 7): a thrower (WS 40, BS 40, two snares, then a hand weapon,
    shoot_then_draw) against the orc from 16 yards (bola) or 8 (lasso): entangled, the orc spends
    its turns escaping while the thrower throws again and closes in."""
    f = fighter(name="snarer", ws=40, bs=40, missile=weapon, thrown=2, main_hand="hand_weapon",
                tactic="shoot_then_draw")
    assert within(expected, _win_rate(f, "orc", start_distance=16 if weapon == "bola" else 8, snare=rule), 20_000)


# -- the naive reference ----------------------------------------------------------------------------

@pytest.mark.parametrize("a,b,options", [
    (KITH, "orc", {"start_distance": 40, "aim": "next_action"}),
    (KITH, "goblin_archer", {"start_distance": 60, "aim": "next_action", "extreme_mod": "aim_adds"}),
    (dict(KITH, tactic="kite"), "orc", {"start_distance": 30, "aim": "next_action", "arena": 60}),
    (dict(name="p", ws=40, bs=41, ag=42, missile="pistol", main_hand="rapier", dodge=42), "duelist",
     {"start_distance": 16, "aim": "next_action"}),
    (SPEARMAN, "orc", {"start_distance": 12, "spear_thrown": "on"}),
    (dict(SPEARMAN, thrown=3, tactic="marksman"), "goblin_archer", {"start_distance": 20, "spear_thrown": "on",
                                                                    "aim": "next_action"}),
    (ELF, "orc", {"start_distance": 40, "specialist": "pack_text"}),
    (GUNNER, "goblin_archer", {"start_distance": 30, "specialist": "pack_text"}),
    (dict(name="s", ws=40, bs=40, missile="bola", thrown=2, main_hand="hand_weapon"), "orc",
     {"start_distance": 16, "snare": "entangle"}),
    (dict(name="s", ws=40, bs=45, missile="net", thrown=3, main_hand="hand_weapon", tactic="marksman"), "orc",
     {"start_distance": 8, "snare": "entangle", "reload_break": "also_damage"}),
    (dict(name="s", ws=40, bs=45, missile="lasso", main_hand="hand_weapon", tactic="kite"), "kithband",
     {"start_distance": 10, "snare": "entangle", "arena": 40}),
])
def test_w7_3_w7_12_w7_13_w7_14_duels_agree_with_the_reference(a, b, options):
    """W-7.3 aim = next_action (marksman, kite, a pistol), W-7.12 a thrown spear, W-7.13 snares that
    entangle, W-7.14 unskilled weapons: kernel and naive reference duel by duel and shot by shot."""
    p = prepared(fighter(**a), b, **options)
    F, o, grid, fx = p.compiled.args()
    k = p.compiled.n_counters
    for i in range(150):
        kernel = p.compiled.kernels.duels(F, o, grid, fx, np.uint64(SEED), np.int64(i), np.int64(1), 1, k)[0]
        assert kernel.tolist() == naive.duel(F, o, grid, fx, SEED, i).counter_row(k), f"duel {i}"
        kernel = p.compiled.kernels.attacks(F, o, grid, fx, np.uint64(SEED), np.int64(i), np.int64(1), 1, k)[0]
        assert kernel.tolist() == naive.attack(F, o, grid, fx, SEED, i).counter_row(k), f"attack {i}"


# -- bad input --------------------------------------------------------------------------------------

BASE = "ws = 40\nbs = 40\ns = 30\nt = 30\nag = 30\nw = 10\n"


@pytest.mark.parametrize("body,options,needle", [
    (BASE + "missile = 'spear'\nmain_hand = 'spear'\n", (), "spear_thrown: off"),
    (BASE + "missile = 'hand_weapon'\n", (), "of the melee weapons only a spear may be thrown"),
    (BASE + "missile = 'spear'\noff_hand_missile = 'pistol'\n", ("spear_thrown=on",), "is thrown"),
    (BASE + "missile = 'pistol'\noff_hand_missile = 'hand_weapon'\n", (), "is a melee weapon"),
    (BASE + "missile = 'pistol'\noff_hand_missile = 'crossbow'\n", (), "'crossbow' is two-handed"),
    (BASE + "missile = 'longbow'\noff_hand_missile = 'pistol'\n", (), "'longbow' is two-handed"),
    (BASE + "missile = 'pistol'\noff_hand_missile = 'blaster'\n", (), "unknown weapon 'blaster'"),
    (BASE + "off_hand_missile = 'pistol'\n", (), "needs one in the main hand"),
    (BASE + "missile = 'pistol'\noff_hand_missile = 'throwing_axe'\n", (), "is thrown"),
    (BASE + "missile = 'pistol'\noff_hand_missile = 'bola'\n", (), "'bola' is thrown"),
    (BASE + "missile = 'pistol'\nthrown = 3\n", (), "a spear or a snare"),
    (BASE + "missile = 'pistol'\ntactic = 'marksman'\npush = 'sometimes'\n", (), "push"),
    (BASE + "missile = 'pistol'\ntactic = 'marksman'\npush = 3\n", (), "push"),
    (BASE + "missile = 'pistol'\npush = true\n", (), "push: the manoeuvre (W-11.7) is played by the tactics kite"),
    (BASE + "push = true\ntactic = 'guarded'\n", (), "not 'guarded'"),
    (BASE + "[missile]\ngroup = 'bow'\nshort = 10\nspecialist = 'longbow'\n", (), "both or neither"),
    (BASE + "[missile]\ngroup = 'bow'\nshort = 10\nspecialist = 'bowyer'\nunskilled = { short = 5 }\n", (),
     "specialist"),
    (BASE + "[missile]\ngroup = 'bow'\nshort = 10\nspecialist = 'longbow'\nunskilled = { reload = '7 turns' }\n",
     (), "count of actions"),
])
def test_bad_missile_fields_one_line_exit_2(tmp_path: Path, body: str, options: tuple[str, ...], needle: str):
    """One line naming the file or option, the field and what is allowed; exit 2, no result printed:
    a spear as missile with spear_thrown = off (W-7.12), a supply for a weapon that is not thrown,
    off_hand_missile (W-7.8: a melee weapon, a two-handed missile weapon, an unknown name, no
    main-hand missile, a thrown one), push (W-11.7: not a bool, a tactic that does not play it),
    specialist and unskilled (W-7.14)."""
    f = tmp_path / "f.toml"
    f.write_text('ruleset = "wfrp2e"\n' + body)
    args = ["duel", str(f), "orc", "-n", "100", "--option", "start_distance=10"]
    for o in options:
        args += ["--option", o]
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 2, r.output
    assert needle in r.output and len(r.output.strip().splitlines()) == 1, r.output
