"""Paths inside data files are read from that file's folder, and errors name the file that holds
the path; a rules file is read once per run."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from brutal_sim.core import data
from brutal_sim.core.errors import DataError
from brutal_sim.rulesets.brutal import catalog
from brutal_sim.rulesets.brutal.catalog import read_rules
from brutal_sim.rulesets.wfrp2e.catalog import load_rules as wfrp_rules

ZONES = 'die = 6\nranges = { "1-6" = "torso" }\n'


@pytest.fixture
def elsewhere(tmp_path, monkeypatch) -> Path:
    """A rules folder, with the current folder somewhere else."""
    folder = tmp_path / "rules"
    folder.mkdir()
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return folder


def test_b4_9_a_zone_table_named_in_a_rules_file_is_read_beside_it(elsewhere):
    (elsewhere / "myzones.toml").write_text(ZONES)
    (elsewhere / "r.toml").write_text('[options]\nzone_table = "myzones.toml"\n')
    rules = read_rules(str(elsewhere / "r.toml"), {})
    assert np.array_equal(rules.tables[0], np.ones(6, dtype=np.int8))  # every roll: torso (zone 1)


def test_a_missing_file_named_in_a_rules_file_names_the_rules_file(elsewhere):
    (elsewhere / "r.toml").write_text('[options]\nzone_table = "nozones.toml"\n')
    with pytest.raises(DataError) as exc:
        read_rules(str(elsewhere / "r.toml"), {})
    assert exc.value.source == str(elsewhere / "r.toml") and exc.value.field == "options.zone_table"
    assert "'nozones.toml': file not found" in str(exc.value)


def test_a_flag_path_is_read_from_the_current_folder(elsewhere):
    Path("cwdzones.toml").write_text(ZONES)
    assert read_rules(None, {"zone_table": "cwdzones.toml"}).tables[0].tolist() == [1] * 6
    with pytest.raises(DataError, match="options zone_table=none.toml: 'none.toml': file not found"):
        read_rules(None, {"zone_table": "none.toml"})


def test_w5_4_a_crit_table_named_in_a_rules_file_is_read_beside_it(elsewhere):
    example = Path(__file__).resolve().parents[2] / "brutal_sim" / "data" / "wfrp2e" / "crit_example.toml"
    (elsewhere / "crits.toml").write_text(example.read_text(encoding="utf-8"))
    (elsewhere / "r.toml").write_text('[options]\ncrit_model = "table"\ncrit_table = "crits.toml"\n')
    _, (grid, effects) = wfrp_rules(str(elsewhere / "r.toml"), {})
    _, (grid_x, effects_x) = wfrp_rules(None, {"crit_model": "table", "crit_table": "example"})
    assert np.array_equal(grid, grid_x) and np.array_equal(effects, effects_x)


def test_b1_1_a_rules_file_is_read_once(elsewhere, monkeypatch):
    """The check formula (B-1.1), the options and the zone table come from one reading of the file."""
    (elsewhere / "r.toml").write_text('[options]\ncheck_bonus = "attribute_plus_skill"\n'
                                      '[check_formula]\nmelee = "strength + skill"\n')
    reads: list[str] = []
    real = data.read_toml

    def counted(path, source=None):
        reads.append(str(path))
        return real(path, source)

    monkeypatch.setattr(data, "read_toml", counted)
    monkeypatch.setattr(catalog, "read_toml", counted)
    rules = read_rules(str(elsewhere / "r.toml"), {})
    assert rules.formula["melee"] == ("strength", "skill")
    assert reads.count(str(elsewhere / "r.toml")) == 1
