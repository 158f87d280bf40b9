"""WFRP 2e fights of several a side (W-13, W-8.15, docs/groups.md) for users: the one-against-one
fight is the duel, the options reach the kernel, the fight command and a scenario's ``[[fights]]``.
The kernel against the reference fight by fight is ``test_wfrp2e_naive.py``."""

from __future__ import annotations

import json

import numpy as np
from typer.testing import CliRunner
from wfrp2e_util import fighter

from brutal_sim import api
from brutal_sim.cli import app
from brutal_sim.rulesets.wfrp2e import RULESET, layout as L, options as O

runner = CliRunner()


def test_w13_7_one_against_one_is_the_duel():
    """W-13.7, W-8.15: with one fighter a side the fight plays the duel's rules with the same dice
    (its header equals the duel's counters), in melee and from 30 yards with a crossbow."""
    for a, b, options in (("swordsman", "orc", {}), ("crossbowman", "orc", {"start_distance": "30"})):
        fight = api.fight([a], [b], n=3000, seed=7, options=options, ruleset="wfrp2e")
        duel = api.duel(a, b, n=3000, seed=7, options=options, ruleset="wfrp2e")
        assert np.array_equal(fight.counters[:fight.header_end], duel.counters)
        assert fight.fighter_standing(0) == fight.survivors(0)[1] == duel.wins(0) + duel.draws


def test_w13_5_max_engaged_both_ways():
    """W-13.5: ``max_engaged`` is the limit choose_foe reads (8, or 99 for unlimited); with at most
    six a side no fighter ever has eight engagers, so both give the same fights."""
    fights = []
    for value, code in (("8", 8), ("unlimited", 99)):
        p = RULESET.prepare_fight(["swordsman", "duelist"], ["goblin"] * 6, options={"max_engaged": value})
        assert p.compiled.options[O.O_MAX_ENGAGED] == code
        fights.append(api.fights([p], n=2000, seed=4)[0].counters)
    assert np.array_equal(*fights)


def test_fight_command_under_wfrp2e():
    """W-13: the README's ``brutal-sim fight swordsman duelist vs 'goblin_archer*3' --ruleset wfrp2e
    --option start_distance=24``; every fight decided or drawn, each side's survivors count every
    fight once; two against two orcs from 30 yards as JSON."""
    readme = ["fight", "swordsman", "duelist", "vs", "goblin_archer*3", "--ruleset", "wfrp2e", "--option",
              "start_distance=24"]
    r = runner.invoke(app, [*readme, "-n", "2000"])
    assert r.exit_code == 0, r.output
    for text in ("Swordsman + Duelist (a)", "Goblin archer ×3 (b)", "Still in at the end", "start_distance=24"):
        assert text in r.stdout, text
    r = runner.invoke(app, ["fight", "crossbowman", "swordsman", "vs", "orc*2", "--ruleset", "wfrp2e", "-n", "2000",
                            "--seed", "3", "--option", "start_distance=30", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["ruleset"] == "wfrp2e" and d["b"]["fighters"] == ["Orc", "Orc"]
    assert d["a"]["wins"] + d["b"]["wins"] + d["draws"] == 2000
    assert sum(d["a"]["survivors"]) == sum(d["b"]["survivors"]) == 2000
    assert [f["tactic"] for f in d["fighters"]] == ["shoot_then_draw", "guarded", "guarded", "guarded"]
    r = runner.invoke(app, ["fight", "swordsman", "vs", "orc*4", "orc*3", "--ruleset", "wfrp2e", "-n", "10"])
    assert r.exit_code == 2 and "1 … 6" in r.stderr and "Traceback" not in r.output
    r = runner.invoke(app, ["fight", "swordsman", "vs", "orc", "--ruleset", "wfrp2e", "-n", "10",
                            "--option", "max_engaged=4"])
    assert r.exit_code == 2 and "allowed: 8, unlimited" in r.stderr


def test_scenario_fights_under_wfrp2e(tmp_path):
    """W-13: a scenario's ``[[fights]]`` under WFRP 2e gives a report with the fights and each
    fighter's fate."""
    f = tmp_path / "s.toml"
    f.write_text('title = "Two against three"\nruleset = "wfrp2e"\nn = 1000\nseed = 2\n'
                 '[[fights]]\na = ["swordsman", "duelist"]\nb = ["goblin_archer*3"]\n'
                 'options = { start_distance = 24 }\n')
    out = tmp_path / "r.html"
    r = runner.invoke(app, ["report", str(f), "-o", str(out)])
    assert r.exit_code == 0, r.output
    html = out.read_text()
    assert '<h2 id="fights-section">Group fights</h2>' in html and 'id="fight-fighters"' in html
    assert "Goblin" in html and "start_distance=24" in html


def _index_with_dice(seed: int, dice: tuple[int, ...]) -> int:
    """The first duel index of ``seed`` whose first d10s are ``dice`` (the reference generator)."""
    from naive_rng import Xoshiro256StarStar

    for index in range(100_000):
        rng = Xoshiro256StarStar.for_duel(seed, index)
        if all(rng.die(10) == d for d in dice):
            return index
    raise AssertionError(dice)


def _order_state(p, seed: int, index: int):
    from brutal_sim.rulesets.wfrp2e import layout as L
    from brutal_sim.rulesets.wfrp2e.kernel import initiative, reset
    from brutal_sim.toolbox.rng import seed_duel

    F, o = p.compiled.fighters, p.compiled.options
    S = np.zeros((F.shape[0], L.NS), dtype=np.int64)
    st = np.zeros(4, dtype=np.uint64)
    seed_duel(st, np.uint64(seed), np.int64(index))
    reset(F, S, o)
    initiative(F, S, o, st)
    return F, S, o, st


def test_w13_1_seed_11_one_order_with_one_roll_per_profile():
    """W-13.1 (seed 11): Wilhelm (Ag 35) rolls 6 → 41, Gertrude 39, three goblins (Ag 25) 30 on one
    roll of 5 (``initiative_group = per_type``): the order Wilhelm, Gertrude, then the goblins
    (tied on 30 and Ag, they reroll among themselves, W-2.2); per fighter each goblin rolls its own."""
    from brutal_sim.core.battle import B_INIT, B_ORDER

    wilhelm = fighter(name="Wilhelm", ag=35, main_hand="hand_weapon")
    gertrude = fighter(name="Gertrude", ag=33, main_hand="hand_weapon")
    seed = 11
    index = _index_with_dice(seed, (6, 6, 5))
    p = RULESET.prepare_fight([wilhelm, gertrude], ["goblin"] * 3, options={"initiative_group": "per_type"})
    assert p.compiled.fighters[:, L.P_INIT_SHARE].tolist() == [0, 0, 0, 3, 3]
    _, S, _, _ = _order_state(p, seed, index)
    assert S[:2, B_INIT].tolist() == [41, 39] and S[:2, B_ORDER].tolist() == [0, 1]
    assert sorted(S[2:5, B_ORDER].tolist()) == [2, 3, 4]
    p = RULESET.prepare_fight([wilhelm, gertrude], ["goblin"] * 3)  # per_fighter: 6, 6, then 5 and two more dice
    assert p.compiled.fighters[:, L.P_INIT_SHARE].tolist() == [0] * 5
    _, S, _, _ = _order_state(p, seed, index)
    assert S[:3, B_INIT].tolist() == [41, 39, 30]


def test_w13_2_w13_3_seed_69_the_sergeant_arrives_in_round_2():
    """W-13.2, W-13.3 (seed 69): Gertrude (44) and the Roadwarden (35) fight round 1; the Sergeant
    (arrive_round 2) rolls 50 when he arrives and takes the first place, the others keeping theirs,
    so he attacks while Gertrude's round-1 stance still stands (it lasts until her next turn)."""
    from brutal_sim.core.battle import B_AWAY, B_INIT, B_ORDER
    from brutal_sim.rulesets.wfrp2e.kernel import arrivals

    gertrude = fighter(name="Gertrude", ag=38, main_hand="hand_weapon")
    roadwarden = fighter(name="Roadwarden", ag=30, main_hand="hand_weapon", tactic="cautious")
    sergeant = fighter(name="Sergeant", ag=41, main_hand="hand_weapon", arrive_round=2)
    seed = 69
    index = _index_with_dice(seed, (6, 5, 9))
    p = RULESET.prepare_fight([gertrude], [roadwarden, sergeant])
    F, S, o, st = _order_state(p, seed, index)
    assert S[:, B_AWAY].tolist() == [0, 0, 1]
    assert S[:2, B_INIT].tolist() == [44, 35] and S[:, B_ORDER].tolist() == [0, 1, 2]
    S[0, L.S_PARRY_STANCE] = 1  # Gertrude's round-1 stance
    arrivals(F, S, o, st, 2)
    assert S[:, B_AWAY].tolist() == [0, 0, 0] and S[2, B_INIT] == 50
    assert S[:, B_ORDER].tolist() == [2, 0, 1]
    assert S[0, L.S_PARRY_STANCE] == 1


def test_arrive_round_refusals():
    """W-13.2: a side needs a fighter from round 1, an arrival within the round cap, and a duel's
    fighters are in it from round 1; each one line naming the field."""
    import pytest

    from brutal_sim.core.errors import DataError

    late = fighter(name="Late", arrive_round=3)
    with pytest.raises(DataError, match=r"side b: arrive_round: every fighter arrives after round 1"):
        RULESET.prepare_fight(["orc"], [late, late])
    with pytest.raises(DataError, match=r"arrive_round: 3 is after the round cap \(2\)"):
        RULESET.prepare_fight(["orc"], ["goblin", late], options={"round_cap": "2"})
    with pytest.raises(DataError, match=r"side a \(Late\): arrive_round: 3: a duel's fighters"):
        RULESET.prepare(late, "orc")


def _fresh_fight(side_a, side_b, **options):
    from brutal_sim.rulesets.wfrp2e.kernel import reset

    p = RULESET.prepare_fight(side_a, side_b, options={k: str(v) for k, v in options.items()})
    F, o = p.compiled.fighters, p.compiled.options
    S = np.zeros((F.shape[0], L.NS), dtype=np.int64)
    reset(F, S, o)
    return F, S, o


def _set_foes(S, foes):
    from brutal_sim.core.battle import B_ENGAGERS, B_FOE

    S[:, B_ENGAGERS] = 0
    for i, e in enumerate(foes):
        S[i, B_FOE] = e
        if e >= 0:
            S[e, B_ENGAGERS] += 1


def test_w13_4_outnumbered_by_table_6_2_both_ways():
    """W-13.4 ``outnumber``: three orcs on the swordsman, his ally engaged with none of them: 3 to 1,
    +20; two orcs on him and the militia on the third: 2 to 1, +10; three on him and the militia on
    one of them: 3 to 2, nothing; ``none``: never."""
    from brutal_sim.rulesets.wfrp2e.kernel import attack_target, outnumbered

    for value, expected in (("table_6_2", (20, 10, 0)), ("none", (0, 0, 0))):
        F, S, o = _fresh_fight(["swordsman", "militia"], ["orc"] * 3, outnumber=value)
        got = []
        for foes in ([2, -1, 0, 0, 0], [2, 4, 0, 0, 4], [2, 2, 0, 0, 0]):
            _set_foes(S, foes)
            got.append(outnumbered(F, S, o, 0))
        assert tuple(got) == expected, value
        _set_foes(S, [2, -1, 0, 0, 0])
        F2, S2, o2 = _fresh_fight(["swordsman", "militia"], ["orc"] * 3)
        _set_foes(S2, [2, -1, 0, 0, 0])
        slot = L.SLOT_MAIN
        assert attack_target(F, S, o, 2, slot, 0) - attack_target(F2, S2, o2, 2, slot, 0) == expected[0]


def test_w13_6_finish_helpless_both_ways():
    """W-13.6 with ``helpless = attackable``: the helpless orc (first in line, so ``spread`` would
    take it) is the swordsman's foe only with ``finish_helpless = on``; with ``off`` he takes the
    standing goblin, and the orc only when it is the last enemy in."""
    from brutal_sim.core.battle import B_FOE
    from brutal_sim.rulesets.wfrp2e.kernel import choose_foe

    for value, first in (("on", 1), ("off", 2)):
        F, S, o = _fresh_fight(["swordsman"], ["orc", "goblin"], helpless="attackable", finish_helpless=value)
        S[1, L.S_HELPLESS] = 1
        choose_foe(F, S, o, np.zeros(4, dtype=np.uint64), 0)
        assert S[0, B_FOE] == first, value
    S[2, L.S_OUT] = 1
    choose_foe(F, S, o, np.zeros(4, dtype=np.uint64), 0)
    assert S[0, B_FOE] == 1


def test_w8_15_target_policies():
    """W-8.15: ``shooters_first`` takes the goblin archer (loaded) over the orc first in line;
    ``weakest`` and ``focus`` the enemy with the fewest Wounds left; ``random`` keeps a foe it may
    keep, else draws among the candidates, each about equally often (within 4σ over 4,000 draws)."""
    from brutal_sim.core.battle import B_FOE
    from brutal_sim.rulesets.wfrp2e.kernel import choose_foe
    from brutal_sim.toolbox.rng import seed_duel

    st = np.zeros(4, dtype=np.uint64)
    for policy, expected in (("shooters_first", 2), ("spread", 1), ("weakest", 3), ("focus", 3)):
        p = RULESET.prepare_fight([RULESET.with_targeting(RULESET.load_fighter("swordsman"), policy, "t", "t")],
                                  ["orc", "goblin_archer", "goblin"])
        F, o = p.compiled.fighters, p.compiled.options
        S = np.zeros((F.shape[0], L.NS), dtype=np.int64)
        from brutal_sim.rulesets.wfrp2e.kernel import reset

        reset(F, S, o)
        S[3, L.S_W] = 2  # the goblin is the weakest
        choose_foe(F, S, o, st, 0)
        assert S[0, B_FOE] == expected, policy
    p = RULESET.prepare_fight([RULESET.with_targeting(RULESET.load_fighter("swordsman"), "random", "t", "t")],
                              ["orc", "goblin_archer", "goblin"])
    F, o = p.compiled.fighters, p.compiled.options
    S = np.zeros((F.shape[0], L.NS), dtype=np.int64)
    picks = np.zeros(F.shape[0], dtype=np.int64)
    n = 4000
    for index in range(n):
        reset(F, S, o)
        seed_duel(st, np.uint64(5), np.int64(index))
        choose_foe(F, S, o, st, 0)
        picks[S[0, B_FOE]] += 1
        kept = S[0, B_FOE]
        choose_foe(F, S, o, st, 0)
        assert S[0, B_FOE] == kept  # a foe it may keep is kept, no die
    se = np.sqrt(n * (1 / 3) * (2 / 3))
    assert picks[0] == 0 and all(abs(k - n / 3) < 4 * se for k in picks[1:]), picks
