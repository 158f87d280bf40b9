"""The Python API's errors name arguments as the functions call them (``n``, ``options``,
``tactic_a``, ``values`` …, with a "did you mean" for an unknown name), never the CLI's flags;
the CLI gets its flags by passing ``names``. Every check comes before the first duel."""

from __future__ import annotations

import shutil

import pytest

from brutal_sim import api, designer
from brutal_sim.core.errors import DataError
from brutal_sim.core.ruleset import Ruleset
from brutal_sim.results import plots
from brutal_sim.results.frames import summary_frame
from brutal_sim.rulesets.brutal.catalog import DATA_ROOT
from brutal_sim.run import executor
from brutal_sim.scenario import load_scenario


@pytest.fixture
def no_duels(monkeypatch):
    """Any duel played (or kernel warmed up) fails the test."""
    def played(*args, **kwargs):
        raise AssertionError("a duel was played")

    monkeypatch.setattr(executor, "run_chunk", played)
    monkeypatch.setattr(Ruleset, "warm_up", played)


def error_of(call) -> str:
    with pytest.raises(DataError) as info:
        call()
    return str(info.value)


@pytest.mark.parametrize("call,message", [
    (lambda: api.duel("brute", "swordsman", n=0), "n: number of duels must be a positive integer, got 0"),
    (lambda: api.duel("brute", "swordsman", seed=-1), "seed: seed must be an integer 0 … 2**64−1, got -1"),
    (lambda: api.duel("brute", "swordsman", threads=10_000), "threads: must be 1 … "),
    (lambda: api.duel("brute", "swordsman", options={"armor_model": "marker"}),
     "options: armor_model: unknown rule option; did you mean 'armour_model'? allowed: "),
    (lambda: api.duel("brute", "swordsman", tactic_a="feitn"),
     "tactic_a: tactic: unknown tactic 'feitn'; did you mean 'feint'? known: "),
    (lambda: api.duel("brute", "swordsman", reaction_b="dodg"),
     "reaction_b: reaction: unknown reaction 'dodg'; allowed: best, parry, dodge, none"),
    (lambda: api.duel("brute", "swordsman", rules="no_such_rules.toml"), "rules no_such_rules.toml: file not found"),
    (lambda: api.duel("brute", "swordsman", ruleset="brutl"),
     "ruleset: unknown ruleset 'brutl'; did you mean 'brutal'? allowed: "),
    (lambda: api.duel("orc", "goblin", ruleset="wfrp2e", tactic_b="berserker"),
     "tactic_b: tactic: unknown tactic 'berserker'; did you mean 'berserk'? known: "),
    (lambda: api.attack("brute", "swordsman", tactic="total_defence"), "tactic: tactic 'total_defence' makes no "),
    (lambda: api.attack("brute", "swordsman", reaction="parri"), "reaction: reaction: unknown reaction 'parri'"),
    (lambda: api.attack("brute", "swordsman", n=-3), "n: number of attacks must be a positive integer, got -3"),
    (lambda: api.fight(["knight"], ["militia*3"], n=0), "n: number of fights must be a positive integer, got 0"),
    (lambda: api.fight(["knight"], ["militia*3"], options={"outnumberd": "none"}),
     "options: outnumberd: unknown rule option; did you mean 'outnumbered'? allowed: "),
    (lambda: designer.sweep("brute", "swordsman", "main_hand.damage", []), "sweep: values: needs at least one value"),
    (lambda: designer.sweep("brute", "swordsman", "main_hand.damage", ["d6", "d8", "d6"]),
     "sweep: values: 'd6' is listed twice (values[0] and values[2]); each value once"),
    (lambda: designer.sweep("brute", "swordsman", "main_hand.damage", ["d6"], n=0), "n: number of duels must be"),
    (lambda: designer.sweep("brute", "swordsman", "main_hand.damage", ["d6"], options={"round_cp": 9}),
     "options: round_cp: unknown rule option; did you mean 'round_cap'?"),
    (lambda: designer.balance("brute", "swordsman", "main_hand.damage", ["d6", "d8", "d7", "d12"]),
     "balance main_hand.damage='d7': main_hand.damage: die size in 'd7' must be one of"),
    (lambda: designer.balance("brute", "swordsman", "main_hand.damage", ["d6", "d8"], seed=-2), "seed: seed must be"),
    (lambda: designer.tactic_matrix("brute", "swordsman", tactics_b=["single", "feitn"]),
     "tactics_b: tactic: unknown tactic 'feitn'; did you mean 'feint'? known: "),
    (lambda: designer.tactic_matrix("brute", "swordsman", tactics_a=["feint", "single", "feint"]),
     "tactic_matrix: tactics_a: 'feint' is listed twice (tactics_a[0] and tactics_a[2]); each tactic once"),
    (lambda: designer.round_robin(["brute", "swordsman"], n=0), "n: number of duels must be"),
    (lambda: designer.round_robin(["knight", "brute", "swordsman", "brute"]),
     "round_robin: fighters[3]: the same fighter as fighters[1]; list each fighter once"),
    (lambda: designer.round_robin([api.load_fighter("brute"), api.load_fighter("brute").with_weapon(damage="d10"),
                                   "swordsman"]),
     "round_robin: fighters[1]: fighters[0] and fighters[1] are both called 'Brute'; give each fighter its own name"),
])
def test_api_errors_name_the_arguments(no_duels, call, message):
    text = error_of(call)
    assert text.startswith(message), text
    assert not text.startswith("-"), text  # no CLI flag


def test_talent_typo_is_one_short_line():
    """with_talent printed ~600 characters of the fighter's talent tables."""
    brute = api.load_fighter("brute")
    text = error_of(lambda: brute.with_talent("tough_as_nail"))
    assert "unknown talent 'tough_as_nail'; did you mean 'tough_as_nails'?" in text
    assert len(text) < 300 and "{" not in text and "modifiers" not in text, text


def test_load_scenario_names_n(tmp_path):
    f = tmp_path / "s.toml"
    f.write_text('matchups = [["brute", "swordsman"]]\n')
    assert error_of(lambda: load_scenario(str(f), n=0)) == "n: duels per cell must be a positive integer, got 0"
    assert error_of(lambda: load_scenario(str(f), n=0, names={"n": "-n"})).startswith("-n: duels per cell")


def test_callers_name_arguments_their_own_way(no_duels):
    """The CLI passes its flags as ``names``; the same errors then speak of ``--option`` and so on."""
    flags = {"options": "--option", "tactic_a": "--tactic-a", "rules": "--rules"}
    assert error_of(lambda: api.prepare("brute", "swordsman", options={"nonsense": "1"}, names=flags)).startswith(
        "--option: nonsense: unknown rule option")
    assert error_of(lambda: api.prepare("brute", "swordsman", tactic_a="x", names=flags)).startswith(
        "--tactic-a: tactic: unknown tactic 'x'")
    assert error_of(lambda: api.prepare("brute", "swordsman", rules="none.toml", names=flags)) == \
        "--rules none.toml: file not found"
    assert error_of(lambda: api.check_n(0, "-n")).startswith("-n: number of duels")
    matchup = api.prepare("brawler", "knight", tactic_a="knockdown")
    assert error_of(lambda: api.attack_of(matchup, names={"tactic_a": "--tactic"})).startswith("--tactic: tactic ")
    assert error_of(lambda: api.prepare_fight(["knight"], ["militia"], options={"x": "1"},
                                              names={"options": "--option"})).startswith("--option: x: unknown")


def test_round_robin_labels_files_of_one_name_apart(tmp_path):
    """Two files whose fighters are both "Brute" meet in a round robin, and the matchup matrix
    (which crashed on them after the run) has a row for each."""
    copy = tmp_path / "brute2.toml"
    shutil.copy(DATA_ROOT / "fighters" / "brute.toml", copy)
    results = designer.round_robin(["brute", str(copy), "swordsman"], n=30, seed=1)
    assert [r.labels["matchup"] for r in results] == [
        "Brute (brute) vs Brute (brute2.toml)", "Brute (brute) vs Swordsman", "Brute (brute2.toml) vs Swordsman"]
    fig = plots.matchup_matrix_figure(summary_frame(results))
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()] == [
        "Brute (brute)", "Brute (brute2.toml)", "Swordsman"]
