"""Running an experiment into a results directory: its analyses (``simkit.analysis.experiment``), then the
tables, plots and report (``simkit.reports.analysis``), with the searches' state kept beside it while they
run so that an interrupted experiment continues."""
from __future__ import annotations

import shutil
import sqlite3
import time
from pathlib import Path

from ..limits import check_count
from ..reports.analysis import write_results
from ..runner import partial_dir, prepare_output
from ..strategy import from_data_file
from .experiment import STATE_FILE, Experiment, load_experiment, run_analyses
from .result import Analysis


def _settled(database: Path) -> Path:
    """A self-contained copy of the searches' SQLite file (its write-ahead log folded in), ready to be copied
    into the results; SQLite's backup takes a consistent snapshot even if a connection is still open."""
    copy = database.with_name("settled-" + database.name)
    source, target = sqlite3.connect(database), sqlite3.connect(copy)
    try:
        source.backup(target)
        target.execute("PRAGMA journal_mode=DELETE")
    finally:
        source.close()
        target.close()
    return copy


def run_experiment(experiment: Experiment | str | Path, out: str | Path | None = None, games: int | None = None,
                   workers: int = 1, overwrite: bool = False, allow_code: bool | None = None) -> list[Analysis]:
    """Run an experiment (an Experiment or the path of its TOML file); with ``out``, write its results
    directory: experiment.toml, manifest.json, report.html and per analysis its tables (CSV and Parquet),
    findings and plots (PNG and SVG). The directory appears only when everything is written. Searches (tune,
    compare with retune) keep their Optuna state in ``.OUT.partial/study.db`` beside it while they run, so the
    same call continues an interrupted one; the finished directory holds a copy as ``study.db``.
    allow_code: whether the experiment's line-ups may name ``module:attr`` strategies of one's own (code); by
    default only an Experiment built in Python may, not one read from a file (data files are inert)."""
    source = None if isinstance(experiment, Experiment) else str(experiment)
    if not isinstance(experiment, Experiment):
        experiment = load_experiment(experiment)
    source = experiment.source or source
    if games is not None:
        check_count(games, "--games")
    with from_data_file(None if allow_code or (allow_code is None and source is None) else source or "the experiment"):
        return _run_experiment(experiment, out, games, workers, overwrite)


def _run_experiment(experiment: Experiment, out, games, workers: int, overwrite: bool) -> list[Analysis]:
    storage = None
    if out is not None:
        prepare_output(out, overwrite)
        state_dir = partial_dir(Path(out).resolve())
        if overwrite and state_dir.is_dir():
            shutil.rmtree(state_dir)
        storage = state_dir / STATE_FILE
    started = time.perf_counter()
    results = run_analyses(experiment, games, workers, storage)
    if out is not None:
        extra = {STATE_FILE: _settled(storage)} if storage.is_file() else {}
        write_results(out, experiment, results, {"games_override": games, "workers": workers,
                                                 "elapsed_s": round(time.perf_counter() - started, 1)}, extra,
                      workers=workers)
        shutil.rmtree(storage.parent, ignore_errors=True)
    return results
