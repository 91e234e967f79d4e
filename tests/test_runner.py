"""Batches: results depend only on (seed, game index), never on workers or chunking (simkit/runner.py)."""
import numpy as np
import pandas as pd
import pytest

import simkit
from simkit.errors import SimkitError
from simkit.games import get_game
from simkit.runner import make_batch, run_to_frame

from .helpers import simulate

LINEUP = ["hair-trigger", "random", "blocker", "bluffer", "contrarian"]


@pytest.fixture(scope="module")
def reference():
    return simkit.run("wheedle", games=60, players=LINEUP, seed=11, workers=1, chunk_size=1000)


@pytest.mark.parametrize("workers, chunk", [(2, 7), (2, 60), (1, 13), (2, 1)])
def test_workers_and_chunks_do_not_change_results(reference, workers, chunk):
    frame = simkit.run("wheedle", games=60, players=LINEUP, seed=11, workers=workers, chunk_size=chunk)
    pd.testing.assert_frame_equal(frame, reference)


def test_run_to_directory_equals_in_memory(reference, tmp_path):
    frame = simkit.run("wheedle", games=60, players=LINEUP, seed=11, workers=2, chunk_size=9, out=tmp_path / "r")
    assert len(list((tmp_path / "r").glob("part-*.parquet"))) == 7
    pd.testing.assert_frame_equal(frame.drop(columns="strategy"), reference.drop(columns="strategy"))
    assert frame["strategy"].astype(str).tolist() == reference["strategy"].astype(str).tolist()


def test_different_seeds_differ(reference):
    other = simkit.run("wheedle", games=60, players=LINEUP, seed=12)
    assert not other["points"].equals(reference["points"])
    assert not other["ticks"].equals(reference["ticks"])


def test_games_are_independent_of_their_batch(reference):
    tail = simkit.run("wheedle", games=60, players=LINEUP, seed=11).iloc[-5 * 5:]
    batch = make_batch("wheedle", 60, LINEUP, 11)
    columns = batch.play(55, 5)
    assert np.array_equal(columns["points"], tail["points"].to_numpy())
    assert np.array_equal(columns["game"], np.repeat(np.arange(55, 60), 5))


def test_changing_one_seat_keeps_the_deal():
    """Common random numbers: a different strategy in one seat changes play, not the cards dealt."""
    a = simulate(LINEUP, 20, seed=4)[3]["_trace"]
    b = simulate(["random"] + LINEUP[1:], 20, seed=4)[3]["_trace"]
    assert np.array_equal(a[:, :, 0], b[:, :, 0])


def test_rules_as_dict_and_sets():
    frame = simkit.run("wheedle", games=10, seed=1, players=["never-stop"] * 4,
                       rules={"options": {"max_ticks": 3}}, sets=["scoring.stop_bonus=9"])
    assert (frame["ticks"] == 12).all()
    manifest = frame.attrs["manifest"]
    assert manifest["rules"]["options"]["max_ticks"] == 3 and manifest["rules"]["scoring"]["stop_bonus"] == 9


def test_default_lineup():
    frame = simkit.run("wheedle", games=5, seed=0)
    assert frame.attrs["manifest"]["players"] == 4
    assert [s["label"] for s in frame.attrs["manifest"]["lineup"]] == list(get_game("wheedle").default_lineup)


@pytest.mark.parametrize("kwargs, message", [
    ({"games": 0}, "--games"),
    ({"games": 2.5}, "--games"),
    ({"games": True}, "--games"),
    ({"games": 5, "seed": -1}, "--seed"),
    ({"games": 5, "seed": 2 ** 64}, "--seed"),
    ({"games": 5, "workers": 0}, "--workers"),
    ({"games": 5, "chunk_size": -3}, "--chunk-size"),
])
def test_run_argument_errors(kwargs, message):
    with pytest.raises(SimkitError, match=message):
        simkit.run("wheedle", **kwargs)


def test_check_mode_runs_in_workers():
    batch = make_batch("wheedle", 40, ["random"] * 6, 3)
    frame = run_to_frame(batch, workers=2, chunk_size=10, check=True)
    assert len(frame) == 240


def test_simkit_games_function():
    import simkit.games  # noqa: F401  (any run imports it)
    from simkit.games import all_games

    games = simkit.available_games()
    assert games == all_games() and "wheedle" in games
    assert simkit.available_games() == games  # a second call still works
