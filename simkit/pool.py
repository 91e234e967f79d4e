"""One pool of warm worker processes per process, shared by everything that plays games.

The pool is forked on first use, after this process has compiled (or loaded from the disk cache) the engines
it plays, so workers never compile; it then serves every later call (a run, a sweep's points, a
tournament's line-ups and rotations, both sides of a compare, the trials of a tuner) and is shut down at
exit. ``play_chunks`` takes the chunks of any number of batches at once and keeps two per worker in
flight, so an analysis made of many small batches keeps every core busy. (Forking a pool per batch cost
tens of milliseconds a batch and left the cores idle between batches.)

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
import ctypes
import json
import multiprocessing
import os
import signal
import sys
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field

from . import strategy as _strategy

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
        batch.play(0, 1)
        _warm.add(batch.game.name)


def _describe(batch) -> tuple:
    return (batch.game.name, json.dumps(batch.rules), batch.seed,
            tuple((seat.strategy.serial, tuple(seat.overrides.items())) for seat in batch.seats))


# --- in the workers -------------------------------------------------------------------------------------------
INHERITED_FDS: set[int] = set()     # this process's run locks, which no forked worker may keep open
PR_SET_PDEATHSIG = 1                # linux/prctl.h


def _die_with_parent(parent: int, forked_by_main_thread: bool) -> None:
    """Run first in every forked worker. A worker must not outlive the process that forked it (the OOM killer
    or a scheduler may ``kill -9`` that one alone): on Linux the kernel sends it SIGKILL when its parent
    dies (prctl PR_SET_PDEATHSIG; the "parent" is the forking thread, so only when that is the main
    thread), elsewhere a thread checks every half second that the parent is still there. A forked worker
    also closes the run locks it inherited (close-on-exec does not apply to fork): a lock shared with
    the workers would outlive a killed parent."""
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


_built: dict = {}       # description -> Batch
_prepared: dict = {}    # (game, rules, players) -> prepared rules
MAX_BUILT = 256


def _rebuild(description: tuple):
    from .games import get_game
    from .runner import Batch
    from .strategy import Seat

    game, rules_json, seed, seats = description
    spec = get_game(game)
    rules = json.loads(rules_json)
    key = (game, rules_json, len(seats))
    if key not in _prepared:
        if len(_prepared) >= MAX_BUILT:
            _prepared.clear()
        _prepared[key] = spec.prepare(rules, len(seats))
    line_up = tuple(Seat(_strategy.by_serial(serial), dict(overrides)) for serial, overrides in seats)
    return Batch(spec, rules, _prepared[key], line_up, seed, 1)


def _play(description: tuple, first_game: int, games: int, check: bool, columns):
    batch = _built.get(description)
    if batch is None:
        if len(_built) >= MAX_BUILT:
            _built.clear()
        batch = _built[description] = _rebuild(description)
    result = batch.play(first_game, games, check)
    return result if columns is None else {name: result[name] for name in columns}


def worker_initializer() -> tuple:
    """(initializer, initargs) for a process pool forked from this thread: its workers die with this process
    and close its run locks (for the pools that are not this one, e.g. ``simkit fuzz``'s)."""
    return _die_with_parent, (os.getpid(), threading.current_thread() is threading.main_thread())


# --- in this process --------------------------------------------------------------------------------------------
class _Pool:
    def __init__(self, workers: int):
        self.workers = workers
        self.serial = _strategy.newest_serial()
        self.games = frozenset(_warm)
        initializer, initargs = worker_initializer()
        self.executor = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork"),
                                            initializer=initializer, initargs=initargs)
        self.executor.submit(int).result()     # fork the workers now, from this thread

    def knows(self, batch) -> bool:
        return batch.game.name in self.games and all(seat.strategy.serial <= self.serial for seat in batch.seats)

    def close(self, kill: bool = False) -> None:
        if kill:        # Ctrl-C or a failure: stop at once rather than finish the chunks in flight
            for process in list((self.executor._processes or {}).values()):
                process.terminate()
        self.executor.shutdown(wait=not kill, cancel_futures=True)


_pool: _Pool | None = None
_forks = 0      # pools forked by this process (tests and benchmarks read it)


def _pool_for(batches, workers: int) -> _Pool:
    global _pool, _forks
    if _pool is not None and (_pool.workers != workers or _pool.executor._broken
                              or not all(_pool.knows(batch) for batch in batches)):
        _pool.close()
        _pool = None
    if _pool is None:
        _pool = _Pool(workers)
        _forks += 1
    return _pool


def shutdown() -> None:
    """Stop the pool's workers (a later call forks a new pool)."""
    global _pool
    if _pool is not None:
        pool, _pool = _pool, None
        pool.close()


atexit.register(shutdown)


def play_chunks(chunks: list[Chunk], sink, workers: int = 1, check: bool = False, bar=None) -> None:
    """Play ``chunks`` (of any batches) and hand each to ``sink(chunk, columns)`` as it finishes, in any order:
    on the pool's ``workers`` processes, or here with one worker or one chunk. ``bar``: a progress bar
    advanced by each chunk's games."""
    global _pool
    batches = list({id(chunk.batch): chunk.batch for chunk in chunks}.values())
    for batch in batches:
        warm(batch)
    if workers == 1 or len(chunks) <= 1:
        for chunk in chunks:
            columns = chunk.batch.play(chunk.first_game, chunk.games, check)
            sink(chunk, columns if chunk.columns is None else {name: columns[name] for name in chunk.columns})
            if bar is not None:
                bar.update(chunk.games)
        return
    pool = _pool_for(batches, workers)
    described = {id(batch): _describe(batch) for batch in batches}
    queue = iter(chunks)
    pending = {}

    def submit(chunk):
        future = pool.executor.submit(_play, described[id(chunk.batch)], chunk.first_game, chunk.games, check,
                                      chunk.columns)
        pending[future] = chunk

    try:
        for chunk in queue:
            submit(chunk)
            if len(pending) >= IN_FLIGHT_PER_WORKER * workers:
                break
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                chunk = pending.pop(future)
                sink(chunk, future.result())
                if bar is not None:
                    bar.update(chunk.games)
                following = next(queue, None)
                if following is not None:
                    submit(following)
    except BaseException:
        if _pool is pool:
            _pool = None
        pool.close(kill=True)
        raise
