"""``brutal-sim suggest``: the changes of a matchup's fighters that bring it nearest a target win
rate, each played (:func:`brutal_sim.suggest.suggest`)."""

from __future__ import annotations

from typing import Optional

import typer
from rich.table import Table

from ..core.options import parse_option_flags
from .base import (
    JSON_OPT,
    OPTION_OPT,
    RULES_OPT,
    RULESET_OPT,
    SEED_OPT,
    SET_OPT,
    SHOW_OPTIONS_OPT,
    THREADS_OPT,
    add_row,
    app,
    check_run,
    fail,
    how_many,
    literal,
    out,
    parse_sets,
    print_json,
    print_options,
    print_sets,
    refuse_unknown_fighters,
    set_entry,
    warm_up_paired,
    with_progress,
    with_sets,
)


@app.command()
def suggest(
    a: str = typer.Argument(..., help="fighter a: catalog name or TOML file"),
    b: str = typer.Argument(..., help="fighter b: catalog name or TOML file"),
    target: float = typer.Option(50.0, "--target", help="the win rate of side a to reach, in percent"),
    budget: Optional[float] = typer.Option(None, "--budget", help="the most a suggestion may cost (the price list's "
                                           "unit, e.g. points); also tries triples of changes"),
    side: str = typer.Option("a", "--side", help="the side whose fighter changes: a | b | both"),
    n: Optional[int] = typer.Option(None, "-n", help="duels per suggestion [default: 50,000]"),
    verify: int = typer.Option(16, "--verify", help="combinations of each size played (the nearest by their singles)"),
    shown: int = typer.Option(10, "--show", help="suggestions listed"),
    stat: Optional[list[str]] = typer.Option(None, "--stat", help="step only this stat (a path or a pattern as "
                                             "`weights` lists them; repeatable) [default: every adjustable stat]"),
    item: Optional[list[str]] = typer.Option(None, "--item", help="try the catalog's items only in this item slot "
                                             "(repeatable; `--item none`: no item) [default: every slot]"),
    seed: int = SEED_OPT,
    rules: Optional[str] = RULES_OPT,
    option: Optional[list[str]] = OPTION_OPT,
    threads: Optional[int] = THREADS_OPT,
    json_out: bool = JSON_OPT,
    ruleset: Optional[str] = RULESET_OPT,
    show_options: bool = SHOW_OPTIONS_OPT,
    sets: Optional[list[str]] = SET_OPT,
) -> None:
    """Suggested fixes: the single changes of one side (a stat step, a die size, an item of the catalog
    in one of its slots) and their pairs (with --budget also triples) that bring a's win rate against b
    nearest --target, each played on the same duels as the matchup, with its interval and its cost
    from the price list."""
    flags = parse_option_flags(option or [])
    refuse_unknown_fighters([(a, "fighter a"), (b, "fighter b")], ruleset)
    if shown < 1:
        fail(f"--show: {shown}: at least 1")
    from .. import api
    from ..suggest import suggest as find

    n, _prec = how_many(n if n is not None else 50_000, None, None)
    check_run(seed, threads)
    changes = parse_sets(sets)
    (a,), (b,) = with_sets([a], [b], changes, ruleset)
    rs, base = api.prepare(a, b, rules, flags, ruleset=ruleset)
    warm_up_paired(json_out, [base.compiled, base.compiled])
    s = with_progress("duels", n, 2_000_000, json_out, lambda progress: find(
        a, b, target, budget, side, n, seed, verify, shown, flags, rules, ruleset, stats=stat or None,
        items=None if not item else [x for x in item if x != "none"], threads=threads, progress=progress))
    data = {**s.to_dict(), **set_entry(changes)}
    if json_out:
        print_json(data)
        return
    out.print(f"[bold]{literal(s.a)}[/] against [bold]{literal(s.b)}[/]: changes of side {side} toward "
              f"{target:g} % ({literal(s.ruleset)}, seed {seed}, {n:,} duels each on the same duels)", highlight=False)
    t = Table(show_edge=False, pad_edge=False)
    for col, just in (("#", "right"), ("changes", "left"), ("win rate", "right"), ("95 % CI", "right"),
                      ("Δ", "right"), (s.unit, "right"), ("reaches", "left")):
        t.add_column(col, justify=just)  # type: ignore[arg-type]
    for r in data["suggestions"]:
        lo, hi = r["ci95"]
        add_row(t, str(r["rank"]), r["changes"], f"{100 * r['win_rate']:.2f} %", f"{100 * lo:.2f} – {100 * hi:.2f} %",
                f"{100 * r['delta']:+.2f} pt", "" if r["cost"] is None else f"{r['cost']:+g}",
                "yes" if r["reaches"] else "")
    out.print(t)
    out.print("verdict: " + s.verdict(), highlight=False, markup=False)
    print_sets(changes)
    print_options(data["options"], rs, show_options, flags)
