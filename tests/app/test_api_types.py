"""Arguments of the API of the wrong type are a DataError naming the argument; numpy integers,
numpy arrays and paths are taken as the Python values they stand for."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from test_api_errors import no_duels  # noqa: F401  (the fixture: any duel played fails the test)

from brutal_sim import api, designer
from brutal_sim.core.errors import DataError
from brutal_sim.rulesets.brutal.catalog import DATA_ROOT


@pytest.mark.parametrize("call,message", [
    (lambda: api.duel("brute", "swordsman", options="armour_model=b"), "options: expected a mapping"),
    (lambda: api.duel("brute", "swordsman", options=["armour_model=b"]), "options: expected a mapping"),
    (lambda: api.duel("brute", "swordsman", rules=123), "rules: expected a rules TOML file's path"),
    (lambda: api.duel("brute", "swordsman", ruleset=3), "ruleset: expected a name"),
    (lambda: api.duel("brute", "swordsman", tactic_a=1), "tactic_a: expected a name"),
    (lambda: api.duel("brute", "swordsman", seed=np.int64(-1)), "seed: seed must be an integer"),
    (lambda: api.duel("brute", "swordsman", n=np.float64(5)), "n: number of duels must be a positive integer"),
    (lambda: api.duel("brute", "swordsman", threads=np.bool_(True)), "threads: must be 1 … "),
    (lambda: api.attack("brute", "swordsman", options="x"), "options: expected a mapping"),
    (lambda: api.fight(["knight"], ["militia*3"], options="x"), "options: expected a mapping"),
    (lambda: api.fight(["knight"], ["militia*3"], rules=1.5), "rules: expected a rules TOML file's path"),
    (lambda: designer.sweep("brute", "swordsman", "main_hand.damage", None), "sweep: values: expected a list"),
    (lambda: designer.sweep("brute", "swordsman", "main_hand.damage", 3), "sweep: values: expected a list"),
    (lambda: designer.sweep("brute", "swordsman", "main_hand.damage", ["d6"], options="x"),
     "options: expected a mapping"),
    (lambda: designer.balance("brute", "swordsman", "main_hand.damage", None), "balance: values: expected a list"),
    (lambda: designer.round_robin("brute"), "round_robin: fighters: expected a list of fighters"),
    (lambda: designer.round_robin(Path("brute.toml")), "round_robin: fighters: expected a list of fighters"),
    (lambda: designer.round_robin(["brute", "swordsman"], rules=123), "rules: expected a rules TOML file's path"),
    (lambda: designer.stat_weights("brute", "swordsman", options=1), "options: expected a mapping"),
    (lambda: designer.rule_diff("brute"), "fighters: expected a list of fighters"),
    (lambda: designer.rule_diff(["brute", "swordsman"], options_new="x"), "options_new: expected a mapping"),
    (lambda: designer.tactic_matrix("brute", "swordsman", rules=7), "rules: expected a rules TOML file's path"),
])
@pytest.mark.usefixtures("no_duels")
def test_arguments_of_the_wrong_type_are_a_data_error_naming_them(call, message):
    with pytest.raises(DataError) as info:
        call()
    assert str(info.value).startswith(message), str(info.value)


def test_numpy_integers_are_checked_and_kept_as_python_ints():
    assert api.check_n(np.int64(1000)) == 1000 and type(api.check_n(np.int64(1000))) is int
    assert type(api.check_seed(np.uint64(2**64 - 1))) is int
    assert type(api.check_threads(np.int32(1))) is int
    assert api.check_threads(None) is None
    assert api.precision_of(0.5, np.int64(10_000)).max_n == 10_000


def test_numpy_seeds_play_and_serialise():
    r = api.duel("orc", "goblin", ruleset="wfrp2e", n=np.int64(2000), seed=np.uint64(2**64 - 1), threads=np.int64(1))
    assert type(r.seed) is int and type(r.n) is int
    json.dumps(r.to_dict())
    same = api.duel("orc", "goblin", ruleset="wfrp2e", n=2000, seed=2**64 - 1, threads=1)
    assert np.array_equal(r.counters, same.counters)
    signed = api.duel("orc", "goblin", ruleset="wfrp2e", n=2000, seed=np.int64(7), threads=1)
    assert signed.seed == 7


@pytest.mark.usefixtures("no_duels")
def test_paths_are_taken_wherever_a_fighter_is(tmp_path):
    shutil.copy(DATA_ROOT / "fighters" / "brute.toml", tmp_path / "brute.toml")
    path = tmp_path / "brute.toml"
    assert api.load_fighter(path).name == api.load_fighter("brute").name
    _, p = api.prepare(path, "swordsman")
    assert p.a.name == api.load_fighter("brute").name
    prepared = api.prepare_fight([path], path)
    assert len(prepared.a) == 1 and len(prepared.b) == 1


def test_numpy_sweep_values_are_python_values(monkeypatch):
    seen = []

    def vary(fighter, field, value, where):
        seen.append(value)
        raise DataError(where, field, "stop")

    monkeypatch.setattr(designer, "vary", vary)
    with pytest.raises(DataError):
        designer.sweep("brute", "swordsman", "endurance", np.arange(3, 6))
    assert seen == [3] and type(seen[0]) is int
    assert api.values_of(np.arange(3), "sweep") == [0, 1, 2]
    assert api.values_of((np.int64(1), np.float32(0.5)), "sweep") == [1, 0.5]


@pytest.mark.usefixtures("no_duels")
def test_a_catalog_name_wins_over_an_extensionless_file_of_that_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "brute").write_text("not a fighter file\n")
    assert api.load_fighter("brute").name == "Brute"
    (tmp_path / "mine").write_text((DATA_ROOT / "fighters" / "brute.toml").read_text())
    assert api.load_fighter("mine").name == "Brute"  # no catalog fighter of that name: the file
    with pytest.raises(DataError):
        api.load_fighter("./brute")  # a path separator: the file
