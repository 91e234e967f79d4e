"""Result columns, one row per (game, seat): what every game's ``simulate`` builds from its kernel's arrays.

Rows are ordered by game, then seat. ``game`` (int64) and ``seat`` (int8) come first; a per-seat array
``[game, seat]`` becomes one column, a per-game array ``[game]`` is repeated on each of the game's rows, and
a game's totals over the batch (e.g. landings per square) go under ``_totals``, which the runner sums
rather than writes as a column.
"""
from __future__ import annotations

import numpy as np


class ResultColumns:
    """The columns of one batch of ``n_games`` games from ``first_game``, for ``n_players`` seats."""

    def __init__(self, first_game: int, n_games: int, n_players: int):
        self.n_players = n_players
        self.columns = {
            "game": np.repeat(np.arange(first_game, first_game + n_games, dtype=np.int64), n_players),
            "seat": np.tile(np.arange(n_players, dtype=np.int8), n_games),
        }

    def per_seat(self, name: str, values: np.ndarray, dtype=None) -> None:
        """A ``[game, seat]`` array as a column (cast to ``dtype`` when given)."""
        column = values.reshape(-1)
        self.columns[name] = column if dtype is None else column.astype(dtype)

    def seat_counters(self, names, values: np.ndarray, dtype, keep=()) -> None:
        """Counters ``[game, seat, k]``, the k-th named ``names[k]``: each cast to ``dtype`` but those named
        in ``keep`` (amounts that may not fit it)."""
        for i, name in enumerate(names):
            self.per_seat(name, values[:, :, i], None if name in keep else dtype)

    def per_game(self, name: str, values: np.ndarray, dtype=None) -> None:
        """A per-game fact, repeated on each of the game's rows (cast to ``dtype`` when given)."""
        self.columns[name] = np.repeat(values if dtype is None else values.astype(dtype), self.n_players)

    def totals(self, **totals) -> None:
        """Arrays the runner sums over the whole run (simkit.totals), not written as columns."""
        self.columns["_totals"] = totals
