"""Resume: a run stopped at any point and started again with the same command ends with the dataset of an
uninterrupted run; the same command on a finished run does nothing; a different run is refused."""
import errno
import fcntl
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from simkit import runner, storage
from simkit.cli import main
from simkit.errors import SimkitError
from simkit.runner import Batch, RunInterrupted, make_batch, partial_dir, run_to_directory
from simkit.runner import _alive as runner_alive

ROOT = Path(__file__).resolve().parents[1]
# Dweebies: quick, and it reports batch totals (collection sizes) that must survive a resume.
ARGS = ["run", "dweebies", "--games", "600", "--seed", "9", "--chunk-size", "50", "-q"]


def same_dataset(a: Path, b: Path):
    parts = sorted(p.name for p in a.iterdir() if p.name.startswith("part-"))
    assert parts == sorted(p.name for p in b.iterdir() if p.name.startswith("part-")) and len(parts) > 1
    for name in parts:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
    ma, mb = (json.loads((d / "manifest.json").read_text()) for d in (a, b))
    assert ma["totals"] == mb["totals"] and sum(ma["totals"]["collection_sizes"]) > 0
    assert sorted(p.name for p in a.iterdir()) == sorted(p.name for p in b.iterdir())


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    out = tmp_path_factory.mktemp("ref") / "run"
    run_to_directory(make_batch("dweebies", 600, seed=9), out, workers=2, chunk_size=50)
    return out


def test_interrupted_run_resumes(reference, tmp_path, monkeypatch, capsys):
    calls = []
    real_play = Batch.play

    def play(self, first, n, check=False):
        if n > 1:               # not the engine's warm-up game
            calls.append(first)
        if len(calls) == 4:     # three chunks, then Ctrl-C
            raise KeyboardInterrupt
        return real_play(self, first, n, check)

    monkeypatch.setattr(Batch, "play", play)
    out = tmp_path / "run"
    with pytest.raises(SystemExit) as exc:
        main(ARGS + ["--out", str(out), "-w", "1"])
    assert exc.value.code == 130
    line, = capsys.readouterr().err.splitlines()
    assert "3 of 12 chunks" in line and "same command again to resume" in line
    assert not out.exists() and len(list(partial_dir(out).glob("part-*.parquet"))) == 3
    monkeypatch.setattr(Batch, "play", real_play)
    main(ARGS + ["--out", str(out), "-w", "2"])     # the worker count is no part of the configuration
    same_dataset(out, reference)
    assert json.loads((out / "manifest.json").read_text())["resumed_chunks"] == 3
    assert not partial_dir(out).exists()


def test_killed_run_resumes(tmp_path):
    args = ARGS[:2] + ["--games", "10000", "--seed", "9", "--chunk-size", "200", "-q"]
    out = tmp_path / "run"
    child = subprocess.Popen([sys.executable, "-c", "from simkit.cli import main; main()", *args, "--out", str(out),
                              "-w", "1"], cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT), SIMKIT_SUPERVISOR="0"),
                             start_new_session=True, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while len(list(partial_dir(out).glob("part-*.record.json"))) < 3 and child.poll() is None:
            assert time.monotonic() < deadline, "no parts appeared"
            time.sleep(0.005)
    finally:
        os.killpg(child.pid, signal.SIGKILL)
        child.wait()
    if out.exists():
        pytest.skip("the run finished before it could be killed")
    main(args + ["--out", str(out), "-w", "2"])
    reference = run_to_directory(make_batch("dweebies", 10000, seed=9), tmp_path / "ref", workers=2, chunk_size=200)
    same_dataset(out, reference)
    assert json.loads((out / "manifest.json").read_text())["resumed_chunks"] >= 3


def test_finished_run_is_left_alone(reference, tmp_path, capsys):
    out = tmp_path / "run"
    main(ARGS + ["--out", str(out), "-w", "1"])
    before = {p.name: p.stat().st_mtime_ns for p in out.iterdir()}
    capsys.readouterr()
    main(ARGS + ["--out", str(out), "-w", "2", "--overwrite"])
    assert "nothing to do" in capsys.readouterr().err
    assert {p.name: p.stat().st_mtime_ns for p in out.iterdir()} == before


def test_a_different_run_is_refused_unless_overwrite(cli_error, tmp_path, monkeypatch):
    out = tmp_path / "run"
    main(ARGS + ["--out", str(out), "-w", "1"])
    assert "seed differs" in cli_error(ARGS + ["--out", str(out), "--seed", "10"])
    main(ARGS + ["--out", str(out), "--seed", "10", "--overwrite"])
    assert json.loads((out / "manifest.json").read_text())["seed"] == 10

    real_play = Batch.play
    monkeypatch.setattr(Batch, "play", lambda self, first, n, check=False: (_ for _ in ()).throw(KeyboardInterrupt)
                        if first >= 100 else real_play(self, first, n, check))
    with pytest.raises(RunInterrupted):
        run_to_directory(make_batch("dweebies", 600, seed=9), tmp_path / "other", chunk_size=50)
    monkeypatch.setattr(Batch, "play", real_play)
    kept = partial_dir(tmp_path / "other")
    assert "chunk_size differs" in cli_error(ARGS + ["--out", str(tmp_path / "other"), "--chunk-size", "60"])
    assert len(list(kept.glob("part-*.parquet"))) == 2, "the refused command leaves the kept chunks alone"


def test_a_failure_before_any_chunk_leaves_nothing(tmp_path, monkeypatch):
    real_play = Batch.play
    monkeypatch.setattr(Batch, "play", lambda self, first, n, check=False: (_ for _ in ()).throw(KeyboardInterrupt)
                        if n > 1 else real_play(self, first, n, check))   # the warm-up game, then every chunk fails
    with pytest.raises(KeyboardInterrupt) as exc:
        run_to_directory(make_batch("dweebies", 600, seed=9), tmp_path / "run", chunk_size=50)
    assert not isinstance(exc.value, RunInterrupted)   # "nothing was written"
    assert list(tmp_path.iterdir()) == []


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_killed_parent_takes_its_workers_along(tmp_path, capsys):
    """kill -9 of `simkit run` alone (as the OOM killer does): its workers die within seconds, and the same
    command takes the run over and finishes it as if it had never stopped."""
    args = ARGS[:2] + ["--games", "20000", "--seed", "9", "--chunk-size", "200", "-q"]
    out = tmp_path / "run"
    child = subprocess.Popen([sys.executable, "-c", "from simkit.cli import main; main()", *args, "--out", str(out),
                              "-w", "2"], cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT), SIMKIT_SUPERVISOR="0"),
                             start_new_session=True, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while len(list(partial_dir(out).glob("part-*.record.json"))) < 3 and child.poll() is None:
            assert time.monotonic() < deadline, "no parts appeared"
            time.sleep(0.005)
        workers = _children(child.pid)
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        if out.exists():
            pytest.skip("the run finished before it could be killed")
        assert len(workers) == 3        # two workers and the reproducibility guard's checker (simkit.pool)
        deadline = time.monotonic() + 5
        while any(runner_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(runner_alive(pid) for pid in workers), "a worker outlived its parent"
    finally:
        try:
            os.killpg(child.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    capsys.readouterr()
    main(args + ["--out", str(out), "-w", "2"])
    note, = capsys.readouterr().err.splitlines()
    assert note.startswith(f"simkit: note: taking over {partial_dir(out)} from simkit run pid {child.pid}")
    reference = run_to_directory(make_batch("dweebies", 20000, seed=9), tmp_path / "ref", workers=2, chunk_size=200)
    same_dataset(out, reference)
    assert json.loads((out / "manifest.json").read_text())["resumed_chunks"] >= 3


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_in_a_terminal_stops_the_workers_in_one_line(tmp_path):
    """Ctrl-C reaches the whole process group: the workers leave it to their parent (no traceback of theirs),
    which stops them and says in one line what is kept."""
    out = tmp_path / "run"
    child = subprocess.Popen([sys.executable, "-c", "from simkit.cli import main; main()", *ARGS[:2], "--games", "20000",
                              "--chunk-size", "200", "-q", "--out", str(out), "-w", "2"], cwd=ROOT,
                             env=dict(os.environ, PYTHONPATH=str(ROOT)), start_new_session=True, stderr=subprocess.PIPE,
                             text=True)
    try:
        deadline = time.monotonic() + 120
        while len(list(partial_dir(out).glob("part-*.record.json"))) < 2 and child.poll() is None:
            assert time.monotonic() < deadline, "no parts appeared"
            time.sleep(0.005)
        supervised, = _children(child.pid)      # the command runs in a child of its supervisor (simkit.supervise)
        workers = _children(supervised)
        os.killpg(child.pid, signal.SIGINT)
        err = child.communicate(timeout=60)[1]
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
    if out.exists():
        pytest.skip("the run finished before it could be interrupted")
    assert child.returncode == 130 and len(workers) == 3    # two workers and the checker
    line, = err.splitlines()
    # On a loaded machine the run may still be stopping its workers when the supervisor's grace ends; the
    # supervisor then ends the command with its own one line (simkit.supervise), which says the same.
    assert (line.startswith("simkit: interrupted with ") and line.endswith("run the same command again to resume")
            or line == "simkit: interrupted; a run's finished chunks are kept and the same command resumes it"), line
    assert not any(runner_alive(pid) for pid in workers)


def test_a_live_lock_is_refused_and_a_dead_ones_taken_over(tmp_path, monkeypatch, capsys):
    staging = tmp_path / ".run.partial"
    staging.mkdir()
    with runner._run_lock(staging):
        with pytest.raises(SimkitError, match=rf"another simkit run \(pid {os.getpid()}\) is writing"):
            with runner._run_lock(staging):
                pass
    assert (staging / runner.LOCK).read_text() == "", "a run that ends by itself clears its pid"
    with open(staging / runner.LOCK) as older:     # an older simkit's lock records no pid: Linux knows it
        fcntl.flock(older, fcntl.LOCK_EX)
        with pytest.raises(SimkitError, match=rf"another simkit run \(pid {os.getpid()}\) is writing"):
            with runner._run_lock(staging):
                pass
    # A dead holder whose lock something else still holds (orphaned workers of an older simkit): replaced.
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    (staging / runner.LOCK).write_text(dead.stdout)
    orphan = open(staging / runner.LOCK)
    fcntl.flock(orphan, fcntl.LOCK_EX)
    monkeypatch.setattr(runner, "TAKEOVER_WAIT_S", 0.2)
    capsys.readouterr()
    with runner._run_lock(staging):
        assert (staging / runner.LOCK).read_text() == f"{os.getpid()}\n"
    assert capsys.readouterr().err.startswith(f"simkit: note: taking over {staging} from simkit run pid "
                                              f"{dead.stdout.strip()}, which is no longer running")
    orphan.close()


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_full_disk_ends_in_one_line_and_the_same_command_resumes(reference, tmp_path, monkeypatch, capsys, workers):
    """The fourth Parquet part meets a full disk: one line saying so and that 3 chunks are kept (exit 1), no
    half-written file left; after space is freed the same command finishes the dataset of an uninterrupted run."""
    real_write = storage.write
    parts = []

    def write(fd, data):
        if bytes(data[:4]) == b"PAR1":       # a Parquet part
            if len(parts) == 3:
                real_write(fd, bytes(data[:100]))      # half a part, then the disk is full
                raise OSError(errno.ENOSPC, "No space left on device")
            parts.append(fd)
        return real_write(fd, data)

    monkeypatch.setattr(storage, "write", write)
    out = tmp_path / "run"
    capsys.readouterr()
    with pytest.raises(SystemExit) as exc:
        main(ARGS + ["--out", str(out), "-w", workers])
    assert exc.value.code == 1
    line, = capsys.readouterr().err.splitlines()
    assert line == (f"simkit: error: writing the run failed: [Errno 28] No space left on device; 3 of 12 chunks are "
                    f"kept in {partial_dir(out)}: free some space, then run the same command again to resume")
    kept = {p.name for p in partial_dir(out).iterdir()}
    parts = {name for name in kept if name.endswith(".parquet")}
    assert len(parts) == 3 and not any(name.endswith(".tmp") for name in kept), "no half-written file is left"
    assert {name.replace(".parquet", ".record.json") for name in parts} == kept - parts - {"progress.json", ".lock"}
    monkeypatch.setattr(storage, "write", real_write)
    main(ARGS + ["--out", str(out), "-w", "2"])
    same_dataset(out, reference)
    assert json.loads((out / "manifest.json").read_text())["resumed_chunks"] == 3


def test_a_fault_before_any_chunk_keeps_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(runner.pq, "write_table", lambda *a, **k: (_ for _ in ()).throw(OSError(errno.EIO, "I/O error")))
    with pytest.raises(runner.RunFailed, match=r"^writing the run failed: \[Errno 5\] I/O error; no chunk was "
                                               "finished, so nothing is kept$"):
        run_to_directory(make_batch("dweebies", 600, seed=9), tmp_path / "run", chunk_size=50)
    assert list(tmp_path.iterdir()) == []
