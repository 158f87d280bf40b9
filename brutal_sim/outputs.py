"""Where a run writes: output paths checked before the first duel, written only when the run succeeded.

A run may only ever create or replace a regular file (``-o``), or a folder of its own files
(``--csv``): never a directory, FIFO, device, socket or symbolic link in place of a file, never an
input of the run, never a folder holding files it did not write. :func:`check_file` and
:func:`check_folder` refuse such a path with a :class:`~brutal_sim.core.errors.DataError` and create
nothing; :func:`write_file` and :func:`write_folder` create the parents, write beside the target and
move the result into place in one step, so that a failed or interrupted run leaves nothing behind
and an earlier run's files are never mixed with the new ones.
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from .core.errors import DataError

#: the file that marks a folder as written by ``--csv`` (it lists the files written there)
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
    """The files ``--csv`` wrote into ``folder`` (its manifest), or None if it has no manifest."""
    try:
        return set((folder / MANIFEST).read_text(encoding="utf-8").split())
    except (OSError, UnicodeDecodeError):
        return None


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
                            "an earlier --csv)")
        present = {c.name for c in p.iterdir()}
        own = _own_files(p) or set()
        foreign = sorted(present - own - {MANIFEST})
        if foreign:
            shown = ", ".join(foreign[:3]) + (" …" if len(foreign) > 3 else "")
            raise DataError(flag, None, f"{path} holds files brutal-sim did not write ({shown}); give a new or "
                            "empty folder")
        for source in inputs:
            if any(_same_file(p / name, source) for name in present):
                raise DataError(flag, None, f"{path} holds an input of this run ({source}); give another folder")
        if not os.access(p, os.W_OK | os.X_OK):
            raise DataError(flag, None, f"{path}: permission denied")
    _check_parent(flag, p)
    return p


def write_file(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file beside it: never half-written, the
    parents created only now."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; a report is for sharing
        if target.is_symlink() or (target.exists() and not target.is_file()):
            raise DataError(str(path), None, "became something other than a regular file during the run")
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_folder(path: str | Path, files: Mapping[str, Callable[[Path], None] | str]) -> list[Path]:
    """Write ``files`` (name → text, or a function writing the file at the path it is given) as the
    folder ``path``: built beside it, then moved into place, replacing an earlier run's folder as a
    whole. Runs writing one folder at once each put theirs in place whole: the last to finish wins
    and no earlier folder is left behind."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    build = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"))
    olds: list[Path] = []
    try:
        for name, content in files.items():
            if isinstance(content, str):
                (build / name).write_text(content, encoding="utf-8")
            else:
                content(build / name)
        (build / MANIFEST).write_text("\n".join(files) + "\n", encoding="utf-8")
        os.chmod(build, 0o777 & ~_umask())
        for attempt in range(_PLACE_ATTEMPTS):
            if target.exists():
                old = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.", suffix=".old"))
                os.rmdir(old)
                try:
                    os.replace(target, old)
                    olds.append(old)
                except FileNotFoundError:  # another run moved it aside meanwhile
                    pass
            try:
                os.replace(build, target)
                break
            except OSError as exc:  # another run put its folder in place meanwhile: move that aside too
                if exc.errno not in (errno.ENOTEMPTY, errno.EEXIST) or attempt == _PLACE_ATTEMPTS - 1:
                    raise
    except BaseException:
        shutil.rmtree(build, ignore_errors=True)
        if olds and olds[-1].exists() and not target.exists():
            os.replace(olds.pop(), target)
        for old in olds:
            shutil.rmtree(old, ignore_errors=True)
        raise
    for old in olds:
        shutil.rmtree(old, ignore_errors=True)
    return [target / name for name in files]


#: how often :func:`write_folder` tries to put its folder in place while other runs do the same
_PLACE_ATTEMPTS = 100


def _umask() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return umask


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
        (:func:`check_file`, :func:`check_folder`; ``inputs`` are never overwritten), one path
        named by two outputs, or ``--parquet`` without pyarrow."""
        inputs = list(inputs)
        if self.html:
            check_file("-o", self.html, inputs)
        for flag, folder in (("--csv", self.csv), ("--parquet", self.parquet)):
            if folder:
                check_folder(flag, folder, inputs)
        named = [(flag, path) for flag, path in (("-o", self.html), ("--csv", self.csv), ("--parquet", self.parquet))
                 if path]
        for k, (flag, path) in enumerate(named):
            for first, other in named[:k]:
                if Path(path).absolute() == Path(other).absolute():
                    what = "path" if first == "-o" else "folder"
                    raise DataError(flag, None, f"{first} and {flag} name the same {what} ({path}); give each its own")


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


def csv_writer(frame: Any) -> Callable[[Path], None]:
    """A function writing ``frame`` (a pandas DataFrame) as a CSV file at the path it is given,
    without its index; the text cells of its text columns neutralised (:func:`neutralised`), so that
    a name such as ``=HYPERLINK(…)`` opens as text in a spreadsheet. Parquet and JSON outputs keep
    the raw text."""

    def write(target: Path) -> None:
        from pandas.api.types import is_bool_dtype, is_numeric_dtype

        safe = frame.copy()
        for column in safe.columns:
            if not (is_numeric_dtype(safe[column]) or is_bool_dtype(safe[column])):
                safe[column] = safe[column].map(neutralised)
        safe.to_csv(target, index=False)

    return write
