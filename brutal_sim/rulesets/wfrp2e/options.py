"""The rule options of the WFRP 2e ruleset: every GAP of the digest (``docs/rules/wfrp2e.md``) with
its rule id, the digest's default and its named alternatives; their slots in the kernels'
``int64[NO]`` option row (``O_*``) and the codes of the choices the kernels compare with, both
derived from the specs.
"""

from __future__ import annotations

import numpy as np

from ...core.options import OptionRow, OptionSpec, RuleOptions

OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec("round_cap", "W-2.7", 100, int_range=(1, 10000),
               help="a fight still running after this many rounds is a draw"),
    OptionSpec("initiative_roll", "W-2.2", "once_per_fight", ("once_per_fight", "every_round"),
               help="d10 + Ag rolled once for the fight (seed example, rulebook) or at the start of every round"),
    OptionSpec("surprise", "W-2.6", "none", ("none", "a", "b"),
               help="the surprised side loses its first-round turn and cannot parry or dodge in round 1"),
    OptionSpec("opposed", "W-1.4", "official_like", ("official_like", "both_fail_reroll", "defender_wins_ties"),
               help="opposed tests (feint, manoeuvre, breaking free and hurting in a grapple): official_like: "
                    "success beats failure, more degrees win, then the higher target, then a reroll; two failures: "
                    "nobody wins. both_fail_reroll: two failures roll again. defender_wins_ties: equal degrees of "
                    "success go to the defender"),
    OptionSpec("auto_results", "W-1.5", "none", ("none", "auto_01_05_96_00"),
               help="none: only the target decides; auto_01_05_96_00: 01–05 always succeed, 96–00 always fail"),
    OptionSpec("modifier_cap", "W-1.6", 0, int_range=(0, 100),
               help="cap on the sum of a test's modifiers (±N); 0 means no cap (the digest's alternative is 30)"),
    OptionSpec("defensive_stance", "W-3.6", "half", ("half", "full"),
               help="action cost of the defensive stance (attackers −20 WS until its next turn)"),
    OptionSpec("parry_dodge_choice", "W-4.6", "per_attack", ("per_attack", "per_round"),
               help="per_attack: parry one attack and dodge another in a round; per_round: once one is used the "
                    "other is unavailable until the next round"),
    OptionSpec("balanced_offhand", "W-4.10", "true", ("true", "false"), codes=(1, 0),
               help="a Balanced off-hand item attacks without the −20 WS of the off hand"),
    OptionSpec("fury_confirm", "W-4.11", "each", ("each", "first_only", "none"),
               help="Ulric's Fury: each further 10 needs a new to-hit test (seed example), first_only (one "
                    "test, then d10s while they show 10), none (no test)"),
    OptionSpec("tiring", "W-4.12", "first_round", ("first_round", "ignore"),
               help="Tiring weapons: Impact and Fast apply only in the first round of the fight, or always"),
    OptionSpec("crit_model", "W-5.4", "sudden_death", ("sudden_death", "threshold", "table"),
               help="sudden_death: any critical hit takes the fighter out; threshold: a critical value ≥ "
                    "crit_threshold does; table: the critical table file crit_table decides"),
    OptionSpec("crit_threshold", "W-5.4", 5, int_range=(1, 99),
               help="X of crit_model = threshold(X)"),
    OptionSpec("crit_table", "W-5.4", "none", kernel=False, path=True, path_words=("", "none", "example"),
               help="critical table TOML file for crit_model = table (crit_grid and crit_effects; example: "
                    "brutal_sim/data/wfrp2e/crit_example.toml, or 'example')"),
    OptionSpec("prone_bonus", "W-6.4", 0, int_range=(0, 30),
               help="WS bonus of attacks against a prone fighter (the digest's alternative is 20)"),
    OptionSpec("fortune", "W-8.7", "reaction_first", ("reaction_first", "attack_first", "never"),
               help="fortune points reroll failed tests: reaction_first keeps the last point for a parry or "
                    "dodge, attack_first keeps it for an attack, never spends none"),
    OptionSpec("fortune_extra_reaction", "W-6.5", "extra_use", ("extra_use", "reroll_only"),
               help="extra_use: a fortune point also buys a parry or dodge beyond the once-per-round limit; "
                    "reroll_only: it only rerolls a failed one"),
    OptionSpec("fortune_keep_last", "W-8.7", "keep", ("keep", "spend"),
               help="keep: the last fortune point is kept for the use the fortune policy prefers (a reaction "
                    "under reaction_first, an attack under attack_first); other uses need two points. spend: "
                    "any use may take the last point"),
    OptionSpec("fortune_initiative", "W-6.5", "off", ("off", "on"),
               help="on: a fighter spends a fortune point on each initiative roll to roll 2d10 + Ag instead of "
                    "d10 + Ag (a use the fortune policy does not prefer)"),
    OptionSpec("fortune_half_action", "W-6.5", "off", ("off", "on"),
               help="on: a fighter spends a fortune point on an extra half action in its turn when it has a "
                    "use for it: to make up a half action lost to standing up or readying, else to aim (+10 "
                    "WS on its first attack) before an unaimed attack that is no charge or feint"),
    OptionSpec("helpless", "W-6.2", "out", ("out", "attackable"),
               help="a fighter made helpless by a critical effect: out of the fight at once, or stays in it "
                    "without actions or reactions; attacks at it hit automatically (d100 for location only) "
                    "and deal +1d10 damage"),
    OptionSpec("initiative_group", "W-13.1", "per_fighter", ("per_fighter", "per_type"),
               help="fights of several a side: every fighter rolls its own d10 for initiative, or one roll per "
                    "profile (fighters of the same profile share its dice, each with its own Ag, as seed 11's "
                    "goblins)"),
    OptionSpec("outnumber", "W-13.4", "none", ("none", "table_6_2"),
               help="fights of several a side: table_6_2: a melee attack at a foe outnumbered 3 to 1 or more +20 "
                    "WS, 2 to 1 +10 (engaged enemies of the target against the target and its allies engaged with "
                    "them)"),
    OptionSpec("finish_helpless", "W-13.6", "off", ("off", "on"),
               help="fights of several a side with helpless = attackable: a helpless enemy is chosen as a foe "
                    "only when no other is left (off) or first (on)"),
    OptionSpec("max_engaged", "W-13.5", "8", ("8", "unlimited"), codes=(8, 99),
               help="fights of several a side: the most enemies engaged with one fighter (8: same-size figures "
                    "round its square; unlimited); a fighter whose foe has that many engagers picks another"),
    OptionSpec("choppa", "W-9.3", "hand_weapon", ("hand_weapon", "plus1_first_round", "impact_first_round"),
               help="the orc choppa (a weapon with choppa = true): a plain hand weapon, +1 damage in the first "
                    "round of the fight, or Impact in the first round of the fight"),
    OptionSpec("strike_mighty_blow", "W-9.3", "ignore", ("ignore", "plus1"),
               help="the Strike Mighty Blow talent: no effect, or +1 melee damage"),
    OptionSpec("street_fighting", "W-9.3", "ignore", ("ignore", "on"),
               help="the Street Fighting talent: no effect, or +10 WS and +1 damage unarmed"),
    OptionSpec("start_distance", "W-8.8", 0, int_range=(0, 200),
               help="yards between the fighters at the start (W-11.5 line model); up to 2 they start engaged "
                    "(W-11.3); 3 yards: no charge (a foe nearer than 4 yards cannot be charged, W-11.2), the "
                    "first mover moves and attacks; from 4 up to 4·M it charges (+10 WS); farther it runs (or "
                    "moves twice, approach) toward the foe, stopping 4 yards short"),
    OptionSpec("leave_melee", "W-11.4", "seed", ("seed", "rulebook"),
               help="seed: a fighter leaving melee (Flee) gives its engaged foe one free attack; rulebook: it "
                    "disengages without free attacks"),
    OptionSpec("flee_outcome", "W-11.4", "out", ("out", "reposition"),
               help="a fleeing fighter (W-3.16) leaves the fight (out), or stays in it 2·M yards farther from "
                    "its foe (reposition; halved in difficult terrain, within the arena)"),
    OptionSpec("terrain", "W-11.2", "open", ("open", "difficult"),
               help="difficult terrain halves Move and Flee and forbids Run (a runner moves twice instead)"),
    OptionSpec("difficult_charge", "W-11.2", "half", ("half", "forbidden"),
               help="a charge in difficult terrain covers at most 2·M yards (half), or is not allowed (forbidden: a "
                    "melee fighter closes by Moves to contact and attacks with a half action left)"),
    OptionSpec("arena", "W-11.5", 0, int_range=(0, 1000),
               help="0: the line is unlimited; N: positions stay within N yards round the starting midpoint "
                    "(N at least start_distance)"),
    OptionSpec("approach", "W-8.12", "run", ("run", "double_move"),
               help="how a melee fighter beyond charge reach closes: run (6·M; melee at the runner +20 WS until "
                    "its next turn) or two moves (2·M each), stopping 4 yards from the foe"),
    OptionSpec("reload_break", "W-7.10", "other_action", ("other_action", "also_damage"),
               help="what restarts a reload over several turns: another action or a lost (stunned) turn, or also "
                    "any damage taken (more than 0 after TB and AP)"),
    OptionSpec("start_loaded", "W-7.10", "true", ("true", "false"), codes=(1, 0),
               help="missile weapons are loaded when the fight starts, or empty (a reload comes first)"),
    OptionSpec("no_long", "W-7.4", "short_is_max", ("short_is_max", "double_short"),
               help="a missile weapon without a long range: its short range is its longest, or long = 2 × short"),
    OptionSpec("extreme", "W-7.5", "2x_long", ("2x_long", "off"),
               help="very long range: aimed shots beyond long range up to twice the long range, or none"),
    OptionSpec("extreme_mod", "W-7.5", "flat", ("flat", "aim_adds", "stack"),
               help="a very long shot: −30 net (flat: neither aim nor the long band adds), −30 + aim (aim_adds), "
                    "or −30 − 20 + aim (stack)"),
    OptionSpec("sure_shot_stack", "W-7.13", "true", ("true", "false"), codes=(1, 0),
               help="the Sure Shot talent (−1 AP on a ranged hit) adds to a weapon's Armour Piercing (−2 AP), or "
                    "not (−1 AP in all)"),
    OptionSpec("misfire_band", "W-7.13", 0, int_range=(0, 10),
               help="Unreliable and Experimental weapons: a shot whose d100 is above 100 − N jams (a miss, and the "
                    "weapon needs its whole reload); 0: they never jam"),
    OptionSpec("shrapnel", "W-7.13", "no_test", ("no_test", "bs_test"),
               help="a Shrapnel weapon (blunderbuss): within its short range the target is hit without a BS test "
                    "(the d100 gives the location; Ulric's Fury is confirmed by BS), or it shoots as any other"),
    OptionSpec("delay_cut", "W-11.6", "between_actions", ("between_actions", "after_move"),
               help="where a delayed half action (overwatch, W-8.14) may cut into the foe's turn: between its "
                    "actions (after a whole charge), or also between a charge's move and its attack"),
    OptionSpec("ammo", "W-7.12", 0, int_range=(0, 1000),
               help="ammunition of every bow, crossbow, sling and firearm: N shots in the fight (the one loaded at "
                    "the start included); 0: unlimited. Thrown weapons count the fighter's field thrown instead"),
    OptionSpec("bs_bonus", "W-7.9", "none", ("none", "plus20"),
               help="shots at a stunned target: no bonus (its +20 is for melee attacks), or +20 BS as in melee"),
    OptionSpec("visibility", "W-7.9", 0, int_range=(0, 30),
               help="poor visibility: N taken off every shot's BS (0 … 30, a designer's dial; the digest gives no "
                    "number)"),
    OptionSpec("cover", "W-7.9", "none", ("none", "legs"),
               help="cover: none, or the legs are behind cover (a shot's leg hit strikes the body instead)"),
    OptionSpec("melee_shot", "W-7.7", "target_engaged", ("target_engaged", "shooter_engaged", "both"),
               kernel=False,
               help="who must be in melee for a shot's −20: the target (rulebook), the shooter (seed), or either "
                    "(−20 once); in a duel the target is engaged exactly when the shooter is, so the three agree"),
    OptionSpec("swift_brace", "W-7.11", "off", ("off", "on"),
               help="off: a swift attack of shots needs a free or no reload; on: each of its shots may also come "
                    "from another loaded one-handed weapon in hand (the off-hand one, W-7.8)"),
    OptionSpec("drop", "W-7.12", "free", ("free", "half"),
               help="dropping the off-hand missile weapon when the melee items are drawn: free, or a half action "
                    "(the Ready that stows the main-hand one and draws is a half action either way)"),
    OptionSpec("manoeuvre_test", "W-11.7", "attack", ("attack", "opposed_ws"),
               help="the manoeuvre's test: a WS attack the foe may parry or dodge (a hit pushes it), or an opposed "
                    "WS test (a win pushes it)"),
    OptionSpec("manoeuvre_follow", "W-11.7", "stay", ("stay", "advance"),
               help="after a push of 2 yards the manoeuvrer stays (the engagement ends, 4 yards apart) or "
                    "advances into the square its foe left (still engaged)"),
    OptionSpec("aim", "W-7.3", "same_turn", ("same_turn", "next_action"),
               help="an aim's bonus (+10, Sharpshooter +20) goes to the shot right after it in the same turn, or "
                    "(next_action) holds to the fighter's following action even in its next turn if that is a shot "
                    "(lost to any other action); the marksman then aims with a last half action instead of an "
                    "unaimed shot"),
    OptionSpec("spear_thrown", "W-7.12", "off", ("off", "on"), kernel=False,
               help="a spear (a weapon with spear = true) carried as the missile weapon: refused (off), or thrown "
                    "(on: short range 8 yards, no long range, SB + its damage, a 1-half-action reload readying the "
                    "next one; each throw spends one of the fighter's thrown supply)"),
    OptionSpec("specialist", "W-7.14", "ignore", ("ignore", "pack_text"), kernel=False,
               help="the Specialist Weapon Group talents: ignored (every fighter uses every weapon as it is), or "
                    "the pack's texts: without the talent a weapon plays its unskilled numbers (elfbow without "
                    "SWG (Longbow): the shortbow's; blunderbuss without SWG (Gunpowder): reload 6 full)"),
    OptionSpec("snare", "W-7.13", "off", ("off", "entangle"),
               help="Snare weapons (net, bola, lasso): a hit deals its damage only (off), or also entangles the "
                    "target (entangle): its turns go to escaping, a full action and a test of the higher of S and "
                    "Ag, until one succeeds"),
    OptionSpec("kite_flee", "W-8.11", "off", ("off", "on"),
               help="an engaged kiter draws its melee weapon (off), or with flee_outcome = reposition flees (a "
                    "full action, W-3.16: its foe's free attack as leave_melee says) to shoot again"),
    OptionSpec("grapple_via", "W-12.1", "standard_or_charge", ("standard_or_charge", "standard"),
               help="a grapple attempt is a standard attack or a charge's attack (+10 WS, rulebook), or a standard "
                    "attack only (a grappler's charge then strikes as any charge)"),
    OptionSpec("grapple_reaction", "W-12.1", "allowed", ("allowed", "none"),
               help="the foe may parry or dodge a grapple attempt that hits, as any melee hit (allowed), or not "
                    "(none)"),
    OptionSpec("grapple_hands", "W-12.1", "any", ("any", "free"),
               help="a grappler attempts with whatever it holds (any), or needs both hands empty (free: it drops "
                    "what it holds first, as the option drop says, and never readies it again)"),
    OptionSpec("grapple_location", "W-12.5", "roll", ("roll", "body"),
               help="where a grappler's hurt lands: a fresh d100 read as a hit location (roll), or the body"),
    OptionSpec("grapple_fury", "W-12.5", "none", ("none", "auto"),
               help="a hurt's damage d10 of 10: nothing more (none: no to-hit test to confirm Ulric's Fury), or "
                    "Fury d10s added while they show 10 without a test (auto)"),
)

# -- the kernels' option row (int64[NO]); crit_table is read by the rules loader ---------------------
ROW = OptionRow(OPTION_SPECS)
O_ROUND_CAP = ROW.slot("round_cap")
O_INITIATIVE_ROLL = ROW.slot("initiative_roll")
O_SURPRISE = ROW.slot("surprise")
O_OPPOSED = ROW.slot("opposed")
O_AUTO_RESULTS = ROW.slot("auto_results")
O_MODIFIER_CAP = ROW.slot("modifier_cap")
O_DEFENSIVE_STANCE = ROW.slot("defensive_stance")
O_PARRY_DODGE_CHOICE = ROW.slot("parry_dodge_choice")
O_BALANCED_OFFHAND = ROW.slot("balanced_offhand")
O_FURY_CONFIRM = ROW.slot("fury_confirm")
O_TIRING = ROW.slot("tiring")
O_CRIT_MODEL = ROW.slot("crit_model")
O_CRIT_THRESHOLD = ROW.slot("crit_threshold")
O_PRONE_BONUS = ROW.slot("prone_bonus")
O_FORTUNE = ROW.slot("fortune")
O_FORTUNE_EXTRA_REACTION = ROW.slot("fortune_extra_reaction")
O_FORTUNE_KEEP_LAST = ROW.slot("fortune_keep_last")
O_FORTUNE_INITIATIVE = ROW.slot("fortune_initiative")
O_FORTUNE_HALF_ACTION = ROW.slot("fortune_half_action")
O_HELPLESS = ROW.slot("helpless")
O_MAX_ENGAGED = ROW.slot("max_engaged")  # the limit itself (8, or 99: unlimited)
O_INITIATIVE_GROUP = ROW.slot("initiative_group")
O_OUTNUMBER = ROW.slot("outnumber")
O_FINISH_HELPLESS = ROW.slot("finish_helpless")
O_CHOPPA = ROW.slot("choppa")
O_STRIKE_MIGHTY_BLOW = ROW.slot("strike_mighty_blow")
O_STREET_FIGHTING = ROW.slot("street_fighting")
O_START_DISTANCE = ROW.slot("start_distance")
O_LEAVE_MELEE = ROW.slot("leave_melee")
O_FLEE_OUTCOME = ROW.slot("flee_outcome")
O_TERRAIN = ROW.slot("terrain")
O_DIFFICULT_CHARGE = ROW.slot("difficult_charge")
O_ARENA = ROW.slot("arena")
O_APPROACH = ROW.slot("approach")
O_RELOAD_BREAK = ROW.slot("reload_break")
O_START_LOADED = ROW.slot("start_loaded")
O_NO_LONG = ROW.slot("no_long")
O_EXTREME = ROW.slot("extreme")
O_EXTREME_MOD = ROW.slot("extreme_mod")
O_SURE_SHOT_STACK = ROW.slot("sure_shot_stack")
O_MISFIRE_BAND = ROW.slot("misfire_band")
O_SHRAPNEL = ROW.slot("shrapnel")
O_DELAY_CUT = ROW.slot("delay_cut")
O_AMMO = ROW.slot("ammo")
O_BS_BONUS = ROW.slot("bs_bonus")
O_VISIBILITY = ROW.slot("visibility")
O_COVER = ROW.slot("cover")
O_SWIFT_BRACE = ROW.slot("swift_brace")
O_DROP = ROW.slot("drop")
O_MANOEUVRE_TEST = ROW.slot("manoeuvre_test")
O_MANOEUVRE_FOLLOW = ROW.slot("manoeuvre_follow")
O_KITE_FLEE = ROW.slot("kite_flee")
O_AIM = ROW.slot("aim")
O_SNARE = ROW.slot("snare")
O_GRAPPLE_VIA = ROW.slot("grapple_via")
O_GRAPPLE_REACTION = ROW.slot("grapple_reaction")
O_GRAPPLE_HANDS = ROW.slot("grapple_hands")
O_GRAPPLE_LOCATION = ROW.slot("grapple_location")
O_GRAPPLE_FURY = ROW.slot("grapple_fury")
NO = ROW.size

# -- codes of the choices the kernels compare with ------------------------------------------------
# official_like: the kernel's other branch
OPPOSED_BOTH_FAIL_REROLL, OPPOSED_DEFENDER_WINS_TIES = ROW.codes("opposed")[1:]
FURY_EACH, FURY_FIRST_ONLY, FURY_NONE = ROW.codes("fury_confirm")
CRIT_SUDDEN_DEATH, CRIT_THRESHOLD, CRIT_TABLE = ROW.codes("crit_model")
FORTUNE_ATTACK_FIRST, FORTUNE_NEVER = ROW.codes("fortune")[1:]  # reaction_first: the other branch
CHOPPA_PLUS1, CHOPPA_IMPACT = ROW.codes("choppa")[1:]  # hand_weapon: no effect
EXTREME_AIM_ADDS, EXTREME_STACK = ROW.codes("extreme_mod")[1:]  # flat: the other branch
INITIATIVE_ONCE, INITIATIVE_EVERY_ROUND = ROW.codes("initiative_roll")
SURPRISE_NONE, SURPRISE_A, SURPRISE_B = ROW.codes("surprise")  # a side's code: SURPRISE_A + its side
AUTO_RESULTS_NONE, AUTO_RESULTS_01_05_96_00 = ROW.codes("auto_results")
DEFENSIVE_STANCE_HALF, DEFENSIVE_STANCE_FULL = ROW.codes("defensive_stance")
PARRY_DODGE_PER_ATTACK, PARRY_DODGE_PER_ROUND = ROW.codes("parry_dodge_choice")
BALANCED_OFFHAND_TRUE, BALANCED_OFFHAND_FALSE = ROW.codes("balanced_offhand")
TIRING_FIRST_ROUND, TIRING_IGNORE = ROW.codes("tiring")
EXTRA_REACTION_EXTRA_USE, EXTRA_REACTION_REROLL_ONLY = ROW.codes("fortune_extra_reaction")
KEEP_LAST_KEEP, KEEP_LAST_SPEND = ROW.codes("fortune_keep_last")
FORTUNE_INITIATIVE_OFF, FORTUNE_INITIATIVE_ON = ROW.codes("fortune_initiative")
FORTUNE_HALF_ACTION_OFF, FORTUNE_HALF_ACTION_ON = ROW.codes("fortune_half_action")
HELPLESS_OUT, HELPLESS_ATTACKABLE = ROW.codes("helpless")
INITIATIVE_PER_FIGHTER, INITIATIVE_PER_TYPE = ROW.codes("initiative_group")
OUTNUMBER_NONE, OUTNUMBER_TABLE_6_2 = ROW.codes("outnumber")
FINISH_HELPLESS_OFF, FINISH_HELPLESS_ON = ROW.codes("finish_helpless")
MIGHTY_BLOW_IGNORE, MIGHTY_BLOW_PLUS1 = ROW.codes("strike_mighty_blow")
STREET_FIGHTING_IGNORE, STREET_FIGHTING_ON = ROW.codes("street_fighting")
LEAVE_MELEE_SEED, LEAVE_MELEE_RULEBOOK = ROW.codes("leave_melee")
FLEE_OUT, FLEE_REPOSITION = ROW.codes("flee_outcome")
TERRAIN_OPEN, TERRAIN_DIFFICULT = ROW.codes("terrain")
DIFFICULT_CHARGE_HALF, DIFFICULT_CHARGE_FORBIDDEN = ROW.codes("difficult_charge")
APPROACH_RUN, APPROACH_DOUBLE_MOVE = ROW.codes("approach")
RELOAD_BREAK_OTHER_ACTION, RELOAD_BREAK_ALSO_DAMAGE = ROW.codes("reload_break")
START_LOADED_TRUE, START_LOADED_FALSE = ROW.codes("start_loaded")
NO_LONG_SHORT_IS_MAX, NO_LONG_DOUBLE_SHORT = ROW.codes("no_long")
EXTREME_2X_LONG, EXTREME_OFF = ROW.codes("extreme")
SURE_SHOT_STACK_TRUE, SURE_SHOT_STACK_FALSE = ROW.codes("sure_shot_stack")
SHRAPNEL_NO_TEST, SHRAPNEL_BS_TEST = ROW.codes("shrapnel")
DELAY_CUT_BETWEEN_ACTIONS, DELAY_CUT_AFTER_MOVE = ROW.codes("delay_cut")
BS_BONUS_NONE, BS_BONUS_PLUS20 = ROW.codes("bs_bonus")
COVER_NONE, COVER_LEGS = ROW.codes("cover")
SWIFT_BRACE_OFF, SWIFT_BRACE_ON = ROW.codes("swift_brace")
DROP_FREE, DROP_HALF = ROW.codes("drop")
MANOEUVRE_ATTACK, MANOEUVRE_OPPOSED_WS = ROW.codes("manoeuvre_test")
MANOEUVRE_STAY, MANOEUVRE_ADVANCE = ROW.codes("manoeuvre_follow")
AIM_SAME_TURN, AIM_NEXT_ACTION = ROW.codes("aim")
SNARE_OFF, SNARE_ENTANGLE = ROW.codes("snare")
KITE_FLEE_OFF, KITE_FLEE_ON = ROW.codes("kite_flee")
GRAPPLE_VIA_STANDARD_OR_CHARGE, GRAPPLE_VIA_STANDARD = ROW.codes("grapple_via")
GRAPPLE_REACTION_ALLOWED, GRAPPLE_REACTION_NONE = ROW.codes("grapple_reaction")
GRAPPLE_HANDS_ANY, GRAPPLE_HANDS_FREE = ROW.codes("grapple_hands")
GRAPPLE_LOCATION_ROLL, GRAPPLE_LOCATION_BODY = ROW.codes("grapple_location")
GRAPPLE_FURY_NONE, GRAPPLE_FURY_AUTO = ROW.codes("grapple_fury")
#: the values of the number options that mean "none": no modifier cap, no arena, unlimited ammunition
NO_MODIFIER_CAP = 0
NO_ARENA = 0
UNLIMITED_AMMO = 0


def compile_options(options: RuleOptions) -> np.ndarray:
    """Resolved rule options → ``int64[NO]`` (slots ``O_*``)."""
    return ROW.row(options)
