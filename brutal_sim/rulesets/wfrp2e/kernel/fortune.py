"""Fortune points (W-6.5, W-8.7): whether a fighter may spend one now, on the use its fortune
policy prefers or on another.

Rules: W-6.5, W-8.7.

Arguments are those of the kernel package (:mod:`brutal_sim.rulesets.wfrp2e.kernel`).
"""

from __future__ import annotations

from ....toolbox.jit import rule
from ..layout import S_FORTUNE
from ..options import FORTUNE_ATTACK_FIRST, FORTUNE_NEVER, KEEP_LAST_SPEND, O_FORTUNE, O_FORTUNE_KEEP_LAST


@rule
def _fortune_allows(opts, S, i, reaction):
    """W-6.5, W-8.7: whether i may spend a fortune point now on a reaction (``reaction`` true) or an
    attack. The preferred use may take the last point; the other keeps one in reserve unless
    ``fortune_keep_last = spend``."""
    policy = opts[O_FORTUNE]
    if policy == FORTUNE_NEVER:
        return False
    preferred = reaction if policy != FORTUNE_ATTACK_FIRST else not reaction
    return S[i, S_FORTUNE] >= (1 if preferred or opts[O_FORTUNE_KEEP_LAST] == KEEP_LAST_SPEND else 2)


@rule
def _fortune_spare(opts, S, i):
    """W-6.5, W-8.7: whether i may spend a fortune point on a use the policy never prefers (2d10
    initiative, an extra half action): one in reserve unless ``fortune_keep_last = spend``."""
    if opts[O_FORTUNE] == FORTUNE_NEVER:
        return False
    return S[i, S_FORTUNE] >= (1 if opts[O_FORTUNE_KEEP_LAST] == KEEP_LAST_SPEND else 2)
