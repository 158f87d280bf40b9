"""A slow, readable, pure-Python reference of one Brutal fight (N against M, docs/groups.md; a duel
is the fight of one against one) and of one single attack.

This module re-implements, independently of :mod:`brutal_sim.rulesets.brutal.kernel`, the rules of the digest
(``docs/rules/brutal.md``, rule ids ``B-…``) with the readings (GAP defaults, house
extensions) that the kernel documents, and it draws random numbers in exactly the kernel's order
(``docs/engine.md``), so that for the same ``(seed, duel index)`` both produce the same counters.
No numba, no numpy in the game logic.

* Random numbers: :class:`Xoshiro256StarStar`, seeded per duel by splitmix64 (see
  :meth:`Xoshiro256StarStar.for_duel`), written with explicit ``& MASK64`` arithmetic.
* Inputs: the compiled arrays (``compile_pair``, ``compile_options``, the zone table) are turned
  into plain dataclasses (:class:`NaiveFighter`, :class:`NaiveTactic`, :class:`NaiveRules`) once,
  in :func:`fighters_from_rows` / :meth:`NaiveRules.from_array`; the game logic never indexes
  arrays.
* Output: a :class:`FightRecord` (readable, with a :class:`FighterOutcome` per row) that
  :meth:`FightRecord.counter_row` lays out like the kernel's counters (the header ``C_*`` of
  :mod:`brutal_sim.rulesets.brutal.layout`, then for group fights the block ``G_*``).
* Entry points, named like the API calls they mirror: :func:`fight` (any N ≤ 12), :func:`duel` (its 1 vs 1 case) and
  :func:`attack`.

Draw order (the contract with the kernel):

1. initiative: 2d6 per fighter in row order (a, then b in a duel); fully tied fighters reroll in
   row order, tied groups in turn order (B-2.2); then fear (5); then a d4 for each fighter (row
   order) behind three-quarter horizontal cover (B-9.9: the arm and leg it shows; a single attack
   draws it for the target first); then each fighter chooses its foe in turn order (no dice; again
   at the start of each own turn, after bleeding and exertion);
2. a feint: 2d6 for the feinter, then 2d6 for the target, before its attack roll (B-3.6);
3. each attack: attack 2d6; the reaction 2d6 (if any); then either the hard-block contests
   (2d6 a, 2d6 b; bare fists then a d2 for the arm), or on a hit: the zone die (unless aimed),
   each weapon die (none on a critical), the critical d6, the penetration marker d6 (armoured
   zone, marker armour models), then the wound's toughness check (one 2d6);
4. a knock-down hit rolls the opposed athletics (attacker, defender) and, if the attacker wins,
   the defender's mobility 2d6 — instead of zone and damage (B-3.9);
5. fear (B-7.10): every fighter in row order (a then b) facing a fear rating at the start, the
   second check before the frightened fighter's turn;
6. fatigue (B-7.8): each level beyond endurance (exertion before the turn, after bleeding; fire
   wounds after the wound's effects) rolls the willpower 2d6;
7. grapple (B-3.12): contests roll the active fighter's 2d6, then the other's; a throw's fall a d4;
8. a shot apart (B-8): attack 2d6, then the target's dodge 2d6 if the attack reaches the
   difficulty, then the blow as in 3;
9. opportunity attacks (B-3.8): every engaged enemy in row order, each attack as in 3;
10. readied attacks (B-9.1): when a fighter comes into reach (after its move, run or the charge's
    closing in) or starts its tactic's attack or a shot in melee, by the option ``readied_trigger``:
    every engaged enemy holding one, in turn order, an attack as in 3, before the action goes on;
11. an unarmed full attack (B-9.2) that hit: its further hits after the first blow (and after a
    paired attack or failed knock-down's opportunity attack, which it never has), each zone die,
    fist die and wound as in 3; an aimed attack at the weapon (B-9.3) that hits: the hard block's
    dice of 3 (durability 2d6 a, 2d6 b; fists: the weapon's blow on the attacker's right arm).
12. freeing a stuck weapon (B-9.7): one 2d6 (athletics vs 10) where a dropped weapon would be
    readied (main hand before the attack, off hand after it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from naive_rng import GAMMA, MASK32, MASK64, Roll2d6, Xoshiro256StarStar, rotate_left, splitmix64_output  # noqa: F401

# --------------------------------------------------------------------------------------------------
# Readable names
# --------------------------------------------------------------------------------------------------

ZONES = ("head", "torso", "left_arm", "right_arm", "left_leg", "right_leg")
ZONE_GROUP = {"head": "head", "torso": "torso", "left_arm": "arm", "right_arm": "arm",
              "left_leg": "leg", "right_leg": "leg"}
ZONE_GROUPS = ("head", "torso", "arm", "leg")
DAMAGE_TYPES = ("cutting", "blunt", "shock", "fire", "blast")  # piercing compiles to cutting
REACTIONS = ("best", "parry", "dodge", "none")
ARMOUR_MODELS = ("marker", "marker_pierce_ignores_protection", "protection_only")
TARGETINGS = ("spread", "weakest", "nearest")  # docs/groups.md, codes TG_*
OUTNUMBERED = ("by_count", "one_side", "none")  # B-4.7 option, codes OUTNUMBERED_*
EXERTION = ("off", "per_round_after_endurance", "every_endurance_rounds")  # B-7.8 option, codes EXERTION_*
DIE_STEPS = (2, 3, 4, 6, 8, 10, 12, 20)  # B-4.4: a broken weapon's die drops one step

# wound levels (B-5.1), in increasing order
NONE, LIGHT_DAMAGE, LIGHT, HEAVY, CRITICAL, MORTAL = (
    "none", "light_damage", "light", "heavy", "critical", "mortal")
LEVELS = (NONE, LIGHT_DAMAGE, LIGHT, HEAVY, CRITICAL, MORTAL)

# attack outcomes and how a fighter leaves the fight
MISS, PARRIED, DODGED, HARD_BLOCK, HIT = "miss", "parried", "dodged", "hard_block", "hit"
OUTCOMES = (MISS, PARRIED, DODGED, HARD_BLOCK, HIT)
TRACK_FULL, KNOCKED_OUT, MORTAL_WOUND, FLED, EXHAUSTED = (
    "track_full", "knocked_out", "mortal", "fled", "exhausted")
PARRY_VOIDED = "voided"  # B-7.9: a parry that never happened
CAUSES = (TRACK_FULL, KNOCKED_OUT, MORTAL_WOUND, FLED, EXHAUSTED)
FIRE_WOUND_FATIGUE = {"light": 1, "heavy": 2, "critical": 4}  # B-7.8

MAIN, OFF, FISTS = "main", "off", "fists"
BASE_DIFFICULTY = 8  # B-4.1 ordinary target
# B-8 target size [Размер противника]: the seed's table, smallest first, and the attack modifier of each
SIZES = ("tiny", "miniature", "very_small", "small", "smaller", "medium", "larger", "large", "very_large",
         "huge", "gigantic")
SIZE_MODIFIERS = {"tiny": -8, "miniature": -6, "very_small": -4, "small": -2, "smaller": -1, "medium": 0,
                  "larger": 1, "large": 2, "very_large": 4, "huge": 6, "gigantic": 8}

# --------------------------------------------------------------------------------------------------
# Fighters and rules as plain objects (converted once from the compiled arrays)
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NaiveWeapon:
    """A weapon profile (B-4.10, B-4.14, B-4.4); fists are the unarmed weapon of B-7.7."""

    n_dice: int
    sides: int
    bonus: int
    damage_type: str
    penetration: int
    durability: int
    two_handed: bool
    parry_bonus: int
    unarmed: bool
    reach: int = 1
    ranges: tuple[int, int, int] | None = None  # B-8: short / medium / long range in metres
    reload: int = 0  # B-8: standard actions to reload after a shot

    @property
    def is_ranged(self) -> bool:
        return self.ranges is not None


@dataclass(frozen=True)
class NaiveArmour:
    """The armour covering one zone: protection and toughness (B-4.14)."""

    protection: int = 0
    toughness: int = 0

    @property
    def present(self) -> bool:
        return self.protection > 0 or self.toughness > 0


@dataclass(frozen=True)
class NaiveTactic:
    """What a fighter does with its turn (B-3), as settings (``data/brutal/tactics.toml``)."""

    attack: str = "normal"  # normal | knockdown (B-3.9) | grapple (B-3.12) | none
    attack_modifier: int = 0
    unarmed_attack_modifier: int = 0  # used when the attack is made with fists
    stance: int = 0  # bonus to parry and dodge until the own next turn (B-3.2, B-3.7)
    full_action: bool = False  # needs both standard actions (B-2.4)
    reaction_penalty: bool = False  # −2 to reactions until the own next turn (B-2.6)
    no_reactions: bool = False  # B-3.4
    no_opportunity_attacks: bool = False  # B-3.7
    feint_first: bool = False  # B-3.6
    aims: bool = False  # B-3.3
    grapple_action: str = "damage"  # B-3.12: damage | throw
    ranged: bool = False  # B-8: modifier, zone and stance apply to shots
    kite: bool = False  # B-8: a shooter steps back first
    run: bool = True  # B-8: closing in, run when two moves cannot reach
    drop_ranged: bool = False  # B-8: engaged, a shooter drops its ranged weapon
    charge: bool = False  # B-8: apart, within a run's distance, charge [Натиск]
    ready: bool = False  # B-9.1: a full action readies a single attack
    unarmed_full_attack: str = "none"  # B-9.2: none | furious | flurry — the option reading it answers to


@dataclass(frozen=True)
class NaiveFighter:
    """A fighter's fixed numbers: check bonuses (B-1.1), damage levels (B-5.1), kit and tactic."""

    melee: int
    ranged: int  # B-8
    dodge: int
    athletics: int
    toughness: int
    resolve: int
    willpower: int
    fear: int  # the fear rating this fighter inflicts (B-7.10), 0 none
    starting_fatigue: int  # fatigue levels at the start of the fight (B-7.8)
    endurance: int
    movement: int  # metres per move (B-8)
    strength: int
    agility: int
    damage_levels: tuple[int, int, int, int]
    initiative_bonus: int
    initiative_talent: bool
    ambidextrous: bool
    paired_weapons: bool
    opportunity_attacks_per_round: int
    tactic: NaiveTactic
    aim_zone: str | None
    reaction: str
    attack_talent: int
    parry_talent: int
    damage_talent: int
    n_cells: int
    main_hand: NaiveWeapon | None
    off_hand: NaiveWeapon | None
    fists: NaiveWeapon
    armour: dict[str, NaiveArmour]
    side: int = 0  # group fights (docs/groups.md): 0 side a, 1 side b
    rank: int = 0  # its place in its side's line, 0 … 5
    targeting: str = "spread"  # whom it attacks: spread | weakest | nearest
    size: str = "medium"  # B-8 target size (SIZES)
    melee_skill: int = 1  # B-9.2: the most hits of an unarmed full attack

    def weapon(self, slot: str) -> NaiveWeapon | None:
        return {MAIN: self.main_hand, OFF: self.off_hand, FISTS: self.fists}[slot]


def _weapon_from_row(row, base: int) -> NaiveWeapon | None:
    from brutal_sim.rulesets.brutal import layout as L

    if int(row[base + L.W_PRESENT]) == 0:
        return None
    return NaiveWeapon(
        n_dice=int(row[base + L.W_NDICE]),
        sides=int(row[base + L.W_SIDES]),
        bonus=int(row[base + L.W_BONUS]),
        damage_type=DAMAGE_TYPES[int(row[base + L.W_TYPE])],
        penetration=int(row[base + L.W_PEN]),
        durability=int(row[base + L.W_DUR]),
        two_handed=bool(row[base + L.W_TWO_HANDED]),
        parry_bonus=int(row[base + L.W_PARRY_BONUS]),
        unarmed=bool(row[base + L.W_UNARMED]),
        reach=int(row[base + L.W_REACH]),
        ranges=(tuple(int(row[base + k]) for k in (L.W_SHORT, L.W_MEDIUM, L.W_LONG))  # type: ignore[arg-type]
                if int(row[base + L.W_LONG]) > 0 else None),
        reload=int(row[base + L.W_RELOAD]),
    )


def fighter_from_row(row) -> NaiveFighter:
    """Convert one compiled ``int64[NF]`` row into a :class:`NaiveFighter` (the only array reads)."""
    from brutal_sim.rulesets.brutal import layout as L

    def w(slot: int) -> NaiveWeapon | None:
        return _weapon_from_row(row, L.P_WEAPONS + slot * L.WN)

    tactic = tactic_from_row(row)
    fists = w(L.SLOT_FISTS)
    assert fists is not None
    return NaiveFighter(
        melee=int(row[L.P_MELEE]), ranged=int(row[L.P_RANGED]), movement=int(row[L.P_MOVEMENT]),
        dodge=int(row[L.P_DODGE]), athletics=int(row[L.P_ATHLETICS]),
        toughness=int(row[L.P_TOUGHNESS]), resolve=int(row[L.P_RESOLVE]),
        willpower=int(row[L.P_WILLPOWER]), fear=int(row[L.P_FEAR]),
        starting_fatigue=int(row[L.P_FATIGUE0]),
        endurance=int(row[L.P_ENDURANCE]), strength=int(row[L.P_STRENGTH]),
        agility=int(row[L.P_AGILITY]),
        damage_levels=tuple(int(row[L.P_DL0 + k]) for k in range(4)),  # type: ignore[arg-type]
        initiative_bonus=int(row[L.P_INIT_MOD]), initiative_talent=bool(row[L.P_INIT_TALENT]),
        ambidextrous=bool(row[L.P_AMBIDEXTROUS]), paired_weapons=bool(row[L.P_PAIRED]),
        opportunity_attacks_per_round=int(row[L.P_OA_PER_ROUND]),
        tactic=tactic,
        aim_zone=ZONES[int(row[L.P_AIM_ZONE])] if tactic.aims else None,
        reaction=REACTIONS[int(row[L.P_REACTION])],
        attack_talent=int(row[L.P_ATTACK_MOD]), parry_talent=int(row[L.P_PARRY_MOD]),
        damage_talent=int(row[L.P_DAMAGE_MOD]), n_cells=int(row[L.P_NCELLS]),
        main_hand=w(L.SLOT_MAIN), off_hand=w(L.SLOT_OFF), fists=fists,
        armour={z: NaiveArmour(int(row[L.P_ARMOUR + 2 * k]), int(row[L.P_ARMOUR + 2 * k + 1]))
                for k, z in enumerate(ZONES)},
        side=int(row[L.P_SIDE]), rank=int(row[L.P_RANK]), targeting=TARGETINGS[int(row[L.P_TARGETING])],
        size=SIZES[SIZES.index("medium") + int(row[L.P_SIZE])],
        melee_skill=int(row[L.P_MELEE_SKILL]),
    )


def tactic_from_row(row) -> NaiveTactic:
    """The tactic settings of a compiled row (the ``P_T_*`` fields)."""
    from brutal_sim.rulesets.brutal import layout as L

    attack_names = {c: n for n, c in L.TACTIC_ATTACK_CODES.items()}
    return NaiveTactic(
        attack=attack_names[int(row[L.P_T_ATTACK])],
        attack_modifier=int(row[L.P_T_MOD]),
        unarmed_attack_modifier=int(row[L.P_T_UNARMED_MOD]),
        stance=int(row[L.P_T_STANCE]),
        full_action=bool(row[L.P_T_FULL]),
        reaction_penalty=bool(row[L.P_T_FULL_PEN]),
        no_reactions=bool(row[L.P_T_NO_REACT]),
        no_opportunity_attacks=bool(row[L.P_T_NO_OA]),
        feint_first=bool(row[L.P_T_FEINT]),
        aims=bool(int(row[L.P_AIM_ZONE]) >= 0),
        grapple_action={c: n for n, c in L.GRAPPLE_ACTION_CODES.items()}[int(row[L.P_T_GRAPPLE_ACTION])],
        ranged=bool(row[L.P_T_RANGED]), kite=bool(row[L.P_T_KITE]), run=bool(row[L.P_T_RUN]),
        drop_ranged=bool(row[L.P_T_DROP]), charge=bool(row[L.P_T_CHARGE]),
        ready=bool(row[L.P_T_READY]),
        unarmed_full_attack={c: n for n, c in L.UNARMED_FULL_CODES.items()}[int(row[L.P_T_FULL_UNARMED])],
    )


def fighters_from_rows(F) -> list[NaiveFighter]:
    """Every row of a compiled ``int64[N, NF]`` array: side a's fighters, then side b's."""
    return [fighter_from_row(row) for row in F]


@dataclass(frozen=True)
class NaiveRules:
    """The rule options (the GAP switches of the digest)."""

    surprised_side: int | None  # B-2.3
    round_cap: int  # B-2.9
    stand_up_is_full_action: bool  # B-3.11
    attack_needs_base_difficulty: bool  # B-4.3
    margin_against_max_of_base_and_reaction: bool  # B-4.6
    melee_damage_adds_strength: bool  # B-4.10
    extra_successes_floor_damage: bool  # B-4.11
    armour_model: str  # B-4.14
    pierce_threshold: int  # B-4.14
    broken_weapon_destroyed: bool  # B-4.4
    cramped_space: bool  # B-7.9
    exertion_fatigue: str  # B-7.8: off | per_round_after_endurance | every_endurance_rounds
    grapple_free_hands: int  # B-3.12: free hands a grapple attack needs (1 or 2)
    start_distance: int  # B-8: metres apart at the start, 0 engaged
    cover: tuple[int, int]  # B-8 explicit cover per side: steps down the size table 0 / 1 / 2 / 3
    cover_zones: tuple[str, str]  # B-8: horizontal | vertical_left | vertical_right
    indirect_cover: tuple[int, int]  # B-8: d100 value deflecting a shot that hit (100: unseen)
    indirect_cover_penalty: tuple[int, int]  # B-8: 0 / 1 / 2 / 4 to shots
    cover_shooter_penalty: int  # B-8: to a shot from behind explicit cover
    charge_attack_modifier: int  # B-8 charge GAP
    charge_moving_target: bool  # B-8 charge GAP: the charger is a moving target (B-4.1)
    charge_provokes_target: bool  # B-3.8 GAP: the charged enemy gets an opportunity attack
    outnumbered: str = "by_count"  # B-4.7 in group fights: by_count | one_side | none
    attack_limit: int = 6  # B-4.7: at most this many enemies engage one fighter
    sprint: bool = True  # B-8 sprint GAP: allowed (light load is not modelled) or off
    cover_degree_zones: str = "by_degree"  # B-9.9: by_degree | same_as_half
    short_weapon_bands: str = "literal"  # B-9.10: literal | single_shift
    readied_trigger: str = "enemy_enters_reach"  # B-9.1 GAP: enemy_enters_reach | enemy_attacks
    unarmed_full_attack: str = "furious"  # B-9.2 GAP: furious | flurry
    dodge_ends_stance: str = "after"  # B-9.4: after | before | never
    dazed_penalty_all_checks: bool = False  # B-9.5: active_only (False) | all_checks (True)
    terrain: tuple[int, int] = (0, 0)  # B-9.6 per side: normal 0, difficult 1, very difficult 2
    darkness: bool = False  # B-9.6: −4 to melee and ranged combat checks
    darkness_dodge: bool = False  # B-9.6 GAP: darkness also touches dodges
    second_break_destroys: bool = True  # B-4.4 GAP: a degraded weapon breaking again is destroyed (else stays degraded)
    stuck_weapon: str = "never"  # B-9.7: never | cutting_and_piercing | always
    finish_helpless: bool = False  # B-9.8: group fighters finish helpless enemies (B-4.13, B-6.7)
    refelled: str = "may_retry"  # B-3.11 GAP, felled again while rising: may_retry | stays_down | stands
    # B-3.10 GAP, knocked away while readied: stays_down | may_retry | ready_completes
    knocked_away_again: str = "stays_down"
    felled_while_readying_stands_up: bool = False  # B-3.10 GAP: felled by the Ready's attack, it stands up first
    react_in_own_turn: bool = True  # B-2.7 GAP: a fighter reacts to the attacks made on it in its own turn

    @classmethod
    def from_array(cls, opts) -> "NaiveRules":
        from brutal_sim.rulesets.brutal import options as O

        surprise = int(opts[O.O_SURPRISE])
        return cls(
            surprised_side=None if surprise == 0 else surprise - 1,
            round_cap=int(opts[O.O_ROUND_CAP]),
            stand_up_is_full_action=bool(opts[O.O_STAND_UP_ACTION]),
            attack_needs_base_difficulty=bool(opts[O.O_ATTACK_NEEDS_BASE_DIFFICULTY]),
            margin_against_max_of_base_and_reaction=bool(opts[O.O_MARGIN_AGAINST]),
            melee_damage_adds_strength=bool(opts[O.O_MELEE_DAMAGE_ADDS_STRENGTH]),
            extra_successes_floor_damage=bool(opts[O.O_EXTRA_SUCCESSES_FLOOR_DAMAGE]),
            armour_model=ARMOUR_MODELS[int(opts[O.O_ARMOUR_MODEL])],
            pierce_threshold=int(opts[O.O_PIERCE_THRESHOLD]),
            broken_weapon_destroyed=bool(opts[O.O_BROKEN_WEAPON]),
            cramped_space=bool(opts[O.O_CRAMPED_SPACE]),
            exertion_fatigue=EXERTION[int(opts[O.O_EXERTION_FATIGUE])],
            grapple_free_hands=int(opts[O.O_GRAPPLE_HANDS]),
            start_distance=int(opts[O.O_START_DISTANCE]),
            cover=(int(opts[O.O_COVER]), int(opts[O.O_COVER + 1])),
            cover_zones=tuple(("horizontal", "vertical_left", "vertical_right")[int(opts[O.O_COVER_ZONES + s])]
                              for s in range(2)),  # type: ignore[arg-type]
            indirect_cover=(int(opts[O.O_INDIRECT_COVER]), int(opts[O.O_INDIRECT_COVER + 1])),
            indirect_cover_penalty=(int(opts[O.O_INDIRECT_COVER_PENALTY]), int(opts[O.O_INDIRECT_COVER_PENALTY + 1])),
            cover_shooter_penalty=int(opts[O.O_COVER_SHOOTER_PENALTY]),
            charge_attack_modifier=int(opts[O.O_CHARGE_ATTACK_MODIFIER]),
            charge_moving_target=bool(opts[O.O_CHARGE_MOVING_TARGET]),
            charge_provokes_target=int(opts[O.O_CHARGE_PROVOKES]) == O.CHARGE_PROVOKES_TARGET,
            outnumbered=OUTNUMBERED[int(opts[O.O_OUTNUMBERED])],
            attack_limit=int(opts[O.O_ATTACK_LIMIT]),
            sprint=bool(opts[O.O_SPRINT]),
            cover_degree_zones=("by_degree", "same_as_half")[int(opts[O.O_COVER_DEGREE_ZONES])],
            short_weapon_bands=("literal", "single_shift")[int(opts[O.O_SHORT_WEAPON_BANDS])],
            readied_trigger=("enemy_enters_reach", "enemy_attacks")[int(opts[O.O_READIED_TRIGGER])],
            unarmed_full_attack={1: "furious", 2: "flurry"}[int(opts[O.O_UNARMED_FULL_ATTACK])],
            dodge_ends_stance=("after", "before", "never")[int(opts[O.O_DODGE_ENDS_STANCE])],
            dazed_penalty_all_checks=bool(opts[O.O_DAZED_PENALTY]),
            terrain=(int(opts[O.O_TERRAIN]), int(opts[O.O_TERRAIN + 1])),
            darkness=bool(opts[O.O_DARKNESS]),
            darkness_dodge=bool(opts[O.O_DARKNESS_DODGE]),
            second_break_destroys=int(opts[O.O_SECOND_BREAK]) == O.SECOND_BREAK_DESTROYED,
            stuck_weapon=("never", "cutting_and_piercing", "always")[int(opts[O.O_STUCK_WEAPON])],
            finish_helpless=bool(opts[O.O_FINISH_HELPLESS]),
            refelled=("may_retry", "stays_down", "stands")[int(opts[O.O_REFELLED])],
            knocked_away_again=("stays_down", "may_retry", "ready_completes")[int(opts[O.O_KNOCKED_AWAY_AGAIN])],
            felled_while_readying_stands_up=int(opts[O.O_FELLED_WHILE_READYING]) == O.FELLED_STAND_UP,
            react_in_own_turn=bool(opts[O.O_REACT_IN_OWN_TURN]),
        )


def zone_table_from_array(zt) -> list[str]:
    """Hit-zone table (B-4.9): entry ``roll - 1`` is the zone name of a d20 roll."""
    return [ZONES[int(code)] for code in zt]




def starting_fatigue_penalty(levels: int, endurance: int) -> int:
    """B-7.8: the penalty of ``levels`` fatigue levels for a fighter of ``endurance``."""
    if levels > 2 * endurance:
        return 4
    if levels > endurance:
        return 2
    return 1 if levels > 0 else 0


# --------------------------------------------------------------------------------------------------
# A fighter's changing state
# --------------------------------------------------------------------------------------------------


@dataclass(eq=False, repr=False)  # identity: fighters point at each other (foe)
class FighterState:
    """Everything about a fighter that changes during a fight (a duel is a fight of one against one)."""

    side: int
    profile: NaiveFighter
    row: int = 0  # its row in the compiled array (rows of side a, then side b)
    foe: "FighterState | None" = None  # whom it attacks (docs/groups.md, Targets); None: nobody
    track: list[bool] = field(default_factory=list)  # wound track cells, left to right (B-6.1)
    light_damage_tally: int = 0  # B-5.3
    bleeding_wounds: int = 0  # B-7.5
    stunned_turns: int = 0  # own turn ends left while stunned (B-7.5, B-2.8)
    dazed_turns: int = 0
    permanently_stunned: bool = False  # B-7.4
    prone: bool = False
    rising: bool = False  # standing up while the opportunity attack it provoked is resolved
    holding: dict[str, bool] = field(default_factory=dict)  # main / off hand item in hand
    picking_up: str | None = None  # the hand whose item is being readied (B-3.10)
    weapon_state: dict[str, str] = field(default_factory=dict)  # intact / degraded / destroyed
    stuck: dict[str, bool] = field(default_factory=dict)  # B-9.7: the hand's weapon is stuck in an obstacle
    stance_bonus: int = 0  # B-3.2 (+2) / B-3.7 (+4) to parry and dodge
    no_reactions: bool = False  # B-3.4 furious attack
    no_opportunity_attacks: bool = False  # B-3.7
    full_action_penalty: bool = False  # B-2.6
    opportunity_attacks_left: int = 0  # B-3.8
    out_cause: str | None = None
    dead: bool = False
    in_coma: bool = False  # B-6.7
    in_own_turn: bool = False
    surprised: bool = False  # B-2.3
    frightened: bool = False  # B-7.10: failed the first fear check, awaits the second
    fatigue: int = 0  # fatigue levels (B-7.8)
    turns_begun: int = 0  # own turns begun (the exertion option of B-7.8 counts them)
    grapple: str | None = None  # B-3.12: "controls" or "held"
    reload_left: int = 0  # B-8: reload actions still needed (0: loaded)
    moving: bool = False  # B-8: ran this turn, a moving target until its next turn
    cannot_run: bool = False  # B-7.4: after a heavy or critical wound
    charging: bool = False  # B-8: during the attack of its charge
    readied: bool = False  # B-9.1: holds a readied attack until the start of its next turn
    more_hits: int = 0  # B-9.2: further hits of the unarmed full attack it just made
    ran_in_turn: int = 0  # B-8: the own turn (turns_begun) of its last run or sprint, 0 never
    sprinted_in_turn: int = 0  # B-8: the own turn of its last sprint, 0 never
    fear_faced: int = 0  # B-7.10: the fear rating its checks are against (the enemy side's highest)
    out_order: int = 0  # the order in which it went out of the fight (1 first), 0 still in
    harmful_blows: int = 0  # blows above level none it took (for the one-blow counter)
    damage_dealt: int = 0  # final damage of the blows it dealt (B-4.14)
    damage_taken: int = 0  # final damage of the blows it took
    shown_arm: str = "left_arm"  # B-9.9: the arm and leg it shows behind three-quarter horizontal cover
    shown_leg: str = "left_leg"
    ground_penalty: int = 0  # B-9.6: its side's terrain, to all its checks of active actions

    def __repr__(self) -> str:
        return f"FighterState(row={self.row}, side={self.side}, out={self.out_cause})"

    def __post_init__(self) -> None:
        p = self.profile
        self.track = [False] * p.n_cells
        self.holding = {MAIN: p.main_hand is not None, OFF: p.off_hand is not None}
        self.weapon_state = {MAIN: "intact", OFF: "intact"}
        self.stuck = {MAIN: False, OFF: False}
        self.fatigue = p.starting_fatigue

    # -- wound track (B-6) ------------------------------------------------------------------
    @property
    def wounded_out_cell(self) -> int:  # И, the rightmost cell
        return self.profile.n_cells - 1

    @property
    def critically_wounded_cell(self) -> int:  # КР
        return self.profile.n_cells - 2

    @property
    def heavily_wounded_cell(self) -> int:  # ТР
        return self.profile.n_cells - 3

    @property
    def lightly_wounded_cell(self) -> int:  # ЛР
        return self.profile.n_cells - 4

    def wound_penalty(self) -> int:
        """B-6.5: −1 with ЛР filled, −2 with ТР, −4 with КР; only the largest counts (B-1.6)."""
        if self.track[self.critically_wounded_cell]:
            return 4
        if self.track[self.heavily_wounded_cell]:
            return 2
        if self.track[self.lightly_wounded_cell]:
            return 1
        return 0

    def fatigue_penalty(self) -> int:
        """B-7.8: to ALL checks — tired (1+ levels) −1, exhausted (more than endurance) −2,
        depleted (more than twice endurance) −4."""
        return starting_fatigue_penalty(self.fatigue, self.profile.endurance)

    # -- conditions (B-7.5) -----------------------------------------------------------------
    @property
    def is_out(self) -> bool:
        return self.out_cause is not None

    @property
    def is_helpless(self) -> bool:
        """B-4.1, B-9.8: out of the fight unconscious (not fled) and not dead."""
        return self.is_out and self.out_cause != FLED and not self.dead

    @property
    def is_stunned(self) -> bool:
        return self.stunned_turns > 0 or self.permanently_stunned

    @property
    def is_dazed(self) -> bool:
        return self.dazed_turns > 0

    def condition_penalty_to_attacks(self) -> int:
        """B-7.5 / B-4.2: stunned −2, dazed −2, prone −4 (melee); the largest applies (B-1.6)."""
        penalty = 2 if (self.is_stunned or self.is_dazed) else 0
        if self.prone:
            penalty = 4
        return penalty

    def fall(self) -> None:
        """Knocked prone (B-7.1–7.3 leg wounds, B-3.9); a fighter rising falls back down."""
        self.prone = True
        self.rising = False

    def lose_grip(self, hand: str) -> None:
        """The item of ``hand`` drops (also one being picked up); a stuck weapon stays stuck (B-9.7)."""
        if self.stuck[hand]:
            return
        self.holding[hand] = False
        if self.picking_up == hand:
            self.picking_up = None

    def active_check_penalty(self) -> int:
        """Wounds (B-6.5) plus conditions (B-7.5) plus fatigue (B-7.8) plus the ground (B-9.6):
        different kinds add (B-1.6)."""
        return (self.wound_penalty() + self.condition_penalty_to_attacks() + self.fatigue_penalty()
                + self.ground_penalty)

    def reaction_modifier(self, parry: bool) -> int:
        """B-4.7: stance bonus, −largest condition (prone −4 parry / −2 dodge, stunned, dazed −2),
        −wound penalty, −fatigue, −the ground (B-9.6), −2 after a full action (B-2.6; total defence
        has none, B-3.7)."""
        condition = 2 if (self.is_stunned or self.is_dazed) else 0
        if self.prone:
            condition = max(condition, 4 if parry else 2)
        modifier = (self.stance_bonus - condition - self.wound_penalty() - self.fatigue_penalty()
                    - self.ground_penalty)
        if self.full_action_penalty:
            modifier -= 2
        return modifier

    @property
    def concentrates(self) -> bool:
        """B-9.4: it holds a stance taken with an attack (B-3.2, a concentration action); total
        defence (a stance without an attack, B-3.7) is a defence action."""
        return self.stance_bonus != 0 and self.profile.tactic.attack != "none"

    def can_react(self) -> bool:
        """B-4.7: furious attackers (B-3.4) and surprised fighters (B-2.3) cannot react; nor can
        grapplers against each other (B-3.12), which in a duel is always."""
        return not self.is_out and not self.no_reactions and not self.surprised and self.grapple is None

    def until_end_of_next_turn(self, condition: str) -> None:
        """B-2.8: a condition lasting until the end of the fighter's next turn.

        Inside its own turn that is the end of the *following* turn (two turn ends away).
        """
        turns = 2 if self.in_own_turn else 1
        name = f"{condition}_turns"
        setattr(self, name, max(getattr(self, name), turns))

    # -- weapons ----------------------------------------------------------------------------
    def is_usable(self, slot: str) -> bool:
        """A weapon is usable when present, in hand, not stuck (B-9.7) and not destroyed; fists always are."""
        if slot == FISTS:
            return True
        return (self.profile.weapon(slot) is not None and self.weapon_state[slot] != "destroyed"
                and self.holding[slot] and not self.stuck[slot])

    def is_degraded(self, slot: str) -> bool:
        return slot != FISTS and self.weapon_state[slot] == "degraded"

    def attack_slot(self) -> str:
        """Main hand if usable (a ranged weapon only when loaded, B-8), else the off hand, else
        fists (B-7.7)."""
        if self.is_usable(MAIN) and (not self.profile.main_hand.is_ranged or self.reload_left == 0):  # type: ignore[union-attr]
            return MAIN
        if self.is_usable(OFF):
            return OFF
        return FISTS

    def is_shooter(self) -> bool:
        """B-8: a usable ranged weapon in the main hand."""
        return self.is_usable(MAIN) and self.profile.main_hand.is_ranged  # type: ignore[union-attr]

    def weapon_parry_value(self, slot: str) -> int:
        """A weapon's parry bonus, −2 when broken (B-4.4)."""
        value = self.profile.weapon(slot).parry_bonus  # type: ignore[union-attr]
        return value - 2 if self.is_degraded(slot) else value

    def parry_slot(self) -> str:
        """The usable weapon with the best parry value (main hand on ties); else fists (B-7.6)."""
        best = FISTS
        for slot in (MAIN, OFF):
            if self.is_usable(slot) and (best == FISTS or
                                         self.weapon_parry_value(slot) > self.weapon_parry_value(best)):
                best = slot
        return best

    def parry_bonus(self, slot: str) -> int:
        """B-4.4: melee + parry talents + the weapon's parry value + reaction modifiers (B-4.7)."""
        return (self.profile.melee + self.profile.parry_talent + self.weapon_parry_value(slot)
                + self.reaction_modifier(parry=True))

    def dodge_bonus(self) -> int:
        """B-4.5: dodge + reaction modifiers (B-4.7)."""
        return self.profile.dodge + self.reaction_modifier(parry=False)

    def needs_to_ready(self, slot: str) -> bool:
        """A dropped (not destroyed) weapon can be picked up again (B-3.10)."""
        return (self.profile.weapon(slot) is not None and not self.holding[slot]
                and self.weapon_state[slot] != "destroyed")

    def free_hands(self) -> int:
        """B-3.12: hands holding nothing; a two-handed weapon fills both."""
        held = 0
        if self.is_usable(MAIN):
            held += 2 if self.profile.main_hand.two_handed else 1  # type: ignore[union-attr]
        if self.is_usable(OFF):
            held += 1
        return max(0, 2 - held)


# --------------------------------------------------------------------------------------------------
# What a fight or an attack produced
# --------------------------------------------------------------------------------------------------


@dataclass
class FighterOutcome:
    """How one fighter (one row of the compiled array) ended a fight (docs/groups.md, Counters)."""

    side: int
    rank: int
    out_cause: str | None  # None: still in the fight at the end
    dead: bool
    damage_dealt: int  # final damage of the blows it dealt
    damage_taken: int  # final damage of the blows it took

    @property
    def standing(self) -> bool:
        """Still in the fight at the end (decided or drawn)."""
        return self.out_cause is None


@dataclass
class FightRecord:
    """Readable results; :meth:`counter_row` lays them out like the kernel's counters.

    ``loser_*`` describe the deciding takedown: the last fighter of the losing side to go out
    (B-2.9; in a duel, the loser).
    """

    winner: int | None = None  # side index; None for a draw at the round cap
    loser_cause: str | None = None
    loser_dead: bool = False
    loser_one_blow: bool = False  # out by the only harmful blow it took (not fled)
    deciding_round: int | None = None
    attacks: list[tuple[int, str]] = field(default_factory=list)  # (attacker side, outcome)
    wounds: list[tuple[int, str, str, int]] = field(default_factory=list)  # (taker side, level, zone, damage)
    breaks: list[int] = field(default_factory=list)  # side whose own weapon broke
    draw: bool = False
    fighters: list[FighterOutcome] = field(default_factory=list)  # per row, filled at the end
    round_cap: int = 0

    def survivors(self, side: int) -> int:
        """Fighters of ``side`` still in the fight at the end."""
        return sum(1 for f in self.fighters if f.side == side and f.standing)

    def counter_row(self, k: int) -> list[int]:
        """The record in the layout of :mod:`brutal_sim.rulesets.brutal.layout` (a plain list of ints): the header
        ``C_*``; when ``k`` is a group fight's length (``n_fight_counters``), then the group block
        ``G_*`` (docs/groups.md)."""
        from brutal_sim.rulesets.brutal import layout as L

        row = [0] * k
        if self.draw:
            row[L.C_DRAWS] += 1
        if self.winner is not None:
            loser = 1 - self.winner
            row[L.C_WINS + self.winner] += 1
            row[L.C_CAUSE + L.NCAUSES * loser + CAUSES.index(self.loser_cause)] += 1
            row[L.C_DEATHS + loser] += int(self.loser_dead)
            row[L.C_ROUNDS + self.deciding_round] += 1
            row[L.C_ONE_BLOW + loser] += int(self.loser_one_blow)
            row[L.COUNTERS.rounds_a(self.round_cap) + self.deciding_round] += int(self.winner == 0)
            for lv, level in enumerate(LEVELS):  # blows of each level the losing side took, the last bin k or more
                k_lv = sum(1 for taker, name, _, _ in self.wounds if taker == loser and name == level)
                row[L.COUNTERS.loser_wounds_at(loser, lv, k_lv)] += 1
        for side, outcome in self.attacks:
            row[L.C_ATTACKS + 5 * side + OUTCOMES.index(outcome)] += 1
        for taker, level, zone, damage in self.wounds:
            group = ZONE_GROUPS.index(ZONE_GROUP[zone])
            row[L.C_WOUNDS + 24 * taker + 4 * LEVELS.index(level) + group] += 1
            row[L.C_DAMAGE + taker] += damage
        for side in self.breaks:
            row[L.C_BREAKS + side] += 1
        if self.fighters and k == L.n_fight_counters(self.round_cap, len(self.fighters)):
            block = L.n_counters(self.round_cap)
            for side in (0, 1):
                row[block + L.GB_SURVIVORS + (L.MAX_SIDE + 1) * side + self.survivors(side)] += 1
            for r, f in enumerate(self.fighters):
                at = block + L.GB_FIGHTERS + L.GB_PER_FIGHTER * r
                if f.out_cause is not None:
                    row[at + L.GB_OUT + CAUSES.index(f.out_cause)] += 1
                row[at + L.GB_DEAD] += int(f.dead)
                row[at + L.GB_STANDING] += int(f.standing)
                row[at + L.GB_DEALT] += f.damage_dealt
                row[at + L.GB_TAKEN] += f.damage_taken
        return row


DuelRecord = FightRecord  # a duel is a fight of one against one


# --------------------------------------------------------------------------------------------------
# The fight (a duel is the fight of one against one)
# --------------------------------------------------------------------------------------------------


class NaiveFight:
    """One fight between side a (0) and side b (1), rule by rule (B-2, docs/groups.md)."""

    def __init__(self, fighters: list[NaiveFighter], rules: NaiveRules,
                 zone_table: list[str], rng: Xoshiro256StarStar,
                 ) -> None:
        self.rules = rules
        self.zone_table = zone_table
        self.rng = rng
        self.fighters = [FighterState(p.side, p, row=r) for r, p in enumerate(fighters)]
        assert all(1 <= len(self.side_of(side)) <= 6 for side in (0, 1)), "1–6 fighters a side (P_SIDE)"
        self.record = FightRecord(round_cap=rules.round_cap)
        self.order: list[FighterState] = []  # the turn order (B-2.2), set when the fight starts
        self.distance = rules.start_distance  # B-8: metres apart, 0 engaged (duels only)
        self.gone_out = 0  # fighters out of the fight so far
        for f in self.fighters:
            f.ground_penalty = rules.terrain[f.side]  # B-9.6

    # -- sides, engagement ---------------------------------------------------------------------
    def side_of(self, side: int) -> list[FighterState]:
        return [f for f in self.fighters if f.side == side]

    def enemies(self, me: FighterState) -> list[FighterState]:
        """The other side's fighters in row order (in the fight or not)."""
        return self.side_of(1 - me.side)

    def sole_enemy(self, me: FighterState) -> FighterState:
        """The enemy of a duel: distance (B-8) and grapples (B-3.12) exist only one against one."""
        enemies = self.enemies(me)
        assert len(enemies) == 1, "distance and grapples are duel-only (docs/groups.md)"
        return enemies[0]

    def side_is_out(self, side: int) -> bool:
        return all(f.is_out for f in self.side_of(side))

    def fight_is_over(self) -> bool:
        """B-2.9: every fighter of one side is out."""
        return self.side_is_out(0) or self.side_is_out(1)

    def can_go_on_acting(self, me: FighterState) -> bool:
        """The fight goes on, ``me`` is in it and has not been dazed meanwhile (B-7.5: no active
        actions). In a duel: nobody is out yet and ``me`` is not dazed."""
        return not self.fight_is_over() and not me.is_out and not me.is_dazed

    def engagers(self, me: FighterState) -> list[FighterState]:
        """Enemies in the fight that have ``me`` as their foe (``S_ENGAGERS``)."""
        return [e for e in self.enemies(me) if not e.is_out and e.foe is me]

    def is_engaged(self, me: FighterState, enemy: FighterState) -> bool:
        """Engaged: the enemy is ``me``'s foe or ``me`` is its foe (docs/groups.md, Targets)."""
        return me.foe is enemy or enemy.foe is me

    def put_out(self, me: FighterState, cause: str) -> None:
        """Out of the fight (B-2.9); the first cause counts. Its place in the order of going out
        decides which takedown was the deciding one; it stops being an engager (``engagers``
        counts only fighters in the fight)."""
        if me.out_cause is None:
            me.out_cause = cause
            self.gone_out += 1
            me.out_order = self.gone_out

    # -- B-2.2 initiative ------------------------------------------------------------------------
    def initiative_roll(self, me: FighterState) -> int:
        """B-2.2: 2d6 + resolve + initiative talents − the starting fatigue's penalty (B-7.8)."""
        return self.rng.roll_2d6().total + me.profile.resolve + me.profile.initiative_bonus - me.fatigue_penalty()

    def turn_order(self, group: list[FighterState]) -> list[FighterState]:
        """B-2.2 for the fighters of ``group`` (row order): each rolls, in row order; higher totals
        go first; equal totals go to the fighter with an initiative talent, then the higher
        agility. Fighters still tied reroll among themselves (each in row order, same bonus) and
        the reroll orders them within their place, recursively; tied groups reroll in turn order
        (the highest place first). One against one: a rolls, b rolls, a full tie rerolls both."""
        rolls = {f.row: self.initiative_roll(f) for f in group}

        def key(f: FighterState) -> tuple[int, int, int]:
            return rolls[f.row], int(f.profile.initiative_talent), f.profile.agility

        ranked = sorted(group, key=key, reverse=True)  # stable: row order within a tie
        order: list[FighterState] = []
        start = 0
        while start < len(ranked):
            end = start + 1
            while end < len(ranked) and key(ranked[end]) == key(ranked[start]):
                end += 1
            tied = ranked[start:end]
            order += self.turn_order(tied) if len(tied) > 1 else tied
            start = end
        return order

    # -- B-2 the fight -----------------------------------------------------------------------
    def run(self) -> FightRecord:
        """B-2.1, B-2.9: rounds of one turn per fighter in initiative order; after every turn, if
        every fighter of side a is out side b wins (a checked first), if every fighter of side b is
        out side a wins; a draw at the round cap. B-2.3: the surprised side loses its actions and
        reactions in round 1. B-7.10 fear, then every fighter chooses its foe in turn order."""
        order = self.turn_order(self.fighters)
        self.order = order
        if self.rules.surprised_side is not None:
            for f in self.side_of(self.rules.surprised_side):
                f.surprised = True
        self.face_fear()
        for f in self.fighters:
            self.show_limbs_behind_cover(f)
        for f in order:
            self.choose_foe(f)
        for round_number in range(1, self.rules.round_cap + 1):
            for f in self.fighters:
                f.opportunity_attacks_left = f.profile.opportunity_attacks_per_round  # B-3.8
            for actor in order:
                if actor.is_out:
                    continue
                self.take_turn(actor)
                loser = self.losing_side()
                if loser is not None:
                    self.decide(loser, round_number)
                    return self.finish()
            for f in self.fighters:
                f.surprised = False
        self.record.draw = True
        return self.finish()

    def losing_side(self) -> int | None:
        """B-2.9 after a turn: side a if all of it is out (checked first), else side b if all of it
        is out, else None (the fight goes on)."""
        for side in (0, 1):
            if self.side_is_out(side):
                return side
        return None

    def decide(self, loser: int, round_number: int) -> None:
        """B-2.9: the header describes the deciding takedown, the last of the losing side to go out."""
        last = max(self.side_of(loser), key=lambda f: f.out_order)
        self.record.winner = 1 - loser
        self.record.loser_cause = last.out_cause
        self.record.loser_dead = last.dead
        self.record.loser_one_blow = last.harmful_blows == 1 and last.out_cause != FLED
        self.record.deciding_round = round_number

    def finish(self) -> FightRecord:
        self.record.fighters = [FighterOutcome(f.side, f.profile.rank, f.out_cause, f.dead, f.damage_dealt,
                                               f.damage_taken) for f in self.fighters]
        return self.record

    # -- B-7.10 fear ---------------------------------------------------------------------------
    def fear_difficulty(self, rating: int) -> int:
        """B-7.10: fear rating 1–5 → difficulty 8/10/12/14/16."""
        return 6 + 2 * rating

    def face_fear(self) -> None:
        """B-7.10 at the start of the fight: every fighter in row order whose enemy side has a fear
        rating checks willpower against the highest rating of that side; a failure dazes it until
        its second check, before its next turn (against the same rating)."""
        for me in self.fighters:
            me.fear_faced = max(e.profile.fear for e in self.enemies(me))
            if me.fear_faced > 0:
                if (self.rng.roll_2d6().total + me.profile.willpower - me.fatigue_penalty()
                        < self.fear_difficulty(me.fear_faced)):
                    me.frightened = True
                    me.dazed_turns = 1

    def second_fear_check(self, me: FighterState) -> None:
        """B-7.10 before the frightened fighter's turn: success → stunned until the end of this
        turn (no longer dazed); failure → panic: it flees, out of the fight."""
        if (self.rng.roll_2d6().total + me.profile.willpower - me.fatigue_penalty()
                < self.fear_difficulty(me.fear_faced)):
            self.put_out(me, FLED)
            return
        me.frightened = False
        me.dazed_turns = 0
        me.until_end_of_next_turn("stunned")

    # -- targets (docs/groups.md; B-4.7 attack limit) -----------------------------------------
    def others_engaging(self, me: FighterState, enemy: FighterState) -> int:
        """``S_ENGAGERS`` of ``enemy`` less ``me`` if ``me`` already engages it."""
        return sum(1 for f in self.engagers(enemy) if f is not me)

    def foe_candidates(self, me: FighterState) -> list[FighterState]:
        """Enemies in the fight with room for ``me``: fewer than the attack limit (B-4.7) engage
        them, not counting ``me``."""
        return [e for e in self.enemies(me)
                if not e.is_out and self.others_engaging(me, e) < self.rules.attack_limit]

    def choose_foe(self, me: FighterState) -> None:
        """Choose ``me``'s foe among the candidates by its policy (no dice):

        * ``spread``: the fewest engagers not counting ``me``; ties: the current foe, then the
          nearest in line (smallest rank difference), then the lowest row;
        * ``weakest``: the most marked cells on its wound track (B-6); ties as ``spread``;
        * ``nearest``: the current foe while it is in the fight; else the nearest in line, ties
          the lowest row.

        No candidate: no foe (no attack this turn). Changing foe is free (GAP: no map).

        ``finish_helpless`` (B-9.8): a helpless foe is kept until it is dead; with no candidate,
        the nearest helpless enemy in line with room (ties: the lowest row)."""
        if self.rules.finish_helpless and me.foe is not None and me.foe.is_helpless:
            return
        candidates = self.foe_candidates(me)
        if not candidates and self.rules.finish_helpless:
            helpless = [e for e in self.enemies(me)
                        if e.is_helpless and self.others_engaging(me, e) < self.rules.attack_limit]
            if helpless:
                me.foe = min(helpless, key=lambda e: (abs(e.profile.rank - me.profile.rank), e.row))
                return
        if not candidates:
            me.foe = None
            return
        policy = me.profile.targeting
        if policy == "nearest" and me.foe is not None and not me.foe.is_out:
            return

        def tie_break(e: FighterState) -> tuple[int, int, int]:
            return (0 if e is me.foe else 1, abs(e.profile.rank - me.profile.rank), e.row)

        if policy == "spread":
            me.foe = min(candidates, key=lambda e: (self.others_engaging(me, e),) + tie_break(e))
        elif policy == "weakest":
            me.foe = min(candidates, key=lambda e: (-sum(e.track),) + tie_break(e))
        else:
            me.foe = min(candidates, key=lambda e: (abs(e.profile.rank - me.profile.rank), e.row))

    # -- B-4.7 outnumbered ---------------------------------------------------------------------
    def outnumbered_penalty(self, defender: FighterState) -> int:
        """B-4.7 (option ``outnumbered``, GAP: no map): the reaction penalty of a defender with c
        engagers — ``by_count`` 2: 1, 3: 2, 4+: 4; ``one_side`` 2+: 1; ``none`` 0."""
        c = len(self.engagers(defender))
        if c < 2 or self.rules.outnumbered == "none":
            return 0
        if self.rules.outnumbered == "one_side":
            return 1
        return {2: 1, 3: 2}.get(c, 4)

    def darkness_penalty(self, dodge: bool) -> int:
        """B-9.6: darkness −4 to melee and ranged combat checks; to dodges only by ``darkness_dodge``."""
        return 4 if self.rules.darkness and (not dodge or self.rules.darkness_dodge) else 0

    def parry_total(self, defender: FighterState, slot: str) -> int:
        """B-4.4 parry bonus with the reaction modifiers of B-4.7, outnumbered included; darkness."""
        return defender.parry_bonus(slot) - self.outnumbered_penalty(defender) - self.darkness_penalty(False)

    def dodge_total(self, defender: FighterState) -> int:
        """B-4.5 dodge bonus with the reaction modifiers of B-4.7, outnumbered included; darkness
        by option; no stance of concentration with ``dodge_ends_stance`` before (B-9.4)."""
        total = defender.dodge_bonus() - self.outnumbered_penalty(defender) - self.darkness_penalty(True)
        if self.rules.dodge_ends_stance == "before" and defender.concentrates:
            total -= defender.stance_bonus
        return total

    def dodge_made(self, defender: FighterState) -> None:
        """B-9.4: a dodge (whatever its result) interrupts concentration: the stance ends."""
        if self.rules.dodge_ends_stance != "never" and defender.concentrates:
            defender.stance_bonus = 0

    # -- B-2.4 a turn --------------------------------------------------------------------------
    def take_turn(self, me: FighterState) -> None:
        """B-2.4: one turn — the second fear check (B-7.10), expiries, bleeding (B-7.5), exertion
        (B-7.8), the choice of foe, then: stand up if prone (B-3.11), pick up a dropped main weapon
        (B-3.10), the tactic's attack action(s), pick up a dropped off-hand item with a spare
        action. Dazed (B-7.5) or surprised (B-2.3) fighters take no actions. Timed conditions tick
        at the end of the turn (B-2.8)."""
        me.turns_begun += 1
        if me.frightened:
            self.second_fear_check(me)
            if me.is_out:
                return
        # "until the start of the own next turn" effects end now (B-3.2, B-3.4, B-3.7, B-2.6)
        me.stance_bonus = 0
        me.no_reactions = False
        me.no_opportunity_attacks = False
        me.full_action_penalty = False
        me.moving = False
        me.readied = False  # B-9.1: until the start of the own next turn
        for _ in range(me.bleeding_wounds):
            self.take_light_damage(me)
        if self.exertion_tires(me):
            self.gain_fatigue(me, 1)
        if me.is_out:
            return
        self.choose_foe(me)  # dazed or not
        me.in_own_turn = True
        can_act = not me.is_dazed and not me.surprised
        if me.grapple == "controls" and not can_act:
            self.release()  # B-3.12: no controlling action, no grapple
        if can_act:
            self.sprint_stop(me)
            if me.grapple == "controls":
                self.grapple_hold(me)
            elif me.grapple == "held":
                self.grapple_escape(me)
            else:
                self.standard_actions(me, 2)
        if me.stunned_turns > 0:
            me.stunned_turns -= 1
        if me.dazed_turns > 0:
            me.dazed_turns -= 1
        me.in_own_turn = False

    def standard_actions(self, me: FighterState, actions: int) -> None:
        """Outside a grapple: stand up if prone (B-3.11), pick up a dropped main weapon (B-3.10),
        the tactic's attack action(s), pick up a dropped off-hand item with a spare action."""
        actions = self.stand_up_actions(me, actions)
        actions = self.ready_actions(me, MAIN, actions)
        if actions > 0 and self.can_go_on_acting(me) and me.stuck[MAIN]:
            self.free_stuck_weapon(me, MAIN)
            actions -= 1
        if actions > 0 and self.can_go_on_acting(me) and me.is_shooter() and self.lets_go_of_ranged(me):
            me.holding[MAIN] = False  # a free action
        if actions > 0 and self.can_go_on_acting(me) and me.is_shooter():
            actions = self.shooter_actions(me, actions)
        else:
            if actions > 0 and self.can_go_on_acting(me) and self.will_ready_attack(me, actions):
                me.readied = True  # B-9.1: the full action, −2 to reactions (B-2.6)
                me.full_action_penalty = True
                actions = 0
            if actions > 0 and self.can_go_on_acting(me) and self.will_charge(me, actions):
                actions = self.charge(me)
            if actions > 0 and self.can_go_on_acting(me) and self.distance > 0:
                actions = self.close_in(me, actions)
                if self.distance == 0:  # B-9.1: it came into reach
                    self.answer_readied(me, "enemy_enters_reach")
            if actions > 0 and self.can_go_on_acting(me) and self.distance == 0:
                actions = self.attack_actions(me, actions, first_attack_only=False)
        actions = self.ready_actions(me, OFF, actions)
        if actions > 0 and self.can_go_on_acting(me) and me.stuck[OFF]:
            self.free_stuck_weapon(me, OFF)

    def stand_up_actions(self, me: FighterState, actions: int) -> int:
        """B-3.11: a prone fighter stands up (a standard action, or a full one by
        ``stand_up_action``); felled again by the opportunity attack, once more with a remaining
        action when the option ``refelled`` is ``may_retry``. Returns the actions left."""
        tries = 0
        while (actions > 0 and me.prone and self.can_go_on_acting(me)
               and (tries == 0 or self.rules.refelled == "may_retry")):
            self.stand_up(me)
            tries += 1
            if self.rules.stand_up_is_full_action:
                actions = 0
                me.full_action_penalty = True
            else:
                actions -= 1
        return actions

    def ready_actions(self, me: FighterState, slot: str, actions: int) -> int:
        """B-3.10: ready the dropped item of ``slot`` with a standard action; if the opportunity
        attack knocked it away again, once more with a remaining action when the option
        ``knocked_away_again`` is ``may_retry``. Knocked down by that attack (a standing fighter),
        with ``felled_while_readying = stand_up`` it stands up with the actions left (B-3.11);
        else it goes on prone. Returns the actions left."""
        was_standing = not me.prone
        tries = 0
        while (actions > 0 and self.can_go_on_acting(me) and self.will_ready(me, slot)
               and (tries == 0 or self.rules.knocked_away_again == "may_retry")):
            self.ready_weapon(me, slot)
            tries += 1
            actions -= 1
        if was_standing and me.prone and self.rules.felled_while_readying_stands_up:
            actions = self.stand_up_actions(me, actions)
        return actions

    def free_stuck_weapon(self, me: FighterState, slot: str) -> None:
        """B-9.7: a standard action and an athletics check vs 10 (wounds, stunned/dazed, fatigue);
        it provokes nothing."""
        if self.rng.roll_2d6().total + me.profile.athletics - self.check_penalty(me) >= 10:
            me.stuck[slot] = False

    # -- B-9.1 readied attacks -------------------------------------------------------------------
    def will_ready_attack(self, me: FighterState, actions: int) -> bool:
        """A readying tactic with both actions and a foe readies — apart from it (unless it is a
        shooter, whose shots never bring it into reach), or at any distance with the trigger
        ``enemy_attacks``; engaged under ``enemy_enters_reach`` it attacks plainly instead."""
        enemy = me.foe
        if not me.profile.tactic.ready or actions < 2 or enemy is None:
            return False
        if self.distance > 0 and enemy.is_shooter():
            return False
        return self.distance > 0 or self.rules.readied_trigger == "enemy_attacks"

    def answer_readied(self, me: FighterState, trigger: str) -> None:
        """``me``'s action is ``trigger``: each enemy engaged with ``me`` that holds a readied attack,
        is in, not dazed and not grappling fires it (a single attack: no modifier, rolled zone) at
        ``me`` before the action resolves, in turn order (higher initiative first), until ``me`` is
        out or the fight is over."""
        if self.rules.readied_trigger != trigger or self.distance != 0:
            return
        for r in self.order:
            if me.is_out or self.fight_is_over():
                return
            if (r.readied and r.side != me.side and self.is_engaged(me, r) and not r.is_out
                    and not r.is_dazed and r.grapple is None):
                r.readied = False
                self.attack(r, me, r.attack_slot(), 0, None, "normal")

    # -- B-8 distance and shooting ------------------------------------------------------------------
    def lets_go_of_ranged(self, me: FighterState) -> bool:
        """Tactic ``drop_ranged``: engaged, the shooter does without its ranged weapon."""
        return (me.profile.tactic.drop_ranged and self.distance == 0
                and me.profile.main_hand is not None and me.profile.main_hand.is_ranged)

    def will_ready(self, me: FighterState, slot: str) -> bool:
        """B-3.10: pick up a dropped item — not a ranged weapon let go of in melee (B-8)."""
        return me.needs_to_ready(slot) and not (slot == MAIN and self.lets_go_of_ranged(me))

    def run_moves(self, me: FighterState, actions: int) -> int:
        """Moves of a run now: 4 when two moves are not enough, the tactic runs, both actions are
        left and no heavy wound forbids it; 6, a sprint, when even a run is not enough, it ran in its
        previous own turn and the option allows it; else 0."""
        step = me.profile.movement
        if not (actions == 2 and me.profile.tactic.run and self.distance > 2 * step and not me.cannot_run):
            return 0
        previous = me.turns_begun - 1
        if self.rules.sprint and self.distance > 4 * step and me.ran_in_turn == previous > 0:
            return 6
        return 4

    def close_in(self, me: FighterState, actions: int) -> int:
        """Run or sprint (four or six moves, full action, moving target, no reactions) as
        ``run_moves`` says; else move until engaged."""
        step = me.profile.movement
        moves = self.run_moves(me, actions)
        if moves:
            self.distance = max(self.distance - moves * step, 0)
            me.moving = me.no_reactions = me.full_action_penalty = True
            me.ran_in_turn = me.turns_begun
            if moves == 6:
                me.sprinted_in_turn = me.turns_begun
            return 0
        while actions > 0 and self.distance > 0 and step > 0:
            self.distance = max(self.distance - step, 0)
            actions -= 1
        return actions

    def sprint_stop(self, me: FighterState) -> None:
        """B-8: in the own turn after a sprint, unless its first action is again a run: a normal
        (10) mobility check (dodge − wounds, stunned/dazed, fatigue); failed, it falls prone."""
        if me.sprinted_in_turn == 0 or me.sprinted_in_turn != me.turns_begun - 1:
            return
        first_is_run = (me.grapple is None and not me.prone and not self.will_ready(me, MAIN)
                        and not me.is_shooter() and not self.will_charge(me, 2) and self.distance > 0
                        and self.run_moves(me, 2) > 0)
        if not first_is_run and self.rng.roll_2d6().total + me.profile.dodge - self.check_penalty(me) < 10:
            me.prone = True

    # -- B-8 cover, indirect cover, charge --------------------------------------------------------
    def will_charge(self, me: FighterState, actions: int) -> bool:
        """A charging tactic with both actions left, the enemy apart within four moves, no heavy
        wound (B-7.4)."""
        return (me.profile.tactic.charge and actions == 2 and 0 < self.distance <= 4 * me.profile.movement
                and not me.cannot_run)

    def charge(self, me: FighterState) -> int:
        """Full action: engage, −2 to reactions (B-2.6), maybe a moving target; the charged enemy's
        opportunity attack (option); then the tactic's attack as with one action left."""
        self.distance = 0
        me.full_action_penalty = True
        if self.rules.charge_moving_target:
            me.moving = True
        self.answer_readied(me, "enemy_enters_reach")  # B-9.1: before the charge goes on
        if self.rules.charge_provokes_target:
            self.provoke_opportunity_attack(me, only=me.foe)
        if self.can_go_on_acting(me):
            me.charging = True
            self.attack_actions(me, 1, first_attack_only=False)
            me.charging = False
        return 0

    def show_limbs_behind_cover(self, me: FighterState) -> None:
        """B-9.9: behind three-quarter horizontal cover (``cover_degree_zones = by_degree``) a fighter
        shows one arm and one leg, each left or right with equal chance: a d4 at the start of the
        fight, 1 left arm and left leg, 2 right arm and left leg, 3 left arm and right leg, 4 both right."""
        if (self.rules.cover_degree_zones == "by_degree" and self.rules.cover[me.side] == 3
                and self.rules.cover_zones[me.side] == "horizontal"):
            roll = self.rng.die(4)
            me.shown_arm = ("left_arm", "right_arm")[(roll - 1) % 2]
            me.shown_leg = ("left_leg", "right_leg")[(roll - 1) // 2]

    def cover_would_hide(self, target: FighterState, roll: int) -> bool:
        """Explicit cover would hide zone-table roll ``roll`` (1-based); never the head. ½ cover (and
        every degree with ``same_as_half``): horizontal the lower half of the die, vertical the odd
        (left) or even (right) rolls. B-9.9 ``by_degree``: ¼ horizontal the legs; ¾ everything but
        the shown arm and leg (horizontal: drawn; vertical: those of the side looking out)."""
        degree = self.rules.cover[target.side]
        zone = self.zone_table[roll - 1]
        if degree == 0 or zone == "head":
            return False
        shape = self.rules.cover_zones[target.side]
        if self.rules.cover_degree_zones == "by_degree":
            if degree == 3:
                shown = {"horizontal": (target.shown_arm, target.shown_leg),
                         "vertical_left": ("right_arm", "right_leg"),
                         "vertical_right": ("left_arm", "left_leg")}[shape]
                return zone not in shown
            if degree == 1 and shape == "horizontal":
                return zone in ("left_leg", "right_leg")
        if shape == "horizontal":
            return roll <= len(self.zone_table) // 2
        return roll % 2 == (1 if shape == "vertical_left" else 0)

    def cover_hides(self, target: FighterState, roll: int) -> bool:
        """The roll is hidden, unless the cover would hide every roll of the table (then none)."""
        rolls = range(1, len(self.zone_table) + 1)
        return self.cover_would_hide(target, roll) and any(not self.cover_would_hide(target, r) for r in rolls)

    def open_aim(self, target: FighterState, zone: str | None) -> str | None:
        """An aimed zone with no open roll behind the target's cover is rolled instead."""
        rolls = [r for r in range(1, len(self.zone_table) + 1) if self.zone_table[r - 1] == zone]
        if zone is None or not rolls or any(not self.cover_hides(target, r) for r in rolls):
            return zone
        return None

    def size_modifier(self, target: FighterState) -> int:
        """B-8: the target's size; its explicit cover makes it count 1/2/3 sizes smaller (not below tiny)."""
        steps = self.rules.cover[target.side]
        return SIZE_MODIFIERS[SIZES[max(SIZES.index(target.profile.size) - steps, 0)]]

    def situation_modifier(self, attacker: FighterState, target: FighterState) -> int:
        """The target's size (smaller in explicit cover), the charge modifier and darkness (B-9.6)."""
        return (self.size_modifier(target) + (self.rules.charge_attack_modifier if attacker.charging else 0)
                - self.darkness_penalty(False))

    def shot_cover_penalty(self, shooter: FighterState, target: FighterState) -> int:
        """The target's size and cover, the shooter's cover, darkness (B-9.6)."""
        penalty = (-self.size_modifier(target) + self.rules.indirect_cover_penalty[target.side]
                   + self.darkness_penalty(False))
        if self.rules.cover[shooter.side] > 0:
            penalty += self.rules.cover_shooter_penalty
        return penalty

    def shooter_actions(self, me: FighterState, actions: int) -> int:
        """Kite (step back when the enemy is engaged or within its one move; provokes from
        melee), reload (each action provokes when engaged), then aim and shoot. Kiting needs a
        distance: duels only (docs/groups.md)."""
        if (me.profile.tactic.kite and me.profile.movement > 0
                and self.distance <= self.sole_enemy(me).profile.movement):
            self.provoke_opportunity_attack(me)
            actions -= 1
            if not self.can_go_on_acting(me):
                return actions
            self.distance += me.profile.movement
        while actions > 0 and me.reload_left > 0 and self.can_go_on_acting(me) and me.is_shooter():
            self.provoke_opportunity_attack(me)
            actions -= 1
            if me.is_shooter():
                me.reload_left -= 1
        if actions > 0 and me.reload_left == 0 and self.can_go_on_acting(me) and me.is_shooter():
            actions = self.shot_action(me, actions)
        return actions

    def shot_action(self, me: FighterState, actions: int) -> int:
        """Move closer when beyond the long range; aim with two actions (+1, not against a moving
        target within 10 m); shoot at the foe — in melee as a melee-check attack, else a shot.
        Without a foe (docs/groups.md, Targets), or with a foe out of the fight (``may_attack``),
        no aim and no shot."""
        weapon = me.profile.main_hand
        enemy = me.foe
        if enemy is None or not self.may_attack(enemy):
            return actions
        if self.distance > 0 and self.rules.indirect_cover[enemy.side] >= 100:  # unseen
            return actions
        if self.distance > weapon.ranges[2]:
            self.distance = max(self.distance - me.profile.movement, 1)
            actions -= 1
        if actions <= 0 or self.distance > weapon.ranges[2]:
            return actions
        aim = 0
        if actions == 2:
            actions -= 1
            aim = 0 if (enemy.moving and self.distance <= 10) else 1
        tactic = me.profile.tactic
        modifier, zone = 0, None
        if tactic.ranged:
            self.adopt_tactic_stance(me, tactic)
            modifier, zone = tactic.attack_modifier, me.profile.aim_zone
        if self.distance == 0:
            self.answer_readied(me, "enemy_attacks")  # B-9.1: before the shot in melee
            if not self.can_go_on_acting(me) or not me.is_shooter():
                return actions - 1
            self.attack(me, enemy, MAIN, modifier + aim, zone, "normal")
        else:
            self.shoot(me, modifier + aim, zone)
        return actions - 1

    def shoot(self, me: FighterState, modifier: int, zone: str | None) -> None:
        """B-8 shot: ranged + modifier + band (0/−2/−4) + point blank / close (+2/+1, not at a moving
        target) − degraded 2 − wounds − stunned/dazed − fatigue, against 8 (moving 12, prone +2);
        a dodge vs 10 raises the difficulty by 2 + its extra successes. The target is the foe."""
        target = me.foe
        weapon = me.profile.main_hand
        short, medium, long_ = weapon.ranges
        band = 0 if self.distance <= short else 1 if self.distance <= medium else 2
        bonus = me.profile.ranged + modifier - 2 * band - self.check_penalty(me) - self.shot_cover_penalty(me, target)
        if me.is_degraded(MAIN):
            bonus -= 2
        if not target.moving:
            if self.rules.short_weapon_bands == "single_shift":
                point_blank, close = (1, 3) if long_ <= 10 else (3, 10)
            else:  # B-9.10 literal: two separate shifts
                point_blank = 1 if long_ <= 3 else 3
                close = 3 if long_ <= 10 else 10
            bonus += 2 if self.distance <= point_blank else 1 if self.distance <= close else 0
        roll = self.rng.roll_2d6()
        result = roll.total + bonus
        me.reload_left = weapon.reload
        difficulty = self.base_difficulty(target) + (2 if target.prone else 0)
        if result < difficulty:
            self.record.attacks.append((me.side, MISS))
            return
        if target.can_react() and target.profile.reaction != "none":
            dodge = self.rng.roll_2d6().total + self.dodge_total(target)
            self.dodge_made(target)
            if dodge >= 10:
                difficulty += 2 + dodge - 10
                if result < difficulty:
                    self.record.attacks.append((me.side, DODGED))
                    return
        indirect = self.rules.indirect_cover[target.side]
        if indirect > 0 and self.rng.die(100) <= indirect:  # deflected: a miss
            self.record.attacks.append((me.side, MISS))
            return
        self.record.attacks.append((me.side, HIT))
        self.hit(me, target, MAIN, result - difficulty, roll.is_full_success, self.open_aim(target, zone), band=band)

    def base_difficulty(self, target: FighterState) -> int:
        """B-4.1: 8 for an ordinary target, 12 for a moving one (it ran, B-8), 4 for a helpless one
        (attacked only with ``finish_helpless``, B-9.8)."""
        if target.is_out:
            return 4
        return 12 if target.moving else BASE_DIFFICULTY

    def check_penalty(self, me: FighterState) -> int:
        """B-6.5 wounds + B-7.5 stunned/dazed 2 + B-7.8 fatigue + B-9.6 the ground: the penalty of the
        fighter's checks of active actions other than melee attacks and reactions (athletics,
        mobility, shots)."""
        return (me.wound_penalty() + (2 if me.is_stunned or me.is_dazed else 0) + me.fatigue_penalty()
                + me.ground_penalty)

    # -- B-3.12 grapple (duels only: refused in group fights, docs/groups.md) ------------------------
    def release(self) -> None:
        for f in self.fighters:
            f.grapple = None

    def grapple_check(self, me: FighterState, mobility: bool = False) -> int:
        """A grapple check's bonus: athletics (−4 with an item in a hand) or, slipping out,
        mobility [dodge]; less wounds, stunned/dazed and fatigue (as in a knock-down)."""
        penalty = self.check_penalty(me)
        if mobility:
            return me.profile.dodge - penalty
        return me.profile.athletics - penalty - (4 if me.free_hands() < 2 else 0)

    def grapple_contest(self, me: FighterState, mobility: bool = False) -> int:
        """Opposed check of ``me`` (athletics or mobility) against the other's athletics; the
        margin of ``me`` (it must be above 0 to win)."""
        mine = self.rng.roll_2d6().total + self.grapple_check(me, mobility)
        theirs = self.rng.roll_2d6().total + self.grapple_check(self.sole_enemy(me))
        return mine - theirs

    def grapple_hold(self, me: FighterState) -> None:
        """Controller's full action: rise when both are down, throw (a throwing tactic, both
        hands free, both standing), else a blow with a reach-0 item or fists (no reaction)."""
        victim = self.sole_enemy(me)
        me.full_action_penalty = True  # B-2.6
        if me.prone and victim.prone:
            if self.grapple_contest(me) > 0:
                me.prone = victim.prone = False
            return
        if (me.profile.tactic.grapple_action == "throw" and me.free_hands() == 2
                and not me.prone and not victim.prone):
            margin = self.grapple_contest(me)
            if margin > 0:
                victim.fall()
                self.release()
                if margin >= 2:  # the fall: d4+2 shock to the torso, armour ignored
                    self.take_wound(victim, self.rng.die(4) + 2, "shock", "torso", by=me)
            return
        slot = next((s for s in (MAIN, OFF) if me.is_usable(s) and me.profile.weapon(s).reach == 0), FISTS)
        self.attack(me, victim, slot, 0, None, "normal")

    def grapple_escape(self, me: FighterState) -> None:
        """Victim's full action: bare-handed it takes over (then acts as controller at once);
        otherwise it breaks free (athletics) or slips out (mobility), whichever is higher, and
        then has one standard action."""
        me.full_action_penalty = True
        if me.free_hands() == 2:
            if self.grapple_contest(me) > 0:
                me.grapple, self.sole_enemy(me).grapple = "controls", "held"
                self.grapple_hold(me)
            return
        slip = self.grapple_check(me, mobility=True) > self.grapple_check(me)
        if self.grapple_contest(me, mobility=slip) > 0:
            self.release()
            self.standard_actions(me, 1)

    def exertion_tires(self, me: FighterState) -> bool:
        """B-7.8 option: does this turn's exertion bring a fatigue level?"""
        endurance = me.profile.endurance
        if self.rules.exertion_fatigue == "per_round_after_endurance":
            return me.turns_begun > endurance
        if self.rules.exertion_fatigue == "every_endurance_rounds":
            return me.turns_begun % max(endurance, 1) == 0
        return False

    def gain_fatigue(self, me: FighterState, levels: int) -> None:
        """B-7.8: levels come one by one; past three times endurance the fighter dies; each level
        past endurance asks for a hard (12) willpower check, a failure is unconsciousness."""
        for _ in range(levels):
            if me.is_out:
                return
            me.fatigue += 1
            if me.fatigue > 3 * me.profile.endurance:
                me.dead = True
                self.put_out(me, EXHAUSTED)
            elif me.fatigue > me.profile.endurance and not self.passive_check(me, me.profile.willpower, 12):
                self.put_out(me, EXHAUSTED)

    def stand_up(self, me: FighterState) -> None:
        """B-3.11: standing up provokes an opportunity attack (B-3.8) while the fighter is still
        down; it is up afterwards unless that attack felled it again."""
        me.rising = True
        self.provoke_opportunity_attack(me)
        if me.rising or self.rules.refelled == "stands":  # stands: it completes after the attack
            me.prone = False
        me.rising = False

    def ready_weapon(self, me: FighterState, slot: str) -> None:
        """B-3.10: picking up a dropped weapon is a manipulation: it provokes (B-3.8); the weapon
        is in hand afterwards unless that attack knocked it away again."""
        me.picking_up = slot
        self.provoke_opportunity_attack(me)
        if me.picking_up == slot or self.rules.knocked_away_again == "ready_completes":
            me.holding[slot] = True
        me.picking_up = None

    def provoke_opportunity_attack(self, me: FighterState, only: FighterState | None = None) -> None:
        """B-3.8: every enemy engaged with ``me`` (docs/groups.md), in row order, that can react,
        is not in total defence (B-3.7) and has one left this round, attacks ``me`` at −2, until
        ``me`` is out. ``only``: just that enemy may (the target of a failed knock-down, B-3.9).
        Apart (a duel's distance, B-8) nobody is engaged."""
        if self.distance != 0:
            return
        for enemy in [only] if only is not None else self.enemies(me):
            if me.is_out:
                return
            if (not self.is_engaged(me, enemy) or not enemy.can_react() or enemy.no_opportunity_attacks
                    or enemy.opportunity_attacks_left <= 0):
                continue
            enemy.opportunity_attacks_left -= 1
            self.attack(enemy, me, enemy.attack_slot(), -2, None, "opportunity")

    # -- B-3 actions ---------------------------------------------------------------------------
    def feint(self, me: FighterState) -> bool:
        """B-3.6: opposed melee against the foe without weapon modifiers; the feinter must win
        outright. Both sides: melee − wounds − the largest condition (prone 4, stunned/dazed 2).
        """
        target = me.foe
        mine = self.rng.roll_2d6().total + me.profile.melee - me.active_check_penalty()
        theirs = self.rng.roll_2d6().total + target.profile.melee - target.active_check_penalty()
        return mine > theirs

    def adopt_tactic_stance(self, me: FighterState, tactic: NaiveTactic) -> None:
        """The lasting part of an action (until the own next turn): defensive stance / total
        defence bonus (B-3.2, B-3.7), no reactions (B-3.4), no opportunity attacks (B-3.7), the
        −2 to reactions after a full action (B-2.6)."""
        me.stance_bonus = tactic.stance
        me.no_reactions = tactic.no_reactions
        me.no_opportunity_attacks = tactic.no_opportunity_attacks
        if tactic.reaction_penalty:
            me.full_action_penalty = True

    def attack_actions(self, me: FighterState, actions: int, first_attack_only: bool) -> int:
        """The attack part of a turn by the tactic (B-3.1–B-3.7, B-3.9, B-7.6); returns the
        standard actions left.

        A full action needs both standard actions: with one left, an attacking tactic makes a plain
        single attack (B-3.1) and a non-attacking one does nothing. A knock-down tactic attacks a
        prone target with its weapon and no modifier. ``first_attack_only`` stops after the first attack roll (the
        single-attack sampler). Every attack, feint and knock-down is against the foe; without a
        foe, or with a foe that went out (``may_attack``), there is no attack and the tactic's
        stance is not taken (docs/groups.md, Targets).
        """
        enemy = me.foe
        if enemy is None or not self.may_attack(enemy):
            return actions
        tactic = me.profile.tactic
        if tactic.attack != "none":  # B-9.1: readied attacks answer the start of an attack
            self.answer_readied(me, "enemy_attacks")
            if not self.can_go_on_acting(me):
                return actions
        if tactic.attack == "none":  # e.g. total defence (B-3.7)
            if tactic.full_action and actions < 2:
                return actions
            self.adopt_tactic_stance(me, tactic)
            return 0 if tactic.full_action else actions - 1
        slot = me.attack_slot()
        feint = tactic.feint_first and actions == 2 and not enemy.is_out  # B-3.6 (never at the helpless)
        if feint:
            actions -= 1
        modifier = 0
        aimed_zone = None
        kind = "normal"
        if tactic.full_action and actions < 2:
            actions -= 1  # no room for the full action: a plain single attack
        else:
            actions = 0 if tactic.full_action else actions - 1
            self.adopt_tactic_stance(me, tactic)
            if tactic.aims:  # B-3.3: the attacker picks the zone
                aimed_zone = me.profile.aim_zone
            if tactic.attack == "knockdown" and not enemy.prone and not enemy.is_out:
                kind = "knockdown"  # B-3.9: an unarmed attack that cannot be parried
                slot = FISTS
            elif tactic.attack == "grapple" and me.free_hands() >= self.rules.grapple_free_hands:
                kind = "grapple"  # B-3.12: an unarmed attack at −2
                slot = FISTS
            elif tactic.attack == "weapon" and self.weapon_aimed_at(enemy) is not None:
                kind = "weapon"  # B-9.3: aimed at the weapon; a bare-handed foe is attacked plainly
            if tactic.attack == "normal" or kind != "normal":  # else a plain attack
                modifier = (tactic.unarmed_attack_modifier if slot == FISTS
                            else tactic.attack_modifier)
            if (kind == "normal" and slot == FISTS and tactic.full_action
                    and tactic.unarmed_full_attack == self.rules.unarmed_full_attack):
                kind = "full_unarmed"  # B-9.2: the unarmed full attack
        paired = (kind == "normal" and me.profile.paired_weapons and slot == MAIN
                  and me.is_usable(OFF))
        if paired:  # B-7.6: both weapons in one action, each at −4
            modifier -= 4
        if feint and self.feint(me):
            modifier += 1
        me.more_hits = 0
        failed_knockdown = self.attack(me, enemy, slot, modifier, aimed_zone, kind)
        if first_attack_only:
            return actions
        if failed_knockdown:  # B-3.9: a failed knock-down gives (only) the target an opportunity attack
            self.provoke_opportunity_attack(me, only=enemy)
        elif paired and not me.is_out and not enemy.is_out and me.is_usable(OFF):
            self.attack(me, enemy, OFF, modifier, aimed_zone, kind)
        for _ in range(me.more_hits):  # B-9.2: each further hit its own zone and damage, no extra, no critical
            if enemy.is_out:
                break
            self.hit(me, enemy, FISTS, 0, False, self.open_aim(enemy, aimed_zone))
        return actions

    def weapon_aimed_at(self, target: FighterState) -> str | None:
        """B-9.3: the target's main-hand item if usable, else its off-hand item, else None."""
        for slot in (MAIN, OFF):
            if target.is_usable(slot):
                return slot
        return None
    def may_attack(self, enemy: FighterState) -> bool:
        """A foe that went out (during the attacker's turn) is not attacked, unless it lies
        helpless and fighters finish the helpless (``finish_helpless``, B-9.8)."""
        return not enemy.is_out or (self.rules.finish_helpless and enemy.is_helpless)

    # -- B-4 one attack -----------------------------------------------------------------------
    def attack_bonus(self, me: FighterState, slot: str, modifier: int) -> int:
        """B-4.2: melee + attack talents + action modifier − wounds − conditions; off hand −2
        unless ambidextrous (B-7.6); a broken weapon −2 (B-4.4)."""
        bonus = me.profile.melee + me.profile.attack_talent + modifier - me.active_check_penalty()
        if slot == OFF and not me.profile.ambidextrous:
            bonus -= 2
        if me.is_degraded(slot):
            bonus -= 2
        weapon = me.profile.weapon(slot)
        if weapon.is_ranged:  # B-8: fired in melee
            bonus -= 4 if weapon.two_handed else 2
        return bonus

    def choose_reaction(self, defender: FighterState, kind: str) -> str:
        """B-4.8: the defender's tactic; ``best`` = higher total bonus (parry on ties), unarmed
        defenders dodge; a knock-down cannot be parried (B-3.9)."""
        if not defender.can_react():
            return "none"
        if defender.in_own_turn and not self.rules.react_in_own_turn:  # B-2.7
            return "none"
        choice = defender.profile.reaction
        if choice == "none":
            return "none"
        can_parry = kind != "knockdown"
        if choice == "parry":
            return "parry" if can_parry else "dodge"
        if choice == "dodge" or not can_parry:
            return "dodge"
        slot = defender.parry_slot()
        if slot == FISTS:
            return "dodge"
        return "parry" if self.parry_total(defender, slot) >= self.dodge_total(defender) else "dodge"

    def attack(self, attacker: FighterState, defender: FighterState, slot: str, modifier: int,
               aimed_zone: str | None, kind: str) -> bool:
        """B-4: one attack by ``attacker`` on ``defender`` from the check to the wound. Returns True
        if a knock-down attack failed (missed or was dodged), which provokes an opportunity attack
        (B-3.9)."""
        roll = self.rng.roll_2d6()
        result = roll.total + self.attack_bonus(attacker, slot, modifier) + self.situation_modifier(attacker, defender)
        side = attacker.side
        if attacker.profile.weapon(slot).is_ranged:  # B-8: the shot empties the weapon
            attacker.reload_left = attacker.profile.weapon(slot).reload
        if self.cramped_voids(roll, attacker, slot):  # B-7.9: as if the attack never happened
            self.record.attacks.append((side, MISS))
            weapon = attacker.profile.weapon(slot)
            mode = self.rules.stuck_weapon  # B-9.7: the voided attack may leave the weapon stuck
            if not weapon.is_ranged and (mode == "always" or (mode == "cutting_and_piercing"
                                                                 and weapon.damage_type == "cutting")):
                attacker.stuck[slot] = True
            return False
        base = self.base_difficulty(defender)
        if self.rules.attack_needs_base_difficulty and result < base:  # B-4.3
            self.record.attacks.append((side, MISS))
            return kind == "knockdown"
        reaction = self.choose_reaction(defender, kind)
        if reaction == "parry":
            margin = self.resolve_parry(attacker, defender, slot, result)
            if margin is PARRY_VOIDED:
                reaction = "none"
            elif margin is None:
                return False
        elif reaction == "dodge":  # B-4.5: a tie hits with 0 extra successes
            dodge = self.rng.roll_2d6().total + self.dodge_total(defender)
            self.dodge_made(defender)
            if result < dodge:
                self.record.attacks.append((side, DODGED))
                return kind == "knockdown"
            margin = result - dodge
            if self.rules.margin_against_max_of_base_and_reaction and dodge < base:
                margin = result - base  # B-4.6 option
        if reaction not in ("parry", "dodge"):
            if result < base:
                self.record.attacks.append((side, MISS))
                return kind == "knockdown"
            margin = result - base  # B-4.6 no reaction: against the base
        margin = max(margin, 0)
        if kind == "weapon":  # B-9.3: the blow meets the weapon — the hard block instead of damage
            self.record.attacks.append((side, HARD_BLOCK))
            target_slot = self.weapon_aimed_at(defender)
            if attacker.profile.weapon(slot).unarmed:  # the fist meets a weapon (as in a parry's hard block)
                self.hit(defender, attacker, target_slot, 0, False, "right_arm")
            else:
                self.durability_test(attacker, slot, defender, target_slot)
            return False
        self.record.attacks.append((side, HIT))
        if kind == "knockdown":
            self.knock_down(attacker, defender)
            return False
        if kind == "grapple":  # B-3.12: no damage, the attacker controls the grapple
            attacker.grapple, defender.grapple = "controls", "held"
            return False
        if kind == "full_unarmed":  # B-9.2: one more hit per 2 extra successes, at most the melee skill
            attacker.more_hits = max(1, min(1 + margin // 2, attacker.profile.melee_skill)) - 1
        self.hit(attacker, defender, slot, margin, roll.is_full_success, self.open_aim(defender, aimed_zone))
        return False

    def cramped_voids(self, roll: Roll2d6, fighter: FighterState, slot: str) -> bool:
        """B-7.9: in cramped space a natural 1+1 on an armed attack or parry voids the action."""
        return (self.rules.cramped_space and roll.first == 1 and roll.second == 1
                and not fighter.profile.weapon(slot).unarmed)  # type: ignore[union-attr]

    def resolve_parry(self, attacker: FighterState, defender: FighterState, slot: str,
                      result: int) -> int | None:
        """B-4.4 parry (with B-7.7 for bare hands). Returns the hit's extra successes, or None if
        the attack did not hit (parried / hard block; any arm hits are resolved here)."""
        side = attacker.side
        parry_slot = defender.parry_slot()
        parry_roll = self.rng.roll_2d6()
        if self.cramped_voids(parry_roll, defender, parry_slot):  # B-7.9: as if there was no parry
            return PARRY_VOIDED
        parry = parry_roll.total + self.parry_total(defender, parry_slot)
        attacker_unarmed = attacker.profile.weapon(slot).unarmed  # type: ignore[union-attr]
        defender_unarmed = parry_slot == FISTS
        if result == parry:  # hard block
            self.record.attacks.append((side, HARD_BLOCK))
            if attacker_unarmed and defender_unarmed:
                # kernel extension: opposed athletics, the loser takes a fist on a random arm
                ra = self.rng.roll_2d6().total + attacker.profile.athletics - attacker.fatigue_penalty()
                rd = self.rng.roll_2d6().total + defender.profile.athletics - defender.fatigue_penalty()
                if ra != rd:
                    arm = "left_arm" if self.rng.die(2) == 1 else "right_arm"
                    if ra > rd:
                        self.hit(attacker, defender, FISTS, 0, False, arm)
                    else:
                        self.hit(defender, attacker, FISTS, 0, False, arm)
            elif defender_unarmed:  # B-7.7: the bare arm takes the full hit (not from a shot, B-8)
                if attacker.profile.weapon(slot).is_ranged:
                    return None
                self.hit(attacker, defender, slot, 0, False, "right_arm")
            elif attacker_unarmed:  # kernel extension: the fist meets a weapon
                self.hit(defender, attacker, parry_slot, 0, False, "right_arm")
            else:
                self.durability_test(attacker, slot, defender, parry_slot)
            return None
        if result < parry:
            self.record.attacks.append((side, PARRIED))
            if defender_unarmed and not attacker_unarmed and not attacker.profile.weapon(slot).is_ranged:
                self.hit(attacker, defender, slot, 0, False, "right_arm", reduction=parry - result)
            elif attacker_unarmed and not defender_unarmed:  # kernel extension
                self.hit(defender, attacker, parry_slot, parry - result,
                         parry_roll.is_full_success, "right_arm")
            return None
        margin = result - parry
        base = self.base_difficulty(defender)
        if self.rules.margin_against_max_of_base_and_reaction and parry < base:
            margin = result - base  # B-4.6 option
        return margin

    def durability_test(self, attacker: FighterState, attacker_slot: str,
                        defender: FighterState, defender_slot: str) -> None:
        """B-4.4 hard block: opposed 2d6 + durability; a loss by 6 or more breaks the weapon."""
        ra = self.rng.roll_2d6().total + attacker.profile.weapon(attacker_slot).durability  # type: ignore[union-attr]
        rd = self.rng.roll_2d6().total + defender.profile.weapon(defender_slot).durability  # type: ignore[union-attr]
        if rd - ra >= 6:
            self.break_weapon(attacker, attacker_slot)
        elif ra - rd >= 6:
            self.break_weapon(defender, defender_slot)

    def break_weapon(self, owner: FighterState, slot: str) -> None:
        """B-4.4: a broken weapon is degraded, or destroyed (option); broken twice, destroyed or
        still degraded (option ``second_break``)."""
        self.record.breaks.append(owner.side)
        if self.rules.broken_weapon_destroyed or (owner.weapon_state[slot] == "degraded"
                                                  and self.rules.second_break_destroys):
            owner.weapon_state[slot] = "destroyed"
        else:
            owner.weapon_state[slot] = "degraded"

    def knock_down(self, attacker: FighterState, defender: FighterState) -> None:
        """B-3.9 after a hit: opposed athletics; the attacker winning makes the defender roll a hard
        (12) mobility [dodge] check or fall prone; the defender winning by 4+ fells the attacker."""
        ra = (self.rng.roll_2d6().total + attacker.profile.athletics - self.check_penalty(attacker)
              + (2 if attacker.charging else 0))  # seed line 208: +2 inside a charge
        rd = self.rng.roll_2d6().total + defender.profile.athletics - self.check_penalty(defender)
        if ra > rd:
            mobility = self.rng.roll_2d6().total + defender.profile.dodge - self.check_penalty(defender)
            if mobility < 12:
                defender.fall()
        elif rd - ra >= 4:
            attacker.fall()

    # -- B-4 steps 3–5: zone, damage, armour ---------------------------------------------------
    def weapon_die(self, owner: FighterState, slot: str) -> int:
        """Die size of a weapon, one step lower when broken (B-4.4)."""
        sides = owner.profile.weapon(slot).sides  # type: ignore[union-attr]
        if owner.is_degraded(slot) and sides in DIE_STEPS:
            return DIE_STEPS[max(0, DIE_STEPS.index(sides) - 1)]
        return sides

    def die_floor(self, sides: int, margin: int) -> int:
        """B-4.11: a confident hit (4+ extra) shows at least half the die; with the option, each
        die also shows at least min(extra successes, die size)."""
        floor = sides // 2 if margin >= 4 else 0
        if self.rules.extra_successes_floor_damage:
            floor = max(floor, min(margin, sides))
        return floor

    def marker_is_rolled(self, defender: FighterState, zone: str) -> bool:
        """B-4.14: an armoured zone rolls the d6 penetration marker (not with protection_only)."""
        return self.rules.armour_model != "protection_only" and defender.profile.armour[zone].present

    def hit(self, attacker: FighterState, defender: FighterState, slot: str, margin: int,
            critical: bool, zone: str | None, reduction: int = 0, band: int | None = None) -> None:
        """B-4 steps 3–6: hit zone (B-4.9), damage dice (B-4.10–B-4.12), armour (B-4.14), wound.
        A shot (``band`` 0/1/2, B-8) has no extra-success floor and loses band damage and
        penetration."""
        if zone is None:  # re-rolled while explicit cover hides the roll (B-8)
            roll = self.rng.die(len(self.zone_table))
            while self.cover_hides(defender, roll):
                roll = self.rng.die(len(self.zone_table))
            zone = self.zone_table[roll - 1]
        weapon = attacker.profile.weapon(slot)
        assert weapon is not None
        sides = self.weapon_die(attacker, slot)
        if defender.is_out and margin >= 4:  # B-4.13: on the helpless a confident hit is critical
            critical = True
        if critical:  # B-4.12: every die at its maximum
            dice = weapon.n_dice * sides
        else:
            floor = self.die_floor(sides, margin) if band is None else (sides // 2 if margin >= 4 else 0)
            if defender.is_out:  # B-4.13: an ordinary hit on the helpless is confident
                floor = max(floor, sides // 2)
            dice = sum(max(self.rng.die(sides), floor) for _ in range(weapon.n_dice))
        critical_die = self.rng.die(6) if critical else 0
        marker = self.rng.die(6) if self.marker_is_rolled(defender, zone) else 0
        damage, damage_type = self.final_damage(attacker, defender, slot, zone, dice, critical_die,
                                                marker, reduction, band or 0)
        self.take_wound(defender, damage, damage_type, zone, by=attacker)

    def final_damage(self, attacker: FighterState, defender: FighterState, slot: str, zone: str,
                     dice: int, critical_die: int, marker: int, reduction: int,
                     band: int = 0) -> tuple[int, str]:
        """B-4.10, B-4.14, B-4.15: damage = dice + weapon bonus + talents (+ strength option);
        armour: marker + penetration − toughness ≥ threshold pierces, else cutting turns blunt;
        protection subtracts (not after piercing in the pierce-ignores model); fire ×2 protection
        and no toughness, blast ½ protection and no toughness; never below 0."""
        weapon = attacker.profile.weapon(slot)
        assert weapon is not None
        damage_type = weapon.damage_type
        damage = dice + weapon.bonus + attacker.profile.damage_talent + critical_die
        if self.rules.melee_damage_adds_strength and not weapon.unarmed:
            damage += attacker.profile.strength
        penetration = weapon.penetration
        if attacker.is_degraded(slot) and penetration > 0:
            penetration -= 1
        penetration = max(0, penetration - band)  # B-8 range band
        damage = max(0, damage - band)
        armour = defender.profile.armour[zone]
        protection, toughness = armour.protection, armour.toughness
        if damage_type == "fire":
            protection, toughness = protection * 2, 0
        elif damage_type == "blast":
            protection, toughness = protection // 2, 0
        if self.marker_is_rolled(defender, zone):
            pierced = marker + penetration - toughness >= self.rules.pierce_threshold
            if not pierced and damage_type == "cutting":
                damage_type = "blunt"
            if pierced and self.rules.armour_model == "marker_pierce_ignores_protection":
                protection = 0
        return max(0, damage - protection - reduction), damage_type

    # -- B-5, B-6, B-7 wounds ----------------------------------------------------------------
    def wound_level(self, defender: FighterState, damage: int) -> str:
        """B-5.1: compare one hit's damage with the damage levels (3/6/9/15 for humans)."""
        if damage <= 0:
            return NONE
        for level, limit in zip((LIGHT_DAMAGE, LIGHT, HEAVY, CRITICAL), defender.profile.damage_levels):
            if damage <= limit:
                return level
        return MORTAL

    def take_light_damage(self, me: FighterState) -> None:
        """B-5.3: tally light damage; when the tally exceeds endurance it becomes a light wound."""
        me.light_damage_tally += 1
        if me.light_damage_tally > me.profile.endurance:
            me.light_damage_tally = 0
            self.record_wound(me, LIGHT)

    def record_wound(self, me: FighterState, level: str) -> None:
        """B-6.2 light: leftmost free cell; B-6.3 heavy: ТР, else the first free cell to its right;
        B-6.4 critical: КР, else И. A filled И is out (B-6.6)."""
        if level == LIGHT:
            start = 0
        elif level == HEAVY:
            start = me.heavily_wounded_cell
        else:
            start = me.critically_wounded_cell
        for cell in range(start, len(me.track)):
            if not me.track[cell]:
                me.track[cell] = True
                break
        else:  # B-6.7: no cell left for the wound (the fighter is out): a coma; in a coma it dies
            if me.in_coma:
                me.dead = True
            me.in_coma = True
        if me.track[me.wounded_out_cell]:
            self.put_out(me, TRACK_FULL)

    def toughness_check(self, me: FighterState, difficulty: int) -> bool:
        return self.passive_check(me, me.profile.toughness, difficulty)

    def passive_check(self, me: FighterState, bonus: int, difficulty: int) -> bool:
        """2d6 + bonus ≥ difficulty (B-1.3); fatigue (B-7.8); dazed −2 only with ``dazed_penalty``
        all_checks (B-9.5: toughness against wounds and willpower against exhaustion are passive)."""
        total = self.rng.roll_2d6().total + bonus - me.fatigue_penalty()
        if me.is_dazed and self.rules.dazed_penalty_all_checks:
            total -= 2
        return total >= difficulty

    def take_wound(self, me: FighterState, damage: int, damage_type: str, zone: str,
                   by: FighterState) -> None:
        """B-5 / B-6 / B-7 for one hit: level by damage, recorded one level lower for shock (B-5.2),
        effects of the full level, bleeding for cutting heavy/critical wounds (B-7.2, B-7.3),
        lasting stun for a critical wound (B-7.4). A mortal wound is out at once and rolls
        the toughness 12 check for death (B-5.4). The final damage counts as dealt ``by`` the
        attacker and taken by ``me`` (docs/groups.md, Counters)."""
        level = self.wound_level(me, damage)
        self.record.wounds.append((me.side, level, zone, damage))
        by.damage_dealt += damage
        me.damage_taken += damage
        if level == NONE:
            return
        me.harmful_blows += 1
        if level == MORTAL:
            if not self.toughness_check(me, 12):
                me.dead = True
            if me.in_coma:  # B-6.7: any wound in a coma kills
                me.dead = True
            self.put_out(me, MORTAL_WOUND)
            return
        recorded = LEVELS[LEVELS.index(level) - 1] if damage_type == "shock" else level
        if recorded == LIGHT_DAMAGE:
            self.take_light_damage(me)
        elif recorded in (LIGHT, HEAVY, CRITICAL):
            self.record_wound(me, recorded)
        if me.is_out or level == LIGHT_DAMAGE:
            return
        self.wound_effects(me, level, ZONE_GROUP[zone], zone)
        if level in (HEAVY, CRITICAL) and damage_type == "cutting":
            me.bleeding_wounds += 1
        if level == CRITICAL:  # B-7.4; shock takes the effects of its level (B-5.2)
            me.permanently_stunned = True
        if level in (HEAVY, CRITICAL):  # B-7.4: no running
            me.cannot_run = True
        if damage_type == "fire":  # B-7.8: fire wounds tire
            self.gain_fatigue(me, FIRE_WOUND_FATIGUE[level])

    def drop_item(self, me: FighterState, zone: str) -> None:
        """B-7.1: an arm wound drops what that hand holds (right = main hand); a two-handed weapon
        is dropped by either arm."""
        if zone == "right_arm":
            me.lose_grip(MAIN)
        elif zone == "left_arm":
            if me.profile.main_hand is not None and me.profile.main_hand.two_handed:
                me.lose_grip(MAIN)
            else:
                me.lose_grip(OFF)

    def wound_effects(self, me: FighterState, level: str, group: str, zone: str) -> None:
        """B-7.1–B-7.3: immediate effects by level and zone; the check is rolled first."""
        if level == LIGHT:  # B-7.1: toughness vs 8 or the effect
            if self.toughness_check(me, 8):
                return
            if group == "arm":
                self.drop_item(me, zone)
            elif group == "leg":
                me.fall()
            elif group == "torso":
                me.until_end_of_next_turn("stunned")
            else:
                me.until_end_of_next_turn("dazed")
        elif level == HEAVY:  # B-7.2: the effect, and toughness vs 12 or worse
            resisted = self.toughness_check(me, 12)
            if group == "arm":
                self.drop_item(me, zone)
                if not resisted:
                    me.until_end_of_next_turn("stunned")
            elif group == "leg":
                me.fall()
                if not resisted:
                    me.until_end_of_next_turn("stunned")
            elif group == "torso":
                me.until_end_of_next_turn("stunned")
                if not resisted:
                    me.until_end_of_next_turn("dazed")
            else:
                me.until_end_of_next_turn("dazed")
                if not resisted:
                    self.put_out(me, KNOCKED_OUT)
        else:  # B-7.3 critical: head unconscious; else the effect and toughness vs 14
            if group == "head":
                self.put_out(me, KNOCKED_OUT)
                return
            resisted = self.toughness_check(me, 14)
            if group == "arm":
                self.drop_item(me, zone)
            elif group == "leg":
                me.fall()
            else:
                me.until_end_of_next_turn("dazed")
            if not resisted:
                self.put_out(me, KNOCKED_OUT)


# --------------------------------------------------------------------------------------------------
# Entry points
# --------------------------------------------------------------------------------------------------


def new_fight(F, opts, zt, seed: int, index: int) -> NaiveFight:
    """Fight ``index`` of a run with ``seed``: the compiled inputs converted to plain objects."""
    return NaiveFight(fighters_from_rows(F), NaiveRules.from_array(opts), zone_table_from_array(zt),
                      Xoshiro256StarStar.for_duel(seed, index))


def fight(F, opts, zt, seed: int, index: int) -> FightRecord:
    """Fight ``index`` of a run with ``seed`` between the rows of ``F: int64[N, NF]`` (side a's
    rows, then side b's; N ≤ 12), with the per-fighter outcomes (docs/groups.md)."""
    return new_fight(F, opts, zt, seed, index).run()


def duel(F, opts, zt, seed: int, index: int) -> FightRecord:
    """Duel ``index`` of a run with ``seed``: the fight of the two rows of ``F``."""
    assert len(F) == 2
    return fight(F, opts, zt, seed, index)


def attack(F, opts, zt, seed: int, index: int) -> FightRecord:
    """Side a's first attack roll of its tactic (inside its own turn, two actions) on a fresh b."""
    duel = new_fight(F, opts, zt, seed, index)
    attacker, target = duel.fighters
    duel.show_limbs_behind_cover(target)
    attacker.foe = target
    attacker.in_own_turn = True
    if attacker.is_shooter() and duel.lets_go_of_ranged(attacker):  # engaged, lets go (B-8)
        attacker.holding[MAIN] = False
    if attacker.is_shooter():  # B-8: aim and shoot from the start distance
        duel.shot_action(attacker, 2)
    else:
        duel.distance = 0
        duel.attack_actions(attacker, 2, first_attack_only=True)
    return duel.record
