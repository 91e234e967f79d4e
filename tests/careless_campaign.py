"""A campaign of careless-strategy games (issue 12's target: 0 crashes and 0 undetected corruptions in 100,000
games per game), with the careless strategies of the games' careless-strategy tests. Not a test (it runs
for minutes); run it from the repository root:

    .venv/bin/python -m tests.careless_campaign wheedle dweebies wheeler-dealer-uk --games 100000

Per game, the games are split over 2-6 players and two line-ups (careless in every seat; careless seats among
shipped strategies) and played twice on the same seeds on the process's pool: in checking mode (the
engine asserts its conservation laws during play) and without. A crash is a chunk that raised or killed
its worker; an undetected corruption is an unchecked game whose results differ from the checked one's.
Every careless seat must have answers refused (illegal_actions) and no shipped seat any.
"""
from __future__ import annotations

import argparse
import os
import time

import numpy as np

from simkit.pool import Chunk, play_chunks
from simkit.runner import make_batch
from simkit.strategy import Seat

CHUNK = 1000


def _wheedle():
    from .wheedle.test_careless import careless

    sloppy = careless()
    wild = Seat(sloppy, {"wild": 1.0})      # every answer and every action slot in [-1000, 1000]
    return [wild, Seat(sloppy, {}), "hair-trigger", "random", "blocker", "bluffer"]


def _dweebies():
    from .dweebies.toy_strategies import CARELESS, CARELESS_PACKED

    return [CARELESS, CARELESS_PACKED, "greedy-defensive", "random", "pair-keeper", "greedy"]


def _uk():
    from .wheeler_dealer_uk.scripted import CARELESS

    return [CARELESS, "set-at-3", CARELESS, "raider", "random", "hold-for-5"]


def _us():
    from .wheeler_dealer_us.test_careless import NARROW, WIDE

    return [WIDE, NARROW, "random", NARROW, "kelly", WIDE]


CARELESS_SEATS = {"wheedle": _wheedle, "dweebies": _dweebies, "wheeler-dealer-uk": _uk, "wheeler-dealer-us": _us}


def _is_careless(player) -> bool:
    return not isinstance(player, str)


def lineups(game: str) -> list[list]:
    """Every player count 2-6, twice: careless seats only, and the game's mixed pool (careless and shipped)."""
    pool = CARELESS_SEATS[game]()
    careless = [p for p in pool if _is_careless(p)]
    found = []
    for n in range(2, 7):
        found.append([careless[i % len(careless)] for i in range(n)])
        found.append([pool[i] for i in range(n)])
    return found


def campaign(game: str, games: int, workers: int, seed: int = 12) -> dict:
    line_ups = lineups(game)
    per = -(-games // len(line_ups))
    batches = [make_batch(game, per, players, seed + i) for i, players in enumerate(line_ups)]
    results = {True: {}, False: {}}
    crashes = []

    def sink(chunk, columns):
        results[chunk.key[0]][chunk.key[1:]] = columns

    def failed(chunk, exc):
        crashes.append((chunk.key, f"{type(exc).__name__}: {exc}"))

    chunks = [Chunk(batch, first, min(CHUNK, per - first), (check, b, first))
              for check in (True, False) for b, batch in enumerate(batches) for first in range(0, per, CHUNK)]
    started = time.perf_counter()
    for check in (True, False):
        play_chunks([c for c in chunks if c.key[0] == check], sink, workers, check=check, failed=failed)
    corrupt = illegal_careless = illegal_shipped = 0
    starved = []
    for b, (batch, players) in enumerate(zip(batches, line_ups)):
        careless = np.array([_is_careless(p) for p in players])
        refused = np.zeros(len(players), np.int64)
        for first in range(0, per, CHUNK):
            checked, unchecked = results[True].get((b, first)), results[False].get((b, first))
            if checked is None or unchecked is None:
                continue
            same = all(np.array_equal(checked[k], unchecked[k]) for k in checked if not k.startswith("_"))
            corrupt += 0 if same else min(CHUNK, per - first)
            refused += np.asarray(checked["illegal_actions"]).reshape(-1, len(players)).sum(axis=0)
        illegal_careless += int(refused[careless].sum())
        illegal_shipped += int(refused[~careless].sum())
        starved += [(len(players), seat) for seat in np.flatnonzero(careless & (refused == 0))]
    return {"game": game, "games": per * len(line_ups), "line_ups": len(line_ups), "crashes": len(crashes),
            "crash_examples": crashes[:3], "games_differing_unchecked": corrupt,
            "illegal_answers_careless": illegal_careless, "illegal_answers_shipped": illegal_shipped,
            "careless_seats_never_refused": starved, "seconds": round(time.perf_counter() - started, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games_", nargs="+", metavar="GAME", choices=sorted(CARELESS_SEATS))
    parser.add_argument("--games", type=int, default=100_000, help="careless games per game (each played twice)")
    parser.add_argument("--workers", "-w", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    for game in args.games_:
        print(campaign(game, args.games, args.workers), flush=True)


if __name__ == "__main__":
    main()
