"""Every analysis plays on a Dask cluster (simkit.distributed.using) exactly as on the local pool.

One LocalCluster of two worker processes serves the whole module. Each command runs on the local backend
with one worker (in this process, other chunk sizes) and on the cluster with two; the games each analysis
played (every frame ``play_jobs`` built, in order: a search's trials follow from them) and its printed
report must be the same.
"""
import json
import os
import signal
import textwrap

import pandas as pd
import pytest

from simkit import distributed
from simkit.analysis import play
from simkit.cli import main

pytest.importorskip("dask.distributed")

SEARCH = ["--trial-games", "24", "--games", "24", "--parallel", "2"]
COMMANDS = {
    "compare": ["compare", "wheedle", "--set-b", "scoring.false_stop=-10", "-n", "120"],
    "tournament": ["tournament", "wheedle", "-s", "hair-trigger,patient,threshold", "-p", "3", "-n", "120"],
    "sweep": ["sweep", "wheedle", "--strategy", "threshold", "--param", "points=12:20:8", "--field", "patient,blocker",
              "-n", "60"],
    "balance": ["balance", "wheedle", "-n", "120"],
    "tune": ["tune", "wheedle", "--strategy", "patient", "--field", "patient,patient", "--budget", "4",
             "--params", "points=5:40,patience=0:200", *SEARCH],
    "design": ["design", "wheedle", "--vary", "scoring.false_stop=-20:0", "--goal", "min:length", "--budget", "4",
               "--candidates", "1", *SEARCH],
    "metagame": ["metagame", "wheedle", "-s", "random,small-first,patient", "-p", "2", "-n", "60", "--bootstrap", "2"],
    "ladder": ["ladder", "wheedle", "-p", "3", "-s", "hair-trigger,patient,random", "-n", "36", "--screen-games", "8",
               "--confirm-games", "8", "--bootstrap", "2"],
}


@pytest.fixture(scope="module")
def cluster():
    from dask.distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=50) as running:
        yield running


@pytest.fixture
def games_played(monkeypatch):
    """Every frame the analyses build from played chunks, as a hash of its rows (compare them sorted: a call's
    frames are built in the order its jobs finish)."""
    played = []
    rows = play._rows

    def recorded(job, parts):
        frame = rows(job, parts)
        played.append(int(pd.util.hash_pandas_object(frame, index=False).sum()))
        return frame
    monkeypatch.setattr(play, "_rows", recorded)
    return played


def run_both(argv, cluster, capsys, games_played, local=("-w", "1"), remote=()):
    """The report and the games of ``argv`` on the local backend, then on the cluster: both must agree."""
    capsys.readouterr()
    main([*argv, "-q", *local])
    local_out, local_games = capsys.readouterr().out, list(games_played)
    games_played.clear()
    main([*argv, "-q", "--scheduler", cluster.scheduler_address, *remote])
    remote_out = capsys.readouterr().out
    assert local_games and sorted(games_played) == sorted(local_games)
    assert remote_out == local_out
    return remote_out


@pytest.mark.parametrize("command", COMMANDS)
def test_every_analysis_on_a_cluster_equals_local(command, cluster, capsys, games_played):
    run_both(COMMANDS[command], cluster, capsys, games_played)


def test_experiment_on_a_cluster_equals_local(cluster, capsys, games_played, tmp_path):
    toml = tmp_path / "e.toml"
    toml.write_text(textwrap.dedent("""\
        game = "wheedle"
        games = 24
        [[analysis]]
        kind = "compare"
        sets_b = ["scoring.false_stop=-10"]
        """))
    out = run_both(["experiment", "run", str(toml), "--out", str(tmp_path / "out")], cluster, capsys, games_played,
                   local=("-w", "1"), remote=("--overwrite",))
    assert "false_stop" in out


def test_search_reproducible_for_a_batch_size_on_any_backend_and_workers(cluster, capsys, games_played):
    """A tune of 6 trials in batches of 3: the same on one local worker and on the cluster's two (other chunk
    sizes too); another batch size is another search."""
    argv = ["tune", "wheedle", "--strategy", "patient", "--field", "patient,patient", "--budget", "6",
            "--params", "points=5:40,patience=0:200", "--trial-games", "24", "--games", "24", "--parallel", "3"]
    out = run_both(argv, cluster, capsys, games_played)
    assert "6 trials in 2 rounds of up to 3" in out
    main([*argv[:-1], "2", "-q", "-w", "1"])
    assert "6 trials in 3 rounds of up to 2" in capsys.readouterr().out


MY_STRATEGY = '''
from simkit.strategy import Strategy, registered

mine = Strategy.build("wheedle", "mine", base=registered("wheedle")["patient"], params={"points": 33.0})
'''


def test_a_strategy_file_reaches_the_workers_by_upload(cluster, capsys, games_played, tmp_path, clean_sys_path):
    (tmp_path / "h28_uploaded.py").write_text(MY_STRATEGY)
    clean_sys_path.chdir(tmp_path)      # this process finds it in the working directory; the workers do not
    argv = ["compare", "wheedle", "--players", "h28_uploaded:mine,patient,patient", "--set-b", "scoring.false_stop=-10",
            "-n", "60"]
    with pytest.raises(SystemExit) as refused:
        main([*argv, "-q", "--scheduler", cluster.scheduler_address])
    assert refused.value.code == 2
    assert "cannot import module 'h28_uploaded'" in capsys.readouterr().err
    games_played.clear()
    run_both(argv, cluster, capsys, games_played, remote=("--upload", "h28_uploaded.py"))


def test_a_run_reaches_the_workers_by_upload(cluster, capsys, tmp_path, clean_sys_path):
    """``simkit run`` takes the analyses' execution options, --upload too: refused in one line without it (and
    nothing written), the local backend's dataset bit for bit with it."""
    (tmp_path / "h28_run_uploaded.py").write_text(MY_STRATEGY)
    clean_sys_path.chdir(tmp_path)
    argv = ["run", "wheedle", "--players", "h28_run_uploaded:mine,patient,patient", "-n", "300", "--chunk-size", "50",
            "-q"]
    capsys.readouterr()
    with pytest.raises(SystemExit) as refused:
        main([*argv, "-o", "refused", "--scheduler", cluster.scheduler_address])
    lines = capsys.readouterr().err.strip().splitlines()
    assert refused.value.code == 2 and len(lines) == 1 and "cannot import module 'h28_run_uploaded'" in lines[0]
    assert not (tmp_path / "refused").exists() and not list(tmp_path.glob(".refused*"))
    main([*argv, "-o", "local", "-w", "1"])
    main([*argv, "-o", "dask", "--scheduler", cluster.scheduler_address, "--upload", "h28_run_uploaded.py"])
    parts = sorted(path.name for path in (tmp_path / "local").glob("part-*.parquet"))
    assert len(parts) == 6
    assert [(tmp_path / "local" / name).read_bytes() for name in parts] == \
        [(tmp_path / "dask" / name).read_bytes() for name in parts]
    assert json.loads((tmp_path / "dask" / "manifest.json").read_text())["backend"] == "dask"


def _one_line_each(argv, backends, capsys, tmp_path) -> list:
    """The command ``argv`` run once with each of ``backends``' options: each stops with one line, exit status 1,
    writing nothing, and the lines are the same; returns them."""
    lines = []
    for where in backends:
        with pytest.raises(SystemExit) as stopped:
            main([*argv, "-o", "out", *where])
        lines.append(capsys.readouterr().err.strip().splitlines())
        assert stopped.value.code == 1 and len(lines[-1]) == 1, lines[-1]
        assert not (tmp_path / "out").exists()
    assert lines[0] == lines[1]
    return lines


def test_a_strategy_error_on_a_worker_reads_as_it_does_locally(cluster, capsys, tmp_path, clean_sys_path):
    """A decision that raises stops the command with the same one line on a Dask worker as in the local pool
    (the game, seat and decision under way, the suspect and the replay command), exit status 1; the worker's
    traceback is the error's cause, as locally."""
    from simkit import pool
    from simkit.distributed import using
    from simkit.runner import make_batch

    from .careless_behaviours import BEHAVIOURS, strategy_source

    behaviour = next(b for b in BEHAVIOURS if b.name == "raises")
    (tmp_path / "h28_raises.py").write_text(strategy_source("wheedle", behaviour, "h28_raises")
                                            + "h28_raises = STRATEGY\n")
    clean_sys_path.chdir(tmp_path)
    argv = ["run", "wheedle", "--games", "40", "--chunk-size", "40", "-q", "-p", "tuned,h28_raises:h28_raises,patient"]
    pool.warm(make_batch("wheedle", 1, None, 0))   # else this process's first game of wheedle (its warm-up) fails here
    capsys.readouterr()
    lines = _one_line_each(argv, (["-w", "2"], ["--scheduler", cluster.scheduler_address, "--upload",
                                                  "h28_raises.py"]), capsys, tmp_path)
    causes = []
    assert "ValueError: careless" in lines[0][0] and "seat 1 (h28_raises)" in lines[0][0], lines[0]
    assert "replay it: simkit replay wheedle --seed 0 --game 0 -p tuned,h28_raises:" in lines[0][0]
    batch = make_batch("wheedle", 40, ["tuned", "h28_raises:h28_raises", "patient"], 0)
    for backend in ("local", "dask"):
        with using(backend, 2, cluster.scheduler_address if backend == "dask" else None), \
                pytest.raises(Exception) as raised:
            pool.play_chunks([pool.Chunk(batch, 0, 20), pool.Chunk(batch, 20, 20)], lambda chunk, columns: None, 2)
        causes.append(raised.value.__cause__)
    assert all(isinstance(cause, pool.RemoteTraceback) and "careless" in str(cause) for cause in causes), causes


def test_a_stuck_decision_on_a_worker_reads_as_it_does_locally(cluster, capsys, tmp_path, clean_sys_path,
                                                                monkeypatch):
    """A decision that never returns stops the command after --decision-timeout with the same one line on a Dask
    worker (whose task plays in a watched child process) as in the local pool, exit status 1, and the worker
    goes on serving: a command after it plays as before."""
    from simkit import pool
    from simkit.runner import make_batch

    from .careless_behaviours import BEHAVIOURS, strategy_source

    behaviour = next(b for b in BEHAVIOURS if b.name == "infinite-loop")
    (tmp_path / "h28_hangs.py").write_text(strategy_source("wheedle", behaviour, "h28_hangs") + "h28_hangs = STRATEGY\n")
    clean_sys_path.chdir(tmp_path)
    monkeypatch.setenv("SIMKIT_DECISION_TIMEOUT", "300")     # restored after main sets it from --decision-timeout
    argv = ["run", "wheedle", "--chunk-size", "40", "-q", "-p", "tuned,h28_hangs:h28_hangs,patient",
            "--decision-timeout", "10"]
    pool.warm(make_batch("wheedle", 1, None, 0))   # this process's warm-up game of wheedle: not the stuck line-up
    capsys.readouterr()
    # locally two chunks (one is played here, unwatched); on the cluster one task
    lines = _one_line_each(argv, (["-n", "80", "-w", "2"], ["-n", "40", "--scheduler", cluster.scheduler_address,
                                                            "--upload", "h28_hangs.py"]), capsys, tmp_path)
    assert "is stuck: a decision has not returned in 10 s (--decision-timeout)" in lines[0][0], lines[0]
    assert "seat 1 (h28_hangs)" in lines[0][0], lines[0]
    capsys.readouterr()
    main(["tournament", "wheedle", "-s", "hair-trigger,patient,threshold", "-p", "3", "-n", "60", "-q",
          "--scheduler", cluster.scheduler_address, "--decision-timeout", "10"])
    assert "hair-trigger" in capsys.readouterr().out


def test_a_cluster_left_without_workers_stops_in_one_line(monkeypatch):
    """Tasks on a cluster that has no workers (all died or were stopped) would wait forever: after NO_WORKERS_S
    the command stops with one line saying so (WorkerDied: exit status 1)."""
    from dask.distributed import LocalCluster

    from simkit import pool
    from simkit.distributed import using
    from simkit.errors import WorkerDied
    from simkit.runner import make_batch

    monkeypatch.setattr(distributed, "WATCH_S", 0.2)
    monkeypatch.setattr(distributed, "NO_WORKERS_S", 1.0)
    batch = make_batch("wheedle", 40, None, 0)
    with LocalCluster(n_workers=0, dashboard_address=None, silence_logs=50) as empty, \
            using("dask", scheduler=empty.scheduler_address), pytest.raises(WorkerDied) as stopped:
        pool.play_chunks([pool.Chunk(batch, 0, 20), pool.Chunk(batch, 20, 20)], lambda chunk, columns: None, 2)
    assert f"the Dask cluster at {empty.scheduler_address} has had no workers for 1 s" in str(stopped.value)


def test_a_current_client_of_ones_own_does_not_hold_up_the_tasks(cluster):
    """A ``dask.distributed.Client`` of the caller's own, made current, while simkit plays on the cluster: the
    tasks are tracked on simkit's own client's event loop, so every chunk comes back, as on the local pool."""
    from dask.distributed import Client

    from simkit import pool
    from simkit.distributed import using
    from simkit.runner import make_batch

    batch = make_batch("wheedle", 160, None, 0)
    chunks = [pool.Chunk(batch, first, 20) for first in range(0, 160, 20)]
    played = {}
    for backend in ("local", "dask"):
        columns = {}
        with Client(cluster.scheduler_address) as _, using(backend, 2, cluster.scheduler_address
                                                            if backend == "dask" else None):
            pool.play_chunks(chunks, lambda chunk, got: columns.__setitem__(chunk.first_game, got["points"].tolist()), 2)
        played[backend] = columns
    assert sorted(played["dask"]) == list(range(0, 160, 20)) and played["dask"] == played["local"]


def test_bench_times_a_tune_on_both_backends(cluster):
    from simkit.bench import analysis_times

    tune = analysis_times("wheedle", 2, 1, trials=2, games=24, trial_games=24, scheduler=cluster.scheduler_address)["tune"]
    assert tune["strategy"] and tune["wall_s_local"] > 0 and tune["wall_s_dask"] > 0
    assert len(tune["worker_cpu_s_local"]) == len(tune["worker_cpu_s_dask"]) == 2
    assert sum(tune["worker_cpu_s_dask"]) > 0 and tune["parent_cpu_s_local"] > 0


def test_a_worker_killed_mid_analysis_changes_nothing(cluster, capsys, games_played, monkeypatch):
    """The first chunk to come back while a worker process has chunks in flight kills that worker: the
    scheduler plays them again on the other worker (or the one its nanny starts), and the results are the same."""
    killed = []
    play_chunks = distributed.Cluster.play_chunks

    def killing(self, chunks, sink, check, bar, failed):
        def sink_then_kill(chunk, value):
            busy = [address for address, keys in self.client.processing().items() if keys] if not killed else []
            if busy:
                killed.extend(self.client.run(os.getpid, workers=busy[:1]).values())
                os.kill(killed[0], signal.SIGKILL)
            sink(chunk, value)
        play_chunks(self, chunks, sink_then_kill, check, bar, failed)

    monkeypatch.setattr(distributed.Cluster, "play_chunks", killing)
    run_both(["compare", "wheedle", "--set-b", "scoring.false_stop=-10", "-n", "2000"], cluster, capsys,
             games_played)
    assert killed
    from dask.distributed import Client

    with Client(cluster.scheduler_address) as client:
        client.wait_for_workers(2)     # the killed one's nanny started another
        assert killed[0] not in client.run(os.getpid).values()
