"""WFRP 2e movement and distance (W-11, W-8.12): Movement, moves, charges and runs on the line,
engagement, leaving melee, the arena; hand-computed positions and sampled duels, each option both
ways against a number that moves."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner
from wfrp2e_util import exact, fighter, prepared, state, turn_outcomes, within

from brutal_sim import api
from brutal_sim.cli import app
from brutal_sim.core.errors import DataError
from brutal_sim.rulesets.wfrp2e import RULESET, layout as L
from brutal_sim.rulesets.wfrp2e.kernel import attack_target, close, reach, turn
from brutal_sim.run.engine import run_duel_counters

WALL = {"t": 99, "tb": 10, "w": 100}


def _closing(distance: int, m: int = 4, halves: int = 2, **options):
    """Side a (Movement m) closes on side b from ``distance`` yards: (attacks, modifier), the new
    distance, whether engaged, whether a runs."""
    p = prepared(fighter(m=m, main_hand="hand_weapon"), fighter(main_hand="hand_weapon"),
                 start_distance=distance, **options)
    F, o = p.compiled.fighters, p.compiled.options
    S = state(p)
    attacks, mod = close(F, S, o, 0, halves)
    return (int(attacks), int(mod)), int(S[1, L.S_X] - S[0, L.S_X]), int(S[0, L.S_ENGAGED]), int(S[0, L.S_RUNNING])


def _attacks(cnt: np.ndarray, side: int) -> np.ndarray:
    return cnt[L.C_ATTACKS + side * L.N_OUTCOMES:L.C_ATTACKS + (side + 1) * L.N_OUTCOMES]


def test_w11_1_movement_is_a_fighter_field():
    """M: default 4 (a human), the orc 4 (W-9.3), compiled to P_M; outside 1 … 10 it is refused."""
    assert fighter().m == 4 and RULESET.catalog().fighter("orc").m == 4
    assert prepared(fighter(m=3), fighter()).compiled.fighters[0, L.P_M] == 3
    with pytest.raises(Exception, match="m"):
        fighter(m=0)


def test_w11_3_engaged_at_two_yards_and_w11_5_the_line():
    """Side a at x = 0, side b at start_distance (W-11.5); engaged when at most 2 yards apart (W-11.3)."""
    for distance, engaged in ((0, 1), (2, 1), (3, 0), (4, 0), (40, 0)):
        S = state(prepared(fighter(), fighter(), start_distance=distance))
        assert (S[0, L.S_X], S[1, L.S_X], S[0, L.S_ENGAGED]) == (0, distance, engaged)


@pytest.mark.parametrize("distance,m,halves,options,expected", [
    (3, 4, 2, {}, ((1, 0), 2, 1, 0)),  # W-11.2: nearer than 4 yards no charge: a Move, then an attack
    (3, 4, 1, {}, ((0, 0), 2, 1, 0)),  # one half action: the Move only
    (4, 4, 2, {}, ((1, 10), 2, 1, 0)),  # W-3.3 charge from 4 yards: one attack at +10
    (16, 4, 2, {}, ((1, 10), 2, 1, 0)),  # up to 4·M = 16
    (17, 4, 2, {}, ((0, 0), 4, 0, 1)),  # beyond: Run (6·M = 24), stopping 4 yards short
    (40, 4, 2, {}, ((0, 0), 16, 0, 1)),  # Run 24 yards: 16 left, a charge next turn
    (40, 3, 2, {}, ((0, 0), 22, 0, 1)),  # M 3 (a dwarf): Run 18
    (40, 4, 2, {"approach": "double_move"}, ((0, 0), 24, 0, 0)),  # W-8.12 option: two Moves of 8
    (40, 4, 1, {}, ((0, 0), 32, 0, 0)),  # one half action: one Move of 8
    (40, 4, 2, {"terrain": "difficult"}, ((0, 0), 32, 0, 0)),  # no Run; two Moves halved to 4
    (8, 4, 2, {"terrain": "difficult"}, ((1, 10), 2, 1, 0)),  # difficult_charge = half: up to 2·M = 8
    (9, 4, 2, {"terrain": "difficult"}, ((0, 0), 4, 0, 0)),  # beyond 8: two Moves of 4, 4 yards short
    # W-8.12 with no charge (difficult_charge = forbidden): Moves of M = 4 to contact, never 4 yards short
    (6, 4, 2, {"terrain": "difficult", "difficult_charge": "forbidden"}, ((1, 0), 2, 1, 0)),  # Move + attack
    (6, 4, 1, {"terrain": "difficult", "difficult_charge": "forbidden"}, ((0, 0), 2, 1, 0)),  # the Move only
    (8, 4, 2, {"terrain": "difficult", "difficult_charge": "forbidden"}, ((0, 0), 2, 1, 0)),  # two Moves
    (16, 4, 2, {"terrain": "difficult", "difficult_charge": "forbidden"}, ((0, 0), 8, 0, 0)),
    (16, 4, 1, {"terrain": "difficult", "difficult_charge": "forbidden"}, ((0, 0), 12, 0, 0)),
])
def test_w11_2_moves_charges_and_runs(distance, m, halves, options, expected):
    """W-11.2 yards per action (Move 2·M half, Charge ≤ 4·M full, Run 6·M full; difficult terrain
    halves Move, forbids Run, halves or forbids the charge), W-8.12 closing in, W-3.14, W-3.15."""
    assert _closing(distance, m, halves, **options) == expected


@pytest.mark.parametrize("m,options,expected", [
    (4, {}, 16),  # W-11.2: the charge reach, 4·M
    (4, {"terrain": "difficult"}, 8),  # 2·M (difficult_charge = half)
    (4, {"terrain": "difficult", "difficult_charge": "forbidden"}, 6),  # no charge: a Move of M = 4 + 2
    (1, {"terrain": "difficult"}, 3),  # a charge reach of 2 < 4 is none: a Move of 1 + 2
])
def test_w8_11_reach_is_the_charge_or_a_move_and_an_attack(m, options, expected):
    """W-8.11 reach(X), W-8.12, W-11.2: the farthest a melee fighter attacks from in one turn."""
    p = prepared(fighter(m=m), fighter(), **options)
    assert reach(p.compiled.fighters, p.compiled.options, 0) == expected


@pytest.mark.parametrize("charge,distance", [("half", 6), ("forbidden", 11)])
def test_w8_11_a_kiter_keeps_away_from_a_foe_that_cannot_charge(charge, distance):
    """W-8.11 (2), W-11.2: a kiter (M 5, a loaded bow) 6 yards from a foe (M 4) in difficult terrain.
    ``difficult_charge = half``: reach(foe) = 2·M = 8, and 6 + a Move of 5 > 8: it Moves away and
    shoots (11 yards). ``forbidden``: reach(foe) = a Move of 4 + 2 = 6 (not 0, so the foe is in
    reach) and 6 + 5 > 6: it Moves away and shoots too (11 yards); had reach been 0 it would stand
    and aim (6 yards)."""
    kiter = fighter(bs=45, m=5, missile="bow", main_hand="dagger", tactic="kite")
    p = prepared(kiter, fighter(m=4, main_hand="hand_weapon", **WALL), start_distance=6, terrain="difficult",
                 difficult_charge=charge)
    S = state(p)
    assert turn_outcomes(p, S, 0).sum() == 1
    assert int(S[1, L.S_X] - S[0, L.S_X]) == 11


def test_w11_2_forbidden_charge_closes_by_moves_as_one_round_of_the_melee_duel():
    """W-11.2 ``difficult_charge = forbidden``, W-8.12: orc (M 4) and goblin (M 4) 16 yards apart in
    difficult terrain (a Move is M = 4 yards, no Run, no charge). The first to act makes two Moves
    (8 yards apart), the second two Moves to contact (adjacent, no attack left): round 1 rolls no
    dice, and from round 2 the duel is the one that starts engaged (2 yards), turn by turn in the
    same order with the same dice: the same wins, each fight one round longer."""
    n = 3000
    far = api.duel("orc", "goblin", n=n, seed=3, ruleset="wfrp2e",
                   options={"start_distance": "16", "terrain": "difficult", "difficult_charge": "forbidden"})
    near = api.duel("orc", "goblin", n=n, seed=3, ruleset="wfrp2e", options={"start_distance": "2"})
    assert (far.wins(0), far.wins(1), far.draws) == (near.wins(0), near.wins(1), near.draws)
    assert far.wins(0) > n // 2
    rounds_far, rounds_near = far.counters[L.C_ROUNDS:L.C_ROUNDS + 10], near.counters[L.C_ROUNDS:L.C_ROUNDS + 10]
    assert rounds_far[0] == 0 and (rounds_far[1:] == rounds_near[:9]).all()


def test_w11_2_melee_at_a_runner_is_plus_20_until_its_next_turn():
    """W-11.2 Run: melee attacks at the runner +20 WS until the runner's next turn; its turn ends it."""
    p = prepared(fighter(ws=40, main_hand="hand_weapon"), fighter(main_hand="hand_weapon"))
    F, o = p.compiled.fighters, p.compiled.options
    S = state(p)
    assert attack_target(F, S, o, 0, L.SLOT_MAIN, 0) == 40
    S[1, L.S_RUNNING] = 1
    assert attack_target(F, S, o, 0, L.SLOT_MAIN, 0) == 60
    cnt = np.zeros(p.compiled.n_counters, dtype=np.int64)
    st = np.zeros(4, dtype=np.uint64) + np.uint64(7)
    turn(F, S, o, *p.compiled.tables, st, cnt, 1)
    assert S[1, L.S_RUNNING] == 0


def test_w11_2_a_charge_meets_the_runner_at_plus_30():
    """Sampled (W-11.2, W-8.12, W-3.3): from 40 yards the quick side a (Ag 90, M 4) runs 24 yards to
    16, where side b (M 4) charges it: one attack at WS 40 + 10 (charge) + 20 (a runner) = 70 % on a
    foe that does not react; with approach = double_move both move twice (16 yards): a to 24, b to
    8, and in round 2 a charges the walker at WS 40 + 10 = 50 %, then b attacks as usual (40 %)."""
    n = 4000
    a = fighter(ws=40, ag=90, main_hand="hand_weapon", reaction="none", **WALL)
    b = fighter(ws=40, ag=10, main_hand="hand_weapon", reaction="none", **WALL)
    cnt, _ = run_duel_counters(prepared(a, b, start_distance=40, round_cap=1).compiled, n, seed=5)
    assert _attacks(cnt, 0).sum() == 0 and _attacks(cnt, 1).sum() == n
    assert within(0.70, _attacks(cnt, 1)[L.OUT_HIT] / n, n)
    cnt, _ = run_duel_counters(prepared(a, b, start_distance=40, round_cap=2, approach="double_move").compiled,
                               n, seed=5)
    assert _attacks(cnt, 1).sum() == n and _attacks(cnt, 0).sum() == n
    assert within(0.50, _attacks(cnt, 0)[L.OUT_HIT] / n, n) and within(0.40, _attacks(cnt, 1)[L.OUT_HIT] / n, n)


def _flee_counts(n: int, **options):
    """Side a (Ag 90, flee_at = its Wounds) flees at its first turn from b (WS 40; a cannot react)."""
    a = fighter(ag=90, flee_at=100, main_hand="hand_weapon", **WALL)
    b = fighter(ws=40, ag=10, main_hand="hand_weapon")
    cnt, _ = run_duel_counters(prepared(a, b, round_cap=1, **options).compiled, n, seed=9)
    return cnt


def test_w11_4_leave_melee_seed_gives_a_free_attack_rulebook_none():
    """W-11.4, W-3.16: Flee from melee; seed: the engaged foe first gets one free attack (40 % hits
    at WS 40, then the foe's own turn is lost: a fled); rulebook: it disengages, no attack at all."""
    n = 3000
    cnt = _flee_counts(n)
    assert _attacks(cnt, 1).sum() == n and within(0.40, _attacks(cnt, 1)[L.OUT_HIT] / n, n)
    assert cnt[L.C_WINS + 1] == n and cnt[L.C_CAUSE + L.CAUSE_FLED] == n  # side a's causes first
    cnt = _flee_counts(n, leave_melee="rulebook")
    assert _attacks(cnt, 1).sum() == 0 and cnt[L.C_WINS + 1] == n


def test_w11_4_flee_outcome_reposition_and_w11_5_arena():
    """W-11.4 flee_outcome = reposition: the fleer stays in the fight 2·M yards from its foe (W-11.2
    Flee; M yards in difficult terrain), within the arena (W-11.5: N yards round the starting
    midpoint, from (start_distance − N) // 2); sampled: its foe then charges it from 8 yards."""
    def fled(**options):
        p = prepared(fighter(m=4, flee_at=12), fighter(), flee_outcome="reposition", leave_melee="rulebook",
                     **options)
        F, o = p.compiled.fighters, p.compiled.options
        S = state(p)
        cnt = np.zeros(p.compiled.n_counters, dtype=np.int64)
        st = np.zeros(4, dtype=np.uint64) + np.uint64(3)
        turn(F, S, o, *p.compiled.tables, st, cnt, 0)
        return int(S[0, L.S_X]), int(S[1, L.S_X]), int(S[0, L.S_OUT]), int(S[0, L.S_ENGAGED])

    assert fled() == (-8, 0, 0, 0)
    assert fled(terrain="difficult") == (-4, 0, 0, 0)
    assert fled(arena=10) == (-5, 0, 0, 0)
    assert fled(arena=4, start_distance=2) == (-1, 2, 0, 0)  # lo = (2 − 4) // 2 = −1: 3 yards apart
    n = 3000  # out (default): the fleer is out; reposition: both still in after round 1
    assert _flee_counts(n)[L.C_WINS + 1] == n
    cnt = _flee_counts(n, flee_outcome="reposition")
    assert cnt[L.C_DRAWS] == n and _attacks(cnt, 1).sum() == 2 * n  # the free attack, then b's charge


def test_w11_5_an_arena_shorter_than_the_start_is_refused():
    with pytest.raises(DataError, match="arena"):
        prepared(fighter(), fighter(), arena=10, start_distance=20)
    r = CliRunner().invoke(app, ["duel", "orc", "goblin", "--ruleset", "wfrp2e", "-n", "10", "--option", "arena=10",
                                 "--option", "start_distance=20"])
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1 and "arena" in r.output


def test_w11_2_attack_measures_a_move_or_a_charge_and_refuses_beyond_reach():
    """The attack measure from a distance (W-11.2, W-3.3, W-8.12): from 3 yards a Move and a standard
    attack (WS 40: 40 %; no charge nearer than 4 yards), from 4 to 4·M = 16 a charge (50 %); in
    difficult terrain with difficult_charge = forbidden a Move of M = 4 and a standard attack up to
    6 yards (40 %, no +10). Beyond the charge reach (17 yards), or 7 yards with no charge: one line,
    exit 2."""
    a, b = fighter(ws=40, main_hand="hand_weapon"), fighter(reaction="none")
    assert exact(a, b, start_distance=3).to_dict()["p_hit"] == pytest.approx(0.40)
    assert exact(a, b, start_distance=16).to_dict()["p_hit"] == pytest.approx(0.50)
    assert exact(a, b, start_distance=8, terrain="difficult").to_dict()["p_hit"] == pytest.approx(0.50)
    forbidden = {"terrain": "difficult", "difficult_charge": "forbidden"}
    assert exact(a, b, start_distance=6, **forbidden).to_dict()["p_hit"] == pytest.approx(0.40)
    for options, says in ((["start_distance=17"], "charge reach (16 yards"),
                          (["start_distance=7", "terrain=difficult", "difficult_charge=forbidden"], "reach (6 yards")):
        args = ["attack", "orc", "goblin", "--ruleset", "wfrp2e"] + [x for o in options for x in ("--option", o)]
        r = CliRunner().invoke(app, args)
        assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1 and says in r.output, r.output
