"""The ``brutal-sim`` command line: ``duel``, ``fight``, ``attack``, ``weights``, ``suggest``,
``rate``, ``gauntlet``, ``headcount``, ``report``, ``diff``, ``list``, ``schema``.

A package by command family: :mod:`.base` (the app, its error boundary, shared options and
helpers), :mod:`.duels` (duel, attack, weights), :mod:`.fights` (fight), :mod:`.suggest` (suggest),
:mod:`.ratings` (rate), :mod:`.gauntlet` (gauntlet, headcount), :mod:`.reports` (report, diff),
:mod:`.catalog` (list, schema, version), :mod:`.cache` (cache info, clear). This module registers
them in that order and holds the entry point :func:`main`.


Bad input of any kind prints one line (``error: FILE: FIELD: what is allowed``) and exits 2.

Each command imports what it runs inside its own function, so that ``brutal-sim --help`` starts
without loading numba, pandas or matplotlib.
"""

from __future__ import annotations

import os
import signal
import sys

from ..core.errors import DataError
from ..core.limits import check_thread_count
from . import (  # noqa: F401  (each registers its commands on the app)
    cache,
    catalog,
    duels,
    fights,
    gauntlet,
    ratings,
    reports,
    suggest,
)
from .base import app, err, stop_requested

__all__ = ["app", "main"]


def main() -> None:
    """The ``brutal-sim`` entry point. Ctrl-C ends a run with one line and exit code 130 (typer
    turns the interrupt into ``Exit(130)`` itself; an interrupt outside it is caught here). SIGTERM
    ends a run as Ctrl-C does, its temporary files and folders removed; either, arriving while
    numba compiles, ends the run when the compile returns (:func:`.base.stop_requested`). Output that the terminal's
    encoding cannot show is written with replacement characters."""
    signal.signal(signal.SIGTERM, stop_requested)
    signal.signal(signal.SIGINT, stop_requested)
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")
    try:
        os.getcwd()
    except FileNotFoundError:
        err.print("error: the working folder no longer exists; change to an existing folder and run again",
                  highlight=False, markup=False, soft_wrap=True)
        sys.exit(2)
    threads = os.environ.get("NUMBA_NUM_THREADS")
    try:
        if threads is not None:
            check_thread_count(threads, "NUMBA_NUM_THREADS")
    except DataError as exc:
        err.print(f"error: {exc}", highlight=False, markup=False, soft_wrap=True)
        sys.exit(2)
    try:
        app()
    except KeyboardInterrupt:
        code: object = 130
    except SystemExit as exc:
        code = exc.code
    else:
        return
    if code == 130:
        err.print("interrupted", highlight=False)
    sys.exit(code)


if __name__ == "__main__":
    main()
