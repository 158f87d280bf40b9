"""The example reports as a browser shows them (headless Chromium, skipped where none is installed):
no horizontal overflow on a 390 px phone screen, no script error, tables sort and filter, every
figure is inline SVG whose every hover target carries its value as a title, the pointer over a
target finds that target (so hovering shows its value) and a tap on it shows its value, figure text is
never under 9 px (a figure scrolls sideways instead), no figure's axes collapse, no legend covers a
title, tick labels, another legend or (a figure legend) an axes, a click on a legend entry hides its
series and a second shows it, and printing opens every folded section."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import warnings
from pathlib import Path

import pytest
from typer.testing import CliRunner

from brutal_sim.cli import app
from brutal_sim.results import hover, plots

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ("axe_sweep", "round_robin", "group_fights", "cross_system", "stat_weights", "vereteno_distance",
            "wfrp2e_at_a_distance")
#: the example reports with a legend whose entries toggle their series
LEGENDS = ("axe_sweep", "vereteno_distance", "wfrp2e_at_a_distance", "stat_weights")
CHROMIUM = next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed (apt install chromium): the example "
                                "reports are not rendered in a browser")

#: the page that holds a report in a 390 px wide frame and reports what it finds as JSON in <pre id="result">
WRAPPER = """<!DOCTYPE html><html><body style="margin:0">
<iframe id="f" src="REPORT" style="width:390px;height:844px;border:0"></iframe>
<script>
document.getElementById("f").addEventListener("load", function () {
  var d = document.getElementById("f").contentDocument, out = {};
  out.client = d.documentElement.clientWidth;
  out.scroll = d.documentElement.scrollWidth;
  out.wide = Array.prototype.filter.call(d.body.querySelectorAll("*"), function (e) {  // what sticks out, if anything
    return !(e.parentElement && e.parentElement.closest("svg, .scroll, figure")) && \
e.getBoundingClientRect().right > out.client + 0.5;
  }).slice(0, 5).map(function (e) { return e.tagName + "." + e.className + " " + e.textContent.slice(0, 60); });
  out.tools = d.querySelectorAll(".tools").length;
  out.tables = d.querySelectorAll("table.data").length;
  var svgs = Array.prototype.slice.call(d.querySelectorAll("figure svg.plot"));
  out.figures = d.querySelectorAll("figure").length; out.svgs = svgs.length; out.targets = 0; out.untitled = 0;
  out.empty = 0; out.hit = 0; out.titles = [];
  svgs.forEach(function (svg) {
    var targets = svg.querySelectorAll("g.hover > *");
    out.targets += targets.length; if (!targets.length) { out.empty++; }
    Array.prototype.forEach.call(targets, function (t) { var title = t.querySelector("title");
      if (!title || !title.textContent.trim()) { out.untitled++; } });
    var t = targets[Math.floor(targets.length / 2)];
    if (!t) { return; }
    t.scrollIntoView({block: "center", inline: "center"});
    var r = t.getBoundingClientRect(), e = d.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (e && e.parentNode && e.parentNode.parentNode === svg && e.parentNode.classList.contains("hover")) {
      out.hit++; out.titles.push(e.querySelector("title").textContent); }  // that target, or one drawn over it
  });
  out.smallest = 99; out.texts = 0;  // the smallest figure text as shown, in CSS pixels
  svgs.forEach(function (svg) {
    var box = svg.viewBox.baseVal, scale = box && box.width ? svg.getBoundingClientRect().width / box.width : 0;
    Array.prototype.forEach.call(svg.querySelectorAll("text"), function (x) {
      var size = parseFloat(d.defaultView.getComputedStyle(x).fontSize) * scale;
      out.texts++; out.smallest = Math.min(out.smallest, size);
    });
  });
  var first = d.querySelector("svg.plot .hover > *");  // a tap shows the value as well as a hover
  if (first) {
    first.dispatchEvent(new MouseEvent("click", {bubbles: true}));
    var tip = d.querySelector(".tip");
    out.tapped = tip && !tip.hidden ? tip.textContent : "";
    out.title = first.querySelector("title").textContent;
  }
  var entry = d.querySelector('svg.plot [id$="-l0-t"]');  // a click on a legend entry hides its series
  if (entry) {
    var series = entry.closest("svg").querySelectorAll('[id^="' + entry.id.replace(/-l0-t$/, "-s0-") + '"]');
    var hidden = function () { return Array.prototype.filter.call(series, function (a) { \
return d.defaultView.getComputedStyle(a).display === "none"; }).length; };
    entry.dispatchEvent(new MouseEvent("click", {bubbles: true})); out.toggled = [series.length, hidden()];
    entry.dispatchEvent(new MouseEvent("click", {bubbles: true})); out.toggled.push(hidden());
  }
  d.documentElement.scrollTop = 0; d.documentElement.scrollLeft = 0;
  var t = d.querySelector("table.data"), col = -1;
  if (t) {
    var first = t.tBodies[0].rows[0];
    for (var i = 0; i < first.cells.length && col < 0; i++) { \
if (first.cells[i].hasAttribute("data-value")) { col = i; } }
    if (col < 0) { col = 0; }
    var read = function () { return Array.prototype.map.call(t.tBodies[0].rows, function (r) {
      var c = r.cells[col]; \
return c.hasAttribute("data-value") ? parseFloat(c.getAttribute("data-value")) : c.textContent.trim(); }); };
    t.tHead.rows[0].cells[col].click(); out.up = read();
    t.tHead.rows[0].cells[col].click(); out.down = read();
    var box = d.querySelector(".tools input");
    box.value = "no row holds this"; box.dispatchEvent(new Event("input"));
    out.shown = Array.prototype.filter.call(t.tBodies[0].rows, function (r) { \
return r.style.display !== "none"; }).length;
  }
  var w = document.getElementById("f").contentWindow, closed = function () { \
return d.querySelectorAll("details:not([open])").length; };
  out.closed = closed(); w.dispatchEvent(new Event("beforeprint")); out.printing = closed();
  w.dispatchEvent(new Event("afterprint")); out.after = closed();
  var finish = function () {
  var pre = document.createElement("pre"); pre.id = "result"; pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre); };
  var summary = w.brutalFrame && w.brutalFrame("summary");  // the tidy frame a CSV link downloads
  if (!summary) { finish(); return; }
  summary.then(function (text) { var lines = text.trim().split("\\n");
    out.frameHead = lines[0]; out.frameRows = lines.length - 1;
    out.frameWant = parseInt(d.getElementById("frame-summary").getAttribute("data-rows"), 10); finish(); },
    function (e) { out.frameError = String(e); finish(); });
});
</script></body></html>"""


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("reports")
    out = {}
    drawn = hover.figure_to_svg
    for name in EXAMPLES:
        path = folder / f"{name}.html"
        covered: list[str] = []

        def checked(fig, key, title, covered=covered):  # each figure's legends, as laid out, cover nothing
            covered.extend(f"{title}: {problem}" for problem in plots.legend_overlaps(fig))
            return drawn(fig, key, title)

        with warnings.catch_warnings(record=True) as caught, pytest.MonkeyPatch.context() as mp:
            warnings.simplefilter("always")
            mp.setattr(hover, "figure_to_svg", checked)
            r = CliRunner().invoke(app, ["report", str(ROOT / "examples" / f"{name}.toml"), "-o", str(path),
                                         "-n", "2000"])
        assert r.exit_code == 0, r.output
        # matplotlib's layout gave every axes room (no axes collapsed under a legend or too many panels)
        assert not [str(w.message) for w in caught if "collapsed" in str(w.message)], name
        assert not covered, covered
        out[name] = path
    return out


def _render(report: Path) -> tuple[dict, str]:
    wrapper = report.with_name(report.stem + ".wrapper.html")
    wrapper.write_text(WRAPPER.replace("REPORT", report.name))
    done = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
                           "--enable-logging=stderr", "--v=0", "--window-size=1000,900", "--virtual-time-budget=8000",
                           "--dump-dom", wrapper.as_uri()], capture_output=True, text=True, timeout=180)
    found = re.search(r'<pre id="result">([^<]*)</pre>', done.stdout)
    assert found, done.stderr[-2000:]
    return json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&")), done.stderr


@pytest.mark.parametrize("name", EXAMPLES)
def test_an_example_report_fits_a_phone_and_its_tables_sort_and_filter(reports, name):
    result, log = _render(reports[name])
    assert result["scroll"] <= result["client"] <= 390, result["wide"]  # wide tables scroll inside their box
    assert not re.findall(r"Uncaught|SyntaxError|ReferenceError|TypeError", log), log[-2000:]
    assert result["tools"] == result["tables"] >= 1
    up, down = result["up"], result["down"]
    assert up == sorted(up) and down == sorted(down, reverse=True) and sorted(up) == sorted(down)
    assert result["shown"] == 0
    # every figure an inline SVG with a titled hover target per datum; the pointer over one finds it
    assert result["figures"] == result["svgs"] >= 1 and result["untitled"] == result["empty"] == 0
    assert result["targets"] >= 3 * result["svgs"] and result["hit"] == result["svgs"], result
    assert all(re.search(r"\d", t) for t in result["titles"]), result["titles"]  # a value in each
    # figure text never under 9 px on the phone (a figure scrolls sideways instead); a tap shows a value
    assert result["texts"] == 0 or result["smallest"] >= 9 - 0.05, result["smallest"]
    assert result["tapped"] == result["title"] != ""
    # the summary table's CSV link downloads the embedded tidy frame, numbers in their own columns
    assert "frameError" not in result, result.get("frameError")
    if result.get("frameWant"):  # a page of group fights only has an empty summary
        assert "estimate" in result["frameHead"].split(",") and result["frameRows"] == result["frameWant"]
    # a legend's entry hides its series on a click and shows it on the next (pages with a legend)
    if name in LEGENDS:
        count, off, on = result["toggled"]
        assert count >= 1 and off == count and on == 0, result["toggled"]
    # printing opens every folded section (the setup at least), and closes them again afterwards
    assert result["closed"] >= 1 and result["printing"] == 0 and result["after"] == result["closed"]
