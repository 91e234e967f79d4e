"""Invariant fuzzing: random valid rule overlays, player counts and line-ups, played in checking mode.

Every engine has a checking mode (``simulate(..., check=True)``) that asserts its conservation laws
during play (cards and money neither appear nor vanish). A *case* here is one random draw of a valid
house-rule overlay, a player count and a line-up of registered strategies (each at its quick settings,
``Strategy.quick``: a search player at a small budget); ``play_case`` plays a few
games of it in checking mode. Each game declares its drawer of rule overlays (``Game.fuzz``), written once
against a small ``pick`` interface (``integer(low, high)``, ``boolean()``, ``choice(values)``), so the
property tests draw through hypothesis (shrinking a failure to a small case) and ``simkit fuzz`` draws
through numpy for campaigns of millions of games.
"""
from __future__ import annotations

import sys
import time
import traceback
from dataclasses import dataclass

import numpy as np

from . import progress
from .games import get_game
from .pool import Chunk, play_chunks
from .runner import make_batch
from .strategy import Seat, registered


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
    shipped = registered(game)
    # each strategy at its quick settings (a search player at a small budget), so a campaign stays fast
    names = [Seat(shipped[name], shipped[name].quick).label for name in sorted(shipped)]
    return Case(game, spec.fuzz(pick, n), tuple(pick.choice(names) for _ in range(n)))


def no_refused_answers(columns: dict) -> None:
    """A case's line-up is all shipped strategies, and no answer of theirs may be refused (illegal_actions)."""
    refused = int(np.sum(columns["illegal_actions"]))
    if refused:
        raise AssertionError(f"{refused} answers of shipped strategies refused (illegal_actions)")


def play_case(case: Case, games: int, seed: int) -> None:
    """Play ``games`` games of a case in checking mode; an AssertionError is a broken conservation law or a
    refused answer of a shipped strategy."""
    no_refused_answers(make_batch(case.game, games, list(case.players), seed, rules=case.rules).play(0, games,
                                                                                                     check=True))


ROUND_PER_WORKER = 64    # cases drawn at a time per worker: drawing them all first would keep the workers waiting


def _failure(case: Case, index: int, per_case: int, seed: int, exc: BaseException) -> dict:
    return {"case": index, "replay": case.command(per_case, seed + index),
            "error": "".join(traceback.format_exception_only(exc)).strip()}


def campaign(game: str, games: int, per_case: int = 200, workers: int = 1, seed: int = 0, out=sys.stderr) -> dict:
    """Play ``games`` fuzzed games of one game in checking mode (cases of ``per_case`` games each, the case
    index seeding both the draw and the games) on the process's pool (simkit.pool); returns counts and
    the failing cases. A case that raises (a broken conservation law, a rule the engine refuses), has an
    answer of a shipped strategy refused or kills
    its worker (a crash) is printed to ``out`` with the Python that replays it, and the campaign goes on.
    Progress: the command's bar (simkit.progress) where one is drawn, else a line to ``out`` every 5%."""
    cases = -(-games // per_case)
    started = time.perf_counter()
    failures = []
    done = [0]

    def played(chunk, columns):
        if columns is not None:
            try:
                no_refused_answers(columns)
            except AssertionError as exc:
                failed(chunk, exc)
                return
        done[0] += 1
        if not bar.drawn and done[0] % max(1, cases // 20) == 0:
            print(f"  {game}: {done[0] * per_case:,} games, {len(failures)} violations, "
                  f"{time.perf_counter() - started:.0f} s", file=out, flush=True)

    def failed(chunk, exc):
        index, case = chunk.key
        failures.append(_failure(case, index, per_case, seed, exc))
        print(f"VIOLATION case {index}: {failures[-1]['error']}\n  {failures[-1]['replay']}", file=out, flush=True)
        played(chunk, None)

    with progress.games(cases * per_case) as bar:
        step = ROUND_PER_WORKER * workers
        for first in range(0, cases, step):
            chunks = []
            for index in range(first, min(cases, first + step)):
                case = draw_case(game, NumpyPick(seed, index))
                try:
                    batch = make_batch(case.game, per_case, list(case.players), seed + index, rules=case.rules)
                except Exception as exc:    # a drawn case that the rules refuse is a finding too
                    failed(Chunk(None, 0, per_case, (index, case)), exc)
                    bar.update(per_case)
                    continue
                chunks.append(Chunk(batch, 0, per_case, (index, case), columns=("illegal_actions",)))
            play_chunks(chunks, played, workers, check=True, bar=bar, failed=failed)
    return {"game": game, "games": cases * per_case, "cases": cases, "games_per_case": per_case, "seed": seed,
            "violations": len(failures), "failures": sorted(failures, key=lambda f: f["case"]),
            "seconds": round(time.perf_counter() - started, 1)}
