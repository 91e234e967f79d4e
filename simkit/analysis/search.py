"""The Optuna machinery the searches share: the tuner (``tune``: strategy parameters) and the rule search
(``design``: rule values).

Dimensions and their ranges, budgets in trials, games or minutes, seeds derived for each purpose, samplers
(CMA-ES, TPE, NSGA-II, random) seeded per trial, resumable SQLite storage, the ask-and-tell round that asks
again, after a kill, exactly the trials it had asked, the progress bar, and the one line a Ctrl-C ends with.

Determinism: the sampler that asks trial k is seeded by (seed, purpose, k), so a search asks the same trials
whatever was interrupted; a study records the configuration that determines its history, and a different
one is refused instead of being continued.
"""
from __future__ import annotations

import math
import sys
import warnings
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pandas as pd

from .. import progress as progress_bars
from ..errors import SimkitError
from ..inputs import (  # noqa: F401  (re-exported: the searches' option readers live in simkit.inputs)
    SCALE_SUFFIXES,
    Budget,
    Dimension,
    assignments,
    format_number,
    parse_budget,
    parse_number,
    parse_range,
)
from ..runner import RunInterrupted
from .result import Analysis


def derived_seed(seed: int, *path) -> int:
    """A seed for one purpose (search, race, validation, a sampler), independent of the others."""
    words = [int(seed) & 0xFFFFFFFF, int(seed) >> 32]
    for part in path:
        words += [int(part)] if isinstance(part, (int, np.integer)) else list(str(part).encode())
    return int(np.random.SeedSequence(words).generate_state(1, np.uint64)[0])


def grid_of(dims) -> dict | None:
    """Every value of each dimension, when all of them are choices or whole numbers (else None)."""
    if not all(d.scale in ("choice", "int", "int-log") for d in dims):
        return None
    return {d.name: list(d.choices) if d.scale == "choice" else list(range(int(d.low), int(d.high) + 1)) for d in dims}


def make_sampler(kind: str, seed: int, round_size: int, grid: dict | None = None):
    """The sampler ``kind`` (cmaes, tpe, nsga2, grid or random) seeded with ``seed``. TPE and NSGA-II read the
    constraints that ``tell`` records on each trial; grid visits every point of ``grid`` once, in an order
    drawn from the seed."""
    import optuna

    seed %= 2 ** 32      # what the samplers take
    if kind == "cmaes":
        # CMA-ES starts from the middle of the ranges (Optuna deprecated x0 in 4.9)
        return optuna.samplers.CmaEsSampler(popsize=round_size, seed=seed,
                                            independent_sampler=optuna.samplers.RandomSampler(seed=seed))
    if kind == "tpe":
        return optuna.samplers.TPESampler(seed=seed, constant_liar=True, multivariate=True)
    if kind == "nsga2":
        return optuna.samplers.NSGAIISampler(population_size=round_size, seed=seed)
    if kind == "grid":
        import itertools

        class Grid(optuna.samplers.GridSampler):
            """Optuna's grid with a sampler per trial: the grid keeps one order (trials record their point's
            index in it; the seed only picks among the points not yet played), and the study is not stopped
            when every point is played (only an optimisation loop may do that; the budget ends the search)."""

            def __init__(self, space, seed):
                super().__init__(space, seed=seed)
                self._all_grids = list(itertools.product(*self._search_space.values()))

            def after_trial(self, study, trial, state, values) -> None:
                pass

        return Grid(grid, seed=seed)
    return optuna.samplers.RandomSampler(seed=seed)


def open_storage(storage):
    """Optuna storage: in memory (None), an SQLite file (a path) or an Optuna storage URL."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.ERROR)
    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
    if storage is None:
        return optuna.storages.InMemoryStorage()
    if isinstance(storage, (str, Path)) and "://" not in str(storage):
        return sqlite_storage(Path(storage))
    return storage


def sqlite_storage(path: Path):
    """Optuna's storage in an SQLite file, in write-ahead-log mode without a disk flush per commit: a killed
    process loses nothing committed (the operating system still writes it), and a commit costs microseconds
    instead of a flush (measured at 17 ms each on a busy disk, a few hundred per run)."""
    import sqlite3

    import optuna
    from sqlalchemy import event

    path.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA journal_mode=WAL")    # kept by the file
    store = optuna.storages.RDBStorage(f"sqlite:///{path.resolve()}", engine_kwargs={"connect_args": {"timeout": 60}})

    def relaxed(connection, _):
        connection.execute("PRAGMA synchronous=NORMAL")

    event.listen(store.engine, "connect", relaxed)
    store.engine.dispose()    # connections opened from now on are relaxed
    return store


def open_study(store, name: str, config: dict, directions, what: str = "search"):
    """Create or continue the study ``name``; a recorded configuration that differs from ``config`` (what
    determines the history) is refused in one line."""
    import optuna

    study = optuna.create_study(storage=store, study_name=name, directions=list(directions), load_if_exists=True)
    recorded = study.user_attrs.get("config")
    if recorded is None:
        study.set_user_attr("config", config)
    elif recorded != config:
        key = next(k for k in config if recorded.get(k) != config[k])
        raise SimkitError(f"the {what} storage holds a run ({name}) whose {key} differs; run its own command again "
                          "to continue it, or use --overwrite to discard it")
    return study


def ask(study, first_trial: int, count: int, dims, sampler_for) -> list[int]:
    """The trial numbers of a round: those already asked from ``first_trial`` on (a round cut short by a
    kill), completed if the kill came in the middle of an ask, then new ones. ``sampler_for(number)`` gives
    the sampler seeded for trial ``number``, so asking it again after a kill draws the same values."""
    import optuna

    states = (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.RUNNING, optuna.trial.TrialState.FAIL)
    asked = []
    for frozen in study.get_trials(deepcopy=False):
        if frozen.number < first_trial or frozen.state not in states:
            continue
        if set(frozen.params) != {d.name for d in dims}:
            study.sampler = sampler_for(frozen.number)
            trial = optuna.trial.Trial(study, frozen._trial_id)
            for dim in dims:
                dim.suggest(trial)
        asked.append(frozen.number)
    while len(asked) < count:
        study.sampler = sampler_for(len(study.get_trials(deepcopy=False)))
        trial = study.ask()
        for dim in dims:
            dim.suggest(trial)
        asked.append(trial.number)
    return asked[:count]


def tell(study, number: int, values, attrs: dict, failed: bool = False, constraints: dict | None = None) -> None:
    """Record a trial's value(s), its simkit attributes (one write) and its constraints (name -> value, met
    when <= 0), unless it was told before a kill (then with the same values: a round is played again exactly,
    and a finished trial cannot be written again)."""
    import optuna

    trial = study.get_trials(deepcopy=False)[number]
    if trial.state == optuna.trial.TrialState.RUNNING:
        study._storage.set_trial_user_attr(trial._trial_id, "simkit", attrs)
        live = optuna.trial.Trial(study, trial._trial_id)
        for name, value in (constraints or {}).items():
            if name not in trial.constraints:
                live.set_constraint(name, value if math.isfinite(value) else 1e300)
        if failed:
            study.tell(number, state=optuna.trial.TrialState.FAIL)
        else:
            study.tell(number, values)


class Progress:
    """The progress bar of a search (on stderr, when it is a terminal or ``show`` is true), in the budget's
    unit."""

    def __init__(self, budget: Budget, show=None):
        self.budget = budget
        self.bar = None
        if (progress_bars.shown() if show is None else show):
            from tqdm import tqdm

            self.bar = tqdm(total=budget.amount, unit=" " + budget.unit, file=sys.stderr, dynamic_ncols=True,
                            bar_format="{l_bar}{bar}| {n:.0f}/{total:.0f}{unit} [{elapsed}<{remaining}{postfix}]")

    def advance(self, trials: int, games: int, seconds: float, note: str = "") -> None:
        if self.bar is None:
            return
        unit = self.budget.unit
        self.bar.update(trials if unit == "trials" else games if unit == "games" else seconds / 60)
        if note:
            self.bar.set_postfix_str(note, refresh=False)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


@contextmanager
def searching(store, storage, progress: Progress):
    """Run a search: a Ctrl-C with a storage on disk ends in one line saying that the same command continues
    it; the bar is closed and the storage file released (so it can be copied into the results)."""
    import optuna


    try:
        with progress_bars.games(0, enabled=False):   # the search's own bar, not one per round's games
            yield
    except KeyboardInterrupt:
        if isinstance(store, optuna.storages.InMemoryStorage):
            raise
        raise RunInterrupted(f"interrupted; the search so far is kept in {storage}: run the same command again to "
                             "continue it") from None
    finally:
        progress.close()
        if hasattr(store, "engine"):
            store.engine.dispose()


class SearchResult(Analysis):
    """An analysis found by a search: its tables include ``trials`` (every trial) and ``validation`` (the
    best against the start, or the candidates against the default rules, on fresh seeds)."""

    @property
    def trials(self) -> pd.DataFrame:
        return self.tables["trials"]

    @property
    def validation(self) -> pd.DataFrame:
        return self.tables["validation"]
