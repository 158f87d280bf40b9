"""Counter-keyed random numbers for the kernels: xoshiro256** seeded per duel by splitmix64.

Duel ``i`` of a run with seed ``s`` starts its own xoshiro256** generator whose 256-bit state is
the splitmix64 outputs number ``4i+1 … 4i+4`` of the stream started at ``mix(s)``. Each duel's
numbers therefore depend only on ``(seed, i)``: results are bit-identical for any thread count
and chunking. xoshiro256** (Blackman & Vigna, 2018) passes BigCrush and PractRand; splitmix64 is
the seeding its authors recommend. Dice use Lemire's multiply-and-reject method on the upper 32
bits of a draw, so they carry no modulo bias at all.

All functions are ``@njit`` and take the state as a ``uint64[4]`` array.
"""

from __future__ import annotations

import numpy as np

from .jit import inline_rule, rule

GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_MASK32 = np.uint64(0xFFFFFFFF)
_U = np.uint64


@inline_rule
def _mix64(z):
    """splitmix64 output function of a uint64 ``z`` (already advanced by GAMMA)."""
    z = (z ^ (z >> _U(30))) * _M1
    z = (z ^ (z >> _U(27))) * _M2
    return z ^ (z >> _U(31))


@rule
def seed_duel(st, seed, index):
    """Fill ``st`` (uint64[4]) with the xoshiro256** state of duel ``index`` for run ``seed``.

    Parameters
    ----------
    st : uint64[4]
        State array, overwritten.
    seed : uint64
        Run seed.
    index : int64
        Duel index (0-based, global across chunks).
    """
    key = _mix64(_U(seed) + GAMMA)
    base = key + _U(index) * _U(4) * GAMMA
    for j in range(4):
        base = base + GAMMA
        st[j] = _mix64(base)


def _xoshiro_next(st):
    """One xoshiro256** output (uint64) and the state advance (the rotations written out: every
    function numba inlines costs compile time, :mod:`brutal_sim.toolbox.jit`)."""
    s0 = st[0]
    s1 = st[1]
    s2 = st[2]
    s3 = st[3]
    r = s1 * _U(5)
    result = ((r << _U(7)) | (r >> _U(57))) * _U(9)
    t = s1 << _U(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = (s3 << _U(45)) | (s3 >> _U(19))
    st[0] = s0
    st[1] = s1
    st[2] = s2
    st[3] = s3
    return result


#: One xoshiro256** output (a raw uint64 draw), inlined into the dice (their common path draws once).
next_u64 = inline_rule(_xoshiro_next)
#: The same, called: the dice's rare rejection path.
_next_called = rule(_xoshiro_next)


@rule
def _die_retry(st, nn, x):
    """The rare path of ``roll_die``: Lemire's rejection, drawing again while the draw falls in the
    biased low part."""
    m = x * nn
    low = m & _MASK32
    threshold = (_U(0x100000000) - nn) % nn
    while low < threshold:
        x = _next_called(st) >> _U(32)
        m = x * nn
        low = m & _MASK32
    return np.int64(m >> _U(32)) + 1


@rule
def roll_die(st, n):
    """Uniform integer in ``1..n`` (``n`` ≤ 2**32) from the upper 32 bits of a draw, unbiased."""
    nn = _U(n)
    x = next_u64(st) >> _U(32)
    m = x * nn
    if (m & _MASK32) < nn:
        return _die_retry(st, nn, x)
    return np.int64(m >> _U(32)) + 1


@rule
def roll_2d6(st):
    """A 2d6 roll from one draw (a uniform 1..36): returns ``(die1, die2)``, each 1..6."""
    v = roll_die(st, 36) - 1
    return v // 6 + 1, v % 6 + 1
