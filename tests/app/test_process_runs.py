"""Real runs of ``brutal-sim report`` in their own processes, ended or raced from outside: SIGTERM
mid-run, two ``--csv`` runs into one folder, the working folder deleted under a replay. Each run is
short (a few seconds of duels, the duel kernels cached by earlier tests or compiled once)."""

from __future__ import annotations

import csv
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ENV = {**os.environ, "PYTHONPATH": os.getcwd()}
SCENARIO = 'matchups = [["militia", "brute"], ["swordsman", "brute"]]\noptions = { round_cap = 20 }\n'


def start(args: list[str], cwd: Path, **env: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "brutal_sim.cli", *args], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**ENV, **env})


def run(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess:
    p = start(args, cwd, **env)
    out, err = p.communicate(timeout=600)
    return subprocess.CompletedProcess(args, p.returncode, out, err)


@pytest.fixture
def old_report(tmp_path: Path) -> Path:
    """A report of two cells, played with few duels (replays pass -n to run longer)."""
    made = tmp_path / "made"
    made.mkdir()
    (made / "s.toml").write_text("n = 200\n" + SCENARIO)
    r = run(["report", "s.toml", "-o", "old.html"], made)
    assert r.returncode == 0, r.stderr
    return made / "old.html"


def wait_for(condition, seconds: float = 300) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.005)
    return False


def test_sigterm_during_a_replay_leaves_no_temporary_file_or_folder(tmp_path, old_report):
    """SIGTERM while a replay plays (its setup laid out in a temporary folder), and again while a
    run writes its outputs: exit 130 with "interrupted", no ``brutal-sim-rerun-*`` folder, no
    ``.NAME.tmp`` file, no output."""
    work = tmp_path / "work"
    work.mkdir()
    temp = tmp_path / "temp"  # the runs' own temporary folder: other runs on the machine use /tmp
    temp.mkdir()
    p = start(["report", "--rerun", str(old_report), "-o", "new.html", "--csv", "c", "-n", "100000000"], work,
              TMPDIR=str(temp))
    assert wait_for(lambda: any(temp.glob("brutal-sim-rerun-*")) or p.poll() is not None)
    time.sleep(3)  # into the duels
    p.send_signal(signal.SIGTERM)
    _, err = p.communicate(timeout=300)
    assert p.returncode == 130, err
    assert "Traceback" not in err and err.strip().splitlines()[-1] == "interrupted"
    assert list(temp.iterdir()) == [] and list(work.iterdir()) == []


def test_sigterm_while_writing_leaves_no_temporary_file(tmp_path):
    """SIGTERM as soon as a run's temporary output (``.NAME….tmp``) appears: if the signal comes in
    time the run ends with nothing written, else it has finished whole; never a leftover."""
    work = tmp_path / "work"
    work.mkdir()
    variants = "".join(f'[[variants]]\nname = "cap {cap}"\noptions = {{ round_cap = {cap} }}\n' for cap in range(5, 30))
    (work / "s.toml").write_text("n = 20\n" + SCENARIO + '[[sweeps]]\nfighter = "militia"\nfield = '
                                 '"main_hand.penetration"\nvalues = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n'
                                 'opponents = ["brute"]\n' + variants)
    p = start(["report", "s.toml", "-o", "r.html", "--csv", "c"], work)
    wait_for(lambda: any(n.name.endswith(".tmp") for n in work.iterdir()) or p.poll() is not None, 600)
    p.send_signal(signal.SIGTERM)
    _, err = p.communicate(timeout=300)
    assert "Traceback" not in err, err
    left = sorted(n.name for n in work.iterdir())
    if p.returncode == 130:
        assert left == ["s.toml"], left
    else:
        assert p.returncode == 0, err
        assert left == ["c", "r.html", "s.toml"], left
        assert not any(n.name.endswith(".tmp") for n in (work / "c").iterdir())


def played(folder: Path) -> set[str]:
    """The duels per cell of the run whose tables a ``--csv`` folder holds."""
    return {r["n"] for r in csv.DictReader((folder / "summary.csv").open()) if r["measure"] == "win_rate"}


def test_two_csv_runs_into_one_folder_the_last_complete_wins(tmp_path):
    """Two reports writing ``--csv`` into one folder at once: both succeed, the folder holds exactly
    the files of the run that finished last (the longer one), no ``.old`` or temporary folder is
    left."""
    warm = tmp_path / "warm"  # both runs load their kernels from the cache: the race is over the duels
    warm.mkdir()
    (warm / "s.toml").write_text("n = 10\n" + SCENARIO)
    assert run(["report", "s.toml", "-o", "w.html"], warm).returncode == 0
    work = tmp_path / "work"
    work.mkdir()
    (work / "long.toml").write_text("n = 5000000\n" + SCENARIO)
    (work / "short.toml").write_text("n = 1000\n" + SCENARIO)
    long_run = start(["report", "long.toml", "-o", "long.html", "--csv", "c"], work)
    time.sleep(1)
    short_run = start(["report", "short.toml", "-o", "short.html", "--csv", "c"], work)
    _, short_err = short_run.communicate(timeout=600)
    assert short_run.returncode == 0, short_err
    assert long_run.poll() is None, "the long run must still be playing when the short one ends"
    assert played(work / "c") == {"1000"}
    _, long_err = long_run.communicate(timeout=600)
    assert long_run.returncode == 0, long_err
    assert sorted(n.name for n in work.iterdir()) == ["c", "long.html", "long.toml", "short.html", "short.toml"]
    assert played(work / "c") == {"5000000"}
    assert sorted(n.name for n in (work / "c").iterdir()) == sorted(
        [".brutal-sim-files", *(work / "c" / ".brutal-sim-files").read_text().split()])


def test_a_replay_whose_working_folder_is_deleted_mid_run_is_one_line(tmp_path, old_report):
    """The working folder removed while a replay plays (in its temporary folder): one line naming
    the problem, exit 2, no traceback, the temporary folder removed."""
    work = tmp_path / "work"
    work.mkdir()
    temp = tmp_path / "temp"
    temp.mkdir()
    p = start(["report", "--rerun", str(old_report), "-o", "new.html", "-n", "3000000"], work, TMPDIR=str(temp))
    assert wait_for(lambda: any(temp.glob("brutal-sim-rerun-*")) or p.poll() is not None)
    shutil.rmtree(work)
    _, err = p.communicate(timeout=600)
    assert p.returncode == 2, err
    lines = err.strip().splitlines()
    assert "Traceback" not in err and lines[-1].startswith("error: ") and "working folder" in lines[-1], err
    assert list(temp.iterdir()) == []
