"""``python -m brutal_sim.cli``: the command line."""

from . import main

main()
