"""What a new user meets first: a typo refused before the heavy imports (numba, pandas, the
kernels), and the options echoed in the order they were given."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from brutal_sim.cli import app

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()

#: runs the command line, then says which heavy modules it imported
_CHILD = """
import sys
from brutal_sim.cli import main
sys.argv = ["brutal-sim", *sys.argv[1:]]
try:
    main()
except SystemExit as exc:
    print("exit", exc.code, *sorted(m for m in ("numba", "pandas", "matplotlib") if m in sys.modules), file=sys.stderr)
"""


@pytest.mark.parametrize("args,message", [
    (["duel", "swordsmen", "brute"], "error: fighter a: unknown fighter 'swordsmen'; did you mean 'swordsman'? "
                                     "known: brawler, brute, crossbowman, dual_blades, duelist, ghoul, knight, "
                                     "militia, swordsman"),
    (["attack", "rifleman", "swordsmn", "--ruleset", "vereteno"], "error: fighter b: unknown fighter 'swordsmn'; "
     "did you mean 'swordsman'? known: brawler, brute, duelist, gunfighter, gunner, knife_thrower, knight, militia, "
     "raider, rifleman, sergeant, swordsman, trooper, wrestler"),
    (["weights", "swordsman", "brute", "--ruleset", "veretno"], "error: --ruleset: unknown ruleset 'veretno'; "
     "did you mean 'vereteno'? allowed: brutal, wfrp2e, vereteno"),
    (["list", "fighters", "--ruleset", "wfrp"], "error: --ruleset: unknown ruleset 'wfrp'; did you mean 'wfrp2e'? "
     "allowed: brutal, wfrp2e, vereteno"),
])
def test_a_typo_is_refused_before_numba_and_pandas_are_imported(args, message):
    r = subprocess.run([sys.executable, "-c", _CHILD, *args], capture_output=True, text=True, cwd=ROOT, timeout=120,
                       env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "COLUMNS": "1000"})
    lines = r.stderr.splitlines()
    assert lines == [message, "exit 2"], r.stderr


def test_the_same_typo_gets_the_same_line_through_the_api():
    from brutal_sim import api
    from brutal_sim.core.errors import DataError

    with pytest.raises(DataError) as info:
        api.prepare("swordsmen", "brute")
    assert str(info.value).startswith("fighter a: unknown fighter 'swordsmen'; did you mean 'swordsman'?")


def test_options_are_echoed_in_the_order_given():
    r = runner.invoke(app, ["duel", "swordsman", "brute", "-n", "100", "--option", "margin_against=max(base,reaction)",
                            "--option", "armour_model=protection_only"])
    assert r.exit_code == 0, r.stderr
    assert ("ruleset: brutal; options changed from the defaults: margin_against=max(base,reaction), "
            "armour_model=protection_only") in r.stdout
    r = runner.invoke(app, ["duel", "swordsman", "brute", "-n", "100", "--option", "armour_model=protection_only",
                            "--option", "margin_against=max(base,reaction)"])
    assert ("options changed from the defaults: armour_model=protection_only, "
            "margin_against=max(base,reaction)") in r.stdout
