"""The ``brutal-sim`` command line: ``duel``, ``fight``, ``attack``, ``report`` and ``list``.

Bad input of any kind prints one line (``error: FILE: FIELD: what is allowed``) and exits 2.

Each command imports what it runs inside its own function, so that ``brutal-sim --help`` starts
without loading numba, pandas or matplotlib.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from . import __version__
from .cache_cli import cache_app
from .core.errors import DataError, one_line
from .core.options import parse_option_flags

#: click's usage error (an unknown command or flag, a missing argument, a value of the wrong type);
#: typer exports its subclass BadParameter, and newer typers carry their own copy of click
_UsageError = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")


class _Commands(typer.core.TyperGroup):
    """The command group: a usage error is one line ``error: …`` and exit code 2, as every other
    error (``--help`` shows the usage; no arguments at all show the help)."""

    def make_context(self, *args: Any, **kwargs: Any) -> Any:
        with _usage_errors():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: Any) -> Any:
        with _usage_errors():
            return super().invoke(ctx)


@contextmanager
def _usage_errors() -> Iterator[None]:
    try:
        yield
    except _UsageError as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":
            raise
        _fail(one_line(exc.format_message()) + (f" (see {exc.ctx.command_path} --help)" if exc.ctx else ""))


# help text is plain text: "[cluster]" in "pip install 'brutal-sim[cluster]'" must not be read as markup
app = typer.Typer(cls=_Commands, add_completion=False, no_args_is_help=True, rich_markup_mode=None,
                  help="Monte-Carlo balance analysis of tabletop combat rules (Brutal, WFRP 2e, Звёздное Веретено).")
app.add_typer(cache_app, name="cache", help="Compiled kernels on disk: info (where, versions), clear.")
out = Console()
err = Console(stderr=True)

N_OPT = typer.Option(None, "-n", help="number of duels [default: 100,000]")
TARGET_OPT = typer.Option(None, "--target-error", help="play until every win rate's 95 % interval is within ± this "
                          "many percentage points (e.g. 0.1), at most --max-n; instead of -n")
MAX_N_OPT = typer.Option(None, "--max-n", help="the most duels (fights) with --target-error [default: 100,000,000]")
SEED_OPT = typer.Option(0, "--seed", help="random seed (0 … 2**64−1)")
RULES_OPT = typer.Option(None, "--rules", help="rules TOML file with [options], [zone_table], [check_formula]")
OPTION_OPT = typer.Option(None, "--option", help="rule option key=value (repeatable); see `brutal-sim list options`")
THREADS_OPT = typer.Option(None, "--threads", help="numba threads (default: all cores)")
JSON_OPT = typer.Option(False, "--json", help="print one JSON object instead of the summary")
CLUSTER_OPT = typer.Option(None, "--cluster", envvar="BRUTAL_SIM_CLUSTER", show_envvar=True,
                           help="run the chunks on Dask: tcp://HOST:PORT (a running scheduler), local (a local "
                           "cluster, one worker per core) or local:N; needs pip install 'brutal-sim[cluster]'; "
                           "see docs/cluster.md")
#: how this CLI calls the arguments of the API (errors from the API name them so)
FLAGS = {"n": "-n", "seed": "--seed", "threads": "--threads", "options": "--option", "rules": "--rules",
         "ruleset": "--ruleset", "tactic_a": "--tactic-a", "reaction_a": "--reaction-a", "tactic_b": "--tactic-b",
         "reaction_b": "--reaction-b", "targeting_a": "--targeting-a", "targeting_b": "--targeting-b",
         "target_error": "--target-error", "max_n": "--max-n"}
RULESET_OPT = typer.Option(None, "--ruleset", help="brutal | wfrp2e | … (default: from the fighter files, else "
                           "the ruleset whose catalog has the fighters, Brutal first); see `brutal-sim list rulesets`")


def _fail(message: str) -> None:
    err.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    raise typer.Exit(2)


def _guard(fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except DataError as exc:
        _fail(str(exc))


def _warm_up(json_mode: bool, ruleset: Any, kind: str = "duel") -> None:
    """Compile (or load from the cache) the kernels, telling the user when that takes long."""
    _compile_notice(json_mode, ruleset, kind, lambda: ruleset.warm_up(kind))


def _warm_up_fight(json_mode: bool, prepared: Any, paired: bool = False) -> None:
    """Compile (or load from the cache) the group-fight kernel (``paired``: the one scenarios use)
    by playing one fight."""
    from .core.ruleset import get_ruleset
    from .run.engine import run_duel_counters, run_paired_counters

    rs = get_ruleset(prepared.a[0].ruleset)
    if paired:
        _compile_notice(json_mode, rs, "fight", lambda: run_paired_counters([prepared.compiled], 1, 0, threads=1))
    else:
        _compile_notice(json_mode, rs, "fight", lambda: run_duel_counters(prepared.compiled, 1, 0, threads=1))


#: how the compile notice names a kind of kernels (``Ruleset.warm_up``)
KIND_WORDS = {"attack": "sampled-attack", "exact": "exact-attack"}
#: seconds after which a warm-up is taken to be compiling (loading cached kernels takes less)
COMPILE_NOTICE_AFTER = 0.8


def _compile_notice(json_mode: bool, ruleset: Any, kind: str, compile_kernels: Callable[[], Any]) -> None:
    """Run ``compile_kernels``; if it is still busy after :data:`COMPILE_NOTICE_AFTER` seconds
    (compiling, not loading from numba's cache), say once on stderr what compiles and about how
    long it takes: a spinner on a terminal, one line otherwise; nothing in JSON mode unless stderr
    is a terminal (stdout is never touched)."""
    about = ruleset.compile_seconds.get(kind)
    label = KIND_WORDS.get(kind, kind)
    what = f"compiling the {ruleset.name} {label} kernels (once: numba caches them{f', about {about:.0f} s' if about else ''})"
    done = threading.Event()

    def announce() -> None:
        if done.wait(COMPILE_NOTICE_AFTER):
            return
        if err.is_terminal:
            with err.status(escape(what) + " …", spinner="dots"):
                done.wait()
        elif not json_mode:
            err.print(what + " …", highlight=False, markup=False)

    notice = threading.Thread(target=announce, daemon=True)
    t0 = time.perf_counter()
    notice.start()
    try:
        compile_kernels()
    finally:
        done.set()
        notice.join()
    took = time.perf_counter() - t0
    if took > 2.0 and not json_mode:
        err.print(f"[dim]compiled the {escape(ruleset.name)} {label} kernels in {took:.1f} s (cached: later runs "
                  "start fast)[/]")


@contextmanager
def _executor(cluster: Any, threads: int | None, json_mode: bool = False) -> Iterator[Any]:
    """The executor of ``--cluster`` (already parsed), closed on exit; any :class:`DataError`
    inside the block (an unreachable scheduler, a cluster failing mid-run) → one line, exit 2."""
    from .run.cluster import open_executor, quiet

    try:
        with quiet(), open_executor(cluster, threads) as ex:  # Dask's own log lines would bury ours
            if cluster is not None and not json_mode:
                err.print(f"[dim]{escape(ex.describe())}[/]", highlight=False)
            yield ex
    except DataError as exc:
        _fail(str(exc))


def _with_progress(noun: str, n: int, threshold: int, json_mode: bool,
                   play: Callable[[Callable[[int, int], None] | None], Any]) -> Any:
    """``play(progress)``, with a progress bar of ``n`` ``noun`` on a terminal when ``n`` reaches
    ``threshold`` (not in JSON mode)."""
    if json_mode or not err.is_terminal or n < threshold:
        return play(None)
    with Progress(TextColumn(noun), BarColumn(), TextColumn("{task.completed:,}/{task.total:,}"),
                  TimeRemainingColumn(), console=err, transient=True) as bar:
        task = bar.add_task(noun, total=n)
        return play(lambda done, total: bar.update(task, completed=done, total=total))


def _how_many(n: int | None, target_error: float | None, max_n: int | None, what: str = "duels") -> tuple[int, Any]:
    """``-n`` (default 100,000) or ``--target-error`` with ``--max-n``, checked: the fixed n and the
    API's precision (None for a fixed n)."""
    from . import api

    if target_error is None:
        if max_n is not None:
            raise DataError("--max-n", None, "needs --target-error (with -n the run plays exactly n)")
        n = 100_000 if n is None else n
        api._check_n(n, "-n", what=what)
        return n, None
    if n is not None:
        raise DataError("-n", None, "give -n or --target-error, not both")
    prec = api.precision_of(target_error, api.MAX_N_DEFAULT if max_n is None else max_n, FLAGS)
    return prec.max_n, prec


def _print_precision(d: dict[str, Any], noun: str) -> None:
    """The line of a run played to a target error: met or not, the half-width reached, n."""
    if "target_met" not in d:
        return
    verdict = "met" if d["target_met"] else "NOT met (--max-n reached)"
    out.print(f"target ±{100 * d['target_error']:.3g} points {verdict}: widest 95 % half-width "
              f"{100 * d['half_width']:.3f} points after {d['n']:,} {noun}", highlight=False, markup=False)


def _print_json(data: dict[str, Any]) -> None:
    """One JSON object on stdout, with the versions that made it (``versions``: brutal_sim and numba)."""
    from importlib.metadata import version

    print(json.dumps({**data, "versions": {"brutal_sim": __version__, "numba": version("numba")}}))


def _row(table: Table, *cells: str) -> None:
    """A table row of text: data (names, help texts) is never read as rich markup."""
    table.add_row(*(escape(str(c)) for c in cells))


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
    ruleset: Optional[str] = RULESET_OPT,
    cluster: Optional[str] = CLUSTER_OPT,
    target_error: Optional[float] = TARGET_OPT,
    max_n: Optional[int] = MAX_N_OPT,
) -> None:
    """Play N duels between two fighters (or as many as --target-error needs) and summarise win
    rates, rounds and defeat causes."""
    flags = _guard(lambda: parse_option_flags(option or []))
    from . import api
    from .run.cluster import parse

    # validate everything before compiling anything
    n, prec = _guard(lambda: _how_many(n, target_error, max_n))
    _guard(lambda: (api._check_seed(seed, "--seed"), api._check_threads(threads, "--threads")))
    target = _guard(lambda: parse(cluster))
    matchup = _guard(lambda: api.prepare(a, b, rules, flags, tactic_a, reaction_a, tactic_b, reaction_b, ruleset,
                                         names=FLAGS))
    rs = matchup[0]
    if target is None:  # on a cluster, the workers load the kernels
        _warm_up(json_out, rs)
    with _executor(target, threads, json_out) as ex:
        result = _with_progress("duels", n, 2_000_000, json_out, lambda progress: _guard(
            lambda: api.duels([matchup], n, seed, threads, progress, executor=ex, precision=prec)[0]))
    data = result.to_dict()
    if json_out:
        _print_json(data)
        return
    _print_duel(data, rs)


def _print_duel(d: dict[str, Any], rs: Any) -> None:
    rate = d["n"] / d["elapsed_s"] if d["elapsed_s"] > 0 else float("inf")
    out.print(f"[bold]{escape(d['a']['name'])}[/] (a) vs [bold]{escape(d['b']['name'])}[/] (b): {d['n']:,} duels, seed {d['seed']}, "
              f"{d['elapsed_s']:.2f} s ({rate:,.0f} duels/s, {d['threads']} threads)", highlight=False)
    _print_precision(d, "duels")
    out.print(f"tactics: a {d['a'].get('tactic', '?')} / {d['a'].get('reaction', '?')}, "
              f"b {d['b'].get('tactic', '?')} / {d['b'].get('reaction', '?')}", highlight=False, markup=False)
    t = Table(show_edge=False, pad_edge=False)
    for col, just in (("", "left"), ("wins", "right"), ("win rate", "right"), ("95 % CI (Wilson)", "right")):
        t.add_column(col, justify=just)  # type: ignore[arg-type]
    labels = _side_labels(d)
    for key in ("a", "b"):
        s = d[key]
        _row(t, labels[key], f"{s['wins']:,}", _pct(s["win_rate"]),
                  f"{100 * s['ci95'][0]:.2f} – {100 * s['ci95'][1]:.2f} %")
    _row(t, "draws", f"{d['draws']:,}", _pct(d["draws"] / d["n"]), "")
    out.print(t)
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
        t.add_column(escape(rs.counters.describe(name)), justify="right")
    t.add_column("of them died", justify="right")
    for key in ("a", "b"):
        s = d[key]
        losses = max(1, sum(s["defeat_cause"].values()))
        cells = [f"{s['defeat_cause'][c]:,} ({100 * s['defeat_cause'][c] / losses:.0f} %)" for c in shown]
        _row(t, labels[key], *cells, f"{s['deaths']:,}")
    out.print(t)
    deaths = dict(rs.counters.descriptions).get("deaths")
    if deaths:
        out.print(f"of them died: {deaths}", highlight=False, markup=False, style="dim")
    _print_options(d["options"], rs)


def _side_labels(d: dict[str, Any]) -> dict[str, str]:
    """Row labels of the two sides: their names, with (a) and (b) when both have the same name."""
    same = d["a"]["name"] == d["b"]["name"]
    return {key: d[key]["name"] + (f" ({key})" if same else "") for key in ("a", "b")}


def _print_options(options: dict[str, Any], rs: Any) -> None:
    """Echo the ruleset and the rule options used, the changed ones highlighted."""
    defaults = rs.option_defaults()
    changed = {k: v for k, v in options.items() if v != defaults.get(k)}
    out.print(f"ruleset: {rs.name}; options: " + ", ".join(f"{k}={v}" for k, v in options.items()), highlight=False, markup=False,
              style="dim")
    if changed:
        out.print("changed from the defaults: " + ", ".join(f"{k}={v}" for k, v in changed.items()),
                  highlight=False, markup=False, style="bold")


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
) -> None:
    """Play N group fights (Brutal, 1 … 6 fighters a side; docs/groups.md): side win rates, rounds,
    survivors and each fighter's fate."""
    flags = _guard(lambda: parse_option_flags(option or []))
    from . import api
    from .run.cluster import parse
    from .rulesets.brutal import RULESET
    from .rulesets.brutal.sides import split_sides

    side_a, side_b = _guard(lambda: split_sides(fighters))
    _guard(lambda: _only_brutal_fighters([*side_a, *side_b]))
    n, prec = _guard(lambda: _how_many(n, target_error, max_n, what="fights"))
    _guard(lambda: (api._check_seed(seed, "--seed"), api._check_threads(threads, "--threads")))
    target = _guard(lambda: parse(cluster))
    prepared = _guard(lambda: api.prepare_fight(side_a, side_b, rules, flags, targeting_a, targeting_b,
                                                names=FLAGS))
    if target is None:
        _warm_up_fight(json_out, prepared)
    with _executor(target, threads, json_out) as ex:
        result = _with_progress("fights", n, 1_000_000, json_out, lambda progress: _guard(
            lambda: api.fights([prepared], n, seed, threads, progress, executor=ex, precision=prec)[0]))
    data = result.to_dict()
    if json_out:
        _print_json(data)
        return
    _print_fight(data, RULESET)


def _only_brutal_fighters(refs: list[str]) -> None:
    """Group fights are Brutal's: a fighter of another ruleset is named as such, not as unknown."""
    from .core.ruleset import resolve_ruleset

    for ref in refs:
        ruleset = resolve_ruleset([ref]).name  # a file's ruleset key, else the catalog that has the name
        if ruleset != "brutal":
            raise DataError("fight", None, f"group fights are played under the Brutal ruleset only; {ref!r} is "
                            f"a {ruleset} fighter")


def _print_fight(d: dict[str, Any], rs: Any) -> None:
    rate = d["n"] / d["elapsed_s"] if d["elapsed_s"] > 0 else float("inf")
    out.print(f"[bold]{escape(d['a']['name'])}[/] (a) vs [bold]{escape(d['b']['name'])}[/] (b): {d['n']:,} fights, "
              f"seed {d['seed']}, {d['elapsed_s']:.2f} s ({rate:,.0f} fights/s, {d['threads']} threads)",
              highlight=False)
    _print_precision(d, "fights")
    t = Table(show_edge=False, pad_edge=False)
    for col, just in (("side", "left"), ("wins", "right"), ("win rate", "right"), ("95 % CI (Wilson)", "right")):
        t.add_column(col, justify=just)  # type: ignore[arg-type]
    for key in ("a", "b"):
        s = d[key]
        _row(t, f"{s['name']} ({key})", f"{s['wins']:,}", _pct(s["win_rate"]),
                  f"{100 * s['ci95'][0]:.2f} – {100 * s['ci95'][1]:.2f} %")
    _row(t, "draws", f"{d['draws']:,}", _pct(d["draw_rate"]),
              f"{100 * d['draw_ci95'][0]:.2f} – {100 * d['draw_ci95'][1]:.2f} %")
    out.print(t)
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
        cells = [_pct(c / d["n"]).strip() for c in s["survivors"]]
        _row(t, s["name"], *cells, *[""] * (size + 1 - len(cells)), f"{s['survivors_mean']:.2f}")
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
        _row(t, f["name"], f"{f['side']}{f['rank'] + 1}", f.get("tactic", "?"), f.get("targeting", "?"),
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
        t.add_column(escape(rs.counters.describe(name)), justify="right")
    for f in d["fighters"]:
        _row(t, f["name"], f"{f['side']}{f['rank'] + 1}", *[short(f["out_rate"][c]) for c in shown])
    out.print(t)
    _print_options(d["options"], rs)


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
    ruleset: Optional[str] = RULESET_OPT,
) -> None:
    """Outcome distribution of one attack: miss/parried/dodged/hard block/hit, wound level, zone."""
    flags = _guard(lambda: parse_option_flags(option or []))
    from . import api

    if n is None and not exact:
        n = 1_000_000
    if n is not None:
        _guard(lambda: (api._check_n(n, "-n", what="attacks"), api._check_seed(seed, "--seed"),
                        api._check_threads(threads, "--threads")))
    names = {**FLAGS, "tactic_a": "--tactic", "reaction_b": "--reaction"}
    matchup = _guard(lambda: api.prepare(a, b, rules, flags, tactic_a=tactic, reaction_b=reaction, ruleset=ruleset,
                                         names=names))
    rs = matchup[0]
    _warm_up(json_out, rs, "exact" if n is None else "attack")
    result = _guard(lambda: api.attack_of(matchup, n=n, seed=seed, threads=threads, names=names))
    data = result.to_dict()
    if json_out:
        _print_json(data)
        return
    how = "exact enumeration" if data["method"] == "exact" else f"{data['n']:,} sampled attacks, seed {data['seed']}"
    distance = int(data["options"].get("start_distance", 0))
    where = f" from {distance} m" if distance else ""
    out.print(f"[bold]{escape(data['attacker'])}[/] attacks ({escape(data['tactic'])}) [bold]{escape(data['defender'])}[/] "
              f"(reaction {escape(data['reaction'])}){where}: {how}", highlight=False)
    t = Table(show_edge=False, pad_edge=False)
    t.add_column("outcome")
    t.add_column("probability", justify="right")
    for k in rs.counters.outcomes:
        _row(t, rs.counters.describe(k), _pct(data[f"p_{k}"]))
    out.print(t)
    t = Table(title="A blow that lands", show_edge=False, pad_edge=False,
              title_justify="left")
    t.add_column("wound level")
    t.add_column("share", justify="right")
    for k, v in data["wound_level"].items():
        _row(t, rs.counters.describe(k), _pct(v))
    out.print(t)
    out.print("zones: " + ", ".join(f"{k} {100 * v:.1f} %" for k, v in data["zone"].items()))
    out.print(f"mean final damage of a blow: {data['mean_damage']:.2f}; per attack: {data['mean_damage_per_attack']:.2f}")
    _print_options(data["options"], rs)


@app.command()
def report(
    scenario: Optional[str] = typer.Argument(None, help="scenario TOML file (see docs/scenarios.md); not with --rerun"),
    output: str = typer.Option(..., "-o", "--output", help="the HTML file to write, e.g. reports/NAME.html"),
    csv: Optional[str] = typer.Option(None, "--csv", help="also write the tidy frames as CSV files into DIR"),
    parquet: Optional[str] = typer.Option(None, "--parquet", help="also write the tidy frames as Parquet files into "
                                          "DIR, each with the run's metadata; needs pip install 'brutal-sim[parquet]'"),
    rerun: Optional[str] = typer.Option(None, "--rerun", help="play again the scenario a report carries (its setup: "
                                        "the scenario and the files it names), with its n or target error"),
    n: Optional[int] = typer.Option(None, "-n", help="override the scenario's duels per cell"),
    threads: Optional[int] = THREADS_OPT,
    cluster: Optional[str] = CLUSTER_OPT,
    target_error: Optional[float] = typer.Option(None, "--target-error", help="play each cell until its rates' 95 % "
                                                 "half-width is at most this many percentage points (overrides n)"),
    max_n: Optional[int] = typer.Option(None, "--max-n", help="the most duels per cell with a target error "
                                        "[default: the scenario's max_n, 100,000,000]"),
) -> None:
    """Run a scenario (or play again the one a report carries, --rerun) and write a one-file HTML
    report (images embedded, the scenario and its files embedded)."""
    from pathlib import Path

    from . import api
    from .outputs import check_file, check_folder, referenced_files, require_parquet, write_file
    from .report import ReportFrames, read_setup, render_report, report_setup, table_metadata
    from .run.cluster import parse
    from .scenario import load_scenario

    if parquet:
        _guard(lambda: require_parquet("--parquet"))
    old: dict[str, Any] | None = None
    if rerun is not None:
        if scenario is not None:
            _fail(f"give a scenario file or --rerun REPORT, not both ({scenario}, --rerun {rerun})")
        old = _guard(lambda: read_setup(rerun))
        if n is None and target_error is None:  # the report's own n or target error, unless overridden
            if old["target_error"] is None:
                n = None if max_n is not None else old["n"]
            else:
                target_error = old["target_error"]
        if max_n is None and target_error is not None and old["target_error"] is not None:
            max_n = old["max_n"]
    elif scenario is None:
        _fail("give a scenario TOML file, or --rerun REPORT.html (see brutal-sim report --help)")

    def check_outputs(inputs: list[Any]) -> None:
        _guard(lambda: check_file("-o", output, inputs))  # nothing is created before the run succeeds
        for flag, folder in (("--csv", csv), ("--parquet", parquet)):
            if folder:
                _guard(lambda: check_folder(flag, folder, inputs))
        if csv and parquet and Path(csv).absolute() == Path(parquet).absolute():
            _fail(f"--csv and --parquet name the same folder ({csv}); give each its own")

    if old is not None:
        check_outputs([Path(rerun or "")])
    with _scenario_place(old, scenario) as path:
        sc = _guard(lambda: load_scenario(path, n=n, names=FLAGS, target_error=target_error, max_n=max_n))
        note = _size_note(sc.n_runs)
        if note:
            err.print(note, highlight=False, markup=False)
        _guard(lambda: api._check_threads(threads, "--threads"))
        target = _guard(lambda: parse(cluster))
        if old is None:
            check_outputs(referenced_files(path))
        setup = _guard(lambda: report_setup(sc, None if old is None else old["scenario"]["name"]))  # as loaded
        with _executor(target, threads) as ex:
            if target is None:  # on a cluster, the workers load the kernels
                for rs in sc.rulesets:
                    _warm_up(False, rs)
                if sc.fights:
                    _warm_up_fight(False, sc.fights[0].prepared, paired=True)
            results = _run_report(sc, threads, ex)
    if old is not None and old.get("brutal_sim") != __version__:
        err.print(f"note: {rerun} was written by brutal_sim {old.get('brutal_sim', '?')}; this is {__version__} (a "
                  "change of the rules or the catalog between them changes the numbers)", highlight=False, markup=False)
    total = sum(r.n for r in [*results, *sc.fight_results])
    command = "brutal-sim report " + " ".join(sys.argv[2:]) if sys.argv[1:2] == ["report"] else \
        (f"brutal-sim report --rerun {rerun} -o {output}" if rerun else f"brutal-sim report {scenario} -o {output}")
    html = render_report(sc, results, command, setup=setup)
    frames = ReportFrames.of(results, sc.differences, sc.fight_results, sc.weight_results)
    try:
        _guard(lambda: write_file(output, html))
        if csv:
            frames.to_csv(csv)
        if parquet:
            frames.to_parquet(parquet, {**table_metadata(sc), "scenario": setup["scenario"]["name"]})
    except OSError as exc:
        _fail(f"cannot write the report: {exc.strerror or exc}: {exc.filename or output}")
    fights = f" and {len(sc.fights)} group fights" if sc.fights else ""
    also = "".join(f"; {what} in {folder}" for what, folder in (("CSV", csv), ("Parquet", parquet)) if folder)
    err.print(f"wrote {output} ({len(html) / 1024:,.0f} KiB, {len(sc.cells)} cells{fights}, {total:,} "
              f"{'duels and fights' if sc.fights else 'duels'} in "
              f"{sum(r.elapsed_s for r in [*results, *sc.fight_results]):.1f} s)" + also,
              highlight=False, markup=False)


@contextmanager
def _scenario_place(setup: dict[str, Any] | None, scenario: str | None) -> Iterator[str]:
    """The path of the scenario to run: ``scenario`` as given, or a report's ``setup`` laid out in a
    temporary folder that is the current folder inside the block (the scenario's files are found
    beside it, or from the current folder, as they were); the folder is removed on exit."""
    import os
    import tempfile
    from pathlib import Path

    from .report import setup_folder

    if setup is None:
        yield scenario or ""
        return
    here = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="brutal-sim-rerun-") as root:
        folder, name = _guard(lambda: setup_folder(setup, Path(root)))
        os.chdir(folder)
        try:
            yield name
        finally:
            os.chdir(here)


#: a report of more cells than this is announced with its expected size
LARGE_REPORT_CELLS = 1_000


def _size_note(cells: int) -> str | None:
    """A line that tells what a large report costs before it runs (about 0.6 KiB of HTML and 0.12 MiB
    of memory per cell, measured on a 10,000-value sweep), or None for an ordinary one."""
    if cells <= LARGE_REPORT_CELLS:
        return None
    return (f"a large report: {cells:,} cells; expect about {cells * 0.6 / 1024:,.0f} MiB of HTML and "
            f"{cells * 0.12:,.0f} MiB of memory (a sweep's values or a round robin's fighters make the cells)")


def _run_report(sc: Any, threads: int | None, executor: Any) -> list[Any]:
    """Run a scenario's cells with a progress bar (or log lines when stderr is not a terminal)."""
    from .scenario import run_scenario

    total = sc.total_duels
    t0 = time.perf_counter()
    if err.is_terminal:
        columns = (TextColumn("{task.fields[cell]}"), BarColumn(), TextColumn("{task.fields[cells]}"),
                   TextColumn("{task.fields[rate]}"), TimeRemainingColumn())
        with Progress(*columns, console=err, transient=True) as bar:
            task = bar.add_task("report", total=total, cell="", cells="", rate="")

            def progress(done: int, planned: int, label: str) -> None:
                rate = done / max(time.perf_counter() - t0, 1e-9)
                if sc.precision is not None:  # stages of all cells at once: the duels planned so far
                    bar.update(task, completed=done, total=planned, rate=f"{rate:,.0f} duels/s",
                               cell=f"to ±{sc.spec.target_error:g} points")
                    return
                cells_done = done // sc.spec.n
                bar.update(task, completed=done, cell=escape(label[:48]), rate=f"{rate:,.0f} duels/s",
                           cells=f"cell {min(cells_done + 1, sc.n_runs)}/{sc.n_runs}")

            return run_scenario(sc, threads, progress, executor=executor)
    else:
        def log(done: int, _total: int, label: str) -> None:
            if sc.precision is None and done % sc.spec.n == 0:
                rate = done / max(time.perf_counter() - t0, 1e-9)
                err.print(f"cell {done // sc.spec.n}/{sc.n_runs} {label}: {rate:,.0f} duels/s",
                          highlight=False, markup=False, style="dim")

        return run_scenario(sc, threads, log, executor=executor)


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
) -> None:
    """Stat weights: how much a's win rate against b changes when each of a's numeric stats goes one
    step down or up (paired runs, 95 % intervals), largest first."""
    flags = _guard(lambda: parse_option_flags(option or []))
    from . import api, designer

    n, _prec = _guard(lambda: _how_many(n, target_error, max_n))
    _guard(lambda: (api._check_seed(seed, "--seed"), api._check_threads(threads, "--threads")))
    rs = _guard(lambda: api.prepare(a, b, rules, flags, ruleset=ruleset, names=FLAGS))[0]
    _warm_up(json_out, rs)
    with api.named_errors(FLAGS):
        w = _guard(lambda: designer.stat_weights(a, b, n, seed, flags, rules, ruleset, threads,
                                                 target_error=target_error,
                                                 max_n=api.MAX_N_DEFAULT if max_n is None else max_n))
    data = w.to_dict()
    if json_out:
        _print_json(data)
        return
    out.print(f"[bold]{escape(w.a)}[/] against [bold]{escape(w.b)}[/]: change of {escape(w.a)}'s win rate when one "
              f"stat changes ({escape(w.ruleset)}, seed {seed}, paired runs)", highlight=False)
    _print_precision({**data, "n": int(w.rows["n"].max())}, "duels per stat")
    t = Table(show_edge=False, pad_edge=False)
    for col, just in (("stat", "left"), ("change", "left"), ("Δ win rate", "right"), ("95 % CI", "right"),
                      ("duels", "right")):
        t.add_column(col, justify=just)  # type: ignore[arg-type]
    for r in data["rows"]:
        lo, hi = r["ci95"]
        _row(t, r["stat"], f"{r['from']} → {r['to']}", f"{100 * r['delta']:+.2f} pt",
             f"{100 * lo:+.2f} … {100 * hi:+.2f}", f"{r['n']:,}")
    out.print(t)
    _print_options(data["options"], rs)


@app.command("diff")
def diff_(
    fighters: Optional[list[str]] = typer.Argument(None, help="fighters of the round robin (also after --fighters); "
                                                   "default: the ruleset's whole bundled catalog"),
    fighters_opt: Optional[list[str]] = typer.Option(None, "--fighters", help="a fighter (catalog name or TOML "
                                                     "file); more may follow as plain arguments"),
    rules_a: Optional[str] = typer.Option(None, "--rules-a", help="the old rules file"),
    rules_b: Optional[str] = typer.Option(None, "--rules-b", help="the new rules file"),
    option_a: Optional[list[str]] = typer.Option(None, "--option-a", help="old rule option key=value (repeatable)"),
    option_b: Optional[list[str]] = typer.Option(None, "--option-b", help="new rule option key=value (repeatable)"),
    n: Optional[int] = typer.Option(None, "-n", help="duels per matchup and version [default: 100,000]"),
    seed: int = SEED_OPT,
    threads: Optional[int] = THREADS_OPT,
    json_out: bool = JSON_OPT,
    ruleset: Optional[str] = RULESET_OPT,
    target_error: Optional[float] = TARGET_OPT,
    max_n: Optional[int] = MAX_N_OPT,
    output: Optional[str] = typer.Option(None, "-o", "--output", help="also write a one-file HTML page, e.g. "
                                         "reports/diff.html"),
    csv: Optional[str] = typer.Option(None, "--csv", help="also write the table as DIR/diff.csv"),
    parquet: Optional[str] = typer.Option(None, "--parquet", help="also write the table as DIR/diff.parquet with the "
                                          "run's metadata; needs pip install 'brutal-sim[parquet]'"),
) -> None:
    """What a rule change does to every matchup: the round robin under the old rules (--rules-a,
    --option-a) and the new (--rules-b, --option-b) on the same duels, each matchup's change of
    side a's win rate with its 95 % interval, largest first."""
    from . import api, designer
    from .core.ruleset import get_ruleset, resolve_ruleset
    from .outputs import check_file, check_folder, parquet_writer, referenced_files, require_parquet, write_file, write_folder
    from .report import render_diff

    if parquet:
        _guard(lambda: require_parquet("--parquet"))
    flags_a = _guard(lambda: parse_option_flags(option_a or []))
    flags_b = _guard(lambda: parse_option_flags(option_b or []))
    refs = [*(fighters_opt or []), *(fighters or [])]
    n, _prec = _guard(lambda: _how_many(n, target_error, max_n))
    _guard(lambda: (api._check_seed(seed, "--seed"), api._check_threads(threads, "--threads")))
    inputs = [p for f in (rules_a, rules_b, *refs) if f for p in referenced_files(f)]
    if output:
        _guard(lambda: check_file("-o", output, inputs))
    for flag, folder in (("--csv", csv), ("--parquet", parquet)):
        if folder:
            _guard(lambda: check_folder(flag, folder, inputs))
    if csv and parquet and os.path.abspath(csv) == os.path.abspath(parquet):
        _fail(f"--csv and --parquet name the same folder ({csv}); give each its own")
    names = {"options_old": "--option-a", "options_new": "--option-b", "rules_old": "--rules-a",
             "rules_new": "--rules-b", **FLAGS}
    rs = _guard(lambda: resolve_ruleset(refs, ruleset)) if refs else _guard(lambda: get_ruleset(ruleset or "brutal"))
    first = refs[:2] if len(refs) >= 2 else rs.fighter_names()[:2]
    for rules, flags, word in ((rules_a, flags_a, "a"), (rules_b, flags_b, "b")):  # checked before compiling
        _guard(lambda: api.prepare(*first, rules, flags, ruleset=rs.name,
                                   names={"options": f"--option-{word}", "rules": f"--rules-{word}"}))
    _warm_up(json_out, rs)
    d = _guard(lambda: designer.rule_diff(refs or None, rules_a, rules_b, flags_a, flags_b, n, seed, rs.name, threads,
                                          target_error=target_error, max_n=api.MAX_N_DEFAULT if max_n is None else max_n,
                                          names=names))
    data = d.to_dict()
    command = "brutal-sim " + " ".join(sys.argv[1:]) if sys.argv[1:2] == ["diff"] else "brutal-sim diff …"
    try:
        if output:
            _guard(lambda: write_file(output, render_diff(d, command, " vs ".join(f for f in (rules_a, rules_b) if f))))
        if csv:
            write_folder(csv, {"diff.csv": lambda path: d.frame().to_csv(path, index=False)})
        if parquet:
            meta = {"version": __version__, "table": "diff", "ruleset": d.ruleset, "options_old": d.options_old,
                    "options_new": d.options_new, "rules_old": rules_a, "rules_new": rules_b, "seed": seed,
                    "n": None if d.precision else n, "target_error": 100 * d.precision["target_error"] if d.precision else None,
                    "max_n": n if d.precision else None}
            write_folder(parquet, {"diff.parquet": parquet_writer(d.frame(), meta)})
    except OSError as exc:
        _fail(f"cannot write: {exc.strerror or exc}: {exc.filename or output or csv or parquet}")
    if json_out:
        _print_json(data)
        return
    changed = ", ".join(f"{k} {o} → {v}" for k, (o, v) in d.changed_options.items()) or "the rules files"
    out.print(f"Rule diff ({escape(d.ruleset)}, seed {seed}): {escape(changed)}; side a's win rate, old → new",
              highlight=False)
    if d.precision:
        out.print(f"each matchup to ±{100 * d.precision['target_error']:.3g} points: "
                  f"{'met' if d.precision['target_met'] else 'NOT met by --max-n'}; duels per matchup "
                  f"{int(d.rows['n'].min()):,} … {int(d.rows['n'].max()):,}", highlight=False, markup=False)
    t = Table(show_edge=False, pad_edge=False)
    for col, just in (("a", "left"), ("b", "left"), ("old", "right"), ("new", "right"), ("change", "right"),
                      ("95 % CI", "right"), ("", "left")):
        t.add_column(col, justify=just)  # type: ignore[arg-type]
    for r in data["rows"]:
        lo, hi = r["ci95"]
        _row(t, r["a"], r["b"], _pct(r["win_rate_old"]), _pct(r["win_rate_new"]), f"{100 * r['delta']:+.2f} pt",
             f"{100 * lo:+.2f} … {100 * hi:+.2f}", "*" if r["excludes_zero"] else "")
    out.print(t)
    out.print("*: the interval excludes no change" + ("" if all(r["paired"] for r in data["rows"]) else
              "; rows whose versions differ in tables or round cap use independent intervals"),
              highlight=False, markup=False, style="dim")
    for path, what in ((output, "the page"), (csv, "the table"), (parquet, "the Parquet table")):
        if path:
            err.print(f"wrote {what} to {path}", highlight=False, markup=False)


@app.command("list")
def list_(what: str = typer.Argument("fighters", help="fighters | weapons | armour | talents | tactics | options | "
                                                      "rulesets (topics depend on the ruleset)"),
          ruleset: str = typer.Option("brutal", "--ruleset", help="whose catalog to list")) -> None:
    """List a ruleset's bundled catalog, its rule options, or the rulesets."""
    from .core.ruleset import get_ruleset, ruleset_names

    if what == "rulesets":
        t = Table("ruleset", "title", "fighters")
        for name in ruleset_names():
            r = _guard(lambda: get_ruleset(name))
            _row(t, name, r.title, ", ".join(r.fighter_names()))
        out.print(t)
        return
    rs = _guard(lambda: get_ruleset(ruleset))
    if what == "options":
        t = Table("option", "rule", "default", "allowed", "meaning", show_lines=False)
        for s in rs.option_specs:
            allowed = s.allowed or f"{s.default} | PATH"
            _row(t, s.name, s.rule, str(s.default), allowed, s.help)
        out.print(t)
        return
    listings = _guard(rs.listings)
    if what not in listings:
        _fail(f"list: unknown topic {what!r} for the {rs.name} ruleset; allowed: "
              f"{', '.join([*listings, 'options', 'rulesets'])}")
    table = listings[what]
    t = Table(*table.columns)
    for row in table.rows:
        _row(t, *row)
    out.print(t)


@app.command("schema")
def schema_(kind: str = typer.Argument(..., help="fighter | weapons | armour | talents | tactics | rules | scenario "
                                                 "| … (kinds depend on the ruleset)"),
            ruleset: str = typer.Option("brutal", "--ruleset", help="whose files")) -> None:
    """Print the JSON Schema of a kind of input file, for editors (docs/reference.md, "Schemas for editors")."""
    from .schema import schema_text

    print(_guard(lambda: schema_text(kind, ruleset)), end="")


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


def main() -> None:
    """The ``brutal-sim`` entry point. Ctrl-C ends a run with one line and exit code 130 (typer
    turns the interrupt into ``Exit(130)`` itself; an interrupt outside it is caught here)."""
    try:
        app()
    except KeyboardInterrupt:
        code: object = 130
    except SystemExit as exc:
        code = exc.code
    else:
        return
    if code == 130:
        err.print("interrupted", highlight=False)
    sys.exit(code)


if __name__ == "__main__":
    main()
