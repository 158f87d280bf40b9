"""Where a scenario's files are: the scenario read (:func:`read_spec`), fighter and rules files
found from the scenario's folder (:class:`References`), and every file a scenario names
(:func:`scenario_files`) for a report to carry."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Mapping, NamedTuple

from .. import api
from ..core.data import exists, peek_toml, read_toml, validate
from ..core.errors import DataError
from ..core.ruleset import Ruleset, get_ruleset, resolve_ruleset
from ..core.variants import with_changes
from .spec import MAX_N_PER_CELL, ScenarioSpec, duelist_refs, fighter_refs


def names_file(ref: str) -> bool:
    """Whether a fighter reference of a scenario is the path of a fighter file (it ends in
    ``.toml`` or holds a folder separator) rather than a catalog name."""
    return ref.endswith(".toml") or "/" in ref or os.sep in ref


def fighter_key(ref: str) -> str:
    """How ``--set`` names a fighter reference of a scenario: a catalog name as written, a fighter
    file by its name without ``.toml`` (``fighters/brute2.toml`` → ``brute2``)."""
    return Path(ref).stem if names_file(ref) else ref


@dataclass(frozen=True)
class References:
    """How the files a scenario names are found: relative to the scenario's folder, never the
    current one; a catalog name is only ever a catalog name. ``sets``: changes applied to each
    fighter as it is loaded (fighter key → {path: value}, :func:`fighter_key`; ``--set``)."""

    path: str
    sets: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    @property
    def folder(self) -> Path:
        return Path(self.path).parent

    def beside(self, ref: str) -> str:
        """A path the scenario writes, as it is opened: from the scenario's folder."""
        return str(self.folder / ref)

    def fighter(self, ref: str) -> str:
        """A fighter reference: a fighter file's path from the scenario's folder, a catalog name as
        written."""
        return self.beside(ref) if names_file(ref) else ref

    def identity(self, ref: str) -> str:
        """One key per fighter: a file by its absolute path, a catalog name as written."""
        return os.path.abspath(os.path.realpath(self.beside(ref))) if names_file(ref) else ref

    def load_fighter(self, rs: Ruleset, ref: str, role: str = "fighter") -> Any:
        """The fighter ``ref`` names under ``rs``: its file beside the scenario, or the catalog's,
        with its ``sets`` applied (a bad one is a :class:`DataError` from ``--set FIGHTER``)."""
        if not names_file(ref):
            loaded = rs.catalog().catalog_fighter(ref, role)
        else:
            found = Path(self.beside(ref))
            if not exists(found, file=True):
                raise DataError(str(found), None, "fighter file not found (a path in a scenario is read from the "
                                "scenario's folder)")
            loaded = rs.fighter_from_data(rs.catalog().on_base(read_toml(found), str(found)), str(found), found.stem)
        changes = self.sets.get(fighter_key(ref))
        return with_changes(loaded, dict(changes), f"--set {fighter_key(ref)}") if changes else loaded

    def rules(self, ref: str, key: str) -> str:
        """A rules file named at ``key``, beside the scenario."""
        found = self.beside(ref)
        if not exists(Path(found), file=True):
            raise DataError(self.path, key, f"rules file {ref!r} not found (looked for {found}: a path in a "
                            "scenario is read from the scenario's folder)")
        return found

    def options(self, rs: Ruleset, options: Mapping[str, Any]) -> dict[str, str]:
        """Rule options the scenario sets, as text; the value of an option that names a file
        (:meth:`~brutal_sim.core.options.OptionSpec.names_file`) as a path from the scenario's folder."""
        specs = {spec.name: spec for spec in rs.option_specs}
        out = {}
        for key, value in options.items():
            text = str(value)
            spec = specs.get(key)
            out[key] = self.beside(text) if spec is not None and spec.names_file(text) else text
        return out


class FileRef(NamedTuple):
    """A file a scenario names: who names it (``by``: None for the scenario, else the name of the
    rules file), at which field, the path the loader opens, and the file's name seen from the
    scenario's folder (the name a report carries it under)."""

    by: str | None
    field: str
    path: Path
    key: str

    @property
    def where(self) -> str:
        return f"{self.by}: {self.field}" if self.by else self.field


def scenario_files(path: str) -> Iterator[FileRef]:
    """Every file the scenario at ``path`` names, where the loader opens it, and nothing else: the
    fighter files (``fighters``, ``matchups``, ``sweeps``, ``weights``, ``fights``), the rules files
    (``rules``, ``rules.NAME``) and the tables named by the options that take a path
    (:meth:`~brutal_sim.core.options.OptionSpec.names_file`) — in a rules file's ``[options]``
    from that file's folder, in the scenario's options from the scenario's. Catalog names, free
    text and other option values are never taken for files.

    Lazy: a rules file is read (for the tables it names) only after it has been yielded, and a
    fighter file (for its ruleset) only after every fighter file has been, so that a caller
    refusing a file stops before it is read. A malformed scenario is a :class:`DataError` (as
    :func:`load_scenario` raises it); a rules file that cannot be read is left to the loader."""
    spec = read_spec(path)
    refs = References(path)
    for ref, where in fighter_refs(spec):
        if names_file(ref):
            yield FileRef(None, where, Path(refs.beside(ref)), os.path.normpath(ref))
    rules = ({f"rules.{k}": v for k, v in spec.rules.items()} if isinstance(spec.rules, dict)
             else {"rules": spec.rules} if spec.rules else {})
    try:
        if spec.rulesets:
            rulesets = {name: get_ruleset(name) for name in spec.rulesets}
            runs = [(rulesets[name], f"rules.{name}", [(f"options.{name}", spec.options.get(name))])
                    for name in spec.rulesets]
        else:
            rs = get_ruleset(spec.ruleset) if spec.ruleset else resolve_ruleset(
                [refs.fighter(r) for r in duelist_refs(spec)])
            runs = [(rs, "rules", [("options", spec.options),
                                               *((f"variants[{i}].options", v.options)
                                                 for i, v in enumerate(spec.variants))])]
    except DataError:  # no ruleset to read the options with: the loader tells why
        return
    for rs, rules_key, tables in runs:
        tables += [(f"fights[{i}].options", fs.options) for i, fs in enumerate(spec.fights)]
        for where, table in tables:
            for key, value in _path_options(rs, table):
                yield FileRef(None, f"{where}.{key}", Path(refs.beside(value)), os.path.normpath(value))
        rules_ref = rules.get(rules_key)
        if not rules_ref:
            continue
        name = os.path.normpath(rules_ref)
        found = Path(refs.beside(rules_ref))
        yield FileRef(None, rules_key, found, name)
        yield from rules_files(rs, found, name)


def rules_files(rs: Ruleset, rules_file: Path, name: str | None = None) -> list[FileRef]:
    """The tables a rules file of ``rs`` names through its path-valued options, from the rules
    file's folder, each under its name joined to ``name`` (the rules file's own name, default its
    path); none if the file cannot be read (the loader tells why)."""
    name = str(rules_file) if name is None else name
    data = peek_toml(rules_file)
    table = None if data is None else data.get("options")
    return [FileRef(name, f"options.{key}", rules_file.parent / value,
                    os.path.normpath(os.path.join(os.path.dirname(name), value)))
            for key, value in _path_options(rs, table)]


def _path_options(rs: Ruleset, table: Any) -> list[tuple[str, str]]:
    """The options of ``table`` (a TOML table of option = value) whose values name files."""
    if not isinstance(table, dict):
        return []
    specs = {spec.name: spec for spec in rs.option_specs}
    return [(k, v) for k, v in table.items() if k in specs and specs[k].names_file(v)]


def read_spec(path: str, n: int | None = None, names: Mapping[str, str] | None = None,
              target_error: float | None = None, max_n: int | None = None) -> ScenarioSpec:
    """The scenario file read and validated, with the overrides of :func:`load_scenario` applied."""
    names = names or {}
    spec = validate(ScenarioSpec, read_toml(Path(path)), path)
    if n is not None:
        if not isinstance(n, int) or isinstance(n, bool) or n <= 0:
            raise DataError(names.get("n", "n"), None, f"duels per cell must be a positive integer, got {n!r}")
        if n > MAX_N_PER_CELL:
            raise DataError(names.get("n", "n"), None, f"duels per cell must be at most 10**9, got {n!r}")
        spec = spec.model_copy(update={"n": n, "target_error": None})
    if target_error is not None or max_n is not None:
        prec = api.precision_of(spec.target_error if target_error is None else target_error,
                                spec.max_n if max_n is None else max_n, names)
        if n is not None:
            raise DataError(names.get("n", "n"), None, "give n or a target error, not both")
        if prec is None:
            raise DataError(names.get("max_n", "max_n"), None, "needs a target error")
        if prec.max_n > MAX_N_PER_CELL:
            raise DataError(names.get("max_n", "max_n"), None,
                            f"duels per cell must be at most 10**9, got {prec.max_n!r}")
        spec = spec.model_copy(update={"target_error": prec.target * 100, "max_n": prec.max_n})
    return spec
