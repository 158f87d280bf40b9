"""Results as tidy pandas DataFrames: one row per matchup × variant × fighter × measure.

Every frame carries the cell labels ``matchup``, ``variant`` (the rule variant), ``sweep`` and
``value`` (a sweep's name and value, "" outside sweeps), so that frames of many cells concatenate
and group naturally.
"""

from __future__ import annotations

from typing import Iterable

import numpy as np
import pandas as pd

from . import layout as L
from .results import DuelResult
from .stats import hist_mean, hist_quantile, wilson

ZONE_GROUP_NAMES = ("head", "torso", "arm", "leg")


LABELS = ["matchup", "variant", "sweep", "value"]


def _labels(r: DuelResult) -> dict[str, str]:
    """Cell labels: the matchup, the rule variant, and for sweeps the sweep's name and value."""
    return {"matchup": r.labels.get("matchup", f"{r.names[0]} vs {r.names[1]}"),
            "variant": r.labels.get("variant", ""), "sweep": r.labels.get("sweep", ""),
            "value": r.labels.get("value", "")}


def _rate_row(r: DuelResult, fighter: str, side: str, measure: str, k: int, n: int) -> dict:
    lo, hi = wilson(k, n)
    return {**_labels(r), "fighter": fighter, "side": side, "measure": measure,
            "estimate": k / n if n else np.nan, "ci_low": lo, "ci_high": hi, "count": k, "n": n}


def summary_frame(results: Iterable[DuelResult]) -> pd.DataFrame:
    """Win rates, draws, defeat causes and deaths with 95 % Wilson intervals, rounds to decision.

    Columns: matchup, variant, fighter, side, measure, estimate, ci_low, ci_high, count, n.
    Measures: ``win_rate``; ``loss_<cause>`` (share of all duels lost that way); ``death_rate``;
    for the matchup (fighter ""): ``draw_rate``, ``rounds_mean`` (with a normal 95 % interval),
    ``rounds_p50``, ``rounds_p90``.
    """
    rows: list[dict] = []
    for r in results:
        for side, key in ((0, "a"), (1, "b")):
            name = r.names[side]
            rows.append(_rate_row(r, name, key, "win_rate", r.wins(side), r.n))
            for cause, k in r.defeats(side).items():
                rows.append(_rate_row(r, name, key, f"loss_{cause}", k, r.n))
            rows.append(_rate_row(r, name, key, "death_rate", r.deaths(side), r.n))
        rows.append(_rate_row(r, "", "", "draw_rate", r.draws, r.n))
        hist = r.rounds_hist
        decided = int(hist.sum())
        mean = hist_mean(hist)
        if mean is not None:
            var = float(((np.arange(hist.size) - mean) ** 2 * hist).sum() / max(decided - 1, 1))
            half = 1.96 * np.sqrt(var / decided)
            base = {**_labels(r), "fighter": "", "side": "", "count": decided, "n": decided}
            rows.append({**base, "measure": "rounds_mean", "estimate": mean, "ci_low": mean - half, "ci_high": mean + half})
            for q, name in ((0.5, "rounds_p50"), (0.9, "rounds_p90")):
                v = float(hist_quantile(hist, q))
                rows.append({**base, "measure": name, "estimate": v, "ci_low": np.nan, "ci_high": np.nan})
    return pd.DataFrame(rows, columns=[*LABELS, "fighter", "side", "measure", "estimate", "ci_low", "ci_high",
                                       "count", "n"])


def rounds_frame(results: Iterable[DuelResult]) -> pd.DataFrame:
    """Distribution of the round in which duels were decided.

    Columns: matchup, variant, round, count, share (of decided duels), cdf.
    """
    frames = []
    for r in results:
        hist = r.rounds_hist[1:]
        last = int(np.nonzero(hist)[0].max()) + 1 if hist.any() else 0
        hist = hist[:last]
        total = max(int(hist.sum()), 1)
        frames.append(pd.DataFrame({**_labels(r), "round": np.arange(1, last + 1), "count": hist,
                                    "share": hist / total, "cdf": np.cumsum(hist) / total}))
    if not frames:
        return pd.DataFrame(columns=[*LABELS, "round", "count", "share", "cdf"])
    return pd.concat(frames, ignore_index=True)


def wounds_frame(results: Iterable[DuelResult]) -> pd.DataFrame:
    """Blows by wound level × zone group, taken and dealt by each fighter (B-5.1, B-4.9).

    Columns: matchup, variant, fighter, side, direction (taken | dealt), level, zone, count,
    per_duel (mean count per duel), share (of that fighter's blows in that direction).
    """
    rows: list[dict] = []
    for r in results:
        for side, key in ((0, "a"), (1, "b")):
            for direction, source in (("taken", side), ("dealt", 1 - side)):
                grid = r.wounds_taken(source)
                total = max(int(grid.sum()), 1)
                for lv, level in enumerate(L.LEVEL_NAMES):
                    for z, zone in enumerate(ZONE_GROUP_NAMES):
                        k = int(grid[lv, z])
                        rows.append({**_labels(r), "fighter": r.names[side], "side": key, "direction": direction,
                                     "level": level, "zone": zone, "count": k, "per_duel": k / r.n,
                                     "share": k / total})
    return pd.DataFrame(rows, columns=[*LABELS, "fighter", "side", "direction", "level", "zone", "count",
                                       "per_duel", "share"])


def win_rates(summary: pd.DataFrame) -> pd.DataFrame:
    """The ``win_rate`` rows of a summary frame."""
    return summary[summary["measure"] == "win_rate"].reset_index(drop=True)
