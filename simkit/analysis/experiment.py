"""Experiments: a TOML file naming the game, its rules and house rules, and one or more analyses
(compare, tournament, sweep, balance, tune, metagame, ladder, design) with their line-ups, games and seed. ``run_analyses`` runs it
reproducibly; ``simkit.analysis.runs.run_experiment`` also writes a results directory (tables, plots,
report.html, the experiment file itself).

Every key of an ``[[analysis]]`` table is a keyword argument of the analysis function of that kind
(``simkit.analysis.compare`` etc.), so the schema and the library cannot drift apart; top-level
``seed``, ``games``, ``sets`` and ``rules`` are defaults for every analysis.
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from pathlib import Path

import tomli_w

from .. import progress
from ..errors import SimkitError
from ..games import get_game
from ..limits import check_count
from ..rules import read_toml
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
COUNTS = ("games", "trial_games", "max_trial_games", "screen_games", "confirm_games")  # bounded by simkit.limits wherever they are given
SHARED = ("seed", "games", "sets", "rules")          # top-level defaults passed to every analysis
TOP_LEVEL = ("title", "question", "game", *SHARED, "analysis")
# given by the experiment or the command line, not by the file (storage: where a search keeps its state)
NOT_IN_FILES = ("game", "workers", "storage", "study_name", "progress")
STATE_FILE = "study.db"   # searches' Optuna storage: beside the results while running, inside them when done
# what the quick check of every analysis changes besides the games, so that it takes seconds
QUICK = {"compare": {"until_decided": False, "retune_budget": "3"}, "balance": {"retune_budget": "3"},
         "tune": {"budget": "1", "stages": 1},
         "design": {"budget": "1", "candidates": 1, "retune_budget": "1"},
         "metagame": {"bootstrap": 2, "screen_games": 1, "confirm_games": 1, "tune_budget": None},
         "ladder": {"bootstrap": 2, "screen_games": 1, "confirm_games": 1, "tune_budget": None}}


def analysis_keys(kind: str) -> list[str]:
    """The keys an ``[[analysis]]`` table of this kind accepts (besides ``kind`` and ``name``)."""
    return [p for p in inspect.signature(KINDS[kind]).parameters if p not in NOT_IN_FILES]


@dataclass
class Experiment:
    """A declarative experiment: a game, defaults shared by its analyses, and the analyses."""

    game: str
    analyses: list[dict]
    title: str = ""
    question: str = ""
    seed: int = 0
    games: int = 10_000
    sets: list = field(default_factory=list)
    rules: dict = field(default_factory=dict)
    source: str | None = field(default=None, compare=False, repr=False)    # the file it was read from

    @classmethod
    def from_dict(cls, data: dict, source: str = "experiment") -> "Experiment":
        """Validate a parsed experiment file; errors name the file and the key."""
        unknown = sorted(set(data) - set(TOP_LEVEL))
        if unknown:
            raise SimkitError(f"{source}: unknown key {unknown[0]!r}; allowed: {', '.join(TOP_LEVEL)}")
        if "game" not in data:
            raise SimkitError(f"{source}: needs game = \"NAME\"")
        get_game(data["game"])
        analyses = data.get("analysis")
        if not isinstance(analyses, list) or not analyses or not all(isinstance(a, dict) for a in analyses):
            raise SimkitError(f"{source}: needs at least one [[analysis]] table")
        for i, entry in enumerate(analyses):
            kind = entry.get("kind")
            if kind not in KINDS:
                raise SimkitError(f"{source}: analysis {i + 1}: kind must be one of {', '.join(KINDS)}, not {kind!r}")
            allowed = ["kind", "name", *analysis_keys(kind)]
            extra = sorted(set(entry) - set(allowed))
            if extra:
                raise SimkitError(f"{source}: analysis {i + 1} ({kind}): unknown key {extra[0]!r}; allowed: {', '.join(allowed)}")
            needed = [name for name, p in inspect.signature(KINDS[kind]).parameters.items()
                      if p.default is inspect.Parameter.empty and name not in ("game", *NOT_IN_FILES)
                      and name not in entry and name not in data]
            if needed:
                raise SimkitError(f"{source}: analysis {i + 1} ({kind}) needs {needed[0]} = ...")
        for key, kind in (("title", str), ("question", str), ("seed", int), ("games", int), ("sets", list), ("rules", dict)):
            if key in data and (not isinstance(data[key], kind) or isinstance(data[key], bool)):
                raise SimkitError(f"{source}: {key} must be a {kind.__name__}, not {data[key]!r}")
        for where, entry in [("", data), *((f"analysis {i + 1}: ", a) for i, a in enumerate(analyses))]:
            for key in COUNTS:
                if key in entry:
                    check_count(entry[key], f"{source}: {where}{key}")
        return cls(**{k: v for k, v in data.items() if k != "analysis"}, analyses=[dict(a) for a in analyses])

    def to_dict(self) -> dict:
        data = {"title": self.title, "question": self.question, "game": self.game, "seed": self.seed,
                "games": self.games, "sets": list(self.sets), "rules": self.rules,
                "analysis": [{k: v for k, v in a.items() if v is not None} for a in self.analyses]}
        return {k: v for k, v in data.items() if v not in ("", [], {}) or k in ("game", "analysis")}

    def to_toml(self) -> str:
        return tomli_w.dumps(self.to_dict())

    def calls(self, games: int | None = None) -> list[tuple[str, str, dict]]:
        """(kind, name, keyword arguments) of every analysis, with the shared defaults filled in and
        ``games`` (a quick-check override) replacing every analysis's count when given."""
        calls = []
        for entry in self.analyses:
            kwargs = {k: v for k, v in entry.items() if k not in ("kind", "name")}
            for key in SHARED:
                if key not in kwargs and getattr(self, key) not in ([], {}):
                    kwargs[key] = getattr(self, key)
            if games is not None:
                kwargs["games"] = games
            calls.append((entry["kind"], entry.get("name", ""), kwargs))
        return calls


def load_experiment(path: str | Path) -> Experiment:
    """Read and validate an experiment file (errors name the file and the key)."""
    path = Path(path)
    if not path.is_file():
        raise SimkitError(f"experiment file {path} does not exist")
    experiment = Experiment.from_dict(read_toml(path, "experiment file"), str(path))
    experiment.source = str(path)
    return experiment


def _takes(kind: str, key: str) -> bool:
    return key in inspect.signature(KINDS[kind]).parameters


def run_analyses(experiment: Experiment, games: int | None = None, workers: int = 1,
                 storage: str | Path | None = None) -> list[Analysis]:
    """Run every analysis of the experiment in order and return them. With several, every analysis is first
    run on a handful of games, so a bad line-up or rule anywhere in the file fails before the long runs start.
    storage: an SQLite file where searches (tune, compare with retune) keep their state, so that the same
    call continues an interrupted run; each analysis's studies are named after its position."""
    calls = experiment.calls(games)
    quick = 2 * max(get_game(experiment.game).all_player_counts)
    with progress.games(0, enabled=False):      # quick checks (no bar); a single analysis fails as soon by itself
        for kind, _, kwargs in calls if len(calls) > 1 else ():
            check = {**kwargs, "games": quick, **{k: v for k, v in QUICK.get(kind, {}).items() if _takes(kind, k)}}
            for key in ("trial_games", "max_trial_games"):
                if _takes(kind, key):
                    check[key] = quick
            if _takes(kind, "progress"):
                check["progress"] = False
            KINDS[kind](experiment.game, **check, workers=1)
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
