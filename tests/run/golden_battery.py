"""The golden battery: runs across every ruleset and kind of kernel (duels, group fights, duels at a
distance, exact and sampled single attacks, paired sweeps, stat weights) whose full counters are
recorded in ``tests/data/golden.json``; ``test_golden.py`` plays them again and asks for
bit-identical counters.

Record again only when a change is meant to move results: ``python tests/run/golden_battery.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Callable

import numpy as np

from brutal_sim import api, designer
from brutal_sim.core.ruleset import resolve_ruleset
from brutal_sim.run.engine import run_paired_counters

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden.json"
N = 3000


def _duel(a: str, b: str, seed: int, ruleset: str | None = None, **kw: Any) -> Callable[[], dict[str, Any]]:
    def run() -> dict[str, Any]:
        r = api.duel(a, b, n=N, seed=seed, ruleset=ruleset, threads=1, **kw)
        return {"counters": r.counters.tolist()}
    return run


def _fight(side_a: list[str], side_b: list[str], seed: int, **kw: Any) -> Callable[[], dict[str, Any]]:
    def run() -> dict[str, Any]:
        r = api.fight(side_a, side_b, n=N, seed=seed, threads=1, **kw)
        return {"counters": r.counters.tolist()}
    return run


def _exact(a: str, b: str, ruleset: str | None = None, **kw: Any) -> Callable[[], dict[str, Any]]:
    def run() -> dict[str, Any]:
        r = api.attack(a, b, ruleset=ruleset, **kw)
        return {"outcomes": [float(x).hex() for x in r.outcomes],
                "levels": [float(x).hex() for x in np.ravel(r.levels)],
                "mean_damage": float(r.mean_damage_per_attack).hex()}
    return run


def _sampled(a: str, b: str, seed: int, ruleset: str | None = None, **kw: Any) -> Callable[[], dict[str, Any]]:
    def run() -> dict[str, Any]:
        r = api.attack(a, b, n=20 * N, seed=seed, ruleset=ruleset, threads=1, **kw)
        return {"outcomes": [float(x).hex() for x in r.outcomes],
                "levels": [float(x).hex() for x in np.ravel(r.levels)],
                "mean_damage": float(r.mean_damage_per_attack).hex()}
    return run


def _sweep(fighter: str, opponent: str, field: str, values: list[str], seed: int, ruleset: str | None = None,
           options: dict[str, str] | None = None) -> Callable[[], dict[str, Any]]:
    def run() -> dict[str, Any]:
        from brutal_sim.core.variants import vary
        rs = resolve_ruleset([fighter, opponent], ruleset)
        f, opp = rs.load_fighter(fighter), rs.load_fighter(opponent)
        cells = [rs.prepare(vary(f, field, v, where="sweep"), opp, None, options).compiled for v in values]
        counters, joint, _ = run_paired_counters(cells, N, seed, threads=1)
        return {"counters": [c.tolist() for c in counters], "joint": np.asarray(joint).tolist()}
    return run


def _weights(a: str, b: str, seed: int, ruleset: str | None = None) -> Callable[[], dict[str, Any]]:
    def run() -> dict[str, Any]:
        w = designer.stat_weights(a, b, n=N, seed=seed, ruleset=ruleset, threads=1)
        return {"rows": [[r["stat"], int(r["step"]), float(r["delta"]).hex(), int(r["n"])]
                         for _, r in w.rows.iterrows()]}
    return run


#: name → a function playing the run and returning its counters as JSON data
BATTERY: dict[str, Callable[[], dict[str, Any]]] = {
    # Brutal duels
    "brutal duel swordsman brute": _duel("swordsman", "brute", 7),
    "brutal duel armour protection_only, margin max": _duel(
        "swordsman", "brute", 8, options={"armour_model": "protection_only", "margin_against": "max(base,reaction)"}),
    "brutal duel feint vs dodge": _duel("duelist", "knight", 9, tactic_a="feint", reaction_b="dodge"),
    "brutal duel aimed head": _duel("brute", "knight", 10, tactic_a="aimed:head"),
    "brutal duel crossbow at 40 m": _duel("crossbowman", "swordsman", 11, options={"start_distance": "40"}),
    "brutal duel crossbow kite": _duel("crossbowman", "swordsman", 12, options={"start_distance": "40"},
                                       tactic_a="kite"),
    "brutal duel charge from 20 m": _duel("swordsman", "brute", 13, options={"start_distance": "20"},
                                          tactic_b="charge"),
    "brutal duel grapple": _duel("brawler", "militia", 14, tactic_a="grapple"),
    "brutal duel cramped, stuck weapons": _duel("dual_blades", "ghoul", 15,
                                                options={"cramped_space": "true", "stuck_weapon": "always"}),
    "brutal duel ready attack": _duel("knight", "brute", 16, tactic_a="ready_attack",
                                      options={"readied_trigger": "enemy_attacks"}),
    "brutal duel flurry": _duel("brawler", "swordsman", 17, tactic_a="flurry",
                                options={"unarmed_full_attack": "flurry"}),
    "brutal duel terrain and darkness": _duel("swordsman", "brute", 18,
                                              options={"terrain_a": "difficult", "darkness": "on"}),
    "brutal duel cover at 30 m": _duel("crossbowman", "knight", 19, options={
        "start_distance": "30", "cover_b": "half", "indirect_cover_b": "30"}),
    "brutal duel surprise, dazed all": _duel("duelist", "brute", 20,
                                             options={"surprise": "a", "dazed_penalty": "all_checks"}),
    "brutal duel second break, refelled": _duel("knight", "brute", 21, options={
        "second_break": "degraded_again", "refelled": "stays_down", "knocked_away_again": "may_retry"}),
    # Brutal group fights
    "brutal fight knight vs militia*3": _fight(["knight"], ["militia*3"], 22),
    "brutal fight two against two, one_side": _fight(["swordsman", "militia"], ["brute", "militia"], 23,
                                                     options={"outnumbered": "one_side"}),
    "brutal fight corridor, finish helpless": _fight(["knight"], ["militia*3"], 24, options={
        "attack_limit": "corridor", "finish_helpless": "on"}),
    "brutal fight weakest first": _fight(["knight", "swordsman"], ["militia*2", "brute"], 25, targeting_b="weakest"),
    # Brutal single attacks and paired runs
    "brutal exact brute swordsman": _exact("brute", "swordsman"),
    "brutal exact crossbow at 20 m": _exact("crossbowman", "swordsman", options={"start_distance": "20"}),
    "brutal exact aimed at the weapon": _exact("knight", "duelist", tactic="aim_weapon"),
    "brutal sampled brute swordsman": _sampled("brute", "swordsman", 26),
    "brutal sweep axe damage": _sweep("brute", "swordsman", "main_hand.damage", ["d6", "d8", "d10", "d12"], 27),
    "brutal stat weights": _weights("swordsman", "brute", 28),
    # WFRP 2e
    "wfrp2e duel orc goblin": _duel("orc", "goblin", 29, "wfrp2e"),
    "wfrp2e duel threshold crits, no fortune": _duel("swordsman", "brute", 30, "wfrp2e", options={
        "crit_model": "threshold", "fortune": "never"}),
    "wfrp2e duel berserk vs parry, helpless attackable": _duel(
        "knight", "duelist", 31, "wfrp2e", tactic_a="berserk", reaction_b="parry_first",
        options={"helpless": "attackable"}),
    "wfrp2e duel opposed ties, auto results": _duel("militia", "brawler", 32, "wfrp2e", options={
        "opposed": "defender_wins_ties", "auto_results": "auto_01_05_96_00", "initiative_roll": "every_round"}),
    "wfrp2e exact orc goblin": _exact("orc", "goblin", "wfrp2e"),
    "wfrp2e sampled orc goblin": _sampled("orc", "goblin", 33, "wfrp2e"),
    "wfrp2e stat weights": _weights("orc", "goblin", 34, "wfrp2e"),
    # «Звёздное Веретено»
    "vereteno duel swordsman brute": _duel("swordsman", "brute", 35, "vereteno"),
    "vereteno duel exposure, prayer": _duel("knight", "duelist", 36, "vereteno", options={
        "exposure": "miss_becomes_hit", "prayer": "app"}),
    "vereteno duel power, npc tokens": _duel("brawler", "militia", 37, "vereteno", tactic_a="power",
                                             options={"npc_reactions": "tokens"}),
    "vereteno exact swordsman brute": _exact("swordsman", "brute", "vereteno"),
    "vereteno sampled swordsman brute": _sampled("swordsman", "brute", 38, "vereteno"),
    "vereteno stat weights": _weights("knight", "brute", 39, "vereteno"),
}


def play(name: str) -> dict[str, Any]:
    """The JSON data of run ``name`` (its counters, or its exact probabilities as float hex)."""
    return BATTERY[name]()


def main() -> None:
    recorded = {name: play(name) for name in BATTERY}
    GOLDEN.write_text(json.dumps(recorded, indent=None, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"recorded {len(recorded)} runs in {GOLDEN}", file=sys.stderr)


if __name__ == "__main__":
    main()
