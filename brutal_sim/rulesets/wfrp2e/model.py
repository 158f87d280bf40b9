"""Typed, validated WFRP 2e data: weapons (W-9.1), armour (W-9.2), talents (W-9.3) and fighters.

Every model forbids unknown fields. Catalog names inside a fighter file (``main_hand = "hand_weapon"``)
are resolved by :mod:`brutal_sim.rulesets.wfrp2e.catalog`.
"""

from __future__ import annotations

import re
from typing import ClassVar, Literal, Union

from pydantic import Field, field_validator, model_validator

from ...core.battle import TARGETING, TARGETING_MORE
from ...core.data import StrictModel
from .layout import MELEE_TACTIC_NAMES, REACTION_NAMES, SHOOTING_TACTIC_NAMES, TACTIC_NAMES

Quality = Literal["impact", "fast", "slow", "precise", "defensive", "armour_piercing", "balanced", "tiring",
                  "pummelling", "special", "unreliable", "experimental", "shrapnel", "snare"]
#: the missile weapon groups (W-9.4); throwing weapons add SB to their damage, the others deal flat damage
MISSILE_GROUPS = ("bow", "crossbow", "sling", "blackpowder", "engineering", "throwing", "entangling")
WeaponGroup = Literal["basic", "fencing", "flail", "parry", "two_handed", "cavalry", "bow", "crossbow", "sling",
                      "blackpowder", "engineering", "throwing", "entangling"]
_RELOAD = re.compile(r"^(0|([1-9]) (half|full))$")


def reload_halves(reload: str) -> tuple[int, bool]:
    """W-7.10: a reload ``"0"``, ``"N half"`` or ``"N full"`` as (half actions, whether full actions)."""
    m = _RELOAD.match(reload)
    if m is None:
        raise ValueError(f"reload {reload!r} is not a count of actions: '0', 'N half' or 'N full' (N 1 … 9)")
    if m.group(1) == "0":
        return 0, False
    n, kind = int(m.group(2)), m.group(3)
    return (n if kind == "half" else 2 * n), kind == "full"
#: the Specialist Weapon Groups whose texts the digest gives (W-7.14, option specialist)
SPECIALIST_GROUPS = ("longbow", "gunpowder")
SpecialistGroup = Literal[("",) + SPECIALIST_GROUPS]  # type: ignore[valid-type]


class UnskilledUse(StrictModel):
    """W-7.14 ``specialist = pack_text``: what changes in a weapon used without its Specialist Weapon
    Group talent (a field left out stays the weapon's)."""

    damage: int | None = Field(None, ge=-6, le=6)
    short: int | None = Field(None, ge=1, le=500)
    long: int | None = Field(None, ge=0, le=1000)
    reload: str | None = Field(None, description="'0', 'N half' or 'N full'")
    qualities: list[Quality] | None = None

    @field_validator("reload")
    @classmethod
    def _reload(cls, v: str | None) -> str | None:
        if v is not None:
            reload_halves(v)
        return v


#: the W-8 policies and the reactions, one list with the kernel codes (``layout.py``)
Tactic = Literal[TACTIC_NAMES]  # type: ignore[valid-type]
MeleeTactic = Literal[MELEE_TACTIC_NAMES]  # type: ignore[valid-type]
Reaction = Literal[REACTION_NAMES]  # type: ignore[valid-type]
Targeting = Literal[TARGETING + TARGETING_MORE]  # type: ignore[valid-type]  # fights of several a side (W-8.15, docs/groups.md)


class Weapon(StrictModel):
    """A melee weapon, shield or parrying item (W-9.1; damage SB + ``damage``, W-4.7), or a missile
    weapon (W-9.4: a missile group, ranges, reload; damage flat, or SB + ``damage`` thrown)."""

    name: str = ""
    description: str = ""
    group: WeaponGroup = "basic"
    damage: int = Field(0, ge=-6, le=6, description="added to the wielder's SB (W-4.7; thrown weapons too); "
                                                     "other missile weapons: their flat damage (W-7.1)")
    qualities: list[Quality] = Field(default_factory=list)
    two_handed: bool = False
    off_hand: bool = Field(False, description="W-4.10: may be carried in the off hand")
    main_with_off_hand: bool = Field(False, description="W-4.10: may be wielded in the main hand next to an "
                                                        "off-hand item")
    choppa: bool = Field(False, description="W-9.3: an orc choppa, whose bonus the choppa option sets")
    short: int = Field(0, ge=0, le=500, description="W-7.4: short range in yards (missile weapons)")
    long: int = Field(0, ge=0, le=1000, description="W-7.4: long range in yards; 0: none (option no_long)")
    reload: str = Field("1 half", description="W-7.10: '0', 'N half' or 'N full' actions after each shot")
    engaged_fire: bool = Field(False, description="W-7.6: fires while engaged in melee (pistol, crossbow pistol)")
    shield: bool = Field(False, description="W-7.9: a shield; shots at a fighter holding it −10 (unless surprised)")
    spear: bool = Field(False, description="W-7.12: a spear; carried as missile it is thrown (short 8, no long) "
                                           "when spear_thrown = on, refused when off")
    specialist: SpecialistGroup = Field("", description="W-7.14: the Specialist Weapon Group talent it needs "
                                                        "(option specialist)")
    unskilled: UnskilledUse | None = Field(None, description="W-7.14: its numbers without that talent when "
                                                             "specialist = pack_text")

    @field_validator("reload")
    @classmethod
    def _reload(cls, v: str) -> str:
        reload_halves(v)
        return v

    @model_validator(mode="after")
    def _range(self) -> "Weapon":
        """W-9.4: a missile weapon has a short range; a melee weapon none."""
        if self.missile and self.short == 0:
            raise ValueError(f"a missile weapon (group {self.group!r}) needs short = its short range in yards (W-7.4)")
        if not self.missile and (self.short or self.long):
            raise ValueError(f"short/long: a {self.group!r} weapon is a melee weapon; ranges need a missile group: "
                             f"{', '.join(MISSILE_GROUPS)}")
        if self.long and self.long < self.short:
            raise ValueError(f"long range {self.long} is shorter than short range {self.short}")
        if (self.unskilled is None) != (self.specialist == ""):
            raise ValueError("specialist and unskilled: a weapon that needs a Specialist Weapon Group talent "
                             "(W-7.14) names the group and its unskilled numbers, both or neither")
        return self

    @property
    def missile(self) -> bool:
        return self.group in MISSILE_GROUPS

    @property
    def thrown(self) -> bool:
        return self.group == "throwing"

    @property
    def supplied(self) -> bool:
        """W-7.12: each throw spends an item of the fighter's supply ``thrown``: a throwing weapon, a
        spear, a Snare weapon (W-7.13)."""
        return self.thrown or self.spear or self.has("snare")

    def has(self, quality: str) -> bool:
        return quality in self.qualities


class Armour(StrictModel):
    """An armour piece: armour points by location (W-9.2); pieces worn together add up."""

    name: str = ""
    description: str = ""
    head: int = Field(0, ge=0, le=10)
    arms: int = Field(0, ge=0, le=10)
    body: int = Field(0, ge=0, le=10)
    legs: int = Field(0, ge=0, le=10)
    ag_penalty: int = Field(0, ge=0, le=30, description="taken off Ag tests (dodge, initiative)")


#: talents whose rule the digest gives (W-7.3, W-7.8, W-7.10, W-7.12 – W-7.14, W-12.1): always in effect
TALENT_EFFECTS = ("sure_shot", "sharpshooter", "mighty_shot", "rapid_reload", "master_gunner", "quick_draw",
                  "ambidextrous", "wrestling")
TalentEffect = Literal[("",) + TALENT_EFFECTS]  # type: ignore[valid-type]


class Talent(StrictModel):
    """A talent: its rule id and either the rule option that switches its effect on (a GAP, W-9.3) or
    the rule it always plays (``effect``); neither: no effect in a duel."""

    name: str = ""
    description: str = ""
    rule: str = "W-9.3"
    option: Literal["", "strike_mighty_blow", "street_fighting", "specialist"] = ""
    specialist: SpecialistGroup = Field("", description="W-7.14: the Specialist Weapon Group the talent gives "
                                                        "(option specialist)")
    effect: TalentEffect = Field("", description="the rule the talent plays (W-7, W-12): " + ", ".join(TALENT_EFFECTS))


WeaponRef = Union[str, Weapon, None]
ArmourRef = Union[str, Armour]


class _Profile(StrictModel):
    """The fields a fighter file and a resolved fighter share."""

    name: str = ""
    description: str = ""
    ws: int = Field(ge=0, le=100, description="Weapon Skill")
    bs: int = Field(0, ge=0, le=100, description="Ballistic Skill (not used in melee)")
    s: int = Field(ge=0, le=100, description="Strength")
    t: int = Field(ge=0, le=100, description="Toughness")
    ag: int = Field(ge=0, le=100, description="Agility")
    a: int = Field(1, ge=1, le=10, description="Attacks")
    w: int = Field(ge=1, le=100, description="Wounds")
    sb: int | None = Field(None, ge=0, le=10, description="Strength Bonus; default the tens digit of S (W-1.3)")
    tb: int | None = Field(None, ge=0, le=10, description="Toughness Bonus; default the tens digit of T (W-1.3)")
    dodge: int | None = Field(None, ge=0, le=150, description="Dodge Blow target; absent: no Dodge Blow (W-4.4)")
    fate: int = Field(0, ge=0, le=10, description="Fate points (W-5.6)")
    fortune: int | None = Field(None, ge=0, le=10, description="Fortune points; default = fate (W-6.5)")
    talents: list[str] = Field(default_factory=list)
    tactic: Tactic = "guarded"
    melee_tactic: MeleeTactic = Field("guarded", description="W-8.10: the tactic once engaged with the melee "
                                                             "weapon in hand (shooters and rush)")
    reaction: Reaction = "dodge_first"
    m: int = Field(4, ge=1, le=10, description="Movement (W-11.1): a Move covers 2·M yards, a charge up to 4·M, "
                                                "a run 6·M; default 4 (human)")
    thrown: int | None = Field(None, ge=1, le=100, description="W-7.12: how many of its thrown missile weapon the "
                                                               "fighter carries (each throw spends one); absent: "
                                                               "unlimited")
    flee_at: int | None = Field(None, ge=0, le=100, description="flees (W-3.16) at the start of its turn when "
                                                               "its Wounds are at most this")
    arrive_round: int = Field(1, ge=1, le=10000, description="W-13.2: in a fight of several a side, the round "
                                                             "it joins the fight (1: from the start)")
    targeting: Targeting = Field("spread", description="whom it attacks in a fight of several a side (W-8.15, "
                                                         "docs/groups.md)")
    push: bool = Field(False, description="W-11.7: a kite or marksman fighter engaged with its missile weapon in "
                                          "hand manoeuvres (pushes its foe 2 yards, the round's attack) and Moves "
                                          "away instead of drawing its melee weapon")


class FighterSpec(_Profile):
    """A fighter file as written: weapons and armour by catalog name or inline table."""

    ruleset: Literal["wfrp2e"] | None = None
    main_hand: WeaponRef = None
    off_hand: WeaponRef = None
    missile: WeaponRef = None
    off_hand_missile: WeaponRef = None
    armour: list[ArmourRef] = Field(default_factory=list)


class Fighter(_Profile):
    """A resolved fighter (catalog items looked up). ``None`` hands fight unarmed (W-4.9)."""

    ruleset: ClassVar[str] = "wfrp2e"
    main_hand: Weapon | None = None
    off_hand: Weapon | None = None
    missile: Weapon | None = Field(None, description="W-7: the missile weapon, in hand at the start (melee items "
                                                     "stowed until drawn)")
    off_hand_missile: Weapon | None = Field(None, description="W-7.8: a second one-handed missile weapon, in the "
                                                              "off hand next to a one-handed missile; its shots −20 "
                                                              "unless Ambidextrous")
    armour: list[Armour] = Field(default_factory=list)
    talent_items: list[Talent] = Field(default_factory=list)

    @model_validator(mode="after")
    def _two_weapons(self) -> "Fighter":
        """W-4.10: which items may be carried together."""
        main, off = self.main_hand, self.off_hand
        for field, item in (("main_hand", main), ("off_hand", off)):
            if item is not None and item.missile:
                raise ValueError(f"{field}: {item.name!r} is a missile weapon; carry it as missile (W-7)")
        if self.missile is not None and not self.missile.missile and not self.missile.spear:
            raise ValueError(f"missile: {self.missile.name!r} is a melee weapon (group {self.missile.group!r}); of "
                             "the melee weapons only a spear may be thrown (option spear_thrown)")
        if self.thrown is not None and (self.missile is None or not self.missile.supplied):
            raise ValueError("thrown: the supply of a thrown missile weapon (W-7.12) needs missile of group "
                             "'throwing', a spear or a snare; other missile weapons count the option ammo")
        if self.tactic in SHOOTING_TACTIC_NAMES and self.missile is None:
            raise ValueError(f"tactic {self.tactic!r} shoots: it needs a missile weapon (field missile)")
        if self.tactic == "grappler" and self.missile is not None:
            raise ValueError("tactic 'grappler' grapples (W-8.13, W-12): it carries no missile weapon (field missile)")
        second = self.off_hand_missile
        if second is not None:
            if not second.missile:
                raise ValueError(f"off_hand_missile: {second.name!r} is a melee weapon (group {second.group!r}); "
                                 "the off-hand item is off_hand")
            if self.missile is None:
                raise ValueError("off_hand_missile: a second missile weapon needs one in the main hand (field missile)")
            for field, item in (("missile", self.missile), ("off_hand_missile", second)):
                if item.two_handed:
                    raise ValueError(f"{field}: {item.name!r} is two-handed; two missile weapons must be one-handed "
                                     "(W-7.8)")
                if item.supplied:
                    raise ValueError(f"{field}: {item.name!r} is thrown; two missile weapons in hand are not thrown "
                                     "(the supply field thrown counts one)")
        if self.push and self.tactic not in ("kite", "marksman"):
            raise ValueError(f"push: the manoeuvre (W-11.7) is played by the tactics kite and marksman, not "
                             f"{self.tactic!r}")
        if off is None:
            return self
        if not off.off_hand:
            raise ValueError(f"off_hand: {off.name!r} cannot be carried in the off hand (W-4.10); off-hand items: "
                             "buckler, dagger, hand weapon, main gauche, shield, sword-breaker")
        if main is not None and main.two_handed:
            raise ValueError(f"main_hand: {main.name!r} is two-handed; it leaves no hand for {off.name!r}")
        if main is not None and not main.main_with_off_hand:
            raise ValueError(f"main_hand: {main.name!r} cannot be used with an off-hand item (W-4.10); allowed: "
                             "dagger, flail, foil, hand weapon, morning star, rapier")
        return self

    @property
    def strength_bonus(self) -> int:
        return self.sb if self.sb is not None else self.s // 10

    @property
    def toughness_bonus(self) -> int:
        return self.tb if self.tb is not None else self.t // 10

    @property
    def fortune_points(self) -> int:
        return self.fortune if self.fortune is not None else self.fate

    def armour_points(self) -> dict[str, int]:
        """Armour points by zone, the pieces added up (W-9.2)."""
        return {zone: sum(getattr(x, attr) for x in self.armour)
                for zone, attr in (("head", "head"), ("body", "body"), ("arm", "arms"), ("leg", "legs"))}

    @property
    def ag_penalty(self) -> int:
        """The largest Ag penalty of the worn pieces (W-9.2; penalties do not stack — a reading)."""
        return max((x.ag_penalty for x in self.armour), default=0)

    def talent_option(self, option: str) -> bool:
        return any(t.option == option for t in self.talent_items)

    def talent_effect(self, effect: str) -> bool:
        return any(t.effect == effect for t in self.talent_items)

    def specialist_in(self, group: str) -> bool:
        """W-7.14: whether a talent gives the Specialist Weapon Group ``group``."""
        return any(t.option == "specialist" and t.specialist == group for t in self.talent_items)
