"""A toy ruleset, built from the recipe of ``docs/rulesets.md`` to prove it; the tests register
it (``brutal_sim.core.ruleset.register("toy", "toy_ruleset")``), it is not in the bundled table.

Its whole rulebook:

- T-1 Attack: the attacker rolls 2d6 + its skill, the defender 2d6 + its skill; a higher attack
  total hits (a tie misses, or hits with ``ties = hit``).
- T-2 Damage: a hit deals d6 + the weapon's damage bonus, never below 0.
- T-3 Hit points: damage comes off the defender's hit points; at 0 or below it is out of the
  fight, at −3 or below dead.
- T-4 Rounds: each round every fighter still in takes one turn in the turn order (T-5; in a duel:
  side a, then side b) until a side is out. ``strikes = in_turn``: a fighter put out takes no more
  turns, and the fight ends with the turn that puts a side's last fighter out; ``simultaneous``
  (duels only; a fight of more than two refuses it): a fighter put out still takes its turn in that
  round (strikes back), the fight is decided at the end of the round, both out is a draw. A fight
  still running after ``round_cap`` rounds is a draw.
- T-5 Group fights: 1 … 6 fighters a side (``brutal-sim fight veteran vs recruit*3``). The turn
  order is settled once, before round 1: ``turn_order = sides`` (default) side a's fighters in line
  order, then side b's (a duel: a, then b; no dice); ``initiative``: one d6 + skill each, higher
  first, ties to the more hit points, a full tie rerolled (the shared ``turn_order``). In a fight of
  more than two a fighter chooses its foe just before each of its turns by its ``targeting``
  (``spread``, the default: the enemy with the fewest others on it; ``weakest``: the most hit points
  lost; ``nearest``: keeps its foe while it is in; ties as in ``toolbox.battle.choose_foe``). There
  is no attack limit (any number may attack one fighter), and nobody attacks a fighter who is out.
- T-6 Distance: side b starts ``start_distance`` steps from side a (default 0: engaged). On its turn
  a fighter apart from its foe shoots if its weapon's ``range`` reaches it (a shot is T-1 with the
  attack total less 2, T-2 damage), else moves its ``speed`` (default 5) toward its foe, stopping on
  it, and that is its turn; engaged (distance 0) it attacks as T-1. A weapon's ``range`` 0 (the
  default) is a melee weapon. A single attack (``brutal-sim attack``) is made engaged.

Modules, one job each: :mod:`.model` (data schema), :mod:`.catalog` (catalog, fighter files, rules
files), :mod:`.options` (rule options and their kernel slots), :mod:`.layout` (array codes, counter
names), :mod:`.compile` (models → arrays), :mod:`.kernel` (``@njit`` rules on the shared battle
mechanics), :mod:`.drivers` (the parallel loops), :mod:`.exact` (exact single attack).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from brutal_sim.core.battle import TARGETING
from brutal_sim.core.counters import MAX_SIDE
from brutal_sim.core.errors import DataError
from brutal_sim.core.ruleset import Compiled, Kernels, KernelSet, Listing, Prepared, PreparedFight, Ruleset

from . import layout as L
from .catalog import RULES_FILE_TABLES, Catalog, load_rules
from .compile import compile_pair, compile_sides
from .drivers import paired, run
from .exact import enumerate_attack
from .model import REACTIONS, TACTICS, Fighter
from .options import O_ROUND_CAP, O_START_DISTANCE, OPTION_SPECS, compile_options

#: the toy's drivers, by kernel set (T-6: ``ranged`` for a fight that starts apart; T-5: ``group``
#: for group fights, with the group block and no single-attack sampler)
KERNELS = Kernels(run, paired)


def kernel_set(options: np.ndarray, group: bool = False) -> KernelSet:
    """The kernel set of a toy run: ``ranged`` when side b starts apart (T-6)."""
    return KernelSet(ranged=int(options[O_START_DISTANCE]) > 0, group=group)


def compiled(fighters: np.ndarray, options: np.ndarray) -> Compiled:
    """Toy arrays as a :class:`Compiled`: fighters ``int64[2, NF]``, options ``int64[NO]``, no tables."""
    return Compiled(fighters, options, (), KERNELS.playing(kernel_set(options)),
                    L.n_counters(int(options[O_ROUND_CAP])))


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
    capabilities = frozenset({"fights", "distance"})
    targeting_policies = TARGETING
    #: the rulebook is this module's docstring (the rule-id accounting reads it); every rule is modelled
    rule_prefix, digest, reference = "T", str(Path(__file__).resolve()), None

    def compile_matchup(self, fa: Fighter, fb: Fighter, rules: str | None, options: Mapping[str, str]) -> Prepared:
        opts, _ = load_rules(rules, options)  # no rule tables
        return Prepared(fa, fb, opts, compiled(compile_pair(fa, fb), compile_options(opts)))

    def prepare_fight(self, side_a: Sequence[Any], side_b: Sequence[Any], rules: str | None = None,
                      options: Mapping[str, str] | None = None) -> PreparedFight:
        """Load, validate and compile a group fight (T-5): each side 1 … 6 fighter refs (catalog names,
        TOML paths or :class:`Fighter` objects) in line order."""
        sides = []
        for key, refs in (("a", side_a), ("b", side_b)):
            refs = [refs] if isinstance(refs, (str, Fighter)) else list(refs)
            if not 1 <= len(refs) <= MAX_SIDE:
                raise DataError(f"side {key}", None, f"has {len(refs)} fighters; allowed 1..{MAX_SIDE} a side")
            sides.append(tuple(self.load_fighter(ref, f"side {key} fighter {n + 1}") for n, ref in enumerate(refs)))
        opts, _ = load_rules(rules, options or {})
        if opts["strikes"] == "simultaneous" and len(sides[0]) + len(sides[1]) > 2:
            raise DataError("options", "strikes", "simultaneous is for duels (T-4); allowed in_turn for a fight "
                            "of more than two")
        F = compile_sides(sides[0], sides[1])
        row = compile_options(opts)
        k = L.n_fight_counters(int(row[O_ROUND_CAP]), F.shape[0])
        return PreparedFight(sides[0], sides[1], opts,
                             Compiled(F, row, (), KERNELS.playing(kernel_set(row, group=True)), k), self.name)

    def behaviour(self, fighter: Fighter) -> dict[str, str]:
        return {"tactic": TACTICS[0], "reaction": REACTIONS[0]}

    def check_attack(self, prepared: Prepared) -> None:
        """Every toy fighter attacks; a single attack is made engaged (T-6)."""
        if int(prepared.options["start_distance"]) != 0:
            raise DataError("options", "start_distance", f"{prepared.options['start_distance']}: a single toy attack "
                            "is made engaged; allowed 0")

    def listings(self) -> dict[str, Listing]:
        cat = Catalog.bundled()
        fighters = [(key, f.name, str(f.skill), str(f.hit_points), str(f.speed), f.weapon.name)
                    for key in sorted(cat.fighter_files) for f in [cat.fighter(key)]]
        return {
            "fighters": Listing(("name", "fighter", "skill", "hit points", "speed", "weapon"), fighters),
            "weapons": Listing(("name", "damage", "range"), [
                (k, f"d6{w.damage_bonus:+d}" if w.damage_bonus else "d6", str(w.range) if w.range else "melee")
                for k, w in cat.weapons.items()]),
        }


RULESET = ToyRuleset()
