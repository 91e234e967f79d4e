"""Experiment files as data: reading and validating the TOML (``load_experiment``), the analyses' keyword
arguments, and the quick first call of each, in plain Python (no numpy, pandas or Numba), so that the command
line refuses a bad experiment file before the library loads (simkit.cli.early) with the very functions
``simkit.analysis.experiment`` runs it with.

Every key of an ``[[analysis]]`` table is a keyword argument of the analysis function of that kind
(``simkit.analysis.compare`` etc.), so the schema and the library cannot drift apart: the functions'
parameters are read from their source (``parameters``) rather than by importing them, and
tests/analysis/test_experiments.py checks them against ``inspect.signature``.
"""
from __future__ import annotations

import ast
import functools
from dataclasses import dataclass, field
from pathlib import Path

from .errors import SimkitError
from .games import get_game
from .limits import check_count
from .rules import read_toml

KIND_NAMES = ("compare", "tournament", "sweep", "balance", "tune", "metagame", "ladder", "design")   # analysis/KIND.py
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


@functools.cache
def _signature(kind: str) -> ast.arguments:
    """The parameters of ``simkit.analysis.KIND.KIND`` as written in its source."""
    path = Path(__file__).parent / "analysis" / f"{kind}.py"
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return next(node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == kind).args


@functools.cache
def parameters(kind: str) -> tuple[tuple[str, bool], ...]:
    """(name, whether it has a default) of each parameter of the analysis function ``kind``
    (``simkit.analysis.KIND.KIND``), read from its source."""
    args = _signature(kind)
    positional = [*args.posonlyargs, *args.args]
    optional = [False] * (len(positional) - len(args.defaults)) + [True] * len(args.defaults)
    return (*((a.arg, o) for a, o in zip(positional, optional)),
            *((a.arg, d is not None) for a, d in zip(args.kwonlyargs, args.kw_defaults)))


@functools.cache
def literal_defaults(kind: str) -> dict:
    """The defaults of the analysis function ``kind`` that are written as literals (numbers, strings, tuples,
    None ...), by parameter name, read from its source."""
    args = _signature(kind)
    named = [*zip([*args.posonlyargs, *args.args][::-1], args.defaults[::-1]), *zip(args.kwonlyargs, args.kw_defaults)]
    out = {}
    for arg, default in named:
        try:
            out[arg.arg] = ast.literal_eval(default) if default is not None else None
        except ValueError:
            continue
    return out


def analysis_keys(kind: str) -> list[str]:
    """The keys an ``[[analysis]]`` table of this kind accepts (besides ``kind`` and ``name``)."""
    return [name for name, _ in parameters(kind) if name not in NOT_IN_FILES]


def takes(kind: str, key: str) -> bool:
    """Whether the analysis function ``kind`` has a parameter ``key``."""
    return any(name == key for name, _ in parameters(kind))


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
            if kind not in KIND_NAMES:
                raise SimkitError(f"{source}: analysis {i + 1}: kind must be one of {', '.join(KIND_NAMES)}, not {kind!r}")
            allowed = ["kind", "name", *analysis_keys(kind)]
            extra = sorted(set(entry) - set(allowed))
            if extra:
                raise SimkitError(f"{source}: analysis {i + 1} ({kind}): unknown key {extra[0]!r}; allowed: {', '.join(allowed)}")
            needed = [name for name, optional in parameters(kind)
                      if not optional and name not in ("game", *NOT_IN_FILES) and name not in entry and name not in data]
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
        import tomli_w

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


def quick_kwargs(game: str, kind: str, kwargs: dict) -> dict:
    """The keyword arguments of an analysis's quick first run (``run_analyses`` runs every analysis of an
    experiment of several on a handful of games first, so that a bad line-up or rule anywhere fails at once)."""
    quick = 2 * max(get_game(game).all_player_counts)
    check = {**kwargs, "games": quick, **{k: v for k, v in QUICK.get(kind, {}).items() if takes(kind, k)}}
    for key in ("trial_games", "max_trial_games"):
        if takes(kind, key):
            check[key] = quick
    if takes(kind, "progress"):
        check["progress"] = False
    return check


def first_call(experiment: Experiment, games: int | None = None) -> tuple[str, dict, dict]:
    """(kind, the file's keyword arguments, those of the call) of the first analysis ``run_analyses`` runs:
    the quick run of the first analysis when there are several, else the analysis itself."""
    calls = experiment.calls(games)
    kind, _, kwargs = calls[0]
    return kind, kwargs, quick_kwargs(experiment.game, kind, kwargs) if len(calls) > 1 else kwargs


def default_out(file) -> str:
    """Where ``simkit experiment run FILE`` writes without --out."""
    return str(Path("runs") / Path(file).stem)
