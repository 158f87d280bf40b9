"""One-file HTML reports: a scenario's results, plots, fighters and options, images embedded."""

from __future__ import annotations

import base64
import binascii
import gzip
import itertools
import json
import os
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

import jinja2
import markupsafe
import numpy as np
import pandas as pd

from . import __version__
from .core.costs import singular
from .core.data import exists
from .core.errors import DataError
from .core.limits import MAX_DEPTH, MAX_REPORT_BYTES, check_json_nesting, read_bytes, size_text
from .outputs import csv_text, csv_writer, parquet_writer, write_folder
from .results import findings, hover, plots
from .results.duel import DuelResult
from .results.fight import FightResult
from .results.frames import (
    decided_by_frame,
    fight_summary_frame,
    fighters_frame,
    rounds_frame,
    summary_frame,
    survivors_frame,
    wounds_at_least_frame,
    wounds_frame,
)
from .scenario import Scenario, scenario_files

#: Reports draw the wound figure (two panels per cell) only up to this many cells; the CSV has all.
MAX_WOUND_CELLS = 6
#: … and the decided-by and rounds-to-decision figures (a panel per cell or variant) up to this many cells.
MAX_CURVE_CELLS = 24
#: … and the group-fight figure (a row of two panels per fight) up to this many fights.
MAX_FIGHT_CELLS = 8
#: … and the win-rate bars up to this many cells: beyond, a bar list a screen long per dozen cells
#: would repeat the summary table in another form;
MAX_BAR_CELLS = 12
#: … and a round robin's matchup matrix for the first this many variants (a figure each).
MAX_MATRICES = 8


@dataclass
class ReportFrames:
    """The tidy frames a report is made of (also what ``--csv`` writes)."""

    summary: pd.DataFrame
    rounds: pd.DataFrame
    wounds: pd.DataFrame
    differences: pd.DataFrame | None = None
    fight_summary: pd.DataFrame | None = None  # group fights (None: the scenario has none)
    fighters: pd.DataFrame | None = None
    survivors: pd.DataFrame | None = None
    weights: pd.DataFrame | None = None  # stat weights (None: the scenario has no [[weights]])
    decided_by: pd.DataFrame | None = None  # per side, P(won by round r)
    wounds_at_least: pd.DataFrame | None = None  # per losing side and level, P(took at least k blows)
    #: the designer's questions ([[suggest]]): frame name (``suggestions``) → the entries' tidy rows
    analyses: dict[str, pd.DataFrame] = field(default_factory=dict)

    @classmethod
    def of(cls, results: list[DuelResult], differences: pd.DataFrame | None = None,
           fights: list[FightResult] | None = None, weights: list[Any] | None = None,
           analyses: Sequence[Any] = ()) -> "ReportFrames":
        frames = cls(summary_frame(results), rounds_frame(results), wounds_frame(results), differences)
        frames.decided_by = decided_by_frame(results)
        frames.wounds_at_least = wounds_at_least_frame(results)
        if fights:
            frames.fight_summary = fight_summary_frame(fights)
            frames.fighters = fighters_frame(fights)
            frames.survivors = survivors_frame(fights)
        if weights:
            frames.weights = pd.concat([w.frame() for w in weights], ignore_index=True)
        for name in dict.fromkeys(r.FRAME for r in analyses):
            frames.analyses[name] = pd.concat([r.frame() for r in analyses if r.FRAME == name], ignore_index=True)
        return frames

    def tables(self) -> dict[str, pd.DataFrame]:
        """The frames by name (those the scenario has)."""
        names = ("summary", "rounds", "decided_by", "wounds", "wounds_at_least", "differences", "fight_summary",
                 "fighters", "survivors", "weights")
        return {**{name: getattr(self, name) for name in names if getattr(self, name) is not None}, **self.analyses}

    def embedded(self) -> list[dict[str, Any]]:
        """Each frame as the page embeds it: its name, row count and CSV text (:func:`csv_text`, as
        ``--csv`` writes it) gzip-compressed and base64-encoded, for the page's CSV links."""
        return [{"name": name, "rows": len(frame),
                 "data": base64.b64encode(gzip.compress(csv_text(frame).encode("utf-8"), mtime=0)).decode("ascii")}
                for name, frame in self.tables().items()]

    def csv_files(self) -> dict[str, Callable[[Path], None]]:
        """Each frame as a writer of ``NAME.csv`` (text that a spreadsheet would run as a formula
        neutralised: :func:`brutal_sim.outputs.csv_writer`)."""
        return {f"{name}.csv": csv_writer(frame) for name, frame in self.tables().items()}

    def parquet_files(self, metadata: Mapping[str, Any]) -> dict[str, Callable[[Path], None]]:
        """Each frame as a writer of ``NAME.parquet`` (needs pyarrow), ``metadata`` (e.g.
        :func:`table_metadata`) and the table's name in each file's key–value metadata."""
        return {f"{name}.parquet": parquet_writer(frame, {**metadata, "table": name})
                for name, frame in self.tables().items()}

    def to_csv(self, directory: str) -> list[Path]:
        """Write :meth:`csv_files` as the folder ``DIRECTORY``, replaced as a whole
        (:func:`brutal_sim.outputs.write_folder`)."""
        return write_folder(directory, self.csv_files())

    def to_parquet(self, directory: str, metadata: Mapping[str, Any]) -> list[Path]:
        """Write :meth:`parquet_files` as the folder ``DIRECTORY``, replaced as a whole
        (:func:`brutal_sim.outputs.write_folder`)."""
        return write_folder(directory, self.parquet_files(metadata))


def table_metadata(scenario: Scenario) -> dict[str, Any]:
    """What the files of ``--parquet`` carry in their metadata: the brutal_sim version, the
    scenario's title, the rulesets, each variant's options, the seed, and n (or the target error
    in percentage points and max_n)."""
    spec = scenario.spec
    return {"version": __version__, "title": spec.title, "rulesets": [rs.name for rs in scenario.rulesets],
            "options": {v: o.as_dict() for v, o in scenario.variant_options.items()},
            "seed": spec.seed, "n": None if spec.target_error is not None else spec.n,
            "target_error": spec.target_error, "max_n": spec.max_n if spec.target_error is not None else None}


def _pct(x: float) -> str:
    return f"{100 * x:.1f}\u00a0%"


def _ci(lo: float, hi: float) -> str:
    return f"{100 * lo:.1f}–{100 * hi:.1f}\u00a0%"


def _same_as_base(cells: Sequence[Any]) -> dict[int, int]:
    """Sweep cells that play their matchup as it is (the fighter's own value: the same fighters and
    options as the plain matchup cell of the variant): sweep cell → that plain cell."""
    plain = {}
    for i, c in enumerate(cells):
        if not c.sweep:
            plain.setdefault((c.matchup, c.variant), []).append(i)
    out = {}
    for i, c in enumerate(cells):
        for j in plain.get((c.matchup, c.variant), []) if c.sweep else []:
            base = cells[j].compiled
            if np.array_equal(c.compiled.fighters, base.fighters) and np.array_equal(c.compiled.options, base.options):
                out[i] = j
    return out


def _summary_rows(results: list[DuelResult], cells: Sequence[Any] = ()) -> list[dict[str, Any]]:
    """A row per cell of the summary table; a plain matchup that a sweep also plays as it is (its
    own value) is shown once, as the sweep's row marked "as it is" (the summary frame keeps both)."""
    same = _same_as_base(cells) if len(cells) == len(results) else {}
    hidden = set(same.values())
    rows = []
    for k, r in enumerate(results):
        if k in hidden:
            continue
        d = r.to_dict()
        causes = {k: v for k, v in d["defeat_cause"].items() if v}
        total = sum(causes.values())
        cause = ", ".join(f"{k.replace('_', ' ')} {100 * v / total:.0f}\u00a0%"
                          for k, v in sorted(causes.items(), key=lambda kv: -kv[1])[:2]) if total else "—"
        sweep = r.labels.get("sweep", "")
        rows.append({
            "matchup": r.labels.get("matchup", ""), "variant": r.labels.get("variant", ""),
            "sweep_label": (f"{sweep} = {r.labels.get('value', '')}" + (" (as it is)" if k in same else ""))
            if sweep else "—",
            "a": d["a"]["name"], "a_rate": d["a"]["win_rate"], "a_lo": d["a"]["ci95"][0], "a_hi": d["a"]["ci95"][1],
            "b": d["b"]["name"], "b_rate": d["b"]["win_rate"], "b_lo": d["b"]["ci95"][0], "b_hi": d["b"]["ci95"][1],
            "draws": d["draws"] / d["n"], "rounds_mean": d["rounds"]["mean"], "p50": d["rounds"]["p50"],
            "p90": d["rounds"]["p90"], "one_blow": d["one_blow_share"], "cause": cause,
        })
    return rows


def _difference_rows(diff: pd.DataFrame | None) -> list[dict[str, Any]]:
    """Side a's paired win-rate differences between neighbouring cells."""
    if diff is None:
        return []
    rows = []
    for _, d in diff[diff["side"] == "a"].iterrows():
        rows.append({"matchup": d["matchup"], "variant": d["variant"] if d["sweep"] else "", "sweep": d["sweep"],
                     "change": f"{d['from'] or 'default'} → {d['to'] or 'default'}", "fighter": d["fighter"],
                     "difference": f"{100 * d['difference']:+.1f}\u00a0pp",
                     "ci": f"{100 * d['ci_low']:+.1f} … {100 * d['ci_high']:+.1f}",
                     "independent": f"±{100 * d['halfwidth_independent']:.1f}",
                     "ratio": f"{d['variance_ratio']:.1f}×"})
    return rows


def _figures(scenario: Scenario, frames: ReportFrames,
             on_figure: Callable[[int, str], None] | None = None) -> list[dict[str, str]]:
    figs: list[dict[str, str]] = []

    def add(fig: Any, title: str, caption: str, sweep: bool = False) -> None:
        figs.append({"svg": _svg(fig, f"fig{len(figs)}", title), "title": title, "caption": caption, "sweep": sweep})
        if on_figure is not None:
            on_figure(len(figs), title)

    plain = frames.summary[frames.summary["sweep"] == ""]
    if not plain.empty and scenario.spec.rulesets:
        add(plots.lethality_figure(plain, "Lethality by ruleset"), "Lethality by ruleset",
            "Per matchup and ruleset: side a's win rate, the mean rounds to decision and the share of decided "
            "duels in which the loser went down to the only blow that harmed it; 95 % intervals.")
    plain_cells = len(plain[["matchup", "variant"]].drop_duplicates())
    if not plain.empty and plain_cells <= MAX_BAR_CELLS:
        add(plots.win_rate_figure(plain), "Win rates", "Win rate of each fighter with its 95 % Wilson interval.")
    if not plain.empty:
        if scenario.spec.round_robin:
            for variant in plain["variant"].unique()[:MAX_MATRICES]:
                add(plots.matchup_matrix_figure(plain[plain["variant"] == variant]),
                    f"Matchup matrix ({variant})", f"Round robin, {variant}: the row fighter's win rate against "
                    "the column fighter.")
        rounds = frames.rounds[frames.rounds["sweep"] == ""]
        wounds = frames.wounds[frames.wounds["sweep"] == ""]
        cells = wounds[["matchup", "variant"]].drop_duplicates()
        if len(cells) <= MAX_CURVE_CELLS:  # a panel per variant beyond a few: the figure's cost grows faster
            add(plots.rounds_figure(rounds, kind="cdf"), "Rounds to decision",
                "Share of decided duels over by each round.")
        if frames.decided_by is not None and len(cells) <= MAX_CURVE_CELLS:
            add(plots.decided_by_figure(frames.decided_by[frames.decided_by["sweep"] == ""]), "Decided by round",
                "Per side, the share of all duels it had won by each round (its win rate at the end), with 95 % "
                "Wilson bands; dashed, the share decided by then either way (the frame decided_by, "
                "a CSV file with --csv).")
        if len(cells) <= MAX_WOUND_CELLS:  # two panels per cell: beyond this the figure is a wall
            add(plots.wounds_figure(wounds, direction="taken"), "Wounds taken",
                "Blows taken per duel by wound level and zone.")
            if frames.wounds_at_least is not None:
                add(plots.wounds_at_least_figure(frames.wounds_at_least[frames.wounds_at_least["sweep"] == ""]),
                    "Blows the loser took",
                    "Per losing side, the share of its losses in which it had taken at least k blows of each wound "
                    "level (the last k: that many or more), with 95 % Wilson bands (the frame wounds_at_least, "
                    "a CSV file with --csv).")
    if frames.survivors is not None and frames.fighters is not None:
        n_fights = len(frames.survivors[["matchup", "variant", "value"]].drop_duplicates())
        if n_fights <= MAX_FIGHT_CELLS:
            add(plots.fight_figure(frames.survivors, frames.fighters), "Group fights",
                "Per group fight: left, the share of fights that ended with that many fighters of each side still "
                "in; right, each fighter's fate in percent of fights (out by cause, or standing at the end).")
    sweeps = frames.summary[frames.summary["sweep"] != ""]
    for (sweep, matchup), part in sweeps.groupby(["sweep", "matchup"], sort=False):
        variants = list(part["variant"].unique())
        drawn = ("a line through the values with its 95 % band" if plots.on_a_scale(part["value"].unique())
                 else "a dot per value with its 95 % interval")
        per = ("" if len(variants) < 2 else f"; one line style per variant ({', '.join(variants)})"
               if len(variants) <= plots.SWEEP_GROUPS_PER_PANEL else "; a panel per variant")
        add(plots.sweep_figure(part, x_label=sweep, x_column="value"), f"Sweep: {sweep}",
            f"{sweep}: win rate against the swept value, {drawn}{per}.", sweep=True)
    return figs


#: rows of each stat-weights table in a report (the CSV has them all)
WEIGHT_ROWS = 12


def _weight_sections(scenario: Scenario) -> list[dict[str, Any]]:
    """Per ``[[weights]]`` entry and variant: a title, the largest changes and the bar chart."""
    several = len(scenario.variant_options) > 1
    sections = []
    for w in scenario.weight_results:
        top = w.rows.head(WEIGHT_ROWS)
        sections.append({
            "title": f"{w.a} against {w.b}" + (f" ({w.label})" if several else ""),
            "rows": [{"stat": r.stat, "change": f"{r['from']} → {r['to']}", "delta": f"{100 * r.delta:+.2f}",
                      "ci": f"{100 * r.ci_low:+.2f} … {100 * r.ci_high:+.2f}", "n": f"{int(r.n):,}",
                      "cost": "" if pd.isna(r.cost) else f"{r.cost:+g}",
                      "per": "" if pd.isna(r.per_point) else f"{100 * r.per_point:.3g}"}
                     for _, r in top.iterrows()],
            "unit": w.unit if top["cost"].notna().any() else None, "unit_one": singular(w.unit),
            "more": max(len(w.rows) - WEIGHT_ROWS, 0),
            "figure": _svg(w.figure(), f"weights{len(sections)}", f"stat weights: {w.a} against {w.b}"),
        })
    return sections


def _analysis_sections(scenario: Scenario) -> list[dict[str, Any]]:
    """Per designer's question (``[[suggest]]``) and variant: its title, its answer in one line, its
    table (the result's ``table()``), the frame behind it and its chart."""
    several = len(scenario.variant_options) > 1
    sections = []
    for k, r in enumerate(scenario.analysis_results):
        columns, rows = r.table()
        sections.append({"title": r.title() + (f" ({r.label})" if several and r.label else ""),
                         "verdict": r.verdict(), "caption": r.caption(), "columns": columns, "rows": rows,
                         "frame": r.FRAME,
                         "figure": _svg(r.figure(), f"analysis{k}", r.title())})
    return sections


def _option_sections(scenario: Scenario) -> list[dict[str, Any]]:
    """One options table per ruleset: a row per option (``changed`` when a variant changes it from the
    default; the page folds the others), a column per variant of that ruleset."""
    sections = []
    for rs in scenario.rulesets:
        names = [v for v, r in scenario.variant_rulesets.items() if r is rs]
        rows = []
        for spec in rs.option_specs:
            values = []
            for v in names:
                value = scenario.variant_options[v][spec.name]
                values.append({"value": value, "changed": value != spec.default})
            rows.append({"name": spec.name, "rule": spec.rule, "cells": values,
                         "changed": any(c["changed"] for c in values)})
        sections.append({"title": rs.title, "variants": names, "rows": rows})
    return sections


def _fight_rows(fights: list[FightResult], differences: pd.DataFrame | None = None) -> list[dict[str, Any]]:
    """A row per group fight: side win rates, draws, rounds, the mean still in at the end, and side
    a's paired change against the baseline of the same sides (``against``: the scenario's
    ``differences`` compare each fight with it; "baseline" for the baseline itself, "—" for a fight
    played alone)."""
    rows = []
    compared = pd.DataFrame() if differences is None else differences[
        (differences["sweep"] == "") & (differences["side"] == "a")]
    for r in fights:
        d = r.to_dict()
        key = (r.labels.get("matchup", ""), r.labels.get("variant", ""), r.labels.get("value", ""))
        against, value = "—", None
        for _, c in compared.iterrows():
            if (c["matchup"], c["variant"], c["to"]) == key:
                against = f"{100 * c['difference']:+.1f}\u00a0pp<br><span class=\"ci\">{100 * c['ci_low']:+.1f} … " \
                          f"{100 * c['ci_high']:+.1f}</span>"
                value = float(c["difference"])
            elif against == "—" and c["from"] == key[2] and c["variant"] == key[1] and r.sides == _sides_of(fights, c):
                against = "baseline"
        rows.append({"matchup": key[0], "variant": key[1],
                     "changed": r.labels.get("value", "") or "—", "sides": [d["a"], d["b"]],
                     "draws": d["draw_rate"], "rounds_mean": d["rounds"]["mean"], "p90": d["rounds"]["p90"],
                     "fighters": d["fighters"], "against": markupsafe.Markup(against), "against_value": value})
    return rows


def _sides_of(fights: Sequence[FightResult], row: Any) -> Any:
    """The sides of the fight a differences row ends at."""
    for r in fights:
        if (r.labels.get("matchup", ""), r.labels.get("variant", ""), r.labels.get("value", "")) == \
                (row["matchup"], row["variant"], row["to"]):
            return r.sides
    return None


#: a report's sections of results: name → (anchor, title), in the order of those no key finding rests on
RESULT_SECTIONS = {"analyses": ("analyses-section", "What to change, and what it costs"),
                   "sweeps": ("sweeps-section", "Sweeps"), "weights": ("weights-section", "Stat weights"),
                   "fights": ("fights-section", "Group fights"), "summary": ("summary-section", "Summary"),
                   "differences": ("differences-section", "Paired differences"), "plots": ("plots", "Plots")}
#: the section each kind of key finding (:func:`brutal_sim.results.findings.findings_by_kind`) rests on
FINDING_SECTIONS = {"analyses": "analyses", "sweep": "sweeps", "round_robin": "plots", "lethality": "summary",
                    "variants": "differences", "fights": "fights", "weights": "weights"}


def section_order(present: Sequence[str], kinds: Sequence[str]) -> list[str]:
    """The report's sections of results (``present``: names of :data:`RESULT_SECTIONS` the report
    has) by value, the most telling first: (1) the sections the key findings rest on, in the
    findings' order (``kinds``: a sweep's chart, the matchup matrix among the plots for a round
    robin, the paired differences — else the summary — for variants, the group fights); (2) the
    rest in the order of :data:`RESULT_SECTIONS`: the stat weights (a ``[[weights]]`` entry is a
    question the scenario asks), the group fights, the summary table, the paired differences and the
    plots. The fighters, the rule options and the setup follow, always in that order."""
    first: list[str] = []
    for kind in kinds:
        name = FINDING_SECTIONS[kind]
        if name == "differences" and name not in present:
            name = "summary"
        if name in present and name not in first:
            first.append(name)
    return first + [name for name in RESULT_SECTIONS if name in present and name not in first]


def _svg(fig: Any, key: str, title: str) -> markupsafe.Markup:
    """A figure as inline SVG with a hover value per point, bar and cell
    (:func:`brutal_sim.results.hover.figure_to_svg`; ``key`` keeps its ids apart from the page's
    other figures)."""
    return markupsafe.Markup(hover.figure_to_svg(fig, key, title))


def _per_cell(scenario: Any, results: Sequence[Any]) -> str:
    """Duels per cell as the report states it: the fixed n, or the target error and the range of n."""
    if scenario.spec.target_error is None or not results:
        return f"{scenario.spec.n:,}"
    ns = [r.n for r in results]
    met = all(r.precision.get("target_met") for r in results)
    span = f"{min(ns):,}" if min(ns) == max(ns) else f"{min(ns):,} – {max(ns):,}"
    return f"{span} (to ±{scenario.spec.target_error:g} points{'' if met else '; not all met by max_n'})"


def render_report(scenario: Scenario, results: list[DuelResult], command: str,
                  fights: list[FightResult] | None = None, setup: Mapping[str, Any] | None = None,
                  on_figure: Callable[[int, str], None] | None = None) -> str:
    """The report's HTML (self-contained: inline CSS, images as data URIs). ``fights`` default to
    the scenario's group-fight results (``scenario.fight_results``, filled by a run); ``setup``
    (:func:`report_setup`, read from the scenario's files by default) is embedded for
    ``brutal-sim report --rerun`` and shown in a collapsed section. ``on_figure(k, title)`` after
    each plot is drawn (the command line's progress line)."""
    fights = scenario.fight_results if fights is None else fights
    setup = report_setup(scenario) if setup is None else setup
    frames = ReportFrames.of(results, scenario.differences, fights, scenario.weight_results,
                             scenario.analysis_results)
    env = jinja2.Environment(loader=jinja2.PackageLoader("brutal_sim", "templates"),
                             autoescape=jinja2.select_autoescape(["html", "j2"]), undefined=jinja2.StrictUndefined)
    figures = _figures(scenario, frames, on_figure)
    summary_rows, difference_rows = _summary_rows(results, scenario.cells), _difference_rows(frames.differences)
    fight_rows, weight_sections = _fight_rows(fights, frames.differences), _weight_sections(scenario)
    analysis_sections = _analysis_sections(scenario)
    by_kind = findings.findings_by_kind(results, fights, frames.differences, scenario.weight_results,
                                        scenario.analysis_results)
    present = [name for name, has in (("analyses", analysis_sections), ("sweeps", any(f["sweep"] for f in figures)),
                                      ("weights", weight_sections),
                                      ("fights", fight_rows), ("summary", summary_rows),
                                      ("differences", difference_rows), ("plots", any(not f["sweep"] for f in figures)))
               if has]
    sections = [{"name": name, "id": RESULT_SECTIONS[name][0], "title": RESULT_SECTIONS[name][1]}
                for name in section_order(present, [kind for kind, _ in by_kind])]
    html = env.get_template("report.html.j2").render(
        title=scenario.spec.title, notes=paragraphs(scenario.spec.notes), tables_js=_tables_js(),
        n=_per_cell(scenario, [*results, *fights]),
        seed=scenario.spec.seed,
        when=datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), version=__version__,
        cells=scenario.cells, summary_rows=summary_rows, sections=sections,
        show_variant=len(scenario.variant_options) > 1,
        variant_header="ruleset" if scenario.spec.rulesets else "variant",
        show_sweep=any(c.sweep for c in scenario.cells),
        figures=figures, fighters=_fighters(scenario), show_ruleset=len(scenario.rulesets) > 1,
        option_sections=_option_sections(scenario), source=setup["scenario"]["name"], command=command,
        setup=_setup_section(setup),
        elapsed=sum(r.elapsed_s for r in [*results, *fights]), pct=_pct, ci=_ci,
        difference_rows=difference_rows, fight_rows=fight_rows, weight_sections=weight_sections,
        analysis_sections=analysis_sections,
        n_fights=len(scenario.fights), causes=_fight_causes(fights),
        findings=[text for _, texts in by_kind for text in texts], shown=findings.SHOWN,
        frames=frames.embedded(),
        sets=[f"{k}={v}" for k, v in flat_sets(scenario.sets).items()],
    )
    return html


def check_report_size(html: str, output: str) -> None:
    """A report's page at most :data:`~brutal_sim.core.limits.MAX_REPORT_BYTES` (the most
    ``report --rerun`` reads), else a :class:`DataError` naming its size, before it is written."""
    size = len(html.encode("utf-8"))
    if size > MAX_REPORT_BYTES:
        raise DataError(output, None, f"the report would be {size_text(size)}; allowed: at most "
                        f"{size_text(MAX_REPORT_BYTES)} (the most that report --rerun reads): play fewer cells, or "
                        "export the tables with --csv from smaller scenarios")


def paragraphs(text: str) -> list[str]:
    """Notes as paragraphs that reflow: split at blank lines, each paragraph's lines joined by
    spaces, except before a line that starts a list item (``- ``, ``* ``, ``1. ``)."""
    out: list[str] = []
    lines: list[str] = []
    for raw in [*text.strip().splitlines(), ""]:
        line = raw.strip()
        if line:
            lines.append(line)
            continue
        if lines:
            joined = lines[0]
            for item in lines[1:]:
                joined += ("\n" if _starts_item(item) else " ") + item
            out.append(joined)
            lines = []
    return out


def _starts_item(line: str) -> bool:
    """Whether a line of notes starts a list item: ``- x``, ``* x``, ``1. x``, ``2) x``."""
    if line[:2] in ("- ", "* "):
        return True
    digits = len(line) - len(line.lstrip("0123456789"))
    return 0 < digits and line[digits:digits + 2] in (". ", ") ")


def _tables_js() -> str:
    """The page's script: sortable, filterable tables with a CSV download each
    (``templates/tables.js``; no library, nothing fetched)."""
    from importlib.resources import files

    return (files("brutal_sim") / "templates" / "tables.js").read_text(encoding="utf-8")


def _fight_causes(fights: Sequence[FightResult]) -> list[tuple[str, str]]:
    """The causes of going out of the fights' rulesets, in their order: (name, words)."""
    causes: dict[str, str] = {}
    for r in fights:
        for c in r.layout.causes:
            causes.setdefault(c, r.layout.describe(c))
    return list(causes.items())


def _fighters(scenario: Scenario) -> list[dict[str, Any]]:
    """Stat blocks of the scenario's fighters (a swept fighter's base only), per ruleset."""
    blocks = []
    for rs, f in _shown_fighters(scenario):
        rows = rs.stat_block(f)
        if getattr(f, "targeting", "spread") != "spread":
            rows = [*rows, ("targeting", f.targeting)]
        blocks.append({"name": f.name, "ruleset": rs.name, "rows": rows})
    return blocks


def _shown_fighters(scenario: Scenario) -> list[tuple[Any, Any]]:
    """The scenario's fighters (a swept fighter's base only) with their rulesets, each name once per ruleset."""
    seen: dict[tuple[str, str], tuple[Any, Any]] = {}
    shown = [(cell.ruleset, f) for cell in scenario.cells for f in (cell.a, cell.b) if not cell.sweep or f is cell.b]
    shown += [(rs, f) for fc in scenario.fights for rs in [scenario.variant_rulesets[fc.variant]] for f in fc.fighters]
    shown += [(job.ruleset, f) for job in scenario.weight_jobs for f in (job.a, job.b)]
    for rs, f in shown:
        seen.setdefault((rs.name, f.name), (rs, f))
    return list(seen.values())


def render_diff(diff: Any, command: str, rules: str = "") -> str:
    """A rule diff (:class:`brutal_sim.designer.RuleDiff`) as one self-contained HTML page: what
    changed, the bar chart of the changes and the table, the command to reproduce it."""
    env = jinja2.Environment(loader=jinja2.PackageLoader("brutal_sim", "templates"),
                             autoescape=jinja2.select_autoescape(["html", "j2"]), undefined=jinja2.StrictUndefined)
    rows = diff.rows
    ns = sorted(set(int(k) for k in rows["n"]))
    per_cell = f"{ns[0]:,}" if len(ns) == 1 else f"{ns[0]:,} – {ns[-1]:,}"
    if diff.precision:
        per_cell += f" (to ±{100 * diff.precision['target_error']:g} points)"
    return env.get_template("diff.html.j2").render(
        title="Rule diff: " + (", ".join(f"{k} {o} → {v}" for k, (o, v) in diff.changed_options.items())
                               or "rules files"),
        rows=list(rows.itertuples()), per_cell=per_cell, ruleset=diff.ruleset, seed=diff.seed,
        when=datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), version=__version__,
        changed=[(k, o, v) for k, (o, v) in diff.changed_options.items()], rules=rules,
        figure=_svg(diff.figure(), "diff", "changes of the win rates"), pct=_pct, command=command,
        findings=findings.diff_findings(rows), tables_js=_tables_js())


# -- the setup a report carries: its scenario and the files it names -------------------------------

#: the ``format`` of a report's setup JSON, and the version of its layout this brutal_sim reads
SETUP_FORMAT = "brutal-sim report setup"
SETUP_VERSION = 1
#: the link of a report's setup (``<a id=… download=… href="data:application/json;base64,…">``)
SETUP_ID = "brutal-sim-setup"


def report_setup(scenario: Scenario, name: str | None = None) -> dict[str, Any]:
    """Everything needed to play a report again (``brutal-sim report --rerun``): the scenario's text
    under its name (``name``, default the path it was read from), the text of every file it names
    (:func:`embedded_files`: fighters, rules files, the tables they name), the
    seed and the n or target error played, the ``--set`` changes (``set``: ``{"brute.main_hand.damage":
    "d10"}``, replayed too); and, to read: the version, the rulesets, each variant's
    resolved options and each fighter's resolved data (catalog items expanded)."""
    spec = scenario.spec
    try:
        text = Path(scenario.source).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(scenario.source, None, f"cannot read the scenario: {getattr(exc, 'strerror', None) or exc}") \
            from None
    return {
        "format": SETUP_FORMAT, "format_version": SETUP_VERSION, "brutal_sim": __version__,
        "scenario": {"name": name or scenario.source, "text": text},
        "files": embedded_files(scenario.source),
        "seed": spec.seed, "n": spec.n, "target_error": spec.target_error, "max_n": spec.max_n,
        "set": flat_sets(scenario.sets),
        "rulesets": [rs.name for rs in scenario.rulesets],
        "options": {v: o.as_dict() for v, o in scenario.variant_options.items()},
        "fighters": [{"ruleset": rs.name, "name": f.name, "data": rs.fighter_data(f)}
                     for rs, f in _shown_fighters(scenario)],
    }


def flat_sets(sets: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """``--set`` changes (fighter key → {path: value}) as one table ``{"brute.main_hand.damage": "d10"}``."""
    return {f"{key}.{path}": value for key, paths in sets.items() for path, value in paths.items()}


def nested_sets(flat: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The inverse of :func:`flat_sets`: each key split at its first dot."""
    out: dict[str, dict[str, Any]] = {}
    for key, value in flat.items():
        fighter, _, path = key.partition(".")
        out.setdefault(fighter, {})[path] = value
    return out


def embedded_files(path: str) -> dict[str, str]:
    """The texts of exactly the files the scenario at ``path`` names
    (:func:`brutal_sim.scenario.scenario_files`: fighter files, rules files and the tables their
    path-valued options name), each under its name seen from the scenario's folder; the scenario
    itself, and a file that is not a readable UTF-8 regular file within the size limit (the loader
    refuses it), left out.
    Laid out under those names in one folder with the scenario, they are found as they were."""
    found: dict[str, str] = {}
    for ref in scenario_files(path):
        if ref.key in found or not exists(ref.path, file=True) or _same_file(ref.path, Path(path)):
            continue
        try:
            found[ref.key] = read_bytes(ref.path, str(ref.path)).decode("utf-8")
        except (DataError, OSError, UnicodeDecodeError):
            continue
    return found


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def setup_inputs(setup: Mapping[str, Any]) -> list[Path]:
    """The files a report's setup came from, at their original paths (the scenario's name, and
    each file's name joined to the scenario's folder): the inputs a replay must not overwrite."""
    name = setup["scenario"]["name"]
    return [Path(name), *(Path(os.path.dirname(name)) / key for key in setup["files"])]


def check_replay_files(report: str, folder: Path, name: str, setup: Mapping[str, Any]) -> None:
    """Before a replay reads any file: each file the laid-out scenario ``name`` (in ``folder``, the
    current folder) names (:func:`brutal_sim.scenario.scenario_files`) must be one the report
    carries, laid out by :func:`setup_folder`; an absolute path, a name going out of the folder
    with ``..``, a path through a link or a file the report does not carry is refused as a
    :class:`DataError` naming ``report`` and ``setup.files``."""
    carried = {os.path.realpath(folder / key) for key in (*setup["files"], name)}
    for ref in scenario_files(name):
        if os.path.realpath(folder / ref.path) not in carried:
            raise DataError(report, "setup.files", f"{ref.where} names {ref.key!r}, which is not a file the report "
                            "carries; a replay reads only the files of the report's own setup")


def _data_uri(text: str, media: str) -> str:
    return f"data:{media};base64," + base64.b64encode(text.encode("utf-8")).decode("ascii")


def _setup_section(setup: Mapping[str, Any]) -> dict[str, Any]:
    """What the report's Setup section shows: the scenario and each file it names, each with a link
    that downloads it, and the link of the whole setup (the one ``--rerun`` reads)."""
    name = setup["scenario"]["name"]
    stem = Path(name).stem or "scenario"
    files = [{"name": name, "text": setup["scenario"]["text"]},
             *({"name": k, "text": v} for k, v in sorted(setup["files"].items()))]
    for f in files:
        f["download"] = Path(f["name"]).name or "file.toml"
        f["uri"] = _data_uri(f["text"], "text/plain;charset=utf-8")
    fighters = [{"title": f"{f['name']} ({f['ruleset']})", "text": json.dumps(f["data"], ensure_ascii=False, indent=1,
                                                                             default=str)}
                for f in setup.get("fighters", [])]
    return {"name": name, "files": files, "fighters": fighters, "id": SETUP_ID, "download": f"{stem}.setup.json",
            "uri": _data_uri(json.dumps(setup, ensure_ascii=False, indent=1, default=str), "application/json")}


_SETUP_ATTR = f'id="{SETUP_ID}"'
_SETUP_HREF = 'href="data:application/json;base64,'
_BASE64 = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/= \t\r\n")


def find_setup(text: str) -> str | None:
    """The base64 payload of a report's setup link (the first ``<a …>`` tag with
    ``id="brutal-sim-setup"`` and a ``href="data:application/json;base64,…"``), or None
    (:func:`setup_links`)."""
    return next(setup_links(text), None)


def setup_links(text: str) -> Iterator[str | None]:
    """Each ``<a …>`` tag of ``text`` with ``id="brutal-sim-setup"``: its base64 payload, or None
    where it has none (no ``href="data:application/json;base64,…"``, or not base64). One pass from
    left to right with :meth:`str.find` (no regular expression): each ``<a`` tag is looked at once,
    from its ``<`` to its ``>``, so the time is linear in the length of ``text`` whatever it holds."""
    i = 0
    while True:
        start = text.find("<a", i)
        if start < 0:
            return
        if start + 2 >= len(text) or not text[start + 2].isspace():
            i = start + 2  # <abbr …>, <a>: not a link with attributes
            continue
        end = text.find(">", start)
        if end < 0:
            return  # no tag ends after this one: none to find
        i = end + 1
        tag = text[start:end]
        at = tag.find(_SETUP_ATTR)
        if at < 0 or not tag[at - 1].isspace():
            continue
        href = tag.find(_SETUP_HREF)
        close = -1 if href < 0 or not tag[href - 1].isspace() else tag.find('"', href + len(_SETUP_HREF))
        payload = tag[href + len(_SETUP_HREF):close] if close >= 0 else None
        yield payload if payload is not None and _BASE64.issuperset(payload) else None


def read_setup(path: str) -> dict[str, Any]:
    """The setup a report at ``path`` carries (:func:`report_setup`); a file that is no report, or
    whose setup is missing, malformed, nested deeper than
    :data:`~brutal_sim.core.limits.MAX_DEPTH` or larger than
    :data:`~brutal_sim.core.limits.MAX_REPORT_BYTES`, is a :class:`DataError` naming it."""
    file = Path(path)
    try:
        if file.exists() and not file.is_file():
            raise DataError(path, None, "cannot read the report (not a regular file)")
        text = read_bytes(file, path, MAX_REPORT_BYTES, "report").decode("utf-8")
    except FileNotFoundError:
        raise DataError(path, None, "report not found") from None
    except UnicodeDecodeError:
        raise DataError(path, None, "not a brutal-sim report (not UTF-8 text)") from None
    except OSError as exc:
        raise DataError(path, None, f"cannot read the report: {exc.strerror or exc}") from None
    links = list(itertools.islice(setup_links(text), 2))
    if len(links) > 1:
        raise DataError(path, None, f"holds more than one brutal-sim setup link (id=\"{SETUP_ID}\"); a report that "
                        "brutal-sim report writes has one, and which one the page shows cannot be told: nothing played")
    payload = links[0] if links else None
    if payload is None:
        raise DataError(path, None, "holds no brutal-sim setup (the link id=\"brutal-sim-setup\" that "
                        "brutal-sim report writes); nothing to play again")
    try:
        decoded = base64.b64decode("".join(payload.split()), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise DataError(path, "setup", "malformed: not base64-encoded JSON") from None
    check_json_nesting(decoded, path, "setup")
    try:
        setup = json.loads(decoded)
    except RecursionError:  # not reached within the nesting limit; kept as a last guard
        raise DataError(path, "setup", f"nested too deep; allowed: at most {MAX_DEPTH} levels") from None
    except ValueError:
        raise DataError(path, "setup", "malformed: not base64-encoded JSON") from None
    _check_setup(path, setup)
    return setup


def _check_setup(path: str, setup: Any) -> None:
    def bad(field: str, what: str) -> DataError:
        return DataError(path, f"setup.{field}" if field else "setup", what)

    if not isinstance(setup, dict) or setup.get("format") != SETUP_FORMAT:
        raise bad("format", f"malformed: expected {SETUP_FORMAT!r}")
    if setup.get("format_version") != SETUP_VERSION:
        raise bad("format_version", f"{setup.get('format_version')!r}: this brutal_sim reads version {SETUP_VERSION} "
                  f"(the report was written by brutal_sim {setup.get('brutal_sim', '?')})")
    sc = setup.get("scenario")
    if not (isinstance(sc, dict) and isinstance(sc.get("name"), str) and isinstance(sc.get("text"), str)
            and sc["name"] and "\x00" not in sc["name"]):
        raise bad("scenario", "malformed: expected a table of name and text")
    files = setup.get("files")
    if not isinstance(files, dict) or not all(isinstance(v, str) for v in files.values()):
        raise bad("files", "malformed: expected a table of file name = text")
    for key in files:
        if not key or "\x00" in key or key != os.path.normpath(key) or key in (".", ".."):
            raise bad("files", f"malformed: {key!r} is not a file name")
        if os.path.isabs(key):
            raise bad("files", f"{key!r} is an absolute path; a report carries its files under names relative to "
                      "its scenario, and a replay reads no other file")
    for key in ("n", "max_n"):
        if not isinstance(setup.get(key), int) or isinstance(setup.get(key), bool) or setup[key] <= 0:
            raise bad(key, f"malformed: expected a positive integer, got {setup.get(key)!r}")
    sets = setup.get("set", {})
    if not isinstance(sets, dict) or not all(isinstance(k, str) and "." in k.strip(".") for k in sets):
        raise bad("set", "malformed: expected a table of FIGHTER.PATH = value")
    te = setup.get("target_error")
    if te is not None and (not isinstance(te, (int, float)) or isinstance(te, bool) or te <= 0):
        raise bad("target_error", f"malformed: expected a positive number or null, got {te!r}")


def setup_folder(setup: Mapping[str, Any], root: Path) -> tuple[Path, str]:
    """Lay out a setup (:func:`read_setup`) under the folder ``root``: the scenario, and each file
    under its name seen from the scenario's folder (deep enough below ``root`` that names going up
    with ``..`` stay inside it). Returns the scenario's folder and the scenario's file name there;
    the scenario finds its files beside it as it did (:func:`check_replay_files` then checks that it
    names no other file)."""
    files = dict(setup["files"])
    up = max((len(list(itertools.takewhile(lambda part: part == "..", Path(k).parts))) for k in files), default=0)
    folder = root.joinpath(*["up"] * up)
    name = Path(setup["scenario"]["name"]).name
    if not name.endswith(".toml"):
        name = "scenario.toml"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for key, text in files.items():
            if key == name:
                continue
            target = folder / key
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        (folder / name).write_text(setup["scenario"]["text"], encoding="utf-8")
    except OSError as exc:
        raise DataError("--rerun", "setup.files", f"cannot lay out the files: {exc.strerror or exc}") from None
    return folder, name
