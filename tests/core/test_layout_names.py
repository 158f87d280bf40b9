"""Every ruleset's kernel names (options.py, layout.py) follow one rule: the slot of option ``name``
in the kernels' option row is ``O_<NAME>`` (the pair ``name_a`` / ``name_b`` is ``O_<NAME>``, side
s at the slot + s), every slot has its name, and no ``O_`` name is anything else. Checked for the
bundled rulesets and the toy built from the recipe of docs/rulesets.md."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

import pytest

from brutal_sim.core.ruleset import BUNDLED_RULESETS, RULESET_MODULES

TOY = Path(__file__).resolve().parents[1] / "toy"
PACKAGES = {name: RULESET_MODULES[name] for name in BUNDLED_RULESETS} | {"toy": "toy_ruleset"}


def _options(name: str) -> ModuleType:
    if name == "toy" and str(TOY) not in sys.path:
        sys.path.insert(0, str(TOY))
    return importlib.import_module(PACKAGES[name] + ".options")


def _slot_names(module: ModuleType) -> dict[str, int]:
    return {k: v for k, v in vars(module).items() if k.startswith("O_") and isinstance(v, int)}


@pytest.mark.parametrize("ruleset", sorted(PACKAGES))
def test_each_option_slot_is_named_o_and_the_option(ruleset: str) -> None:
    module = _options(ruleset)
    row = module.ROW
    wrong = []
    for attr, slot in _slot_names(module).items():
        option = attr[2:].lower()
        if option in row.slots:
            expected = row.slot(option)
        elif f"{option}_a" in row.slots:
            expected = row.pair(option)
        else:
            wrong.append(f"{attr}: no option {option!r} (nor the pair {option}_a / {option}_b)")
            continue
        if slot != expected:
            wrong.append(f"{attr} = {slot}, but the slot of {option!r} is {expected}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("ruleset", sorted(PACKAGES))
def test_every_option_slot_has_its_name(ruleset: str) -> None:
    module = _options(ruleset)
    named = set(_slot_names(module))
    missing = []
    for option in module.ROW.slots:
        base = option[:-2] if option[-2:] in ("_a", "_b") and f"{option[:-2]}_a" in module.ROW.slots \
            and f"{option[:-2]}_b" in module.ROW.slots else option
        if f"O_{base.upper()}" not in named:
            missing.append(f"O_{base.upper()}")
    assert not missing, f"slots without their O_ name: {', '.join(sorted(set(missing)))}"
