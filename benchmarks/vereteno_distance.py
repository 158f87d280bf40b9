"""Speed of Vereteno duels at a distance against melee duels, measured in one run.

    python benchmarks/vereteno_distance.py            # about 3 minutes on 2 cores
    python benchmarks/vereteno_distance.py --n 300000

On one thread, warm (best of three runs of ``--n`` duels): the melee duel swordsman–brute (the
melee drivers) and the rifleman against the charging swordsman from 30 m (the drivers at a
distance, V-10, V-11). Then the cold start of each (a fresh process, an empty numba cache, 1,000
duels): a melee duel compiles only the melee drivers, a duel at a distance only its own. Prints
duels per second, their ratio and the cold starts.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

MATCHUPS = {
    "melee swordsman vs brute": ("swordsman", "brute", {}),
    "rifleman vs swordsman from 30 m": ("rifleman", "swordsman", {"start_distance": "30"}),
}


def warm_rate(a: str, b: str, options: dict[str, str], n: int) -> float:
    """Best of three: duels per second on one thread, the kernels compiled first."""
    from brutal_sim import api

    api.duel(a, b, n=1000, ruleset="vereteno", threads=1, options=options)
    best = 0.0
    for _ in range(3):
        t0 = time.perf_counter()
        api.duel(a, b, n=n, seed=1, ruleset="vereteno", threads=1, options=options)
        best = max(best, n / (time.perf_counter() - t0))
    return best


def cold_seconds(a: str, b: str, options: dict[str, str]) -> float:
    """Seconds of 1,000 duels in a fresh process with an empty numba cache (import, compile, run)."""
    code = ("from brutal_sim import api; "
            f"api.duel({a!r}, {b!r}, n=1000, ruleset='vereteno', threads=1, options={options!r})")
    with tempfile.TemporaryDirectory() as cache:
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, env={**os.environ, "NUMBA_CACHE_DIR": cache})
        return time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000, help="duels per warm measurement")
    args = parser.parse_args()
    rates = {name: warm_rate(a, b, o, args.n) for name, (a, b, o) in MATCHUPS.items()}
    colds = {name: cold_seconds(a, b, o) for name, (a, b, o) in MATCHUPS.items()}
    melee = rates["melee swordsman vs brute"]
    for name in MATCHUPS:
        print(f"{name:34s} {rates[name]:>12,.0f} duels/s (×{rates[name] / melee:.2f} of melee), "
              f"cold start {colds[name]:.1f} s")


if __name__ == "__main__":
    main()
