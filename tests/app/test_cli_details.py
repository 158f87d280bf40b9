"""Small things a new user meets first: --version, mirror duels, group fights of other rulesets,
option listings that work as shown, text that is not eaten as markup, counts that explain themselves."""

from __future__ import annotations

from typer.testing import CliRunner

from brutal_sim import __version__
from brutal_sim.cli import app

runner = CliRunner()


def test_version_flag():
    r = runner.invoke(app, ["--version"])
    assert r.exit_code == 0 and r.output.strip() == __version__


def test_a_mirror_duel_labels_the_sides():
    r = runner.invoke(app, ["duel", "knight", "knight", "-n", "200"])
    assert r.exit_code == 0
    rows = [line for line in r.output.splitlines() if line.startswith("Knight (") and "│" in line]
    assert [row.split("│")[0].strip() for row in rows] == ["Knight (a)", "Knight (b)", "Knight (a)", "Knight (b)"]


def test_a_group_fight_of_a_ruleset_without_fights_names_the_rulesets_that_have_them():
    """Every bundled ruleset plays group fights; a plug-in that plays duels only is refused."""
    from duels_only_ruleset import duels_only

    with duels_only():
        for words in (["swordsman", "vs", "brute", "--ruleset", "duels_only"],
                      ["swordsman", "swordsman", "vs", "brute", "--ruleset", "duels_only"]):
            r = runner.invoke(app, ["fight", *words])
            assert r.exit_code == 2 and r.stderr.count("\n") == 1, r.output
            assert r.stderr.startswith("error: fight: the duels_only ") and r.stderr.rstrip().endswith(
                "ruleset plays no group fights (several fighters a side); rulesets that do: brutal, wfrp2e, "
                "vereteno"), r.stderr


def test_listed_path_options_show_their_working_default():
    r = runner.invoke(app, ["list", "options", "--ruleset", "wfrp2e"], env={"COLUMNS": "250"})
    row = next(line for line in r.output.splitlines() if line.startswith("│ crit_table"))
    assert "none | PATH" in row and "default" not in row
    r = runner.invoke(app, ["duel", "orc", "goblin", "--ruleset", "wfrp2e", "-n", "20", "--option", "crit_table=none"])
    assert r.exit_code == 0, r.output


def test_brackets_in_help_and_data_are_kept():
    r = runner.invoke(app, ["list", "options"], env={"COLUMNS": "400"})
    assert "[check_formula]" in r.output and "mobility [dodge] check" in r.output
    r = runner.invoke(app, ["duel", "--help"], env={"COLUMNS": "400"})
    text = " ".join(r.output.split()).replace("- ", "-")  # the help wraps long texts, also after a hyphen
    assert ("pip install 'brutal-sim[cluster]'" in text
            and "rules TOML file: [options] and the ruleset's own tables" in text)


def test_deaths_beyond_the_death_cause_are_explained():
    """Vereteno counts a loser as died when it has a DEAD trauma, whatever put it out first (V-6.2)."""
    r = runner.invoke(app, ["duel", "swordsman", "brute", "--ruleset", "vereteno", "-n", "500"])
    assert "of them died: losers with a DEAD trauma, whatever put them out first" in r.output


def test_a_large_report_says_its_size_first():
    from brutal_sim.cli.reports import size_note

    assert size_note(1_000) is None
    assert size_note(10_000) == ("a large report: 10,000 cells; expect about 6 MiB of HTML and 1,200 MiB of memory "
                                  "(a sweep's values or a round robin's fighters make the cells)")
