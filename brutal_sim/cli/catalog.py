"""``brutal-sim list``, ``schema`` and ``version``: what the package holds."""

from __future__ import annotations

import json
from typing import Optional

import typer
from rich.table import Table

from .. import __version__
from .base import (
    add_row,
    app,
    fail,
    out,
)


@app.command("list")
def list_(what: str = typer.Argument("fighters", help="fighters | weapons | armour | talents | tactics | options | "
                                                      "rulesets (topics depend on the ruleset)"),
          pattern: Optional[str] = typer.Argument(None, help="only the rows whose text holds this (any case), "
                                                  "e.g. `list options cover`"),
          ruleset: str = typer.Option("brutal", "--ruleset", help="whose catalog to list"),
          json_out: bool = typer.Option(False, "--json",
                                        help="print one JSON object: the columns and the rows")) -> None:
    """List a ruleset's bundled catalog, its rule options, or the rulesets."""
    from ..core.ruleset import get_ruleset, ruleset_names

    if what == "rulesets":
        columns: tuple[str, ...] = ("ruleset", "title", "fighters")
        rows = [(name, get_ruleset(name).title, ", ".join(get_ruleset(name).fighter_names()))
                for name in ruleset_names()]
    else:
        rs = get_ruleset(ruleset)
        if what == "options":
            columns = ("option", "rule", "default", "allowed", "meaning")
            rows = [(s.name, s.rule, str(s.default), s.allowed or f"{s.default} | PATH", s.help)
                    for s in rs.option_specs]
        else:
            listings = rs.listings()
            if what not in listings:
                fail(f"list: unknown topic {what!r} for the {rs.name} ruleset; allowed: "
                     f"{', '.join([*listings, 'options', 'rulesets'])}")
            columns, rows = tuple(listings[what].columns), [tuple(r) for r in listings[what].rows]
    if pattern is not None:
        needle = pattern.casefold()
        rows = [r for r in rows if any(needle in str(c).casefold() for c in r)]
    if json_out:
        print(json.dumps({"topic": what, "columns": list(columns), "rows": [list(map(str, r)) for r in rows]},
                         ensure_ascii=False))
        return
    t = Table(*columns)
    for row in rows:
        add_row(t, *row)
    out.print(t)


@app.command("schema")
def schema_(kind: str = typer.Argument(..., help="fighter | weapons | armour | talents | tactics | rules | scenario "
                                                 "| … (kinds depend on the ruleset)"),
            ruleset: str = typer.Option("brutal", "--ruleset", help="whose files")) -> None:
    """Print the JSON Schema of a kind of input file, for editors (docs/reference.md, "Schemas for editors")."""
    from ..schema import schema_text

    print(schema_text(kind, ruleset), end="")


def _print_version(value: bool) -> None:
    if value:
        out.print(__version__, highlight=False)
        raise typer.Exit()


@app.callback()
def _main(version: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                       help="print the version and exit")) -> None:
    """Monte-Carlo balance analysis of tabletop combat rules (Brutal, WFRP 2e, Звёздное Веретено)."""


@app.command()
def version() -> None:
    """Print the version."""
    out.print(__version__)
