"""``brutal-sim cache info`` and ``brutal-sim cache clear``: brutal_sim's machine code in numba's disk
cache (the logic in :mod:`brutal_sim.toolbox.cache`; docs/engine.md, "The disk cache").

Bad input prints one line ``error: …`` and exits 2; a missing cache is not an error.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

import typer

from .base import app, fail

cache_app = typer.Typer(add_completion=False, no_args_is_help=True, rich_markup_mode=None,
                        help="Where brutal_sim's compiled kernels are cached, what versions they are of; remove them.")
app.add_typer(cache_app, name="cache", help="Compiled kernels on disk: info (where, versions), clear.")

DIR_OPT = typer.Option(None, "--dir",
                       help="the cache folder to use instead of NUMBA_CACHE_DIR or numba's default places")
JSON_OPT = typer.Option(False, "--json", help="print JSON")


def _contents(cache_dir: Optional[str], remove: bool) -> Any:
    """What the cache holds (``remove``: after removing it)."""
    from ..toolbox import cache

    if cache_dir is not None:
        if not cache_dir.strip():
            fail("--dir: give a folder (an empty path names none)")
        if "\x00" in cache_dir:
            fail("--dir: a path cannot hold a NUL character")
        if Path(cache_dir).exists() and not Path(cache_dir).is_dir():
            fail(f"--dir: {cache_dir} is not a folder")
    location = cache.locate(None if cache_dir is None else Path(cache_dir))
    return cache.clear(location) if remove else cache.scan(location)


def _size(n: int) -> str:
    """Bytes for people: ``812 B``, ``4.1 kB``, ``12.3 MB``."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} B"


def _files(n: int, size: int) -> str:
    return f"{n} file{'' if n == 1 else 's'}, {_size(size)}"


@cache_app.command("info")
def info(cache_dir: Optional[str] = DIR_OPT, as_json: bool = JSON_OPT) -> None:
    """Where the cache is, how big brutal_sim's part of it is, and which versions of the sources
    (brutal_sim version, source tag, level, numba) it holds."""
    contents = _contents(cache_dir, remove=False)
    if as_json:
        typer.echo(json.dumps(contents.as_dict(), indent=1))
        return
    typer.echo(f"cache: {contents.location.where}")
    typer.echo(f"brutal_sim's code: {_files(contents.files, contents.bytes)}")
    for row in contents.groups():
        typer.echo(f"  brutal_sim {row['brutal_sim']}, sources {row['sources']}, jit {row['jit']}, numba "
                   f"{row['numba']}, Python {row['python']}: {len(row['modules'])} modules, "
                   f"{_files(row['files'], row['bytes'])}")
    numba_files = contents.as_dict()["numba_files"]
    if numba_files["files"]:
        typer.echo(f"  numba's own files of these sources (not by version): "
                   f"{_files(numba_files['files'], numba_files['bytes'])}")


@cache_app.command("clear")
def clear(cache_dir: Optional[str] = DIR_OPT, as_json: bool = JSON_OPT) -> None:
    """Remove brutal_sim's compiled kernels from the cache: the folders with brutal_sim's manifest
    under the cache's folder (never through a link) and numba's own files of this installation's
    sources, nothing else in a shared folder; the next run compiles them again."""
    removed = _contents(cache_dir, remove=True)
    if as_json:
        typer.echo(json.dumps({"removed": removed.as_dict()}, indent=1))
        return
    if not removed.files and not removed.versions:
        typer.echo(f"nothing to remove: {removed.location.where}")
        return
    typer.echo(f"removed {_files(removed.files, removed.bytes)} from {removed.location.where}: "
               f"{len(removed.versions)} version folders, {len(removed.numba_files)} of numba's own files")
