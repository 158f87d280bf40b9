"""A scenario file turned into prepared runs (:func:`load_scenario`): the rulesets, rules and
options of each variant, every fighter loaded once per ruleset, and the cells of the matchups,
sweeps, ``[[weights]]`` and ``[[fights]]`` — every problem a :class:`DataError` before anything runs."""

from __future__ import annotations

import itertools
from typing import Any, Callable, Mapping, NamedTuple

from ..api import prepare_fight
from ..core.costs import Costs, costs_for, require_stat
from ..core.errors import DataError
from ..core.ruleset import Ruleset, get_ruleset, resolve_ruleset
from ..core.sides import expand_side
from ..core.variants import short_labels, vary
from ..results.fight import side_name
from .files import References, fighter_key, read_spec
from .spec import (
    MAX_CELLS,
    AnalysisJob,
    Cell,
    FightCell,
    Scenario,
    ScenarioSpec,
    VariantSpec,
    check_size,
    duelist_refs,
    fighter_refs,
    value_label,
)


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
    _add_suggest(scenario, runs, fighters)
    _add_rate(scenario, runs, fighters)
    _add_gauntlets(scenario, runs, fighters)
    if spec.fights:
        _add_fights(scenario, runs, refs)
    return scenario


def check_sets(spec: ScenarioSpec, refs: References) -> None:
    """Each key of ``refs.sets`` names one fighter of the scenario (:func:`fighter_key` of a
    reference anywhere in it): an unknown key, or one naming two different fighter files, is a
    :class:`DataError` from ``--set`` that lists the keys allowed."""
    known: dict[str, set[str]] = {}
    for ref, _ in fighter_refs(spec):
        known.setdefault(fighter_key(ref), set()).add(refs.identity(ref))
    allowed = ", ".join(known) or "none (the scenario names no fighter)"
    for key in refs.sets:
        if key not in known:
            raise DataError("--set", None, f"{key!r} is no fighter of the scenario; allowed: {allowed}")
        if len(known[key]) > 1:
            raise DataError("--set", None, f"{key!r} names {len(known[key])} different fighter files of the scenario; "
                            "give them different file names to change one")


def _pairs(spec: ScenarioSpec, path: str) -> list[tuple[str, str]]:
    """The matchups: the round robin's pairs, then the explicit ones; a scenario with nothing to run
    is an error."""
    pairs: list[tuple[str, str]] = []
    if spec.round_robin:
        if len(spec.fighters) < 2:
            raise DataError(path, "round_robin", "needs at least two fighters in 'fighters'")
        pairs += list(itertools.combinations(spec.fighters, 2))
    pairs += [(a, b) for a, b in spec.matchups]
    asked = spec.weights or spec.suggest or spec.rate or spec.gauntlet or spec.headcount
    if not pairs and not spec.sweeps and not spec.fights and not asked:
        raise DataError(path, None, "nothing to run: give matchups, round_robin = true with fighters, sweeps, "
                        "[[fights]], [[weights]], [[suggest]], [[rate]], [[gauntlet]] or [[headcount]]")
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
    duelists = [refs.fighter(r) for r in duelist_refs(spec)]
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
        pairs = (("weights", spec.weights), ("suggest", spec.suggest))
        refs_at += [(ref, f"{kind}[{i}].{key}") for kind, entries in pairs
                    for i, w in enumerate(entries) for key, ref in (("a", w.a), ("b", w.b))]
        refs_at += [(ref, f"rate[{i}].{key}[{k}]") for i, r in enumerate(spec.rate)
                    for key, refs in (("fighters", r.fighters), ("against", r.against)) for k, ref in enumerate(refs)]
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


def _pair(scenario: Scenario, fighters: _Fighters, run: Run, kind: str, i: int, a: str, b: str) -> tuple[Any, Any]:
    """The fighters ``a`` and ``b`` of the entry ``kind[i]`` under ``run``, their matchup checked now."""
    label, rs, rules, options, where = run
    fa, fb = fighters.get(rs, a, f"{kind}[{i}].a"), fighters.get(rs, b, f"{kind}[{i}].b")
    try:
        rs.prepare(fa, fb, rules, options)
    except DataError as exc:
        raise DataError(scenario.source, where, _nested(exc)) from None
    return fa, fb


def _add_weights(scenario: Scenario, runs: list[Run], fighters: _Fighters) -> None:
    """The stat-weight jobs of ``[[weights]]``: each under each run, its matchup checked now."""
    for i, w in enumerate(scenario.spec.weights):
        for run in runs:
            a, b = _pair(scenario, fighters, run, "weights", i, w.a, w.b)
            costs = _costs(scenario, run.ruleset, run.rules)
            scenario.weight_jobs.append(AnalysisJob("weights", run.label, run.ruleset, run.rules, run.options, a, b,
                                                    {"costs": costs}, f"weights[{i}]"))


def _costs(scenario: Scenario, rs: Ruleset, rules: str | None) -> Costs | None:
    """The scenario's ``[costs]`` over the rules file's and the ruleset's bundled ones, checked
    against ``rs`` now (None: the scenario has none)."""
    if scenario.spec.costs is None:
        return None
    return costs_for(rs, rules, scenario.spec.costs, scenario.source)


def _add_suggest(scenario: Scenario, runs: list[Run], fighters: _Fighters) -> None:
    """The jobs of ``[[suggest]]``: each under each run, its matchup and stats checked now."""
    for i, s in enumerate(scenario.spec.suggest):
        for run in runs:
            a, b = _pair(scenario, fighters, run, "suggest", i, s.a, s.b)
            for k, stat in enumerate(s.stats or []):
                require_stat(run.ruleset, stat, scenario.source, f"suggest[{i}].stats[{k}]")
            for k, slot in enumerate(s.items or []):
                try:
                    run.ruleset.item_slot(slot)
                except DataError as exc:
                    raise DataError(scenario.source, f"suggest[{i}].items[{k}]", exc.message) from None
            params = s.model_dump()
            del params["a"], params["b"]
            params["costs"] = _costs(scenario, run.ruleset, run.rules)
            scenario.analysis_jobs.append(AnalysisJob("suggest", run.label, run.ruleset, run.rules, run.options, a, b,
                                                      params, f"suggest[{i}]"))


def _add_rate(scenario: Scenario, runs: list[Run], fighters: _Fighters) -> None:
    """The jobs of ``[[rate]]``: each under each run, its fighters (the scenario's ``fighters`` when it
    names none) and pool loaded now, at least two fighters."""
    for i, r in enumerate(scenario.spec.rate):
        names = r.fighters or scenario.spec.fighters
        where = f"rate[{i}].fighters" if r.fighters else "fighters"
        if len(names) + len(r.against) < 2:
            raise DataError(scenario.source, f"rate[{i}].fighters", "name two fighters or more (or the scenario's "
                            "fighters)")
        keys = [fighters.refs.identity(ref) for ref in names]
        for k, key in enumerate(keys):
            if keys.index(key) != k:
                first = keys.index(key)
                raise DataError(scenario.source, f"{where}[{k}]", f"{names[k]!r} is already {where}[{first}]; list "
                                "each fighter once")
        if r.against and not any(key != fighters.refs.identity(ref) for key in keys for ref in r.against):
            raise DataError(scenario.source, f"rate[{i}].against", "no pair to play: the pool holds only the fighter "
                            "rated; add another fighter to either")
        for label, rs, rules, options, _ in runs:
            rated = [fighters.get(rs, ref, f"{where}[{k}]") for k, ref in enumerate(names)]
            pool = [fighters.get(rs, ref, f"rate[{i}].against[{k}]") for k, ref in enumerate(r.against)]
            reference = None if r.reference is None else fighters.get(rs, r.reference, f"rate[{i}].reference").name
            given = {fighters.get(rs, ref, f"rate[{i}].given.{ref}").name: p for ref, p in r.given.items()}
            among = [f.name for f in rated + pool]
            for name, field in [(reference, f"rate[{i}].reference")] + [(n, f"rate[{i}].given") for n in given]:
                if name is not None and name not in among:
                    raise DataError(scenario.source, field, f"{name!r} is not among the fighters rated; give one of "
                                    f"{', '.join(dict.fromkeys(among))}")
            params = {"fighters": rated, "pool": pool or None, "reference": reference,
                      "reference_points": r.points, "points": given or None, "checks": r.checks,
                      "group_checks": r.group_checks}
            scenario.analysis_jobs.append(AnalysisJob("rate", label, rs, rules, options, None, None, params,
                                                      f"rate[{i}]"))


def _add_gauntlets(scenario: Scenario, runs: list[Run], fighters: _Fighters) -> None:
    """The jobs of ``[[gauntlet]]`` and ``[[headcount]]``: each under each run, the fighters loaded
    now, the slot one the ruleset has, group fights where the ruleset plays them."""
    spec = scenario.spec
    for i, g in enumerate(spec.gauntlet):
        for run in runs:
            try:
                run.ruleset.item_slot(g.vary)
            except DataError as exc:
                raise DataError(scenario.source, f"gauntlet[{i}].vary", exc.message) from None
            fighter = fighters.get(run.ruleset, g.fighter, f"gauntlet[{i}].fighter")
            pool = [fighters.get(run.ruleset, ref, f"gauntlet[{i}].against[{k}]") for k, ref in enumerate(g.against)]
            params = {"fighter": fighter, "vary": g.vary, "against": pool or None, "values": g.values or None}
            scenario.analysis_jobs.append(AnalysisJob("gauntlet", run.label, run.ruleset, run.rules, run.options,
                                                      None, None, params, f"gauntlet[{i}]"))
    for i, h in enumerate(spec.headcount):
        for run in runs:
            run.ruleset.require("fights", f"{scenario.source}: headcount[{i}]")
            one = fighters.get(run.ruleset, h.one, f"headcount[{i}].one")
            many = fighters.get(run.ruleset, h.many, f"headcount[{i}].many")
            scenario.analysis_jobs.append(AnalysisJob("headcount", run.label, run.ruleset, run.rules, run.options,
                                                      one, many, {"max_count": h.max}, f"headcount[{i}]"))


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
            m = values.setdefault(value_label(value), k)
            if m != k:
                raise DataError(path, f"sweeps[{i}].values", f"{value_label(value)!r} is listed twice (values[{m}] "
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
            matchup = fs.label or (f"{side_name([f.name for f in prepared.a])} vs "
                                   f"{side_name([f.name for f in prepared.b])}")
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
                              value_label(value))
