"""The bundled WFRP 2e catalog (``brutal_sim/data/wfrp2e``) and fighter files.

Every failure is a :class:`~brutal_sim.errors.DataError` naming the file, the field and what is
allowed; unknown names come with close suggestions.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Mapping, TypeVar

from pydantic import BaseModel, ValidationError

from ...catalog import read_toml, suggest, validate
from ...errors import DataError
from .model import Armour, Fighter, FighterSpec, Talent, Weapon

M = TypeVar("M", bound=BaseModel)

DATA_ROOT = resources.files("brutal_sim") / "data" / "wfrp2e"


class WfrpCatalog:
    """Named weapons, armour, talents and fighter files."""

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
            source = f"catalog/wfrp2e/{fname}"
            out: dict[str, M] = {}
            for key, data in read_toml(root / fname, source).items():
                if not isinstance(data, dict):
                    raise DataError(source, key, "expected a table")
                out[key] = validate(model, {"name": key, **data}, source, key)
            return out

        fighters = {p.name.removesuffix(".toml"): p for p in (root / "fighters").iterdir() if p.name.endswith(".toml")}
        return cls(table("weapons.toml", Weapon), table("armour.toml", Armour), table("talents.toml", Talent),
                   fighters)

    def _lookup(self, kind: str, table: Mapping[str, M], ref: Any, source: str, field: str) -> M:
        if isinstance(ref, str):
            if ref not in table:
                raise DataError(source, field, f"unknown {kind} {ref!r}; {suggest(ref, list(table))}")
            return table[ref]
        return ref if ref.name else ref.model_copy(update={"name": f"custom {kind}"})

    def fighter_from_data(self, data: dict[str, Any], source: str, default_name: str) -> Fighter:
        spec = validate(FighterSpec, data, source)
        main = None if spec.main_hand is None else self._lookup("weapon", self.weapons, spec.main_hand, source, "main_hand")
        off = None if spec.off_hand is None else self._lookup("weapon", self.weapons, spec.off_hand, source, "off_hand")
        armour = [self._lookup("armour", self.armour, a, source, f"armour[{i}]") for i, a in enumerate(spec.armour)]
        talents = [self._lookup("talent", self.talents, t, source, f"talents[{i}]") for i, t in enumerate(spec.talents)]
        payload = spec.model_dump(exclude={"main_hand", "off_hand", "armour", "ruleset"})
        payload.update(name=spec.name or default_name, main_hand=main, off_hand=off, armour=armour,
                       talent_items=talents)
        try:
            return Fighter.model_validate(payload)
        except ValidationError as exc:
            raise DataError(source, None, str(exc.errors()[0]["msg"]).removeprefix("Value error, ")) from None

    def fighter(self, ref: str, role: str = "fighter") -> Fighter:
        """A fighter by catalog name or TOML file path; ``role`` names it in errors."""
        path = Path(ref)
        if ref.endswith(".toml") or "/" in ref:
            if not path.is_file():
                raise DataError(ref, None, "fighter file not found")
            return self.fighter_from_data(read_toml(path), ref, path.stem)
        if ref not in self.fighter_files:
            raise DataError(role, None, f"unknown fighter {ref!r}; {suggest(ref, list(self.fighter_files))}")
        source = f"catalog/wfrp2e/fighters/{ref}.toml"
        return self.fighter_from_data(read_toml(self.fighter_files[ref], source), source, ref)


@lru_cache(maxsize=1)
def _bundled() -> WfrpCatalog:
    return WfrpCatalog.from_dir(DATA_ROOT)
