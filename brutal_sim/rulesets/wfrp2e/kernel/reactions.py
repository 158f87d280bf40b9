"""Reactions (W-4.3 – W-4.6): the item a fighter parries with, its parry and dodge targets, whether
it may react and whether that costs a fortune point, its choice between parry and dodge, and the
reaction's test.

Rules: W-1.6, W-2.6, W-3.4, W-3.5, W-4.3, W-4.4, W-4.6, W-4.12, W-6.1, W-6.2, W-6.5, W-8.1, W-12.3, W-12.6.

Arguments are those of the kernel package (:mod:`brutal_sim.rulesets.wfrp2e.kernel`).
"""

from __future__ import annotations

from ....toolbox.jit import rule
from ..layout import (
    OUT_DODGED,
    OUT_HIT,
    OUT_PARRIED,
    P_DODGE,
    P_REACTION,
    P_WS,
    R_BEST,
    R_NONE,
    R_PARRY_FIRST,
    REACT_DODGE,
    REACT_NONE,
    REACT_PARRY,
    S_CAUTIOUS,
    S_DODGE_USED,
    S_FORTUNE,
    S_GRAPPLE,
    S_HELPLESS,
    S_NO_REACT,
    S_OUT,
    S_PARRY_STANCE,
    S_PARRY_USED,
    S_PEN_AG,
    S_PEN_WS,
    S_STUN,
    S_SURPRISED,
    SLOT_MAIN,
    SLOT_OFF,
    W_DEFENSIVE,
)
from ..options import EXTRA_REACTION_EXTRA_USE, O_FORTUNE_EXTRA_REACTION, O_PARRY_DODGE_CHOICE, PARRY_DODGE_PER_ROUND
from .fortune import _fortune_allows
from .tests import _capped, _test
from .weapons import _held, _speed_modifier, _wf


@rule
def _parry_slot(F, S, d):
    """The item d parries with: a held Defensive one first, off hand on ties; −1 without any (unarmed
    fighters cannot parry, a reading of W-4.3)."""
    best = -1
    for slot in (SLOT_OFF, SLOT_MAIN):
        if _held(F, S, d, slot):
            if best < 0 or (_wf(F, d, slot, W_DEFENSIVE) != 0 and _wf(F, d, best, W_DEFENSIVE) == 0):
                best = slot
    return best


@rule
def _parry_target(F, S, opts, d, a, a_slot):
    """W-4.3: d's parry target: WS, cautious attack +10 (W-3.5), Defensive item +10, the attacking
    weapon's Fast/Slow (W-4.12), critical-effect WS penalties; capped (W-1.6)."""
    m = _speed_modifier(F, S, opts, a, a_slot) - S[d, S_PEN_WS]
    if S[d, S_CAUTIOUS] > 0:
        m += 10
    if _wf(F, d, _parry_slot(F, S, d), W_DEFENSIVE) != 0:
        m += 10
    return F[d, P_WS] + _capped(opts, m)


@rule
def _dodge_target(F, S, opts, d, a, a_slot):
    """W-4.4: d's Dodge Blow target (armour Ag penalty already in), cautious +10, Fast/Slow,
    critical-effect Ag penalties; capped (W-1.6)."""
    m = _speed_modifier(F, S, opts, a, a_slot) - S[d, S_PEN_AG]
    if S[d, S_CAUTIOUS] > 0:
        m += 10
    return F[d, P_DODGE] + _capped(opts, m)


@rule
def _in_grapple(S, i):
    """W-12.3: whether i is in a grapple, grappling or held (``S_GRAPPLE``; cleared for both when it
    ends, W-12.6)."""
    return S[i, S_GRAPPLE] != 0


@rule
def _can_react(S, d):
    """W-6.1, W-3.4, W-2.6, W-6.2, W-12.3: stunned, all-out, surprised and helpless fighters and the
    two fighters of a grapple neither parry nor dodge."""
    return (S[d, S_OUT] == 0 and S[d, S_STUN] == 0 and S[d, S_NO_REACT] == 0 and S[d, S_SURPRISED] == 0
            and S[d, S_HELPLESS] == 0 and not _in_grapple(S, d))


@rule
def _availability(F, S, opts, d, kind):
    """Whether d can parry (``kind`` REACT_PARRY) or dodge now: 0 no, 1 yes, 2 only by spending a
    fortune point on an extra use beyond the once-per-round limits (W-6.5 ``extra_use``).

    Parry needs an item and a parry stance or an off-hand item (free parry, W-4.3); dodge needs
    Dodge Blow (W-4.4). Each once per round; with ``parry_dodge_choice = per_round`` one excludes
    the other for the round (W-4.6).
    """
    if not _can_react(S, d):
        return 0
    if kind == REACT_PARRY:
        if _parry_slot(F, S, d) < 0 or (S[d, S_PARRY_STANCE] == 0 and not _held(F, S, d, SLOT_OFF)):
            return 0
        used = S[d, S_PARRY_USED] != 0 or (opts[O_PARRY_DODGE_CHOICE] == PARRY_DODGE_PER_ROUND
                                           and S[d, S_DODGE_USED] != 0)
    else:
        if F[d, P_DODGE] < 0:
            return 0
        used = S[d, S_DODGE_USED] != 0 or (opts[O_PARRY_DODGE_CHOICE] == PARRY_DODGE_PER_ROUND
                                           and S[d, S_PARRY_USED] != 0)
    if not used:
        return 1
    if opts[O_FORTUNE_EXTRA_REACTION] == EXTRA_REACTION_EXTRA_USE and _fortune_allows(opts, S, d, True):
        return 2
    return 0


@rule
def _choose_reaction(F, S, opts, d, a, a_slot):
    """W-4.6, W-8.1: d's reaction to a hit: (REACT_*, paid by a fortune point).

    ``dodge_first`` (W-8.1) / ``parry_first`` take their first choice when available, free uses
    before paid ones; ``best`` the higher target (parry on ties); ``none`` never reacts.
    """
    r = F[d, P_REACTION]
    if r == R_NONE:
        return REACT_NONE, False
    p = _availability(F, S, opts, d, REACT_PARRY)
    g = _availability(F, S, opts, d, REACT_DODGE)
    for cost in (1, 2):
        can_p = p == cost
        can_g = g == cost
        if can_p and can_g:
            if r == R_PARRY_FIRST:
                return REACT_PARRY, cost == 2
            if r == R_BEST and _parry_target(F, S, opts, d, a, a_slot) >= _dodge_target(F, S, opts, d, a, a_slot):
                return REACT_PARRY, cost == 2
            return REACT_DODGE, cost == 2
        if can_p:
            return REACT_PARRY, cost == 2
        if can_g:
            return REACT_DODGE, cost == 2
    return REACT_NONE, False


@rule
def _react(F, S, opts, st, d, a, a_slot):
    """W-4.3 – W-4.6: d's parry or dodge against a's hit; a failed test is rerolled with a fortune
    point unless the reaction itself was bought with one (W-6.5). Returns the outcome (``OUT_*``)."""
    kind, paid = _choose_reaction(F, S, opts, d, a, a_slot)
    if kind == REACT_NONE:
        return OUT_HIT
    if paid:
        S[d, S_FORTUNE] -= 1
    if kind == REACT_PARRY:
        S[d, S_PARRY_USED] = 1
        S[d, S_PARRY_STANCE] = 0  # the stance's one parry is spent
        target = _parry_target(F, S, opts, d, a, a_slot)
    else:
        S[d, S_DODGE_USED] = 1
        target = _dodge_target(F, S, opts, d, a, a_slot)
    # W-6.5: at most one fortune point per test — a bought reaction is not rerolled
    ok, _ = _test(S, opts, st, d, target, not paid and _fortune_allows(opts, S, d, True))
    if ok:
        return OUT_PARRIED if kind == REACT_PARRY else OUT_DODGED
    return OUT_HIT
