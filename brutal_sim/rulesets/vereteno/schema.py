"""JSON Schemas of «Звёздное Веретено»'s input files (``brutal-sim schema KIND --ruleset vereteno``):
fighter, catalog files (weapons, guns, armour, shields, tactics, the d66 trauma table) and rules files."""

from __future__ import annotations

from ...core.schema_tools import (
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
from .catalog import D66, RULES_FILE_TABLES, Catalog
from .model import GUN_PROPERTIES, PROPERTIES, Armour, FighterSpec, Gun, Shield, Tactic, Trauma, Weapon
from .options import OPTION_SPECS

#: a weapon's properties are names of the properties table
PATCHES: dict[tuple[str, str], Schema] = {
    ("Weapon", "properties"): {"type": "array", "items": {"enum": list(PROPERTIES)}},
    ("Gun", "properties"): {"type": "array", "items": {"enum": list(GUN_PROPERTIES)}}}


def _fighter_schema() -> Schema:
    cat = Catalog.bundled()
    refs = {"weapon": list(cat.weapons), "gun": list(cat.guns), "armour": list(cat.armour), "shield": list(cat.shields),
            "tactic": list(cat.tactics)}
    return name_refs(model_schema(FighterSpec, PATCHES), refs)


def file_kinds() -> dict[str, FileKind]:
    """Every kind of Vereteno input file with its schema."""
    return {
        "fighter": FileKind(FIGHTER, _fighter_schema),
        "weapons": FileKind(catalog_file("weapons"), lambda: catalog_schema(model_schema(Weapon, PATCHES))),
        "guns": FileKind(catalog_file("guns"), lambda: catalog_schema(model_schema(Gun, PATCHES))),
        "armour": FileKind(catalog_file("armour"), lambda: catalog_schema(model_schema(Armour))),
        "shields": FileKind(catalog_file("shields"), lambda: catalog_schema(model_schema(Shield))),
        "tactics": FileKind(catalog_file("tactics"), lambda: catalog_schema(model_schema(Tactic))),
        "traumas": FileKind("the d66 trauma table file",
                            lambda: catalog_schema(model_schema(Trauma), "^[1-6][1-6]$", list(D66))),
        "rules": FileKind(RULES, lambda: rules_schema("vereteno", OPTION_SPECS, RULES_FILE_TABLES, {})),
    }
