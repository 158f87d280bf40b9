"""Scenario files: a batch of duels (matchups, round robins, rule variants, sweeps) and group
fights (``[[fights]]``, under rulesets that play them) in one TOML.

A scenario is validated completely — every fighter, option and sweep field — before anything runs.
See ``docs/scenarios.md`` for the format and ``examples/*.toml`` for complete examples.
"""

from __future__ import annotations

import itertools
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, NamedTuple

import pandas as pd
from pydantic import Field, field_validator

from . import api
from .api import fight_result_of, prepare_fight, result_of
from .core.data import StrictModel, exists, peek_toml, read_toml, validate
from .core.errors import DataError
from .core.limits import MAX_NAME
from .core.options import RuleOptions
from .core.ruleset import Compiled, Prepared, Ruleset, get_ruleset, resolve_ruleset
from .core.variants import short_labels, vary, with_changes
from .designer import stat_weights
from .results.duel import DuelResult
from .results.fight import side_name
from .results.frames import paired_differences
from .core.sides import expand_side
from .results.header import rates_half_width
from .run.engine import Precision, paired_work, run_to_precision
from .run.executor import Executor, run_works
from .run.factory import resolve


class VariantSpec(StrictModel):
    """A rule variant: a name and the options it changes."""

    name: str = Field(max_length=MAX_NAME)
    options: dict[str, Any] = Field(default_factory=dict)
    description: str = ""


class SweepSpec(StrictModel):
    """One field of one fighter over a list of values."""

    name: str = Field("", max_length=MAX_NAME)
    fighter: str
    field: str = Field(description="dotted path in the fighter's data, e.g. main_hand.damage or armour.0.protection")
    values: list[Any]
    opponents: list[str] = Field(default_factory=list)

    @field_validator("values")
    @classmethod
    def _some(cls, v: list[Any]) -> list[Any]:
        if not v:
            raise ValueError("needs at least one value")
        return v


class FightSpec(StrictModel):
    """A group fight (docs/groups.md; rulesets that play them): two sides of 1 … 6 fighters (``"militia*3"`` repeats
    one), played under each variant; ``options`` change the rules of this fight only."""

    a: list[str] = Field(description="side a: fighter names or TOML files, NAME*N repeats one")
    b: list[str] = Field(description="side b")
    label: str = Field("", max_length=MAX_NAME)
    options: dict[str, Any] = Field(default_factory=dict)
    targeting_a: str | None = Field(None, description="override side a's targeting: spread | weakest | nearest")
    targeting_b: str | None = None


#: the most duels per cell of a scenario (the file's ``n`` and the ``n`` that overrides it)
MAX_N_PER_CELL = 10**9


class WeightsSpec(StrictModel):
    """Stat weights of fighter ``a`` against ``b`` (``brutal-sim weights``), under each variant."""

    a: str
    b: str


class ScenarioSpec(StrictModel):
    title: str = "brutal_sim report"
    notes: str = ""
    n: int = Field(100_000, gt=0, le=MAX_N_PER_CELL)
    target_error: float | None = Field(None, gt=0, le=50, description="play each cell until its rates' 95 % "
                                       "half-width is at most this many percentage points (instead of n)")
    max_n: int = Field(100_000_000, gt=0, le=MAX_N_PER_CELL, description="the most duels per cell with target_error")
    seed: int = Field(0, ge=0, lt=2**64)
    ruleset: str | None = None
    rulesets: list[str] = Field(default_factory=list)
    fighters: list[str] = Field(default_factory=list)
    round_robin: bool = False
    matchups: list[list[str]] = Field(default_factory=list)
    rules: str | dict[str, str] | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    variants: list[VariantSpec] = Field(default_factory=list)
    sweeps: list[SweepSpec] = Field(default_factory=list)
    fights: list[FightSpec] = Field(default_factory=list)
    weights: list[WeightsSpec] = Field(default_factory=list)

    @field_validator("matchups")
    @classmethod
    def _pairs(cls, v: list[list[str]]) -> list[list[str]]:
        for pair in v:
            if len(pair) != 2:
                raise ValueError(f"each matchup is a pair of two fighters, got {pair}")
        return v


@dataclass
class WeightJob:
    """One ``[[weights]]`` entry under one variant (or ruleset): fighters loaded, rules resolved."""

    label: str
    ruleset: Ruleset
    rules: str | None
    options: dict[str, str]
    a: Any
    b: Any


@dataclass
class Cell:
    """One run of the scenario: a matchup under a ruleset and variant (and maybe a sweep value)."""

    ruleset: Ruleset
    prepared: Prepared
    variant: str
    sweep: str = ""
    value: str = ""

    @property
    def a(self) -> Any:
        return self.prepared.a

    @property
    def b(self) -> Any:
        return self.prepared.b

    @property
    def options(self) -> RuleOptions:
        return self.prepared.options

    @property
    def compiled(self) -> Compiled:
        return self.prepared.compiled

    @property
    def matchup(self) -> str:
        return f"{self.a.name} vs {self.b.name}"


@dataclass
class FightCell:
    """One group fight of the scenario under one variant."""

    prepared: Any  # a brutal_sim.core.ruleset.PreparedFight
    variant: str
    label: str
    changed: str = ""  # the fight's own options, as text

    @property
    def fighters(self) -> list[Any]:
        return [*self.prepared.a, *self.prepared.b]


@dataclass
class Scenario:
    """A validated scenario, expanded into cells.

    ``variant_options`` maps each variant label to its options; in a cross-system comparison
    (``rulesets = [...]``) the labels are the ruleset names.
    """

    spec: ScenarioSpec
    source: str
    variant_options: dict[str, RuleOptions]
    variant_rulesets: dict[str, Ruleset]
    cells: list[Cell] = field(default_factory=list)
    differences: pd.DataFrame | None = None  # paired differences of neighbours, after a run
    fights: list[FightCell] = field(default_factory=list)
    fight_results: list[Any] = field(default_factory=list)  # FightResult per fight cell, after a run
    weight_jobs: list["WeightJob"] = field(default_factory=list)
    weight_results: list[Any] = field(default_factory=list)  # designer.Weights per job, after a run
    #: the changes of ``--set`` applied to the scenario's fighters: fighter key → {path: value} (:func:`fighter_key`)
    sets: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def n_runs(self) -> int:
        """Duel cells and group-fight cells."""
        return len(self.cells) + len(self.fights)

    @property
    def total_duels(self) -> int:
        """Duels and group fights to play (with a target error: at most)."""
        return self.n_runs * (self.spec.n if self.spec.target_error is None else self.spec.max_n)

    @property
    def precision(self) -> Precision | None:
        """Each cell played to the file's ``target_error`` (None: ``n`` duels each)."""
        return api.precision_of(self.spec.target_error, self.spec.max_n)

    @property
    def rulesets(self) -> list[Ruleset]:
        return list({rs.name: rs for rs in self.variant_rulesets.values()}.values())


def _value_label(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "none"
    if isinstance(value, dict):
        return value.get("name") or ", ".join(f"{k}={v}" for k, v in value.items())
    return str(value)


def _nested(exc: DataError) -> str:
    """A loader's error re-told inside the scenario's own message."""
    inner = "" if exc.source in {"fighter", "fighter a", "fighter b"} else f"{exc.source}: "
    return inner + (f"{exc.field}: " if exc.field else "") + exc.message


class Run(NamedTuple):
    """One configuration the scenario's cells play under: a variant of one ruleset, or one ruleset
    of a cross-system comparison, with its rules file, options and where they are written."""

    label: str
    ruleset: Ruleset
    rules: str | None
    options: dict[str, str]
    where: str


def names_file(ref: str) -> bool:
    """Whether a fighter reference of a scenario is the path of a fighter file (it ends in
    ``.toml`` or holds a folder separator) rather than a catalog name."""
    return ref.endswith(".toml") or "/" in ref or os.sep in ref


def fighter_key(ref: str) -> str:
    """How ``--set`` names a fighter reference of a scenario: a catalog name as written, a fighter
    file by its name without ``.toml`` (``fighters/brute2.toml`` → ``brute2``)."""
    return Path(ref).stem if names_file(ref) else ref


@dataclass(frozen=True)
class References:
    """How the files a scenario names are found: relative to the scenario's folder, never the
    current one; a catalog name is only ever a catalog name. ``sets``: changes applied to each
    fighter as it is loaded (fighter key → {path: value}, :func:`fighter_key`; ``--set``)."""

    path: str
    sets: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    @property
    def folder(self) -> Path:
        return Path(self.path).parent

    def beside(self, ref: str) -> str:
        """A path the scenario writes, as it is opened: from the scenario's folder."""
        return str(self.folder / ref)

    def fighter(self, ref: str) -> str:
        """A fighter reference: a fighter file's path from the scenario's folder, a catalog name as
        written."""
        return self.beside(ref) if names_file(ref) else ref

    def identity(self, ref: str) -> str:
        """One key per fighter: a file by its absolute path, a catalog name as written."""
        return os.path.abspath(os.path.realpath(self.beside(ref))) if names_file(ref) else ref

    def load_fighter(self, rs: Ruleset, ref: str, role: str = "fighter") -> Any:
        """The fighter ``ref`` names under ``rs``: its file beside the scenario, or the catalog's,
        with its ``sets`` applied (a bad one is a :class:`DataError` from ``--set FIGHTER``)."""
        if not names_file(ref):
            loaded = rs.catalog().catalog_fighter(ref, role)
        else:
            found = Path(self.beside(ref))
            if not exists(found, file=True):
                raise DataError(str(found), None, "fighter file not found (a path in a scenario is read from the "
                                "scenario's folder)")
            loaded = rs.fighter_from_data(read_toml(found), str(found), found.stem)
        changes = self.sets.get(fighter_key(ref))
        return with_changes(loaded, dict(changes), f"--set {fighter_key(ref)}") if changes else loaded

    def rules(self, ref: str, key: str) -> str:
        """A rules file named at ``key``, beside the scenario."""
        found = self.beside(ref)
        if not exists(Path(found), file=True):
            raise DataError(self.path, key, f"rules file {ref!r} not found (looked for {found}: a path in a "
                            "scenario is read from the scenario's folder)")
        return found

    def options(self, rs: Ruleset, options: Mapping[str, Any]) -> dict[str, str]:
        """Rule options the scenario sets, as text; the value of an option that names a file
        (:meth:`~brutal_sim.core.options.OptionSpec.names_file`) as a path from the scenario's folder."""
        specs = {spec.name: spec for spec in rs.option_specs}
        out = {}
        for key, value in options.items():
            text = str(value)
            spec = specs.get(key)
            out[key] = self.beside(text) if spec is not None and spec.names_file(text) else text
        return out


class FileRef(NamedTuple):
    """A file a scenario names: who names it (``by``: None for the scenario, else the name of the
    rules file), at which field, the path the loader opens, and the file's name seen from the
    scenario's folder (the name a report carries it under)."""

    by: str | None
    field: str
    path: Path
    key: str

    @property
    def where(self) -> str:
        return f"{self.by}: {self.field}" if self.by else self.field


def _fighter_refs(spec: ScenarioSpec) -> list[tuple[str, str]]:
    """Every fighter reference of the scenario and its field (a fight's ``NAME*N`` as ``NAME``)."""
    found = [(ref, f"fighters[{i}]") for i, ref in enumerate(spec.fighters)]
    found += [(ref, f"matchups[{i}][{k}]") for i, pair in enumerate(spec.matchups) for k, ref in enumerate(pair)]
    found += [(ref, f"sweeps[{i}].{key}") for i, sw in enumerate(spec.sweeps)
              for key, ref in [("fighter", sw.fighter), *((f"opponents[{j}]", o) for j, o in enumerate(sw.opponents))]]
    found += [(ref, f"weights[{i}].{key}") for i, w in enumerate(spec.weights) for key, ref in (("a", w.a), ("b", w.b))]
    for i, fs in enumerate(spec.fights):
        for key, side in (("a", fs.a), ("b", fs.b)):
            for j, ref in enumerate(side):
                name, star, count = ref.rpartition("*")
                found.append((name if star and count.strip().isdigit() else ref, f"fights[{i}].{key}[{j}]"))
    return found


def _duelists(spec: ScenarioSpec) -> list[str]:
    """The references the duels' ruleset is resolved from, when the scenario names none."""
    return [*spec.fighters, *itertools.chain(*spec.matchups), *(sw.fighter for sw in spec.sweeps),
            *(w.a for w in spec.weights)]


def scenario_files(path: str) -> Iterator[FileRef]:
    """Every file the scenario at ``path`` names, where the loader opens it, and nothing else: the
    fighter files (``fighters``, ``matchups``, ``sweeps``, ``weights``, ``fights``), the rules files
    (``rules``, ``rules.NAME``) and the tables named by the options that take a path
    (:meth:`~brutal_sim.core.options.OptionSpec.names_file`) — in a rules file's ``[options]``
    from that file's folder, in the scenario's options from the scenario's. Catalog names, free
    text and other option values are never taken for files.

    Lazy: a rules file is read (for the tables it names) only after it has been yielded, and a
    fighter file (for its ruleset) only after every fighter file has been, so that a caller
    refusing a file stops before it is read. A malformed scenario is a :class:`DataError` (as
    :func:`load_scenario` raises it); a rules file that cannot be read is left to the loader."""
    spec = read_spec(path)
    refs = References(path)
    for ref, where in _fighter_refs(spec):
        if names_file(ref):
            yield FileRef(None, where, Path(refs.beside(ref)), os.path.normpath(ref))
    rules = ({f"rules.{k}": v for k, v in spec.rules.items()} if isinstance(spec.rules, dict)
             else {"rules": spec.rules} if spec.rules else {})
    try:
        if spec.rulesets:
            rulesets = {name: get_ruleset(name) for name in spec.rulesets}
            runs = [(rulesets[name], f"rules.{name}", [(f"options.{name}", spec.options.get(name))])
                    for name in spec.rulesets]
        else:
            rs = get_ruleset(spec.ruleset) if spec.ruleset else resolve_ruleset(
                [refs.fighter(r) for r in _duelists(spec)])
            runs = [(rs, "rules", [("options", spec.options),
                                               *((f"variants[{i}].options", v.options)
                                                 for i, v in enumerate(spec.variants))])]
    except DataError:  # no ruleset to read the options with: the loader tells why
        return
    for rs, rules_key, tables in runs:
        tables += [(f"fights[{i}].options", fs.options) for i, fs in enumerate(spec.fights)]
        for where, table in tables:
            for key, value in _path_options(rs, table):
                yield FileRef(None, f"{where}.{key}", Path(refs.beside(value)), os.path.normpath(value))
        rules_ref = rules.get(rules_key)
        if not rules_ref:
            continue
        name = os.path.normpath(rules_ref)
        found = Path(refs.beside(rules_ref))
        yield FileRef(None, rules_key, found, name)
        yield from rules_files(rs, found, name)


def rules_files(rs: Ruleset, rules_file: Path, name: str | None = None) -> list[FileRef]:
    """The tables a rules file of ``rs`` names through its path-valued options, from the rules
    file's folder, each under its name joined to ``name`` (the rules file's own name, default its
    path); none if the file cannot be read (the loader tells why)."""
    name = str(rules_file) if name is None else name
    data = peek_toml(rules_file)
    table = None if data is None else data.get("options")
    return [FileRef(name, f"options.{key}", rules_file.parent / value,
                    os.path.normpath(os.path.join(os.path.dirname(name), value))) for key, value in _path_options(rs, table)]


def _path_options(rs: Ruleset, table: Any) -> list[tuple[str, str]]:
    """The options of ``table`` (a TOML table of option = value) whose values name files."""
    if not isinstance(table, dict):
        return []
    specs = {spec.name: spec for spec in rs.option_specs}
    return [(k, v) for k, v in table.items() if k in specs and specs[k].names_file(v)]


#: the most cells (duel cells and group fights) a scenario expands into unless forced
MAX_CELLS = 10_000


def estimated_cells(spec: ScenarioSpec) -> int:
    """How many cells (duel cells and group fights) ``spec`` expands into, counted from the file
    alone before anything is loaded or built: each matchup (a round robin of k fighters makes
    k(k−1)/2) and each sweep value against each opponent, under each variant or ruleset; each
    fight under each. An upper bound where repeats would be refused anyway."""
    k = len(spec.fighters)
    robin = k * (k - 1) // 2 if spec.round_robin else 0
    swept = 0
    for sw in spec.sweeps:
        opponents = len(sw.opponents) or (
            (k - 1 if spec.round_robin and sw.fighter in spec.fighters else 0)
            + sum(sw.fighter in pair for pair in spec.matchups))
        swept += len(sw.values) * opponents
    runs = len(spec.rulesets) or max(len(spec.variants), 1)
    return runs * (robin + len(spec.matchups) + swept + len(spec.fights))


def check_size(spec: ScenarioSpec, path: str, max_cells: int | None, names: Mapping[str, str]) -> int:
    """The estimated cells of ``spec`` (:func:`estimated_cells`); more than ``max_cells`` (None: no
    limit) is a :class:`DataError` naming the estimate and the limit."""
    cells = estimated_cells(spec)
    if max_cells is not None and cells > max_cells:
        force = names.get("force", "force")
        raise DataError(path, None, f"about {cells:,} cells (matchups and sweep values times variants, and fights); "
                        f"allowed: at most {max_cells:,} cells, or more with {force}")
    return cells


def load_scenario(path: str, n: int | None = None, names: Mapping[str, str] | None = None,
                  target_error: float | None = None, max_n: int | None = None,
                  max_cells: int | None = MAX_CELLS, on_size: Callable[[int], None] | None = None,
                  sets: Mapping[str, Mapping[str, Any]] | None = None) -> Scenario:
    """Read, validate and expand a scenario file; every problem is a :class:`DataError`.

    ``n`` overrides the file's duels per cell (quick previews) and its ``target_error``;
    ``target_error`` (and ``max_n``) override the file's ``n``. A bad one names the argument as
    ``names`` maps it (default ``n``; the CLI passes ``{"n": "-n"}``).

    The cells are counted from the file before any is built (:func:`estimated_cells`): more than
    ``max_cells`` (default :data:`MAX_CELLS`; None: no limit) is refused, naming the estimate and
    ``names["force"]``; ``on_size(cells)`` is then told the estimate (e.g. to announce a large run).

    ``sets`` (``brutal-sim report --set``) change fighters of the scenario wherever they play:
    fighter key (:func:`fighter_key`) → {dotted path: value}, each applied as the fighter is loaded
    and validated like a fighter file; a key that names no fighter of the scenario is a
    :class:`DataError` from ``--set`` listing the keys allowed (:func:`check_sets`).

    Nothing that can fail is left for later: each fighter, matchup, sweep name and sweep value
    once; fighters of different references sharing a name are labelled apart, ``"Brute
    (brute2.toml)"`` (docs/scenarios.md). The parts, in order: :func:`read_spec` (the file and the
    overrides), :func:`_check_repeats`, :func:`_pairs` (the matchups), :func:`_runs` (the rulesets,
    rules and options), :class:`_Fighters` (every fighter loaded once per ruleset), then the cells.
    """
    spec = read_spec(path, n, names, target_error, max_n)
    cells = check_size(spec, path, max_cells, names or {})
    if on_size is not None:
        on_size(cells)
    refs = References(path, {k: dict(v) for k, v in (sets or {}).items() if v})
    check_sets(spec, refs)
    _check_repeats(spec, path, refs.identity)
    pairs = _pairs(spec, path)
    runs = _runs(spec, path, refs)
    fighters = _Fighters(path, refs)
    fighters.load_all(spec, runs)
    scenario = Scenario(spec, path, {}, {}, sets={k: dict(v) for k, v in refs.sets.items()})
    _add_matchups(scenario, runs, pairs, fighters)
    _add_sweeps(scenario, runs, pairs, fighters)
    _add_weights(scenario, runs, fighters)
    if spec.fights:
        _add_fights(scenario, runs, refs)
    return scenario


def check_sets(spec: ScenarioSpec, refs: References) -> None:
    """Each key of ``refs.sets`` names one fighter of the scenario (:func:`fighter_key` of a
    reference anywhere in it): an unknown key, or one naming two different fighter files, is a
    :class:`DataError` from ``--set`` that lists the keys allowed."""
    known: dict[str, set[str]] = {}
    for ref, _ in _fighter_refs(spec):
        known.setdefault(fighter_key(ref), set()).add(refs.identity(ref))
    allowed = ", ".join(known) or "none (the scenario names no fighter)"
    for key in refs.sets:
        if key not in known:
            raise DataError("--set", None, f"{key!r} is no fighter of the scenario; allowed: {allowed}")
        if len(known[key]) > 1:
            raise DataError("--set", None, f"{key!r} names {len(known[key])} different fighter files of the scenario; "
                            "give them different file names to change one")


def read_spec(path: str, n: int | None = None, names: Mapping[str, str] | None = None,
              target_error: float | None = None, max_n: int | None = None) -> ScenarioSpec:
    """The scenario file read and validated, with the overrides of :func:`load_scenario` applied."""
    names = names or {}
    spec = validate(ScenarioSpec, read_toml(Path(path)), path)
    if n is not None:
        if not isinstance(n, int) or isinstance(n, bool) or n <= 0:
            raise DataError(names.get("n", "n"), None, f"duels per cell must be a positive integer, got {n!r}")
        if n > MAX_N_PER_CELL:
            raise DataError(names.get("n", "n"), None, f"duels per cell must be at most 10**9, got {n!r}")
        spec = spec.model_copy(update={"n": n, "target_error": None})
    if target_error is not None or max_n is not None:
        prec = api.precision_of(spec.target_error if target_error is None else target_error,
                                spec.max_n if max_n is None else max_n, names)
        if n is not None:
            raise DataError(names.get("n", "n"), None, "give n or a target error, not both")
        if prec is None:
            raise DataError(names.get("max_n", "max_n"), None, "needs a target error")
        if prec.max_n > MAX_N_PER_CELL:
            raise DataError(names.get("max_n", "max_n"), None,
                            f"duels per cell must be at most 10**9, got {prec.max_n!r}")
        spec = spec.model_copy(update={"target_error": prec.target * 100, "max_n": prec.max_n})
    return spec


def _pairs(spec: ScenarioSpec, path: str) -> list[tuple[str, str]]:
    """The matchups: the round robin's pairs, then the explicit ones; a scenario with nothing to run
    is an error."""
    pairs: list[tuple[str, str]] = []
    if spec.round_robin:
        if len(spec.fighters) < 2:
            raise DataError(path, "round_robin", "needs at least two fighters in 'fighters'")
        pairs += list(itertools.combinations(spec.fighters, 2))
    pairs += [(a, b) for a, b in spec.matchups]
    if not pairs and not spec.sweeps and not spec.fights and not spec.weights:
        raise DataError(path, None, "nothing to run: give matchups, round_robin = true with fighters, sweeps, "
                        "[[fights]] or [[weights]]")
    return pairs


def _runs(spec: ScenarioSpec, path: str, refs: References) -> list[Run]:
    """Which rulesets the cells play under, each with its rules file and options: every ruleset of a
    cross-system comparison, else every variant of the one ruleset (named, or resolved from the
    duels' fighters)."""
    runs: list[Run] = []
    if spec.rulesets:
        if spec.ruleset:
            raise DataError(path, "ruleset", "give either ruleset (one) or rulesets (a cross-system comparison)")
        if spec.variants or spec.sweeps:
            raise DataError(path, "rulesets", "a cross-system comparison runs matchups or a round robin under each "
                            "ruleset; variants and sweeps belong in one-ruleset scenarios")
        if len(set(spec.rulesets)) != len(spec.rulesets):
            raise DataError(path, "rulesets", f"each ruleset once, got {spec.rulesets}")
        for key, table in (("options", spec.options), ("rules", spec.rules if isinstance(spec.rules, dict) else {})):
            for name, value in table.items():
                if name not in spec.rulesets or (key == "options" and not isinstance(value, dict)):
                    raise DataError(path, f"{key}.{name}", f"with rulesets = [...], {key} is a table per ruleset, "
                                    f"e.g. [{key}.{spec.rulesets[0]}]; allowed: {', '.join(spec.rulesets)}")
        if isinstance(spec.rules, str):
            raise DataError(path, "rules", "with rulesets = [...], rules is a table of files per ruleset, "
                            f'e.g. rules = {{ {spec.rulesets[0]} = "FILE" }}')
        for name in spec.rulesets:
            rs = _ruleset(name, path, "rulesets")
            rules = spec.rules.get(name) if isinstance(spec.rules, dict) else None
            rules = refs.rules(rules, f"rules.{name}") if rules else None
            runs.append(Run(name, rs, rules, refs.options(rs, spec.options.get(name, {})), f"options.{name}"))
        return runs
    if isinstance(spec.rules, dict):
        raise DataError(path, "rules", "expected the path of one rules file")
    duelists = [refs.fighter(r) for r in _duelists(spec)]
    try:
        rs = _ruleset(spec.ruleset, path, "ruleset") if spec.ruleset else resolve_ruleset(duelists)
    except DataError as exc:
        raise DataError(path, "ruleset", _nested(exc)) from None
    rules = refs.rules(spec.rules, "rules") if spec.rules else None
    variants = spec.variants or [VariantSpec(name="default")]
    labels = [v.name for v in variants]
    if len(set(labels)) != len(labels):
        raise DataError(path, "variants", f"variant names must differ, got {labels}")
    for i, v in enumerate(variants):
        merged = {**refs.options(rs, spec.options), **refs.options(rs, v.options)}
        runs.append(Run(v.name, rs, rules, merged, f"variants[{i}].options" if v.options else "options"))
    return runs


class _Fighters:
    """Every fighter of the scenario's duels, loaded once per ruleset (by its identity) and checked
    to belong to it; fighters of different references that share a name are labelled apart."""

    def __init__(self, path: str, refs: References) -> None:
        self.path, self.refs = path, refs
        self.loaded: dict[tuple[str, str], Any] = {}  # (ruleset, identity) → fighter

    def get(self, rs: Ruleset, ref: str, where: str) -> Any:
        key = rs.name, self.refs.identity(ref)
        if key not in self.loaded:
            try:
                self.loaded[key] = self.refs.load_fighter(rs, ref)
            except DataError as exc:
                if exc.source.startswith("--set "):
                    raise
                raise DataError(self.path, where, _nested(exc)) from None
            if self.loaded[key].ruleset != rs.name:
                raise DataError(self.path, where, f"{ref} is a {self.loaded[key].ruleset} fighter; this "
                                f"scenario runs it under {rs.name}")
        return self.loaded[key]

    def load_all(self, spec: ScenarioSpec, runs: list[Run]) -> None:
        """Load every fighter of the duels under each ruleset before any cell is made."""
        refs_at = [(ref, f"fighters[{i}]") for i, ref in enumerate(spec.fighters)]
        refs_at += [(ref, f"matchups[{i}][{k}]") for i, pair in enumerate(spec.matchups) for k, ref in enumerate(pair)]
        refs_at += [(ref, f"sweeps[{i}].{key}") for i, sw in enumerate(spec.sweeps)
                    for key, ref in [("fighter", sw.fighter), *(("opponents", o) for o in sw.opponents)]]
        refs_at += [(ref, f"weights[{i}].{key}") for i, w in enumerate(spec.weights)
                    for key, ref in (("a", w.a), ("b", w.b))]
        for rs in {run.ruleset.name: run.ruleset for run in runs}.values():
            for ref, where in refs_at:
                self.get(rs, ref, where)
        _label_apart(self.loaded, {self.refs.identity(ref): ref for ref, _ in reversed(refs_at)})


def _add_cell(scenario: Scenario, label: str, rs: Ruleset, rules: str | None, options: dict[str, str], where: str,
              a: Any, b: Any, sweep: str = "", value: str = "") -> None:
    """One duel cell: a against b under one run's rules and options."""
    try:
        prepared = rs.prepare(a, b, rules, options)
    except DataError as exc:
        field_ = f"{where}.{exc.field}" if exc.field and exc.source == "options" else where
        raise DataError(scenario.source, field_, exc.message if exc.source == "options" else _nested(exc)) from None
    scenario.variant_options.setdefault(label, prepared.options)
    scenario.variant_rulesets.setdefault(label, rs)
    scenario.cells.append(Cell(rs, prepared, label, sweep, value))


def _add_matchups(scenario: Scenario, runs: list[Run], pairs: list[tuple[str, str]], fighters: _Fighters) -> None:
    """The cells of the matchups: each pair under each run."""
    for run in runs:
        for a, b in pairs:
            _add_cell(scenario, *run, fighters.get(run.ruleset, a, "matchups"),
                      fighters.get(run.ruleset, b, "matchups"))


def _add_weights(scenario: Scenario, runs: list[Run], fighters: _Fighters) -> None:
    """The stat-weight jobs of ``[[weights]]``: each under each run, its matchup checked now."""
    for i, w in enumerate(scenario.spec.weights):
        for label, rs, rules, options, where in runs:
            a, b = fighters.get(rs, w.a, f"weights[{i}].a"), fighters.get(rs, w.b, f"weights[{i}].b")
            try:
                rs.prepare(a, b, rules, options)
            except DataError as exc:
                raise DataError(scenario.source, where, _nested(exc)) from None
            scenario.weight_jobs.append(WeightJob(label, rs, rules, options, a, b))


def _check_repeats(spec: ScenarioSpec, path: str, identity: Callable[[str], str]) -> None:
    """Each fighter of ``fighters``, each matchup (round robin and explicit), each sweep name and
    each value of a sweep once: a repeat would play the same cells twice, crash the matchup matrix
    after the run, or merge two sweeps into one table."""
    seen: dict[str, int] = {}
    for i, ref in enumerate(spec.fighters):
        j = seen.setdefault(identity(ref), i)
        if j != i:
            same = "" if ref == spec.fighters[j] else f" (the same file as {spec.fighters[j]!r})"
            raise DataError(path, f"fighters[{i}]", f"{ref!r} is already fighters[{j}]{same}; list each fighter once")
    robin = ({(identity(a), identity(b)) for a, b in itertools.combinations(spec.fighters, 2)}
             if spec.round_robin else set())
    pairs: dict[tuple[str, str], int] = {}
    for i, (a, b) in enumerate(spec.matchups):
        key = identity(a), identity(b)
        if key in robin:
            raise DataError(path, f"matchups[{i}]", f"{a} vs {b} is already a pair of the round robin; each matchup "
                            f"once (the other order, [{b!r}, {a!r}], is another matchup)")
        j = pairs.setdefault(key, i)
        if j != i:
            raise DataError(path, f"matchups[{i}]", f"{a} vs {b} is already matchups[{j}]; each matchup once")
    named: dict[str, int] = {}
    for i, sw in enumerate(spec.sweeps):
        name = sw.name or f"{sw.fighter}.{sw.field}"
        j = named.setdefault(name, i)
        if j != i:
            other = spec.sweeps[j]
            if sw.name:
                raise DataError(path, f"sweeps[{i}].name", f"{name!r} is already the name of sweeps[{j}] "
                                f"({other.fighter} {other.field}); each sweep needs its own name (the tables "
                                "group rows by it)")
            raise DataError(path, f"sweeps[{i}]", f"sweeps {sw.fighter} {sw.field} like sweeps[{j}]; give each "
                            "sweep its own name, or put all the values into one sweep")
        values: dict[str, int] = {}
        for k, value in enumerate(sw.values):
            m = values.setdefault(_value_label(value), k)
            if m != k:
                raise DataError(path, f"sweeps[{i}].values", f"{_value_label(value)!r} is listed twice (values[{m}] "
                                f"and values[{k}]); each value once")


def _label_apart(fighters: dict[tuple[str, str], Any], written: dict[str, str]) -> None:
    """Rename in place the loaded fighters (``(ruleset, identity)`` → fighter) of different
    references that share a name under any ruleset: ``"Brute (brute2.toml)"``, the reference as
    the scenario writes it (``written``: identity → text; :func:`short_labels`), under every ruleset alike."""
    by_name: dict[tuple[str, str], set[str]] = {}
    for (rs_name, ident), f in fighters.items():
        by_name.setdefault((rs_name, f.name), set()).add(ident)
    clashing = sorted(set().union(*(idents for idents in by_name.values() if len(idents) > 1)))
    labels = dict(zip(clashing, short_labels([written[ident] for ident in clashing])))
    for (rs_name, ident), f in fighters.items():
        if ident in labels:
            fighters[rs_name, ident] = f.model_copy(update={"name": f"{f.name} ({labels[ident]})"})


def _add_fights(scenario: Scenario, runs: list[Run], refs: References) -> None:
    """Cells of the ``[[fights]]``: each fight under each variant (or each ruleset of a
    cross-system comparison); every ruleset of the scenario must play group fights."""
    spec, path = scenario.spec, scenario.source
    for rs in {run.ruleset.name: run.ruleset for run in runs}.values():
        try:
            rs.require("fights", path)
        except DataError as exc:
            raise DataError(path, "fights", exc.message) from None
    expanded = [[expand_side(list(side), path, f"fights[{i}].{key}") for key, side in (("a", fs.a), ("b", fs.b))]
                for i, fs in enumerate(spec.fights)]
    loaded: dict[tuple[str, str], Any] = {}

    def fighter(rs: Ruleset, ref: str, where: str) -> Any:
        key = rs.name, refs.identity(ref)
        if key not in loaded:
            try:
                loaded[key] = refs.load_fighter(rs, ref, where)
            except DataError as exc:
                if exc.source.startswith("--set "):
                    raise
                raise DataError(path, where, _nested(exc) if exc.source != where else exc.message) from None
        return loaded[key]

    for i, (fs, sides) in enumerate(zip(spec.fights, expanded)):
        where = f"fights[{i}]"
        written = {k: str(x) for k, x in fs.options.items()}
        for label, rs, rules, options, vwhere in runs:
            own = refs.options(rs, fs.options)
            side_a, side_b = ([fighter(rs, ref, f"{where}.{key}") for ref in side] for key, side in zip("ab", sides))
            try:
                prepared = prepare_fight(side_a, side_b, rules, {**options, **own}, fs.targeting_a,
                                         fs.targeting_b, source=where, ruleset=rs.name)
            except DataError as exc:
                if exc.source == "options":  # an option of the fight or of the variant
                    field_ = f"{where}.options.{exc.field}" if exc.field in own else f"{vwhere}.{exc.field}"
                    raise DataError(path, field_, exc.message) from None
                field_ = f"{where}.{exc.field}" if exc.source == where else where
                raise DataError(path, field_, _nested(exc) if exc.source != where else exc.message) from None
            matchup = fs.label or f"{side_name([f.name for f in prepared.a])} vs {side_name([f.name for f in prepared.b])}"
            targeting = {f"targeting_{k}": t for k, t in (("a", fs.targeting_a), ("b", fs.targeting_b)) if t}
            changed = ", ".join(f"{k}={v}" for k, v in {**written, **targeting}.items())
            twin = next((j for j, fc in enumerate(scenario.fights)
                         if (fc.label, fc.variant, fc.changed) == (matchup, label, changed)), None)
            if twin is not None:
                raise DataError(path, where, f"the same fight as fights[{twin // len(runs)}] ({matchup}); give "
                                "one of them a label, or other options")
            if label not in scenario.variant_options:  # the variant's options, without the fight's own
                scenario.variant_options[label] = rs.rule_options(rules, options)
                scenario.variant_rulesets[label] = rs
            scenario.fights.append(FightCell(prepared, label, matchup, changed))


def _ruleset(name: str, path: str, key: str) -> Ruleset:
    try:
        return get_ruleset(name, path)
    except DataError as exc:
        raise DataError(path, key, exc.message) from None


def _add_sweeps(scenario: Scenario, runs: list[Run], pairs: list[tuple[str, str]], fighters: _Fighters) -> None:
    """Cells of each sweep: every value against each opponent under each variant."""
    spec, path, fighter = scenario.spec, scenario.source, fighters.get
    for i, sw in enumerate(spec.sweeps):
        where = f"sweeps[{i}]"
        opponents = sw.opponents or [b for a, b in pairs if a == sw.fighter] + [a for a, b in pairs if b == sw.fighter]
        if not opponents:
            raise DataError(path, f"{where}.opponents", "no opponent: list opponents or add matchups with this fighter")
        sweep_name = sw.name or f"{sw.fighter}.{sw.field}"
        rs = runs[0].ruleset
        base = fighter(rs, sw.fighter, f"{where}.fighter")
        opps = list({id(f): f for f in (fighter(rs, o, f"{where}.opponents") for o in opponents)}.values())
        for value in sw.values:
            varied = vary(base, sw.field, value, where=f"{path}: {where}")
            for opp in opps:
                for label, _, rules, options, vwhere in runs:
                    _add_cell(scenario, label, rs, rules, options, vwhere, varied, opp, sweep_name,
                              _value_label(value))


ProgressFn = Callable[[int, int, str], None]


def _groups(scenario: Scenario) -> list[tuple[list[int], str]]:
    """Cells to replay together with common random numbers, and the label that changes along each:
    a sweep's values (same matchup and variant), or the variants of a plain matchup."""
    groups: dict[tuple, list[int]] = {}
    for i, c in enumerate(scenario.cells):
        key = ("value", c.sweep, c.variant, c.b.name) if c.sweep else ("variant", c.ruleset.name, c.a.name, c.b.name)
        groups.setdefault(key, []).append(i)
    return _pairable(groups, [c.compiled for c in scenario.cells])


def _fight_groups(scenario: Scenario) -> list[tuple[list[int], str]]:
    """Group fights to replay together: the same sides under one variant, differing by the fight's
    own options or targeting (the ``value`` label)."""
    groups: dict[tuple, list[int]] = {}
    for i, fc in enumerate(scenario.fights):
        names = tuple(f.name for f in fc.prepared.a), tuple(f.name for f in fc.prepared.b)
        groups.setdefault(("value", *names, fc.variant), []).append(i)
    return _pairable(groups, [fc.prepared.compiled for fc in scenario.fights])


def _fight_order(scenario: Scenario, members: list[int]) -> list[int]:
    """The order a group of fights is played in so that each fight is compared with the group's
    baseline — the fight without options of its own (the scenario's and the variant's only), else
    the first listed — and never with the fight listed before it: the paired driver counts the
    joint outcomes of neighbouring configurations, so the baseline is played before each other
    fight (``[base, f1, base, f2, …]``; a baseline's copies replay the same fights, so their
    counters are the same)."""
    base = next((i for i in members if not scenario.fights[i].changed), members[0])
    others = [i for i in members if i != base]
    return [x for i in others for x in (base, i)] or [base]


def _pairable(groups: dict[tuple, list[int]], compiled: list[Compiled]) -> list[tuple[list[int], str]]:
    """The groups (key: the changing label first) whose members share the kernels, the tables and
    the round cap; members of other groups run on their own."""
    out = []
    for key, members in groups.items():
        tables = {b"".join(t.tobytes() for t in compiled[i].tables) for i in members}
        caps = {compiled[i].n_counters for i in members}
        same_kernels = all(compiled[i].kernels == compiled[members[0]].kernels for i in members)
        if len(tables) == 1 and len(caps) == 1 and same_kernels:
            out.append((members, key[0]))
        else:  # a kernel (a duel at a distance beside one at point blank), a table (e.g. Brutal's
            # zone table) or the round cap differs: each cell on its own
            out.extend(([i], key[0]) for i in members)
    return out


def _label(scenario: Scenario, cell: Cell) -> str:
    label = cell.matchup + (f" [{cell.variant}]" if len(scenario.variant_options) > 1 else "")
    return label + (f" {cell.sweep}={cell.value}" if cell.sweep else "")


def run_scenario(scenario: Scenario, threads: int | None = None, progress: ProgressFn | None = None,
                 executor: Executor | None = None, client: Any = None) -> list[DuelResult]:
    """Run every cell; ``progress(duels done, total, label)`` is called as blocks finish (while a
    ``[[weights]]`` entry plays, with the cells' duels and the entry's label).

    Group fights (``[[fights]]``) are played alongside; their
    :class:`~brutal_sim.results.fight.FightResult` objects are left in ``scenario.fight_results``. Fights of
    the same sides under one variant are replayed together too (their own options or targeting
    change along the group).

    All cells use the scenario's seed and duel indices 0 … n−1 (common random numbers). Cells that
    differ only by a sweep value, or only by the rule variant, are replayed together, and the
    paired differences between neighbours are left in ``scenario.differences``; group fights of the
    same sides, each against their baseline (:func:`_fight_order`). All groups are
    handed to the executor at once: ``client`` (a ``distributed.Client``) or ``executor`` run them
    side by side on a Dask cluster, with the same counters (``docs/cluster.md``).
    """
    spec = scenario.spec
    results: dict[int, DuelResult] = {}
    fight_results: dict[int, Any] = {}
    differences = []
    done = 0
    total = scenario.total_duels
    groups = _groups(scenario)
    fight_groups = _fight_groups(scenario)
    several = len(scenario.variant_options) > 1
    labels = [_label(scenario, scenario.cells[m[0]]) + (f" … ({len(m)} cells)" if len(m) > 1 else "")
              for m, _ in groups]
    labels += [scenario.fights[m[0]].label + (f" [{scenario.fights[m[0]].variant}]" if several else "")
               + (f" … ({len(m)} fights)" if len(m) > 1 else "") for m, _ in fight_groups]
    # the order each group plays its members in: a sweep's values and the variants as listed (their
    # differences are those of neighbours), group fights each after its baseline (:func:`_fight_order`)
    orders = [members for members, _ in groups] + [_fight_order(scenario, members) for members, _ in fight_groups]
    works = [paired_work([scenario.cells[i].compiled for i in members], spec.seed) for members, _ in groups]
    works += [paired_work([scenario.fights[i].prepared.compiled for i in order], spec.seed)
              for order in orders[len(groups):]]
    sizes = [len(members) for members, _ in [*groups, *fight_groups]]

    def step(work: int, size: int) -> None:
        nonlocal done
        done += size * sizes[work]
        if progress:
            progress(done, total, labels[work])

    prec = scenario.precision
    layouts = [scenario.cells[m[0]].ruleset.counters for m, _ in groups]
    layouts += [get_ruleset(scenario.fights[m[0]].prepared.a[0].ruleset).counters for m, _ in fight_groups]
    if prec is None:
        ran = run_works(works, spec.n, resolve(executor, client, threads), on_chunk=step)
        totals, seconds, ns, met = ran.totals, ran.seconds, [spec.n] * len(works), [None] * len(works)
    else:
        def widest(w: int, parts: tuple[Any, ...], k: int) -> tuple[float, bool]:
            return rates_half_width(layouts[w], parts[0], k), False

        pr = run_to_precision(works, prec, widest, threads, executor=resolve(executor, client, threads),
                              progress=None if progress is None else lambda d, t: progress(d, t, ""))
        totals, seconds, ns, met = pr.totals, pr.seconds, pr.n, pr.met
    for g, ((members, by), (counters, joint), elapsed) in enumerate(zip([*groups, *fight_groups], totals, seconds)):
        order = orders[g]
        n = ns[g]
        group: dict[int, Any] = {}  # member → result, each once (a fight group plays its baseline again)
        for i, cnt in zip(order, counters):
            if i in group:
                continue
            if g < len(groups):
                cell = scenario.cells[i]
                r = result_of(cell.ruleset, cell.prepared, cnt, n, spec.seed, elapsed / len(members),
                              {"variant": cell.variant, "sweep": cell.sweep, "value": cell.value})
                results[i] = r
            else:
                fc = scenario.fights[i]
                r = fight_result_of(fc.prepared, cnt, n, spec.seed, elapsed / len(members),
                                    {"matchup": fc.label, "variant": fc.variant if several else "", "sweep": "",
                                     "value": fc.changed})
                fight_results[i] = r
            if prec is not None:
                r.precision.update({"target_error": prec.target, "half_width": rates_half_width(layouts[g], cnt, n),
                                    "target_met": met[g]})
            group[i] = r
        if len(order) > 1:
            played = [group[i] for i in order]
            if g < len(groups):  # neighbours: one frame of the whole group
                differences.append(paired_differences(played, joint[: len(order) - 1], by))
            else:
                differences.extend(paired_differences(played[p:p + 2], joint[p:p + 1], by)
                                   for p in range(0, len(order) - 1, 2))
    scenario.differences = pd.concat(differences, ignore_index=True) if differences else None
    scenario.fight_results = [fight_results[i] for i in range(len(scenario.fights))]
    scenario.weight_results = [
        stat_weights(job.a, job.b, spec.n, spec.seed, job.options, job.rules, job.ruleset.name, threads,
                     executor, client, spec.target_error, spec.max_n, label=job.label,
                     progress=None if progress is None else lambda _d, _t, label=job.label: progress(done, total, label))
        for job in scenario.weight_jobs]
    return [results[i] for i in range(len(scenario.cells))]
