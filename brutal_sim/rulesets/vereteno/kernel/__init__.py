"""The Vereteno duel kernels (numba), melee and at a distance: arrays and scalars in, counters out.

Inputs everywhere below:

F : int64[N, NF]
    Compiled fighters (the battle block of :mod:`brutal_sim.core.battle`, then ``P_*`` of
    :mod:`brutal_sim.rulesets.vereteno.layout`); side a's rows first; N = 2 for a duel (row 0 side
    a, row 1 side b), up to 12 in a fight of several a side (V-14).
S : int64[N, NS]
    Their changing state during one fight (the battle block ``B_*``, then ``S_*``), reset at the
    start of every fight. Each fighter's foe is the battle block's (``toolbox.battle.foe``), who is
    out and whether the fight is decided too (``put_out``, ``decided``).
opts : int64[NO]
    Rule options (``O_*`` of :mod:`brutal_sim.rulesets.vereteno.options`).
tt : int64[36, NT]
    The d66 trauma table (``T_*`` combat codes), row ``(tens − 1)·6 + units − 1`` (V-8.4).
st : uint64[4]
    The duel's random state (:mod:`brutal_sim.toolbox.rng`).
cnt : int64[K]
    Counters (``C_*``), added to, never cleared.

Draw order (the contract with ``tests/vereteno/naive_vereteno.py``, written down in
``docs/reference-vereteno.md``): initiative d20 per fighter in row order, a then b (plus the
surprise dice, then the tie d20 of the tied fighters in row order); per attack: the attacker's
pool (then its prayer's rerolled dice, V-1.6), then the reaction's pool (and its prayer's dice),
then the armour dice of the target (armour part then shield part), then two d6 per trauma, then
the same for the counter on the attacker. Pools are rolled die by die with ``roll_die(st, 20)``.

Index guards: numba wraps a negative array index around (``x[-1]`` is the last element), at the
cost of a test and an addition on every access with an index not known to be ≥ 0. The kernel never
indexes with a negative number: the rows come from the battle block (the turn order ``B_ORDER``,
the foe ``B_FOE``), and the fight (the row whose turn it is), the attack, the throw, the hit of a
shot, the sector shot and reach and engagement test the rows they read there once (never true);
after that test LLVM knows them ≥ 0 and drops the per-access work.

Calls: the drivers' parallel loop is compiled with this package's functions internal to it
(:mod:`.drivers`, :mod:`brutal_sim.toolbox.jit`).

Modules, one per rule chapter of ``docs/rules/vereteno.md``, each importing only the ones above it:
:mod:`.checks` (V-1 checks, prayer and pools, with the V-3.17 tokens and V-6.1 out that a prayer
needs), :mod:`.initiative` (V-2 state, AP refill, initiative), :mod:`.actions` (V-3 attack kinds,
V-4.1–V-4.5 reactions and spending, the V-7 policies), :mod:`.armour` (V-5), :mod:`.traumas` (V-6),
:mod:`.melee` (V-4 the blow and the attack), :mod:`.grapple` (V-4.5 the grab, V-6.10 the grappled
state, V-3.12 breaking free, V-3.13 the choke, V-3.11 finishing off), :mod:`.groups` (V-14 the choice
of a foe in a fight of several a side), :mod:`.orders` (V-13 threats, taunts and orders, with
:func:`.distance._band` for their ranges), :mod:`.rounds` (V-2.3 turns in melee); for fights at
a distance :mod:`.distance` (V-10 bands, the opening, moves), :mod:`.shooting` (V-11, V-12 shots)
and :mod:`.ranged` (V-15 turns at a distance), which only those fights compile; :mod:`.fight`
(V-2.6 the fight of rounds and the single attack, whose flag ``ranged`` prunes the steps at a
distance) and :mod:`.drivers`.

Draw order at a distance: initiative as above; per shot the shooter's pool (then its prayer's
dice), a long burst's continuation dice one by one, then the target's armour dice (armour, shield,
cover), two d6 per trauma.

The interface
-------------
The names below are the kernel's public names; everything else is private to its chapter.

- Drivers (the ruleset's :class:`~brutal_sim.core.ruleset.Kernels`): the compiled parallel loops
  ``run`` and ``paired``; their flag ``ranged`` is None for a melee fight at point blank and True
  for a fight with a gun or from beyond point blank.
- ``KIND_COST``: ``int64[4]``, the AP cost of each attack kind (``K_*``, V-2.2).
- Rule steps, for the exact enumeration (:mod:`brutal_sim.rulesets.vereteno.exact`), the ruleset's
  attack check and the rule tests, which call one step on hand-made arrays. They take the
  arguments described above.
"""

from __future__ import annotations

from .actions import (
    _allowed as allowed,
    _choose_reaction as choose_reaction,
    _plan as plan,
    _resolve as resolve,
    _spend as spend,
    _take_reaction as take_reaction,
)
from .armour import (
    _armour_dice as armour_dice,
    _armour_reduction as armour_reduction,
    _armour_roll as armour_roll,
    _lose_health as lose_health,
)
from .checks import (
    KIND_COST,
    _attack_pool as attack_pool,
    _can_pray as can_pray,
    _check as check,
    _defence_pool as defence_pool,
    _desperate as desperate,
    _desperate_dice as desperate_dice,
    _dodge_pool as dodge_pool,
    _fighter_check as fighter_check,
    _melee_pool as melee_pool,
    _slot as slot,
    _successes as successes,
    _weapon as weapon,
)
from .distance import (
    BAND_OUT,
    _band as band,
    _engaged as engaged,
    _in_reach as in_reach,
    _open as open_duel,
    _reach as reach,
    _speed as move_metres,
    _stealth_approach as stealth_approach,
    _stealth_pool as stealth_pool,
    _step as step,
)
from .drivers import (
    _paired as paired,
    _run as run,
)
from .fight import (
    _finish as finish,
)
from .grapple import (
    _break_hold as break_hold,
    _choke as choke,
    _finish_off as finish_off,
    _grab as grab,
    _in_grapple as in_grapple,
)
from .initiative import (
    _order as order,
    _refill as refill,
    _reset as reset,
    _roll_initiative as roll_initiative,
    _surprise as surprise,
)
from .melee import (
    _attack as attack,
    _blow as blow,
    _level as level,
)
from .orders import (
    _give_order as give_order,
    _heard as heard,
    _influence as influence,
    _inspire as inspire,
    _orders_lapse as orders_lapse,
    _taunt as taunt,
    _threat as threat,
    _wants_inspire as wants_inspire,
    _wants_order as wants_order,
)
from .ranged import (
    TO_MELEE,
    TO_SHOTS,
    TURN_OVER,
    _before_shots as before_shots,
    _ranged_start as ranged_start,
    _ranged_turn as ranged_turn,
    _ready_weapon as ready_weapon,
    _retreat as retreat,
    _to_first_shot as to_first_shot,
)
from .rounds import (
    _battle_cry as battle_cry,
    _turn as turn,
    _turn_start as turn_start,
)
from .shooting import (
    LOOK_DICE,
    SHOT_COST,
    _after_shot as after_shot,
    _blind as blind,
    _brace as brace,
    _dial_dice as dial_dice,
    _jam as jam,
    _missile as missile,
    _missile_armour_dice as missile_armour_dice,
    _plan_shot as plan_shot,
    _range_dice as range_dice,
    _reload as reload_gun,
    _sector_shot as sector_shot,
    _set_aside as set_aside,
    _shot_armour_dice as shot_armour_dice,
    _shot_pool as shot_pool,
    _shot_spend as shot_spend,
    _throw as throw,
    _throw_cost as throw_cost,
)
from .traumas import (
    _drop as drop,
    _immobilise as immobilise,
    _shock as shock,
    _strain as strain,
    _trauma as trauma,
)

__all__ = [
    "paired",
    "break_hold",
    "choke",
    "finish_off",
    "grab",
    "in_grapple",
    "run",
    "BAND_OUT",
    "KIND_COST",
    "LOOK_DICE",
    "SHOT_COST",
    "after_shot",
    "band",
    "engaged",
    "in_reach",
    "reach",
    "blind",
    "brace",
    "step",
    "move_metres",
    "open_duel",
    "plan_shot",
    "range_dice",
    "reload_gun",
    "ranged_start",
    "ranged_turn",
    "before_shots",
    "to_first_shot",
    "ready_weapon",
    "TO_SHOTS",
    "TURN_OVER",
    "TO_MELEE",
    "turn_start",
    "retreat",
    "sector_shot",
    "set_aside",
    "shot_armour_dice",
    "shot_pool",
    "shot_spend",
    "missile",
    "missile_armour_dice",
    "throw",
    "throw_cost",
    "dial_dice",
    "jam",
    "allowed",
    "armour_dice",
    "armour_reduction",
    "armour_roll",
    "attack",
    "attack_pool",
    "melee_pool",
    "surprise",
    "stealth_approach",
    "stealth_pool",
    "battle_cry",
    "give_order",
    "heard",
    "influence",
    "inspire",
    "orders_lapse",
    "taunt",
    "threat",
    "wants_inspire",
    "wants_order",
    "blow",
    "can_pray",
    "check",
    "choose_reaction",
    "defence_pool",
    "desperate",
    "desperate_dice",
    "dodge_pool",
    "drop",
    "fighter_check",
    "finish",
    "order",
    "immobilise",
    "level",
    "lose_health",
    "plan",
    "refill",
    "reset",
    "resolve",
    "roll_initiative",
    "shock",
    "slot",
    "spend",
    "strain",
    "successes",
    "take_reaction",
    "trauma",
    "turn",
    "weapon",
]
