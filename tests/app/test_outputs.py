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


def _saving_during_the_run(monkeypatch, save) -> None:
    """``save()`` runs after the duels, before the outputs are put in place (a user saving a file)."""
    import brutal_sim.report

    render = brutal_sim.report.render_report

    def render_and_save(*args, **kwargs):
        save()
        return render(*args, **kwargs)

    monkeypatch.setattr(brutal_sim.report, "render_report", render_and_save)


def _after_the_run(r) -> list[str]:
    """The lines of stderr but the progress lines of the cells and of the plots."""
    return [line for line in r.stderr.splitlines() if not line.startswith(("cell ", "rendering the report's plots"))]


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_a_file_saved_into_the_csv_folder_during_the_run_is_kept_and_nothing_is_replaced(scenario, tmp_path,
                                                                                          monkeypatch):
    page, folder = tmp_path / "r.html", tmp_path / "csv"
    assert _report(scenario, "-o", str(page), "--csv", str(folder)).exit_code == 0
    before = _tree(tmp_path)
    _saving_during_the_run(monkeypatch, lambda: (folder / "notes.txt").write_text("keep me"))
    r = _report(scenario, "-o", str(page), "--csv", str(folder))
    assert r.exit_code == 2 and _after_the_run(r) == [r.stderr.splitlines()[-1]], r.output
    assert r.stderr.splitlines()[-1].startswith("error: --csv: ") and \
        "did not write (notes.txt), saved there during the run" in r.stderr
    assert _tree(tmp_path) == {**before, "csv/notes.txt": b"keep me"}  # the page too is the earlier run's
    assert sorted(p.name for p in tmp_path.iterdir()) == ["csv", "r.html", "s.toml"]  # no temporary left


def test_a_folder_made_by_someone_else_during_the_run_is_kept(scenario, tmp_path, monkeypatch):
    folder = tmp_path / "out" / "csv"

    def save() -> None:
        folder.mkdir(parents=True)
        (folder / "mine.txt").write_text("keep me")

    _saving_during_the_run(monkeypatch, save)
    r = _report(scenario, "-o", str(tmp_path / "r.html"), "--csv", str(folder))
    assert r.exit_code == 2 and "did not write (mine.txt)" in r.stderr and len(_after_the_run(r)) == 1, r.output
    assert _tree(tmp_path / "out") == {"csv/mine.txt": b"keep me"} and not (tmp_path / "r.html").exists()
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["csv"]


def test_a_link_in_an_output_folder_is_never_followed(scenario, tmp_path):
    folder = tmp_path / "csv"
    assert _report(scenario, "-o", str(tmp_path / "r.html"), "--csv", str(folder)).exit_code == 0
    outside = tmp_path / "outside.csv"
    outside.write_text("mine")
    (folder / "summary.csv").unlink()
    (folder / "summary.csv").symlink_to(outside)
    _refused(_report(scenario, "-o", str(tmp_path / "r.html"), "--csv", str(folder)), "--csv",
             "did not write (summary.csv)")
    assert outside.read_text() == "mine" and (folder / "summary.csv").is_symlink()


NESTED = [
    (["-o", "D/r.html", "--csv", "D"], "-o", "D/r.html is inside --csv D"),
    (["-o", "r.html", "--csv", "D/p", "--parquet", "D"], "--csv", "D/p is inside --parquet D"),
    (["-o", "r.html", "--csv", "D", "--parquet", "D/p"], "--parquet", "D/p is inside --csv D"),
    (["-o", "D/p/r.html", "--parquet", "D"], "-o", "D/p/r.html is inside --parquet D"),
    (["-o", "D/./r.html", "--csv", "D/x/.."], "-o", "is inside --csv D/x/.."),
]


@pytest.mark.parametrize("args, flag, words", NESTED)
def test_outputs_one_inside_another_are_refused_before_any_duel(scenario, tmp_path, monkeypatch, args, flag, words):
    if "--parquet" in args:
        pytest.importorskip("pyarrow")
    monkeypatch.chdir(tmp_path)
    _refused(_report(scenario, *args), flag, words)
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["s.toml"]


def test_outputs_one_inside_another_through_a_link_are_refused(scenario, tmp_path):
    (tmp_path / "D").mkdir()
    (tmp_path / "L").symlink_to(tmp_path / "D")
    _refused(_report(scenario, "-o", str(tmp_path / "L" / "r.html"), "--csv", str(tmp_path / "D")), "-o",
             "is inside --csv")


def test_a_diff_refuses_nested_outputs_before_any_duel(tmp_path):
    r = runner.invoke(app, ["diff", "brute", "swordsman", "-n", "100", "--option-b", "armour_model=protection_only",
                            "-o", str(tmp_path / "D" / "d.html"), "--csv", str(tmp_path / "D")])
    _refused(r, "-o", "is inside --csv")
    assert list(tmp_path.iterdir()) == []


def test_a_staged_output_refused_at_the_swap_leaves_every_target_as_it_was(tmp_path):
    page, folder, other = tmp_path / "r.html", tmp_path / "csv", tmp_path / "pq"
    page.write_text("old page")
    outputs.write_folder(folder, {"a.csv": "old\n"})
    outputs.write_folder(other, {"b.csv": "old\n"})
    before = _tree(tmp_path)
    with pytest.raises(DataError, match=r"^--parquet: .*pq holds files brutal-sim did not write \(late.txt\)"):
        with outputs.staged() as stage:
            stage.file("-o", page, "new page")
            stage.folder("--csv", folder, {"a.csv": "new\n"})
            stage.folder("--parquet", other, {"b.csv": "new\n"})
            (other / "late.txt").write_text("keep me")
    assert _tree(tmp_path) == {**before, "pq/late.txt": b"keep me"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["csv", "pq", "r.html"]
