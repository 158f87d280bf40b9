"""``brutal-sim fight``: group fights of several fighters a side (rulesets that play them)."""

from __future__ import annotations

from typing import Any, Optional

import typer
from rich.table import Table

from ..core.options import parse_option_flags
from .base import (
    CLUSTER_OPT,
    FLAGS,
    JSON_OPT,
    MAX_N_OPT,
    OPTION_OPT,
    RULES_OPT,
    RULESET_OPT,
    SEED_OPT,
    SET_OPT,
    SHOW_OPTIONS_OPT,
    TARGET_OPT,
    THREADS_OPT,
    add_row,
    app,
    check_run,
    how_many,
    literal,
    out,
    parse_sets,
    percent,
    plural,
    print_json,
    print_options,
    print_precision,
    print_sets,
    run_executor,
    set_entry,
    under,
    verdict,
    warm_up,
    with_progress,
    with_sets,
)


@app.command()
def fight(
    fighters: list[str] = typer.Argument(..., help="side a's fighters, then vs, then side b's: catalog names or "
                                         "TOML files, NAME*N repeats one (e.g. knight vs militia*3); 1 … 6 a side"),
    n: Optional[int] = typer.Option(None, "-n", help="number of fights [default: 100,000]"),
    seed: int = SEED_OPT,
    rules: Optional[str] = RULES_OPT,
    option: Optional[list[str]] = OPTION_OPT,
    threads: Optional[int] = THREADS_OPT,
    json_out: bool = JSON_OPT,
    targeting_a: Optional[str] = typer.Option(None, "--targeting-a", help="override the targeting of every fighter "
                                              "of side a: spread | weakest | nearest"),
    targeting_b: Optional[str] = typer.Option(None, "--targeting-b", help="the same for side b"),
    cluster: Optional[str] = CLUSTER_OPT,
    target_error: Optional[float] = TARGET_OPT,
    max_n: Optional[int] = MAX_N_OPT,
    ruleset: Optional[str] = RULESET_OPT,
    show_options: bool = SHOW_OPTIONS_OPT,
    sets: Optional[list[str]] = SET_OPT,
) -> None:
    """Play N group fights (1 … 6 fighters a side; docs/groups.md) under a ruleset that plays them
    (`brutal-sim list rulesets`): side win rates, rounds, survivors and each fighter's fate."""
    flags = parse_option_flags(option or [])
    from .. import api
    from ..core.ruleset import get_ruleset
    from ..core.sides import split_sides
    from ..run.cluster import parse

    side_a, side_b = split_sides(fighters)
    n, prec = how_many(n, target_error, max_n, what="fights")
    check_run(seed, threads)
    target = parse(cluster)
    changes = parse_sets(sets)
    if changes["a"] or changes["b"]:  # each fighter of a side changed: NAME*N first made N fighters
        from ..core.sides import expand_side

        side_a, side_b = with_sets(expand_side(side_a, "fight", "side a"), expand_side(side_b, "fight", "side b"),
                                   changes, ruleset)
    prepared = api.prepare_fight(side_a, side_b, rules, flags, targeting_a, targeting_b, names=FLAGS, ruleset=ruleset)
    if target is None:
        warm_up(json_out, prepared.compiled)
    with run_executor(target, threads, json_out) as ex:
        result = with_progress("fights", n, 1_000_000, json_out, lambda progress:
                               api.fights([prepared], n, seed, threads, progress, executor=ex, precision=prec)[0],
                               local=target is None)
    data = {**result.to_dict(), **set_entry(changes)}
    if json_out:
        print_json(data)
        return
    _print_fight(data, get_ruleset(prepared.ruleset), ruleset, show_options, list(flags))
    print_sets(changes)


def _print_fight(d: dict[str, Any], rs: Any, asked: str | None, show_options: bool,
                 given: list[str] | None = None) -> None:
    rate = d["n"] / d["elapsed_s"] if d["elapsed_s"] > 0 else float("inf")
    out.print(f"[bold]{literal(d['a']['name'])}[/] (a) vs [bold]{literal(d['b']['name'])}[/] "
              f"(b) {literal(under(rs, asked))}: "
              f"{plural(d['n'], 'fight')}, seed {d['seed']}, {d['elapsed_s']:.2f} s ({rate:,.0f} fights/s, "
              f"{plural(d['threads'], 'thread')})", highlight=False)
    print_precision(d, "fights")
    t = Table(show_edge=False, pad_edge=False)
    for col, just in (("side", "left"), ("wins", "right"), ("win rate", "right"), ("95 % CI (Wilson)", "right")):
        t.add_column(col, justify=just)  # type: ignore[arg-type]
    for key in ("a", "b"):
        s = d[key]
        add_row(t, f"{s['name']} ({key})", f"{s['wins']:,}", percent(s["win_rate"]),
                  f"{100 * s['ci95'][0]:.2f} – {100 * s['ci95'][1]:.2f} %")
    add_row(t, "draws", f"{d['draws']:,}", percent(d["draw_rate"]),
              f"{100 * d['draw_ci95'][0]:.2f} – {100 * d['draw_ci95'][1]:.2f} %")
    out.print(t)
    out.print(verdict(f"{d['a']['name']} (a)", f"{d['b']['name']} (b)", d["a"]["wins"], d["b"]["wins"], d["n"]),
              highlight=False, markup=False)
    r = d["rounds"]
    if r["mean"] is None:
        out.print("Rounds to decision: no fight was decided")
    else:
        out.print(f"Rounds to decision: mean {r['mean']:.2f}, median {r['p50']}, 90th percentile {r['p90']}")
    size = max(len(d["a"]["fighters"]), len(d["b"]["fighters"]))
    t = Table(title="Still in at the end (share of fights)", show_edge=False, pad_edge=False, title_justify="left")
    t.add_column("side")
    for k in range(size + 1):
        t.add_column(str(k), justify="right")
    t.add_column("mean", justify="right")
    for key in ("a", "b"):
        s = d[key]
        cells = [percent(c / d["n"]).strip() for c in s["survivors"]]
        add_row(t, s["name"], *cells, *[""] * (size + 1 - len(cells)), f"{s['survivors_mean']:.2f}")
    out.print(t)
    def short(x: float) -> str:
        return f"{100 * x:.1f}%"

    t = Table(title="Fighters (share of fights; damage: mean final damage per fight)", show_edge=False,
              pad_edge=False, title_justify="left")
    for col, just in (("fighter", "left"), ("place", "left"), ("tactic", "left"), ("target", "left"),
                      ("standing", "right"), ("out", "right"), ("died", "right"), ("dealt", "right"),
                      ("taken", "right")):
        t.add_column(col, justify=just)  # type: ignore[arg-type]
    for f in d["fighters"]:
        add_row(t, f["name"], f"{f['side']}{f['rank'] + 1}", f.get("tactic", "?"), f.get("targeting", "?"),
                  short(f["standing_rate"]), short(f["out_total_rate"]), short(f["death_rate"]),
                  f"{f['damage_dealt_mean']:.2f}", f"{f['damage_taken_mean']:.2f}")
    out.print(t)
    causes = list(rs.counters.causes)
    shown = [c for c in causes if any(f["out"][c] for f in d["fighters"])] or causes
    t = Table(title="How the fighters went out (share of fights)", show_edge=False, pad_edge=False,
              title_justify="left")
    t.add_column("fighter")
    t.add_column("place")
    for name in shown:
        t.add_column(literal(rs.counters.describe(name)), justify="right")
    for f in d["fighters"]:
        add_row(t, f["name"], f"{f['side']}{f['rank'] + 1}", *[short(f["out_rate"][c]) for c in shown])
    out.print(t)
    print_options(d["options"], rs, show_options, given or ())
