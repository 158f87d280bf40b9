"""Instructions per duel, function by function: the kernel under valgrind's callgrind.

    python benchmarks/instructions.py                                # swordsman vs brute
    python benchmarks/instructions.py --matchup duelist knight -n 20000
    python benchmarks/instructions.py --ruleset wfrp2e --matchup orc goblin
    python benchmarks/instructions.py --ruleset vereteno --matchup rifleman swordsman --option start_distance=30
    python benchmarks/instructions.py --annotate _attack             # its machine code, counted

Timings on this shared machine vary by up to ±10 % from run to run; the instructions a duel
executes do not. This script counts them with callgrind (valgrind), for each compiled function of
the kernel: instructions, conditional branches and the branches callgrind's simple predictor gets
wrong, all per duel, and how often each function is entered. It is the tool to judge a change to
the kernel that is too small to time (benchmarks/README.md, "Instructions per duel").

valgrind does not run AVX-512 code and reports a processor of its own, so the kernels are compiled
for a fixed processor (``haswell``, see ``CPU``) into a numba cache of their own
(``--cache-dir``): once, natively (about half a minute), then loaded under valgrind. The counts
are of that build, not of the one tuned for this machine. Python's start-up runs under valgrind
too (about a minute); duels are counted from the addresses of the kernel's functions (the map that
``benchmarks/profile.py`` writes for ``perf``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from shutil import which

#: The processor the kernels are compiled for here: valgrind emulates it, and both the native
#: compilation and the run under valgrind use the same numba cache key.
CPU = {
    "NUMBA_CPU_NAME": "haswell",
    "NUMBA_CPU_FEATURES": "+64bit,+avx,+avx2,+bmi,+bmi2,+cmov,+cx16,+f16c,+fma,+fsgsbase,+lzcnt,"
                          "+mmx,+movbe,+pclmul,+popcnt,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,"
                          "+xsave",
}
#: Duels the child plays before it writes the map (they load the kernel; counted with the others).
WARM_UP = 10
#: Events asked of callgrind, in the order its output lists them.
EVENTS = ("Ir", "Bc", "Bcm", "Bi", "Bim")


def read_map(path: Path) -> list[tuple[int, int, str]]:
    """The ``address size name`` lines of a perf map file (hexadecimal), sorted by address."""
    entries = []
    for line in path.read_text().splitlines():
        address, size, name = line.split(maxsplit=2)
        entries.append((int(address, 16), int(size, 16), name))
    return sorted(entries)


def costs_by_address(path: Path) -> dict[int, list[int]]:
    """Self costs of every instruction address in a callgrind output written with
    ``--dump-instr=yes`` (positions ``instr line``): ``{address: [Ir, Bc, Bcm, Bi, Bim]}``.

    Positions may be absolute (``0x…``), relative to the previous one (``+n``, ``-n``) or the same
    (``*``). The cost line after a ``calls=`` line is the inclusive cost of that call, not the
    caller's own, and is skipped."""
    events: list[str] = []
    costs: dict[int, list[int]] = defaultdict(lambda: [0] * len(EVENTS))
    last = 0
    call_cost = False
    with open(path) as f:
        for line in f:
            if line.startswith("events:"):
                events = line.split()[1:]
                continue
            if line.startswith("calls="):
                call_cost = True
                continue
            if not line or line[0] not in "0123456789+-*":
                continue
            fields = line.split()
            position = fields[0]
            if position.startswith("0x"):
                last = int(position, 16)
            elif position[0] in "+-":
                last += int(position)
            elif position != "*":
                last = int(position)
            if call_cost:
                call_cost = False
                continue
            row = costs[last]
            for name, value in zip(events, fields[2:]):
                if name in EVENTS:
                    row[EVENTS.index(name)] += int(value)
    return dict(costs)


def per_function(costs: dict[int, list[int]], functions: list[tuple[int, int, str]]
                 ) -> dict[str, list[int]]:
    """Costs summed by function name (versions of one function together), with the number of
    entries (executions of its first instruction) appended."""
    from bisect import bisect_right

    starts = [start for start, _, _ in functions]
    totals: dict[str, list[int]] = defaultdict(lambda: [0] * (len(EVENTS) + 1))
    for address, row in costs.items():
        k = bisect_right(starts, address) - 1
        if k < 0:
            continue
        start, size, name = functions[k]
        if address >= start + size:
            continue
        total = totals[name]
        for j, value in enumerate(row):
            total[j] += value
        if address == start:
            total[len(EVENTS)] += row[0]
    return dict(totals)


def table(totals: dict[str, list[int]], n: int) -> str:
    """A text table of the costs per duel, largest first."""
    all_ir = sum(row[0] for row in totals.values())
    shown = {name: row for name, row in totals.items() if row[0] >= n}  # one instruction a duel or more
    w = max([len(name) for name in shown] + [21])
    lines = [f"{'function':{w}s} {'instr/duel':>10s} {'share':>6s} {'branches':>9s} {'mispred.':>8s} "
             f"{'entries':>8s}"]
    for name, row in sorted(shown.items(), key=lambda kv: -kv[1][0]):
        lines.append(f"{name:{w}s} {row[0] / n:10,.0f} {row[0] / all_ir:6.1%} {row[1] / n:9,.0f} "
                     f"{row[2] / n:8.1f} {row[len(EVENTS)] / n:8.2f}")
    bc = sum(row[1] for row in totals.values())
    bcm = sum(row[2] for row in totals.values())
    lines.append(f"{'kernel, all functions':{w}s} {all_ir / n:10,.0f} {1:6.0%} {bc / n:9,.0f} {bcm / n:8.1f}")
    return "\n".join(lines)


def annotate(costs: dict[int, list[int]], functions: list[tuple[int, int, str]], code: Path, name: str,
             n: int) -> str:
    """The machine code of the function called ``name``, or else whose name begins so (its version
    with the most instructions run; ``code`` holds each function's bytes as ``<address>.bin``),
    disassembled by ``objdump``, each instruction with how often it ran and its mispredicted
    branches per duel."""
    versions = [(start, size) for start, size, full in functions if full.rsplit(".", 1)[-1] == name]
    if not versions:  # a prefix: __numba_parfor_gufunc for the parallel loop (its name ends in an address)
        versions = [(start, size) for start, size, full in functions if full.rsplit(".", 1)[-1].startswith(name)]
    if not versions:
        raise ValueError(f"no compiled function named {name!r} in the kernel")
    start, size = max(versions, key=lambda v: sum(costs.get(a, [0])[0] for a in range(v[0], v[0] + v[1])))
    listing = subprocess.run(["objdump", "-D", "-b", "binary", "-m", "i386:x86-64", "-M", "intel",
                              "--no-show-raw-insn", f"--adjust-vma={start:#x}", str(code / f"{start:x}.bin")],
                             capture_output=True, text=True, check=True).stdout
    lines = [f"{'per duel':>8s} {'mispr.':>6s}  offset  instruction ({name}, {size} bytes at {start:#x})"]
    for line in listing.splitlines():
        address, sep, text = line.partition(":\t")
        if not sep or not address.strip():
            continue
        at = int(address, 16)
        row = costs.get(at, [0] * len(EVENTS))
        lines.append(f"{row[0] / n:8.2f} {row[2] / n:6.2f} {at - start:7x}  {text.strip()}")
    return "\n".join(lines)


def child(matchup: tuple[str, str], n: int, map_path: Path | None, ruleset: str | None = None,
          options: dict[str, str] | None = None) -> None:
    """Load (or compile) the kernel, write the map of its functions and their machine code (next to
    the map, in ``code/``), play ``n`` duels on 1 thread."""
    import ctypes
    import importlib.util

    import numba

    from brutal_sim import api
    from brutal_sim.run.engine import run_duel_counters

    spec = importlib.util.spec_from_file_location("bench_profile", Path(__file__).with_name("profile.py"))
    perf = importlib.util.module_from_spec(spec)  # benchmarks/profile.py: the object code numba loads
    spec.loader.exec_module(perf)  # type: ignore[union-attr]
    perf.record_loaded_objects()
    numba.set_num_threads(1)
    _, prepared = api.prepare(*matchup, ruleset=ruleset, options=options)
    run_duel_counters(prepared.compiled, WARM_UP, 1, threads=1)
    if map_path is None:
        return
    perf.write_perf_map(map_path)
    code = map_path.parent / "code"
    code.mkdir(exist_ok=True)
    for start, size, _ in read_map(map_path):
        (code / f"{start:x}.bin").write_bytes(ctypes.string_at(start, size))
    run_duel_counters(prepared.compiled, n, 1, threads=1)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matchup", nargs=2, default=("swordsman", "brute"), metavar=("A", "B"))
    parser.add_argument("-n", type=int, default=10_000, help="duels to count (default 10,000)")
    parser.add_argument("--ruleset", help="the fighters' ruleset (default: as brutal-sim duel finds it)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a rule option of the duel (repeatable), e.g. start_distance=30")
    parser.add_argument("--cache-dir", type=Path,
                        default=Path(tempfile.gettempdir()) / "brutal_sim_callgrind_cache",
                        help="numba cache of the kernels compiled for valgrind")
    parser.add_argument("--annotate", metavar="FUNCTION", nargs="+",
                        help="print each FUNCTION's machine code (e.g. _attack), each instruction counted per duel")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--map", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    options = dict(o.partition("=")[::2] for o in args.option)
    if args.child:
        child(tuple(args.matchup), args.n, args.map, args.ruleset, options)
        return
    if args.n < 1:
        parser.exit(2, f"instructions.py: error: -n must be a positive number of duels, not {args.n}\n")
    from brutal_sim import api
    from brutal_sim.core.errors import DataError

    try:
        api.prepare(*args.matchup, ruleset=args.ruleset, options=options)
    except DataError as exc:
        parser.exit(2, f"instructions.py: error: {exc}\n")
    for tool in ("valgrind", "nm") + (("objdump",) if args.annotate else ()):
        if which(tool) is None:
            parser.exit(2, f"instructions.py: error: needs {tool} (valgrind; nm, objdump from binutils)\n")
    env = {**os.environ, **CPU, "NUMBA_CACHE_DIR": str(args.cache_dir)}
    me = [sys.executable, __file__, "--child", "--matchup", *args.matchup,
          *(["--ruleset", args.ruleset] if args.ruleset else []), *(f"--option={o}" for o in args.option)]
    subprocess.run(me, env=env, check=True)  # compiles natively, once
    with tempfile.TemporaryDirectory() as tmp:
        out, map_path = Path(tmp) / "callgrind.out", Path(tmp) / "kernel.map"
        subprocess.run(["valgrind", "--tool=callgrind", "--dump-instr=yes", "--branch-sim=yes",
                        f"--callgrind-out-file={out}", *me, "--map", str(map_path), "-n", str(args.n)],
                       env=env, check=True, stderr=subprocess.DEVNULL)
        functions = read_map(map_path)
        if not functions:
            parser.exit(2, "instructions.py: error: under valgrind numba compiled the kernels again instead of "
                           f"loading them from {args.cache_dir}: no map of their functions\n")
        costs = costs_by_address(out)
        totals = per_function(costs, functions)
        if args.annotate:
            try:
                print("\n\n".join(annotate(costs, functions, map_path.parent / "code", name, args.n + WARM_UP)
                                    for name in args.annotate))
            except ValueError as exc:
                parser.exit(2, f"instructions.py: error: {exc}\n")
            return
    print(f"{args.n:,} duels of {' vs '.join(args.matchup)}, kernels compiled for {CPU['NUMBA_CPU_NAME']}, "
          f"per duel (callgrind):")
    print(table(totals, args.n + WARM_UP))


if __name__ == "__main__":
    main()
