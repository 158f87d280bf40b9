"""Vereteno throwing (V-11.7, V-11.20, V-12.5), the gun-property dice dials (V-11.21), ranged disarm
(V-12.4) and the GM's jamming tokens (V-11.14 d): pools and spending on hand-made states, exact
single throws against hand-computed probabilities and against sampling within 4σ, scripted turns
and option values that move a number both ways, and bad input.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from vereteno_util import fighter, opened, prepared

from brutal_sim import api
from brutal_sim.core.errors import DataError
from brutal_sim.rulesets.vereteno import RULESET, layout as L
from brutal_sim.rulesets.vereteno.catalog import Catalog
from brutal_sim.rulesets.vereteno.kernel import jam, ranged_turn, shot_pool, shot_spend, throw_cost
from brutal_sim.rulesets.vereteno.model import DIAL_PROPERTIES
from brutal_sim.toolbox.rng import seed_duel

OUT = RULESET.counters.outcomes




def exact(a: Any, b: Any, **options: str) -> dict[str, float]:
    return dict(zip(OUT, api.attack(a, b, ruleset="vereteno", options=options).outcomes))


def one_turn(p, i: int = 0, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Fighter ``i``'s first turn at a distance on a fresh duel: the state and the counters."""
    F, o, tt = p.compiled.args()
    S = opened(p)
    st = np.empty(4, dtype=np.uint64)
    seed_duel(st, np.uint64(seed), np.int64(0))
    cnt = np.zeros(p.compiled.n_counters, dtype=np.int64)
    ranged_turn(F, S, o, tt, st, cnt, i)
    return S, cnt


#: a thrower of a 1-die Сила check (Телосложение 1, Сила 0) with one 2-damage item of crit "—"
ONE_DIE = {"attributes": {"physique": 1, "agility": 3, "intellect": 2, "empathy": 2},
           "thrown": [{"damage": 2}], "tactic": "throw_then_close"}
#: the same thrower holding its ground (``move = hold``): it throws from where it stands
HOLDING = {**ONE_DIE, "tactic": {"name": "throw_hold", "shot": "throw", "move": "hold", "keep": 0}}


# -- V-11.7, V-11.20, V-12.5 throwing ----------------------------------------------------------------

@pytest.mark.parametrize("d, close, medium", [(2, 8, 8), (10, 4, 7), (50, 0, 3)])
def test_v11_20_throw_pool_is_physique_strength_item_and_range_at_throw_range(d, close, medium):
    """V-11.20, V-11.10: a throw is Телосложение + Сила + the item's modifier (knife thrower: 4 + 3 +
    0) with the band's dice and −3 per band beyond the item's effective range, close (2 m) by
    default, medium with ``throw_range = medium``: close band +1, medium 0 − 3, long −1 − 6 (−1 − 3)."""
    for option, expected in (("close", close), ("medium", medium)):
        p = prepared("knife_thrower", "swordsman", start_distance="30", throw_range=option)
        assert shot_pool(p.compiled.fighters, opened(p, d), p.compiled.options, 0, L.SH_THROW) == expected


def test_v11_20_v11_19_throw_pool_target_size_prone_and_strength_penalties():
    """V-11.19: the target's size adds to a throw, a prone target −1; V-6.4: PEN(str) traumas take
    dice off Сила checks; the item's own modifier counts (V-11.20: a thrown melee weapon's stats)."""
    p = prepared(fighter(**{**ONE_DIE, "thrown": [{"modifier": 2}]}), fighter(size_mod=2), start_distance="10",
                 throw_range="medium")
    F, o = p.compiled.fighters, p.compiled.options
    S = opened(p)
    assert shot_pool(F, S, o, 0, L.SH_THROW) == 1 + 2 + 2
    S[1, L.S_PRONE], S[0, L.S_PEN_STR] = 1, 2
    assert shot_pool(F, S, o, 0, L.SH_THROW) == 1 + 2 + 2 - 1 - 2


def test_v11_20_a_thrown_gun_or_improvised_item_uses_the_bare_hands_stats():
    """V-11.20 GAP: a thrown gun or improvised item has the V-5.6 unarmed stats (mod 0, damage 1,
    crit —); a thrown melee weapon its own (hatchet)."""
    f = fighter(thrown=["kosin_rifle", "improvised", "hatchet"], tactic="throw_then_close")
    hatchet = Catalog.bundled().weapons["hatchet"]
    assert [(w.modifier, w.damage, w.crit) for w in f.thrown] == [(0, 1, 0), (0, 1, 0),
                                                                 (hatchet.modifier, hatchet.damage, hatchet.crit)]


def test_v11_7_v11_20_v4_4_exact_single_throw_by_hand_no_reaction_and_a_dodge():
    """V-11.7, V-11.20, V-4.4, V-12.5: a 1-die throw (10 m, ``throw_range = medium``) of a 2-damage
    item hits on 17–20 (0.2) a target that does not react; a 20's extra success is +1 damage (mean
    0.15·2 + 0.05·3). The target may dodge (1 die): 2 successes dodge it (0.05), 1 halves, a 1 (−2)
    exposes: P(hit) 0.19, P(dodged) 0.01, mean damage 0.15·(0.9·2 + 0.05·4) + 0.05·(0.15·2 + 0.75·3 +
    0.05·5) = 0.44."""
    a = fighter(**ONE_DIE)
    none = api.attack(a, fighter(reaction="none"), ruleset="vereteno",
                      options={"start_distance": "10", "throw_range": "medium"})
    out = dict(zip(OUT, none.outcomes))
    assert out["hit"] == pytest.approx(0.2, abs=1e-15) and out["miss"] == pytest.approx(0.8, abs=1e-15)
    assert none.mean_damage_per_attack == pytest.approx(0.15 * 2 + 0.05 * 3, abs=1e-15)
    target = fighter(reaction="dodge", attributes={"physique": 3, "agility": 1, "intellect": 2, "empathy": 2})
    dodge = api.attack(a, target, ruleset="vereteno", options={"start_distance": "10", "throw_range": "medium"})
    out = dict(zip(OUT, dodge.outcomes))
    assert (out["hit"], out["dodged"], out["miss"]) == pytest.approx((0.19, 0.01, 0.8), abs=1e-15)
    assert dodge.mean_damage_per_attack == pytest.approx(0.44, abs=1e-15)


def test_v11_20_v11_17_v11_10_v11_19_exact_throw_cover_band_and_size_by_hand():
    """V-11.17: cover joins the armour roll against a throw (1 die stops the 2 damage on a 20: P
    0.15 · 0.05); V-11.10: at 2 m (close, +1) the 1-die thrower rolls 2 dice, P(hit) = 0.34, at 10 m
    beyond the close effective range 1 − 3 → a desperate roll of 2 dice (fvtt: both 20, 0.0025) for
    a thrower that holds its ground, while ``throw_then_close`` first moves to 2 m (V-15.4, 1 AP) and
    throws there (0.34); V-11.19: a target of size +1 adds a die (0.34)."""
    a = fighter(**ONE_DIE)
    still = fighter(reaction="none")
    assert exact(a, fighter(reaction="none", cover=1), start_distance="10",
                 throw_range="medium")["armour_stopped"] == pytest.approx(0.15 * 0.05, abs=1e-15)
    assert exact(a, still, start_distance="2")["hit"] == pytest.approx(0.34, abs=1e-15)
    assert exact(fighter(**HOLDING), still, start_distance="10")["hit"] == pytest.approx(0.05 ** 2, abs=1e-15)
    assert exact(a, still, start_distance="10")["hit"] == pytest.approx(0.34, abs=1e-15)
    assert exact(a, fighter(reaction="none", size_mod=1), start_distance="10",
                 throw_range="medium")["hit"] == pytest.approx(0.34, abs=1e-15)


def _within_4_sigma(exact_r, sampled, n):
    for p, q in zip([*exact_r.outcomes, *np.ravel(exact_r.levels)], [*sampled.outcomes, *np.ravel(sampled.levels)]):
        assert abs(p - q) <= 4 * math.sqrt(max(p * (1 - p), 1e-12) / n) + 1e-9, (exact_r.outcomes, sampled.outcomes)


@pytest.mark.parametrize("b, options", [
    ("swordsman", {"start_distance": "2"}),
    ("gunfighter", {"start_distance": "10", "throw_range": "medium", "prayer": "app", "exposure": "miss_becomes_hit"}),
    ("rifleman", {"start_distance": "15", "throw_range": "medium", "visibility": "poor"}),
    ("rifleman", {"start_distance": "12", "visibility": "poor"}),
])
def test_v11_20_exact_throws_agree_with_sampled_ones(b, options):
    """V-11.20, V-4.4, V-1.6, V-11.18, V-15.4: the knife thrower's exact first throw (a dodge, prayers,
    poor visibility; from 12 m after its move to 2 m) within 4σ of 20,000 sampled ones."""
    n = 20_000
    e = api.attack("knife_thrower", b, ruleset="vereteno", options=options)
    s = api.attack("knife_thrower", b, ruleset="vereteno", options=options, n=n, seed=3, threads=1)
    _within_4_sigma(e, s, n)


def test_v11_20_v10_4_a_thrower_moves_to_its_effective_range_then_throws():
    """V-11.20, V-10.4 (a move may stop short): from 30 m the knife thrower (speed 10) moves to the
    item's effective range: close, three moves 30 → 20 → 10 → 2 m and no throw; medium, one move to
    20 m and a throw (2 AP)."""
    S, _ = one_turn(prepared("knife_thrower", "swordsman", start_distance="30"))
    assert (S[1, L.S_X] - S[0, L.S_X], S[0, L.S_THROWN], S[0, L.S_AP]) == (2, 0, 0)
    S, _ = one_turn(prepared("knife_thrower", "swordsman", start_distance="30", throw_range="medium"))
    assert (S[1, L.S_X] - S[0, L.S_X], S[0, L.S_THROWN], S[0, L.S_AP]) == (20, 1, 0)


def test_v11_20_v10_9_throw_ready_quick_costs_an_ap_per_next_item_and_for_the_weapon():
    """V-10.9, V-11.20 ``throw_ready``: the first item starts in hand (a throw, 2 AP); ``quick``: the
    next costs 1 AP more to ready (3), and once the supply is spent the melee weapon 1 AP; ``free``
    draws them as part of the throw. A 4-AP thrower at 2 m throws once (quick) or twice (free); with
    one item it throws, steps in and readies its hatchet (no AP left to strike), or strikes too."""
    thrower = {"action_points": 4, "tactic": "throw_then_close", "weapon": "hatchet"}
    costs = {}
    for ready in ("quick", "free"):
        p = prepared(fighter(**thrower, thrown=["knife", "knife"]), "swordsman", start_distance="2", throw_ready=ready)
        S, cnt = one_turn(p)
        costs[ready] = (int(S[0, L.S_THROWN]), int(S[0, L.S_AP]), throw_cost(S, 0))
        p1 = prepared(fighter(**thrower, thrown=["knife"]), fighter(reaction="none", tactic="turtle"),
                      start_distance="2", throw_ready=ready)
        S, cnt = one_turn(p1)
        costs[ready + " then melee"] = (int(cnt[L.C_ATTACKS:L.C_ATTACKS + 5].sum()), S[0, L.S_DROPPED])
    assert costs == {"quick": (1, 2, 3), "free": (2, 0, 2), "quick then melee": (1, 0), "free then melee": (2, 0)}


def test_v11_20_throw_range_and_throw_ready_move_the_thrower_s_win_rate():
    """V-11.20 ``throw_range = medium`` (throws from 20 m, fewer dice off) and ``throw_ready = free``
    (no readying) each raise the knife thrower's win rate against the swordsman from 30 m (27 % →
    30 % each; 20,000 duels, apart by more than 4σ of a difference)."""
    n = 20_000

    def wins(**options: str) -> float:
        r = api.duel("knife_thrower", "swordsman", ruleset="vereteno", n=n, seed=7, threads=1,
                     options={"start_distance": "30", **options})
        return r.wins(0) / n

    base, medium, free = wins(), wins(throw_range="medium"), wins(throw_ready="free")
    sigma = math.sqrt(2 * 0.25 / n)
    assert medium > base + 4 * sigma and free > base + 4 * sigma, (base, medium, free)


def test_v11_20_a_throw_tactic_needs_items_and_items_must_be_known():
    """V-11.20: a throwing tactic without items, an unknown item and more than 6 items are refused,
    naming the field."""
    with pytest.raises(DataError, match="needs items in thrown"):
        fighter(tactic="throw_then_close")
    with pytest.raises(DataError, match="unknown item 'rock' to throw"):
        fighter(tactic="throw_then_close", thrown=["rock"])
    with pytest.raises(DataError, match="thrown"):
        fighter(tactic="throw_then_close", thrown=["knife"] * 7)


# -- V-11.21 gun-property dials ----------------------------------------------------------------------

@pytest.mark.parametrize("prop", DIAL_PROPERTIES)
def test_v11_21_each_property_dial_moves_the_shooting_pool_of_a_gun_with_it(prop):
    """V-11.21: ``<property>_dice`` adds its dice to every shot of a gun with that property and to no
    other (one table-driven mechanism)."""
    other = next(x for x in DIAL_PROPERTIES if x != prop)
    shooter = fighter(gun={"damage": 2, "properties": [prop]}, tactic="std_shot")
    def pool(**options: str) -> int:
        p = prepared(shooter, "swordsman", start_distance="10", **options)
        return int(shot_pool(p.compiled.fighters, opened(p), p.compiled.options, 0, L.SH_STANDARD))
    base = pool()
    assert [pool(**{f"{prop}_dice": v}) - base for v in ("-3", "2")] == [-3, 2]
    assert pool(**{f"{other}_dice": "4"}) == base


def test_v11_21_red_dot_sight_dial_moves_an_exact_shot_both_ways():
    """V-11.21: the «Сыч» carbine (red-dot sight): its exact hit probability at 20 m falls with
    ``red_dot_sight_dice = -2`` and rises with ``+2``; ``scope_dice`` leaves it alone (no scope)."""
    shooter = fighter(attributes={"physique": 3, "agility": 3, "intellect": 2, "empathy": 2},
                      skills={"shooting": 1}, gun="sych", tactic="std_shot")
    hit = {v: exact(shooter, "swordsman", start_distance="20", red_dot_sight_dice=v)["hit"] for v in ("-2", "0", "2")}
    assert hit["-2"] < hit["0"] - 0.05 and hit["2"] > hit["0"] + 0.05, hit
    assert exact(shooter, "swordsman", start_distance="20", scope_dice="3")["hit"] == hit["0"]


# -- V-12.4 ranged disarm ----------------------------------------------------------------------------

def test_v12_4_ranged_disarm_on_buys_a_disarm_at_the_gun_s_crit():
    """V-12.4 ``ranged_disarm``: ``disarm_first`` spends as damage (off) or buys a disarm at the gun's
    crit once the target holds a melee weapon (on: the Kosin rifle, crit 3, 4 successes → damage 3,
    disarm); a gun in hand is no melee weapon to knock away."""
    shooter = fighter(gun="kosin_rifle", tactic="std_shot", attack_spending="disarm_first")
    got = {}
    for value in ("off", "on"):
        for target in ("swordsman", "gunfighter"):
            p = prepared(shooter, target, start_distance="20", ranged_disarm=value)
            got[value, target] = shot_spend(p.compiled.fighters, opened(p), p.compiled.options, 0, 4, L.SH_STANDARD)
    assert got == {("off", "swordsman"): (6, 0, 0, 0), ("off", "gunfighter"): (6, 0, 0, 0),
                   ("on", "swordsman"): (3, 0, 1, 0), ("on", "gunfighter"): (6, 0, 0, 0)}


def test_v12_4_ranged_disarm_moves_an_exact_shot_s_damage_and_a_thrower_s_disarms():
    """V-12.4: with ``on`` the rifleman's exact mean damage per shot at a swordsman falls (extras buy
    the disarm instead); a throw's extras disarm at the item's crit the same way (naive agreement in
    ``test_vereteno_naive``)."""
    shooter = fighter(attributes={"physique": 3, "agility": 6, "intellect": 2, "empathy": 2}, skills={"shooting": 5},
                      gun="kosin_rifle", tactic="aimed", attack_spending="disarm_first")
    dmg = {v: api.attack(shooter, "swordsman", ruleset="vereteno",
                         options={"start_distance": "20", "ranged_disarm": v}).mean_damage_per_attack
           for v in ("off", "on")}
    assert dmg["on"] < dmg["off"] - 0.1, dmg


# -- V-11.14 (d) the GM's jamming tokens ---------------------------------------------------------------

def test_v11_14_v3_17_gm_reload_token_jams_a_player_side_gun_after_a_shot():
    """V-11.14 (d), V-3.17: with ``gm_reload_tokens = on`` the GM (side b, ``npc = b``) spends a token
    after side a's shot to make a reload due; never for its own side's shots, never without tokens,
    never when off or when a reload is due already."""
    p = prepared("rifleman", "gunfighter", start_distance="20", gm_reload_tokens="on")
    o = p.compiled.options
    S = opened(p)
    jam(p.compiled.fighters, S, o, 1)  # the GM's own shooter
    assert (S[1, L.S_RELOAD], S[0, L.S_TOKENS_USED]) == (0, 0)
    jam(p.compiled.fighters, S, o, 0)
    assert (S[0, L.S_RELOAD], S[1, L.S_TOKENS_USED]) == (1, 1)
    jam(p.compiled.fighters, S, o, 0)  # a reload already due: no token spent
    assert S[1, L.S_TOKENS_USED] == 1
    off = prepared("rifleman", "gunfighter", start_distance="20")
    S = opened(off)
    jam(off.compiled.fighters, S, off.compiled.options, 0)
    assert (S[0, L.S_RELOAD], S[1, L.S_TOKENS_USED]) == (0, 0)


def _shots_in_a_capped_duel(**options: str) -> int:
    target = fighter(armour="power_armour", tactic="turtle", attributes={"physique": 10, "agility": 10,
                                                                        "intellect": 10, "empathy": 10})
    shooter = fighter(gun={"damage": 1, "range": "medium"}, tactic="std_shot")
    c = prepared(shooter, target, start_distance="15", round_cap="6", **options).compiled
    for idx in range(200):
        row = c.kernels.duels(*c.args(), np.uint64(5), np.int64(idx), np.int64(1), 1, c.n_counters).sum(axis=0)
        if row[L.C_DRAWS] == 1:
            return int(row[L.C_ATTACKS:L.C_ATTACKS + 5].sum())
    raise AssertionError("no duel reached the round cap")


def test_v11_14_gm_reload_tokens_change_the_shots_fired():
    """V-11.14 (d): a standard shot a turn (keep 1) for 6 rounds is 6 shots; each of the GM's 3 tokens
    jams the gun and the next turn goes on the reload (2 AP): 3 shots; 1 token: 5; no GM side
    (``npc = none``): 6."""
    assert [_shots_in_a_capped_duel(gm_reload_tokens=v) for v in ("off", "on")] == [6, 3]
    assert _shots_in_a_capped_duel(gm_reload_tokens="on", npc_tokens_b="1") == 5
    assert _shots_in_a_capped_duel(gm_reload_tokens="on", npc="none") == 6
