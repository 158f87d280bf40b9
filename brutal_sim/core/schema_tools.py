"""Building blocks of the JSON Schemas of input files (``brutal-sim schema``): a pydantic model's
schema with patches for fields whose TOML form is wider than the model's types, catalog files,
rules files from option specs, and :class:`FileKind`, what a ruleset's ``schema.py`` declares for
each kind of file it reads (:meth:`brutal_sim.core.ruleset.Ruleset.file_kinds`).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Callable

from pydantic import BaseModel

from .options import OptionSpec

Schema = dict[str, Any]


@dataclass(frozen=True)
class FileKind:
    """One kind of input file of a ruleset: what it is (for the schema's description, e.g. "the
    weapons catalog file") and the function that builds its schema."""

    what: str
    build: Callable[[], Schema]


#: the words of the kinds most rulesets have
FIGHTER, RULES = "a fighter file", "a rules file (--rules)"


def catalog_file(kind: str) -> str:
    """What a catalog file is: ``catalog_file("weapons")`` is "the weapons catalog file"."""
    return f"the {kind} catalog file"


#: a dice expression (brutal_sim.core.dice): a number −100..100 or [N]dS[±B]
DICE_PATTERN = (r"^\s*(?:[+-]?(?:100|[0-9]{1,2})|(?:10|[1-9])?\s*[dDкК]\s*(?:20|12|10|8|6|4|3|2)"
                r"\s*(?:[+-]\s*(?:100|[0-9]{1,2}))?)\s*$")


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


def rules_schema(name: str, specs: tuple[OptionSpec, ...], file_tables: tuple[str, ...],
                 tables: dict[str, Schema]) -> Schema:
    """A rules file (``--rules FILE``) of ruleset ``name``: its top-level tables ``file_tables``,
    ``[options]`` from its option ``specs``; ``tables`` gives the schema of the ruleset's own tables."""
    options = {"type": "object", "additionalProperties": False,
               "properties": {s.name: option_schema(s) for s in specs},
               "description": f"rule options (brutal-sim list options --ruleset {name})"}
    known = {"options": options, "description": {"type": "string"}, **tables}
    return {"type": "object", "additionalProperties": False,
            "properties": {**{table: known.get(table, {}) for table in file_tables}, "costs": COSTS_SCHEMA}}


#: the ``[costs]`` table any rules file or scenario may carry (:mod:`brutal_sim.core.costs`)
COSTS_SCHEMA: Schema = {
    "type": "object", "additionalProperties": False,
    "description": "the price list: the cost of a stat step and of a catalog item (docs/reference.md#costs)",
    "properties": {
        "unit": {"type": "string", "maxLength": 40},
        "stats": {"type": "object", "additionalProperties": {"type": "number", "minimum": 0},
                  "description": "an adjustable stat (path or pattern) → the cost of one step up"},
        "items": {"type": "object", "additionalProperties": {"type": "number", "minimum": 0},
                  "description": "a catalog item's name → its price"},
    },
}


def case_insensitive(word: str) -> str:
    """A case-insensitive regex of ``word`` (JSON Schema patterns have no flags)."""
    return "".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else c for c in word)
