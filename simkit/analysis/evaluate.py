"""The one place where the searches (the tuner, the meta-game, re-tuned comparisons) hand their games to the
execution layer.

A search needs many small batches at once: a tuning round plays every trial of the round and the incumbent,
each under every seat rotation, on the same deals; the race plays the finalists, the validation the start and
the best; the meta-game plays every profile. ``evaluate`` takes all of them together and gives their chunks to
the process's pool of warm workers in one call (``play.play_many`` -> ``simkit.pool.play_chunks``), so every
core stays busy however small each trial's batch is. The results do not depend on the pool, the number of
workers or the chunks: every game's random streams depend only on (seed, game index).
"""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ..runner import Batch
from .play import play_many


@dataclass(frozen=True)
class Job:
    """One line-up to play: its batches (one per seat rotation, from ``play.batches``) and the games
    ``first_game .. first_game + games - 1`` of each."""

    batches: tuple[Batch, ...]
    first_game: int
    games: int


def evaluate(jobs: list[Job], workers: int = 1) -> list[pd.DataFrame]:
    """Play every job and return each one's rows as ``play.play`` gives them (game, seat, winner, score,
    strategy, entry, rotation, win), in the order of ``jobs``. Jobs over the same games (a search's round,
    race or validation: all of them) go to the pool in a single call."""
    out: list[pd.DataFrame | None] = [None] * len(jobs)
    same_games: dict[tuple[int, int], list[int]] = {}
    for number, job in enumerate(jobs):
        same_games.setdefault((job.first_game, job.games), []).append(number)
    for (first, games), numbers in same_games.items():
        frames = play_many([list(jobs[number].batches) for number in numbers], first, games, workers)
        for number, frame in zip(numbers, frames):
            out[number] = frame
    return out
