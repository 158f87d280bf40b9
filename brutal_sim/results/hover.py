"""Figures as inline SVG for HTML pages, with a hover value on every plotted point, bar and cell.

:func:`figure_to_svg` saves a figure of :mod:`brutal_sim.results.plots` with matplotlib's SVG
backend (text kept as text, so it stays sharp and scales with the page) and lays over it one
invisible target per datum, each with a ``<title>`` that the browser shows on hover (and a screen
reader reads):

- a bar (``bar``/``barh``, stacked too): its category (the tick label at its centre), its series
  (the legend label) and its value, with its 95 % interval when the bar has error bars;
- a point of a line drawn with markers: every point; a line without markers (a step curve): the
  points where it changes, at most :data:`MAX_LINE_TARGETS` of them, the last always; with the
  interval of the band filled in the line's colour around it (``fill_between``: the 95 % bands of
  brutal_sim's figures);
- a dot with an error bar (``errorbar`` with a marker: a sweep of names): its value, series and
  interval;
- a cell of an image (the matchup matrix): its row and column labels and its value.

The targets are placed while the figure is drawn (an artist drawn last reads each datum's place in
the SVG's own coordinates), so they fit whatever layout or tight bounding box the figure has.
Each legend entry and the artists of its series carry ids (:func:`_tag_series`) that the page's
script uses to hide or show a series when its entry is clicked, where series overlap. Nothing is
fetched and no script is needed to read a figure: the page stays one offline file.
"""

from __future__ import annotations

import base64
import io
import math
import re
from html import escape
from typing import Any, Iterator

import numpy as np
from matplotlib import rc_context
from matplotlib.artist import Artist
from matplotlib.collections import PolyCollection
from matplotlib.colors import to_rgb
from matplotlib.container import BarContainer, ErrorbarContainer
from matplotlib.figure import Figure
from matplotlib.text import Text

__all__ = ["figure_to_svg", "MAX_LINE_TARGETS"]

#: hover targets of a line drawn without markers (a step curve): at most this many of its changes
MAX_LINE_TARGETS = 24
#: the radius of a point's target, in the SVG's points
POINT_RADIUS = 4.5
#: a figure's vector drawing larger than this (bytes) is drawn as PNG when that is smaller
VECTOR_MAX_BYTES = 160_000
#: the smallest a figure's text is shown (CSS pixels; its ``min-width``, :func:`min_width`)
MIN_TEXT_PX = 9


def _number(v: float) -> str:
    """A value as a tooltip shows it: 1,234 · 56.7 · 3.45 · 0.08 (trailing zeros dropped)."""
    if not math.isfinite(v):
        return "—"
    if abs(v) >= 1000:
        return f"{v:,.0f}"
    text = f"{v:.1f}" if abs(v) >= 10 else f"{v:.2f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def _series(label: Any) -> str:
    text = str(label or "")
    return "" if text.startswith("_") else text


def _ticks(axis: Any) -> dict[float, str]:
    """Tick position → label of an axis (labels known once drawn)."""
    return {float(pos): t.get_text() for pos, t in zip(axis.get_ticklocs(), axis.get_ticklabels()) if t.get_text()}


def _at(ticks: dict[float, str], value: float) -> str:
    """The tick label at exactly ``value`` when it is a word (a category: a fighter, a die), else
    the number."""
    for pos, text in ticks.items():
        if abs(pos - value) < 1e-9:
            try:
                float(text.replace("\u2212", "-").replace("%", "").replace(",", ""))
            except ValueError:
                return text
            break
    return _number(value)


def _unit(label: str) -> str:
    return label.replace("\n", " ").strip()


class _Recorder(Artist):
    """Drawn after every other artist of the figure: reads where each datum landed."""

    def __init__(self) -> None:
        super().__init__()
        self.set_zorder(math.inf)
        self.targets: list[str] = []
        self.width = self.height = 0.0

    def draw(self, renderer: Any) -> None:
        self.width, self.height = self.figure.bbox.width, self.figure.bbox.height  # as saved (a tight box: cropped)
        height = self.height
        self.targets = list(_targets(self.figure, renderer, height))  # type: ignore[arg-type]  # a Figure here


def _targets(fig: Figure, renderer: Any, height: float) -> Iterator[str]:
    for ax in fig.axes:
        xt, yt = _ticks(ax.xaxis), _ticks(ax.yaxis)
        xlabel, ylabel = _unit(ax.get_xlabel()), _unit(ax.get_ylabel())
        skip: set[int] = set()
        for c in ax.containers:
            if isinstance(c, ErrorbarContainer):
                skip.update(id(line) for line in c.lines[0:1] if line is not None)
                skip.update(id(x) for group in c.lines[1:] for x in group)
        for c in ax.containers:
            if isinstance(c, BarContainer):
                yield from _bars(c, xt, yt, xlabel, ylabel, renderer, height)
        bands = _bands(ax)
        for c in ax.containers:
            if isinstance(c, ErrorbarContainer) and c.lines[0] is not None and c.lines[2]:
                yield from _points(c.lines[0], xt, xlabel, ylabel, height, bands,
                                   c.lines[2][0].get_segments(), _series(c.get_label()))
        for line in ax.get_lines():
            if id(line) not in skip and line.get_visible() and line.get_transform() == ax.transData:  # not axhline
                yield from _points(line, xt, xlabel, ylabel, height, bands)
        for image in ax.get_images():
            yield from _cells(image, ax, xt, yt, renderer, height)


def _rect(bbox: Any, height: float, title: str) -> str:
    x0, y0, w, h = bbox.x0, height - bbox.y1, bbox.width, bbox.height
    return (f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{max(w, 1.5):.1f}" height="{max(h, 1.5):.1f}">'
            f"<title>{escape(title)}</title></rect>")


def _bars(c: BarContainer, xt: dict[float, str], yt: dict[float, str], xlabel: str, ylabel: str,
          renderer: Any, height: float) -> Iterator[str]:
    horizontal = c.orientation == "horizontal"
    series = _series(c.get_label())
    errors = None
    if c.errorbar is not None and c.errorbar.lines[2]:
        errors = c.errorbar.lines[2][0].get_segments()
    for i, patch in enumerate(c.patches):
        if not patch.get_visible():
            continue
        if horizontal:
            value, where, axis = patch.get_width(), patch.get_y() + patch.get_height() / 2, xlabel
            category = _at(yt, where)
        else:
            value, where, axis = patch.get_height(), patch.get_x() + patch.get_width() / 2, ylabel
            category = _at(xt, where)
        words = " · ".join(p for p in (category, series) if p)
        text = f"{words}: {axis + ' ' if axis else ''}{_number(value)}"
        if errors is not None and i < len(errors) and len(errors[i]) == 2:
            (a0, b0), (a1, b1) = errors[i]
            lo, hi = sorted((a0, a1) if horizontal else (b0, b1))
            text += f" (95 % interval {_number(lo)} – {_number(hi)})"
        yield _rect(patch.get_window_extent(renderer), height, text)


def _bands(ax: Any) -> list[tuple[tuple[float, ...], np.ndarray]]:
    """The filled bands of an axes (``fill_between``): colour and outline vertices."""
    found: list[tuple[tuple[float, ...], np.ndarray]] = []
    for c in ax.collections:
        if isinstance(c, PolyCollection) and len(c.get_paths()) and len(c.get_facecolor()):
            face: Any = c.get_facecolor()
            colour = tuple(float(v) for v in np.round(np.asarray(face)[0][:3], 4))
            found.append((colour, np.vstack([p.vertices for p in c.get_paths()])))
    return found


def _band_at(bands: list[tuple[tuple[float, ...], np.ndarray]], colour: tuple[float, ...], x: float,
             y: float) -> tuple[float, float] | None:
    """The interval at ``x`` of the band of ``colour`` that holds ``y``, if there is one."""
    for rgb, vertices in bands:
        if rgb != colour:
            continue
        ys = vertices[np.abs(vertices[:, 0] - x) < 1e-9, 1]
        if len(ys) >= 2 and ys.min() - 1e-9 <= y <= ys.max() + 1e-9 and ys.min() < ys.max():
            return float(ys.min()), float(ys.max())
    return None


def _points(line: Any, xt: dict[float, str], xlabel: str, ylabel: str, height: float,
            bands: list[tuple[tuple[float, ...], np.ndarray]] = (),  # type: ignore[assignment]
            errors: Any = None, label: str | None = None) -> Iterator[str]:
    """A target per point of ``line`` (see the module), its interval from the band of its colour,
    or from ``errors`` (an error bar's vertical segments, one per point, of a series drawn as dots
    set a little aside from their value: the tick nearest names the value); ``label`` names the
    series when the line itself carries none (an error bar's data line)."""
    xy = np.asarray(line.get_xydata(), dtype=float)
    if xy.ndim != 2 or len(xy) == 0:
        return
    marker = line.get_marker()
    keep = np.arange(len(xy))
    if marker in (None, "", "None", " ", "none"):
        changes = [0] + [i for i in range(1, len(xy)) if xy[i, 1] != xy[i - 1, 1]]
        if len(changes) > MAX_LINE_TARGETS:
            changes = [changes[round(k * (len(changes) - 1) / (MAX_LINE_TARGETS - 1))] for k in range(MAX_LINE_TARGETS)]
        keep = np.array(sorted(set(changes) | {len(xy) - 1}))
    shown = np.isfinite(xy[keep]).all(axis=1)
    keep = keep[shown]
    places = line.get_transform().transform(xy[keep])
    series = _series(line.get_label()) if label is None else label
    colour = tuple(np.round(to_rgb(line.get_color()), 4))
    for k, (x, y), (px, py) in zip(keep, xy[keep], places):
        where = f"{xlabel + ' ' if xlabel else ''}{_at(xt, round(x) if errors is not None else x)}"
        text = f"{series + ': ' if series else ''}{where} → {ylabel + ' ' if ylabel else ''}{_number(y)}"
        band = _band_at(bands, colour, x, y)
        if errors is not None and k < len(errors) and len(errors[k]) == 2:
            band = tuple(sorted((float(errors[k][0][1]), float(errors[k][1][1]))))  # type: ignore[assignment]
        if band is not None:
            text += f" (95 % interval {_number(band[0])} – {_number(band[1])})"
        yield (f'<circle cx="{px:.1f}" cy="{height - py:.1f}" r="{POINT_RADIUS}">'
               f"<title>{escape(text)}</title></circle>")


def _cells(image: Any, ax: Any, xt: dict[float, str], yt: dict[float, str], renderer: Any,
           height: float) -> Iterator[str]:
    data: Any = np.ma.masked_invalid(np.ma.asarray(image.get_array(), dtype=float))
    if data.ndim != 2:
        return
    x0, x1, y0, y1 = image.get_extent()  # left, right, bottom, top
    rows, cols = data.shape
    if image.origin == "upper":  # row 0 at the top
        y0, y1 = y1, y0
    dx, dy = (x1 - x0) / cols, (y1 - y0) / rows
    for r in range(rows):
        for k in range(cols):
            if data.mask is not np.ma.nomask and data.mask[r, k]:
                continue
            cx, cy = x0 + (k + 0.5) * dx, y0 + (r + 0.5) * dy
            corners = ax.transData.transform([(x0 + k * dx, y0 + r * dy), (x0 + (k + 1) * dx, y0 + (r + 1) * dy)])
            (ax0, ay0), (ax1, ay1) = corners
            left, right = sorted((ax0, ax1))
            low, high = sorted((ay0, ay1))
            text = f"{_at(yt, cy)} against {_at(xt, cx)}: {_number(float(data[r, k]))}"
            yield (f'<rect x="{left:.1f}" y="{height - high:.1f}" width="{right - left:.1f}" '
                   f'height="{high - low:.1f}"><title>{escape(text)}</title></rect>')


def _saved(fig: Figure, fmt: str, key: str, dpi: float) -> tuple[bytes, list[str], float, float]:
    """The figure saved as ``fmt`` (tight bounding box, white), with the hover targets placed in
    its own coordinates (points for SVG, pixels for PNG) and its width and height in them."""
    recorder = _Recorder()
    fig.add_artist(recorder)
    buf = io.BytesIO()
    try:
        with rc_context({"svg.fonttype": "none", "svg.hashsalt": key}):
            fig.savefig(buf, format=fmt, dpi=dpi, facecolor="white", bbox_inches="tight",
                        metadata={"Date": None} if fmt == "svg" else None)
    finally:
        recorder.remove()
    return buf.getvalue(), recorder.targets, recorder.width, recorder.height


def min_width(fig: Figure, width: float) -> int:
    """The narrowest a figure ``width`` points wide may be shown (CSS pixels) for its smallest text
    to stay :data:`MIN_TEXT_PX` high: narrower screens scroll it sideways rather than shrink it."""
    sizes = [float(t.get_fontsize()) for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]
    return math.ceil(MIN_TEXT_PX * width / min(sizes)) if sizes else 0


def _series_artists(ax: Any, label: str) -> list[Artist]:
    """The artists of ``ax`` drawn for the legend entry ``label``: its lines, collections and the
    parts of its containers (bars, error bars)."""
    found: list[Artist] = [a for a in [*ax.lines, *ax.collections] if a.get_label() == label]
    for c in ax.containers:
        if c.get_label() == label:
            found.extend(a for a in c.get_children() if a is not None and a not in found)
    return found


def _tag_series(fig: Figure, key: str) -> list[Artist]:
    """Give each legend entry and the artists of its series ids the page's script toggles
    (``KEY-lN-t`` the entry's text, ``KEY-lN-h`` its handle, ``KEY-sN-J`` the series' artists): a
    click on an entry hides its series or shows it again. Entries without a series of their own
    (a reference line drawn once) are tagged too. Returns the artists tagged (their ids are taken
    back after saving)."""
    tagged: list[Artist] = []
    n = 0
    legends = [(leg, list(fig.axes)) for leg in fig.legends]
    legends += [(leg, [ax]) for ax in fig.axes if (leg := ax.get_legend()) is not None]
    for leg, axes in legends:
        for handle, text in zip(leg.legend_handles, leg.get_texts()):
            label = text.get_text()
            series = [a for ax in axes for a in _series_artists(ax, label)]
            if not series or handle is None:
                continue
            for j, artist in enumerate(series):
                artist.set_gid(f"{key}-s{n}-{j}")
            text.set_gid(f"{key}-l{n}-t")
            handle.set_gid(f"{key}-l{n}-h")
            tagged += [*series, text, handle]
            n += 1
    return tagged


def figure_to_svg(fig: Figure, key: str = "f", title: str = "", dpi: float = 110) -> str:
    """The figure as inline SVG markup (no XML prolog), white background, tight bounding box, with
    a hover target and ``<title>`` per datum (the module's docstring) in a ``<g class="hover">``
    drawn over it. Drawn as vector graphics, text as text; a figure whose vector drawing is larger
    than :data:`VECTOR_MAX_BYTES` and than its PNG at ``dpi`` (many long curves and bands) is drawn
    as that PNG inside the SVG instead, the targets alike. Its ``min-width`` keeps its smallest text
    :data:`MIN_TEXT_PX` high (:func:`min_width`). ``key`` salts the SVG's internal ids
    (clip paths, markers) so that several figures on one page keep theirs apart; the same figure
    and key give the same text. ``title`` labels the image for screen readers (``role="img"``,
    ``aria-label``)."""
    tagged = _tag_series(fig, key)
    try:
        data, targets, width, _ = _saved(fig, "svg", key, 72)
    finally:
        for artist in tagged:
            artist.set_gid(None)
    head = (f'<svg role="img" aria-label="{escape(title)}" class="plot" '
            f'style="min-width:{min_width(fig, width)}px" ')
    svg = data.decode("utf-8")
    svg = svg[svg.index("<svg"):]
    used = set(re.findall(r"#([^\s\"')]+)", svg))  # ids an href or url() refers to (salted by key); the others go
    toggles = re.compile(rf"{re.escape(key)}-(l\d+-[th]|s\d+-\d+)$")  # but the legend's toggles (_tag_series)
    svg = head + re.sub(r' id="([^"]+)"', lambda m: m.group(0) if m.group(1) in used or toggles.match(m.group(1))
                        else "", svg)[len("<svg "):]
    if len(svg) > VECTOR_MAX_BYTES:
        png, png_targets, _, _ = _saved(fig, "png", key, dpi)
        w, h = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")  # the PNG's pixels (IHDR)
        uri = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
        if len(uri) < len(svg):
            svg = (f'{head}xmlns="http://www.w3.org/2000/svg" '
                   f'width="{w * 72 / dpi:.1f}pt" height="{h * 72 / dpi:.1f}pt" '
                   f'viewBox="0 0 {w} {h}"><image width="{w}" height="{h}" href="{uri}"/></svg>')
            targets = [t.replace(f'r="{POINT_RADIUS}"', f'r="{POINT_RADIUS * dpi / 72:.1f}"') for t in png_targets]
    hover = '<g class="hover" fill="#000" fill-opacity="0" stroke="none">' + "".join(targets) + "</g>"
    end = svg.rindex("</svg>")
    return svg[:end] + hover + svg[end:]
