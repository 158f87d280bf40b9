"""V-2 round, action points and initiative: a fresh duel's state (V-5.1, V-2.1, V-5.4), the AP
refill less carried-over shock (V-2.1, V-6.3), the initiative roll with surprise (V-2.4, V-2.5) and
who acts first (V-2.4). Imports :mod:`.checks`."""

from __future__ import annotations

from ....toolbox.jit import rule
from ....toolbox.rng import roll_die
from ..layout import (
    NS, P_AGIL_SKILL, P_AP, P_ARMOUR_CLASS, P_HEALTH, P_SHIELD_CLASS, P_T_OVERWATCH, P_T_SHOT, P_WILL, SH_NONE, S_AP,
    S_AP_DEBT, S_ARMOUR, S_HEALTH, P_FAST_HAND, SLOT_WEAPON, S_UNREADY,
    HAND_GUN, S_DROPPED, S_INIT_BONUS, S_INIT_ROLL, S_SHIELD, S_WILL, SLOT_GUN, W_INIT, W_MOD, W_PRESENT,
)
from ..layout import P_PRONE, S_LYING, S_STEALTH, S_SURPRISE
from ..options import O_INIT_WEAPON_TERM, O_STEALTH_ATTACK, O_SURPRISE_INIT
from .checks import _gun_in_hand, _slot, _wb


@rule
def _reset(F, S):
    """Fresh state ``S`` int64[2, NS] for a duel: full Health, Will (V-5.1) and AP (V-2.1), armour
    and shield at their class (V-5.4), no conditions; a fighter whose tactic shoots (or keeps sector
    control) with its gun in hand, the melee weapon stowed (V-10.9), any other with its melee
    weapon; one holding a gun or melee weapon without the talent ``fastest_hand`` has it still to
    ready (V-10.9, option ``start_ready``); a fighter with ``prone`` lies prone by choice (V-10.6,
    V-10.8)."""
    for i in range(2):
        for k in range(NS):
            S[i, k] = 0
        S[i, S_HEALTH] = F[i, P_HEALTH]
        S[i, S_WILL] = F[i, P_WILL]
        S[i, S_AP] = F[i, P_AP]
        S[i, S_ARMOUR] = F[i, P_ARMOUR_CLASS]
        S[i, S_SHIELD] = F[i, P_SHIELD_CLASS]
        if F[i, _wb(SLOT_GUN) + W_PRESENT] != 0 and (F[i, P_T_SHOT] != SH_NONE or F[i, P_T_OVERWATCH] != 0):
            S[i, S_DROPPED] = HAND_GUN
        holds = S[i, S_DROPPED] == HAND_GUN or F[i, _wb(SLOT_WEAPON) + W_PRESENT] != 0
        S[i, S_UNREADY] = 1 if holds and F[i, P_FAST_HAND] == 0 else 0
        S[i, S_LYING] = F[i, P_PRONE]


@rule
def _surprise(S, opts, i):
    """V-2.5: side ``i`` caught its foe off guard: the surprise dice join its first initiative roll
    and its stealth attack (option ``stealth_attack``) is due."""
    S[i, S_SURPRISE] = 1
    S[i, S_STEALTH] = opts[O_STEALTH_ATTACK]


@rule
def _refill(F, S, i):
    """V-2.1, V-6.3: the AP pool refills to the fighter's AP less any shock carried over."""
    ap = F[i, P_AP] - S[i, S_AP_DEBT]
    if ap < 0:
        S[i, S_AP_DEBT] = -ap
        ap = 0
    else:
        S[i, S_AP_DEBT] = 0
    S[i, S_AP] = ap


@rule
def _roll_initiative(F, S, opts, st, first_round):
    """V-2.4, V-2.5: each side's initiative base (a then b): 1d20 + weapon term (initiative or,
    by option, modifier, of the weapon or gun in hand now) + bare Проворство; the surprising side
    (round 1 only) adds two more d20 or keeps the highest of three. +2 bonuses earned so far
    join the new base (``init_roll = every_round``; at the first roll there are none)."""
    for i in range(2):
        roll = roll_die(st, 20)
        if first_round and S[i, S_SURPRISE] != 0:
            for _ in range(2):
                extra = roll_die(st, 20)
                if opts[O_SURPRISE_INIT] == 0:
                    roll += extra
                elif extra > roll:
                    roll = extra
        held = SLOT_GUN if _gun_in_hand(S, i) else _slot(F, S, i)  # V-11.1: the gun in hand counts
        term = F[i, _wb(held) + (W_MOD if opts[O_INIT_WEAPON_TERM] != 0 else W_INIT)]
        S[i, S_INIT_ROLL] = roll + term + F[i, P_AGIL_SKILL] + S[i, S_INIT_BONUS]
        S[i, S_INIT_BONUS] = 0


@rule
def _first(S, st):
    """V-2.4: who acts first this round (0 or 1): the higher base + bonuses; a tie is broken by
    fresh d20 pairs (a then b) until they differ."""
    ta = S[0, S_INIT_ROLL] + S[0, S_INIT_BONUS]
    tb = S[1, S_INIT_ROLL] + S[1, S_INIT_BONUS]
    if ta != tb:
        return 0 if ta > tb else 1
    while True:
        da = roll_die(st, 20)
        db = roll_die(st, 20)
        if da != db:
            return 0 if da > db else 1
