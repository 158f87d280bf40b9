"""The Vereteno kernel against the pure-Python reference ``tests/vereteno/naive_vereteno.py``: for the same
``(seed, index)`` both must give the same counter row, duel by duel and attack by attack, over
several pairs, tactics, reactions, spending policies and rule options."""

from __future__ import annotations

import naive_vereteno as nv
import numpy as np
import pytest

from brutal_sim.rulesets.vereteno import RULESET
from brutal_sim.rulesets.vereteno.catalog import Catalog

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
    ("militia", "knight", {"attack_spending": "intimidate", "skills": {"melee": 4}},
     {"attributes": {"physique": 4, "agility": 3, "intellect": 1, "empathy": 1}}, {}),
    ("swordsman", "brute", {}, {"fastest_hand": True}, {"start_ready": "no"}),
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
        got = p.compiled.kernels.duels(*p.compiled.args(), np.uint64(SEED), np.int64(index), np.int64(1), 1, k)[0]
        want = nv.duel(fa, fb, opts, traumas, SEED, index)
        assert got.tolist() == want, f"duel {index}"
        total += got
    c = RULESET.counters
    assert total[c.wins:c.wins + 2].sum() + total[c.draws] == 200
    assert total[c.wound:c.special_at].sum() > 0  # blows were landed and compared


RANGED_CASES = [
    ("rifleman", "swordsman", {}, {"tactic": "charge", "cover": 4}, {"start_distance": "30"}),
    ("rifleman", "swordsman", {"tactic": "std_shot"}, {}, {"start_distance": "30", "engaged_range": "add"}),
    ("gunfighter", "gunfighter", {"cover": 3, "tactic": "braced_aimed"}, {"cover": 3, "reaction": "best"},
     {"start_distance": "20"}),
    ("gunfighter", "rifleman", {"cover": 2, "tactic": "braced_aimed"}, {"tactic": "braced_aimed", "cover": 1},
     {"start_distance": "15", "brace": "next_shot"}),
    ("gunfighter", "gunfighter", {"cover": 3, "tactic": "std_shot"}, {"cover": 5},
     {"start_distance": "20", "hip_chain": "per_turn", "cover_ones": "armour_first", "armour_ones": "net"}),
    ("gunner", "rifleman", {}, {"cover": 2}, {"start_distance": "20"}),
    ("gunner", "rifleman", {"attack_spending": "trauma_first"}, {},
     {"start_distance": "20", "burst_hit": "first_check", "stop_die": "not_counted", "one_value": "-1"}),
    ("gunner", "raider", {}, {"shield": "archaic_shield"},
     {"start_distance": "25", "prayer": "app", "shield": "cover_like"}),
    ("rifleman", "gunfighter", {"tactic": "advance_fire", "cover": 3},
     {"gun": "kurovski_rail_pistol", "tactic": "std_shot"},
     {"start_distance": "300", "armour_piercing_dice": "2", "init_roll": "every_round"}),
    ("raider", "gunfighter", {}, {"gun": "bow", "tactic": "std_shot", "size_mod": 1}, {"start_distance": "40"}),
    ("gunfighter", "raider", {"gun": "pump_shotgun", "tactic": "std_shot", "cover": 2},
     {"tactic": "charge", "cover": 3}, {"start_distance": "25", "long_reload": "extended", "ammo": "magazine",
                                        "cover_move": "keep"}),
    ("gunner", "gunner", {"gun": "shagov_smg", "skills": {"shooting": 0}}, {"tactic": "hip_spam"},
     {"start_distance": "90", "burst_desperate": "no_continuation", "ammo": "magazine"}),
    ("rifleman", "swordsman", {"tactic": "overwatch"}, {}, {"start_distance": "30"}),
    ("rifleman", "gunfighter", {}, {"tactic": "overwatch"}, {"start_distance": "30", "visibility": "poor"}),
    ("gunfighter", "gunfighter", {"skills": {"shooting": 3, "perception": 3}}, {"tactic": "braced_aimed", "cover": 3},
     {"start_distance": "15", "visibility": "poor", "visibility_check": "per_shot", "prayer": "app"}),
    ("gunner", "gunfighter", {"attack_spending": "suppress_covered", "suppress_at": 4}, {"cover": 3},
     {"start_distance": "20"}),
    ("swordsman", "brute", {"attack_spending": "suppress_covered"}, {}, {"start_distance": "5"}),
    ("gunner", "raider", {"gun": "shagov_smg", "attack_spending": "trauma_first"}, {"speed": 9},
     {"start_distance": "60", "high_capacity": "extra_chain", "halving": "stack"}),
    ("rifleman", "brute", {"tactic": "std_shot", "attack_spending": "trauma_first"}, {},
     {"start_distance": "80", "halving": "once"}),
    ("rifleman", "swordsman", {"tactic": "kite", "speed": 12}, {"speed": 8}, {"start_distance": "20"}),
    ("gunfighter", "raider", {"tactic": "kite", "cover": 2}, {}, {"start_distance": "1", "cover_move": "keep"}),
    ("raider", "gunner", {}, {"tactic": "kite"}, {"start_distance": "25", "gun_melee": "none"}),
    ("raider", "gunfighter", {}, {"reaction": "best"}, {"start_distance": "12", "gun_melee": "none"}),
    ("raider", "gunfighter", {}, {"reaction": "defend", "weapon": "knife"}, {"start_distance": "12"}),
    ("rifleman", "raider", {"tactic": "overwatch"}, {},
     {"start_distance": "40", "overwatch_move": "end", "overwatch_expiry": "refill", "init_roll": "every_round"}),
    ("gunfighter", "gunfighter", {"tactic": "overwatch", "cover": 2}, {"cover": 2},
     {"start_distance": "15", "overwatch_cost": "declare_quick", "overwatch_break": "any_hit"}),
    ("gunner", "rifleman", {"tactic": "overwatch"}, {"tactic": "braced_aimed", "cover": 3},
     {"start_distance": "20", "ammo": "magazine"}),
    ("swordsman", "swordsman", {"weapon": "spear"}, {}, {"start_distance": "30"}),
    ("raider", "swordsman", {}, {"weapon": "spear", "tactic": "quick3"}, {"start_distance": "12"}),
    ("rifleman", "swordsman", {"tactic": "kite"}, {"weapon": "spear"}, {"start_distance": "20"}),
    ("rifleman", "swordsman", {"tactic": "std_shot"}, {"weapon": "spear", "tactic": "charge"},
     {"start_distance": "30", "engaged_range": "add"}),
    ("rifleman", "gunfighter", {"tactic": {"shot": "aimed", "keep": 0, "move": "hold", "engaged": "draw",
                                           "redraw": True}}, {"tactic": "kite"}, {"start_distance": "1"}),
    ("gunner", "gunfighter", {"tactic": {"shot": "burst", "keep": 0, "move": "hold", "engaged": "draw",
                                         "redraw": True}}, {"tactic": "kite", "fastest_hand": True},
     {"start_distance": "1", "pickup": "pickup_and_ready", "start_ready": "no"}),
    # V-10.8 lying prone by choice: the prone tactic, a fighter starting prone (crawling away at half speed,
    # standing up to close in under sector control, to fight at point blank), prone_melee both ways
    ("rifleman", "swordsman", {"tactic": "prone_aimed"}, {}, {"start_distance": "30"}),
    ("gunfighter", "rifleman", {"tactic": "kite", "prone": True}, {"tactic": "prone_aimed"},
     {"start_distance": "20", "halving": "stack"}),
    ("swordsman", "swordsman", {}, {"prone": True}, {"start_distance": "1"}),
    ("swordsman", "duelist", {"prone": True}, {}, {"start_distance": "1", "prone_melee": "0"}),
    ("rifleman", "raider", {"tactic": "overwatch"}, {"prone": True}, {"start_distance": "40"}),
    ("knife_thrower", "gunfighter", {"prone": True}, {"tactic": "prone_aimed", "cover": 2}, {"start_distance": "30"}),
    # V-10.10 the stealth approach: plain and opposed, both failures, ambush, the stealth attacks, prayer
    ("raider", "rifleman", {"skills": {"melee": 3, "nimbleness": 1, "influence": 1, "stealth": 3}}, {},
     {"start_distance": "40", "stealth": "a", "stealth_distance": "2", "stealth_attack": "extra_attack"}),
    ("raider", "rifleman", {"skills": {"melee": 3, "nimbleness": 1, "influence": 1, "stealth": 3}}, {},
     {"start_distance": "40", "stealth": "a", "stealth_distance": "15", "stealth_check": "opposed",
      "stealth_fail": "declared_distance", "stealth_ambush": "on", "stealth_attack": "dice"}),
    ("swordsman", "raider", {}, {"skills": {"melee": 3, "nimbleness": 1, "influence": 1, "stealth": 3}},
     {"start_distance": "1", "stealth": "b", "stealth_distance": "0", "prayer": "app", "stealth_check": "opposed"}),
    # V-1.5 ties of the opposed stealth check: a success, or both roll again (with prayer)
    ("raider", "rifleman", {"skills": {"melee": 3, "nimbleness": 1, "influence": 1, "stealth": 3}}, {},
     {"start_distance": "40", "stealth": "a", "stealth_distance": "2", "stealth_check": "opposed",
      "ties": "initiator_wins"}),
    ("raider", "rifleman", {"skills": {"melee": 3, "nimbleness": 1, "influence": 1, "stealth": 3}}, {},
     {"start_distance": "40", "stealth": "a", "stealth_distance": "2", "stealth_check": "opposed",
      "ties": "reroll", "prayer": "yze"}),
    ("gunfighter", "rifleman", {"skills": {"shooting": 2, "nimbleness": 2, "stealth": 2}}, {"tactic": "prone_aimed"},
     {"start_distance": "200", "stealth": "a", "stealth_distance": "50", "surprise_init": "keep_highest"}),
    ("rifleman", "raider", {}, {}, {"start_distance": "25", "start_ready": "no"}),
    ("knife_thrower", "swordsman", {}, {}, {"start_distance": "30"}),
    ("knife_thrower", "rifleman", {"attack_spending": "intimidate"}, {"cover": 3},
     {"start_distance": "25", "throw_range": "medium", "throw_ready": "free", "prayer": "app"}),
    ("knife_thrower", "gunfighter", {"tactic": {"shot": "throw", "move": "hold", "keep": 0},
                                     "thrown": ["improvised", "kosin_rifle", "spear", "knife"]},
     {"reaction": "dodge"}, {"start_distance": "5", "exposure": "miss_becomes_hit", "visibility": "poor"}),
    ("rifleman", "knife_thrower", {"tactic": "overwatch"}, {}, {"start_distance": "30", "overwatch_move": "end"}),
    ("knife_thrower", "raider", {"attack_spending": "disarm_first", "thrown": ["hatchet", "knife"]}, {},
     {"start_distance": "1", "ranged_disarm": "on", "throw_ready": "free"}),
    ("knife_thrower", "brute", {"attack_spending": "suppress_covered", "suppress_at": 2},
     {"armour": "leather_armour"}, {"start_distance": "12", "throw_range": "medium", "npc": "a",
                                    "npc_reactions": "tokens", "npc_tokens_a": "1"}),
    ("rifleman", "swordsman", {"tactic": "std_shot"}, {}, {"start_distance": "30", "gm_reload_tokens": "on"}),
    ("gunfighter", "gunfighter", {"gun": "sych", "tactic": "hip_spam"}, {},
     {"start_distance": "20", "gm_reload_tokens": "on", "npc_tokens_b": "5", "npc_reactions": "tokens",
      "red_dot_sight_dice": "2", "light_dice": "-1"}),
    ("rifleman", "swordsman", {"tactic": "std_shot", "attack_spending": "disarm_first",
                               "skills": {"shooting": 5}}, {}, {"start_distance": "40", "ranged_disarm": "on"}),
    ("gunner", "raider", {"gun": "fenyok", "attack_spending": "disarm_first"}, {},
     {"start_distance": "25", "ranged_disarm": "on", "reliable_dice": "-3"}),
    # V-6.9 shots, sector shots and throws at an immobilised fighter; V-11.12 first_check with the stopping 1;
    # V-12.3 suppression through armour and cover putting the target out; V-16.2 hits for 0 damage
    ("rifleman", "gunner", {}, {"tactic": "overwatch"}, {"start_distance": "150", "immobilised": "both"}),
    ("knife_thrower", "rifleman", {}, {}, {"start_distance": "20", "throw_range": "medium", "immobilised": "b"}),
    ("gunner", "rifleman", {"attack_spending": "damage_only"}, {"cover": 2},
     {"start_distance": "20", "burst_hit": "first_check"}),
    ("gunfighter", "rifleman", {"attack_spending": "intimidate", "tactic": "std_shot"},
     {"attributes": {"physique": 3, "agility": 4, "intellect": 1, "empathy": 1}, "cover": 3},
     {"start_distance": "15"}),
    ("rifleman", "gunfighter", {"gun": "grenade_launcher", "tactic": "std_shot"}, {"gun": "pneumatic_injector"},
     {"start_distance": "20"}),
]


@pytest.mark.parametrize("a,b,ca,cb,options", RANGED_CASES)
def test_duels_at_a_distance_agree_one_by_one(a, b, ca, cb, options):
    """V-10.4, V-11.2, V-11.3, V-11.4, V-11.5, V-11.6, V-11.9, V-11.12, V-11.13, V-11.14, V-11.16,
    V-11.17, V-12.3, V-15.4, V-15.5, V-15.7, V-15.8, V-3.15, V-10.9: the kernels at a distance (moves, every
    shot, bursts, reloads, bracing, sector control, cover, suppression, drawing the sidearm and the
    gun again, readying at the start, a long weapon's reach) against the reference, duel by duel;
    V-11.7, V-11.20, V-12.5 throws (moving to the item's range, dodges, readying, then melee), V-11.21
    the property dials, V-12.4 ranged disarm and V-11.14 (d) the GM's jamming tokens too."""
    fa, fb = _fighter(a, **ca), _fighter(b, **cb)
    p = RULESET.prepare(fa, fb, options=options)
    opts = p.options.as_dict()
    traumas = list(Catalog.bundled().traumas.values())
    k = p.compiled.n_counters
    c = RULESET.counters
    total = np.zeros(k, dtype=np.int64)
    for index in range(150):
        got = p.compiled.kernels.duels(*p.compiled.args(), np.uint64(SEED), np.int64(index), np.int64(1), 1, k)[0]
        assert got.tolist() == nv.duel(fa, fb, opts, traumas, SEED, index), f"duel {index}"
        total += got
    assert total[c.wins:c.wins + 2].sum() + total[c.draws] == 150
    assert total[c.wound:c.special_at].sum() > 0


DROP_AND_START_CASES = [  # V-8.4 DROP of the item in hand; V-11.13 sector shots at the turn-start actions
    ("rifleman", "gunner", {}, {}, {"start_distance": "150", "pickup": "pickup_and_ready"}),
    ("gunfighter", "swordsman", {"tactic": "std_shot"}, {"tactic": "charge"}, {"start_distance": "5"}),
    ("gunner", "gunfighter", {"tactic": {"shot": "burst", "keep": 0, "move": "hold", "redraw": True}},
     {"tactic": "hip_spam"}, {"start_distance": "8", "shock_timing": "next_turn", "pickup": "pickup_and_ready"}),
    ("knife_thrower", "gunfighter", {}, {"tactic": "overwatch"}, {"start_distance": "30"}),
    ("rifleman", "swordsman", {"tactic": "overwatch"}, {}, {"start_distance": "30", "start_ready": "no"}),
    ("rifleman", "swordsman", {"tactic": "overwatch"}, {},
     {"start_distance": "30", "start_ready": "no", "overwatch_turn_start": "exempt"}),
    ("gunfighter", "brute", {"tactic": "overwatch"}, {}, {"start_distance": "12", "immobilised": "b"}),
]


@pytest.mark.parametrize("a,b,ca,cb,options", DROP_AND_START_CASES)
def test_drops_and_turn_start_actions_agree(a, b, ca, cb, options):
    """V-8.4 DROP ("drops held items", V-6.2): the gun in hand falls (picked up at the turn start,
    V-3.9, or by ``redraw``), a thrower's item to throw, the melee weapon; V-11.13 the foe's sector
    shot at each turn-start action (readying, standing up, picking up, breaking free; option
    ``overwatch_turn_start`` both ways): the kernel against the reference, duel by duel."""
    fa, fb = _fighter(a, **ca), _fighter(b, **cb)
    p = RULESET.prepare(fa, fb, options=options)
    opts = p.options.as_dict()
    traumas = list(Catalog.bundled().traumas.values())
    k = p.compiled.n_counters
    for index in range(150):
        got = p.compiled.kernels.duels(*p.compiled.args(), np.uint64(SEED), np.int64(index), np.int64(1), 1, k)[0]
        assert got.tolist() == nv.duel(fa, fb, opts, traumas, SEED, index), f"duel {index}"


@pytest.mark.parametrize("a,b,ca,cb,options", RANGED_CASES[2:8] + RANGED_CASES[27:30] + RANGED_CASES[31:])
def test_single_shots_agree(a, b, ca, cb, options):
    """V-11.20, V-11.21, V-12.4: single shots and throws (a dodge, a prayer, poor visibility, the
    dials, ranged disarm) against the reference."""
    fa, fb = _fighter(a, **ca), _fighter(b, **cb)
    p = RULESET.prepare(fa, fb, options=options)
    opts = p.options.as_dict()
    traumas = list(Catalog.bundled().traumas.values())
    k = p.compiled.n_counters
    for index in range(150):
        got = p.compiled.kernels.attacks(*p.compiled.args(), np.uint64(SEED), np.int64(index), np.int64(1), 1, k)[0]
        assert got.tolist() == nv.attack(fa, fb, opts, traumas, SEED, index), f"shot {index}"


@pytest.mark.parametrize("a,b,ca,cb,options", CASES[:5] + CASES[9:])  # 9: exposure, 10–14: prayer, NPC reactions
def test_single_attacks_agree(a, b, ca, cb, options):
    fa, fb = _fighter(a, **ca), _fighter(b, **cb)
    p = RULESET.prepare(fa, fb, options=options)
    opts = p.options.as_dict()
    traumas = list(Catalog.bundled().traumas.values())
    k = p.compiled.n_counters
    for index in range(200):
        got = p.compiled.kernels.attacks(*p.compiled.args(), np.uint64(SEED), np.int64(index), np.int64(1), 1, k)[0]
        assert got.tolist() == nv.attack(fa, fb, opts, traumas, SEED, index), f"attack {index}"


def test_turn_orders_of_n_fighters_agree():
    """V-2.4 in a fight of N fighters: the kernel's turn order (``order``) and the reference's, from
    the same totals and random numbers: the higher total first, a tied group rerolled (a fresh d20
    each, in row order) until its members differ, the higher group settled first."""
    from naive_rng import Xoshiro256StarStar

    from brutal_sim.core.battle import B_ORDER
    from brutal_sim.rulesets.vereteno import kernel as K, layout as L
    from brutal_sim.toolbox.rng import seed_duel

    f = _fighter("swordsman")
    opts = RULESET.prepare(f, f).options.as_dict()
    traumas = list(Catalog.bundled().traumas.values())
    totals_of = np.random.default_rng(37)
    st = np.empty(4, dtype=np.uint64)
    rerolled = 0
    for index in range(300):
        n = int(totals_of.integers(2, 7))
        totals = totals_of.integers(0, 3, size=n)  # few values: many ties
        game = nv.Game([[f] * (n - n // 2), [f] * (n // 2)], opts, traumas, Xoshiro256StarStar.for_duel(SEED, index))
        for s in game.fighters:
            s.init_base = int(totals[s.row])
        want = [s.row for s in game.order()]
        F = np.zeros((n, L.NF), dtype=np.int64)
        S = np.zeros((n, L.NS), dtype=np.int64)
        S[:, L.S_INIT_ROLL] = totals
        seed_duel(st, np.uint64(SEED), np.int64(index))
        K.order(F, S, st, None)
        assert S[:, B_ORDER].tolist() == want, f"index {index}, totals {totals.tolist()}"
        rerolled += len(set(totals.tolist())) < n
    assert rerolled > 200


# -- fights of several a side (V-14, docs/groups.md) -----------------------------------------------

FIGHTS = [  # side a, side b, options
    (["swordsman", "duelist"], ["brute", "militia", "brawler"], {}),
    (["knight"], ["militia", "militia", "militia"], {"init_roll": "every_round", "prayer": "app"}),
    (["rifleman", "swordsman"], ["raider", "raider"], {"start_distance": "30"}),
    (["rifleman", "rifleman", "swordsman"], ["raider", "gunfighter", "brute"],
     {"start_distance": "25", "npc_reactions": "tokens", "npc_tokens_b": "2", "gm_reload_tokens": "on"}),
    (["gunner", "knife_thrower"], ["swordsman", "raider", "rifleman"], {"start_distance": "20", "surprise": "b"}),
    (["duelist", "brawler"], ["knight", "swordsman"],
     {"npc": "both", "npc_reactions": "tokens", "npc_tokens_a": "2", "npc_tokens_b": "3", "prayer": "yze"}),
]


def _late(name: str, rnd: int):
    """A catalog fighter joining in round ``rnd`` (V-14)."""
    return _fighter(name).model_copy(update={"arrive_round": rnd})


def _aiming(name: str, targeting: str):
    return _fighter(name).model_copy(update={"targeting": targeting})


def _check_fights(p, n: int) -> np.ndarray:
    """Fights 0 … n−1 of ``p``: the kernel's counter row (header and group block) equals the
    reference's, fight by fight; returns their sum."""
    opts = p.options.as_dict()
    traumas = list(Catalog.bundled().traumas.values())
    k = p.compiled.n_counters
    total = np.zeros(k, dtype=np.int64)
    for index in range(n):
        got = p.compiled.kernels.duels(*p.compiled.args(), np.uint64(SEED), np.int64(index), np.int64(1), 1, k)[0]
        want = nv.fight(p.a, p.b, opts, traumas, SEED, index)
        assert got.tolist() == want, f"fight {index}"
        total += got
    return total


@pytest.mark.parametrize("side_a,side_b,options", FIGHTS)
def test_fights_of_several_agree(side_a, side_b, options):
    """V-14.1 (one turn order, surprise for every member), V-14.2 (reactions draining a defender), V-14.3,
    V-14.9 (one token pool a side, the GM's jams), V-14.10 (a side out decides): melee 2 v 3 and 1 v 3,
    riflemen at a distance, throws and bursts; the header and the group block of every fight equal
    the reference's, fight by fight."""
    p = RULESET.prepare_fight([_fighter(x) for x in side_a], [_fighter(x) for x in side_b], options=options)
    total = _check_fights(p, 60)
    c = RULESET.counters
    assert total[c.wins:c.wins + 2].sum() + total[c.draws] == 60
    assert total[c.damage:c.damage + 2].sum() > 0


def test_fights_with_arrivals_agree():
    """V-14.1 ``arrive_round``: a knight joining side a in round 2 and a brute joining side b in round 3
    roll their initiative then; every fighter still away is placed last and is nobody's foe."""
    p = RULESET.prepare_fight([_fighter("duelist"), _late("knight", 2)],
                              [_fighter("militia"), _fighter("brawler"), _late("brute", 3)])
    _check_fights(p, 60)
    p = RULESET.prepare_fight([_fighter("rifleman"), _late("swordsman", 2)], [_fighter("raider"), _late("raider", 2)],
                              options={"start_distance": "30", "init_roll": "every_round"})
    _check_fights(p, 60)


@pytest.mark.parametrize("targeting", ["spread", "weakest", "nearest", "shooters_first", "focus", "random"])
def test_fights_of_several_agree_under_each_targeting(targeting):
    """V-14.3: side a's targeting policy against a rifleman among the enemies (``shooters_first``),
    from 20 m."""
    p = RULESET.prepare_fight([_aiming("swordsman", targeting), _aiming("raider", targeting)],
                              [_fighter("brute"), _fighter("rifleman"), _fighter("militia")],
                              options={"start_distance": "20"})
    _check_fights(p, 60)


@pytest.mark.parametrize("a,b,options", [("swordsman", "brute", {}),
                                         ("rifleman", "swordsman", {"start_distance": "30"})])
def test_a_fight_of_one_a_side_is_the_duel(a, b, options):
    """V-14.10: a fight of one against one plays the duel: the same header, fight by fight (its group
    block besides)."""
    fa, fb = _fighter(a), _fighter(b)
    duel, fight = RULESET.prepare(fa, fb, options=options), RULESET.prepare_fight([fa], [fb], options=options)
    k = duel.compiled.n_counters
    seed, n = np.uint64(SEED), np.int64(300)
    d = duel.compiled.kernels.duels(*duel.compiled.args(), seed, np.int64(0), n, 1, k).sum(axis=0)
    f = fight.compiled.kernels.duels(*fight.compiled.args(), seed, np.int64(0), n, 1, fight.compiled.n_counters)
    f = f.sum(axis=0)
    assert f[:k].tolist() == d.tolist()
    assert f[k:].sum() > 0 and d[RULESET.counters.wins:RULESET.counters.wins + 2].sum() > 100
