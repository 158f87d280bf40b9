"""Int codes and array layouts of the Vereteno ruleset (compile step ↔ kernels).

A fighter compiles to one ``int64[NF]`` row (``P_*``), its changing state in a duel is one
``int64[NS]`` row (``S_*``); counters follow the shared
:class:`~brutal_sim.core.counters.CounterLayout` with the names below. The rule options' row
(``O_*``) is declared with the options, in :mod:`.options`. The rows' indices are handed out in
the order they are declared by one :class:`~brutal_sim.core.slots.Slots` each; module-level ints
are compile-time constants for numba.
"""

from __future__ import annotations

from ...core import battle as B
from ...core.counters import MAX_SIDE, CounterLayout, GroupBlock  # noqa: F401  (MAX_SIDE: sides of a fight)
from ...core.slots import Slots
from .model import MAX_THROWN

# -- attack kinds (V-3.1–V-3.3); their AP cost and pool modifier are the kernel's KIND_* arrays ----
K_NONE, K_QUICK, K_STANDARD, K_POWER = 0, 1, 2, 3
KIND_CODES = {"none": K_NONE, "quick": K_QUICK, "standard": K_STANDARD, "power": K_POWER}

# -- reactions (V-7.2) and spending policies (V-7.3, V-7.4) ----------------------------------------
R_BEST, R_DEFEND, R_DODGE, R_NONE = range(4)
REACTION_CODES = {"best": R_BEST, "defend": R_DEFEND, "dodge": R_DODGE, "none": R_NONE}
AS_TRAUMA_FIRST, AS_DAMAGE_ONLY, AS_DISARM_FIRST, AS_INTIMIDATE, AS_SUPPRESS_COVERED = range(5)
ATTACK_SPENDING_CODES = {"trauma_first": AS_TRAUMA_FIRST, "damage_only": AS_DAMAGE_ONLY,
                         "disarm_first": AS_DISARM_FIRST, "intimidate": AS_INTIMIDATE,
                         "suppress_covered": AS_SUPPRESS_COVERED}
AS_GRAPPLE_FIRST = len(ATTACK_SPENDING_CODES)  # V-4.5: every extra into the grapple (V-3.12, V-3.13, V-6.10)
ATTACK_SPENDING_CODES["grapple_first"] = AS_GRAPPLE_FIRST
DS_BLOCK_FIRST, DS_COUNTER_FIRST = range(2)
DEFENCE_SPENDING_CODES = {"block_first": DS_BLOCK_FIRST, "counter_first": DS_COUNTER_FIRST}

# -- shots (V-11.2–V-11.5) and the moves and engaged handling of a tactic (V-15.1, V-15.2, V-15.4);
# the shots' AP cost and pool modifier are the kernel's SHOT_* arrays ---------------------------------
SH_NONE, SH_HIP, SH_STANDARD, SH_AIMED, SH_BURST = range(5)
SHOT_CODES = {"none": SH_NONE, "hip": SH_HIP, "standard": SH_STANDARD, "aimed": SH_AIMED, "burst": SH_BURST}
SH_THROW = len(SHOT_CODES)  # V-11.7: a throw (the next item of the fighter's thrown supply)
SHOT_CODES["throw"] = SH_THROW
MV_HOLD, MV_ADVANCE, MV_CLOSE_IN, MV_KEEP_DISTANCE = range(4)
MOVE_CODES = {"hold": MV_HOLD, "advance": MV_ADVANCE, "close_in": MV_CLOSE_IN, "keep_distance": MV_KEEP_DISTANCE}
EN_SHOOT, EN_DRAW, EN_STEP_BACK = range(3)
ENGAGED_CODES = {"shoot": EN_SHOOT, "draw": EN_DRAW, "step_back": EN_STEP_BACK}

# -- orders (V-13.4): the order a commander gives, and the checks an order bonus goes to ------------
ORDER_AUTO, ORDER_SHOOTING, ORDER_MELEE, ORDER_DEFEND, ORDER_NIMBLENESS = range(5)
ORDER_CODES = {"auto": ORDER_AUTO, "shooting": ORDER_SHOOTING, "melee": ORDER_MELEE, "defend": ORDER_DEFEND,
               "nimbleness": ORDER_NIMBLENESS}
#: cells of S_ORD: shots (Стрельба), melee attacks, melee defences (Ближний бой), dodges (Проворство)
ORD_SHOOT, ORD_MELEE, ORD_DEFEND, ORD_DODGE = range(4)
#: V-1.7 a fighter immune to fear (P_FEAR)
FEAR_IMMUNE = -1

# -- range bands (V-10.1, V-16.1): upper bounds in metres of band b = 0 … 4 ---------------------------
BAND_NAMES = ("point_blank", "close", "medium", "long", "extreme")
BAND_POINT_BLANK, BAND_CLOSE, BAND_MEDIUM, BAND_LONG, BAND_EXTREME = range(len(BAND_NAMES))
BAND_CODES = {name: b for b, name in enumerate(BAND_NAMES)}
BAND_METRES = (1, 2, 20, 100, 1000)
#: V-10.1 no band beyond the extreme one: a target farther than this cannot be shot
MAX_RANGE = BAND_METRES[-1]
#: V-3.15, V-10.7: melee reach (point blank); a fighter this close is engaged (V-11.11)
REACH = BAND_METRES[BAND_POINT_BLANK]
#: V-3.15: a long melee weapon's reach (close range)
REACH_LONG = BAND_METRES[BAND_CLOSE]

# -- blow levels (counter names); a fighter's state counts its blows of each level -------------------
LEVEL_NAMES = ("none", "scratch", "wound", "trauma", "out")
LVL_NONE, LVL_SCRATCH, LVL_WOUND, LVL_TRAUMA, LVL_OUT = range(len(LEVEL_NAMES))
N_LEVELS = len(LEVEL_NAMES)

# -- weapon records (V-8.2): fields of one record, and the fighter's two records --------------------
W = Slots()
W_PRESENT, W_MOD, W_INIT, W_DAMAGE, W_CRIT, W_LIGHT, W_HEAVY, W_TWO_HANDED, W_PIERCING = W.take(9)
W_RANGE, W_AUTOMATIC, W_SINGLE_SHOT = W.take(3)  # a gun's effective band (V-11.10), V-11.12, V-11.14 (a)
W_LONG_RELOAD, W_MAGAZINE = W.take(2)  # V-11.14: long reload, rounds (options long_reload, ammo)
W_HIGH_CAPACITY = W.next()  # V-11.12: a high-capacity magazine (option high_capacity)
W_LONG = W.next()  # V-3.15: a long melee weapon (reach close range)
W_DIALS = W.next()  # V-11.21: bit k set if the gun has DIAL_PROPERTIES[k] (options <property>_dice)
WN = W.size
WEAPON_SLOTS = Slots()
SLOT_WEAPON = WEAPON_SLOTS.next()  # the melee weapon (a gunman's sidearm, V-10.9)
SLOT_UNARMED = WEAPON_SLOTS.next()  # bare hands (V-5.6)
SLOT_GUN = WEAPON_SLOTS.next()  # the ranged weapon (V-11, V-16.2)

# -- the battle block (core.battle) first in both rows: side, place, targeting policy, the round it
# arrives (V-14); in the state out (its cause + 1), dead and the position on the line (metres, V-10.3)
P_SIDE, P_RANK, P_TARGETING, P_ARRIVE = B.F_SIDE, B.F_RANK, B.F_TARGETING, B.F_ARRIVE
S_OUT, S_DEAD, S_X = B.B_OUT, B.B_DEAD, B.B_X

# -- fighter parameters (int64[NF]) ----------------------------------------------------------------
P = Slots(B.FIGHTER_BLOCK)  # after the battle block (core.battle)
P_BODY, P_AGILITY, P_MELEE, P_AGIL_SKILL, P_HEALTH, P_WILL, P_AP = P.take(7)
P_ARMOUR_CLASS, P_ARMOUR_QUALITY, P_SHIELD_CLASS = P.take(3)
P_T_KIND, P_T_KEEP, P_REACTION, P_ATTACK_SPENDING, P_DEFENCE_SPENDING = P.take(5)  # tactic and policies
P_WEAPONS = P.block(WEAPON_SLOTS.size * WN)  # slot s's record at P_WEAPONS + s * WN
P_CRY_POOL = P.next()  # battle cry pool: Эмпатия + Влияние (seed 41–43)
P_T_CRY = P.next()  # 1 if the tactic opens each turn with a battle cry
P_SHOOT_POOL = P.next()  # V-11.1: Ловкость + Стрельба
P_SPEED = P.next()  # V-10.4: metres a move
P_COVER = P.next()  # V-10.6, V-11.17: the strength of its cover at the start
P_SIZE = P.next()  # V-11.19: dice added to shots at it
P_T_SHOT, P_T_MOVE, P_T_ENGAGED = P.take(3)  # the tactic's shot (SH_*), move (MV_*), engaged handling (EN_*)
P_T_BRACE = P.next()  # 1 if the tactic braces its gun (V-15.5)
P_T_OVERWATCH = P.next()  # 1 if the tactic sets its AP left aside for sector control (V-15.7)
P_PERC_POOL = P.next()  # V-11.18: Интеллект + Наблюдательность
P_SUPPRESS_AT = P.next()  # V-15.9 suppress_covered: the target's armour + cover dice from which extras go to Will
P_T_REDRAW = P.next()  # V-10.9: 1 if the tactic readies its gun again once no longer engaged
P_FAST_HAND = P.next()  # V-10.9: 1 with the talent «Самая быстрая рука в Славии» (no readying under start_ready = no)
P_THROW_POOL = P.next()  # V-11.20: Телосложение + Сила
P_N_THROWN = P.next()  # V-11.20: items carried to throw
P_THROWN = P.block(MAX_THROWN * WN)  # V-11.20: item k's weapon record at P_THROWN + k * WN
P_T_PRONE = P.next()  # V-10.8: 1 if the tactic lies down to shoot (and stands up once engaged)
P_PRONE = P.next()  # V-10.6: 1 if the fighter starts lying prone by choice
P_STEALTH_POOL = P.next()  # V-10.10: Ловкость + Скрытность
# V-13 Will, orders
P_COMMANDER = P.next()  # V-13.4: the row of its commander in the fight, −1 none (compile_sides)
P_ORDER_FIRST = P.next()  # V-15.10: 1 if it gives orders (order_first)
P_ORDER = P.next()  # V-13.4: the order it gives (ORDER_* code)
P_LEAD_POOL = P.next()  # V-13.4: Эмпатия + Лидерство
P_THREAT_TARGETS = P.next()  # V-13.2: enemies its battle cry threatens in a fight of several
P_TAUNT = P.next()  # V-15.10, V-13.3: 1 if its battle cry is a taunt (negotiation)
P_FEAR = P.next()  # V-1.7 (threat_resistances = v1_7): dice a threat at it gains, FEAR_IMMUNE immune
P_INSPIRE = P.next()  # V-13.7 (inspire = on): 1 if it inspires its allies
P_LEADERSHIP = P.next()  # V-13.7: Лидерство, the most Will an inspiration restores
P_SPREAD = P.next()  # V-15.9: 1 if a long burst spreads one success to each other target within 2 m (one_each)
NF = P.size
#: V-5.6 unarmed profile: mod 0, init 0, damage 1, crit "—" (0: no trauma, no disarm)
UNARMED_PROFILE = {W_PRESENT: 1, W_MOD: 0, W_INIT: 0, W_DAMAGE: 1, W_CRIT: 0}

# -- fighter state (int64[NS]) ---------------------------------------------------------------------
S = Slots(B.STATE_BLOCK)  # after the battle block (core.battle)
S_HEALTH, S_WILL, S_AP, S_AP_DEBT, S_INIT_ROLL, S_INIT_BONUS = S.take(6)
S_PRONE, S_DROPPED, S_NO2H, S_PEN_MELEE, S_PEN_AGIL, S_BLEED, S_DMG_TURN, S_DMGCHK = S.take(8)  # conditions
#: bits of S_DROPPED: the melee weapon dropped (V-3.9), or stowed while the gun is in hand (V-10.9); either
#: leaves bare hands for melee (V-5.6, V-11.22)
HAND_DROPPED, HAND_GUN = 1, 2
S_ARMOUR, S_SHIELD = S.take(2)  # armour and shield class left (V-5.4)
S_STEALTH = S.next()  # V-2.5: the stealth attack still due (option stealth_attack's code)
S_HARMED = S.next()  # blows taken with a level above none (for the shared one_blow counter)
#: V-3.17: Chernobog tokens the GM spent from side ``side``'s pool (reactions, yze prayers, jams): a per-side
#: cell, ``S[side, S_TOKENS_USED]`` (core.battle "Fight-wide and per-side state"), the pool shared by a side
S_TOKENS_USED = S.next()
S_IMMOBILISED = S.next()  # V-6.9: 1 while the fighter is immobilised
S_PEN_INFL = S.next()  # V-6.4: dice off Влияние checks (the battle cry)
S_RELOAD = S.next()  # V-11.14: 1 while the gun needs a reload
S_HIP_CHAIN = S.next()  # V-11.14 (b): hip shots in a row with the gun
S_COVER = S.next()  # V-11.17: cover strength left
S_BRACED = S.next()  # V-11.16: 1 while the gun is braced
S_AMMO = S.next()  # V-11.14 (ammo = magazine): rounds left in the gun
S_SECTOR = S.next()  # V-11.13: AP set aside for sector shots (0: no sector control)
S_HALFSPD = S.next()  # V-10.5: HALFSPD traumas taken
S_PEN_SHOOT = S.next()  # V-6.4: dice off shooting checks
S_SIGHT = S.next()  # V-11.18 (visibility = poor): 0 not checked this turn, 1 sees its foe, 2 blind
S_UNREADY = S.next()  # V-10.9 (start_ready = no): 1 until the weapon in hand at the start is readied
S_GUN_DOWN = S.next()  # V-10.9: 1 while the gun lies on the ground (dropped for bare hands)
#: blows of level l side ``side`` took in this fight at ``S[side, S_TOOK + l]`` (a per-side cell; the
#: loser_wounds block)
S_TOOK = S.block(N_LEVELS)
S_THROWN = S.next()  # V-11.20: items of its supply thrown so far (the next is item S_THROWN)
S_THROW_READY = S.next()  # V-11.20, V-10.9 (throw_ready = quick): 1 while the next item to throw is in hand
S_PEN_STR = S.next()  # V-6.4: dice off Сила checks (throws)
S_LYING = S.next()  # V-10.8: 1 while lying prone by choice (not knocked down: S_PRONE)
S_SURPRISE = S.next()  # V-2.5: 1 if the fighter adds the surprise dice to its first initiative
# V-13 Will, orders
#: V-13.4: the order bonuses it holds, one cell per ORD_* (dice added to those checks) ...
S_ORD = S.block(4)
#: ... and the last round each lasts (the order's round and the next)
S_ORD_UNTIL = S.block(4)
S_ORDERED_UNTIL = S.next()  # V-15.10: the last round the commander's own order lasts
S_THREATENED = S.next()  # V-13.2: 1 while a threat being resolved targets it
S_INSPIRED = S.next()  # V-13.7: 1 once an ally has tried to inspire it this fight
#: V-6.10: the grapple a fighter is in: its partner's row + 1 when it holds the partner (the grappler), −(row
#: + 1) when the partner holds it (grappled), 0 in none
S_GRAPPLE = S.next()
NS = S.size
#: bit of S_DROPPED (throw_ready = quick): the melee weapon stowed while the thrower holds an item to throw
#: or nothing after a throw (bare hands in melee, V-5.6, until it readies the weapon, V-10.9)
HAND_THROW = 4
#: bit of S_DROPPED: the gun knocked out of hand by a DROP trauma (V-8.4), the melee weapon still stowed (bare
#: hands, V-5.6) until the fighter picks the gun up at the start of a turn (V-3.9)
HAND_GUN_DROPPED = 8

# -- trauma table (V-8.4): int64[36, NT], row (tens − 1) * 6 + (units − 1) ---------------------------
T = Slots()
(T_SHOCK, T_DROP, T_PRONE, T_PEN_MELEE, T_PEN_AGIL, T_DMGCHK, T_OUT, T_BLEED, T_DMG_TURN,
 T_NO2H, T_DEAD) = T.take(11)
T_PEN_INFL = T.next()  # V-8.4 PEN(infl)
T_HALFSPD = T.next()  # V-8.4 HALFSPD (V-10.5)
T_PEN_SHOOT = T.next()  # V-8.4 PEN(shoot)
T_PEN_STR = T.next()  # V-8.4 PEN(str) (throws, V-11.20)
NT = T.size

# -- counters --------------------------------------------------------------------------------------
CAUSE_NAMES = ("health", "will", "trauma_out", "death")
CAUSE_HEALTH, CAUSE_WILL, CAUSE_TRAUMA_OUT, CAUSE_DEATH = range(len(CAUSE_NAMES))
N_CAUSES = len(CAUSE_NAMES)
OUTCOME_NAMES = ("miss", "defended", "dodged", "armour_stopped", "hit")
OUT_MISS, OUT_DEFENDED, OUT_DODGED, OUT_ARMOUR_STOPPED, OUT_HIT = range(len(OUTCOME_NAMES))
N_OUTCOMES = len(OUTCOME_NAMES)

COUNTERS = CounterLayout(
    causes=CAUSE_NAMES, outcomes=OUTCOME_NAMES, levels=LEVEL_NAMES, zones=("body",),
    special="armour_degraded",
    descriptions=(
        ("health", "Health ≤ 0"), ("will", "Will ≤ 0"), ("trauma_out", "trauma: unconscious/paralysed"),
        ("death", "trauma: dead"), ("defended", "blocked by a defence"),
        ("armour_stopped", "armour stopped all damage"),
        ("none", "no damage (armour, or a hit for 0)"), ("scratch", "1 damage"), ("wound", "2+ damage"),
        ("trauma", "trauma, still fighting"), ("out", "put out of the fight"),
        ("armour_degraded", "armour/shield class lost to rolled 1s"),
        ("deaths", "losers with a DEAD trauma, whatever put them out first")))
C_WINS = COUNTERS.wins
C_DRAWS = COUNTERS.draws
C_CAUSE = COUNTERS.cause          # [2 loser][4 cause]
C_DEATHS = COUNTERS.death         # [2] losers killed by a DEAD trauma
C_ATTACKS = COUNTERS.attack       # [2 attacker][5 outcome]
C_WOUNDS = COUNTERS.wound         # [2 taker][5 level][1 zone]
C_DEGRADED = COUNTERS.special_at  # [2] armour + shield class points lost
C_DAMAGE = COUNTERS.damage        # [2 taker] sum of Health damage from blows
C_ONE_BLOW = COUNTERS.one_blow    # [2 loser] lost to the only blow above level none
C_LOSER_WOUNDS = COUNTERS.loser_wounds  # [2 loser][5 level][LOSER_WOUNDS_CAP + 1]
C_ROUNDS = COUNTERS.rounds        # [cap + 1], then rounds_a [cap + 1]
#: what toolbox.tally.count_decision reads of this layout
TALLY = COUNTERS.tally(S_TOOK)


def n_counters(round_cap: int) -> int:
    return COUNTERS.size(round_cap)

#: the group block of a fight of several a side (V-14, docs/groups.md)
GROUP = GroupBlock(N_CAUSES)


def n_fight_counters(round_cap: int, n_fighters: int) -> int:
    """Length of a group fight's counter row: the header, then the group block."""
    return n_counters(round_cap) + GROUP.size(n_fighters)
