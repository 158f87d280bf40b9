// Sortable, filterable tables with a CSV download each, for a report page that works offline.
// Every table.data: click (or Enter on) a column header to sort by it (numbers by value: a cell's
// data-value, else its leading number); type in the box above it to show only the rows holding the
// text; "CSV" downloads the tidy frame behind the table where the page embeds it (table.data
// data-frame="NAME", the frame in script#frame-NAME, gzip and base64), else the rows shown.
// A tap on a figure's datum shows its value. Printing opens every folded section. No library,
// nothing fetched.
(function () {
  "use strict";
  function each(list, f) { Array.prototype.forEach.call(list, f); }
  function value(cell) {
    var v = cell.getAttribute("data-value");
    if (v !== null && v !== "") { return parseFloat(v); }
    var text = cell.textContent.trim();
    var m = text.replace(/\u2212/g, "-").replace(/[,\u00a0 ]/g, "").match(/^[+-]?\d+(\.\d+)?/);
    return m ? parseFloat(m[0]) : text.toLowerCase();
  }
  function sortBy(table, col, th) {
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var dir = th.getAttribute("aria-sort") === "ascending" ? -1 : 1;
    each(table.tHead.rows[0].cells, function (c) { c.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", dir === 1 ? "ascending" : "descending");
    rows.sort(function (x, y) {
      var a = value(x.cells[col]), b = value(y.cells[col]);
      if (typeof a === typeof b) { return (a < b ? -1 : a > b ? 1 : 0) * dir; }
      return (typeof a === "number" ? -1 : 1) * dir;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  }
  function csvCell(cell) {
    var t = cell.innerText.replace(/\s+/g, " ").trim();
    if (/^[=+\-@\t\r]/.test(t)) { t = "'" + t; }  // no formulas when a spreadsheet opens it
    return /[",\n]/.test(t) ? "\"" + t.replace(/"/g, "\"\"") + "\"" : t;
  }
  function csv(table) {
    var lines = [];
    each(table.rows, function (r) {
      if (r.style.display !== "none") { lines.push(Array.prototype.map.call(r.cells, csvCell).join(",")); }
    });
    return lines.join("\r\n") + "\r\n";
  }
  // The tidy frames the page embeds (gzip, base64): frame(name) is a promise of its CSV text.
  function frame(name) {
    var el = document.getElementById("frame-" + name);
    if (!el) { return null; }
    var bytes = Uint8Array.from(atob(el.textContent.trim()), function (c) { return c.charCodeAt(0); });
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text();
  }
  window.brutalFrame = frame;
  function save(name, text) {
    var a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([text], {type: "text/csv;charset=utf-8"}));
    a.download = name + ".csv";
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(function () { URL.revokeObjectURL(a.href); }, 10000);
  }
  function frameLink(link, name) {
    link.title = "the tidy frame " + name + ".csv: numbers in their own columns";
    link.addEventListener("click", function (e) {
      var text = frame(name);
      if (!text) { return; }
      e.preventDefault();
      text.then(function (t) { save(name, t); });
    });
  }
  each(document.querySelectorAll("a.frame"), function (link) { frameLink(link, link.getAttribute("data-frame")); });
  each(document.querySelectorAll("table.data"), function (table) {
    var tools = document.createElement("div");
    tools.className = "tools";
    var input = document.createElement("input");
    input.type = "search";
    input.placeholder = "filter rows";
    input.setAttribute("aria-label", "show only the rows holding this text");
    input.addEventListener("input", function () {
      var q = input.value.toLowerCase();
      each(table.tBodies[0].rows, function (r) {
        r.style.display = r.textContent.toLowerCase().indexOf(q) >= 0 ? "" : "none";
      });
    });
    var link = document.createElement("a");
    link.textContent = "CSV";
    link.href = "#";
    link.download = (table.id || "table") + ".csv";
    if (table.hasAttribute("data-frame") && document.getElementById("frame-" + table.getAttribute("data-frame"))) {
      link.download = table.getAttribute("data-frame") + ".csv";
      frameLink(link, table.getAttribute("data-frame"));
    } else {
      link.addEventListener("click", function () {
        link.href = "data:text/csv;charset=utf-8," + encodeURIComponent(csv(table));
      });
    }
    tools.appendChild(input);
    tools.appendChild(link);
    var box = table.parentNode.classList.contains("scroll") ? table.parentNode : table;
    box.parentNode.insertBefore(tools, box);
    each(table.tHead.rows[0].cells, function (th, i) {
      th.tabIndex = 0;
      th.title = th.title || "sort by this column";
      th.addEventListener("click", function () { sortBy(table, i, th); });
      th.addEventListener("keydown", function (e) { if (e.key === "Enter") { sortBy(table, i, th); } });
    });
  });
  // A tap (or click) on a figure's point, bar or cell shows its value: the hover title, for touch screens.
  var tip = document.createElement("div");
  tip.className = "tip";
  tip.hidden = true;
  tip.setAttribute("role", "status");
  document.body.appendChild(tip);
  // A click on a legend entry hides its series or shows it again (ids from results/hover.py: KEY-lN-t
  // and KEY-lN-h the entry, KEY-sN-J the series' artists).
  document.addEventListener("click", function (e) {
    var g = e.target.closest ? e.target.closest("svg.plot [id]") : null;
    var m = g && /^(.*)-l(\d+)-[th]$/.exec(g.id);
    if (!m) { return; }
    var svg = g.closest("svg.plot"), off = !g.classList.contains("off");
    each(svg.querySelectorAll('[id^="' + m[1] + "-s" + m[2] + '-"]'), function (a) { a.style.display = off ? "none" : ""; });
    each(svg.querySelectorAll('[id^="' + m[1] + "-l" + m[2] + '-"]'), function (a) {
      a.classList.toggle("off", off); a.style.opacity = off ? "0.35" : ""; });
  });
  document.addEventListener("click", function (e) {
    var t = e.target.closest ? e.target.closest("svg.plot .hover > *") : null;
    var title = t && t.querySelector("title");
    if (!title) { tip.hidden = true; return; }
    tip.textContent = title.textContent;
    tip.hidden = false;
    var r = t.getBoundingClientRect(), room = document.documentElement.clientWidth - tip.offsetWidth - 4;
    tip.style.left = (window.scrollX + Math.max(4, Math.min(r.left, room))) + "px";
    tip.style.top = (window.scrollY + r.bottom + 6) + "px";
  });
  // Printing opens every folded section (setup, options at their defaults, more findings) and
  // closes again afterwards those that were closed.
  var opened = [];
  window.addEventListener("beforeprint", function () {
    each(document.querySelectorAll("details:not([open])"), function (d) { d.open = true; opened.push(d); });
  });
  window.addEventListener("afterprint", function () {
    opened.forEach(function (d) { d.open = false; });
    opened = [];
  });
}());
