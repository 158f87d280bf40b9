"""The toy's rule options with their rule ids and defaults; their slots in the kernels' ``int64[NO]``
option row (``O_*``) and the codes of the choices the kernels compare with, both derived from the
specs (:class:`~brutal_sim.core.options.OptionRow`), never written out a second time."""

from __future__ import annotations

import numpy as np

from brutal_sim.core.options import OptionRow, OptionSpec, RuleOptions

OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec("round_cap", "T-4", 50, int_range=(1, 1000),
               help="a duel still running after this many rounds is a draw"),
    OptionSpec("ties", "T-1", "miss", ("miss", "hit"),
               help="an attack total equal to the defence total misses, or hits"),
    OptionSpec("strikes", "T-4", "in_turn", ("in_turn", "simultaneous"),
               help="in_turn: a fighter put out takes no more turns; simultaneous (duels only): a fighter "
                    "put out still takes its turn in that round, both out is a draw"),
    OptionSpec("turn_order", "T-5", "sides", ("sides", "initiative"),
               help="sides: side a's fighters in line order, then side b's; initiative: d6 + skill, "
                    "ties to the more hit points, a full tie rerolled"),
    OptionSpec("start_distance", "T-6", 0, int_range=(0, 100),
               help="side b starts this many steps from side a (0: engaged)"),
)

# -- the kernels' option row (int64[NO]) ------------------------------------------------------------
ROW = OptionRow(OPTION_SPECS)
O_ROUND_CAP = ROW.slot("round_cap")
O_TIES = ROW.slot("ties")
O_STRIKES = ROW.slot("strikes")
O_TURN_ORDER = ROW.slot("turn_order")
O_START_DISTANCE = ROW.slot("start_distance")
NO = ROW.size

# -- codes of the choices the kernels compare with --------------------------------------------------
TIES_MISS, TIES_HIT = ROW.codes("ties")
STRIKES_IN_TURN, STRIKES_SIMULTANEOUS = ROW.codes("strikes")
TURN_ORDER_SIDES, TURN_ORDER_INITIATIVE = ROW.codes("turn_order")


def compile_options(options: RuleOptions) -> np.ndarray:
    """Resolved rule options → ``int64[NO]`` (slots ``O_*``)."""
    return ROW.row(options)
