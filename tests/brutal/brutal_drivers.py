"""Brutal's drivers on the kernel set the ruleset plays hand-made arrays with
(:func:`brutal_sim.rulesets.brutal.kernel_set`), named for what they play, for the rule tests that
run the kernel directly: each takes ``(F, opts, zt, seed, start, n, lanes, k)`` (``Fs``, ``optss``
for the paired ones) as the bound drivers of :class:`~brutal_sim.core.ruleset.Kernels` do."""

from __future__ import annotations

import numpy as np

from brutal_sim.core.ruleset import Kernels
from brutal_sim.rulesets.brutal import KERNELS, kernel_set


def _kernels(Fs: np.ndarray, optss: np.ndarray, group: bool) -> Kernels:
    variant = kernel_set(Fs[0], optss[0], group)
    for F, opts in zip(Fs[1:], optss[1:]):
        variant = variant | kernel_set(F, opts, group)
    return KERNELS.playing(variant)


def run_duels(F, opts, zt, *rest):
    return _kernels([F], [opts], False).duels(F, opts, zt, *rest)


def run_attacks(F, opts, zt, *rest):
    return _kernels([F], [opts], False).attacks(F, opts, zt, *rest)


def run_fights(F, opts, zt, *rest):
    return _kernels([F], [opts], True).duels(F, opts, zt, *rest)


def run_paired(Fs, optss, zt, *rest):
    return _kernels(Fs, optss, False).paired(Fs, optss, zt, *rest)


def run_paired_fights(Fs, optss, zt, *rest):
    return _kernels(Fs, optss, True).paired(Fs, optss, zt, *rest)
