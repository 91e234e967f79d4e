"""Playing line-ups on common random numbers, optionally under every cyclic rotation of the seats.

Rotation r puts the strategy of line-up entry i in seat (i + r) mod n for the same game indices, so each
deal (and its dice) is played by every strategy from every seat; the game index is then the block, the
statistical unit. Rows carry ``entry`` (the position in the line-up as given) and ``rotation``.
"""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pandas as pd

from ..errors import SimkitError
from ..pool import Chunk, play_chunks
from ..runner import DEFAULT_CHUNK, Batch, chunk_ranges, make_batch

CORE = ("game", "seat", "winner")


def deals_for(games: int, players: int, rotate: bool) -> int:
    """Deals (blocks) for a budget of ``games``: with rotation each deal is played once per seat order."""
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 1:
        raise SimkitError(f"--games must be a positive whole number, not {games!r}")
    return math.ceil(games / players) if rotate else int(games)


def rotate(items, r: int) -> list:
    """The line-up with entry i moved to seat (i + r) mod n."""
    n = len(items)
    return [items[(seat - r) % n] for seat in range(n)]


def batches(game: str, players, seed: int, sets=(), rules=None, rotate_seats: bool = False) -> list[Batch]:
    """One validated batch per seat rotation (just one without rotation), all on the same seed; ``play``
    chooses which games of them to play."""
    rules_file, overrides = (rules, None) if isinstance(rules, str) else (None, rules)
    base = make_batch(game, 1, players, seed, rules_file, list(sets), overrides)
    n = len(base.seats)
    return [replace(base, seats=tuple(rotate(base.seats, r))) for r in range(n if rotate_seats else 1)]


MIN_CHUNK = 500     # games: each chunk costs a few milliseconds besides its games (a message, the engine's call)


def chunk_size(games: int, workers: int) -> int:
    """Games per chunk for ``games`` to be played in all on ``workers`` processes: about two chunks per
    worker (so the last ones finish close together), but none smaller than MIN_CHUNK or larger than a run's
    chunk. The results do not depend on it."""
    return max(MIN_CHUNK, min(DEFAULT_CHUNK, math.ceil(games / (2 * workers))))


def play(batch_list: list[Batch], first_game: int, games: int, workers: int = 1, keep: str = "core") -> pd.DataFrame:
    """Play games ``first_game .. first_game + games - 1`` of every batch; one row per (rotation, game, seat).

    Columns: game, seat, winner, score (the game's score column, as float), strategy (label), entry,
    rotation; with ``keep="all"`` every result column of the game too.
    """
    return play_many([batch_list], first_game, games, workers, keep)[0]


def play_many(groups: list[list[Batch]], first_game: int, games: int, workers: int = 1,
              keep: str = "core") -> list[pd.DataFrame]:
    """``play`` for several line-ups or rule sets at once (a sweep's points, a tournament's line-ups, both
    sides of a compare): the chunks of every batch of every group go to the workers together, so they are
    all busy however small each batch is. Returns one frame per group, as ``play`` would."""
    n_batches = sum(len(group) for group in groups)
    size = chunk_size(games * n_batches, workers)
    chunks = []
    for g, batch_list in enumerate(groups):
        for r, batch in enumerate(batch_list):
            batch = replace(batch, games=games, first_game=first_game)
            columns = None if keep == "all" else tuple(dict.fromkeys([*CORE, batch.game.score_column]))
            chunks += [Chunk(batch, first_game + first, n, (g, r, index), columns)
                       for index, first, n in chunk_ranges(games, size)]
    parts = {}      # (group, rotation) -> {chunk index: rows}

    def sink(chunk, columns):
        g, r, index = chunk.key
        parts.setdefault((g, r), {})[index] = pd.DataFrame({k: v for k, v in columns.items() if not k.startswith("_")})

    play_chunks(chunks, sink, workers)
    frames = []
    for g, batch_list in enumerate(groups):
        n = len(batch_list[0].seats)
        rotated = []
        for r, batch in enumerate(batch_list):
            labels = [seat.label for seat in batch.seats]
            entry_of_seat = np.array(rotate(list(range(n)), r))
            frame = pd.concat([rows for _, rows in sorted(parts[g, r].items())], ignore_index=True)
            frame["score"] = frame[batch.game.score_column].astype(float)
            frame["entry"] = entry_of_seat[frame["seat"].to_numpy()]
            frame["strategy"] = pd.Categorical(np.array(labels)[frame["seat"].to_numpy()],
                                               categories=list(dict.fromkeys(labels)))
            frame["rotation"] = r
            rotated.append(frame)
        frame = pd.concat(rotated, ignore_index=True)
        frame["strategy"] = frame["strategy"].astype(str)
        frame["win"] = frame["winner"].astype(float)
        frames.append(frame)
    return frames


def block_outcomes(frame: pd.DataFrame, by: str) -> dict[str, pd.DataFrame]:
    """Per block (game index) and unit (``by``: strategy, seat or entry), the mean win and score over the
    block's rows of that unit: e.g. by seat under rotation, the average over the strategies in that seat.
    Returns {"win": games x units, "score": games x units}."""
    means = frame.groupby(["game", by], observed=True)[["win", "score"]].mean()
    return {metric: means[metric].unstack(by) for metric in ("win", "score")}
