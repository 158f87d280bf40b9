"""Property test of WFRP 2e's single shots (``attack``) over random shooters (any missile weapon of
the catalog, a shooting tactic), targets (armour, Toughness, Dodge Blow, reaction) and distances:

- every hit is a blow with one level (W-5.2 – W-5.5, ``none`` when TB and AP stop it): the levels
  add up to P(hit), so the mean damage of a blow times P(hit) is the mean damage per attack;
- the sampled attack agrees with the exact one within 4σ (outcomes, levels, mean damage).

Examples are few and derandomized (the same setups on every run, so the 4σ comparisons are
deterministic); the compiled kernels are shared by every example, and each sampled run is short."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from fuzz_strategies import examples
from hypothesis import HealthCheck, given, reject, settings, strategies as st

from brutal_sim import api
from brutal_sim.core.errors import DataError
from brutal_sim.rulesets.wfrp2e import RULESET
from brutal_sim.rulesets.wfrp2e.catalog import Catalog

CAT = Catalog.bundled()
C = RULESET.counters
MISSILES = sorted(k for k, w in CAT.weapons.items() if w.missile)
ARMOUR = sorted(CAT.armour)
#: yards: engaged, short, long and extreme bands of the catalog's weapons, and beyond
DISTANCES = [2, 6, 8, 12, 16, 24, 30, 40, 60, 90, 130]
#: attacks of each sampled run
N = 3000


@st.composite
def matchups(draw) -> tuple[dict[str, Any], dict[str, Any], dict[str, str]]:
    """A shooter, a target and the options of one attack from a distance."""
    missile = draw(st.sampled_from(MISSILES))
    a: dict[str, Any] = {"ws": 35, "bs": draw(st.integers(20, 70)), "s": draw(st.integers(25, 50)), "t": 35,
                         "ag": draw(st.integers(25, 50)), "a": draw(st.integers(1, 3)), "w": 12,
                         "missile": missile, "main_hand": "hand_weapon",
                         "tactic": draw(st.sampled_from(["marksman", "shoot_then_draw", "kite"])),
                         "talents": draw(st.lists(st.sampled_from(["sure_shot", "sharpshooter", "mighty_shot"]),
                                                  max_size=2, unique=True))}
    if CAT.weapons[missile].thrown or CAT.weapons[missile].has("snare"):
        a["thrown"] = draw(st.integers(1, 4))
    b: dict[str, Any] = {"ws": 35, "s": 35, "t": draw(st.integers(20, 55)), "ag": draw(st.integers(20, 50)),
                         "w": draw(st.integers(6, 16)), "main_hand": "hand_weapon",
                         "reaction": draw(st.sampled_from(["dodge_first", "parry_first", "none"])),
                         "armour": draw(st.lists(st.sampled_from(ARMOUR), max_size=2, unique=True))}
    if draw(st.booleans()):
        b["dodge"] = draw(st.integers(20, 60))
    options = {"start_distance": str(draw(st.sampled_from(DISTANCES))),
               "crit_model": draw(st.sampled_from(["sudden_death", "threshold", "table"])),
               "cover": draw(st.sampled_from(["none", "legs"])),
               "extreme": draw(st.sampled_from(["2x_long", "off"])),
               "sure_shot_stack": draw(st.sampled_from(["true", "false"])),
               "visibility": str(draw(st.sampled_from([0, 0, 10, 20])))}
    if options["crit_model"] == "table":
        options["crit_table"] = "example"
    return a, b, options


def _tolerance(p: float) -> float:
    """4σ of a sampled probability ``p`` over ``N`` attacks, and 3 attacks' worth for rare outcomes."""
    p = min(max(float(p), 0.0), 1.0)  # an exact 0 or 1 may be off by a rounding step
    return 4 * math.sqrt(p * (1 - p) / N) + 3 / N


@settings(max_examples=examples(30), derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(matchups())
def test_w7_w5_blows_add_up_and_sampled_attacks_agree_with_exact_ones(matchup):
    """W-7.1, W-5.2 – W-5.5: for a random shot, the blow levels add up to P(hit), ``mean_damage`` ×
    P(hit) = ``mean_damage_per_attack``, and the sampled attack (``N`` attacks) within 4σ of the
    exact one."""
    a_data, b_data, options = matchup
    try:
        a = RULESET.fighter_from_data({"ruleset": "wfrp2e", **a_data}, "a", "a")
        b = RULESET.fighter_from_data({"ruleset": "wfrp2e", **b_data}, "b", "b")
        p = RULESET.prepare(a, b, options=options)
        RULESET.check_attack(p)
    except DataError:
        reject()
    exact = api.attack_of((RULESET, p))
    out = dict(zip(C.outcomes, exact.outcomes))
    assert abs(exact.outcomes.sum() - 1.0) < 1e-12
    d = exact.to_dict()
    assert abs(exact.p_blow - out["hit"]) < 1e-12
    assert abs(d["mean_damage"] * out["hit"] - d["mean_damage_per_attack"]) < 1e-12
    assert abs(sum(d["wound_level"].values()) - (1.0 if out["hit"] > 0 else 0.0)) < 1e-12

    sampled = api.attack_of((RULESET, p), n=N, seed=17, threads=1)
    for pe, ps in zip(np.ravel(exact.outcomes), np.ravel(sampled.outcomes)):
        assert abs(pe - ps) <= _tolerance(pe), (exact.outcomes, sampled.outcomes)
    for pe, ps in zip(np.ravel(exact.levels), np.ravel(sampled.levels)):
        assert abs(pe - ps) <= _tolerance(pe), (exact.levels, sampled.levels)
    c = p.compiled
    rows = c.kernels.attacks(*c.args(), np.uint64(17), np.int64(0), np.int64(N), N, c.n_counters)
    damage = rows[:, C.damage + 1].astype(float)
    assert damage.mean() == sampled.mean_damage_per_attack
    top = max(float(damage.max()), 3.0)
    assert abs(exact.mean_damage_per_attack - damage.mean()) <= 4 * damage.std() / math.sqrt(N) + 3 * top / N
