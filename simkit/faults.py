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


def note_for(batch, first_game: int, games: int) -> dict:
    """What another process needs to name a fault in games ``first_game ..`` of ``batch`` (JSON-ready)."""
    return {"lineup": lineup_words(batch), "who": _who(batch), "replay": replay_command(batch, -1),
            "seats": [seat.label for seat in batch.seats], "decisions": list(batch.game.decisions),
            "first": first_game, "games": games}


def stop_line(note: dict, words, what: str, blame: bool = True, replaying: bool = False) -> str:
    """One line for games stopped by a fault (``what``: "raised ...", "died (...)", "is stuck ..."): the
    line-up, the game, seat and decision under way (from the player's guard words), the suspect and the
    command that replays the game."""
    from .guard import W_DECISION, W_GAME, W_SEAT

    first, games = note["first"], note["games"]
    game = words[W_GAME] if first <= words[W_GAME] < first + games else first
    seat, decision = words[W_SEAT], words[W_DECISION]
    during = ""
    if 0 <= seat < len(note["seats"]) and 0 <= decision < len(note["decisions"]):
        during = f", in decision {note['decisions'][decision]} of seat {seat} ({note['seats'][seat]})"
    if not blame:       # killed from outside (the OOM killer, kill -9): no strategy to suspect
        return f"{note['lineup']}: game {game} {what}"
    if replaying:
        return f"{note['lineup']}: game {game} {what}{during}; suspect {note['who']}"
    replay = note["replay"].replace("--game -1", f"--game {game}")
    return f"{note['lineup']}: game {game} {what}{during}; suspect {note['who']}; replay it: {replay}"


def begin(note: dict, words) -> None:
    """Clear the decision under way in ``words`` before games of ``note`` are played."""
    from .guard import W_DECISION, W_GAME, W_SEAT

    words[W_SEAT] = words[W_DECISION] = -1
    words[W_GAME] = note["first"]


def chunk_fault(batch, first_game: int, games: int, exc: Exception, words, replaying: bool = False) -> StrategyFault:
    """The one-line error for a chunk of ``batch`` whose play raised ``exc`` (``words``: the guard words of
    the process that played it; ``replaying``: a replay, which needs no command to replay it)."""
    if isinstance(exc, (SimkitError, RunFailed)):
        return exc
    return StrategyFault(stop_line(note_for(batch, first_game, games), words, f"failed with {_reason(exc)}",
                                   replaying=replaying))


def _draws_outside_randomness(py_func) -> bool:
    """Whether a function's code names np.random, Python's random or the clock (its own or nested code)."""
    stack, seen = [getattr(py_func, "__code__", None)], set()
    while stack:
        code = stack.pop()
        if code is None or id(code) in seen:
            continue
        seen.add(id(code))
        if {"random", "time", "perf_counter", "urandom"} & set(code.co_names):
            return True
        stack += [c for c in code.co_consts if hasattr(c, "co_names")]
    return False


def not_reproducible_line(batch, game: int) -> str:
    """One line for a game that came out differently when replayed in another process."""
    from .strategy import shipped_code

    named = [label for label, seat in ((_spec(seat), seat) for seat in batch.seats)
             if any(_draws_outside_randomness(getattr(f, "py_func", f)) for f in seat.strategy.decisions.values()
                    if not shipped_code(getattr(f, "py_func", f)))]
    who = (f"strategy {named[0]} draws" if len(set(named)) == 1 else
           f"strategies {', '.join(dict.fromkeys(named))} draw" if named else f"{_who(batch)} draws")
    return (f"{lineup_words(batch)}: game {game} gave different results when replayed in another process: "
            f"{who} on randomness other than its own stream (np.random, random, the clock), so its results "
            "cannot be reproduced; draw from the stream the engine passes each decision instead")
