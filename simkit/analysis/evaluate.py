"""The one place where the searches (the tuner, the meta-game) hand their games to the execution layer.

A search needs many small batches at once: a tuning round plays every trial of the round and the incumbent,
each under every seat rotation, on the same deals; the meta-game plays every profile. ``evaluate`` takes all
of them together, so that moving them onto a shared pool of warm workers is a change here only.

For now each job is split into one part per worker (by game index, which leaves the results unchanged: every
game's random streams depend only on (seed, game index)) and the parts are played by processes forked for
the call, after the parent has compiled or loaded every engine and strategy, so the workers never compile.
"""
from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import pandas as pd

from ..runner import Batch
from .play import play


@dataclass(frozen=True)
class Job:
    """One line-up to play: its batches (one per seat rotation, from ``play.batches``) and the games
    ``first_game .. first_game + games - 1`` of each; ``keep="all"`` keeps every result column."""

    batches: tuple[Batch, ...]
    first_game: int
    games: int
    keep: str = "core"


_PARTS: list | None = None   # the parts of the call in progress, inherited by forked workers (never pickled)


def _play_part(index: int) -> pd.DataFrame:
    batch_list, first, games, keep = _PARTS[index]
    return play(list(batch_list), first, games, 1, keep)


def evaluate(jobs: list[Job], workers: int = 1) -> list[pd.DataFrame]:
    """Play every job and return each one's rows as ``play.play`` gives them (game, seat, winner, score,
    strategy, entry, rotation, win), in the order of ``jobs``."""
    global _PARTS
    if workers <= 1 or sum(job.games for job in jobs) < 2:
        return [play(list(job.batches), job.first_game, job.games, 1, job.keep) for job in jobs]
    parts, owner = [], []
    for number, job in enumerate(jobs):
        job.batches[0].play(job.first_game, 1)   # compile or load here, once, before any worker exists
        pieces = min(workers, job.games)
        bounds = [job.first_game + job.games * i // pieces for i in range(pieces + 1)]
        for first, stop in zip(bounds, bounds[1:]):
            parts.append((job.batches, first, stop - first, job.keep))
            owner.append(number)
    _PARTS = parts
    try:
        with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork")) as pool:
            frames = list(pool.map(_play_part, range(len(parts))))
    finally:
        _PARTS = None
    out = [[] for _ in jobs]
    for number, frame in zip(owner, frames):
        out[number].append(frame)
    return [pd.concat(pieces, ignore_index=True) for pieces in out]
