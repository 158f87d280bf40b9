"""The bundled catalog and the data formats."""

from __future__ import annotations

import numpy as np
import pytest

from brutal_sim.core.dice import DIE_STEPS, Dice, parse_dice
from brutal_sim.core.errors import DataError
from brutal_sim.rulesets.brutal import layout as L
from brutal_sim.rulesets.brutal.catalog import load_rules
from brutal_sim.rulesets.brutal.compile import compile_fighter


def test_bundled_fighters_load(catalog):
    names = sorted(catalog.fighter_files)
    assert len(names) >= 6
    for name in names:
        f = catalog.fighter(name)
        row = compile_fighter(f)
        assert row.shape == (L.NF,)
        assert row[L.P_NCELLS] == 4 + f.attributes.endurance


def test_swordsman_compiles_to_expected_numbers(catalog):
    row = compile_fighter(catalog.fighter("swordsman"))
    main = L.P_WEAPONS
    assert row[main + L.W_SIDES] == 8 and row[main + L.W_PEN] == 1 and row[main + L.W_TYPE] == L.DT_CUTTING
    assert row[L.P_WEAPONS + L.WN + L.W_PARRY_BONUS] == 2  # heater shield
    assert row[L.P_PARRY_MOD] == 1  # shield_master talent
    assert row[L.P_ARMOUR + 2 * L.ZONE_TORSO] == 3  # mail hauberk
    assert row[L.P_ARMOUR + 2 * L.ZONE_HEAD + 1] == 4  # open helm toughness
    assert row[L.P_ARMOUR + 2 * L.ZONE_LLEG] == 0
    fists = L.P_WEAPONS + 2 * L.WN
    assert row[fists + L.W_BONUS] == 2 and row[fists + L.W_TYPE] == L.DT_SHOCK  # d4 + strength (B-7.7)


@pytest.mark.parametrize("text,dice", [("d8", Dice(1, 8, 0)), ("d8+1", Dice(1, 8, 1)), ("2d6-1", Dice(2, 6, -1)),
                                       ("к6", Dice(1, 6, 0)), ("3", Dice(0, 1, 3)), (" D12 + 2 ", Dice(1, 12, 2))])
def test_dice_expressions(text, dice):
    assert parse_dice(text) == dice


@pytest.mark.parametrize("text", ["d7", "d8++1", "x", "0d6", "d", "2d6*2", ""])
def test_malformed_dice(text):
    with pytest.raises(ValueError):
        parse_dice(text)


def test_die_steps():
    """B-4.4: the die sizes in the order a broken weapon's die drops, one step at a time (d2 stays)."""
    def step_down(sides: int) -> int:
        return DIE_STEPS[max(0, DIE_STEPS.index(sides) - 1)]

    assert [step_down(s) for s in (12, 10, 8, 6, 4, 3, 2)] == [10, 8, 6, 4, 3, 2, 2]


def test_default_zone_table():
    _, (zt,) = load_rules(None, {})
    names = [L.ZONE_GROUP_OF[z] for z in zt]
    assert list(zt[:6]) == [L.ZONE_LLEG, L.ZONE_RLEG] * 3
    assert names.count(0) == 2 and names.count(1) == 8 and names.count(2) == 4 and names.count(3) == 6


def test_custom_zone_table_and_rules_file(tmp_path):
    rules = tmp_path / "rules.toml"
    rules.write_text('[options]\narmour_model = "protection_only"\n\n[zone_table]\ndie = 6\n'
                     '[zone_table.ranges]\n"1-2" = "legs"\n"3-5" = "torso"\n"6" = "head"\n')
    opts, (zt,) = load_rules(str(rules), {"round_cap": "50"})
    assert opts["armour_model"] == "protection_only" and opts["round_cap"] == 50
    assert list(zt) == [L.ZONE_LLEG, L.ZONE_RLEG, 1, 1, 1, 0]


@pytest.mark.parametrize("ranges,message", [('"1-6" = "legs"', "have no zone"), ('"1-20" = "tail"', "unknown zone"),
                                            ('"1-20" = "torso"\n"5" = "head"', "covered twice")])
def test_bad_zone_tables(tmp_path, ranges, message):
    f = tmp_path / "z.toml"
    f.write_text(f"die = 20\n[ranges]\n{ranges}\n")
    with pytest.raises(DataError, match=message):
        load_rules(None, {"zone_table": str(f)})


def test_talents_fold_into_totals(catalog):
    duelist = compile_fighter(catalog.fighter("duelist"))
    assert duelist[L.P_AMBIDEXTROUS] == 1 and duelist[L.P_INIT_MOD] == 2 and duelist[L.P_INIT_TALENT] == 1
    brawler = compile_fighter(catalog.fighter("brawler"))
    assert brawler[L.P_OA_PER_ROUND] == 2 and brawler[L.P_DAMAGE_MOD] == 1
    assert np.all(compile_fighter(catalog.fighter("brute"))[L.P_DL0:L.P_DL0 + 4] == [4, 7, 10, 16])


def test_examples_load():
    from pathlib import Path

    from brutal_sim import api

    root = Path(__file__).resolve().parents[2] / "examples"
    p = api.prepare(str(root / "sergeant.toml"), "knight", rules=str(root / "rules_variant.toml"))[1]
    opts, compiled = p.options, p.compiled
    assert opts["armour_model"] == "protection_only" and opts["round_cap"] == 60
    assert list(compiled.tables[0][:4]) == [L.ZONE_LLEG, L.ZONE_RLEG] * 2


def test_tactics_are_data_and_inline_tactics_compile(tmp_path):
    from brutal_sim.rulesets.brutal.catalog import Catalog

    cat = Catalog.bundled()
    assert {"single", "feint", "defensive", "furious", "aimed", "step", "knockdown",
            "total_defence"} <= set(cat.tactics)
    f = tmp_path / "cautious.toml"
    f.write_text('name = "Cautious fencer"\nmain_hand = "rapier"\n'
                 'tactic = { name = "feint_defensive", feint_first = true, attack_modifier = -2, stance = 2 }\n')
    row = compile_fighter(cat.fighter(str(f)))
    assert (row[L.P_T_FEINT], row[L.P_T_MOD], row[L.P_T_STANCE], row[L.P_T_FULL]) == (1, -2, 2, 0)
    aimed = compile_fighter(cat.with_behaviour(cat.fighter("swordsman"), "aimed:left_leg"))
    assert (aimed[L.P_AIM_ZONE], aimed[L.P_T_MOD], aimed[L.P_T_UNARMED_MOD]) == (L.ZONE_LLEG, -4, -2)
    furious = compile_fighter(cat.fighter("brute"))
    assert (furious[L.P_T_FULL], furious[L.P_T_FULL_PEN], furious[L.P_T_NO_REACT]) == (1, 1, 1)
    td = compile_fighter(cat.with_behaviour(cat.fighter("brute"), "total_defence"))
    assert (td[L.P_T_ATTACK], td[L.P_T_FULL_PEN], td[L.P_T_NO_OA], td[L.P_T_STANCE]) == (L.TA_NONE, 0, 1, 4)


def test_b1_1_checks_from_attributes_and_skills(tmp_path):
    """B-1.1 GAP: option check_bonus = attribute_plus_skill sums an attribute and a skill."""
    from brutal_sim import api

    f = tmp_path / "f.toml"
    f.write_text('name = "Formula"\nchecks = { melee = 9 }\nskills = { melee = 2, dodge = 1, toughness = 3 }\n'
                 'attributes = { agility = 3, mobility = 2, fortitude = 1, strength = 4, endurance = 2 }\n')
    c = api.prepare(str(f), "militia")[1].compiled
    assert c.fighters[0, L.P_MELEE] == 9  # default: the stat block's total
    c = api.prepare(str(f), "militia", options={"check_bonus": "attribute_plus_skill"})[1].compiled
    assert (c.fighters[0, L.P_MELEE], c.fighters[0, L.P_DODGE], c.fighters[0, L.P_TOUGHNESS],
            c.fighters[0, L.P_ATHLETICS]) == (5, 3, 4, 4)
    rules = tmp_path / "r.toml"
    rules.write_text('[options]\ncheck_bonus = "attribute_plus_skill"\n[check_formula]\nmelee = "strength + skill"\n'
                     'toughness = "endurance + fortitude + skill"\n')
    c = api.prepare(str(f), "militia", rules=str(rules))[1].compiled
    assert (c.fighters[0, L.P_MELEE], c.fighters[0, L.P_TOUGHNESS], c.fighters[0, L.P_DODGE]) == (6, 6, 3)
    rules.write_text('[options]\ncheck_bonus = "attribute_plus_skill"\n[check_formula]\nmelee = "luck + skill"\n')
    with pytest.raises(DataError, match="check_formula.melee: unknown term 'luck'"):
        api.prepare(str(f), "militia", rules=str(rules))


def test_armour_needs_zones_and_damage_may_be_a_number(tmp_path):
    from brutal_sim.rulesets.brutal.catalog import Catalog

    cat = Catalog.bundled()
    f = tmp_path / "f.toml"
    f.write_text('armour = [{ protection = 5 }]\n')
    with pytest.raises(DataError, match=r"armour\[0\].zones"):
        cat.fighter(str(f))
    f.write_text('main_hand = { damage = 5, type = "blunt" }\n')
    assert cat.fighter(str(f)).main_hand.dice == Dice(0, 1, 5)
