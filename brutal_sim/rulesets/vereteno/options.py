"""Vereteno rule options: every GAP of ``docs/rules/vereteno.md`` with its rule id and default;
their slots in the kernels' ``int64[NO]`` option row (``O_*``) and the codes of the choices the
kernels compare with, both derived from the specs.
"""

from __future__ import annotations

import numpy as np

from ...core.options import OptionRow, OptionSpec, RuleOptions
from .model import DIAL_PROPERTIES

OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec("one_value", "V-1.3", "-2", ("-2", "-1"), codes=(-2, -1),
               help="successes a rolled 1 counts (app, yze: −2; fvtt: −1)"),
    OptionSpec("desperation", "V-1.4", "fvtt", ("fvtt", "yze", "app"),
               help="pool ≤ 0: fvtt rolls 1d20 (pool 0) or 2d20 (pool < 0), 1 success only if every die is 20, "
                    "else at most 0; yze rolls 2d20 normally and needs 2 successes for 1; app rolls nothing (0)"),
    OptionSpec("ap_refill", "V-2.3", "round_start", ("round_start", "turn_start"),
               help="action points refill at the start of each round (reactions before one's turn eat that "
                    "round's pool) or at the start of one's own turn"),
    OptionSpec("init_weapon_term", "V-2.4", "initiative", ("initiative", "modifier"),
               help="initiative adds the weapon's initiative value (seed) or its attack modifier (fvtt)"),
    OptionSpec("init_roll", "V-2.4", "once_per_fight", ("once_per_fight", "every_round"),
               help="initiative d20 rolled once and kept, or rolled every round; +2 bonuses apply from the next round"),
    OptionSpec("surprise", "V-2.5", "none", ("none", "a", "b"),
               help="the side that catches the other off guard (gets +2d20 to initiative)"),
    OptionSpec("surprise_init", "V-2.5", "add", ("add", "keep_highest"),
               help="surprise initiative: add two more d20 to the sum, or roll 3d20 and keep the highest"),
    OptionSpec("stealth_attack", "V-2.5", "none", ("none", "extra_attack", "dice"),
               help="the surprising side's stealth approach succeeded: its first attacking action brings a free "
                    "extra standard attack, or +3 dice to its first attack (needs surprise = a | b, or stealth = "
                    "a | b: then only if the stealth check succeeds)"),
    OptionSpec("round_cap", "V-2.6", 100, int_range=(1, 10000),
               help="a fight still running after this many rounds is recorded as a draw"),
    OptionSpec("dodge_modifier", "V-4.4", "weapon", ("weapon", "weapon_plus_attack_type"),
               help="a dodge removes the attacker's weapon modifier as dice, or also the attack kind's modifier"),
    OptionSpec("shield", "V-4.7", "adds_class_to_armour_pool", ("adds_class_to_armour_pool", "ignore", "cover_like"),
               help="a held shield adds its class to the armour roll; ignore; cover_like (against shots only: no "
                    "melee effect)"),
    OptionSpec("armour_ones", "V-5.4", "separate", ("separate", "net"),
               help="1s on the armour roll only degrade the armour, or also count against its successes (one_value)"),
    OptionSpec("shock_timing", "V-6.3", "now", ("now", "next_turn"),
               help="shock takes AP off the current pool at once (overflow next round) or all off the next refill"),
    OptionSpec("pickup", "V-3.9", "pick_up", ("pick_up", "pickup_and_ready"), codes=(1, 2),
               help="recovering a dropped weapon costs 1 AP (pick up) or 2 AP (pick up, then ready)"),
    OptionSpec("armour_piercing_dice", "V-5.7", 0, int_range=(0, 10),
               help="armour dice an armour-piercing weapon removes from the target's armour roll "
                    "(source: no rule text)"),
    OptionSpec("exposure", "V-4.4", "hit_only", ("hit_only", "miss_becomes_hit"),
               help="a dodge of ≤ −1 adds that many extra successes (seed 107) to an attack that hit (extras are the "
                    "surplus beyond the first success, seed 118), or also to a missed attack, turning it into a hit"),
    OptionSpec("prayer", "V-1.6", "off", ("off", "app", "yze"),
               help="a fighter's failed check (attack, defence, dodge, agility, battle cry; ≤ 0 successes, pool > 0) "
                    "is prayed once: app rerolls the dice without a success for 1 Will + 1 per 1 rerolled (only "
                    "with Will ≥ 2); yze rerolls every die but the 20s (an NPC under npc_reactions = tokens pays a "
                    "Chernobog token)"),
    OptionSpec("npc_reactions", "V-3.17", "free", ("free", "tokens", "none"),
               help="the GM's characters (option npc) react freely, only while the GM spends a Chernobog token "
                    "per defence or dodge (npc_tokens_a/_b per side), or never"),
    OptionSpec("npc", "V-3.17", "b", ("none", "a", "b", "both"),
               help="which sides are GM characters (Chernobog tokens, npc_reactions)"),
    OptionSpec("npc_tokens_a", "V-3.17", 3, int_range=(0, 100),
               help="Chernobog tokens the GM has for side a's reactions (npc_reactions = tokens)"),
    OptionSpec("npc_tokens_b", "V-3.17", 3, int_range=(0, 100),
               help="Chernobog tokens the GM has for side b's reactions (npc_reactions = tokens)"),
    OptionSpec("immobilised", "V-6.9", "none", ("none", "a", "b", "both"),
               help="sides that start the duel immobilised: attacks at them +2 dice; each turn, while it has 2 AP, "
                    "the fighter spends a standard action on an agility check (Ловкость + Проворство) to get free"),
    OptionSpec("start_distance", "V-10.6", 1, int_range=(0, 1000),
               help="metres between the fighters at the start (V-10.1 bands: ≤ 1 point blank, ≤ 2 close, ≤ 20 medium, "
                    "≤ 100 long, ≤ 1000 extreme); 0 and 1 are point blank, engaged, as the melee duels"),
    OptionSpec("engaged_range", "V-11.11", "replace", ("replace", "add"),
               help="an engaged shooter's −3 replaces the point-blank band bonus (−3), or adds to it (+2 − 3 = −1)"),
    OptionSpec("burst_hit", "V-11.12", "total", ("total", "first_check"),
               help="a long burst hits if its check plus the continuation dice reach 1 success, or only if the "
                    "check alone does (the continuation then adds to the hit)"),
    OptionSpec("stop_die", "V-11.12", "counted", ("counted", "not_counted"),
               help="the burst's stopping die (1–4) counts as any die (a 1 adds one_value), or not at all"),
    OptionSpec("hip_chain", "V-11.14", "across_turns", ("across_turns", "per_turn"),
               help="3 hip shots in a row need a reload: consecutive hip shots across turns (reset by a reload or "
                    "another shot), or within one turn"),
    OptionSpec("burst_desperate", "V-11.12", "continue", ("continue", "no_continuation"),
               help="a long burst of a pool ≤ 0: the desperate roll (V-1.4) plus the continuation dice, or the "
                    "desperate roll alone"),
    OptionSpec("long_reload", "V-11.14", "normal", ("normal", "extended"),
               help="a gun with the property long_reload reloads in 2 AP as any other, or in 3 (extended; no source)"),
    OptionSpec("ammo", "V-11.14", "uncounted", ("uncounted", "magazine"),
               help="ammunition is not counted, or each shot takes a round of the gun's magazine and a long burst "
                    "empties it (a reload is then due and refills it)"),
    OptionSpec("cover_move", "V-11.17", "forfeit", ("forfeit", "keep"),
               help="a move forfeits cover (the line has no cover positions), or keeps it (abstract fights)"),
    OptionSpec("visibility", "V-11.18", "clear", ("clear", "poor"),
               help="clear, or poor (smoke, darkness): beyond point blank a shooter makes a free perception check "
                    "(Интеллект + Наблюдательность − 2); failed, it is blind: −3 a shot and no aimed shot"),
    OptionSpec("visibility_check", "V-11.18", "per_turn", ("per_turn", "per_shot"),
               help="poor visibility: one perception check per shooter and turn (its own or, for sector shots, the "
                    "enemy's), or one before every shot"),
    OptionSpec("halving", "V-10.5", "once", ("once", "stack"),
               help="HALFSPD traumas halve a fighter's speed once however many it has, or each halves it again"),
    OptionSpec("high_capacity", "V-11.12", "none", ("none", "extra_chain"),
               help="a high-capacity magazine has no effect, or adds one more chain of continuation dice to a long "
                    "burst (yze)"),
    OptionSpec("gun_melee", "V-11.22", "unarmed", ("unarmed", "none"),
               help="a fighter with its gun in hand strikes and defends in melee with bare hands, or cannot "
                    "defend at all (it dodges)"),
    OptionSpec("overwatch_cost", "V-11.13", "reserve", ("reserve", "declare_quick"),
               help="sector control sets aside every AP left, one a sector shot (reserve), or costs 1 AP to declare "
                    "and sets aside the rest (declare_quick)"),
    OptionSpec("overwatch_move", "V-11.13", "start", ("start", "end"),
               help="a sector shot at a move toward the shooter is fired where the move starts (its shock may leave "
                    "no AP for the move, which is then lost), or where it ends (after the move, never lost; no shot if "
                    "it ends at point blank: the shooter is then engaged)"),
    OptionSpec("overwatch_expiry", "V-11.13", "next_turn", ("next_turn", "refill"),
               help="the set-aside AP last until the shooter's next turn (surviving the round's refill), or lapse at "
                    "the refill"),
    OptionSpec("overwatch_break", "V-11.13", "health_lost", ("health_lost", "any_hit"),
               help="sector control ends when a shot takes Health from the shooter (after armour), or on any hit"),
    OptionSpec("overwatch_turn_start", "V-11.13", "fires", ("fires", "exempt"),
               help="the actions at the start of a turn (readying in the first turn, standing up, picking up a "
                    "weapon, breaking free) draw the foe's sector shot like any action (fires), or none (exempt)"),
    OptionSpec("brace", "V-11.16", "until_moved", ("until_moved", "next_shot"),
               help="a braced gun keeps its +1 until the shooter moves, changes posture or loses its cover, or only "
                    "for the next shot"),
    OptionSpec("cover_ones", "V-11.17", "cover_first", ("cover_first", "armour_first"),
               help="each 1 of an armour roll against a shot lowers the cover first, then the armour, or the "
                    "armour first"),
    OptionSpec("start_ready", "V-10.9", "yes", ("yes", "no"),
               help="the weapon in hand at the start is ready, or its readying costs 1 AP in the fighter's first "
                    "turn (waived by the fighter field fastest_hand)"),
    OptionSpec("throw_range", "V-11.20", "close", ("close", "medium"), codes=(1, 2),
               help="the effective range of a thrown item (−3 dice per band beyond it): close (2 m) or medium (20 m)"),
    OptionSpec("throw_ready", "V-11.20", "quick", ("quick", "free"),
               help="a thrower readies each next item and, once done throwing, its melee weapon as a quick action "
                    "(1 AP, V-10.9; the first item starts in hand), or for free (drawn as part of the throw)"),
    *(OptionSpec(f"{prop}_dice", "V-11.21", 0, int_range=(-5, 5),
                 help=f"dice added to every shot of a gun with the property {prop} (no rule text: a designer dial)")
      for prop in DIAL_PROPERTIES),
    OptionSpec("ranged_disarm", "V-12.4", "off", ("off", "on"),
               help="a shot's or throw's extras never disarm (the seed's ranged list), or attack_spending = "
                    "disarm_first buys a disarm at the weapon's crit as in melee (V-4.5; app ranged-extra-effects)"),
    OptionSpec("gm_reload_tokens", "V-11.14", "off", ("off", "on"),
               help="the GM never jams a gun, or spends a Chernobog token of its side's pool (npc_tokens_a/_b) "
                    "after each shot of a player-side gun to make a reload due"),
    OptionSpec("prone_melee", "V-10.8", "plus2", ("plus2", "0"), codes=(2, 0),
               help="dice a melee attack gains against a fighter lying prone by choice: +2 as against a knocked-down "
                    "one (V-6.7), or none"),
    OptionSpec("stealth", "V-10.10", "none", ("none", "a", "b"),
               help="the side that makes a stealth approach (a check of Ловкость + Скрытность before initiative): "
                    "success starts the fight at stealth_distance with that side's surprise (V-2.5); not with "
                    "surprise"),
    OptionSpec("stealth_distance", "V-10.10", 1, int_range=(0, 1000),
               help="metres the stealthy side declares it will reach, at most start_distance (default point blank, "
                    "to strike in melee); its band moves the check (point blank −2, close −1, medium 0, long +2, "
                    "extreme +4)"),
    OptionSpec("stealth_check", "V-10.10", "plain", ("plain", "opposed"),
               help="the stealth check succeeds with ≥ 1 success (plain), or with more successes than the target's "
                    "Интеллект + Наблюдательность check (opposed: a tie fails, V-1.5)"),
    OptionSpec("stealth_ambush", "V-10.10", "off", ("off", "on"), codes=(0, 2),
               help="the stealthy side waits in ambush, motionless: +2 dice to its stealth check (on)"),
    OptionSpec("stealth_fail", "V-10.10", "start_distance", ("start_distance", "declared_distance"),
               help="a failed stealth approach: no surprise, the fight starts at start_distance, or at the declared "
                    "stealth_distance"),
    OptionSpec("ties", "V-1.5", "initiator_fails", ("initiator_fails", "initiator_wins", "reroll"),
               help="an opposed check without a rule of its own for ties (the opposed stealth check): a tie fails "
                    "the side that makes it, succeeds, or both sides roll again (at most 100 times; then it fails)"),
    # V-13 Will, orders
    OptionSpec("order_self", "V-13.4", "off", ("off", "on"),
               help="an order's bonus goes to the commander's subordinates only, or to the commander as well"),
    OptionSpec("order_stack", "V-13.4", "replace", ("replace", "add"),
               help="a new order on a check a fighter already holds a bonus for replaces the old bonus, or adds to "
                    "it (both then last to the new order's end)"),
    OptionSpec("melee_order", "V-13.4", "all", ("all", "attacks_only"),
               help="\"In melee!\" adds its successes to every melee check, attacks and defences, or to attacks only"),
    OptionSpec("headsets", "V-13.5", "off", ("off", "on"),
               help="the fighters wear headsets: an order is heard in full at any range (unless a jammer is near)"),
    OptionSpec("jammer", "V-13.5", "off", ("off", "on"),
               help="a jammer is near: headsets do not help, orders are heard by range (full to medium, long −2, "
                    "extreme not at all)"),
    OptionSpec("threat_range", "V-13.2", "once", ("once", "per_target"),
               help="a threat with a target beyond medium range rolls −2 once for all its targets, or only for the "
                    "targets beyond medium (their own check)"),
    OptionSpec("threat_resistances", "V-13.2", "none", ("none", "v1_7"),
               help="no resistance to threats, or V-1.7: a threat at a fighter susceptible to fear rolls +3, at a "
                    "vulnerable one +6 (its own check), an immune one takes nothing (fighter field fear)"),
    OptionSpec("threat_hearing", "V-13.2", "any", ("any", "as_orders"),
               help="a threat reaches enemies at any range (−2 beyond medium), or as orders do (V-13.5): none at "
                    "extreme range"),
    OptionSpec("inspire", "V-13.7", "off", ("off", "on"),
               help="no inspiring (V-3.14), or a fighter with the field inspire restores an ally's Will in a fight of "
                    "several (3 AP, Эмпатия + Лидерство, −2 beyond close range, −2 on itself; each success 1 Will, at "
                    "most its Лидерство; once a fight per ally)"),
    # V-3.11-3.13, V-14 grapple, finishing off, crowds
    OptionSpec("finish_helpless", "V-3.11", "off", ("off", "on"),
               help="in a fight of several a side, a fighter whose foe lies helpless (out by Health or by a "
                    "knock-out or paralysing trauma, not dead, not by Will) turns to another enemy (off: out "
                    "fighters stay out, V-14.10), or finishes it off first (on: 3 AP at point blank, V-3.11)"),
    OptionSpec("grappled_reactions", "V-6.10", "none", ("none", "allowed"),
               help="a grappled fighter's only action is breaking free, so it neither defends nor dodges (none), "
                    "or it still reacts to attacks as any fighter (allowed)"),
    OptionSpec("grab_armour", "V-5.4", "cancels", ("cancels", "kept"),
               help="a blow whose damage the armour roll stops loses its grapple as every other harmful effect "
                    "(cancels), or the grab's opposed check is made all the same (kept)"),
    OptionSpec("melee_cap", "V-14.7", 8, int_range=(1, 8),
               help="in a fight of several a side, at most this many enemies fight one fighter (have it as their "
                    "foe; seed 22: the 8 squares around it); one finding no enemy with room waits"),
    OptionSpec("outnumber_dice", "V-14.2", 0, int_range=(-5, 5),
               help="dice a melee attack gains per other enemy of its target fighting it within melee reach "
                    "(outnumbering; no rule text: a designer dial)"),
    OptionSpec("into_melee_dice", "V-14.5", 0, int_range=(-5, 5),
               help="dice a shot or throw gains at a target at point blank of one of the shooter's allies "
                    "(shooting into melee; no rule text: a designer dial, negative for a penalty)"),
    OptionSpec("overwatch_shooters", "V-14.8", "every", ("every", "foe"),
               help="in a fight of several a side, every enemy in sector control fires a sector shot at an "
                    "enemy's action (every), or only the actor's foe, when the actor is its own foe (foe)"),
    OptionSpec("opportunity_from", "V-14.6", "every", ("every", "foe"),
               help="in a fight of several a side, a move away draws an opportunity attack from every enemy whose "
                    "melee reach it leaves (every), or from the mover's foe only (foe)"),
)

# -- the kernels' option row (int64[NO]) --------------------------------------------------------------
ROW = OptionRow(OPTION_SPECS)
O_ONE_VALUE = ROW.slot("one_value")
O_DESPERATION = ROW.slot("desperation")
O_AP_REFILL = ROW.slot("ap_refill")
O_INIT_WEAPON_TERM = ROW.slot("init_weapon_term")
O_INIT_ROLL = ROW.slot("init_roll")
O_SURPRISE = ROW.slot("surprise")
O_SURPRISE_INIT = ROW.slot("surprise_init")
O_STEALTH_ATTACK = ROW.slot("stealth_attack")
O_ROUND_CAP = ROW.slot("round_cap")
O_DODGE_MODIFIER = ROW.slot("dodge_modifier")
O_SHIELD = ROW.slot("shield")
O_ARMOUR_ONES = ROW.slot("armour_ones")
O_SHOCK_TIMING = ROW.slot("shock_timing")
O_PICKUP = ROW.slot("pickup")
O_ARMOUR_PIERCING_DICE = ROW.slot("armour_piercing_dice")
O_EXPOSURE = ROW.slot("exposure")
O_PRAYER = ROW.slot("prayer")
O_NPC_REACTIONS = ROW.slot("npc_reactions")
O_NPC = ROW.slot("npc")  # codes: bit 1 side a, bit 2 side b
O_NPC_TOKENS = ROW.pair("npc_tokens")
O_IMMOBILISED = ROW.slot("immobilised")  # codes: bit 1 side a, bit 2 side b
O_START_DISTANCE = ROW.slot("start_distance")
O_ENGAGED_RANGE = ROW.slot("engaged_range")
O_BURST_HIT = ROW.slot("burst_hit")
O_STOP_DIE = ROW.slot("stop_die")
O_HIP_CHAIN = ROW.slot("hip_chain")
O_BURST_DESPERATE = ROW.slot("burst_desperate")
O_LONG_RELOAD = ROW.slot("long_reload")
O_AMMO = ROW.slot("ammo")
O_COVER_MOVE = ROW.slot("cover_move")
O_VISIBILITY = ROW.slot("visibility")
O_VISIBILITY_CHECK = ROW.slot("visibility_check")
O_HALVING = ROW.slot("halving")
O_HIGH_CAPACITY = ROW.slot("high_capacity")
O_GUN_MELEE = ROW.slot("gun_melee")
O_OVERWATCH_COST = ROW.slot("overwatch_cost")
O_OVERWATCH_MOVE = ROW.slot("overwatch_move")
O_OVERWATCH_EXPIRY = ROW.slot("overwatch_expiry")
O_OVERWATCH_BREAK = ROW.slot("overwatch_break")
O_OVERWATCH_TURN_START = ROW.slot("overwatch_turn_start")
O_BRACE = ROW.slot("brace")
O_COVER_ONES = ROW.slot("cover_ones")
O_START_READY = ROW.slot("start_ready")
O_THROW_RANGE = ROW.slot("throw_range")  # codes: the band (1 close, 2 medium)
O_THROW_READY = ROW.slot("throw_ready")
O_RELIABLE_DICE = ROW.slot("reliable_dice")
O_SILENT_DICE = ROW.slot("silent_dice")
O_SCOPE_DICE = ROW.slot("scope_dice")
O_RED_DOT_SIGHT_DICE = ROW.slot("red_dot_sight_dice")
O_BAYONET_DICE = ROW.slot("bayonet_dice")
O_BULKY_DICE = ROW.slot("bulky_dice")
O_SPREAD_DICE = ROW.slot("spread_dice")
O_NON_LETHAL_DICE = ROW.slot("non_lethal_dice")
O_SPECIAL_AMMO_DICE = ROW.slot("special_ammo_dice")
O_ANTI_VEHICLE_DICE = ROW.slot("anti_vehicle_dice")
O_STATIONARY_DICE = ROW.slot("stationary_dice")
O_INCENDIARY_DICE = ROW.slot("incendiary_dice")
O_LIGHT_DICE = ROW.slot("light_dice")
O_HEAVY_DICE = ROW.slot("heavy_dice")
O_SMALL_DICE = ROW.slot("small_dice")
#: V-11.21: property k of DIAL_PROPERTIES has its dice at DIALS_AT + k
DIALS_AT = O_RELIABLE_DICE
assert [ROW.slot(f"{p}_dice") for p in DIAL_PROPERTIES] == list(range(DIALS_AT, DIALS_AT + len(DIAL_PROPERTIES)))
N_DIALS = len(DIAL_PROPERTIES)
O_RANGED_DISARM = ROW.slot("ranged_disarm")
O_GM_RELOAD_TOKENS = ROW.slot("gm_reload_tokens")
O_PRONE_MELEE = ROW.slot("prone_melee")  # codes: the dice
O_STEALTH = ROW.slot("stealth")  # codes: 0 none, side + 1
O_STEALTH_DISTANCE = ROW.slot("stealth_distance")
O_STEALTH_CHECK = ROW.slot("stealth_check")
O_STEALTH_AMBUSH = ROW.slot("stealth_ambush")  # codes: the dice
O_STEALTH_FAIL = ROW.slot("stealth_fail")
O_TIES = ROW.slot("ties")
O_ORDER_SELF = ROW.slot("order_self")
O_ORDER_STACK = ROW.slot("order_stack")
O_MELEE_ORDER = ROW.slot("melee_order")
O_HEADSETS = ROW.slot("headsets")
O_JAMMER = ROW.slot("jammer")
O_THREAT_RANGE = ROW.slot("threat_range")
O_THREAT_RESISTANCES = ROW.slot("threat_resistances")
O_THREAT_HEARING = ROW.slot("threat_hearing")
O_INSPIRE = ROW.slot("inspire")
O_FINISH_HELPLESS = ROW.slot("finish_helpless")
O_GRAPPLED_REACTIONS = ROW.slot("grappled_reactions")
O_GRAB_ARMOUR = ROW.slot("grab_armour")
O_MELEE_CAP = ROW.slot("melee_cap")
O_OUTNUMBER_DICE = ROW.slot("outnumber_dice")
O_INTO_MELEE_DICE = ROW.slot("into_melee_dice")
O_OVERWATCH_SHOOTERS = ROW.slot("overwatch_shooters")
O_OPPORTUNITY_FROM = ROW.slot("opportunity_from")
NO = ROW.size

# -- codes of the choices the kernels compare with (``_``: a choice no kernel compares with) --------
DESP_FVTT, DESP_YZE, DESP_APP = ROW.codes("desperation")
_, STEALTH_EXTRA_ATTACK, STEALTH_DICE = ROW.codes("stealth_attack")
SHIELD_ARMOUR_POOL, SHIELD_IGNORE, SHIELD_COVER_LIKE = ROW.codes("shield")  # cover_like: against shots only
_, EXPOSURE_MISS_BECOMES_HIT = ROW.codes("exposure")
PRAYER_OFF, PRAYER_APP, PRAYER_YZE = ROW.codes("prayer")
_, NPC_TOKENS, NPC_NONE = ROW.codes("npc_reactions")
_, ENGAGED_RANGE_ADD = ROW.codes("engaged_range")
_, BURST_HIT_FIRST_CHECK = ROW.codes("burst_hit")
_, STOP_DIE_NOT_COUNTED = ROW.codes("stop_die")
_, HIP_CHAIN_PER_TURN = ROW.codes("hip_chain")
_, BURST_NO_CONTINUATION = ROW.codes("burst_desperate")
_, LONG_RELOAD_EXTENDED = ROW.codes("long_reload")
_, AMMO_MAGAZINE = ROW.codes("ammo")
_, COVER_MOVE_KEEP = ROW.codes("cover_move")
_, VISIBILITY_POOR = ROW.codes("visibility")
_, CHECK_PER_SHOT = ROW.codes("visibility_check")
_, HALVING_STACK = ROW.codes("halving")
_, HIGH_CAPACITY_EXTRA_CHAIN = ROW.codes("high_capacity")
_, GUN_MELEE_NONE = ROW.codes("gun_melee")
_, OVERWATCH_DECLARE_QUICK = ROW.codes("overwatch_cost")
_, OVERWATCH_MOVE_END = ROW.codes("overwatch_move")
_, OVERWATCH_EXPIRY_REFILL = ROW.codes("overwatch_expiry")
_, OVERWATCH_BREAK_ANY_HIT = ROW.codes("overwatch_break")
_, OVERWATCH_TURN_START_EXEMPT = ROW.codes("overwatch_turn_start")
_, BRACE_NEXT_SHOT = ROW.codes("brace")
_, COVER_ONES_ARMOUR_FIRST = ROW.codes("cover_ones")
_, START_READY_NO = ROW.codes("start_ready")
_, THROW_READY_FREE = ROW.codes("throw_ready")
_, RANGED_DISARM_ON = ROW.codes("ranged_disarm")
_, GM_RELOAD_TOKENS_ON = ROW.codes("gm_reload_tokens")
_, STEALTH_OPPOSED = ROW.codes("stealth_check")
_, STEALTH_FAIL_DECLARED = ROW.codes("stealth_fail")
_, TIES_INITIATOR_WINS, TIES_REROLL = ROW.codes("ties")
_, ORDER_STACK_ADD = ROW.codes("order_stack")
_, MELEE_ORDER_ATTACKS_ONLY = ROW.codes("melee_order")
_, THREAT_RANGE_PER_TARGET = ROW.codes("threat_range")
_, THREAT_RESISTANCES_V1_7 = ROW.codes("threat_resistances")
_, THREAT_HEARING_AS_ORDERS = ROW.codes("threat_hearing")
_, FINISH_HELPLESS_ON = ROW.codes("finish_helpless")
_, GRAPPLED_REACTIONS_ALLOWED = ROW.codes("grappled_reactions")
_, GRAB_ARMOUR_KEPT = ROW.codes("grab_armour")
OVERWATCH_SHOOTERS_EVERY, _ = ROW.codes("overwatch_shooters")
OPPORTUNITY_FROM_EVERY, _ = ROW.codes("opportunity_from")
#: V-1.5 ``ties = reroll``: tied rerolls before the side that makes the check fails
TIE_REROLLS = 100


def compile_options(options: RuleOptions) -> np.ndarray:
    """Resolved rule options → ``int64[NO]`` (slots ``O_*``)."""
    return ROW.row(options)
