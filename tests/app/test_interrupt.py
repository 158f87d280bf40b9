"""Ctrl-C ends a run with one line (``interrupted``) and exit code 130, and leaves no process behind:
in-process, and on a local Dask cluster, whose worker processes would otherwise print their own
tracebacks. Ctrl-C and SIGTERM end the batches of several runs (``weights``, ``diff``, a report's
``[[weights]]``) after the chunk of duels playing, with nothing written."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

#: the line a run prints (to stderr, through the harness) when its first chunk of duels has played
PLAYING = "test: a chunk has played"
#: run_chunk wrapped to print :data:`PLAYING` once
WATCH_CHUNKS = f"""
import sys
from brutal_sim.run import executor
_run_chunk = executor.run_chunk
def run_chunk(*args, **kwargs):
    result = _run_chunk(*args, **kwargs)
    if not getattr(run_chunk, "said", False):
        run_chunk.said = True
        print({PLAYING!r}, file=sys.stderr, flush=True)
    return result
executor.run_chunk = run_chunk
"""


def _interrupt(args: list[str], ready: str, wait: float, sig: int = signal.SIGINT,
               cwd: Path | None = None) -> tuple[int, list[str], list[int]]:
    """Start ``brutal-sim ARGS`` in its own process group, wait until its stderr shows ``ready``
    (empty: at once; :data:`PLAYING`: its first chunk of duels has played) and ``wait`` seconds
    more, press Ctrl-C (SIGINT to the group, as a terminal does) or send ``sig``; the exit code, the
    stderr lines and the pids of the processes it had started."""
    prelude = WATCH_CHUNKS if ready == PLAYING else ""
    proc = subprocess.Popen([sys.executable, "-c", prelude + "\nfrom brutal_sim.cli import main; main()", *args],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=cwd,
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
    os.killpg(proc.pid, sig)
    sent = time.monotonic()
    try:
        _, rest = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"brutal-sim {' '.join(args)} did not stop within 60 s of the signal")
    _interrupt.took = time.monotonic() - sent  # type: ignore[attr-defined]
    return proc.returncode, [x for x in "".join(lines + [rest]).splitlines() if x.strip()], children


def _alive(pids: list[int]) -> list[int]:
    time.sleep(2)
    return [p for p in pids if psutil.pid_exists(p) and psutil.Process(p).status() != psutil.STATUS_ZOMBIE]


def test_ctrl_c_in_process_is_one_line_exit_130():
    code, lines, _ = _interrupt(["duel", "swordsman", "brute", "-n", "500000000", "--threads", "1"], "", 4.0)
    assert code == 130 and lines[-1] == "interrupted", lines
    assert all(line.startswith("compil") for line in lines[:-1]), lines  # a first run's compile notice


def test_ctrl_c_on_a_local_cluster_is_one_line_exit_130_and_no_process_is_left():
    pytest.importorskip("distributed")
    code, lines, children = _interrupt(["duel", "swordsman", "brute", "-n", "500000000", "--cluster", "local:1"],
                                       "Dask cluster", 3.0)
    assert code == 130, lines
    assert lines[-1] == "interrupted" and lines[-2].startswith("Dask cluster"), lines
    assert all(line.startswith("compil") for line in lines[:-2]), lines
    assert children and not _alive(children)


#: the longest a stop may take from the signal to the end of the process (a chunk of duels, then the
#: interpreter's exit) on a loaded machine; the whole batch would take minutes
STOP_SECONDS = 6.0


def _stopped(code: int, lines: list[str]) -> None:
    assert code == 130 and lines[-1] == "interrupted", lines
    assert not any("Traceback" in line or "Error" in line for line in lines), lines
    assert _interrupt.took < STOP_SECONDS, _interrupt.took


def test_ctrl_c_ends_sampled_attacks_within_a_chunk():
    _stopped(*_interrupt(["attack", "swordsman", "brute", "--sampled", "-n", "2000000000", "--threads", "1"], PLAYING,
                         0.5)[:2])


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_stop_ends_weights_within_a_chunk(sig):
    _stopped(*_interrupt(["weights", "swordsman", "brute", "-n", "100000000", "--threads", "1"], PLAYING, 0.5,
                         sig)[:2])


def test_sigterm_ends_a_diff_within_a_chunk_and_writes_nothing(tmp_path):
    args = ["diff", "swordsman", "brute", "militia", "-n", "100000000", "--threads", "1", "--option-b",
            "armour_model=protection_only", "-o", "out/d.html", "--csv", "out/csv"]
    _stopped(*_interrupt(args, PLAYING, 0.5, signal.SIGTERM, cwd=tmp_path)[:2])
    assert list(tmp_path.iterdir()) == []


def test_a_stop_ends_a_reports_weights_within_a_chunk_and_writes_nothing(tmp_path):
    (tmp_path / "w.toml").write_text('n = 100000000\nseed = 1\n' + "".join(
        f'[[weights]]\na = "{a}"\nb = "{b}"\n' for a, b in [("swordsman", "brute"), ("brute", "swordsman")] * 20))
    code, lines, _ = _interrupt(["report", "w.toml", "-o", "out/r.html", "--csv", "out/csv", "--threads", "1"],
                                PLAYING, 0.5, signal.SIGTERM, cwd=tmp_path)
    _stopped(code, lines)
    assert [p.name for p in tmp_path.iterdir()] == ["w.toml"]
