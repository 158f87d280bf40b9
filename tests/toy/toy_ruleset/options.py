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
               help="in_turn: side a strikes first and a fighter put out does not strike back; "
                    "simultaneous: both strike every round, both out is a draw"),
)

# -- the kernels' option row (int64[NO]) ------------------------------------------------------------
ROW = OptionRow(OPTION_SPECS)
O_ROUND_CAP = ROW.slot("round_cap")
O_TIES = ROW.slot("ties")
O_STRIKES = ROW.slot("strikes")
NO = ROW.size

# -- codes of the choices the kernels compare with --------------------------------------------------
TIES_MISS, TIES_HIT = ROW.codes("ties")
STRIKES_IN_TURN, STRIKES_SIMULTANEOUS = ROW.codes("strikes")


def compile_options(options: RuleOptions) -> np.ndarray:
    """Resolved rule options → ``int64[NO]`` (slots ``O_*``)."""
    return ROW.row(options)
