"""Distance and shooting (B-8): moving and running, range bands, shots and their difficulty, reloading,
kiting, charges and sprints.

Rules: B-1, B-2.6, B-3.2, B-3.3, B-3.8, B-4.1, B-4.2, B-4.7, B-7.4, B-7.5, B-8, B-9.1, B-9.4, B-9.6, B-9.10.

Arguments are those of the kernel package (:mod:`brutal_sim.rulesets.brutal.kernel`).
"""

from __future__ import annotations

from ....toolbox.battle import foe_distance, move_away, move_toward
from ....toolbox.jit import inline_rule, rule
from ....toolbox.rng import roll_2d6
from ..layout import (
    C_ATTACKS,
    G_NONE,
    K_NORMAL,
    OUT_DODGED,
    OUT_HIT,
    OUT_MISS,
    P_AIM_ZONE,
    P_DODGE,
    P_MOVEMENT,
    P_RANGED,
    P_REACTION,
    P_SIDE,
    P_T_CHARGE,
    P_T_KITE,
    P_T_MOD,
    P_T_RANGED,
    P_T_RUN,
    R_NONE,
    S_CHARGING,
    S_FOE,
    S_FULL_PEN,
    S_GRAPPLE,
    S_MOVING,
    S_NO_REACT,
    S_NO_RUN,
    S_PRONE,
    S_RAN,
    S_RELOAD,
    S_SPRINTED,
    S_TURNS,
    SLOT_MAIN,
    W_LONG,
    W_MEDIUM,
    W_RELOAD,
    W_SHORT,
)
from ..options import (
    CHARGE_PROVOKES_TARGET,
    O_CHARGE_MOVING_TARGET,
    O_CHARGE_PROVOKES,
    O_SHORT_WEAPON_BANDS,
    O_SPRINT,
    SHORT_BANDS_SINGLE_SHIFT,
    TRIGGER_ATTACKS,
    TRIGGER_ENTERS_REACH,
)
from .actions import _adopt_stance, _answer_readied, _needs_ready, _provoke, _tactic_attack
from .attack import _attack, _hit
from .checks import (
    _attackable,
    _base_difficulty,
    _can_go_on,
    _can_react,
    _check_penalty,
    _degraded,
    _dodge_bonus_total,
    _dodge_made,
    _shooter,
    _wb,
)
from .situation import _deflected, _open_aim, _shot_cover_penalty, _unseen

MOBILITY_NORMAL = 10  # B-1 a normal check (the sprint's stop, B-8)


@rule
def _run_moves(F, S, opts, i, acts):
    """B-8: the moves i's run covers now: 0 no run; 4 a run when two moves cannot reach, the
    tactic runs (``run``), both actions are left and no heavy wound forbids it (B-7.4); 6 a sprint
    [Спринт] when even a run cannot reach, i ran (or sprinted) in its previous own turn and the
    option ``sprint`` allows it."""
    mov = F[i, P_MOVEMENT]
    if not (acts == 2 and F[i, P_T_RUN] != 0 and foe_distance(S, i) > 2 * mov and S[i, S_NO_RUN] == 0):
        return 0
    if (opts[O_SPRINT] != 0 and foe_distance(S, i) > 4 * mov and S[i, S_RAN] > 0
            and S[i, S_RAN] == S[i, S_TURNS] - 1):
        return 6
    return 4


@rule
def _close_in(F, S, opts, i, acts):
    """B-8: i, apart from its enemy, closes in with ``acts`` standard actions; returns those left.

    A run or sprint (``_run_moves``; full action: four or six moves, a moving target without
    reactions until i's next turn, B-2.6), remembered for the next turn's sprint and stop rule;
    otherwise moves (standard actions) of ``movement`` metres until engaged.
    """
    mov = F[i, P_MOVEMENT]
    moves = _run_moves(F, S, opts, i, acts)
    if moves > 0:
        move_toward(S, i, S[i, S_FOE], moves * mov, 0)
        S[i, S_MOVING] = 1
        S[i, S_NO_REACT] = 1
        S[i, S_FULL_PEN] = 1
        S[i, S_RAN] = S[i, S_TURNS]
        if moves == 6:
            S[i, S_SPRINTED] = S[i, S_TURNS]
        return 0
    while acts > 0 and foe_distance(S, i) > 0 and mov > 0:
        move_toward(S, i, S[i, S_FOE], mov, 0)
        acts -= 1
    return acts


@rule
def _shot_band(F, i, dist):
    """B-8: range band of i's main-hand weapon at ``dist``: 0 short, 1 medium, 2 long."""
    b = _wb(SLOT_MAIN)
    if dist <= F[i, b + W_SHORT]:
        return 0
    if dist <= F[i, b + W_MEDIUM]:
        return 1
    return 2


@rule
def _close_bonus(F, opts, a, dist):
    """B-8, B-9.10: point blank +2 / close +1 of a's shot at ``dist`` metres: ≤ 3 m / ≤ 10 m.
    ``short_weapon_bands = literal``: a main-hand weapon whose long range is ≤ 10 m has close within
    3 m, one whose long range is ≤ 3 m point blank within 1 m (a 4–10 m weapon: +2 within 3 m, no
    close bonus beyond); ``single_shift``: every weapon of long range ≤ 10 m has point blank ≤ 1 m
    and close ≤ 3 m."""
    reach = F[a, _wb(SLOT_MAIN) + W_LONG]
    if opts[O_SHORT_WEAPON_BANDS] == SHORT_BANDS_SINGLE_SHIFT:
        point_blank = 1 if reach <= 10 else 3
    else:
        point_blank = 1 if reach <= 3 else 3
    close = 3 if reach <= 10 else 10
    if dist <= point_blank:
        return 2
    if dist <= close:
        return 1
    return 0


@rule
def _shot_bonus(F, S, opts, a, mod):
    """Everything added to a's 2d6 for a shot at its enemy (B-8, B-4.2): ranged, ``mod``, the range
    band (medium −2, long −4), point blank +2 / close +1 (``_close_bonus``, B-9.10) unless the target
    is moving, a degraded weapon −2, wounds, stunned/dazed and fatigue (prone is a melee penalty
    only, B-7.5)."""
    d = S[a, S_FOE]
    dist = foe_distance(S, a)
    total = F[a, P_RANGED] + mod - 2 * _shot_band(F, a, dist) - _check_penalty(F, S, a)
    if _degraded(S, a, SLOT_MAIN):
        total -= 2
    if S[d, S_MOVING] == 0:
        total += _close_bonus(F, opts, a, dist)
    return total


@rule
def _shot_difficulty(S, d):
    """B-4.1: base difficulty of a shot at d: 8, a moving target 12; prone +2."""
    diff = _base_difficulty(S, d)
    if S[d, S_PRONE] != 0:
        diff += 2
    return diff


@rule
def _can_dodge_shot(F, S, d):
    """B-8: d may dodge a shot if it can react (not running, furious, surprised, out) and reacts at
    all (``parry`` and ``best`` fighters dodge shots)."""
    return _can_react(S, d) and F[d, P_REACTION] != R_NONE


@rule
def _shoot(F, S, opts, zt, st, cnt, a, mod, zone):
    """B-8: a shot by a at its foe d from its distance (``foe_distance``) in metres (within the long range).

    Draws the attack 2d6 (less the cover penalties, ``_shot_cover_penalty``); below the difficulty
    (8, moving 12, prone +2) it misses. Otherwise d may dodge: 2d6 + dodge (B-4.7 modifiers)
    against 10; a success raises the difficulty by 2 + its extra successes. A shot still hitting d
    in indirect cover draws the d100 that may deflect it (a miss). A hit has attack − difficulty
    extra successes and deals the weapon's damage less the band (``_hit`` with ``band``). The weapon
    then needs ``reload`` actions.
    """
    d = S[a, S_FOE]
    band = _shot_band(F, a, foe_distance(S, a))
    a1, a2 = roll_2d6(st)
    att = a1 + a2 + _shot_bonus(F, S, opts, a, mod) - _shot_cover_penalty(F, opts, a, d)
    S[a, S_RELOAD] = F[a, _wb(SLOT_MAIN) + W_RELOAD]
    diff = _shot_difficulty(S, d)
    out = C_ATTACKS + F[a, P_SIDE] * 5
    if att < diff:
        cnt[out + OUT_MISS] += 1
        return
    if _can_dodge_shot(F, S, d):
        d1, d2 = roll_2d6(st)
        dodge = d1 + d2 + _dodge_bonus_total(F, S, opts, d)
        _dodge_made(F, S, opts, d)  # B-9.4
        if dodge >= 10:
            diff += 2 + dodge - 10
            if att < diff:
                cnt[out + OUT_DODGED] += 1
                return
    if _deflected(F, opts, st, d):  # B-8 indirect cover: the d100 after a hit; counted as a miss
        cnt[out + OUT_MISS] += 1
        return
    cnt[out + OUT_HIT] += 1
    _hit(F, S, opts, zt, st, cnt, a, d, SLOT_MAIN, att - diff, a1 == 6 and a2 == 6, _open_aim(F, S, opts, zt, d, zone),
         0, band)


@rule
def _shot_plan(F, S, i):
    """B-8: modifier and aimed zone of i's shot: a ``ranged`` tactic lends its modifier, zone and
    stance (B-3.2, B-3.3); any other shoots plainly (0, −1)."""
    if F[i, P_T_RANGED] == 0:
        return 0, -1
    _adopt_stance(F, S, i)
    return F[i, P_T_MOD], F[i, P_AIM_ZONE]


@rule
def _shot_action(F, S, opts, zt, st, cnt, i, acts):
    """B-8: a loaded shooter's aim and shot with ``acts`` standard actions; returns those left.

    Beyond the long range it first moves closer (a move, never into melee). With two actions left
    it aims (+1; none against a moving target within 10 m). Engaged (distance 0) the shot is fired
    in melee (``_attack``: melee check, −2/−4, parry allowed; readied attacks answer it first, B-9.1,
    and a shooter dazed, out or disarmed by them does not fire); apart it is ``_shoot``. Without a
    foe (``S_FOE`` −1), or with a foe out of the fight (unless helpless with ``finish_helpless``,
    B-9.8), there is no shot.
    """
    e = S[i, S_FOE]
    if e < 0 or not _attackable(S, opts, e) or (foe_distance(S, i) > 0 and _unseen(F, opts, e)):  # B-8: cover 100 %
        return acts
    if foe_distance(S, i) > F[i, _wb(SLOT_MAIN) + W_LONG]:
        move_toward(S, i, e, F[i, P_MOVEMENT], 1)  # to the long range, never engaged
        acts -= 1
    if acts <= 0 or foe_distance(S, i) > F[i, _wb(SLOT_MAIN) + W_LONG]:
        return acts
    aim = 0
    if acts == 2:
        acts -= 1
        if S[e, S_MOVING] == 0 or foe_distance(S, i) > 10:
            aim = 1
    mod, zone = _shot_plan(F, S, i)
    if foe_distance(S, i) == 0:
        _answer_readied(F, S, opts, zt, st, cnt, i, TRIGGER_ATTACKS)  # B-9.1: before the shot
        if not _can_go_on(S, i) or not _shooter(F, S, i):
            return acts - 1
        _attack(F, S, opts, zt, st, cnt, i, e, SLOT_MAIN, mod + aim, zone, K_NORMAL)
    else:
        _shoot(F, S, opts, zt, st, cnt, i, mod + aim, zone)
    return acts - 1


@rule
def _shooter_actions(F, S, opts, zt, st, cnt, i, acts):
    """B-8: the turn of i with a usable ranged weapon in its main hand; returns actions left.

    A ``kite`` tactic first steps back (a move; from melee it provokes, B-3.8) when the enemy is
    engaged or within its one move. Then reload (a standard action each; engaged, each provokes),
    then, loaded, ``_shot_action``. (Kiting is for duels: its enemy is i's foe.)
    """
    e = S[i, S_FOE]
    mov = F[i, P_MOVEMENT]
    if F[i, P_T_KITE] != 0 and mov > 0 and e >= 0 and foe_distance(S, i) <= F[e, P_MOVEMENT]:
        _provoke(F, S, opts, zt, st, cnt, i)  # only when engaged
        acts -= 1
        if not _can_go_on(S, i):
            return acts
        move_away(F, S, i, e, mov)
    while acts > 0 and S[i, S_RELOAD] > 0 and _can_go_on(S, i) and _shooter(F, S, i):
        _provoke(F, S, opts, zt, st, cnt, i)  # B-3.8 manipulation (only when engaged)
        acts -= 1
        if _shooter(F, S, i):
            S[i, S_RELOAD] -= 1
    if acts > 0 and S[i, S_RELOAD] == 0 and _can_go_on(S, i) and _shooter(F, S, i):
        acts = _shot_action(F, S, opts, zt, st, cnt, i, acts)
    return acts


@rule
def _charges(F, S, i, acts):
    """B-8: whether i charges [Натиск] now: its tactic charges, both standard actions are left (a
    full action), the enemy is apart within a run's distance (four moves) and no heavy or critical
    wound forbids it (B-7.4)."""
    return (F[i, P_T_CHARGE] != 0 and acts == 2 and 0 < foe_distance(S, i) <= 4 * F[i, P_MOVEMENT]
            and S[i, S_NO_RUN] == 0)


@rule
def _first_action_runs(F, S, opts, i):
    """B-8: whether i's first action this turn will be a run or sprint (``_turn``'s order: not in a
    grapple, not prone, no weapon to ready, not a shooter, no charge)."""
    return (S[i, S_GRAPPLE] == G_NONE and S[i, S_PRONE] == 0 and not _needs_ready(F, S, i, SLOT_MAIN)
            and not _shooter(F, S, i) and not _charges(F, S, i, 2) and foe_distance(S, i) > 0
            and _run_moves(F, S, opts, i, 2) > 0)


@inline_rule
def _sprint_stop(F, S, opts, st, i):
    """B-8 sprint [Спринт]: in the own turn after a sprint i's first action must be a run, or i
    makes a normal (10) mobility check (2d6 + ``dodge`` − wounds, stunned/dazed, fatigue; one 2d6
    before its actions) and falls prone on a failure (the seed's d2+1 m roll is distance flavour,
    ignored). A turn without actions (dazed) ends the sprint without a check."""
    if S[i, S_SPRINTED] == 0 or S[i, S_SPRINTED] != S[i, S_TURNS] - 1 or _first_action_runs(F, S, opts, i):
        return
    r1, r2 = roll_2d6(st)
    if r1 + r2 + F[i, P_DODGE] - _check_penalty(F, S, i) < MOBILITY_NORMAL:
        S[i, S_PRONE] = 1


@rule
def _charge(F, S, opts, zt, st, cnt, i):
    """B-8 charge [Натиск]: a full action (−2 to reactions until i's next turn, B-2.6) that closes
    in and makes the tactic's attack as with one standard action left (``charge_attack_modifier``;
    a knock-down +2 athletics). With ``charge_moving_target`` i is a moving target until its next
    turn; with ``charge_provokes = target`` the charged enemy first makes its opportunity attack
    (B-3.8). Readied attacks its arrival triggers fire before both (B-9.1, ``enemy_enters_reach``).
    Returns the standard actions left (0)."""
    move_toward(S, i, S[i, S_FOE], foe_distance(S, i), 0)
    S[i, S_FULL_PEN] = 1
    if opts[O_CHARGE_MOVING_TARGET] != 0:
        S[i, S_MOVING] = 1
    _answer_readied(F, S, opts, zt, st, cnt, i, TRIGGER_ENTERS_REACH)
    if opts[O_CHARGE_PROVOKES] == CHARGE_PROVOKES_TARGET:
        _provoke(F, S, opts, zt, st, cnt, i)
    if _can_go_on(S, i):
        S[i, S_CHARGING] = 1
        _tactic_attack(F, S, opts, zt, st, cnt, i, 1, False)
        S[i, S_CHARGING] = 0
    return 0
