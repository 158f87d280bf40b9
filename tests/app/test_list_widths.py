"""``brutal-sim list`` never cuts a name, whatever the terminal's width: the name column keeps its
longest name, the other columns wrap, and the last ones are left out (and said so) before a name
would be cut."""

from __future__ import annotations

import io
import json

import pytest
from rich.console import Console
from typer.testing import CliRunner

from brutal_sim.cli import app, catalog as cli_catalog
from brutal_sim.core.ruleset import get_ruleset, ruleset_names

runner = CliRunner()


def _topics() -> list[tuple[str, str]]:
    return [(rs, topic) for rs in ruleset_names() for topic in [*get_ruleset(rs).listings(), "options"]] + \
        [("brutal", "rulesets")]


def _listed(monkeypatch, rs: str, topic: str, width: int) -> str:
    stream = io.StringIO()
    monkeypatch.setattr(cli_catalog, "out", Console(file=stream, width=width, force_terminal=False))
    r = runner.invoke(app, ["list", topic, "--ruleset", rs])
    assert r.exit_code == 0, r.output
    return stream.getvalue()


@pytest.mark.parametrize("rs,topic", _topics())
def test_no_name_is_cut_at_60_80_or_120_columns(monkeypatch, rs, topic):
    data = json.loads(runner.invoke(app, ["list", topic, "--ruleset", rs, "--json"]).stdout)
    names = [row[0] for row in data["rows"]]
    assert names
    for width in (60, 80, 120):
        text = _listed(monkeypatch, rs, topic, width)
        lines = text.splitlines()
        assert all(len(line) <= width for line in lines), (width, text)
        cells = {cell.strip() for line in lines for cell in line.split("│")}
        missing = [name for name in names if name not in cells]
        assert not missing, (width, missing, text)
        assert "…" not in text.replace("(at", "")


def test_columns_left_out_are_said(monkeypatch):
    text = _listed(monkeypatch, "vereteno", "guns", 60)
    note = " ".join(text.split("\n(at 60 columns: ")[1].split())
    assert note.endswith(" left out; a wider terminal or --json shows them)")
    assert "properties" in note
    wide = _listed(monkeypatch, "vereteno", "guns", 1000)
    assert "left out" not in wide
