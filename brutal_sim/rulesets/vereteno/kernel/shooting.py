"""V-11 shooting and V-12 its extra effects: which shots a fighter may fire (V-11.2–V-11.5, V-11.4 not
engaged, V-11.5 automatic, V-11.14 a gun needing a reload), the shot of its tactic (V-15.6), the
shooting pool with the band, effective-range and engaged modifiers (V-11.1, V-11.10, V-11.11,
V-11.19), the long burst's continuation dice (V-11.12), the reload triggers and the reload (V-11.8,
V-11.14), bracing (V-11.9, V-11.16, V-15.5), the spending of a hit's extra successes (V-12.1–V-12.4,
V-15.9), the armour roll with cover (V-11.17, V-5.7), the shot itself (no reaction, V-11.15) and
sector control (V-11.13: setting AP aside, the sector shot at an enemy's action), the dice dials of
gun properties (V-11.21), the GM's jamming tokens (V-11.14 d) and the throw (V-11.7, V-11.20,
V-12.5: a Сила check the target may dodge). Nothing here runs in a melee duel. Imports
:mod:`.checks`, :mod:`.actions`, :mod:`.armour`, :mod:`.traumas`, :mod:`.melee` and :mod:`.distance`.

``shot`` is a shot kind ``SH_*``; ``SHOT_COST`` and ``SHOT_DICE`` are its AP cost and pool dice
(V-11.2–V-11.5), ``BAND_DICE`` the band modifiers (V-11.10, V-16.1).
"""

from __future__ import annotations

import numpy as np

from ....core.battle import B_AWAY, B_FOE
from ....toolbox.battle import apart, foe
from ....toolbox.jit import rule
from ....toolbox.rng import roll_die
from ..layout import (
    AS_DISARM_FIRST,
    AS_INTIMIDATE,
    AS_SUPPRESS_COVERED,
    AS_TRAUMA_FIRST,
    C_ATTACKS,
    C_DEGRADED,
    K_STANDARD,
    N_OUTCOMES,
    ORD_SHOOT,
    OUT_ARMOUR_STOPPED,
    OUT_HIT,
    OUT_MISS,
    P_AGIL_SKILL,
    P_AGILITY,
    P_ARMOUR_QUALITY,
    P_ATTACK_SPENDING,
    P_N_THROWN,
    P_PERC_POOL,
    P_SHOOT_POOL,
    P_SIDE,
    P_SIZE,
    P_SPREAD,
    P_SUPPRESS_AT,
    P_T_BRACE,
    P_T_KEEP,
    P_T_OVERWATCH,
    P_T_PRONE,
    P_T_SHOT,
    P_THROW_POOL,
    P_THROWN,
    R_DODGE,
    R_NONE,
    REACH,
    REACH_LONG,
    S_AMMO,
    S_AP,
    S_ARMOUR,
    S_BRACED,
    S_COVER,
    S_HIP_CHAIN,
    S_IMMOBILISED,
    S_INIT_BONUS,
    S_LYING,
    S_ORD,
    S_OUT,
    S_PEN_AGIL,
    S_PEN_SHOOT,
    S_PEN_STR,
    S_PRONE,
    S_RELOAD,
    S_SECTOR,
    S_SHIELD,
    S_SIGHT,
    S_THROW_READY,
    S_THROWN,
    SH_AIMED,
    SH_BURST,
    SH_HIP,
    SH_NONE,
    SH_STANDARD,
    SH_THROW,
    SLOT_GUN,
    SLOT_WEAPON,
    W_AUTOMATIC,
    W_CRIT,
    W_DAMAGE,
    W_DIALS,
    W_HIGH_CAPACITY,
    W_LONG_RELOAD,
    W_MAGAZINE,
    W_MOD,
    W_PIERCING,
    W_RANGE,
    W_SINGLE_SHOT,
    WN,
)
from ..options import (
    AMMO_MAGAZINE,
    BRACE_NEXT_SHOT,
    BURST_HIT_FIRST_CHECK,
    BURST_NO_CONTINUATION,
    CHECK_PER_SHOT,
    COVER_ONES_ARMOUR_FIRST,
    DIALS_AT,
    ENGAGED_RANGE_ADD,
    GM_RELOAD_TOKENS_ON,
    HIGH_CAPACITY_EXTRA_CHAIN,
    LONG_RELOAD_EXTENDED,
    N_DIALS,
    O_AMMO,
    O_ARMOUR_PIERCING_DICE,
    O_BRACE,
    O_BURST_DESPERATE,
    O_BURST_HIT,
    O_COVER_ONES,
    O_ENGAGED_RANGE,
    O_GM_RELOAD_TOKENS,
    O_HIGH_CAPACITY,
    O_INTO_MELEE_DICE,
    O_LONG_RELOAD,
    O_ONE_VALUE,
    O_OVERWATCH_BREAK,
    O_OVERWATCH_COST,
    O_OVERWATCH_SHOOTERS,
    O_RANGED_DISARM,
    O_SHIELD,
    O_STOP_DIE,
    O_THROW_RANGE,
    O_THROW_READY,
    O_VISIBILITY,
    O_VISIBILITY_CHECK,
    OVERWATCH_BREAK_ANY_HIT,
    OVERWATCH_DECLARE_QUICK,
    OVERWATCH_SHOOTERS_EVERY,
    RANGED_DISARM_ON,
    SHIELD_IGNORE,
    STOP_DIE_NOT_COUNTED,
    THROW_READY_FREE,
    VISIBILITY_POOR,
)
from .actions import _choose_reaction, _resolve, _take_reaction
from .armour import _armour_reduction
from .checks import (
    IMMOBILISED_DICE,
    _fighter_check,
    _gun_in_hand,
    _is_npc,
    _slot,
    _spend_token,
    _successes,
    _tokens_left,
    _wb,
)
from .distance import BAND_OUT, _band, _engaged, _point_blank
from .groups import _stops
from .melee import _land
from .traumas import _strain

#: V-2.2 AP cost and V-11.2–V-11.5, V-11.7 pool dice by shot kind (none, hip, standard, aimed, burst, throw)
SHOT_COST = np.array([0, 1, 2, 3, 3, 2], dtype=np.int64)
SHOT_DICE = np.array([0, -2, 0, 2, -2, 0], dtype=np.int64)
#: V-10.9 (throw_ready = quick): AP to ready the next item to throw, or the melee weapon after throwing
READY_COST = 1
#: V-11.10, V-16.1: dice by band (point blank, close, medium, long, extreme)
BAND_DICE = np.array([2, 1, 0, -1, -2], dtype=np.int64)
#: V-11.10, V-11.11: dice per band beyond the effective range, and an engaged shooter's
BEYOND_DICE = -3
ENGAGED_DICE = -3
#: V-11.14 (b): hip shots in a row that make a reload due
HIP_CHAIN = 3
#: V-11.9, V-11.16: dice a braced gun adds to its shots
BRACE_DICE = 1
#: V-11.18: the perception check's dice under poor visibility, and a blind shooter's per shot
LOOK_DICE = -2
BLIND_DICE = -3


@rule
def _blind(S, a):
    """V-11.18: is ``a`` blind to its foe (failed its perception check; never at point blank)?"""
    return S[a, S_SIGHT] == 2 and not _point_blank(S, a)


@rule
def _look(F, S, opts, st, a):
    """V-11.18: under ``visibility = poor``, beyond point blank, ``a`` makes a free perception check
    (Интеллект + Наблюдательность − 2, prayable V-1.6) before its shot, once a turn
    (``visibility_check = per_turn``) or before every shot (``per_shot``): ≥ 1 success it sees its
    foe, else it is blind."""
    if opts[O_VISIBILITY] != VISIBILITY_POOR or _point_blank(S, a):
        return
    if S[a, S_SIGHT] != 0 and opts[O_VISIBILITY_CHECK] != CHECK_PER_SHOT:
        return
    S[a, S_SIGHT] = 1 if _fighter_check(F, S, opts, st, F[a, P_PERC_POOL] + LOOK_DICE, a) >= 1 else 2


@rule
def _gun(F, i, field):
    """A field (``W_*``) of fighter ``i``'s gun."""
    return F[i, _wb(SLOT_GUN) + field]


@rule
def _missile(F, S, i, shot, field):
    """A field (``W_*``) of what ``i``'s ``shot`` hits with: its gun, or for a throw (V-11.20) the next
    item of its supply (a melee weapon's own record; V-5.6 stats for a gun or an improvised item)."""
    if shot == SH_THROW:
        return F[i, P_THROWN + S[i, S_THROWN] * WN + field]
    return _gun(F, i, field)


@rule
def _throw_cost(S, i):
    """V-11.7, V-10.9: AP of ``i``'s next throw: 2, plus 1 to ready the item first when its hand is
    empty after a throw (``throw_ready = quick``: the first item starts in hand; ``free`` keeps the
    next item ready, :func:`_throw`). int64."""
    if S[i, S_THROW_READY] != 0:
        return SHOT_COST[SH_THROW]
    return SHOT_COST[SH_THROW] + READY_COST


@rule
def _dial_dice(F, opts, a):
    """V-11.21: the designer dials' dice of ``a``'s gun: the sum of ``<property>_dice`` over the
    dialled properties it has (``W_DIALS`` bits, ``DIAL_PROPERTIES`` order). int64."""
    bits = _gun(F, a, W_DIALS)
    total = 0
    for k in range(N_DIALS):
        if (bits >> k) & 1 != 0:
            total += opts[DIALS_AT + k]
    return total


@rule
def _can_shoot(F, S, a, shot):
    """V-11.2–V-11.5, V-11.14, V-10.1: may ``a`` fire ``shot`` now? The gun in hand and not needing
    a reload, the foe within 1000 m; a throw (V-11.7) with an item left, not engaged; an aimed shot
    not while engaged or blind (V-11.4, V-11.11, V-11.18); a long burst only with an automatic gun
    (V-11.5)."""
    if shot == SH_THROW:  # V-11.20: an item left to throw, the foe not engaged (melee then)
        return (S[a, S_THROWN] < F[a, P_N_THROWN] and not _engaged(F, S, a)
                and _band(apart(S, a, foe(S, a))) != BAND_OUT)
    if shot == SH_NONE or not _gun_in_hand(S, a) or S[a, S_RELOAD] != 0:
        return False
    if _band(apart(S, a, foe(S, a))) == BAND_OUT:
        return False
    if shot == SH_AIMED and (_engaged(F, S, a) or _blind(S, a)):
        return False
    if shot == SH_BURST and _gun(F, a, W_AUTOMATIC) == 0:
        return False
    return True


@rule
def _plan_shot(F, S, i):
    """V-15.6: the next shot of ``i``'s tactic, or ``SH_NONE``: the tactic's shot if allowed and its
    cost leaves the tactic's reserve, else the next cheaper (burst or aimed → standard → hip); a
    throw (V-11.7, :func:`_throw_cost`) or nothing."""
    pref = F[i, P_T_SHOT]
    room = S[i, S_AP] - F[i, P_T_KEEP]
    if pref == SH_NONE:
        return SH_NONE
    if pref == SH_THROW:  # V-11.7: no fallback to shots
        if _can_shoot(F, S, i, pref) and _throw_cost(S, i) <= room:
            return SH_THROW
        return SH_NONE
    if _can_shoot(F, S, i, pref) and SHOT_COST[pref] <= room:
        return pref
    if pref != SH_HIP and pref != SH_STANDARD and _can_shoot(F, S, i, SH_STANDARD) and SHOT_COST[SH_STANDARD] <= room:
        return SH_STANDARD
    if pref != SH_HIP and _can_shoot(F, S, i, SH_HIP) and SHOT_COST[SH_HIP] <= room:
        return SH_HIP
    return SH_NONE


@rule
def _range_dice(F, S, opts, a, shot=SH_STANDARD):
    """V-11.10, V-11.11, V-11.20: the range term of ``a``'s shot at its foe: the band's dice (+2 … −2)
    and −3 per band beyond the gun's effective range (a throw's: ``throw_range``, close or medium);
    engaged (point blank, or close range within a long weapon's reach, V-3.15) −3 instead of the
    band bonus (``engaged_range = replace``) or with it (``add``: +2 − 3 at point blank, +1 − 3 at
    close range). int64."""
    b = _band(apart(S, a, foe(S, a)))
    effective = opts[O_THROW_RANGE] if shot == SH_THROW else _gun(F, a, W_RANGE)
    beyond = BEYOND_DICE * max(b - effective, 0)
    if _engaged(F, S, a):
        if opts[O_ENGAGED_RANGE] == ENGAGED_RANGE_ADD:
            return BAND_DICE[b] + ENGAGED_DICE + beyond
        return ENGAGED_DICE + beyond
    return BAND_DICE[b] + beyond


@rule
def _shot_pool(F, S, opts, a, shot):
    """V-11.1: Ловкость + Стрельба + the gun's modifier + the shot's dice (V-11.2–V-11.5) + the
    designer dials of its properties (V-11.21, :func:`_dial_dice`) + the range term
    (:func:`_range_dice`) + the target's size (V-11.19) − shooting penalties (V-6.4, PEN(shoot)
    traumas), −1 at a prone target, knocked down or lying by choice (V-10.8, V-11.19), +2 at an
    immobilised one (V-6.9: attacks at it +2 dice), +1 with the gun braced (V-11.16), −3 blind
    (V-11.18), + the shooter's order bonus on shots ("Fire!", V-13.4). A throw (V-11.20):
    Телосложение + Сила + the item's modifier − PEN(str), the range term at ``throw_range``, the
    size, prone, immobilised and blind terms likewise. V-14.5: + ``into_melee_dice`` (default 0) at a
    target at point blank of one of the shooter's allies (:func:`_into_melee`). int64, may be ≤ 0 (a
    desperate roll, V-1.4)."""
    d = foe(S, a)
    target = F[d, P_SIZE] + (IMMOBILISED_DICE if S[d, S_IMMOBILISED] != 0 else 0)
    if opts[O_INTO_MELEE_DICE] != 0 and _into_melee(F, S, a, d):
        target += opts[O_INTO_MELEE_DICE]
    if S[d, S_PRONE] != 0 or S[d, S_LYING] != 0:
        target -= 1
    if shot == SH_THROW:
        return (F[a, P_THROW_POOL] + _missile(F, S, a, shot, W_MOD) + SHOT_DICE[shot]
                + _range_dice(F, S, opts, a, shot) + target - S[a, S_PEN_STR] + (BLIND_DICE if _blind(S, a) else 0))
    return (F[a, P_SHOOT_POOL] + _gun(F, a, W_MOD) + SHOT_DICE[shot] + _dial_dice(F, opts, a)
            + _range_dice(F, S, opts, a) + target - S[a, S_PEN_SHOOT] + (BLIND_DICE if _blind(S, a) else 0)
            + BRACE_DICE * S[a, S_BRACED] + S[a, S_ORD + ORD_SHOOT])


@rule
def _sector_shots(F, S, opts, tt, st, cnt, i, cost):
    """V-14.8, V-11.13: before ``i``'s action in a fight of several, each enemy in sector control (in
    row order; in the fight, not away; the sector covers every enemy in front, V-11.13) fires one
    sector shot at ``i`` as :func:`_sector_shot` (control ends if it is engaged; none if its gun
    cannot fire at ``i``), turning to ``i`` for the shot and back to its foe after. Returns whether
    the action goes ahead (as :func:`_sector_shot`)."""
    side = F[i, P_SIDE]
    for w in range(F.shape[0]):
        if F[w, P_SIDE] == side or S[w, S_SECTOR] == 0 or S[w, S_OUT] != 0 or S[w, B_AWAY] != 0:
            continue
        if _engaged(F, S, w):
            S[w, S_SECTOR] = 0
            continue
        aim = S[w, B_FOE]
        S[w, B_FOE] = i
        if _can_shoot(F, S, w, SH_HIP):
            S[w, S_SECTOR] -= 1
            _look(F, S, opts, st, w)
            _fire(F, S, opts, tt, st, cnt, w, SH_HIP)
        S[w, B_FOE] = aim
        if _stops(S, i):
            return False
    return S[i, S_AP] >= cost


@rule
def _into_melee(F, S, a, d):
    """V-14.5: is ``d`` at point blank (V-10.1) of an ally of ``a`` in the fight (not out, not away):
    a shot or throw at it goes into melee (bool)?"""
    for j in range(F.shape[0]):
        if (j != a and F[j, P_SIDE] == F[a, P_SIDE] and S[j, S_OUT] == 0 and S[j, B_AWAY] == 0
                and apart(S, j, d) <= REACH):
            return True
    return False


@rule
def _supported(S, i):
    """V-11.16, V-10.8: may ``i`` brace its gun (or keep it braced)? Prone (knocked down or lying by
    choice) or behind cover (bool)."""
    return S[i, S_PRONE] != 0 or S[i, S_LYING] != 0 or S[i, S_COVER] > 0


@rule
def _pays_shot_after(F, S, i, cost):
    """V-15.5: do the AP left after an action of ``cost`` AP still pay ``i``'s tactic's shot or a
    standard one, whichever is cheaper, above the reserve (bool)?"""
    return S[i, S_AP] - F[i, P_T_KEEP] >= cost + min(SHOT_COST[F[i, P_T_SHOT]], SHOT_COST[SH_STANDARD])


@rule
def _wants_lie(F, S, i):
    """V-10.8, V-15.1: does ``i``'s tactic (``prone``) lie down now (quick, 1 AP)? It stands (the
    caller has checked it is not engaged) and the AP left after lying down still pay a shot
    (:func:`_pays_shot_after`) (bool)."""
    return (F[i, P_T_PRONE] != 0 and S[i, S_LYING] == 0 and S[i, S_PRONE] == 0
            and _pays_shot_after(F, S, i, 1))


@rule
def _wants_brace(F, S, i):
    """V-15.5: does ``i``'s tactic brace its gun now? It braces, the gun is supported
    (:func:`_supported`) and not yet braced, and the AP left after the brace still pay the tactic's
    shot or a standard one, whichever is cheaper, above the reserve (turn 1 of ``braced_aimed``:
    brace and a standard shot) (bool)."""
    if F[i, P_T_BRACE] == 0 or S[i, S_BRACED] != 0 or not _supported(S, i):
        return False
    return _pays_shot_after(F, S, i, 1)


@rule
def _brace(F, S, i):
    """V-11.9: ``i`` braces its gun (quick, 1 AP: +1 to its shots) if :func:`_wants_brace`."""
    if _wants_brace(F, S, i):
        S[i, S_AP] -= 1
        S[i, S_BRACED] = 1


@rule
def _continuation(opts, st):
    """V-11.12: the long burst's continuation: one d20 at a time, each counted by V-1.3 and added,
    until a die shows 1–4; the stopping die counts too (a 1 adds ``one_value``) or not
    (``stop_die = not_counted``). Returns the successes added (int64)."""
    one = opts[O_ONE_VALUE]
    total = 0
    while True:
        face = roll_die(st, 20)
        if face <= 4:
            if face == 1 and opts[O_STOP_DIE] != STOP_DIE_NOT_COUNTED:
                total += one
            return total
        total += _successes(face, one)


@rule
def _after_shot(F, S, opts, a, shot):
    """V-11.14: the reload a shot makes due: after every shot of a single-shot gun (a), after 3 hip
    shots in a row (b; any other shot resets the count), after a long burst (c); with ``ammo =
    magazine`` when the magazine is empty (a shot takes a round, a long burst all of them)."""
    if shot == SH_HIP:
        S[a, S_HIP_CHAIN] += 1
        if S[a, S_HIP_CHAIN] >= HIP_CHAIN:
            S[a, S_RELOAD] = 1
    else:
        S[a, S_HIP_CHAIN] = 0
    if shot == SH_BURST or _gun(F, a, W_SINGLE_SHOT) != 0:
        S[a, S_RELOAD] = 1
    if opts[O_AMMO] == AMMO_MAGAZINE:
        S[a, S_AMMO] = 0 if shot == SH_BURST else S[a, S_AMMO] - 1
        if S[a, S_AMMO] <= 0:
            S[a, S_RELOAD] = 1


@rule
def _reload_cost(F, opts, i):
    """V-11.8, V-11.14: AP of a reload: 2; 3 for a gun with ``long_reload`` under ``long_reload =
    extended``. int64."""
    if opts[O_LONG_RELOAD] == LONG_RELOAD_EXTENDED and _gun(F, i, W_LONG_RELOAD) != 0:
        return 3
    return 2


@rule
def _reload(F, S, opts, i):
    """V-11.8: a reload (standard action, :func:`_reload_cost` AP) readies the gun, refills its
    magazine and ends a chain of hip shots."""
    S[i, S_AP] -= _reload_cost(F, opts, i)
    S[i, S_RELOAD] = 0
    S[i, S_HIP_CHAIN] = 0
    S[i, S_AMMO] = _gun(F, i, W_MAGAZINE)


@rule
def _shot_spend(F, S, opts, a, s, shot):
    """V-12.1–V-12.5, V-15.9: a hit with ``s`` ≥ 1 successes (a shot's, or a throw's after the dodge);
    each extra success buys, by the shooter's spending policy: a trauma at the crit of the gun or the
    thrown item (``trauma_first``; none with crit "—"), +1 damage (``damage_only``, and what is left),
    suppression (``intimidate``: 1 Will each, 2 from a long burst, V-12.3; a throw's 1, V-12.5);
    ``suppress_covered`` suppresses when the target rolls at least the shooter's ``suppress_at``
    armour + shield + cover dice against it, else as ``trauma_first``. ``disarm_first``: with
    ``ranged_disarm = on`` a disarm at the crit once if the target holds a melee weapon, the rest
    damage (as melee's V-4.5); ``off`` (V-12.4) spends as ``damage_only``.

    Returns (damage, traumas, disarm, will) : int64 tuple.
    """
    extra = s - 1
    crit = _missile(F, S, a, shot, W_CRIT)
    policy = F[a, P_ATTACK_SPENDING]
    if policy == AS_SUPPRESS_COVERED:
        na, ns, nc = _missile_armour_dice(F, S, opts, a, foe(S, a), _missile(F, S, a, shot, W_PIERCING))
        policy = AS_INTIMIDATE if na + ns + nc >= F[a, P_SUPPRESS_AT] else AS_TRAUMA_FIRST
    traumas = 0
    disarm = 0
    will = 0
    if policy == AS_TRAUMA_FIRST and crit > 0:
        traumas = extra // crit
        extra -= traumas * crit
    elif (policy == AS_DISARM_FIRST and opts[O_RANGED_DISARM] == RANGED_DISARM_ON and crit > 0 and extra >= crit
          and _slot(F, S, foe(S, a)) == SLOT_WEAPON):
        disarm = 1
        extra -= crit
    elif policy == AS_INTIMIDATE:
        will = extra * (2 if shot == SH_BURST else 1)
        extra = 0
    return _missile(F, S, a, shot, W_DAMAGE) + extra, traumas, disarm, will


@rule
def _shot_armour_dice(F, S, opts, a, d):
    """V-5.4, V-11.17, V-4.7, V-5.7: dice of ``d``'s armour roll against ``a``'s shot
    (:func:`_missile_armour_dice` with the gun's armour piercing). Returns (armour, shield, cover)
    dice."""
    return _missile_armour_dice(F, S, opts, a, d, _gun(F, a, W_PIERCING))


@rule
def _missile_armour_dice(F, S, opts, a, d, piercing):
    """V-5.4, V-11.17, V-4.7, V-5.7: dice of ``d``'s armour roll against a shot or throw of ``a``:
    armour class + quality, the held shield's class (unless ``shield = ignore``; ``cover_like``
    counts it here), less ``armour_piercing_dice`` when ``piercing`` (armour dice first, never the
    cover dice **[reading]**), and the cover's strength. Returns (armour, shield, cover) dice."""
    na = S[d, S_ARMOUR] + F[d, P_ARMOUR_QUALITY]
    ns = S[d, S_SHIELD] if opts[O_SHIELD] != SHIELD_IGNORE else 0
    if piercing != 0:
        cut = opts[O_ARMOUR_PIERCING_DICE]
        take = min(cut, na)
        na -= take
        ns = max(ns - (cut - take), 0)
    return na, ns, S[d, S_COVER]


@rule
def _wear(S, d, ones, cover_first):
    """V-11.17: the 1s of an armour roll against a shot lower the cover first, then the armour,
    then the shield (``cover_ones = cover_first``), or the armour, the shield, then the cover.
    Returns the armour and shield class lost (int64)."""
    lost_c = 0
    if cover_first:
        lost_c = min(ones, S[d, S_COVER])
        ones -= lost_c
    lost_a = min(ones, S[d, S_ARMOUR])
    ones -= lost_a
    lost_s = min(ones, S[d, S_SHIELD])
    ones -= lost_s
    if not cover_first:
        lost_c = min(ones, S[d, S_COVER])
    S[d, S_COVER] -= lost_c
    S[d, S_ARMOUR] -= lost_a
    S[d, S_SHIELD] -= lost_s
    return lost_a + lost_s


@rule
def _shot_armour_roll(F, S, opts, st, cnt, a, d, piercing):
    """V-5.4, V-11.17: ``d`` rolls armour + shield + cover dice (in that order) against ``a``'s shot
    or throw (``piercing``: its armour piercing); its 1s wear them down (:func:`_wear`). Returns the
    damage removed (int64)."""
    na, ns, nc = _missile_armour_dice(F, S, opts, a, d, piercing)
    one = opts[O_ONE_VALUE]
    successes = 0
    ones = 0
    for _ in range(na + ns + nc):
        face = roll_die(st, 20)
        if face == 1:
            ones += 1
        else:
            successes += _successes(face, one)
    cnt[C_DEGRADED + F[d, P_SIDE]] += _wear(S, d, ones, opts[O_COVER_ONES] != COVER_ONES_ARMOUR_FIRST)
    if not _supported(S, d):  # V-11.16: cover worn away, no brace
        S[d, S_BRACED] = 0
    return _armour_reduction(opts, successes, ones)


@rule
def _shoot(F, S, opts, tt, st, cnt, a, shot):
    """V-11.2–V-11.5: ``a`` pays ``shot``'s AP and fires it (:func:`_fire`)."""
    S[a, S_AP] -= SHOT_COST[shot]
    _fire(F, S, opts, tt, st, cnt, a, shot)


@rule
def _fire(F, S, opts, tt, st, cnt, a, shot):
    """V-11.1, V-11.12, V-11.15, V-12: ``a`` fires ``shot`` at its foe: the shooting
    check (prayable, V-1.6: a burst's first check only), a long burst's continuation dice (none
    after a desperate check with ``burst_desperate = no_continuation``; a second chain from a
    high-capacity magazine with ``high_capacity = extra_chain``): added to the check, whose total
    decides the hit (``burst_hit = total``), or rolled only after a check of ≥ 1 success, which is
    then a hit whatever they add (``first_check``: a total below 1 is a hit with no extra success
    **[reading]**); no defence or dodge answers
    it; ≥ 1 success hits: the gun's damage and the bought extras through the armour + cover roll
    (Will damage never stopped, V-12.3, :func:`_hit`); then the reload it makes due and the GM's
    jam (:func:`_jam`, V-11.14 d). Counted as an attack of a
    (miss, armour_stopped or hit). A hit that takes Health from a shooter in sector control (or any
    hit, ``overwatch_break = any_hit``) ends its control (V-11.13)."""
    pool = _shot_pool(F, S, opts, a, shot)
    s = _fighter_check(F, S, opts, st, pool, a)
    first = opts[O_BURST_HIT] == BURST_HIT_FIRST_CHECK
    if (shot == SH_BURST and (not first or s >= 1)
            and (pool > 0 or opts[O_BURST_DESPERATE] != BURST_NO_CONTINUATION)):
        s += _continuation(opts, st)
        if opts[O_HIGH_CAPACITY] == HIGH_CAPACITY_EXTRA_CHAIN and _gun(F, a, W_HIGH_CAPACITY) != 0:
            s += _continuation(opts, st)
        if first:
            s = max(s, 1)
    _after_shot(F, S, opts, a, shot)
    _jam(F, S, opts, a)
    if opts[O_BRACE] == BRACE_NEXT_SHOT:
        S[a, S_BRACED] = 0
    outcome = OUT_MISS
    if s >= 1:
        spread = 0
        if shot == SH_BURST and F.shape[0] > 2 and F[a, P_SPREAD] != 0:
            spread = _spread_targets(F, S, a, s)
        outcome = _hit(F, S, opts, tt, st, cnt, a, s - spread, shot)
        if spread > 0:
            _spread(F, S, opts, tt, st, cnt, a, spread)
    cnt[C_ATTACKS + F[a, P_SIDE] * N_OUTCOMES + outcome] += 1


@rule
def _spread_targets(F, S, a, s):
    """V-15.9 ``spread = one_each``, V-11.12: how many other targets a long burst of ``s`` ≥ 1
    successes spreads to: the enemies of ``a`` in the fight (not out, not away) within close range
    (2 m) of its foe, at most ``s`` − 1 (one success stays on the foe). int64."""
    d = foe(S, a)
    n = 0
    for j in range(F.shape[0]):
        if n < s - 1 and _spread_target(F, S, a, d, j):
            n += 1
    return n


@rule
def _spread_target(F, S, a, d, j):
    """V-11.12: may ``a``'s long burst at ``d`` spread to ``j`` (an enemy in the fight, not ``d``, within
    2 m of ``d``)? bool."""
    return (j != d and F[j, P_SIDE] != F[a, P_SIDE] and S[j, S_OUT] == 0 and S[j, B_AWAY] == 0
            and apart(S, j, d) <= REACH_LONG)


@rule
def _spread(F, S, opts, tt, st, cnt, a, n):
    """V-15.9 ``one_each``, V-11.12: after the hit on its foe, ``a``'s long burst puts one success on
    each of the first ``n`` other targets in row order (:func:`_spread_target`, found before the
    hit): each a hit of its own (the gun's damage through that target's armour + cover roll, no
    extra success, :func:`_hit`), not counted as another attack **[reading]**."""
    d = foe(S, a)
    for j in range(F.shape[0]):
        if n > 0 and _spread_target(F, S, a, d, j):
            n -= 1
            S[a, B_FOE] = j
            _hit(F, S, opts, tt, st, cnt, a, 1, SH_BURST)
            S[a, B_FOE] = d


@rule
def _hit(F, S, opts, tt, st, cnt, a, s, shot):
    """V-12, V-11.17, V-11.13: a shot or throw of ``a`` hits its foe with ``s`` ≥ 1 successes: the
    damage and the bought extras (:func:`_shot_spend`) through the armour + cover roll (none for no
    damage; Will damage never stopped, V-12.3), landed as a blow (:func:`_land`: a hit for 0 damage
    too, V-16.2). A hit that takes Health from a fighter in sector control (or any hit,
    ``overwatch_break = any_hit``) ends its control. Returns the outcome (``OUT_HIT`` or
    ``OUT_ARMOUR_STOPPED``)."""
    d = foe(S, a)
    if d < 0:  # (never: an index guard, kernel docstring)
        return OUT_MISS
    outcome = OUT_HIT
    damage, traumas, disarm, will = _shot_spend(F, S, opts, a, s, shot)
    final = damage
    if damage > 0:
        final = max(damage - _shot_armour_roll(F, S, opts, st, cnt, a, d, _missile(F, S, a, shot, W_PIERCING)), 0)
    if _land(F, S, opts, tt, st, cnt, a, d, damage, final, traumas, disarm, will):
        outcome = OUT_ARMOUR_STOPPED
    if final >= 1 or opts[O_OVERWATCH_BREAK] == OVERWATCH_BREAK_ANY_HIT:
        S[d, S_SECTOR] = 0
    return outcome


@rule
def _jam(F, S, opts, a):
    """V-11.14 (d), V-3.17: with ``gm_reload_tokens = on``, after a shot of a player-side fighter
    (not a GM character, option ``npc``) whose foe is the GM's, the GM spends a Chernobog token from
    its side's pool (``npc_tokens_a``/``_b``, shared with V-3.17's reactions and prayers) to jam the
    gun, making a reload due, while it has one and the gun needs no reload already
    **[reading]**."""
    e = foe(S, a)
    if (opts[O_GM_RELOAD_TOKENS] == GM_RELOAD_TOKENS_ON and not _is_npc(F, opts, a) and _is_npc(F, opts, e)
            and S[a, S_RELOAD] == 0 and _tokens_left(F, S, opts, e) >= 1):
        _spend_token(F, S, e)
        S[a, S_RELOAD] = 1


@rule
def _throw(F, S, opts, tt, st, cnt, a):
    """V-11.7, V-11.20, V-12.5: ``a`` throws the next item of its supply at its foe (2 AP, readying it
    first for 1 AP when its hand is empty, :func:`_throw_cost`): the foe may dodge (V-4.4: its
    reaction policy, any but ``none``, dodges; it cannot defend) against the item's modifier; the
    Сила check (:func:`_shot_pool`, prayable V-1.6), then the dodge check, each followed by its
    DMGCHK strain (V-6.11); successes left after the dodge (V-4.4, exposure too) hit: the item's
    damage and extras (:func:`_hit`). The item is spent (it lands by the target); the next item is
    in hand under ``throw_ready = free``, else the hand is empty. Counted as an attack of ``a``
    (miss, dodged, armour_stopped or hit)."""
    d = foe(S, a)
    if a < 0 or d < 0:  # (never: an index guard, kernel docstring)
        return
    S[a, S_AP] -= _throw_cost(S, a)
    react = R_DODGE if _choose_reaction(F, S, opts, a, d, K_STANDARD) != R_NONE else R_NONE
    if react != R_NONE:
        _take_reaction(F, S, opts, d)
    sa = _fighter_check(F, S, opts, st, _shot_pool(F, S, opts, a, SH_THROW), a)
    _strain(F, S, a)
    r = 0
    if react == R_DODGE:
        pool = F[d, P_AGILITY] + F[d, P_AGIL_SKILL] - _missile(F, S, a, SH_THROW, W_MOD) - S[d, S_PEN_AGIL]
        r = _fighter_check(F, S, opts, st, pool, d)
        _strain(F, S, d)
    outcome, s, _, _, d_init = _resolve(F, S, opts, a, d, react, sa, r)
    S[d, S_INIT_BONUS] += d_init
    if s > 0:
        outcome = _hit(F, S, opts, tt, st, cnt, a, s, SH_THROW)
    S[a, S_THROWN] += 1
    S[a, S_THROW_READY] = 1 if opts[O_THROW_READY] == THROW_READY_FREE else 0
    cnt[C_ATTACKS + F[a, P_SIDE] * N_OUTCOMES + outcome] += 1


@rule
def _sector_shot(F, S, opts, tt, st, cnt, i, cost):
    """V-11.13: before ``i``'s action of ``cost`` AP in its turn, its foe in sector control
    fires one sector shot at it (a hip shot, −2 and every other modifier, V-11.6) with one of its
    set-aside AP: not if it is engaged now (control ends) or its gun cannot fire. The shot counts
    towards 3 hip shots in a row (V-11.14). Returns whether the action goes ahead: not if the fight
    is decided or ``i`` is out (:func:`.groups._stops`), or the shot's shock left ``i`` fewer AP
    than the action costs (bool). In a fight of several it fires only when ``i`` is its foe's foe,
    or, with ``overwatch_shooters = every`` (V-14.8), every enemy in sector control fires
    (:func:`_sector_shots`)."""
    if F.shape[0] > 2 and opts[O_OVERWATCH_SHOOTERS] == OVERWATCH_SHOOTERS_EVERY:
        return _sector_shots(F, S, opts, tt, st, cnt, i, cost)
    w = foe(S, i)
    if w < 0 or S[w, S_SECTOR] == 0 or foe(S, w) != i:  # (w < 0 never: an index guard, kernel docstring)
        return True
    if _engaged(F, S, w):
        S[w, S_SECTOR] = 0
        return True
    if not _can_shoot(F, S, w, SH_HIP):
        return True
    S[w, S_SECTOR] -= 1
    _look(F, S, opts, st, w)
    _fire(F, S, opts, tt, st, cnt, w, SH_HIP)
    if _stops(S, i):
        return False
    return S[i, S_AP] >= cost


@rule
def _set_aside(F, S, opts, i):
    """V-11.13, V-15.7: a tactic with sector control, not engaged, with its gun in hand, ends its
    turn setting aside every AP left (``overwatch_cost = reserve``, at least 1), or pays 1 AP to
    declare and sets aside the rest (``declare_quick``, at least 2 AP)."""
    if F[i, P_T_OVERWATCH] == 0 or not _gun_in_hand(S, i) or _engaged(F, S, i):
        return
    ap = S[i, S_AP]
    if opts[O_OVERWATCH_COST] == OVERWATCH_DECLARE_QUICK:
        ap -= 1
    if ap >= 1:
        S[i, S_SECTOR] = ap
        S[i, S_AP] = 0
