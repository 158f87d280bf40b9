"""Where a run writes: output paths checked before the first duel, written only when the run succeeded.

A run may only ever create or replace a regular file (``-o``), or a folder of its own files
(``--csv``, ``--parquet``, the explorer's saved setup): never a directory, FIFO, device, socket or
symbolic link in place of a file, never an input of the run, never a folder holding anything it did
not write (a folder it writes carries a manifest, :data:`MANIFEST`, naming its files), never two
outputs one inside the other. :func:`check_file`, :func:`check_folder` and :func:`check_apart`
refuse such paths with a :class:`~brutal_sim.core.errors.DataError` and create nothing.

The outputs of a run are staged beside their targets (:func:`staged`) and put in place together at
the end, each in one rename. A folder is checked again when it is replaced: moved aside, and put
back with a refusal if it holds a file that is not this program's (one saved there during the
run). A failed, interrupted or refused run leaves every target as it was and no temporary file
behind; a replaced folder is removed by its manifest, its own files only. Links inside a target
folder are never followed.
"""

from __future__ import annotations

import errno
import os
import secrets
import shutil
import stat
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping

from .core.errors import DataError

#: the file that marks a folder as written by this program (it lists the files written there)
MANIFEST = ".brutal-sim-files"


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a file" if stat.S_ISREG(mode) else "not a regular file"


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _check_parent(flag: str, path: Path) -> None:
    """The nearest existing ancestor of ``path`` must be a folder this process may write into."""
    parent = path.parent if str(path.parent) else Path(".")
    for ancestor in (parent, *parent.parents):
        if ancestor.exists() or ancestor.is_symlink():
            if not ancestor.is_dir():
                raise DataError(flag, None, f"{path}: {ancestor} is not a folder")
            if not os.access(ancestor, os.W_OK | os.X_OK):
                raise DataError(flag, None, f"{path}: cannot write into {ancestor} (permission denied)")
            return
    raise DataError(flag, None, f"{path}: no existing folder to write into")


#: the longest name of a file or folder (NAME_MAX of common file systems), and of an output: the
#: temporary file beside it adds ``.`` before and ``.XXXXXXXX.tmp`` after its name
NAME_MAX = 255
OUTPUT_NAME_MAX = NAME_MAX - len("..XXXXXXXX.tmp")


def _path(flag: str, path: str) -> Path:
    """``path`` as a Path; one the system cannot look up or write beside (a NUL character, a name
    too long, a loop of links) is refused now, not after the run."""
    if "\x00" in str(path):
        raise DataError(flag, None, f"{path}: a path cannot hold a NUL character")
    p = Path(path)
    if len(os.fsencode(p.name)) > OUTPUT_NAME_MAX or any(len(os.fsencode(part)) > NAME_MAX for part in p.parts):
        raise DataError(flag, None, f"{path}: name too long (at most {OUTPUT_NAME_MAX} bytes for the file or "
                        f"folder written, {NAME_MAX} for the folders above it)")
    try:
        os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        pass  # a new file, or one below a file (refused by _check_parent)
    except OSError as exc:
        raise DataError(flag, None, f"{path}: {exc.strerror or exc.__class__.__name__}") from None
    return Path(path)


def check_file(flag: str, path: str, inputs: Iterable[Path] = ()) -> Path:
    """``path`` may be created or replaced as a regular file: refused (one line, nothing created) if
    it is a link, a folder, a FIFO, a device or a socket, one of ``inputs``, or not writable."""
    p = _path(flag, path)
    if p.is_symlink():
        raise DataError(flag, None, f"{path} is a symbolic link; give the path of a regular file")
    if p.exists():
        mode = p.stat().st_mode
        if stat.S_ISDIR(mode):
            raise DataError(flag, None, f"{path} is a folder; give a file name such as "
                            f"{path.rstrip('/')}/report.html")
        if not stat.S_ISREG(mode):
            raise DataError(flag, None, f"{path} is {_kind(mode)}; only a regular file can be written")
        for source in inputs:
            if _same_file(p, source):
                raise DataError(flag, None, f"{path} is an input of this run ({source}); give another file")
        if not os.access(p, os.W_OK):
            raise DataError(flag, None, f"{path}: permission denied")
    _check_parent(flag, p)
    return p


def _own_files(folder: Path) -> set[str] | None:
    """The files an earlier run wrote into ``folder`` (its manifest, a regular file, never read
    through a link), or None if it has none."""
    manifest = folder / MANIFEST
    try:
        if not stat.S_ISREG(os.lstat(manifest).st_mode):
            return None
        fd = os.open(manifest, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, encoding="utf-8") as fh:
            return set(fh.read().split())
    except (OSError, UnicodeDecodeError):
        return None


def foreign_files(folder: Path) -> list[str]:
    """What ``folder`` holds that no earlier run of this program wrote there: every entry but its
    manifest and the regular files the manifest lists (a link, a subfolder or an unlisted file is
    foreign; links are never followed), sorted."""
    own = _own_files(folder)
    found = []
    with os.scandir(folder) as entries:
        for entry in entries:
            ours = own is not None and (entry.name == MANIFEST or entry.name in own)
            if not (ours and entry.is_file(follow_symlinks=False)):
                found.append(entry.name)
    return sorted(found)


def _listed(names: list[str]) -> str:
    return ", ".join(names[:3]) + (" …" if len(names) > 3 else "")


def check_folder(flag: str, path: str, inputs: Iterable[Path] = ()) -> Path:
    """``path`` may be (re)written as a folder of this run's files: it is new, empty, or holds only
    files an earlier run wrote there (listed in its manifest). Refused otherwise, creating nothing."""
    p = _path(flag, path)
    if p.is_symlink():
        raise DataError(flag, None, f"{path} is a symbolic link; give a folder")
    if p.exists():
        mode = p.stat().st_mode
        if not stat.S_ISDIR(mode):
            raise DataError(flag, None, f"{path} is {_kind(mode)}; give a folder (new, empty, or written by "
                            "brutal-sim)")
        if not os.access(p, os.R_OK | os.W_OK | os.X_OK):
            raise DataError(flag, None, f"{path}: permission denied")
        foreign = foreign_files(p)
        if foreign:
            raise DataError(flag, None, f"{path} holds files brutal-sim did not write ({_listed(foreign)}); give a "
                            "new or empty folder")
        for source in inputs:
            if any(_same_file(p / name, source) for name in os.listdir(p)):
                raise DataError(flag, None, f"{path} holds an input of this run ({source}); give another folder")
    _check_parent(flag, p)
    return p


def check_apart(named: Iterable[tuple[str, str]]) -> None:
    """Outputs (flag, path) that name one path, or one inside another (``-o D/r.html --csv D``,
    ``--csv D/p --parquet D``), are refused: the later would replace or delete the earlier."""
    named = list(named)
    for k, (flag, path) in enumerate(named):
        for first, other in named[:k]:
            for a, b in ((_spelled(path), _spelled(other)), (_real(path), _real(other))):
                if a == b:
                    what = "path" if "-o" in (first, flag) else "folder"
                    raise DataError(flag, None, f"{first} and {flag} name the same {what} ({path}); give each its own")
                for (f_in, p_in), (f_out, p_out), inner, outer in (((flag, path), (first, other), a, b),
                                                                     ((first, other), (flag, path), b, a)):
                    if outer in inner.parents:
                        raise DataError(f_in, None, f"{p_in} is inside {f_out} {p_out}; give outputs outside "
                                        "one another")


def _spelled(path: str) -> Path:
    return Path(os.path.abspath(path))


def _real(path: str) -> Path:
    return Path(os.path.realpath(path))


def _umask() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return umask


def _beside(target: Path, suffix: str) -> Path:
    """A new name beside ``target`` (nothing created): ``.NAME.XXXXXXXX.SUFFIX``."""
    return target.parent / f".{target.name}.{secrets.token_hex(4)}{suffix}"


class Staged:
    """Outputs written beside their targets now and put in place together by :meth:`commit`: each
    file as a temporary file, each folder as a temporary folder with a manifest naming its files.
    :meth:`discard` removes them. Use :func:`staged`."""

    def __init__(self) -> None:
        self._files: list[tuple[str, Path, Path]] = []  # (flag, target, temporary file)
        self._folders: list[tuple[str, Path, Path]] = []  # (flag, target, temporary folder)

    def file(self, flag: str, path: str | Path, text: str) -> None:
        """Stage ``text`` as the regular file ``path`` (its parents created now)."""
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
        self._files.append((flag, target, Path(tmp)))
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; a report is for sharing

    def folder(self, flag: str, path: str | Path, files: Mapping[str, Callable[[Path], None] | str]) -> None:
        """Stage ``files`` (name → text, or a function writing the file at the path it is given) as
        the folder ``path``, with the manifest that marks it as this program's."""
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        build = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"))
        self._folders.append((flag, target, build))
        for name, content in files.items():
            if isinstance(content, str):
                (build / name).write_text(content, encoding="utf-8")
            else:
                content(build / name)
        (build / MANIFEST).write_text("\n".join(files) + "\n", encoding="utf-8")
        os.chmod(build, 0o777 & ~_umask())

    def commit(self) -> None:
        """Put every staged output in place. Each file target must still be absent or a regular
        file; each folder target absent, empty or this program's (:func:`foreign_files`), checked
        once it is moved aside, so that a file saved into it meanwhile is seen. A refusal
        (:class:`DataError`) or a failure puts back what was moved and leaves no output replaced;
        the replaced folders are removed after, their own files only."""
        placed: list[tuple[Path, Path | None]] = []  # (target, the folder it replaced)
        try:
            for flag, target, _ in self._files:
                _still_a_file(flag, target)
            for flag, target, build in self._folders:
                placed.append((target, _place_folder(flag, build, target)))
            for _, target, tmp in self._files:
                os.replace(tmp, target)
        except BaseException:
            for target, old in reversed(placed):
                _put_back(target, old)
            raise
        self._files, self._folders = [], []
        for _, old in placed:
            if old is not None:
                _remove_own(old)

    def discard(self) -> None:
        """Remove whatever is still staged."""
        for _, _, tmp in self._files:
            tmp.unlink(missing_ok=True)
        for _, _, build in self._folders:
            shutil.rmtree(build, ignore_errors=True)
        self._files, self._folders = [], []


@contextmanager
def staged() -> Iterator[Staged]:
    """A :class:`Staged` whose outputs are put in place when the block ends, or removed if it
    raises (a failure, an interrupt, a refusal at the swap)."""
    stage = Staged()
    try:
        yield stage
        stage.commit()
    finally:
        stage.discard()


def _put_back(target: Path, old: Path | None) -> None:
    """Undo the placing of a folder at ``target``: the new folder removed, ``old`` (the folder it
    replaced, if any) moved back. A step another process made impossible is left undone."""
    gone = _beside(target, ".tmp")
    try:
        os.rename(target, gone)
        shutil.rmtree(gone, ignore_errors=True)
        if old is not None:
            os.rename(old, target)
    except OSError:
        pass


def _still_a_file(flag: str, target: Path) -> None:
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISREG(mode):
        kind = "a symbolic link" if stat.S_ISLNK(mode) else _kind(mode)
        raise DataError(flag, None, f"{target} became {kind} during the run; nothing written")


def _place_folder(flag: str, build: Path, target: Path) -> Path | None:
    """Move ``build`` to ``target``: what is there first moved aside and checked (:func:`_aside`);
    the folder it replaced, or None. Runs placing one folder at once each put theirs in place
    whole, the last to finish winning."""
    olds: list[Path] = []
    try:
        for attempt in range(_PLACE_ATTEMPTS):
            old = _aside(flag, target)
            if old is not None:
                olds.append(old)
            try:
                os.rename(build, target)
                break
            except OSError as exc:  # another run put its folder in place meanwhile: move that aside too
                if exc.errno not in (errno.ENOTEMPTY, errno.EEXIST) or attempt == _PLACE_ATTEMPTS - 1:
                    raise
    except BaseException:
        if olds and not os.path.lexists(target):
            os.rename(olds.pop(), target)
        for old in olds:
            _remove_own(old)
        raise
    for old in olds[:-1]:
        _remove_own(old)
    return olds[-1] if olds else None


def _aside(flag: str, target: Path) -> Path | None:
    """Move the folder at ``target`` aside and check that it holds only this program's files; put
    it back and refuse if not. None when nothing is there."""
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        return None
    if not stat.S_ISDIR(mode):
        kind = "a symbolic link" if stat.S_ISLNK(mode) else _kind(mode)
        raise DataError(flag, None, f"{target} became {kind} during the run; nothing written")
    old = _beside(target, ".old")
    try:
        os.rename(target, old)
    except FileNotFoundError:  # another run moved it aside meanwhile
        return None
    foreign = foreign_files(old)
    if foreign:
        try:
            os.rename(old, target)
        except OSError:
            raise DataError(flag, None, f"{target} holds files brutal-sim did not write ({_listed(foreign)}), "
                            f"saved there during the run; they are kept in {old}; nothing written") from None
        raise DataError(flag, None, f"{target} holds files brutal-sim did not write ({_listed(foreign)}), saved "
                        "there during the run; nothing written")
    return old


def _remove_own(folder: Path) -> None:
    """Remove a folder this program wrote: the files its manifest lists, the manifest, then the
    folder if that left it empty (a file saved into it meanwhile is kept, and the folder with it)."""
    own = _own_files(folder) or set()
    for name in (*own, MANIFEST):
        path = folder / name
        try:
            if stat.S_ISREG(os.lstat(path).st_mode):
                path.unlink()
        except OSError:
            pass
    try:
        os.rmdir(folder)
    except OSError:
        pass


#: how often a folder is put in place while other runs do the same (:func:`_place_folder`)
_PLACE_ATTEMPTS = 100


def write_file(path: str | Path, text: str, flag: str | None = None) -> None:
    """Write ``text`` to ``path`` through a temporary file beside it: never half-written, the
    parents created only now. ``flag`` names the output in a refusal (default: the path)."""
    with staged() as stage:
        stage.file(flag or str(path), path, text)


def write_folder(path: str | Path, files: Mapping[str, Callable[[Path], None] | str],
                 flag: str | None = None) -> list[Path]:
    """Write ``files`` (name → text, or a function writing the file at the path it is given) as the
    folder ``path``: built beside it, then moved into place, replacing an earlier run's folder as a
    whole; a folder that holds anything else when the new one is put in place is refused
    (:class:`DataError`, ``flag`` or the path naming it) and left as it is."""
    with staged() as stage:
        stage.folder(flag or str(path), path, files)
    return [Path(path) / name for name in files]


#: the key–value metadata of each Parquet file name their keys with this prefix
PARQUET_PREFIX = "brutal_sim."


@dataclass(frozen=True)
class Outputs:
    """What a command writes besides its terminal output: ``-o FILE`` (one HTML page), ``--csv
    DIR`` and ``--parquet DIR`` (its tables), each optional."""

    html: str | None = None
    csv: str | None = None
    parquet: str | None = None

    def check(self, inputs: Iterable[Path] = ()) -> None:
        """Refuse, before anything runs or is created, an output that may not be written
        (:func:`check_file`, :func:`check_folder`; ``inputs`` are never overwritten), or two
        outputs that name one path or one inside the other (:func:`check_apart`)."""
        inputs = list(inputs)
        if self.html:
            check_file("-o", self.html, inputs)
        for flag, folder in (("--csv", self.csv), ("--parquet", self.parquet)):
            if folder:
                check_folder(flag, folder, inputs)
        check_apart((flag, path) for flag, path in (("-o", self.html), ("--csv", self.csv), ("--parquet", self.parquet))
                    if path)


def require_parquet(flag: str = "--parquet") -> None:
    """``--parquet`` needs pyarrow (the optional extra ``parquet``): refused in one line without it."""
    try:
        import pyarrow  # noqa: F401
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        raise DataError(flag, None, "--parquet needs pip install 'brutal-sim[parquet]'") from None


def parquet_writer(frame: Any, metadata: Mapping[str, Any]) -> Callable[[Path], None]:
    """A function writing ``frame`` (a pandas DataFrame) as a Parquet file at the path it is given,
    with ``metadata`` in the file's key–value metadata: each key prefixed ``brutal_sim.``, each
    value as text (JSON for anything but a string)."""
    import json

    def write(target: Path) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pa.Table.from_pandas(frame, preserve_index=False)
        ours = {f"{PARQUET_PREFIX}{k}": v if isinstance(v, str) else json.dumps(v) for k, v in metadata.items()}
        pq.write_table(table.replace_schema_metadata({**(table.schema.metadata or {}), **ours}), target)

    return write


#: the first characters that make a spreadsheet read a CSV cell as a formula
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _plain_number(text: str) -> bool:
    """Whether ``text`` is a plain decimal number (``-1``, ``+0.5``, ``1e-3``): no formula, kept."""
    body = text[1:] if text[:1] in "+-" else text
    mantissa, e, exponent = body.lower().partition("e")
    if e:
        exponent = exponent[1:] if exponent[:1] in "+-" else exponent
        if not (exponent.isascii() and exponent.isdigit()):
            return False
    whole, _, fraction = mantissa.partition(".")
    digits = whole + fraction
    return digits.isascii() and digits.isdigit()


def neutralised(value: Any) -> Any:
    """A CSV cell that a spreadsheet would run as a formula (text starting with ``=``, ``+``,
    ``-``, ``@``, a tab or a carriage return) with a leading ``'``, so it is shown as text; other
    values, and plain numbers written as text (``-1``), as they are."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not _plain_number(value):
        return "'" + value
    return value


def csv_text(frame: Any) -> str:
    """``frame`` (a pandas DataFrame) as CSV text without its index, the text cells of its text
    columns neutralised (:func:`neutralised`), so that a name such as ``=HYPERLINK(…)`` opens as
    text in a spreadsheet."""
    from pandas.api.types import is_bool_dtype, is_numeric_dtype

    safe = frame.copy()
    for column in safe.columns:
        if not (is_numeric_dtype(safe[column]) or is_bool_dtype(safe[column])):
            safe[column] = safe[column].map(neutralised)
    return safe.to_csv(index=False)


def csv_writer(frame: Any) -> Callable[[Path], None]:
    """A function writing ``frame`` (a pandas DataFrame) as a CSV file at the path it is given
    (:func:`csv_text`). Parquet and JSON outputs keep the raw text."""

    def write(target: Path) -> None:
        target.write_text(csv_text(frame), encoding="utf-8", newline="")

    return write
