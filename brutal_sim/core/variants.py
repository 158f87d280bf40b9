"""Fighter variants without editing files: change one field by its path, or a weapon, talent, check.

Works for any ruleset's fighters (through :meth:`Ruleset.fighter_data` / ``fighter_from_data``).
Paths are written as in a fighter file, with catalog items expanded (Brutal examples): ``main_hand.damage``,
``main_hand.penetration``, ``off_hand.parry_bonus``, ``armour.0.protection``, ``checks.melee``,
``attributes.endurance``, ``damage_levels.3``, ``talents``, ``tactic``. ``<hand>.damage.bonus``
changes only the bonus of a weapon's dice (``d8+1`` → ``d8+3``).
"""

from __future__ import annotations

from typing import Any

from .dice import Dice, parse_dice
from .errors import DataError
from .ruleset import get_ruleset


def set_path(data: dict[str, Any], path: str, value: Any, where: str) -> None:
    """Set ``data[path]`` (dotted, list items by index); unknown paths name what exists there."""
    parts = path.split(".")
    if len(parts) >= 2 and parts[-2:] == ["damage", "bonus"]:
        weapon = data
        for part in parts[:-2]:
            weapon = weapon.get(part) if isinstance(weapon, dict) else None  # type: ignore[assignment]
            if weapon is None:
                raise DataError(where, "field", f"{path!r}: {part!r} is empty or not a weapon")
        if not isinstance(value, int) or isinstance(value, bool):
            raise DataError(where, "field", f"{path!r}: the damage bonus must be an integer, got {value!r}")
        dice = parse_dice(str(weapon["damage"]))
        weapon["damage"] = str(Dice(dice.count, dice.sides, value))
        return
    node: Any = data
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if isinstance(node, list):
            if not part.isdigit() or int(part) >= len(node):
                raise DataError(where, "field", f"{path!r}: {'.'.join(parts[:i]) or 'the list'} has "
                                f"{len(node)} item(s); use an index 0…{len(node) - 1}")
            key: Any = int(part)
        elif isinstance(node, dict):
            if part not in node:
                raise DataError(where, "field", f"{path!r}: no field {part!r}; allowed here: {', '.join(node)}")
            key = part
        else:
            raise DataError(where, "field", f"{path!r}: {'.'.join(parts[:i])} is a value, not a table")
        if last:
            node[key] = value
        else:
            if node[key] is None:
                raise DataError(where, "field", f"{path!r}: {'.'.join(parts[:i + 1])} is empty")
            node = node[key]


def vary(f: Any, path: str, value: Any, where: str = "variant") -> Any:
    """A copy of fighter ``f`` (any ruleset) with the field at ``path`` set to ``value``, validated
    like a fighter file."""
    return with_changes(f, {path: value}, where)


def with_changes(f: Any, changes: dict[str, Any], where: str = "variant") -> Any:
    """Several :func:`vary` steps at once: ``{"main_hand.damage": "d10", "checks.melee": 5}``."""
    ruleset = get_ruleset(f.ruleset, where)
    data = ruleset.fighter_data(f)
    for path, value in changes.items():
        set_path(data, path, value, where)
    shown = ", ".join(f"{k}={v!r}" for k, v in changes.items())
    return ruleset.fighter_from_data(data, f"{where} {shown}", f.name)
