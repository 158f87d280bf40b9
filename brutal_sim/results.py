"""Results of runs: counters turned into summaries and the public JSON shapes."""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from typing import Any

import numpy as np

from .counters import CounterLayout
from .stats import hist_mean, hist_quantile, wilson


def _side(name: str, wins: int, n: int) -> dict[str, Any]:
    lo, hi = wilson(wins, n)
    return {"name": name, "wins": wins, "win_rate": wins / n if n else 0.0, "ci95": [lo, hi]}


class HeaderCounters:
    """Readers of the shared counter header (:mod:`brutal_sim.counters`) by name, for every result
    whose ``counters`` row starts with it (duels; group fights, whose group block follows).

    A subclass provides ``counters``, ``n``, ``layout`` and may narrow :attr:`header_end`."""

    counters: np.ndarray
    n: int
    layout: CounterLayout | None

    @property
    def c(self) -> CounterLayout:
        assert self.layout is not None
        return self.layout

    @property
    def header_end(self) -> int:
        """Where the header ends in the counter row (duels: the row's end)."""
        return len(self.counters)

    def wins(self, side: int) -> int:
        return int(self.counters[self.c.wins + side])

    @property
    def draws(self) -> int:
        return int(self.counters[self.c.draws])

    @property
    def rounds_hist(self) -> np.ndarray:
        """Runs decided in round r (index r; index 0 unused)."""
        return self.counters[self.c.rounds:self.header_end]

    def defeats(self, side: int) -> dict[str, int]:
        """How side ``side`` went down when it lost (in a group fight: its last fighter)."""
        names = self.c.causes
        base = self.c.cause + side * len(names)
        return {name: int(self.counters[base + k]) for k, name in enumerate(names)}

    def deaths(self, side: int) -> int:
        return int(self.counters[self.c.death + side])

    def attack_outcomes(self, side: int) -> dict[str, int]:
        names = self.c.outcomes
        base = self.c.attack + side * len(names)
        return {name: int(self.counters[base + k]) for k, name in enumerate(names)}

    def wounds_taken(self, side: int) -> np.ndarray:
        """int64[n levels, n zone groups] of blows side ``side`` took."""
        size = self.c.wound_size
        base = self.c.wound + side * size
        return self.counters[base:base + size].reshape(len(self.c.levels), len(self.c.zones))

    def damage_taken(self, side: int) -> int:
        """Sum of the final damage of the blows side ``side`` took."""
        return int(self.counters[self.c.damage + side])

    def one_blow(self, side: int) -> int:
        """Runs side ``side`` lost to the only blow that harmed it (not by fleeing)."""
        return int(self.counters[self.c.one_blow + side])

    def special(self, side: int) -> int:
        """The ruleset's own per-side count (Brutal: weapons broken in hard blocks)."""
        return int(self.counters[self.c.special_at + side])

    # -- shared pieces of the JSON objects ---------------------------------------------------------
    def _rounds(self) -> dict[str, Any]:
        hist = self.rounds_hist
        return {"mean": hist_mean(hist), "p50": hist_quantile(hist, 0.5), "p90": hist_quantile(hist, 0.9)}

    def _defeat_causes(self) -> dict[str, int]:
        a, b = self.defeats(0), self.defeats(1)
        return {name: a[name] + b[name] for name in self.c.causes}

    def _one_blow_share(self) -> float:
        return (self.one_blow(0) + self.one_blow(1)) / max(self.wins(0) + self.wins(1), 1)

    def _side_counts(self, side: int) -> dict[str, Any]:
        """A side's header counts: how it lost, deaths, one-blow losses, its attacks, the special count."""
        return {"defeat_cause": self.defeats(side), "deaths": self.deaths(side),
                "one_blow_losses": self.one_blow(side), "attacks": self.attack_outcomes(side),
                self.c.special: self.special(side)}


def _rates_html(caption: str, rows: list[tuple[str, int]], n: int) -> str:
    """An HTML table of counts out of ``n`` with rates and 95 % Wilson intervals."""
    cells = "".join(f"<tr><td>{escape(name)}</td><td>{k:,}</td><td>{100 * k / n:.2f} %</td>"
                    f"<td>{100 * wilson(k, n)[0]:.2f} – {100 * wilson(k, n)[1]:.2f} %</td></tr>" for name, k in rows)
    return (f"<table><tr><th>{escape(caption)}</th><th>count</th><th>rate</th><th>95 % CI</th></tr>{cells}</table>")


def _rounds_html(r: dict[str, Any], what: str) -> str:
    text = f"no {what} decided" if r["mean"] is None else f"mean {r['mean']:.2f}, median {r['p50']}, p90 {r['p90']}"
    return f"<p>rounds to decision: {text}</p>"


@dataclass
class DuelResult(HeaderCounters):
    """Counters of ``n`` duels between ``names[0]`` (side a) and ``names[1]`` (side b)."""

    names: tuple[str, str]
    n: int
    seed: int
    options: dict[str, Any]
    counters: np.ndarray
    elapsed_s: float
    threads: int = 1
    extra: dict[str, Any] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)  # matchup, variant (scenarios)
    behaviour: tuple[dict[str, str], dict[str, str]] | None = None  # each side's tactic and reaction
    layout: CounterLayout | None = None  # the ruleset's counter names (None: Brutal's)
    ruleset: str = "brutal"

    def __post_init__(self) -> None:
        if self.layout is None:
            from .layout import COUNTERS

            self.layout = COUNTERS

    def _repr_html_(self) -> str:
        """A small table in Jupyter: wins with intervals, draws, rounds."""
        rows = [(self.names[0], self.wins(0)), (self.names[1], self.wins(1)), ("draws", self.draws)]
        return _rates_html(f"{self.n:,} duels, seed {self.seed}", rows, self.n) + _rounds_html(self._rounds(), "duel")

    def frames(self) -> dict[str, Any]:
        """This run as tidy pandas DataFrames: ``summary``, ``rounds`` and ``wounds``
        (see :mod:`brutal_sim.frames`)."""
        from .frames import rounds_frame, summary_frame, wounds_frame

        return {"summary": summary_frame([self]), "rounds": rounds_frame([self]), "wounds": wounds_frame([self])}

    def to_dict(self) -> dict[str, Any]:
        """The public JSON object of ``brutal-sim duel --json``."""
        out: dict[str, Any] = {
            "ruleset": self.ruleset,
            "n": self.n,
            "seed": self.seed,
            "options": self.options,
            "a": _side(self.names[0], self.wins(0), self.n),
            "b": _side(self.names[1], self.wins(1), self.n),
            "draws": self.draws,
            "rounds": self._rounds(),
            "defeat_cause": self._defeat_causes(),
            "one_blow_share": self._one_blow_share(),
            "elapsed_s": self.elapsed_s,
        }
        for side, key in ((0, "a"), (1, "b")):
            out[key].update(self._side_counts(side))
            out[key].update(self.behaviour[side] if self.behaviour else {})
        out["threads"] = self.threads
        out.update(self.extra)
        return out


@dataclass
class AttackResult:
    """Distribution of one attack by ``names[0]`` on ``names[1]``: exact or sampled."""

    names: tuple[str, str]
    method: str  # "exact" or "sampled"
    outcomes: np.ndarray  # float64[5] P(miss, parried, dodged, hard block, hit)
    levels: np.ndarray  # float64[6, 4] P(blow on the defender with level × zone group)
    mean_damage_per_attack: float
    n: int | None = None
    seed: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    tactic: str = ""
    reaction: str = ""
    layout: CounterLayout | None = None  # the ruleset's counter names (None: Brutal's)
    ruleset: str = "brutal"

    def __post_init__(self) -> None:
        if self.layout is None:
            from .layout import COUNTERS

            self.layout = COUNTERS

    def _repr_html_(self) -> str:
        d = self.to_dict()
        cells = "".join(f"<tr><td>{k.replace('_', ' ')}</td><td>{100 * d['p_' + k]:.2f} %</td></tr>"
                        for k in self.layout.outcomes)  # type: ignore[union-attr]
        levels = ", ".join(f"{k.replace('_', ' ')} {100 * v:.1f} %" for k, v in d["wound_level"].items() if v)
        return (f"<p>{d['attacker']} ({d['tactic']}) attacks {d['defender']} (reaction {d['reaction']}), "
                f"{d['method']}</p><table>{cells}</table><p>a blow lands as: {levels}; mean damage "
                f"{d['mean_damage']:.2f}</p>")

    @property
    def p_blow(self) -> float:
        """Probability that the defender takes a blow (a hit, or a bare-handed parry)."""
        return float(self.levels.sum())

    def to_dict(self) -> dict[str, Any]:
        """The public JSON object of ``brutal-sim attack --json``.

        ``wound_level`` and ``zone`` are conditional on the defender taking a blow; ``mean_damage``
        is the mean final damage of such a blow.
        """
        pb = self.p_blow
        norm = pb if pb > 0 else 1.0
        c = self.layout
        assert c is not None
        out: dict[str, Any] = {"ruleset": self.ruleset}
        out.update({f"p_{name}": float(self.outcomes[k]) for k, name in enumerate(c.outcomes)})
        out["wound_level"] = {name: float(self.levels[k].sum() / norm) for k, name in enumerate(c.levels)}
        out["zone"] = {name: float(self.levels[:, k].sum() / norm) for k, name in enumerate(c.zones)}
        out["mean_damage"] = self.mean_damage_per_attack / norm
        out["mean_damage_per_attack"] = self.mean_damage_per_attack
        out.update({"attacker": self.names[0], "defender": self.names[1], "tactic": self.tactic,
                    "reaction": self.reaction, "method": self.method, "n": self.n, "seed": self.seed,
                    "options": self.options})
        return out
