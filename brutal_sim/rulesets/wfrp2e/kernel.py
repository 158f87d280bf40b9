"""The WFRP 2e melee duel kernel (numba): arrays and scalars in, counters out.

Inputs everywhere below:

F : int64[2, NF]
    Compiled fighters (``P_*`` in :mod:`.layout`); row 0 is side a, row 1 side b.
S : int64[3, NS]
    Duel state: rows 0, 1 the fighters (``S_*``), row 2 duel-wide values (``G_*``); reset per duel.
opts : int64[NO]
    Rule options (``O_*``).
grid : int64[100, CRIT_COLUMNS]
    Critical table (``crit_model = table``): effect number of a d100 roll and a critical value (W-5.4).
fx : int64[4, n effects + 1, NFX]
    Effect fields (``FX_*``) of each zone and effect number.
st : uint64[4]
    The duel's random state (:mod:`brutal_sim.toolbox.rng`).
cnt : int64[K]
    Counters (``C_*``), added to, never cleared.

Draw order (the contract with ``tests/wfrp2e/naive_wfrp2e.py``, written down in ``docs/reference-wfrp2e.md``):
initiative d10 a [second d10 a], d10 b [second d10 b] (again while tied, W-2.2; the second d10 with
``fortune_initiative``, W-6.5); a feint's opposed test d100 feinter, d100 target
(again on a reroll, W-1.4); each attack: to-hit d100 [fortune reroll d100]; reaction d100 [fortune
reroll d100]; damage d10 [second d10 for Impact] [helpless d10, W-6.2]; Ulric's Fury: [confirmation d100]
d10, … (W-4.11); an attack on a helpless target draws its d100 for the location only, no reaction;
critical table d100 (``crit_model = table`` only).

The parallel loop of ``_run`` is compiled with this package's functions internal to it
(:mod:`brutal_sim.toolbox.jit`): LLVM passes only the arguments a function uses, 2.4× the duels per
second without it (benchmarks/README.md). ``_run_duels`` and ``_run_attacks`` are Python functions
that pass ``_run`` its flag.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ...toolbox.jit import driver, rule
from ...toolbox.tally import count_decision
from ...toolbox.rng import roll_die, seed_duel
from .layout import (
    C_ATTACKS, C_DAMAGE, C_DRAWS, C_FURY, C_ONE_BLOW, C_ROUNDS, S_HARMED, C_WOUNDS, CAUSE_CRITICAL, CAUSE_FLED,
    CAUSE_HELPLESS, CHARGE_DISTANCE, CRIT_COLUMNS, FX_DEATH, FX_DROP, FX_HELPLESS, FX_OUT, FX_PEN_AG, FX_PEN_WS,
    FX_PRONE, FX_STUN, G_ENGAGED, G_ROUND, LOC_LARM, LVL_CRITICAL, LVL_HEAVILY, LVL_NONE, LVL_OUT, LVL_WOUNDED,
    N_CAUSES, N_LEVELS, N_OUTCOMES, N_ZONES, NS, OUT_DODGED, OUT_HIT, OUT_MISS, OUT_PARRIED, P_A, P_AG,
    P_AG_PENALTY, P_AP, P_DODGE, P_FATE, P_FLEE_AT, P_FORTUNE, P_MIGHTY_BLOW, P_REACTION, P_SB, P_STREET_FIGHTING,
    P_TACTIC, P_TB, P_W, P_WEAPONS, P_WS, R_BEST, R_NONE, R_PARRY_FIRST, REACT_DODGE, REACT_NONE, REACT_PARRY,
    S_CAUTIOUS, S_DEAD, S_DEF_STANCE, S_DODGE_USED, S_FORTUNE, S_HELD_MAIN, S_HELD_OFF, S_NO_REACT, S_OUT,
    S_PARRY_STANCE, S_PARRY_USED, S_PEN_AG, S_PEN_WS, S_PRONE, S_STUN, S_SURPRISED, S_W, SLOT_FISTS, SLOT_MAIN,
    SLOT_OFF, T_BERSERK, T_CAUTIOUS, T_FEINTER, T_SWIFT, T_TURTLE, W_ARMOUR_PIERCING, W_BALANCED, W_DAMAGE,
    W_DEFENSIVE, W_FAST, W_IMPACT, W_PRECISE, W_PRESENT, W_SLOW, W_TIRING, W_UNARMED, WN,
)
from .options import (
    CRIT_SUDDEN_DEATH, CRIT_THRESHOLD, FORTUNE_ATTACK_FIRST, FORTUNE_NEVER, FURY_EACH, FURY_FIRST_ONLY,
    OPPOSED_BOTH_FAIL_REROLL, OPPOSED_DEFENDER_WINS_TIES, O_AUTO_RESULTS, O_BALANCED_OFFHAND, O_CRIT_MODEL,
    O_CRIT_THRESHOLD, O_DEFENSIVE_STANCE, O_FORTUNE, O_FORTUNE_EXTRA_REACTION, O_FURY_CONFIRM, O_INITIATIVE_ROLL,
    O_STRIKE_MIGHTY_BLOW, O_MODIFIER_CAP, O_OPPOSED, O_PRONE_BONUS, O_ROUND_CAP, O_PARRY_DODGE_CHOICE, O_START_DISTANCE,
    O_STREET_FIGHTING, O_SURPRISE, O_TIRING,
)
from .layout import S_HELPLESS, W_CHOPPA
from .layout import C_LOSER_WOUNDS, S_TOOK
from .options import (
    CHOPPA_IMPACT, CHOPPA_PLUS1, O_CHOPPA, O_FORTUNE_HALF_ACTION, O_FORTUNE_INITIATIVE, O_FORTUNE_KEEP_LAST,
    O_HELPLESS,
)

LOCATION_UPPER = np.array([15, 35, 55, 80, 90, 100], dtype=np.int64)  # W-4.2
LOCATION_ZONE = np.array([0, 2, 2, 1, 3, 3], dtype=np.int64)  # head, arm, arm, body, leg, leg

# --------------------------------------------------------------------------------------------------
# Tests (W-1)
# --------------------------------------------------------------------------------------------------


@rule
def _succeeds(opts, roll, target):
    """W-1.1, W-1.5: whether a d100 ``roll`` (1..100) passes ``target`` (int64s). bool."""
    if opts[O_AUTO_RESULTS] != 0:
        if roll <= 5:
            return True
        if roll >= 96:
            return False
    return roll <= target


@rule
def _capped(opts, mod):
    """W-1.6: the sum of a test's modifiers, limited to ±``modifier_cap`` when that is set."""
    cap = opts[O_MODIFIER_CAP]
    if cap > 0:
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
def _fortune_allows(opts, S, i, reaction):
    """W-6.5, W-8.7: whether i may spend a fortune point now on a reaction (``reaction`` true) or an
    attack. The preferred use may take the last point; the other keeps one in reserve unless
    ``fortune_keep_last = spend``."""
    policy = opts[O_FORTUNE]
    if policy == FORTUNE_NEVER:
        return False
    preferred = reaction if policy != FORTUNE_ATTACK_FIRST else not reaction
    return S[i, S_FORTUNE] >= (1 if preferred or opts[O_FORTUNE_KEEP_LAST] != 0 else 2)


@rule
def _fortune_spare(opts, S, i):
    """W-6.5, W-8.7: whether i may spend a fortune point on a use the policy never prefers (2d10
    initiative, an extra half action): one in reserve unless ``fortune_keep_last = spend``."""
    if opts[O_FORTUNE] == FORTUNE_NEVER:
        return False
    return S[i, S_FORTUNE] >= (1 if opts[O_FORTUNE_KEEP_LAST] != 0 else 2)


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


# --------------------------------------------------------------------------------------------------
# Weapons, targets, reactions (W-4.1 – W-4.6, W-4.10, W-4.12)
# --------------------------------------------------------------------------------------------------


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
            and S[2, G_ROUND] <= 1):
        return True
    if _wf(F, i, slot, field) == 0:
        return False
    if (field == W_IMPACT or field == W_FAST) and _wf(F, i, slot, W_TIRING) != 0:
        return opts[O_TIRING] != 0 or S[2, G_ROUND] <= 1
    return True


@rule
def _attack_target(F, S, opts, a, slot, mod):
    """W-4.1: a's to-hit target with ``slot`` and the action modifier ``mod``.

    Adds: target stunned +20 (W-6.1), prone +prone_bonus (W-6.4), in defensive stance −20 (W-3.6),
    off hand −20 unless Balanced with ``balanced_offhand`` (W-4.10), Street Fighting unarmed +10
    (W-9.3 option), critical-effect WS penalties; the sum capped by W-1.6. int64.
    """
    d = 1 - a
    m = mod - S[a, S_PEN_WS]
    if S[d, S_STUN] > 0:
        m += 20
    if S[d, S_PRONE] > 0:
        m += opts[O_PRONE_BONUS]
    if S[d, S_DEF_STANCE] > 0:
        m -= 20
    if slot == SLOT_OFF and not (_wf(F, a, slot, W_BALANCED) != 0 and opts[O_BALANCED_OFFHAND] != 0):
        m -= 20
    if slot == SLOT_FISTS and F[a, P_STREET_FIGHTING] != 0 and opts[O_STREET_FIGHTING] != 0:
        m += 10
    return F[a, P_WS] + _capped(opts, m)


@rule
def _speed_modifier(F, S, opts, a, slot):
    """W-4.12: to parry or dodge an attack of a's ``slot``: Fast −10, Slow +10."""
    m = 0
    if _quality(F, S, opts, a, slot, W_FAST):
        m -= 10
    if _quality(F, S, opts, a, slot, W_SLOW):
        m += 10
    return m


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
def _can_react(S, d):
    """W-6.1, W-3.4, W-2.6, W-6.2: stunned, all-out, surprised and helpless fighters neither parry nor
    dodge."""
    return (S[d, S_OUT] == 0 and S[d, S_STUN] == 0 and S[d, S_NO_REACT] == 0 and S[d, S_SURPRISED] == 0
            and S[d, S_HELPLESS] == 0)


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
        used = S[d, S_PARRY_USED] != 0 or (opts[O_PARRY_DODGE_CHOICE] != 0 and S[d, S_DODGE_USED] != 0)
    else:
        if F[d, P_DODGE] < 0:
            return 0
        used = S[d, S_DODGE_USED] != 0 or (opts[O_PARRY_DODGE_CHOICE] != 0 and S[d, S_PARRY_USED] != 0)
    if not used:
        return 1
    if opts[O_FORTUNE_EXTRA_REACTION] == 0 and _fortune_allows(opts, S, d, True):
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
def _location(roll):
    """W-4.2: hit location (``LOC_*``) of a to-hit roll by its reversed digits (100 = "00")."""
    rev = (roll % 10) * 10 + (roll // 10) % 10
    if rev == 0:
        rev = 100
    for loc in range(6):
        if rev <= LOCATION_UPPER[loc]:
            return loc
    return 5


# --------------------------------------------------------------------------------------------------
# Damage, wounds, criticals (W-4.7 – W-4.12, W-5)
# --------------------------------------------------------------------------------------------------


@rule
def _damage_bonus(F, S, opts, a, slot):
    """W-4.7, W-4.9: what is added to the damage d10: SB + the weapon's modifier (unarmed −4),
    Strike Mighty Blow +1 and Street Fighting +1 unarmed when their options are on, a choppa +1 in
    round 1 with ``choppa = plus1_first_round`` (W-9.3)."""
    bonus = F[a, P_SB] + _wf(F, a, slot, W_DAMAGE)
    if _wf(F, a, slot, W_CHOPPA) != 0 and opts[O_CHOPPA] == CHOPPA_PLUS1 and S[2, G_ROUND] <= 1:
        bonus += 1
    if F[a, P_MIGHTY_BLOW] != 0 and opts[O_STRIKE_MIGHTY_BLOW] != 0:
        bonus += 1
    if slot == SLOT_FISTS and F[a, P_STREET_FIGHTING] != 0 and opts[O_STREET_FIGHTING] != 0:
        bonus += 1
    return bonus


@rule
def _absorbed(F, a, d, slot, loc):
    """W-4.8: what d's TB and AP on ``loc`` take off a's damage: AP ×2 against unarmed (W-4.9),
    −1 AP (not below 0) for Armour Piercing (W-4.12)."""
    ap = F[d, P_AP + LOCATION_ZONE[loc]]
    if _wf(F, a, slot, W_UNARMED) != 0:
        ap *= 2
    if _wf(F, a, slot, W_ARMOUR_PIERCING) != 0 and ap > 0:
        ap -= 1
    return F[d, P_TB] + ap


@rule
def _fury_needs_test(opts, extra):
    """W-4.11: whether the Fury die number ``extra`` (0 the first) needs a to-hit test first."""
    mode = opts[O_FURY_CONFIRM]
    return mode == FURY_EACH or (mode == FURY_FIRST_ONLY and extra == 0)


@rule
def _damage_roll(F, S, opts, st, a, slot, target, helpless):
    """W-4.7, W-4.11, W-4.12, W-6.2: the damage before absorption and the number of Fury dice added.

    d10 (Impact: 2d10, the higher kept) + :func:`_damage_bonus`, + d10 against a ``helpless``
    target (W-6.2); while the kept or added die shows 10, Ulric's Fury adds a d10, each after a
    to-hit test against ``target`` as ``fury_confirm`` asks (against a helpless target the to-hit
    is automatic: no test).
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
    while die == 10:
        if not helpless and _fury_needs_test(opts, extra) and not _succeeds(opts, roll_die(st, 100), target):
            break
        die = roll_die(st, 10)
        total += die
        extra += 1
    return total, extra


@rule
def _crit_effect(grid, value, roll):
    """W-5.4 table: the effect number of a critical value and a d100 roll."""
    col = value if value < CRIT_COLUMNS else CRIT_COLUMNS - 1
    return grid[roll - 1, col]


@rule
def _effect_takes_out(opts, fx, zone, e):
    """Whether effect ``e`` on ``zone`` ends the fight (OUT, DEATH, or HELPLESS unless
    ``helpless = attackable``, W-6.2)."""
    if fx[zone, e, FX_HELPLESS] != 0 and opts[O_HELPLESS] == 0:
        return True
    return fx[zone, e, FX_OUT] != 0 or fx[zone, e, FX_DEATH] != 0


@rule
def _model_takes_out(opts, value):
    """W-5.4 sudden_death / threshold(X): whether a critical value takes the fighter out."""
    if opts[O_CRIT_MODEL] == CRIT_SUDDEN_DEATH:
        return True
    return value >= opts[O_CRIT_THRESHOLD]


@rule
def _knock_out(S, d, cause):
    if S[d, S_OUT] == 0:
        S[d, S_OUT] = cause + 1


@rule
def _deadly(F, S, d):
    """W-5.6: an out-by-critical that kills, unless a fate point is spent (then only out)."""
    _knock_out(S, d, CAUSE_CRITICAL)
    if F[d, P_FATE] == 0:
        S[d, S_DEAD] = 1


@rule
def _apply_effect(F, S, opts, fx, d, loc, e):
    """W-5.4 table: apply effect ``e`` of the hit location's zone to d (W-6.1 stun, W-3.11 drop:
    the left arm drops the off-hand item, others the main-hand weapon; W-6.4 prone; penalties;
    W-6.2 helpless: out, or helpless in the fight with ``helpless = attackable``)."""
    zone = LOCATION_ZONE[loc]
    if fx[zone, e, FX_STUN] > S[d, S_STUN]:
        S[d, S_STUN] = fx[zone, e, FX_STUN]
    if fx[zone, e, FX_DROP] != 0:
        S[d, S_HELD_OFF if loc == LOC_LARM else S_HELD_MAIN] = 0
    if fx[zone, e, FX_PRONE] != 0:
        S[d, S_PRONE] = 1
    S[d, S_PEN_WS] += fx[zone, e, FX_PEN_WS]
    S[d, S_PEN_AG] += fx[zone, e, FX_PEN_AG]
    if fx[zone, e, FX_DEATH] != 0:
        _deadly(F, S, d)
    elif fx[zone, e, FX_OUT] != 0:
        _knock_out(S, d, CAUSE_CRITICAL)
    elif fx[zone, e, FX_HELPLESS] != 0:
        if opts[O_HELPLESS] != 0:
            S[d, S_HELPLESS] = 1
        else:
            _knock_out(S, d, CAUSE_HELPLESS)  # W-5.5: helpless with nobody to defend it


@rule
def _wound_level(left, critical, out):
    """Counter level of a hit: none / wounded (> 3 Wounds left) / heavily wounded (W-5.2) /
    critical / out (W-5.3 – W-5.5). ``left`` is the Wounds left after a non-critical hit."""
    if out:
        return LVL_OUT
    if critical:
        return LVL_CRITICAL
    return LVL_WOUNDED if left > 3 else LVL_HEAVILY


@rule
def _take_damage(F, S, opts, grid, fx, st, cnt, a, d, slot, loc, final):
    """W-5.1 – W-5.4: d takes ``final`` damage on ``loc``; counts the hit's level × zone.

    Damage above the Wounds left (any damage at 0) is critical: value = damage − Wounds left
    (+1 Precise), Wounds become 0, and the critical model decides (one d100 for the table model).
    """
    cnt[C_DAMAGE + d] += final
    zone = LOCATION_ZONE[loc]
    level = LVL_NONE
    if final > 0:
        left = S[d, S_W]
        if final <= left:
            S[d, S_W] = left - final
            level = _wound_level(left - final, False, False)
        else:
            S[d, S_W] = 0
            value = final - left
            if _wf(F, a, slot, W_PRECISE) != 0:
                value += 1
            if opts[O_CRIT_MODEL] == CRIT_SUDDEN_DEATH or opts[O_CRIT_MODEL] == CRIT_THRESHOLD:
                if _model_takes_out(opts, value):
                    _deadly(F, S, d)
            else:
                _apply_effect(F, S, opts, fx, d, loc, _crit_effect(grid, value, roll_die(st, 100)))
            level = _wound_level(0, True, S[d, S_OUT] != 0)
    cnt[C_WOUNDS + d * N_LEVELS * N_ZONES + level * N_ZONES + zone] += 1
    S[d, S_TOOK + level] += 1
    if level != LVL_NONE:
        S[d, S_HARMED] += 1


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


@rule
def _attack(F, S, opts, grid, fx, st, cnt, a, mod, feinted):
    """W-4: one melee attack of a with action modifier ``mod``; after a won feint it cannot be
    parried or dodged (W-3.9); a helpless target is hit automatically, the d100 giving the location
    only, and takes +1d10 damage (W-6.2). Counts the outcome, the Fury and the hit."""
    d = 1 - a
    slot = _attack_slot(F, S, a)
    target = _attack_target(F, S, opts, a, slot, mod)
    helpless = S[d, S_HELPLESS] != 0
    if helpless:
        roll = roll_die(st, 100)
    else:
        ok, roll = _test(S, opts, st, a, target, _fortune_allows(opts, S, a, False))
        if not ok:
            cnt[C_ATTACKS + a * N_OUTCOMES + OUT_MISS] += 1
            return
    outcome = OUT_HIT if feinted else _react(F, S, opts, st, d, a, slot)
    cnt[C_ATTACKS + a * N_OUTCOMES + outcome] += 1
    if outcome != OUT_HIT:
        return
    loc = _location(roll)
    raw, extra = _damage_roll(F, S, opts, st, a, slot, target, helpless)
    if extra > 0:
        cnt[C_FURY + a] += 1
    final = raw - _absorbed(F, a, d, slot, loc)
    _take_damage(F, S, opts, grid, fx, st, cnt, a, d, slot, loc, final if final > 0 else 0)


# --------------------------------------------------------------------------------------------------
# Turns and the duel (W-2, W-3, W-8)
# --------------------------------------------------------------------------------------------------


@rule
def _plan(F, S, opts, i, halves):
    """W-3, W-8: what i's tactic does with ``halves`` half actions; sets its stances.

    Returns (attacks, modifier, feint): the number of attacks, their WS modifier and whether a
    feint (W-3.9) comes first. Not yet engaged (``start_distance`` ≥ 4): a charge, one attack at +10
    (W-3.3, W-8.8). guarded: aim + attack with an off-hand item, else attack + parry stance (W-8.1);
    swift: A attacks when A ≥ 2 (W-3.8); berserk: all-out +20, no reactions (W-3.4); cautious: −10,
    +10 to reactions (W-3.5); turtle: defensive stance + parry stance, the defensive stance alone
    when it is a full action (W-3.6, W-3.7); feinter: feint + attack when the foe could parry and
    WS ≥ the foe's (W-8.6), else guarded. One half action left: a standard attack (turtle: a stance).
    """
    t = F[i, P_TACTIC]
    if S[2, G_ENGAGED] == 0 and t != T_TURTLE:
        S[2, G_ENGAGED] = 1
        return 1, 10, False
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
    """W-3.16: i flees; the foe gets a free standard attack; i is out (fled) if still in the fight."""
    _attack(F, S, opts, grid, fx, st, cnt, 1 - i, 0, False)
    _knock_out(S, i, CAUSE_FLED)


@rule
def _turn(F, S, opts, grid, fx, st, cnt, i):
    """One turn of fighter i (W-2.3).

    Stances end (W-3.4 – W-3.7); a surprised (W-2.6) or helpless (W-6.2) fighter or a stunned one
    (W-6.1, one lost turn counted off) does nothing; a fighter at or below its ``flee_at`` Wounds
    flees (W-3.16); else it stands up (W-3.12) and readies a dropped item (W-3.11, main hand
    first), a half action each, and spends the rest on its tactic (:func:`_plan`). With
    ``fortune_half_action`` a spare fortune point buys one extra half action (W-6.5): it makes up a
    half action lost to the upkeep, else it aims (W-3.2, +10 on the first attack) before an
    unaimed attack of an engaged fighter that is no feint.
    """
    S[i, S_PARRY_STANCE] = 0
    S[i, S_DEF_STANCE] = 0
    S[i, S_CAUTIOUS] = 0
    S[i, S_NO_REACT] = 0
    if S[i, S_SURPRISED] != 0 or S[i, S_HELPLESS] != 0:
        return
    if S[i, S_STUN] > 0:
        S[i, S_STUN] -= 1
        return
    if F[i, P_FLEE_AT] >= 0 and S[i, S_W] <= F[i, P_FLEE_AT]:
        _flee(F, S, opts, grid, fx, st, cnt, i)
        return
    halves = 2
    if S[i, S_PRONE] != 0:
        S[i, S_PRONE] = 0
        halves -= 1
    for slot in (SLOT_MAIN, SLOT_OFF):
        if halves > 0 and _wf(F, i, slot, W_PRESENT) != 0 and S[i, S_HELD_MAIN + slot] == 0:
            S[i, S_HELD_MAIN + slot] = 1
            halves -= 1
            break
    spare = opts[O_FORTUNE_HALF_ACTION] != 0 and _fortune_spare(opts, S, i)
    if spare and halves < 2:
        S[i, S_FORTUNE] -= 1
        halves += 1
        spare = False
    if halves == 0:
        return
    engaged = S[2, G_ENGAGED] != 0
    attacks, mod, feint = _plan(F, S, opts, i, halves)
    aim = 0
    if spare and engaged and halves == 2 and attacks > 0 and not feint and not _plan_aims(F, S, i):
        S[i, S_FORTUNE] -= 1
        aim = 10
    feinted = feint and _feint(F, S, opts, st, i)
    for k in range(attacks):
        if S[0, S_OUT] != 0 or S[1, S_OUT] != 0:
            break
        _attack(F, S, opts, grid, fx, st, cnt, i, mod + aim if k == 0 else mod, feinted)


@rule
def _reset(F, S, opts):
    """Fresh fighters: full Wounds and fortune (W-6.5), items in hand, surprise (W-2.6), engaged
    unless ``start_distance`` ≥ 4 (W-8.8)."""
    for i in range(2):
        for k in range(NS):
            S[i, k] = 0
        S[i, S_W] = F[i, P_W]
        S[i, S_FORTUNE] = F[i, P_FORTUNE]
        S[i, S_HELD_MAIN] = _wf(F, i, SLOT_MAIN, W_PRESENT)
        S[i, S_HELD_OFF] = _wf(F, i, SLOT_OFF, W_PRESENT)
    if opts[O_SURPRISE] > 0:
        S[opts[O_SURPRISE] - 1, S_SURPRISED] = 1
    S[2, G_ROUND] = 1
    S[2, G_ENGAGED] = 1 if opts[O_START_DISTANCE] < CHARGE_DISTANCE else 0


@rule
def _initiative(F, S, opts, st):
    """W-2.2: d10 + Ag (armour and critical Ag penalties off) for a, then b; ties go to the higher
    Ag, then both roll again. With ``fortune_initiative`` a fighter with a spare fortune point
    spends it for 2d10 + Ag (W-6.5; a tie's reroll keeps the dice). Returns the side that acts
    first."""
    ag_a = F[0, P_AG] - F[0, P_AG_PENALTY] - S[0, S_PEN_AG]
    ag_b = F[1, P_AG] - F[1, P_AG_PENALTY] - S[1, S_PEN_AG]
    two_a = False
    two_b = False
    if opts[O_FORTUNE_INITIATIVE] != 0:
        if _fortune_spare(opts, S, 0):
            S[0, S_FORTUNE] -= 1
            two_a = True
        if _fortune_spare(opts, S, 1):
            S[1, S_FORTUNE] -= 1
            two_b = True
    while True:
        ia = roll_die(st, 10) + ag_a
        if two_a:
            ia += roll_die(st, 10)
        ib = roll_die(st, 10) + ag_b
        if two_b:
            ib += roll_die(st, 10)
        if ia != ib:
            return 0 if ia > ib else 1
        if ag_a != ag_b:
            return 0 if ag_a > ag_b else 1


@rule
def _duel(F, S, opts, grid, fx, st, cnt):
    """One duel (W-2): rounds of two turns in initiative order until one side is out or the round
    cap (W-2.7). Returns 0 if side a won, 1 if side b won, 2 for a draw."""
    _reset(F, S, opts)
    first = _initiative(F, S, opts, st)
    for rnd in range(1, opts[O_ROUND_CAP] + 1):
        S[2, G_ROUND] = rnd
        if rnd > 1 and opts[O_INITIATIVE_ROLL] != 0:
            first = _initiative(F, S, opts, st)
        for i in range(2):
            S[i, S_PARRY_USED] = 0
            S[i, S_DODGE_USED] = 0
        for k in range(2):
            i = first if k == 0 else 1 - first
            _turn(F, S, opts, grid, fx, st, cnt, i)
            if S[0, S_OUT] != 0 or S[1, S_OUT] != 0:
                loser = 0 if S[0, S_OUT] != 0 else 1
                cause = S[loser, S_OUT] - 1
                count_decision(cnt, S, loser, cause, S[loser, S_DEAD],
                                S[loser, S_HARMED] == 1 and cause != CAUSE_FLED, rnd, opts[O_ROUND_CAP], S_TOOK,
                                N_CAUSES, N_LEVELS, C_ONE_BLOW, C_LOSER_WOUNDS, C_ROUNDS)
                return 1 - loser
        S[0, S_SURPRISED] = 0
        S[1, S_SURPRISED] = 0
    cnt[C_DRAWS] += 1
    return 2


@rule
def _attack_setup(F, S, opts):
    """The situation ``attack`` measures: fresh fighters, side b in the stances its tactic takes when
    engaged, side a's plan for its turn. Returns a's (attacks, modifier, feint) of :func:`_plan`."""
    _reset(F, S, opts)
    engaged = S[2, G_ENGAGED]
    S[2, G_ENGAGED] = 1
    _plan(F, S, opts, 1, 2)
    S[2, G_ENGAGED] = engaged
    return _plan(F, S, opts, 0, 2)


@rule
def _single_attack(F, S, opts, grid, fx, st, cnt):
    """One attack by side a on a fresh side b (:func:`_attack_setup`): a's first attack of its turn,
    a feint, aim or charge included."""
    attacks, mod, feint = _attack_setup(F, S, opts)
    if attacks > 0:
        _attack(F, S, opts, grid, fx, st, cnt, 0, mod, feint and _feint(F, S, opts, st, 0))


@driver(parallel=True)
def _run(F, opts, grid, fx, seed, start, n, lanes, k, single_attacks):
    """Indices ``start … start+n−1`` in ``lanes`` contiguous parts run in parallel; each a duel or
    (``single_attacks``) one attack of side a. Returns ``int64[lanes, k]`` counters whose sum does
    not depend on ``lanes``."""
    cnt = np.zeros((lanes, k), dtype=np.int64)
    for lane in prange(lanes):
        lo = start + (n * lane) // lanes
        hi = start + (n * (lane + 1)) // lanes
        st = np.empty(4, dtype=np.uint64)
        S = np.empty((3, NS), dtype=np.int64)
        row = cnt[lane]
        for idx in range(lo, hi):
            seed_duel(st, seed, idx)
            if single_attacks:
                _single_attack(F, S, opts, grid, fx, st, row)
            else:
                _duel(F, S, opts, grid, fx, st, row)
    return cnt


def _run_duels(F, opts, grid, fx, seed, start, n, lanes, k):
    """Duels ``start … start+n−1``: ``int64[lanes, k]`` counters."""
    return _run(F, opts, grid, fx, seed, start, n, lanes, k, False)


def _run_attacks(F, opts, grid, fx, seed, start, n, lanes, k):
    """Single attacks of side a on a fresh side b: ``int64[lanes, k]`` counters."""
    return _run(F, opts, grid, fx, seed, start, n, lanes, k, True)


@driver(parallel=True)
def _run_paired(Fs, optss, grid, fx, seed, start, n, lanes, k):
    """Common random numbers: each duel index under ``m`` configurations ``Fs`` ``int64[m, 2, NF]``,
    ``optss`` ``int64[m, NO]`` with the same random stream. Returns ``(int64[lanes, m, k],
    int64[lanes, max(m − 1, 1), 3, 3])``: counters, and joint outcomes of neighbouring
    configurations (0 a won, 1 b won, 2 draw)."""
    m = Fs.shape[0]
    cnt = np.zeros((lanes, m, k), dtype=np.int64)
    joint = np.zeros((lanes, max(m - 1, 1), 3, 3), dtype=np.int64)
    for lane in prange(lanes):
        lo = start + (n * lane) // lanes
        hi = start + (n * (lane + 1)) // lanes
        st = np.empty(4, dtype=np.uint64)
        S = np.empty((3, NS), dtype=np.int64)
        for idx in range(lo, hi):
            previous = -1
            for j in range(m):
                seed_duel(st, seed, idx)
                outcome = _duel(Fs[j], S, optss[j], grid, fx, st, cnt[lane, j])
                if j > 0:
                    joint[lane, j - 1, previous, outcome] += 1
                previous = outcome
    return cnt, joint
