"""The ``brutal-sim`` command line: ``duel``, ``attack`` and ``list``.

Bad input of any kind prints one line (``error: FILE: FIELD: what is allowed``) and exits 2.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any, Callable, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from . import __version__
from .errors import DataError
from .options import OPTION_SPECS, parse_option_flags

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Monte-Carlo balance analysis for the Brutal combat rules.")
out = Console()
err = Console(stderr=True)

N_OPT = typer.Option(100_000, "-n", help="number of duels")
SEED_OPT = typer.Option(0, "--seed", help="random seed (0 … 2**64−1)")
RULES_OPT = typer.Option(None, "--rules", help="rules TOML file with \\[options], \\[zone_table], \\[check_formula]")
OPTION_OPT = typer.Option(None, "--option", help="rule option key=value (repeatable); see `brutal-sim list options`")
THREADS_OPT = typer.Option(None, "--threads", help="numba threads (default: all cores)")
JSON_OPT = typer.Option(False, "--json", help="print one JSON object instead of the summary")


def _fail(message: str) -> None:
    err.print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)
    raise typer.Exit(2)


def _guard(fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except DataError as exc:
        _fail(str(exc))


def _warm_up(json_mode: bool, kind: str = "duel") -> None:
    """Compile (or load from the cache) the kernels, telling the user when that takes long."""
    t0 = time.perf_counter()
    from . import api  # noqa: F401  (imports numba and the kernels)
    from .warmup import warm_up

    warm_up(kind)
    took = time.perf_counter() - t0
    if took > 2.0 and not json_mode:
        err.print(f"[dim]compiled the numba kernels in {took:.1f} s (cached: later runs start fast)[/]")


def _pct(x: float) -> str:
    return f"{100 * x:6.2f} %"


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
) -> None:
    """Play N duels between two fighters and summarise win rates, rounds and defeat causes."""
    flags = _guard(lambda: parse_option_flags(option or []))
    from . import api

    # validate everything before compiling anything
    _guard(lambda: (api._check_n(n), api._check_seed(seed), api._check_threads(threads),
                    api.prepare(a, b, rules, flags, tactic_a, reaction_a, tactic_b, reaction_b)))
    _warm_up(json_out)
    show_bar = not json_out and err.is_terminal and n >= 2_000_000
    if show_bar:
        with Progress(TextColumn("duels"), BarColumn(), TextColumn("{task.completed:,}/{task.total:,}"),
                      TimeRemainingColumn(), console=err, transient=True) as bar:
            task = bar.add_task("duels", total=n)
            result = _guard(lambda: api.duel(a, b, n=n, seed=seed, rules=rules, options=flags, threads=threads,
                                             progress=lambda done, total: bar.update(task, completed=done),
                                             tactic_a=tactic_a, tactic_b=tactic_b, reaction_a=reaction_a,
                                             reaction_b=reaction_b))
    else:
        result = _guard(lambda: api.duel(a, b, n=n, seed=seed, rules=rules, options=flags, threads=threads,
                                         tactic_a=tactic_a, tactic_b=tactic_b, reaction_a=reaction_a,
                                         reaction_b=reaction_b))
    data = result.to_dict()
    if json_out:
        print(json.dumps(data))
        return
    _print_duel(data)


def _print_duel(d: dict[str, Any]) -> None:
    rate = d["n"] / d["elapsed_s"] if d["elapsed_s"] > 0 else float("inf")
    out.print(f"[bold]{d['a']['name']}[/] (a) vs [bold]{d['b']['name']}[/] (b): {d['n']:,} duels, seed {d['seed']}, "
              f"{d['elapsed_s']:.2f} s ({rate:,.0f} duels/s, {d['threads']} threads)", highlight=False)
    out.print(f"tactics: a {d['a'].get('tactic', '?')} / {d['a'].get('reaction', '?')}, "
              f"b {d['b'].get('tactic', '?')} / {d['b'].get('reaction', '?')}", highlight=False, markup=False)
    t = Table(show_edge=False, pad_edge=False)
    for col, just in (("", "left"), ("wins", "right"), ("win rate", "right"), ("95 % CI (Wilson)", "right")):
        t.add_column(col, justify=just)  # type: ignore[arg-type]
    for key in ("a", "b"):
        s = d[key]
        t.add_row(s["name"], f"{s['wins']:,}", _pct(s["win_rate"]),
                  f"{100 * s['ci95'][0]:.2f} – {100 * s['ci95'][1]:.2f} %")
    t.add_row("draws", f"{d['draws']:,}", _pct(d["draws"] / d["n"]), "")
    out.print(t)
    r = d["rounds"]
    if r["mean"] is None:
        out.print("Rounds to decision: no duel was decided")
    else:
        out.print(f"Rounds to decision: mean {r['mean']:.2f}, median {r['p50']}, 90th percentile {r['p90']}")
    t = Table(title="How the losers went down", show_edge=False, pad_edge=False, title_justify="left")
    t.add_column("loser")
    # the wound causes always, fear and exhaustion only when they ended a duel
    shown = [c for c in d["defeat_cause"] if c in ("track_full", "knocked_out", "mortal") or d["defeat_cause"][c]]
    headers = {"mortal": "mortal wound"}
    for name in shown:
        t.add_column(headers.get(name, name.replace("_", " ")), justify="right")
    t.add_column("of them died", justify="right")
    for key in ("a", "b"):
        s = d[key]
        losses = max(1, sum(s["defeat_cause"].values()))
        cells = [f"{s['defeat_cause'][c]:,} ({100 * s['defeat_cause'][c] / losses:.0f} %)" for c in shown]
        t.add_row(s["name"], *cells, f"{s['deaths']:,}")
    out.print(t)
    _print_options(d["options"])


def _print_options(options: dict[str, Any]) -> None:
    """Echo the rule options used, the changed ones highlighted."""
    defaults = {s.name: s.default for s in OPTION_SPECS}
    changed = {k: v for k, v in options.items() if v != defaults.get(k)}
    out.print("options: " + ", ".join(f"{k}={v}" for k, v in options.items()), highlight=False, markup=False,
              style="dim")
    if changed:
        out.print("changed from the defaults: " + ", ".join(f"{k}={v}" for k, v in changed.items()),
                  highlight=False, markup=False, style="bold")


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
    json_out: bool = JSON_OPT,
) -> None:
    """Outcome distribution of one attack: miss/parried/dodged/hard block/hit, wound level, zone."""
    flags = _guard(lambda: parse_option_flags(option or []))
    from . import api

    if n is None and not exact:
        n = 1_000_000
    if n is not None:
        _guard(lambda: (api._check_n(n), api._check_seed(seed), api._check_threads(threads)))
    _guard(lambda: api.prepare(a, b, rules, flags, tactic_a=tactic, reaction_b=reaction))
    _warm_up(json_out, "attack")
    result = _guard(lambda: api.attack(a, b, n=n, seed=seed, rules=rules, options=flags, threads=threads,
                                       tactic=tactic, reaction=reaction))
    data = result.to_dict()
    if json_out:
        print(json.dumps(data))
        return
    how = "exact enumeration" if data["method"] == "exact" else f"{data['n']:,} sampled attacks, seed {data['seed']}"
    distance = int(data["options"].get("start_distance", 0))
    where = f" from {distance} m (B-8: shots are only dodged)" if distance else ""
    out.print(f"[bold]{data['attacker']}[/] attacks ({data['tactic']}) [bold]{data['defender']}[/] "
              f"(reaction {data['reaction']}){where}: {how}", highlight=False)
    t = Table(show_edge=False, pad_edge=False)
    t.add_column("outcome")
    t.add_column("probability", justify="right")
    for k in ("miss", "parried", "dodged", "hard_block", "hit"):
        t.add_row(k.replace("_", " "), _pct(data[f"p_{k}"]))
    out.print(t)
    t = Table(title="A blow that lands (hit or bare-handed parry)", show_edge=False, pad_edge=False,
              title_justify="left")
    t.add_column("wound level")
    t.add_column("share", justify="right")
    for k, v in data["wound_level"].items():
        t.add_row(k.replace("_", " "), _pct(v))
    out.print(t)
    out.print("zones: " + ", ".join(f"{k} {100 * v:.1f} %" for k, v in data["zone"].items()))
    out.print(f"mean final damage of a blow: {data['mean_damage']:.2f}; per attack: {data['mean_damage_per_attack']:.2f}")
    _print_options(data["options"])


@app.command()
def report(
    scenario: str = typer.Argument(..., help="scenario TOML file (see docs/scenarios.md)"),
    output: str = typer.Option(..., "-o", "--output", help="the HTML file to write, e.g. reports/NAME.html"),
    csv: Optional[str] = typer.Option(None, "--csv", help="also write the tidy frames as CSV files into DIR"),
    n: Optional[int] = typer.Option(None, "-n", help="override the scenario's duels per cell"),
    threads: Optional[int] = THREADS_OPT,
) -> None:
    """Run a scenario and write a one-file HTML report (images embedded)."""
    from . import api
    from .report import ReportFrames, render_report, write_atomically
    from .scenario import load_scenario, run_scenario

    sc = _guard(lambda: load_scenario(scenario, n=n))
    _guard(lambda: api._check_threads(threads))
    _check_writable_file("-o", output)
    if csv:
        _check_writable_dir("--csv", csv)
    _warm_up(False)
    total = sc.total_duels
    t0 = time.perf_counter()
    if err.is_terminal:
        columns = (TextColumn("{task.fields[cell]}"), BarColumn(), TextColumn("{task.fields[cells]}"),
                   TextColumn("{task.fields[rate]}"), TimeRemainingColumn())
        with Progress(*columns, console=err, transient=True) as bar:
            task = bar.add_task("report", total=total, cell="", cells="", rate="")

            def progress(done: int, _total: int, label: str) -> None:
                rate = done / max(time.perf_counter() - t0, 1e-9)
                cells_done = done // sc.spec.n
                bar.update(task, completed=done, cell=escape(label[:48]), rate=f"{rate:,.0f} duels/s",
                           cells=f"cell {min(cells_done + 1, len(sc.cells))}/{len(sc.cells)}")

            results = run_scenario(sc, threads, progress)
    else:
        def log(done: int, _total: int, label: str) -> None:
            if done % sc.spec.n == 0:
                rate = done / max(time.perf_counter() - t0, 1e-9)
                err.print(f"cell {done // sc.spec.n}/{len(sc.cells)} {label}: {rate:,.0f} duels/s",
                          highlight=False, markup=False, style="dim")

        results = run_scenario(sc, threads, log)
    command = "brutal-sim report " + " ".join(sys.argv[2:]) if sys.argv[1:2] == ["report"] else \
        f"brutal-sim report {scenario} -o {output}"
    html = render_report(sc, results, command)
    frames = ReportFrames.of(results, sc.differences)
    try:
        write_atomically(output, html)
        if csv:
            frames.to_csv(csv)
    except OSError as exc:
        _fail(f"cannot write the report: {exc.strerror or exc}: {exc.filename or output}")
    err.print(f"wrote {output} ({len(html) / 1024:,.0f} KiB, {len(sc.cells)} cells, {total:,} duels in "
              f"{time.perf_counter() - t0:.1f} s)" + (f"; CSV in {csv}" if csv else ""), highlight=False)


def _check_writable_dir(flag: str, path: str) -> None:
    """Create ``path`` if needed and make sure a file can be written in it, before any work."""
    p = Path(path)
    try:
        p.mkdir(parents=True, exist_ok=True)
        probe = p / f".brutal-sim-write-test-{os.getpid()}"
        probe.write_text("")
        probe.unlink()
    except OSError as exc:
        _fail(f"{flag}: cannot write into {path}: {exc.strerror or exc}")


def _check_writable_file(flag: str, path: str) -> None:
    p = Path(path)
    if p.is_dir():
        _fail(f"{flag}: {path} is a folder; give a file name such as {path.rstrip('/')}/report.html")
    _check_writable_dir(flag, str(p.parent))


@app.command("list")
def list_(what: str = typer.Argument("fighters", help="fighters | weapons | armour | talents | tactics | options")) -> None:
    """List the bundled catalog or the rule options."""
    from .catalog import Catalog

    cat = _guard(Catalog.bundled)
    if what == "options":
        t = Table("option", "rule", "default", "allowed", "meaning", show_lines=False)
        for s in OPTION_SPECS:
            t.add_row(s.name, s.rule, str(s.default), s.allowed if s.name != "zone_table" else "default | PATH", s.help)
        out.print(t)
    elif what == "fighters":
        t = Table("name", "fighter", "main hand", "off hand", "armour", "tactic", "reaction")
        for key in sorted(cat.fighter_files):
            f = _guard(lambda: cat.fighter(key))
            t.add_row(key, f.name, f.main_hand.name if f.main_hand else "—", f.off_hand.name if f.off_hand else "—",
                      ", ".join(x.name for x in f.armour) or "—", f.tactic_text, f.reaction)
        out.print(t)
    elif what == "weapons":
        t = Table("name", "damage", "type", "pen", "dur", "two-handed", "reach", "parry", "ranges", "reload")
        for k, w in cat.weapons.items():
            t.add_row(k, w.damage, w.type, str(w.penetration), str(w.durability), "yes" if w.two_handed else "",
                      str(w.reach), f"{w.parry_bonus:+d}" if w.parry_bonus else "",
                      "/".join(map(str, w.ranges)) if w.ranges else "", str(w.reload) if w.reload else "")
        out.print(t)
    elif what == "armour":
        t = Table("name", "protection", "toughness", "zones")
        for k, x in cat.armour.items():
            t.add_row(k, str(x.protection), str(x.toughness), ", ".join(x.zones))
        out.print(t)
    elif what == "tactics":
        t = Table("name", "rule", "attack", "modifier", "description")
        for k, x in cat.tactics.items():
            t.add_row(k + (":<zone>" if x.aims else ""), x.rule, x.attack, f"{x.attack_modifier:+d}", x.description)
        out.print(t)
    elif what == "talents":
        t = Table("name", "rule", "description")
        for k, x in cat.talents.items():
            t.add_row(k, x.rule, x.description)
        out.print(t)
    else:
        _fail(f"list: unknown topic {what!r}; allowed: fighters, weapons, armour, talents, tactics, options")


@app.command()
def version() -> None:
    """Print the version."""
    out.print(__version__)


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        err.print("interrupted")
        sys.exit(130)


if __name__ == "__main__":
    main()
