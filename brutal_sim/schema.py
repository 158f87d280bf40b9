"""JSON Schemas of every input file, for editors: fighter files, catalog files (weapons, armour,
talents, tactics …), rules files, Brutal's hit-zone table, WFRP 2e's critical table and scenarios.

Each schema is generated from what validates the file: the pydantic models of the ruleset
(``model_json_schema()``), post-processed where the TOML form is wider or narrower than the
model's types (a weapon's ``damage`` is a dice expression or a number, an armour's ``zones`` are
zone names, a fighter's ``main_hand`` names a weapon of the bundled catalog), and for rules files
from the ruleset's option specs (an enum of the choices, an integer range). A schema checks each
field's type, range and allowed names; the loaders check beyond that what spans several fields or
files (a two-handed weapon leaves the off hand empty, bands of a critical table cover 01..00, a
scenario's fighter files exist).

Each ruleset declares its kinds of file in its own ``schema.py``
(:meth:`~brutal_sim.core.ruleset.Ruleset.file_kinds`, built with
:mod:`brutal_sim.core.schema_tools`); the scenario schema is the same for every ruleset. The
schemas of the bundled rulesets are shipped in the package
(``brutal_sim/schemas/RULESET/KIND.json`` and ``brutal_sim/schemas/scenario.json``), written by
``python -m brutal_sim.schema``; a test checks that the shipped files equal freshly generated
ones. ``brutal-sim schema KIND --ruleset X`` prints one. See docs/reference.md, "Schemas for
editors".
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from .core.errors import DataError
from .core.ruleset import BUNDLED_RULESETS, get_ruleset
from .core.schema_tools import COSTS_SCHEMA, Schema, model_schema

#: the JSON Schema dialect of every schema: draft 7, which TOML language servers (Taplo) read; the
#: schemas use no later keyword, and pydantic's ``$defs`` become draft 7's ``definitions``
DIALECT = "http://json-schema.org/draft-07/schema#"
#: the package folder of the shipped schemas
SCHEMA_DIR = resources.files("brutal_sim") / "schemas"
#: the kind of a scenario file (one schema for every ruleset)
SCENARIO = "scenario"
#: the kind of a price-list file (a ``[costs]`` table: a ruleset's bundled ``costs.toml``; one schema for every ruleset)
COSTS = "costs"
#: the kinds whose schema is the same for every ruleset, shipped once at the top of the folder
SHARED = (COSTS, SCENARIO)
#: other names of the kinds (the singular of a catalog file's name)
ALIASES = {"weapon": "weapons", "talent": "talents", "tactic": "tactics", "shield": "shields", "trauma": "traumas",
           "zone_table": "zones", "crit": "crit_table"}


def _draft7(node: Any) -> Any:
    """``node`` with ``$defs`` renamed ``definitions`` and its references changed to match."""
    if isinstance(node, dict):
        return {("definitions" if k == "$defs" else k):
                (v.replace("#/$defs/", "#/definitions/") if k == "$ref" else _draft7(v)) for k, v in node.items()}
    if isinstance(node, list):
        return [_draft7(v) for v in node]
    return node


# -- every kind -----------------------------------------------------------------------------

#: what a scenario file is, for its schema's description
SCENARIO_WHAT = "a scenario file (brutal-sim report)"


def scenario_schema() -> Schema:
    """A scenario file (docs/scenarios.md): the same for every ruleset."""
    from .scenario import ScenarioSpec

    return model_schema(ScenarioSpec, {("ScenarioSpec", "matchups"): {
        "type": "array", "items": {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "string"}}}})


def _with_base(body: Schema, names: list[str]) -> Schema:
    """A fighter file's schema with ``base``: a bundled fighter the file's fields are laid over
    (:meth:`~brutal_sim.core.data.BaseCatalog.on_base`); with a base no field is required."""
    base = {"type": "string", "enum": names,
            "description": "a bundled fighter this file starts from: its fields are laid over that fighter's"}
    body = {**body, "properties": {"base": base, **body["properties"]}}
    required = body.pop("required", None)
    if required:
        body = {**body, "if": {"required": ["base"]}, "else": {"required": required}}
    return body


def kinds(ruleset: str) -> list[str]:
    """The file kinds of ``ruleset`` that have a schema (the shared ``costs`` and ``scenario`` last)."""
    return [*get_ruleset(ruleset, "ruleset").file_kinds(), *SHARED]


def schema(kind: str, ruleset: str = "brutal") -> Schema:
    """The JSON Schema of a ``kind`` of file of ``ruleset`` (a :class:`DataError` names the kinds
    when ``kind`` is not one of them)."""
    kind = ALIASES.get(kind, kind)
    rs = get_ruleset(ruleset, "ruleset")
    if kind == SCENARIO:
        body, title, what = scenario_schema(), "brutal_sim scenario file", SCENARIO_WHAT
    elif kind == COSTS:
        body = {"type": "object", "additionalProperties": False, "properties": {"costs": COSTS_SCHEMA}}
        title, what = "brutal_sim price list", "a price list (a [costs] table; docs/reference.md#costs)"
    else:
        file_kinds = rs.file_kinds()
        if kind not in file_kinds:
            raise DataError("schema", None, f"unknown kind {kind!r} for the {ruleset} ruleset; allowed: "
                            f"{', '.join(kinds(ruleset))}")
        body, title, what = file_kinds[kind].build(), f"brutal_sim {rs.name} {kind} file", file_kinds[kind].what
        if kind == "fighter":
            body = _with_base(body, rs.fighter_names())
    body.pop("title", None)
    desc = body.pop("description", "")
    head = {"$schema": DIALECT, "title": title,
            "description": f"{what} of brutal_sim" + ("" if kind in SHARED else f" ({rs.title})")
            + (f". {desc}" if desc and kind != "fighter" else "")}
    return _draft7({**head, **body})


def schema_text(kind: str, ruleset: str = "brutal") -> str:
    """The schema as the shipped file's text (indented JSON, one newline at the end)."""
    return json.dumps(schema(kind, ruleset), indent=2, ensure_ascii=False) + "\n"


def shipped_name(kind: str, ruleset: str = "brutal") -> str:
    """The shipped file of a schema, relative to ``brutal_sim/schemas``."""
    kind = ALIASES.get(kind, kind)
    return f"{kind}.json" if kind in SHARED else f"{ruleset}/{kind}.json"


def all_schemas() -> dict[str, str]:
    """Every shipped schema (the bundled rulesets'): its name under ``brutal_sim/schemas`` → its text."""
    out = {shipped_name(kind): schema_text(kind) for kind in SHARED}
    for ruleset in BUNDLED_RULESETS:
        for kind in kinds(ruleset)[:-len(SHARED)]:
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
