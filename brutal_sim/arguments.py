"""The arguments every designer's workflow checks the same way: the run's size and seed, the rules
file, options and ruleset, and what makes two fighter references the same fighter."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

from . import api
from .core.errors import DataError

__all__ = ["check_run", "checked", "identity", "once"]


def check_run(n: int, seed: int, threads: int | None = None) -> tuple[int, int, int | None]:
    """``n``, ``seed`` and ``threads`` checked, as Python ints."""
    return api.check_n(n), api.check_seed(seed), api.check_threads(threads)


def checked(rules: Any, options: Any, ruleset: Any, rules_name: str = "rules",
            options_name: str = "options") -> tuple[str | None, Mapping[str, Any] | None, str | None]:
    """The rules file, rule options and ruleset arguments checked for their types (:mod:`.api`)."""
    return (api.check_rules(rules, rules_name), api.check_options(options, options_name),
            api.check_name(ruleset, "ruleset"))


def identity(ref: Any) -> Any:
    """What makes two entries the same fighter: a file's absolute path, a catalog name, an object's
    fields (hashable: a validated model's JSON)."""
    if isinstance(ref, str):
        path = Path(ref)
        return str(path.resolve()) if path.is_file() else ref
    dump = getattr(ref, "model_dump_json", None)
    return (type(ref).__name__, dump()) if callable(dump) else ref


def once(source: str, name: str, items: Sequence[Any], what: str) -> None:
    """Each of ``items`` (an argument called ``name``) once, told apart as the tables show them."""
    seen: dict[str, int] = {}
    for k, item in enumerate(items):
        label = str(item)
        j = seen.setdefault(label, k)
        if j != k:
            raise DataError(source, name, f"{label!r} is listed twice ({name}[{j}] and {name}[{k}]); each {what} once")
