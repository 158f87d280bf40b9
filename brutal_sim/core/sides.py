"""Sides of a group fight as users write them: ``knight militia*3`` and ``… vs …`` (docs/groups.md).

A side is a list of fighter references (catalog names, TOML paths or fighter objects); a text
reference may end in ``*N`` to repeat the fighter N times (``goblin*3`` is three goblins, each its
own place in the line). A side holds 1 … ``MAX_SIDE`` fighters (B-4.7: at most six attack one).
"""

from __future__ import annotations

from typing import Any, Sequence

from .counters import MAX_SIDE
from .errors import DataError

SEPARATOR = "vs"


def _repeat(ref: str, source: str, field: str) -> tuple[str, int]:
    """``"goblin*3"`` → ``("goblin", 3)``; ``"goblin"`` → ``("goblin", 1)``."""
    name, star, count = ref.rpartition("*")
    if not star:
        return ref, 1
    if not name.strip():
        raise DataError(source, field, f"{ref!r} repeats no fighter; write NAME*N, e.g. goblin*3")
    if not count.strip().isdigit() or not 1 <= int(count) <= MAX_SIDE:
        raise DataError(source, field, f"{ref!r}: the repeat count after '*' must be a whole number "
                        f"1 … {MAX_SIDE}, got {count!r}")
    return name.strip(), int(count)


def expand_side(refs: Any, source: str, field: str) -> list[Any]:
    """A side's references with ``NAME*N`` expanded; 1 … ``MAX_SIDE`` fighters or a :class:`DataError`
    naming ``source`` and ``field``. A single reference (not a list) is a side of one."""
    if isinstance(refs, str) or not isinstance(refs, Sequence):
        refs = [refs]
    side: list[Any] = []
    for ref in refs:
        if isinstance(ref, str):
            name, count = _repeat(ref, source, field)
            side += [name] * count
        else:
            side.append(ref)
    if not side:
        raise DataError(source, field, f"the side is empty; give 1 … {MAX_SIDE} fighters")
    if len(side) > MAX_SIDE:
        raise DataError(source, field, f"{len(side)} fighters on one side; allowed 1 … {MAX_SIDE} "
                        "(B-4.7: at most six can attack one fighter)")
    return side


def split_sides(words: Sequence[str], source: str = "fight") -> tuple[list[str], list[str]]:
    """Command-line words ``A1 A2 … vs B1 …`` → the two expanded sides."""
    marks = [i for i, w in enumerate(words) if w.lower() == SEPARATOR]
    if len(marks) != 1:
        found = "no" if not marks else f"{len(marks)}"
        raise DataError(source, None, f"{found} '{SEPARATOR}' among the fighters; write the two sides "
                        f"separated by one '{SEPARATOR}', e.g. knight vs militia*3")
    k = marks[0]
    return expand_side(list(words[:k]), source, "side a"), expand_side(list(words[k + 1:]), source, "side b")
