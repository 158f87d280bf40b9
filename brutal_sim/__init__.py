"""brutal_sim — Monte-Carlo balance analysis for tabletop combat rules.

Flow: TOML rules data → validated objects (:mod:`brutal_sim.model`) → flat int arrays
(:mod:`brutal_sim.compile`) → numba kernels (:mod:`brutal_sim.kernel`) → counters →
summaries (:mod:`brutal_sim.results`).
"""

__version__ = "0.1.0"
