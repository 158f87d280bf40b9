"""Compiles, as they happen: announced when one starts, timed, never counted as a run's speed.

numba reports each compile of a function that its disk cache does not hold (the event
``numba:compile``, triggered only after the cache lookup missed): loading cached machine code
triggers nothing. A listener registered here when the kernels' decorators are imported
(:mod:`brutal_sim.toolbox.jit`) watches the *top-level* compiles of each thread (a driver called
from Python; the rule functions it calls compile inside it) and

- tells the :data:`REPORTER` once when the first of a group starts (:func:`watching` makes one
  group of a step that may compile several drivers, such as an exact enumeration; outside a group
  each top-level compile is its own), with what compiles and about how long it takes: the seconds
  :data:`TABLE` holds for the ruleset and *family* (:func:`family`), measured by
  ``benchmarks/run.py --cold-only`` on an empty cache (the compiling thread's CPU seconds: what
  the compile takes on an idle core, however busy the machine measuring it was);
- adds every top-level compile's seconds to :func:`total_seconds`, which the engine subtracts
  from the time of a run (``brutal_sim.run.executor``): duels per second never include a compile.

The default reporter writes one line to stderr as a compile starts and one when it ends (a
notebook cell shows both); the command line sets its own (a spinner on a terminal, nothing in JSON
mode off a terminal).
"""

from __future__ import annotations

import json
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

#: the estimates: ``{"rulesets": {ruleset: {family: seconds}}, ...}``, written by
#: ``benchmarks/run.py --cold-only``
TABLE = Path(__file__).resolve().parents[1] / "data" / "compile_seconds.json"

#: how a family is named in a notice
FAMILY_WORDS = {
    "duel": "duel",
    "duel+ranged": "duel-at-a-distance",
    "duel+group": "group-fight",
    "duel+group+ranged": "group-fight-at-a-distance",
    "paired": "paired-duel (scenario, diff, weights)",
    "paired+ranged": "paired-duel-at-a-distance (scenario, diff, weights)",
    "paired+group": "paired-group-fight (scenario)",
    "paired+group+ranged": "paired-group-fight-at-a-distance (scenario)",
    "exact": "exact-attack",
    "first_turn": "first-turn",
}

_TABLE: list[dict[str, Any]] = []


def table() -> dict[str, Any]:
    """:data:`TABLE`, read once ({} if missing or unreadable)."""
    if not _TABLE:
        try:
            _TABLE.append(json.loads(TABLE.read_text()))
        except (OSError, ValueError):
            _TABLE.append({})
    return _TABLE[0]


def estimate(ruleset: str | None, fam: str) -> float | None:
    """The measured seconds of compiling ``fam`` of ``ruleset`` from an empty cache; for a family
    not measured, the longest measured one of the same driver (``paired`` from ``paired+ranged``);
    None when the ruleset has none."""
    measured = table().get("rulesets", {}).get(ruleset or "", {})
    value = measured.get(fam)
    if not isinstance(value, (int, float)):
        driver = fam.partition("+")[0]
        value = max((v for f, v in measured.items() if f.partition("+")[0] == driver), default=None)
    return float(value) if isinstance(value, (int, float)) else None


def family(module: str, name: str, args: tuple[Any, ...]) -> tuple[str | None, str]:
    """(ruleset, family) of a compile of function ``name`` of ``module`` for argument types
    ``args``: a ruleset's drivers ``_run`` or ``run`` (``duel``) and ``_paired`` or ``paired``
    (``paired``) with ``+group`` and ``+ranged`` for the kernel variants their trailing flags
    play (a flag typed ``none`` is left out), ``first_turn`` for the first-turn kernels,
    ``exact`` for anything else of its ``exact`` module, else the function's name."""
    parts = module.split(".")
    ruleset = ruleset_of(module)
    if name.lstrip("_") in ("run", "paired") and parts[-1] == "drivers" and len(args) >= 2:
        ranged, group = (str(a) != "none" for a in args[-2:])
        fam = ("duel" if name.lstrip("_") == "run" else "paired") + "+group" * group + "+ranged" * ranged
    elif name.startswith("first_turn"):
        fam = "first_turn"
    elif parts[-1] == "exact":
        fam = "exact"
    else:
        fam = name
    return ruleset, fam


def ruleset_of(module: str) -> str | None:
    """The registered ruleset (``brutal_sim.core.ruleset.RULESET_MODULES``) whose module holds
    ``module``, or None."""
    registry = getattr(sys.modules.get("brutal_sim.core.ruleset"), "RULESET_MODULES", {})
    return next((name for name, root in registry.items() if module == root or module.startswith(root + ".")), None)


def _announced(module: str) -> bool:
    """Whether a compile of a function of ``module`` outside a group is said: a registered
    ruleset's (its kernels; a shared helper compiled alone, such as a die roll called from Python,
    is not)."""
    return ruleset_of(module) is not None


def describe(ruleset: str | None, fam: str) -> str:
    """What a notice says compiles: ``the vereteno duel-at-a-distance kernels``."""
    return f"the {ruleset + ' ' if ruleset else ''}{FAMILY_WORDS.get(fam, fam)} kernels"


def starting_text(ruleset: str | None, fam: str) -> str:
    about = estimate(ruleset, fam)
    return (f"compiling {describe(ruleset, fam)} (once: numba caches them"
            f"{f'; about {about:.0f} s' if about else ''}) …")


def finished_text(ruleset: str | None, fam: str, seconds: float) -> str:
    return f"compiled {describe(ruleset, fam)} in {seconds:.1f} s (cached: later runs start fast)"


class Reporter:
    """What is said of a compile: :meth:`started` before it, :meth:`finished` after it. This one
    writes a line to stderr for each."""

    def started(self, ruleset: str | None, fam: str) -> None:
        print(starting_text(ruleset, fam), file=sys.stderr, flush=True)

    def finished(self, ruleset: str | None, fam: str, seconds: float) -> None:
        print(finished_text(ruleset, fam, seconds), file=sys.stderr, flush=True)


#: the reporter in use (:func:`reporting` sets another for a block)
REPORTER: list[Reporter] = [Reporter()]
#: seconds of top-level compiles in this process (wall clock); per (ruleset, family), the CPU
#: seconds of the compiling thread (numba compiles in the calling thread: on an idle core, its wall
#: time; on a busy machine, what an idle one would take), which ``benchmarks/run.py`` tabulates
_TOTAL = [0.0]
BY_FAMILY: dict[tuple[str | None, str], float] = {}
_LOCK = threading.Lock()


def total_seconds() -> float:
    """Seconds spent compiling (top-level compiles, every thread) in this process so far."""
    return _TOTAL[0]


@contextmanager
def reporting(reporter: Reporter) -> Iterator[None]:
    """``reporter`` says what compiles inside the block."""
    REPORTER.append(reporter)
    try:
        yield
    finally:
        REPORTER.remove(reporter)


class _Group:
    """A step whose compiles are announced once (:func:`watching`)."""

    def __init__(self) -> None:
        self.announced: tuple[str | None, str] | None = None
        self.seconds = 0.0


class _State(threading.local):
    def __init__(self) -> None:
        self.depth = 0
        self.start = 0.0
        self.cpu = 0.0
        self.current: tuple[str | None, str] | None = None
        self.groups: list[_Group] = []


_STATE = _State()


@contextmanager
def watching() -> Iterator[_Group]:
    """One group: its compiles, however many drivers, are announced once when the first starts,
    and said finished once at the end of the block with their seconds."""
    group = _Group()
    _STATE.groups.append(group)
    try:
        yield group
    finally:
        _STATE.groups.pop()
        if group.announced is not None:
            REPORTER[-1].finished(*group.announced, group.seconds)


def _own(dispatcher: Any) -> tuple[str, str]:
    func = getattr(dispatcher, "py_func", None)
    return getattr(func, "__module__", "") or "", getattr(func, "__name__", "") or ""


def on_start(dispatcher: Any, args: tuple[Any, ...]) -> None:
    """A compile starts in this thread (numba's ``numba:compile``)."""
    _STATE.depth += 1
    if _STATE.depth > 1:
        return
    module, name = _own(dispatcher)
    key = family(module, name, tuple(args))
    _STATE.current = key
    _STATE.start, _STATE.cpu = time.perf_counter(), time.thread_time()
    if not _STATE.groups and not _announced(module):
        return
    group = _STATE.groups[-1] if _STATE.groups else None
    if group is None:
        REPORTER[-1].started(*key)
    elif group.announced is None:
        group.announced = key
        REPORTER[-1].started(*key)


def on_end(dispatcher: Any) -> None:
    """The compile of this thread's :func:`on_start` ends."""
    _STATE.depth -= 1
    if _STATE.depth > 0:
        return
    seconds, cpu = time.perf_counter() - _STATE.start, time.thread_time() - _STATE.cpu
    key = _STATE.current or (None, "?")
    with _LOCK:
        _TOTAL[0] += seconds
        BY_FAMILY[key] = BY_FAMILY.get(key, 0.0) + cpu
    module, _name = _own(dispatcher)
    if _STATE.groups:
        _STATE.groups[-1].seconds += seconds
    elif _announced(module):
        REPORTER[-1].finished(*key, seconds)


def register() -> None:
    """Listen to numba's compiles (once per process)."""
    if _REGISTERED:
        return
    from numba.core import event

    class _Listener(event.Listener):
        def on_start(self, ev: Any) -> None:
            on_start(ev.data["dispatcher"], ev.data.get("args") or ())

        def on_end(self, ev: Any) -> None:
            on_end(ev.data["dispatcher"])

    event.register("numba:compile", _Listener())
    _REGISTERED.append(True)


_REGISTERED: list[bool] = []


def timed(func: Callable[[], Any]) -> tuple[Any, float]:
    """``func()`` and its seconds without the compiles inside it."""
    c0, t0 = total_seconds(), time.perf_counter()
    value = func()
    return value, max(0.0, time.perf_counter() - t0 - (total_seconds() - c0))
