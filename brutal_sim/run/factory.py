"""The executor factory: which :class:`~brutal_sim.run.executor.Executor` plays an API call's chunks."""

from __future__ import annotations

from typing import Any

from .cluster import DaskExecutor
from .executor import Executor, LocalExecutor


def resolve(executor: Executor | None = None, client: Any = None, threads: int | None = None) -> Executor:
    """The executor of an API call: ``executor`` as given, a :class:`~brutal_sim.run.cluster.DaskExecutor`
    on ``client`` (a ``distributed.Client``), or in-process on ``threads`` numba threads."""
    if executor is not None and client is not None:
        raise ValueError("give executor= or client=, not both")
    if executor is not None:
        return executor
    if client is not None:
        return DaskExecutor(client, threads)
    return LocalExecutor(threads)
