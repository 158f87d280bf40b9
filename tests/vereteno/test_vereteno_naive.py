"""The Vereteno kernel against the pure-Python reference ``tests/vereteno/naive_vereteno.py``: for the same
``(seed, index)`` both must give the same counter row, duel by duel and attack by attack, over
several pairs, tactics, reactions, spending policies and rule options."""

from __future__ import annotations

import numpy as np
import pytest

import naive_vereteno as nv
from brutal_sim.rulesets.vereteno import RULESET
from brutal_sim.rulesets.vereteno.catalog import Catalog
from brutal_sim.rulesets.vereteno.kernel import run_attacks, run_duels

SEED = 20261129


@pytest.fixture(autouse=True, scope="module")
def one_numba_thread():
    """Hundreds of one-duel kernel calls: one thread avoids a parallel launch per call."""
    import numba

    before = numba.get_num_threads()
    numba.set_num_threads(1)
    yield
    numba.set_num_threads(before)


def _fighter(name: str, **changes):
    f = Catalog.bundled().fighter(name)
    if not changes:
        return f
    data = RULESET.fighter_data(f)
    data.update(changes)
    return RULESET.fighter_from_data(data, "test", name)


CASES = [
    ("swordsman", "brute", {}, {}, {}),
    ("duelist", "knight", {}, {}, {}),
    ("brawler", "militia", {}, {}, {}),
    ("knight", "brute", {"tactic": "quick3"}, {"tactic": "std_guard", "reaction": "best"}, {}),
    ("duelist", "swordsman", {"tactic": "quick_guard2", "attack_spending": "disarm_first"},
     {"defence_spending": "counter_first"}, {"one_value": "-1", "desperation": "yze"}),
    ("militia", "brawler", {"attack_spending": "intimidate"}, {"tactic": "turtle"},
     {"ap_refill": "turn_start", "init_roll": "every_round", "init_weapon_term": "modifier", "round_cap": "6"}),
    ("brute", "swordsman", {"attack_spending": "damage_only", "weapon": "great_hammer"},
     {"reaction": "dodge", "armour": "power_armour"},
     {"armour_ones": "net", "armour_piercing_dice": "3", "shield": "ignore", "shock_timing": "next_turn",
      "pickup": "pickup_and_ready", "dodge_modifier": "weapon_plus_attack_type", "desperation": "app",
      "surprise": "b", "surprise_init": "keep_highest"}),
    ("knight", "swordsman", {"weapon": "club"}, {"tactic": "power"}, {"surprise": "a", "stealth_attack": "dice"}),
    ("militia", "duelist", {}, {"tactic": "quick3"}, {"surprise": "a", "stealth_attack": "extra_attack"}),
    ("militia", "brawler", {}, {"reaction": "dodge"}, {"exposure": "miss_becomes_hit"}),
    ("militia", "brawler", {}, {}, {"prayer": "app"}),
    ("swordsman", "brute", {"attack_spending": "intimidate"}, {"reaction": "defend"}, {"prayer": "app"}),
    ("duelist", "knight", {}, {"reaction": "dodge"},
     {"prayer": "yze", "npc_reactions": "tokens", "npc": "both", "npc_tokens_a": "2", "npc_tokens_b": "1"}),
    ("knight", "brute", {}, {}, {"npc_reactions": "none", "npc": "a"}),
    ("brawler", "militia", {"tactic": "quick_guard2"}, {"tactic": "quick_guard2"},
     {"npc_reactions": "tokens", "npc_tokens_b": "4"}),
    ("swordsman", "duelist", {}, {}, {"immobilised": "both", "prayer": "app"}),
    ("brute", "militia", {"tactic": "power"}, {}, {"immobilised": "b"}),
    ("brawler", "swordsman", {"tactic": "battle_cry", "skills": {"melee": 2, "nimbleness": 1, "influence": 3}},
     {"tactic": {"attack": "standard", "keep": 0, "battle_cry": True}}, {"prayer": "app"}),
]


@pytest.mark.parametrize("a,b,ca,cb,options", CASES)
def test_duels_agree_one_by_one(a, b, ca, cb, options):
    fa, fb = _fighter(a, **ca), _fighter(b, **cb)
    p = RULESET.prepare(fa, fb, options=options)
    opts = p.options.as_dict()
    traumas = list(Catalog.bundled().traumas.values())
    k = p.compiled.n_counters
    total = np.zeros(k, dtype=np.int64)
    for index in range(200):
        got = run_duels(*p.compiled.args(), np.uint64(SEED), np.int64(index), np.int64(1), 1, k)[0]
        want = nv.play(fa, fb, opts, traumas, SEED, index)
        assert got.tolist() == want, f"duel {index}"
        total += got
    c = RULESET.counters
    assert total[c.wins:c.wins + 2].sum() + total[c.draws] == 200
    assert total[c.wound:c.special_at].sum() > 0  # blows were landed and compared


@pytest.mark.parametrize("a,b,ca,cb,options", CASES[:5] + CASES[9:])  # 9: exposure, 10–14: prayer, NPC reactions
def test_single_attacks_agree(a, b, ca, cb, options):
    fa, fb = _fighter(a, **ca), _fighter(b, **cb)
    p = RULESET.prepare(fa, fb, options=options)
    opts = p.options.as_dict()
    traumas = list(Catalog.bundled().traumas.values())
    k = p.compiled.n_counters
    for index in range(200):
        got = run_attacks(*p.compiled.args(), np.uint64(SEED), np.int64(index), np.int64(1), 1, k)[0]
        assert got.tolist() == nv.play(fa, fb, opts, traumas, SEED, index, single_attack=True), f"attack {index}"
