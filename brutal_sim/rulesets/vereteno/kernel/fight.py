"""V-2.6 the fight of rounds, on the shared battle block (:mod:`brutal_sim.toolbox.battle`): its
opening (V-10.6 at ``start_distance``, V-10.10 the stealth approach, V-2.5 surprise, V-6.9),
initiative each round (V-2.4), the refill (V-2.3) and the lapse of sector control at it (V-11.13),
turns in initiative order until a side is out or the round cap, counting a decided fight (V-6.1),
and the single attack of ``run_attacks``. Imports every chapter above it.

The flag ``ranged`` (the drivers' kernel variant): ``None`` plays a melee fight at point blank
(the turns of :mod:`.rounds`) and compiles nothing of :mod:`.distance`, :mod:`.shooting` or
:mod:`.ranged`; ``True`` plays a fight at a distance (the turns of :mod:`.ranged`). With no gun in
hand and ``start_distance`` ≤ 1 both draw the same dice in the same order.
"""

from __future__ import annotations

from ....core.battle import B_AWAY, B_ORDER, B_OUT
from ....toolbox.battle import apart, decided, drawn, foe, last_out, loser_side, set_round
from ....toolbox.jit import rule
from ....toolbox.tally import count_decision
from ..layout import C_DRAWS, K_NONE, REACH, S_AP, S_DEAD, S_HARMED, S_OUT, S_SECTOR, SH_NONE, SH_THROW, TALLY
from ..options import (
    O_AP_REFILL,
    O_INIT_ROLL,
    O_OVERWATCH_EXPIRY,
    O_ROUND_CAP,
    O_STEALTH,
    O_SURPRISE,
    OVERWATCH_EXPIRY_REFILL,
)
from .actions import _plan
from .checks import KIND_COST
from .distance import _in_reach, _open, _stealth_approach, _step_to
from .grapple import _can_finish, _finish_off
from .groups import _choose_foe
from .initiative import _arrivals, _order, _refill, _reset, _roll_initiative, _surprise
from .melee import _attack
from .orders import _orders_lapse
from .ranged import TO_SHOTS, TURN_OVER, _ranged_start, _ranged_turn_in, _ready_weapon, _to_first_shot
from .rounds import _turn_in, _turn_start
from .shooting import _look, _plan_shot, _shoot, _throw
from .traumas import _immobilise


@rule
def _finish(F, S, cnt, rnd, round_cap):
    """V-6.1: count a fight decided in round ``rnd``: both sides out at once is a draw (``drawn``);
    else the losing side's last fighter out (``loser_side``, ``last_out``) is the deciding takedown
    of the header. Returns 0 a won, 1 b won, 2 a draw."""
    if drawn(S):
        cnt[C_DRAWS] += 1
        return 2
    loser = loser_side(S)
    last = last_out(F, S, loser)
    count_decision(cnt, S, loser, S[last, S_OUT] - 1, S[last, S_DEAD], S[last, S_HARMED] == 1, rnd, round_cap,
                   TALLY)
    return 1 - loser


@rule
def _fight(F, S, opts, tt, st, cnt, ranged, group):
    """One fight (V-2.6): a fresh state (at ``start_distance`` with covers and guns in hand,
    :func:`_open`, when ``ranged``), the immobilised fighters (V-6.9), the stealth approach (V-10.10,
    when ``ranged`` and option ``stealth``) or else the surprise of side ``surprise`` (V-2.5), the
    first initiative roll; then rounds until a side is out or the round cap: initiative again from
    round 2 (``init_roll = every_round``), the turn order (:func:`_order`), the refill at the start
    of the round (``ap_refill = round_start``), set-aside AP lapsing there (``overwatch_expiry =
    refill``, V-11.13), and each fighter still in takes its turn in order (:func:`_turn`, or
    :func:`_ranged_turn` when ``ranged``); the fight ends after the turn that decides it (every
    fighter of a side out, V-6.1).

    A fight of more than two (V-14): fighters with a later ``arrive_round`` are away until then
    (they roll no initiative and take no turn; on arriving each rolls its initiative base,
    :func:`_arrivals`); every fighter chooses its foe after the first initiative, in turn order, and
    again at the start of each of its turns (:func:`_choose_foe`); one with no enemy in the fight
    waits. Each round starts with its number in the fight-wide ``B_ROUND`` and the lapse of the order
    bonuses past their last round (V-13.4, :func:`.orders._orders_lapse`).

    ``group`` the drivers' flag: None for a duel compiles none of the fights of several.

    Returns 0 if side a won, 1 if side b won, 2 for a draw.
    """
    n = F.shape[0]
    if ranged is not None:
        _open(F, S, opts)
    else:
        _reset(F, S)
    _immobilise(F, S, opts)
    approached = False
    if ranged is not None:
        if opts[O_STEALTH] > 0:  # V-10.10: the stealth check decides the surprise and the opening distance
            _stealth_approach(F, S, opts, st)
            approached = True
    if not approached and opts[O_SURPRISE] > 0:
        _surprise(F, S, opts, opts[O_SURPRISE] - 1)
    _roll_initiative(F, S, opts, st, True)
    for rnd in range(1, opts[O_ROUND_CAP] + 1):
        if group is not None:
            set_round(S, rnd)
            _orders_lapse(F, S, rnd)  # V-13.4
            if rnd > 1 and n > 2:
                _arrivals(F, S, opts, st, rnd)
        if rnd > 1 and opts[O_INIT_ROLL] != 0:
            _roll_initiative(F, S, opts, st, False)
        _order(F, S, st, group)
        if group is not None:
            if rnd == 1 and n > 2:  # V-14: every fighter in turn order chooses its foe (a duel's are set)
                for p in range(n):
                    if S[S[p, B_ORDER], B_AWAY] == 0:
                        _choose_foe(F, S, opts, st, S[p, B_ORDER])
        if opts[O_AP_REFILL] == 0:
            for j in range(n):
                _refill(F, S, j)
        if ranged is not None:
            if opts[O_OVERWATCH_EXPIRY] == OVERWATCH_EXPIRY_REFILL:  # V-11.13: set-aside AP lapse at the refill
                for j in range(n):
                    S[j, S_SECTOR] = 0
        for p in range(n):
            i = S[p, B_ORDER]
            if i < 0 or S[i, B_OUT] != 0:  # (i < 0 never: an index guard, kernel docstring)
                continue
            if group is not None:
                if n > 2:  # V-14: the foe is chosen again at the start of each turn (no dice but random's)
                    if S[i, B_AWAY] != 0:
                        continue
                    _choose_foe(F, S, opts, st, i)
                    e = foe(S, i)
                    if e < 0:  # no enemy in the fight (those left are still to arrive): it waits
                        continue
                    if S[e, S_OUT] != 0:  # finish_helpless = on: it finishes off its helpless foe (V-3.11)
                        _finishing_turn(F, S, opts, tt, st, cnt, i, ranged)
                        if decided(S):  # bleeding at its turn's start may put the finisher's side out
                            return _finish(F, S, cnt, rnd, opts[O_ROUND_CAP])
                        continue
            if ranged is not None:
                _ranged_turn_in(F, S, opts, tt, st, cnt, i, group)
            else:
                _turn_in(F, S, opts, tt, st, cnt, i, group)
            if decided(S):
                return _finish(F, S, cnt, rnd, opts[O_ROUND_CAP])
    cnt[C_DRAWS] += 1
    return 2


@rule
def _finishing_turn(F, S, opts, tt, st, cnt, i, ranged):
    """V-3.11, V-6.6: the turn of ``i`` whose foe lies helpless (``finish_helpless = on``): its start
    (:func:`_ranged_start` or :func:`_turn_start`), then, at a distance, moves (1 AP each) to point
    blank of it; with 3 AP left there, the finishing blow (:func:`.grapple._finish_off`); else it
    waits for a full pool **[reading]**."""
    if ranged is not None:
        S[i, S_SECTOR] = 0  # V-11.13: its own turn ends its sector control
        if not _ranged_start(F, S, opts, tt, st, cnt, i):
            return
        e = foe(S, i)
        while S[i, S_AP] >= 1 and apart(S, i, e) > REACH:
            _step_to(F, S, opts, i, REACH)
    elif not _turn_start(F, S, opts, tt, st, cnt, i):
        return
    if _can_finish(S, i):
        _finish_off(F, S, opts, tt, st, cnt, i)


@rule
def _single_attack(F, S, opts, tt, st, cnt, ranged):
    """One attack by side a's first fighter (row 0) on its fresh foe: its tactic's first melee
    attack; when ``ranged``, from ``start_distance``, the first shot or throw (V-11.20) of its first
    turn: the turn's steps before it (:func:`_to_first_shot`: readying, a reload, a move, lying
    down, bracing, a thrower's moves to its item's range), then its perception check under poor
    visibility (V-11.18) and the shot of its tactic (:func:`_plan_shot`); after a draw, or
    without a gun in hand, its foe within its melee reach, its tactic's first melee attack (a
    thrower readying its weapon first)."""
    if ranged is not None:
        _open(F, S, opts)
    else:
        _reset(F, S)
    _immobilise(F, S, opts)
    if ranged is not None:
        step = _to_first_shot(F, S, opts, tt, st, cnt, 0)
        if step == TURN_OVER:
            return
        if step == TO_SHOTS:
            if _plan_shot(F, S, 0) != SH_NONE:
                _look(F, S, opts, st, 0)
                shot = _plan_shot(F, S, 0)
                if shot == SH_THROW:
                    _throw(F, S, opts, tt, st, cnt, 0)
                elif shot != SH_NONE:
                    _shoot(F, S, opts, tt, st, cnt, 0, shot)
            return
        if not (_in_reach(F, S, 0) and _ready_weapon(S, 0)):
            return
    kind = _plan(F, S, 0)
    if kind != K_NONE:
        S[0, S_AP] -= KIND_COST[kind]
        _attack(F, S, opts, tt, st, cnt, 0, foe(S, 0), kind)
