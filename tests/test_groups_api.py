"""Group fights for users (docs/groups.md): FightResult, frames, the fight command, scenarios, reports.

The first tests read a synthetic counter row with hand-set numbers (exact rates and means); the
end-to-end tests at the bottom play the kernel at small n and check identities that hold fight by
fight.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from brutal_sim import layout as L
from brutal_sim.cli import app
from brutal_sim.errors import DataError
from brutal_sim.fights import FightResult
from brutal_sim.frames import fight_summary_frame, fighters_frame, rounds_frame, survivors_frame, wounds_frame
from brutal_sim.sides import expand_side, fighter_labels, side_name, split_sides

runner = CliRunner()
EXAMPLES = Path(__file__).parent.parent / "examples"
CAP = 10
N = 10


def synthetic() -> FightResult:
    """Knight (a) vs three Militia (b), 10 fights, hand-set counters.

    a wins 6, b wins 3, 1 draw; decided in round 2 (4) and 3 (5). Side a ends with 0 still in 3
    times, 1 still in 7 times; side b with 0/1/2/3 in 6/1/2/1 times (8 militia standing in all).
    """
    c = L.COUNTERS
    cnt = np.zeros(L.n_fight_counters(CAP, 4), dtype=np.int64)
    cnt[c.wins:c.wins + 2] = (6, 3)
    cnt[c.draws] = 1
    cnt[c.cause + L.CAUSE_TRACK_FULL] = 2            # the knight went down: 2 track full, 1 mortal
    cnt[c.cause + L.CAUSE_MORTAL] = 1
    cnt[c.cause + L.NCAUSES + L.CAUSE_FLED] = 4      # the last militia: 4 fled, 2 knocked out
    cnt[c.cause + L.NCAUSES + L.CAUSE_KNOCKED_OUT] = 2
    cnt[c.death:c.death + 2] = (1, 0)
    cnt[c.attack + L.OUT_HIT] = 30                   # the knight's attacks
    cnt[c.attack + L.OUT_PARRIED] = 12
    cnt[c.attack + len(L.OUTCOME_NAMES) + L.OUT_MISS] = 50  # side b's attacks
    cnt[c.wound + c.wound_size + L.LVL_HEAVY * 4 + 1] = 7  # side b took 7 heavy torso blows
    cnt[c.damage:c.damage + 2] = (25, 40)
    cnt[c.one_blow + 1] = 2
    cnt[c.rounds + 2] = 4
    cnt[c.rounds + 3] = 5
    g = L.n_counters(CAP)
    cnt[g + L.G_SURVIVORS:g + L.G_SURVIVORS + 2] = (3, 7)
    cnt[g + L.G_SURVIVORS + L.MAX_SIDE + 1:g + L.G_SURVIVORS + L.MAX_SIDE + 5] = (6, 1, 2, 1)

    def fighter(row, out, dead, standing, dealt, taken):
        at = g + L.G_FIGHTERS + row * L.G_PER_FIGHTER
        for cause, k in out.items():
            cnt[at + L.G_OUT + L.CAUSE_NAMES.index(cause)] = k
        cnt[at + L.G_DEAD], cnt[at + L.G_STANDING], cnt[at + L.G_DEALT], cnt[at + L.G_TAKEN] = dead, standing, dealt, taken

    fighter(0, {"track_full": 2, "mortal": 1}, 1, 7, 40, 25)
    fighter(1, {"track_full": 5, "knocked_out": 3}, 0, 2, 10, 12)
    fighter(2, {"fled": 7}, 0, 3, 5, 8)
    fighter(3, {"mortal": 4, "exhausted": 3}, 2, 3, 10, 20)
    behaviour = tuple({"tactic": "single", "reaction": "best", "targeting": t}
                      for t in ("spread", "weakest", "nearest", "spread"))
    return FightResult((("Knight",), ("Militia",) * 3), N, 3, {"outnumbered": "by_count"}, cnt, 0.5,
                       threads=2, behaviour=behaviour)


# -- FightResult from a synthetic row ---------------------------------------------------------------

def test_fight_result_reads_header_and_group_block():
    r = synthetic()
    assert r.names == ("Knight", "Militia ×3")
    assert r.fighter_labels == ["Knight", "Militia b1", "Militia b2", "Militia b3"]
    assert (r.wins(0), r.wins(1), r.draws) == (6, 3, 1)
    assert list(r.rounds_hist) == [0, 0, 4, 5] + [0] * (CAP - 3)  # ends at the header, not in the block
    assert list(r.survivors(0)) == [3, 7] and list(r.survivors(1)) == [6, 1, 2, 1]
    assert r.fighter_out(3) == {"track_full": 0, "knocked_out": 0, "mortal": 4, "fled": 0, "exhausted": 3}
    assert (r.fighter_deaths(3), r.fighter_standing(2), r.damage_dealt(0), r.fighter_damage_taken(3)) == (2, 3, 40, 20)
    # the identities a real run keeps: each fighter is out or standing; standing = Σ k·survivors
    for row in range(4):
        assert sum(r.fighter_out(row).values()) + r.fighter_standing(row) == N
    assert sum(r.fighter_standing(i) for i in (1, 2, 3)) == 1 * 1 + 2 * 2 + 3 * 1


def test_fight_result_to_dict_exact_numbers():
    d = json.loads(json.dumps(synthetic().to_dict()))  # JSON-safe
    assert d["kind"] == "fight" and d["n"] == N and d["seed"] == 3 and d["threads"] == 2
    assert d["a"]["name"] == "Knight" and d["b"]["fighters"] == ["Militia"] * 3
    assert d["a"]["win_rate"] == 0.6 and d["b"]["win_rate"] == 0.3 and d["draw_rate"] == 0.1
    assert d["a"]["ci95"][0] < 0.6 < d["a"]["ci95"][1]
    assert d["rounds"] == {"mean": pytest.approx((2 * 4 + 3 * 5) / 9), "p50": 3, "p90": 3}
    assert d["a"]["defeat_cause"]["track_full"] == 2 and d["b"]["defeat_cause"]["fled"] == 4
    assert d["defeat_cause"]["mortal"] == 1 and d["a"]["deaths"] == 1
    assert d["one_blow_share"] == pytest.approx(2 / 9)
    assert d["a"]["attacks"]["hit"] == 30 and d["b"]["attacks"]["miss"] == 50
    assert d["b"]["wounds_taken"]["heavy"]["torso"] == 7 and d["b"]["damage_taken"] == 40
    assert d["a"]["survivors"] == [3, 7] and d["b"]["survivors"] == [6, 1, 2, 1]
    assert d["a"]["survivors_mean"] == pytest.approx(0.7) and d["b"]["survivors_mean"] == pytest.approx(0.8)
    assert d["a"]["weapon_breaks"] == 0
    knight, m1, m2, m3 = d["fighters"]
    assert knight == {**knight, "name": "Knight", "label": "Knight", "side": "a", "rank": 0, "out_total": 3,
                      "out_total_rate": 0.3, "deaths": 1, "death_rate": 0.1, "standing": 7, "standing_rate": 0.7,
                      "damage_dealt_mean": 4.0, "damage_taken_mean": 2.5, "targeting": "spread"}
    assert knight["out_rate"]["track_full"] == 0.2 and knight["out_rate"]["mortal"] == 0.1
    assert m2["label"] == "Militia b2" and m2["rank"] == 1 and m2["out_rate"]["fled"] == 0.7
    assert m1["targeting"] == "weakest" and m2["targeting"] == "nearest" and m1["damage_taken_mean"] == 1.2 and m3["death_rate"] == 0.2


def test_fight_result_html_and_frames():
    r = synthetic()
    html = r._repr_html_()
    assert html.startswith("<table>") and "Militia ×3 (b)" in html and "Militia b3" in html and "70.0 %" in html
    frames = r.frames()
    assert set(frames) == {"summary", "fighters", "survivors", "rounds", "wounds"}


def test_fight_frames_exact():
    r = synthetic()
    s = fight_summary_frame([r])
    est = s.set_index(["side", "measure"])["estimate"]
    assert est["a", "win_rate"] == 0.6 and est["b", "win_rate"] == 0.3 and est["", "draw_rate"] == 0.1
    assert est["b", "loss_fled"] == 0.4 and est["a", "survivors_mean"] == pytest.approx(0.7)
    assert est["b", "survivors_mean"] == pytest.approx(0.8)
    assert set(s["matchup"]) == {"Knight vs Militia ×3"}
    f = fighters_frame([r]).set_index(["fighter", "measure"])
    assert f.loc[("Militia b3", "out_mortal"), "estimate"] == 0.4
    assert f.loc[("Militia b3", "death_rate"), "count"] == 2
    assert f.loc[("Knight", "damage_dealt_mean"), "estimate"] == 4.0
    assert np.isnan(f.loc[("Knight", "damage_dealt_mean"), "ci_low"])
    for label in r.fighter_labels:
        assert f.loc[(label, "out_rate"), "estimate"] + f.loc[(label, "standing_rate"), "estimate"] == pytest.approx(1)
    assert f.loc[("Militia b2", "standing_rate"), "rank"] == 1
    sv = survivors_frame([r])
    assert list(sv[sv["side"] == "b"]["share"]) == [0.6, 0.1, 0.2, 0.1]
    assert list(sv[sv["side"] == "a"]["survivors"]) == [0, 1]
    rounds = rounds_frame([r])
    assert list(rounds["count"]) == [0, 4, 5]
    w = wounds_frame([r])
    heavy = w[(w["fighter"] == "Militia ×3") & (w["direction"] == "taken") & (w["level"] == "heavy")
              & (w["zone"] == "torso")]
    assert heavy["count"].item() == 7


def test_fight_figure():
    from brutal_sim import plots

    r = synthetic()
    fig = plots.fight_figure(survivors_frame([r]), fighters_frame([r]))
    assert len(fig.axes) == 2
    labels = [t.get_text() for t in fig.axes[1].get_yticklabels()]
    assert labels == ["Knight", "Militia b1", "Militia b2", "Militia b3"]
    assert plots.figure_to_data_uri(fig).startswith("data:image/png;base64,")


# -- sides and the command line ---------------------------------------------------------------------

def test_sides_parse():
    assert split_sides(["swordsman", "militia", "vs", "brute"]) == (["swordsman", "militia"], ["brute"])
    assert split_sides(["knight", "VS", "militia*3"]) == (["knight"], ["militia"] * 3)
    assert expand_side("goblin*2", "x", "a") == ["goblin", "goblin"]
    assert side_name(["Swordsman", "Militia", "Militia", "Swordsman"]) == "Swordsman + Militia ×2 + Swordsman"
    assert fighter_labels((["Militia"], ["Militia", "Brute"])) == ["Militia a1", "Militia b1", "Brute"]


@pytest.mark.parametrize("words, message", [
    (["knight", "militia"], "no 'vs'"),
    (["knight", "vs", "militia", "vs", "brute"], "2 'vs'"),
    (["vs", "militia"], "side a: the side is empty"),
    (["knight", "vs"], "side b: the side is empty"),
    (["knight", "vs", "militia*4", "brute*3"], "side b: 7 fighters on one side; allowed 1 … 6"),
    (["knight", "vs", "militia*0"], "repeat count after '*' must be a whole number 1 … 6, got '0'"),
    (["knight", "vs", "militia*two"], "got 'two'"),
    (["knight", "vs", "*3"], "repeats no fighter"),
])
def test_fight_command_bad_sides_exit_2(words, message):
    r = runner.invoke(app, ["fight", *words, "-n", "10"])
    assert r.exit_code == 2, r.output
    assert message in r.stderr and "Traceback" not in r.output
    assert len(r.stderr.strip().splitlines()) == 1


def test_fight_command_bad_numbers_exit_2():
    for extra, message in ((["-n", "0"], "number of fights"), (["--seed", "-1"], "--seed"),
                           (["--option", "outnumbered=often"], "allowed: by_count, one_side, none")):
        r = runner.invoke(app, ["fight", "knight", "vs", "militia", *extra])
        assert r.exit_code == 2 and message in r.stderr, r.output
