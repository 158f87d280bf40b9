"""JSON Schemas of every input file, for editors: fighter files, catalog files (weapons, armour,
talents, tactics …), rules files, Brutal's hit-zone table, WFRP 2e's critical table and scenarios.

Each schema is generated from what validates the file: the pydantic models of the ruleset
(``model_json_schema()``), post-processed where the TOML form is wider or narrower than the
model's types (a weapon's ``damage`` is a dice expression or a number, an armour's ``zones`` are
zone names, a fighter's ``main_hand`` names a weapon of the bundled catalog), and for rules files
from the ruleset's option specs (an enum of the choices, an integer range). A schema checks each field's type, range and allowed names; the loaders check
beyond that what spans several fields or files (a two-handed weapon leaves the off hand empty,
bands of a critical table cover 01..00, a scenario's fighter files exist).

The schemas are shipped in the package (``brutal_sim/schemas/RULESET/KIND.json`` and
``brutal_sim/schemas/scenario.json``), written by ``python -m brutal_sim.schema``; a test checks
that the shipped files equal freshly generated ones. ``brutal-sim schema KIND --ruleset X`` prints
one. See docs/reference.md, "Schemas for editors".
"""

from __future__ import annotations

import copy
import json
from importlib import resources
from pathlib import Path
from typing import Any, Callable

from pydantic import BaseModel

from .core.errors import DataError
from .core.options import OptionSpec
from .core.ruleset import get_ruleset

#: the JSON Schema dialect of every schema: draft 7, which TOML language servers (Taplo) read; the
#: schemas use no later keyword, and pydantic's ``$defs`` become draft 7's ``definitions``
DIALECT = "http://json-schema.org/draft-07/schema#"
#: the package folder of the shipped schemas
SCHEMA_DIR = resources.files("brutal_sim") / "schemas"
#: the kind of a scenario file (one schema for every ruleset)
SCENARIO = "scenario"
#: other names of the kinds (the singular of a catalog file's name)
ALIASES = {"weapon": "weapons", "talent": "talents", "tactic": "tactics", "shield": "shields", "trauma": "traumas",
           "zone_table": "zones", "crit": "crit_table"}

Schema = dict[str, Any]

# -- post-processing of model schemas --------------------------------------------------------

#: Brutal's dice expression (brutal_sim.core.dice): a number −100..100 or [N]dS[±B]
DICE_PATTERN = (r"^\s*(?:[+-]?(?:100|[0-9]{1,2})|(?:10|[1-9])?\s*[dDкК]\s*(?:20|12|10|8|6|4|3|2)"
                r"\s*(?:[+-]\s*(?:100|[0-9]{1,2}))?)\s*$")


def _draft7(node: Any) -> Any:
    """``node`` with ``$defs`` renamed ``definitions`` and its references changed to match."""
    if isinstance(node, dict):
        return {("definitions" if k == "$defs" else k):
                (v.replace("#/$defs/", "#/definitions/") if k == "$ref" else _draft7(v)) for k, v in node.items()}
    if isinstance(node, list):
        return [_draft7(v) for v in node]
    return node


def _replace(prop: Schema, new: Schema) -> None:
    """Replace a property's type constraints by ``new``, keeping its title, description and default."""
    keep: Schema = {k: prop[k] for k in ("title", "description", "default") if k in prop}
    prop.clear()
    prop.update(keep)
    prop.update(new)


def model_schema(model: type[BaseModel], patches: dict[tuple[str, str], Schema] | None = None) -> Schema:
    """``model``'s JSON Schema with ``patches``: ``(model name, field) → the field's schema`` for
    fields whose TOML form the model's types do not tell (validators that accept or check more)."""
    schema = model.model_json_schema()
    defs = schema.get("$defs", {})
    for (owner, field), new in (patches or {}).items():
        target = schema if owner == model.__name__ else defs.get(owner)
        if target is not None and field in target.get("properties", {}):
            _replace(target["properties"][field], copy.deepcopy(new))
    return schema


def name_refs(schema: Schema, refs: dict[str, list[str]]) -> Schema:
    """``schema`` (a fighter file's) with the catalog names each field may name: ``field → names``
    turns the field's string (or its items' string) into an enum of the names, beside the inline
    table the field also takes."""
    for field, names in refs.items():
        prop = schema["properties"][field]
        prop = prop.get("items", prop)
        for option in prop.get("anyOf", [prop]):
            if option.get("type") == "string":
                option["enum"] = list(names)
    return schema


def catalog_schema(item: Schema, key_pattern: str | None = None, required: list[str] | None = None) -> Schema:
    """A catalog file: a table of named items (``[arming_sword]`` …), each an ``item``."""
    item = copy.deepcopy(item)
    defs = item.pop("$defs", {})
    name = item.get("title", "Item")
    defs[name] = item
    out: Schema = {"type": "object", "additionalProperties": {"$ref": f"#/$defs/{name}"}}
    if key_pattern:
        out["propertyNames"] = {"pattern": key_pattern}
    if required:
        out["required"] = required
    out["$defs"] = defs
    return out


def option_schema(spec: OptionSpec) -> Schema:
    """One rule option of a rules file's ``[options]``: an integer range, an enum of the choices
    (a TOML boolean stands for the choice ``"true"`` / ``"false"``), or a string (a file path)."""
    out: Schema = {"description": f"{spec.rule}: {spec.help}".strip(": "), "default": spec.default}
    if spec.int_range is not None:
        out.update(type="integer", minimum=spec.int_range[0], maximum=spec.int_range[1])
    elif spec.choices:
        out["enum"] = [*spec.choices, *(c == "true" for c in spec.choices if c in ("true", "false"))]
    else:
        out["type"] = "string"
    return out


def rules_schema(ruleset: str, tables: dict[str, Schema]) -> Schema:
    """A rules file (``--rules FILE``): the ruleset's top-level tables, ``[options]`` from its
    option specs; ``tables`` gives the schema of the ruleset's own tables."""
    rs = get_ruleset(ruleset)
    options = {"type": "object", "additionalProperties": False,
               "properties": {s.name: option_schema(s) for s in rs.option_specs},
               "description": f"rule options (brutal-sim list options --ruleset {ruleset})"}
    known = {"options": options, "description": {"type": "string"}, **tables}
    return {"type": "object", "additionalProperties": False,
            "properties": {name: known.get(name, {}) for name in rs.rules_file_tables}}


# -- Brutal ---------------------------------------------------------------------------------

def _brutal_patches() -> dict[tuple[str, str], Schema]:
    from .rulesets.brutal.model import ZONE_SHORTHANDS, ZONES

    return {
        ("Weapon", "damage"): {"anyOf": [{"type": "string", "pattern": DICE_PATTERN},
                                         {"type": "integer", "minimum": -100, "maximum": 100}]},
        ("Weapon", "ranges"): {"type": "array", "minItems": 3, "maxItems": 3,
                               "items": {"type": "integer", "minimum": 1, "maximum": 10_000}},
        ("Armour", "zones"): {"type": "array", "minItems": 1, "items": {"enum": [*ZONES, *ZONE_SHORTHANDS]}},
        ("FighterSpec", "damage_levels"): {"type": "array", "minItems": 4, "maxItems": 4,
                                           "items": {"type": "integer", "minimum": 0, "maximum": 1000}},
    }


def brutal_zones() -> Schema:
    """Brutal's hit-zone table (``zones.toml``, a rules file's ``[zone_table]``; B-4.9)."""
    from .rulesets.brutal.model import ZONES

    return {"type": "object", "additionalProperties": False, "required": ["ranges"], "properties": {
        "description": {"type": "string"},
        "die": {"type": "integer", "minimum": 2, "maximum": 100, "default": 20, "description": "the die rolled"},
        "ranges": {"type": "object", "minProperties": 1, "propertyNames": {"pattern": r"^[0-9]+(-[0-9]+)?$"},
                   "additionalProperties": {"enum": [*ZONES, "arms", "legs"]},
                   "description": 'roll or range → zone, e.g. "7-14" = "torso"; every roll once'}}}


def _brutal_kinds() -> dict[str, Callable[[], Schema]]:
    from .rulesets.brutal.catalog import DEFAULT_CHECK_FORMULA, Catalog
    from .rulesets.brutal.model import ATTRIBUTES, ZONES, Armour, FighterSpec, Tactic, Talent, Weapon

    term = f"(?:skill|{'|'.join(ATTRIBUTES)})"
    formula = {"type": "object", "additionalProperties": False,
               "description": "B-1.1: each check as a sum of terms (with check_bonus = attribute_plus_skill)",
               "properties": {c: {"type": "string", "pattern": rf"^\s*{term}(?:\s*\+\s*{term})*\s*$",
                                  "default": " + ".join(t) if len(t) > 1 else t[0]}
                              for c, t in DEFAULT_CHECK_FORMULA.items()}}
    p = _brutal_patches()
    cat = Catalog.bundled()
    tactics = [name + (f":{zone}" if t.aims else "") for name, t in cat.tactics.items()
               for zone in (ZONES if t.aims else ("",))]
    refs = {"main_hand": list(cat.weapons), "off_hand": list(cat.weapons), "armour": list(cat.armour),
            "talents": list(cat.talents), "tactic": tactics}
    return {
        "fighter": lambda: name_refs(model_schema(FighterSpec, p), refs),
        "weapons": lambda: catalog_schema(model_schema(Weapon, p)),
        "armour": lambda: catalog_schema(model_schema(Armour, p)),
        "talents": lambda: catalog_schema(model_schema(Talent, p)),
        "tactics": lambda: catalog_schema(model_schema(Tactic, p)),
        "zones": brutal_zones,
        "rules": lambda: rules_schema("brutal", {"zone_table": brutal_zones(), "check_formula": formula}),
    }


# -- WFRP 2e --------------------------------------------------------------------------------

def _ci(word: str) -> str:
    """A case-insensitive regex of ``word`` (JSON Schema patterns have no flags)."""
    return "".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else c for c in word)


def wfrp2e_crit_table() -> Schema:
    """WFRP 2e's critical table file (``crit_model = table``, W-5.4; ``crit_example.toml``)."""
    from .rulesets.wfrp2e.layout import ZONE_NAMES

    flags = "|".join(_ci(w) for w in ("NONE", "OUT", "DEATH", "HELPLESS", "DROP", "PRONE"))
    code = {"type": "string", "pattern": (rf"^ *(?:{flags}|{_ci('STUN')} *\( *[0-9]+ *\)"
                                          rf"|{_ci('PEN')} *\( *(?:{_ci('WS')}|{_ci('AG')}|{_ci('ALL')}) *, *- *[0-9]+ *\)) *$")}
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


def _wfrp2e_kinds() -> dict[str, Callable[[], Schema]]:
    from .rulesets.wfrp2e.catalog import Catalog
    from .rulesets.wfrp2e.model import Armour, FighterSpec, Talent, Weapon

    cat = Catalog.bundled()
    refs = {"main_hand": list(cat.weapons), "off_hand": list(cat.weapons), "armour": list(cat.armour),
            "talents": list(cat.talents)}
    return {
        "fighter": lambda: name_refs(model_schema(FighterSpec), refs),
        "weapons": lambda: catalog_schema(model_schema(Weapon)),
        "armour": lambda: catalog_schema(model_schema(Armour)),
        "talents": lambda: catalog_schema(model_schema(Talent)),
        "rules": lambda: rules_schema("wfrp2e", {"ruleset": {"const": "wfrp2e"}}),
        "crit_table": wfrp2e_crit_table,
    }


# -- Vereteno -------------------------------------------------------------------------------

def _vereteno_kinds() -> dict[str, Callable[[], Schema]]:
    from .rulesets.vereteno.catalog import D66, Catalog
    from .rulesets.vereteno.model import PROPERTIES, Armour, FighterSpec, Shield, Tactic, Trauma, Weapon

    p = {("Weapon", "properties"): {"type": "array", "items": {"enum": list(PROPERTIES)}}}
    cat = Catalog.bundled()
    refs = {"weapon": list(cat.weapons), "armour": list(cat.armour), "shield": list(cat.shields),
            "tactic": list(cat.tactics)}
    return {
        "fighter": lambda: name_refs(model_schema(FighterSpec, p), refs),
        "weapons": lambda: catalog_schema(model_schema(Weapon, p)),
        "armour": lambda: catalog_schema(model_schema(Armour)),
        "shields": lambda: catalog_schema(model_schema(Shield)),
        "tactics": lambda: catalog_schema(model_schema(Tactic)),
        "traumas": lambda: catalog_schema(model_schema(Trauma), "^[1-6][1-6]$", list(D66)),
        "rules": lambda: rules_schema("vereteno", {}),
    }


# -- every kind -----------------------------------------------------------------------------

#: each ruleset's file kinds; a ruleset not listed here (a plug-in) has no schemas
RULESET_KINDS: dict[str, Callable[[], dict[str, Callable[[], Schema]]]] = {
    "brutal": _brutal_kinds, "wfrp2e": _wfrp2e_kinds, "vereteno": _vereteno_kinds}

#: what each kind of file is, for the schema's description
WHAT = {"fighter": "a fighter file", "weapons": "the weapons catalog file", "armour": "the armour catalog file",
        "talents": "the talents catalog file", "tactics": "the tactics catalog file",
        "shields": "the shields catalog file", "traumas": "the d66 trauma table file",
        "zones": "a hit-zone table file (zones.toml; a zone_table option's file)", "rules": "a rules file (--rules)",
        "crit_table": "a critical table file (crit_model = table)", SCENARIO: "a scenario file (brutal-sim report)"}


def scenario_schema() -> Schema:
    """A scenario file (docs/scenarios.md): the same for every ruleset."""
    from .scenario import ScenarioSpec

    return model_schema(ScenarioSpec, {("ScenarioSpec", "matchups"): {
        "type": "array", "items": {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "string"}}}})


def kinds(ruleset: str) -> list[str]:
    """The file kinds of ``ruleset`` that have a schema (``scenario`` last)."""
    get_ruleset(ruleset)
    return [*RULESET_KINDS.get(ruleset, dict)(), SCENARIO]


def schema(kind: str, ruleset: str = "brutal") -> Schema:
    """The JSON Schema of a ``kind`` of file of ``ruleset`` (a :class:`DataError` names the kinds
    when ``kind`` is not one of them)."""
    kind = ALIASES.get(kind, kind)
    rs = get_ruleset(ruleset, "--ruleset")
    if kind == SCENARIO:
        body, title = scenario_schema(), "brutal_sim scenario file"
    else:
        builders = RULESET_KINDS.get(ruleset, dict)()
        if kind not in builders:
            raise DataError("schema", None, f"unknown kind {kind!r} for the {ruleset} ruleset; allowed: "
                            f"{', '.join(kinds(ruleset))}")
        body, title = builders[kind](), f"brutal_sim {rs.name} {kind} file"
    body.pop("title", None)
    desc = body.pop("description", "")
    head = {"$schema": DIALECT, "title": title,
            "description": f"{WHAT[kind]} of brutal_sim" + ("" if kind == SCENARIO else f" ({rs.title})")
            + (f". {desc}" if desc and kind != "fighter" else "")}
    return _draft7({**head, **body})


def schema_text(kind: str, ruleset: str = "brutal") -> str:
    """The schema as the shipped file's text (indented JSON, one newline at the end)."""
    return json.dumps(schema(kind, ruleset), indent=2, ensure_ascii=False) + "\n"


def shipped_name(kind: str, ruleset: str = "brutal") -> str:
    """The shipped file of a schema, relative to ``brutal_sim/schemas``."""
    kind = ALIASES.get(kind, kind)
    return f"{kind}.json" if kind == SCENARIO else f"{ruleset}/{kind}.json"


def all_schemas() -> dict[str, str]:
    """Every shipped schema: its name under ``brutal_sim/schemas`` → its text."""
    out = {shipped_name(SCENARIO): schema_text(SCENARIO)}
    for ruleset in RULESET_KINDS:
        for kind in kinds(ruleset)[:-1]:
            out[shipped_name(kind, ruleset)] = schema_text(kind, ruleset)
    return out


def write_schemas(root: Path) -> list[Path]:
    """Write every schema under ``root`` (the package's ``schemas`` folder by default)."""
    written = []
    for name, text in all_schemas().items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for p in write_schemas(Path(str(SCHEMA_DIR))):
        print(p)
