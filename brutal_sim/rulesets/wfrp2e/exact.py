"""Exact distribution of one attack by side a on a fresh side b, by enumeration of every die.

The same situation as the sampler (``attack_setup``): b in the stances its tactic takes, a's
first attack of its turn; for a shooter the first shot of its first turn (:func:`first_turn_shot`,
the kernel's ``first_shot``: from where its moves took it, after its reload or aim; BS, band, aim,
no reaction; a Shrapnel shot without a test, a jam a miss). Enumerated: the feint's opposed test
(its rerolls as a geometric sum), the to-hit d100 and its fortune reroll, the reaction d100 and its
reroll, the damage d10 (2d10 for Impact), the Ulric's Fury chain (to depth ``FURY_DEPTH``, the rest
is below 1e-20) and the critical table d100. Every rule decision is the kernel's own ``@rule`` function.
"""

from __future__ import annotations

import numpy as np

from ...toolbox.battle import foe
from ...toolbox.jit import driver
from ...toolbox.rng import seed_duel
from .kernel import (
    LOCATION_ZONE,
    absorbed,
    attack_setup,
    attack_slot,
    attack_target,
    choose_reaction,
    covered,
    crit_effect,
    damage_bonus,
    dodge_target,
    effect_takes_out,
    feint_targets,
    first_shot,
    fortune_allows,
    fury_needs_test,
    jams,
    location,
    model_takes_out,
    opposed_result,
    parry_target,
    quality,
    shot_auto,
    shot_target,
    succeeds,
    wf,
    wound_level,
)
from .layout import (
    C_ROUNDS,
    LVL_NONE,
    NS,
    OUT_DODGED,
    OUT_HIT,
    OUT_MISS,
    OUT_PARRIED,
    REACT_NONE,
    REACT_PARRY,
    S_FORTUNE,
    S_W,
    SLOT_MISSILE,
    W_IMPACT,
    W_PRECISE,
    W_PRESENT,
)
from .options import CRIT_SUDDEN_DEATH, CRIT_THRESHOLD, O_CRIT_MODEL

FURY_DEPTH = 20


@driver
def _p_success(opts, target):
    """Probability that a d100 test against ``target`` succeeds (W-1.1, W-1.5)."""
    n = 0
    for roll in range(1, 101):
        if succeeds(opts, roll, target):
            n += 1
    return n / 100.0


@driver
def _p_opposed(opts, t_init, t_def):
    """Probability that the initiator wins an opposed test (W-1.4), rerolls summed out."""
    win = 0.0
    again = 0.0
    for ri in range(1, 101):
        for rd in range(1, 101):
            r = opposed_result(opts, ri, rd, t_init, t_def)
            if r == 1:
                win += 1e-4
            elif r < 0:
                again += 1e-4
    return win / (1.0 - again) if again < 1.0 else 0.0


@driver
def _raw_damage_pmf(F, S, opts, a, slot, target):
    """pmf ``float64[n]`` of the damage before absorption minus :func:`damage_bonus` (W-4.7,
    W-4.11, W-4.12): the kept d10 plus the Fury dice."""
    size = 10 * (FURY_DEPTH + 2) + 1
    pmf = np.zeros(size)
    impact = quality(F, S, opts, a, slot, W_IMPACT)
    p_confirm = _p_success(opts, target)
    for k in range(1, 11):
        pk = (k * k - (k - 1) * (k - 1)) / 100.0 if impact else 0.1
        if k < 10:
            pmf[k] += pk
            continue
        # the chain: mass at a running total that has just shown a 10 on Fury die number `extra`
        mass = pk
        total = 10
        for extra in range(FURY_DEPTH):
            if fury_needs_test(opts, extra):
                pmf[total] += mass * (1.0 - p_confirm)
                mass *= p_confirm
            for v in range(1, 10):
                pmf[total + v] += mass / 10.0
            mass /= 10.0
            total += 10
    return pmf


@driver
def first_turn_shot(F, opts, grid, fx):
    """The shot ``attack`` measures for a shooter: side a's first turn up to its first shot (the
    kernel's ``first_shot``, the turn's own steps), on a state of its own, with counters that are
    thrown away and random numbers that must stay unused. Returns (S int64[2, NS], slot, band, aim,
    drew): the state it fires from, the shot (slot −1: none), and whether the turn drew dice before
    it (a push's manoeuvre, W-11.7; a flight's free attack, W-3.16), which no enumeration follows."""
    S = np.zeros((F.shape[0], NS), dtype=np.int64)
    st = np.empty(4, dtype=np.uint64)
    seed_duel(st, np.uint64(0), np.int64(0))
    before = st.copy()
    cnt = np.zeros(C_ROUNDS, dtype=np.int64)  # every counter a turn's attack writes lies below the rounds
    slot, band, aim = first_shot(F, S, opts, grid, fx, st, cnt, True)
    drew = False
    for k in range(4):
        drew = drew or st[k] != before[k]
    return S, slot, band, aim, drew


@driver
def enumerate_attack(F, opts, grid, fx, outcomes, levels, damage):
    """Fill ``outcomes`` float64[4] (miss, parried, dodged, hit), ``levels`` float64[5, 4] (level ×
    zone of the hit on b) and ``damage`` float64[1] (mean final damage per attack): the attack of
    side a's first fighter (row 0) on its foe ``d``."""
    shot = wf(F, 0, SLOT_MISSILE, W_PRESENT) != 0
    attacks, mod, feint = 1, 0, False
    if shot:  # the first shot of its first turn; none when that turn fires none, or draws dice first
        S, slot, band, aim, drew = first_turn_shot(F, opts, grid, fx)
        if slot < 0 or drew:
            return
    else:
        S = np.zeros((F.shape[0], NS), dtype=np.int64)
        slot, band, aim = -1, -1, 0
        attacks, mod, feint = attack_setup(F, S, opts)
    d = foe(S, 0)
    if attacks == 0:
        outcomes[OUT_MISS] = 1.0
        return
    p_feint = 0.0
    if feint:
        t_init, t_def = feint_targets(F, S, opts, 0)
        p_feint = _p_opposed(opts, t_init, t_def)
    if shot:  # W-7.1, W-7.2: BS, no reaction (the main-hand weapon's shot, or the off hand's, W-7.8)
        target = shot_target(F, S, opts, 0, slot, band, aim)
    else:
        slot = attack_slot(F, S, 0)
        target = attack_target(F, S, opts, 0, slot, mod)
    auto = shot and shot_auto(F, opts, 0, slot, band)
    p_first = 1.0 if auto else _p_success(opts, target)
    reroll = not auto and fortune_allows(opts, S, 0, False)
    factor = 1.0 + (1.0 - p_first) if reroll else 1.0
    # reaction of a fresh defender (a paid extra use is impossible: nothing is used yet)
    kind, paid = REACT_NONE, False
    if not shot:
        kind, paid = choose_reaction(F, S, opts, d, 0, slot)
    p_block = 0.0
    if kind != REACT_NONE:
        if paid:
            S[d, S_FORTUNE] -= 1
        t = parry_target(F, S, opts, d, 0, slot) if kind == REACT_PARRY else dodge_target(F, S, opts, d, 0, slot)
        p = _p_success(opts, t)
        if not paid and fortune_allows(opts, S, d, True):
            p = 1.0 - (1.0 - p) * (1.0 - p)
        p_block = (1.0 - p_feint) * p
    loc_mass = np.zeros(6)
    for roll in range(1, 101):
        if (auto or succeeds(opts, roll, target)) and not (shot and jams(F, opts, 0, slot, roll)):
            loc_mass[covered(opts, location(roll)) if shot else location(roll)] += factor / 100.0
    p_hit_roll = loc_mass.sum()
    outcomes[OUT_MISS] = 1.0 - p_hit_roll
    outcomes[OUT_PARRIED if kind == REACT_PARRY else OUT_DODGED] = p_hit_roll * p_block
    outcomes[OUT_HIT] = p_hit_roll * (1.0 - p_block)
    pmf = _raw_damage_pmf(F, S, opts, 0, slot, target)
    bonus = damage_bonus(F, S, opts, 0, slot)
    left = S[d, S_W]
    precise = 1 if wf(F, 0, slot, W_PRECISE) != 0 else 0
    table = opts[O_CRIT_MODEL] != CRIT_SUDDEN_DEATH and opts[O_CRIT_MODEL] != CRIT_THRESHOLD
    for loc in range(6):
        zone = LOCATION_ZONE[loc]
        mass = loc_mass[loc] * (1.0 - p_block)
        soaked = absorbed(F, opts, 0, d, slot, loc)
        for s in range(pmf.shape[0]):
            q = mass * pmf[s]
            if q == 0.0:
                continue
            final = s + bonus - soaked
            if final <= 0:
                levels[LVL_NONE, zone] += q
                continue
            damage[0] += q * final
            if final <= left:
                levels[wound_level(left - final, False, False), zone] += q
                continue
            value = final - left + precise
            if not table:
                levels[wound_level(0, True, model_takes_out(opts, value)), zone] += q
                continue
            for roll in range(1, 101):
                out = effect_takes_out(opts, fx, zone, crit_effect(grid, value, roll))
                levels[wound_level(0, True, out), zone] += q / 100.0
