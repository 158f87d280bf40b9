"""Speed-up of a Dask cluster of 2 worker processes over 1, and cold vs warm chunk times.

    pip install -e ".[cluster]"
    python benchmarks/cluster.py                        # runs of 2 chunks of 2^20 duels, 15 rounds
                                                        # (about 4 minutes on 2 cores)
    python benchmarks/cluster.py --chunks 8 --rounds 3  # longer runs, fewer rounds

Plays swordsman vs brute in chunks of ``brutal_sim.run.executor.CHUNK`` duels on local Dask clusters of
1 and of 2 worker processes (``LocalCluster``, one task thread and one numba thread each), and for
reference in-process on 1 and on 2 numba threads. The configurations take turns, round after
round, and each keeps its best round (the machines are shared: others' load comes and goes; the
load average is recorded before every round).

Cold against warm: on the freshly started 2-worker cluster, chunks of 10^4 duels first, whose
first chunk on each worker includes importing the kernels and loading them from numba's on-disk
cache; later chunks show that nothing is recompiled. The share of each run's wall time that the
workers spent inside the kernel shows what the cluster itself costs, whatever the machine's load.
Checks that every run gives the same counters, prints a table and writes
``benchmarks/results/cluster-<UTC time>.json``. Timings only: no assertion on speed.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import statistics
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numba
import numpy as np
from distributed import Client, LocalCluster

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from run import compiled  # noqa: E402

from brutal_sim.run.cluster import DaskExecutor  # noqa: E402
from brutal_sim.run.engine import duel_work, run  # noqa: E402
from brutal_sim.run.executor import CHUNK, Executor, LocalExecutor, Run  # noqa: E402

MATCHUP = ("swordsman", "brute")
SEED = 7


def timed(executor: Executor, n: int, chunk: int | None = None) -> Run:
    c = compiled(*MATCHUP)
    return run([duel_work(c.kernels.duels, c, SEED)], n, block=chunk, executor=executor)


def cold_and_warm(executor: Executor, workers: int, chunk: int = 10_000, per_worker: int = 6) -> dict[str, Any]:
    """First chunk of each fresh worker process (cold) against the median of its later chunks (warm)."""
    r = timed(executor, workers * per_worker * chunk, chunk)
    by_pid: dict[int, list[float]] = {}
    for ch in r.chunks:  # in completion order; a worker with one thread runs its chunks one by one
        by_pid.setdefault(ch.pid, []).append(ch.seconds)
    return {"chunk": chunk, "first_chunk_s": [round(s[0], 4) for s in by_pid.values()],
            "later_chunk_median_s": round(statistics.median(x for s in by_pid.values() for x in s[1:]), 4),
            "chunks_per_worker": [len(s) for s in by_pid.values()]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chunks", type=int, default=2, help="chunks of 2^20 duels per run (default 2)")
    parser.add_argument("--rounds", type=int, default=15, help="rounds; each configuration keeps its best (default 15)")
    args = parser.parse_args()
    n, rounds = args.chunks * CHUNK, args.rounds
    loads = []
    load_before = os.getloadavg()
    with contextlib.ExitStack() as stack:
        started, executors = {}, {}
        for workers in (1, 2):
            t0 = time.perf_counter()
            lc = stack.enter_context(LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                                  dashboard_address=":0"))
            client = stack.enter_context(Client(lc))
            started[workers] = round(time.perf_counter() - t0, 2)
            executors[f"Dask, {workers} worker{'s' * (workers > 1)} × 1 thread"] = DaskExecutor(client, threads=1)
        cold = cold_and_warm(executors["Dask, 2 workers × 1 thread"], 2)
        for threads in (1, 2):
            executors[f"in-process, {threads} numba thread{'s' * (threads > 1)}"] = LocalExecutor(threads)
        timed(LocalExecutor(), CHUNK // 16)  # load the kernels in this process too
        walls: dict[str, list[float]] = {name: [] for name in executors}
        busy: dict[str, list[float]] = {name: [] for name in executors if name.startswith("Dask")}
        counters = []
        for _ in range(rounds):
            loads.append(round(os.getloadavg()[0], 2))
            for name, ex in executors.items():
                r = timed(ex, n)
                walls[name].append(round(r.wall, 3))
                if name in busy:  # the share of the run each worker spent inside the kernel
                    workers = len({ch.pid for ch in r.chunks})
                    busy[name].append(round(sum(ch.seconds for ch in r.chunks) / (workers * r.wall), 3))
                counters.append(r.totals[0][0])
    same = all(np.array_equal(c, counters[0]) for c in counters)
    best = {name: min(w) for name, w in walls.items()}
    one, two = best["Dask, 1 worker × 1 thread"], best["Dask, 2 workers × 1 thread"]
    per_round = [a / b for a, b in zip(walls["Dask, 1 worker × 1 thread"], walls["Dask, 2 workers × 1 thread"])]
    result = {
        "when": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H%M%SZ"),
        "machine": {"cpus": numba.config.NUMBA_NUM_THREADS, "platform": platform.platform(),
                    "python": platform.python_version(), "numba": numba.__version__},
        "matchup": MATCHUP, "n": n, "chunk": CHUNK, "seed": SEED, "rounds": rounds,
        "load_average_1_5_15_min": {"before": load_before, "after": os.getloadavg()},
        "load_average_1_min_per_round": loads,
        "same_counters_everywhere": same, "cluster_start_s": started, "cold_vs_warm": cold,
        "wall_s": walls, "workers_busy_share": busy,
        "best_duels_per_s": {name: round(n / b) for name, b in best.items()},
        "speedup_2_workers_over_1": round(one / two, 2),
        "speedup_per_round": [round(x, 2) for x in per_round],
        "speedup_median_of_rounds": round(statistics.median(per_round), 2),
    }
    print(f"{MATCHUP[0]} vs {MATCHUP[1]}: {n:,} duels in {n // CHUNK} chunks of {CHUNK:,}, best of {rounds}; "
          f"same counters everywhere: {same}")
    print("| run | best wall s | duels/s | all rounds s |")
    print("|---|---|---|---|")
    for name, w in walls.items():
        print(f"| {name} | {best[name]} | {n / best[name]:,.0f} | {', '.join(map(str, w))} |")
    print(f"speed-up, 2 workers over 1: {one / two:.2f}× (best against best), "
          f"{statistics.median(per_round):.2f}× (median of the rounds' ratios); cluster start {started} s; "
          f"load average before {load_before[0]:.2f}, after {os.getloadavg()[0]:.2f}")
    print("share of the wall time the workers spent in the kernel (the rest is Dask and waiting): " +
          "; ".join(f"{name}: median {statistics.median(b):.3f}" for name, b in busy.items()))
    print(f"fresh workers, chunks of {cold['chunk']:,}: first chunk {cold['first_chunk_s']} s, "
          f"later chunks median {cold['later_chunk_median_s']} s")
    out = ROOT / "benchmarks" / "results" / f"cluster-{result['when']}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"wrote {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
