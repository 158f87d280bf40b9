"""One exception type for every kind of bad input; the CLI turns it into one line and exit code 2.

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


class DataError(Exception):
    """Bad user input: names the source (file or flag), the field, and what is allowed."""

    def __init__(self, source: str, field: str | None, message: str) -> None:
        self.source = source
        self.field = field
        self.message = message
        where = f"{source}: {field}: " if field else f"{source}: "
        super().__init__(one_line(where + message))

    def worded(self, words: Mapping[str, str]) -> "DataError":
        """This error with the first word of its source (an argument's name, e.g. ``options`` of
        ``options crit_table=x.toml``) replaced by ``words[word]`` where ``words`` has it; else
        itself."""
        word, space, rest = self.source.partition(" ")
        if word not in words:
            return self
        return DataError(words[word] + space + rest, self.field, self.message)
