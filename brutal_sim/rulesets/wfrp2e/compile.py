"""Validated WFRP 2e fighters and options → the int64 arrays the kernels read (``layout.py``)."""

from __future__ import annotations

import numpy as np

from ...options import RuleOptions
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


def compile_options(o: RuleOptions) -> np.ndarray:
    """Resolved options as ``int64[NO]`` (``O_*``)."""
    v = np.zeros(L.NO, dtype=np.int64)
    v[L.O_ROUND_CAP] = int(o["round_cap"])
    v[L.O_INIT_EVERY_ROUND] = int(o["initiative_roll"] == "every_round")
    v[L.O_SURPRISE] = ("none", "a", "b").index(str(o["surprise"]))
    v[L.O_OPPOSED] = L.OPPOSED_CODES.index(str(o["opposed"]))
    v[L.O_AUTO] = int(o["auto_results"] != "none")
    v[L.O_MODIFIER_CAP] = int(o["modifier_cap"])
    v[L.O_DEF_STANCE_FULL] = int(o["defensive_stance"] == "full")
    v[L.O_SCOPE_ROUND] = int(o["parry_dodge_choice"] == "per_round")
    v[L.O_BALANCED_OFFHAND] = int(o["balanced_offhand"] == "true")
    v[L.O_FURY] = L.FURY_CODES.index(str(o["fury_confirm"]))
    v[L.O_TIRING_IGNORE] = int(o["tiring"] == "ignore")
    v[L.O_CRIT_MODEL] = L.CRIT_CODES.index(str(o["crit_model"]))
    v[L.O_CRIT_THRESHOLD] = int(o["crit_threshold"])
    v[L.O_PRONE_BONUS] = int(o["prone_bonus"])
    v[L.O_FORTUNE] = L.FORTUNE_CODES.index(str(o["fortune"]))
    v[L.O_FORTUNE_REROLL_ONLY] = int(o["fortune_extra_reaction"] == "reroll_only")
    v[L.O_MIGHTY_BLOW] = int(o["strike_mighty_blow"] == "plus1")
    v[L.O_STREET_FIGHTING] = int(o["street_fighting"] == "on")
    v[L.O_START_DISTANCE] = int(o["start_distance"])
    return v


def crit_tables(o: RuleOptions) -> tuple[np.ndarray, np.ndarray]:
    """The critical grid and effects of ``crit_model = table`` (empty tables for the other models)."""
    if o["crit_model"] == "table":
        return load_crit_table(str(o["crit_table"]))
    return empty_tables()
