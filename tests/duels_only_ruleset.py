"""A plug-in ruleset that plays duels only: Vereteno without the capability ``fights``. Every
bundled ruleset plays group fights; the tests of a group fight's refusal register this one
(``brutal_sim.core.ruleset.register``) under the name ``duels_only``."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from brutal_sim.core.ruleset import register, unregister
from brutal_sim.rulesets.vereteno import VeretenoRuleset


class DuelsOnlyRuleset(VeretenoRuleset):
    name = "duels_only"
    capabilities = frozenset({"distance"})


RULESET = DuelsOnlyRuleset()


@contextmanager
def duels_only() -> Iterator[DuelsOnlyRuleset]:
    """The ruleset registered as ``duels_only`` for the block."""
    register("duels_only", "duels_only_ruleset")
    try:
        yield RULESET
    finally:
        unregister("duels_only")
