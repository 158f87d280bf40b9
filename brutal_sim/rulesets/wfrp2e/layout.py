"""Int codes and array layouts of the WFRP 2e ruleset, shared by its compile step and kernels.

A fighter compiles to one ``int64[NF]`` row (``P_*``); the changing state of a duel is an
``int64[3, NS]`` array: rows 0 and 1 are the fighters (``S_*``), row 2 holds duel-wide values
(``G_*``). The rule options' row (``O_*``) is declared with the options, in :mod:`.options`. The
critical table model (W-5.4) compiles to ``grid int64[100, CRIT_COLUMNS]`` (d100 roll − 1 ×
critical value → effect number) and ``effects int64[4 zones, n effects + 1, NFX]``. Module-level
ints are compile-time constants for numba.
"""

from ...core.counters import CounterLayout

# -- hit locations (W-4.2) and the zone groups of the counters -------------------------------------
LOC_HEAD, LOC_RARM, LOC_LARM, LOC_BODY, LOC_RLEG, LOC_LLEG = range(6)
LOCATION_NAMES = ("head", "right_arm", "left_arm", "body", "right_leg", "left_leg")
#: upper bound of each location's band of reversed to-hit rolls (W-4.2)
LOCATION_UPPER = (15, 35, 55, 80, 90, 100)
ZONE_HEAD, ZONE_BODY, ZONE_ARM, ZONE_LEG = range(4)
ZONE_NAMES = ("head", "body", "arm", "leg")
LOCATION_ZONE = (ZONE_HEAD, ZONE_ARM, ZONE_ARM, ZONE_BODY, ZONE_LEG, ZONE_LEG)

# -- counter names ----------------------------------------------------------------------------------
OUT_MISS, OUT_PARRIED, OUT_DODGED, OUT_HIT = range(4)
OUTCOME_NAMES = ("miss", "parried", "dodged", "hit")
LVL_NONE, LVL_WOUNDED, LVL_HEAVILY, LVL_CRITICAL, LVL_OUT = range(5)
LEVEL_NAMES = ("none", "wounded", "heavily_wounded", "critical", "out")
CAUSE_CRITICAL, CAUSE_HELPLESS, CAUSE_FLED = range(3)
CAUSE_NAMES = ("critical", "helpless", "fled")

COUNTERS = CounterLayout(
    causes=CAUSE_NAMES, outcomes=OUTCOME_NAMES, levels=LEVEL_NAMES, zones=ZONE_NAMES, special="ulrics_fury",
    descriptions=(
        ("critical", "critical hit"), ("helpless", "helpless (critical effect)"),
        ("fled", "fled (W-3.16)"),
        ("none", "no damage (0 after TB and AP)"), ("wounded", "wounded (> 3 Wounds left)"),
        ("heavily_wounded", "heavily wounded (≤ 3 Wounds left)"),
        ("out", "critical hit, out of the fight"),
        ("ulrics_fury", "hits with Ulric's Fury dice added")))
C_WINS = COUNTERS.wins
C_DRAWS = COUNTERS.draws
C_CAUSE = COUNTERS.cause
C_DEATHS = COUNTERS.death
C_ATTACKS = COUNTERS.attack
C_WOUNDS = COUNTERS.wound
C_FURY = COUNTERS.special_at
C_DAMAGE = COUNTERS.damage
C_ONE_BLOW = COUNTERS.one_blow
C_LOSER_WOUNDS = COUNTERS.loser_wounds  # [2 loser][n level][LOSER_WOUNDS_CAP + 1]
C_ROUNDS = COUNTERS.rounds  # [cap + 1], then rounds_a [cap + 1]
N_CAUSES = len(CAUSE_NAMES)
N_OUTCOMES = len(OUTCOME_NAMES)
N_LEVELS = len(LEVEL_NAMES)
N_ZONES = len(ZONE_NAMES)


def n_counters(round_cap: int) -> int:
    return COUNTERS.size(round_cap)


# -- tactics (W-8) and reactions ------------------------------------------------------------------
T_GUARDED, T_SWIFT, T_BERSERK, T_CAUTIOUS, T_TURTLE, T_FEINTER = range(6)
TACTIC_NAMES = ("guarded", "swift", "berserk", "cautious", "turtle", "feinter")
R_DODGE_FIRST, R_PARRY_FIRST, R_BEST, R_NONE = range(4)
REACTION_NAMES = ("dodge_first", "parry_first", "best", "none")
REACT_NONE, REACT_PARRY, REACT_DODGE = 0, 1, 2

# -- fighter row (int64[NF]) ------------------------------------------------------------------------
(P_WS, P_AG, P_A, P_W, P_SB, P_TB, P_DODGE, P_FORTUNE, P_FATE, P_TACTIC, P_REACTION, P_AG_PENALTY,
 P_MIGHTY_BLOW, P_STREET_FIGHTING, P_FLEE_AT) = range(15)
P_AP = 15  # armour points of zone z at P_AP + z (W-9.2)
P_WEAPONS = P_AP + 4  # weapon slot s at P_WEAPONS + s * WN
(W_PRESENT, W_DAMAGE, W_IMPACT, W_FAST, W_SLOW, W_PRECISE, W_DEFENSIVE, W_ARMOUR_PIERCING, W_BALANCED,
 W_TIRING, W_UNARMED) = range(11)
W_CHOPPA = 11  # the orc choppa (W-9.3, option choppa)
WN = 12
SLOT_MAIN, SLOT_OFF, SLOT_FISTS = 0, 1, 2
NF = P_WEAPONS + 3 * WN
QUALITY_FIELDS = {"impact": W_IMPACT, "fast": W_FAST, "slow": W_SLOW, "precise": W_PRECISE,
                  "defensive": W_DEFENSIVE, "armour_piercing": W_ARMOUR_PIERCING, "balanced": W_BALANCED,
                  "tiring": W_TIRING}

# -- fighter state (int64[3, NS]; rows 0, 1) ----------------------------------------------------------
(S_W, S_FORTUNE, S_STUN, S_PRONE, S_HELD_MAIN, S_HELD_OFF, S_PARRY_STANCE, S_DEF_STANCE, S_CAUTIOUS,
 S_NO_REACT, S_PARRY_USED, S_DODGE_USED, S_SURPRISED, S_OUT, S_DEAD, S_PEN_WS, S_PEN_AG, S_HARMED) = range(18)
S_HELPLESS = 18  # W-6.2: helpless and still in the fight (helpless = attackable)
NS = 19  # S_HARMED: hits taken with a level above none (for the shared one_blow counter)
S_TOOK = NS  # hits of level l the fighter took in this duel at S_TOOK + l (the header's loser_wounds block)
NS += N_LEVELS
# duel-wide values (row 2)
G_ROUND, G_ENGAGED = 0, 1

# -- distances (W-3.3) -------------------------------------------------------------------------------
CHARGE_DISTANCE = 4  # W-3.3: yards needed for a charge

# -- critical table (W-5.4, crit_model = table) ---------------------------------------------------------
CRIT_COLUMNS = 32  # grid columns: critical value 0 … 31 (higher values use column 31)
(FX_OUT, FX_DEATH, FX_HELPLESS, FX_STUN, FX_DROP, FX_PRONE, FX_PEN_WS, FX_PEN_AG) = range(8)
NFX = 8
