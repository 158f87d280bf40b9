"""Small builders for the WFRP 2e tests: inline fighters, compiled matchups, exact and sampled attacks."""

from __future__ import annotations

from typing import Any

import numpy as np

from brutal_sim import api
from brutal_sim.rulesets.wfrp2e import RULESET, layout as L
from brutal_sim.rulesets.wfrp2e.model import Fighter

BASE: dict[str, Any] = {"ws": 40, "s": 30, "t": 30, "ag": 30, "w": 12}


def fighter(**fields: Any) -> Fighter:
    """A plain fighter (WS 40, SB 3, TB 3, Ag 30, W 12, unarmed unless given) with ``fields`` changed."""
    return RULESET.fighter_from_data({**BASE, **fields}, "test fighter", fields.get("name", "test"))


def prepared(a: Any, b: Any, **options: Any):
    return RULESET.prepare(a, b, options={k: str(v) for k, v in options.items()})


def exact(a: Any, b: Any, **options: Any):
    """Exact single attack of a on b as a dict (``p_hit``, ``wound_level``, ``zone`` …)."""
    return api.attack(a, b, options={k: str(v) for k, v in options.items()}, ruleset="wfrp2e")


def state(p) -> np.ndarray:
    """A fresh duel state of a prepared matchup."""
    from brutal_sim.rulesets.wfrp2e.kernel import reset

    S = np.zeros((p.compiled.fighters.shape[0], L.NS), dtype=np.int64)
    reset(p.compiled.fighters, S, p.compiled.options)
    return S


def turn_outcomes(p, S, i: int, seed: int = 1) -> np.ndarray:
    """One turn of fighter i (the kernel's ``turn``) from state ``S`` with the random stream of
    ``(seed, 0)``: the outcome counts (``OUT_*``) of its attacks."""
    from brutal_sim.rulesets.wfrp2e.kernel import turn
    from brutal_sim.toolbox.rng import seed_duel

    cnt = np.zeros(p.compiled.n_counters, dtype=np.int64)
    st = np.empty(4, dtype=np.uint64)
    seed_duel(st, np.uint64(seed), 0)
    turn(p.compiled.fighters, S, p.compiled.options, *p.compiled.tables, st, cnt, i)
    return cnt[L.C_ATTACKS + i * L.N_OUTCOMES:L.C_ATTACKS + (i + 1) * L.N_OUTCOMES]


def within(exact_p: float, sampled: float, n: int, sigmas: float = 4.0) -> bool:
    se = np.sqrt(max(exact_p * (1 - exact_p), 1e-12) / n)
    return abs(exact_p - sampled) <= sigmas * se + 1e-12
