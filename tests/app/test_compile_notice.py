"""The first run compiles the kernels for a while: the CLI says so once on stderr, with what and
about how long, and never writes to stdout (``--json`` output stays one JSON object)."""

from __future__ import annotations

import io
import time

from rich.console import Console

from brutal_sim.cli import base as cli
from brutal_sim.core.ruleset import get_ruleset


def _notice(monkeypatch, seconds: float, json_mode: bool = False, kind: str = "duel") -> str:
    """The notice of a warm-up of ``seconds``, with the threshold at 0.3 s."""
    monkeypatch.setattr(cli, "COMPILE_NOTICE_AFTER", 0.3)
    stream = io.StringIO()
    monkeypatch.setattr(cli, "err", Console(file=stream, force_terminal=False, width=200))
    cli.compile_notice(json_mode, get_ruleset("brutal"), kind, lambda: time.sleep(seconds))
    return stream.getvalue()


def test_a_long_compile_is_announced_once_with_what_and_how_long(monkeypatch):
    text = _notice(monkeypatch, 0.3 + 2.0)
    lines = text.splitlines()
    assert lines[0] == "compiling the brutal duel kernels (once: numba caches them, about 60 s) …"
    assert len(lines) == 2 and lines[1].startswith("compiled the brutal duel kernels in ")


def test_the_notice_names_the_kind_of_kernels(monkeypatch):
    text = _notice(monkeypatch, 0.3 + 0.5, kind="exact")
    assert text.startswith("compiling the brutal exact-attack kernels (once: numba caches them, about 25 s) …")


def test_loading_cached_kernels_says_nothing(monkeypatch):
    assert _notice(monkeypatch, 0.05) == ""


def test_json_mode_says_nothing_on_a_pipe(monkeypatch):
    assert _notice(monkeypatch, 0.3 + 0.5, json_mode=True) == ""
