"""Key findings: the few sentences a report or a diff page opens with, generated from its results.

- a sweep of ordered values (numbers, dice): where side a's win rate crosses the target (50 %:
  even), interpolated between the two values around it, with the interval the 95 % bands give, and
  the mean change per step; a sweep of names (tactics, weapons): the lowest and the highest value,
  the one nearest even, or that no value differs beyond the noise;
- a round robin (three matchups or more under one reading): the most and the least balanced pair;
- rule variants: each reading against the first one (the baseline), matchup by matchup;
- group fights: each fight with its own options against the baseline of the same sides (the fight
  without options of its own, else the first), paired;
- a rule diff: how many changes exceed noise, the largest, how many chance alone would flag at the
  95 % level, and how many stay flagged after Holm's correction for the many comparisons.

Each function takes results (``DuelResult``, ``FightResult``) or a diff's rows and returns plain
sentences (no markup): the page escapes them.
"""

from __future__ import annotations

import math
import re
from typing import Any, Sequence

from .stats import Z95, independent_half_width

#: the win rate a sweep is read against: even
TARGET = 0.5


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def _number(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


#: a dice expression a sweep may step through (d6, 2d6, d8+1, 3d10-2)
_DICE = re.compile(r"^\d*d\d+([+-]\d+)?$")


def _ordered(values: Sequence[str]) -> bool:
    """Whether a sweep's values lie on a scale (all numbers, or all dice), so that a crossing
    between two of them can be read as a point between them."""
    return all(_number(v) is not None for v in values) or all(_DICE.match(v.replace(" ", "")) for v in values)


def _named_sweep(who: str, values: Sequence[str], rates: Sequence[float], lows: Sequence[float],
                 highs: Sequence[float], target: float) -> str:
    """A sweep of names: no order between the values, so the extremes and the value nearest the
    target instead of a crossing."""
    low = min(range(len(rates)), key=lambda k: rates[k])
    high = max(range(len(rates)), key=lambda k: rates[k])
    if lows[high] <= highs[low]:  # the bands of the extremes overlap
        return (f"{who}: no value differs beyond the noise ({_pct(rates[low])} – {_pct(rates[high])} over "
                f"{len(values)} values).")
    nearest = min(range(len(rates)), key=lambda k: abs(rates[k] - target))
    return (f"{who}: lowest with {values[low]} ({_pct(rates[low])}), highest with {values[high]} "
            f"({_pct(rates[high])}); nearest {_pct(target)} with {values[nearest]} ({_pct(rates[nearest])}).")


def _crossing(ys: Sequence[float], target: float) -> float | None:
    """The first fractional index where the piecewise-linear curve through ``ys`` reaches
    ``target`` (from either side), or None."""
    for i in range(len(ys) - 1):
        lo, hi = ys[i], ys[i + 1]
        if (lo - target) * (hi - target) <= 0 and lo != hi:
            return i + (target - lo) / (hi - lo)
    return None


def _at(values: Sequence[str], position: float) -> str:
    """A fractional index as words: the number itself for numeric values, else the value or the
    share of the step between two values."""
    i = min(int(position), len(values) - 2)
    frac = position - i
    numbers = [_number(v) for v in values]
    if all(x is not None for x in numbers):
        return f"{numbers[i] + frac * (numbers[i + 1] - numbers[i]):.3g}"  # type: ignore[operator]
    if frac < 0.005:
        return values[i]
    if frac > 0.995:
        return values[i + 1]
    return f"{values[i]} + {frac:.2f} of the step to {values[i + 1]}"


def _interval(values: Sequence[str], at: float, ends: Sequence[float]) -> str:
    """The 95 % interval of a crossing: as values, or as shares of the estimate's step when both
    ends fall in it and the values are not numbers."""
    i = min(int(at), len(values) - 2)
    numeric = all(_number(v) is not None for v in values)
    if not numeric and all(i <= e <= i + 1 for e in ends):
        return f"95 % interval {ends[0] - i:.2f} – {ends[-1] - i:.2f} of that step"
    return f"95 % interval {_at(values, ends[0])} – {_at(values, ends[-1])}"


def sweep_findings(results: Sequence[Any], target: float = TARGET) -> list[str]:
    """One sentence per sweep and variant (and opponent): where the swept fighter's win rate
    crosses ``target``."""
    groups: dict[tuple[str, str, str], list[Any]] = {}
    for r in results:
        sweep = r.labels.get("sweep", "")
        if sweep:
            groups.setdefault((sweep, r.labels.get("variant", ""), r.names[1]), []).append(r)
    out = []
    several_variants = len({k[1] for k in groups}) > 1
    for (sweep, variant, opponent), cells in groups.items():
        values = [c.labels.get("value", "") for c in cells]
        rates = [c.wins(0) / c.n for c in cells]
        lows = [c.to_dict()["a"]["ci95"][0] for c in cells]
        highs = [c.to_dict()["a"]["ci95"][1] for c in cells]
        who = (f"{sweep}{f' [{variant}]' if several_variants and variant else ''}: "
               f"{cells[0].names[0]} against {opponent}")
        if not _ordered(values):
            out.append(_named_sweep(who, values, rates, lows, highs, target))
            continue
        step = (rates[-1] - rates[0]) / (len(rates) - 1) if len(rates) > 1 else 0.0
        steps = f"; a step of the sweep changes it by {100 * step:+.1f} points on average" if len(rates) > 1 else ""
        at = _crossing(rates, target)
        if at is None:
            side = "above" if rates[0] > target else "below"
            nearest = min(range(len(rates)), key=lambda k: abs(rates[k] - target))
            out.append(f"{who} stays {side} {_pct(target)} from {values[0]} ({_pct(rates[0])}) to {values[-1]} "
                       f"({_pct(rates[-1])}); nearest at {values[nearest]} ({_pct(rates[nearest])}){steps}.")
            continue
        ends = sorted(p for p in (_crossing(lows, target), _crossing(highs, target)) if p is not None)
        interval = (f" ({_interval(values, at, ends)})" if len(ends) == 2 else
                    " (the 95 % bands do not both cross within the sweep)")
        i = min(int(at), len(values) - 2)
        out.append(f"{who}: even ({_pct(target)}) at about {_at(values, at)}{interval}, between {values[i]} "
                   f"({_pct(rates[i])}) and {values[i + 1]} ({_pct(rates[i + 1])}){steps}.")
    return out


def _plain_cells(results: Sequence[Any]) -> list[Any]:
    return [r for r in results if not r.labels.get("sweep", "")]


def round_robin_findings(results: Sequence[Any]) -> list[str]:
    """The most and the least balanced matchups of the first reading (three matchups or more)."""
    cells = _plain_cells(results)
    if not cells:
        return []
    first = cells[0].labels.get("variant", "")
    cells = [r for r in cells if r.labels.get("variant", "") == first]
    if len(cells) < 3:
        return []

    def gap(r: Any) -> float:
        return abs(r.wins(0) - r.wins(1)) / r.n

    def words(r: Any) -> str:
        return f"{r.names[0]} vs {r.names[1]} ({_pct(r.wins(0) / r.n)} : {_pct(r.wins(1) / r.n)})"

    ordered = sorted(cells, key=gap)
    return [f"Most balanced of {len(cells)} matchups: {words(ordered[0])}; least balanced: {words(ordered[-1])}."]


def variant_findings(results: Sequence[Any], differences: Any = None, limit: int = 6) -> list[str]:
    """Each reading against the first (the baseline): the change of side a's win rate per matchup
    (the largest ones when there are many), with its paired 95 % interval where ``differences``
    (the scenario's paired differences of neighbouring cells) holds the pair, else the interval
    two independent runs would give."""
    cells = _plain_cells(results)
    variants = list(dict.fromkeys(r.labels.get("variant", "") for r in cells))
    if len(variants) < 2:
        return []
    base = {r.labels.get("matchup", ""): r for r in cells if r.labels.get("variant", "") == variants[0]}
    out = []
    for variant in variants[1:]:
        changes = []
        for r in cells:
            b = base.get(r.labels.get("matchup", ""))
            if r.labels.get("variant", "") != variant or b is None:
                continue
            pa, pb = r.wins(0) / r.n, b.wins(0) / b.n
            half = _paired_half(differences, r.labels.get("matchup", ""), variants[0], variant)
            if half is None:
                half = independent_half_width(pb, b.n, pa, r.n)
            changes.append((pa - pb, half, r.labels.get("matchup", "")))
        if not changes:
            continue
        changes.sort(key=lambda c: -abs(c[0]))
        shown = ", ".join(f"{m} {100 * d:+.1f} points (±{100 * h:.1f})" for d, h, m in changes[:limit])
        more = f" and {len(changes) - limit} more" if len(changes) > limit else ""
        beyond = sum(abs(d) > h for d, h, _ in changes)
        out.append(f"{variant} against {variants[0]}: side a's win rate {shown}{more}; "
                   f"{beyond} of {len(changes)} beyond the noise (95 % intervals).")
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
            out.append(f"{r.labels.get('matchup', '')}: side a wins {_pct(d['a']['win_rate'])}, "
                       f"side b {_pct(d['b']['win_rate'])}.")
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


def findings_by_kind(results: Sequence[Any], fights: Sequence[Any] = (),
                     differences: Any = None) -> list[tuple[str, list[str]]]:
    """The key findings of a report by kind, the most telling first: ``sweep``, ``round_robin``,
    ``variants``, ``fights``; a kind without a finding left out (a report orders its sections by
    them)."""
    kinds = [("sweep", sweep_findings(results)), ("round_robin", round_robin_findings(results)),
             ("variants", variant_findings(results, differences)), ("fights", fight_findings(fights, differences))]
    return [(kind, texts) for kind, texts in kinds if texts]
