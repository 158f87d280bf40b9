"""V-2.3 turns in melee: the battle cry (seed 41–43, 62; V-6.4), the start of a fighter's turn
(V-2.3, V-10.9, V-6.5, V-6.7, V-3.9, V-6.9), its melee actions (V-2.5, V-7.1) and its turn in a
melee fight. The fight of rounds (V-2.6) that plays these turns is :mod:`.fight`. Imports
:mod:`.checks`, :mod:`.initiative`, :mod:`.actions`, :mod:`.armour`, :mod:`.traumas` and
:mod:`.melee`."""

from __future__ import annotations

from ....toolbox.battle import foe
from ....toolbox.jit import rule
from ..layout import (
    HAND_DROPPED,
    HAND_GUN,
    HAND_GUN_DROPPED,
    K_NONE,
    K_STANDARD,
    P_T_CRY,
    P_T_KEEP,
    S_AP,
    S_BLEED,
    S_DMG_TURN,
    S_DROPPED,
    S_IMMOBILISED,
    S_LYING,
    S_NO2H,
    S_OUT,
    S_PRONE,
    S_STEALTH,
    S_UNREADY,
    SLOT_WEAPON,
    W_TWO_HANDED,
)
from ..options import O_AP_REFILL, O_PICKUP, O_START_READY, START_READY_NO, STEALTH_EXTRA_ATTACK
from .actions import _plan
from .armour import _lose_health
from .checks import KIND_COST, _wb
from .grapple import _chokes, _grab
from .groups import _lost_melee_foe, _stops
from .initiative import _refill
from .melee import _attack
from .orders import _give_order, _influence, _inspire, _wants_inspire, _wants_order
from .traumas import _break_free


@rule
def _battle_cry(F, S, opts, st, i):
    """The battle cry of a duel (seed 41–43, 62; V-13.1, V-13.2): a standard action (2 AP), a threat
    at its foe or, for a fighter that taunts, negotiation (:func:`.orders._influence`)."""
    _influence(F, S, opts, st, i, None)


#: the steps at the start of a fighter's turn (V-2.3), in order (``_start_cost``, ``_start_step``): readying
#: the weapon in hand in its first turn (V-10.9), bleeding (V-6.5, no action), standing up when knocked
#: down (V-6.7), picking up its dropped melee weapon, then its dropped gun (V-3.9, V-8.4), breaking free
#: (V-6.9)
START_READY, START_BLEED, START_STAND, START_PICK_UP, START_PICK_UP_GUN, START_BREAK_FREE = range(6)
N_START_STEPS = 6


@rule
def _start_cost(F, S, opts, i, step):
    """The AP of the action fighter ``i`` takes at turn-start step ``step`` (``START_*``): readying
    (``start_ready = no``, still unready, 1 AP), standing up (knocked down: 1; without the AP its turn
    ends, :func:`_start_step`), picking up a dropped melee weapon it may wield (NO2H, V-8.4) or its
    dropped gun (option ``pickup``: 1, or 2), breaking free (immobilised: 2); 0 for bleeding, which
    is no action; −1 when there is nothing to do there, or a readying, pick-up or breaking free
    lacks its AP (the tactic's reserve does not apply). int64."""
    ap = S[i, S_AP]
    if step == START_READY:
        return 1 if S[i, S_UNREADY] != 0 and opts[O_START_READY] == START_READY_NO and ap >= 1 else -1
    if step == START_BLEED:
        return 0 if S[i, S_BLEED] + S[i, S_DMG_TURN] > 0 else -1
    if step == START_STAND:
        return 1 if S[i, S_PRONE] != 0 else -1
    if step == START_PICK_UP:
        if (S[i, S_DROPPED] & HAND_DROPPED) == 0 or ap < opts[O_PICKUP]:
            return -1
        if S[i, S_NO2H] != 0 and F[i, _wb(SLOT_WEAPON) + W_TWO_HANDED] != 0:
            return -1
        return opts[O_PICKUP]
    if step == START_PICK_UP_GUN:
        return opts[O_PICKUP] if (S[i, S_DROPPED] & HAND_GUN_DROPPED) != 0 and ap >= opts[O_PICKUP] else -1
    return 2 if S[i, S_IMMOBILISED] != 0 and ap >= 2 else -1


@rule
def _start_step(F, S, opts, st, i, step):
    """Turn-start step ``step`` of fighter ``i`` (``START_*``; :func:`_start_cost` ≥ 0): readying its
    weapon (1 AP, V-10.9); bleeding (``BLEED`` then ``DMG_TURN`` damage, the bleeding 1 less, V-6.5);
    standing up (1 AP; also from lying by choice, V-10.8; no AP: its turn ends, V-6.7); picking up its
    melee weapon, or its gun, the gun in hand again and the melee weapon stowed (``pickup`` AP, V-3.9);
    breaking free (:func:`_break_free`, V-6.9). Returns whether the fighter goes on with its turn
    (bool)."""
    if step == START_READY:
        S[i, S_AP] -= 1
        S[i, S_UNREADY] = 0
    elif step == START_BLEED:
        bleed = S[i, S_BLEED] + S[i, S_DMG_TURN]
        if S[i, S_BLEED] > 0:
            S[i, S_BLEED] -= 1
        _lose_health(F, S, i, bleed)
    elif step == START_STAND:
        if S[i, S_AP] < 1:
            return False
        S[i, S_AP] -= 1
        S[i, S_PRONE] = 0
        S[i, S_LYING] = 0  # V-10.8: knocked down while lying, it gets up
    elif step == START_PICK_UP:
        S[i, S_AP] -= opts[O_PICKUP]
        S[i, S_DROPPED] -= HAND_DROPPED
    elif step == START_PICK_UP_GUN:
        S[i, S_AP] -= opts[O_PICKUP]
        S[i, S_DROPPED] += HAND_GUN - HAND_GUN_DROPPED
    else:
        _break_free(F, S, opts, st, i)
    return S[i, S_OUT] == 0


@rule
def _turn_start(F, S, opts, tt, st, cnt, i):
    """V-2.3, V-10.9, V-6.5, V-6.7, V-3.9, V-6.9: the start of fighter ``i``'s turn: (refill), then the
    steps ``START_*`` in order (:func:`_start_cost`, :func:`_start_step`): readying the weapon in hand
    in its first turn (``start_ready = no``: 1 AP), bleeding, standing up when knocked down (also from
    lying by choice, V-10.8), recovering a dropped weapon or gun, breaking free if immobilised.
    Returns whether the fighter goes on with its turn (bool)."""
    if opts[O_AP_REFILL] != 0:
        _refill(F, S, i)
    for step in range(N_START_STEPS):
        if _start_cost(F, S, opts, i, step) >= 0 and not _start_step(F, S, opts, st, i, step):
            return False
    return S[i, S_OUT] == 0


@rule
def _melee_actions(F, S, opts, tt, st, cnt, i, group, ranged):
    """V-2.5, V-7.1: fighter ``i``'s actions in melee: a free stealth attack, a battle cry if its
    tactic has one and 2 AP leave its reserve, then attacks by its tactic, until the fight is
    decided or, in a fight of several, its foe is lost (:func:`.groups._lost_melee_foe`). An attack
    whose extras went into the grapple (V-4.5, ``grapple_first``) makes the grab's check
    (:func:`.grapple._grab`); held, the foe is choked with the AP left (:func:`.grapple._chokes`,
    V-6.10: the grappler's only action). ``ranged`` the drivers' flag: the grapple is played only in
    the kernel set at a distance (a matchup with a grappler plays it); None compiles none of it."""
    if S[i, S_STEALTH] == STEALTH_EXTRA_ATTACK:  # V-2.5: a standard attack as a free action first
        _attack(F, S, opts, tt, st, cnt, i, foe(S, i), K_STANDARD)
        if _lost_melee_foe(F, S, opts, st, i, group):
            return
    if F[i, P_T_CRY] != 0 and S[i, S_AP] - 2 >= F[i, P_T_KEEP]:
        _influence(F, S, opts, st, i, group)
        if _lost_melee_foe(F, S, opts, st, i, group):
            return
    while True:
        kind = _plan(F, S, i)
        if kind == K_NONE:
            return
        S[i, S_AP] -= KIND_COST[kind]
        e = foe(S, i)
        grab = _attack(F, S, opts, tt, st, cnt, i, e, kind)
        if ranged is not None:
            if grab > 0 and S[i, S_OUT] == 0 and S[e, S_OUT] == 0 and _grab(F, S, opts, st, i, e, grab):
                _chokes(F, S, opts, tt, st, cnt, i)
                return
        if _lost_melee_foe(F, S, opts, st, i, group):
            return


@rule
def _turn(F, S, opts, tt, st, cnt, i):
    """V-2.3, V-6.5, V-6.7, V-3.9, V-6.9, V-2.5, V-7.1: fighter ``i``'s turn in a melee duel
    (:func:`_turn_in`)."""
    _turn_in(F, S, opts, tt, st, cnt, i, None)


@rule
def _turn_in(F, S, opts, tt, st, cnt, i, group):
    """V-2.3, V-6.5, V-6.7, V-3.9, V-6.9, V-2.5, V-7.1, V-15.10: fighter ``i``'s turn in a melee
    fight: its start (:func:`_turn_start`), in a fight of several a commander's order
    (:func:`.orders._wants_order`) and an inspiration (``inspire = on``, V-13.7), then its melee
    actions (:func:`_melee_actions`); ``group`` the drivers' flag (None in a duel)."""
    if not _turn_start(F, S, opts, tt, st, cnt, i):
        return
    if group is not None:
        if _wants_order(F, S, opts, i):
            _give_order(F, S, opts, st, i)
            if _stops(S, i):
                return
        if _wants_inspire(F, S, opts, i):
            _inspire(F, S, opts, st, i)
            if _stops(S, i):
                return
    _melee_actions(F, S, opts, tt, st, cnt, i, group, None)
