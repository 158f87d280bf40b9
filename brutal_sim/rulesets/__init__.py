"""Ruleset modules (see :mod:`brutal_sim.core.ruleset` and docs/rulesets.md)."""
