"""V-6 traumas and conditions: shock (V-6.3), a d66 trauma and its combat codes (V-6.2, V-8.4),
the DMGCHK strain of a check (V-6.11), and immobilisation with breaking free (V-6.9). Imports
:mod:`.checks` and :mod:`.armour`."""

from __future__ import annotations

from ....toolbox.battle import put_out
from ....toolbox.jit import rule
from ....toolbox.rng import roll_die
from ..layout import (
    CAUSE_DEATH,
    CAUSE_TRAUMA_OUT,
    HAND_DROPPED,
    HAND_GUN,
    HAND_GUN_DROPPED,
    HAND_THROW,
    P_AGIL_SKILL,
    P_AGILITY,
    P_SIDE,
    S_AP,
    S_AP_DEBT,
    S_BLEED,
    S_DEAD,
    S_DMG_TURN,
    S_DMGCHK,
    S_DROPPED,
    S_HALFSPD,
    S_IMMOBILISED,
    S_NO2H,
    S_PEN_AGIL,
    S_PEN_INFL,
    S_PEN_MELEE,
    S_PEN_SHOOT,
    S_PEN_STR,
    S_PRONE,
    S_THROW_READY,
    SLOT_WEAPON,
    T_BLEED,
    T_DEAD,
    T_DMG_TURN,
    T_DMGCHK,
    T_DROP,
    T_HALFSPD,
    T_NO2H,
    T_OUT,
    T_PEN_AGIL,
    T_PEN_INFL,
    T_PEN_MELEE,
    T_PEN_SHOOT,
    T_PEN_STR,
    T_PRONE,
    T_SHOCK,
    W_PRESENT,
)
from ..options import O_IMMOBILISED, O_SHOCK_TIMING
from .armour import _lose_health
from .checks import _fighter_check, _wb


@rule
def _shock(S, opts, i, n):
    """V-6.3: lose ``n`` AP; ``now``: off the current pool, the rest off the next refill;
    ``next_turn``: all off the next refill."""
    take = 0
    if opts[O_SHOCK_TIMING] == 0:
        take = min(n, S[i, S_AP])
    S[i, S_AP] -= take
    S[i, S_AP_DEBT] += n - take


@rule
def _drop(F, S, i):
    """V-8.4 DROP ("drops held items"), V-6.2: fighter ``i`` drops what it holds. Its gun, when in hand
    (bit ``HAND_GUN`` becomes ``HAND_GUN_DROPPED``): the melee weapon stays stowed, bare hands (V-5.6)
    until it picks the gun up (V-3.9, at the start of its turn); else a thrower's item to throw
    (``HAND_THROW``: the melee weapon stowed; V-11.20): its hand is empty, so the next throw readies
    an item first (1 AP, V-10.9), as after a throw; else its melee weapon in hand (``HAND_DROPPED``:
    bare hands until it picks it up, V-3.9). Empty hands (bare hands, or the gun already on the
    ground) drop nothing."""
    held = S[i, S_DROPPED]
    if (held & HAND_GUN) != 0:
        S[i, S_DROPPED] = held - HAND_GUN + HAND_GUN_DROPPED
    elif (held & HAND_THROW) != 0:
        S[i, S_THROW_READY] = 0
    elif (held & HAND_GUN_DROPPED) == 0 and F[i, _wb(SLOT_WEAPON) + W_PRESENT] != 0:
        S[i, S_DROPPED] = held | HAND_DROPPED


@rule
def _trauma(F, S, opts, tt, st, i):
    """V-6.2: roll d66 (tens then units) and apply the row's combat codes to fighter ``i`` (DROP:
    :func:`_drop`)."""
    tens = roll_die(st, 6)
    units = roll_die(st, 6)
    row = (tens - 1) * 6 + units - 1
    if tt[row, T_SHOCK] > 0:
        _shock(S, opts, i, tt[row, T_SHOCK])
    if tt[row, T_DROP] != 0:
        _drop(F, S, i)
    if tt[row, T_PRONE] != 0:
        S[i, S_PRONE] = 1
    S[i, S_PEN_MELEE] += tt[row, T_PEN_MELEE]
    S[i, S_PEN_AGIL] += tt[row, T_PEN_AGIL]
    S[i, S_PEN_INFL] += tt[row, T_PEN_INFL]
    S[i, S_PEN_SHOOT] += tt[row, T_PEN_SHOOT]
    S[i, S_PEN_STR] += tt[row, T_PEN_STR]
    S[i, S_DMGCHK] += tt[row, T_DMGCHK]
    S[i, S_BLEED] += tt[row, T_BLEED]
    S[i, S_DMG_TURN] += tt[row, T_DMG_TURN]
    S[i, S_HALFSPD] += tt[row, T_HALFSPD]
    if tt[row, T_NO2H] != 0:
        S[i, S_NO2H] = 1
    if tt[row, T_OUT] != 0:
        put_out(F, S, i, CAUSE_TRAUMA_OUT)
    if tt[row, T_DEAD] != 0:
        S[i, S_DEAD] = 1
        put_out(F, S, i, CAUSE_DEATH)


@rule
def _strain(F, S, i):
    """V-6.11 (DMGCHK): each melee or Проворство check costs the fighter 1 Health per such trauma."""
    if S[i, S_DMGCHK] > 0:
        _lose_health(F, S, i, S[i, S_DMGCHK])


@rule
def _immobilise(F, S, opts):
    """V-6.9: the fighters of the sides option ``immobilised`` names (bit 0 side a, bit 1 side b)
    start immobilised."""
    for i in range(F.shape[0]):
        S[i, S_IMMOBILISED] = (opts[O_IMMOBILISED] >> F[i, P_SIDE]) & 1


@rule
def _break_free(F, S, opts, st, i):
    """V-6.9: an immobilised fighter with 2 AP spends a standard action on an agility check
    (Ловкость + Проворство − Проворство penalties **[reading]**; V-6.11 strain); ≥ 1 success frees it."""
    if S[i, S_IMMOBILISED] == 0 or S[i, S_AP] < 2:
        return
    S[i, S_AP] -= 2
    r = _fighter_check(F, S, opts, st, F[i, P_AGILITY] + F[i, P_AGIL_SKILL] - S[i, S_PEN_AGIL], i)
    _strain(F, S, i)
    if r >= 1:
        S[i, S_IMMOBILISED] = 0
