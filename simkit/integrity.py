"""Run folders that verify themselves: the manifest lists every Parquet part with its rows, size and SHA-256,
and carries a checksum of its own content, so a missing, extra, duplicated, truncated or edited part, or an
edited manifest (``games``, ``seed``...), is refused by every reader in one line saying what to do.

``check_folder`` is cheap (names and sizes) and runs wherever a manifest is read; ``read_part`` checks a
part's checksum and rows as its bytes are read, so a summary reads every byte once.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from pathlib import Path

from .errors import SimkitError
from .limits import MAX_PART_BYTES
from .storage import read_inside, sha256

PART = re.compile(r"^part-(\d{6,})\.parquet$")
REMEDY = ("run the command that made it again with --overwrite (its manifest.json says what was run), "
          "or restore the folder from a copy")


class Damaged(SimkitError):
    """A results folder whose files do not match its manifest."""


def part_name(index: int) -> str:
    return f"part-{index:06d}.parquet"


def part_entry(name: str, data: bytes, rows: int) -> dict:
    """What the manifest records of one part."""
    return {"file": name, "rows": int(rows), "bytes": len(data), "sha256": sha256(data)}


def manifest_checksum(manifest: dict) -> str:
    """SHA-256 of the manifest's content without its own ``checksum`` (canonical JSON)."""
    body = {key: value for key, value in manifest.items() if key != "checksum"}
    return hashlib.sha256(json.dumps(body, sort_keys=True, default=_plain).encode()).hexdigest()


def _plain(value):
    if hasattr(value, "item"):
        return value.item()
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")


def seal(manifest: dict) -> dict:
    """The manifest with its checksum (the last key, so the file reads as before)."""
    return {**manifest, "checksum": manifest_checksum(manifest)}


def _damaged(directory: Path, what: str) -> Damaged:
    return Damaged(f"{directory} is damaged: {what}; {REMEDY}")


def check_folder(directory: str | Path, manifest: dict) -> list[dict]:
    """Check a run folder against its manifest (checksum, part names, counts, rows and sizes) and return
    the manifest's part entries in order; any difference is a one-line Damaged error."""
    directory = Path(directory)
    if "parts" not in manifest or "checksum" not in manifest:
        raise SimkitError(f"{directory} was written by an older simkit, without checksums; it cannot be "
                          "verified: run its command again with --overwrite")
    if manifest.get("checksum") != manifest_checksum(manifest):
        raise _damaged(directory, "manifest.json was edited (its checksum does not match its content)")
    entries = manifest["parts"]
    if not isinstance(entries, list) or not all(isinstance(e, dict) and isinstance(e.get("file"), str)
                                                and PART.match(e["file"]) for e in entries):
        raise _damaged(directory, "manifest.json lists parts that are not part-NNNNNN.parquet files")
    listed = [entry["file"] for entry in entries]
    if len(set(listed)) != len(listed):
        raise _damaged(directory, "manifest.json lists a part twice")
    present = {path.name for path in directory.iterdir() if PART.match(path.name)}
    missing = [name for name in listed if name not in present]
    if missing:
        raise _damaged(directory, f"{missing[0]} is missing" + (f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""))
    extra = sorted(present - set(listed))
    if extra:
        raise _damaged(directory, f"{extra[0]} is not one of the run's parts (an extra or duplicated part)")
    players = len(manifest.get("lineup", ())) or 1
    if sum(entry.get("rows", 0) for entry in entries) != manifest.get("games", -1) * players:
        raise _damaged(directory, f"its parts hold {sum(e.get('rows', 0) for e in entries):,} rows, not "
                                  f"{manifest.get('games')} games x {players} players")
    for entry in entries:
        info = os.lstat(directory / entry["file"])
        if not stat.S_ISREG(info.st_mode):
            raise _damaged(directory, f"{entry['file']} is not a plain file (a link?)")
        if info.st_size != entry.get("bytes"):
            raise _damaged(directory, f"{entry['file']} has {info.st_size:,} bytes, not {entry.get('bytes')}: "
                                      "truncated or edited")
    return entries


def read_part(directory: str | Path, entry: dict) -> bytes:
    """A part's bytes, checked against its manifest entry (size and SHA-256)."""
    directory = Path(directory)
    data = read_inside(directory / entry["file"], MAX_PART_BYTES, f"run {directory}")
    if len(data) != entry.get("bytes") or sha256(data) != entry.get("sha256"):
        raise _damaged(directory, f"{entry['file']} does not match its checksum: truncated or edited")
    return data
