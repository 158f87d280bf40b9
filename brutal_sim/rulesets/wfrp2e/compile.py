"""Validated WFRP 2e fighters → the int64 arrays the kernels read (layout :mod:`.layout`; the
options' row is :func:`.options.compile_options`, the critical tables :mod:`.crit`). The options
that change a weapon's numbers (``spear_thrown`` W-7.12, ``specialist`` W-7.14) apply here, so the
kernels see the weapon as it is played."""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np

from ...core.battle import TARGETING_CODES
from ...core.errors import DataError
from . import layout as L
from .model import Fighter, Weapon, reload_halves

#: W-4.9: fighting unarmed is SB − 4 and doubles the target's AP
FISTS = Weapon(name="unarmed", damage=-4)
#: W-7.12 ``spear_thrown = on`` (revision ``ad55e9a``): a thrown spear's range, 8 yards, no long range
SPEAR_SHORT = 8


def missile_as_played(f: Fighter, w: Weapon | None, options: Mapping[str, object] | None) -> Weapon | None:
    """Fighter f's missile weapon ``w`` under the options: a spear thrown (W-7.12 ``spear_thrown =
    on``: group throwing, short 8, no long, reload 1 half; ``off``: refused), a weapon that needs a
    Specialist Weapon Group talent f lacks with its unskilled numbers (W-7.14 ``specialist =
    pack_text``)."""
    if w is None or options is None:
        return w
    if w.spear:
        if options.get("spear_thrown", "off") != "on":
            raise DataError("options", "spear_thrown", f"off: {f.name!r} carries the spear {w.name or 'spear'!r} as "
                                                       "its missile weapon, which needs spear_thrown=on (W-7.12)")
        w = w.model_copy(update={"group": "throwing", "short": SPEAR_SHORT, "long": 0, "reload": "1 half"})
    if w.specialist and options.get("specialist", "ignore") == "pack_text" and not f.specialist_in(w.specialist):
        data = w.model_dump()
        data.update(w.unskilled.model_dump(exclude_none=True), unskilled=None, specialist="")
        w = Weapon.model_validate(data)
    return w


def _weapon(row: np.ndarray, slot: int, w: Weapon | None, unarmed: bool = False) -> None:
    b = L.P_WEAPONS + slot * L.WN
    if w is None:
        return
    row[b + L.W_PRESENT] = 1
    row[b + L.W_DAMAGE] = w.damage
    row[b + L.W_UNARMED] = int(unarmed)
    row[b + L.W_CHOPPA] = int(w.choppa)
    row[b + L.W_SHIELD] = int(w.shield)
    row[b + L.W_SNARE] = int(w.has("snare"))
    for quality, field in L.QUALITY_FIELDS.items():
        row[b + field] = int(w.has(quality))
    if w.missile:
        row[b + L.W_SHORT] = w.short
        row[b + L.W_LONG] = w.long
        row[b + L.W_RELOAD], full = reload_halves(w.reload)
        row[b + L.W_RELOAD_FULL] = int(full)
        row[b + L.W_THROWN] = int(w.thrown)
        row[b + L.W_ENGAGED_FIRE] = int(w.engaged_fire)
        row[b + L.W_UNRELIABLE] = int(w.has("unreliable") or w.has("experimental"))
        row[b + L.W_SHRAPNEL] = int(w.has("shrapnel"))
        row[b + L.W_BLACKPOWDER] = int(w.group == "blackpowder")


def compile_fighter(f: Fighter, options: Mapping[str, object] | None = None) -> np.ndarray:
    """One fighter as ``int64[NF]`` (``P_*``), its missile weapons as the ``options`` (resolved rule
    options; None: as written) play them (:func:`missile_as_played`)."""
    row = np.zeros(L.NF, dtype=np.int64)
    row[L.P_WS] = f.ws
    row[L.P_BS] = f.bs
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
    row[L.P_MELEE_TACTIC] = L.TACTIC_NAMES.index(f.melee_tactic)
    row[L.P_REACTION] = L.REACTION_NAMES.index(f.reaction)
    row[L.P_MIGHTY_BLOW] = int(f.talent_option("strike_mighty_blow"))
    row[L.P_STREET_FIGHTING] = int(f.talent_option("street_fighting"))
    row[L.P_FLEE_AT] = -1 if f.flee_at is None else f.flee_at
    row[L.P_M] = f.m
    row[L.P_THROWN] = -1 if f.thrown is None else f.thrown
    row[L.P_PUSH] = int(f.push)
    row[L.P_TARGETING] = TARGETING_CODES[f.targeting]
    row[L.P_S] = f.s
    for field, effect in ((L.P_SURE_SHOT, "sure_shot"), (L.P_SHARPSHOOTER, "sharpshooter"),
                          (L.P_MIGHTY_SHOT, "mighty_shot"), (L.P_RAPID_RELOAD, "rapid_reload"),
                          (L.P_MASTER_GUNNER, "master_gunner"), (L.P_QUICK_DRAW, "quick_draw"),
                          (L.P_AMBIDEXTROUS, "ambidextrous"), (L.P_WRESTLING, "wrestling")):
        row[field] = int(f.talent_effect(effect))
    for z, points in enumerate(f.armour_points().values()):
        row[L.P_AP + z] = points
    _weapon(row, L.SLOT_MAIN, f.main_hand)
    _weapon(row, L.SLOT_OFF, f.off_hand)
    _weapon(row, L.SLOT_FISTS, FISTS, unarmed=True)
    _weapon(row, L.SLOT_MISSILE, missile_as_played(f, f.missile, options))
    _weapon(row, L.SLOT_MISSILE_OFF, missile_as_played(f, f.off_hand_missile, options))
    return row


def compile_pair(a: Fighter, b: Fighter, options: Mapping[str, object] | None = None) -> np.ndarray:
    """Sides a and b as ``int64[2, NF]`` (the battle block: b on side 1, both first in their line)."""
    pair = np.ascontiguousarray(np.stack([compile_fighter(a, options), compile_fighter(b, options)]))
    pair[1, L.P_SIDE] = 1
    return pair


def compile_sides(side_a: Sequence[Fighter], side_b: Sequence[Fighter],
                  options: Mapping[str, object] | None = None) -> np.ndarray:
    """Two sides → ``int64[N, NF]``: side a's fighters in line order, then side b's, each row with
    its side and place in the line (``P_SIDE``, ``P_RANK``, docs/groups.md) and the round it
    arrives (``P_ARRIVE``, W-13.2); with ``initiative_group = per_type`` (W-13.1) a fighter of the
    same profile as an earlier row takes that row's initiative dice (``P_INIT_SHARE``)."""
    rows = []
    seen: list[Fighter] = []
    per_type = (options or {}).get("initiative_group") == "per_type"
    for side, fighters in enumerate((side_a, side_b)):
        for rank, f in enumerate(fighters):
            row = compile_fighter(f, options)
            row[L.P_SIDE] = side
            row[L.P_RANK] = rank
            row[L.P_ARRIVE] = f.arrive_round
            if per_type and f in seen:
                row[L.P_INIT_SHARE] = seen.index(f) + 1
            seen.append(f)
            rows.append(row)
    return np.ascontiguousarray(np.stack(rows))
