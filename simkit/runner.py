"""Batches: N games split into chunks, played by local worker processes, streamed to Parquet.

Every game's random streams come from (seed, game index), so the dataset is the same whatever the
number of workers or the chunk size. Chunks are written as ``part-NNNNNN.parquet`` as they finish;
the parent holds at most two chunks per worker, so memory does not grow with the number of games.
A run interrupted at any point keeps its finished chunks and resumes from them (run_to_directory).
Workers are forked after the parent has compiled (or loaded from cache) the engine, so they never
compile; fork is measured at 1.9x on 2 cores against 1.97x for prange, and it keeps chunks as the
unit of work that a distributed backend needs too.
"""
from __future__ import annotations

import fcntl
import json
import multiprocessing
import os
import platform
import shutil
import sys
import time
from contextlib import contextmanager
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import numba
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import tomli_w

from . import __version__
from .errors import SimkitError
from .games import Game, get_game
from .strategy import Seat, parse_lineup

DEFAULT_CHUNK = 10_000
MANIFEST = "manifest.json"


@dataclass(frozen=True)
class Batch:
    """A fully validated batch: the game, its effective rules, the line-up, the seed and the size."""

    game: Game
    rules: dict
    prepared: object
    seats: tuple[Seat, ...]
    seed: int
    games: int
    first_game: int = 0     # index of the batch's first game: later batches of a growing run continue the seeds

    def play(self, first_game: int, n_games: int, check: bool = False) -> dict:
        return self.game.simulate(self.prepared, list(self.seats), self.seed, first_game, n_games, check)

    def totals(self, parts) -> dict:
        """Sum the per-chunk totals a game reports (``columns["_totals"]``, e.g. landings per square)."""
        summed = {}
        for part in parts:
            for name, values in part.items():
                summed[name] = summed.get(name, 0) + np.asarray(values)
        return {name: values.tolist() for name, values in summed.items()}

    def table(self, columns: dict) -> pa.Table:
        """Arrow table of one chunk, with the strategy label of each row's seat."""
        labels = list(dict.fromkeys(seat.label for seat in self.seats))
        code_of_seat = np.array([labels.index(seat.label) for seat in self.seats], np.int32)
        data = {k: v for k, v in columns.items() if not k.startswith("_")}
        strategy = pa.DictionaryArray.from_arrays(pa.array(code_of_seat[data["seat"]]), pa.array(labels))
        data = {"game": data.pop("game"), "seat": data.pop("seat"), "strategy": strategy, **data}
        return pa.table(data)

    def manifest(self) -> dict:
        return {
            "game": self.game.name,
            "title": self.game.title,
            "players": len(self.seats),
            "official_player_count": len(self.seats) in self.game.player_counts,
            "lineup": [{"seat": i, "label": s.label, "strategy": s.strategy.name, "params": s.values,
                        "module": s.strategy.module}
                       for i, s in enumerate(self.seats)],
            "seed": self.seed,
            "games": self.games,
            "rules": self.rules,
            "score_column": self.game.score_column,
            "labels": self.game.total_labels(self.prepared),
            "versions": {"simkit": __version__, "numba": numba.__version__, "numpy": np.__version__,
                         "pandas": pd.__version__, "pyarrow": pa.__version__, "python": platform.python_version()},
        }


def make_batch(game: str, games: int, players=None, seed: int = 0, rules_file=None, sets=(),
               rules: dict | None = None) -> Batch:
    """Validate everything a batch needs before anything runs or is written."""
    spec = get_game(game)
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 1:
        raise SimkitError(f"--games must be a positive whole number, not {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2 ** 64:
        raise SimkitError(f"--seed must be a whole number 0..2**64-1, not {seed!r}")
    seats = parse_lineup(spec.name, players if players else list(spec.default_lineup))
    spec.check_player_count(len(seats))
    effective = spec.rules(rules_file, sets, rules)
    prepared = spec.prepare(effective, len(seats))
    return Batch(spec, effective, prepared, tuple(seats), int(seed), int(games))


# The batch for forked workers: inherited at fork, never pickled (user strategies live in user modules).
_WORKER_BATCH: Batch | None = None


def _play_chunk(first_game: int, n_games: int, check: bool) -> dict:
    return _WORKER_BATCH.play(first_game, n_games, check)


def _chunks(games: int, chunk_size: int):
    for index, first in enumerate(range(0, games, chunk_size)):
        yield index, first, min(chunk_size, games - first)


def _progress(total: int, enabled: bool):
    from tqdm import tqdm

    return tqdm(total=total, unit=" games", unit_scale=True, disable=not enabled, file=sys.stderr,
                smoothing=0.1, dynamic_ncols=True)


BACKENDS = ("local", "dask")


def execute(batch: Batch, sink, workers: int = 1, chunk_size: int = DEFAULT_CHUNK, progress: bool = False,
            check: bool = False, skip=(), backend: str = "local", scheduler: str | None = None) -> None:
    """Play every chunk of the batch (but those whose index is in ``skip``) and hand each (index, columns)
    to ``sink`` in any order. ``backend="dask"`` plays chunks as Dask tasks, on a LocalCluster of ``workers``
    processes or on the cluster at ``scheduler``; the results are the same bit for bit."""
    global _WORKER_BATCH
    if workers < 1:
        raise SimkitError(f"--workers must be at least 1, not {workers}")
    if chunk_size < 1:
        raise SimkitError(f"--chunk-size must be at least 1, not {chunk_size}")
    if backend not in BACKENDS:
        raise SimkitError(f"--backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    chunks = [(index, batch.first_game + first, n) for index, first, n in _chunks(batch.games, chunk_size)
              if index not in skip]
    batch.play(0, 1)  # compile or load the engine here, once, before any worker exists
    with _progress(batch.games, progress) as bar:
        bar.update(batch.games - sum(n for _, _, n in chunks))
        if backend == "dask":
            from .distributed import execute_dask

            execute_dask(batch, chunks, sink, bar, workers, check, scheduler)
            return
        if workers == 1 or len(chunks) == 1:
            for index, first, n in chunks:
                sink(index, batch.play(first, n, check))
                bar.update(n)
            return
        _WORKER_BATCH = batch
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork"))
        try:
            pending = {}
            queue = iter(chunks)
            for index, first, n in queue:
                pending[pool.submit(_play_chunk, first, n, check)] = (index, n)
                if len(pending) >= 2 * workers:
                    break
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    index, n = pending.pop(future)
                    sink(index, future.result())
                    bar.update(n)
                    nxt = next(queue, None)
                    if nxt is not None:
                        pending[pool.submit(_play_chunk, nxt[1], nxt[2], check)] = (nxt[0], nxt[2])
        except BaseException:
            # Ctrl-C or a failure: stop at once rather than finish the chunks in flight
            for process in list((pool._processes or {}).values()):
                process.terminate()
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        else:
            pool.shutdown()
        finally:
            _WORKER_BATCH = None


CONFIG_KEYS = ("game", "lineup", "seed", "games", "first_game", "rules", "chunk_size")
PROGRESS = "progress.json"   # the configuration of a run being written, in its staging directory


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C during a run: the chunks written so far are kept, and the message says how to resume."""


def run_config(batch: Batch, chunk_size: int) -> dict:
    """What determines a run's dataset (not the workers or the backend): the same configuration resumes
    or finds a finished run, a different one is refused unless --overwrite."""
    manifest = {**batch.manifest(), "first_game": batch.first_game, "chunk_size": chunk_size}
    return json.loads(json.dumps({key: manifest[key] for key in CONFIG_KEYS}, default=_json_default))


def _differs(path: Path, config: dict) -> str | None:
    """The first configuration key in which the JSON file ``path`` differs from ``config`` (None: same)."""
    try:
        recorded = json.loads(path.read_text())
    except (OSError, ValueError):
        return f"an unreadable {path.name}"
    recorded.setdefault("first_game", 0)
    return next((key for key in CONFIG_KEYS if recorded.get(key) != config[key]), None)


def partial_dir(out: Path) -> Path:
    """Where a run into ``out`` is written until it is complete (and kept if it is interrupted)."""
    return out.with_name(f".{out.name}.partial")


def finished(out: str | Path, config: dict) -> bool:
    """Whether ``out`` already holds the finished run of this configuration."""
    return (Path(out) / MANIFEST).is_file() and _differs(Path(out) / MANIFEST, config) is None


def prepare_output(out: str | Path, overwrite: bool = False, config: dict | None = None) -> Path:
    """Check the output directory is free (or may be replaced) before anything runs. With a run's
    ``config``, a directory holding the same run (finished, or interrupted and kept) is accepted: the run
    is complete or resumes; one holding a different run is refused unless ``overwrite``."""
    given = out
    out = Path(out).resolve()
    if out == Path.cwd() or out in Path.cwd().parents:
        raise SimkitError(f"output path {given} is the working directory or above it; give a new directory")
    if out.exists() and not out.is_dir():
        raise SimkitError(f"output path {given} is a file; give a directory that does not exist yet")
    if config is not None and finished(out, config):
        return out
    if out.is_dir() and any(out.iterdir()):
        if not overwrite:
            what = ("holds a different run (its " + _differs(out / MANIFEST, config) + " differs)"
                    if config is not None and (out / MANIFEST).is_file() else "already exists and is not empty")
            raise SimkitError(f"output directory {given} {what}; use another --out or --overwrite")
        if not (out / MANIFEST).is_file():
            raise SimkitError(f"--overwrite replaces only run directories, and {given} has no {MANIFEST}")
    staging = partial_dir(out)
    if config is not None and (staging / PROGRESS).is_file() and not overwrite:
        key = _differs(staging / PROGRESS, config)
        if key:
            raise SimkitError(f"{staging} holds an interrupted run into {given} whose {key} differs; run its own "
                              "command again to finish it, or use --overwrite to discard it")
    existing = out.resolve().parent
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        raise SimkitError(f"cannot create {out}: {existing} is a file, not a directory")
    if not os.access(existing, os.W_OK):
        raise SimkitError(f"cannot create {out}: {existing} is not writable")
    return out


def _write_atomic(path: Path, write) -> None:
    """``write(temporary path)``, then rename: a reader (or a resumed run) never sees half a file."""
    temporary = path.with_name(path.name + ".tmp")
    write(temporary)
    os.replace(temporary, path)


def run_to_directory(batch: Batch, out: str | Path, workers: int = 1, chunk_size: int = DEFAULT_CHUNK,
                     progress: bool = False, overwrite: bool = False, check: bool = False,
                     backend: str = "local", scheduler: str | None = None) -> Path:
    """Run a batch into ``out``: Parquet parts, manifest.json and rules.toml.

    The run is written in a hidden directory beside ``out`` (``partial_dir``) that is renamed to ``out`` when
    complete. Each chunk's part and totals are written atomically, so a run stopped at any point (Ctrl-C,
    a crash, the process killed) keeps the chunks it finished, and the same call again plays only the
    rest: the finished directory is the same as an uninterrupted run's. A finished run of the same
    configuration is left as it is."""
    config = run_config(batch, chunk_size)
    out = prepare_output(out, overwrite, config)
    if finished(out, config):
        return out
    staging = partial_dir(out)
    if staging.is_dir() and (not (staging / PROGRESS).is_file() or _differs(staging / PROGRESS, config)):
        shutil.rmtree(staging)          # killed before it began, or a different run's (discarded under --overwrite)
    staging.mkdir(parents=True, exist_ok=True)
    with open(staging / ".lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise SimkitError(f"another simkit run is writing {staging}") from None
        _write_atomic(staging / PROGRESS, lambda p: p.write_text(json.dumps(config, indent=2)))
        for leftover in staging.glob("*.tmp"):
            leftover.unlink()
        done = {int(p.name[5:11]) for p in staging.glob("part-*.parquet") if (staging / _totals_name(p)).is_file()}
        started = time.perf_counter()

        def sink(index, columns):
            part = staging / f"part-{index:06d}.parquet"
            totals = columns.get("_totals", {})
            _write_atomic(staging / _totals_name(part),
                          lambda p: p.write_text(json.dumps({k: np.asarray(v).tolist() for k, v in totals.items()})))
            _write_atomic(part, lambda p: pq.write_table(batch.table(columns), p))

        try:
            execute(batch, sink, workers, chunk_size, progress, check, done, backend, scheduler)
        except BaseException as exc:
            parts = len(list(staging.glob("part-*.parquet")))
            if not parts:               # nothing worth keeping
                shutil.rmtree(staging, ignore_errors=True)
            elif isinstance(exc, KeyboardInterrupt):
                raise RunInterrupted(f"interrupted with {parts} of {-(-batch.games // chunk_size)} chunks written "
                                     f"to {staging}; run the same command again to resume") from None
            raise
        elapsed = time.perf_counter() - started
        chunks = -(-batch.games // chunk_size)
        parts = sorted(staging.glob("part-*.parquet"))
        if len(parts) != chunks:
            raise RuntimeError(f"{len(parts)} parts of {chunks} chunks in {staging} after the run")
        played = sum(n for index, _, n in _chunks(batch.games, chunk_size) if index not in done)
        manifest = batch.manifest()
        manifest.update({"totals": batch.totals(json.loads((staging / _totals_name(p)).read_text()) for p in parts),
                         "first_game": batch.first_game, "workers": workers, "backend": backend,
                         "chunk_size": chunk_size, "resumed_chunks": len(done), "elapsed_s": round(elapsed, 3),
                         "games_per_s": round(played / elapsed, 1),
                         "created": datetime.now(timezone.utc).isoformat(timespec="seconds")})
        (staging / MANIFEST).write_text(json.dumps(manifest, indent=2, default=_json_default))
        (staging / "rules.toml").write_text(tomli_w.dumps(batch.rules))
        for path in [staging / PROGRESS, staging / ".lock", *staging.glob("part-*.totals.json")]:
            path.unlink()
    if out.exists():
        shutil.rmtree(out)
    staging.rename(out)
    return out


def _totals_name(part: Path) -> str:
    return part.name.replace(".parquet", ".totals.json")


@contextmanager
def staged(out: Path):
    """Build a directory under a hidden temporary name and rename it to ``out`` only when the block
    completes, so a failed or interrupted write leaves nothing half-written (an old ``out`` is replaced)."""
    staging = out.with_name(f".{out.name}.partial-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    try:
        yield staging
        if out.exists():
            shutil.rmtree(out)
        staging.rename(out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def run_to_frame(batch: Batch, workers: int = 1, chunk_size: int = DEFAULT_CHUNK, progress: bool = False,
                 check: bool = False) -> pd.DataFrame:
    """Run a batch in memory and return its rows, ordered by (game, seat)."""
    tables, chunk_totals = {}, []

    def sink(index, columns):
        tables[index] = batch.table(columns)
        chunk_totals.append(columns.get("_totals", {}))

    execute(batch, sink, workers, chunk_size, progress, check)
    frame = pa.concat_tables([tables[i] for i in sorted(tables)]).to_pandas()
    frame.attrs["manifest"] = {**batch.manifest(), "totals": batch.totals(chunk_totals)}
    return frame


def _json_default(value):
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")


def batch_from_manifest(manifest: dict, games: int | None = None) -> Batch:
    """The batch a run directory's manifest describes (its games again, or the first ``games`` of them), for
    plots that re-play a sample of a run. A user strategy is found again as ``module:name``."""
    from .strategy import registered

    players = []
    for seat in manifest["lineup"]:
        shipped = registered(manifest["game"]).get(seat["strategy"])
        name = seat["strategy"] if shipped and shipped.module == seat["module"] else f"{seat['module']}:{seat['strategy']}"
        players.append(":".join([name] + [f"{key}={value!r}" for key, value in seat["params"].items()]))
    return make_batch(manifest["game"], games or manifest["games"], players, manifest["seed"], rules=manifest["rules"])
