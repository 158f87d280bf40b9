"""A toy ruleset, built from the recipe of ``docs/rulesets.md`` to prove it; the tests register
it (``brutal_sim.core.ruleset.register("toy", "toy_ruleset")``), it is not in the bundled table.

Its whole rulebook:

- T-1 Attack: the attacker rolls 2d6 + its skill, the defender 2d6 + its skill; a higher attack
  total hits (a tie misses, or hits with ``ties = hit``).
- T-2 Damage: a hit deals d6 + the weapon's damage bonus, never below 0.
- T-3 Hit points: damage comes off the defender's hit points; at 0 or below it is out of the
  fight, at −3 or below dead.
- T-4 Rounds: each round side a attacks once, then side b (``strikes = in_turn``: a fighter put
  out does not strike back; ``simultaneous``: it does, and both out is a draw). A duel still
  running after ``round_cap`` rounds is a draw.

Modules, one job each: :mod:`.model` (data schema), :mod:`.catalog` (catalog, fighter files, rules
files), :mod:`.options` (rule options and their kernel slots), :mod:`.layout` (array codes, counter
names), :mod:`.compile` (models → arrays), :mod:`.kernel` (``@njit`` rules and drivers),
:mod:`.exact` (exact single attack).
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

from brutal_sim.core.ruleset import Compiled, Kernels, Listing, Prepared, Ruleset

from . import layout as L
from .catalog import RULES_FILE_TABLES, Catalog, load_rules
from .compile import compile_pair
from .exact import enumerate_attack
from .kernel import run_attacks, run_duels, run_paired
from .model import REACTIONS, TACTICS, Fighter
from .options import O_ROUND_CAP, OPTION_SPECS, compile_options

KERNELS = Kernels(duels=run_duels, attacks=run_attacks, paired=run_paired)


def compiled(fighters: np.ndarray, options: np.ndarray) -> Compiled:
    """Toy arrays as a :class:`Compiled`: fighters ``int64[2, NF]``, options ``int64[NO]``, no tables."""
    return Compiled(fighters, options, (), KERNELS, L.n_counters(int(options[O_ROUND_CAP])))


class ToyRuleset(Ruleset):
    name = "toy"
    title = "Toy (2d6 + skill, d6 damage, hit points)"
    counters = L.COUNTERS
    option_specs = OPTION_SPECS
    rules_file_tables = RULES_FILE_TABLES
    fighter_type = Fighter
    catalog_type = Catalog
    exact = staticmethod(enumerate_attack)
    warm_up_pair = ("veteran", "recruit")
    compile_seconds = {"duel": 7, "attack": 5, "exact": 3}

    def compile_matchup(self, fa: Fighter, fb: Fighter, rules: str | None, options: Mapping[str, str]) -> Prepared:
        opts, _ = load_rules(rules, options)  # no rule tables
        return Prepared(fa, fb, opts, compiled(compile_pair(fa, fb), compile_options(opts)))

    def behaviour(self, fighter: Fighter) -> dict[str, str]:
        return {"tactic": TACTICS[0], "reaction": REACTIONS[0]}

    def check_attack(self, prepared: Prepared) -> None:
        """Every toy fighter attacks."""

    def listings(self) -> dict[str, Listing]:
        cat = Catalog.bundled()
        fighters = [(key, f.name, str(f.skill), str(f.hit_points), f.weapon.name)
                    for key in sorted(cat.fighter_files) for f in [cat.fighter(key)]]
        return {
            "fighters": Listing(("name", "fighter", "skill", "hit points", "weapon"), fighters),
            "weapons": Listing(("name", "damage"), [(k, f"d6{w.damage_bonus:+d}" if w.damage_bonus else "d6")
                                                    for k, w in cat.weapons.items()]),
        }


RULESET = ToyRuleset()
