"""Results as tidy pandas DataFrames: one row per matchup × variant × fighter × measure.

Every frame carries the cell labels ``matchup``, ``variant`` (the rule variant), ``sweep`` and
``value`` (a sweep's name and value, "" outside sweeps), so that frames of many cells concatenate
and group naturally.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, cast

import numpy as np
import pandas as pd

from .header import HeaderCounters

if TYPE_CHECKING:
    from .duel import DuelResult
    from .fight import FightResult
from .stats import hist_mean, hist_quantile, paired_difference, wilson

LABELS = ["matchup", "variant", "sweep", "value"]


def _labels(r: HeaderCounters) -> dict[str, str]:
    """Cell labels: the matchup, the rule variant, and for sweeps the sweep's name and value."""
    return {"matchup": r.labels.get("matchup", f"{r.names[0]} vs {r.names[1]}"),
            "variant": r.labels.get("variant", ""), "sweep": r.labels.get("sweep", ""),
            "value": r.labels.get("value", "")}


def _rate_row(r: HeaderCounters, fighter: str, side: str, measure: str, k: int, n: int) -> dict[str, Any]:
    lo, hi = wilson(k, n)
    return {**_labels(r), "fighter": fighter, "side": side, "measure": measure,
            "estimate": k / n if n else np.nan, "ci_low": lo, "ci_high": hi, "count": k, "n": n}


def summary_frame(results: Iterable[HeaderCounters]) -> pd.DataFrame:
    """Win rates, draws, defeat causes and deaths with 95 % Wilson intervals, rounds to decision.

    Columns: matchup, variant, fighter, side, measure, estimate, ci_low, ci_high, count, n.
    Measures: ``win_rate``; ``loss_<cause>`` (share of all duels lost that way); ``death_rate``;
    ``one_blow_loss_rate`` (share of all duels lost to the only blow that harmed the loser);
    for the matchup (fighter ""): ``draw_rate``, ``one_blow_share`` (of decided duels, those ended
    by a single harmful blow), ``rounds_mean`` (with a normal 95 % interval),
    ``rounds_p50``, ``rounds_p90``.
    """
    rows: list[dict[str, Any]] = []
    for r in results:
        for side, key in ((0, "a"), (1, "b")):
            name = r.names[side]
            rows.append(_rate_row(r, name, key, "win_rate", r.wins(side), r.n))
            for cause, k in r.defeats(side).items():
                rows.append(_rate_row(r, name, key, f"loss_{cause}", k, r.n))
            rows.append(_rate_row(r, name, key, "death_rate", r.deaths(side), r.n))
            rows.append(_rate_row(r, name, key, "one_blow_loss_rate", r.one_blow(side), r.n))
        rows.append(_rate_row(r, "", "", "draw_rate", r.draws, r.n))
        decided = r.wins(0) + r.wins(1)
        rows.append(_rate_row(r, "", "", "one_blow_share", r.one_blow(0) + r.one_blow(1), decided))
        hist = r.rounds_hist
        decided = int(hist.sum())
        mean = hist_mean(hist)
        if mean is not None:
            var = float(((np.arange(hist.size) - mean) ** 2 * hist).sum() / max(decided - 1, 1))
            half = 1.96 * np.sqrt(var / decided)
            base = {**_labels(r), "fighter": "", "side": "", "count": decided, "n": decided}
            rows.append({**base, "measure": "rounds_mean", "estimate": mean,
                         "ci_low": mean - half, "ci_high": mean + half})
            for q, name in ((0.5, "rounds_p50"), (0.9, "rounds_p90")):
                v = float(cast(int, hist_quantile(hist, q)))  # not None: some runs were decided
                rows.append({**base, "measure": name, "estimate": v, "ci_low": np.nan, "ci_high": np.nan})
    return pd.DataFrame(rows, columns=[*LABELS, "fighter", "side", "measure", "estimate", "ci_low", "ci_high",
                                       "count", "n"])


def rounds_frame(results: Iterable[HeaderCounters]) -> pd.DataFrame:
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


def decided_by_frame(results: Iterable[HeaderCounters]) -> pd.DataFrame:
    """Per side, the probability that a run was decided in that side's favour by round r (the
    cumulative win rate: at the last round, the side's win rate); ``fighter`` "" / ``side`` ""
    is either side (the share of all runs decided by round r). One minus the other side's curve is
    the side's survival curve: the chance it is still in after round r.

    Columns: matchup, variant, sweep, value, fighter, side, round (1 … the last round in which any
    run was decided), count (runs won by then), n (all runs), p_decided_by, ci_low, ci_high
    (Wilson 95 %).
    """
    rows: list[dict[str, Any]] = []
    for r in results:
        hist = r.rounds_hist[1:]
        last = int(np.nonzero(hist)[0].max()) + 1 if hist.any() else 0
        curves = [(r.names[0], "a", r.rounds_won_hist(0)[1:]), (r.names[1], "b", r.rounds_won_hist(1)[1:]),
                  ("", "", hist)]
        for fighter, key, won in curves:
            for rnd, k in enumerate(np.cumsum(won[:last]), start=1):
                lo, hi = wilson(int(k), r.n)
                rows.append({**_labels(r), "fighter": fighter, "side": key, "round": rnd, "count": int(k), "n": r.n,
                             "p_decided_by": int(k) / r.n if r.n else np.nan, "ci_low": lo, "ci_high": hi})
    return pd.DataFrame(rows, columns=[*LABELS, "fighter", "side", "round", "count", "n", "p_decided_by", "ci_low",
                                       "ci_high"])


def wounds_at_least_frame(results: Iterable[HeaderCounters]) -> pd.DataFrame:
    """Per losing side and wound level, the probability that the loser took at least k blows of that
    level in the run it lost (k = 0 … ``LOSER_WOUNDS_CAP`` of :mod:`brutal_sim.core.counters`; k = 0
    is 1), among the runs that side lost.

    Columns: matchup, variant, sweep, value, fighter (the loser), side (the loser's), level, k,
    count (runs lost with at least k such blows), n (runs the side lost), p, ci_low, ci_high
    (Wilson 95 %).
    """
    rows: list[dict[str, Any]] = []
    for r in results:
        for side, key in ((0, "a"), (1, "b")):
            hist = r.loser_wounds(side)
            at_least = np.cumsum(hist[:, ::-1], axis=1)[:, ::-1]  # at_least[lv, k] = hist[lv, k:].sum()
            n = r.wins(1 - side)
            for lv, level in enumerate(r.c.levels):
                for k, count in enumerate(at_least[lv]):
                    lo, hi = wilson(int(count), n)
                    rows.append({**_labels(r), "fighter": r.names[side], "side": key, "level": level, "k": k,
                                 "count": int(count), "n": n, "p": int(count) / n if n else np.nan,
                                 "ci_low": lo, "ci_high": hi})
    return pd.DataFrame(rows, columns=[*LABELS, "fighter", "side", "level", "k", "count", "n", "p", "ci_low",
                                       "ci_high"])


def wounds_frame(results: Iterable[HeaderCounters]) -> pd.DataFrame:
    """Blows by wound level × zone group, taken and dealt by each fighter (Brutal: B-5.1, B-4.9;
    other rulesets name their own levels and zones).

    Columns: matchup, variant, fighter, side, direction (taken | dealt), level, zone, count,
    per_duel (mean count per duel), share (of that fighter's blows in that direction).
    """
    rows: list[dict[str, Any]] = []
    for r in results:
        for side, key in ((0, "a"), (1, "b")):
            for direction, source in (("taken", side), ("dealt", 1 - side)):
                grid = r.wounds_taken(source)
                total = max(int(grid.sum()), 1)
                for lv, level in enumerate(r.c.levels):
                    for z, zone in enumerate(r.c.zones):
                        k = int(grid[lv, z])
                        rows.append({**_labels(r), "fighter": r.names[side], "side": key, "direction": direction,
                                     "level": level, "zone": zone, "count": k, "per_duel": k / r.n,
                                     "share": k / total})
    return pd.DataFrame(rows, columns=[*LABELS, "fighter", "side", "direction", "level", "zone", "count",
                                       "per_duel", "share"])


# -- group fights (docs/groups.md) -----------------------------------------------------------------

def fight_summary_frame(results: Iterable["FightResult"]) -> pd.DataFrame:
    """The summary of group fights: :func:`summary_frame`'s rows per side (``fighter`` is the side's
    name, e.g. "Militia ×3"; the loss causes, deaths and one-blow losses describe the deciding
    takedown, B-2.9) plus ``survivors_mean`` per side (mean fighters of the side still in at the
    end, with a normal 95 % interval; ``n`` the side's size in ``count``)."""
    results = list(results)
    rows: list[dict[str, Any]] = []
    for r in results:
        for side, key in ((0, "a"), (1, "b")):
            hist = r.survivors(side)
            k = np.arange(hist.size)
            mean = float((k * hist).sum() / r.n)
            var = float(((k - mean) ** 2 * hist).sum() / max(r.n - 1, 1))
            half = 1.959963984540054 * np.sqrt(var / r.n)
            rows.append({**_labels(r), "fighter": r.names[side], "side": key, "measure": "survivors_mean",
                         "estimate": mean, "ci_low": mean - half, "ci_high": mean + half,
                         "count": len(r.sides[side]), "n": r.n})
    return pd.concat([summary_frame(results), pd.DataFrame(rows)], ignore_index=True) if rows else summary_frame([])


FIGHTER_COLUMNS = [*LABELS, "fighter", "name", "side", "rank", "measure", "estimate", "ci_low", "ci_high", "count", "n"]


def fighters_frame(results: Iterable["FightResult"]) -> pd.DataFrame:
    """Per fighter of group fights: how often it went out (by cause), died, stood at the end, and
    the mean final damage it dealt and took per fight.

    Columns: matchup, variant, sweep, value, fighter (a distinct label, e.g. "Militia b2"), name,
    side, rank (0-based place in its side's line), measure, estimate, ci_low, ci_high, count, n.
    Measures: ``out_<cause>``, ``out_rate`` (any cause), ``death_rate``, ``standing_rate`` (Wilson
    95 % intervals; ``out_rate`` + ``standing_rate`` = 1), ``damage_dealt_mean``,
    ``damage_taken_mean`` (per fight; no interval: the counters keep sums only).
    """
    rows: list[dict[str, Any]] = []
    for r in results:
        for row, ((name, key, rank), label) in enumerate(zip(r.fighters, r.fighter_labels)):
            def rate(measure: str, k: int) -> None:
                rows.append({**_rate_row(r, label, key, measure, k, r.n), "name": name, "rank": rank})

            out = r.fighter_out(row)
            for cause, k in out.items():
                rate(f"out_{cause}", k)
            rate("out_rate", sum(out.values()))
            rate("death_rate", r.fighter_deaths(row))
            rate("standing_rate", r.fighter_standing(row))
            for measure, total in (("damage_dealt_mean", r.damage_dealt(row)),
                                   ("damage_taken_mean", r.fighter_damage_taken(row))):
                rows.append({**_labels(r), "fighter": label, "name": name, "side": key, "rank": rank,
                             "measure": measure, "estimate": total / r.n, "ci_low": np.nan, "ci_high": np.nan,
                             "count": total, "n": r.n})
    return pd.DataFrame(rows, columns=FIGHTER_COLUMNS)


def survivors_frame(results: Iterable["FightResult"]) -> pd.DataFrame:
    """How many of each side were still in when group fights ended (decided or drawn).

    Columns: matchup, variant, sweep, value, fighter (the side's name), side, survivors
    (0 … the side's size), count, share (of all fights), ci_low, ci_high (Wilson 95 %).
    """
    rows: list[dict[str, Any]] = []
    for r in results:
        for side, key in ((0, "a"), (1, "b")):
            for k, count in enumerate(r.survivors(side)):
                lo, hi = wilson(int(count), r.n)
                rows.append({**_labels(r), "fighter": r.names[side], "side": key, "survivors": k,
                             "count": int(count), "share": int(count) / r.n, "ci_low": lo, "ci_high": hi})
    return pd.DataFrame(rows, columns=[*LABELS, "fighter", "side", "survivors", "count", "share", "ci_low", "ci_high"])


def paired_differences(results: list["DuelResult"], joint: np.ndarray, by: str) -> pd.DataFrame:
    """Differences of win rates between neighbouring runs played with common random numbers.

    ``results[j]`` and ``results[j+1]`` replayed the same duel indices with the same seed;
    ``joint[j]`` (int64[3, 3]) counts their joint outcomes (0 a won, 1 b won, 2 draw). The paired
    95 % interval of a difference uses the per-duel variance of the change; ``halfwidth_independent``
    is what two independent runs of the same size would give, and ``variance_ratio`` their ratio
    (how many times more duels independent runs would need for the same precision).

    ``by`` names the label that changes between neighbours (``value`` or ``variant``). Columns:
    matchup, variant, sweep, from, to, fighter, side, measure, difference, ci_low, ci_high,
    halfwidth_independent, variance_ratio, n.
    """
    rows: list[dict[str, Any]] = []
    for j in range(len(results) - 1):
        r0, r1, J = results[j], results[j + 1], joint[j]
        n = r0.n
        for side, key in ((0, "a"), (1, "b")):
            d, half, half_indep = paired_difference(J, n, side)
            labels = _labels(r1)
            rows.append({**labels, "from": r0.labels.get(by, ""), "to": r1.labels.get(by, ""),
                         "fighter": r1.names[side], "side": key, "measure": "win_rate", "difference": d,
                         "ci_low": d - half, "ci_high": d + half, "halfwidth_independent": half_indep,
                         "variance_ratio": (half_indep / half) ** 2 if half > 0 else np.inf, "n": n})
    return pd.DataFrame(rows, columns=[*LABELS, "from", "to", "fighter", "side", "measure", "difference", "ci_low",
                                       "ci_high", "halfwidth_independent", "variance_ratio", "n"])
