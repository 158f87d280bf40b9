"""The numba decorators of the kernels.

Rule functions allocate nothing, so they are compiled without numba's reference counting
(``_nrt=False``): their array arguments are borrowed from the caller. With reference counting,
every call between two compiled functions increments and decrements each array argument with
atomic operations — the kernel ran at half its speed (benchmarks/README.md). Only the drivers
that allocate (``_run_duels``, ``_run_attacks``, the enumeration) keep it.

A rule function is compiled once per combination of argument *types*. numba's own dispatcher
compiles a function called from compiled code once per combination of constant argument *values*
as well (a literal ``0`` or ``-1`` is typed ``Literal[int](0)``): the Brutal kernel had 13 machine
versions of ``_hit`` and 5 of ``_attack``, and its first compilation took about two minutes. With
one version per types it takes about 30 s and runs as fast (session 5, benchmarks/README.md).

Each compiled function is a library of its own, and numba links a copy of every function it calls
into it with ``linkonce_odr`` linkage: LLVM may inline such a copy but must keep its signature, as
other code may call it. So a call between two rule functions passes every array argument as its
whole structure (data pointer, shape, strides, meminfo, …: about 46 machine words for the six
arrays of the Brutal kernel), used or not. The parallel loop of a driver (``prange``) is compiled
into a library of its own, the *gufunc*, that holds the whole kernel. Importing this module makes
numba give this package's functions in a gufunc internal linkage before it optimises the gufunc
(:func:`internalize_own_functions`): LLVM then sees every call to them and drops the arguments they
do not use, promotes the rest and inlines more. Same code, same results, the same compile time;
1.3× the duels per second of the Brutal kernel, 2.4× WFRP's, 1.6× Vereteno's (session 6,
benchmarks/README.md).
"""

from __future__ import annotations

import uuid
from typing import Any, Callable, Collection

import llvmlite.binding as llvm
from numba import njit
from numba.core import types
from numba.core.codegen import CPUCodeLibrary
from numba.core.registry import CPUDispatcher

#: How numba's mangled names of this package's functions begin (``brutal_sim.kernel._hit`` is
#: ``_ZN10brutal_sim6kernel4_hit…``).
OWN_PREFIX = "_ZN10brutal_sim"
#: How numba names the library of a ``prange`` loop.
GUFUNC_PREFIX = "__numba_parfor_gufunc"


class _TypedDispatcher(CPUDispatcher):
    """A CPU dispatcher that types constant arguments of calls from compiled code by their type
    (``int64``), not by their value (``Literal[int](0)``), so that it compiles one version per
    argument types."""

    def get_call_template(self, args: tuple, kws: dict) -> tuple:
        return super().get_call_template(tuple(types.unliteral(a) for a in args),
                                         {k: types.unliteral(v) for k, v in kws.items()})


def rule(func: Callable[..., Any]) -> CPUDispatcher:
    """A rule function: compiled once per argument types, cached on disk, no reference counting."""
    dispatcher = _TypedDispatcher(py_func=func, locals={},
                                  targetoptions={"nopython": True, "boundscheck": None, "_nrt": False})
    dispatcher.enable_caching()
    return dispatcher


#: Beginnings of the mangled names of the functions made by :func:`loop_inline_rule`.
_LOOP_INLINE: set[str] = set()


def mangled_prefix(qualified_name: str) -> str:
    """How numba's mangled name of ``qualified_name`` (``brutal_sim.kernel._hit``) begins:
    ``_ZN10brutal_sim6kernel4_hit``, then ``B`` (its ABI tags) or ``E``."""
    return "_ZN" + "".join(f"{len(part)}{part}" for part in qualified_name.split("."))


def loop_inline_rule(func: Callable[..., Any]) -> CPUDispatcher:
    """A :func:`rule` that LLVM inlines into each of its callers inside a gufunc (module docstring);
    elsewhere it is called. Unlike :data:`inline_rule` (numba's inlining, which retypes the caller)
    this costs no compile time: for the blow (``_hit``), 7 % fewer instructions and 5–7 % more
    duels per second (session 6, benchmarks/README.md)."""
    _LOOP_INLINE.add(mangled_prefix(f"{func.__module__}.{func.__qualname__}"))
    return rule(func)


#: A rule function numba compiles into each of its callers (inlining at numba's level, before LLVM).
#: For the rule functions on the hot path of a fight with one call site there (the turn, the
#: tactic's attack, the reaction, the wound; ``brutal_sim.kernel``) and for ``_attack_slot``, small
#: but called from those large functions, which LLVM no longer inlines into. A call between two
#: compiled functions passes every array argument as its whole structure (data pointer, shape,
#: strides, …): with the six arrays of the Brutal kernel about 46 machine words pushed and reloaded,
#: and LLVM does not inline large functions across numba's function boundaries (session 4; since
#: session 6 LLVM drops the unused words inside a gufunc, see the module docstring). Inlining those
#: made the 1 vs 1 duel 1.6–1.7× faster (session 4, benchmarks/README.md). Each inlined call costs
#: compile time (numba retypes its caller), so small helpers that LLVM inlines by itself (``_wb``,
#: the dice ``_die`` and ``_roll_2d6``, whose rare rejection path is a separate function) stay
#: ``rule``. The attack (``_attack``) and the blow (``_hit``) stay calls here (since session 6 LLVM
#: inlines the blow inside a gufunc: :func:`loop_inline_rule`): inlining them as well,
#: with or without the dice, gained at most a few per cent (within the noise of the machine) and
#: inlining the attack into the turn took the first compilation from 36 s to 177 s (session 5).
inline_rule = njit(cache=True, inline="always", _nrt=False)


def internalize_own_functions(module: llvm.ModuleRef, suffix: str, always_inline: Collection[str] = ()) -> int:
    """Give the copies of this package's functions that numba linked into ``module`` (definitions
    with ``linkonce_odr`` linkage) internal linkage, so that LLVM may change their signatures, and
    names ending in ``suffix``; those whose names begin with one of ``always_inline``
    (:func:`mangled_prefix`) also LLVM's ``alwaysinline``. Returns how many.

    The new names matter: numba's JIT linker records the local symbols of an object too, and a
    function compiled later that calls, say, ``_attack`` must not be linked to a copy whose
    signature LLVM changed. (profile.py's demangling ignores the suffix.)
    """
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


#: numba's own step (a private method; present in numba 0.68, which this was measured with), None if absent.
_numba_optimize_final_module = getattr(CPUCodeLibrary, "_optimize_final_module", None)


def _optimize_final_module(library: CPUCodeLibrary) -> None:
    """numba's optimisation of a library's final module, after :func:`internalize_own_functions` in
    a gufunc (a ``prange`` loop; module docstring). Other libraries are optimised as numba does."""
    module = getattr(library, "_final_module", None)
    if str(getattr(library, "name", "")).startswith(GUFUNC_PREFIX) and module is not None:
        internalize_own_functions(module, f".internal.{uuid.uuid4().hex}", _LOOP_INLINE)
    _numba_optimize_final_module(library)


if _numba_optimize_final_module is not None:  # a numba without the step: the same code, only slower
    CPUCodeLibrary._optimize_final_module = _optimize_final_module
