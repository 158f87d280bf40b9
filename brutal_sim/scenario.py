"""Scenario files: a batch of duels (matchups, round robins, rule variants, sweeps) in one TOML.

A scenario is validated completely — every fighter, option and sweep field — before anything runs.
See ``docs/scenarios.md`` for the format and ``examples/*.toml`` for complete examples.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numba
import pandas as pd
from pydantic import Field, field_validator

from .catalog import Catalog, check_formula, load_rules, read_toml, validate
from .compile import compile_options, compile_pair
from .engine import paired_work
from .executor import Executor, resolve, run_works
from .ruleset import Compiled
from .rulesets.brutal import compiled as brutal_compiled
from .errors import DataError
from .model import Fighter, _Strict
from .options import RuleOptions
from .frames import paired_differences
from .results import DuelResult
from .variants import vary


class VariantSpec(_Strict):
    """A rule variant: a name and the options it changes."""

    name: str
    options: dict[str, Any] = Field(default_factory=dict)
    description: str = ""


class SweepSpec(_Strict):
    """One field of one fighter over a list of values."""

    name: str = ""
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


class ScenarioSpec(_Strict):
    title: str = "brutal_sim report"
    notes: str = ""
    n: int = Field(100_000, gt=0, le=10**9)
    seed: int = Field(0, ge=0, lt=2**64)
    fighters: list[str] = Field(default_factory=list)
    round_robin: bool = False
    matchups: list[list[str]] = Field(default_factory=list)
    rules: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    variants: list[VariantSpec] = Field(default_factory=list)
    sweeps: list[SweepSpec] = Field(default_factory=list)

    @field_validator("matchups")
    @classmethod
    def _pairs(cls, v: list[list[str]]) -> list[list[str]]:
        for pair in v:
            if len(pair) != 2:
                raise ValueError(f"each matchup is a pair of two fighters, got {pair}")
        return v


@dataclass
class Cell:
    """One run of the scenario: a matchup under a variant (and maybe a sweep value)."""

    a: Fighter
    b: Fighter
    variant: str
    options: RuleOptions
    compiled: Compiled
    sweep: str = ""
    value: str = ""

    @property
    def matchup(self) -> str:
        return f"{self.a.name} vs {self.b.name}"


@dataclass
class Scenario:
    """A validated scenario, expanded into cells."""

    spec: ScenarioSpec
    source: str
    fighters: dict[str, Fighter]
    variant_options: dict[str, RuleOptions]
    cells: list[Cell] = field(default_factory=list)
    differences: pd.DataFrame | None = None  # paired differences of neighbours, after a run

    @property
    def total_duels(self) -> int:
        return len(self.cells) * self.spec.n


def _value_label(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "none"
    if isinstance(value, dict):
        return value.get("name") or ", ".join(f"{k}={v}" for k, v in value.items())
    return str(value)


def load_scenario(path: str, catalog: Catalog | None = None, n: int | None = None) -> Scenario:
    """Read, validate and expand a scenario file; every problem is a :class:`DataError`.

    ``n`` overrides the file's duels per cell (quick previews).
    """
    catalog = catalog or Catalog.bundled()
    raw = read_toml(Path(path))
    spec = validate(ScenarioSpec, raw, path)
    if n is not None:
        if n <= 0:
            raise DataError("-n", None, f"duels per cell must be a positive integer, got {n}")
        spec = spec.model_copy(update={"n": n})
    base_dir = Path(path).parent

    def resolve_ref(ref: str) -> str:
        p = base_dir / ref
        return str(p) if (ref.endswith(".toml") and p.is_file()) else ref

    fighters: dict[str, Fighter] = {}

    def fighter(ref: str, where: str) -> Fighter:
        if ref not in fighters:
            try:
                fighters[ref] = catalog.fighter(resolve_ref(ref))
            except DataError as exc:
                inner = "" if exc.source == "fighter" else f"{exc.source}: "
                inner += f"{exc.field}: " if exc.field else ""
                raise DataError(path, where, inner + exc.message) from None
        return fighters[ref]

    for i, ref in enumerate(spec.fighters):
        fighter(ref, f"fighters[{i}]")
    pairs: list[tuple[str, str]] = []
    if spec.round_robin:
        if len(spec.fighters) < 2:
            raise DataError(path, "round_robin", "needs at least two fighters in 'fighters'")
        pairs += list(itertools.combinations(spec.fighters, 2))
    for i, (a, b) in enumerate(spec.matchups):
        fighter(a, f"matchups[{i}][0]")
        fighter(b, f"matchups[{i}][1]")
        pairs.append((a, b))
    if not pairs and not spec.sweeps:
        raise DataError(path, None, "nothing to run: give matchups, round_robin = true with fighters, or sweeps")

    rules = None
    if spec.rules:
        rules = str(base_dir / spec.rules) if (base_dir / spec.rules).is_file() else spec.rules
        if not Path(rules).is_file():
            raise DataError(path, "rules", f"rules file {spec.rules!r} not found (looked beside the scenario "
                            "and in the current folder)")
    variants = spec.variants or [VariantSpec(name="default")]
    names = [v.name for v in variants]
    if len(set(names)) != len(names):
        raise DataError(path, "variants", f"variant names must differ, got {names}")
    variant_options: dict[str, RuleOptions] = {}
    variant_rules: dict[str, tuple[RuleOptions, Any, Any]] = {}
    for i, v in enumerate(variants):
        merged = {**{k: str(x) for k, x in spec.options.items()}, **{k: str(x) for k, x in v.options.items()}}
        try:
            opts, zt = load_rules(rules, merged)
            formula = check_formula(rules, opts)
        except DataError as exc:
            key = f"variants[{i}].options" if v.options else "options"
            raise DataError(path, f"{key}.{exc.field}" if exc.field else key, exc.message) from None
        variant_options[v.name] = opts
        variant_rules[v.name] = (opts, zt, formula)

    scenario = Scenario(spec, path, fighters, variant_options)

    def add(a: Fighter, b: Fighter, vname: str, sweep: str = "", value: str = "") -> None:
        opts, zt, formula = variant_rules[vname]
        compiled = brutal_compiled(compile_pair(a, b, formula=formula), compile_options(opts), zt)
        scenario.cells.append(Cell(a, b, vname, opts, compiled, sweep, value))

    for v in variants:
        for a, b in pairs:
            add(fighters[a], fighters[b], v.name)
    for i, sw in enumerate(spec.sweeps):
        where = f"sweeps[{i}]"
        base = fighter(sw.fighter, f"{where}.fighter")
        opponents = sw.opponents or [b for a, b in pairs if a == sw.fighter] + [a for a, b in pairs if b == sw.fighter]
        if not opponents:
            raise DataError(path, f"{where}.opponents", "no opponent: list opponents or add matchups with this fighter")
        opponents = [fighter(o, f"{where}.opponents") for o in dict.fromkeys(opponents)]
        sweep_name = sw.name or f"{sw.fighter}.{sw.field}"
        for value in sw.values:
            varied = vary(base, sw.field, value, catalog, where=f"{path}: {where}")
            for opp in opponents:
                for v in variants:
                    add(varied, opp, v.name, sweep_name, _value_label(value))
    return scenario


ProgressFn = Callable[[int, int, str], None]


def _groups(scenario: Scenario) -> list[tuple[list[int], str]]:
    """Cells to replay together with common random numbers, and the label that changes along each:
    a sweep's values (same matchup and variant), or the variants of a plain matchup."""
    groups: dict[tuple, list[int]] = {}
    for i, c in enumerate(scenario.cells):
        key = ("value", c.sweep, c.variant, c.b.name) if c.sweep else ("variant", c.a.name, c.b.name)
        groups.setdefault(key, []).append(i)
    out = []
    for key, members in groups.items():
        tables = {scenario.cells[i].compiled.tables[0].tobytes() for i in members}
        caps = {scenario.cells[i].compiled.n_counters for i in members}
        if len(tables) == 1 and len(caps) == 1:
            out.append((members, key[0]))
        else:  # a zone table or round cap differs: no pairing, each cell on its own
            out.extend(([i], key[0]) for i in members)
    return out


def _label(scenario: Scenario, cell: Cell) -> str:
    label = cell.matchup + (f" [{cell.variant}]" if len(scenario.variant_options) > 1 else "")
    return label + (f" {cell.sweep}={cell.value}" if cell.sweep else "")


def run_scenario(scenario: Scenario, threads: int | None = None, progress: ProgressFn | None = None,
                 executor: Executor | None = None, client: Any = None) -> list[DuelResult]:
    """Run every cell; ``progress(duels done, total, label)`` is called as blocks finish.

    All cells use the scenario's seed and duel indices 0 … n−1 (common random numbers). Cells that
    differ only by a sweep value, or only by the rule variant, are replayed together, and the
    paired differences between neighbours are left in ``scenario.differences``. All groups are
    handed to the executor at once: ``client`` (a ``distributed.Client``) or ``executor`` run them
    side by side on a Dask cluster, with the same counters (``docs/cluster.md``).
    """
    spec = scenario.spec
    results: dict[int, DuelResult] = {}
    differences = []
    done = 0
    total = scenario.total_duels
    groups = _groups(scenario)
    labels = [_label(scenario, scenario.cells[m[0]]) + (f" … ({len(m)} cells)" if len(m) > 1 else "")
              for m, _ in groups]
    works = [paired_work([scenario.cells[i].compiled for i in members], spec.seed) for members, _ in groups]

    def step(work: int, size: int) -> None:
        nonlocal done
        done += size * len(groups[work][0])
        if progress:
            progress(done, total, labels[work])

    ran = run_works(works, spec.n, resolve(executor, client, threads), on_chunk=step)
    for (members, by), (counters, joint), elapsed in zip(groups, ran.totals, ran.seconds):
        cells = [scenario.cells[i] for i in members]
        joint = joint[: len(cells) - 1]
        group = []
        for i, cell, cnt in zip(members, cells, counters):
            r = DuelResult((cell.a.name, cell.b.name), spec.n, spec.seed, cell.options.as_dict(), cnt,
                           elapsed / len(cells), threads=numba.get_num_threads())
            r.labels.update(matchup=cell.matchup, variant=cell.variant, sweep=cell.sweep, value=cell.value)
            results[i] = r
            group.append(r)
        if len(group) > 1:
            differences.append(paired_differences(group, joint, by))
    scenario.differences = pd.concat(differences, ignore_index=True) if differences else None
    return [results[i] for i in range(len(scenario.cells))]
