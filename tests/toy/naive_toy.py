"""A slow, readable toy fight (rule ids T-1 … T-6 of ``toy_ruleset``) for checking the kernel fight
by fight: the same random numbers in the same order (with ``turn_order = initiative`` one d6 per
fighter in row order and the rerolls of full ties; then per attack or shot the attacker's 2d6, the
defender's 2d6, on a hit the damage d6), counted into the same named counter row: the header, and
for group fights the group block after it. Written from the rules, not from the kernel: the turn
order, the choice of a foe and the moves are computed here again, by sorting and comparing tuples."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import groupby
from typing import Sequence

import numpy as np
from naive_rng import Xoshiro256StarStar
from toy_ruleset.layout import COUNTERS

from brutal_sim.core.counters import MAX_SIDE, GroupBlock

DEAD_AT = -3  # T-3: dead at −3 hit points or fewer
SHOT_PENALTY = 2  # T-6
POLICIES = ("spread", "weakest", "nearest")  # T-5


@dataclass
class Side:
    """A fighter as the reference reads it (the name is kept from the duel-only reference)."""

    skill: int
    hit_points: int
    damage_bonus: int
    speed: int = 5
    range: int = 0
    targeting: str = "spread"


@dataclass
class InFight:
    """One fighter's state during a fight."""

    me: Side
    side: int
    rank: int
    row: int
    hp: int
    x: int = 0
    foe: int = -1
    out_seq: int = 0  # 0 while in, else its place in the order of going out
    dead: bool = False
    harmed: int = 0  # blows that did damage
    dealt: int = 0
    taken: int = 0

    @property
    def out(self) -> bool:
        return self.out_seq > 0


class NaiveToy:
    """One run's counters; ``duel(index)`` / ``fight(index)`` / ``attack(index)`` add one duel, one
    fight (with the group block when ``group``) or one attack by side a's first fighter."""

    def __init__(self, a: Side | Sequence[Side], b: Side | Sequence[Side], seed: int, round_cap: int = 50,
                 ties_hit: bool = False, simultaneous: bool = False, initiative: bool = False,
                 start_distance: int = 0, group: bool = False) -> None:
        self.sides = ([a] if isinstance(a, Side) else list(a), [b] if isinstance(b, Side) else list(b))
        self.seed, self.round_cap, self.ties_hit, self.simultaneous = seed, round_cap, ties_hit, simultaneous
        self.initiative, self.start_distance, self.group = initiative, start_distance, group
        self.c = COUNTERS
        self.g = GroupBlock(len(COUNTERS.causes))
        n = len(self.sides[0]) + len(self.sides[1])
        self.base = COUNTERS.size(round_cap)
        self.cnt = np.zeros(self.base + (self.g.size(n) if group else 0), dtype=np.int64)

    # -- pieces ------------------------------------------------------------------------------------
    def _fresh(self) -> list[InFight]:
        fs = []
        for side, line in enumerate(self.sides):
            for rank, f in enumerate(line):
                fs.append(InFight(f, side, rank, len(fs), f.hit_points, x=self.start_distance * side))
        return fs

    def _order(self, rng: Xoshiro256StarStar, fs: list[InFight], rows: list[int]) -> list[int]:
        """T-5 initiative: d6 + skill each (rows in row order), higher first, then the more hit
        points; a full tie rerolls among itself, groups settled in order."""
        total = {r: rng.die(6) + fs[r].me.skill for r in rows}
        ranked = sorted(rows, key=lambda r: (-total[r], -fs[r].me.hit_points))
        order: list[int] = []
        for _, tied in groupby(ranked, key=lambda r: (total[r], fs[r].me.hit_points)):
            tied = list(tied)
            order += tied if len(tied) == 1 else self._order(rng, fs, tied)
        return order

    def _choose(self, fs: list[InFight], i: int) -> None:
        """T-5: the foe by the fighter's policy among the enemies in the fight (no attack limit)."""
        me = fs[i]

        def others(j: int) -> int:
            return sum(1 for k in fs if k.row != i and not k.out and k.foe == j)

        def key(j: int) -> tuple[int, int, int, int]:
            primary = {"spread": others(j), "weakest": -min(fs[j].me.hit_points - fs[j].hp, 127),
                       "nearest": 0}[me.me.targeting]
            return (primary, 0 if j == me.foe else 1, abs(fs[j].rank - me.rank), j)

        candidates = [f.row for f in fs if f.side != me.side and not f.out]
        me.foe = min(candidates, key=key) if candidates else -1

    def _attack(self, fs: list[InFight], rng: Xoshiro256StarStar, a: int, d: int, shot: bool, took: list[list[int]],
                outs: list[int]) -> None:
        c, attacker, defender = self.c, fs[a], fs[d]
        attack_total = rng.roll_2d6().total + attacker.me.skill - (SHOT_PENALTY if shot else 0)  # T-1, T-6
        defence_total = rng.roll_2d6().total + defender.me.skill
        hit = attack_total > defence_total or (attack_total == defence_total and self.ties_hit)
        self.cnt[c.attack + attacker.side * len(c.outcomes) + c.outcomes.index("hit" if hit else "miss")] += 1
        if not hit:
            return
        face = rng.die(6)
        damage = max(face + attacker.me.damage_bonus, 0)  # T-2
        defender.hp -= damage  # T-3
        level = c.levels.index("none" if damage == 0 else "out" if defender.hp <= 0 else "wounded")
        self.cnt[c.wound + defender.side * len(c.levels) + level] += 1
        took[defender.side][level] += 1
        self.cnt[c.damage + defender.side] += damage
        self.cnt[c.special_at + attacker.side] += face == 6
        defender.harmed += damage > 0
        attacker.dealt += damage
        defender.taken += damage
        if defender.hp <= 0:
            outs[0] += 1
            defender.out_seq = outs[0]
            defender.dead = defender.hp <= DEAD_AT

    def _turn(self, fs: list[InFight], rng: Xoshiro256StarStar, i: int, took: list[list[int]], outs: list[int]) -> None:
        """T-6: attack engaged, shoot when the range reaches, else move toward the foe."""
        me = fs[i]
        if me.foe < 0 or fs[me.foe].out:
            return
        foe = fs[me.foe]
        distance = abs(me.x - foe.x)
        if distance == 0:
            self._attack(fs, rng, i, me.foe, False, took, outs)
        elif distance <= me.me.range:
            self._attack(fs, rng, i, me.foe, True, took, outs)
        else:
            step = min(me.me.speed, distance)
            me.x += step if foe.x > me.x else -step

    def _decide(self, fs: list[InFight], took: list[list[int]], rnd: int) -> None:
        c = self.c
        side_out = [all(f.out for f in fs if f.side == s) for s in (0, 1)]
        if side_out[0] and side_out[1]:
            self.cnt[c.draws] += 1
            return
        loser = 0 if side_out[0] else 1
        last = max((f for f in fs if f.side == loser), key=lambda f: f.out_seq)  # the deciding takedown
        self.cnt[c.wins + 1 - loser] += 1
        self.cnt[c.cause + loser] += 1  # one cause: hit_points
        self.cnt[c.death + loser] += last.dead
        self.cnt[c.one_blow + loser] += last.harmed == 1
        self.cnt[c.rounds + rnd] += 1
        self.cnt[c.rounds_a(self.round_cap) + rnd] += loser == 1
        for lv, k in enumerate(took[loser]):  # the losing side's blows by level, the last bin k or more
            self.cnt[c.loser_wounds_at(loser, lv, k)] += 1

    def _count_group(self, fs: list[InFight]) -> None:
        g, base = self.g, self.base
        for s in (0, 1):
            self.cnt[base + g.survivors + s * (MAX_SIDE + 1) + sum(not f.out for f in fs if f.side == s)] += 1
        for f in fs:
            row = base + g.fighters + f.row * g.per_fighter
            self.cnt[row + (g.out if f.out else g.standing)] += 1  # one cause: hit_points
            self.cnt[row + g.dead] += f.dead
            self.cnt[row + g.dealt] += f.dealt
            self.cnt[row + g.taken] += f.taken

    # -- a fight -----------------------------------------------------------------------------------
    def fight(self, index: int) -> None:
        rng, fs = Xoshiro256StarStar.for_duel(self.seed, index), self._fresh()
        n = len(fs)
        took = [[0, 0, 0], [0, 0, 0]]  # per side: blows taken by level (none, wounded, out)
        outs = [0]
        if n == 2:
            fs[0].foe, fs[1].foe = 1, 0
        order = self._order(rng, fs, list(range(n))) if self.initiative else list(range(n))  # T-5
        try:
            for rnd in range(1, self.round_cap + 1):  # T-4
                before = outs[0]
                for i in order:
                    if fs[i].out and not (self.simultaneous and fs[i].out_seq > before):
                        continue
                    if n > 2:
                        self._choose(fs, i)
                    self._turn(fs, rng, i, took, outs)
                    if not self.simultaneous and any(all(f.out for f in fs if f.side == s) for s in (0, 1)):
                        self._decide(fs, took, rnd)
                        return
                if any(all(f.out for f in fs if f.side == s) for s in (0, 1)):
                    self._decide(fs, took, rnd)
                    return
            self.cnt[self.c.draws] += 1
        finally:
            if self.group:
                self._count_group(fs)

    def duel(self, index: int) -> None:
        self.fight(index)

    def attack(self, index: int) -> None:
        fs = self._fresh()
        fs[1].x = 0
        self._attack(fs, Xoshiro256StarStar.for_duel(self.seed, index), 0, 1, False, [[0, 0, 0], [0, 0, 0]], [0])
