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
import threading

from .errors import SimkitError

_BATCHES: dict = {}      # per worker process: description -> Batch, built on first use
_LOCK = threading.Lock()


def _describe(batch) -> str:
    manifest = batch.manifest()
    keys = ("game", "lineup", "seed", "games", "rotate_seats", "rules")
    return json.dumps({key: manifest[key] for key in keys}, sort_keys=True)


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
