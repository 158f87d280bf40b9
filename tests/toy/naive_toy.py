"""A slow, readable toy duel (rule ids T-1 … T-4 of ``toy_ruleset``) for checking the kernel duel by
duel: the same random numbers in the same order (attacker's 2d6, defender's 2d6, on a hit the
damage d6), counted into the same named counter row."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from naive_rng import Xoshiro256StarStar
from toy_ruleset.layout import COUNTERS

DEAD_AT = -3  # T-3: dead at −3 hit points or fewer


@dataclass
class Side:
    skill: int
    hit_points: int
    damage_bonus: int
    harmed: int = 0  # blows that did damage
    took: list[int] = field(default_factory=lambda: [0, 0, 0])  # blows taken by level (none, wounded, out)

    @property
    def out(self) -> bool:
        return self.hit_points <= 0


class NaiveToy:
    """One run's counters; ``duel(index)`` / ``attack(index)`` add one duel / one attack by a."""

    def __init__(self, a: Side, b: Side, seed: int, round_cap: int = 50, ties_hit: bool = False,
                 simultaneous: bool = False) -> None:
        self.fighters = (a, b)
        self.seed, self.round_cap, self.ties_hit, self.simultaneous = seed, round_cap, ties_hit, simultaneous
        self.c = COUNTERS
        self.cnt = np.zeros(COUNTERS.size(round_cap), dtype=np.int64)

    def _count(self, block: int, side: int, index: int, width: int) -> None:
        self.cnt[block + side * width + index] += 1

    def _attack(self, sides: list[Side], rng: Xoshiro256StarStar, a: int) -> None:
        c, attacker, defender = self.c, sides[a], sides[1 - a]
        attack_total = rng.roll_2d6().total + attacker.skill  # T-1
        defence_total = rng.roll_2d6().total + defender.skill
        hit = attack_total > defence_total or (attack_total == defence_total and self.ties_hit)
        self._count(c.attack, a, c.outcomes.index("hit" if hit else "miss"), len(c.outcomes))
        if not hit:
            return
        face = rng.die(6)
        damage = max(face + attacker.damage_bonus, 0)  # T-2
        defender.hit_points -= damage  # T-3
        level = "none" if damage == 0 else "out" if defender.out else "wounded"
        self._count(c.wound, 1 - a, c.levels.index(level), len(c.levels))
        defender.took[c.levels.index(level)] += 1
        self.cnt[c.damage + 1 - a] += damage
        self.cnt[c.special_at + a] += face == 6
        defender.harmed += damage > 0

    def _fresh(self) -> list[Side]:
        return [Side(f.skill, f.hit_points, f.damage_bonus) for f in self.fighters]

    def duel(self, index: int) -> None:
        c, rng, sides = self.c, Xoshiro256StarStar.for_duel(self.seed, index), self._fresh()
        for rnd in range(1, self.round_cap + 1):  # T-4
            self._attack(sides, rng, 0)
            if not (sides[1].out and not self.simultaneous):
                self._attack(sides, rng, 1)
            if sides[0].out and sides[1].out:
                self.cnt[c.draws] += 1
                return
            if sides[0].out or sides[1].out:
                loser = 0 if sides[0].out else 1
                self.cnt[c.wins + 1 - loser] += 1
                self.cnt[c.cause + loser] += 1  # one cause: hit_points
                self.cnt[c.death + loser] += sides[loser].hit_points <= DEAD_AT
                self.cnt[c.one_blow + loser] += sides[loser].harmed == 1
                self.cnt[c.rounds + rnd] += 1
                self.cnt[c.rounds_a(self.round_cap) + rnd] += loser == 1
                for lv, k in enumerate(sides[loser].took):  # the loser's blows by level, the last bin k or more
                    self.cnt[c.loser_wounds_at(loser, lv, k)] += 1
                return
        self.cnt[c.draws] += 1

    def attack(self, index: int) -> None:
        self._attack(self._fresh(), Xoshiro256StarStar.for_duel(self.seed, index), 0)
