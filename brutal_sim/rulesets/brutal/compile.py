"""Compile validated fighters into the flat int arrays the kernels read (layout :mod:`.layout`;
the options' row is :func:`.options.compile_options`)."""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np

from . import layout as L
from .catalog import Catalog
from .model import ZONES, Fighter, Tactic, Weapon


def _weapon_row(row: np.ndarray, slot: int, weapon: Weapon | None) -> None:
    base = L.P_WEAPONS + slot * L.WN
    if weapon is None:
        return
    dice = weapon.dice
    row[base + L.W_PRESENT] = 1
    row[base + L.W_NDICE] = dice.count
    row[base + L.W_SIDES] = dice.sides
    row[base + L.W_BONUS] = dice.bonus
    row[base + L.W_TYPE] = L.DAMAGE_TYPE_CODES[weapon.type]
    row[base + L.W_PEN] = weapon.penetration
    row[base + L.W_DUR] = weapon.durability
    row[base + L.W_TWO_HANDED] = int(weapon.two_handed)
    row[base + L.W_REACH] = weapon.reach
    row[base + L.W_PARRY_BONUS] = weapon.parry_bonus
    if weapon.ranges is not None:
        row[base + L.W_SHORT], row[base + L.W_MEDIUM], row[base + L.W_LONG] = weapon.ranges
        row[base + L.W_RELOAD] = weapon.reload


def tactic_row(row: np.ndarray, t: Tactic, zone: int) -> None:
    row[L.P_AIM_ZONE] = zone
    row[L.P_T_ATTACK] = L.TACTIC_ATTACK_CODES[t.attack]
    row[L.P_T_MOD] = t.attack_modifier
    row[L.P_T_UNARMED_MOD] = t.attack_modifier if t.unarmed_attack_modifier is None else t.unarmed_attack_modifier
    row[L.P_T_STANCE] = t.stance
    row[L.P_T_FULL] = int(t.full_action)
    row[L.P_T_FULL_PEN] = int(t.full_action if t.reaction_penalty is None else t.reaction_penalty)
    row[L.P_T_NO_REACT] = int(t.no_reactions)
    row[L.P_T_NO_OA] = int(t.no_opportunity_attacks)
    row[L.P_T_FEINT] = int(t.feint_first)
    row[L.P_T_GRAPPLE_ACTION] = L.GRAPPLE_ACTION_CODES[t.grapple_action]
    row[L.P_T_RANGED] = int(t.ranged)
    row[L.P_T_KITE] = int(t.kite)
    row[L.P_T_RUN] = int(t.run)
    row[L.P_T_DROP] = int(t.drop_ranged)
    row[L.P_T_CHARGE] = int(t.charge)
    row[L.P_T_READY] = int(t.ready)
    row[L.P_T_FULL_UNARMED] = L.UNARMED_FULL_CODES[t.unarmed_full_attack]


def check_totals(f: Fighter, formula: Mapping[str, Sequence[str]] | None = None) -> dict[str, int]:
    """Each check's bonus before talents (B-1.1): the stat block's total, or by ``formula`` the sum
    of the named attributes and ``skill`` (the fighter's skill of that check)."""
    totals = f.checks.model_dump()
    for check, terms in (formula or {}).items():
        totals[check] = sum(getattr(f.skills, check) if t == "skill" else getattr(f.attributes, t) for t in terms)
    return totals


def compile_fighter(f: Fighter, tactic: str | None = None, reaction: str | None = None,
                    formula: Mapping[str, Sequence[str]] | None = None) -> np.ndarray:
    """One fighter → ``int64[NF]`` (layout ``P_*``); talents are folded into the totals.

    ``tactic`` (a bundled tactic name, ``aimed:<zone>`` style) and ``reaction`` override the
    fighter's own fields; ``formula`` computes checks from attributes and skills (B-1.1).
    """
    if tactic is not None or reaction is not None:
        f = Catalog.bundled().with_behaviour(f, tactic, reaction)
    row = np.zeros(L.NF, dtype=np.int64)
    t = f.talent_total
    c = check_totals(f, formula)
    for check, index in (("melee", L.P_MELEE), ("ranged", L.P_RANGED), ("dodge", L.P_DODGE),
                         ("athletics", L.P_ATHLETICS), ("toughness", L.P_TOUGHNESS), ("resolve", L.P_RESOLVE),
                         ("willpower", L.P_WILLPOWER)):
        row[index] = c[check] + t(check)
    # B-9.2: the most hits of an unarmed full attack: the melee skill where the check formula names it
    # (check_bonus = attribute_plus_skill), else the melee check's total (stat blocks give totals, B-1.1)
    row[L.P_MELEE_SKILL] = f.skills.melee if "skill" in (formula or {}).get("melee", ()) else row[L.P_MELEE]
    row[L.P_ENDURANCE] = f.attributes.endurance
    row[L.P_STRENGTH] = f.attributes.strength
    row[L.P_AGILITY] = f.attributes.agility
    for i, level in enumerate(f.damage_levels):
        row[L.P_DL0 + i] = level + t("damage_levels")
    row[L.P_INIT_MOD] = t("initiative")
    row[L.P_INIT_TALENT] = int(t("initiative") > 0)
    row[L.P_AMBIDEXTROUS] = int(f.has_flag("ambidexterity"))
    row[L.P_PAIRED] = int(f.has_flag("paired_weapons"))
    row[L.P_OA_PER_ROUND] = 1 + sum(x.flags.extra_opportunity_attacks for x in f.talents)
    tactic_row(row, f.tactic, f.aim_zone)
    row[L.P_REACTION] = L.REACTION_CODES[f.reaction]
    row[L.P_ATTACK_MOD] = t("attack")
    row[L.P_PARRY_MOD] = t("parry")
    row[L.P_DAMAGE_MOD] = t("damage")
    row[L.P_NCELLS] = 4 + f.attributes.endurance
    row[L.P_FEAR] = f.fear
    row[L.P_FATIGUE0] = f.fatigue
    row[L.P_MOVEMENT] = f.movement
    row[L.P_SIZE] = L.SIZE_NAMES.index(f.size) - L.SIZE_MEDIUM  # B-8 target size
    row[L.P_TARGETING] = L.TARGETING_CODES[f.targeting]
    _weapon_row(row, L.SLOT_MAIN, f.main_hand)
    _weapon_row(row, L.SLOT_OFF, f.off_hand)
    fists = L.P_WEAPONS + L.SLOT_FISTS * L.WN
    # B-7.7: unarmed damage d4 + strength, shock, reach 0
    row[fists + L.W_PRESENT] = 1
    row[fists + L.W_NDICE] = 1
    row[fists + L.W_SIDES] = 4
    row[fists + L.W_BONUS] = f.attributes.strength
    row[fists + L.W_TYPE] = L.DT_SHOCK
    row[fists + L.W_UNARMED] = 1
    # armour: per zone the piece with the highest protection (then toughness) counts
    for z, zone_name in enumerate(ZONES):
        pieces = [a for a in f.armour if zone_name in a.zones]
        if pieces:
            best = max(pieces, key=lambda a: (a.protection, a.toughness))
            row[L.P_ARMOUR + 2 * z] = best.protection
            row[L.P_ARMOUR + 2 * z + 1] = best.toughness
    return row


def compile_pair(a: Fighter, b: Fighter, formula: Mapping[str, Sequence[str]] | None = None,
                 **overrides: str | None) -> np.ndarray:
    """Two fighters → ``int64[2, NF]``; ``tactic_a``, ``reaction_b`` … override fields."""
    return compile_sides([a], [b], formula, **overrides)


def compile_sides(side_a: Sequence[Fighter], side_b: Sequence[Fighter],
                  formula: Mapping[str, Sequence[str]] | None = None, **overrides: str | None) -> np.ndarray:
    """Two sides → ``int64[N, NF]``: side a's fighters in order, then side b's, each row with its
    side and place in the line (``P_SIDE``, ``P_RANK``, docs/groups.md). ``tactic_a``,
    ``reaction_b`` … override the fields of every fighter of that side."""
    rows = []
    for side, (key, fighters) in enumerate((("a", side_a), ("b", side_b))):
        for rank, f in enumerate(fighters):
            row = compile_fighter(f, overrides.get(f"tactic_{key}"), overrides.get(f"reaction_{key}"), formula)
            row[L.P_SIDE] = side
            row[L.P_RANK] = rank
            rows.append(row)
    return np.stack(rows)
