"""A live explorer of one matchup for notebooks: a control per chosen field, the win rate with its
interval and curve, the paired difference against the baseline, and the setup saved as a scenario
or opened as a report (``designer.explore``; the widgets need the ``notebook`` extra, ipywidgets).

The logic (:class:`Explorer`, :class:`Reading`) needs no browser: ``set(field, value)`` plays the
changed matchup and the baseline on the same duels (common random numbers) and returns what the
widgets show. Fields are named as in ``--set`` and sweeps: ``a.main_hand.damage``,
``b.checks.melee``, ``a.tactic``; rule options as ``options.NAME``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from . import api
from .core.errors import DataError, shown
from .core.limits import check_value
from .core.ruleset import Ruleset, resolve_ruleset
from .core.variants import DIE_LADDER, get_path, with_changes
from .outputs import check_folder, write_folder
from .results.duel import DuelResult
from .results.frames import paired_differences
from .run.engine import run_paired_counters, unpaired
from .toolbox.compiling import Reporter, finished_text, reporting, starting_text

#: how far an integer field's control reaches by default on each side of its value
INT_REACH = 3
#: the rule option that caps a duel's rounds (it sizes the counters: no two caps pair)
ROUND_CAP = "round_cap"
#: a fighter's fields that only label it: changing one would change no duel
LABELS = ("name", "description", "title", "label")


@dataclass(frozen=True)
class Reading:
    """One setup of the explorer played against the baseline on the same duels."""

    values: dict[str, Any]
    current: DuelResult
    baseline: DuelResult
    #: side a's paired change of win rate against the baseline, and its 95 % interval
    difference: float
    ci: tuple[float, float]

    @property
    def win_rate(self) -> float:
        return self.current.wins(0) / self.current.n

    @property
    def interval(self) -> tuple[float, float]:
        lo, hi = self.current.to_dict()["a"]["ci95"]
        return float(lo), float(hi)

    def text(self) -> str:
        """One line: side a's win rate and interval, the baseline's, the paired change."""
        lo, hi = self.interval
        base = self.baseline.wins(0) / self.baseline.n
        return (f"{self.current.names[0]} wins {100 * self.win_rate:.1f} % (95 % CI {100 * lo:.1f} – {100 * hi:.1f}) "
                f"against {self.current.names[1]}; baseline {100 * base:.1f} %: {100 * self.difference:+.1f} points "
                f"(paired 95 % CI {100 * self.ci[0]:+.1f} … {100 * self.ci[1]:+.1f})")

    def figure(self) -> Any:
        """The baseline and the current setup side by side: each side's chance to have won by round r
        under both (:func:`~brutal_sim.results.plots.paired_curves_figure`), the paired change of
        side a's win rate above."""
        from .results.frames import decided_by_frame
        from .results.plots import paired_curves_figure

        return paired_curves_figure(decided_by_frame([self.baseline, self.current]),
                                    f"{self.current.names[0]}: {100 * self.difference:+.1f} points against the "
                                    f"baseline (paired 95 % CI {100 * self.ci[0]:+.1f} … {100 * self.ci[1]:+.1f})")


class Explorer:
    """One matchup with some of its fields and options open to change (module docstring)."""

    def __init__(self, a: api.FighterRef, b: api.FighterRef, fields: Sequence[str] | Mapping[str, Sequence[Any]],
                 n: int = 20_000, seed: int = 0, options: Mapping[str, str] | None = None,
                 rules: str | None = None, ruleset: str | None = None, threads: int | None = None) -> None:
        self.n, self.seed = api.check_n(n), api.check_seed(seed)
        self.threads = api.check_threads(threads)
        a, b = api.fighter_ref(a), api.fighter_ref(b)
        self.rules, self.options = api.check_rules(rules), dict(api.check_options(options) or {})
        self.rs: Ruleset = resolve_ruleset([a, b], api.check_name(ruleset, "ruleset"))
        self.a, self.b = self.rs.load_fighter(a, "a"), self.rs.load_fighter(b, "b")
        if isinstance(fields, str) or not isinstance(fields, (Sequence, Mapping)) or not fields:
            raise DataError("explore", "fields", "name one field or more: a.PATH, b.PATH or options.NAME, "
                            "e.g. ['a.main_hand.damage', 'options.armour_model']")
        chosen = fields if isinstance(fields, Mapping) else {f: None for f in fields}
        self.base: dict[str, Any] = {key: self._current(key) for key in chosen}
        self.choices: dict[str, list[Any]] = {key: list(v) if v is not None else self._choices(key)
                                              for key, v in chosen.items()}
        self.values = dict(self.base)
        self._last: Reading | None = None
        #: called with each new reading (the widgets keep their controls and curve in step)
        self._listeners: list[Any] = []
        self._baseline = self._prepared(self.base)
        for key, choices in self.choices.items():
            self._check_pairable(key, choices)

    # -- fields -------------------------------------------------------------------------------

    def _split(self, key: str) -> tuple[str, str]:
        where, dot, path = key.partition(".")
        if not dot or where not in ("a", "b", "options") or not path:
            raise DataError("explore", "fields", f"{key!r}: write a.PATH, b.PATH or options.NAME")
        return where, path

    def _spec(self, key: str, name: str) -> Any:
        """The rule option ``name`` of the ruleset (``key`` names the field in errors)."""
        spec = next((s for s in self.rs.option_specs if s.name == name), None)
        if spec is None:
            raise DataError("explore", "fields", f"{key!r}: no rule option {name!r} in {self.rs.name}")
        return spec

    def _current(self, key: str) -> Any:
        where, path = self._split(key)
        if where == "options":
            return self.options.get(path, self._spec(key, path).default)
        if path.rsplit(".", 1)[-1] in LABELS:
            raise DataError("explore", "fields", f"{key!r} only labels the fighter and changes no duel; allowed: its "
                            "rules' fields (weapons' dice, checks, attributes, tactic, …)")
        value = get_path(self.rs.fighter_data(self.a if where == "a" else self.b), path)
        if isinstance(value, dict) and value.get("name") in _named_values(self.rs, path):
            return value["name"]  # a catalog item (a weapon, armour, a tactic): chosen by its name
        if value is None or isinstance(value, (dict, list)):
            raise DataError("explore", "fields", f"{key!r}: the fighter has no value at {path!r}")
        return value

    def _choices(self, key: str) -> list[Any]:
        """Default values of a control: an option's allowed values, a die's ladder, an integer ±3, the
        names the fighter's schema allows (tactics, reactions, the catalog's items of a slot)."""
        where, path = self._split(key)
        value = self.base[key]
        if where == "options":
            allowed = [v.strip() for v in (self._spec(key, path).allowed or "").split("|") if v.strip()]
            return allowed or [value]
        if isinstance(value, bool):
            return [False, True]
        if isinstance(value, int):
            return list(range(value - INT_REACH, value + INT_REACH + 1))
        if isinstance(value, str) and value.startswith("d") and value[1:].isdigit():
            return [f"d{s}" for s in DIE_LADDER]
        named = _named_values(self.rs, path)
        if isinstance(value, str) and value in named:
            return named
        return [value]

    # -- playing ------------------------------------------------------------------------------

    def _setup(self, values: Mapping[str, Any]) -> tuple[Any, Any, dict[str, str]]:
        changes: dict[str, dict[str, Any]] = {"a": {}, "b": {}, "options": {}}
        for key, value in values.items():
            where, path = self._split(key)
            changes[where][path] = value
        fa = with_changes(self.a, changes["a"], "explore a") if changes["a"] else self.a
        fb = with_changes(self.b, changes["b"], "explore b") if changes["b"] else self.b
        return fa, fb, {**self.options, **{k: str(v) for k, v in changes["options"].items()}}

    def _prepared(self, values: Mapping[str, Any]) -> Any:
        fa, fb, options = self._setup(values)
        return self.rs.prepare(fa, fb, self.rules, options)

    def _check_pairable(self, key: str, choices: Sequence[Any]) -> None:
        """Each value of ``key`` in ``choices`` can be played against the baseline on the same duels
        (:func:`~brutal_sim.run.engine.unpaired`), else a :class:`DataError` saying why; a value
        the ruleset refuses is left for :meth:`set` to tell."""
        where, name = self._split(key)
        if where == "options" and name == ROUND_CAP:
            raise DataError("explore", "fields", f"{key!r}: the round cap sizes the counters, so setups with "
                            "different round caps cannot be played on the same duels; allowed: fighter fields and "
                            "options that keep the round cap (compare round caps in a scenario's variants)")
        for value in choices:
            if value == self.base[key]:
                continue
            try:
                prepared = self._prepared({**self.base, key: value})
            except DataError:
                continue
            self._refuse_unpaired(key, value, prepared, "fields")

    def _refuse_unpaired(self, key: str, value: Any, prepared: Any, field: str) -> None:
        reason = unpaired([self._baseline.compiled, prepared.compiled])
        if reason is not None:
            raise DataError("explore", field, f"{key!r} = {shown(value)} cannot be played against the baseline on "
                            f"the same duels: {reason}; allowed: values that keep the baseline's kernels, round cap "
                            "and tables (compare such setups in a scenario's variants)")

    def reading(self) -> Reading:
        """The current values played against the baseline (cached until a value changes)."""
        if self._last is not None and self._last.values == self.values:
            return self._last
        cells = [self._baseline, self._prepared(self.values)]
        counters, joint, elapsed = run_paired_counters([p.compiled for p in cells], self.n, self.seed, self.threads)
        results = [api.result_of(self.rs, p, cnt, self.n, self.seed, elapsed / 2, {"variant": label})
                   for p, cnt, label in zip(cells, counters, ("baseline", "current"))]
        d = paired_differences(results, joint, "variant")
        row = d[d["side"] == "a"].iloc[0]
        self._last = Reading(dict(self.values), results[1], results[0], float(row["difference"]),
                             (float(row["ci_low"]), float(row["ci_high"])))
        return self._last

    def set(self, key: str, value: Any) -> Reading:
        """Set one field (of ``fields``) and play: a bad value is a :class:`DataError` and changes nothing."""
        if key not in self.values:
            raise DataError("explore", "field",
                            f"{key!r} is not one of the explorer's fields: {', '.join(self.values)}")
        check_value(value, "explore", key)
        previous = self.values[key]
        self.values[key] = value
        try:
            self._refuse_unpaired(key, value, self._prepared(self.values), "field")
        except DataError:
            self.values[key] = previous
            raise
        return self._tell(self.reading())

    def reset(self) -> Reading:
        """Back to the baseline."""
        self.values = dict(self.base)
        return self._tell(self.reading())

    def _tell(self, reading: Reading) -> Reading:
        for listener in self._listeners:
            listener(reading)
        return reading

    # -- keeping a setup ----------------------------------------------------------------------

    def scenario_files(self) -> dict[str, str]:
        """The baseline and the current setup as TOML files: a scenario that plays the baseline
        matchup and, when a fighter changed, the matchup of the changed fighters beside it (when an
        option changed, both under two variants, ``baseline`` and ``explored``); a fighter that
        changed is a file of its own. A fighter the catalog holds stays a catalog name, and a
        changed one is a file that starts from it (``base``) and holds only the fields that
        differ; another fighter is written out whole."""
        try:
            import tomli_w
        except ImportError:
            raise DataError("explore", None,
                            'saving a setup needs tomli-w: pip install "brutal-sim[notebook]"') from None

        fa, fb, options = self._setup(self.values)
        base_options = {**self.options, **{path: str(self.base[key]) for key in self.base
                                           for where, path in [self._split(key)] if where == "options"}}
        files: dict[str, str] = {}
        taken = {SCENARIO_FILE}

        def file_for(fighter: Any, stem: str) -> str:
            name = _file_name(fighter.name if stem == "" else stem, "fighter")
            while name in taken:
                name = name[:-5] + "_2.toml"
            taken.add(name)
            return name

        refs: dict[str, tuple[str, str]] = {}  # side → (baseline reference, current reference)
        for side, start, now in (("a", self.a, fa), ("b", self.b, fb)):
            catalog_name = self._catalog_name(start)
            data_start, data_now = _present(self.rs.fighter_data(start)), _present(self.rs.fighter_data(now))
            if catalog_name is not None:
                base_ref = catalog_name
            else:
                base_ref = file_for(start, "")
                files[base_ref] = tomli_w.dumps(data_start)
            if data_now == data_start:
                refs[side] = (base_ref, base_ref)
                continue
            changed = _changed(data_start, data_now) if catalog_name is not None else None
            explored = f"{now.name} (explored)" if now.name == start.name else now.name
            ref = file_for(now, f"{now.name}_explored")
            if changed is not None:
                own = {"ruleset": data_now["ruleset"]} if "ruleset" in data_now else {}  # read under its ruleset
                files[ref] = tomli_w.dumps({**own, "base": catalog_name, **changed, "name": explored})
            else:
                files[ref] = tomli_w.dumps({**data_now, "name": explored})
            refs[side] = (base_ref, ref)
        matchups = [[refs["a"][0], refs["b"][0]]]
        if (refs["a"][1], refs["b"][1]) != (refs["a"][0], refs["b"][0]):
            matchups.append([refs["a"][1], refs["b"][1]])
        scenario: dict[str, Any] = {"title": f"{self.a.name} vs {self.b.name} (explored)", "n": self.n,
                                    "seed": self.seed, "ruleset": self.rs.name, "matchups": matchups}
        if options != base_options:
            scenario["variants"] = [{"name": "baseline", "options": base_options},
                                    {"name": "explored", "options": options}]
        elif options:
            scenario["options"] = options
        return {SCENARIO_FILE: tomli_w.dumps(scenario), **files}

    def _catalog_name(self, fighter: Any) -> str | None:
        """The catalog name of the bundled fighter ``fighter`` is (the same data), else None."""
        for name in self.rs.fighter_names():
            if self.rs.fighter_data(self.rs.catalog().catalog_fighter(name)) == self.rs.fighter_data(fighter):
                return name
        return None

    def save_scenario(self, folder: str | Path) -> Path:
        """Write :meth:`scenario_files` as the folder ``folder``: new, empty, or one this program
        wrote (it is replaced as a whole, :func:`brutal_sim.outputs.write_folder`); anything else is
        refused (:class:`DataError`), links in it never followed. Returns the scenario's path."""
        return self._save(folder, self.scenario_files())

    def _save(self, folder: str | Path, files: Mapping[str, str]) -> Path:
        check_folder("save_scenario", str(folder))
        write_folder(folder, files, flag="save_scenario")
        return Path(folder) / SCENARIO_FILE

    def report(self, folder: str | Path, name: str = "report.html") -> Path:
        """Save the scenario and its report, as ``brutal-sim report`` writes it (run as that
        command, with its checks), together as the folder ``folder`` (as :meth:`save_scenario`);
        returns the report's path."""
        import subprocess
        import sys
        import tempfile

        files = self.scenario_files()
        if Path(name).name != name or not name.endswith(".html") or len(name.encode()) > MAX_STEM_BYTES:
            raise DataError("explore", "report", f"{name!r}: give a file name ending in .html (no folder, at most "
                            f"{MAX_STEM_BYTES} bytes)")
        check_folder("save_scenario", str(folder))
        with tempfile.TemporaryDirectory(prefix="brutal-sim-explore-") as work:
            for file, text in files.items():
                (Path(work) / file).write_text(text, encoding="utf-8")
            done = subprocess.run([sys.executable, "-m", "brutal_sim.cli", "report", SCENARIO_FILE, "-o", name],
                                  capture_output=True, text=True, cwd=work)
            if done.returncode != 0:
                lines = (done.stderr.strip() or "the report command failed").splitlines()
                raise DataError("explore", "report", lines[-1].removeprefix("error: "))
            page = (Path(work) / name).read_text(encoding="utf-8")
        self._save(folder, {**files, name: page})
        return Path(folder) / name

    # -- the widgets --------------------------------------------------------------------------

    def widget(self) -> Any:
        """The explorer as ipywidgets: a control per field, the reading, the baseline's and the
        current setup's curves with the paired difference (a PNG image, shown in any notebook
        front end), buttons to reset, save the scenario and write a report (``pip install
        "brutal-sim[notebook]"``). The controls follow :meth:`set` and :meth:`reset` called from
        code as well."""
        try:
            import ipywidgets as w
        except ImportError:
            raise DataError("explore", None,
                            'the widgets need ipywidgets: pip install "brutal-sim[notebook]"') from None
        from .results.plots import figure_to_png

        text = w.HTML()
        plot = w.Image(format="png", layout=w.Layout(max_width="100%"))
        folder = w.Text(value="explored", description="folder")
        status = w.HTML()
        controls: dict[str, Any] = {}
        moving = [False]  # the controls being moved to the explorer's values: no reading of their own
        notices = _StatusReporter(status)  # a compile says so in the status line, before it starts

        def show(reading: Reading) -> None:
            text.value = f"<b>{_html(reading.text())}</b>"
            plot.value = figure_to_png(reading.figure())
            moving[0] = True
            try:
                for key, control in controls.items():
                    if control.value != self.values[key]:
                        control.value = self.values[key]
            finally:
                moving[0] = False

        for key, choices in self.choices.items():
            numeric = all(isinstance(c, (int, float)) and not isinstance(c, bool) for c in choices)
            style = {"description_width": "initial"}
            if numeric and len(choices) > 1:
                control = w.SelectionSlider(options=choices, value=self.values[key], description=key, style=style,
                                            continuous_update=False)
            else:
                control = w.Dropdown(options=choices, value=self.values[key], description=key, style=style)

            def changed(change: Any, key: str = key) -> None:
                if moving[0]:
                    return
                try:
                    status.value = ""
                    with reporting(notices):
                        self.set(key, change["new"])
                except DataError as exc:
                    status.value = _error_html(exc)
            control.observe(changed, names="value")
            controls[key] = control

        def act(action: Any, done: str) -> Any:
            def run(_: Any) -> None:
                try:
                    status.value = f"{done} {_html(str(action()))}"
                except DataError as exc:
                    status.value = _error_html(exc)
            return run

        buttons = []
        def reset(_: Any) -> None:
            with reporting(notices):
                self.reset()

        for label, action in (("reset", reset),
                              ("save scenario", act(lambda: self.save_scenario(folder.value), "saved")),
                              ("write report", act(lambda: self.report(folder.value), "wrote"))):
            button = w.Button(description=label)
            button.on_click(action)
            buttons.append(button)
        self._listeners.append(show)
        with reporting(notices):
            show(self.reading())
        return w.VBox([*controls.values(), text, plot, w.HBox([folder, *buttons]), status])

    def _ipython_display_(self) -> None:  # pragma: no cover - a notebook shows the widgets
        from IPython.display import display

        display(self.widget())


class _StatusReporter(Reporter):
    """Compiles said in the widgets' status line (:mod:`brutal_sim.toolbox.compiling`)."""

    def __init__(self, status: Any) -> None:
        self.status = status

    def started(self, ruleset: str | None, fam: str) -> None:
        self.status.value = _html(starting_text(ruleset, fam))

    def finished(self, ruleset: str | None, fam: str, seconds: float) -> None:
        self.status.value = _html(finished_text(ruleset, fam, seconds))


def _named_values(rs: Ruleset, path: str) -> list[str]:
    """The names the ruleset's fighter schema allows at ``path`` (a tactic, a reaction, a catalog
    item), in its order; none where the schema names none."""
    kind = rs.file_kinds().get("fighter")
    if kind is None:
        return []
    schema = kind.build()
    defs = schema.get("$defs", {})

    def resolved(node: Any) -> list[Any]:
        if not isinstance(node, dict):
            return []
        if "$ref" in node:
            return resolved(defs.get(node["$ref"].rsplit("/", 1)[-1], {}))
        return [node, *(x for part in node.get("anyOf", []) for x in resolved(part))]

    nodes = resolved(schema)
    for part in path.split("."):
        nodes = [x for n in nodes for x in resolved(n.get("items") if part.isdigit() else
                                                     n.get("properties", {}).get(part))]
    return [str(v) for n in nodes for v in n.get("enum", [])]


def _changed(start: dict[str, Any], now: dict[str, Any]) -> dict[str, Any] | None:
    """The fields of ``now`` that differ from ``start`` (tables compared field by field, other values
    whole), as a fighter file laid over ``start`` (``base``) writes them; None when a field of
    ``start`` is gone from ``now`` (a file over a base cannot remove one)."""
    out: dict[str, Any] = {}
    for key, old in start.items():
        if key not in now:
            return None
    for key, value in now.items():
        old = start.get(key)
        if isinstance(value, dict) and isinstance(old, dict):
            inner = _changed(old, value)
            if inner is None:
                return None
            if inner:
                out[key] = inner
        elif value != old:
            out[key] = value
    return out


def _present(data: Any) -> Any:
    """Fighter data without its empty fields (TOML has no null: an absent field is its default)."""
    if isinstance(data, dict):
        return {k: _present(v) for k, v in data.items() if v is not None}
    if isinstance(data, list):
        return [_present(v) for v in data if v is not None]
    return data


#: the name of the saved scenario in its folder
SCENARIO_FILE = "scenario.toml"
#: the longest stem of a saved fighter's file, in bytes (names of any length and script fit a file system)
MAX_STEM_BYTES = 100


def _file_stem(name: str) -> str:
    """``name`` as a file stem: letters and digits kept (any script), the rest ``_``, at most
    :data:`MAX_STEM_BYTES` bytes of UTF-8."""
    stem = "".join(c if c.isalnum() else "_" for c in name.lower()).strip("_")
    return stem.encode()[:MAX_STEM_BYTES].decode(errors="ignore")


def _file_name(name: str, fallback: str) -> str:
    return f"{_file_stem(name) or fallback}.toml"


def _error_html(exc: DataError) -> str:
    return f"<span style='color:#b00'>{_html(str(exc))}</span>"


def _html(text: str) -> str:
    from html import escape

    return escape(text)


def explore(a: api.FighterRef, b: api.FighterRef, fields: Sequence[str] | Mapping[str, Sequence[Any]],
            n: int = 20_000, seed: int = 0, options: Mapping[str, str] | None = None, rules: str | None = None,
            ruleset: str | None = None, threads: int | None = None) -> Explorer:
    """An :class:`Explorer` of ``a`` against ``b``; in a notebook it shows as widgets. ``fields``
    names the controls (``a.main_hand.damage``, ``b.checks.melee``, ``options.armour_model``), or
    maps each to its values (default: an option's allowed values, a die's ladder d4 … d12, an
    integer ±3)."""
    return Explorer(a, b, fields, n=n, seed=seed, options=options, rules=rules, ruleset=ruleset, threads=threads)
