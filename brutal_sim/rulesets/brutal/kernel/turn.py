"""The round and the turn (B-2, B-3): the fight's reset, initiative and turn order, fear at the start,
a fighter's turn (conditions, actions by tactic), the fight loop.

Rules: B-2.2, B-2.3, B-2.4, B-2.6, B-2.8, B-2.9, B-3.2, B-3.4, B-3.7, B-3.8, B-3.10, B-3.11,
B-3.12, B-7.5, B-7.8, B-7.10, B-8, B-9.1, B-9.7, B-9.8, B-9.9.

Arguments are those of the kernel package (:mod:`brutal_sim.rulesets.brutal.kernel`).
"""

from __future__ import annotations

from ....core.battle import STATE_BLOCK
from ....toolbox.battle import (
    DICE_2D6,
    decided,
    foe_distance,
    last_out,
    loser_side,
    place_sides,
    put_out,
    start_battle,
    turn_order,
)
from ....toolbox.jit import inline_rule, loop_inline_rule, rule
from ....toolbox.rng import roll_2d6
from ....toolbox.tally import count_decision
from ..layout import (
    C_DRAWS,
    CAUSE_FLED,
    G_CONTROLS,
    G_HELD,
    HELD_STUCK,
    NS,
    P_AGILITY,
    P_ENDURANCE,
    P_FATIGUE0,
    P_INIT_MOD,
    P_INIT_TALENT,
    P_OA_PER_ROUND,
    P_RESOLVE,
    P_SIDE,
    P_WILLPOWER,
    S_BLEED,
    S_DAZE,
    S_DEAD,
    S_FOE,
    S_FRIGHTENED,
    S_FULL_PEN,
    S_GRAPPLE,
    S_HARMED,
    S_HELD_MAIN,
    S_HELD_OFF,
    S_IN_TURN,
    S_INIT_MOD,
    S_INIT_TIE,
    S_MOVING,
    S_NO_OA,
    S_NO_REACT,
    S_OA_LEFT,
    S_ORDER,
    S_OUT,
    S_PRONE,
    S_READIED,
    S_STANCE,
    S_STUN,
    S_SURPRISED,
    S_TURNS,
    SLOT_MAIN,
    SLOT_OFF,
    TALLY,
    W_PRESENT,
)
from ..options import (
    FELLED_STAND_UP,
    KNOCKED_AWAY_RETRY,
    O_FELLED_WHILE_READYING,
    O_KNOCKED_AWAY_AGAIN,
    O_ROUND_CAP,
    O_START_DISTANCE,
    O_SURPRISE,
    TRIGGER_ENTERS_REACH,
)
from .actions import (
    _answer_readied,
    _free_stuck,
    _needs_ready,
    _readies,
    _ready,
    _ready_attack,
    _rise,
    _tactic_attack,
)
from .checks import (
    _attackable,
    _can_go_on,
    _fatigue_penalty,
    _fatigue_penalty_of,
    _lets_go_of_ranged,
    _set_fatigue,
    _set_ground,
    _shooter,
    _wb,
)
from .grapple import _grapple_escape, _grapple_hold, _release
from .groups import _choose_foe
from .ranged import (
    _charge,
    _charges,
    _close_in,
    _shooter_actions,
    _shot_action,
    _sprint_stop,
)
from .situation import _draw_shown
from .wounds import (
    _enemy_fear,
    _exertion_due,
    _fear,
    _fear_difficulty,
    _gain_fatigue,
    _light_damage,
    _until_end_of_next_turn,
)


@inline_rule
def _turn(F, S, opts, zt, st, cnt, i, ranged):
    """One turn of fighter i (B-2.4): fear, expiries, bleeding, exertion, then a sensible fighter's
    actions against its foe (``S_FOE``; in group fights ``_fight`` lets i choose it just before).

    In a grapple (B-3.12) the controller's full action, or the held fighter's (after breaking free
    one standard action remains). Otherwise two standard actions: stand up while prone (B-3.11,
    ``_rise``; again if the opportunity attack felled it while rising, option ``refelled``), ready
    the main weapon if dropped (B-3.10; again if the opportunity attack knocked it away, option
    ``knocked_away_again``; felled by that attack, it stands up first with a remaining action when
    ``felled_while_readying`` is ``stand_up``), try to free a stuck main weapon (B-9.7), then a
    shooter's actions (B-8), or else charge or close in if apart (B-8) and the tactic's attack if
    engaged, then ready a dropped off-hand item (felled meanwhile: as for the main weapon), or try
    to free a stuck one, with a spare action. A readying tactic
    (B-9.1, ``_readies``) readies its attack instead of charging, closing in or attacking; a fighter
    that closes in to melee fires the readied attacks its arrival triggers (``enemy_enters_reach``)
    before its further actions. Dazed or surprised
    fighters take no actions (B-7.5, B-2.3), also when dazed by an opportunity attack during the
    turn; a controller who cannot act lets go. Timed conditions run out at the end of the turn
    (B-2.8). Without a foe (``S_FOE`` −1), or with a foe out of the fight (unless it lies helpless
    and ``finish_helpless`` is on, B-9.8), i makes no attack and takes no stance. (The actions stay
    in this function: a separate one cost the 1v1 kernel 8 % speed.)

    ``ranged`` None leaves out the steps of B-8 (sprints, shooters' actions, charges, closing in):
    a fight in which nobody holds a ranged weapon and the sides start engaged never takes them, and
    compiles none of them.
    """
    S[i, S_TURNS] += 1
    if S[i, S_FRIGHTENED] != 0:  # B-7.10: the second fear check, before the turn
        r1, r2 = roll_2d6(st)
        if r1 + r2 + F[i, P_WILLPOWER] - _fatigue_penalty(F, S, i) < _fear_difficulty(_enemy_fear(F, i)):
            put_out(F, S, i, CAUSE_FLED)  # panic: flees
            return
        S[i, S_FRIGHTENED] = 0
        S[i, S_DAZE] = 0
        _until_end_of_next_turn(S, i, S_STUN)  # stunned until the end of this turn
    # effects lasting "until the start of the own next turn" (B-3.2, B-3.4, B-3.7, B-2.6)
    S[i, S_STANCE] = 0
    S[i, S_NO_REACT] = 0
    S[i, S_NO_OA] = 0
    S[i, S_FULL_PEN] = 0
    S[i, S_MOVING] = 0  # B-8: a runner is a moving target until its next turn
    S[i, S_READIED] = 0  # B-9.1: a readied attack lasts until the start of the own next turn
    for _ in range(S[i, S_BLEED]):  # B-7.5: one light damage per bleeding wound
        _light_damage(F, S, i)
    if _exertion_due(F, S, opts, i):  # B-7.8 option: the exertion of fighting
        _gain_fatigue(F, S, opts, st, i, 1)
    if S[i, S_OUT] != 0:
        return
    S[i, S_IN_TURN] = 1
    acting = S[i, S_DAZE] == 0 and S[i, S_SURPRISED] == 0
    if S[i, S_GRAPPLE] == G_CONTROLS and not acting:
        _release(S, i, S[i, S_FOE])  # B-3.12: no controlling action this turn, the grapple ends
    if acting:
        acts = 2
        if ranged is not None:
            _sprint_stop(F, S, opts, st, i)  # B-8: the turn after a sprint
        if S[i, S_GRAPPLE] == G_HELD:
            acts = _grapple_escape(F, S, opts, zt, st, cnt, i)
        if S[i, S_GRAPPLE] == G_CONTROLS:  # also at once after a take-over
            _grapple_hold(F, S, opts, zt, st, cnt, i)
            acts = 0
        if S[i, S_PRONE] != 0:
            acts = _rise(F, S, opts, zt, st, cnt, i, acts)  # B-3.11
        if acts > 0 and _needs_ready(F, S, i, SLOT_MAIN):
            up = S[i, S_PRONE] == 0
            tries = 0
            while (acts > 0 and _can_go_on(S, i) and _needs_ready(F, S, i, SLOT_MAIN)
                   and (tries == 0 or opts[O_KNOCKED_AWAY_AGAIN] == KNOCKED_AWAY_RETRY)):
                _ready(F, S, opts, zt, st, cnt, i, SLOT_MAIN)
                tries += 1
                acts -= 1
            if up and S[i, S_PRONE] != 0 and opts[O_FELLED_WHILE_READYING] == FELLED_STAND_UP:
                acts = _rise(F, S, opts, zt, st, cnt, i, acts)  # B-3.10: felled by the Ready's attack
        if acts > 0 and _can_go_on(S, i) and S[i, S_HELD_MAIN] == HELD_STUCK:
            _free_stuck(F, S, st, i, SLOT_MAIN)  # B-9.7
            acts -= 1
        shooting = False
        if ranged is not None:
            if acts > 0 and _can_go_on(S, i) and _shooter(F, S, i) and _lets_go_of_ranged(F, S, i):
                S[i, S_HELD_MAIN] = 0  # B-8 drop_ranged: dropping it is a free action
            shooting = acts > 0 and _can_go_on(S, i) and _shooter(F, S, i)
        if shooting:
            acts = _shooter_actions(F, S, opts, zt, st, cnt, i, acts)
        else:
            if acts > 0 and _can_go_on(S, i) and _readies(F, S, opts, i, acts):
                _ready_attack(S, i)  # B-9.1: the full action
                acts = 0
            if ranged is not None:
                if acts > 0 and _can_go_on(S, i) and _charges(F, S, i, acts):
                    acts = _charge(F, S, opts, zt, st, cnt, i)  # B-8 charge [Натиск]
                if acts > 0 and _can_go_on(S, i) and foe_distance(S, i) > 0:
                    acts = _close_in(F, S, opts, i, acts)
                    if foe_distance(S, i) == 0:  # B-9.1: it came into reach
                        _answer_readied(F, S, opts, zt, st, cnt, i, TRIGGER_ENTERS_REACH)
            if (acts > 0 and _can_go_on(S, i) and foe_distance(S, i) == 0 and S[i, S_FOE] >= 0
                    and _attackable(S, opts, S[i, S_FOE])):
                acts = _tactic_attack(F, S, opts, zt, st, cnt, i, acts, False)
        if acts > 0 and _needs_ready(F, S, i, SLOT_OFF):
            up = S[i, S_PRONE] == 0
            tries = 0
            while (acts > 0 and _can_go_on(S, i) and _needs_ready(F, S, i, SLOT_OFF)
                   and (tries == 0 or opts[O_KNOCKED_AWAY_AGAIN] == KNOCKED_AWAY_RETRY)):
                _ready(F, S, opts, zt, st, cnt, i, SLOT_OFF)
                tries += 1
                acts -= 1
            if up and S[i, S_PRONE] != 0 and opts[O_FELLED_WHILE_READYING] == FELLED_STAND_UP:
                acts = _rise(F, S, opts, zt, st, cnt, i, acts)  # B-3.10: felled by the Ready's attack
        if acts > 0 and _can_go_on(S, i) and S[i, S_HELD_OFF] == HELD_STUCK:
            _free_stuck(F, S, st, i, SLOT_OFF)  # B-9.7
    if S[i, S_STUN] > 0:
        S[i, S_STUN] -= 1
    if S[i, S_DAZE] > 0:
        S[i, S_DAZE] -= 1
    S[i, S_IN_TURN] = 0


@inline_rule
def _reset(F, S):
    """Fresh state for a fight: weapons in hand, starting fatigue (B-7.8), no foes (a duel's two
    fighters are each other's foe at once: the only choice, docs/groups.md), every fighter in."""
    start_battle(F, S)
    for i in range(F.shape[0]):
        for k in range(STATE_BLOCK, NS):
            S[i, k] = 0
        S[i, S_HELD_MAIN] = F[i, _wb(SLOT_MAIN) + W_PRESENT]
        S[i, S_HELD_OFF] = F[i, _wb(SLOT_OFF) + W_PRESENT]
        _set_fatigue(F, S, i, F[i, P_FATIGUE0])  # B-7.8


@inline_rule
def _initiative(F, S, st):
    """B-2.2 (docs/groups.md): the turn order (``toolbox.battle.turn_order``) by 2d6 + resolve +
    initiative talents − starting fatigue (B-7.8); ties: an initiative talent, then the higher
    agility; a full tie rerolled."""
    for i in range(F.shape[0]):
        S[i, S_INIT_MOD] = (F[i, P_RESOLVE] + F[i, P_INIT_MOD]
                            - _fatigue_penalty_of(F[i, P_FATIGUE0], F[i, P_ENDURANCE]))
        S[i, S_INIT_TIE] = F[i, P_INIT_TALENT] * 1024 + F[i, P_AGILITY] + 512
    turn_order(F, S, st, DICE_2D6)


@loop_inline_rule
def _fight(F, S, opts, zt, st, cnt, ranged, group):
    """One fight (B-2.9, docs/groups.md): rounds of turns in initiative order until every fighter
    of a side is out (side a checked first) or the round cap. Fighters out of the fight take no
    turns. The header's cause, death and one-blow counters describe the losing side's last fighter
    to go out. ``ranged`` as for :func:`_turn`; ``group``, the drivers' flag for a fight of more than
    two, changes nothing here (the fight reads its size from ``F``).

    Returns 0 if side a won, 1 if side b won, 2 for a draw.
    """
    n = F.shape[0]
    _reset(F, S)
    _set_ground(F, S, opts)  # B-9.6
    place_sides(F, S, opts[O_START_DISTANCE])  # B-8
    _initiative(F, S, st)
    surprise = opts[O_SURPRISE]
    if surprise > 0:  # B-2.3: every fighter of that side
        for j in range(n):
            if F[j, P_SIDE] == surprise - 1:
                S[j, S_SURPRISED] = 1
    _fear(F, S, st)
    for j in range(n):  # B-9.9: the arm and leg shown behind three-quarter horizontal cover
        _draw_shown(F, S, opts, st, j)
    if n > 2:  # a duel's foes are set by _reset
        for p in range(n):
            _choose_foe(F, S, opts, st, S[p, S_ORDER])
    for rnd in range(1, opts[O_ROUND_CAP] + 1):
        for j in range(n):
            S[j, S_OA_LEFT] = F[j, P_OA_PER_ROUND]
        for p in range(n):
            i = S[p, S_ORDER]
            if i < 0 or S[i, S_OUT] != 0:  # (i < 0 never: an index guard, module docstring)
                continue
            if n > 2:
                # docs/groups.md: the foe is chosen in the turn after the bleeding and exertion; it
                # draws no dice and nothing before it in the turn changes the choice (a fighter that
                # goes out there is no one's engager either way), so it is made here, outside the hot
                # _turn (the foe of a duel never changes)
                _choose_foe(F, S, opts, st, i)
            _turn(F, S, opts, zt, st, cnt, i, ranged)
            if decided(S):
                loser = loser_side(S)
                last = last_out(F, S, loser)
                cause = S[last, S_OUT] - 1
                count_decision(cnt, S, loser, cause, S[last, S_DEAD],
                                S[last, S_HARMED] == 1 and cause != CAUSE_FLED, rnd, opts[O_ROUND_CAP], TALLY)
                return 1 - loser
        for j in range(n):
            S[j, S_SURPRISED] = 0
    cnt[C_DRAWS] += 1
    return 2


@rule
def _any_turn(F, S, opts, zt, st, cnt, i):
    """One turn of fighter i (:func:`_turn`) with the steps of B-8 compiled, whatever it holds (for
    the rule tests, which play single turns)."""
    _turn(F, S, opts, zt, st, cnt, i, True)


@rule
def _any_fight(F, S, opts, zt, st, cnt):
    """One fight (:func:`_fight`) with the steps of B-8 compiled, whatever the fighters hold (for
    the rule tests, which play fights on hand-made arrays). Returns 0 a won, 1 b won, 2 a draw."""
    return _fight(F, S, opts, zt, st, cnt, True, True)


@rule
def _single_attack(F, S, opts, zt, st, cnt, ranged):
    """One attack by side a's first fighter on a fresh foe (row 1), the first attack roll of its
    tactic; a shooter (``ranged`` not None) aims and shoots from the start distance (engaged at 0).
    The foe first draws the arm and leg it shows behind three-quarter horizontal cover (B-9.9)."""
    _reset(F, S)
    _set_ground(F, S, opts)  # B-9.6
    _draw_shown(F, S, opts, st, 1)
    S[0, S_IN_TURN] = 1
    if ranged is not None:
        if _shooter(F, S, 0):  # B-8: aimed shot from the start distance
            place_sides(F, S, opts[O_START_DISTANCE])
            if _lets_go_of_ranged(F, S, 0):
                S[0, S_HELD_MAIN] = 0
        if _shooter(F, S, 0):
            _shot_action(F, S, opts, zt, st, cnt, 0, 2)
            return
    _tactic_attack(F, S, opts, zt, st, cnt, 0, 2, True)
