"""Property test of Vereteno's single shots and throws (``attack``) over random shooters (any gun of
the catalog, a shot its tactic fires), throwers (any melee weapon, a gun or an improvised item),
targets (armour, cover, Will, reaction, immobilised, prone) and distances (the guns that deal 0
damage, V-16.2, drawn more often):

- a blow lands whenever a hit gets through to the target (outcome ``hit`` or ``armour_stopped``,
  a hit for 0 damage too, V-16.2), each with one level: the levels add up to P(blow), so the mean
  damage of a blow times P(blow) is the mean damage per attack;
- the sampled attack agrees with the exact one within 4σ (outcomes, levels, mean damage).

Examples are few and derandomized (the same setups on every run, so the 4σ comparisons are
deterministic); the compiled kernels are shared by every example, and each sampled run is short."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from fuzz_strategies import examples
from hypothesis import HealthCheck, example, given, reject, settings, strategies as st

from brutal_sim import api
from brutal_sim.core.errors import DataError
from brutal_sim.rulesets.vereteno import RULESET
from brutal_sim.rulesets.vereteno.catalog import Catalog

CAT = Catalog.bundled()
C = RULESET.counters
GUNS = sorted(CAT.guns)
#: V-16.2 the guns that deal 0 damage, drawn more often than the others
ZERO_DAMAGE = sorted(name for name, gun in CAT.guns.items() if gun.damage == 0)
THROWN = sorted(CAT.weapons) + ["improvised", "kosin_rifle"]
ARMOUR = [None, *sorted(CAT.armour)]
#: V-10.1 bands: point blank, close, medium, long, extreme (and a band's edge)
DISTANCES = [1, 2, 3, 10, 20, 21, 60, 100, 150, 400, 1000]
#: attacks of each sampled run
N = 3000


def _shooter(draw) -> dict[str, Any]:
    gun = draw(st.sampled_from(GUNS + ZERO_DAMAGE * 4))
    tactics = ["hip_spam", "std_shot", "aimed"] + (["autofire"] if "automatic" in CAT.guns[gun].properties else [])
    return {"attributes": {"physique": 3, "agility": draw(st.integers(1, 6)), "intellect": 2, "empathy": 2},
            "skills": {"shooting": draw(st.integers(0, 5)), "perception": draw(st.integers(0, 3))},
            "gun": gun, "tactic": draw(st.sampled_from(tactics))}


def _thrower(draw) -> dict[str, Any]:
    return {"attributes": {"physique": draw(st.integers(1, 6)), "agility": 3, "intellect": 2, "empathy": 2},
            "skills": {"strength": draw(st.integers(0, 5)), "perception": draw(st.integers(0, 3))},
            "weapon": "knife", "thrown": [draw(st.sampled_from(THROWN))], "tactic": "throw_then_close"}


@st.composite
def matchups(draw) -> tuple[dict[str, Any], dict[str, Any], dict[str, str]]:
    """A shooter or a thrower, a target and the options of one attack from a distance."""
    a = _thrower(draw) if draw(st.integers(0, 3)) == 0 else _shooter(draw)
    a["attack_spending"] = draw(st.sampled_from(["trauma_first", "damage_only", "disarm_first", "intimidate",
                                                 "suppress_covered"]))
    a["suppress_at"] = draw(st.integers(0, 8))
    b: dict[str, Any] = {
        "attributes": {"physique": draw(st.integers(1, 5)), "agility": draw(st.integers(1, 5)),
                       "intellect": draw(st.integers(1, 3)), "empathy": draw(st.integers(1, 3))},
        "skills": {"nimbleness": draw(st.integers(0, 3))},
        "weapon": draw(st.sampled_from([None, "sword", "spear"])),
        "cover": draw(st.integers(0, 8)), "prone": draw(st.booleans()),
        "reaction": draw(st.sampled_from(["none", "dodge", "best"]))}
    armour = draw(st.sampled_from(ARMOUR))
    if armour is not None:
        b["armour"] = armour
    options = {"start_distance": str(draw(st.sampled_from(DISTANCES))),
               "immobilised": draw(st.sampled_from(["none", "b", "both"])),
               "burst_hit": draw(st.sampled_from(["total", "first_check"])),
               "stop_die": draw(st.sampled_from(["counted", "not_counted"])),
               "one_value": draw(st.sampled_from(["-2", "-1"])),
               "prayer": draw(st.sampled_from(["off", "app"])),
               "visibility": draw(st.sampled_from(["clear", "clear", "poor"])),
               "throw_range": draw(st.sampled_from(["close", "medium"])),
               "armour_piercing_dice": draw(st.sampled_from(["0", "2"])),
               "ranged_disarm": draw(st.sampled_from(["off", "on"]))}
    return a, b, options


def _tolerance(p: float) -> float:
    """4σ of a sampled probability ``p`` over ``N`` attacks, and 3 attacks' worth for rare outcomes."""
    return 4 * math.sqrt(p * (1 - p) / N) + 3 / N


#: a target of Will 2 (V-5.1) in heavy armour behind a brick wall (V-11.17)
_WALLED = {"attributes": {"physique": 3, "agility": 3, "intellect": 1, "empathy": 1}, "armour": "kevlar_vest",
           "cover": 7, "reaction": "none"}


@settings(max_examples=examples(40), derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(matchups())
@example(({"attributes": {"physique": 3, "agility": 4, "intellect": 2, "empathy": 2}, "skills": {"shooting": 3},
           "gun": "grenade_launcher", "tactic": "hip_spam", "attack_spending": "trauma_first"},
          _WALLED, {"start_distance": "20", "immobilised": "b"}))  # V-16.2 hits for 0 damage, V-6.9
@example(({"attributes": {"physique": 3, "agility": 3, "intellect": 2, "empathy": 2}, "skills": {"shooting": 3},
           "gun": "kurovski_assault_rifle", "tactic": "autofire", "attack_spending": "intimidate"},
          _WALLED, {"start_distance": "20", "burst_hit": "first_check"}))  # V-12.3 Will out through the wall
@example(({"attributes": {"physique": 4, "agility": 3, "intellect": 2, "empathy": 2}, "skills": {"strength": 3},
           "weapon": "knife", "thrown": ["knife"], "tactic": "throw_then_close", "attack_spending": "intimidate"},
          {**_WALLED, "reaction": "dodge", "cover": 3}, {"start_distance": "10", "throw_range": "medium",
                                                          "immobilised": "b", "prayer": "app"}))  # V-12.5
def test_v11_v12_v16_2_blows_add_up_and_sampled_attacks_agree_with_exact_ones(matchup):
    """V-11.15, V-11.20, V-12, V-16.2: for a random shot or throw, P(blow) = P(hit) + P(armour
    stopped) = the sum of the blow levels, ``mean_damage`` × P(blow) = ``mean_damage_per_attack``,
    and the sampled attack (``N`` attacks) within 4σ of the exact one."""
    a_data, b_data, options = matchup
    try:
        a = CAT.fighter_from_data({"ruleset": "vereteno", **a_data}, "a", "a")
        b = CAT.fighter_from_data({"ruleset": "vereteno", **b_data}, "b", "b")
        p = RULESET.prepare(a, b, options=options)
        RULESET.check_attack(p)
    except DataError:
        reject()
    exact = api.attack_of((RULESET, p))
    out = dict(zip(C.outcomes, exact.outcomes))
    assert exact.outcomes.sum() == np.float64(1.0) or abs(exact.outcomes.sum() - 1.0) < 1e-12
    blow = out["hit"] + out["armour_stopped"]
    assert abs(exact.p_blow - blow) < 1e-12
    d = exact.to_dict()
    assert abs(d["mean_damage"] * blow - d["mean_damage_per_attack"]) < 1e-12
    assert abs(sum(d["wound_level"].values()) - (1.0 if blow > 0 else 0.0)) < 1e-12

    sampled = api.attack_of((RULESET, p), n=N, seed=17, threads=1)
    for pe, ps in zip(np.ravel(exact.outcomes), np.ravel(sampled.outcomes)):
        assert abs(pe - ps) <= _tolerance(pe), (exact.outcomes, sampled.outcomes)
    for pe, ps in zip(np.ravel(exact.levels), np.ravel(sampled.levels)):
        assert abs(pe - ps) <= _tolerance(pe), (exact.levels, sampled.levels)
    assert abs(sampled.p_blow - float(sampled.outcomes[C.outcomes.index("hit")]
                                      + sampled.outcomes[C.outcomes.index("armour_stopped")])) < 1e-12
    # the same attacks one per lane: each one's damage, for the spread of the sampled mean
    c = p.compiled
    rows = c.kernels.attacks(*c.args(), np.uint64(17), np.int64(0), np.int64(N), N, c.n_counters)
    damage = rows[:, C.damage + 1].astype(float)
    assert damage.mean() == sampled.mean_damage_per_attack
    top = max(float(damage.max()), 3.0)
    assert abs(exact.mean_damage_per_attack - damage.mean()) <= 4 * damage.std() / math.sqrt(N) + 3 * top / N
