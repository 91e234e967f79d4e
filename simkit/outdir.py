"""Where a run or an analysis writes: the output directory, checked before anything runs, and the hidden
staging directory beside it. Plain paths only (no numpy, pandas or Numba), so the command line checks --out
before the library loads (simkit.cli.early), and so is whether a run directory already holds a run's
configuration (``finished``)."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .errors import SimkitError
from .integrity import check_folder
from .limits import MAX_MANIFEST_BYTES, check_output_name
from .storage import parse_json, read_inside

MANIFEST = "manifest.json"
PROGRESS = "progress.json"   # the configuration of a run being written, in its staging directory
CONFIG_KEYS = ("game", "lineup", "seed", "games", "first_game", "rotate_seats", "rules", "chunk_size")


def _read_json(path: Path, what: str):
    """A JSON file of a results folder: a plain file inside it, bounded in size and depth."""
    return parse_json(read_inside(path, MAX_MANIFEST_BYTES, what), f"{what} {path}")


def _differs(path: Path, config: dict) -> str | None:
    """The first configuration key in which the JSON file ``path`` differs from ``config`` (None: same)."""
    try:
        recorded = _read_json(path, "run")
    except (OSError, SimkitError):
        return f"an unreadable {path.name}"
    if not isinstance(recorded, dict):
        return f"an unreadable {path.name}"
    recorded.setdefault("first_game", 0)
    recorded.setdefault("rotate_seats", False)      # written before --rotate-seats existed
    return next((key for key in CONFIG_KEYS if recorded.get(key) != config[key]), None)


def finished(out: str | Path, config: dict, overwrite: bool = False) -> bool:
    """Whether ``out`` already holds the finished run of this configuration (checked against its manifest's
    names, sizes and checksum: a damaged one is refused in one line, or with ``overwrite`` played again)."""
    path = Path(out) / MANIFEST
    if not path.is_file() or _differs(path, config) is not None:
        return False
    try:
        check_folder(out, _read_json(path, "run"))
    except SimkitError:
        if overwrite:
            return False
        raise
    return True




def partial_dir(out: Path) -> Path:
    """Where a run into ``out`` is written until it is complete (and kept if it is interrupted)."""
    return out.with_name(f".{out.name}.partial")


def prepare_output(out: str | Path, overwrite: bool = False, config: dict | None = None) -> Path:
    """Check the output directory is free (or may be replaced) before anything runs. With a run's
    ``config``, a directory holding the same run (finished, or interrupted and kept) is accepted: the run
    is complete or resumes; one holding a different run is refused unless ``overwrite``."""
    given = out
    out = Path(out).resolve()
    check_output_name(out, given)
    if out == Path.cwd() or out in Path.cwd().parents:
        raise SimkitError(f"output path {given} is the working directory or above it; give a new directory")
    if out.exists() and not out.is_dir():
        raise SimkitError(f"output path {given} is a file; give a directory that does not exist yet")
    if config is not None and finished(out, config, overwrite):
        return out
    if out.is_dir() and any(out.iterdir()):
        if not overwrite:
            what = ("holds a different run (its " + _differs(out / MANIFEST, config) + " differs)"
                    if config is not None and (out / MANIFEST).is_file() else "already exists and is not empty")
            raise SimkitError(f"output directory {given} {what}; use another --out or --overwrite")
        if not (out / MANIFEST).is_file():
            raise SimkitError(f"--overwrite replaces only run directories, and {given} has no {MANIFEST}")
    staging = partial_dir(out)
    if staging.is_symlink() or (staging.exists() and not staging.is_dir()):
        raise SimkitError(f"{staging} is in the way (a link or a file, not a folder simkit made); remove it")
    if config is not None and (staging / PROGRESS).is_file() and not overwrite:
        key = _differs(staging / PROGRESS, config)
        if key:
            raise SimkitError(f"{staging} holds an interrupted run into {given} whose {key} differs; run its own "
                              "command again to finish it, or use --overwrite to discard it")
    existing = out.parent
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        raise SimkitError(f"cannot create {out}: {existing} is a file, not a directory")
    try:        # a real attempt: os.access says yes for root on a read-only or virtual file system (/proc)
        os.rmdir(tempfile.mkdtemp(prefix=".simkit-probe-", dir=existing))
    except OSError as exc:
        raise SimkitError(f"cannot create {out} in {existing}: {exc.strerror}") from None
    return out
