"""Strategy faults as one line: a decision that raises, allocates without bound, indexes past its arrays or
crashes its process stops the command with one line naming the line-up, the strategy that is not simkit's
own (the suspect: shipped decisions are tested and compiled as they are, a user's are bounds-checked) and
the first game to replay. The CLI prints it and exits 1 (docs/strategies.md, "When a strategy fails")."""
from __future__ import annotations

import shlex
import sys

from .errors import RunFailed, SimkitError


class StrategyFault(RunFailed):
    """A game that a strategy made fail: the message names the line-up, the suspect strategy and the game to
    replay; the original exception is the ``__cause__`` (``simkit --debug`` prints it)."""


def lineup_words(batch) -> str:
    """``wheedle line-up a, b, c (seed 7)``: what a one-line fault message names."""
    return f"{batch.game.name} line-up {', '.join(seat.label for seat in batch.seats)} (seed {batch.seed})"


def suspects(batch) -> list[str]:
    """The labels of the line-up's strategies that are not simkit's own (any decision of theirs)."""
    from .strategy import shipped_code

    found = []
    for seat in batch.seats:
        if not all(shipped_code(getattr(f, "py_func", f)) for f in seat.strategy.decisions.values()):
            label = _spec(seat)
            if label not in found:
                found.append(label)
    return found


def _spec(seat) -> str:
    from .strategy import registered

    strategy = seat.strategy
    if registered(strategy.game).get(strategy.name) is strategy:
        return seat.label
    module = sys.modules.get(strategy.module)
    attr = next((key for key, value in vars(module).items() if value is strategy), strategy.name) if module \
        else strategy.name
    return ":".join([f"{strategy.module}:{attr}", *seat.label.split(":")[1:]])


def replay_command(batch, game: int) -> str:
    """The command that replays one game of ``batch`` move by move."""
    players = ",".join(_spec(seat) for seat in batch.seats)
    changed = " (with the run's rules)" if batch.game.rule_changes(batch.rules) else ""
    return f"simkit replay {batch.game.name} --seed {batch.seed} --game {game} -p {shlex.quote(players)}{changed}"


def _who(batch) -> str:
    named = suspects(batch)
    if not named:
        return "a shipped strategy or the engine (please report it)"
    return f"strategy {named[0]}" if len(named) == 1 else f"one of the strategies {', '.join(named)}"


def _reason(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    if isinstance(exc, IndexError):
        text = f"an index past the end of an array ({text or 'index is out of bounds'})"
    elif isinstance(exc, MemoryError):
        text = f"an allocation that does not fit in memory ({text or 'MemoryError'})"
    elif isinstance(exc, RecursionError):
        text = "recursion too deep"
    return f"{type(exc).__name__}: {text}" if not isinstance(exc, (IndexError, MemoryError, RecursionError)) else text


def first_failing_game(batch, first_game: int, games: int, check: bool) -> int | None:
    """The first game of ``first_game .. first_game + games - 1`` that raises when played alone (None: none
    does, the fault needed the games before it)."""
    for game in range(first_game, first_game + games):
        try:
            batch.play(game, 1, check)
        except Exception:
            return game
    return None


def chunk_fault(batch, first_game: int, games: int, check: bool, exc: Exception) -> StrategyFault:
    """The one-line error for a chunk of ``batch`` whose play raised ``exc``."""
    if isinstance(exc, (SimkitError, RunFailed)):
        return exc
    game = first_game if games == 1 else first_failing_game(batch, first_game, games, check)
    where = (f"game {game}; replay it: {replay_command(batch, game)}" if game is not None
             else f"games {first_game}..{first_game + games - 1}")
    return StrategyFault(f"{lineup_words(batch)}: {_who(batch)} failed with {_reason(exc)} in {where}")


def crash_line(batch, first_game: int, games: int, how: str) -> str:
    """The one line for a process that died playing games of ``batch`` (a segfault, an abort)."""
    return (f"{lineup_words(batch)}: the process playing games {first_game}..{first_game + games - 1} {how}; "
            f"suspect {_who(batch)}; replay the first of them: {replay_command(batch, first_game)}")
