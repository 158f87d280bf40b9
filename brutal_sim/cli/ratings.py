"""``brutal-sim rate``: ratings (Bradley–Terry strengths) and suggested points of a set of fighters."""

from __future__ import annotations

from typing import Optional

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
    warm_up,
    with_progress,
    writing,
)


def _names(words: list[str] | None) -> list[str]:
    """Fighters given as repeated options or comma lists (``--against militia,brute``)."""
    return [name.strip() for word in words or [] for name in word.split(",") if name.strip()]


def _given(words: list[str] | None) -> dict[str, float]:
    """``--given NAME=POINTS`` flags as a mapping; a malformed one or points that are not a
    positive number are a :class:`DataError` naming ``--given``."""
    given: dict[str, float] = {}
    for word in words or []:
        name, eq, text = word.partition("=")
        try:
            value = float(text)
        except ValueError:
            value = float("nan")
        if not eq or not name.strip() or not 0 < value < float("inf"):
            raise DataError("--given", None, f"{word!r}: write NAME=POINTS with POINTS a positive number, "
                            "e.g. knight=250")
        given[name.strip()] = value
    return given


@app.command()
def rate(
    fighters: Optional[list[str]] = typer.Argument(None, help="the fighters rated (catalog names or TOML files); "
                                                   "default: the ruleset's whole bundled catalog"),
    against: Optional[list[str]] = typer.Option(None, "--against", help="a gauntlet: rate each fighter against this "
                                                "pool instead of a round robin (repeatable, or a comma list)"),
    reference: Optional[str] = typer.Option(None, "--reference", help="the fighter of strength 1 and --points "
                                            "points [default: the first fighter]"),
    points: float = typer.Option(100.0, "--points", help="the reference fighter's points"),
    given: Optional[list[str]] = typer.Option(None, "--given", help="a fighter's current points, NAME=POINTS "
                                              "(repeatable): adds its points efficiency and flags it when out of "
                                              "line"),
    checks: int = typer.Option(3, "--checks", help="equal-points pairs played to check the points"),
    group_checks: int = typer.Option(2, "--group-checks", help="N v M fights of nearly equal points played to "
                                     "check them (rulesets that play group fights)"),
    tolerance: float = typer.Option(5.0, "--tolerance", help="a check is even when its score is within this many "
                                    "percentage points of the one its points promise"),
    n: Optional[int] = typer.Option(None, "-n", help="duels per pair [default: 100,000]"),
    seed: int = SEED_OPT,
    rules: Optional[str] = RULES_OPT,
    option: Optional[list[str]] = OPTION_OPT,
    threads: Optional[int] = THREADS_OPT,
    json_out: bool = JSON_OPT,
    csv: Optional[str] = typer.Option(None, "--csv", help="also write the ratings table as this CSV file"),
    ruleset: Optional[str] = RULESET_OPT,
    target_error: Optional[float] = TARGET_OPT,
    max_n: Optional[int] = MAX_N_OPT,
    show_options: bool = SHOW_OPTIONS_OPT,
) -> None:
    """Ratings and suggested points: a round robin of the fighters (or each against the --against
    pool), a Bradley–Terry strength per fighter with its 95 % interval, points proportional to
    strength (the reference at --points), and a check of those points by play."""
    flags = parse_option_flags(option or [])
    refs = list(fighters or [])
    pool = _names(against) or None
    refuse_unknown_fighters([*((r, "fighter") for r in refs), *((p, "--against") for p in pool or [])], ruleset)
    from pathlib import Path

    from .. import api, designer
    from ..core.ruleset import get_ruleset, resolve_ruleset
    from ..outputs import check_file, csv_text, staged

    if not 0 < points < float("inf"):
        raise DataError("--points", None, f"the reference's points must be a positive number, got {points:g}")
    if not 0 < tolerance < 50:
        raise DataError("--tolerance", None, f"must be percentage points above 0 and below 50, got {tolerance:g}")
    for flag, count in (("--checks", checks), ("--group-checks", group_checks)):
        if count < 0:
            raise DataError(flag, None, f"must be at least 0, got {count}")
    prices = _given(given)
    n, _prec = how_many(n, target_error, max_n)
    check_run(seed, threads)
    rs = resolve_ruleset([*refs, *(pool or [])], ruleset) if refs or pool else get_ruleset(ruleset or "brutal")
    if not refs:
        refs = rs.fighter_names()
    if pool is None and len(refs) < 2:
        raise DataError("fighter", None, "rate needs at least two fighters (or --against a pool)")
    if csv:
        check_file("--csv", csv, [Path(f) for f in (rules, *refs, *(pool or [])) if f])
    first = api.prepare(refs[0], (pool or refs)[1 if pool is None else 0], rules, flags, ruleset=rs.name)[1]
    warm_up(json_out, first.compiled)
    names = {"fighters": "fighter", "pool": "--against", "reference": "--reference", "points": "--given",
             "reference_points": "--points"}
    try:
        r = with_progress("duels", n, 2_000_000, json_out, lambda progress: designer.rate(
            refs, pool, n, seed, reference, points, prices or None, checks, group_checks, tolerance / 100, flags,
            rules, rs.name, threads, target_error=target_error,
            max_n=api.MAX_N_DEFAULT if max_n is None else max_n, progress=progress))
    except DataError as exc:  # the API's arguments worded as this command's flags
        field = (exc.field or "").split("[")[0]
        if exc.source == "rate" and field in names:
            raise DataError(names[field], None, exc.message) from None
        raise
    if csv:
        try:
            with writing(), staged() as stage:
                stage.file("--csv", csv, csv_text(r.frame()))
        except OSError as exc:
            fail(f"cannot write: {exc.strerror or exc}: {exc.filename or csv}")
    data = r.to_dict()
    if json_out:
        print_json(data)
        return
    how = "round robin" if r.pool is None else f"gauntlet against {', '.join(r.pool)}"
    per = (f"to ±{100 * r.precision['target_error']:.3g} points a pair" if r.precision
           else f"{n:,} duels a pair")
    out.print(f"Ratings ({literal(how)}, {literal(under(rs, ruleset))}, {per}, seed {seed}): Bradley–Terry "
              f"strength, a draw half a win; {literal(r.reference)} = 1 = {r.reference_points:g} points",
              highlight=False)
    t = Table(show_edge=False, pad_edge=False)
    columns = [("fighter", "left"), ("strength", "right"), ("95 % CI", "right"), ("points", "right"),
               ("95 % CI ", "right"), ("win rate", "right"), ("score", "right")]
    if prices:
        columns += [("given", "right"), ("score / 100 pts", "right"), ("", "left")]
    for col, just in columns:
        t.add_column(col, justify=just)  # type: ignore[arg-type]
    for f in data["fighters"]:
        cells = [f["name"], f"{f['strength']:.3g}", f"{f['ci95'][0]:.3g} – {f['ci95'][1]:.3g}",
                 f"{f['suggested_points']:.0f}", f"{f['points_ci95'][0]:.0f} – {f['points_ci95'][1]:.0f}",
                 percent(f["win_rate"]), percent(f["score"])]
        if prices:
            known = f.get("points") is not None
            cells += [f"{f['points']:g}" if known else "", f"{f['efficiency']:.3f}" if known else "",
                      f.get("flag") or ""]
        add_row(t, *cells)
    out.print(t)
    fit = data["fit"]
    prior = (f"; {fit['prior_draws']:g} draw added to each pair (a fighter won or lost every duel)"
             if fit["prior_draws"] else "")
    out.print(f"fit: chi-square {fit['chi2']:.1f} on {plural(fit['df'], 'degree')} of freedom (how far the pairs "
              f"stray from the model){prior}", highlight=False, markup=False, style="dim")
    worst = r.misfits(3)
    if len(worst) and fit["df"] > 0:
        out.print("furthest from the model: " + "; ".join(
            f"{m.a} v {m.b} {100 * m.score_a:.1f} % (model {100 * m.expected_a:.1f} %)" for m in worst.itertuples()),
            highlight=False, markup=False, style="dim")
    if prices:
        out.print("flag: the given points outside the 95 % interval of the suggested points (underpriced: below it)",
                  highlight=False, markup=False, style="dim")
    if data["checks"]:
        c = Table(title=f"Checks by play (seed {seed + 1}): score of side a, a draw half a win; even within "
                  f"±{tolerance:g} points of the score the points promise", show_edge=False, pad_edge=False,
                  title_justify="left")
        for col, just in (("side a", "left"), ("side b", "left"), ("points", "right"), ("promised", "right"),
                          ("score", "right"), ("95 % CI", "right"), ("n", "right"), ("", "left"), ("γ", "right")):
            c.add_column(col, justify=just)  # type: ignore[arg-type]
        for k in data["checks"]:
            add_row(c, k["a"], k["b"], f"{k['points_a']:.0f} v {k['points_b']:.0f}", percent(k["expected"]),
                    percent(k["score"]), f"{100 * k['ci95'][0]:.2f} – {100 * k['ci95'][1]:.2f} %", f"{k['n']:,}",
                    "even" if k["even"] else "NOT even",
                    "" if k["head_exponent"] is None else f"{k['head_exponent']:.2f}")
        out.print(c)
        if any(k["kind"] == "fight" for k in data["checks"]):
            out.print("γ: the head-count exponent a fight implies (m fighters count as m^γ of one; 1: points add up)",
                      highlight=False, markup=False, style="dim")
    out.print("verdict: " + r.verdict(), highlight=False, markup=False)
    print_options(data["options"], rs, show_options, flags)
    if csv:
        err.print(f"wrote the ratings table to {csv}", highlight=False, markup=False)
