"""WFRP 2e ``attack`` for a shooter: the first shot of the tactic's first turn (W-8.9 – W-8.11), fired
where that turn's moves took it, after its reload, aimed or not as the turn fires it; held where the
turn fires it (the kernel's ``first_shot``), so the measure follows the turn itself. By hand, exact
against sampled, the header, ``--shot aimed|unaimed`` and the refusals.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner
from wfrp2e_util import within

from brutal_sim import api
from brutal_sim.cli import app
from brutal_sim.core.errors import DataError
from brutal_sim.rulesets.wfrp2e import RULESET, layout as L
from brutal_sim.rulesets.wfrp2e.exact import first_turn_shot

KITER = RULESET.catalog().fighter("kithband").model_copy(update={"tactic": "kite"})


def attack(a, b="orc", shot=None, n=None, **options):
    return api.attack(a, b, ruleset="wfrp2e", options={k: str(v) for k, v in options.items()}, shot=shot, n=n,
                      seed=5, threads=1)


def test_w8_11_a_kiter_within_the_charge_reach_moves_away_and_shoots_unaimed():
    """W-8.11 (2), W-11.2: the orc charges 4 × M = 16 yards, the kithband moves 2 × M = 10; at 12
    yards d ≤ 16 < d + 10, so its first turn moves away (to 22 yards) and shoots unaimed with the half
    action left: BS 42 at short range (≤ 30), 42 % — not the aimed 52 % of a shot from where it
    stood."""
    S, slot, band, aim, drew = first_turn_shot(*RULESET.prepare(KITER, "orc", options={"start_distance": "12"})
                                               .compiled.args())
    assert (slot, band, aim, drew) == (L.SLOT_MISSILE, L.BAND_SHORT, 0, False)
    assert abs(int(S[0, L.S_X]) - int(S[1, L.S_X])) == 22
    r = attack(KITER, start_distance=12)
    d = r.to_dict()
    assert d["p_hit"] == pytest.approx(0.42, abs=1e-12) and d["p_miss"] == pytest.approx(0.58, abs=1e-12)
    assert (r.shot, r.distance, r.measured) == (
        "unaimed", 22, "unaimed shot with its longbow from 22 yards (short range), after moving from 12 yards")
    # W-8.11 (1): beyond the charge reach the kiter shoots as a marksman: aimed, +10
    assert attack(KITER, start_distance=20).to_dict()["p_hit"] == pytest.approx(0.52, abs=1e-12)


def test_w7_10_w8_9_a_reload_first_then_an_unaimed_shot():
    """W-7.10, W-8.9: with ``start_loaded = false`` the kithband's longbow (reload a half action) is
    loaded with its first half action and shot unaimed with the second: 42 % at 30 yards (aimed from
    a loaded start: 52 %); with ``aim = next_action`` (W-7.3) the second half aims for the next turn,
    so the first turn fires no shot and the measure refuses it."""
    assert attack("kithband", start_distance=30).to_dict()["p_hit"] == pytest.approx(0.52, abs=1e-12)
    r = attack("kithband", start_distance=30, start_loaded="false")
    assert r.to_dict()["p_hit"] == pytest.approx(0.42, abs=1e-12)
    assert r.measured == "unaimed shot with its longbow from 30 yards (short range), after reloading"
    with pytest.raises(DataError, match="fires no shot in its first turn from 30 yards"):
        attack("kithband", start_distance=30, start_loaded="false", aim="next_action")


def test_w8_9_out_of_range_a_move_to_long_range_then_an_unaimed_shot():
    """W-8.9, W-7.4: from 65 yards (beyond the longbow's long range 60, ``extreme = off``) the kithband
    moves to 60 yards and shoots unaimed at long range: BS 42 − 20 = 22 %."""
    r = attack("kithband", start_distance=65, extreme="off")
    assert r.to_dict()["p_hit"] == pytest.approx(0.22, abs=1e-12) and (r.shot, r.distance) == ("unaimed", 60)


@pytest.mark.parametrize("a, options", [(KITER, {"start_distance": 12}),
                                        ("kithband", {"start_distance": 30, "start_loaded": "false"})])
def test_w8_exact_first_shots_agree_with_sampled_ones(a, options):
    """The exact first shot of the first turn within 4σ of 20,000 sampled single attacks."""
    n = 20_000
    e = attack(a, **options).to_dict()
    s = attack(a, n=n, **options).to_dict()
    for key in ("p_miss", "p_hit"):
        assert within(e[key], s[key], n), key


@pytest.mark.parametrize("options, needle", [
    ({"start_distance": 30, "surprise": "a"}, "side a is surprised in round 1 (W-2.6)"),
    ({"start_distance": 100, "extreme": "off"}, "fires no shot in its first turn from 100 yards"),
])
def test_w2_6_w8_9_a_first_turn_without_a_shot_is_refused(options, needle):
    """W-2.6: a surprised side a has no turn in round 1; W-8.9: two moves leave the kithband out of
    range: no first shot, refused in one line."""
    with pytest.raises(DataError, match=needle.replace("(", r"\(").replace(")", r"\)")):
        attack("kithband", **options)


def test_w8_14_an_overwatch_shooter_delays_and_is_refused():
    """W-8.14, W-11.6: ``overwatch`` keeps a half action for its foe's approach and fires no shot of
    its own in its first turn."""
    watcher = RULESET.catalog().fighter("kithband").model_copy(update={"tactic": "overwatch"})
    with pytest.raises(DataError, match="tactic 'overwatch' fires no shot in its first turn"):
        attack(watcher, start_distance=40)


def test_shot_aimed_or_unaimed_fires_the_first_turns_shot_so():
    """``--shot``: the kiter's first shot (after its move, 22 yards) aimed, +10: 52 %; the kithband's
    aimed shot at 30 yards unaimed: 42 %; a melee fighter has no shot to change; unknown kinds are one
    line naming ``--shot``, exit 2."""
    r = attack(KITER, shot="aimed", start_distance=12)
    assert r.to_dict()["p_hit"] == pytest.approx(0.52, abs=1e-12)
    assert r.measured == "aimed shot (+10) with its longbow from 22 yards (short range), after moving from 12 yards"
    assert attack("kithband", shot="unaimed", start_distance=30).to_dict()["p_hit"] == pytest.approx(0.42, abs=1e-12)
    with pytest.raises(DataError, match="^shot: 'aimed': side a \\(Orc\\) has no missile weapon"):
        attack("orc", "goblin", shot="aimed")
    r = CliRunner().invoke(app, ["attack", "kithband", "orc", "--ruleset", "wfrp2e", "--shot", "volley"])
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1
    assert "--shot: unknown shot kind 'volley'; allowed: unaimed, aimed" in r.output


def test_the_header_names_the_shot_and_its_distance():
    r = CliRunner().invoke(app, ["attack", "kithband", "orc", "--ruleset", "wfrp2e", "--option", "start_distance=40"])
    assert r.exit_code == 0, r.output
    assert "aimed shot (+10) with its longbow from 40 yards (long range); exact enumeration" in r.stdout
    r = CliRunner().invoke(app, ["attack", "orc", "goblin", "--ruleset", "wfrp2e", "--json"])
    d = json.loads(r.stdout)
    assert (d["shot"], d["distance"], d["measured"]) == (None, None, "")
