"""Property tests of the entry points that change a run from outside its files: ``--set`` flags, a
scenario's sweeps and ``[[weights]]``, the explorer's ``set`` and ``save_scenario``, and report
replays whose setup's numbers and links are fuzzed. Each ends in a result, or in one line
``error: …`` (the API: one :class:`DataError`) naming the field and exit 2; nothing else is
written, and a refused change leaves everything as it was.

Runs are short (``n = 20``, ``round_cap = 5``) and the examples few (profiles:
tests/fuzz_strategies.py)."""

from __future__ import annotations

import base64
import itertools
import json
from pathlib import Path

import pytest
from fuzz_strategies import (
    bound_values,
    changed_values,
    dice_text,
    dumps,
    examples,
    field_paths,
    invoke,
    odd_text,
    toml_value,
)
from hypothesis import given, settings, strategies as st

from brutal_sim import __version__, designer
from brutal_sim.core.errors import DataError
from brutal_sim.core.ruleset import get_ruleset
from brutal_sim.report import SETUP_FORMAT
from brutal_sim.scenario import load_scenario

_counter = itertools.count()

BRUTAL = get_ruleset("brutal")
#: every path of the two fighters' data, and paths that name no field or what is not a weapon
PATHS = sorted({p for name in ("swordsman", "brute")
                for p in field_paths(BRUTAL.fighter_data(BRUTAL.load_fighter(name)))})
ODD_PATHS = ["damage.bonus", "talents.damage.bonus", "attributes.damage.bonus", "armour.0.damage.bonus",
             "main_hand.damage.bonus", "off_hand.damage.bonus", "main_hand.9", "armour.99.protection", "", ".", "..",
             "main_hand..damage", "x" * 201, "checks.melee.x"]
paths = st.one_of(st.sampled_from(PATHS), st.sampled_from(ODD_PATHS), odd_text)


#: changes that a fighter takes, as --set writes them
GOOD_SETS = [("main_hand.damage", "d10"), ("checks.melee", "5"), ("attributes.endurance", "4"),
             ("main_hand.damage.bonus", "2"), ("tactic", "furious"), ("name", '"Bob\x1b[31m"'),
             ("name", "кинжал"), ("armour.0.protection", "1")]


def tree(folder: Path) -> dict[str, str]:
    """Every path under ``folder`` and its content (folders: "/")."""
    return {str(p.relative_to(folder)): "/" if p.is_dir() else p.read_text(encoding="utf-8", errors="replace")
            for p in folder.rglob("*")}


def set_text(value: object) -> str:
    """A ``--set`` value as a user types it: TOML text, or plain words."""
    return value if isinstance(value, str) and not value.startswith(("[", "{", '"')) else toml_value(value)


@pytest.mark.filterwarnings("ignore:Glyph")
def test_random_set_flags():
    """``duel`` with one or two ``--set`` flags of any side, path and value."""
    codes = set()

    good = st.tuples(st.sampled_from(["a", "b"]), st.sampled_from(GOOD_SETS)).map(lambda t: (t[0], *t[1]))
    bad = st.tuples(st.sampled_from(["a", "b", "a", "c", ""]), paths,
                    st.one_of(changed_values, dice_text).map(set_text))

    @settings(max_examples=examples(60))
    @given(flags=st.lists(st.integers(0, 2).flatmap(lambda k: bad if k == 0 else good), min_size=1, max_size=2))
    def run(flags):
        args = ["duel", "swordsman", "brute", "-n", "20", "--option", "round_cap=5"]
        for side, path, text in flags:
            args += ["--set", f"{side}.{path}={text}"]
        r = invoke(args)
        codes.add(r.exit_code)
        if r.exit_code == 0:
            echo = [line for line in r.stdout.splitlines() if line.startswith("set: ")]
            assert len(echo) == 1 and not any(c < " " for c in echo[0]), echo  # escapes written as escapes
        else:
            assert "--set" in r.stderr, r.stderr

    run()
    assert codes == {0, 2}


@st.composite
def sweep_scenario(draw: st.DrawFn) -> tuple[str, bool]:
    """A scenario of a sweep (any field, one or two values) and ``[[weights]]`` entries (none, a few,
    or thousands); whether its weights alone exceed the size limit."""
    data: dict = {"n": 20, "options": {"round_cap": 5}, "matchups": [["militia", "brute"]]}
    text = dumps(data)
    if draw(st.integers(0, 2)):  # mostly a field the fighter has, with values it takes
        field, value = draw(st.sampled_from([("attributes.strength", st.integers(1, 6)),
                                             ("main_hand.damage", st.sampled_from(["d6", "d8", "d10"])),
                                             ("checks.melee", st.integers(2, 9))]))
        values = draw(st.lists(value, min_size=1, max_size=2, unique=True))
    else:
        field = draw(paths)
        values = draw(st.lists(st.one_of(changed_values, st.integers(1, 9)), min_size=1, max_size=2,
                               unique_by=lambda v: json.dumps(v, default=str)))
    text += f"[[sweeps]]\nfighter = \"militia\"\nfield = {toml_value(field)}\nvalues = {toml_value(values)}\n"
    count = draw(st.sampled_from([0, 0, 1, 3000]))
    pair = draw(st.sampled_from([("militia", "brute"), ("militia", "nosuch"), ("brute", "militia")]))
    text += f'[[weights]]\na = "{pair[0]}"\nb = "{pair[1]}"\n' * count
    return text, count == 3000


@pytest.mark.filterwarnings("ignore:Glyph")
def test_random_sweeps_and_weights(tmp_path):
    """``report`` of a sweep of any field and values, with ``[[weights]]`` entries: a complete report
    and nothing else new, or one line, exit 2 and the folder as it was."""

    @settings(max_examples=examples(8))
    @given(scenario=sweep_scenario())
    def run(scenario):
        text, too_many = scenario
        folder = tmp_path / f"ex{next(_counter)}"
        folder.mkdir()
        (folder / "s.toml").write_text(text, encoding="utf-8")
        before = tree(folder)
        r = invoke(["report", str(folder / "s.toml"), "-o", str(folder / "out" / "r.html")])
        after = tree(folder)
        if r.exit_code == 0:
            assert not too_many
            assert set(after) - set(before) == {"out", "out/r.html"}
            assert (folder / "out" / "r.html").read_text(encoding="utf-8").rstrip().endswith("</html>")
        else:
            assert after == before, r.stderr
            assert not too_many or "cells" in r.stderr or "allowed" in r.stderr  # or another field refused first

    run()


FIELDS = ["a.main_hand.damage", "a.checks.melee", "b.attributes.endurance", "a.name", "a.tactic",
          "options.armour_model", "options.round_cap", "options.start_distance", "a.main_hand.damage.bonus",
          "c.x", "a.nosuch", "options.nosuch"]


def test_random_explorer_sets_and_saves(tmp_path, monkeypatch):
    """The explorer: fields of any kind, values of any kind set one after another, then the setup
    saved. A bad field or value is one DataError and changes nothing; a good one gives a reading; a
    saved setup loads again as a scenario and is the only thing written."""
    pytest.importorskip("tomli_w")
    from brutal_sim import explorer

    monkeypatch.chdir(tmp_path)
    plays = []
    played = explorer.run_paired_counters
    monkeypatch.setattr(explorer, "run_paired_counters", lambda *a, **k: plays.append(1) or played(*a, **k))

    @settings(max_examples=examples(20))
    @given(fields=st.lists(st.sampled_from(FIELDS) | odd_text, min_size=1, max_size=3, unique=True),
           steps=st.lists(st.tuples(st.integers(0, 2), st.one_of(changed_values, dice_text, st.integers(-3, 12),
                                                                  st.sampled_from(["protection_only", "d10", 30]))),
                          max_size=3))
    def run(fields, steps):
        plays.clear()
        try:
            ex = designer.explore("swordsman", "brute", fields, n=20, options={"round_cap": "5"})
        except DataError:
            assert not plays  # refused before anything runs
            return
        start = dict(ex.values)
        for k, value in steps:
            key = list(ex.values)[k % len(ex.values)]
            before, count = dict(ex.values), len(plays)
            try:
                reading = ex.set(key, value)
            except DataError:
                assert ex.values == before and len(plays) == count
                continue
            assert 0 <= reading.win_rate <= 1
        folder = tmp_path / f"save{next(_counter)}"
        path = ex.save_scenario(folder)
        assert path.parent == folder and {p.parent for p in folder.rglob("*")} == {folder}
        cells = len(load_scenario(str(path)).cells)  # the baseline, and the explored setup beside it
        assert cells in (1, 2, 4) and (cells == 1 or ex.values != start)
        assert set(tmp_path.iterdir()) == {p for p in tmp_path.iterdir() if p.name.startswith("save")}

    run()


def _page(setups: list[dict]) -> str:
    links = "".join(f'<a id="brutal-sim-setup" download="s.setup.json" href="data:application/json;base64,'
                    f'{base64.b64encode(json.dumps(s).encode()).decode()}">setup</a>' for s in setups)
    return f"<html>{links}</html>"


numbers = st.one_of(st.sampled_from([1, 20, 10**9, 10**9 + 1, 2**63, 0, -1]), bound_values, odd_text)
target_errors = st.one_of(st.none(), st.sampled_from([0.5, 50, 50.5, 99.0, 0, -1, 1e308]), odd_text)


def test_random_replayed_numbers_and_links(tmp_path):
    """``report --rerun`` of a page whose setup's ``n``, ``target_error`` and ``max_n`` are any value,
    carrying one or two setup links, with or without ``-n``: a complete report, or one line naming
    the report (its setup's own numbers never as flags the user did not give) and nothing written."""

    @settings(max_examples=examples(20))
    @given(n=numbers, target_error=target_errors, max_n=numbers, links=st.sampled_from([1, 1, 2]),
           flag=st.sampled_from([None, None, "20", "0"]))
    def run(n, target_error, max_n, links, flag):
        folder = tmp_path / f"ex{next(_counter)}"
        folder.mkdir()
        setup = {"format": SETUP_FORMAT, "format_version": 1, "brutal_sim": __version__, "seed": 0,
                 "scenario": {"name": "s.toml", "text": 'n = 20\nmatchups = [["militia", "brute"]]\n'
                              "options = { round_cap = 5 }\n"},
                 "files": {}, "n": n, "target_error": target_error, "max_n": max_n}
        (folder / "r.html").write_text(_page([setup] * links), encoding="utf-8")
        args = ["report", "--rerun", str(folder / "r.html"), "-o", str(folder / "o.html")]
        if flag is not None:
            args += ["-n", flag]
        r = invoke(args)
        if r.exit_code == 0:
            assert links == 1 and (folder / "o.html").read_text(encoding="utf-8").rstrip().endswith("</html>")
            return
        assert sorted(p.name for p in folder.iterdir()) == ["r.html"], r.stderr
        if flag != "0":  # the one flag given here that is bad names itself
            assert r.stderr.startswith(f"error: {folder / 'r.html'}: "), r.stderr
            for word in ("-n", "--target-error", "--max-n"):
                assert f" {word}:" not in r.stderr and not r.stderr.startswith(f"error: {word}"), r.stderr

    run()
