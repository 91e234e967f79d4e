"""Fault injection in SQLite's style: every write, fsync and rename a run makes (all go through
simkit.storage) is failed in turn; each failure must end the run with one line and exit status 1, leave no
temporary file and nothing half-written in --out, and the same command must then finish the dataset of an
uninterrupted run, part for part.

By default a spread of call sites is failed (the first, the last and a few between, per kind of call);
SIMKIT_LARGE_TESTS=1 fails every one (docs/development.md, "Running the tests")."""
import errno
import os
from contextlib import contextmanager

import pytest

from simkit import storage
from simkit.cli import main
from simkit.runner import make_batch, partial_dir, run_to_directory

ARGS = ["run", "dweebies", "--games", "200", "--seed", "5", "--chunk-size", "50", "-q", "-w", "1"]
SITES = ("write", "fsync", "replace")
LARGE = os.environ.get("SIMKIT_LARGE_TESTS", "") not in ("", "0")


@contextmanager
def failing(monkeypatch, site: str, nth: int | None):
    """Count the calls at ``site``; the ``nth`` (0-based) raises an I/O error (None: none fails)."""
    real = getattr(storage, site)
    calls = []

    def wrapper(*args):
        calls.append(args)
        if nth is not None and len(calls) - 1 == nth:
            raise OSError(errno.EIO, f"injected {site} fault")
        return real(*args)

    monkeypatch.setattr(storage, site, wrapper)
    try:
        yield calls
    finally:
        monkeypatch.setattr(storage, site, real)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    out = tmp_path_factory.mktemp("ref") / "run"
    run_to_directory(make_batch("dweebies", 200, seed=5), out, chunk_size=50)
    return out


def _files(folder):
    return sorted(p.name for p in folder.iterdir())


@pytest.mark.parametrize("site", SITES)
def test_every_storage_call_fails_in_turn_and_the_run_resumes(reference, tmp_path, monkeypatch, capsys, site):
    with failing(monkeypatch, site, None) as calls:
        main(ARGS + ["--out", str(tmp_path / "count")])
    total = len(calls)
    assert total >= 11, f"a run of 4 chunks makes at least 11 {site} calls, not {total}"
    chosen = range(total) if LARGE else sorted({0, 1, total // 4, total // 2, 3 * total // 4, total - 2, total - 1})
    for nth in chosen:
        out = tmp_path / f"{site}-{nth}"
        capsys.readouterr()
        with failing(monkeypatch, site, nth), pytest.raises(SystemExit) as exc:
            main(ARGS + ["--out", str(out)])
        err = capsys.readouterr().err
        assert exc.value.code == 1 and len(err.splitlines()) == 1 and f"injected {site} fault" in err, (nth, err)
        leftovers = [p for p in tmp_path.rglob("*") if p.name.endswith(storage.TEMP_SUFFIX)]
        assert not leftovers, f"{site} call {nth} left {leftovers}"
        if out.exists():        # only a failure after the final rename leaves --out: it must be whole
            assert _files(out) == _files(reference), (nth, _files(out))
        main(ARGS + ["--out", str(out)])
        assert _files(out) == _files(reference)
        for name in _files(reference):
            if name.startswith("part-"):
                assert (out / name).read_bytes() == (reference / name).read_bytes(), (site, nth, name)
        assert not partial_dir(out).exists()
