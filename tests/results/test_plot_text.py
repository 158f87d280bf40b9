"""Names are text on every figure: a ``$``, ``\\``, ``_``, ``^`` or ``{`` in a fighter, variant,
matchup or sweep name is drawn as written, never read as mathtext."""

from __future__ import annotations

import pytest

pd = pytest.importorskip("pandas")
pytest.importorskip("matplotlib")

from matplotlib import cbook  # noqa: E402
from matplotlib.text import Text  # noqa: E402

from brutal_sim import api  # noqa: E402
from brutal_sim.results import plots  # noqa: E402
from brutal_sim.results.frames import (  # noqa: E402
    decided_by_frame,
    rounds_frame,
    summary_frame,
    wounds_at_least_frame,
    wounds_frame,
)

HOSTILE = ("$5 a day, $10", r"back\slash $x^2$", "_under_score", "{brace}^", "$")
FIGHTER_A, FIGHTER_B = HOSTILE[0], HOSTILE[1]
VARIANT = HOSTILE[4]


def drawn(fig) -> list[str]:
    """Every text of a rendered figure as matplotlib draws it; none is mathtext."""
    plots.figure_to_png(fig, dpi=30)
    texts = [t.get_text() for t in fig.findobj(Text) if t.get_text()]
    math = [t for t in texts if cbook.is_math_text(t)]
    assert not math, f"texts read as mathtext: {math}"
    return [t.replace(r"\$", "$") for t in texts]  # what the renderer puts on the figure


def rename(frame: pd.DataFrame) -> pd.DataFrame:
    frame = frame.copy()
    names = {"Swordsman": FIGHTER_A, "Brute": FIGHTER_B}
    if "fighter" in frame:
        frame["fighter"] = frame["fighter"].replace(names)
    frame["matchup"] = f"{FIGHTER_A} vs {FIGHTER_B}"
    frame["variant"] = VARIANT
    return frame


@pytest.fixture(scope="module")
def result():
    r = api.duel("swordsman", "brute", n=2_000, seed=1)
    return r


def test_every_duel_figure_draws_the_names_as_written(result):
    matchup = f"{FIGHTER_A} vs {FIGHTER_B}"
    summary = rename(summary_frame([result]))
    for fig in (plots.win_rate_figure(summary, title=HOSTILE[3]), plots.lethality_figure(summary),
                plots.matchup_matrix_figure(summary)):
        texts = drawn(fig)
        assert (FIGHTER_A in texts or any(FIGHTER_A in t for t in texts)) and any(FIGHTER_B in t for t in texts)
    assert VARIANT in drawn(plots.lethality_figure(summary))  # the legend entry is the variant itself
    assert {FIGHTER_A, FIGHTER_B} <= set(drawn(plots.matchup_matrix_figure(summary)))  # the tick labels
    assert HOSTILE[3] in drawn(plots.win_rate_figure(summary, title=HOSTILE[3]))
    rounds = rename(rounds_frame([result]))
    assert any(matchup in t for t in drawn(plots.rounds_figure(rounds)))
    assert any(matchup in t for t in drawn(plots.rounds_figure(rounds, kind="cdf")))
    texts = drawn(plots.decided_by_figure(rename(decided_by_frame([result]))))
    assert any(t.startswith(f"{FIGHTER_A} (a) won") for t in texts)
    assert any(FIGHTER_B in t for t in drawn(plots.wounds_figure(rename(wounds_frame([result])))))
    assert any(FIGHTER_A in t for t in drawn(plots.wounds_at_least_figure(rename(wounds_at_least_frame([result])))))


def test_sweep_and_diff_figures_draw_the_names_as_written(result):
    rows = []
    for value in HOSTILE:
        s = rename(summary_frame([result]))
        s["variant"] = value
        rows.append(s)
    summary = pd.concat(rows, ignore_index=True)
    texts = drawn(plots.sweep_figure(summary, x_label=HOSTILE[2]))
    assert set(HOSTILE) <= set(texts) and any(FIGHTER_A in t for t in texts)
    diff = pd.DataFrame({"a": [FIGHTER_A, "_x"], "b": [FIGHTER_B, "=y"], "delta": [0.1, -0.1],
                         "ci_low": [0.0, -0.2], "ci_high": [0.2, 0.0]})
    texts = drawn(plots.diff_figure(diff, title=HOSTILE[1]))
    assert {f"{FIGHTER_A} vs {FIGHTER_B}", "_x vs =y", HOSTILE[1]} <= set(texts)


def test_a_variant_starting_with_an_underscore_keeps_its_legend_entry(result):
    summary = rename(summary_frame([result]))
    summary["variant"] = "_hidden"
    assert "_hidden" in drawn(plots.lethality_figure(summary))

