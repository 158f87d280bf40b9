"""Int codes and array layouts of the toy ruleset, shared by its compile step and kernels.

A fighter compiles to one ``int64[NF]`` row: the battle block of :mod:`brutal_sim.core.battle`
first (``F_SIDE``, ``F_RANK``, ``F_TARGETING``), then the toy's own columns (``P_*``). Its changing
state in a fight of N fighters is one row of ``int64[N, NS]``: the battle block (``B_*``: out,
foe, position, initiative, turn order …) first, then the toy's own columns (``S_*``). The option
row's slots are in :mod:`.options`. The counter row is the shared
:class:`~brutal_sim.core.counters.CounterLayout` under the names below (the header), followed in
group fights by the shared :class:`~brutal_sim.core.counters.GroupBlock`; its offsets (``C_*``,
``GB_*``) are module-level ints, compile-time constants for numba.
"""

from __future__ import annotations

from brutal_sim.core import battle as B
from brutal_sim.core.counters import MAX_SIDE, CounterLayout, GroupBlock
from brutal_sim.core.slots import Slots

# -- codes ----------------------------------------------------------------------------------------
LEVEL_NAMES = ("none", "wounded", "out")
LVL_NONE, LVL_WOUNDED, LVL_OUT = range(3)
N_LEVELS = len(LEVEL_NAMES)

# -- fighter row (int64[NF]) ----------------------------------------------------------------------
P = Slots(B.FIGHTER_BLOCK)  # after the battle block (core.battle)
P_SKILL = P.next()
P_HIT_POINTS = P.next()
P_DAMAGE_BONUS = P.next()
P_SPEED = P.next()  # T-6: steps a move covers
P_RANGE = P.next()  # T-6: steps its weapon's shot reaches, 0 melee
NF = P.size

# -- fighter state (int64[N, NS]) -----------------------------------------------------------------
S = Slots(B.STATE_BLOCK)  # after the battle block (core.battle)
S_HP = S.next()
S_HARMED = S.next()  # blows that did damage (for the shared one_blow counter)
# per side, kept in row 0 (side a) and row 1 (side b): blows of level l the side took in this fight at
# S_TOOK + l (for the shared loser_wounds counter)
S_TOOK = S.block(N_LEVELS)
NS = S.size

#: T-3: a fighter put out at this many hit points or fewer is dead
DEAD_AT = -3
#: T-6: a shot's attack total is the T-1 total less this
SHOT_PENALTY = 2
#: T-5: the ``weakest`` policy's weakness (hit points lost) is capped here (core.battle)
WEAKNESS_CAP = 127
#: T-5: no attack limit in the toy: every enemy in the fight has room (at most MAX_SIDE − 1 others)
ATTACK_LIMIT = MAX_SIDE

# -- counters -------------------------------------------------------------------------------------
CAUSE_NAMES = ("hit_points",)
OUTCOME_NAMES = ("miss", "hit")
OUT_MISS, OUT_HIT = range(2)
ZONE_NAMES = ("body",)

COUNTERS = CounterLayout(
    causes=CAUSE_NAMES, outcomes=OUTCOME_NAMES, levels=LEVEL_NAMES, zones=ZONE_NAMES, special="sixes",
    descriptions=(("hit_points", "0 hit points or fewer"), ("none", "no damage (d6 + bonus ≤ 0)"),
                  ("wounded", "damage, still standing"), ("out", "put out of the fight"),
                  ("sixes", "hits whose damage die showed 6"),
                  ("deaths", "at −3 hit points or fewer (T-3)")))
N_CAUSES = len(CAUSE_NAMES)
N_OUTCOMES = len(OUTCOME_NAMES)
C_DRAWS = COUNTERS.draws
C_ATTACKS = COUNTERS.attack
C_WOUNDS = COUNTERS.wound
C_SIXES = COUNTERS.special_at
C_DAMAGE = COUNTERS.damage
C_ONE_BLOW = COUNTERS.one_blow
C_LOSER_WOUNDS = COUNTERS.loser_wounds
C_ROUNDS = COUNTERS.rounds
#: what toolbox.tally.count_decision reads of this layout
TALLY = COUNTERS.tally(S_TOOK)


def n_counters(round_cap: int) -> int:
    return COUNTERS.size(round_cap)


# -- the group block after the header in group fights (core.counters) ------------------------------
GROUP = GroupBlock(N_CAUSES)
GB_FIGHTERS, GB_PER_FIGHTER = GROUP.fighters, GROUP.per_fighter


def n_fight_counters(round_cap: int, n_fighters: int) -> int:
    """Length of a group fight's counter row: the header, then the group block."""
    return n_counters(round_cap) + GROUP.size(n_fighters)
