"""Ranged combat (W-7): range bands, the shot's BS target, the shot through the W-4 pipeline
(location, damage, criticals, Fury), reloads.

Rules: W-7.1, W-7.2, W-7.3, W-7.4, W-7.5, W-7.6, W-7.7, W-7.8, W-7.9, W-7.10, W-7.13, W-7.14, W-12.3.

The missile weapon is the fighter's weapon slot ``SLOT_MISSILE`` (main hand), a second one-handed
one ``SLOT_MISSILE_OFF`` (off hand, W-7.8); while they are in hand (``S_MISSILE``) the melee items
are stowed. Nothing here runs in a duel without missile weapons.

Arguments are those of the kernel package (:mod:`brutal_sim.rulesets.wfrp2e.kernel`); ``slot`` is
one of the two missile slots, ``band`` a range band (``BAND_*``), ``aim`` the aim bonus (0, or
:func:`_aim_bonus`, W-7.3).
"""

from __future__ import annotations

from ....core.battle import B_SIDE_IN
from ....toolbox.battle import foe, foe_distance
from ....toolbox.jit import rule
from ....toolbox.rng import roll_die
from ..layout import (
    BAND_EXTREME,
    BAND_LONG,
    BAND_OUT,
    BAND_SHORT,
    C_ATTACKS,
    N_OUTCOMES,
    OUT_HIT,
    OUT_MISS,
    P_AG,
    P_AG_PENALTY,
    P_AMBIDEXTROUS,
    P_BS,
    P_MASTER_GUNNER,
    P_RAPID_RELOAD,
    P_S,
    P_SHARPSHOOTER,
    P_SIDE,
    S_ENGAGED,
    S_ENTANGLED,
    S_HELD_AIM,
    S_HELD_BAND,
    S_HELD_IN,
    S_HELD_SLOT,
    S_HELPLESS,
    S_HOLD,
    S_LOADED,
    S_LOADED_OFF,
    S_OUT,
    S_PEN_AG,
    S_RELOADING,
    S_RUNNING,
    S_STUN,
    S_SUPPLY,
    S_SURPRISED,
    SLOT_MAIN,
    SLOT_MISSILE,
    SLOT_MISSILE_OFF,
    SLOT_OFF,
    W_BLACKPOWDER,
    W_ENGAGED_FIRE,
    W_LONG,
    W_RELOAD,
    W_RELOAD_FULL,
    W_SHIELD,
    W_SHORT,
    W_SHRAPNEL,
    W_SNARE,
    W_UNRELIABLE,
)
from ..options import (
    BS_BONUS_PLUS20,
    EXTREME_2X_LONG,
    EXTREME_AIM_ADDS,
    EXTREME_STACK,
    NO_LONG_DOUBLE_SHORT,
    O_BS_BONUS,
    O_EXTREME,
    O_EXTREME_MOD,
    O_MISFIRE_BAND,
    O_NO_LONG,
    O_SHRAPNEL,
    O_SNARE,
    O_VISIBILITY,
    SHRAPNEL_NO_TEST,
    SNARE_ENTANGLE,
)
from .attack import _strike
from .fortune import _fortune_allows
from .reactions import _in_grapple
from .tests import _capped, _test
from .weapons import _held, _wf


@rule
def _long_range(F, opts, i, slot):
    """W-7.4: the long range in yards of i's missile weapon in ``slot``; without one (pack 0) its
    short range (``no_long = short_is_max``) or twice it (``double_short``). int64."""
    long = _wf(F, i, slot, W_LONG)
    if long > 0:
        return long
    short = _wf(F, i, slot, W_SHORT)
    return 2 * short if opts[O_NO_LONG] == NO_LONG_DOUBLE_SHORT else short


@rule
def _band(F, S, opts, i, slot):
    """W-7.4, W-7.5: the range band of i's missile weapon in ``slot`` at its foe's distance: short
    (d ≤ short), long (≤ long), very long (≤ 2 × long, ``extreme = 2x_long``), else out of range.
    int64."""
    d = foe_distance(S, i)
    if d <= _wf(F, i, slot, W_SHORT):
        return BAND_SHORT
    long = _long_range(F, opts, i, slot)
    if d <= long:
        return BAND_LONG
    if opts[O_EXTREME] == EXTREME_2X_LONG and d <= 2 * long:
        return BAND_EXTREME
    return BAND_OUT


@rule
def _aim_bonus(F, i):
    """W-7.3: what aiming adds to i's next shot: +10 BS, with Sharpshooter +20 (W-7.14). int64."""
    return 20 if F[i, P_SHARPSHOOTER] != 0 else 10


@rule
def _reload_need(F, i, slot):
    """W-7.10: the half actions of i's reload of the weapon in ``slot`` after a shot: the weapon's,
    Rapid Reload −1, Master Gunner −1 more with a blackpowder weapon, not below 0 (a free reload:
    the weapon is ready again at once, as one with reload 0). int64."""
    n = _wf(F, i, slot, W_RELOAD)
    if F[i, P_RAPID_RELOAD] != 0:
        n -= 1
    if F[i, P_MASTER_GUNNER] != 0 and _wf(F, i, slot, W_BLACKPOWDER) != 0:
        n -= 1
    return n if n > 0 else 0


@rule
def _shot_auto(F, opts, a, slot, band):
    """W-7.13 Shrapnel: with ``shrapnel = no_test`` a's shot with ``slot`` within its short range hits
    without a BS test (the d100 only gives the location)."""
    return band == BAND_SHORT and opts[O_SHRAPNEL] == SHRAPNEL_NO_TEST and _wf(F, a, slot, W_SHRAPNEL) != 0


@rule
def _jams(F, opts, a, slot, roll):
    """W-7.13 the misfire dial: an Unreliable or Experimental weapon jams when the shot's d100 is
    above 100 − ``misfire_band``."""
    return _wf(F, a, slot, W_UNRELIABLE) != 0 and roll > 100 - opts[O_MISFIRE_BAND]


@rule
def _fire_slot(F, S, i, engaged):
    """W-7.8: the missile weapon i fires now: the main-hand one if loaded, else the off-hand one if
    loaded (``S_LOADED_OFF`` is 0 without one). ``engaged``: only a pistol-class one (W-7.6), and the
    off-hand one only with Ambidextrous (a reading of the tactics: at −20 in melee and −20 from the
    off hand a shot is worth less than drawing and attacking). −1 for none."""
    if S[i, S_LOADED] != 0 and (not engaged or _wf(F, i, SLOT_MISSILE, W_ENGAGED_FIRE) != 0):
        return SLOT_MISSILE
    if S[i, S_LOADED_OFF] != 0 and (not engaged or (_wf(F, i, SLOT_MISSILE_OFF, W_ENGAGED_FIRE) != 0
                                                     and F[i, P_AMBIDEXTROUS] != 0)):
        return SLOT_MISSILE_OFF
    return -1


@rule
def _unload(S, i, slot):
    """The weapon in ``slot`` is empty (W-7.10)."""
    if slot == SLOT_MISSILE:
        S[i, S_LOADED] = 0
    else:
        S[i, S_LOADED_OFF] = 0


@rule
def _shot_target(F, S, opts, a, slot, band, aim):
    """W-7.1: a's BS target for a shot with ``slot`` in ``band`` with aim bonus ``aim``.

    Short 0, long −20 (W-7.4); very long −30 with ``extreme_mod``: flat (aim and the long band do not
    add), aim_adds (−30 + aim), stack (−30 − 20 + aim) (W-7.5); the target running −20 (W-7.9);
    shooting in melee −20 (W-7.7: in a duel the target is engaged exactly when the shooter is, so
    the seed's and the rulebook's readings agree); the target holding a shield −10 unless surprised
    (W-7.9: aware); stunned +20 and in a grapple +20 (W-12.3) with ``bs_bonus = plus20``;
    ``visibility`` off; from the off hand −20 unless Ambidextrous (W-7.8); the sum capped by W-1.6.
    int64.
    """
    d = foe(S, a)
    if band == BAND_EXTREME:
        m = -30
        if opts[O_EXTREME_MOD] == EXTREME_AIM_ADDS:
            m += aim
        elif opts[O_EXTREME_MOD] == EXTREME_STACK:
            m += aim - 20
    else:
        m = aim
        if band == BAND_LONG:
            m -= 20
    if S[d, S_RUNNING] != 0:
        m -= 20
    if S[a, S_ENGAGED] != 0:
        m -= 20
    if S[d, S_SURPRISED] == 0 and ((_held(F, S, d, SLOT_OFF) and _wf(F, d, SLOT_OFF, W_SHIELD) != 0)
                                   or (_held(F, S, d, SLOT_MAIN) and _wf(F, d, SLOT_MAIN, W_SHIELD) != 0)):
        m -= 10
    if opts[O_BS_BONUS] == BS_BONUS_PLUS20:
        if S[d, S_STUN] > 0:
            m += 20
        if _in_grapple(S, d):
            m += 20
    m -= opts[O_VISIBILITY]
    if slot == SLOT_MISSILE_OFF and F[a, P_AMBIDEXTROUS] == 0:
        m -= 20
    return F[a, P_BS] + _capped(opts, m)



@rule
def _hold(F, S, a, slot, band, aim):
    """``attack``'s measure (:func:`.turn._first_shot`): the shot a's first turn fires now is held,
    not fired: its slot, band and aim kept (``S_HELD_*``, ``S_HOLD`` 2) and the turn stopped there,
    the count of its foe's side still in set aside (``S_HELD_IN``) so that ``decided`` holds: every
    step of a turn after a shot asks it before doing anything more."""
    side = F[foe(S, a), P_SIDE]
    S[a, S_HOLD] = 2
    S[a, S_HELD_SLOT] = slot
    S[a, S_HELD_BAND] = band
    S[a, S_HELD_AIM] = aim
    S[a, S_HELD_IN] = S[side, B_SIDE_IN]
    S[side, B_SIDE_IN] = 0


@rule
def _shoot(F, S, opts, grid, fx, st, cnt, a, slot, band, aim):
    """W-7.1, W-7.2: one shot of a (a standard attack) with ``slot`` in ``band`` with ``aim``: a BS
    test (fortune reroll as an attack), no parry or dodge; a hit goes through location, damage (flat,
    or SB + n thrown), Fury confirmed by the same BS target, TB and AP (Armour Piercing, Sure Shot),
    criticals (W-4, W-5). A helpless target is hit automatically, +1d10 (W-7.9); a Shrapnel shot
    within short range without a test (:func:`_shot_auto`). The weapon is empty afterwards unless
    its reload is 0 or free (W-7.10), both weapons with the fighter's supply spent (W-7.12). A jam
    (:func:`_jams`, read off the deciding d100) is a miss and empties the weapon, a reload under way
    lost. A Snare weapon's hit entangles a target still in the fight with ``snare = entangle``
    (W-7.13). Counted as an attack of a (miss or hit). Held instead while ``S_HOLD`` is 1
    (:func:`_hold`, ``attack``'s measure)."""
    if S[a, S_HOLD] == 1:
        _hold(F, S, a, slot, band, aim)
        return
    d = foe(S, a)
    target = _shot_target(F, S, opts, a, slot, band, aim)
    if _reload_need(F, a, slot) > 0:
        _unload(S, a, slot)
    if S[a, S_SUPPLY] > 0:  # W-7.12: a shot spends an item (thrown) or a round of ammunition
        S[a, S_SUPPLY] -= 1
        if S[a, S_SUPPLY] == 0:
            S[a, S_LOADED] = 0
            S[a, S_LOADED_OFF] = 0
    out = C_ATTACKS + F[a, P_SIDE] * N_OUTCOMES  # the outcomes of side a's or side b's attacks
    helpless = S[d, S_HELPLESS] != 0
    if helpless or _shot_auto(F, opts, a, slot, band):
        roll = roll_die(st, 100)
    else:
        ok, roll = _test(S, opts, st, a, target, _fortune_allows(opts, S, a, False))
        if not ok:
            if _jams(F, opts, a, slot, roll):
                _unload(S, a, slot)
                S[a, S_RELOADING] = 0
            cnt[out + OUT_MISS] += 1
            return
    if _jams(F, opts, a, slot, roll):
        _unload(S, a, slot)
        S[a, S_RELOADING] = 0
        cnt[out + OUT_MISS] += 1
        return
    cnt[out + OUT_HIT] += 1
    _strike(F, S, opts, grid, fx, st, cnt, a, d, slot, roll, target, helpless)
    if _wf(F, a, slot, W_SNARE) != 0 and opts[O_SNARE] == SNARE_ENTANGLE and S[d, S_OUT] == 0:
        S[d, S_ENTANGLED] = 1


@rule
def _escape(F, S, opts, st, i):
    """W-7.13 ``snare = entangle``: entangled i's turn, a full action to escape: a test of the higher
    of S and Ag (armour and critical Ag penalties off, W-9.2; no fortune reroll); a success frees it.
    A reload under way is lost (W-7.10)."""
    s = F[i, P_S]
    ag = F[i, P_AG] - F[i, P_AG_PENALTY] + _capped(opts, -S[i, S_PEN_AG])
    ok, _roll = _test(S, opts, st, i, s if s > ag else ag, False)
    if ok:
        S[i, S_ENTANGLED] = 0
    S[i, S_RELOADING] = 0


@rule
def _reload(F, S, i, halves):
    """W-7.10: i reloads its main-hand missile weapon when empty, else the off-hand one (W-7.8: one
    reload at a time), with up to ``halves`` half actions (:func:`_reload_need` in all); a reload
    in full actions needs both half actions of a turn (one full action a turn, n full = n turns in a
    row); an odd rest of one (Rapid Reload: 1½ full = one turn, then a half) takes a half action.
    Returns the half actions spent (0: a full action with one half action left waits)."""
    slot = SLOT_MISSILE if S[i, S_LOADED] == 0 else SLOT_MISSILE_OFF
    need = _reload_need(F, i, slot)
    used = 1
    if _wf(F, i, slot, W_RELOAD_FULL) != 0 and need - S[i, S_RELOADING] >= 2:
        if halves < 2:
            return 0
        used = 2
    S[i, S_RELOADING] += used
    if S[i, S_RELOADING] >= need:
        if slot == SLOT_MISSILE:
            S[i, S_LOADED] = 1
        else:
            S[i, S_LOADED_OFF] = 1
        S[i, S_RELOADING] = 0
    return used
