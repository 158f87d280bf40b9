"""The WFRP 2nd edition melee duel ruleset (digest ``docs/rules/wfrp2e.md``, rules W-1 … W-9).

Files, one job each: :mod:`.model` (data schema), :mod:`.catalog` (bundled catalog, fighter files,
rules files: options, critical table), :mod:`.options` (rule options, every GAP, with their slots
and codes in the kernels' option row), :mod:`.layout` (fighter, state and counter layouts, the
critical table's codes), :mod:`.compile` (models → arrays), :mod:`.kernel` (the numba duel and
attack kernels, a package with one module per rule chapter), :mod:`.exact` (exact single-attack
enumeration), and :mod:`.crit` (critical table files → arrays, for ``crit_model = table``). This
module ties them into :data:`RULESET`.
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

from ...core.errors import DataError
from ...core.options import RuleOptions
from ...core.schema_tools import FileKind
from ...core.ruleset import Compiled, Kernels, Listing, Prepared, Ruleset
from . import layout as L
from .catalog import RULES_FILE_TABLES, Catalog, load_rules
from .compile import compile_pair
from .exact import enumerate_attack
from .kernel import run_attacks, run_duels, run_paired
from .model import Fighter
from .options import O_ROUND_CAP, OPTION_SPECS, compile_options

KERNELS = Kernels(duels=run_duels, attacks=run_attacks, paired=run_paired)


def compiled(fighters: np.ndarray, options: np.ndarray, grid: np.ndarray, effects: np.ndarray) -> Compiled:
    """WFRP arrays as a :class:`Compiled`: fighters ``int64[2, NF]``, options ``int64[NO]`` and the
    critical tables ``int64[100, CRIT_COLUMNS]``, ``int64[4, n, NFX]``."""
    return Compiled(fighters, options, (grid, effects), KERNELS, L.n_counters(int(options[O_ROUND_CAP])))


class WfrpRuleset(Ruleset):
    name = "wfrp2e"
    title = "WFRP 2nd edition (d100 melee duels)"
    counters = L.COUNTERS
    option_specs = OPTION_SPECS
    rules_file_tables = RULES_FILE_TABLES
    fighter_type = Fighter
    catalog_type = Catalog
    exact = staticmethod(enumerate_attack)
    warm_up_pair = ("orc", "goblin")
    #: stat weights step the characteristics by 5 (one advance of a career scheme), Attacks and
    #: Wounds by one, the main weapon's damage and each armour's points by one
    adjustable = (("ws", 5), ("s", 5), ("t", 5), ("ag", 5), ("a", 1), ("w", 1), ("main_hand.damage", 1),
                  ("armour.*.head", 1), ("armour.*.arms", 1), ("armour.*.body", 1), ("armour.*.legs", 1))
    compile_seconds = {"duel": 13, "attack": 13, "exact": 8}

    matrix_tactics = L.TACTIC_NAMES
    matrix_reactions = ("parry_first", "dodge_first")

    rule_prefix, digest, reference = "W", "rules/wfrp2e.md", "reference-wfrp2e.md"

    def file_kinds(self) -> dict[str, FileKind]:
        from .schema import file_kinds

        return file_kinds()

    def rule_options(self, rules: str | None, options: Mapping[str, str]) -> RuleOptions:
        return load_rules(rules, options)[0]

    def compile_matchup(self, fa: Fighter, fb: Fighter, rules: str | None, options: Mapping[str, str]) -> Prepared:
        opts, (grid, effects) = load_rules(rules, options)
        arena, start = int(opts.values["arena"]), int(opts.values["start_distance"])
        if 0 < arena < start:
            raise DataError("options", "arena", f"{arena} yards is shorter than start_distance {start}: the "
                                            "fighters' starting positions lie within the arena (W-11.5)")
        return Prepared(fa, fb, opts, compiled(compile_pair(fa, fb), compile_options(opts), grid, effects))

    def behaviour(self, fighter: Fighter) -> dict[str, str]:
        return {"tactic": fighter.tactic, "reaction": fighter.reaction}

    def check_attack(self, prepared: Prepared) -> None:
        if prepared.a.tactic == "turtle":
            usable = ", ".join(t for t in L.TACTIC_NAMES if t != "turtle")
            raise DataError("tactic_a", None, f"tactic 'turtle' makes no attack; allowed for attack: {usable}")
        d = int(prepared.options["start_distance"])
        difficult = prepared.options["terrain"] == "difficult"
        reach = 4 * prepared.a.m
        if difficult:
            reach = 0 if prepared.options["difficult_charge"] == "forbidden" else 2 * prepared.a.m
        if d >= L.CHARGE_DISTANCE and d > reach:
            raise DataError("options", "start_distance",
                            f"{d} yards is beyond side a's charge reach ({reach} yards, W-11.2): it makes no attack "
                            "in its first turn; attack measures from at most 3 yards (a move and an attack) or "
                            "from 4 yards up to the charge reach (a charge, +10 WS)")

    def listings(self) -> dict[str, Listing]:
        cat = Catalog.bundled()
        fighters = []
        for key in sorted(cat.fighter_files):
            f = cat.fighter(key)
            fighters.append((key, f.name, f"{f.ws}", f"{f.ag}", f"{f.a}", f"{f.w}",
                             f"{f.strength_bonus}/{f.toughness_bonus}", "—" if f.dodge is None else str(f.dodge),
                             f.main_hand.name if f.main_hand else "unarmed", f.off_hand.name if f.off_hand else "—",
                             ", ".join(x.name for x in f.armour) or "—", f.tactic, f.reaction))
        return {
            "fighters": Listing(("name", "fighter", "WS", "Ag", "A", "W", "SB/TB", "dodge", "main hand",
                                 "off hand", "armour", "tactic", "reaction"), fighters),
            "weapons": Listing(("name", "group", "damage", "qualities", "two-handed", "off hand"), [
                (k, w.group, f"SB{w.damage:+d}" if w.damage else "SB", ", ".join(w.qualities) or "—",
                 "yes" if w.two_handed else "", "yes" if w.off_hand else "") for k, w in cat.weapons.items()]),
            "armour": Listing(("name", "head", "arms", "body", "legs", "Ag penalty"), [
                (k, str(x.head), str(x.arms), str(x.body), str(x.legs), f"-{x.ag_penalty}" if x.ag_penalty else "")
                for k, x in cat.armour.items()]),
            "talents": Listing(("name", "rule", "option", "description"), [
                (k, x.rule, x.option or "— (no effect)", x.description) for k, x in cat.talents.items()]),
            "tactics": Listing(("name", "rule"), [(t, f"W-8.{i + 1}") for i, t in enumerate(L.TACTIC_NAMES)]),
        }


RULESET = WfrpRuleset()
