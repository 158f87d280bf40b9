"""Ctrl-C ends a run with one line (``interrupted``) and exit code 130, and leaves no process behind:
in-process, and on a local Dask cluster, whose worker processes would otherwise print their own
tracebacks."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import psutil
import pytest

pytest.importorskip("distributed")


def _interrupt(args: list[str], ready: str, wait: float) -> tuple[int, list[str], list[int]]:
    """Start ``brutal-sim ARGS`` in its own process group, wait until its stderr shows ``ready``
    (empty: at once) and ``wait`` seconds more, press Ctrl-C (SIGINT to the group, as a terminal
    does); the exit code, the stderr lines and the pids of the processes it had started."""
    proc = subprocess.Popen([sys.executable, "-c", "from brutal_sim.cli import main; main()", *args],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, env={**os.environ, "COLUMNS": "200"})
    lines: list[str] = []
    if ready:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            line = proc.stderr.readline()
            lines.append(line)
            if ready in line or not line:
                break
    time.sleep(wait)
    children = [c.pid for c in psutil.Process(proc.pid).children(recursive=True)]
    os.killpg(proc.pid, signal.SIGINT)
    rest = proc.stderr.read()
    proc.wait(timeout=60)
    return proc.returncode, [x for x in "".join(lines + [rest]).splitlines() if x.strip()], children


def _alive(pids: list[int]) -> list[int]:
    time.sleep(2)
    return [p for p in pids if psutil.pid_exists(p) and psutil.Process(p).status() != psutil.STATUS_ZOMBIE]


def test_ctrl_c_in_process_is_one_line_exit_130():
    code, lines, _ = _interrupt(["duel", "swordsman", "brute", "-n", "500000000", "--threads", "1"], "", 4.0)
    assert code == 130 and lines[-1] == "interrupted", lines
    assert all(line.startswith("compil") for line in lines[:-1]), lines  # a first run's compile notice


def test_ctrl_c_on_a_local_cluster_is_one_line_exit_130_and_no_process_is_left():
    code, lines, children = _interrupt(["duel", "swordsman", "brute", "-n", "500000000", "--cluster", "local:1"],
                                       "Dask cluster", 3.0)
    assert code == 130, lines
    assert lines[-1] == "interrupted" and lines[-2].startswith("Dask cluster"), lines
    assert all(line.startswith("compil") for line in lines[:-2]), lines
    assert children and not _alive(children)
