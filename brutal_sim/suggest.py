"""Suggested fixes, checked by play: the single changes of a matchup's fighters, and their pairs and
(within a budget) triples, that bring side a's win rate nearest a target, each one played.

Every candidate plays the same duels as the unchanged matchup (common random numbers), so each
suggestion's win rate is the one a plain ``duel`` with that change and seed gives, and its change
from the matchup has a paired interval. The single changes are the stat steps of the stat weights
(:func:`brutal_sim.core.variants.stat_steps`); combinations are ranked by the sum of their singles'
changes and the most promising ``verify`` of each size are played (all of them when there are no
more). Costs come from the price list in force (:mod:`brutal_sim.core.costs`).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from html import escape
from typing import Any, Mapping, Sequence

import numpy as np
import pandas as pd

from . import api
from .arguments import check_run, checked
from .core.costs import costs_for, path_matches, require_stat, singular
from .core.errors import DataError
from .core.ruleset import NO_ITEM, resolve_ruleset
from .core.variants import get_path, stat_label, stat_steps, with_changes
from .gauntlet import slot_variants, with_item
from .results.stats import paired_difference, wilson
from .run.engine import ProgressFn, beside_baseline, paired_work, run
from .run.executor import Executor
from .run.factory import resolve

__all__ = ["SUGGESTION_COLUMNS", "Suggestions", "suggest"]

#: the sides ``suggest`` may change
SIDES = ("a", "b", "both")
#: the most changes one suggestion combines
MAX_CHANGES = 3

SUGGESTION_COLUMNS = ["rank", "changes", "size", "win_rate", "ci_low", "ci_high", "delta", "delta_low", "delta_high",
                      "distance", "reaches", "cost", "predicted", "n"]


@dataclass(frozen=True)
class Change:
    """One single change of one side's fighter: a field to a new value (a stat step), or, with
    ``slot``, an item of the catalog in that item slot (a swap; in a list slot, one item added)."""

    side: str  # "a" or "b"
    path: str  # the field (an item slot's field)
    value: Any
    label: str  # "a.main_hand.damage d8 → d10", "a.main_hand arming_sword → longsword"
    cost: float | None
    slot: str = ""  # the item slot's name (:attr:`~brutal_sim.core.ruleset.Ruleset.item_slots`); "" a stat
    many: bool = False  # the slot is a list: the item is added

    def clashes(self, other: "Change") -> bool:
        """Whether the two changes touch the same field of the same side: the same stat, the same
        item slot, or a stat of the item a swap replaces (a list slot adds an item: its other items'
        stats stay)."""
        if self.side != other.side:
            return False
        if self.path == other.path:
            return True
        swap = self if self.slot and not self.many else other if other.slot and not other.many else None
        stat = other if swap is self else self
        return swap is not None and not stat.slot and stat.path.startswith(swap.path + ".")


@dataclass
class Suggestions:
    """The suggestions for a matchup: side a's win rate as it is and, per suggestion (``rows``,
    :data:`SUGGESTION_COLUMNS`, best first), its changes, its played win rate with the Wilson 95 %
    interval, its paired change from the matchup with its interval, its distance to the target,
    whether its interval holds the target (``reaches``), its cost (NaN where a change has no price)
    and the change its singles predicted."""

    a: str
    b: str
    ruleset: str
    seed: int
    target: float
    side: str
    base: tuple[float, float, float]  # side a's win rate and its 95 % interval, as it is
    rows: pd.DataFrame
    n: int
    budget: float | None = None
    unit: str = "points"
    options: dict[str, Any] = field(default_factory=dict)
    #: the fighters of each suggestion: ``changes`` text → (fighter a, fighter b) (:meth:`apply`)
    fighters: dict[str, tuple[Any, Any]] = field(default_factory=dict, repr=False)
    label: str = ""  # the variant (scenarios)

    #: the name of the tidy frame of a report (``suggestions.csv``)
    FRAME = "suggestions"

    def title(self) -> str:
        """The heading of a report's section."""
        return f"Suggested fixes: {self.a} against {self.b}, toward {100 * self.target:g} %"

    def table(self, shown: int = 10) -> tuple[list[str], list[list[Any]]]:
        """The first ``shown`` suggestions as a report's table: column names, and rows whose cells are
        text or (text, the number a column sorts by)."""
        rows = [[str(r["changes"]), (f"{100 * r['win_rate']:.1f} %", float(r["win_rate"])),
                 f"{100 * r['ci_low']:.1f} – {100 * r['ci_high']:.1f}", (f"{100 * r['delta']:+.1f}", float(r["delta"])),
                 "" if pd.isna(r["cost"]) else (f"{r['cost']:+g}", float(r["cost"])), "yes" if r["reaches"] else "",
                 (str(int(r["rank"])), int(r["rank"]))]
                for _, r in self.rows.head(shown).iterrows()]
        holds = f"holds {100 * self.target:g} %"
        return ["changes", "win rate", "95 % interval", "Δ points", self.unit, holds, "rank"], rows

    def caption(self) -> str:
        """What a report's table and chart show."""
        return ("Each suggestion is played on the same duels as the matchup as it is (common random numbers): its "
                "win rate is what a plain duel with that change and the seed gives, with its 95 % Wilson interval; "
                f"Δ is the paired change from the matchup; costs in {self.unit} from the price list in force. "
                "Those whose interval holds the target come first, fewest changes and least cost first.")

    def frame(self) -> pd.DataFrame:
        """Tidy: one row per played suggestion, best first, with ``a``, ``b``, the ``target`` and the
        ``variant``."""
        return self.rows.assign(a=self.a, b=self.b, target=self.target, variant=self.label)

    def reaching(self) -> pd.DataFrame:
        """The suggestions whose interval holds the target."""
        return self.rows[self.rows["reaches"]].reset_index(drop=True)

    def apply(self, row: Any) -> tuple[Any, Any]:
        """The fighters a and b of one suggestion: its index in :attr:`rows`, or the row itself."""
        if isinstance(row, (int, np.integer)):
            row = self.rows.iloc[int(row)]
        key = str(row["changes"])
        if key not in self.fighters:
            raise DataError("suggest", "row", f"no suggestion {key!r} among these")
        return self.fighters[key]

    def verdict(self) -> str:
        """One line: the best suggestion with its played win rate, interval and cost, or that none
        reaches the target and the nearest."""
        a_rate, lo, hi = self.base
        head = f"{self.a} wins {100 * a_rate:.1f} % against {self.b}"
        if len(self.rows) == 0:
            return f"{head}; no change to try."
        best = self.rows.iloc[0]
        text = (f"{best['changes']}: {100 * best['win_rate']:.1f} % ({100 * best['ci_low']:.1f}–"
                f"{100 * best['ci_high']:.1f}){self._cost(best)}")
        if bool(best["reaches"]):
            return f"{head}; for {100 * self.target:g} %: {text}."
        return f"{head}; no suggestion reaches {100 * self.target:g} %; the nearest: {text}."

    def _cost(self, row: Any) -> str:
        if pd.isna(row["cost"]):
            return ""
        unit = singular(self.unit) if abs(row["cost"]) == 1 else self.unit
        return f", cost {row['cost']:+g} {unit}"

    def to_dict(self) -> dict[str, Any]:
        """The public JSON object of ``brutal-sim suggest --json``."""
        return {"a": self.a, "b": self.b, "ruleset": self.ruleset, "seed": self.seed, "target": self.target,
                "side": self.side, "budget": self.budget, "unit": self.unit, "n": self.n, "options": self.options,
                "win_rate": self.base[0], "ci95": [self.base[1], self.base[2]], "verdict": self.verdict(),
                "suggestions": [
                    {"rank": int(r["rank"]), "changes": r["changes"], "size": int(r["size"]),
                     "win_rate": float(r["win_rate"]), "ci95": [float(r["ci_low"]), float(r["ci_high"])],
                     "delta": float(r["delta"]), "delta_ci95": [float(r["delta_low"]), float(r["delta_high"])],
                     "distance": float(r["distance"]), "reaches": bool(r["reaches"]),
                     "cost": None if pd.isna(r["cost"]) else float(r["cost"]), "predicted": float(r["predicted"]),
                     "n": int(r["n"])}
                    for _, r in self.rows.iterrows()]}

    def figure(self, shown: int = 12, title: str | None = None) -> Any:
        """The first ``shown`` suggestions as dots with their intervals, the target and the matchup as
        it is as lines (:func:`brutal_sim.results.plots.suggestions_figure`)."""
        from .results.plots import suggestions_figure

        return suggestions_figure(self.rows.head(shown), self.target, self.base[0],
                                  title or f"{self.a} against {self.b}: suggested changes")

    def _repr_html_(self) -> str:
        shown = self.rows.head(12)
        table = shown.assign(**{c: (100 * shown[c]).round(2) for c in
                                ("win_rate", "ci_low", "ci_high", "delta", "distance")})
        return (f"<p>{escape(self.verdict())}</p><p>Win rate % of {escape(self.a)}, played on the same duels "
                f"as the matchup ({self.n:,} each); cost in {escape(self.unit)}.</p>"
                + table[["rank", "changes", "win_rate", "ci_low", "ci_high", "delta", "cost", "reaches"]]
                .to_html(index=False))


def _singles(rs: Any, fighters: dict[str, Any], sides: Sequence[str], prices: Any,
             stats: Sequence[str] | None, items: Sequence[str] | None) -> list[tuple[Change, Any]]:
    """Each side's stat steps (of ``stats``, paths or patterns, when given) and item swaps (of the
    item slots ``items``; None every slot) as changes with their fighters."""
    out = []
    for side in sides:
        f = fighters[side]
        data = rs.fighter_data(f)
        for path, step, variant in stat_steps(f, rs.adjustable):
            if stats is not None and not any(s == path or path_matches(s, path) for s in stats):
                continue
            old, new = get_path(data, path), get_path(rs.fighter_data(variant), path)
            out.append((Change(side, path, new, f"{side}.{stat_label(data, path)} {old} → {new}",
                               prices.step(path, 1 if step > 0 else -1)), variant))
        for slot in rs.item_slots:
            if items is not None and slot.name not in items:
                continue
            held = rs.held_item(f, slot)
            fitting, _ = slot_variants(rs, f, slot)
            for name, variant in fitting.items():
                label = f"{side}.{slot.name} + {name}" if slot.many else f"{side}.{slot.name} {held} → {name}"
                cost = prices.item(name) if slot.many else prices.swap(None if held == NO_ITEM else held, name)
                out.append((Change(side, slot.field, name, label, cost, slot.name, slot.many), variant))
    return out


def _cost(changes: Sequence[Change]) -> float | None:
    costs = [c.cost for c in changes]
    return None if any(c is None for c in costs) else float(sum(costs))  # type: ignore[arg-type]


def suggest(a: api.FighterRef, b: api.FighterRef, target: float = 50.0, budget: float | None = None,
            side: str = "a", n: int = 50_000, seed: int = 0, verify: int = 16, shown: int | None = None,
            options: Mapping[str, str] | None = None, rules: str | None = None, ruleset: str | None = None,
            costs: Any = None, stats: Sequence[str] | None = None, items: Sequence[str] | None = None,
            threads: int | None = None,
            executor: Executor | None = None, client: Any = None,
            progress: ProgressFn | None = None) -> Suggestions:
    """The changes of ``side`` (``a``, ``b`` or ``both``) that bring a's win rate against b nearest
    ``target`` (percent), each played.

    Every single change (a stat step of the stat weights, on that side) plays ``n`` duels beside the
    matchup as it is, on the same duels. Pairs of changes to different fields (and, with a
    ``budget``, triples) are ranked by the win rate their singles' changes add up to, and the
    ``verify`` nearest the target of each size are played too (all when there are no more). With a
    ``budget`` (in the price list's unit) a suggestion whose cost is unknown or whose absolute cost
    exceeds it is left out.

    ``stats`` (field paths or the ruleset's adjustable patterns) limits the stats stepped; ``items``
    names the item slots whose catalog items are tried too (:attr:`~brutal_sim.core.ruleset.Ruleset.
    item_slots`: a swap of the item held, or in a list slot one item added; None, the default,
    every slot; ``[]`` none), each swap costing the difference of the items' prices. A single change that
    changes no duel joins no combination, and no combination changes one field twice (nor a stat of
    the item a swap replaces).

    Ranking: the suggestions whose 95 % interval holds the target first, the fewest changes first,
    then the fewest units of cost moved (unpriced last), then the nearest; the others after them,
    nearest first. ``costs`` tops the price list in force (:func:`brutal_sim.core.costs.costs_for`).
    """
    n, seed, threads = check_run(n, seed, threads)
    if side not in SIDES:
        raise DataError("suggest", "side", f"{side!r}; allowed: {', '.join(SIDES)}")
    if isinstance(target, bool) or not isinstance(target, (int, float)) or not 0 <= target <= 100:
        raise DataError("suggest", "target", f"{target!r}: a win rate in percent, 0 … 100")
    if budget is not None and (isinstance(budget, bool) or not isinstance(budget, (int, float))
                               or not math.isfinite(budget) or budget < 0):
        raise DataError("suggest", "budget", f"{budget!r}: a cost ≥ 0 in the price list's unit")
    if isinstance(verify, bool) or not isinstance(verify, int) or not 1 <= verify <= 1000:
        raise DataError("suggest", "verify", f"{verify!r}: the combinations played per size, 1 … 1000")
    a, b = api.fighter_ref(a), api.fighter_ref(b)
    rules, options, ruleset = checked(rules, options, ruleset)
    rs = resolve_ruleset([a, b], ruleset)
    prices = costs_for(rs, rules, costs)
    fighters = {"a": rs.load_fighter(a, "fighter a"), "b": rs.load_fighter(b, "fighter b")}
    base = rs.prepare(fighters["a"], fighters["b"], rules, options)
    sides = ("a", "b") if side == "both" else (side,)
    if stats is not None:
        stats = [api.check_name(x, "stats") for x in ([stats] if isinstance(stats, str) else stats)]
        for x in stats:
            require_stat(rs, x, "suggest", "stats")
    if items is not None:
        items = [rs.item_slot(x, "suggest: items").name for x in ([items] if isinstance(items, str) else items)]
    singles = _singles(rs, fighters, sides, prices, stats, items)
    if not singles:
        raise DataError("suggest", "side", f"no stat of side {side} has room for a step")
    goal = target / 100
    ex = resolve(executor, client, threads)

    def affordable(combo: Sequence[Change]) -> bool:
        cost = _cost(combo)
        return budget is None or (cost is not None and abs(cost) <= budget + 1e-9)

    def play(candidates: list[tuple[tuple[Change, ...], Any, Any]]) -> tuple[list[tuple[float, float]], int]:
        """Each candidate (changes, fighter a, fighter b) beside the matchup on the same duels, in one
        paired run (:func:`~brutal_sim.run.engine.beside_baseline`): each one's paired change and its
        half-width, and side a's wins in the matchup as it is."""
        cells = [base.compiled, *(rs.prepare(fa, fb, rules, options).compiled for _, fa, fb in candidates)]
        seq, pairs = beside_baseline(len(candidates))
        totals = run([paired_work([cells[i] for i in seq], seed)], n, threads, executor=ex, progress=progress).totals
        counters, joint = totals[0]
        out = []
        for i in range(1, len(cells)):
            j, sign = pairs[i]
            d, half, _ = paired_difference(joint[j], n)
            out.append((sign * d + 0.0, half))
        return out, int(counters[seq.index(0)][rs.counters.wins])

    # changes, fighters a and b, the change, its half-width, the change its singles predicted
    played: list[tuple[tuple[Change, ...], Any, Any, float, float, float]] = []
    candidates = [((c,), variant, fighters["b"]) if c.side == "a" else ((c,), fighters["a"], variant)
                  for c, variant in singles]
    found, wins = play(candidates)
    lo, hi = wilson(wins, n)
    rate = (wins / n, lo, hi)
    single_delta, moving = {}, []
    for (combo, fa, fb), (d, half) in zip(candidates, found):
        single_delta[combo[0]] = d
        played.append((combo, fa, fb, d, half, d))
        if d != 0 or half != 0:
            moving.append(combo[0])
    for size in range(2, (MAX_CHANGES if budget is not None else 2) + 1):
        combos = []
        for combo in itertools.combinations(moving, size):
            if any(x.clashes(y) for x, y in itertools.combinations(combo, 2)) or not affordable(combo):
                continue
            predicted = sum(single_delta[c] for c in combo)
            combos.append((abs(rate[0] + predicted - goal), combo, predicted))
        combos.sort(key=lambda t: t[0])
        chosen = []  # the nearest that make valid fighters (two swaps may not go together: a two-hander and a shield)
        for _, combo, predicted in combos:
            try:
                chosen.append((combo, *_fighters(fighters, rs, list(combo)), predicted))
            except DataError:
                continue
            if len(chosen) == verify:
                break
        if not chosen:
            continue
        found, _ = play([(combo, fa, fb) for combo, fa, fb, _ in chosen])
        for (combo, fa, fb, predicted), (d, half) in zip(chosen, found):
            played.append((combo, fa, fb, d, half, predicted))
    rows, by_label = [], {}
    for combo, fa, fb, d, half, predicted in played:
        if not affordable(combo):
            continue
        cost = _cost(combo)
        label = " + ".join(c.label for c in combo)
        p = rate[0] + d
        lo, hi = wilson(round(p * n), n)
        rows.append({"changes": label, "size": len(combo), "win_rate": p, "ci_low": lo, "ci_high": hi,
                     "delta": d, "delta_low": d - half, "delta_high": d + half, "distance": abs(p - goal),
                     "reaches": bool(lo <= goal <= hi), "cost": np.nan if cost is None else cost,
                     "predicted": rate[0] + predicted, "n": n})
        by_label[label] = (fa, fb)
    frame = pd.DataFrame(rows, columns=[c for c in SUGGESTION_COLUMNS if c != "rank"])
    if len(frame):
        frame = _ranked(frame)
    if shown is not None:
        frame = frame.head(shown)
    frame.insert(0, "rank", range(1, len(frame) + 1))
    return Suggestions(fighters["a"].name, fighters["b"].name, rs.name, seed, goal, side, rate,
                       frame.reset_index(drop=True), n, budget, prices.unit, base.options.as_dict(),
                       {k: v for k, v in by_label.items() if k in set(frame["changes"])})


def _ranked(frame: pd.DataFrame) -> pd.DataFrame:
    """The ranking of :func:`suggest`: reaching first, by size, absolute cost (unpriced last) and
    distance; then the rest by distance."""
    abs_cost = frame["cost"].abs().fillna(math.inf)
    key = pd.DataFrame({"miss": ~frame["reaches"], "cost": abs_cost.where(frame["reaches"], 0.0),
                        "size": frame["size"].where(frame["reaches"], 0), "distance": frame["distance"]})
    order = key.sort_values(["miss", "size", "cost", "distance"], kind="stable").index
    return frame.loc[order]


def _fighters(fighters: dict[str, Any], rs: Any, changes: Sequence[Change]) -> tuple[Any, Any]:
    """Fighters a and b with ``changes`` made: the item swaps first (with the ruleset's rules of
    each slot), then the stat steps."""
    out = []
    for side in ("a", "b"):
        f = fighters[side]
        for c in changes:
            if c.side == side and c.slot:
                f = with_item(rs, f, c.slot, c.value, "suggest")
        mine = {c.path: c.value for c in changes if c.side == side and not c.slot}
        out.append(with_changes(f, mine, "suggest") if mine else f)
    return out[0], out[1]
