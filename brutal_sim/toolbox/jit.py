"""The numba decorators of the kernels, and how far they reach into numba.

Every compiled function of the rulesets goes through one of these decorators:

- :func:`rule`: a rule step called from compiled code. It allocates nothing.
- :func:`inline_rule`: a rule step numba compiles into each of its callers.
- :func:`loop_inline_rule`: a :func:`rule` that LLVM inlines into its callers inside a parallel loop.
- :func:`driver`: a function called from Python (a run's driver, an exact enumeration); it may
  allocate, and ``driver(parallel=True)`` holds a ``prange`` loop.

They use four numba internals, none of which changes what a kernel computes (docs/engine.md,
"The numba hook"):

1. One machine version per argument *types* (:class:`TypedDispatcher`, overriding
   ``get_call_template``). numba's own dispatcher also makes one per combination of constant
   argument *values* of a call from compiled code (a literal ``0`` is typed ``Literal[int](0)``):
   13 versions of the Brutal blow, and the first compile of the Brutal duel takes about 3.7× as long
   (176 s of CPU against 46 s, docs/engine.md).
2. A disk cache keyed on the sources (:class:`_SourceKeyedCache`, overriding ``_index_key`` and
   replacing numba's index and data files). numba keys a function's cached machine code on its own
   bytecode and file only, so a change in a function it calls from another file, or of a constant
   it imports (``layout.py``), would load stale code. The key here adds :func:`cache_tag`: a hash
   of this file and of the sources of the function's module and of every module of its package or
   of ``brutal_sim`` that it imports, directly or not (:func:`sources_digest`; each file hashed as
   its module is imported, :func:`_snapshot_sources`), and the level (``tuned``, ``no-hook`` or
   ``plain``). Each tag's machine code is kept in a folder of its own, one file per key, written
   atomically and checked when loaded (:mod:`brutal_sim.toolbox.cache`): two versions of the
   sources, or two levels, never share a file, so they never load each other's code. Where none of
   numba's folders can be written (a read-only install and home), one that holds this package's
   cached code is read without being written (:class:`_ReadOnlyLocator`); code compiled then is not
   kept, said once in one line (:data:`~brutal_sim.toolbox.cache.NOT_KEPT`; on an untested numba
   when the functions are defined).
3. Rule functions compiled without numba's reference counting (the private option ``_nrt=False``):
   their array arguments are borrowed from the caller. With it, every call between two compiled
   functions increments and decrements each array argument atomically: half the speed
   (benchmarks/README.md, "Reference counting, penalties, arrays per call").
4. The LLVM hook (:func:`internalize_own_functions`, replacing numba's
   ``CPUCodeLibrary._optimize_final_module``). numba links a copy of every function a library calls
   into it with ``linkonce_odr`` linkage, so LLVM must keep each copy's signature and a call passes
   every array argument as its whole structure (about 46 machine words for the six arrays of the
   Brutal kernel). In the library numba makes of a driver's ``prange`` loop (the *gufunc*, which
   holds the whole kernel) the hook gives those copies internal linkage before LLVM optimises it:
   LLVM drops the arguments a function does not read and inlines more; copies of
   :func:`loop_inline_rule` functions also get ``alwaysinline``. 1.3× the duels per second of the
   Brutal kernel, 2.4× WFRP's, 1.6× Vereteno's, the same compile time (benchmarks/README.md, "The
   kernel as one unit for LLVM"). It acts only on a gufunc compiled while one of this package's
   dispatchers is the one compiling (numba's public event API says which): a user's own functions,
   parallel or not, are optimised as numba does.

The fence (:data:`MODE`, from :func:`jit_mode`), the level chosen by ``BRUTAL_SIM_JIT``:

- ``tuned`` (the default) on a numba version in :data:`TESTED_NUMBA`: all four.
- ``no-hook``: all but 4, the LLVM hook, the riskiest part, dropped alone.
- ``plain``: without 3 and 4 (the two that change the machine code of a version); 1 and 2 stay, as
  they only choose which versions are compiled and which cached code is loaded.
  ``BRUTAL_SIM_PLAIN_JIT=1``, the former switch, means ``plain`` when ``BRUTAL_SIM_JIT`` is unset.
  An unknown ``BRUTAL_SIM_JIT`` prints one warning line to stderr and compiles ``plain``.
- The three give the same counters (tests/core/test_jit_fence.py), and keep their machine code
  apart in the cache.
- On any other numba: none of them, whatever the level; numba's public ``njit`` with its
  documented options and its own disk cache. The same kernels, slower to compile and to run.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import os
import sys
import threading
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Collection, Mapping

import numba
from numba import njit

from .cache import note_not_kept

#: The numba minor versions the internals are used on (their patch releases included, as the pin in
#: pyproject.toml allows): the fence test (``tests/core/test_jit_fence.py``) and the whole suite
#: pass on each, at every level. Elsewhere only numba's public API is used.
TESTED_NUMBA = ("0.68",)
#: The environment variable that chooses the level (:data:`LEVELS`) on a tested numba.
JIT_ENV = "BRUTAL_SIM_JIT"
#: The former switch, kept as a synonym: set to anything but ``0``/``false``/``no``/``off`` and
#: with :data:`JIT_ENV` unset, it means ``BRUTAL_SIM_JIT=plain``.
PLAIN_ENV = "BRUTAL_SIM_PLAIN_JIT"
#: The levels, from the fastest to the one nearest to numba's own compile (module docstring).
LEVELS = ("tuned", "no-hook", "plain")


@dataclass(frozen=True)
class JitMode:
    """How the kernels are compiled in this process."""

    #: ``tuned``, ``no-hook`` or ``plain`` (:data:`LEVELS`); ``plain`` on an untested numba.
    level: str
    #: A tested numba: rule functions get one version per argument types, and machine code is
    #: cached under :func:`cache_tag`. Else only numba's public decorators and disk cache are used.
    tested: bool
    #: Why, in words.
    reason: str
    #: One line for the user when the environment asked for something unknown, else None.
    warning: str | None = None

    @property
    def hook(self) -> bool:
        """Whether the LLVM hook rewrites this package's gufuncs (``tuned``)."""
        return self.tested and self.level == "tuned"

    @property
    def borrowed_arrays(self) -> bool:
        """Whether rule functions are compiled without reference counting (``tuned``, ``no-hook``)."""
        return self.tested and self.level in ("tuned", "no-hook")

    @property
    def build(self) -> str:
        """The level: the part of the cache key that keeps the levels' machine code apart."""
        return self.level


def _switched_on(value: str) -> bool:
    return value.strip().lower() not in ("", "0", "false", "no", "off")


def jit_mode(numba_version: str, environ: Mapping[str, str]) -> JitMode:
    """The mode for a numba version and an environment (module docstring, the fence).

    ``BRUTAL_SIM_JIT`` names the level; unset or empty, ``BRUTAL_SIM_PLAIN_JIT=1`` means ``plain``
    and otherwise the level is ``tuned``. An unknown value gives the ``plain`` level (the one that
    changes nothing in numba's machine code) and a one-line :attr:`JitMode.warning`."""
    raw = environ.get(JIT_ENV, "")
    value, warning = raw.strip().lower(), None
    if value in LEVELS:
        level, why = value, f"{JIT_ENV}={value}"
    elif value:
        level, why = "plain", f"{JIT_ENV}={raw!r} is unknown"
        warning = (f"warning: {JIT_ENV}={raw!r} is not one of {', '.join(LEVELS)}; "
                   "the kernels are compiled at the plain level")
    elif _switched_on(environ.get(PLAIN_ENV, "")):
        level, why = "plain", f"{PLAIN_ENV} is set (the former name of {JIT_ENV}=plain)"
    else:
        level, why = "tuned", "the default level"
    if ".".join(numba_version.split(".")[:2]) not in TESTED_NUMBA:
        return JitMode("plain", False, f"numba {numba_version} is not among the tested versions {TESTED_NUMBA}",
                       warning)
    return JitMode(level, True, f"{why}, on numba {numba_version} (a tested version)", warning)


#: This process's mode, fixed when the module is imported (the kernels are decorated then).
MODE = jit_mode(numba.__version__, os.environ)
# every compile said and timed (brutal_sim.toolbox.compiling); imported by name, so that it is no part of
# the kernels' sources (sources_digest reads import statements): it changes no machine code, and a change
# of it must not make every kernel compile again
importlib.import_module(f"{__package__}.compiling").register()
if MODE.warning:
    print(MODE.warning, file=sys.stderr)

#: Beginnings of the mangled names of the functions made by :func:`loop_inline_rule`.
LOOP_INLINE: set[str] = set()
#: How numba's mangled names of this package's functions begin (``brutal_sim.toolbox.rng.roll_die`` is
#: ``_ZN10brutal_sim7toolbox3rng8roll_die…``).
OWN_PREFIX = "_ZN10brutal_sim"
#: How numba names the library of a ``prange`` loop.
GUFUNC_PREFIX = "__numba_parfor_gufunc"
#: Gufunc libraries the hook has rewritten in this process, and the function copies it internalized.
HOOKED = {"libraries": 0, "functions": 0}


# -- the sources a function is built from ---------------------------------------------------------

_PACKAGE_ROOT = "brutal_sim"
_DIGESTS: dict[str, str] = {}
#: The hash of each source file, taken once: at the first decoration after its module was imported
#: (:func:`_snapshot_sources`), or when a digest first needs it.
_FILE_DIGESTS: dict[str, str] = {}
#: How many modules ``sys.modules`` held at the last snapshot, and the packages snapshotted.
_SNAPSHOT_SIZE = [0]
_SNAPSHOTTED: set[str] = set()


def file_digest(path: str) -> str:
    """The hash of a source file as it was when first hashed in this process."""
    if path not in _FILE_DIGESTS:
        _FILE_DIGESTS[path] = hashlib.sha256(Path(path).read_bytes()).hexdigest()
    return _FILE_DIGESTS[path]


def _module_file(name: str) -> str | None:
    """The ``.py`` file of an imported module, or None."""
    path = getattr(sys.modules.get(name), "__file__", None)
    return path if path and path.endswith(".py") else None


def _snapshot_sources(package: str) -> None:
    """Hash the files of the imported modules of ``brutal_sim`` and of ``package`` not hashed yet.

    Called as each kernel function is decorated, moments after its module and the modules it
    imports were read: the cache key then describes the sources this process runs even if the
    files change before the first compile (a checkout switched, a release installed in place while
    a process is running). Hashed only at the first compile, the key would be the new sources' and
    the machine code the old ones', and a later process of the new version would load it."""
    if len(sys.modules) == _SNAPSHOT_SIZE[0] and package in _SNAPSHOTTED:
        return
    _SNAPSHOT_SIZE[0] = len(sys.modules)
    _SNAPSHOTTED.add(package)
    roots = {_PACKAGE_ROOT, package}
    for name in list(sys.modules):
        if name.partition(".")[0] in roots:
            path = _module_file(name)
            if path is not None:
                file_digest(path)


def _imported_names(path: str, module: str) -> set[str]:
    """The modules that ``module`` (its source at ``path``) imports, anywhere in it, as absolute
    names; for ``from m import x`` both ``m`` and ``m.x`` (which counts only if it is a module)."""
    tree = ast.parse(Path(path).read_bytes(), path)
    package = module if path.endswith("__init__.py") else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1])
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            names.add(target)
            names.update(f"{target}.{alias.name}" for alias in node.names)
    return names


def sources_digest(module: str) -> str:
    """A hash of this file and of the sources of ``module`` and of every module of ``module``'s
    top-level package or of ``brutal_sim`` that it imports, directly or through others (imported
    modules only: the function's module is loaded when numba first looks in its cache)."""
    if module in _DIGESTS:
        return _DIGESTS[module]
    packages = {_PACKAGE_ROOT, module.partition(".")[0]}
    files: dict[str, str] = {}
    todo = [module]
    while todo:
        name = todo.pop()
        path = _module_file(name)
        if name in files or path is None:
            continue
        files[name] = path
        todo.extend(n for n in _imported_names(path, name) if n.partition(".")[0] in packages)
    files[__name__] = __file__
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(f"{name}\0{file_digest(files[name])}\0".encode())
    _DIGESTS[module] = digest.hexdigest()
    return _DIGESTS[module]


def cache_tag(py_func: Callable[..., Any]) -> tuple[str, str, str]:
    """What :class:`_SourceKeyedCache` adds to numba's index key of ``py_func``: the sources it is
    built from (:func:`sources_digest`) and the level (:attr:`JitMode.level`). It also names the
    folder of the cache the machine code is kept in (:func:`brutal_sim.toolbox.cache.version_dir_name`)."""
    return (_PACKAGE_ROOT, sources_digest(py_func.__module__), MODE.level)


def mangled_prefix(qualified_name: str) -> str:
    """How numba's mangled name of ``qualified_name`` (``brutal_sim.kernel._hit``) begins:
    ``_ZN10brutal_sim6kernel4_hit``, then ``B`` (its ABI tags) or ``E``."""
    return "_ZN" + "".join(f"{len(part)}{part}" for part in qualified_name.split("."))


def internalize_own_functions(module: Any, suffix: str, always_inline: Collection[str] = ()) -> int:
    """Give the copies of this package's functions that numba linked into ``module`` (an llvmlite
    ``ModuleRef``; definitions with ``linkonce_odr`` linkage) internal linkage, so that LLVM may
    change their signatures, and names ending in ``suffix``; those whose names begin with one of
    ``always_inline`` (:func:`mangled_prefix`) also LLVM's ``alwaysinline``. Returns how many.

    The new names matter: numba's JIT linker records the local symbols of an object too, and a
    function compiled later that calls, say, ``_attack`` must not be linked to a copy whose
    signature LLVM changed. (benchmarks/profile.py's demangling ignores the suffix.)
    """
    import llvmlite.binding as llvm

    count = 0
    for function in module.functions:
        if (not function.is_declaration and function.name.startswith(OWN_PREFIX)
                and function.linkage == llvm.Linkage.linkonce_odr):
            function.linkage = llvm.Linkage.internal
            if any(function.name.startswith(prefix) and function.name[len(prefix):len(prefix) + 1] in ("B", "E")
                   for prefix in always_inline):
                function.add_function_attribute("alwaysinline")
            function.name = function.name + suffix
            count += 1
    return count


# -- the fenced numba internals (a tested numba only) ---------------------------------------------

if MODE.tested:
    from numba.core import types
    from numba.core.caching import CompileResultCacheImpl, FunctionCache, _CacheLocator, _SourceFileBackedLocatorMixin
    from numba.core.registry import CPUDispatcher
    from numba.core.serialize import dumps

    from .cache import VersionedFiles, manifest as cache_manifest, numba_folders, package_digest, readable_folder

    package_digest()  # the package's sources as imported, for the manifests

    class _ReadOnlyLocator(_SourceFileBackedLocatorMixin, _CacheLocator):
        """numba's folder for a source file when none can be written (a read-only install and home):
        the first that holds this package's cached code (:func:`~brutal_sim.toolbox.cache.readable_folder`),
        else numba's last choice, read and never written (a save is skipped and said once,
        :meth:`VersionedFiles.save`). numba's own locators accept only folders they can write."""

        def __init__(self, py_func: Callable[..., Any], py_file: str, folder: str) -> None:
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            self._folder = folder

        def ensure_cache_path(self) -> None:
            """Nothing is made: the folder is read only."""

        def get_cache_path(self) -> str:
            return self._folder

        @classmethod
        def from_function(cls, py_func: Callable[..., Any], py_file: str) -> "_ReadOnlyLocator | None":
            if not os.path.exists(py_file):
                return None
            source_dir = os.path.dirname(os.path.abspath(py_file))
            return cls(py_func, py_file, str(readable_folder(source_dir) or numba_folders(source_dir)[-1]))

    class _CacheImpl(CompileResultCacheImpl):
        """numba's cache of compile results, with :class:`_ReadOnlyLocator` after numba's locators."""

        _locator_classes = [*CompileResultCacheImpl._locator_classes, _ReadOnlyLocator]

    class _SourceKeyedCache(FunctionCache):
        """numba's disk cache of a function, its index key extended by :func:`cache_tag`, its files
        those of :class:`~brutal_sim.toolbox.cache.VersionedFiles` (a folder per version of the
        sources and level, a file per key, written atomically, checked when loaded) in the place
        of numba's index and numbered data files, which every version of the sources at one path
        shares."""

        _impl_class = _CacheImpl

        def __init__(self, py_func: Callable[..., Any]) -> None:
            super().__init__(py_func)
            module = py_func.__module__
            self._cache_file = VersionedFiles(
                self._cache_path, self._impl.filename_base, self._impl.locator.get_source_stamp(),
                lambda tag: cache_manifest(module, tag[1], tag[2], numba.__version__), dumps)

        def _index_key(self, sig: Any, codegen: Any) -> tuple:
            return (*super()._index_key(sig, codegen), cache_tag(self._py_func))

    class _Dispatcher(CPUDispatcher):
        """numba's CPU dispatcher, cached with :class:`_SourceKeyedCache`."""

        def enable_caching(self) -> None:
            self._cache = _SourceKeyedCache(self.py_func)

    class TypedDispatcher(_Dispatcher):
        """A dispatcher that types constant arguments of calls from compiled code by their type
        (``int64``), not by their value (``Literal[int](0)``): one version per argument types."""

        def get_call_template(self, args: tuple, kws: dict) -> tuple:
            return super().get_call_template(tuple(types.unliteral(a) for a in args),
                                             {k: types.unliteral(v) for k, v in kws.items()})

    def _make(func: Callable[..., Any], cls: type, cache: bool, **options: Any) -> Any:
        """What ``njit(cache=cache, **options)(func)`` does, with dispatcher class ``cls``."""
        dispatcher = cls(py_func=func, locals={}, targetoptions={"nopython": True, "boundscheck": None, **options})
        if cache:
            dispatcher.enable_caching()
        return dispatcher

if MODE.hook:
    from numba.core import event
    from numba.core.codegen import CPUCodeLibrary

    class _Compiling(event.Listener):
        """The dispatchers compiling in this thread, innermost last (numba's ``numba:compile``)."""

        def __init__(self) -> None:
            self._local = threading.local()

        @property
        def stack(self) -> list:
            if not hasattr(self._local, "stack"):
                self._local.stack = []
            return self._local.stack

        def on_start(self, ev: Any) -> None:
            self.stack.append(ev.data["dispatcher"])

        def on_end(self, ev: Any) -> None:
            self.stack.pop()

        def own(self) -> bool:
            """Whether the innermost compile is one of this package's functions."""
            return bool(self.stack) and isinstance(self.stack[-1], _Dispatcher)

    COMPILING = _Compiling()
    event.register("numba:compile", COMPILING)

    #: numba's own optimisation of a library's final module.
    _numba_optimize_final_module = CPUCodeLibrary._optimize_final_module

    def optimize_final_module(library: Any) -> None:
        """numba's optimisation of a library's final module, after :func:`internalize_own_functions`
        in a gufunc compiled for one of this package's functions. Other libraries, and every library
        of a function compiled by anyone else, are optimised as numba does."""
        if COMPILING.own() and str(library.name).startswith(GUFUNC_PREFIX):
            HOOKED["functions"] += internalize_own_functions(library._final_module, f".internal.{uuid.uuid4().hex}",
                                                             LOOP_INLINE)
            HOOKED["libraries"] += 1
        _numba_optimize_final_module(library)

    CPUCodeLibrary._optimize_final_module = optimize_final_module


# -- the decorators --------------------------------------------------------------------------------

def _no_locator(exc: RuntimeError) -> bool:
    """Whether ``exc`` is numba's refusal to cache a function for want of a folder (its locators)."""
    return "no locator available" in str(exc)


def _compiled(func: Callable[..., Any], *, typed: bool = False, rule_options: bool = False,
              cache: bool = True, **options: Any) -> Any:
    """``func`` compiled as this module's mode says: ``typed`` for one version per argument types
    (a tested numba), ``rule_options`` for no reference counting (levels ``tuned`` and
    ``no-hook``). A cached function's module and the modules it imports are hashed now
    (:func:`_snapshot_sources`)."""
    if MODE.tested:
        if MODE.borrowed_arrays and rule_options:
            options["_nrt"] = False
        if cache:
            _snapshot_sources(func.__module__.partition(".")[0])
        return _make(func, TypedDispatcher if typed else _Dispatcher, cache, **options)
    try:
        return njit(cache=cache, **options)(func)
    except RuntimeError as exc:  # numba's cache has no folder it can write: compiled in this process only
        if not (cache and _no_locator(exc)):
            raise
        note_not_kept()
        return njit(**options)(func)


def rule(func: Callable[..., Any]) -> Any:
    """A rule function: allocates nothing; one machine version per argument types (a tested numba),
    cached on disk."""
    return _compiled(func, typed=True, rule_options=True)


def loop_inline_rule(func: Callable[..., Any]) -> Any:
    """A :func:`rule` that LLVM inlines into each of its callers inside a gufunc (module docstring);
    elsewhere it is called. Unlike :func:`inline_rule` (numba's inlining, which retypes the caller)
    this costs no compile time: for the blow (``_hit``), 7 % fewer instructions and 5–7 % more
    duels per second (benchmarks/README.md)."""
    LOOP_INLINE.add(mangled_prefix(f"{func.__module__}.{func.__qualname__}"))
    return rule(func)


def inline_rule(func: Callable[..., Any]) -> Any:
    """A rule function numba compiles into each of its callers (inlining at numba's level, before
    LLVM).

    For the rule functions on the hot path of a fight with one call site there (the turn, the
    tactic's attack, the reaction, the wound) and for small functions called from those large
    ones, which LLVM does not inline into. A call between two compiled functions passes every array
    argument as its whole structure, and LLVM does not inline large functions across numba's
    function boundaries outside a gufunc. Each inlined call costs compile time (numba retypes its
    caller), so small helpers that LLVM inlines by itself (``_wb``, the dice ``roll_die`` and
    ``roll_2d6``, whose rare rejection path is a function of its own) are :func:`rule`. The attack
    (``_attack``) and the blow (``_hit``) are calls: inlining them as well gains at most a few per
    cent, and inlining the attack into the turn makes the first compile about five times as long
    (177 s against 36 s, benchmarks/README.md).
    """
    return _compiled(func, rule_options=True, inline="always")


def driver(func: Callable[..., Any] | None = None, *, parallel: bool = False, cache: bool = True) -> Any:
    """A function called from Python: a run's driver or an exact enumeration. It may allocate
    (numba's reference counting stays on); ``parallel=True`` for one that holds a ``prange`` loop,
    whose gufunc the hook rewrites. ``@driver`` or ``@driver(parallel=True)``."""
    if func is None:
        return lambda f: _compiled(f, cache=cache, parallel=parallel)
    return _compiled(func, cache=cache, parallel=parallel)
