"""Strategy faults as one line: a decision that raises, allocates without bound, indexes past its arrays or
crashes its process stops the command with one line naming the line-up, the strategy that is not simkit's
own (the suspect: shipped decisions are tested and compiled as they are, a user's are bounds-checked) and
the first game to replay. The CLI prints it and exits 1 (docs/strategies.md, "When a strategy fails")."""
from __future__ import annotations

import ctypes
import json
import shlex
import signal

from . import guard
from .bounds import BEFORE_THE_START, PAST_THE_END
from .errors import RunFailed, SimkitError
from .guard import W_DECISION, W_GAME, W_SEAT
from .strategy import seat_spec, shipped_code

CRASH_SIGNALS = (signal.SIGSEGV, signal.SIGABRT, signal.SIGBUS, signal.SIGILL, signal.SIGFPE)


class StrategyFault(RunFailed):
    """A game that a strategy made fail: the message names the line-up, the suspect strategy and the game to
    replay; the original exception is the ``__cause__`` (``simkit --debug`` prints it)."""


def lineup_words(batch) -> str:
    """``wheedle line-up a, b, c (seed 7)``: what a one-line fault message names."""
    return f"{batch.game.name} line-up {', '.join(seat.label for seat in batch.seats)} (seed {batch.seed})"


def suspects(batch) -> list[str]:
    """The labels of the line-up's strategies that are not simkit's own (any decision of theirs)."""
    found = []
    for seat in batch.seats:
        if not all(shipped_code(getattr(f, "py_func", f)) for f in seat.strategy.decisions.values()):
            label = seat_spec(seat)
            if label not in found:
                found.append(label)
    return found


def replay_command(batch, game: int) -> str:
    """The command that replays one game of ``batch`` move by move."""
    players = ",".join(seat_spec(seat) for seat in batch.seats)
    changed = " (with the run's rules)" if batch.game.rule_changes(batch.rules) else ""
    rotated = " --rotate-seats" if batch.rotate_seats else ""
    return (f"simkit replay {batch.game.name} --seed {batch.seed} --game {game} -p {shlex.quote(players)}{rotated}"
            f"{changed}")


def _who(batch) -> str:
    named = suspects(batch)
    if not named:
        return "a shipped strategy or the engine (please report it)"
    return f"strategy {named[0]}" if len(named) == 1 else f"one of the strategies {', '.join(named)}"


def _reason(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    if isinstance(exc, IndexError):     # a bounds check of a strategy's own compiled code names its array
        text = f"an {text}" if text.startswith((PAST_THE_END, BEFORE_THE_START)) else \
            f"an index past the end of an array ({text or 'index is out of bounds'})"
    elif isinstance(exc, MemoryError):
        text = f"an allocation that does not fit in memory ({text or 'MemoryError'})"
    elif isinstance(exc, RecursionError):
        text = "recursion too deep"
    return f"{type(exc).__name__}: {text}" if not isinstance(exc, (IndexError, MemoryError, RecursionError)) else text


_NOTES: dict[int, tuple] = {}  # id(batch) -> (the batch, kept so that its id is not reused; its note's words)
MAX_NOTES = 256


def note_for(batch, first_game: int, games: int) -> dict:
    """What another process needs to name a fault in games ``first_game ..`` of ``batch`` (JSON-ready). The
    words about the batch are made once per batch, not per chunk (they look for each strategy's module)."""
    kept = _NOTES.get(id(batch))
    if kept is None or kept[0] is not batch:
        if len(_NOTES) >= MAX_NOTES:
            _NOTES.clear()
        kept = _NOTES[id(batch)] = (batch, {
            "lineup": lineup_words(batch), "who": _who(batch), "replay": replay_command(batch, -1),
            "seats": [seat.label for seat in batch.seats], "decisions": list(batch.game.decisions)})
    return {**kept[1], "first": first_game, "games": games}


def stop_line(note: dict, words, what: str, blame: bool = True, replaying: bool = False) -> str:
    """One line for games stopped by a fault (``what``: "raised ...", "died (...)", "is stuck ..."): the
    line-up, the game, seat and decision under way (from the player's guard words), the suspect and the
    command that replays the game."""
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
    named = [label for label, seat in ((seat_spec(seat), seat) for seat in batch.seats)
             if any(_draws_outside_randomness(getattr(f, "py_func", f)) for f in seat.strategy.decisions.values()
                    if not shipped_code(getattr(f, "py_func", f)))]
    who = (f"strategy {named[0]} draws" if len(set(named)) == 1 else
           f"strategies {', '.join(dict.fromkeys(named))} draw" if named else f"{_who(batch)} draws")
    return (f"{lineup_words(batch)}: game {game} gave different results when replayed in another process: "
            f"{who} on randomness other than its own stream (np.random, random, the clock), so its results "
            "cannot be reproduced; draw from the stream the engine passes each decision instead")


def death(code: int | None) -> str:
    """How a process ended, in words, from its exit code (negative: the signal that killed it)."""
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        what = {"SIGSEGV": "a segmentation fault: a write or read outside memory, or recursion too deep",
                "SIGABRT": "aborted", "SIGKILL": "killed, perhaps by the system for want of memory",
                "SIGBUS": "a bus error"}.get(name, "killed")
        return f"{name}, {what}"
    return f"exit status {code}"


# What the supervising parent (simkit.supervise) reads, should this process crash or a decision get stuck while
# it plays games itself: its guard words (simkit.guard) and, after them, a JSON note of the games (note_for)
CRASH_NOTE_SIZE = 8192
NOTE_AT = guard.WORDS * 8
_crash_note = [None]


def set_crash_note(buffer) -> None:
    """Record in ``buffer`` (shared memory the supervising parent reads) which games this process plays, and
    point this process's guard words there (None: no one reads them; a pool worker's are its pool's)."""
    _crash_note[0] = buffer
    if buffer is not None:
        guard.point_at(ctypes.addressof(ctypes.c_char.from_buffer(buffer)))


def note_playing(batch, first_game: int, games: int) -> None:
    """Note (for a crash or a stuck decision to name) that this process now plays these games of ``batch``."""
    note = note_for(batch, first_game, games)
    begin(note, guard.words())
    buffer = _crash_note[0]
    if buffer is not None:
        text = json.dumps(note).encode()[:STAGING_AT - NOTE_AT - 1] + b"\0"
        buffer[NOTE_AT:NOTE_AT + len(text)] = text


STAGING_AT = CRASH_NOTE_SIZE // 2     # where the note's second half, the folder a crash discards, begins


def set_discard_on_crash(path) -> None:
    """Name the folder (a run's staging) that the supervising parent removes if this process crashes while
    playing or a decision is stuck: results of a strategy that crashes are not kept for a resume (None: none)."""
    buffer = _crash_note[0]
    if buffer is not None:
        text = (str(path).encode() if path is not None else b"")[:CRASH_NOTE_SIZE - STAGING_AT - 1] + b"\0"
        buffer[STAGING_AT:STAGING_AT + len(text)] = text


def discard_on_crash(buffer) -> str:
    """The folder named by set_discard_on_crash in ``buffer`` ("": none)."""
    return bytes(buffer[STAGING_AT:]).split(b"\0", 1)[0].decode(errors="replace")


def read_note(buffer) -> dict | None:
    """The JSON note in a crash-note buffer (None: none, or unreadable)."""
    try:
        return json.loads(bytes(buffer[NOTE_AT:STAGING_AT]).split(b"\0", 1)[0])
    except ValueError:
        return None
