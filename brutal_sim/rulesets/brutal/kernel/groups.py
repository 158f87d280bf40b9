"""Group fights (B-4.7, docs/groups.md): Brutal's words for the shared choice of a foe
(:func:`brutal_sim.toolbox.battle.choose_foe`).

Rules: B-4.7, B-9.8.

Arguments are those of the kernel package (:mod:`brutal_sim.rulesets.brutal.kernel`).
"""

from __future__ import annotations

from ....toolbox.battle import choose_foe
from ....toolbox.jit import rule
from ..layout import CAUSE_FLED, S_TRACK, S_WEAKNESS
from ..options import O_ATTACK_LIMIT, O_FINISH_HELPLESS


@rule
def _marks(track):
    """The marked cells of a wound track."""
    marks = 0
    while track:
        marks += track & 1
        track >>= 1
    return marks


@rule
def _choose_foe(F, S, opts, st, i):
    """docs/groups.md: i chooses its foe among the enemies with room for it below the attack limit
    (B-4.7) by its targeting policy; ``weakest`` prefers the most marked cells on the wound track
    (``S_WEAKNESS``, counted here for every fighter: the choice is made only in group fights, so
    duels never count them). With ``finish_helpless`` (B-9.8) it keeps a helpless
    foe (unconscious: out by any cause but fleeing, and not dead) until it is dead, and with no
    standing candidate takes the nearest helpless enemy with room."""
    for j in range(F.shape[0]):
        S[j, S_WEAKNESS] = _marks(S[j, S_TRACK])
    choose_foe(F, S, st, i, opts[O_ATTACK_LIMIT], opts[O_FINISH_HELPLESS] != 0, CAUSE_FLED)
