"""Loading rules data: the bundled catalog, fighter files, rules files and the hit-zone table.

Every failure raises :class:`~brutal_sim.errors.DataError` naming the file, the field and what
is allowed; unknown names come with close suggestions.
"""

from __future__ import annotations

import difflib
import tomllib
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Mapping, TypeVar

import numpy as np
from pydantic import BaseModel, ValidationError

from .errors import DataError
from .model import ATTRIBUTES, CHECKS, REACTIONS, ZONE_SHORTHANDS, ZONES, Armour, Fighter, FighterSpec, Tactic, Talent, Weapon, aim_zone, split_tactic
from .options import RuleOptions

M = TypeVar("M", bound=BaseModel)

DATA_ROOT = resources.files("brutal_sim") / "data" / "brutal"


def read_toml(path: Path | Any, source: str | None = None) -> dict[str, Any]:
    """Read a TOML file; a missing or malformed file is a :class:`DataError`."""
    source = source or str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError(source, None, "file not found") from None
    except (IsADirectoryError, PermissionError, UnicodeDecodeError) as exc:
        raise DataError(source, None, f"cannot read file ({exc.__class__.__name__})") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(source, None, f"not valid TOML: {exc}") from None


def _format_loc(prefix: str, loc: tuple[Any, ...]) -> str:
    parts = [prefix] if prefix else []
    for p in loc:
        if isinstance(p, int):
            parts[-1:] = [f"{parts[-1]}[{p}]" if parts else f"[{p}]"]
        elif p in {"str", "Weapon", "Armour", "Talent", "Tactic", "none"} or "function-after" in str(p):
            continue
        else:
            parts.append(str(p))
    return ".".join(parts)


def validate(model: type[M], data: Any, source: str, prefix: str = "") -> M:
    """Validate ``data`` as ``model``; report the first problem as a one-line :class:`DataError`."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors()
        # for "name or inline table" unions, report the inline table's problem, not "not a string"
        specific = [e for e in errors if e["type"] not in {"string_type", "none_required", "model_type"}]
        err = (specific or errors)[0]
        loc = _format_loc(prefix, tuple(err["loc"]))
        msg = str(err["msg"]).removeprefix("Value error, ")
        if err["type"] == "extra_forbidden":
            sub = _submodel(model, tuple(err["loc"])[:-1])
            allowed = ", ".join(sub.model_fields) if sub else "see docs/reference.md"
            msg = f"unknown field; allowed: {allowed}"
        elif "input" in err and err["type"] not in {"value_error", "missing"}:
            msg = f"{msg} (got {err['input']!r})"
        raise DataError(source, loc or None, msg) from None


def _model_in(annotation: Any) -> type[BaseModel] | None:
    """The pydantic model inside an annotation such as ``list[str | Talent]``."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()):
        found = _model_in(arg)
        if found is not None:
            return found
    return None


def _submodel(model: type[BaseModel], loc: tuple[Any, ...]) -> type[BaseModel] | None:
    """The model that owns the field at ``loc`` (to list its allowed fields)."""
    current: type[BaseModel] | None = model
    for p in loc:
        if current is None or isinstance(p, int) or p not in current.model_fields:
            continue  # list indices and union tags such as 'Talent'
        current = _model_in(current.model_fields[p].annotation)
    return current


def suggest(name: str, known: list[str]) -> str:
    close = difflib.get_close_matches(name, known, n=3, cutoff=0.5)
    hint = f"did you mean {', '.join(repr(c) for c in close)}? " if close else ""
    return f"{hint}known: {', '.join(sorted(known))}"


def read_named_tables(root: Any, fname: str, model: type[M], source: str, named: bool = True) -> dict[str, M]:
    """A catalog file of named tables (``[arming_sword]`` …) validated as ``model``; each table's
    key becomes its ``name`` unless ``named`` is false or the table names itself."""
    out: dict[str, M] = {}
    for key, data in read_toml(root / fname, source).items():
        if not isinstance(data, dict):
            raise DataError(source, key, "expected a table")
        out[key] = validate(model, {"name": key, **data} if named and "name" not in data else data, source, key)
    return out


def fighter_files_in(root: Any) -> dict[str, Any]:
    """The bundled fighter files of a catalog folder: name → path of ``fighters/NAME.toml``."""
    return {p.name.removesuffix(".toml"): p for p in (root / "fighters").iterdir() if p.name.endswith(".toml")}


def validated_fighter(model: type[M], payload: dict[str, Any], source: str) -> M:
    """The resolved fighter model; a cross-field problem (a validator's ValueError) is one line."""
    try:
        return model.model_validate(payload)
    except ValidationError as exc:
        raise DataError(source, None, str(exc.errors()[0]["msg"]).removeprefix("Value error, ")) from None


class BaseCatalog:
    """What every ruleset's catalog shares: named items looked up with suggestions, and fighters by
    catalog name or by TOML path. Subclasses set ``fighter_files`` and ``source_prefix`` and
    implement :meth:`fighter_from_data`."""

    fighter_files: dict[str, Any]
    #: how bundled files are named in messages, e.g. ``catalog/wfrp2e``
    source_prefix = "catalog"

    def _lookup(self, kind: str, table: Mapping[str, M], ref: Any, model: type[M], source: str, field: str) -> M:
        """An item by name (with suggestions when unknown) or an inline table already validated."""
        if isinstance(ref, str):
            if ref not in table:
                raise DataError(source, field, f"unknown {kind} {ref!r}; {suggest(ref, list(table))}")
            return table[ref]
        if isinstance(ref, model):
            return ref if ref.name else ref.model_copy(update={"name": f"custom {kind}"})
        raise DataError(source, field, f"expected a {kind} name or an inline table")

    def fighter_from_data(self, data: dict[str, Any], source: str, default_name: str) -> Any:
        raise NotImplementedError

    def fighter(self, ref: str, role: str = "fighter") -> Any:
        """A fighter by catalog name, or from a TOML file path; ``role`` names it in errors."""
        path = Path(ref)
        if ref.endswith(".toml") or path.exists() or "/" in ref:
            if not path.is_file():
                raise DataError(ref, None, "fighter file not found")
            return self.fighter_from_data(read_toml(path), ref, path.stem)
        if ref not in self.fighter_files:
            raise DataError(role, None, f"unknown fighter {ref!r}; {suggest(ref, list(self.fighter_files))}")
        source = f"{self.source_prefix}/fighters/{ref}.toml"
        return self.fighter_from_data(read_toml(self.fighter_files[ref], source), source, ref)


class Catalog(BaseCatalog):
    """The named weapons, armour, talents and fighters a Brutal fighter file may refer to."""

    def __init__(self, weapons: dict[str, Weapon], armour: dict[str, Armour], talents: dict[str, Talent],
                 tactics: dict[str, Tactic], fighter_files: dict[str, Any]) -> None:
        self.weapons = weapons
        self.armour = armour
        self.talents = talents
        self.tactics = tactics
        self.fighter_files = fighter_files

    @classmethod
    def bundled(cls) -> "Catalog":
        return _bundled_catalog()

    @classmethod
    def from_dir(cls, root: Any) -> "Catalog":
        def table(fname: str, model: type[M]) -> dict[str, M]:
            return read_named_tables(root, fname, model, f"catalog/{fname}")

        return cls(table("weapons.toml", Weapon), table("armour.toml", Armour), table("talents.toml", Talent),
                   table("tactics.toml", Tactic), fighter_files_in(root))

    # -- resolution -------------------------------------------------------------------------
    def weapon(self, ref: Any, source: str = "--weapon", field: str = "weapon") -> Weapon:
        return self._lookup("weapon", self.weapons, ref, Weapon, source, field)

    def tactic(self, ref: Any, source: str = "--tactic", field: str = "tactic") -> tuple[Tactic, int]:
        """A tactic by name (``"aimed:head"`` for aiming ones) or inline table → (tactic, aim zone)."""
        if isinstance(ref, str):
            name, arg = split_tactic(ref)
            if name not in self.tactics:
                names = [k + (":<zone>" if t.aims else "") for k, t in self.tactics.items()]
                raise DataError(source, field, f"unknown tactic {ref!r}; {suggest(name, names)}")
            t = self.tactics[name]
        elif isinstance(ref, Tactic):
            t, arg = (ref if ref.name else ref.model_copy(update={"name": "custom tactic"})), ""
            if ref.aims:
                raise DataError(source, field, "an inline aiming tactic cannot name its zone; use a catalog tactic such as 'aimed:head'")
        else:
            raise DataError(source, field, "expected a tactic name or an inline table")
        try:
            return t, aim_zone(t, arg)
        except ValueError as exc:
            raise DataError(source, field, str(exc)) from None

    def with_behaviour(self, f: Fighter, tactic: Any = None, reaction: str | None = None,
                       source: str = "--tactic") -> Fighter:
        """A copy of ``f`` with another tactic and/or reaction."""
        update: dict[str, Any] = {}
        if tactic is not None:
            update["tactic"], update["aim_zone"] = self.tactic(tactic, source, "tactic")
        if reaction is not None:
            if reaction not in REACTIONS:
                raise DataError(source.replace("tactic", "reaction"), "reaction",
                                f"unknown reaction {reaction!r}; allowed: {', '.join(REACTIONS)}")
            update["reaction"] = reaction
        return f.model_copy(update=update)

    def fighter_from_data(self, data: dict[str, Any], source: str, default_name: str) -> Fighter:
        spec = validate(FighterSpec, data, source)
        main = None if spec.main_hand is None else self.weapon(spec.main_hand, source, "main_hand")
        off = None if spec.off_hand is None else self.weapon(spec.off_hand, source, "off_hand")
        armour = [self._lookup("armour", self.armour, a, Armour, source, f"armour[{i}]") for i, a in enumerate(spec.armour)]
        talents = [self._lookup("talent", self.talents, t, Talent, source, f"talents[{i}]") for i, t in enumerate(spec.talents)]
        tactic, zone = self.tactic(spec.tactic, source, "tactic")
        payload = spec.model_dump(exclude={"main_hand", "off_hand", "armour", "talents", "ruleset", "tactic"})
        payload.update(name=spec.name or default_name, main_hand=main, off_hand=off, armour=armour, talents=talents,
                       tactic=tactic, aim_zone=zone)
        return validated_fighter(Fighter, payload, source)


@lru_cache(maxsize=1)
def _bundled_catalog() -> Catalog:
    return Catalog.from_dir(DATA_ROOT)


# -- hit-zone table (B-4.9) ---------------------------------------------------------------------

def zone_table_from_data(data: Mapping[str, Any], source: str) -> np.ndarray:
    """Compile ``{die = 20, ranges = {"1-6" = "legs", ...}}`` into an int8 array: roll−1 → zone code.

    A pair shorthand (``arms``, ``legs``) splits by parity: odd rolls left, even rolls right (B-4.9).
    """
    unknown = set(data) - {"die", "ranges", "description"}
    if unknown:
        raise DataError(source, sorted(unknown)[0], "unknown field; allowed: die, ranges, description")
    die = data.get("die", 20)
    if not isinstance(die, int) or not 2 <= die <= 100:
        raise DataError(source, "die", f"expected an integer 2..100, got {die!r}")
    ranges = data.get("ranges")
    if not isinstance(ranges, dict) or not ranges:
        raise DataError(source, "ranges", 'expected a table such as {"1-6" = "legs", "7-14" = "torso"}')
    table = np.full(die, -1, dtype=np.int8)
    for key, zone in ranges.items():
        lo_s, _, hi_s = str(key).partition("-")
        try:
            lo, hi = int(lo_s), int(hi_s or lo_s)
        except ValueError:
            raise DataError(source, f"ranges.{key}", "expected a roll or a range such as '7-14'") from None
        if not 1 <= lo <= hi <= die:
            raise DataError(source, f"ranges.{key}", f"range must lie within 1..{die}")
        for roll in range(lo, hi + 1):
            if zone in ZONE_SHORTHANDS and zone != "all":
                left, right = ZONE_SHORTHANDS[zone]
                code = ZONES.index(left if roll % 2 else right)
            elif zone in ZONES:
                code = ZONES.index(zone)
            else:
                raise DataError(source, f"ranges.{key}", f"unknown zone {zone!r}; allowed: {', '.join(ZONES)}, arms, legs")
            if table[roll - 1] >= 0:
                raise DataError(source, f"ranges.{key}", f"roll {roll} is covered twice")
            table[roll - 1] = code
    missing = [i + 1 for i in range(die) if table[i] < 0]
    if missing:
        raise DataError(source, "ranges", f"rolls {missing} have no zone; every roll 1..{die} needs one")
    return table


#: B-1.1 default formula of ``check_bonus = attribute_plus_skill``: check = attribute + skill.
DEFAULT_CHECK_FORMULA: dict[str, tuple[str, ...]] = {
    "melee": ("agility", "skill"), "ranged": ("agility", "skill"), "dodge": ("mobility", "skill"), "athletics": ("strength", "skill"),
    "toughness": ("fortitude", "skill"), "resolve": ("confidence", "skill"), "willpower": ("spirit", "skill"),
}


def read_rules_file(rules_file: str | None, options: RuleOptions, flags: Mapping[str, str],
                    tables: tuple[str, ...] = ("options", "description")) -> tuple[RuleOptions, dict[str, Any]]:
    """Options resolved as defaults (``options``) < the rules file's ``[options]`` < ``--option``
    flags, and the rules file's raw tables (``{}`` without a file). ``tables`` are the top-level
    tables the ruleset allows in a rules file."""
    raw: dict[str, Any] = {}
    if rules_file:
        raw = read_toml(Path(rules_file), f"--rules {rules_file}")
        unknown = set(raw) - set(tables)
        if unknown:
            raise DataError(rules_file, sorted(unknown)[0], f"unknown table; allowed: {', '.join(tables)}")
        table = raw.get("options", {})
        if not isinstance(table, dict):
            raise DataError(rules_file, "options", "expected a table of option = value")
        options = options.with_overrides(table, rules_file)
    return options.with_overrides(flags, "--option"), raw


def check_formula(rules_file: str | None, options: RuleOptions) -> dict[str, tuple[str, ...]] | None:
    """The check formula in force: None for ``check_bonus = total``, else the default formula
    updated by the rules file's ``[check_formula]`` (``melee = "agility + skill"``)."""
    if options["check_bonus"] != "attribute_plus_skill":
        return None
    formula = dict(DEFAULT_CHECK_FORMULA)
    raw = read_toml(Path(rules_file)).get("check_formula", {}) if rules_file else {}
    if not isinstance(raw, dict):
        raise DataError(str(rules_file), "check_formula", 'expected a table such as { melee = "agility + skill" }')
    for check, text in raw.items():
        field = f"check_formula.{check}"
        if check not in CHECKS:
            raise DataError(str(rules_file), field, f"unknown check; allowed: {', '.join(CHECKS)}")
        terms = tuple(t.strip() for t in str(text).split("+"))
        bad = [t for t in terms if t not in ATTRIBUTES and t != "skill"]
        if bad or not isinstance(text, str):
            raise DataError(str(rules_file), field, f"unknown term {bad[0] if bad else text!r}; a formula adds "
                            f"terms from: skill, {', '.join(ATTRIBUTES)}")
        formula[check] = terms
    return formula


#: the top-level tables a Brutal rules file may contain
RULES_FILE_TABLES = ("options", "zone_table", "check_formula", "description")


def load_rules(rules_file: str | None, option_flags: Mapping[str, str]) -> tuple[RuleOptions, np.ndarray]:
    """Resolve rule options (defaults < rules file < flags) and the hit-zone table."""
    options, raw = read_rules_file(rules_file, RuleOptions(), option_flags, RULES_FILE_TABLES)
    inline_zone: Mapping[str, Any] | None = raw.get("zone_table")
    if inline_zone is not None:
        table = zone_table_from_data(inline_zone, f"{rules_file}: zone_table")
        if "zone_table" not in option_flags:  # the file's own zone table, unless a flag names another
            options = options.with_overrides({"zone_table": rules_file}, str(rules_file))
    zt = str(options["zone_table"])
    if zt == "default":
        table = zone_table_from_data(read_toml(DATA_ROOT / "zones.toml", "catalog/zones.toml"), "catalog/zones.toml")
    elif inline_zone is None or zt != rules_file:
        table = zone_table_from_data(read_toml(Path(zt), f"--option zone_table={zt}"), zt)
    return options, table
