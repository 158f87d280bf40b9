"""brutal_sim.jit: rule functions get one machine version per argument types.

numba's own dispatcher compiles a function once per constant argument *value* it is called with
from compiled code (``Literal[int](0)``, ``Literal[int](-1)``, …): the Brutal kernel had 13 versions
of ``_hit`` and its first compilation took about two minutes (session 5, benchmarks/README.md).
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from brutal_sim import kernel
from brutal_sim.jit import rule


@rule
def _scaled(x, k):
    return x * k


@njit(cache=False)
def _three_constants(x):
    return _scaled(x, 2) + _scaled(x, -1) + _scaled(x, 0)


def test_constant_arguments_share_one_version_typed_by_type():
    assert _three_constants(5) == 5
    assert _scaled.signatures == [(types.int64, types.int64)]


def test_the_kernel_functions_called_with_constants_are_rules():
    from brutal_sim.jit import _TypedDispatcher
    from brutal_sim.rulesets.vereteno import kernel as vereteno
    from brutal_sim.rulesets.wfrp2e import kernel as wfrp2e

    for f in (kernel._attack, kernel._hit, kernel._toughness_check, kernel._gain_fatigue, kernel._ready,
              wfrp2e._attack, vereteno._attack):
        assert isinstance(f, _TypedDispatcher), f


def test_rule_functions_still_run_from_python():
    assert _scaled(np.int64(3), np.int64(4)) == 12
