"""Exact distribution of one toy attack, from the kernel's own rule functions (:func:`.kernel.hits`,
:func:`.kernel.hit_damage`, :func:`.kernel.blow_level`), so enumeration and sampler cannot drift."""

from __future__ import annotations

from brutal_sim.toolbox.jit import driver

from .kernel import blow_level, hit_damage, hits
from .layout import OUT_HIT, OUT_MISS, P_HIT_POINTS


@driver
def enumerate_attack(F, opts, outcomes, levels, damage):
    """Add the exact outcome distribution of one attack by side a on a fresh side b.

    ``outcomes`` float64[2] (``OUT_*``), ``levels`` float64[3, 1] (``LVL_*`` × zone ``body``),
    ``damage`` float64[1] (mean damage per attack). Every pair of 2d6 rolls (36 × 36 equally
    likely die pairs) and every face of the damage d6.
    """
    p_hit = 0.0
    for x in range(36):
        for y in range(36):
            if hits(F, opts, 0, 1, x // 6 + x % 6 + 2, y // 6 + y % 6 + 2):
                p_hit += 1.0 / 1296.0
    outcomes[OUT_MISS] += 1.0 - p_hit
    outcomes[OUT_HIT] += p_hit
    for face in range(1, 7):
        dealt = hit_damage(F, 0, face)
        levels[blow_level(dealt, F[1, P_HIT_POINTS] - dealt), 0] += p_hit / 6.0
        damage[0] += dealt * p_hit / 6.0
