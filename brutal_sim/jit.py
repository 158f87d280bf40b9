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
"""

from __future__ import annotations

from typing import Any, Callable

from numba import njit
from numba.core import types
from numba.core.registry import CPUDispatcher


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


#: A rule function numba compiles into each of its callers (inlining at numba's level, before LLVM).
#: For the rule functions on the hot path of a fight with one call site there (the turn, the
#: tactic's attack, the reaction, the wound; ``brutal_sim.kernel``) and for ``_attack_slot``, small
#: but called from those large functions, which LLVM no longer inlines into. A call between two
#: compiled functions passes every array argument as its whole structure (data pointer, shape,
#: strides, …): with the six arrays of the Brutal kernel about 46 machine words pushed and reloaded,
#: and LLVM does not inline large functions across numba's function boundaries. Inlining those
#: made the 1 vs 1 duel 1.6–1.7× faster (session 4, benchmarks/README.md). Each inlined call costs
#: compile time (numba retypes its caller), so small helpers that LLVM inlines by itself (``_wb``,
#: the dice ``_die`` and ``_roll_2d6``, whose rare rejection path is a separate function) stay
#: ``rule``. The attack (``_attack``) and the blow (``_hit``) stay calls: inlining them as well,
#: with or without the dice, gained at most a few per cent (within the noise of the machine) and
#: inlining the attack into the turn took the first compilation from 36 s to 177 s (session 5).
inline_rule = njit(cache=True, inline="always", _nrt=False)
