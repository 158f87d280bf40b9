"""The Brutal fight kernel (numba): arrays and scalars in, counters out.

One kernel plays duels and group fights of N = na + nb ≤ 12 fighters (docs/groups.md); a duel is
a group fight of one against one and draws the same dice as the two-fighter kernel did.

Inputs everywhere below:

F : int64[N, NF]
    Compiled fighters (layout ``P_*`` in :mod:`brutal_sim.layout`): rows ``0 … na−1`` are side a,
    rows ``na … N−1`` side b (``P_SIDE``, ``P_RANK``); a duel has N = 2.
S : int64[N, NS]
    Their changing state during one fight (``S_*``), reset at the start of every fight. Besides
    each fighter's state it holds the turn order (``S_ORDER``) and the fighters of each side still
    in (``S_SIDE_IN`` of rows 0 and 1).
opts : int64[NO]
    Rule options (``O_*``).
zt : int8[die]
    Hit-zone table: ``zt[roll - 1]`` is the zone code of a roll (B-4.9).
st : uint64[4]
    The duel's random state (:mod:`brutal_sim.rng`).
cnt : int64[K]
    Counters (``C_*``), added to, never cleared. Header counters are per side: attack outcomes at
    the attacker's side (``P_SIDE``), blows, damage and weapon breaks at the taker's side.

The order in which dice are drawn is part of the contract with the pure-Python reference in
``tests/naive.py`` and is written down in ``docs/engine.md``.

Index guards: numba wraps a negative array index around (``x[-1]`` is the last element), at the
cost of a test and an addition on every access with an index not known to be ≥ 0. The kernel never
indexes with a negative number. ``_attack`` and ``_hit`` test their rows and weapon slot once on
entry (``_indices_ok``) and ``_fight`` the row whose turn it is; after that test LLVM knows them
≥ 0 and drops the per-access work: 5 % fewer instructions per duel (benchmarks/README.md, session 5).

Calls: the drivers' parallel loops (``_run``, ``_paired``) are compiled with this package's functions
internal to them (:mod:`brutal_sim.jit`), so LLVM passes only the arguments a function uses; rare
paths (``_hard_block``, ``_parried_bare``) are functions of their own, so that the attack sets up
fewer calls; LLVM inlines the blow (``_hit``, ``loop_inline_rule``) into its callers there
(benchmarks/README.md, session 6).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .jit import inline_rule, loop_inline_rule, rule

from .layout import (
    CHARGE_PROVOKES_TARGET, COVER_HORIZONTAL, COVER_VERTICAL_LEFT, O_CHARGE_MOD, O_CHARGE_MOVING, O_CHARGE_PROVOKES,
    O_COVER, O_COVER_SHOOTER, O_COVER_ZONES, O_INDIRECT, O_INDIRECT_PENALTY, P_T_CHARGE, S_CHARGING, ZONE_HEAD,
    G_DEAD, G_DEALT, G_FIGHTERS, G_OUT, G_PER_FIGHTER, G_STANDING, G_SURVIVORS, G_TAKEN, MAX_SIDE,
    O_ATTACK_LIMIT, O_OUTNUMBERED, P_RANK, P_SIDE, P_TARGETING,
    S_DEALT, S_ENGAGERS, S_FOE, S_INIT, S_INIT_GROUP, S_ORDER, S_OUT_SEQ, S_OUTS, S_SIDE_IN, S_TAKEN, TG_SPREAD,
    TG_WEAKEST,
    P_T_DROP, O_START_DIST, P_MOVEMENT, P_RANGED, P_T_KITE, P_T_RANGED, P_T_RUN, S_DIST, S_MOVING, S_NO_RUN,
    S_RELOAD, W_LONG, W_MEDIUM, W_RELOAD, W_SHORT,
    O_GRAPPLE_HANDS, G_CONTROLS, G_HELD, G_NONE, GA_THROW, K_GRAPPLE, P_T_GRAPPLE_ACTION, S_GRAPPLE, TA_GRAPPLE,
    TA_NORMAL, W_REACH, ZONE_TORSO,
    CAUSE_EXHAUSTED, EXERTION_AFTER_ENDURANCE, EXERTION_OFF, NCAUSES, O_EXERTION, P_FATIGUE0,
    S_FATIGUE, S_TURNS, CAUSE_FLED, O_CRAMPED, P_FEAR, P_WILLPOWER, S_FRIGHTENED, S_HARMED,
    ARMOUR_MARKER_PIERCE_IGNORES, ARMOUR_PROTECTION_ONLY, BROKEN_DEGRADED, BROKEN_DESTROYED,
    C_ATTACKS, C_BREAKS, C_DAMAGE, C_DRAWS, C_ONE_BLOW, C_ROUNDS, C_WOUNDS,
    CAUSE_KNOCKED_OUT, CAUSE_MORTAL, CAUSE_TRACK_FULL, DT_BLAST, DT_BLUNT, DT_CUTTING, DT_FIRE,
    DT_SHOCK, K_KNOCKDOWN, K_NORMAL, K_OPPORTUNITY, LVL_CRITICAL, LVL_HEAVY, LVL_LIGHT,
    LVL_LIGHT_DAMAGE, LVL_MORTAL, LVL_NONE, NS, O_ADD_STRENGTH, O_ARMOUR_MODEL, O_BREAK_DESTROYS,
    O_FLOOR_EXTRA, O_MARGIN_MAX, O_NEED_BASE, O_PIERCE_THRESHOLD, O_ROUND_CAP, O_STAND_UP_FULL,
    O_SURPRISE, OUT_DODGED, OUT_HARD_BLOCK, OUT_HIT, OUT_MISS, OUT_PARRIED, P_AGILITY,
    P_AIM_ZONE, P_AMBIDEXTROUS, P_ARMOUR, P_ATHLETICS, P_ATTACK_MOD, P_DAMAGE_MOD, P_DL0,
    P_DODGE, P_ENDURANCE, P_INIT_MOD, P_INIT_TALENT, P_MELEE, P_NCELLS, P_OA_PER_ROUND,
    P_PAIRED, P_PARRY_MOD, P_REACTION, P_RESOLVE, P_STRENGTH, P_TOUGHNESS,
    P_WEAPONS, R_DODGE, R_NONE, R_PARRY, S_BLEED, S_BROKEN_MAIN, S_DAZE, S_DEAD, S_FULL_PEN,
    S_HELD_MAIN, S_HELD_OFF, S_IN_TURN, S_NO_REACT, S_OA_LEFT, S_OUT, S_PERM_STUN, S_PRONE,
    S_STANCE, S_STUN, S_SURPRISED, S_TALLY, S_NO_OA, S_TRACK, SLOT_FISTS, SLOT_MAIN,
    SLOT_OFF, P_T_ATTACK, P_T_FEINT, P_T_FULL, P_T_FULL_PEN, P_T_MOD, P_T_NO_OA, P_T_NO_REACT,
    P_T_STANCE, P_T_UNARMED_MOD, TA_KNOCKDOWN, TA_NONE,
    W_DUR, W_NDICE, W_PARRY_BONUS, W_PEN, W_PRESENT, W_SIDES, W_BONUS, W_TWO_HANDED, W_TYPE,
    W_UNARMED, WN, ZONE_LARM, ZONE_RARM,
)
from .layout import O_SPRINT, P_SIZE, S_FATIGUE_PEN, S_RAN, S_SPRINTED, S_WOUND_PEN, SIZE_MEDIUM, SIZE_MODIFIERS
from .layout import OUTNUMBERED_BY_COUNT, OUTNUMBERED_NONE, OUTNUMBERED_ONE_SIDE
from .tally import _count_decision
from .rng import _die, _roll_2d6, _seed_duel

BASE_DIFFICULTY = 8  # B-4.1 ordinary target
ZONE_GROUP = np.array([0, 1, 2, 2, 3, 3], dtype=np.int64)
#: B-4.7 (docs/groups.md): the reaction penalty of a fighter engaged by c enemies, ``[outnumbered option
#: code, c]`` (c ≤ 6, the attack limit): ``by_count`` 2 → 1, 3 → 2, 4+ → 4; ``one_side`` 2+ → 1; ``none`` 0.
OUTNUMBERED_PENALTY = np.zeros((3, 7), dtype=np.int64)
OUTNUMBERED_PENALTY[OUTNUMBERED_BY_COUNT] = [0, 0, 1, 2, 4, 4, 4]
OUTNUMBERED_PENALTY[OUTNUMBERED_ONE_SIDE] = [0, 0, 1, 1, 1, 1, 1]
OUTNUMBERED_PENALTY[OUTNUMBERED_NONE] = 0
SIZE_MODIFIER = np.array(SIZE_MODIFIERS, dtype=np.int64)  # B-8 size table, tiny … gigantic
MOBILITY_NORMAL = 10  # B-1 a normal check (the sprint's stop, B-8)

# --------------------------------------------------------------------------------------------------
# Pure helpers (no random numbers): shared by the duel kernel and the exact enumeration.
# --------------------------------------------------------------------------------------------------


@rule
def _indices_ok(a, d, slot):
    """Always true in the kernel: rows ``a``, ``d`` ≥ 0 and a weapon ``slot`` 0 … 2. Tested on entry
    so that LLVM drops numba's negative-index handling after it (module docstring, index guards)."""
    return a >= 0 and d >= 0 and 0 <= slot <= SLOT_FISTS


@rule
def _wb(slot):
    """Base index of weapon ``slot`` inside a fighter row."""
    return P_WEAPONS + slot * WN


@rule
def _wound_penalty_of(ncells, track):
    """B-6.5: −1 with ЛР filled, −2 with ТР, −4 with КР on a track of ``ncells`` cells (bits of
    ``track``); the largest applies (B-1.6). int64."""
    if (track >> (ncells - 2)) & 1:
        return 4
    if (track >> (ncells - 3)) & 1:
        return 2
    if (track >> (ncells - 4)) & 1:
        return 1
    return 0


@rule
def _fatigue_penalty_of(level, endurance):
    """B-7.8: penalty to all checks with ``level`` fatigue levels: tired (1+) −1, exhausted
    (more than endurance) −2, depleted (more than twice endurance) −4. int64."""
    if level <= 0:
        return 0
    if level > 2 * endurance:
        return 4
    if level > endurance:
        return 2
    return 1


@rule
def _set_track(F, S, i, track):
    """i's wound track becomes ``track`` (bits: marked cells), its wound penalty with it."""
    S[i, S_TRACK] = track
    S[i, S_WOUND_PEN] = _wound_penalty_of(F[i, P_NCELLS], track)


@rule
def _set_fatigue(F, S, i, level):
    """i has ``level`` fatigue levels (B-7.8), its fatigue penalty with them."""
    S[i, S_FATIGUE] = level
    S[i, S_FATIGUE_PEN] = _fatigue_penalty_of(level, F[i, P_ENDURANCE])


@rule
def _wound_penalty(F, S, i):
    """B-6.5: i's wound penalty to its checks (``_wound_penalty_of`` its track, kept by ``_set_track``)."""
    return S[i, S_WOUND_PEN]


@rule
def _fatigue_penalty(F, S, i):
    """B-7.8: i's fatigue penalty to all its checks (a kind of its own, adds to the others, B-1.6;
    ``_fatigue_penalty_of`` its levels, kept by ``_set_fatigue``)."""
    return S[i, S_FATIGUE_PEN]


@rule
def _is_stunned(S, i):
    return S[i, S_STUN] > 0 or S[i, S_PERM_STUN] > 0


@rule
def _check_penalty(F, S, i):
    """Penalty to i's other checks in a fight (athletics, mobility): wounds (B-6.5),
    stunned/dazed −2 (B-7.5) and fatigue (B-7.8)."""
    cond = 2 if (_is_stunned(S, i) or S[i, S_DAZE] > 0) else 0
    return _wound_penalty(F, S, i) + cond + _fatigue_penalty(F, S, i)


@rule
def _active_penalty(F, S, i):
    """Penalty to i's melee checks (attacks, feints): wounds (B-6.5) + the largest condition
    (B-1.6, B-7.5): stunned −2, dazed −2 (opportunity attacks), prone −4 (B-4.2) + fatigue (B-7.8).
    """
    cond = 0
    if _is_stunned(S, i) or S[i, S_DAZE] > 0:
        cond = 2
    if S[i, S_PRONE] > 0:
        cond = 4
    return _wound_penalty(F, S, i) + cond + _fatigue_penalty(F, S, i)


@inline_rule
def _reaction_modifier(F, S, opts, i, parry):
    """B-4.7 modifiers to i's parry (``parry`` true) or dodge, weapon bonuses excluded. int64.

    The tactic's stance (+2 defensive, +4 total defence), −2 after a full action (B-2.6),
    conditions (largest of prone −4 parry / −2 dodge, stunned −2, dazed −2), wound penalty,
    fatigue (B-7.8), outnumbered (a kind of its own, ``OUTNUMBERED_PENALTY`` by the option
    ``outnumbered`` and i's engagers).
    """
    cond = 0
    if _is_stunned(S, i) or S[i, S_DAZE] > 0:
        cond = 2
    if S[i, S_PRONE] > 0:
        prone = 4 if parry else 2
        if prone > cond:
            cond = prone
    mod = S[i, S_STANCE] - cond - _wound_penalty(F, S, i) - _fatigue_penalty(F, S, i)
    if S[i, S_FULL_PEN] > 0:
        mod -= 2
    return mod - OUTNUMBERED_PENALTY[opts[O_OUTNUMBERED], S[i, S_ENGAGERS]]


@rule
def _usable(F, S, i, slot):
    """Whether weapon ``slot`` is in hand and not destroyed (fists always are)."""
    if slot == SLOT_FISTS:
        return True
    b = _wb(slot)
    if F[i, b + W_PRESENT] == 0 or S[i, S_BROKEN_MAIN + slot] == BROKEN_DESTROYED:
        return False
    return S[i, S_HELD_MAIN + slot] > 0


@rule
def _is_ranged(F, i, slot):
    """Whether i's weapon in ``slot`` is a ranged weapon (B-8: it has range bands)."""
    return slot != SLOT_FISTS and F[i, _wb(slot) + W_LONG] > 0


@rule
def _shooter(F, S, i):
    """Whether i holds a usable ranged weapon in its main hand (B-8)."""
    return _is_ranged(F, i, SLOT_MAIN) and _usable(F, S, i, SLOT_MAIN)


@inline_rule
def _attack_slot(F, S, i):
    """Weapon i attacks with: main hand if usable (a ranged one only when loaded, B-8), else off
    hand, else fists (B-7.7)."""
    if _usable(F, S, i, SLOT_MAIN) and (not _is_ranged(F, i, SLOT_MAIN) or S[i, S_RELOAD] == 0):
        return SLOT_MAIN
    if _usable(F, S, i, SLOT_OFF):
        return SLOT_OFF
    return SLOT_FISTS


@rule
def _degraded(S, i, slot):
    return slot != SLOT_FISTS and S[i, S_BROKEN_MAIN + slot] == BROKEN_DEGRADED


@rule
def _parry_value(F, S, i, slot):
    """Parry bonus of a weapon: its ``parry_bonus``, −2 if degraded (B-4.4)."""
    v = F[i, _wb(slot) + W_PARRY_BONUS]
    if _degraded(S, i, slot):
        v -= 2
    return v


@inline_rule
def _parry_slot(F, S, i):
    """Weapon i parries with: the usable one with the best parry value, main hand on ties (B-7.6)."""
    best = SLOT_FISTS
    for slot in (SLOT_MAIN, SLOT_OFF):
        if _usable(F, S, i, slot):
            if best == SLOT_FISTS or _parry_value(F, S, i, slot) > _parry_value(F, S, i, best):
                best = slot
    return best


@inline_rule
def _parry_bonus_total(F, S, opts, i, slot):
    """Everything added to i's parry check: melee, talents, weapon, B-4.7 modifiers."""
    return F[i, P_MELEE] + F[i, P_PARRY_MOD] + _parry_value(F, S, i, slot) + _reaction_modifier(F, S, opts, i, True)


@inline_rule
def _dodge_bonus_total(F, S, opts, i):
    return F[i, P_DODGE] + _reaction_modifier(F, S, opts, i, False)


@rule
def _base_difficulty(S, d):
    """B-4.1: base difficulty to hit d: 8 for an ordinary target, 12 for a moving one (it ran, B-8)."""
    return 12 if S[d, S_MOVING] != 0 else BASE_DIFFICULTY


@rule
def _can_react(S, i):
    """B-4.7: furious attackers and surprised fighters cannot react; the out of the fight neither;
    in a duel, nor can a fighter in a grapple (B-3.12: its reactions are only against others)."""
    return (S[i, S_OUT] == 0 and S[i, S_NO_REACT] == 0 and S[i, S_SURPRISED] == 0
            and S[i, S_GRAPPLE] == G_NONE)


@inline_rule
def _choose_reaction(F, S, opts, d, kind):
    """B-4.8: the defender's reaction to an attack: R_PARRY, R_DODGE or R_NONE.

    ``best`` takes the higher total bonus (parry on ties); unarmed defenders dodge. A knock-down
    (B-3.9) cannot be parried, so a parrying defender dodges it.
    """
    if not _can_react(S, d):
        return R_NONE
    r = F[d, P_REACTION]
    if r == R_NONE:
        return R_NONE
    can_parry = kind != K_KNOCKDOWN
    if r == R_PARRY:
        return R_PARRY if can_parry else R_DODGE
    if r == R_DODGE or not can_parry:
        return R_DODGE
    slot = _parry_slot(F, S, d)
    if slot == SLOT_FISTS:
        return R_DODGE
    if _parry_bonus_total(F, S, opts, d, slot) >= _dodge_bonus_total(F, S, opts, d):
        return R_PARRY
    return R_DODGE


@rule
def _attack_bonus(F, S, a, slot, mod):
    """Everything added to a's attack 2d6 (B-4.2): melee, talents, action ``mod``, off hand −2
    unless ambidextrous (B-7.6), degraded weapon −2 (B-4.4), wounds and conditions; a ranged
    weapon fired in melee −2, two-handed −4 (B-8)."""
    total = F[a, P_MELEE] + F[a, P_ATTACK_MOD] + mod - _active_penalty(F, S, a)
    if _is_ranged(F, a, slot):
        total -= 4 if F[a, _wb(slot) + W_TWO_HANDED] != 0 else 2
    if slot == SLOT_OFF and F[a, P_AMBIDEXTROUS] == 0:
        total -= 2
    if _degraded(S, a, slot):
        total -= 2
    return total


@rule
def _weapon_die(F, S, a, slot):
    """Damage die size of a's weapon, one step lower if degraded (B-4.4)."""
    sides = F[a, _wb(slot) + W_SIDES]
    if _degraded(S, a, slot):
        if sides > 12:
            return 12
        if sides > 4:
            return sides - 2
        if sides > 2:
            return sides - 1
    return sides


@rule
def _die_floor(sides, extra, floor_extra):
    """B-4.11: lowest a weapon die may show: half the die on a confident hit (4+ extra), and
    min(extra, die) when ``extra_successes_floor_damage`` is on."""
    floor = 0
    if extra >= 4:
        floor = sides // 2
    if floor_extra != 0:
        e = extra if extra < sides else sides
        if e > floor:
            floor = e
    return floor


@rule
def _zone_armoured(F, d, zone):
    return F[d, P_ARMOUR + 2 * zone] > 0 or F[d, P_ARMOUR + 2 * zone + 1] > 0


@rule
def _needs_marker(F, opts, d, zone):
    """Whether a hit on ``zone`` rolls the d6 penetration marker (B-4.14)."""
    return opts[O_ARMOUR_MODEL] != ARMOUR_PROTECTION_ONLY and _zone_armoured(F, d, zone)


@rule
def _final_damage(F, S, opts, a, d, slot, zone, dice_sum, crit_die, marker, reduce, band):
    """Steps 4–5 of B-4: damage type and final damage of a hit, given its dice.

    Parameters
    ----------
    dice_sum : int64
        Sum of the weapon dice after floors / the critical maximum (B-4.11, B-4.12).
    crit_die : int64
        The critical d6 (B-4.12), 0 if not critical.
    marker : int64
        The d6 penetration marker (B-4.14); ignored where no marker is rolled.
    reduce : int64
        Subtracted at the end (bare-handed parry, B-7.7).
    band : int64
        Range band of a shot (B-8): damage and penetration −band, not below 0. 0 in melee.

    Returns
    -------
    (int64, int64)
        Final damage ≥ 0 and the delivered damage type (``DT_*``).
    """
    b = _wb(slot)
    dtype = F[a, b + W_TYPE]
    dmg = dice_sum + F[a, b + W_BONUS] + F[a, P_DAMAGE_MOD] + crit_die
    if opts[O_ADD_STRENGTH] != 0 and F[a, b + W_UNARMED] == 0:
        dmg += F[a, P_STRENGTH]  # B-4.10 option
    pen = F[a, b + W_PEN]
    if _degraded(S, a, slot) and pen > 0:
        pen -= 1
    if band > 0:  # B-8 medium / long range: penetration −1 / −2, not below 0
        pen = pen - band if pen > band else 0
    prot = F[d, P_ARMOUR + 2 * zone]
    tough = F[d, P_ARMOUR + 2 * zone + 1]
    if dtype == DT_FIRE:  # B-4.14: fire ignores toughness, doubles protection
        prot *= 2
        tough = 0
    elif dtype == DT_BLAST:  # blast ignores toughness, halves protection
        prot //= 2
        tough = 0
    if _needs_marker(F, opts, d, zone):
        pierced = marker + pen - tough >= opts[O_PIERCE_THRESHOLD]
        if not pierced and dtype == DT_CUTTING:
            dtype = DT_BLUNT
        if pierced and opts[O_ARMOUR_MODEL] == ARMOUR_MARKER_PIERCE_IGNORES:
            prot = 0
    final = dmg - band - prot - reduce  # the band's −1/−2 stops at 0 before armour: same total
    if final < 0:
        final = 0
    return final, dtype


@rule
def _wound_level(F, d, damage):
    """B-5.1: the wound level (``LVL_*``) of one hit's final damage against d's damage levels."""
    if damage <= 0:
        return LVL_NONE
    for k in range(4):
        if damage <= F[d, P_DL0 + k]:
            return LVL_LIGHT_DAMAGE + k
    return LVL_MORTAL


# --------------------------------------------------------------------------------------------------
# Wounds and conditions (B-5, B-6, B-7)
# --------------------------------------------------------------------------------------------------


@rule
def _knock_out(F, S, d, cause):
    """d goes out of the fight by ``cause`` (once): it gets the next place in the order of going
    out (``S_OUT_SEQ``), stops being an engager of its foe and leaves its side's count."""
    if S[d, S_OUT] == 0:
        S[d, S_OUT] = cause + 1
        S[0, S_OUTS] += 1
        S[d, S_OUT_SEQ] = S[0, S_OUTS]
        foe = S[d, S_FOE]
        if foe >= 0:
            S[foe, S_ENGAGERS] -= 1
        S[F[d, P_SIDE], S_SIDE_IN] -= 1


@rule
def _record(F, S, d, level):
    """B-6.2–B-6.4: mark a light/heavy/critical wound on d's track; a filled И is out (B-6.6)."""
    n = F[d, P_NCELLS]
    track = S[d, S_TRACK]
    cell = -1
    if level == LVL_LIGHT:
        start = 0
    elif level == LVL_HEAVY:
        start = n - 3
    else:
        start = n - 2
    for c in range(start, n):
        if (track >> c) & 1 == 0:
            cell = c
            break
    if cell >= 0:
        _set_track(F, S, d, track | (1 << cell))
    if (S[d, S_TRACK] >> (n - 1)) & 1:
        _knock_out(F, S, d, CAUSE_TRACK_FULL)


@rule
def _light_damage(F, S, d):
    """B-5.3: tally one light damage; past endurance it becomes a light wound."""
    S[d, S_TALLY] += 1
    if S[d, S_TALLY] > F[d, P_ENDURANCE]:
        S[d, S_TALLY] = 0
        _record(F, S, d, LVL_LIGHT)


@rule
def _passive_check(F, S, st, d, check, difficulty):
    """A check of d's bonus ``F[d, check]`` (2d6 + bonus, dazed −2 per B-7.5, fatigue per B-7.8)
    against ``difficulty``: toughness after wounds, willpower against exhaustion. One 2d6."""
    r1, r2 = _roll_2d6(st)
    total = r1 + r2 + F[d, check] - _fatigue_penalty(F, S, d)
    if S[d, S_DAZE] > 0:
        total -= 2
    return total >= difficulty


@rule
def _toughness_check(F, S, st, d, difficulty):
    """A `toughness` check against ``difficulty`` (B-5.4, B-7.1–7.3)."""
    return _passive_check(F, S, st, d, P_TOUGHNESS, difficulty)


@rule
def _gain_fatigue(F, S, st, d, levels):
    """B-7.8: d gains ``levels`` fatigue levels, one at a time. Each level beyond endurance (a level
    of exhaustion) calls for a hard (12) willpower check (one 2d6, with the new level's penalty) or
    d falls unconscious; beyond three times endurance d dies of exhaustion. Either is out
    (``CAUSE_EXHAUSTED``)."""
    end = F[d, P_ENDURANCE]
    for _ in range(levels):
        if S[d, S_OUT] != 0:
            return
        _set_fatigue(F, S, d, S[d, S_FATIGUE] + 1)
        if S[d, S_FATIGUE] > 3 * end:
            S[d, S_DEAD] = 1
            _knock_out(F, S, d, CAUSE_EXHAUSTED)
        elif S[d, S_FATIGUE] > end and not _passive_check(F, S, st, d, P_WILLPOWER, 12):
            _knock_out(F, S, d, CAUSE_EXHAUSTED)


@rule
def _until_end_of_next_turn(S, d, field):
    """Set a condition lasting until the end of d's next turn (B-2.8)."""
    turns = 2 if S[d, S_IN_TURN] > 0 else 1
    if S[d, field] < turns:
        S[d, field] = turns


@rule
def _drop(F, S, d, zone):
    """An arm wound drops what that hand holds; a two-handed weapon from either arm (B-7.1)."""
    if zone == ZONE_RARM:
        S[d, S_HELD_MAIN] = 0
    elif zone == ZONE_LARM:
        if F[d, _wb(SLOT_MAIN) + W_TWO_HANDED] > 0:
            S[d, S_HELD_MAIN] = 0
        else:
            S[d, S_HELD_OFF] = 0


@inline_rule
def _wound_effects(F, S, st, d, level, zone):
    """B-7.1–B-7.3: immediate effects of a light/heavy/critical wound by zone.

    The toughness check (if any) is rolled first, on the state before this wound's effects.
    """
    group = ZONE_GROUP[zone]  # 0 head, 1 torso, 2 arm, 3 leg
    if level == LVL_LIGHT:
        if _toughness_check(F, S, st, d, 8):
            return
        if group == 2:
            _drop(F, S, d, zone)
        elif group == 3:
            S[d, S_PRONE] = 1
        elif group == 1:
            _until_end_of_next_turn(S, d, S_STUN)
        else:
            _until_end_of_next_turn(S, d, S_DAZE)
        return
    if level == LVL_HEAVY:
        ok = _toughness_check(F, S, st, d, 12)
        if group == 2:
            _drop(F, S, d, zone)
            if not ok:
                _until_end_of_next_turn(S, d, S_STUN)
        elif group == 3:
            S[d, S_PRONE] = 1
            if not ok:
                _until_end_of_next_turn(S, d, S_STUN)
        elif group == 1:
            _until_end_of_next_turn(S, d, S_STUN)
            if not ok:
                _until_end_of_next_turn(S, d, S_DAZE)
        else:
            _until_end_of_next_turn(S, d, S_DAZE)
            if not ok:
                _knock_out(F, S, d, CAUSE_KNOCKED_OUT)
        return
    # critical
    if group == 0:
        _knock_out(F, S, d, CAUSE_KNOCKED_OUT)
        return
    ok = _toughness_check(F, S, st, d, 14)
    if group == 2:
        _drop(F, S, d, zone)
    elif group == 3:
        S[d, S_PRONE] = 1
    else:
        _until_end_of_next_turn(S, d, S_DAZE)
    if not ok:
        _knock_out(F, S, d, CAUSE_KNOCKED_OUT)


@inline_rule
def _take_wound(F, S, st, cnt, d, damage, dtype, zone):
    """B-5, B-6, B-7: d takes one hit's final damage of type ``dtype`` in ``zone``.

    Counts the wound (level by effect × zone group), records it (shock one level lower, B-5.2),
    applies the effects, bleeding (cutting heavy/critical), lasting stun (critical) and the fatigue
    of a fire wound (B-7.8).
    A mortal wound puts d out at once and rolls the toughness 12 check for death (B-5.4).
    """
    level = _wound_level(F, d, damage)
    side = F[d, P_SIDE]
    cnt[C_WOUNDS + side * 24 + level * 4 + ZONE_GROUP[zone]] += 1
    cnt[C_DAMAGE + side] += damage
    S[d, S_TAKEN] += damage
    if level == LVL_NONE:
        return
    S[d, S_HARMED] += 1
    if level == LVL_MORTAL:
        if not _toughness_check(F, S, st, d, 12):
            S[d, S_DEAD] = 1
        _knock_out(F, S, d, CAUSE_MORTAL)
        return
    recorded = level - 1 if dtype == DT_SHOCK else level
    if recorded == LVL_LIGHT_DAMAGE:
        _light_damage(F, S, d)
    elif recorded >= LVL_LIGHT:
        _record(F, S, d, recorded)
    if S[d, S_OUT] != 0 or level == LVL_LIGHT_DAMAGE:
        return
    _wound_effects(F, S, st, d, level, zone)
    if level >= LVL_HEAVY and dtype == DT_CUTTING:
        S[d, S_BLEED] += 1  # B-7.2, B-7.3
    if level == LVL_CRITICAL:
        S[d, S_PERM_STUN] = 1  # B-7.4 (a shock critical takes the effects of its level, B-5.2)
    if level >= LVL_HEAVY:
        S[d, S_NO_RUN] = 1  # B-7.4: no running until treated
    if dtype == DT_FIRE:  # B-7.8: a fire wound brings 1 / 2 / 4 fatigue levels
        _gain_fatigue(F, S, st, d, 1 << (level - LVL_LIGHT))


@loop_inline_rule
def _hit(F, S, opts, zt, st, cnt, a, d, slot, extra, crit, zone, reduce, band):
    """Steps 3–6 of B-4 for a hit by a on d: zone, damage dice, armour, wound.

    ``band`` is −1 for a melee blow (the extra-success floor of B-4.11 may apply), or the range
    band 0/1/2 of a shot (B-8: only the confident-hit floor; damage and penetration −band).
    Draws, in order: the zone die (unless aimed, ``zone >= 0``; drawn again while d's explicit cover
    hides the roll, B-8), each weapon die (none on a critical hit), the critical d6, the penetration
    marker (armoured zones), then the wound's checks.
    """
    if not _indices_ok(a, d, slot):
        return
    if zone < 0:
        zone = _roll_zone(F, opts, zt, st, d)  # B-4.9, re-rolled behind explicit cover (B-8)
    b = _wb(slot)
    sides = _weapon_die(F, S, a, slot)
    total = 0
    if crit:
        total = F[a, b + W_NDICE] * sides  # B-4.12
    else:
        floor = _die_floor(sides, extra, opts[O_FLOOR_EXTRA] if band < 0 else 0)
        for _ in range(F[a, b + W_NDICE]):
            v = _die(st, sides)
            total += v if v > floor else floor
    crit_die = _die(st, 6) if crit else 0
    marker = _die(st, 6) if _needs_marker(F, opts, d, zone) else 0
    final, dtype = _final_damage(F, S, opts, a, d, slot, zone, total, crit_die, marker, reduce, max(band, 0))
    S[a, S_DEALT] += final
    _take_wound(F, S, st, cnt, d, final, dtype, zone)


@rule
def _break(F, S, opts, cnt, i, slot):
    """B-4.4: i's weapon in ``slot`` breaks: degraded, or destroyed (option / second break)."""
    cnt[C_BREAKS + F[i, P_SIDE]] += 1
    if opts[O_BREAK_DESTROYS] != 0 or S[i, S_BROKEN_MAIN + slot] == BROKEN_DEGRADED:
        S[i, S_BROKEN_MAIN + slot] = BROKEN_DESTROYED
    else:
        S[i, S_BROKEN_MAIN + slot] = BROKEN_DEGRADED


@rule
def _knockdown(F, S, st, a, d):
    """B-3.9 after a knock-down hit: opposed athletics; the winner by any margin pushes and d makes
    a hard (12) dodge [mobility] check or falls prone; d winning by 4+ puts a prone. All three
    checks take wound and stunned/dazed penalties (B-6.5, B-7.5)."""
    a1, a2 = _roll_2d6(st)
    d1, d2 = _roll_2d6(st)
    ra = a1 + a2 + F[a, P_ATHLETICS] - _check_penalty(F, S, a) + _charge_athletics(S, a)
    rd = d1 + d2 + F[d, P_ATHLETICS] - _check_penalty(F, S, d)
    if ra > rd:
        m1, m2 = _roll_2d6(st)
        if m1 + m2 + F[d, P_DODGE] - _check_penalty(F, S, d) < 12:
            S[d, S_PRONE] = 1
    elif rd - ra >= 4:
        S[a, S_PRONE] = 1


@rule
def _hard_block(F, S, opts, zt, st, cnt, a, d, slot, ps, shot):
    """B-4.4, B-7.7: the parry of a's attack with ``slot`` by d with ``ps`` equalled it (a hard block).

    Fists on both sides: opposed athletics (2d6 for a, then for d; fatigue counts), the loser takes
    the winner's fists on an arm (a d2: left or right), none on a tie. A bare-handed parry takes the
    full hit on its arm (not a shot in melee: that strikes the weapon, B-8). Fists that met a weapon
    take it as a parry with 0 extra successes. Two weapons: a durability test (2d6 each), a loss by
    6+ breaks the loser's.
    """
    a_unarmed = F[a, _wb(slot) + W_UNARMED] != 0
    d_unarmed = ps == SLOT_FISTS
    if a_unarmed and d_unarmed:
        r1, r2 = _roll_2d6(st)
        q1, q2 = _roll_2d6(st)
        ra = r1 + r2 + F[a, P_ATHLETICS] - _fatigue_penalty(F, S, a)
        rd = q1 + q2 + F[d, P_ATHLETICS] - _fatigue_penalty(F, S, d)
        if ra != rd:
            arm = ZONE_LARM if _die(st, 2) == 1 else ZONE_RARM
            if ra > rd:
                _hit(F, S, opts, zt, st, cnt, a, d, SLOT_FISTS, 0, False, arm, 0, -1)
            else:
                _hit(F, S, opts, zt, st, cnt, d, a, SLOT_FISTS, 0, False, arm, 0, -1)
    elif d_unarmed:
        if not shot:
            _hit(F, S, opts, zt, st, cnt, a, d, slot, 0, False, ZONE_RARM, 0, -1)
    elif a_unarmed:
        _hit(F, S, opts, zt, st, cnt, d, a, ps, 0, False, ZONE_RARM, 0, -1)
    else:
        r1, r2 = _roll_2d6(st)
        q1, q2 = _roll_2d6(st)
        ra = r1 + r2 + F[a, _wb(slot) + W_DUR]
        rd = q1 + q2 + F[d, _wb(ps) + W_DUR]
        if rd - ra >= 6:
            _break(F, S, opts, cnt, a, slot)
        elif ra - rd >= 6:
            _break(F, S, opts, cnt, d, ps)


@rule
def _parried_bare(F, S, opts, zt, st, cnt, a, d, slot, ps, shot, margin, crit):
    """B-7.7: d parried a's attack by ``margin`` and one side fought bare-handed (not both).

    A bare-handed parry takes the hit on its arm, less the margin (not a shot in melee, B-8); a
    weapon parrying fists strikes the attacking arm with the margin as extra successes (critical on
    the parry's double six, ``crit``).
    """
    if ps == SLOT_FISTS:
        if not shot:
            _hit(F, S, opts, zt, st, cnt, a, d, slot, 0, False, ZONE_RARM, margin, -1)
    else:
        _hit(F, S, opts, zt, st, cnt, d, a, ps, margin, crit, ZONE_RARM, 0, -1)


@rule
def _attack(F, S, opts, zt, st, cnt, a, d, slot, mod, zone, kind):
    """One attack by a on d (B-4), from the attack check to the wound.

    Parameters
    ----------
    a, d : int64
        The attacker's and the defender's rows (d is a's foe, or the fighter an opportunity attack
        is made on).
    slot : int64
        Weapon slot (0 main, 1 off, 2 fists).
    mod : int64
        Action modifier (B-3), feint bonus, paired-weapon −4; opportunity −2 is passed here too.
    zone : int64
        Aimed zone, or −1 to roll it.
    kind : int64
        ``K_NORMAL``, ``K_OPPORTUNITY``, ``K_KNOCKDOWN`` or ``K_GRAPPLE``.

    Returns
    -------
    bool
        True when a knock-down attack failed (the target then gets an opportunity attack, B-3.9).
    """
    if not _indices_ok(a, d, slot):
        return False
    ab = _wb(slot)
    a1, a2 = _roll_2d6(st)
    att = a1 + a2 + _attack_bonus(F, S, a, slot, mod) + _attack_situation(F, S, opts, a, d)
    shot = _is_ranged(F, a, slot)
    if shot:  # B-8: a ranged weapon fired in melee; it needs reloading
        S[a, S_RELOAD] = F[a, ab + W_RELOAD]
    base = _base_difficulty(S, d)
    out = C_ATTACKS + F[a, P_SIDE] * 5
    cramped = opts[O_CRAMPED] != 0
    if cramped and slot != SLOT_FISTS and a1 == 1 and a2 == 1:  # B-7.9: the attack did not happen
        cnt[out + OUT_MISS] += 1
        return False
    if opts[O_NEED_BASE] != 0 and att < base:  # B-4.3
        cnt[out + OUT_MISS] += 1
        return kind == K_KNOCKDOWN
    reaction = _choose_reaction(F, S, opts, d, kind)
    ps = SLOT_FISTS
    p1 = 0
    p2 = 0
    if reaction == R_PARRY:  # B-4.4
        ps = _parry_slot(F, S, d)
        p1, p2 = _roll_2d6(st)
        if cramped and ps != SLOT_FISTS and p1 == 1 and p2 == 1:
            reaction = R_NONE  # B-7.9: the parry did not happen
    if reaction == R_PARRY:
        par = p1 + p2 + _parry_bonus_total(F, S, opts, d, ps)
        if att == par:
            cnt[out + OUT_HARD_BLOCK] += 1
            _hard_block(F, S, opts, zt, st, cnt, a, d, slot, ps, shot)
            return False
        if att < par:
            cnt[out + OUT_PARRIED] += 1
            if (F[a, ab + W_UNARMED] != 0) != (ps == SLOT_FISTS):  # B-7.7: fists met a weapon
                _parried_bare(F, S, opts, zt, st, cnt, a, d, slot, ps, shot, par - att, p1 == 6 and p2 == 6)
            return False
        extra = att - par
        if opts[O_MARGIN_MAX] != 0 and par < base:
            extra = att - base
    elif reaction == R_DODGE:  # B-4.5
        d1, d2 = _roll_2d6(st)
        dod = d1 + d2 + _dodge_bonus_total(F, S, opts, d)
        if att < dod:
            cnt[out + OUT_DODGED] += 1
            return kind == K_KNOCKDOWN
        extra = att - dod
        if opts[O_MARGIN_MAX] != 0 and dod < base:
            extra = att - base
    if reaction == R_NONE:
        if att < base:
            cnt[out + OUT_MISS] += 1
            return kind == K_KNOCKDOWN
        extra = att - base
    if extra < 0:
        extra = 0
    cnt[out + OUT_HIT] += 1
    if kind == K_KNOCKDOWN:
        _knockdown(F, S, st, a, d)
        return False
    if kind == K_GRAPPLE:  # B-3.12: no damage; a controls the grapple
        S[a, S_GRAPPLE] = G_CONTROLS
        S[d, S_GRAPPLE] = G_HELD
        return False
    _hit(F, S, opts, zt, st, cnt, a, d, slot, extra, a1 == 6 and a2 == 6, _open_aim(F, opts, zt, d, zone), 0, -1)
    return False


# --------------------------------------------------------------------------------------------------
# Turns and the duel (B-2, B-3)
# --------------------------------------------------------------------------------------------------


@rule
def _decided(S):
    """B-2.9: whether every fighter of a side is out (the fight is over)."""
    return S[0, S_SIDE_IN] == 0 or S[1, S_SIDE_IN] == 0


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
    if S[i, S_DIST] != 0:
        return
    side = F[i, P_SIDE]
    foe = S[i, S_FOE]
    for e in range(S.shape[0]):
        if S[i, S_OUT] != 0:
            return
        if F[e, P_SIDE] != side and (e == foe or S[e, S_FOE] == i):
            _opportunity(F, S, opts, zt, st, cnt, e, i)


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
    a1, a2 = _roll_2d6(st)
    d1, d2 = _roll_2d6(st)
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
    The attack is at i's foe (``S_FOE``, which must be a fighter).

    Returns
    -------
    (mod, zone, kind, slot, acts_left, feint, paired)
        Action modifier, aimed zone or −1, attack kind (``K_*``, −1 for no attack), weapon slot,
        standard actions left, whether a feint precedes it, whether the off hand attacks too.
    """
    e = S[i, S_FOE]
    feint = F[i, P_T_FEINT] != 0 and acts == 2  # B-3.6
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
        if F[i, P_T_ATTACK] == TA_KNOCKDOWN and S[e, S_PRONE] == 0:
            kind = K_KNOCKDOWN  # B-3.9: an unarmed attack; a prone target is attacked plainly
            slot = SLOT_FISTS
        elif F[i, P_T_ATTACK] == TA_GRAPPLE and _free_hands(F, S, i) >= opts[O_GRAPPLE_HANDS]:
            kind = K_GRAPPLE  # B-3.12: an unarmed attack; without the free hands, a plain attack
            slot = SLOT_FISTS
        if F[i, P_T_ATTACK] == TA_NORMAL or kind != K_NORMAL:
            mod = F[i, P_T_UNARMED_MOD] if slot == SLOT_FISTS else F[i, P_T_MOD]
    paired = (kind == K_NORMAL and F[i, P_PAIRED] != 0 and slot == SLOT_MAIN
              and _usable(F, S, i, SLOT_OFF))
    if paired:  # B-7.6: both weapons in one action, each −4 (off hand a further −2)
        mod -= 4
    return mod, zone, kind, slot, acts, feint, paired


@inline_rule
def _tactic_attack(F, S, opts, zt, st, cnt, i, acts, first_only):
    """The attack part of i's turn by its tactic at its foe, with ``acts`` standard actions left.

    ``first_only`` stops after the first attack roll of the action (the single-attack sampler).
    Returns the standard actions left.
    """
    mod, zone, kind, slot, acts, feint, paired = _plan_attack(F, S, opts, i, acts)
    if kind < 0:
        return acts
    d = S[i, S_FOE]
    if feint and _feint(F, S, st, i):
        mod += 1
    failed_knockdown = _attack(F, S, opts, zt, st, cnt, i, d, slot, mod, zone, kind)
    if first_only:
        return acts
    if failed_knockdown:  # B-3.9: a failed knock-down gives (only) its target an opportunity attack
        _opportunity(F, S, opts, zt, st, cnt, d, i)
    elif paired and S[i, S_OUT] == 0 and S[d, S_OUT] == 0 and _usable(F, S, i, SLOT_OFF):
        _attack(F, S, opts, zt, st, cnt, i, d, SLOT_OFF, mod, zone, kind)
    return acts


@rule
def _ready(F, S, opts, zt, st, cnt, i, slot):
    """B-3.10: pick up a dropped weapon (standard action). It provokes (B-3.8); the weapon is in
    hand unless the opportunity attack knocked it away again (−1 marks it as being picked up)."""
    S[i, S_HELD_MAIN + slot] = -1
    _provoke(F, S, opts, zt, st, cnt, i)
    if S[i, S_HELD_MAIN + slot] == -1:
        S[i, S_HELD_MAIN + slot] = 1


@rule
def _stand_up(F, S, opts, zt, st, cnt, i):
    """B-3.11: stand up. It provokes (B-3.8) while still down; the fighter is up unless the
    opportunity attack felled it again (2 marks it as rising)."""
    S[i, S_PRONE] = 2
    _provoke(F, S, opts, zt, st, cnt, i)
    if S[i, S_PRONE] == 2:
        S[i, S_PRONE] = 0


@rule
def _can_go_on(S, i):
    """Whether i may take its next action: the fight is not over, i is still in and was not dazed
    meanwhile (B-7.5)."""
    return not _decided(S) and S[i, S_OUT] == 0 and S[i, S_DAZE] == 0


@rule
def _needs_ready(F, S, i, slot):
    """A dropped, not destroyed item i picks up (B-3.10) — not a ranged weapon its tactic lets go of
    in melee (``drop_ranged``, B-8)."""
    b = _wb(slot)
    return (F[i, b + W_PRESENT] != 0 and S[i, S_HELD_MAIN + slot] == 0
            and S[i, S_BROKEN_MAIN + slot] != BROKEN_DESTROYED
            and not (slot == SLOT_MAIN and _lets_go_of_ranged(F, S, i)))


# --------------------------------------------------------------------------------------------------
# Distance and ranged combat (B-8)
# --------------------------------------------------------------------------------------------------


@rule
def _set_dist(S, metres):
    """The distance between the fighters (metres, 0 engaged; only duels start apart), kept in every
    state row."""
    for j in range(S.shape[0]):
        S[j, S_DIST] = metres


@rule
def _lets_go_of_ranged(F, S, i):
    """B-8 tactic ``drop_ranged``: engaged, i does without its ranged main-hand weapon."""
    return F[i, P_T_DROP] != 0 and S[i, S_DIST] == 0 and _is_ranged(F, i, SLOT_MAIN)


@rule
def _run_moves(F, S, opts, i, acts):
    """B-8: the moves i's run covers now: 0 no run; 4 a run when two moves cannot reach, the
    tactic runs (``run``), both actions are left and no heavy wound forbids it (B-7.4); 6 a sprint
    [Спринт] when even a run cannot reach, i ran (or sprinted) in its previous own turn and the
    option ``sprint`` allows it."""
    mov = F[i, P_MOVEMENT]
    if not (acts == 2 and F[i, P_T_RUN] != 0 and S[i, S_DIST] > 2 * mov and S[i, S_NO_RUN] == 0):
        return 0
    if (opts[O_SPRINT] != 0 and S[i, S_DIST] > 4 * mov and S[i, S_RAN] > 0
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
        _set_dist(S, max(S[i, S_DIST] - moves * mov, 0))
        S[i, S_MOVING] = 1
        S[i, S_NO_REACT] = 1
        S[i, S_FULL_PEN] = 1
        S[i, S_RAN] = S[i, S_TURNS]
        if moves == 6:
            S[i, S_SPRINTED] = S[i, S_TURNS]
        return 0
    while acts > 0 and S[i, S_DIST] > 0 and mov > 0:
        _set_dist(S, max(S[i, S_DIST] - mov, 0))
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
def _shot_bonus(F, S, a, mod):
    """Everything added to a's 2d6 for a shot at its enemy (B-8, B-4.2): ranged, ``mod``, the range
    band (medium −2, long −4), point blank +2 / close +1 (≤ 3 m / ≤ 10 m; ≤ 1 m / ≤ 3 m for a weapon
    whose long range is ≤ 10 m) unless the target is moving, a degraded weapon −2, wounds,
    stunned/dazed and fatigue (prone is a melee penalty only, B-7.5)."""
    d = S[a, S_FOE]
    dist = S[a, S_DIST]
    total = F[a, P_RANGED] + mod - 2 * _shot_band(F, a, dist) - _check_penalty(F, S, a)
    if _degraded(S, a, SLOT_MAIN):
        total -= 2
    if S[d, S_MOVING] == 0:
        short_weapon = F[a, _wb(SLOT_MAIN) + W_LONG] <= 10
        if dist <= (1 if short_weapon else 3):
            total += 2
        elif dist <= (3 if short_weapon else 10):
            total += 1
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
    """B-8: a shot by a at its foe d from ``S_DIST`` metres (within the long range).

    Draws the attack 2d6 (less the cover penalties, ``_shot_cover_penalty``); below the difficulty
    (8, moving 12, prone +2) it misses. Otherwise d may dodge: 2d6 + dodge (B-4.7 modifiers)
    against 10; a success raises the difficulty by 2 + its extra successes. A shot still hitting d
    in indirect cover draws the d100 that may deflect it (a miss). A hit has attack − difficulty
    extra successes and deals the weapon's damage less the band (``_hit`` with ``band``). The weapon
    then needs ``reload`` actions.
    """
    d = S[a, S_FOE]
    band = _shot_band(F, a, S[a, S_DIST])
    a1, a2 = _roll_2d6(st)
    att = a1 + a2 + _shot_bonus(F, S, a, mod) - _shot_cover_penalty(F, opts, a, d)
    S[a, S_RELOAD] = F[a, _wb(SLOT_MAIN) + W_RELOAD]
    diff = _shot_difficulty(S, d)
    out = C_ATTACKS + F[a, P_SIDE] * 5
    if att < diff:
        cnt[out + OUT_MISS] += 1
        return
    if _can_dodge_shot(F, S, d):
        d1, d2 = _roll_2d6(st)
        dodge = d1 + d2 + _dodge_bonus_total(F, S, opts, d)
        if dodge >= 10:
            diff += 2 + dodge - 10
            if att < diff:
                cnt[out + OUT_DODGED] += 1
                return
    if _deflected(F, opts, st, d):  # B-8 indirect cover: the d100 after a hit; counted as a miss
        cnt[out + OUT_MISS] += 1
        return
    cnt[out + OUT_HIT] += 1
    _hit(F, S, opts, zt, st, cnt, a, d, SLOT_MAIN, att - diff, a1 == 6 and a2 == 6, _open_aim(F, opts, zt, d, zone),
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
    in melee (``_attack``: melee check, −2/−4, parry allowed); apart it is ``_shoot``. Without a
    foe (``S_FOE`` −1) there is no shot.
    """
    e = S[i, S_FOE]
    if e < 0 or (S[i, S_DIST] > 0 and _unseen(F, opts, e)):  # no foe; B-8: indirect cover of 100 %
        return acts
    if S[i, S_DIST] > F[i, _wb(SLOT_MAIN) + W_LONG]:
        _set_dist(S, max(S[i, S_DIST] - F[i, P_MOVEMENT], 1))
        acts -= 1
    if acts <= 0 or S[i, S_DIST] > F[i, _wb(SLOT_MAIN) + W_LONG]:
        return acts
    aim = 0
    if acts == 2:
        acts -= 1
        if S[e, S_MOVING] == 0 or S[i, S_DIST] > 10:
            aim = 1
    mod, zone = _shot_plan(F, S, i)
    if S[i, S_DIST] == 0:
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
    if F[i, P_T_KITE] != 0 and mov > 0 and e >= 0 and S[i, S_DIST] <= F[e, P_MOVEMENT]:
        _provoke(F, S, opts, zt, st, cnt, i)  # only when engaged
        acts -= 1
        if not _can_go_on(S, i):
            return acts
        _set_dist(S, S[i, S_DIST] + mov)
    while acts > 0 and S[i, S_RELOAD] > 0 and _can_go_on(S, i) and _shooter(F, S, i):
        _provoke(F, S, opts, zt, st, cnt, i)  # B-3.8 manipulation (only when engaged)
        acts -= 1
        if _shooter(F, S, i):
            S[i, S_RELOAD] -= 1
    if acts > 0 and S[i, S_RELOAD] == 0 and _can_go_on(S, i) and _shooter(F, S, i):
        acts = _shot_action(F, S, opts, zt, st, cnt, i, acts)
    return acts


# --------------------------------------------------------------------------------------------------
# Cover, indirect cover and charge (B-8, seed lines ~383–414, 53, 105, 208, 506–510)
# --------------------------------------------------------------------------------------------------


@rule
def _side_option(F, opts, slot, i):
    """A per-side rule option of fighter i: ``opts[slot + side of i]`` (B-8 cover options)."""
    return opts[slot + F[i, P_SIDE]]


@rule
def _size_modifier(F, opts, d):
    """B-8 [Размер противника]: what an attack (melee or shot) on d adds for d's size (tiny −8 …
    medium 0 … gigantic +8), d's explicit cover counting it that many steps smaller (quarter 1,
    half 2, three quarters 3; clamped at tiny): a medium target in cover −1/−2/−4, a large one
    half in cover 0."""
    return SIZE_MODIFIER[max(SIZE_MEDIUM + F[d, P_SIZE] - _side_option(F, opts, O_COVER, d), 0)]


@rule
def _attack_situation(F, S, opts, a, d):
    """B-8: what the situation adds to a's attack check on d: d's size, counted smaller in explicit
    cover (``_size_modifier``), a charge's attack its ``charge_attack_modifier``."""
    mod = _size_modifier(F, opts, d)
    if S[a, S_CHARGING] != 0:
        mod += opts[O_CHARGE_MOD]
    return mod


@rule
def _shot_cover_penalty(F, opts, a, d):
    """B-8: penalty of a shot by a at d: d's size, counted smaller in explicit cover (a medium
    target 0, in cover 1/2/4; a bonus is a negative penalty, ``_size_modifier``), d's indirect cover
    (sparse 1, dense 2, thicket 4) and ``cover_shooter_penalty`` (seed: 2) when a shoots from behind
    its own explicit cover."""
    pen = -_size_modifier(F, opts, d) + _side_option(F, opts, O_INDIRECT_PENALTY, d)
    if _side_option(F, opts, O_COVER, a) > 0:
        pen += opts[O_COVER_SHOOTER]
    return pen


@rule
def _zone_hidden(F, opts, zt, d, r):
    """B-8 explicit cover: whether zone-table roll ``r + 1`` is hidden behind d's cover.

    Horizontal cover hides the lower half of the die (rolls 1–10 of a d20: legs, lower torso),
    vertical cover the odd (left) or even (right) rolls; head rolls are always open. A one-sided
    table hides nothing (so an open roll always exists).
    """
    if _side_option(F, opts, O_COVER, d) == 0 or zt[r] == ZONE_HEAD or zt.shape[0] < 2:
        return False
    shape = _side_option(F, opts, O_COVER_ZONES, d)
    if shape == COVER_HORIZONTAL:
        return 2 * (r + 1) <= zt.shape[0]
    if shape == COVER_VERTICAL_LEFT:
        return r % 2 == 0
    return r % 2 == 1


@inline_rule
def _roll_zone(F, opts, zt, st, d):
    """B-4.9 hit zone of a blow on d: the zone die, re-rolled while it shows a roll hidden by d's
    explicit cover (B-8). Returns the zone code."""
    r = _die(st, zt.shape[0]) - 1
    while _zone_hidden(F, opts, zt, d, r):
        r = _die(st, zt.shape[0]) - 1
    return np.int64(zt[r])


@rule
def _open_aim(F, opts, zt, d, zone):
    """B-8: an aimed blow (``zone >= 0``) hits its zone if any roll of it is open behind d's
    cover (the seed: aim at an open zone); a zone wholly hidden gives −1 (the zone is rolled)."""
    if zone < 0:
        return zone
    found = False
    for r in range(zt.shape[0]):
        if zt[r] == zone:
            found = True
            if not _zone_hidden(F, opts, zt, d, r):
                return zone
    return -1 if found else zone


@rule
def _unseen(F, opts, d):
    """B-8: indirect cover of 100 % makes d invisible to shooters: it cannot be shot at."""
    return _side_option(F, opts, O_INDIRECT, d) >= 100


@rule
def _deflected(F, opts, st, d):
    """B-8 indirect cover: a shot that hit d is deflected when a d100 ≤ d's value (drawn only
    when the value is above 0)."""
    value = _side_option(F, opts, O_INDIRECT, d)
    return value > 0 and _die(st, 100) <= value


@rule
def _charge_athletics(S, a):
    """Seed line 208: a knock-down made as part of a charge gets +2 to the attacker's athletics."""
    return 2 if S[a, S_CHARGING] != 0 else 0


@rule
def _charges(F, S, i, acts):
    """B-8: whether i charges [Натиск] now: its tactic charges, both standard actions are left (a
    full action), the enemy is apart within a run's distance (four moves) and no heavy or critical
    wound forbids it (B-7.4)."""
    return (F[i, P_T_CHARGE] != 0 and acts == 2 and 0 < S[i, S_DIST] <= 4 * F[i, P_MOVEMENT]
            and S[i, S_NO_RUN] == 0)


@rule
def _first_action_runs(F, S, opts, i):
    """B-8: whether i's first action this turn will be a run or sprint (``_turn``'s order: not in a
    grapple, not prone, no weapon to ready, not a shooter, no charge)."""
    return (S[i, S_GRAPPLE] == G_NONE and S[i, S_PRONE] == 0 and not _needs_ready(F, S, i, SLOT_MAIN)
            and not _shooter(F, S, i) and not _charges(F, S, i, 2) and S[i, S_DIST] > 0
            and _run_moves(F, S, opts, i, 2) > 0)


@inline_rule
def _sprint_stop(F, S, opts, st, i):
    """B-8 sprint [Спринт]: in the own turn after a sprint i's first action must be a run, or i
    makes a normal (10) mobility check (2d6 + ``dodge`` − wounds, stunned/dazed, fatigue; one 2d6
    before its actions) and falls prone on a failure (the seed's d2+1 m roll is distance flavour,
    ignored). A turn without actions (dazed) ends the sprint without a check."""
    if S[i, S_SPRINTED] == 0 or S[i, S_SPRINTED] != S[i, S_TURNS] - 1 or _first_action_runs(F, S, opts, i):
        return
    r1, r2 = _roll_2d6(st)
    if r1 + r2 + F[i, P_DODGE] - _check_penalty(F, S, i) < MOBILITY_NORMAL:
        S[i, S_PRONE] = 1


@rule
def _charge(F, S, opts, zt, st, cnt, i):
    """B-8 charge [Натиск]: a full action (−2 to reactions until i's next turn, B-2.6) that closes
    in and makes the tactic's attack as with one standard action left (``charge_attack_modifier``;
    a knock-down +2 athletics). With ``charge_moving_target`` i is a moving target until its next
    turn; with ``charge_provokes = target`` the charged enemy first makes its opportunity attack
    (B-3.8). Returns the standard actions left (0)."""
    _set_dist(S, 0)
    S[i, S_FULL_PEN] = 1
    if opts[O_CHARGE_MOVING] != 0:
        S[i, S_MOVING] = 1
    if opts[O_CHARGE_PROVOKES] == CHARGE_PROVOKES_TARGET:
        _provoke(F, S, opts, zt, st, cnt, i)
    if _can_go_on(S, i):
        S[i, S_CHARGING] = 1
        _tactic_attack(F, S, opts, zt, st, cnt, i, 1, False)
        S[i, S_CHARGING] = 0
    return 0


# --------------------------------------------------------------------------------------------------
# Grapple (B-3.12, seed lines 146–173 and 260–272)
# --------------------------------------------------------------------------------------------------


@rule
def _free_hands(F, S, i):
    """Hands of i holding nothing (0–2): a usable item in a hand occupies it, a two-handed one both."""
    held = 0
    if _usable(F, S, i, SLOT_MAIN):
        held += 2 if F[i, _wb(SLOT_MAIN) + W_TWO_HANDED] != 0 else 1
    if _usable(F, S, i, SLOT_OFF):
        held += 1
    return 2 - held if held < 2 else 0


@rule
def _release(S, i, e):
    """The grapple between i and e ends for both."""
    S[i, S_GRAPPLE] = G_NONE
    S[e, S_GRAPPLE] = G_NONE


@rule
def _grapple_bonus(F, S, i, slip):
    """What i adds to its 2d6 in a grapple contest: athletics, −4 with an item in a hand; or for
    slipping out (``slip``) mobility [our ``dodge``]; less wounds, stunned/dazed and fatigue."""
    if slip:
        return F[i, P_DODGE] - _check_penalty(F, S, i)
    b = F[i, P_ATHLETICS] - _check_penalty(F, S, i)
    if _free_hands(F, S, i) < 2:
        b -= 4
    return b


@rule
def _grapple_contest(F, S, st, i, e, slip):
    """Opposed check of i (athletics, or mobility when ``slip``) against e's athletics: 2d6 for
    i, then 2d6 for e. Returns i's margin; i must win outright (a tie fails)."""
    r1, r2 = _roll_2d6(st)
    q1, q2 = _roll_2d6(st)
    return r1 + r2 + _grapple_bonus(F, S, i, slip) - (q1 + q2 + _grapple_bonus(F, S, e, False))


@rule
def _grapple_slot(F, S, i):
    """Weapon i strikes with in a grapple: a usable reach-0 item (main hand first), else fists."""
    for slot in (SLOT_MAIN, SLOT_OFF):
        if _usable(F, S, i, slot) and F[i, _wb(slot) + W_REACH] == 0:
            return slot
    return SLOT_FISTS


@rule
def _grapple_hold(F, S, opts, zt, st, cnt, i):
    """B-3.12: the full action of i controlling a grapple (B-2.6: −2 to reactions after it).

    Both prone: rise (opposed athletics; a win stands both up). A ``throw`` tactic, with both hands
    free and both standing: opposed athletics; a win fells the victim (d4+2 shock to the torso,
    armour ignored, at 2+ extra successes) and i lets go, standing. Otherwise strike: a single attack
    with a reach-0 item or fists, which the victim (i's foe) cannot parry or dodge.
    """
    e = S[i, S_FOE]
    S[i, S_FULL_PEN] = 1
    if S[i, S_PRONE] != 0 and S[e, S_PRONE] != 0:
        if _grapple_contest(F, S, st, i, e, False) > 0:
            S[i, S_PRONE] = 0
            S[e, S_PRONE] = 0
        return
    if (F[i, P_T_GRAPPLE_ACTION] == GA_THROW and _free_hands(F, S, i) == 2
            and S[i, S_PRONE] == 0 and S[e, S_PRONE] == 0):
        margin = _grapple_contest(F, S, st, i, e, False)
        if margin > 0:
            S[e, S_PRONE] = 1
            _release(S, i, e)
            if margin >= 2:
                damage = _die(st, 4) + 2
                S[i, S_DEALT] += damage
                _take_wound(F, S, st, cnt, e, damage, DT_SHOCK, ZONE_TORSO)
        return
    _attack(F, S, opts, zt, st, cnt, i, e, _grapple_slot(F, S, i), 0, -1, K_NORMAL)


@rule
def _grapple_escape(F, S, opts, zt, st, cnt, i):
    """B-3.12: the full action of i held in a grapple (B-2.6: −2 to reactions after it).

    Bare-handed: take over (opposed athletics; a win reverses the roles and i at once takes a
    controlling action). Otherwise break free by force (athletics) or slip out (mobility against
    athletics), whichever bonus is higher (force on ties); a win ends the grapple and i takes one
    more standard action.

    Returns
    -------
    int64
        The standard actions i has left after it (1 after breaking free, else 0); ``_turn`` takes
        them, and i's controlling action after a take-over.
    """
    e = S[i, S_FOE]
    S[i, S_FULL_PEN] = 1
    if _free_hands(F, S, i) == 2:
        if _grapple_contest(F, S, st, i, e, False) > 0:
            S[i, S_GRAPPLE] = G_CONTROLS
            S[e, S_GRAPPLE] = G_HELD
        return 0
    slip = _grapple_bonus(F, S, i, True) > _grapple_bonus(F, S, i, False)
    if _grapple_contest(F, S, st, i, e, slip) > 0:
        _release(S, i, e)
        return 1
    return 0


@inline_rule
def _turn(F, S, opts, zt, st, cnt, i):
    """One turn of fighter i (B-2.4): fear, expiries, bleeding, exertion, then a sensible fighter's
    actions against its foe (``S_FOE``; in group fights ``_fight`` lets i choose it just before).

    In a grapple (B-3.12) the controller's full action, or the held fighter's (after breaking free
    one standard action remains). Otherwise two standard actions: stand up while prone (B-3.11;
    again if the opportunity attack felled it while rising), ready the main weapon if dropped
    (B-3.10), then a shooter's actions (B-8), or else charge or close in if apart (B-8) and the tactic's
    attack if engaged, then ready a dropped off-hand item with a spare action. Dazed or surprised
    fighters take no actions (B-7.5, B-2.3), also when dazed by an opportunity attack during the
    turn; a controller who cannot act lets go. Timed conditions run out at the end of the turn
    (B-2.8). Without a foe (``S_FOE`` −1) i makes no attack and takes no stance. (The actions stay
    in this function: a separate one cost the 1v1 kernel 8 % speed.)
    """
    S[i, S_TURNS] += 1
    if S[i, S_FRIGHTENED] != 0:  # B-7.10: the second fear check, before the turn
        r1, r2 = _roll_2d6(st)
        if r1 + r2 + F[i, P_WILLPOWER] - _fatigue_penalty(F, S, i) < _fear_difficulty(_enemy_fear(F, i)):
            _knock_out(F, S, i, CAUSE_FLED)  # panic: flees
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
    for _ in range(S[i, S_BLEED]):  # B-7.5: one light damage per bleeding wound
        _light_damage(F, S, i)
    if _exertion_due(F, S, opts, i):  # B-7.8 option: the exertion of fighting
        _gain_fatigue(F, S, st, i, 1)
    if S[i, S_OUT] != 0:
        return
    S[i, S_IN_TURN] = 1
    acting = S[i, S_DAZE] == 0 and S[i, S_SURPRISED] == 0
    if S[i, S_GRAPPLE] == G_CONTROLS and not acting:
        _release(S, i, S[i, S_FOE])  # B-3.12: no controlling action this turn, the grapple ends
    if acting:
        acts = 2
        _sprint_stop(F, S, opts, st, i)  # B-8: the turn after a sprint
        if S[i, S_GRAPPLE] == G_HELD:
            acts = _grapple_escape(F, S, opts, zt, st, cnt, i)
        if S[i, S_GRAPPLE] == G_CONTROLS:  # also at once after a take-over
            _grapple_hold(F, S, opts, zt, st, cnt, i)
            acts = 0
        while acts > 0 and S[i, S_PRONE] != 0 and _can_go_on(S, i):
            _stand_up(F, S, opts, zt, st, cnt, i)
            if opts[O_STAND_UP_FULL] != 0:
                acts = 0
                S[i, S_FULL_PEN] = 1
            else:
                acts -= 1
        if acts > 0 and _can_go_on(S, i) and _needs_ready(F, S, i, SLOT_MAIN):
            _ready(F, S, opts, zt, st, cnt, i, SLOT_MAIN)
            acts -= 1
        if acts > 0 and _can_go_on(S, i) and _shooter(F, S, i) and _lets_go_of_ranged(F, S, i):
            S[i, S_HELD_MAIN] = 0  # B-8 drop_ranged: dropping it is a free action
        if acts > 0 and _can_go_on(S, i) and _shooter(F, S, i):
            acts = _shooter_actions(F, S, opts, zt, st, cnt, i, acts)
        else:
            if acts > 0 and _can_go_on(S, i) and _charges(F, S, i, acts):
                acts = _charge(F, S, opts, zt, st, cnt, i)  # B-8 charge [Натиск]
            if acts > 0 and _can_go_on(S, i) and S[i, S_DIST] > 0:
                acts = _close_in(F, S, opts, i, acts)
            if acts > 0 and _can_go_on(S, i) and S[i, S_DIST] == 0 and S[i, S_FOE] >= 0:
                acts = _tactic_attack(F, S, opts, zt, st, cnt, i, acts, False)
        if acts > 0 and _can_go_on(S, i) and _needs_ready(F, S, i, SLOT_OFF):
            _ready(F, S, opts, zt, st, cnt, i, SLOT_OFF)
    if S[i, S_STUN] > 0:
        S[i, S_STUN] -= 1
    if S[i, S_DAZE] > 0:
        S[i, S_DAZE] -= 1
    S[i, S_IN_TURN] = 0


@rule
def _exertion_due(F, S, opts, i):
    """B-7.8 option ``exertion_fatigue``: whether i's current turn (``S_TURNS``, counted from 1)
    brings a fatigue level: after the first ``endurance`` turns, or every ``endurance``-th turn
    (every turn at endurance 0)."""
    mode = opts[O_EXERTION]
    if mode == EXERTION_OFF:
        return False
    end = F[i, P_ENDURANCE]
    if mode == EXERTION_AFTER_ENDURANCE:
        return S[i, S_TURNS] > end
    return S[i, S_TURNS] % max(end, 1) == 0


@rule
def _fear_difficulty(rating):
    """B-7.10: difficulty of the willpower check against a fear rating 1–5: 8/10/12/14/16."""
    return 6 + 2 * rating


@rule
def _enemy_fear(F, i):
    """B-7.10 (docs/groups.md): the highest fear rating among i's enemies (0 none)."""
    rating = 0
    for j in range(F.shape[0]):
        if F[j, P_SIDE] != F[i, P_SIDE] and F[j, P_FEAR] > rating:
            rating = F[j, P_FEAR]
    return rating


@inline_rule
def _fear(F, S, st):
    """B-7.10 at the start: every fighter in row order facing a fearsome enemy side checks
    willpower against the side's highest rating; a failure dazes until the second check before the
    fighter's next turn (``_turn``)."""
    for i in range(F.shape[0]):
        rating = _enemy_fear(F, i)
        if rating > 0:
            r1, r2 = _roll_2d6(st)
            if r1 + r2 + F[i, P_WILLPOWER] - _fatigue_penalty(F, S, i) < _fear_difficulty(rating):
                S[i, S_FRIGHTENED] = 1
                S[i, S_DAZE] = 1


@inline_rule
def _reset(F, S):
    """Fresh state for a fight: weapons in hand, starting fatigue (B-7.8), no foes (a duel's two
    fighters are each other's foe at once: the only choice, docs/groups.md), every fighter in."""
    n = F.shape[0]
    for i in range(n):
        for k in range(NS):
            S[i, k] = 0
        S[i, S_HELD_MAIN] = F[i, _wb(SLOT_MAIN) + W_PRESENT]
        S[i, S_HELD_OFF] = F[i, _wb(SLOT_OFF) + W_PRESENT]
        _set_fatigue(F, S, i, F[i, P_FATIGUE0])  # B-7.8
        S[i, S_FOE] = -1
    for i in range(n):
        S[F[i, P_SIDE], S_SIDE_IN] += 1
    if n == 2:
        S[0, S_FOE] = 1
        S[1, S_FOE] = 0
        S[0, S_ENGAGERS] = 1
        S[1, S_ENGAGERS] = 1


@rule
def _initiative_roll(F, st, i):
    """B-2.2: i's initiative: 2d6 + resolve + initiative talents − starting fatigue (B-7.8)."""
    r1, r2 = _roll_2d6(st)
    return r1 + r2 + F[i, P_RESOLVE] + F[i, P_INIT_MOD] - _fatigue_penalty_of(F[i, P_FATIGUE0], F[i, P_ENDURANCE])


@rule
def _initiative_order(F, S, x, y):
    """B-2.2: 1 if row x acts before row y, −1 after, 0 for a full tie: the higher total, then an
    initiative talent, then the higher agility."""
    if S[x, S_INIT] != S[y, S_INIT]:
        return 1 if S[x, S_INIT] > S[y, S_INIT] else -1
    if F[x, P_INIT_TALENT] != F[y, P_INIT_TALENT]:
        return 1 if F[x, P_INIT_TALENT] > F[y, P_INIT_TALENT] else -1
    if F[x, P_AGILITY] != F[y, P_AGILITY]:
        return 1 if F[x, P_AGILITY] > F[y, P_AGILITY] else -1
    return 0


@rule
def _sort_places(F, S, lo, hi):
    """Stable insertion sort of the turn-order places ``lo … hi−1`` (``S_ORDER``) by initiative."""
    for p in range(lo + 1, hi):
        r = S[p, S_ORDER]
        q = p
        while q > lo and _initiative_order(F, S, r, S[q - 1, S_ORDER]) > 0:
            S[q, S_ORDER] = S[q - 1, S_ORDER]
            q -= 1
        S[q, S_ORDER] = r


@inline_rule
def _initiative(F, S, st):
    """B-2.2 (docs/groups.md): the turn order, written to ``S_ORDER`` (row p: the row at place p).

    Every fighter in row order rolls; the order sorts by total, then initiative talent, then agility
    (higher first). A group still tied rerolls (its members in row order) and is ordered within its
    places by the reroll, recursively; groups are settled in turn order, the highest place first.
    For a duel: a rolls, b rolls, a full tie rerolls both.
    """
    n = F.shape[0]
    for i in range(n):
        S[i, S_INIT] = _initiative_roll(F, st, i)
        S[i, S_ORDER] = i
        S[i, S_INIT_GROUP] = 0
    _sort_places(F, S, 0, n)
    groups = 0
    p = 0
    while p < n:
        end = p + 1  # the tied group at p: same tie group, a full tie (ties are in row order)
        while (end < n and S[end, S_INIT_GROUP] == S[p, S_INIT_GROUP]
               and _initiative_order(F, S, S[p, S_ORDER], S[end, S_ORDER]) == 0):
            end += 1
        if end - p == 1:
            p += 1
            continue
        groups += 1
        for q in range(p, end):
            r = S[q, S_ORDER]
            S[r, S_INIT] = _initiative_roll(F, st, r)
            S[q, S_INIT_GROUP] = groups
        _sort_places(F, S, p, end)


@rule
def _choose_foe(F, S, opts, i):
    """docs/groups.md: i chooses its foe (``S_FOE``) among the enemies in the fight with room for it
    (engagers other than i below the attack limit, B-4.7), by its policy ``P_TARGETING``; no dice.

    ``spread``: the fewest other engagers; ``weakest``: the most marked cells on the wound track;
    ``nearest``: no preference. Ties: the current foe, then the nearest in line (``P_RANK``), then
    the lowest row (so ``nearest`` keeps its current foe while it is in). No candidate: −1. Keeps
    ``S_ENGAGERS`` of the old and new foe.
    """
    limit = opts[O_ATTACK_LIMIT]
    side = F[i, P_SIDE]
    policy = F[i, P_TARGETING]
    current = S[i, S_FOE]
    best = -1
    best_score = 0
    for j in range(F.shape[0]):
        if F[j, P_SIDE] == side or S[j, S_OUT] != 0:
            continue
        others = S[j, S_ENGAGERS] - (1 if j == current else 0)
        if others >= limit:
            continue
        primary = 0
        if policy == TG_SPREAD:
            primary = others
        elif policy == TG_WEAKEST:
            marks = 0
            track = S[j, S_TRACK]
            while track:
                marks += track & 1
                track >>= 1
            primary = -marks
        score = ((primary + 128) * 2 + (0 if j == current else 1)) * 16 + abs(F[j, P_RANK] - F[i, P_RANK])
        if best < 0 or score < best_score:
            best = j
            best_score = score
    if best != current:
        if current >= 0:
            S[current, S_ENGAGERS] -= 1
        if best >= 0:
            S[best, S_ENGAGERS] += 1
        S[i, S_FOE] = best


@rule
def _last_out(F, S, side):
    """The fighter of ``side`` that went out last (the highest ``S_OUT_SEQ``)."""
    last = -1
    for j in range(F.shape[0]):
        if F[j, P_SIDE] == side and S[j, S_OUT] != 0 and (last < 0 or S[j, S_OUT_SEQ] > S[last, S_OUT_SEQ]):
            last = j
    return last


@rule
def _fight(F, S, opts, zt, st, cnt):
    """One fight (B-2.9, docs/groups.md): rounds of turns in initiative order until every fighter
    of a side is out (side a checked first) or the round cap. Fighters out of the fight take no
    turns. The header's cause, death and one-blow counters describe the losing side's last fighter
    to go out.

    Returns 0 if side a won, 1 if side b won, 2 for a draw.
    """
    n = F.shape[0]
    _reset(F, S)
    _set_dist(S, opts[O_START_DIST])  # B-8
    _initiative(F, S, st)
    surprise = opts[O_SURPRISE]
    if surprise > 0:  # B-2.3: every fighter of that side
        for j in range(n):
            if F[j, P_SIDE] == surprise - 1:
                S[j, S_SURPRISED] = 1
    _fear(F, S, st)
    if n > 2:  # a duel's foes are set by _reset
        for p in range(n):
            _choose_foe(F, S, opts, S[p, S_ORDER])
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
                _choose_foe(F, S, opts, i)
            _turn(F, S, opts, zt, st, cnt, i)
            if _decided(S):
                loser = 0 if S[0, S_SIDE_IN] == 0 else 1
                last = _last_out(F, S, loser)
                cause = S[last, S_OUT] - 1
                _count_decision(cnt, loser, cause, S[last, S_DEAD],
                                S[last, S_HARMED] == 1 and cause != CAUSE_FLED, rnd, NCAUSES, C_ONE_BLOW, C_ROUNDS)
                return 1 - loser
        for j in range(n):
            S[j, S_SURPRISED] = 0
    cnt[C_DRAWS] += 1
    return 2


@rule
def _count_group(F, S, cnt, base):
    """The group block (docs/groups.md) of a finished fight, at ``cnt[base:]``: survivors of each
    side, and per fighter its cause of going out or standing, death, damage dealt and taken."""
    cnt[base + G_SURVIVORS + S[0, S_SIDE_IN]] += 1
    cnt[base + G_SURVIVORS + MAX_SIDE + 1 + S[1, S_SIDE_IN]] += 1
    for j in range(F.shape[0]):
        b = base + G_FIGHTERS + j * G_PER_FIGHTER
        if S[j, S_OUT] != 0:
            cnt[b + G_OUT + S[j, S_OUT] - 1] += 1
        else:
            cnt[b + G_STANDING] += 1
        cnt[b + G_DEAD] += S[j, S_DEAD]
        cnt[b + G_DEALT] += S[j, S_DEALT]
        cnt[b + G_TAKEN] += S[j, S_TAKEN]


@rule
def _single_attack(F, S, opts, zt, st, cnt):
    """One attack by side a's first fighter on a fresh foe (row 1), the first attack roll of its
    tactic; a shooter aims and shoots from the start distance (engaged at 0)."""
    _reset(F, S)
    S[0, S_IN_TURN] = 1
    if _shooter(F, S, 0):  # B-8: aimed shot from the start distance
        _set_dist(S, opts[O_START_DIST])
        if _lets_go_of_ranged(F, S, 0):
            S[0, S_HELD_MAIN] = 0
    if _shooter(F, S, 0):
        _shot_action(F, S, opts, zt, st, cnt, 0, 2)
    else:
        _tactic_attack(F, S, opts, zt, st, cnt, 0, 2, True)


@njit(cache=True, parallel=True)
def _run(F, opts, zt, seed, start, n, lanes, k, single_attacks, group):
    """Indices ``start … start+n−1`` split into ``lanes`` contiguous parts run in parallel.

    Parameters
    ----------
    F : int64[N, NF]
        The fighters (N = 2 for duels and single attacks).
    single_attacks : bool
        Each index is one attack by side a on a fresh side b (``_single_attack``); else a fight.
    group : bool
        Also count the group block (docs/groups.md) after the header: ``k`` is then
        ``n_fight_counters(round_cap, N)``.

    Returns
    -------
    int64[lanes, k]
        One counter row per lane; their sum does not depend on ``lanes``.
    """
    cnt = np.zeros((lanes, k), dtype=np.int64)
    base = k - (G_FIGHTERS + F.shape[0] * G_PER_FIGHTER)
    for lane in prange(lanes):
        lo = start + (n * lane) // lanes
        hi = start + (n * (lane + 1)) // lanes
        st = np.empty(4, dtype=np.uint64)
        S = np.empty((F.shape[0], NS), dtype=np.int64)
        row = cnt[lane]
        for idx in range(lo, hi):
            _seed_duel(st, seed, idx)
            if single_attacks:
                _single_attack(F, S, opts, zt, st, row)
            else:
                _fight(F, S, opts, zt, st, row)
                if group:
                    _count_group(F, S, row, base)
    return cnt


@njit(cache=True)
def _run_duels(F, opts, zt, seed, start, n, lanes, k):
    """Duels ``start … start+n−1`` in ``lanes`` parallel parts: ``int64[lanes, k]`` counters
    (F ``int64[2, NF]``, k = ``n_counters(round_cap)``)."""
    return _run(F, opts, zt, seed, start, n, lanes, k, False, False)


@njit(cache=True)
def _run_attacks(F, opts, zt, seed, start, n, lanes, k):
    """Single attacks by side a on a fresh side b: ``int64[lanes, k]`` counters (outcomes at
    ``C_ATTACKS``, b's wounds at ``C_WOUNDS``)."""
    return _run(F, opts, zt, seed, start, n, lanes, k, True, False)


@njit(cache=True)
def _run_fights(F, opts, zt, seed, start, n, lanes, k):
    """Group fights ``start … start+n−1`` in ``lanes`` parallel parts (docs/groups.md).

    Parameters
    ----------
    F : int64[N, NF]
        Side a's fighters, then side b's (``compile_sides``), N ≤ 12.
    opts : int64[NO]
        Rule options (``start_distance`` 0).
    zt : int8[die]
        Hit-zone table.
    seed : uint64
    start, n : int64
        The first fight index and the number of fights.
    lanes : int
        Parallel parts.
    k : int
        ``n_fight_counters(round_cap, N)``: the header, then the group block.

    Returns
    -------
    int64[lanes, k]
        Counter rows; a 1 vs 1's header equals ``_run_duels``'s.
    """
    return _run(F, opts, zt, seed, start, n, lanes, k, False, True)


@njit(cache=True, parallel=True)
def _paired(Fs, optss, zt, seed, start, n, lanes, k, group):
    """Common random numbers: fight index ``idx`` is played under each of ``m`` configurations with
    the same random stream, and the joint outcome of neighbouring configurations is counted
    (with the group block when ``group``)."""
    m = Fs.shape[0]
    cnt = np.zeros((lanes, m, k), dtype=np.int64)
    joint = np.zeros((lanes, max(m - 1, 1), 3, 3), dtype=np.int64)
    base = k - (G_FIGHTERS + Fs.shape[1] * G_PER_FIGHTER)
    for lane in prange(lanes):
        lo = start + (n * lane) // lanes
        hi = start + (n * (lane + 1)) // lanes
        st = np.empty(4, dtype=np.uint64)
        S = np.empty((Fs.shape[1], NS), dtype=np.int64)
        for idx in range(lo, hi):
            previous = -1
            for j in range(m):
                _seed_duel(st, seed, idx)
                outcome = _fight(Fs[j], S, optss[j], zt, st, cnt[lane, j])
                if group:
                    _count_group(Fs[j], S, cnt[lane, j], base)
                if j > 0:
                    joint[lane, j - 1, previous, outcome] += 1
                previous = outcome
    return cnt, joint


@njit(cache=True)
def _run_paired(Fs, optss, zt, seed, start, n, lanes, k):
    """Common random numbers: duel index ``idx`` is played under each of ``m`` configurations with
    the same random stream, and the joint outcome of neighbouring configurations is counted.

    Parameters
    ----------
    Fs : int64[m, 2, NF]
        The fighters of each configuration.
    optss : int64[m, NO]
        The options of each configuration (one zone table ``zt`` for all).

    Returns
    -------
    (int64[lanes, m, k], int64[lanes, max(m - 1, 1), 3, 3])
        Counters per lane and configuration; and for each neighbouring pair (j, j+1) the count of
        duels with outcome x under j and y under j+1 (0 a won, 1 b won, 2 draw).
    """
    return _paired(Fs, optss, zt, seed, start, n, lanes, k, False)


@njit(cache=True)
def _run_paired_fights(Fs, optss, zt, seed, start, n, lanes, k):
    """``_run_paired`` for group fights, with the group block (docs/groups.md).

    Parameters
    ----------
    Fs : int64[m, N, NF]
        The fighters of each configuration (the same N in all).
    optss : int64[m, NO]
        The options of each configuration.
    k : int
        ``n_fight_counters(round_cap, N)``.

    Returns
    -------
    (int64[lanes, m, k], int64[lanes, max(m - 1, 1), 3, 3])
        Counters per lane and configuration (header and group block), and the joint outcomes of
        neighbouring configurations (0 a won, 1 b won, 2 draw).
    """
    return _paired(Fs, optss, zt, seed, start, n, lanes, k, True)
