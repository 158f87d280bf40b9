"""Where a duel's time goes: a function-level profile of the numba kernel with Linux ``perf``.

    perf record -F 4000 -e cpu-clock -o perf.data python benchmarks/profile.py
    perf report -i perf.data --stdio --sort sym | head -40

    python benchmarks/profile.py --matchup duelist knight --attacks   # single attacks instead

numba's compiled code has no symbols that ``perf`` can see. This script plays the duels in one
thread and, before it starts, writes ``/tmp/perf-<pid>.map`` — the map file ``perf report`` reads
for just-in-time code (perf's fixed place and name for it): the address, size and name of every
function of the kernels. Addresses come from numba's execution engine, sizes from the object code
(``nm``, from binutils), which numba loads from its on-disk cache: the script compiles the kernels
in a child process first if they are not cached yet (then run it again under ``perf``, so that the
profile does not include compilation) and records the object code as numba loads it. Functions
that numba or LLVM inlined into their callers count as their callers' time. A profile and how to
read it: ``benchmarks/README.md`` ("Where a duel's time goes").
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from shutil import which

import numba
from numba.core import codegen

from brutal_sim import api
from brutal_sim.core.errors import DataError
from brutal_sim.run.engine import run_attack_counters, run_duel_counters

#: Object code of every library numba loads from its cache: (library, ELF bytes).
LOADED: list[tuple[object, bytes]] = []


def record_loaded_objects() -> None:
    """Keep the object code of every library numba loads from its cache from now on (in
    :data:`LOADED`); numba loads a kernel at its first call."""
    unserialize = codegen.JITCodeLibrary._unserialize.__func__

    def recording(cls, cg, state):  # type: ignore[no-untyped-def]
        library = unserialize(cls, cg, state)
        if state[1] == "object":
            LOADED.append((library, state[2][0]))
        return library

    codegen.JITCodeLibrary._unserialize = classmethod(recording)



def function_symbols(obj: bytes) -> list[tuple[str, int]]:
    """The defined functions of an ELF object: ``(name, size)`` (``nm -S``)."""
    with tempfile.NamedTemporaryFile(suffix=".o") as f:
        f.write(obj)
        f.flush()
        out = subprocess.run(["nm", "-S", "--defined-only", f.name], capture_output=True, text=True,
                             check=True).stdout
    symbols = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "tTwW":
            symbols.append((parts[3], int(parts[1], 16)))
    return symbols


def demangle(name: str) -> str:
    """``_ZN10brutal_sim8rulesets6brutal6kernel6attack7_attackB5v…`` →
    ``brutal_sim.rulesets.brutal.kernel.attack._attack`` (numba's mangling)."""
    if not name.startswith("_ZN"):
        return name
    rest, parts = name[3:], []
    while rest and rest[0].isdigit():
        digits = len(rest) - len(rest.lstrip("0123456789"))
        size = int(rest[:digits])
        parts.append(rest[digits:digits + size])
        rest = rest[digits + size:]
    return ".".join(parts) or name


def write_perf_map(path: Path) -> int:
    """Write ``perf``'s map of the loaded numba functions to ``path``; returns the number of entries."""
    entries: dict[int, tuple[int, str]] = {}
    for library, obj in LOADED:
        engine = library._codegen._engine._ee  # type: ignore[attr-defined]
        for name, size in function_symbols(obj):
            address = engine.get_function_address(name)
            if address:
                entries[address] = (size, demangle(name))
    with open(path, "w") as f:
        for address, (size, name) in sorted(entries.items()):
            f.write(f"{address:x} {size:x} {name}\n")
    return len(entries)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matchup", nargs=2, default=("swordsman", "brute"), metavar=("A", "B"))
    parser.add_argument("-n", type=int, default=2_000_000, help="duels (or attacks) to play")
    parser.add_argument("--attacks", action="store_true", help="single attacks instead of duels")
    args = parser.parse_args(argv)
    try:
        _, prepared = api.prepare(*args.matchup)
    except DataError as exc:
        parser.exit(2, f"profile.py: error: {exc}\n")
    if which("nm") is None:
        sys.exit("profile.py needs nm (binutils) to read the sizes of the compiled functions")
    # compiled in a child first (if not cached yet), so that this process loads them from the cache
    subprocess.run([sys.executable, "-c", "from brutal_sim.rulesets.brutal import RULESET; "
                    "RULESET.warm_up('duel'); RULESET.warm_up('attack')"], check=True)
    record_loaded_objects()
    numba.set_num_threads(1)
    play = run_attack_counters if args.attacks else run_duel_counters
    play(prepared.compiled, 1000, 1, threads=1)  # loads the kernel
    entries = write_perf_map(Path(f"/tmp/perf-{os.getpid()}.map"))
    start = time.perf_counter()
    play(prepared.compiled, args.n, 1, threads=1)
    seconds = time.perf_counter() - start
    what = "attacks" if args.attacks else "duels"
    print(f"{args.n:,} {what} of {' vs '.join(args.matchup)} in {seconds:.2f} s on 1 thread "
          f"({args.n / seconds:,.0f}/s); perf map /tmp/perf-{os.getpid()}.map: {entries} functions")


if __name__ == "__main__":
    main()
