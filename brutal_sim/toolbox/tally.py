"""Writing a decided duel into the shared counter header (:mod:`brutal_sim.core.counters`).

Every ruleset's kernel calls :func:`count_decision` when a duel ends with a loser, so that the
blocks every result reads by name (wins, causes, deaths, one_blow, loser_wounds, rounds, rounds_a)
are filled one way.
"""

from __future__ import annotations

from ..core.counters import LOSER_WOUNDS_CAP, CounterLayout
from .jit import rule

_HEADER = CounterLayout((), (), (), (), "")
WINS, CAUSE = _HEADER.wins, _HEADER.cause  # the same offsets in every ruleset
BINS = LOSER_WOUNDS_CAP + 1  # bins per level of the loser_wounds block


@rule
def count_decision(cnt, S, loser, cause, dead, one_blow, rnd, round_cap, tally):
    """Count a duel that side ``loser`` (0 or 1) lost.

    Parameters
    ----------
    cnt : int64[K]
        The counter row (shared header of :class:`~brutal_sim.core.counters.CounterLayout`).
    S : int64[N, NS]
        The ruleset's fight state; ``S[side, s_took + level]`` (side 0 or 1, level 0 … n_levels − 1)
        holds the blows of that level the side took in this duel (reset to 0 at its start).
    loser, cause, rnd : int64
        The losing side, its cause code (0-based, in the ruleset's ``causes`` order) and the
        round in which the duel was decided.
    dead, one_blow : int64 or bool
        Whether the loser died, and whether it went down to the only blow that harmed it.
    round_cap : int64
        The round cap (the ``rounds_a`` block follows the ``round_cap + 1`` rounds counters).
    tally : UniTuple(int64, 6)
        The ruleset's layout as :meth:`~brutal_sim.core.counters.CounterLayout.tally` gives it (a
        module-level constant of its ``layout.py``, ``TALLY = COUNTERS.tally(S_TOOK)``): the state
        column of the per-duel blows of level 0, the numbers of causes and of levels, and the
        offsets of the ``one_blow``, ``loser_wounds`` and ``rounds`` blocks.
    """
    s_took, n_causes, n_levels, c_one_blow, c_loser_wounds, c_rounds = tally
    cnt[WINS + 1 - loser] += 1
    cnt[CAUSE + loser * n_causes + cause] += 1
    cnt[CAUSE + 2 * n_causes + loser] += dead
    cnt[c_rounds + rnd] += 1
    cnt[c_rounds + round_cap + 1 + rnd] += loser  # rounds_a: side a won when b lost
    if one_blow:
        cnt[c_one_blow + loser] += 1
    base = c_loser_wounds + loser * n_levels * BINS
    for level in range(n_levels):
        cnt[base + level * BINS + min(S[loser, s_took + level], LOSER_WOUNDS_CAP)] += 1
