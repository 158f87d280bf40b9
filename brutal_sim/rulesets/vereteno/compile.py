"""Validated Vereteno models → the kernels' int64 arrays (layout :mod:`.layout`)."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ...core.battle import TARGETING_CODES
from . import layout as L
from .model import DIAL_PROPERTIES, FEAR, Fighter, Gun, Trauma, Weapon


def _weapon(row: np.ndarray, slot: int, w: Weapon | None, base: int | None = None) -> None:
    """A melee weapon's record in weapon ``slot`` (or at ``base``: a thrown item, V-11.20)."""
    base = L.P_WEAPONS + slot * L.WN if base is None else base
    if w is None:
        return
    row[base + L.W_PRESENT] = 1
    row[base + L.W_MOD] = w.modifier
    row[base + L.W_INIT] = w.initiative
    row[base + L.W_DAMAGE] = w.damage
    row[base + L.W_CRIT] = w.crit
    row[base + L.W_LIGHT] = "light" in w.properties
    row[base + L.W_HEAVY] = "heavy" in w.properties
    row[base + L.W_TWO_HANDED] = w.two_handed
    row[base + L.W_PIERCING] = "armour_piercing" in w.properties
    row[base + L.W_LONG] = "long" in w.properties


def _gun(row: np.ndarray, g: Gun | None) -> None:
    if g is None:
        return
    base = L.P_WEAPONS + L.SLOT_GUN * L.WN
    row[base + L.W_PRESENT] = 1
    row[base + L.W_MOD] = g.modifier
    row[base + L.W_INIT] = g.initiative
    row[base + L.W_DAMAGE] = g.damage
    row[base + L.W_CRIT] = g.crit
    row[base + L.W_PIERCING] = "armour_piercing" in g.properties
    row[base + L.W_RANGE] = L.BAND_CODES[g.range]
    row[base + L.W_AUTOMATIC] = "automatic" in g.properties
    row[base + L.W_SINGLE_SHOT] = "single_shot" in g.properties
    row[base + L.W_LONG_RELOAD] = "long_reload" in g.properties
    row[base + L.W_MAGAZINE] = g.magazine
    row[base + L.W_HIGH_CAPACITY] = "high_capacity" in g.properties
    row[base + L.W_DIALS] = sum(1 << k for k, p in enumerate(DIAL_PROPERTIES) if p in g.properties)


def compile_fighter(f: Fighter, side: int = 0) -> np.ndarray:
    """One fighter of ``side`` (0 a, 1 b) → ``int64[NF]``."""
    row = np.zeros(L.NF, dtype=np.int64)
    row[L.P_SIDE] = side
    row[L.P_TARGETING] = TARGETING_CODES[f.targeting]
    row[L.P_BODY] = f.attributes.physique
    row[L.P_AGILITY] = f.attributes.agility
    row[L.P_MELEE] = f.skills.melee
    row[L.P_AGIL_SKILL] = f.skills.nimbleness
    row[L.P_HEALTH] = f.health
    row[L.P_WILL] = f.will
    row[L.P_AP] = f.action_points
    row[L.P_ARMOUR_CLASS] = f.armour.protection if f.armour else 0
    row[L.P_ARMOUR_QUALITY] = f.armour.quality if f.armour else 0
    row[L.P_SHIELD_CLASS] = f.shield.protection if f.shield else 0
    row[L.P_T_KIND] = L.KIND_CODES[f.tactic.attack]
    row[L.P_T_KEEP] = f.tactic.keep
    row[L.P_REACTION] = L.REACTION_CODES[f.reaction]
    row[L.P_ATTACK_SPENDING] = L.ATTACK_SPENDING_CODES[f.attack_spending]
    row[L.P_DEFENCE_SPENDING] = L.DEFENCE_SPENDING_CODES[f.defence_spending]
    row[L.P_CRY_POOL] = f.attributes.empathy + f.skills.influence
    row[L.P_T_CRY] = f.tactic.battle_cry
    row[L.P_SHOOT_POOL] = f.attributes.agility + f.skills.shooting
    row[L.P_SPEED] = f.speed
    row[L.P_COVER] = f.cover
    row[L.P_SIZE] = f.size_mod
    row[L.P_SUPPRESS_AT] = f.suppress_at
    row[L.P_PERC_POOL] = f.attributes.intellect + f.skills.perception
    row[L.P_T_SHOT] = L.SHOT_CODES[f.tactic.shot]
    row[L.P_T_MOVE] = L.MOVE_CODES[f.tactic.move]
    row[L.P_T_ENGAGED] = L.ENGAGED_CODES[f.tactic.engaged]
    row[L.P_T_BRACE] = f.tactic.brace
    row[L.P_T_OVERWATCH] = f.tactic.overwatch
    row[L.P_T_REDRAW] = f.tactic.redraw
    row[L.P_FAST_HAND] = f.fastest_hand
    row[L.P_T_PRONE] = f.tactic.prone
    row[L.P_PRONE] = f.prone
    row[L.P_STEALTH_POOL] = f.attributes.agility + f.skills.stealth
    row[L.P_SPREAD] = f.spread == "one_each"
    row[L.P_THROW_POOL] = f.attributes.physique + f.skills.strength
    row[L.P_N_THROWN] = len(f.thrown)
    row[L.P_COMMANDER] = -1
    row[L.P_ORDER_FIRST] = f.order_first
    row[L.P_ORDER] = L.ORDER_CODES[f.order]
    row[L.P_LEAD_POOL] = f.attributes.empathy + f.skills.leadership
    row[L.P_THREAT_TARGETS] = f.threat_targets
    row[L.P_TAUNT] = f.taunt
    fear = FEAR[f.fear]
    row[L.P_FEAR] = L.FEAR_IMMUNE if fear is None else fear
    row[L.P_INSPIRE] = f.inspire
    row[L.P_LEADERSHIP] = f.skills.leadership
    _weapon(row, L.SLOT_WEAPON, f.weapon)
    _gun(row, f.gun)
    for k, item in enumerate(f.thrown):
        _weapon(row, 0, item, L.P_THROWN + k * L.WN)
    unarmed = L.P_WEAPONS + L.SLOT_UNARMED * L.WN
    for field, value in L.UNARMED_PROFILE.items():
        row[unarmed + field] = value
    return row


def compile_pair(a: Fighter, b: Fighter) -> np.ndarray:
    """Side a and side b → ``int64[2, NF]``."""
    return np.ascontiguousarray(np.stack([compile_fighter(a, 0), compile_fighter(b, 1)]))


def compile_sides(side_a: Sequence[Fighter], side_b: Sequence[Fighter]) -> np.ndarray:
    """Two sides → ``int64[N, NF]`` (V-14): side a's fighters in line order, then side b's, each row
    with its side and place in the line (``P_SIDE``, ``P_RANK``, docs/groups.md), its targeting
    policy, the round it arrives (``P_ARRIVE``) and the row of its commander (``P_COMMANDER``, V-13.4:
    the first other fighter of its side whose name is ``commander``, case aside, −1 if none is in the fight)."""
    rows = []
    for side, fighters in enumerate((side_a, side_b)):
        base = 0 if side == 0 else len(side_a)
        for rank, f in enumerate(fighters):
            row = compile_fighter(f, side)
            row[L.P_RANK] = rank
            row[L.P_ARRIVE] = f.arrive_round
            if f.commander:
                row[L.P_COMMANDER] = next((base + r for r, c in enumerate(fighters)
                                           if r != rank and c.name.casefold() == f.commander.casefold()), -1)
            rows.append(row)
    return np.ascontiguousarray(np.stack(rows))


def compile_traumas(traumas: dict[str, Trauma]) -> np.ndarray:
    """The d66 table (keys 11 … 66 in order) → ``int64[36, NT]`` of combat codes (``T_*``)."""
    table = np.zeros((36, L.NT), dtype=np.int64)
    for r, t in enumerate(traumas.values()):
        table[r, L.T_SHOCK] = t.shock
        table[r, L.T_DROP] = t.drop
        table[r, L.T_PRONE] = t.prone
        table[r, L.T_PEN_MELEE] = t.penalties.melee
        table[r, L.T_PEN_AGIL] = t.penalties.agil
        table[r, L.T_DMGCHK] = t.dmgchk
        table[r, L.T_OUT] = t.ko or t.para
        table[r, L.T_BLEED] = t.bleed
        table[r, L.T_DMG_TURN] = t.dmg_turn
        table[r, L.T_NO2H] = t.no2h
        table[r, L.T_DEAD] = t.dead
        table[r, L.T_PEN_INFL] = t.penalties.infl
        table[r, L.T_HALFSPD] = t.halfspd
        table[r, L.T_PEN_SHOOT] = t.penalties.shoot
        table[r, L.T_PEN_STR] = t.penalties.str
    return table
