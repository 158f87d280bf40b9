"""Fights of several a side (W-13, W-8.15, docs/groups.md): WFRP 2e's words for the shared choice of
a foe (:func:`brutal_sim.toolbox.battle.choose_foe`).

Rules: W-13.4, W-13.5, W-13.6, W-8.15, W-13.7.

Arguments are those of the kernel package (:mod:`brutal_sim.rulesets.wfrp2e.kernel`).
"""

from __future__ import annotations

from ....core.battle import B_SHOOTER, B_TIER, B_WEAKNESS
from ....toolbox.battle import apart, choose_foe, decided, foe
from ....toolbox.jit import inline_rule, rule
from ..layout import (
    CAUSE_FLED,
    ENGAGE_DISTANCE,
    P_SIDE,
    S_AWAY,
    S_HELPLESS,
    S_LOADED,
    S_LOADED_OFF,
    S_MISSILE,
    S_OUT,
    S_W,
)
from ..options import (
    FINISH_HELPLESS_ON,
    HELPLESS_ATTACKABLE,
    O_FINISH_HELPLESS,
    O_HELPLESS,
    O_MAX_ENGAGED,
    O_OUTNUMBER,
    OUTNUMBER_NONE,
)
from .movement import _settle

#: the highest weakness the shared policies read (``core.battle.B_WEAKNESS`` is below 128)
_WEAKEST = 127


@rule
def _choose_foe(F, S, opts, st, i):
    """W-8.15, W-13.5, W-13.6: i chooses its foe among the enemies in the fight with room for it
    (fewer other engagers than ``max_engaged``) by its targeting policy; ``weakest`` prefers the
    fewest Wounds left (``B_WEAKNESS`` = 127 − Wounds, counted here for every fighter: the choice is
    made only in fights of more than two). With ``helpless = attackable`` a helpless enemy is
    chosen only when no other has room (``finish_helpless = off``) or before any other (``on``)
    (``B_TIER``). ``shooters_first`` prefers a foe holding a loaded missile weapon (``B_SHOOTER``),
    ``focus`` plays as ``weakest`` **[reading: on the line every enemy in the fight is within some
    member's reach or range]**, ``random`` keeps its foe while it may, else draws one (a die).
    Engagement follows the new foe (:func:`_settle`, W-11.3)."""
    attackable = opts[O_HELPLESS] == HELPLESS_ATTACKABLE
    tier = -1 if opts[O_FINISH_HELPLESS] == FINISH_HELPLESS_ON else 1
    for j in range(F.shape[0]):
        S[j, B_WEAKNESS] = _WEAKEST - min(S[j, S_W], _WEAKEST)
        S[j, B_TIER] = tier if attackable and S[j, S_HELPLESS] != 0 else 0
        S[j, B_SHOOTER] = 1 if S[j, S_MISSILE] != 0 and (S[j, S_LOADED] != 0 or S[j, S_LOADED_OFF] != 0) else 0
    choose_foe(F, S, st, i, opts[O_MAX_ENGAGED], False, CAUSE_FLED)
    _settle(S)


@rule
def _outnumbered(F, S, opts, d):
    """W-13.4 ``outnumber = table_6_2``: the WS bonus of a melee attack at d: its enemies in the
    fight engaged with it (whose foe it is, within 2 yards) against d and its allies engaged with
    those enemies (whose foe is one of them, within 2 yards): 3 to 1 or more +20, 2 to 1 or more
    +10, else 0; 0 with ``none``."""
    if opts[O_OUTNUMBER] == OUTNUMBER_NONE:
        return 0
    enemies = 0
    friends = 1
    for j in range(F.shape[0]):
        if S[j, S_OUT] != 0 or S[j, S_AWAY] != 0:
            continue
        e = foe(S, j)
        if e < 0 or apart(S, j, e) > ENGAGE_DISTANCE:
            continue
        if F[j, P_SIDE] != F[d, P_SIDE] and e == d:
            enemies += 1
        elif (F[j, P_SIDE] == F[d, P_SIDE] and j != d and S[e, S_OUT] == 0 and foe(S, e) == d
              and apart(S, e, d) <= ENGAGE_DISTANCE):
            friends += 1
    if enemies >= 3 * friends:
        return 20
    if enemies >= 2 * friends:
        return 10
    return 0


@inline_rule
def _lost_foe(F, S, opts, st, i):
    """Whether i's turn stops acting on its foe (bool): the fight is decided, i is out, or its foe
    went out and no other enemy with room is left (in a fight of several, i chooses its next foe at
    once, :func:`_choose_foe`). In a duel this is ``decided``: a fighter or its foe out ends it."""
    if decided(S):
        return True
    return F.shape[0] > 2 and _foe_gone(F, S, opts, st, i)


@rule
def _foe_gone(F, S, opts, st, i):
    """:func:`_lost_foe` in a fight of several that is not decided: i is out, or its foe is out and
    no other enemy with room is left (i chooses its next foe at once)."""
    if S[i, S_OUT] != 0:
        return True
    e = foe(S, i)
    if e >= 0 and S[e, S_OUT] == 0:
        return False
    _choose_foe(F, S, opts, st, i)
    return foe(S, i) < 0
