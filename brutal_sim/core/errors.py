"""One exception type for every kind of bad input; the CLI turns it into one line and exit code 2.

A message stays short: a quoted value is cut to about :data:`MAX_SHOWN` characters (:func:`shown`),
and a path, field or message of untold length to :data:`MAX_WHERE` / :data:`MAX_MESSAGE`.

An error names where the bad input came from: a file (its path), or an argument of a run by the
API's name for it (``options``, ``rules FILE``, ``tactic_a``, ``ruleset`` …). The layers below the
app raise errors with those neutral names; each caller words them once for its own users
(:meth:`DataError.worded`: the CLI says ``--option``, ``--rules FILE``, ``--tactic-a``).
"""

from __future__ import annotations

import unicodedata
from typing import Mapping


def one_line(text: str) -> str:
    """``text`` with its control characters and line breaks written as escapes (``\\n``,
    ``\\x00``), so that a message quoting the user's data (a field name, a path) stays one line."""
    return "".join(repr(c)[1:-1] if unicodedata.category(c) in {"Cc", "Zl", "Zp"} else c for c in text)


#: the longest value a message quotes (:func:`shown`), in characters
MAX_SHOWN = 80
#: the longest source (a path) or field an error names, and the longest message it carries
MAX_WHERE = 1_000
MAX_MESSAGE = 2_000


def cut(text: str, limit: int = MAX_SHOWN) -> str:
    """``text`` at most about ``limit`` characters: a longer one keeps its start and end around an
    ellipsis and tells its length (``'aaaa…aa' (1,048,578 characters)``)."""
    if len(text) <= limit:
        return text
    head, tail = limit * 2 // 3, limit // 3
    return f"{text[:head]}…{text[-tail:]} ({len(text):,} characters)"


def shown(value: object, limit: int = MAX_SHOWN) -> str:
    """A value as a message quotes it: its ``repr``, cut to about ``limit`` characters (:func:`cut`)."""
    return cut(repr(value), limit)


class DataError(Exception):
    """Bad user input: names the source (file or flag), the field, and what is allowed. The
    attributes keep the text as given; the line (``str``) cuts each part (:func:`cut`)."""

    def __init__(self, source: str, field: str | None, message: str) -> None:
        self.source = source
        self.field = field
        self.message = message
        where = f"{cut(str(source), MAX_WHERE)}: " + (f"{cut(field, MAX_WHERE)}: " if field else "")
        super().__init__(one_line(where + cut(message, MAX_MESSAGE)))

    def worded(self, words: Mapping[str, str]) -> "DataError":
        """This error with the first word of its source (an argument's name, e.g. ``options`` of
        ``options crit_table=x.toml``) replaced by ``words[word]`` where ``words`` has it; else
        itself."""
        word, space, rest = self.source.partition(" ")
        if word not in words:
            return self
        return DataError(words[word] + space + rest, self.field, self.message)


def plural(count: int, word: str, words: str | None = None) -> str:
    """``1 thread``, ``2 threads``: the count with its noun (``words``: an irregular plural)."""
    return f"{count:,} {word if count == 1 else words or word + 's'}"
