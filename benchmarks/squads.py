"""Speed of Vereteno squad fights with orders (V-13, V-14) against a duel and the same squads
without orders, measured in one run.

    python benchmarks/squads.py                  # about 3 minutes on 2 cores
    python benchmarks/squads.py --n 200000 --naive 200

On one thread, warm (best of three runs of ``--n`` fights, the kernels compiled first): the
rifleman against the charging swordsman from 30 m (a duel at a distance, the reference rate), then
3 v 3 fights from ``examples/vereteno_squads.toml``: the sergeant's squad against three raiders
from 30 m (V-16.4 D) with the sergeant's orders and without, and against three troopers without a
commander from 20 m, with and without. Then the pure-Python reference (``tests/vereteno/
naive_vereteno.py``) on the 3 v 3 fight with orders. Prints fights per second and the ratios to the
duel and to the reference; the target is ≥ 150,000 fights/s for 3 v 3 with orders.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # naive_rng, the references' generator
sys.path.insert(0, str(ROOT / "tests" / "vereteno"))  # naive_vereteno, the pure-Python reference

EX = ROOT / "examples"
SERGEANT_SILENT = str(EX / "vereteno_sergeant_silent.toml")
TROOPER_ALONE = str(EX / "vereteno_trooper_alone.toml")

#: name → (side a, side b, options); the first is the duel the others are compared with
FIGHTS: dict[str, tuple[list[str], list[str], dict[str, str]]] = {
    "duel: rifleman vs swordsman from 30 m": (["rifleman"], ["swordsman"], {"start_distance": "30"}),
    "3 v 3 D: sergeant (orders) + 2 troopers vs 3 raiders, 30 m":
        (["sergeant", "trooper", "trooper"], ["raider"] * 3, {"start_distance": "30"}),
    "3 v 3 D: sergeant (no orders) + 2 troopers vs 3 raiders, 30 m":
        ([SERGEANT_SILENT, "trooper", "trooper"], ["raider"] * 3, {"start_distance": "30"}),
    "3 v 3: sergeant (orders) + 2 troopers vs 3 troopers, 20 m":
        (["sergeant", "trooper", "trooper"], [TROOPER_ALONE] * 3, {"start_distance": "20"}),
    "3 v 3: sergeant (no orders) + 2 troopers vs 3 troopers, 20 m":
        ([SERGEANT_SILENT, "trooper", "trooper"], [TROOPER_ALONE] * 3, {"start_distance": "20"}),
}
#: the fight the target and the reference are measured on
TARGET = "3 v 3 D: sergeant (orders) + 2 troopers vs 3 raiders, 30 m"


def prepared(a: list[str], b: list[str], options: dict[str, str]):
    from brutal_sim.rulesets.vereteno import RULESET

    if len(a) == 1 and len(b) == 1:
        return RULESET.prepare(a[0], b[0], options=options)
    return RULESET.prepare_fight(a, b, options=options)


def play(p, n: int, seed: int = 1) -> np.ndarray:
    """``n`` fights (or duels) of ``p`` on one lane; their counters summed."""
    c = p.compiled
    return c.kernels.duels(*c.args(), np.uint64(seed), np.int64(0), np.int64(n), 1, c.n_counters).sum(axis=0)


def warm_rate(p, n: int) -> float:
    """Best of three: fights per second on one thread, the kernels compiled first."""
    import numba

    numba.set_num_threads(1)
    play(p, 100)
    best = 0.0
    for _ in range(3):
        t0 = time.perf_counter()
        play(p, n)
        best = max(best, n / (time.perf_counter() - t0))
    return best


def naive_rate(p, n: int) -> float:
    """Fights per second of the pure-Python reference on the same fight."""
    import naive_vereteno as nv

    from brutal_sim.rulesets.vereteno.catalog import Catalog

    opts = p.options.as_dict()
    traumas = list(Catalog.bundled().traumas.values())
    t0 = time.perf_counter()
    for index in range(n):
        nv.fight(p.a, p.b, opts, traumas, 1, index)
    return n / (time.perf_counter() - t0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000, help="fights per warm measurement")
    parser.add_argument("--naive", type=int, default=500, help="fights of the pure-Python reference")
    args = parser.parse_args()
    rates = {name: warm_rate(prepared(*spec), args.n) for name, spec in FIGHTS.items()}
    naive = naive_rate(prepared(*FIGHTS[TARGET]), args.naive)
    duel = rates[next(iter(FIGHTS))]
    for name, rate in rates.items():
        print(f"{name:64s} {rate:>12,.0f} fights/s  ×{rate / duel:.2f} of the duel")
    print(f"{'reference (naive_vereteno.py), ' + TARGET:64s} {naive:>12,.0f} fights/s")
    target = rates[TARGET]
    print(f"3 v 3 with orders: {target:,.0f} fights/s on one thread (target ≥ 150,000: "
          f"{'met' if target >= 150_000 else 'NOT met'}), ×{target / naive:,.0f} the reference")


if __name__ == "__main__":
    main()
