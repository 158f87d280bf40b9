"""Weapons: the fields of a fighter's weapon slots, the items in hand and the one an attack uses,
the qualities as they count in this round (Tiring, the choppa), the attacking weapon's Fast and Slow
against a parry or dodge.

Rules: W-4.9, W-4.10, W-4.12, W-9.3.

Arguments are those of the kernel package (:mod:`brutal_sim.rulesets.wfrp2e.kernel`).
"""

from __future__ import annotations

from ....toolbox.battle import fight_round
from ....toolbox.jit import rule
from ..layout import (
    P_WEAPONS,
    S_HELD_MAIN,
    SLOT_FISTS,
    SLOT_MAIN,
    SLOT_OFF,
    W_CHOPPA,
    W_FAST,
    W_IMPACT,
    W_PRESENT,
    W_SLOW,
    W_TIRING,
    WN,
)
from ..options import CHOPPA_IMPACT, O_CHOPPA, O_TIRING, TIRING_IGNORE


@rule
def _wf(F, i, slot, field):
    """Field ``field`` (``W_*``) of i's weapon in ``slot``."""
    return F[i, P_WEAPONS + slot * WN + field]


@rule
def _held(F, S, i, slot):
    """Whether i holds a weapon in ``slot`` (fists: always)."""
    if slot == SLOT_FISTS:
        return True
    return _wf(F, i, slot, W_PRESENT) != 0 and S[i, S_HELD_MAIN + slot] != 0


@rule
def _attack_slot(F, S, i):
    """The item i attacks with: main hand, else the off-hand item (W-4.10), else unarmed (W-4.9)."""
    if _held(F, S, i, SLOT_MAIN):
        return SLOT_MAIN
    if _held(F, S, i, SLOT_OFF):
        return SLOT_OFF
    return SLOT_FISTS


@rule
def _quality(F, S, opts, i, slot, field):
    """Whether i's weapon has quality ``field``; a Tiring weapon's Impact and Fast count only in
    round 1 unless ``tiring = ignore`` (W-4.12); a choppa has Impact in round 1 with
    ``choppa = impact_first_round`` (W-9.3)."""
    if (field == W_IMPACT and opts[O_CHOPPA] == CHOPPA_IMPACT and _wf(F, i, slot, W_CHOPPA) != 0
            and fight_round(S) <= 1):
        return True
    if _wf(F, i, slot, field) == 0:
        return False
    if (field == W_IMPACT or field == W_FAST) and _wf(F, i, slot, W_TIRING) != 0:
        return opts[O_TIRING] == TIRING_IGNORE or fight_round(S) <= 1
    return True


@rule
def _speed_modifier(F, S, opts, a, slot):
    """W-4.12: to parry or dodge an attack of a's ``slot``: Fast −10, Slow +10."""
    m = 0
    if _quality(F, S, opts, a, slot, W_FAST):
        m -= 10
    if _quality(F, S, opts, a, slot, W_SLOW):
        m += 10
    return m
