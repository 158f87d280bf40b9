"""Running chunks on a Dask cluster: the :class:`DaskExecutor`, and opening one from a ``--cluster``
value (``tcp://HOST:PORT``, ``local`` or ``local:N``).

Dask and distributed are an optional extra (``pip install -e ".[cluster]"``), imported only here and
only when a cluster is asked for. Chunking and merging are :mod:`brutal_sim.run.executor`'s; this module
only decides where a chunk runs. See ``docs/cluster.md``.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import signal
import time
import uuid
from concurrent.futures import CancelledError
from dataclasses import dataclass
from typing import Any, Iterator, Sequence

from ..core.errors import DataError
from .executor import CHUNK, ChunkResult, Executor, LocalExecutor, Task, Work, run_chunk

#: Seconds to wait for the scheduler to answer, and then for a first worker to join it.
CONNECT_TIMEOUT = 10.0

_ADDRESS = re.compile(r"^(?:(tcp|tls)://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9][A-Za-z0-9.\-_]*):(\d{1,5})$")
_LOCAL = re.compile(r"^local(?::(\d+))?$")
_FORMS = "tcp://HOST:PORT (a running scheduler), local (one worker per core) or local:N"


class ClusterError(DataError):
    """A ``--cluster`` value that is malformed or unusable, or a cluster that failed during a run."""

    def __init__(self, message: str) -> None:
        super().__init__("--cluster", None, message)


@dataclass(frozen=True)
class ClusterSpec:
    """A parsed ``--cluster`` value: a scheduler ``address``, or a local cluster of ``workers``
    processes (None: one per core)."""

    address: str | None = None
    workers: int | None = None

    @property
    def local(self) -> bool:
        return self.address is None


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:
        return os.cpu_count() or 1


def parse(value: str | None) -> ClusterSpec | None:
    """Parse a ``--cluster`` value; None or an empty value means in-process (no cluster)."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    m = _LOCAL.match(text)
    if m:
        workers = int(m.group(1)) if m.group(1) else None
        cores = usable_cores()
        if workers is not None and not 1 <= workers <= cores:
            raise ClusterError(f"local:{workers}: this machine has {cores} usable cores, so local:N takes 1 … {cores} "
                               "workers (one process per core; more only slow each other down); or local for one "
                               "per core")
        return ClusterSpec(workers=workers)
    m = _ADDRESS.match(text)
    if not m:
        raise ClusterError(f"expected {_FORMS}; got {value!r}")
    scheme, host, port = m.group(1) or "tcp", m.group(2), int(m.group(3))
    if not 1 <= port <= 65535:
        raise ClusterError(f"port must be 1 … 65535, got {port} in {value!r}")
    return ClusterSpec(address=f"{scheme}://{host}:{port}")


def _distributed() -> Any:
    """The ``distributed`` package, or a :class:`ClusterError` saying how to install it."""
    try:
        import distributed
    except ImportError:
        raise ClusterError("needs dask and distributed, which are not installed: "
                           "pip install 'brutal-sim[cluster]'") from None
    return distributed


class DaskExecutor(Executor):
    """Chunks as tasks on a Dask cluster (``client``: a ``distributed.Client``).

    Every chunk is submitted at once and collected as it completes, so progress follows the
    cluster. A chunk carries its arrays and the import path of its kernel, so each worker process
    imports the kernels once and keeps them warm. Chunks of a worker that dies are recomputed by
    Dask on the others. ``threads`` are numba threads per chunk on the worker (None: all its cores).
    """

    def __init__(self, client: Any, threads: int | None = None, chunk: int = CHUNK) -> None:
        super().__init__(threads, chunk)
        self.client = client

    def map(self, works: Sequence[Work], tasks: Sequence[Task]) -> Iterator[tuple[int, ChunkResult]]:
        distributed = _distributed()
        run = uuid.uuid4().hex[:12]
        futures = {self.client.submit(run_chunk, works[t.work], t.start, t.size, self.threads,
                                      key=f"brutal-sim-chunk-{run}-{i}"): i for i, t in enumerate(tasks)}
        try:
            done = distributed.as_completed(futures)
            while not done.is_empty():
                batch = done.next_batch(block=False)
                if not batch:
                    time.sleep(0.05)  # a sleep, not a blocking wait: Ctrl-C reaches the main thread
                for future in batch:
                    yield futures[future], future.result()
        except (OSError, TimeoutError, CancelledError, distributed.KilledWorker) as exc:  # lost scheduler, …
            detail = " ".join(str(exc).split())  # one line
            raise ClusterError(f"the Dask cluster failed during the run: {type(exc).__name__}: {detail}") from exc
        finally:
            self.client.cancel(list(futures))

    def describe(self) -> str:
        """Scheduler address, workers and threads, for the command line's log."""
        info = self.client.scheduler_info()
        workers = info.get("workers", {})
        threads = sum(w.get("nthreads", 0) for w in workers.values())
        return (f"Dask cluster {info.get('address', '?')}: {len(workers)} worker{'' if len(workers) == 1 else 's'}, "
                f"{threads} task thread{'' if threads == 1 else 's'}")


@contextlib.contextmanager
def quiet(level: int = logging.CRITICAL) -> Iterator[None]:
    """Silence distributed's loggers (connection retries, reconnect tracebacks, shutdown chatter)
    inside the block; Dask's logging configuration gives several of them their own level."""
    names = ["distributed", *(n for n in logging.root.manager.loggerDict if n.startswith("distributed."))]
    loggers = [logging.getLogger(n) for n in names]
    old = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(level)
    try:
        yield
    finally:
        for lg, lvl in zip(loggers, old):
            lg.setLevel(lvl)


@contextlib.contextmanager
def open_executor(spec: str | ClusterSpec | None, threads: int | None = None,
                  chunk: int | None = None) -> Iterator[Executor]:
    """The executor of a ``--cluster`` value, closed on exit.

    ``chunk``: duel indices per chunk (default: the executor's, ``LOCAL_CHUNK`` in-process, ``CHUNK``
    on a cluster). None: in-process. ``local`` / ``local:N``: a ``LocalCluster`` of worker processes (one per core
    unless N is given) with one task thread and, unless ``threads`` says otherwise, one numba thread
    each. An address: a ``Client`` of that scheduler; a :class:`ClusterError` if it cannot be reached
    within ``CONNECT_TIMEOUT`` seconds or has no worker by then.
    """
    target = parse(spec) if isinstance(spec, str) or spec is None else spec
    if target is None:
        yield LocalExecutor(threads) if chunk is None else LocalExecutor(threads, chunk)
        return
    distributed = _distributed()
    cluster = None
    with quiet():
        if target.local:
            # the worker processes ignore Ctrl-C (they inherit the ignored SIGINT): this process stops
            # them when it is interrupted, so an interrupt ends the run with one line, not their tracebacks
            handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
            try:
                cluster = distributed.LocalCluster(n_workers=target.workers or usable_cores(), threads_per_worker=1,
                                                   processes=True, dashboard_address=":0",
                                                   silence_logs=logging.ERROR)
            finally:
                signal.signal(signal.SIGINT, handler)
            client = distributed.Client(cluster)
            threads = threads or 1
        else:
            try:
                client = distributed.Client(target.address, timeout=CONNECT_TIMEOUT)
            except Exception as exc:  # refused, timed out, or something else answering (garbage handshake)
                raise ClusterError(f"cannot reach a Dask scheduler at {target.address} within "
                                   f"{CONNECT_TIMEOUT:.0f} s ({type(exc).__name__}); is `dask scheduler` running "
                                   "there?") from None
            try:
                client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
            except (OSError, TimeoutError):
                client.close()
                raise ClusterError(f"the Dask scheduler at {target.address} has no worker "
                                   f"(waited {CONNECT_TIMEOUT:.0f} s); start one with "
                                   f"`dask worker {target.address}`") from None
    try:
        yield DaskExecutor(client, threads) if chunk is None else DaskExecutor(client, threads, chunk)
    finally:
        with quiet():
            client.close()
            if cluster is not None:
                cluster.close()
