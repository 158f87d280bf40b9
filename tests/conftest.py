"""Shared fixtures: the bundled catalog, default rules, and small array builders for rule tests;
the hypothesis profiles of every property test.

Profiles: ``ci`` (derandomized: the same examples on every run, so a test run's verdict never
depends on luck) is the default; ``HYPOTHESIS_PROFILE=dev`` draws new random examples each run to
look for inputs not yet tried, ``HYPOTHESIS_PROFILE=ci-long`` plays ten times the examples of the
tests that size theirs by ``fuzz_strategies.examples``. None keeps an example database; a failure
prints the ``@reproduce_failure`` blob that replays it."""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

from brutal_sim.core.ruleset import Compiled
from brutal_sim.rulesets.brutal import compiled as brutal_compiled, layout as L
from brutal_sim.rulesets.brutal.catalog import Catalog, load_rules
from brutal_sim.rulesets.brutal.compile import compile_pair
from brutal_sim.rulesets.brutal.options import compile_options

# The CLI sizes its tables by COLUMNS where it is set (a shell, pytest-xdist's workers); the tests
# read a command's output as it is printed off a terminal, where COLUMNS is not set.
for _name in ("COLUMNS", "LINES"):
    os.environ.pop(_name, None)

_COMMON = dict(deadline=None, database=None, print_blob=True,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                      HealthCheck.data_too_large, HealthCheck.filter_too_much])
settings.register_profile("ci", derandomize=True, **_COMMON)
settings.register_profile("dev", **_COMMON)
settings.register_profile("ci-long", derandomize=True, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or "ci")


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return Catalog.bundled()


def compiled(a: str, b: str, options: dict | None = None, **overrides) -> Compiled:
    cat = Catalog.bundled()
    opts, (zt,) = load_rules(None, options or {})
    return brutal_compiled(compile_pair(cat.fighter(a), cat.fighter(b), **overrides), compile_options(opts), zt)


def blank_fighters() -> np.ndarray:
    """Two plain fighters (side a, side b): all checks 0, endurance 3, levels 3/6/9/15, fists only, no armour."""
    F = np.zeros((2, L.NF), dtype=np.int64)
    F[:, L.P_ENDURANCE] = 3
    F[:, L.P_NCELLS] = 7
    F[:, L.P_DL0:L.P_DL0 + 4] = (3, 6, 9, 15)
    F[:, L.P_OA_PER_ROUND] = 1
    F[:, L.P_AIM_ZONE] = -1
    F[:, L.P_T_ATTACK] = L.TA_NORMAL
    fists = L.P_WEAPONS + L.SLOT_FISTS * L.WN
    F[:, fists + L.W_PRESENT] = 1
    F[:, fists + L.W_NDICE] = 1
    F[:, fists + L.W_SIDES] = 4
    F[:, fists + L.W_TYPE] = L.DT_SHOCK
    F[:, fists + L.W_UNARMED] = 1
    F[1, L.P_SIDE] = 1  # row 0 side a, row 1 side b
    return F


def give_weapon(F: np.ndarray, i: int, slot: int, n: int, sides: int, bonus: int = 0, dtype: int = L.DT_CUTTING,
                pen: int = 0, dur: int = 0, parry: int = 0, two_handed: int = 0) -> None:
    b = L.P_WEAPONS + slot * L.WN
    F[i, b + L.W_PRESENT] = 1
    F[i, b + L.W_NDICE] = n
    F[i, b + L.W_SIDES] = sides
    F[i, b + L.W_BONUS] = bonus
    F[i, b + L.W_TYPE] = dtype
    F[i, b + L.W_PEN] = pen
    F[i, b + L.W_DUR] = dur
    F[i, b + L.W_PARRY_BONUS] = parry
    F[i, b + L.W_TWO_HANDED] = two_handed


def fresh_state(F: np.ndarray) -> np.ndarray:
    from brutal_sim.rulesets.brutal.kernel import reset

    S = np.zeros((F.shape[0], L.NS), dtype=np.int64)
    reset(F, S)
    return S


def default_options(**changes) -> np.ndarray:
    opts, _ = load_rules(None, {k: str(v) for k, v in changes.items()})
    return compile_options(opts)


def counters(round_cap: int = 100) -> np.ndarray:
    return np.zeros(L.n_counters(round_cap), dtype=np.int64)


def set_tactic(F: np.ndarray, i: int, text: str) -> None:
    """Give fighter ``i`` a bundled tactic (``"aimed:head"`` style) in place."""
    from brutal_sim.rulesets.brutal.compile import tactic_row

    tactic, zone = Catalog.bundled().tactic(text)
    tactic_row(F[i], tactic, zone)


def p_2d6_at_least(t: int) -> float:
    """P(2d6 ≥ t), by enumeration."""
    return sum(1 for x in range(1, 7) for y in range(1, 7) if x + y >= t) / 36


def within(exact: float, sampled: float, n: int) -> bool:
    """A sampled share agrees with its exact probability within 4 standard errors."""
    se = np.sqrt(max(exact * (1 - exact), 1e-12) / n)
    return abs(exact - sampled) <= 4 * se + 1e-12


def assert_exact_matches_sampled(ex, sa, n: int) -> None:
    """An exact single-attack enumeration and ``n`` sampled attacks agree (4σ): every attack
    outcome and every wound level × zone group."""
    assert ex.outcomes.sum() == pytest.approx(1.0, abs=1e-12)
    for k in range(len(ex.outcomes)):
        assert within(ex.outcomes[k], sa.outcomes[k], n), (k, ex.outcomes, sa.outcomes)
    for lv in range(ex.levels.shape[0]):
        for z in range(ex.levels.shape[1]):
            assert within(ex.levels[lv, z], sa.levels[lv, z], n), (lv, z, ex.levels, sa.levels)
