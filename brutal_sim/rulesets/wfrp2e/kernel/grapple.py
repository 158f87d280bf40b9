"""The grapple (W-12, W-3.17, W-6.3): the attempt, the grappled state, breaking free, the grappler's
hold and hurt, the release, and the hands of a grappler that needs them free.

Rules: W-1.4, W-3.17, W-4.9, W-6.3, W-7.10, W-8.13, W-9.2, W-12.1, W-12.2, W-12.3, W-12.4, W-12.5,
W-12.6.

A grapple is two fighters' ``S_GRAPPLE`` (each the other's row + 1) and ``S_HOLDING`` (1 for the
grappler, 0 for the held one): the state is per fighter, so a fight of several a side holds as many
grapples as pairs. One grapple per fighter: a fighter already in one (either role) is no target of
an attempt (W-12.2, one grappler per target). A grapple ends for both at once
(:func:`.wounds._release`, W-12.6): a break free, a release, either fighter going out (a critical,
:func:`.wounds._take_damage`; a grappler releases before it flees). While it is on
(:func:`.reactions._in_grapple`), neither parries or dodges (:func:`.reactions._can_react`), melee
attacks at either get +20 WS (:func:`.attack._attack_target`), and their turns are
:func:`_grapple_turn`. The turn's steps are compiled only in the kernel variant ``ranged``, which a
matchup with a fighter of the tactic ``grappler`` (W-8.13) plays (:func:`.turn._turn`); without
one, the checks elsewhere (reactions, the to-hit target, a fleer's free attacks, a push, a shot's
``bs_bonus``) read ``S_GRAPPLE``, always 0.

Arguments are those of the kernel package (:mod:`brutal_sim.rulesets.wfrp2e.kernel`).
"""

from __future__ import annotations

from ....core.battle import B_ENGAGERS, B_FOE
from ....toolbox.battle import foe
from ....toolbox.jit import rule
from ....toolbox.rng import roll_die
from ..layout import (
    C_ATTACKS,
    C_FURY,
    LOC_BODY,
    N_OUTCOMES,
    OUT_HIT,
    OUT_MISS,
    P_AG,
    P_AG_PENALTY,
    P_FLEE_AT,
    P_S,
    P_SIDE,
    P_TACTIC,
    P_WRESTLING,
    S_ENGAGED,
    S_GRAPPLE,
    S_HELD_MAIN,
    S_HELD_OFF,
    S_HELPLESS,
    S_HOLDING,
    S_KEPT,
    S_OUT,
    S_PEN_AG,
    S_PRONE,
    S_RELOADING,
    S_STUN,
    S_SURPRISED,
    S_W,
    SLOT_FISTS,
    T_GRAPPLER,
)
from ..options import (
    DROP_HALF,
    GRAPPLE_FURY_AUTO,
    GRAPPLE_HANDS_FREE,
    GRAPPLE_LOCATION_ROLL,
    GRAPPLE_REACTION_ALLOWED,
    GRAPPLE_VIA_STANDARD_OR_CHARGE,
    O_DROP,
    O_GRAPPLE_FURY,
    O_GRAPPLE_HANDS,
    O_GRAPPLE_LOCATION,
    O_GRAPPLE_REACTION,
    O_GRAPPLE_VIA,
)
from .attack import _absorbed, _attack_target, _damage_bonus, _fury_dice, _location
from .fortune import _fortune_allows
from .movement import _close, _settle
from .reactions import _in_grapple, _react
from .tests import _capped, _opposed, _test
from .wounds import _release, _take_damage

#: W-12.1, W-12.4: what Wrestling adds to the attempt's WS and to a break free's S (talents.db line 60)
WRESTLING_BONUS = 10


@rule
def _frees_hands(F, opts, i):
    """W-12.1 ``grapple_hands = free``, W-8.13: whether i is a grappler that needs both hands empty
    (it drops what it holds and never readies it)."""
    return F[i, P_TACTIC] == T_GRAPPLER and opts[O_GRAPPLE_HANDS] == GRAPPLE_HANDS_FREE


@rule
def _drop_items(S, opts, i):
    """W-8.13 with ``grapple_hands = free``: i lets go of what it holds (both hands at once; W-7.12
    ``drop``: free, or a half action). Returns the half actions it costs (0 with empty hands)."""
    if S[i, S_HELD_MAIN] == 0 and S[i, S_HELD_OFF] == 0:
        return 0
    S[i, S_HELD_MAIN] = 0
    S[i, S_HELD_OFF] = 0
    return 1 if opts[O_DROP] == DROP_HALF else 0


@rule
def _can_seize(S, i):
    """W-12.2, W-8.13: whether i's foe may be the target of a grapple attempt: in the fight, not
    helpless (attacked as any helpless foe, W-6.2) and in no grapple (one grappler per target)."""
    e = foe(S, i)
    return e >= 0 and S[e, S_OUT] == 0 and S[e, S_HELPLESS] == 0 and not _in_grapple(S, e)


@rule
def _grappler_plan(F, S, opts, i, halves):
    """W-8.13 ``grappler`` with ``halves`` half actions: with ``grapple_hands = free`` it first drops
    what it holds (:func:`_drop_items`); then, its foe one it may seize (:func:`_can_seize`): engaged,
    aim + a grapple attempt (W-3.2: +10), with one half action an attempt; not engaged, it closes as
    ``rush`` (W-8.12, :func:`.movement._close`), its attack an attempt after a Move (a standard
    attack) and after a charge (+10) with ``grapple_via = standard_or_charge`` (W-12.1).

    Returns (attacks, modifier, attempt, halves left): ``attempt`` −1 when its foe may not be seized
    (the plan is then its ``melee_tactic``'s with the half actions left)."""
    if opts[O_GRAPPLE_HANDS] == GRAPPLE_HANDS_FREE:
        halves -= _drop_items(S, opts, i)
        if halves == 0:
            return 0, 0, 0, 0
    if not _can_seize(S, i):
        return 0, 0, -1, halves
    if S[i, S_ENGAGED] != 0:
        return 1, 10 if halves == 2 else 0, 1, halves
    attacks, mod = _close(F, S, opts, i, halves)
    attempt = attacks > 0 and (mod != 10 or opts[O_GRAPPLE_VIA] == GRAPPLE_VIA_STANDARD_OR_CHARGE)
    return attacks, mod, 1 if attempt else 0, halves


@rule
def _face(S, i, j):
    """i fights j (its foe ``B_FOE``, the engagers kept): the two fighters of a grapple act on each
    other whatever foe the targeting would choose (W-8.15); in a duel nothing changes."""
    current = S[i, B_FOE]
    if current != j:
        if current >= 0:
            S[current, B_ENGAGERS] -= 1
        S[j, B_ENGAGERS] += 1
        S[i, B_FOE] = j
        _settle(S)


@rule
def _grapple_ag(F, S, opts, d):
    """W-12.2: d's Ag test target against a grapple: Ag, the armour Ag penalty off (W-9.2), critical
    Ag penalties (capped, W-1.6)."""
    return F[d, P_AG] - F[d, P_AG_PENALTY] + _capped(opts, -S[d, S_PEN_AG])


@rule
def _grapple_attempt(F, S, opts, st, cnt, a, mod):
    """W-12.1, W-12.2, W-3.17: a's grapple attempt on its foe d, an unarmed attack (W-4.9) with the
    action modifier ``mod`` (aim, charge) that deals no damage: the to-hit test with fists (Street
    Fighting +10 under its option, the target's modifiers, W-4.1), Wrestling +10 (capped with them,
    W-1.6), a fortune reroll as an attack; a hit meets d's parry or dodge with ``grapple_reaction =
    allowed`` (W-4.3 – W-4.6); a hit that gets through: d tests Ag (:func:`_grapple_ag`, a fortune
    reroll as a reaction, W-6.5), a failure: d is grappled (:func:`_seize`). Counted as an attack of
    a (miss, parried, dodged, hit: the attempt landed, grappled or not)."""
    d = foe(S, a)
    bonus = WRESTLING_BONUS if F[a, P_WRESTLING] != 0 else 0
    target = _attack_target(F, S, opts, a, SLOT_FISTS, mod + bonus)
    out = C_ATTACKS + F[a, P_SIDE] * N_OUTCOMES
    ok, _roll = _test(S, opts, st, a, target, _fortune_allows(opts, S, a, False))
    if not ok:
        cnt[out + OUT_MISS] += 1
        return
    outcome = OUT_HIT
    if opts[O_GRAPPLE_REACTION] == GRAPPLE_REACTION_ALLOWED:
        outcome = _react(F, S, opts, st, d, a, SLOT_FISTS)
    cnt[out + outcome] += 1
    if outcome != OUT_HIT:
        return
    ok, _roll = _test(S, opts, st, d, _grapple_ag(F, S, opts, d), _fortune_allows(opts, S, d, True))
    if not ok:
        _seize(S, a, d)


@rule
def _seize(S, a, d):
    """W-12.2: a holds d: each the other's partner, a the grappler; d's foe is a (:func:`_face`), a
    reload under way and a kept half action of d are lost (W-7.10 ``reload_break``: grappled; W-12.3:
    it shoots no more)."""
    S[a, S_GRAPPLE] = d + 1
    S[a, S_HOLDING] = 1
    S[d, S_GRAPPLE] = a + 1
    S[d, S_HOLDING] = 0
    S[d, S_RELOADING] = 0
    S[d, S_KEPT] = 0
    _face(S, d, a)


@rule
def _grapple_strength(F, opts, i):
    """W-12.4: i's S in a break free's opposed test: S, Wrestling +10 (capped, W-1.6)."""
    return F[i, P_S] + _capped(opts, WRESTLING_BONUS if F[i, P_WRESTLING] != 0 else 0)


@rule
def _break_free(F, S, opts, st, i, j):
    """W-12.4: held i's full action: an opposed S test (W-1.4, i the initiator; Wrestling +10 to
    either, :func:`_grapple_strength`; no fortune reroll); a win frees it (W-12.6), anything else
    leaves it held."""
    if _opposed(opts, st, _grapple_strength(F, opts, i), _grapple_strength(F, opts, j)):
        _release(S, i)


@rule
def _hurt(F, S, opts, grid, fx, st, cnt, i, j):
    """W-12.5: grappler i hurts held j, a full action: an opposed S test (W-1.4, i the initiator; no
    fortune reroll); a win deals unarmed damage (W-4.9): the location (``grapple_location``: a fresh
    d100 read as W-4.2, or the body), d10 + SB − 4 (Strike Mighty Blow, Street Fighting +1 under
    their options, :func:`.attack._damage_bonus`), on a 10 Ulric's Fury dice with ``grapple_fury =
    auto`` (no test, counted), TB and AP doubled, criticals (W-5); a loss: no damage, still held."""
    if not _opposed(opts, st, F[i, P_S], F[j, P_S]):
        return
    loc = LOC_BODY
    if opts[O_GRAPPLE_LOCATION] == GRAPPLE_LOCATION_ROLL:
        loc = _location(roll_die(st, 100))
    die = roll_die(st, 10)
    raw = die + _damage_bonus(F, S, opts, i, SLOT_FISTS)
    if die == 10 and opts[O_GRAPPLE_FURY] == GRAPPLE_FURY_AUTO:
        added, _extra = _fury_dice(opts, st, 0, False)
        raw += added
        cnt[C_FURY + F[i, P_SIDE]] += 1
    final = raw - _absorbed(F, opts, i, j, SLOT_FISTS, loc)
    _take_damage(F, S, opts, grid, fx, st, cnt, i, j, SLOT_FISTS, loc, final if final > 0 else 0)


@rule
def _grapple_turn(F, S, opts, grid, fx, st, cnt, i):
    """The start of the turn of i in a grapple with j (W-12.3 – W-12.6). Returns True when the grapple
    took the turn, False for the turn as usual.

    i fights j (:func:`_face`). Held: a turn it loses anyway (surprised, helpless, stunned) goes as usual, else
    its one action is :func:`_break_free` (W-12.4: it neither moves, shoots, flees nor attacks).
    Grappling: one that cannot take its full action (surprised, helpless, stunned, prone: standing up
    takes a half action) or flees (``flee_at``) releases j (a free action, W-12.5, W-12.6) and the turn
    goes as usual; else it hurts (:func:`_hurt`; hurt loses nothing hold keeps, W-12.6)."""
    j = S[i, S_GRAPPLE] - 1
    _face(S, i, j)
    lost = S[i, S_SURPRISED] != 0 or S[i, S_HELPLESS] != 0 or S[i, S_STUN] > 0
    if S[i, S_HOLDING] == 0:
        if lost:
            return False
        _break_free(F, S, opts, st, i, j)
        return True
    if lost or S[i, S_PRONE] != 0 or (F[i, P_FLEE_AT] >= 0 and S[i, S_W] <= F[i, P_FLEE_AT]):
        _release(S, i)
        return False
    _hurt(F, S, opts, grid, fx, st, cnt, i, j)
    return True
