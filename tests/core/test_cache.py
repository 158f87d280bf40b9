"""The kernels' disk cache (brutal_sim.toolbox.cache, docs/engine.md "The disk cache").

- Two versions of the sources at one path (a release folder behind a ``current`` link switched
  while a process of the old one runs), both compiling into one numba cache at the same time, each
  always get their own version's counters: each version's machine code lives in a folder of its
  own, keyed on the sources as they were imported.
- A data file is loaded only for the key and source stamp it was saved under, and is written
  whole or not at all.
- ``brutal-sim cache info`` says where the cache is, how big and which versions it holds;
  ``brutal-sim cache clear`` removes brutal_sim's files and nothing else.
"""

from __future__ import annotations

import json
import os
import pickle
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from brutal_sim.cli import app
from brutal_sim.toolbox import cache, jit

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()

on_tested_numba = pytest.mark.skipif(not jit.MODE.tested, reason=jit.MODE.reason)


# -- two versions at one path, one cache, at the same time -----------------------------------------

#: Imports the toy kernel, says so, waits for a line on stdin, then plays a duel (the files behind
#: its path may have changed in between) and prints the counters and whether ``run`` was loaded.
_PLAY = """
    import json, sys
    from brutal_sim import api
    from brutal_sim.core.ruleset import register
    import toy_ruleset.drivers
    register("toy", "toy_ruleset")
    print("ready", flush=True)
    sys.stdin.readline()
    r = api.duel("veteran", "recruit", ruleset="toy", n=2000, seed=3, threads=1)
    hits = sum(toy_ruleset.drivers.run.stats.cache_hits.values())
    print(json.dumps({"counters": r.counters.tolist(), "loaded": hits}), flush=True)
"""


def _checkout(where: Path, dead_at: int) -> Path:
    """A copy of brutal_sim and the toy ruleset whose T-3 death threshold is ``dead_at`` (the toy's
    ``layout.py``: a constant the kernel imports from another file than its own)."""
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "brutal_sim", where / "brutal_sim", ignore=ignore)
    shutil.copytree(ROOT / "tests" / "toy" / "toy_ruleset", where / "toy_ruleset", ignore=ignore)
    layout = where / "toy_ruleset" / "layout.py"
    text = layout.read_text()
    assert "DEAD_AT = -3\n" in text
    layout.write_text(text.replace("DEAD_AT = -3\n", f"DEAD_AT = {dead_at}\n"))
    return where


def _start(path: Path, cache_dir: Path) -> subprocess.Popen:
    """A process of the checkout at ``path``, started and past its imports."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BRUTAL_SIM_", "NUMBA_CACHE_DIR"))}
    env.update(PYTHONPATH=str(path), NUMBA_CACHE_DIR=str(cache_dir), NUMBA_NUM_THREADS="1",
               PYTHONDONTWRITEBYTECODE="1")
    process = subprocess.Popen([sys.executable, "-c", textwrap.dedent(_PLAY)], cwd=path.parent, env=env,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if process.stdout.readline().strip() != "ready":
        process.kill()
        raise AssertionError(process.communicate()[1][-3000:])
    return process


def _play(processes: list[subprocess.Popen]) -> list[dict]:
    """Let the processes play at once; their outputs."""
    for process in processes:
        process.stdin.write("go\n")
        process.stdin.flush()
    outputs = []
    for process in processes:
        out, err = process.communicate(timeout=600)
        assert process.returncode == 0, f"exit {process.returncode}: {err[-3000:]}"
        outputs.append(json.loads(out.strip().splitlines()[-1]))
    return outputs


def _point(link: Path, target: Path) -> None:
    """Make ``link`` a symbolic link to ``target``, replacing it in one step."""
    tmp = link.with_name(link.name + ".new")
    tmp.unlink(missing_ok=True)
    tmp.symlink_to(target, target_is_directory=True)
    os.replace(tmp, link)


@on_tested_numba
def test_two_versions_at_one_path_compiling_into_one_cache_at_once_keep_their_own_code(tmp_path):
    """Versions a and b of the sources are served at one path, ``current``, a link switched from
    one to the other. In each round one version's process is started there and imports its kernel,
    the link is switched, the other version's process is started there, and both then play at the
    same time into one shared cache; the version started first alternates. Every process prints its
    own version's counters (those it gives with a cache of its own) and none crashes; from the
    second round on the kernels are loaded from the shared cache."""
    versions = {"a": _checkout(tmp_path / "a", -3), "b": _checkout(tmp_path / "b", -1)}
    own = dict(zip(versions, _play([_start(path, tmp_path / f"cache-{v}") for v, path in versions.items()])))
    assert own["a"]["counters"] != own["b"]["counters"]
    current, shared = tmp_path / "current", tmp_path / "shared"
    for round_, order in enumerate(("ab", "ba", "ab")):
        processes = []
        for v in order:
            _point(current, versions[v])
            processes.append(_start(current, shared))
        for v, out in zip(order, _play(processes)):
            assert out["counters"] == own[v]["counters"], f"round {round_}: version {v} played other code"
            if round_:
                assert out["loaded"] >= 1, f"round {round_}: version {v} did not load from the cache"
    toy_folders = [Path(p) for p in cache.scan(cache.locate(shared)).as_dict()["version_folders"]
                   if json.loads((Path(p) / cache.MANIFEST).read_text())["module"] == "toy_ruleset.drivers"]
    assert len(toy_folders) == 2  # one per version, side by side in numba's folder of the one path
    assert toy_folders[0].parent == toy_folders[1].parent


# -- the files ---------------------------------------------------------------------------------------

def _files(folder: Path, stamp: str = "stamp") -> cache.VersionedFiles:
    return cache.VersionedFiles(str(folder), "kernel._run-142.py311", stamp,
                                lambda tag: {"module": "m", "module_sources": tag[1], "jit": tag[2]}, pickle.dumps)


def test_a_data_file_is_loaded_only_for_its_key_and_source_stamp(tmp_path):
    key_a = ("sig", "magic", ("code",), ("brutal_sim", "sources-a", "tuned"))
    key_b = ("sig", "magic", ("code",), ("brutal_sim", "sources-b", "tuned"))
    files = _files(tmp_path)
    files.save(key_a, b"machine code a")
    files.save(key_b, b"machine code b")
    assert files.load(key_a) == b"machine code a" and files.load(key_b) == b"machine code b"
    assert files.path(key_a).parent != files.path(key_b).parent  # a folder per version
    assert json.loads((files.path(key_a).parent / cache.MANIFEST).read_text())["module_sources"] == "sources-a"
    assert _files(tmp_path, "another stamp").load(key_a) is None  # the function's file changed
    files.path(key_b).write_bytes(files.path(key_a).read_bytes())  # a's file under b's name
    assert files.load(key_b) is None
    files.path(key_b).write_bytes(b"not a pickle")
    assert files.load(key_b) is None
    assert files.load(("sig", "magic", ("other code",), key_a[-1])) is None
    assert sorted(p.name for p in tmp_path.rglob("*.tmp.*")) == []  # written through renames
    files.flush()
    assert files.load(key_a) is None


def test_a_cache_that_cannot_be_written_is_skipped(tmp_path):
    (tmp_path / "file").write_text("")
    files = _files(tmp_path / "file")  # numba's folder is a file: nothing can be made in it
    files.save(("k", ("brutal_sim", "s", "tuned")), b"code")
    assert files.load(("k", ("brutal_sim", "s", "tuned"))) is None


def test_the_folder_of_a_source_folder_is_numbas():
    from numba.core.caching import _CacheLocator

    for d in cache.source_dirs():
        assert cache.locator_subpath(str(d)) == _CacheLocator.get_suitable_cache_subpath(str(d / "x.py"))


# -- brutal-sim cache info | clear -------------------------------------------------------------------

def _fake_cache(root: Path) -> dict[str, Path]:
    """A shared cache folder: two versions of brutal_sim's code, numba's own files of brutal_sim's
    sources, and another package's files."""
    ours = root / cache.locator_subpath(str(cache.source_dirs()[0]))
    other = root / "other_pkg_0123456789abcdef0123456789abcdef01234567"
    for i, level in enumerate(("tuned", "plain")):
        folder = ours / f"{cache.VERSION_PREFIX}{i:016x}"
        folder.mkdir(parents=True)
        (folder / cache.MANIFEST).write_text(json.dumps(cache.manifest("brutal_sim.x", f"{i}" * 64, level, "0.68.1")))
        (folder / "x._f-1.py311.0123456789abcdef.nbc").write_bytes(b"1" * 1000)
    (ours / "x._g-2.py311.nbi").write_bytes(b"i" * 10)
    (ours / "x._g-2.py311.1.nbc").write_bytes(b"d" * 100)
    other.mkdir()
    (other / "f-1.py311.nbi").write_bytes(b"o")
    (other / "f-1.py311.1.nbc").write_bytes(b"o")
    (ours / "notes.txt").write_text("not numba's")
    return {"ours": ours, "other": other}


def test_cache_info_says_where_how_big_and_which_versions(tmp_path):
    _fake_cache(tmp_path)
    result = runner.invoke(app, ["cache", "info", "--dir", str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    info = json.loads(result.output)
    assert info["root"] == str(tmp_path) and info["files"] == 6
    assert info["bytes"] == 2 * 1000 + 110 + sum(
        len(json.dumps(cache.manifest("brutal_sim.x", f"{i}" * 64, level, "0.68.1")))
        for i, level in enumerate(("tuned", "plain")))
    assert sorted(v["jit"] for v in info["versions"]) == ["plain", "tuned"]
    assert {v["brutal_sim"] for v in info["versions"]} == {__import__("brutal_sim").__version__}
    assert info["numba_files"] == {"files": 2, "bytes": 110}
    text = runner.invoke(app, ["cache", "info", "--dir", str(tmp_path)])
    assert text.exit_code == 0
    assert text.output.splitlines()[0] == f"cache: {tmp_path}"
    assert "jit tuned" in text.output and "jit plain" in text.output and "6 files" in text.output


def test_cache_clear_removes_brutal_sims_files_only(tmp_path):
    folders = _fake_cache(tmp_path)
    result = runner.invoke(app, ["cache", "clear", "--dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("removed 6 files") and "2 version folders" in result.output
    assert sorted(p.name for p in folders["ours"].iterdir()) == ["notes.txt"]
    assert sorted(p.name for p in folders["other"].iterdir()) == ["f-1.py311.1.nbc", "f-1.py311.nbi"]
    again = runner.invoke(app, ["cache", "clear", "--dir", str(tmp_path), "--json"])
    assert again.exit_code == 0 and json.loads(again.output)["removed"]["files"] == 0
    missing = runner.invoke(app, ["cache", "clear", "--dir", str(tmp_path / "none")])
    assert missing.exit_code == 0 and missing.output.startswith("nothing to remove")


def test_cache_bad_input_is_one_line_and_exit_2(tmp_path):
    (tmp_path / "file").write_text("")
    for args in (["cache", "info", "--dir", str(tmp_path / "file")], ["cache", "info", "--bogus"],
                 ["cache", "clear", "extra"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        (line,) = result.output.strip().splitlines()
        assert line.startswith("error: "), line


def test_a_damaged_data_file_is_said_in_one_line_and_compiled_again(tmp_path, capsys):
    key = ("sig", "magic", ("code",), ("brutal_sim", "sources", "tuned"))
    files = _files(tmp_path)
    files.save(key, b"machine code")
    files.path(key).write_bytes(b"\x80\x04 cut short")
    assert files.load(key) is None
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("warning: damaged cache file ") and "compiling again" in lines[0]
    files.save(key, b"machine code")
    assert files.load(key) == b"machine code"
    assert capsys.readouterr().err == ""


def _version_folder(parent: Path, digits: str, manifest: bool = True) -> Path:
    folder = parent / f"{cache.VERSION_PREFIX}{digits}"
    folder.mkdir(parents=True)
    if manifest:
        (folder / cache.MANIFEST).write_text(json.dumps(cache.manifest("brutal_sim.x", "0" * 64, "tuned", "0.68.1")))
    (folder / "x._f-1.py311.0123456789abcdef.nbc").write_bytes(b"1" * 10)
    return folder


def test_cache_clear_never_reaches_through_a_link_out_of_its_root(tmp_path):
    root, outside = tmp_path / "root", tmp_path / "outside"
    ours = _version_folder(root / "pkg_0123", "0" * 16)
    theirs = _version_folder(outside / "pkg_4567", "1" * 16)
    (root / "linked").symlink_to(outside / "pkg_4567")
    (root / "pkg_0123" / f"{cache.VERSION_PREFIX}{'2' * 16}").symlink_to(theirs)
    result = runner.invoke(app, ["cache", "clear", "--dir", str(root), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["removed"]["version_folders"] == [str(ours.resolve())]
    assert not ours.exists() and sorted(p.name for p in theirs.iterdir()) == [
        cache.MANIFEST, "x._f-1.py311.0123456789abcdef.nbc"]


def test_cache_clear_keeps_folders_without_brutal_sims_manifest(tmp_path):
    bare = _version_folder(tmp_path / "pkg_0123", "3" * 16, manifest=False)
    (tmp_path / "pkg_0123" / f"{cache.VERSION_PREFIX}{'4' * 16}").mkdir()
    foreign = _version_folder(tmp_path / "pkg_0123", "5" * 16, manifest=False)
    (foreign / cache.MANIFEST).write_text('{"someone": "else"}')
    result = runner.invoke(app, ["cache", "clear", "--dir", str(tmp_path)])
    assert result.exit_code == 0 and result.output.startswith("nothing to remove"), result.output
    assert bare.exists() and foreign.exists() and (tmp_path / "pkg_0123" / f"{cache.VERSION_PREFIX}{'4' * 16}").exists()


@pytest.mark.parametrize("command", ["clear", "info"])
def test_an_empty_cache_dir_is_refused(tmp_path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    here = _version_folder(tmp_path / "pkg_0123", "6" * 16)
    for empty in ("", " "):
        result = runner.invoke(app, ["cache", command, "--dir", empty])
        assert result.exit_code == 2, result.output
        assert result.output.strip().splitlines() == ["error: --dir: give a folder (an empty path names none)"]
    assert sorted(p.name for p in here.iterdir()) == [cache.MANIFEST, "x._f-1.py311.0123456789abcdef.nbc"]


def test_a_cache_that_cannot_be_written_is_said_once(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(cache, "NOT_KEPT_SAID", [])
    (tmp_path / "file").write_text("")
    files = _files(tmp_path / "file")
    for k in ("k1", "k2"):
        files.save((k, ("brutal_sim", "s", "tuned")), b"code")
    assert capsys.readouterr().err.splitlines() == [cache.NOT_KEPT]


def test_on_an_untested_numba_a_function_with_no_cache_folder_compiles_in_the_process(monkeypatch, capsys):
    import dataclasses

    asked = []

    def njit(cache: bool = False, **options):
        asked.append(cache)
        if cache:
            raise RuntimeError("cannot cache function 'f': no locator available for file 'f.py'")
        return lambda func: func

    monkeypatch.setattr(jit, "MODE", dataclasses.replace(jit.MODE, tested=False))
    monkeypatch.setattr(jit, "njit", njit)
    monkeypatch.setattr(cache, "NOT_KEPT_SAID", [])
    assert jit.driver(lambda x: x + 1)(2) == 3
    assert asked == [True, False] and capsys.readouterr().err.splitlines() == [cache.NOT_KEPT]
