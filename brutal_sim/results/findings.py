"""Key findings: the few sentences a report or a diff page opens with, generated from its results.

- a sweep of ordered values (numbers, dice): where side a's win rate crosses the target (50 %:
  even), as the two values played on each side of it with their win rates (a number also
  interpolated, with the interval the 95 % bands give), and the mean change per step; a sweep of
  names (tactics, weapons): the lowest and the highest value, the one nearest even when it is near
  (within :data:`NEAR`), or that no value differs beyond the noise. A sweep played under several
  variants is read in full under the first and summed up under the others in one sentence;
- a round robin (three matchups or more under one reading): the most and the least balanced pair,
  over every ruleset of the page;
- lethality (a page of several rulesets): how often a duel ends in a death, in one blow, and how
  many rounds it lasts, per ruleset;
- rule variants: each reading against its own default — the earlier variant that differs from it in
  the fewest options — matchup by matchup, naming the options that differ;
- group fights: each fight with its own options against the baseline of the same sides (the fight
  without options of its own, else the first), paired;
- stat weights: the steps that move the win rate most, and how many move it beyond the noise;
- a rule diff: how many changes exceed noise, the largest, how many chance alone would flag at the
  95 % level, and how many stay flagged after Holm's correction for the many comparisons.

A win rate is never given without its draws when they exceed :data:`DRAW_SHARE` of the runs. Each
function takes results (``DuelResult``, ``FightResult``, ``designer.Weights``) or a diff's rows and
returns plain sentences (no markup): the page escapes them, shows the first :data:`SHOWN` and folds
the rest.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Sequence

from ..core.costs import singular
from .stats import Z95, independent_half_width

#: the win rate a sweep is read against: even
TARGET = 0.5
#: draws above this share of the runs are named with every win rate quoted
DRAW_SHARE = 0.10
#: a value is "nearest even" only within this many win-rate points of the target
NEAR = 0.05
#: findings a page shows before it folds the rest
SHOWN = 6


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def _draw_share(r: Any) -> float:
    draws = r.to_dict().get("draws", 0)
    return draws / r.n if r.n else 0.0


def _rate(r: Any, rate: float) -> str:
    """A win rate, with the run's draws when they exceed :data:`DRAW_SHARE`."""
    share = _draw_share(r)
    return _pct(rate) + (f", {_pct(share)} draws" if share > DRAW_SHARE else "")


def _number(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


#: a dice expression a sweep may step through (d6, 2d6, d8+1, 3d10-2)
_DICE = re.compile(r"^\d*d\d+([+-]\d+)?$")


def on_a_scale(values: Sequence[object]) -> bool:
    """Whether swept values lie on a scale — all numbers, or all dice (``d6``, ``2d6+1``) — so that
    a point or a line between two of them reads as the values in between; names (tactics, weapons)
    do not."""
    texts = [str(v) for v in values]
    return all(_number(v) is not None for v in texts) or all(_DICE.match(v.replace(" ", "")) for v in texts)


def _numeric(values: Sequence[str]) -> bool:
    return all(_number(v) is not None for v in values)


def _crossing(ys: Sequence[float], target: float) -> float | None:
    """The first fractional index where the piecewise-linear curve through ``ys`` reaches
    ``target`` (from either side), or None."""
    for i in range(len(ys) - 1):
        lo, hi = ys[i], ys[i + 1]
        if (lo - target) * (hi - target) <= 0 and lo != hi:
            return i + (target - lo) / (hi - lo)
    return None


def _number_at(values: Sequence[str], position: float) -> str:
    """A fractional index of a sweep of numbers, as the number it interpolates."""
    i = min(int(position), len(values) - 2)
    a, b = float(values[i]), float(values[i + 1])
    return f"{a + (position - i) * (b - a):.3g}"


@dataclass
class _Sweep:
    """One sweep's cells under one variant against one opponent, read."""

    values: list[str]
    cells: list[Any]
    rates: list[float]
    lows: list[float]
    highs: list[float]

    @classmethod
    def of(cls, cells: list[Any]) -> _Sweep:
        ds = [c.to_dict() for c in cells]
        return cls([c.labels.get("value", "") for c in cells], cells, [c.wins(0) / c.n for c in cells],
                   [d["a"]["ci95"][0] for d in ds], [d["a"]["ci95"][1] for d in ds])

    def rate(self, k: int) -> str:
        return _rate(self.cells[k], self.rates[k])

    def nearest(self, target: float) -> int:
        return min(range(len(self.rates)), key=lambda k: abs(self.rates[k] - target))

    def extremes(self) -> tuple[int, int] | None:
        """The lowest and the highest value, or None when their bands overlap (no value differs
        beyond the noise)."""
        low = min(range(len(self.rates)), key=lambda k: self.rates[k])
        high = max(range(len(self.rates)), key=lambda k: self.rates[k])
        return None if self.lows[high] <= self.highs[low] else (low, high)

    def step(self) -> float:
        return (self.rates[-1] - self.rates[0]) / (len(self.rates) - 1) if len(self.rates) > 1 else 0.0

    def summary(self, target: float) -> str:
        """This sweep's reading in a few words, to count alike readings under several variants."""
        if not on_a_scale(self.values):
            ends = self.extremes()
            return "no value beyond the noise" if ends is None else \
                f"highest with {self.values[ends[1]]}, lowest with {self.values[ends[0]]}"
        at = _crossing(self.rates, target)
        if at is None:
            return f"{'above' if self.rates[0] > target else 'below'} {_pct(target)} throughout"
        i = min(int(at), len(self.values) - 2)
        return f"even between {self.values[i]} and {self.values[i + 1]}"


def _named_sweep(who: str, s: _Sweep, target: float) -> str:
    """A sweep of names: no order between the values, so the extremes, and the value nearest the
    target when it is near, instead of a crossing."""
    ends = s.extremes()
    if ends is None:
        return (f"{who}: no value differs beyond the noise ({_pct(min(s.rates))} – {_pct(max(s.rates))} over "
                f"{len(s.values)} values).")
    low, high = ends
    nearest = s.nearest(target)
    near = (f"nearest {_pct(target)} with {s.values[nearest]} ({s.rate(nearest)})"
            if abs(s.rates[nearest] - target) <= NEAR else
            f"none within {100 * NEAR:.0f} points of {_pct(target)}")
    return (f"{who}: lowest with {s.values[low]} ({s.rate(low)}), highest with {s.values[high]} "
            f"({s.rate(high)}); {near}.")


def _ordered_sweep(who: str, s: _Sweep, target: float) -> str:
    """A sweep on a scale: where it crosses the target, as the values played on each side of it (a
    number also interpolated, with the interval its bands give)."""
    steps = (f"; a step of the sweep changes it by {100 * s.step():+.1f} points on average"
             if len(s.rates) > 1 else "")
    nearest = s.nearest(target)
    at = _crossing(s.rates, target)
    if at is None:
        side = "above" if s.rates[0] > target else "below"
        return (f"{who} stays {side} {_pct(target)} from {s.values[0]} ({s.rate(0)}) to {s.values[-1]} "
                f"({s.rate(len(s.values) - 1)}); nearest at {s.values[nearest]} ({s.rate(nearest)}){steps}.")
    i = min(int(at), len(s.values) - 2)
    between = f"between {s.values[i]} ({s.rate(i)}) and {s.values[i + 1]} ({s.rate(i + 1)})"
    if _numeric(s.values):
        ends = sorted(p for p in (_crossing(s.lows, target), _crossing(s.highs, target)) if p is not None)
        interval = (f" (95 % interval {_number_at(s.values, ends[0])} – {_number_at(s.values, ends[-1])})"
                    if len(ends) == 2 else " (the 95 % bands do not both cross within the sweep)")
        return f"{who}: even ({_pct(target)}) at about {_number_at(s.values, at)}{interval}, {between}{steps}."
    within = s.lows[nearest] <= target <= s.highs[nearest]
    return (f"{who}: even ({_pct(target)}) lies {between}; of the values played, {s.values[nearest]} is nearest"
            f"{', even within the noise' if within else ''}{steps}.")


def sweep_findings(results: Sequence[Any], target: float = TARGET) -> list[str]:
    """Per sweep and opponent: where the swept fighter's win rate crosses ``target`` (or a sweep of
    names' extremes) under the first variant, and under the other variants, if any, one sentence
    that counts their alike readings."""
    groups: dict[tuple[str, str], dict[str, list[Any]]] = {}
    for r in results:
        sweep = r.labels.get("sweep", "")
        if sweep:
            groups.setdefault((sweep, r.names[1]), {}).setdefault(r.labels.get("variant", ""), []).append(r)
    out = []
    for (sweep, opponent), by_variant in groups.items():
        variants = list(by_variant)
        sweeps = [_Sweep.of(by_variant[v]) for v in variants]
        first = sweeps[0]
        tag = f" [{variants[0]}]" if len(variants) > 1 and variants[0] else ""
        who = f"{sweep}{tag}: {first.cells[0].names[0]} against {opponent}"
        read = _ordered_sweep if on_a_scale(first.values) else _named_sweep
        out.append(read(who, first, target))
        if len(sweeps) > 1:
            counts: dict[str, int] = {}
            for s in sweeps[1:]:
                key = s.summary(target)
                counts[key] = counts.get(key, 0) + 1
            alike = "; ".join(f"{key} in {k}" for key, k in sorted(counts.items(), key=lambda kv: -kv[1]))
            others = f"the other {len(sweeps) - 1} variants" if len(sweeps) > 2 else "the other variant"
            out.append(f"{sweep}: {first.cells[0].names[0]} against {opponent} under {others}: {alike}.")
    return out


def _plain_cells(results: Sequence[Any]) -> list[Any]:
    return [r for r in results if not r.labels.get("sweep", "")]


def _rulesets(cells: Sequence[Any]) -> list[str]:
    return list(dict.fromkeys(getattr(r, "ruleset", "") for r in cells))


def _first_reading(cells: Sequence[Any]) -> list[Any]:
    """The cells of each ruleset's first variant (a page of several rulesets labels each ruleset's
    cells with its name)."""
    first: dict[str, str] = {}
    for r in cells:
        first.setdefault(getattr(r, "ruleset", ""), r.labels.get("variant", ""))
    return [r for r in cells if r.labels.get("variant", "") == first[getattr(r, "ruleset", "")]]


def _round_robin(cells: Sequence[Any]) -> bool:
    """Whether each ruleset's matchups pair every two of their fighters (a round robin), not a list
    of unrelated matchups whose "most balanced" would compare nothing alike."""
    for name in _rulesets(cells):
        own = [r for r in cells if getattr(r, "ruleset", "") == name]
        fighters = {x for r in own for x in r.names}
        pairs = {frozenset(r.names) for r in own}
        if len(pairs) < len(fighters) * (len(fighters) - 1) // 2:
            return False
    return True


def round_robin_findings(results: Sequence[Any]) -> list[str]:
    """The most and the least balanced matchups of a round robin (three or more, :func:`_round_robin`)
    under each ruleset's first reading, over every ruleset of the page."""
    cells = _first_reading(_plain_cells(results))
    if len(cells) < 3 or not _round_robin(cells):
        return []
    several = len(_rulesets(cells)) > 1

    def gap(r: Any) -> float:
        return abs(r.wins(0) - r.wins(1)) / r.n

    def words(r: Any) -> str:
        share = _draw_share(r)
        draws = f", {_pct(share)} draws" if share > DRAW_SHARE else ""
        under = f" under {r.ruleset}" if several else ""
        return f"{r.names[0]} vs {r.names[1]}{under} ({_pct(r.wins(0) / r.n)} : {_pct(r.wins(1) / r.n)}{draws})"

    ordered = sorted(cells, key=gap)
    over = f" across {', '.join(_rulesets(cells))}" if several else ""
    return [f"Most balanced of {len(cells)} matchups{over}: {words(ordered[0])}; least balanced: "
            f"{words(ordered[-1])}."]


def lethality_findings(results: Sequence[Any]) -> list[str]:
    """On a page of several rulesets, how lethal each is over its first reading's matchups: the
    share of decided duels that end in the loser's death and in one blow, and the mean rounds."""
    cells = _first_reading(_plain_cells(results))
    names = _rulesets(cells)
    if len(names) < 2:
        return []
    deaths, one_blow, rounds = [], [], []
    for name in names:
        own = [r for r in cells if getattr(r, "ruleset", "") == name]
        decided = sum(r.wins(0) + r.wins(1) for r in own) or 1
        deaths.append(sum(r.deaths(0) + r.deaths(1) for r in own) / decided)
        one_blow.append(sum(r.one_blow(0) + r.one_blow(1) for r in own) / decided)
        rounds.append(sum(r.to_dict()["rounds"]["mean"] * (r.wins(0) + r.wins(1)) for r in own) / decided)

    def each(xs: list[float], form: Any) -> str:
        return ", ".join(f"{form(x)} under {name}" for x, name in zip(xs, names))

    return [f"How lethal: a decided duel ends in the loser's death in {each(deaths, _pct)}; in one blow in "
            f"{each(one_blow, _pct)}; it lasts {each(rounds, lambda x: f'{x:.1f} rounds')} on average "
            f"(each ruleset's matchups at its defaults)."]


def _own_default(variants: list[str], options: dict[str, dict[str, Any]], rulesets: dict[str, str],
                 k: int) -> tuple[str, list[str]]:
    """The variant ``variants[k]`` is read against: the earlier variant of its ruleset whose options
    differ from its own in the fewest (ties: the earliest), else the first; and the options that
    differ, as ``name = value``."""
    mine = options[variants[k]]

    def differing(other: str) -> list[str]:
        theirs = options[other]
        return [f"{key} = {mine.get(key, '')}" for key in dict.fromkeys([*mine, *theirs])
                if mine.get(key) != theirs.get(key)]

    same = [v for v in variants[:k] if rulesets[v] == rulesets[variants[k]]]
    if not same:
        return variants[0], []
    base = min(same, key=lambda v: len(differing(v)))
    return base, differing(base)


def variant_findings(results: Sequence[Any], differences: Any = None, limit: int = 6) -> list[str]:
    """Each reading against its own default (:func:`_own_default`): the change of side a's win rate
    in the matchups where it exceeds the noise (the largest ones when there are many), with its
    paired 95 % interval where ``differences`` (the scenario's paired differences of neighbouring
    cells) holds the pair, else the interval two independent runs would give; the readings that
    change no matchup beyond the noise in one sentence at the end."""
    cells = _plain_cells(results)
    variants = list(dict.fromkeys(r.labels.get("variant", "") for r in cells))
    if len(variants) < 2:
        return []
    options = {v: dict(getattr(next(r for r in cells if r.labels.get("variant", "") == v), "options", {}) or {})
               for v in variants}
    rulesets = {v: getattr(next(r for r in cells if r.labels.get("variant", "") == v), "ruleset", "")
                for v in variants}
    out: list[str] = []
    quiet: list[str] = []
    for k, variant in enumerate(variants[1:], start=1):
        base_name, differ = _own_default(variants, options, rulesets, k)
        base = {r.labels.get("matchup", ""): r for r in cells if r.labels.get("variant", "") == base_name}
        changes = []
        for r in cells:
            b = base.get(r.labels.get("matchup", ""))
            if r.labels.get("variant", "") != variant or b is None:
                continue
            pa, pb = r.wins(0) / r.n, b.wins(0) / b.n
            half = _paired_half(differences, r.labels.get("matchup", ""), base_name, variant)
            if half is None:
                half = independent_half_width(pb, b.n, pa, r.n)
            changes.append((pa - pb, half, r.labels.get("matchup", "")))
        if not changes:
            continue
        what = f" ({', '.join(differ)})" if differ and len(differ) <= 3 else ""
        beyond = sorted((c for c in changes if abs(c[0]) > c[1]), key=lambda c: -abs(c[0]))
        if not beyond:
            quiet.append(f"{variant} against {base_name}{what}")
            continue
        shown = ", ".join(f"{m} {100 * d:+.1f} points (±{100 * h:.1f})" for d, h, m in beyond[:limit])
        more = f" and {len(beyond) - limit} more" if len(beyond) > limit else ""
        rest = len(changes) - len(beyond)
        within = f"; {'the other' if rest == 1 else f'the other {rest}'} within the noise" if rest else ""
        out.append(f"{variant} against {base_name}{what}: side a's win rate {shown}{more}{within} (95 % intervals).")
    if quiet:
        out.append(f"No matchup changed beyond the noise (95 % intervals) under {'; '.join(quiet)}.")
    return out


def weight_findings(weights: Sequence[Any], shown: int = 3) -> list[str]:
    """Per stat-weights entry (``designer.Weights``): the steps that move side a's win rate most, in
    the fighter's own values, and how many steps move it beyond the noise."""
    several = len({w.label for w in weights}) > 1
    out = []
    for w in weights:
        rows = w.rows
        if len(rows) == 0:
            continue
        beyond = int(((rows["ci_low"] > 0) | (rows["ci_high"] < 0)).sum())
        top = rows.reindex(rows["delta"].abs().sort_values(ascending=False).index).head(shown)
        steps = ", ".join(f"{r['stat']} {r['from']} → {r['to']} {100 * r['delta']:+.1f} points "
                          f"({100 * r['ci_low']:+.1f} … {100 * r['ci_high']:+.1f})" for _, r in top.iterrows())
        tag = f" ({w.label})" if several and w.label else ""
        buy = w.best_buy() if hasattr(w, "best_buy") else None
        best = "" if buy is None else (
            f" Best buy per {singular(w.unit)}: {buy['stat']} {buy['from']} → {buy['to']}, "
            f"{100 * buy['delta']:+.1f} points of win rate for {buy['cost']:g} {w.unit}.")
        out.append(f"Stat weights of {w.a} against {w.b}{tag}: {steps}; {beyond} of {len(rows)} steps move the win "
                   f"rate beyond the noise (95 % intervals).{best}")
    return out


def _paired_half(differences: Any, matchup: str, base: str, to: str, variant: str | None = None) -> float | None:
    """The paired 95 % half-width of side a's change from ``base`` to ``to`` in ``matchup`` (and
    ``variant``, when given: group fights, whose ``from`` and ``to`` are their own options), when the
    scenario's differences hold that pair of neighbours."""
    if differences is None or len(differences) == 0:
        return None
    d = differences
    keep = (d["sweep"] == "") & (d["side"] == "a") & (d["matchup"] == matchup) & (d["from"] == base) & (d["to"] == to)
    if variant is not None:
        keep &= d["variant"] == variant
    rows = d[keep]
    if len(rows) != 1:
        return None
    return float(rows["ci_high"].iloc[0] - rows["ci_low"].iloc[0]) / 2


def fight_findings(fights: Sequence[Any], differences: Any = None) -> list[str]:
    """Each group fight with its own options against the baseline of the same sides and variant
    (the fight without options of its own, else the first listed): the change of side a's win
    rate, with its paired 95 % interval where ``differences`` (the scenario's, which compare
    group fights with their baseline) holds the pair, else the interval independent runs would give."""
    out = []
    baseline: dict[tuple[Any, str], Any] = {}
    for r in fights:
        key = (r.sides, r.labels.get("variant", ""))
        if key not in baseline or (baseline[key].labels.get("value", "") and not r.labels.get("value", "")):
            baseline[key] = r
    for r in fights:
        key = (r.sides, r.labels.get("variant", ""))
        d = r.to_dict()
        if baseline[key] is r:
            share = d.get("draws", 0) / d["n"] if d["n"] else 0.0
            draws = f", {_pct(share)} draws" if share > DRAW_SHARE else ""
            out.append(f"{r.labels.get('matchup', '')}: side a wins {_pct(d['a']['win_rate'])}, "
                       f"side b {_pct(d['b']['win_rate'])}{draws}.")
            continue
        base = baseline[key]
        b = base.to_dict()
        pa, pb = d["a"]["win_rate"], b["a"]["win_rate"]
        half = _paired_half(differences, r.labels.get("matchup", ""), base.labels.get("value", ""),
                            r.labels.get("value", ""), r.labels.get("variant", ""))
        if half is None:
            half = independent_half_width(pb, b["n"], pa, d["n"])
        changed = r.labels.get("value", "") or "its own options"
        against = "without them" if not base.labels.get("value", "") else f"with {base.labels['value']}"
        out.append(f"{r.labels.get('matchup', '')} with {changed}: side a's win rate {100 * (pa - pb):+.1f} points "
                   f"(±{100 * half:.1f}) against the same sides {against}.")
    return out


def holm_kept(p_values: Sequence[float], alpha: float = 0.05) -> int:
    """How many of the hypotheses Holm's step-down procedure rejects at family-wise level ``alpha``."""
    kept = 0
    for k, p in enumerate(sorted(p_values)):
        if p > alpha / (len(p_values) - k):
            break
        kept += 1
    return kept


def diff_findings(rows: Any) -> list[str]:
    """A rule diff's rows (``delta``, ``ci_low``, ``ci_high``, ``excludes_zero``, ``a``, ``b``):
    how many changes exceed noise, the largest, what chance alone would flag."""
    n = len(rows)
    if n == 0:
        return []
    flagged = int(sum(bool(x) for x in rows["excludes_zero"]))
    p_values = []
    for delta, lo, hi in zip(rows["delta"], rows["ci_low"], rows["ci_high"]):
        se = (hi - lo) / (2 * Z95)
        p_values.append(1.0 if se <= 0 else math.erfc(abs(delta) / se / math.sqrt(2)))
    largest = max(range(n), key=lambda k: abs(rows["delta"].iloc[k]))
    big = rows.iloc[largest]
    return [
        f"{flagged} of {n} matchups changed beyond noise (95 % intervals that exclude no change); chance alone "
        f"would flag about {0.05 * n:.1f} of {n}; {holm_kept(p_values)} stay flagged after Holm's correction for "
        f"{n} comparisons.",
        f"Largest change: {big['a']} vs {big['b']}, {100 * big['delta']:+.2f} points "
        f"({100 * big['ci_low']:+.2f} … {100 * big['ci_high']:+.2f}).",
    ]


def analysis_findings(analyses: Sequence[Any]) -> list[str]:
    """Per designer's question of a scenario (a ``[[suggest]]`` entry under a variant): its answer in
    one line (the result's ``verdict()``), tagged with the variant when there are several."""
    several = len({r.label for r in analyses}) > 1
    return [(f"({r.label}) " if several and r.label else "") + r.verdict() for r in analyses]


def findings_by_kind(results: Sequence[Any], fights: Sequence[Any] = (), differences: Any = None,
                     weights: Sequence[Any] = (), analyses: Sequence[Any] = ()) -> list[tuple[str, list[str]]]:
    """The key findings of a report by kind, the most telling first: ``analyses`` (the questions
    the scenario asks: suggested fixes), ``sweep``, ``round_robin``, ``lethality``, ``variants``,
    ``fights``, ``weights``; a kind without a finding left out (a report orders its sections by
    them)."""
    kinds = [("analyses", analysis_findings(analyses)), ("sweep", sweep_findings(results)),
             ("round_robin", round_robin_findings(results)),
             ("lethality", lethality_findings(results)), ("variants", variant_findings(results, differences)),
             ("fights", fight_findings(fights, differences)), ("weights", weight_findings(weights))]
    return [(kind, texts) for kind, texts in kinds if texts]
