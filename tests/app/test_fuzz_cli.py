"""Property tests of the command line: random argument strings for every command — catalog names
and typos, fighter files good and bad, flags with valid, malformed and out-of-range values, unknown
flags, odd Unicode, NAME*N sides — end in a result (exit 0; ``--json`` prints one JSON object) or
in one line ``error: …`` and exit 2, never a traceback; a failed ``report`` creates nothing.

Valid runs are short: every generated ``-n`` that is accepted is at most 20.
"""

from __future__ import annotations

import itertools
import json
import shutil
from pathlib import Path

import pytest
from fuzz_strategies import EXAMPLES, RULESETS, dumps, examples, fighter_files, invoke, odd_text, read
from hypothesis import given, settings, strategies as st

from brutal_sim.core.ruleset import get_ruleset

_counter = itertools.count()

CATALOG = sorted({p.stem for rs in RULESETS for p in fighter_files(rs)})
#: the fighters every ruleset's catalog has, and a Brutal fighter file
COMMON_FIGHTERS = sorted(set.intersection(*({p.stem for p in fighter_files(rs)} for rs in RULESETS))) + ["FIGHTER"]
BAD_NAMES = st.sampled_from(["swordsmn", "Swordsman", "", " ", "knight*2", "vs", "-", "brute.toml", "nosuch/brute.toml",
                             "BROKEN", "MISSING", "FOLDER", *CATALOG]) | odd_text


def good_or_bad(good: st.SearchStrategy, bad: st.SearchStrategy) -> st.SearchStrategy:
    """Mostly a good value, one time in five a bad one."""
    return st.integers(0, 4).flatmap(lambda k: bad if k == 0 else good)


FIGHTERS = good_or_bad(st.sampled_from(COMMON_FIGHTERS), BAD_NAMES)
#: accepted values are small (the run stays short), the others are not numbers or out of range
N_VALUES = good_or_bad(st.sampled_from(["20", "1", " 7"]),
                       st.sampled_from(["0", "-1", "abc", "1e3", "20.5", "", "0x10", "２０", "٢٠", str(2**64),
                                        "-" + str(2**63), "nan"]))
SEEDS = good_or_bad(st.sampled_from(["0", "7", str(2**64 - 1)]),
                    st.sampled_from([str(2**64), "-1", "x", "1.5", str(10**40)]))
THREADS = good_or_bad(st.sampled_from(["1", "2"]), st.sampled_from(["0", "-1", "999", "two", ""]))
CLUSTERS = st.sampled_from(["local:999", "local:0", "local:-1", "nonsense", "tcp://", "tcp://host:99999",
                            "tcp://host:port", "local:x", "udp://host:1"])
SPECS = [s for rs in RULESETS for s in get_ruleset(rs).option_specs if s.name != "round_cap"]
GOOD_OPTIONS = st.sampled_from(sorted({f"{s.name}={v}" for s in SPECS for v in (*s.choices, *(s.int_range or ()))
                                       if s.name not in ("start_distance", "zone_table", "crit_table")}))
BAD_OPTIONS = st.one_of(
    st.builds(lambda k, v: f"{k}={v}", st.sampled_from(sorted({s.name for s in SPECS})) | odd_text,
              odd_text | st.integers(-10**6, 10**6).map(str)),
    st.sampled_from(["round_cap=0", "round_cap=10001", "round_cap=", "round_cap", "=5", "a==b", "round_cap=5=5",
                     "ROUND_CAP=5", " round_cap = 5 ", "zone_table=nosuch.toml", "crit_table=nosuch.toml",
                     "zone_table=default", "crit_table=example", "start_distance=9999"]))
OPTIONS = good_or_bad(GOOD_OPTIONS, BAD_OPTIONS)
TACTIC_NAMES = ["single", "feint", "defensive", "furious", "aimed:head", "step", "knockdown", "grapple", "kite",
                "charge", "total_defence", "guarded", "std_guard", "feinter", "best", "parry", "dodge", "none",
                "defend", "dodge_first", "spread", "weakest", "nearest"]
TACTICS = good_or_bad(st.sampled_from(TACTIC_NAMES), st.sampled_from(["aimed", "aimed:tail", "aimed:", "x"]) | odd_text)
RULESET_NAMES = good_or_bad(st.sampled_from(RULESETS), st.sampled_from(["gurps", "Brutal", ""]) | odd_text)


def flag(name: str, values: st.SearchStrategy[str]) -> st.SearchStrategy[list[str]]:
    return values.map(lambda v: [name, v])


JUNK = st.sampled_from([["--bogus"], ["-x"], ["--"], ["-n"], ["--option"], ["--json=yes"], ["--seed", "--json"],
                        ["extra"], ["--help"], ["--version"]])

COMMON = [flag("--seed", SEEDS), flag("--threads", THREADS), flag("--option", OPTIONS), flag("--option", OPTIONS),
          st.just(["--json"]), st.just(["--json"])]
FLAGS = {
    "duel": [*COMMON, flag("--ruleset", RULESET_NAMES), flag("--tactic-a", TACTICS), flag("--tactic-b", TACTICS),
             flag("--reaction-a", TACTICS), flag("--reaction-b", TACTICS), flag("--cluster", CLUSTERS),
             flag("--rules", good_or_bad(st.just("RULES"), st.sampled_from(["MISSING", "FIGHTER", "BROKEN"])))],
    "attack": [*COMMON, flag("--ruleset", RULESET_NAMES), flag("--tactic", TACTICS), flag("--reaction", TACTICS),
               st.just(["--sampled"]), st.just(["--exact"]), flag("--rules", st.sampled_from(["RULES", "MISSING"])),
               flag("--shot", good_or_bad(st.sampled_from(["aimed", "unaimed", "hip", "standard", "burst", "throw"]),
                                          st.sampled_from(["snipe", "", "AIMED"]) | odd_text))],
    "fight": [*COMMON, flag("--targeting-a", TACTICS), flag("--targeting-b", TACTICS), flag("--cluster", CLUSTERS)],
}


@st.composite
def command_line(draw: st.DrawFn, command: str) -> list[str]:
    """Two fighters (or two sides) and a random set of flags in random order, each part now and
    then bad: a wrong name, a value out of range, a missing or extra word."""
    if command == "fight":
        one = good_or_bad(FIGHTERS, st.builds(lambda n, k: f"{n}*{k}", st.sampled_from(CATALOG),
                                              st.sampled_from(["0", "1", "3", "7", "x", ""])))
        side = st.lists(one, min_size=1, max_size=3)
        positional = [*draw(side), *draw(good_or_bad(st.just(["vs"]), st.sampled_from([["VS"], [], ["vs", "vs"]]))),
                      *draw(side)]
    else:
        positional = draw(good_or_bad(st.lists(FIGHTERS, min_size=2, max_size=2),
                                      st.lists(FIGHTERS, min_size=0, max_size=3)))
    flags = draw(st.lists(st.sampled_from(FLAGS[command]), max_size=3))
    parts = [positional, ["-n", draw(N_VALUES)], ["--option", "round_cap=5"], *[draw(f) for f in flags]]
    if command == "attack" and draw(st.booleans()):
        parts.pop(1)  # exact enumeration, no -n
    if draw(st.integers(0, 5)) == 0:
        parts.append(draw(JUNK))
    order = draw(st.permutations(range(len(parts))))
    args = [command]
    for i in order:
        args += parts[i]
    return args


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, str]:
    """The files the placeholders of the generated arguments stand for."""
    d = tmp_path_factory.mktemp("cli")
    fighter = d / "sergeant.toml"
    shutil.copy(EXAMPLES / "sergeant.toml", fighter)
    (d / "broken.toml").write_bytes(b"name = \xff\n[[")
    (d / "folder.toml").mkdir()
    rules = d / "rules.toml"
    shutil.copy(EXAMPLES / "rules_variant.toml", rules)
    return {"FIGHTER": str(fighter), "BROKEN": str(d / "broken.toml"), "MISSING": str(d / "missing.toml"),
            "FOLDER": str(d / "folder.toml"), "RULES": str(rules)}


#: the options that take the next word as their value ("--seed --json" asks for no JSON)
VALUE_OPTIONS = {"-n", "--seed", "--threads", "--option", "--ruleset", "--tactic-a", "--tactic-b", "--reaction-a",
                 "--reaction-b", "--cluster", "--rules", "--tactic", "--reaction", "--targeting-a", "--targeting-b",
                 "--shot"}


def run_checked(args: list[str], files: dict[str, str]):
    args = [files.get(a, a) for a in args]
    r = invoke(args)
    json_asked = any(a == "--json" and (i == 0 or args[i - 1] not in VALUE_OPTIONS) for i, a in enumerate(args))
    if r.exit_code == 0 and json_asked and not {"--help", "--version"} & set(args):
        d = json.loads(r.stdout)
        if args[0] in ("duel", "fight"):  # every run carries --option round_cap=5
            assert d["options"]["round_cap"] == 5 and (d["rounds"]["p90"] or 0) <= 5, d["rounds"]
    return r


@pytest.mark.parametrize("command", ["duel", "attack", "fight"])
def test_random_command_lines(command, files):
    codes = set()

    @settings(max_examples=examples(150))
    @given(args=command_line(command))
    def run(args):
        codes.add(run_checked(args, files).exit_code)

    run()
    assert codes == {0, 2}  # the examples reach both ends: results and errors


def test_random_words(files):
    """Any words at all after the program name (commands, flags, text)."""
    words = st.sampled_from(["duel", "attack", "fight", "report", "list", "version", "fighters", "options",
                             "weapons", "rulesets", "--ruleset", "wfrp2e", "vereteno", "brutal", "-n", "20",
                             "swordsman", "brute", "vs", "--json", "-o", "--csv", "--option", "--help", "--version",
                             "FIGHTER", "RULES"]) | odd_text

    @settings(max_examples=examples(150))
    @given(args=st.lists(words, min_size=1, max_size=6))
    def run(args):
        if args[0] in ("duel", "fight") and "-n" not in args:
            args = [*args, "-n", "20"]  # keep a valid run short (-n is read before the duel)
        if args[0] == "report":
            return  # needs -o into a fresh folder: test_random_report_lines
        run_checked(args, files)

    run()


def scenario_text() -> str:
    data = read(EXAMPLES / "axe_sweep.toml")
    data.update(n=20, options={"round_cap": 5})
    data["sweeps"][0]["values"] = data["sweeps"][0]["values"][:2]
    return dumps(data)


def tree(folder: Path) -> dict[str, str]:
    """Every path under ``folder`` and its content (folders: "/")."""
    return {str(p.relative_to(folder)): "/" if p.is_dir() else p.read_text(encoding="utf-8", errors="replace")
            for p in folder.rglob("*")}


@pytest.mark.filterwarnings("ignore:Glyph")  # matplotlib's font lacks some of the odd characters of names
def test_random_report_lines(tmp_path, files):
    """``report`` with good and bad scenario paths, outputs (odd names too), CSV folders and -n: a
    complete report and nothing else new, or one line, exit 2 and nothing created or changed."""
    text = scenario_text()
    paths = st.sampled_from(["out/sub/r.html", "out/r.html", "out/", "SCENARIO", "FOLDER", "", ".", "r.html"])

    @settings(max_examples=examples(60))
    @given(scenario=st.sampled_from(["SCENARIO", "MISSING", "BROKEN", "FIGHTER", "FOLDER"]) | odd_text,
           output=good_or_bad(paths, odd_text.filter(lambda t: ".." not in t)),
           csv=st.sampled_from([None, "csv", "SCENARIO", "FOLDER", ""]) | odd_text.filter(lambda t: ".." not in t),
           n=st.one_of(st.none(), N_VALUES), threads=st.one_of(st.none(), THREADS),
           cluster=st.one_of(st.none(), CLUSTERS), junk=st.one_of(st.none(), JUNK))
    def run(scenario, output, csv, n, threads, cluster, junk):
        folder = tmp_path / f"ex{next(_counter)}"
        folder.mkdir()
        (folder / "s.toml").write_text(text, encoding="utf-8")
        (folder / "empty").mkdir()
        here = {**files, "SCENARIO": str(folder / "s.toml"), "FOLDER": str(folder / "empty")}
        report = here.get(output, f"{folder}/{output}")  # odd names stay inside the folder
        args = ["report", here.get(scenario, scenario), "-o", report]
        if csv is not None:
            args += ["--csv", here.get(csv, f"{folder}/{csv}")]
        for name, value in (("-n", n), ("--threads", threads), ("--cluster", cluster)):
            if value is not None:
                args += [name, value]
        args += junk or []
        before = tree(folder)
        r = invoke(args)
        after = tree(folder)
        if r.exit_code == 0 and "--help" not in args and "--version" not in args:
            assert Path(report).read_text(encoding="utf-8").rstrip().endswith("</html>")
            assert not [p for p in after if Path(p).name.endswith((".tmp", ".old"))], after  # no leftovers
        else:
            assert after == before, r.stderr

    run()


def test_api_arguments_of_the_wrong_type_are_a_data_error(monkeypatch):
    """Any API call with an argument of the wrong type is a DataError, never another exception."""
    from fuzz_strategies import api_calls

    from brutal_sim import api, designer
    from brutal_sim.core.errors import DataError
    from brutal_sim.core.ruleset import Ruleset
    from brutal_sim.run import executor

    def played(*args, **kwargs):
        raise AssertionError("a duel was played")

    monkeypatch.setattr(executor, "run_chunk", played)
    monkeypatch.setattr(Ruleset, "warm_up", played)
    calls = {"duel": lambda **kw: api.duel("brute", "swordsman", **kw),
             "attack": lambda **kw: api.attack("brute", "swordsman", **kw),
             "fight": lambda **kw: api.fight(["knight"], ["militia*2"], **kw),
             "sweep": lambda **kw: designer.sweep("brute", "swordsman", "endurance", [3, 4], **kw),
             "round_robin": lambda **kw: designer.round_robin(["brute", "swordsman"], **kw),
             "stat_weights": lambda **kw: designer.stat_weights("brute", "swordsman", **kw)}

    @settings(max_examples=examples(150))
    @given(api_calls)
    def check(call):
        function, name, value = call
        if name == "n" and function == "attack" and value is None:
            return
        with pytest.raises(DataError):
            calls[function](**{name: value})

    check()
