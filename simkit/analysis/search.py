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
import re
import sys
import warnings
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from .. import progress as progress_bars
from ..errors import SimkitError
from ..limits import BUDGET_UNITS as UNITS
from ..runner import RunInterrupted
from .result import Analysis

SCALE_SUFFIXES = {"": "float", "log": "log", "int": "int", "int:log": "int-log"}   # LO:HI[:suffix] -> scale


def format_number(value) -> str:
    """A number as written in a range: ``3`` for a whole number, else its repr."""
    value = float(value)
    return str(int(value)) if value.is_integer() else repr(value)


def parse_number(text: str, where: str) -> float:
    """A finite number, or one line naming ``where`` it was given."""
    try:
        value = float(text)
    except ValueError:
        raise SimkitError(f"{where}: {text!r} is not a number") from None
    if not math.isfinite(value):
        raise SimkitError(f"{where}: {text!r} is not a finite number")
    return value


@dataclass(frozen=True)
class Dimension:
    """One searched value: its range and scale (float, log, int, int-log: whole numbers on a log scale, or
    choice). A choice's values are numbers, or labels (strings) that the search maps back to what they
    stand for."""

    name: str
    low: float
    high: float
    scale: str = "float"
    choices: tuple = ()

    @property
    def continuous(self) -> bool:
        return self.scale in ("float", "log")

    @property
    def log(self) -> bool:
        return self.scale in ("log", "int-log")

    def text(self) -> str:
        if self.scale == "choice":
            return f"{self.name}=" + "|".join(c if isinstance(c, str) else format_number(c) for c in self.choices)
        suffix = next(k for k, v in SCALE_SUFFIXES.items() if v == self.scale)
        return f"{self.name}={format_number(self.low)}:{format_number(self.high)}" + (f":{suffix}" if suffix else "")

    def clip(self, value):
        if self.scale == "choice":
            return value if value in self.choices else self.choices[0]
        value = min(max(float(value), self.low), self.high)
        return int(round(value)) if self.scale in ("int", "int-log") else value

    def suggest(self, trial):
        """Ask an Optuna trial for this dimension's value."""
        if self.scale == "choice":
            return trial.suggest_categorical(self.name, list(self.choices))
        if self.scale in ("int", "int-log"):
            return trial.suggest_int(self.name, int(self.low), int(self.high), log=self.log)
        return trial.suggest_float(self.name, self.low, self.high, log=self.log)


def assignments(items, option: str, expected: str) -> list[tuple[str, str, str]]:
    """(key, spec, where) of every ``KEY=SPEC`` item in order (``where`` names the option and the item for
    errors); a malformed item or a key given twice is one line."""
    out = []
    for item in items:
        key, sep, spec = str(item).partition("=")
        key, spec = key.strip(), spec.strip()
        where = f"{option} {item}"
        if not sep or not key or not spec:
            raise SimkitError(f"{where}: expected {expected}")
        if any(key == seen for seen, _, _ in out):
            raise SimkitError(f"{where}: {key} is given twice")
        out.append((key, spec, where))
    return out


def parse_range(spec: str, where: str, whole: bool = False, what: str = "the value") -> tuple[float, float, str]:
    """``LO:HI``, ``LO:HI:log``, ``LO:HI:int`` or ``LO:HI:int:log`` into (low, high, scale). ``whole``: the
    value is a whole number, so a range stays whole (``LO:HI`` is int, ``:log`` int-log); ``what`` names it in
    the error about whole ends."""
    low_text, _, rest = spec.partition(":")
    high_text, _, suffix = rest.partition(":")
    if not rest or suffix not in SCALE_SUFFIXES:
        raise SimkitError(f"{where}: expected KEY=LO:HI, KEY=LO:HI:log, KEY=LO:HI:int or KEY=LO:HI:int:log")
    low, high = parse_number(low_text, where), parse_number(high_text, where)
    scale = SCALE_SUFFIXES[suffix]
    if whole and scale in ("float", "log"):
        scale = "int" if scale == "float" else "int-log"
    if not low < high:
        raise SimkitError(f"{where}: empty range; needs LO < HI")
    if scale in ("log", "int-log") and low <= 0:
        raise SimkitError(f"{where}: a log range needs LO > 0")
    if scale in ("int", "int-log") and not (low.is_integer() and high.is_integer()):
        raise SimkitError(f"{where}: {what} takes whole numbers; give whole LO and HI")
    return low, high, scale


@dataclass(frozen=True)
class Budget:
    """How much search: a number of trials, of games (played by the search, besides the final race and
    validation) or of minutes."""

    amount: float
    unit: str

    def share(self, parts: int, index: int) -> "Budget":
        """The budget of stage ``index`` of ``parts`` (an even split, the last takes what rounding leaves)."""
        if self.unit == "minutes":
            return Budget(self.amount / parts, self.unit)
        each = int(self.amount) // parts
        return Budget(each + (int(self.amount) - each * parts if index == parts - 1 else 0), self.unit)

    def text(self) -> str:
        return f"{format_number(self.amount)} {self.unit}"

    def round_size(self, state: dict, round_size: int, games_per_trial: int, extra_trials: int = 0) -> int:
        """Trials to ask in the next round, given what ``state`` has spent (trials, games, seconds): none
        when the budget is spent. A round also plays ``extra_trials`` line-ups (the tuner's incumbent)."""
        if self.unit == "trials":
            return max(0, min(round_size, int(self.amount) - state["trials"]))
        if self.unit == "games":
            return max(0, min(round_size, (int(self.amount) - state["games"]) // games_per_trial - extra_trials))
        return round_size if state["seconds"] < self.amount * 60 else 0


def parse_budget(text) -> Budget:
    """``200`` or ``200 trials``, ``500000 games`` (or ``500000g``), ``10 minutes`` (or ``10m``)."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d*)?(?:e\d+)?)\s*([a-z]*)\s*", str(text).lower())
    if not match or (match.group(2) and match.group(2) not in UNITS):
        raise SimkitError(f"--budget {text!r}: expected a number of trials (200), games (500000 games) or minutes "
                          "(10 minutes)")
    unit = UNITS.get(match.group(2), "trials")
    amount = float(match.group(1))
    if unit != "minutes":
        if not amount.is_integer():
            raise SimkitError(f"--budget {text!r}: {unit} are whole numbers")
        amount = int(amount)
    if amount <= 0:
        raise SimkitError(f"--budget {text!r}: must be positive")
    return Budget(amount, unit)


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
