"""Reading rule ids: what a digest defines, what a reference lists as not modelled, what the tests
cite; for ``tests/core/test_rule_ids.py`` (every registered ruleset) and a plug-in's own tests
(the toy's), which call :func:`account` on their ruleset once it is registered.

A rule id is a ruleset's id letter, a dash and a number (``T-5``) or a chapter and a number
(``B-4.7``). A digest defines an id by a list item (``- **B-4.7 …``, ``- T-5 …``), a table row
(``| W-3.1 | …``) or, for a chapter-and-number id, a heading (``### W-9.1 …``; a heading ``## B-8 …``
is a chapter, not a rule). A test cites an id by its name (``test_b4_7_…``) or its docstring.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
DOCS = ROOT / "docs"


def id_pattern(prefixes: Iterable[str]) -> str:
    """A regular expression of the rule ids of these id letters."""
    return rf"[{''.join(sorted(set(prefixes)))}]-\d+(?:\.\d+)?(?!\.?\d)"


def defined_ids(digest: str, prefixes: Iterable[str]) -> set[str]:
    """The rule ids a digest defines."""
    letters = "".join(sorted(set(prefixes)))
    items = re.findall(rf"^(?:- (?:\*\*)?|\| ?)({id_pattern(letters)})", digest, re.M)
    headings = re.findall(rf"^#+ ([{letters}]-\d+\.\d+)\b", digest, re.M)
    return set(items) | set(headings)


def not_modelled(reference: str, prefixes: Iterable[str]) -> dict[str, str]:
    """id → reason from the table rows under every heading that says "not modelled"."""
    out: dict[str, str] = {}
    inside = False
    for line in reference.splitlines():
        if line.startswith("#"):
            inside = "not modelled" in line.lower()
        elif inside and line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            ids = re.findall(id_pattern(prefixes), cells[0]) if cells else []
            reason = cells[-1] if len(cells) > 1 else ""
            for rule in ids:
                if reason:
                    out[rule] = reason
    return out


def cited_ids(source: str, prefixes: Iterable[str]) -> set[str]:
    """Rule ids named by the test functions and test classes of one test module."""
    letters = "".join(sorted(set(prefixes)))
    named = re.compile(rf"(?<![a-z0-9])([{letters.lower()}])(\d+)_(\d+)(?![0-9])")
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and \
                node.name.lower().startswith("test"):
            found |= {f"{k.upper()}-{a}.{b}" for k, a, b in named.findall(node.name.lower())}
            found |= set(re.findall(id_pattern(letters), ast.get_docstring(node) or ""))
    return found


def all_cited(prefixes: Iterable[str]) -> set[str]:
    cited: set[str] = set()
    for path in TESTS.rglob("test_*.py"):
        cited |= cited_ids(path.read_text(encoding="utf-8"), prefixes)
    return cited


def _read(path: str | None) -> str:
    """A digest or reference by its path from ``docs/`` (an absolute path as it is; None: empty)."""
    return "" if path is None else (DOCS / path).read_text(encoding="utf-8")


@dataclass(frozen=True)
class Accounting:
    """A ruleset's rule ids: those its digest defines, those the tests cite, those its reference
    lists as not modelled (id → reason); ``neither`` are defined, not cited and not listed,
    ``unknown`` listed but not defined."""

    defined: set[str]
    cited: set[str]
    listed: dict[str, str]

    @property
    def neither(self) -> list[str]:
        return sorted(self.defined - self.cited - set(self.listed),
                      key=lambda r: [int(x) for x in r[2:].split(".")])

    @property
    def unknown(self) -> list[str]:
        return sorted(set(self.listed) - self.defined)


def account(rs: Any) -> Accounting:
    """The accounting of a ruleset's rule ids (its ``rule_prefix``, ``digest`` and ``reference``)."""
    prefix = rs.rule_prefix
    return Accounting(defined_ids(_read(rs.digest), prefix), all_cited(prefix),
                      not_modelled(_read(rs.reference), prefix))
