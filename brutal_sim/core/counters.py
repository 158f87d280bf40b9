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
``loser_wounds``      [2 loser][n levels][CAP + 1]     decided duels by how many blows of each
                                                       level the loser took in the duel (bin
                                                       ``CAP``: that many or more; CAP =
                                                       ``LOSER_WOUNDS_CAP``)
``rounds``            [round cap + 1]                  round in which a duel was decided
``rounds_a``          [round cap + 1]                  round in which side a won (side b's:
                                                       ``rounds`` − ``rounds_a``) (last)
====================  ===============================  ======================================

Index 0 of ``rounds`` and ``rounds_a`` (a duel decided before its first round) stays 0: every
ruleset decides a duel in round 1 or later.
"""

from __future__ import annotations

from dataclasses import dataclass

#: the last bin of the ``loser_wounds`` block: the loser took this many blows of a level or more
LOSER_WOUNDS_CAP = 8


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
    def loser_wounds(self) -> int:
        return self.one_blow + 2

    @property
    def loser_wounds_size(self) -> int:
        """Counters per losing side in the ``loser_wounds`` block (levels × (CAP + 1))."""
        return len(self.levels) * (LOSER_WOUNDS_CAP + 1)

    def loser_wounds_at(self, loser: int, level: int, blows: int) -> int:
        """Index of the ``loser_wounds`` counter of losing side ``loser`` that took ``blows`` blows of
        level ``level`` (index into the ruleset's ``levels``) in the duel; ``LOSER_WOUNDS_CAP`` or more
        share the last bin."""
        return (self.loser_wounds + loser * self.loser_wounds_size + level * (LOSER_WOUNDS_CAP + 1)
                + min(blows, LOSER_WOUNDS_CAP))

    @property
    def rounds(self) -> int:
        return self.loser_wounds + 2 * self.loser_wounds_size

    def rounds_a(self, round_cap: int) -> int:
        """Offset of the ``rounds_a`` block (rounds in which side a won) for a round cap."""
        return self.rounds + round_cap + 1

    def tally(self, s_took: int) -> tuple[int, int, int, int, int, int]:
        """What :func:`brutal_sim.toolbox.tally.count_decision` needs to know of the ruleset, as one
        module-level constant of its layout: the state column of the per-duel blows of level 0
        (``s_took``), the numbers of causes and of levels, and the offsets of the ``one_blow``,
        ``loser_wounds`` and ``rounds`` blocks."""
        return (s_took, len(self.causes), len(self.levels), self.one_blow, self.loser_wounds, self.rounds)

    def size(self, round_cap: int) -> int:
        """Length of the counter row for a round cap."""
        return self.rounds + 2 * (round_cap + 1)

    def round_cap_of(self, header_size: int) -> int:
        """The round cap of a header of ``header_size`` counters (the inverse of :meth:`size`)."""
        return (header_size - self.rounds) // 2 - 1

    def describe(self, name: str) -> str:
        """A short explanation of a cause, outcome or level name (for tables and reports)."""
        return dict(self.descriptions).get(name, name.replace("_", " "))


#: fighters per side in a group fight (B-4.7: at most six can attack one fighter)
MAX_SIDE = 6


@dataclass(frozen=True)
class GroupBlock:
    """The block that follows the header in a group fight's counter row (docs/groups.md), for a
    ruleset with ``n_causes`` causes:

    - ``survivors`` ``[2 side][MAX_SIDE + 1]``: fights ending with that many of the side still in;
    - ``fighters`` ``[N][per_fighter]``: per fighter row, out by cause ``[n_causes]``, then dead,
      standing at the end, final damage dealt and taken (offsets ``out``, ``dead``, ``standing``,
      ``dealt``, ``taken`` within the row).
    """

    n_causes: int

    survivors: int = 0
    fighters: int = 2 * (MAX_SIDE + 1)
    out: int = 0

    @property
    def dead(self) -> int:
        return self.n_causes

    @property
    def standing(self) -> int:
        return self.n_causes + 1

    @property
    def dealt(self) -> int:
        return self.n_causes + 2

    @property
    def taken(self) -> int:
        return self.n_causes + 3

    @property
    def per_fighter(self) -> int:
        return self.n_causes + 4

    def size(self, n_fighters: int) -> int:
        """Length of the group block of a fight with ``n_fighters`` fighters."""
        return self.fighters + n_fighters * self.per_fighter
