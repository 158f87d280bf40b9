"""Group fights (B-4.7, docs/groups.md): choosing a foe, the last fighter out, the group block of the
counters.

Rules: B-4.7, B-9.8.

Arguments are those of the kernel package (:mod:`brutal_sim.rulesets.brutal.kernel`).
"""

from __future__ import annotations

from ....toolbox.jit import rule
from ..layout import (
    GB_DEAD,
    GB_DEALT,
    GB_FIGHTERS,
    GB_OUT,
    GB_PER_FIGHTER,
    GB_STANDING,
    GB_SURVIVORS,
    GB_TAKEN,
    MAX_SIDE,
    P_RANK,
    P_SIDE,
    P_TARGETING,
    S_DEAD,
    S_DEALT,
    S_ENGAGERS,
    S_FOE,
    S_OUT,
    S_OUT_SEQ,
    S_SIDE_IN,
    S_TAKEN,
    S_TRACK,
    TG_SPREAD,
    TG_WEAKEST,
)
from ..options import O_ATTACK_LIMIT, O_FINISH_HELPLESS
from .checks import _helpless


@rule
def _choose_foe(F, S, opts, i):
    """docs/groups.md: i chooses its foe (``S_FOE``) among the enemies in the fight with room for it
    (engagers other than i below the attack limit, B-4.7), by its policy ``P_TARGETING``; no dice.

    ``spread``: the fewest other engagers; ``weakest``: the most marked cells on the wound track;
    ``nearest``: no preference. Ties: the current foe, then the nearest in line (``P_RANK``), then
    the lowest row (so ``nearest`` keeps its current foe while it is in). No candidate: −1. Keeps
    ``S_ENGAGERS`` of the old and new foe.

    With ``finish_helpless`` (B-9.8) i keeps a helpless foe (``_helpless``) until it is dead, and
    with no standing candidate takes the nearest helpless enemy in line with room (ties: the lowest
    row).
    """
    limit = opts[O_ATTACK_LIMIT]
    side = F[i, P_SIDE]
    policy = F[i, P_TARGETING]
    current = S[i, S_FOE]
    finish = opts[O_FINISH_HELPLESS] != 0
    if finish and current >= 0 and _helpless(S, current):
        return  # B-9.8: i finishes its helpless foe first
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
    if best < 0 and finish:  # B-9.8: no standing enemy with room: the nearest helpless one with room
        for j in range(F.shape[0]):
            if F[j, P_SIDE] == side or not _helpless(S, j) or S[j, S_ENGAGERS] - (1 if j == current else 0) >= limit:
                continue
            score = abs(F[j, P_RANK] - F[i, P_RANK])
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
def _count_group(F, S, cnt, base):
    """The group block (docs/groups.md) of a finished fight, at ``cnt[base:]``: survivors of each
    side, and per fighter its cause of going out or standing, death, damage dealt and taken."""
    cnt[base + GB_SURVIVORS + S[0, S_SIDE_IN]] += 1
    cnt[base + GB_SURVIVORS + MAX_SIDE + 1 + S[1, S_SIDE_IN]] += 1
    for j in range(F.shape[0]):
        b = base + GB_FIGHTERS + j * GB_PER_FIGHTER
        if S[j, S_OUT] != 0:
            cnt[b + GB_OUT + S[j, S_OUT] - 1] += 1
        else:
            cnt[b + GB_STANDING] += 1
        cnt[b + GB_DEAD] += S[j, S_DEAD]
        cnt[b + GB_DEALT] += S[j, S_DEALT]
        cnt[b + GB_TAKEN] += S[j, S_TAKEN]
