"""The battle block: the columns every ruleset that plays group fights or distance keeps at the
start of its fighter and state rows, and the targeting policies (docs/groups.md). The mechanics that
read them are :mod:`brutal_sim.toolbox.battle`; a ruleset's ``layout.py`` begins its rows after
them (``P = Slots(FIGHTER_BLOCK)``, ``S = Slots(STATE_BLOCK)``).

Fighter row ``int64[NF]`` (written by the compile step):

- ``F_SIDE``: 0 side a, 1 side b;
- ``F_RANK``: its place in its side's line, 0 … 5 (the order given);
- ``F_TARGETING``: its targeting policy (``TG_*``, :data:`TARGETING`);
- ``F_ARRIVE``: the round it joins the fight (0 or 1: from the start; a later round: it is away
  until then, ``B_AWAY``);
- ``F_INIT_SHARE``: 0 it rolls its own initiative; r + 1: it takes the dice row r (an earlier row,
  the same profile) rolled, with its own modifier (one roll per profile).

State ``int64[N, NS]``, one row per fighter, reset by ``toolbox.battle.start_battle``:

- ``B_OUT``: 0 while in the fight, else its cause of going out + 1;
- ``B_AWAY``: 1 while it has yet to arrive (``F_ARRIVE``): it takes no turn, rolls no initiative,
  is nobody's foe, and counts in its side's ``B_SIDE_IN`` (a side with fighters still to come is not
  beaten);
- ``B_OUT_SEQ``: its place in the order of going out (1 first);
- ``B_FOE``: the row of its foe, −1 none; ``B_ENGAGERS``: enemies in the fight whose foe it is;
- ``B_DEAD``, ``B_DEALT``, ``B_TAKEN``: killed, final damage dealt and taken (the group block);
- ``B_X``: its position on the line (in the ruleset's unit: metres, yards);
- ``B_WEAKNESS``: how near it is to going out, 0 … 127, kept by the ruleset (the ``weakest``
  targeting policy);
- ``B_SHOOTER``: 1 while it holds a loaded missile weapon, kept by the ruleset (the
  ``shooters_first`` policy);
- ``B_TIER``: its tier as a target, kept by the ruleset: 0 (every fighter from ``start_battle``),
  −1 chosen before any other, 1 chosen only when no enemy of a lower tier has room (helpless foes
  under a ruleset's reading of finishing them);
- ``B_INIT_MOD``, ``B_INIT_TIE``: its initiative modifier and tie key (its tie-breakers as one int,
  higher first), written by the ruleset before the turn order; ``B_INIT_EXTRA``: its initiative
  dice beyond the first (0 unless the ruleset writes more); ``B_INIT``: its initiative total;
- kept in the rows of S for the whole fight, not per fighter: ``B_ORDER`` of row p is the row
  acting at place p of the turn order; ``B_INIT_GROUP`` of row p the tie group of place p while the
  order is settled; ``B_SIDE_IN`` of row 0 / row 1 the fighters of side a / b still in;
  ``B_OUTS`` of row 0 the fighters out so far; ``B_ROUND`` of row 0 the round being played.

Fight-wide and per-side state
-----------------------------
The state array has exactly one row per fighter (``int64[N, NS]``); nothing lives in an extra row.
State that belongs to the whole fight or to a side is kept in cells of those rows, by one
convention, for the battle block and for a ruleset's own columns alike:

- a **fight-wide cell** is column c of row :data:`FIGHT_ROW` (0): ``S[FIGHT_ROW, c]``
  (``B_OUTS``, ``B_ROUND``); its column means nothing in the other rows;
- a **per-side cell** is column c of row ``side`` (0 side a, 1 side b): ``S[side, c]``
  (``B_SIDE_IN``); every fight has at least one fighter a side, so both rows exist;
- a **per-place cell** is column c of row p, for place p of the turn order (``B_ORDER``,
  ``B_INIT_GROUP``).

A ruleset declares such columns after the battle block like any other (``S = Slots(STATE_BLOCK)``),
names them for what they hold and says in its layout which kind each is; ``start_battle`` clears
the battle block's, the ruleset's reset its own.
"""

from __future__ import annotations

from .slots import Slots

_F = Slots()
F_SIDE = _F.next()
F_RANK = _F.next()
F_TARGETING = _F.next()
F_ARRIVE = _F.next()
F_INIT_SHARE = _F.next()
#: columns of the fighter row the battle block takes (a ruleset's own begin here)
FIGHTER_BLOCK = _F.size

_S = Slots()
B_OUT = _S.next()
B_AWAY = _S.next()
B_OUT_SEQ = _S.next()
B_FOE = _S.next()
B_ENGAGERS = _S.next()
B_DEAD = _S.next()
B_DEALT = _S.next()
B_TAKEN = _S.next()
B_X = _S.next()
B_WEAKNESS = _S.next()
B_TIER = _S.next()
B_SHOOTER = _S.next()
B_INIT_MOD = _S.next()
B_INIT_TIE = _S.next()
B_INIT_EXTRA = _S.next()
B_INIT = _S.next()
B_ORDER = _S.next()
B_INIT_GROUP = _S.next()
B_SIDE_IN = _S.next()
B_OUTS = _S.next()
B_ROUND = _S.next()
#: columns of the state row the battle block takes (a ruleset's own begin here)
STATE_BLOCK = _S.size

#: the row of S whose cells hold the fight-wide state (see "Fight-wide and per-side state")
FIGHT_ROW = 0

#: The targeting policies (docs/groups.md), the default first; a fighter's ``targeting`` is one of
#: them, compiled to its index (``TG_*``).
TARGETING = ("spread", "weakest", "nearest")
#: Further policies a ruleset may offer besides :data:`TARGETING` (WFRP 2e's W-8.15): a ruleset
#: that does keeps ``B_SHOOTER`` and names them in its ``targeting_policies``.
TARGETING_MORE = ("shooters_first", "focus", "random")
TG_SPREAD, TG_WEAKEST, TG_NEAREST, TG_SHOOTERS_FIRST, TG_FOCUS, TG_RANDOM = range(len(TARGETING + TARGETING_MORE))
TARGETING_CODES = {name: code for code, name in enumerate(TARGETING + TARGETING_MORE)}
