"""``brutal-sim gauntlet`` and ``headcount``: leaderboards of the items of one slot, and how many of
one fighter make a fair fight for another."""

from __future__ import annotations

import time
from typing import Any, Optional

import typer
from rich.table import Table

from ..core.errors import DataError
from ..core.options import parse_option_flags
from .base import (
    JSON_OPT,
    MAX_N_OPT,
    OPTION_OPT,
    RULES_OPT,
    RULESET_OPT,
    SEED_OPT,
    SHOW_OPTIONS_OPT,
    TARGET_OPT,
    THREADS_OPT,
    add_row,
    app,
    check_run,
    compile_notice,
    err,
    fail,
    how_many,
    literal,
    out,
    percent,
    plural,
    print_json,
    print_options,
    refuse_unknown_fighters,
    under,
    with_progress,
    writing,
)


def _listed(values: list[str] | None) -> list[str] | None:
    """Repeated and comma-separated values as one list (None when none is given)."""
    if not values:
        return None
    return [v.strip() for text in values for v in text.split(",") if v.strip()]


@app.command()
def gauntlet(
    fighter: str = typer.Argument(..., help="the fighter whose item is swapped: catalog name or TOML file"),
    vary: str = typer.Option(..., "--vary", help="the item slot to fill with each item in turn (brutal: main_hand, "
                             "off_hand, armour, talent, tactic; wfrp2e: main_hand, off_hand, missile, armour, talent, "
                             "tactic; vereteno: weapon, gun, armour, shield, tactic)"),
    against: Optional[list[str]] = typer.Option(None, "--against", help="an opponent (catalog name or TOML file; "
                                                "repeatable or comma-separated) [default: every other bundled "
                                                "fighter of the ruleset]"),
    values: Optional[list[str]] = typer.Option(None, "--values", help="only these items (repeatable or "
                                               "comma-separated; none empties the slot) [default: every catalog "
                                               "item that fits]"),
    n: Optional[int] = typer.Option(None, "-n", help="duels per item and opponent [default: 20,000]"),
    seed: int = SEED_OPT,
    rules: Optional[str] = RULES_OPT,
    option: Optional[list[str]] = OPTION_OPT,
    threads: Optional[int] = THREADS_OPT,
    json_out: bool = JSON_OPT,
    ruleset: Optional[str] = RULESET_OPT,
    target_error: Optional[float] = TARGET_OPT,
    max_n: Optional[int] = MAX_N_OPT,
    csv: Optional[str] = typer.Option(None, "--csv", help="also write the table as a CSV file, e.g. gauntlet.csv"),
    show_options: bool = SHOW_OPTIONS_OPT,
) -> None:
    """A leaderboard of one item slot: the fighter with every item that fits the slot (or each of
    --values) against every fighter of the pool on the same duels, the mean win rate over the pool
    with its 95 % interval, best first; the item it holds now marked."""
    flags = parse_option_flags(option or [])
    pool = _listed(against)
    refuse_unknown_fighters([(fighter, "fighter"), *((r, "--against") for r in pool or [])], ruleset)
    from pathlib import Path

    from .. import api, designer
    from ..core.ruleset import NO_ITEM, resolve_ruleset
    from ..outputs import check_file, csv_text, staged

    n, _prec = how_many(n if n is not None or target_error is not None else 20_000, target_error, max_n)
    check_run(seed, threads)
    rs = resolve_ruleset([fighter, *(pool or [])], ruleset)
    rs.item_slot(vary, "--vary")
    if csv:
        check_file("--csv", csv, [Path(p) for p in (rules, fighter, *(pool or [])) if p])
    names = {"values": "--values", "against": "--against", "vary": "--vary"}

    def play(count: int | None, progress: Any = None) -> Any:
        with api.named_errors(names):
            return designer.gauntlet(fighter, vary, pool, _listed(values), count or 1, seed, flags, rules, rs.name,
                                     threads, target_error=None if count is None else target_error,
                                     max_n=api.MAX_N_DEFAULT if max_n is None else max_n, progress=progress)

    compile_notice(json_out, lambda: play(None))  # checks every item and compiles what the run plays
    start = time.perf_counter()
    g = with_progress("duels", n, 2_000_000, json_out, lambda progress: play(n, progress))
    elapsed = time.perf_counter() - start
    if csv:
        try:
            with writing(), staged() as stage:
                stage.file("--csv", csv, csv_text(g.frame()))
        except OSError as exc:
            fail(f"cannot write: {exc.strerror or exc}: {exc.filename or csv}")
    data = {**g.to_dict(), "elapsed_s": round(elapsed, 3)}
    if json_out:
        print_json(data)
        return
    out.print(f"[bold]{literal(g.fighter)}[/] with each {literal(g.slot)} against {plural(len(g.pool), 'fighter')} "
              f"{literal(under(rs, ruleset))}: {g.played:,} duels, seed {seed}, {elapsed:.2f} s, the same duels for "
              "every item", highlight=False)
    out.print("pool: " + literal(", ".join(g.pool)), highlight=False, style="dim")
    if g.precision:
        out.print(f"each opponent to ±{100 * g.precision['target_error']:.3g} points: "
                  f"{'met' if g.precision['target_met'] else 'NOT met by --max-n'}", highlight=False, markup=False)
    t = Table(show_edge=False, pad_edge=False)
    for col, just in (("#", "right"), (g.slot, "left"), ("mean win rate", "right"), ("95 % CI", "right"),
                      ("vs held", "right"), ("paired 95 % CI", "right"), ("duels each", "right")):
        t.add_column(col, justify=just)  # type: ignore[arg-type]
    for k, r in enumerate(data["rows"], start=1):
        lo, hi = r["ci95"]
        held = (" (as is)" if r["item"] == NO_ITEM else " (held)") if r["baseline"] else ""
        add_row(t, str(k), r["item"] + held, percent(r["win_rate"]),
                f"{100 * lo:.2f} – {100 * hi:.2f} %", "" if r["baseline"] else f"{100 * r['delta']:+.2f} pt",
                "" if r["baseline"] else "{:+.2f} … {:+.2f}".format(*(100 * x for x in r["delta_ci95"])),
                f"{r['n']:,}")
    out.print(t)
    if g.left_out:
        first, why = next(iter(g.left_out.items()))
        out.print(literal(f"left out of {g.slot} ({len(g.left_out)}): {', '.join(g.left_out)}; e.g. "
                          f"{first}: {why} (--json: left_out)"), highlight=False, style="dim")
    out.print("verdict: " + g.verdict(), highlight=False, markup=False)
    print_options(data["options"], rs, show_options, flags)
    if csv:
        err.print(f"wrote the table to {csv}", highlight=False, markup=False)


@app.command()
def headcount(
    one: str = typer.Argument(..., help="the lone fighter: catalog name or TOML file"),
    many: str = typer.Argument(..., help="the fighter that comes in numbers: catalog name or TOML file"),
    max_count: int = typer.Option(6, "--max", help="the largest count of MANY tried (1 … 6 a side)"),
    n: Optional[int] = typer.Option(None, "-n", help="group fights per count [default: 20,000]"),
    seed: int = SEED_OPT,
    rules: Optional[str] = RULES_OPT,
    option: Optional[list[str]] = OPTION_OPT,
    threads: Optional[int] = THREADS_OPT,
    json_out: bool = JSON_OPT,
    ruleset: Optional[str] = RULESET_OPT,
    target_error: Optional[float] = TARGET_OPT,
    max_n: Optional[int] = MAX_N_OPT,
    show_options: bool = SHOW_OPTIONS_OPT,
) -> None:
    """How many of MANY make a fair fight for one ONE: group fights of 1 against 1, 2, … --max on
    the same random numbers, ONE's win rate at each count with its 95 % interval, the smallest
    count that wins more than half and the count nearest an even fight."""
    flags = parse_option_flags(option or [])
    refuse_unknown_fighters([(one, "one"), (many, "many")], ruleset)
    from .. import api, designer
    from ..core.counters import MAX_SIDE
    from ..core.ruleset import resolve_ruleset

    if not 1 <= max_count <= MAX_SIDE:
        raise DataError("--max", None, f"expected a count 1 … {MAX_SIDE} (fighters a side), got {max_count}")
    n, _prec = how_many(n if n is not None or target_error is not None else 20_000, target_error, max_n, "fights")
    check_run(seed, threads)
    rs = resolve_ruleset([one, many], ruleset)
    rs.require("fights", "headcount")

    def play(count: int | None) -> Any:
        return designer.headcount(one, many, max_count, count or 1, seed, flags, rules, rs.name, threads,
                                  target_error=None if count is None else target_error,
                                  max_n=api.MAX_N_DEFAULT if max_n is None else max_n)

    compile_notice(json_out, lambda: play(None))
    start = time.perf_counter()
    h = with_progress("fights", n, 10**12, json_out, lambda _progress: play(n))
    elapsed = time.perf_counter() - start
    data = {**h.to_dict(), "elapsed_s": round(elapsed, 3)}
    if json_out:
        print_json(data)
        return
    out.print(f"One [bold]{literal(h.one)}[/] against 1 … {max_count} [bold]{literal(h.many)}[/] "
              f"{literal(under(rs, ruleset))}: {plural(int(h.rows['n'].iloc[0]), 'fight')} per count, seed {seed}, "
              f"{elapsed:.2f} s, the same random numbers for every count", highlight=False)
    t = Table(show_edge=False, pad_edge=False)
    for col, just in (("count", "right"), (f"{h.one} wins", "right"), ("95 % CI (Wilson)", "right"),
                      (f"{h.many} win", "right"), ("draws", "right"), ("", "left")):
        t.add_column(literal(col), justify=just)  # type: ignore[arg-type]
    for r in data["rows"]:
        lo, hi = r["ci95"]
        mark = ", ".join(w for w, k in (("smallest that wins", h.smallest), ("nearest even", h.even))
                         if k == r["count"])
        add_row(t, str(r["count"]), percent(r["win_rate"]), f"{100 * lo:.2f} – {100 * hi:.2f} %",
                percent(r["many_win_rate"]), percent(r["draw_rate"]), mark)
    out.print(t)
    out.print("verdict: " + h.verdict(), highlight=False, markup=False)
    print_options(data["options"], rs, show_options, flags)
