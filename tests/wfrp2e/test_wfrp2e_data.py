"""The WFRP 2e catalog and fighter data: every bundled file loads, derived values, variants."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from wfrp2e_util import fighter

from brutal_sim.core.errors import DataError
from brutal_sim.core.ruleset import get_ruleset, resolve_ruleset
from brutal_sim.core.variants import set_path
from brutal_sim.rulesets.wfrp2e import RULESET, layout as L
from brutal_sim.rulesets.wfrp2e.catalog import Catalog
from brutal_sim.rulesets.wfrp2e.compile import FISTS, compile_fighter

BRUTAL_NAMES = {"swordsman", "brute", "duelist", "knight", "militia", "brawler"}


def test_catalog_has_the_bestiary_and_the_brutal_archetypes():
    names = set(RULESET.fighter_names())
    assert {"orc", "goblin"} | BRUTAL_NAMES <= names
    assert BRUTAL_NAMES <= set(get_ruleset("brutal").fighter_names())  # the same concepts, by name
    for name in names:
        f = RULESET.load_fighter(name)
        assert f.ruleset == "wfrp2e" and f.name


def test_orc_profile_w9_3():
    orc = RULESET.load_fighter("orc")
    assert (orc.ws, orc.s, orc.t, orc.ag, orc.a, orc.w, orc.strength_bonus, orc.toughness_bonus) == \
        (35, 35, 45, 25, 1, 12, 3, 4)
    assert orc.main_hand.name == "choppa" and orc.armour == []


def test_w1_3_bonuses_derived_and_overridable():
    assert fighter(s=47, t=31).strength_bonus == 4 and fighter(s=47, t=31).toughness_bonus == 3
    assert fighter(s=47, sb=5).strength_bonus == 5


#: the digest's W-9.1 rows → the catalog's weapons (the halberd's Special is two grips; cavalry weapons
#: and the built-in unarmed attack are checked apart)
W9_1_NAMES = {"Hand Weapon (sword, axe, club…)": ["hand_weapon", "choppa"], "Dagger": ["dagger"],
              "Gauntlet / knuckle-duster": ["gauntlet"], "Improvised weapon": ["improvised"],
              "Quarter staff": ["quarter_staff"], "Shield": ["shield"], "Spear": ["spear"], "Foil": ["foil"],
              "Rapier": ["rapier"], "Flail": ["flail"], "Morning star": ["morning_star"], "Buckler": ["buckler"],
              "Main gauche": ["main_gauche"], "Sword-breaker": ["sword_breaker"], "Great weapon": ["great_weapon"],
              "Halberd": ["halberd_fast", "halberd_heavy"], "Unarmed": [], "Demilance": [], "Lance": []}


def _w9_1_rows() -> list[list[str]]:
    """The cells of the digest's W-9.1 table (weapon, group, damage, qualities, 2H)."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "rules" / "wfrp2e.md").read_text(encoding="utf-8")
    table = text.split("### W-9.1", 1)[1].split("###", 1)[0]
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in table.splitlines()
            if line.startswith("|")]
    return rows[2:]


def test_w9_1_the_bundled_weapons_carry_the_digest_numbers():
    """Every melee weapon row of W-9.1: group, damage SB ± n, qualities and two-handedness as the
    digest gives them. The halberd's Special (Fast, or Impact + Slow) is two grips; unarmed is built
    in (SB − 4, AP doubled, W-4.9); the cavalry weapons are not in the catalog."""
    weapons = Catalog.bundled().weapons
    rows = _w9_1_rows()
    assert sorted(r[0] for r in rows) == sorted(W9_1_NAMES)
    groups = {"basic": "basic", "fencing": "fencing", "flail": "flail", "parry": "parry",
              "two-handed": "two_handed", "cavalry": "cavalry"}
    for name, group, damage, qualities, two_handed in rows:
        m = re.fullmatch(r"SB(?:([+−-])(\d))?", damage)
        bonus = 0 if m.group(1) is None else int(m.group(2)) * (1 if m.group(1) == "+" else -1)
        listed = {q.strip().lower().replace(" ", "_") for q in re.sub(r"\s*\([^)]*\)", "", qualities).split(",")}
        listed.discard("—")
        for key in W9_1_NAMES[name]:
            w = weapons[key]
            assert (w.group, w.damage, w.two_handed) == (groups[group], bonus, two_handed == "yes"), key
            if name == "Halberd":
                grip = {"halberd_fast": {"fast"}, "halberd_heavy": {"impact", "slow"}}[key]
                assert set(w.qualities) == listed | grip, key
            else:
                assert set(w.qualities) == listed, key
        if name == "Unarmed":
            assert (bonus, FISTS.damage) == (-4, -4) and compile_fighter(fighter())[
                L.P_WEAPONS + L.SLOT_FISTS * L.WN + L.W_UNARMED] == 1
    assert not {"demilance", "lance", "halberd"} & set(weapons)
    assert {k for k, w in weapons.items() if w.off_hand} == {"buckler", "dagger", "hand_weapon", "choppa",
                                                             "main_gauche", "shield", "sword_breaker"}  # W-4.10


def test_w9_2_armour_adds_per_location_and_the_largest_ag_penalty_applies():
    f = fighter(armour=["full_mail", "helmet", "sleeved_mail_coat"], dodge=40)
    assert f.armour_points() == {"head": 5, "body": 5, "arm": 5, "leg": 5}
    row = compile_fighter(f)
    assert row[L.P_AG_PENALTY] == 10 and row[L.P_DODGE] == 30
    assert list(row[L.P_AP:L.P_AP + 4]) == [5, 5, 5, 5]


def test_fortune_defaults_to_fate():
    assert fighter(fate=2).fortune_points == 2 and fighter(fate=2, fortune=0).fortune_points == 0


def test_fighter_data_round_trip_and_variant():
    duelist = RULESET.load_fighter("duelist")
    data = RULESET.fighter_data(duelist)
    assert RULESET.fighter_from_data(data, "round trip", "x") == duelist
    set_path(data, "main_hand.damage", 1, "variant")
    set_path(data, "ws", 55, "variant")
    v = RULESET.fighter_from_data(data, "variant", "x")
    assert v.ws == 55 and v.main_hand.damage == 1 and v.main_hand.has("fast")


def test_resolution_by_names_and_objects():
    assert resolve_ruleset(["orc", "goblin"]).name == "wfrp2e"
    assert resolve_ruleset(["swordsman", "brute"]).name == "brutal"  # both catalogs: Brutal first
    assert resolve_ruleset(["swordsman", "brute"], "wfrp2e").name == "wfrp2e"
    assert resolve_ruleset([RULESET.load_fighter("orc"), "goblin"]).name == "wfrp2e"
    with pytest.raises(DataError, match="is a wfrp2e fighter"):
        resolve_ruleset([RULESET.load_fighter("orc"), "goblin"], "brutal")


@pytest.mark.parametrize("fields,needle", [
    ({"w": 0}, "w"), ({"dodge": 200}, "dodge"), ({"fate": -1}, "fate"), ({"tb": 11}, "tb"),
    ({"reaction": "block"}, "reaction"), ({"main_hand": "sabre"}, "unknown weapon 'sabre'"),
    ({"armour": [{"head": 2, "neck": 1}]}, "neck"), ({"talents": ["lightning_parry"]}, "unknown talent"),
])
def test_bad_fields(fields, needle):
    with pytest.raises(DataError, match=needle):
        fighter(**fields)


def test_catalog_errors_name_the_file(tmp_path):
    (tmp_path / "fighters").mkdir()
    (tmp_path / "weapons.toml").write_text("[club]\ndamage = 0\nqualities = ['heavy']\n")
    (tmp_path / "armour.toml").write_text("")
    (tmp_path / "talents.toml").write_text("")
    with pytest.raises(DataError, match="catalog/wfrp2e/weapons.toml: club.qualities"):
        Catalog.from_dir(tmp_path)
