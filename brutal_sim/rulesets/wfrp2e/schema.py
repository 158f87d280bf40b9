"""JSON Schemas of WFRP 2e's input files (``brutal-sim schema KIND --ruleset wfrp2e``): fighter,
catalog files, rules files and the critical table (``crit_model = table``, W-5.4)."""

from __future__ import annotations

from ...core.schema_tools import (
    FIGHTER,
    RULES,
    FileKind,
    Schema,
    case_insensitive,
    catalog_file,
    catalog_schema,
    model_schema,
    name_refs,
    rules_schema,
)
from .catalog import RULES_FILE_TABLES, Catalog
from .layout import ZONE_NAMES
from .model import Armour, FighterSpec, Talent, Weapon
from .options import OPTION_SPECS


def crit_table_schema() -> Schema:
    """The critical table file (``crit_model = table``, W-5.4; ``crit_example.toml``)."""
    ci = case_insensitive
    flags = "|".join(ci(w) for w in ("NONE", "OUT", "DEATH", "HELPLESS", "DROP", "PRONE"))
    code = {"type": "string",
            "pattern": (rf"^ *(?:{flags}|{ci('STUN')} *\( *[0-9]+ *\)"
                        rf"|{ci('PEN')} *\( *(?:{ci('WS')}|{ci('AG')}|{ci('ALL')}) *, *- *[0-9]+ *\)) *$")}
    effects = {"type": "object", "propertyNames": {"pattern": "^[0-9]+$"},
               "additionalProperties": {"anyOf": [code, {"type": "array", "items": code}]},
               "description": "effect number → effect code(s): NONE, OUT, DEATH, HELPLESS, STUN(n), DROP, PRONE, "
                              "PEN(ws|ag|all, -n)"}
    number = {"type": "integer", "minimum": 1}
    band = {"type": "object", "additionalProperties": False, "required": ["rolls", "effects"], "properties": {
        "rolls": {"type": "string", "pattern": r"^[0-9]{1,3}(-[0-9]{1,3})?$", "description": "d100 band, e.g. '01-25'"},
        "effects": {"type": "array", "minItems": 1, "items": number, "description": "one effect number per column"}}}
    return {"type": "object", "additionalProperties": False, "required": ["crit_grid", "crit_effects"], "properties": {
        "description": {"type": "string"},
        "crit_grid": {"type": "object", "additionalProperties": False, "required": ["columns", "bands"], "properties": {
            "columns": {"type": "array", "minItems": 1, "uniqueItems": True, "items": number,
                        "description": "critical values, rising"},
            "bands": {"type": "array", "minItems": 1, "items": band}}},
        "crit_effects": {"type": "object", "additionalProperties": False, "required": list(ZONE_NAMES),
                         "properties": {z: effects for z in ZONE_NAMES}}}}


def _fighter_schema() -> Schema:
    cat = Catalog.bundled()
    refs = {"main_hand": list(cat.weapons), "off_hand": list(cat.weapons), "armour": list(cat.armour),
            "talents": list(cat.talents)}
    return name_refs(model_schema(FighterSpec), refs)


def file_kinds() -> dict[str, FileKind]:
    """Every kind of WFRP 2e input file with its schema."""
    return {
        "fighter": FileKind(FIGHTER, _fighter_schema),
        "weapons": FileKind(catalog_file("weapons"), lambda: catalog_schema(model_schema(Weapon))),
        "armour": FileKind(catalog_file("armour"), lambda: catalog_schema(model_schema(Armour))),
        "talents": FileKind(catalog_file("talents"), lambda: catalog_schema(model_schema(Talent))),
        "rules": FileKind(RULES, lambda: rules_schema("wfrp2e", OPTION_SPECS, RULES_FILE_TABLES,
                                                      {"ruleset": {"const": "wfrp2e"}})),
        "crit_table": FileKind("a critical table file (crit_model = table)", crit_table_schema),
    }
