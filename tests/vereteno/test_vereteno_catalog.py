"""The bundled Vereteno catalog against the digest's tables (``docs/rules/vereteno.md`` V-8.2,
V-8.3, V-8.4), parsed from the Markdown, and the archetypes' derived values."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from brutal_sim.rulesets.vereteno.catalog import Catalog

DIGEST = (Path(__file__).resolve().parents[2] / "docs" / "rules" / "vereteno.md").read_text(encoding="utf-8")


def table(heading: str) -> list[list[str]]:
    """Data rows of the first Markdown table after ``heading``."""
    text = DIGEST[DIGEST.index(heading):]
    rows = []
    for line in text.splitlines()[1:]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            if not set(cells[0]) <= set("-") and cells[0] not in {"weapon [app]", "armour [app]", "d66"}:
                rows.append(cells)
        elif rows:
            break
    return rows


def number(text: str) -> int:
    return int(text.replace("−", "-").replace("+", ""))


def test_weapons_match_v8_2():
    cat = Catalog.bundled()
    by_ru = {w.name_ru: w for w in cat.weapons.values()}
    checked = 0
    for name, mod, init, dmg, crit, props in table("### V-8.2"):
        ru = re.search(r"\[(.+?)\]", name)
        if ru is None:  # the unarmed profile row (V-5.6) is the kernel's bare hands
            continue
        if "energy" in props:
            assert ru.group(1) not in by_ru  # the fuel-cell rule is not modelled
            continue
        w = by_ru[ru.group(1)]
        assert (w.modifier, w.initiative, w.damage) == (number(mod), number(init), number(dmg)), name
        assert w.crit == (0 if crit == "—" else number(crit)), name
        want = {p.strip().replace("armour-piercing", "armour_piercing").replace("broad blade", "broad_blade")
                .split(" (")[0] for p in props.split(",") if p.strip() != "—"}
        assert set(w.properties) == want, name
        assert w.two_handed == ru.group(1).startswith("Двуручн"), name
        checked += 1
    assert checked == 20


def test_armour_and_shields_match_v8_3():
    cat = Catalog.bundled()
    armour = {a.name_ru: a for a in cat.armour.values()}
    shields = {s.name_ru: s for s in cat.shields.values()}
    rows = table("### V-8.3")
    for name, weight, cls, _notes in rows:
        ru = re.search(r"\[(.+?)\]", name).group(1)
        if weight == "shield":
            assert shields[ru].protection == int(cls)
        else:
            assert (armour[ru].protection, armour[ru].weight, armour[ru].quality) == (int(cls), weight, 0)
    assert len(armour) + len(shields) == len(rows) == 27


def test_traumas_match_v8_4():
    traumas = Catalog.bundled().traumas
    rows = table("### V-8.4")
    assert [r[0] for r in rows] == list(traumas)
    for key, name, death, deadline, codes, heal in rows:
        t = traumas[key]
        assert (t.name, t.death, t.deadline, t.heal) == (name, death.replace("−", "-"), deadline, heal)
        for m in re.finditer(r"SHOCK\((\d)\)|BLEED\((\d)\)", codes):
            if m.group(1):
                assert t.shock == int(m.group(1)), key
            else:
                assert t.bleed == int(m.group(2)), key
        for code, flag in (("DROP", t.drop), ("PRONE", t.prone), ("DMGCHK", t.dmgchk), ("KO", t.ko),
                           ("PARA", t.para), ("DMG_TURN", t.dmg_turn), ("NO2H", t.no2h), ("DEAD", t.dead),
                           ("HALFSPD", t.halfspd)):
            assert flag == bool(re.search(rf"\b{code}\b", codes)), (key, code)
        pens = {k: 0 for k in ("melee", "agil", "shoot", "stealth", "str", "perc", "infl", "prof")}
        for m in re.finditer(r"PEN\(([a-z, ]+), −(\d)\)", codes):
            for skill in m.group(1).split(","):
                pens[skill.strip()] = int(m.group(2))
        assert t.penalties.model_dump() == pens, key
        assert t.shock == 0 or "SHOCK" in codes


@pytest.mark.parametrize("name,health,will", [("swordsman", 7, 4), ("brute", 6, 5), ("duelist", 8, 5),
                                              ("knight", 6, 6), ("militia", 5, 3), ("brawler", 8, 5)])
def test_archetypes_health_and_will(name, health, will):
    f = Catalog.bundled().fighter(name)
    assert (f.health, f.will) == (health, will)
