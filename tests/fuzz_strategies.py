"""Hypothesis strategies and checks for the fuzz tests of tests/app/test_fuzz_*.py: the bundled
data files of every ruleset, valid and mutated, written back as TOML (or as bytes that are not
TOML), and a CLI run checked for the promise of the command line: a result (exit 0), or one line
``error: …`` naming the file or flag and exit 2 — never a traceback, never another exit code.

The hypothesis profiles (``ci``, ``dev``, ``ci-long``) are set in ``tests/conftest.py``.
"""

from __future__ import annotations

import copy
import datetime as dt
import json
import math
import tomllib
from pathlib import Path
from typing import Any, Iterable

from hypothesis import settings, strategies as st
from typer.testing import CliRunner

import brutal_sim
from brutal_sim.cli import app
from brutal_sim.core.ruleset import get_ruleset


def examples(n: int) -> int:
    """``n`` examples, ten times as many under the ``ci-long`` profile."""
    return n * 10 if settings.get_current_profile_name() == "ci-long" else n


DATA = Path(brutal_sim.__file__).parent / "data"
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
RULESETS = ("brutal", "wfrp2e", "vereteno")
#: the key of a fighter's (main) weapon in each ruleset's fighter files
WEAPON_KEY = {"brutal": "main_hand", "wfrp2e": "main_hand", "vereteno": "weapon"}


def read(path: Path) -> dict[str, Any]:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def fighter_files(ruleset: str) -> list[Path]:
    return sorted((DATA / ruleset / "fighters").glob("*.toml"))


def catalog_tables(ruleset: str, fname: str) -> dict[str, dict[str, Any]]:
    """A bundled catalog file's named tables (``weapons.toml`` …) as plain data."""
    return read(DATA / ruleset / fname)


def rules_data(ruleset: str) -> dict[str, Any]:
    """A valid rules file of ``ruleset``: every option at its default (Brutal: the example rules
    file's options and hit-zone table on top)."""
    rs = get_ruleset(ruleset)
    data: dict[str, Any] = {"description": "every option", "options": dict(rs.option_defaults())}
    if ruleset == "brutal":
        example = read(EXAMPLES / "rules_variant.toml")
        data["options"].update(example["options"])
        data["zone_table"] = example["zone_table"]
    return data


def scenario_files() -> list[Path]:
    return sorted(EXAMPLES.glob("*.toml"))


# -- values -----------------------------------------------------------------------------------

#: text a user's file may hold: control characters (NUL), right-to-left and zero-width marks,
#: combining marks, emoji, Cyrillic, rich markup, format placeholders, quotes and newlines
ODD = ["\x00", "\x07", "\x1b[31m", "\u202e", "\u200f", "\u200b", "\ufeff", "e\u0301", "\U0001f5e1", "кинжал",
       "[bold]", "[/]", "[red]x[/red]", "[link=file:///]", "%s", "{0}", "{}", "'", '"', "\\", "\n", "\r\n", "\t",
       " ", "", ".toml", "/", "..", "-n", "--", "=", "*3", ":head", "d6", "\ud7ff", "\uffff"]

odd_text = st.one_of(
    st.sampled_from(ODD),
    st.lists(st.sampled_from(ODD), min_size=1, max_size=4).map("".join),
    st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12),
)

#: dice expressions, well and badly formed: d0, 3d, d6+-1, 999d999, big numbers, other letters
dice_text = st.one_of(
    st.sampled_from(["d0", "3d", "d6+-1", "999d999", "d", "2d6", "d8+1", "к6-1", "D20", "1d1", "0d6", "11d6",
                     "d7", "d6+", "+3", "-3", "3", "0", "d6 + 1", "2 d 6", "d6d6", "d6-99", "d-6", " d6 ",
                     "d" + "9" * 30, "d6+" + "9" * 30, "9" * 30, "-" + "9" * 30, "d6+" + "9" * 5000, "d６",
                     "d٦", "d6\x00", "d\u200b6"]),
    st.builds(lambda n, k, s, b: f"{n}{k}{s}{b}",
              st.one_of(st.just(""), st.integers(0, 10**6).map(str)),
              st.sampled_from(["d", "D", "к", "К", "x", ""]),
              st.one_of(st.integers(-5, 10**6).map(str), st.just("")),
              st.one_of(st.just(""), st.builds(lambda sign, v: f"{sign}{v}", st.sampled_from("+-"),
                                               st.integers(0, 2**70)))),
)

big_ints = st.sampled_from([0, -1, 1, 2**31 - 1, 2**31, 2**53 + 1, 2**63 - 1, -2**63, 2**64 - 1, 10**18, -10**18])

scalars = st.one_of(
    st.booleans(),
    st.integers(-1000, 1000),
    big_ints,
    st.floats(allow_nan=True, allow_infinity=True),
    odd_text,
    dice_text,
    st.dates(),
    st.datetimes(timezones=st.none() | st.just(dt.timezone.utc)),
    st.times(),
)

toml_values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3),
    st.dictionaries(odd_text, inner, max_size=3)), max_leaves=6)


def _nested(depth: int, leaf: Any = 1) -> Any:
    for _ in range(depth):
        leaf = [leaf]
    return leaf


#: values at and past the bounds of a value that changes a fighter (brutal_sim.core.limits): text
#: of 1,000 and 1,001 characters, nesting 32 and 33 levels deep, and far past both
bound_values = st.sampled_from(["x" * 1_000, "x" * 1_001, "я" * 100_000, _nested(31), _nested(32), _nested(400),
                                [["d6"] * 3] * 3, {"name": "x" * 201}])
#: any value a change may be given: TOML values, dice, values at the bounds
changed_values = st.one_of(toml_values, dice_text, bound_values)


def field_paths(data: Any, prefix: str = "") -> list[str]:
    """Every dotted path to a value of fighter data, as ``--set`` and sweeps write them
    (``main_hand.damage``, ``armour.0.protection``), tables and lists included."""
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    out = []
    for k, v in items:
        path = f"{prefix}.{k}" if prefix else str(k)
        out += [path, *field_paths(v, path)]
    return out


def out_of_range(value: Any) -> st.SearchStrategy[Any]:
    """Numbers just beside, and far from, a number of the file."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return big_ints
    v = int(value)
    return st.sampled_from([v - 1, v + 1, -v, v * 100, -(10**6), 10**6, 0, 2**63, -2**63 - 1, 2**64]) | big_ints


# -- TOML text -----------------------------------------------------------------------------------

def _key(k: Any) -> str:
    return _string(str(k))


def _string(s: str) -> str:
    # JSON's escapes (\" \\ \n \uXXXX …) are TOML's; TOML also wants DEL escaped
    return json.dumps(s, ensure_ascii=False).replace("\x7f", "\\u007f")


def toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return _string(v)
    if isinstance(v, dt.datetime):
        return v.isoformat()
    if isinstance(v, (dt.date, dt.time)):
        return v.isoformat()
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_key(k)} = {toml_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(f"no TOML for {v!r}")


def dumps(data: dict[str, Any]) -> str:
    """``data`` as TOML text: a top-level ``key = value`` per line, tables inline."""
    return "".join(f"{_key(k)} = {toml_value(v)}\n" for k, v in data.items())


# -- mutations -------------------------------------------------------------------------------------

def _places(data: Any, path: tuple = ()) -> Iterable[tuple]:
    """Every path to a value inside ``data`` (keys of tables, indices of arrays)."""
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for k, v in items:
        yield (*path, k)
        yield from _places(v, (*path, k))


def _parent(data: Any, path: tuple) -> Any:
    for k in path[:-1]:
        data = data[k]
    return data


@st.composite
def mutated(draw: st.DrawFn, data: dict[str, Any], extra: st.SearchStrategy[Any] | None = None) -> dict[str, Any]:
    """``data`` with one to three changes: a field dropped, an unknown one added, a value of another
    TOML type, a number out of range, a random dice expression, odd text (``extra``: more values
    to try in place of a value, e.g. the names of a catalog)."""
    data = copy.deepcopy(data)
    values = toml_values if extra is None else st.one_of(toml_values, extra)
    for _ in range(draw(st.integers(1, 3))):
        places = list(_places(data))
        op = draw(st.sampled_from(["drop", "unknown", "retype", "range", "dice", "text", "same-type"]))
        if not places or op == "unknown":
            target = data
            if places:
                inner = [p for p in places if isinstance(_parent(data, p + ("",)), dict)]
                if inner and draw(st.booleans()):
                    target = _parent(data, draw(st.sampled_from(inner)) + ("",))
            target[draw(odd_text | st.sampled_from(["nmae", "damage", "ruleset", "options", "zones"]))] = draw(values)
            continue
        path = draw(st.sampled_from(places))
        parent, key = _parent(data, path), path[-1]
        old = parent[key]
        if op == "drop":
            del parent[key]
        elif op == "range":
            parent[key] = draw(out_of_range(old))
        elif op == "dice":
            parent[key] = draw(dice_text)
        elif op == "text":
            parent[key] = draw(odd_text)
        elif op == "same-type" and isinstance(old, str):
            parent[key] = draw(odd_text | dice_text if extra is None else st.one_of(odd_text, extra))
        else:
            parent[key] = draw(values)
    return data


@st.composite
def broken_text(draw: st.DrawFn, good: str) -> bytes:
    """File content that is not a valid TOML document in UTF-8: random bytes, a valid file cut
    short or with invalid UTF-8 or a NUL inside, text that is not TOML."""
    raw = good.encode("utf-8")
    kind = draw(st.sampled_from(["bytes", "cut", "bad-utf8", "nul", "text", "bom"]))
    if kind == "bytes":
        return draw(st.binary(max_size=200))
    at = draw(st.integers(0, len(raw)))
    if kind == "cut":
        return raw[:at]
    if kind == "bad-utf8":
        return raw[:at] + draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80"])) + raw[at:]
    if kind == "nul":
        return raw[:at] + b"\x00" + raw[at:]
    if kind == "bom":
        return b"\xef\xbb\xbf" + raw
    return draw(odd_text).encode("utf-8") + raw[at:]


# -- running the CLI -------------------------------------------------------------------------------

runner = CliRunner()


def invoke(args: list[str]) -> Any:
    """Run the CLI in-process and check the promise of every run: exit 0, or exit 2 with one line
    ``error: …`` on stderr; never a traceback."""
    r = runner.invoke(app, args)
    shown = f"{args!r}\nexit {r.exit_code}\nstdout: {r.stdout[-2000:]}\nstderr: {r.stderr[-2000:]}"
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        import traceback
        tb = "".join(traceback.format_exception(r.exception))
        raise AssertionError(f"uncaught {r.exception!r}\n{shown}\n{tb}")
    assert r.exit_code in (0, 2), shown
    assert "Traceback" not in r.output, shown
    if r.exit_code == 2:
        assert r.stderr.startswith("error: ") and r.stderr.endswith("\n") and r.stderr.count("\n") == 1, shown
    return r


def names_one_of(r: Any, *names: str) -> None:
    """The error line names one of ``names`` (a file's path, a flag)."""
    assert any(n in r.stderr for n in names), f"the error names none of {names}: {r.stderr!r}"


#: values of the wrong type for the API's arguments: none is what any argument takes (the
#: numbers that are ints where an int is due are left out, None where None is the default)
wrong_values = st.one_of(
    st.floats(allow_nan=True), st.booleans(), st.binary(max_size=8), st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(), min_size=1, max_size=2), st.just(object()),
    st.complex_numbers(),
)
#: an API call with one argument given a wrong value: (function, argument name, value)
api_calls = st.tuples(st.sampled_from(["duel", "attack", "fight", "sweep", "round_robin", "stat_weights"]),
                      st.sampled_from(["n", "seed", "threads", "options", "rules", "ruleset"]), wrong_values)
