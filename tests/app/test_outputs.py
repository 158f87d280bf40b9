"""Output paths (``report -o``, ``--csv``): only ever a regular file or a folder of the run's own
files is created or replaced, never an input, a link, a FIFO, a device or a folder of other files;
refused with one line and exit 2 before any duel, and nothing appears unless the run succeeded."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from brutal_sim import outputs
from brutal_sim.cli import app
from brutal_sim.core.errors import DataError

runner = CliRunner()

ROBIN = 'n = 40\nseed = 1\nround_robin = true\nfighters = ["militia", "brute", "swordsman"]\n'
SWEEP = ('n = 40\nseed = 1\n[[sweeps]]\nname = "axe"\nfighter = "brute"\nopponents = ["swordsman"]\n'
         'field = "main_hand.damage"\nvalues = ["d6", "d8"]\n')


def _report(scenario: Path, *args: str):
    return runner.invoke(app, ["report", str(scenario), *args])


def _refused(r, flag: str, words: str) -> None:
    assert r.exit_code == 2, r.output
    assert r.stderr.count("\n") == 1 and f"error: {flag}: " in r.stderr and words in r.stderr, r.stderr
    assert "cell " not in r.stderr  # no duel was played


@pytest.fixture
def scenario(tmp_path: Path) -> Path:
    path = tmp_path / "s.toml"
    path.write_text(ROBIN)
    return path


def test_the_scenario_itself_is_never_overwritten(scenario):
    before = scenario.read_text()
    _refused(_report(scenario, "-o", str(scenario)), "-o", "is an input of this run")
    assert scenario.read_text() == before


def test_a_fighter_file_the_scenario_names_is_never_overwritten(tmp_path):
    fighter = tmp_path / "sergeant.toml"
    fighter.write_text((Path(__file__).resolve().parents[2] / "examples" / "sergeant.toml").read_text())
    scenario = tmp_path / "s.toml"
    scenario.write_text('n = 20\nmatchups = [["sergeant.toml", "brute"]]\n')
    before = fighter.read_text()
    _refused(_report(scenario, "-o", str(fighter)), "-o", "is an input of this run")
    assert fighter.read_text() == before


def test_a_fifo_a_device_a_link_and_a_folder_are_refused(scenario, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    _refused(_report(scenario, "-o", str(fifo)), "-o", "is a FIFO")
    _refused(_report(scenario, "-o", os.devnull), "-o", "is a device")
    target = tmp_path / "target.html"
    target.write_text("mine")
    link = tmp_path / "link.html"
    link.symlink_to(target)
    _refused(_report(scenario, "-o", str(link)), "-o", "is a symbolic link")
    assert target.read_text() == "mine" and link.is_symlink()
    _refused(_report(scenario, "-o", str(tmp_path)), "-o", "is a folder")
    _refused(_report(scenario, "-o", str(tmp_path / "r.html"), "--csv", str(fifo)), "--csv", "is a FIFO")
    assert not (tmp_path / "r.html").exists()


def test_a_csv_folder_with_other_files_is_refused(scenario, tmp_path):
    folder = tmp_path / "csv"
    folder.mkdir()
    (folder / "notes.txt").write_text("keep me")
    _refused(_report(scenario, "-o", str(tmp_path / "r.html"), "--csv", str(folder)), "--csv",
             "holds files brutal-sim did not write (notes.txt)")
    assert (folder / "notes.txt").read_text() == "keep me" and not (tmp_path / "r.html").exists()


def test_csv_of_a_later_run_replaces_the_earlier_run_as_a_whole(tmp_path):
    robin, sweep = tmp_path / "robin.toml", tmp_path / "sweep.toml"
    robin.write_text(ROBIN)
    sweep.write_text(SWEEP)
    folder = tmp_path / "csv"
    assert _report(robin, "-o", str(tmp_path / "a.html"), "--csv", str(folder)).exit_code == 0
    assert {p.name for p in folder.iterdir()} == {"summary.csv", "rounds.csv", "wounds.csv", "decided_by.csv",
                                                  "wounds_at_least.csv", outputs.MANIFEST}
    assert _report(sweep, "-o", str(tmp_path / "b.html"), "--csv", str(folder)).exit_code == 0
    assert {p.name for p in folder.iterdir()} == {"summary.csv", "rounds.csv", "wounds.csv", "decided_by.csv",
                                                  "wounds_at_least.csv", "differences.csv", outputs.MANIFEST}
    assert "Swordsman" in (folder / "summary.csv").read_text() and "militia" not in \
        (folder / "summary.csv").read_text().lower()


def test_nothing_is_created_when_the_run_fails(scenario, tmp_path, monkeypatch):
    import brutal_sim.scenario

    def fail(*_args, **_kwargs):
        raise DataError("test", None, "a failure in the middle of the run")

    monkeypatch.setattr(brutal_sim.scenario, "run_scenario", fail)
    out = tmp_path / "new" / "deeper"
    r = _report(scenario, "-o", str(out / "r.html"), "--csv", str(out / "csv"))
    assert r.exit_code == 2 and "a failure in the middle of the run" in r.stderr
    assert not (tmp_path / "new").exists()


def test_write_folder_keeps_the_old_folder_when_writing_fails(tmp_path):
    folder = tmp_path / "csv"
    outputs.write_folder(folder, {"a.csv": "1\n"})

    def broken(_path: Path) -> None:
        raise OSError("disk full")

    with pytest.raises(OSError):
        outputs.write_folder(folder, {"b.csv": broken})
    assert (folder / "a.csv").read_text() == "1\n" and not (folder / "b.csv").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["csv"]  # no temporary folder left


def test_check_file_creates_nothing(tmp_path):
    path = tmp_path / "x" / "y" / "r.html"
    assert outputs.check_file("-o", str(path)) == path
    assert not (tmp_path / "x").exists()


def test_runs_writing_one_folder_at_once_leave_the_last_complete_one_and_nothing_else(tmp_path):
    import threading

    from brutal_sim.outputs import write_folder

    target = tmp_path / "out"
    errors = []

    def writer(k: int) -> None:
        try:
            for i in range(30):
                write_folder(target, {"a.csv": f"{k},{i}\n", "b.csv": f"{k},{i}\n"})
        except Exception as exc:  # noqa: BLE001  (any failure fails the test)
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
    assert (target / "a.csv").read_text() == (target / "b.csv").read_text()
