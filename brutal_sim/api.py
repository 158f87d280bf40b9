"""The Python API: load fighters, run duels and single attacks under any registered ruleset.

>>> from brutal_sim import api
>>> r = api.duel("swordsman", "brute", n=100_000, seed=7)
>>> r.to_dict()["a"]["win_rate"]  # doctest: +SKIP
>>> api.duel("orc", "goblin", ruleset="wfrp2e")  # doctest: +SKIP
>>> api.fight(["knight"], ["militia*3"], n=10_000).to_dict()["a"]["win_rate"]  # doctest: +SKIP
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Any, Iterator, Mapping, Sequence, TypedDict, Unpack

import numba
import numpy as np

from .core.errors import DataError
from .core.ruleset import Prepared, PreparedFight, Ruleset, get_ruleset, resolve_ruleset
from .core.sides import expand_side
from .results.duel import AttackResult, DuelResult
from .results.fight import FightResult
from .results.header import excludes, rates_half_width
from .run.engine import Precision, ProgressFn, duel_work, run, run_attack_counters, run_to_precision
from .run.executor import Executor
from .run.factory import resolve
from .toolbox.compiling import watching

FighterRef = Any  # a catalog name, a TOML path or a ruleset's fighter object


def renamed(exc: DataError, names: Mapping[str, str] | None = None) -> DataError:
    """``exc`` with the argument it names worded as the caller calls it: ``names`` maps this
    API's argument names to the caller's (``{"options": "--option"}`` from the CLI,
    ``{"tactic_a": "tactics_a"}`` from the designer); without it errors name the arguments as the
    API calls them (``options: armor_model: unknown rule option; did you mean …``)."""
    return exc.worded(names or {})


@contextmanager
def named_errors(names: Mapping[str, str] | None = None) -> Iterator[None]:
    """Inside the block, :class:`DataError` s of the loaders name arguments as in :func:`renamed`."""
    try:
        yield
    except DataError as exc:
        raise renamed(exc, names) from None


def fighter_ref(ref: FighterRef) -> FighterRef:
    """A fighter reference as the loaders take it: an ``os.PathLike`` (``pathlib.Path``) as its
    path text, anything else as it is."""
    return os.fspath(ref) if isinstance(ref, os.PathLike) else ref


def fighter_refs(refs: Any, name: str, source: str | None = None) -> list[FighterRef]:
    """A list of fighter references (:func:`fighter_ref` each); a single text or path where the
    list is due is a :class:`DataError` naming ``name`` (of ``source``, if given)."""
    if isinstance(refs, (str, bytes, os.PathLike)) or not isinstance(refs, (list, tuple)):
        message = (f"expected a list of fighters (names, TOML paths or fighter objects), got "
                   f"{type(refs).__name__} {refs!r}")
        raise DataError(source, name, message) if source else DataError(name, None, message)
    return [fighter_ref(r) for r in refs]


def check_options(options: Any, name: str = "options") -> Mapping[str, Any] | None:
    """``options`` is None or a mapping of rule option names to values (``{"armor_model": "b"}``)."""
    if options is not None and not isinstance(options, Mapping):
        raise DataError(name, None, f"expected a mapping of rule option = value (e.g. {{'armor_model': 'b'}}) "
                        f"or None, got {type(options).__name__} {options!r}")
    return options


def check_rules(rules: Any, name: str = "rules") -> str | None:
    """``rules`` is None or a rules file's path (text or ``os.PathLike``), as text."""
    if isinstance(rules, os.PathLike):
        rules = os.fspath(rules)
    if rules is not None and not isinstance(rules, str):
        raise DataError(name, None, f"expected a rules TOML file's path or None, got {type(rules).__name__} {rules!r}")
    return rules


def check_name(value: Any, name: str) -> str | None:
    """``value`` (a ruleset, tactic, reaction or targeting name) is None or a text."""
    if value is not None and not isinstance(value, str):
        raise DataError(name, None, f"expected a name (text) or None, got {type(value).__name__} {value!r}")
    return value


def plain(value: Any) -> Any:
    """A numpy scalar as the Python value it holds (``np.int64(3)`` → ``3``); anything else as it is."""
    return value.item() if isinstance(value, np.generic) else value


def values_of(values: Any, source: str, name: str = "values") -> list[Any]:
    """The values of a search or sweep as a list of Python values: a list, tuple, range or numpy
    array (its numpy scalars as Python numbers); anything else is a :class:`DataError`."""
    if isinstance(values, np.ndarray):
        values = values.tolist()
    if not isinstance(values, (list, tuple, range)):
        raise DataError(source, name, f"expected a list of values (list, tuple, range or numpy array), "
                        f"got {type(values).__name__} {values!r}")
    return [plain(v) for v in values]


def load_fighter(ref: FighterRef, ruleset: str | None = None, role: str = "fighter") -> Any:
    """A fighter by catalog name or TOML path (text or ``os.PathLike``; a fighter object passes through)."""
    ref = fighter_ref(ref)
    return resolve_ruleset([ref], check_name(ruleset, "ruleset")).load_fighter(ref, role)


def prepare(a: FighterRef, b: FighterRef, rules: str | None = None, options: Mapping[str, str] | None = None,
            tactic_a: str | None = None, reaction_a: str | None = None,
            tactic_b: str | None = None, reaction_b: str | None = None,
            ruleset: str | None = None, names: Mapping[str, str] | None = None) -> tuple[Ruleset, Prepared]:
    """Resolve the ruleset, then load, validate and compile a matchup and its rules.

    A bad argument is a :class:`DataError` naming it as ``names`` maps it (default: as this
    function calls it, e.g. ``options: armor_model: unknown rule option; did you mean …``); the
    CLI passes its flags (``{"options": "--option", "tactic_a": "--tactic-a", …}``)."""
    with named_errors(names):
        a, b = fighter_ref(a), fighter_ref(b)
        rules, options = check_rules(rules), check_options(options)
        tactic_a, reaction_a, tactic_b, reaction_b = (
            check_name(v, k) for k, v in (("tactic_a", tactic_a), ("reaction_a", reaction_a),
                                          ("tactic_b", tactic_b), ("reaction_b", reaction_b)))
        rs = resolve_ruleset([a, b], check_name(ruleset, "ruleset"))
        return rs, rs.prepare(a, b, rules, options, tactic_a, reaction_a, tactic_b, reaction_b)


#: the most duels (fights, attacks) of one run: about a week on two cores; the chunks of a run are
#: listed before it starts, and far larger numbers would fill the memory instead
MAX_N = 10**12


def check_n(n: int, name: str = "n", what: str = "duels") -> int:
    """``n`` is a positive integer up to :data:`MAX_N` (``name``: how the caller calls it, e.g.
    the CLI's ``-n``); returned as a Python ``int`` (a numpy integer is converted)."""
    if not isinstance(n, (int, np.integer)) or isinstance(n, (bool, np.bool_)) or n <= 0:
        raise DataError(name, None, f"number of {what} must be a positive integer, got {n!r}")
    if n > MAX_N:
        raise DataError(name, None, f"number of {what} must be at most 10**12, got {n!r}")
    return int(n)


#: the default most duels of a run played to a target error
MAX_N_DEFAULT = 100_000_000


def precision_of(target_error: float | None, max_n: int = MAX_N_DEFAULT,
                 names: Mapping[str, str] | None = None, threshold: float | None = None) -> Precision | None:
    """A target error in percentage points (``0.1``: every reported rate's 95 % Wilson half-width
    at most 0.1 points) and the most duels, as a :class:`~brutal_sim.run.engine.Precision`; None
    without a target. With ``threshold`` (a win rate), a run also stops once the interval of a's
    win rate excludes it. Bad values are a :class:`DataError` naming ``target_error`` / ``max_n``
    (or ``names[...]``)."""
    names = names or {}
    if target_error is None:
        return None
    if (not isinstance(target_error, (int, float, np.integer, np.floating)) or isinstance(target_error, bool)
            or not 0 < float(target_error) <= 50):
        raise DataError(names.get("target_error", "target_error"), None,
                        f"target error must be percentage points above 0 and at most 50, got {target_error!r}")
    max_n = check_n(max_n, names.get("max_n", "max_n"))
    return Precision(float(target_error) / 100, max_n, threshold=threshold)


def _played(layouts_of: Sequence[Any], kernel_args: Sequence[Any], n: int, seed: int, threads: int | None,
            progress: ProgressFn | None, executor: Executor | None, prec: Precision | None
            ) -> list[tuple[np.ndarray, int, float, dict[str, Any]]]:
    """Counters, n, seconds and precision facts of each work: ``n`` duels each, or each to ``prec``."""
    works = [duel_work(p.compiled.kernels.duels, p.compiled, seed) for p in kernel_args]
    if prec is None:
        r = run(works, n, threads, progress=progress, executor=executor)
        return [(totals[0], n, seconds, {}) for totals, seconds in zip(r.totals, r.seconds)]
    layouts = list(layouts_of)
    pr = run_to_precision(works, prec, lambda w, totals, k: (rates_half_width(layouts[w], totals[0], k),
                                                             excludes(layouts[w], totals[0], k, prec.threshold)),
                          threads, progress=progress, executor=executor)
    early = {} if prec.threshold is None else {"threshold": prec.threshold}
    return [(pr.totals[w][0], pr.n[w], pr.seconds[w],
             {"target_error": prec.target, "half_width": pr.half_width[w], "target_met": pr.met[w],
              **({"decided": pr.decided[w]} if early else {}), **early})
            for w in range(len(works))]


def check_seed(seed: int, name: str = "seed") -> int:
    """``seed`` is an integer 0 … 2**64−1, returned as a Python ``int`` (a numpy integer is converted)."""
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, (bool, np.bool_)) or not 0 <= int(seed) < 2**64:
        raise DataError(name, None, f"seed must be an integer 0 … 2**64−1, got {seed!r}")
    return int(seed)


def check_threads(threads: int | None, name: str = "threads") -> int | None:
    """``threads`` is None (all cores) or 1 … numba's thread count, returned as a Python ``int``."""
    if threads is not None and (not isinstance(threads, (int, np.integer)) or isinstance(threads, (bool, np.bool_))
                                or not 1 <= int(threads) <= numba.config.NUMBA_NUM_THREADS):  # type: ignore[attr-defined]
        raise DataError(name, None, f"must be 1 … {numba.config.NUMBA_NUM_THREADS} on this machine, got {threads!r}")  # type: ignore[attr-defined]
    return None if threads is None else int(threads)


class Behaviour(TypedDict, total=False):
    """The keyword overrides of :func:`duel`: a side's tactic or reaction instead of its file's."""

    tactic_a: str | None
    reaction_a: str | None
    tactic_b: str | None
    reaction_b: str | None


def duel(a: FighterRef, b: FighterRef, n: int = 100_000, seed: int = 0, rules: str | None = None,
         options: Mapping[str, str] | None = None, threads: int | None = None,
         progress: ProgressFn | None = None, labels: Mapping[str, str] | None = None,
         ruleset: str | None = None, executor: Executor | None = None, client: Any = None,
         target_error: float | None = None, max_n: int = MAX_N_DEFAULT,
         **overrides: Unpack[Behaviour]) -> DuelResult:
    """Play ``n`` duels of ``a`` against ``b`` and return their counters.

    With ``target_error`` (percentage points) play instead until every reported rate's 95 %
    Wilson half-width is at most that, or ``max_n`` duels (:func:`precision_of`); the result's
    ``precision`` then holds ``target_error``, ``half_width`` and ``target_met``.

    ``ruleset`` picks the rules (default: from the fighter files, else Brutal). ``labels``
    (``matchup``, ``variant``, ``sweep``, ``value``) name the run in tidy frames and plots; the
    matchup defaults to "A vs B". ``client`` (a ``distributed.Client``) or ``executor`` (a
    :class:`~brutal_sim.run.executor.Executor`) run the duels elsewhere, e.g. on a Dask cluster, with
    the same counters (``docs/cluster.md``).
    """
    n, seed, threads = check_n(n), check_seed(seed), check_threads(threads)
    prec = precision_of(target_error, max_n)
    matchup = prepare(a, b, rules, options, ruleset=ruleset, **overrides)
    return duels([matchup], n, seed, threads, progress, [labels] if labels else None, executor, client, prec)[0]


def duels(prepared: Sequence[tuple[Ruleset, Prepared]], n: int, seed: int = 0, threads: int | None = None,
          progress: ProgressFn | None = None, labels: Sequence[Mapping[str, str]] | None = None,
          executor: Executor | None = None, client: Any = None,
          precision: Precision | None = None) -> list[DuelResult]:
    """Play ``n`` duels of each prepared matchup (from :func:`prepare`), all handed to the executor
    at once so that a cluster runs them side by side; ``progress(duels done, total)``. With
    ``precision``, each matchup plays to its target instead (``n`` is unused)."""
    n, seed, threads = check_n(n), check_seed(seed), check_threads(threads)
    played = _played([rs.counters for rs, _ in prepared], [p for _, p in prepared], n, seed, threads, progress,
                     resolve(executor, client, threads), precision)
    results = []
    for i, ((rs, p), (counters, k, seconds, facts)) in enumerate(zip(prepared, played)):
        result = result_of(rs, p, counters, k, seed, seconds, labels[i] if labels else None)
        result.precision.update(facts)
        results.append(result)
    return results


def result_of(rs: Ruleset, p: Prepared, counters: np.ndarray, n: int, seed: int, elapsed: float,
              labels: Mapping[str, str] | None = None) -> DuelResult:
    """Wrap a prepared matchup's counters as a :class:`DuelResult`."""
    result = DuelResult((p.a.name, p.b.name), n, seed, p.options.as_dict(), counters, elapsed,
                        threads=numba.get_num_threads(), behaviour=(rs.behaviour(p.a), rs.behaviour(p.b)),
                        layout=rs.counters, ruleset=rs.name)
    result.labels.update({"matchup": f"{p.a.name} vs {p.b.name}", **(labels or {})})
    return result


def attack(a: FighterRef, b: FighterRef, n: int | None = None, seed: int = 0, rules: str | None = None,
           options: Mapping[str, str] | None = None, threads: int | None = None,
           tactic: str | None = None, reaction: str | None = None, ruleset: str | None = None,
           executor: Executor | None = None, client: Any = None, shot: str | None = None) -> AttackResult:
    """Outcome distribution of one attack by ``a`` on a fresh ``b``.

    Exact by enumeration when ``n`` is None, else sampled from ``n`` attacks (on ``client`` /
    ``executor`` if given, as in :func:`duel`). ``tactic`` and
    ``reaction`` override a's tactic and b's reaction.

    At a distance the attack is the first shot that a's tactic fires in its first turn, after that
    turn's own steps before it, and the result says which shot and from where (``shot``,
    ``distance``, ``measured``). Vereteno: bracing, lying down, readying (``start_ready = no``), a
    reload, an advance or a move away (``keep_distance``) come first, a thrower's moves to its
    item's effective range too (V-15; ``braced_aimed`` in cover: a braced standard shot); after a
    draw of its melee weapon, its first melee attack. WFRP 2e: its moves, reload, aim or swift
    attack (W-8.9 – W-8.11; a kiter close to its foe moves away and shoots unaimed). Brutal: a
    shooter (B-8) aims (+1) and shoots from the ``start_distance`` option, fired in melee at 0.
    ``shot`` measures another shot kind (``Ruleset.shot_kinds``; Vereteno ``hip``, ``standard``,
    ``aimed``, ``burst``, ``throw``: the first turn of the tactic with that ``shot``; WFRP 2e
    ``aimed``, ``unaimed``: the first turn's first shot aimed or not); an unknown kind is a
    :class:`DataError` naming ``shot``. (Brutal: with paired weapons this is the action's first
    (main-hand) attack, of an unarmed full attack (B-9.2) its first hit; a feint's +1 is included
    with its probability.)
    """
    matchup = prepare(a, b, rules, options, tactic_a=tactic, reaction_b=reaction, ruleset=ruleset,
                      names={"tactic_a": "tactic", "reaction_b": "reaction"})
    if shot is not None:
        matchup = with_shot(matchup, shot)
    return attack_of(matchup, n, seed, threads, executor=executor, client=client)


def with_shot(prepared: tuple[Ruleset, Prepared], shot: Any,
              names: Mapping[str, str] | None = None) -> tuple[Ruleset, Prepared]:
    """A matchup prepared by :func:`prepare` whose single attack measures a shot of kind ``shot``
    instead of the tactic's (``Ruleset.with_shot``); a kind the ruleset does not know is a
    :class:`DataError` naming ``shot`` (or ``names["shot"]``) and the allowed kinds, raised before
    any kernel is compiled."""
    rs, p = prepared
    with named_errors(names):
        return rs, rs.with_shot(p, shot)


def check_attack(prepared: tuple[Ruleset, Prepared], names: Mapping[str, str] | None = None) -> None:
    """Raise :class:`DataError` naming ``tactic`` (or ``names["tactic_a"]``) if side a's tactic makes
    no attack that :func:`attack_of` can measure: before any kernel is compiled for it."""
    rs, p = prepared
    with named_errors({"tactic_a": "tactic", **(names or {})}), watching():  # its first-turn kernels: one notice
        rs.check_attack(p)


def attack_of(prepared: tuple[Ruleset, Prepared], n: int | None = None, seed: int = 0, threads: int | None = None,
              executor: Executor | None = None, client: Any = None,
              names: Mapping[str, str] | None = None, progress: ProgressFn | None = None) -> AttackResult:
    """:func:`attack` of a matchup prepared by :func:`prepare` (its tactic and reaction overrides
    already applied, and :func:`with_shot`'s). A's tactic making no attack is a :class:`DataError`
    naming ``tactic`` (or ``names["tactic_a"]``). ``progress(attacks done, total)`` after each chunk
    of sampled attacks. The result names the shot measured (``Ruleset.attack_measure``)."""
    rs, p = prepared
    names = names or {}
    seed = check_seed(seed, names.get("seed", "seed"))
    threads = check_threads(threads, names.get("threads", "threads"))
    check_attack(prepared, names)
    measure = rs.attack_measure(p)
    common: dict[str, Any] = dict(names=(p.a.name, p.b.name), options=p.options.as_dict(),
                                  tactic=rs.behaviour(p.a)["tactic"], reaction=rs.behaviour(p.b)["reaction"],
                                  layout=rs.counters, ruleset=rs.name)
    if measure is not None:
        common.update(shot=measure.shot, distance=measure.distance, measured=measure.text)
    if n is None:
        with watching():  # however many drivers the enumeration compiles: one notice
            exact = rs.enumerate_attack(p.compiled)
        return AttackResult(method="exact", outcomes=exact.outcomes, levels=exact.levels,
                            mean_damage_per_attack=exact.mean_damage, **common)
    n = check_n(n, names.get("n", "n"), what="attacks")
    cnt, _ = run_attack_counters(p.compiled, n, seed, threads, executor=resolve(executor, client, threads),
                                 progress=progress)
    c = rs.counters
    outcomes = cnt[c.attack:c.attack + len(c.outcomes)] / n
    b_wounds = c.wound + c.wound_size
    levels = cnt[b_wounds:b_wounds + c.wound_size].reshape(len(c.levels), len(c.zones)) / n
    return AttackResult(method="sampled", outcomes=outcomes, levels=levels,
                        mean_damage_per_attack=float(cnt[c.damage + 1]) / n, n=n, seed=seed, **common)


# -- group fights (rulesets that declare ``fights``, docs/groups.md) --------------------------------

def prepare_fight(side_a: Any, side_b: Any, rules: str | None = None,
                  options: Mapping[str, str] | None = None, targeting_a: str | None = None,
                  targeting_b: str | None = None, source: str = "fight",
                  targeting_names: tuple[str, str] | None = None,
                  names: Mapping[str, str] | None = None, ruleset: str | None = None) -> PreparedFight:
    """Load, validate and compile a group fight under a ruleset that plays them (capability
    ``fights``; ``ruleset`` as in :func:`duel`: default from the fighter files, else the catalog
    that has the fighters). A
    side is a list of fighter references (names, TOML paths, fighter objects; ``"militia*3"``
    repeats one) or a single reference; each side holds 1 … 6 fighters. ``targeting_a`` /
    ``targeting_b`` override the targeting policy of every fighter of that side (docs/groups.md).
    Bad sides, and a ruleset without group fights, are a :class:`DataError` naming ``source``; bad
    options or targeting name the argument as ``names`` maps it (default: as this function calls
    it, e.g. ``options``; ``targeting_names`` is the pair of names of the targeting arguments)."""
    names = names or {}
    if targeting_names is None:
        targeting_names = (names.get("targeting_a", "targeting_a"), names.get("targeting_b", "targeting_b"))
    expanded = [[fighter_ref(r) for r in expand_side(fighter_ref(refs), source, f"side {key}")]
                for key, refs in (("a", side_a), ("b", side_b))]
    with named_errors(names):
        rules, options = check_rules(rules), check_options(options)
        targeting_a, targeting_b = check_name(targeting_a, "targeting_a"), check_name(targeting_b, "targeting_b")
        ruleset = check_name(ruleset, "ruleset")
        rs = get_ruleset(ruleset) if ruleset is not None else resolve_ruleset([*expanded[0], *expanded[1]])
    rs.require("fights", source)
    sides = []
    for key, side, targeting, name in zip("ab", expanded, (targeting_a, targeting_b), targeting_names):
        if targeting is not None:
            with named_errors(names):
                side = [rs.with_targeting(rs.load_fighter(ref, f"side {key}"), targeting, source, name) for ref in side]
        sides.append(side)
    with named_errors(names):
        return rs.prepare_fight(sides[0], sides[1], rules, options)


def fight(side_a: Any, side_b: Any, n: int = 100_000, seed: int = 0, rules: str | None = None,
          options: Mapping[str, str] | None = None, threads: int | None = None,
          targeting_a: str | None = None, targeting_b: str | None = None,
          executor: Executor | None = None, client: Any = None, progress: ProgressFn | None = None,
          labels: Mapping[str, str] | None = None, target_error: float | None = None,
          max_n: int = MAX_N_DEFAULT, ruleset: str | None = None) -> FightResult:
    """Play ``n`` group fights of ``side_a`` against ``side_b`` under a ruleset that plays them
    (capability ``fights``; Brutal's: docs/groups.md).

    >>> r = fight(["knight"], ["militia*3"], n=10_000, seed=1)  # doctest: +SKIP
    >>> r.to_dict()["fighters"][0]["standing_rate"]  # doctest: +SKIP

    Sides as in :func:`prepare_fight`; ``options`` are rule options (``outnumbered``,
    ``attack_limit`` …), ``targeting_a`` / ``targeting_b`` override a side's targeting policy,
    ``executor`` / ``client``, ``target_error``, ``max_n`` and ``ruleset`` as in :func:`duel`.
    """
    n, seed, threads = check_n(n, what="fights"), check_seed(seed), check_threads(threads)
    prec = precision_of(target_error, max_n)
    prepared = prepare_fight(side_a, side_b, rules, options, targeting_a, targeting_b, ruleset=ruleset)
    return fights([prepared], n, seed, threads, progress, [labels] if labels else None, executor, client, prec)[0]


def fights(prepared: Sequence[PreparedFight], n: int, seed: int = 0, threads: int | None = None,
           progress: ProgressFn | None = None, labels: Sequence[Mapping[str, str]] | None = None,
           executor: Executor | None = None, client: Any = None,
           precision: Precision | None = None) -> list[FightResult]:
    """Play ``n`` fights of each prepared group fight (from :func:`prepare_fight`), all handed to the
    executor at once; fight ``i`` of every configuration uses the same random numbers. With
    ``precision``, each plays to its target instead (``n`` is unused)."""
    n, seed, threads = check_n(n, what="fights"), check_seed(seed), check_threads(threads)
    played = _played([get_ruleset(p.ruleset).counters for p in prepared], prepared, n, seed, threads, progress,
                     resolve(executor, client, threads), precision)
    results = []
    for i, (p, (counters, k, seconds, facts)) in enumerate(zip(prepared, played)):
        result = fight_result_of(p, counters, k, seed, seconds, labels[i] if labels else None)
        result.precision.update(facts)
        results.append(result)
    return results


def fight_result_of(p: PreparedFight, counters: np.ndarray, n: int, seed: int, elapsed: float,
                    labels: Mapping[str, str] | None = None) -> FightResult:
    """Wrap a prepared group fight's counters as a :class:`~brutal_sim.results.fight.FightResult`."""
    rs = get_ruleset(p.ruleset)
    behaviour = tuple(rs.fight_behaviour(f) for f in (*p.a, *p.b))
    return FightResult((tuple(f.name for f in p.a), tuple(f.name for f in p.b)), n, seed, p.options.as_dict(),
                       counters, elapsed, threads=numba.get_num_threads(), labels=dict(labels or {}),
                       behaviour=behaviour, layout=rs.counters, ruleset=rs.name)
