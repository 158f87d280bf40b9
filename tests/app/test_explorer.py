"""The live explorer (designer.explore): each reading is the paired run of the changed matchup and
its baseline; bad fields and values are one DataError and change nothing; a saved setup replays
the same duels as a scenario; the widgets drive the same logic."""

from __future__ import annotations

import pytest

from brutal_sim import api, designer, outputs
from brutal_sim.core.errors import DataError
from brutal_sim.core.variants import with_changes
from brutal_sim.scenario import load_scenario, run_scenario

N, SEED = 6000, 3
FIELDS = ["a.main_hand.damage", "b.checks.melee", "options.armour_model"]


@pytest.fixture()
def explorer():
    return designer.explore("swordsman", "brute", FIELDS, n=N, seed=SEED)


def test_the_controls_default_to_the_allowed_values(explorer):
    melee = explorer.base["b.checks.melee"]
    assert explorer.choices["a.main_hand.damage"] == ["d4", "d6", "d8", "d10", "d12"]
    assert explorer.choices["b.checks.melee"] == list(range(melee - 3, melee + 4))
    assert explorer.choices["options.armour_model"] == ["marker", "marker_pierce_ignores_protection", "protection_only"]
    assert explorer.base["options.armour_model"] == "marker"


def test_a_reading_is_the_paired_run_of_the_change_and_the_baseline(explorer):
    reading = explorer.set("a.main_hand.damage", "d10")
    changed = with_changes(api.load_fighter("swordsman"), {"main_hand.damage": "d10"})
    alone = api.duel(changed, "brute", n=N, seed=SEED)
    base = api.duel("swordsman", "brute", n=N, seed=SEED)
    assert (reading.current.wins(0), reading.current.wins(1)) == (alone.wins(0), alone.wins(1))
    assert (reading.baseline.wins(0), reading.baseline.wins(1)) == (base.wins(0), base.wins(1))
    assert reading.difference == pytest.approx((alone.wins(0) - base.wins(0)) / N, abs=1e-12)
    assert reading.ci[0] < reading.difference < reading.ci[1]
    assert reading.text().startswith(f"Swordsman wins {100 * alone.wins(0) / N:.1f} %")
    reading = explorer.set("options.armour_model", "protection_only")
    other = api.duel(changed, "brute", n=N, seed=SEED, options={"armour_model": "protection_only"})
    assert reading.current.wins(0) == other.wins(0)
    assert explorer.reset().difference == 0.0


def test_bad_fields_and_values_are_one_error_and_change_nothing(explorer):
    with pytest.raises(DataError, match="write a.PATH, b.PATH or options.NAME"):
        designer.explore("swordsman", "brute", ["c.x"], n=N)
    with pytest.raises(DataError, match="no rule option 'armor_model'"):
        designer.explore("swordsman", "brute", ["options.armor_model"], n=N)
    with pytest.raises(DataError, match="no value at 'main_hand.dmg'"):
        designer.explore("swordsman", "brute", ["a.main_hand.dmg"], n=N)
    with pytest.raises(DataError, match="is not one of the explorer's fields"):
        explorer.set("a.checks.melee", 3)
    with pytest.raises(DataError, match="die size in 'd11'"):
        explorer.set("a.main_hand.damage", "d11")
    assert explorer.values == explorer.base


def test_a_saved_setup_keeps_the_baseline_and_the_pair_and_replays_their_duels(explorer, tmp_path):
    """The saved scenario plays the baseline matchup of catalog names and the explored one beside it,
    under two variants when an option changed; a changed catalog fighter is a file over its catalog
    entry (``base``) holding only the changed fields; the scenario replays the explorer's duels."""
    tmp_path.joinpath("nothing").mkdir()
    path = explorer.save_scenario(tmp_path / "nothing" / "kept")  # no change: the baseline alone
    assert sorted(p.name for p in path.parent.iterdir()) == [outputs.MANIFEST, "scenario.toml"]
    [alone] = run_scenario(load_scenario(str(path)))
    assert alone.wins(0) == explorer.reading().baseline.wins(0)
    explorer.set("b.checks.melee", explorer.base["b.checks.melee"] - 1)
    explorer.set("options.armour_model", "protection_only")
    reading = explorer.reading()
    path = explorer.save_scenario(tmp_path / "kept")
    assert sorted(p.name for p in path.parent.iterdir()) == [outputs.MANIFEST, "brute_explored.toml", "scenario.toml"]
    brute = (path.parent / "brute_explored.toml").read_text()
    assert 'base = "brute"' in brute and len(brute.splitlines()) <= 7 and "melee = " in brute
    sc = load_scenario(str(path))
    results = run_scenario(sc)
    by = {(r.names[1], r.labels["variant"]): r for r in results}
    assert set(by) == {("Brute", "baseline"), ("Brute", "explored"), ("Brute (explored)", "baseline"),
                       ("Brute (explored)", "explored")}
    assert by[("Brute", "baseline")].wins(0) == reading.baseline.wins(0)
    assert (by[("Brute (explored)", "explored")].wins(0), by[("Brute (explored)", "explored")].n) == \
        (reading.current.wins(0), N)
    out = explorer.report(tmp_path / "kept")
    assert out.name == "report.html" and "Swordsman" in out.read_text()


def test_a_save_never_writes_through_a_link_in_its_folder(explorer, tmp_path):
    outside = tmp_path / "outside.toml"
    outside.write_text("mine")
    folder = tmp_path / "kept"
    explorer.set("b.checks.melee", explorer.base["b.checks.melee"] - 1)
    explorer.save_scenario(folder)
    (folder / "brute_explored.toml").unlink()
    (folder / "brute_explored.toml").symlink_to(outside)
    with pytest.raises(DataError, match=r"^save_scenario: .*kept holds files brutal-sim did not write "
                       r"\(brute_explored.toml\)"):
        explorer.save_scenario(folder)
    assert outside.read_text() == "mine" and (folder / "brute_explored.toml").is_symlink()
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "scenario.toml").symlink_to(outside)
    with pytest.raises(DataError, match="did not write"):
        explorer.save_scenario(mine)
    assert outside.read_text() == "mine"


def test_a_save_replaces_its_own_folder_and_refuses_others(explorer, tmp_path):
    folder = tmp_path / "kept"
    explorer.save_scenario(folder)
    explorer.set("a.main_hand.damage", "d12")
    explorer.save_scenario(folder)
    assert 'damage = "d12"' in (folder / "swordsman_explored.toml").read_text()
    (folder / "notes.txt").write_text("keep me")
    with pytest.raises(DataError, match=r"did not write \(notes.txt\)"):
        explorer.save_scenario(folder)
    assert (folder / "notes.txt").read_text() == "keep me"
    (tmp_path / "file").write_text("")
    with pytest.raises(DataError, match=r"^save_scenario: .*file is a file; give a folder"):
        explorer.save_scenario(tmp_path / "file")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "kept"]


@pytest.mark.parametrize("name_a, name_b", [("Scenario", "Brute"), ("Щ" * 200, "Щ" * 200)],
                         ids=["named-scenario", "200-cyrillic"])
def test_saved_file_names_never_collide_and_fit_the_file_system(tmp_path, name_a, name_b):
    a = with_changes(api.load_fighter("swordsman"), {"name": name_a})
    b = with_changes(api.load_fighter("brute"), {"name": name_b})
    explorer = designer.explore(a, b, ["a.checks.melee"], n=N, seed=SEED)
    path = explorer.save_scenario(tmp_path / "kept")
    files = {p.name for p in path.parent.iterdir()} - {outputs.MANIFEST}
    assert len(files) == (2 if name_b == "Brute" else 3) and "scenario.toml" in files  # the catalog's brute: no file
    assert all(len(f.encode()) <= 255 for f in files)
    [result] = run_scenario(load_scenario(str(path)))
    reading = explorer.reading()
    assert (result.wins(0), result.wins(1)) == (reading.current.wins(0), reading.current.wins(1))


def test_the_widgets_drive_the_explorer(explorer, tmp_path):
    pytest.importorskip("ipywidgets")
    box = explorer.widget()
    controls = box.children[:len(FIELDS)]
    text = box.children[len(FIELDS)]
    assert [c.description for c in controls] == FIELDS
    controls[0].value = "d12"
    assert explorer.values["a.main_hand.damage"] == "d12"
    assert explorer.reading().text() in text.value.replace("&#x27;", "'")
    folder, buttons, status = box.children[-2].children[0], box.children[-2].children[1:], box.children[-1]
    (tmp_path / "file").write_text("")
    folder.value = str(tmp_path / "file")
    buttons[1].click()  # save scenario
    assert "is a file; give a folder" in status.value and (tmp_path / "file").read_text() == ""
    # the curve is an image of both setups (the baseline dashed), redrawn on every reading
    plot = box.children[len(FIELDS) + 1]
    assert plot.format == "png" and bytes(plot.value).startswith(b"\x89PNG")
    before = bytes(plot.value)
    # set() and reset() from code move the controls: a control never shows another value than is played
    explorer.set("a.main_hand.damage", "d6")
    assert controls[0].value == "d6" and bytes(plot.value) != before
    assert explorer.reading().text() in text.value.replace("&#x27;", "'")
    buttons[0].click()  # reset
    assert [c.value for c in controls] == [explorer.base[k] for k in FIELDS] and explorer.values == explorer.base


def test_the_curve_shows_both_setups_and_the_paired_difference(explorer):
    reading = explorer.set("a.main_hand.damage", "d12")
    fig = reading.figure()
    (ax,) = fig.axes
    labels = [ln.get_label() for ln in ax.get_lines()]
    assert [lab.split(", ")[1].split(":")[0] for lab in labels] == ["baseline"] * 2 + ["current"] * 2
    assert [ln.get_linestyle() for ln in ax.get_lines()] == ["--", "--", "-", "-"]
    # each curve ends at its setup's win rate; the title carries the paired change
    assert ax.get_lines()[2].get_ydata()[-1] == pytest.approx(100 * reading.win_rate)
    assert ax.get_lines()[0].get_ydata()[-1] == pytest.approx(100 * reading.baseline.wins(0) / N)
    assert f"{100 * reading.difference:+.1f} points against the baseline" in ax.get_title()


def test_named_fields_offer_the_catalog_and_labels_are_refused():
    ex = designer.explore("swordsman", "brute", ["a.tactic", "a.main_hand", "b.reaction"], n=200, seed=SEED)
    assert ex.base == {"a.tactic": "single", "a.main_hand": "arming_sword", "b.reaction": ex.base["b.reaction"]}
    assert {"single", "feint", "furious"} <= set(ex.choices["a.tactic"]) and len(ex.choices["a.tactic"]) > 10
    assert {"arming_sword", "longsword", "mace"} <= set(ex.choices["a.main_hand"])
    assert ex.choices["b.reaction"] == ["best", "parry", "dodge", "none"]
    reading = ex.set("a.main_hand", "mace")
    changed = with_changes(api.load_fighter("swordsman"), {"main_hand": "mace"})
    assert reading.current.wins(0) == api.duel(changed, "brute", n=200, seed=SEED).wins(0)
    two_handed = ex.set("a.main_hand", "longsword")  # B-7.6: the shield goes, as with --set a.main_hand=longsword
    alone = with_changes(api.load_fighter("swordsman"), {"main_hand": "longsword"})
    assert alone.off_hand is None
    assert two_handed.current.wins(0) == api.duel(alone, "brute", n=200, seed=SEED).wins(0)
    with pytest.raises(DataError, match="no zone for the aiming tactic"):
        ex.set("a.tactic", "aimed")  # a catalog item the fighter cannot hold: one error, nothing changed
    assert ex.values["a.tactic"] == "single" and ex.values["a.main_hand"] == "longsword"
    for label in ("a.name", "a.main_hand.name", "b.description"):
        with pytest.raises(DataError, match="only labels the fighter and changes no duel"):
            designer.explore("swordsman", "brute", [label], n=200)
