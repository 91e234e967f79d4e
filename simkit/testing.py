"""The shared conformance check that every game's tests end with.

It runs a game through the same public paths a user takes and asserts what must hold for any game:
one row per (game, seat) with the documented columns, at least one winner per game, winners holding
the best score, results that depend only on (seed, game index) and not on chunking or workers, and
the engine's own conservation laws (checking mode) over many seeded games.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .games import get_game
from .runner import make_batch, run_to_frame


def check_conformance(game_name: str, games: int = 300, seed: int = 12345, players=None) -> pd.DataFrame:
    """Assert the shared properties for one game and line-up; returns the frame for further game checks."""
    game = get_game(game_name)
    batch = make_batch(game_name, games, players, seed)
    n_players = len(batch.seats)
    frame = run_to_frame(batch, workers=1, chunk_size=games, check=True)

    assert len(frame) == games * n_players, "one row per (game, seat)"
    for column in ("game", "seat", "strategy", game.score_column, "winner"):
        assert column in frame.columns, f"result column {column!r} is missing"
    assert (frame.groupby("game").size() == n_players).all()
    assert sorted(frame["game"].unique()) == list(range(games))
    assert (frame.groupby("game")["seat"].apply(lambda s: sorted(s) == list(range(n_players)))).all()

    winners = frame.groupby("game")["winner"].sum()
    assert (winners >= 1).all(), "every game has a winner"
    best = frame.groupby("game")[game.score_column].transform("max")
    assert (frame.loc[frame["winner"], game.score_column] == best[frame["winner"]]).all(), "winners hold the best score"

    again = run_to_frame(batch, workers=2, chunk_size=max(1, games // 7))
    pd.testing.assert_frame_equal(frame.reset_index(drop=True), again.reset_index(drop=True), check_like=False)
    # a slice played on its own equals the same games inside the batch
    last = min(5, games)
    tail = game.simulate(batch.prepared, list(batch.seats), seed, games - last, last)
    assert np.array_equal(tail[game.score_column], frame[game.score_column].to_numpy()[-last * n_players:])
    return frame
