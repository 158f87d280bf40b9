"""Ratings and suggested points: a strength per fighter from a round robin or a gauntlet
(Bradley–Terry, :mod:`brutal_sim.results.ratings`), points proportional to strength, and the check
of those points by play (docs/designer.md "Ratings and suggested points").
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from html import escape
from typing import Any, Mapping, Sequence

import numpy as np
import pandas as pd

from . import api
from .arguments import check_run, checked, identity
from .core.errors import DataError
from .core.ruleset import Ruleset, resolve_ruleset
from .core.variants import names_apart
from .results.stats import wilson
from .run.engine import Precision, ProgressFn
from .run.executor import Executor

__all__ = ["CHECK_COLUMNS", "RATING_COLUMNS", "Ratings", "rate"]


# -- ratings ----------------------------------------------------------------------------------------

RATING_COLUMNS = ["fighter", "strength", "ci_low", "ci_high", "log_strength", "se", "suggested_points",
                  "points_low", "points_high", "win_rate", "score", "duels"]
CHECK_COLUMNS = ["kind", "a", "b", "count_a", "count_b", "points_a", "points_b", "expected", "score", "ci_low",
                 "ci_high", "wins_a", "wins_b", "draws", "n", "even", "head_exponent"]


@dataclass
class Ratings:
    """A strength per fighter (Bradley–Terry, draws as half a win, 95 % intervals from the
    observed Fisher information: :mod:`brutal_sim.results.ratings`), its suggested points
    (proportional to strength, the reference at ``reference_points``), and the check of those points
    by play: equal-points pairs, and in rulesets that play groups, N v M fights of nearly equal points.
    """

    ruleset: str
    seed: int
    reference: str
    reference_points: float
    rows: pd.DataFrame  # RATING_COLUMNS (+ points, efficiency, flag with given points), strongest first
    pairs: pd.DataFrame  # a, b, wins_a, wins_b, draws, n, score_a, expected_a
    checks: pd.DataFrame  # CHECK_COLUMNS
    tolerance: float  # a check is even when |score − expected| ≤ tolerance
    fit: Any = field(repr=False, default=None)  # the BTFit
    pool: list[str] | None = None  # the gauntlet's pool; None for a round robin
    options: dict[str, Any] = field(default_factory=dict)
    precision: dict[str, Any] = field(default_factory=dict)
    label: str = ""  # the variant (scenarios)

    #: the name of the tidy frame of a report (``ratings.csv``)
    FRAME = "ratings"

    def title(self) -> str:
        """The heading of a report's section."""
        how = "round robin" if self.pool is None else f"against {', '.join(self.pool)}"
        return f"Ratings and suggested points ({how})"

    def table(self) -> tuple[list[str], list[list[Any]]]:
        """A report's table: column names, and rows whose cells are text or (text, the number a
        column sorts by): each fighter's strength with its interval, suggested points, and score."""
        given = "points" in self.rows
        columns = ["fighter", "strength", "95 % interval", "suggested points", "score"]
        columns += ["given points", "score per 100 points", "flag"] if given else []
        rows = []
        for r in self.rows.itertuples():
            points = float(r.suggested_points)
            row: list[Any] = [str(r.fighter), (f"{r.strength:.3g}", float(r.strength)),
                              f"{r.ci_low:.3g} – {r.ci_high:.3g}", (f"{points:.0f}", points),
                              (f"{100 * r.score:.1f} %", float(r.score))]
            if given:
                row += [("" if not np.isfinite(r.points) else f"{r.points:g}", float(np.nan_to_num(r.points))),
                        ("" if not np.isfinite(r.efficiency) else f"{r.efficiency:.1f}",
                         float(np.nan_to_num(r.efficiency))), str(r.flag or "")]
            rows.append(row)
        return columns, rows

    def caption(self) -> str:
        """What a report's table and chart show."""
        return ("One strength per fighter (Bradley–Terry, a draw half a win) with its 95 % interval from the "
                f"observed Fisher information, the {self.reference} at 1; suggested points proportional to "
                f"strength ({self.reference} = {self.reference_points:g}); score: wins and half the draws over "
                f"its duels. The checks play pairs and group fights of nearly equal points on the next seed; "
                f"even within ±{100 * self.tolerance:g} points of what their points promise"
                + (": " + "; ".join(self._check_text(r) for r in self.checks.itertuples()) if len(self.checks) else "")
                + ".")

    @staticmethod
    def _check_text(r: Any) -> str:
        """One check as a caption tells it: ``Knight v Ghoul*2 (529 v 530 points): 47.6 %, promised 49.9 %, even``
        (a group check's sides name their counts)."""
        return (f"{r.a} v {r.b} ({r.points_a:.0f} v {r.points_b:.0f} points): {100 * r.score:.1f} %, promised "
                f"{100 * r.expected:.1f} %, {'even' if r.even else 'not even'}")

    def frame(self) -> pd.DataFrame:
        """Tidy: one row per fighter (``fighter``, ``strength`` and its 95 % ``ci_low`` …
        ``ci_high``, ``log_strength``, ``se``, ``suggested_points`` with ``points_low`` …
        ``points_high``, ``win_rate`` and ``score`` (draws half) averaged over its opponents,
        ``duels``; with given points also ``points``, ``efficiency`` (score per 100 points) and
        ``flag``), strongest first, with the ``variant``."""
        return self.rows.assign(variant=self.label)

    def strongest(self) -> str:
        return str(self.rows["fighter"].iloc[0])

    def misfits(self, count: int = 3) -> pd.DataFrame:
        """The ``count`` pairs whose played score strays furthest from the model's (the pairs
        the strengths, and so the points, describe worst), with ``gap = score_a − expected_a``."""
        p = self.pairs.assign(gap=self.pairs["score_a"] - self.pairs["expected_a"])
        return p.reindex(p["gap"].abs().sort_values(ascending=False, kind="stable").index).head(count) \
            .reset_index(drop=True)

    def figure(self, title: str | None = None) -> Any:
        """Strengths as dots with their 95 % intervals on a log scale, the suggested points beside
        (:func:`brutal_sim.results.plots.ratings_figure`)."""
        from .results.plots import ratings_figure

        return ratings_figure(self.rows, self.reference, self.reference_points, title)

    def verdict(self) -> str:
        """One line: the strongest fighter, how many times the reference's strength, the suggested
        points, and how even the checks came out."""
        top = self.rows.iloc[0]
        points = ", ".join(f"{r.fighter} {r.suggested_points:.0f}" for r in self.rows.itertuples())
        times = f"{top.strength:.2g}" if top.strength < 10 else f"{top.strength:,.0f}"
        how = "the reference" if top.fighter == self.reference else f"{times}× the {self.reference}"
        text = (f"Strongest: {top.fighter}, {how}; suggested points ({self.reference} = "
                f"{self.reference_points:g}): {points}")
        if len(self.checks):
            even = int(self.checks["even"].sum())
            text += f"; {even} of {len(self.checks)} checks even within ±{100 * self.tolerance:g} points"
        return text

    def to_dict(self) -> dict[str, Any]:
        """The public JSON object of ``brutal-sim rate --json``."""
        def fighter(r: Any) -> dict[str, Any]:
            d = {"name": r.fighter, "strength": float(r.strength), "ci95": [float(r.ci_low), float(r.ci_high)],
                 "log_strength": float(r.log_strength), "se": float(r.se),
                 "suggested_points": float(r.suggested_points),
                 "points_ci95": [float(r.points_low), float(r.points_high)], "win_rate": float(r.win_rate),
                 "score": float(r.score), "duels": int(r.duels)}
            if "points" in self.rows:
                d.update(points=_finite(r.points), efficiency=_finite(r.efficiency), flag=r.flag or None)
            return d

        fit = self.fit
        return {"ruleset": self.ruleset, "seed": self.seed, "reference": self.reference,
                "reference_points": self.reference_points, "pool": self.pool, "options": self.options,
                **self.precision, "model": "bradley-terry, a draw half a win; 95 % intervals from the observed "
                "Fisher information",
                "fit": {"chi2": fit.chi2, "df": fit.df, "prior_draws": fit.prior} if fit is not None else None,
                "fighters": [fighter(r) for r in self.rows.itertuples()],
                "pairs": [{"a": r.a, "b": r.b, "wins_a": int(r.wins_a), "wins_b": int(r.wins_b), "draws": int(r.draws),
                           "n": int(r.n), "score_a": float(r.score_a), "expected_a": float(r.expected_a)}
                          for r in self.pairs.itertuples()],
                "tolerance": self.tolerance,
                "checks": [{"kind": r.kind, "a": r.a, "b": r.b, "count_a": int(r.count_a),
                            "count_b": int(r.count_b), "head_exponent": _finite(r.head_exponent),
                            "points_a": float(r.points_a),
                            "points_b": float(r.points_b), "expected": float(r.expected), "score": float(r.score),
                            "ci95": [float(r.ci_low), float(r.ci_high)], "wins_a": int(r.wins_a),
                            "wins_b": int(r.wins_b), "draws": int(r.draws), "n": int(r.n), "even": bool(r.even)}
                           for r in self.checks.itertuples()]}

    def _repr_html_(self) -> str:
        shown = self.rows.drop(columns=["log_strength", "se"]).round(
            {"strength": 3, "ci_low": 3, "ci_high": 3, "suggested_points": 0, "points_low": 0, "points_high": 0,
             "win_rate": 3, "score": 3})
        checks = ""
        if len(self.checks):
            c = self.checks.assign(**{k: (100 * self.checks[k]).round(1) for k in ("expected", "score", "ci_low",
                                                                                     "ci_high")})
            checks = (f"<p>Checks of the points by play (score of side a in %, even within "
                      f"±{100 * self.tolerance:g} points of the expected):</p>" + c.to_html(index=False))
        return f"<p>{escape(self.verdict())}</p>" + shown.to_html(index=False) + checks


def _finite(x: float) -> float | None:
    """A number for JSON: None for NaN or an infinity."""
    return float(x) if np.isfinite(x) else None


def _score_interval(wins: int, draws: int, n: int) -> tuple[float, float, float]:
    """A side's score (wins + draws / 2) per duel and its 95 % Wilson interval, taken as if each
    duel scored 0 or 1 (a draw scores exactly ½, so with draws the interval is somewhat wide)."""
    lo, hi = wilson(wins + draws / 2, n)
    return (wins + draws / 2) / n, lo, hi


def rate(fighters: Sequence[api.FighterRef], pool: Sequence[api.FighterRef] | None = None, n: int = 100_000,
         seed: int = 0, reference: str | None = None, reference_points: float = 100.0,
         points: Mapping[str, float] | None = None, checks: int = 3, group_checks: int = 2,
         tolerance: float = 0.05, options: Mapping[str, str] | None = None, rules: str | None = None,
         ruleset: str | None = None, threads: int | None = None, executor: Executor | None = None,
         client: Any = None, target_error: float | None = None, max_n: int = api.MAX_N_DEFAULT,
         progress: ProgressFn | None = None) -> Ratings:
    """Rate ``fighters``: a round robin of them (``pool`` None), or a gauntlet (each fighter against
    every fighter of ``pool``, the pool rated too) → Bradley–Terry strengths with 95 % intervals →
    suggested points proportional to strength, ``reference`` (default: the first fighter) at
    ``reference_points`` (:mod:`brutal_sim.results.ratings`).

    Then the points are checked by play, on the next seed (duels the fit has not seen): the
    ``checks`` pairs of nearest suggested points, and where the ruleset plays group fights up to
    ``group_checks`` fights of m of one fighter against k of another whose points total within
    25 % (``m < k ≤ 6``); each check's score (draws half) with its 95 % interval against the score
    its points promise (``points_a / (points_a + points_b)``), ``even`` when they differ by at most
    ``tolerance``. ``points`` (fighter name → the points it costs now) adds each fighter's
    efficiency (score per 100 points) and a ``flag``: ``underpriced`` / ``overpriced`` when the
    given points lie below / above the 95 % interval of the suggested points.

    ``n`` duels a pair, or with ``target_error`` each pair to that half-width; ``client`` /
    ``executor`` as in :func:`sweep`; ``progress(done, planned)`` after each chunk.
    """
    from .results import ratings as rt

    n, seed, threads = check_run(n, seed, threads)
    prec = api.precision_of(target_error, max_n)
    fighters = api.fighter_refs(fighters, "fighters", "rate")
    pool = None if pool is None else api.fighter_refs(pool, "pool", "rate")
    rules, options, ruleset = checked(rules, options, ruleset)
    if isinstance(reference_points, bool) or not isinstance(reference_points, (int, float)) or \
            not 0 < reference_points < float("inf"):
        raise DataError("rate", "reference_points", f"must be a positive number, got {reference_points!r}")
    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or not 0 < tolerance < 0.5:
        raise DataError("rate", "tolerance", f"must be a score difference above 0 and below 0.5, got {tolerance!r}")
    for name, count in (("checks", checks), ("group_checks", group_checks)):
        if isinstance(count, bool) or not isinstance(count, (int, np.integer)) or count < 0:
            raise DataError("rate", name, f"must be a whole number, at least 0, got {count!r}")
    if pool is None and len(fighters) < 2:
        raise DataError("rate", "fighters", "needs at least two fighters (or one and a pool)")
    if not fighters:
        raise DataError("rate", "fighters", "needs at least one fighter")
    if pool is not None and not pool:
        raise DataError("rate", "pool", "needs at least one fighter in the pool")
    refs = list(fighters) + [p for p in (pool or []) if identity(p) not in {identity(f) for f in fighters}]
    keys = [identity(f) for f in refs]
    for i, key in enumerate(keys):
        j = keys.index(key)
        if j != i:
            where = f"fighters[{i}]" if i < len(fighters) else f"pool[{i - len(fighters)}]"
            raise DataError("rate", where, "the same fighter listed twice; list each fighter once")
    rs = resolve_ruleset(refs, ruleset)
    loaded = [rs.load_fighter(f, f"fighters[{i}]" if i < len(fighters) else "pool") for i, f in enumerate(refs)]
    loaded = names_apart(loaded, [f if isinstance(f, str) else None for f in refs], "rate")
    names = [f.name for f in loaded]
    alias = {**{r: names[i] for i, r in enumerate(refs) if isinstance(r, str)}, **{nm: nm for nm in names}}
    if reference is None:
        reference = names[0]
    if not isinstance(reference, str) or reference not in alias:
        raise DataError("rate", "reference", f"{reference!r} is not among the fighters rated; give one of "
                        f"{', '.join(names)}")
    reference = alias[reference]
    given: dict[str, float] = {}
    if points is not None:
        if not isinstance(points, Mapping):
            raise DataError("rate", "points", f"expected a mapping of fighter name → points, got {points!r}")
        for name, value in points.items():
            if name not in alias:
                raise DataError("rate", "points", f"{name!r} is not among the fighters rated")
            name = alias[name]
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < float("inf"):
                raise DataError("rate", "points", f"{name}: points must be a positive number, got {value!r}")
            given[name] = float(value)
    if pool is None:
        index_pairs = list(itertools.combinations(range(len(loaded)), 2))
    else:
        pool_keys = {identity(p) for p in pool}
        pool_idx = [i for i, key in enumerate(keys) if key in pool_keys]
        index_pairs = [(i, j) for i in range(len(fighters)) for j in pool_idx if i != j]
        index_pairs = list(dict.fromkeys((min(i, j), max(i, j)) for i, j in index_pairs))
        if not index_pairs:
            raise DataError("rate", "pool", "no pair to play: the pool holds only the fighter rated; add another "
                            "fighter to either")
    prepared = [(rs, rs.prepare(loaded[i], loaded[j], rules, options)) for i, j in index_pairs]
    labels = [{"matchup": f"{names[i]} vs {names[j]}", "variant": ""} for i, j in index_pairs]
    results = api.duels(prepared, n, seed, threads, progress, labels, executor, client, prec)
    k = len(loaded)
    wins = np.zeros((k, k))
    draws = np.zeros((k, k))
    for (i, j), r in zip(index_pairs, results):
        wins[i, j], wins[j, i] = r.wins(0), r.wins(1)
        draws[i, j] = draws[j, i] = r.n - r.wins(0) - r.wins(1)
    try:
        fit = rt.bradley_terry(wins, names, draws, reference)
    except ValueError as exc:
        raise DataError("rate", "pool" if pool is not None else "fighters", str(exc)) from None
    pts, lo_pts, hi_pts = rt.suggested_points(fit, float(reference_points))
    strength = fit.strength
    s_lo, s_hi = fit.interval()
    games = wins + wins.T + draws
    played = games > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        rate_ij = np.where(played, wins / np.where(played, games, 1), np.nan)
        score_ij = np.where(played, (wins + draws / 2) / np.where(played, games, 1), np.nan)
    rows = pd.DataFrame({"fighter": names, "strength": strength, "ci_low": s_lo, "ci_high": s_hi,
                         "log_strength": fit.theta + 0.0, "se": fit.se, "suggested_points": pts,
                         "points_low": lo_pts, "points_high": hi_pts, "win_rate": np.nanmean(rate_ij, axis=1),
                         "score": np.nanmean(score_ij, axis=1), "duels": games.sum(axis=1).astype(np.int64)},
                        columns=RATING_COLUMNS)
    if given:
        g = np.array([given.get(nm, np.nan) for nm in names])
        rows["points"] = g
        rows["efficiency"] = 100 * rows["score"] / g
        rows["flag"] = [f if nm in given else "" for nm, f in zip(names, rt.points_flags(g, lo_pts, hi_pts))]
    rows = rows.sort_values("strength", ascending=False, kind="stable").reset_index(drop=True)
    pair_rows = [{"a": names[i], "b": names[j], "wins_a": int(wins[i, j]), "wins_b": int(wins[j, i]),
                  "draws": int(draws[i, j]), "n": int(games[i, j]), "score_a": float(score_ij[i, j]),
                  "expected_a": fit.expected(i, j)} for i, j in index_pairs]
    check_rows = _points_checks(rs, loaded, pts, checks, group_checks, tolerance, n, (seed + 1) % 2**64, rules,
                                options, threads, executor, client, prec, progress)
    facts: dict[str, Any] = {}
    if prec is not None:
        facts = {"target_error": prec.target, "target_met": all(r.precision.get("target_met", True) for r in results)}
    return Ratings(rs.name, seed, reference, float(reference_points), rows, pd.DataFrame(pair_rows),
                   pd.DataFrame(check_rows, columns=CHECK_COLUMNS), float(tolerance), fit,
                   None if pool is None else [names[i] for i in range(len(fighters), k)] or None,
                   prepared[0][1].options.as_dict(), facts)


def _points_checks(rs: Ruleset, loaded: list[Any], pts: np.ndarray, checks: int, group_checks: int, tolerance: float,
                   n: int, seed: int, rules: str | None, options: Mapping[str, Any] | None, threads: int | None,
                   executor: Executor | None, client: Any, prec: Precision | None,
                   progress: ProgressFn | None) -> list[dict[str, Any]]:
    """Play the equal-points pairs and N v M groups that check suggested points ``pts``."""
    from .results import ratings as rt

    rows: list[dict[str, Any]] = []
    pairs = rt.check_pairs(list(pts), checks)
    duel_prepared = [(rs, rs.prepare(loaded[i], loaded[j], rules, options)) for i, j in pairs]
    played = api.duels(duel_prepared, n, seed, threads, progress, executor=executor, client=client,
                       precision=prec) if pairs else []
    sides: list[tuple[str, str, str, int, int, float, float, Any]] = [
        ("duel", loaded[i].name, loaded[j].name, 1, 1, float(pts[i]), float(pts[j]), r)
        for (i, j), r in zip(pairs, played)]
    groups = rt.group_checks(list(pts), group_checks) if rs.plays("fights") else []
    if groups:
        fights = [api.prepare_fight([loaded[g.i]] * g.m, [loaded[g.j]] * g.k, rules, options, source="rate",
                                    ruleset=rs.name) for g in groups]
        for g, r in zip(groups, api.fights(fights, n, seed, threads, progress, executor=executor, client=client,
                                           precision=prec)):
            sides.append(("fight", f"{loaded[g.i].name}*{g.m}" if g.m > 1 else loaded[g.i].name,
                          f"{loaded[g.j].name}*{g.k}", g.m, g.k, g.m * float(pts[g.i]), g.k * float(pts[g.j]), r))
    for kind, a, b, m, k, pa, pb, r in sides:
        score, lo, hi = _score_interval(r.wins(0), r.draws, r.n)
        expected = rt.expected_score(pa, pb)
        rows.append({"kind": kind, "a": a, "b": b, "count_a": m, "count_b": k, "points_a": pa, "points_b": pb,
                     "expected": expected, "score": score, "ci_low": lo, "ci_high": hi, "wins_a": r.wins(0),
                     "wins_b": r.wins(1), "draws": r.draws, "n": r.n, "even": abs(score - expected) <= tolerance,
                     "head_exponent": rt.head_exponent(score, pa / m, pb / k, m, k)})
    return rows
