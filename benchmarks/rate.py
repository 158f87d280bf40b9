"""Wall time of ``brutal-sim rate`` over a ruleset's whole catalog, warm (its kernels compiled or
loaded from numba's cache by a first, small run).

    python benchmarks/rate.py                      # the Brutal catalog, 100,000 duels a pair
    python benchmarks/rate.py --ruleset wfrp2e -n 20000

Times ``designer.rate`` as the command runs it (a round robin of the catalog, the swordsman the
reference where the catalog has one, three check pairs and two group checks on the next seed), best
of ``--repeat`` runs, and prints the seconds and the duels per second of the round robin.
"""

from __future__ import annotations

import argparse
import time


def timed(fighters: list[str], n: int, ruleset: str, reference: str | None, group_checks: int = 2,
          repeat: int = 1) -> tuple[float, int]:
    """Best wall seconds of ``repeat`` warm runs, and the duels of the round robin."""
    from brutal_sim import designer

    designer.rate(fighters, n=200, seed=0, ruleset=ruleset, reference=reference, group_checks=group_checks)  # warm
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        r = designer.rate(fighters, n=n, seed=0, ruleset=ruleset, reference=reference, group_checks=group_checks)
        best = min(best, time.perf_counter() - t)
    return best, int(r.pairs["n"].sum())


def main(argv: list[str] | None = None) -> None:
    from brutal_sim.core.ruleset import get_ruleset

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default="brutal")
    ap.add_argument("-n", type=int, default=100_000, help="duels a pair")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    fighters = get_ruleset(args.ruleset).fighter_names()
    reference = "swordsman" if "swordsman" in fighters else None
    seconds, duels = timed(fighters, args.n, args.ruleset, reference, repeat=args.repeat)
    print(f"rate {args.ruleset}: {len(fighters)} fighters, {duels:,} duels in the round robin, checks included: "
          f"{seconds:.2f} s warm (best of {args.repeat}), {duels / seconds:,.0f} duels/s")


if __name__ == "__main__":
    main()
