"""Searching the rule space for a design goal: which value of a house rule is best?

``balance`` and ``compare`` judge a given rule set; ``design`` searches rule values (``--vary KEY=LO:HI``)
for goals over the balance card's facts (``simkit.analysis.goals``): a fair first seat, a median game of a
given length, a strategy spread, few games stopped at a limit, a bankruptcy share, or any expression over
them, with constraints.

Every trial is one rule set, played by the same line-up (or population: a mix of strategies, each deal's
line-up one of its profiles in proportion) under every seat rotation on the same deals as every other trial:
common random numbers, so trials differ by their rules, not by their luck. Each trial's goal values come
with 95% bootstrap intervals over deals. One goal: Optuna's CMA-ES (two or more continuous values, no
constraint) or TPE; two or more: NSGA-II and the Pareto front of the trials. The search shares the tuner's
machinery (``simkit.analysis.search``): asked in rounds, seeded per trial, resumable from its SQLite
storage, a budget in trials, games or minutes.

The search plays every trial on the same deals, so its best trials are partly the ones those deals flatter.
At the end the best candidates (or the Pareto set) and the default rules are played again on fresh deals with
more games, and a candidate is called a winner only if the paired interval of its difference from the
default rules excludes zero in its favour; otherwise the report says plainly that no candidate separated
from the default. Each candidate's rules are written as a TOML file that ``--rules`` loads, and the balance
card's facts of every candidate are shown beside the default's. ``retune`` re-tunes a strategy family
(``simkit.analysis.tune``) under the top candidates' rules and the default's, and judges the goals again
with the re-tuned players, so a rule that looks good only because the bots misplay it is caught.

This module checks the input and runs the search; ``design_space`` holds what is varied, who plays and the plan
that plays rule sets; ``design_search`` the rounds of trials and the choice of candidates; ``design_verdict`` the
re-evaluation, the winner, the findings and the candidates' rules files.
"""
from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import numpy as np

from ..errors import SimkitError
from ..games import get_game
from ..goal_specs import parse_goals
from ..rules import rule_value
from ..runner import make_batch
from ..strategy import parse_lineup
from .design_search import _Search
from .design_space import _is_number, _Plan, _profiles, parse_population, parse_vary  # noqa: F401  (public here)
from .design_verdict import NO_DIFFERENCE, DesignResult, _report, _verdict, changes_text  # noqa: F401  (public here)
from .goals import RATE_FIELDS, DealSums, Goal, evaluate_expression, expression_names
from .play import deals_for
from .result import parse_negligible
from .retune import retune_targets
from .search import Budget, Progress, derived_seed, grid_of, open_storage, open_study, parse_budget, searching

SAMPLERS = ("auto", "cmaes", "tpe", "nsga2", "grid", "random")
ROUND = {"tpe": 8, "nsga2": 12, "grid": 8, "random": 8}    # trials asked at once (CMA-ES: its population)


def design(game: str, vary=None, goal=None, constraint=(), players=None, population=None,
           player_count: int | None = None, budget="100", trial_games: int = 1000, games: int = 10_000,
           candidates: int = 3, sampler: str = "auto", round_size: int | None = None, retune: str | None = None,
           retune_params=None, retune_budget="40",
           seed: int = 0, sets=(), rules=None, workers: int = 1, storage=None, study_name: str = "design",
           progress=None, negligible=()) -> DesignResult:
    """Search the values of rule keys (``vary``: ``KEY=LO:HI[:int|:log]`` or ``KEY=V1|V2|...``, one or a list)
    for ``goal`` (one or a list: seat-balance, length=TARGET, spread[=max], decisive, min:EXPR, max:EXPR) under
    ``constraint`` (``EXPR<=NUMBER``, ``EXPR>=NUMBER``).

    players: the line-up (default: the game's); or population: a mix of strategies (``SPEC@SHARE,...`` or a
    meta-game's results) at ``player_count`` seats. Every trial plays ``trial_games`` games on the same deals
    (each deal in every seat order); budget: ``"100"`` trials, ``"200000 games"`` or ``"10 minutes"``. The best
    ``candidates`` (one goal) or the Pareto set (several) and the default rules are then played again on fresh
    seeds, ``games`` games each. retune: a strategy family of the line-up to re-tune (``retune_params``,
    ``retune_budget``) under the best candidate's rules and the default's. storage: an SQLite file (or Optuna
    URL) that makes the search resumable. negligible: ``METRIC=VALUE`` thresholds (result.parse_negligible)
    that size each candidate's difference from the default: a goal that is a rate uses the win threshold, one
    over the game's length the length threshold, any other the score threshold; a candidate better only
    negligibly is not recommended. Returns a DesignResult (an Analysis of kind ``design``)."""
    thresholds = parse_negligible(negligible)
    spec = get_game(game)
    goals, constraints = parse_goals(goal, constraint)
    if sampler not in SAMPLERS:
        raise SimkitError(f"--sampler must be one of {', '.join(SAMPLERS)}, not {sampler!r}")
    for name, value in (("trial_games", trial_games), ("games", games), ("candidates", candidates),
                        ("round_size", round_size or 1)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise SimkitError(f"--{name.replace('_', '-')} must be a whole number of at least 1, not {value!r}")
    budget = parse_budget(budget)

    # who plays
    if population is not None and players is not None:
        raise SimkitError("give a line-up (--players) or a --population, not both")
    mix = parse_population(population, spec.name) if population is not None else None
    if mix is not None:
        n = player_count or len(spec.default_lineup)
        spec.check_player_count(n)
        seats = [mix[0][0]] * n
        labels = [seat.label for seat, _ in mix]
    else:
        seats = parse_lineup(spec.name, players if players else list(spec.default_lineup))
        n = len(seats)
        if player_count is not None and player_count != n:
            raise SimkitError(f"--player-count {player_count} does not match the line-up's {n} seats")
        spec.check_player_count(n)
        labels = list(dict.fromkeys(seat.label for seat in seats))
    rules_file, overrides = (rules, None) if isinstance(rules, (str, Path)) else (None, rules)
    base = make_batch(spec.name, 1, seats, seed, rules_file, list(sets), overrides)
    dims, choices = parse_vary(vary, base.rules, lambda r: spec.prepare(r, n))
    for dim in dims:
        unread = spec.unread_key(base.rules, dim.name)
        if unread:
            raise SimkitError(f"--vary {dim.name}: {unread}")
    trial_deals = deals_for(trial_games, n, True)
    deals_for(games, n, True)
    if trial_deals < 2 or deals_for(games, n, True) < 2:
        raise SimkitError(f"--trial-games and --games need at least {2 * n} games at {n} players (two deals)")

    grid = grid_of(dims)
    points = math.prod(len(values) for values in grid.values()) if grid else None
    kind = sampler
    if kind == "auto":    # a space no larger than the budget is played whole
        kind = ("grid" if points and budget.unit == "trials" and points <= budget.amount else
                "nsga2" if len(goals) > 1 else
                "cmaes" if len(dims) >= 2 and all(d.continuous for d in dims) and not constraints else "tpe")
    if kind == "grid" and grid is None:
        raise SimkitError("--sampler grid needs every --vary to be choices or whole numbers")
    if kind == "grid" and budget.unit == "trials" and points < budget.amount:
        budget = Budget(points, "trials")     # every point once
    if kind == "cmaes" and (len(goals) > 1 or constraints or len(dims) < 2 or not all(d.continuous for d in dims)):
        raise SimkitError("--sampler cmaes needs one goal, no constraint and two or more continuous ranges "
                          "(LO:HI or LO:HI:log); use tpe")
    if kind == "nsga2" and len(goals) < 2:
        raise SimkitError("--sampler nsga2 needs two or more goals; use tpe")
    # a round is a batch of trials played at once: by default the sampler's own (CMA-ES's population), or one
    # trial per worker when there are more workers (docs/execution.md: what the batch size does to a search)
    size = round_size or max(4 + int(3 * math.log(len(dims))) if kind == "cmaes" else ROUND[kind], workers)
    if kind == "cmaes" and size < 4:
        raise SimkitError(f"--parallel {size}: CMA-ES needs a population of at least 4")
    if budget.unit == "games" and budget.amount < trial_deals * n:
        raise SimkitError(f"--budget {budget.text()}: less than one trial ({trial_deals * n:,} games); give more "
                          "games or fewer --trial-games")
    plan = _Plan(spec, dims, choices, base.rules, tuple(seats) if mix is None else None, mix, labels, n, int(seed),
                 goals, constraints, kind, size, trial_deals, workers, grid, negligible=thresholds)
    plan.goals, plan.constraints, plan.shares = _check_goals(plan)
    retune_seats = _retune_entries(plan, retune, retune_params) if retune is not None else None

    first = _start(plan)
    config = json.loads(json.dumps({
        "game": spec.name, "vary": [d.text() for d in dims], "goals": [g.text for g in goals],
        "constraints": [c.text for c in constraints], "lineup": [s.label for s in seats] if mix is None else None,
        "population": [[s.label, share] for s, share in mix] if mix is not None else None, "players": n,
        "seed": int(seed), "sampler": kind, "round_size": size, "trial_deals": trial_deals, "rules": base.rules,
    }, default=str))
    store = open_storage(storage)
    bar = Progress(budget, progress)
    with searching(store, storage, bar):
        study = open_study(store, study_name, config, [g.direction for g in goals], "design")
        search = _Search(plan, study, budget, bar, first)
        bar.advance(search.state["trials"], search.state["games"], search.state["seconds"])
        while search.run_round():
            pass
        bar.close()
        return _report(plan, study, search.state, budget, games, candidates, rules, sets, study_name, retune,
                       retune_seats, retune_params, retune_budget)


def _start(plan: _Plan) -> dict | None:
    """The base rules as Optuna parameters, if every varied value lies in its range (else None)."""
    first = {}
    for dim in plan.dims:
        value = rule_value(plan.rules, dim.name)
        if dim.scale == "choice":
            label = next((label for label, v in plan.choices[dim.name].items() if v == value), None)
            if label is None:
                return None
            first[dim.name] = label
        elif _is_number(value) and dim.low <= value <= dim.high:
            first[dim.name] = value
        else:
            return None
    return first


def _check_goals(plan: _Plan) -> tuple[list[Goal], list, frozenset]:
    """Evaluate every goal and constraint on a couple of deals of the base rules, so that an expression that
    names an unknown field, or a goal the game cannot measure, is one line before anything long runs. Returns
    them with expressions over rates only (win rates, shares, true/false columns) marked as rates, which
    reports show as percentages, and the result columns that are true/false."""
    frames, _ = plan.play([plan.rules], derived_seed(plan.seed, "check"), 2)
    sums = DealSums(frames[0], plan.spec, plan.labels)
    namespace = sums.fields(np.ones((1, sums.deals)))
    rates = RATE_FIELDS | set(sums.shares)

    def marked(item, where):
        if item.column.startswith(("goal_", "constraint_")) and expression_names(item.expression, where) <= rates:
            return replace(item, rate=True, column=f"{item.column}_share")
        return item

    for g in plan.goals:
        if g.column.startswith("length_off") and plan.spec.length_column is None:
            raise SimkitError(f"--goal {g.text}: {plan.spec.title} records no game length")
        if g.column == "win_spread" and len(plan.labels) < 2:
            raise SimkitError(f"--goal {g.text}: the line-up has one strategy, so there is no spread between "
                              "strategies; give a line-up of two or more")
        if g.column == "decisive_share" and plan.spec.limit_hit is None:
            raise SimkitError(f"--goal {g.text}: {plan.spec.title} has no safety limit, so every game is decisive")
        evaluate_expression(g.expression, namespace, f"--goal {g.text}")
    for c in plan.constraints:
        evaluate_expression(c.expression, namespace, f"--constraint {c.text}")
    return ([marked(g, f"--goal {g.text}") for g in plan.goals],
            [marked(c, f"--constraint {c.text}") for c in plan.constraints], frozenset(sums.shares))


def _retune_entries(plan: _Plan, family: str, params=None) -> list[int]:
    if plan.mix is not None:
        raise SimkitError("--retune needs a line-up (--players), not a --population")
    labels = retune_targets(list(plan.lineup), [family], params)
    return [i for i, seat in enumerate(plan.lineup) if seat.label in labels]

