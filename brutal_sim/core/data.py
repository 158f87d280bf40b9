"""Data loading every ruleset shares: TOML files, strict pydantic models, one-line validation
errors with suggestions, catalogs of named items and rules files.

Every failure raises :class:`~brutal_sim.core.errors.DataError` naming the file, the field and what
is allowed; unknown names come with close suggestions.
"""

from __future__ import annotations

import difflib
import os
import tomllib
from pathlib import Path
from typing import Any, ClassVar, Mapping, NamedTuple, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from .errors import DataError, shown
from .limits import MAX_DEPTH, MAX_NAME, check_depth, check_names, check_toml_nesting, long_name, read_bytes
from .options import RuleOptions

M = TypeVar("M", bound=BaseModel)


class StrictModel(BaseModel):
    """Base of every data model of every ruleset: unknown fields are errors, objects are frozen, and
    types are strict (a TOML boolean is not a number, a string is not a number or a boolean, a
    float is not an integer)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


def read_toml(path: Path | Any, source: str | None = None) -> dict[str, Any]:
    """Read a TOML file; a missing, unreadable, malformed or oversized file (over
    :data:`~brutal_sim.core.limits.MAX_FILE_BYTES`, or nested deeper than
    :data:`~brutal_sim.core.limits.MAX_DEPTH`) is a :class:`DataError`. Only a regular file is
    read: a FIFO would wait for a writer and a device may never end."""
    source = source or str(path)
    try:
        if isinstance(path, Path) and path.exists() and not (path.is_file() or path.is_dir()):
            raise DataError(source, None, "cannot read file (not a regular file: a FIFO, device or socket)")
        text = read_bytes(path, source).decode("utf-8")
    except FileNotFoundError:
        raise DataError(source, None, "file not found") from None
    except (IsADirectoryError, PermissionError, UnicodeDecodeError) as exc:
        raise DataError(source, None, f"cannot read file ({exc.__class__.__name__})") from None
    except OSError as exc:  # a path through a file, a name too long …
        raise DataError(source, None, f"cannot read file ({exc.strerror or exc.__class__.__name__})") from None
    except ValueError:  # a NUL character in the path
        raise DataError(source, None, "cannot read file (the path holds a NUL character)") from None
    return parse_toml(text, source)


def parse_toml(text: str, source: str) -> dict[str, Any]:
    """TOML text parsed within bounds: its nesting checked before and after parsing
    (:func:`~brutal_sim.core.limits.check_toml_nesting`, :func:`~brutal_sim.core.limits.check_depth`);
    malformed or too deep text is a :class:`DataError` naming ``source``."""
    check_toml_nesting(text, source)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(source, None, f"not valid TOML: {exc}") from None
    except RecursionError:  # not reached within the nesting limit; kept as a last guard
        raise DataError(source, None, f"nested too deep; allowed: at most {MAX_DEPTH} levels") from None
    check_depth(data, source)
    return data


def peek_toml(path: Path) -> dict[str, Any] | None:
    """A TOML file read as :func:`read_toml` reads it, or None if it cannot be (the loader tells
    why when it reads the file): for looking ahead into a file, e.g. for the ruleset it names."""
    try:
        return read_toml(path) if path.is_file() else None
    except (DataError, OSError, ValueError):
        return None


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
    """Validate ``data`` as ``model``; report the first problem as a one-line :class:`DataError`.
    Every ``name`` in ``data`` is at most :data:`~brutal_sim.core.limits.MAX_NAME` characters."""
    check_names(data, source, prefix)
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
            msg = f"{msg} (got {shown(err['input'])})"
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
    close = difflib.get_close_matches(name, known, n=3, cutoff=0.5) if len(name) <= MAX_NAME else []
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
    """The resolved fighter model; a cross-field problem (a validator's ValueError) is one line; so
    is a name over :data:`~brutal_sim.core.limits.MAX_NAME` characters (e.g. from the file's name)."""
    name = payload.get("name")
    if isinstance(name, str) and len(name) > MAX_NAME:
        raise DataError(source, "name", long_name(name))
    try:
        return model.model_validate(payload)
    except ValidationError as exc:
        raise DataError(source, None, str(exc.errors()[0]["msg"]).removeprefix("Value error, ")) from None


class Table(NamedTuple):
    """One catalog file: its name in the catalog folder and the model of its items; ``named`` items
    take their table key as name (``[arming_sword]`` …)."""

    file: str
    model: type[BaseModel]
    named: bool = True


class BaseCatalog:
    """What every ruleset's catalog shares: its tables of named items read from a folder (``TABLES``:
    attribute → :class:`Table`; the bundled folder ``DATA_ROOT``), items looked up with
    suggestions, and fighters by catalog name or by TOML path. Subclasses declare ``TABLES``,
    ``DATA_ROOT`` and ``source_prefix`` and implement :meth:`fighter_from_data`; one whose tables
    must agree with each other checks them in :meth:`checked`."""

    #: the catalog's tables: attribute → the file it is read from and its item model
    TABLES: ClassVar[Mapping[str, Table]] = {}
    #: the folder of the bundled catalog (a package resource)
    DATA_ROOT: ClassVar[Any] = None
    fighter_files: dict[str, Any]
    #: how bundled files are named in messages, e.g. ``catalog/wfrp2e``
    source_prefix = "catalog"

    def __init__(self, tables: Mapping[str, dict[str, Any]], fighter_files: dict[str, Any]) -> None:
        for attr, items in tables.items():
            setattr(self, attr, items)
        self.fighter_files = fighter_files

    @classmethod
    def from_dir(cls, root: Any) -> Any:
        """The catalog in folder ``root``: each of ``TABLES``, then the fighter files."""
        tables = {attr: read_named_tables(root, t.file, t.model, f"{cls.source_prefix}/{t.file}", t.named)
                  for attr, t in cls.TABLES.items()}
        return cls(cls.checked(tables), fighter_files_in(root))

    @classmethod
    def checked(cls, tables: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        """The tables as read, checked against each other (a :class:`DataError` if they disagree):
        this default takes them as they are."""
        return tables

    @classmethod
    def bundled(cls) -> Any:
        """The bundled catalog (``DATA_ROOT``), read once."""
        if cls not in _BUNDLED:
            _BUNDLED[cls] = cls.from_dir(cls.DATA_ROOT)
        return _BUNDLED[cls]

    def _lookup(self, kind: str, table: Mapping[str, M], ref: Any, model: type[M], source: str, field: str) -> M:
        """An item by name (with suggestions when unknown) or an inline table already validated."""
        if isinstance(ref, str):
            if ref not in table:
                raise DataError(source, field, f"unknown {kind} {shown(ref)}; {suggest(ref, list(table))}")
            return table[ref]
        if isinstance(ref, model):
            return ref if ref.name else ref.model_copy(update={"name": f"custom {kind}"})
        raise DataError(source, field, f"expected a {kind} name or an inline table")

    def fighter_from_data(self, data: dict[str, Any], source: str, default_name: str) -> Any:
        """Validate fighter-file data (``source`` names it in errors) into a fighter object."""
        raise NotImplementedError

    def fighter_data(self, fighter: Any) -> dict[str, Any]:
        """A loaded fighter as fighter-file data, its catalog items as inline tables: the inverse of
        :meth:`fighter_from_data`."""
        raise NotImplementedError

    def fighter(self, ref: str, role: str = "fighter") -> Any:
        """A fighter by catalog name, or from a TOML file path; ``role`` names it in errors. A
        catalog name wins over a file of that name in the working folder: a reference is a file
        when it ends in ``.toml``, holds a path separator, or names an existing file and no
        catalog fighter."""
        path = Path(ref)
        if (ref.endswith(".toml") or "/" in ref or os.sep in ref
                or (ref not in self.fighter_files and exists(path))):
            if not exists(path, file=True):
                raise DataError(ref, None, "fighter file not found")
            return self.fighter_from_data(self.on_base(read_toml(path), ref), ref, path.stem)
        return self.catalog_fighter(ref, role)

    def on_base(self, data: dict[str, Any], source: str) -> dict[str, Any]:
        """A fighter file's data laid over the catalog fighter its ``base`` names (when it names one):
        the base's data with the file's fields on top — a table merged field by field, any other
        value (a number, a die, an item's name, a list) replacing the base's. Only a bundled fighter
        may be a base (no file is read for it); the file's own ``name`` wins, else the base's."""
        if "base" not in data:
            return data
        base = data["base"]
        if not isinstance(base, str) or base not in self.fighter_files:
            known = list(self.fighter_files)
            raise DataError(source, "base", f"{shown(base)}: the name of a bundled fighter; "
                            + (suggest(base, known) if isinstance(base, str) else f"known: {', '.join(sorted(known))}"))
        merged = self.fighter_data(self.catalog_fighter(base, f"{source}: base"))
        _lay_over(merged, {k: v for k, v in data.items() if k != "base"})
        return merged

    def catalog_fighter(self, ref: str, role: str = "fighter") -> Any:
        """A bundled fighter by its catalog name only (no file is looked for); ``role`` names it in
        errors."""
        if ref not in self.fighter_files:
            raise DataError(role, None, f"unknown fighter {shown(ref)}; {suggest(ref, list(self.fighter_files))}")
        source = f"{self.source_prefix}/fighters/{ref}.toml"
        return self.fighter_from_data(read_toml(self.fighter_files[ref], source), source, ref)


def _lay_over(base: dict[str, Any], top: Mapping[str, Any]) -> None:
    """``top``'s fields written into ``base``: tables merged field by field, other values replaced."""
    for key, value in top.items():
        if isinstance(value, Mapping) and isinstance(base.get(key), dict):
            _lay_over(base[key], value)
        else:
            base[key] = value


def exists(path: Path, file: bool = False) -> bool:
    """Whether ``path`` exists (is a file): False also for a name the system refuses (too long,
    a NUL character), which the caller reports as not found."""
    try:
        return path.is_file() if file else path.exists()
    except (OSError, ValueError):
        return False


#: the bundled catalog of each catalog class, read on first use
_BUNDLED: dict[type, BaseCatalog] = {}


def read_rules_file(rules_file: str | None, options: RuleOptions, flags: Mapping[str, str],
                    tables: tuple[str, ...] = ("options", "description")) -> tuple[RuleOptions, dict[str, Any]]:
    """Options resolved as defaults (``options``) < the rules file's ``[options]`` < ``--option``
    flags, and the rules file's raw tables (``{}`` without a file). ``tables`` are the top-level
    tables the ruleset allows in a rules file."""
    raw: dict[str, Any] = {}
    if rules_file:
        raw = read_toml(Path(rules_file), f"rules {rules_file}")
        allowed = (*tables, "costs")  # the price list (core.costs) any ruleset's rules file may carry
        unknown = set(raw) - set(allowed)
        if unknown:
            raise DataError(rules_file, sorted(unknown)[0], f"unknown table; allowed: {', '.join(allowed)}")
        table = raw.get("options", {})
        if not isinstance(table, dict):
            raise DataError(rules_file, "options", "expected a table of option = value")
        options = options.with_overrides(table, rules_file)
    return options.with_overrides(flags, "options"), raw


def option_file(name: str, value: str, rules_file: str | None,
                flags: Mapping[str, str]) -> tuple[Path, str, str | None]:
    """The file a path-valued rule option names, and who named it, for errors: a value given as an
    ``--option`` flag is a path from the current folder (errors name ``--option NAME=VALUE``); a value
    from a rules file's ``[options]`` is a path from that file's folder (errors name the rules file
    and ``options.NAME``)."""
    if name in flags or not rules_file:
        return Path(value), f"options {name}={value}", None
    return Path(rules_file).parent / value, str(rules_file), f"options.{name}"


def read_option_file(name: str, value: str, rules_file: str | None,
                     flags: Mapping[str, str]) -> tuple[dict[str, Any], str]:
    """Read the TOML file a path-valued rule option names (:func:`option_file`): its data, and the
    file's path for the errors of its own content. A missing file names the place that named it."""
    path, source, field = option_file(name, value, rules_file, flags)
    if not exists(path, file=True):
        where = " (a path in a rules file is read from the rules file's folder)" if field else ""
        raise DataError(source, field, f"{shown(value)}: file not found{where}")
    return read_toml(path, str(path)), str(path)
