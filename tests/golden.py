"""Golden files: text the project produces that must not change unless on purpose. A test compares the
text with its file; run the tests with SIMKIT_REGOLD=1 to rewrite the files after a deliberate change,
and review the diff."""
from __future__ import annotations

import os
from pathlib import Path


def assert_golden(path: Path, text: str) -> None:
    """``text`` must equal the file at ``path`` (rewritten instead when SIMKIT_REGOLD is set)."""
    text = text if text.endswith("\n") else text + "\n"
    if os.environ.get("SIMKIT_REGOLD"):
        path.write_text(text)
    assert path.is_file(), f"{path} is missing: run the tests once with SIMKIT_REGOLD=1"
    assert text == path.read_text(), f"{path.name} differs; if the change is deliberate, regenerate with SIMKIT_REGOLD=1"
