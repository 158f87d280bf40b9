"""V-13 Will, orders and threats, V-15.10 the commander, V-16.4 the sergeant and the trooper: the
order's bonus on one check and a threat's Will damage against exact enumerations of d20 pools, the
order's hearing by band (V-13.5), every V-13 option both ways, the naive reference fight by fight,
and the bad input."""

from __future__ import annotations

import naive_vereteno as nv
import numpy as np
import pytest
from naive_rng import Xoshiro256StarStar

from brutal_sim.core.battle import B_ENGAGERS, B_FOE, B_OUT_SEQ, B_SIDE_IN
from brutal_sim.core.errors import DataError
from brutal_sim.rulesets.vereteno import RULESET, kernel as K, layout as L
from brutal_sim.rulesets.vereteno.catalog import Catalog
from brutal_sim.rulesets.vereteno.compile import compile_sides
from brutal_sim.rulesets.vereteno.options import compile_options
from brutal_sim.toolbox.battle import put_out, set_round
from brutal_sim.toolbox.rng import seed_duel

SEED = 41


@pytest.fixture(autouse=True, scope="module")
def one_numba_thread():
    import numba

    before = numba.get_num_threads()
    numba.set_num_threads(1)
    yield
    numba.set_num_threads(before)


def _f(name: str, **changes):
    """A bundled fighter with ``changes`` (validated)."""
    f = Catalog.bundled().fighter(name)
    if not changes:
        return f
    data = RULESET.fighter_data(f)
    data.update(changes)
    return RULESET.fighter_from_data(data, "test", name)


def _opts(**kw: str) -> np.ndarray:
    return compile_options(RULESET.default_options().with_overrides(kw, "test"))


def _state(F: np.ndarray, xs: list[int]) -> np.ndarray:
    """A fresh state of the fight ``F`` in round 1, fighter j at ``xs[j]`` metres, each one's foe the
    first enemy."""
    S = np.zeros((F.shape[0], L.NS), dtype=np.int64)
    K.reset(F, S)
    for j, x in enumerate(xs):
        S[j, L.S_X] = x
    for j in range(F.shape[0]):
        S[j, B_FOE] = next(e for e in range(F.shape[0]) if F[e, L.P_SIDE] != F[j, L.P_SIDE])
    set_round(S, 1)
    return S


def _rng(idx: int) -> np.ndarray:
    st = np.empty(4, dtype=np.uint64)
    seed_duel(st, np.uint64(SEED), np.int64(idx))
    return st


def _index_with_dice(*faces: int | tuple[int, ...]) -> int:
    """An index whose generator's first d20s are ``faces``."""
    for idx in range(500_000):
        rng = Xoshiro256StarStar.for_duel(SEED, idx)
        if all(rng.die(20) in (f if isinstance(f, tuple) else (f,)) for f in faces):
            return idx
    raise AssertionError("no such index")


BLANK = tuple(range(2, 17))  # V-1.3: faces without a success
ONE = (17, 18, 19)  # V-1.3: faces of one success


def _pool_distribution(pool: int) -> dict[int, float]:
    """V-1.3: the exact distribution of a check's net successes, ``pool`` ≥ 1 d20, by enumeration of
    the faces of one die, pool times (20 → 2, 17–19 → 1, 1 → −2, else 0)."""
    one = {}
    for face in range(1, 21):
        v = 2 if face == 20 else 1 if face >= 17 else -2 if face == 1 else 0
        one[v] = one.get(v, 0) + 1 / 20
    dist = {0: 1.0}
    for _ in range(pool):
        nxt: dict[int, float] = {}
        for a, p in dist.items():
            for b, q in one.items():
                nxt[a + b] = nxt.get(a + b, 0) + p * q
        dist = nxt
    return dist


def _squad(**opts: str):
    """Sergeant + 2 troopers (side a) against 3 raiders: compiled fighters and options."""
    F = compile_sides([_f("sergeant"), _f("trooper"), _f("trooper")], [_f("raider")] * 3)
    return F, _opts(**opts)


# -- V-13.4 orders: the bonus, exact ---------------------------------------------------------------

def test_v13_4_order_bonus_on_one_check_is_the_leadership_successes_exact():
    """V-13.4, V-15.10: the sergeant's "Fire!" (Эмпатия 4 + Лидерство 3 = 7 dice) gives each trooper in
    hearing +S dice to its shots for the order's round and the next. Exact: P(S = s) by enumeration of
    seven d20; the kernel's order over 20,000 draws gives the troopers' bonus with that distribution
    (each s ≥ 1 within 4σ), and a trooper's shot pool is its pool without the order + S."""
    F, o = _squad()
    assert F[0, L.P_LEAD_POOL] == 7 and F[1, L.P_COMMANDER] == 0 and F[2, L.P_COMMANDER] == 0
    exact = _pool_distribution(7)
    n = 20_000
    got: dict[int, int] = {}
    for idx in range(n):
        S = _state(F, [0, 0, 0, 20, 20, 20])
        base = K.shot_pool(F, S, o, 1, L.SH_STANDARD)
        assert K.wants_order(F, S, o, 0)
        K.give_order(F, S, o, _rng(idx), 0)
        bonus = int(S[1, L.S_ORD + L.ORD_SHOOT])
        assert S[2, L.S_ORD + L.ORD_SHOOT] == bonus and S[0, L.S_ORD + L.ORD_SHOOT] == 0  # order_self = off
        assert K.shot_pool(F, S, o, 1, L.SH_STANDARD) == base + bonus
        assert S[0, L.S_AP] == 1 and (S[0, L.S_ORDERED_UNTIL] == 2) == (bonus >= 1)
        got[bonus] = got.get(bonus, 0) + 1
    p0 = sum(p for s, p in exact.items() if s <= 0)
    for s, p in [(0, p0)] + [(s, exact[s]) for s in range(1, 6)]:
        sigma = (p * (1 - p) / n) ** 0.5
        assert abs(got.get(s, 0) / n - p) < 4 * sigma + 1e-9, (s, got.get(s, 0) / n, p)


def test_v13_4_window_is_this_round_and_the_next_then_it_lapses():
    """V-13.4 **[reading]**: an order in round 1 lasts through round 2 and lapses at the start of
    round 3; the sergeant orders again once its order has lapsed (V-15.10), not before."""
    F, o = _squad()
    idx = _index_with_dice(20, 18, BLANK, BLANK, BLANK, BLANK, BLANK)  # S = 3
    S = _state(F, [0, 0, 0, 20, 20, 20])
    K.give_order(F, S, o, _rng(idx), 0)
    assert S[1, L.S_ORD + L.ORD_SHOOT] == 3 and S[1, L.S_ORD_UNTIL + L.ORD_SHOOT] == 2
    S[0, L.S_AP] = 3
    for rnd, held, wants in ((2, 3, False), (3, 0, True)):
        set_round(S, rnd)
        K.orders_lapse(F, S, rnd)
        assert S[1, L.S_ORD + L.ORD_SHOOT] == held and K.wants_order(F, S, o, 0) == wants


@pytest.mark.parametrize("xs,headsets,jammer,heard", [
    ([0, 20, 21], "off", "off", (3, 1)),       # medium: all; long: S − 2
    ([0, 101, 50], "off", "off", (0, 1)),      # extreme: not heard
    ([0, 101, 500], "on", "off", (3, 3)),      # headsets: all at any range
    ([0, 101, 50], "on", "on", (0, 1)),        # a jammer near: by range again
])
def test_v13_5_hearing_by_band_headsets_and_jammer(xs, headsets, jammer, heard):
    """V-13.5: an order of S = 3 heard by band (full to medium, long S − 2, extreme none), the distance
    at the moment of the order **[reading]**; ``headsets = on`` lifts the limit unless ``jammer = on``."""
    F, o = _squad(headsets=headsets, jammer=jammer)
    idx = _index_with_dice(20, 18, BLANK, BLANK, BLANK, BLANK, BLANK)
    S = _state(F, [*xs, 600, 600, 600])
    K.give_order(F, S, o, _rng(idx), 0)
    assert (S[1, L.S_ORD + L.ORD_SHOOT], S[2, L.S_ORD + L.ORD_SHOOT]) == heard
    assert K.heard(F, S, o, 0, 1, 3) == heard[0]


@pytest.mark.parametrize("option,value,cells", [
    ("order_self", "off", {0: (0, 0, 0, 0), 1: (0, 3, 3, 0)}),
    ("order_self", "on", {0: (0, 3, 3, 0), 1: (0, 3, 3, 0)}),
    ("melee_order", "attacks_only", {0: (0, 0, 0, 0), 1: (0, 3, 0, 0)}),
])
def test_v13_4_order_self_and_melee_order(option, value, cells):
    """V-13.4 GAPs: "In melee!" (raiders' order: most hold no gun, V-15.10) goes to melee attacks and
    defences (``melee_order = all``) or attacks only; to subordinates only (``order_self = off``) or
    the commander too. The melee and defence pools carry the bonus."""
    F = compile_sides([_f("raider", order_first=True, skills={"melee": 3, "leadership": 3}),
                       _f("raider", commander="Raider")], [_f("trooper", commander="")])
    o = _opts(**{option: value})
    idx = _index_with_dice(20, 18, BLANK, BLANK, BLANK, BLANK)  # Эмпатия 3 + Лидерство 3: S = 3
    S = _state(F, [0, 0, 0])
    base = (K.melee_pool(F, S, o, 1, 2, L.K_STANDARD), K.defence_pool(F, S, 1))
    K.give_order(F, S, o, _rng(idx), 0)
    for j, want in cells.items():
        assert tuple(S[j, L.S_ORD:L.S_ORD + 4]) == want
    assert K.melee_pool(F, S, o, 1, 2, L.K_STANDARD) == base[0] + cells[1][1]
    assert K.defence_pool(F, S, 1) == base[1] + cells[1][2]


@pytest.mark.parametrize("stack,want", [("replace", 1), ("add", 4)])
def test_v13_4_order_stack(stack, want):
    """V-13.4 GAP: a second "Fire!" (S = 1) while the first (S = 3) still holds replaces it
    (``order_stack = replace``) or adds to it (``add``); either lasts to the new order's end."""
    F, o = _squad(order_stack=stack)
    S = _state(F, [0, 0, 0, 20, 20, 20])
    K.give_order(F, S, o, _rng(_index_with_dice(20, 18, BLANK, BLANK, BLANK, BLANK, BLANK)), 0)
    set_round(S, 2)
    S[0, L.S_AP] = 3
    K.give_order(F, S, o, _rng(_index_with_dice(18, BLANK, BLANK, BLANK, BLANK, BLANK, BLANK)), 0)
    assert S[1, L.S_ORD + L.ORD_SHOOT] == want and S[1, L.S_ORD_UNTIL + L.ORD_SHOOT] == 3


def test_v13_4_get_down_and_defend_orders():
    """V-13.4: "Get down!" (``order = nimbleness``) adds to dodges only, "Defend!" to melee defences only."""
    for order, cell in (("nimbleness", L.ORD_DODGE), ("defend", L.ORD_DEFEND)):
        F = compile_sides([_f("sergeant", order=order), _f("trooper")], [_f("raider")])
        o = _opts()
        S = _state(F, [0, 0, 0])
        base = K.dodge_pool(F, S, o, 2, 1, L.K_STANDARD)
        K.give_order(F, S, o, _rng(_index_with_dice(20, 18, BLANK, BLANK, BLANK, BLANK, BLANK)), 0)
        assert [int(S[1, L.S_ORD + c]) for c in range(4)] == [3 if c == cell else 0 for c in range(4)]
        assert K.dodge_pool(F, S, o, 2, 1, L.K_STANDARD) == base + (3 if cell == L.ORD_DODGE else 0)


# -- V-13.2 threats, V-13.3 taunts ------------------------------------------------------------------

@pytest.mark.parametrize("targets,xs,threat_range,pools", [
    (1, [0, 0, 10, 10], "once", (4, None)),          # one target: Эмпатия 3 + Влияние 1
    (2, [0, 0, 10, 10], "once", (2, 2)),             # −2 for the second target, both take the successes
    (2, [0, 0, 50, 50], "once", (0, 0)),             # one beyond medium: −2 once for both
])
def test_v13_2_threat_will_damage_exact(targets, xs, threat_range, pools):
    """V-13.2, V-14.4: the threat's Will damage = its successes (no reaction, no armour), each target
    the full successes **[reading]**; −2 per extra target, −2 if one stands beyond medium. Exact:
    E[max(S, 0)] by enumeration of the pool; the kernel's mean Will damage over 20,000 threats within
    4σ."""
    F = compile_sides([_f("raider", threat_targets=targets)],
                      [_f("trooper", commander=""), _f("trooper", commander=""), _f("trooper", commander="")])
    o = _opts(threat_range=threat_range)
    n = 20_000
    dmg = np.zeros(4)
    for idx in range(n):
        S = _state(F, xs)
        S[1:, L.S_WILL] = 100
        K.threat(F, S, o, _rng(idx), 0, True)
        dmg += 100 - S[:, L.S_WILL]
        dmg[0] = 0
    for j, pool in zip((1, 2), pools):
        if pool is None:
            assert dmg[j] == 0
            continue
        if pool <= 0:  # V-1.4 fvtt desperate: 1 success only if every die is a 20
            p = (1 / 20) ** (1 if pool == 0 else 2)
            dist = {1: p, 0: 1 - p}
        else:
            dist = _pool_distribution(pool)
        exact = sum(max(s, 0) * p for s, p in dist.items())
        var = sum(max(s, 0) ** 2 * p for s, p in dist.items()) - exact ** 2
        assert abs(dmg[j] / n - exact) < 4 * (var / n) ** 0.5, (j, dmg[j] / n, exact)


def test_v13_2_threat_range_per_target_and_hearing():
    """V-13.2 GAPs: ``threat_range = per_target`` rolls the near target's check without the −2 and the far
    one's with it (their own check); ``threat_hearing = as_orders`` reaches no enemy at extreme range
    (V-13.5), ``any`` does."""
    F = compile_sides([_f("raider", threat_targets=2)], [_f("trooper", commander=""), _f("trooper", commander="")])
    idx = _index_with_dice(20, 20, 20)
    o = _opts(threat_range="per_target")
    S = _state(F, [0, 0, 50])
    S[1:, L.S_WILL] = 100
    K.threat(F, S, o, _rng(idx), 0, True)  # near: pool 4 − 2 = 2 dice, both 20: 4; far: pool 0, a 20: 1
    assert (100 - S[1, L.S_WILL], 100 - S[2, L.S_WILL]) == (4, 1)
    o = _opts()
    S = _state(F, [0, 0, 50])
    S[1:, L.S_WILL] = 100
    K.threat(F, S, o, _rng(idx), 0, True)  # once: pool 0 for both: one d20 (20) → 1 each
    assert (100 - S[1, L.S_WILL], 100 - S[2, L.S_WILL]) == (1, 1)
    idx = _index_with_dice(20, 20, 20, BLANK)
    for hearing, want in (("as_orders", (6, 0)), ("any", (1, 1))):
        S = _state(F, [0, 0, 500])
        S[1:, L.S_WILL] = 100
        K.threat(F, S, _opts(threat_hearing=hearing), _rng(idx), 0, True)
        # as_orders: one target, pool 4 (20, 20, 20, blank: 6); any: two, one far: pool 0 (a 20: 1 each)
        assert (100 - S[1, L.S_WILL], 100 - S[2, L.S_WILL]) == want


def test_v13_2_threat_resistances_v1_7():
    """V-13.2 GAP, V-1.7: ``threat_resistances = v1_7``: +3 dice at a target susceptible to fear (its own
    check), nothing on an immune one; ``none`` ignores the field."""
    F = compile_sides([_f("raider", threat_targets=2)],
                      [_f("trooper", commander="", fear="susceptible"), _f("trooper", commander="", fear="immune")])
    idx = _index_with_dice(20, ONE, ONE, ONE, ONE)
    S = _state(F, [0, 0, 0])
    S[1:, L.S_WILL] = 100
    K.threat(F, S, _opts(threat_resistances="v1_7"), _rng(idx), 0, True)  # pool 4 − 2 + 3 = 5 → 6
    assert (100 - S[1, L.S_WILL], 100 - S[2, L.S_WILL]) == (6, 0)
    S = _state(F, [0, 0, 0])
    S[1:, L.S_WILL] = 100
    K.threat(F, S, _opts(), _rng(idx), 0, True)  # pool 2, one check for both: 20, 18 → 3 each
    assert (100 - S[1, L.S_WILL], 100 - S[2, L.S_WILL]) == (3, 3)


def test_v13_3_taunt_loser_takes_the_difference():
    """V-13.3, V-15.10 ``taunt``: opposed Influence checks; the loser takes Will damage = the
    difference, a tie none **[reading]**."""
    F = compile_sides([_f("raider", taunt=True)], [_f("sergeant")])
    o = _opts()
    for faces, wa, wb in (((20, BLANK, BLANK, BLANK, 18, BLANK, BLANK, BLANK, BLANK, BLANK), 0, 1),
                          ((BLANK, BLANK, BLANK, BLANK, 20, 20, BLANK, BLANK, BLANK, BLANK), 4, 0),
                          ((18, BLANK, BLANK, BLANK, 18, BLANK, BLANK, BLANK, BLANK, BLANK), 0, 0)):
        S = _state(F, [0, 0])
        K.influence(F, S, o, _rng(_index_with_dice(*faces)), 0, True)  # raider 4 dice, sergeant 6
        assert (F[0, L.P_WILL] - S[0, L.S_WILL], F[1, L.P_WILL] - S[1, L.S_WILL]) == (wa, wb)
        assert S[0, L.S_AP] == 1


# -- the naive reference, fight by fight -----------------------------------------------------------

def _check_fights(p, n: int) -> np.ndarray:
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


CRY = {"attack": "quick", "keep": 0, "battle_cry": True}
FIGHTS = [
    ([_f("sergeant"), _f("trooper"), _f("trooper")], [_f("raider")] * 3, {"start_distance": "30"}),
    ([_f("sergeant"), _f("trooper"), _f("trooper")],
     [_f("raider", tactic=CRY, threat_targets=2), _f("raider", tactic=CRY, taunt=True), _f("raider")],
     {"start_distance": "30"}),
    ([_f("sergeant"), _f("trooper"), _f("trooper")], [_f("trooper", commander="")] * 3,
     {"start_distance": "20", "order_self": "on", "order_stack": "add"}),
    ([_f("raider", order_first=True, skills={"melee": 3, "leadership": 2, "influence": 1}),
      _f("raider", commander="Raider"), _f("raider", commander="Raider")],
     [_f("swordsman"), _f("brute"), _f("militia")], {"melee_order": "attacks_only", "prayer": "app"}),
    ([_f("sergeant", order="nimbleness"), _f("trooper"), _f("trooper")], [_f("raider")] * 2,
     {"start_distance": "12", "headsets": "on"}),
]


@pytest.mark.parametrize("k", range(len(FIGHTS)))
def test_fights_with_orders_and_threats_agree_with_the_reference(k):
    """V-13.1–V-13.5, V-15.10: squads with a commander's orders (Fire!, In melee!, Get down!, the
    options both ways), raiders with battle cries at several targets and taunts; every fight's
    counter row (header and group block) equals the reference's."""
    a, b, options = FIGHTS[k]
    p = RULESET.prepare_fight(a, b, options=options)
    total = _check_fights(p, 50)
    assert total[RULESET.counters.wins:RULESET.counters.wins + 2].sum() + total[RULESET.counters.draws] == 50


def test_threat_options_agree_with_the_reference():
    """V-13.2 GAPs in whole fights: threats at three targets from raiders closing in on a line of
    troopers spread by their own moves, per-target range, fear, hearing as orders."""
    b = [_f("raider", tactic=CRY, threat_targets=3), _f("raider", tactic=CRY, threat_targets=2), _f("raider")]
    a = [_f("trooper", commander="", fear="susceptible"), _f("trooper", commander="", fear="immune"),
         _f("rifleman", tactic="kite")]
    p = RULESET.prepare_fight(a, b, options={"start_distance": "30", "threat_range": "per_target",
                                             "threat_resistances": "v1_7", "threat_hearing": "as_orders"})
    _check_fights(p, 50)


# -- bad input -------------------------------------------------------------------------------------

def test_bad_input_unknown_order_and_commander_on_the_other_side():
    """An order naming an unknown skill is refused naming the field; a commander on the other side
    names the fighter and ``commander``; more than 6 a side names the side."""
    data = RULESET.fighter_data(Catalog.bundled().fighter("sergeant"))
    data["order"] = "pick_the_lock"
    with pytest.raises(DataError, match="order"):
        RULESET.fighter_from_data(data, "sergeant.toml", "sergeant")
    with pytest.raises(DataError, match=r"side b fighter 1 \(Trooper\): commander: 'Sergeant' fights on the other"):
        RULESET.prepare_fight(["sergeant", "trooper"], ["trooper"])
    with pytest.raises(DataError, match="has 7 fighters; allowed 1..6"):
        RULESET.prepare_fight(["trooper"] * 7, ["raider"])


@pytest.mark.parametrize("args,needle", [
    (("fight", "sergeant", "trooper", "vs", "trooper", "--ruleset", "vereteno"),
     "side b fighter 1 (Trooper): commander: 'Sergeant' fights on the other side"),
    (("fight", "trooper*4", "trooper*3", "vs", "raider", "--ruleset", "vereteno"),
     "7 fighters on one side; allowed 1 … 6"),
    (("fight", "sergeant", "trooper", "vs", "raider", "--ruleset", "vereteno", "--option", "order_stack=max"),
     "allowed: replace, add"),
    (("fight", "sergeant", "trooper", "vs", "raider", "--ruleset", "vereteno", "--option", "headsets=yes"),
     "allowed: off, on"),
])
def test_bad_fight_input_is_one_line_exit_2(args, needle):
    """V-13.4, V-14: a commander on the other side, more than 6 a side, a bad V-13 option value: one
    line naming the fighter (or option) and the field, exit 2."""
    from typer.testing import CliRunner

    from brutal_sim.cli import app

    r = CliRunner().invoke(app, list(args), env={"COLUMNS": "250"})
    assert r.exit_code == 2, r.output
    assert needle in r.output and len(r.output.strip().splitlines()) == 1, r.output


def test_bad_order_in_a_fighter_file_is_one_line_exit_2(tmp_path):
    """V-13.4: an order naming an unknown skill: one line naming the file and ``order``, exit 2."""
    from typer.testing import CliRunner

    from brutal_sim.cli import app

    f = tmp_path / "bad_sergeant.toml"
    f.write_text('ruleset = "vereteno"\nattributes = { physique = 3, agility = 3, intellect = 2, empathy = 4 }\n'
                 'order_first = true\norder = "pick_the_lock"\n', encoding="utf-8")
    r = CliRunner().invoke(app, ["fight", str(f), "trooper", "vs", "raider"], env={"COLUMNS": "250"})
    assert r.exit_code == 2, r.output
    assert "bad_sergeant.toml" in r.output and "order" in r.output and "pick_the_lock" in r.output
    assert len(r.output.strip().splitlines()) == 1, r.output


# -- V-13.7 inspire ----------------------------------------------------------------------------------

#: standard shots keeping no AP: 3 AP pay an inspiration (V-13.7)
STD0 = {"shot": "standard", "attack": "standard", "keep": 0, "move": "hold"}

@pytest.mark.parametrize("inspire", ["off", "on"])
def test_v13_7_inspire_restores_will_at_most_leadership(inspire):
    """V-13.7 GAP ``inspire``: ``off`` (the digest's default, V-3.14) never inspires; ``on``: the
    sergeant (3 AP that leave its keep 0, Эмпатия 4 + Лидерство 3 = 7 dice) inspires the ally who
    lost the most Will; each success 1 Will, at most its Лидерство (3) and the ally's full Will; −2
    beyond close range, −2 on itself; once a fight per ally."""
    F = compile_sides([_f("sergeant", inspire=True, order_first=False, tactic=STD0), _f("trooper"), _f("trooper")],
                      [_f("raider")])
    o = _opts(inspire=inspire)
    S = _state(F, [0, 0, 10, 30])
    S[1, L.S_WILL] = 4 - 3
    S[2, L.S_WILL] = 4 - 1
    assert K.wants_inspire(F, S, o, 0) == (inspire == "on")
    if inspire == "off":
        return
    K.inspire(F, S, o, _rng(_index_with_dice(20, 20, BLANK, BLANK, BLANK, BLANK, BLANK)), 0)  # 4 successes
    assert S[1, L.S_WILL] == 4 and S[0, L.S_AP] == 0 and S[1, L.S_INSPIRED] == 1  # + min(4, 3), at most 4
    S[0, L.S_AP] = 3
    # the trooper 10 m off (beyond close range: 7 − 2 = 5 dice): 20, 18 → 3 successes, 1 lost: + 1
    K.inspire(F, S, o, _rng(_index_with_dice(20, 18, BLANK, BLANK, BLANK)), 0)
    assert S[2, L.S_WILL] == 4
    S[0, L.S_AP] = 3
    S[0, L.S_WILL] = 2  # itself: 7 − 2 = 5 dice, 18 → 1 success
    K.inspire(F, S, o, _rng(_index_with_dice(18, BLANK, BLANK, BLANK, BLANK)), 0)
    assert S[0, L.S_WILL] == 3
    S[0, L.S_AP] = 3
    S[1, L.S_WILL] = 1  # once a fight per ally: nobody left to inspire
    assert not K.wants_inspire(F, S, o, 0)


def test_v13_7_inspire_revives_an_ally_out_by_will():
    """V-13.7 ``inspire = on``: an ally out by Will (V-5.3) is inspired the same way, counted up from its
    Will below 0 **[reading]**; above 0 it is back in the fight (``bring_back``: in its side's count,
    no place in the order of going out, an engager of its foe again); at 0 or below it stays out. An
    ally out by Health is no target."""
    F = compile_sides([_f("sergeant", inspire=True, order_first=False, tactic=STD0), _f("trooper"), _f("trooper")],
                      [_f("raider")])
    o = _opts(inspire="on")
    S = _state(F, [0, 0, 0, 30])
    S[3, B_ENGAGERS] = 3
    S[1, L.S_WILL] = -1
    put_out(F, S, 1, L.CAUSE_WILL)
    S[2, L.S_HEALTH] = 0
    put_out(F, S, 2, L.CAUSE_HEALTH)
    assert (S[0, B_SIDE_IN], S[3, B_ENGAGERS]) == (1, 1)
    assert K.wants_inspire(F, S, o, 0)
    K.inspire(F, S, o, _rng(_index_with_dice(20, 20, BLANK, BLANK, BLANK, BLANK, BLANK)), 0)  # 4 successes: + 3
    assert (S[1, L.S_WILL], S[1, L.S_OUT], S[1, B_OUT_SEQ]) == (2, 0, 0)
    assert (S[0, B_SIDE_IN], S[3, B_ENGAGERS]) == (2, 2)
    assert not K.wants_inspire(F, S, o, 0)  # the other is out by Health
    S = _state(F, [0, 0, 0, 30])
    S[1, L.S_WILL] = -3
    put_out(F, S, 1, L.CAUSE_WILL)
    K.inspire(F, S, o, _rng(_index_with_dice(20, 20, BLANK, BLANK, BLANK, BLANK, BLANK)), 0)
    assert (S[1, L.S_WILL], S[1, L.S_OUT], S[0, B_SIDE_IN]) == (0, L.CAUSE_WILL + 1, 2)


def test_inspire_agrees_with_the_reference(monkeypatch):
    """V-13.7 ``inspire = on`` in whole fights: the sergeant inspiring troopers threatened by raiders'
    battle cries, reviving some out by Will; every fight equals the reference's."""
    revived = []
    inspire = nv.Game.inspire

    def counting(game: nv.Game, s: nv.Fighting) -> None:
        t = game.inspire_target(s)
        was_out = t.out is not None
        inspire(game, s)
        revived.append(was_out and t.out is None)

    monkeypatch.setattr(nv.Game, "inspire", counting)
    a = [_f("sergeant", inspire=True, tactic=STD0), _f("trooper"), _f("trooper")]
    b = [_f("raider", tactic=CRY, threat_targets=3), _f("raider", tactic=CRY, threat_targets=2),
         _f("raider", tactic=CRY)]
    p = RULESET.prepare_fight(a, b, options={"start_distance": "30", "inspire": "on"})
    _check_fights(p, 50)
    p = RULESET.prepare_fight(a, b, options={"inspire": "on", "order_self": "on"})
    _check_fights(p, 50)
    assert sum(revived) >= 2 and len(revived) > 40


# -- V-16.4: the sergeant and the trooper, matchup D -------------------------------------------------

def test_v16_4_sergeant_and_trooper_as_the_digest_lists_them():
    """V-16.4: sergeant 3/3/2/4, leadership 3, influence 2, shooting 2, Makov carbine, kevlar vest,
    ``order_first`` + ``std_shot``; trooper 3/3/2/2, shooting 2, nimbleness 1, the same gear,
    ``std_shot``, following the sergeant."""
    s, t = Catalog.bundled().fighter("sergeant"), Catalog.bundled().fighter("trooper")
    for f, attrs in ((s, (3, 3, 2, 4)), (t, (3, 3, 2, 2))):
        a = f.attributes
        assert (a.physique, a.agility, a.intellect, a.empathy) == attrs
        assert f.gun.name_ru == "Карабин Макова" and f.armour.name_ru and f.tactic.name == "std_shot"
    assert (s.skills.leadership, s.skills.influence, s.skills.shooting, s.order_first) == (3, 2, 2, True)
    assert (t.skills.shooting, t.skills.nimbleness, t.commander) == (2, 1, s.name)
    assert s.armour.name == t.armour.name


@pytest.mark.parametrize("sergeant,documented", [("sergeant", 0.0125),
                                                 ("examples/vereteno_sergeant_silent.toml", 0.0134)])
def test_v16_4_matchup_d_holds_the_documented_win_rate(sergeant, documented):
    """V-16.4 D, V-13.4, V-15.10: the sergeant and two troopers against three raiders from 30 m, with the
    sergeant's orders and without; side a's win rate over 100,000 fights (another seed than the
    documented 10⁶) within 4σ of the rate in docs/reference-vereteno.md."""
    p = RULESET.prepare_fight([sergeant, "trooper", "trooper"], ["raider"] * 3, options={"start_distance": "30"})
    n = 100_000
    c = p.compiled.kernels.duels(*p.compiled.args(), np.uint64(7), np.int64(0), np.int64(n), 64,
                                 p.compiled.n_counters).sum(axis=0)
    got = c[RULESET.counters.wins] / n
    assert abs(got - documented) < 4 * (documented * (1 - documented) / n) ** 0.5 + 0.0002, got
