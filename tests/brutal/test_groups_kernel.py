"""The group-fight kernel (docs/groups.md): duels through it, the group block, initiative for N,
targeting, the attack limit and the outnumbered penalty (B-4.7), opportunity attacks in a mêlée,
determinism, and the validation of ``prepare_fight``."""

from __future__ import annotations

import naive
import numpy as np
import pytest
from brutal_drivers import run_duels, run_fights, run_paired_fights
from conftest import blank_fighters, counters, default_options, give_weapon, set_tactic
from numba import njit

from brutal_sim.core.errors import DataError
from brutal_sim.rulesets.brutal import RULESET, layout as L, options as O
from brutal_sim.rulesets.brutal.catalog import Catalog
from brutal_sim.rulesets.brutal.kernel import (
    choose_foe,
    fight,
    initiative,
    reaction_modifier,
    reset,
    set_track,
    tactic_attack,
    turn,
)
from brutal_sim.run.engine import run_duel_counters, run_paired_counters
from brutal_sim.toolbox.rng import seed_duel

ZT = np.zeros(20, dtype=np.int8)  # every blow on the head: deterministic zone (B-4.9 table not used)


def fight_counters(prepared, n: int, seed: int = 1, start: int = 0, lanes: int = 1) -> np.ndarray:
    c = prepared.compiled
    return run_fights(*c.args(), np.uint64(seed), np.int64(start), np.int64(n), lanes, c.n_counters).sum(axis=0)


def block(prepared, row: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(survivors int64[2, 7], per fighter int64[N, GB_PER_FIGHTER]) of a fight counter row."""
    head = L.n_counters(int(prepared.compiled.options[O.O_ROUND_CAP]))
    g = row[head:]
    n = prepared.compiled.fighters.shape[0]
    return g[:L.GB_FIGHTERS].reshape(2, L.MAX_SIDE + 1), g[L.GB_FIGHTERS:].reshape(n, L.GB_PER_FIGHTER)


def rng(seed: int, index: int) -> np.ndarray:
    st = np.empty(4, dtype=np.uint64)
    seed_duel(st, np.uint64(seed), np.int64(index))
    return st


def sides(na: int, nb: int) -> np.ndarray:
    """na + nb plain fighters (``blank_fighters`` rows) with side and rank set."""
    row = blank_fighters()[0]
    F = np.stack([row] * (na + nb))
    F[na:, L.P_SIDE] = 1
    F[:na, L.P_RANK] = np.arange(na)
    F[na:, L.P_RANK] = np.arange(nb)
    return F


# -- a duel is a fight of one against one -------------------------------------------------------------

@pytest.mark.parametrize("a, b, options", [
    ("swordsman", "brute", {}), ("duelist", "knight", {"surprise": "b"}), ("ghoul", "militia", {}),
    ("dual_blades", "brawler", {"exertion_fatigue": "every_endurance_rounds", "round_cap": "6"}),
])
def test_one_vs_one_fight_is_the_duel_bit_for_bit(a, b, options):
    duel = RULESET.prepare(a, b, options=options).compiled
    fight = RULESET.prepare_fight([a], [b], options=options)
    n = 20_000
    d = run_duels(*duel.args(), np.uint64(5), np.int64(0), np.int64(n), 1, duel.n_counters).sum(axis=0)
    f = fight_counters(fight, n, seed=5)
    assert f.shape[0] == L.n_fight_counters(int(duel.options[O.O_ROUND_CAP]), 2)
    assert np.array_equal(f[:duel.n_counters], d)
    survivors, per = block(fight, f)
    assert survivors[0, 1] == d[L.C_WINS] + d[L.C_DRAWS] and survivors[1, 1] == d[L.C_WINS + 1] + d[L.C_DRAWS]
    assert per[0, L.GB_TAKEN] == d[L.C_DAMAGE] and per[1, L.GB_TAKEN] == d[L.C_DAMAGE + 1]
    # the loser of a duel is its last fighter out: causes and deaths are the header's
    assert np.array_equal(per[0, :L.NCAUSES], d[L.C_CAUSE:L.C_CAUSE + L.NCAUSES])
    assert per[0, L.GB_DEAD] == d[L.C_DEATHS] and per[1, L.GB_DEAD] == d[L.C_DEATHS + 1]


# -- the group block ----------------------------------------------------------------------------------

def test_group_block_identities_in_2_vs_3():
    p = RULESET.prepare_fight(["swordsman", "militia"], ["brute", "brawler", "duelist"], options={"round_cap": "8"})
    n = 6000
    row = fight_counters(p, n, seed=3, lanes=2)
    survivors, per = block(p, row)
    assert per.shape == (5, L.GB_PER_FIGHTER)
    assert np.all(per[:, :L.NCAUSES].sum(axis=1) + per[:, L.GB_STANDING] == n)  # out or standing, every fight
    assert survivors[0].sum() == n and survivors[1].sum() == n
    assert survivors[0, 3:].sum() == 0 and survivors[1, 4:].sum() == 0
    assert row[L.C_WINS] == survivors[1, 0] and row[L.C_WINS + 1] == survivors[0, 0]  # all out = lost
    assert row[L.C_WINS:L.C_WINS + 2].sum() + row[L.C_DRAWS] == n
    assert row[L.C_DRAWS] > 0 and row[L.C_WINS] > 0 and row[L.C_WINS + 1] > 0
    # fighters still in = standing, summed over fights, by side
    assert (survivors[0] * np.arange(7)).sum() == per[:2, L.GB_STANDING].sum()
    assert (survivors[1] * np.arange(7)).sum() == per[2:, L.GB_STANDING].sum()
    assert row[L.C_DAMAGE] == per[:2, L.GB_TAKEN].sum() and row[L.C_DAMAGE + 1] == per[2:, L.GB_TAKEN].sum()
    assert (per[:2, L.GB_DEALT].sum() == per[2:, L.GB_TAKEN].sum()
            and per[2:, L.GB_DEALT].sum() == per[:2, L.GB_TAKEN].sum())
    # the header's causes describe one fighter per decided fight, the block every fighter out
    assert row[L.C_CAUSE:L.C_CAUSE + 2 * L.NCAUSES].sum() == row[L.C_WINS:L.C_WINS + 2].sum()
    assert row[L.C_DEATHS] <= per[:2, L.GB_DEAD].sum() and row[L.C_DEATHS + 1] <= per[2:, L.GB_DEAD].sum()
    assert np.all(per[:, L.GB_DEAD] <= per[:, :L.NCAUSES].sum(axis=1))


def test_fights_are_independent_of_lanes_and_chunks_and_paired_agrees():
    p = RULESET.prepare_fight(["knight", "militia", "brawler"], ["brute", "swordsman"], options={"round_cap": "12"})
    one = fight_counters(p, 1200, seed=9, lanes=1)
    assert np.array_equal(one, fight_counters(p, 1200, seed=9, lanes=2))
    assert np.array_equal(one, fight_counters(p, 500, seed=9) + fight_counters(p, 700, seed=9, start=500))
    totals, _ = run_duel_counters(p.compiled, 1200, 9, threads=1)
    assert np.array_equal(totals, one)
    other = RULESET.prepare_fight(["knight", "militia", "brawler"], ["brute", "swordsman"],
                                  options={"round_cap": "12", "outnumbered": "none"})
    cells, joint, _ = run_paired_counters([p.compiled, other.compiled], 1200, 9, threads=1)
    assert np.array_equal(cells[0], one) and np.array_equal(cells[1][:5], fight_counters(other, 1200, seed=9)[:5])
    assert joint.shape == (1, 3, 3) and joint.sum() == 1200
    c = p.compiled
    Fs = np.stack([c.fighters, c.fighters])
    optss = np.stack([c.options, c.options])
    cnt, joint = run_paired_fights(Fs, optss, *c.tables, np.uint64(9), np.int64(0), np.int64(300), 2, c.n_counters)
    assert np.array_equal(cnt.sum(axis=0)[0], fight_counters(p, 300, seed=9))
    assert np.array_equal(cnt.sum(axis=0)[1], cnt.sum(axis=0)[0]) and np.trace(joint.sum(axis=0)[0]) == 300


# -- initiative for N (B-2.2) --------------------------------------------------------------------------

def reference_order(F: np.ndarray, seed: int, index: int) -> list[int]:
    """docs/groups.md initiative, written from the page with the reference's generator."""
    g = naive.Xoshiro256StarStar.for_duel(seed, index)

    def roll(i: int) -> int:
        return g.roll_2d6().total + int(F[i, L.P_RESOLVE]) + int(F[i, L.P_INIT_MOD])

    def settle(rows: list[int], totals: dict[int, int]) -> list[int]:
        key = {i: (totals[i], int(F[i, L.P_INIT_TALENT]), int(F[i, L.P_AGILITY])) for i in rows}
        order: list[int] = []
        for k in sorted(set(key.values()), reverse=True):
            tied = [i for i in rows if key[i] == k]  # row order
            if len(tied) == 1:
                order += tied
            else:
                order += settle(tied, {i: roll(i) for i in tied})
        return order

    rows = list(range(F.shape[0]))
    return settle(rows, {i: roll(i) for i in rows})


def test_initiative_for_n_with_ties_follows_the_page():
    F = sides(3, 3)
    F[:, L.P_RESOLVE] = (0, 0, 0, 0, 1, -1)
    F[2, L.P_INIT_TALENT] = 1
    F[2, L.P_INIT_MOD] = -1  # same total as the others, wins their ties by the talent
    F[3, L.P_AGILITY] = 1
    S = np.zeros((6, L.NS), dtype=np.int64)
    rerolled = 0
    for index in range(3000):
        initiative(F, S, rng(4, index))
        got = list(S[:, L.S_ORDER])
        assert got == reference_order(F, 4, index), index
        rerolled += S[:, L.S_INIT_GROUP].max() > 0
    assert rerolled > 300  # ties and nested rerolls are exercised
    # one against one: a rolls, b rolls, a full tie rerolls both (the duel's rule)
    F2 = blank_fighters()
    for index in range(500):
        initiative(F2, S[:2], rng(4, index))
        g = naive.Xoshiro256StarStar.for_duel(4, index)
        while True:
            ra, rb = g.roll_2d6().total, g.roll_2d6().total
            if ra != rb:
                break
        assert S[0, L.S_ORDER] == (0 if ra > rb else 1)


# -- targeting (docs/groups.md) -----------------------------------------------------------------------

def start(F: np.ndarray, opts: np.ndarray, seed: int, index: int) -> np.ndarray:
    """The state after initiative and the first choice of foes (no fear, no surprise)."""
    S = np.zeros((F.shape[0], L.NS), dtype=np.int64)
    reset(F, S)
    initiative(F, S, rng(seed, index))
    for p in range(F.shape[0]):
        choose_foe(F, S, opts, np.zeros(4, dtype=np.uint64), S[p, L.S_ORDER])
    return S


def engagers(F: np.ndarray, S: np.ndarray) -> list[int]:
    """S_ENGAGERS recomputed from the foes: enemies in the fight that have the fighter as their foe."""
    return [sum(1 for i in range(F.shape[0]) if S[i, L.S_OUT] == 0 and S[i, L.S_FOE] == j) for j in range(F.shape[0])]


def test_spread_pairs_rank_with_rank_in_2_vs_2_whatever_the_order():
    F = sides(2, 2)
    opts = default_options()
    for index in range(200):
        S = start(F, opts, 6, index)
        assert list(S[:, L.S_FOE]) == [2, 3, 0, 1]
        assert list(S[:, L.S_ENGAGERS]) == [1, 1, 1, 1]


def test_spread_weakest_nearest_and_the_attack_limit():
    opts = default_options()
    F = sides(3, 1)
    S = start(F, opts, 1, 0)
    assert list(S[:3, L.S_FOE]) == [3, 3, 3] and S[3, L.S_FOE] == 0 and S[3, L.S_ENGAGERS] == 3
    S = start(F, default_options(attack_limit="corridor"), 1, 0)
    assert sorted(S[:3, L.S_FOE]) == [-1, -1, 3] and S[3, L.S_ENGAGERS] == 1
    assert S[3, L.S_FOE] == 0  # its own choice is not limited by a's engagers: nearest in line
    S = start(F, default_options(attack_limit="corner"), 1, 0)
    assert sorted(S[:3, L.S_FOE]) == [-1, 3, 3]
    # weakest: the most marked cells, ties the current foe, then the nearest in line
    F = sides(1, 3)
    F[0, L.P_TARGETING] = L.TG_WEAKEST
    S = np.zeros((4, L.NS), dtype=np.int64)
    reset(F, S)
    set_track(F, S, 3, 0b11)
    set_track(F, S, 2, 0b1)
    S[2, L.S_TALLY] = 3  # light damage tally: not a marked cell
    choose_foe(F, S, opts, np.zeros(4, dtype=np.uint64), 0)
    assert S[0, L.S_FOE] == 3 and S[3, L.S_ENGAGERS] == 1
    set_track(F, S, 2, 0b1001)
    choose_foe(F, S, opts, np.zeros(4, dtype=np.uint64), 0)
    assert S[0, L.S_FOE] == 3  # a tie keeps the current foe
    set_track(F, S, 1, 0b1001)
    S[3, L.S_OUT] = 1
    choose_foe(F, S, opts, np.zeros(4, dtype=np.uint64), 0)
    assert S[0, L.S_FOE] == 1 and S[1, L.S_ENGAGERS] == 1  # tie of ranks 0 and 1 marked alike: nearest
    # nearest keeps its foe while it is in, whatever the others; then the nearest, lowest row on ties
    F = sides(1, 3)
    F[0, L.P_RANK] = 1
    F[0, L.P_TARGETING] = L.TG_NEAREST
    reset(F, S)
    choose_foe(F, S, opts, np.zeros(4, dtype=np.uint64), 0)
    assert S[0, L.S_FOE] == 2  # rank 1
    set_track(F, S, 3, 0b111)
    choose_foe(F, S, opts, np.zeros(4, dtype=np.uint64), 0)
    assert S[0, L.S_FOE] == 2
    S[2, L.S_OUT] = 1
    choose_foe(F, S, opts, np.zeros(4, dtype=np.uint64), 0)
    assert S[0, L.S_FOE] == 1  # ranks 0 and 2 are equally near: the lower row
    # spread: the fewest other engagers first, even against rank
    F = sides(3, 2)
    reset(F, S := np.zeros((5, L.NS), dtype=np.int64))
    for i in (0, 1):
        choose_foe(F, S, opts, np.zeros(4, dtype=np.uint64), i)
    assert list(S[:2, L.S_FOE]) == [3, 4]
    choose_foe(F, S, opts, np.zeros(4, dtype=np.uint64), 2)
    assert S[2, L.S_FOE] == 4  # ties of engagers (1, 1): nearest in line (rank 2 → rank 1)
    choose_foe(F, S, opts, np.zeros(4, dtype=np.uint64), 0)
    assert S[0, L.S_FOE] == 3  # 0 others on its own foe, 2 on row 4: stays


@njit
def _play(F, opts, zt, seed, index, cnt, limit):
    """A fight as ``fight`` plays it, checking after every turn that S_ENGAGERS counts the enemies
    in the fight having the fighter as foe, never more than ``limit``; and that a fighter without a
    foe adds no attack of its side in its own turn. Returns (winner, violations)."""
    n = F.shape[0]
    S = np.zeros((n, L.NS), dtype=np.int64)
    st = np.empty(4, dtype=np.uint64)
    seed_duel(st, seed, index)
    bad = 0
    reset(F, S)
    initiative(F, S, st)
    for p in range(n):
        choose_foe(F, S, opts, np.zeros(4, dtype=np.uint64), S[p, L.S_ORDER])
    for rnd in range(1, opts[O.O_ROUND_CAP] + 1):
        for j in range(n):
            S[j, L.S_OA_LEFT] = F[j, L.P_OA_PER_ROUND]
        for p in range(n):
            i = S[p, L.S_ORDER]
            if S[i, L.S_OUT] != 0:
                continue
            side = F[i, L.P_SIDE]
            before = cnt[L.C_ATTACKS + 5 * side:L.C_ATTACKS + 5 * side + 5].sum()
            choose_foe(F, S, opts, np.zeros(4, dtype=np.uint64), i)  # in its turn, before its actions (no dice)
            turn(F, S, opts, zt, st, cnt, i)
            if S[i, L.S_FOE] < 0 and cnt[L.C_ATTACKS + 5 * side:L.C_ATTACKS + 5 * side + 5].sum() != before:
                bad += 1
            for j in range(n):
                c = 0
                for e in range(n):
                    if S[e, L.S_OUT] == 0 and S[e, L.S_FOE] == j:
                        c += 1
                if S[j, L.S_OUT] == 0 and (c != S[j, L.S_ENGAGERS] or c > limit):
                    bad += 1
            if S[0, L.S_SIDE_IN] == 0:
                return 1, bad
            if S[1, L.S_SIDE_IN] == 0:
                return 0, bad
    return 2, bad


@pytest.mark.parametrize("limit_name, limit", [("corridor", 1), ("corner", 2), ("open", 6)])
def test_the_attack_limit_holds_through_whole_fights(limit_name, limit):
    cat = Catalog.bundled()
    p = RULESET.prepare_fight(["militia", "brawler", "swordsman"], ["knight"],
                              options={"attack_limit": limit_name, "round_cap": "30"})
    c = p.compiled
    F, opts, zt = c.fighters, c.options, c.tables[0]
    cnt = np.zeros(c.n_counters, dtype=np.int64)
    cnt_kernel = np.zeros(c.n_counters, dtype=np.int64)
    total_bad = 0
    for index in range(400):
        _, bad = _play(F, opts, zt, np.uint64(2), index, cnt, limit)
        total_bad += bad
        st = rng(2, index)
        S = np.zeros((4, L.NS), dtype=np.int64)
        fight(F, S, opts, zt, st, cnt_kernel)
    assert total_bad == 0
    # the harness is the kernel's fight (the header part it counts)
    for part in (slice(L.C_ATTACKS, L.C_ATTACKS + 10), slice(L.C_WOUNDS, L.C_WOUNDS + 48),
                 slice(L.C_BREAKS, L.C_BREAKS + 2), slice(L.C_DAMAGE, L.C_DAMAGE + 2)):
        assert np.array_equal(cnt[part], cnt_kernel[part])
    assert cnt[L.C_ATTACKS:L.C_ATTACKS + 5].sum() > 1000
    del cat


def test_corridor_three_against_one_attacks_one_at_a_time():
    """In a corridor (limit 1) only one of side a engages the knight: a's attacks per round are its
    one attack action plus opportunity attacks, far fewer than three fighters make in the open."""
    cat = Catalog.bundled()
    sw = cat.fighter("swordsman")
    p3 = RULESET.prepare_fight([sw, sw, sw], ["knight"], options={"attack_limit": "corridor", "round_cap": "10"})
    p3o = RULESET.prepare_fight([sw, sw, sw], ["knight"], options={"round_cap": "10"})
    n = 4000
    r3, r3o = fight_counters(p3, n, seed=8), fight_counters(p3o, n, seed=8)
    att = slice(L.C_ATTACKS, L.C_ATTACKS + 5)
    rounds = (r3[L.C_ROUNDS:L.C_ROUNDS + 11] * np.arange(11)).sum() + 10 * r3[L.C_DRAWS]
    assert r3[att].sum() <= rounds * 1.2  # one attack action a round (+ a few opportunity attacks)
    assert r3[att].sum() < 0.6 * r3o[att].sum()
    _, per = block(p3, r3)
    assert per[:3, L.GB_DEALT].sum() == per[3, L.GB_TAKEN] == r3[L.C_DAMAGE + 1]


# -- the outnumbered penalty (B-4.7) ------------------------------------------------------------------

@pytest.mark.parametrize("mode, penalties", [("by_count", (0, 0, 1, 2, 4, 4)), ("one_side", (0, 0, 1, 1, 1, 1)),
                                             ("none", (0, 0, 0, 0, 0, 0))])
def test_outnumbered_penalty_by_engagers(mode, penalties):
    F = blank_fighters()
    S = np.zeros((2, L.NS), dtype=np.int64)
    reset(F, S)
    opts = default_options(outnumbered=mode)
    for c, pen in enumerate(penalties):
        S[1, L.S_ENGAGERS] = c
        assert reaction_modifier(F, S, opts, 1, True) == -pen and reaction_modifier(F, S, opts, 1, False) == -pen


@njit
def _attacks(F, opts, zt, seed, n, engaged, cnt):
    S = np.zeros((F.shape[0], L.NS), dtype=np.int64)
    st = np.empty(4, dtype=np.uint64)
    for idx in range(n):
        seed_duel(st, seed, idx)
        reset(F, S)
        S[1, L.S_ENGAGERS] = engaged
        S[0, L.S_IN_TURN] = 1
        tactic_attack(F, S, opts, zt, st, cnt, 0, 2, True)


@pytest.mark.parametrize("engaged, penalty", [(2, 1), (3, 2), (4, 4)])
def test_a_defender_facing_more_attackers_parries_exactly_that_much_less(engaged, penalty):
    """The same attacks against a defender with c engagers and against one with a penalty of the
    table to its parry and dodge: identical dice, identical counters; and the parry rate agrees
    with the exact enumeration of the penalised defender."""
    cat = Catalog.bundled()
    p = RULESET.prepare("swordsman", "duelist")
    F, opts, zt = p.compiled.fighters, p.compiled.options, p.compiled.tables[0]
    penalised = F.copy()
    penalised[1, L.P_PARRY_MOD] -= penalty
    penalised[1, L.P_DODGE] -= penalty
    n = 40_000
    crowd, alone, plain = (np.zeros(p.compiled.n_counters, dtype=np.int64) for _ in range(3))
    _attacks(F, opts, zt, np.uint64(7), n, engaged, crowd)
    _attacks(penalised, opts, zt, np.uint64(7), n, 1, alone)
    _attacks(F, opts, zt, np.uint64(7), n, 1, plain)
    assert np.array_equal(crowd, alone)
    exact = RULESET.enumerate_attack(RULESET.prepare("swordsman", "duelist").compiled)
    from brutal_sim.core.ruleset import Compiled

    c = p.compiled
    exact_pen = RULESET.enumerate_attack(Compiled(penalised, c.options, c.tables, c.kernels, c.n_counters))
    parried = crowd[L.C_ATTACKS + L.OUT_PARRIED] / n
    q = exact_pen.outcomes[L.OUT_PARRIED]
    assert abs(parried - q) < 4 * np.sqrt(q * (1 - q) / n)
    assert exact_pen.outcomes[L.OUT_PARRIED] < exact.outcomes[L.OUT_PARRIED] - 0.03 * penalty
    assert plain[L.C_ATTACKS + L.OUT_PARRIED] > crowd[L.C_ATTACKS + L.OUT_PARRIED]
    del cat


# -- opportunity attacks and fear in a mêlée ---------------------------------------------------------

def test_provoking_draws_every_engaged_enemys_opportunity_attack_until_out():
    F = sides(1, 3)  # a (row 0) against b0, b1, b2
    F[1:, L.P_MELEE] = -20  # b's opportunity attacks miss
    S = np.zeros((4, L.NS), dtype=np.int64)
    reset(F, S)
    S[1, L.S_FOE] = 0  # b0 and b2 engage a; b1 does not
    S[3, L.S_FOE] = 0
    S[0, L.S_ENGAGERS] = 2
    S[0, L.S_FOE] = 2  # a's foe b1: engaged too
    S[1:, L.S_OA_LEFT] = 1
    set_tactic(F, 0, "total_defence")
    S[0, L.S_PRONE] = 1
    cnt = counters()
    turn(F, S, default_options(), ZT, rng(1, 0), cnt, 0)
    assert cnt[L.C_ATTACKS + 5 + L.OUT_MISS] == 3 and list(S[1:, L.S_OA_LEFT]) == [0, 0, 0]
    # a fighter not engaged (neither foe nor engager) makes none
    S = np.zeros((4, L.NS), dtype=np.int64)
    reset(F, S)
    S[1, L.S_FOE] = 0
    S[0, L.S_FOE] = 1
    S[1:, L.S_OA_LEFT] = 1
    S[0, L.S_PRONE] = 1
    cnt = counters()
    turn(F, S, default_options(), ZT, rng(1, 0), cnt, 0)
    assert cnt[L.C_ATTACKS + 5 + L.OUT_MISS] == 1 and list(S[1:, L.S_OA_LEFT]) == [0, 1, 1]
    # until it is out: the first opportunity attack is mortal (B-5.4), the others are not made
    F[1:, L.P_MELEE] = 30
    F[0, L.P_REACTION] = L.R_NONE
    for i in (1, 2, 3):
        give_weapon(F, i, L.SLOT_MAIN, 1, 4, bonus=40)
    S = np.zeros((4, L.NS), dtype=np.int64)
    reset(F, S)
    S[1:, L.S_FOE] = 0
    S[0, L.S_FOE] = 1
    S[1:, L.S_OA_LEFT] = 1
    S[0, L.S_PRONE] = 1
    cnt = counters()
    turn(F, S, default_options(), ZT, rng(1, 0), cnt, 0)
    assert S[0, L.S_OUT] == L.CAUSE_MORTAL + 1 and cnt[L.C_ATTACKS + 5 + L.OUT_HIT] == 1
    assert list(S[1:, L.S_OA_LEFT]) == [0, 1, 1]


def test_a_failed_knockdown_gives_only_its_target_an_opportunity_attack():
    F = sides(1, 2)
    set_tactic(F, 0, "knockdown")
    F[0, L.P_MELEE] = -30  # always misses
    F[1:, L.P_MELEE] = -30
    S = np.zeros((3, L.NS), dtype=np.int64)
    reset(F, S)
    S[0, L.S_FOE] = 2
    S[1, L.S_FOE] = 0
    S[2, L.S_FOE] = 0
    S[0, L.S_ENGAGERS] = 2
    S[1:, L.S_OA_LEFT] = 1
    cnt = counters()
    turn(F, S, default_options(), ZT, rng(1, 0), cnt, 0)
    assert cnt[L.C_ATTACKS + L.OUT_MISS] == 1  # a's knock-down
    assert cnt[L.C_ATTACKS + 5:L.C_ATTACKS + 10].sum() == 1 and list(S[1:, L.S_OA_LEFT]) == [1, 0]


def test_fear_is_checked_against_the_highest_rating_of_the_enemy_side():
    from brutal_sim.rulesets.brutal.kernel import fear

    F = sides(2, 2)
    F[2, L.P_FEAR] = 1
    F[3, L.P_FEAR] = 3  # difficulty 12
    F[0, L.P_FEAR] = 5  # a fearsome ally does not frighten its own side
    F[:2, L.P_WILLPOWER] = -1  # 2d6 − 1 ≤ 11: always fails against 12 (and not always against 8)
    F[2:, L.P_WILLPOWER] = 5  # b against rating 5 (16): fails unless 11+
    frightened_b = 0
    for index in range(300):
        S = np.zeros((4, L.NS), dtype=np.int64)
        reset(F, S)
        fear(F, S, rng(3, index))
        assert S[0, L.S_FRIGHTENED] == 1 and S[1, L.S_FRIGHTENED] == 1
        frightened_b += S[2:, L.S_FRIGHTENED].sum()
    q = 33 / 36  # P(2d6 + 5 < 16)
    assert abs(frightened_b / 600 - q) < 4 * np.sqrt(q * (1 - q) / 600)


# -- preparation and validation ------------------------------------------------------------------------

def test_prepare_fight_compiles_the_sides():
    cat = Catalog.bundled()
    p = RULESET.prepare_fight(["swordsman", cat.fighter("brute")], ["militia"], options={"round_cap": "7"})
    assert [f.name for f in p.a] == ["Swordsman", "Brute"] and len(p.b) == 1
    F = p.compiled.fighters
    assert F.shape == (3, L.NF) and list(F[:, L.P_SIDE]) == [0, 0, 1] and list(F[:, L.P_RANK]) == [0, 1, 0]
    assert p.compiled.n_counters == L.n_fight_counters(7, 3) and p.compiled.kernels.attacks is None


@pytest.mark.parametrize("a, b, options, message", [
    ([], ["brute"], {}, "side a: has 0 fighters; allowed 1..6 a side"),
    (["brute"], ["militia"] * 7, {}, "side b: has 7 fighters; allowed 1..6 a side"),
    (["brute"], ["militia"], {"start_distance": "5"},
     "options: start_distance: 5: group fights start engaged; allowed 0"),
    (["brute", "nobody"], ["militia"], {}, "nobody"),
])
def test_prepare_fight_refuses_bad_input(a, b, options, message):
    with pytest.raises(DataError) as err:
        RULESET.prepare_fight(a, b, options=options)
    assert message in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("tactic", ["grapple", "grapple_throw", "kite"])
def test_prepare_fight_refuses_grapples_and_kiting(tactic):
    cat = Catalog.bundled()
    f = cat.with_behaviour(cat.fighter("militia"), tactic)
    with pytest.raises(DataError) as err:
        RULESET.prepare_fight(["brute"], ["knight", f])
    text = str(err.value)
    assert text.startswith("side b fighter 2 (Militia spearman): tactic: ") and f"'{tactic}'" in text
    assert "allowed: single, defensive" in text and "grapple," not in text.split("allowed:")[1]


def test_fight_kernels_travel_to_cluster_workers_by_import_path():
    import pickle

    from brutal_sim.run.engine import duel_work, paired_work

    p = RULESET.prepare_fight(["brute"], ["militia", "militia"])
    blob = pickle.dumps(duel_work(p.compiled.kernels.duels, p.compiled, 1))
    assert b"brutal_sim.rulesets.brutal.kernel.drivers" in blob and b"_run" in blob
    assert b"_paired" in pickle.dumps(paired_work([p.compiled, p.compiled], 1))
