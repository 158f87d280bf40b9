"""The toy fight kernel (numba): the rules of a duel or a group fight, on the shared battle
mechanics of :mod:`brutal_sim.toolbox.battle`; the drivers that run them are in :mod:`.drivers`.

Inputs everywhere below:

F : int64[N, NF]
    Compiled fighters (the battle block, then ``P_*`` of :mod:`.layout`): rows ``0 … na−1`` side a
    in line order, then side b; N = 2 for a duel.
S : int64[N, NS]
    Their changing state during one fight (the battle block ``B_*``, then ``S_*``), reset at the
    start of every fight.
opts : int64[NO]
    Rule options (``O_*`` of :mod:`.options`).
st : uint64[4]
    The fight's random state (:mod:`brutal_sim.toolbox.rng`), seeded once per fight index.
cnt : int64[K]
    Counters (``C_*``), added to, never cleared; per side: attacks at the attacker's side, blows
    and damage at the taker's.

Draw order (the contract with the pure-Python reference ``tests/toy/naive_toy.py``): with
``turn_order = initiative`` first one d6 per fighter in row order (and the rerolls of full ties,
``toolbox.battle.turn_order``); then per attack or shot the attacker's 2d6 (one draw,
:func:`~brutal_sim.toolbox.rng.roll_2d6`), the defender's 2d6, and on a hit the damage d6. A move
draws nothing.

Public names, for the other modules: the fight ``fight``, the single attack ``single_attack`` (the
drivers) and the pure rule functions the exact enumeration reuses (``hits``, ``hit_damage``,
``blow_level``); the ``_`` names are this module's own.
"""

from __future__ import annotations

from brutal_sim.core.battle import (
    B_DEAD,
    B_DEALT,
    B_FOE,
    B_INIT_MOD,
    B_INIT_TIE,
    B_ORDER,
    B_OUT,
    B_OUT_SEQ,
    B_OUTS,
    B_SIDE_IN,
    B_TAKEN,
    B_WEAKNESS,
    F_SIDE,
    STATE_BLOCK,
)
from brutal_sim.toolbox.battle import (
    choose_foe,
    decided,
    foe_distance,
    last_out,
    loser_side,
    move_toward,
    place_sides,
    put_out,
    start_battle,
    turn_order,
)
from brutal_sim.toolbox.jit import rule
from brutal_sim.toolbox.rng import roll_2d6, roll_die
from brutal_sim.toolbox.tally import count_decision

from .layout import (
    ATTACK_LIMIT,
    C_ATTACKS,
    C_DAMAGE,
    C_DRAWS,
    C_SIXES,
    C_WOUNDS,
    DEAD_AT,
    LVL_NONE,
    LVL_OUT,
    LVL_WOUNDED,
    N_LEVELS,
    N_OUTCOMES,
    NS,
    OUT_HIT,
    OUT_MISS,
    P_DAMAGE_BONUS,
    P_HIT_POINTS,
    P_RANGE,
    P_SKILL,
    P_SPEED,
    S_HARMED,
    S_HP,
    S_TOOK,
    SHOT_PENALTY,
    TALLY,
    WEAKNESS_CAP,
)
from .options import (
    O_ROUND_CAP,
    O_START_DISTANCE,
    O_STRIKES,
    O_TIES,
    O_TURN_ORDER,
    STRIKES_SIMULTANEOUS,
    TIES_HIT,
    TURN_ORDER_INITIATIVE,
)

#: T-5: the initiative die (one d6)
INITIATIVE_DIE = 6

# -- pure rule functions (no random numbers): shared with the exact enumeration ----------------------


@rule
def hits(F, opts, a, d, attack_2d6, defence_2d6):
    """T-1: does ``attack_2d6`` + a's skill beat ``defence_2d6`` + d's skill? A tie hits only
    with ``ties = hit``."""
    margin = attack_2d6 + F[a, P_SKILL] - defence_2d6 - F[d, P_SKILL]
    return margin > 0 or (margin == 0 and opts[O_TIES] == TIES_HIT)


@rule
def hit_damage(F, a, face):
    """T-2: damage of a hit by ``a`` whose d6 shows ``face``: face + weapon bonus, at least 0."""
    return max(face + F[a, P_DAMAGE_BONUS], 0)


@rule
def blow_level(damage, hp_after):
    """The blow's level: ``none`` (no damage), ``out`` (T-3: 0 hit points or fewer), else
    ``wounded``."""
    if damage == 0:
        return LVL_NONE
    return LVL_OUT if hp_after <= 0 else LVL_WOUNDED


# -- the fight ------------------------------------------------------------------------------------


@rule
def _attack(F, S, opts, st, cnt, a, d, shot):
    """T-1, T-2, T-3: one attack (``shot``: a T-6 shot, its total less ``SHOT_PENALTY``) by row
    ``a`` on row ``d``, counted by outcome and level at the sides; a blow that leaves d at 0 hit
    points or fewer puts it out (dead at ``DEAD_AT`` or fewer)."""
    side_a, side_d = F[a, F_SIDE], F[d, F_SIDE]
    x1, x2 = roll_2d6(st)
    y1, y2 = roll_2d6(st)
    if not hits(F, opts, a, d, x1 + x2 - (SHOT_PENALTY if shot else 0), y1 + y2):
        cnt[C_ATTACKS + side_a * N_OUTCOMES + OUT_MISS] += 1
        return
    cnt[C_ATTACKS + side_a * N_OUTCOMES + OUT_HIT] += 1
    face = roll_die(st, 6)
    damage = hit_damage(F, a, face)
    S[d, S_HP] -= damage
    level = blow_level(damage, S[d, S_HP])
    cnt[C_WOUNDS + side_d * N_LEVELS + level] += 1  # one zone: body
    S[side_d, S_TOOK + level] += 1
    cnt[C_DAMAGE + side_d] += damage
    if face == 6:
        cnt[C_SIXES + side_a] += 1
    if damage > 0:
        S[d, S_HARMED] += 1
    S[a, B_DEALT] += damage
    S[d, B_TAKEN] += damage
    S[d, B_WEAKNESS] = min(F[d, P_HIT_POINTS] - S[d, S_HP], WEAKNESS_CAP)  # T-5: hit points lost
    if S[d, S_HP] <= 0:
        S[d, B_DEAD] = 1 if S[d, S_HP] <= DEAD_AT else 0
        put_out(F, S, d, 0)  # the one cause: hit_points


@rule
def _turn(F, S, opts, st, cnt, i, ranged):
    """T-6: i's turn against its foe (``B_FOE``): engaged (distance 0) it attacks (T-1); apart it
    shoots if its weapon's range reaches, else moves its speed toward the foe (``ranged`` not None:
    a fight that starts apart; with None nothing of the steps apart is compiled). Without a foe in
    the fight it does nothing."""
    foe = S[i, B_FOE]
    if foe < 0 or S[foe, B_OUT] != 0:
        return
    distance = foe_distance(S, i)
    if distance == 0:
        _attack(F, S, opts, st, cnt, i, foe, False)
    elif ranged is not None:
        if distance <= F[i, P_RANGE]:
            _attack(F, S, opts, st, cnt, i, foe, True)
        else:
            move_toward(S, i, foe, F[i, P_SPEED], 0)


@rule
def _reset(F, S):
    """T-3: a fresh battle block (``start_battle``: everyone in, a duel's foes set), every fighter at
    full hit points, unharmed."""
    start_battle(F, S)
    for i in range(F.shape[0]):
        for k in range(STATE_BLOCK, NS):
            S[i, k] = 0
        S[i, S_HP] = F[i, P_HIT_POINTS]


@rule
def _initiative(F, S, opts, st):
    """T-5: the turn order. ``sides``: the rows in order (side a's line, then side b's; no dice);
    ``initiative``: the shared ``turn_order`` by one d6 + skill, ties to the more hit points."""
    n = F.shape[0]
    if opts[O_TURN_ORDER] == TURN_ORDER_INITIATIVE:
        for i in range(n):
            S[i, B_INIT_MOD] = F[i, P_SKILL]
            S[i, B_INIT_TIE] = F[i, P_HIT_POINTS]
        turn_order(F, S, st, INITIATIVE_DIE)
    else:
        for p in range(n):
            S[p, B_ORDER] = p


@rule
def _finish(F, S, cnt, rnd, round_cap):
    """Count a decided fight (T-4): both sides out is a draw (2); else the losing side's last
    fighter out is the deciding takedown of the header. Returns 0 a won, 1 b won, 2 a draw."""
    if S[0, B_SIDE_IN] == 0 and S[1, B_SIDE_IN] == 0:
        cnt[C_DRAWS] += 1
        return 2
    loser = loser_side(S)
    last = last_out(F, S, loser)
    count_decision(cnt, S, loser, 0, S[last, B_DEAD], S[last, S_HARMED] == 1, rnd, round_cap, TALLY)
    return 1 - loser


@rule
def fight(F, S, opts, st, cnt, ranged, group):
    """T-4 … T-6: one duel or group fight. Side b starts ``start_distance`` from side a; the turn
    order is settled once (T-5); each round every fighter still in takes its turn in that order, a
    fighter of a fight of more than two choosing its foe just before it (``choose_foe``: its
    targeting policy, no attack limit, no helpless foes). With ``strikes = in_turn`` the fight ends
    after the turn that puts a side's last fighter out; with ``simultaneous`` (duels only) a
    fighter put out in a round still takes its turn in it, and the fight is decided at the end of
    the round. Still running after ``round_cap`` rounds: a draw.

    ``ranged``: True for a fight that starts apart, None for one engaged from the start (its turns
    compile no step apart, :func:`_turn`). ``group``: the drivers' flag for a fight of more than two;
    the toy's fight reads its size from ``F`` and plays both alike.

    Returns 0 if side a won, 1 if side b won, 2 for a draw.
    """
    n = F.shape[0]
    _reset(F, S)
    place_sides(F, S, opts[O_START_DISTANCE])
    _initiative(F, S, opts, st)
    simultaneous = opts[O_STRIKES] == STRIKES_SIMULTANEOUS
    for rnd in range(1, opts[O_ROUND_CAP] + 1):
        outs = S[0, B_OUTS]  # out before this round
        for p in range(n):
            i = S[p, B_ORDER]
            if S[i, B_OUT] != 0 and not (simultaneous and S[i, B_OUT_SEQ] > outs):
                continue
            if n > 2:
                choose_foe(F, S, st, i, ATTACK_LIMIT, False, -1)
            _turn(F, S, opts, st, cnt, i, ranged)
            if not simultaneous and decided(S):
                return _finish(F, S, cnt, rnd, opts[O_ROUND_CAP])
        if decided(S):
            return _finish(F, S, cnt, rnd, opts[O_ROUND_CAP])
    cnt[C_DRAWS] += 1
    return 2


@rule
def single_attack(F, S, opts, st, cnt, ranged):
    """One engaged attack (T-1) by side a on a fresh side b (``ranged`` plays no part: a toy attack
    is made engaged)."""
    _reset(F, S)
    _attack(F, S, opts, st, cnt, 0, 1, False)
