"""Checks and their modifiers: wound, fatigue and stun penalties (B-1, B-6.5, B-7), the weapons a
fighter holds and can use, reactions and their choice (B-4.2–B-4.6), the state's small writers.

Rules: B-1.6, B-2.6, B-2.7, B-2.9, B-3.8, B-3.9, B-3.12, B-4.1, B-4.2, B-4.4, B-4.7, B-4.8, B-6.5,
B-7.5, B-7.6, B-7.7, B-7.8, B-8, B-9.1, B-9.3, B-9.4, B-9.6.

Arguments are those of the kernel package (:mod:`brutal_sim.rulesets.brutal.kernel`).
"""

from __future__ import annotations

import numpy as np

from ....toolbox.battle import decided, foe_distance, lies_helpless
from ....toolbox.jit import inline_rule, rule
from ..layout import (
    BROKEN_DEGRADED,
    BROKEN_DESTROYED,
    CAUSE_FLED,
    G_NONE,
    K_KNOCKDOWN,
    P_DODGE,
    P_ENDURANCE,
    P_MELEE,
    P_NCELLS,
    P_PARRY_MOD,
    P_REACTION,
    P_SIDE,
    P_T_ATTACK,
    P_T_DROP,
    P_WEAPONS,
    R_DODGE,
    R_NONE,
    R_PARRY,
    S_BROKEN_MAIN,
    S_DAZE,
    S_ENGAGERS,
    S_FATIGUE,
    S_FATIGUE_PEN,
    S_FULL_PEN,
    S_GRAPPLE,
    S_GROUND_PEN,
    S_HELD_MAIN,
    S_IN_TURN,
    S_MOVING,
    S_NO_REACT,
    S_OUT,
    S_PERM_STUN,
    S_PRONE,
    S_RELOAD,
    S_STANCE,
    S_STUN,
    S_SURPRISED,
    S_TRACK,
    S_WOUND_PEN,
    SLOT_FISTS,
    SLOT_MAIN,
    SLOT_OFF,
    TA_NONE,
    W_LONG,
    W_PARRY_BONUS,
    W_PRESENT,
    W_TWO_HANDED,
    WN,
)
from ..options import (
    DODGE_STANCE_BEFORE,
    DODGE_STANCE_NEVER,
    O_DARKNESS,
    O_DARKNESS_DODGE,
    O_DODGE_ENDS_STANCE,
    O_FINISH_HELPLESS,
    O_OUTNUMBERED,
    O_REACT_IN_OWN_TURN,
    O_TERRAIN,
    OUTNUMBERED_BY_COUNT,
    OUTNUMBERED_NONE,
    OUTNUMBERED_ONE_SIDE,
)

BASE_DIFFICULTY = 8  # B-4.1 ordinary target
HELPLESS_DIFFICULTY = 4  # B-4.1 helpless target


#: B-4.7 (docs/groups.md): the reaction penalty of a fighter engaged by c enemies, ``[outnumbered option
#: code, c]`` (c ≤ 6, the attack limit): ``by_count`` 2 → 1, 3 → 2, 4+ → 4; ``one_side`` 2+ → 1; ``none`` 0.
OUTNUMBERED_PENALTY = np.zeros((3, 7), dtype=np.int64)


OUTNUMBERED_PENALTY[OUTNUMBERED_BY_COUNT] = [0, 0, 1, 2, 4, 4, 4]


OUTNUMBERED_PENALTY[OUTNUMBERED_ONE_SIDE] = [0, 0, 1, 1, 1, 1, 1]


OUTNUMBERED_PENALTY[OUTNUMBERED_NONE] = 0


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
def _set_ground(F, S, opts):
    """B-9.6: every fighter's ground penalty (``S_GROUND_PEN``) from its side's ``terrain_a`` /
    ``terrain_b`` option: normal 0, difficult 1, very difficult 2. Called after ``_reset``."""
    for i in range(F.shape[0]):
        S[i, S_GROUND_PEN] = opts[O_TERRAIN + F[i, P_SIDE]]


@rule
def _darkness(opts, dodge):
    """B-9.6: darkness's penalty to a melee or ranged combat check (attacks, shots, parries): 4 when
    ``darkness`` is on, 0 off; to a dodge (``dodge`` true) only with ``darkness_dodge`` yes."""
    if opts[O_DARKNESS] == 0 or (dodge and opts[O_DARKNESS_DODGE] == 0):
        return 0
    return 4


@rule
def _concentrates(F, S, i):
    """B-9.4: whether i holds a stance taken with an attack (B-3.2, a concentration action), which a
    dodge interrupts; a stance without an attack (total defence, B-3.7) is a defence action."""
    return S[i, S_STANCE] != 0 and F[i, P_T_ATTACK] != TA_NONE


@rule
def _dodge_made(F, S, opts, i):
    """B-9.4: i made a dodge (against a blow or a shot, whatever its result): it ends i's stance of
    concentration unless ``dodge_ends_stance`` is never."""
    if opts[O_DODGE_ENDS_STANCE] != DODGE_STANCE_NEVER and _concentrates(F, S, i):
        S[i, S_STANCE] = 0


@rule
def _is_stunned(S, i):
    return S[i, S_STUN] > 0 or S[i, S_PERM_STUN] > 0


@rule
def _check_penalty(F, S, i):
    """Penalty to i's other checks of active actions in a fight (athletics, mobility, shots): wounds
    (B-6.5), stunned/dazed −2 (B-7.5), fatigue (B-7.8) and the ground (B-9.6)."""
    cond = 2 if (_is_stunned(S, i) or S[i, S_DAZE] > 0) else 0
    return _wound_penalty(F, S, i) + cond + _fatigue_penalty(F, S, i) + S[i, S_GROUND_PEN]


@rule
def _active_penalty(F, S, i):
    """Penalty to i's melee checks (attacks, feints): wounds (B-6.5) + the largest condition
    (B-1.6, B-7.5): stunned −2, dazed −2 (opportunity attacks), prone −4 (B-4.2) + fatigue (B-7.8)
    + the ground (B-9.6).
    """
    cond = 0
    if _is_stunned(S, i) or S[i, S_DAZE] > 0:
        cond = 2
    if S[i, S_PRONE] > 0:
        cond = 4
    return _wound_penalty(F, S, i) + cond + _fatigue_penalty(F, S, i) + S[i, S_GROUND_PEN]


@inline_rule
def _reaction_modifier(F, S, opts, i, parry):
    """B-4.7 modifiers to i's parry (``parry`` true) or dodge, weapon bonuses excluded. int64.

    The tactic's stance (+2 defensive, +4 total defence; a dodge gets no stance of concentration
    with ``dodge_ends_stance`` before, B-9.4), −2 after a full action (B-2.6), conditions (largest of
    prone −4 parry / −2 dodge, stunned −2, dazed −2), wound penalty, fatigue (B-7.8), the ground and
    darkness (B-9.6), outnumbered (a kind of its own, ``OUTNUMBERED_PENALTY`` by the option
    ``outnumbered`` and i's engagers).
    """
    cond = 0
    if _is_stunned(S, i) or S[i, S_DAZE] > 0:
        cond = 2
    if S[i, S_PRONE] > 0:
        prone = 4 if parry else 2
        if prone > cond:
            cond = prone
    stance = S[i, S_STANCE]
    if not parry and opts[O_DODGE_ENDS_STANCE] == DODGE_STANCE_BEFORE and _concentrates(F, S, i):
        stance = 0
    mod = (stance - cond - _wound_penalty(F, S, i) - _fatigue_penalty(F, S, i) - S[i, S_GROUND_PEN]
           - _darkness(opts, not parry))
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
    return S[i, S_HELD_MAIN + slot] == 1


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
def _weapon_target(F, S, i):
    """B-9.3: the weapon an aimed attack at i's weapon strikes: the main-hand item if usable, else the
    off-hand item if usable, else −1 (bare-handed: no weapon to aim at)."""
    if _usable(F, S, i, SLOT_MAIN):
        return SLOT_MAIN
    if _usable(F, S, i, SLOT_OFF):
        return SLOT_OFF
    return -1


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
def _helpless(S, d):
    """B-4.1, B-9.8: d lies helpless: out of the fight unconscious (any cause but fleeing) and not dead."""
    return lies_helpless(S, d, CAUSE_FLED)


@rule
def _attackable(S, opts, d):
    """Whether d may be attacked: it is in the fight, or helpless with ``finish_helpless`` (B-9.8).
    A foe that went out during the attacker's turn is not attacked otherwise (docs/groups.md)."""
    return S[d, S_OUT] == 0 or (opts[O_FINISH_HELPLESS] != 0 and _helpless(S, d))


@rule
def _base_difficulty(S, d):
    """B-4.1: base difficulty to hit d: 8 for an ordinary target, 12 for a moving one (it ran, B-8),
    4 for a helpless one (only attacked with ``finish_helpless``, B-9.8)."""
    if S[d, S_OUT] != 0:
        return HELPLESS_DIFFICULTY
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
    (B-3.9) cannot be parried, so a parrying defender dodges it. With ``react_in_own_turn = no``
    (B-2.7: reactions happen outside the own turn) a defender in its own turn (``S_IN_TURN``: the
    opportunity attacks its actions provoke, B-3.8, the readied attacks they trigger, B-9.1) does
    not react.
    """
    if not _can_react(S, d):
        return R_NONE
    if S[d, S_IN_TURN] != 0 and opts[O_REACT_IN_OWN_TURN] == 0:
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
def _can_go_on(S, i):
    """Whether i may take its next action: the fight is not over, i is still in and was not dazed
    meanwhile (B-7.5)."""
    return not decided(S) and S[i, S_OUT] == 0 and S[i, S_DAZE] == 0


@rule
def _lets_go_of_ranged(F, S, i):
    """B-8 tactic ``drop_ranged``: engaged, i does without its ranged main-hand weapon."""
    return F[i, P_T_DROP] != 0 and foe_distance(S, i) == 0 and _is_ranged(F, i, SLOT_MAIN)


@rule
def _free_hands(F, S, i):
    """Hands of i holding nothing (0–2): a usable item in a hand occupies it, a two-handed one both."""
    held = 0
    if _usable(F, S, i, SLOT_MAIN):
        held += 2 if F[i, _wb(SLOT_MAIN) + W_TWO_HANDED] != 0 else 1
    if _usable(F, S, i, SLOT_OFF):
        held += 1
    return 2 - held if held < 2 else 0
