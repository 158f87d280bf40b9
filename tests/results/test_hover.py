"""Hover values of the inline SVG figures (results/hover.py): one titled target per bar, marked
point and image cell, placed where matplotlib drew the datum, with the value as drawn."""

from __future__ import annotations

import re

import numpy as np
from matplotlib.figure import Figure

from brutal_sim.results.hover import MAX_LINE_TARGETS, VECTOR_MAX_BYTES, figure_to_svg


def _targets(svg: str) -> list[tuple[str, dict[str, float], str]]:
    hover = svg[svg.index('<g class="hover"'):]
    return [(tag, {k: float(v) for k, v in re.findall(r'(\w+)="(-?[0-9.]+)"', attrs)}, title)
            for tag, attrs, title in re.findall(r"<(rect|circle) ([^>]*)><title>([^<]*)</title>", hover)]


def test_bars_with_intervals_name_their_category_series_value_and_interval():
    fig = Figure(figsize=(4, 3))
    ax = fig.add_subplot()
    ax.barh([0, 1], [32.0, 68.0], xerr=[[1.0, 2.0], [1.5, 0.5]], label="win rate")
    ax.set_yticks([0, 1], ["Swordsman", "Brute"])
    ax.set_xlabel("win rate (%)")
    svg = figure_to_svg(fig, "t", "Win rates")
    assert svg.startswith('<svg role="img" aria-label="Win rates" class="plot" ') and svg.endswith("</svg>\n")
    found = _targets(svg)
    assert [t for _, _, t in found] == ["Swordsman · win rate: win rate (%) 32 (95 % interval 31 – 33.5)",
                                        "Brute · win rate: win rate (%) 68 (95 % interval 66 – 68.5)"]
    (_, a, _), (_, b, _) = found
    assert b["width"] / a["width"] == np.float64(68.0 / 32.0).round(2) or abs(b["width"] / a["width"] - 68 / 32) < 0.01
    assert b["y"] < a["y"]  # the second bar is drawn above the first (SVG y grows downwards)


def test_marked_points_sit_on_their_markers_and_step_curves_are_thinned():
    fig = Figure(figsize=(6, 3))
    ax, curve = fig.subplots(1, 2)
    ax.fill_between([0, 1, 2], [8.0, 45.0, 77.5], [12.0, 50.0, 82.5], color="#0072B2", alpha=0.2)
    ax.plot([0, 1, 2], [10.0, 47.5, 80.0], marker="o", label="Brute", color="#0072B2")
    ax.set_xticks([0, 1, 2], ["d6", "d8", "d10"])
    ax.set_xlabel("axe damage")
    ax.set_ylabel("win rate (%)")
    r = np.arange(200)
    curve.step(r, np.minimum(r, 150) / 2, where="post", label="_hidden")  # 151 changes, no markers
    curve.set_xlabel("round")
    curve.set_ylabel("decided (%)")
    svg = figure_to_svg(fig, "t")
    found = _targets(svg)
    marked = [f for f in found if f[2].startswith("Brute")]
    assert [t for _, _, t in marked] == ["Brute: axe damage d6 → win rate (%) 10 (95 % interval 8 – 12)",
                                         "Brute: axe damage d8 → win rate (%) 47.5 (95 % interval 45 – 50)",
                                         "Brute: axe damage d10 → win rate (%) 80 (95 % interval 77.5 – 82.5)"]
    # matplotlib draws each marker (and tick) as <use … x=… y=…>: each target is centred on one
    uses = [(float(x), float(y)) for x, y in re.findall(r'<use [^>]*x="(-?[0-9.]+)" y="(-?[0-9.]+)"', svg)]
    for _, at, _ in marked:
        assert min(abs(at["cx"] - x) + abs(at["cy"] - y) for x, y in uses) < 0.2
    steps = [f for f in found if not f[2].startswith("Brute")]
    assert len(steps) == MAX_LINE_TARGETS + 1  # the thinned changes and the last point
    assert steps[0][2] == "round 0 → decided (%) 0" and steps[-1][2] == "round 199 → decided (%) 75"


def test_image_cells_name_row_column_and_value_and_skip_masked_ones():
    fig = Figure(figsize=(3, 3))
    ax = fig.add_subplot()
    ax.imshow(np.array([[np.nan, 61.3], [38.7, np.nan]]), vmin=0, vmax=100)
    ax.set_xticks([0, 1], ["Militia", "Knight"])
    ax.set_yticks([0, 1], ["Militia", "Knight"])
    found = _targets(figure_to_svg(fig, "t"))
    assert [t for _, _, t in found] == ["Militia against Knight: 61.3", "Knight against Militia: 38.7"]
    (_, upper, _), (_, lower, _) = found
    assert upper["y"] < lower["y"] and upper["x"] > lower["x"] and abs(upper["width"] - lower["width"]) < 0.2


def test_the_same_figure_and_key_give_the_same_text_and_keys_keep_ids_apart():
    def make() -> Figure:
        fig = Figure(figsize=(3, 2))
        fig.add_subplot().bar([0, 1], [1.0, 2.0])
        return fig

    one, again, other = figure_to_svg(make(), "a"), figure_to_svg(make(), "a"), figure_to_svg(make(), "b")
    assert one == again
    ids = re.findall(r'id="([^"]+)"', one)
    assert ids and len(set(ids)) == len(ids) and not set(ids) & set(re.findall(r'id="([^"]+)"', other))
    assert all(f"#{i}" in one for i in ids)  # only the ids a clip path or marker reference needs


def test_a_vector_drawing_too_large_is_drawn_as_png_with_its_targets_in_pixels():
    fig = Figure(figsize=(4, 3))
    ax = fig.add_subplot()
    cloud = np.random.default_rng(1).random((2, 5000))
    ax.scatter(29_999 * cloud[0], cloud[1], s=2)  # 5,000 dots: a large vector drawing, a small PNG
    ax.plot([0, 15_000, 29_999], [0.5, 0.5, 0.5], marker="o", label="mid")
    svg = figure_to_svg(fig, "t", dpi=100)
    assert '<image width="' in svg and 'href="data:image/png;base64,' in svg and len(svg) < VECTOR_MAX_BYTES
    w, h = (float(v) for v in re.search(r'viewBox="0 0 ([0-9.]+) ([0-9.]+)"', svg).groups())
    assert re.search(rf'width="{w * 72 / 100:.1f}pt" height="{h * 72 / 100:.1f}pt"', svg)
    mid = [t for t in _targets(svg) if t[2].startswith("mid")]
    assert [t[2] for t in mid] == ["mid: 0 → 0.5", "mid: 15,000 → 0.5", "mid: 29,999 → 0.5"]
    assert all(0 <= t[1]["cx"] <= w and 0 <= t[1]["cy"] <= h and t[1]["r"] == 6.2 for t in mid)  # 4.5 pt at 100 dpi
    assert abs(mid[0][1]["cy"] - mid[2][1]["cy"]) < 0.2 and mid[0][1]["cx"] < mid[1][1]["cx"] < mid[2][1]["cx"]
