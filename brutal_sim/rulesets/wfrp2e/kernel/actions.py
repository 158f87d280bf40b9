"""Actions and tactics (W-3, W-8): what a fighter's tactic does with its half actions, the feint's
opposed test, fleeing, the shooters' turns.

Rules: W-1.4, W-1.6, W-3.3, W-3.4, W-3.5, W-3.6, W-3.7, W-3.8, W-3.9, W-3.13, W-3.16, W-8.1, W-8.6,
W-8.8, W-7.8, W-7.11, W-7.12, W-8.9, W-8.10, W-8.11, W-8.12, W-8.13, W-8.14, W-11.4, W-11.6, W-11.7,
W-12.3.

Arguments are those of the kernel package (:mod:`brutal_sim.rulesets.wfrp2e.kernel`).
"""

from __future__ import annotations

from ....toolbox.battle import apart, decided, foe, foe_distance, move_toward, put_out
from ....toolbox.jit import loop_inline_rule, rule
from ..layout import (
    BAND_EXTREME,
    BAND_LONG,
    BAND_SHORT,
    CAUSE_FLED,
    CHARGE_DISTANCE,
    ENGAGE_DISTANCE,
    OUT_HIT,
    P_A,
    P_MELEE_TACTIC,
    P_PUSH,
    P_QUICK_DRAW,
    P_TACTIC,
    P_WS,
    REACT_PARRY,
    S_AIM,
    S_CAUTIOUS,
    S_DEF_STANCE,
    S_ENGAGED,
    S_HELD_MAIN,
    S_HELD_OFF,
    S_HELPLESS,
    S_KEPT,
    S_LOADED,
    S_LOADED_OFF,
    S_MISSILE,
    S_NO_REACT,
    S_OFF_MISSILE,
    S_OUT,
    S_PARRY_STANCE,
    S_PEN_WS,
    S_RELOADING,
    S_RUNNING,
    S_SUPPLY,
    SLOT_MAIN,
    SLOT_MISSILE,
    SLOT_OFF,
    T_BERSERK,
    T_CAUTIOUS,
    T_FEINTER,
    T_KITE,
    T_MARKSMAN,
    T_OVERWATCH,
    T_SWIFT,
    T_TURTLE,
    W_PRESENT,
    W_SHORT,
)
from ..options import (
    AIM_NEXT_ACTION,
    DEFENSIVE_STANCE_FULL,
    DROP_HALF,
    FLEE_OUT,
    FLEE_REPOSITION,
    KITE_FLEE_ON,
    LEAVE_MELEE_SEED,
    MANOEUVRE_ADVANCE,
    MANOEUVRE_OPPOSED_WS,
    O_AIM,
    O_DEFENSIVE_STANCE,
    O_DROP,
    O_FLEE_OUTCOME,
    O_KITE_FLEE,
    O_LEAVE_MELEE,
    O_MANOEUVRE_FOLLOW,
    O_MANOEUVRE_TEST,
    O_SWIFT_BRACE,
    SWIFT_BRACE_ON,
)
from .attack import _attack, _attack_target
from .fortune import _fortune_allows
from .groups import _lost_foe
from .movement import _at_edge, _close, _move_yards, _reach, _retreat, _run_yards, _settle
from .ranged import _aim_bonus, _band, _fire_slot, _long_range, _reload, _reload_need, _shoot
from .reactions import _availability, _in_grapple, _react
from .tests import _capped, _opposed, _test
from .weapons import _attack_slot, _held, _wf


@rule
def _melee_tactic(F, i):
    """i's melee tactic (``T_*``): its tactic, or for a shooter and rush (W-8.10, W-8.12) its
    ``melee_tactic``."""
    t = F[i, P_TACTIC]
    if t >= T_MARKSMAN:
        return F[i, P_MELEE_TACTIC]
    return t


@loop_inline_rule
def _plan(F, S, opts, i, halves):
    """W-3, W-8: what i's tactic does with ``halves`` half actions; sets its stances.

    Returns (attacks, modifier, feint): the number of attacks, their WS modifier and whether a feint
    (W-3.9) comes first. Not engaged (W-11.3): it closes in (:func:`_close`: a move and an attack, a
    charge with one attack at +10, or a run; W-3.3, W-8.8, W-8.12). guarded: aim + attack with an
    off-hand item, else attack + parry stance (W-8.1); swift: A attacks when A ≥ 2 (W-3.8); berserk:
    all-out +20, no reactions (W-3.4); cautious: −10, +10 to reactions (W-3.5); turtle: defensive
    stance + parry stance, the defensive stance alone when it is a full action (W-3.6, W-3.7);
    feinter: feint + attack when the foe could parry and WS ≥ the foe's (W-8.6), else guarded. One
    half action left: a standard attack (turtle: a stance). A grappler's plan is
    :func:`.grapple._grappler_plan`, this one its ``melee_tactic``'s when it may not grapple its foe.
    """
    t = _melee_tactic(F, i)
    if S[i, S_ENGAGED] == 0 and t != T_TURTLE:
        attacks, mod = _close(F, S, opts, i, halves)
        return attacks, mod, False
    if t == T_TURTLE:
        if opts[O_DEFENSIVE_STANCE] == DEFENSIVE_STANCE_FULL:
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
    e = foe(S, i)
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
    t = _melee_tactic(F, i)
    if t == T_BERSERK or t == T_CAUTIOUS or t == T_TURTLE or (t == T_SWIFT and F[i, P_A] >= 2):
        return False
    return _held(F, S, i, SLOT_OFF)


@rule
def _swift_ready(F, S, opts, i, slot):
    """W-7.11: whether i's shots may make a swift attack, the first from ``slot``: its reload is free
    or none, or with ``swift_brace = on`` both missile weapons are loaded (each shot from a loaded
    one-handed weapon in hand, W-7.8)."""
    if _reload_need(F, i, slot) == 0:
        return True
    return opts[O_SWIFT_BRACE] == SWIFT_BRACE_ON and S[i, S_LOADED] != 0 and S[i, S_LOADED_OFF] != 0


@rule
def _marksman(F, S, opts, grid, fx, st, cnt, i, halves, kept):
    """W-8.9 ``marksman`` (and ``shoot_then_draw`` while not engaged, W-8.10) with ``halves`` half
    actions: nothing loaded → reload (W-7.10, the main-hand weapon first; nothing left to load: the
    turn ends, W-7.12); a loaded weapon (the main-hand one first, else the off-hand one, W-7.8) and
    the foe within its long range: with two half actions aim (+10, Sharpshooter +20, W-7.3) and
    shoot, or with A ≥ 2 and :func:`_swift_ready` a swift attack of A unaimed shots (W-7.11), with
    one shoot (``aim = next_action``: aim instead, the bonus kept in ``S_AIM`` for its next turn);
    within very long range and two half actions: aim and shoot (W-7.5); out of range: Move toward
    the foe (2·M), stopping at long range; repeated while half actions are left. ``kept``: the bonus
    of an aim kept from its last turn (W-7.3 ``next_action``; 0 none): its first action, if a shot
    within very long range, is that aimed shot (one half action); else the aim is lost."""
    while halves > 0 and not _lost_foe(F, S, opts, st, i):
        slot = _fire_slot(F, S, i, False)
        if kept > 0:
            aim = kept
            kept = 0
            if slot >= 0:
                band = _band(F, S, opts, i, slot)
                if band <= BAND_EXTREME:
                    _shoot(F, S, opts, grid, fx, st, cnt, i, slot, band, aim)
                    halves -= 1
                    continue
        if slot < 0:
            if S[i, S_SUPPLY] == 0:  # W-7.12: nothing left to load
                return
            used = _reload(F, S, i, halves)
            if used == 0:
                return
            halves -= used
            continue
        band = _band(F, S, opts, i, slot)
        if band == BAND_SHORT or band == BAND_LONG:
            if halves == 2 and F[i, P_A] >= 2 and _swift_ready(F, S, opts, i, slot):
                for _k in range(F[i, P_A]):  # W-7.11 swift shots
                    if _lost_foe(F, S, opts, st, i):
                        break
                    shot = _fire_slot(F, S, i, False) if opts[O_SWIFT_BRACE] == SWIFT_BRACE_ON else slot
                    if shot < 0 or (shot == SLOT_MISSILE and S[i, S_LOADED] == 0) \
                            or (shot != SLOT_MISSILE and S[i, S_LOADED_OFF] == 0):
                        break
                    shot_band = _band(F, S, opts, i, shot)
                    if shot_band != BAND_SHORT and shot_band != BAND_LONG:
                        break
                    _shoot(F, S, opts, grid, fx, st, cnt, i, shot, shot_band, 0)
                halves = 0
            elif halves == 2:
                _shoot(F, S, opts, grid, fx, st, cnt, i, slot, band, _aim_bonus(F, i))
                halves = 0
            elif opts[O_AIM] == AIM_NEXT_ACTION:
                S[i, S_AIM] = _aim_bonus(F, i)  # W-7.3 next_action: aim, kept for the next turn's shot
                halves = 0
            else:
                _shoot(F, S, opts, grid, fx, st, cnt, i, slot, band, 0)
                halves -= 1
            continue
        if band == BAND_EXTREME and halves == 2:
            _shoot(F, S, opts, grid, fx, st, cnt, i, slot, band, _aim_bonus(F, i))
            return
        move_toward(S, i, foe(S, i), _move_yards(F, opts, i), _long_range(F, opts, i, slot))
        _settle(S)
        halves -= 1


@rule
def _drop_off(F, S, opts, i):
    """W-7.12: i lets go of its off-hand missile weapon (W-7.8) before drawing its melee items
    (``drop = free``: no action; ``half``: a half action). Returns the half actions it costs."""
    if S[i, S_OFF_MISSILE] == 0:
        return 0
    S[i, S_OFF_MISSILE] = 0
    S[i, S_LOADED_OFF] = 0
    return 1 if opts[O_DROP] == DROP_HALF else 0


@rule
def _ready_melee(F, S, i):
    """W-8.10, W-7.12: the Ready that stows the missile weapon and draws the melee items (a reload
    under way is lost)."""
    S[i, S_MISSILE] = 0
    S[i, S_RELOADING] = 0
    S[i, S_HELD_MAIN] = _wf(F, i, SLOT_MAIN, W_PRESENT)
    S[i, S_HELD_OFF] = _wf(F, i, SLOT_OFF, W_PRESENT)


@rule
def _draw_after(F, S, opts, grid, fx, st, cnt, i, halves, attacked):
    """W-8.10 with ``halves`` half actions left (``attacked``: the round's attack is spent, W-2.4):
    i drops its off-hand missile weapon (:func:`_drop_off`), stows the main-hand one and readies its
    melee items (a half action); with a half action left, unless it attacked, a standard attack.
    With Quick Draw (W-7.12) the Ready is free: after an attack the half action left takes the parry
    stance (W-3.7); else the half actions left go to the melee tactic. Returns the half actions left
    for it."""
    if halves == 0 or _lost_foe(F, S, opts, st, i):
        return 0
    halves -= _drop_off(F, S, opts, i)
    if halves == 0:
        return 0
    _ready_melee(F, S, i)
    if F[i, P_QUICK_DRAW] != 0:
        if not attacked:
            return halves
        S[i, S_PARRY_STANCE] = 1
        return 0
    if halves == 2:
        _attack(F, S, opts, grid, fx, st, cnt, i, 0, False)
    return 0


@rule
def _draw(F, S, opts, grid, fx, st, cnt, i, halves, kept):
    """W-8.10 engaged with the missile weapon in hand (W-7.6: only a pistol-class weapon fires in
    melee): a loaded one fires first (−20, W-7.7; the main-hand one, else the off-hand one, W-7.8;
    with ``kept``, the bonus of an aim kept from its last turn, W-7.3); then :func:`_draw_after`.
    From then on it fights by its melee tactic. Returns the half actions left for it."""
    slot = _fire_slot(F, S, i, True)
    if slot >= 0:
        _shoot(F, S, opts, grid, fx, st, cnt, i, slot, _band(F, S, opts, i, slot), kept)
        halves -= 1
    return _draw_after(F, S, opts, grid, fx, st, cnt, i, halves, slot >= 0)


@rule
def _manoeuvre(F, S, opts, st, i):
    """W-3.13, W-11.7: i's manoeuvre (a half action, the round's attack): with ``manoeuvre_test =
    attack`` a WS attack with the item it attacks with (W-4.1; fortune reroll as an attack) that the
    foe may parry or dodge (W-4.3 – W-4.6), with ``opposed_ws`` an opposed WS test (W-1.4, the
    feint's targets). A hit (a win) pushes the foe 2 yards away, to 4 yards (W-11.5, within the arena); with
    ``manoeuvre_follow = advance`` i follows into the square it left. Not counted among the attacks:
    it deals no damage. Returns whether the foe was pushed."""
    e = foe(S, i)
    if opts[O_MANOEUVRE_TEST] == MANOEUVRE_OPPOSED_WS:
        t_i, t_e = _feint_targets(F, S, opts, i)
        won = _opposed(opts, st, t_i, t_e)
    else:
        slot = _attack_slot(F, S, i)
        ok, _roll = _test(S, opts, st, i, _attack_target(F, S, opts, i, slot, 0), _fortune_allows(opts, S, i, False))
        won = ok and _react(F, S, opts, st, e, i, slot) == OUT_HIT
    if won:  # W-11.5: 2 yards beyond adjacent, whatever the gap engaged (0 when they start engaged)
        _retreat(F, S, opts, e, CHARGE_DISTANCE - apart(S, i, e))
        if opts[O_MANOEUVRE_FOLLOW] == MANOEUVRE_ADVANCE:
            move_toward(S, i, e, ENGAGE_DISTANCE, ENGAGE_DISTANCE)
            _settle(S)
    return won


@rule
def _push_turn(F, S, opts, grid, fx, st, cnt, i, halves):
    """W-11.7 (fighter field ``push``, ``kite`` and ``marksman``): engaged with the missile weapon in
    hand, i manoeuvres (:func:`_manoeuvre`); apart again, the half action left Moves it away (2·M,
    W-11.2); still engaged (a failed push, or ``manoeuvre_follow = advance``) it draws
    (:func:`_draw_after`, the round's attack spent). Returns the half actions left."""
    _manoeuvre(F, S, opts, st, i)
    halves -= 1
    if halves == 0 or _lost_foe(F, S, opts, st, i):
        return 0
    if S[i, S_ENGAGED] == 0:
        _retreat(F, S, opts, i, _move_yards(F, opts, i))
        return 0
    return _draw_after(F, S, opts, grid, fx, st, cnt, i, halves, True)


@rule
def _kite(F, S, opts, grid, fx, st, cnt, i, kept):
    """W-8.11 ``kite`` with two half actions, not engaged; r = reach(foe) (:func:`_reach`: its charge
    reach, W-11.2, or with no charge its Move + 2 yards), s = i's Move, d = the distance. (1) d >
    r: :func:`_marksman`; (2) d + s > r and loaded: Move away +
    a shot; (3) d + s > r, empty and a one-half-action reload: Move away + reload; (4) d + 2s > r:
    Move away twice; (5) d + Run > r: Run away (W-11.2: −20 to shots, +20 WS to melee at it until
    its next turn); (6) else, or at the arena's end (W-11.5): :func:`_marksman` (``kept``: an aim
    kept from its last turn, W-7.3, used by the marksman's shot only)."""
    e = foe(S, i)
    d = apart(S, i, e)
    r = _reach(F, opts, e)
    s = _move_yards(F, opts, i)
    run = _run_yards(F, opts, i)
    if d > r or _at_edge(F, S, opts, i):
        _marksman(F, S, opts, grid, fx, st, cnt, i, 2, kept)
        return
    slot = _fire_slot(F, S, i, False)
    if d + s > r and slot >= 0:
        _retreat(F, S, opts, i, s)
        band = _band(F, S, opts, i, slot)
        if band == BAND_SHORT or band == BAND_LONG:
            _shoot(F, S, opts, grid, fx, st, cnt, i, slot, band, 0)
        return
    if d + s > r and _reload_need(F, i, SLOT_MISSILE) <= 1:
        _retreat(F, S, opts, i, s)
        _reload(F, S, i, 1)
        return
    if d + 2 * s > r:
        _retreat(F, S, opts, i, s)
        _retreat(F, S, opts, i, s)
        return
    if run > 0 and d + run > r:
        _retreat(F, S, opts, i, run)
        S[i, S_RUNNING] = 1
        return
    _marksman(F, S, opts, grid, fx, st, cnt, i, 2, kept)


@rule
def _approaching(F, S, e):
    """W-8.14: whether e closes in (a melee fighter, its missile weapon not in hand, not a turtle)."""
    return S[e, S_MISSILE] == 0 and _melee_tactic(F, e) != T_TURTLE


@rule
def _overwatch_shot(F, S, opts, grid, fx, st, cnt, i, arriving):
    """W-8.14, W-11.6: i's kept half action after its foe's action: the foe within i's short range,
    i shoots (unaimed; engaged only a pistol-class weapon, W-7.6, unless ``arriving``: a charger
    after its move, before its blow, ``delay_cut = after_move``); the kept half is spent either way
    once the foe is within short range."""
    if S[i, S_KEPT] == 0 or decided(S) or foe_distance(S, i) > _wf(F, i, SLOT_MISSILE, W_SHORT):
        return
    S[i, S_KEPT] = 0
    if S[i, S_MISSILE] == 0:
        return
    engaged = S[i, S_ENGAGED]
    slot = _fire_slot(F, S, i, engaged != 0 and not arriving)
    if slot < 0:
        return
    if arriving:
        S[i, S_ENGAGED] = 0
    _shoot(F, S, opts, grid, fx, st, cnt, i, slot, _band(F, S, opts, i, slot), 0)
    S[i, S_ENGAGED] = engaged


@rule
def _ranged_turn(F, S, opts, grid, fx, st, cnt, i, halves, kept):
    """The turn of a fighter with its missile weapon in hand: engaged, :func:`_push_turn` (field
    ``push``, W-11.7; the foe not helpless nor in a grapple, W-12.3: it does not move), a kiter's
    flight (``kite_flee = on`` with ``flee_outcome = reposition`` and two half actions, W-8.11,
    W-3.16) or :func:`_draw`; else
    :func:`_kite` (``kite`` with two half actions), ``overwatch`` (W-8.14: loaded, its foe approaching
    beyond short range: it delays, W-11.6, keeping a half action for :func:`_overwatch_shot`) or
    :func:`_marksman` (W-8.9 – W-8.11); empty with
    its supply spent (W-7.12) it stows the missile weapon and readies its melee items (a half
    action, free with Quick Draw). ``kept``: the bonus of an aim kept from its last turn (W-7.3
    ``next_action``), for a shot as its first action (:func:`_draw`, :func:`_marksman`); any other
    first action loses it. Returns the half actions left for the melee tactic."""
    e = foe(S, i)
    if S[i, S_ENGAGED] != 0:
        if F[i, P_PUSH] != 0 and S[e, S_HELPLESS] == 0 and not _in_grapple(S, e):
            return _push_turn(F, S, opts, grid, fx, st, cnt, i, halves)
        if (F[i, P_TACTIC] == T_KITE and halves == 2 and opts[O_KITE_FLEE] == KITE_FLEE_ON
                and opts[O_FLEE_OUTCOME] == FLEE_REPOSITION):
            _flee(F, S, opts, grid, fx, st, cnt, i)
            return 0
        return _draw(F, S, opts, grid, fx, st, cnt, i, halves, kept)
    if S[i, S_LOADED] == 0 and S[i, S_SUPPLY] == 0:  # W-7.12: spent; the melee items readied (a Ready)
        halves -= _drop_off(F, S, opts, i)
        if halves == 0:
            return 0
        _ready_melee(F, S, i)
        return halves if F[i, P_QUICK_DRAW] != 0 else halves - 1
    if F[i, P_TACTIC] == T_KITE and halves == 2:
        _kite(F, S, opts, grid, fx, st, cnt, i, kept)
    elif F[i, P_TACTIC] == T_OVERWATCH and halves == 2 and _approaching(F, S, e) and _fire_slot(F, S, i, False) >= 0 \
            and apart(S, i, e) > _wf(F, i, SLOT_MISSILE, W_SHORT):
        S[i, S_KEPT] = 1  # W-8.14, W-11.6: delay, a half action kept
    else:
        _marksman(F, S, opts, grid, fx, st, cnt, i, halves, kept)
    return 0


@rule
def _feint_targets(F, S, opts, i):
    """W-3.9: the targets of the feint's opposed WS test (W-1.4): i's and its foe's WS with their
    critical-effect penalties (capped, W-1.6)."""
    e = foe(S, i)
    return F[i, P_WS] + _capped(opts, -S[i, S_PEN_WS]), F[e, P_WS] + _capped(opts, -S[e, S_PEN_WS])


@rule
def _feint(F, S, opts, st, i):
    """W-3.9: the opposed WS test of a feint. True if i wins."""
    t_init, t_def = _feint_targets(F, S, opts, i)
    return _opposed(opts, st, t_init, t_def)


@rule
def _flee(F, S, opts, grid, fx, st, cnt, i):
    """W-3.16, W-11.4, W-13.4: i flees (a full action). Engaged, with ``leave_melee = seed`` every
    enemy engaged with it (whose foe it is, within 2 yards; in a duel its foe) and in no grapple
    (W-12.3: it attacks no one else), in row order, first gets a free standard attack while i is
    still in (``rulebook``: it disengages, no free attack). If still in the fight it is out (fled)
    with ``flee_outcome = out``, or with ``reposition`` moves 2·M yards away from its foe (W-11.2
    Flee; halved in difficult terrain; within the arena, W-11.5) and stays in."""
    if S[i, S_ENGAGED] != 0 and opts[O_LEAVE_MELEE] == LEAVE_MELEE_SEED:
        for j in range(F.shape[0]):  # W-13.4: every enemy engaged with it, in row order
            if (S[j, S_OUT] == 0 and foe(S, j) == i and apart(S, i, j) <= ENGAGE_DISTANCE and S[i, S_OUT] == 0
                    and not _in_grapple(S, j)):
                _attack(F, S, opts, grid, fx, st, cnt, j, 0, False)
    if opts[O_FLEE_OUTCOME] == FLEE_OUT:
        put_out(F, S, i, CAUSE_FLED)
    elif S[i, S_OUT] == 0:
        _retreat(F, S, opts, i, _move_yards(F, opts, i))
