"""Plain tests of what the property tests (test_fuzz_files.py, test_fuzz_cli.py) found: each input
once, with the one line it must now give."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from fuzz_strategies import invoke

from brutal_sim import api
from brutal_sim.core.errors import DataError
from brutal_sim.scenario import load_scenario


def test_a_field_name_with_a_line_break_stays_one_line(tmp_path):
    f = tmp_path / "f.toml"
    f.write_text('name = "X"\n"bad\\nfield" = 1\n', encoding="utf-8")
    r = invoke(["duel", str(f), "swordsman", "-n", "20"])
    assert r.exit_code == 2
    assert r.stderr == f"error: {f}: bad\\nfield: unknown field; allowed: " + r.stderr.split("allowed: ")[1]
    assert str(DataError("a\x00b", "c\rd\u2028", "e\x1bf")) == "a\\x00b: c\\rd\\u2028: e\\x1bf"


@pytest.mark.parametrize("value", ["[]", "{ a = 1 }", "3"])
def test_a_ruleset_key_that_is_not_a_name(tmp_path, value):
    f = tmp_path / "f.toml"
    f.write_text(f'ruleset = {value}\nname = "X"\n', encoding="utf-8")
    r = invoke(["duel", str(f), "swordsman", "-n", "20"])
    assert r.exit_code == 2 and f"{f}: ruleset: unknown ruleset " in r.stderr


def test_files_that_cannot_be_read_are_one_line(tmp_path):
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    (tmp_path / "f.toml").write_text("", encoding="utf-8")
    through_a_file = tmp_path / "f.toml" / "x.toml"
    too_long = tmp_path / ("a" * 300 + ".toml")
    cases = [(fifo, "not a regular file: a FIFO"), (through_a_file, "Not a directory"),
             (too_long, "File name too long")]
    for path, message in cases:
        t0 = time.perf_counter()
        r = invoke(["duel", "swordsman", "brute", "-n", "20", "--rules", str(path)])
        assert r.exit_code == 2 and f"--rules {path}: cannot read file ({message}" in r.stderr, r.stderr
        r = invoke(["report", str(path), "-o", str(tmp_path / "out" / "r.html")])
        assert r.exit_code == 2 and f"{path}: cannot read file ({message}" in r.stderr, r.stderr
        assert time.perf_counter() - t0 < 30  # a FIFO is not opened (it would wait for a writer)
    assert not (tmp_path / "out").exists()
    with pytest.raises(DataError, match=r"rules r\\x00.toml: cannot read file \(the path holds a NUL character\)"):
        api.duel("swordsman", "brute", n=20, rules="r\x00.toml")


@pytest.mark.parametrize("args, line", [
    (["duel", "swordsman", "brute", "-n", "abc"], "error: Invalid value for '-n': "),
    (["duel", "swordsman"], "error: Missing argument 'b'. (see "),
    (["duel", "--bogus", "swordsman", "brute"], "error: No such option: --bogus (see "),
    (["attack", "swordsman", "brute", "-n"], "error: Option '-n' requires an argument."),
    (["nosuch"], "error: No such command 'nosuch'. (see "),
])
def test_usage_errors_are_one_line(args, line):
    r = invoke(args)
    assert r.exit_code == 2 and r.stderr.startswith(line) and r.stdout == ""


def test_help_is_still_the_usage():
    r = invoke(["duel", "--help"])
    assert r.exit_code == 0 and "Usage:" in r.stdout and "-n" in r.stdout
    r = invoke(["version"])
    assert r.exit_code == 0


@pytest.mark.parametrize("args, line", [
    (["duel", "swordsman", "brute", "-n", str(2**64)], "error: -n: number of duels must be at most 10**12, got "),
    (["fight", "knight", "vs", "militia", "-n", str(10**13)], "error: -n: number of fights must be at most 10**12"),
    (["attack", "swordsman", "brute", "-n", str(10**13)], "error: -n: number of attacks must be at most 10**12"),
])
def test_a_number_of_duels_that_would_fill_the_memory(args, line):
    r = invoke(args)
    assert r.exit_code == 2 and r.stderr.startswith(line), r.stderr


def test_a_scenario_n_override_beyond_the_files_limit(tmp_path):
    scenario = Path(__file__).resolve().parents[2] / "examples" / "axe_sweep.toml"
    with pytest.raises(DataError, match=r"^n: duels per cell must be at most 10\*\*9, got 1000000001$"):
        load_scenario(str(scenario), n=10**9 + 1)
    r = invoke(["report", str(scenario), "-o", str(tmp_path / "out" / "r.html"), "-n", str(2**64)])
    assert r.exit_code == 2 and r.stderr.startswith("error: -n: duels per cell must be at most 10**9")
    assert not (tmp_path / "out").exists()
    with pytest.raises(DataError, match=r"^n: number of duels must be at most 10\*\*12"):
        api.duel("swordsman", "brute", n=10**12 + 1)


def test_output_paths_the_system_cannot_take_are_refused_before_the_run(tmp_path):
    scenario = str(Path(__file__).resolve().parents[2] / "examples" / "axe_sweep.toml")
    (tmp_path / "loop1").symlink_to(tmp_path / "loop2")
    (tmp_path / "loop2").symlink_to(tmp_path / "loop1")
    long_name = "a" * 237 + ".html"  # 242 bytes: with the temporary file's ".….XXXXXXXX.tmp" more than 255
    cases = [(["-o", f"{tmp_path}/r\x00.html"], "a path cannot hold a NUL character"),
             (["-o", f"{tmp_path}/r.html", "--csv", f"{tmp_path}/\x00"], "a path cannot hold a NUL character"),
             (["-o", f"{tmp_path}/{long_name}"], "name too long (at most 241 bytes"),
             (["-o", f"{tmp_path}/r.html", "--csv", f"{tmp_path}/new/{'c' * 242}"], "name too long"),
             (["-o", f"{tmp_path}/{'d' * 256}/r.html"], "name too long"),
             (["-o", f"{tmp_path}/loop1/r.html"], "Too many levels of symbolic links")]
    for args, message in cases:
        r = invoke(["report", scenario, "-n", "20", *args])
        assert r.exit_code == 2 and message in r.stderr and "cell" not in r.stderr, r.stderr  # no duel played
    assert sorted(p.name for p in tmp_path.iterdir()) == ["loop1", "loop2"]


def test_an_output_name_of_241_bytes_is_written(tmp_path):
    scenario = tmp_path / "s.toml"
    scenario.write_text('n = 20\nmatchups = [["swordsman", "brute"]]\noptions = { round_cap = 5 }\n', encoding="utf-8")
    out = tmp_path / ("a" * 236 + ".html")
    r = invoke(["report", str(scenario), "-o", str(out)])
    assert r.exit_code == 0 and out.read_text(encoding="utf-8").rstrip().endswith("</html>")


@pytest.mark.parametrize("zone", ["[]", "{ a = 1 }", "3"])
def test_a_zone_that_is_not_a_name(tmp_path, zone):
    rules = tmp_path / "rules.toml"
    rules.write_text(f'[zone_table]\ndie = 2\nranges = {{ "1" = "head", "2" = {zone} }}\n', encoding="utf-8")
    r = invoke(["duel", "swordsman", "brute", "-n", "20", "--rules", str(rules)])
    assert r.exit_code == 2 and r.stderr.startswith(f"error: {rules}: zone_table: ranges.2: unknown zone "), r.stderr


@pytest.mark.parametrize("value", ["5", '"zones.toml"', "[1, 2]"])
def test_a_zone_table_that_is_not_a_table(tmp_path, value):
    rules = tmp_path / "rules.toml"
    rules.write_text(f"zone_table = {value}\n", encoding="utf-8")
    r = invoke(["duel", "swordsman", "brute", "-n", "20", "--rules", str(rules)])
    assert r.exit_code == 2 and r.stderr.startswith(f"error: {rules}: zone_table: expected a table such as "), r.stderr


@pytest.mark.parametrize("bad, good, message", [
    ('main_hand = { damage = "d6+18446744073709551615" }', 'main_hand = { damage = "d6+100" }',
     "main_hand.damage: bonus in 'd6+18446744073709551615' must be -100..100"),
    ('main_hand = { damage = "-101" }', 'main_hand = { damage = "-100" }',
     "main_hand.damage: bonus in '-101' must be -100..100"),
    ('main_hand = { damage = "d6", ranges = [10, 20, 18446744073709551616] }',
     'main_hand = { damage = "d6", ranges = [10, 20, 10000] }', "main_hand.ranges: needs 3 increasing ranges"),
    ("damage_levels = [3, 6, 9, 9223372036854775808]", "damage_levels = [3, 6, 9, 1000]",
     "damage_levels: levels must be at most 1000"),
])
def test_numbers_beyond_the_kernels_integers(tmp_path, bad, good, message):
    """Numbers past 64 bits were a traceback while compiling; the largest allowed ones play."""
    f = tmp_path / "f.toml"
    f.write_text(bad + "\n", encoding="utf-8")
    r = invoke(["duel", str(f), "swordsman", "-n", "20"])
    assert r.exit_code == 2 and f"{f}: {message}" in r.stderr, r.stderr
    f.write_text(good + "\n", encoding="utf-8")
    assert invoke(["duel", str(f), "swordsman", "-n", "20", "--option", "round_cap=5"]).exit_code == 0
