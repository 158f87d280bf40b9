"""Results of group fights (N vs M, every ruleset that plays them; docs/groups.md): the shared
header and the group block.

A group fight's counter row is the shared header (:mod:`brutal_sim.core.counters`, read by
:class:`~brutal_sim.results.header.HeaderCounters` as for duels) followed by the group block
(:class:`~brutal_sim.core.counters.GroupBlock`): per side how many fighters were still in when the
fight ended, and per fighter how it went out, whether it died, whether it was standing at the end,
and the final damage it dealt and took.

In the header, the wins, ``causes``, ``deaths`` and ``one_blow`` of a side describe the deciding
takedown (the last fighter of the losing side to go out, B-2.9); attack outcomes count at the
attacker's side, blows and damage at the taker's side.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from typing import Any, Sequence

import numpy as np

from ..core.counters import MAX_SIDE, CounterLayout, GroupBlock
from .frames import (
    decided_by_frame,
    fight_summary_frame,
    fighters_frame,
    rounds_frame,
    survivors_frame,
    wounds_at_least_frame,
    wounds_frame,
)
from .header import HeaderCounters, side_summary
from .html import rates_html, rounds_html
from .stats import wilson

SIDE_KEYS = ("a", "b")


def side_name(names: Sequence[str]) -> str:
    """A side's short name: runs of the same fighter counted (``Knight``, ``Militia ×3``,
    ``Swordsman + Militia ×2``)."""
    parts: list[tuple[str, int]] = []
    for name in names:
        if parts and parts[-1][0] == name:
            parts[-1] = (name, parts[-1][1] + 1)
        else:
            parts.append((name, 1))
    return " + ".join(name if k == 1 else f"{name} ×{k}" for name, k in parts)


def fighter_labels(sides: tuple[Sequence[str], Sequence[str]]) -> list[str]:
    """A distinct label for each fighter row (side a first): its name, or when the name occurs more
    than once in the fight its name with side and place (``Militia b2``)."""
    names = [*sides[0], *sides[1]]
    places = [f"{key}{rank + 1}" for key, side in (("a", sides[0]), ("b", sides[1])) for rank in range(len(side))]
    return [f"{name} {place}" if names.count(name) > 1 else name for name, place in zip(names, places)]


@dataclass
class FightResult(HeaderCounters):
    """Counters of ``n`` group fights between the fighters ``sides[0]`` (side a, in line order) and
    ``sides[1]`` (side b).

    ``behaviour`` holds each fighter's ``tactic``, ``reaction`` and ``targeting`` (rows in the
    order of :attr:`fighters`: side a, then side b)."""

    sides: tuple[tuple[str, ...], tuple[str, ...]]
    n: int
    seed: int
    options: dict[str, Any]
    counters: np.ndarray
    elapsed_s: float
    threads: int = 1
    labels: dict[str, str] = field(default_factory=dict)  # matchup, variant, sweep, value (frames)
    behaviour: tuple[dict[str, str], ...] = ()
    layout: CounterLayout | None = None
    ruleset: str = ""
    #: a run played to a target error: ``target_error``, ``half_width`` (fractions) and ``target_met``
    precision: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.sides = (tuple(self.sides[0]), tuple(self.sides[1]))
        if self.layout is None or not self.ruleset:
            raise ValueError("a FightResult needs its ruleset's name and counter layout")
        self.group = GroupBlock(len(self.layout.causes))
        expected = self.c.size(0) + self.group.size(self.n_fighters)
        if len(self.counters) < expected:
            raise ValueError(f"a counter row of {len(self.counters)} is too short for {self.n_fighters} fighters")
        self.labels.setdefault("matchup", f"{self.names[0]} vs {self.names[1]}")

    # -- who ---------------------------------------------------------------------------------------
    @property
    def names(self) -> tuple[str, str]:
        """The sides' short names (``Knight``, ``Militia ×3``)."""
        return side_name(self.sides[0]), side_name(self.sides[1])

    @property
    def n_fighters(self) -> int:
        return len(self.sides[0]) + len(self.sides[1])

    @property
    def fighters(self) -> list[tuple[str, str, int]]:
        """(name, side key, rank) of each fighter row: side a in line order, then side b."""
        return [(name, key, rank) for key, side in zip(SIDE_KEYS, self.sides) for rank, name in enumerate(side)]

    @property
    def fighter_labels(self) -> list[str]:
        """A distinct label per fighter row (the name, with side and place when names repeat)."""
        return fighter_labels(self.sides)

    # -- the group block ---------------------------------------------------------------------------
    @property
    def header_end(self) -> int:
        return len(self.counters) - self.group.size(self.n_fighters)

    @property
    def _block(self) -> np.ndarray:
        return self.counters[self.header_end:]

    def survivors(self, side: int) -> np.ndarray:
        """int64[len(side) + 1]: fights ending (decided or drawn) with k of the side's fighters in."""
        at = self.group.survivors + side * (MAX_SIDE + 1)
        return self._block[at:at + len(self.sides[side]) + 1]

    def fighter_counts(self, row: int) -> np.ndarray:
        """int64[group.per_fighter] of fighter row ``row``: out by cause, dead, standing, dealt, taken."""
        at = self.group.fighters + row * self.group.per_fighter
        return self._block[at:at + self.group.per_fighter]

    def fighter_out(self, row: int) -> dict[str, int]:
        """Fights in which fighter ``row`` went out, by cause."""
        g = self.fighter_counts(row)
        return {name: int(g[self.group.out + k]) for k, name in enumerate(self.c.causes)}

    def fighter_deaths(self, row: int) -> int:
        return int(self.fighter_counts(row)[self.group.dead])

    def fighter_standing(self, row: int) -> int:
        """Fights at whose end fighter ``row`` was still in."""
        return int(self.fighter_counts(row)[self.group.standing])

    def damage_dealt(self, row: int) -> int:
        """Sum over the fights of the final damage of the blows fighter ``row`` dealt."""
        return int(self.fighter_counts(row)[self.group.dealt])

    def fighter_damage_taken(self, row: int) -> int:
        return int(self.fighter_counts(row)[self.group.taken])

    # -- summaries ---------------------------------------------------------------------------------
    def fighter_summary(self, row: int) -> dict[str, Any]:
        """One fighter's JSON object (see :meth:`to_dict`)."""
        name, key, rank = self.fighters[row]
        out = self.fighter_out(row)
        total = sum(out.values())
        summary: dict[str, Any] = {
            "name": name, "label": self.fighter_labels[row], "side": key, "rank": rank,
            "out": out, "out_rate": {cause: k / self.n for cause, k in out.items()},
            "out_total": total, "out_total_rate": total / self.n,
            "deaths": self.fighter_deaths(row), "death_rate": self.fighter_deaths(row) / self.n,
            "standing": self.fighter_standing(row), "standing_rate": self.fighter_standing(row) / self.n,
            "standing_ci95": list(wilson(self.fighter_standing(row), self.n)),
            "damage_dealt_mean": self.damage_dealt(row) / self.n,
            "damage_taken_mean": self.fighter_damage_taken(row) / self.n,
        }
        if row < len(self.behaviour):
            summary.update(self.behaviour[row])
        return summary

    def _survivors_mean(self, side: int) -> float:
        hist = self.survivors(side)
        return float((np.arange(hist.size) * hist).sum() / max(int(hist.sum()), 1))

    def to_dict(self) -> dict[str, Any]:
        """The public JSON object of ``brutal-sim fight --json``.

        Keys: ``kind`` ("fight"), ``ruleset``, ``n``, ``seed``, ``options``; ``a`` and ``b``: the
        side's ``name``, ``fighters`` (names in line order), ``wins``, ``win_rate``, ``ci95``, the
        deciding takedown's ``defeat_cause``, ``deaths``, ``one_blow_losses``; ``attacks`` (outcomes
        of the side's attacks), ``wounds_taken`` (level → zone group → blows), ``damage_taken``,
        the ruleset's special count under its name (Brutal's ``weapon_breaks``), ``survivors``
        (fights ending with k = 0 … size of the side still in) and
        ``survivors_mean``; ``draws``, ``draw_rate``, ``draw_ci95``, ``rounds`` (``mean``, ``p50``,
        ``p90`` of the deciding round), ``defeat_cause`` (both sides), ``one_blow_share``;
        ``fighters``: per fighter row ``name``, ``label``, ``side``, ``rank``, ``out`` and
        ``out_rate`` by cause, ``out_total``, ``out_total_rate``, ``deaths``, ``death_rate``,
        ``standing``, ``standing_rate``, ``standing_ci95``, ``damage_dealt_mean``,
        ``damage_taken_mean``, ``tactic``, ``reaction``, ``targeting``; ``elapsed_s``, ``threads``;
        played to a target error, also ``target_error``, ``half_width`` and ``target_met``.
        """
        out: dict[str, Any] = {"kind": "fight", "ruleset": self.ruleset, "n": self.n, "seed": self.seed,
                               "options": self.options, **self.precision}
        for side, key in enumerate(SIDE_KEYS):
            s = side_summary(self.names[side], self.wins(side), self.n)
            s["fighters"] = list(self.sides[side])
            s.update(self._side_counts(side))
            grid = self.wounds_taken(side)
            s["wounds_taken"] = {level: {zone: int(grid[i, j]) for j, zone in enumerate(self.c.zones)}
                                 for i, level in enumerate(self.c.levels)}
            s["damage_taken"] = self.damage_taken(side)
            s["survivors"] = [int(k) for k in self.survivors(side)]
            s["survivors_mean"] = self._survivors_mean(side)
            out[key] = s
        out.update({"draws": self.draws, "draw_rate": self.draws / self.n,
                    "draw_ci95": list(wilson(self.draws, self.n)),
                    "rounds": self._rounds(), "defeat_cause": self._defeat_causes(),
                    "one_blow_share": self._one_blow_share(),
                    "fighters": [self.fighter_summary(i) for i in range(self.n_fighters)],
                    "elapsed_s": self.elapsed_s, "threads": self.threads})
        return out

    def frames(self) -> dict[str, Any]:
        """This run as tidy pandas DataFrames: ``summary``, ``fighters``, ``survivors``, ``rounds``,
        ``wounds``, ``decided_by`` and ``wounds_at_least`` (the losing side's blows, all its fighters'
        together) (see :mod:`brutal_sim.results.frames`)."""
        return {"summary": fight_summary_frame([self]), "fighters": fighters_frame([self]),
                "survivors": survivors_frame([self]), "rounds": rounds_frame([self]), "wounds": wounds_frame([self]),
                "decided_by": decided_by_frame([self]), "wounds_at_least": wounds_at_least_frame([self])}

    def figure(self) -> Any:
        """The fight at a glance (a matplotlib Figure): the share of fights ending with k of each side
        still in, and each fighter's fate (:func:`brutal_sim.results.plots.fight_figure`)."""
        from .plots import fight_figure

        return fight_figure(survivors_frame([self]), fighters_frame([self]),
                            title=f"{self.names[0]} vs {self.names[1]}")

    def _repr_html_(self) -> str:
        """Small tables in Jupyter: side wins and draws, rounds, survivors, and the fighters."""
        sides = [(f"{self.names[s]} ({k})", self.wins(s)) for s, k in enumerate(SIDE_KEYS)] + [("draws", self.draws)]
        html = rates_html(f"{self.n:,} fights, seed {self.seed}", sides, self.n) + rounds_html(self._rounds(), "fight")
        html += "<p>still in at the end: " + "; ".join(
            f"{escape(self.names[s])} mean {self._survivors_mean(s):.2f} of {len(self.sides[s])}"
            for s in (0, 1)) + "</p>"
        head = "".join(f"<th>{escape(h)}</th>"
                       for h in ("fighter", "side", "out", "died", "standing", "dealt", "taken"))
        rows = "".join(f"<tr><td>{escape(f['label'])}</td><td>{f['side']}</td>"
                       f"<td>{100 * f['out_total_rate']:.1f} %</td>"
                       f"<td>{100 * f['death_rate']:.1f} %</td><td>{100 * f['standing_rate']:.1f} %</td>"
                       f"<td>{f['damage_dealt_mean']:.2f}</td><td>{f['damage_taken_mean']:.2f}</td></tr>"
                       for f in (self.fighter_summary(i) for i in range(self.n_fighters)))
        return html + f"<table><tr>{head}</tr>{rows}</table>"
