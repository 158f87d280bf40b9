"""Ruleset modules (see :mod:`brutal_sim.ruleset` and docs/rulesets.md)."""
