"""Typed, validated toy data: weapons and fighters (rule ids T-… of :mod:`toy_ruleset`).

Every model forbids unknown fields (:class:`~brutal_sim.core.data.StrictModel`). A fighter file
names its weapon from the catalog (``weapon = "sword"``) or gives it inline
(``weapon = { damage_bonus = 2 }``); :mod:`.catalog` resolves the name.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from brutal_sim.core.data import StrictModel

#: the toy's one way to attack and to defend (T-4: every fighter attacks once a round)
TACTICS: tuple[str, ...] = ("strike",)
REACTIONS: tuple[str, ...] = ("none",)
#: T-5: how a fighter in a fight of more than two chooses its foe (the shared policies, core.battle)
Targeting = Literal["spread", "weakest", "nearest"]


class Weapon(StrictModel):
    """A weapon: a hit deals d6 + ``damage_bonus`` damage, never below 0 (T-2)."""

    name: str = ""
    damage_bonus: int = Field(0, ge=-5, le=6, description="added to the d6 of a hit (T-2)")
    range: int = Field(0, ge=0, le=100, description="steps a shot reaches (T-6); 0: a melee weapon")


class FighterSpec(StrictModel):
    """A fighter file as written: the weapon by catalog name or as an inline table."""

    ruleset: Literal["toy"] = "toy"
    name: str = ""
    skill: int = Field(0, ge=-5, le=10, description="added to the 2d6 of attack and defence (T-1)")
    hit_points: int = Field(10, ge=1, le=60, description="out of the fight at 0 or below (T-3)")
    speed: int = Field(5, ge=1, le=50, description="steps a move covers (T-6)")
    targeting: Targeting = Field("spread", description="how it chooses its foe in a fight of more than two (T-5)")
    weapon: str | Weapon = "fists"


class Fighter(StrictModel):
    """A resolved fighter: what the compile step reads."""

    #: the ruleset every toy fighter belongs to (``resolve_ruleset`` reads it)
    ruleset: ClassVar[str] = "toy"

    name: str
    skill: int
    hit_points: int
    speed: int = 5
    targeting: Targeting = "spread"
    weapon: Weapon
