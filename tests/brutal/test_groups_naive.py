"""Group fights (N vs M, docs/groups.md) in the pure-Python reference ``tests/brutal/naive.py``.

(a) The reference itself, by hand: initiative ties with a scripted dice stream (B-2.2), the choice
of foe step by step (spread / weakest / nearest, the attack limit of B-4.7), the outnumbered
reaction penalty (B-4.7), opportunity attacks from every engaged enemy (B-3.8, B-3.9), the end of
the fight and the deciding takedown (B-2.9), the group counter block.
(b) The kernel against the reference, fight by fight: for the same ``(seed, index)`` the kernel's
counter row of one fight (``run_fights``, header ``C_*`` then group block ``GB_*``) equals the
reference's record.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import naive
import numpy as np
import pytest
from brutal_drivers import run_duels, run_fights
from conftest import blank_fighters, default_options, set_tactic

from brutal_sim.rulesets.brutal import layout as L, options as O
from brutal_sim.rulesets.brutal.catalog import Catalog, load_rules
from brutal_sim.rulesets.brutal.compile import compile_sides
from brutal_sim.rulesets.brutal.options import compile_options

SEED = 20240611
ZT = np.array([5, 4, 5, 4, 5, 4, 3, 2, 3, 2, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0], dtype=np.int8)  # any table


# -- helpers -------------------------------------------------------------------------------------------


class ScriptedDice:
    """A dice stream for hand-checked scenarios: ``roll_2d6`` returns the next scripted total (as
    two dice), ``die`` the next scripted face; running out of script is an error."""

    def __init__(self, totals: list[int]) -> None:
        self.script = list(totals)
        self.draws = 0

    def roll_2d6(self) -> naive.Roll2d6:
        total = self.script.pop(0)
        self.draws += 1
        return naive.Roll2d6(total // 2, total - total // 2)

    def die(self, n: int) -> int:
        self.draws += 1
        return self.script.pop(0)


def blank_group(na: int, nb: int) -> np.ndarray:
    """``na`` plain fighters on side a and ``nb`` on side b (conftest's blank fighter), ranked in
    the order given."""
    row = blank_fighters()[0]
    F = np.stack([row.copy() for _ in range(na + nb)])
    for r in range(na + nb):
        F[r, L.P_SIDE] = 0 if r < na else 1
        F[r, L.P_RANK] = r if r < na else r - na
    return F


def fight_of(F: np.ndarray, dice: list[int] | None = None, **options) -> naive.NaiveFight:
    fight = naive.new_fight(F, default_options(**options), ZT, SEED, 0)
    if dice is not None:
        fight.rng = ScriptedDice(dice)
    return fight


def rows(fighters) -> list[int | None]:
    return [None if f is None else f.row for f in fighters]


# -- (a) initiative, B-2.2 -------------------------------------------------------------------------------


def test_initiative_ties_reroll_within_their_place():
    """Rolls 7, 9, 7, 7 (rows 0–3, all bonuses 0): row 1 first; rows 0, 2, 3 reroll in row order
    (5, 8, 5): row 2, then rows 0 and 3 reroll again (6, 4): row 0, row 3."""
    fight = fight_of(blank_group(2, 2), [7, 9, 7, 7, 5, 8, 5, 6, 4])
    assert rows(fight.turn_order(fight.fighters)) == [1, 2, 0, 3]
    assert fight.rng.script == []  # exactly 9 rolls


def test_initiative_tied_groups_reroll_in_turn_order():
    """Rolls 5, 5, 9, 9: the group at the top (rows 2, 3) rerolls first (3, 4 → row 3, row 2), then
    rows 0, 1 (6, 2 → row 0, row 1)."""
    fight = fight_of(blank_group(2, 2), [5, 5, 9, 9, 3, 4, 6, 2])
    assert rows(fight.turn_order(fight.fighters)) == [3, 2, 0, 1]
    assert fight.rng.script == []


def test_initiative_talent_then_agility_break_ties_before_a_reroll():
    """Equal totals 8: the talent (+1 initiative, so resolve −1 keeps the total) goes first, then
    the higher agility; only the remaining full tie (rows 0, 3) rerolls."""
    F = blank_group(2, 2)
    F[1, L.P_INIT_MOD], F[1, L.P_INIT_TALENT], F[1, L.P_RESOLVE] = 1, 1, -1
    F[2, L.P_AGILITY] = 3
    fight = fight_of(F, [8, 8, 8, 8, 2, 11])
    assert rows(fight.turn_order(fight.fighters)) == [1, 2, 3, 0]
    assert fight.rng.script == []


def test_initiative_of_a_duel_is_the_duel_rule():
    """One against one: a rolls, b rolls; a full tie rerolls both (a then b)."""
    fight = fight_of(blank_group(1, 1), [6, 6, 7, 6, 5, 9])
    assert rows(fight.turn_order(fight.fighters)) == [0, 1]
    assert fight.rng.script == [5, 9]


def two_d6_distribution() -> dict[int, Fraction]:
    return {t: Fraction(6 - abs(t - 7), 36) for t in range(2, 13)}


def test_initiative_probability_with_rerolls_matches_enumeration():
    """Side a (resolve +1) against b (resolve 0), one against one: a acts first with probability
    P(X + 1 > Y) / (1 − P(X + 1 = Y)) for independent 2d6 X, Y (the full ties reroll). 4000 orders
    from one stream against that exact value, within 4 standard errors."""
    p2 = two_d6_distribution()
    win = sum(px * py for x, px in p2.items() for y, py in p2.items() if x + 1 > y)
    tie = sum(px * py for x, px in p2.items() for y, py in p2.items() if x + 1 == y)
    assert (win, tie) == (Fraction(721, 1296), Fraction(140, 1296))
    p = float(win / (1 - tie))  # 721 / 1156 = 0.6237
    F = blank_group(1, 1)
    F[0, L.P_RESOLVE] = 1
    fight = fight_of(F)
    n = 4000
    first = sum(fight.turn_order(fight.fighters)[0].row == 0 for _ in range(n))
    se = (p * (1 - p) / n) ** 0.5
    assert abs(first / n - p) < 4 * se, (first / n, p, se)


def test_initiative_of_equal_fighters_is_a_uniform_permutation():
    """Three identical fighters: by symmetry each of the 6 turn orders has probability 1/6 — the
    tie rerolls must not favour the row order. 3000 orders, each count within 4 standard errors."""
    fight = fight_of(blank_group(2, 1))
    n = 3000
    counts: dict[tuple, int] = {}
    for _ in range(n):
        key = tuple(rows(fight.turn_order(fight.fighters)))
        counts[key] = counts.get(key, 0) + 1
    assert len(counts) == 6
    se = (1 / 6 * 5 / 6 / n) ** 0.5
    for order, c in counts.items():
        assert abs(c / n - 1 / 6) < 4 * se, (order, c)


# -- (a) targets, docs/groups.md -------------------------------------------------------------------------


def test_spread_step_by_step():
    """Three against two, everyone ``spread``: each takes the enemy with the fewest other engagers;
    ties go to the current foe, then the nearest in line, then the lowest row."""
    fight = fight_of(blank_group(3, 2))
    a0, a1, a2, b0, b1 = fight.fighters
    fight.choose_foe(a0)
    assert a0.foe is b0  # both free: rank 0 is nearest to rank 0
    fight.choose_foe(a1)
    assert a1.foe is b1  # b1 has no engager, b0 one
    fight.choose_foe(a2)
    assert a2.foe is b1  # one each: rank 1 is nearer to rank 2
    fight.choose_foe(b0)
    assert b0.foe is a0  # no a-fighter has an engager yet: the nearest in line
    fight.choose_foe(b1)
    assert b1.foe is a1  # a0 has b0; a1 and a2 none: rank 1 is nearest
    assert [len(fight.engagers(f)) for f in fight.fighters] == [1, 1, 0, 1, 2]
    fight.choose_foe(a2)  # b0: 1 other engager, b1: 1 other (a1): the current foe stays
    assert a2.foe is b1
    fight.put_out(b1, naive.TRACK_FULL)
    assert fight.engagers(a1) == []  # an out fighter stops being an engager
    fight.choose_foe(a2)
    assert a2.foe is b0


def test_spread_prefers_the_current_foe_before_the_nearest():
    fight = fight_of(blank_group(1, 2))
    a0, b0, b1 = fight.fighters
    a0.foe = b1
    fight.choose_foe(a0)  # both have no other engager: the current foe b1 beats the nearer b0
    assert a0.foe is b1


def test_weakest_takes_the_most_marked_track():
    F = blank_group(1, 3)
    F[0, L.P_TARGETING] = L.TG_WEAKEST
    fight = fight_of(F)
    a0, b0, b1, b2 = fight.fighters
    b2.track[0] = b2.track[1] = True
    b1.track[0] = True
    fight.choose_foe(a0)
    assert a0.foe is b2
    b1.track[1] = True  # now b1 and b2 both have two: the current foe b2 stays
    fight.choose_foe(a0)
    assert a0.foe is b2
    a0.foe = None  # without a current foe: the nearest in line of the two
    fight.choose_foe(a0)
    assert a0.foe is b1


def test_nearest_keeps_its_foe_while_it_is_in():
    F = blank_group(3, 3)
    F[:, L.P_TARGETING] = L.TG_NEAREST
    fight = fight_of(F)
    a0, a1, a2, b0, b1, b2 = fight.fighters
    a1.foe = b2
    b0.foe = b1.foe = a1  # crowding does not matter to ``nearest``
    fight.choose_foe(a1)
    assert a1.foe is b2
    fight.put_out(b2, naive.FLED)
    fight.choose_foe(a1)  # rank 1: b1 at distance 0
    assert a1.foe is b1
    fight.put_out(b1, naive.FLED)
    fight.choose_foe(a1)  # b0 (|1−0|) is the only one left
    assert a1.foe is b0
    a0.foe = None
    fight.choose_foe(a0)
    assert a0.foe is b0


def test_nearest_ties_go_to_the_lowest_row():
    F = blank_group(2, 3)
    F[:, L.P_TARGETING] = L.TG_NEAREST
    fight = fight_of(F)
    a0, a1, b0, b1, b2 = fight.fighters
    fight.put_out(b1, naive.FLED)
    fight.choose_foe(a1)  # rank 1: b0 and b2 both at distance 1 → the lower row
    assert a1.foe is b0


@pytest.mark.parametrize("limit,expected", [("corridor", [3, None, None]), ("corner", [3, 3, None]),
                                            ("front", [3, 3, 3]), ("open", [3, 3, 3])])
def test_attack_limit(limit, expected):
    """B-4.7: three against one; the fourth and later engagers find no room."""
    fight = fight_of(blank_group(3, 1), attack_limit=limit)
    for f in fight.fighters[:3]:
        fight.choose_foe(f)
    assert rows(f.foe for f in fight.fighters[:3]) == expected


def test_corridor_waiting_fighter_steps_in_when_the_first_goes_out():
    fight = fight_of(blank_group(2, 1), attack_limit="corridor")
    a0, a1, b0 = fight.fighters
    fight.choose_foe(a0)
    fight.choose_foe(a1)
    assert (a0.foe, a1.foe) == (b0, None)
    fight.choose_foe(a0)  # it already engages b0: the room it takes is its own
    assert a0.foe is b0
    fight.put_out(a0, naive.KNOCKED_OUT)
    fight.choose_foe(a1)
    assert a1.foe is b0


def test_no_foe_no_attack_and_no_stance():
    """Without a foe the tactic's action is not taken: no dice, no stance (total defence)."""
    F = blank_group(2, 1)
    set_tactic(F, 1, "total_defence")
    fight = fight_of(F, [], attack_limit="corridor")
    a0, a1, b0 = fight.fighters
    fight.choose_foe(a0)
    fight.choose_foe(a1)
    assert a1.foe is None
    assert fight.attack_actions(a1, 2, first_attack_only=False) == 2
    assert a1.stance_bonus == 0 and fight.rng.draws == 0


# -- (a) outnumbered, B-4.7 -------------------------------------------------------------------------------


@pytest.mark.parametrize("option,penalties", [("by_count", [0, 0, 1, 2, 4, 4, 4]),
                                               ("one_side", [0, 0, 1, 1, 1, 1, 1]),
                                               ("none", [0, 0, 0, 0, 0, 0, 0])])
def test_outnumbered_penalty_by_engagers(option, penalties):
    F = blank_group(1, 6)
    F[0, L.P_DODGE] = 3
    fight = fight_of(F, outnumbered=option)
    a0 = fight.fighters[0]
    got = []
    for c in range(7):
        for b in fight.fighters[1:]:
            b.foe = a0 if b.row <= c else None
        assert len(fight.engagers(a0)) == c
        got.append(fight.outnumbered_penalty(a0))
        assert fight.dodge_total(a0) == 3 - got[-1]  # it adds to the other reaction modifiers
    assert got == penalties


def test_outnumbered_counts_engagers_not_enemies_engaged():
    """Enemies it attacks but which attack someone else do not press it; out engagers neither."""
    fight = fight_of(blank_group(2, 3))
    a0, a1, b0, b1, b2 = fight.fighters
    a0.foe = b0
    b0.foe, b1.foe, b2.foe = a1, a0, a0
    assert fight.outnumbered_penalty(a0) == 1
    b0.foe = a0
    assert fight.outnumbered_penalty(a0) == 2
    fight.put_out(b1, naive.FLED)
    assert fight.outnumbered_penalty(a0) == 1


@pytest.mark.parametrize("option,dice,outcome", [("by_count", [8, 9, 10, 2], naive.HIT),
                                                  ("none", [8, 9], naive.DODGED)])
def test_outnumbered_dodge_in_an_attack(option, dice, outcome):
    """a0 attacks b0, whom a0 and a1 engage: attack 8 against dodge 9 − 1 (two engagers, by_count)
    = 8, a tie hits (B-4.5): zone die 10 (left arm), fists d4 = 2, light damage. Without the
    penalty 8 < 9 is dodged."""
    fight = fight_of(blank_group(2, 1), dice, outnumbered=option)
    a0, a1, b0 = fight.fighters
    a0.foe = a1.foe = b0
    fight.attack(a0, b0, naive.FISTS, 0, None, "normal")
    assert fight.record.attacks == [(0, outcome)]
    assert fight.record.wounds == ([(1, naive.LIGHT_DAMAGE, "left_arm", 2)] if outcome == naive.HIT else [])
    assert fight.rng.script == []


# -- (a) opportunity attacks, B-3.8 / B-3.9 ------------------------------------------------------------------


def record_attacks(fight: naive.NaiveFight) -> list[tuple[int, int, int, str]]:
    """Replace the fight's attack by a recorder of (attacker row, defender row, modifier, kind)."""
    log: list[tuple[int, int, int, str]] = []

    def attack(attacker, defender, slot, modifier, zone, kind):
        log.append((attacker.row, defender.row, modifier, kind))
        return False

    fight.attack = attack
    return log


def test_opportunity_attacks_from_every_engaged_enemy_in_row_order():
    """a0 stands up: b2 (its foe), b0 and b3 (whose foe it is) attack at −2 in row order; b1 is
    engaged with someone else, b4 is in total defence (B-3.7), b5 has used its attack this round."""
    fight = fight_of(blank_group(2, 6))
    a0, a1, b0, b1, b2, b3, b4, b5 = fight.fighters
    a0.foe = b2
    b0.foe = b3.foe = b4.foe = b5.foe = a0
    b1.foe = a1
    b4.no_opportunity_attacks = True
    for f in fight.fighters:
        f.opportunity_attacks_left = 1
    b5.opportunity_attacks_left = 0
    a0.prone = True
    log = record_attacks(fight)
    fight.stand_up(a0)
    assert log == [(2, 0, -2, "opportunity"), (4, 0, -2, "opportunity"), (5, 0, -2, "opportunity")]
    assert not a0.prone
    assert [f.opportunity_attacks_left for f in (b0, b1, b2, b3)] == [0, 1, 0, 0]


def test_opportunity_attacks_stop_when_the_provoker_is_out():
    fight = fight_of(blank_group(1, 3))
    a0, b0, b1, b2 = fight.fighters
    for b in (b0, b1, b2):
        b.foe = a0
        b.opportunity_attacks_left = 1
    log: list[int] = []

    def attack(attacker, defender, slot, modifier, zone, kind):
        log.append(attacker.row)
        if attacker is b1:
            fight.put_out(defender, naive.MORTAL_WOUND)
        return False

    fight.attack = attack
    fight.ready_weapon(a0, naive.MAIN)
    assert log == [1, 2]


def test_failed_knockdown_gives_only_its_target_an_opportunity_attack():
    F = blank_group(1, 2)
    set_tactic(F, 0, "knockdown")
    fight = fight_of(F)
    a0, b0, b1 = fight.fighters
    a0.foe, b0.foe, b1.foe = b1, a0, a0
    for f in fight.fighters:
        f.opportunity_attacks_left = 1
    log: list[tuple[int, int, int, str]] = []
    fight.attack = lambda attacker, defender, slot, modifier, zone, kind: (
        log.append((attacker.row, defender.row, modifier, kind)) or kind == "knockdown")  # it fails
    fight.attack_actions(a0, 2, first_attack_only=False)
    assert log == [(0, 2, -2, "knockdown"), (2, 0, -2, "opportunity")]


# -- (a) the end, B-2.9, and the counters -----------------------------------------------------------------


def test_side_a_is_checked_first_and_the_last_out_decides():
    fight = fight_of(blank_group(2, 2))
    a0, a1, b0, b1 = fight.fighters
    fight.put_out(a1, naive.MORTAL_WOUND)
    a1.dead = True
    assert fight.losing_side() is None
    fight.put_out(b0, naive.FLED)
    fight.put_out(b1, naive.KNOCKED_OUT)
    assert fight.losing_side() == 1
    fight.put_out(a0, naive.TRACK_FULL)  # both sides out after one turn: side a loses
    assert fight.losing_side() == 0
    fight.decide(0, 4)
    record = fight.finish()
    assert (record.winner, record.loser_cause, record.loser_dead, record.deciding_round) == (1, "track_full", False, 4)
    assert [f.out_cause for f in record.fighters] == ["track_full", "mortal", "fled", "knocked_out"]
    assert [a.out_order for a in fight.fighters] == [4, 1, 2, 3]


def test_group_block_layout():
    """Survivors per side and per-fighter outcomes at the G_* offsets after the header."""
    record = naive.FightRecord(winner=0, loser_cause="mortal", loser_dead=True, loser_one_blow=True,
                               deciding_round=3, round_cap=10)
    record.fighters = [naive.FighterOutcome(0, 0, None, False, 7, 2),
                       naive.FighterOutcome(0, 1, "fled", False, 0, 0),
                       naive.FighterOutcome(1, 0, "mortal", True, 2, 7)]
    k = L.n_fight_counters(10, 3)
    row = record.counter_row(k)
    g = L.n_counters(10)
    assert row[L.C_WINS] == 1 and row[L.C_CAUSE + L.NCAUSES + L.CAUSE_MORTAL] == 1
    assert row[L.C_DEATHS + 1] == 1 and row[L.C_ONE_BLOW + 1] == 1 and row[L.C_ROUNDS + 3] == 1
    assert row[g + L.GB_SURVIVORS + 1] == 1 and row[g + L.GB_SURVIVORS + 7 + 0] == 1
    f0, f1, f2 = (g + L.GB_FIGHTERS + L.GB_PER_FIGHTER * r for r in range(3))
    assert row[f0 + L.GB_STANDING] == 1 and row[f0 + L.GB_DEALT] == 7 and row[f0 + L.GB_TAKEN] == 2
    assert row[f1 + L.GB_OUT + L.CAUSE_FLED] == 1 and row[f1 + L.GB_STANDING] == 0
    assert row[f2 + L.GB_OUT + L.CAUSE_MORTAL] == 1 and row[f2 + L.GB_DEAD] == 1 and row[f2 + L.GB_TAKEN] == 7
    assert sum(row[g:]) == 2 + 1 + 7 + 2 + 1 + 1 + 1 + 2 + 7
    assert len(record.counter_row(L.n_counters(10))) == L.n_counters(10)  # header only


def catalog_group(side_a: list[str], side_b: list[str], **overrides) -> np.ndarray:
    cat = Catalog.bundled()
    return compile_sides([cat.fighter(n) for n in side_a], [cat.fighter(n) for n in side_b], **overrides)


def test_fight_records_are_consistent():
    """Over 60 fights of 3 vs 3: the winner has a fighter standing and the loser none; damage dealt
    over all fighters equals damage taken equals the header's damage; the deciding cause is one of
    the losing side's causes."""
    F = catalog_group(["swordsman", "militia", "militia"], ["brute", "duelist", "brawler"])
    opts, zt = default_options(round_cap=40), load_rules(None, {})[1][0]
    k = L.n_fight_counters(40, 6)
    decided = 0
    for i in range(60):
        fight = naive.new_fight(F, opts, zt, SEED, i)
        record = fight.run()
        row = record.counter_row(k)
        dealt = sum(f.damage_dealt for f in record.fighters)
        taken = sum(f.damage_taken for f in record.fighters)
        assert dealt == taken == row[L.C_DAMAGE] + row[L.C_DAMAGE + 1]
        if record.winner is not None:
            decided += 1
            loser = 1 - record.winner
            assert record.survivors(loser) == 0 and record.survivors(record.winner) >= 1
            assert sum(f.out_cause == record.loser_cause for f in record.fighters if f.side == loser) >= 1
        else:
            assert record.survivors(0) >= 1 and record.survivors(1) >= 1
    assert decided >= 50


# -- (b) agreement with the kernel ------------------------------------------------------------------------



@pytest.fixture(scope="module")
def one_numba_thread():
    """One-fight kernel calls: a thread pool launch per call is slow on a shared machine."""
    import numba

    before = numba.get_num_threads()
    numba.set_num_threads(1)
    yield
    numba.set_num_threads(before)


# (side a, side b, per-fighter changes {index in the combined list: {field: value}}, side overrides, options, K)
GROUP_CASES = {
    "2v2-spread": (["swordsman", "militia"], ["brute", "knight"], {}, {}, {}, 400),
    "3v1-militia-vs-knight-front": (["militia"] * 3, ["knight"], {}, {}, {"attack_limit": "front"}, 400),
    "1v3-knight-weakest-one_side": (["knight"], ["militia"] * 3, {0: {"targeting": "weakest"}}, {},
                                    {"outnumbered": "one_side"}, 400),
    "6v6-mixed-nearest": (["knight", "swordsman", "militia", "brute", "duelist", "dual_blades"],
                          ["brawler", "militia", "swordsman", "brute", "knight", "crossbowman"],
                          {k: {"targeting": "nearest"} for k in range(6)}, {}, {"round_cap": 30}, 300),
    "3v3-weakest-corridor-none": (["swordsman", "militia", "duelist"], ["brute", "militia", "brawler"],
                                  {k: {"targeting": "weakest"} for k in range(6)}, {},
                                  {"attack_limit": "corridor", "outnumbered": "none"}, 400),
    "2v3-corner-surprise-b": (["knight", "duelist"], ["militia", "militia", "brawler"], {}, {},
                              {"attack_limit": "corner", "surprise": "b"}, 400),
    "3v2-surprise-a-fear": (["militia", "swordsman", "militia"], ["ghoul", "ghoul"], {}, {},
                            {"surprise": "a"}, 400),
    "2v2-fatigue": (["swordsman", "militia"], ["brute", "duelist"], {1: {"fatigue": 2}, 3: {"fatigue": 4}}, {},
                    {"exertion_fatigue": "per_round_after_endurance"}, 400),
    "2v2-paired-knockdown": (["dual_blades", "dual_blades"], ["brawler", "brawler"], {}, {"tactic_b": "knockdown"},
                             {}, 400),
    "3v2-total-defence": (["knight", "militia", "militia"], ["swordsman", "brute"], {0: {"tactic": "total_defence"}},
                          {}, {}, 400),
    "2v2-shooters-in-melee": (["crossbowman", "militia"], ["swordsman", "crossbowman"],
                              {3: {"tactic": "shoot_until_engaged"}}, {}, {}, 400),
    "3v2-cover-aimed": (["swordsman", "militia", "knight"], ["brute", "duelist"], {1: {"tactic": "aimed:left_arm"}}, {},
                        {"cover_b": "half", "cover_zones_b": "vertical_left", "cover_a": "quarter"}, 400),
    "3v2-sizes-cover": (["swordsman", "militia", "knight"], ["brute", "ghoul"],  # B-8 size, cover as size steps
                        {1: {"size": "small"}, 2: {"size": "larger"}, 3: {"size": "large"}, 4: {"size": "very_small"}},
                        {}, {"cover_b": "half", "cover_a": "quarter"}, 300),
    "3v2-three-quarter-cover": (["swordsman", "militia", "knight"], ["brute", "duelist"],  # B-9.9: a d4 per fighter
                                {1: {"tactic": "aimed:left_arm"}}, {},
                                {"cover_b": "three_quarters", "cover_a": "quarter"}, 300),
    "2v1-furious-feint-cramped": (["brute", "swordsman"], ["duelist"], {1: {"tactic": "feint"}}, {},
                                  {"cramped_space": "true"}, 400),
    # B-9.1 two readied attacks answering one attacker (higher initiative first); B-9.3, B-9.2 in groups
    "2v1-two-readied-enemy-attacks": (["swordsman", "militia"], ["brute"],
                                      {0: {"tactic": "ready_attack"}, 1: {"tactic": "ready_attack"}}, {},
                                      {"readied_trigger": "enemy_attacks"}, 300),
    "3v2-readied-aim-weapon-furious-fists": (["swordsman", "militia", "knight"], ["brute", "brawler"],
                                             {0: {"tactic": "ready_attack"}, 2: {"tactic": "aim_weapon"},
                                              4: {"tactic": "furious"}}, {}, {"readied_trigger": "enemy_attacks"}, 300),
    # B-9.4–B-9.6: a defensive dodger outnumbered (several dodges a round), terrain per side, darkness
    "2v2-terrain-dark-stance": (["dual_blades", "swordsman"], ["knight", "brawler"], {2: {"tactic": "defensive"}},
                                {"reaction_b": "dodge"}, {"terrain_a": "very_difficult", "terrain_b": "difficult",
                                                          "darkness": "on", "dazed_penalty": "all_checks"}, 400),
    # B-9.8: finishing the helpless (B-4.13, B-6.7); in a corridor the waiting fighters finish
    "3v2-finish-helpless": (["swordsman", "militia", "brute"], ["knight", "militia"], {}, {},
                            {"finish_helpless": "on"}, 400),
    "3v3-finish-corridor-weakest": (["swordsman", "militia", "crossbowman"], ["brute", "militia", "dual_blades"],
                                    {k: {"targeting": "weakest"} for k in range(6)}, {},
                                    {"finish_helpless": "on", "attack_limit": "corridor"}, 400),
    "2v2-finish-knockdown-feint": (["brawler", "swordsman"], ["militia", "duelist"],
                                   {0: {"tactic": "knockdown"}, 1: {"tactic": "feint"}}, {},
                                   {"finish_helpless": "on"}, 400),
    # B-9.7, B-4.4, B-3.10, B-3.11 readings, with several engagers' opportunity attacks
    "3v2-stuck-retries": (["brute", "militia", "dual_blades"], ["knight", "swordsman"], {}, {},
                          {"cramped_space": "true", "stuck_weapon": "always", "second_break": "degraded_again",
                           "refelled": "stays_down", "knocked_away_again": "may_retry"}, 400),
    # B-3.10, B-3.11, B-2.7: the other readings of those opportunity attacks, with several engagers
    "3v2-ready-completes-stands-no-own-turn-reactions": (
        ["brute", "militia", "dual_blades"], ["knight", "swordsman"], {}, {},
        {"knocked_away_again": "ready_completes", "felled_while_readying": "stand_up", "refelled": "stands",
         "react_in_own_turn": "no"}, 400),
}


@lru_cache(maxsize=None)
def group_inputs(name: str):
    side_a, side_b, changes, overrides, options, n = GROUP_CASES[name]
    cat = Catalog.bundled()
    fighters = [cat.fighter(x) for x in side_a + side_b]
    for j, change in changes.items():
        tactic = change.get("tactic")
        rest = {key: v for key, v in change.items() if key != "tactic"}
        f = fighters[j].vary(**rest) if rest else fighters[j]
        fighters[j] = cat.with_behaviour(f, tactic) if tactic else f
    F = compile_sides(fighters[:len(side_a)], fighters[len(side_a):], **overrides)
    rules, (zt,) = load_rules(None, {key: str(v) for key, v in options.items()})
    opts = compile_options(rules)
    return F, opts, zt, L.n_fight_counters(int(opts[O.O_ROUND_CAP]), len(F)), n


def counter_name(j: int, cap: int) -> str:
    """Human name of offset ``j`` in a group fight's counter row."""
    g = L.n_counters(cap)
    if j >= g + L.GB_FIGHTERS:
        r, o = divmod(j - g - L.GB_FIGHTERS, L.GB_PER_FIGHTER)
        names = list(naive.CAUSES) + ["dead", "standing", "dealt", "taken"]
        return f"fighter[{r}].{names[o]}"
    if j >= g:
        side, n = divmod(j - g, L.MAX_SIDE + 1)
        return f"survivors[{'ab'[side]}][{n}]"
    from test_naive_agreement import counter_name as header_name

    return header_name(j)


@pytest.mark.parametrize("name", list(GROUP_CASES))
def test_group_fights_agree(name, one_numba_thread):
    F, opts, zt, k, n = group_inputs(name)
    cap = int(opts[O.O_ROUND_CAP])
    bad = []
    for i in range(n):
        kern = run_fights(F, opts, zt, np.uint64(SEED), np.int64(i), np.int64(1), 1, k)[0]
        ref = naive.fight(F, opts, zt, SEED, i).counter_row(k)
        if kern.tolist() != ref:
            diffs = [f"{counter_name(j, cap)}: kernel {int(kern[j])} naive {ref[j]}"
                     for j in range(k) if int(kern[j]) != ref[j]]
            bad.append(f"fight {i}: " + ", ".join(diffs))
    assert bad == [], "\n".join(bad[:5]) + f"\n({len(bad)} of {n} fights differ)"


def test_duels_agree_as_fights(one_numba_thread):
    """A duel through ``run_fights``: the header equals ``run_duels``, the group block the
    reference's per-fighter record."""
    F = catalog_group(["swordsman"], ["brute"])
    rules, (zt,) = load_rules(None, {})
    opts = compile_options(rules)
    cap = int(opts[O.O_ROUND_CAP])
    k = L.n_fight_counters(cap, 2)
    for i in range(200):
        kern = run_fights(F, opts, zt, np.uint64(SEED), np.int64(i), np.int64(1), 1, k)[0]
        duel = run_duels(F, opts, zt, np.uint64(SEED), np.int64(i), np.int64(1), 1, L.n_counters(cap))[0]
        assert kern[:L.n_counters(cap)].tolist() == duel.tolist()
        assert kern.tolist() == naive.fight(F, opts, zt, SEED, i).counter_row(k)
