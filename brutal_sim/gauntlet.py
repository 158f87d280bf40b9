"""Leaderboards of many items at once (:func:`gauntlet`: every catalog item that fits a slot of a
fighter, against a pool) and head-count balance (:func:`headcount`: how many of one fighter make a
fair fight for another), docs/designer.md "Gauntlets" and "Head-count balance".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from typing import Any, Mapping, Sequence

import numpy as np
import pandas as pd

from . import api
from .arguments import check_run, checked, once
from .core.counters import MAX_SIDE
from .core.errors import DataError, plural
from .core.ruleset import NO_ITEM, Ruleset, resolve_ruleset
from .core.variants import names_apart
from .results.header import rates_half_width
from .results.plots import gauntlet_figure
from .results.stats import Z95, paired_difference, wilson
from .run.engine import ProgressFn, beside_baseline, paired_work, run, run_to_precision
from .run.executor import Executor
from .run.factory import resolve

__all__ = ["Gauntlet", "Headcount", "gauntlet", "headcount", "slot_variants", "with_item"]


# -- gauntlets ---------------------------------------------------------------------------------------

GAUNTLET_COLUMNS = ["item", "baseline", "win_rate", "ci_low", "ci_high", "delta", "delta_low", "delta_high", "n"]


@dataclass
class Gauntlet:
    """A leaderboard of the items of one slot: the fighter with each item against every fighter of
    the pool on the same duels, the mean win rate over the pool with its 95 % interval, best first;
    the item the fighter holds (``baseline``) marked."""

    fighter: str
    slot: str
    ruleset: str
    seed: int
    pool: list[str]
    rows: pd.DataFrame  # GAUNTLET_COLUMNS; win rates as fractions of duels
    by_opponent: pd.DataFrame  # item, opponent, wins, losses, draws, win_rate, n
    left_out: dict[str, str] = field(default_factory=dict)  # catalog items that do not fit → why
    options: dict[str, Any] = field(default_factory=dict)
    precision: dict[str, Any] = field(default_factory=dict)
    #: the fighter with each row's item: ``item → fighter``
    variants: dict[str, Any] = field(default_factory=dict, repr=False)
    #: duels played in all: every item against every opponent, and the baseline once more beside
    #: each second item (its paired changes)
    played: int = 0
    label: str = ""  # the variant (scenarios)

    #: the name of the tidy frame of a report (``gauntlet.csv``)
    FRAME = "gauntlet"

    def title(self) -> str:
        """The heading of a report's section."""
        return f"Gauntlet: {self.fighter} by {self.slot}, against {plural(len(self.pool), 'fighter')}"

    def caption(self) -> str:
        """What a report's table and chart show."""
        return (f"Each item in {self.fighter}'s {self.slot} against every fighter of the pool "
                f"({', '.join(self.pool)}) on the same duels: the mean win rate over the pool with its 95 % "
                "interval, and the paired change against the item it holds (marked), best first.")

    def table(self) -> tuple[list[str], list[list[Any]]]:
        """A report's table: column names, and rows whose cells are text or (text, the number a
        column sorts by)."""
        rows = [[str(r["item"]) + (" (held)" if r["baseline"] else ""),
                 (f"{100 * r.win_rate:.1f} %", float(r.win_rate)), f"{100 * r.ci_low:.1f} – {100 * r.ci_high:.1f}",
                 ("" if r["baseline"] else f"{100 * r.delta:+.1f}", float(r.delta)),
                 "" if r["baseline"] else f"{100 * r.delta_low:+.1f} … {100 * r.delta_high:+.1f}"]
                for _, r in self.rows.iterrows()]
        return [self.slot, "mean win rate", "95 % interval", "Δ points", "paired 95 % interval"], rows

    @property
    def baseline(self) -> str:
        return str(self.rows.loc[self.rows["baseline"], "item"].iloc[0])

    @property
    def best(self) -> str:
        return str(self.rows["item"].iloc[0])

    def frame(self) -> pd.DataFrame:
        """Tidy: one row per item (``item``, ``baseline``, ``win_rate``, ``ci_low``, ``ci_high``,
        ``delta``, ``delta_low``, ``delta_high`` (the change against the baseline's win rate with its
        paired 95 % interval), ``n`` (duels per opponent)), best first, with the ``fighter``,
        ``slot`` and the number of opponents (``pool``)."""
        return self.rows.assign(fighter=self.fighter, slot=self.slot, pool=len(self.pool), variant=self.label)

    def figure(self, title: str | None = None) -> Any:
        """A dot per item with its interval, the baseline marked
        (:func:`brutal_sim.results.plots.gauntlet_figure`)."""
        return gauntlet_figure(self.rows, title or f"{self.fighter}: mean win rate against {len(self.pool)} "
                               f"fighters, by {self.slot} (95 % intervals)")

    def verdict(self) -> str:
        """One line: the best item with its rate and interval (and the baseline's when another is
        best)."""
        top = self.rows.iloc[0]
        line = (f"Best in {self.slot} against {plural(len(self.pool), 'fighter')}: {top['item']} "
                f"{100 * top.win_rate:.1f} % ({100 * top.ci_low:.1f}–{100 * top.ci_high:.1f})")
        if not top["baseline"]:
            base = self.rows[self.rows["baseline"]].iloc[0]
            own = " as is (none added)" if base["item"] == NO_ITEM else f"'s own {base['item']}"
            line += f"; {self.fighter}{own} {100 * base.win_rate:.1f} %"
        return line

    def to_dict(self) -> dict[str, Any]:
        """The public JSON object of ``brutal-sim gauntlet --json``."""
        return {"fighter": self.fighter, "slot": self.slot, "ruleset": self.ruleset, "seed": self.seed,
                "pool": list(self.pool), "options": self.options, **self.precision, "played": self.played,
                "left_out": dict(self.left_out),
                "rows": [{"item": r["item"], "baseline": bool(r["baseline"]), "win_rate": float(r.win_rate),
                          "ci95": [float(r.ci_low), float(r.ci_high)], "delta": float(r.delta),
                          "delta_ci95": [float(r.delta_low), float(r.delta_high)], "n": int(r.n),
                          "by_opponent": {o["opponent"]: float(o["win_rate"]) for _, o in
                                          self.by_opponent[self.by_opponent["item"] == r["item"]].iterrows()}}
                         for _, r in self.rows.iterrows()]}

    def _repr_html_(self) -> str:
        shown = self.rows.assign(**{c: (100 * self.rows[c]).round(2) for c in ("win_rate", "ci_low", "ci_high",
                                                                              "delta", "delta_low", "delta_high")})
        return (f"<p>{escape(self.verdict())}. <b>{escape(self.fighter)}</b> with each {escape(self.slot)} against "
                f"{escape(', '.join(self.pool))}: mean win rate %, 95 % intervals, the same duels for every "
                f"item.</p>" + shown.to_html(index=False))


def _pool(rs: Ruleset, fighter: Any, own: Any, against: Sequence[api.FighterRef] | None) -> list[Any]:
    """The opponents of a gauntlet: ``against``, or every bundled fighter of the ruleset but the
    fighter itself (given by catalog name: that one; given as an object: the bundled fighter of its
    name; a fighter file meets every bundled fighter)."""
    if against is None:
        refs: list[Any] = [r for r in rs.fighter_names() if r != own]
        loaded = [rs.load_fighter(r, "against") for r in refs]
        return [f for f, r in zip(loaded, refs) if isinstance(own, str) or f.name != fighter.name]
    refs = api.fighter_refs(against, "against", "gauntlet")
    if not refs:
        raise DataError("against", None, "needs at least one opponent")
    labels = [str(r) if isinstance(r, str) else str(getattr(r, "name", r)) for r in refs]
    twice = next((x for k, x in enumerate(labels) if x in labels[:k]), None)
    if twice is not None:
        raise DataError("against", None, f"{twice!r} is listed twice; list each opponent once")
    loaded = [rs.load_fighter(r, f"against[{i}]") for i, r in enumerate(refs)]
    return names_apart(loaded, [r if isinstance(r, str) else None for r in refs], "gauntlet", "against")


def with_item(rs: Ruleset, fighter: Any, slot: str, value: Any, where: str = "gauntlet") -> Any:
    """``fighter`` with ``value`` (an item's name, ``none``) in the item slot called ``slot`` of
    ruleset ``rs`` (:attr:`~brutal_sim.core.ruleset.Ruleset.item_slots`), the ruleset's rules of the
    slot applied (a two-handed weapon in the main hand empties the off hand), validated like a
    fighter file: a value that does not fit is a :class:`DataError`."""
    s = rs.item_slot(slot, where)
    data = rs.fighter_data(fighter)
    rs.place_item(data, s, value, where)
    return rs.fighter_from_data(data, f"{where} {s.name}={value}", fighter.name)


def slot_variants(rs: Ruleset, fighter: Any, slot: Any) -> tuple[dict[str, Any], dict[str, str]]:
    """``fighter`` with each other item that fits ``slot`` (an :class:`~brutal_sim.core.ruleset.ItemSlot`
    of ``rs``), by the item's name, and the items left out with why: the one it holds, one a list
    slot holds already, one the fighter file's own check refuses there."""
    base = rs.held_item(fighter, slot)
    listed = rs.fighter_data(fighter).get(slot.field) if slot.many else None
    held = {i.get("name") if isinstance(i, dict) else i for i in listed or []}
    fitting: dict[str, Any] = {}
    left_out: dict[str, str] = {}
    for v in rs.slot_values(slot):
        if v == base:
            continue
        if v in held:
            left_out[v] = "the fighter has it already"
            continue
        try:
            fitting[v] = with_item(rs, fighter, slot.name, v)
        except DataError as exc:
            left_out[v] = exc.message
    return fitting, left_out


def gauntlet(fighter: api.FighterRef, vary: str, against: Sequence[api.FighterRef] | None = None,
             values: Sequence[str] | None = None, n: int = 20_000, seed: int = 0,
             options: Mapping[str, str] | None = None, rules: str | None = None, ruleset: str | None = None,
             threads: int | None = None, executor: Executor | None = None, client: Any = None,
             target_error: float | None = None, max_n: int = api.MAX_N_DEFAULT,
             progress: ProgressFn | None = None) -> Gauntlet:
    """Every item that fits the slot ``vary`` (the ruleset's
    :attr:`~brutal_sim.core.ruleset.Ruleset.item_slots`: Brutal ``main_hand``, ``off_hand``,
    ``armour``, ``talent``, ``tactic``), or each of ``values``, in ``fighter``'s hands against every
    fighter of the pool: ``against``, by default every bundled fighter of the ruleset but the fighter
    itself. One row per item: the mean of its win rates against the pool, with the 95 % interval of
    that mean (normal, from each opponent's binomial variance), and its change against the item
    the fighter holds (the baseline, always a row) with the paired 95 % interval of that change
    (per opponent from the duels' joint outcomes, :func:`~brutal_sim.results.stats.paired_difference`;
    each item plays beside a baseline cell, one baseline cell serving two items), sorted best first.

    Every item plays the same duels against each opponent (common random numbers: the duels of
    ``api.duel(fighter with the item, opponent, n, seed)``, bit for bit), so the differences between
    rows are not blurred by sampling noise. A list slot (``armour``, ``talent``) adds the item to the
    fighter's list; its baseline is ``none``, the fighter as it is. Catalog items the fighter cannot
    hold there are left out (``left_out`` says why); a ``values`` entry that does not fit is a
    :class:`DataError`. With ``target_error`` (percentage points) each opponent's duels go on until
    every item's rates against it meet that half-width (or ``max_n``); else ``n`` duels each.
    """
    n, seed, threads = check_run(n, seed, threads)
    prec = api.precision_of(target_error, max_n)
    own = api.fighter_ref(fighter)
    rules, options, ruleset = checked(rules, options, ruleset)
    rs = resolve_ruleset([own], ruleset)
    slot = rs.item_slot(vary, "vary")
    f = rs.load_fighter(own, "fighter")
    pool = _pool(rs, f, own, against)
    if not pool:
        raise DataError("against", None, "no opponent: the ruleset's catalog holds no other fighter")
    base = rs.held_item(f, slot)
    variants: dict[str, Any] = {base: f}
    left_out: dict[str, str] = {}
    if values is not None:
        asked = [str(v) for v in api.values_of(values, "gauntlet")]
        if not asked:
            raise DataError("values", None, "needs at least one value")
        once("gauntlet", "values", asked, "value")
        for v in asked:
            if v != base:
                variants[v] = with_item(rs, f, slot.name, v, "values")
    else:
        fitting, left_out = slot_variants(rs, f, slot)
        variants.update(fitting)
    items = list(variants)
    if len(items) < 2:
        why = "; ".join(f"{k}: {v}" for k, v in list(left_out.items())[:2])
        raise DataError("vary", None, f"no item but {f.name}'s own {base!r} fits {slot.name}" +
                        (f" ({why}{'; …' if len(left_out) > 2 else ''})" if why else ""))
    seq, pairs = beside_baseline(len(items) - 1)
    prepared = [[rs.prepare(variants[items[i]], opp, rules, options) for i in seq] for opp in pool]
    works = [paired_work([p.compiled for p in cells], seed) for cells in prepared]
    ex = resolve(executor, client, threads)
    layout = rs.counters
    facts: dict[str, Any] = {}
    if prec is None:
        totals, ns = run(works, n, threads, executor=ex, progress=progress).totals, [n] * len(works)
    else:
        def widest(_w: int, t: tuple[np.ndarray, ...], k: int) -> tuple[float, bool]:
            return rates_half_width(layout, t[0], k), False

        pr = run_to_precision(works, prec, widest, threads, executor=ex, progress=progress)
        totals, ns = pr.totals, pr.n
        facts = {"target_error": prec.target, "half_width": max(pr.half_width), "target_met": all(pr.met)}
    per = []
    changes: dict[str, list[tuple[float, float]]] = {item: [] for item in items}  # per opponent: (change, half)
    for opp, t, k in zip(pool, totals, ns):
        for i, item in enumerate(items):
            row = t[0][seq.index(i)]
            wins, losses = int(row[layout.wins]), int(row[layout.wins + 1])
            per.append({"item": item, "opponent": opp.name, "wins": wins, "losses": losses,
                        "draws": int(row[layout.draws]), "win_rate": wins / k, "n": k})
            if i:
                j, sign = pairs[i]
                d, half, _ = paired_difference(t[1][j], k)
                changes[item].append((sign * d, half))
    by_opp = pd.DataFrame(per, columns=["item", "opponent", "wins", "losses", "draws", "win_rate", "n"])
    rows = []
    for item in items:
        mine = by_opp[by_opp["item"] == item]
        p = mine["win_rate"].to_numpy()
        half = Z95 * float(np.sqrt(np.sum(p * (1 - p) / mine["n"].to_numpy()))) / len(p)
        rate = float(p.mean())
        d = float(np.mean([c for c, _ in changes[item]])) + 0.0 if item != base else 0.0
        d_half = float(np.sqrt(sum(h * h for _, h in changes[item]))) / len(p)
        rows.append({"item": item, "baseline": item == base, "win_rate": rate, "ci_low": max(rate - half, 0.0),
                     "ci_high": min(rate + half, 1.0), "delta": d, "delta_low": d - d_half,
                     "delta_high": d + d_half, "n": int(mine["n"].min())})
    frame = pd.DataFrame(rows)
    frame = frame.sort_values("win_rate", ascending=False, kind="stable").reset_index(drop=True)[GAUNTLET_COLUMNS]
    return Gauntlet(f.name, slot.name, rs.name, seed, [o.name for o in pool], frame, by_opp, left_out,
                    prepared[0][0].options.as_dict(), facts, variants, sum(len(seq) * k for k in ns))


# -- head-count balance ------------------------------------------------------------------------------

HEADCOUNT_COLUMNS = ["count", "win_rate", "ci_low", "ci_high", "many_win_rate", "draw_rate", "n"]


@dataclass
class Headcount:
    """How many of ``many`` make a fair fight for one ``one``: a row per count k (1 v k group
    fights on the same random numbers), the one's win rate with its 95 % Wilson interval."""

    one: str
    many: str
    ruleset: str
    seed: int
    rows: pd.DataFrame  # HEADCOUNT_COLUMNS
    options: dict[str, Any] = field(default_factory=dict)
    precision: dict[str, Any] = field(default_factory=dict)
    label: str = ""  # the variant (scenarios)

    #: the name of the tidy frame of a report (``headcount.csv``)
    FRAME = "headcount"

    def title(self) -> str:
        """The heading of a report's section."""
        return f"Head-count: one {self.one} against 1 … {int(self.rows['count'].max())} {self.many}"

    def caption(self) -> str:
        """What a report's table and chart show."""
        return (f"Group fights of one {self.one} against k {self.many}, every count on the same random numbers: "
                f"the {self.one}'s win rate with its 95 % Wilson interval, the other side's and the draws.")

    def table(self) -> tuple[list[str], list[list[Any]]]:
        """A report's table: column names, and rows whose cells are text or (text, the number a
        column sorts by)."""
        rows = [[(str(int(r["count"])), int(r["count"])), (f"{100 * r.win_rate:.1f} %", float(r.win_rate)),
                 f"{100 * r.ci_low:.1f} – {100 * r.ci_high:.1f}",
                 (f"{100 * r.many_win_rate:.1f} %", float(r.many_win_rate)),
                 (f"{100 * r.draw_rate:.1f} %", float(r.draw_rate))] for _, r in self.rows.iterrows()]
        return [f"{self.many} (count)", f"{self.one} wins", "95 % interval", f"{self.many} win", "draws"], rows

    def figure(self, title: str | None = None) -> Any:
        """The one's win rate against the count, with its intervals and the even line
        (:func:`brutal_sim.results.plots.headcount_figure`)."""
        from .results.plots import headcount_figure

        return headcount_figure(self.rows, self.one, self.many, title or self.title())

    @property
    def smallest(self) -> int | None:
        """The smallest count whose side wins more than half of the fights (None: none does)."""
        wins = self.rows[self.rows["many_win_rate"] > 0.5]
        return None if wins.empty else int(wins["count"].iloc[0])

    @property
    def even(self) -> int:
        """The count whose fights come out nearest even: the two sides' win rates closest (draws
        count for neither)."""
        gap = (self.rows["win_rate"] - self.rows["many_win_rate"]).abs()
        return int(self.rows["count"].iloc[int(np.argmin(gap.to_numpy()))])

    def frame(self) -> pd.DataFrame:
        """Tidy: one row per count (``count``, ``win_rate`` (the one's), ``ci_low``, ``ci_high``,
        ``many_win_rate``, ``draw_rate``, ``n``), with ``one`` and ``many``."""
        return self.rows.assign(one=self.one, many=self.many, variant=self.label)

    def verdict(self) -> str:
        """One line: the smallest count that wins more than half (or that none does) and the even one."""
        top = int(self.rows["count"].max())
        even = self.rows[self.rows["count"] == self.even].iloc[0]
        near = (f"nearest even: {self.even} ({self.one} {100 * even.win_rate:.1f} %, "
                f"{self.many} {100 * even.many_win_rate:.1f} %)")
        if self.smallest is None:
            return f"No count of {self.many} up to {top} wins more than half against one {self.one}; {near}"
        row = self.rows[self.rows["count"] == self.smallest].iloc[0]
        return (f"{self.smallest} {self.many} win more than half against one {self.one} "
                f"({100 * row.many_win_rate:.1f} %); {near}")

    def to_dict(self) -> dict[str, Any]:
        """The public JSON object of ``brutal-sim headcount --json``."""
        return {"one": self.one, "many": self.many, "ruleset": self.ruleset, "seed": self.seed,
                "options": self.options, **self.precision, "smallest": self.smallest, "even": self.even,
                "rows": [{"count": int(r["count"]), "win_rate": float(r.win_rate),
                          "ci95": [float(r.ci_low), float(r.ci_high)], "many_win_rate": float(r.many_win_rate),
                          "draw_rate": float(r.draw_rate), "n": int(r.n)} for _, r in self.rows.iterrows()]}

    def _repr_html_(self) -> str:
        shown = self.rows.assign(**{c: (100 * self.rows[c]).round(2) for c in ("win_rate", "ci_low", "ci_high",
                                                                              "many_win_rate", "draw_rate")})
        return f"<p>{escape(self.verdict())}.</p>" + shown.to_html(index=False)


def headcount(one: api.FighterRef, many: api.FighterRef, max_count: int = MAX_SIDE, n: int = 20_000,
              seed: int = 0, options: Mapping[str, str] | None = None, rules: str | None = None,
              ruleset: str | None = None, threads: int | None = None, executor: Executor | None = None,
              client: Any = None, target_error: float | None = None,
              max_n: int = api.MAX_N_DEFAULT) -> Headcount:
    """How many of ``many`` make a fair fight for one ``one``: group fights of 1 against k for
    k = 1 … ``max_count`` (at most six a side), every count on the same random numbers
    (``api.fights``), each count's win rate of the one with its 95 % interval; ``smallest`` is the
    smallest count that wins more than half the fights, ``even`` the count nearest an even fight.
    Under a ruleset that plays group fights (capability ``fights``); else a :class:`DataError`.
    ``target_error``, ``max_n``, ``executor`` and ``client`` as in :func:`sweep`."""
    n, seed, threads = check_run(n, seed, threads)
    if isinstance(max_count, bool) or not isinstance(max_count, int) or not 1 <= max_count <= MAX_SIDE:
        raise DataError("max_count", None, f"expected a count 1 … {MAX_SIDE} (fighters a side), "
                        f"got {max_count!r}")
    prec = api.precision_of(target_error, max_n)
    one, many = api.fighter_ref(one), api.fighter_ref(many)
    rules, options, ruleset = checked(rules, options, ruleset)
    rs = resolve_ruleset([one, many], ruleset)
    rs.require("fights", "headcount")
    fa, fb = rs.load_fighter(one, "one"), rs.load_fighter(many, "many")
    prepared = [api.prepare_fight([fa], [fb] * k, rules, options, source="headcount", ruleset=rs.name)
                for k in range(1, max_count + 1)]
    results = api.fights(prepared, n, seed, threads, executor=executor, client=client, precision=prec)
    rows = []
    for k, r in enumerate(results, start=1):
        lo, hi = wilson(r.wins(0), r.n)
        rows.append({"count": k, "win_rate": r.wins(0) / r.n, "ci_low": lo, "ci_high": hi,
                     "many_win_rate": r.wins(1) / r.n, "draw_rate": r.draws / r.n, "n": r.n})
    facts: dict[str, Any] = {}
    if prec is not None:
        facts = {"target_error": prec.target, "target_met": all(r.precision.get("target_met", True) for r in results)}
    return Headcount(fa.name, fb.name, rs.name, seed, pd.DataFrame(rows, columns=HEADCOUNT_COLUMNS),
                     prepared[0].options.as_dict(), facts)
