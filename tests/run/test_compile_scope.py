"""Each command compiles only what it runs: a melee duel (the kernel set without ``ranged``)
compiles none of its ruleset's ranged rule functions (Brutal B-8: ``kernel/ranged.py``; WFRP 2e
W-7: ``kernel/ranged.py`` and the shooters' turns; Vereteno V-10, V-11: ``kernel/distance.py``,
``shooting.py``, ``ranged.py``), a duel with a ranged weapon, a missile weapon or a gun does.
Played in a fresh process with an empty numba cache, where every function a run reaches is
compiled (and so has a signature)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

_PLAY = """
import importlib, json, sys
from brutal_sim import api

ruleset, a, b, options, modules = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4]), sys.argv[5:]
api.duel(a, b, n=50, ruleset=ruleset, threads=1, options=options)
compiled = {}
for name in modules:
    module = importlib.import_module(name)
    compiled[name] = sorted(key for key, f in vars(module).items()
                            if getattr(f, "__module__", None) == name and getattr(f, "signatures", None))
print(json.dumps(compiled))
"""

KERNEL = "brutal_sim.rulesets.{}.kernel.{}"
CASES = {
    "brutal": (("swordsman", "brute", {}), ("crossbowman", "swordsman", {"start_distance": "40"}), ("ranged",)),
    "wfrp2e": (("orc", "goblin", {}), ("kithband", "orc", {"start_distance": "40"}), ("ranged",)),
    "vereteno": (("swordsman", "brute", {}), ("rifleman", "swordsman", {"start_distance": "30"}),
                 ("distance", "shooting", "ranged")),
}

#: the chapter that holds each ruleset's melee turn (compiled by every duel)
TURNS = {"brutal": "turn", "wfrp2e": "turn", "vereteno": "rounds"}


def _compiled(tmp_path: Path, ruleset: str, a: str, b: str, options: dict[str, str], modules: list[str]) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BRUTAL_SIM_", "NUMBA_CACHE_DIR"))}
    env.update(NUMBA_CACHE_DIR=str(tmp_path / "cache"), NUMBA_NUM_THREADS="1")
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(_PLAY), ruleset, a, b, json.dumps(options), *modules],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("ruleset", sorted(CASES))
def test_a_melee_duel_compiles_no_ranged_rule_and_a_duel_at_a_distance_does(tmp_path, ruleset):
    melee, apart, chapters = CASES[ruleset]
    modules = [KERNEL.format(ruleset, c) for c in chapters] + [KERNEL.format(ruleset, TURNS[ruleset])]
    turns = modules[-1]
    got = _compiled(tmp_path / "melee", ruleset, *melee, modules)
    assert got[turns], got  # the melee duel's own turn compiled: the listing sees compiled functions
    assert not any(got[m] for m in modules[:-1]), got
    got = _compiled(tmp_path / "apart", ruleset, *apart, modules)
    assert all(got[m] for m in modules[:-1]), got
