"""The WFRP 2e kernel against the pure-Python reference ``naive_wfrp2e``, duel by duel and attack by
attack: the same (seed, index) must give the same counters under every tactic and option."""

from __future__ import annotations

import naive_wfrp2e as naive
import numpy as np
import pytest
from wfrp2e_util import fighter, prepared

SEED = 23
N = 150

CASES = [
    ("orc", "goblin", {}, {}),
    ("swordsman", "brute", {}, {}),
    ("duelist", "knight", {}, {}),
    ("militia", "brawler", {"street_fighting": "on", "strike_mighty_blow": "plus1"}, {}),
    ("knight", "duelist", {"crit_model": "table", "crit_table": "example"}, {}),
    ("duelist", "swordsman", {"crit_model": "table", "crit_table": "example", "prone_bonus": 20,
                              "initiative_roll": "every_round"}, {}),
    ("brawler", "duelist", {"fury_confirm": "first_only", "auto_results": "auto_01_05_96_00", "modifier_cap": 10}, {}),
    ("duelist", "duelist", {"opposed": "both_fail_reroll", "parry_dodge_choice": "per_round",
                            "fortune": "attack_first", "start_distance": 6}, {}),
    ("duelist", "orc", {"opposed": "defender_wins_ties", "fortune_extra_reaction": "reroll_only", "surprise": "b",
                        "crit_model": "threshold", "crit_threshold": 3, "tiring": "ignore"}, {"tactic_b": "turtle"}),
    ("goblin", "militia", {"defensive_stance": "full", "fury_confirm": "none", "fortune": "never",
                           "surprise": "a"}, {"tactic_b": "turtle", "tactic_a": "cautious"}),
    ("knight", "brute", {"balanced_offhand": "false", "crit_model": "table", "crit_table": "example"},
     {"reaction_a": "best", "reaction_b": "parry_first", "tactic_b": "guarded"}),
    ("orc", "goblin", {"choppa": "plus1_first_round"}, {}),
    ("orc", "swordsman", {"choppa": "impact_first_round", "helpless": "attackable", "crit_model": "table",
                          "crit_table": "example"}, {}),
    ("duelist", "knight", {"fortune_keep_last": "spend", "fortune_initiative": "on", "fortune_half_action": "on"}, {}),
]


def _check(p, n: int = N) -> None:
    F, o, grid, fx = p.compiled.args()
    k = p.compiled.n_counters
    for i in range(n):
        kernel = p.compiled.kernels.duels(F, o, grid, fx, np.uint64(SEED), np.int64(i), np.int64(1), 1, k)[0]
        ref = naive.duel(F, o, grid, fx, SEED, i).counter_row(k)
        assert kernel.tolist() == ref, f"duel {i}"
        kernel = p.compiled.kernels.attacks(F, o, grid, fx, np.uint64(SEED), np.int64(i), np.int64(1), 1, k)[0]
        ref = naive.attack(F, o, grid, fx, SEED, i).counter_row(k)
        assert kernel.tolist() == ref, f"attack {i}"


@pytest.mark.parametrize("a,b,options,behaviour", CASES)
def test_duels_and_attacks_agree(a, b, options, behaviour):
    from brutal_sim.rulesets.wfrp2e import RULESET

    _check(RULESET.prepare(a, b, options={k: str(v) for k, v in options.items()}, **behaviour))


def test_custom_fighters_agree():
    """Fleeing (W-3.16), fortune and fate, off-hand attacks after a drop, Armour Piercing, Precise."""
    a = fighter(ws=45, ag=40, a=2, dodge=40, fortune=3, fate=1, main_hand={"damage": 1, "qualities": ["precise",
                "armour_piercing"], "main_with_off_hand": True}, off_hand="main_gauche", tactic="swift",
                reaction="best", flee_at=3)
    b = fighter(ws=50, s=45, t=40, w=14, fortune=2, main_hand="morning_star", off_hand="buckler",
                armour=["full_leather", "helmet"], flee_at=2)
    _check(prepared(a, b, crit_model="table", crit_table="example"), n=250)


@pytest.mark.parametrize("scope", ["per_attack", "per_round"])
def test_fortune_bought_reactions_agree(scope):
    """W-6.5 extra parries and dodges: three swift attacks a round against one parry and one dodge."""
    a = fighter(ws=55, a=3, tactic="swift", main_hand="hand_weapon", fortune=1)
    b = fighter(ws=45, dodge=45, w=20, main_hand="hand_weapon", off_hand="shield", fortune=4, reaction="best")
    _check(prepared(a, b, parry_dodge_choice=scope), n=120)


def test_block_of_duels_is_the_sum_of_naive_duels():
    p = prepared("swordsman", "duelist")
    F, o, grid, fx = p.compiled.args()
    k = p.compiled.n_counters
    block = p.compiled.kernels.duels(F, o, grid, fx, np.uint64(SEED), np.int64(100), np.int64(200), 2, k).sum(axis=0)
    total = np.zeros(k, dtype=np.int64)
    for i in range(100, 300):
        total += np.array(naive.duel(F, o, grid, fx, SEED, i).counter_row(k))
    assert np.array_equal(block, total)


FORTUNE_FIGHTERS = {
    "guarded": dict(ws=45, ag=35, fortune=4, w=14, dodge=35, main_hand="choppa"),
    "swift": dict(ws=45, ag=30, a=2, fortune=3, w=14, main_hand="hand_weapon", off_hand="shield", tactic="swift"),
    "berserk": dict(ws=40, s=45, ag=35, fortune=3, w=14, main_hand="great_weapon", tactic="berserk"),
    "feinter": dict(ws=48, ag=40, fortune=5, w=12, dodge=40, main_hand="rapier", off_hand="main_gauche",
                    tactic="feinter"),
}


@pytest.mark.parametrize("a,b,options", [
    ("guarded", "swift", {"fortune_initiative": "on", "fortune_half_action": "on", "initiative_roll": "every_round"}),
    ("berserk", "feinter", {"fortune_half_action": "on", "fortune_keep_last": "spend", "crit_model": "table",
                            "crit_table": "example"}),
    ("feinter", "guarded", {"fortune_half_action": "on", "fortune_initiative": "on", "fortune": "attack_first",
                            "crit_model": "table", "crit_table": "example", "prone_bonus": 20}),
    ("guarded", "berserk", {"helpless": "attackable", "crit_model": "table", "crit_table": "example",
                            "choppa": "impact_first_round", "fortune_half_action": "on"}),
    ("swift", "guarded", {"helpless": "attackable", "crit_model": "table", "crit_table": "example",
                          "choppa": "plus1_first_round", "fury_confirm": "none", "fortune_keep_last": "spend"}),
])
def test_w6_5_w6_2_w9_3_options_agree(a, b, options):
    """W-6.5 fortune on initiative and extra half actions, W-8.7 fortune_keep_last, W-6.2 helpless
    targets that stay in the fight, W-9.3 choppa readings: kernel and reference duel by duel."""
    _check(prepared(fighter(**FORTUNE_FIGHTERS[a]), fighter(**FORTUNE_FIGHTERS[b]), **options), n=250)


MOVING = [  # a, b, a's fields, b's fields, options
    ({"m": 4}, {"m": 3}, {"start_distance": 3}),
    ({"m": 4}, {"m": 3}, {"start_distance": 14}),
    ({"m": 3, "ag": 60}, {"m": 5}, {"start_distance": 40}),
    ({"m": 3}, {"m": 4}, {"start_distance": 40, "approach": "double_move"}),
    ({"m": 4}, {"m": 4}, {"start_distance": 12, "terrain": "difficult"}),
    ({"m": 4}, {"m": 4}, {"start_distance": 7, "terrain": "difficult", "difficult_charge": "forbidden"}),
    ({"m": 3}, {"m": 5}, {"start_distance": 20, "terrain": "difficult", "difficult_charge": "forbidden"}),
    ({"m": 1}, {"m": 1}, {"start_distance": 9, "terrain": "difficult"}),
    ({"m": 4, "flee_at": 6}, {"m": 5, "tactic": "berserk"}, {"start_distance": 9, "flee_outcome": "reposition"}),
    ({"m": 4, "flee_at": 6}, {"m": 2}, {"flee_outcome": "reposition", "arena": 10, "leave_melee": "rulebook"}),
    ({"m": 4, "flee_at": 6}, {"m": 4}, {"leave_melee": "rulebook"}),
    ({"m": 4, "tactic": "turtle"}, {"m": 4}, {"start_distance": 30}),
]


@pytest.mark.parametrize("fa,fb,options", MOVING)
def test_w11_moving_duels_agree(fa, fb, options):
    """W-11.2 moves, charges and runs (+20 WS at a runner), W-11.3 engagement at 2 yards, W-11.4
    leaving melee (seed / rulebook, out / reposition), W-11.5 the line and its arena, W-8.12 closing
    in (W-3.14 Move, W-3.15 Run; Moves to contact when no charge is possible): duel by duel as the
    reference plays them."""
    a = fighter(ws=45, main_hand="hand_weapon", dodge=35, **fa)
    b = fighter(ws=40, s=40, main_hand="hand_weapon", armour=["mail_shirt"], **fb)
    _check(prepared(a, b, **options), n=120)


SHOOTING = [  # a, b, options
    ("kithband", "orc", {"start_distance": 40}),
    ("orc", "kithband", {"start_distance": 130, "approach": "double_move"}),
    ("crossbowman", "orc", {"start_distance": 30, "start_loaded": "false"}),
    ("pistolier", "duelist", {}),
    ("pistolier", "knight", {"start_distance": 20, "crit_model": "table", "crit_table": "example"}),
    ("goblin_archer", "swordsman", {"start_distance": 70, "extreme_mod": "stack"}),
    ("goblin_archer", "kithband", {"start_distance": 50, "extreme_mod": "aim_adds", "fortune": "attack_first"}),
    ("kithband", "goblin_archer", {"start_distance": 100, "extreme": "off", "terrain": "difficult"}),
    ("pistolier", "goblin_archer", {"start_distance": 30, "reload_break": "also_damage"}),
    ("goblin_archer", "pistolier", {"start_distance": 30}),
]
KITING = [  # options (kithband kiting an orc)
    {"start_distance": 40},
    {"start_distance": 30, "arena": 60},
    {"start_distance": 12, "terrain": "difficult"},
    {"start_distance": 12, "terrain": "difficult", "difficult_charge": "forbidden"},
    {"start_distance": 20, "approach": "double_move", "start_loaded": "false"},
]


@pytest.mark.parametrize("options", KITING)
def test_w8_11_kiting_duels_agree(options):
    """W-8.11 kite (moves away, shots, reloads, runs, the arena's end) against a rushing orc (W-8.12);
    the single attack, the first shot of the kiter's first turn (its moves first), attack by attack."""
    from brutal_sim.rulesets.wfrp2e import RULESET

    kith = RULESET.catalog().fighter("kithband").model_copy(update={"tactic": "kite"})
    p = prepared(kith, "orc", **options)
    F, o, grid, fx = p.compiled.args()
    k = p.compiled.n_counters
    for i in range(150):
        kernel = p.compiled.kernels.duels(F, o, grid, fx, np.uint64(SEED), np.int64(i), np.int64(1), 1, k)[0]
        assert kernel.tolist() == naive.duel(F, o, grid, fx, SEED, i).counter_row(k), f"duel {i}"
        kernel = p.compiled.kernels.attacks(F, o, grid, fx, np.uint64(SEED), np.int64(i), np.int64(1), 1, k)[0]
        assert kernel.tolist() == naive.attack(F, o, grid, fx, SEED, i).counter_row(k), f"attack {i}"


@pytest.mark.parametrize("a,b,options", SHOOTING)
def test_w7_shooting_duels_agree(a, b, options):
    """W-7.1 – W-7.5, W-7.7, W-7.10 shots, bands, aim, reloads; W-8.9, W-8.10 marksman and
    shoot_then_draw; W-9.5 example fighters: duel by duel and shot by shot as the reference plays them,
    and the single attack (the first shot of the first turn: after a move, a reload …) too."""
    from brutal_sim.rulesets.wfrp2e import RULESET

    p = RULESET.prepare(a, b, options={k: str(v) for k, v in options.items()})
    F, o, grid, fx = p.compiled.args()
    k = p.compiled.n_counters
    for i in range(150):
        kernel = p.compiled.kernels.duels(F, o, grid, fx, np.uint64(SEED), np.int64(i), np.int64(1), 1, k)[0]
        assert kernel.tolist() == naive.duel(F, o, grid, fx, SEED, i).counter_row(k), f"duel {i}"
        kernel = p.compiled.kernels.attacks(F, o, grid, fx, np.uint64(SEED), np.int64(i), np.int64(1), 1, k)[0]
        assert kernel.tolist() == naive.attack(F, o, grid, fx, SEED, i).counter_row(k), f"attack {i}"


def test_w7_throwing_axe_duels_agree():
    """W-7.4 no long range (short_is_max / double_short), thrown damage SB − 2 (W-7.1, W-9.4)."""
    a = fighter(bs=45, m=3, missile="throwing_axe", main_hand="hand_weapon", tactic="marksman")
    b = fighter(ws=40, main_hand="hand_weapon", armour=["leather_jack"])
    for rule in ("short_is_max", "double_short"):
        _check(prepared(a, b, start_distance=20, no_long=rule), n=100)


# -- fights of several a side (W-13, W-8.15, docs/groups.md) ---------------------------------------

FIGHTS = [
    (["swordsman", "duelist"], ["orc", "orc", "goblin"], {}),
    (["knight"], ["militia", "militia", "militia"], {"crit_model": "table", "crit_table": "example"}),
    (["crossbowman", "swordsman"], ["orc", "orc"], {"start_distance": 30}),
    (["swordsman", "duelist", "brawler"], ["goblin_archer", "goblin_archer", "goblin_archer"],
     {"start_distance": 24, "initiative_roll": "every_round"}),
    (["kithband", "pistolier"], ["orc", "brute"], {"start_distance": 40, "helpless": "attackable",
                                                   "crit_model": "table", "crit_table": "example"}),
]


def _fight_prepared(side_a, side_b, options, targeting=None):
    from brutal_sim.rulesets.wfrp2e import RULESET

    if targeting is not None:
        side_a = [RULESET.with_targeting(RULESET.load_fighter(r), targeting, "test", "targeting") for r in side_a]
    return RULESET.prepare_fight(side_a, side_b, options={k: str(v) for k, v in options.items()})


def _check_fights(p, n: int) -> None:
    F, o, grid, fx = p.compiled.args()
    k = p.compiled.n_counters
    for i in range(n):
        kernel = p.compiled.kernels.duels(F, o, grid, fx, np.uint64(SEED), np.int64(i), np.int64(1), 1, k)[0]
        ref = naive.duel(F, o, grid, fx, SEED, i).counter_row(k)
        assert kernel.tolist() == ref, f"fight {i}"


@pytest.mark.parametrize("side_a,side_b,options", FIGHTS)
def test_fights_of_several_agree(side_a, side_b, options):
    """W-13, W-8.15, W-13.4 (a fleer's free attacks), W-13.7: the header and the group block of every
    fight equal the reference's, fight by fight."""
    _check_fights(_fight_prepared(side_a, side_b, options), 60)


def _late(name: str, rnd: int):
    """A catalog fighter joining in round ``rnd`` (W-13.2)."""
    from brutal_sim.rulesets.wfrp2e import RULESET

    return RULESET.load_fighter(name).model_copy(update={"arrive_round": rnd})


@pytest.mark.parametrize("options", [{}, {"initiative_roll": "every_round", "fortune_initiative": "on"},
                                     {"initiative_group": "per_type", "outnumber": "table_6_2"},
                                     {"helpless": "attackable", "finish_helpless": "on", "crit_model": "table",
                                      "crit_table": "example", "outnumber": "table_6_2"},
                                     {"helpless": "attackable", "finish_helpless": "off", "crit_model": "table",
                                      "crit_table": "example"}])
def test_fights_with_arrivals_agree(options):
    """W-13.1 (initiative_group), W-13.2 (arrivals in rounds 2 and 3), W-13.4 (outnumber), W-13.6
    (finish_helpless): the kernel and the reference fight by fight."""
    a = ["duelist", _late("knight", 2)]
    b = ["militia", "goblin", "goblin", _late("orc", 3)]
    _check_fights(_fight_prepared(a, b, options), 60)


@pytest.mark.parametrize("targeting", ["weakest", "nearest", "shooters_first", "focus", "random"])
def test_fights_of_several_agree_under_each_targeting(targeting):
    """W-8.15: side a's targeting policy; a fleer at 4 Wounds (W-3.16, W-13.4); a goblin archer
    among the enemies (``shooters_first``), from 20 yards."""
    fleer = fighter(ws=35, ag=30, w=10, main_hand="hand_weapon", flee_at=4)
    _check_fights(_fight_prepared(["swordsman", fleer], ["orc", "goblin", "goblin_archer"], {"start_distance": 20},
                                  targeting), 60)


# -- the grapple (W-12, W-8.13) ----------------------------------------------------------------------

GRAPPLES = [  # a, b, options
    ("wrestler", "orc", {}),
    ("wrestler", "swordsman", {"grapple_via": "standard", "grapple_location": "body"}),
    ("duelist", "wrestler", {"grapple_reaction": "none", "grapple_fury": "auto", "street_fighting": "on",
                             "strike_mighty_blow": "plus1"}),
    ("wrestler", "brute", {"start_distance": 12, "grapple_fury": "auto", "crit_model": "table",
                           "crit_table": "example"}),
    ("wrestler", "knight", {"start_distance": 3, "grapple_via": "standard", "opposed": "both_fail_reroll",
                            "fortune": "attack_first"}),
    ("wrestler", "militia", {"start_distance": 10, "opposed": "defender_wins_ties", "helpless": "attackable",
                             "crit_model": "table", "crit_table": "example", "fortune_half_action": "on"}),
]


@pytest.mark.parametrize("a,b,options", GRAPPLES)
def test_w12_grapple_duels_agree(a, b, options):
    """W-12.1 – W-12.6, W-3.17, W-6.3, W-8.13: a grappler's duels (the attempt standing, after a Move
    and in a charge, the Ag test, break free, hurt, release) under each value of the grapple options,
    kernel and reference duel by duel."""
    _check_fights(prepared(a, b, **options), N)


@pytest.mark.parametrize("hands,drop", [("any", "free"), ("free", "free"), ("free", "half")])
def test_w12_1_armed_grappler_hands_agree(hands, drop):
    """W-12.1 ``grapple_hands``: an armed grappler (hand weapon and shield, Wrestling) attempts with
    them in hand, or drops them first (W-7.12 ``drop``: free or a half action) and never readies
    them; its foe flees at 5 Wounds (W-3.16: no free attack from a fighter in a grapple)."""
    a = fighter(ws=45, s=42, ag=35, main_hand="hand_weapon", off_hand="shield", talents=["wrestling"],
                tactic="grappler", fortune=2)
    b = fighter(ws=40, s=35, ag=40, dodge=40, main_hand="hand_weapon", armour=["sleeved_mail_shirt"], flee_at=5)
    _check_fights(prepared(a, b, grapple_hands=hands, drop=drop, start_distance=8), 120)


GRAPPLE_FIGHTS = [  # side a, side b, options
    (["wrestler", "swordsman"], ["brute", "orc"], {}),
    (["wrestler", "wrestler", "militia"], ["orc", "goblin", "goblin"],
     {"grapple_reaction": "none", "crit_model": "table", "crit_table": "example", "helpless": "attackable"}),
    (["kithband", "wrestler"], ["orc", "goblin"], {"start_distance": 20, "bs_bonus": "plus20", "grapple_fury": "auto"}),
]


@pytest.mark.parametrize("side_a,side_b,options", GRAPPLE_FIGHTS)
def test_w12_3_grapples_in_fights_of_several_agree(side_a, side_b, options):
    """W-12.3, W-13.6: in fights of several a side the fighters of a grapple parry and dodge no more
    and melee attacks (with ``bs_bonus = plus20`` shots) at them from outside get +20; one grappler
    per target (W-12.2); a grapple ends when a fighter of it goes out (W-12.6): kernel and reference
    fight by fight, the group block included."""
    _check_fights(_fight_prepared(side_a, side_b, options), 60)
