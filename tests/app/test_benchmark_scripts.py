"""The benchmark scripts keep working (benchmarks/README.md): their pieces on tiny samples.

No timing is asserted (machines are shared); the numbers checked are exact: the number of random
draws a duel consumes, and the numpy baseline's counts adding up.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_run_pieces_on_tiny_samples():
    run = _load("run")
    c = run.compiled("swordsman", "brute")
    draws = run.draws_per_duel(c, sample=20)
    # every duel draws its initiative (two 2d6, one draw each) and at least one attack roll
    assert draws >= 3 and draws == int(draws * 20) / 20
    assert run.naive_rate(c, 3) > 0
    assert run.numpy_rate(c, 500) > 0


def test_numpy_duel_counts_add_up():
    nd = _load("numpy_duel")
    c = nd._compiled("militia", "brawler")
    r = nd.run_numpy_duels(c.fighters, c.options, c.tables[0], 2000, 5)
    assert r["wins_a"] + r["wins_b"] + r["draws"] == 2000
    assert np.isfinite(r["mean_rounds"]) and r["mean_rounds"] >= 1


def test_profile_names_the_kernel_functions_for_perf(tmp_path):
    """benchmarks/profile.py writes perf's map of numba's functions: the kernel's hot functions are
    in it by name, at distinct addresses with sizes."""
    import re
    import shutil
    import subprocess

    import pytest

    if shutil.which("nm") is None:
        pytest.skip("profile.py reads symbol sizes with nm (binutils)")
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "profile.py"), "-n", "2000"],
                         capture_output=True, text=True, check=True).stdout
    m = re.search(r"perf map (\S+): (\d+) functions", out)
    assert m and "2,000 duels of swordsman vs brute" in out
    path = Path(m.group(1))
    try:
        rows = [line.split(" ", 2) for line in path.read_text().splitlines()]
    finally:
        path.unlink()
    names = {name for _, _, name in rows}
    # _fight is inlined into the parallel loop (its gufunc), _hit into _attack: brutal_sim.toolbox.jit
    assert {"brutal_sim.rulesets.brutal.kernel.attack._attack",
            "brutal_sim.rulesets.brutal.kernel.attack._hard_block"} <= names
    assert any("__numba_parfor_gufunc" in name for name in names)
    addresses = [int(a, 16) for a, _, _ in rows]
    assert len(set(addresses)) == len(rows) == int(m.group(2)) and all(int(s, 16) > 0 for _, s, _ in rows)


def test_profile_demangles_numba_names():
    profile = _load("profile")
    assert profile.demangle(
        "_ZN10brutal_sim8rulesets6brutal6kernel6attack7_attackB5v1892B40c8tJTIeFIjxE5ArrayIxLi2E"
    ) == "brutal_sim.rulesets.brutal.kernel.attack._attack"
    assert profile.demangle("gc_collect_main") == "gc_collect_main"


def test_profile_unknown_fighter_is_one_line_and_exit_2():
    import subprocess

    r = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "profile.py"), "--matchup", "swordsman", "nosuch"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.strip().splitlines() == [r.stderr.strip()] and "unknown fighter 'nosuch'" in r.stderr


def test_instructions_reads_callgrind_positions_and_skips_call_costs(tmp_path):
    """benchmarks/instructions.py: absolute, relative and repeated instruction positions add up
    per address; the inclusive cost after ``calls=`` is not the caller's own."""
    out = tmp_path / "callgrind.out"
    out.write_text("\n".join([
        "# callgrind format", "positions: instr line", "events: Ir Bc Bcm Bi Bim", "",
        "fn=(1) 0x0000000000001000",
        "0x1000 0 5 1 1",      # 0x1000: 5 instructions, 1 branch, 1 mispredicted
        "+4 0 3",              # 0x1004: 3
        "* 0 2",               # 0x1004 again: 2 more
        "cfn=(2) 0x0000000000002000",
        "calls=7 0x2000 0",
        "+2 0 900 90 9",       # 0x1006: the call's inclusive cost, skipped
        "-6 0 1",              # 0x1000: 1 more
        "fn=(2) 0x0000000000002000",
        "0x2000 0 70 7 2",
        "+1 0 700",            # 0x2001
    ]) + "\n")
    ins = _load("instructions")
    costs = ins.costs_by_address(out)
    assert costs == {0x1000: [6, 1, 1, 0, 0], 0x1004: [5, 0, 0, 0, 0], 0x2000: [70, 7, 2, 0, 0],
                     0x2001: [700, 0, 0, 0, 0]}
    functions = [(0x1000, 0x10, "caller"), (0x2000, 0x2, "callee")]  # 0x2001 inside, nothing outside
    costs[0x3000] = [1, 0, 0, 0, 0]
    totals = ins.per_function(costs, functions)
    # entries: executions of the first instruction
    assert totals == {"caller": [11, 1, 1, 0, 0, 6], "callee": [770, 7, 2, 0, 0, 70]}
    text = ins.table(totals, 10)
    assert "callee" in text.splitlines()[1] and "77" in text.splitlines()[1]


def test_instructions_annotates_a_function_by_name(tmp_path):
    """``--annotate``: the function's bytes disassembled, each instruction with its count per duel
    (the version that ran most when a name has several); an unknown name is an error."""
    import shutil

    import pytest

    if shutil.which("objdump") is None:
        pytest.skip("objdump (binutils) is not installed")
    ins = _load("instructions")
    (tmp_path / "1000.bin").write_bytes(bytes([0x55, 0x48, 0x31, 0xC0, 0xC3]))  # push rbp; xor rax,rax; ret
    (tmp_path / "2000.bin").write_bytes(bytes([0xC3]))
    functions = [(0x1000, 5, "brutal_sim.rulesets.brutal.kernel.attack._attack"), (0x2000, 1, "other._attack")]
    costs = {0x1000: [20, 0, 0, 0, 0], 0x1001: [20, 0, 0, 0, 0], 0x1004: [20, 4, 2, 0, 0], 0x2000: [3, 0, 0, 0, 0]}
    lines = ins.annotate(costs, functions, tmp_path, "_attack", 10).splitlines()
    assert "_attack, 5 bytes at 0x1000" in lines[0]
    assert [line.split()[:3] for line in lines[1:]] == [["2.00", "0.00", "0"], ["2.00", "0.00", "1"],
                                                         ["2.00", "0.20", "4"]]
    assert lines[1].endswith("push   rbp") and lines[3].endswith("ret")
    with pytest.raises(ValueError, match="no compiled function named '_nosuch'"):
        ins.annotate(costs, functions, tmp_path, "_nosuch", 10)


def test_instructions_bad_input_is_one_line_and_exit_2():
    import subprocess

    r = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "instructions.py"), "--matchup", "nosuch", "brute"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.strip().splitlines() == [r.stderr.strip()] and "unknown fighter 'nosuch'" in r.stderr
    r = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "instructions.py"), "-n", "0"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and (
        r.stderr.strip() == "instructions.py: error: -n must be a positive number of duels, not 0")


def test_squads_pieces_on_tiny_samples():
    """benchmarks/squads.py: every fight it times prepares and plays; the reference plays one fight."""
    sq = _load("squads")
    for a, b, options in sq.FIGHTS.values():
        p = sq.prepared(a, b, options)
        c = sq.play(p, 20)
        assert c.sum() > 0
    assert sq.naive_rate(sq.prepared(*sq.FIGHTS[sq.TARGET]), 2) > 0


def test_suggest_benchmark_on_a_tiny_sample(capsys):
    """benchmarks/suggest.py: suggest and the stat weights of the README matchup both play and time."""
    timed = _load("suggest").main(["--n", "300", "--repeat", "1"])
    assert set(timed) == {"suggest_s", "weights_s"} and min(timed.values()) > 0
    out = capsys.readouterr().out
    assert "verdict: Swordsman wins" in out and "ratio suggest / weights" in out


def test_rate_times_a_small_round_robin():
    rate = _load("rate")
    seconds, duels = rate.timed(["swordsman", "brute", "militia"], 300, "brutal", None, group_checks=0)
    assert seconds > 0 and duels == 3 * 300
