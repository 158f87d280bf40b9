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
    literal,
    out,
)


@app.command("list")
def list_(what: str = typer.Argument("fighters", help="fighters | weapons | armour | talents | tactics | options | "
                                                      "costs | rulesets (topics depend on the ruleset)"),
          pattern: Optional[str] = typer.Argument(None, help="only the rows whose text holds this (any case), "
                                                  "e.g. `list options cover`"),
          ruleset: str = typer.Option("brutal", "--ruleset", help="whose catalog to list"),
          json_out: bool = typer.Option(False, "--json",
                                        help="print one JSON object: the columns and the rows")) -> None:
    """List a ruleset's bundled catalog, its rule options, or the rulesets."""
    from ..core.ruleset import did_you_mean, get_ruleset, ruleset_names

    if what == "rulesets":
        columns: tuple[str, ...] = ("ruleset", "title", "plays", "fighters")
        rows = [(name, get_ruleset(name).title, _plays(get_ruleset(name)), ", ".join(get_ruleset(name).fighter_names()))
                for name in ruleset_names()]
    else:
        rs = get_ruleset(ruleset)
        if what == "options":
            columns = ("option", "rule", "default", "allowed", "meaning")
            rows = [(s.name, s.rule, str(s.default), s.allowed or f"{s.default} | PATH", s.help)
                    for s in rs.option_specs]
        elif what == "costs":  # the bundled price list (core.costs): a rules file's [costs] overrides it
            from ..core.costs import bundled_costs

            costs = bundled_costs(rs)
            columns = ("priced", "kind", costs.unit)
            rows = [*((path, "stat step", f"{cost:g}") for path, cost in costs.stats.items()),
                    *((name, "item", f"{cost:g}") for name, cost in costs.items.items())]
        else:
            listings = rs.listings()
            if what not in listings:
                topics = [*listings, "options", "costs", "rulesets"]
                fail(f"list: unknown topic {what!r} for the {rs.name} ruleset; {did_you_mean(what, topics)}allowed: "
                     f"{', '.join(topics)}")
            columns, rows = tuple(listings[what].columns), [tuple(r) for r in listings[what].rows]
    if pattern is not None:
        needle = pattern.casefold()
        rows = [r for r in rows if any(needle in str(c).casefold() for c in r)]
    if json_out:
        print(json.dumps({"topic": what, "columns": list(columns), "rows": [list(map(str, r)) for r in rows]},
                         ensure_ascii=False))
        return
    if what == "costs" and not rows and pattern is None:
        out.print(f"the {ruleset} ruleset bundles no price list: give one as a [costs] table in a rules file or a "
                  "scenario (docs/reference.md, Costs)", highlight=False, markup=False)
        return
    t, dropped = fitted_table(columns, rows, out.width)
    out.print(t)
    if dropped:
        out.print(f"(at {out.width} columns: {', '.join(dropped)} left out; a wider terminal or --json shows them)",
                  highlight=False, markup=False, style="dim")


def _plays(rs: object) -> str:
    """What a ruleset plays, in words: duels in melee, and its capabilities."""
    words = {"distance": "at a distance", "fights": "group fights"}
    return ", ".join(["duels in melee", *(w for k, w in words.items() if rs.plays(k))])  # type: ignore[attr-defined]


def fitted_table(columns: tuple[str, ...], rows: list[tuple], width: int) -> tuple[Table, list[str]]:
    """A table of ``rows`` that fits ``width`` columns without cutting a name: the first column (the
    name one types next) never wraps nor shrinks below its longest name; the others wrap at their
    spaces, and while the table cannot fit with each at its longest word, the last of them (the
    least useful) is left out. Returns the table and the columns left out."""
    from rich.cells import cell_len

    def longest(texts: list[str], split: bool) -> int:
        return max((cell_len(w) for t in texts for w in (t.split() if split else [t])), default=1)

    cells = [[literal(c) for c in row] for row in rows]
    least = [longest([columns[0], *(r[0] for r in cells)], split=False)]
    least += [longest([columns[k], *(r[k] for r in cells if k < len(r))], split=True) for k in range(1, len(columns))]
    natural = [longest([columns[k], *(r[k] for r in cells if k < len(r))], split=False) for k in range(len(columns))]
    keep = len(columns)
    while keep > 1 and sum(least[:keep]) + 3 * keep + 1 > width:  # a cell's padding and rule: 3, the edge: 1
        keep -= 1
    # each kept column at least its longest word; the room left shared by what the columns lack
    room = max(0, width - (sum(least[:keep]) + 3 * keep + 1))
    lack = [natural[k] - least[k] for k in range(keep)]
    widths = [least[k] + (room * lack[k] // sum(lack) if sum(lack) > room else lack[k]) for k in range(keep)]
    t = Table()
    t.add_column(columns[0], no_wrap=True, width=widths[0])
    for k in range(1, keep):
        t.add_column(columns[k], width=widths[k])
    for row in rows:
        add_row(t, *row[:keep])
    return t, list(columns[keep:])


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
