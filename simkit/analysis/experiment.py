"""Experiments: a TOML file naming the game, its rules and house rules, and one or more analyses
(compare, tournament, sweep, balance, tune, metagame, ladder, design) with their line-ups, games and seed. ``run_analyses`` runs it
reproducibly; ``simkit.analysis.runs.run_experiment`` also writes a results directory (tables, plots,
report.html, the experiment file itself).

Every key of an ``[[analysis]]`` table is a keyword argument of the analysis function of that kind
(``simkit.analysis.compare`` etc.), so the schema and the library cannot drift apart; top-level
``seed``, ``games``, ``sets`` and ``rules`` are defaults for every analysis.
"""
from __future__ import annotations

from pathlib import Path

from .. import progress
from ..experiment_file import (  # noqa: F401  (public here)
    COUNTS,
    KIND_NAMES,
    NOT_IN_FILES,
    QUICK,
    SHARED,
    STATE_FILE,
    TOP_LEVEL,
    Experiment,
    analysis_keys,
    load_experiment,
    quick_kwargs,
)
from ..experiment_file import takes as _takes
from .balance import balance
from .compare import compare
from .design import design
from .ladder import ladder
from .metagame import metagame
from .result import Analysis
from .sweep import sweep
from .tournament import tournament
from .tune import tune

KINDS = {"compare": compare, "tournament": tournament, "sweep": sweep, "balance": balance, "tune": tune,
         "metagame": metagame, "ladder": ladder, "design": design}
assert tuple(KINDS) == KIND_NAMES


def run_analyses(experiment: Experiment, games: int | None = None, workers: int = 1,
                 storage: str | Path | None = None) -> list[Analysis]:
    """Run every analysis of the experiment in order and return them. With several, every analysis is first
    run on a handful of games, so a bad line-up or rule anywhere in the file fails before the long runs start.
    storage: an SQLite file where searches (tune, compare with retune) keep their state, so that the same
    call continues an interrupted run; each analysis's studies are named after its position."""
    calls = experiment.calls(games)
    with progress.games(0, enabled=False):      # quick checks (no bar); a single analysis fails as soon by itself
        for kind, _, kwargs in calls if len(calls) > 1 else ():
            KINDS[kind](experiment.game, **quick_kwargs(experiment.game, kind, kwargs), workers=1)
    results = []
    for number, (kind, name, kwargs) in enumerate(calls, 1):
        if storage is not None and _takes(kind, "storage"):
            kwargs = {**kwargs, "storage": storage, "study_name": f"{number:02d}-{kind}"}
        with progress.label(f"{number}/{len(calls)} {name or kind}" if len(calls) > 1 else name or kind):
            result = KINDS[kind](experiment.game, **kwargs, workers=workers)
        if name:
            result.title = f"{name}: {result.title}"
        results.append(result)
    return results
