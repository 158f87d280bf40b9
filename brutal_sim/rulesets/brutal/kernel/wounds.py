"""Wounds and conditions (B-5–B-7): the wound level of a blow, the wound track, knock-outs, toughness
checks against wound effects, bleeding, stun and daze, dropped weapons, fatigue, fear.

Rules: B-2.8, B-5, B-5.1, B-5.2, B-5.3, B-5.4, B-6, B-6.2, B-6.4, B-6.6, B-6.7, B-7, B-7.1, B-7.2,
B-7.3, B-7.4, B-7.5, B-7.8, B-7.10, B-9.5, B-9.7.

Arguments are those of the kernel package (:mod:`brutal_sim.rulesets.brutal.kernel`).
"""

from __future__ import annotations

import numpy as np

from ....toolbox.battle import put_out
from ....toolbox.jit import inline_rule, loop_inline_rule, rule
from ....toolbox.rng import roll_2d6
from ..layout import (
    C_DAMAGE,
    C_WOUNDS,
    CAUSE_EXHAUSTED,
    CAUSE_KNOCKED_OUT,
    CAUSE_MORTAL,
    CAUSE_TRACK_FULL,
    DT_CUTTING,
    DT_FIRE,
    DT_SHOCK,
    HELD_STUCK,
    LVL_CRITICAL,
    LVL_HEAVY,
    LVL_LIGHT,
    LVL_LIGHT_DAMAGE,
    LVL_MORTAL,
    LVL_NONE,
    P_DL0,
    P_ENDURANCE,
    P_FEAR,
    P_NCELLS,
    P_SIDE,
    P_TOUGHNESS,
    P_WILLPOWER,
    S_BLEED,
    S_COMA,
    S_DAZE,
    S_DEAD,
    S_FATIGUE,
    S_FRIGHTENED,
    S_HARMED,
    S_HELD_MAIN,
    S_HELD_OFF,
    S_IN_TURN,
    S_NO_RUN,
    S_OUT,
    S_PERM_STUN,
    S_PRONE,
    S_STUN,
    S_TAKEN,
    S_TALLY,
    S_TOOK,
    S_TRACK,
    S_TURNS,
    SLOT_MAIN,
    W_TWO_HANDED,
    ZONE_LARM,
    ZONE_RARM,
)
from ..options import (
    EXERTION_AFTER_ENDURANCE,
    EXERTION_OFF,
    O_DAZED_PENALTY,
    O_EXERTION_FATIGUE,
)
from .checks import _fatigue_penalty, _set_fatigue, _set_track, _wb

ZONE_GROUP = np.array([0, 1, 2, 2, 3, 3], dtype=np.int64)


@rule
def _wound_level(F, d, damage):
    """B-5.1: the wound level (``LVL_*``) of one hit's final damage against d's damage levels."""
    if damage <= 0:
        return LVL_NONE
    for k in range(4):
        if damage <= F[d, P_DL0 + k]:
            return LVL_LIGHT_DAMAGE + k
    return LVL_MORTAL


@rule
def _wound_in_coma(S, d):
    """B-6.7: a wound on d in a coma kills it."""
    if S[d, S_COMA] != 0:
        S[d, S_DEAD] = 1


@loop_inline_rule
def _record(F, S, d, level):
    """B-6.2–B-6.4: mark a light/heavy/critical wound on d's track; a filled И is out (B-6.6). A
    wound with no cell left for it puts d in a coma, or kills it in a coma (B-6.7: only a helpless
    fighter finished in a group fight, B-9.8, takes one)."""
    n = F[d, P_NCELLS]
    track = S[d, S_TRACK]
    cell = -1
    if level == LVL_LIGHT:
        start = 0
    elif level == LVL_HEAVY:
        start = n - 3
    else:
        start = n - 2
    for c in range(start, n):
        if (track >> c) & 1 == 0:
            cell = c
            break
    if cell >= 0:
        _set_track(F, S, d, track | (1 << cell))
    else:  # B-6.7: no cell left for it (И is filled, so d is out): a coma; in a coma, death
        _wound_in_coma(S, d)
        S[d, S_COMA] = 1
    if (S[d, S_TRACK] >> (n - 1)) & 1:
        put_out(F, S, d, CAUSE_TRACK_FULL)


@rule
def _light_damage(F, S, d):
    """B-5.3: tally one light damage; past endurance it becomes a light wound."""
    S[d, S_TALLY] += 1
    if S[d, S_TALLY] > F[d, P_ENDURANCE]:
        S[d, S_TALLY] = 0
        _record(F, S, d, LVL_LIGHT)


@rule
def _passive_bonus(F, S, opts, d, check):
    """What d adds to the 2d6 of a passive check of ``F[d, check]`` (toughness against wound effects
    and a mortal wound, willpower against exhaustion): the bonus less fatigue (B-7.8); dazed −2 only
    with ``dazed_penalty`` all_checks (B-9.5: the dazed −2 is for checks of active actions, B-7.5)."""
    bonus = F[d, check] - _fatigue_penalty(F, S, d)
    if opts[O_DAZED_PENALTY] != 0 and S[d, S_DAZE] > 0:
        bonus -= 2
    return bonus


@rule
def _passive_check(F, S, opts, st, d, check, difficulty):
    """A passive check of ``F[d, check]`` (``_passive_bonus``) against ``difficulty``. One 2d6."""
    r1, r2 = roll_2d6(st)
    return r1 + r2 + _passive_bonus(F, S, opts, d, check) >= difficulty


@rule
def _toughness_check(F, S, opts, st, d, difficulty):
    """A `toughness` check against ``difficulty`` (B-5.4, B-7.1–7.3), passive (B-9.5)."""
    return _passive_check(F, S, opts, st, d, P_TOUGHNESS, difficulty)


@rule
def _gain_fatigue(F, S, opts, st, d, levels):
    """B-7.8: d gains ``levels`` fatigue levels, one at a time. Each level beyond endurance (a level
    of exhaustion) calls for a hard (12) willpower check (one 2d6, with the new level's penalty) or
    d falls unconscious; beyond three times endurance d dies of exhaustion. Either is out
    (``CAUSE_EXHAUSTED``)."""
    end = F[d, P_ENDURANCE]
    for _ in range(levels):
        if S[d, S_OUT] != 0:
            return
        _set_fatigue(F, S, d, S[d, S_FATIGUE] + 1)
        if S[d, S_FATIGUE] > 3 * end:
            S[d, S_DEAD] = 1
            put_out(F, S, d, CAUSE_EXHAUSTED)
        elif S[d, S_FATIGUE] > end and not _passive_check(F, S, opts, st, d, P_WILLPOWER, 12):
            put_out(F, S, d, CAUSE_EXHAUSTED)


@rule
def _until_end_of_next_turn(S, d, field):
    """Set a condition lasting until the end of d's next turn (B-2.8)."""
    turns = 2 if S[d, S_IN_TURN] > 0 else 1
    if S[d, field] < turns:
        S[d, field] = turns


@rule
def _let_go(S, d, field):
    """The item of hand ``field`` (``S_HELD_*``) drops, unless it is stuck (B-9.7: it stays stuck)."""
    if S[d, field] != HELD_STUCK:
        S[d, field] = 0


@rule
def _drop(F, S, d, zone):
    """An arm wound drops what that hand holds; a two-handed weapon from either arm (B-7.1); a stuck
    weapon stays stuck (B-9.7)."""
    if zone == ZONE_RARM:
        _let_go(S, d, S_HELD_MAIN)
    elif zone == ZONE_LARM:
        if F[d, _wb(SLOT_MAIN) + W_TWO_HANDED] > 0:
            _let_go(S, d, S_HELD_MAIN)
        else:
            _let_go(S, d, S_HELD_OFF)


@inline_rule
def _wound_effects(F, S, opts, st, d, level, zone):
    """B-7.1–B-7.3: immediate effects of a light/heavy/critical wound by zone.

    The toughness check (if any) is rolled first, on the state before this wound's effects.
    """
    group = ZONE_GROUP[zone]  # 0 head, 1 torso, 2 arm, 3 leg
    if level == LVL_LIGHT:
        if _toughness_check(F, S, opts, st, d, 8):
            return
        if group == 2:
            _drop(F, S, d, zone)
        elif group == 3:
            S[d, S_PRONE] = 1
        elif group == 1:
            _until_end_of_next_turn(S, d, S_STUN)
        else:
            _until_end_of_next_turn(S, d, S_DAZE)
        return
    if level == LVL_HEAVY:
        ok = _toughness_check(F, S, opts, st, d, 12)
        if group == 2:
            _drop(F, S, d, zone)
            if not ok:
                _until_end_of_next_turn(S, d, S_STUN)
        elif group == 3:
            S[d, S_PRONE] = 1
            if not ok:
                _until_end_of_next_turn(S, d, S_STUN)
        elif group == 1:
            _until_end_of_next_turn(S, d, S_STUN)
            if not ok:
                _until_end_of_next_turn(S, d, S_DAZE)
        else:
            _until_end_of_next_turn(S, d, S_DAZE)
            if not ok:
                put_out(F, S, d, CAUSE_KNOCKED_OUT)
        return
    # critical
    if group == 0:
        put_out(F, S, d, CAUSE_KNOCKED_OUT)
        return
    ok = _toughness_check(F, S, opts, st, d, 14)
    if group == 2:
        _drop(F, S, d, zone)
    elif group == 3:
        S[d, S_PRONE] = 1
    else:
        _until_end_of_next_turn(S, d, S_DAZE)
    if not ok:
        put_out(F, S, d, CAUSE_KNOCKED_OUT)


@loop_inline_rule
def _mark_wound(F, S, d, level, dtype):
    """B-5.2, B-5.3, B-6: mark a blow of ``level`` (light damage … critical) on d's track, a shock
    blow one level lower (a light damage is tallied). Returns whether the wound's effects follow
    (B-7.1–B-7.3): the level is a wound and d is still in."""
    recorded = level - 1 if dtype == DT_SHOCK else level
    if recorded == LVL_LIGHT_DAMAGE:
        _light_damage(F, S, d)
    elif recorded >= LVL_LIGHT:
        _record(F, S, d, recorded)
    return S[d, S_OUT] == 0 and level != LVL_LIGHT_DAMAGE


@inline_rule
def _take_wound(F, S, opts, st, cnt, d, damage, dtype, zone):
    """B-5, B-6, B-7: d takes one hit's final damage of type ``dtype`` in ``zone``.

    Counts the wound (level by effect × zone group; and in the side's tally of the fight,
    ``S_TOOK``), records it (shock one level lower, B-5.2), applies the effects, bleeding (cutting
    heavy/critical), lasting stun (critical) and the fatigue of a fire wound (B-7.8).
    A mortal wound puts d out at once and rolls the toughness 12 check for death (B-5.4). The
    toughness checks are passive (B-9.5: ``_passive_bonus``).
    """
    level = _wound_level(F, d, damage)
    side = F[d, P_SIDE]
    cnt[C_WOUNDS + side * 24 + level * 4 + ZONE_GROUP[zone]] += 1
    S[side, S_TOOK + level] += 1
    cnt[C_DAMAGE + side] += damage
    S[d, S_TAKEN] += damage
    if level == LVL_NONE:
        return
    S[d, S_HARMED] += 1
    if level == LVL_MORTAL:
        if not _toughness_check(F, S, opts, st, d, 12):
            S[d, S_DEAD] = 1
        _wound_in_coma(S, d)  # B-6.7
        put_out(F, S, d, CAUSE_MORTAL)
        return
    if not _mark_wound(F, S, d, level, dtype):
        return
    _wound_effects(F, S, opts, st, d, level, zone)
    if level >= LVL_HEAVY and dtype == DT_CUTTING:
        S[d, S_BLEED] += 1  # B-7.2, B-7.3
    if level == LVL_CRITICAL:
        S[d, S_PERM_STUN] = 1  # B-7.4 (a shock critical takes the effects of its level, B-5.2)
    if level >= LVL_HEAVY:
        S[d, S_NO_RUN] = 1  # B-7.4: no running until treated
    if dtype == DT_FIRE:  # B-7.8: a fire wound brings 1 / 2 / 4 fatigue levels
        _gain_fatigue(F, S, opts, st, d, 1 << (level - LVL_LIGHT))


@rule
def _exertion_due(F, S, opts, i):
    """B-7.8 option ``exertion_fatigue``: whether i's current turn (``S_TURNS``, counted from 1)
    brings a fatigue level: after the first ``endurance`` turns, or every ``endurance``-th turn
    (every turn at endurance 0)."""
    mode = opts[O_EXERTION_FATIGUE]
    if mode == EXERTION_OFF:
        return False
    end = F[i, P_ENDURANCE]
    if mode == EXERTION_AFTER_ENDURANCE:
        return S[i, S_TURNS] > end
    return S[i, S_TURNS] % max(end, 1) == 0


@rule
def _fear_difficulty(rating):
    """B-7.10: difficulty of the willpower check against a fear rating 1–5: 8/10/12/14/16."""
    return 6 + 2 * rating


@rule
def _enemy_fear(F, i):
    """B-7.10 (docs/groups.md): the highest fear rating among i's enemies (0 none)."""
    rating = 0
    for j in range(F.shape[0]):
        if F[j, P_SIDE] != F[i, P_SIDE] and F[j, P_FEAR] > rating:
            rating = F[j, P_FEAR]
    return rating


@inline_rule
def _fear(F, S, st):
    """B-7.10 at the start: every fighter in row order facing a fearsome enemy side checks
    willpower against the side's highest rating; a failure dazes until the second check before the
    fighter's next turn (``_turn``)."""
    for i in range(F.shape[0]):
        rating = _enemy_fear(F, i)
        if rating > 0:
            r1, r2 = roll_2d6(st)
            if r1 + r2 + F[i, P_WILLPOWER] - _fatigue_penalty(F, S, i) < _fear_difficulty(rating):
                S[i, S_FRIGHTENED] = 1
                S[i, S_DAZE] = 1
