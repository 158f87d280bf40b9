"""``brutal-sim duel``, ``attack`` and ``weights``: one matchup of two fighters."""

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
    N_OPT,
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
    compile_notice,
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
    refuse_unknown_fighters,
    run_executor,
    set_entry,
    side_labels,
    under,
    verdict,
    warm_up,
    warm_up_paired,
    with_progress,
    with_sets,
)


@app.command()
def duel(
    a: str = typer.Argument(..., help="fighter a: catalog name or TOML file"),
    b: str = typer.Argument(..., help="fighter b: catalog name or TOML file"),
    n: int = N_OPT,
    seed: int = SEED_OPT,
    rules: Optional[str] = RULES_OPT,
    option: Optional[list[str]] = OPTION_OPT,
    threads: Optional[int] = THREADS_OPT,
    json_out: bool = JSON_OPT,
    tactic_a: Optional[str] = typer.Option(None, "--tactic-a", help="override a's tactic"),
    tactic_b: Optional[str] = typer.Option(None, "--tactic-b", help="override b's tactic"),
    reaction_a: Optional[str] = typer.Option(None, "--reaction-a", help="override a's reaction"),
    reaction_b: Optional[str] = typer.Option(None, "--reaction-b", help="override b's reaction"),
    ruleset: Optional[str] = RULESET_OPT,
    cluster: Optional[str] = CLUSTER_OPT,
    target_error: Optional[float] = TARGET_OPT,
    max_n: Optional[int] = MAX_N_OPT,
    show_options: bool = SHOW_OPTIONS_OPT,
    sets: Optional[list[str]] = SET_OPT,
) -> None:
    """Play N duels between two fighters (or as many as --target-error needs) and summarise win
    rates, rounds and defeat causes."""
    flags = parse_option_flags(option or [])
    refuse_unknown_fighters([(a, "fighter a"), (b, "fighter b")], ruleset)
    from .. import api
    from ..run.cluster import parse

    # validate everything before compiling anything
    n, prec = how_many(n, target_error, max_n)
    check_run(seed, threads)
    target = parse(cluster)
    changes = parse_sets(sets)
    (a,), (b,) = with_sets([a], [b], changes, ruleset)
    matchup = api.prepare(a, b, rules, flags, tactic_a, reaction_a, tactic_b, reaction_b, ruleset)
    rs = matchup[0]
    if target is None:  # on a cluster, the workers load the kernels
        warm_up(json_out, matchup[1].compiled)
    with run_executor(target, threads, json_out) as ex:
        result = with_progress("duels", n, 2_000_000, json_out, lambda progress:
                               api.duels([matchup], n, seed, threads, progress, executor=ex, precision=prec)[0],
                               local=target is None)
    data = {**result.to_dict(), **set_entry(changes)}
    if json_out:
        print_json(data)
        return
    _print_duel(data, rs, ruleset, show_options, changes, list(flags))


def _print_duel(d: dict[str, Any], rs: Any, asked: str | None, show_options: bool,
                changes: dict[str, dict[str, Any]], given: list[str] | None = None) -> None:
    rate = d["n"] / d["elapsed_s"] if d["elapsed_s"] > 0 else float("inf")
    out.print(f"[bold]{literal(d['a']['name'])}[/] (a) vs [bold]{literal(d['b']['name'])}[/] "
              f"(b) {literal(under(rs, asked))}: "
              f"{plural(d['n'], 'duel')}, seed {d['seed']}, {d['elapsed_s']:.2f} s ({rate:,.0f} duels/s, "
              f"{plural(d['threads'], 'thread')})", highlight=False)
    print_precision(d, "duels")
    out.print(f"tactics: a {d['a'].get('tactic', '?')} / {d['a'].get('reaction', '?')}, "
              f"b {d['b'].get('tactic', '?')} / {d['b'].get('reaction', '?')}", highlight=False, markup=False)
    t = Table(show_edge=False, pad_edge=False)
    for col, just in (("", "left"), ("wins", "right"), ("win rate", "right"), ("95 % CI (Wilson)", "right")):
        t.add_column(col, justify=just)  # type: ignore[arg-type]
    labels = side_labels(d)
    for key in ("a", "b"):
        s = d[key]
        add_row(t, labels[key], f"{s['wins']:,}", percent(s["win_rate"]),
                  f"{100 * s['ci95'][0]:.2f} – {100 * s['ci95'][1]:.2f} %")
    add_row(t, "draws", f"{d['draws']:,}", percent(d["draws"] / d["n"]), "")
    out.print(t)
    out.print(verdict(labels["a"], labels["b"], d["a"]["wins"], d["b"]["wins"], d["n"]), highlight=False, markup=False)
    r = d["rounds"]
    if r["mean"] is None:
        out.print("Rounds to decision: no duel was decided")
    else:
        out.print(f"Rounds to decision: mean {r['mean']:.2f}, median {r['p50']}, 90th percentile {r['p90']}")
    t = Table(title="How the losers went down", show_edge=False, pad_edge=False, title_justify="left")
    t.add_column("loser")
    # every cause that ended a duel (all of them when none did)
    causes = list(d["defeat_cause"])
    shown = [c for c in causes if d["defeat_cause"][c]] or causes
    for name in shown:
        t.add_column(literal(rs.counters.describe(name)), justify="right")
    t.add_column("of them died", justify="right")
    for key in ("a", "b"):
        s = d[key]
        losses = max(1, sum(s["defeat_cause"].values()))
        cells = [f"{s['defeat_cause'][c]:,} ({100 * s['defeat_cause'][c] / losses:.0f} %)" for c in shown]
        add_row(t, labels[key], *cells, f"{s['deaths']:,}")
    out.print(t)
    deaths = dict(rs.counters.descriptions).get("deaths")
    if deaths:
        out.print(f"of them died: {deaths}", highlight=False, markup=False, style="dim")
    print_sets(changes)
    print_options(d["options"], rs, show_options, given or ())


@app.command()
def attack(
    a: str = typer.Argument(..., help="attacker: catalog name or TOML file"),
    b: str = typer.Argument(..., help="defender: catalog name or TOML file"),
    exact: bool = typer.Option(True, "--exact/--sampled", help="enumerate exactly (default) or sample with -n"),
    n: Optional[int] = typer.Option(None, "-n", help="sample N attacks instead of enumerating"),
    seed: int = SEED_OPT,
    rules: Optional[str] = RULES_OPT,
    option: Optional[list[str]] = OPTION_OPT,
    threads: Optional[int] = THREADS_OPT,
    tactic: Optional[str] = typer.Option(None, "--tactic", help="override the attacker's tactic"),
    reaction: Optional[str] = typer.Option(None, "--reaction", help="override the defender's reaction"),
    shot: Optional[str] = typer.Option(None, "--shot", help="measure a shot of this kind instead of the tactic's "
                                       "(vereteno: hip, standard, aimed, burst, throw; wfrp2e: aimed, unaimed)"),
    json_out: bool = JSON_OPT,
    ruleset: Optional[str] = RULESET_OPT,
    show_options: bool = SHOW_OPTIONS_OPT,
    sets: Optional[list[str]] = SET_OPT,
) -> None:
    """Outcome distribution of one attack: miss/parried/dodged/hard block/hit, wound level, zone. At a
    distance, the first shot of the attacker's tactic in its first turn (after its moves, brace …),
    named in the header with the distance it is fired from; --shot measures another kind."""
    flags = parse_option_flags(option or [])
    refuse_unknown_fighters([(a, "fighter a"), (b, "fighter b")], ruleset)
    from .. import api

    if n is None and not exact:
        n = 1_000_000
    if n is not None:
        check_run(seed, threads, n, what="attacks")
    names = {**FLAGS, "tactic_a": "--tactic", "reaction_b": "--reaction", "shot": "--shot"}
    changes = parse_sets(sets)
    (a,), (b,) = with_sets([a], [b], changes, ruleset)
    matchup = api.prepare(a, b, rules, flags, tactic_a=tactic, reaction_b=reaction, ruleset=ruleset, names=names)
    if shot is not None:
        matchup = api.with_shot(matchup, shot, names)
    rs = matchup[0]
    # a tactic that makes no attack is refused before the compile; a shooter's check plays its first
    # turn up to its first shot (the ruleset's first-turn kernels, compiled on their first use)
    compile_notice(json_out, lambda: api.check_attack(matchup, names))
    if n is None:  # the enumeration is the run: compiled (or loaded) first, said once
        result = compile_notice(json_out, lambda: api.attack_of(matchup, seed=seed, threads=threads, names=names))
    else:
        warm_up(json_out, matchup[1].compiled, attacks=True)
        result = with_progress("attacks", n, 10_000_000, json_out, lambda progress: api.attack_of(
            matchup, n=n, seed=seed, threads=threads, names=names, progress=progress))
    data = {**result.to_dict(), **set_entry(changes)}
    if json_out:
        print_json(data)
        return
    how = "exact enumeration" if data["method"] == "exact" else f"{data['n']:,} sampled attacks, seed {data['seed']}"
    distance = int(data["options"].get("start_distance", 0))
    where = f" from {distance} m: " if distance else ": "
    if data["measured"]:  # the shot measured, and from where
        where = f": {literal(data['measured'])}; "
    out.print(f"[bold]{literal(data['attacker'])}[/] attacks ({literal(data['tactic'])}) "
              f"[bold]{literal(data['defender'])}[/] (reaction {literal(data['reaction'])}){where}{how}",
              highlight=False)
    t = Table(show_edge=False, pad_edge=False)
    t.add_column("outcome")
    t.add_column("probability", justify="right")
    for k in rs.counters.outcomes:
        add_row(t, rs.counters.describe(k), percent(data[f"p_{k}"]))
    out.print(t)
    t = Table(title="A blow that lands", show_edge=False, pad_edge=False,
              title_justify="left")
    t.add_column("wound level")
    t.add_column("share", justify="right")
    t.add_column("this or worse", justify="right")  # levels run from the lightest to the worst
    levels = list(data["wound_level"].items())
    for i, (k, v) in enumerate(levels):
        add_row(t, rs.counters.describe(k), percent(v), percent(sum(s for _, s in levels[i:])))
    out.print(t)
    out.print("zones: " + ", ".join(f"{k} {100 * v:.1f} %" for k, v in data["zone"].items()))
    out.print(f"mean final damage of a blow: {data['mean_damage']:.2f}; "
              f"per attack: {data['mean_damage_per_attack']:.2f}")
    print_sets(changes)
    print_options(data["options"], rs, show_options, flags)


@app.command()
def weights(
    a: str = typer.Argument(..., help="fighter a, whose stats are stepped: catalog name or TOML file"),
    b: str = typer.Argument(..., help="fighter b: catalog name or TOML file"),
    n: Optional[int] = typer.Option(None, "-n", help="duels per stat [default: 100,000]"),
    seed: int = SEED_OPT,
    rules: Optional[str] = RULES_OPT,
    option: Optional[list[str]] = OPTION_OPT,
    threads: Optional[int] = THREADS_OPT,
    json_out: bool = JSON_OPT,
    ruleset: Optional[str] = RULESET_OPT,
    target_error: Optional[float] = typer.Option(None, "--target-error", help="play each stat until its changes' 95 % "
                                                 "half-width is at most this many percentage points; instead of -n"),
    max_n: Optional[int] = MAX_N_OPT,
    show_options: bool = SHOW_OPTIONS_OPT,
    sets: Optional[list[str]] = SET_OPT,
) -> None:
    """Stat weights: how much a's win rate against b changes when each of a's numeric stats goes one
    step down or up (paired runs, 95 % intervals), largest first."""
    flags = parse_option_flags(option or [])
    refuse_unknown_fighters([(a, "fighter a"), (b, "fighter b")], ruleset)
    from .. import api, designer
    from ..core.costs import singular

    n, _prec = how_many(n, target_error, max_n)
    check_run(seed, threads)
    changes = parse_sets(sets)
    (a,), (b,) = with_sets([a], [b], changes, ruleset)
    rs, base = api.prepare(a, b, rules, flags, ruleset=ruleset)
    warm_up_paired(json_out, [base.compiled, base.compiled])  # each stat's steps play a's kernel set
    w = with_progress("duels", n, 2_000_000, json_out, lambda progress: designer.stat_weights(
        a, b, n, seed, flags, rules, ruleset, threads, target_error=target_error,
        max_n=api.MAX_N_DEFAULT if max_n is None else max_n, progress=progress))
    data = {**w.to_dict(), **set_entry(changes)}
    if json_out:
        print_json(data)
        return
    out.print(f"[bold]{literal(w.a)}[/] against [bold]{literal(w.b)}[/]: change of {literal(w.a)}'s win rate when one "
              f"stat changes ({literal(w.ruleset)}, seed {seed}, paired runs)", highlight=False)
    print_precision({**data, "n": int(w.rows["n"].max())}, "duels per stat")
    t = Table(show_edge=False, pad_edge=False)
    priced = any(r["cost"] is not None for r in data["rows"])
    columns = [("stat", "left"), ("change", "left"), ("Δ win rate", "right"), ("95 % CI", "right"), ("duels", "right")]
    if priced:  # the price list in force (core.costs): each step's cost and its gain per unit
        columns += [(w.unit, "right"), (f"Δ per {singular(w.unit)}", "right")]
    for col, just in columns:
        t.add_column(col, justify=just)  # type: ignore[arg-type]
    idle = [r for r in data["rows"] if r["delta"] == 0 and r["ci95"][0] == 0 and r["ci95"][1] == 0]
    for r in data["rows"]:
        if r in idle:
            continue
        lo, hi = r["ci95"]
        cells = [r["stat"], f"{r['from']} → {r['to']}", f"{100 * r['delta']:+.2f} pt",
                 f"{100 * lo:+.2f} … {100 * hi:+.2f}", f"{r['n']:,}"]
        if priced:
            cost, per = r["cost"], r["per_point"]
            cells += ["" if cost is None else f"{cost:+g}", "" if per is None else f"{100 * per:.3g}"]
        add_row(t, *cells)
    out.print(t)
    if idle:  # a step that changes no duel (a stat this matchup never rolls) is no row of the table
        out.print(f"changed no duel: {', '.join(sorted({r['stat'] for r in idle}))} (in --json with 0 … 0)",
                  highlight=False, markup=False, style="dim")
    from ..results.findings import weight_findings

    verdict = weight_findings([w])
    if verdict:
        out.print("verdict: " + verdict[0], highlight=False, markup=False)
    print_sets(changes)
    print_options(data["options"], rs, show_options, flags)
