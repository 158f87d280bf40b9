"""The grapple and finishing off (V-4.5 grapple, V-1.5, V-6.10, V-3.12, V-3.13, V-3.11, V-6.6): the
kernel's steps against exact enumerations of their d20 pools (Monte-Carlo within 4σ), the spending
policy ``grapple_first``, the options ``grappled_reactions``, ``ties`` and ``finish_helpless`` both
ways, and the naive reference fight by fight on duels and fights with a grappler and finishing off."""

from __future__ import annotations

import math

import naive_vereteno as nv
import numpy as np
import pytest

from brutal_sim.core.battle import B_FOE
from brutal_sim.rulesets.vereteno import RULESET, has_grapplers, kernel as K, kernel_set, layout as L
from brutal_sim.rulesets.vereteno.catalog import Catalog
from brutal_sim.rulesets.vereteno.options import compile_options
from brutal_sim.toolbox.battle import put_out
from brutal_sim.toolbox.rng import seed_duel

SEED = 20261205
#: V-1.3 with one_value −2: successes of each d20 face 1 … 20
FACE_VALUE = [-2] + [0] * 15 + [1, 1, 1, 2]


def opts(**kw: str) -> np.ndarray:
    return compile_options(RULESET.default_options().with_overrides(kw, "test"))


def fighter(name: str, **changes):
    f = Catalog.bundled().fighter(name)
    if not changes:
        return f
    data = RULESET.fighter_data(f)
    data.update(changes)
    return RULESET.fighter_from_data(data, "test", name)


def pmf(pool: int) -> dict[int, float]:
    """The exact distribution of the net successes of ``pool`` ≥ 1 d20 (V-1.3): every face of every
    die enumerated, equal outcomes merged die by die."""
    dist = {0: 1.0}
    for _ in range(pool):
        nxt: dict[int, float] = {}
        for total, p in dist.items():
            for v in FACE_VALUE:
                nxt[total + v] = nxt.get(total + v, 0.0) + p / 20
        dist = nxt
    return dist


def p_compare(pool_a: int, pool_b: int, test) -> float:
    """P(test(r, q)) for r, q the net successes of independent checks of ``pool_a`` and ``pool_b``."""
    da, db = pmf(pool_a), pmf(pool_b)
    return sum(pa * pb for r, pa in da.items() for q, pb in db.items() if test(r, q))


def within(hits: int, n: int, p: float) -> bool:
    """A Monte-Carlo frequency within 4σ of its exact probability."""
    return abs(hits / n - p) <= 4 * math.sqrt(p * (1 - p) / n) + 1e-12


def setup(a="brawler", b="swordsman", **kw):
    """Compiled fighters, a fresh state and a random state (the kernel's own generator)."""
    p = RULESET.prepare(fighter(a, attack_spending="grapple_first"), fighter(b), options=kw or None)
    F = p.compiled.fighters.copy()
    S = np.zeros((2, L.NS), dtype=np.int64)
    K.reset(F, S)
    st = np.empty(4, dtype=np.uint64)
    seed_duel(st, np.uint64(SEED), np.int64(0))
    return F, S, st, p


# -- V-4.5 the grab and its opposed check ------------------------------------------------------------

def test_v4_5_grapple_first_puts_every_extra_into_the_grab():
    """V-4.5, V-7.4: ``grapple_first`` spends no extra on damage while the grab is possible (the
    first extra buys it, each further one is a die of its check, app); once either fighter is in a
    grapple (one per fighter) the extras go to damage."""
    F, S, _st, _p = setup()
    dmg = K.weapon(F, S, 0, L.W_DAMAGE)
    assert K.spend(F, S, 0, 1, 4) == (dmg, 0, 0, 0)
    assert K.spend(F, S, 0, 1, 1) == (dmg, 0, 0, 0)
    S[1, L.S_GRAPPLE] = -(0 + 1)
    assert K.spend(F, S, 0, 1, 4) == (dmg + 3, 0, 0, 0)


@pytest.mark.parametrize("extra", [1, 3])
def test_v4_5_grab_fails_only_if_the_target_rolls_more(extra):
    """V-4.5 (seed 127), V-1.5: the grab's opposed melee check: the grabber's defence pool (V-4.3) plus
    one die per extra beyond the first, against the target's; it holds unless the target has more
    successes (a tie goes to the grabber). Exact by enumerating both pools; the kernel's step within
    4σ; the tie rule is visible (P(r ≥ q) and P(r > q) differ by far more than 4σ)."""
    F, S, st, _p = setup()
    pa = int(K.defence_pool(F, S, 0)) + extra - 1
    pd = int(K.defence_pool(F, S, 1))
    o = opts()
    n = 40_000
    held = 0
    for _ in range(n):
        S[0, L.S_GRAPPLE] = S[1, L.S_GRAPPLE] = 0
        if K.grab(F, S, o, st, 0, 1, extra):
            held += 1
            assert (S[0, L.S_GRAPPLE], S[1, L.S_GRAPPLE]) == (2, -1)  # V-6.10: 0 holds 1
    p = p_compare(pa, pd, lambda r, q: q <= r)
    assert within(held, n, p)
    strict = p_compare(pa, pd, lambda r, q: q < r)
    assert abs(held / n - strict) > 4 * math.sqrt(p * (1 - p) / n)


# -- V-3.12 breaking free, V-1.5 ties -------------------------------------------------------------------

@pytest.mark.parametrize("ties", ["initiator_fails", "initiator_wins", "reroll"])
def test_v3_12_break_free_is_an_opposed_check_with_ties_by_option(ties):
    """V-3.12, V-1.5: the grappled fighter's standard action (2 AP): an opposed melee check against
    its grappler, the grappled rolling first; more successes free it; a tie fails it
    (``initiator_fails``, the digest's default), frees it (``initiator_wins``) or both roll again
    (``reroll``: P(r > q) / (1 − P(tie)), the 100-reroll cap below 1e−30)."""
    F, S, st, _p = setup()
    o = opts(ties=ties)
    pg, ph = int(K.defence_pool(F, S, 1)), int(K.defence_pool(F, S, 0))
    n = 40_000
    freed = 0
    for _ in range(n):
        S[0, L.S_GRAPPLE], S[1, L.S_GRAPPLE] = 2, -1
        S[1, L.S_AP] = 3
        K.break_hold(F, S, o, st, 1)
        assert S[1, L.S_AP] == 1
        freed += S[1, L.S_GRAPPLE] == 0
        assert S[0, L.S_GRAPPLE] == (0 if S[1, L.S_GRAPPLE] == 0 else 2)
    win = p_compare(pg, ph, lambda r, q: r > q)
    tie = p_compare(pg, ph, lambda r, q: r == q)
    p = {"initiator_fails": win, "initiator_wins": win + tie, "reroll": win / (1 - tie)}[ties]
    assert within(freed, n, p)


# -- V-3.13 the choke, V-6.10 no reaction -----------------------------------------------------------------

@pytest.mark.parametrize("reactions", ["none", "allowed"])
def test_v3_13_choke_bare_hands_plus_two_no_armour(reactions):
    """V-3.13, V-5.6, V-6.10: the choke (2 AP) rolls Телосложение + Ближний бой + 2 with bare hands;
    a hit deals 1 + 1 per extra success and no armour roll answers it (the armour never degrades).
    ``grappled_reactions = none``: the grappled fighter never reacts (its AP stay); ``allowed``: it
    defends or dodges as against any blow (it spends 1 AP)."""
    F, S, st, _p = setup("brawler", "knight", grappled_reactions=reactions)
    tt = RULESET.prepare("swordsman", "brute").compiled.tables[0]
    o = opts(grappled_reactions=reactions)
    pool = int(F[0, L.P_BODY] + F[0, L.P_MELEE] + 2)
    armour = int(F[1, L.P_ARMOUR_CLASS])
    assert armour > 0
    n = 20_000
    dist = pmf(pool)
    mean = sum(max(s, 0) * p for s, p in dist.items())
    var = sum(max(s, 0) ** 2 * p for s, p in dist.items()) - mean ** 2
    total = 0
    for _ in range(n):
        K.reset(F, S)
        S[0, L.S_GRAPPLE], S[1, L.S_GRAPPLE] = 2, -1
        cnt = np.zeros(RULESET.counters.size(100), dtype=np.int64)
        K.choke(F, S, o, tt, st, cnt, 0, 1)
        assert S[0, L.S_AP] <= 1  # 1 left (a counter's trauma may shock it, V-6.3)
        if reactions == "none":
            assert S[1, L.S_AP] == 3
            total += F[1, L.P_HEALTH] - S[1, L.S_HEALTH]
            assert S[1, L.S_ARMOUR] == armour
        else:
            assert S[1, L.S_AP] == 2
    if reactions == "none":
        assert abs(total / n - mean) <= 4 * math.sqrt(var / n)


def test_v6_10_grappled_fighter_does_not_react():
    """V-6.10 (seed 127), ``grappled_reactions``: a grappled fighter chooses no reaction to any attack
    by default; with ``allowed`` it reacts as before; its grappler always may."""
    F, S, _st, _p = setup()
    S[0, L.S_GRAPPLE], S[1, L.S_GRAPPLE] = 2, -1
    assert K.choose_reaction(F, S, opts(), 0, 1, L.K_STANDARD) == L.R_NONE
    assert K.choose_reaction(F, S, opts(grappled_reactions="allowed"), 0, 1, L.K_STANDARD) != L.R_NONE
    assert K.choose_reaction(F, S, opts(), 1, 0, L.K_STANDARD) != L.R_NONE


def test_v6_10_grapple_ends_when_a_partner_is_out():
    """V-6.10: a grapple whose partner went out ends for both at the next look (``in_grapple``)."""
    F, S, _st, _p = setup()
    S[0, L.S_GRAPPLE], S[1, L.S_GRAPPLE] = 2, -1
    assert K.in_grapple(S, 1)
    put_out(F, S, 0, L.CAUSE_HEALTH)
    assert not K.in_grapple(S, 1)
    assert (S[0, L.S_GRAPPLE], S[1, L.S_GRAPPLE]) == (0, 0)


def test_v6_10_grapple_ends_with_the_blow_that_puts_a_partner_out():
    """V-6.10: a blow that puts the grappler out ends the grapple at once (the freed fighter may
    react again before its own turn)."""
    F, S, st, _p = setup()
    tt = RULESET.prepare("swordsman", "brute").compiled.tables[0]
    S[0, L.S_GRAPPLE], S[1, L.S_GRAPPLE] = 2, -1
    cnt = np.zeros(RULESET.counters.size(100), dtype=np.int64)
    K.blow(F, S, opts(), tt, st, cnt, 1, 0, 50, 0, 0, 0)
    assert S[0, L.S_OUT] != 0
    assert (S[0, L.S_GRAPPLE], S[1, L.S_GRAPPLE]) == (0, 0)
    assert K.choose_reaction(F, S, opts(), 0, 1, L.K_STANDARD) != L.R_NONE


def test_grapplers_play_the_ranged_kernel_set():
    """The grapple's turns compile only in the kernel variant ``ranged``: a matchup with a
    ``grapple_first`` fighter plays it, one without keeps the melee set."""
    _F, _S, _st, p = setup()
    assert has_grapplers(p.compiled.fighters)
    assert kernel_set(p.compiled.fighters, p.compiled.options).ranged
    plain = RULESET.prepare("brawler", "swordsman").compiled
    assert not kernel_set(plain.fighters, plain.options).ranged


# -- V-3.11 finishing off ------------------------------------------------------------------------------

def test_v3_11_finishing_blow_kills_on_a_success():
    """V-3.11, V-6.6: the finishing blow (3 AP) on a helpless foe at point blank: a melee check of the
    defence pool; success (≥ 1, exact by enumeration) → dead, with 3 × the weapon's damage + the
    extras through the armour and a trauma; failure → nothing. Counted as an attack (hit or miss)."""
    F, S, st, _p = setup("swordsman", "brute")
    tt = RULESET.prepare("swordsman", "brute").compiled.tables[0]
    o = opts()
    pool = int(K.defence_pool(F, S, 0))
    n = 20_000
    dead = 0
    c = RULESET.counters
    for _ in range(n):
        K.reset(F, S)
        S[0, B_FOE], S[1, B_FOE] = 1, 0
        put_out(F, S, 1, L.CAUSE_HEALTH)
        cnt = np.zeros(c.size(100), dtype=np.int64)
        K.finish_off(F, S, o, tt, st, cnt, 0)
        assert S[0, L.S_AP] == 0
        dead += S[1, L.S_DEAD]
        assert cnt[c.attack + L.OUT_HIT] == S[1, L.S_DEAD]
        assert cnt[c.attack + L.OUT_MISS] == 1 - S[1, L.S_DEAD]
    p = sum(q for s, q in pmf(pool).items() if s >= 1)
    assert within(dead, n, p)


def _fight_counts(p, n):
    k = p.compiled.n_counters
    return p.compiled.kernels.duels(*p.compiled.args(), np.uint64(SEED), np.int64(0), np.int64(n), 1, k).sum(0)


def test_v3_11_finish_helpless_on_kills_the_fallen():
    """V-3.11, V-14.10, ``finish_helpless``: two swordsmen against three militia; ``off`` (the
    digest's default: out fighters stay out) kills the fallen only by DEAD traumas; ``on`` finishes
    off every helpless foe first, so many more of side b die (per fighter, the group block)."""
    side_a = [fighter("swordsman"), fighter("swordsman")]
    side_b = [fighter("militia"), fighter("militia"), fighter("militia")]
    n = 4000
    deaths = {}
    for mode in ("off", "on"):
        p = RULESET.prepare_fight(side_a, side_b, options={"finish_helpless": mode})
        got = _fight_counts(p, n)
        g = L.GROUP
        base = p.compiled.n_counters - g.size(5)
        per = L.N_CAUSES + 4
        first = base + 2 * (L.MAX_SIDE + 1)
        deaths[mode] = sum(int(got[first + j * per + L.N_CAUSES]) for j in range(2, 5))
    assert deaths["on"] > 3 * deaths["off"] + 100


# -- a grappler against a swordsman, and the naive reference ------------------------------------------

def test_grappler_win_rates_move_with_the_grapple_and_grab_armour():
    """V-4.5, V-6.10, V-3.13, V-5.4: the bundled wrestler (the brawler putting every extra into the
    grab) against the brute wins far less than the brawler (the held brute breaks free with its
    bigger pool, the choke deals 1 + extras); against the swordsman's armour roll (5 dice) its bare
    hands' blow is stopped and the grab with it (``grab_armour = cancels``), ``kept`` grabs all the
    same and wins more. Each difference is beyond 8σ."""
    n = 10_000
    c = RULESET.counters

    def rate(a, b, **options):
        return _fight_counts(RULESET.prepare(a, b, options=options or None), n)[c.wins] / n

    sigma = math.sqrt(0.25 / n)
    assert rate("brawler", "brute") - rate("wrestler", "brute") > 8 * sigma
    assert rate("wrestler", "swordsman", grab_armour="kept") - rate("wrestler", "swordsman") > 8 * math.sqrt(0.05 / n)


@pytest.fixture(scope="module")
def one_thread():
    import numba

    before = numba.get_num_threads()
    numba.set_num_threads(1)
    yield
    numba.set_num_threads(before)


TRAUMAS = list(Catalog.bundled().traumas.values())


@pytest.mark.parametrize("a,b,options", [
    (("brawler", {"attack_spending": "grapple_first"}), ("swordsman", {}), {}),
    (("swordsman", {"attack_spending": "grapple_first"}), ("brute", {}),
     {"ties": "reroll", "ap_refill": "turn_start"}),
    (("swordsman", {"attack_spending": "grapple_first", "tactic": "quick3"}),
     ("brute", {"attack_spending": "intimidate"}), {"grappled_reactions": "allowed", "prayer": "app"}),
    (("wrestler", {}), ("swordsman", {}), {"grab_armour": "kept", "ties": "initiator_wins"}),
])
def test_duels_with_a_grappler_agree_with_the_reference(one_thread, monkeypatch, a, b, options):
    """V-4.5, V-6.10, V-3.12, V-3.13: duel by duel, counter for counter; grabs did happen."""
    fa, fb = fighter(a[0], **a[1]), fighter(b[0], **b[1])
    p = RULESET.prepare(fa, fb, options=options)
    o = p.options.as_dict()
    k = p.compiled.n_counters
    held = []
    grab = nv.Game.grab
    monkeypatch.setattr(nv.Game, "grab", lambda self, *args: held.append(grab(self, *args)) or held[-1])
    for index in range(150):
        got = p.compiled.kernels.duels(*p.compiled.args(), np.uint64(SEED), np.int64(index), np.int64(1), 1, k)[0]
        assert got.tolist() == nv.duel(fa, fb, o, TRAUMAS, SEED, index), f"duel {index}"
    assert sum(held) >= 10


@pytest.mark.parametrize("side_a,side_b,options", [
    ([("brawler", {"attack_spending": "grapple_first"}), ("swordsman", {})], [("brute", {}), ("raider", {})], {}),
    ([("swordsman", {}), ("swordsman", {})], [("brute", {}), ("raider", {}), ("militia", {})],
     {"finish_helpless": "on"}),
    ([("rifleman", {}), ("swordsman", {"attack_spending": "grapple_first"})], [("raider", {}), ("raider", {})],
     {"finish_helpless": "on", "start_distance": "20"}),
])
def test_fights_with_grapple_and_finishing_agree_with_the_reference(one_thread, side_a, side_b, options):
    p = RULESET.prepare_fight([fighter(n, **c) for n, c in side_a], [fighter(n, **c) for n, c in side_b],
                              options=options)
    o = p.options.as_dict()
    k = p.compiled.n_counters
    for index in range(120):
        got = p.compiled.kernels.duels(*p.compiled.args(), np.uint64(SEED), np.int64(index), np.int64(1), 1, k)[0]
        assert got.tolist() == nv.fight(p.a, p.b, o, TRAUMAS, SEED, index), f"fight {index}"
