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
from ..runner import Batch, execute, make_batch

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


def play(batch_list: list[Batch], first_game: int, games: int, workers: int = 1, keep: str = "core") -> pd.DataFrame:
    """Play games ``first_game .. first_game + games - 1`` of every batch; one row per (rotation, game, seat).

    Columns: game, seat, winner, score (the game's score column, as float), strategy (label), entry,
    rotation; with ``keep="all"`` every result column of the game too.
    """
    frames = []
    n = len(batch_list[0].seats)
    for r, batch in enumerate(batch_list):
        labels = [seat.label for seat in batch.seats]
        entry_of_seat = np.array(rotate(list(range(n)), r))
        score = batch.game.score_column
        parts = {}

        def sink(index, columns):
            wanted = [k for k in columns if not k.startswith("_")] if keep == "all" else [*CORE, score]
            parts[index] = pd.DataFrame({k: columns[k] for k in wanted})

        execute(replace(batch, games=games, first_game=first_game), sink, workers)
        frame = pd.concat([parts[i] for i in sorted(parts)], ignore_index=True)
        frame["score"] = frame[score].astype(float)
        frame["entry"] = entry_of_seat[frame["seat"].to_numpy()]
        frame["strategy"] = pd.Categorical(np.array(labels)[frame["seat"].to_numpy()],
                                           categories=list(dict.fromkeys(labels)))
        frame["rotation"] = r
        frames.append(frame)
    frame = pd.concat(frames, ignore_index=True)
    frame["strategy"] = frame["strategy"].astype(str)
    frame["win"] = frame["winner"].astype(float)
    return frame


def block_outcomes(frame: pd.DataFrame, by: str) -> dict[str, pd.DataFrame]:
    """Per block (game index) and unit (``by``: strategy, seat or entry), the mean win and score over the
    block's rows of that unit: e.g. by seat under rotation, the average over the strategies in that seat.
    Returns {"win": games x units, "score": games x units}."""
    means = frame.groupby(["game", by], observed=True)[["win", "score"]].mean()
    return {metric: means[metric].unstack(by) for metric in ("win", "score")}
