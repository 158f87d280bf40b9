"""B-8 target size [Размер противника] (seed lines ~362–376, cover as a smaller size ~383–390) and
sprint [Спринт] (seed lines ~110–124): exact single-attack numbers by hand, exact against sampled, a
sprint worked out turn by turn, the stop rule's mobility check within 4σ, bad values."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_exact_matches_sampled, counters, default_options, p_2d6_at_least, within

from brutal_sim import api
from brutal_sim.core.errors import DataError
from brutal_sim.rulesets.brutal import layout as L, options as O
from brutal_sim.rulesets.brutal.catalog import Catalog
from brutal_sim.rulesets.brutal.compile import compile_pair
from brutal_sim.rulesets.brutal.kernel import reset, size_modifier, turn
from brutal_sim.toolbox.battle import foe_distance, place_sides
from brutal_sim.toolbox.rng import seed_duel

N = 200_000


def militia(size: str):
    return Catalog.bundled().fighter("militia").vary(size=size)


# -- B-8 size table ------------------------------------------------------------------------------------

def test_size_table_and_cover_steps_kernel_rule():
    """B-8: the seed's table −8 … +8; explicit cover counts the target 1/2/3 sizes smaller, clamped at
    tiny (a medium target −1/−2/−4 as before; a large one half in cover is medium)."""
    F = np.zeros((2, L.NF), dtype=np.int64)
    F[1, L.P_SIDE] = 1
    opts = np.zeros(O.NO, dtype=np.int64)
    table = []
    for k in range(len(L.SIZE_NAMES)):
        F[1, L.P_SIZE] = k - L.SIZE_MEDIUM
        table.append(size_modifier(F, opts, 1))
    assert table == [-8, -6, -4, -2, -1, 0, 1, 2, 4, 6, 8]
    cases = {("medium", 1): -1, ("medium", 2): -2, ("medium", 3): -4, ("large", 2): 0, ("very_large", 3): 0,
             ("larger", 1): 0, ("gigantic", 3): 2, ("smaller", 1): -2, ("small", 3): -8, ("miniature", 3): -8}
    for (size, steps), modifier in cases.items():
        F[1, L.P_SIZE] = L.SIZE_NAMES.index(size) - L.SIZE_MEDIUM
        opts[O.O_COVER + 1] = steps
        assert size_modifier(F, opts, 1) == modifier, (size, steps)
        assert size_modifier(F, opts, 0) == 0  # side a: medium, no cover


@pytest.mark.parametrize("size,cover,need", [
    ("medium", "none", 5), ("large", "none", 3), ("larger", "none", 4), ("small", "none", 7),
    ("very_small", "none", 9), ("tiny", "none", 13), ("huge", "none", -1),
    ("large", "half", 5),             # B-8: counts as medium, the same as no cover
    ("very_large", "three_quarters", 5), ("smaller", "quarter", 7), ("miniature", "three_quarters", 13),
])
def test_size_melee_hit_probability_by_hand(size, cover, need):
    """B-8 size: swordsman (melee 3) on a militia that does not react hits when 2d6 + 3 + size ≥ 8,
    i.e. 2d6 ≥ 5 − size (a large target half in cover is medium: 30/36 as without cover)."""
    r = api.attack("swordsman", militia(size), reaction="none", options={"cover_b": cover})
    assert r.outcomes[L.OUT_HIT] == pytest.approx(p_2d6_at_least(need), abs=1e-12)
    assert r.outcomes[L.OUT_MISS] == pytest.approx(1 - p_2d6_at_least(need), abs=1e-12)


def test_large_in_half_cover_equals_medium_without_cover():
    """B-8: the outcome shares (miss, parried, dodged, hard block, hit) are the same; only the zones
    differ (hidden rolls re-rolled)."""
    a = api.attack("swordsman", militia("large"), options={"cover_b": "half"}).outcomes
    b = api.attack("swordsman", "militia").outcomes
    assert a.tolist() == pytest.approx(b.tolist(), abs=1e-12)
    assert api.attack("swordsman", militia("large")).outcomes[L.OUT_HIT] > b[L.OUT_HIT] + 0.01


@pytest.mark.parametrize("size,cover,need", [("large", "none", 4), ("large", "half", 6), ("small", "none", 8),
                                             ("very_large", "quarter", 4), ("smaller", "half", 10)])
def test_size_shot_hit_probability_by_hand(size, cover, need):
    """B-8 size on shots: the crossbowman at 40 m (ranged 3, medium band −2, aim +1) at a target
    that does not dodge hits when 2d6 + 2 + size ≥ 8 (very large a quarter in cover: large +2;
    smaller half in cover: very small −4)."""
    r = api.attack("crossbowman", militia(size), reaction="none", options={"start_distance": 40, "cover_b": cover})
    assert r.outcomes[L.OUT_HIT] == pytest.approx(p_2d6_at_least(need), abs=1e-12)


SAMPLED_CASES = [
    ("swordsman", "large", {}),
    ("duelist", "small", {"cover_b": "quarter"}),
    ("knight", "very_large", {"cover_b": "three_quarters", "cover_zones_b": "vertical_left"}),
    ("crossbowman", "larger", {"start_distance": 40, "cover_b": "half"}),
]


@pytest.mark.parametrize("a,size,options", SAMPLED_CASES, ids=[f"{a}-{s}" for a, s, _ in SAMPLED_CASES])
def test_size_exact_matches_sampled(a, size, options):
    ex = api.attack(a, militia(size), options=options)
    sa = api.attack(a, militia(size), n=N, seed=29, options=options)
    assert_exact_matches_sampled(ex, sa, N)


def test_size_in_stat_block_only_when_not_medium():
    from brutal_sim.rulesets.brutal import RULESET

    assert "size" not in dict(RULESET.stat_block(militia("medium")))
    assert dict(RULESET.stat_block(militia("large")))["size"] == "large (+2 to attacks on it, B-8)"


@pytest.mark.parametrize("value", ["enormous", "Medium", 3])
def test_bad_size_is_one_line_error(value):
    with pytest.raises(DataError) as e:
        Catalog.bundled().fighter("militia").vary(size=value)
    text = str(e.value)
    assert "\n" not in text and "size" in text and "medium" in text


# -- B-8 sprint ------------------------------------------------------------------------------------------

def walker_and_post(**options):
    """a: the swordsman (movement 5, runs; dodge 1); b: a militia that never moves (movement 0)."""
    cat = Catalog.bundled()
    F = compile_pair(cat.fighter("swordsman"), cat.fighter("militia").vary(movement=0))
    assert F[0, L.P_MOVEMENT] == 5 and F[0, L.P_T_RUN] == 1 and F[0, L.P_DODGE] == 1
    return F, default_options(**options)


def own_turns(F, opts, distance: int, turns: int, index: int = 0):
    """a's own turns from ``distance`` (b does nothing): the distance after each, and the state."""
    S = np.zeros((2, L.NS), dtype=np.int64)
    reset(F, S)
    S[0, L.S_FOE], S[1, L.S_FOE] = 1, 0
    place_sides(F, S, distance)
    st = np.empty(4, dtype=np.uint64)
    seed_duel(st, np.uint64(5), np.int64(index))
    zt = np.zeros(20, dtype=np.int8)
    after = []
    for _ in range(turns):
        turn(F, S, opts, zt, st, counters(), 0)
        after.append(int(foe_distance(S, 0)))
    return after, S, st


def test_sprint_covers_six_moves_after_a_run_and_engages_a_turn_earlier():
    """B-8: from 65 m, movement 5: run 20 m (45), sprint 30 m (15; it ran the turn before, a run's
    20 m could not reach), run again (0, no stop check: the next action is a run): engaged after
    three turns. With ``sprint = off``: 45, 25, 5, then one move: four turns."""
    F, opts = walker_and_post()
    after, S, st = own_turns(F, opts, 65, 3)
    assert after == [45, 15, 0]
    assert S[0, L.S_RAN] == 3 and S[0, L.S_SPRINTED] == 2 and S[0, L.S_MOVING] == 1
    F, off = walker_and_post(sprint="off")
    after, S, _ = own_turns(F, off, 65, 4)
    assert after == [45, 25, 5, 0] and S[0, L.S_SPRINTED] == 0


def test_no_sprint_without_a_run_in_the_previous_turn():
    """B-8: the first turn from 100 m is a run (20 m), never a sprint; a walker (advance) never runs."""
    F, opts = walker_and_post()
    assert own_turns(F, opts, 100, 3)[0] == [80, 50, 20]
    F[0, L.P_T_RUN] = 0
    assert own_turns(F, opts, 100, 2)[0] == [90, 80]


def test_sprint_stop_mobility_check_within_4_sigma():
    """B-8 stop rule: from 60 m: run (40), sprint (10), then two moves — not a run, so a normal (10)
    mobility check first: 2d6 + dodge 1 ≥ 10, P = 10/36. Passed: two moves engage (0); failed: prone,
    standing up takes an action (no enemy engaged: no opportunity attack), one move leaves 5 m."""
    F, opts = walker_and_post()
    n = 4000
    fails = 0
    for i in range(n):
        after, S, _ = own_turns(F, opts, 60, 3, index=i)
        assert after[:2] == [40, 10] and after[2] in (0, 5) and S[0, L.S_PRONE] == 0
        fails += after[2] == 5
    p_fail = 1 - p_2d6_at_least(9)
    assert p_fail == pytest.approx(26 / 36)
    assert within(p_fail, fails / n, n), (fails / n, p_fail)


def test_a_run_after_a_sprint_draws_no_stop_check():
    """B-8: the run after the sprint (65 m case) draws no dice: the random state is unchanged in turn 3."""
    F, opts = walker_and_post()
    _, _, st2 = own_turns(F, opts, 65, 2)
    _, _, st3 = own_turns(F, opts, 65, 3)
    assert st2.tolist() == st3.tolist()
    _, _, st3_walk = own_turns(F, opts, 60, 3)
    _, _, st2_walk = own_turns(F, opts, 60, 2)
    assert st3_walk.tolist() != st2_walk.tolist()  # the mobility check's 2d6


def test_bad_sprint_option_is_one_line_error():
    with pytest.raises(DataError) as e:
        default_options(sprint="sometimes")
    text = str(e.value)
    assert "\n" not in text and "sprint" in text and "allowed" in text and "off" in text
