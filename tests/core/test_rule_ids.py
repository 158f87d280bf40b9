"""Every rule id of every digest is accounted for: cited by a test, or listed as not modelled.

A rule id (``B-4.7``, ``W-5.4``, ``V-3.17``) is defined in ``docs/rules/<ruleset>.md`` by a list item
(``- **B-4.7 …``), a table row (``| W-3.1 | …``) or a heading (``### W-9.1 …``). It is *cited* by a
test whose name (``test_b4_7_…``) or docstring names it; the test then checks the rule. An id that no
test checks is listed in the ruleset's reference doc under a heading that says "not modelled", as a
table row ``| B-9.1 | the reason |``. The test below prints the ids that are neither.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from brutal_sim.core.ruleset import get_ruleset, ruleset_names

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
DOCS = ROOT / "docs"

#: each registered ruleset with a digest: (id prefix, its digest, the reference doc that lists its ids
#: not modelled), as the ruleset declares them (Ruleset.rule_prefix, .digest, .reference)
RULESETS = {name: (rs.rule_prefix, rs.digest, rs.reference)
            for name in ruleset_names() for rs in [get_ruleset(name)] if rs.digest}
PREFIXES = "".join(sorted({prefix for prefix, _, _ in RULESETS.values()}))

ID = rf"[{PREFIXES}]-\d+\.\d+"
_DEFINED = re.compile(rf"^(?:#+ |- \*\*|\| ?)({ID})\b", re.M)
_NAMED = re.compile(rf"(?<![a-z0-9])([{PREFIXES.lower()}])(\d+)_(\d+)(?![0-9])")


def defined_ids(digest: str) -> set[str]:
    """The rule ids a digest defines."""
    return set(_DEFINED.findall(digest))


def not_modelled(reference: str) -> dict[str, str]:
    """id → reason from the table rows under every heading that says "not modelled"."""
    out: dict[str, str] = {}
    inside = False
    for line in reference.splitlines():
        if line.startswith("#"):
            inside = "not modelled" in line.lower()
        elif inside and line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            ids = re.findall(ID, cells[0]) if cells else []
            reason = cells[-1] if len(cells) > 1 else ""
            for rule in ids:
                if reason:
                    out[rule] = reason
    return out


def cited_ids(source: str) -> set[str]:
    """Rule ids named by the test functions and test classes of one test module."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and \
                node.name.lower().startswith("test"):
            found |= {f"{k.upper()}-{a}.{b}" for k, a, b in _NAMED.findall(node.name.lower())}
            found |= set(re.findall(ID, ast.get_docstring(node) or ""))
    return found


def all_cited() -> set[str]:
    cited: set[str] = set()
    for path in TESTS.rglob("test_*.py"):
        cited |= cited_ids(path.read_text(encoding="utf-8"))
    return cited


def test_the_readers_work_on_examples():
    """The parsers find what they must (the accounting test could not fail without them)."""
    assert defined_ids("- **B-4.7 Outnumbered** …\n| W-3.1 | Standard attack |\n### W-9.1 Melee\nsee B-5.2") == \
        {"B-4.7", "W-3.1", "W-9.1"}
    assert not_modelled("## Not modelled\n| id | reason |\n|---|---|\n| B-9.1, B-9.2 | later |\n## Other\n| B-1.1 | x |") \
        == {"B-9.1": "later", "B-9.2": "later"}
    src = 'def test_b4_7_and_b4_10_limit():\n    "Also W-5.4."\n\ndef helper_b1_1():\n    pass\n'
    assert cited_ids(src) == {"B-4.7", "B-4.10", "W-5.4"}


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_every_rule_id_is_cited_or_listed_as_not_modelled(ruleset):
    prefix, digest, reference = RULESETS[ruleset]
    defined = defined_ids((DOCS / digest).read_text(encoding="utf-8"))
    listed = not_modelled((DOCS / reference).read_text(encoding="utf-8"))
    cited = all_cited()
    assert defined and all(r.startswith(f"{prefix}-") for r in defined), f"{digest} defines no {prefix}- ids"
    neither = sorted(defined - cited - set(listed), key=lambda r: [int(x) for x in r[2:].split(".")])
    print(f"{ruleset}: {len(defined)} ids, {len(defined & cited)} cited by tests, "
          f"{len((defined - cited) & set(listed))} listed as not modelled")
    assert not neither, f"{ruleset}: ids neither cited by a test nor listed as not modelled in docs/{reference}: " \
                        + ", ".join(neither)
    unknown = sorted(set(listed) - defined)
    assert not unknown, f"docs/{reference} lists ids the digest does not define: {', '.join(unknown)}"
