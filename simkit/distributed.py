"""The Dask backend: every command's chunks as tasks on a Dask distributed cluster.

While ``using("dask", ...)`` is active, ``simkit.pool.play_chunks`` hands its chunks to a ``Cluster`` instead of
the process's pool, so a run, every analysis and every search plays on the cluster unchanged. A worker never
receives a Batch (its strategies are compiled Numba functions, which do not pickle): a task carries the
batch's description (game, effective rules, seed, each seat's strategy by name or ``module:attr`` with its
parameter values) and the chunk's games, and the worker rebuilds the batch once, compiling the engine or
loading it from Numba's disk cache. So a strategy of one's own works when its module is importable on the
workers (installed, or sent with ``--upload``). Results are the same bit for bit as the local backend's:
every game's streams depend only on (seed, game index), and a task the scheduler re-runs elsewhere (its
worker died) gives the same columns.
"""
from __future__ import annotations

import json
import os
import time
from contextlib import contextmanager

from . import faults, guard, pool
from .batch import Batch
from .errors import SimkitError, WorkerDied
from .games import get_game
from .pool import _timed_play
from .strategy import parse_seat, strategy_ref


def connect(workers: int, scheduler: str | None):
    """A Dask client: to the scheduler at ``scheduler``, or to a new LocalCluster of ``workers`` processes
    of one thread each. Returns (client, cluster or None); close both."""
    try:
        import dask
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise SimkitError("--backend dask needs dask.distributed: pip install 'dask[distributed]'") from None
    if scheduler:
        try:
            return Client(scheduler, timeout="10s"), None
        except (OSError, TimeoutError, ValueError) as exc:
            raise SimkitError(f"--scheduler {scheduler}: cannot connect ({exc})") from None
    with dask.config.set(QUIET):
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                               silence_logs=50)
    return Client(cluster), cluster


# Dask's periodic work, eased for a cluster whose tasks are long compiled loops: the statistical profiler (a
# sample of every thread's stack each 10 ms), the event loops' health check (20 ms) and the memory and system
# monitors (100 and 500 ms) cost CPU in proportion to the wall time, on every worker, nanny and the
# scheduler; on a machine whose cores the games already fill, that CPU is taken from the games. A
# LocalCluster that simkit starts uses these; for workers started by hand, docs/execution.md gives the
# same settings as environment variables.
QUIET = {"distributed.worker.profile.enabled": False, "distributed.admin.tick.interval": "1s",
         "distributed.worker.memory.monitor-interval": "1s", "distributed.admin.system-monitor.interval": "2s",
         "distributed.admin.system-monitor.gil.enabled": False}


def _decisions(strategy) -> list[str]:
    return [f"{f.py_func.__module__}.{f.py_func.__qualname__}" for f in strategy.decisions.values()]


def _ref(strategy) -> str:
    found = strategy_ref(strategy)
    if found is None:
        raise SimkitError(f"strategy {strategy.name}: the Dask workers cannot find it; define it at the top level of "
                          "a module of your own (and --upload that file, or install it on the workers)")
    return found


def chunk_description(batch) -> str:
    """What a worker needs to rebuild ``batch`` (not its games: every chunk names its own): the game, the
    effective rules, the seed and each seat's strategy (``simkit.strategy.strategy_ref``) with its parameter
    values and the functions of its decisions (module.qualname), which the worker checks against what it
    finds."""
    return json.dumps({
        "game": batch.game.name, "rules": batch.rules, "seed": batch.seed, "rotate_seats": batch.rotate_seats,
        "lineup": [{"spec": _ref(seat.strategy), "decisions": _decisions(seat.strategy),
                    "params": {key: float(value) for key, value in seat.values.items()}}
                   for seat in batch.seats]}, sort_keys=True)


_seats: dict = {}       # a seat's description (JSON) -> the Seat it names, checked: a search's field is in every batch


def _seat(game: str, asked: dict):
    key = json.dumps([game, asked], sort_keys=True)
    seat = _seats.get(key)
    if seat is None:
        seat = parse_seat(game, ":".join([asked["spec"], *(f"{k}={v!r}" for k, v in asked["params"].items())]))
        if _decisions(seat.strategy) != asked["decisions"]:
            raise SimkitError(f"strategy {asked['spec']} on the Dask worker is not the one the client plays (its "
                              f"decisions are {', '.join(_decisions(seat.strategy))}): install or --upload the same code")
        if len(_seats) >= pool.MAX_BUILT:
            _seats.clear()
        _seats[key] = seat
    return seat


def _build(description: str):
    """The batch a description names (its rules prepared once per (game, rules, players) and its seats parsed
    once, as the pool's workers do; the client validated them)."""
    wanted = json.loads(description)
    spec = get_game(wanted["game"])
    seats = tuple(_seat(spec.name, asked) for asked in wanted["lineup"])
    rules_json = json.dumps(wanted["rules"], sort_keys=True)
    return Batch(spec, wanted["rules"], pool.prepared_rules(spec, wanted["rules"], rules_json, len(seats)),
                 seats, wanted["seed"], 1, rotate_seats=wanted["rotate_seats"])


# games a task should hold at least: each costs the client, the scheduler and a worker milliseconds of Python
# (about 4 ms in the client's process and 4 ms on the worker, measured with no-op chunks on the 2-core machine)
MIN_TASK = 2000
TASKS_PER_THREAD = 8    # in a large call (a run), so that a dead worker loses little and the bar moves


def _play_task(parts: list, limit: float = 0.0) -> list:
    """A task: several chunks ((description, first game, games, check, columns) each), played one after the
    other; (True, (columns, seconds)) or (False, the exception packed as the pool's workers pack it) for each,
    so one chunk's fault is its own and reads as it does locally. ``limit``: the command's decision timeout;
    when it is not 0 the games are played in a child process of the worker that watches them
    (``simkit.pool.play_watched``), so a stuck decision stops the command in one line, as on the local pool."""
    if not limit:
        played = []
        for description, first_game, games, check, columns in parts:
            try:
                played.append((True, _timed_play(pool.built(description, _build), first_game, games, check, columns)))
            except Exception as exc:
                played.append((False, pool.packed(exc)))
        return played
    batches, failure = [], None
    for description, first_game, games, _, columns in parts:
        try:
            batches.append((pool.built(description, _build), first_game, games, columns))
        except Exception as exc:
            failure = (False, pool.packed(exc))
            break
    played = pool.play_watched(batches, parts[0][3], limit) if batches else []
    return played + [failure] * (len(parts) - len(played))


def tasks(chunks, threads: int) -> list[list]:
    """The chunks in consecutive groups, each a task: about TASKS_PER_THREAD groups per worker thread in a
    large call, and in a small one (a search's round, a few hundred games per batch) groups of MIN_TASK games
    or, when that would leave a thread without work, two per thread. (Smaller tasks balanced a round's end
    better but cost more than they saved: a 40-trial tune's rounds of 3,600 games were 11 tasks each.)"""
    total = sum(chunk.games for chunk in chunks)
    size = max(-(-total // (TASKS_PER_THREAD * threads)), min(MIN_TASK, -(-total // (2 * threads))))
    groups, games = [], size
    for chunk in chunks:
        if games >= size:
            groups.append([])
            games = 0
        groups[-1].append(chunk)
        games += chunk.games
    return groups


WATCH_S = 1.0           # how often play_chunks looks at the cluster while no task finishes
NO_WORKERS_S = 60.0     # a cluster without workers this long (a nanny restarts a killed one in seconds) is gone


def _games_words(group) -> str:
    return "; ".join(f"{chunk.first_game:,}-{chunk.first_game + chunk.games - 1:,} of {faults.lineup_words(chunk.batch)}"
                     for chunk in group)


class Cluster:
    """A Dask client that plays simkit.pool's chunks (``simkit.pool.play_chunks`` sends them here while
    ``using`` is active). The tasks are pure functions of their arguments, so a task the scheduler runs
    again (its worker died) gives the same columns, and the results are the local backend's bit for bit."""

    def __init__(self, client, cluster=None):
        self.client, self.cluster = client, cluster

    def threads(self) -> int:
        return max(1, sum(self.client.nthreads().values()))

    def play_chunks(self, chunks, sink, check: bool, bar, failed) -> None:
        """Play ``chunks`` as tasks (``tasks``), at most two per worker thread in flight, and hand each chunk to
        ``sink(chunk, (columns, seconds))`` as its task finishes; an exception goes to ``failed(chunk,
        exception)`` when given."""
        from dask.distributed import as_completed
        from distributed.scheduler import KilledWorker
        from distributed.utils import CancelledError

        described = {}
        limit = guard.decision_timeout()      # the command's: the workers' own environment may differ
        threads = self.threads()
        queue = iter(tasks(chunks, threads))
        pending = {}

        def submit(group):
            for chunk in group:
                if id(chunk.batch) not in described:
                    described[id(chunk.batch)] = chunk_description(chunk.batch)
            future = self.client.submit(_play_task, [(described[id(c.batch)], c.first_game, c.games, check, c.columns)
                                                     for c in group], limit, pure=False)
            pending[future.key] = group
            return future

        def fail(chunk, value):
            exc = pool.unpacked(value)
            if failed is None:
                raise exc
            failed(chunk, exc)

        # on this client's event loop: as_completed's default is the default client's, and a client of the
        # caller's own made current (``with Client(...)``) then tracked these futures on a loop they are not
        # bound to, leaving finished tasks undelivered (a bench's tune once waited forever with the workers idle)
        running = as_completed([submit(group) for _, group in zip(range(2 * threads), queue)], loop=self.client.loop)
        try:
            while not running.is_empty():
                future = self._next_finished(running)
                group = pending.pop(future.key)
                following = next(queue, None)
                if following is not None:       # the worker's next task first, then this one's results
                    running.add(submit(following))
                try:
                    played = future.result()
                except CancelledError as exc:   # the scheduler dropped it: its connection lost, or it restarted
                    raise WorkerDied(f"the Dask scheduler cancelled the games {_games_words(group)} ({exc}); run the "
                                     "same command again once the cluster is back") from None
                except KilledWorker as exc:     # the scheduler gave up re-running it elsewhere
                    played = [(False, (WorkerDied(
                        f"the Dask workers playing games {chunk.first_game:,}-{chunk.first_game + chunk.games - 1:,} "
                        f"of {faults.lineup_words(chunk.batch)} died each time it was tried ({exc})"), None))
                        for chunk in group]
                future.release()
                for chunk, (ok, value) in zip(group, played):
                    if ok:
                        sink(chunk, value)
                    else:
                        fail(chunk, value)
                    if bar is not None:
                        bar.update(chunk.games)
        except BaseException:
            self.client.cancel(list(running.futures))
            raise

    def _next_finished(self, running):
        """The next finished future of ``running`` (an as_completed); a cluster left without workers (all died,
        or were stopped) for NO_WORKERS_S stops the command in one line instead of waiting for them forever."""
        alone_since = None
        while True:
            with running.thread_condition:      # notified as each future finishes: checked under its lock
                if not running.has_ready():
                    running.thread_condition.wait(timeout=WATCH_S)
            if running.has_ready():
                return next(running)
            try:
                threads = sum(self.client.nthreads().values())
            except (OSError, TimeoutError):
                threads = 0
            if threads:
                alone_since = None
            elif alone_since is None:
                alone_since = time.monotonic()
            elif time.monotonic() - alone_since > NO_WORKERS_S:
                raise WorkerDied(f"the Dask cluster at {self.client.scheduler.address} has had no workers for "
                                 f"{NO_WORKERS_S:g} s, so {running.count()} tasks of games wait for none: start "
                                 "workers (dask worker ADDRESS) and run the same command again")

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def active_backend() -> str:
    """The backend ``using`` has made active here: "dask" while a cluster plays the chunks, else "local"."""
    return "local" if pool.cluster is None else "dask"


@contextmanager
def using(backend: str, workers: int | None = None, scheduler: str | None = None, upload=()):
    """While this block runs every analysis plays on ``backend``: "local" (the process's pool, simkit.pool)
    or "dask" (the cluster at ``scheduler``, or a LocalCluster of ``workers`` processes). ``upload``: files
    (a strategy module, a .zip or .egg of them) sent to every worker with ``Client.upload_file``, also to
    workers that join later. Yields the number of workers to size chunks and search rounds by: ``workers``
    (default all cores) locally, the cluster's threads on Dask."""
    local = workers or os.cpu_count() or 1
    if backend == "local":
        if upload:
            raise SimkitError("--upload sends files to Dask workers: give --scheduler or --backend dask")
        yield local
        return
    if pool.cluster is not None:    # already inside one (an analysis's run): play on it
        yield pool.cluster.threads()
        return
    cluster = Cluster(*connect(local, scheduler))
    try:
        for path in upload:
            cluster.client.upload_file(str(path))
        pool.cluster = cluster
        yield cluster.threads()
    finally:
        pool.cluster = None
        cluster.close()
