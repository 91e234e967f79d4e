"""One pool of warm worker processes per process, shared by everything that plays games.

The pool is forked on first use, after this process has compiled (or loaded from the disk cache) the engines
it plays, so workers never compile; it then serves every later call (a run, a sweep's points, a
tournament's line-ups and rotations, both sides of a compare, the trials of a tuner) and is shut down at
exit. ``play_chunks`` takes the chunks of any number of batches at once and keeps two per worker in
flight, so an analysis made of many small batches keeps every core busy. (Forking a pool per batch cost
tens of milliseconds a batch and left the cores idle between batches.) Each worker has its own pipe, and
this process needs no helper thread to talk to them.

A worker is sent a batch's description, not the batch (its strategies are compiled functions): the game,
its effective rules, the line-up as (strategy serial, parameter values) and the seed. It rebuilds the
batch once, preparing the rules itself, and keeps it for the batch's other chunks. Strategies are found by
serial in the registry every worker inherited at fork (``simkit.strategy.by_serial``); a strategy created
after the pool was forked (one defined in a notebook, a module imported later) or a game whose engine was
not yet loaded when it was forked makes the pool fork again, once. Results do not depend on the pool, the
number of workers or the chunks: every game's streams come from (seed, game index).
"""
from __future__ import annotations

import atexit
import collections
import contextlib
import ctypes
import json
import mmap
import multiprocessing
import os
import pickle
import signal
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from multiprocessing import connection

import numpy as np
from numba import njit

from . import faults, guard
from . import strategy as _strategy
from .batch import Batch, rotate
from .errors import WorkerDied
from .games import get_game
from .strategy import Seat

WATCH_S = 1.0               # how often a pool looks for a stuck worker while none has finished a chunk
IN_FLIGHT_PER_WORKER = 2    # chunks waiting per worker: enough to hide a result's trip, little memory


@dataclass(eq=False)
class Chunk:
    """Games ``first_game .. first_game + games - 1`` of ``batch``; ``key`` is the caller's name for it, and
    ``columns`` the result columns it needs (None: all, with the game's ``_totals``)."""

    batch: object
    first_game: int
    games: int
    key: object = None
    columns: tuple | None = field(default=None)


_warm: set[str] = set()     # games whose engine this process has compiled or loaded


def warm(batch) -> None:
    """Compile or load the batch's engine here, once per game, before any worker needs it."""
    if batch.game.name not in _warm:
        _timed_play(batch, 0, 1, False, ())
        _warm.add(batch.game.name)


def _describe(batch) -> tuple:
    return (batch.game.name, json.dumps(batch.rules), batch.seed,
            tuple((seat.strategy.serial, tuple(seat.overrides.items())) for seat in batch.seats), batch.rotate_seats)


# --- in the workers -------------------------------------------------------------------------------------------
INHERITED_FDS: set[int] = set()     # this process's run locks, which no forked worker may keep open
PR_SET_PDEATHSIG = 1                # linux/prctl.h


def _die_with_parent(parent: int, forked_by_main_thread: bool) -> None:
    """Run first in every forked worker. A worker must not outlive the process that forked it (the OOM killer
    or a scheduler may ``kill -9`` that one alone): on Linux the kernel sends it SIGKILL when its parent
    dies (prctl PR_SET_PDEATHSIG; the "parent" is the forking thread, so only when that is the main
    thread), elsewhere a thread checks every half second that the parent is still there. A forked worker
    also closes the run locks it inherited (close-on-exec does not apply to fork): a lock shared with
    the workers would outlive a killed parent. Ctrl-C is the parent's to handle (it stops the workers):
    a worker ignores SIGINT, so the terminal's signal to the whole process group prints no worker
    tracebacks."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    faults.set_crash_note(None)   # a worker's death is its parent's to report (with the chunk it was playing)
    for fd in list(INHERITED_FDS):
        try:
            os.close(fd)
        except OSError:
            pass
    INHERITED_FDS.clear()
    armed = False
    if sys.platform.startswith("linux") and forked_by_main_thread:
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            armed = libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
        except (OSError, AttributeError):
            armed = False
    if os.getppid() != parent:      # the parent died before the signal was armed
        os._exit(1)
    if not armed:
        def watch():
            while os.getppid() == parent:
                time.sleep(0.5)
            os._exit(1)

        threading.Thread(target=watch, name="simkit-parent-watch", daemon=True).start()


MAX_BUILT = 256     # line-ups a worker keeps built (a search plays hundreds; each costs a rebuild when dropped)
_built: dict = {}       # description (this pool's tuple, or a Dask task's JSON) -> Batch, most recently used last
_prepared: dict = {}    # (game, rules JSON, players) -> prepared rules
_building = threading.Lock()    # a Dask worker may run tasks on several threads


def built(description, build):
    """The batch ``build(description)`` makes, built once per worker process and kept for the batch's other
    chunks (the pool's workers and simkit.distributed's Dask workers share this cache)."""
    with _building:
        batch = _built.pop(description, None)
        if batch is None:
            batch = build(description)
            while len(_built) >= MAX_BUILT:
                _built.pop(next(iter(_built)))
        _built[description] = batch
        return batch


def prepared_rules(spec, rules: dict, rules_json: str, players: int):
    """``spec.prepare(rules, players)``, once per (game, rules, players) in a worker process (the process that
    described the batch validated the rules)."""
    key = (spec.name, rules_json, players)
    if key not in _prepared:
        if len(_prepared) >= MAX_BUILT:
            _prepared.clear()
        _prepared[key] = spec.prepare(rules, players)
    return _prepared[key]


def _rebuild(description: tuple):
    game, rules_json, seed, seats, rotate_seats = description
    spec = get_game(game)
    rules = json.loads(rules_json)
    line_up = tuple(Seat(_strategy.by_serial(serial), dict(overrides)) for serial, overrides in seats)
    return Batch(spec, rules, prepared_rules(spec, rules, rules_json, len(seats)), line_up, seed, 1,
                 rotate_seats=rotate_seats)


def _timed_play(batch, first_game: int, games: int, check: bool, columns) -> tuple[dict, float]:
    """A chunk's columns (only ``columns`` if given) and the seconds spent simulating it."""
    started = time.perf_counter()
    faults.note_playing(batch, first_game, games)
    words = guard.words()
    words[guard.W_BUSY] = 1
    try:
        result = batch.play(first_game, games, check)
    except Exception as exc:    # a strategy's fault (or the engine's check): one line naming the game to replay
        raise faults.chunk_fault(batch, first_game, games, exc, words) from exc
    finally:
        words[guard.W_BUSY] = 0
    seconds = time.perf_counter() - started
    return (result if columns is None else {name: result[name] for name in columns if name in result}), seconds


def _play(description: tuple, first_game: int, games: int, check: bool, columns) -> tuple[dict, float]:
    return _timed_play(built(description, _builder[0]), first_game, games, check, columns)


class RemoteTraceback(Exception):
    """The traceback, in the worker, of an exception a chunk raised (the ``__cause__`` of the one re-raised)."""


def packed(exc: Exception) -> tuple:
    """An exception raised in a worker, ready to go back to the process that sent the work: (the exception,
    or a RuntimeError of its words if it does not pickle; its traceback as text). ``unpacked`` undoes it."""
    text = "".join(traceback.format_exception(exc))
    try:
        pickle.dumps(exc)
    except Exception:
        exc = RuntimeError(f"{type(exc).__name__}: {exc}")
    return exc, text


def unpacked(value: tuple) -> Exception:
    """The exception ``packed`` sent, with the worker's traceback as its ``__cause__`` (``simkit --debug``
    prints it; the one line the CLI prints is the exception's own)."""
    exc, text = value
    if text is not None:
        exc.__cause__ = RemoteTraceback(text)
        exc.__suppress_context__ = True
    return exc


_compiled_for: set = set()     # (game, strategies in seat order) compiled by this worker (_compiled)


def _compiled(description: tuple):
    """``_rebuild``, then the engine compiled (or loaded from the disk cache) for the batch's strategies in
    every seat order by playing no games: no decision runs, so the watch (busy only while games are played)
    never takes a long compilation for a stuck decision. For a worker whose parent did not compile first.
    Once per game and strategies: a search's trials differ in parameter values or rules, not in types, and a
    call with no games still costs about 2 ms."""
    batch = _rebuild(description)
    key = (batch.game.name, tuple(seat.strategy.serial for seat in batch.seats))
    if key not in _compiled_for:
        for r in range(len(batch.seats) if batch.rotate_seats else 1):
            batch.game.simulate(batch.prepared, list(rotate(batch.seats, r)), batch.seed, 0, 0, False)
        _compiled_for.add(key)
    return batch


_builder = [_rebuild]       # how this worker process builds a batch: _compiled in a watched pool's worker


def _serve(conn, parents_ends, parent: int, forked_by_main_thread: bool, words_address: int,
           compiles: bool = False) -> None:
    """A worker's life: play the chunks its pipe brings and send back (True, (columns, seconds)) or (False,
    (exception, its traceback)), until told to stop (None) or the pipe closes (its parent is gone). Its
    guard words are at ``words_address``, in memory its parent reads. ``compiles``: its parent has not
    compiled the engines, so it compiles each line-up before playing it (``_compiled``)."""
    for end in parents_ends:        # the parent's ends of its own and the other workers' pipes
        end.close()
    _die_with_parent(parent, forked_by_main_thread)
    guard.point_at(words_address)
    if compiles:
        _builder[0] = _compiled
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        try:
            if task[0] == "replay":         # the reproducibility guard's sample (replayed_elsewhere)
                reseed_outside_randomness()
                reply = (True, [_play(task[1], game, 1, False, task[2])[0] for game in task[3]])
            else:
                reply = (True, _play(*task))
        except Exception as exc:    # sent back and raised there, with this traceback as its cause
            reply = (False, packed(exc))
        try:
            conn.send(reply)
        except (EOFError, OSError):
            return


# --- in this process --------------------------------------------------------------------------------------------

@dataclass
class Usage:
    """What ``play_chunks`` has done in this process since ``reset``: chunks and games played and the seconds
    spent inside the games' ``simulate`` (summed over the workers). ``simkit bench --overhead`` compares
    that with the wall time."""

    chunks: int = 0
    games: int = 0
    simulate_s: float = 0.0

    def add(self, chunk: Chunk, seconds: float) -> None:
        self.chunks += 1
        self.games += chunk.games
        self.simulate_s += seconds

    def reset(self) -> None:
        self.chunks, self.games, self.simulate_s = 0, 0, 0.0


usage = Usage()


@contextlib.contextmanager
def _may_fork():
    """Let this process fork workers even if it is itself a daemonic multiprocessing process (a Dask worker
    started by its nanny is one; play_watched forks there): multiprocessing refuses that only so that such
    children are not orphaned, and ours die with their parent (``_die_with_parent``)."""
    config = multiprocessing.current_process()._config
    daemon = config.pop("daemon", None)
    try:
        yield
    finally:
        if daemon is not None:
            config["daemon"] = daemon


class _Pool:
    """Worker processes, each with its own pipe: a chunk's description goes down it and its columns come
    back. This process needs no helper thread, so a chunk's round trip is one wake-up on each side (about
    half the cost of a ProcessPoolExecutor's, whose feeder and result threads add two)."""

    def __init__(self, workers: int, compiles: bool = False):
        self.context = multiprocessing.get_context("fork")
        self.workers = workers
        self.compiles = compiles    # its workers compile for themselves (serve_watched): any game will do
        self.serial = _strategy.newest_serial()
        self.games = frozenset(_warm)
        self.conns, self.processes = [], []
        self.block = mmap.mmap(-1, guard.WORDS * 8 * workers)     # the workers' guard words, shared
        self.base = ctypes.addressof(ctypes.c_char.from_buffer(self.block))
        for _ in range(workers):
            self._start()

    def _start(self, slot: int | None = None) -> None:
        """Fork a worker into ``slot`` (None: a new one)."""
        if slot is not None:
            self.conns[slot].close()
        mine, theirs = self.context.Pipe()
        others = [conn for i, conn in enumerate(self.conns) if i != slot]
        process = self.context.Process(target=_serve, name="simkit-worker", daemon=True,
                                       args=(theirs, [*others, mine], os.getpid(),
                                             threading.current_thread() is threading.main_thread(),
                                             self.base + guard.WORDS * 8 * (len(self.conns) if slot is None else slot),
                                             self.compiles))
        with _may_fork():
            process.start()
        theirs.close()
        if slot is None:
            self.conns.append(mine)
            self.processes.append(process)
        else:
            self.conns[slot], self.processes[slot] = mine, process

    def words(self, slot: int):
        """The guard words of the worker in ``slot`` (simkit.guard)."""
        return guard.words_at(self.block, guard.WORDS * 8 * slot)

    def replace(self, slot: int) -> None:
        """A new worker in the place of the dead one in ``slot``."""
        self._start(slot)

    def knows(self, batch) -> bool:
        return (self.compiles or batch.game.name in self.games) and \
            all(seat.strategy.serial <= self.serial for seat in batch.seats)

    def alive(self) -> bool:
        return all(process.is_alive() for process in self.processes)

    def died(self, slot: int, chunk: Chunk | None = None) -> WorkerDied:
        """The error for the worker in ``slot``, whose pipe has closed (while playing ``chunk``)."""
        process = self.processes[slot]
        process.join(1)
        how = faults.death(process.exitcode)
        crashed = process.exitcode is not None and -process.exitcode in faults.CRASH_SIGNALS
        if chunk is not None and chunk.batch is not None:
            note = faults.note_for(chunk.batch, chunk.first_game, chunk.games)
            what = f"killed its worker process ({how})" if crashed else f"stopped: its worker process died ({how})"
            error = WorkerDied(faults.stop_line(note, self.words(slot), what, blame=crashed))
        else:
            error = WorkerDied(f"a worker process died ({how})")
        error.crashed = crashed
        return error

    def close(self, kill: bool = False) -> None:
        """Stop the workers: at once (``kill``: Ctrl-C or a failure, chunks in flight are dropped) or once they
        have read the stop message."""
        for conn, process in zip(self.conns, self.processes):
            if kill:
                process.terminate()
            else:
                try:
                    conn.send(None)
                except OSError:
                    process.terminate()
        for conn, process in zip(self.conns, self.processes):
            process.join(5)
            if process.is_alive():
                process.kill()
                process.join()
            conn.close()


_pool: _Pool | None = None
_forks = 0      # pools forked by this process (tests and benchmarks read it)


def _pool_for(batches, workers: int) -> _Pool:
    global _pool, _forks
    if _pool is not None and (_pool.workers != workers or not _pool.alive()
                              or not all(_pool.knows(batch) for batch in batches)):
        _pool.close()
        _pool = None
    if _pool is None:
        _pool = _Pool(workers)
        _forks += 1
    return _pool


def shutdown() -> None:
    """Stop the pool's workers and the checker (a later call forks new ones)."""
    global _pool, _checker
    if _pool is not None:
        pool, _pool = _pool, None
        pool.close()
    if _checker is not None:
        checker, _checker = _checker, None
        checker.close()


atexit.register(shutdown)


cluster = None      # a simkit.distributed.Cluster while simkit.distributed.using("dask") is active: it plays them


def _counted(sink):
    """The sink of a chunk played elsewhere, which comes back as (columns, seconds)."""
    def counted(chunk, played):
        columns, seconds = played
        usage.add(chunk, seconds)
        sink(chunk, columns)
    return counted


def play_chunks(chunks: list[Chunk], sink, workers: int = 1, check: bool = False, bar=None, failed=None) -> None:
    """Play ``chunks`` (of any batches: give every chunk of an analysis, or of a tuner's round, in one call so
    that the workers are never idle between batches) and hand each to ``sink(chunk, columns)`` as it
    finishes, in any order: on the process's pool of ``workers`` processes, or here with one worker or one
    chunk; or, while ``simkit.distributed.using("dask", ...)`` is active, as tasks on a Dask cluster. The
    results do not depend on the backend, the workers or the chunks.

    ``bar``: anything with ``update(games)`` (a progress bar, simkit.progress), advanced as chunks finish.
    An exception a chunk raises is raised here, with its worker's traceback as its ``__cause__``; a
    worker that dies raises WorkerDied. With ``failed``, both are handed to ``failed(chunk, exception)``
    instead and the other chunks go on (``simkit fuzz``: a case that breaks the engine, even one that
    kills its worker, is reported and the campaign continues)."""
    batches = list({id(chunk.batch): chunk.batch for chunk in chunks}.values())
    for batch in batches:
        warm(batch)
    sample = _Sample(chunks)
    try:
        if cluster is not None:
            cluster.play_chunks(chunks, _counted(sample.wrap(sink)), check, bar, failed)
        else:
            _play_chunks(chunks, sample.wrap(sink), workers, check, bar, failed)
    except BaseException:
        sample.abandon()
        raise
    sample.verify(failed)


def _play_chunks(chunks: list[Chunk], sink, workers: int, check: bool, bar, failed) -> None:
    global _pool
    batches = list({id(chunk.batch): chunk.batch for chunk in chunks}.values())
    if workers == 1 or len(chunks) <= 1:
        for chunk in chunks:
            try:
                columns, seconds = _timed_play(chunk.batch, chunk.first_game, chunk.games, check, chunk.columns)
            except Exception as exc:
                if failed is None:
                    raise
                failed(chunk, exc)
            else:
                usage.add(chunk, seconds)
                sink(chunk, columns)
            if bar is not None:
                bar.update(chunk.games)
        return
    pool = _pool_for(batches, workers)
    try:
        _play_on(pool, chunks, sink, check, bar, failed, guard.decision_timeout())
    except BaseException:
        if _pool is pool:
            _pool = None
        pool.close(kill=True)
        raise


def _play_on(pool: _Pool, chunks: list[Chunk], sink, check: bool, bar, failed, limit: float,
             timed: bool = False) -> None:
    """Play ``chunks`` on ``pool``'s workers, watching them: a worker whose decision has not returned in
    ``limit`` seconds (0: never) is killed and its chunk fails in one line. ``timed``: hand the sink
    (columns, seconds) instead of the columns."""
    workers = len(pool.conns)
    batches = list({id(chunk.batch): chunk.batch for chunk in chunks}.values())
    described = {id(batch): _describe(batch) for batch in batches}
    queue = collections.deque(chunks)
    in_flight = [collections.deque() for _ in pool.conns]      # per worker slot, in the order sent

    def feed(slot: int, depth: int) -> None:
        # a second chunk waits in a worker's pipe while there are many left (it hides the result's trip);
        # near the end one each, so that no chunk waits behind a busy worker while another is idle
        while queue and len(in_flight[slot]) < (depth if len(queue) > workers else 1):
            chunk = queue.popleft()
            pool.conns[slot].send((described[id(chunk.batch)], chunk.first_game, chunk.games, check, chunk.columns))
            in_flight[slot].append(chunk)

    def finish(chunk: Chunk) -> None:
        if bar is not None:
            bar.update(chunk.games)

    for depth in range(1, IN_FLIGHT_PER_WORKER + 1):     # round the workers, one chunk each at a time
        for slot in range(len(pool.conns)):
            feed(slot, depth)
    received = collections.deque()      # (slot, chunk, reply) read off the pipes, not yet handed to sink

    def receive(timeout) -> None:
        # read every finished chunk off its pipe before any sink work: a worker's send blocks until this
        # process reads it, so a result left in the pipe while the sink builds a table idles that worker
        waiting = [pool.conns[slot] for slot, sent in enumerate(in_flight) if sent]
        for conn in connection.wait(waiting, timeout) if waiting else ():
            slot = pool.conns.index(conn)
            try:
                reply = conn.recv()
            except (EOFError, OSError):
                lost(slot, pool.died(slot, in_flight[slot][0] if in_flight[slot] else None))
                continue
            chunk = in_flight[slot].popleft()
            feed(slot, IN_FLIGHT_PER_WORKER)     # the worker's next chunk first, then this one's results
            received.append((chunk, reply))

    def lost(slot: int, error: Exception) -> None:
        if failed is None:
            raise error from None
        chunk = in_flight[slot].popleft()    # the one it was playing; the others go back in the queue
        queue.extendleft(reversed(in_flight[slot]))
        in_flight[slot].clear()
        pool.replace(slot)
        feed(slot, IN_FLIGHT_PER_WORKER)
        received.append((chunk, (False, (error, None))))

    progress = {}       # slot -> (its decisions begun, when that count last changed)

    def watch() -> None:
        # a worker whose decision count has not moved for the decision timeout while it plays is stuck
        now = time.monotonic()
        for slot, sent in enumerate(in_flight):
            words = pool.words(slot)
            count = words[guard.W_DECISIONS]
            if not sent or not words[guard.W_BUSY] or progress.get(slot, (None,))[0] != count:
                progress[slot] = (count, now)
            elif now - progress[slot][1] > limit:
                pool.processes[slot].kill()
                pool.processes[slot].join()
                progress.pop(slot)
                lost(slot, faults.StrategyFault(faults.stop_line(
                    faults.note_for(sent[0].batch, sent[0].first_game, sent[0].games), words,
                    f"is stuck: a decision has not returned in {limit:g} s (--decision-timeout)")))

    while any(in_flight) or received:
        if not received:
            receive(min(WATCH_S, limit) if limit else None)
            if not received:
                watch()
                continue
        chunk, (ok, value) = received.popleft()
        if ok:
            columns, seconds = value
            usage.add(chunk, seconds)
            sink(chunk, value if timed else columns)
        else:
            exc = unpacked(value)
            if failed is None:
                raise exc
            failed(chunk, exc)
        finish(chunk)
        receive(0)


_watched = threading.local()    # a Dask worker thread's watched pool (play_watched)


def play_watched(parts: list, check: bool, limit: float) -> list:
    """Play ``parts`` ((batch, first game, games, columns) each) in a warm child process of this one that this
    thread watches as the pool watches its workers, so that a decision stuck for ``limit`` seconds stops in
    one line (a Dask worker cannot watch itself: the engines hold the GIL). The child compiles for itself
    and is kept for the thread's later calls. Returns per part (True, (columns, seconds)) or (False, the
    exception packed): the first failure, for it and every part after it (its chunk's games are named in
    it; a failed chunk stops the command)."""
    chunks = [Chunk(batch, first_game, games, key=index, columns=columns)
              for index, (batch, first_game, games, columns) in enumerate(parts)]
    watched = getattr(_watched, "pool", None)
    if watched is None or not watched.alive() or not all(watched.knows(chunk.batch) for chunk in chunks):
        if watched is not None:
            watched.close()
        watched = _watched.pool = _Pool(1, compiles=True)
    played = [None] * len(chunks)

    def keep(chunk, value):
        played[chunk.key] = (True, value)

    try:
        _play_on(watched, chunks, keep, check, None, None, limit, timed=True)
    except BaseException as exc:
        _watched.pool = None
        watched.close(kill=True)
        if not isinstance(exc, Exception):
            raise
        failure = (False, packed(exc))
        return [value if value is not None else failure for value in played]
    return played


# ---- the reproducibility guard ----------------------------------------------------------------------------------
# A game is a pure function of (seed, game index, line-up, rules): a strategy that draws from np.random, Python's
# random or the clock instead of its own stream breaks that, and a run's results would then depend on the process
# and the order the games were played in. So every call of play_chunks replays a small sample of its games (one
# in SAMPLE_EVERY, and at least the first call's one) in another process, whose outside randomness is freshly
# seeded, and compares them row for row with what was played. The sample costs about 1/SAMPLE_EVERY of the games
# and a round trip to a warm process (docs/development.md has the measured cost).
SAMPLE_EVERY = 250
_credit = [SAMPLE_EVERY]        # games played since the last sampled one (the first call samples one at once)


class NotReproducible(RuntimeError):
    """A sampled game replayed in another process gave different results."""


def reseed_outside_randomness() -> None:
    import random

    import numpy as np

    seed = int.from_bytes(os.urandom(4), "little")
    random.seed(os.urandom(16))
    np.random.seed(seed)
    _numba_seed(seed)


@njit(cache=True)
def _numba_seed(seed):
    np.random.seed(seed)    # Numba's own generator, which np.random in compiled code draws from


def sampled_game(first_game: int, games: int) -> int | None:
    """The game of a chunk (``games`` from ``first_game``) to replay elsewhere, or None: one in SAMPLE_EVERY
    games of the process (simkit.distributed's Dask tasks share the count)."""
    if games < 1:
        return None
    _credit[0] += games
    if _credit[0] < SAMPLE_EVERY:
        return None
    _credit[0] = 0
    return first_game + games // 2


def game_rows(columns: dict, offset: int, seats: int) -> dict:
    """The rows of one game (at ``offset`` in its chunk) of a chunk's columns: each column has a row per
    (game, seat), game by game."""
    return {name: np.asarray(values)[offset * seats:(offset + 1) * seats] for name, values in columns.items()
            if not name.startswith("_")}


def same_rows(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(
        np.array_equal(a[k], b[k], equal_nan=a[k].dtype.kind == "f") for k in a)


class _Sample:
    """The games of one play_chunks call that the reproducibility guard replays elsewhere: each is sent to the
    checker as soon as its chunk has been played (the checker replays it while the other chunks are played)
    and compared when all are done."""

    def __init__(self, chunks: list[Chunk]):
        self.games = {}     # id(chunk) -> the game of it to replay
        for chunk in chunks:
            game = sampled_game(chunk.first_game, chunk.games) if chunk.batch is not None else None
            if game is not None:
                self.games[id(chunk)] = game
        self.sent = []      # (chunk, game, its rows as played), in the order sent to the checker
        self.replies = []   # the checker's replies read so far, in the same order
        if self.games:
            _checker_for([chunk.batch for chunk in chunks if id(chunk) in self.games])

    def wrap(self, sink):
        if not self.games:
            return sink

        def keep(chunk, columns):
            game = self.games.get(id(chunk))
            if game is not None:
                self._read_replies()
                _checker.conns[0].send(("replay", _describe(chunk.batch), chunk.columns, [game]))
                self.sent.append((chunk, game, game_rows(columns, game - chunk.first_game, len(chunk.batch.seats))))
            sink(chunk, columns)
        return keep

    def _read_replies(self) -> None:
        """Take in the replies the checker has sent so far: left in the pipe, they would fill it, the checker
        would block sending the next one and stop reading, and a long run would block sending to it."""
        conn = _checker.conns[0]
        try:
            while conn.poll(0):
                self.replies.append(conn.recv())
        except (EOFError, OSError):
            pass            # the checker died: verify() reports it when it reaches the missing reply

    def abandon(self) -> None:
        """Drop the checker's replies still to come (play_chunks stopped): a later call must not read them."""
        global _checker
        if self.sent and _checker is not None:
            checker, _checker = _checker, None
            checker.close(kill=True)

    def verify(self, failed=None) -> None:
        for k, (chunk, game, rows) in enumerate(self.sent):
            columns = _replayed(chunk.batch, game, self.replies[k] if k < len(self.replies) else None)
            if not same_rows(rows, game_rows(columns, 0, len(chunk.batch.seats))):
                error = faults.StrategyFault(faults.not_reproducible_line(chunk.batch, game))
                if failed is None:
                    raise error
                failed(chunk, error)


_checker: "_Pool | None" = None


def _checker_for(batches) -> None:
    """Make sure the process's checker (a pool of one warm worker) knows ``batches``."""
    global _checker
    if _checker is None or not _checker.alive() or not all(_checker.knows(batch) for batch in batches):
        if _checker is not None:
            _checker.close()
        _checker = _Pool(1)


def _replayed(batch, game: int, reply=None) -> dict:
    """The checker's next reply (or ``reply``, read earlier): the columns of ``game`` of ``batch`` played again,
    with its outside randomness freshly seeded (a fault there is raised here, in one line)."""
    ok, value = reply if reply is not None else _next_reply(batch, game)
    if not ok:
        raise unpacked(value)
    return value[0]


def _next_reply(batch, game: int):
    global _checker
    limit = guard.decision_timeout()
    try:
        if not _checker.conns[0].poll(limit or None):      # a decision stuck only when replayed
            words = _checker.words(0)
            _checker.close(kill=True)
            _checker = None
            raise faults.StrategyFault(faults.stop_line(faults.note_for(batch, game, 1), words,
                                                        f"is stuck: a decision has not returned in {limit:g} s "
                                                        "(--decision-timeout) when replayed in another process"))
        return _checker.conns[0].recv()
    except (EOFError, OSError):
        error = _checker.died(0)
        _checker = None
        raise error from None
