"""Speed of a gauntlet over the Brutal weapon catalog: every weapon of the catalog in one fighter's
main hand against every other bundled fighter, on the same duels (``designer.gauntlet``).

    python benchmarks/gauntlet.py                          # the swordsman, 20,000 duels a cell, about 1 minute cold
    python benchmarks/gauntlet.py --fighter knight --n 50000 --threads 2

The kernels the run plays are compiled first (a one-duel gauntlet over the same cells: the paired
drivers at a distance, since the catalog holds missile weapons and the pool a crossbowman) and the
compile is announced and not counted. The warm run is timed best of ``--repeat`` and held against
the target: within 60 s on 2 cores at the default precision (``n`` = 20,000 duels per item and
opponent). Prints the top rows, the duels per second and the verdict.
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Sequence

#: the target of a warm run, in seconds, on 2 cores
TARGET_S = 60.0


def run_gauntlet(fighter: str, slot: str, n: int, threads: int | None = None, against: Sequence[str] | None = None,
                 values: Sequence[str] | None = None, seed: int = 0) -> tuple[Any, float]:
    """One gauntlet and its wall seconds (compiled beforehand by the caller)."""
    from brutal_sim import designer

    t0 = time.perf_counter()
    g = designer.gauntlet(fighter, slot, against=against, values=values, n=n, seed=seed, threads=threads)
    return g, time.perf_counter() - t0


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--fighter", default="swordsman", help="the Brutal fighter whose main hand is swapped")
    parser.add_argument("--slot", default="main_hand", help="the item slot (default main_hand: the weapon catalog)")
    parser.add_argument("--n", type=int, default=20_000, help="duels per item and opponent (default 20,000)")
    parser.add_argument("--threads", type=int, default=None, help="numba threads (default: all cores)")
    parser.add_argument("--repeat", type=int, default=3, help="warm runs; the best is reported")
    args = parser.parse_args(argv)
    import numba

    t0 = time.perf_counter()
    print("compiling (or loading from numba's cache) the kernels the gauntlet plays …", flush=True)
    run_gauntlet(args.fighter, args.slot, 1, args.threads)
    print(f"compiled or loaded in {time.perf_counter() - t0:.1f} s (not counted)")
    best = None
    for _ in range(max(1, args.repeat)):
        g, seconds = run_gauntlet(args.fighter, args.slot, args.n, args.threads)
        best = seconds if best is None else min(best, seconds)
    cells = int(g.by_opponent["n"].sum())
    print(f"{g.fighter}: {len(g.rows)} {g.slot} items × {len(g.pool)} opponents × {args.n:,} duels = {cells:,} duels "
          f"({g.played:,} played: the baseline beside each pair of items) on {numba.get_num_threads()} threads: "
          f"best of {args.repeat} {best:.2f} s ({g.played / best:,.0f} duels/s)")
    for k, r in g.rows.head(5).iterrows():
        change = "" if r["baseline"] else (f"; vs held {100 * r.delta:+.2f} pt "
                                           f"({100 * r.delta_low:+.2f} … {100 * r.delta_high:+.2f})")
        print(f"  {k + 1}. {r['item'] + (' (held)' if r['baseline'] else ''):24s} {100 * r.win_rate:6.2f} % "
              f"({100 * r.ci_low:.2f}–{100 * r.ci_high:.2f}){change}")
    print(g.verdict())
    print(f"target: within {TARGET_S:.0f} s warm: {'met' if best <= TARGET_S else 'NOT met'} ({best:.2f} s)")


if __name__ == "__main__":
    main()
