"""Every rule id of every digest is accounted for: cited by a test, or listed as not modelled.

A rule id (``B-4.7``, ``W-5.4``, ``V-3.17``) is defined in ``docs/rules/<ruleset>.md`` by a list item
(``- **B-4.7 …``), a table row (``| W-3.1 | …``) or a heading (``### W-9.1 …``). It is *cited* by a
test whose name (``test_b4_7_…``) or docstring names it; the test then checks the rule. An id that no
test checks is listed in the ruleset's reference doc under a heading that says "not modelled", as a
table row ``| B-9.1 | the reason |``. The test below prints the ids that are neither.
"""

from __future__ import annotations

import pytest
from rule_ids import account, cited_ids, defined_ids, not_modelled

from brutal_sim.core.ruleset import get_ruleset, ruleset_names

#: each registered ruleset with a digest (Ruleset.rule_prefix, .digest, .reference); a plug-in's
#: tests call ``rule_ids.account`` on it once they have registered it (the toy's do)
RULESETS = {name: get_ruleset(name) for name in ruleset_names() if get_ruleset(name).digest}


def test_the_readers_work_on_examples():
    """The parsers find what they must (the accounting test could not fail without them)."""
    assert defined_ids("- **B-4.7 Outnumbered** …\n| W-3.1 | Standard attack |\n### W-9.1 Melee\nsee B-5.2\n"
                       "## B-8 Ranged\n- T-5 Group fights: …\n| T-6 | distance |", "BWT") == \
        {"B-4.7", "W-3.1", "W-9.1", "T-5", "T-6"}
    assert not_modelled("## Not modelled\n| id | reason |\n|---|---|\n| B-9.1, B-9.2 | later |\n"
                        "## Other\n| B-1.1 | x |", "B") == {"B-9.1": "later", "B-9.2": "later"}
    src = 'def test_b4_7_and_b4_10_limit():\n    "Also W-5.4 and T-5."\n\ndef helper_b1_1():\n    pass\n'
    assert cited_ids(src, "BWT") == {"B-4.7", "B-4.10", "W-5.4", "T-5"}


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_every_rule_id_is_cited_or_listed_as_not_modelled(ruleset):
    rs = RULESETS[ruleset]
    a = account(rs)
    assert a.defined and all(r.startswith(f"{rs.rule_prefix}-") for r in a.defined), \
        f"{rs.digest} defines no {rs.rule_prefix}- ids"
    print(f"{ruleset}: {len(a.defined)} ids, {len(a.defined & a.cited)} cited by tests, "
          f"{len((a.defined - a.cited) & set(a.listed))} listed as not modelled")
    assert not a.neither, (f"{ruleset}: ids neither cited by a test nor listed as not modelled in "
                           f"docs/{rs.reference}: " + ", ".join(a.neither))
    assert not a.unknown, f"docs/{rs.reference} lists ids the digest does not define: {', '.join(a.unknown)}"
