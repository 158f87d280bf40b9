"""The numba decorators of the kernels.

Rule functions allocate nothing, so they are compiled without numba's reference counting
(``_nrt=False``): their array arguments are borrowed from the caller. With reference counting,
every call between two compiled functions increments and decrements each array argument with
atomic operations — the kernel ran at half its speed (benchmarks/README.md). Only the drivers
that allocate (``_run_duels``, ``_run_attacks``, the enumeration) keep it.
"""

from numba import njit

#: A rule function: compiled once, cached on disk, no reference counting.
rule = njit(cache=True, _nrt=False)

#: A tiny rule function inlined into its callers by numba (the random number generator).
inline_rule = njit(cache=True, inline="always", _nrt=False)
