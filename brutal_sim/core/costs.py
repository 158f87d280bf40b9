"""Costs as data: what a stat step and a catalog item cost, in a unit the designer names (points,
experience), for ``suggest``, the stat weights' gain per point and the findings.

A ``[costs]`` table may stand in a rules file (``--rules``), in a scenario file, or in the ruleset's
bundled ``costs.toml`` beside its catalog (its defaults); later sources override earlier ones entry
by entry::

    [costs]
    unit = "points"            # the unit's name (default "points")
    [costs.stats]              # one step up of a field as the stat weights step it; a step down refunds it
    "checks.melee" = 3
    "main_hand.damage" = 4     # a dice field: one die size
    "armour.*.protection" = 2  # a pattern of the ruleset's adjustable stats: every armour piece
    [costs.items]              # the price of a catalog item by name; a swap costs the difference
    greatsword = 12

A stat is one of the ruleset's adjustable fields (:attr:`~brutal_sim.core.ruleset.Ruleset.adjustable`:
the pattern itself or a path it matches); an item is a name in one of its catalog tables. Costs are
numbers ≥ 0. Shared code: it knows no ruleset by name.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from .data import read_toml
from .errors import DataError
from .ruleset import did_you_mean

#: the keys a ``[costs]`` table may hold
COSTS_KEYS = ("unit", "stats", "items")


def singular(unit: str) -> str:
    """The unit's name for one of it: ``points`` → ``point`` (``xp`` stays)."""
    return unit[:-1] if unit.endswith("s") and len(unit) > 2 else unit


def path_matches(pattern: str, path: str) -> bool:
    """Whether the field ``path`` (``armour.0.protection``) is one the adjustable ``pattern``
    (``armour.*.protection``, ``*`` one list index) names."""
    p, q = pattern.split("."), path.split(".")
    return len(p) == len(q) and all(a == b or (a == "*" and b.isdigit()) for a, b in zip(p, q))


def adjustable(ruleset: Any, path: str) -> bool:
    """Whether ``path`` names a stat ``ruleset`` steps: one of its adjustable patterns, or a path one
    of them matches (:attr:`~brutal_sim.core.ruleset.Ruleset.adjustable`)."""
    return any(path == entry[0] or path_matches(entry[0], path) for entry in ruleset.adjustable)


def require_stat(ruleset: Any, path: Any, source: str, field: str | None) -> None:
    """A :class:`DataError` from ``source`` at ``field`` unless ``path`` names a stat ``ruleset``
    steps (:func:`adjustable`): one line with the nearest stat and every one."""
    if isinstance(path, str) and adjustable(ruleset, path):
        return
    patterns = [entry[0] for entry in ruleset.adjustable]
    raise DataError(source, field, f"{path!r} is not a stat the {ruleset.name} ruleset steps; "
                    f"{did_you_mean(path, patterns)}stats: {', '.join(patterns)}")


@dataclass(frozen=True)
class Costs:
    """A price list: ``stats`` (a field path or pattern → the cost of one step up) and ``items`` (a
    catalog item's name → its price), in ``unit``."""

    stats: Mapping[str, float] = field(default_factory=dict)
    items: Mapping[str, float] = field(default_factory=dict)
    unit: str = "points"

    def __bool__(self) -> bool:
        return bool(self.stats or self.items)

    def stat(self, path: str) -> float | None:
        """The cost of one step up of the field ``path`` (an exact entry first, then a pattern); None
        if it has no price."""
        if path in self.stats:
            return self.stats[path]
        for pattern, cost in self.stats.items():
            if path_matches(pattern, path):
                return cost
        return None

    def step(self, path: str, steps: int) -> float | None:
        """The cost of ``steps`` steps of ``path`` (negative: a refund); None without a price."""
        cost = self.stat(path)
        return None if cost is None else cost * steps

    def item(self, name: str | None) -> float | None:
        """The price of the catalog item ``name`` (an empty slot, None, costs 0); None without a
        price."""
        if name is None:
            return 0.0
        return self.items.get(name)

    def swap(self, old: str | None, new: str | None) -> float | None:
        """What replacing the item ``old`` by ``new`` costs (the difference of their prices); None
        when either has no price."""
        a, b = self.item(old), self.item(new)
        return None if a is None or b is None else b - a

    def merged(self, other: "Costs") -> "Costs":
        """These costs with ``other``'s entries (and unit, if it names one) on top."""
        return Costs({**self.stats, **other.stats}, {**self.items, **other.items}, other.unit or self.unit)

    def to_dict(self) -> dict[str, Any]:
        """The ``[costs]`` table these costs read from."""
        return {"unit": self.unit, "stats": dict(self.stats), "items": dict(self.items)}


def _price(value: Any, source: str, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise DataError(source, where, f"{value!r}: a cost is a number ≥ 0")
    return float(value)


def read_costs(raw: Any, source: str, ruleset: Any, where: str = "costs") -> Costs:
    """A ``[costs]`` table (``raw``, from ``source``) checked against ``ruleset``: its stats among the
    adjustable fields, its items among the catalog's names, every cost a number ≥ 0. A
    :class:`DataError` names the file and the entry."""
    if not isinstance(raw, Mapping):
        raise DataError(source, where, "expected a table with unit, stats and items")
    unknown = sorted(set(raw) - set(COSTS_KEYS))
    if unknown:
        raise DataError(source, f"{where}.{unknown[0]}", f"unknown key; allowed: {', '.join(COSTS_KEYS)}")
    unit = raw.get("unit", "")
    if not isinstance(unit, str) or len(unit) > 40:
        raise DataError(source, f"{where}.unit", "expected a short name of the unit, e.g. \"points\"")
    stats_raw, items_raw = raw.get("stats", {}), raw.get("items", {})
    for key, table in (("stats", stats_raw), ("items", items_raw)):
        if not isinstance(table, Mapping):
            raise DataError(source, f"{where}.{key}", "expected a table of name = cost")
    stats = {}
    for path, value in stats_raw.items():
        require_stat(ruleset, path, source, f"{where}.stats.{path}")
        stats[path] = _price(value, source, f"{where}.stats.{path}")
    catalog = ruleset.catalog()
    names = sorted({name for attr in type(catalog).TABLES for name in getattr(catalog, attr)})
    items = {}
    for name, value in items_raw.items():
        if name not in names:
            raise DataError(source, f"{where}.items.{name}",
                            f"no such item in the {ruleset.name} catalog; {did_you_mean(name, names)}"
                            f"the items: `brutal-sim list weapons --ruleset {ruleset.name}` and the other tables")
        items[name] = _price(value, source, f"{where}.items.{name}")
    return Costs(stats, items, unit)


def bundled_costs(ruleset: Any) -> Costs:
    """The ruleset's default price list: ``costs.toml`` beside its bundled catalog, if it has one."""
    root = type(ruleset.catalog()).DATA_ROOT
    if root is None or not (root / "costs.toml").is_file():
        return Costs()
    raw = read_toml(Path(str(root / "costs.toml")), f"costs of {ruleset.name}")
    return read_costs(raw.get("costs", {}), f"{ruleset.name}/costs.toml", ruleset)


def costs_for(ruleset: Any, rules_file: str | None = None, costs: Any = None, source: str = "costs") -> Costs:
    """The price list in force: the ruleset's bundled costs < the rules file's ``[costs]`` <
    ``costs`` (a :class:`Costs`, or a ``[costs]`` table read from ``source``)."""
    out = bundled_costs(ruleset)
    if rules_file:
        raw = read_toml(Path(rules_file), f"rules {rules_file}")
        if "costs" in raw:
            out = out.merged(read_costs(raw["costs"], rules_file, ruleset))
    if costs is not None:
        out = out.merged(costs if isinstance(costs, Costs) else read_costs(costs, source, ruleset))
    return out if out.unit else Costs(out.stats, out.items, "points")
