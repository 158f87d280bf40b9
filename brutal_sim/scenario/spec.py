"""A scenario's models: the file's tables validated (:class:`ScenarioSpec`), the cells it expands
into (:class:`Scenario`), and what can be told from the file alone — every fighter reference and
the number of cells (:func:`estimated_cells`), bounded before anything is loaded."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Literal, Mapping

import pandas as pd
from pydantic import Field, field_validator

from .. import api
from ..core.data import StrictModel
from ..core.errors import DataError
from ..core.limits import MAX_NAME, check_value
from ..core.options import RuleOptions
from ..core.ruleset import Compiled, Prepared, Ruleset, get_ruleset, ruleset_names
from ..run.engine import Precision


class VariantSpec(StrictModel):
    """A rule variant: a name and the options it changes."""

    name: str = Field(max_length=MAX_NAME)
    options: dict[str, Any] = Field(default_factory=dict)
    description: str = ""


class SweepSpec(StrictModel):
    """One field of one fighter over a list of values."""

    name: str = Field("", max_length=MAX_NAME)
    fighter: str
    field: str = Field(max_length=MAX_NAME, description="dotted path in the fighter's data, e.g. main_hand.damage or "
                       "armour.0.protection")
    values: list[Any]
    opponents: list[str] = Field(default_factory=list)

    @field_validator("values")
    @classmethod
    def _some(cls, v: list[Any]) -> list[Any]:
        if not v:
            raise ValueError("needs at least one value")
        for k, value in enumerate(v):  # the bounds of every value that changes a fighter (core.limits)
            try:
                check_value(value, "values", f"values[{k}]")
            except DataError as exc:
                raise ValueError(f"values[{k}]: {exc.message}") from None
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


class SuggestSpec(StrictModel):
    """Suggested fixes (``brutal-sim suggest``) of the matchup ``a`` against ``b``, under each variant:
    the changes of ``side`` that bring a's win rate nearest ``target`` percent, each played."""

    a: str
    b: str
    target: float = Field(50.0, ge=0, le=100, description="side a's win rate to reach, in percent")
    budget: float | None = Field(None, ge=0, description="the most a suggestion may cost (the price list's unit); "
                                 "also tries triples")
    side: Literal["a", "b", "both"] = "a"
    stats: list[str] | None = Field(None, description="step only these stats (paths or patterns)")
    items: list[str] | None = Field(None, description="try the catalog's items only in these item slots ([] none; "
                                    "default every slot)")
    verify: int = Field(16, ge=1, le=1000, description="combinations of each size played")
    shown: int = Field(10, ge=1, le=100, description="suggestions listed")


class RateSpec(StrictModel):
    """Ratings and suggested points (``brutal-sim rate``) of ``fighters`` (default: the scenario's
    ``fighters``), a round robin or, with ``against``, a gauntlet against that pool, under each variant."""

    fighters: list[str] = Field(default_factory=list, description="the fighters rated (default: the scenario's "
                                "fighters)")
    against: list[str] = Field(default_factory=list, description="a fixed pool each fighter meets (a gauntlet)")
    reference: str | None = Field(None, description="the fighter whose points are given (default: the first)")
    points: float = Field(100.0, gt=0, le=1e9, description="the reference's points")
    given: dict[str, float] = Field(default_factory=dict, description="fighter name → the points it costs now "
                                    "(points efficiency and flags)")
    checks: int = Field(3, ge=0, le=20, description="equal-points pairs played to check the points")
    group_checks: int = Field(2, ge=0, le=10, description="N v M fights played to check the points")


class GauntletSpec(StrictModel):
    """A leaderboard (``brutal-sim gauntlet``): every catalog item that fits ``vary`` (a slot of the
    ruleset) in ``fighter``'s hands, or each of ``values``, against ``against`` (default: every other
    bundled fighter), under each variant."""

    fighter: str
    vary: str = Field(max_length=MAX_NAME, description="the slot: main_hand, off_hand, armour, talent, tactic …")
    against: list[str] = Field(default_factory=list, description="the pool (default: every other bundled fighter)")
    values: list[str] = Field(default_factory=list, description="only these items (default: every item that fits)")


class HeadcountSpec(StrictModel):
    """Head-count balance (``brutal-sim headcount``): group fights of one ``one`` against 1 … ``max``
    of ``many`` (rulesets that play group fights), under each variant."""

    one: str
    many: str
    max: int = Field(6, ge=1, le=6, description="the largest count tried (at most six a side)")


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
    suggest: list[SuggestSpec] = Field(default_factory=list)
    rate: list[RateSpec] = Field(default_factory=list)
    gauntlet: list[GauntletSpec] = Field(default_factory=list)
    headcount: list[HeadcountSpec] = Field(default_factory=list)
    costs: dict[str, Any] | None = Field(None, description="the price list (docs/reference.md#costs): unit, stats, "
                                         "items; over the ruleset's bundled one")

    @field_validator("matchups")
    @classmethod
    def _pairs(cls, v: list[list[str]]) -> list[list[str]]:
        for pair in v:
            if len(pair) != 2:
                raise ValueError(f"each matchup is a pair of two fighters, got {pair}")
        return v


@dataclass
class AnalysisJob:
    """One designer's question of the scenario (``[[weights]]``, ``[[suggest]]``, ``[[rate]]``) under
    one variant (or ruleset): its ``kind``, fighters loaded (``a`` and ``b``, or None where the
    question names more in ``params``), rules resolved, the entry's own arguments, and where the
    scenario file asks it (``gauntlet[0]``)."""

    kind: str
    label: str
    ruleset: Ruleset
    rules: str | None
    options: dict[str, str]
    a: Any
    b: Any
    params: dict[str, Any] = field(default_factory=dict)
    where: str = ""


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
    weight_jobs: list[AnalysisJob] = field(default_factory=list)
    weight_results: list[Any] = field(default_factory=list)  # designer.Weights per job, after a run
    analysis_jobs: list[AnalysisJob] = field(default_factory=list)
    analysis_results: list[Any] = field(default_factory=list)  # e.g. suggest.Suggestions per job, after a run
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


def value_label(value: Any) -> str:
    """A sweep value as the tables label it: a list joined, a table by its name or keys."""
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "none"
    if isinstance(value, dict):
        return value.get("name") or ", ".join(f"{k}={v}" for k, v in value.items())
    return str(value)


def fighter_refs(spec: ScenarioSpec) -> list[tuple[str, str]]:
    """Every fighter reference of the scenario and its field (a fight's ``NAME*N`` as ``NAME``)."""
    found = [(ref, f"fighters[{i}]") for i, ref in enumerate(spec.fighters)]
    found += [(ref, f"matchups[{i}][{k}]") for i, pair in enumerate(spec.matchups) for k, ref in enumerate(pair)]
    found += [(ref, f"sweeps[{i}].{key}") for i, sw in enumerate(spec.sweeps)
              for key, ref in [("fighter", sw.fighter), *((f"opponents[{j}]", o) for j, o in enumerate(sw.opponents))]]
    found += [(ref, f"weights[{i}].{key}") for i, w in enumerate(spec.weights) for key, ref in (("a", w.a), ("b", w.b))]
    found += [(ref, f"suggest[{i}].{key}") for i, w in enumerate(spec.suggest) for key, ref in (("a", w.a), ("b", w.b))]
    found += [(ref, f"rate[{i}].{key}[{k}]") for i, r in enumerate(spec.rate)
              for key, refs in (("fighters", r.fighters), ("against", r.against)) for k, ref in enumerate(refs)]
    found += [(ref, f"gauntlet[{i}].{key}") for i, g in enumerate(spec.gauntlet)
              for key, ref in [("fighter", g.fighter), *((f"against[{k}]", o) for k, o in enumerate(g.against))]]
    found += [(ref, f"headcount[{i}].{key}") for i, h in enumerate(spec.headcount)
              for key, ref in (("one", h.one), ("many", h.many))]
    for i, r in enumerate(spec.rate):
        found += [(r.reference, f"rate[{i}].reference")] if r.reference else []
        found += [(ref, f"rate[{i}].given.{ref}") for ref in r.given]
    for i, fs in enumerate(spec.fights):
        for key, side in (("a", fs.a), ("b", fs.b)):
            for j, ref in enumerate(side):
                name, star, count = ref.rpartition("*")
                found.append((name if star and count.strip().isdigit() else ref, f"fights[{i}].{key}[{j}]"))
    return found


def duelist_refs(spec: ScenarioSpec) -> list[str]:
    """The references the duels' ruleset is resolved from, when the scenario names none."""
    return [*spec.fighters, *itertools.chain(*spec.matchups), *(sw.fighter for sw in spec.sweeps),
            *(w.a for w in spec.weights), *(w.a for w in spec.suggest)]


#: the most cells (duel cells and group fights) a scenario expands into unless forced
MAX_CELLS = 10_000


#: how many items a stat pattern over a list (``armour.*.protection``) is counted as in the estimate
LIST_ITEMS = 3


def weights_cells() -> int:
    """The cells one ``[[weights]]`` entry plays under one variant, as estimated before any fighter
    is loaded: each stat a ruleset declares adjustable one step down, unchanged and one step up, a
    pattern over a list counted as :data:`LIST_ITEMS` stats (the ruleset with the most)."""
    return 3 * max(sum(LIST_ITEMS if ".*" in pattern[0] else 1 for pattern in get_ruleset(name).adjustable)
                   for name in ruleset_names())


def suggest_cells(entry: SuggestSpec) -> int:
    """The cells one ``[[suggest]]`` entry plays under one variant, as estimated before any fighter is
    loaded: the stat steps of its side (of both: twice) as :func:`weights_cells` counts them, and the
    combinations it verifies, ``verify`` pairs (and as many triples with a budget), each beside the
    matchup."""
    return weights_cells() * (2 if entry.side == "both" else 1) + 2 * entry.verify * (1 if entry.budget is None else 2)


#: how many items a ``[[gauntlet]]`` entry is counted as in the estimate (a slot of a bundled catalog)
GAUNTLET_ITEMS = 60


def rate_cells(entry: RateSpec, fighters: int) -> int:
    """The cells one ``[[rate]]`` entry plays under one variant: each pair of its fighters (of the
    scenario's ``fighters`` when it names none), or each fighter against each of its pool, and its
    checks."""
    k = len(entry.fighters) or fighters
    pairs = k * len(entry.against) if entry.against else k * (k - 1) // 2
    return pairs + entry.checks + entry.group_checks


def estimated_cells(spec: ScenarioSpec) -> int:
    """How many cells (duel cells, group fights and the duel cells of stat weights) ``spec`` expands
    into, counted from the file alone before anything is loaded or built: each matchup (a round
    robin of k fighters makes k(k−1)/2), each sweep value against each opponent, each fight and
    each ``[[weights]]`` entry (:func:`weights_cells`), each ``[[suggest]]`` entry (its stat steps and
    the combinations it verifies), under each variant or ruleset. An upper
    bound where repeats would be refused anyway."""
    k = len(spec.fighters)
    robin = k * (k - 1) // 2 if spec.round_robin else 0
    swept = 0
    for sw in spec.sweeps:
        opponents = len(sw.opponents) or (
            (k - 1 if spec.round_robin and sw.fighter in spec.fighters else 0)
            + sum(sw.fighter in pair for pair in spec.matchups))
        swept += len(sw.values) * opponents
    weights = len(spec.weights) * weights_cells() if spec.weights else 0
    runs = len(spec.rulesets) or max(len(spec.variants), 1)
    return runs * (robin + len(spec.matchups) + swept + len(spec.fights) + weights + question_cells(spec))


def question_cells(spec: ScenarioSpec) -> int:
    """The cells the designer's questions of ``spec`` play under one variant (besides
    ``[[weights]]``): each ``[[suggest]]`` (:func:`suggest_cells`), ``[[rate]]`` (:func:`rate_cells`),
    ``[[gauntlet]]`` (:data:`GAUNTLET_ITEMS` items against each opponent, beside their baselines) and
    ``[[headcount]]`` (one fight cell per count)."""
    return (sum(suggest_cells(s) for s in spec.suggest) + sum(rate_cells(r, len(spec.fighters)) for r in spec.rate)
            + sum(2 * GAUNTLET_ITEMS * max(len(g.against), 1) for g in spec.gauntlet)
            + sum(h.max for h in spec.headcount))


def check_size(spec: ScenarioSpec, path: str, max_cells: int | None, names: Mapping[str, str]) -> int:
    """The estimated cells of ``spec`` (:func:`estimated_cells`); more than ``max_cells`` (None: no
    limit) is a :class:`DataError` naming the estimate and the limit."""
    cells = estimated_cells(spec)
    if max_cells is not None and cells > max_cells:
        force = names.get("force", "force")
        raise DataError(path, None, f"about {cells:,} cells (matchups, sweep values, fights and stat weights, "
                        f"times variants); allowed: at most {max_cells:,} cells, or more with {force}")
    return cells
