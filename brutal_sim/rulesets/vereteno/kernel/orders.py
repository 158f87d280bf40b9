"""V-13 Will, orders and threats: the threat (the battle cry, V-13.2) at one or several targets, the
taunt (negotiation, V-13.3), a commander's orders (V-13.4) heard by band (V-13.5) and their bonus on
one skill's checks for two rounds, and V-15.10's ``order_first``. Imports :mod:`.checks` and
:func:`.distance._band`.

An order bonus lives in the subordinate's state: ``S_ORD + ORD_*`` holds the dice, ``S_ORD_UNTIL +
ORD_*`` the last round they last; the pools of :mod:`.checks` (melee attacks, defences, dodges) and
:mod:`.shooting` (shots) add the dice, and :func:`_orders_lapse` clears them at the start of a later
round. Orders are given only in fights of several a side (the drivers' ``group`` flag; a duel's
fighter has no subordinate).
"""

from __future__ import annotations

from ....core.battle import B_AWAY
from ....toolbox.battle import apart, bring_back, fight_round, foe, put_out
from ....toolbox.jit import rule
from ..layout import (
    BAND_CLOSE,
    BAND_LONG,
    BAND_MEDIUM,
    CAUSE_WILL,
    FEAR_IMMUNE,
    ORD_DEFEND,
    ORD_DODGE,
    ORD_MELEE,
    ORD_SHOOT,
    ORDER_AUTO,
    ORDER_DEFEND,
    ORDER_MELEE,
    ORDER_SHOOTING,
    P_COMMANDER,
    P_CRY_POOL,
    P_FEAR,
    P_INSPIRE,
    P_LEAD_POOL,
    P_LEADERSHIP,
    P_ORDER,
    P_ORDER_FIRST,
    P_SIDE,
    P_T_KEEP,
    P_TAUNT,
    P_THREAT_TARGETS,
    P_WILL,
    S_AP,
    S_INSPIRED,
    S_ORD,
    S_ORD_UNTIL,
    S_ORDERED_UNTIL,
    S_OUT,
    S_PEN_INFL,
    S_THREATENED,
    S_WILL,
)
from ..options import (
    MELEE_ORDER_ATTACKS_ONLY,
    O_HEADSETS,
    O_INSPIRE,
    O_JAMMER,
    O_MELEE_ORDER,
    O_ORDER_SELF,
    O_ORDER_STACK,
    O_THREAT_HEARING,
    O_THREAT_RANGE,
    O_THREAT_RESISTANCES,
    ORDER_STACK_ADD,
    THREAT_HEARING_AS_ORDERS,
    THREAT_RANGE_PER_TARGET,
    THREAT_RESISTANCES_V1_7,
)
from .checks import _fighter_check, _gun_in_hand
from .distance import _band

#: V-2.2: a threat, a taunt and an order are standard actions
WILL_ACTION_COST = 2
#: V-13.2: dice off a threat per additional target, and beyond medium range
THREAT_EXTRA_TARGET_DICE = 2
THREAT_FAR_DICE = 2
#: V-13.5: successes an order heard at long range loses
ORDER_LONG_LOSS = 2
#: V-13.7: inspiring costs 3 AP; −2 dice beyond close range, −2 on oneself
INSPIRE_COST = 3
INSPIRE_FAR_DICE = 2
INSPIRE_SELF_DICE = 2


@rule
def _will_damage(F, S, j, r):
    """V-5.3: ``r`` Will damage to ``j`` (no reaction, no armour); Will ≤ 0 puts it out."""
    if r < 1:
        return
    S[j, S_WILL] -= r
    if S[j, S_WILL] <= 0:
        put_out(F, S, j, CAUSE_WILL)


@rule
def _taunt(F, S, opts, st, i):
    """V-13.3 negotiation, V-15.10 ``taunt``: ``i``'s Influence check (Эмпатия + Влияние − influence
    penalties), then its foe's answer (free, seed 88) of the same pool; the loser takes Will damage
    equal to the difference, a tie none **[reading]**."""
    e = foe(S, i)
    r = _fighter_check(F, S, opts, st, F[i, P_CRY_POOL] - S[i, S_PEN_INFL], i)
    q = _fighter_check(F, S, opts, st, F[e, P_CRY_POOL] - S[e, S_PEN_INFL], e)
    if r > q:
        _will_damage(F, S, e, r - q)
    elif q > r:
        _will_damage(F, S, i, q - r)


@rule
def _hears_threat(F, S, opts, i, j):
    """V-13.2 ``threat_hearing``: may a threat by ``i`` reach enemy ``j`` (in the fight)? ``any``: at
    every range; ``as_orders`` (V-13.5): not at extreme range."""
    if S[j, S_OUT] != 0 or S[j, B_AWAY] != 0 or F[j, P_SIDE] == F[i, P_SIDE]:
        return False
    return opts[O_THREAT_HEARING] != THREAT_HEARING_AS_ORDERS or _band(apart(S, i, j)) <= BAND_LONG


@rule
def _mark_threat_targets(F, S, opts, i, group):
    """V-13.2, V-14.4: mark (``S_THREATENED``) the targets of ``i``'s threat: its foe, then in a fight
    of several the nearest other enemies it may reach (:func:`_hears_threat`; ties: the lower row)
    up to ``threat_targets``. Returns (targets, whether one stands beyond medium range: never the foe,
    which a threat, a melee action, finds within reach; so a duel compiles no band)."""
    e = foe(S, i)
    S[e, S_THREATENED] = 1
    k = 1
    far = False  # the threat is a melee action: its foe stands within reach, never beyond medium range
    if group is not None:
        while k < F[i, P_THREAT_TARGETS]:
            best = -1
            for j in range(F.shape[0]):
                if S[j, S_THREATENED] == 0 and _hears_threat(F, S, opts, i, j):
                    if best < 0 or apart(S, i, j) < apart(S, i, best):
                        best = j
            if best < 0:
                break
            S[best, S_THREATENED] = 1
            k += 1
            far = far or _band(apart(S, i, best)) > BAND_MEDIUM
    return k, far


@rule
def _threat(F, S, opts, st, i, group):
    """V-13.2 the threat (the battle cry, seed 41–43, 62): an Influence check (Эмпатия + Влияние −
    influence penalties, V-6.4; prayer V-1.6 as for any check) whose successes are Will damage to each
    target (each takes the full successes **[reading]**; no reaction, no armour; Will ≤ 0 puts it
    out). Its targets (:func:`_mark_threat_targets`): −2 dice per target beyond the first, −2 once if
    any stands beyond medium range (``threat_range = once``). A target with a term of its own has its
    own check of the pool with that term: ``per_target`` −2 beyond medium, ``threat_resistances =
    v1_7`` +3 / +6 at a fighter susceptible / vulnerable to fear (V-1.7; an immune one takes
    nothing); the others share one check, rolled at the first of them in row order."""
    k, far = _mark_threat_targets(F, S, opts, i, group)
    base = F[i, P_CRY_POOL] - S[i, S_PEN_INFL] - THREAT_EXTRA_TARGET_DICE * (k - 1)
    per_target = opts[O_THREAT_RANGE] == THREAT_RANGE_PER_TARGET
    if far and not per_target:
        base -= THREAT_FAR_DICE
    common = 0
    rolled = False
    for j in range(F.shape[0]):
        if S[j, S_THREATENED] == 0:
            continue
        S[j, S_THREATENED] = 0
        extra = 0
        if opts[O_THREAT_RESISTANCES] == THREAT_RESISTANCES_V1_7:
            if F[j, P_FEAR] == FEAR_IMMUNE:
                continue
            extra += F[j, P_FEAR]
        if group is not None:  # in a duel the one target is the foe, within reach: never beyond medium
            if per_target and _band(apart(S, i, j)) > BAND_MEDIUM:
                extra -= THREAT_FAR_DICE
        if extra == 0:
            if not rolled:
                common = _fighter_check(F, S, opts, st, base, i)
                rolled = True
            r = common
        else:
            r = _fighter_check(F, S, opts, st, base + extra, i)
        _will_damage(F, S, j, r)


@rule
def _influence(F, S, opts, st, i, group):
    """V-13.1, V-15.10: ``i``'s influence on Will, a standard action (2 AP): a taunt (:func:`_taunt`)
    if the fighter taunts, else a threat (:func:`_threat`)."""
    S[i, S_AP] -= WILL_ACTION_COST
    if F[i, P_TAUNT] != 0:
        _taunt(F, S, opts, st, i)
    else:
        _threat(F, S, opts, st, i, group)


# -- orders (V-13.4, V-13.5, V-15.10) -----------------------------------------------------------------

@rule
def _listens(F, S, opts, c, j):
    """V-13.4: is ``j`` in the fight and one who follows ``c``'s orders: its subordinate
    (``commander``), or ``c`` itself under ``order_self = on``? (bool)"""
    if S[j, S_OUT] != 0 or S[j, B_AWAY] != 0:
        return False
    return F[j, P_COMMANDER] == c or (j == c and opts[O_ORDER_SELF] != 0)


@rule
def _order_named(F, S, opts, c):
    """V-15.10: the order ``c`` gives (``ORDER_*``): its ``order``, or under ``auto`` "Fire!" when most
    of those who follow it hold their guns (V-10.9), else "In melee!"."""
    order = F[c, P_ORDER]
    if order != ORDER_AUTO:
        return order
    n = 0
    guns = 0
    for j in range(F.shape[0]):
        if _listens(F, S, opts, c, j):
            n += 1
            if _gun_in_hand(S, j):
                guns += 1
    return ORDER_SHOOTING if 2 * guns > n else ORDER_MELEE


@rule
def _heard(F, S, opts, c, j, r):
    """V-13.5: the successes of ``c``'s order of ``r`` successes that ``j`` hears, by the distance at
    the moment of the order **[reading]**: all up to medium range, r − 2 at long (at least 0), none at
    extreme; all at any range with ``headsets = on`` unless ``jammer = on``."""
    if opts[O_HEADSETS] != 0 and opts[O_JAMMER] == 0:
        return r
    b = _band(apart(S, c, j))
    if b <= BAND_MEDIUM:
        return r
    if b == BAND_LONG:
        return max(r - ORDER_LONG_LOSS, 0)
    return 0


@rule
def _bonus(S, opts, j, cell, h, rnd):
    """V-13.4: ``j`` gains ``h`` dice on the checks of ``cell`` (``ORD_*``) for the rest of round
    ``rnd`` and the whole next one **[reading]**; a bonus it still holds there is replaced
    (``order_stack = replace``) or added to (``add``, the sum lasting to the new end)."""
    if opts[O_ORDER_STACK] == ORDER_STACK_ADD and S[j, S_ORD_UNTIL + cell] >= rnd:
        S[j, S_ORD + cell] += h
    else:
        S[j, S_ORD + cell] = h
    S[j, S_ORD_UNTIL + cell] = rnd + 1


@rule
def _wants_order(F, S, opts, i):
    """V-15.10 ``order_first``: ``i`` gives an order in its first turn and whenever its last one has
    lapsed, when someone in the fight follows it and 2 AP leave its ``keep`` (bool)."""
    if F[i, P_ORDER_FIRST] == 0 or S[i, S_ORDERED_UNTIL] >= fight_round(S):
        return False
    if S[i, S_AP] - WILL_ACTION_COST < F[i, P_T_KEEP]:
        return False
    for j in range(F.shape[0]):
        if _listens(F, S, opts, i, j):
            return True
    return False


@rule
def _give_order(F, S, opts, st, i):
    """V-13.4: ``i``'s order, a standard action (2 AP): a Leadership check (Эмпатия + Лидерство;
    prayer V-1.6 as for any check); S ≤ 0 does nothing (it orders again next turn). Each who follows
    it (:func:`_listens`) gains the successes it hears (:func:`_heard`) on the checks the order names
    (:func:`_order_named`): "Fire!" shots, "In melee!" melee attacks and, with ``melee_order = all``,
    melee defences, "Defend!" melee defences, "Get down!" dodges (:func:`_bonus`)."""
    S[i, S_AP] -= WILL_ACTION_COST
    r = _fighter_check(F, S, opts, st, F[i, P_LEAD_POOL], i)
    if r < 1:
        return
    rnd = fight_round(S)
    S[i, S_ORDERED_UNTIL] = rnd + 1
    order = _order_named(F, S, opts, i)
    for j in range(F.shape[0]):
        if not _listens(F, S, opts, i, j):
            continue
        h = _heard(F, S, opts, i, j, r)
        if h < 1:
            continue
        if order == ORDER_SHOOTING:
            _bonus(S, opts, j, ORD_SHOOT, h, rnd)
        elif order == ORDER_MELEE:
            _bonus(S, opts, j, ORD_MELEE, h, rnd)
            if opts[O_MELEE_ORDER] != MELEE_ORDER_ATTACKS_ONLY:
                _bonus(S, opts, j, ORD_DEFEND, h, rnd)
        elif order == ORDER_DEFEND:
            _bonus(S, opts, j, ORD_DEFEND, h, rnd)
        else:
            _bonus(S, opts, j, ORD_DODGE, h, rnd)


@rule
def _orders_lapse(F, S, rnd):
    """V-13.4: at the start of round ``rnd`` the order bonuses whose last round has passed lapse."""
    for j in range(F.shape[0]):
        for cell in range(4):
            if S[j, S_ORD_UNTIL + cell] < rnd:
                S[j, S_ORD + cell] = 0


# -- inspiring (V-13.7, inspire = on) -----------------------------------------------------------------

@rule
def _inspire_target(F, S, opts, i):
    """V-13.7: the ally ``i`` would inspire: of its side, not away, not yet inspired this fight, in
    the fight or out by Will alone (V-5.3, revivable **[reading]**), the one who lost the most Will
    (ties: the lower row); −1 none."""
    best = -1
    lost = 0
    for j in range(F.shape[0]):
        if (F[j, P_SIDE] != F[i, P_SIDE] or S[j, B_AWAY] != 0 or S[j, S_INSPIRED] != 0
                or (S[j, S_OUT] != 0 and S[j, S_OUT] != CAUSE_WILL + 1)):
            continue
        if F[j, P_WILL] - S[j, S_WILL] > lost:
            best = j
            lost = F[j, P_WILL] - S[j, S_WILL]
    return best


@rule
def _wants_inspire(F, S, opts, i):
    """V-13.7 ``inspire = on``: a fighter with the field ``inspire`` inspires when an ally lost Will
    (:func:`_inspire_target`) and 3 AP leave its ``keep`` (bool)."""
    if opts[O_INSPIRE] == 0 or F[i, P_INSPIRE] == 0 or S[i, S_AP] - INSPIRE_COST < F[i, P_T_KEEP]:
        return False
    return _inspire_target(F, S, opts, i) >= 0


@rule
def _inspire(F, S, opts, st, i):
    """V-13.7: ``i`` inspires an ally (:func:`_inspire_target`), 3 AP: a Leadership check (Эмпатия +
    Лидерство, −2 beyond close range, −2 on itself); each success restores 1 Will, at most ``i``'s
    Лидерство and the ally's full Will, counted up from its Will even below 0 **[reading]**. Once a
    fight per ally, whatever the check **[reading]**. An ally out by Will whose Will rises above 0
    comes back into the fight (``toolbox.battle.bring_back``; it acts from its next turn)."""
    t = _inspire_target(F, S, opts, i)
    S[i, S_AP] -= INSPIRE_COST
    pool = F[i, P_LEAD_POOL]
    if t == i:
        pool -= INSPIRE_SELF_DICE
    if _band(apart(S, i, t)) > BAND_CLOSE:
        pool -= INSPIRE_FAR_DICE
    S[t, S_INSPIRED] = 1
    r = _fighter_check(F, S, opts, st, pool, i)
    if r >= 1:
        S[t, S_WILL] = min(S[t, S_WILL] + min(r, F[i, P_LEADERSHIP]), F[t, P_WILL])
        if S[t, S_OUT] != 0 and S[t, S_WILL] > 0:
            bring_back(F, S, t)
