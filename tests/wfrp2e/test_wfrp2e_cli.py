"""WFRP 2e on the command line: duel, attack (exact and sampled), list, JSON shapes, and bad input →
one line, exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from brutal_sim.cli import app

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def test_duel_json_and_ruleset_resolution():
    r = run("duel", "orc", "goblin", "-n", "20000", "--seed", "3", "--json")  # names only in the wfrp2e catalog
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["ruleset"] == "wfrp2e" and d["n"] == 20000
    assert set(d["defeat_cause"]) == {"critical", "helpless", "fled"}
    assert set(d["a"]["attacks"]) == {"miss", "parried", "dodged", "hit"}
    assert "ulrics_fury" in d["a"] and d["a"]["tactic"] == "guarded"
    assert d["a"]["wins"] + d["b"]["wins"] + d["draws"] == 20000
    assert d["a"]["win_rate"] > d["b"]["win_rate"]  # the orc out-classes the goblin


def test_duel_text_with_options():
    r = run("duel", "swordsman", "brute", "--ruleset", "wfrp2e", "-n", "5000", "--option", "crit_model=table",
            "--option", "crit_table=example", "--tactic-b", "cautious")
    assert r.exit_code == 0, r.output
    for text in ("Swordsman", "Brute", "win rate", "ruleset: wfrp2e", "crit_model=table", "cautious"):
        assert text in r.stdout


def test_fighter_file_selects_the_ruleset(tmp_path: Path):
    f = tmp_path / "ogre.toml"
    f.write_text('ruleset = "wfrp2e"\nws = 45\ns = 50\nt = 50\nag = 20\nw = 30\nmain_hand = "great_weapon"\n')
    r = run("duel", str(f), "orc", "-n", "2000", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["ruleset"] == "wfrp2e" and d["a"]["name"] == "ogre"


def test_attack_exact_and_sampled():
    r = run("attack", "swordsman", "brute", "--ruleset", "wfrp2e", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["method"] == "exact" and d["p_hit"] == pytest.approx(0.51)  # WS 41 + aim 10, the brute never reacts
    assert set(d["wound_level"]) == {"none", "wounded", "heavily_wounded", "critical", "out"}
    assert set(d["zone"]) == {"head", "body", "arm", "leg"}
    r = run("attack", "swordsman", "brute", "--ruleset", "wfrp2e", "-n", "20000", "--json")
    s = json.loads(r.stdout)
    assert s["method"] == "sampled" and abs(s["p_hit"] - 0.51) < 0.02
    r = run("attack", "duelist", "knight", "--ruleset", "wfrp2e")
    assert r.exit_code == 0 and "exact enumeration" in r.stdout


@pytest.mark.parametrize("topic,needle", [("fighters", "Orc"), ("weapons", "great_weapon"), ("armour", "full_mail"),
                                          ("options", "fury_confirm"), ("talents", "street_fighting"),
                                          ("tactics", "feinter"), ("missiles", "longbow")])
def test_list(topic, needle):
    r = runner.invoke(app, ["list", topic, "--ruleset", "wfrp2e"], terminal_width=250)
    assert r.exit_code == 0, r.output
    assert needle in r.stdout


def test_list_rulesets_names_wfrp2e():
    r = runner.invoke(app, ["list", "rulesets"], terminal_width=250)
    assert r.exit_code == 0 and "wfrp2e" in r.stdout


def _fighter_file(tmp_path: Path, body: str) -> str:
    f = tmp_path / "f.toml"
    f.write_text('ruleset = "wfrp2e"\n' + body)
    return str(f)


BASE = "ws = 40\ns = 30\nt = 30\nag = 30\nw = 10\n"


@pytest.mark.parametrize("body,needle", [
    (BASE + "colour = 'red'\n", "colour: unknown field"),
    (BASE + "main_hand = 'sabre'\n", "unknown weapon 'sabre'"),
    (BASE + "armour = ['mail_shrit']\n", "did you mean 'mail_shirt'"),
    (BASE.replace("ws = 40", "ws = 140"), "ws"),
    (BASE + "a = 0\n", "a: Input should be greater than or equal to 1"),
    (BASE + "tactic = 'rage'\n", "tactic"),
    (BASE + "talents = ['lightning_parry']\n", "unknown talent"),
    (BASE + "main_hand = 'great_weapon'\noff_hand = 'shield'\n", "two-handed"),
    (BASE + "main_hand = 'spear'\noff_hand = 'dagger'\n", "cannot be used with an off-hand item"),
    (BASE + "off_hand = 'rapier'\n", "cannot be carried in the off hand"),
    (BASE + "main_hand = { damage = 9 }\n", "main_hand.damage"),
    (BASE + "main_hand = { damage = 1, qualities = ['sharp'] }\n", "qualities"),
    ("ws = 40\n", "s: Field required"),
])
def test_bad_fighter_files(tmp_path: Path, body: str, needle: str):
    r = run("duel", _fighter_file(tmp_path, body), "orc", "-n", "100")
    assert r.exit_code == 2, r.output
    assert needle in r.output and len(r.output.strip().splitlines()) == 1, r.output


def _crit_file(tmp_path: Path, text: str) -> str:
    f = tmp_path / "crit.toml"
    f.write_text(text)
    return str(f)


GOOD_GRID = ('[crit_grid]\ncolumns = [1, 5]\n'
             'bands = [{ rolls = "01-50", effects = [1, 2] }, { rolls = "51-00", effects = [1, 2] }]\n')
GOOD_FX = "".join(f'[crit_effects.{z}]\n1 = "STUN(1)"\n2 = ["OUT"]\n' for z in ("head", "body", "arm", "leg"))


@pytest.mark.parametrize("text,needle", [
    (GOOD_GRID.replace('"51-00"', '"52-00"') + GOOD_FX, "rolls 51 have no band"),
    (GOOD_GRID.replace('"01-50"', '"01-60"') + GOOD_FX, "roll 51 is in two bands"),
    (GOOD_GRID.replace("[1, 5]", "[5, 1]") + GOOD_FX, "rising order"),
    (GOOD_GRID.replace("effects = [1, 2] }, {", "effects = [1] }, {") + GOOD_FX, "expected 2 effect numbers"),
    (GOOD_GRID.replace("effects = [1, 2] }, {", "effects = [1, 101] }, {") + GOOD_FX, "effect numbers 1..100"),
    (GOOD_GRID, "needs the tables crit_grid (columns, bands) and crit_effects.ZONE"),
    (GOOD_GRID + GOOD_FX.replace('2 = ["OUT"]', '2 = "EXPLODE"', 1), "unknown effect code 'EXPLODE'"),
    (GOOD_GRID + GOOD_FX.replace('2 = ["OUT"]\n', "", 1), "effect numbers 2 of the grid have no effect here"),
    (GOOD_GRID + GOOD_FX.replace("[crit_effects.leg]", "[crit_effects.tail]"), "expected exactly the zones"),
    (GOOD_GRID + GOOD_FX.replace('"STUN(1)"', '"PEN(ws, 10)"', 1), "unknown effect code"),
    (GOOD_GRID + GOOD_FX + "[extra]\n", "unknown table"),
    ("not toml = = 1", "not valid TOML"),
])
def test_bad_crit_files(tmp_path: Path, text: str, needle: str):
    path = _crit_file(tmp_path, text)
    r = run("duel", "orc", "goblin", "-n", "100", "--option", "crit_model=table", "--option", f"crit_table={path}")
    assert r.exit_code == 2, r.output
    assert needle in r.output and len(r.output.strip().splitlines()) == 1, r.output


def test_good_crit_file(tmp_path: Path):
    path = _crit_file(tmp_path, GOOD_GRID + GOOD_FX)
    r = run("duel", "orc", "goblin", "-n", "1000", "--json", "--option", "crit_model=table",
            "--option", f"crit_table={path}")
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("args,needle", [
    (("duel", "orc", "gobiln", "--ruleset", "wfrp2e"), "did you mean 'goblin'"),
    (("duel", "orc", "goblin", "--option", "fury_confirm=always"), "allowed: each, first_only, none"),
    (("duel", "orc", "goblin", "--option", "crit_threshold=0"), "out of range"),
    (("duel", "orc", "goblin", "--option", "crit_model=table"), "needs a critical table file"),
    (("duel", "orc", "goblin", "--option", "margin_against=reaction"), "unknown rule option"),
    (("duel", "orc", "goblin", "--tactic-a", "furious"), "unknown tactic 'furious'"),
    (("duel", "orc", "goblin", "--reaction-b", "pray"), "unknown reaction 'pray'"),
    (("duel", "orc", "goblin", "--ruleset", "wfrp3e"), "unknown ruleset"),
    (("attack", "orc", "goblin", "--tactic", "turtle"), "makes no attack"),
    (("attack", "wrestler", "orc"), "makes grapple attempts"),  # W-12.1: an attempt deals no damage
    (("list", "spells", "--ruleset", "wfrp2e"), "unknown topic 'spells'"),
])
def test_bad_input_one_line_exit_2(args, needle):
    r = run(*args)
    assert r.exit_code == 2, r.output
    assert needle in r.output and len(r.output.strip().splitlines()) == 1, r.output


def test_bad_rules_file(tmp_path: Path):
    f = tmp_path / "rules.toml"
    f.write_text("[options]\nfury_confirm = 'none'\n[zone_table]\ndie = 20\n")
    r = run("duel", "orc", "goblin", "--rules", str(f))
    assert r.exit_code == 2 and "unknown table" in r.output
    f.write_text("[options]\nfury_confirm = 'none'\nsurprise = 'a'\n")
    r = run("duel", "orc", "goblin", "--rules", str(f), "-n", "1000", "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["options"]["surprise"] == "a"
