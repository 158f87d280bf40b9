"""Every compile is said before it starts, with what compiles and about how long (a table measured
by ``benchmarks/run.py --cold-only``), never when the kernels only load from numba's cache, and is
never counted in a run's time (``brutal_sim.toolbox.compiling``). The command line says it on
stderr and never writes to stdout (``--json`` output stays one JSON object, with ``compile_s``).

The cold runs use the toy ruleset (tests/toy), whose kernels compile fastest: each command family
from an empty numba cache in a fresh process (the notice appears), then again on that cache (it
does not); a family's commands share its cold cache."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from rich.console import Console

from brutal_sim.cli import base as cli
from brutal_sim.toolbox import compiling

ROOT = Path(__file__).resolve().parents[2]


class _Type:
    """A numba type as :func:`compiling.family` reads it (by its name)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __str__(self) -> str:
        return self.name


@pytest.mark.parametrize("module,name,flags,expected", [
    ("brutal_sim.rulesets.vereteno.kernel.drivers", "_run", ("bool", "none"), ("vereteno", "duel+ranged")),
    ("brutal_sim.rulesets.brutal.kernel.drivers", "_run", ("none", "none"), ("brutal", "duel")),
    ("brutal_sim.rulesets.wfrp2e.kernel.drivers", "_run", ("bool", "bool"), ("wfrp2e", "duel+group+ranged")),
    ("brutal_sim.rulesets.wfrp2e.kernel.drivers", "_paired", ("none", "bool"), ("wfrp2e", "paired+group")),
    ("brutal_sim.rulesets.vereteno.exact", "first_turn", (), ("vereteno", "first_turn")),
    ("brutal_sim.rulesets.brutal.exact", "_blow", (), ("brutal", "exact")),
    ("somebody.else", "f", (), (None, "f")),
])
def test_a_compile_is_named_by_its_ruleset_and_kernel_set(module, name, flags, expected):
    assert compiling.family(module, name, tuple(_Type(f) for f in ("array", *flags))) == expected


def test_the_estimate_is_the_measured_table():
    table = json.loads(compiling.TABLE.read_text())
    assert table["by"] == "benchmarks/run.py --cold-only"
    seconds = table["rulesets"]["vereteno"]["duel+ranged"]
    assert compiling.estimate("vereteno", "duel+ranged") == seconds
    assert compiling.starting_text("vereteno", "duel+ranged") == (
        f"compiling the vereteno duel-at-a-distance kernels (once: numba caches them; about {seconds:.0f} s) …")
    assert compiling.estimate("nobody", "duel") is None
    assert compiling.starting_text(None, "duel") == "compiling the duel kernels (once: numba caches them) …"


class _Dispatcher:
    """What the listener reads of a numba dispatcher."""

    def __init__(self, module: str, name: str) -> None:
        self.py_func = type("F", (), {"__module__": module, "__name__": name})


def _compile(seconds: float, module: str = "brutal_sim.rulesets.brutal.exact", name: str = "_blow") -> None:
    """What numba's ``numba:compile`` events tell of a compile of ``seconds``."""
    d = _Dispatcher(module, name)
    compiling.on_start(d, ())
    time.sleep(seconds)
    compiling.on_end(d)


def _said(monkeypatch, step, json_mode: bool = False, terminal: bool = False) -> str:
    stream = io.StringIO()
    monkeypatch.setattr(cli, "err", Console(file=stream, force_terminal=terminal, width=200))
    cli.compile_notice(json_mode, step)
    return stream.getvalue()


def test_a_step_is_said_once_however_many_functions_it_compiles(monkeypatch):
    text = _said(monkeypatch, lambda: [_compile(0.05), _compile(0.05, name="_hit_blows")])
    lines = text.splitlines()
    assert lines[0].startswith("compiling the brutal exact-attack kernels (once: numba caches them")
    took = re.fullmatch(r"compiled the brutal exact-attack kernels in (\d+\.\d) s \(cached: later runs start fast\)",
                        lines[1])
    assert took and float(took.group(1)) >= 0.1  # both compiles
    assert len(lines) == 2


def test_nothing_is_said_when_nothing_compiles(monkeypatch):
    assert _said(monkeypatch, lambda: time.sleep(0.05)) == ""


def test_json_mode_says_nothing_on_a_pipe(monkeypatch):
    assert _said(monkeypatch, lambda: _compile(0.01), json_mode=True) == ""


def test_a_compile_inside_a_run_is_not_counted_in_its_time():
    def run() -> None:
        time.sleep(0.05)
        _compile(0.3, "brutal_sim.rulesets.brutal.kernel.drivers", "_run")

    before = compiling.total_seconds()
    _value, seconds = compiling.timed(run)
    assert compiling.total_seconds() - before >= 0.3
    assert 0.04 <= seconds < 0.2


# -- each command family from an empty cache, in a fresh process -----------------------------------------

#: the child: the toy ruleset registered, then a command line (``cli …``) or Python (``py …``)
_CHILD = """
import sys
sys.path[:0] = [sys.argv[1], sys.argv[2]]
from brutal_sim.core.ruleset import register
register("toy", "toy_ruleset")
if sys.argv[3] == "py":
    exec(sys.argv[4])
else:
    from brutal_sim.cli import main
    sys.argv = ["brutal-sim", *sys.argv[4:]]
    main()
"""

_SCENARIO = """\
title = "Toy"
ruleset = "toy"
n = 200
fighters = ["veteran", "recruit"]
round_robin = true
"""

TOY = ["--ruleset", "toy"]
#: per family: the commands run one after the other on one cache, the first from an empty cache
FAMILIES = {
    "duel": [("cli", ["duel", "veteran", "recruit", *TOY, "-n", "1000"]),
             ("cli", ["attack", "veteran", "recruit", *TOY, "-n", "1000"]),
             ("py", "from brutal_sim import api; api.duel('veteran', 'recruit', n=100, ruleset='toy')")],
    "duel at a distance": [("cli", ["duel", "archer", "veteran", *TOY, "--option", "start_distance=12", "-n", "500"]),
                           ("cli", ["duel", "archer", "veteran", *TOY, "--option", "start_distance=12", "-n", "500"])],
    "attack (exact)": [("cli", ["attack", "veteran", "recruit", *TOY]),
                       ("py", "from brutal_sim import api; api.attack('veteran', 'recruit', ruleset='toy')")],
    "fight": [("cli", ["fight", "veteran", "vs", "recruit*2", *TOY, "-n", "200"]),
              ("cli", ["fight", "veteran", "vs", "recruit*3", *TOY, "-n", "200"])],
    "diff, report": [  # (the toy's fighters have no adjustable stat to weigh: weights plays the same kernels)
        ("cli", ["diff", "veteran", "recruit", *TOY, "--option-a", "ties=miss", "--option-b", "ties=hit", "-n", "200"]),
        ("cli", ["report", "{tmp}/toy.toml", "-o", "{tmp}/toy.html"]),
        ("py", "from brutal_sim.explorer import Explorer; Explorer('veteran', 'recruit', ['options.ties'], n=200, "
               "ruleset='toy').reading()")],
    "duel --json": [("cli", ["duel", "veteran", "recruit", *TOY, "-n", "1000", "--json"])],
    "explorer (a notebook)": [
        ("py", "from brutal_sim.explorer import Explorer; Explorer('veteran', 'recruit', ['options.ties'], n=200, "
               "ruleset='toy').reading()")],
}
#: the notice's first words, on stderr
NOTICE = "compiling the toy "


def _family(commands: list[tuple[str, object]], tmp: Path) -> list[tuple[str, str]]:
    """Run ``commands`` on one empty numba cache: each one's stdout and stderr."""
    (tmp / "toy.toml").write_text(_SCENARIO)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp / "cache"), "COLUMNS": "200"}
    outputs = []
    for how, what in commands:
        args = [what] if how == "py" else [str(a).replace("{tmp}", str(tmp)) for a in what]  # type: ignore[union-attr]
        r = subprocess.run([sys.executable, "-c", _CHILD, str(ROOT), str(ROOT / "tests" / "toy"), how, *args],
                           capture_output=True, text=True, cwd=tmp, env=env, timeout=600)
        assert r.returncode == 0, r.stderr
        outputs.append((r.stdout, r.stderr))
    return outputs


@pytest.fixture(scope="module")
def cold_runs(tmp_path_factory):
    """Every family's commands, two families at a time (a compile keeps one core busy)."""
    with ThreadPoolExecutor(2) as pool:
        futures = {name: pool.submit(_family, commands, tmp_path_factory.mktemp("cold"))
                   for name, commands in FAMILIES.items()}
        return {name: f.result() for name, f in futures.items()}


@pytest.mark.parametrize("name", [name for name in FAMILIES if "--json" not in name])
def test_a_first_run_says_what_it_compiles_and_a_cached_one_says_nothing(cold_runs, name):
    (first_out, first_err), *later = cold_runs[name]
    notices = [line for line in first_err.splitlines() if line.startswith(NOTICE)]
    assert len(notices) == 1 and notices[0].endswith("(once: numba caches them) …"), first_err
    assert re.search(r"^compiled the toy .* kernels in \d+\.\d s \(cached: later runs start fast\)$", first_err, re.M)
    assert "compil" not in first_out
    for out, err in later:
        assert "compil" not in err and "compil" not in out, err


def test_a_cold_duel_reports_its_speed_without_the_compile(cold_runs):
    """``--json`` carries the compile's seconds apart: the duels' time is the run's alone."""
    out, err = cold_runs["duel --json"][0]
    assert err == ""  # JSON mode says nothing on a pipe
    data = json.loads(out)
    assert data["compile_s"] > 1.0
    assert data["elapsed_s"] < data["compile_s"] / 4
