"""A read-only install with a read-only home: the command line runs on a warm cache it cannot
write, and with no cache it compiles in the process and says so in one line. The package is a copy
whose folders, and the home, are mounted read-only in a mount namespace (``unshare``), so that no
process, root included, can write there and numba has no writable folder to fall back on."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import brutal_sim
from brutal_sim.toolbox.cache import NOT_KEPT

PACKAGE = Path(brutal_sim.__file__).resolve().parent
# the smallest kernel
DUEL = ["duel", "--ruleset", "vereteno", "swordsman", "brute", "-n", "2000", "--seed", "3", "--json"]
#: run ARGS with the folders given before ``--`` mounted read-only (a new user and mount namespace)
READ_ONLY = ('for d in "$@"; do [ "$d" = -- ] && break; mount --bind -o ro "$d" "$d" || exit 97; done; '
             'while [ "$1" != -- ]; do shift; done; shift; exec "$@"')
#: the driver of the duels compiled here, and how many of its versions were loaded from the cache
CACHE_HITS = ("import json; from brutal_sim import api; "
              "from brutal_sim.rulesets.vereteno.kernel.drivers import _run; "
              "api.duel('swordsman', 'brute', ruleset='vereteno', n=2000, seed=3); "
              "print(json.dumps([sum(_run.stats.cache_hits.values()), sum(_run.stats.cache_misses.values())]))")


@pytest.fixture(scope="module")
def install(tmp_path_factory) -> tuple[Path, Path]:
    """A copy of the package (no cache in it) and an empty home."""
    root = tmp_path_factory.mktemp("install")
    shutil.copytree(PACKAGE, root / "site" / "brutal_sim", ignore=shutil.ignore_patterns("__pycache__"))
    (root / "home").mkdir()
    return root / "site", root / "home"


def _env(site: Path, home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME", "MPLCONFIGDIR")}
    return {**env, "PYTHONPATH": str(site), "HOME": str(home), "PYTHONDONTWRITEBYTECODE": "1"}


def _run(args: list[str], site: Path, home: Path, read_only: bool) -> subprocess.CompletedProcess:
    command = [sys.executable, *args]
    if read_only:
        folders = [str(p) for p in [site, *sorted(site.rglob("*")), home] if p.is_dir()]
        command = ["unshare", "--map-root-user", "--mount", "sh", "-c", READ_ONLY, "sh", *folders, "--", *command]
    r = subprocess.run(command, capture_output=True, text=True, env=_env(site, home), timeout=900, cwd=home.parent)
    if r.returncode == 97:
        pytest.skip(f"no read-only bind mounts here (unshare: {r.stderr.strip()[:200]})")
    return r


def _no_mount_namespace() -> str | None:
    """Why no folder can be mounted read-only here, or None."""
    import tempfile

    if shutil.which("unshare") is None:
        return "unshare is not installed"
    with tempfile.TemporaryDirectory() as probe:
        r = subprocess.run(["unshare", "--map-root-user", "--mount", "sh", "-c",
                            'mount --bind -o ro "$1" "$1" && ! touch "$1/x" 2>/dev/null', "sh", probe],
                           capture_output=True, text=True)
        written = os.path.exists(os.path.join(probe, "x"))
    return None if r.returncode == 0 and not written else \
        f"no read-only bind mount in a user and mount namespace here: {r.stderr.strip()[:200]}"


_WHY_NOT = _no_mount_namespace()
pytestmark = pytest.mark.skipif(_WHY_NOT is not None, reason=str(_WHY_NOT))


def _duel(r: subprocess.CompletedProcess) -> dict:
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr and "no locator" not in r.stderr, r.stderr
    return json.loads(r.stdout)


def test_the_copy_is_what_runs_and_cannot_be_written(install):
    site, home = install
    script = ("import brutal_sim, pathlib; print(brutal_sim.__file__); "
              "pathlib.Path(brutal_sim.__file__).with_name('x').write_text('')")
    r = _run(["-c", script], site, home, read_only=True)
    assert r.stdout.strip() == str(site / "brutal_sim" / "__init__.py") and "Read-only file system" in r.stderr


def test_with_no_cache_the_cli_runs_uncached_and_says_so_in_one_line(install):
    site, home = install
    r = _run(["-m", "brutal_sim.cli", *DUEL], site, home, read_only=True)
    assert _duel(r)["n"] == 2000
    assert r.stderr.splitlines() == [NOT_KEPT]
    assert not any(site.rglob("__pycache__")) and not any(home.iterdir())  # nothing was written


def test_with_a_warm_cache_the_cli_runs_on_it_read_only(install):
    site, home = install
    warm = _run(["-c", CACHE_HITS], site, home, read_only=False)  # a writable install fills its cache
    assert warm.returncode == 0, warm.stderr
    cached = sorted(p.relative_to(site) for p in site.rglob("*.nbc"))
    assert cached
    r = _run(["-m", "brutal_sim.cli", *DUEL], site, home, read_only=True)
    assert NOT_KEPT not in r.stderr
    expected = _duel(_run(["-m", "brutal_sim.cli", *DUEL], site, home, read_only=False))
    assert _duel(r)["a"] == expected["a"] and _duel(r)["b"] == expected["b"]
    hits, misses = json.loads(_run(["-c", CACHE_HITS], site, home, read_only=True).stdout)
    assert hits >= 1 and misses == 0  # loaded from the read-only cache, not compiled
    assert sorted(p.relative_to(site) for p in site.rglob("*.nbc")) == cached and not any(home.iterdir())
