"""The exact enumeration of one attack against the sampling kernel, within 4 standard errors."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_exact_matches_sampled

from brutal_sim import api

N = 200_000
TIRED_BRAWLER = api.load_fighter("brawler").vary(fatigue=2)           # B-7.8 tired: −1 to all checks
EXHAUSTED_KNIGHT = api.load_fighter("knight").vary(fatigue=4)         # endurance 3: exhausted, −2
MATCHUPS = [
    ("swordsman", "brute", {}, {}),
    ("brute", "swordsman", {}, {}),
    ("duelist", "knight", {}, {}),
    ("knight", "duelist", {"armour_model": "protection_only"}, {}),
    ("militia", "brawler", {"margin_against": "max(base,reaction)"}, {}),
    ("brawler", "brawler", {}, {"reaction": "parry"}),          # fists vs bare hands (B-7.7)
    ("militia", "brawler", {}, {"reaction": "parry"}),          # bare-handed parry of a spear (B-7.7)
    ("dual_blades", "knight", {"extra_successes_floor_damage": "false"}, {"tactic": "aimed:head"}),
    ("duelist", "swordsman", {"melee_damage_adds_strength": "true"}, {"tactic": "feint"}),
    ("knight", "militia", {"attack_needs_base_difficulty": "false"}, {"tactic": "defensive"}),
    ("swordsman", "duelist", {"cramped_space": "true"}, {}),   # B-7.9 voided attacks and parries
    ("brawler", "swordsman", {"cramped_space": "true"}, {}),   # fists are never voided
    (TIRED_BRAWLER, "brawler", {}, {"reaction": "parry"}),     # B-7.8 in the attack and the fist contest
    ("swordsman", EXHAUSTED_KNIGHT, {}, {}),                   # B-7.8 in the parry
    ("crossbowman", "swordsman", {"start_distance": 40}, {}),  # B-8 medium range, dodged shots
    ("crossbowman", "knight", {"start_distance": 100}, {"tactic": "aimed:head"}),  # long range, aimed
    ("crossbowman", "militia", {"start_distance": 2}, {"tactic": "defensive"}),    # point blank
    ("crossbowman", "brawler", {}, {"reaction": "parry"}),     # fired in melee, bare-handed parry
    ("crossbowman", "militia", {}, {"tactic": "shoot_until_engaged"}),  # engaged: drops it, fists
]


@pytest.mark.parametrize("a,b,options,kw", MATCHUPS, ids=lambda v: getattr(v, "name", None))
def test_exact_matches_sampled(a, b, options, kw):
    ex = api.attack(a, b, options=options, **kw)
    sa = api.attack(a, b, n=N, seed=17, options=options, **kw)
    assert_exact_matches_sampled(ex, sa, N)
    # mean damage per attack: standard error from the sampled second moment bound (max 30 damage)
    assert abs(ex.mean_damage_per_attack - sa.mean_damage_per_attack) < 4 * 30 / np.sqrt(N) * 0.5


def test_aimed_attack_hits_only_the_aimed_zone():
    r = api.attack("swordsman", "militia", tactic="aimed:head").to_dict()
    assert r["zone"]["head"] == pytest.approx(1.0)


def test_default_zone_table_shares():
    # B-4.9 default: 1–6 legs, 7–14 torso, 15–18 arms, 19–20 head; militia has no reaction here
    r = api.attack("swordsman", "militia", reaction="none").to_dict()
    assert r["zone"] == pytest.approx({"head": 0.1, "torso": 0.4, "arm": 0.2, "leg": 0.3})


def test_attack_of_a_prepared_matchup_is_the_attack():
    """api.attack_of (the CLI's path: one preparation) gives what api.attack gives, sampled and exact."""
    prepared = api.prepare("militia", "brawler", options={"cramped_space": "true"}, tactic_a="defensive",
                           reaction_b="parry")
    for n in (None, 20_000):
        direct = api.attack("militia", "brawler", n=n, seed=5, options={"cramped_space": "true"},
                            tactic="defensive", reaction="parry").to_dict()
        assert api.attack_of(prepared, n=n, seed=5).to_dict() == direct
        assert direct["tactic"] == "defensive" and direct["reaction"] == "parry"
