"""What every command of the command line shares: the typer app and its one error boundary (bad
input of any kind → one line ``error: FILE: FIELD: what is allowed``, exit 2), the common options,
the words of the API's arguments as flags (:data:`FLAGS`), compile notices, executors, progress bars
and the table helpers.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from contextlib import contextmanager, nullcontext
from typing import Any, Callable, Iterator

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from .. import __version__
from ..core.errors import DataError, one_line, plural

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
        words = [*getattr(ctx, "protected_args", []), *ctx.args]
        with _closed_pipe(), _usage_errors(), compiles_said("--json" in words):
            return super().invoke(ctx)


@contextmanager
def _closed_pipe() -> Iterator[None]:
    """A reader that stops early (``brutal-sim list weapons | head``) ends the command quietly with
    exit code 0: whatever is still to print goes nowhere."""
    try:
        yield
        sys.stdout.flush()  # a pipe closed early fails here, not in the interpreter's last flush
    except BrokenPipeError:
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (AttributeError, ValueError, OSError):  # an stdout without a file descriptor
            pass
        raise typer.Exit(0) from None


@contextmanager
def _usage_errors() -> Iterator[None]:
    """The command line's one error boundary: bad input — a :class:`DataError` from any layer, or a
    usage error of the command line itself — ends the command with one line and exit code 2."""
    try:
        yield
    except DataError as exc:
        fail(str(exc.worded(FLAGS)))
    except _UsageError as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":
            raise
        fail(one_line(exc.format_message()) + (f" (see {exc.ctx.command_path} --help)" if exc.ctx else ""))


# help text is plain text: "[cluster]" in "pip install 'brutal-sim[cluster]'" must not be read as markup
app = typer.Typer(cls=_Commands, add_completion=True, no_args_is_help=True, rich_markup_mode=None,
                  help="Monte-Carlo balance analysis of tabletop combat rules (Brutal, WFRP 2e, Звёздное Веретено).")


#: the width of output that is not a terminal (a pipe, a file): wide enough that no table cuts a
#: name or an allowed value that one would type or grep
PIPE_WIDTH = 1000


#: the narrowest width tables are laid out for: on a narrower terminal (``COLUMNS=20``) the lines
#: wrap, and no table cuts a number to ``…``
MIN_WIDTH = 80


def _width(stream: Any) -> int | None:
    """The width of a console: ``COLUMNS`` when it is a positive number (at least
    :data:`MIN_WIDTH`), 80 when it is set to anything else (0, negative, not a number); else the
    terminal's (None: :func:`_at_least` keeps it to :data:`MIN_WIDTH`), or :data:`PIPE_WIDTH` when
    ``stream`` is not a terminal."""
    columns = os.environ.get("COLUMNS")
    if columns is None:
        return None if _is_terminal(stream) else PIPE_WIDTH
    return max(int(columns), MIN_WIDTH) if columns.strip().isdigit() and int(columns) > 0 else 80


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


class _Console(Console):
    """rich's console, but a closed pipe is left to :func:`_closed_pipe` (rich's own ends with exit 1)."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError


def _at_least(console: Console) -> Console:
    """``console`` at least :data:`MIN_WIDTH` wide (a narrow terminal's own width included)."""
    if console.width < MIN_WIDTH:
        console.width = MIN_WIDTH
    return console


out = _at_least(_Console(width=_width(sys.stdout)))
err = _at_least(_Console(stderr=True, width=_width(sys.stderr)))

N_OPT = typer.Option(None, "-n", help="number of duels [default: 100,000]")
TARGET_OPT = typer.Option(None, "--target-error", help="play until every win rate's 95 % interval is within ± this "
                          "many percentage points (e.g. 0.1), at most --max-n; instead of -n")
MAX_N_OPT = typer.Option(None, "--max-n", help="the most duels (fights) with --target-error [default: 100,000,000]")
SEED_OPT = typer.Option(0, "--seed", help="random seed (0 … 2**64−1)")
RULES_OPT = typer.Option(None, "--rules", help="rules TOML file: [options] and the ruleset's own tables "
                         "(`brutal-sim list rulesets`; docs/reference.md)")
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
         "target_error": "--target-error", "max_n": "--max-n", "force": "--force"}
RULESET_OPT = typer.Option(None, "--ruleset", help="brutal | wfrp2e | … (default: from the fighter files, else "
                           "the ruleset whose catalog has the fighters, Brutal first); see `brutal-sim list rulesets`")


def check_run(seed: int | None, threads: int | None, n: int | None = None, what: str = "duels") -> None:
    """The seed, thread count and (when given) number of a run, checked before anything is
    compiled; a bad one is a :class:`DataError` the error boundary words as its flag."""
    from .. import api

    if n is not None:
        api.check_n(n, what=what)
    if seed is not None:
        api.check_seed(seed)
    api.check_threads(threads)


#: set when SIGTERM or Ctrl-C asked the run to stop (:func:`stop_requested`)
STOP = threading.Event()


def stop_requested(signum: int, frame: object) -> None:
    """The handler of SIGTERM and SIGINT: end the run as Ctrl-C does (a ``KeyboardInterrupt``). The
    request is kept in :data:`STOP`, and while numba compiles (:data:`COMPILING`) only kept:
    :func:`check_stop` raises it when the compile returns, and after each chunk of duels."""
    STOP.set()
    if not (COMPILING.is_set() or PLAYING.is_set() or WRITING.is_set()):
        raise KeyboardInterrupt


#: set while numba compiles (:class:`CliReporter`): an interrupt raised inside the compiler can
#: crash the process, so a stop requested then waits for the compile to return
COMPILING = threading.Event()
#: set while a report plays its cells: numba calls back into Python inside a kernel call, where an
#: interrupt is a SystemError; the run's progress callback (after each chunk) ends it instead
PLAYING = threading.Event()


#: set while a run writes its outputs (:func:`writing`): they are written whole or not at all
WRITING = threading.Event()


@contextmanager
def writing() -> Iterator[None]:
    """A run writing its outputs (a report and its CSV or Parquet folders): a stop requested now is
    kept and dropped, since the outputs, once begun, are all written and the run ends as finished
    (a stop before them leaves nothing written)."""
    check_stop()
    WRITING.set()
    try:
        yield
    finally:
        WRITING.clear()
        STOP.clear()


@contextmanager
def playing() -> Iterator[None]:
    """A run whose progress callback calls :func:`check_stop`: a stop is kept until the next
    chunk has finished."""
    PLAYING.set()
    try:
        yield
    finally:
        PLAYING.clear()
    check_stop()


def check_stop() -> None:
    """Raise ``KeyboardInterrupt`` if a stop was requested (:data:`STOP`): called after each
    compile and each finished chunk of duels."""
    if STOP.is_set():
        raise KeyboardInterrupt


def literal(value: Any) -> str:
    """Data (a name, a label, a message) as literal text for a rich console: control characters and
    escape sequences written as escapes (``\\x1b``), rich markup (``[bold]``) escaped."""
    return escape(one_line(str(value)))


def fail(message: str) -> None:
    err.print(f"[bold red]error:[/] {literal(message)}", highlight=False, soft_wrap=True)
    raise typer.Exit(2)


class CliReporter:
    """What the command line says of a compile (:mod:`brutal_sim.toolbox.compiling`), on stderr: a
    spinner on a terminal (a line above a progress bar already drawn), one line otherwise, nothing
    in JSON mode unless stderr is a terminal (stdout is never touched); then the seconds it took.
    While it compiles a stop request waits (:data:`COMPILING`)."""

    def __init__(self, json_mode: bool) -> None:
        self.json_mode = json_mode
        self.status: Any = None

    def started(self, ruleset: str | None, fam: str) -> None:
        from ..toolbox.compiling import starting_text

        COMPILING.set()
        text = starting_text(ruleset, fam)
        if err.is_terminal:
            try:
                self.status = err.status(escape(text), spinner="dots")
                self.status.start()
                return
            except Exception:  # a progress bar is on screen (rich draws one live display): a line above it
                self.status = None
        if not self.json_mode or err.is_terminal:
            err.print(text, highlight=False, markup=False)

    def finished(self, ruleset: str | None, fam: str, seconds: float) -> None:
        from ..toolbox.compiling import finished_text

        COMPILING.clear()
        if self.status is not None:
            self.status.stop()
            self.status = None
        if not self.json_mode:
            err.print(finished_text(ruleset, fam, seconds), highlight=False, markup=False, style="dim")


@contextmanager
def compiles_said(json_mode: bool) -> Iterator[None]:
    """Inside the block every compile is said by a :class:`CliReporter` (a command's whole run)."""
    from ..toolbox.compiling import reporting

    with reporting(CliReporter(json_mode)):
        yield


def compile_notice(json_mode: bool, step: Callable[[], Any]) -> Any:
    """``step()``, whose compiles (none when numba's cache holds its kernels) are said once
    (:class:`CliReporter`): a command compiles before its run is timed."""
    from ..toolbox.compiling import reporting, watching

    with reporting(CliReporter(json_mode)), watching():
        value = step()
    check_stop()
    return value


def warm_up(json_mode: bool, compiled: Any, attacks: bool = False) -> None:
    """Compile (or load from the cache) exactly the kernels a run of ``compiled`` (a
    :class:`~brutal_sim.core.ruleset.Compiled`) plays, its kernel set included, by playing one duel
    (one attack when ``attacks``, one group fight for a fight's arrays)."""
    from ..run.engine import run_attack_counters, run_duel_counters

    play = run_attack_counters if attacks else run_duel_counters
    compile_notice(json_mode, lambda: play(compiled, 1, 0, threads=1))


def warm_up_paired(json_mode: bool, cells: list[Any]) -> None:
    """Compile (or load) the paired kernels a run of ``cells`` plays on common random numbers (the
    union of their kernel sets) by playing one index. Cells that cannot pair (round caps or tables
    that differ) are played apart by the run: their compiles are said when it makes them."""
    from ..run.engine import run_paired_counters, unpaired

    if unpaired(list(cells)) is None:
        compile_notice(json_mode, lambda: run_paired_counters(list(cells), 1, 0, threads=1))


def compile_seconds() -> float:
    """Seconds this process spent compiling (``compile_s`` in ``--json``)."""
    from ..toolbox.compiling import total_seconds

    return round(total_seconds(), 3)


@contextmanager
def run_executor(cluster: Any, threads: int | None, json_mode: bool = False) -> Iterator[Any]:
    """The executor of ``--cluster`` (already parsed), closed on exit; any :class:`DataError`
    inside the block (an unreachable scheduler, a cluster failing mid-run) → one line, exit 2."""
    from ..run.cluster import open_executor, quiet

    try:
        with quiet(), open_executor(cluster, threads) as ex:  # Dask's own log lines would bury ours
            if cluster is not None and not json_mode:
                err.print(f"[dim]{escape(ex.describe())}[/]", highlight=False)
            yield ex
    except DataError as exc:
        fail(str(exc))


def with_progress(noun: str, n: int, threshold: int, json_mode: bool,
                  play: Callable[[Callable[[int, int], None]], Any], local: bool = True) -> Any:
    """``play(progress)``, stoppable: ``progress(done, total)``, called after each chunk, ends the run
    when a stop was requested (:func:`check_stop`), and draws a progress bar of ``n`` ``noun`` on a
    terminal when ``n`` reaches ``threshold`` (not in JSON mode). A ``local`` run (numba in this
    process) is :func:`playing`: a stop waits for the chunk to end."""
    with playing() if local else nullcontext():
        if json_mode or not err.is_terminal or n < threshold:
            return play(lambda _done, _total: check_stop())
        with Progress(TextColumn(noun), BarColumn(), TextColumn("{task.completed:,}/{task.total:,}"),
                      TimeRemainingColumn(), console=err, transient=True) as bar:
            task = bar.add_task(noun, total=n)

            def progress(done: int, total: int) -> None:
                check_stop()
                bar.update(task, completed=done, total=total)

            return play(progress)


def refuse_unknown_fighters(refs: list[tuple[str, str]], ruleset: str | None) -> None:
    """Refuse a bundled ruleset's unknown catalog name before anything heavy is imported (numba,
    pandas, the kernels): ``refs`` are ``(reference, role)``; the same error as loading it would
    give (``fighter a: unknown fighter 'swordsmen'; did you mean 'swordsman'? known: …``). Fighter
    files and rulesets from elsewhere are left to the full check."""
    from pathlib import Path

    from ..core.data import exists, fighter_files_in, suggest
    from ..core.errors import shown
    from ..core.ruleset import DEFAULT_RULESET, RULESET_MODULES, get_ruleset

    if ruleset is not None:
        if ruleset not in RULESET_MODULES:
            get_ruleset(ruleset)  # the unknown ruleset's error
    names = [(r, role) for r, role in refs if not (r.endswith(".toml") or "/" in r or os.sep in r or exists(Path(r)))]
    if len(names) < len(refs) and ruleset is None:  # a fighter file may choose the ruleset
        return
    root = Path(__file__).resolve().parents[1] / "data"
    bundled = {name: set(fighter_files_in(root / name)) for name, module in RULESET_MODULES.items()
               if module == f"brutal_sim.rulesets.{name}" and (root / name / "fighters").is_dir()}
    if ruleset is None:
        if any(rs not in bundled for rs in RULESET_MODULES):  # a registered ruleset's catalog may hold the names
            return
        ruleset = next((rs for rs in RULESET_MODULES if rs in bundled and {r for r, _ in names} <= bundled[rs]),
                       DEFAULT_RULESET)
    if ruleset not in bundled:
        return
    for ref, role in names:
        if ref not in bundled[ruleset]:
            raise DataError(role, None, f"unknown fighter {shown(ref)}; {suggest(ref, list(bundled[ruleset]))}")


def how_many(n: int | None, target_error: float | None, max_n: int | None, what: str = "duels") -> tuple[int, Any]:
    """``-n`` (default 100,000) or ``--target-error`` with ``--max-n``, checked: the fixed n and the
    API's precision (None for a fixed n)."""
    from .. import api

    if target_error is None:
        if max_n is not None:
            raise DataError("--max-n", None, "needs --target-error (with -n the run plays exactly n)")
        n = 100_000 if n is None else n
        api.check_n(n, "-n", what=what)
        return n, None
    if n is not None:
        raise DataError("-n", None, "give -n or --target-error, not both")
    prec = api.precision_of(target_error, api.MAX_N_DEFAULT if max_n is None else max_n, FLAGS)
    return prec.max_n, prec


def print_precision(d: dict[str, Any], noun: str) -> None:
    """The line of a run played to a target error: met or not, the half-width reached, n."""
    if "target_met" not in d:
        return
    verdict = "met" if d["target_met"] else "NOT met (--max-n reached)"
    out.print(f"target ±{100 * d['target_error']:.3g} points {verdict}: widest 95 % half-width "
              f"{100 * d['half_width']:.3f} points after {d['n']:,} {noun}", highlight=False, markup=False)


def print_json(data: dict[str, Any]) -> None:
    """One JSON object on stdout, with the versions that made it (``versions``: brutal_sim and numba)."""
    from importlib.metadata import version

    extra = {"compile_s": compile_seconds()} if "numba" in sys.modules else {}
    print(json.dumps({**data, **extra, "versions": {"brutal_sim": __version__, "numba": version("numba")}}))


def add_row(table: Table, *cells: str) -> None:
    """A table row of text: data (names, help texts) is never read as rich markup, nor its control
    characters sent to the terminal (:func:`literal`)."""
    table.add_row(*(literal(c) for c in cells))


def percent(x: float) -> str:
    return f"{100 * x:6.2f} %"


def side_labels(d: dict[str, Any]) -> dict[str, str]:
    """Row labels of the two sides: their names, with (a) and (b) when both have the same name."""
    same = d["a"]["name"] == d["b"]["name"]
    return {key: d[key]["name"] + (f" ({key})" if same else "") for key in ("a", "b")}


SHOW_OPTIONS_OPT = typer.Option(False, "--show-options", help="echo every rule option, not only those changed "
                                "from the defaults (--json always holds all)")


def print_options(options: dict[str, Any], rs: Any, show_all: bool = False, given: Any = ()) -> None:
    """Echo the ruleset and the rule options that differ from its defaults (``show_all``: every
    option, the changed ones repeated after them): those of ``given`` (the ``--option`` flags) in
    the order given, then the others (a rules file's) in the ruleset's order."""
    defaults = rs.option_defaults()
    order = {k: i for i, k in enumerate(given)}
    changed = dict(sorted(((k, v) for k, v in options.items() if v != defaults.get(k)),
                          key=lambda kv: order.get(kv[0], len(order))))
    if show_all:
        out.print(one_line(f"ruleset: {rs.name}; options: " + ", ".join(f"{k}={v}" for k, v in options.items())),
                  highlight=False, markup=False, style="dim")
    if changed:
        out.print(one_line(("changed from the defaults: " if show_all else f"ruleset: {rs.name}; options changed "
                            "from the defaults: ") + ", ".join(f"{k}={v}" for k, v in changed.items())),
                  highlight=False, markup=False, style="bold")
    elif not show_all:
        from ..core.ruleset import DEFAULT_RULESET

        listing = "brutal-sim list options" + ("" if rs.name == DEFAULT_RULESET else f" --ruleset {rs.name}")
        out.print(f"ruleset: {rs.name}; every option at its default ({plural(len(options), 'option')}: "
                  f"--show-options, `{listing}`)", highlight=False, markup=False, style="dim")


def under(rs: Any, asked: str | None) -> str:
    """How a header names the ruleset: ``under brutal``, and when the fighters chose it rather than
    ``--ruleset`` and it is not the first registered one, that it was picked."""
    from ..core.ruleset import ruleset_names

    picked = asked is None and rs.name != ruleset_names()[0]
    return f"under {rs.name}" + (" (picked from the fighters; --ruleset to choose)" if picked else "")


SET_OPT = typer.Option(None, "--set", help="change one field of side a's or b's fighters for this run, written as "
                       "in a fighter file: a.main_hand.damage=d10, b.checks.melee=5 (repeatable; validated like "
                       "a fighter file; `docs/designer.md` lists the paths)")


REPORT_SET_OPT = typer.Option(None, "--set", help="change one field of a fighter of the scenario for this run: "
                              "FIGHTER.PATH=VALUE, FIGHTER as the scenario names it (a catalog name, or a fighter "
                              "file's name without .toml), e.g. brute.main_hand.damage=d10 (repeatable; validated like "
                              "a fighter file; echoed in the report's setup and replayed by --rerun)")


def parse_sets(sets: list[str] | None, sides: tuple[str, ...] | None = ("a", "b")) -> dict[str, dict[str, Any]]:
    """``--set TARGET.PATH=VALUE`` flags as ``{"a": {path: value}, "b": {…}}``; the value is read as
    a TOML value (``5``, ``true``, ``"d10"``), else taken as text (``d10``). ``sides``: the targets
    allowed (a side), or None for any word before the first dot (a report's fighters, checked by
    the scenario loader)."""
    import tomllib

    from ..core.limits import MAX_NAME, check_toml_nesting
    from ..core.variants import check_change

    changes: dict[str, dict[str, Any]] = {key: {} for key in sides or ()}
    for flag in sets or []:
        target, eq, text = flag.partition("=")
        side, dot, path = target.strip().partition(".")
        if not eq or not dot or not side or (sides is not None and side not in changes) or not path.strip():
            raise DataError("--set", None, f"{flag!r}: write SIDE.PATH=VALUE with SIDE a or b, e.g. "
                            "a.main_hand.damage=d10" if sides is not None else f"{flag!r}: write FIGHTER.PATH=VALUE "
                            "with FIGHTER a fighter of the scenario, e.g. brute.main_hand.damage=d10")
        where = f"--set {side}"
        try:  # the text's nesting and length, before it is parsed
            check_toml_nesting(f"v = {text.strip()}", where)
        except DataError as exc:
            raise DataError(where, path.strip()[:MAX_NAME], exc.message) from None
        check_change(path.strip(), text.strip(), where)
        try:
            value: Any = tomllib.loads(f"v = {text.strip()}")["v"]
        except tomllib.TOMLDecodeError:
            value = text.strip()
        changes.setdefault(side, {})[path.strip()] = value
    return changes


def with_sets(side_a: list[Any], side_b: list[Any], changes: dict[str, dict[str, Any]],
              ruleset: str | None) -> tuple[list[Any], list[Any]]:
    """The two sides' fighters (references) with their ``--set`` changes applied to each, under
    the ruleset the run resolves to; the references themselves when there are none."""
    if not (changes["a"] or changes["b"]):
        return side_a, side_b
    from ..core.ruleset import resolve_ruleset
    from ..core.variants import with_changes

    rs = resolve_ruleset([*side_a, *side_b], ruleset)
    return tuple(  # type: ignore[return-value]
        [with_changes(rs.load_fighter(ref, f"side {key}"), changes[key], f"--set {key}") for ref in side]
        if changes[key] else side for key, side in (("a", side_a), ("b", side_b)))


def _flat_sets(changes: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return {f"{key}.{path}": value for key, paths in changes.items() for path, value in paths.items()}


def set_entry(changes: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The ``set`` entry of ``--json``: ``{"a.main_hand.damage": "d10"}``, absent without changes."""
    flat = _flat_sets(changes)
    return {"set": flat} if flat else {}


def print_sets(changes: dict[str, dict[str, Any]]) -> None:
    """Echo the ``--set`` changes of a run, as literal text (:func:`literal`: escape sequences written
    as escapes)."""
    shown = [f"{k}={v}" for k, v in _flat_sets(changes).items()]
    if shown:
        out.print("set: " + literal(", ".join(shown)), highlight=False)


def verdict(a_name: str, b_name: str, a_wins: int, b_wins: int, n: int, noun: str = "points") -> str:
    """One line: which side the run favours and by how much, with the 95 % interval of the
    difference of the win rates (draws count for neither; normal approximation of the multinomial);
    "no side favoured" when the interval holds 0."""
    from ..results.stats import sides_difference_half_width

    pa, pb = a_wins / n, b_wins / n
    diff = pb - pa
    half = sides_difference_half_width(pa, pb, n)
    interval = f"95 % CI {100 * (abs(diff) - half):.2f} – {100 * (abs(diff) + half):.2f}"
    if abs(diff) <= half:
        return (f"no side favoured: win rates differ by {100 * abs(diff):.2f} {noun} "
                f"(95 % CI {100 * (diff - half):+.2f} – {100 * (diff + half):+.2f}, b − a)")
    return f"{b_name if diff > 0 else a_name} favoured by {100 * abs(diff):.2f} {noun} ({interval})"
