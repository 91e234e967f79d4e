"""Invariant fuzzing: random valid rule overlays, player counts and line-ups, played in checking mode.

Every engine has a checking mode (``simulate(..., check=True)``) that asserts its conservation laws
during play (cards and money neither appear nor vanish). A *case* here is one random draw of a valid
house-rule overlay, a player count and a line-up of registered strategies; ``play_case`` plays a few
games of it in checking mode. Each game declares its drawer of rule overlays (``Game.fuzz``), written once
against a small ``pick`` interface (``integer(low, high)``, ``boolean()``, ``choice(values)``), so the
property tests draw through hypothesis (shrinking a failure to a small case) and ``simkit fuzz`` draws
through numpy for campaigns of millions of games.
"""
from __future__ import annotations

import multiprocessing
import sys
import time
import traceback
from dataclasses import dataclass

import numpy as np

from .games import get_game
from .runner import make_batch
from .strategy import registered


class NumpyPick:
    """Draws for ``simkit fuzz``: a numpy generator seeded from (campaign seed, case index)."""

    def __init__(self, seed: int, case: int):
        self.rng = np.random.default_rng([seed, case])

    def integer(self, low: int, high: int) -> int:
        return int(self.rng.integers(low, high + 1))

    def boolean(self) -> bool:
        return bool(self.rng.integers(2))

    def choice(self, values):
        return values[int(self.rng.integers(len(values)))]


@dataclass(frozen=True)
class Case:
    game: str
    rules: dict
    players: tuple[str, ...]

    def command(self, games: int, seed: int) -> str:
        """Python that replays this case (printed with a violation)."""
        return (f"make_batch({self.game!r}, {games}, {list(self.players)!r}, {seed}, rules={self.rules!r})"
                f".play(0, {games}, check=True)")


def draw_case(game: str, pick) -> Case:
    """A random valid case: player count (house counts too), rule overlay and line-up of registered strategies."""
    spec = get_game(game)
    n = pick.choice(list(spec.all_player_counts))
    names = sorted(registered(game))
    return Case(game, spec.fuzz(pick, n), tuple(pick.choice(names) for _ in range(n)))


def play_case(case: Case, games: int, seed: int) -> None:
    """Play ``games`` games of a case in checking mode; an AssertionError is a broken conservation law."""
    make_batch(case.game, games, list(case.players), seed, rules=case.rules).play(0, games, check=True)


_CAMPAIGN: tuple | None = None   # (game, seed, games per case), inherited by forked workers


def _run_case(index: int):
    game, seed, per_case = _CAMPAIGN
    case = draw_case(game, NumpyPick(seed, index))
    try:
        play_case(case, per_case, seed + index)
    except Exception as exc:   # a violation or a crash: report the case, keep going
        return index, case.command(per_case, seed + index), "".join(traceback.format_exception_only(exc)).strip()
    return index, None, None


def campaign(game: str, games: int, per_case: int = 200, workers: int = 1, seed: int = 0, out=sys.stderr) -> dict:
    """Play ``games`` fuzzed games of one game in checking mode (cases of ``per_case`` games each, the case
    index seeding both the draw and the games); returns counts and the failing cases."""
    global _CAMPAIGN
    cases = -(-games // per_case)
    _CAMPAIGN = (game, seed, per_case)
    started = time.perf_counter()
    failures = []
    _run_case(0)   # compile (or load) the engine before forking
    try:
        if workers == 1:
            results = map(_run_case, range(cases))
            pool = None
        else:
            pool = multiprocessing.get_context("fork").Pool(workers)
            results = pool.imap_unordered(_run_case, range(cases), chunksize=4)
        for done, (index, command, error) in enumerate(results, 1):
            if command:
                failures.append({"case": index, "replay": command, "error": error})
                print(f"VIOLATION case {index}: {error}\n  {command}", file=out)
            if done % max(1, cases // 20) == 0:
                print(f"  {game}: {done * per_case:,} games, {len(failures)} violations, "
                      f"{time.perf_counter() - started:.0f} s", file=out, flush=True)
        if pool:
            pool.close()
            pool.join()
    finally:
        _CAMPAIGN = None
    return {"game": game, "games": cases * per_case, "cases": cases, "games_per_case": per_case, "seed": seed,
            "violations": len(failures), "failures": failures, "seconds": round(time.perf_counter() - started, 1)}
