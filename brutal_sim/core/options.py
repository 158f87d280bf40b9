"""Rule options: every GAP of a digest is a named option a designer can flip.

Each ruleset declares its options once, as the :class:`OptionSpec` tuple ``OPTION_SPECS`` of its
``options.py``; an :class:`OptionRow` over that tuple gives the kernels' ``int64[NO]`` option row:
each option's slot, the row length and the code of each choice, from which ``options.py`` derives
the module-level ints (``O_*``, ``NO``, value codes) its kernels read as compile-time constants.

Options come, in increasing priority, from the defaults, a rules TOML file (``[options]`` table,
``--rules FILE``) and ``--option key=value`` flags.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Mapping

import numpy as np

from .errors import DataError


@dataclass(frozen=True)
class OptionSpec:
    """One rule option: its name, the rule it reads, its default and what is allowed."""

    name: str
    rule: str
    default: str | int
    choices: tuple[str, ...] = ()
    int_range: tuple[int, int] | None = None
    help: str = ""
    #: the kernel's code of each choice (default: the choice's position)
    codes: tuple[int, ...] = ()
    #: False for an option with no slot in the kernels' option row: one the rules loader or the
    #: compile step acts on (a file path, the check formula), or one with a single reading
    kernel: bool = True
    #: True for an option whose value is the path of a file (a table the rules loader reads),
    #: relative to the file that sets it; ``path_words`` are the values that name no file (the
    #: bundled table, none)
    path: bool = False
    path_words: tuple[str, ...] = ()

    def names_file(self, value: object) -> bool:
        """Whether ``value`` of this option is the path of a file to read."""
        return self.path and isinstance(value, str) and value not in self.path_words

    @property
    def value_codes(self) -> tuple[int, ...]:
        """The kernel's code of each choice, in the order of ``choices``."""
        return self.codes or tuple(range(len(self.choices)))

    def code(self, value: str | int) -> int:
        """The int a kernel sees for a resolved value: integers as they are, a choice by its code."""
        if self.int_range is not None:
            return int(value)
        return self.value_codes[self.choices.index(str(value))]

    def parse(self, raw: object, source: str) -> str | int:
        """Validate ``raw`` (a TOML value or CLI text) and return the canonical value."""
        if self.int_range is not None:
            try:
                if isinstance(raw, (bool, float)):  # a TOML boolean or float is not an integer (no rounding)
                    raise ValueError
                value = int(raw)  # type: ignore[arg-type]
            except (TypeError, ValueError):
                raise DataError(source, self.name,
                                f"expected an integer {self.int_range[0]}..{self.int_range[1]}, got {raw!r}") from None
            lo, hi = self.int_range
            if not lo <= value <= hi:
                raise DataError(source, self.name, f"{value} is out of range; allowed {lo}..{hi}")
            return value
        text = str(raw).lower() if isinstance(raw, bool) else str(raw).strip()
        text = text.replace(" ", "")
        if text not in self.choices:
            raise DataError(source, self.name, f"unknown value {raw!r}; allowed: {', '.join(self.choices)}")
        return text

    @property
    def allowed(self) -> str:
        if self.int_range is not None:
            return f"{self.int_range[0]}..{self.int_range[1]}"
        return " | ".join(self.choices)


@dataclass(frozen=True)
class RuleOptions:
    """The resolved options of one run (name → canonical value) under a ruleset's option specs.
    Options whose spec has neither choices nor a range (file paths such as ``zone_table``) keep
    their text."""

    values: Mapping[str, str | int]
    specs: tuple[OptionSpec, ...]

    @classmethod
    def defaults(cls, specs: tuple[OptionSpec, ...]) -> "RuleOptions":
        return cls({s.name: s.default for s in specs}, specs)

    def __getitem__(self, name: str) -> str | int:
        return self.values[name]

    def with_overrides(self, overrides: Mapping[str, object], source: str) -> "RuleOptions":
        by_name = {s.name: s for s in self.specs}
        merged = dict(self.values)
        for key, raw in overrides.items():
            spec = by_name.get(key)
            if spec is None:
                close = difflib.get_close_matches(str(key), list(by_name), n=3, cutoff=0.6)
                hint = f"did you mean {', '.join(map(repr, close))}? " if close else ""
                raise DataError(source, key, f"unknown rule option; {hint}allowed: {', '.join(by_name)}")
            merged[key] = str(raw) if not spec.choices and spec.int_range is None else spec.parse(raw, source)
        return RuleOptions(merged, self.specs)

    def as_dict(self) -> dict[str, str | int]:
        return dict(self.values)


def option_row(options: RuleOptions, slots: Mapping[str, int], size: int) -> np.ndarray:
    """Resolved options → the kernels' ``int64[size]`` row: each option's code at its slot."""
    specs = {s.name: s for s in options.specs}
    row = np.zeros(size, dtype=np.int64)
    for name, slot in slots.items():
        row[slot] = specs[name].code(options[name])
    return row


class OptionRow:
    """The kernels' option row of a ruleset: every option with ``kernel`` set has the slot of its
    place among them in ``specs``; a choice is stored as its code (:attr:`OptionSpec.value_codes`).

    A ruleset's ``options.py`` builds one over ``OPTION_SPECS`` and names what its kernels read:
    ``O_ROUND_CAP = ROW.slot("round_cap")``, ``NO = ROW.size``, ``A, B = ROW.codes("name")``.
    """

    def __init__(self, specs: tuple[OptionSpec, ...]) -> None:
        self.specs = {s.name: s for s in specs}
        self.slots = {s.name: k for k, s in enumerate(s for s in specs if s.kernel)}
        self.size = len(self.slots)
        for name in self.slots:
            spec = self.specs[name]
            if not spec.choices and spec.int_range is None:
                raise ValueError(f"option {name!r} has neither choices nor a range: it has no code for the "
                                 "kernels (declare it with kernel=False)")
            if spec.codes and len(spec.codes) != len(spec.choices):
                raise ValueError(f"option {name!r}: {len(spec.codes)} codes for {len(spec.choices)} choices")

    def slot(self, name: str) -> int:
        """The slot of option ``name``."""
        return self.slots[name]

    def pair(self, name: str) -> int:
        """The slot of ``{name}_a``; ``{name}_b`` is the next one, so side s is at the slot + s."""
        slot = self.slots[f"{name}_a"]
        if self.slots[f"{name}_b"] != slot + 1:
            raise ValueError(f"options {name}_a and {name}_b must be declared one after the other")
        return slot

    def codes(self, name: str) -> tuple[int, ...]:
        """The codes of the choices of option ``name``, in the order of its choices."""
        return self.specs[name].value_codes

    def row(self, options: RuleOptions) -> np.ndarray:
        """Resolved options → ``int64[size]``."""
        return option_row(options, self.slots, self.size)


def parse_option_flags(flags: list[str]) -> dict[str, str]:
    """Turn ``["margin_against=reaction", ...]`` into a mapping; names the bad flag on error."""
    out: dict[str, str] = {}
    for flag in flags:
        key, sep, value = flag.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise DataError("options", flag, "expected key=value, e.g. margin_against=reaction")
        out[key.strip()] = value.strip()
    return out
