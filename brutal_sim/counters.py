"""The counter row every ruleset's kernels fill: a shared header, named per ruleset.

A run's counters are one ``int64[K]`` row. Every ruleset uses the same order of blocks so that
results, frames, plots and reports read any ruleset's counters by name:

====================  ===============================  ======================================
block                 shape                            meaning
====================  ===============================  ======================================
``wins``              [2]                              wins of side a, b
``draws``             [1]                              duels still running at the round cap
``causes``            [2 loser][n causes]              how the loser left the fight
``deaths``            [2]                              losers that died (or would have)
``attacks``           [2 attacker][n outcomes]         attack outcomes (miss, parried, …, hit)
``wounds``            [2 taker][n levels][n zones]     blows taken by level × zone group
``special``           [2]                              one ruleset-specific count per side
``damage``            [2 taker]                        sum of final damage taken
``one_blow``          [2 loser]                        losses to the only blow that harmed the
                                                       loser in the whole duel (not fled)
``rounds``            [round cap + 1]                  round in which a duel was decided (last)
====================  ===============================  ======================================
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CounterLayout:
    """Names (and so sizes) of a ruleset's counter blocks; offsets follow from them."""

    causes: tuple[str, ...]
    outcomes: tuple[str, ...]
    levels: tuple[str, ...]
    zones: tuple[str, ...]
    special: str
    #: (name, explanation) pairs for names that need more than their spelling
    descriptions: tuple[tuple[str, str], ...] = ()

    @property
    def wins(self) -> int:
        return 0

    @property
    def draws(self) -> int:
        return 2

    @property
    def cause(self) -> int:
        return 3

    @property
    def death(self) -> int:
        return self.cause + 2 * len(self.causes)

    @property
    def attack(self) -> int:
        return self.death + 2

    @property
    def wound(self) -> int:
        return self.attack + 2 * len(self.outcomes)

    @property
    def wound_size(self) -> int:
        """Counters per side in the ``wounds`` block (levels × zones)."""
        return len(self.levels) * len(self.zones)

    @property
    def special_at(self) -> int:
        return self.wound + 2 * self.wound_size

    @property
    def damage(self) -> int:
        return self.special_at + 2

    @property
    def one_blow(self) -> int:
        return self.damage + 2

    @property
    def rounds(self) -> int:
        return self.one_blow + 2

    def size(self, round_cap: int) -> int:
        """Length of the counter row for a round cap."""
        return self.rounds + round_cap + 1

    def describe(self, name: str) -> str:
        """A short explanation of a cause, outcome or level name (for tables and reports)."""
        return dict(self.descriptions).get(name, name.replace("_", " "))
