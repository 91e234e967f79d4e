"""The analysis commands' first checks, made by ``simkit.cli.main`` before the library loads, so that their bad
input (an unknown strategy, parameter or rule key, a wrong player count) answers at once.

Each check repeats the command's own validation from its start, in its order and with its errors, up to the
first step it cannot take without the library (a strategy of one's own, a rule value only the engine's
``prepare`` judges, a design's ranges to vary, an experiment's analyses, a cluster to connect to); there it stops and the
command makes the rest. So the error reported is always the one the command itself would report first
(tests/test_cli_early.py plays each against the command without its early check)."""
from __future__ import annotations

import inspect

from ..catalogue import catalogue_seats, lineup_texts
from ..errors import SimkitError
from ..experiment_file import default_out, first_call, literal_defaults, load_experiment
from ..games import get_game
from ..goal_specs import parse_goals
from ..inputs import (
    check_trial_sizes,
    declared_space,
    parse_budget,
    parse_negligible,
    parse_space,
    sweep_points,
)
from ..outdir import prepare_output
from ..rules import read_toml
from .options import check_backend


class _Unchecked(Exception):
    """What follows needs the library: the early check ends here."""


def _seats(game: str, texts) -> list:
    """``simkit.strategy.parse_lineup``'s checks of ``texts`` (catalogue seats)."""
    seats = catalogue_seats(game, list(texts))
    if seats is None:
        raise _Unchecked
    return seats


def _batch(game: str, players, sets, rules) -> tuple[int, bool]:
    """``simkit.batch.make_batch``'s checks: the rules (``rules``: overrides read from --rules), then the line-up
    and the player count. Returns the number of seats and whether the game's ``prepare`` (next in make_batch,
    and only there may a rule value be refused) certainly accepts them: the default rules."""
    spec = get_game(game)
    spec.rules(None, list(sets), rules)
    texts = lineup_texts(game, players)
    _seats(game, texts)
    spec.check_player_count(len(texts))
    return len(texts), not sets and not rules


def _prepared(safe: bool) -> None:
    """Go on past a batch only when its ``prepare`` cannot refuse its rules (``_batch``)."""
    if not safe:
        raise _Unchecked


def _duplicates(labels) -> None:
    if len(set(labels)) != len(labels):
        raise SimkitError(f"--strategies lists {sorted(x for x in labels if labels.count(x) > 1)[0]!r} twice; give each once")


def compare(game, players=None, players_b=None, sets=(), sets_b=(), rules=None, retune=None, negligible=(),
            target: float = 0.01, **_) -> None:
    """The first checks of ``simkit.analysis.compare``, in its order."""
    parse_negligible(negligible)
    if not target > 0:
        raise SimkitError(f"--target must be positive, not {target}")
    n, safe = _batch(game, players, sets, rules)
    _prepared(safe)
    n_b, safe_b = _batch(game, players_b if players_b is not None else players, [*sets, *sets_b], rules)
    _prepared(safe_b)
    if retune is not None:
        raise _Unchecked
    if n_b != n:
        raise SimkitError(f"line-ups A and B must have the same number of seats, not {n} and {n_b}")


def balance(game, players=None, sets=(), rules=None, games: int = 10_000, players_b=None, sets_b=(), negligible=(),
            **_) -> None:
    """The first checks of ``simkit.analysis.balance``, in its order."""
    parse_negligible(negligible)
    n, safe = _batch(game, players, sets, rules)
    _prepared(safe)
    if -(-games // n) < 2:
        raise SimkitError(f"--games {games}: a balance card needs at least {2 * n} games at {n} players")
    if players_b is not None or sets_b:
        n_b, safe_b = _batch(game, players_b if players_b is not None else players, [*sets, *sets_b], rules)
        _prepared(safe_b)
        if n_b != n:
            raise SimkitError(f"line-ups A and B must have the same number of seats, not {n} and {n_b}")


def tournament(game, strategies, players=None, sets=(), rules=None, negligible=(), **_) -> None:
    """The first checks of ``simkit.analysis.tournament``, in its order."""
    parse_negligible(negligible)
    spec = get_game(game)
    seats = _seats(game, strategies.split(",") if isinstance(strategies, str) else strategies)
    _duplicates([seat.label for seat in seats])
    players = players or len(spec.default_lineup)
    spec.check_player_count(players)
    if len(seats) < players:
        raise SimkitError(f"--strategies gives {len(seats)} strategies; a tournament of {players} players needs at "
                          f"least {players} different ones")
    spec.rules(None, list(sets), rules)     # the first line-up's batch: its seats and count are checked above


def sweep(game, strategy=None, param=None, field=None, rule=None, players=None, sets=(), rules=None,
          negligible=(), **_) -> None:
    """The first checks of ``simkit.analysis.sweep``, in its order."""
    parse_negligible(negligible)
    _, _, lineups, rule_sets = sweep_points(get_game(game).default_lineup, strategy, param, rule, field, players, sets)
    for line_up, point_sets in zip(lineups, rule_sets):     # every point is validated before any is played
        _prepared(_batch(game, line_up, point_sets, rules)[1])


def tune(game, strategy, params=None, field=None, self_play=False, players=None, budget="200", trial_games=400,
         max_trial_games=6400, games=10_000, sets=(), rules=None, **_) -> None:
    """The first checks of ``simkit.analysis.tune``, in its order."""
    spec = get_game(game)
    family = _seats(game, [strategy])[0]
    parse_space(params, family) if params not in (None, "", []) else declared_space(family)
    if (field is None or field == [] or field == "") == (not self_play):
        raise SimkitError("tune needs exactly one of --field LINE-UP (tune a best response to it) and --self-play")
    parse_budget(budget)
    check_trial_sizes(trial_games, max_trial_games, games)
    field_seats = _seats(game, field.split(",") if isinstance(field, str) else field) if not self_play else None
    n = len(field_seats) + 1 if field_seats is not None else (players or len(spec.default_lineup))
    if players is not None and n != players:
        raise SimkitError(f"--players {players} does not match the field: the tuned seat and {n - 1} others")
    spec.check_player_count(n)
    spec.rules(None, list(sets), rules)     # the base batch: its seats and count are checked above


def metagame(game, strategies, players=None, sets=(), rules=None, grow=0, **_) -> None:
    """The first checks of ``simkit.analysis.metagame``, in its order."""
    if grow:
        raise _Unchecked      # the growing search validates in its own order
    spec = get_game(game)
    seats = _seats(game, strategies.split(",") if isinstance(strategies, str) else strategies)
    _duplicates([seat.label for seat in seats])
    if len(seats) < 2:
        raise SimkitError("--strategies needs at least two strategies for a meta-game")
    spec.check_player_count(players or len(spec.default_lineup))
    spec.rules(None, list(sets), rules)     # the first profile's batch


def ladder(game, players=None, strategies=None, **_) -> None:
    """The first checks of ``simkit.analysis.ladder``, in its order."""
    spec = get_game(game)
    n = players or len(spec.default_lineup)
    spec.check_player_count(n)
    if not strategies:
        raise _Unchecked      # every shipped strategy: the registry's
    seats = _seats(game, strategies.split(",") if isinstance(strategies, str) else strategies)
    _duplicates([seat.label for seat in seats])
    if len(seats) < n:
        raise SimkitError(f"--strategies gives {len(seats)} strategies; a ladder of {n} players needs at least {n} "
                          "different ones (a tournament of every combination of them rates them)")


def design(game, goal=None, constraint=None, negligible=(), budget="100", players=None, population=None,
           player_count=None, sets=(), rules=None, **_) -> None:
    """The first checks of ``simkit.analysis.design``, in its order, up to its rule ranges (``--vary``: the
    engine's ``prepare`` judges their values)."""
    parse_negligible(negligible)
    spec = get_game(game)
    parse_goals(goal, constraint)
    parse_budget(budget)      # the sampler and the game counts are click's choices and ranges
    if population is not None and players is not None:
        raise SimkitError("give a line-up (--players) or a --population, not both")
    if population is not None:
        raise _Unchecked      # a mix of strategies, or a meta-game's results on disk
    n = len(_seats(game, lineup_texts(game, players)))
    if player_count is not None and player_count != n:
        raise SimkitError(f"--player-count {player_count} does not match the line-up's {n} seats")
    spec.check_player_count(n)
    spec.rules(None, list(sets), rules)       # make_batch's: its seats and count are checked above
    raise _Unchecked      # the ranges to vary


KINDS = {"compare": compare, "balance": balance, "tournament": tournament, "sweep": sweep, "tune": tune,
         "metagame": metagame, "ladder": ladder, "design": design}


def execution(backend, scheduler, upload) -> bool:
    """``--backend``/``--scheduler``/``--upload`` as ``simkit.cli.options.execution_options`` checks them; returns
    whether the command plays on this machine (on a cluster, connecting to it comes before anything else)."""
    if check_backend(backend, scheduler) == "local":
        if upload:
            raise SimkitError("--upload sends files to Dask workers: give --scheduler or --backend dask")
        return True
    return False


def analysis_check(kind: str, options):
    """The ``check_first`` of the analysis command ``kind`` whose options ``options(params)`` gives (the
    command's own function): the execution options, the command's options, its rules file, then the
    analysis's own checks (``KINDS``) as ``simkit.cli.analysis.run_one`` would call it."""
    def check_first(**params) -> None:
        if not execution(params.get("backend"), params.get("scheduler"), params.get("upload")):
            return
        analysis = options(params)
        rules = read_toml(params["rules_file"]) if params.get("rules_file") else {}
        if params.get("out"):
            prepare_output(params["out"], params["overwrite"])
        kwargs = {key: value for key, value in analysis.items() if value is not None}
        kwargs.update(seed=params["seed"], games=params["games"])
        if params.get("sets"):
            kwargs["sets"] = list(params["sets"])
        if rules:
            kwargs["rules"] = rules
        try:
            KINDS[kind](params["game"], **kwargs)
        except _Unchecked:
            pass
    return check_first


def _file_analysis(kind: str, game: str, given: dict, kwargs: dict) -> None:
    """An experiment's first analysis (``given``: the file's keyword arguments, ``kwargs``: the call's) checked as
    the command line's is (which also hands every check the seed and the games), when the file gives nothing
    else the check does not read: a key the command line fixes
    (a choice, a range) may be checked by the analysis before the line-up, so a file that sets one to other than
    the default, or a value of a type the analysis reads its own way, is left to the command."""
    check = KINDS[kind]
    if not isinstance(kwargs.get("rules", {}), dict):
        raise _Unchecked      # a rules file named by the analysis
    reads = inspect.signature(check).parameters
    defaults = literal_defaults(kind)
    for key, value in given.items():
        if key not in reads and not (key in defaults and defaults[key] == value) and not (
                key in ("seed", "games") and isinstance(value, int) and not isinstance(value, bool)):
            raise _Unchecked
    try:
        check(game, **kwargs)
    except (_Unchecked, SimkitError):
        raise
    except Exception:       # a value of a type the analysis reads its own way
        raise _Unchecked from None


def experiment_check(file, out=None, games=None, overwrite=False, backend=None, scheduler=None, upload=(),
                     **_) -> None:
    """The ``check_first`` of ``simkit experiment run``: the execution options, the file (its TOML, keys, kinds and
    counts: ``load_experiment``), the results directory, then the first analysis it runs (the quick run of the
    first when there are several) as the command line's early check of that analysis."""
    if not execution(backend, scheduler, upload):
        return
    experiment = load_experiment(file)
    prepare_output(out or default_out(file), overwrite)
    kind, given, kwargs = first_call(experiment, games)
    try:
        _file_analysis(kind, experiment.game, given, kwargs)
    except _Unchecked:
        pass
