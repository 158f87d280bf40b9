"""Actions and tactics (W-3, W-8): what a fighter's tactic does with its half actions, the feint's
opposed test, fleeing.

Rules: W-1.4, W-1.6, W-3.3, W-3.4, W-3.5, W-3.6, W-3.7, W-3.8, W-3.9, W-3.16, W-8.1, W-8.6, W-8.8,
W-11.4.

Arguments are those of the kernel package (:mod:`brutal_sim.rulesets.wfrp2e.kernel`).
"""

from __future__ import annotations

from ....toolbox.battle import put_out
from ....toolbox.jit import rule
from ..layout import (
    CAUSE_FLED, G_ENGAGED, P_A, P_TACTIC, P_WS, REACT_PARRY, SLOT_OFF, S_CAUTIOUS, S_DEF_STANCE, S_NO_REACT,
    S_OUT, S_PARRY_STANCE, S_PEN_WS, T_BERSERK, T_CAUTIOUS, T_FEINTER, T_SWIFT, T_TURTLE,
)
from ..options import O_DEFENSIVE_STANCE, O_FLEE_OUTCOME, O_LEAVE_MELEE
from .tests import _capped, _opposed
from .weapons import _held
from .reactions import _availability
from .movement import _close, _move_yards, _retreat
from .attack import _attack


@rule
def _plan(F, S, opts, i, halves):
    """W-3, W-8: what i's tactic does with ``halves`` half actions; sets its stances.

    Returns (attacks, modifier, feint): the number of attacks, their WS modifier and whether a
    feint (W-3.9) comes first. Not engaged (W-11.3): it closes in (:func:`_close`: a move and an
    attack, a charge with one attack at +10, or a run; W-3.3, W-8.8, W-8.12). guarded: aim + attack with an off-hand item, else attack + parry stance (W-8.1);
    swift: A attacks when A ≥ 2 (W-3.8); berserk: all-out +20, no reactions (W-3.4); cautious: −10,
    +10 to reactions (W-3.5); turtle: defensive stance + parry stance, the defensive stance alone
    when it is a full action (W-3.6, W-3.7); feinter: feint + attack when the foe could parry and
    WS ≥ the foe's (W-8.6), else guarded. One half action left: a standard attack (turtle: a stance).
    """
    t = F[i, P_TACTIC]
    if S[2, G_ENGAGED] == 0 and t != T_TURTLE:
        attacks, mod = _close(F, S, opts, i, halves)
        return attacks, mod, False
    if t == T_TURTLE:
        if opts[O_DEFENSIVE_STANCE] != 0:
            if halves == 2:
                S[i, S_DEF_STANCE] = 1
            else:
                S[i, S_PARRY_STANCE] = 1
        else:
            S[i, S_DEF_STANCE] = 1
            if halves == 2:
                S[i, S_PARRY_STANCE] = 1
        return 0, 0, False
    if halves < 2:
        return 1, 0, False
    if t == T_SWIFT and F[i, P_A] >= 2:
        return F[i, P_A], 0, False
    if t == T_BERSERK:
        S[i, S_NO_REACT] = 1
        return 1, 20, False
    if t == T_CAUTIOUS:
        S[i, S_CAUTIOUS] = 1
        return 1, -10, False
    e = 1 - i
    if t == T_FEINTER and F[i, P_WS] >= F[e, P_WS] and _availability(F, S, opts, e, REACT_PARRY) == 1:
        return 1, 0, True
    if _held(F, S, i, SLOT_OFF):
        return 1, 10, False
    S[i, S_PARRY_STANCE] = 1
    return 1, 0, False


@rule
def _plan_aims(F, S, i):
    """Whether i's plan with two half actions, engaged and without a feint, aims already (W-8.1:
    guarded with an off-hand item; feinter and swift with A 1 fall back to guarded)."""
    t = F[i, P_TACTIC]
    if t == T_BERSERK or t == T_CAUTIOUS or t == T_TURTLE or (t == T_SWIFT and F[i, P_A] >= 2):
        return False
    return _held(F, S, i, SLOT_OFF)


@rule
def _feint_targets(F, S, opts, i):
    """W-3.9: the targets of the feint's opposed WS test (W-1.4): i's and its foe's WS with their
    critical-effect penalties (capped, W-1.6)."""
    e = 1 - i
    return F[i, P_WS] + _capped(opts, -S[i, S_PEN_WS]), F[e, P_WS] + _capped(opts, -S[e, S_PEN_WS])


@rule
def _feint(F, S, opts, st, i):
    """W-3.9: the opposed WS test of a feint. True if i wins."""
    t_init, t_def = _feint_targets(F, S, opts, i)
    return _opposed(opts, st, t_init, t_def)


@rule
def _flee(F, S, opts, grid, fx, st, cnt, i):
    """W-3.16, W-11.4: i flees (a full action). Engaged, with ``leave_melee = seed`` its foe first
    gets a free standard attack (``rulebook``: it disengages, no free attack). If still in the fight
    it is out (fled) with ``flee_outcome = out``, or with ``reposition`` moves 2·M yards away from
    its foe (W-11.2 Flee; halved in difficult terrain; within the arena, W-11.5) and stays in."""
    if S[2, G_ENGAGED] != 0 and opts[O_LEAVE_MELEE] == 0:
        _attack(F, S, opts, grid, fx, st, cnt, 1 - i, 0, False)
    if opts[O_FLEE_OUTCOME] == 0:
        put_out(F, S, i, CAUSE_FLED)
    elif S[i, S_OUT] == 0:
        _retreat(F, S, opts, i, _move_yards(F, opts, i))
