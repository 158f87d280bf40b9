"""Property tests of report setups: a real report's embedded setup, mutated (its JSON fields, the
scenario it carries, a file it carries, the encoding of the link), played again by ``report
--rerun``. Every replay ends in a complete report (exit 0) or in one line ``error:`` naming the
report (exit 2); nothing else is written, no temporary folder is left and the working folder is
the same after as before.

Replays are short (``n = 20``, ``round_cap = 5``) and the examples few (profiles:
tests/fuzz_strategies.py)."""

from __future__ import annotations

import base64
import itertools
import json
import os
import tempfile
import tomllib

import pytest
from fuzz_strategies import broken_text, dumps, examples, invoke, mutated, odd_text
from hypothesis import Phase, given, settings, strategies as st

from brutal_sim.report import find_setup, read_setup

_counter = itertools.count()

FIGHTER = 'name = "Hero"\nmain_hand = "spear"\narmour = ["gambeson"]\n'
RULES = "[options]\nround_cap = 5\n"
SCENARIO = ('title = "fuzzed"\nn = 20\nrules = "r.toml"\nmatchups = [["hero.toml", "brute"]]\n'
            '[[variants]]\nname = "plain"\n[[variants]]\nname = "capped"\noptions = { round_cap = 4 }\n')


@pytest.fixture(scope="module")
def original(tmp_path_factory) -> tuple[str, dict]:
    """A real report (the page and its setup) of a scenario that names a fighter file and a rules
    file."""
    folder = tmp_path_factory.mktemp("original")
    (folder / "hero.toml").write_text(FIGHTER)
    (folder / "r.toml").write_text(RULES)
    (folder / "s.toml").write_text(SCENARIO)
    r = invoke(["report", str(folder / "s.toml"), "-o", str(folder / "r.html")])
    assert r.exit_code == 0, r.stderr
    page = (folder / "r.html").read_text(encoding="utf-8")
    return page, read_setup(str(folder / "r.html"))


def with_setup(page: str, payload: bytes) -> str:
    """The page with its setup link carrying ``payload`` (base64-encoded) instead."""
    return page.replace(find_setup(page), base64.b64encode(payload).decode("ascii"), 1)


def toml_mutated(draw: st.DrawFn, text: str) -> str:
    data = tomllib.loads(text)
    return dumps(draw(mutated(data, st.sampled_from(["brute", "militia", "hero.toml", "r.toml", "../r.toml",
                                                    "/proc/self/environ", "missing.toml"]))))


@st.composite
def fuzzed_setup(draw: st.DrawFn, setup: dict) -> tuple[str, object]:
    """A change to a report's setup, small enough to print: ``("payload", bytes)`` for the link's
    new content (the setup's JSON mutated, its scenario or a carried file mutated as TOML, or bytes
    that are no JSON), or ``("page", (at, cut, text))`` for the page cut short at ``at`` or with
    ``text`` put there."""
    how = draw(st.sampled_from(["json", "scenario", "file", "broken-json", "broken-scenario", "page"]))
    setup = json.loads(json.dumps(setup))
    if how == "json":
        setup = draw(mutated(setup, st.sampled_from(["hero.toml", "r.toml", "/etc/passwd", "..", ""])))
    elif how == "scenario":
        setup["scenario"]["text"] = toml_mutated(draw, setup["scenario"]["text"])
    elif how == "file":
        key = draw(st.sampled_from(sorted(setup["files"])))
        setup["files"][key] = toml_mutated(draw, setup["files"][key])
    elif how == "broken-json":
        return "payload", draw(broken_text(json.dumps(setup, default=str)))
    elif how == "broken-scenario":
        setup["scenario"]["text"] = draw(broken_text(setup["scenario"]["text"])).decode("utf-8", "replace")
    else:
        return "page", (draw(st.floats(0, 1)), draw(st.booleans()), draw(odd_text))
    return "payload", json.dumps(setup, default=str).encode("utf-8")  # TOML dates as text


def fuzzed_page(page: str, change: tuple[str, object]) -> str:
    kind, what = change
    if kind == "payload":
        assert isinstance(what, bytes)
        return with_setup(page, what)
    at, cut, text = what  # type: ignore[misc]
    at = int(at * len(page))
    return page[:at] if cut else page[:at] + text + page[at:]


@pytest.mark.filterwarnings("ignore:Glyph")  # matplotlib's font lacks some of the odd characters of names
def test_replays_of_mutated_setups(tmp_path, original, monkeypatch):
    page, setup = original
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))  # the replays' temporary folders, to see them removed

    @settings(max_examples=examples(12), phases=[Phase.explicit, Phase.reuse, Phase.generate])  # no slow shrinking
    @given(change=fuzzed_setup(setup))
    def run(change: tuple[str, object]) -> None:
        fuzzed = fuzzed_page(page, change)
        folder = tmp_path / f"ex{next(_counter)}"
        folder.mkdir()
        old = folder / "old.html"
        old.write_text(fuzzed, encoding="utf-8")
        here = os.getcwd()
        out, csv = folder / "out", folder / "csv"
        r = invoke(["report", "--rerun", str(old), "-o", str(out / "sub" / "new.html"), "--csv", str(csv)])
        assert os.getcwd() == here
        assert list(temp.iterdir()) == []
        if r.exit_code == 0:
            assert [p.name for p in out.rglob("*") if p.is_file()] == ["new.html"]
            assert (out / "sub" / "new.html").read_text(encoding="utf-8").rstrip().endswith("</html>")
            assert any(p.suffix == ".csv" for p in csv.iterdir())
        else:
            assert str(old) in r.stderr, r.stderr[:500]
            assert sorted(p.name for p in folder.iterdir()) == ["old.html"]
        assert old.read_bytes() == fuzzed.encode("utf-8")  # bytes: reading text would turn \r\n into \n

    run()


def test_the_unmutated_setup_replays(tmp_path, original):
    page, _ = original
    old = tmp_path / "old.html"
    old.write_text(page, encoding="utf-8")
    r = invoke(["report", "--rerun", str(old), "-o", str(tmp_path / "new.html")])
    assert r.exit_code == 0, r.stderr
    assert read_setup(str(tmp_path / "new.html"))["files"] == {"hero.toml": FIGHTER, "r.toml": RULES}


def test_a_deep_or_huge_mutation_is_one_line(tmp_path, original):
    """Two mutations beyond the strategies' reach: a setup nested 10,000 deep (a RecursionError in
    the JSON parser), a carried scenario of 3 MB (over the limit of a scenario file)."""
    page, setup = original
    deep = json.dumps(setup)[:-1] + ', "x": ' + "[" * 10_000 + "]" * 10_000 + "}"
    huge = {**setup, "scenario": {**setup["scenario"], "text": SCENARIO + "#" * 3_000_000 + "\n"}}
    for name, payload, needle in (("deep.html", deep, "setup: nested deeper than 32"),
                                  ("huge.html", json.dumps(huge), "allowed: at most 2.0 MiB")):
        old = tmp_path / name
        old.write_text(with_setup(page, payload.encode()), encoding="utf-8")
        r = invoke(["report", "--rerun", str(old), "-o", str(tmp_path / "new.html")])
        assert r.exit_code == 2 and needle in r.stderr, r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deep.html", "huge.html"]
