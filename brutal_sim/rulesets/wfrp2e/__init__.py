"""The WFRP 2nd edition melee duel ruleset (digest ``docs/rules/wfrp2e.md``, rules W-1 … W-9).

Modules, one job each: :mod:`.model` (data schema), :mod:`.catalog` (bundled catalog and fighter
files), :mod:`.options` (rule options, every GAP), :mod:`.layout` (array codes, counter names),
:mod:`.crit` (critical table files), :mod:`.compile` (models → arrays), :mod:`.kernel` (``@njit``
duel and attack kernels), :mod:`.exact` (exact single-attack enumeration).
"""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ...core.data import read_rules_file
from ...core.errors import DataError
from ...core.options import RuleOptions
from ...core.ruleset import Compiled, Kernels, Listing, Prepared, Ruleset
from . import layout as L
from .catalog import WfrpCatalog
from .compile import compile_options, compile_pair, crit_tables
from .kernel import _run_attacks, _run_duels, _run_paired
from .model import Fighter
from .options import OPTION_SPECS

KERNELS = Kernels(duels=_run_duels, attacks=_run_attacks, paired=_run_paired)


def compiled(fighters: np.ndarray, options: np.ndarray, grid: np.ndarray, effects: np.ndarray) -> Compiled:
    """WFRP arrays as a :class:`Compiled`: fighters ``int64[2, NF]``, options ``int64[NO]`` and the
    critical tables ``int64[100, CRIT_COLUMNS]``, ``int64[4, n, NFX]``."""
    return Compiled(fighters, options, (grid, effects), KERNELS, L.n_counters(int(options[L.O_ROUND_CAP])))


def load_options(rules: str | None, flags: Mapping[str, str]) -> RuleOptions:
    """Defaults < the rules file's ``[options]`` < ``--option`` flags."""
    return read_rules_file(rules, RuleOptions.defaults(OPTION_SPECS), flags, WfrpRuleset.rules_file_tables)[0]


class WfrpRuleset(Ruleset):
    name = "wfrp2e"
    title = "WFRP 2nd edition (d100 melee duels)"
    counters = L.COUNTERS
    option_specs = OPTION_SPECS
    rules_file_tables = ("options", "description", "ruleset")
    fighter_type = Fighter
    warm_up_pair = ("orc", "goblin")

    def catalog(self) -> WfrpCatalog:
        return WfrpCatalog.bundled()

    def fighter_data(self, fighter: Fighter) -> dict[str, Any]:
        return fighter.as_data()

    def _with_behaviour(self, f: Fighter, tactic: str | None, reaction: str | None, flag: str) -> Fighter:
        update: dict[str, str] = {}
        if tactic is not None:
            if tactic not in L.TACTIC_NAMES:
                raise DataError(flag, "tactic", f"unknown tactic {tactic!r}; allowed: {', '.join(L.TACTIC_NAMES)}")
            update["tactic"] = tactic
        if reaction is not None:
            if reaction not in L.REACTION_NAMES:
                raise DataError(flag.replace("tactic", "reaction"), "reaction",
                                f"unknown reaction {reaction!r}; allowed: {', '.join(L.REACTION_NAMES)}")
            update["reaction"] = reaction
        return f.model_copy(update=update)

    def prepare(self, a: Any, b: Any, rules: str | None = None, options: Mapping[str, str] | None = None,
                tactic_a: str | None = None, reaction_a: str | None = None,
                tactic_b: str | None = None, reaction_b: str | None = None) -> Prepared:
        fa = self._with_behaviour(self.load_fighter(a, "fighter a"), tactic_a, reaction_a, "--tactic-a")
        fb = self._with_behaviour(self.load_fighter(b, "fighter b"), tactic_b, reaction_b, "--tactic-b")
        opts = load_options(rules, options or {})
        grid, effects = crit_tables(opts)
        return Prepared(fa, fb, opts, compiled(compile_pair(fa, fb), compile_options(opts), grid, effects))

    def behaviour(self, fighter: Fighter) -> dict[str, str]:
        return {"tactic": fighter.tactic, "reaction": fighter.reaction}

    def check_attack(self, prepared: Prepared) -> None:
        if prepared.a.tactic == "turtle":
            usable = ", ".join(t for t in L.TACTIC_NAMES if t != "turtle")
            raise DataError("--tactic", None, f"tactic 'turtle' makes no attack; allowed for attack: {usable}")

    def exact_kernel(self) -> Any:
        from .exact import _enumerate_attack

        return _enumerate_attack

    def listings(self) -> dict[str, Listing]:
        cat = WfrpCatalog.bundled()
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
