"""Critical table files for ``crit_model = table`` (W-5.4): a d100 × critical value grid of effect
numbers and, per zone, what each effect number does. Validated and compiled to two int64 arrays.

Format (see ``brutal_sim/data/wfrp2e/crit_example.toml`` and ``docs/reference-wfrp2e.md``)::

    [crit_grid]
    columns = [1, 3, 5, 7, 9]                       # critical values, ascending
    bands = [ { rolls = "01-50", effects = [1, 1, 2, 3, 4] },
              { rolls = "51-00", effects = [1, 2, 3, 4, 5] } ]
    [crit_effects.head]                             # head, body, arm, leg
    1 = "STUN(1)"
    2 = ["DROP", "PEN(ws, -10)"]
    ...

A critical value uses the largest column not above it (values below the first column use the
first). Effect codes: ``NONE``, ``OUT``, ``DEATH``, ``HELPLESS``, ``STUN(n)`` (loses its next n
turns), ``DROP``, ``PRONE``, ``PEN(ws|ag|all, −n)``.
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from ...core.data import read_toml
from ...core.errors import DataError
from .layout import (
    CRIT_COLUMNS,
    FX_DEATH,
    FX_DROP,
    FX_HELPLESS,
    FX_OUT,
    FX_PEN_AG,
    FX_PEN_WS,
    FX_PRONE,
    FX_STUN,
    NFX,
    ZONE_NAMES,
)

EXAMPLE = "example"
EXAMPLE_FILE = resources.files("brutal_sim") / "data" / "wfrp2e" / "crit_example.toml"
CODES_HELP = "NONE, OUT, DEATH, HELPLESS, STUN(n), DROP, PRONE, PEN(ws|ag|all, -n)"
#: The largest effect number a critical table may use (a table numbers its effects 1, 2, …).
MAX_EFFECT = 100
_FLAGS = {"OUT": FX_OUT, "DEATH": FX_DEATH, "HELPLESS": FX_HELPLESS, "DROP": FX_DROP, "PRONE": FX_PRONE}
_STUN = re.compile(r"^STUN\((\d+)\)$")
_PEN = re.compile(r"^PEN\((WS|AG|ALL),(-\d+)\)$")


def empty_tables() -> tuple[np.ndarray, np.ndarray]:
    """The tables of the other critical models (never read)."""
    return np.zeros((100, CRIT_COLUMNS), dtype=np.int64), np.zeros((len(ZONE_NAMES), 1, NFX), dtype=np.int64)


def _rolls(text: Any, source: str, field: str) -> range:
    lo_s, _, hi_s = str(text).partition("-")
    try:
        lo, hi = int(lo_s), int(hi_s or lo_s)
    except ValueError:
        raise DataError(source, field, f"expected a d100 band such as '01-15', got {text!r}") from None
    lo, hi = lo or 100, hi or 100  # "00" is 100 (W-1.1)
    if not 1 <= lo <= hi <= 100:
        raise DataError(source, field, f"band {text!r} must lie within 01..00 (1..100), low to high")
    return range(lo, hi + 1)


def _effect_row(raw: Any, source: str, field: str) -> np.ndarray:
    codes = raw if isinstance(raw, list) else [raw]
    row = np.zeros(NFX, dtype=np.int64)
    for code in codes:
        if not isinstance(code, str):
            raise DataError(source, field, f"expected effect codes ({CODES_HELP}), got {code!r}")
        text = code.replace(" ", "").upper()
        if text == "NONE":
            continue
        if text in _FLAGS:
            row[_FLAGS[text]] = 1
        elif m := _STUN.match(text):
            if not 1 <= int(m.group(1)) <= 100:
                raise DataError(source, field, f"{code!r}: STUN needs 1..100 rounds")
            row[FX_STUN] = max(row[FX_STUN], int(m.group(1)))
        elif m := _PEN.match(text):
            n = -int(m.group(2))
            if not 1 <= n <= 100:
                raise DataError(source, field, f"{code!r}: the penalty must be -1..-100")
            if m.group(1) in ("WS", "ALL"):
                row[FX_PEN_WS] += n
            if m.group(1) in ("AG", "ALL"):
                row[FX_PEN_AG] += n
        else:
            raise DataError(source, field, f"unknown effect code {code!r}; allowed: {CODES_HELP}")
    return row


def load_crit_table(path: str) -> tuple[np.ndarray, np.ndarray]:
    """Validate and compile a critical table file (``example`` = the bundled example).

    Returns
    -------
    (int64[100, CRIT_COLUMNS], int64[4, n effects + 1, NFX])
        ``grid[roll − 1, min(value, CRIT_COLUMNS − 1)]`` is the effect number of a d100 roll and a
        critical value; ``effects[zone, number]`` its effect fields (``FX_*``).
    """
    if path in ("", "none"):
        raise DataError("options", "crit_table", "crit_model = table needs a critical table file: "
                        "crit_table=PATH (or crit_table=example)")
    file = EXAMPLE_FILE if path == EXAMPLE else Path(path)
    source = "crit_example.toml" if path == EXAMPLE else path
    return crit_tables_from_data(read_toml(file, source), source)


def crit_tables_from_data(raw: dict[str, Any], source: str) -> tuple[np.ndarray, np.ndarray]:
    """Validate and compile the data of a critical table file (``source`` names it in errors);
    the arrays of :func:`load_crit_table`."""
    unknown = set(raw) - {"crit_grid", "crit_effects", "description"}
    if unknown:
        raise DataError(source, sorted(unknown)[0], "unknown table; allowed: crit_grid, crit_effects, description")
    grid_raw, fx_raw = raw.get("crit_grid"), raw.get("crit_effects")
    if not isinstance(grid_raw, dict) or not isinstance(fx_raw, dict):
        raise DataError(source, None,
                        "needs the tables crit_grid (columns, bands) and crit_effects.ZONE (head, body, arm, leg)")
    if set(grid_raw) - {"columns", "bands"}:
        raise DataError(source, "crit_grid", "unknown field; allowed: columns, bands")
    columns = grid_raw.get("columns")
    if (not isinstance(columns, list) or not columns or not all(isinstance(c, int) and not isinstance(c, bool)
                                                               and c >= 1 for c in columns)
            or columns != sorted(set(columns))):
        raise DataError(source, "crit_grid.columns", "expected critical values ≥ 1 in rising order, e.g. [1, 2, 3]")
    bands = grid_raw.get("bands")
    if not isinstance(bands, list) or not bands:
        raise DataError(source, "crit_grid.bands", 'expected a list of { rolls = "01-10", effects = [...] }')
    by_roll = np.zeros((100, len(columns)), dtype=np.int64)
    for k, band in enumerate(bands):
        field = f"crit_grid.bands[{k}]"
        if not isinstance(band, dict) or set(band) != {"rolls", "effects"}:
            raise DataError(source, field, "expected exactly the fields rolls and effects")
        effects = band["effects"]
        if (not isinstance(effects, list) or len(effects) != len(columns)
                or not all(isinstance(e, int) and not isinstance(e, bool) and 1 <= e <= MAX_EFFECT for e in effects)):
            raise DataError(source, f"{field}.effects",
                            f"expected {len(columns)} effect numbers 1..{MAX_EFFECT} (one per column)")
        for roll in _rolls(band["rolls"], source, f"{field}.rolls"):
            if by_roll[roll - 1, 0]:
                raise DataError(source, f"{field}.rolls", f"roll {roll:02d} is in two bands")
            by_roll[roll - 1] = effects
    missing = [r + 1 for r in range(100) if by_roll[r, 0] == 0]
    if missing:
        raise DataError(source, "crit_grid.bands",
                        f"rolls {', '.join(f'{r:02d}' for r in missing[:5])}"
                        f"{'…' if len(missing) > 5 else ''} have no band; "
                        "the bands must cover 01..00")
    if set(fx_raw) != set(ZONE_NAMES):
        raise DataError(source, "crit_effects", f"expected exactly the zones {', '.join(ZONE_NAMES)}")
    n_effects = int(by_roll.max())
    effects_arr = np.zeros((len(ZONE_NAMES), n_effects + 1, NFX), dtype=np.int64)
    for z, zone in enumerate(ZONE_NAMES):
        table = fx_raw[zone]
        if not isinstance(table, dict):
            raise DataError(source, f"crit_effects.{zone}", 'expected a table such as { 1 = "STUN(1)", 2 = "OUT" }')
        for key, codes in table.items():
            if not str(key).isdigit() or not 1 <= int(key) <= n_effects:
                raise DataError(source, f"crit_effects.{zone}.{key}", f"effect numbers are 1..{n_effects} (the grid's)")
            effects_arr[z, int(key)] = _effect_row(codes, source, f"crit_effects.{zone}.{key}")
        undefined = sorted(set(int(e) for e in np.unique(by_roll)) - {int(k) for k in table if str(k).isdigit()})
        if undefined:
            raise DataError(source, f"crit_effects.{zone}",
                            f"effect numbers {', '.join(map(str, undefined))} of the grid have no effect here")
    grid = np.zeros((100, CRIT_COLUMNS), dtype=np.int64)
    for value in range(CRIT_COLUMNS):
        col = max([c for c, v in enumerate(columns) if v <= value], default=0)
        grid[:, value] = by_roll[:, col]
    return grid, effects_arr
