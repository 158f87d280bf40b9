"""``brutal-sim report`` and ``diff``: scenarios and rule diffs, written as one HTML page and tables."""

from __future__ import annotations

import os
import sys
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Optional

import typer
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from .. import __version__
from ..core.errors import DataError, one_line
from ..core.options import parse_option_flags
from .base import (
    CLUSTER_OPT,
    FLAGS,
    JSON_OPT,
    MAX_N_OPT,
    REPORT_SET_OPT,
    RULESET_OPT,
    SEED_OPT,
    TARGET_OPT,
    THREADS_OPT,
    add_row,
    app,
    check_run,
    check_stop,
    err,
    fail,
    how_many,
    literal,
    out,
    parse_sets,
    percent,
    playing,
    plural,
    print_json,
    run_executor,
    warm_up_paired,
    with_progress,
    writing,
)


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
    open_page: bool = typer.Option(False, "--open", help="open the written report in the web browser"),
    force: bool = typer.Option(False, "--force", help="run a scenario of more than 10,000 cells (refused without: "
                               "the message tells its estimated size)"),
    sets: Optional[list[str]] = REPORT_SET_OPT,
) -> None:
    """Run a scenario (or play again the one a report carries, --rerun) and write a one-file HTML
    report (images embedded, the scenario and its files embedded)."""
    from pathlib import Path

    from ..outputs import Outputs, require_parquet, staged
    from ..report import (
        ReportFrames,
        check_report_size,
        flat_sets,
        nested_sets,
        read_setup,
        render_report,
        report_setup,
        setup_inputs,
        table_metadata,
    )
    from ..run.cluster import parse
    from ..scenario import MAX_CELLS, load_scenario, scenario_files

    if parquet:
        require_parquet("--parquet")
    changes = parse_sets(sets, sides=None)
    old: dict[str, Any] | None = None
    given = {key for key, value in (("n", n), ("target_error", target_error), ("max_n", max_n)) if value is not None}
    if rerun is not None:
        if scenario is not None:
            fail(f"give a scenario file or --rerun REPORT, not both ({scenario}, --rerun {rerun})")
        old = read_setup(rerun)
        if n is None and target_error is None:  # the report's own n or target error, unless overridden
            if old["target_error"] is None:
                n = None if max_n is not None else old["n"]
            else:
                target_error = old["target_error"]
        if max_n is None and target_error is not None and old["target_error"] is not None:
            max_n = old["max_n"]
        changes = nested_sets({**old.get("set", {}), **flat_sets(changes)})  # the report's, then the flags'
    elif scenario is None:
        fail("give a scenario TOML file, or --rerun REPORT.html (see brutal-sim report --help)")

    outputs = Outputs(output, csv, parquet)  # checked before the run: nothing is created before it succeeds
    if old is not None:  # the report, and the files its setup came from at their original paths
        outputs.check([Path(rerun or ""), *setup_inputs(old)])
    with _scenario_place(old, scenario, rerun) as path:
        if old is None:
            outputs.check([Path(path), *(ref.path for ref in scenario_files(path))])
        # in a replay, a number the report's setup gave (not a flag) is named as the setup names it
        from_setup = {"n", "target_error", "max_n"} - given if old is not None else set()
        names = {k: v for k, v in FLAGS.items() if k not in from_setup}
        flags = _REPLAY_FLAGS - from_setup - {FLAGS[k] for k in from_setup} - (set() if sets else {"--set"})
        with _setup_errors(rerun, flags):
            sc = load_scenario(path, n=n, names=names, target_error=target_error, max_n=max_n,
                               max_cells=None if force else MAX_CELLS, on_size=_announce, sets=changes)
        check_run(None, threads)
        target = parse(cluster)
        setup = report_setup(sc, None if old is None else old["scenario"]["name"])  # as loaded
        with run_executor(target, threads) as ex:
            # the cells' kernels (the paired driver of each group's kernel set) compile in the group's
            # first chunk, said when it starts and not counted in the duels' time
            results = _run_report(sc, threads, ex)
    if old is not None and old.get("brutal_sim") != __version__:
        err.print(f"note: {rerun} was written by brutal_sim {old.get('brutal_sim', '?')}; this is {__version__} (a "
                  "change of the rules or the catalog between them changes the numbers)", highlight=False, markup=False)
    total = sum(r.n for r in [*results, *sc.fight_results])
    command = "brutal-sim report " + " ".join(sys.argv[2:]) if sys.argv[1:2] == ["report"] else \
        (f"brutal-sim report --rerun {rerun} -o {output}" if rerun else f"brutal-sim report {scenario} -o {output}")
    with _drawing() as on_figure:
        html = render_report(sc, results, command, setup=setup, on_figure=on_figure)
    check_report_size(html, output)
    frames = ReportFrames.of(results, sc.differences, sc.fight_results, sc.weight_results, sc.analysis_results)
    try:
        with writing(), staged() as stage:
            stage.file("-o", output, html)
            if csv:
                stage.folder("--csv", csv, frames.csv_files())
            if parquet:
                stage.folder("--parquet", parquet, frames.parquet_files({**table_metadata(sc),
                                                                         "scenario": setup["scenario"]["name"]}))
    except OSError as exc:
        fail(f"cannot write the report: {exc.strerror or exc}: {exc.filename or output}")
    fights = f" and {plural(len(sc.fights), 'group fight')}" if sc.fights else ""
    also = "".join(f"; {what} in {folder}" for what, folder in (("CSV", csv), ("Parquet", parquet)) if folder)
    parts = [f"{len(html) / 1024:,.0f} KiB"]
    if sc.cells or sc.fights:
        parts.append(f"{plural(len(sc.cells), 'cell')}{fights}, "
                     f"{plural(total, 'duel') if not sc.fights else f'{total:,} duels and fights'} in "
                     f"{sum(r.elapsed_s for r in [*results, *sc.fight_results]):.1f} s")
    asked = len(sc.weight_jobs) + len(sc.analysis_jobs)  # the designer's questions play duels of their own
    if asked:
        parts.append(plural(asked, "designer question"))
    err.print(f"wrote {output} ({', '.join(parts)})" + also, highlight=False, markup=False)
    from ..results.findings import findings_by_kind

    by_kind = findings_by_kind(results, sc.fight_results, sc.differences, sc.weight_results, sc.analysis_results)
    first = [text for _, texts in by_kind for text in texts]
    if first:  # the report's first key finding, on one line of its own
        more = f" ({plural(len(first) - 1, 'more finding')} in the report)" if len(first) > 1 else ""
        out.print(f"key finding: {first[0]}{more}", highlight=False, markup=False, soft_wrap=True)
    if open_page:
        import webbrowser

        webbrowser.open(Path(output).resolve().as_uri())


@contextmanager
def _scenario_place(setup: dict[str, Any] | None, scenario: str | None, report: str | None = None) -> Iterator[str]:
    """The path of the scenario to run: ``scenario`` as given, or a report's ``setup`` laid out in a
    temporary folder that is the current folder inside the block (the scenario's files are found
    beside it, as they were; one that names any other file is refused before it is read); the
    folder is removed on exit."""
    import tempfile
    from pathlib import Path

    from ..report import check_replay_files, setup_folder

    if setup is None:
        yield scenario or ""
        return
    here = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="brutal-sim-rerun-") as root:
        folder, name = setup_folder(setup, Path(root))
        os.chdir(folder)
        try:
            with _setup_errors(report or "--rerun"):
                check_replay_files(report or "--rerun", folder, name, setup)
            yield name
        finally:
            try:
                os.chdir(here)
                gone = False
            except FileNotFoundError:
                gone = True
        if gone:
            raise DataError(here, None, "the working folder was removed during the run; nothing written (change to "
                            "an existing folder and run again)")


#: the sources of errors that name what the user gave with a replay (its flags), not its setup
_REPLAY_FLAGS = {"n", "target_error", "max_n", "threads", "force", "-n", "--target-error", "--max-n", "--threads",
                 "--force", "--set"}


@contextmanager
def _setup_errors(report: str | None, flags: set[str] = _REPLAY_FLAGS) -> Iterator[None]:
    """Inside a replay of ``report`` (None: a plain run), an error in the files of its setup names
    the report: ``REPORT: setup: s.toml: FIELD: …`` (the files by the names the report carries
    them under); an error of a flag the user gave (``flags``: ``--set`` only when given), or one
    naming the report already, as it is."""
    try:
        yield
    except DataError as exc:
        if report is None or exc.source == report or exc.source.partition(" ")[0] in flags:
            raise
        raise DataError(report, "setup", str(exc)) from None


@contextmanager
def _drawing() -> Iterator[Callable[[int, str], None]]:
    """While the report's plots are drawn: a line that counts them on a terminal, one line
    otherwise (drawing takes seconds after the last duel)."""
    if not err.is_terminal:
        err.print("rendering the report's plots …", highlight=False, markup=False, style="dim")
        yield lambda _k, _title: None
        return
    with err.status("rendering the report's plots …", spinner="dots") as status:
        yield lambda k, title: status.update(f"rendering the report's plots: {k} drawn ({literal(title)}) …")


#: a report of more cells than this is announced with its expected size
LARGE_REPORT_CELLS = 1_000


def size_note(cells: int) -> str | None:
    """A line that tells what a large report costs before it runs (about 0.6 KiB of HTML and 0.12 MiB
    of memory per cell, measured on a 10,000-value sweep), or None for an ordinary one."""
    if cells <= LARGE_REPORT_CELLS:
        return None
    return (f"a large report: {cells:,} cells; expect about {cells * 0.6 / 1024:,.0f} MiB of HTML and "
            f"{cells * 0.12:,.0f} MiB of memory (a sweep's values or a round robin's fighters make the cells)")


def _announce(cells: int) -> None:
    """Tell the size of a large report (:func:`size_note`) before its cells are built."""
    note = size_note(cells)
    if note:
        err.print(note, highlight=False, markup=False)


def _run_report(sc: Any, threads: int | None, executor: Any) -> list[Any]:
    """Run a scenario's cells with a progress bar (or log lines when stderr is not a terminal)."""
    from ..scenario import run_scenario
    from ..toolbox.compiling import total_seconds

    total = sc.total_duels
    t0, c0 = time.perf_counter(), total_seconds()

    def duels_per_second(done: int) -> float:  # a compile in the run is no duel's time
        return done / max(time.perf_counter() - t0 - (total_seconds() - c0), 1e-9)
    if err.is_terminal:
        columns = (TextColumn("{task.fields[cell]}"), BarColumn(), TextColumn("{task.fields[cells]}"),
                   TextColumn("{task.fields[rate]}"), TimeRemainingColumn())
        with Progress(*columns, console=err, transient=True) as bar:
            task = bar.add_task("report", total=total, cell="", cells="", rate="")

            def progress(done: int, planned: int, label: str) -> None:
                check_stop()
                rate = duels_per_second(done)
                if sc.precision is not None:  # stages of all cells at once: the duels planned so far
                    bar.update(task, completed=done, total=planned, rate=f"{rate:,.0f} duels/s",
                               cell=f"to ±{sc.spec.target_error:g} points")
                    return
                cells_done = done // sc.spec.n
                bar.update(task, completed=done, cell=literal(label[:48]), rate=f"{rate:,.0f} duels/s",
                           cells=f"cell {min(cells_done + 1, sc.n_runs)}/{sc.n_runs}")

            with playing():
                return run_scenario(sc, threads, progress, executor=executor)
    else:
        logged = 0

        def log(done: int, _total: int, label: str) -> None:
            nonlocal logged
            check_stop()
            if sc.precision is None and done % sc.spec.n == 0 and done > logged:
                logged = done
                rate = duels_per_second(done)
                err.print(f"cell {done // sc.spec.n}/{sc.n_runs} {one_line(label)}: {rate:,.0f} duels/s",
                          highlight=False, markup=False, style="dim")

        with playing():
            return run_scenario(sc, threads, log, executor=executor)


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
    from pathlib import Path

    from .. import api, designer
    from ..core.ruleset import get_ruleset, resolve_ruleset
    from ..outputs import Outputs, csv_writer, parquet_writer, require_parquet, staged
    from ..report import render_diff
    from ..scenario import rules_files

    if parquet:
        require_parquet("--parquet")
    flags_a = parse_option_flags(option_a or [])
    flags_b = parse_option_flags(option_b or [])
    refs = [*(fighters_opt or []), *(fighters or [])]
    n, _prec = how_many(n, target_error, max_n)
    check_run(seed, threads)
    names = {"options_old": "--option-a", "options_new": "--option-b", "rules_old": "--rules-a",
             "rules_new": "--rules-b", **FLAGS}
    rs = resolve_ruleset(refs, ruleset) if refs else get_ruleset(ruleset or "brutal")
    inputs = [Path(f) for f in (rules_a, rules_b, *refs) if f]
    inputs += [ref.path for f in (rules_a, rules_b) if f for ref in rules_files(rs, Path(f))]
    inputs += [Path(v) for flags in (flags_a, flags_b) for k, v in flags.items()
               if any(s.name == k and s.names_file(v) for s in rs.option_specs)]
    Outputs(output, csv, parquet).check(inputs)
    first = refs[:2] if len(refs) >= 2 else rs.fighter_names()[:2]
    firsts = [api.prepare(*first, rules, flags, ruleset=rs.name,  # checked before compiling
                          names={"options": f"--option-{word}", "rules": f"--rules-{word}"})[1]
              for rules, flags, word in ((rules_a, flags_a, "a"), (rules_b, flags_b, "b"))]
    warm_up_paired(json_out, [p.compiled for p in firsts])
    d = with_progress("duels", n, 2_000_000, json_out, lambda progress: designer.rule_diff(
        refs or None, rules_a, rules_b, flags_a, flags_b, n, seed, rs.name, threads, target_error=target_error,
        max_n=api.MAX_N_DEFAULT if max_n is None else max_n, names=names, progress=progress))
    data = d.to_dict()
    command = "brutal-sim " + " ".join(sys.argv[1:]) if sys.argv[1:2] == ["diff"] else "brutal-sim diff …"
    page = render_diff(d, command, " vs ".join(f for f in (rules_a, rules_b) if f)) if output else ""
    meta = {"version": __version__, "table": "diff", "ruleset": d.ruleset, "options_old": d.options_old,
            "options_new": d.options_new, "rules_old": rules_a, "rules_new": rules_b, "seed": seed,
            "n": None if d.precision else n, "target_error": 100 * d.precision["target_error"] if d.precision else None,
            "max_n": n if d.precision else None}
    try:
        with writing(), staged() as stage:
            if output:
                stage.file("-o", output, page)
            if csv:
                stage.folder("--csv", csv, {"diff.csv": csv_writer(d.frame())})
            if parquet:
                stage.folder("--parquet", parquet, {"diff.parquet": parquet_writer(d.frame(), meta)})
    except OSError as exc:
        fail(f"cannot write: {exc.strerror or exc}: {exc.filename or output or csv or parquet}")
    if json_out:
        print_json(data)
        return
    changed = ", ".join(f"{k} {o} → {v}" for k, (o, v) in d.changed_options.items()) or "the rules files"
    out.print(f"Rule diff ({literal(d.ruleset)}, seed {seed}): {literal(changed)}; side a's win rate, old → new",
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
        add_row(t, r["a"], r["b"], percent(r["win_rate_old"]), percent(r["win_rate_new"]),
                f"{100 * r['delta']:+.2f} pt", f"{100 * lo:+.2f} … {100 * hi:+.2f}",
                "*" if r["excludes_zero"] else "")
    out.print(t)
    out.print("*: the interval excludes no change" + ("" if all(r["paired"] for r in data["rows"]) else
              "; rows whose versions differ in tables or round cap use independent intervals"),
              highlight=False, markup=False, style="dim")
    from ..results.findings import diff_findings

    out.print("verdict: " + diff_findings(d.rows)[0], highlight=False, markup=False)
    for path, what in ((output, "the page"), (csv, "the table"), (parquet, "the Parquet table")):
        if path:
            err.print(f"wrote {what} to {path}", highlight=False, markup=False)
