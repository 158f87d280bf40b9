"""Scenario checks that must come before the first duel: each fighter, matchup, sweep name and
sweep value once (a repeat crashed the matchup matrix after the whole run, or merged two sweeps
into one wrong table), and fighters of different files sharing a name labelled apart."""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from brutal_sim.cli import app
from brutal_sim.core.ruleset import Ruleset
from brutal_sim.rulesets.brutal.catalog import DATA_ROOT
from brutal_sim.run import executor
from brutal_sim.scenario import load_scenario

runner = CliRunner()


@pytest.fixture
def no_duels(monkeypatch):
    """Any duel played (or kernel warmed up) fails the test."""
    def played(*args, **kwargs):
        raise AssertionError("a duel was played")

    monkeypatch.setattr(executor, "run_chunk", played)
    monkeypatch.setattr(Ruleset, "warm_up", played)


def refused(tmp_path: Path, text: str, message: str) -> None:
    """``report`` of the scenario ``text``: one line naming the file, the field and what is
    allowed (``message``), exit 2, no output file or folder."""
    scenario = tmp_path / "s.toml"
    scenario.write_text("n = 10\n" + text)
    out = tmp_path / "out"
    r = runner.invoke(app, ["report", str(scenario), "-o", str(out / "r.html"), "--csv", str(out / "csv")])
    assert r.exit_code == 2, (r.output, r.exception)
    assert r.stderr.strip() == f"error: {scenario}: {message}"
    assert not out.exists()


def test_a_fighter_repeated_in_a_round_robin_is_refused(tmp_path, no_duels):
    refused(tmp_path, 'fighters = ["brute", "brute", "swordsman"]\nround_robin = true\n',
            "fighters[1]: 'brute' is already fighters[0]; list each fighter once")


def test_the_same_fighter_file_written_two_ways_is_refused(tmp_path, no_duels):
    shutil.copy(DATA_ROOT / "fighters" / "brute.toml", tmp_path / "brute2.toml")
    refused(tmp_path, 'fighters = ["brute2.toml", "./brute2.toml", "swordsman"]\nround_robin = true\n',
            "fighters[1]: './brute2.toml' is already fighters[0] (the same file as 'brute2.toml'); list each "
            "fighter once")


def test_a_matchup_twice_is_refused(tmp_path, no_duels):
    refused(tmp_path, 'matchups = [["brute", "swordsman"], ["knight", "brute"], ["brute", "swordsman"]]\n',
            "matchups[2]: brute vs swordsman is already matchups[0]; each matchup once")


def test_a_matchup_of_the_round_robin_is_refused(tmp_path, no_duels):
    refused(tmp_path, 'fighters = ["brute", "swordsman"]\nround_robin = true\nmatchups = [["brute", "swordsman"]]\n',
            "matchups[0]: brute vs swordsman is already a pair of the round robin; each matchup once (the other "
            "order, ['swordsman', 'brute'], is another matchup)")


SWEEP = '[[sweeps]]\n{name}fighter = "brute"\nfield = "{field}"\nvalues = {values}\nopponents = ["swordsman"]\n'


def test_two_sweeps_of_one_name_over_different_fields_are_refused(tmp_path, no_duels):
    """They were merged: the differences table compared a die with a penetration ("d8 → 0")."""
    refused(tmp_path, SWEEP.format(name='name = "axe"\n', field="main_hand.damage", values='["d6", "d8"]')
            + SWEEP.format(name='name = "axe"\n', field="main_hand.penetration", values="[0, 1]"),
            "sweeps[1].name: 'axe' is already the name of sweeps[0] (brute main_hand.damage); each sweep needs "
            "its own name (the tables group rows by it)")


def test_two_unnamed_sweeps_of_one_field_are_refused(tmp_path, no_duels):
    refused(tmp_path, SWEEP.format(name="", field="main_hand.damage", values='["d6", "d8"]')
            + SWEEP.format(name="", field="main_hand.damage", values='["d10"]'),
            "sweeps[1]: sweeps brute main_hand.damage like sweeps[0]; give each sweep its own name, or put all "
            "the values into one sweep")


def test_a_sweep_value_twice_is_refused(tmp_path, no_duels):
    """It gave a "d6 → d6" row of zero differences."""
    refused(tmp_path, SWEEP.format(name="", field="main_hand.damage", values='["d6", "d8", "d6"]'),
            "sweeps[0].values: 'd6' is listed twice (values[0] and values[2]); each value once")


def test_talent_lists_are_told_apart_by_their_text(tmp_path, no_duels):
    refused(tmp_path, SWEEP.format(name="", field="talents", values='[[], ["tough_as_nails"], []]'),
            "sweeps[0].values: 'none' is listed twice (values[0] and values[2]); each value once")


def test_different_files_with_one_name_are_labelled_apart(tmp_path):
    """Two fighter files whose fighters are both "Brute": a round robin with both runs, and every
    table, the CSV frames and the matchup matrix tell them apart by file."""
    shutil.copy(DATA_ROOT / "fighters" / "brute.toml", tmp_path / "brute2.toml")
    scenario = tmp_path / "s.toml"
    scenario.write_text('n = 40\nfighters = ["brute", "brute2.toml", "swordsman"]\nround_robin = true\n')
    sc = load_scenario(str(scenario))
    assert [c.matchup for c in sc.cells] == ["Brute (brute) vs Brute (brute2.toml)", "Brute (brute) vs Swordsman",
                                             "Brute (brute2.toml) vs Swordsman"]
    out = tmp_path / "out"
    r = runner.invoke(app, ["report", str(scenario), "-o", str(out / "r.html"), "--csv", str(out / "csv")])
    assert r.exit_code == 0, (r.output, r.exception)
    summary = pd.read_csv(out / "csv" / "summary.csv", keep_default_na=False)
    assert sorted(set(summary.fighter) - {""}) == ["Brute (brute)", "Brute (brute2.toml)", "Swordsman"]
    html = (out / "r.html").read_text()
    assert "Brute (brute2.toml)" in html and "Matchup matrix" in html
