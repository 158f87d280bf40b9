"""Fights of several a side (W-13, W-8.15, docs/groups.md): WFRP 2e's words for the shared choice of
a foe (:func:`brutal_sim.toolbox.battle.choose_foe`).

Rules: W-13.5, W-8.15, W-13.7.

Arguments are those of the kernel package (:mod:`brutal_sim.rulesets.wfrp2e.kernel`).
"""

from __future__ import annotations

from ....core.battle import B_WEAKNESS
from ....toolbox.battle import choose_foe, decided, foe
from ....toolbox.jit import rule
from ..layout import CAUSE_FLED, S_OUT, S_W
from ..options import O_MAX_ENGAGED
from .movement import _settle

#: the highest weakness the shared policies read (``core.battle.B_WEAKNESS`` is below 128)
_WEAKEST = 127


@rule
def _choose_foe(F, S, opts, i):
    """W-8.15, W-13.5: i chooses its foe among the enemies in the fight with room for it (fewer
    other engagers than ``max_engaged``) by its targeting policy; ``weakest`` prefers the fewest
    Wounds left (``B_WEAKNESS`` = 127 − Wounds, counted here for every fighter: the choice is made
    only in fights of more than two). Engagement follows the new foe (:func:`_settle`, W-11.3)."""
    for j in range(F.shape[0]):
        S[j, B_WEAKNESS] = _WEAKEST - min(S[j, S_W], _WEAKEST)
    choose_foe(F, S, i, opts[O_MAX_ENGAGED], False, CAUSE_FLED)
    _settle(S)


@rule
def _lost_foe(F, S, opts, i):
    """Whether i's turn stops acting on its foe (bool): the fight is decided, i is out, or its foe
    went out and no other enemy with room is left (in a fight of several, i chooses its next foe at
    once, :func:`_choose_foe`). In a duel this is ``decided``: a fighter or its foe out ends it."""
    if decided(S):
        return True
    if S[i, S_OUT] != 0:
        return True
    e = foe(S, i)
    if e >= 0 and S[e, S_OUT] == 0:
        return False
    _choose_foe(F, S, opts, i)
    return foe(S, i) < 0
