"""brutal_sim.toolbox.jit: the tuned level's rule functions and the LLVM hook.

numba's own dispatcher compiles a function once per constant argument *value* it is called with
from compiled code (``Literal[int](0)``, ``Literal[int](-1)``, …); a rule gets one version per
argument types. The hook gives this package's functions internal linkage inside the gufunc of one
of this package's ``prange`` loops. The fence around both: tests/core/test_jit_fence.py.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit, types

from brutal_sim.rulesets.brutal import kernel
from brutal_sim.toolbox import jit
from brutal_sim.toolbox.jit import rule

tuned = pytest.mark.skipif(not jit.MODE.hook, reason=f"not the tuned level: {jit.MODE.reason}")
on_tested_numba = pytest.mark.skipif(not jit.MODE.tested, reason=jit.MODE.reason)


@rule
def _scaled(x, k):
    return x * k


@njit(cache=False)
def _three_constants(x):
    return _scaled(x, 2) + _scaled(x, -1) + _scaled(x, 0)


@on_tested_numba
def test_constant_arguments_share_one_version_typed_by_type():
    assert _three_constants(5) == 5
    assert _scaled.signatures == [(types.int64, types.int64)]


@on_tested_numba
def test_the_kernel_functions_called_with_constants_are_rules():
    from brutal_sim.rulesets.vereteno import kernel as vereteno
    from brutal_sim.rulesets.wfrp2e import kernel as wfrp2e

    for f in (kernel.attack, kernel.hit, kernel.toughness_check, kernel.gain_fatigue, kernel.ready,
              wfrp2e.attack, vereteno.attack):
        assert isinstance(f, jit.TypedDispatcher), f
        assert f.targetoptions.get("_nrt", True) is not jit.MODE.borrowed_arrays, f  # none at tuned, no-hook


def test_rule_functions_still_run_from_python():
    assert _scaled(np.int64(3), np.int64(4)) == 12


_LINKED = """
define linkonce_odr i64 @_ZN10brutal_sim6kernel4_hitE(i64 %x) {
  ret i64 %x
}
define linkonce_odr i64 @_ZN8__main__5otherE(i64 %x) {
  ret i64 %x
}
define i64 @_ZN10brutal_sim6kernel4_runE(i64 %x) {
  %y = call i64 @_ZN10brutal_sim6kernel4_hitE(i64 %x)
  %z = call i64 @_ZN10brutal_sim6kernel5_dieE(i64 %y)
  ret i64 %z
}
declare i64 @_ZN10brutal_sim6kernel5_dieE(i64)
"""


def _linkage(module, name):
    return module.get_function(name).linkage


def test_internalize_own_functions_only_linked_copies_of_this_package():
    """Copies linked in (linkonce_odr) of brutal_sim's functions become internal; another package's
    copies, the library's own function and declarations keep their linkage."""
    import llvmlite.binding as llvm

    module = llvm.parse_assembly(_LINKED)
    assert jit.internalize_own_functions(module, ".internal.x1") == 1
    # renamed: a function compiled later calling _hit must not be linked to this copy
    assert _linkage(module, "_ZN10brutal_sim6kernel4_hitE.internal.x1") == llvm.Linkage.internal
    assert "@_ZN10brutal_sim6kernel4_hitE.internal.x1(i64 %x)" in str(
        module.get_function("_ZN10brutal_sim6kernel4_runE"))
    assert "_ZN10brutal_sim6kernel4_hitE" not in {f.name for f in module.functions}
    assert _linkage(module, "_ZN8__main__5otherE") == llvm.Linkage.linkonce_odr
    assert _linkage(module, "_ZN10brutal_sim6kernel4_runE") == llvm.Linkage.external
    assert _linkage(module, "_ZN10brutal_sim6kernel5_dieE") == llvm.Linkage.external
    module.verify()


@tuned
def test_the_hook_rewrites_gufuncs_compiled_for_this_package_only(monkeypatch):
    """numba's optimisation of a library's final module goes through the hook, which internalizes
    this package's functions in a gufunc (a prange loop) compiled while one of this package's
    dispatchers is compiling, and leaves other libraries and other compiles as numba has them."""
    import types as pytypes

    import llvmlite.binding as llvm
    from numba.core.codegen import CPUCodeLibrary

    assert CPUCodeLibrary._optimize_final_module is jit.optimize_final_module
    optimised = []
    monkeypatch.setattr(jit, "_numba_optimize_final_module", lambda library: optimised.append(library.name))
    monkeypatch.setattr(jit.COMPILING._local, "stack", [], raising=False)
    linkages = []
    from brutal_sim.rulesets.brutal.kernel import run

    for name, compiling in (("__numba_parfor_gufunc_0x7f00", run),
                            ("__numba_parfor_gufunc_0x7f00", run),
                            ("_fight", run),
                            ("__numba_parfor_gufunc_0x7f01", _three_constants),
                            ("__numba_parfor_gufunc_0x7f02", None)):
        jit.COMPILING.stack[:] = [] if compiling is None else [compiling]
        library = pytypes.SimpleNamespace(name=name, _final_module=llvm.parse_assembly(_LINKED))
        jit.optimize_final_module(library)
        linkages.append({f.name: f.linkage for f in library._final_module.functions
                         if f.name.startswith("_ZN10brutal_sim6kernel4_hit")})
    assert optimised == ["__numba_parfor_gufunc_0x7f00", "__numba_parfor_gufunc_0x7f00", "_fight",
                         "__numba_parfor_gufunc_0x7f01", "__numba_parfor_gufunc_0x7f02"]
    (gufunc_1, linkage_1), = linkages[0].items()
    (gufunc_2, _), = linkages[1].items()
    assert linkage_1 == llvm.Linkage.internal and gufunc_1.startswith("_ZN10brutal_sim6kernel4_hitE.internal.")
    assert gufunc_1 != gufunc_2  # each gufunc's copies have names of their own
    untouched = {"_ZN10brutal_sim6kernel4_hitE": llvm.Linkage.linkonce_odr}
    assert linkages[2] == untouched  # not a gufunc
    assert linkages[3] == untouched  # a gufunc compiled for someone else's function
    assert linkages[4] == untouched  # a gufunc compiled outside any dispatcher


def test_mangled_prefix_is_how_numba_names_a_kernel_function():
    assert jit.mangled_prefix("brutal_sim.kernel._hit") == "_ZN10brutal_sim6kernel4_hit"
    assert _scaled(np.int64(3), np.int64(4)) == 12
    names = [_scaled.overloads[sig].fndesc.mangled_name for sig in _scaled.signatures]
    assert names and all(name.startswith(jit.mangled_prefix(f"{_scaled.py_func.__module__}._scaled") + "B")
                         for name in names)


def test_loop_inline_rule_functions_get_alwaysinline_in_a_gufunc():
    """Copies whose names begin with a prefix of ``always_inline`` (then B or E) are marked for
    LLVM to inline; a longer name sharing the letters is not (``_hitter``: ``7_hitter``)."""
    import llvmlite.binding as llvm

    ir = _LINKED + """
define linkonce_odr i64 @_ZN10brutal_sim6kernel7_hitterE(i64 %x) {
  ret i64 %x
}
"""
    module = llvm.parse_assembly(ir)
    assert jit.internalize_own_functions(module, ".s", {jit.mangled_prefix("brutal_sim.kernel._hit")}) == 2
    attributes = {f.name: [bytes(a) for a in f.attributes] for f in module.functions}
    assert attributes["_ZN10brutal_sim6kernel4_hitE.s"] == [b"alwaysinline"]
    assert attributes["_ZN10brutal_sim6kernel7_hitterE.s"] == []
    assert jit.mangled_prefix("brutal_sim.rulesets.brutal.kernel.attack._hit") in jit.LOOP_INLINE  # kernel.hit is one
    module.verify()
