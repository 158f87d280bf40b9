"""Int codes and array layouts shared by the compile step and the kernels.

A fighter compiles to one ``int64[NF]`` row (``P_*`` indices); its changing state during a fight is
one ``int64[NS]`` row (``S_*``); a run's counters are one ``int64[K]`` row (``C_*`` offsets, the
rounds histogram last). The rule options' row (``O_*``) is declared with the options, in
:mod:`.options`. The indices of each row (and of the weapon record ``W_*`` inside the fighter row)
are handed out by a :class:`~brutal_sim.core.slots.Slots` in the order they are declared, so none is
written as a number. Module-level ints are compile-time constants for numba.
"""

from ...core import battle as B
from ...core.counters import MAX_SIDE, CounterLayout, GroupBlock  # noqa: F401  (MAX_SIDE: the kernel reads it here)
from ...core.slots import Slots

# -- codes ----------------------------------------------------------------------------------------
ZONE_HEAD, ZONE_TORSO, ZONE_LARM, ZONE_RARM, ZONE_LLEG, ZONE_RLEG = 0, 1, 2, 3, 4, 5
ZONE_GROUP_OF = (0, 1, 2, 2, 3, 3)  # head, torso, arm, leg
NZONES = len(ZONE_GROUP_OF)

DT_CUTTING, DT_BLUNT, DT_SHOCK, DT_FIRE, DT_BLAST = 0, 1, 2, 3, 4
DAMAGE_TYPE_CODES = {"cutting": DT_CUTTING, "piercing": DT_CUTTING, "blunt": DT_BLUNT,
                     "shock": DT_SHOCK, "fire": DT_FIRE, "blast": DT_BLAST}

REACTION_CODES = {"best": 0, "parry": 1, "dodge": 2, "none": 3}
R_BEST, R_PARRY, R_DODGE, R_NONE = range(4)

# wound levels by damage (B-5.1)
LVL_NONE, LVL_LIGHT_DAMAGE, LVL_LIGHT, LVL_HEAVY, LVL_CRITICAL, LVL_MORTAL = range(6)
LEVEL_NAMES = ("none", "light_damage", "light", "heavy", "critical", "mortal")
NLEVELS = len(LEVEL_NAMES)

# attack outcomes
OUT_MISS, OUT_PARRIED, OUT_DODGED, OUT_HARD_BLOCK, OUT_HIT = range(5)
OUTCOME_NAMES = ("miss", "parried", "dodged", "hard_block", "hit")

# how a fighter left the fight (S_OUT values are these + 1)
CAUSE_TRACK_FULL, CAUSE_KNOCKED_OUT, CAUSE_MORTAL, CAUSE_FLED, CAUSE_EXHAUSTED = range(5)
CAUSE_NAMES = ("track_full", "knocked_out", "mortal", "fled", "exhausted")
NCAUSES = len(CAUSE_NAMES)

# attack kinds
K_NORMAL, K_OPPORTUNITY, K_KNOCKDOWN, K_GRAPPLE = 0, 1, 2, 3
# B-9.3 an aimed attack at the weapon (a hit makes the hard block); B-9.2 the unarmed full attack (extra hits)
K_WEAPON, K_FULL_UNARMED = 4, 5

# -- a weapon record (WN fields): slot s of a fighter's weapons at P_WEAPONS + s * WN ------------------
W = Slots()
W_PRESENT = W.next()
W_NDICE = W.next()
W_SIDES = W.next()
W_BONUS = W.next()
W_TYPE = W.next()
W_PEN = W.next()
W_DUR = W.next()
W_TWO_HANDED = W.next()
W_REACH = W.next()
W_PARRY_BONUS = W.next()
W_UNARMED = W.next()
# W_LONG > 0 marks a ranged weapon (B-8): range bands in metres, reload in standard actions
W_SHORT = W.next()
W_MEDIUM = W.next()
W_LONG = W.next()
W_RELOAD = W.next()
WN = W.size
SLOT_MAIN, SLOT_OFF, SLOT_FISTS = range(3)  # the weapon slots: main hand, off hand, fists

# -- the battle block (core.battle): side, place in the line, targeting policy (docs/groups.md);
# in the state: out (its cause + 1), dead, foe, engagers, order of going out, damage dealt and taken,
# position on the line (metres; 0 apart engaged), initiative (B-2.2) and the turn order
P_SIDE, P_RANK, P_TARGETING = B.F_SIDE, B.F_RANK, B.F_TARGETING
TG_SPREAD, TG_WEAKEST, TG_NEAREST = B.TG_SPREAD, B.TG_WEAKEST, B.TG_NEAREST
TARGETING_CODES = B.TARGETING_CODES
S_OUT, S_DEAD, S_FOE, S_ENGAGERS, S_OUT_SEQ = B.B_OUT, B.B_DEAD, B.B_FOE, B.B_ENGAGERS, B.B_OUT_SEQ
S_DEALT, S_TAKEN, S_ORDER, S_INIT, S_INIT_GROUP = B.B_DEALT, B.B_TAKEN, B.B_ORDER, B.B_INIT, B.B_INIT_GROUP
S_SIDE_IN, S_OUTS, S_WEAKNESS = B.B_SIDE_IN, B.B_OUTS, B.B_WEAKNESS
S_INIT_MOD, S_INIT_TIE = B.B_INIT_MOD, B.B_INIT_TIE

# -- fighter parameters (int64[NF]) ---------------------------------------------------------------
P = Slots(B.FIGHTER_BLOCK)  # after the battle block (core.battle)
P_MELEE = P.next()
P_DODGE = P.next()
P_ATHLETICS = P.next()
P_TOUGHNESS = P.next()
P_RESOLVE = P.next()
P_WILLPOWER = P.next()
P_ENDURANCE = P.next()
P_STRENGTH = P.next()
P_AGILITY = P.next()
P_DL0, P_DL1, P_DL2, P_DL3 = P.take(4)  # damage levels (B-5.1): final damage up to P_DL0 + k is LVL_LIGHT_DAMAGE + k
P_INIT_MOD = P.next()
P_INIT_TALENT = P.next()
P_AMBIDEXTROUS = P.next()
P_PAIRED = P.next()
P_OA_PER_ROUND = P.next()
P_AIM_ZONE = P.next()
P_REACTION = P.next()
P_ATTACK_MOD = P.next()
P_PARRY_MOD = P.next()
P_DAMAGE_MOD = P.next()
P_NCELLS = P.next()
P_RANGED = P.next()
P_MOVEMENT = P.next()
P_WEAPONS = P.block(3 * WN)  # the three weapon slots' records
P_ARMOUR = P.block(2 * NZONES)  # zone z: protection at P_ARMOUR + 2z, toughness at P_ARMOUR + 2z + 1
# the fighter's tactic (B-3), compiled from its Tactic data
P_T_ATTACK = P.next()
P_T_MOD = P.next()
P_T_UNARMED_MOD = P.next()
P_T_STANCE = P.next()
P_T_FULL = P.next()
P_T_FULL_PEN = P.next()
P_T_NO_REACT = P.next()
P_T_NO_OA = P.next()
P_T_FEINT = P.next()
TA_NONE, TA_NORMAL, TA_KNOCKDOWN, TA_GRAPPLE, TA_WEAPON = 0, 1, 2, 3, 4
TACTIC_ATTACK_CODES = {"none": TA_NONE, "normal": TA_NORMAL, "knockdown": TA_KNOCKDOWN, "grapple": TA_GRAPPLE,
                       "weapon": TA_WEAPON}
# what a fighter controlling a grapple does with its full action (B-3.12)
GA_DAMAGE, GA_THROW = 0, 1
GRAPPLE_ACTION_CODES = {"damage": GA_DAMAGE, "throw": GA_THROW}
P_FEAR = P.next()  # fear rating this fighter inflicts (B-7.10), 0 none
P_FATIGUE0 = P.next()  # fatigue levels at the start of the fight (B-7.8)
P_T_GRAPPLE_ACTION = P.next()  # GA_* (B-3.12)
P_T_RANGED = P.next()  # the tactic's action can be a shot: its modifier, zone and stance apply (B-8)
P_T_KITE = P.next()    # a shooter steps back from an enemy who could strike next turn (B-8)
P_T_RUN = P.next()     # a melee fighter runs to close a distance two moves cannot (B-8)
P_T_DROP = P.next()    # engaged, a shooter drops its ranged weapon and fights on (B-8)
P_T_CHARGE = P.next()  # a melee fighter apart charges [Натиск] when within a run's distance (B-8)
P_SIZE = P.next()  # B-8 target size [Размер противника]: steps from medium (SIZE_NAMES index − 5; 0 medium)
P_T_READY = P.next()  # B-9.1: apart (or by the readied_trigger option) the fighter readies an attack
# B-9.2: the reading of option unarmed_full_attack (its code: 1 furious, 2 flurry; 0 none) under which the
# tactic's full action with fists is the unarmed full attack; the hits are capped by P_MELEE_SKILL
P_T_FULL_UNARMED = P.next()
P_MELEE_SKILL = P.next()
UNARMED_FULL_CODES = {"none": 0, "furious": 1, "flurry": 2}
NF = P.size
# B-8 size table: attacks (melee and shots) on a target of size k add SIZE_MODIFIERS[k]; explicit cover
# counts the target as that many steps smaller (quarter 1, half 2, three quarters 3; clamped at tiny)
SIZE_NAMES = ("tiny", "miniature", "very_small", "small", "smaller", "medium", "larger", "large",
              "very_large", "huge", "gigantic")
SIZE_MODIFIERS = (-8, -6, -4, -2, -1, 0, 1, 2, 4, 6, 8)
SIZE_MEDIUM = 5

# -- fighter state (int64[NS]) ---------------------------------------------------------------------
S = Slots(B.STATE_BLOCK)  # after the battle block (core.battle)
S_TRACK = S.next()
S_TALLY = S.next()
S_BLEED = S.next()
S_STUN = S.next()
S_DAZE = S.next()
S_PERM_STUN = S.next()
S_PRONE = S.next()
S_HELD_MAIN, S_HELD_OFF = S.take(2)  # of weapon slot s at S_HELD_MAIN + s
S_BROKEN_MAIN, S_BROKEN_OFF = S.take(2)  # of weapon slot s at S_BROKEN_MAIN + s
S_STANCE = S.next()
S_NO_REACT = S.next()
S_NO_OA = S.next()
S_FULL_PEN = S.next()
S_OA_LEFT = S.next()
S_IN_TURN = S.next()
S_SURPRISED = S.next()
S_FRIGHTENED = S.next()
S_FATIGUE = S.next()
S_TURNS = S.next()
S_GRAPPLE = S.next()
S_RELOAD = S.next()
S_MOVING = S.next()
S_NO_RUN = S.next()
S_HARMED = S.next()
S_CHARGING = S.next()  # 1 during the attack of a charge (B-8: its modifier, +2 athletics to a knock-down)
# B-8 run and sprint: the own turn (S_TURNS) in which the fighter last ran (a sprint is a run) / sprinted, 0 never
S_RAN = S.next()
S_SPRINTED = S.next()
# the wound (B-6.5) and fatigue (B-7.8) penalties to i's checks, kept in step with S_TRACK and S_FATIGUE
# (kernel ``_set_track``, ``_set_fatigue``): read on every check, they change only with a wound or fatigue
S_WOUND_PEN = S.next()
S_FATIGUE_PEN = S.next()
# B-9.9: the arm and leg a fighter behind three-quarter horizontal cover shows, drawn per fight (0…3: the
# arm ZONE_LARM + v % 2, the leg ZONE_LLEG + v // 2)
S_SHOWN = S.next()
S_READIED = S.next()  # B-9.1: 1 while the fighter holds a readied attack (until the start of its next turn)
S_MORE_HITS = S.next()  # B-9.2: further hits of the unarmed full attack just made (set by the attack, 0 otherwise)
# B-9.6 the penalty of the ground i fights on (its side's terrain) to its checks of active actions, set from the
# options at the start of a fight (kernel ``_set_ground``)
S_GROUND_PEN = S.next()
# B-6.7: 1 in a coma (a wound with no cell left on the track; only a helpless fighter finished, B-9.8)
S_COMA = S.next()
# per side, kept in row 0 (side a) and row 1 (side b) like S_SIDE_IN: blows of level l the side took in this
# fight at S_TOOK + l (the header's loser_wounds block)
S_TOOK = S.block(NLEVELS)
# S_HARMED: blows above level none
NS = S.size
G_NONE, G_CONTROLS, G_HELD = 0, 1, 2  # S_GRAPPLE values (B-3.12)
BROKEN_DEGRADED, BROKEN_DESTROYED = 1, 2
HELD_STUCK = 2  # S_HELD_* value of a weapon stuck in an obstacle (B-9.7; 0 dropped, 1 in hand, −1 being readied)

# -- counters (int64[K]): the shared header of brutal_sim.core.counters ----------------------------
COUNTERS = CounterLayout(
    causes=CAUSE_NAMES, outcomes=OUTCOME_NAMES, levels=LEVEL_NAMES, zones=("head", "torso", "arm", "leg"),
    special="weapon_breaks",
    descriptions=(("track_full", "track full"), ("knocked_out", "knocked out"), ("mortal", "mortal wound"),
                  ("hard_block", "hard block"), ("light_damage", "light damage"),
                  ("weapon_breaks", "own weapon broken in a hard block"), ("exhausted", "exhausted (B-7.8)")))
C_WINS = COUNTERS.wins          # [2] wins of side a, b
C_DRAWS = COUNTERS.draws        # [1]
C_CAUSE = COUNTERS.cause        # [2 loser][NCAUSES cause]
C_DEATHS = COUNTERS.death       # [2] deaths: failed toughness 12 after a mortal wound (B-5.4), exhaustion (B-7.8)
C_ATTACKS = COUNTERS.attack     # [2 attacker][5 outcome]
C_WOUNDS = COUNTERS.wound       # [2 taker][6 level][4 zone group]
C_BREAKS = COUNTERS.special_at  # [2] own weapon broken in a hard block
C_DAMAGE = COUNTERS.damage      # [2 taker] sum of final damage taken
C_ONE_BLOW = COUNTERS.one_blow  # [2 loser] lost to the only harmful blow it took (not fled)
C_LOSER_WOUNDS = COUNTERS.loser_wounds  # [2 loser][6 level][LOSER_WOUNDS_CAP + 1] blows of each level the loser took
C_ROUNDS = COUNTERS.rounds      # [cap + 1] histogram of the round in which a duel was decided, then rounds_a [cap + 1]
#: what toolbox.tally.count_decision reads of this layout
TALLY = COUNTERS.tally(S_TOOK)


def n_counters(round_cap: int) -> int:
    return COUNTERS.size(round_cap)


# -- the group block after the header in group fights (docs/groups.md; brutal_sim.core.counters) --
GROUP = GroupBlock(NCAUSES)
GB_SURVIVORS, GB_FIGHTERS, GB_PER_FIGHTER = GROUP.survivors, GROUP.fighters, GROUP.per_fighter
GB_OUT, GB_DEAD, GB_STANDING, GB_DEALT, GB_TAKEN = GROUP.out, GROUP.dead, GROUP.standing, GROUP.dealt, GROUP.taken


def n_fight_counters(round_cap: int, n_fighters: int) -> int:
    """Length of a group fight's counter row: the header, then the group block."""
    return n_counters(round_cap) + GROUP.size(n_fighters)
