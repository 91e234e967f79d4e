"""Files that are safe to write and to read back: atomic, durable, bounded and confined to their folder.

Every file simkit writes goes through ``write_atomic``: the bytes go to a temporary file created
without following symlinks (``tempfile.mkstemp`` uses O_CREAT|O_EXCL|O_NOFOLLOW, under a fresh name, so a
link planted at a predictable name is never written through), are fsync'd, renamed over the target and the
folder is fsync'd, so a reader (or a resumed run) sees the old file or the whole new one, even after a
power cut. A failed write removes its temporary file. Every file simkit reads back from a results folder
goes through ``read_inside``: a plain file (not a link) inside the folder, of at most a given size.
The few system calls are made here (``write``, ``fsync``, ``replace``, imported by name) so that a fault-injection
test can fail each of them in turn (tests/test_faults.py).
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import tempfile
from os import fsync, replace, write  # the sites a fault-injection test fails (storage.write...)
from pathlib import Path

from .errors import SimkitError
from .limits import MAX_DEPTH, check_depth

TEMP_SUFFIX = ".tmp"


def fsync_dir(folder: Path) -> None:
    """Make a rename or a new file in ``folder`` durable."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fsync(fd)
    finally:
        os.close(fd)


def write_atomic(path: str | Path, data: bytes | str) -> None:
    """Write ``data`` to ``path`` all or nothing (see the module's docstring)."""
    path = Path(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name[:100]}.", suffix=TEMP_SUFFIX, dir=path.parent)
    try:
        try:
            os.fchmod(fd, 0o666 & ~_umask())     # as an ordinary open() would create it (mkstemp makes 0600)
            view = memoryview(data)
            while view:
                view = view[write(fd, view):]
            fsync(fd)
        finally:
            os.close(fd)
        replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
    fsync_dir(path.parent)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def replace_dir(staging: Path, out: Path) -> None:
    """Put a complete ``staging`` directory in place of ``out`` (replacing an old one) durably; the old one
    is moved aside first and removed last, so a crash leaves either the old or the new directory."""
    sync_tree(staging)
    old = None
    if out.exists() or out.is_symlink():
        old = out.with_name(f".{out.name}.old-{os.getpid()}")
        replace(out, old)
    replace(staging, out)
    fsync_dir(out.parent)
    if old is not None:
        if old.is_dir() and not old.is_symlink():
            shutil.rmtree(old)
        else:
            old.unlink()


def sync_tree(folder: Path) -> None:
    """fsync every file and folder below ``folder`` (what a results directory wrote with ordinary writes),
    before it is renamed into place."""
    for root, _, files in os.walk(folder):
        for name in files:
            path = os.path.join(root, name)
            if os.path.islink(path):
                continue
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
            try:
                fsync(fd)
            finally:
                os.close(fd)
        fsync_dir(Path(root))


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def inside(folder: str | Path, relative: str, what: str) -> Path:
    """``folder / relative`` for a name read from a file of that folder (a manifest): refused unless it is a
    plain name or a path below ``folder`` (no ``..``, no absolute path, no link leading out)."""
    folder = Path(folder)
    if not isinstance(relative, str) or not relative or "\0" in relative:
        raise SimkitError(f"{what}: {relative!r} is not a file name")
    candidate = folder / relative
    if Path(relative).is_absolute() or ".." in Path(relative).parts \
            or not candidate.resolve().is_relative_to(folder.resolve()):
        raise SimkitError(f"{what} names {relative!r}, which is outside {folder}; the file was edited or damaged")
    return candidate


def read_inside(path: Path, limit: int, what: str) -> bytes:
    """The bytes of ``path``, a plain file (not a symlink, FIFO or device) of at most ``limit`` bytes."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        raise SimkitError(f"{what}: {path} is missing") from None
    except OSError as exc:
        if Path(path).is_symlink():
            raise SimkitError(f"{what}: {path} is a symbolic link; results are read only from plain files "
                              "inside their folder") from None
        raise SimkitError(f"{what}: cannot read {path}: {exc.strerror}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise SimkitError(f"{what}: {path} is not a plain file")
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(limit + 1)
    finally:
        os.close(fd)
    if len(data) > limit:
        raise SimkitError(f"{what}: {path} is larger than the limit of {limit:,} bytes")
    return data


def read_bounded(path: str | Path, limit: int, what: str) -> bytes:
    """The bytes of a file a user names (it may be a link), reading at most ``limit`` bytes: ``/dev/zero``
    or a huge file is refused in one line rather than filling memory."""
    path = Path(path)
    try:
        with path.open("rb") as handle:
            data = handle.read(limit + 1)
    except FileNotFoundError:
        raise SimkitError(f"{what} {path} does not exist") from None
    except IsADirectoryError:
        raise SimkitError(f"{what} {path} is a directory, not a file") from None
    except OSError as exc:
        raise SimkitError(f"{what} {path} cannot be read: {exc.strerror}") from None
    if len(data) > limit:
        raise SimkitError(f"{what} {path} is larger than the limit of {limit:,} bytes")
    return data


def parse_json(data: bytes, what: str):
    """JSON text, refused in one line when it is not valid or is nested more than MAX_DEPTH levels deep."""
    try:
        value = json.loads(data)
    except RecursionError:
        raise SimkitError(f"{what} is nested more than {MAX_DEPTH} levels deep") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise SimkitError(f"{what} is not valid JSON: {' '.join(str(exc).split())}") from None
    check_depth(value, what)
    return value
