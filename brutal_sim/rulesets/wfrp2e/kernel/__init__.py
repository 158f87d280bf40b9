"""The WFRP 2e duel kernel (numba): arrays and scalars in, counters out.

Inputs everywhere below:

F : int64[N, NF]
    Compiled fighters (``P_*`` in :mod:`brutal_sim.rulesets.wfrp2e.layout`), each beginning with the
    battle block (``P_SIDE``: side a's rows first); a duel has N = 2.
S : int64[N, NS]
    Fight state, one row per fighter (``S_*``), beginning with the battle block (its foe, whether it
    is out, its position, the turn order ``B_ORDER``); fight-wide and per-side cells (the round, the
    per-side tally ``S_TOOK``) as ``core/battle.py`` sets out; reset per duel.
opts : int64[NO]
    Rule options (``O_*`` in :mod:`brutal_sim.rulesets.wfrp2e.options`).
grid : int64[100, CRIT_COLUMNS]
    Critical table (``crit_model = table``): effect number of a d100 roll and a critical value (W-5.4).
fx : int64[4, n effects + 1, NFX]
    Effect fields (``FX_*``) of each zone and effect number.
st : uint64[4]
    The duel's random state (:mod:`brutal_sim.toolbox.rng`).
cnt : int64[K]
    Counters (``C_*``), added to, never cleared.

Fighter indices ``i``, ``a`` (attacker), ``d`` (defender), ``e`` (a fighter's foe) are rows of F
and S; a fighter's foe is ``toolbox.battle.foe(S, i)`` (in a duel the other fighter, from
``start_battle`` on), and the counters of a fighter's attacks and hits go to its side
(``P_SIDE``); ``slot`` is a weapon slot (``SLOT_*``), ``loc`` a hit location (``LOC_*``), ``zone``
a zone (``ZONE_*``); the other scalars are int64s.

Draw order (the contract with ``tests/wfrp2e/naive_wfrp2e.py``, written down in
``docs/reference-wfrp2e.md``): initiative d10 [second d10] of each fighter in row order, a then b
(again for the fighters still tied, W-2.2; the second d10 with ``fortune_initiative``, W-6.5); a
feint's opposed test d100 feinter, d100 target (again on a reroll, W-1.4); each attack: to-hit
d100 [fortune reroll d100]; reaction d100 [fortune reroll d100]; damage d10 [second d10 for Impact]
[helpless d10, W-6.2]; Ulric's Fury: [confirmation d100] d10, … (W-4.11); an attack on a helpless
target draws its d100 for the location only, no reaction; critical table d100 (``crit_model =
table`` only). The grapple (W-12): an attempt draws to-hit d100 [fortune reroll d100]; reaction d100
[fortune reroll d100] (``grapple_reaction = allowed``); the target's Ag test d100 [fortune reroll
d100]; a break free: d100 the held fighter, d100 its grappler (again on a reroll, W-1.4); a hurt:
d100 the grappler, d100 the held fighter (again on a reroll), then on a win [location d100,
``grapple_location = roll``] damage d10 [Fury d10 … while 10s show, ``grapple_fury = auto``]
[critical table d100].

The parallel loop of ``_run`` is compiled with this package's functions internal to it
(:mod:`brutal_sim.toolbox.jit`): LLVM passes only the arguments a function uses, 2.4× the duels per
second without it (benchmarks/README.md).

Modules, one per rule chapter of the digest ``docs/rules/wfrp2e.md``, each importing only the ones
above it: :mod:`.tests` (W-1 tests, opposed tests), :mod:`.fortune` (W-6.5, W-8.7 fortune points),
:mod:`.weapons` (W-4.9, W-4.10, W-4.12, W-9.3: items in hand, qualities), :mod:`.reactions`
(W-4.3 – W-4.6 parry and dodge), :mod:`.wounds` (W-5 damage taken and criticals, W-6 their
conditions), :mod:`.movement` (W-11 moves, charges, runs, engagement, the line model),
:mod:`.groups` (W-8.15, W-13: the choice of a foe in fights of several a side),
:mod:`.attack` (W-4: to-hit, location, damage roll, the attack), :mod:`.ranged` (W-7: range bands,
the shot, reloads), :mod:`.grapple` (W-12: the attempt, breaking free, hold and hurt, the
release), :mod:`.actions` (W-3 actions, W-8 tactics, the shooters' turns), :mod:`.turn`
(W-2: initiative, the turn, the duel), :mod:`.drivers` (the parallel loops, whose flags choose the
kernel set).

The interface
-------------
The names below are the kernel's public names; everything else is private to its chapter (the
chapters import each other's private names, nothing outside this package does).

- Drivers (the ruleset's :class:`~brutal_sim.core.ruleset.Kernels`): the compiled parallel loops
  ``run`` and ``paired``; their flag ``ranged`` is None for a matchup without missile weapons and
  without a grappler (no step of W-7 or W-12 is compiled) and True for one with them.
- ``LOCATION_ZONE``: ``int64[6]``, the zone of each hit location.
- Rule steps, for the exact enumeration (:mod:`brutal_sim.rulesets.wfrp2e.exact`) and for the rule
  tests, which call one step on hand-made arrays. They take the arguments described above.
"""

from __future__ import annotations

from .actions import (
    _feint_targets as feint_targets,
    _plan as plan,
)
from .attack import (
    _absorbed as absorbed,
    _attack as attack,
    _attack_target as attack_target,
    _covered as covered,
    _damage_bonus as damage_bonus,
    _fury_needs_test as fury_needs_test,
    _location as location,
)
from .drivers import (
    _paired as paired,
    _run as run,
)
from .fortune import (
    _fortune_allows as fortune_allows,
)
from .grapple import (
    _break_free as break_free,
    _grapple_ag as grapple_ag,
    _grapple_attempt as grapple_attempt,
    _grapple_strength as grapple_strength,
    _hurt as hurt,
)
from .groups import (
    _choose_foe as choose_foe,
    _outnumbered as outnumbered,
)
from .movement import (
    _close as close,
    _reach as reach,
    _retreat as retreat,
)
from .ranged import (
    _aim_bonus as aim_bonus,
    _band as band,
    _escape as escape,
    _jams as jams,
    _reload as reload,
    _reload_need as reload_need,
    _shot_auto as shot_auto,
    _shot_target as shot_target,
)
from .reactions import (
    _availability as availability,
    _choose_reaction as choose_reaction,
    _dodge_target as dodge_target,
    _parry_target as parry_target,
    _react as react,
)
from .tests import (
    _degrees as degrees,
    _opposed_result as opposed_result,
    _succeeds as succeeds,
)
from .turn import (
    _any_turn as turn,
    _arrivals as arrivals,
    _attack_setup as attack_setup,
    _duel as duel,
    _first_shot as first_shot,
    _initiative as initiative,
    _reset as reset,
)
from .weapons import (
    _attack_slot as attack_slot,
    _quality as quality,
    _wf as wf,
)
from .wounds import (
    LOCATION_ZONE,
    _crit_effect as crit_effect,
    _effect_takes_out as effect_takes_out,
    _model_takes_out as model_takes_out,
    _take_damage as take_damage,
    _wound_level as wound_level,
)

__all__ = [
    "LOCATION_ZONE",
    "absorbed",
    "aim_bonus",
    "arrivals",
    "attack",
    "attack_setup",
    "attack_slot",
    "attack_target",
    "availability",
    "band",
    "break_free",
    "choose_reaction",
    "choose_foe",
    "close",
    "escape",
    "covered",
    "crit_effect",
    "damage_bonus",
    "degrees",
    "dodge_target",
    "duel",
    "effect_takes_out",
    "feint_targets",
    "first_shot",
    "fortune_allows",
    "fury_needs_test",
    "grapple_ag",
    "grapple_attempt",
    "grapple_strength",
    "hurt",
    "initiative",
    "jams",
    "location",
    "outnumbered",
    "model_takes_out",
    "opposed_result",
    "parry_target",
    "paired",
    "plan",
    "quality",
    "reach",
    "react",
    "reload",
    "reload_need",
    "reset",
    "run",
    "retreat",
    "shot_auto",
    "shot_target",
    "succeeds",
    "take_damage",
    "turn",
    "wf",
    "wound_level",
]
