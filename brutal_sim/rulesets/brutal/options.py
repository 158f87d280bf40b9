"""The rule options of the Brutal ruleset: every GAP of the digest (``docs/rules/brutal.md``) with
its rule id, its default and its named alternatives; their slots in the kernels' ``int64[NO]`` option
row (``O_*``) and the codes of the choices the kernels compare with, both derived from the specs.
"""

from __future__ import annotations

import numpy as np

from ...core.options import OptionRow, OptionSpec, RuleOptions

OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec("check_bonus", "B-1.1", "total", ("total", "attribute_plus_skill"), kernel=False,
               help="a check adds the stat block's total (checks.*), or an attribute plus the skill of the same "
                    "name (skills.*) by the rules file's [check_formula]"),
    OptionSpec("surprise", "B-2.3", "none", ("none", "a", "b"),
               help="which side (if any) is surprised and loses all actions and reactions in round 1"),
    OptionSpec("round_cap", "B-2.9", 100, int_range=(1, 10000),
               help="a fight still running after this many rounds is recorded as a draw"),
    OptionSpec("stand_up_action", "B-3.11", "standard", ("standard", "full"),
               help="action class of standing up (the seed does not give it)"),
    OptionSpec("attack_needs_base_difficulty", "B-4.3", "true", ("true", "false"), codes=(1, 0),
               help="an attack result below the base difficulty (8) misses before any reaction"),
    OptionSpec("dodge_ends_stance", "B-9.4", "after", ("after", "before", "never"),
               help="a dodge (against a blow or a shot) interrupts concentration: it ends the defensive stance of "
                    "an attack from a defensive stance (B-3.2; a tactic's stance taken with an attack). after: that "
                    "dodge still gets the stance bonus; before: it does not; never: the stance lasts until the own "
                    "next turn. Total defence (B-3.7, a defence action, not concentration) is never ended by a dodge"),
    OptionSpec("dazed_penalty", "B-9.5", "active_only", ("active_only", "all_checks"),
               help="checks a dazed fighter's −2 applies to: active_only: reactions and the other checks of active "
                    "actions, not the passive ones (toughness against wound effects and a mortal wound, willpower "
                    "against exhaustion); all_checks: those passive checks too (the fear re-check never: its "
                    "daze is the fear's own)"),
    # B-9.6 terrain of each side: the two sides of an option side by side (the kernels read side s at slot + s)
    *(OptionSpec(f"terrain_{side}", "B-9.6", "normal", ("normal", "difficult", "very_difficult"), codes=(0, 1, 2),
                 help=f"ground side {side} fights on: difficult (mud, water to the shin, bushes) −1, very_difficult "
                      "(ice, deep snow) −2 to all its checks of active actions (attacks, shots, parries, dodges, "
                      "feints, athletics and mobility checks; not toughness or willpower)")
      for side in "ab"),
    OptionSpec("darkness", "B-9.6", "off", ("off", "on"),
               help="moonless night, thick fog or smoke: −4 to all melee and ranged combat checks (attacks, shots, "
                    "parries; a feint's two melee checks both, which cancels; dodges by darkness_dodge)"),
    OptionSpec("darkness_dodge", "B-9.6", "no", ("no", "yes"),
               help="whether darkness's −4 also applies to dodges (a mobility check, not a melee or ranged one; the "
                    "seed does not say)"),
    OptionSpec("margin_against", "B-4.6", "reaction", ("reaction", "max(base,reaction)"),
               help="extra successes of a hit are counted against the reaction result, or against the higher of it "
                    "and the base difficulty"),
    OptionSpec("melee_damage_adds_strength", "B-4.10", "false", ("false", "true"),
               help="add the attacker's strength to armed melee damage (unarmed damage always adds it)"),
    OptionSpec("extra_successes_floor_damage", "B-4.11", "true", ("true", "false"), codes=(1, 0),
               help="each weapon die shows at least min(extra successes, die size); the confident-hit floor (half the "
                    "die at 4+ extra) applies either way"),
    OptionSpec("armour_model", "B-4.14", "marker", ("marker", "marker_pierce_ignores_protection", "protection_only"),
               help="marker: d6+penetration−toughness ≥ threshold pierces, else the hit turns blunt; protection "
                    "always subtracts. "
                    "marker_pierce_ignores_protection: as marker, but a pierced armour's protection does not subtract. "
                    "protection_only: no marker; protection subtracts and the damage type is kept"),
    OptionSpec("pierce_threshold", "B-4.14", 4, int_range=(1, 12),
               help="penetration-marker total (d6 + penetration − armour toughness) that pierces the armour"),
    OptionSpec("broken_weapon", "B-4.4", "degraded", ("degraded", "destroyed"),
               help="a weapon that loses the hard-block durability test by 6+ is degraded (−2 attack and parry, "
                    "damage one die step lower, penetration −1) or destroyed"),
    OptionSpec("second_break", "B-4.4", "destroyed", ("destroyed", "degraded_again"),
               help="a break of a weapon already degraded (broken_weapon=degraded): it is destroyed, or it stays "
                    "degraded (the effects of a break do not stack; the break is counted)"),
    OptionSpec("stuck_weapon", "B-9.7", "never", ("never", "cutting_and_piercing", "always"),
               help="in cramped space (cramped_space) an armed melee attack voided by a natural 1+1 leaves the "
                    "weapon stuck: never; only cutting and piercing weapons; always. Freeing it is a standard "
                    "action and an athletics check vs 10 (before the attack, as readying); until then the "
                    "weapon is out of use (the fighter fights with the other hand's weapon or unarmed)"),
    OptionSpec("finish_helpless", "B-9.8", "off", ("off", "on"),
               help="group fights: fighters finish helpless enemies (out of the fight unconscious, not fled, not "
                    "dead): a fighter keeps attacking its foe while it lies helpless, and takes a helpless enemy "
                    "when no standing enemy has room for it; difficulty 4, ordinary hits count as confident, "
                    "confident as critical (B-4.13); wounds with no cell left on the track: coma, then death (B-6.7)"),
    OptionSpec("refelled", "B-3.11", "may_retry", ("may_retry", "stays_down", "stands"),
               help="a fighter felled again by the opportunity attack its standing up provoked (B-3.8) tries to "
                    "stand again with a remaining action (may_retry), or stays down for the rest of the turn "
                    "(stays_down), or stands: the attack resolves first and the stand-up still completes"),
    OptionSpec("knocked_away_again", "B-3.10", "stays_down", ("stays_down", "may_retry", "ready_completes"),
               help="a weapon knocked away again by the opportunity attack its readying provoked (B-3.8) stays on "
                    "the ground for the rest of the turn (stays_down), or the fighter tries to ready it again "
                    "with a remaining action (may_retry), or ready_completes: the attack resolves before the "
                    "Ready takes effect, the fighter holds nothing yet, and the Ready still puts the weapon in hand"),
    OptionSpec("felled_while_readying", "B-3.10", "fight_prone", ("fight_prone", "stand_up"),
               help="a fighter knocked down by the opportunity attack its readying provoked (B-3.8) goes on with "
                    "its remaining action prone (fight_prone: attacking at −4, prone for the foe's turn), or "
                    "stand_up: with its remaining action it stands up first (B-3.11: provoking an opportunity "
                    "attack from an enemy that has one left)"),
    OptionSpec("react_in_own_turn", "B-2.7", "yes", ("yes", "no"), codes=(1, 0),
               help="whether a fighter parries or dodges attacks made on it during its own turn (the opportunity "
                    "attacks its own actions provoke, B-3.8; readied attacks its actions trigger, B-9.1): yes; "
                    "no: reactions happen outside the own turn (B-2.7), so those attacks meet no reaction"),
    OptionSpec("cramped_space", "B-7.9", "false", ("false", "true"),
               help="solid obstacles within reach: a natural 1+1 on an armed attack or parry voids that action "
                    "(whether the attacking weapon gets stuck: stuck_weapon)"),
    OptionSpec("exertion_fatigue", "B-7.8", "off", ("off", "per_round_after_endurance", "every_endurance_rounds"),
               help="fatigue from the exertion of fighting (the seed names exertion as a source but gives no "
                    "rate): off; "
                    "per_round_after_endurance: one level before each own turn after the first <endurance> turns; "
                    "every_endurance_rounds: one level before every <endurance>-th own turn (every turn at "
                    "endurance 0)"),
    OptionSpec("grapple_hands", "B-3.12", "one_free", ("one_free", "both_free"), codes=(1, 2),
               help="free hands a grapple attack needs: the seed calls it an unarmed attack but only forbids "
                    "controlling with both hands occupied; without them the grapple tactic attacks plainly"),
    OptionSpec("readied_trigger", "B-9.1", "enemy_enters_reach", ("enemy_enters_reach", "enemy_attacks"),
               help="what fires the attack a ready_attack fighter readies (a full action) before its next turn: the "
                    "enemy coming into melee (a charge, an approach; engaged, the tactic attacks plainly), or the "
                    "enemy starting an attack; it resolves before the triggering action"),
    OptionSpec("unarmed_full_attack", "B-9.2", "furious", ("furious", "flurry"), codes=(1, 2),
               help="which full action is the unarmed full attack scoring one more hit per 2 extra successes (at "
                    "most the melee check's value): the furious attack made with fists (+4, no reactions), or the "
                    "flurry tactic's full action (no +4)"),
    OptionSpec("start_distance", "B-8", 0, int_range=(0, 500),
               help="metres between the fighters at the start (the seed gives no duel setup); 0: engaged in melee"),
    OptionSpec("outnumbered", "B-4.7", "by_count", ("by_count", "one_side", "none"),
               help="group fights: reaction penalty of a defender with c engagers (the seed's situations need a map): "
                    "by_count: c = 2 −1, 3 −2 (flanked), 4+ −4 (surrounded); one_side: c ≥ 2 −1; none"),
    OptionSpec("attack_limit", "B-4.7", "open", ("open", "front", "corner", "corridor"), codes=(6, 3, 2, 1),
               help="group fights: most enemies engaging one fighter: open field 6, front 3, corner 2, corridor 1"),
    # B-8 cover of each side: the two sides of an option side by side (the kernels read side s at slot + s)
    *(OptionSpec(f"cover_{side}", "B-8", "none", ("none", "quarter", "half", "three_quarters"), codes=(0, 1, 2, 3),
                 help=f"explicit cover [Явное укрытие] of side {side}: attacks on it (melee and shots) count it as a "
                      "smaller target, quarter 1, half 2, three_quarters 3 steps down the size table (a medium "
                      "target: −1, −2, −4; clamped at tiny); its hits re-roll hidden zones (cover_zones_*)")
      for side in "ab"),
    *(OptionSpec(f"cover_zones_{side}", "B-8", "horizontal", ("horizontal", "vertical_left", "vertical_right"),
                 help=f"zones side {side}'s explicit cover hides: horizontal the zone-table rolls 1–10 (legs, lower "
                      "torso; the lower half of the die), vertical the odd (left) or even (right) rolls; head rolls "
                      "are always open")
      for side in "ab"),
    *(OptionSpec(f"indirect_cover_{side}", "B-8", 0, int_range=(0, 100),
                 help=f"indirect cover [Неявное укрытие] of side {side} against shots: a d100 ≤ this value after a "
                      "hit deflects the shot (counted as a miss); 100: it cannot be shot at")
      for side in "ab"),
    *(OptionSpec(f"indirect_cover_penalty_{side}", "B-8", "none", ("none", "sparse", "dense", "thicket"),
                 codes=(0, 1, 2, 4),
                 help=f"attack penalty of shots at side {side} through indirect cover (seed table): sparse −1, "
                      "dense −2, thicket −4")
      for side in "ab"),
    OptionSpec("cover_shooter_penalty", "B-8", 2, int_range=(0, 4),
               help="penalty to a shot fired from behind explicit cover (the seed: −2)"),
    OptionSpec("cover_degree_zones", "B-9.9", "by_degree", ("by_degree", "same_as_half"),
               help="zones each degree of explicit cover hides: by_degree (the seed): quarter the leg rolls, half "
                    "the rolls 1–10, three_quarters every roll but the head, one arm and one leg (drawn per fight; "
                    "vertical cover: the arm and leg of the open side); vertical cover hides its side at quarter "
                    "and half. same_as_half: every degree hides what half cover hides (cover_zones_*)"),
    OptionSpec("short_weapon_bands", "B-9.10", "literal", ("literal", "single_shift"),
               help="point blank and close for short weapons: literal (the seed): a weapon of long range ≤ 10 m "
                    "has close within 3 m, one of ≤ 3 m point blank within 1 m (so 4–10 m weapons keep point blank "
                    "within 3 m); single_shift: every weapon of range ≤ 10 m has point blank ≤ 1 m and close ≤ 3 m"),
    OptionSpec("charge_attack_modifier", "B-8", 0, int_range=(-4, 4),
               help="modifier of a charge's attack [Натиск] (the seed names the action but gives no modifier)"),
    OptionSpec("charge_moving_target", "B-8", "false", ("false", "true"),
               help="a charger counts as a moving target (difficulty 12, B-4.1) until its next turn, as a runner"),
    OptionSpec("charge_provokes", "B-3.8", "engaged_start", ("engaged_start", "target"),
               help="who gets the opportunity attack a charge provokes: an enemy engaged with the charger at its "
                    "start (never in a duel, where a charge starts apart), or also the charged target as it arrives"),
    OptionSpec("sprint", "B-8", "allowed", ("allowed", "off"), codes=(1, 0),
               help="sprint [Спринт]: a running melee fighter who ran in its previous turn and cannot reach with a run "
                    "covers six moves; its next action must be a run or a normal (10) mobility [dodge] check, else it "
                    "falls prone. The seed allows it in light load only: encumbrance is not modelled, 'off' "
                    "forbids it"),
    OptionSpec("zone_table", "B-4.9", "default", kernel=False, path=True, path_words=("default",),
               help="hit-zone table: 'default' or the path of a zone table TOML file"),
)

# -- the kernels' option row (int64[NO]); check_bonus and zone_table act in the compile step --------
ROW = OptionRow(OPTION_SPECS)
O_SURPRISE = ROW.slot("surprise")
O_ROUND_CAP = ROW.slot("round_cap")
O_STAND_UP_ACTION = ROW.slot("stand_up_action")
O_ATTACK_NEEDS_BASE_DIFFICULTY = ROW.slot("attack_needs_base_difficulty")
O_DODGE_ENDS_STANCE = ROW.slot("dodge_ends_stance")
O_DAZED_PENALTY = ROW.slot("dazed_penalty")
O_TERRAIN = ROW.pair("terrain")  # B-9.6, side s at the slot + s
O_DARKNESS = ROW.slot("darkness")
O_DARKNESS_DODGE = ROW.slot("darkness_dodge")
O_MARGIN_AGAINST = ROW.slot("margin_against")
O_MELEE_DAMAGE_ADDS_STRENGTH = ROW.slot("melee_damage_adds_strength")
O_EXTRA_SUCCESSES_FLOOR_DAMAGE = ROW.slot("extra_successes_floor_damage")
O_ARMOUR_MODEL = ROW.slot("armour_model")
O_PIERCE_THRESHOLD = ROW.slot("pierce_threshold")
O_BROKEN_WEAPON = ROW.slot("broken_weapon")
O_SECOND_BREAK = ROW.slot("second_break")
O_STUCK_WEAPON = ROW.slot("stuck_weapon")
O_FINISH_HELPLESS = ROW.slot("finish_helpless")
O_REFELLED = ROW.slot("refelled")
O_KNOCKED_AWAY_AGAIN = ROW.slot("knocked_away_again")
O_FELLED_WHILE_READYING = ROW.slot("felled_while_readying")
O_REACT_IN_OWN_TURN = ROW.slot("react_in_own_turn")
O_CRAMPED_SPACE = ROW.slot("cramped_space")
O_EXERTION_FATIGUE = ROW.slot("exertion_fatigue")
O_GRAPPLE_HANDS = ROW.slot("grapple_hands")
O_READIED_TRIGGER = ROW.slot("readied_trigger")
O_UNARMED_FULL_ATTACK = ROW.slot("unarmed_full_attack")
O_START_DISTANCE = ROW.slot("start_distance")
O_OUTNUMBERED = ROW.slot("outnumbered")
O_ATTACK_LIMIT = ROW.slot("attack_limit")
# B-8 cover, side s at the slot + s
O_COVER = ROW.pair("cover")
O_COVER_ZONES = ROW.pair("cover_zones")
O_INDIRECT_COVER = ROW.pair("indirect_cover")
O_INDIRECT_COVER_PENALTY = ROW.pair("indirect_cover_penalty")
O_COVER_SHOOTER_PENALTY = ROW.slot("cover_shooter_penalty")
O_COVER_DEGREE_ZONES = ROW.slot("cover_degree_zones")
O_SHORT_WEAPON_BANDS = ROW.slot("short_weapon_bands")
O_CHARGE_ATTACK_MODIFIER = ROW.slot("charge_attack_modifier")
O_CHARGE_MOVING_TARGET = ROW.slot("charge_moving_target")
O_CHARGE_PROVOKES = ROW.slot("charge_provokes")
O_SPRINT = ROW.slot("sprint")
NO = ROW.size

# -- codes of the choices the kernels compare with ------------------------------------------------
ARMOUR_MARKER, ARMOUR_MARKER_PIERCE_IGNORES, ARMOUR_PROTECTION_ONLY = ROW.codes("armour_model")
EXERTION_OFF, EXERTION_AFTER_ENDURANCE, EXERTION_EVERY_ENDURANCE = ROW.codes("exertion_fatigue")
OUTNUMBERED_BY_COUNT, OUTNUMBERED_ONE_SIDE, OUTNUMBERED_NONE = ROW.codes("outnumbered")
COVER_HORIZONTAL, COVER_VERTICAL_LEFT, COVER_VERTICAL_RIGHT = ROW.codes("cover_zones_a")
CHARGE_PROVOKES_ENGAGED, CHARGE_PROVOKES_TARGET = ROW.codes("charge_provokes")
COVER_DEGREES_BY_DEGREE, COVER_DEGREES_SAME_AS_HALF = ROW.codes("cover_degree_zones")
SHORT_BANDS_LITERAL, SHORT_BANDS_SINGLE_SHIFT = ROW.codes("short_weapon_bands")
TRIGGER_ENTERS_REACH, TRIGGER_ATTACKS = ROW.codes("readied_trigger")
DODGE_STANCE_AFTER, DODGE_STANCE_BEFORE, DODGE_STANCE_NEVER = ROW.codes("dodge_ends_stance")
SECOND_BREAK_DESTROYED, SECOND_BREAK_DEGRADED = ROW.codes("second_break")
STUCK_NEVER, STUCK_CUTTING_PIERCING, STUCK_ALWAYS = ROW.codes("stuck_weapon")
REFELLED_RETRY, REFELLED_STAYS, REFELLED_STANDS = ROW.codes("refelled")
KNOCKED_AWAY_STAYS, KNOCKED_AWAY_RETRY, KNOCKED_AWAY_READY_COMPLETES = ROW.codes("knocked_away_again")
FELLED_FIGHT_PRONE, FELLED_STAND_UP = ROW.codes("felled_while_readying")


def compile_options(options: RuleOptions) -> np.ndarray:
    """Resolved rule options → ``int64[NO]`` (slots ``O_*``)."""
    return ROW.row(options)
