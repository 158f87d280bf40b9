"""Every JSON output names its ruleset and the versions that made it."""

from __future__ import annotations

import json
from importlib.metadata import version

import pytest
from typer.testing import CliRunner

from brutal_sim import __version__
from brutal_sim.cli import app

runner = CliRunner()


@pytest.mark.parametrize("args,ruleset", [
    (["duel", "swordsman", "brute", "-n", "500"], "brutal"),
    (["duel", "orc", "goblin", "-n", "500"], "wfrp2e"),
    (["attack", "militia", "brawler", "--ruleset", "vereteno"], "vereteno"),
    (["fight", "knight", "vs", "militia*2", "-n", "500"], "brutal"),
    (["weights", "swordsman", "brute", "-n", "500"], "brutal"),
    (["rate", "swordsman", "brute", "-n", "500", "--group-checks", "0"], "brutal"),
    (["gauntlet", "swordsman", "--vary", "main_hand", "--against", "brute", "--values", "mace", "-n", "500"],
     "brutal"),
    (["headcount", "knight", "militia", "--max", "2", "-n", "500"], "brutal"),
    (["diff", "--option-b", "pierce_threshold=5", "--fighters", "swordsman", "brute", "-n", "500"], "brutal"),
])
def test_json_outputs_carry_ruleset_and_versions(args, ruleset):
    res = runner.invoke(app, [*args, "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert d["ruleset"] == ruleset
    assert d["versions"] == {"brutal_sim": __version__, "numba": version("numba")}
