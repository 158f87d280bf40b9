"""Speed of ``suggest`` on the README matchup (the swordsman against the brute, Brutal) at its
default precision, against the stat weights of the same matchup at the same n, measured in one run.

    python benchmarks/suggest.py               # about a minute on 2 cores
    python benchmarks/suggest.py --n 20000 --repeat 1

Warm (the paired kernels compiled first, announced and not timed), best of ``--repeat`` runs on
every core: ``designer.suggest("swordsman", "brute")`` (every single stat step and item swap and the
16 pairs nearest 50 %, each played on ``--n`` duels beside the matchup) and ``designer.stat_weights`` of the
same matchup with the same n (its stat steps alone; suggest also tries the catalog's items in every
slot). Prints the seconds of each, the duels played per second and the ratio; the target is
``suggest`` within 30 s warm on 2 cores.
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Callable


def best_of(repeat: int, step: Callable[[], Any]) -> tuple[float, Any]:
    """The shortest wall time of ``repeat`` calls of ``step`` and its last result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = step()
        best = min(best, time.perf_counter() - t0)
    return best, result


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=50_000, help="duels per suggestion (suggest's default)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    from brutal_sim import designer

    t0 = time.perf_counter()
    print("compiling the brutal paired-duel kernels (once; not timed) …", flush=True)
    designer.suggest("swordsman", "brute", n=100, stats=["checks.melee"])
    print(f"ready in {time.perf_counter() - t0:.1f} s", flush=True)
    s_time, s = best_of(args.repeat, lambda: designer.suggest("swordsman", "brute", n=args.n))
    w_time, w = best_of(args.repeat, lambda: designer.stat_weights("swordsman", "brute", n=args.n))
    sizes = s.rows["size"].value_counts()  # every candidate played: the singles and the combinations of each size
    cells = sum(k + (k + 1) // 2 for k in sizes) + 2  # two candidates beside one matchup cell; the matchup once more
    duels = args.n * cells
    print(f"suggest      : {s_time:6.2f} s  ({len(s.rows)} suggestions, {duels / s_time:,.0f} duels/s)")
    print(f"stat weights : {w_time:6.2f} s  ({len(w.rows)} steps)")
    print(f"ratio suggest / weights: {s_time / w_time:.2f}; target: suggest ≤ 30 s "
          f"({'met' if s_time <= 30 else 'not met'})")
    print(f"verdict: {s.verdict()}")
    return {"suggest_s": s_time, "weights_s": w_time}


if __name__ == "__main__":
    main()
