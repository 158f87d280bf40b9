"""Fights of several a side (V-14, docs/groups.md): Vereteno's words for the shared choice of a foe
(:func:`brutal_sim.toolbox.battle.choose_foe`) and the check that a turn has lost its foe.

Rules: V-14, V-6.1.

Arguments are those of the kernel package (:mod:`brutal_sim.rulesets.vereteno.kernel`).
"""

from __future__ import annotations

from ....core.battle import B_SHOOTER, B_WEAKNESS
from ....toolbox.battle import choose_foe, decided, foe
from ....toolbox.jit import inline_rule, rule
from ..layout import CAUSE_WILL, S_HEALTH, S_OUT, S_RELOAD, S_WILL
from ..options import FINISH_HELPLESS_ON, O_FINISH_HELPLESS, O_MELEE_CAP
from .checks import _gun_in_hand, _in_reach

#: the highest weakness the shared policies read (``core.battle.B_WEAKNESS`` is below 128)
_WEAKEST = 127


@rule
def _choose_foe(F, S, opts, st, i):
    """V-14: i chooses its foe among the enemies in the fight by its targeting policy, at most
    ``melee_cap`` fighting one enemy (V-14.7: 8 by default, more than a side has; every foe counts,
    at any distance, on the line **[reading]**); ``weakest`` and ``focus`` prefer the lowest of
    Health and Will left (``B_WEAKNESS`` = 127 − min(Health, Will), V-6.1: either at 0 puts a
    fighter out), ``shooters_first`` a foe with its gun in hand and no reload due (``B_SHOOTER``, V-11.14),
    ``random`` keeps its foe while it may, else draws one (a die). Counted here for every fighter:
    the choice is made only in fights of more than two. With ``finish_helpless = on`` (V-3.11) i
    keeps a foe that lies helpless (out, not dead, not by Will: V-6.6, V-5.3) until it is dead."""
    for j in range(F.shape[0]):
        left = max(min(min(S[j, S_HEALTH], S[j, S_WILL]), _WEAKEST), 0)
        S[j, B_WEAKNESS] = _WEAKEST - left
        S[j, B_SHOOTER] = 1 if _gun_in_hand(S, j) and S[j, S_RELOAD] == 0 else 0
    choose_foe(F, S, st, i, opts[O_MELEE_CAP], opts[O_FINISH_HELPLESS] == FINISH_HELPLESS_ON, CAUSE_WILL)


@rule
def _foe_gone(F, S, opts, st, i):
    """:func:`_lost_foe` in a fight of several that is not decided: i is out, or its foe is out and
    no other enemy is left in the fight (i chooses its next foe at once, :func:`_choose_foe`), or
    i keeps its helpless foe to finish it off next turn (``finish_helpless = on``, V-3.11)."""
    if S[i, S_OUT] != 0:
        return True
    e = foe(S, i)
    if e >= 0 and S[e, S_OUT] == 0:
        return False
    _choose_foe(F, S, opts, st, i)
    e = foe(S, i)
    return e < 0 or S[e, S_OUT] != 0


@inline_rule
def _lost_foe(F, S, opts, st, i):
    """Whether i's turn stops acting (bool): the fight is decided, or in a fight of several i is out
    or its foe went out and no other enemy is left (:func:`_foe_gone`; i turns to its next foe at
    once). In a duel this is ``decided``: a fighter or its foe out ends it."""
    if decided(S):
        return True
    return F.shape[0] > 2 and _foe_gone(F, S, opts, st, i)


@inline_rule
def _lost_melee_foe(F, S, opts, st, i, group):
    """:func:`_lost_foe` for i's melee actions: also when the next foe it turned to stands beyond
    its melee reach (V-3.15; it closes in next turn **[reading]**). In a duel (``group`` None, the
    drivers' flag: nothing more is compiled) and a fight of one a side: ``decided``."""
    if decided(S):
        return True
    if group is None:
        return False
    return F.shape[0] > 2 and (_foe_gone(F, S, opts, st, i) or not _in_reach(F, S, i))


@inline_rule
def _stops(S, i):
    """Whether i's turn stops after a step that cannot put its foe out (a move, a reload, a look, a
    sector shot fired at i): the fight is decided or i is out (bool). In a duel i out decides it."""
    return decided(S) or S[i, S_OUT] != 0
