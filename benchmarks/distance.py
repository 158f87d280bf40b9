"""Speed of duels at a distance against melee duels of the same ruleset, measured in one run.

    python benchmarks/distance.py                       # both rulesets, about 6 minutes on 2 cores
    python benchmarks/distance.py --ruleset wfrp2e --n 300000

For each ruleset with duels at a distance, on one thread, warm (best of three runs of ``--n``
duels): a melee duel at point blank (the melee drivers) and duels that start apart (the drivers at
a distance). Then the cold start of each (a fresh process, an empty numba cache, 1,000 duels): a
melee duel compiles only the melee drivers, a duel at a distance only its own. Prints duels per
second, the ratio to the melee duel and the cold starts.

Vereteno: swordsman–brute in melee; the rifleman against the charging swordsman from 30 m
(V-10, V-11). WFRP 2e: orc–goblin in melee; the kithband against the charging orc from 40 yards
(W-7, W-11) and the pistolier with two pistols against the orc from 30 yards (W-7.8).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

#: ruleset → {name: (fighter a, fighter b, options)}; the first of each is its melee duel
MATCHUPS: dict[str, dict[str, tuple[str, str, dict[str, str]]]] = {
    "vereteno": {
        "melee swordsman vs brute": ("swordsman", "brute", {}),
        "rifleman vs swordsman from 30 m": ("rifleman", "swordsman", {"start_distance": "30"}),
    },
    "wfrp2e": {
        "melee orc vs goblin": ("orc", "goblin", {}),
        "kithband vs orc from 40 yd": ("kithband", "orc", {"start_distance": "40"}),
        "pistolier vs orc from 30 yd": ("pistolier", "orc", {"start_distance": "30"}),
    },
}


def warm_rate(ruleset: str, a: str, b: str, options: dict[str, str], n: int) -> float:
    """Best of three: duels per second on one thread, the kernels compiled first."""
    from brutal_sim import api

    api.duel(a, b, n=1000, ruleset=ruleset, threads=1, options=options)
    best = 0.0
    for _ in range(3):
        t0 = time.perf_counter()
        api.duel(a, b, n=n, seed=1, ruleset=ruleset, threads=1, options=options)
        best = max(best, n / (time.perf_counter() - t0))
    return best


def cold_seconds(ruleset: str, a: str, b: str, options: dict[str, str]) -> float:
    """Seconds of 1,000 duels in a fresh process with an empty numba cache (import, compile, run)."""
    code = ("from brutal_sim import api; "
            f"api.duel({a!r}, {b!r}, n=1000, ruleset={ruleset!r}, threads=1, options={options!r})")
    with tempfile.TemporaryDirectory() as cache:
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, env={**os.environ, "NUMBA_CACHE_DIR": cache})
        return time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", choices=sorted(MATCHUPS), action="append",
                        help="measure only this ruleset (repeatable; default: every one)")
    parser.add_argument("--n", type=int, default=1_000_000, help="duels per warm measurement")
    args = parser.parse_args()
    for ruleset in args.ruleset or MATCHUPS:
        matchups = MATCHUPS[ruleset]
        rates = {name: warm_rate(ruleset, a, b, o, args.n) for name, (a, b, o) in matchups.items()}
        colds = {name: cold_seconds(ruleset, a, b, o) for name, (a, b, o) in matchups.items()}
        melee = rates[next(iter(matchups))]
        print(ruleset)
        for name in matchups:
            print(f"  {name:34s} {rates[name]:>12,.0f} duels/s (×{rates[name] / melee:.2f} of melee), "
                  f"cold start {colds[name]:.1f} s")


if __name__ == "__main__":
    main()
