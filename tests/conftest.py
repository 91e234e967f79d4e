"""Shared fixtures. Numba compiles (or loads from its disk cache) the Wheedle engine once per process."""
from __future__ import annotations

import sys

import pytest

import simkit
from simkit import pool
from simkit.cli import main

from .helpers import wheedle


@pytest.fixture(scope="session")
def game():
    return wheedle()


@pytest.fixture
def cli_error(capsys):
    """Run ``simkit ARGS`` through main(); assert exit 2 and exactly one stderr line; return that line."""
    def run(argv):
        capsys.readouterr()
        with pytest.raises(SystemExit) as exc:
            main(list(argv))
        err = capsys.readouterr().err
        assert exc.value.code == 2, f"exit status {exc.value.code}, stderr: {err!r}"
        lines = err.splitlines()
        assert len(lines) == 1, f"expected one line on stderr, got: {err!r}"
        assert lines[0].startswith("simkit: error: "), lines[0]
        return lines[0]
    return run


@pytest.fixture(scope="session")
def run_dir(tmp_path_factory):
    """A finished run directory of the default line-up (shared, read-only)."""
    out = tmp_path_factory.mktemp("runs") / "w"
    simkit.run("wheedle", games=200, seed=3, out=out, workers=1)
    return out


@pytest.fixture
def clean_sys_path(monkeypatch):
    """User-strategy tests import modules from tmp dirs; keep sys.path as it was afterwards."""
    monkeypatch.setattr(sys, "path", list(sys.path))
    return monkeypatch


@pytest.fixture
def fresh_pool():
    """A pool forked inside the test (so its workers inherit the test's monkeypatches), stopped afterwards."""
    pool.shutdown()
    yield
    pool.shutdown()
