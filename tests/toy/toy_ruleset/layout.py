"""Int codes and array layouts of the toy ruleset, shared by its compile step and kernels.

A fighter compiles to one ``int64[NF]`` row (``P_*``); its changing state in a duel is one row of
``int64[2, NS]`` (``S_*``). The option row's slots are in :mod:`.options`. The counter row is the
shared :class:`~brutal_sim.core.counters.CounterLayout` under the names below; its offsets
(``C_*``) are module-level ints, compile-time constants for numba.
"""

from __future__ import annotations

from brutal_sim.core.counters import CounterLayout
from brutal_sim.core.slots import Slots

# -- codes ----------------------------------------------------------------------------------------
LEVEL_NAMES = ("none", "wounded", "out")
LVL_NONE, LVL_WOUNDED, LVL_OUT = range(3)
N_LEVELS = len(LEVEL_NAMES)

# -- fighter row (int64[NF]) ----------------------------------------------------------------------
P = Slots()
P_SKILL = P.next()
P_HIT_POINTS = P.next()
P_DAMAGE_BONUS = P.next()
NF = P.size

# -- fighter state (int64[2, NS]) -----------------------------------------------------------------
S = Slots()
S_HP = S.next()
S_HARMED = S.next()  # blows that did damage (for the shared one_blow counter)
S_TOOK = S.block(N_LEVELS)  # blows of level l taken in this duel at S_TOOK + l (for the shared loser_wounds counter)
NS = S.size

#: T-3: a fighter put out at this many hit points or fewer is dead
DEAD_AT = -3

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
