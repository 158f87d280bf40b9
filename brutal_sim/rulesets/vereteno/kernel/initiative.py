"""V-2 round, action points and initiative: a fresh fight's state (V-5.1, V-2.1, V-5.4), the AP
refill less carried-over shock (V-2.1, V-6.3), the initiative roll with surprise (V-2.4, V-2.5) and
the round's turn order (V-2.4, ``B_ORDER`` of the battle block). Imports :mod:`.checks`."""

from __future__ import annotations

from ....core.battle import B_AWAY, B_INIT, B_INIT_GROUP, B_INIT_TIE, B_ORDER, STATE_BLOCK
from ....toolbox.battle import AWAY_INIT, arrive, start_battle
from ....toolbox.jit import inline_rule, rule
from ....toolbox.rng import roll_die
from ..layout import (
    HAND_GUN,
    NS,
    P_AGIL_SKILL,
    P_AP,
    P_ARMOUR_CLASS,
    P_ARRIVE,
    P_FAST_HAND,
    P_HEALTH,
    P_PRONE,
    P_SHIELD_CLASS,
    P_SIDE,
    P_T_OVERWATCH,
    P_T_SHOT,
    P_WILL,
    S_AP,
    S_AP_DEBT,
    S_ARMOUR,
    S_DROPPED,
    S_HEALTH,
    S_INIT_BONUS,
    S_INIT_ROLL,
    S_LYING,
    S_SHIELD,
    S_STEALTH,
    S_SURPRISE,
    S_UNREADY,
    S_WILL,
    SH_NONE,
    SLOT_GUN,
    SLOT_WEAPON,
    W_INIT,
    W_MOD,
    W_PRESENT,
)
from ..options import O_INIT_WEAPON_TERM, O_STEALTH_ATTACK, O_SURPRISE_INIT
from .checks import _gun_in_hand, _slot, _wb

#: V-2.5: the d20 the surprising side adds to its first initiative roll
SURPRISE_DICE = 2


@rule
def _reset(F, S):
    """Fresh state ``S`` int64[N, NS] for a fight: a fresh battle block (``start_battle``: every
    fighter in, a duel's two fighters each other's foe, at x = 0); full Health, Will (V-5.1) and AP (V-2.1), armour
    and shield at their class (V-5.4), no conditions; a fighter whose tactic shoots (or keeps sector
    control) with its gun in hand, the melee weapon stowed (V-10.9), any other with its melee
    weapon; one holding a gun or melee weapon without the talent ``fastest_hand`` has it still to
    ready (V-10.9, option ``start_ready``); a fighter with ``prone`` lies prone by choice (V-10.6,
    V-10.8)."""
    start_battle(F, S)
    for i in range(F.shape[0]):
        for k in range(STATE_BLOCK, NS):
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
def _surprise(F, S, opts, side):
    """V-2.5: ``side`` (0 a, 1 b) caught its foes off guard: for each of its fighters the surprise
    dice join its first initiative roll and its stealth attack (option ``stealth_attack``) is due."""
    for i in range(F.shape[0]):
        if F[i, P_SIDE] == side:
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
    """V-2.4, V-2.5: each fighter's initiative base (:func:`_initiative_base`), in row order (a then b
    in a duel); a fighter still away (V-14, ``B_AWAY``) rolls nothing (it rolls when it arrives,
    :func:`_arrivals`)."""
    for i in range(F.shape[0]):
        if S[i, B_AWAY] == 0:
            _initiative_base(F, S, opts, st, i, first_round)


@rule
def _initiative_base(F, S, opts, st, i, first_round):
    """V-2.4, V-2.5: fighter ``i``'s initiative base: 1d20 + weapon term (initiative or, by option,
    modifier, of the weapon or gun in hand now) + bare Проворство; a fighter of the surprising side
    (round 1 only) adds ``SURPRISE_DICE`` more d20 or keeps the highest of three. +2 bonuses earned
    so far join the new base (``init_roll = every_round``; at the first roll there are none)."""
    roll = roll_die(st, 20)
    if first_round and S[i, S_SURPRISE] != 0:
        for _ in range(SURPRISE_DICE):
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
def _arrivals(F, S, opts, st, rnd):
    """V-14: the fighters joining in round ``rnd`` (``arrive_round``) join the fight (the shared
    ``arrive``, in row order) and each rolls its initiative base then (:func:`_initiative_base`);
    the round's order (:func:`_order`) places them among the others."""
    if arrive(F, S, st, 20, rnd, False) == 0:
        return
    for i in range(F.shape[0]):
        if S[i, B_AWAY] == 0 and F[i, P_ARRIVE] == rnd:
            _initiative_base(F, S, opts, st, i, False)


@inline_rule
def _tied(S, x, y):
    """Whether rows x and y tie for the turn order: the same base + bonuses (``B_INIT``) and the same
    fresh d20 of a tie (``B_INIT_TIE``)."""
    return S[x, B_INIT] == S[y, B_INIT] and S[x, B_INIT_TIE] == S[y, B_INIT_TIE]


@rule
def _sort_places(S, lo, hi, key):
    """Stable insertion sort of the turn-order places ``lo … hi−1`` (``B_ORDER``) by column ``key``
    of their rows, higher first."""
    for p in range(lo + 1, hi):
        r = S[p, B_ORDER]
        q = p
        while q > lo and S[r, key] > S[S[q - 1, B_ORDER], key]:
            S[q, B_ORDER] = S[q - 1, B_ORDER]
            q -= 1
        S[q, B_ORDER] = r


@rule
def _break_ties(F, S, st, present):
    """V-2.4: fighters whose totals tie roll fresh d20 (each tied group in turn order, its members in
    row order: a then b in a duel), the higher first within the group's places (the first ``present``
    places: those still away are last and roll none); those whose fresh
    dice tie too roll again, until they differ. ``B_INIT_GROUP`` of place p is its tie group while
    the order is settled."""
    n = F.shape[0]
    for p in range(n):
        S[p, B_INIT_GROUP] = 0
        S[p, B_INIT_TIE] = 0
    groups = 0
    p = 0
    while p < present:
        end = p + 1  # the tied group at p (a tie keeps row order)
        while end < n and S[end, B_INIT_GROUP] == S[p, B_INIT_GROUP] and _tied(S, S[p, B_ORDER], S[end, B_ORDER]):
            end += 1
        if end - p == 1:
            p += 1
            continue
        groups += 1
        for q in range(p, end):
            S[S[q, B_ORDER], B_INIT_TIE] = roll_die(st, 20)
            S[q, B_INIT_GROUP] = groups
        _sort_places(S, p, end, B_INIT_TIE)


@rule
def _order(F, S, st, group):
    """V-2.4: this round's turn order, written to ``B_ORDER`` (row p: the fighter acting at place p):
    the higher base + bonuses (``B_INIT``) first, each fighter in row order placed after those it
    does not beat (a stable insertion sort); tied fighters by fresh d20 (:func:`_break_ties`). A
    fighter still away (V-14, ``B_AWAY``; read only with the drivers' flag ``group``, None in a duel)
    is placed last (``AWAY_INIT``), in no tie."""
    tied = False
    present = F.shape[0]
    for p in range(F.shape[0]):
        t = S[p, S_INIT_ROLL] + S[p, S_INIT_BONUS]
        if group is not None:
            if S[p, B_AWAY] != 0:
                t = AWAY_INIT
                present -= 1
        S[p, B_INIT] = t
        q = p
        while q > 0:
            r = S[q - 1, B_ORDER]
            if r < 0 or S[r, B_INIT] >= t:  # (r < 0 never: an index guard, kernel docstring)
                tied = tied or (r >= 0 and S[r, B_INIT] == t)
                break
            S[q, B_ORDER] = r
            q -= 1
        S[q, B_ORDER] = p
    if tied:
        _break_ties(F, S, st, present)
