"""V-5 damage, Health and armour: the armour roll's dice (V-5.4, V-4.7 shields, V-5.7 armour
piercing), the damage it removes (V-5.4), the roll itself with its 1s wearing the armour down
(V-5.4), and Health damage (V-5.2). Imports :mod:`.checks`."""

from __future__ import annotations

from ....toolbox.battle import put_out
from ....toolbox.jit import rule
from ....toolbox.rng import roll_die
from ..layout import C_DEGRADED, CAUSE_HEALTH, P_ARMOUR_QUALITY, P_SIDE, S_ARMOUR, S_HEALTH, S_SHIELD, W_PIERCING
from ..options import O_ARMOUR_ONES, O_ARMOUR_PIERCING_DICE, O_ONE_VALUE, O_SHIELD, SHIELD_ARMOUR_POOL
from .checks import _successes, _weapon


@rule
def _armour_dice(F, S, opts, src, tgt):
    """V-5.4, V-4.7, V-5.7: dice of ``tgt``'s armour roll against ``src``'s weapon.

    Returns ``(armour dice, shield dice)``: class + quality, the held shield's class (option
    ``shield``), less ``armour_piercing_dice`` for an armour-piercing weapon (armour dice first).
    """
    na = S[tgt, S_ARMOUR] + F[tgt, P_ARMOUR_QUALITY]
    ns = S[tgt, S_SHIELD] if opts[O_SHIELD] == SHIELD_ARMOUR_POOL else 0
    if _weapon(F, S, src, W_PIERCING) != 0:
        cut = opts[O_ARMOUR_PIERCING_DICE]
        take = min(cut, na)
        na -= take
        ns = max(ns - (cut - take), 0)
    return na, ns


@rule
def _armour_reduction(opts, successes, ones):
    """V-5.4: damage removed by an armour roll: its successes (``armour_ones = separate``) or
    successes plus 1s at ``one_value`` (``net``), never below 0."""
    if opts[O_ARMOUR_ONES] != 0:
        return max(successes + ones * opts[O_ONE_VALUE], 0)
    return successes


@rule
def _armour_roll(F, S, opts, st, cnt, src, tgt):
    """V-5.4: ``tgt`` rolls its armour against ``src``'s weapon; every 1 lowers the class of the
    armour (or shield) whose die showed it. Returns the damage removed (int64)."""
    na, ns = _armour_dice(F, S, opts, src, tgt)
    one = opts[O_ONE_VALUE]
    successes = 0
    ones_a = 0
    ones_s = 0
    for k in range(na + ns):
        face = roll_die(st, 20)
        if face != 1:
            successes += _successes(face, one)
        elif k < na:
            ones_a += 1
        else:
            ones_s += 1
    lost_a = min(ones_a, S[tgt, S_ARMOUR])
    lost_s = min(ones_s, S[tgt, S_SHIELD])
    S[tgt, S_ARMOUR] -= lost_a
    S[tgt, S_SHIELD] -= lost_s
    cnt[C_DEGRADED + F[tgt, P_SIDE]] += lost_a + lost_s
    return _armour_reduction(opts, successes, ones_a + ones_s)


@rule
def _lose_health(F, S, i, amount):
    """Health damage; Health ≤ 0 puts the fighter out (V-5.2, V-6.1: the first cause is kept)."""
    S[i, S_HEALTH] -= amount
    if S[i, S_HEALTH] <= 0:
        put_out(F, S, i, CAUSE_HEALTH)
