"""Where a game's time goes (``simkit bench GAME --profile``): the engine, each decision point of each
strategy, and the work around the kernel, measured by timing the same batch with decisions replaced.

A decision cannot be replaced by just any trivial function: another answer plays another game, and the
time would measure that game instead. So the profile first plays the batch with every decision wrapped by
a recorder (a compiled function of the decision's own signature that calls the strategy's decision and
keeps its answer and every entry it changed in its writable arguments: memory, random stream, answer
buffer), then times the same batch with chosen decisions replaced by a player of that tape, a decision of
the same signature that only copies the recorded answer back. The games are the same move for move (every
configuration's results are checked equal to the real run's, bit for bit, and every recorded call
replayed), so the time saved is what the replaced decision costs beyond a call that does almost nothing.

The engines are not changed: the recorder and the player are ordinary decisions, swapped in through the
line-up (``Strategy.build(base=...)``). A tape holds one decision point's calls in the order they came, with
the calling seat's parameter vector's address (the engines keep one row per seat, in seat order), so a
seat's calls alone can be played while the other seats decide for real.
"""
from __future__ import annotations

import importlib
import io
import math
import statistics
import time
from contextlib import contextmanager
from dataclasses import replace

import numpy as np
import pyarrow.parquet as pq
from numba import carray, njit, types
from numba.core.registry import CPUDispatcher

from .errors import SimkitError
from .numba_tools import _voidptr, function_from_addresses
from .runner import Batch
from .strategy import Seat, Strategy

# the table: a row per decision point (its tape: the calls played or recorded so far and where the tapes are),
# then a row per recorder (the addresses of the decision it calls)
(T_MODE, T_CALLS, T_CALL_CAPACITY, T_CALLS_ADDRESS, T_DELTAS, T_DELTA_CAPACITY, T_DELTAS_ADDRESS, T_VALUES_ADDRESS,
 T_WRAPPER, T_OBJECT, T_JIT) = range(11)
TABLE_FIELDS = 11
MODE_RECORD, MODE_PLAY = 1, 2
# calls tape, per call: answer, entries changed, first of them in the deltas tape, the seat's parameters' address;
# deltas tape, per entry changed: argument, index, value (floats' values in a tape of their own)
C_ANSWER, C_CHANGED, C_FIRST, C_PARAMS = range(4)
CALL_FIELDS = 4


def _arguments(signature) -> tuple[int, list[tuple[int, str]]]:
    """The position of the parameter vector (the first read-only float array, one row per seat) and the
    (position, 'f' float / 'u' unsigned / 'i' signed) of each array a decision may write."""
    params, writable = None, []
    for position, arg in enumerate(signature.args):
        if not isinstance(arg, types.Array):
            continue
        if arg.mutable:
            if arg.ndim != 1:
                raise SimkitError(f"profile: a decision's writable argument {position} is not one-dimensional")
            writable.append((position, "f" if isinstance(arg.dtype, types.Float) else
                             "u" if arg.dtype.signed is False else "i"))
        elif params is None and isinstance(arg.dtype, types.Float):
            params = position
    if params is None:
        raise SimkitError("profile: a decision without a read-only float parameter vector")
    return params, writable


def _tape_view(row: str) -> list[str]:
    return [f"    table = carray(_voidptr(TABLE), (ROWS, {TABLE_FIELDS}), np.int64)",
            f"    c = table[{row}, {T_CALLS}]",
            f"    table[{row}, {T_CALLS}] = c + 1",
            f"    calls = carray(_voidptr(table[{row}, {T_CALLS_ADDRESS}]), (table[{row}, {T_CALL_CAPACITY}], "
            f"{CALL_FIELDS}), np.int64)",
            f"    deltas = carray(_voidptr(table[{row}, {T_DELTAS_ADDRESS}]), (table[{row}, {T_DELTA_CAPACITY}], 3), "
            "np.int64)",
            f"    values = carray(_voidptr(table[{row}, {T_VALUES_ADDRESS}]), (table[{row}, {T_DELTA_CAPACITY}],), "
            "np.float64)"]


def _player_source(signature) -> str:
    """A decision that plays its tape: the recorded changes written back, the recorded answer returned."""
    names = ", ".join(f"a{i}" for i in range(len(signature.args)))
    _, writable = _arguments(signature)
    answer = f"calls[c, {C_ANSWER}]" + (" != 0" if isinstance(signature.return_type, types.Boolean) else "")
    lines = [f"def play({names}):", *_tape_view("TAPE"),
             "    if c >= calls.shape[0]:",         # another game than the recorded one: the profile says so
             f"        return {'False' if isinstance(signature.return_type, types.Boolean) else '0'}",
             f"    for j in range(calls[c, {C_FIRST}], calls[c, {C_FIRST}] + calls[c, {C_CHANGED}]):",
             "        position = deltas[j, 0]"]
    for k, (position, kind) in enumerate(writable):
        value = {"f": "values[j]", "u": "np.uint64(deltas[j, 2])", "i": "deltas[j, 2]"}[kind]
        lines += [f"        {'if' if k == 0 else 'elif'} position == {position}:",
                  f"            a{position}[deltas[j, 1]] = {value}"]
    return "\n".join(lines + [f"    return {answer}"]) + "\n"


def _recorder_source(signature) -> str:
    """A decision that calls the strategy's own (found by its addresses in row DECISION) and records what it
    did: the answer, and each entry of a writable argument whose bits it changed."""
    names = ", ".join(f"a{i}" for i in range(len(signature.args)))
    params, writable = _arguments(signature)
    lines = [f"def record({names}):", *_tape_view("TAPE"),
             f"    decision = _function(table[DECISION, {T_WRAPPER}], table[DECISION, {T_OBJECT}], "
             f"table[DECISION, {T_JIT}])"]
    lines += [f"    b{position} = a{position}.copy()" for position, _ in writable]
    lines += [f"    result = decision({names})", f"    d = table[TAPE, {T_DELTAS}]", "    n = 0"]
    for position, kind in writable:
        changed = f"a{position}[i] != b{position}[i]"
        if kind == "f":     # -0.0 == 0.0 but its bits differ
            changed += f" or math.copysign(1.0, a{position}[i]) != math.copysign(1.0, b{position}[i])"
        store = f"values[d + n] = a{position}[i]" if kind == "f" else f"deltas[d + n, 2] = np.int64(a{position}[i])"
        lines += [f"    for i in range(a{position}.size):",
                  f"        if {changed}:",
                  "            if d + n < deltas.shape[0]:",
                  f"                deltas[d + n, 0] = {position}",
                  "                deltas[d + n, 1] = i",
                  f"                {store}",
                  "            n += 1"]
    lines += ["    if c < calls.shape[0]:",
              f"        calls[c, {C_ANSWER}] = np.int64(result)",
              f"        calls[c, {C_CHANGED}] = n",
              f"        calls[c, {C_FIRST}] = d",
              f"        calls[c, {C_PARAMS}] = a{params}.ctypes.data",
              f"    table[TAPE, {T_DELTAS}] = d + n",
              "    return result"]
    return "\n".join(lines) + "\n"


def _compiled(source: str, name: str, signature, **constants):
    namespace = {"np": np, "math": math, "carray": carray, "_voidptr": _voidptr,
                 "_function": function_from_addresses(signature), **constants}
    exec(compile(source, f"<simkit.profile {name}>", "exec"), namespace)
    return njit(signature)(namespace[name])


def _clock() -> float:
    """CPU seconds of this process: on a machine that others load too, the time it was given, not the time
    it waited (the batch plays on one thread)."""
    return time.process_time()


def call_seconds(signature, calls: int = 200_000) -> float:
    """Seconds one call of a decision of this signature takes by itself: a trivial decision (it returns at
    once) called in a compiled loop with arguments made once, as an engine passes them. What a line-up
    compiled into one kernel could save at most per call (the call, not what the engine does around it)."""
    names = ", ".join(f"a{i}" for i in range(len(signature.args)))
    zero = "False" if isinstance(signature.return_type, types.Boolean) else "0"
    namespace = {}
    exec(f"def trivial({names}):\n    return {zero}\n"
         f"def loop(n, decision, {names}):\n    answers = 0\n    for _ in range(n):\n"
         f"        answers += decision({names})\n    return answers\n", namespace)
    trivial = njit(signature, _nrt=False)(namespace["trivial"])
    loop = njit(types.int64(types.int64, types.FunctionType(signature), *signature.args), _nrt=False)(namespace["loop"])
    arrays = [np.zeros((8,) * arg.ndim, arg.dtype.name) for arg in signature.args]
    loop(1, trivial, *arrays)
    best = math.inf
    for _ in range(3):
        start = _clock()
        loop(calls, trivial, *arrays)
        best = min(best, _clock() - start)
    return best / calls


class Tapes:
    """The table, tapes, recorders and players of one batch's line-up."""

    def __init__(self, batch: Batch):
        from numba.experimental.function_type import _get_jit_address, _get_wrapper_address

        self.batch = batch
        self.points = list(batch.game.decisions)
        originals = {}      # (point, decision function) -> its row
        for point in self.points:
            for seat in batch.seats:
                originals.setdefault((point, seat.strategy.decisions[point]), len(self.points) + len(originals))
        self.table = np.zeros((len(self.points) + len(originals), TABLE_FIELDS), np.int64)
        rows, address = len(self.table), self.table.ctypes.data
        self.players = {point: _compiled(_player_source(signature), "play", signature, TABLE=address, ROWS=rows,
                                         TAPE=self.points.index(point))
                        for point, signature in batch.game.decisions.items()}
        self.recorders = {}
        for (point, original), row in originals.items():
            signature = batch.game.decisions[point]
            self.table[row, T_WRAPPER:T_JIT + 1] = (_get_wrapper_address(original, signature), id(original),
                                                    _get_jit_address(original, signature))
            self.recorders[point, original] = _compiled(_recorder_source(signature), "record", signature,
                                                        TABLE=address, ROWS=rows, TAPE=self.points.index(point),
                                                        DECISION=row)
        self.keep = []          # the tape arrays, alive while compiled code reaches them by address
        self.calls = {}         # point -> its recorded calls, all seats in order
        self.seat_calls = {}    # (point, seat) -> that seat's calls alone

    def _lineup(self, functions) -> Batch:
        seats = list(self.batch.seats)
        for s, seat in enumerate(seats):
            changed = {point: function for (t, point), function in functions.items() if t == s}
            if changed:
                seats[s] = Seat(Strategy.build(seat.strategy.game, seat.strategy.name, base=seat.strategy, **changed),
                                seat.overrides)
        return replace(self.batch, seats=tuple(seats))

    def _point_tapes(self, point: str, calls: np.ndarray, deltas: np.ndarray, values: np.ndarray) -> None:
        row = self.table[self.points.index(point)]
        self.keep += [calls, deltas, values]
        row[T_CALL_CAPACITY], row[T_CALLS_ADDRESS] = calls.shape[0], calls.ctypes.data
        row[T_DELTA_CAPACITY], row[T_DELTAS_ADDRESS] = deltas.shape[0], deltas.ctypes.data
        row[T_VALUES_ADDRESS] = values.ctypes.data

    def record(self, first_game: int, n_games: int) -> dict:
        """Play the batch with every decision recorded (a count first, then the tapes); returns its columns."""
        lineup = self._lineup({(s, point): self.recorders[point, seat.strategy.decisions[point]]
                               for s, seat in enumerate(self.batch.seats) for point in self.points})
        tape_rows = slice(0, len(self.points))
        for _ in range(2):
            self.table[tape_rows, T_CALLS] = 0
            self.table[tape_rows, T_DELTAS] = 0
            columns = lineup.play(first_game, n_games)
            if (self.table[tape_rows, T_CALLS] <= self.table[tape_rows, T_CALL_CAPACITY]).all() and \
                    (self.table[tape_rows, T_DELTAS] <= self.table[tape_rows, T_DELTA_CAPACITY]).all():
                break
            for point, row in zip(self.points, self.table[tape_rows]):
                self._point_tapes(point, np.zeros((row[T_CALLS], CALL_FIELDS), np.int64),
                                  np.zeros((row[T_DELTAS], 3), np.int64), np.zeros(row[T_DELTAS]))
        else:
            raise RuntimeError("profile: the recorded calls outgrew their tapes")
        tapes = {point: self.keep[3 * i: 3 * i + 3] for i, point in enumerate(self.points)}
        # the engines keep the seats' parameter vectors as rows of one array, in seat order
        addresses = np.unique(np.concatenate([tapes[point][0][:, C_PARAMS] for point in self.points]))
        if len(addresses) != len(self.batch.seats):
            raise SimkitError(f"profile: {len(addresses)} parameter vectors reached the decisions of "
                              f"{len(self.batch.seats)} seats; play more games")
        for point in self.points:
            calls = tapes[point][0]
            self.calls[point] = calls
            for s in range(len(self.batch.seats)):
                self.seat_calls[point, s] = np.ascontiguousarray(calls[calls[:, C_PARAMS] == addresses[s]])
        return columns

    def playing(self, taped) -> Batch:
        """The line-up with every (seat, point) in ``taped`` played from the tapes (all of a point's seats,
        or one seat of it); the tapes set to play from the start."""
        points = {point for _, point in taped}
        for point in points:
            seats = [s for s, p in taped if p == point]
            calls = self.calls[point] if len(seats) == len(self.batch.seats) else self.seat_calls[point, seats[0]]
            if len(seats) not in (1, len(self.batch.seats)):
                raise ValueError("profile: a point is played for one seat or all")
            i = self.points.index(point)
            deltas, values = self.keep[3 * i + 1: 3 * i + 3]
            row = self.table[i]
            row[T_CALL_CAPACITY], row[T_CALLS_ADDRESS] = calls.shape[0], calls.ctypes.data
            row[T_CALLS] = 0
        return self._lineup({(s, point): self.players[point] for s, point in taped})

    def played_all(self, taped) -> bool:
        """Whether the last play of ``taped`` used every call of its tapes."""
        return all(self.table[self.points.index(point), T_CALLS] == self.table[self.points.index(point),
                                                                               T_CALL_CAPACITY]
                   for _, point in taped)


def _engine_module(batch: Batch):
    return importlib.import_module(batch.game.play_module.rpartition(".")[0] + ".engine")    # the play module's sibling


@contextmanager
def _kernel_clock(module, spent: list):
    """Time every compiled function of the engine module that Python calls (the kernel and its setup)."""
    originals = {name: value for name, value in vars(module).items() if isinstance(value, CPUDispatcher)}

    def timed(function):
        def call(*args, **kwargs):
            start = _clock()
            try:
                return function(*args, **kwargs)
            finally:
                spent[0] += _clock() - start
        return call

    try:
        for name, function in originals.items():
            setattr(module, name, timed(function))
        yield
    finally:
        for name, function in originals.items():
            setattr(module, name, function)


def same_columns(a: dict, b: dict) -> bool:
    """Whether two results of simulate (dicts of arrays, nested dicts of totals) are equal bit for bit."""
    return a.keys() == b.keys() and all(
        (same_columns(a[k], b[k]) if isinstance(a[k], dict) else np.array_equal(np.asarray(a[k]), np.asarray(b[k])))
        for k in a)


def profile_batch(batch: Batch, games: int, repeat: int = 3) -> dict:
    """Split the cost of ``games`` games of ``batch`` (its line-up, rules and seed) on one core into parts,
    each the median over ``repeat`` interleaved rounds, in seconds per game. Raises if any configuration
    plays other games than the real line-up."""
    first = batch.first_game
    batch.play(first, 1)                                  # the engine compiled or loaded before any timing
    reference = batch.play(first, games)
    tapes = Tapes(batch)
    if not same_columns(tapes.record(first, games), reference):
        raise RuntimeError("profile: recording the decisions changed the games")
    n_seats, points = len(batch.seats), tapes.points
    configs = {"full": (), "engine": tuple((s, p) for s in range(n_seats) for p in points)}
    for point in points:    # a decision nobody called costs nothing: not timed
        if len(tapes.calls[point]):
            configs[point] = tuple((s, point) for s in range(n_seats))
        for s in range(n_seats):
            if len(tapes.seat_calls[point, s]):
                configs[point, s] = ((s, point),)
    module = _engine_module(batch)
    seconds = {name: [] for name in configs}
    kernel = {name: [] for name in configs}
    table_s, parquet_s = [], []
    for _ in range(repeat):
        for name, taped in configs.items():
            lineup = tapes.playing(taped)
            spent = [0.0]
            with _kernel_clock(module, spent):
                start = _clock()
                columns = lineup.play(first, games)
                seconds[name].append(_clock() - start)
            kernel[name].append(spent[0])
            if not same_columns(columns, reference) or not tapes.played_all(taped):
                raise RuntimeError(f"profile: the games with {name} played from tapes differ from the real ones")
            if name == "full":
                start = _clock()
                arrow = batch.table(columns)
                table_s.append(_clock() - start)
                start = _clock()
                pq.write_table(arrow, io.BytesIO())
                parquet_s.append(_clock() - start)

    def per_game(values):
        return statistics.median(values) / games

    full = per_game(kernel["full"])
    engine = per_game(kernel["engine"])

    def saved(name):
        return max(0.0, full - per_game(kernel[name])) if name in kernel else 0.0

    decisions = {point: {"all": saved(point), "seats": [saved((point, s)) for s in range(n_seats)],
                         "calls_per_game": len(tapes.calls[point]) / games,
                         "seat_calls_per_game": [len(tapes.seat_calls.get((point, s), ())) / games
                                                 for s in range(n_seats)]} for point in points}
    parts = {"engine": engine,
             **{f"decision {point}": decisions[point]["all"] for point in points},
             "shared": max(0.0, full - engine - sum(d["all"] for d in decisions.values())),
             "around": max(0.0, per_game(seconds["full"]) - full),
             "table": per_game(table_s), "parquet": per_game(parquet_s)}
    call = {}       # one measurement per signature (the US and UK games give every decision the same)
    for point in points:
        signature = batch.game.decisions[point]
        if signature not in call:
            call[signature] = call_seconds(signature)
        decisions[point]["call"] = call[signature]
    spread = (max(kernel["full"]) - min(kernel["full"])) / statistics.median(kernel["full"])
    return {"game": batch.game.name, "lineup": [seat.label for seat in batch.seats], "games": games,
            "repeat": repeat, "parts": parts, "decisions": decisions, "total": sum(parts.values()),
            "noise": spread}


PART_NAMES = {"engine": "engine (every decision played from its tape)", "shared": "shared by decision points, noise",
              "around": "around the kernel (inputs, outputs, result columns)", "table": "Arrow table of the results",
              "parquet": "Parquet part (encoded in memory)"}


def _rate(calls: float, seconds: float) -> str:
    return f"{calls / seconds:,.0f}" if calls > 0 and seconds > 0 else "-"


def format_profile(result: dict) -> str:
    """The profile as a table: microseconds per game and share of the total per part; each decision point
    also with its calls per game and its cost per seat (the seat's strategy), then each seat's decisions per
    second at each decision point."""
    seats = [f"{i}:{label}" for i, label in enumerate(result["lineup"])]
    total = result["total"]
    width = max(10, *(len(label) for label in seats))
    name_width = max(len(PART_NAMES["around"]), *(len(key) for key in result["parts"]))
    lines = [f"{result['game']}: {result['games']:,} games, median of {result['repeat']}, one core, CPU time; "
             f"microseconds per game (the real batch's repeats spread over {result['noise']:.0%} of its median; a "
             "part below the noise shows as 0)",
             f"{'part':<{name_width}} {'us/game':>9} {'share':>6} {'calls/game':>10}  "
             + "  ".join(f"{label:>{width}}" for label in seats)]
    for key, value in result["parts"].items():
        row = f"{PART_NAMES.get(key, key):<{name_width}} {value * 1e6:>9.2f} {value / total:>6.1%}"
        if key.startswith("decision "):
            decision = result["decisions"][key[len("decision "):]]
            row += f" {decision['calls_per_game']:>10.1f}  " + "  ".join(
                f"{seconds * 1e6:>{width}.2f}" for seconds in decision["seats"])
        lines.append(row)
    lines.append(f"{'total (simulate, Arrow table, Parquet part)':<{name_width}} {total * 1e6:>9.2f} {1:>6.1%}")
    calls = sum(d["call"] * d["calls_per_game"] for d in result["decisions"].values())
    lines.append(f"the decision calls themselves (included above): {calls * 1e6:.2f} us/game, {calls / total:.1%} ("
                 + ", ".join(f"{point} {d['call'] * 1e9:.1f} ns a call" for point, d in result["decisions"].items())
                 + ", a trivial decision called in a loop)")
    for point, d in result["decisions"].items():
        lines.append(f"{point} decisions per second of one core, per seat (its calls / their cost; - where none was "
                     "called or its cost is below the noise): "
                     + "  ".join(f"{label} {_rate(calls, seconds)}" for label, calls, seconds
                                 in zip(seats, d["seat_calls_per_game"], d["seats"])))
    lines.append("event recording: off in runs (the engines record events only for replays)")
    return "\n".join(lines)
