"""Every example command of the README and of docs/*.md runs as written (the docs-check): each
``brutal-sim …`` in a code block or in backticks is extracted, played with a small n where it
plays duels (a larger one as written is cut to :data:`SMALL_N`), in a folder holding the examples,
and must end with exit code 0 and no warning, path or traceback text on stderr. Where the docs
quote what a command prints (the README's tour), the printed figures are compared.

Left out, and why, in :data:`NOT_RUN`: templates with placeholders (``A B``, ``KIND``), a cluster's
address, and commands that change the user's setup (shell completion)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from brutal_sim.cli import app

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: the n a command plays here (its own when smaller)
SMALL_N = 2_000
#: commands that play duels: their n is cut (or given) to SMALL_N
PLAYING = {"duel", "fight", "weights", "rate", "gauntlet", "headcount", "diff", "report", "suggest"}
#: the documented commands not run, by a word they hold
NOT_RUN = {
    "--install-completion": "changes the user's shell setup",
    "--cluster": "needs a running Dask scheduler (tests/run covers clusters)",
    "…": "a template",
}
#: placeholders of templates (``brutal-sim fight A B vs C D E``)
PLACEHOLDER = re.compile(r"^(A|B|C|D|E|X|N|NAME|KIND|A1|A2|B1|B2|OLD\.toml|NEW\.toml|scenario\.toml|my_orc\.toml)$|"
                         r"^\[|\]$|HOST")

runner = CliRunner()


def _commands() -> list[tuple[str, str]]:
    """(doc, command line) of every example command, in the order of the docs, once each."""
    found: list[tuple[str, str]] = []
    seen: set[str] = set()
    for doc in DOCS:
        text = doc.read_text()
        lines = [m.group(1) for m in re.finditer(r"^(?:\s{4,}|\$ )\$? ?(brutal-sim [^\n]+)$", text, re.M)]
        lines += [" ".join(m.group(1).split()) for m in re.finditer(r"`(brutal-sim [^`]+)`", text)]
        # the order of the document (a report before its --rerun)
        flat = " ".join(text.split())
        lines.sort(key=lambda line: flat.find(line))
        for line in lines:
            line = line.split("  #")[0].split(" # ")[0].split(" | ")[0].strip()  # a comment, a pipe to jq
            if line not in seen:
                seen.add(line)
                found.append((doc.relative_to(ROOT).as_posix(), line))
    return found


def _runnable(line: str) -> bool:
    try:
        words = shlex.split(line)
    except ValueError:
        return False
    if len(words) < 2 or any(word in line for word in NOT_RUN):
        return False
    if any(PLACEHOLDER.search(w) or "|" in w for w in words[1:]):  # a template: `list fighters|weapons`
        return False
    if len(words) == 3 and words[2].startswith("-"):  # a flag named in prose: `duel --json`, `diff -o`
        return False
    # a bare command named in prose (`brutal-sim report`, `brutal-sim fight`) with nothing to run on
    return not (len(words) == 2 and words[1] in {"report", "fight", "attack", "duel", "weights", "rate", "suggest",
                                               "list", "cache"})


COMMANDS = [(doc, line) for doc, line in _commands() if _runnable(line)]


def _small(words: list[str]) -> list[str]:
    """The command with ``-n`` at most :data:`SMALL_N` (given when it plays duels without one); a
    redirection to a file dropped (stdout is read here); ``cache clear`` on a folder of its own."""
    if ">" in words:
        words = words[:words.index(">")]
    if words[:2] == ["cache", "clear"] and "--dir" not in words:
        words = [*words, "--dir", "no-cache-here"]
    if "-n" in words:
        k = words.index("-n") + 1
        words[k] = str(min(int(words[k].replace("_", "")), SMALL_N))
    elif words[0] in PLAYING and "--target-error" not in words and "--rerun" not in words:
        words = [*words, "-n", str(SMALL_N if words[0] != "report" else 200)]
    if "--target-error" in words and "--max-n" not in words:
        words = [*words, "--max-n", str(SMALL_N)]
    return words


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """A folder with the examples where the docs' commands run (their reports written there)."""
    root = tmp_path_factory.mktemp("docs")
    (root / "examples").symlink_to(ROOT / "examples")
    (root / "reports" / "examples").mkdir(parents=True)
    return root


def test_the_docs_hold_the_commands_checked():
    assert len(COMMANDS) >= 35
    lines = {line for _, line in COMMANDS}
    assert "brutal-sim duel rifleman swordsman --ruleset vereteno --option start_distance=30" in lines
    assert "brutal-sim report --rerun reports/axe.html -o reports/again.html" in lines


#: what stderr may say besides errors: compiles (a cold cache), a report's progress and its result
QUIET = re.compile(r"^(compiling |compiled |wrote |cell \d+/\d+|rendering |note: )")


@pytest.mark.parametrize("doc,line", COMMANDS, ids=[f"{d}: {c}" for d, c in COMMANDS])
def test_a_documented_command_runs_as_written(folder, monkeypatch, doc, line):
    monkeypatch.chdir(folder)
    words = _small(shlex.split(line)[1:])
    r = runner.invoke(app, words)
    assert r.exit_code == 0, (words, r.stdout, r.stderr, r.exception)
    noise = [s for s in r.stderr.splitlines() if s.strip() and not QUIET.match(s)]
    assert not noise, noise
    for word in ("Warning", "Traceback", str(ROOT), "/site-packages/"):
        assert word not in r.stderr, r.stderr


def _tour() -> tuple[str, list[str]]:
    """The README tour's duel and the lines it quotes of its output."""
    text = (ROOT / "README.md").read_text()
    block = re.search(r"```console\n(.*?)```", text, re.S).group(1)  # type: ignore[union-attr]
    command = next(line[2:] for line in block.splitlines() if line.startswith("$ brutal-sim duel"))
    quoted = block.split(command, 1)[1].split("\n$ ")[0].splitlines()
    return command, [q for q in quoted if q.strip()]


def test_the_tour_prints_the_figures_it_quotes(monkeypatch, folder):
    """The README's tour: the same duel, the same counts, rates, intervals and rounds."""
    command, quoted = _tour()
    monkeypatch.chdir(folder)
    r = runner.invoke(app, shlex.split(command)[1:])
    assert r.exit_code == 0, r.stderr
    figures = [f for line in quoted[1:] for f in re.findall(r"\d[\d,]*\.?\d*(?: %)?", line)]
    assert len(figures) >= 20
    printed = " ".join(r.stdout.split())
    for line in quoted[1:]:
        if "…" in line:
            continue
        assert " ".join(line.replace("│", " ").replace("┃", " ").split()) in \
            " ".join(printed.replace("│", " ").replace("┃", " ").split()), line
    head = re.sub(r"[\d.,]+ s \([\d,]+ duels/s, \d threads?\)", "", quoted[0])
    assert head in re.sub(r"[\d.,]+ s \([\d,]+ duels/s, \d threads?\)", "", r.stdout)
