"""The random numbers of the pure-Python references (``brutal/naive.py``, ``wfrp2e/naive_wfrp2e.py``,
``vereteno/naive_vereteno.py``): xoshiro256** seeded by splitmix64, dice by Lemire's method, the
same stream as :mod:`brutal_sim.toolbox.rng`, written for reading."""

from __future__ import annotations

from typing import NamedTuple

MASK64 = (1 << 64) - 1
MASK32 = (1 << 32) - 1
GAMMA = 0x9E3779B97F4A7C15


def splitmix64_output(z: int) -> int:
    """The splitmix64 output function of a state ``z`` that has already been advanced by GAMMA."""
    z &= MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def rotate_left(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & MASK64


class Roll2d6(NamedTuple):
    """A 2d6 roll (B-1.1); ``is_full_success`` is the natural 6+6 of B-1.5."""

    first: int
    second: int

    @property
    def total(self) -> int:
        return self.first + self.second

    @property
    def is_full_success(self) -> bool:
        return self.first == 6 and self.second == 6


class Xoshiro256StarStar:
    """xoshiro256** (Blackman & Vigna) over four 64-bit words, in plain Python ints."""

    def __init__(self, words: list[int]) -> None:
        self.s = [w & MASK64 for w in words]
        self.draws = 0  # number of 64-bit outputs consumed (handy when debugging a mismatch)

    @classmethod
    def for_duel(cls, seed: int, index: int) -> "Xoshiro256StarStar":
        """Generator of duel ``index`` in a run with ``seed``.

        key = one splitmix64 step from state ``seed``; the four state words are the splitmix64
        outputs at ``key + 4·index·GAMMA`` advanced by GAMMA before each output.
        """
        key = splitmix64_output((seed + GAMMA) & MASK64)
        base = (key + index * 4 * GAMMA) & MASK64
        words = []
        for _ in range(4):
            base = (base + GAMMA) & MASK64
            words.append(splitmix64_output(base))
        return cls(words)

    def next_u64(self) -> int:
        s0, s1, s2, s3 = self.s
        result = (rotate_left((s1 * 5) & MASK64, 7) * 9) & MASK64
        t = (s1 << 17) & MASK64
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotate_left(s3, 45)
        self.s = [s0, s1, s2, s3]
        self.draws += 1
        return result

    def die(self, n: int) -> int:
        """Uniform 1..n by Lemire's multiply-and-reject on the upper 32 bits of a draw."""
        x = self.next_u64() >> 32
        m = x * n
        low = m & MASK32
        if low < n:
            threshold = ((1 << 32) - n) % n
            while low < threshold:
                x = self.next_u64() >> 32
                m = x * n
                low = m & MASK32
        return (m >> 32) + 1

    def roll_2d6(self) -> Roll2d6:
        """2d6 as one uniform 1..36 draw ``v``, split into ``(v // 6 + 1, v % 6 + 1)``."""
        v = self.die(36) - 1
        return Roll2d6(v // 6 + 1, v % 6 + 1)


