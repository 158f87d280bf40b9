"""Key findings (results/findings.py): hand-computed crossings, balances, baselines and the diff's
noise count; and the box that opens a report and a diff page."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pandas as pd
from typer.testing import CliRunner

from brutal_sim.cli import app
from brutal_sim.results.findings import (
    DRAW_SHARE,
    NEAR,
    diff_findings,
    fight_findings,
    holm_kept,
    lethality_findings,
    round_robin_findings,
    sweep_findings,
    variant_findings,
    weight_findings,
)


@dataclass
class Cell:
    """What the findings read of a DuelResult: names, n, wins, labels, the Wilson interval."""

    names: tuple[str, str]
    a_rate: float
    labels: dict[str, str] = field(default_factory=dict)
    n: int = 10_000
    band: float = 0.02
    draws: int = 0
    options: dict[str, str] = field(default_factory=dict)
    ruleset: str = ""

    def wins(self, side: int) -> int:
        a = round(self.n * self.a_rate)
        return a if side == 0 else self.n - self.draws - a

    def to_dict(self) -> dict:
        return {"n": self.n, "a": {"win_rate": self.a_rate, "ci95": [self.a_rate - self.band, self.a_rate + self.band]},
                "b": {"win_rate": self.wins(1) / self.n}, "draws": self.draws}


def _sweep(values, rates, variant=""):
    return [Cell(("Brute", "Swordsman"), r, {"sweep": "axe", "value": v, "variant": variant, "matchup": "m"})
            for v, r in zip(values, rates)]


def test_a_sweep_crossing_is_read_in_printable_values():
    # 0.45 → 0.65 between d8 and d10: no die between them can be printed, so the two played on each
    # side with their win rates, the nearer (d8, 5 points off) named; its band 0.43–0.47 misses 50 %;
    # step (0.65 − 0.30) / 2
    [text] = sweep_findings(_sweep(["d6", "d8", "d10"], [0.30, 0.45, 0.65]))
    assert text == ("axe: Brute against Swordsman: even (50.0 %) lies between d8 (45.0 %) and d10 (65.0 %); of the "
                    "values played, d8 is nearest; a step of the sweep changes it by +17.5 points on average.")
    [text] = sweep_findings(_sweep(["d6", "d8", "d10"], [0.30, 0.49, 0.65]))
    assert "of the values played, d8 is nearest, even within the noise;" in text  # 0.47–0.51 holds 50 %
    # numbers are interpolated as numbers: 0.48 → 0.56 from 4 to 5 crosses at 4 + 0.02 / 0.08 = 4.25
    [text] = sweep_findings(_sweep(["3", "4", "5"], [0.40, 0.48, 0.56]))
    assert "even (50.0 %) at about 4.25 (95 % interval 4 – 4.5)" in text
    [text] = sweep_findings(_sweep(["d6", "d8"], [0.10, 0.20]))
    assert text.startswith("axe: Brute against Swordsman stays below 50.0 % from d6 (10.0 %) to d8 (20.0 %); "
                           "nearest at d8 (20.0 %)")
    # under several variants: the first in full, the others counted in one sentence
    two = sweep_findings([*_sweep(["d6", "d8"], [0.4, 0.6], "x (default)"), *_sweep(["d6", "d8"], [0.4, 0.6], "y")])
    assert [t.split(":")[0] for t in two] == ["axe [x (default)]", "axe"]
    assert two[1] == "axe: Brute against Swordsman under the other variant: even between d6 and d8 in 1."
    many = [*_sweep(["d6", "d8", "d10"], [0.3, 0.45, 0.65], "base")]
    for k, rates in enumerate([[0.3, 0.45, 0.65], [0.35, 0.55, 0.7], [0.3, 0.45, 0.6], [0.6, 0.7, 0.8]]):
        many += _sweep(["d6", "d8", "d10"], rates, f"v{k}")
    assert sweep_findings(many)[1] == ("axe: Brute against Swordsman under the other 4 variants: even between d8 and "
                                       "d10 in 2; even between d6 and d8 in 1; above 50.0 % throughout in 1.")


def test_a_round_robin_names_its_most_and_least_balanced_pairs():
    cells = [Cell(("A", "B"), 0.55, {"matchup": "A vs B"}), Cell(("A", "C"), 0.90, {"matchup": "A vs C"}),
             Cell(("B", "C"), 0.30, {"matchup": "B vs C"})]
    assert round_robin_findings(cells) == [
        "Most balanced of 3 matchups: A vs B (55.0 % : 45.0 %); least balanced: A vs C (90.0 % : 10.0 %)."]
    assert round_robin_findings(cells[:2]) == []


def test_variants_are_read_against_the_first_with_paired_intervals_where_known():
    cells = [Cell(("A", "B"), 0.50, {"matchup": "A vs B", "variant": "base"}),
             Cell(("A", "B"), 0.53, {"matchup": "A vs B", "variant": "new"})]
    # independent: 1.96 · sqrt(0.25 / 10⁴ + 0.53 · 0.47 / 10⁴) = 1.96 · 0.0070569 = 0.0138
    [text] = variant_findings(cells)
    assert text == "new against base: side a's win rate A vs B +3.0 points (±1.4) (95 % intervals)."
    paired = pd.DataFrame([{"sweep": "", "side": "a", "matchup": "A vs B", "from": "base", "to": "new",
                            "ci_low": 0.025, "ci_high": 0.035}])
    [text] = variant_findings(cells, paired)
    assert "+3.0 points (±0.5)" in text


def test_fights_are_compared_with_their_baseline():
    @dataclass
    class Fight:
        rate: float
        labels: dict
        sides: tuple = (("Knight",), ("Militia", "Militia"))

        def to_dict(self):
            return {"n": 10_000, "a": {"win_rate": self.rate}, "b": {"win_rate": 1 - self.rate}}

    texts = fight_findings([Fight(0.6, {"matchup": "K vs M", "value": ""}),
                            Fight(0.7, {"matchup": "K vs M", "value": "outnumbered=none"})])
    # ±1.96 · sqrt((0.7 · 0.3 + 0.6 · 0.4) / 10⁴) = ±0.0131
    assert texts == ["K vs M: side a wins 60.0 %, side b 40.0 %.",
                     "K vs M with outnumbered=none: side a's win rate +10.0 points (±1.3) against the same sides "
                     "without them."]
    # the baseline is the fight without options of its own wherever it is listed, never the one before;
    # the paired interval of the scenario's differences where they hold the pair
    fights = [Fight(0.7, {"matchup": "K vs M", "variant": "", "value": "outnumbered=none"}),
              Fight(0.6, {"matchup": "K vs M", "variant": "", "value": ""}),
              Fight(0.65, {"matchup": "K vs M", "variant": "", "value": "attack_limit=corridor"}),
              Fight(0.2, {"matchup": "other sides", "variant": "", "value": "outnumbered=none"}, (("A",), ("B",)))]
    differences = pd.DataFrame({"matchup": ["K vs M"], "variant": [""], "sweep": [""], "side": ["a"],
                                "from": [""], "to": ["attack_limit=corridor"], "ci_low": [0.046], "ci_high": [0.054]})
    assert fight_findings(fights, differences) == [
        "K vs M with outnumbered=none: side a's win rate +10.0 points (±1.3) against the same sides without them.",
        "K vs M: side a wins 60.0 %, side b 40.0 %.",
        "K vs M with attack_limit=corridor: side a's win rate +5.0 points (±0.4) against the same sides without them.",
        "other sides: side a wins 20.0 %, side b 80.0 %."]


def test_holm_and_the_diff_count():
    assert holm_kept([0.01, 0.02, 0.03, 0.5]) == 1  # 0.01 ≤ 0.05/4; 0.02 > 0.05/3
    assert holm_kept([0.001, 0.01, 0.02]) == 3  # ≤ 0.05/3, ≤ 0.05/2, ≤ 0.05
    rows = pd.DataFrame({"a": ["A", "B", "C"], "b": ["X", "Y", "Z"], "delta": [0.10, 0.012, 0.0],
                         "ci_low": [0.08, 0.001, -0.01], "ci_high": [0.12, 0.023, 0.01],
                         "excludes_zero": [True, True, False]})
    first, largest = diff_findings(rows)
    # 0.05 · 3 = 0.15 (shown 0.2); z = 0.10 / (0.04 / 3.92) = 9.8 (p ≈ 0);
    # z = 0.012 / (0.022 / 3.92) = 2.14 (p = 0.032 > 0.05 / 2)
    assert first == ("2 of 3 matchups changed beyond noise (95 % intervals that exclude no change); chance alone would "
                     "flag about 0.2 of 3; 1 stay flagged after Holm's correction for 3 comparisons.")
    assert largest == "Largest change: A vs X, +10.00 points (+8.00 … +12.00)."


def test_a_report_opens_with_its_key_findings(tmp_path):
    scenario = tmp_path / "s.toml"
    scenario.write_text('title = "axe"\nn = 4000\nmatchups = [["brute", "swordsman"]]\n'
                        '[[sweeps]]\nname = "axe"\nfighter = "brute"\nfield = "main_hand.damage"\n'
                        'values = ["d6", "d8", "d10", "d12"]\nopponents = ["swordsman"]\n')
    out = tmp_path / "r.html"
    r = CliRunner().invoke(app, ["report", str(scenario), "-o", str(out)])
    assert r.exit_code == 0, r.output
    html = out.read_text()
    said = " ".join(r.stdout.split())  # the first key finding on the terminal too
    assert re.search(r"key finding: axe: Brute against Swordsman: even \(50\.0 %\) lies between", said)
    box = html.index('<section class="findings" id="key-findings">')
    assert box < html.index('<h2 id="summary-section">Summary</h2>')
    assert re.search(r"axe: Brute against Swordsman: even \(50\.0 %\) lies between d\d+ \(\d+\.\d %\) and d\d+ "
                     r"\(\d+\.\d %\); of the values played, d\d+ is nearest", html)
    assert '<details class="defaults"><summary>' in html  # the options at their defaults, folded


def test_notes_reflow_into_paragraphs_and_keep_list_items():
    from brutal_sim.report import paragraphs

    text = "The axe goes from d6\nto d12.\n\n  Two readings:\n- marker\n- protection only\n2) last\n\n\n"
    assert paragraphs(text) == ["The axe goes from d6 to d12.", "Two readings:\n- marker\n- protection only\n2) last"]


def test_sections_follow_the_findings_then_a_fixed_order():
    from brutal_sim.report import section_order

    every = ["sweeps", "weights", "fights", "summary", "differences", "plots"]
    # no finding: the fixed order (stat weights, fights, summary, differences, plots)
    assert section_order(["summary", "plots", "weights"], []) == ["weights", "summary", "plots"]
    # a round robin's finding rests on its matrix (among the plots), the variants' on the paired differences
    assert section_order(every, ["round_robin", "variants"]) == ["plots", "differences", "sweeps", "weights",
                                                                 "fights", "summary"]
    assert section_order(every, ["sweep", "fights"]) == ["sweeps", "fights", "weights", "summary", "differences",
                                                         "plots"]
    # variants played apart (no paired differences): their finding rests on the summary table
    assert section_order(["summary", "plots"], ["variants"]) == ["summary", "plots"]
    assert section_order(["summary", "plots"], ["round_robin", "variants"]) == ["plots", "summary"]


def test_a_sweep_of_names_gives_its_extremes_not_a_crossing():
    # tactics have no order: no point "between" two of them
    [text] = sweep_findings(_sweep(["aimed", "std_shot", "hip_spam"], [0.10, 0.51, 0.70]))
    assert text == ("axe: Brute against Swordsman: lowest with aimed (10.0 %), highest with hip_spam (70.0 %); "
                    "nearest 50.0 % with std_shot (51.0 %).")
    # bands of ±0.02 around 0.30 and 0.33 overlap
    [text] = sweep_findings(_sweep(["kite", "overwatch"], [0.30, 0.33]))
    assert text == "axe: Brute against Swordsman: no value differs beyond the noise (30.0 % – 33.0 % over 2 values)."
    # dice and numbers stay on a scale
    [text] = sweep_findings(_sweep(["2d6", "2d6+1"], [0.40, 0.60]))
    assert "even (50.0 %) lies between 2d6 (40.0 %) and 2d6+1 (60.0 %)" in text


def test_a_win_rate_comes_with_its_draws_when_they_are_many_and_nearest_even_only_when_near():
    # kite wins 1.1 % of the duels and draws 98.9 % (> DRAW_SHARE): the draws are named with it
    cells = _sweep(["aimed", "std_shot", "kite"], [0.60, 0.215, 0.011])
    cells[2].draws = 9_890
    [text] = sweep_findings(cells)
    assert text == ("axe: Brute against Swordsman: lowest with kite (1.1 %, 98.9 % draws), highest with aimed "
                    "(60.0 %); none within 5 points of 50.0 %.")  # 60.0 % is 10 points off, 21.5 % 28.5
    assert DRAW_SHARE == 0.10 and NEAR == 0.05
    cells = [Cell(("A", "B"), 0.30, {"matchup": "A vs B"}, draws=1_500), Cell(("A", "C"), 0.90, {"matchup": "A vs C"}),
             Cell(("B", "C"), 0.20, {"matchup": "B vs C"})]
    # A vs B: |3000 − 5500| / 10⁴ = 0.25 apart, the most balanced; its 15 % draws named
    assert round_robin_findings(cells) == ["Most balanced of 3 matchups: A vs B (30.0 % : 55.0 %, 15.0 % draws); "
                                           "least balanced: A vs C (90.0 % : 10.0 %)."]


def test_a_round_robin_reads_every_ruleset_of_the_page():
    cells = [Cell(("S", "D"), r, {"matchup": "S vs D", "variant": rs}, ruleset=rs)
             for rs, r in (("brutal", 0.60), ("wfrp2e", 0.487), ("vereteno", 0.70))]
    cells += [Cell(("S", "B"), r, {"matchup": "S vs B", "variant": rs}, ruleset=rs)
              for rs, r in (("brutal", 0.30), ("wfrp2e", 0.40), ("vereteno", 0.95))]
    # matchups that do not pair every two fighters are no round robin: nothing to call balanced among them
    assert round_robin_findings(cells) == []
    cells += [Cell(("D", "B"), r, {"matchup": "D vs B", "variant": rs}, ruleset=rs)
              for rs, r in (("brutal", 0.40), ("wfrp2e", 0.45), ("vereteno", 0.60))]
    assert round_robin_findings(cells) == [
        "Most balanced of 9 matchups across brutal, wfrp2e, vereteno: S vs D under wfrp2e (48.7 % : 51.3 %); least "
        "balanced: S vs B under vereteno (95.0 % : 5.0 %)."]


@dataclass
class Lethal(Cell):
    """A cell with the header counts lethality reads: deaths and one-blow losses of each side, mean rounds."""

    dead: tuple[int, int] = (0, 0)
    single: tuple[int, int] = (0, 0)
    mean_rounds: float = 1.0

    def deaths(self, side: int) -> int:
        return self.dead[side]

    def one_blow(self, side: int) -> int:
        return self.single[side]

    def to_dict(self) -> dict:
        return {**super().to_dict(), "rounds": {"mean": self.mean_rounds}}


def test_lethality_per_ruleset_on_a_page_of_several():
    cells = [Lethal(("S", "D"), 0.5, {"matchup": "S vs D", "variant": "brutal"}, ruleset="brutal", n=1000,
                    dead=(100, 100), single=(50, 0), mean_rounds=3.0),
             Lethal(("S", "B"), 0.5, {"matchup": "S vs B", "variant": "brutal"}, ruleset="brutal", n=1000, draws=500,
                    dead=(0, 100), single=(0, 25), mean_rounds=6.0),
             Lethal(("S", "D"), 0.5, {"matchup": "S vs D", "variant": "wfrp2e"}, ruleset="wfrp2e", n=1000,
                    dead=(10, 0), single=(0, 0), mean_rounds=8.0)]
    # brutal: 1000 + 500 decided, 300 deaths (20.0 %), 75 in one blow (5.0 %), (3 · 1000 + 6 · 500) / 1500 = 4 rounds
    assert lethality_findings(cells) == [
        "How lethal: a decided duel ends in the loser's death in 20.0 % under brutal, 1.0 % under wfrp2e; in one blow "
        "in 5.0 % under brutal, 0.0 % under wfrp2e; it lasts 4.0 rounds under brutal, 8.0 rounds under wfrp2e on "
        "average (each ruleset's matchups at its defaults)."]
    assert lethality_findings(cells[:2]) == []  # one ruleset: nothing to compare


def test_a_variant_is_read_against_its_own_default():
    def cell(variant, rate, **options):
        return Cell(("R", "S"), rate, {"matchup": "R vs S", "variant": variant}, options=options)

    cells = [cell("A: 30 m", 0.50, start_distance="30", brace="turn"),
             cell("B: 20 m", 0.55, start_distance="20", brace="turn"),
             cell("B: 20 m, brace = next_shot", 0.60, start_distance="20", brace="next_shot")]
    texts = variant_findings(cells)
    assert texts[0].startswith("B: 20 m against A: 30 m (start_distance = 20): side a's win rate R vs S +5.0 points")
    # the brace reading against the same distance, not against 30 m: one option apart, +5.0 not +10.0
    assert texts[1].startswith("B: 20 m, brace = next_shot against B: 20 m (brace = next_shot): side a's win rate "
                               "R vs S +5.0 points")
    # readings that change nothing beyond the noise share one sentence; a matchup within it is not listed
    cells += [cell("cover", 0.505, start_distance="30", brace="turn", cover="3"),
              cell("poor", 0.50, start_distance="30", brace="turn", visibility="poor")]
    cells += [Cell(("Q", "S"), 0.5, {"matchup": "Q vs S", "variant": c.labels["variant"]}, options=c.options)
              for c in cells]
    texts = variant_findings(cells)
    assert texts[0] == ("B: 20 m against A: 30 m (start_distance = 20): side a's win rate R vs S +5.0 points (±1.4); "
                        "the other within the noise (95 % intervals).")
    assert texts[-1] == ("No matchup changed beyond the noise (95 % intervals) under cover against A: 30 m "
                         "(cover = 3); poor against A: 30 m (visibility = poor).")


def test_stat_weights_have_their_findings():
    @dataclass
    class Weights:
        rows: pd.DataFrame
        a: str = "Brute"
        b: str = "Swordsman"
        label: str = ""

    rows = pd.DataFrame({"stat": ["toughness", "skill", "speed"], "from": ["3", "2", "4"], "to": ["4", "3", "5"],
                         "delta": [0.021, -0.052, 0.0], "ci_low": [0.011, -0.062, -0.004],
                         "ci_high": [0.031, -0.042, 0.004]})
    assert weight_findings([Weights(rows)], shown=2) == [
        "Stat weights of Brute against Swordsman: skill 2 → 3 -5.2 points (-6.2 … -4.2), toughness 3 → 4 +2.1 points "
        "(+1.1 … +3.1); 2 of 3 steps move the win rate beyond the noise (95 % intervals)."]
