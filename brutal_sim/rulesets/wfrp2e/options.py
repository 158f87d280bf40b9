"""The rule options of the WFRP 2e ruleset: every GAP of the digest (``docs/rules/wfrp2e.md``) with
its rule id, the digest's default and its named alternatives."""

from __future__ import annotations

from ...core.options import OptionSpec
from .layout import CRIT_CODES, FORTUNE_CODES, FURY_CODES, OPPOSED_CODES

OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec("round_cap", "W-2.7", 100, int_range=(1, 10000),
               help="a fight still running after this many rounds is a draw"),
    OptionSpec("initiative_roll", "W-2.2", "once_per_fight", ("once_per_fight", "every_round"),
               help="d10 + Ag rolled once for the fight (seed example, rulebook) or at the start of every round"),
    OptionSpec("surprise", "W-2.6", "none", ("none", "a", "b"),
               help="the surprised side loses its first-round turn and cannot parry or dodge in round 1"),
    OptionSpec("opposed", "W-1.4", "official_like", OPPOSED_CODES,
               help="opposed tests (feint): official_like: success beats failure, more degrees win, then the "
                    "higher target, then a reroll; two failures: nobody wins. both_fail_reroll: two failures "
                    "roll again. defender_wins_ties: equal degrees of success go to the defender"),
    OptionSpec("auto_results", "W-1.5", "none", ("none", "auto_01_05_96_00"),
               help="none: only the target decides; auto_01_05_96_00: 01–05 always succeed, 96–00 always fail"),
    OptionSpec("modifier_cap", "W-1.6", 0, int_range=(0, 100),
               help="cap on the sum of a test's modifiers (±N); 0 means no cap (the digest's alternative is 30)"),
    OptionSpec("defensive_stance", "W-3.6", "half", ("half", "full"),
               help="action cost of the defensive stance (attackers −20 WS until its next turn)"),
    OptionSpec("parry_dodge_choice", "W-4.6", "per_attack", ("per_attack", "per_round"),
               help="per_attack: parry one attack and dodge another in a round; per_round: once one is used the "
                    "other is unavailable until the next round"),
    OptionSpec("balanced_offhand", "W-4.10", "true", ("true", "false"), codes=(1, 0),
               help="a Balanced off-hand item attacks without the −20 WS of the off hand"),
    OptionSpec("fury_confirm", "W-4.11", "each", FURY_CODES,
               help="Ulric's Fury: each further 10 needs a new to-hit test (seed example), first_only (one "
                    "test, then d10s while they show 10), none (no test)"),
    OptionSpec("tiring", "W-4.12", "first_round", ("first_round", "ignore"),
               help="Tiring weapons: Impact and Fast apply only in the first round of the fight, or always"),
    OptionSpec("crit_model", "W-5.4", "sudden_death", CRIT_CODES,
               help="sudden_death: any critical hit takes the fighter out; threshold: a critical value ≥ "
                    "crit_threshold does; table: the critical table file crit_table decides"),
    OptionSpec("crit_threshold", "W-5.4", 5, int_range=(1, 99),
               help="X of crit_model = threshold(X)"),
    OptionSpec("crit_table", "W-5.4", "none",
               help="critical table TOML file for crit_model = table (crit_grid and crit_effects; example: "
                    "brutal_sim/data/wfrp2e/crit_example.toml, or 'example')"),
    OptionSpec("prone_bonus", "W-6.4", 0, int_range=(0, 30),
               help="WS bonus of attacks against a prone fighter (the digest's alternative is 20)"),
    OptionSpec("fortune", "W-8.7", "reaction_first", FORTUNE_CODES,
               help="fortune points reroll failed tests: reaction_first keeps the last point for a parry or "
                    "dodge, attack_first keeps it for an attack, never spends none"),
    OptionSpec("fortune_extra_reaction", "W-6.5", "extra_use", ("extra_use", "reroll_only"),
               help="extra_use: a fortune point also buys a parry or dodge beyond the once-per-round limit; "
                    "reroll_only: it only rerolls a failed one"),
    OptionSpec("strike_mighty_blow", "W-9.3", "ignore", ("ignore", "plus1"),
               help="the Strike Mighty Blow talent: no effect, or +1 melee damage"),
    OptionSpec("street_fighting", "W-9.3", "ignore", ("ignore", "on"),
               help="the Street Fighting talent: no effect, or +10 WS and +1 damage unarmed"),
    OptionSpec("start_distance", "W-8.8", 0, int_range=(0, 100),
               help="yards between the fighters at the start; from 4 the first mover with an attacking tactic "
                    "charges (+10 WS); below 4 they start engaged"),
)
