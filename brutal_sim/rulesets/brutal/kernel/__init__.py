"""The Brutal fight kernel (numba): arrays and scalars in, counters out.

One kernel plays duels and group fights of N = na + nb ≤ 12 fighters (docs/groups.md); a duel is
a group fight of one against one.

Inputs everywhere below:

F : int64[N, NF]
    Compiled fighters (layout ``P_*`` in :mod:`brutal_sim.rulesets.brutal.layout`): rows ``0 … na−1`` are side a,
    rows ``na … N−1`` side b (``P_SIDE``, ``P_RANK``); a duel has N = 2.
S : int64[N, NS]
    Their changing state during one fight (``S_*``), reset at the start of every fight. Besides
    each fighter's state it holds the turn order (``S_ORDER``) and the fighters of each side still
    in (``S_SIDE_IN`` of rows 0 and 1).
opts : int64[NO]
    Rule options (``O_*``).
zt : int8[die]
    Hit-zone table: ``zt[roll - 1]`` is the zone code of a roll (B-4.9).
st : uint64[4]
    The duel's random state (:mod:`brutal_sim.toolbox.rng`).
cnt : int64[K]
    Counters (``C_*``), added to, never cleared. Header counters are per side: attack outcomes at
    the attacker's side (``P_SIDE``), blows, damage and weapon breaks at the taker's side.

The order in which dice are drawn is part of the contract with the pure-Python reference in
``tests/brutal/naive.py`` and is written down in ``docs/engine.md``.

Index guards: numba wraps a negative array index around (``x[-1]`` is the last element), at the
cost of a test and an addition on every access with an index not known to be ≥ 0. The kernel never
indexes with a negative number. ``_attack`` and ``_hit`` test their rows and weapon slot once on
entry (``_indices_ok``) and ``_fight`` the row whose turn it is; after that test LLVM knows them
≥ 0 and drops the per-access work: 5 % fewer instructions per duel (benchmarks/README.md).

Calls: the drivers' parallel loops (``_run``, ``_paired``) are compiled with this package's functions
internal to them (:mod:`brutal_sim.toolbox.jit`), so LLVM passes only the arguments a function uses; rare
paths (``_hard_block``, ``_parried_bare``) are functions of their own, so that the attack sets up
fewer calls; LLVM inlines the blow (``_hit``, ``loop_inline_rule``) into its callers there, and so
the fight itself (``_fight``), a wound's marks on the track (``_mark_wound``, ``_record``) and the
tests made on every attack or blow that rarely find anything to do (a readied attack's trigger,
``_answer_readied``; cover, ``_zone_hidden`` and ``_open_aim``), whose work is a function of its own
called only when needed. The unarmed full attack's further hits (``_further_hits``) are one too, so
that the turn holds no second copy of the blow (benchmarks/README.md, "The B-9 rules on the hot
path").

Modules, one per rule chapter, each importing only the ones above it: :mod:`.checks` (checks,
penalties, held weapons, reactions), :mod:`.situation` (B-8 size and cover), :mod:`.wounds`
(B-5–B-7), :mod:`.attack` (B-4), :mod:`.grapple` (B-3.12), :mod:`.actions` (B-3), :mod:`.ranged`
(B-8 distance, shots, charges), :mod:`.groups` (B-4.7), :mod:`.turn` (B-2, the fight loop),
:mod:`.drivers`.

The interface
-------------
The functions below are the kernel's public names; everything else is private to its chapter.

- Drivers (the ruleset's :class:`~brutal_sim.core.ruleset.Kernels`): the compiled parallel loops
  ``run`` and ``paired``, whose trailing flags choose the kernel set (:mod:`.drivers`).
- ``ZONE_GROUP``: ``int64[6]``, the zone group (head, torso, arm, leg) of each zone code.
- Rule steps, for the exact enumeration (:mod:`brutal_sim.rulesets.brutal.exact`) and for the rule
  tests, which call one step on hand-made arrays. They take the arguments described above.
"""

from __future__ import annotations

from .actions import (
    _answer_readied as answer_readied,
    _feint as feint,
    _feint_bonuses as feint_bonuses,
    _needs_ready as needs_ready,
    _plan_attack as plan_attack,
    _readies as readies,
    _ready as ready,
    _tactic_attack as tactic_attack,
)
from .attack import (
    _attack as attack,
    _attack_bonus as attack_bonus,
    _break as break_weapon,
    _die_floor as die_floor,
    _final_damage as final_damage,
    _hard_block as hard_block,
    _hit as hit,
    _knockdown as knockdown,
    _needs_marker as needs_marker,
    _weapon_die as weapon_die,
)
from .checks import (
    _active_penalty as active_penalty,
    _attack_slot as attack_slot,
    _base_difficulty as base_difficulty,
    _check_penalty as check_penalty,
    _choose_reaction as choose_reaction,
    _dodge_bonus_total as dodge_bonus_total,
    _dodge_made as dodge_made,
    _fatigue_penalty as fatigue_penalty,
    _lets_go_of_ranged as lets_go_of_ranged,
    _parry_bonus_total as parry_bonus_total,
    _parry_slot as parry_slot,
    _reaction_modifier as reaction_modifier,
    _set_fatigue as set_fatigue,
    _set_ground as set_ground,
    _set_track as set_track,
    _shooter as shooter,
    _wb as wb,
    _weapon_target as weapon_target,
    _wound_penalty as wound_penalty,
)
from .drivers import (
    _paired as paired,
    _run as run,
)
from .grapple import (
    _grapple_bonus as grapple_bonus,
    _grapple_escape as grapple_escape,
    _grapple_hold as grapple_hold,
    _grapple_slot as grapple_slot,
)
from .groups import (
    _choose_foe as choose_foe,
)
from .ranged import (
    _can_dodge_shot as can_dodge_shot,
    _charges as charges,
    _close_bonus as close_bonus,
    _close_in as close_in,
    _shoot as shoot,
    _shooter_actions as shooter_actions,
    _shot_band as shot_band,
    _shot_bonus as shot_bonus,
    _shot_difficulty as shot_difficulty,
    _shot_plan as shot_plan,
)
from .situation import (
    _attack_situation as attack_situation,
    _draw_shown as draw_shown,
    _draws_shown as draws_shown,
    _open_aim as open_aim,
    _shot_cover_penalty as shot_cover_penalty,
    _side_option as side_option,
    _size_modifier as size_modifier,
    _unseen as unseen,
    _zone_hidden as zone_hidden,
)
from .turn import (
    _any_fight as fight,
    _any_turn as turn,
    _initiative as initiative,
    _reset as reset,
    _single_attack as single_attack,
)
from .wounds import (
    ZONE_GROUP,
    _fear as fear,
    _gain_fatigue as gain_fatigue,
    _light_damage as light_damage,
    _mark_wound as mark_wound,
    _passive_bonus as passive_bonus,
    _record as record,
    _take_wound as take_wound,
    _toughness_check as toughness_check,
    _wound_level as wound_level,
)

__all__ = [
    "ZONE_GROUP",
    "active_penalty",
    "answer_readied",
    "attack",
    "attack_bonus",
    "attack_slot",
    "attack_situation",
    "base_difficulty",
    "break_weapon",
    "can_dodge_shot",
    "charges",
    "check_penalty",
    "choose_foe",
    "choose_reaction",
    "close_bonus",
    "close_in",
    "die_floor",
    "dodge_bonus_total",
    "draw_shown",
    "draws_shown",
    "dodge_made",
    "fatigue_penalty",
    "fear",
    "feint",
    "feint_bonuses",
    "fight",
    "final_damage",
    "gain_fatigue",
    "grapple_bonus",
    "grapple_escape",
    "grapple_hold",
    "grapple_slot",
    "hard_block",
    "hit",
    "initiative",
    "knockdown",
    "lets_go_of_ranged",
    "light_damage",
    "mark_wound",
    "needs_marker",
    "needs_ready",
    "open_aim",
    "parry_bonus_total",
    "parry_slot",
    "passive_bonus",
    "plan_attack",
    "reaction_modifier",
    "readies",
    "ready",
    "record",
    "reset",
    "run",
    "paired",
    "set_fatigue",
    "set_ground",
    "set_track",
    "shoot",
    "shooter",
    "shooter_actions",
    "shot_band",
    "shot_bonus",
    "shot_cover_penalty",
    "shot_difficulty",
    "shot_plan",
    "single_attack",
    "side_option",
    "size_modifier",
    "tactic_attack",
    "take_wound",
    "toughness_check",
    "turn",
    "unseen",
    "wb",
    "weapon_die",
    "weapon_target",
    "wound_level",
    "wound_penalty",
    "zone_hidden",
]
