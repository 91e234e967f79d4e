"""simkit: Monte Carlo strategy analysis for Wheedle, Dweebies and Wheeler Dealer.

From Python::

    import simkit
    df = simkit.run("wheedle", games=10_000, players=["hair-trigger", "threshold:points=22", "blocker", "random"],
                    seed=7, sets=["scoring.false_stop=-10"])
    simkit.summarize(df)["strategy"]
    df = simkit.load("runs/w1")
"""
from __future__ import annotations

import importlib.util
import os
import sys
import warnings
from pathlib import Path

from .games import all_games
from .version import __version__  # noqa: F401  (simkit.__version__)


class _FoldersBeside:
    """Finds ``simkit.strategies`` and ``simkit.reports`` in the repository folders ``strategies/`` and ``reports/``
    beside this ``simkit/`` when it is a checkout's (a wheel copies them into ``simkit/``, where the usual import
    finds them). First on ``sys.meta_path``: a checkout imported by its path uses its own folders, whatever an
    editable install of another checkout maps these names to."""

    FOLDERS = {"simkit.strategies": "strategies", "simkit.reports": "reports"}
    PACKAGE = os.path.dirname(os.path.abspath(__file__))

    def find_spec(self, fullname, path=None, target=None):
        folder = self.FOLDERS.get(fullname)
        if folder is None or os.path.isdir(os.path.join(self.PACKAGE, folder)):
            return None
        beside = os.path.join(os.path.dirname(self.PACKAGE), folder)
        if not os.path.isfile(os.path.join(beside, "__init__.py")):
            return None
        return importlib.util.spec_from_file_location(fullname, os.path.join(beside, "__init__.py"),
                                                      submodule_search_locations=[beside])


sys.meta_path.insert(0, _FoldersBeside())

# Strategies reach the engines as Numba first-class functions, which Numba labels experimental; simkit
# pins Numba's minor version and tests this path (including the disk cache), so the warning is noise.
warnings.filterwarnings("ignore", message="First-class function type feature is experimental")


def run(game: str, games: int, players=None, seed: int = 0, rules=None, sets=(), out=None, workers: int = 1,
        chunk_size: int | None = None, progress: bool = False, overwrite: bool = False, rotate_seats: bool = False):
    """Run a batch and return its DataFrame (one row per game and seat).

    players: strategy specs (``"threshold:points=12"``, ``"mymodule:mine"``), Strategy objects or Seats;
    default: the game's documented line-up. rules: a dict of overrides (nested like the TOML) or the path of
    a TOML file. sets: ``"key=value"`` strings as on the command line. With ``out``, the run is also written
    there as a run directory and the DataFrame is loaded back from it. rotate_seats: game g plays deal g // n
    with the line-up rotated g mod n seats, so every strategy plays every seat equally (games rounded up to a
    multiple of the n players).
    """
    from .results import load as load_dir
    from .runner import DEFAULT_CHUNK, make_batch, run_to_directory, run_to_frame

    rules_file, overrides = (rules, None) if isinstance(rules, (str, Path)) else (None, rules)
    batch = make_batch(game, games, players, seed, rules_file, sets, overrides, rotate_seats)
    chunk = chunk_size or DEFAULT_CHUNK
    if out is not None:
        return load_dir(run_to_directory(batch, out, workers, chunk, progress, overwrite))
    return run_to_frame(batch, workers, chunk, progress)


def load(directory):
    """Load a run directory written by ``simkit run`` as a DataFrame (``df.attrs['manifest']`` holds its provenance)."""
    from .results import load as load_dir

    return load_dir(directory)


def summarize(source):
    """Per-strategy and per-seat win rates and mean scores with 95% CIs, from a run directory or DataFrame."""
    from .results import summarize as summarize_results

    return summarize_results(source)


def totals(source):
    """Batch-wide totals besides the rows (e.g. Wheeler-Dealer landings per square), as pandas Series."""
    from .results import totals as batch_totals

    return batch_totals(source)


def tune(game: str, strategy: str, **options):
    """Tune a strategy's parameters by search (Optuna, common random numbers, seat rotation) and validate the
    best against the start on fresh seeds; returns a TuneResult (``.trials``, ``.best``, ``.best_spec``,
    ``.validation``, ``.tables``, ``.findings``). E.g. ``simkit.tune("wheedle", "threshold",
    params="points=10:40:int,patience=5:60:int", field="hair-trigger,patient,blocker", budget="200")``.
    Every option: ``simkit.analysis.tune``."""
    from .analysis.tune import tune as run_tune

    return run_tune(game, strategy, **options)


def metagame(game: str, strategies, players: int | None = None, **options):
    """The meta-game of ``strategies`` at ``players`` seats: every multiset of them played in every seat order on
    common deals, and the symmetric equilibrium mix with bootstrap intervals (an Analysis; the mix is
    ``.tables["equilibrium"]``). Every option: ``simkit.analysis.metagame``."""
    from .analysis.metagame import metagame as run_metagame

    return run_metagame(game, strategies, players, **options)


def available_games():
    """The registered games, by name."""
    return dict(all_games())
