"""Results of runs: counters turned into summaries and the public JSON shapes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import layout as L
from .stats import hist_mean, hist_quantile, wilson


def _side(name: str, wins: int, n: int) -> dict[str, Any]:
    lo, hi = wilson(wins, n)
    return {"name": name, "wins": wins, "win_rate": wins / n if n else 0.0, "ci95": [lo, hi]}


@dataclass
class DuelResult:
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

    # -- counters by name ------------------------------------------------------------------------
    def wins(self, side: int) -> int:
        return int(self.counters[L.C_WINS + side])

    @property
    def draws(self) -> int:
        return int(self.counters[L.C_DRAWS])

    @property
    def rounds_hist(self) -> np.ndarray:
        """Duels decided in round r (index r; index 0 unused)."""
        return self.counters[L.C_ROUNDS:]

    def defeats(self, side: int) -> dict[str, int]:
        """How side ``side`` went down when it lost."""
        base = L.C_CAUSE + side * L.NCAUSES
        return {name: int(self.counters[base + k]) for k, name in enumerate(L.CAUSE_NAMES)}

    def deaths(self, side: int) -> int:
        return int(self.counters[L.C_DEATHS + side])

    def attack_outcomes(self, side: int) -> dict[str, int]:
        base = L.C_ATTACKS + side * 5
        return {name: int(self.counters[base + k]) for k, name in enumerate(L.OUTCOME_NAMES)}

    def wounds_taken(self, side: int) -> np.ndarray:
        """int64[6 level, 4 zone group] of blows side ``side`` took."""
        base = L.C_WOUNDS + side * 24
        return self.counters[base:base + 24].reshape(6, 4)

    def _repr_html_(self) -> str:
        """A small table in Jupyter: win rates with intervals, draws, rounds."""
        d = self.to_dict()
        rows = "".join(
            f"<tr><td>{d[k]['name']}</td><td>{d[k]['wins']:,}</td><td>{100 * d[k]['win_rate']:.2f} %</td>"
            f"<td>{100 * d[k]['ci95'][0]:.2f} – {100 * d[k]['ci95'][1]:.2f} %</td></tr>" for k in ("a", "b"))
        r = d["rounds"]
        rounds = "no duel decided" if r["mean"] is None else f"mean {r['mean']:.2f}, median {r['p50']}, p90 {r['p90']}"
        return (f"<table><tr><th>{self.n:,} duels, seed {self.seed}</th><th>wins</th><th>win rate</th>"
                f"<th>95 % CI</th></tr>{rows}<tr><td>draws</td><td>{self.draws:,}</td>"
                f"<td>{100 * self.draws / self.n:.2f} %</td><td></td></tr></table><p>rounds to decision: {rounds}</p>")

    def frames(self) -> dict[str, Any]:
        """This run as tidy pandas DataFrames: ``summary``, ``rounds`` and ``wounds``
        (see :mod:`brutal_sim.frames`)."""
        from .frames import rounds_frame, summary_frame, wounds_frame

        return {"summary": summary_frame([self]), "rounds": rounds_frame([self]), "wounds": wounds_frame([self])}

    def to_dict(self) -> dict[str, Any]:
        """The public JSON object of ``brutal-sim duel --json``."""
        hist = self.rounds_hist
        causes = {name: self.defeats(0)[name] + self.defeats(1)[name] for name in L.CAUSE_NAMES}
        out: dict[str, Any] = {
            "n": self.n,
            "seed": self.seed,
            "options": self.options,
            "a": _side(self.names[0], self.wins(0), self.n),
            "b": _side(self.names[1], self.wins(1), self.n),
            "draws": self.draws,
            "rounds": {"mean": hist_mean(hist), "p50": hist_quantile(hist, 0.5), "p90": hist_quantile(hist, 0.9)},
            "defeat_cause": causes,
            "elapsed_s": self.elapsed_s,
        }
        for side, key in ((0, "a"), (1, "b")):
            out[key]["defeat_cause"] = self.defeats(side)
            out[key]["deaths"] = self.deaths(side)
            out[key]["attacks"] = self.attack_outcomes(side)
            out[key]["weapon_breaks"] = int(self.counters[L.C_BREAKS + side])
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

    def _repr_html_(self) -> str:
        d = self.to_dict()
        cells = "".join(f"<tr><td>{k.replace('_', ' ')}</td><td>{100 * d['p_' + k]:.2f} %</td></tr>"
                        for k in L.OUTCOME_NAMES)
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
        out: dict[str, Any] = {f"p_{name}": float(self.outcomes[k]) for k, name in enumerate(L.OUTCOME_NAMES)}
        out["wound_level"] = {name: float(self.levels[k].sum() / norm) for k, name in enumerate(L.LEVEL_NAMES)}
        out["zone"] = {name: float(self.levels[:, k].sum() / norm) for k, name in enumerate(("head", "torso", "arm", "leg"))}
        out["mean_damage"] = self.mean_damage_per_attack / norm
        out["mean_damage_per_attack"] = self.mean_damage_per_attack
        out.update({"attacker": self.names[0], "defender": self.names[1], "tactic": self.tactic,
                    "reaction": self.reaction, "method": self.method, "n": self.n, "seed": self.seed,
                    "options": self.options})
        return out
