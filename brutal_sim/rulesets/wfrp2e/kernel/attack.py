"""One melee attack (W-4): the to-hit target, the hit location, the damage roll with Ulric's Fury,
what TB and armour absorb, and the attack itself: to-hit test, reaction, damage.

Rules: W-1.6, W-3.6, W-3.9, W-4.1, W-4.2, W-4.7, W-4.8, W-4.9, W-4.10, W-4.11, W-4.12, W-6.1, W-6.2,
W-6.4, W-7.8, W-7.9, W-7.13, W-7.14, W-9.3, W-11.2, W-12.3, W-12.5.

Arguments are those of the kernel package (:mod:`brutal_sim.rulesets.wfrp2e.kernel`).
"""

from __future__ import annotations

import numpy as np

from ....toolbox.battle import fight_round, foe
from ....toolbox.jit import rule
from ....toolbox.rng import roll_die
from .. import layout
from ..layout import (
    C_ATTACKS,
    C_FURY,
    LOC_BODY,
    LOC_LLEG,
    LOC_RLEG,
    N_OUTCOMES,
    OUT_HIT,
    OUT_MISS,
    P_AMBIDEXTROUS,
    P_AP,
    P_MIGHTY_BLOW,
    P_MIGHTY_SHOT,
    P_SB,
    P_SIDE,
    P_STREET_FIGHTING,
    P_SURE_SHOT,
    P_TB,
    P_WS,
    S_DEF_STANCE,
    S_HELPLESS,
    S_PEN_WS,
    S_PRONE,
    S_RUNNING,
    S_STUN,
    SLOT_FISTS,
    SLOT_MISSILE,
    SLOT_OFF,
    W_ARMOUR_PIERCING,
    W_BALANCED,
    W_CHOPPA,
    W_DAMAGE,
    W_IMPACT,
    W_THROWN,
    W_UNARMED,
)
from ..options import (
    BALANCED_OFFHAND_TRUE,
    CHOPPA_PLUS1,
    COVER_LEGS,
    FURY_EACH,
    FURY_FIRST_ONLY,
    MIGHTY_BLOW_PLUS1,
    O_BALANCED_OFFHAND,
    O_CHOPPA,
    O_COVER,
    O_FURY_CONFIRM,
    O_OUTNUMBER,
    O_PRONE_BONUS,
    O_STREET_FIGHTING,
    O_STRIKE_MIGHTY_BLOW,
    O_SURE_SHOT_STACK,
    OUTNUMBER_NONE,
    STREET_FIGHTING_ON,
    SURE_SHOT_STACK_FALSE,
)
from .fortune import _fortune_allows
from .groups import _outnumbered
from .reactions import _in_grapple, _react
from .tests import _capped, _succeeds, _test
from .weapons import _attack_slot, _quality, _wf
from .wounds import LOCATION_ZONE, _take_damage

#: upper bound of each hit location's band of reversed to-hit rolls (W-4.2): ``int64[6]``
LOCATION_UPPER = np.array(layout.LOCATION_UPPER, dtype=np.int64)


@rule
def _attack_target(F, S, opts, a, slot, mod):
    """W-4.1: a's to-hit target with ``slot`` and the action modifier ``mod``.

    Adds: target stunned +20 (W-6.1), in a grapple +20 (W-12.3: a's attack comes from outside it),
    running +20 (W-11.2), prone +prone_bonus (W-6.4), in defensive stance −20 (W-3.6), off hand −20
    unless Balanced with ``balanced_offhand`` (W-4.10) or Ambidextrous (W-7.8), Street Fighting
    unarmed +10 (W-9.3 option), critical-effect WS penalties, an outnumbered target +10 or +20
    (W-13.4 ``outnumber``); the sum capped by W-1.6. int64.
    """
    d = foe(S, a)
    m = mod - S[a, S_PEN_WS]
    if S[d, S_STUN] > 0:
        m += 20
    if _in_grapple(S, d):
        m += 20
    if S[d, S_PRONE] > 0:
        m += opts[O_PRONE_BONUS]
    if S[d, S_DEF_STANCE] > 0:
        m -= 20
    if S[d, S_RUNNING] > 0:
        m += 20
    if (slot == SLOT_OFF
            and not (_wf(F, a, slot, W_BALANCED) != 0 and opts[O_BALANCED_OFFHAND] == BALANCED_OFFHAND_TRUE)
            and F[a, P_AMBIDEXTROUS] == 0):
        m -= 20
    if slot == SLOT_FISTS and F[a, P_STREET_FIGHTING] != 0 and opts[O_STREET_FIGHTING] == STREET_FIGHTING_ON:
        m += 10
    if opts[O_OUTNUMBER] != OUTNUMBER_NONE:  # W-13.4
        m += _outnumbered(F, S, opts, d)
    return F[a, P_WS] + _capped(opts, m)


@rule
def _location(roll):
    """W-4.2: hit location (``LOC_*``) of a to-hit roll by its reversed digits (100 = "00")."""
    rev = (roll % 10) * 10 + (roll // 10) % 10
    if rev == 0:
        rev = 100
    for loc in range(6):
        if rev <= LOCATION_UPPER[loc]:
            return loc
    return 5


@rule
def _covered(opts, loc):
    """W-7.9 ``cover = legs``: a shot's leg hit strikes the body (the nearest reachable location,
    seed 120)."""
    if opts[O_COVER] == COVER_LEGS and (loc == LOC_RLEG or loc == LOC_LLEG):
        return LOC_BODY
    return loc


@rule
def _damage_bonus(F, S, opts, a, slot):
    """W-4.7, W-4.9: what is added to the damage d10: SB + the weapon's modifier (unarmed −4),
    Strike Mighty Blow +1 and Street Fighting +1 unarmed when their options are on, a choppa +1 in
    round 1 with ``choppa = plus1_first_round`` (W-9.3). A missile weapon (W-7.1): its damage, flat,
    SB + it when thrown; Mighty Shot +1 (W-7.14)."""
    if slot >= SLOT_MISSILE:  # a missile slot (main or off hand)
        return (_wf(F, a, slot, W_DAMAGE) + (F[a, P_SB] if _wf(F, a, slot, W_THROWN) != 0 else 0)
                + F[a, P_MIGHTY_SHOT])
    bonus = F[a, P_SB] + _wf(F, a, slot, W_DAMAGE)
    if _wf(F, a, slot, W_CHOPPA) != 0 and opts[O_CHOPPA] == CHOPPA_PLUS1 and fight_round(S) <= 1:
        bonus += 1
    if F[a, P_MIGHTY_BLOW] != 0 and opts[O_STRIKE_MIGHTY_BLOW] == MIGHTY_BLOW_PLUS1:
        bonus += 1
    if slot == SLOT_FISTS and F[a, P_STREET_FIGHTING] != 0 and opts[O_STREET_FIGHTING] == STREET_FIGHTING_ON:
        bonus += 1
    return bonus


@rule
def _absorbed(F, opts, a, d, slot, loc):
    """W-4.8: what d's TB and AP on ``loc`` take off a's damage: AP ×2 against unarmed (W-4.9),
    −1 AP (not below 0) for Armour Piercing (W-4.12); a shot of a Sure Shot talent −1 AP more (not
    below 0), or none more after Armour Piercing with ``sure_shot_stack = false`` (W-7.13)."""
    ap = F[d, P_AP + LOCATION_ZONE[loc]]
    if _wf(F, a, slot, W_UNARMED) != 0:
        ap *= 2
    pierced = _wf(F, a, slot, W_ARMOUR_PIERCING) != 0 and ap > 0
    if pierced:
        ap -= 1
    if (slot >= SLOT_MISSILE and F[a, P_SURE_SHOT] != 0 and ap > 0
            and not (pierced and opts[O_SURE_SHOT_STACK] == SURE_SHOT_STACK_FALSE)):
        ap -= 1
    return F[d, P_TB] + ap


@rule
def _fury_needs_test(opts, extra):
    """W-4.11: whether the Fury die number ``extra`` (0 the first) needs a to-hit test first."""
    mode = opts[O_FURY_CONFIRM]
    return mode == FURY_EACH or (mode == FURY_FIRST_ONLY and extra == 0)


@rule
def _fury_dice(opts, st, target, confirm):
    """W-4.11: Ulric's Fury after a damage die of 10: a d10 added while the last die shows 10, each
    after a to-hit test against ``target`` as ``fury_confirm`` asks when ``confirm`` (a failed test
    stops the chain); without ``confirm`` no test (a helpless target, W-6.2; a grappler's hurt with
    ``grapple_fury = auto``, W-12.5). Returns (the added dice's sum, their number)."""
    total = 0
    extra = 0
    die = 10
    while die == 10:
        if confirm and _fury_needs_test(opts, extra) and not _succeeds(opts, roll_die(st, 100), target):
            break
        die = roll_die(st, 10)
        total += die
        extra += 1
    return total, extra


@rule
def _damage_roll(F, S, opts, st, a, slot, target, helpless):
    """W-4.7, W-4.11, W-4.12, W-6.2: the damage before absorption and the number of Fury dice added.

    d10 (Impact: 2d10, the higher kept) + :func:`_damage_bonus`, + d10 against a ``helpless``
    target (W-6.2); while the kept or added die shows 10, Ulric's Fury adds a d10, each after a
    to-hit test against ``target`` as ``fury_confirm`` asks (against a helpless target the to-hit
    is automatic: no test; :func:`_fury_dice`).
    """
    die = roll_die(st, 10)
    if _quality(F, S, opts, a, slot, W_IMPACT):
        second = roll_die(st, 10)
        if second > die:
            die = second
    total = die + _damage_bonus(F, S, opts, a, slot)
    if helpless:
        total += roll_die(st, 10)
    extra = 0
    if die == 10:
        added, extra = _fury_dice(opts, st, target, not helpless)
        total += added
    return total, extra


@rule
def _strike(F, S, opts, grid, fx, st, cnt, a, d, slot, roll, target, helpless):
    """W-4.2 – W-4.12, W-5: a's hit on d with ``slot`` (to-hit ``roll``, its ``target`` for Fury
    confirmations): location, damage roll with Fury (counted), TB and AP, the damage taken."""
    loc = _location(roll)
    if slot >= SLOT_MISSILE:  # a missile slot (main or off hand)
        loc = _covered(opts, loc)
    raw, extra = _damage_roll(F, S, opts, st, a, slot, target, helpless)
    if extra > 0:
        cnt[C_FURY + F[a, P_SIDE]] += 1
    final = raw - _absorbed(F, opts, a, d, slot, loc)
    _take_damage(F, S, opts, grid, fx, st, cnt, a, d, slot, loc, final if final > 0 else 0)


@rule
def _attack(F, S, opts, grid, fx, st, cnt, a, mod, feinted):
    """W-4: one melee attack of a with action modifier ``mod``; after a won feint it cannot be
    parried or dodged (W-3.9); a helpless target is hit automatically, the d100 giving the location
    only, and takes +1d10 damage (W-6.2). Counts the outcome, the Fury and the hit."""
    d = foe(S, a)
    slot = _attack_slot(F, S, a)
    target = _attack_target(F, S, opts, a, slot, mod)
    out = C_ATTACKS + F[a, P_SIDE] * N_OUTCOMES  # the outcomes of side a's or side b's attacks
    helpless = S[d, S_HELPLESS] != 0
    if helpless:
        roll = roll_die(st, 100)
    else:
        ok, roll = _test(S, opts, st, a, target, _fortune_allows(opts, S, a, False))
        if not ok:
            cnt[out + OUT_MISS] += 1
            return
    outcome = OUT_HIT if feinted else _react(F, S, opts, st, d, a, slot)
    cnt[out + outcome] += 1
    if outcome != OUT_HIT:
        return
    _strike(F, S, opts, grid, fx, st, cnt, a, d, slot, roll, target, helpless)
