"""Designer workflows: the tactic matrix of a matchup, and auto-balancing one numeric field.

Every run in one workflow uses the same seed and duel indices (common random numbers), so that
differences between the cells are not blurred by independent sampling noise.
"""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass, field, replace
from html import escape
from typing import Any, Mapping, Sequence

import numpy as np
import pandas as pd

from . import api
from .arguments import check_run, checked, identity, once
from .core.costs import costs_for
from .core.errors import DataError
from .core.ruleset import Ruleset, resolve_ruleset
from .core.variants import get_path, names_apart, stat_label, stat_steps, vary
from .explorer import Explorer, explore
from .gauntlet import Gauntlet, Headcount, gauntlet, headcount, with_item
from .rate import Ratings, rate
from .results.frames import paired_differences, summary_frame
from .results.header import rates_half_width
from .results.plots import diff_figure, sweep_figure, weights_figure
from .results.stats import Z95, paired_difference, wilson
from .run.engine import Precision, ProgressFn, paired_work, run, run_paired_counters, run_to_precision
from .run.executor import Executor
from .run.factory import resolve
from .suggest import Suggestions, suggest

__all__ = [
    "Balance", "Explorer", "Gauntlet", "Headcount", "RuleDiff", "Sweep", "TacticMatrix", "Weights", "balance",
    "explore", "gauntlet", "headcount", "Ratings", "rate", "round_robin", "rule_diff", "stat_weights", "suggest",
    "Suggestions", "sweep", "tactic_matrix", "with_item"
]


@dataclass
class TacticMatrix:
    """Side a's win rate for every pair (a's choice, b's choice)."""

    a: str
    b: str
    choices_a: list[str]
    choices_b: list[str]
    wins_a: np.ndarray  # int64[len(choices_a), len(choices_b)]
    wins_b: np.ndarray
    n: int  # duels per cell; played to a target error, the most of any cell
    cell_n: np.ndarray | None = None  # int64 like wins_a: duels per cell, when cells differ (a target error)

    @property
    def ns(self) -> np.ndarray:
        """Duels played in each cell."""
        return self.cell_n if self.cell_n is not None else np.full(self.wins_a.shape, self.n, dtype=np.int64)

    @property
    def rate_a(self) -> np.ndarray:
        return self.wins_a / self.ns

    @property
    def rate_b(self) -> np.ndarray:
        return self.wins_b / self.ns

    def frame(self) -> pd.DataFrame:
        """Tidy: choice_a, choice_b, win_rate_a, ci_low, ci_high, win_rate_b, draw_rate, n."""
        rows = []
        ns = self.ns
        for i, ca in enumerate(self.choices_a):
            for j, cb in enumerate(self.choices_b):
                lo, hi = wilson(int(self.wins_a[i, j]), int(ns[i, j]))
                rows.append({"choice_a": ca, "choice_b": cb, "win_rate_a": self.rate_a[i, j], "ci_low": lo,
                             "ci_high": hi, "win_rate_b": self.rate_b[i, j],
                             "draw_rate": 1 - self.rate_a[i, j] - self.rate_b[i, j], "n": int(ns[i, j])})
        return pd.DataFrame(rows)

    def best_response_b(self) -> dict[str, str]:
        """For each choice of a, b's choice that maximises b's win rate."""
        return {ca: self.choices_b[int(np.argmax(self.rate_b[i]))] for i, ca in enumerate(self.choices_a)}

    def best_response_a(self) -> dict[str, str]:
        """For each choice of b, a's choice that maximises a's win rate."""
        return {cb: self.choices_a[int(np.argmax(self.rate_a[:, j]))] for j, cb in enumerate(self.choices_b)}

    def maximin_a(self) -> tuple[str, float]:
        """a's choice whose worst case (b's best response) is best, and that worst-case win rate."""
        worst = self.rate_a.min(axis=1)
        i = int(np.argmax(worst))
        return self.choices_a[i], float(worst[i])

    def maximin_b(self) -> tuple[str, float]:
        worst = self.rate_b.min(axis=0)
        j = int(np.argmax(worst))
        return self.choices_b[j], float(worst[j])

    def _repr_html_(self) -> str:
        table = pd.DataFrame(100 * self.rate_a, index=self.choices_a, columns=self.choices_b).round(1)
        ma, va = self.maximin_a()
        mb, vb = self.maximin_b()
        per_cell = f"n = {self.n:,} per cell" if self.cell_n is None else f"up to {self.n:,} duels per cell"
        return (f"<p><b>{self.a}</b> (rows) win rate % against <b>{self.b}</b> (columns), {per_cell}. "
                f"Maximin: {self.a} {ma} ({100 * va:.1f} %), {self.b} {mb} ({100 * vb:.1f} %).</p>" + table.to_html())


def _choices(rs: Ruleset, tactics: Sequence[str] | None, reactions: bool, name: str) -> list[tuple[str, str | None]]:
    """The (tactic, reaction) cells of one side: ``tactics`` or the ruleset's default tactics, each
    with each of its default reactions if ``reactions`` (else with the fighter's own)."""
    names = list(tactics or rs.matrix_tactics)
    if not names:
        raise DataError("tactic_matrix", name, f"the {rs.name} ruleset has no default tactics; give {name}")
    if not reactions:
        return [(t, None) for t in names]
    return [(t, r) for t in names for r in rs.matrix_reactions]


def tactic_matrix(a: api.FighterRef, b: api.FighterRef, tactics_a: Sequence[str] | None = None,
                  tactics_b: Sequence[str] | None = None, reactions: bool = False, n: int = 20_000, seed: int = 0,
                  options: Mapping[str, str] | None = None, rules: str | None = None,
                  ruleset: str | None = None, executor: Executor | None = None, client: Any = None,
                  target_error: float | None = None, max_n: int = api.MAX_N_DEFAULT) -> TacticMatrix:
    """Play every pair of tactics (and, with ``reactions``, of parry/dodge) of a and b (all cells
    at once on ``client`` / ``executor`` if given: ``docs/cluster.md``); with ``target_error``
    (percentage points) each cell plays to that half-width (or ``max_n``) instead of ``n`` duels.

    The default tactics and reactions are the ruleset's (:attr:`~brutal_sim.core.ruleset.Ruleset.matrix_tactics`,
    ``matrix_reactions``: Brutal's eight basic tactics, parry and dodge).
    Bad arguments are a :class:`DataError` naming them (``tactics_a: tactic: unknown tactic 'feitn';
    did you mean 'feint'? …``) before any duel is played.
    """
    n, seed, _ = check_run(n, seed)
    prec = api.precision_of(target_error, max_n)
    a, b = api.fighter_ref(a), api.fighter_ref(b)
    rules, options, ruleset = checked(rules, options, ruleset)
    for name, tactics in (("tactics_a", tactics_a), ("tactics_b", tactics_b)):
        if tactics is not None:
            if isinstance(tactics, str) or not tactics:
                raise DataError("tactic_matrix", name, f"expected a non-empty list of tactics, got {tactics!r}")
            once("tactic_matrix", name, tactics, "tactic")
    with api.named_errors({"tactic_a": "tactics_a", "tactic_b": "tactics_b", "reaction_a": "reactions",
                           "reaction_b": "reactions"}):
        rs = resolve_ruleset([a, b], ruleset)
        fa, fb = rs.load_fighter(a, "fighter a"), rs.load_fighter(b, "fighter b")
        ca, cb = _choices(rs, tactics_a, reactions, "tactics_a"), _choices(rs, tactics_b, reactions, "tactics_b")
        pairs = [(i, j) for i in range(len(ca)) for j in range(len(cb))]
        prepared = [(rs, rs.prepare(fa, fb, rules, options, ca[i][0], ca[i][1], cb[j][0], cb[j][1]))
                    for i, j in pairs]
    wins_a = np.zeros((len(ca), len(cb)), dtype=np.int64)
    wins_b = np.zeros_like(wins_a)
    cell_n = np.zeros_like(wins_a)
    for (i, j), r in zip(pairs, api.duels(prepared, n, seed, executor=executor, client=client, precision=prec)):
        wins_a[i, j], wins_b[i, j], cell_n[i, j] = r.wins(0), r.wins(1), r.n

    def label(t: str, r: str | None) -> str:
        return t if r is None else f"{t}/{r}"

    return TacticMatrix(fa.name, fb.name, [label(*c) for c in ca], [label(*c) for c in cb], wins_a, wins_b,
                        int(cell_n.max()), None if prec is None else cell_n)


@dataclass
class Balance:
    """The value of one field that brings a fighter's win rate closest to a target."""

    field: str
    fighter: str
    opponent: str
    target: float
    n: int  # duels per value tried (with a target error: the most the search allowed, max_n)
    tried: dict[Any, tuple[float, float, float]] = dataclasses.field(default_factory=dict)  # value → (rate, lo, hi)
    best: Any = None
    bracket: tuple[Any, Any] | None = None
    played: dict[Any, int] = dataclasses.field(default_factory=dict)  # value → duels of its estimate in ``tried``
    duels: int = 0  # duels played in the whole search (with a target error, replays included)

    def frame(self) -> pd.DataFrame:
        return pd.DataFrame([{"value": v, "win_rate": r, "ci_low": lo, "ci_high": hi, "n": self.played.get(v)}
                             for v, (r, lo, hi) in self.tried.items()])

    def _repr_html_(self) -> str:
        r, lo, hi = self.tried[self.best]
        return (f"<p>{self.fighter} vs {self.opponent}: <b>{self.field} = {self.best}</b> gives a win rate of "
                f"{100 * r:.1f} % (95 % CI {100 * lo:.1f}–{100 * hi:.1f} %), target {100 * self.target:.0f} %; "
                f"bracketing values: {self.bracket}.</p>" + self.frame().to_html(index=False))


def balance(fighter: api.FighterRef, opponent: api.FighterRef, field: str, values: Sequence[Any],
            target: float = 0.5, n: int = 50_000, seed: int = 0, options: Mapping[str, str] | None = None,
            rules: str | None = None, ruleset: str | None = None, executor: Executor | None = None,
            client: Any = None, target_error: float | None = None, max_n: int = api.MAX_N_DEFAULT) -> Balance:
    """Find the value of ``field`` (a fighter path, e.g. ``main_hand.damage.bonus``, ``checks.melee``,
    ``armour.0.protection``, ``damage_levels.2``) among the ordered ``values`` that brings
    ``fighter``'s win rate against ``opponent`` closest to ``target``.

    Assumes the win rate moves monotonically along ``values`` and bisects; ``bracket`` holds the two
    neighbouring values whose win rates lie on either side of the target (None if the target is
    outside the range tried, then ``best`` is the nearer end). ``client`` / ``executor`` as in
    :func:`sweep`. Every value is checked before the first duel.

    With ``target_error`` (percentage points) each value tried plays only until the 95 % interval
    of its win rate excludes ``target`` (which side of the target it lies on is then known) or its
    half-width reaches ``target_error`` (or ``max_n``); then the best value plays on until its
    half-width reaches ``target_error``. Values far from the target cost few duels, and the best
    value's interval is as narrow as the target asks; the other values keep their early estimates
    (``played`` gives each one's duels, ``duels`` the search's total).
    """
    if isinstance(target, bool) or not isinstance(target, (int, float)) or not 0 < target < 1:
        raise DataError("balance", "target", f"must be a win rate strictly between 0 and 1, got {target!r}")
    n, seed, _ = check_run(n, seed)
    prec = api.precision_of(target_error, max_n, threshold=float(target))
    values = api.values_of(values, "balance")
    fighter, opponent = api.fighter_ref(fighter), api.fighter_ref(opponent)
    rules, options, ruleset = checked(rules, options, ruleset)
    if len(values) < 2:
        raise DataError("balance", "values", "needs at least two values to search between")
    once("balance", "values", values, "value")
    rs = resolve_ruleset([fighter, opponent], ruleset)
    f, opp = rs.load_fighter(fighter, "fighter"), rs.load_fighter(opponent, "opponent")
    varied = [vary(f, field, v, where="balance") for v in values]
    rs.prepare(varied[0], opp, rules, options)  # the options and rules file, checked once
    result = Balance(field, f.name, opp.name, target, n if prec is None else prec.max_n)

    def rate(k: int, precision: Precision | None = prec) -> float:
        v = values[k]
        if v not in result.tried or precision is not prec:
            prepared = rs.prepare(varied[k], opp, rules, options)
            r = api.duels([(rs, prepared)], n, seed, executor=executor, client=client, precision=precision)[0]
            lo, hi = wilson(r.wins(0), r.n)
            result.tried[v] = (r.wins(0) / r.n, lo, hi)
            result.played[v] = r.n
            result.duels += r.n
        return result.tried[v][0]

    lo_k, hi_k = 0, len(values) - 1
    r_lo, r_hi = rate(lo_k), rate(hi_k)
    increasing = r_hi >= r_lo
    inside = min(r_lo, r_hi) <= target <= max(r_lo, r_hi)
    if inside:
        while hi_k - lo_k > 1:
            mid = (lo_k + hi_k) // 2
            below = rate(mid) < target
            if below == increasing:
                lo_k = mid
            else:
                hi_k = mid
        result.bracket = (values[lo_k], values[hi_k])
    result.best = min(result.tried, key=lambda v: abs(result.tried[v][0] - target))
    if prec is not None:  # the best value, played on to the target error
        rate(values.index(result.best), replace(prec, threshold=None))
    return result


@dataclass
class Sweep:
    """A sweep of one field: a result per value, and the paired differences of neighbours."""

    results: list[Any]
    differences: pd.DataFrame

    def summary(self) -> pd.DataFrame:
        return summary_frame(self.results)

    def figure(self, x_label: str | None = None) -> Any:
        s = self.summary()
        return sweep_figure(s, x_label=x_label or s["sweep"].iloc[0])

    def _repr_html_(self) -> str:
        s = self.summary()
        w = s[(s.measure == "win_rate") & (s.side == "a")][["value", "fighter", "estimate", "ci_low", "ci_high"]]
        d = self.differences[self.differences.side == "a"][["from", "to", "difference", "ci_low", "ci_high",
                                                             "variance_ratio"]]
        return "<p>win rate of side a by value</p>" + w.to_html(index=False) + \
            "<p>paired differences of neighbours</p>" + d.to_html(index=False)


def sweep(fighter: api.FighterRef, opponent: api.FighterRef, field: str, values: Sequence[Any], n: int = 50_000,
          seed: int = 0, options: Mapping[str, str] | None = None, rules: str | None = None,
          threads: int | None = None, ruleset: str | None = None, executor: Executor | None = None,
          client: Any = None, target_error: float | None = None, max_n: int = api.MAX_N_DEFAULT) -> Sweep:
    """Play ``fighter`` with ``field`` set to each of ``values`` against ``opponent``, all values on
    the same duels (common random numbers), with the paired differences of neighbouring values.
    With ``target_error`` (percentage points) all values play on until every value's rates meet it
    (or ``max_n``), still on the same duels.

    ``client`` (a ``distributed.Client``) or ``executor`` run the duels elsewhere, e.g. on a Dask
    cluster, with the same counters (``docs/cluster.md``). ``values`` holds each value once."""
    n, seed, threads = check_run(n, seed, threads)
    prec = api.precision_of(target_error, max_n)
    values = api.values_of(values, "sweep")
    fighter, opponent = api.fighter_ref(fighter), api.fighter_ref(opponent)
    rules, options, ruleset = checked(rules, options, ruleset)
    if not values:
        raise DataError("sweep", "values", "needs at least one value")
    once("sweep", "values", values, "value")
    rs = resolve_ruleset([fighter, opponent], ruleset)
    f, opp = rs.load_fighter(fighter, "fighter"), rs.load_fighter(opponent, "opponent")
    prepared = [rs.prepare(vary(f, field, v, where="sweep"), opp, rules, options) for v in values]
    cells = [p.compiled for p in prepared]
    facts: list[dict[str, Any]] = [{} for _ in values]
    if prec is None:
        counters, joint, elapsed = run_paired_counters(cells, n, seed, threads,
                                                       executor=resolve(executor, client, threads))
    else:
        def widest(_w: int, totals: tuple[np.ndarray, ...], k: int) -> tuple[float, bool]:
            return rates_half_width(rs.counters, totals[0], k), False

        pr = run_to_precision([paired_work(cells, seed)], prec, widest, threads,
                              executor=resolve(executor, client, threads))
        (rows, joint), n, elapsed = pr.totals[0], pr.n[0], pr.wall
        counters, joint = list(rows), joint[: len(cells) - 1]
        facts = [{"target_error": prec.target, "half_width": rates_half_width(rs.counters, row, n),
                  "target_met": pr.met[0]} for row in rows]
    results = []
    for v, p, cnt, fact in zip(values, prepared, counters, facts):
        result = api.result_of(rs, p, cnt, n, seed, elapsed / len(values),
                               {"variant": "", "sweep": field, "value": str(v)})
        result.precision.update(fact)
        results.append(result)
    return Sweep(results, paired_differences(results, joint, "value"))


def round_robin(fighters: Sequence[api.FighterRef], n: int = 50_000, seed: int = 0,
                options: Mapping[str, str] | None = None, rules: str | None = None,
                threads: int | None = None, ruleset: str | None = None, executor: Executor | None = None,
                client: Any = None, target_error: float | None = None, max_n: int = api.MAX_N_DEFAULT,
                early_stop: bool = False) -> list[Any]:
    """Every pair of ``fighters`` once (a vs b); results labelled for frames and the matchup matrix
    (``plots.matchup_matrix_figure(frames.summary_frame(results))``). All pairs are handed to the
    executor at once (``client`` / ``executor`` as in :func:`sweep`).

    With ``target_error`` (percentage points) each pair plays to that half-width (or ``max_n``);
    with ``early_stop`` too, a pair stops as soon as the 95 % interval of a's win rate excludes
    50 % (the question "who is favoured?" is answered; its rates are then less precise than the
    target, and stopping at the first look that excludes 50 % makes a wrong side somewhat more
    likely than the 2.5 % of a single look).

    Each fighter once (the same name or file twice is a :class:`DataError`); different files
    whose fighters share a name are labelled apart, ``"Brute (brute2.toml)"``; fighter objects
    sharing a name are an error (rename one)."""
    n, seed, threads = check_run(n, seed, threads)
    prec = api.precision_of(target_error, max_n, threshold=0.5 if early_stop else None)
    fighters = api.fighter_refs(fighters, "fighters", "round_robin")
    rules, options, ruleset = checked(rules, options, ruleset)
    if len(fighters) < 2:
        raise DataError("round_robin", "fighters", "needs at least two fighters")
    keys = [identity(f) for f in fighters]
    for i, key in enumerate(keys):
        j = keys.index(key)
        if j != i:
            raise DataError("round_robin", f"fighters[{i}]", f"the same fighter as fighters[{j}]; list each "
                            "fighter once")
    rs = resolve_ruleset(fighters, ruleset)
    loaded = [rs.load_fighter(f, f"fighters[{i}]") for i, f in enumerate(fighters)]
    loaded = names_apart(loaded, [f if isinstance(f, str) else None for f in fighters], "round_robin")
    pairs = list(itertools.combinations(loaded, 2))
    prepared = [(rs, rs.prepare(fa, fb, rules, options)) for fa, fb in pairs]
    labels = [{"matchup": f"{fa.name} vs {fb.name}", "variant": ""} for fa, fb in pairs]
    return api.duels(prepared, n, seed, threads, labels=labels, executor=executor, client=client, precision=prec)


# -- stat weights -----------------------------------------------------------------------------------

WEIGHT_COLUMNS = ["stat", "step", "from", "to", "delta", "ci_low", "ci_high", "n", "path", "cost", "per_point"]


@dataclass
class Weights:
    """Stat weights of side a against b: for each adjustable stat of a and each step (−1, +1; WFRP
    characteristics ±5), the change of a's win rate with its paired 95 % interval, largest first;
    with a price list (:mod:`brutal_sim.core.costs`) each step's ``cost`` (a step down refunds) and
    its change per unit of cost, ``per_point`` (NaN where the stat has no price)."""

    a: str
    b: str
    ruleset: str
    seed: int
    rows: pd.DataFrame  # WEIGHT_COLUMNS; delta, ci_low, ci_high as fractions of duels
    options: dict[str, Any] = field(default_factory=dict)
    precision: dict[str, Any] = field(default_factory=dict)  # with a target error: target_error, target_met
    label: str = ""  # the variant (scenarios)
    #: fighter a with each row's change: ``(path, step) → fighter`` (:meth:`apply`)
    variants: dict[tuple[str, int], Any] = field(default_factory=dict, repr=False)
    unit: str = "points"  # the unit of ``cost``

    def best_buy(self) -> Any:
        """The priced step up whose interval lies wholly above zero with the largest gain per unit of
        cost (a row of :attr:`rows`), or None."""
        r = self.rows
        r = r[(r["step"] > 0) & (r["ci_low"] > 0) & (r["cost"] > 0)]
        return None if r.empty else r.loc[r["per_point"].idxmax()]

    def frame(self) -> pd.DataFrame:
        """Tidy: one row per stat and step (``stat``, ``step``, ``from``, ``to``, ``delta``,
        ``ci_low``, ``ci_high``, ``n``, and the field's ``path``), sorted by the size of ``delta``,
        with ``a``, ``b`` and the ``variant``."""
        return self.rows.assign(a=self.a, b=self.b, variant=self.label)

    def changing(self) -> pd.DataFrame:
        """The rows of steps that changed the outcome of at least one duel (a step that changes
        nothing has a change of 0 and an interval of width 0)."""
        r = self.rows
        return r[~((r["delta"] == 0) & (r["ci_low"] == 0) & (r["ci_high"] == 0))].reset_index(drop=True)

    def apply(self, row: Any) -> Any:
        """Fighter a with the change of one row: its index in :attr:`rows`, or the row itself (from
        :meth:`frame`, :meth:`changing` or ``rows.iloc[k]``)."""
        if isinstance(row, (int, np.integer)):
            row = self.rows.iloc[int(row)]
        key = (str(row["path"]), int(row["step"]))
        if key not in self.variants:
            raise DataError("weights", "row", f"no step {key[1]:+d} of {key[0]!r} among these weights")
        return self.variants[key]

    def figure(self, title: str | None = None, show_all: bool = False) -> Any:
        """A bar per row with its interval (:func:`brutal_sim.results.plots.weights_figure`); the
        steps that change nothing are left out unless ``show_all``."""
        rows = self.rows if show_all else self.changing()
        return weights_figure(rows.assign(a=self.a, b=self.b, variant=self.label), title)

    def to_dict(self) -> dict[str, Any]:
        """The public JSON object of ``brutal-sim weights --json``."""
        return {"a": self.a, "b": self.b, "ruleset": self.ruleset, "seed": self.seed, "options": self.options,
                **self.precision, "unit": self.unit,
                "rows": [{"stat": r.stat, "step": int(r.step), "from": r["from"], "to": r["to"],
                          "delta": float(r.delta), "ci95": [float(r.ci_low), float(r.ci_high)], "n": int(r.n),
                          "cost": None if pd.isna(r.cost) else float(r.cost),
                          "per_point": None if pd.isna(r.per_point) else float(r.per_point)}
                         for _, r in self.rows.iterrows()]}

    def _repr_html_(self) -> str:
        rows = self.changing()
        shown = rows.assign(delta=100 * rows.delta, ci_low=100 * rows.ci_low, ci_high=100 * rows.ci_high,
                            per_point=100 * rows.per_point).round(2)
        hidden = len(self.rows) - len(rows)
        more = f" {hidden} steps that change no duel are not shown (<code>.rows</code> has them)." if hidden else ""
        return (f"<p>Stat weights of <b>{escape(self.a)}</b> against <b>{escape(self.b)}</b>: change of "
                f"{escape(self.a)}'s win rate in percentage points, paired 95 % intervals.{more}</p>"
                + shown.drop(columns="path").to_html(index=False))


def stat_weights(a: api.FighterRef, b: api.FighterRef, n: int = 100_000, seed: int = 0,
                 options: Mapping[str, str] | None = None, rules: str | None = None, ruleset: str | None = None,
                 threads: int | None = None, executor: Executor | None = None, client: Any = None,
                 target_error: float | None = None, max_n: int = api.MAX_N_DEFAULT, label: str = "",
                 progress: ProgressFn | None = None, costs: Any = None) -> Weights:
    """Which stat buys a the most against b: every numeric stat the ruleset declares adjustable
    (:attr:`~brutal_sim.core.ruleset.Ruleset.adjustable`: Brutal checks, attributes, the weapon's
    die, penetration, durability, armour; WFRP characteristics by 5, Attacks, Wounds; Vereteno
    attributes, skills, gear) one step down and up, each played against the unchanged fighter on the
    same duels (common random numbers), with the paired 95 % interval of the change of a's win rate.

    With ``target_error`` (percentage points) each stat plays until the half-width of its changes'
    intervals is at most that (or ``max_n``); else ``n`` duels each. A step outside the field's
    range (a check at its minimum, a d12 up) is left out. ``progress(duels done, duels planned)``
    is called after each chunk of duels (an exception it raises ends the run).

    Each step's cost comes from the price list in force (:func:`brutal_sim.core.costs.costs_for`:
    the ruleset's bundled costs < the rules file's ``[costs]`` < ``costs``, a
    :class:`~brutal_sim.core.costs.Costs` or a ``[costs]`` table).
    """
    n, seed, threads = check_run(n, seed, threads)
    prec = api.precision_of(target_error, max_n)
    a, b = api.fighter_ref(a), api.fighter_ref(b)
    rules, options, ruleset = checked(rules, options, ruleset)
    rs = resolve_ruleset([a, b], ruleset)
    prices = costs_for(rs, rules, costs)
    fa, fb = rs.load_fighter(a, "fighter a"), rs.load_fighter(b, "fighter b")
    base = rs.prepare(fa, fb, rules, options)
    data = rs.fighter_data(fa)
    stats: dict[str, dict[int, Any]] = {}
    for path, step, variant in stat_steps(fa, rs.adjustable):
        stats.setdefault(path, {})[step] = rs.prepare(variant, fb, rules, options)
    groups = []  # per stat: (path, [(step, cell index of the step, joint index, sign)], cells)
    for path, by_step in stats.items():
        down = [s for s in by_step if s < 0]
        up = [s for s in by_step if s > 0]
        cells = [by_step[s].compiled for s in down] + [base.compiled] + [by_step[s].compiled for s in up]
        steps = [(s, 0, -1) for s in down] + [(s, len(down), 1) for s in up]
        groups.append((path, steps, cells))
    if not groups:
        raise DataError("stat_weights", "a", f"{fa.name} has no adjustable stat with room for a step")
    works = [paired_work(cells, seed) for _, _, cells in groups]
    ex = resolve(executor, client, threads)

    def changes(w: int, joint: np.ndarray, k: int) -> list[tuple[int, float, float]]:
        return [(step, sign * d, half) for step, j, sign in groups[w][1]
                for d, half, _ in [paired_difference(joint[j], k)]]

    if prec is None:
        r = run(works, n, threads, executor=ex, progress=progress)
        totals, ns, facts = r.totals, [n] * len(works), {}
    else:
        pr = run_to_precision(works, prec, lambda w, t, k: (max(h for _, _, h in changes(w, t[1], k)), False),
                              threads, executor=ex, progress=progress)
        totals, ns = pr.totals, pr.n
        facts = {"target_error": prec.target, "half_width": max(pr.half_width), "target_met": all(pr.met)}
    rows = []
    for w, (path, _steps, _cells) in enumerate(groups):
        value = get_path(data, path)
        for step, change, half in changes(w, totals[w][1], ns[w]):
            delta = change + 0.0  # no −0.0
            variant = stats[path][step]
            cost = prices.step(path, 1 if step > 0 else -1)
            rows.append({"stat": stat_label(data, path), "step": step, "from": str(value),
                         "to": str(get_path(rs.fighter_data(variant.a), path)), "delta": delta,
                         "ci_low": delta - half, "ci_high": delta + half, "n": ns[w], "path": path,
                         "cost": np.nan if cost is None else cost,
                         "per_point": np.nan if not cost else delta / cost})
    frame = pd.DataFrame(rows, columns=WEIGHT_COLUMNS)
    frame = frame.reindex(frame["delta"].abs().sort_values(ascending=False, kind="stable").index).reset_index(drop=True)
    variants = {(path, step): p.a for path, by_step in stats.items() for step, p in by_step.items()}
    return Weights(fa.name, fb.name, rs.name, seed, frame, base.options.as_dict(), facts, label, variants, prices.unit)


# -- rule-version diffs -------------------------------------------------------------------------------

DIFF_COLUMNS = ["a", "b", "win_rate_old", "win_rate_new", "delta", "ci_low", "ci_high", "excludes_zero", "paired",
                "n"]


@dataclass
class RuleDiff:
    """Every matchup of a round robin under an old and a new rule set: the change of side a's win
    rate with its 95 % interval (paired where both rule sets can replay the same duels), largest
    change first."""

    ruleset: str
    seed: int
    options_old: dict[str, Any]
    options_new: dict[str, Any]
    rows: pd.DataFrame  # DIFF_COLUMNS; rates and deltas as fractions of duels
    precision: dict[str, Any] = field(default_factory=dict)

    def frame(self) -> pd.DataFrame:
        return self.rows.copy()

    @property
    def changed_options(self) -> dict[str, tuple[Any, Any]]:
        """Options whose value differs: name → (old, new)."""
        return {k: (self.options_old.get(k), v) for k, v in self.options_new.items() if self.options_old.get(k) != v}

    def figure(self, title: str | None = None) -> Any:
        return diff_figure(self.rows, title or "Change of each matchup's win rate (side a), 95 % intervals")

    def to_dict(self) -> dict[str, Any]:
        """The public JSON object of ``brutal-sim diff --json``."""
        return {"ruleset": self.ruleset, "seed": self.seed, "options_old": self.options_old,
                "options_new": self.options_new, **self.precision,
                "rows": [{"a": r.a, "b": r.b, "win_rate_old": float(r.win_rate_old),
                          "win_rate_new": float(r.win_rate_new), "delta": float(r.delta),
                          "ci95": [float(r.ci_low), float(r.ci_high)], "excludes_zero": bool(r.excludes_zero),
                          "paired": bool(r.paired), "n": int(r.n)} for _, r in self.rows.iterrows()]}

    def _repr_html_(self) -> str:
        shown = self.rows.assign(**{c: (100 * self.rows[c]).round(2) for c in
                                    ("win_rate_old", "win_rate_new", "delta", "ci_low", "ci_high")})
        changed = ", ".join(f"{k}: {o} → {v}" for k, (o, v) in self.changed_options.items()) or "no option"
        return f"<p>Rule diff ({changed}), percentage points:</p>" + shown.to_html(index=False)


def rule_diff(fighters: Sequence[api.FighterRef] | None = None, rules_old: str | None = None,
              rules_new: str | None = None, options_old: Mapping[str, str] | None = None,
              options_new: Mapping[str, str] | None = None, n: int = 100_000, seed: int = 0,
              ruleset: str | None = None, threads: int | None = None, executor: Executor | None = None,
              client: Any = None, target_error: float | None = None, max_n: int = api.MAX_N_DEFAULT,
              names: Mapping[str, str] | None = None,
              fighters_new: Sequence[api.FighterRef] | None = None, progress: ProgressFn | None = None) -> RuleDiff:
    """What a rule change does to every matchup: the round robin of ``fighters`` (default: the
    ruleset's whole bundled catalog) under the old rules (``rules_old`` file, ``options_old``) and
    the new (``rules_new``, ``options_new``), each pair on the same duels, with the change of side
    a's win rate and its 95 % interval, sorted by size; ``excludes_zero`` flags the changes the
    interval tells apart from none.

    The two versions replay the same duel indices; where they share the kernels' tables and round
    cap (every option but ``round_cap`` and a rules file's own zone table) the interval is paired
    (per-duel changes), else that of two independent runs (``paired`` says which). With
    ``target_error`` each pair plays until both versions' rates, and a paired change, meet it.
    ``fighters_new`` (as long as ``fighters``) plays the new version with these fighters in their
    places, e.g. the catalog with one fighter changed: a balance fix checked against everyone (the
    rows keep the old names). Errors name the arguments as ``names`` maps them (the CLI:
    ``{"options_old": "--option-a", …}``). ``progress(duels done, duels planned)`` is called after
    each chunk of duels (an exception it raises ends the run).
    """
    names = names or {}
    n, seed, threads = check_run(n, seed, threads)
    prec = api.precision_of(target_error, max_n)
    fighters = None if fighters is None else api.fighter_refs(fighters, names.get("fighters", "fighters"))
    fighters_new = (None if fighters_new is None
                    else api.fighter_refs(fighters_new, names.get("fighters_new", "fighters_new")))
    rules_old, options_old, ruleset = checked(rules_old, options_old, ruleset, names.get("rules_old", "rules_old"),
                                               names.get("options_old", "options_old"))
    rules_new, options_new, _ = checked(rules_new, options_new, None, names.get("rules_new", "rules_new"),
                                         names.get("options_new", "options_new"))
    rs = resolve_ruleset(list(fighters) if fighters else [], ruleset)
    refs = list(fighters) if fighters else rs.fighter_names()
    if len(refs) < 2:
        raise DataError("rule_diff", "fighters", "needs at least two fighters")
    loaded = [rs.load_fighter(f, f"fighters[{i}]") for i, f in enumerate(refs)]
    loaded = names_apart(loaded, [f if isinstance(f, str) else None for f in refs], "rule_diff")
    pairs = list(itertools.combinations(loaded, 2))
    new_pairs = pairs
    if fighters_new is not None:
        if len(fighters_new) != len(refs):
            raise DataError("rule_diff", "fighters_new", f"needs one fighter per fighter ({len(refs)}), got "
                            f"{len(fighters_new)}")
        changed = [rs.load_fighter(f, f"fighters_new[{i}]") for i, f in enumerate(fighters_new)]
        new_pairs = list(itertools.combinations(changed, 2))
    with api.named_errors({k: names.get(f"{k}_old", f"{k}_old") for k in ("options", "rules")}):
        old = [rs.prepare(fa, fb, rules_old, options_old) for fa, fb in pairs]
    with api.named_errors({k: names.get(f"{k}_new", f"{k}_new") for k in ("options", "rules")}):
        new = [rs.prepare(fa, fb, rules_new, options_new) for fa, fb in new_pairs]
    layout = rs.counters
    works: list[Any] = []
    pair_works: list[list[int]] = []  # per pair: its paired work, or its old and new works
    for p_old, p_new in zip(old, new):
        try:
            works.append(paired_work([p_old.compiled, p_new.compiled], seed))
            pair_works.append([len(works) - 1])
        except ValueError:  # different tables or round caps: two runs of the same duel indices
            works += [paired_work([p_old.compiled], seed), paired_work([p_new.compiled], seed)]
            pair_works.append([len(works) - 2, len(works) - 1])

    def interval(wi: int, totals: tuple[np.ndarray, ...], k: int) -> tuple[float, bool]:
        rows = totals[0]
        widest = rates_half_width(layout, rows, k)
        if len(rows) == 2:
            widest = max(widest, paired_difference(totals[1][0], k)[1])
        return widest, False

    if prec is None:
        r = run(works, n, threads, executor=resolve(executor, client, threads), progress=progress)
        totals, ns, facts = r.totals, [n] * len(works), {}
    else:
        pr = run_to_precision(works, prec, interval, threads, executor=resolve(executor, client, threads),
                              progress=progress)
        totals, ns = pr.totals, pr.n
        facts = {"target_error": prec.target, "target_met": all(pr.met)}
    rows = []
    for (fa, fb), members in zip(pairs, pair_works):
        if len(members) == 1:
            (c_old, c_new), joint = totals[members[0]]
            k_old = k_new = ns[members[0]]
            d, half, _ = paired_difference(joint[0], k_old)
        else:
            c_old, c_new = totals[members[0]][0][0], totals[members[1]][0][0]
            k_old, k_new = ns[members[0]], ns[members[1]]
            p0, p1 = c_old[layout.wins] / k_old, c_new[layout.wins] / k_new
            d = float(p1 - p0)
            half = Z95 * float(np.sqrt(p0 * (1 - p0) / k_old + p1 * (1 - p1) / k_new))
        rate_old, rate_new = c_old[layout.wins] / k_old, c_new[layout.wins] / k_new
        d += 0.0
        rows.append({"a": fa.name, "b": fb.name, "win_rate_old": float(rate_old), "win_rate_new": float(rate_new),
                     "delta": d, "ci_low": d - half, "ci_high": d + half,
                     "excludes_zero": not d - half <= 0 <= d + half, "paired": len(members) == 1,
                     "n": min(k_old, k_new)})
    frame = pd.DataFrame(rows, columns=DIFF_COLUMNS)
    frame = frame.reindex(frame["delta"].abs().sort_values(ascending=False, kind="stable").index).reset_index(drop=True)
    return RuleDiff(rs.name, seed, old[0].options.as_dict(), new[0].options.as_dict(), frame, facts)
