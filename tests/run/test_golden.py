"""The golden battery (``golden_battery.py``): every recorded run plays again to bit-identical counters
(exact probabilities to the last bit), whatever moves inside the package."""

from __future__ import annotations

import json

import pytest
from golden_battery import BATTERY, GOLDEN, play

RECORDED = json.loads(GOLDEN.read_text(encoding="utf-8"))


def test_the_battery_is_recorded_whole() -> None:
    assert sorted(RECORDED) == sorted(BATTERY)
    assert len(BATTERY) >= 30


@pytest.mark.parametrize("name", sorted(BATTERY))
def test_golden_run_is_bit_identical(name: str) -> None:
    assert play(name) == RECORDED[name]
