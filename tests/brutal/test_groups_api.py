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

from brutal_sim.cli import app
from brutal_sim.core.errors import DataError
from brutal_sim.core.sides import expand_side, split_sides
from brutal_sim.results.fight import FightResult, fighter_labels, side_name
from brutal_sim.results.frames import (
    decided_by_frame,
    fight_summary_frame,
    fighters_frame,
    rounds_frame,
    survivors_frame,
    wounds_at_least_frame,
    wounds_frame,
)
from brutal_sim.rulesets.brutal import layout as L

runner = CliRunner()
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
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
    cnt[c.rounds_a(CAP) + 2] = 4                     # side a won 4 in round 2, 2 in round 3
    cnt[c.rounds_a(CAP) + 3] = 2
    b_heavy = c.loser_wounds_at(1, L.LVL_HEAVY, 0)
    cnt[b_heavy:b_heavy + 3] = (1, 2, 3)             # side b's 6 losses: 0, 1, 2 heavy blows taken
    g = L.n_counters(CAP)
    cnt[g + L.GB_SURVIVORS:g + L.GB_SURVIVORS + 2] = (3, 7)
    cnt[g + L.GB_SURVIVORS + L.MAX_SIDE + 1:g + L.GB_SURVIVORS + L.MAX_SIDE + 5] = (6, 1, 2, 1)

    def fighter(row, out, dead, standing, dealt, taken):
        at = g + L.GB_FIGHTERS + row * L.GB_PER_FIGHTER
        for cause, k in out.items():
            cnt[at + L.GB_OUT + L.CAUSE_NAMES.index(cause)] = k
        (cnt[at + L.GB_DEAD], cnt[at + L.GB_STANDING],
         cnt[at + L.GB_DEALT], cnt[at + L.GB_TAKEN]) = dead, standing, dealt, taken

    fighter(0, {"track_full": 2, "mortal": 1}, 1, 7, 40, 25)
    fighter(1, {"track_full": 5, "knocked_out": 3}, 0, 2, 10, 12)
    fighter(2, {"fled": 7}, 0, 3, 5, 8)
    fighter(3, {"mortal": 4, "exhausted": 3}, 2, 3, 10, 20)
    behaviour = tuple({"tactic": "single", "reaction": "best", "targeting": t}
                      for t in ("spread", "weakest", "nearest", "spread"))
    return FightResult((("Knight",), ("Militia",) * 3), N, 3, {"outnumbered": "by_count"}, cnt, 0.5,
                       threads=2, behaviour=behaviour, layout=L.COUNTERS, ruleset="brutal")


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
    assert (m1["targeting"] == "weakest" and m2["targeting"] == "nearest"
            and m1["damage_taken_mean"] == 1.2 and m3["death_rate"] == 0.2)


def test_fight_result_html_and_frames():
    r = synthetic()
    html = r._repr_html_()
    assert html.startswith("<table>") and "Militia ×3 (b)" in html and "Militia b3" in html and "70.0 %" in html
    frames = r.frames()
    assert set(frames) == {"summary", "fighters", "survivors", "rounds", "wounds", "decided_by", "wounds_at_least"}


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
    by = decided_by_frame([r]).set_index(["side", "round"])
    assert list(by.loc["a", "count"]) == [0, 4, 6] and list(by.loc["b", "count"]) == [0, 0, 3]
    assert list(by.loc["", "p_decided_by"]) == [0.0, 0.4, 0.9]  # 4 of 10 fights decided by round 2, 9 by 3
    assert by.loc[("a", 3), "p_decided_by"] == 0.6 and by.loc[("b", 3), "p_decided_by"] == 0.3  # the win rates
    least = wounds_at_least_frame([r]).set_index(["side", "level", "k"])
    assert least.loc[("b", "heavy", 0), "n"] == 6 and least.loc[("b", "heavy", 0), "p"] == 1.0
    assert least.loc[("b", "heavy", 1), "p"] == 5 / 6 and least.loc[("b", "heavy", 2), "p"] == 0.5
    assert least.loc[("b", "heavy", 3), "p"] == 0.0 and least.loc[("b", "heavy", 1), "fighter"] == "Militia ×3"


def test_fight_figure():
    from brutal_sim.results import plots

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
                           (["--option", "outnumbered=often"], "allowed: by_count, one_side, none"),
                           (["--targeting-b", "foo"], "--targeting-b: unknown targeting 'foo'; allowed: spread, "
                                                       "weakest, nearest")):
        r = runner.invoke(app, ["fight", "knight", "vs", "militia", *extra])
        assert r.exit_code == 2 and message in r.stderr, r.output


# -- scenarios ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("body, where, message", [
    ('[[fights]]\na = ["knight"]\n', "fights[0].b", "Field required"),
    ('[[fights]]\na = ["knight"]\nb = ["militia"]\nc = ["brute"]\n', "fights[0].c", ""),
    ('[[fights]]\na = ["knight"]\nb = ["militia*7"]\n', "fights[0].b", "whole number 1 … 6, got '7'"),
    ('[[fights]]\na = ["knight"]\nb = ["militia*4", "brute*3"]\n', "fights[0].b", "7 fighters on one side"),
    ('[[fights]]\na = []\nb = ["militia"]\n', "fights[0].a", "the side is empty"),
    ('[[fights]]\na = ["knight"]\nb = ["militia"]\n[[fights]]\na = ["knight"]\nb = ["militia*x"]\n',
     "fights[1].b", "got 'x'"),
    ('ruleset = "duels_only"\n[[fights]]\na = ["swordsman"]\nb = ["brute"]\n',
     "fights", "the duels_only ruleset plays no group fights (several fighters a side); rulesets that do: brutal, "
     "wfrp2e, vereteno"),
    ('rulesets = ["brutal", "duels_only"]\n'
     '[[fights]]\na = ["knight"]\nb = ["militia"]\n',
     "fights", "the duels_only ruleset plays no group fights"),
])
def test_scenario_fight_errors_name_the_key(tmp_path, body, where, message):
    """A scenario's ``[[fights]]`` under a ruleset that plays duels only (a plug-in: every bundled
    ruleset plays group fights) is refused, naming the key."""
    from duels_only_ruleset import duels_only

    from brutal_sim.scenario import load_scenario

    f = tmp_path / "s.toml"
    f.write_text(body)
    with duels_only(), pytest.raises(DataError) as exc:
        load_scenario(str(f))
    assert str(exc.value).startswith(f"{f}: {where}") and message in str(exc.value)


def test_scenario_of_fights_only_is_not_empty(tmp_path):
    from brutal_sim.scenario import load_scenario

    f = tmp_path / "s.toml"
    f.write_text("n = 10\n")
    with pytest.raises(DataError, match=r"nothing to run: .*\[\[fights\]\]"):
        load_scenario(str(f))


# -- end to end: the group-fight kernel ------------------------------------------------------------

def check_identities(r: FightResult) -> None:
    """What holds fight by fight, so exactly in the sums (docs/groups.md)."""
    n = r.n
    assert r.wins(0) + r.wins(1) + r.draws == n
    for side in (0, 1):
        assert r.survivors(side).sum() == n
        rows = [i for i, (_, key, _) in enumerate(r.fighters) if key == "ab"[side]]
        standing = sum(r.fighter_standing(i) for i in rows)
        assert standing == int((np.arange(len(rows) + 1) * r.survivors(side)).sum())
        assert sum(r.fighter_damage_taken(i) for i in rows) == r.damage_taken(side)
        other = [i for i in range(r.n_fighters) if i not in rows]
        assert sum(r.damage_dealt(i) for i in other) == r.damage_taken(side)
    assert r.survivors(0)[0] == r.wins(1)  # side a all out ⇔ side b won (side a is checked first)
    assert r.survivors(1)[0] >= r.wins(0)
    for i in range(r.n_fighters):
        out = r.fighter_out(i)
        assert sum(out.values()) + r.fighter_standing(i) == n
        assert r.fighter_deaths(i) <= out["mortal"] + out["exhausted"]
    # the loser's last fighter went out in every decided fight, with the header's cause
    for side in (0, 1):
        rows = [i for i, (_, key, _) in enumerate(r.fighters) if key == "ab"[side]]
        for cause, k in r.defeats(side).items():
            assert k <= sum(r.fighter_out(i)[cause] for i in rows)
        assert sum(r.defeats(side).values()) == r.wins(1 - side)


def test_api_fight_knight_against_three_militia():
    from brutal_sim import api

    r = api.fight(["knight"], ["militia*3"], n=4000, seed=5)
    check_identities(r)
    assert r.names == ("Knight", "Militia spearman ×3") and r.n_fighters == 4
    assert r.fighter_labels == ["Knight", "Militia spearman b1", "Militia spearman b2", "Militia spearman b3"]
    d = r.to_dict()
    assert set(d) >= {"kind", "ruleset", "n", "seed", "options", "a", "b", "draws", "draw_rate", "draw_ci95", "rounds",
                      "defeat_cause", "one_blow_share", "fighters", "elapsed_s", "threads"}
    assert set(d["a"]) >= {"name", "fighters", "wins", "win_rate", "ci95", "defeat_cause", "deaths", "attacks",
                           "wounds_taken", "damage_taken", "weapon_breaks", "survivors", "survivors_mean"}
    assert d["options"]["outnumbered"] == "by_count" and d["options"]["attack_limit"] == "open"
    assert [f["targeting"] for f in d["fighters"]] == ["spread"] * 4
    assert len(d["b"]["survivors"]) == 4 and len(d["a"]["survivors"]) == 2
    # the knight attacks; the militia attack him: both sides' attacks are counted
    assert sum(d["a"]["attacks"].values()) > 0 and sum(d["b"]["attacks"].values()) > sum(d["a"]["attacks"].values())
    # same numbers on any number of threads, and with the targeting override only the policy changes
    again = api.fight(["knight"], ["militia", "militia", "militia"], n=4000, seed=5, threads=1)
    assert np.array_equal(again.counters, r.counters)
    weakest = api.fight("knight", "militia*3", n=4000, seed=5, targeting_b="weakest")
    assert [f["targeting"] for f in weakest.to_dict()["fighters"]] == ["spread"] + ["weakest"] * 3
    check_identities(weakest)


def test_one_against_one_is_the_duel():
    """docs/groups.md: with one fighter a side every rule reduces to the duel's, with the same dice."""
    from brutal_sim import api

    fight = api.fight(["swordsman"], ["brute"], n=3000, seed=7)
    duel = api.duel("swordsman", "brute", n=3000, seed=7)
    assert np.array_equal(fight.counters[:fight.header_end], duel.counters)
    check_identities(fight)
    assert fight.fighter_standing(0) == fight.survivors(0)[1] == duel.wins(0) + duel.draws


def test_fight_options_reach_the_kernel():
    """B-4.7: with attack_limit = corridor only one militia at a time engages the knight, and no
    outnumbered penalty can apply; both help him against three."""
    from brutal_sim import api

    n = 4000
    base = api.fight(["knight"], ["militia*3"], n=n, seed=9)
    corridor = api.fight(["knight"], ["militia*3"], n=n, seed=9, options={"attack_limit": "corridor"})
    check_identities(corridor)
    p0, p1 = base.wins(0) / n, corridor.wins(0) / n
    se = np.sqrt((p0 * (1 - p0) + p1 * (1 - p1)) / n)
    assert p1 - p0 > 4 * se, (p0, p1)


def test_fight_command_end_to_end(tmp_path):
    r = runner.invoke(app, ["fight", "knight", "vs", "militia*3", "-n", "2000", "--seed", "3", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["kind"] == "fight" and d["n"] == 2000 and d["b"]["fighters"] == ["Militia spearman"] * 3
    assert d["a"]["wins"] + d["b"]["wins"] + d["draws"] == 2000
    r = runner.invoke(app, ["fight", "swordsman", "militia", "vs", "brute", "-n", "2000", "--option",
                            "outnumbered=none"])
    assert r.exit_code == 0, r.output
    for text in ("Swordsman + Militia spearman (a)", "Brute (b)", "win rate", "Rounds to decision",
                 "Still in at the end", "Fighters", "standing", "outnumbered=none", "changed from the defaults"):
        assert text in r.stdout, text
    grappler = tmp_path / "grappler.toml"
    grappler.write_text('name = "Grappler"\ntactic = "grapple"\n')
    for words, message in (
            (["knight", "vs", "knigt"], "knigt"),
            (["knight", "vs", str(grappler)], "grapple"),
            (["knight", "vs", "militia", "--option", "start_distance=5"], "start_distance"),
            (["knight", "vs", "militia", "--targeting-b", "closest"], "allowed: spread, weakest, nearest"),
            (["knight", "vs", "militia", "--option", "outnumbered=often"], "allowed: by_count, one_side, none")):
        r = runner.invoke(app, ["fight", *words, "-n", "10"])
        assert r.exit_code == 2 and message in r.stderr, (words, r.output)
        assert "Traceback" not in r.output and len(r.stderr.strip().splitlines()) == 1


def test_report_with_group_fights(tmp_path):
    from brutal_sim.scenario import load_scenario

    sc = load_scenario(str(EXAMPLES / "group_fights.toml"))
    assert len(sc.cells) == 1 and len(sc.fights) == 7
    assert [fc.changed for fc in sc.fights[:4]] == ["", "outnumbered=one_side", "outnumbered=none",
                                                    "attack_limit=corridor"]
    assert [f.targeting for f in sc.fights[5].prepared.a] == ["weakest", "weakest"]
    assert sc.fights[5].changed == "targeting_a=weakest"
    f = tmp_path / "s.toml"
    f.write_text('title = "Fights"\nn = 1500\nseed = 2\nmatchups = [["knight", "militia"]]\n'
                 '[[fights]]\na = ["knight"]\nb = ["militia*3"]\n'
                 '[[fights]]\nlabel = "Two pairs"\na = ["swordsman", "militia"]\nb = ["brute", "militia"]\n'
                 'options = { outnumbered = "none" }\n')
    out, csv = tmp_path / "r.html", tmp_path / "csv"
    r = runner.invoke(app, ["report", str(f), "-o", str(out), "--csv", str(csv)])
    assert r.exit_code == 0, r.output
    html = out.read_text()
    assert ('<h2 id="fights-section">Group fights</h2>' in html
            and 'id="fights"' in html and 'id="fight-fighters"' in html)
    assert "Two pairs" in html and "outnumbered=none" in html and "Knight vs Militia spearman ×3" in html
    assert 'aria-label="Group fights"' in html and '<table id="summary"' in html
    assert html.index('id="fights-section"') < html.index('id="summary-section"')  # the findings rest on the fights
    assert not re.findall(r'(?:src|href)="(?!data:|#)', html)  # self-contained (links within the page only)
    for name in ("fight_summary", "fighters", "survivors", "summary"):
        assert (csv / f"{name}.csv").is_file()
    import pandas as pd

    fighters = pd.read_csv(csv / "fighters.csv", keep_default_na=False)
    assert set(fighters["matchup"]) == {"Knight vs Militia spearman ×3", "Two pairs"}
    assert set(fighters[fighters["matchup"] == "Two pairs"]["value"]) == {"outnumbered=none"}
    f.write_text('n = 10\n[[fights]]\na = ["knight"]\nb = ["militia*3"]\n[[fights]]\na = ["knight"]\n'
                 'b = ["militia", "militia*2"]\n')
    with pytest.raises(DataError, match=r"fights\[1\]: the same fight as fights\[0\]"):
        load_scenario(str(f))
    # a scenario of fights only
    f.write_text('n = 500\n[[fights]]\na = ["knight"]\nb = ["militia*2"]\n')
    r = runner.invoke(app, ["report", str(f), "-o", str(out)])
    assert r.exit_code == 0, r.output
    html = out.read_text()
    assert '<h2 id="fights-section">Group fights</h2>' in html and '<table id="summary"' not in html


def test_scenario_fights_replayed_together_match_separate_runs(tmp_path):
    """Fights of the same sides are played on common random numbers: each one's counters are those
    of a separate run, and each one's paired difference against the baseline — the fight without
    options of its own, here listed second — is in scenario.differences, never against the fight
    listed before it."""
    from brutal_sim import api
    from brutal_sim.scenario import load_scenario, run_scenario

    f = tmp_path / "s.toml"
    f.write_text('n = 1500\nseed = 4\n'
                 '[[fights]]\na = ["knight"]\nb = ["militia*3"]\noptions = { outnumbered = "none" }\n'
                 '[[fights]]\na = ["knight"]\nb = ["militia*3"]\n'
                 '[[fights]]\na = ["knight"]\nb = ["militia*3"]\noptions = { attack_limit = "corridor" }\n')
    sc = load_scenario(str(f))
    assert run_scenario(sc) == []
    alone = api.fight(["knight"], ["militia*3"], n=1500, seed=4, options={"outnumbered": "none"})
    assert np.array_equal(sc.fight_results[0].counters, alone.counters)
    base = api.fight(["knight"], ["militia*3"], n=1500, seed=4)
    assert np.array_equal(sc.fight_results[1].counters, base.counters)  # the baseline, played twice, once kept
    d = sc.differences
    rows = d[(d["side"] == "a") & (d["measure"] == "win_rate")]
    assert [(r["from"], r["to"], r["fighter"]) for _, r in rows.iterrows()] == [
        ("", "outnumbered=none", "Knight"), ("", "attack_limit=corridor", "Knight")]
    none, r0, corridor = sc.fight_results
    for (_, row), r1 in zip(rows.iterrows(), (none, corridor)):
        assert row["difference"] == pytest.approx((r1.wins(0) - r0.wins(0)) / 1500, abs=1e-15)
        assert row["ci_low"] <= row["difference"] <= row["ci_high"]
