"""Property tests of the data files of every ruleset: fighter files, inline weapons, catalog files,
rules files (with the files they name) and scenario files, valid and mutated (fields dropped,
unknown fields, values of another TOML type, numbers out of range, random dice expressions, odd
Unicode, bytes that are not TOML). Every run ends in a result (exit 0) or in one line ``error:``
naming the file and exit 2; a failed report leaves no file and no folder.

Duels are short (``-n 20``, ``round_cap=5``); the budget of examples keeps the module near a minute
with warm kernels (profiles: tests/fuzz_strategies.py).
"""

from __future__ import annotations

import itertools
import json
import shutil
from pathlib import Path

import pytest
from fuzz_strategies import (
    DATA,
    EXAMPLES,
    RULESETS,
    WEAPON_KEY,
    broken_text,
    catalog_tables,
    dumps,
    examples,
    fighter_files,
    invoke,
    mutated,
    names_one_of,
    odd_text,
    read,
    rules_data,
)
from hypothesis import assume, given, settings, strategies as st

from brutal_sim.core.errors import DataError
from brutal_sim.core.ruleset import get_ruleset

_counter = itertools.count()


def fresh(tmp: Path) -> Path:
    """A new folder per example (hypothesis reuses a test's tmp_path across its examples)."""
    d = tmp / f"ex{next(_counter)}"
    d.mkdir()
    return d


def fighters_of(ruleset: str) -> list[dict]:
    return [read(p) for p in fighter_files(ruleset)]


def catalog_names() -> st.SearchStrategy[str]:
    """Names a fighter file may use: of its own ruleset's catalog, or of another's (a wrong one)."""
    names: set[str] = set()
    for rs in RULESETS:
        for fname in ("weapons.toml", "armour.toml", "talents.toml", "tactics.toml", "shields.toml"):
            if (DATA / rs / fname).is_file():
                names |= set(catalog_tables(rs, fname))
    return st.sampled_from(sorted(names))


def duel_args(path: str, ruleset: str, command: str, with_ruleset: bool) -> list[str]:
    """A short duel, or one attack of the fighter file (or on it), against the swordsman."""
    opponent = "swordsman"
    if command == "attack":
        args = ["attack", path, opponent]
    elif command == "attack-b":
        args = ["attack", opponent, path]
    else:
        args = ["duel", path, opponent, "-n", "20", "--seed", "3"]
    args += ["--option", "round_cap=5"]
    return args + (["--ruleset", ruleset] if with_ruleset else [])


COMMANDS = st.sampled_from(["duel", "duel", "attack", "attack-b"])


def check_file_run(r, path: Path) -> None:
    """A failed run names the file, or the flag that would mend it (``--tactic`` for a fighter
    whose tactic makes no attack)."""
    if r.exit_code == 2:
        names_one_of(r, str(path), "--ruleset", "--option", "--tactic")


# -- fighter files ---------------------------------------------------------------------------------

@pytest.mark.parametrize("ruleset", RULESETS)
def test_valid_fighter_files_give_a_result(ruleset, tmp_path):
    """A bundled fighter with an odd name and description, its weapon maybe written inline, plays."""
    weapons = catalog_tables(ruleset, "weapons.toml")

    @settings(max_examples=examples(10))
    @given(base=st.sampled_from(fighters_of(ruleset)), name=odd_text, description=odd_text, inline=st.booleans(),
           cmd=COMMANDS)
    def run(base, name, description, inline, cmd):
        # a WFRP 2e shooter's single attack is its first shot, which engaged needs a weapon that fires in melee
        assume(not (cmd == "attack" and base.get("missile")))
        # a grappler's attempts deal no damage (W-12.1): its single attack is refused in one line, tested apart
        assume(not (cmd == "attack" and base.get("tactic") == "grappler"))
        data = {**base, "name": name, "description": description}
        key = WEAPON_KEY[ruleset]
        if inline and isinstance(data.get(key), str):
            data[key] = weapons[data[key]]
        path = fresh(tmp_path) / "fighter.toml"
        path.write_text(dumps(data), encoding="utf-8")
        r = invoke([*duel_args(str(path), ruleset, cmd, False), "--json"])
        assert r.exit_code == 0, r.stderr
        d = json.loads(r.stdout)
        shown = {"duel": d.get("a", {}).get("name"), "attack": d.get("attacker"), "attack-b": d.get("defender")}
        assert shown[cmd] == (name or "fighter")  # an empty name is the file's stem

    run()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_mutated_fighter_files(ruleset, tmp_path):
    """A bundled fighter file with one to three changes, some of them catalog names."""
    @settings(max_examples=examples(80))
    @given(data=st.sampled_from(fighters_of(ruleset)).flatmap(lambda d: mutated(d, catalog_names())),
           cmd=COMMANDS, with_ruleset=st.booleans())
    def run(data, cmd, with_ruleset):
        path = fresh(tmp_path) / "fighter.toml"
        path.write_text(dumps(data), encoding="utf-8")
        check_file_run(invoke(duel_args(str(path), ruleset, cmd, with_ruleset)), path)

    run()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_weapon_tables_mutated_inline(ruleset, tmp_path):
    """A catalog weapon written inline in a fighter file, mutated."""
    weapons = list(catalog_tables(ruleset, "weapons.toml").values())

    @settings(max_examples=examples(60))
    @given(base=st.sampled_from(fighters_of(ruleset)), weapon=st.sampled_from(weapons).flatmap(mutated),
           cmd=COMMANDS)
    def run(base, weapon, cmd):
        data = {**base, WEAPON_KEY[ruleset]: weapon}
        data.pop("off_hand", None)
        path = fresh(tmp_path) / "fighter.toml"
        path.write_text(dumps(data), encoding="utf-8")
        check_file_run(invoke(duel_args(str(path), ruleset, cmd, False)), path)

    run()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_fighter_files_that_are_not_toml(ruleset, tmp_path):
    texts = [p.read_text(encoding="utf-8") for p in fighter_files(ruleset)]

    @settings(max_examples=examples(30))
    @given(raw=st.sampled_from(texts).flatmap(broken_text), cmd=COMMANDS)
    def run(raw, cmd):
        path = fresh(tmp_path) / "fighter.toml"
        path.write_bytes(raw)
        check_file_run(invoke(duel_args(str(path), ruleset, cmd, False)), path)

    run()


# -- catalog files -----------------------------------------------------------------------------------

@pytest.mark.parametrize("ruleset", RULESETS)
def test_mutated_catalog_files_are_data_errors(ruleset, tmp_path):
    """A catalog folder with one file mutated loads or raises one DataError naming that file."""
    rs = get_ruleset(ruleset)
    catalog_type = type(rs.catalog())
    files = sorted(p.name for p in (DATA / ruleset).glob("*.toml"))

    @settings(max_examples=examples(50))
    @given(fname=st.sampled_from(files), data=st.data())
    def run(fname, data):
        root = fresh(tmp_path)
        shutil.copytree(DATA / ruleset, root, dirs_exist_ok=True)
        tables = read(DATA / ruleset / fname)
        if data.draw(st.integers(0, 4)):
            (root / fname).write_text(dumps(data.draw(mutated(tables))), encoding="utf-8")
        else:
            (root / fname).write_bytes(data.draw(broken_text((DATA / ruleset / fname).read_text(encoding="utf-8"))))
        try:
            catalog_type.from_dir(root)
        except DataError as exc:
            assert "\n" not in str(exc) and fname in str(exc), str(exc)

    run()


# -- rules files (and the files they name) -----------------------------------------------------------

#: a path-valued option's file beside the rules file: (option, value) and the bundled file it copies
NAMED_FILES = {"brutal": ("zone_table", "zones.toml", DATA / "brutal" / "zones.toml"),
               "wfrp2e": ("crit_table", "crit.toml", DATA / "wfrp2e" / "crit_example.toml")}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_rules_files(ruleset, tmp_path):
    """Rules files: valid (every option at its default, a zone table, a critical table file beside
    it), mutated, or not TOML; and the file a rules file names, mutated."""
    base = rules_data(ruleset)

    @settings(max_examples=examples(60))
    @given(how=st.sampled_from(["valid", "mutated", "mutated", "mutated", "broken", "named"]), data=st.data(),
           capped=st.booleans())
    def run(how, data, capped):
        folder = fresh(tmp_path)
        rules = folder / "rules.toml"
        content = dict(base, options=dict(base["options"]))
        named = NAMED_FILES.get(ruleset)
        if named and data.draw(st.booleans()):
            option, fname, bundled = named
            content.pop("zone_table", None)
            content["options"][option] = fname
            if ruleset == "wfrp2e":
                content["options"]["crit_model"] = "table"
            if how == "named":
                (folder / fname).write_text(dumps(data.draw(mutated(read(bundled)))), encoding="utf-8")
            else:
                shutil.copy(bundled, folder / fname)
        if how == "broken":
            rules.write_bytes(data.draw(broken_text(dumps(content))))
        else:
            rules.write_text(dumps(data.draw(mutated(content)) if how == "mutated" else content), encoding="utf-8")
        args = ["duel", "swordsman", "brute", "--ruleset", ruleset, "--rules", str(rules), "-n", "20"]
        r = invoke(args + (["--option", "round_cap=5"] if capped else []))
        if how == "valid":
            assert r.exit_code == 0, r.stderr
        else:
            check_file_run(r, folder)

    run()


# -- scenario files --------------------------------------------------------------------------------

def scenario_bases() -> list[tuple[str, dict]]:
    """The example scenarios, made small (few fighters, rulesets, fights and sweep values)."""
    out = []
    for path in sorted(EXAMPLES.glob("*.toml")):
        data = read(path)
        if not any(k in data for k in ("matchups", "round_robin", "sweeps", "fights")):
            continue  # a fighter or rules file
        data["n"] = 20
        data["options"] = {**data.get("options", {}), "round_cap": 5} if "rulesets" not in data else \
            {rs: {"round_cap": 5} for rs in data["rulesets"][:2]}
        if "rulesets" in data:
            data["rulesets"] = data["rulesets"][:2]
        if "fighters" in data:
            data["fighters"] = data["fighters"][:3]
        for key in ("fights", "variants"):
            if key in data:
                data[key] = data[key][:2]
        for sweep in data.get("sweeps", []):
            sweep["values"] = sweep["values"][:2]
        out.append((path.name, data))
    return out


@pytest.fixture(scope="module")
def warm_report(tmp_path_factory):
    """The group-fight kernel of the scenarios compiled (or loaded) once, outside the timed examples."""
    out = tmp_path_factory.mktemp("warm")
    (out / "s.toml").write_text(dumps(dict(scenario_bases())["group_fights.toml"]), encoding="utf-8")
    r = invoke(["report", str(out / "s.toml"), "-o", str(out / "r.html")])
    assert r.exit_code == 0, r.stderr


#: names a scenario may hold: catalog fighters, the example files copied beside it, missing files
SCENARIO_NAMES = st.sampled_from(sorted({p.stem for rs in RULESETS for p in fighter_files(rs)})
                                 + [p.name for p in EXAMPLES.glob("*.toml")] + ["missing.toml", "militia*3"])


@pytest.mark.filterwarnings("ignore:Glyph")  # matplotlib's font lacks some of the odd characters of names
def test_scenario_files(tmp_path, warm_report):
    """Scenario files, valid, mutated or not TOML, run by ``report -o DIR/sub/r.html --csv DIR2``
    into folders that do not exist yet: a complete report and CSV folder, or one line, exit 2 and
    neither folder created."""
    bases = scenario_bases()

    @settings(max_examples=examples(40))
    @given(base=st.sampled_from(bases), how=st.sampled_from(["valid", "mutated", "mutated", "mutated", "broken"]),
           data=st.data())
    def run(base, how, data):
        name, content = base
        folder = fresh(tmp_path)
        for extra in EXAMPLES.glob("*.toml"):  # the files a scenario may name beside it
            shutil.copy(extra, folder / extra.name)
        scenario = folder / name
        if how == "broken":
            scenario.write_bytes(data.draw(broken_text(dumps(content))))
        else:
            scenario.write_text(dumps(data.draw(mutated(content, SCENARIO_NAMES)) if how == "mutated" else content),
                                encoding="utf-8")
        out, csv = folder / "out", folder / "csv"
        r = invoke(["report", str(scenario), "-o", str(out / "sub" / "r.html"), "--csv", str(csv)]
                   + ["-n", "20"])  # a scenario's own n plays in tests/app/test_report.py
        if how == "valid":
            assert r.exit_code == 0, r.stderr
        if r.exit_code == 0:
            assert [p.name for p in out.rglob("*") if p.is_file()] == ["r.html"]
            assert (out / "sub" / "r.html").read_text(encoding="utf-8").rstrip().endswith("</html>")
            assert any(p.suffix == ".csv" for p in csv.iterdir())
        else:
            names_one_of(r, str(scenario), "-n")
            assert not out.exists() and not csv.exists()

    run()
