"""Shared helpers of the Vereteno tests at a distance: fighters from the catalog or inline data,
prepared matchups, and the opened state of a duel."""

from __future__ import annotations

from typing import Any

import numpy as np

from brutal_sim.rulesets.vereteno import RULESET, layout as L
from brutal_sim.rulesets.vereteno.catalog import Catalog
from brutal_sim.rulesets.vereteno.kernel import open_duel


def fighter(name: str | None = None, **data: Any):
    """A bundled fighter with changes, or one from inline data (attributes 3/3/2/2 unless given)."""
    if name is not None:
        base = RULESET.fighter_data(Catalog.bundled().fighter(name))
        base.update(data)
        return RULESET.fighter_from_data(base, "test", name)
    data.setdefault("attributes", {"physique": 3, "agility": 3, "intellect": 2, "empathy": 2})
    return Catalog.bundled().fighter_from_data(data, "test", "test fighter")


def prepared(a: Any, b: Any, **options: str):
    return RULESET.prepare(a, b, options=options or None)


def opened(p, d: int | None = None) -> np.ndarray:
    """The state of a fresh duel of ``p`` as it opens (V-10.6), the sides ``d`` metres apart if given."""
    S = np.zeros((2, L.NS), dtype=np.int64)
    open_duel(p.compiled.fighters, S, p.compiled.options)
    if d is not None:
        S[0, L.S_X], S[1, L.S_X] = 0, d
    return S
