"""The Python API: load fighters, run duels and single attacks.

>>> from brutal_sim import api
>>> r = api.duel("swordsman", "brute", n=100_000, seed=7)
>>> r.to_dict()["a"]["win_rate"]  # doctest: +SKIP
"""

from __future__ import annotations

from typing import Mapping

import numba
import numpy as np

from . import layout as L
from .catalog import Catalog, check_formula, load_rules
from .compile import compile_options, compile_pair
from .engine import Compiled, ProgressFn, run_attack_counters, run_duel_counters
from .errors import DataError
from .exact import _enumerate_attack
from .model import Fighter
from .options import RuleOptions
from .results import AttackResult, DuelResult

FighterRef = str | Fighter


def load_fighter(ref: FighterRef, catalog: Catalog | None = None, role: str = "fighter") -> Fighter:
    """A fighter by catalog name or TOML path (a :class:`Fighter` passes through)."""
    if isinstance(ref, Fighter):
        return ref
    return (catalog or Catalog.bundled()).fighter(ref, role)


def prepare(a: FighterRef, b: FighterRef, rules: str | None = None, options: Mapping[str, str] | None = None,
            tactic_a: str | None = None, reaction_a: str | None = None,
            tactic_b: str | None = None, reaction_b: str | None = None) -> tuple[Fighter, Fighter, RuleOptions, Compiled]:
    """Load, validate and compile a matchup and its rules."""
    catalog = Catalog.bundled()
    fa = catalog.with_behaviour(load_fighter(a, catalog, "fighter a"), tactic_a, reaction_a, "--tactic-a")
    fb = catalog.with_behaviour(load_fighter(b, catalog, "fighter b"), tactic_b, reaction_b, "--tactic-b")
    opts, zone_table = load_rules(rules, options or {})
    F = compile_pair(fa, fb, formula=check_formula(rules, opts))
    return fa, fb, opts, Compiled(F, compile_options(opts), zone_table)


def _check_n(n: int, name: str = "-n", what: str = "duels") -> None:
    if not isinstance(n, (int, np.integer)) or n <= 0:
        raise DataError(name, None, f"number of {what} must be a positive integer, got {n!r}")


def _check_seed(seed: int) -> None:
    if not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**64:
        raise DataError("--seed", None, f"seed must be an integer 0 … 2**64−1, got {seed!r}")


def _check_threads(threads: int | None) -> None:
    if threads is not None and not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
        raise DataError("--threads", None, f"must be 1 … {numba.config.NUMBA_NUM_THREADS} on this machine, got {threads}")


def duel(a: FighterRef, b: FighterRef, n: int = 100_000, seed: int = 0, rules: str | None = None,
         options: Mapping[str, str] | None = None, threads: int | None = None,
         progress: ProgressFn | None = None, labels: Mapping[str, str] | None = None,
         **overrides: str | None) -> DuelResult:
    """Play ``n`` duels of ``a`` against ``b`` (B-1 … B-7) and return their counters.

    ``labels`` (``matchup``, ``variant``, ``sweep``, ``value``) name the run in tidy frames and plots;
    the matchup defaults to "A vs B".
    """
    _check_n(n)
    _check_seed(seed)
    _check_threads(threads)
    fa, fb, opts, compiled = prepare(a, b, rules, options, **overrides)
    counters, elapsed = run_duel_counters(compiled, n, seed, threads, progress=progress)
    result = DuelResult((fa.name, fb.name), n, seed, opts.as_dict(), counters, elapsed,
                        threads=numba.get_num_threads(),
                        behaviour=tuple({"tactic": f.tactic_text, "reaction": f.reaction} for f in (fa, fb)))
    result.labels.update({"matchup": f"{fa.name} vs {fb.name}", **(labels or {})})
    return result


def attack(a: FighterRef, b: FighterRef, n: int | None = None, seed: int = 0, rules: str | None = None,
           options: Mapping[str, str] | None = None, threads: int | None = None,
           tactic: str | None = None, reaction: str | None = None) -> AttackResult:
    """Outcome distribution of one attack by ``a`` on a fresh ``b``.

    Exact by enumeration when ``n`` is None, else sampled from ``n`` attacks. ``tactic`` and
    ``reaction`` override a's ``tactic`` and b's ``reaction``. With paired weapons this is the
    action's first (main-hand) attack; a feint's +1 is included with its probability. A shooter
    (B-8) aims (+1) and shoots from ``start_distance`` (fired in melee at 0).
    """
    fa, fb, opts, compiled = prepare(a, b, rules, options, tactic_a=tactic, reaction_b=reaction)
    distance = int(opts["start_distance"])
    shooter = fa.main_hand is not None and fa.main_hand.ranges is not None
    if shooter and distance > fa.main_hand.ranges[2]:  # type: ignore[index, union-attr]
        raise DataError("--option", "start_distance", f"{distance} m is beyond the long range of "
                        f"{fa.main_hand.name or 'the weapon'} ({fa.main_hand.ranges[2]} m); "  # type: ignore[index, union-attr]
                        f"allowed 0..{fa.main_hand.ranges[2]} for a single shot")  # type: ignore[index, union-attr]
    if not shooter and distance > 0:
        raise DataError("--option", "start_distance", f"{fa.name} has no ranged weapon: its single attack "
                        "is made engaged; allowed 0 (duels close the distance)")
    if not shooter and fa.tactic.attack != "normal":
        usable = ", ".join(k for k, t in Catalog.bundled().tactics.items() if t.attack == "normal")
        raise DataError("--tactic", None, f"tactic {fa.tactic.name!r} makes no damaging attack "
                        f"({fa.tactic.attack}); allowed for attack: {usable}")
    common = dict(names=(fa.name, fb.name), options=opts.as_dict(), tactic=fa.tactic_text,
                  reaction=fb.reaction)
    if n is None:
        outcomes = np.zeros(5)
        levels = np.zeros((6, 4))
        damage = np.zeros(1)
        _enumerate_attack(compiled.fighters, compiled.options, compiled.zone_table, outcomes, levels, damage)
        return AttackResult(method="exact", outcomes=outcomes, levels=levels, mean_damage_per_attack=float(damage[0]),
                            **common)
    _check_n(n, what="attacks")
    _check_seed(seed)
    _check_threads(threads)
    cnt, _ = run_attack_counters(compiled, n, seed, threads)
    outcomes = cnt[L.C_ATTACKS:L.C_ATTACKS + 5] / n
    levels = cnt[L.C_WOUNDS + 24:L.C_WOUNDS + 48].reshape(6, 4) / n
    return AttackResult(method="sampled", outcomes=outcomes, levels=levels,
                        mean_damage_per_attack=float(cnt[L.C_DAMAGE + 1]) / n, n=n, seed=seed, **common)
