"""The process's one pool of workers (simkit.pool): reused by every call, able to play batches and strategies
made after it was forked, fed every batch of an analysis at once, and without effect on the results."""
import pandas as pd
import pytest

from simkit import pool
from simkit.analysis import compare, sweep, tournament
from simkit.analysis import play as analysis_play
from simkit.runner import make_batch, run_to_frame
from simkit.strategy import Strategy, registered


def frame(batch, workers):
    return run_to_frame(batch, workers=workers, chunk_size=60)


@pytest.fixture
def fresh_pool():
    pool.shutdown()
    yield
    pool.shutdown()


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
    (lambda w: compare("wheedle", sets_b=["scoring.false_stop=-10"], games=300, workers=w), 2),
], ids=["tournament", "sweep", "compare"])
def test_an_analysis_sends_all_its_batches_at_once(analysis, batches, monkeypatch):
    calls = []
    real = analysis_play.play_chunks

    def play_chunks(chunks, sink, workers=1, check=False, bar=None):
        calls.append(len({id(chunk.batch) for chunk in chunks}))
        return real(chunks, sink, workers, check, bar)

    monkeypatch.setattr(analysis_play, "play_chunks", play_chunks)
    parallel = analysis(2)
    assert calls == [batches]
    single = analysis(1)
    for name, table in parallel.tables.items():
        pd.testing.assert_frame_equal(table, single.tables[name], check_exact=True)


def test_chunks_are_a_few_per_worker():
    assert analysis_play.chunk_size(4000, 2) == 1000
    assert analysis_play.chunk_size(42_000, 2) == 10_000
    assert analysis_play.chunk_size(1000, 2) == analysis_play.MIN_CHUNK == 500
