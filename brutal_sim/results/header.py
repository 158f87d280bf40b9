"""Reading the shared counter header (:mod:`brutal_sim.core.counters`) by name, for every result
whose counter row starts with it (duels, group fights)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.counters import CounterLayout
from .stats import hist_mean, hist_quantile, wilson


def side_summary(name: str, wins: int, n: int) -> dict[str, Any]:
    """A side's JSON summary: name, wins, win rate and its 95 % Wilson interval."""
    lo, hi = wilson(wins, n)
    return {"name": name, "wins": wins, "win_rate": wins / n if n else 0.0, "ci95": [lo, hi]}


def rates_half_width(layout: CounterLayout, counters: np.ndarray, n: int) -> float:
    """The widest 95 % Wilson half-width of the rates a header reports (a's wins, b's wins, draws)
    of a counter row ``int64[k]``, or of every row of ``int64[m, k]`` (the cells of a paired run)."""
    rows = np.atleast_2d(counters)
    counts = [row[i] for row in rows for i in (layout.wins, layout.wins + 1, layout.draws)]
    return max((hi - lo) / 2 for lo, hi in (wilson(int(k), n) for k in counts))


def excludes(layout: CounterLayout, counters: np.ndarray, n: int, rate: float | None) -> bool:
    """Whether the 95 % Wilson interval of a's win rate lies wholly above or below ``rate``."""
    if rate is None:
        return False
    lo, hi = wilson(int(counters[layout.wins]), n)
    return not lo <= rate <= hi


class HeaderCounters:
    """Readers of the shared counter header (:mod:`brutal_sim.core.counters`) by name, for every result
    whose ``counters`` row starts with it (duels; group fights, whose group block follows).

    A subclass provides ``counters``, ``n``, ``layout`` and may narrow :attr:`header_end`."""

    counters: np.ndarray
    n: int
    layout: CounterLayout | None
    #: the cell labels of tidy frames: matchup, variant, sweep, value
    labels: dict[str, str]

    if TYPE_CHECKING:
        @property
        def names(self) -> tuple[str, str]:
            """Side a's and side b's names (a subclass's field or property)."""

    @property
    def c(self) -> CounterLayout:
        assert self.layout is not None
        return self.layout

    @property
    def header_end(self) -> int:
        """Where the header ends in the counter row (duels: the row's end)."""
        return len(self.counters)

    def wins(self, side: int) -> int:
        return int(self.counters[self.c.wins + side])

    @property
    def draws(self) -> int:
        return int(self.counters[self.c.draws])

    @property
    def round_cap(self) -> int:
        """The run's round cap (from the header's length)."""
        return self.c.round_cap_of(self.header_end)

    @property
    def rounds_hist(self) -> np.ndarray:
        """Runs decided in round r (index r; index 0 unused)."""
        return self.counters[self.c.rounds:self.c.rounds + self.round_cap + 1]

    def rounds_won_hist(self, side: int) -> np.ndarray:
        """Runs side ``side`` won in round r (index r; index 0 unused); the two sides sum to
        :attr:`rounds_hist`."""
        at = self.c.rounds_a(self.round_cap)
        won_a = self.counters[at:at + self.round_cap + 1]
        return won_a if side == 0 else self.rounds_hist - won_a

    def loser_wounds(self, side: int) -> np.ndarray:
        """int64[n levels, LOSER_WOUNDS_CAP + 1]: runs side ``side`` lost, by how many blows of each
        level it took in the run (index k; the last bin: that many or more). Each level's row sums to
        the side's losses."""
        base = self.c.loser_wounds_at(side, 0, 0)
        return self.counters[base:base + self.c.loser_wounds_size].reshape(len(self.c.levels), -1)

    def defeats(self, side: int) -> dict[str, int]:
        """How side ``side`` went down when it lost (in a group fight: its last fighter)."""
        names = self.c.causes
        base = self.c.cause + side * len(names)
        return {name: int(self.counters[base + k]) for k, name in enumerate(names)}

    def deaths(self, side: int) -> int:
        return int(self.counters[self.c.death + side])

    def attack_outcomes(self, side: int) -> dict[str, int]:
        names = self.c.outcomes
        base = self.c.attack + side * len(names)
        return {name: int(self.counters[base + k]) for k, name in enumerate(names)}

    def wounds_taken(self, side: int) -> np.ndarray:
        """int64[n levels, n zone groups] of blows side ``side`` took."""
        size = self.c.wound_size
        base = self.c.wound + side * size
        return self.counters[base:base + size].reshape(len(self.c.levels), len(self.c.zones))

    def damage_taken(self, side: int) -> int:
        """Sum of the final damage of the blows side ``side`` took."""
        return int(self.counters[self.c.damage + side])

    def one_blow(self, side: int) -> int:
        """Runs side ``side`` lost to the only blow that harmed it (not by fleeing)."""
        return int(self.counters[self.c.one_blow + side])

    def special(self, side: int) -> int:
        """The ruleset's own per-side count (Brutal: weapons broken in hard blocks)."""
        return int(self.counters[self.c.special_at + side])

    # -- shared pieces of the JSON objects ---------------------------------------------------------
    def _rounds(self) -> dict[str, Any]:
        hist = self.rounds_hist
        return {"mean": hist_mean(hist), "p50": hist_quantile(hist, 0.5), "p90": hist_quantile(hist, 0.9)}

    def _defeat_causes(self) -> dict[str, int]:
        a, b = self.defeats(0), self.defeats(1)
        return {name: a[name] + b[name] for name in self.c.causes}

    def _one_blow_share(self) -> float:
        return (self.one_blow(0) + self.one_blow(1)) / max(self.wins(0) + self.wins(1), 1)

    def _side_counts(self, side: int) -> dict[str, Any]:
        """A side's header counts: how it lost, deaths, one-blow losses, its attacks, the special count."""
        return {"defeat_cause": self.defeats(side), "deaths": self.deaths(side),
                "one_blow_losses": self.one_blow(side), "attacks": self.attack_outcomes(side),
                self.c.special: self.special(side)}
