"""The process's one pool of workers (simkit.pool): reused by every call, able to play batches and strategies
made after it was forked, fed every batch of an analysis at once, and without effect on the results."""
import os
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest

from simkit import forked, pool
from simkit.analysis import balance, compare, sweep, tournament
from simkit.analysis import play as analysis_play
from simkit.cli import main
from simkit.faults import StrategyFault
from simkit.forked import map_forked
from simkit.runner import Batch, make_batch, run_to_frame
from simkit.strategy import Strategy, registered


def frame(batch, workers):
    return run_to_frame(batch, workers=workers, chunk_size=60)


def test_one_pool_plays_batches_made_after_it_was_forked(fresh_pool):
    first = make_batch("wheedle", 300, seed=1)
    forks = pool._forks
    pd.testing.assert_frame_equal(frame(first, 2), frame(first, 1))
    later = make_batch("wheedle", 300, ["blocker", "threshold:points=18", "bluffer", "patient", "hair-trigger"], seed=9,
                       sets=["scoring.false_stop=-10"])      # new line-up, player count, rules and seed
    pd.testing.assert_frame_equal(frame(later, 2), frame(later, 1))
    pd.testing.assert_frame_equal(frame(first, 2), frame(first, 1))
    assert pool._forks == forks + 1, "every call after the first reuses the pool"


def test_a_strategy_made_after_the_fork_makes_the_pool_fork_again(fresh_pool):
    batch = make_batch("wheedle", 200, seed=2)
    frame(batch, 2)
    forks = pool._forks
    base = registered("wheedle")["hair-trigger"]
    namespace = {}
    exec("def accept(hand, public, seen, offer, params, memory, rng):\n    return False\n", namespace)   # no file
    stubborn = Strategy.build("wheedle", "stubborn", base=base, accept=namespace["accept"])
    batch = make_batch("wheedle", 200, [stubborn, "threshold", "patient", "blocker"], seed=2)
    pd.testing.assert_frame_equal(frame(batch, 2), frame(batch, 1))
    assert pool._forks == forks + 1
    frame(batch, 2)
    assert pool._forks == forks + 1, "and only once"


def test_a_game_loaded_after_the_fork_makes_the_pool_fork_again(fresh_pool):
    pool._warm.discard("dweebies")      # as if this process had not played Dweebies yet
    frame(make_batch("wheedle", 200, seed=2), 2)
    forks = pool._forks
    batch = make_batch("dweebies", 200, seed=2)
    pd.testing.assert_frame_equal(frame(batch, 2), frame(batch, 1))
    assert pool._forks == forks + 1


@pytest.mark.parametrize("analysis, batches", [
    (lambda w: tournament("wheedle", "hair-trigger,threshold,patient,blocker,bluffer", players=4, games=400, workers=w),
     5 * 4),       # 5 line-ups x 4 rotations
    (lambda w: sweep("wheedle", strategy="threshold", param="points=10:30:10", games=200, rotate_seats=True, workers=w),
     3 * 4),       # 3 points x 4 rotations
    (lambda w: compare("wheedle", sets_b=["scoring.stop_bonus=10"], games=300, workers=w), 2),
    # a change that never came into play: the analysis then probes which shipped strategies bring it into play
    # (one batch for each strategy not in the line-up), in one call of its own
    (lambda w: compare("wheedle", sets_b=["scoring.false_stop=-10"], games=300, workers=w),
     [2, len(registered("wheedle")) - 4]),
    (lambda w: compare("wheedle", seed_b=1, games=400, until_decided=True, target=0.001,
                       first_batch=100, workers=w), [2, 2, 2]),     # looks of 100, 200 and 400 deals: both sides each
    (lambda w: balance("wheedle", games=400, workers=w), 4),        # 4 seat orders
], ids=["tournament", "sweep", "compare", "compare and probe", "sequential compare", "balance"])
def test_an_analysis_sends_all_its_batches_at_once(analysis, batches, monkeypatch):
    calls = []
    real = analysis_play.play_chunks

    def play_chunks(chunks, sink, workers=1, check=False, bar=None):
        calls.append(len({id(chunk.batch) for chunk in chunks}))
        return real(chunks, sink, workers, check, bar)

    monkeypatch.setattr(analysis_play, "play_chunks", play_chunks)
    parallel = analysis(2)
    assert calls == (batches if isinstance(batches, list) else [batches])
    single = analysis(1)
    for name, table in parallel.tables.items():
        pd.testing.assert_frame_equal(table, single.tables[name], check_exact=True)


def test_chunks_are_a_few_per_worker():
    assert analysis_play.chunk_size(32_000, 2) == 2000      # 8 per worker
    assert analysis_play.chunk_size(1_000_000, 2) == 10_000  # no larger than a run's chunk
    assert analysis_play.chunk_size(1000, 2) == analysis_play.MIN_CHUNK == 500


def failing_play(real, failure, at=100):
    def play(self, first, n, check=False):
        if n > 1 and first >= at:     # not the warm-up game, nor the first chunks
            failure()
        return real(self, first, n, check)
    return play


def test_an_exception_in_a_worker_is_raised_here_with_its_traceback(fresh_pool, monkeypatch):
    def failure():
        raise ValueError("no such thing")

    monkeypatch.setattr(Batch, "play", failing_play(Batch.play, failure))   # before the pool forks: its workers have it
    with pytest.raises(StrategyFault, match="game 1[05]0 failed with ValueError: no such thing") as exc:
        run_to_frame(make_batch("wheedle", 400, seed=1), workers=2, chunk_size=50)
    assert isinstance(exc.value.__cause__, pool.RemoteTraceback) and "in failure" in str(exc.value.__cause__)


def test_a_worker_killed_by_the_system_ends_a_run_in_one_line(fresh_pool, monkeypatch, capsys, tmp_path):
    # the last chunk: it is sent only once 4 chunks have come back and been written
    monkeypatch.setattr(Batch, "play", failing_play(Batch.play, lambda: os.kill(os.getpid(), signal.SIGKILL), at=350))
    out = tmp_path / "run"
    with pytest.raises(SystemExit) as exc:
        main(["run", "wheedle", "--games", "400", "--chunk-size", "50", "-q", "--out", str(out), "-w", "2"])
    assert exc.value.code == 1
    line, = capsys.readouterr().err.splitlines()
    assert line.startswith("simkit: error: wheedle line-up hair-trigger, threshold, patient, blocker (seed 0): game 350 "
                           "stopped: its worker process died (SIGKILL, killed, perhaps by the system for want of "
                           "memory); ") and line.endswith("run the same command again to resume"), line


def test_workers_leave_ctrl_c_to_their_parent(fresh_pool):
    """Ctrl-C in a terminal signals the whole process group; the parent stops the workers (and says what is
    kept), so a worker ignores it instead of dying with a traceback of its own."""
    batch = make_batch("wheedle", 200, seed=4)
    expected = frame(batch, 2)
    forks = pool._forks
    for process in pool._pool.processes:
        os.kill(process.pid, signal.SIGINT)
    time.sleep(0.2)
    assert pool._pool.alive()
    pd.testing.assert_frame_equal(frame(batch, 2), expected)
    assert pool._forks == forks


def test_jobs_of_any_sizes_play_in_one_call_as_they_would_alone():
    """The entry point of a search (a tuner's round): line-ups with their own games and first game, at once."""
    first = analysis_play.batches("wheedle", None, 3, rotate_seats=True)
    other = analysis_play.batches("wheedle", ["threshold:points=30", "patient", "blocker"], 3,
                                  sets=["scoring.false_stop=-10"])
    jobs = [analysis_play.Job(tuple(first), 0, 150), analysis_play.Job(tuple(other), 1000, 700, keep="all")]
    together = analysis_play.play_jobs(jobs, workers=2)
    for job, frame in zip(jobs, together):
        alone = analysis_play.play(list(job.batches), job.first_game, job.games, workers=1, keep=job.keep)
        pd.testing.assert_frame_equal(frame, alone, check_exact=True)
    assert together[1]["game"].min() == 1000 and "ticks" in together[1]


def test_map_forked_returns_each_items_result_in_order_from_other_processes():
    offset = 7      # a closure: map_forked's function need not pickle
    results = map_forked(lambda item: (item + offset, os.getpid()), list(range(6)), workers=2)
    assert [value for value, _ in results] == [item + 7 for item in range(6)]
    assert os.getpid() not in {pid for _, pid in results}
    assert map_forked(lambda item: (item + offset, os.getpid()), [1], workers=2) == [(8, os.getpid())]


def test_a_figure_drawing_child_that_dies_is_one_error_not_a_hang():
    def draw(item):
        if item == 3:
            os.kill(os.getpid(), signal.SIGKILL)
        return item

    with pytest.raises(forked.ChildDied, match=r"a process drawing figures died \(SIGKILL"):
        map_forked(draw, list(range(6)), workers=2)


def test_a_figure_drawing_childs_exception_is_raised_here():
    def draw(item):
        if item == 2:
            raise KeyError("no such figure")
        return item

    with pytest.raises(KeyError, match="no such figure"):
        map_forked(draw, list(range(4)), workers=2)


@pytest.mark.parametrize("analysis", [
    ["tournament", "wheedle", "-s", "hair-trigger,threshold,patient", "-p", "3", "-n", "600"],
    ["compare", "wheedle", "--players-a", "hair-trigger,threshold,patient", "--players-b", "blocker,threshold,patient",
     "-n", "600"],
])
def test_a_worker_killed_during_an_analysis_is_one_line(fresh_pool, monkeypatch, capsys, analysis):
    monkeypatch.setattr(Batch, "play", failing_play(Batch.play, lambda: os.kill(os.getpid(), signal.SIGKILL), at=0))
    with pytest.raises(SystemExit) as exc:
        main([*analysis, "-w", "2"])
    assert exc.value.code == 1
    line, = capsys.readouterr().err.splitlines()
    assert line.startswith("simkit: error: wheedle line-up ") and "its worker process died (SIGKILL" in line, line


LONG_RUN = """
from simkit import forked, pool
from simkit.runner import make_batch, run_to_frame
pool.SAMPLE_EVERY = 1          # every chunk sends a game to the checker, as a very long run does in time
frame = run_to_frame(make_batch("wheedle", 1000, seed=3), workers=1, chunk_size=1)
print(len(frame))
"""


def test_a_long_run_reads_the_checkers_replies_as_it_goes():
    """The replays sent to the reproducibility checker must not pile up unread: once the pipes fill, the checker
    blocks sending a reply, stops reading, and the run blocks sending it the next game (a 67,200-game
    tournament hung so)."""
    done = subprocess.run([sys.executable, "-c", LONG_RUN], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["4000"]
