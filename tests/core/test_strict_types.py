"""Data files are validated strictly: a TOML boolean is not a number, a string is not a number or a
boolean, a float is not an integer — in fighter, weapon, scenario and rules files alike."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from brutal_sim.cli import app
from brutal_sim.core.errors import DataError
from brutal_sim.rulesets.brutal.options import OPTION_SPECS

runner = CliRunner()


@pytest.mark.parametrize("body,field,got", [
    ('main_hand = "arming_sword"\n[checks]\nmelee = true\n', "checks.melee", "True"),
    ('main_hand = { damage = "d6", two_handed = "yes" }\n', "main_hand.two_handed", "'yes'"),
    ('main_hand = { damage = "d6", reach = true }\n', "main_hand.reach", "True"),
    ('main_hand = { damage = "d6", penetration = 1.0 }\n', "main_hand.penetration", "1.0"),
])
def test_a_fighter_file_with_a_loosely_typed_value_is_one_line_exit_2(tmp_path, body, field, got):
    f = tmp_path / "f.toml"
    f.write_text('name = "X"\n' + body)
    r = runner.invoke(app, ["duel", str(f), "brute", "-n", "10"])
    assert r.exit_code == 2 and r.stderr.count("\n") == 1, r.output
    assert f"{f}: {field}: " in r.stderr and f"(got {got})" in r.stderr, r.stderr


@pytest.mark.parametrize("line,field", [('n = "1000"', "n"), ("n = 1e3", "n"), ('seed = "7"', "seed"),
                                        ('round_robin = "yes"', "round_robin")])
def test_a_scenario_with_a_loosely_typed_value_is_one_line_exit_2(tmp_path, line, field):
    s = tmp_path / "s.toml"
    s.write_text(line + '\nfighters = ["militia", "brute"]\nmatchups = [["militia", "brute"]]\n')
    r = runner.invoke(app, ["report", str(s), "-o", str(tmp_path / "r.html")])
    assert r.exit_code == 2 and f"{s}: {field}: " in r.stderr and r.stderr.count("\n") == 1, r.stderr
    assert not (tmp_path / "r.html").exists()


def test_an_integer_option_takes_no_float_or_boolean():
    round_cap = next(s for s in OPTION_SPECS if s.name == "round_cap")
    assert round_cap.parse(50, "rules.toml") == 50 and round_cap.parse("50", "--option") == 50
    for raw in (50.0, 1.5, True):
        with pytest.raises(DataError, match="expected an integer 1..10000"):
            round_cap.parse(raw, "rules.toml")
