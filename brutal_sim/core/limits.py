"""Bounds on untrusted input, checked before it is parsed or used: the size of a file, the nesting
depth of its TOML or JSON, the length of a name. Each is a :class:`~brutal_sim.core.errors.DataError`
naming the file, the field and the limit.

The scans here are single passes over the text (no regular expression, no recursion), so that a
crafted file costs time in proportion to its size, whatever it holds.
"""

from __future__ import annotations

import os
from typing import Any, Iterator

from .errors import DataError

#: the largest fighter, scenario or rules file (or table file an option names) read, in bytes
MAX_FILE_BYTES = 2 * 1024**2
#: the largest report a replay (``report --rerun``) reads, in bytes
MAX_REPORT_BYTES = 256 * 1024**2
#: the deepest nesting of tables and arrays in a TOML file or a report's setup JSON
MAX_DEPTH = 32
#: the longest name (of a fighter, a weapon or other item, a variant, a sweep, a fight's label)
MAX_NAME = 200
#: the longest text in a value that changes a fighter or a rule option from outside a file (``--set``,
#: a sweep's values, the explorer's ``set``, the API's variants): a name, a dice expression, a code
MAX_VALUE = 1_000


def size_text(n: int) -> str:
    """A size in bytes as people read it: ``512 bytes``, ``3.2 KiB``, ``50.0 MiB``."""
    if n < 1024:
        return f"{n:,} bytes"
    size, unit = n / 1024, "KiB"
    for bigger in ("MiB", "GiB"):
        if size < 1024:
            break
        size, unit = size / 1024, bigger
    return f"{size:,.1f} {unit}"


def read_bytes(path: Any, source: str, limit: int = MAX_FILE_BYTES, what: str = "file") -> bytes:
    """The bytes of the file ``path`` (a path or a package resource), at most ``limit``; a larger
    file is a :class:`DataError` naming its size and the limit. Only ``limit + 1`` bytes are ever
    read, so a file whose size the system does not tell (``/proc``) is bounded too. OS errors
    are left to the caller."""
    with path.open("rb") as fh:
        data = fh.read(limit + 1)
        if len(data) > limit:
            try:
                size = os.fstat(fh.fileno()).st_size
            except (OSError, AttributeError, ValueError):
                size = 0
            told = (size_text(size) if size > limit and size_text(size) != size_text(limit)
                    else f"more than {size_text(limit)}")  # a /proc file tells no size
            raise DataError(source, None, f"the {what} is {told}; allowed: at most {size_text(limit)}")
    return data


def _too_deep(source: str, field: str | None, limit: int) -> DataError:
    return DataError(source, field, f"nested deeper than {limit} levels of tables and arrays; allowed: at most {limit}")


def check_toml_nesting(text: str, source: str, limit: int = MAX_DEPTH) -> None:
    """Before TOML ``text`` is parsed (the parser recurses once per level): its arrays and inline
    tables nest at most ``limit`` deep, or a :class:`DataError` naming the key whose value goes
    deeper. One pass; strings (basic, literal, multi-line) and comments are skipped."""
    i, n, depth, key_start = 0, len(text), 0, 0
    find = text.find
    while i < n:
        c = text[i]
        if c == "#":
            j = find("\n", i)
            i = n if j < 0 else j
            continue
        if c in "\"'":
            triple = text.startswith(c * 3, i)
            close = c * 3 if triple else c
            j = i + len(close)
            while True:
                k = find(close, j)
                if k < 0:
                    return  # unterminated: the parser tells
                if c == '"':  # a backslash escapes the quote unless it is itself escaped
                    back = k
                    while back > j and text[back - 1] == "\\":
                        back -= 1
                    if (k - back) % 2:
                        j = k + 1
                        continue
                if not triple and find("\n", j, k) >= 0:
                    return  # a one-line string across lines: the parser tells
                break
            i = k + len(close)
            while triple and i < n and text[i] == c:  # up to two quotes may close a multi-line string
                i += 1
            continue
        if c in "[{":
            depth += 1
            if depth > limit:
                raise _too_deep(source, _key_before(text, key_start), limit)
        elif c in "]}":
            depth = max(depth - 1, 0)
        elif c == "\n" and depth == 0:
            key_start = i + 1
        i += 1


def _key_before(text: str, start: int) -> str | None:
    """The key of the line at ``start`` (the text before its ``=``), cut to a short name."""
    end = text.find("=", start, start + 200)
    key = text[start:end].strip() if end >= 0 else ""
    return key or None


def check_json_nesting(text: str, source: str, field: str | None, limit: int = MAX_DEPTH) -> None:
    """Before JSON ``text`` is parsed: its arrays and objects nest at most ``limit`` deep, else a
    :class:`DataError` naming ``source`` and ``field``. One pass; strings skipped."""
    i, n, depth = 0, len(text), 0
    find = text.find
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while True:
                k = find('"', j)
                if k < 0:
                    return  # unterminated: the parser tells
                back = k
                while back > j and text[back - 1] == "\\":
                    back -= 1
                if (k - back) % 2:
                    j = k + 1
                    continue
                break
            i = k + 1
            continue
        if c in "[{":
            depth += 1
            if depth > limit:
                raise _too_deep(source, field, limit)
        elif c in "]}":
            depth -= 1
        i += 1


def _walk(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every value of nested dicts and lists with its path, depth first, without recursion."""
    stack = [(path, data)]
    while stack:
        here, value = stack.pop()
        yield here, value
        if isinstance(value, dict):
            stack.extend((here + (k,), v) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((here + (k,), v) for k, v in enumerate(value))


def dotted(path: tuple[Any, ...], prefix: str = "") -> str:
    """A path of keys and indices as a field name: ``main_hand.name``, ``armour[0].name``."""
    out = prefix
    for p in path:
        out = f"{out}[{p}]" if isinstance(p, int) else f"{out}.{p}" if out else str(p)
    return out


def check_depth(data: Any, source: str, limit: int = MAX_DEPTH, prefix: str = "") -> None:
    """Parsed data (tables made of dotted keys nest without brackets) at most ``limit`` deep."""
    for path, value in _walk(data):
        if len(path) > limit and isinstance(value, (dict, list)):
            raise _too_deep(source, dotted(path[:limit], prefix) or None, limit)


def check_names(data: Any, source: str, prefix: str = "", limit: int = MAX_NAME) -> None:
    """Every ``name`` of the data (a fighter's, an inline weapon's or talent's, a variant's, a
    sweep's) at most ``limit`` characters long."""
    for path, value in _walk(data):
        if path and path[-1] == "name" and isinstance(value, str) and len(value) > limit:
            raise DataError(source, dotted(path, prefix), long_name(value, limit))


def check_value(value: Any, source: str, field: str | None, depth: int = MAX_DEPTH, length: int = MAX_VALUE) -> None:
    """A value given to change a fighter or an option (any nesting of tables, lists and text): at
    most ``depth`` levels of tables and lists, each text at most ``length`` characters; else a
    :class:`DataError` naming ``source`` and ``field``."""
    for path, item in _walk(value):
        if len(path) >= depth and isinstance(item, (dict, list)):
            raise _too_deep(source, field, depth)
        if isinstance(item, str) and len(item) > length:
            raise DataError(source, field, f"a text of {len(item):,} characters; allowed: at most {length:,}")


def machine_threads() -> int:
    """The most threads a run may ask for on this machine: its cores."""
    return os.cpu_count() or 1


def check_thread_count(value: Any, source: str) -> int:
    """A thread count from outside (``NUMBA_NUM_THREADS``): a whole number 1 … :func:`machine_threads`,
    else a :class:`DataError` naming ``source`` (thousands of threads crash numba's thread pool)."""
    text = str(value).strip()
    if not (text.isdigit() and int(text) > 0):
        raise DataError(source, None, f"must be a positive number of threads, got {value!r}")
    if int(text) > machine_threads():
        raise DataError(source, None, f"{int(text):,} threads; allowed: 1 … {machine_threads()} (the cores of this "
                        "machine)")
    return int(text)


def long_name(value: str, limit: int = MAX_NAME) -> str:
    """The message for a name over ``limit`` characters."""
    return f"a name of {len(value):,} characters; allowed: at most {limit}"
