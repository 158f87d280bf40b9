"""Figures of the result frames (:mod:`brutal_sim.results.frames`), for reports and notebooks.

Every function takes a tidy frame and returns a :class:`matplotlib.figure.Figure` built directly,
without pyplot: no global figure registry, no ``plt.show``, so the figures work headless, in
Jupyter (a returned ``Figure`` displays itself), as PNG (:func:`figure_to_png`, :func:`figure_to_data_uri`)
and in HTML reports as inline SVG with a hover value per datum (:func:`brutal_sim.results.hover.figure_to_svg`).

>>> from brutal_sim import api, frames, plots
>>> rs = [api.duel("swordsman", "brute", n=10_000, seed=1)]
>>> fig = plots.win_rate_figure(frames.summary_frame(rs))  # doctest: +SKIP
>>> open("win.png", "wb").write(plots.figure_to_png(fig))  # doctest: +SKIP

Colours follow the Okabe–Ito colour-blind-safe palette; rates are shown in percent.
"""

from __future__ import annotations

import base64
import io
from typing import Any, Hashable, Iterable, Literal

import numpy as np
import pandas as pd
from matplotlib import colormaps, colors as mcolors, transforms as mtransforms
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from .findings import on_a_scale

__all__ = ["OKABE_ITO", "LEVEL_COLOURS", "lethality_figure", "win_rate_figure", "matchup_matrix_figure",
           "rounds_figure", "decided_by_figure", "paired_curves_figure", "wounds_at_least_figure", "wounds_figure",
           "sweep_figure", "fight_figure", "gauntlet_figure", "figure_to_png", "figure_to_data_uri", "percent_label",
           "plain"]

#: Okabe–Ito palette, most distinct colours first (yellow and black last: weak or heavy on white).
OKABE_ITO = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000")
DRAW_COLOUR = "#8C8C8C"
#: Wound levels from harmless to mortal: grey, then Okabe–Ito yellow → orange → vermillion → purple → black.
LEVEL_COLOURS = {"none": "#D9D9D9", "light_damage": "#F0E442", "light": "#E69F00", "heavy": "#D55E00",
                 "critical": "#CC79A7", "mortal": "#000000"}
LEVEL_LABELS = {"none": "no wound", "light_damage": "light damage", "light": "light wound",
                "heavy": "heavy wound", "critical": "critical wound", "mortal": "mortal wound"}
MATRIX_CMAP = "RdBu"  # diverging about 50 %: red loses, blue wins (ColorBrewer, colour-blind safe)
DPI = 110
LABEL_COLUMNS = ("matchup", "variant", "sweep", "value")
_GROUP_STYLES = [("-", "o"), ("--", "s"), (":", "^"), ("-.", "D")]  # line style, marker per group of a sweep


# -- helpers --------------------------------------------------------------------------------------

#: the longest line of text a figure shows (a name up to the 200 characters allowed would squeeze the
#: plot to nothing); a longer one keeps its start and its end around an ellipsis, so that labels
#: that differ at the end (a variant's name) stay apart (the tables show it whole)
MAX_LABEL = 48
#: the longest axis label (it runs along the plot and squeezes nothing): a measure's full name
MAX_AXIS_LABEL = 100


def plain(text: object, limit: int = MAX_LABEL) -> str:
    """``text`` as matplotlib draws it literally: every ``$`` escaped as ``\\$``, so that no name
    (of a fighter, variant, sweep …) is read as mathtext, and each line at most :data:`MAX_LABEL`
    characters (``limit``). Every text a figure shows from the data or the caller (titles, labels,
    legends, tick labels, annotations) goes through here."""
    head = (limit - 1) * 2 // 3
    lines = [line if len(line) <= limit else line[:head] + "…" + line[head + 1 - limit:]
             for line in str(text).split("\n")]
    return "\n".join(lines).replace("$", r"\$")


def _plain_all(texts: Iterable[object]) -> list[str]:
    return [plain(t) for t in texts]

def percent_label(rate: float) -> str:
    """How a rate (0 … 1) is written on the figures: ``0.3257 -> "32.6%"``."""
    return f"{100 * rate:.1f}%"


def _level_colours(levels: list[str]) -> dict[str, str]:
    """Brutal's level colours by name; other rulesets' levels take the same ramp by position."""
    ramp = list(LEVEL_COLOURS.values())
    if all(lv in LEVEL_COLOURS for lv in levels):
        return {lv: LEVEL_COLOURS[lv] for lv in levels}
    picks: Iterable[int] = np.linspace(0, len(ramp) - 1, num=len(levels)).round().astype(int) if levels else []
    return {lv: ramp[i] for lv, i in zip(levels, picks)}


def _unique(values: Iterable[Hashable]) -> list[Any]:
    """Distinct values in order of first appearance."""
    return list(dict.fromkeys(values))


def _label_columns(frame: pd.DataFrame) -> list[str]:
    """The cell label columns the frame has (``sweep`` and ``value`` are optional)."""
    return [c for c in LABEL_COLUMNS if c in frame.columns]


def _cells(frame: pd.DataFrame) -> list[tuple[str, ...]]:
    """The cells (matchup, variant[, sweep, value]) of a frame in order of appearance."""
    cols = _label_columns(frame)
    return _unique(zip(*(frame[c] for c in cols))) if len(frame) else []


def _cell_title(frame: pd.DataFrame, cell: tuple[str, ...], with_matchup: bool = True,
                with_variant: bool = True) -> str:
    """"Swordsman vs Brute · variant · sweep = value", leaving out empty labels."""
    labels = dict(zip(_label_columns(frame), cell))
    parts = [labels.get("matchup", "") if with_matchup else "", labels.get("variant", "") if with_variant else ""]
    if labels.get("sweep"):
        parts.append(f"{labels['sweep']} = {labels.get('value', '')}")
    elif labels.get("value"):
        parts.append(labels["value"])
    return " · ".join(p for p in parts if p)


def _in_cell(frame: pd.DataFrame, cell: tuple[str, ...]) -> pd.DataFrame:
    mask = np.ones(len(frame), dtype=bool)
    for col, value in zip(_label_columns(frame), cell):
        mask &= (frame[col] == value).to_numpy()
    return frame[mask]


def _palette(keys: Iterable[Hashable]) -> dict[Any, str]:
    """An Okabe–Ito colour for each key, in order of first appearance (cycling past eight)."""
    return {k: OKABE_ITO[i % len(OKABE_ITO)] for i, k in enumerate(_unique(keys))}


def _require(frame: pd.DataFrame, columns: Iterable[str], what: str) -> None:
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"{what}: the frame lacks the column(s) {', '.join(missing)}")


def _ink_on(rgba: tuple[float, ...]) -> str:
    """Black or white text, whichever reads better on a fill colour."""
    r, g, b = rgba[:3]
    return "black" if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.5 else "white"


def _side_labels(rows: pd.DataFrame) -> list[str]:
    """Fighter names of a cell's rows, with the side added when both sides share a name (mirror)."""
    names = list(rows["fighter"])
    return [f"{n} ({s})" if names.count(n) > 1 else n for n, s in zip(names, rows["side"])]


def _style(ax: Axes, grid_axis: Literal["both", "x", "y"] = "both") -> None:
    ax.spines[["top", "right"]].set_visible(False)
    ax.grid(True, axis=grid_axis, color="#E5E5E5", linewidth=0.8)
    ax.set_axisbelow(True)


# -- win rates ------------------------------------------------------------------------------------

def win_rate_figure(summary: pd.DataFrame, title: str = "Win rates with 95 % Wilson intervals") -> Figure:
    """Horizontal bars of each fighter's win rate (and the draw rate) per matchup / variant.

    Error bars are the 95 % Wilson intervals (``ci_low`` … ``ci_high``); a fighter keeps its
    colour across matchups; matchups are stacked top to bottom in the frame's order.
    """
    _require(summary, ("matchup", "variant", "fighter", "side", "measure", "estimate", "ci_low", "ci_high"),
             "win_rate_figure")
    rows = summary[summary["measure"].isin(["win_rate", "draw_rate"])]
    if rows.empty:
        raise ValueError("win_rate_figure: the summary frame has no win_rate or draw_rate rows")
    colours: dict[str, str] = {}

    ys, labels, est, lo, hi, cols, headers = [], [], [], [], [], [], []
    y = 0.0
    for c in _cells(rows):
        cell = _in_cell(rows, c)
        wins, draws = cell[cell["measure"] == "win_rate"], cell[cell["measure"] == "draw_rate"]
        headers.append((y, plain(_cell_title(rows, c))))
        y += 1
        for label, (_, r) in zip(_side_labels(wins) + ["draw"] * len(draws),
                                 list(wins.iterrows()) + list(draws.iterrows())):
            ys.append(y)
            labels.append(label)
            est.append(r["estimate"])
            lo.append(r["ci_low"])
            hi.append(r["ci_high"])
            if r["measure"] == "win_rate":  # a fighter keeps its colour; mirror sides get two
                colours.setdefault(label, OKABE_ITO[len(colours) % len(OKABE_ITO)])
            cols.append(colours[label] if r["measure"] == "win_rate" else DRAW_COLOUR)
            y += 1
        y += 0.4  # gap between matchups
    est_a, lo_a, hi_a = (100 * np.asarray(v, dtype=float) for v in (est, lo, hi))

    fig = Figure(figsize=(7.5, 1.2 + 0.3 * y), layout="constrained")
    ax = fig.add_subplot()
    ax.barh(ys, est_a, height=0.72, color=cols, xerr=np.clip(np.vstack([est_a - lo_a, hi_a - est_a]), 0, None),
            error_kw={"ecolor": "#333333", "elinewidth": 1.0, "capsize": 3}, gid="win_rate_bars")
    for yy, e, low, h, colour in zip(ys, est_a, lo_a, hi_a, cols):
        if h <= 86:  # value right of the interval, or inside the bar when the bar is nearly full
            ax.text(h + 1.2, yy, percent_label(e / 100), va="center", ha="left", fontsize=8.5)
        else:
            ax.text(low - 1.2, yy, percent_label(e / 100), va="center", ha="right", fontsize=8.5,
                    color=_ink_on(mcolors.to_rgba(colour)))
    header_tf = mtransforms.blended_transform_factory(ax.transAxes, ax.transData)
    for yy, text in headers:
        ax.text(0.008, yy, text, transform=header_tf, fontweight="bold", va="center", ha="left", fontsize=9.5)
    ax.axvline(50, color="#555555", linestyle=":", linewidth=1)
    ax.set_yticks(ys, _plain_all(labels))
    ax.tick_params(axis="y", length=0)
    ax.set_ylim(y - 0.4, -0.7)  # top to bottom
    ax.set_xlim(0, 100)
    ax.set_xlabel("win rate (%)")
    ax.set_title(plain(title))
    _style(ax, "x")
    return fig


# -- lethality side by side -----------------------------------------------------------------------

LETHALITY_PANELS = (("win_rate", "side a's win rate (%)", 100.0), ("rounds_mean", "mean rounds to decision", 1.0),
                    ("one_blow_share", "decided by one blow (%)", 100.0))


def lethality_figure(summary: pd.DataFrame, title: str = "Lethality side by side") -> Figure:
    """Per matchup, one bar per variant (in a cross-system comparison: per ruleset) in three panels:
    side a's win rate, the mean rounds to decision and the share of decided duels ended by a single
    harmful blow, each with its 95 % interval.
    """
    _require(summary, ("matchup", "variant", "side", "measure", "estimate", "ci_low", "ci_high"), "lethality_figure")
    rows = summary[((summary["measure"] == "win_rate") & (summary["side"] == "a"))
                   | summary["measure"].isin(["rounds_mean", "one_blow_share"])]
    if rows.empty:
        raise ValueError("lethality_figure: the summary frame has no win_rate, rounds_mean or one_blow_share rows")
    matchups, variants = _unique(rows["matchup"]), _unique(rows["variant"])
    colours = _palette(variants)
    height = 0.8 / max(len(variants), 1)
    fig = Figure(figsize=(11.0, 1.3 + 0.32 * len(matchups) * len(variants) + 0.3 * len(matchups)),
                 layout="constrained")
    axes = fig.subplots(1, len(LETHALITY_PANELS), sharey=True)
    handles: list[Any] = []
    for ax, (measure, label, scale) in zip(axes, LETHALITY_PANELS):
        part = rows[rows["measure"] == measure]
        for k, variant in enumerate(variants):
            mine = part[part["variant"] == variant].set_index("matchup").reindex(matchups)
            y = np.arange(len(matchups)) + (k - (len(variants) - 1) / 2) * height
            est = scale * mine["estimate"].to_numpy(dtype=float)
            err = np.clip(np.vstack([est - scale * mine["ci_low"].to_numpy(dtype=float),
                                     scale * mine["ci_high"].to_numpy(dtype=float) - est]), 0, None)
            bars = ax.barh(y, est, height=0.92 * height, color=colours[variant], label=plain(variant),
                           xerr=np.nan_to_num(err), error_kw={"ecolor": "#333333", "elinewidth": 0.8, "capsize": 2})
            if ax is axes[0]:
                handles.append(bars)
        if measure == "win_rate":
            ax.axvline(50, color="#555555", linestyle=":", linewidth=1)
            ax.set_xlim(0, 100)
        ax.set_xlabel(label)
        _style(ax, "x")
    axes[0].set_yticks(np.arange(len(matchups)), _plain_all(matchups))
    axes[0].set_ylim(len(matchups) - 0.5, -0.5)
    axes[0].tick_params(axis="y", length=0)
    fig.legend(handles, _plain_all(variants), loc="outside lower center", ncols=len(variants), frameon=False)
    fig.suptitle(plain(title))
    return fig


# -- round-robin matrix ---------------------------------------------------------------------------

def _win_matrix(wins: pd.DataFrame, fighters: list[str]) -> np.ndarray:
    """Pooled win rate of the row fighter against the column fighter (NaN where never met).

    Duels of the same pair in several matchups (e.g. both side orders) pool their counts. In a
    mirror matchup the diagonal holds side a's win rate.
    """
    index = {f: i for i, f in enumerate(fighters)}
    k = np.zeros((len(fighters), len(fighters)))
    n = np.zeros_like(k)
    for c in _cells(wins):
        cell = _in_cell(wins, c)
        a, b = cell[cell["side"] == "a"], cell[cell["side"] == "b"]
        if len(a) != 1 or len(b) != 1:
            raise ValueError(f"matchup_matrix_figure: {_cell_title(wins, c)!r} needs one win_rate row for "
                             f"side a and one for side b")
        ra, rb = a.iloc[0], b.iloc[0]
        i, j = index[ra["fighter"]], index[rb["fighter"]]
        k[i, j] += ra["count"]
        n[i, j] += ra["n"]
        if i != j:
            k[j, i] += rb["count"]
            n[j, i] += rb["n"]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n > 0, k / np.where(n > 0, n, 1), np.nan)


def matchup_matrix_figure(summary: pd.DataFrame, variant: str | None = None,
                          title: str = "Win rate of the row fighter against the column fighter") -> Figure:
    """Heatmap of a round robin: the row fighter's win rate against the column fighter.

    Cells are annotated in percent (:func:`percent_label`); cells of pairs that never met are
    left blank. With several variants in the frame there is one panel per variant, unless
    ``variant=`` picks one.
    """
    _require(summary, ("matchup", "variant", "fighter", "side", "measure", "count", "n"), "matchup_matrix_figure")
    wins = summary[summary["measure"] == "win_rate"]
    if variant is not None:
        if variant not in set(wins["variant"]):
            raise ValueError(f"matchup_matrix_figure: no variant {variant!r}; the frame has "
                             f"{', '.join(map(repr, _unique(wins['variant'])))}")
        wins = wins[wins["variant"] == variant]
    if wins.empty:
        raise ValueError("matchup_matrix_figure: the summary frame has no win_rate rows")
    fighters = _unique(wins["fighter"])
    variants = _unique(wins["variant"])
    size = max(3.2, 0.85 * len(fighters) + 1.6)
    label_room = 0.075 * max(len(f) for f in fighters)  # inches for the longest name
    fig = Figure(figsize=((size - 1.0) * len(variants) + label_room + 1.6, size + label_room * 0.5),
                 layout="constrained")
    axes = fig.subplots(1, len(variants), squeeze=False)[0]
    cmap = colormaps[MATRIX_CMAP].with_extremes(bad="#F2F2F2")
    image: Any = None
    for p, (ax, v) in enumerate(zip(axes, variants)):
        m = _win_matrix(wins[wins["variant"] == v], fighters)
        image = ax.imshow(100 * m, cmap=cmap, vmin=0, vmax=100, aspect="equal")
        for i in range(len(fighters)):
            for j in range(len(fighters)):
                if not np.isnan(m[i, j]):
                    ax.text(j, i, percent_label(m[i, j]), ha="center", va="center", fontsize=9,
                            color=_ink_on(cmap(m[i, j])), gid="cell_label")
        ax.set_xticks(range(len(fighters)), _plain_all(fighters), rotation=30, ha="right", rotation_mode="anchor")
        ax.set_yticks(range(len(fighters)), _plain_all(fighters))
        ax.set_xticks(np.arange(len(fighters) + 1) - 0.5, minor=True)
        ax.set_yticks(np.arange(len(fighters) + 1) - 0.5, minor=True)
        ax.grid(which="minor", color="white", linewidth=2)
        ax.tick_params(which="both", length=0)
        ax.spines[:].set_visible(False)
        ax.set_xlabel("opponent (column)")
        if p == 0:
            ax.set_ylabel("fighter (row)")
        if len(variants) > 1 or v:
            ax.set_title(plain(v) or "(no variant)")
    fig.colorbar(image, ax=list(axes), label="win rate (%)", shrink=0.8)
    fig.suptitle(plain(title))
    return fig


# -- rounds to decision ---------------------------------------------------------------------------

def _first_round_reaching(cell: pd.DataFrame, level: float) -> int:
    reached = cell.loc[cell["cdf"] >= level - 1e-12, "round"]
    return int(reached.iloc[0]) if len(reached) else int(cell["round"].max())


def rounds_figure(rounds: pd.DataFrame, kind: str = "hist", max_round: int | None = None,
                  title: str = "Rounds to decision") -> Figure:
    """Distribution of the round in which duels were decided, per matchup / variant.

    ``kind="hist"``: one panel per matchup with bars of the share of decided duels per round and
    the median marked; ``kind="cdf"``: one panel with a cumulative step line per matchup. The
    x axis stops at ``max_round`` (default: where 99.5 % of every matchup's duels are decided;
    for ``cdf``, 99 %); the rare longer duels are still in the data, only outside the view. A
    ``cdf`` of more than :data:`MAX_SERIES` curves is drawn as small multiples, a panel per variant,
    each with its legend beside it.
    """
    _require(rounds, ("matchup", "variant", "round", "share", "cdf"), "rounds_figure")
    if kind not in ("hist", "cdf"):
        raise ValueError(f"rounds_figure: kind must be 'hist' or 'cdf', got {kind!r}")
    cells = _cells(rounds)
    if not cells:
        raise ValueError("rounds_figure: the rounds frame is empty")
    colours = _palette(cells)
    if max_round is None:
        level = 0.99 if kind == "cdf" else 0.995
        max_round = max(_first_round_reaching(_in_cell(rounds, c), level) for c in cells)
    xlim = (0.4, max_round + 0.6)

    if kind == "cdf":
        panels = _series_panels(rounds, cells)
        fig = Figure(figsize=(7.5 if len(panels) == 1 else 9.0, 0.8 + 3.4 * len(panels)), layout="constrained")
        axes = fig.subplots(len(panels), 1, sharex=True, squeeze=False)[:, 0]
        for ax, (heading, members) in zip(axes, panels):
            steps: list[Any] = []
            colours = _palette(members)
            for c in members:
                cell = _in_cell(rounds, c)
                r, cdf = cell["round"].to_numpy(), 100 * cell["cdf"].to_numpy()
                end = max(max_round + 1, int(r[-1]) if len(r) else 0)  # hold the last level to the right edge
                x = np.concatenate([[0], r, [end]])
                y = np.concatenate([[0.0], cdf, cdf[-1:] if len(cdf) else [0.0]])
                label = plain(_cell_title(rounds, c, with_variant=not heading))
                steps += ax.step(x, y, where="post", color=colours[c], linewidth=1.8, label=label)
            ax.set_ylim(0, 101)
            ax.set_ylabel("decided by then (%)")
            if heading:
                ax.set_title(plain(heading), fontsize=10, loc="left")
            ax.legend(steps, [s.get_label() for s in steps], loc="upper left", bbox_to_anchor=(1.01, 1.0),
                      frameon=False, fontsize=8.5)  # beside the panel, never over the curves or the title
            _style(ax)
        axes[-1].set_xlim(0, max_round + 0.6)
        axes[-1].set_xlabel("rounds to decision (rounds)")
        fig.suptitle(plain(title + " (share of decided duels)"))
        return fig

    fig = Figure(figsize=(7.5, 0.6 + 1.9 * len(cells)), layout="constrained")
    axes = fig.subplots(len(cells), 1, sharex=True, squeeze=False)[:, 0]
    for ax, c in zip(axes, cells):
        cell = _in_cell(rounds, c)
        ax.bar(cell["round"], 100 * cell["share"], width=0.85, color=colours[c])
        median = _first_round_reaching(cell, 0.5)
        ax.axvline(median, color="#333333", linestyle="--", linewidth=1)
        ax.text(median, 1.0, f" median {median}", transform=mtransforms.blended_transform_factory(ax.transData,
                ax.transAxes), va="top", ha="left", fontsize=8.5)
        beyond = float(cell.loc[cell["round"] > max_round, "share"].sum())
        if beyond > 0:
            ax.text(1.0, 0.6, f"{percent_label(beyond)} after round {max_round}", transform=ax.transAxes,
                    va="center", ha="right", fontsize=8, color="#555555")
        ax.set_title(plain(_cell_title(rounds, c)), fontsize=10, loc="left")
        ax.set_ylabel("share (%)")
        ax.set_ylim(0, 1.2 * max(100 * float(cell["share"].max()), 1e-9))  # headroom for the median label
        _style(ax, "y")
    axes[-1].set_xlim(*xlim)
    axes[-1].set_xlabel("rounds to decision (rounds)")
    fig.suptitle(plain(f"{title} (share of decided duels per round)"))
    return fig


#: the most curves one panel of :func:`rounds_figure` holds; more are split into panels by variant
MAX_SERIES = 8


def _series_panels(frame: pd.DataFrame, cells: list[tuple[str, ...]]) -> list[tuple[str, list[tuple[str, ...]]]]:
    """The cells split into panels of at most :data:`MAX_SERIES` curves: one panel when they fit,
    else one per variant (named by it), and a variant still too large in parts of ``MAX_SERIES``."""
    if len(cells) <= MAX_SERIES:
        return [("", cells)]
    columns = _label_columns(frame)
    at = columns.index("variant") if "variant" in columns else None
    groups: dict[str, list[tuple[str, ...]]] = {}
    for c in cells:
        groups.setdefault(str(c[at]) if at is not None else "", []).append(c)
    panels = []
    for name, members in groups.items():
        for k in range(0, len(members), MAX_SERIES):
            part = members[k:k + MAX_SERIES]
            panels.append((name + (f" ({k // MAX_SERIES + 1})" if len(members) > MAX_SERIES else ""), part))
    return panels


def _panel_grid(n: int, width: float, height: float, max_cols: int = 3,
                sharey: bool = False) -> tuple[Figure, np.ndarray, int]:
    """A figure of ``n`` panels of ``width`` × ``height`` inches in one, two or (beyond six, up to
    ``max_cols``) three columns, spare panels hidden: the figure, its axes flattened row by row and
    the number of columns."""
    ncols = min(max_cols, 1 if n == 1 else 2 if n <= 6 else 3)
    nrows = -(-n // ncols)
    fig = Figure(figsize=(width * ncols + 1.6, 0.7 + height * nrows), layout="constrained")
    axes = fig.subplots(nrows, ncols, sharey=sharey, squeeze=False).ravel()
    for ax in axes[n:]:
        ax.set_visible(False)
    return fig, axes, ncols


def _decided_end(cell: pd.DataFrame) -> int:
    """The first round by which a cell's runs were decided as often as 99.5 % of all its decided runs."""
    either = cell[cell["side"] == ""]
    p = either["p_decided_by"].to_numpy()
    if not len(p):
        return 1
    return int(either.loc[p >= 0.995 * p[-1] - 1e-12, "round"].iloc[0])


def decided_by_figure(decided_by: pd.DataFrame, max_round: int | None = None,
                      title: str = "Decided by round r") -> Figure:
    """Per matchup / variant, each side's chance to have won by round r (the cumulative win rate,
    reaching its win rate at the last round) with a 95 % Wilson band, and (dashed grey) the chance
    that the run was decided by then at all. The gap between the dashed line and a side's curve is
    the other side's wins; 100 % minus a side's curve is the other side's chance to be still in.

    Each panel's x axis stops at ``max_round`` (default: the round by which 99.5 % of that cell's
    decided runs were decided); the curves hold their last level to the edge.
    """
    _require(decided_by, ("matchup", "variant", "fighter", "side", "round", "p_decided_by", "ci_low", "ci_high"),
             "decided_by_figure")
    cells = _cells(decided_by)
    if not cells:
        raise ValueError("decided_by_figure: the decided_by frame is empty")
    fig, axes, _ = _panel_grid(len(cells), 4.6, 2.7)
    for ax, c in zip(axes, cells):
        cell = _in_cell(decided_by, c)
        end = max_round if max_round is not None else _decided_end(cell)
        sides = cell[cell["side"] != ""]
        names = _side_labels(sides.drop_duplicates("side"))
        curves = [(part, f"{name} ({key}) won", colour, "-")
                  for (key, part), name, colour in zip(sides.groupby("side", sort=True), names, OKABE_ITO)]
        curves.append((cell[cell["side"] == ""], "decided", DRAW_COLOUR, "--"))
        drawn: list[Any] = []
        labels: list[str] = []
        for part, label, colour, style in curves:
            last = int(part["round"].max()) if len(part) else 0
            r = np.concatenate([[0], part["round"].to_numpy(), [max(end + 1, last)]])
            est, lo, hi = (100 * np.concatenate([[0.0], v, v[-1:] if len(v) else [0.0]])
                           for v in (part[k].to_numpy() for k in ("p_decided_by", "ci_low", "ci_high")))
            if style == "-":
                ax.fill_between(r, lo, hi, step="post", color=colour, alpha=0.2, linewidth=0)
                label = f"{label}: {percent_label(est[-1] / 100)}"
            drawn += ax.step(r, est, where="post", color=colour, linestyle=style,
                             linewidth=1.8 if style == "-" else 1.2, label=plain(label))
            labels.append(plain(label))
        ax.set_xlim(0, end + 0.6)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylim(0, 101)
        ax.set_title(plain(_cell_title(decided_by, c)), fontsize=10, loc="left")
        ax.set_xlabel("round")
        ax.set_ylabel("won by then (% of all)")
        ax.legend(drawn, labels, loc="best", frameon=False, fontsize=8)
        _style(ax)
    fig.suptitle(plain(f"{title} (per side, 95 % Wilson bands)"))
    return fig


def paired_curves_figure(decided_by: pd.DataFrame, title: str = "") -> Figure:
    """Two setups of one matchup played on the same duels (``variant`` labels, the first the
    baseline): each side's chance to have won by round r under both, the baseline dashed, with
    95 % Wilson bands, one colour per side; ``title`` (e.g. the paired difference) above."""
    _require(decided_by, ("variant", "fighter", "side", "round", "p_decided_by", "ci_low", "ci_high"),
             "paired_curves_figure")
    setups = _unique(decided_by["variant"])
    fig = Figure(figsize=(6.4, 3.6), layout="constrained")
    ax = fig.add_subplot()
    end = 1
    for k, setup in enumerate(setups):
        rows = decided_by[(decided_by["variant"] == setup) & (decided_by["side"] != "")]
        for colour, (side, part) in zip(OKABE_ITO, rows.groupby("side", sort=True)):
            r = np.concatenate([[0], part["round"].to_numpy()])
            est, lo, hi = (100 * np.concatenate([[0.0], part[c].to_numpy()]) for c in ("p_decided_by", "ci_low",
                                                                                       "ci_high"))
            end = max(end, _decided_end(decided_by[decided_by["variant"] == setup]))
            if k:
                ax.fill_between(r, lo, hi, step="post", color=colour, alpha=0.2, linewidth=0)
            label = f"{part['fighter'].iloc[0]} ({side}), {setup}: {percent_label(est[-1] / 100)}"
            ax.step(r, est, where="post", color=colour, linestyle="--" if k == 0 else "-",
                    linewidth=1.2 if k == 0 else 1.8, label=plain(label))
    ax.set_xlim(0, end + 0.6)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylim(0, 101)
    ax.set_xlabel("round")
    ax.set_ylabel("won by then (% of all)")
    ax.legend(loc="best", frameon=False, fontsize=9)
    ax.set_title(plain(title or "Won by round r: " + " against ".join(setups[::-1]), MAX_AXIS_LABEL), fontsize=10)
    _style(ax)
    return fig


def wounds_at_least_figure(wounds_at_least: pd.DataFrame,
                           title: str = "Blows the loser took") -> Figure:
    """Per matchup / variant and losing side: the chance that the loser had taken at least k blows
    of each wound level in the runs it lost (k = 1 … the frame's cap, whose tick reads "k+"), one
    line per level with a 95 % Wilson band. Levels the loser never took are left out."""
    _require(wounds_at_least, ("matchup", "variant", "fighter", "side", "level", "k", "p", "ci_low", "ci_high", "n"),
             "wounds_at_least_figure")
    rows = wounds_at_least[wounds_at_least["k"] >= 1]
    panels = _unique(zip(*(rows[c] for c in _label_columns(rows)), rows["side"]))
    if not panels:
        raise ValueError("wounds_at_least_figure: the wounds_at_least frame is empty")
    levels = _unique(rows["level"])
    colours = _level_colours(levels)
    cap = int(rows["k"].max())
    fig, axes, _ = _panel_grid(len(panels), 4.2, 2.6)
    for ax, (*c, side) in zip(axes, panels):
        cell = _in_cell(rows, tuple(c))
        mine = cell[cell["side"] == side]
        fighter, lost = mine["fighter"].iloc[0], int(mine["n"].iloc[0])
        for lv in levels:
            part = mine[mine["level"] == lv]
            if not (part["p"].fillna(0) > 0).any():
                continue
            k = part["k"].to_numpy()
            colour = colours[lv] if lv != "none" else DRAW_COLOUR
            ax.fill_between(k, 100 * part["ci_low"], 100 * part["ci_high"], color=colour, alpha=0.2, linewidth=0)
            ax.plot(k, 100 * part["p"], color=colour, marker="o", markersize=3, linewidth=1.6,
                    label=plain(LEVEL_LABELS.get(lv, lv.replace("_", " "))))
        ax.set_xticks(range(1, cap + 1), [str(k) for k in range(1, cap)] + [f"{cap}+"])
        ax.set_ylim(0, 101)
        ax.set_title(plain(f"{_cell_title(rows, tuple(c))}\nlosses of {fighter} ({side}): {lost:,}"), fontsize=10,
                     loc="left")
        ax.set_xlabel("at least k blows of the level")
        ax.set_ylabel("% of its losses")
        if ax.get_legend_handles_labels()[0]:
            ax.legend(loc="upper right", frameon=False, fontsize=8)
        _style(ax)
    fig.suptitle(plain(f"{title}: P(at least k blows of each level), 95 % Wilson bands"))
    return fig


# -- wounds ---------------------------------------------------------------------------------------

def wounds_figure(wounds: pd.DataFrame, direction: str = "taken",
                  title: str | None = None) -> Figure:
    """Per fighter, blows per duel by hit zone (one bar per zone group) stacked by wound level.

    ``direction="taken"`` counts the blows the fighter took, ``"dealt"`` those it dealt. One
    panel per fighter of each matchup / variant (a row per matchup), sharing the y axis.
    """
    _require(wounds, ("matchup", "variant", "fighter", "side", "direction", "level", "zone", "per_duel"),
             "wounds_figure")
    if direction not in ("taken", "dealt"):
        raise ValueError(f"wounds_figure: direction must be 'taken' or 'dealt', got {direction!r}")
    rows = wounds[wounds["direction"] == direction]
    panels = _unique(zip(*(rows[c] for c in _label_columns(rows)), rows["side"]))
    if not panels:
        raise ValueError(f"wounds_figure: no rows with direction {direction!r}")
    levels = _unique(rows["level"])  # the ruleset's order, harmless to worst
    zones = _unique(rows["zone"])
    colours = _level_colours(levels)
    fig, axes, ncols = _panel_grid(len(panels), 4.0, 2.6, max_cols=2, sharey=True)
    x = np.arange(len(zones))
    top = 0.0
    for k, (ax, (*c, side)) in enumerate(zip(axes, panels)):
        cell = _in_cell(rows, tuple(c))
        mine = cell[cell["side"] == side]
        fighter = mine["fighter"].iloc[0]
        others = _unique(cell.loc[cell["side"] != side, "fighter"])
        grid = mine.pivot_table(index="level", columns="zone", values="per_duel", aggfunc="sum")
        grid = grid.reindex(index=levels, columns=zones).fillna(0.0)
        bottom = np.zeros(len(zones))
        for lv in levels:
            h = grid.loc[lv].to_numpy()
            ax.bar(x, h, bottom=bottom, width=0.7, color=colours[lv], edgecolor="white", linewidth=0.5,
                   label=plain(LEVEL_LABELS.get(lv, lv)))
            bottom += h
        top = max(top, float(bottom.max(initial=0.0)))
        for xx, total in zip(x, bottom):
            ax.text(xx, total, f"{total:.2f}", ha="center", va="bottom", fontsize=8)
        vs = ("hit by " if direction == "taken" else "hitting ") + (" / ".join(others) or "nobody")
        rest = _cell_title(rows, tuple(c), with_matchup=False)  # variant, sweep = value
        ax.set_title(plain(f"{fighter}, {vs}" + (f"\n{rest}" if rest else "")), fontsize=10)
        ax.set_xticks(x, _plain_all(zones))
        if k % ncols == 0:
            ax.set_ylabel("blows per duel")
        if k + ncols >= len(panels):  # the lowest panel of its column
            ax.set_xlabel("hit zone")
        _style(ax, "y")
    axes[0].set_ylim(0, 1.12 * top if top > 0 else 1.0)  # shared: room for the totals
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles[::-1], labels[::-1], loc="outside right upper", frameon=False, title="wound level")
    fig.suptitle(plain(title or f"Blows {direction} per duel by hit zone and wound level"))
    return fig


# -- sweeps ---------------------------------------------------------------------------------------

#: a sweep's groups (variants, matchups) drawn in one panel up to this many; more become small
#: multiples, a panel per group with the legend outside
SWEEP_GROUPS_PER_PANEL = 2
#: how far apart the series of a sweep of names stand around each value (in value steps)
DODGE = 0.12
#: a sweep's draw rate is drawn when some value's reaches this share of the runs
DRAWS_SHOWN = 0.01


def _sweep_series(ax: Axes, rows: pd.DataFrame, xpos: dict[Any, int], x_column: str, colour: str, line: str,
                  marker: str, label: str, scale: bool, offset: float) -> list[Any]:
    """One series of a sweep: on a scale a line through the values with its 95 % band; for names a
    dot per value with its 95 % interval as an error bar, moved ``offset`` aside (no line between
    names)."""
    s = rows.assign(_x=rows[x_column].map(xpos)).sort_values("_x", kind="stable")
    x, est = s["_x"].to_numpy(dtype=float), 100 * s["estimate"].to_numpy()
    lo, hi = 100 * s["ci_low"].to_numpy(), 100 * s["ci_high"].to_numpy()
    if scale:
        ax.fill_between(x, lo, hi, color=colour, alpha=0.2, linewidth=0)
        return ax.plot(x, est, marker=marker, markersize=4.5, color=colour, linewidth=1.8, linestyle=line,
                       label=plain(label))
    bars = ax.errorbar(x + offset, est, yerr=[est - lo, hi - est], fmt=marker, markersize=5, color=colour,
                       elinewidth=1.6, capsize=2.5, linestyle="none", label=plain(label))
    return [bars]


def sweep_figure(summary: pd.DataFrame, x_label: str, title: str | None = None, show_draws: bool = True,
                 x_column: str | None = None) -> Figure:
    """Win rate against a swept value, per fighter with its 95 % Wilson interval.

    The swept values are the labels in ``x_column`` (default: ``value`` when the frame comes from a
    sweep — its ``value`` column is filled — else ``variant``), in the order they appear in the
    frame, labelled ``x_label``. Values on a scale (:func:`on_a_scale`: numbers, dice) are joined
    by lines with shaded bands; names (tactics, weapons) are dots with error bars, the series set
    side by side, never joined. When each swept value holds a single cell, the series follow sides
    a and b (named after their fighters, joined with "/" if they change along the sweep); otherwise
    each group of the other labels (matchup, variant, …) is a series of its own: up to
    :data:`SWEEP_GROUPS_PER_PANEL` groups share a panel (a line style each, a fighter keeping its
    colour), more are small multiples — a panel per group, the legend outside. The draw rate is
    added in grey (per group) when ``show_draws`` and some value's reaches :data:`DRAWS_SHOWN`.
    """
    if x_column is None:
        x_column = "value" if "value" in summary and (summary["value"].astype(str) != "").any() else "variant"
    _require(summary, (x_column, "matchup", "fighter", "side", "measure", "estimate", "ci_low", "ci_high"),
             "sweep_figure")
    wins = summary[summary["measure"] == "win_rate"]
    if wins.empty:
        raise ValueError("sweep_figure: the summary frame has no win_rate rows")
    xs = _unique(wins[x_column])
    xpos = {v: i for i, v in enumerate(xs)}
    scale = on_a_scale(xs)
    others = [c for c in _label_columns(summary) if c != x_column]
    several = bool(others) and wins.groupby(x_column, sort=False)[others].nunique().max(axis=None) > 1
    group_cols = [c for c in others if wins[c].nunique() > 1] if several else []
    groups = _unique(zip(*(wins[c] for c in group_cols))) if group_cols else [()]
    apart = len(groups) > SWEEP_GROUPS_PER_PANEL
    panels = [[g] for g in groups] if apart else [groups]
    styles = dict(zip(groups, _GROUP_STYLES * (len(groups) // len(_GROUP_STYLES) + 1)))
    colours: dict[str, str] = {}  # a fighter keeps its colour across groups; groups differ in line style
    draws = summary[(summary["measure"] == "draw_rate") & summary[x_column].isin(xpos)]
    with_draws = show_draws and len(draws) > 0 and bool((draws["estimate"] >= DRAWS_SHOWN).any())

    width = max(4.2, 0.9 + 0.55 * len(xs)) if apart else max(6.0, 1.0 + 0.8 * len(xs))
    if apart:
        fig, axes, _ = _panel_grid(len(panels), width, 2.9, sharey=True)
    else:
        fig = Figure(figsize=(width, 4.2), layout="constrained")
        axes = np.array([fig.add_subplot()])
    legend: dict[str, Any] = {}
    for ax, members in zip(axes, panels):
        drawn: list[Any] = []
        labels: list[str] = []
        keys = {g: k for k, g in enumerate(members)}
        rows = wins[[tuple(r) in keys for r in zip(*(wins[c] for c in group_cols))]] if group_cols else wins
        series = list(rows.groupby([*group_cols, "side"], sort=False))
        n_series = len(series) + (len(members) if with_draws else 0)
        for k, (key, s) in enumerate(series):
            key = key if isinstance(key, tuple) else (key,)
            name = " / ".join(_unique(s["fighter"]))
            colour = colours.setdefault(f"{name}\0{key[-1]}", OKABE_ITO[len(colours) % len(OKABE_ITO)])
            line, marker = styles[tuple(key[:-1])] if not apart else ("-", "o")
            label = name + (" — " + " · ".join(str(x) for x in key[:-1] if x) if group_cols and not apart else "")
            drawn += _sweep_series(ax, s, xpos, x_column, colour, line, marker, label, scale,
                                   (k - (n_series - 1) / 2) * DODGE)
            labels.append(plain(label))
        if with_draws:
            for j, g in enumerate(members):
                d = draws
                for c, v in zip(group_cols, g):
                    d = d[d[c] == v]
                if d.empty:
                    continue
                line, marker = styles.get(g, ("-", "o")) if group_cols and not apart else ("--", ".")
                label = "draw" + (" — " + " · ".join(str(x) for x in g if x) if group_cols and not apart else "")
                drawn += _sweep_series(ax, d, xpos, x_column, DRAW_COLOUR, line, marker, label, scale,
                                       (len(series) + j - (n_series - 1) / 2) * DODGE)
                labels.append(plain(label))
        ax.axhline(50, color="#555555", linestyle=":", linewidth=1)
        ax.set_xticks(range(len(xs)), _plain_all(xs), rotation=0 if scale or len(xs) <= 4 else 30,
                      ha="center" if scale or len(xs) <= 4 else "right")
        ax.set_xlim(-0.5, len(xs) - 0.5)
        ax.set_ylim(0, 100)
        ax.set_xlabel(plain(x_label, MAX_AXIS_LABEL))
        ax.set_ylabel("win rate (%)")
        if apart:
            ax.set_title(plain(" · ".join(str(x) for x in members[0] if x)), fontsize=10, loc="left")
            for h, lab in zip(drawn, labels):
                legend.setdefault(lab, h)
        else:
            ax.legend(drawn, labels, frameon=False, loc="best", fontsize=9)
        _style(ax)
    matchups = _unique(wins["matchup"])
    text = plain(title or (f"{matchups[0]}: win rate by {x_label}" if len(matchups) == 1
                           else f"Win rate by {x_label}") + " (95 % intervals)", MAX_AXIS_LABEL)
    if apart:
        fig.suptitle(text)
        fig.legend(list(legend.values()), list(legend), loc="outside lower center", ncols=min(len(legend), 4),
                   frameon=False, fontsize=9)
    else:
        axes[0].set_title(text)
    return fig


def delta_bars_figure(labels: list[str], delta: Any, ci_low: Any, ci_high: Any, title: str,
                      x_label: str = "change of the win rate (percentage points, 95 % interval)") -> Figure:
    """Horizontal bars of changes (fractions) with their 95 % intervals, the first label on top;
    gains bluish green, losses vermillion."""
    delta, lo, hi = (np.asarray(x, dtype=float) for x in (delta, ci_low, ci_high))
    fig = Figure(figsize=(7.0, 1.2 + 0.28 * max(len(labels), 1)), layout="constrained")
    ax = fig.add_subplot()
    y = np.arange(len(labels))[::-1]
    colours = [OKABE_ITO[2] if d >= 0 else OKABE_ITO[3] for d in delta]
    err = np.vstack([100 * (delta - lo), 100 * (hi - delta)]) if len(labels) else None
    ax.barh(y, 100 * delta, color=colours, height=0.7, xerr=err, ecolor="#333333", capsize=2.5)
    ax.axvline(0, color="#555555", linewidth=1)
    ax.set_yticks(y, _plain_all(labels))
    ax.set_xlabel(plain(x_label, MAX_AXIS_LABEL))
    ax.set_title(plain(title))
    _style(ax, "x")
    return fig


def weights_figure(weights: pd.DataFrame, title: str | None = None) -> Figure:
    """Stat weights: the change of a's win rate for each stat step, a horizontal bar per row with
    its 95 % interval, in the frame's order (largest first from :func:`brutal_sim.designer.stat_weights`).

    Columns used: ``stat``, ``step``, ``delta``, ``ci_low``, ``ci_high`` (fractions), ``a`` and ``b``.
    """
    _require(weights, ("stat", "step", "delta", "ci_low", "ci_high"), "weights_figure")
    rows = weights.reset_index(drop=True)
    labels = [f"{stat} {step:+d}" for stat, step in zip(rows["stat"], rows["step"])]
    who = f"{rows['a'].iloc[0]} vs {rows['b'].iloc[0]}: " if {"a", "b"} <= set(rows) and len(rows) else ""
    return delta_bars_figure(labels, rows["delta"], rows["ci_low"], rows["ci_high"], title or f"{who}stat weights")


def diff_figure(diff: pd.DataFrame, title: str = "Change of each matchup's win rate (side a)") -> Figure:
    """A rule diff: the change of side a's win rate per matchup with its 95 % interval, in the
    frame's order (largest first from :func:`brutal_sim.designer.rule_diff`).

    Columns used: ``a``, ``b``, ``delta``, ``ci_low``, ``ci_high`` (fractions)."""
    _require(diff, ("a", "b", "delta", "ci_low", "ci_high"), "diff_figure")
    rows = diff.reset_index(drop=True)
    return delta_bars_figure([f"{a} vs {b}" for a, b in zip(rows["a"], rows["b"])], rows["delta"], rows["ci_low"],
                             rows["ci_high"], title)


def suggestions_figure(rows: pd.DataFrame, target: float, base: float, title: str) -> Figure:
    """Suggested changes (:func:`brutal_sim.suggest.suggest`): each suggestion's played win rate of
    side a as a dot with its 95 % interval, best on top; the target (dashed) and the matchup as it
    is (dotted) as vertical lines. Dots whose interval holds the target bluish green.

    Columns used: ``changes``, ``win_rate``, ``ci_low``, ``ci_high`` (fractions), ``reaches``."""
    _require(rows, ("changes", "win_rate", "ci_low", "ci_high", "reaches"), "suggestions_figure")
    rows = rows.reset_index(drop=True)
    labels = [str(c).replace(" + ", " +\n") for c in rows["changes"]]
    lines = sum(label.count("\n") + 1 for label in labels)
    fig = Figure(figsize=(7.0, 1.4 + 0.26 * max(lines, 1)), layout="constrained")
    ax = fig.add_subplot()
    y = np.arange(len(rows))[::-1]
    p, lo, hi = (100 * np.asarray(rows[c], dtype=float) for c in ("win_rate", "ci_low", "ci_high"))
    reach = np.asarray(rows["reaches"], dtype=bool)
    kinds = ((reach, OKABE_ITO[2], "interval holds the target"), (~reach, OKABE_ITO[0], "misses it"))
    for keep, colour, label in kinds:
        if keep.any():  # a dot with its interval per suggestion (a hover target each)
            ax.errorbar(p[keep], y[keep], xerr=np.vstack([p - lo, hi - p])[:, keep], fmt="o", color=colour,
                        ecolor="#333333", capsize=2.5, markersize=5, label=label)
    ax.axvline(100 * target, color="#555555", linestyle="--", linewidth=1, label=f"target {100 * target:g} %")
    ax.axvline(100 * base, color="#999999", linestyle=":", linewidth=1.2, label=f"as it is {100 * base:.1f} %")
    ax.set_yticks(y, _plain_all(labels))
    ax.set_xlabel(plain("win rate of side a (%, 95 % interval)", MAX_AXIS_LABEL))
    ax.set_title(plain(title))
    fig.legend(loc="outside lower center", ncols=2, fontsize="small", frameon=False)
    _style(ax, "x")
    return fig


# -- group fights ---------------------------------------------------------------------------------

#: How a fighter ended a group fight: standing (bluish green), or out by cause (B-2.9, B-5, B-7).
FATE_COLOURS = {"standing": "#009E73", "track_full": "#D55E00", "knocked_out": "#E69F00", "mortal": "#000000",
                "fled": "#56B4E9", "exhausted": "#CC79A7"}
FATE_LABELS = {"standing": "standing at the end", "track_full": "out: track full", "knocked_out": "out: knocked out",
               "mortal": "out: mortal wound", "fled": "out: fled", "exhausted": "out: exhausted"}


def fight_figure(survivors: pd.DataFrame, fighters: pd.DataFrame, title: str = "Group fights") -> Figure:
    """Per group fight (a row of two panels): left, the share of fights ending with k of each side
    still in; right, each fighter's fate in percent of fights — out by cause, or standing at the end.

    Takes :func:`brutal_sim.results.frames.survivors_frame` and :func:`brutal_sim.results.frames.fighters_frame`.
    """
    _require(survivors, ("matchup", "variant", "fighter", "side", "survivors", "share"), "fight_figure")
    _require(fighters, ("matchup", "variant", "fighter", "side", "measure", "estimate"), "fight_figure")
    cells = _cells(survivors)
    if not cells:
        raise ValueError("fight_figure: the survivors frame is empty")
    fate_rows = fighters[fighters["measure"].str.startswith("out_") & (fighters["measure"] != "out_rate")]
    causes = _unique(m[4:] for m in fate_rows["measure"])
    fates = ["standing", *causes]
    most = max(len(_unique(_in_cell(fighters, c)["fighter"])) for c in cells)
    fig = Figure(figsize=(10.5, 0.6 + max(2.8, 0.42 * most + 1.5) * len(cells)), layout="constrained")
    rows = fig.subfigures(len(cells), 1, squeeze=False)[:, 0]
    first_right: Any = None
    for row, c in enumerate(cells):
        left, right = rows[row].subplots(1, 2, gridspec_kw={"width_ratios": [1, 1.5]})
        first_right = first_right or right
        rows[row].suptitle(plain(_cell_title(survivors, c)), x=0.01, ha="left", fontweight="bold", fontsize=10.5)
        surv = _in_cell(survivors, c)
        sides = _unique(zip(surv["side"], surv["fighter"]))
        width = 0.8 / max(len(sides), 1)
        top = int(surv["survivors"].max())
        for k, (side, name) in enumerate(sides):
            part = surv[surv["side"] == side]
            x = part["survivors"].to_numpy() + (k - (len(sides) - 1) / 2) * width
            bars = left.bar(x, 100 * part["share"].to_numpy(), width=width * 0.95, color=OKABE_ITO[k],
                            label=plain(f"{name} ({side})"))
            left.bar_label(bars, labels=[f"{100 * v:.0f}" if v >= 0.005 else "" for v in part["share"]],
                           fontsize=7.5, padding=1)
        left.set_xticks(range(top + 1))
        left.set_xlabel("fighters still in at the end")
        left.set_ylabel("share of fights (%)")
        left.set_ylim(0, 115)
        left.set_title("fighters of each side still in (side a blue, side b orange)", fontsize=9.5, loc="left")
        _style(left, "y")

        cell = _in_cell(fighters, c)
        labels = _unique(cell["fighter"])
        est = cell.set_index(["fighter", "measure"])["estimate"]
        sides_of = dict(zip(cell["fighter"], cell["side"]))
        ys = np.arange(len(labels))
        left_edge = np.zeros(len(labels))
        for fate in fates:
            measure = "standing_rate" if fate == "standing" else f"out_{fate}"
            w = np.array([100 * float(est.get((f, measure), 0.0)) for f in labels])
            right.barh(ys, w, left=left_edge, height=0.7, color=FATE_COLOURS.get(fate, DRAW_COLOUR),
                       edgecolor="white", linewidth=0.5, label=plain(FATE_LABELS.get(fate, fate.replace("_", " "))))
            for y, x0, ww in zip(ys, left_edge, w):
                if ww >= 8:
                    colour = mcolors.to_rgba(FATE_COLOURS.get(fate, DRAW_COLOUR))
                    right.text(x0 + ww / 2, y, f"{ww:.0f}", ha="center", va="center", fontsize=7.5,
                               color=_ink_on(colour))
            left_edge += w
        right.set_yticks(ys, _plain_all(labels))
        for tick, f in zip(right.get_yticklabels(), labels):
            tick.set_color("#0072B2" if sides_of[f] == "a" else "#9A5B00")
        right.set_ylim(len(labels) - 0.5, -0.5)
        right.set_xlim(0, 100)
        right.set_xlabel("share of fights (%)")
        right.set_title("each fighter's fate (side a blue, side b orange)", fontsize=9.5, loc="left")
        right.tick_params(axis="y", length=0)
        _style(right, "x")
    handles, names = first_right.get_legend_handles_labels()
    fig.legend(handles, names, loc="outside right upper", frameon=False, fontsize=8.5)
    fig.suptitle(plain(title))
    return fig


# -- export ---------------------------------------------------------------------------------------

def figure_to_png(fig: Figure, dpi: int = DPI) -> bytes:
    """The figure as PNG bytes (white background, tight bounding box)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, facecolor="white", bbox_inches="tight")
    return buf.getvalue()


def figure_to_data_uri(fig: Figure, dpi: int = DPI) -> str:
    """The figure as a ``data:image/png;base64,…`` URI, for ``<img src=…>`` in HTML."""
    return "data:image/png;base64," + base64.b64encode(figure_to_png(fig, dpi)).decode("ascii")


def headcount_figure(rows: pd.DataFrame, one: str, many: str, title: str) -> Figure:
    """Head-count balance (:func:`brutal_sim.designer.headcount`): the one fighter's win rate against
    each count of the many, a dot with its 95 % interval, and the many's win rate; 50 % dashed.

    Columns used: ``count``, ``win_rate``, ``ci_low``, ``ci_high``, ``many_win_rate`` (fractions)."""
    _require(rows, ("count", "win_rate", "ci_low", "ci_high", "many_win_rate"), "headcount_figure")
    k = np.asarray(rows["count"], dtype=int)
    p, lo, hi = (100 * np.asarray(rows[c], dtype=float) for c in ("win_rate", "ci_low", "ci_high"))
    fig = Figure(figsize=(6.0, 3.4), layout="constrained")
    ax = fig.add_subplot()
    ax.errorbar(k, p, yerr=np.vstack([p - lo, hi - p]), fmt="o-", color=OKABE_ITO[0], ecolor="#333333",
                capsize=3, markersize=5, label=plain(f"one {one} wins"))
    ax.plot(k, 100 * np.asarray(rows["many_win_rate"], dtype=float), "s--", color=OKABE_ITO[1], markersize=4,
            label=plain(f"{many} win"))
    ax.axhline(50, color="#555555", linestyle=":", linewidth=1)
    ax.set_xticks(k)
    ax.set_xlabel(plain(f"number of {many}", MAX_AXIS_LABEL))
    ax.set_ylabel("win rate (%, 95 % interval)")
    ax.set_ylim(0, 100)
    ax.set_title(plain(title))
    fig.legend(loc="outside lower center", ncols=2, fontsize="small", frameon=False)
    _style(ax, "y")
    return fig


# -- layout checks ----------------------------------------------------------------------------------

def _boxes_meet(a: Any, b: Any, slack: float = 0.5) -> bool:
    """Whether two display boxes overlap by more than ``slack`` pixels each way."""
    return a.x0 + slack < b.x1 and b.x0 + slack < a.x1 and a.y0 + slack < b.y1 and b.y0 + slack < a.y1


def legend_overlaps(fig: Figure) -> list[str]:
    """What the legends of ``fig`` cover, drawn as laid out (an empty list when nothing): a legend
    outside the figure, over an axes' title or tick labels, over another legend, or — a figure
    legend, placed outside the axes — over any axes. A legend inside its axes may lie over the data
    (matplotlib places it where it covers least)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = fig.canvas
    agg = FigureCanvasAgg(fig)  # a renderer to measure with; the figure's own canvas is put back below
    agg.draw()
    try:
        return _legend_overlaps(fig, agg.get_renderer())
    finally:
        fig.set_canvas(canvas)


def _legend_overlaps(fig: Figure, renderer: Any) -> list[str]:
    whole = fig.bbox
    found: list[str] = []
    legends: list[tuple[Any, Axes | None]] = [(leg, None) for leg in fig.legends]
    legends += [(leg, ax) for ax in fig.axes if (leg := ax.get_legend()) is not None]
    boxes = [(leg.get_window_extent(renderer), ax) for leg, ax in legends]
    for k, (box, own) in enumerate(boxes):
        name = "the figure legend" if own is None else f"the legend of {own.get_title() or 'an axes'!r}"
        if box.x0 < whole.x0 - 1 or box.y0 < whole.y0 - 1 or box.x1 > whole.x1 + 1 or box.y1 > whole.y1 + 1:
            found.append(f"{name} sticks out of the figure")
        for other, _ in boxes[k + 1:]:
            if _boxes_meet(box, other):
                found.append(f"{name} overlaps another legend")
        for ax in fig.axes:
            if not ax.get_visible():
                continue
            title = ax.title.get_window_extent(renderer) if ax.get_title() else None
            if title is not None and _boxes_meet(box, title):
                found.append(f"{name} covers the title {ax.get_title()!r}")
            if own is None and _boxes_meet(box, ax.bbox):
                found.append(f"{name} covers the axes {ax.get_title() or ''!r}")
            ticks = [t for t in (*ax.get_xticklabels(), *ax.get_yticklabels()) if t.get_visible() and t.get_text()]
            if any(_boxes_meet(box, t.get_window_extent(renderer)) for t in ticks):
                found.append(f"{name} covers tick labels of {ax.get_title() or 'an axes'!r}")
    return found
# -- ratings ----------------------------------------------------------------------------------------

def ratings_figure(ratings: pd.DataFrame, reference: str, reference_points: float = 100.0,
                   title: str | None = None) -> Figure:
    """Ratings: each fighter's strength (Bradley–Terry, the reference's 1) as a dot with its 95 %
    interval on a log scale, strongest at the top, its suggested points written beside.

    Columns used: ``fighter``, ``strength``, ``ci_low``, ``ci_high``, ``suggested_points``
    (:meth:`brutal_sim.designer.Ratings.frame`)."""
    _require(ratings, ("fighter", "strength", "ci_low", "ci_high", "suggested_points"), "ratings_figure")
    rows = ratings.sort_values("strength", kind="stable").reset_index(drop=True)
    fig = Figure(figsize=(7.5, 1.2 + 0.38 * len(rows)), layout="constrained")
    ax = fig.subplots()
    y = np.arange(len(rows))
    strength = rows["strength"].to_numpy(dtype=float)
    lo, hi = rows["ci_low"].to_numpy(dtype=float), rows["ci_high"].to_numpy(dtype=float)
    colour = _palette(["strength"])["strength"]
    ax.errorbar(strength, y, xerr=[strength - lo, hi - strength], fmt="o", color=colour, ecolor=colour,
                capsize=3, markersize=5)
    ax.axvline(1.0, color="#888888", linewidth=0.8, linestyle="--")
    ax.set_xscale("log")
    ax.set_yticks(y, _plain_all(rows["fighter"]))
    trans = mtransforms.blended_transform_factory(ax.transAxes, ax.transData)
    for yi, p in zip(y, rows["suggested_points"]):
        ax.text(1.01, float(yi), f"{p:.0f} pts", transform=trans, va="center", ha="left", fontsize=8.5)
    ax.set_xlabel(plain(f"strength (Bradley–Terry, {reference} = 1 = {reference_points:g} points), 95 % intervals",
                        limit=200))
    ax.set_title(plain(title or "Ratings and suggested points"), loc="left", fontsize=10.5, fontweight="bold")
    _style(ax, "x")
    return fig


# -- gauntlets ------------------------------------------------------------------------------------

def gauntlet_figure(rows: pd.DataFrame, title: str = "Mean win rate against the pool, by item") -> Figure:
    """A gauntlet (:func:`brutal_sim.designer.gauntlet`): a dot per item at its mean win rate with
    its 95 % interval as a whisker, in the frame's order (best first, on top); the baseline item
    (the one the fighter holds) in vermillion with its rate as a dashed line, the others blue.

    Columns used: ``item``, ``baseline``, ``win_rate``, ``ci_low``, ``ci_high`` (fractions)."""
    _require(rows, ("item", "baseline", "win_rate", "ci_low", "ci_high"), "gauntlet_figure")
    rows = rows.reset_index(drop=True)
    rate, lo, hi = (100 * rows[c].to_numpy(dtype=float) for c in ("win_rate", "ci_low", "ci_high"))
    base = rows["baseline"].to_numpy(dtype=bool)
    fig = Figure(figsize=(7.0, 1.2 + 0.28 * max(len(rows), 1)), layout="constrained")
    ax = fig.add_subplot()
    y = np.arange(len(rows))[::-1]
    for mask, colour, label in ((~base, OKABE_ITO[0], "item"), (base, OKABE_ITO[3], "held now (baseline)")):
        if mask.any():
            ax.errorbar(rate[mask], y[mask], xerr=np.vstack([rate[mask] - lo[mask], hi[mask] - rate[mask]]),
                        fmt="o", color=colour, ecolor=colour, capsize=2.5, markersize=5, label=label)
    if base.any():
        ax.axvline(rate[base][0], color=OKABE_ITO[3], linewidth=1, linestyle="--")
    labels = [f"{item} (baseline)" if b else str(item) for item, b in zip(rows["item"], base)]
    ax.set_yticks(y, _plain_all(labels))
    ax.set_xlabel(plain("mean win rate against the pool (%, 95 % interval)", MAX_AXIS_LABEL))
    ax.set_title(plain(title))
    _style(ax, "x")
    return fig
