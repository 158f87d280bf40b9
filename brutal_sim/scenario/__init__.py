"""Scenario files: a batch of duels (matchups, round robins, rule variants, sweeps), group fights
(``[[fights]]``, under rulesets that play them) and designer's questions (``[[weights]]``,
``[[suggest]]``, ``[[rate]]``) in one TOML.

A scenario is validated completely — every fighter, option and sweep field — before anything runs.
See ``docs/scenarios.md`` for the format and ``examples/*.toml`` for complete examples. The parts:
:mod:`.spec` (the models and the size told from the file alone), :mod:`.files` (reading the file,
finding the files it names), :mod:`.load` (the prepared cells), :mod:`.run` (playing them).
"""

from __future__ import annotations

from .files import FileRef, References, fighter_key, names_file, read_spec, rules_files, scenario_files
from .load import Run, check_sets, load_scenario
from .run import ProgressFn, run_scenario
from .spec import (
    MAX_CELLS,
    MAX_N_PER_CELL,
    AnalysisJob,
    Cell,
    FightCell,
    FightSpec,
    GauntletSpec,
    HeadcountSpec,
    RateSpec,
    Scenario,
    ScenarioSpec,
    SuggestSpec,
    SweepSpec,
    VariantSpec,
    WeightsSpec,
    check_size,
    estimated_cells,
)

__all__ = ["MAX_CELLS", "MAX_N_PER_CELL", "AnalysisJob", "Cell", "FightCell", "FightSpec", "FileRef", "GauntletSpec",
           "HeadcountSpec", "ProgressFn", "RateSpec", "References", "Run", "Scenario", "ScenarioSpec", "SuggestSpec",
           "SweepSpec", "VariantSpec", "WeightsSpec", "check_sets", "check_size", "estimated_cells", "fighter_key",
           "load_scenario", "names_file", "read_spec", "rules_files", "run_scenario", "scenario_files"]
