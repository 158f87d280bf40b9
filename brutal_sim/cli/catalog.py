"""``brutal-sim list``, ``schema`` and ``version``: what the package holds."""

from __future__ import annotations


import typer
from rich.table import Table

from .. import __version__
from .base import (
    app,
    out,
    fail,
    add_row,
)


@app.command("list")
def list_(what: str = typer.Argument("fighters", help="fighters | weapons | armour | talents | tactics | options | "
                                                      "rulesets (topics depend on the ruleset)"),
          ruleset: str = typer.Option("brutal", "--ruleset", help="whose catalog to list")) -> None:
    """List a ruleset's bundled catalog, its rule options, or the rulesets."""
    from ..core.ruleset import get_ruleset, ruleset_names

    if what == "rulesets":
        t = Table("ruleset", "title", "fighters")
        for name in ruleset_names():
            r = get_ruleset(name)
            add_row(t, name, r.title, ", ".join(r.fighter_names()))
        out.print(t)
        return
    rs = get_ruleset(ruleset)
    if what == "options":
        t = Table("option", "rule", "default", "allowed", "meaning", show_lines=False)
        for s in rs.option_specs:
            allowed = s.allowed or f"{s.default} | PATH"
            add_row(t, s.name, s.rule, str(s.default), allowed, s.help)
        out.print(t)
        return
    listings = rs.listings()
    if what not in listings:
        fail(f"list: unknown topic {what!r} for the {rs.name} ruleset; allowed: "
              f"{', '.join([*listings, 'options', 'rulesets'])}")
    table = listings[what]
    t = Table(*table.columns)
    for row in table.rows:
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
