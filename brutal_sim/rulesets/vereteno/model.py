"""Typed, validated Vereteno data: weapons, armour, shields, tactics, traumas and fighters.

Every model forbids unknown fields. Catalog names inside a fighter file (``weapon = "sword"``)
are resolved by :mod:`.catalog`. Rule ids refer to ``docs/rules/vereteno.md``.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, field_validator, model_validator

from ...core.battle import TARGETING, TARGETING_MORE
from ...core.data import StrictModel

#: V-5.7 weapon properties. ``light``/``heavy`` restrict attack kinds, ``long`` reaches close range
#: (V-3.15, at a distance); the others have no rule text; ``energy`` (fuel cell, V-3.2) is not modelled.
PROPERTIES: tuple[str, ...] = ("light", "heavy", "long", "small", "armour_piercing", "broad_blade", "flexible",
                               "incendiary")
NOT_MODELLED_PROPERTIES = {"energy": "the fuel-cell swap after 3 quick attacks (V-3.2) is not modelled"}
REACTIONS: tuple[str, ...] = ("best", "defend", "dodge", "none")
ATTACK_SPENDING: tuple[str, ...] = ("trauma_first", "damage_only", "disarm_first", "intimidate", "suppress_covered")
DEFENCE_SPENDING: tuple[str, ...] = ("block_first", "counter_first")
#: V-8.4 skill keys of trauma penalties; only ``melee``, ``agil`` and ``infl`` (the battle cry) act in a duel (V-6.4)
PENALTY_SKILLS: tuple[str, ...] = ("melee", "agil", "shoot", "stealth", "str", "perc", "infl", "prof")

#: V-11.21, V-16.2 gun properties: ``automatic`` (long bursts, V-11.12) and ``single_shot`` (a reload after
#: every shot, V-11.14 a) have rules, ``armour_piercing`` uses ``armour_piercing_dice`` (V-5.7); the others
#: have no rule text anywhere (no effect)
GUN_PROPERTIES: tuple[str, ...] = ("automatic", "single_shot", "armour_piercing", "light", "small", "reliable",
                                   "silent", "scope", "red_dot_sight", "bayonet", "bulky", "heavy", "spread",
                                   "long_reload", "high_capacity", "non_lethal", "special_ammo", "anti_vehicle",
                                   "stationary", "incendiary")
#: V-11.21: the gun properties without rule text that a designer may price by a dice dial (option
#: ``<property>_dice``: dice added to every shot of a gun with the property)
DIAL_PROPERTIES: tuple[str, ...] = ("reliable", "silent", "scope", "red_dot_sight", "bayonet", "bulky", "spread",
                                    "non_lethal", "special_ammo", "anti_vehicle", "stationary", "incendiary", "light",
                                    "heavy", "small")
#: V-10.1 range bands, the nearest first
BANDS: tuple[str, ...] = ("point_blank", "close", "medium", "long", "extreme")
#: V-11.20: the items a fighter may carry to throw (``thrown``), at most this many
MAX_THROWN = 6
#: V-11.20: a thrown item without melee stats (a gun, a rock) uses this name in ``thrown``
IMPROVISED = "improvised"
#: V-13.4 the orders a commander gives (the skill they name): ``auto`` is V-15.10's choice ("Fire!" when most
#: subordinates hold guns, else "In melee!"); ``shooting`` "Fire!", ``melee`` "In melee!", ``defend`` "Defend!"
#: (melee when defending), ``nimbleness`` "Get down!" (Проворство when dodging)
ORDERS: tuple[str, ...] = ("auto", "shooting", "melee", "defend", "nimbleness")
#: V-13.2 ``threat_resistances = v1_7``: a target's standing against fear (V-1.7): dice the threat gains
#: against it, None immune
FEAR: dict[str, int | None] = {"normal": 0, "susceptible": 3, "vulnerable": 6, "immune": None}

Reaction = Literal["best", "defend", "dodge", "none"]
AttackSpending = Literal["trauma_first", "damage_only", "disarm_first", "intimidate", "suppress_covered",
                         "grapple_first"]
DefenceSpending = Literal["block_first", "counter_first"]
Targeting = Literal[TARGETING + TARGETING_MORE]  # type: ignore[valid-type]  # fights of several a side (V-14)


class Weapon(StrictModel):
    """A melee weapon (V-8.2): pool modifier, initiative, damage, critical value, properties."""

    name: str = ""
    name_ru: str = ""
    description: str = ""
    modifier: int = Field(0, ge=-5, le=5, description="dice added to attack and defence pools [Мод.]")
    initiative: int = Field(0, ge=-10, le=10, description="initiative term [Иниц.]")
    damage: int = Field(1, ge=1, le=20, description="base damage [Урон]")
    crit: int = Field(0, ge=0, le=10, description="successes per trauma/disarm [Крит.]; 0 stands for '—' (none)")
    two_handed: bool = False
    properties: list[str] = []

    @field_validator("properties")
    @classmethod
    def _known(cls, v: list[str]) -> list[str]:
        for p in v:
            if p in NOT_MODELLED_PROPERTIES:
                raise ValueError(f"property {p!r} is not modelled: {NOT_MODELLED_PROPERTIES[p]}")
            if p not in PROPERTIES:
                raise ValueError(f"unknown property {p!r}; allowed: {', '.join(PROPERTIES)}")
        if "light" in v and "heavy" in v:
            raise ValueError("a weapon cannot be both light and heavy")
        return v


class Gun(StrictModel):
    """A ranged weapon (V-16.2): pool modifier, initiative, damage, critical value, effective range
    band (V-11.10), magazine (informational: ammunition is not counted, V-11.14) and properties."""

    name: str = ""
    name_ru: str = ""
    description: str = ""
    modifier: int = Field(0, ge=-5, le=5, description="dice added to shooting pools [Мод.]")
    initiative: int = Field(0, ge=-10, le=10, description="initiative term while in hand [Иниц.]")
    damage: int = Field(1, ge=0, le=20, description="base damage [Урон]")
    crit: int = Field(0, ge=0, le=10, description="successes per trauma [Крит.]; 0 stands for '—' (none)")
    range: Literal["point_blank", "close", "medium", "long", "extreme"] = Field(
        "medium", description="effective range band: −3 dice per band beyond it (V-11.10)")
    magazine: int = Field(1, ge=1, le=1000, description="rounds (app ammoCapacity), counted only with the "
                                                        "option ammo = magazine (V-11.14)")
    properties: list[str] = []

    @field_validator("properties")
    @classmethod
    def _known(cls, v: list[str]) -> list[str]:
        for p in v:
            if p not in GUN_PROPERTIES:
                raise ValueError(f"unknown gun property {p!r}; allowed: {', '.join(GUN_PROPERTIES)}")
        return v


class Armour(StrictModel):
    """Body armour (V-8.3): protection class and quality make the armour pool (V-5.4)."""

    name: str = ""
    name_ru: str = ""
    description: str = ""
    weight: Literal["light", "medium", "heavy"] = "light"
    protection: int = Field(0, ge=0, le=20, description="protection class [класс защиты]")
    quality: int = Field(0, ge=0, le=10, description="quality [качество]; the app's list gives none (0)")


class Shield(StrictModel):
    """A shield (V-8.3, V-4.7): its class joins the armour pool while held (option ``shield``)."""

    name: str = ""
    name_ru: str = ""
    description: str = ""
    protection: int = Field(0, ge=0, le=20)


class Tactic(StrictModel):
    """V-7.1 AP budget: the preferred attack kind and the AP kept for reactions.

    In its turn the fighter chooses each attack anew while one is left to choose: the preferred kind,
    else the cheaper kinds its weapon allows (power → standard → quick), then the costlier ones,
    the first whose cost leaves at least ``keep`` AP (3 AP, keep 0, standard: a standard attack, then
    a quick one).
    """

    name: str = ""
    rule: str = "V-7.1"
    description: str = ""
    attack: Literal["power", "standard", "quick", "none"] = "standard"
    keep: int = Field(1, ge=0, le=10)
    battle_cry: bool = Field(False, description="each turn, before its attacks, a battle cry (standard action, "
                                                 "2 AP) if that leaves `keep` AP: Эмпатия + Влияние, successes = "
                                                 "Will damage (seed 41–43, 62)")
    shot: Literal["none", "hip", "standard", "aimed", "burst", "throw"] = Field(
        "none", description="V-15.6: the shot repeated while its cost leaves `keep` AP (then the cheaper ones: "
                            "burst or aimed → standard → hip); throw: the next item of `thrown` (V-11.7, 2 AP), "
                            "then melee once they are spent; none: a melee tactic")
    move: Literal["hold", "advance", "close_in", "keep_distance"] = Field(
        "close_in", description="V-15.4: close_in moves to its melee reach (V-3.15) and attacks in melee; "
                                "advance makes one move while the target is beyond the gun's effective range; "
                                "keep_distance one move away while a foe without a gun in hand is within 2 × its "
                                "speed + its reach; hold stays")
    brace: bool = Field(False, description="V-15.5: in cover or prone and not yet braced, brace the gun (1 AP, +1 "
                                            "to shots, V-11.16) when the AP left still pay a shot")
    overwatch: bool = Field(False, description="V-15.7: not engaged, end the turn by setting every AP left aside "
                                                "for sector shots at the enemy's actions (V-11.13)")
    engaged: Literal["shoot", "draw", "step_back"] = Field(
        "shoot", description="V-15.2: engaged with the gun in hand, go on shooting (−3, no aimed shot), ready "
                             "the melee weapon (1 AP; without one the gun is dropped, free, for bare hands) and "
                             "fight by `attack` (each blow chosen as V-7.1 says), or step back (a move away, "
                             "drawing an opportunity attack, V-10.7) and go on")
    prone: bool = Field(False, description="V-10.8: not engaged and with the gun in hand, lie down (1 AP) before "
                                            "shooting when the AP left still pay a shot; stand up (1 AP) once "
                                            "engaged or before moving toward the foe")
    redraw: bool = Field(False, description="V-10.9: after `engaged = draw`, once no longer engaged, ready the gun "
                                             "again (1 AP; a dropped gun is picked up, option pickup) if that "
                                             "leaves `keep` AP, then shoot")


class Penalties(StrictModel):
    """Dice removed from checks of a skill for the rest of the fight (V-6.4); all keys of V-8.4."""

    melee: int = Field(0, ge=0, le=10)
    agil: int = Field(0, ge=0, le=10)
    shoot: int = Field(0, ge=0, le=10)
    stealth: int = Field(0, ge=0, le=10)
    str: int = Field(0, ge=0, le=10)
    perc: int = Field(0, ge=0, le=10)
    infl: int = Field(0, ge=0, le=10)
    prof: int = Field(0, ge=0, le=10)


class Trauma(StrictModel):
    """One row of the d66 trauma table (V-8.4) with its combat codes (V-6)."""

    name: str = ""
    name_ru: str = ""
    death: Literal["N", "Y", "Y-1"] = "N"
    deadline: str = "—"
    shock: int = Field(0, ge=0, le=10)
    drop: bool = False
    prone: bool = False
    penalties: Penalties = Penalties()
    dmgchk: bool = False
    halfspd: bool = False
    ko: bool = False
    para: bool = False
    bleed: int = Field(0, ge=0, le=10)
    dmg_turn: bool = False
    no2h: bool = False
    dead: bool = False
    heal: str = "—"
    note: str = ""

    @property
    def puts_out(self) -> bool:
        """KO, PARA or DEAD end a duel at once (V-6.1)."""
        return self.ko or self.para or self.dead

    @property
    def codes(self) -> str:
        parts = [f"SHOCK({self.shock})" if self.shock else "", "DROP" if self.drop else "",
                 "PRONE" if self.prone else "",
                 ", ".join(f"PEN({k}, −{v})" for k, v in self.penalties.model_dump().items() if v),
                 "DMGCHK" if self.dmgchk else "", "HALFSPD" if self.halfspd else "", "KO" if self.ko else "",
                 "PARA" if self.para else "", f"BLEED({self.bleed})" if self.bleed else "",
                 "DMG_TURN" if self.dmg_turn else "", "NO2H" if self.no2h else "", "DEAD" if self.dead else ""]
        return "; ".join(p for p in parts if p) or "—"


class Attributes(StrictModel):
    """Attributes [характеристики]: Телосложение, Ловкость, Интеллект, Эмпатия."""

    physique: int = Field(ge=1, le=10, description="Телосложение")
    agility: int = Field(ge=1, le=10, description="Ловкость")
    intellect: int = Field(ge=1, le=10, description="Интеллект")
    empathy: int = Field(ge=1, le=10, description="Эмпатия")


class Skills(StrictModel):
    """The skills a melee duel uses: Ближний бой (melee), Проворство (nimbleness) and Влияние
    (influence, the battle cry)."""

    melee: int = Field(0, ge=0, le=10, description="Ближний бой")
    nimbleness: int = Field(0, ge=0, le=10, description="Проворство")
    influence: int = Field(0, ge=0, le=10, description="Влияние")
    shooting: int = Field(0, ge=0, le=10, description="Стрельба (V-11.1)")
    strength: int = Field(0, ge=0, le=10, description="Сила (throwing, V-11.20)")
    stealth: int = Field(0, ge=0, le=10, description="Скрытность (the stealth approach, V-10.10)")
    perception: int = Field(0, ge=0, le=10, description="Наблюдательность (the check under poor visibility, V-11.18)")
    leadership: int = Field(0, ge=0, le=10, description="Лидерство (orders, V-13.4)")


class FighterSpec(StrictModel):
    """A fighter file as written: catalog items by name or inline tables."""

    ruleset: Literal["vereteno"] = "vereteno"
    name: str = ""
    description: str = ""
    attributes: Attributes
    skills: Skills = Skills()
    weapon: str | Weapon | None = None
    gun: str | Gun | None = Field(None, description="a ranged weapon (guns.toml), in hand at the start when the "
                                                    "tactic shoots; `weapon` is then its sidearm (V-10.9)")
    armour: str | Armour | None = None
    shield: str | Shield | None = None
    action_points: int = Field(3, ge=1, le=10, description="V-2.1: 3 for player characters")
    speed: int = Field(10, ge=1, le=100, description="V-10.4: metres a move (1 AP)")
    cover: int = Field(0, ge=0, le=20, description="V-10.6, V-11.17: strength of its cover (table 3, brick wall 7; "
                                                   "added to the armour roll against shots)")
    size_mod: int = Field(0, ge=-3, le=3, description="V-11.19: dice added to shots at it (vehicles > 0)")
    prone: bool = Field(False, description="V-10.6, V-10.8: starts lying prone by choice (shot at −1, may brace; "
                                           "melee at it: option prone_melee)")
    suppress_at: int = Field(6, ge=0, le=40, description="V-15.9 attack_spending = suppress_covered: a shot's "
                                                         "extras go to Will when the target rolls this many "
                                                         "armour + cover dice or more")
    fastest_hand: bool = Field(False, description="V-10.9: the talent «Самая быстрая рука в Славии»: no AP to "
                                                   "ready the weapon in hand at the start under start_ready = no")
    tactic: str | Tactic = "std_guard"
    reaction: Reaction = "best"
    attack_spending: AttackSpending = "trauma_first"
    defence_spending: DefenceSpending = "block_first"
    spread: Literal["none", "one_each"] = Field("none", description="V-15.9, V-11.12: a long burst's spread in a fight "
                                                "of several a side: none, or one success to each other enemy "
                                                "within 2 m of its target, the rest on the target")
    arrive_round: int = Field(1, ge=1, le=10000, description="V-14: in a fight of several a side, the round it "
                                                             "joins the fight (1: from the start)")
    targeting: Targeting = Field("nearest", description="whom it attacks in a fight of several a side (V-14.3: "
                                                          "the nearest in line by default; docs/groups.md)")
    commander: str = Field("", description="V-13.4: the name of its commander, a fighter of its own side in a fight "
                                            "of several: it hears that fighter's orders (empty: none)")
    order_first: bool = Field(False, description="V-15.10: a commander: in its first turn and whenever its order "
                                                  "has lapsed, an order (2 AP, Эмпатия + Лидерство, V-13.4) if that "
                                                  "leaves `keep` AP, then its tactic with the AP left")
    order: Literal["auto", "shooting", "melee", "defend", "nimbleness"] = Field(
        "auto", description="V-13.4: the order it gives: auto (V-15.10: \"Fire!\" when most subordinates hold "
                            "guns, else \"In melee!\"), shooting, melee (attacks and, melee_order = all, "
                            "defences), defend (melee defences), nimbleness (dodges)")
    threat_targets: int = Field(1, ge=1, le=6, description="V-13.2: enemies its battle cry threatens in a fight "
                                                           "of several (its foe, then the nearest; −2 dice per "
                                                           "extra target)")
    taunt: bool = Field(False, description="V-15.10, V-13.3: its battle cry is a taunt: opposed Influence checks "
                                            "with its foe, the loser takes Will damage = the difference")
    inspire: bool = Field(False, description="V-13.7 under inspire = on: in a fight of several, an ally who lost "
                                              "Will (3 AP, Эмпатия + Лидерство; each success 1 Will, at most its "
                                              "Лидерство; once a fight per ally)")
    fear: Literal["normal", "susceptible", "vulnerable", "immune"] = Field(
        "normal", description="V-1.7 under threat_resistances = v1_7: a threat at it rolls +3 (susceptible), +6 "
                              "(vulnerable) or has no effect (immune)")
    thrown: list[str | Weapon] = Field(
        [], max_length=MAX_THROWN, description="V-11.20: items carried to throw, in throwing order (a tactic with "
        "shot = throw): weapons.toml names (their own stats), guns.toml names or 'improvised' (V-5.6 bare-hands "
        "stats), or inline weapon tables; spent when thrown, besides `weapon`")


class Fighter(StrictModel):
    """A fighter with every reference resolved."""

    ruleset: ClassVar[str] = "vereteno"
    name: str
    description: str = ""
    attributes: Attributes
    skills: Skills
    weapon: Weapon | None
    gun: Gun | None = None
    armour: Armour | None
    shield: Shield | None
    action_points: int = 3
    speed: int = 10
    cover: int = 0
    size_mod: int = 0
    prone: bool = False
    suppress_at: int = 6
    fastest_hand: bool = False
    tactic: Tactic
    reaction: Reaction
    attack_spending: AttackSpending
    defence_spending: DefenceSpending
    spread: Literal["none", "one_each"] = "none"
    arrive_round: int = 1
    targeting: Targeting = "nearest"
    commander: str = ""
    order_first: bool = False
    order: Literal["auto", "shooting", "melee", "defend", "nimbleness"] = "auto"
    threat_targets: int = 1
    taunt: bool = False
    inspire: bool = False
    fear: Literal["normal", "susceptible", "vulnerable", "immune"] = "normal"
    thrown: list[Weapon] = []

    @model_validator(mode="after")
    def _hands(self) -> "Fighter":
        if self.weapon is not None and self.weapon.two_handed and self.shield is not None:
            raise ValueError(f"weapon {self.weapon.name!r} is two-handed, so shield must be empty")
        if self.tactic.shot == "throw" and not self.thrown:
            raise ValueError(f"tactic {self.tactic.name!r} throws (V-11.7): the fighter needs items in thrown")
        if self.tactic.shot != "throw" and (self.tactic.shot != "none" or self.tactic.overwatch) and self.gun is None:
            what = self.tactic.shot if self.tactic.shot != "none" else "sector control"
            raise ValueError(f"tactic {self.tactic.name!r} shoots ({what}): the fighter needs a gun")
        if self.tactic.shot == "burst" and self.gun is not None and "automatic" not in self.gun.properties:
            raise ValueError(f"tactic {self.tactic.name!r} fires long bursts, which need an automatic gun (V-11.5); "
                             f"{self.gun.name!r} is not")
        return self

    @property
    def health(self) -> int:
        """V-5.1: Health = Телосложение + Ловкость."""
        return self.attributes.physique + self.attributes.agility

    @property
    def will(self) -> int:
        """V-5.1: Will = Интеллект + Эмпатия."""
        return self.attributes.intellect + self.attributes.empathy
