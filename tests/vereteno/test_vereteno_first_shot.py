"""Vereteno ``attack`` at a distance (V-15): the first shot or throw of the tactic's first turn, after
the turn's own steps before it (readying, a reload, a move, lying down, bracing, a thrower's moves);
the steps draw no dice at a fight's start; the header names the shot and its distance; ``--shot``
measures another kind. Pools and miss chances by hand, exact against sampled, kernel against the
naive reference attack by attack.
"""

from __future__ import annotations

import json
import math
from itertools import product

import naive_vereteno as nv
import numpy as np
import pytest
from typer.testing import CliRunner
from vereteno_util import fighter

from brutal_sim import api
from brutal_sim.cli import app
from brutal_sim.core.errors import DataError
from brutal_sim.rulesets.vereteno import RULESET, layout as L
from brutal_sim.rulesets.vereteno.catalog import Catalog
from brutal_sim.rulesets.vereteno.exact import first_turn
from brutal_sim.rulesets.vereteno.kernel import TO_MELEE, TO_SHOTS, open_duel, plan_shot, shot_pool, to_first_shot
from brutal_sim.toolbox.rng import seed_duel

OUT = RULESET.counters.outcomes
#: the rifleman (Ловкость 4, Стрельба 3, Kosin rifle +1, effective range long) behind cover 2
COVERED = {"cover": 2}


def p_miss(n: int, one: int = -2) -> float:
    """V-1.3: P(a check of ``n`` d20 has < 1 success), by the counts of 20s (2), 17–19s (1) and 1s
    (``one``) among the dice, each count's multinomial weight written out."""
    total = 0.0
    for n20, n17, n1 in product(range(n + 1), repeat=3):
        rest = n - n20 - n17 - n1
        if rest < 0 or 2 * n20 + n17 + one * n1 >= 1:
            continue
        ways = math.factorial(n) // (math.factorial(n20) * math.factorial(n17) * math.factorial(n1)
                                     * math.factorial(rest))
        total += ways * 0.05 ** n20 * 0.15 ** n17 * 0.05 ** n1 * 0.75 ** rest
    return total


def case(a, tactic: str | None, **options: str):
    return RULESET.prepare(a, "swordsman", options=options, tactic_a=tactic)


#: name → (attacker, tactic, options, the shot, its pool, its distance, the header's text)
CASES = {
    # V-15.5, V-15.8, V-11.16: turn 1 braces (1 AP) and fires a standard shot (2 AP): 4 + 3 + 1 + 0 + 1
    "braced_aimed": (fighter("rifleman", **COVERED), "braced_aimed", {"start_distance": "20"}, L.SH_STANDARD, 9,
                     20, "standard shot, braced, from 20 m"),
    # V-10.8: lies down (1 AP), then a standard shot (2 AP): 4 + 3 + 1 + 0; no AP left to brace
    "prone_aimed": ("rifleman", "prone_aimed", {"start_distance": "20"}, L.SH_STANDARD, 8, 20,
                    "standard shot, lying prone, from 20 m"),
    # V-10.9, V-15.6: readying (1 AP) leaves 2 AP: a standard shot at long range, 4 + 3 + 1 + 0 − 1
    "start_ready no": ("rifleman", None, {"start_distance": "50", "start_ready": "no"}, L.SH_STANDARD, 7, 50,
                       "standard shot from 50 m after readying its weapon (start_ready = no, V-10.9)"),
    # V-15.4: beyond the effective range (long) one move of 10 m, then a standard shot at long range
    "advance_fire": ("rifleman", "advance_fire", {"start_distance": "110"}, L.SH_STANDARD, 7, 100,
                     "standard shot from 100 m after moving from 110 m"),
    # V-15.4 keep_distance: the swordsman (speed 10) reaches 2 × 10 + 1 m: one move away, 15 → 25 m, so
    # the standard shot is at long range: 4 + 3 + 1 + 0 − 1
    "kite": ("rifleman", "kite", {"start_distance": "15"}, L.SH_STANDARD, 7, 25,
             "standard shot from 25 m after moving from 15 m"),
}
#: what the same shooters fired before their first turn's steps: the tactic's shot from start_distance
#: (aimed 4 + 3 + 1 + 2 + band; advance_fire's standard at 110 m: −2 extreme, −3 beyond long range;
#: kite's standard at 15 m, medium range)
FROM_THE_START = {"braced_aimed": 10, "prone_aimed": 10, "start_ready no": 9, "advance_fire": 3, "kite": 8}


@pytest.mark.parametrize("name", CASES)
def test_v15_the_first_shot_of_the_first_turn_by_hand(name):
    """V-15.1–V-15.8, V-11.1, V-11.10, V-11.16, V-10.8, V-10.9: the state ``attack`` measures is the
    first turn played up to its first shot: the shot, its pool (by hand, in ``CASES``; from
    start_distance without the steps it would have been ``FROM_THE_START``), the distance, the
    header, and P(miss) of that many dice counted by hand (V-1.3)."""
    a, tactic, options, shot, pool, distance, text = CASES[name]
    p = case(a, tactic, **options)
    c = p.compiled
    S, step, drew = first_turn(c.fighters, c.options, c.tables[0])
    assert (step, drew) == (TO_SHOTS, False)
    assert plan_shot(c.fighters, S, 0) == shot and shot_pool(c.fighters, S, c.options, 0, shot) == pool
    fresh = np.zeros((2, L.NS), dtype=np.int64)
    open_duel(c.fighters, fresh, c.options)
    first = plan_shot(c.fighters, fresh, 0)
    assert shot_pool(c.fighters, fresh, c.options, 0, first) == FROM_THE_START[name]
    r = api.attack(a, "swordsman", ruleset="vereteno", tactic=tactic, options=options)
    assert (r.shot, r.distance, r.measured) == ("standard", distance, text)
    assert dict(zip(OUT, r.outcomes))["miss"] == pytest.approx(p_miss(pool), abs=1e-12)


def test_v15_5_v11_16_the_braced_shot_beats_the_unbraced_one_by_one_die():
    """V-11.16: +1 die for the brace: the braced standard shot's miss chance is that of 9 dice, the
    unbraced one's (no cover to brace against) that of 8 (0.3348 against 0.3538, by hand)."""
    braced = api.attack(fighter("rifleman", **COVERED), "swordsman", ruleset="vereteno", tactic="braced_aimed",
                        options={"start_distance": "20"})
    plain = api.attack("rifleman", "swordsman", ruleset="vereteno", tactic="std_shot",
                       options={"start_distance": "20"})
    assert braced.outcomes[0] == pytest.approx(p_miss(9), abs=1e-12)
    assert plain.outcomes[0] == pytest.approx(p_miss(8), abs=1e-12)
    assert round(p_miss(9), 4) == 0.3348 and round(p_miss(8), 4) == 0.3538


@pytest.mark.parametrize("name", CASES)
def test_v11_13_the_steps_before_the_first_shot_draw_no_dice_at_a_fights_start(name):
    """V-11.13: at a fight's start the foe has set no AP aside (no sector control), so the steps of the
    first turn before its shot (the kernel's ``to_first_shot``) draw no sector shot: the random
    state is untouched and no counter moves."""
    a, tactic, options, *_ = CASES[name]
    c = case(a, tactic, **options).compiled
    S = np.zeros((2, L.NS), dtype=np.int64)
    open_duel(c.fighters, S, c.options)
    assert S[1, L.S_SECTOR] == 0
    st = np.empty(4, dtype=np.uint64)
    seed_duel(st, np.uint64(5), np.int64(0))
    before = st.copy()
    cnt = np.zeros(c.n_counters, dtype=np.int64)
    assert to_first_shot(c.fighters, S, c.options, c.tables[0], st, cnt, 0) == TO_SHOTS
    assert np.array_equal(st, before) and not cnt.any()


def test_v10_7_v15_2_a_step_back_from_an_engaged_foe_is_refused():
    """V-10.7, V-15.2: ``kite`` engaged at point blank steps back, and leaving the swordsman's reach
    draws its opportunity attack before the shot: the measure refuses it (one line naming the
    tactic), sampled or exact."""
    c = case("rifleman", "kite", start_distance="1").compiled
    assert first_turn(c.fighters, c.options, c.tables[0])[2]
    for n in (None, 1000):
        with pytest.raises(DataError, match="opportunity attack"):
            api.attack("rifleman", "swordsman", ruleset="vereteno", tactic="kite", options={"start_distance": "1"},
                       n=n)


def test_v15_2_v10_9_engaged_the_aimed_tactic_draws_its_knife_and_strikes():
    """V-15.2 ``engaged = draw``, V-10.9: at point blank the rifleman's ``aimed`` tactic readies its
    knife (1 AP) and attacks in melee: ``attack`` measures that blow (the swordsman defends), no
    shot; exact within 4σ of sampled."""
    c = case("rifleman", None, start_distance="1").compiled
    S, step, drew = first_turn(c.fighters, c.options, c.tables[0])
    assert (step, drew) == (TO_MELEE, False) and S[0, L.S_AP] == 2 and not S[0, L.S_DROPPED] & L.HAND_GUN
    e = api.attack("rifleman", "swordsman", ruleset="vereteno", options={"start_distance": "1"})
    assert e.shot is None and e.measured == "" and dict(zip(OUT, e.outcomes))["defended"] > 0.05
    n = 20_000
    s = api.attack("rifleman", "swordsman", ruleset="vereteno", options={"start_distance": "1"}, n=n, seed=4,
                   threads=1)
    _within_4_sigma(e, s, n)


def _within_4_sigma(exact, sampled, n):
    for p, q in zip([*exact.outcomes, *np.ravel(exact.levels)], [*sampled.outcomes, *np.ravel(sampled.levels)]):
        assert abs(p - q) <= 4 * math.sqrt(max(p * (1 - p), 1e-12) / n) + 1e-9, (exact.outcomes, sampled.outcomes)


@pytest.mark.parametrize("name", ["braced_aimed", "prone_aimed", "start_ready no", "advance_fire", "kite"])
def test_v15_exact_first_shots_agree_with_sampled_ones(name):
    """V-15: the exact first shot of the first turn within 4σ of 20,000 sampled single attacks."""
    a, tactic, options, *_ = CASES[name]
    n = 20_000
    e = api.attack(a, "swordsman", ruleset="vereteno", tactic=tactic, options=options)
    s = api.attack(a, "swordsman", ruleset="vereteno", tactic=tactic, options=options, n=n, seed=9, threads=1)
    assert e.outcomes.sum() == pytest.approx(1.0)
    _within_4_sigma(e, s, n)


#: kernel against the reference, attack by attack: the cases above, a thrower's move to its item's range,
#: a step back drawing an opportunity attack, a draw at point blank, poor visibility after a move
NAIVE_CASES = [
    *[(a, tactic, options) for a, tactic, options, *_ in CASES.values()],
    ("knife_thrower", None, {"start_distance": "12"}),
    ("rifleman", "kite", {"start_distance": "1"}),
    ("rifleman", None, {"start_distance": "1", "start_ready": "no"}),
    ("rifleman", "advance_fire", {"start_distance": "130", "visibility": "poor", "prayer": "app"}),
]


@pytest.mark.parametrize("a,tactic,options", NAIVE_CASES)
def test_v15_single_attacks_agree_with_the_reference(a, tactic, options):
    """V-15, V-11.20, V-10.7, V-11.18: the kernel's single attack (the first turn up to its first shot,
    then the shot) against ``naive_vereteno.attack``, attack by attack."""
    fa = RULESET.load_fighter(a) if isinstance(a, str) else a
    if tactic is not None:
        fa = RULESET.catalog().with_behaviour(fa, tactic, None, "test")
    fb = RULESET.load_fighter("swordsman")
    p = RULESET.prepare(fa, fb, options=options)
    opts = p.options.as_dict()
    traumas = list(Catalog.bundled().traumas.values())
    k = p.compiled.n_counters
    for index in range(120):
        got = p.compiled.kernels.attacks(*p.compiled.args(), np.uint64(11), np.int64(index), np.int64(1), 1, k)[0]
        assert got.tolist() == nv.attack(fa, fb, opts, traumas, 11, index), f"attack {index}"


# -- the header and --shot -----------------------------------------------------------------------------

def run(*args: str):
    return CliRunner().invoke(app, list(args))


def test_the_attack_header_names_the_shot_and_its_distance():
    """The header line and the JSON name the shot measured and where it is fired from."""
    with_cover = ("--set", "a.cover=2")
    r = run("attack", "rifleman", "swordsman", "--ruleset", "vereteno", "--tactic", "braced_aimed",
            "--option", "start_distance=20", *with_cover)
    assert r.exit_code == 0, r.output
    assert "standard shot, braced, from 20 m; exact enumeration" in r.stdout.splitlines()[0]
    r = run("attack", "rifleman", "swordsman", "--ruleset", "vereteno", "--tactic", "advance_fire",
            "--option", "start_distance=110", "--json", "-n", "2000")
    d = json.loads(r.stdout)
    assert (d["shot"], d["distance"], d["measured"]) == ("standard", 100, "standard shot from 100 m after moving "
                                                                           "from 110 m")
    r = run("attack", "swordsman", "brute", "--ruleset", "vereteno", "--json")
    d = json.loads(r.stdout)
    assert (d["shot"], d["distance"], d["measured"]) == (None, None, "")
    # V-11.11: hip_spam engaged at point blank goes on shooting, at −3
    engaged = api.attack("gunfighter", "swordsman", ruleset="vereteno", options={"start_distance": "1"})
    assert engaged.measured == "hip shot, engaged (−3, V-11.11), from 1 m"


def test_v11_2_v15_5_shot_measures_another_kind_after_the_tactics_steps():
    """``--shot KIND`` plays the first turn of the tactic with ``shot = KIND``: ``braced_aimed`` in cover
    with a hip shot braces (1 AP still pays it, V-15.5) and fires a braced hip shot (4 + 3 + 1 − 2 + 0
    + 1 = 7 dice, V-11.2); ``--shot aimed`` for the rifleman's own ``aimed`` changes nothing."""
    a = fighter("rifleman", **COVERED)
    r = api.attack(a, "swordsman", ruleset="vereteno", tactic="braced_aimed", shot="hip",
                   options={"start_distance": "20"})
    assert (r.shot, r.measured) == ("hip", "hip shot, braced, from 20 m")
    assert r.outcomes[0] == pytest.approx(p_miss(7), abs=1e-12)
    own = api.attack("rifleman", "swordsman", ruleset="vereteno", options={"start_distance": "50"})
    aimed = api.attack("rifleman", "swordsman", ruleset="vereteno", options={"start_distance": "50"}, shot="aimed")
    assert np.array_equal(own.outcomes, aimed.outcomes) and aimed.measured == "aimed shot from 50 m"
    assert own.outcomes[0] == pytest.approx(p_miss(9), abs=1e-12)  # V-16.1: 9 dice at 50 m


@pytest.mark.parametrize("args,needle", [
    (("--shot", "snipe"), "--shot: unknown shot kind 'snipe'; allowed: hip, standard, aimed, burst, throw"),
    (("--shot", "burst"), "--shot: tactic 'aimed' fires long bursts, which need an automatic gun"),
    (("--shot", "throw"), "--shot: tactic 'aimed' throws (V-11.7): the fighter needs items in thrown"),
])
def test_a_bad_shot_kind_is_one_line_exit_2_before_any_compile(monkeypatch, args, needle):
    """A shot kind the ruleset does not know, or that the fighter cannot fire (V-11.5, V-11.7), is one
    line naming ``--shot``, exit 2, before any kernel is warmed up."""
    import brutal_sim.cli.duels as duels

    monkeypatch.setattr(duels, "warm_up", lambda *a, **k: pytest.fail("warmed up before the check"))
    r = run("attack", "rifleman", "swordsman", "--ruleset", "vereteno", "--option", "start_distance=20", *args)
    assert r.exit_code == 2 and needle in r.output and len(r.output.strip().splitlines()) == 1, r.output


def test_a_shot_kind_in_the_api_is_checked_too():
    with pytest.raises(DataError, match="^shot: unknown shot kind 'snipe'; allowed: hip, standard"):
        api.attack("rifleman", "swordsman", ruleset="vereteno", shot="snipe", options={"start_distance": "20"})
    with pytest.raises(DataError, match="^shot: expected a shot kind"):
        api.attack("rifleman", "swordsman", ruleset="vereteno", shot=3, options={"start_distance": "20"})
