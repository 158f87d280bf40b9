"""WFRP 2e: a second missile weapon in the off hand (W-7.8), swift shots from both hands (W-7.11
``swift_brace``), dropping it to draw (W-7.12 ``drop``), the manoeuvre that pushes an engaged foe
away (W-3.13, W-11.7 ``manoeuvre_test``, ``manoeuvre_follow``), a kiter's flight (W-8.11
``kite_flee``) and the named readings of W-7.7 (``melee_shot``): exact shots, scripted turns,
Monte-Carlo numbers that move, and the pure-Python reference duel by duel."""

from __future__ import annotations

import naive_wfrp2e as naive
import numpy as np
import pytest
from wfrp2e_util import exact, fighter, prepared, state, turn_outcomes, within

from brutal_sim import api
from brutal_sim.rulesets.wfrp2e import RULESET, layout as L
from brutal_sim.rulesets.wfrp2e.kernel import opposed_result, shot_target

SEED = 23
WALL = {"t": 99, "tb": 10, "w": 100}  # a target no shot takes out


def _shooter(**fields):
    """BS 50, no fortune, two pistols (main and off hand) and a rapier, marksman unless given."""
    base = dict(ws=40, bs=50, ag=40, missile="pistol", off_hand_missile="pistol", main_hand="rapier",
                tactic="marksman")
    return fighter(**{**base, **fields})


def _p_win_opposed(o, t_init: int, t_def: int) -> float:
    """W-1.4: the initiator's chance to win an opposed test, rerolls summed out."""
    results = [opposed_result(o, ri, rd, t_init, t_def) for ri in range(1, 101) for rd in range(1, 101)]
    return results.count(1) / (len(results) - sum(1 for r in results if r < 0))


def _agree(p, n: int = 150, attacks: bool = True) -> None:
    F, o, grid, fx = p.compiled.args()
    k = p.compiled.n_counters
    for i in range(n):
        kernel = p.compiled.kernels.duels(F, o, grid, fx, np.uint64(SEED), np.int64(i), np.int64(1), 1, k)[0]
        assert kernel.tolist() == naive.duel(F, o, grid, fx, SEED, i).counter_row(k), f"duel {i}"
        if attacks:
            kernel = p.compiled.kernels.attacks(F, o, grid, fx, np.uint64(SEED), np.int64(i), np.int64(1), 1, k)[0]
            assert kernel.tolist() == naive.attack(F, o, grid, fx, SEED, i).counter_row(k), f"attack {i}"


# -- W-7.8 the off hand -------------------------------------------------------------------------------

def test_w7_8_exact_ambidextrous_off_hand_shot_in_melee():
    """W-7.8, W-7.6: engaged, a sling in the main hand cannot fire, so an Ambidextrous shooter fires
    its off-hand pistol: BS 50 − 20 in melee (W-7.7), no off-hand −20: 30 %, the exact single shot.
    Without Ambidextrous the off-hand pistol does not fire in melee (the tactics' reading), so the
    measure has no shot."""
    d = exact(_shooter(missile="sling", talents=["ambidextrous"]), fighter(), start_distance=0).to_dict()
    assert d["p_hit"] == pytest.approx(0.30, abs=1e-12)
    assert d["p_parried"] == d["p_dodged"] == 0
    from brutal_sim.core.errors import DataError

    with pytest.raises(DataError, match="does not fire in melee"):
        exact(_shooter(missile="sling"), fighter(), start_distance=0)


@pytest.mark.parametrize("talents,expected", [([], 0.40), (["ambidextrous"], 0.60)])
def test_w7_8_off_hand_aimed_shot_rate(talents, expected):
    """W-7.8: apart, the main-hand pistol empty and the off-hand one loaded, the marksman's aimed shot
    comes from the off hand: BS 50 + 10 − 20 = 40 % (Ambidextrous: 60 %), sampled over turns."""
    p = prepared(_shooter(talents=talents), fighter(tactic="turtle", **WALL), start_distance=6)
    n = 3000
    hits = 0
    for seed in range(n):
        S = state(p)
        S[0, L.S_LOADED] = 0
        out = turn_outcomes(p, S, 0, seed=seed + 1)
        assert out.sum() == 1 and S[0, L.S_LOADED_OFF] == 0
        hits += out[L.OUT_HIT]
    assert within(expected, hits / n, n)


def test_w7_8_shot_target_of_each_hand():
    """W-7.8: the BS target of a short-range aimed shot: main hand 50 + 10, off hand 50 + 10 − 20."""
    p = prepared(_shooter(), fighter(), start_distance=6)
    F, S, o = p.compiled.fighters, state(p), p.compiled.options
    assert shot_target(F, S, o, 0, L.SLOT_MISSILE, L.BAND_SHORT, 10) == 60
    assert shot_target(F, S, o, 0, L.SLOT_MISSILE_OFF, L.BAND_SHORT, 10) == 40


def test_w7_8_w7_10_fire_main_then_off_hand_then_reload():
    """W-7.8, W-7.10: apart, a marksman with two loaded pistols fires the main-hand one (aimed), the
    next turn the off-hand one, then reloads the main-hand one (2 full: two turns) and fires it."""
    p = prepared(_shooter(), fighter(tactic="turtle", **WALL), start_distance=6)
    S = state(p)
    assert S[0, L.S_LOADED] == 1 and S[0, L.S_LOADED_OFF] == 1 and S[0, L.S_OFF_MISSILE] == 1
    assert turn_outcomes(p, S, 0).sum() == 1
    assert (S[0, L.S_LOADED], S[0, L.S_LOADED_OFF]) == (0, 1)
    assert turn_outcomes(p, S, 0).sum() == 1
    assert (S[0, L.S_LOADED], S[0, L.S_LOADED_OFF]) == (0, 0)
    assert turn_outcomes(p, S, 0).sum() == 0 and S[0, L.S_RELOADING] == 2
    assert turn_outcomes(p, S, 0).sum() == 0 and S[0, L.S_LOADED] == 1 and S[0, L.S_LOADED_OFF] == 0
    assert turn_outcomes(p, S, 0).sum() == 1


def test_w7_8_second_pistol_moves_the_win_rate():
    """W-7.8, W-9.5: the pistolier with its second pistol against the one-pistol pistolier, each
    against an orc from 30 yards: the extra aimed shot (at −20) while the orc closes in is worth a
    measurable share of the duels."""
    two = RULESET.catalog().fighter("pistolier")
    one = two.model_copy(update={"off_hand_missile": None})
    n = 20_000
    r2 = api.duel(two, "orc", n=n, seed=5, ruleset="wfrp2e", options={"start_distance": "30"})
    r1 = api.duel(one, "orc", n=n, seed=5, ruleset="wfrp2e", options={"start_distance": "30"})
    p2, p1 = r2.wins(0) / n, r1.wins(0) / n
    se = np.sqrt((p1 * (1 - p1) + p2 * (1 - p2)) / n)
    assert p2 - p1 > 4 * se, (p1, p2)


# -- W-7.11 swift_brace ---------------------------------------------------------------------------

@pytest.mark.parametrize("brace,shots,p_hit", [("off", 1, 0.60), ("on", 2, 0.50)])
def test_w7_11_swift_brace_fires_both_pistols(brace, shots, p_hit):
    """W-7.11: with A 2 and two loaded pistols (reload 2 full, not free), ``swift_brace = off`` aims
    and fires one (BS 50 + 10), ``on`` makes a swift attack of two unaimed shots, main hand then off
    hand (W-7.8); the exact measure is the swift attack's first shot (BS 50, unaimed)."""
    a = _shooter(a=2)
    p = prepared(a, fighter(tactic="turtle", **WALL), start_distance=6, swift_brace=brace)
    S = state(p)
    assert turn_outcomes(p, S, 0).sum() == shots
    assert exact(a, fighter(), start_distance=6, swift_brace=brace).to_dict()["p_hit"] == pytest.approx(p_hit)


@pytest.mark.parametrize("brace,shots,hits", [("off", (1, 1), 0.60 + 0.40), ("on", (2, 0), 0.50 + 0.30)])
def test_w7_11_swift_brace_fires_both_pistols_a_turn_early_but_unaimed(brace, shots, hits):
    """W-7.11, W-7.8, W-7.10, W-8.9: the two-pistol shooter (BS 50, A 2, pistols reload 2 full: no
    swift attack without the brace) at a target 6 yards away (short range), its first two turns.
    ``off``: an aimed shot a turn, the main-hand pistol (50 + 10) then the off-hand one (50 + 10 −
    20): 0.6 + 0.4 = 1.0 hits. ``on``: both in the first turn, unaimed (50, then 50 − 20) and the
    second turn starts a reload: 0.5 + 0.3 = 0.8 hits. Both pistols are empty after two turns either
    way; the brace buys a turn and costs the aim."""
    p = prepared(_shooter(a=2), fighter(tactic="turtle", **WALL), start_distance=6, swift_brace=brace)
    n = 3000
    total = 0
    for seed in range(n):
        S = state(p)
        first = turn_outcomes(p, S, 0, seed=2 * seed + 1)
        second = turn_outcomes(p, S, 0, seed=2 * seed + 2)
        assert (first.sum(), second.sum()) == shots
        assert S[0, L.S_LOADED] == S[0, L.S_LOADED_OFF] == 0
        total += first[L.OUT_HIT] + second[L.OUT_HIT]
    sd = np.sqrt(0.6 * 0.4 + 0.4 * 0.6) if brace == "off" else np.sqrt(0.5 * 0.5 + 0.3 * 0.7)
    assert abs(total / n - hits) <= 4 * sd / np.sqrt(n)


# -- W-7.12 drop --------------------------------------------------------------------------------------

@pytest.mark.parametrize("drop,holds_rapier,missile_in_hand", [("free", 1, 0), ("half", 0, 1)])
def test_w7_12_drop_the_off_hand_pistol(drop, holds_rapier, missile_in_hand):
    """W-7.12, W-8.10: engaged, the pistolier fires its main-hand pistol (a half action); with ``drop =
    free`` the off-hand pistol falls at no cost and the Ready draws the rapier with the other half
    action; with ``half`` dropping takes that half action, the rapier waits for the next turn."""
    p = prepared("pistolier", fighter(tactic="turtle", **WALL), drop=drop)
    S = state(p)
    assert turn_outcomes(p, S, 0).sum() == 1
    assert S[0, L.S_OFF_MISSILE] == 0
    assert S[0, L.S_HELD_MAIN] == holds_rapier and S[0, L.S_MISSILE] == missile_in_hand


# -- W-11.7 the manoeuvre -----------------------------------------------------------------------------

def _kiter(**fields):
    return fighter(**{**dict(ws=40, bs=45, m=5, missile="bow", main_hand="dagger", tactic="kite", push=True),
                      **fields})


@pytest.mark.parametrize("test", ["attack", "opposed_ws"])
def test_w11_7_w3_13_push_rate_and_move_away(test):
    """W-11.7, W-3.13: engaged, the kiter pushes its foe (a half action): ``manoeuvre_test = attack``
    is an unarmed WS attack (WS 40; the fresh foe has no parry stance and no Dodge Blow, so 40 %);
    ``opposed_ws`` an opposed WS test 40 against 40 (W-1.4, exact). A push ends the engagement (4
    yards) and the other half action Moves the kiter away 2·M = 10 yards: 14 yards apart; a failed
    push leaves it engaged, and it draws its dagger (W-8.10)."""
    p = prepared(_kiter(), fighter(ws=40), manoeuvre_test=test)
    o = p.compiled.options
    n = 3000
    pushed = 0
    for seed in range(n):
        S = state(p)
        turn_outcomes(p, S, 0, seed=seed + 1)
        gap = abs(S[0, L.S_X] - S[1, L.S_X])
        assert (gap, S[0, L.S_MISSILE]) in ((14, 1), (0, 0)), (gap, S[0, L.S_MISSILE])
        pushed += gap == 14
    expected = 0.40 if test == "attack" else _p_win_opposed(o, 40, 40)
    assert within(expected, pushed / n, n)


@pytest.mark.parametrize("follow,gap,in_hand", [("stay", 14, 1), ("advance", 2, 0)])
def test_w11_7_manoeuvre_follow(follow, gap, in_hand):
    """W-11.7 ``manoeuvre_follow``: a won push (the foe has WS 0) parts the fighters; ``stay``: the
    kiter then Moves away (14 yards); ``advance``: it follows into the square the foe left, still
    engaged (2 yards), so it draws its dagger with the half action left."""
    p = prepared(_kiter(ws=100), fighter(ws=0), manoeuvre_test="opposed_ws", manoeuvre_follow=follow)
    S = state(p)
    turn_outcomes(p, S, 0)
    assert abs(S[0, L.S_X] - S[1, L.S_X]) == gap and S[0, L.S_MISSILE] == in_hand


def test_w11_7_pushing_kiter_against_the_orc_moves_with_follow():
    """W-11.7, W-8.11: the kithband kiting and pushing an orc engaged from the start: with ``stay``
    each push is followed by a Move away and the orc's charge (W-3.3, +10 WS) brings it back; with
    ``advance`` the first push leaves it engaged and it draws its dagger. The win rates differ."""
    kith = RULESET.catalog().fighter("kithband").model_copy(update={"tactic": "kite", "push": True})
    n = 60_000
    rates = {f: api.duel(kith, "orc", n=n, seed=3, ruleset="wfrp2e", options={"manoeuvre_follow": f}).wins(0) / n
             for f in ("stay", "advance")}
    se = np.sqrt(sum(r * (1 - r) for r in rates.values()) / n)
    assert abs(rates["stay"] - rates["advance"]) > 4 * se, rates


# -- W-8.11 kite_flee ---------------------------------------------------------------------------------

@pytest.mark.parametrize("flee,gap,in_hand", [("off", 0, 0), ("on", 10, 1)])
def test_w8_11_kite_flee(flee, gap, in_hand):
    """W-8.11 ``kite_flee``, W-3.16, W-11.4: an engaged kiter (no push) with ``flee_outcome =
    reposition`` draws (off), or flees 2·M = 10 yards (on; ``leave_melee = rulebook``: no free
    attack), its bow still in hand."""
    kith = _kiter(push=False)
    p = prepared(kith, fighter(), kite_flee=flee, flee_outcome="reposition", leave_melee="rulebook")
    S = state(p)
    turn_outcomes(p, S, 0)
    assert abs(S[0, L.S_X] - S[1, L.S_X]) == gap and S[0, L.S_MISSILE] == in_hand


def test_w8_11_kite_flee_moves_the_kithband_against_the_orc():
    """W-8.11: the kithband kiting an orc, engaged from the start, with ``flee_outcome =
    reposition``: fleeing (``kite_flee = on``, the orc's free attack first, W-11.4 ``seed``) instead
    of drawing its dagger changes the orc's win rate."""
    kith = RULESET.catalog().fighter("kithband").model_copy(update={"tactic": "kite"})
    n = 20_000
    base = {"flee_outcome": "reposition"}
    rates = {f: api.duel(kith, "orc", n=n, seed=3, ruleset="wfrp2e", options={**base, "kite_flee": f}).wins(1) / n
             for f in ("off", "on")}
    se = np.sqrt(sum(r * (1 - r) for r in rates.values()) / n)
    assert abs(rates["off"] - rates["on"]) > 4 * se, rates


# -- W-7.7 melee_shot ---------------------------------------------------------------------------------

def test_w7_7_melee_shot_readings_agree_in_a_duel():
    """W-7.7 ``melee_shot``: in a duel the target is engaged exactly when the shooter is, so the
    three readings give the same −20 and the same counters; the option is echoed."""
    rows = []
    for reading in ("target_engaged", "shooter_engaged", "both"):
        r = api.duel("pistolier", "duelist", n=2000, seed=4, ruleset="wfrp2e", options={"melee_shot": reading})
        assert r.to_dict()["options"]["melee_shot"] == reading
        rows.append((r.wins(0), r.wins(1), r.draws))
    assert rows[0] == rows[1] == rows[2]


# -- the reference, duel by duel ------------------------------------------------------------------

CASES = [  # a, b, options
    ("pistolier", "duelist", {"start_distance": 16}),
    ("pistolier", "orc", {"start_distance": 20, "drop": "half"}),
    ("two_pistols_a2", "orc", {"start_distance": 14, "swift_brace": "on"}),
    ("two_pistols_a2", "orc", {"start_distance": 14, "swift_brace": "off", "ammo": 3}),
    ("sling_and_pistol", "duelist", {"drop": "half", "misfire_band": 5}),
    ("ambidextrous", "swordsman", {"start_distance": 10, "swift_brace": "on", "start_loaded": "false"}),
    ("pushing_kithband", "orc", {"start_distance": 40}),
    ("pushing_kithband", "orc", {"manoeuvre_follow": "advance", "manoeuvre_test": "opposed_ws"}),
    ("pushing_kithband", "duelist", {"arena": 12, "start_distance": 6}),
    ("kithband_kite", "orc", {"kite_flee": "on", "flee_outcome": "reposition", "start_distance": 30}),
    ("kithband_kite", "orc", {"kite_flee": "on", "flee_outcome": "reposition", "leave_melee": "rulebook"}),
]


def _named(name: str):
    cat = RULESET.catalog()
    if name == "two_pistols_a2":
        return cat.fighter("pistolier").model_copy(update={"a": 2})
    if name == "sling_and_pistol":
        return _shooter(missile="sling", tactic="shoot_then_draw")
    if name == "ambidextrous":
        return _shooter(a=2, talents=["ambidextrous", "quick_draw"])
    if name == "pushing_kithband":
        return cat.fighter("kithband").model_copy(update={"tactic": "kite", "push": True})
    if name == "kithband_kite":
        return cat.fighter("kithband").model_copy(update={"tactic": "kite"})
    return name


@pytest.mark.parametrize("a,b,options", CASES)
def test_w7_8_w7_11_w7_12_w11_7_w8_11_duels_agree_with_the_reference(a, b, options):
    """W-7.8 two missile weapons, W-7.11 swift_brace, W-7.12 drop, W-11.7 the push (both tests, both
    follows, an arena), W-8.11 kite_flee: kernel and ``naive_wfrp2e`` duel by duel (and the single
    attack: the first shot of side a's first turn, after a reload, a push or a flight)."""
    p = prepared(_named(a), _named(b), **options)
    _agree(p, n=120)
