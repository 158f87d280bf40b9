"""Costs as data (docs/designer.md "Costs"): the ``[costs]`` table of a rules file, a scenario or the
bundled price lists, checked against the ruleset's adjustable stats and catalog."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, strategies as st

from brutal_sim.core.costs import Costs, bundled_costs, costs_for, path_matches, read_costs, singular
from brutal_sim.core.errors import DataError
from brutal_sim.core.ruleset import get_ruleset

BRUTAL = get_ruleset("brutal")


def test_patterns_match_list_items_only():
    assert path_matches("armour.*.protection", "armour.0.protection")
    assert path_matches("armour.*.protection", "armour.12.protection")
    assert not path_matches("armour.*.protection", "armour.x.protection")
    assert not path_matches("armour.*.protection", "armour.0.toughness")
    assert not path_matches("checks.melee", "checks.melee.x")


def test_a_step_costs_its_price_and_a_step_down_refunds_it():
    c = Costs({"checks.melee": 3, "armour.*.protection": 2, "armour.1.protection": 5}, {"longsword": 8, "axe": 5})
    assert c.step("checks.melee", 1) == 3 and c.step("checks.melee", -1) == -3
    assert c.stat("armour.0.protection") == 2 and c.stat("armour.1.protection") == 5  # an exact entry first
    assert c.step("checks.dodge", 1) is None
    assert c.swap("axe", "longsword") == 3 and c.swap("longsword", None) == -8 and c.swap("axe", "club") is None
    assert (singular("points"), singular("xp")) == ("point", "xp")


def test_bundled_price_lists():
    """Brutal's bundled list prices every adjustable stat in points; WFRP 2e's every characteristic
    advance at 100 xp (+5 to a main characteristic, +1 to A, W, M); Vereteno ships none."""
    b = bundled_costs(BRUTAL)
    assert b.unit == "points" and {p for p, *_ in BRUTAL.adjustable} == set(b.stats)
    w = bundled_costs(get_ruleset("wfrp2e"))
    assert w.unit == "xp" and w.step("ws", 1) == 100 and w.step("a", -1) == -100 and w.stat("main_hand.damage") is None
    assert not bundled_costs(get_ruleset("vereteno"))


def test_a_rules_file_overrides_entry_by_entry(tmp_path):
    rules = tmp_path / "rules.toml"
    rules.write_text('[costs]\nunit = "crowns"\n[costs.stats]\n"checks.melee" = 10\n[costs.items]\nlongsword = 7\n')
    c = costs_for(BRUTAL, str(rules), {"stats": {"checks.dodge": 1}})
    assert c.unit == "crowns" and c.stat("checks.melee") == 10 and c.stat("checks.dodge") == 1
    assert c.stat("attributes.strength") == 3 and c.item("longsword") == 7  # the bundled entry stays


@pytest.mark.parametrize("raw, field, message", [
    ({"stats": {"checks.melle": 3}}, "costs.stats.checks.melle", "did you mean 'checks.melee'"),
    ({"stats": {"checks.melee": -1}}, "costs.stats.checks.melee", "a number ≥ 0"),
    ({"stats": {"checks.melee": "3"}}, "costs.stats.checks.melee", "a number ≥ 0"),
    ({"items": {"greatsord": 3}}, "costs.items.greatsord", "no such item"),
    ({"prices": {}}, "costs.prices", "unknown key"),
    ({"stats": [1]}, "costs.stats", "a table"),
])
def test_bad_costs_name_the_entry(raw, field, message):
    with pytest.raises(DataError, match=message) as e:
        read_costs(raw, "costs.toml", BRUTAL)
    assert str(e.value).startswith(f"costs.toml: {field}: ")


def test_a_rules_file_with_costs_is_a_rules_file(tmp_path):
    """Any ruleset's rules file may carry ``[costs]`` beside its own tables."""
    rules = tmp_path / "rules.toml"
    rules.write_text('[costs.stats]\nws = 50\n[options]\n')
    get_ruleset("wfrp2e").rule_options(str(rules), {})
    rules.write_text('[costz]\n')
    with pytest.raises(DataError, match="unknown table; allowed: .*costs"):
        get_ruleset("wfrp2e").rule_options(str(rules), {})


@given(st.floats(allow_nan=True, allow_infinity=True) | st.integers(-10, 10**6) | st.text(max_size=3) | st.booleans())
def test_any_price_is_a_finite_number_at_least_zero_or_refused(value):
    try:
        c = read_costs({"stats": {"checks.melee": value}}, "x.toml", BRUTAL)
    except DataError as e:
        assert "a number ≥ 0" in str(e)
    else:
        assert math.isfinite(c.stat("checks.melee")) and c.stat("checks.melee") >= 0
