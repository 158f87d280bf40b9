"""The fence around numba's internals (brutal_sim.toolbox.jit, docs/engine.md "The numba hook").

- The three levels (``BRUTAL_SIM_JIT=tuned|no-hook|plain``) give identical counters: duels (one at
  a distance) and exact and sampled attacks of two rulesets, each level in a process of its own with
  an empty numba cache of its own, and a WFRP 2e duel's recorded counters bit for bit.
- The hook runs only at the tuned level on a tested numba version: otherwise numba's code library
  is left as numba has it; on an untested numba the decorators make numba's own dispatchers with
  public options only. ``BRUTAL_SIM_PLAIN_JIT=1`` is ``plain``; an unknown level is one warning
  line and ``plain``.
- The hook rewrites the gufuncs of this package's ``prange`` loops, not a user's.
- The disk cache of a kernel function is keyed on the sources it is built from and on the level.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from numba import njit, prange

from brutal_sim.toolbox import jit
from brutal_sim.toolbox.rng import seed_duel

ROOT = Path(__file__).resolve().parents[2]

tuned = pytest.mark.skipif(not jit.MODE.hook, reason=f"not the tuned level: {jit.MODE.reason}")
on_tested_numba = pytest.mark.skipif(not jit.MODE.tested, reason=jit.MODE.reason)


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("BRUTAL_SIM_PLAIN_JIT", "BRUTAL_SIM_JIT", "NUMBA_CACHE_DIR")}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.update(extra)
    return env


def _python(code: str, cwd: Path, **env: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)], cwd=cwd, env=_env(**env),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _output(process: subprocess.Popen, timeout: float = 900, stderr: list[str] | None = None) -> dict:
    out, err = process.communicate(timeout=timeout)
    assert process.returncode == 0, err[-3000:]
    if stderr is not None:
        stderr.append(err)
    return json.loads(out.strip().splitlines()[-1])


# -- the levels play the same games -----------------------------------------------------------------

_PLAY = """
    import json
    from brutal_sim import api
    from brutal_sim.toolbox import jit

    def attack(r):
        return [r.outcomes.tolist(), r.levels.tolist(), r.mean_damage_per_attack]

    out = {"build": jit.MODE.level, "tested": jit.MODE.tested}
    out["wfrp2e golden duel"] = api.duel("orc", "goblin", ruleset="wfrp2e", n=3000, seed=29,
                                         threads=1).counters.tolist()
    out["wfrp2e shooting duel"] = api.duel("kithband", "orc", ruleset="wfrp2e", n=600, seed=5, threads=1,
                                           options={"start_distance": "40"}).counters.tolist()
    for ruleset, a, b in (("wfrp2e", "orc", "goblin"), ("vereteno", "swordsman", "brute")):
        out[f"{ruleset} duel"] = api.duel(a, b, n=3000, seed=7, ruleset=ruleset).counters.tolist()
        out[f"{ruleset} exact attack"] = attack(api.attack(a, b, ruleset=ruleset))
        out[f"{ruleset} sampled attack"] = attack(api.attack(a, b, n=3000, seed=2, ruleset=ruleset))
    out["hooked"] = jit.HOOKED
    print(json.dumps(out))
"""


@on_tested_numba
def test_every_level_gives_identical_counters_and_the_recorded_wfrp2e_duel(tmp_path):
    """``BRUTAL_SIM_JIT=tuned``, ``no-hook`` and ``plain``, each in a process of its own compiling
    every kernel it runs from an empty numba cache of its own, at the same time on one numba thread
    each: WFRP 2e and Vereteno duels (one at a distance), exact and sampled attacks give identical
    counters at every level, and the WFRP 2e duel those of tests/data/golden.json's "wfrp2e duel orc
    goblin" bit for bit; only the tuned level runs the hook. (The Brutal kernel, about a minute's
    compile per level, plays at the tuned level in the rest of the tests against the same golden
    battery; the hook is the same code for every ruleset.)"""
    golden = json.loads((ROOT / "tests" / "data" / "golden.json").read_text())["wfrp2e duel orc goblin"]
    runs = {level: _python(_PLAY, tmp_path, NUMBA_CACHE_DIR=str(tmp_path / level), NUMBA_NUM_THREADS="1",
                           BRUTAL_SIM_JIT=level)
            for level in jit.LEVELS}
    outs = {level: _output(process) for level, process in runs.items()}
    for level, out in outs.items():
        assert (out.pop("build"), out.pop("tested")) == (level, True)
        hooked = out.pop("hooked")
        if level == "tuned":  # the hook rewrote the parallel loops of both rulesets
            assert hooked["libraries"] >= 2 and hooked["functions"] >= 20, hooked
        else:
            assert hooked == {"libraries": 0, "functions": 0}, (level, hooked)
        assert out["wfrp2e golden duel"] == golden["counters"], level
    tuned_out = outs["tuned"]
    assert sum(tuned_out["wfrp2e shooting duel"][:3]) == 600 and len(tuned_out) == 8
    for level in ("no-hook", "plain"):
        for game in tuned_out:
            assert outs[level][game] == tuned_out[game], (level, game)


# -- the fence: numba version and environment -----------------------------------------------------

def test_mode_follows_the_numba_version_and_the_environment():
    tested = jit.TESTED_NUMBA[0]
    default = jit.jit_mode(tested, {})
    assert (default.level, default.tested, default.hook, default.borrowed_arrays, default.warning) == \
        ("tuned", True, True, True, None)
    for level, hook, borrowed in (("tuned", True, True), ("no-hook", False, True), ("plain", False, False)):
        for spelled in (level, f" {level.upper()} "):
            mode = jit.jit_mode(tested, {"BRUTAL_SIM_JIT": spelled})
            assert (mode.level, mode.build, mode.tested, mode.hook, mode.borrowed_arrays, mode.warning) == \
                (level, level, True, hook, borrowed, None), spelled
    # the former switch: BRUTAL_SIM_PLAIN_JIT=1 is plain; BRUTAL_SIM_JIT, when set, decides
    assert jit.jit_mode(tested, {"BRUTAL_SIM_PLAIN_JIT": "0"}).level == "tuned"
    assert jit.jit_mode(tested, {"BRUTAL_SIM_PLAIN_JIT": ""}).level == "tuned"
    for value in ("1", "yes", "true"):
        assert jit.jit_mode(tested, {"BRUTAL_SIM_PLAIN_JIT": value}).level == "plain"
    assert jit.jit_mode(tested, {"BRUTAL_SIM_PLAIN_JIT": "1", "BRUTAL_SIM_JIT": "no-hook"}).level == "no-hook"
    unknown = jit.jit_mode(tested, {"BRUTAL_SIM_JIT": "fast"})
    assert (unknown.level, unknown.hook, unknown.borrowed_arrays) == ("plain", False, False)
    assert unknown.warning == ("warning: BRUTAL_SIM_JIT='fast' is not one of tuned, no-hook, plain; "
                               "the kernels are compiled at the plain level")
    assert jit.jit_mode("0.68.2", {}).hook  # a patch release of a tested minor version
    for version in ("0.69.0", "0.67.0", "0.6.8", "1.0.0"):
        for environ in ({}, {"BRUTAL_SIM_JIT": "tuned"}):
            untested = jit.jit_mode(version, environ)
            assert (untested.hook, untested.borrowed_arrays, untested.tested, untested.level) == \
                (False, False, False, "plain"), version
            assert version in untested.reason
    assert jit.TESTED_NUMBA == ("0.68",) and jit.LEVELS == ("tuned", "no-hook", "plain")


def test_the_numba_pin_is_the_tested_minor_version():
    """pyproject.toml allows exactly the minor versions of numba that TESTED_NUMBA names."""
    import tomllib

    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    (pin,) = [d for d in dependencies if d.startswith("numba")]
    minors = sorted({tuple(int(p) for p in v.split(".")[:2]) for v in jit.TESTED_NUMBA})
    (low_major, low), (high_major, high) = minors[0], minors[-1]
    assert pin.replace(" ", "") == f"numba>={low_major}.{low},<{high_major}.{high + 1}"


_IMPORT = """
    import json, sys
    import numba
    import numpy as np
    numba.__version__ = sys.argv[1]
    from numba.core.codegen import CPUCodeLibrary
    from brutal_sim.toolbox import jit, rng
    st = np.zeros(4, dtype=np.uint64)
    rng.seed_duel(st, np.uint64(7), 0)
    print(json.dumps({
        "mode": [jit.MODE.level, jit.MODE.tested],
        "hooked": CPUCodeLibrary._optimize_final_module.__module__,
        "rule": [type(rng.roll_die).__module__, type(rng.roll_die).__name__],
        "rule options": sorted(rng.roll_die.targetoptions),
        "dice": [int(rng.roll_die(st, 6)) for _ in range(8)],
    }))
"""


def _imported(tmp_path: Path, *argv: str, stderr: list[str] | None = None, **env: str) -> dict:
    process = subprocess.Popen([sys.executable, "-c", textwrap.dedent(_IMPORT), *argv], cwd=tmp_path,
                               env=_env(NUMBA_CACHE_DIR=str(tmp_path / "cache"), **env),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return _output(process, stderr=stderr)


def test_the_fence_at_import_time(tmp_path):
    """What a fresh process gets. On the tested numba, tuned: the hook replaces numba's step and
    rules are typed dispatchers without reference counting; no-hook: numba's step is its own, rules
    as tuned; plain (also ``BRUTAL_SIM_PLAIN_JIT=1``, and an unknown level, with a warning line):
    numba's step, typed dispatchers with public options; on an untested numba version rules are
    numba's own dispatchers with public options. The dice are the same in all."""
    tested = jit.TESTED_NUMBA[0]
    stderr: list[str] = []
    runs = {"tuned": _imported(tmp_path, tested), "no-hook": _imported(tmp_path, tested, BRUTAL_SIM_JIT="no-hook"),
            "plain": _imported(tmp_path, tested, BRUTAL_SIM_PLAIN_JIT="1"),
            "unknown": _imported(tmp_path, tested, stderr=stderr, BRUTAL_SIM_JIT="hooked"),
            "untested": _imported(tmp_path, "0.69.0")}
    assert runs["tuned"]["mode"] == ["tuned", True]
    assert runs["tuned"]["hooked"] == "brutal_sim.toolbox.jit"
    assert runs["no-hook"]["mode"] == ["no-hook", True]
    for level in ("tuned", "no-hook"):
        assert runs[level]["rule"] == ["brutal_sim.toolbox.jit", "TypedDispatcher"]
        assert "_nrt" in runs[level]["rule options"]
    for level in ("plain", "unknown"):
        assert runs[level]["mode"] == ["plain", True]
        assert runs[level]["rule"] == ["brutal_sim.toolbox.jit", "TypedDispatcher"]
    assert stderr[0].strip() == jit.jit_mode(tested, {"BRUTAL_SIM_JIT": "hooked"}).warning
    assert runs["untested"]["mode"] == ["plain", False]
    assert runs["untested"]["rule"] == ["numba.core.registry", "CPUDispatcher"]
    for level in ("no-hook", "plain", "unknown", "untested"):
        assert runs[level]["hooked"] == "numba.core.codegen"
    for level in ("plain", "unknown", "untested"):
        assert runs[level]["rule options"] == ["boundscheck", "nopython"]
    assert all(run["dice"] == runs["tuned"]["dice"] for run in runs.values())
    assert all(1 <= d <= 6 for d in runs["tuned"]["dice"]) and len(set(runs["tuned"]["dice"])) > 1


@tuned
def test_the_hook_leaves_a_users_parallel_loop_alone(monkeypatch):
    """Only a gufunc compiled for one of this package's functions is rewritten: a user's prange
    loop calling a rule function is not, the same loop made by ``jit.driver`` is."""
    calls = []
    internalize = jit.internalize_own_functions
    monkeypatch.setattr(jit, "internalize_own_functions",
                        lambda module, *args: calls.append(module) or internalize(module, *args))
    def loop(n):
        out = np.zeros((n, 4), dtype=np.uint64)
        for i in prange(n):
            seed_duel(out[i], np.uint64(3), i)
        return out

    users = njit(parallel=True, cache=False)(loop)
    expected = users.py_func(5)
    assert np.array_equal(users(5), expected)
    assert calls == []
    ours = jit.driver(parallel=True, cache=False)(loop)
    assert np.array_equal(ours(5), expected)
    assert len(calls) >= 1


# -- the disk cache is keyed on the sources and the level ------------------------------------------

@on_tested_numba
def test_the_cache_key_follows_jit_py_the_imported_sources_and_the_level(monkeypatch):
    from numba.core import types

    from brutal_sim.rulesets.brutal import kernel

    sig, codegen = (types.int64,), kernel.hit.targetctx.codegen()

    def key():
        monkeypatch.setattr(jit, "_DIGESTS", {})
        return kernel.hit._cache._index_key(sig, codegen)

    def changed(suffix: str):
        real = jit.file_digest
        monkeypatch.setattr(jit, "file_digest", lambda path: real(path) + ("x" if path.endswith(suffix) else ""))

    base = key()
    assert base[-1] == jit.cache_tag(kernel.hit.py_func) and base[-1][2] == jit.MODE.level
    changed(os.path.join("toolbox", "jit.py"))
    assert key() != base
    monkeypatch.undo()
    changed(os.path.join("brutal", "layout.py"))  # a constant the blow reads, from another file
    assert key() != base
    monkeypatch.undo()
    changed(os.path.join("brutal_sim", "cli", "base.py"))  # not imported by the kernel
    assert key() == base
    monkeypatch.undo()
    for level in set(jit.LEVELS) - {jit.MODE.level}:
        monkeypatch.setattr(jit, "MODE", dataclasses.replace(jit.MODE, level=level))
        assert key()[-1][2] == level and key() != base


@on_tested_numba
def test_a_changed_constant_in_another_file_is_not_served_from_the_cache(tmp_path):
    """A rule multiplying by a constant imported from another file: after the constant changes
    (the rule's own file untouched) a new process computes with the new constant, not the cached
    machine code; unchanged sources load from the cache."""
    package = tmp_path / "fence_pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "consts.py").write_text("K = 3\n")
    (package / "fns.py").write_text(textwrap.dedent("""
        from brutal_sim.toolbox.jit import rule
        from .consts import K

        @rule
        def times_k(x):
            return x * K
    """))
    run = """
        import json
        from fence_pkg.fns import times_k
        print(json.dumps([int(times_k(2)), len(times_k.stats.cache_hits)]))
    """

    def value():
        process = subprocess.Popen([sys.executable, "-c", textwrap.dedent(run)], cwd=tmp_path,
                                   env=_env(NUMBA_CACHE_DIR=str(tmp_path / "cache"),
                                            PYTHONPATH=f"{tmp_path}{os.pathsep}{ROOT}"),
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        out, err = process.communicate(timeout=300)
        assert process.returncode == 0, err[-3000:]
        return json.loads(out)

    assert value() == [6, 0]  # compiled
    assert value() == [6, 1]  # from the cache
    (package / "consts.py").write_text("K = 5\n")
    assert value() == [10, 0]  # compiled again
