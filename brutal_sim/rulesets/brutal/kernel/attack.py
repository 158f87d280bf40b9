"""The attack (B-4): attack bonus, the reaction, the hard block and broken weapons, the blow: weapon
dice, extra successes, the zone, armour and the penetration marker, knock-down.

Rules: B-3, B-3.9, B-3.12, B-4, B-4.2, B-4.3, B-4.4, B-4.5, B-4.9, B-4.10, B-4.11, B-4.12, B-4.13,
B-4.14, B-6.5, B-7.5, B-7.6, B-7.7, B-7.9, B-8, B-9.2, B-9.3, B-9.4, B-9.6, B-9.7.

Arguments are those of the kernel package (:mod:`brutal_sim.rulesets.brutal.kernel`).
"""

from __future__ import annotations

from ....toolbox.jit import loop_inline_rule, rule
from ....toolbox.rng import roll_2d6, roll_die
from ..layout import (
    BROKEN_DEGRADED,
    BROKEN_DESTROYED,
    C_ATTACKS,
    C_BREAKS,
    DT_BLAST,
    DT_BLUNT,
    DT_CUTTING,
    DT_FIRE,
    G_CONTROLS,
    G_HELD,
    HELD_STUCK,
    K_FULL_UNARMED,
    K_GRAPPLE,
    K_KNOCKDOWN,
    K_WEAPON,
    OUT_DODGED,
    OUT_HARD_BLOCK,
    OUT_HIT,
    OUT_MISS,
    OUT_PARRIED,
    P_AMBIDEXTROUS,
    P_ARMOUR,
    P_ATHLETICS,
    P_ATTACK_MOD,
    P_DAMAGE_MOD,
    P_DODGE,
    P_MELEE,
    P_MELEE_SKILL,
    P_SIDE,
    P_STRENGTH,
    R_DODGE,
    R_NONE,
    R_PARRY,
    S_BROKEN_MAIN,
    S_DEALT,
    S_GRAPPLE,
    S_HELD_MAIN,
    S_MORE_HITS,
    S_OUT,
    S_PRONE,
    S_RELOAD,
    SLOT_FISTS,
    SLOT_OFF,
    W_BONUS,
    W_DUR,
    W_NDICE,
    W_PEN,
    W_RELOAD,
    W_SIDES,
    W_TWO_HANDED,
    W_TYPE,
    W_UNARMED,
    ZONE_LARM,
    ZONE_RARM,
)
from ..options import (
    ARMOUR_MARKER_PIERCE_IGNORES,
    ARMOUR_PROTECTION_ONLY,
    O_ARMOUR_MODEL,
    O_ATTACK_NEEDS_BASE_DIFFICULTY,
    O_BROKEN_WEAPON,
    O_CRAMPED_SPACE,
    O_EXTRA_SUCCESSES_FLOOR_DAMAGE,
    O_MARGIN_AGAINST,
    O_MELEE_DAMAGE_ADDS_STRENGTH,
    O_PIERCE_THRESHOLD,
    O_SECOND_BREAK,
    O_STUCK_WEAPON,
    SECOND_BREAK_DESTROYED,
    STUCK_ALWAYS,
    STUCK_NEVER,
)
from .checks import (
    _active_penalty,
    _base_difficulty,
    _check_penalty,
    _choose_reaction,
    _degraded,
    _dodge_bonus_total,
    _dodge_made,
    _fatigue_penalty,
    _indices_ok,
    _is_ranged,
    _parry_bonus_total,
    _parry_slot,
    _wb,
    _weapon_target,
)
from .situation import _attack_situation, _charge_athletics, _open_aim, _roll_zone
from .wounds import _take_wound


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
    if opts[O_MELEE_DAMAGE_ADDS_STRENGTH] != 0 and F[a, b + W_UNARMED] == 0:
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


@loop_inline_rule
def _hit(F, S, opts, zt, st, cnt, a, d, slot, extra, crit, zone, reduce, band):
    """Steps 3–6 of B-4 for a hit by a on d: zone, damage dice, armour, wound. A hit on a helpless d
    (out of the fight, attacked only with ``finish_helpless``) counts as confident, or as critical
    with 4+ extra successes (B-4.13).

    ``band`` is −1 for a melee blow (the extra-success floor of B-4.11 may apply), or the range
    band 0/1/2 of a shot (B-8: only the confident-hit floor; damage and penetration −band).
    Draws, in order: the zone die (unless aimed, ``zone >= 0``; drawn again while d's explicit cover
    hides the roll, B-8), each weapon die (none on a critical hit), the critical d6, the penetration
    marker (armoured zones), then the wound's checks.
    """
    if not _indices_ok(a, d, slot):
        return
    if zone < 0:
        zone = _roll_zone(F, S, opts, zt, st, d)  # B-4.9, re-rolled behind explicit cover (B-8, B-9.9)
    b = _wb(slot)
    sides = _weapon_die(F, S, a, slot)
    helpless = S[d, S_OUT] != 0  # B-4.13 (B-9.8): an ordinary hit is confident, a confident one critical
    if helpless and extra >= 4:
        crit = True
    total = 0
    if crit:
        total = F[a, b + W_NDICE] * sides  # B-4.12
    else:
        floor = _die_floor(sides, extra, opts[O_EXTRA_SUCCESSES_FLOOR_DAMAGE] if band < 0 else 0)
        if helpless and floor < sides // 2:
            floor = sides // 2
        for _ in range(F[a, b + W_NDICE]):
            v = roll_die(st, sides)
            total += v if v > floor else floor
    crit_die = roll_die(st, 6) if crit else 0
    marker = roll_die(st, 6) if _needs_marker(F, opts, d, zone) else 0
    final, dtype = _final_damage(F, S, opts, a, d, slot, zone, total, crit_die, marker, reduce, max(band, 0))
    S[a, S_DEALT] += final
    _take_wound(F, S, opts, st, cnt, d, final, dtype, zone)


@rule
def _break(F, S, opts, cnt, i, slot):
    """B-4.4: i's weapon in ``slot`` breaks: degraded, or destroyed (option ``broken_weapon``); a
    degraded weapon breaking again is destroyed, or stays degraded (option ``second_break``)."""
    cnt[C_BREAKS + F[i, P_SIDE]] += 1
    if opts[O_BROKEN_WEAPON] != 0 or (S[i, S_BROKEN_MAIN + slot] == BROKEN_DEGRADED
                                       and opts[O_SECOND_BREAK] == SECOND_BREAK_DESTROYED):
        S[i, S_BROKEN_MAIN + slot] = BROKEN_DESTROYED
    else:
        S[i, S_BROKEN_MAIN + slot] = BROKEN_DEGRADED


@rule
def _sticks(F, opts, a, slot):
    """B-9.7 option ``stuck_weapon``: whether a's melee weapon in ``slot`` gets stuck when cramped space
    voids its attack (B-7.9): always, or if it cuts or pierces (piercing compiles to cutting); a
    ranged weapon fired in melee never does."""
    mode = opts[O_STUCK_WEAPON]
    if mode == STUCK_NEVER or _is_ranged(F, a, slot):
        return False
    return mode == STUCK_ALWAYS or F[a, _wb(slot) + W_TYPE] == DT_CUTTING


@rule
def _knockdown(F, S, st, a, d):
    """B-3.9 after a knock-down hit: opposed athletics; the winner by any margin pushes and d makes
    a hard (12) dodge [mobility] check or falls prone; d winning by 4+ puts a prone. All three
    checks take wound and stunned/dazed penalties (B-6.5, B-7.5)."""
    a1, a2 = roll_2d6(st)
    d1, d2 = roll_2d6(st)
    ra = a1 + a2 + F[a, P_ATHLETICS] - _check_penalty(F, S, a) + _charge_athletics(S, a)
    rd = d1 + d2 + F[d, P_ATHLETICS] - _check_penalty(F, S, d)
    if ra > rd:
        m1, m2 = roll_2d6(st)
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
        r1, r2 = roll_2d6(st)
        q1, q2 = roll_2d6(st)
        ra = r1 + r2 + F[a, P_ATHLETICS] - _fatigue_penalty(F, S, a)
        rd = q1 + q2 + F[d, P_ATHLETICS] - _fatigue_penalty(F, S, d)
        if ra != rd:
            arm = ZONE_LARM if roll_die(st, 2) == 1 else ZONE_RARM
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
        r1, r2 = roll_2d6(st)
        q1, q2 = roll_2d6(st)
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
def _unarmed_hits(F, a, extra):
    """B-9.2: hits of an unarmed full attack with ``extra`` extra successes: one, and one more per 2
    extra successes, at most a's melee skill (``P_MELEE_SKILL``; the one hit always lands)."""
    n = 1 + extra // 2
    cap = F[a, P_MELEE_SKILL]
    if n > cap:
        n = cap
    return n if n > 1 else 1


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
        ``K_NORMAL``, ``K_OPPORTUNITY``, ``K_KNOCKDOWN``, ``K_GRAPPLE``, ``K_WEAPON`` (B-9.3: a hit is
        counted as a hard block and makes it with d's weapon, ``_weapon_target``) or ``K_FULL_UNARMED``
        (B-9.2: a hit leaves its further hits in ``S_MORE_HITS`` of a, for the caller to strike).

    Returns
    -------
    bool
        True when a knock-down attack failed (the target then gets an opportunity attack, B-3.9).
    """
    if not _indices_ok(a, d, slot):
        return False
    ab = _wb(slot)
    a1, a2 = roll_2d6(st)
    att = a1 + a2 + _attack_bonus(F, S, a, slot, mod) + _attack_situation(F, S, opts, a, d)
    shot = _is_ranged(F, a, slot)
    if shot:  # B-8: a ranged weapon fired in melee; it needs reloading
        S[a, S_RELOAD] = F[a, ab + W_RELOAD]
    base = _base_difficulty(S, d)
    out = C_ATTACKS + F[a, P_SIDE] * 5
    cramped = opts[O_CRAMPED_SPACE] != 0
    if cramped and slot != SLOT_FISTS and a1 == 1 and a2 == 1:  # B-7.9: the attack did not happen
        cnt[out + OUT_MISS] += 1
        if _sticks(F, opts, a, slot):  # B-9.7
            S[a, S_HELD_MAIN + slot] = HELD_STUCK
        return False
    if opts[O_ATTACK_NEEDS_BASE_DIFFICULTY] != 0 and att < base:  # B-4.3
        cnt[out + OUT_MISS] += 1
        return kind == K_KNOCKDOWN
    reaction = _choose_reaction(F, S, opts, d, kind)
    ps = SLOT_FISTS
    p1 = 0
    p2 = 0
    if reaction == R_PARRY:  # B-4.4
        ps = _parry_slot(F, S, d)
        p1, p2 = roll_2d6(st)
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
        if opts[O_MARGIN_AGAINST] != 0 and par < base:
            extra = att - base
    elif reaction == R_DODGE:  # B-4.5
        d1, d2 = roll_2d6(st)
        dod = d1 + d2 + _dodge_bonus_total(F, S, opts, d)
        _dodge_made(F, S, opts, d)  # B-9.4
        if att < dod:
            cnt[out + OUT_DODGED] += 1
            return kind == K_KNOCKDOWN
        extra = att - dod
        if opts[O_MARGIN_AGAINST] != 0 and dod < base:
            extra = att - base
    if reaction == R_NONE:
        if att < base:
            cnt[out + OUT_MISS] += 1
            return kind == K_KNOCKDOWN
        extra = att - base
    if extra < 0:
        extra = 0
    if kind == K_WEAPON:  # B-9.3: the blow meets the weapon: the hard block instead of damage
        cnt[out + OUT_HARD_BLOCK] += 1
        target = _weapon_target(F, S, d)
        if target >= 0:
            _hard_block(F, S, opts, zt, st, cnt, a, d, slot, target, shot)
        return False
    cnt[out + OUT_HIT] += 1
    if kind == K_KNOCKDOWN:
        _knockdown(F, S, st, a, d)
        return False
    if kind == K_GRAPPLE:  # B-3.12: no damage; a controls the grapple
        S[a, S_GRAPPLE] = G_CONTROLS
        S[d, S_GRAPPLE] = G_HELD
        return False
    if kind == K_FULL_UNARMED:
        S[a, S_MORE_HITS] = _unarmed_hits(F, a, extra) - 1
    _hit(F, S, opts, zt, st, cnt, a, d, slot, extra, a1 == 6 and a2 == 6, _open_aim(F, S, opts, zt, d, zone), 0, -1)
    return False
