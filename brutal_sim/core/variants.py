"""Fighter variants without editing files: change one field by its path, or a weapon, talent, check.

Works for any ruleset's fighters (through :meth:`Ruleset.fighter_data` / ``fighter_from_data``).
Paths are written as in a fighter file, with catalog items expanded (Brutal examples): ``main_hand.damage``,
``main_hand.penetration``, ``off_hand.parry_bonus``, ``armour.0.protection``, ``checks.melee``,
``attributes.endurance``, ``damage_levels.3``, ``talents``, ``tactic``. ``<hand>.damage.bonus``
changes only the bonus of a weapon's dice (``d8+1`` → ``d8+3``). A field that is an item slot of the
ruleset (:attr:`Ruleset.item_slots`: ``main_hand``, ``off_hand`` …) takes a catalog name, an inline
table or ``none`` (empty), and the ruleset's rules of the slot follow (a two-handed weapon in the
main hand empties the off hand); an item's ``name`` is not a value to set.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from .dice import Dice, parse_dice
from .errors import DataError
from .limits import MAX_NAME, check_value
from .ruleset import get_ruleset


def set_path(data: dict[str, Any], path: str, value: Any, where: str) -> None:
    """Set ``data[path]`` (dotted, list items by index); unknown paths name what exists there."""
    parts = path.split(".")
    if len(parts) >= 2 and parts[-2:] == ["damage", "bonus"]:
        _set_damage_bonus(data, parts[:-2], value, path, where)
        return
    if len(parts) >= 2 and parts[-1] == "name":
        _refuse_item_name(data, parts, path, where)
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


def _refuse_item_name(data: dict[str, Any], parts: list[str], path: str, where: str) -> None:
    """An item's ``name`` (``main_hand.name``) names the item, it is no value of it: a
    :class:`DataError` naming the fields settable there and how to swap the item."""
    item = get_path(data, ".".join(parts[:-1]))
    settable = [k for k in item if k not in ("name", "description")] if isinstance(item, dict) else []
    here = f"settable in {'.'.join(parts[:-1])}: {', '.join(settable)}; " if settable else ""
    raise DataError(where, "field", f"{path!r}: an item's name is not a value to set; {here}to swap the item set "
                    f"{parts[0]}=ITEM (a catalog name, or none to empty it)")


def check_change(path: Any, value: Any, where: str) -> None:
    """One change of a fighter from outside a file (``--set``, a sweep, the explorer, the API): its
    path a dotted text of at most :data:`~brutal_sim.core.limits.MAX_NAME` characters, its value
    within :func:`~brutal_sim.core.limits.check_value`'s bounds; else a :class:`DataError`."""
    if not isinstance(path, str) or not path.strip():
        raise DataError(where, "field", f"{_short(path)}: expected a dotted path such as main_hand.damage")
    if len(path) > MAX_NAME:
        raise DataError(where, "field", f"a path of {len(path):,} characters; allowed: at most {MAX_NAME}")
    check_value(value, where, path)


def _set_damage_bonus(data: dict[str, Any], at: list[str], value: Any, path: str, where: str) -> None:
    """``<hand>.damage.bonus``: the bonus of the dice of the weapon at ``at`` (``d8+1`` → ``d8+3``);
    anything but a weapon whose damage is dice there is a :class:`DataError` naming what is allowed."""
    weapon: Any = data
    for i, part in enumerate(at):
        node = weapon.get(part) if isinstance(weapon, dict) else None
        if not isinstance(node, dict):
            shown = ".".join(at[:i + 1]) or "the fighter"
            raise DataError(where, "field", f"{path!r}: {shown} is {'empty' if node is None else 'not a weapon'}; "
                            "damage.bonus is allowed on a weapon with dice damage, e.g. main_hand.damage.bonus")
        weapon = node
    damage = weapon.get("damage") if at else None
    try:
        dice = parse_dice(damage)
    except (ValueError, DataError):
        dice = None
    if dice is None or dice.count == 0:
        shown = ".".join(at) or "the fighter"
        has = f"damage {damage!r} is no dice; set {shown}.damage itself" if "damage" in weapon and at else \
            "not a weapon with dice damage"
        raise DataError(where, "field", f"{path!r}: {shown}: {has}; damage.bonus is allowed on a weapon with dice "
                        "damage, e.g. main_hand.damage.bonus")
    if not isinstance(value, int) or isinstance(value, bool):
        raise DataError(where, "field", f"{path!r}: the damage bonus must be an integer, got {_short(value)}")
    weapon["damage"] = str(Dice(dice.count, dice.sides, value))


#: the die sizes a weapon's damage steps along (one step of :func:`stat_steps`)
DIE_LADDER = (4, 6, 8, 10, 12)


def get_path(data: Any, path: str) -> Any:
    """The value at a dotted ``path`` of fighter data (list items by index), None where it is absent."""
    node = data
    for part in path.split("."):
        if isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        elif isinstance(node, dict) and part in node:
            node = node[part]
        else:
            return None
    return node


def expand_paths(data: Any, pattern: str) -> list[str]:
    """The paths a pattern names in ``data``: ``armour.*.protection`` → ``armour.0.protection``, …"""
    head, star, tail = pattern.partition(".*")
    if not star:
        return [pattern]
    items = get_path(data, head)
    if not isinstance(items, list):
        return []
    return [p for i in range(len(items)) for p in expand_paths(data, f"{head}.{i}{tail}")]


def stepped(value: Any, step: int) -> Any:
    """``value`` one step up (``step`` > 0) or down: an integer by ``step``, a dice expression by
    one die size along :data:`DIE_LADDER`; None where no such step exists."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value + step
    if isinstance(value, str):
        try:
            dice = parse_dice(value)
        except (ValueError, DataError):
            return None
        if dice.sides not in DIE_LADDER:
            return None
        k = DIE_LADDER.index(dice.sides) + (1 if step > 0 else -1)
        return str(Dice(dice.count, DIE_LADDER[k], dice.bonus)) if 0 <= k < len(DIE_LADDER) else None
    return None


def stat_steps(f: Any, adjustable: Sequence[tuple[str, ...]]) -> list[tuple[str, int, Any]]:
    """Fighter ``f`` with each adjustable field one step down and up: ``(path, ±step, variant)``,
    leaving out steps the field has no room for (a check at its minimum, a d12 up, an empty hand).
    A dice field's step is ``±1`` (one die size). An entry ``(pattern, step, needs)`` is stepped
    only when the fighter has the field ``needs`` (a shooting skill only with a gun in hand)."""
    ruleset = get_ruleset(f.ruleset)
    data = ruleset.fighter_data(f)
    out = []
    for pattern, step, *needs in adjustable:
        if needs and get_path(data, needs[0]) is None:
            continue
        for path in expand_paths(data, pattern):
            value = get_path(data, path)
            for sign in (-1, 1):
                new = stepped(value, sign * step)
                if new is None:
                    continue
                try:
                    variant = with_changes(f, {path: new}, "weights")
                except DataError:  # outside the field's range
                    continue
                out.append((path, sign * (1 if isinstance(value, str) else step), variant))
    return out


def stat_label(data: dict[str, Any], path: str) -> str:
    """A stat's path, with the name of the list item it passes through: ``armour.0.protection (mail)``."""
    parts = path.split(".")
    for i, part in enumerate(parts):
        if part.isdigit():
            item = get_path(data, ".".join(parts[:i + 1]))
            if isinstance(item, dict) and item.get("name"):
                return f"{path} ({item['name']})"
    return path


def vary(f: Any, path: str, value: Any, where: str = "variant") -> Any:
    """A copy of fighter ``f`` (any ruleset) with the field at ``path`` set to ``value``, validated
    like a fighter file."""
    return with_changes(f, {path: value}, where)


def with_changes(f: Any, changes: dict[str, Any], where: str = "variant") -> Any:
    """Several :func:`vary` steps at once: ``{"main_hand.damage": "d10", "checks.melee": 5}``. Each
    path and value within the bounds of every entry point (:func:`check_change`)."""
    ruleset = get_ruleset(f.ruleset, where)
    data = ruleset.fighter_data(f)
    slots = {s.field: s for s in ruleset.item_slots if not s.many}
    for path, value in changes.items():
        check_change(path, value, where)
        slot = slots.get(path)
        if slot is not None and isinstance(value, (str, dict)):  # an item swapped: the ruleset's rules of the slot
            ruleset.place_item(data, slot, value, where)
        else:
            set_path(data, path, value, where)
    shown = ", ".join(f"{k}={_short(v)}" for k, v in changes.items())
    return ruleset.fighter_from_data(data, f"{where} {shown}", f.name)


def _short(value: Any, room: int = 40) -> str:
    """A changed value as errors show it: tables by their name, lists item by item, long text cut."""
    if isinstance(value, dict):
        return repr(value["name"]) if value.get("name") else "{…}"
    if isinstance(value, list):
        text = "[" + ", ".join(_short(v, room) for v in value) + "]"
    else:
        text = repr(value)
    return text if len(text) <= room else text[:room - 1] + "…"


def names_apart(fighters: Sequence[Any], labels: Sequence[str | None], source: str,
                field: str = "fighters") -> list[Any]:
    """The fighters of one run (each a different fighter), those whose names coincide renamed
    ``"Name (label)"`` so that tables, frames and plots tell them apart (``labels[i]``: how the
    caller wrote fighter ``i``, e.g. ``brute2.toml``; see :func:`short_labels`). A fighter without
    a label (``None``: one passed as an object) sharing its name is a :class:`DataError` asking for
    another name."""
    by_name: dict[str, list[int]] = {}
    for i, f in enumerate(fighters):
        by_name.setdefault(f.name, []).append(i)
    out = list(fighters)
    for name, same in by_name.items():
        if len(same) < 2:
            continue
        if any(labels[i] is None for i in same):
            i, j = same[:2]
            raise DataError(source, f"{field}[{j}]", f"{field}[{i}] and {field}[{j}] are both called {name!r}; give "
                            "each fighter its own name, e.g. fighter.model_copy(update={'name': 'Brute d10'})")
        for i, label in zip(same, short_labels([str(labels[i]) for i in same])):
            out[i] = fighters[i].model_copy(update={"name": f"{name} ({label})"})
    return out


def short_labels(refs: Sequence[str]) -> list[str]:
    """Labels for different fighter references: the file names (``brute2.toml``) when they differ,
    else the references as written (``a/brute.toml``, ``b/brute.toml``)."""
    names = [Path(r).name for r in refs]
    return names if len(set(names)) == len(names) else list(refs)
