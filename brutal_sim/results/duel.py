"""Results of runs: counters turned into summaries and the public JSON shapes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.counters import CounterLayout
from .frames import decided_by_frame, rounds_frame, summary_frame, wounds_at_least_frame, wounds_frame
from .header import HeaderCounters, side_summary
from .html import rates_html, rounds_html


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
    layout: CounterLayout | None = None  # the ruleset's counter names
    ruleset: str = ""
    #: a run played to a target error: ``target_error``, ``half_width`` (fractions) and ``target_met``
    precision: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.layout is None or not self.ruleset:
            raise ValueError("a DuelResult needs its ruleset's name and counter layout")

    def _repr_html_(self) -> str:
        """A small table in Jupyter: wins with intervals, draws, rounds."""
        rows = [(self.names[0], self.wins(0)), (self.names[1], self.wins(1)), ("draws", self.draws)]
        return rates_html(f"{self.n:,} duels, seed {self.seed}", rows, self.n) + rounds_html(self._rounds(), "duel")

    def frames(self) -> dict[str, Any]:
        """This run as tidy pandas DataFrames: ``summary``, ``rounds``, ``wounds``, ``decided_by``
        and ``wounds_at_least`` (see :mod:`brutal_sim.results.frames`)."""
        return {"summary": summary_frame([self]), "rounds": rounds_frame([self]), "wounds": wounds_frame([self]),
                "decided_by": decided_by_frame([self]), "wounds_at_least": wounds_at_least_frame([self])}

    def figure(self, max_round: int | None = None) -> Any:
        """The run at a glance (a matplotlib Figure): each side's chance to have won by round r, with
        its 95 % band, reaching its win rate (:func:`brutal_sim.results.plots.decided_by_figure`)."""
        from .plots import decided_by_figure

        return decided_by_figure(decided_by_frame([self]), max_round=max_round,
                                 title=f"{self.names[0]} vs {self.names[1]}: decided by round r")

    def to_dict(self) -> dict[str, Any]:
        """The public JSON object of ``brutal-sim duel --json``."""
        out: dict[str, Any] = {
            "ruleset": self.ruleset,
            "n": self.n,
            "seed": self.seed,
            "options": self.options,
            "a": side_summary(self.names[0], self.wins(0), self.n),
            "b": side_summary(self.names[1], self.wins(1), self.n),
            "draws": self.draws,
            "rounds": self._rounds(),
            "defeat_cause": self._defeat_causes(),
            "one_blow_share": self._one_blow_share(),
            "elapsed_s": self.elapsed_s,
            **self.precision,
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
    layout: CounterLayout | None = None  # the ruleset's counter names
    ruleset: str = ""
    shot: str | None = None  # the kind of the shot measured (None: a melee attack)
    distance: int | None = None  # the distance it is fired from (metres, or the ruleset's unit)
    measured: str = ""  # one line saying which shot, and from where (``Ruleset.attack_measure``)

    def __post_init__(self) -> None:
        if self.layout is None or not self.ruleset:
            raise ValueError("a DuelResult needs its ruleset's name and counter layout")

    def _repr_html_(self) -> str:
        d = self.to_dict()
        cells = "".join(f"<tr><td>{k.replace('_', ' ')}</td><td>{100 * d['p_' + k]:.2f} %</td></tr>"
                        for k in self.layout.outcomes)  # type: ignore[union-attr]
        levels = ", ".join(f"{k.replace('_', ' ')} {100 * v:.1f} %" for k, v in d["wound_level"].items() if v)
        measured = f": {d['measured']}" if d["measured"] else ""
        return (f"<p>{d['attacker']} ({d['tactic']}) attacks {d['defender']} (reaction {d['reaction']}){measured}, "
                f"{d['method']}</p><table>{cells}</table><p>a blow lands as: {levels}; mean damage "
                f"{d['mean_damage']:.2f}</p>")

    @property
    def p_blow(self) -> float:
        """Probability that the defender takes a blow (a hit, or a bare-handed parry)."""
        return float(self.levels.sum())

    def to_dict(self) -> dict[str, Any]:
        """The public JSON object of ``brutal-sim attack --json``.

        ``wound_level`` and ``zone`` are conditional on the defender taking a blow; ``mean_damage``
        is the mean final damage of such a blow. ``shot``, ``distance`` and ``measured`` say which
        shot is measured and from where (None, None and "" for a melee attack).
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
                    "reaction": self.reaction, "shot": self.shot, "distance": self.distance,
                    "measured": self.measured, "method": self.method, "n": self.n, "seed": self.seed,
                    "options": self.options})
        return out
