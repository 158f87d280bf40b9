"""One exception type for every kind of bad input; the CLI turns it into one line and exit code 2."""

from __future__ import annotations

import unicodedata


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
