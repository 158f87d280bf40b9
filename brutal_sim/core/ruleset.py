"""What a ruleset is, and which rulesets there are.

A ruleset is a module under :mod:`brutal_sim.rulesets` exposing ``RULESET``, an instance of a
:class:`Ruleset` subclass. It brings its own data schema and bundled catalog, rule options, compile
step, ``@njit`` kernels (:class:`Kernels`), counter names (:class:`~brutal_sim.core.counters.CounterLayout`)
and exact single-attack enumeration. Everything downstream — the block engine, results, frames,
plots, reports, the CLI — is shared and reads a ruleset only through this interface.

What a ruleset plays is a capability it declares (:data:`CAPABILITIES`, :attr:`Ruleset.capabilities`):
every ruleset plays duels of one against one; one that declares ``fights`` plays group fights of
several a side (:meth:`Ruleset.prepare_fight`: ``brutal-sim fight``, ``api.fight``, scenario
``[[fights]]``); one that declares ``distance`` plays duels that start apart (shooting, moving). The
app asks :meth:`Ruleset.require`, never a ruleset's name.

A ruleset outside the package (a plug-in) joins the table with :func:`register` and leaves it
with :func:`unregister`; see ``docs/rulesets.md``.

Which ruleset a run uses (:func:`resolve_ruleset`): ``--ruleset`` / ``ruleset=`` if given, else the
``ruleset`` key of a fighter file, else the one ruleset whose catalog has both fighters, preferring
Brutal when several do.
"""

from __future__ import annotations

import difflib
import importlib
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np

from .counters import CounterLayout
from .data import BaseCatalog, exists, peek_toml, read_rules_file
from .errors import DataError
from .options import OptionSpec, RuleOptions
from .schema_tools import FileKind

#: registered rulesets: name → module (imported on first use)
RULESET_MODULES: dict[str, str] = {
    "brutal": "brutal_sim.rulesets.brutal",
    "wfrp2e": "brutal_sim.rulesets.wfrp2e",
    "vereteno": "brutal_sim.rulesets.vereteno",
}
DEFAULT_RULESET = "brutal"

#: what a ruleset may declare it plays besides duels at point blank: its words in errors
CAPABILITIES = {"fights": "group fights (several fighters a side)",
                "distance": "duels that start at a distance (shooting, moving)"}


#: The kernel variants: the parts of a ruleset's drivers that a run may leave out, in the order of
#: the drivers' trailing flag arguments. A compiled loop takes each as an argument, ``None`` to leave
#: that part out (numba prunes a branch on ``flag is not None`` before typing, so nothing of it is
#: compiled) or ``True`` to play it; one driver file serves every kernel set (docs/rulesets.md).
VARIANTS = {
    "ranged": "the steps of shooting and moving (duels at a distance, missile weapons)",
    "group": "the group block of the counters (fights of several a side)",
}


@dataclass(frozen=True)
class KernelSet:
    """Which variants (:data:`VARIANTS`) a run's kernels compile. Sets combine with ``|``: cells
    played on the same random numbers play the union of their sets."""

    ranged: bool = False
    group: bool = False

    def __or__(self, other: KernelSet) -> KernelSet:
        return KernelSet(*(getattr(self, v) or getattr(other, v) for v in VARIANTS))

    def flags(self) -> tuple[bool | None, ...]:
        """The drivers' trailing flag arguments: ``True`` for a variant played, ``None`` for one
        left out."""
        return tuple(True if getattr(self, v) else None for v in VARIANTS)

    def __str__(self) -> str:
        return "+".join(v for v in VARIANTS if getattr(self, v)) or "plain"


@dataclass(frozen=True)
class Bound:
    """A compiled loop with its trailing arguments fixed: called with the leading ones (fighters,
    options, tables, seed, start, n, lanes, k). Pickled by the loop's module and name, so a Dask
    worker imports the kernels instead of receiving them."""

    loop: Callable[..., Any]
    tail: tuple[Any, ...]

    def __call__(self, *args: Any) -> Any:
        return self.loop(*args, *self.tail)

    def __reduce__(self) -> tuple[Any, ...]:
        func = getattr(self.loop, "py_func", self.loop)
        module, name = func.__module__, func.__name__
        if getattr(importlib.import_module(module), name, None) is not self.loop:
            raise ValueError(f"kernel {module}.{name} is not a module-level name; only those run on a cluster")
        return (_rebind, (module, name, self.tail))


def _rebind(module: str, name: str, tail: tuple[Any, ...]) -> Bound:
    return Bound(getattr(importlib.import_module(module), name), tail)


@dataclass(frozen=True)
class Kernels:
    """A ruleset's compiled drivers (its ``kernel/drivers.py``) and the kernel set a run plays.

    ``run(fighters, options, *tables, seed, start, n, lanes, k, single_attacks, *flags)`` plays one
    duel or group fight per index (one attack by side a on a fresh side b per index when
    ``single_attacks``); ``paired(Fs, optss, *tables, seed, start, n, lanes, k, *flags)`` plays every
    index under m configurations with the same random numbers. ``flags`` are
    :meth:`KernelSet.flags`. The bound drivers the engine calls take the leading arguments only and
    return ``int64[lanes, k]`` counters of the indices ``start … start+n−1``:

    - ``duels``: one duel (or group fight) per index;
    - ``attacks``: one attack by side a on a fresh side b per index (None for group fights);
    - ``paired``: takes ``fighters`` ``int64[m, N, NF]`` and ``options`` ``int64[m, NO]`` and plays
      every index under the m configurations with the same random numbers; returns
      ``(int64[lanes, m, k], int64[lanes, max(m−1, 1), 3, 3])`` (joint outcomes of neighbours:
      0 a won, 1 b won, 2 draw).
    """

    run: Callable[..., np.ndarray]
    paired_loop: Callable[..., tuple[np.ndarray, np.ndarray]]
    variant: KernelSet = KernelSet()

    @property
    def duels(self) -> Bound:
        return Bound(self.run, (False, *self.variant.flags()))

    @property
    def attacks(self) -> Bound | None:
        return None if self.variant.group else Bound(self.run, (True, *self.variant.flags()))

    @property
    def paired(self) -> Bound:
        return Bound(self.paired_loop, self.variant.flags())

    def playing(self, variant: KernelSet) -> Kernels:
        """The same drivers playing ``variant``."""
        return Kernels(self.run, self.paired_loop, variant)

    def same_drivers(self, other: Kernels) -> bool:
        """Whether ``other`` runs the same compiled loops (the same ruleset), whatever its set."""
        return self.run is other.run and self.paired_loop is other.paired_loop


@dataclass(frozen=True)
class Compiled:
    """Everything a kernel needs: fighters ``int64[2, NF]`` (``int64[N, NF]`` for group fights), options
    ``int64[NO]``, the ruleset's read-only tables (e.g. Brutal's hit-zone table), its kernels and the counter
    row length."""

    fighters: np.ndarray
    options: np.ndarray
    tables: tuple[np.ndarray, ...]
    kernels: Kernels
    n_counters: int

    def args(self) -> tuple[np.ndarray, ...]:
        """The leading kernel arguments: fighters, options, tables."""
        return (self.fighters, self.options, *self.tables)


@dataclass(frozen=True)
class Prepared:
    """A validated, compiled matchup: the fighters (the ruleset's own model objects), the resolved
    options and the compiled arrays."""

    a: Any
    b: Any
    options: RuleOptions
    compiled: Compiled


@dataclass(frozen=True)
class PreparedFight:
    """A validated, compiled group fight (docs/groups.md): the fighters of each side in line order,
    the resolved options, the compiled arrays (fighters ``int64[N, NF]``; its kernels play
    fights and count the group block after the header) and the name of the ruleset."""

    a: tuple[Any, ...]
    b: tuple[Any, ...]
    options: RuleOptions
    compiled: Compiled
    ruleset: str


@dataclass(frozen=True)
class ExactAttack:
    """An exactly enumerated single attack: ``outcomes`` ``float64[n outcomes]``, ``levels``
    ``float64[n levels, n zones]`` (probability of a blow of that level in that zone group) and the
    mean final damage per attack."""

    outcomes: np.ndarray
    levels: np.ndarray
    mean_damage: float


@dataclass(frozen=True)
class ShotMeasure:
    """The shot a single attack measures (``attack``'s header): its kind (one of the ruleset's shot
    kinds, or its own word), the distance it is fired from in the ruleset's unit, and one line of
    text saying so (``"standard shot, braced, from 40 m"``)."""

    shot: str
    distance: int
    text: str


@dataclass(frozen=True)
class Listing:
    """A catalog table for ``brutal-sim list``: column names and rows of text."""

    columns: tuple[str, ...]
    rows: list[tuple[str, ...]]


@dataclass(frozen=True)
class ItemSlot:
    """A fighter field that holds items of the catalog (or one of a few named choices): what a
    gauntlet (``designer.gauntlet``, ``brutal-sim gauntlet --vary NAME``) swaps, one item per row.

    ``name`` is the slot's word in ``--vary``; ``field`` the fighter-file field it fills (a path as
    in :mod:`brutal_sim.core.variants`); ``table`` the catalog table whose items fit (an attribute
    of the ruleset's catalog, e.g. ``weapons``), or ``choices`` the values when no table fills it;
    ``many``: the field is a list and a value is one item added to it (the fighter as it is, the
    baseline, is ``none``); else a value replaces the item and ``none`` empties the field when
    ``empty`` allows it. Which items fit is the fighter file's own check: an item the fighter cannot
    carry there (a missile weapon in a melee hand) does not fit."""

    name: str
    field: str
    table: str = ""
    choices: tuple[str, ...] = ()
    many: bool = False
    empty: bool = True


#: the value that empties an item slot (``--set a.off_hand=none``) and, in a gauntlet of a list
#: slot, the row of the fighter as it is
NO_ITEM = "none"


class Ruleset(ABC):
    """The interface a ruleset module implements (see the module docstring)."""

    #: short name used by ``--ruleset`` and the ``ruleset`` key of files
    name: str
    #: human title, e.g. "Brutal (2d6, wound track)"
    title: str
    #: names of the counter blocks
    counters: CounterLayout
    #: every rule option of the ruleset (GAPs of its digest among them)
    option_specs: tuple[OptionSpec, ...]
    #: the top-level tables a ``--rules FILE`` may contain
    rules_file_tables: tuple[str, ...] = ("options", "description")
    #: the ruleset's fighter model (objects of it pass through :meth:`load_fighter`)
    fighter_type: type
    #: a bundled matchup whose compilation warms the kernels up (:meth:`warm_up`)
    warm_up_pair: tuple[str, str]
    #: the numeric fighter fields stat weights step (``brutal-sim weights``): ``(path, step)`` with
    #: paths as in variants (:mod:`brutal_sim.core.variants`), ``*`` for every item of a list; a
    #: dice expression steps its die (d6 → d8) instead of adding ``step``; a third element names a
    #: field the fighter must have for the stat to be stepped (``("bs", 5, "missile")``)
    adjustable: tuple[tuple[Any, ...], ...] = ()
    #: the rules digest whose ids (``B-4.7``: the prefix, then chapter.rule) the tests and the docs
    #: cite, and the reference doc that lists the ids not modelled with their reasons: paths from the
    #: project's ``docs/`` folder (a plug-in's may be absolute); the rule-id test reads them
    rule_prefix: str = ""
    digest: str | None = None
    reference: str | None = None
    #: the tactics and the reactions a tactic matrix (``designer.tactic_matrix``) plays by default
    matrix_tactics: tuple[str, ...] = ()
    matrix_reactions: tuple[str, ...] = ()
    #: what the ruleset plays besides duels at point blank: names of :data:`CAPABILITIES`
    capabilities: frozenset[str] = frozenset()
    #: the target-choice policies of its group fights (a fighter's ``targeting``), the default first
    targeting_policies: tuple[str, ...] = ()
    #: the fighter fields that hold catalog items, each an :class:`ItemSlot`: what a gauntlet varies
    #: and where ``--set a.FIELD=none`` empties a hand (docs/rulesets.md)
    item_slots: tuple[ItemSlot, ...] = ()

    def plays(self, capability: str) -> bool:
        """Whether the ruleset declares ``capability`` (a key of :data:`CAPABILITIES`)."""
        if capability not in CAPABILITIES:
            raise ValueError(f"unknown capability {capability!r}; known: {', '.join(CAPABILITIES)}")
        return capability in self.capabilities

    def require(self, capability: str, source: str) -> None:
        """A :class:`DataError` naming ``source`` unless the ruleset plays ``capability``: one line
        naming the rulesets that do."""
        if not self.plays(capability):
            others = [n for n in RULESET_MODULES if get_ruleset(n).plays(capability)]
            raise DataError(source, None, f"the {self.name} ruleset plays no {CAPABILITIES[capability]}; "
                            f"rulesets that do: {', '.join(others) or 'none'}")

    # -- data ---------------------------------------------------------------------------------
    #: the ruleset's catalog class (a :class:`~brutal_sim.core.data.BaseCatalog`)
    catalog_type: type[BaseCatalog]

    def catalog(self) -> Any:
        """The bundled catalog."""
        return self.catalog_type.bundled()

    def fighter_names(self) -> list[str]:
        """Names of the bundled fighters."""
        return sorted(self.catalog().fighter_files)

    def load_fighter(self, ref: Any, role: str = "fighter") -> Any:
        """A fighter by catalog name or TOML path (a fighter object passes through)."""
        if isinstance(ref, self.fighter_type):
            return ref
        if not isinstance(ref, str):
            raise DataError(role, None, f"expected a fighter name, a TOML path or a {self.name} fighter, "
                            f"got {type(ref).__name__}")
        return self.catalog().fighter(ref, role)

    def fighter_data(self, fighter: Any) -> dict[str, Any]:
        """A loaded fighter as fighter-file data (catalog items expanded to inline tables), ready to
        be edited by :func:`brutal_sim.core.variants.set_path` and reloaded (the catalog's
        ``fighter_data``)."""
        return self.catalog().fighter_data(fighter)

    def fighter_from_data(self, data: dict[str, Any], source: str, default_name: str) -> Any:
        """Validate fighter-file data (``source`` names it in errors) into a fighter object."""
        return self.catalog().fighter_from_data(data, source, default_name)

    @abstractmethod
    def listings(self) -> dict[str, Listing]:
        """The catalog tables ``brutal-sim list TOPIC`` shows (``fighters`` first)."""

    def file_kinds(self) -> dict[str, FileKind]:
        """The kinds of input file the ruleset reads that have a JSON Schema (``brutal-sim schema
        KIND --ruleset NAME``): kind → :class:`~brutal_sim.core.schema_tools.FileKind`. A ruleset
        declares them in its ``schema.py``; this default has none (the scenario schema is shared)."""
        return {}

    # -- item slots ---------------------------------------------------------------------------
    def item_slot(self, name: Any, source: str = "vary") -> ItemSlot:
        """The item slot called ``name`` (:attr:`item_slots`), else a :class:`DataError` naming the
        slots."""
        for slot in self.item_slots:
            if slot.name == name:
                return slot
        known = [s.name for s in self.item_slots]
        shown = name if isinstance(name, str) else type(name).__name__
        raise DataError(source, None, f"unknown slot {shown!r}; {did_you_mean(name, known)}the {self.name} ruleset's "
                        f"item slots: {', '.join(known) or 'none'}")

    def slot_values(self, slot: ItemSlot) -> list[str]:
        """Every value the slot may hold by name: its catalog table's items, or its choices."""
        if slot.table:
            return list(getattr(self.catalog(), slot.table))
        return list(slot.choices)

    def slot_item(self, slot: ItemSlot, value: Any) -> Any:
        """The catalog item a value of ``slot`` names (its model object), the value itself when it is
        no catalog name (an inline table, a choice)."""
        if slot.table and isinstance(value, str):
            return getattr(self.catalog(), slot.table).get(value, value)
        return value

    def item_placed(self, data: dict[str, Any], slot: ItemSlot, item: Any) -> None:
        """What placing ``item`` (:meth:`slot_item`) in ``slot`` does to the rest of fighter-file
        ``data`` by the ruleset's rules, e.g. a two-handed weapon in the main hand empties the off
        hand. This default: nothing."""

    def place_item(self, data: dict[str, Any], slot: ItemSlot, value: Any, source: str) -> None:
        """Put ``value`` (an item's name, an inline table, ``none``) in ``slot`` of fighter-file
        ``data``: a list slot gains the item (``none``: unchanged), another slot holds it instead of
        its item (``none``: empty, where the slot may be empty); then :meth:`item_placed`."""
        if slot.many:
            if value == NO_ITEM:
                return
            items = list(data.get(slot.field) or [])
            held = [i.get("name") if isinstance(i, dict) else i for i in items]
            if value not in held:
                items.append(value)
            data[slot.field] = items
        elif value == NO_ITEM or value is None:
            if not slot.empty:
                raise DataError(source, slot.field, f"{slot.field} cannot be empty; give an item: "
                                f"{', '.join(self.slot_values(slot))}")
            data[slot.field] = None
            return
        else:
            data[slot.field] = value
        self.item_placed(data, slot, self.slot_item(slot, value))

    def held_item(self, fighter: Any, slot: ItemSlot) -> str:
        """The name of the item ``fighter`` holds in ``slot`` (``none`` when empty; for a list slot
        ``none``, the fighter as it is)."""
        if slot.many:
            return NO_ITEM
        value = self.fighter_data(fighter).get(slot.field)
        if isinstance(value, dict):
            value = value.get("name") or "custom"
        return NO_ITEM if value is None else str(value)

    # -- compile ------------------------------------------------------------------------------
    def prepare(self, a: Any, b: Any, rules: str | None = None, options: Mapping[str, str] | None = None,
                tactic_a: str | None = None, reaction_a: str | None = None,
                tactic_b: str | None = None, reaction_b: str | None = None) -> Prepared:
        """Load, validate and compile a matchup under the rules file and option flags: the fighters
        by reference, each with its tactic and reaction overridden where given (the catalog's
        ``with_behaviour``), then :meth:`compile_matchup`."""
        catalog = self.catalog()
        fa = catalog.with_behaviour(self.load_fighter(a, "fighter a"), tactic_a, reaction_a, "tactic_a")
        fb = catalog.with_behaviour(self.load_fighter(b, "fighter b"), tactic_b, reaction_b, "tactic_b")
        return self.compile_matchup(fa, fb, rules, options or {})

    @abstractmethod
    def compile_matchup(self, a: Any, b: Any, rules: str | None, options: Mapping[str, str]) -> Prepared:
        """Compile two loaded fighters under the rules file and option flags (its ``load_rules``)."""

    def rule_options(self, rules: str | None, options: Mapping[str, str]) -> RuleOptions:
        """The options resolved from defaults, the rules file and the option flags (what
        :meth:`compile_matchup` plays under). This default reads the rules file's ``[options]``;
        a ruleset whose rules files carry more (tables that set options) overrides it."""
        return read_rules_file(rules, self.default_options(), options, self.rules_file_tables)[0]

    # -- group fights (capability ``fights``) --------------------------------------------------
    def prepare_fight(self, side_a: Sequence[Any], side_b: Sequence[Any], rules: str | None = None,
                      options: Mapping[str, str] | None = None) -> PreparedFight:
        """Load, validate and compile a group fight: each side a list of fighter references
        (catalog names, TOML paths or fighter objects) in line order. A ruleset that declares
        ``fights`` overrides this; here it is the one-line :class:`DataError` of :meth:`require`."""
        self.require("fights", "fight")
        raise NotImplementedError(f"{self.name} declares fights but has no prepare_fight")

    def with_targeting(self, fighter: Any, policy: str, source: str, field: str) -> Any:
        """``fighter`` with its group-fight targeting policy set to ``policy`` (one of
        :attr:`targeting_policies`, else a :class:`DataError` naming ``source`` and ``field``)."""
        if policy not in self.targeting_policies:
            raise DataError(source, field, f"unknown targeting {policy!r}; allowed: "
                            f"{', '.join(self.targeting_policies) or 'none (no group fights)'}")
        return fighter.model_copy(update={"targeting": policy})

    def fight_behaviour(self, fighter: Any) -> dict[str, str]:
        """A group fighter's tactic, reaction and targeting policy as text."""
        return {**self.behaviour(fighter), "targeting": str(getattr(fighter, "targeting", ""))}

    @abstractmethod
    def behaviour(self, fighter: Any) -> dict[str, str]:
        """The fighter's tactic and reaction as text (``{"tactic": …, "reaction": …}``)."""

    @abstractmethod
    def check_attack(self, prepared: Prepared) -> None:
        """Raise :class:`DataError` if side a's tactic makes no attack that ``attack`` can measure."""

    #: the shot kinds ``attack --shot KIND`` (``api.attack(shot=…)``) may measure instead of the
    #: tactic's (:meth:`with_shot`); empty for a ruleset without a choice of shots
    shot_kinds: tuple[str, ...] = ()
    #: why :attr:`shot_kinds` is empty, said when ``--shot`` is given all the same
    no_shot_kinds = "it has no choice of shots"

    def check_shot(self, kind: Any) -> str:
        """``kind`` as ``attack --shot`` takes it: one of :attr:`shot_kinds`, else a
        :class:`DataError` naming ``shot`` and the allowed values."""
        if not isinstance(kind, str):
            raise DataError("shot", None, f"expected a shot kind (text), got {type(kind).__name__} {kind!r}")
        if not self.shot_kinds:
            raise DataError("shot", None, f"{kind!r}: the {self.name} ruleset measures no other shot "
                            f"({self.no_shot_kinds}); allowed: none")
        if kind not in self.shot_kinds:
            raise DataError("shot", None, f"unknown shot kind {kind!r}; allowed: {', '.join(self.shot_kinds)}")
        return kind

    def with_shot(self, prepared: Prepared, kind: str) -> Prepared:
        """``prepared`` with side a measured by a shot of kind ``kind`` (``attack --shot``) instead
        of its tactic's: :meth:`check_shot`, then the ruleset's own change (:meth:`shot_changed`)."""
        return self.shot_changed(prepared, self.check_shot(kind))

    def shot_changed(self, prepared: Prepared, kind: str) -> Prepared:
        """The ruleset's part of :meth:`with_shot` (``kind`` one of :attr:`shot_kinds`)."""
        raise NotImplementedError(f"{self.name} declares shot kinds but has no shot_changed")

    def attack_measure(self, prepared: Prepared) -> ShotMeasure | None:
        """The shot ``attack`` measures for this matchup (its kind and distance, for the header), or
        None when it measures a melee attack. This default: None."""
        return None

    #: the ``@njit`` enumeration of one attack (its ``exact.py``), as ``staticmethod(enumerate_attack)``
    exact: Callable[..., None]

    def exact_kernel(self) -> Callable[..., None]:
        """The ``@njit`` enumeration ``(fighters, options, *tables, outcomes float64[n outcomes],
        levels float64[n levels, n zones], damage float64[1])`` that adds the exact probabilities of
        one attack by side a on a fresh side b (and its mean final damage): :attr:`exact`."""
        return self.exact

    def enumerate_attack(self, compiled: Compiled) -> ExactAttack:
        """Exact distribution of one attack by side a on a fresh side b."""
        c = self.counters
        outcomes = np.zeros(len(c.outcomes))
        levels = np.zeros((len(c.levels), len(c.zones)))
        damage = np.zeros(1)
        self.exact_kernel()(*compiled.args(), outcomes, levels, damage)
        return ExactAttack(outcomes, levels, float(damage[0]))

    def warm_up(self, kind: str = "duel") -> None:
        """Compile (or load from numba's cache) the kernels of one kind of command by running them
        once on :attr:`warm_up_pair`: ``duel`` (the duel driver), ``paired`` (the driver of duels
        on common random numbers, which scenarios run), ``attack`` (the sampled single attacks'
        driver) or ``exact`` (the exact enumeration of a single attack). Each kind compiles only
        what its commands run."""
        c = self.prepare(*self.warm_up_pair, options={"round_cap": "1"}).compiled
        args = (*c.args(), np.uint64(0), np.int64(0), np.int64(1), 1, c.n_counters)
        if kind == "duel":
            c.kernels.duels(*args)
        elif kind == "paired":
            c.kernels.paired(c.fighters[None], c.options[None], *args[2:])
        elif kind == "attack":
            c.kernels.attacks(*args)
        elif kind == "exact":
            self.enumerate_attack(c)
        else:
            raise ValueError(f"kind must be duel, paired, attack or exact, not {kind!r}")

    # -- shared -------------------------------------------------------------------------------
    def stat_block(self, fighter: Any) -> list[tuple[str, str]]:
        """(label, text) rows describing a fighter in reports. This default lists the fighter-file
        fields; rulesets override it with a terser block."""
        rows = []
        for key, value in self.fighter_data(fighter).items():
            if key != "name":
                rows.append((key.replace("_", " "), _text(value)))
        return rows

    def default_options(self) -> RuleOptions:
        return RuleOptions.defaults(self.option_specs)

    def option_defaults(self) -> dict[str, str | int]:
        return {s.name: s.default for s in self.option_specs}


def _text(value: Any) -> str:
    """A fighter-file value as short text: tables by their name or as k v pairs, lists joined."""
    if value is None or value == [] or value == "":
        return "—"
    if isinstance(value, dict):
        return str(value["name"]) if value.get("name") else ", ".join(f"{k} {_text(v)}" for k, v in value.items())
    if isinstance(value, list):
        return "; ".join(_text(v) for v in value)
    return str(value)


def ruleset_names() -> list[str]:
    return list(RULESET_MODULES)


#: the rulesets that come with the package (the table above); :func:`unregister` keeps them
BUNDLED_RULESETS = tuple(RULESET_MODULES)


def register(name: str, module: str) -> None:
    """Register the ruleset module ``module`` (an importable module path whose ``RULESET`` is a
    :class:`Ruleset` named ``name``) under ``name`` for this process: ``--ruleset``, ``ruleset =``
    keys, catalog-name resolution and ``brutal-sim list rulesets`` then know it. The module is
    imported on first use, like the bundled ones. Registering a name again with the same module
    does nothing; another module under a registered name is a :class:`ValueError`.

    Dask workers never consult the table (a chunk names its kernel by import path), but they must
    be able to import ``module`` (installed, or on their ``PYTHONPATH``)."""
    if not name or not name.isidentifier():
        raise ValueError(f"a ruleset name is a Python identifier, got {name!r}")
    known = RULESET_MODULES.get(name)
    if known is not None and known != module:
        raise ValueError(f"ruleset {name!r} is already registered as {known}")
    RULESET_MODULES[name] = module


def unregister(name: str) -> None:
    """Remove a ruleset added by :func:`register` (an unknown name is ignored; a bundled one is a
    :class:`ValueError`)."""
    if name in BUNDLED_RULESETS:
        raise ValueError(f"{name!r} is a bundled ruleset; it cannot be unregistered")
    RULESET_MODULES.pop(name, None)


def did_you_mean(name: Any, known: Iterable[str]) -> str:
    """``"did you mean 'x'? "`` for the known name closest to a mistyped ``name`` (difflib), else ""."""
    if not isinstance(name, str) or len(name) > 100:
        return ""
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.5)
    return f"did you mean {close[0]!r}? " if close else ""


def get_ruleset(name: str, source: str = "ruleset") -> Ruleset:
    """The registered ruleset ``name``; an unknown name is a :class:`DataError`."""
    if name not in RULESET_MODULES:
        raise DataError(source, None, f"unknown ruleset {name!r}; {did_you_mean(name, RULESET_MODULES)}allowed: "
                        f"{', '.join(RULESET_MODULES)}")
    return importlib.import_module(RULESET_MODULES[name]).RULESET


def _file_ruleset(ref: str) -> str | None:
    """The ``ruleset`` key of a fighter file (None for catalog names and files without it)."""
    path = Path(ref)
    if not (ref.endswith(".toml") and exists(path, file=True)):
        return None
    data = peek_toml(path)  # None: the ruleset's own loader reports the problem with its file name
    value = None if data is None else data.get("ruleset")
    if value is None:
        return None
    if not isinstance(value, str) or value not in RULESET_MODULES:  # a list or table is no name either
        raise DataError(ref, "ruleset", f"unknown ruleset {value!r}; {did_you_mean(value, RULESET_MODULES)}allowed: "
                        f"{', '.join(RULESET_MODULES)}")
    return value


def resolve_ruleset(refs: Sequence[Any], explicit: str | None = None) -> Ruleset:
    """The ruleset of a run over fighters ``refs`` (names, paths or fighter objects).

    ``explicit`` wins; fighter files naming different rulesets are an error; catalog names pick
    the ruleset whose catalog has them all (Brutal first).
    """
    if explicit is not None:
        ruleset = get_ruleset(explicit)
    else:
        named = {r: _file_ruleset(r) for r in refs if isinstance(r, str)}
        objects = {getattr(r, "ruleset", None) for r in refs if not isinstance(r, str)} - {None}
        found = {v for v in named.values() if v} | objects
        if len(found) > 1:
            raise DataError(", ".join(str(r) for r in refs), "ruleset",
                            f"the fighters belong to different rulesets ({', '.join(sorted(found))}); "
                            "a duel needs one")
        if found:
            ruleset = get_ruleset(found.pop())
        else:
            names = [r for r in refs if isinstance(r, str) and named.get(r) is None and not r.endswith(".toml")]
            ruleset = get_ruleset(_ruleset_of_names(names))
    for ref in refs:
        kind = getattr(ref, "ruleset", None)
        if not isinstance(ref, str) and kind is not None and kind != ruleset.name:
            raise DataError(str(getattr(ref, "name", ref)), "ruleset",
                            f"is a {kind} fighter; this run uses the {ruleset.name} ruleset")
    return ruleset


def _ruleset_of_names(names: list[str]) -> str:
    if not names:
        return DEFAULT_RULESET
    candidates = [n for n in RULESET_MODULES if set(names) <= set(get_ruleset(n).fighter_names())]
    return candidates[0] if candidates else DEFAULT_RULESET
