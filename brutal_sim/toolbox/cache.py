"""brutal_sim's machine code in numba's disk cache: how it is filed, where it is, what it holds, and
how it is removed (``brutal-sim cache info`` and ``brutal-sim cache clear``).

numba chooses one folder per folder of Python sources (its *locator*): with ``NUMBA_CACHE_DIR`` set,
``<NUMBA_CACHE_DIR>/<name>_<sha1 of the source folder's path>``; otherwise the ``__pycache__`` beside
the sources if it can be written, else the same ``<name>_<sha1>`` under numba's user-wide cache
folder (``~/.cache/numba``). numba's own files there are one index (``*.nbi``) per function and
numbered data files (``*.1.nbc``, …) shared by every version of the sources found at that path.

The kernel functions' cache (``brutal_sim.toolbox.jit``, on a tested numba) files its machine code
apart per version instead: inside numba's folder, in a folder of its own per version of the sources
and level, ``brutal_sim-<16 hex digits>`` (:func:`version_dir_name` of :func:`~brutal_sim.toolbox.jit.cache_tag`),
with a manifest (:data:`MANIFEST`) saying which version it is. Each compiled version of a function
is one file, ``<numba's file name base>.<16 hex digits of its key>.nbc`` (:func:`data_file_name`),
holding the key and the source stamp next to numba's payload, and is loaded only if both are the
ones asked for. A file is written under a temporary name and renamed (:func:`write_atomically`), so
a reader sees a whole file or none. There is no index to go stale: two versions of the sources, or
two processes saving different functions, never write to the same file.

No ruleset is named here; a ruleset package outside ``brutal_sim`` that uses its decorators is
cached the same way (and found by :func:`scan` under ``NUMBA_CACHE_DIR``).
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import re
import shutil
import stat
import sys
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

#: How this package's version folders begin.
VERSION_PREFIX = "brutal_sim-"
#: A version folder's name: the prefix and 16 hex digits.
VERSION_DIR = re.compile(re.escape(VERSION_PREFIX) + r"[0-9a-f]{16}")
#: The manifest of a version folder: which sources, level, numba and Python its code is from.
MANIFEST = "brutal_sim-cache.json"
#: The suffix of every data file (numba's own data files end in it too).
DATA_SUFFIX = ".nbc"
#: numba's own index files.
INDEX_SUFFIX = ".nbi"
#: The file format of the version folders (in the manifest).
FORMAT = 1


def _short_hash(value: Any) -> str:
    return hashlib.sha256(repr(value).encode()).hexdigest()[:16]


def version_dir_name(tag: tuple) -> str:
    """The name of the folder for the machine code of one version: ``tag`` is
    :func:`brutal_sim.toolbox.jit.cache_tag` (the sources' digest and the level)."""
    return VERSION_PREFIX + _short_hash(tag)


def data_file_name(base: str, key: tuple) -> str:
    """The data file of one compiled version of a function: numba's file name base of the function
    (``kernel._run-142.py311``) and 16 hex digits of the index key."""
    return f"{base}.{_short_hash(key)}{DATA_SUFFIX}"


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename: another
    process reading ``path`` sees the old file, the new one, or none, never part of one."""
    tmp = path.with_name(f"{path.name}.tmp.{uuid.uuid4().hex[:16]}")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


#: the line said once when compiled code cannot be kept (:func:`note_not_kept`)
NOT_KEPT = ("note: numba's cache folders cannot be written here: kernels compiled in this run are not kept "
            "(later runs compile them again; set NUMBA_CACHE_DIR to a writable folder to keep them)")
#: whether :data:`NOT_KEPT` was said in this process (empty: not yet)
NOT_KEPT_SAID: list[bool] = []


def note_not_kept() -> None:
    """Say on stderr, once per process, that compiled code cannot be kept (:data:`NOT_KEPT`)."""
    if not NOT_KEPT_SAID:
        NOT_KEPT_SAID.append(True)
        print(NOT_KEPT, file=sys.stderr)


_PACKAGE_DIGEST: list[str] = []


def _package_dir() -> Path:
    """The folder of the ``brutal_sim`` package in use, as imported (links not resolved: numba's
    folders are named after that path)."""
    return Path(os.path.abspath(__file__)).parents[1]


def package_digest() -> str:
    """A hash of every ``.py`` file of the ``brutal_sim`` package in use (its source tag), once per
    process (``brutal_sim.toolbox.jit`` takes it when imported)."""
    if not _PACKAGE_DIGEST:
        root = _package_dir()
        digest = hashlib.sha256()
        for path in sorted(root.rglob("*.py")):
            digest.update(f"{path.relative_to(root).as_posix()}\0".encode())
            digest.update(hashlib.sha256(path.read_bytes()).digest())
        _PACKAGE_DIGEST.append(digest.hexdigest())
    return _PACKAGE_DIGEST[0]


class VersionedFiles:
    """The files of one function's cached machine code, in the place of numba's
    ``IndexDataCacheFile`` (its ``save``, ``load`` and ``flush``).

    ``folder`` is numba's folder for the function's source folder, ``base`` numba's file name base,
    ``stamp`` numba's stamp of the function's file, ``manifest`` a function of the index key's tag
    giving the manifest of its version folder, ``dumps`` numba's serialiser."""

    def __init__(self, folder: str, base: str, stamp: Any, manifest: Callable[[tuple], dict[str, Any]],
                 dumps: Callable[[Any], bytes]) -> None:
        self._folder = Path(folder)
        self._base = base
        self._stamp = stamp
        self._manifest = manifest
        self._dumps = dumps

    def path(self, key: tuple) -> Path:
        """The data file of ``key`` (its last item is the cache tag)."""
        return self._folder / version_dir_name(key[-1]) / data_file_name(self._base, key)

    def save(self, key: tuple, data: Any) -> None:
        """Keep ``data`` (numba's reduced compile result) under ``key``. A cache that cannot be
        written is skipped, said once (:func:`note_not_kept`): it costs only a compile in the next
        process."""
        path = self.path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            manifest = path.parent / MANIFEST
            if not manifest.exists():
                write_atomically(manifest, (json.dumps(self._manifest(key[-1]), indent=1) + "\n").encode())
            write_atomically(path, self._dumps((key, self._stamp, data)))
        except OSError:
            note_not_kept()

    def load(self, key: tuple) -> Any:
        """numba's reduced compile result under ``key``, or None: none kept, unreadable, or kept for
        another key or source stamp. A damaged file (unreadable, not a pickle of ours) is said in one
        line on stderr; the compile that follows replaces it."""
        path = self.path(key)
        try:
            raw = path.read_bytes()
        except OSError:  # missing, removed meanwhile, or unreadable
            return None
        try:
            stored_key, stamp, data = pickle.loads(raw)
        except Exception:  # not a file of ours, cut short, or damaged
            print(f"warning: damaged cache file {path}: compiling again (the new code replaces it)", file=sys.stderr)
            return None
        if stored_key != key or stamp != self._stamp:
            return None
        return data

    def flush(self) -> None:
        """Remove every kept version of this function (of every version folder here)."""
        for path in self._folder.glob(f"{VERSION_PREFIX}*/{glob_escape(self._base)}.*{DATA_SUFFIX}"):
            path.unlink(missing_ok=True)


def glob_escape(text: str) -> str:
    """``text`` with the characters special to :meth:`Path.glob` bracketed."""
    return re.sub(r"([*?\[])", r"[\1]", text)


# -- where the cache is -----------------------------------------------------------------------------

def locator_subpath(source_dir: str) -> str:
    """The folder numba's locators give a source folder under ``NUMBA_CACHE_DIR`` or its user-wide
    cache: the folder's name and the SHA-1 of its absolute path (numba's
    ``_CacheLocator.get_suitable_cache_subpath``, which ``tests/core/test_cache.py`` compares)."""
    path = os.path.abspath(source_dir)
    return f"{os.path.basename(path)}_{hashlib.sha1(path.encode()).hexdigest()}"


def source_dirs(package_dir: Path | None = None) -> list[Path]:
    """The folders of ``brutal_sim``'s sources (the package in use unless ``package_dir``) that hold
    ``.py`` files."""
    root = package_dir or _package_dir()
    return sorted({p.parent for p in root.rglob("*.py") if "__pycache__" not in p.parts})


def user_wide_dir() -> Path:
    """numba's user-wide cache folder (used when a source folder's ``__pycache__`` is not writable)."""
    from numba.misc.appdirs import AppDirs

    return Path(AppDirs(appname="numba", appauthor=False).user_cache_dir)


def numba_folders(source_dir: str) -> list[Path]:
    """numba's folders for the sources in ``source_dir``, in the order its locators try them:
    ``NUMBA_CACHE_DIR``'s (when set), the ``__pycache__`` beside the sources, the user-wide one."""
    from numba.core import config

    subpath = locator_subpath(source_dir)
    first = [Path(config.CACHE_DIR) / subpath] if config.CACHE_DIR else []
    return [*first, Path(source_dir) / "__pycache__", user_wide_dir() / subpath]


def readable_folder(source_dir: str) -> Path | None:
    """The first of numba's folders for ``source_dir`` (:func:`numba_folders`) that holds a version
    folder of brutal_sim's, whether or not it can be written; None if none does."""
    return next((f for f in numba_folders(source_dir) if _version_folders([f], None)), None)


@dataclass
class Location:
    """Where brutal_sim's cached code is looked for."""

    #: In words: ``NUMBA_CACHE_DIR=…``, or numba's default.
    where: str
    #: ``NUMBA_CACHE_DIR`` (or the folder asked for), or None for numba's default places.
    root: Path | None
    #: numba's folders that may hold this installation's code (its own files and version folders).
    own_folders: list[Path]


def locate(cache_dir: str | os.PathLike[str] | None = None, package_dir: Path | None = None) -> Location:
    """The cache of this installation: ``cache_dir`` if given, else numba's ``NUMBA_CACHE_DIR``,
    else numba's default places for each source folder of the package (its ``__pycache__`` and the
    user-wide folder)."""
    dirs = source_dirs(package_dir)
    if cache_dir is None:
        from numba.core import config

        cache_dir = config.CACHE_DIR or None
        where = f"NUMBA_CACHE_DIR={cache_dir}"
    else:
        where = str(cache_dir)
    if cache_dir:
        root = Path(cache_dir)
        return Location(where, root, [root / locator_subpath(str(d)) for d in dirs])
    wide = user_wide_dir()
    package = package_dir or _package_dir()
    return Location(f"numba's default: __pycache__ beside the sources in {package}, or {wide}", None,
                    [d / "__pycache__" for d in dirs] + [wide / locator_subpath(str(d)) for d in dirs])


# -- what it holds ----------------------------------------------------------------------------------

@dataclass
class Version:
    """One version folder: its manifest, files and bytes."""

    path: Path
    manifest: dict[str, Any]
    files: int
    bytes: int


@dataclass
class Contents:
    """brutal_sim's cached code at a :class:`Location`."""

    location: Location
    versions: list[Version] = field(default_factory=list)
    #: numba's own index and data files of this installation's sources (an untested numba, or an
    #: older brutal_sim), outside the version folders.
    numba_files: list[Path] = field(default_factory=list)

    @property
    def files(self) -> int:
        """All files: the version folders' and numba's own."""
        return sum(v.files for v in self.versions) + len(self.numba_files)

    @property
    def bytes(self) -> int:
        """Their size."""
        return sum(v.bytes for v in self.versions) + sum(_size(p) for p in self.numba_files)

    def groups(self) -> list[dict[str, Any]]:
        """The versions held: one row per brutal_sim version, source tag, level, numba and Python,
        with its folders (one per module and level), files and bytes."""
        rows: dict[tuple, dict[str, Any]] = {}
        for v in self.versions:
            m = v.manifest
            key = tuple(str(m.get(k, "?")) for k in ("brutal_sim", "package_sources", "jit", "numba", "python"))
            row = rows.setdefault(key, {"brutal_sim": key[0], "sources": key[1], "jit": key[2], "numba": key[3],
                                        "python": key[4], "folders": 0, "modules": set(), "files": 0, "bytes": 0})
            row["folders"] += 1
            row["modules"].add(str(m.get("module", "?")))
            row["files"] += v.files
            row["bytes"] += v.bytes
        return [{**row, "modules": sorted(row["modules"])} for row in rows.values()]

    def as_dict(self) -> dict[str, Any]:
        """For ``--json``."""
        return {"where": self.location.where,
                "root": None if self.location.root is None else str(self.location.root),
                "files": self.files, "bytes": self.bytes, "versions": self.groups(),
                "version_folders": [str(v.path) for v in self.versions],
                "numba_files": {"files": len(self.numba_files), "bytes": sum(_size(p) for p in self.numba_files)}}


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _read_manifest(folder: Path) -> dict[str, Any]:
    """The manifest of a version folder (a regular file, never read through a link), or {}."""
    path = folder / MANIFEST
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return {}
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def is_version_manifest(data: dict[str, Any]) -> bool:
    """Whether ``data`` is a manifest :func:`manifest` wrote (its format, brutal_sim's version and
    source tag)."""
    return all(key in data for key in ("format", "brutal_sim", "package_sources"))


def _real_folder(path: Path) -> bool:
    """Whether ``path`` is a folder itself, not a link to one."""
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def _subfolders(parent: Path) -> list[Path]:
    """The folders in ``parent`` (a folder itself, not a link), links to folders left out."""
    if not _real_folder(parent):
        return []
    try:
        with os.scandir(parent) as entries:
            return [Path(e.path) for e in entries if e.is_dir(follow_symlinks=False)]
    except OSError:
        return []


def _version_folders(parents: Iterable[Path], root: Path | None) -> list[Path]:
    """The version folders in ``parents``: named as one, a folder (not a link), with a manifest of
    brutal_sim's, and under ``root`` once resolved (when there is a root)."""
    real_root = None if root is None else root.resolve()
    found = []
    for parent in parents:
        for folder in _subfolders(parent):
            if (VERSION_DIR.fullmatch(folder.name) and is_version_manifest(_read_manifest(folder))
                    and (real_root is None or folder.resolve().is_relative_to(real_root))):
                found.append(folder)
    return sorted(set(found))


def _regular_files(folder: Path) -> list[Path]:
    """The regular files in ``folder`` (links left out), in every subfolder that is no link."""
    files = []
    for dirpath, _dirs, names in os.walk(folder):
        files.extend(p for p in (Path(dirpath) / n for n in names) if stat.S_ISREG(os.lstat(p).st_mode))
    return files


def scan(location: Location) -> Contents:
    """What ``location`` holds of brutal_sim's: the version folders (under a cache root, those of
    every checkout and of ruleset packages using brutal_sim's decorators; elsewhere those of this
    installation) and numba's own ``*.nbi``/``*.nbc`` files in this installation's folders. Only
    folders with brutal_sim's manifest count as version folders, and no link is followed: a linked
    folder, or one that resolves outside the root, holds nothing of the cache's. A missing cache
    holds nothing."""
    # under a root, its folders (numba's folders of this installation among them)
    parents = list(location.own_folders) if location.root is None else _subfolders(location.root.resolve())
    contents = Contents(location)
    for folder in _version_folders(parents, location.root):
        files = _regular_files(folder)
        contents.versions.append(Version(folder, _read_manifest(folder), len(files), sum(_size(p) for p in files)))
    for folder in location.own_folders:
        if _real_folder(folder):
            contents.numba_files.extend(sorted(p for p in folder.iterdir() if p.suffix in (DATA_SUFFIX, INDEX_SUFFIX)
                                               and stat.S_ISREG(os.lstat(p).st_mode)))
    return contents


def clear(location: Location) -> Contents:
    """Remove brutal_sim's cached code at ``location`` (what :func:`scan` finds, nothing else) and
    return what was removed. Files removed meanwhile by someone else are not an error."""
    contents = scan(location)
    for version in contents.versions:
        shutil.rmtree(version.path, ignore_errors=True)
    for path in contents.numba_files:
        path.unlink(missing_ok=True)
    return contents


def manifest(module: str, module_sources: str, level: str, numba_version: str) -> dict[str, Any]:
    """The manifest of a version folder: the format, brutal_sim's version and source tag
    (:func:`package_digest`), the module and its sources' digest, the level, numba and Python."""
    # the version from the package's loaded module (an import of the top level would run up the layers)
    version = getattr(sys.modules.get("brutal_sim"), "__version__", "?")
    return {"format": FORMAT, "brutal_sim": version, "package_sources": package_digest()[:16],
            "module": module, "module_sources": module_sources, "jit": level, "numba": numba_version,
            "python": f"{sys.version_info[0]}.{sys.version_info[1]}{getattr(sys, 'abiflags', '')}"}
