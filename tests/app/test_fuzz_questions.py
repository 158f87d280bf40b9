"""Property tests of the designer's questions a scenario asks (``[[suggest]]``, ``[[rate]]``,
``[[gauntlet]]``, ``[[headcount]]``) and of its price list (``[costs]``): any value in any of their
fields loads, or is one :class:`DataError` naming the scenario file — never another exception.
Only loading is played here (nothing is compiled)."""

from __future__ import annotations

from pathlib import Path

from fuzz_strategies import changed_values, dumps, examples, odd_text
from hypothesis import HealthCheck, given, settings, strategies as st

from brutal_sim.core.costs import read_costs
from brutal_sim.core.errors import DataError
from brutal_sim.core.ruleset import get_ruleset
from brutal_sim.scenario import load_scenario

#: a good entry of each question, whose fields the tests change one at a time
QUESTIONS = {
    "suggest": {"a": "swordsman", "b": "brute", "target": 50, "budget": 4, "side": "a", "stats": ["checks.melee"],
                "items": ["main_hand"], "verify": 4, "shown": 5},
    "rate": {"fighters": ["swordsman", "brute"], "against": ["militia"], "reference": "brute", "points": 100,
             "given": {"brute": 120}, "checks": 1, "group_checks": 0},
    "gauntlet": {"fighter": "swordsman", "vary": "main_hand", "against": ["brute"], "values": ["mace"]},
    "headcount": {"one": "knight", "many": "militia", "max": 3},
}
values = st.one_of(changed_values, odd_text, st.sampled_from(["none", "brute", "main_hand", "a", "b", "both", -1, 0]))


def _load(folder: Path, text: str) -> None:
    path = folder / "s.toml"
    path.write_text(text, encoding="utf-8")
    try:
        load_scenario(str(path))
    except DataError as exc:
        assert str(exc).startswith(f"{path}: ") and "\n" not in str(exc).strip(), str(exc)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(sorted(QUESTIONS)), data=st.data(), value=values)
def test_any_field_of_a_question_loads_or_is_one_error(tmp_path, kind, data, value):
    entry = dict(QUESTIONS[kind])
    key = data.draw(st.sampled_from([*entry, "extra"]))
    entry[key] = value
    _load(tmp_path, f'n = 10\n[[{kind}]]\n{dumps(entry)}')


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(where=st.sampled_from(["unit", "stats", "items", "other"]), key=st.one_of(odd_text, st.sampled_from(
    ["checks.melee", "armour.*.protection", "armour.0.protection", "longsword", "ws"])), value=values)
def test_any_price_list_loads_or_is_one_error(tmp_path, where, key, value):
    costs = {"unit": value} if where == "unit" else {where: {key: value}}
    _load(tmp_path, f'n = 10\nmatchups = [["swordsman", "brute"]]\n[costs]\n{dumps(costs)}')
    for name in ("brutal", "wfrp2e", "vereteno"):
        try:
            read_costs(costs, "c.toml", get_ruleset(name))
        except DataError as exc:
            assert str(exc).startswith("c.toml: "), str(exc)
