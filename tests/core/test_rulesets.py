"""The ruleset layer: registry, resolution of a run's ruleset, the shared counter row."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from brutal_sim import api
from brutal_sim.cli import app
from brutal_sim.core.counters import CounterLayout
from brutal_sim.core.errors import DataError
from brutal_sim.core.ruleset import Ruleset, get_ruleset, resolve_ruleset, ruleset_names
from brutal_sim.rulesets.brutal import layout as L

runner = CliRunner()


def test_every_registered_ruleset_implements_the_interface():
    for name in ruleset_names():
        rs = get_ruleset(name)
        assert isinstance(rs, Ruleset) and rs.name == name
        assert rs.fighter_names(), name
        assert {s.name for s in rs.option_specs} == set(rs.option_defaults())
        assert "fighters" in rs.listings()
        f = rs.load_fighter(rs.fighter_names()[0])
        assert f.ruleset == name
        assert rs.fighter_from_data(rs.fighter_data(f), "test", f.name) == f  # round trip for variants


def test_counter_offsets_follow_the_names():
    c = CounterLayout(causes=("x", "y", "z"), outcomes=("miss", "hit"), levels=("none", "hurt"),
                      zones=("body",), special="s")
    assert (c.wins, c.draws, c.cause, c.death, c.attack, c.wound) == (0, 2, 3, 9, 11, 15)
    assert (c.special_at, c.damage, c.one_blow, c.loser_wounds) == (19, 21, 23, 25)
    # loser_wounds: 2 losers × 2 levels × 9 bins (0 … 7, 8 or more); rounds and rounds_a: 11 each at cap 10
    assert (c.loser_wounds_size, c.rounds, c.rounds_a(10), c.size(10), c.round_cap_of(83)) == (18, 61, 72, 83, 10)
    # loser b, level "hurt": bins 25 + 18 + 9 …; 12 blows share the last bin with 8
    assert (c.loser_wounds_at(1, 1, 0), c.loser_wounds_at(1, 1, 3), c.loser_wounds_at(1, 1, 12)) == (52, 55, 60)
    # Brutal's constants are these offsets (the kernel compiles them in)
    assert (L.C_CAUSE, L.C_DEATHS, L.C_ATTACKS, L.C_WOUNDS, L.C_BREAKS, L.C_DAMAGE, L.C_ONE_BLOW, L.C_LOSER_WOUNDS,
            L.C_ROUNDS) == (3, 13, 15, 25, 73, 75, 77, 79, 187)  # five loss causes, six levels


def test_resolution_explicit_file_key_and_default(tmp_path):
    assert resolve_ruleset(["swordsman", "brute"]).name == "brutal"
    assert resolve_ruleset(["swordsman", "brute"], "brutal").name == "brutal"
    with pytest.raises(DataError, match="unknown ruleset 'nope'; allowed: brutal"):
        resolve_ruleset(["swordsman"], "nope")
    f = tmp_path / "odd.toml"
    f.write_text('ruleset = "chess"\nname = "Odd"\n')
    with pytest.raises(DataError) as exc:
        resolve_ruleset([str(f), "brute"])
    assert exc.value.source == str(f) and exc.value.field == "ruleset" and "allowed: brutal" in exc.value.message


def test_a_fighter_object_of_another_ruleset_is_refused():
    class Foreign:
        ruleset = "elsewhere"
        name = "Foreign"

    with pytest.raises(DataError, match="different rulesets"):
        resolve_ruleset([Foreign(), api.load_fighter("brute")])


def test_cli_names_the_ruleset_and_refuses_unknown_ones():
    r = runner.invoke(app, ["duel", "swordsman", "brute", "-n", "2000", "--json", "--ruleset", "brutal"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["ruleset"] == "brutal"
    r = runner.invoke(app, ["duel", "swordsman", "brute", "--ruleset", "gurps"])
    assert r.exit_code == 2 and "unknown ruleset 'gurps'" in r.output and "Traceback" not in r.output
    r = runner.invoke(app, ["list", "rulesets"])
    assert r.exit_code == 0 and all(name in r.output for name in ruleset_names())
    r = runner.invoke(app, ["list", "weapons", "--ruleset", "gurps"])
    assert r.exit_code == 2 and "unknown ruleset" in r.output


@pytest.mark.parametrize("body, field, words", [
    ('ruleset = "brutal"\nrulesets = ["brutal"]\nmatchups = [["swordsman", "brute"]]\n', "ruleset", "either"),
    ('rulesets = ["brutal"]\nmatchups = [["swordsman", "brute"]]\n[[variants]]\nname = "x"\n', "rulesets",
     "variants and sweeps"),
    ('rulesets = ["brutal"]\nmatchups = [["swordsman", "brute"]]\noptions = { round_cap = 5 }\n',
     "options.round_cap", "table per ruleset"),
    ('rulesets = ["brutal", "brutal"]\nmatchups = [["swordsman", "brute"]]\n', "rulesets", "each ruleset once"),
    ('rulesets = ["chess"]\nmatchups = [["swordsman", "brute"]]\n', "rulesets", "unknown ruleset 'chess'"),
    ('ruleset = "brutal"\nrules = { brutal = "x.toml" }\nmatchups = [["swordsman", "brute"]]\n', "rules",
     "one rules file"),
])
def test_scenario_ruleset_keys_are_checked(tmp_path, body, field, words):
    from brutal_sim.scenario import load_scenario

    f = tmp_path / "s.toml"
    f.write_text(body)
    with pytest.raises(DataError) as exc:
        load_scenario(str(f))
    assert exc.value.source == str(f) and exc.value.field == field and words in exc.value.message


def test_scenario_rulesets_label_cells_by_ruleset(tmp_path):
    from brutal_sim.results.frames import summary_frame
    from brutal_sim.scenario import load_scenario, run_scenario

    f = tmp_path / "s.toml"
    f.write_text('rulesets = ["brutal"]\nn = 3000\nmatchups = [["swordsman", "brute"]]\n'
                 '[options.brutal]\nround_cap = 40\n')
    sc = load_scenario(str(f))
    (cell,) = sc.cells
    assert cell.variant == "brutal" and cell.options["round_cap"] == 40
    (r,) = run_scenario(sc)
    direct = api.duel("swordsman", "brute", n=3000, seed=0, options={"round_cap": "40"})
    assert (r.counters == direct.counters).all()  # same seed, same duel indices
    s = summary_frame([r])
    assert set(s["variant"]) == {"brutal"} and "one_blow_share" in set(s["measure"])


def test_one_blow_in_wfrp2e_with_sudden_death():
    """W-5.3/W-5.4 sudden death: damage above the remaining Wounds is a critical that takes the
    fighter out. With S 99 (SB 9) every hit deals at least 1 + 9 − TB 3 − AP 3 = 4 > Wounds 1, so
    every hit is such a critical and every decided duel ends on the loser's only harmful blow."""
    rs = get_ruleset("wfrp2e")
    from brutal_sim.core.variants import vary, with_changes

    killer = with_changes(rs.load_fighter("swordsman"), {"w": 1, "s": 99})
    r = api.duel(killer, vary(killer, "name", "Other"), n=4000, seed=9)
    assert r.ruleset == "wfrp2e"
    decided = r.wins(0) + r.wins(1)
    assert decided > 3900 and r.one_blow(0) + r.one_blow(1) == decided


def test_option_codes_and_rows():
    """An option's kernel code: integers as given, choices by position or by their declared codes;
    ``option_row`` puts each at its slot."""
    from brutal_sim.core.options import OptionSpec, RuleOptions, option_row

    flag = OptionSpec("x", "T-1", "true", ("true", "false"), codes=(1, 0))
    mode = OptionSpec("m", "T-2", "a", ("a", "b", "c"))
    cap = OptionSpec("n", "T-3", 5, int_range=(1, 9))
    assert (flag.code("true"), flag.code("false"), mode.code("c"), cap.code(7)) == (1, 0, 2, 7)
    opts = RuleOptions.defaults((flag, mode, cap)).with_overrides({"m": "b", "n": "3"}, "test")
    assert option_row(opts, {"x": 2, "m": 0, "n": 1}, 4).tolist() == [1, 3, 1, 0]


def test_option_row_slots_and_codes():
    """:class:`OptionRow`: kernel options take the slots of their order in the specs (``kernel=False``
    ones none), ``pair`` finds the a/b options of a side-by-side pair, ``codes`` lists the codes of
    the choices; specs the kernels could not read are refused."""
    from brutal_sim.core.options import OptionRow, OptionSpec, RuleOptions

    specs = (OptionSpec("path", "T-0", "default", kernel=False),
             OptionSpec("flag", "T-1", "true", ("true", "false"), codes=(1, 0)),
             OptionSpec("cover_a", "T-2", "none", ("none", "half", "full"), codes=(0, 2, 4)),
             OptionSpec("cover_b", "T-2", "none", ("none", "half", "full"), codes=(0, 2, 4)),
             OptionSpec("cap", "T-3", 5, int_range=(1, 9)))
    row = OptionRow(specs)
    assert (row.slot("flag"), row.pair("cover"), row.slot("cap"), row.size) == (0, 1, 3, 4)
    assert row.codes("cover_a") == (0, 2, 4) and row.codes("flag") == (1, 0)
    opts = RuleOptions.defaults(specs).with_overrides({"flag": "false", "cover_b": "full", "cap": 8}, "test")
    assert row.row(opts).tolist() == [0, 0, 4, 8]
    with pytest.raises(ValueError, match="one after the other"):
        OptionRow((specs[2], specs[1], specs[3])).pair("cover")
    with pytest.raises(ValueError, match="kernel=False"):
        OptionRow((OptionSpec("path", "T-0", "default"),))
    with pytest.raises(ValueError, match="2 codes for 3 choices"):
        OptionRow((OptionSpec("m", "T-1", "a", ("a", "b", "c"), codes=(0, 1)),))


def test_option_constants_come_from_the_specs():
    """Every ruleset's option row: one slot per kernel option, ``NO`` of them, in spec order; the
    value codes the kernels compare with are the specs' codes."""
    from brutal_sim.core.options import RuleOptions
    from brutal_sim.rulesets.brutal import options as B
    from brutal_sim.rulesets.vereteno import options as V
    from brutal_sim.rulesets.wfrp2e import options as W

    for mod in (B, W, V):
        kernel = [s.name for s in mod.OPTION_SPECS if s.kernel]
        assert list(mod.ROW.slots) == kernel and sorted(mod.ROW.slots.values()) == list(range(mod.NO))
        assert mod.compile_options(RuleOptions.defaults(mod.OPTION_SPECS)).shape == (mod.NO,)
    assert [s.name for s in B.OPTION_SPECS if not s.kernel] == ["check_bonus", "zone_table"]
    assert (B.O_COVER, B.O_COVER_ZONES, B.O_INDIRECT_COVER, B.O_INDIRECT_COVER_PENALTY) == (31, 33, 35, 37)
    assert (B.ARMOUR_MARKER, B.ARMOUR_MARKER_PIERCE_IGNORES, B.ARMOUR_PROTECTION_ONLY) == (0, 1, 2)
    assert (B.OUTNUMBERED_NONE, B.EXERTION_EVERY_ENDURANCE, B.COVER_VERTICAL_RIGHT,
            B.CHARGE_PROVOKES_TARGET) == (2, 2, 2, 1)
    assert (B.TRIGGER_ENTERS_REACH, B.TRIGGER_ATTACKS, B.O_READIED_TRIGGER + 1) == (0, 1, B.O_UNARMED_FULL_ATTACK)
    assert (W.OPPOSED_DEFENDER_WINS_TIES, W.FURY_NONE, W.CRIT_TABLE, W.FORTUNE_NEVER) == (2, 2, 2, 2)
    assert (V.DESP_APP, V.STEALTH_DICE, V.SHIELD_IGNORE, V.O_STEALTH_ATTACK) == (2, 2, 1, 7)
    opts = RuleOptions.defaults(V.OPTION_SPECS).with_overrides({"shield": "cover_like"}, "test")
    assert V.compile_options(opts)[V.O_SHIELD] == V.SHIELD_COVER_LIKE != V.SHIELD_ARMOUR_POOL  # no effect in melee
