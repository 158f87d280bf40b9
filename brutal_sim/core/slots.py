"""Consecutive indices of a flat ``int64`` row, handed out in the order they are declared.

A ruleset's ``layout.py`` names the columns of its fighter row (``P_*``), state row (``S_*``) and
any other flat row with one :class:`Slots` each, so that no index is written as a number and no
length is counted by hand::

    P = Slots()
    P_MELEE = P.next()
    P_WEAPONS = P.block(3 * WN)      # three weapon records of WN fields each
    P_DL0, P_DL1, P_DL2 = P.take(3)  # three neighbours
    NF = P.size

Module-level ints made this way are compile-time constants for numba like literal ones.
"""

from __future__ import annotations


class Slots:
    """Hands out indices ``start, start + 1, …`` of a row (``start``: columns taken by a block
    declared elsewhere, as the battle block of :mod:`brutal_sim.toolbox.battle`); :attr:`size` is
    the row length so far."""

    def __init__(self, start: int = 0) -> None:
        self.size = start

    def next(self) -> int:
        """The next index."""
        return self.block(1)

    def block(self, n: int) -> int:
        """The first of ``n`` consecutive indices (a record or an array inside the row)."""
        if n < 1:
            raise ValueError(f"a block has at least one slot, got {n}")
        start = self.size
        self.size += n
        return start

    def take(self, n: int) -> tuple[int, ...]:
        """``n`` consecutive indices, to unpack into names."""
        start = self.block(n)
        return tuple(range(start, start + n))
