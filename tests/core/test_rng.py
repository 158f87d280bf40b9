"""The random number generator: known answers against the C reference, unbiased dice."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from numba import njit
from scipy import stats

from brutal_sim.toolbox.rng import next_u64, roll_2d6, roll_die, seed_duel

# First 8 outputs for (seed, duel index), printed by tests/data/xoshiro_ref.c (Vigna's reference
# xoshiro256** and splitmix64, seeded as documented in brutal_sim/toolbox/rng.py).
KNOWN = {
    (0, 0): [18110106563157542208, 8650457082529208451, 3032169436225125478, 5211024849135804362,
             3138158484029544281, 1169695039734288304, 13516526439835347870, 4670220189379302279],
    (7, 0): [5478278237059175447, 18095852408168305621, 5918088815361298344, 2819174342053768153,
             17272647085681602494, 8290538141598329714, 7718794964881063043, 11364054552501302442],
    (7, 123456789): [14639229168597623305, 10067422383083825875, 1820456377787409900, 13016249440847888935,
                     7909289028121555334, 7283421068894042766, 5703669600822802440, 7318632811089128404],
    (2**64 - 1, 5): [10817704664142858974, 13849120132106731481, 7664235281753641511, 15439199486637367110,
                     8131338347119015334, 9966658936320993277, 11783705192887591442, 13712160916925391921],
}


@njit
def _outputs(seed, index, n):
    st = np.empty(4, dtype=np.uint64)
    seed_duel(st, seed, index)
    out = np.empty(n, dtype=np.uint64)
    for k in range(n):
        out[k] = next_u64(st)
    return out


@njit
def _dice(seed, sides, n):
    st = np.empty(4, dtype=np.uint64)
    counts = np.zeros(sides + 1, dtype=np.int64)
    seed_duel(st, seed, 0)
    for _ in range(n):
        counts[roll_die(st, sides)] += 1
    return counts


@njit
def _two_d6(seed, n):
    st = np.empty(4, dtype=np.uint64)
    counts = np.zeros(13, dtype=np.int64)
    naturals = np.zeros(2, dtype=np.int64)
    seed_duel(st, seed, 0)
    for _ in range(n):
        a, b = roll_2d6(st)
        counts[a + b] += 1
        if a == 6 and b == 6:
            naturals[0] += 1
        if a == 1 and b == 1:
            naturals[1] += 1
    return counts, naturals


@pytest.mark.parametrize("key", list(KNOWN))
def test_known_answers(key):
    seed, index = key
    got = _outputs(np.uint64(seed), np.int64(index), 8)
    assert [int(x) for x in got] == KNOWN[key]


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc to build the C reference")
def test_against_c_reference(tmp_path: Path):
    exe = tmp_path / "xref"
    src = Path(__file__).resolve().parents[1] / "data" / "xoshiro_ref.c"
    subprocess.run(["gcc", "-O2", "-o", str(exe), str(src)], check=True)
    rng = np.random.default_rng(1)
    pairs = [(int(rng.integers(0, 2**63)), int(rng.integers(0, 2**40))) for _ in range(20)]
    args = [str(x) for p in pairs for x in p]
    lines = subprocess.run([str(exe), *args], check=True, capture_output=True, text=True).stdout.splitlines()
    for (seed, index), line in zip(pairs, lines):
        assert [int(x) for x in _outputs(np.uint64(seed), np.int64(index), 8)] == [int(x) for x in line.split()]


def test_streams_differ_by_index_and_seed():
    a = _outputs(np.uint64(1), np.int64(0), 4)
    b = _outputs(np.uint64(1), np.int64(1), 4)
    c = _outputs(np.uint64(2), np.int64(0), 4)
    assert not np.array_equal(a, b) and not np.array_equal(a, c)


@pytest.mark.parametrize("sides", [2, 3, 4, 6, 8, 10, 12, 20, 36])
def test_dice_uniform_chi_square(sides):
    n = 600_000
    counts = _dice(np.uint64(sides), sides, n)
    assert counts[0] == 0
    observed = counts[1:]
    # chi-square goodness of fit; p < 1e-4 would be a decisive failure
    p = stats.chisquare(observed).pvalue
    assert p > 1e-4, (sides, observed)


def test_2d6_distribution():
    n = 1_296_000
    counts, naturals = _two_d6(np.uint64(11), n)
    expected = np.array([0, 0] + [min(s - 1, 13 - s) for s in range(2, 13)]) / 36 * n
    p = stats.chisquare(counts[2:], expected[2:]).pvalue
    assert p > 1e-4
    se = np.sqrt(n / 36 * 35 / 36)
    assert abs(naturals[0] - n / 36) < 4 * se  # B-1.5 natural 6+6
    assert abs(naturals[1] - n / 36) < 4 * se  # natural 1+1


@njit
def _die_draws(seed, sides, n):
    st = np.empty(4, dtype=np.uint64)
    out = np.empty(n, dtype=np.int64)
    seed_duel(st, seed, 0)
    for k in range(n):
        out[k] = roll_die(st, sides)
    return out


def _lemire_reference(outputs, sides, n):
    """Lemire's multiply-and-reject on the upper 32 bits of each output (rng.py), in plain Python:
    the dice and the number of outputs used."""
    dice, draws = [], iter(int(x) for x in outputs)
    used = 0
    while len(dice) < n:
        m = (next(draws) >> 32) * sides
        used += 1
        low = m & 0xFFFFFFFF
        if low < sides:
            threshold = (2**32 - sides) % sides
            while low < threshold:  # rejected: draw again
                m = (next(draws) >> 32) * sides
                used += 1
                low = m & 0xFFFFFFFF
        dice.append((m >> 32) + 1)
    return dice, used


@pytest.mark.parametrize("sides", [6, 36, 100, 2**31 + 1, 3 * 2**30])
def test_dice_are_lemire_draw_by_draw_with_rejections(sides):
    """roll_die equals Lemire's method on the same xoshiro outputs, the rejection path included: for
    n = 2³¹ + 1 about half the draws are rejected (threshold 2³¹ − 1), for 3·2³⁰ a quarter."""
    n = 2000
    outputs = _outputs(np.uint64(5), np.int64(0), 4 * n)
    expected, used = _lemire_reference(outputs, sides, n)
    assert [int(x) for x in _die_draws(np.uint64(5), sides, n)] == expected
    assert all(1 <= x <= sides for x in expected)
    if sides > 2**30:  # rejections: 1/2 or 1/4 of the draws, ±4σ
        share = {2**31 + 1: 0.5, 3 * 2**30: 0.25}[sides]
        rejected = used - n
        assert abs(rejected - share * used) < 4 * np.sqrt(used * share * (1 - share))
