"""Dice expressions such as ``"d8+1"``, ``"2d6"``, ``"к6-1"`` or ``"3"`` (B-4.10)."""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Die sizes in order; a broken weapon's damage drops one step (B-4.4).
DIE_STEPS: tuple[int, ...] = (2, 3, 4, 6, 8, 10, 12, 20)
#: The largest bonus (or constant) of a dice expression, either way: far beyond any wound track,
#: and within the kernels' 64-bit integers
MAX_BONUS = 100

_DICE_RE = re.compile(r"^\s*(?:(\d*)\s*[dDкК]\s*(\d+))?\s*(?:([+-])\s*(\d+))?\s*$")
_CONST_RE = re.compile(r"^\s*([+-]?\d+)\s*$")


@dataclass(frozen=True)
class Dice:
    """``count`` dice of ``sides`` faces plus ``bonus`` (``count == 0`` is a constant)."""

    count: int
    sides: int
    bonus: int

    def __str__(self) -> str:
        if self.count == 0:
            return str(self.bonus)
        head = f"{'' if self.count == 1 else self.count}d{self.sides}"
        if self.bonus:
            head += f"{self.bonus:+d}"
        return head

    @property
    def mean(self) -> float:
        return self.count * (self.sides + 1) / 2 + self.bonus


def parse_dice(text: str) -> Dice:
    """Parse a dice expression; raise ``ValueError`` with the allowed forms on failure."""
    if not isinstance(text, str):
        raise ValueError(f"expected a dice expression string such as 'd8+1', got {text!r}")
    m = _CONST_RE.match(text)
    if m:
        return Dice(0, 1, _bonus(int(m.group(1)), text))
    m = _DICE_RE.match(text)
    if not m or m.group(2) is None:
        raise ValueError(
            f"malformed dice expression {text!r}; allowed: '[N]dS[+B|-B]' such as 'd8', 'd8+1', '2d6-1', or a number"
        )
    count = int(m.group(1)) if m.group(1) else 1
    sides = int(m.group(2))
    bonus = int(m.group(4) or 0) * (-1 if m.group(3) == "-" else 1)
    if not 1 <= count <= 10:
        raise ValueError(f"dice count in {text!r} must be 1..10")
    if sides not in DIE_STEPS:
        raise ValueError(f"die size in {text!r} must be one of {', '.join('d%d' % s for s in DIE_STEPS)}")
    return Dice(count, sides, _bonus(bonus, text))


def _bonus(value: int, text: str) -> int:
    if not -MAX_BONUS <= value <= MAX_BONUS:
        raise ValueError(f"bonus in {text!r} must be -{MAX_BONUS}..{MAX_BONUS}")
    return value

