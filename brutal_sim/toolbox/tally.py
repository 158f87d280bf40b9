"""Writing a decided duel into the shared counter header (:mod:`brutal_sim.core.counters`).

Every ruleset's kernel calls :func:`_count_decision` when a duel ends with a loser, so that the
blocks every result reads by name (wins, causes, deaths, rounds, one_blow) are filled one way.
"""

from __future__ import annotations

from ..core.counters import CounterLayout
from .jit import rule

_HEADER = CounterLayout((), (), (), (), "")
WINS, CAUSE = _HEADER.wins, _HEADER.cause  # the same offsets in every ruleset


@rule
def _count_decision(cnt, loser, cause, dead, one_blow, rnd, n_causes, c_one_blow, c_rounds):
    """Count a duel that side ``loser`` (0 or 1) lost.

    Parameters
    ----------
    cnt : int64[K]
        The counter row (shared header of :class:`~brutal_sim.core.counters.CounterLayout`).
    loser, cause, rnd : int64
        The losing side, its cause code (0-based, in the ruleset's ``causes`` order) and the
        round in which the duel was decided.
    dead, one_blow : int64 or bool
        Whether the loser died, and whether it went down to the only blow that harmed it.
    n_causes, c_one_blow, c_rounds : int64
        The ruleset's number of causes and the offsets of its ``one_blow`` and ``rounds`` blocks.
    """
    cnt[WINS + 1 - loser] += 1
    cnt[CAUSE + loser * n_causes + cause] += 1
    cnt[CAUSE + 2 * n_causes + loser] += dead
    cnt[c_rounds + rnd] += 1
    if one_blow:
        cnt[c_one_blow + loser] += 1
