"""A fighter's actions in its turn (B-3): opportunity attacks, feints, stances, the tactic's attack,
readying a weapon, standing up.

Rules: B-2.6, B-3, B-3.2, B-3.3, B-3.4, B-3.6, B-3.7, B-3.8, B-3.9, B-3.10, B-3.11, B-3.12, B-7.6,
B-8, B-9.1, B-9.2, B-9.3, B-9.7, B-9.8.

Arguments are those of the kernel package (:mod:`brutal_sim.rulesets.brutal.kernel`).
"""

from __future__ import annotations

from ....toolbox.battle import decided, foe_distance
from ....toolbox.jit import inline_rule, loop_inline_rule, rule
from ....toolbox.rng import roll_2d6
from ..layout import (
    BROKEN_DESTROYED,
    G_NONE,
    K_FULL_UNARMED,
    K_GRAPPLE,
    K_KNOCKDOWN,
    K_NORMAL,
    K_OPPORTUNITY,
    K_WEAPON,
    P_AIM_ZONE,
    P_ATHLETICS,
    P_MELEE,
    P_PAIRED,
    P_SIDE,
    P_T_ATTACK,
    P_T_FEINT,
    P_T_FULL,
    P_T_FULL_PEN,
    P_T_FULL_UNARMED,
    P_T_MOD,
    P_T_NO_OA,
    P_T_NO_REACT,
    P_T_READY,
    P_T_STANCE,
    P_T_UNARMED_MOD,
    S_BROKEN_MAIN,
    S_DAZE,
    S_FOE,
    S_FULL_PEN,
    S_GRAPPLE,
    S_HELD_MAIN,
    S_MORE_HITS,
    S_NO_OA,
    S_NO_REACT,
    S_OA_LEFT,
    S_ORDER,
    S_OUT,
    S_PRONE,
    S_READIED,
    S_STANCE,
    SLOT_FISTS,
    SLOT_MAIN,
    SLOT_OFF,
    TA_GRAPPLE,
    TA_KNOCKDOWN,
    TA_NONE,
    TA_NORMAL,
    TA_WEAPON,
    W_PRESENT,
)
from ..options import (
    KNOCKED_AWAY_READY_COMPLETES,
    O_GRAPPLE_HANDS,
    O_KNOCKED_AWAY_AGAIN,
    O_READIED_TRIGGER,
    O_REFELLED,
    O_STAND_UP_ACTION,
    O_UNARMED_FULL_ATTACK,
    REFELLED_RETRY,
    REFELLED_STANDS,
    TRIGGER_ATTACKS,
)
from .attack import _attack, _hit
from .checks import (
    _active_penalty,
    _attack_slot,
    _can_go_on,
    _can_react,
    _check_penalty,
    _free_hands,
    _lets_go_of_ranged,
    _shooter,
    _usable,
    _wb,
    _weapon_target,
)
from .situation import _open_aim


@rule
def _opportunity(F, S, opts, zt, st, cnt, e, i):
    """B-3.8: e makes its opportunity attack (−2) on i if it can react, has one left this round
    and no total defence."""
    if not _can_react(S, e) or S[e, S_NO_OA] != 0 or S[e, S_OA_LEFT] <= 0:
        return
    S[e, S_OA_LEFT] -= 1
    _attack(F, S, opts, zt, st, cnt, e, i, _attack_slot(F, S, e), -2, -1, K_OPPORTUNITY)


@rule
def _provoke(F, S, opts, zt, st, cnt, i):
    """B-3.8: i provokes; every enemy engaged with it (its foe, or an enemy whose foe it is; at
    distance 0, B-8), in row order, makes an opportunity attack if it can, until i is out."""
    if foe_distance(S, i) != 0:
        return
    side = F[i, P_SIDE]
    foe = S[i, S_FOE]
    for e in range(S.shape[0]):
        if S[i, S_OUT] != 0:
            return
        if F[e, P_SIDE] != side and (e == foe or S[e, S_FOE] == i):
            _opportunity(F, S, opts, zt, st, cnt, e, i)


@rule
def _readies(F, S, opts, i, acts):
    """B-9.1: whether i, with ``acts`` standard actions left, readies an attack now (a full action):
    its tactic readies, both actions are left, it has a foe, that foe is not a shooter apart (its
    shots never bring it into reach), and i is apart from it — or at any distance when the option
    ``readied_trigger`` is ``enemy_attacks``. (Engaged under ``enemy_enters_reach`` the trigger
    cannot happen: the tactic attacks plainly.)"""
    e = S[i, S_FOE]
    if F[i, P_T_READY] == 0 or acts < 2 or e < 0:
        return False
    if foe_distance(S, i) > 0 and _shooter(F, S, e):
        return False
    return foe_distance(S, i) > 0 or opts[O_READIED_TRIGGER] == TRIGGER_ATTACKS


@rule
def _ready_attack(S, i):
    """B-9.1: i spends its full action readying a single attack: −2 to reactions (B-2.6) and the
    readied attack, both until the start of its next turn."""
    S[i, S_READIED] = 1
    S[i, S_FULL_PEN] = 1


@loop_inline_rule
def _answer_readied(F, S, opts, zt, st, cnt, a, trigger):
    """B-9.1: ``a``'s action is ``trigger`` (``TRIGGER_*``, the option ``readied_trigger``'s codes):
    every enemy holding a readied attack and engaged with a (a's foe, or whose foe a is; at
    distance 0), in turn order (``S_ORDER``: the higher initiative first), fires it at a before the
    action resolves (``_fire_readied``). Only the option's trigger does: this test is on every
    attack, so it is compiled into its callers and the loop over the fighters is not."""
    if opts[O_READIED_TRIGGER] == trigger and foe_distance(S, a) == 0:
        _fire_readied(F, S, opts, zt, st, cnt, a)


@rule
def _fire_readied(F, S, opts, zt, st, cnt, a):
    """B-9.1 (``_answer_readied``): every enemy holding a readied attack and engaged with a, in turn
    order, fires it at a — unless dazed (no active actions, B-7.5), out, or in a grapple. The readied
    attack is a single attack (B-3.1: the weapon it attacks with, no modifier, rolled zone); it is
    spent when fired. Stops when a is out or the fight is decided."""
    side = F[a, P_SIDE]
    for p in range(S.shape[0]):
        if S[a, S_OUT] != 0 or decided(S):
            return
        r = S[p, S_ORDER]
        if (r >= 0 and S[r, S_READIED] != 0 and F[r, P_SIDE] != side and (S[a, S_FOE] == r or S[r, S_FOE] == a)
                and S[r, S_OUT] == 0 and S[r, S_DAZE] == 0 and S[r, S_GRAPPLE] == G_NONE):
            S[r, S_READIED] = 0
            _attack(F, S, opts, zt, st, cnt, r, a, _attack_slot(F, S, r), 0, -1, K_NORMAL)


@rule
def _feint_bonuses(F, S, i):
    """B-3.6: what i and its foe add to their 2d6 in a feint: melee without weapon modifiers,
    less each side's wound and condition penalties."""
    e = S[i, S_FOE]
    return F[i, P_MELEE] - _active_penalty(F, S, i), F[e, P_MELEE] - _active_penalty(F, S, e)


@rule
def _feint(F, S, st, i):
    """B-3.6: opposed melee check; True if i wins (its attack this turn then gets +1)."""
    bi, be = _feint_bonuses(F, S, i)
    a1, a2 = roll_2d6(st)
    d1, d2 = roll_2d6(st)
    return a1 + a2 + bi > d1 + d2 + be


@rule
def _adopt_stance(F, S, i):
    """What i's tactic action leaves until i's next turn: stance bonus (B-3.2, B-3.7), no reactions
    (B-3.4), no opportunity attacks (B-3.7), −2 to reactions after a full action (B-2.6)."""
    S[i, S_STANCE] = F[i, P_T_STANCE]
    S[i, S_NO_REACT] = F[i, P_T_NO_REACT]
    S[i, S_NO_OA] = F[i, P_T_NO_OA]
    if F[i, P_T_FULL_PEN] != 0:
        S[i, S_FULL_PEN] = 1


@inline_rule
def _plan_attack(F, S, opts, i, acts):
    """The attack i's tactic (``P_T_*``) makes with ``acts`` standard actions left (B-3, B-7.6).

    A full-action tactic with one action left makes a plain attack instead; a feint needs its own
    action. Sets the flags the action brings until i's next turn: stance bonus, no reactions, no
    opportunity attacks, the −2 to reactions after a full action (B-2.6). No dice are drawn.
    The attack is at i's foe (``S_FOE``, which must be a fighter). An aim at the weapon (B-9.3) at a
    foe without a usable item attacks plainly; a full action with fists under the tactic's reading of
    the option ``unarmed_full_attack`` is the unarmed full attack (B-9.2, ``K_FULL_UNARMED``).
    Against a helpless foe (B-9.8) there is no feint and a knock-down tactic attacks plainly.

    Returns
    -------
    (mod, zone, kind, slot, acts_left, feint, paired)
        Action modifier, aimed zone or −1, attack kind (``K_*``, −1 for no attack), weapon slot,
        standard actions left, whether a feint precedes it, whether the off hand attacks too.
    """
    e = S[i, S_FOE]
    feint = F[i, P_T_FEINT] != 0 and acts == 2 and S[e, S_OUT] == 0  # B-3.6 (no feint at the helpless)
    if feint:
        acts -= 1
    plain = F[i, P_T_FULL] != 0 and acts < 2  # no full action possible
    if plain and F[i, P_T_ATTACK] == TA_NONE:
        return 0, -1, -1, SLOT_FISTS, acts, feint, False
    acts = 0 if F[i, P_T_FULL] != 0 and not plain else acts - 1
    slot = _attack_slot(F, S, i)
    kind = K_NORMAL
    mod = 0
    zone = -1
    if not plain:
        _adopt_stance(F, S, i)
        if F[i, P_T_ATTACK] == TA_NONE:
            return 0, -1, -1, SLOT_FISTS, acts, False, False
        zone = F[i, P_AIM_ZONE]  # B-3.3 (−1 unless the tactic aims)
        if F[i, P_T_ATTACK] == TA_KNOCKDOWN and S[e, S_PRONE] == 0 and S[e, S_OUT] == 0:
            kind = K_KNOCKDOWN  # B-3.9: an unarmed attack; a prone or helpless target is attacked plainly
            slot = SLOT_FISTS
        elif F[i, P_T_ATTACK] == TA_GRAPPLE and _free_hands(F, S, i) >= opts[O_GRAPPLE_HANDS]:
            kind = K_GRAPPLE  # B-3.12: an unarmed attack; without the free hands, a plain attack
            slot = SLOT_FISTS
        elif F[i, P_T_ATTACK] == TA_WEAPON and _weapon_target(F, S, e) >= 0:
            kind = K_WEAPON  # B-9.3: aimed at the weapon; a bare-handed foe is attacked plainly
        if F[i, P_T_ATTACK] == TA_NORMAL or kind != K_NORMAL:
            mod = F[i, P_T_UNARMED_MOD] if slot == SLOT_FISTS else F[i, P_T_MOD]
        if (kind == K_NORMAL and slot == SLOT_FISTS and F[i, P_T_FULL] != 0
                and F[i, P_T_FULL_UNARMED] == opts[O_UNARMED_FULL_ATTACK]):
            kind = K_FULL_UNARMED  # B-9.2
    paired = (kind == K_NORMAL and F[i, P_PAIRED] != 0 and slot == SLOT_MAIN
              and _usable(F, S, i, SLOT_OFF))
    if paired:  # B-7.6: both weapons in one action, each −4 (off hand a further −2)
        mod -= 4
    return mod, zone, kind, slot, acts, feint, paired


@inline_rule
def _tactic_attack(F, S, opts, zt, st, cnt, i, acts, first_only):
    """The attack part of i's turn by its tactic at its foe, with ``acts`` standard actions left.

    ``first_only`` stops after the first attack roll of the action and its first blow (the
    single-attack sampler). An attacking tactic first lets readied attacks answer (B-9.1, trigger
    ``enemy_attacks``; i dazed or out by them makes no attack). An unarmed full attack's further hits
    (B-9.2) follow its first blow, each drawing its own zone and damage (no extra successes, no
    critical), until the target is out. Returns the standard actions left.
    """
    if F[i, P_T_ATTACK] != TA_NONE:
        _answer_readied(F, S, opts, zt, st, cnt, i, TRIGGER_ATTACKS)
        if not _can_go_on(S, i):
            return acts
    mod, zone, kind, slot, acts, feint, paired = _plan_attack(F, S, opts, i, acts)
    if kind < 0:
        return acts
    d = S[i, S_FOE]
    if feint and _feint(F, S, st, i):
        mod += 1
    S[i, S_MORE_HITS] = 0
    failed_knockdown = _attack(F, S, opts, zt, st, cnt, i, d, slot, mod, zone, kind)
    if first_only:
        return acts
    if failed_knockdown:  # B-3.9: a failed knock-down gives (only) its target an opportunity attack
        _opportunity(F, S, opts, zt, st, cnt, d, i)
    elif paired and S[i, S_OUT] == 0 and S[d, S_OUT] == 0 and _usable(F, S, i, SLOT_OFF):
        _attack(F, S, opts, zt, st, cnt, i, d, SLOT_OFF, mod, zone, kind)
    if S[i, S_MORE_HITS] > 0:
        _further_hits(F, S, opts, zt, st, cnt, i, d, zone)
    return acts


@rule
def _further_hits(F, S, opts, zt, st, cnt, i, d, zone):
    """B-9.2: the further hits of i's unarmed full attack on d (``S_MORE_HITS``), each drawing its own
    zone and damage (no extra successes, no critical), until d is out. (A function of its own: the
    blow it strikes is compiled into each caller, and the turn stays small without it.)"""
    for _ in range(S[i, S_MORE_HITS]):
        if S[d, S_OUT] != 0:
            break
        _hit(F, S, opts, zt, st, cnt, i, d, SLOT_FISTS, 0, False, _open_aim(F, S, opts, zt, d, zone), 0, -1)


@rule
def _ready(F, S, opts, zt, st, cnt, i, slot):
    """B-3.10: pick up a dropped weapon (standard action). It provokes (B-3.8), and the opportunity
    attack resolves before the Ready takes effect (−1 marks the weapon as being picked up, not yet
    in hand). The weapon is in hand afterwards unless that attack's arm wound knocked it away again;
    with ``knocked_away_again = ready_completes`` it is in hand either way (the fighter held
    nothing yet, and the Ready still puts the weapon in hand)."""
    S[i, S_HELD_MAIN + slot] = -1
    _provoke(F, S, opts, zt, st, cnt, i)
    if S[i, S_HELD_MAIN + slot] == -1 or opts[O_KNOCKED_AWAY_AGAIN] == KNOCKED_AWAY_READY_COMPLETES:
        S[i, S_HELD_MAIN + slot] = 1


@rule
def _free_stuck(F, S, st, i, slot):
    """B-9.7: try to free i's stuck weapon in ``slot`` (standard action): an athletics check vs 10
    (one 2d6; wound, stunned/dazed and fatigue penalties). It provokes nothing."""
    r1, r2 = roll_2d6(st)
    if r1 + r2 + F[i, P_ATHLETICS] - _check_penalty(F, S, i) >= 10:
        S[i, S_HELD_MAIN + slot] = 1


@rule
def _stand_up(F, S, opts, zt, st, cnt, i):
    """B-3.11: stand up. It provokes (B-3.8) while still down (2 marks the fighter as rising); it
    is up afterwards unless the opportunity attack felled it again (a leg wound) — with
    ``refelled = stands`` it is up either way (the attack resolves first, the stand-up completes)."""
    S[i, S_PRONE] = 2
    _provoke(F, S, opts, zt, st, cnt, i)
    if S[i, S_PRONE] == 2 or opts[O_REFELLED] == REFELLED_STANDS:
        S[i, S_PRONE] = 0


@rule
def _rise(F, S, opts, zt, st, cnt, i, acts):
    """B-3.11: prone i, with ``acts`` standard actions left, stands up (``_stand_up``, provoking,
    B-3.8); felled again by the opportunity attack, it tries once more with a remaining action when
    ``refelled`` is ``may_retry``. A stand-up is a standard action, or with ``stand_up_action =
    full`` the rest of the turn's actions (and −2 to reactions, B-2.6). Returns the actions left."""
    tries = 0
    while (acts > 0 and S[i, S_PRONE] != 0 and _can_go_on(S, i)
           and (tries == 0 or opts[O_REFELLED] == REFELLED_RETRY)):
        _stand_up(F, S, opts, zt, st, cnt, i)
        tries += 1
        if opts[O_STAND_UP_ACTION] != 0:
            acts = 0
            S[i, S_FULL_PEN] = 1
        else:
            acts -= 1
    return acts


@rule
def _needs_ready(F, S, i, slot):
    """A dropped, not destroyed item i picks up (B-3.10) — not a ranged weapon its tactic lets go of
    in melee (``drop_ranged``, B-8)."""
    b = _wb(slot)
    return (F[i, b + W_PRESENT] != 0 and S[i, S_HELD_MAIN + slot] == 0
            and S[i, S_BROKEN_MAIN + slot] != BROKEN_DESTROYED
            and not (slot == SLOT_MAIN and _lets_go_of_ranged(F, S, i)))
