"""Work between the games spread over forked processes (a report's figures): ``map_forked``, whose function
and items need not pickle, with a child's death reported in one line, never a hang."""
from __future__ import annotations

import multiprocessing
import os
import threading
from multiprocessing import connection

from . import faults
from .errors import WorkerDied
from .pool import _die_with_parent, packed, unpacked


class ChildDied(WorkerDied):
    """A process that map_forked started ended before it sent back all its results."""


def _draw(conn, function, items, parent: int, forked_by_main_thread: bool) -> None:
    """A map_forked child: ``function`` of each (index, item), sent back as (index, ok, result or exception),
    until done; a parent that has gone (a broken pipe) ends it quietly."""
    _die_with_parent(parent, forked_by_main_thread)
    try:
        for index, item in items:
            try:
                reply = (index, True, function(item))
            except Exception as exc:
                reply = (index, False, packed(exc))
            conn.send(reply)
    except (BrokenPipeError, EOFError, OSError):
        os._exit(0)


def map_forked(function, items: list, workers: int = 1) -> list:
    """``[function(item) for item in items]``, on up to ``workers`` forked processes when there are several
    items (results in order; each must pickle). For work between the games that is worth spreading over the
    cores, e.g. drawing a report's figures; neither ``function`` nor ``items`` need pickle. A child that dies
    (a crash, the OOM killer) raises ChildDied in one line, never a hang; the others are stopped; a child
    whose parent is gone ends quietly (no broken-pipe tracebacks)."""
    if workers <= 1 or len(items) < 2:
        return [function(item) for item in items]
    context = multiprocessing.get_context("fork")
    count = min(workers, len(items))
    children, results = [], {}
    try:
        for k in range(count):
            mine, theirs = context.Pipe(duplex=False)
            share = [(i, items[i]) for i in range(k, len(items), count)]
            process = context.Process(target=_draw, name="simkit-plot", daemon=True,
                                      args=(theirs, function, share, os.getpid(),
                                            threading.current_thread() is threading.main_thread()))
            process.start()
            theirs.close()
            children.append((mine, process, len(share)))
        waiting = {conn: [process, expected] for conn, process, expected in children}
        while waiting:
            for conn in connection.wait(list(waiting)):
                try:
                    index, ok, value = conn.recv()
                except (EOFError, OSError):
                    process = waiting[conn][0]
                    process.join(1)
                    raise ChildDied(f"a process drawing figures died ({faults.death(process.exitcode)}) before it "
                                    "finished") from None
                if not ok:
                    raise unpacked(value)
                results[index] = value
                waiting[conn][1] -= 1
                if not waiting[conn][1]:
                    del waiting[conn]
    finally:
        for conn, process, _ in children:
            if process.is_alive():
                process.terminate()
            process.join(5)
            conn.close()
    return [results[i] for i in range(len(items))]
