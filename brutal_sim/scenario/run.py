"""A loaded scenario played (:func:`run_scenario`): cells that differ by one sweep value or one
variant replayed together on common random numbers, group fights each against their baseline, then
the ``[[weights]]`` and ``[[suggest]]`` jobs."""

from __future__ import annotations

from typing import Any, Callable

import pandas as pd

from ..api import fight_result_of, result_of
from ..core.errors import DataError
from ..core.ruleset import Compiled, get_ruleset
from ..designer import stat_weights
from ..gauntlet import gauntlet, headcount
from ..rate import rate
from ..results.duel import DuelResult
from ..results.frames import paired_differences
from ..results.header import rates_half_width
from ..run.engine import paired_work, run_to_precision, unpaired
from ..run.executor import Executor, Rehearsal, Rehearsed, run_works
from ..run.factory import resolve
from ..suggest import suggest
from .spec import AnalysisJob, Cell, Scenario

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
    """The groups (key: the changing label first) whose members share the ruleset's drivers, the
    tables and the round cap (:func:`~brutal_sim.run.engine.unpaired`); members of other groups run
    on their own."""
    out = []
    for key, members in groups.items():
        if unpaired([compiled[i] for i in members]) is None:
            out.append((members, key[0]))
        else:  # a table (e.g. Brutal's zone table) or the round cap differs: each cell on its own
            out.extend(([i], key[0]) for i in members)
    return out


def _label(scenario: Scenario, cell: Cell) -> str:
    label = cell.matchup + (f" [{cell.variant}]" if len(scenario.variant_options) > 1 else "")
    return label + (f" {cell.sweep}={cell.value}" if cell.sweep else "")


def _batch_label(scenario: Scenario, members: list[int]) -> str:
    """The progress line's name of a batch of cells played together: the one cell's label, or what
    the cells share and what changes along them — a sweep's values (``Swordsman vs Brute
    main_hand.damage = d6 … d12, 4 values``) or the variants of a matchup (``Swordsman vs Brute under 3
    variants: A … C``)."""
    cells = [scenario.cells[i] for i in members]
    first = cells[0]
    if len(cells) == 1:
        return _label(scenario, first)
    several = len(scenario.variant_options) > 1
    if first.sweep:
        where = first.matchup + (f" [{first.variant}]" if several else "")
        return f"{where} {first.sweep} = {cells[0].value} … {cells[-1].value}, {len(cells)} values"
    return f"{first.matchup} under {len(cells)} variants: {cells[0].variant} … {cells[-1].variant}"


def rehearse(scenario: Scenario) -> None:
    """Ask each of the scenario's questions (``[[weights]]``, ``[[suggest]]``, …) on an executor
    that plays nothing (:class:`~brutal_sim.run.executor.Rehearsal`): every check a question makes
    of its entry runs before the scenario's first duel, and a refusal names the file and the entry
    (:class:`DataError`)."""
    spec = scenario.spec
    for job in scenario.weight_jobs + scenario.analysis_jobs:
        try:
            run_analysis(job, spec.n, spec.seed, None, Rehearsal(), None, None, spec.target_error, spec.max_n)
        except Rehearsed:
            continue
        except DataError as exc:
            told = (f"{exc.field}: " if exc.field else "") + exc.message
            raise DataError(scenario.source, job.where, told if exc.source == job.kind else f"{exc.source}: {told}"
                            ) from None
        raise RuntimeError(f"{job.where}: a question played without its executor")


def run_analysis(job: AnalysisJob, n: int, seed: int, threads: int | None, executor: Executor | None, client: Any,
                 progress: Callable[[int, int], None] | None, target_error: float | None = None,
                 max_n: int | None = None) -> Any:
    """One designer's question of the scenario (``[[weights]]``, ``[[suggest]]``, ``[[rate]]``,
    ``[[gauntlet]]``, ``[[headcount]]``), its result labelled with the job's variant."""
    common = {"n": n, "seed": seed, "options": job.options, "rules": job.rules, "ruleset": job.ruleset.name,
              "threads": threads, "executor": executor, "client": client, "progress": progress}
    if job.kind == "weights":
        return stat_weights(job.a, job.b, n, seed, job.options, job.rules, job.ruleset.name, threads, executor,
                            client, target_error, max_n, label=job.label, progress=progress,
                            costs=job.params["costs"])
    if job.kind == "suggest":
        result: Any = suggest(job.a, job.b, **common, **job.params)
    elif job.kind == "rate":
        result = rate(**common, **job.params)
    elif job.kind == "gauntlet":
        result = gauntlet(**common, **job.params)
    elif job.kind == "headcount":
        del common["progress"]  # its fights report no progress
        result = headcount(job.a, job.b, **common, **job.params)
    else:
        raise ValueError(f"unknown analysis {job.kind!r}")
    result.label = job.label
    return result


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
    rehearse(scenario)
    results: dict[int, DuelResult] = {}
    fight_results: dict[int, Any] = {}
    differences = []
    done = 0
    total = scenario.total_duels
    groups = _groups(scenario)
    fight_groups = _fight_groups(scenario)
    several = len(scenario.variant_options) > 1
    labels = [_batch_label(scenario, m) for m, _ in groups]
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
        run_analysis(job, spec.n, spec.seed, threads, executor, client,
                     None if progress is None else lambda _d, _t, label=job.label: progress(done, total, label),
                     spec.target_error, spec.max_n)
        for job in scenario.weight_jobs]
    scenario.analysis_results = [
        run_analysis(job, spec.n, spec.seed, threads, executor, client,
                     None if progress is None else lambda _d, _t, label=job.label: progress(done, total, label))
        for job in scenario.analysis_jobs]
    return [results[i] for i in range(len(scenario.cells))]
