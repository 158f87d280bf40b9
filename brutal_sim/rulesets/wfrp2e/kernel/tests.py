"""Tests (W-1): the d100 test and its automatic results, the cap on a test's modifiers, degrees
of success, the opposed test; a failed test rerolled with a fortune point.

Rules: W-1.1, W-1.2, W-1.4, W-1.5, W-1.6, W-6.5.

Arguments are those of the kernel package (:mod:`brutal_sim.rulesets.wfrp2e.kernel`).
"""

from __future__ import annotations

from ....toolbox.jit import rule
from ....toolbox.rng import roll_die
from ..layout import S_FORTUNE
from ..options import (
    AUTO_RESULTS_01_05_96_00,
    NO_MODIFIER_CAP,
    O_AUTO_RESULTS,
    O_MODIFIER_CAP,
    O_OPPOSED,
    OPPOSED_BOTH_FAIL_REROLL,
    OPPOSED_DEFENDER_WINS_TIES,
)


@rule
def _succeeds(opts, roll, target):
    """W-1.1, W-1.5: whether a d100 ``roll`` (1..100) passes ``target`` (int64s). bool."""
    if opts[O_AUTO_RESULTS] == AUTO_RESULTS_01_05_96_00:
        if roll <= 5:
            return True
        if roll >= 96:
            return False
    return roll <= target


@rule
def _capped(opts, mod):
    """W-1.6: the sum of a test's modifiers, limited to ±``modifier_cap`` when that is set."""
    cap = opts[O_MODIFIER_CAP]
    if cap != NO_MODIFIER_CAP:
        if mod > cap:
            return cap
        if mod < -cap:
            return -cap
    return mod


@rule
def _degrees(target, roll):
    """W-1.2: degrees of success or failure, floor(|target − roll| / 10)."""
    return abs(target - roll) // 10


@rule
def _test(S, opts, st, i, target, may_reroll):
    """A d100 test of fighter i (W-1.1); a failure is rerolled with a fortune point when
    ``may_reroll`` (W-6.5, at most one per test). Returns (success, the deciding roll)."""
    roll = roll_die(st, 100)
    ok = _succeeds(opts, roll, target)
    if not ok and may_reroll:
        S[i, S_FORTUNE] -= 1
        roll = roll_die(st, 100)
        ok = _succeeds(opts, roll, target)
    return ok, roll


@rule
def _opposed_result(opts, ri, rd, t_init, t_def):
    """W-1.4: the result of one round of an opposed test with rolls ``ri`` (initiator, target
    ``t_init``) and ``rd`` (defender): 1 the initiator wins, 0 it does not, −1 roll again.

    Option ``opposed``: official_like (success beats failure; more degrees of success win; equal
    degrees: the higher target, else again; two failures: nobody wins), both_fail_reroll (two
    failures: again), defender_wins_ties (equal degrees of success: the defender).
    """
    si = _succeeds(opts, ri, t_init)
    sd = _succeeds(opts, rd, t_def)
    if si != sd:
        return 1 if si else 0
    if si:
        di = _degrees(t_init, ri)
        dd = _degrees(t_def, rd)
        if di != dd:
            return 1 if di > dd else 0
        if opts[O_OPPOSED] == OPPOSED_DEFENDER_WINS_TIES:
            return 0
        if t_init != t_def:
            return 1 if t_init > t_def else 0
        return -1
    return -1 if opts[O_OPPOSED] == OPPOSED_BOTH_FAIL_REROLL else 0


@rule
def _opposed(opts, st, t_init, t_def):
    """W-1.4: an opposed test; True if the initiator wins. Draws: d100 initiator, d100 defender,
    again while :func:`_opposed_result` says so."""
    while True:
        ri = roll_die(st, 100)
        rd = roll_die(st, 100)
        r = _opposed_result(opts, ri, rd, t_init, t_def)
        if r >= 0:
            return r == 1
