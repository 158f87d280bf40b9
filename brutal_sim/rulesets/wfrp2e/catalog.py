"""The bundled WFRP 2e catalog (``brutal_sim/data/wfrp2e``) and fighter files.

Every failure is a :class:`~brutal_sim.core.errors.DataError` naming the file, the field and what is
allowed; unknown names come with close suggestions.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Any, TypeVar

from pydantic import BaseModel

from ...core.data import BaseCatalog, fighter_files_in, read_named_tables, validate, validated_fighter
from .model import Armour, Fighter, FighterSpec, Talent, Weapon

M = TypeVar("M", bound=BaseModel)

DATA_ROOT = resources.files("brutal_sim") / "data" / "wfrp2e"


class WfrpCatalog(BaseCatalog):
    """Named weapons, armour, talents and fighter files."""

    source_prefix = "catalog/wfrp2e"

    def __init__(self, weapons: dict[str, Weapon], armour: dict[str, Armour], talents: dict[str, Talent],
                 fighter_files: dict[str, Any]) -> None:
        self.weapons = weapons
        self.armour = armour
        self.talents = talents
        self.fighter_files = fighter_files

    @classmethod
    def bundled(cls) -> "WfrpCatalog":
        return _bundled()

    @classmethod
    def from_dir(cls, root: Any) -> "WfrpCatalog":
        def table(fname: str, model: type[M]) -> dict[str, M]:
            return read_named_tables(root, fname, model, f"{cls.source_prefix}/{fname}")

        return cls(table("weapons.toml", Weapon), table("armour.toml", Armour), table("talents.toml", Talent),
                   fighter_files_in(root))

    def fighter_from_data(self, data: dict[str, Any], source: str, default_name: str) -> Fighter:
        spec = validate(FighterSpec, data, source)

        def weapon(ref: Any, field: str) -> Weapon | None:
            return None if ref is None else self._lookup("weapon", self.weapons, ref, Weapon, source, field)

        armour = [self._lookup("armour", self.armour, a, Armour, source, f"armour[{i}]") for i, a in enumerate(spec.armour)]
        talents = [self._lookup("talent", self.talents, t, Talent, source, f"talents[{i}]")
                   for i, t in enumerate(spec.talents)]
        payload = spec.model_dump(exclude={"main_hand", "off_hand", "armour", "ruleset"})
        payload.update(name=spec.name or default_name, main_hand=weapon(spec.main_hand, "main_hand"),
                       off_hand=weapon(spec.off_hand, "off_hand"), armour=armour, talent_items=talents)
        return validated_fighter(Fighter, payload, source)


@lru_cache(maxsize=1)
def _bundled() -> WfrpCatalog:
    return WfrpCatalog.from_dir(DATA_ROOT)
