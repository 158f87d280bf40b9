"""One exception type for every kind of bad input; the CLI turns it into one line and exit code 2."""

from __future__ import annotations


class DataError(Exception):
    """Bad user input: names the source (file or flag), the field, and what is allowed."""

    def __init__(self, source: str, field: str | None, message: str) -> None:
        self.source = source
        self.field = field
        self.message = message
        where = f"{source}: {field}: " if field else f"{source}: "
        super().__init__(where + message)
