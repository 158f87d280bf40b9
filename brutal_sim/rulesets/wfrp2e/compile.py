"""Validated WFRP 2e fighters and options → the int64 arrays the kernels read (``layout.py``)."""

from __future__ import annotations

import numpy as np

from ...core.options import RuleOptions, option_row
from . import layout as L
from .crit import empty_tables, load_crit_table
from .model import Fighter, Weapon

#: W-4.9: fighting unarmed is SB − 4 and doubles the target's AP
FISTS = Weapon(name="unarmed", damage=-4)


def _weapon(row: np.ndarray, slot: int, w: Weapon | None, unarmed: bool = False) -> None:
    b = L.P_WEAPONS + slot * L.WN
    if w is None:
        return
    row[b + L.W_PRESENT] = 1
    row[b + L.W_DAMAGE] = w.damage
    row[b + L.W_UNARMED] = int(unarmed)
    for quality, field in L.QUALITY_FIELDS.items():
        row[b + field] = int(w.has(quality))


def compile_fighter(f: Fighter) -> np.ndarray:
    """One fighter as ``int64[NF]`` (``P_*``)."""
    row = np.zeros(L.NF, dtype=np.int64)
    row[L.P_WS] = f.ws
    row[L.P_AG] = f.ag
    row[L.P_A] = f.a
    row[L.P_W] = f.w
    row[L.P_SB] = f.strength_bonus
    row[L.P_TB] = f.toughness_bonus
    row[L.P_AG_PENALTY] = f.ag_penalty
    row[L.P_DODGE] = -1 if f.dodge is None else f.dodge - f.ag_penalty
    row[L.P_FORTUNE] = f.fortune_points
    row[L.P_FATE] = f.fate
    row[L.P_TACTIC] = L.TACTIC_NAMES.index(f.tactic)
    row[L.P_REACTION] = L.REACTION_NAMES.index(f.reaction)
    row[L.P_MIGHTY_BLOW] = int(f.talent_option("strike_mighty_blow"))
    row[L.P_STREET_FIGHTING] = int(f.talent_option("street_fighting"))
    row[L.P_FLEE_AT] = -1 if f.flee_at is None else f.flee_at
    for z, points in enumerate(f.armour_points().values()):
        row[L.P_AP + z] = points
    _weapon(row, L.SLOT_MAIN, f.main_hand)
    _weapon(row, L.SLOT_OFF, f.off_hand)
    _weapon(row, L.SLOT_FISTS, FISTS, unarmed=True)
    return row


def compile_pair(a: Fighter, b: Fighter) -> np.ndarray:
    """Sides a and b as ``int64[2, NF]``."""
    return np.ascontiguousarray(np.stack([compile_fighter(a), compile_fighter(b)]))


#: where each option goes in the kernels' option row (``crit_table`` is loaded by :func:`crit_tables`)
OPTION_SLOTS = {"round_cap": L.O_ROUND_CAP, "initiative_roll": L.O_INIT_EVERY_ROUND, "surprise": L.O_SURPRISE,
                "opposed": L.O_OPPOSED, "auto_results": L.O_AUTO, "modifier_cap": L.O_MODIFIER_CAP,
                "defensive_stance": L.O_DEF_STANCE_FULL, "parry_dodge_choice": L.O_SCOPE_ROUND,
                "balanced_offhand": L.O_BALANCED_OFFHAND, "fury_confirm": L.O_FURY,
                "tiring": L.O_TIRING_IGNORE, "crit_model": L.O_CRIT_MODEL, "crit_threshold": L.O_CRIT_THRESHOLD,
                "prone_bonus": L.O_PRONE_BONUS, "fortune": L.O_FORTUNE,
                "fortune_extra_reaction": L.O_FORTUNE_REROLL_ONLY, "strike_mighty_blow": L.O_MIGHTY_BLOW,
                "street_fighting": L.O_STREET_FIGHTING, "start_distance": L.O_START_DISTANCE}


def compile_options(o: RuleOptions) -> np.ndarray:
    """Resolved options as ``int64[NO]`` (``O_*``)."""
    return option_row(o, OPTION_SLOTS, L.NO)


def crit_tables(o: RuleOptions) -> tuple[np.ndarray, np.ndarray]:
    """The critical grid and effects of ``crit_model = table`` (empty tables for the other models)."""
    if o["crit_model"] == "table":
        return load_crit_table(str(o["crit_table"]))
    return empty_tables()
