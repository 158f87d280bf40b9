"""Figures of the result frames: real small runs in, matplotlib Figures out (no pyplot state)."""

from __future__ import annotations

import base64
import subprocess
import sys

import numpy as np
import pytest

pd = pytest.importorskip("pandas")
pytest.importorskip("matplotlib")

import matplotlib.pyplot as plt  # noqa: E402  (only to check that the figures bypass it)
from matplotlib.container import BarContainer, ErrorbarContainer  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from brutal_sim import api  # noqa: E402
from brutal_sim.results import hover, plots  # noqa: E402
from brutal_sim.results.frames import (  # noqa: E402
    decided_by_frame,
    rounds_frame,
    summary_frame,
    wounds_at_least_frame,
    wounds_frame,
)
from brutal_sim.rulesets.brutal.layout import COUNTERS as BRUTAL_COUNTERS  # noqa: E402

N = 5_000
#: Brutal's zone groups (B-4.9), as its results carry them
ZONE_GROUP_NAMES = tuple(BRUTAL_COUNTERS.zones)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
LEVELS = ("none", "light_damage", "light", "heavy", "critical", "mortal")


@pytest.fixture(scope="module")
def pair_results():
    rs = [api.duel("swordsman", "brute", n=N, seed=1), api.duel("duelist", "knight", n=N, seed=1)]
    rs[0].labels.update(matchup="Swordsman vs Brute", variant="default")
    return rs


@pytest.fixture(scope="module")
def round_robin():
    names = ("swordsman", "brute", "knight")
    return summary_frame([api.duel(a, b, n=N, seed=2) for i, a in enumerate(names) for b in names[i + 1:]])


SWEEP = ("8", "2", "4")  # deliberately unsorted: the figure keeps the frame's order


@pytest.fixture(scope="module")
def sweep():
    rs = []
    for cap in SWEEP:  # a short round cap leaves many draws
        r = api.duel("swordsman", "knight", n=N, seed=3, options={"round_cap": cap})
        r.labels.update(matchup="Swordsman vs Knight", variant=cap)
        rs.append(r)
    return summary_frame(rs)


@pytest.fixture(autouse=True)
def no_pyplot_figures():
    assert plt.get_fignums() == []
    yield
    assert plt.get_fignums() == [], "a plot function created a pyplot figure"


def _cells(frame):
    return list(dict.fromkeys(zip(frame["matchup"], frame["variant"])))


def _bars(ax) -> BarContainer:
    (bars,) = [c for c in ax.containers if isinstance(c, BarContainer)]
    return bars


def _texts(ax):
    return [t.get_text() for t in ax.texts]


# -- win rates ------------------------------------------------------------------------------------

def test_win_rate_figure_bars_and_wilson_error_bars(pair_results):
    summary = summary_frame(pair_results)
    fig = plots.win_rate_figure(summary)
    assert isinstance(fig, Figure)
    (ax,) = fig.axes
    assert ax.get_title() and ax.get_xlabel() == "win rate (%)"
    rows = summary[summary["measure"].isin(["win_rate", "draw_rate"])]
    expected = []
    for m, v in _cells(rows):
        cell = rows[(rows["matchup"] == m) & (rows["variant"] == v)]
        expected += list(cell[cell["measure"] == "win_rate"].itertuples())
        expected += list(cell[cell["measure"] == "draw_rate"].itertuples())
    assert len(expected) == 2 * 3  # two fighters and the draws per matchup

    bars = _bars(ax)
    assert len(bars.patches) == len(expected)
    np.testing.assert_allclose([p.get_width() for p in bars.patches], [100 * r.estimate for r in expected])
    segments = bars.errorbar.lines[2][0].get_segments()
    np.testing.assert_allclose([s[0][0] for s in segments], [100 * r.ci_low for r in expected])
    np.testing.assert_allclose([s[1][0] for s in segments], [100 * r.ci_high for r in expected])
    # error bars sit on their bars
    np.testing.assert_allclose([s[0][1] for s in segments], [p.get_y() + p.get_height() / 2 for p in bars.patches])

    assert [t.get_text() for t in ax.get_yticklabels()] == [r.fighter or "draw" for r in expected]
    texts = _texts(ax)
    assert "Swordsman vs Brute · default" in texts and "Duelist vs Knight" in texts
    for r in expected:
        assert plots.percent_label(r.estimate) in texts


def test_win_rate_figure_mirror_matchup_names_the_sides():
    s = summary_frame([api.duel("swordsman", "swordsman", n=2_000, seed=5)])
    ax = plots.win_rate_figure(s).axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["Swordsman (a)", "Swordsman (b)", "draw"]
    colours = [p.get_facecolor() for p in _bars(ax).patches]
    assert colours[0] != colours[1]


def test_win_rate_figure_rejects_frames_without_rates(pair_results):
    with pytest.raises(ValueError, match="win_rate"):
        plots.win_rate_figure(summary_frame(pair_results).query("measure == 'death_rate'"))


# -- matchup matrix -------------------------------------------------------------------------------

def test_matchup_matrix_cells_are_the_frame_win_rates(round_robin):
    fig = plots.matchup_matrix_figure(round_robin)
    assert isinstance(fig, Figure)
    heat = [ax for ax in fig.axes if ax.images]
    assert len(heat) == 1
    ax = heat[0]
    fighters = ["Swordsman", "Brute", "Knight"]
    assert [t.get_text() for t in ax.get_xticklabels()] == fighters
    assert [t.get_text() for t in ax.get_yticklabels()] == fighters
    assert ax.get_xlabel() and ax.get_ylabel() and fig.get_suptitle()

    wins = round_robin[round_robin["measure"] == "win_rate"]
    expected = {}
    for m, _ in _cells(wins):
        a, b = (wins[(wins["matchup"] == m) & (wins["side"] == "a")].iloc[0],
                wins[(wins["matchup"] == m) & (wins["side"] == "b")].iloc[0])
        expected[(a["fighter"], b["fighter"])] = a["estimate"]
        expected[(b["fighter"], a["fighter"])] = b["estimate"]
    labels = {(fighters[round(t.get_position()[1])], fighters[round(t.get_position()[0])]): t.get_text()
              for t in ax.texts if t.get_gid() == "cell_label"}
    assert len(labels) == 6 == len(expected)  # every ordered pair once, diagonal blank
    assert labels == {k: plots.percent_label(v) for k, v in expected.items()}
    image = ax.images[0].get_array()
    assert image.shape == (3, 3) and np.ma.getmaskarray(image).diagonal().all()
    for (row, col), v in expected.items():
        assert image[fighters.index(row), fighters.index(col)] == pytest.approx(100 * v)

    bars = [a for a in fig.axes if a is not ax]
    assert len(bars) == 1 and bars[0].get_ylabel() == "win rate (%)"  # the colour bar


def test_matchup_matrix_one_panel_per_variant(round_robin):
    two = pd.concat([round_robin.assign(variant="default"), round_robin.assign(variant="other")], ignore_index=True)
    fig = plots.matchup_matrix_figure(two)
    assert [ax.get_title() for ax in fig.axes if ax.images] == ["default", "other"]
    one = plots.matchup_matrix_figure(two, variant="other")
    assert [ax.get_title() for ax in one.axes if ax.images] == ["other"]
    with pytest.raises(ValueError, match="no variant"):
        plots.matchup_matrix_figure(two, variant="missing")


# -- rounds ---------------------------------------------------------------------------------------

def test_rounds_histogram_one_panel_per_matchup(pair_results):
    rounds = rounds_frame(pair_results)
    fig = plots.rounds_figure(rounds)
    assert isinstance(fig, Figure)
    cells = _cells(rounds)
    assert len(fig.axes) == len(cells) == 2
    for ax, (m, v) in zip(fig.axes, cells):
        cell = rounds[(rounds["matchup"] == m) & (rounds["variant"] == v)]
        assert ax.get_title(loc="left").startswith(m)
        assert ax.get_ylabel() == "share (%)"
        assert len(ax.patches) == len(cell)
        np.testing.assert_allclose([p.get_height() for p in ax.patches], 100 * cell["share"].to_numpy())
        median = int(cell.loc[cell["cdf"] >= 0.5, "round"].iloc[0])
        assert f" median {median}" in _texts(ax)
    assert fig.axes[-1].get_xlabel() == "rounds to decision (rounds)"
    assert fig.get_suptitle()


def test_rounds_cdf_one_line_per_matchup(pair_results):
    rounds = rounds_frame(pair_results)
    fig = plots.rounds_figure(rounds, kind="cdf")
    (ax,) = fig.axes
    lines = [ln for ln in ax.get_lines() if not ln.get_label().startswith("_")]
    assert [ln.get_label() for ln in lines] == ["Swordsman vs Brute · default", "Duelist vs Knight"]
    for ln, (m, v) in zip(lines, _cells(rounds)):
        cell = rounds[(rounds["matchup"] == m) & (rounds["variant"] == v)]
        y = ln.get_ydata()
        assert y[0] == 0 and y[-1] == pytest.approx(100 * cell["cdf"].iloc[-1])
        np.testing.assert_allclose(y[1:len(cell) + 1], 100 * cell["cdf"].to_numpy())
    assert ax.get_xlabel() == "rounds to decision (rounds)" and "%" in ax.get_ylabel()
    assert fig.get_suptitle().startswith("Rounds to decision")
    with pytest.raises(ValueError, match="kind"):
        plots.rounds_figure(rounds, kind="violin")


def test_rounds_cdf_of_many_curves_is_small_multiples_by_variant(pair_results):
    """More than MAX_SERIES curves: a panel per variant, its legend beside it (no variant in the labels)."""
    rounds = rounds_frame(pair_results)
    many = pd.concat([rounds.assign(matchup=f"m{k}", variant=v) for k in range(5) for v in ("x", "y")])
    fig = plots.rounds_figure(many, kind="cdf")
    assert [ax.get_title(loc="left") for ax in fig.axes if ax.get_lines()] == ["x", "y"]
    first = [ln.get_label() for ln in fig.axes[0].get_lines() if not ln.get_label().startswith("_")]
    assert first == [f"m{k}" for k in range(5)]
    legend = fig.axes[0].get_legend()
    assert legend.get_bbox_to_anchor().x0 > fig.axes[0].get_window_extent().x1 - 1  # outside the panel


def test_decided_by_one_panel_per_matchup_ending_at_the_win_rates(pair_results):
    by = decided_by_frame(pair_results)
    fig = plots.decided_by_figure(by)
    axes = [ax for ax in fig.axes if ax.get_visible()]
    assert len(axes) == 2
    for ax, r in zip(axes, pair_results):
        lines = [ln for ln in ax.get_lines() if not ln.get_label().startswith("_")]
        labels = [ln.get_label() for ln in lines]
        assert labels[0].startswith(f"{r.names[0]} (a) won") and labels[1].startswith(f"{r.names[1]} (b) won")
        assert labels[2] == "decided"
        for ln, k in zip(lines, (r.wins(0), r.wins(1), r.wins(0) + r.wins(1))):
            y = ln.get_ydata()
            assert y[0] == 0 and y[-1] == pytest.approx(100 * k / N)  # a side's curve ends at its win rate
            assert (np.diff(y) >= 0).all()
    assert "Swordsman vs Brute" in axes[0].get_title(loc="left")


def test_wounds_at_least_one_panel_per_losing_side(pair_results):
    least = wounds_at_least_frame(pair_results)
    fig = plots.wounds_at_least_figure(least)
    axes = [ax for ax in fig.axes if ax.get_visible()]
    assert len(axes) == 4  # two matchups × two losing sides
    r = pair_results[0]
    ax = axes[1]  # the brute's losses
    assert f"losses of Brute (b): {r.wins(0):,}" in ax.get_title(loc="left")
    lines = {ln.get_label(): ln for ln in ax.get_lines() if not ln.get_label().startswith("_")}
    hist = r.loser_wounds(1)
    for lv, level in enumerate(LEVELS):
        at_least = hist[lv, ::-1].cumsum()[::-1] / r.wins(0)
        label = plots.LEVEL_LABELS[level]
        if at_least[1:].any():
            np.testing.assert_allclose(lines[label].get_ydata(), 100 * at_least[1:])
        else:
            assert label not in lines
    assert [t.get_text() for t in ax.get_xticklabels()][-1] == "8+"


# -- wounds ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("direction", ["taken", "dealt"])
def test_wounds_stacked_level_by_zone(pair_results, direction):
    wounds = wounds_frame(pair_results)
    fig = plots.wounds_figure(wounds, direction=direction)
    assert isinstance(fig, Figure)
    rows = wounds[wounds["direction"] == direction]
    panels = list(dict.fromkeys(zip(rows["matchup"], rows["variant"], rows["side"])))
    axes = [ax for ax in fig.axes if ax.get_visible()]
    assert len(axes) == len(panels) == 4  # one per fighter of each matchup
    assert direction in fig.get_suptitle()
    for ax, (m, v, side) in zip(axes, panels):
        mine = rows[(rows["matchup"] == m) & (rows["variant"] == v) & (rows["side"] == side)]
        assert ax.get_title().startswith(mine["fighter"].iloc[0])
        assert [t.get_text() for t in ax.get_xticklabels()] == list(ZONE_GROUP_NAMES)
        assert len(ax.patches) == len(LEVELS) * len(ZONE_GROUP_NAMES)  # level × zone, stacked
        heights = np.array([p.get_height() for p in ax.patches]).reshape(len(LEVELS), len(ZONE_GROUP_NAMES))
        grid = mine.pivot(index="level", columns="zone", values="per_duel").loc[list(LEVELS), list(ZONE_GROUP_NAMES)]
        np.testing.assert_allclose(heights, grid.to_numpy())
        tops = [p.get_y() + p.get_height() for p in ax.patches[-len(ZONE_GROUP_NAMES):]]
        np.testing.assert_allclose(tops, grid.sum().to_numpy())
    assert axes[0].get_ylabel() == "blows per duel" and axes[-1].get_xlabel() == "hit zone"
    (legend,) = fig.legends
    assert len(legend.get_texts()) == len(LEVELS)


# -- sweeps ---------------------------------------------------------------------------------------

def test_sweep_lines_bands_and_order(sweep):
    fig = plots.sweep_figure(sweep, "round cap (rounds)")
    assert isinstance(fig, Figure)
    (ax,) = fig.axes
    assert ax.get_xlabel() == "round cap (rounds)" and ax.get_ylabel() == "win rate (%)" and ax.get_title()
    assert [t.get_text() for t in ax.get_xticklabels()] == list(SWEEP)
    lines = {ln.get_label(): ln for ln in ax.get_lines() if not ln.get_label().startswith("_")}
    assert set(lines) == {"Swordsman", "Knight", "draw"}  # short caps leave draws: the draw line shows
    wins = sweep[sweep["measure"] == "win_rate"]
    bands = ax.collections
    assert len(bands) == 3  # each fighter's, then the draws'
    for band, fighter in zip(bands, ["Swordsman", "Knight"]):
        s = wins[wins["fighter"] == fighter]
        np.testing.assert_allclose(lines[fighter].get_xdata(), range(len(SWEEP)))
        np.testing.assert_allclose(lines[fighter].get_ydata(), 100 * s["estimate"].to_numpy())
        verts = band.get_paths()[0].vertices
        for x, (lo, hi) in enumerate(zip(s["ci_low"], s["ci_high"])):
            ys = verts[np.isclose(verts[:, 0], x), 1]
            assert ys.min() == pytest.approx(100 * lo) and ys.max() == pytest.approx(100 * hi)
    draws = sweep[sweep["measure"] == "draw_rate"]
    np.testing.assert_allclose(lines["draw"].get_ydata(), 100 * draws["estimate"].to_numpy())

    quiet = plots.sweep_figure(sweep, "round cap", show_draws=False).axes[0]
    assert len([ln for ln in quiet.get_lines() if not ln.get_label().startswith("_")]) == 2


def test_a_sweep_of_names_is_dots_with_intervals_and_many_variants_are_small_multiples(sweep):
    """Tactics have no order: a dot per value with its interval, never a line between two names;
    beyond SWEEP_GROUPS_PER_PANEL variants, a panel per variant and one legend outside."""
    names = dict(zip(SWEEP, ["aimed", "std_shot", "hip_spam", "kite", "overwatch"][:len(SWEEP)]))
    tactics = sweep.assign(value=sweep["variant"].map(names))
    frame = pd.concat([tactics.assign(variant=f"v{k}") for k in range(4)], ignore_index=True)
    fig = plots.sweep_figure(frame, "tactic", x_column="value")
    axes = [ax for ax in fig.axes if ax.get_visible()]
    assert len(axes) == 4 and [ax.get_title(loc="left") for ax in axes] == ["v0", "v1", "v2", "v3"]
    assert plots.SWEEP_GROUPS_PER_PANEL == 2
    (legend,) = fig.legends
    assert [t.get_text() for t in legend.get_texts()] == ["Swordsman", "Knight", "draw"]
    ax = axes[0]
    joined = [ln for ln in ax.get_lines()  # a line between values (the 50 % rule across the axes aside)
              if ln.get_transform() == ax.transData and len(ln.get_xdata()) > 1 and ln.get_linestyle() != "None"]
    assert not joined
    bars = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    assert len(bars) == 3  # the two fighters and the draws, each a dot and an interval per value
    wins = tactics[tactics["measure"] == "win_rate"]
    for c, fighter in zip(bars, ["Swordsman", "Knight"]):
        s = wins[wins["fighter"] == fighter]
        np.testing.assert_allclose(c.lines[0].get_ydata(), 100 * s["estimate"].to_numpy())
        segments = c.lines[2][0].get_segments()
        np.testing.assert_allclose([seg[0][1] for seg in segments], 100 * s["ci_low"].to_numpy())
        np.testing.assert_allclose([seg[1][1] for seg in segments], 100 * s["ci_high"].to_numpy())
    # the three series side by side around each value
    assert [c.lines[0].get_xdata()[0] for c in bars] == pytest.approx([-plots.DODGE, 0, plots.DODGE])
    # each dot's hover target names its value and series, with its interval
    svg = hover.figure_to_svg(fig, "t")
    first = wins[wins["fighter"] == "Swordsman"].iloc[0]
    def number(v):  # the tooltip's number format: one decimal from 10, two below, trailing zeros dropped
        return (f"{v:.1f}" if abs(v) >= 10 else f"{v:.2f}").rstrip("0").rstrip(".")
    assert (f"<title>Swordsman: tactic {first['value']} → win rate (%) {number(100 * first['estimate'])} "
            f"(95 % interval {number(100 * first['ci_low'])} – {number(100 * first['ci_high'])})</title>") in svg


def test_sweep_with_value_column_and_two_variants(sweep):
    frame = pd.concat([sweep.assign(value=sweep["variant"], variant=name) for name in ("v1", "v2")],
                      ignore_index=True)
    ax = plots.sweep_figure(frame, "round cap", x_column="value", show_draws=False).axes[0]
    labels = [ln.get_label() for ln in ax.get_lines() if not ln.get_label().startswith("_")]
    assert labels == ["Swordsman — v1", "Knight — v1", "Swordsman — v2", "Knight — v2"]
    lines = [ln for ln in ax.get_lines() if not ln.get_label().startswith("_")]
    assert lines[0].get_color() == lines[2].get_color() != lines[1].get_color()  # colour = fighter
    assert lines[0].get_linestyle() != lines[2].get_linestyle()  # line style = variant
    assert [t.get_text() for t in ax.get_xticklabels()] == list(SWEEP)


# -- export and pyplot independence ---------------------------------------------------------------

def test_png_and_data_uri(pair_results):
    fig = plots.win_rate_figure(summary_frame(pair_results))
    png = plots.figure_to_png(fig)
    assert png.startswith(PNG_SIGNATURE) and len(png) > 5_000
    uri = plots.figure_to_data_uri(fig)
    assert uri.startswith("data:image/png;base64,")
    assert base64.b64decode(uri.split(",", 1)[1]).startswith(PNG_SIGNATURE)


def test_importing_plots_does_not_import_pyplot():
    code = "import sys, brutal_sim.results.plots; print('matplotlib.pyplot' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_lethality_figure_bars_are_the_frame_numbers():
    rs = []
    for ruleset in ("brutal", "wfrp2e", "vereteno"):
        for a, b in (("swordsman", "brute"), ("duelist", "knight")):
            r = api.duel(a, b, n=2000, seed=4, ruleset=ruleset, labels={"variant": ruleset})
            rs.append(r)
    s = summary_frame(rs)
    fig = plots.lethality_figure(s)
    assert isinstance(fig, Figure)
    panels = [ax for ax in fig.axes if ax.containers]
    assert len(panels) == 3
    for ax, (measure, _, scale) in zip(panels, plots.LETHALITY_PANELS):
        bars = [c for c in ax.containers if isinstance(c, BarContainer)]
        assert [c.get_label() for c in bars] == ["brutal", "wfrp2e", "vereteno"]
        for c in bars:
            rows = s[(s.variant == c.get_label()) & (s.measure == measure) & ((s.side == "a") | (s.side == ""))]
            assert [p.get_width() for p in c.patches] == pytest.approx(list(scale * rows.estimate), abs=1e-9)
    with pytest.raises(ValueError, match="lethality_figure"):
        plots.lethality_figure(s[s.measure == "death_rate"])
