"""The command line and the API at the edges of the process: the terminal's width and encoding,
SIGTERM, forked children, an unwritable cache."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

ENV = {**os.environ, "PYTHONPATH": os.getcwd()}


def cli(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "brutal_sim.cli", *args], capture_output=True, text=True,
                          env={**ENV, **env}, timeout=300)


@pytest.mark.parametrize("columns", ["0", "-5", "x"])
def test_a_bad_columns_keeps_the_error_line(columns):
    r = cli("duel", "brute", "swordsman", "-n", "0", COLUMNS=columns)
    assert r.returncode == 2
    assert r.stderr.strip() == "error: -n: number of duels must be a positive integer, got 0"


def test_a_latin1_terminal_shows_non_ascii_names_replaced():
    r = subprocess.run([sys.executable, "-m", "brutal_sim.cli", "list", "fighters", "--ruleset", "vereteno"],
                       capture_output=True, env={**ENV, "PYTHONIOENCODING": "latin-1"}, timeout=300)
    assert r.returncode == 0, r.stderr
    assert b"Traceback" not in r.stderr and r.stdout


@pytest.mark.parametrize("threads", ["0", "-1"])
def test_threads_below_one_are_one_line(threads):
    r = cli("duel", "brute", "swordsman", "--threads", threads)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "--threads" in r.stderr


def test_sigterm_ends_a_run_as_ctrl_c_does():
    p = subprocess.Popen([sys.executable, "-m", "brutal_sim.cli", "duel", "--ruleset", "wfrp2e", "orc", "goblin",
                          "-n", "1000000000000"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    time.sleep(8)
    p.send_signal(signal.SIGTERM)
    _, stderr = p.communicate(timeout=120)
    assert p.returncode == 130, stderr
    assert "Traceback" not in stderr and stderr.strip().splitlines()[-1] == "interrupted"


def test_a_child_forked_after_the_threads_started_says_so_instead_of_hanging():
    script = textwrap.dedent("""
        import multiprocessing as mp
        from brutal_sim import api
        api.duel("orc", "goblin", ruleset="wfrp2e", n=1000)
        def play(seed):
            try:
                api.duel("orc", "goblin", ruleset="wfrp2e", n=1000, seed=seed)
            except RuntimeError as exc:
                return str(exc)
            return "played"
        with mp.get_context("fork").Pool(1) as pool:
            print(pool.map(play, [1])[0])
    """)
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=ENV, timeout=240)
    assert r.returncode == 0, r.stderr
    assert "spawn or forkserver" in r.stdout


def test_an_unwritable_cache_still_gives_a_result(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")  # a folder below a file can be made by no one, root included
    r = cli("duel", "--ruleset", "vereteno", "swordsman", "brute", "-n", "2000", "--json",  # the smallest kernel
            NUMBA_CACHE_DIR=str(blocker / "cache"), HOME=str(blocker))
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr and r.stdout.startswith("{")


@pytest.mark.parametrize("value", ["0", "-2", "many"])
def test_a_bad_numba_num_threads_is_one_line(value):
    r = cli("duel", "brute", "swordsman", NUMBA_NUM_THREADS=value)
    assert r.returncode == 2 and r.stderr.strip().splitlines() == [
        f"error: NUMBA_NUM_THREADS: must be a positive number of threads, got {value!r}"]


def test_a_deleted_working_folder_is_one_line(tmp_path):
    gone = tmp_path / "gone"
    gone.mkdir()
    script = (f"import os, runpy, sys; os.chdir({str(gone)!r}); os.rmdir({str(gone)!r}); "
              "sys.argv = ['brutal-sim', 'report', '--rerun', 'r.html', '-o', 'out.html']; "
              "runpy.run_module('brutal_sim.cli', run_name='__main__')")
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=ENV, timeout=120)
    assert r.returncode == 2 and r.stderr.strip().splitlines() == [
        "error: the working folder no longer exists; change to an existing folder and run again"], r.stderr
