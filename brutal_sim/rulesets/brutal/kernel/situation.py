"""The situation of an attack (B-8): target size, explicit and indirect cover, the zones cover hides, a
charge's athletics bonus.

Rules: B-4.9, B-8, B-9.6, B-9.9.

Arguments are those of the kernel package (:mod:`brutal_sim.rulesets.brutal.kernel`).
"""

from __future__ import annotations

import numpy as np

from ....toolbox.jit import inline_rule, loop_inline_rule, rule
from ....toolbox.rng import roll_die
from ..layout import (
    P_SIDE,
    P_SIZE,
    S_CHARGING,
    S_SHOWN,
    SIZE_MEDIUM,
    SIZE_MODIFIERS,
    ZONE_HEAD,
    ZONE_LARM,
    ZONE_LLEG,
    ZONE_RARM,
    ZONE_RLEG,
)
from ..options import (
    COVER_DEGREES_BY_DEGREE,
    COVER_HORIZONTAL,
    COVER_VERTICAL_LEFT,
    O_CHARGE_ATTACK_MODIFIER,
    O_COVER,
    O_COVER_DEGREE_ZONES,
    O_COVER_SHOOTER_PENALTY,
    O_COVER_ZONES,
    O_INDIRECT_COVER,
    O_INDIRECT_COVER_PENALTY,
)
from .checks import _darkness

SIZE_MODIFIER = np.array(SIZE_MODIFIERS, dtype=np.int64)  # B-8 size table, tiny … gigantic


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
    cover (``_size_modifier``), a charge's attack its ``charge_attack_modifier``; darkness −4 (B-9.6).
    (a's ground, B-9.6, is in its active penalty.)"""
    mod = _size_modifier(F, opts, d) - _darkness(opts, False)
    if S[a, S_CHARGING] != 0:
        mod += opts[O_CHARGE_ATTACK_MODIFIER]
    return mod


@rule
def _shot_cover_penalty(F, opts, a, d):
    """B-8: penalty of a shot by a at d: d's size, counted smaller in explicit cover (a medium
    target 0, in cover 1/2/4; a bonus is a negative penalty, ``_size_modifier``), d's indirect cover
    (sparse 1, dense 2, thicket 4) and ``cover_shooter_penalty`` (seed: 2) when a shoots from behind
    its own explicit cover; darkness 4 (B-9.6: the situation of the shot, a's ground is in its check
    penalty)."""
    pen = -_size_modifier(F, opts, d) + _side_option(F, opts, O_INDIRECT_COVER_PENALTY, d) + _darkness(opts, False)
    if _side_option(F, opts, O_COVER, a) > 0:
        pen += opts[O_COVER_SHOOTER_PENALTY]
    return pen


@rule
def _draws_shown(F, opts, d):
    """B-9.9: whether d's cover needs the per-fight draw of the arm and leg it shows: three-quarter
    horizontal cover under ``cover_degree_zones = by_degree``."""
    return (opts[O_COVER_DEGREE_ZONES] == COVER_DEGREES_BY_DEGREE and _side_option(F, opts, O_COVER, d) == 3
            and _side_option(F, opts, O_COVER_ZONES, d) == COVER_HORIZONTAL)


@rule
def _draw_shown(F, S, opts, st, d):
    """B-9.9: the arm and leg d shows behind three-quarter horizontal cover, each left or right with
    equal chance: one d4 (``S_SHOWN`` = roll − 1), drawn only when ``_draws_shown``."""
    if _draws_shown(F, opts, d):
        S[d, S_SHOWN] = roll_die(st, 4) - 1


@rule
def _shown_limbs(F, S, opts, d):
    """B-9.9: the arm and leg (zone codes) d shows behind three-quarter cover: vertical cover those
    of the open side (``vertical_left`` hides the left: the right arm and leg show), horizontal
    cover the drawn ones (``S_SHOWN``)."""
    shape = _side_option(F, opts, O_COVER_ZONES, d)
    if shape == COVER_VERTICAL_LEFT:
        return ZONE_RARM, ZONE_RLEG
    if shape == COVER_HORIZONTAL:
        v = S[d, S_SHOWN]
        return ZONE_LARM + v % 2, ZONE_LLEG + v // 2
    return ZONE_LARM, ZONE_LLEG


@rule
def _cover_hides(F, S, opts, zt, d, r):
    """B-8, B-9.9: whether d's explicit cover would hide zone-table roll ``r + 1`` (head rolls are
    always open).

    ``cover_degree_zones = same_as_half`` and half cover: horizontal cover hides the lower half of
    the die (rolls 1–10 of a d20: legs, lower torso), vertical cover the odd (left) or even (right)
    rolls. ``by_degree``: quarter cover hides the rolls of the legs (horizontal; vertical as half
    cover); three-quarter cover every roll but those of the head and of the shown arm and leg
    (``_shown_limbs``).
    """
    cover = _side_option(F, opts, O_COVER, d)
    z = zt[r]
    if cover == 0 or z == ZONE_HEAD:
        return False
    shape = _side_option(F, opts, O_COVER_ZONES, d)
    if opts[O_COVER_DEGREE_ZONES] == COVER_DEGREES_BY_DEGREE:
        if cover == 3:
            arm, leg = _shown_limbs(F, S, opts, d)
            return z != arm and z != leg
        if cover == 1 and shape == COVER_HORIZONTAL:
            return z == ZONE_LLEG or z == ZONE_RLEG
    if shape == COVER_HORIZONTAL:
        return 2 * (r + 1) <= zt.shape[0]
    if shape == COVER_VERTICAL_LEFT:
        return r % 2 == 0
    return r % 2 == 1


@loop_inline_rule
def _zone_hidden(F, S, opts, zt, d, r):
    """B-8, B-9.9 explicit cover: whether zone-table roll ``r + 1`` is hidden behind d's cover
    (``_hidden_behind_cover``). Tested for every blow: without cover it is one test in the caller's
    code."""
    return _side_option(F, opts, O_COVER, d) != 0 and _hidden_behind_cover(F, S, opts, zt, d, r)


@rule
def _hidden_behind_cover(F, S, opts, zt, d, r):
    """``_zone_hidden`` for d in explicit cover: whether the cover hides roll ``r + 1``
    (``_cover_hides``), unless it would hide every roll of the table (a one-sided table, a table of
    legs only behind quarter cover, …): then it hides none, so an open roll always exists.
    """
    if not _cover_hides(F, S, opts, zt, d, r):
        return False
    for q in range(zt.shape[0]):
        if not _cover_hides(F, S, opts, zt, d, q):
            return True
    return False


@inline_rule
def _roll_zone(F, S, opts, zt, st, d):
    """B-4.9 hit zone of a blow on d: the zone die, re-rolled while it shows a roll hidden by d's
    explicit cover (B-8, B-9.9). Returns the zone code."""
    r = roll_die(st, zt.shape[0]) - 1
    while _zone_hidden(F, S, opts, zt, d, r):
        r = roll_die(st, zt.shape[0]) - 1
    return np.int64(zt[r])


@loop_inline_rule
def _open_aim(F, S, opts, zt, d, zone):
    """B-8: an aimed blow (``zone >= 0``) hits its zone if any roll of it is open behind d's
    cover (the seed: aim at an open zone); a zone wholly hidden gives −1 (the zone is rolled).
    Without an aim or without cover: ``zone`` (a test in the caller's code; ``_aim_behind_cover``)."""
    if zone < 0 or _side_option(F, opts, O_COVER, d) == 0:
        return zone
    return _aim_behind_cover(F, S, opts, zt, d, zone)


@rule
def _aim_behind_cover(F, S, opts, zt, d, zone):
    """``_open_aim`` at a zone ``zone >= 0`` of d in explicit cover."""
    found = False
    for r in range(zt.shape[0]):
        if zt[r] == zone:
            found = True
            if not _zone_hidden(F, S, opts, zt, d, r):
                return zone
    return -1 if found else zone


@rule
def _unseen(F, opts, d):
    """B-8: indirect cover of 100 % makes d invisible to shooters: it cannot be shot at."""
    return _side_option(F, opts, O_INDIRECT_COVER, d) >= 100


@rule
def _deflected(F, opts, st, d):
    """B-8 indirect cover: a shot that hit d is deflected when a d100 ≤ d's value (drawn only
    when the value is above 0)."""
    value = _side_option(F, opts, O_INDIRECT_COVER, d)
    return value > 0 and roll_die(st, 100) <= value


@rule
def _charge_athletics(S, a):
    """Seed line 208: a knock-down made as part of a charge gets +2 to the attacker's athletics."""
    return 2 if S[a, S_CHARGING] != 0 else 0
