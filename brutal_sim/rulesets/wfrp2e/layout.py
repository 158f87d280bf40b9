"""Int codes and array layouts of the WFRP 2e ruleset, shared by its compile step and kernels.

A fighter compiles to one ``int64[NF]`` row (``P_*``); the changing state of a duel is an
``int64[3, NS]`` array: rows 0 and 1 are the fighters (``S_*``), row 2 holds duel-wide values
(``G_*``). The fighter and state rows begin with the battle block of :mod:`brutal_sim.core.battle`
(side, out, position …), read by the shared mechanics of :mod:`brutal_sim.toolbox.battle`. The
rule options' row (``O_*``) is declared with the options, in :mod:`.options`. The critical table
model (W-5.4) compiles to ``grid int64[100, CRIT_COLUMNS]`` (d100 roll − 1 × critical value →
effect number) and ``effects int64[4 zones, n effects + 1, NFX]``. The rows' indices are handed
out by :class:`~brutal_sim.core.slots.Slots` in the order they are declared. Module-level ints are
compile-time constants for numba.
"""

from ...core import battle as B
from ...core.counters import MAX_SIDE, CounterLayout, GroupBlock  # noqa: F401  (MAX_SIDE: sides of a fight)
from ...core.slots import Slots

# -- hit locations (W-4.2) and the zone groups of the counters -------------------------------------
LOCATION_NAMES = ("head", "right_arm", "left_arm", "body", "right_leg", "left_leg")
LOC_HEAD, LOC_RARM, LOC_LARM, LOC_BODY, LOC_RLEG, LOC_LLEG = range(len(LOCATION_NAMES))
#: upper bound of each location's band of reversed to-hit rolls (W-4.2)
LOCATION_UPPER = (15, 35, 55, 80, 90, 100)
ZONE_NAMES = ("head", "body", "arm", "leg")
ZONE_HEAD, ZONE_BODY, ZONE_ARM, ZONE_LEG = range(len(ZONE_NAMES))
LOCATION_ZONE = (ZONE_HEAD, ZONE_ARM, ZONE_ARM, ZONE_BODY, ZONE_LEG, ZONE_LEG)

# -- counter names ----------------------------------------------------------------------------------
OUTCOME_NAMES = ("miss", "parried", "dodged", "hit")
OUT_MISS, OUT_PARRIED, OUT_DODGED, OUT_HIT = range(len(OUTCOME_NAMES))
LEVEL_NAMES = ("none", "wounded", "heavily_wounded", "critical", "out")
LVL_NONE, LVL_WOUNDED, LVL_HEAVILY, LVL_CRITICAL, LVL_OUT = range(len(LEVEL_NAMES))
CAUSE_NAMES = ("critical", "helpless", "fled")
CAUSE_CRITICAL, CAUSE_HELPLESS, CAUSE_FLED = range(len(CAUSE_NAMES))

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


# -- the group block after the header in fights of several a side (W-13, core.counters) -------------
GROUP = GroupBlock(N_CAUSES)


def n_fight_counters(round_cap: int, n_fighters: int) -> int:
    """Length of a group fight's counter row: the header, then the group block."""
    return n_counters(round_cap) + GROUP.size(n_fighters)


# -- tactics (W-8) and reactions ------------------------------------------------------------------
MELEE_TACTIC_NAMES = ("guarded", "swift", "berserk", "cautious", "turtle", "feinter")
RANGED_TACTIC_NAMES = ("marksman", "shoot_then_draw", "kite")
TACTIC_NAMES = MELEE_TACTIC_NAMES + RANGED_TACTIC_NAMES + ("rush", "overwatch", "grappler")
#: the tactics that need a missile weapon
SHOOTING_TACTIC_NAMES = RANGED_TACTIC_NAMES + ("overwatch",)
#: the rule of each tactic (W-8)
TACTIC_RULES = dict(zip(TACTIC_NAMES, ("W-8.1", "W-8.2", "W-8.3", "W-8.4", "W-8.5", "W-8.6", "W-8.9", "W-8.10",
                                       "W-8.11", "W-8.12", "W-8.14", "W-8.13")))
# guarded (0): the kernel's plan when the tactic is none of the melee five below
(T_SWIFT, T_BERSERK, T_CAUTIOUS, T_TURTLE, T_FEINTER, T_MARKSMAN, T_SHOOT_THEN_DRAW, T_KITE,
 T_RUSH, T_OVERWATCH, T_GRAPPLER) = range(1, len(TACTIC_NAMES))
REACTION_NAMES = ("dodge_first", "parry_first", "best", "none")
# dodge_first (0): the kernel's choice when the reaction is none of the three below
R_PARRY_FIRST, R_BEST, R_NONE = range(1, len(REACTION_NAMES))
REACT_NONE, REACT_PARRY, REACT_DODGE = 0, 1, 2

# -- a weapon record (WN fields) ---------------------------------------------------------------------
W = Slots()
W_PRESENT = W.next()
W_DAMAGE = W.next()  # the damage modifier (SB + it, W-4.7)
W_IMPACT = W.next()
W_FAST = W.next()
W_SLOW = W.next()
W_PRECISE = W.next()
W_DEFENSIVE = W.next()
W_ARMOUR_PIERCING = W.next()
W_BALANCED = W.next()
W_TIRING = W.next()
W_UNARMED = W.next()
W_CHOPPA = W.next()  # the orc choppa (W-9.3, option choppa)
W_SHORT = W.next()  # W-7.4 short range (yards); > 0 marks a missile weapon
W_LONG = W.next()  # W-7.4 long range (yards), 0 none
W_RELOAD = W.next()  # W-7.10 half actions of reloading after a shot
W_RELOAD_FULL = W.next()  # 1: the reload is in full actions (whole turns)
W_THROWN = W.next()  # damage SB + W_DAMAGE (thrown); else flat W_DAMAGE (W-7.1)
W_ENGAGED_FIRE = W.next()  # W-7.6 fires while engaged
W_UNRELIABLE = W.next()  # W-7.13 Unreliable or Experimental: may jam (option misfire_band)
W_SHRAPNEL = W.next()  # W-7.13 Shrapnel (the blunderbuss; option shrapnel)
W_BLACKPOWDER = W.next()  # group blackpowder (W-7.10 Master Gunner)
W_SHIELD = W.next()  # a shield: shots at its bearer −10 (W-7.9)
W_SNARE = W.next()  # W-7.13 Snare (net, bola, lasso): thrown from the supply; a hit entangles (option snare)
WN = W.size
SLOTS = Slots()  # a fighter's weapon slots
SLOT_MAIN, SLOT_OFF, SLOT_FISTS = SLOTS.take(3)
SLOT_MISSILE = SLOTS.next()  # the missile weapon (W-7), in the main hand
SLOT_MISSILE_OFF = SLOTS.next()  # a second one-handed missile weapon, in the off hand (W-7.8)
QUALITY_FIELDS = {"impact": W_IMPACT, "fast": W_FAST, "slow": W_SLOW, "precise": W_PRECISE,
                  "defensive": W_DEFENSIVE, "armour_piercing": W_ARMOUR_PIERCING, "balanced": W_BALANCED,
                  "tiring": W_TIRING}

# -- the battle block (core.battle): side, place in the line, targeting policy; in the state: out (its
# cause + 1), dead, foe, engagers, order of going out, position on the line (yards, W-11.5), the turn
# order, the sides still in and the round (core.battle, "Fight-wide and per-side state")
P_SIDE, P_RANK, P_TARGETING, P_ARRIVE, P_INIT_SHARE = B.F_SIDE, B.F_RANK, B.F_TARGETING, B.F_ARRIVE, B.F_INIT_SHARE
S_OUT, S_DEAD, S_X, S_AWAY = B.B_OUT, B.B_DEAD, B.B_X, B.B_AWAY

# -- fighter row (int64[NF]) ------------------------------------------------------------------------
P = Slots(B.FIGHTER_BLOCK)  # after the battle block (core.battle)
P_WS = P.next()
P_BS = P.next()
P_AG = P.next()
P_A = P.next()
P_W = P.next()
P_SB = P.next()
P_TB = P.next()
P_DODGE = P.next()  # the Dodge Blow target, armour Ag penalty taken off; −1 without the skill (W-4.4)
P_FORTUNE = P.next()
P_FATE = P.next()
P_TACTIC = P.next()  # T_* (TACTIC_NAMES)
P_MELEE_TACTIC = P.next()  # T_* of MELEE_TACTIC_NAMES: the tactic of a shooter or rusher once engaged (W-8.10)
P_REACTION = P.next()  # R_* (REACTION_NAMES)
P_AG_PENALTY = P.next()
P_MIGHTY_BLOW = P.next()
P_STREET_FIGHTING = P.next()
P_FLEE_AT = P.next()  # flees at or below these Wounds (W-3.16); −1 never
P_M = P.next()  # Movement (W-11.1)
# missile talents (W-7.10, W-7.14, W-7.8): 1 with the talent
P_SURE_SHOT = P.next()  # ignores 1 AP on a ranged hit (W-7.13)
P_SHARPSHOOTER = P.next()  # aim +20 instead of +10 (W-7.3)
P_MIGHTY_SHOT = P.next()  # +1 missile damage (W-7.14)
P_RAPID_RELOAD = P.next()  # reload −1 half action (W-7.10)
P_MASTER_GUNNER = P.next()  # blackpowder reload −1 half action more (W-7.10)
P_QUICK_DRAW = P.next()  # one Ready a round is free (W-7.12)
P_AMBIDEXTROUS = P.next()  # no −20 to WS or BS with the off hand (W-7.8)
P_THROWN = P.next()  # W-7.12: the supply of a thrown missile weapon (items); −1 unlimited
P_S = P.next()  # Strength (W-7.13: the escape from a snare)
P_PUSH = P.next()  # W-11.7: an engaged kiter or marksman manoeuvres (pushes its foe away) instead of drawing
P_ATTACK_SHOT = P.next()  # attack --shot: the measured shot as its first turn fires it (0), unaimed (1) or aimed (2)
P_WRESTLING = P.next()  # W-12.1, W-12.4: 1 with the Wrestling talent (+10 WS to grapple, +10 S to break free)
P_AP = P.block(N_ZONES)  # armour points of zone z at P_AP + z (W-9.2)
P_WEAPONS = P.block(SLOTS.size * WN)  # weapon slot s at P_WEAPONS + s * WN
NF = P.size

# -- fighter state (int64[N, NS], one row per fighter) ----------------------------------------------
S = Slots(B.STATE_BLOCK)  # after the battle block (core.battle)
S_W = S.next()
S_FORTUNE = S.next()
S_STUN = S.next()
S_PRONE = S.next()
S_HELD_MAIN, S_HELD_OFF = S.take(2)  # the item of slot s is in hand at S_HELD_MAIN + s
S_PARRY_STANCE = S.next()
S_DEF_STANCE = S.next()
S_CAUTIOUS = S.next()
S_NO_REACT = S.next()
S_PARRY_USED = S.next()
S_DODGE_USED = S.next()
S_SURPRISED = S.next()
S_PEN_WS = S.next()
S_PEN_AG = S.next()
S_HARMED = S.next()  # hits taken with a level above none (for the shared one_blow counter)
S_HELPLESS = S.next()  # W-6.2: helpless and still in the fight (helpless = attackable)
S_RUNNING = S.next()  # W-11.2: ran in its last turn (until its next turn)
S_MISSILE = S.next()  # W-7: the missile weapon is in hand (the melee items stowed)
S_LOADED = S.next()  # W-7.10: the missile weapon is loaded
S_OFF_MISSILE = S.next()  # W-7.8: the off-hand missile weapon is in hand (dropped when the melee items are drawn)
S_LOADED_OFF = S.next()  # W-7.10: the off-hand missile weapon is loaded
S_RELOADING = S.next()  # W-7.10: half actions of the reload under way
S_SUPPLY = S.next()  # W-7.12: shots left (thrown items, or ammunition with option ammo); −1 unlimited
S_KEPT = S.next()  # W-11.6: a delayed half action kept for a shot (overwatch, W-8.14) until its next turn
S_ENTANGLED = S.next()  # W-7.13 snare = entangle: caught by a snare, its turns go to escaping
S_ENGAGED = S.next()  # W-11.3: adjacent to its foe (within 2 yards), kept by kernel.movement._settle
S_AIM = S.next()  # W-7.3 aim = next_action: the bonus of an aim kept for the fighter's next action (0 none)
# attack's measure (kernel.turn._first_shot): 1 while the fighter's next shot is held, not fired; 2 once held, with
# its slot, band and aim, and the count of its foe's side still in, set aside to stop the turn there
S_HOLD = S.next()
S_HELD_SLOT, S_HELD_BAND, S_HELD_AIM, S_HELD_IN = S.take(4)
S_GRAPPLE = S.next()  # W-12: the row + 1 of the fighter it grapples with (0 none), kept by kernel.grapple
S_HOLDING = S.next()  # W-12.5: 1 when it is the grappler (holds its S_GRAPPLE partner), 0 when it is held
S_TOOK = S.block(N_LEVELS)  # per-side cells: hits of level l side s took in this duel at S[s, S_TOOK + l]
NS = S.size
#: what toolbox.tally.count_decision reads of this layout
TALLY = COUNTERS.tally(S_TOOK)

# -- distances (W-3.3, W-11), in yards --------------------------------------------------------------
CHARGE_DISTANCE = 4  # W-3.3, W-11.2: yards needed for a charge
ENGAGE_DISTANCE = 2  # W-11.3: adjacent (one square), engaged
#: range bands of a missile weapon (W-7.4, W-7.5)
BAND_SHORT, BAND_LONG, BAND_EXTREME, BAND_OUT = range(4)
#: attack --shot (P_ATTACK_SHOT): the first shot of the first turn, as it is fired, unaimed or aimed
ATTACK_SHOT_CODES = {"unaimed": 1, "aimed": 2}

# -- critical table (W-5.4, crit_model = table) ---------------------------------------------------------
CRIT_COLUMNS = 32  # grid columns: critical value 0 … 31 (higher values use column 31)
FX = Slots()  # the fields of an effect
FX_OUT = FX.next()
FX_DEATH = FX.next()
FX_HELPLESS = FX.next()
FX_STUN = FX.next()
FX_DROP = FX.next()
FX_PRONE = FX.next()
FX_PEN_WS = FX.next()
FX_PEN_AG = FX.next()
NFX = FX.size
