"""Speed of the Brutal duel kernel against its baselines, all measured in one run.

    python benchmarks/run.py            # full run (about 10 minutes on 2 cores)
    python benchmarks/run.py --quick    # smaller samples, 10^7 instead of 10^8 for memory
    python benchmarks/run.py --cold-only  # only the cold start of each command (about 25 minutes)

Measures the cold start of each command (``COMMANDS``: the whole command in a fresh process, with an
empty numba cache, with the cache the README's first command leaves, and warm), and for three
standard matchups: the kernel at 10^6+ duels on 1 thread and on all threads, the pure-Python
reference duel of the tests (``tests/brutal/naive.py``), the numpy-vectorised duel
(``benchmarks/numpy_duel.py``), the random-number floor (the same number of draws per duel, no
game logic), and peak memory at 10^6 and 10^8 duels. Prints a table of ratios and writes
``benchmarks/results/<timestamp>.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

import numba
import numpy as np
from numba import njit, prange

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # naive_rng, the references' generator
sys.path.insert(0, str(ROOT / "tests" / "brutal"))  # naive, the pure-Python reference duel
sys.path.insert(0, str(ROOT / "benchmarks"))

from brutal_sim.core.ruleset import Compiled  # noqa: E402
from brutal_sim.rulesets.brutal import compiled as brutal_compiled, layout as L  # noqa: E402
from brutal_sim.rulesets.brutal.catalog import Catalog, load_rules  # noqa: E402
from brutal_sim.rulesets.brutal.compile import compile_pair  # noqa: E402
from brutal_sim.rulesets.brutal.options import compile_options  # noqa: E402
from brutal_sim.run.engine import run_duel_counters  # noqa: E402
from brutal_sim.toolbox.compiling import TABLE  # noqa: E402
from brutal_sim.toolbox.rng import roll_die, seed_duel  # noqa: E402

MATCHUPS = [("swordsman", "brute"), ("duelist", "knight"), ("militia", "brawler")]


def compiled(a: str, b: str) -> Compiled:
    cat = Catalog.bundled()
    opts, (zt,) = load_rules(None, {})
    return brutal_compiled(compile_pair(cat.fighter(a), cat.fighter(b)), compile_options(opts), zt)


@njit(cache=True, parallel=True)
def _rng_floor(seed, n, lanes, draws_per_duel):
    """The random-number floor: per duel, seed its generator and draw ``draws_per_duel`` dice."""
    acc = np.zeros(lanes, dtype=np.int64)
    for lane in prange(lanes):
        st = np.empty(4, dtype=np.uint64)
        lo = (n * lane) // lanes
        hi = (n * (lane + 1)) // lanes
        total = 0
        for idx in range(lo, hi):
            seed_duel(st, seed, idx)
            for _ in range(draws_per_duel):
                total += roll_die(st, 6)
        acc[lane] = total
    return acc


def best_rate(fn, n: int, repeat: int = 3) -> float:
    """Best of ``repeat`` timings of ``fn()`` as items per second."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return n / best


def kernel_rate(c: Compiled, n: int, threads: int) -> tuple[float, np.ndarray]:
    counters: list[np.ndarray] = []

    def go() -> None:
        cnt, _ = run_duel_counters(c, n, seed=1, threads=threads)
        counters.append(cnt)

    return best_rate(go, n), counters[-1]


def draws_per_duel(c: Compiled, sample: int = 2000) -> float:
    """Random numbers (64-bit draws) one duel consumes, counted by the naive reference's generator,
    which draws exactly what the kernel draws (tests/brutal/test_naive_agreement.py)."""
    import naive

    total = 0
    for i in range(sample):
        duel = naive.new_fight(c.fighters, c.options, c.tables[0], 1, i)
        duel.run()
        total += duel.rng.draws
    return total / sample


def naive_rate(c: Compiled, n: int) -> float:
    import naive

    def go() -> None:
        for i in range(n):
            naive.duel(c.fighters, c.options, c.tables[0], 1, i)

    return best_rate(go, n, repeat=1)


def numpy_rate(c: Compiled, n: int) -> float:
    import numpy_duel

    numpy_duel.run_numpy_duels(c.fighters, c.options, c.tables[0], 10_000, 0)  # warm-up
    return best_rate(lambda: numpy_duel.run_numpy_duels(c.fighters, c.options, c.tables[0], n, 1), n, repeat=1)


def floor_rate(n: int, draws: int, threads: int) -> float:
    numba.set_num_threads(threads)
    _rng_floor(np.uint64(1), 1000, threads, draws)
    return best_rate(lambda: _rng_floor(np.uint64(1), n, threads, draws), n)


_CHILD = """
import resource, sys, time
from brutal_sim import api
t0 = time.perf_counter()
api.duel("swordsman", "brute", n=int(sys.argv[1]), seed=1)
print(time.perf_counter() - t0, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def child(n: int, env: dict[str, str] | None = None) -> tuple[float, float]:
    """Run n duels in a fresh process; return (seconds, peak RSS in MiB)."""
    out = subprocess.run([sys.executable, "-c", _CHILD, str(n)], capture_output=True, text=True, check=True,
                         env={**os.environ, **(env or {})})
    seconds, rss_kib = out.stdout.split()
    return float(seconds), int(rss_kib) / 1024


#: The commands whose cold start is measured, one or more per command family and ruleset (the README's
#: first command first), each with the smallest n that plays it: their compiles fill the table the
#: compile notices read (:data:`brutal_sim.toolbox.compiling.TABLE`).
COMMANDS = {
    "duel": ["duel", "swordsman", "brute", "-n", "1000000", "--seed", "7"],
    "duel at 40 m": ["duel", "crossbowman", "swordsman", "--option", "start_distance=40", "-n", "10000"],
    "attack (exact)": ["attack", "swordsman", "brute"],
    "attack (sampled)": ["attack", "swordsman", "brute", "-n", "100000"],
    "fight": ["fight", "knight", "vs", "militia*3", "-n", "10000"],
    "weights": ["weights", "swordsman", "brute", "-n", "1000"],
    "diff": ["diff", "--option-a", "armour_model=marker", "--option-b", "armour_model=protection_only", "-n", "100"],
    "report": ["report", "examples/axe_sweep.toml", "-n", "1000", "-o", "{tmp}/axe.html"],
    "wfrp2e duel": ["duel", "orc", "goblin", "--ruleset", "wfrp2e", "-n", "1000000"],
    "wfrp2e duel at 24 yards": ["duel", "goblin_archer", "swordsman", "--ruleset", "wfrp2e", "--option",
                                "start_distance=24", "-n", "10000"],
    "wfrp2e attack (exact shot)": ["attack", "goblin_archer", "swordsman", "--ruleset", "wfrp2e", "--option",
                                   "start_distance=24"],
    "wfrp2e fight at 24 yards": ["fight", "swordsman", "duelist", "vs", "goblin_archer*3", "--ruleset", "wfrp2e",
                                 "--option", "start_distance=24", "-n", "1000"],
    "wfrp2e report at a distance": ["report", "examples/wfrp2e_at_a_distance.toml", "-n", "100", "-o",
                                    "{tmp}/w.html"],
    "vereteno duel": ["duel", "swordsman", "brute", "--ruleset", "vereteno", "-n", "1000000"],
    "vereteno duel at 30 m": ["duel", "rifleman", "swordsman", "--ruleset", "vereteno", "--option",
                              "start_distance=30", "-n", "1000000"],
    "vereteno attack (exact shot)": ["attack", "rifleman", "swordsman", "--ruleset", "vereteno", "--option",
                                     "start_distance=30"],
    "vereteno fight": ["fight", "knight", "vs", "militia*3", "--ruleset", "vereteno", "-n", "1000"],
    "vereteno report at a distance": ["report", "examples/vereteno_distance.toml", "-n", "100", "-o",
                                      "{tmp}/v.html"],
}

#: runs a command in this process and writes the seconds of its compiles per (ruleset, family) as JSON
_COLD_CHILD = """
import json, sys
from brutal_sim.cli import main
from brutal_sim.toolbox import compiling
log, sys.argv = sys.argv[1], ["brutal-sim", *sys.argv[2:]]
try:
    main()
except SystemExit as exc:
    if exc.code:
        raise
with open(log, "w") as f:
    json.dump([[rs, fam, s] for (rs, fam), s in compiling.BY_FAMILY.items()], f)
"""


def command_seconds(args: list[str], cache: str) -> tuple[float, list[list[Any]]]:
    """Wall-clock seconds of ``brutal-sim ARGS`` in a fresh process with numba cache ``cache``,
    from start to exit (start-up, validation, compiling or loading the kernels, the run), and its
    compiles: ``[ruleset, family, seconds]``."""
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "compiles.json"
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", _COLD_CHILD, str(log), *(a.replace("{tmp}", tmp) for a in args)],
                       check=True, capture_output=True, cwd=ROOT, env={**os.environ, "NUMBA_CACHE_DIR": cache})
        seconds = time.perf_counter() - t0
        return seconds, json.loads(log.read_text())


def cold_start(after_duel: bool = True, done: Callable[[dict[str, dict[str, Any]]], None] | None = None,
               only: list[str] | None = None) -> dict[str, dict[str, Any]]:
    """Each command of :data:`COMMANDS` alone with an empty numba cache (``alone``, with its compiles
    per family), then again with its own cache filled (``warm``), and (``after_duel``) with the
    cache the README's first command (the duel) left (``after_duel``). ``done(results so far)``
    after each command. ``only``: those commands (and the duel when ``after_duel``)."""
    out: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as duel_cache:
        for name, args in COMMANDS.items():
            if only and name not in only and not (name == "duel" and after_duel):
                continue
            print(f"  cold start: {name} …", flush=True)
            with tempfile.TemporaryDirectory() as own:
                cache = duel_cache if name == "duel" else own
                alone, compiles = command_seconds(args, cache)
                warm, _ = command_seconds(args, cache)
            row = {"alone_s": alone, "warm_s": warm, "compiles": compiles}
            if after_duel and name != "duel":
                with tempfile.TemporaryDirectory() as cache:
                    shutil.copytree(duel_cache, cache, dirs_exist_ok=True)
                    row["after_duel_s"], _ = command_seconds(args, cache)
            out[name] = row
            if done is not None:
                done(out)
    return out


def compile_table(cold: dict[str, dict[str, Any]], merge: bool = False) -> dict[str, Any]:
    """The table the compile notices read: per ruleset and family, the compiling thread's CPU
    seconds (what an idle core takes) on an empty cache; a family compiled by several commands: the
    longest, rounded up. ``merge``: into the table already written (a run of some commands)."""
    old = json.loads(TABLE.read_text())["rulesets"] if merge and TABLE.exists() else {}
    table: dict[str, dict[str, float]] = {rs: dict(fams) for rs, fams in old.items()}
    seen: set[tuple[str, str]] = set()
    for row in cold.values():
        for rs, fam, seconds in row["compiles"]:
            if rs is not None and seconds >= 0.5:  # a helper loaded beside its family's compile: not a family
                before = table.get(rs, {}).get(fam, 0.0) if (rs, fam) in seen else 0.0
                table.setdefault(rs, {})[fam] = max(before, float(np.ceil(seconds)))
                seen.add((rs, fam))
    return {"measured": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "by": "benchmarks/run.py --cold-only", "cores": os.cpu_count(), "numba": numba.__version__,
            "rulesets": {rs: dict(sorted(fams.items())) for rs, fams in sorted(table.items())}}


def report_cold(cold: dict[str, dict[str, Any]]) -> None:
    print("\nstart-up, whole command (seconds; empty numba cache / own cache / cache of the duel):")
    for name, t in cold.items():
        print(f"  {name:30} {t['alone_s']:6.1f} {t['warm_s']:6.1f} {t.get('after_duel_s', float('nan')):6.1f}   "
              f"brutal-sim {' '.join(COMMANDS[name])}")


def write_cold(cold: dict[str, dict[str, Any]], merge: bool = False) -> Path:
    """The table the notices read (:data:`TABLE`) and the results file of a cold-start run."""
    table = compile_table(cold, merge)
    TABLE.write_text(json.dumps(table, indent=1) + "\n")
    path = ROOT / "benchmarks" / "results" / f"{table['measured'][:16].replace(':', '')}Z-cold.json"
    path.write_text(json.dumps({"startup": cold, "table": table}, indent=1) + "\n")
    return path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller samples (a few minutes less)")
    ap.add_argument("--n", type=int, default=None, help="duels per kernel measurement (default 2,000,000)")
    ap.add_argument("--cold-only", action="store_true", help="only the cold start of each command and the table "
                    "of compile seconds the notices read (about 25 minutes)")
    ap.add_argument("--after-duel", action="store_true", help="also each command with the duel's cache")
    ap.add_argument("--only", nargs="+", metavar="COMMAND", help="these commands of COMMANDS only (their families "
                    "merged into the table)")
    args = ap.parse_args()
    if args.cold_only:
        def written(cold: dict[str, dict[str, Any]]) -> None:  # after each command
            write_cold(cold, merge=bool(args.only))

        cold = cold_start(args.after_duel, written, args.only)
        report_cold(cold)
        print(f"\nwrote {TABLE.relative_to(ROOT)} and {write_cold(cold, bool(args.only)).relative_to(ROOT)}")
        return
    n_kernel = args.n or (1_000_000 if args.quick else 2_000_000)
    n_naive = 300 if args.quick else 2000
    n_numpy = 50_000 if args.quick else 200_000
    n_big = 10**7 if args.quick else 10**8
    all_threads = numba.config.NUMBA_NUM_THREADS

    results: dict[str, object] = {
        "when": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": {"python": platform.python_version(), "numba": numba.__version__, "numpy": np.__version__,
                    "cpu": platform.processor() or platform.machine(), "cores": os.cpu_count(),
                    "threads": all_threads},
        "n_kernel": n_kernel, "n_naive": n_naive, "n_numpy": n_numpy,
        "matchups": {},
    }
    print("cold start of each command …", flush=True)
    results["startup"] = cold_start()
    for a, b in MATCHUPS:
        key = f"{a}-vs-{b}"
        print(f"{key} …", flush=True)
        c = compiled(a, b)
        run_duel_counters(c, 1000, seed=0)  # load from the cache
        one, cnt = kernel_rate(c, n_kernel, 1)
        many, cnt_many = kernel_rate(c, n_kernel, all_threads)
        assert np.array_equal(cnt, cnt_many), "thread count changed the result"
        draws = draws_per_duel(c)
        row = {
            "kernel_1_thread": one,
            f"kernel_{all_threads}_threads": many,
            "naive_python": naive_rate(c, n_naive),
            "numpy_vectorised": numpy_rate(c, n_numpy),
            "draws_per_duel": draws,
            "rng_floor_1_thread": floor_rate(n_kernel, int(round(draws)), 1),
            "win_rate_a": float(cnt[L.C_WINS] / n_kernel),
        }
        row["ratio_kernel_vs_python"] = one / row["naive_python"]
        row["ratio_kernel_vs_numpy"] = one / row["numpy_vectorised"]
        row["ratio_floor_vs_kernel"] = row["rng_floor_1_thread"] / one
        row["ratio_threads"] = many / one
        results["matchups"][key] = row  # type: ignore[index]
    print("peak memory …", flush=True)
    s6, m6 = child(10**6)
    sb, mb = child(n_big)
    results["memory"] = {"n_small": 10**6, "peak_rss_mib_small": m6, "seconds_small": s6,
                         "n_big": n_big, "peak_rss_mib_big": mb, "seconds_big": sb}
    report(results)
    out_dir = ROOT / "benchmarks" / "results"
    out_dir.mkdir(exist_ok=True)
    path = out_dir / f"{results['when'].replace(':', '').replace('+0000', 'Z')}.json"
    path.write_text(json.dumps(results, indent=2))
    print(f"\nwrote {path.relative_to(ROOT)}")


def report(r: dict) -> None:
    threads = r["machine"]["threads"]
    print(f"\nduels per second (n = {r['n_kernel']:,} for the kernel; numba {r['machine']['numba']})")
    head = (f"{'matchup':24} {'kernel 1t':>11} {'kernel ' + str(threads) + 't':>11} {'python':>9} {'numpy':>9} "
            f"{'rng floor':>11} {'draws':>6} {'÷python':>8} {'÷numpy':>7} {'floor÷k':>8} {str(threads) + 't÷1t':>7}")
    print(head)
    for key, m in r["matchups"].items():
        print(f"{key:24} {m['kernel_1_thread']:>11,.0f} {m[f'kernel_{threads}_threads']:>11,.0f} "
              f"{m['naive_python']:>9,.0f} {m['numpy_vectorised']:>9,.0f} {m['rng_floor_1_thread']:>11,.0f} "
              f"{m['draws_per_duel']:>6.1f} {m['ratio_kernel_vs_python']:>8.0f} {m['ratio_kernel_vs_numpy']:>7.1f} "
              f"{m['ratio_floor_vs_kernel']:>8.2f} {m['ratio_threads']:>7.2f}")
    report_cold(r["startup"])
    m = r["memory"]
    print(f"peak memory: {m['peak_rss_mib_small']:.0f} MiB at {m['n_small']:,} duels, "
          f"{m['peak_rss_mib_big']:.0f} MiB at {m['n_big']:,} duels ({m['seconds_big']:.0f} s)")


if __name__ == "__main__":
    main()
