"""A fighter file that starts from a bundled fighter (``base``): the catalog fighter's fields with
the file's on top, the same fighter as ``--set`` makes; a bad base is one line."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from brutal_sim import api
from brutal_sim.cli import app
from brutal_sim.core.variants import with_changes

runner = CliRunner()


def test_a_file_over_a_base_is_the_base_with_its_fields(tmp_path):
    path = tmp_path / "s10.toml"
    path.write_text('base = "swordsman"\nname = "Swordsman d10"\n[main_hand]\ndamage = "d10"\n[checks]\nmelee = 4\n')
    f = api.load_fighter(str(path))
    want = with_changes(api.load_fighter("swordsman"), {"main_hand.damage": "d10", "checks.melee": 4,
                                                        "name": "Swordsman d10"})
    assert f == want and f.main_hand.name == "arming_sword" and f.checks.dodge == want.checks.dodge
    a = api.duel(str(path), "brute", n=3000, seed=2)
    b = api.duel(want, "brute", n=3000, seed=2)
    assert np.array_equal(a.counters, b.counters)
    path.write_text('ruleset = "wfrp2e"\nbase = "orc"\nws = 45\n')
    assert api.load_fighter(str(path)).ws == 45


@pytest.mark.parametrize("text, needle", [
    ('base = "swordsmn"\n', "base: 'swordsmn': the name of a bundled fighter; did you mean 'swordsman'?"),
    ("base = 3\n", "base: 3: the name of a bundled fighter; known: "),
    ('base = "swordsman"\n[checks]\nmelee = 99\n', "checks.melee"),
])
def test_a_bad_base_or_field_is_one_line(tmp_path, text, needle):
    path = tmp_path / "f.toml"
    path.write_text(text)
    r = runner.invoke(app, ["duel", str(path), "brute", "-n", "10"])
    assert r.exit_code == 2 and needle in r.output and len(r.output.strip().splitlines()) == 1, r.output
