"""Validated toy fighters → the kernels' ``int64`` fighter rows (layout :mod:`.layout`): the battle
block (side, place in the line, targeting policy), then the toy's own columns."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from brutal_sim.core.battle import F_RANK, F_SIDE, F_TARGETING, TARGETING_CODES

from . import layout as L
from .model import Fighter


def compile_fighter(f: Fighter, side: int = 0, rank: int = 0) -> np.ndarray:
    """One fighter of ``side`` (0 a, 1 b) at place ``rank`` of its line → ``int64[NF]``."""
    row = np.zeros(L.NF, dtype=np.int64)
    row[F_SIDE] = side
    row[F_RANK] = rank
    row[F_TARGETING] = TARGETING_CODES[f.targeting]
    row[L.P_SKILL] = f.skill
    row[L.P_HIT_POINTS] = f.hit_points
    row[L.P_DAMAGE_BONUS] = f.weapon.damage_bonus
    row[L.P_SPEED] = f.speed
    row[L.P_RANGE] = f.weapon.range
    return row


def compile_sides(side_a: Sequence[Fighter], side_b: Sequence[Fighter]) -> np.ndarray:
    """Side a's fighters in line order, then side b's → ``int64[N, NF]``."""
    rows = [compile_fighter(f, side, rank) for side, fighters in enumerate((side_a, side_b))
            for rank, f in enumerate(fighters)]
    return np.ascontiguousarray(np.stack(rows))


def compile_pair(a: Fighter, b: Fighter) -> np.ndarray:
    """Side a and side b → ``int64[2, NF]``."""
    return compile_sides([a], [b])
