"""What every ruleset's battles share, once: the fighters' sides and places, who is still in, the
turn order of N fighters, the choice of a foe by a named policy, the line model of positions and
distances, and the group block of the counters (docs/groups.md, docs/rulesets.md "Battles").

They read and write the battle block (:mod:`brutal_sim.core.battle`), the columns a ruleset that
plays group fights or distance keeps at the start of its fighter and state rows, as compile-time
constants.

The ruleset's own rules enter as data: before :func:`turn_order` it writes each fighter's
initiative modifier and tie key, while a fight runs it keeps each fighter's weakness (for the
``weakest`` policy of :func:`choose_foe`) and, through :func:`put_out`, its cause of going out
(and through :func:`bring_back` a return into the fight, where its rules revive).
"""

from __future__ import annotations

from ..core.battle import (
    B_AWAY,
    B_DEAD,
    B_DEALT,
    B_ENGAGERS,
    B_FOE,
    B_INIT,
    B_INIT_EXTRA,
    B_INIT_GROUP,
    B_INIT_MOD,
    B_INIT_TIE,
    B_ORDER,
    B_OUT,
    B_OUT_SEQ,
    B_OUTS,
    B_ROUND,
    B_SHOOTER,
    B_SIDE_IN,
    B_TAKEN,
    B_TIER,
    B_WEAKNESS,
    B_X,
    F_ARRIVE,
    F_INIT_SHARE,
    F_RANK,
    F_SIDE,
    F_TARGETING,
    FIGHT_ROW,
    STATE_BLOCK,
    TG_FOCUS,
    TG_RANDOM,
    TG_SHOOTERS_FIRST,
    TG_SPREAD,
    TG_WEAKEST,
)
from ..core.counters import MAX_SIDE
from .jit import inline_rule, rule
from .rng import roll_2d6, roll_die

#: where the per-fighter records of the group block begin (``core.counters.GroupBlock.fighters``)
_GB_FIGHTERS = 2 * (MAX_SIDE + 1)


# -- sides and who is in --------------------------------------------------------------------------

@rule
def start_battle(F, S):
    """A fresh battle block for ``F``'s fighters: every fighter in, no foes, at x = 0, its side
    counted; a fighter joining in a later round (``F_ARRIVE`` > 1) away until then (it counts in
    its side). A duel's two fighters are each other's foe at once (the only choice)."""
    n = F.shape[0]
    for i in range(n):
        for k in range(STATE_BLOCK):
            S[i, k] = 0
        S[i, B_FOE] = -1
        if F[i, F_ARRIVE] > 1:
            S[i, B_AWAY] = 1
    for i in range(n):
        S[F[i, F_SIDE], B_SIDE_IN] += 1
    if n == 2:
        S[0, B_FOE] = 1
        S[1, B_FOE] = 0
        S[0, B_ENGAGERS] = 1
        S[1, B_ENGAGERS] = 1


@rule
def put_out(F, S, d, cause):
    """d goes out of the fight by ``cause`` (once): it gets the next place in the order of going
    out, stops being an engager of its foe and leaves its side's count."""
    if S[d, B_OUT] == 0:
        S[d, B_OUT] = cause + 1
        S[FIGHT_ROW, B_OUTS] += 1
        S[d, B_OUT_SEQ] = S[FIGHT_ROW, B_OUTS]
        foe = S[d, B_FOE]
        if foe >= 0:
            S[foe, B_ENGAGERS] -= 1
        S[F[d, F_SIDE], B_SIDE_IN] -= 1


@rule
def bring_back(F, S, d):
    """d, out of the fight, comes back into it (a ruleset's revival): :func:`put_out` undone — no
    place in the order of going out, an engager of its foe again, counted in its side."""
    if S[d, B_OUT] != 0:
        S[d, B_OUT] = 0
        S[d, B_OUT_SEQ] = 0
        foe = S[d, B_FOE]
        if foe >= 0:
            S[foe, B_ENGAGERS] += 1
        S[F[d, F_SIDE], B_SIDE_IN] += 1


@inline_rule
def foe(S, i):
    """i's foe (``B_FOE``): the row it fights, −1 none. A duel's two fighters are each other's
    foe from ``start_battle`` on; in a group fight the ruleset lets i choose it
    (:func:`choose_foe`)."""
    return S[i, B_FOE]


@rule
def decided(S):
    """Whether every fighter of a side is out (the fight is over)."""
    return S[0, B_SIDE_IN] == 0 or S[1, B_SIDE_IN] == 0


@rule
def drawn(S):
    """Whether every fighter of both sides is out (a fight decided by nobody: a draw, for a
    ruleset in which both sides can go out at once)."""
    return S[0, B_SIDE_IN] == 0 and S[1, B_SIDE_IN] == 0


@rule
def fight_round(S):
    """The round being played (``B_ROUND``, a fight-wide cell; 0 before the first)."""
    return S[FIGHT_ROW, B_ROUND]


@rule
def set_round(S, rnd):
    """Start round ``rnd`` (the fight-wide ``B_ROUND``)."""
    S[FIGHT_ROW, B_ROUND] = rnd


@rule
def loser_side(S):
    """The side with no fighter left in (side a checked first) of a decided fight."""
    return 0 if S[0, B_SIDE_IN] == 0 else 1


@rule
def last_out(F, S, side):
    """The fighter of ``side`` that went out last (the highest ``B_OUT_SEQ``)."""
    last = -1
    for j in range(F.shape[0]):
        if F[j, F_SIDE] == side and S[j, B_OUT] != 0 and (last < 0 or S[j, B_OUT_SEQ] > S[last, B_OUT_SEQ]):
            last = j
    return last


# -- the turn order ------------------------------------------------------------------------------

#: the ``dice`` of :func:`turn_order` for 2d6 (one draw, :func:`~brutal_sim.toolbox.rng.roll_2d6`);
#: any other value n > 0 is one n-sided die
DICE_2D6 = 0


@rule
def _roll_initiative(S, st, i, dice):
    """i's initiative total: the dice and its modifier ``B_INIT_MOD``; one n-sided die is followed
    by i's ``B_INIT_EXTRA`` more, one after the other."""
    if dice == DICE_2D6:
        r1, r2 = roll_2d6(st)
        return r1 + r2 + S[i, B_INIT_MOD]
    total = roll_die(st, dice) + S[i, B_INIT_MOD]
    for _ in range(S[i, B_INIT_EXTRA]):
        total += roll_die(st, dice)
    return total


#: the initiative total of a fighter still away (``B_AWAY``): below every roll, so it is placed last
AWAY_INIT = -(1 << 40)


@rule
def _first_roll(F, S, st, i, dice):
    """i's initiative total when the order is made: its own roll (:func:`_roll_initiative`), or with
    ``F_INIT_SHARE`` = r + 1 (one roll per profile) the dice row r rolled, with i's own modifier."""
    share = F[i, F_INIT_SHARE] - 1
    if share >= 0 and share < i and S[share, B_AWAY] == 0:
        return S[share, B_INIT] - S[share, B_INIT_MOD] + S[i, B_INIT_MOD]
    return _roll_initiative(S, st, i, dice)


@rule
def _acts_before(S, x, y):
    """1 if row x acts before row y, −1 after, 0 for a full tie: the higher total ``B_INIT``, then
    the higher tie key ``B_INIT_TIE``."""
    if S[x, B_INIT] != S[y, B_INIT]:
        return 1 if S[x, B_INIT] > S[y, B_INIT] else -1
    if S[x, B_INIT_TIE] != S[y, B_INIT_TIE]:
        return 1 if S[x, B_INIT_TIE] > S[y, B_INIT_TIE] else -1
    return 0


@rule
def _sort_places(S, lo, hi):
    """Stable insertion sort of the turn-order places ``lo … hi−1`` (``B_ORDER``)."""
    for p in range(lo + 1, hi):
        r = S[p, B_ORDER]
        q = p
        while q > lo and _acts_before(S, r, S[q - 1, B_ORDER]) > 0:
            S[q, B_ORDER] = S[q - 1, B_ORDER]
            q -= 1
        S[q, B_ORDER] = r


@inline_rule
def turn_order(F, S, st, dice):
    """The turn order of N fighters, written to ``B_ORDER`` (row p: the row at place p).

    The ruleset first writes each fighter's initiative modifier ``B_INIT_MOD`` and tie key
    ``B_INIT_TIE`` (its tie-breakers as one int, higher first), and any dice beyond the first
    ``B_INIT_EXTRA``. Every fighter in row order rolls ``dice`` (:data:`DICE_2D6`, or one die of that
    many sides and its extra dice of that size) plus its modifier, kept in
    ``B_INIT``; the places sort by the total, then the tie key (higher first), stable. A group
    still tied rerolls (its members in row order) and is ordered within its places by the reroll,
    recursively; groups are settled in turn order, the highest place first. For a duel: a rolls, b
    rolls, a full tie rerolls both.

    A fighter with ``F_INIT_SHARE`` takes the dice of an earlier row instead of rolling (a tie among
    them rerolls as any other). A fighter still away (``B_AWAY``) rolls nothing and is placed last,
    after every fighter in the fight, in no tie group (:func:`arrive` places it when it comes).
    """
    n = F.shape[0]
    present = 0
    for i in range(n):
        if S[i, B_AWAY] != 0:
            S[i, B_INIT] = AWAY_INIT
        else:
            S[i, B_INIT] = _first_roll(F, S, st, i, dice)
            present += 1
        S[i, B_ORDER] = i
        S[i, B_INIT_GROUP] = 0
    _sort_places(S, 0, n)
    groups = 0
    p = 0
    while p < present:
        end = p + 1  # the tied group at p: same tie group, a full tie (ties are in row order)
        while (end < present and S[end, B_INIT_GROUP] == S[p, B_INIT_GROUP]
               and _acts_before(S, S[p, B_ORDER], S[end, B_ORDER]) == 0):
            end += 1
        if end - p == 1:
            p += 1
            continue
        groups += 1
        for q in range(p, end):
            r = S[q, B_ORDER]
            S[r, B_INIT] = _roll_initiative(S, st, r, dice)
            S[q, B_INIT_GROUP] = groups
        _sort_places(S, p, end)


@rule
def arrive(F, S, st, dice, rnd, reorder):
    """The fighters away whose ``F_ARRIVE`` is ``rnd`` join the fight, in row order (W-13.2). With
    ``reorder`` each rolls its initiative then (:func:`_roll_initiative`, its modifier and extra
    dice as the ruleset wrote them) and takes its place: after every fighter it does not act
    before (a full tie: after), the others keeping their places; without (a ruleset about to roll
    a new order for everyone) they only join. Returns how many joined."""
    n = F.shape[0]
    joined = 0
    for i in range(n):
        if S[i, B_AWAY] == 0 or F[i, F_ARRIVE] != rnd:
            continue
        S[i, B_AWAY] = 0
        joined += 1
        if not reorder:
            continue
        S[i, B_INIT] = _roll_initiative(S, st, i, dice)
        p = 0
        while p < n and S[p, B_ORDER] != i:
            p += 1
        while p > 0:
            r = S[p - 1, B_ORDER]
            if r >= 0 and S[r, B_AWAY] == 0 and _acts_before(S, i, r) <= 0:
                break
            S[p, B_ORDER] = r
            p -= 1
        S[p, B_ORDER] = i
    return joined


# -- the choice of a foe -------------------------------------------------------------------------

@rule
def lies_helpless(S, d, gone):
    """Whether d lies helpless: out of the fight, not dead, and not by the cause ``gone`` (one
    that takes it off the field, as fleeing; −1 none)."""
    return S[d, B_OUT] != 0 and S[d, B_OUT] != gone + 1 and S[d, B_DEAD] == 0


@rule
def choose_foe(F, S, st, i, limit, finish, gone):
    """i chooses its foe (``B_FOE``) among the enemies in the fight (not away) with room for it
    (engagers other than i below ``limit``), by its policy ``F_TARGETING``; dice only for ``random``.

    The lowest tier first (``B_TIER``: −1, 0, 1, kept by the ruleset); within it ``spread``: the
    fewest other engagers; ``weakest`` and ``focus``: the highest ``B_WEAKNESS`` (kept by the
    ruleset, below 128); ``nearest``: no preference; ``shooters_first``: those holding a loaded
    missile weapon (``B_SHOOTER``), then the fewest other engagers. Ties: the current foe, then
    the nearest in line (``F_RANK``), then the lowest row (so ``nearest`` keeps its current foe
    while it is in). ``random``: the current foe while it is a candidate of the lowest tier, else
    one of those candidates at random (one die of as many sides, from ``st``, in row order). No
    candidate: −1. Keeps ``B_ENGAGERS`` of the old and new foe.

    With ``finish`` i keeps a foe that lies helpless (:func:`lies_helpless`, ``gone``) until it is
    dead, and with no standing candidate takes the nearest helpless enemy in line with room (ties:
    the lowest row).
    """
    side = F[i, F_SIDE]
    policy = F[i, F_TARGETING]
    current = S[i, B_FOE]
    if finish and current >= 0 and lies_helpless(S, current, gone):
        return  # i finishes its helpless foe first
    best = -1
    best_score = 0
    for j in range(F.shape[0]):
        if not _candidate(F, S, i, j, limit, current):
            continue
        others = S[j, B_ENGAGERS] - (1 if j == current else 0)
        primary = 0
        if policy == TG_SPREAD:
            primary = others
        elif policy == TG_WEAKEST or policy == TG_FOCUS:
            primary = -S[j, B_WEAKNESS]
        elif policy == TG_SHOOTERS_FIRST:
            primary = others - 16 * S[j, B_SHOOTER]
        score = ((((S[j, B_TIER] + 1) * 256 + primary + 128) * 2 + (0 if j == current else 1)) * 16
                 + abs(F[j, F_RANK] - F[i, F_RANK]))
        if best < 0 or score < best_score:
            best = j
            best_score = score
    if policy == TG_RANDOM and best >= 0 and best != current:
        best = _random_candidate(F, S, st, i, limit, S[best, B_TIER], current)
    if best < 0 and finish:  # no standing enemy with room: the nearest helpless one with room
        for j in range(F.shape[0]):
            if (F[j, F_SIDE] == side or not lies_helpless(S, j, gone)
                    or S[j, B_ENGAGERS] - (1 if j == current else 0) >= limit):
                continue
            score = abs(F[j, F_RANK] - F[i, F_RANK])
            if best < 0 or score < best_score:
                best = j
                best_score = score
    if best != current:
        if current >= 0:
            S[current, B_ENGAGERS] -= 1
        if best >= 0:
            S[best, B_ENGAGERS] += 1
        S[i, B_FOE] = best


@inline_rule
def _candidate(F, S, i, j, limit, current):
    """Whether j is one of i's candidate foes: an enemy in the fight (not out, not away) whose
    engagers other than i are below ``limit`` (``current``: i's foe now, an engager of its own)."""
    return (F[j, F_SIDE] != F[i, F_SIDE] and S[j, B_OUT] == 0 and S[j, B_AWAY] == 0
            and S[j, B_ENGAGERS] - (1 if j == current else 0) < limit)


@rule
def _random_candidate(F, S, st, i, limit, tier, current):
    """One of i's candidate foes of ``tier`` (in the fight, not away, room below ``limit``) at
    random: a die of as many sides as there are, counted in row order."""
    count = 0
    for j in range(F.shape[0]):
        if S[j, B_TIER] == tier and _candidate(F, S, i, j, limit, current):
            count += 1
    k = roll_die(st, count)
    for j in range(F.shape[0]):
        if S[j, B_TIER] == tier and _candidate(F, S, i, j, limit, current):
            k -= 1
            if k == 0:
                return j
    return -1


# -- the line model ------------------------------------------------------------------------------

@rule
def place_sides(F, S, distance):
    """The line model's opening: side a at x = 0, side b at x = ``distance`` (0: engaged)."""
    for j in range(F.shape[0]):
        S[j, B_X] = distance if F[j, F_SIDE] == 1 else 0


@rule
def apart(S, i, j):
    """The distance between i and j on the line: ``|x_i − x_j|``."""
    return abs(S[i, B_X] - S[j, B_X])


@rule
def foe_distance(S, i):
    """The distance from i to its foe; 0 without one."""
    foe = S[i, B_FOE]
    return 0 if foe < 0 else abs(S[i, B_X] - S[foe, B_X])


@rule
def move_toward(S, i, j, step, reach):
    """i moves up to ``step`` toward j, stopping ``reach`` from it (never through it); a mover
    already within ``reach`` stays."""
    gap = S[j, B_X] - S[i, B_X]
    room = max(abs(gap) - reach, 0)
    moved = min(step, room)
    S[i, B_X] += moved if gap > 0 else -moved


@rule
def move_away(F, S, i, j, step):
    """i moves ``step`` away from j; from j's own square a fighter of side a steps toward −x, of
    side b toward +x."""
    gap = S[i, B_X] - S[j, B_X]
    if gap > 0 or (gap == 0 and F[i, F_SIDE] == 1):
        S[i, B_X] += step
    else:
        S[i, B_X] -= step


# -- the group block -----------------------------------------------------------------------------

@rule
def count_group(F, S, cnt, k, n_causes):
    """The group block (``core.counters.GroupBlock`` of ``n_causes`` causes) of a finished fight,
    the last part of a counter row of length ``k``: survivors of each side, and per fighter its
    cause of going out or standing, death, damage dealt and taken."""
    per = n_causes + 4
    base = k - (_GB_FIGHTERS + F.shape[0] * per)
    cnt[base + S[0, B_SIDE_IN]] += 1
    cnt[base + MAX_SIDE + 1 + S[1, B_SIDE_IN]] += 1
    for j in range(F.shape[0]):
        b = base + _GB_FIGHTERS + j * per
        if S[j, B_OUT] != 0:
            cnt[b + S[j, B_OUT] - 1] += 1
        else:
            cnt[b + n_causes + 1] += 1
        cnt[b + n_causes] += S[j, B_DEAD]
        cnt[b + n_causes + 2] += S[j, B_DEALT]
        cnt[b + n_causes + 3] += S[j, B_TAKEN]
