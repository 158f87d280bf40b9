"""Trigger numba compilation (or the load from its on-disk cache) of the kernels up front."""

from __future__ import annotations

import numpy as np

from . import layout as L
from .compile import compile_options
from .options import RuleOptions


def _dummy() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    F = np.zeros((2, L.NF), dtype=np.int64)
    F[:, L.P_NCELLS] = 4
    F[:, L.P_DL0:L.P_DL0 + 4] = (3, 6, 9, 15)
    fists = L.P_WEAPONS + L.SLOT_FISTS * L.WN
    F[:, fists + L.W_PRESENT] = 1
    F[:, fists + L.W_NDICE] = 1
    F[:, fists + L.W_SIDES] = 4
    F[:, fists + L.W_UNARMED] = 1
    zt = np.zeros(20, dtype=np.int8)
    return F, compile_options(RuleOptions()), zt


def warm_up(kind: str = "duel") -> None:
    """Compile the kernels of ``kind`` (``duel`` or ``attack``) by running them on a tiny input."""
    from .kernel import _run_attacks, _run_duels

    F, opts, zt = _dummy()
    k = L.n_counters(int(opts[L.O_ROUND_CAP]))
    if kind == "duel":
        _run_duels(F, opts, zt, np.uint64(0), np.int64(0), np.int64(1), 1, k)
    else:
        from .exact import _enumerate_attack

        _run_attacks(F, opts, zt, np.uint64(0), np.int64(0), np.int64(1), 1, k)
        _enumerate_attack(F, opts, zt, np.zeros(5), np.zeros((6, 4)), np.zeros(1))
