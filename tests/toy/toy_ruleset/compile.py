"""Validated toy fighters → the kernels' ``int64`` fighter rows (layout :mod:`.layout`)."""

from __future__ import annotations

import numpy as np

from . import layout as L
from .model import Fighter


def compile_fighter(f: Fighter) -> np.ndarray:
    """One fighter → ``int64[NF]``."""
    row = np.zeros(L.NF, dtype=np.int64)
    row[L.P_SKILL] = f.skill
    row[L.P_HIT_POINTS] = f.hit_points
    row[L.P_DAMAGE_BONUS] = f.weapon.damage_bonus
    return row


def compile_pair(a: Fighter, b: Fighter) -> np.ndarray:
    """Side a and side b → ``int64[2, NF]``."""
    return np.ascontiguousarray(np.stack([compile_fighter(a), compile_fighter(b)]))
