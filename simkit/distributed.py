"""The Dask backend: a batch's chunks as tasks on a Dask distributed cluster.

A worker never receives the Batch itself (its strategies are compiled Numba functions, which do not
pickle): it receives the batch's description, the same one a manifest records (game, effective rules,
line-up as strategy names with their modules and parameters, seed), and rebuilds the batch once per
process with ``batch_from_manifest``, compiling the engine or loading it from Numba's disk cache. So
user strategies work when their module is importable on the workers. Results are the same bit for bit
as the local backend's: every game's streams depend only on (seed, game index).
"""
from __future__ import annotations

import json
import os
import sys
import threading
from contextlib import contextmanager

from .errors import SimkitError

_BATCHES: dict = {}      # per worker process: description -> Batch, built on first use
_LOCK = threading.Lock()


def _describe(batch) -> str:
    manifest = batch.manifest()
    return json.dumps({key: manifest[key] for key in ("game", "lineup", "seed", "games", "rules")}, sort_keys=True)


def _worker_batch(description: str):
    with _LOCK:
        if description not in _BATCHES:
            from .runner import batch_from_manifest

            batch = batch_from_manifest(json.loads(description))
            batch.play(0, 1)        # compile or load the engine now, not inside the first timed chunk
            _BATCHES.clear()        # one configuration at a time: a long-lived worker does not accumulate
            _BATCHES[description] = batch
        return _BATCHES[description]


def _warm(description: str) -> bool:
    _worker_batch(description)
    return True


def _play(description: str, first_game: int, n_games: int, check: bool) -> dict:
    return _worker_batch(description).play(first_game, n_games, check)


def connect(workers: int, scheduler: str | None):
    """A Dask client: to the scheduler at ``scheduler``, or to a new LocalCluster of ``workers`` processes
    of one thread each. Returns (client, cluster or None); close both."""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise SimkitError("--backend dask needs dask.distributed: pip install 'dask[distributed]'") from None
    if scheduler:
        try:
            return Client(scheduler, timeout="10s"), None
        except (OSError, TimeoutError, ValueError) as exc:
            raise SimkitError(f"--scheduler {scheduler}: cannot connect ({exc})") from None
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                           silence_logs=50)
    return Client(cluster), cluster


def execute_dask(batch, chunks, sink, bar, workers: int, check: bool, scheduler: str | None) -> None:
    """Play ``chunks`` ((index, first game, games) each) as Dask tasks and hand results to ``sink``. At most
    two chunks per worker thread are in flight, so the client's memory does not grow with the batch."""
    from dask.distributed import as_completed

    client, cluster = connect(workers, scheduler)
    try:
        description = _describe(batch)
        client.run(_warm, description)          # every worker builds the batch and loads the engine once
        slots = 2 * max(1, sum(client.nthreads().values()))
        queue = iter(chunks)
        pending = {}

        def submit(chunk):
            index, first, n = chunk
            future = client.submit(_play, description, first, n, check, pure=False)
            pending[future.key] = (index, n)
            return future

        running = as_completed([submit(chunk) for _, chunk in zip(range(slots), queue)])
        for future in running:
            index, n = pending.pop(future.key)
            sink(index, future.result())
            future.release()
            bar.update(n)
            nxt = next(queue, None)
            if nxt is not None:
                running.add(submit(nxt))
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


# --- every analysis on a cluster: simkit.pool.play_chunks sends its chunks here while ``using`` is active ----------
MAX_BUILT = 256     # line-ups a worker keeps built (a search plays hundreds; each costs a rebuild when dropped)


def _decisions(strategy) -> list[str]:
    return [f"{f.py_func.__module__}.{f.py_func.__qualname__}" for f in strategy.decisions.values()]


_FOUND: dict = {}   # strategy serial -> how a worker finds it


def strategy_spec(strategy) -> str:
    """How a worker finds ``strategy``: its name when it is shipped or installed, else ``module:attr`` of the
    module that holds it (a strategy built from a shipped one keeps the shipped module's decisions, so
    ``Strategy.module`` does not say where it was made)."""
    if strategy.serial not in _FOUND:
        from .strategy import registered

        if registered(strategy.game).get(strategy.name) is strategy:
            _FOUND[strategy.serial] = strategy.name
        else:
            places = [(name, attr) for name, module in list(sys.modules.items()) if name != "__main__"
                      for attr, value in list(getattr(module, "__dict__", {}).items()) if value is strategy]
            if not places:
                raise SimkitError(f"strategy {strategy.name}: the Dask workers cannot find it; define it at the top "
                                  "level of a module of your own (and --upload that file, or install it on the workers)")
            _FOUND[strategy.serial] = "{}:{}".format(*min(places, key=lambda place: place[0] != strategy.module))
    return _FOUND[strategy.serial]


def chunk_description(batch) -> str:
    """What a worker needs to rebuild ``batch`` (not its games: every chunk names its own): the game, the
    effective rules, the seed and each seat's strategy (``strategy_spec``) with its parameter values and the
    functions of its decisions (module.qualname), which the worker checks against what it finds."""
    return json.dumps({
        "game": batch.game.name, "rules": batch.rules, "seed": batch.seed,
        "lineup": [{"spec": strategy_spec(seat.strategy), "decisions": _decisions(seat.strategy),
                    "params": {key: float(value) for key, value in seat.values.items()}}
                   for seat in batch.seats]}, sort_keys=True)


def _built_batch(description: str):
    with _LOCK:
        batch = _BUILT.pop(description, None)
        if batch is None:
            from .runner import make_batch

            wanted = json.loads(description)
            players = [":".join([seat["spec"], *(f"{key}={value!r}" for key, value in seat["params"].items())])
                       for seat in wanted["lineup"]]
            batch = make_batch(wanted["game"], 1, players, wanted["seed"], rules=wanted["rules"])
            for seat, asked in zip(batch.seats, wanted["lineup"]):
                if _decisions(seat.strategy) != asked["decisions"]:
                    raise SimkitError(f"strategy {asked['spec']} on the Dask worker is not the one the client plays "
                                      f"(its decisions are {', '.join(_decisions(seat.strategy))}): install or "
                                      "--upload the same code")
            while len(_BUILT) >= MAX_BUILT:
                _BUILT.pop(next(iter(_BUILT)))
        _BUILT[description] = batch     # most recently used last
        return batch


_BUILT: dict = {}


def _play_chunk(description: str, first_game: int, games: int, check: bool, columns):
    from .pool import _timed_play

    return _timed_play(_built_batch(description), first_game, games, check, columns)


class Cluster:
    """A Dask client that plays simkit.pool's chunks (``simkit.pool.play_chunks`` sends them here while
    ``using`` is active). The tasks are pure functions of their arguments, so a task the scheduler runs
    again (its worker died) gives the same columns, and the results are the local backend's bit for bit."""

    def __init__(self, client, cluster=None):
        self.client, self.cluster = client, cluster

    def threads(self) -> int:
        return max(1, sum(self.client.nthreads().values()))

    def play_chunks(self, chunks, sink, check: bool, bar, failed) -> None:
        """Play ``chunks`` as tasks, at most two per worker thread in flight, and hand each to ``sink(chunk,
        (columns, seconds))`` as it finishes; an exception goes to ``failed(chunk, exception)`` when given."""
        from dask.distributed import as_completed

        described = {}
        queue = iter(chunks)
        pending = {}

        def submit(chunk):
            key = id(chunk.batch)
            if key not in described:
                described[key] = chunk_description(chunk.batch)
            future = self.client.submit(_play_chunk, described[key], chunk.first_game, chunk.games, check,
                                        chunk.columns, pure=False)
            pending[future.key] = chunk
            return future

        running = as_completed([submit(chunk) for _, chunk in zip(range(2 * self.threads()), queue)])
        try:
            for future in running:
                chunk = pending.pop(future.key)
                try:
                    value = future.result()
                except Exception as exc:
                    if failed is None:
                        raise
                    failed(chunk, exc)
                else:
                    sink(chunk, value)
                future.release()
                if bar is not None:
                    bar.update(chunk.games)
                following = next(queue, None)
                if following is not None:
                    running.add(submit(following))
        except BaseException:
            self.client.cancel(list(running.futures))
            raise

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


@contextmanager
def using(backend: str, workers: int | None = None, scheduler: str | None = None, upload=()):
    """While this block runs every analysis plays on ``backend``: "local" (the process's pool, simkit.pool)
    or "dask" (the cluster at ``scheduler``, or a LocalCluster of ``workers`` processes). ``upload``: files
    (a strategy module, a .zip or .egg of them) sent to every worker with ``Client.upload_file``, also to
    workers that join later. Yields the number of workers to size chunks and search rounds by: ``workers``
    (default all cores) locally, the cluster's threads on Dask."""
    from . import pool

    local = workers or os.cpu_count() or 1
    if backend == "local":
        if upload:
            raise SimkitError("--upload sends files to Dask workers: give --scheduler or --backend dask")
        yield local
        return
    if pool.cluster is not None:
        raise SimkitError("another Dask backend is already in use in this process")
    cluster = Cluster(*connect(local, scheduler))
    try:
        for path in upload:
            cluster.client.upload_file(str(path))
        pool.cluster = cluster
        yield cluster.threads()
    finally:
        pool.cluster = None
        cluster.close()
