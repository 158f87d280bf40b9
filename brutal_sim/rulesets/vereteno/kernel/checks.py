"""V-1 checks and the pools they roll (chapter 1 of the kernel; imports no other chapter).

A d20 check counted by V-1.3 (``_successes``), desperate when the pool is ≤ 0 (V-1.4), and a
fighter's check that may be prayed once (V-1.6). The prayer's costs need being put out of the fight
(V-6.1, ``toolbox.battle.put_out``; V-5.3 Will ≤ 0) and the GM's Chernobog tokens (V-3.17), so the
tokens live here too. Pools need the weapon in hand (V-3.9 dropped, V-5.6 bare hands, V-8.4 NO2H): the attack pool
(V-3.1–V-3.3, V-6.4, V-6.7, V-6.9, V-2.5), the defence pool (V-4.3) and the dodge pool (V-4.4).
``KIND_COST`` (V-2.2) and ``KIND_MODIFIER`` (V-3.1–V-3.3) are the attack kinds' AP cost and pool
modifier.
"""

from __future__ import annotations

import numpy as np

from ....core.battle import B_AWAY
from ....toolbox.battle import apart, foe, put_out
from ....toolbox.jit import inline_rule, rule
from ....toolbox.rng import roll_die
from ..layout import (
    CAUSE_WILL,
    HAND_GUN,
    ORD_DEFEND,
    ORD_DODGE,
    ORD_MELEE,
    P_AGIL_SKILL,
    P_AGILITY,
    P_BODY,
    P_MELEE,
    P_SIDE,
    P_WEAPONS,
    REACH,
    REACH_LONG,
    S_DROPPED,
    S_IMMOBILISED,
    S_LYING,
    S_NO2H,
    S_ORD,
    S_OUT,
    S_PEN_AGIL,
    S_PEN_MELEE,
    S_PRONE,
    S_STEALTH,
    S_TOKENS_USED,
    S_WILL,
    SLOT_UNARMED,
    SLOT_WEAPON,
    W_LONG,
    W_MOD,
    W_PRESENT,
    W_TWO_HANDED,
    WN,
)
from ..options import (
    DESP_APP,
    DESP_FVTT,
    NPC_TOKENS,
    O_DESPERATION,
    O_DODGE_MODIFIER,
    O_NPC,
    O_NPC_REACTIONS,
    O_NPC_TOKENS,
    O_ONE_VALUE,
    O_OUTNUMBER_DICE,
    O_PRAYER,
    O_PRONE_MELEE,
    PRAYER_APP,
    PRAYER_OFF,
    PRAYER_YZE,
    STEALTH_DICE,
)

#: V-2.2 AP cost and V-3.1–3.3 pool modifier by attack kind (none, quick, standard, power)
KIND_COST = np.array([0, 1, 2, 3], dtype=np.int64)
KIND_MODIFIER = np.array([0, -2, 0, 2], dtype=np.int64)
#: V-6.9: dice every attack at an immobilised fighter gains (melee blows, shots and throws)
IMMOBILISED_DICE = 2


@inline_rule
def _successes(face, one_value):
    """V-1.3: successes of one d20 face (int64): 20 → 2, 17–19 → 1, 1 → ``one_value``, else 0."""
    if face == 20:
        return 2
    if face >= 17:
        return 1
    if face == 1:
        return one_value
    return 0


#: V-3.13: dice the choke adds to the grappler's melee check
CHOKE_DICE = 2


@rule
def _desperate(mode, n_dice, n20, n1, net):
    """V-1.4: total of a desperate roll (pool ≤ 0) from its dice (int64).

    Parameters
    ----------
    mode : int64
        ``DESP_FVTT`` (every 20 → +1, 1 → −1; 1 success only if all dice are 20, else ≤ 0),
        ``DESP_YZE`` (2d20 counted by V-1.3; ≥ 2 successes count as 1, else at most 0).
    n_dice, n20, n1, net : int64
        Dice rolled, 20s among them, 1s among them, V-1.3 net successes.
    """
    if mode == DESP_FVTT:
        if n20 == n_dice:
            return 1
        return min(n20 - n1, 0)
    if net >= 2:
        return 1
    return min(net, 0)


@rule
def _desperate_dice(mode, pool):
    """V-1.4: number of d20 a desperate roll (pool ≤ 0) rolls: fvtt 1 (pool 0) or 2, yze 2, app 0."""
    if mode == DESP_APP:
        return 0
    if mode == DESP_FVTT and pool == 0:
        return 1
    return 2


@rule
def _check(st, pool, opts):
    """V-1.1–V-1.4: roll a check of ``pool`` d20 (desperate if ≤ 0); its net successes (int64)."""
    one = opts[O_ONE_VALUE]
    net = 0
    if pool > 0:
        for _ in range(pool):
            net += _successes(roll_die(st, 20), one)
        return net
    n = _desperate_dice(opts[O_DESPERATION], pool)
    n20 = 0
    n1 = 0
    for _ in range(n):
        face = roll_die(st, 20)
        net += _successes(face, one)
        n20 += face == 20
        n1 += face == 1
    if n == 0:
        return 0
    return _desperate(opts[O_DESPERATION], n, n20, n1, net)


@rule
def _is_npc(F, opts, i):
    """V-3.17: is fighter ``i``'s side a GM character's (option ``npc`` codes: bit 0 side a, bit 1 side b)?"""
    return (opts[O_NPC] >> F[i, P_SIDE]) & 1 != 0


@rule
def _tokens_left(F, S, opts, i):
    """V-3.17: Chernobog tokens the GM has left in the pool of fighter ``i``'s side (``npc_tokens_a``/``_b``
    less those spent, the per-side cell ``S_TOKENS_USED``: the pool is shared by a side)."""
    side = F[i, P_SIDE]
    return opts[O_NPC_TOKENS + side] - S[side, S_TOKENS_USED]


@rule
def _spend_token(F, S, i):
    """V-3.17: the GM spends one Chernobog token of fighter ``i``'s side's pool."""
    S[F[i, P_SIDE], S_TOKENS_USED] += 1


@rule
def _pays_tokens(F, opts, i):
    """V-3.17: does fighter ``i`` cost the GM tokens (a GM character under ``npc_reactions = tokens``)?"""
    return _is_npc(F, opts, i) and opts[O_NPC_REACTIONS] == NPC_TOKENS


@rule
def _can_pray(F, S, opts, i):
    """V-1.6: may fighter ``i`` pray now? ``app``: with Will ≥ 2 (the basic cost leaves it standing)
    **[reading]**; ``yze``: always, but a GM character under ``npc_reactions = tokens`` needs a token."""
    mode = opts[O_PRAYER]
    if mode == PRAYER_APP:
        return S[i, S_WILL] >= 2
    if mode == PRAYER_YZE:
        return not _pays_tokens(F, opts, i) or _tokens_left(F, S, opts, i) >= 1
    return False


@inline_rule
def _rerolled(mode, face, one):
    """V-1.6: does a prayer reroll this face? ``app``: a die without a success (1–16); ``yze``: every
    die but a 20."""
    if mode == PRAYER_YZE:
        return face != 20
    return _successes(face, one) <= 0


@rule
def _fighter_check(F, S, opts, st, pool, i):
    """V-1.1–V-1.4 and V-1.6: fighter ``i``'s check of ``pool`` d20 (attack, defence, dodge, agility,
    battle cry; not the armour roll).

    With option ``prayer``, a check of a pool > 0 that failed (≤ 0 successes) is prayed once if
    :func:`_can_pray`: the dice :func:`_rerolled` picks are rolled again, after the check's own dice.
    ``app`` costs 1 Will plus 1 per 1 among the new dice (Will ≤ 0 puts the fighter out, V-5.3);
    ``yze`` costs a GM character under ``npc_reactions = tokens`` one token. Returns the net
    successes (int64).
    """
    mode = opts[O_PRAYER]
    if mode == PRAYER_OFF or pool <= 0:
        return _check(st, pool, opts)
    one = opts[O_ONE_VALUE]
    net = 0
    kept = 0
    n_re = 0
    for _ in range(pool):
        face = roll_die(st, 20)
        v = _successes(face, one)
        net += v
        if _rerolled(mode, face, one):
            n_re += 1
        else:
            kept += v
    if net > 0 or n_re == 0 or not _can_pray(F, S, opts, i):
        return net
    ones = 0
    for _ in range(n_re):
        face = roll_die(st, 20)
        kept += _successes(face, one)
        ones += face == 1
    if mode == PRAYER_APP:
        S[i, S_WILL] -= 1 + ones
        if S[i, S_WILL] <= 0:
            put_out(F, S, i, CAUSE_WILL)  # V-6.1: the first cause is kept
    elif _pays_tokens(F, opts, i):
        _spend_token(F, S, i)
    return kept


@inline_rule
def _wb(slot):
    """Base index of weapon ``slot`` inside a fighter row."""
    return P_WEAPONS + slot * WN


@rule
def _slot(F, S, i):
    """The weapon slot fighter ``i`` fights with in melee: its weapon unless it has none, dropped it
    (V-3.9), may no longer wield a two-handed one (NO2H, V-8.4) or holds its gun instead (either bit
    of ``S_DROPPED``; V-11.22: a gun strikes and defends as bare hands); else bare hands (V-5.6)."""
    b = _wb(SLOT_WEAPON)
    if F[i, b + W_PRESENT] == 0 or S[i, S_DROPPED] != 0:
        return SLOT_UNARMED
    if S[i, S_NO2H] != 0 and F[i, b + W_TWO_HANDED] != 0:
        return SLOT_UNARMED
    return SLOT_WEAPON


@rule
def _gun_in_hand(S, i):
    """V-10.9: does fighter ``i`` hold its gun (bit ``HAND_GUN`` of ``S_DROPPED``)? bool."""
    return (S[i, S_DROPPED] & HAND_GUN) != 0


@rule
def _weapon(F, S, i, field):
    """A field (``W_*``) of the weapon fighter ``i`` fights with."""
    return F[i, _wb(_slot(F, S, i)) + field]


@rule
def _attack_pool(F, S, a, d, kind):
    """V-3.1–3.3, V-6.4, V-6.7, V-6.9, V-2.5: Телосложение + Ближний бой + weapon modifier + attack
    kind − melee penalties, +2 against a prone target, +2 against an immobilised one, +3 on a stealth
    attack (int64, may be ≤ 0)."""
    pool = F[a, P_BODY] + F[a, P_MELEE] + _weapon(F, S, a, W_MOD) + KIND_MODIFIER[kind] - S[a, S_PEN_MELEE]
    if S[d, S_PRONE] != 0:
        pool += 2
    if S[d, S_IMMOBILISED] != 0:
        pool += IMMOBILISED_DICE
    if S[a, S_STEALTH] == STEALTH_DICE:
        pool += 3
    return pool


@rule
def _choke_pool(F, S, a):
    """V-3.13: the choke's pool: Телосложение + Ближний бой + 2, bare hands (V-5.6: modifier 0) −
    melee penalties (int64)."""
    return F[a, P_BODY] + F[a, P_MELEE] + CHOKE_DICE - S[a, S_PEN_MELEE]


@rule
def _melee_pool(F, S, opts, a, d, kind):
    """V-10.8: the attack pool (:func:`_attack_pool`) + ``prone_melee`` dice (default 2) against a
    target lying prone by choice and not knocked down + the attacker's order bonus on melee attacks
    ("In melee!", V-13.4); V-14.2: + ``outnumber_dice`` per other enemy fighting the target within its
    reach (:func:`_outnumbering`; default 0) (int64)."""
    pool = _attack_pool(F, S, a, d, kind) + S[a, S_ORD + ORD_MELEE]
    if S[d, S_LYING] != 0 and S[d, S_PRONE] == 0:
        pool += opts[O_PRONE_MELEE]
    if opts[O_OUTNUMBER_DICE] != 0:
        pool += opts[O_OUTNUMBER_DICE] * _outnumbering(F, S, a, d)
    return pool


@rule
def _outnumbering(F, S, a, d):
    """V-14.2: the enemies of ``d`` other than ``a`` fighting it (its foe is ``d``) within their melee
    reach (V-3.15), in the fight (not out, not away). int64."""
    n = 0
    for j in range(F.shape[0]):
        if (j != a and F[j, P_SIDE] != F[d, P_SIDE] and S[j, S_OUT] == 0 and S[j, B_AWAY] == 0
                and foe(S, j) == d and apart(S, j, d) <= _reach(F, S, j)):
            n += 1
    return n


@rule
def _defence_pool(F, S, d):
    """V-4.3: the defender's melee pool with its own weapon modifier, minus melee penalties, plus its
    order bonus on melee defences ("Defend!", "In melee!", V-13.4)."""
    return F[d, P_BODY] + F[d, P_MELEE] + _weapon(F, S, d, W_MOD) - S[d, S_PEN_MELEE] + S[d, S_ORD + ORD_DEFEND]


@rule
def _dodge_pool(F, S, opts, a, d, kind):
    """V-4.4: Ловкость + Проворство − the attacker's weapon modifier (and, by option
    ``dodge_modifier``, its attack kind's modifier) − Проворство penalties + its order bonus on
    dodges ("Get down!", V-13.4)."""
    pool = F[d, P_AGILITY] + F[d, P_AGIL_SKILL] - _weapon(F, S, a, W_MOD) - S[d, S_PEN_AGIL] + S[d, S_ORD + ORD_DODGE]
    if opts[O_DODGE_MODIFIER] != 0:
        pool -= KIND_MODIFIER[kind]
    return pool


@rule
def _reach(F, S, i):
    """V-3.15: ``i``'s melee reach in metres: point blank (1 m; bare hands, V-5.6, and a gun in hand,
    V-11.22), close range (2 m) with a ``long`` melee weapon in hand. int64."""
    return REACH_LONG if _weapon(F, S, i, W_LONG) != 0 else REACH


@rule
def _in_reach(F, S, i):
    """V-3.15, V-10.4: is ``i``'s foe within ``i``'s melee reach, so that ``i`` may attack it in
    melee (bool)?"""
    e = foe(S, i)
    if e < 0:  # (never: an index guard, kernel docstring)
        return False
    return apart(S, i, e) <= _reach(F, S, i)
