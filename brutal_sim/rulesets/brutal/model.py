"""Typed, validated rules data: weapons, armour, talents and fighters (the public TOML format).

Every model forbids unknown fields so that a typo is reported, not ignored. Names of catalog items
inside a fighter (``main_hand = "arming_sword"``) are resolved by :mod:`brutal_sim.rulesets.brutal.catalog`.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal, Union

from pydantic import Field, field_validator, model_validator

from ...core.data import StrictModel
from ...core.dice import Dice, parse_dice
from ...core.errors import DataError
from ...core.ruleset import get_ruleset
from ...core.variants import with_changes
from .layout import SIZE_NAMES

#: Hit zones, in the order the kernel codes them (B-4.9).
ZONES: tuple[str, ...] = ("head", "torso", "left_arm", "right_arm", "left_leg", "right_leg")
ZONE_SHORTHANDS: dict[str, tuple[str, ...]] = {
    "arms": ("left_arm", "right_arm"),
    "legs": ("left_leg", "right_leg"),
    "all": ZONES,
}
#: Zone groups used in reports: head, torso, arm, leg.
ZONE_GROUPS: tuple[str, ...] = ("head", "torso", "arm", "leg")

DAMAGE_TYPES: tuple[str, ...] = ("cutting", "piercing", "blunt", "shock", "fire", "blast")
REACTIONS: tuple[str, ...] = ("best", "parry", "dodge", "none")
CHECKS: tuple[str, ...] = ("melee", "ranged", "dodge", "athletics", "toughness", "resolve", "willpower")

DamageType = Literal["cutting", "piercing", "blunt", "shock", "fire", "blast"]
Reaction = Literal["best", "parry", "dodge", "none"]
Targeting = Literal["spread", "weakest", "nearest"]  # group fights, docs/groups.md
Size = Literal[SIZE_NAMES]  # B-8 target size [Размер противника], tiny … gigantic (attacks on it −8 … +8)


class Weapon(StrictModel):
    """A melee weapon or shield (B-4.10, B-4.14, B-4.4)."""

    name: str = ""
    description: str = ""
    damage: str = Field(description="dice expression, e.g. 'd8+1'")
    type: DamageType = "blunt"
    penetration: int = Field(0, ge=0, le=10)
    durability: int = Field(0, ge=-5, le=20)
    two_handed: bool = False
    reach: int = Field(1, ge=0, le=6, description="metres; only reach-0 weapons strike inside a grapple (B-3.12)")
    parry_bonus: int = Field(0, ge=-4, le=4, description="extension: a shield's bonus to parry checks made with it")
    ranges: list[int] | None = Field(None, description="ranged weapon (B-8): short/medium/long range in metres")
    reload: int = Field(0, ge=0, le=10, description="standard actions to reload after a shot (B-8); 0 never needs it")

    @field_validator("ranges")
    @classmethod
    def _ranges(cls, v: list[int] | None) -> list[int] | None:
        if v is not None and (len(v) != 3 or v[0] < 1 or v[-1] > 10_000 or any(b <= a for a, b in zip(v, v[1:]))):
            raise ValueError(f"needs 3 increasing ranges in metres (short, medium, long) within 1..10000, e.g. "
                             f"[20, 40, 80]; got {v}")
        return v

    @model_validator(mode="after")
    def _reload_needs_ranges(self) -> "Weapon":
        if self.reload and self.ranges is None:
            raise ValueError("reload: only a ranged weapon (with ranges) reloads")
        return self

    @property
    def is_ranged(self) -> bool:
        return self.ranges is not None

    @field_validator("damage", mode="before")
    @classmethod
    def _number_is_dice(cls, v: object) -> object:
        return str(v) if isinstance(v, int) and not isinstance(v, bool) else v

    @field_validator("damage")
    @classmethod
    def _check_dice(cls, v: str) -> str:
        parse_dice(v)
        return v

    @property
    def dice(self) -> Dice:
        return parse_dice(self.damage)


class Armour(StrictModel):
    """A piece of armour covering some zones (B-4.14)."""

    name: str = ""
    description: str = ""
    protection: int = Field(0, ge=0, le=20)
    toughness: int = Field(0, ge=0, le=20)
    zones: list[str] = Field(min_length=1, description="zones covered; at least one")

    @field_validator("zones")
    @classmethod
    def _expand_zones(cls, v: list[str]) -> list[str]:
        out: list[str] = []
        for z in v:
            if z in ZONE_SHORTHANDS:
                out.extend(ZONE_SHORTHANDS[z])
            elif z in ZONES:
                out.append(z)
            else:
                raise ValueError(f"unknown zone {z!r}; allowed: {', '.join(ZONES + tuple(ZONE_SHORTHANDS))}")
        return sorted(set(out), key=ZONES.index)


class TalentModifiers(StrictModel):
    """Numbers a talent adds (all default 0)."""

    melee: int = Field(0, ge=-10, le=10)
    ranged: int = Field(0, ge=-10, le=10)
    dodge: int = Field(0, ge=-10, le=10)
    athletics: int = Field(0, ge=-10, le=10)
    toughness: int = Field(0, ge=-10, le=10)
    resolve: int = Field(0, ge=-10, le=10)
    willpower: int = Field(0, ge=-10, le=10)
    attack: int = Field(0, ge=-10, le=10, description="melee attack checks only")
    parry: int = Field(0, ge=-10, le=10, description="parry checks only")
    initiative: int = Field(0, ge=-10, le=10,
                            description="initiative checks; a positive value also wins initiative ties (B-2.2)")
    damage: int = Field(0, ge=-10, le=10, description="added to the damage of the fighter's melee hits")
    damage_levels: int = Field(0, ge=-5, le=10, description="added to each of the fighter's damage levels (B-5.1)")


class TalentFlags(StrictModel):
    """Switches the kernel understands."""

    ambidexterity: bool = False
    paired_weapons: bool = False
    extra_opportunity_attacks: int = Field(0, ge=0, le=5)


class Talent(StrictModel):
    """A named bundle of modifiers and flags."""

    name: str = ""
    description: str = ""
    rule: str = ""
    modifiers: TalentModifiers = TalentModifiers()
    flags: TalentFlags = TalentFlags()


class Tactic(StrictModel):
    """What a fighter does with its turn (B-3): a named bundle of action settings."""

    name: str = ""
    description: str = ""
    rule: str = ""
    attack: Literal["normal", "knockdown", "grapple", "weapon", "none"] = "normal"
    attack_modifier: int = Field(0, ge=-10, le=10)
    unarmed_attack_modifier: int | None = Field(None, ge=-10, le=10, description="default: attack_modifier")
    stance: int = Field(0, ge=0, le=10, description="bonus to parry and dodge until the own next turn")
    full_action: bool = False
    reaction_penalty: bool | None = Field(None, description="−2 to reactions until the next turn (B-2.6); "
                                                            "default: full_action")
    no_reactions: bool = False
    no_opportunity_attacks: bool = False
    feint_first: bool = False
    aims: bool = False
    grapple_action: Literal["damage", "throw"] = Field(
        "damage", description="full action of a fighter controlling a grapple (B-3.12): strike, or throw and release")
    ranged: bool = Field(False, description="the action can be a shot (B-8): its modifier, zone and stance apply "
                                            "to shots")
    kite: bool = Field(False, description="a shooter first steps back from an enemy that could strike it next "
                                          "turn (B-8)")
    run: bool = Field(True, description="closing in, run when two moves cannot reach the enemy (B-8)")
    drop_ranged: bool = Field(False, description="engaged, a shooter drops its ranged weapon (a free action) and "
                                                 "fights with its off-hand item or fists (B-8)")
    charge: bool = Field(False, description="apart, charge [Натиск] when the enemy is within a run's distance: a full "
                                            "action that closes in and attacks (B-8)")
    ready: bool = Field(False, description="B-9.1: a full action readies a single attack fired by the option "
                                           "readied_trigger before the start of the own next turn")
    unarmed_full_attack: Literal["none", "furious", "flurry"] = Field(
        "none", description="B-9.2: under this reading of the option unarmed_full_attack the tactic's full action "
                            "made with fists is the unarmed full attack (one more hit per 2 extra successes)")

    @model_validator(mode="after")
    def _shots_are_standard(self) -> "Tactic":
        if self.ranged and (self.full_action or self.attack != "normal" or self.feint_first):
            raise ValueError("ranged: a shot is a standard action with a normal attack; "
                             "it cannot be a full action, a knock-down, a grapple or follow a feint")
        if self.charge and (self.ranged or self.attack == "none"):
            raise ValueError("charge: a charge ends in a melee attack; it cannot be ranged or have attack = 'none'")
        if self.ready and (self.ranged or self.charge or self.full_action or self.attack != "normal"):
            raise ValueError("ready: readying is the full action and its attack a single attack; it cannot be ranged, "
                             "charge, a full_action or have an attack other than 'normal'")
        if self.unarmed_full_attack != "none" and not self.full_action:
            raise ValueError("unarmed_full_attack: the unarmed full attack is a full action; set full_action = true")
        return self


class Checks(StrictModel):
    """Total bonus per check kind (B-1.1 GAP: stat blocks give totals)."""

    melee: int = Field(0, ge=-5, le=20)
    ranged: int = Field(0, ge=-5, le=20)
    dodge: int = Field(0, ge=-5, le=20)
    athletics: int = Field(0, ge=-5, le=20)
    toughness: int = Field(0, ge=-5, le=20)
    resolve: int = Field(0, ge=-5, le=20)
    willpower: int = Field(0, ge=-5, le=20)


class Attributes(StrictModel):
    """Attributes. endurance, strength and agility are used by the rules directly; all of them can
    enter check formulas (option ``check_bonus = attribute_plus_skill``, B-1.1)."""

    endurance: int = Field(3, ge=0, le=20, description="wound track has 4 + endurance cells (B-6.1)")
    strength: int = Field(0, ge=-5, le=20)
    agility: int = Field(0, ge=-5, le=20)
    mobility: int = Field(0, ge=-5, le=20, description="Подвижность")
    confidence: int = Field(0, ge=-5, le=20, description="Уверенность")
    fortitude: int = Field(0, ge=-5, le=20, description="Стойкость")
    spirit: int = Field(0, ge=-5, le=20, description="Сила духа")
    perception: int = Field(0, ge=-5, le=20, description="Внимательность")


#: Attribute names a check formula may use.
ATTRIBUTES: tuple[str, ...] = tuple(Attributes.model_fields)


WeaponRef = Union[str, Weapon, None]
ArmourRef = Union[str, Armour]
TalentRef = Union[str, Talent]
TacticRef = Union[str, Tactic]


def _check_fatigue(fatigue: int, endurance: int) -> None:
    """B-7.8: more than three times endurance in fatigue levels is death by exhaustion."""
    if fatigue > 3 * endurance:
        raise ValueError(f"fatigue: {fatigue} levels exceed 3 × endurance ({3 * endurance}); such a fighter "
                         f"has died of exhaustion (B-7.8); allowed 0..{3 * endurance}")


class FighterSpec(StrictModel):
    """A fighter as written in TOML; weapon/armour/talent names are not yet resolved."""

    ruleset: Literal["brutal"] = "brutal"
    name: str = ""
    description: str = ""
    checks: Checks = Checks()
    attributes: Attributes = Attributes()
    damage_levels: list[int] = Field(default_factory=lambda: [3, 6, 9, 15])
    skills: Checks = Checks()
    main_hand: WeaponRef = None
    off_hand: WeaponRef = None
    armour: list[ArmourRef] = Field(default_factory=list)
    talents: list[TalentRef] = Field(default_factory=list)
    tactic: TacticRef = "single"
    reaction: Reaction = "best"
    fear: int = Field(0, ge=0, le=5, description="fear rating this fighter inflicts (B-7.10), 0 none")
    fatigue: int = Field(0, ge=0, le=60, description="fatigue levels at the start of the fight (B-7.8), at most "
                                                     "3 × endurance")
    movement: int = Field(5, ge=0, le=30, description="metres per move action [Движение] (B-8); a run covers "
                                                      "four times it")
    targeting: Targeting = Field("spread", description="whom it attacks in a group fight (docs/groups.md)")
    size: Size = Field("medium", description="target size (B-8): attacks on it get −8 (tiny) … +8 (gigantic)")

    @model_validator(mode="after")
    def _fatigue_alive(self) -> "FighterSpec":
        _check_fatigue(self.fatigue, self.attributes.endurance)
        return self

    @field_validator("damage_levels")
    @classmethod
    def _levels(cls, v: list[int]) -> list[int]:
        if len(v) != 4:
            raise ValueError("needs exactly 4 levels [light damage, light, heavy, critical], e.g. [3, 6, 9, 15]")
        if any(x < 0 for x in v) or any(b <= a for a, b in zip(v, v[1:])):
            raise ValueError(f"levels must be non-negative and strictly increasing, got {v}")
        if v[-1] > 1000:
            raise ValueError(f"levels must be at most 1000, got {v}")
        return v


def split_tactic(text: str) -> tuple[str, str]:
    """``"aimed:head"`` → ``("aimed", "head")``; ``"single"`` → ``("single", "")``."""
    name, _, arg = text.partition(":")
    return name.strip(), arg.strip()


def aim_zone(tactic: Tactic, arg: str) -> int:
    """The zone code an aiming tactic's ``:<zone>`` argument names (−1 for other tactics)."""
    if tactic.aims:
        if arg not in ZONES:
            what = f"unknown zone {arg!r}" if arg else "no zone"
            raise ValueError(f"{what} for the aiming tactic {tactic.name!r}; "
                             f"write '{tactic.name}:<zone>' with a zone of: {', '.join(ZONES)}")
        return ZONES.index(arg)
    if arg:
        raise ValueError(f"tactic {tactic.name!r} takes no ':argument'")
    return -1


class Fighter(StrictModel):
    """A fighter with every reference resolved to a full object."""

    ruleset: ClassVar[str] = "brutal"
    name: str
    description: str = ""
    checks: Checks
    attributes: Attributes
    damage_levels: list[int]
    skills: Checks = Checks()
    main_hand: Weapon | None
    off_hand: Weapon | None
    armour: list[Armour]
    talents: list[Talent]
    tactic: Tactic
    aim_zone: int = -1
    reaction: Reaction
    fear: int = 0
    fatigue: int = 0
    movement: int = 5
    targeting: Targeting = "spread"
    size: Size = "medium"

    @model_validator(mode="after")
    def _hands(self) -> "Fighter":
        if self.off_hand is not None and self.off_hand.is_ranged:
            raise ValueError(f"off_hand {self.off_hand.name!r} is a ranged weapon; a shooter holds it in main_hand")
        _check_fatigue(self.fatigue, self.attributes.endurance)
        if self.main_hand is not None and self.main_hand.two_handed and self.off_hand is not None:
            raise ValueError(f"main_hand {self.main_hand.name!r} is two-handed, so off_hand must be empty")
        if self.off_hand is not None and self.off_hand.two_handed:
            raise ValueError(f"off_hand {self.off_hand.name!r} is two-handed; put it in main_hand")
        return self

    # -- variants for notebooks: each returns a new, validated fighter (see brutal_sim.core.variants) --
    def vary(self, **changes: Any) -> "Fighter":
        """Change fields by path, written with ``__`` for dots: ``f.vary(main_hand__damage="d10")``."""
        return with_changes(self, {k.replace("__", "."): v for k, v in changes.items()})

    def with_weapon(self, hand: str = "main_hand", weapon: Any = None, **fields: Any) -> "Fighter":
        """Another weapon in ``hand`` (a catalog name or inline table), and/or changed fields of it:
        ``f.with_weapon(damage="d10")``, ``f.with_weapon("off_hand", "buckler")``."""
        changes: dict[str, Any] = {} if weapon is None else {hand: weapon}
        if fields:
            if weapon is not None and isinstance(weapon, str):
                changes[hand] = get_ruleset(self.ruleset).catalog().weapon(weapon, "with_weapon", hand).model_dump()
            changes.update({f"{hand}.{k}": v for k, v in fields.items()})
        return with_changes(self, changes, where="with_weapon")

    def with_talent(self, *talents: Any) -> "Fighter":
        """The fighter with more talents (catalog names or inline tables)."""
        current = get_ruleset(self.ruleset).fighter_data(self)["talents"]
        have = {t["name"] for t in current}
        for t in talents:
            name = t if isinstance(t, str) else (getattr(t, "name", None)
                                                 or (t.get("name") if isinstance(t, dict) else None))
            if name in have:
                raise DataError("with_talent", name, f"{self.name} already has this talent (talents do not stack)")
        return with_changes(self, {"talents": current + list(talents)}, where="with_talent")

    def without_talent(self, name: str) -> "Fighter":
        current = get_ruleset(self.ruleset).fighter_data(self)["talents"]
        if not any(t["name"] == name for t in current):
            raise DataError("without_talent", name, f"{self.name} has no such talent; it has: "
                            f"{', '.join(t['name'] for t in current) or 'none'}")
        return with_changes(self, {"talents": [t for t in current if t["name"] != name]}, where="without_talent")

    def with_checks(self, **checks: int) -> "Fighter":
        """``f.with_checks(melee=5)``."""
        return with_changes(self, {f"checks.{k}": v for k, v in checks.items()}, where="with_checks")

    def with_attributes(self, **attributes: int) -> "Fighter":
        return with_changes(self, {f"attributes.{k}": v for k, v in attributes.items()}, where="with_attributes")

    def with_tactic(self, tactic: Any, reaction: str | None = None) -> "Fighter":
        return get_ruleset(self.ruleset).catalog().with_behaviour(self, tactic, reaction, "with_tactic")

    def named(self, name: str) -> "Fighter":
        return self.model_copy(update={"name": name})

    @property
    def tactic_text(self) -> str:
        """The tactic as written in a fighter file (``aimed:head``)."""
        return self.tactic.name + (f":{ZONES[self.aim_zone]}" if self.aim_zone >= 0 else "")

    def talent_total(self, key: str) -> int:
        return sum(getattr(t.modifiers, key) for t in self.talents)

    def has_flag(self, key: str) -> bool:
        return any(getattr(t.flags, key) for t in self.talents)
