"""Hand-computed checks of the fortune policy options (W-6.5, W-8.7), helpless targets that stay in
the fight (W-6.2) and the choppa readings (W-9.3)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from wfrp2e_util import exact, fighter, prepared, state, within

from brutal_sim.core.battle import B_ORDER, B_ROUND, FIGHT_ROW
from brutal_sim.rulesets.wfrp2e import layout as L
from brutal_sim.rulesets.wfrp2e.kernel import damage_bonus, initiative, quality, turn
from brutal_sim.run.engine import run_duel_counters
from brutal_sim.toolbox.rng import seed_duel


def _one_turn(p, S, i: int, seed: int) -> np.ndarray:
    """Fighter i's turn from state ``S`` with the random stream of ``(seed, 0)``: the counters."""
    cnt = np.zeros(p.compiled.n_counters, dtype=np.int64)
    st = np.empty(4, dtype=np.uint64)
    seed_duel(st, np.uint64(seed), 0)
    turn(p.compiled.fighters, S, p.compiled.options, *p.compiled.tables, st, cnt, i)
    return cnt


def _outcomes(cnt: np.ndarray, i: int) -> np.ndarray:
    return cnt[L.C_ATTACKS + i * L.N_OUTCOMES:L.C_ATTACKS + (i + 1) * L.N_OUTCOMES]


# -- W-8.7 fortune_keep_last ----------------------------------------------------------------------------

@pytest.mark.parametrize("keep,p_hit", [("keep", 0.40), ("spend", 1 - 0.6 ** 2)])
def test_w8_7_fortune_keep_last_on_attacks(keep, p_hit):
    """W-8.7, W-6.5: with one point under reaction_first, keep saves it for a parry or dodge (WS 40:
    40 %); spend rerolls the failed attack with it (1 − 0.6²)."""
    a = fighter(ws=40, fortune=1)
    d = exact(a, fighter(reaction="none"), fortune_keep_last=keep).to_dict()
    assert d["p_hit"] == pytest.approx(p_hit, abs=1e-12)


@pytest.mark.parametrize("keep,p_parried", [("keep", 0.5), ("spend", 1 - 0.5 ** 2)])
def test_w8_7_fortune_keep_last_on_parries(keep, p_parried):
    """W-8.7: under attack_first the last point is kept for an attack, or (spend) rerolls a failed
    parry at 50 %."""
    a = fighter(ws=100, main_hand="hand_weapon")
    b = fighter(ws=40, main_hand="hand_weapon", off_hand="main_gauche", fortune=1)
    d = exact(a, b, fortune="attack_first", fortune_keep_last=keep).to_dict()
    assert d["p_parried"] == pytest.approx(p_parried, abs=1e-12)


# -- W-6.5 fortune_initiative ----------------------------------------------------------------------------

def _p_second(ag_a: int, dice_a: int, ag_b: int, dice_b: int) -> float:
    """P(b acts first): its total beats a's; equal totals go to the higher Ag (a here)."""
    wins = total = 0
    for ra in itertools.product(range(1, 11), repeat=dice_a):
        for rb in itertools.product(range(1, 11), repeat=dice_b):
            total += 1
            wins += sum(rb) + ag_b > sum(ra) + ag_a
    return wins / total


@pytest.mark.parametrize("option,fortune_b,dice_a,dice_b", [
    ("off", 2, 1, 1), ("on", 2, 2, 2), ("on", 1, 2, 1)])
def test_w6_5_fortune_initiative_rolls_2d10(option, fortune_b, dice_a, dice_b):
    """W-6.5: a spare point (two, the last kept) buys 2d10 + Ag; Ag 35 vs 30: b first 10 % on d10
    each, 2d10 each: P(2d10 − 2d10 ≥ 6), a alone on 2d10: P(d10 − 2d10 ≥ 6)."""
    p = prepared(fighter(ag=35, fortune=2), fighter(ag=30, fortune=fortune_b), fortune_initiative=option)
    F, o = p.compiled.fighters, p.compiled.options
    st = np.empty(4, dtype=np.uint64)
    n = 20_000
    firsts = 0
    for i in range(n):
        S = state(p)
        seed_duel(st, np.uint64(5), i)
        initiative(F, S, o, st)
        firsts += S[0, B_ORDER]  # the row acting first
    assert S[0, L.S_FORTUNE] == 2 - (dice_a - 1) and S[1, L.S_FORTUNE] == fortune_b - (dice_b - 1)
    expected = _p_second(35, dice_a, 30, dice_b)
    assert expected == pytest.approx({(1, 1): 0.10, (2, 2): 0.176, (2, 1): 0.01}[(dice_a, dice_b)])
    assert within(expected, firsts / n, n)


# -- W-6.5 fortune_half_action -----------------------------------------------------------------------------

@pytest.mark.parametrize("option,p_hit", [("off", 1 - 0.6 ** 2), ("on", 1 - 0.5 ** 2)])
def test_w6_5_extra_half_action_aims(option, p_hit):
    """W-6.5, W-3.2: guarded without an off-hand item (attack + parry stance), three fortune points:
    the extra half action aims (+10, WS 50) and the attack's reroll still has two points (keep)."""
    p = prepared(fighter(ws=40, fortune=3, main_hand="hand_weapon"), fighter(reaction="none", w=100),
                 fortune_half_action=option)
    n = 20_000
    hits = 0
    for seed in range(n):
        S = state(p)
        out = _outcomes(_one_turn(p, S, 0, seed), 0)
        assert out.sum() == 1 and S[0, L.S_PARRY_STANCE] == 1
        assert S[0, L.S_FORTUNE] in ((3, 2) if option == "off" else (2, 1))
        hits += out[L.OUT_HIT]
    assert within(p_hit, hits / n, n)


def test_w6_5_extra_half_action_makes_up_the_upkeep():
    """W-6.5, W-3.11, W-3.12: prone with a dropped weapon, a fighter only stands up and readies;
    the extra half action buys its attack. With a shield it aims already: no point is spent."""
    for option, attacks, left in (("off", 0, 2), ("on", 1, 1)):
        p = prepared(fighter(main_hand="hand_weapon", fortune=2), fighter(), fortune_half_action=option)
        S = state(p)
        S[0, L.S_PRONE] = 1
        S[0, L.S_HELD_MAIN] = 0
        assert _outcomes(_one_turn(p, S, 0, 1), 0).sum() == attacks and S[0, L.S_FORTUNE] == left
    p = prepared(fighter(ws=100, main_hand="hand_weapon", off_hand="shield", fortune=2), fighter(),
                 fortune_half_action="on")
    S = state(p)
    assert _outcomes(_one_turn(p, S, 0, 1), 0).sum() == 1 and S[0, L.S_FORTUNE] == 2


# -- W-6.2 helpless targets ------------------------------------------------------------------------------

def test_w6_2_helpless_target_is_hit_automatically_with_an_extra_d10():
    """W-6.2: WS 0 never hits, but a helpless target is hit every time, cannot parry (shield) and
    takes d10 + SB 3 + 1d10; its Fury needs no test (the to-hit is automatic): mean 3 + 5.5 / 0.9
    + 5.5 on TB 0, no armour. The helpless fighter itself takes no turn."""
    p = prepared(fighter(ws=0, main_hand="hand_weapon"),
                 fighter(t=9, w=100, main_hand="hand_weapon", off_hand="shield", reaction="best"),
                 helpless="attackable")
    n = 20_000
    damage = np.zeros(n)
    for seed in range(n):
        S = state(p)
        S[1, L.S_HELPLESS] = 1
        cnt = _one_turn(p, S, 0, seed)
        assert _outcomes(cnt, 0).tolist() == [0, 0, 0, 1]
        damage[seed] = cnt[L.C_DAMAGE + 1]
    mean = 3 + 5.5 / 0.9 + 5.5
    assert abs(damage.mean() - mean) < 4 * damage.std() / np.sqrt(n)
    assert damage.min() == 3 + 1 + 1
    S = state(p)
    S[1, L.S_HELPLESS] = 1
    assert _outcomes(_one_turn(p, S, 1, 1), 1).sum() == 0


def _table(tmp_path, code: str) -> str:
    f = tmp_path / "crit.toml"
    f.write_text('[crit_grid]\ncolumns = [1]\nbands = [{ rolls = "01-00", effects = [1] }]\n'
                 + "".join(f'[crit_effects.{z}]\n1 = "{code}"\n' for z in L.ZONE_NAMES))
    return str(f)


def test_w6_2_helpless_option_in_duels(tmp_path):
    """W-6.2, W-5.5: a table whose every effect is HELPLESS. out: every decided duel is lost to
    helpless; attackable: the helpless fighter stays in, is hit at will, and nobody ever leaves
    (every duel a draw at the round cap), with more damage dealt."""
    a = fighter(ws=60, s=50, main_hand="great_weapon", tactic="berserk")
    b = fighter(ws=40, w=6, main_hand="hand_weapon", tactic="berserk")
    runs = {}
    for option in ("out", "attackable"):
        p = prepared(a, b, crit_model="table", crit_table=_table(tmp_path, "HELPLESS"), round_cap=12, helpless=option)
        runs[option], _ = run_duel_counters(p.compiled, 1000, seed=9)
    out, kept = runs["out"], runs["attackable"]
    losses = out[L.C_CAUSE:L.C_CAUSE + 2 * L.N_CAUSES].reshape(2, L.N_CAUSES)
    assert losses[:, L.CAUSE_HELPLESS].sum() == 1000 - out[L.C_DRAWS] > 900
    assert kept[L.C_DRAWS] == 1000 and kept[L.C_CAUSE:L.C_CAUSE + 2 * L.N_CAUSES].sum() == 0
    assert kept[L.C_DAMAGE + 1] > out[L.C_DAMAGE + 1]


def test_w6_2_exact_attack_helpless_effects_no_longer_end_the_fight():
    """W-6.2 in the exact single attack (example table): under attackable the HELPLESS effects
    count as critical, not out; the other effects and all probabilities of a hit are unchanged."""
    a = fighter(ws=60, s=60, main_hand="great_weapon")
    b = fighter(w=4, reaction="none")
    out = exact(a, b, crit_model="table", crit_table="example").to_dict()["wound_level"]
    kept = exact(a, b, crit_model="table", crit_table="example", helpless="attackable").to_dict()["wound_level"]
    assert kept["out"] < out["out"] - 0.01
    assert kept["out"] + kept["critical"] == pytest.approx(out["out"] + out["critical"], abs=1e-12)
    assert kept["wounded"] == pytest.approx(out["wounded"], abs=1e-12)


# -- W-9.3 the choppa -------------------------------------------------------------------------------------

def test_w9_3_choppa_readings():
    """W-9.3: the choppa is a hand weapon (default); plus1_first_round adds 1 damage and
    impact_first_round gives it Impact, both in round 1 only (the attack measure is a round-1 attack)."""
    b = fighter(t=30, w=100, reaction="none")
    orc = fighter(ws=100, s=30, main_hand="choppa")
    plain = exact(fighter(ws=100, s=30, main_hand="hand_weapon"), b).mean_damage_per_attack
    assert exact(orc, b).mean_damage_per_attack == pytest.approx(plain, abs=1e-12)
    assert exact(orc, b, choppa="plus1_first_round").mean_damage_per_attack == pytest.approx(plain + 1, abs=1e-12)
    impact = exact(fighter(ws=100, s=30, main_hand={"damage": 0, "qualities": ["impact"]}), b).mean_damage_per_attack
    assert impact > plain + 1.5
    assert exact(orc, b, choppa="impact_first_round").mean_damage_per_attack == pytest.approx(impact, abs=1e-12)
    for option in ("plus1_first_round", "impact_first_round"):
        p = prepared(orc, b, choppa=option)
        F, o, S = p.compiled.fighters, p.compiled.options, state(p)
        S[FIGHT_ROW, B_ROUND] = 2
        assert damage_bonus(F, S, o, 0, L.SLOT_MAIN) == 3 and not quality(F, S, o, 0, L.SLOT_MAIN, L.W_IMPACT)
        S[FIGHT_ROW, B_ROUND] = 1
        assert damage_bonus(F, S, o, 0, L.SLOT_MAIN) == 3 + (option == "plus1_first_round")
        assert quality(F, S, o, 0, L.SLOT_MAIN, L.W_IMPACT) == (option == "impact_first_round")
