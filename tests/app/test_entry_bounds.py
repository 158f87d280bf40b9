"""The same bounds and the same one-line errors at every entry point: ``--set``, a scenario's sweeps
and ``[[weights]]``, the explorer, report replays, the thread count, the terminal's width and the
figures. Each input once, with what it must give: a result, or one line ``error: …`` naming the
field and what is allowed, exit 2 and nothing written."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from fuzz_strategies import invoke

from brutal_sim import __version__, designer, explorer, report
from brutal_sim.core.errors import DataError
from brutal_sim.core.limits import MAX_DEPTH, MAX_VALUE
from brutal_sim.report import SETUP_FORMAT, read_setup
from brutal_sim.scenario import MAX_CELLS, estimated_cells, read_spec
from brutal_sim.scenario.spec import weights_cells

ENV = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
SMALL = 'n = 20\nmatchups = [["militia", "brute"]]\noptions = { round_cap = 5 }\n'


def cli(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "brutal_sim.cli", *args], capture_output=True, text=True,
                          env={**ENV, **env}, timeout=300)


def refused(args: list[str], *needles: str) -> str:
    """The CLI in-process: exit 2 and one line holding every needle (:func:`invoke` checks the rest)."""
    r = invoke(args)
    assert r.exit_code == 2, r.output
    for needle in needles:
        assert needle in r.stderr, r.stderr
    return r.stderr


# -- --set ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("command", [["duel", "swordsman", "brute", "-n", "20"], ["report"]])
def test_a_set_value_nested_five_thousand_deep_is_one_line(tmp_path, command):
    deep = "[" * 5000
    if command == ["report"]:
        (tmp_path / "s.toml").write_text(SMALL)
        command = ["report", str(tmp_path / "s.toml"), "-o", str(tmp_path / "r.html")]
        target = "militia"
    else:
        target = "a"
    refused([*command, "--set", f"{target}.main_hand.damage={deep}"],
            f"--set {target}: main_hand.damage: nested deeper than {MAX_DEPTH} levels")
    assert sorted(p.name for p in tmp_path.iterdir()) == (["s.toml"] if command[0] == "report" else [])


def test_a_set_value_too_long_is_one_line():
    refused(["duel", "swordsman", "brute", "-n", "20", "--set", "a.name=" + "x" * (MAX_VALUE + 1)],
            f"--set a: name: a text of {MAX_VALUE + 1:,} characters; allowed: at most {MAX_VALUE:,}")


@pytest.mark.parametrize("path, what", [
    ("damage.bonus", "the fighter: not a weapon with dice damage"),
    ("attributes.damage.bonus", "attributes: not a weapon with dice damage"),
    ("talents.damage.bonus", "talents is not a weapon"),
    ("armour.damage.bonus", "armour is not a weapon"),
])
def test_a_damage_bonus_on_what_is_not_a_weapon_is_one_line(path, what):
    refused(["duel", "swordsman", "brute", "-n", "20", "--set", f"a.{path}=2"],
            f"'{path}': {what}", "allowed on a weapon with dice damage")


def test_a_damage_bonus_on_a_number_damage_names_the_field():
    refused(["duel", "orc", "goblin", "--ruleset", "wfrp2e", "-n", "20", "--set", "a.main_hand.damage.bonus=2"],
            "main_hand: damage 0 is no dice; set main_hand.damage itself")


def test_the_set_echo_writes_escape_sequences_as_escapes():
    r = invoke(["duel", "swordsman", "brute", "-n", "20", "--option", "round_cap=5", "--set",
                'a.name="Bob\x1b[31m"'])
    assert r.exit_code == 0, r.stderr
    echo = next(line for line in r.stdout.splitlines() if line.startswith("set: "))
    assert echo == 'set: a.name="Bob\\x1b[31m"' and "\x1b" not in r.stdout


# -- sweeps and [[weights]] ----------------------------------------------------------------------

def sweep(field: str, values: str) -> str:
    return SMALL + f'[[sweeps]]\nfighter = "militia"\nfield = "{field}"\nvalues = {values}\n'


def test_a_free_text_sweep_value_has_a_length_limit(tmp_path):
    (tmp_path / "s.toml").write_text(sweep("name", f'["{"x" * 100_000}"]'))
    refused(["report", str(tmp_path / "s.toml"), "-o", str(tmp_path / "r.html")],
            "s.toml: sweeps[0].values: values[0]: a text of 100,000 characters; allowed: at most 1,000")
    assert [p.name for p in tmp_path.iterdir()] == ["s.toml"]


def test_a_sweep_of_a_damage_bonus_on_what_is_not_a_weapon_is_one_line(tmp_path):
    (tmp_path / "s.toml").write_text(sweep("attributes.damage.bonus", "[1, 2]"))
    refused(["report", str(tmp_path / "s.toml"), "-o", str(tmp_path / "r.html")],
            "sweeps[0]", "attributes: not a weapon with dice damage")
    assert [p.name for p in tmp_path.iterdir()] == ["s.toml"]


def test_weights_entries_count_in_the_size(tmp_path, monkeypatch):
    """3,000 ``[[weights]]`` entries are about 3,000 × :func:`weights_cells` cells: refused before
    any fighter is loaded, with the estimate."""
    from brutal_sim.scenario import load

    monkeypatch.setattr(load, "_Fighters", lambda *a, **k: pytest.fail("fighters were loaded"))
    entries = '[[weights]]\na = "militia"\nb = "brute"\n' * 3000
    (tmp_path / "s.toml").write_text("n = 20\n" + entries)
    cells = 3000 * weights_cells()
    assert estimated_cells(read_spec(str(tmp_path / "s.toml"))) == cells > MAX_CELLS
    refused(["report", str(tmp_path / "s.toml"), "-o", str(tmp_path / "r.html")],
            f"about {cells:,} cells", "stat weights", f"at most {MAX_CELLS:,} cells, or more with --force")
    assert [p.name for p in tmp_path.iterdir()] == ["s.toml"]


def test_drawing_a_report_is_bounded_per_figure(tmp_path, monkeypatch):
    """Beyond :data:`~brutal_sim.report.MAX_CURVE_CELLS` cells a report draws no figure with a panel
    per cell or variant (their cost grows faster than the cells): the win rates only, and those up
    to :data:`~brutal_sim.report.MAX_BAR_CELLS` cells (here raised to 25: by default 12, beyond which
    the bars would repeat the summary table a screen long)."""
    from brutal_sim.scenario import load_scenario, run_scenario

    variants = "".join(f'[[variants]]\nname = "v{i}"\noptions = {{ round_cap = {4 + i % 2} }}\n'
                       for i in range(report.MAX_CURVE_CELLS + 1))
    (tmp_path / "s.toml").write_text('n = 10\nmatchups = [["militia", "brute"]]\n' + variants)
    sc = load_scenario(str(tmp_path / "s.toml"))
    results = run_scenario(sc, threads=1)

    def captions() -> list[str]:
        page = report.render_report(sc, results, "brutal-sim report s.toml")
        return [part.split("</figcaption>")[0] for part in page.split("<figcaption>")[1:]]

    assert report.MAX_BAR_CELLS == 12 and captions() == []
    monkeypatch.setattr(report, "MAX_BAR_CELLS", report.MAX_CURVE_CELLS + 1)
    assert captions() == ["Win rate of each fighter with its 95 % Wilson interval."]


# -- the explorer --------------------------------------------------------------------------------

def test_the_explorer_refuses_the_round_cap_before_anything_runs(monkeypatch):
    monkeypatch.setattr(explorer, "run_paired_counters", lambda *a, **k: pytest.fail("a duel was played"))
    for fields in (["options.round_cap"], {"options.round_cap": [5, 50]}):
        with pytest.raises(DataError, match=r"explore: fields: 'options.round_cap': the round cap sizes the "
                                            r"counters.*allowed: "):
            designer.explore("swordsman", "brute", fields, n=20)


def test_the_explorer_pairs_a_start_distance_across_point_blank():
    """Vereteno's melee duel at 1 m and the duel at 30 m play different kernel sets; the explorer's
    reading plays both on the kernels at a distance (their union), on the same duels."""
    ex = designer.explore("swordsman", "brute", ["options.start_distance"], n=20, ruleset="vereteno",
                          options={"start_distance": "1"})
    reading = ex.set("options.start_distance", 30)
    assert ex.values == {"options.start_distance": 30}
    assert reading is not None


def test_the_explorer_bounds_its_values(monkeypatch):
    monkeypatch.setattr(explorer, "run_paired_counters", lambda *a, **k: pytest.fail("a duel was played"))
    ex = designer.explore("swordsman", "brute", ["a.tactic", "a.main_hand.damage"], n=20)
    with pytest.raises(DataError, match=f"explore: a.tactic: a text of 5,000 characters; allowed: at most "
                                        f"{MAX_VALUE:,}"):
        ex.set("a.tactic", "x" * 5000)
    deep: list = []
    for _ in range(100):
        deep = [deep]
    with pytest.raises(DataError, match=f"nested deeper than {MAX_DEPTH} levels"):
        ex.set("a.main_hand.damage", deep)
    assert ex.values == ex.base


# -- report replays --------------------------------------------------------------------------------

def page(setup: dict, twice: dict | None = None) -> str:
    def link(s: dict, hidden: bool = False) -> str:
        data = base64.b64encode(json.dumps(s).encode()).decode()
        return (f'<a {"hidden " if hidden else ""}id="brutal-sim-setup" download="s.setup.json" '
                f'href="data:application/json;base64,{data}">setup</a>')
    return f"<html>{link(twice, True) if twice else ''}{link(setup)}</html>"


def setup_of(text: str = SMALL, **extra: object) -> dict:
    return {"format": SETUP_FORMAT, "format_version": 1, "brutal_sim": __version__,
            "scenario": {"name": "s.toml", "text": text}, "files": {}, "seed": 0, "n": 20,
            "target_error": None, "max_n": 100_000_000, **extra}


@pytest.mark.parametrize("extra, field", [
    ({"n": 2 * 10**9}, "n: duels per cell must be at most 10**9"),
    ({"target_error": 99.0}, "target_error: target error must be percentage points above 0 and at most 50"),
    ({"target_error": 1.0, "max_n": 2 * 10**9}, "max_n: duels per cell must be at most 10**9"),
])
def test_a_replays_own_numbers_are_named_as_its_setup_names_them(tmp_path, extra, field):
    (tmp_path / "r.html").write_text(page(setup_of(**extra)))
    line = refused(["report", "--rerun", str(tmp_path / "r.html"), "-o", str(tmp_path / "o.html")],
                   f"r.html: setup: {field}")
    assert "-n" not in line and "--target-error" not in line and "--max-n" not in line
    assert [p.name for p in tmp_path.iterdir()] == ["r.html"]


def test_a_page_with_two_setup_links_is_refused(tmp_path):
    other = setup_of('n = 20\nmatchups = [["knight", "brute"]]\n')
    (tmp_path / "r.html").write_text(page(setup_of(), twice=other))
    refused(["report", "--rerun", str(tmp_path / "r.html"), "-o", str(tmp_path / "o.html")],
            "r.html: holds more than one brutal-sim setup link")
    (tmp_path / "r.html").write_text(page(setup_of()))
    assert read_setup(str(tmp_path / "r.html"))["scenario"]["text"] == SMALL


def test_a_report_its_own_rerun_would_refuse_is_not_written(tmp_path, monkeypatch):
    """A page larger than what ``--rerun`` reads (:data:`~brutal_sim.core.limits.MAX_REPORT_BYTES`,
    here lowered to 10,000 bytes) is refused before it is written."""
    from fuzz_strategies import runner

    from brutal_sim.cli import app

    monkeypatch.setattr(report, "MAX_REPORT_BYTES", 10_000)
    (tmp_path / "s.toml").write_text(SMALL)
    r = runner.invoke(app, ["report", str(tmp_path / "s.toml"), "-o", str(tmp_path / "r.html")])
    last = r.stderr.splitlines()[-1]  # after the cells' progress lines
    assert r.exit_code == 2 and last.startswith(f"error: {tmp_path / 'r.html'}: the report would be "), r.stderr
    assert last.endswith("allowed: at most 9.8 KiB (the most that report --rerun reads): play fewer cells, or "
                         "export the tables with --csv from smaller scenarios")
    assert [p.name for p in tmp_path.iterdir()] == ["s.toml"]


# -- threads, terminal, figures, notices ------------------------------------------------------------

@pytest.mark.parametrize("value", ["99999", str((os.cpu_count() or 1) + 1)])
def test_numba_threads_above_the_cores_are_one_line(value):
    r = cli("duel", "swordsman", "brute", "-n", "20", NUMBA_NUM_THREADS=value)
    assert r.returncode == 2 and r.stderr.strip().splitlines() == [
        f"error: NUMBA_NUM_THREADS: {int(value):,} threads; allowed: 1 … {os.cpu_count() or 1} (the cores of this "
        "machine)"], r.stderr


def test_threads_above_the_cores_are_one_line():
    refused(["duel", "swordsman", "brute", "-n", "20", "--threads", "99999"], "--threads: must be 1 … ")


def test_numba_threads_above_the_cores_are_a_data_error_in_the_api():
    script = ("from brutal_sim import api\nfrom brutal_sim.core.errors import DataError\n"
              "try:\n    api.duel('swordsman', 'brute', n=20)\nexcept DataError as exc:\n    print(exc)\n")
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                       env={**ENV, "NUMBA_NUM_THREADS": "99999"})
    assert r.returncode == 0 and r.stdout.startswith("NUMBA_NUM_THREADS: 99,999 threads; allowed: 1 … "), r.stderr


def test_a_narrow_terminal_cuts_no_number():
    wide = json.loads(cli("duel", "swordsman", "brute", "-n", "1000", "--json").stdout)
    r = cli("duel", "swordsman", "brute", "-n", "1000", COLUMNS="20")
    assert r.returncode == 0, r.stderr
    for side in ("a", "b"):
        assert f"{wide[side]['wins']:,}" in r.stdout and f"{100 * wide[side]['win_rate']:.2f} %" in r.stdout
    assert "…" not in r.stdout


def test_figures_keep_their_plot_with_names_at_the_limit():
    """Fighters named with the 200 characters allowed: in each figure saved as a report saves it
    (a tight bounding box), the plot keeps at least 40 % of the image's width (the names are cut
    on the figure, whole in the tables)."""
    import io

    from brutal_sim import api
    from brutal_sim.core.limits import MAX_NAME
    from brutal_sim.core.ruleset import get_ruleset
    from brutal_sim.results import plots
    from brutal_sim.results.frames import decided_by_frame, rounds_frame, summary_frame

    rs = get_ruleset("brutal")
    a, b = (rs.load_fighter(name).model_copy(update={"name": (first + "ancelot of the lake ")[:20] * (MAX_NAME // 20)})
            for name, first in (("swordsman", "L"), ("brute", "W")))
    r = api.duel(a, b, n=200, options={"round_cap": "5"})
    for fig in (plots.win_rate_figure(summary_frame([r])), plots.rounds_figure(rounds_frame([r]), kind="cdf"),
                plots.decided_by_figure(decided_by_frame([r]))):
        fig.savefig(io.BytesIO(), format="svg", bbox_inches="tight")
        share = fig.axes[0].get_position().width * fig.get_figwidth() / fig.get_tightbbox().width
        assert share > 0.4, (fig.axes[0].get_title(), share)
        assert all(len(t.get_text()) <= plots.MAX_LABEL for t in fig.findobj(lambda o: hasattr(o, "get_text")))


def test_a_warm_run_says_nothing_of_compiling():
    """Kernels loaded from numba's cache (warmed first) are no compile: no notice."""
    from brutal_sim.core.ruleset import get_ruleset

    get_ruleset("brutal").warm_up("duel")
    r = cli("duel", "swordsman", "brute", "-n", "1000")
    assert r.returncode == 0 and "compil" not in r.stderr, r.stderr
