"""brutal_sim — Monte-Carlo balance analysis for tabletop combat rules.

Flow, for each ruleset in :mod:`brutal_sim.rulesets` (Brutal's shown): TOML rules data →
validated objects (:mod:`brutal_sim.rulesets.brutal.model`) → flat int arrays
(:mod:`brutal_sim.rulesets.brutal.compile`) → numba kernels (:mod:`brutal_sim.rulesets.brutal.kernel`,
run by :mod:`brutal_sim.run`) → counters → summaries (:mod:`brutal_sim.results`).
"""

__version__ = "0.1.0"
