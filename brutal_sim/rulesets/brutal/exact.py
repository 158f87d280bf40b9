"""Exact distribution of one attack by enumeration, reusing the kernel's rule functions.

Every die of an attack is enumerated with its probability: the feint (if any), the attack and
reaction 2d6, the zone die, the weapon dice (as a convolution of floored dice), the critical d6
and the penetration marker, the toughness checks of the wound that decide a knock-out or a death,
and the hard block's durability 2d6 (B-4.4: a parry's tie between two weapons, or a hit of an aimed
attack at the weapon, B-9.3). The rule logic (modifiers, reaction choice, armour, wound level) is
the kernel's own rule functions, so the enumeration and the sampler cannot drift apart. An unarmed
full attack (B-9.2) counts its first blow, as the sampler does.
"""

from __future__ import annotations

import numpy as np

from ...toolbox.battle import foe_distance, place_sides
from ...toolbox.jit import driver
from .kernel import (
    ZONE_GROUP,
    attack_bonus,
    attack_situation,
    base_difficulty,
    can_dodge_shot,
    choose_reaction,
    die_floor,
    dodge_bonus_total,
    draws_shown,
    fatigue_penalty,
    feint_bonuses,
    final_damage,
    lets_go_of_ranged,
    mark_wound,
    needs_marker,
    open_aim,
    parry_bonus_total,
    parry_slot,
    passive_bonus,
    plan_attack,
    reset,
    set_ground,
    shooter,
    shot_band,
    shot_bonus,
    shot_cover_penalty,
    shot_difficulty,
    shot_plan,
    side_option,
    unseen,
    wb,
    weapon_die,
    weapon_target,
    wound_level,
    zone_hidden,
)
from .layout import (
    DT_CUTTING,
    DT_SHOCK,
    K_NORMAL,
    K_WEAPON,
    LVL_CRITICAL,
    LVL_HEAVY,
    LVL_LIGHT,
    LVL_MORTAL,
    NS,
    OUT_DODGED,
    OUT_HARD_BLOCK,
    OUT_HIT,
    OUT_MISS,
    OUT_PARRIED,
    P_ATHLETICS,
    P_TOUGHNESS,
    R_DODGE,
    R_PARRY,
    S_HELD_MAIN,
    S_IN_TURN,
    S_SHOWN,
    SLOT_FISTS,
    SLOT_MAIN,
    W_DUR,
    W_NDICE,
    W_UNARMED,
    ZONE_LARM,
    ZONE_RARM,
)
from .options import (
    O_ATTACK_NEEDS_BASE_DIFFICULTY,
    O_CRAMPED_SPACE,
    O_EXTRA_SUCCESSES_FLOOR_DAMAGE,
    O_INDIRECT_COVER,
    O_MARGIN_AGAINST,
    O_START_DISTANCE,
)

MAX_EXTRA = 64


@driver
def _dice_pmf(n, sides, floor):
    """pmf of the sum of ``n`` dice of ``sides`` faces, each raised to at least ``floor``.

    Returns float64[n * sides + 1] indexed by the sum.
    """
    pmf = np.zeros(n * sides + 1)
    pmf[0] = 1.0
    for _ in range(n):
        nxt = np.zeros(n * sides + 1)
        for s in range(pmf.shape[0]):
            if pmf[s] == 0.0:
                continue
            for v in range(1, sides + 1):
                face = v if v > floor else floor
                if s + face < nxt.shape[0]:
                    nxt[s + face] += pmf[s] / sides
        pmf = nxt
    return pmf


@driver
def _fails(bonus, difficulty):
    """P(2d6 + ``bonus`` < ``difficulty``): a failed check."""
    p = 0.0
    for x in range(36):
        if x // 6 + x % 6 + 2 + bonus < difficulty:
            p += 1.0 / 36.0
    return p


@driver
def _blow(F, S, opts, zt, a, d, slot, extra, crit, zone, reduce, mass, levels, damage, band, fates):
    """Add the outcome distribution of one blow landing on d (B-4 steps 3–6), weighted by ``mass``.

    ``levels`` is float64[6, 4] (wound level × zone group); ``damage`` float64[1] the damage sum;
    ``fates`` float64[2]: P(d knocked out by the wound's effects: a heavy head wound and a failed
    toughness 12, a critical head wound, another critical wound and a failed toughness 14, B-7.2,
    B-7.3), P(d dies: a mortal wound and a failed toughness 12, B-5.4), the checks passive (B-9.5),
    on d's state ``S`` (no effects when the wound's mark puts d out, B-6.6).
    """
    tough = passive_bonus(F, S, opts, d, P_TOUGHNESS)
    q12 = _fails(tough, 12)
    q14 = _fails(tough, 14)
    goes_on = np.zeros((LVL_MORTAL, 2), dtype=np.bool_)  # [level, shock]: the effects follow the mark
    for lvl in range(LVL_LIGHT, LVL_MORTAL):
        for shock in range(2):
            marked = S.copy()
            goes_on[lvl, shock] = mark_wound(F, marked, d, lvl, DT_SHOCK if shock == 1 else DT_CUTTING)
    die = zt.shape[0]
    sides = weapon_die(F, S, a, slot)
    n = F[a, wb(slot) + W_NDICE]
    if crit:
        pmf = np.zeros(n * sides + 1)
        pmf[n * sides] = 1.0
    else:
        pmf = _dice_pmf(n, sides, die_floor(sides, extra, opts[O_EXTRA_SUCCESSES_FLOOR_DAMAGE] if band < 0 else 0))
    n_open = 0  # B-8: the zone die is re-rolled until an open roll: open rolls are equally likely
    for r in range(die):
        if not zone_hidden(F, S, opts, zt, d, r):
            n_open += 1
    for r in range(die):
        if zone >= 0:
            if r > 0:
                break
            z = zone
            pz = 1.0
        else:
            if zone_hidden(F, S, opts, zt, d, r):
                continue
            z = np.int64(zt[r])
            pz = 1.0 / n_open
        n_marker = 6 if needs_marker(F, opts, d, z) else 1
        n_crit = 6 if crit else 1
        for s in range(pmf.shape[0]):
            if pmf[s] == 0.0:
                continue
            for c in range(n_crit):
                crit_die = c + 1 if crit else 0
                for m in range(n_marker):
                    marker = m + 1 if n_marker == 6 else 0
                    p = mass * pz * pmf[s] / (n_crit * n_marker)
                    final, dtype = final_damage(F, S, opts, a, d, slot, z, s, crit_die, marker, reduce, max(band, 0))
                    level = wound_level(F, d, final)
                    levels[level, ZONE_GROUP[z]] += p
                    damage[0] += p * final
                    if level == LVL_MORTAL:
                        fates[1] += p * q12
                    elif level >= LVL_HEAVY and goes_on[level, 1 if dtype == DT_SHOCK else 0]:
                        if ZONE_GROUP[z] == 0:
                            fates[0] += p * (q12 if level == LVL_HEAVY else 1.0)
                        elif level == LVL_CRITICAL:
                            fates[0] += p * q14


@driver
def _hit_blows(F, S, opts, zt, slot, hits, zone, levels, damage, band, fates):
    """The blows of the hits ``hits[extra, critical]`` (their probability masses) on b, aimed at
    ``zone`` (−1 rolled). Behind three-quarter horizontal cover (B-9.9) each of the four arm and leg
    pairs b may show has a quarter of the mass."""
    n_shown = 4 if draws_shown(F, opts, 1) else 1
    for v in range(n_shown):
        S[1, S_SHOWN] = v
        aim = open_aim(F, S, opts, zt, 1, zone)
        for e in range(MAX_EXTRA):
            for c in range(2):
                if hits[e, c] > 0.0:
                    _blow(F, S, opts, zt, 0, 1, slot, e, c == 1, aim, 0, hits[e, c] / n_shown, levels, damage, band,
                          fates)


@driver
def _enumerate_shot(F, S, opts, zt, mod, zone, outcomes, levels, damage, fates):
    """Exact distribution of side a's shot from the start distance (B-8): attack 2d6 against the
    difficulty (less the cover penalties), b's dodge 2d6 against 10 raising it, b's indirect cover
    deflecting a hit with probability value/100 (a miss), then the blow less the range band."""
    band = shot_band(F, 0, foe_distance(S, 0))
    bonus = shot_bonus(F, S, opts, 0, mod) - shot_cover_penalty(F, opts, 0, 1)
    p_through = 1.0 - min(side_option(F, opts, O_INDIRECT_COVER, 1), 100) / 100.0
    diff0 = shot_difficulty(S, 1)
    reacts = can_dodge_shot(F, S, 1)
    dod_bonus = dodge_bonus_total(F, S, opts, 1)
    hits = np.zeros((MAX_EXTRA, 2))
    for x in range(36):
        att = x // 6 + x % 6 + 2 + bonus
        crit = 1 if x == 35 else 0
        if att < diff0:
            outcomes[OUT_MISS] += 1.0 / 36.0
            continue
        if not reacts:
            hits[min(att - diff0, MAX_EXTRA - 1), crit] += 1.0 / 36.0
            continue
        for y in range(36):
            dodge = y // 6 + y % 6 + 2 + dod_bonus
            diff = diff0 + 2 + dodge - 10 if dodge >= 10 else diff0
            if att < diff:
                outcomes[OUT_DODGED] += 1.0 / 1296.0
            else:
                hits[min(att - diff, MAX_EXTRA - 1), crit] += 1.0 / 1296.0
    for e in range(MAX_EXTRA):
        for c in range(2):
            outcomes[OUT_MISS] += hits[e, c] * (1.0 - p_through)
            outcomes[OUT_HIT] += hits[e, c] * p_through
    _hit_blows(F, S, opts, zt, SLOT_MAIN, hits * p_through, zone, levels, damage, band, fates)


@driver
def _durability_breaks(dur_a, dur_d):
    """B-4.4: P(a's weapon breaks), P(d's weapon breaks) in the durability test of a hard block:
    2d6 + durability each, a loss by 6 or more breaks."""
    p_a = 0.0
    p_d = 0.0
    for x in range(36):
        for y in range(36):
            ra = x // 6 + x % 6 + 2 + dur_a
            rd = y // 6 + y % 6 + 2 + dur_d
            if rd - ra >= 6:
                p_a += 1.0 / 1296.0
            elif ra - rd >= 6:
                p_d += 1.0 / 1296.0
    return p_a, p_d


@driver
def enumerate_attack(F, opts, zt, outcomes, levels, damage):
    """Exact distribution of side a's first attack roll of its tactic against a fresh side b
    (:func:`_enumerate_attack_breaks` without the weapon breaks)."""
    _enumerate_attack_breaks(F, opts, zt, outcomes, levels, damage, np.zeros(2))


@driver
def _enumerate_attack_breaks(F, opts, zt, outcomes, levels, damage, breaks):
    """Exact distribution of side a's first attack roll of its tactic against a fresh side b.

    Parameters
    ----------
    outcomes : float64[5]
        Filled with P(miss, parried, dodged, hard block, hit).
    levels : float64[6, 4]
        Filled with P(b takes a blow of wound level × zone group) — hits and bare-handed parries.
    damage : float64[1]
        Filled with E[final damage to b].
    breaks : float64[2]
        Filled with P(a's own weapon breaks), P(b's weapon breaks) in a hard block's durability
        test (B-4.4; the counters ``C_BREAKS``): a parry's tie between two weapons, or a hit of an
        aimed attack at b's weapon (B-9.3; counted as a hard block, no blow on b).
    """
    S = np.zeros((2, NS), dtype=np.int64)
    reset(F, S)
    set_ground(F, S, opts)  # B-9.6
    enumerate_attack_on(F, S, opts, zt, outcomes, levels, damage, np.zeros(2), breaks)


@driver
def enumerate_attack_on(F, S, opts, zt, outcomes, levels, damage, fates, breaks):
    """``enumerate_attack`` from the fight state ``S`` (``reset``, ``set_ground``, then any condition
    of either fighter, e.g. b dazed); ``fates`` float64[2] is filled as in ``_blow``: P(b knocked out by
    the wound's effects), P(b dies), and ``breaks`` as in ``_enumerate_attack_breaks``. ``S`` becomes
    the state as a's turn begins."""
    S[0, S_IN_TURN] = 1
    if shooter(F, S, 0):  # B-8: from the start distance
        place_sides(F, S, opts[O_START_DISTANCE])
        if lets_go_of_ranged(F, S, 0):
            S[0, S_HELD_MAIN] = 0
    shot = shooter(F, S, 0)
    if shot and foe_distance(S, 0) > 0 and unseen(F, opts, 1):  # B-8: no shot at an unseen target
        return
    if shot:  # B-8: aim (+1) and shoot; engaged, fired in melee
        mod, zone = shot_plan(F, S, 0)
        mod += 1
        if foe_distance(S, 0) > 0:
            _enumerate_shot(F, S, opts, zt, mod, zone, outcomes, levels, damage, fates)
            return
        kind, slot, feint = K_NORMAL, SLOT_MAIN, False
    else:
        mod, zone, kind, slot, _, feint, _ = plan_attack(F, S, opts, 0, 2)
    p_feint = 0.0
    if feint:
        bi, be = feint_bonuses(F, S, 0)
        for x in range(36):
            for y in range(36):
                if x // 6 + x % 6 + 2 + bi > y // 6 + y % 6 + 2 + be:
                    p_feint += 1.0 / 1296.0
    reaction = choose_reaction(F, S, opts, 1, kind)
    ps = parry_slot(F, S, 1)
    par_bonus = parry_bonus_total(F, S, opts, 1, ps)
    dod_bonus = dodge_bonus_total(F, S, opts, 1)
    a_unarmed = F[0, wb(slot) + W_UNARMED] != 0
    d_unarmed = ps == SLOT_FISTS
    base = base_difficulty(S, 1)
    cramped = opts[O_CRAMPED_SPACE] != 0
    # mass of hits by (extra successes, critical) and of bare-handed parries by reduction
    hits = np.zeros((MAX_EXTRA, 2))
    arm = np.zeros(MAX_EXTRA)
    fist_block = 0.0  # fists met bare hands in a hard block: opposed athletics (B-7.7)
    weapons_block = 0.0  # two weapons in a parry's hard block: the durability test (B-4.4)
    for f in range(2):
        pf = p_feint if f == 1 else 1.0 - p_feint
        if pf == 0.0:
            continue
        bonus = attack_bonus(F, S, 0, slot, mod + f) + attack_situation(F, S, opts, 0, 1)
        for x in range(36):
            a1 = x // 6 + 1
            a2 = x % 6 + 1
            att = a1 + a2 + bonus
            crit = 1 if (a1 == 6 and a2 == 6) else 0
            pa = pf / 36.0
            if cramped and not a_unarmed and a1 == 1 and a2 == 1:  # B-7.9: voided
                outcomes[OUT_MISS] += pa
                continue
            if opts[O_ATTACK_NEEDS_BASE_DIFFICULTY] != 0 and att < base:
                outcomes[OUT_MISS] += pa
                continue
            if reaction != R_PARRY and reaction != R_DODGE:
                if att < base:
                    outcomes[OUT_MISS] += pa
                else:
                    hits[min(att - base, MAX_EXTRA - 1), crit] += pa
                continue
            for y in range(36):
                pr = pa / 36.0
                if reaction == R_PARRY and cramped and not d_unarmed and y == 0:  # B-7.9: parry voided
                    if att < base:
                        outcomes[OUT_MISS] += pr
                    else:
                        hits[min(att - base, MAX_EXTRA - 1), crit] += pr
                    continue
                if reaction == R_PARRY:
                    res = y // 6 + y % 6 + 2 + par_bonus
                    if att == res:
                        outcomes[OUT_HARD_BLOCK] += pr
                        if d_unarmed and not a_unarmed and not shot:
                            arm[0] += pr
                        elif d_unarmed and a_unarmed:
                            fist_block += pr
                        elif not d_unarmed and not a_unarmed:
                            weapons_block += pr
                        continue
                    if att < res:
                        outcomes[OUT_PARRIED] += pr
                        if d_unarmed and not a_unarmed and not shot:
                            arm[min(res - att, MAX_EXTRA - 1)] += pr
                        continue
                else:
                    res = y // 6 + y % 6 + 2 + dod_bonus
                    if att < res:
                        outcomes[OUT_DODGED] += pr
                        continue
                extra = att - res
                if opts[O_MARGIN_AGAINST] != 0 and res < base:
                    extra = att - base
                if extra < 0:
                    extra = 0
                hits[min(extra, MAX_EXTRA - 1), crit] += pr
    if weapons_block > 0.0:
        p_a, p_d = _durability_breaks(F[0, wb(slot) + W_DUR], F[1, wb(ps) + W_DUR])
        breaks[0] += weapons_block * p_a
        breaks[1] += weapons_block * p_d
    if kind == K_WEAPON:  # B-9.3: every hit is a hard block with b's weapon instead of a blow on b
        p_hit = hits.sum()
        outcomes[OUT_HARD_BLOCK] += p_hit
        if not a_unarmed:  # (fists meeting the weapon take its blow on a's arm: not a blow on b)
            p_a, p_d = _durability_breaks(F[0, wb(slot) + W_DUR], F[1, wb(weapon_target(F, S, 1)) + W_DUR])
            breaks[0] += p_hit * p_a
            breaks[1] += p_hit * p_d
        hits[:, :] = 0.0
    for e in range(MAX_EXTRA):
        for c in range(2):
            outcomes[OUT_HIT] += hits[e, c]
    _hit_blows(F, S, opts, zt, slot, hits, zone, levels, damage, -1, fates)
    for e in range(MAX_EXTRA):
        if arm[e] > 0.0:
            _blow(F, S, opts, zt, 0, 1, slot, 0, False, ZONE_RARM, e, arm[e], levels, damage, -1, fates)
    if fist_block > 0.0:
        p_win = 0.0
        ath_a = F[0, P_ATHLETICS] - fatigue_penalty(F, S, 0)  # B-7.8
        ath_d = F[1, P_ATHLETICS] - fatigue_penalty(F, S, 1)
        for x in range(36):
            for y in range(36):
                if x // 6 + x % 6 + ath_a > y // 6 + y % 6 + ath_d:
                    p_win += 1.0 / 1296.0
        for z in (ZONE_LARM, ZONE_RARM):
            _blow(F, S, opts, zt, 0, 1, SLOT_FISTS, 0, False, z, 0, fist_block * p_win / 2, levels, damage, -1,
                  fates)


def attack_weapon_breaks(fighters: np.ndarray, options: np.ndarray, zone_table: np.ndarray) -> np.ndarray:
    """Exact P(side a's own weapon breaks), P(side b's weapon breaks) in side a's first attack roll of
    its tactic against a fresh side b (``float64[2]``, the counters ``C_BREAKS`` of the attack
    sampler): a parry's hard block between two weapons (B-4.4) and an aimed attack at the weapon
    (B-9.3)."""
    breaks = np.zeros(2)
    _enumerate_attack_breaks(fighters, options, zone_table, np.zeros(5), np.zeros((6, 4)), np.zeros(1), breaks)
    return breaks
