"""Playing line-ups on common random numbers, optionally under every cyclic rotation of the seats.

Rotation r puts the strategy of line-up entry i in seat (i + r) mod n for the same game indices, so each
deal (and its dice) is played by every strategy from every seat; the game index is then the block, the
statistical unit. Rows carry ``entry`` (the position in the line-up as given) and ``rotation``.
"""
from __future__ import annotations

import collections
import math
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from .. import progress
from ..errors import SimkitError
from ..pool import Chunk, play_chunks
from ..rules import game_columns
from ..runner import DEFAULT_CHUNK, Batch, chunk_ranges, make_batch, rotate

CORE = ("game", "seat", "winner")
REFUSED = "illegal_actions"     # a seat's refused answers: every analysis names such seats first


def core_columns(game) -> tuple:
    """The result columns every analysis keeps: CORE, the score, the refused answers and the game's rule
    counters (analyses say from them whether a rule they change came into play); a game without one of
    them simply does not return it."""
    return tuple(dict.fromkeys([*CORE, game.score_column, REFUSED, *sorted(game_columns(game))]))


def deals_for(games: int, players: int, rotate: bool) -> int:
    """Deals (blocks) for a budget of ``games``: with rotation each deal is played once per seat order."""
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 1:
        raise SimkitError(f"--games must be a positive whole number, not {games!r}")
    return math.ceil(games / players) if rotate else int(games)


def batches(game: str, players, seed: int, sets=(), rules=None, rotate_seats: bool = False) -> list[Batch]:
    """One validated batch per seat rotation (just one without rotation), all on the same seed; ``play``
    chooses which games of them to play."""
    rules_file, overrides = (rules, None) if isinstance(rules, str) else (None, rules)
    base = make_batch(game, 1, players, seed, rules_file, list(sets), overrides)
    n = len(base.seats)
    return [replace(base, seats=tuple(rotate(base.seats, r))) for r in range(n if rotate_seats else 1)]


MIN_CHUNK = 500         # games: each chunk costs a few milliseconds besides its games (a message, the engine's call)
CHUNKS_PER_WORKER = 8   # enough that the last chunks end close together, few enough that each is worth its cost


def chunk_size(games: int, workers: int) -> int:
    """Games per chunk for ``games`` to be played in all on ``workers`` processes: about CHUNKS_PER_WORKER
    chunks per worker (so the last ones finish close together), but none smaller than MIN_CHUNK or larger
    than a run's chunk. The results do not depend on it."""
    return max(MIN_CHUNK, min(DEFAULT_CHUNK, math.ceil(games / (CHUNKS_PER_WORKER * workers))))


@dataclass(frozen=True)
class Job:
    """One line-up to play: its batches (one per seat rotation, from ``batches``) and the games
    ``first_game .. first_game + games - 1`` of each. ``keep``: "core" (the columns every analysis reads) or
    "all" (every result column of the game too)."""

    batches: tuple[Batch, ...]
    first_game: int
    games: int
    keep: str = "core"


def play_jobs(jobs: list[Job], workers: int = 1) -> list[pd.DataFrame]:
    """Play every job and return each one's rows as ``play`` gives them, in the order of ``jobs``.

    This is the execution layer's entry point for anything that needs many batches: an analysis (a sweep's
    points, a tournament's line-ups, both sides of a compare) or a search (a tuner's trials of a round, a
    meta-game's profiles). The chunks of every batch of every job go to the process's pool of warm
    workers (simkit.pool) in one call, so all cores stay busy however small each batch is, and the
    command's progress bar (simkit.progress) advances as they finish. Results do not depend on
    ``workers``: every game's streams come from (seed, game index)."""
    total = sum(job.games * len(job.batches) for job in jobs)
    size = chunk_size(total, workers)
    chunks = []
    for j, job in enumerate(jobs):
        for r, batch in enumerate(job.batches):
            batch = replace(batch, games=job.games, first_game=job.first_game)
            columns = None if job.keep == "all" else core_columns(batch.game)
            chunks += [Chunk(batch, job.first_game + first, n, (j, r, index), columns)
                       for index, first, n in chunk_ranges(job.games, size)]
    expected = collections.Counter(chunk.key[0] for chunk in chunks)
    parts = {j: {r: {} for r in range(len(job.batches))} for j, job in enumerate(jobs)}    # job -> rotation -> chunk
    frames = {}

    def sink(chunk, columns):
        # a job's frame is built as soon as its last chunk is in, while the workers play the other jobs
        j, r, index = chunk.key
        parts[j][r][index] = {k: v for k, v in columns.items() if not k.startswith("_")}
        expected[j] -= 1
        if not expected[j]:
            frames[j] = _rows(jobs[j], parts.pop(j))

    with progress.games(total) as bar:
        play_chunks(chunks, sink, workers, bar=bar)
    return [frames[j] for j in range(len(jobs))]


def _rows(job: Job, parts: dict) -> pd.DataFrame:
    """One job's frame from its chunks' columns (``parts``: rotation -> {chunk index: columns}), built once
    from the joined arrays (a DataFrame per chunk cost the parent more than the rest of its work)."""
    n = len(job.batches[0].seats)
    rotations = []
    for r, batch in enumerate(job.batches):
        chunks = [columns for _, columns in sorted(parts[r].items())]
        joined = {name: np.concatenate([columns[name] for columns in chunks]) for name in chunks[0]}
        seat = joined["seat"]
        joined["score"] = joined[batch.game.score_column].astype(float)
        joined["entry"] = np.array(rotate(list(range(n)), r))[seat]
        joined["strategy"] = np.array([s.label for s in batch.seats], dtype=object)[seat]
        joined["rotation"] = np.full(seat.size, r, dtype=np.int64)
        rotations.append(joined)
    frame = pd.DataFrame({name: np.concatenate([joined[name] for joined in rotations]) for name in rotations[0]})
    frame["win"] = frame["winner"].astype(float)
    return frame


def play(batch_list: list[Batch], first_game: int, games: int, workers: int = 1, keep: str = "core") -> pd.DataFrame:
    """Play games ``first_game .. first_game + games - 1`` of every batch; one row per (rotation, game, seat).

    Columns: game, seat, winner, score (the game's score column, as float), strategy (label), entry,
    rotation; with ``keep="all"`` every result column of the game too.
    """
    return play_jobs([Job(tuple(batch_list), first_game, games, keep)], workers)[0]


def play_many(groups: list[list[Batch]], first_game: int, games: int, workers: int = 1,
              keep: str = "core") -> list[pd.DataFrame]:
    """``play`` for several line-ups or rule sets on the same games (a sweep's points, a tournament's
    line-ups, both sides of a compare), all at once (``play_jobs``). Returns one frame per group."""
    return play_jobs([Job(tuple(group), first_game, games, keep) for group in groups], workers)


def block_outcomes(frame: pd.DataFrame, by: str) -> dict[str, pd.DataFrame]:
    """Per block (game index) and unit (``by``: strategy, seat or entry), the mean win and score over the
    block's rows of that unit: e.g. by seat under rotation, the average over the strategies in that seat.
    Returns {"win": games x units, "score": games x units}."""
    means = frame.groupby(["game", by], observed=True)[["win", "score"]].mean()
    return {metric: means[metric].unstack(by) for metric in ("win", "score")}
