"""JSON Schemas of Brutal's input files (``brutal-sim schema KIND``): fighter, catalog files, the
hit-zone table (B-4.9) and rules files (with ``[zone_table]`` and ``[check_formula]``, B-1.1)."""

from __future__ import annotations

from ...core.schema_tools import (
    DICE_PATTERN,
    FIGHTER,
    RULES,
    FileKind,
    Schema,
    catalog_file,
    catalog_schema,
    model_schema,
    name_refs,
    rules_schema,
)
from .catalog import DEFAULT_CHECK_FORMULA, RULES_FILE_TABLES, Catalog
from .model import ATTRIBUTES, ZONE_SHORTHANDS, ZONES, Armour, FighterSpec, Tactic, Talent, Weapon
from .options import OPTION_SPECS

#: fields whose TOML form the models' types do not tell
PATCHES: dict[tuple[str, str], Schema] = {
    ("Weapon", "damage"): {"anyOf": [{"type": "string", "pattern": DICE_PATTERN},
                                     {"type": "integer", "minimum": -100, "maximum": 100}]},
    ("Weapon", "ranges"): {"type": "array", "minItems": 3, "maxItems": 3,
                           "items": {"type": "integer", "minimum": 1, "maximum": 10_000}},
    ("Armour", "zones"): {"type": "array", "minItems": 1, "items": {"enum": [*ZONES, *ZONE_SHORTHANDS]}},
    ("FighterSpec", "damage_levels"): {"type": "array", "minItems": 4, "maxItems": 4,
                                       "items": {"type": "integer", "minimum": 0, "maximum": 1000}},
}


def zones_schema() -> Schema:
    """The hit-zone table (``zones.toml``, a rules file's ``[zone_table]``; B-4.9)."""
    return {"type": "object", "additionalProperties": False, "required": ["ranges"], "properties": {
        "description": {"type": "string"},
        "die": {"type": "integer", "minimum": 2, "maximum": 100, "default": 20, "description": "the die rolled"},
        "ranges": {"type": "object", "minProperties": 1, "propertyNames": {"pattern": r"^[0-9]+(-[0-9]+)?$"},
                   "additionalProperties": {"enum": [*ZONES, "arms", "legs"]},
                   "description": 'roll or range → zone, e.g. "7-14" = "torso"; every roll once'}}}


def _formula_schema() -> Schema:
    """A rules file's ``[check_formula]`` (B-1.1)."""
    term = f"(?:skill|{'|'.join(ATTRIBUTES)})"
    return {"type": "object", "additionalProperties": False,
            "description": "B-1.1: each check as a sum of terms (with check_bonus = attribute_plus_skill)",
            "properties": {c: {"type": "string", "pattern": rf"^\s*{term}(?:\s*\+\s*{term})*\s*$",
                               "default": " + ".join(t) if len(t) > 1 else t[0]}
                           for c, t in DEFAULT_CHECK_FORMULA.items()}}


def _fighter_schema() -> Schema:
    cat = Catalog.bundled()
    tactics = [name + (f":{zone}" if t.aims else "") for name, t in cat.tactics.items()
               for zone in (ZONES if t.aims else ("",))]
    refs = {"main_hand": list(cat.weapons), "off_hand": list(cat.weapons), "armour": list(cat.armour),
            "talents": list(cat.talents), "tactic": tactics}
    return name_refs(model_schema(FighterSpec, PATCHES), refs)


def file_kinds() -> dict[str, FileKind]:
    """Every kind of Brutal input file with its schema."""
    return {
        "fighter": FileKind(FIGHTER, _fighter_schema),
        "weapons": FileKind(catalog_file("weapons"), lambda: catalog_schema(model_schema(Weapon, PATCHES))),
        "armour": FileKind(catalog_file("armour"), lambda: catalog_schema(model_schema(Armour, PATCHES))),
        "talents": FileKind(catalog_file("talents"), lambda: catalog_schema(model_schema(Talent, PATCHES))),
        "tactics": FileKind(catalog_file("tactics"), lambda: catalog_schema(model_schema(Tactic, PATCHES))),
        "zones": FileKind("a hit-zone table file (zones.toml; a zone_table option's file)", zones_schema),
        "rules": FileKind(RULES, lambda: rules_schema("brutal", OPTION_SPECS, RULES_FILE_TABLES, {
            "zone_table": zones_schema(), "check_formula": _formula_schema()})),
    }
