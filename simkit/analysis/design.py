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
"""
from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import SimkitError
from ..games import get_game
from ..rules import parse_assignment, rule_value, with_values
from ..runner import Batch, make_batch
from ..strategy import Seat, parse_lineup
from .activity import first_lines, probe_strategies
from .compare import seat_advantage
from .goals import (
    RATE_FIELDS,
    DealSums,
    Goal,
    bootstrap_weights,
    evaluate_expression,
    expression_names,
    interval,
    parse_constraint,
    parse_goal,
)
from .play import Job, deals_for, play_jobs, rotate
from .result import Judged, games_played, judge, negligible_of, parse_negligible
from .search import (
    Budget,
    Dimension,
    Progress,
    SearchResult,
    ask,
    assignments,
    derived_seed,
    grid_of,
    make_sampler,
    open_storage,
    open_study,
    parse_budget,
    parse_range,
    searching,
    tell,
)

SAMPLERS = ("auto", "cmaes", "tpe", "nsga2", "grid", "random")
ROUND = {"tpe": 8, "nsga2": 12, "grid": 8, "random": 8}    # trials asked at once (CMA-ES: its population)
REPLICATES = 200              # bootstrap resamples of each trial's deals
VALIDATION_REPLICATES = 1000  # ... of the re-evaluation's deals
# card facts shown for every trial, and their column names (a win or share column reads as a percentage)
QUICK_FIELDS = {"first_seat": "first_seat_win_advantage", "seat_advantage": "largest_win_advantage",
                "length": "median_length", "limit": "limit_share", "spread": "win_spread"}


# -- what is varied -------------------------------------------------------------------------------------------
def _label(value) -> str:
    return json.dumps(value, separators=(",", ":")) if not isinstance(value, str) else value


def parse_vary(items, rules: dict, check) -> tuple[list[Dimension], dict]:
    """Dimensions from ``KEY=LO:HI[:int|:log]`` or ``KEY=V1|V2|...`` (values read as TOML: numbers, strings,
    arrays such as ``[9,12,3,3]``), each key a rule value of ``rules`` (dotted, array entries by index or
    name). A range needs a numeric rule (an integer rule gives whole values); each end, and each choice, must
    be a value the game accepts (``check(rules)`` raises otherwise). Returns the dimensions and, per
    dimension, its choice labels' values."""
    items = [items] if isinstance(items, str) else list(items or [])
    if not items:
        raise SimkitError("design needs at least one --vary KEY=LO:HI[:int|:log] (or KEY=V1|V2|...); "
                          "`simkit rules GAME --options` lists the rule keys")
    dims, values = [], {}
    for key, spec, where in assignments(items, "--vary", "KEY=LO:HI[:int|:log] or KEY=V1|V2|..."):
        default = rule_value(rules, key, where)
        if isinstance(default, dict) or (isinstance(default, list) and default and isinstance(default[0], dict)):
            raise SimkitError(f"{where}: {key} is a table; vary one of its values (`simkit rules GAME --options`)")
        if "|" in spec:
            mapping = {}
            for raw in spec.split("|"):
                value = parse_assignment(f"{key}={raw}")[1]   # read as TOML, else a bare string (as --set)
                value = _typed(default, value, where)
                mapping.setdefault(value if _is_number(value) else _label(value), value)
            if len(mapping) < 2:
                raise SimkitError(f"{where}: a choice needs at least two different values")
            for value in mapping.values():
                _check_value(check, rules, key, value, where)
            labels = tuple(mapping)
            numeric = all(_is_number(v) for v in labels)
            dims.append(Dimension(key, float(min(labels)) if numeric else 0.0,
                                  float(max(labels)) if numeric else float(len(labels) - 1), "choice", labels))
            values[key] = mapping
            continue
        if not _is_number(default):
            kind = "true/false" if isinstance(default, bool) else f"{type(default).__name__} {default!r}"
            raise SimkitError(f"{where}: {key} is {kind}, not a number; a range needs a numeric rule (give "
                              f"choices instead: {key}=V1|V2|...)")
        low, high, scale = parse_range(spec, where, whole=isinstance(default, int), what=f"{key} (default {default})")
        for end in (low, high):
            _check_value(check, rules, key, _typed(default, end, where), where)
        dims.append(Dimension(key, low, high, scale))
    return dims, values


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _typed(default, value, where: str):
    """``value`` as the rule's own type: a whole number for an integer rule."""
    if isinstance(default, bool) or not _is_number(default) or not _is_number(value):
        return value
    if isinstance(default, int):
        if not float(value).is_integer():
            raise SimkitError(f"{where}: the rule takes whole numbers, not {value!r}")
        return int(value)
    return float(value)


def _check_value(check, rules: dict, key: str, value, where: str) -> None:
    try:
        check(with_values(rules, {key: value}))
    except SimkitError as exc:
        raise SimkitError(f"{where}: {key} = {_label(value)} is not allowed: {exc}") from None


# -- who plays --------------------------------------------------------------------------------------------------
def parse_population(population, game: str) -> list[tuple[Seat, float]]:
    """A mix of strategies: ``SPEC@SHARE,...`` (shares normalised; without ``@`` every strategy the same share),
    a dict {spec: share}, or a meta-game's results (its directory, analysis folder or equilibrium table): the
    equilibrium mix."""
    if isinstance(population, (str, Path)) and Path(str(population)).exists():
        return _equilibrium_mix(Path(str(population)), game)
    if isinstance(population, dict):
        entries = list(population.items())
    else:
        items = population.split(",") if isinstance(population, str) else population
        items = [str(p).strip() for p in items if str(p).strip()]
        entries = []
        for item in items:
            spec, at, share = str(item).rpartition("@") if "@" in str(item) else (str(item), "", "1")
            try:
                entries.append((spec.strip(), float(share)))
            except ValueError:
                raise SimkitError(f"--population {item}: the share after @ must be a number") from None
    if len(entries) < 1:
        raise SimkitError("--population is empty; give SPEC@SHARE,... or a meta-game's results directory")
    seats = parse_lineup(game, [spec for spec, _ in entries])
    shares = np.array([share for _, share in entries], float)
    if not np.all(np.isfinite(shares)) or (shares < 0).any() or shares.sum() <= 0:
        raise SimkitError("--population: shares must be numbers >= 0, not all 0")
    labels = [seat.label for seat in seats]
    if len(set(labels)) != len(labels):
        raise SimkitError(f"--population lists {sorted(x for x in labels if labels.count(x) > 1)[0]!r} twice")
    return [(seat, share) for seat, share in zip(seats, shares / shares.sum()) if share > 0]


def _equilibrium_mix(path: Path, game: str) -> list[tuple[Seat, float]]:
    candidates = [path] if path.is_file() else sorted(path.glob("equilibrium.parquet")) + sorted(
        path.glob("*-metagame/equilibrium.parquet"))
    if not candidates:
        raise SimkitError(f"--population {path}: no meta-game equilibrium there (equilibrium.parquet of a "
                          "`simkit metagame --out` directory)")
    table = pd.read_parquet(candidates[0]) if candidates[0].suffix == ".parquet" else pd.read_csv(candidates[0])
    if not {"strategy", "mix"} <= set(table.columns):
        raise SimkitError(f"--population {candidates[0]}: not a meta-game equilibrium table (needs strategy, mix)")
    return parse_population({row.strategy: row.mix for row in table.itertuples()}, game)


def _profiles(mix: list[tuple[Seat, float]], players: int, deals: int) -> list[tuple[list[Seat], int, int]]:
    """The line-ups a population plays: every multiset of ``players`` strategies of the mix, each with its
    multinomial share of ``deals`` (largest remainders, so the shares are exact to a deal), on consecutive
    game indices (first game, deals)."""
    from .metagame import profiles

    shares = np.array([share for _, share in mix])
    rows = []
    for profile in profiles(len(mix), players):
        counts = np.bincount(profile, minlength=len(mix))
        probability = math.factorial(players) / math.prod(math.factorial(c) for c in counts) * \
            float(np.prod(shares ** counts))
        rows.append((profile, probability * deals))
    whole = [int(math.floor(x)) for _, x in rows]
    for i in sorted(range(len(rows)), key=lambda i: -(rows[i][1] - whole[i]))[: deals - sum(whole)]:
        whole[i] += 1
    out, first = [], 0
    for (profile, _), count in zip(rows, whole):
        if count:
            out.append(([mix[i][0] for i in profile], first, count))
            first += count
    return out


# -- the plan of every evaluation -------------------------------------------------------------------------------
@dataclass
class _Plan:
    spec: object
    dims: list
    choices: dict                 # dimension -> {label: rule value}
    rules: dict                   # the base rules (defaults, rules file, --set): what "default" means here
    lineup: tuple | None          # the seats, or None for a population
    mix: list | None              # the population (Seat, share), or None for a line-up
    labels: list
    players: int
    seed: int
    goals: list
    constraints: list
    sampler: str
    round_size: int
    trial_deals: int
    workers: int
    grid: dict | None = None      # every point of the space, when it is finite
    shares: frozenset = frozenset()   # result columns that are true/false: their means are shares
    negligible: dict | None = None    # --negligible thresholds (result.parse_negligible) that size the verdicts

    def values_of(self, params: dict) -> dict:
        """Rule values from an Optuna trial's parameters (choice labels mapped back, integers kept whole)."""
        out = {}
        for dim in self.dims:
            value = params[dim.name]
            if dim.scale == "choice":
                out[dim.name] = self.choices[dim.name][value]
            else:   # 4 significant figures: a finer difference is far below what any number of games tells apart
                value = min(max(float(f"{value:.4g}"), dim.low), dim.high)
                out[dim.name] = _typed(rule_value(self.rules, dim.name), value, f"--vary {dim.name}")
        return out

    def rules_for(self, values: dict) -> dict:
        return with_values(self.rules, values)

    def lineups_for(self, deals: int) -> list:
        """(seats, first game, games) of every line-up ``deals`` deals are split into."""
        if self.mix is None:
            return [(self.lineup, 0, deals)]
        return _profiles(self.mix, self.players, deals)

    def jobs(self, rule_sets: list[dict], seed: int, deals: int) -> tuple[list[Job], list[list[int]], list[str | None]]:
        """Jobs playing every rule set with every line-up on ``deals`` deals of ``seed``; per rule set, the
        indices of its jobs (none when the game refuses its rules: then its error)."""
        jobs, owned, errors = [], [], []
        for rules in rule_sets:
            try:
                prepared = self.spec.prepare(rules, self.players)
            except SimkitError as exc:
                owned.append([])
                errors.append(str(exc))
                continue
            mine = []
            for seats, first, count in self.lineups_for(deals):
                batch = Batch(self.spec, rules, prepared, tuple(seats), int(seed), 1)
                rotations = tuple(replace(batch, seats=tuple(rotate(list(seats), r))) for r in range(self.players))
                mine.append(len(jobs))
                jobs.append(Job(rotations, first, count, keep="all"))
            owned.append(mine)
            errors.append(None)
        return jobs, owned, errors

    def play(self, rule_sets: list[dict], seed: int, deals: int) -> tuple[list, list]:
        """Play every rule set on the same deals; per rule set its rows (None if refused) and error."""
        jobs, owned, errors = self.jobs(rule_sets, seed, deals)
        frames = play_jobs(jobs, self.workers) if jobs else []
        return [pd.concat([frames[j] for j in mine], ignore_index=True) if mine else None for mine in owned], errors

    def namespace(self, frame: pd.DataFrame, weights: np.ndarray) -> dict:
        """The card's fields of these games under each row of deal weights."""
        return DealSums(frame, self.spec, self.labels).fields(weights)

    def judge(self, namespace: dict) -> dict:
        """Every goal's and constraint's values (one per weight row: estimate, then resamples) and the quick
        fields' estimates."""
        goals = {g.column: evaluate_expression(g.expression, namespace, f"--goal {g.text}") for g in self.goals}
        constraints = {c.column: c.slack(evaluate_expression(c.expression, namespace, f"--constraint {c.text}"))
                       for c in self.constraints}
        quick = {k: float(namespace[k][0]) for k in QUICK_FIELDS if k in namespace}
        if self.spec.limit_hit is None:
            quick.pop("limit", None)
        if len(self.labels) < 2:
            quick.pop("spread", None)
        return {"goals": goals, "constraints": constraints, "quick": quick}


def _summary(judged: dict) -> dict:
    return {"goals": {k: interval(v) for k, v in judged["goals"].items()},
            "constraints": {k: interval(v) for k, v in judged["constraints"].items()}, "quick": judged["quick"]}


def _feasible(summary: dict) -> bool:
    return all(value <= 0 for value, _, _ in summary["constraints"].values())


def _violation(summary: dict) -> float:
    return sum(max(value, 0.0) for value, _, _ in summary["constraints"].values())


# -- the search -------------------------------------------------------------------------------------------------
class _Search:
    """The Optuna study of a design search: rounds of trials on the same deals until the budget is spent."""

    def __init__(self, plan: _Plan, study, budget, bar, first: dict | None):
        self.plan, self.study, self.budget, self.bar = plan, study, budget, bar
        self.state = study.user_attrs.get("state") or {"round": 0, "first_trial": 0, "games": 0, "seconds": 0.0,
                                                       "trials": 0, "rounds": [], "baseline": None}
        if first is not None and not study.trials and plan.sampler in ("tpe", "nsga2", "random") \
                and not study.user_attrs.get("state"):
            study.enqueue_trial(first)     # the base rules are tried first (CMA-ES starts from the middle; a grid
                                           # plays them in its turn)
        self.seed = derived_seed(plan.seed, "search")
        self.weights = None

    def _sampler(self, number: int):
        return make_sampler(self.plan.sampler, derived_seed(self.plan.seed, "sampler", number), self.plan.round_size,
                            self.plan.grid)

    def _weights(self) -> np.ndarray:
        if self.weights is None:   # the same resamples for every trial: they were all played on the same deals
            self.weights = bootstrap_weights(self.plan.trial_deals, REPLICATES,
                                             derived_seed(self.plan.seed, "bootstrap"))
        return self.weights

    def _known(self) -> dict:
        """The results of the rule sets played so far, by their values: a trial asking for one again (TPE and
        NSGA-II do, on whole numbers and choices) gets the same result without playing it again, since it would
        play the same deals."""
        known = {}
        for trial in self.study.get_trials(deepcopy=False):
            attrs = trial.user_attrs.get("simkit")
            if attrs is not None:
                known[json.dumps(attrs["values"], sort_keys=True)] = {k: v for k, v in attrs.items()
                                                                       if k not in ("round", "values")}
        return known

    def run_round(self) -> bool:
        plan, state = self.plan, self.state
        games_per_trial = plan.trial_deals * plan.players
        # a trial that repeats a rule set costs no games, but a budget of games counts it as played (else a
        # sampler that only repeats itself would never spend the budget)
        count = self.budget.round_size({**state, "games": state["trials"] * games_per_trial}, plan.round_size,
                                       games_per_trial)
        if count == 0:
            return False
        started = time.perf_counter()
        numbers = ask(self.study, state["first_trial"], count, plan.dims, self._sampler)
        frozen = {t.number: t for t in self.study.get_trials(deepcopy=False)}
        values = [plan.values_of(frozen[n].params) for n in numbers]
        recorded = [{k: v if _is_number(v) else _label(v) for k, v in value.items()} for value in values]
        keys = [json.dumps(r, sort_keys=True) for r in recorded]
        known = self._known()
        new = list(dict.fromkeys(key for key in keys if key not in known))
        baseline = state["baseline"] is None
        frames, errors = plan.play([plan.rules_for(values[keys.index(key)]) for key in new]
                                   + ([plan.rules] if baseline else []), self.seed, plan.trial_deals)
        if baseline:
            if frames[-1] is None:
                raise SimkitError(f"the base rules are refused: {errors[-1]}")
            state["baseline"] = _summary(plan.judge(plan.namespace(frames[-1], self._weights())))
        for key, frame, error in zip(new, frames, errors):
            known[key] = {"error": error} if frame is None else _summary(plan.judge(plan.namespace(frame,
                                                                                                   self._weights())))
        refused = 0
        for number, key, record in zip(numbers, keys, recorded):
            result = known[key]
            attrs = {"round": state["round"], "values": record, **result}
            if "error" in result:
                tell(self.study, number, None, attrs, failed=True)
                refused += 1
                continue
            point = [result["goals"][g.column][0] for g in plan.goals]
            tell(self.study, number, point if len(point) > 1 else point[0], attrs,
                 failed=not all(math.isfinite(v) for v in point),
                 constraints={column: value[0] for column, value in result["constraints"].items()})
        games = sum(frame is not None for frame in frames) * games_per_trial
        best = self._best_so_far()
        state["rounds"].append({"round": state["round"], "trials": len(numbers), "played": len(new),
                                "refused": refused, "games": games,
                                **({f"best_{k}": v for k, v in best.items()} if best else {})})
        state.update(round=state["round"] + 1, first_trial=max(numbers) + 1, games=state["games"] + games,
                     trials=state["trials"] + len(numbers), seconds=state["seconds"] + time.perf_counter() - started)
        self.study.set_user_attr("state", state)
        note = ", ".join(f"{k} {v:.4g}" for k, v in best.items()) if best else ""
        self.bar.advance(len(numbers), games, time.perf_counter() - started, f"best {note}" if note else "")
        return True

    def _best_so_far(self) -> dict:
        """For one goal, the best feasible trial's value so far; for several, the Pareto front's size."""
        trials = _completed(self.study)
        feasible = [t for t in trials if _feasible(t.user_attrs["simkit"])]
        if not feasible:
            return {}
        if len(self.plan.goals) == 1:
            goal = self.plan.goals[0]
            return {goal.column: min((t.user_attrs["simkit"]["goals"][goal.column][0] for t in feasible),
                                     key=lambda v: goal.sign * v)}
        return {"front": float(len(_front(feasible, self.plan.goals)))}


def _completed(study) -> list:
    import optuna

    return [t for t in study.get_trials(deepcopy=False) if t.state == optuna.trial.TrialState.COMPLETE
            and "goals" in t.user_attrs.get("simkit", {})]


def _dominates(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(np.all(a <= b) and np.any(a < b))


def _front(trials: list, goals: list[Goal]) -> list:
    """The non-dominated trials (by their estimates, every goal turned into a minimisation)."""
    points = [np.array([g.sign * t.user_attrs["simkit"]["goals"][g.column][0] for g in goals]) for t in trials]
    return [t for i, t in enumerate(trials) if not any(_dominates(points[j], points[i]) for j in range(len(trials))
                                                       if j != i)]


def select_candidates(trials: list, goals: list[Goal], count: int) -> tuple[list, str]:
    """The candidates to re-evaluate: feasible trials (constraints met by their estimates), distinct in their
    rule values; one goal: the best ``count``; several: the Pareto front, thinned evenly along the first goal
    to ``count``. Without a feasible trial, the least infeasible ones (and a note that says so)."""
    distinct = {}
    for trial in sorted(trials, key=lambda t: t.number):
        key = json.dumps(trial.user_attrs["simkit"]["values"], sort_keys=True)
        distinct.setdefault(key, trial)
    pool = list(distinct.values())
    feasible = [t for t in pool if _feasible(t.user_attrs["simkit"])]
    note = ""
    if not feasible:
        note = "no trial met every constraint; the candidates are the least infeasible trials"
        pool = sorted(pool, key=lambda t: (_violation(t.user_attrs["simkit"]), t.number))[:count]
        return pool, note
    if len(goals) == 1:
        goal = goals[0]
        ranked = sorted(feasible, key=lambda t: (goal.sign * t.user_attrs["simkit"]["goals"][goal.column][0], t.number))
        return ranked[:count], note
    first = goals[0]
    front = sorted(_front(feasible, goals),
                   key=lambda t: (first.sign * t.user_attrs["simkit"]["goals"][first.column][0], t.number))
    if len(front) > count:
        picks = sorted({round(i * (len(front) - 1) / max(count - 1, 1)) for i in range(count)})
        note = f"the Pareto front has {len(front)} trials; {len(picks)} evenly spaced along it were re-evaluated"
        front = [front[i] for i in picks]
    return front, note


# -- the result -------------------------------------------------------------------------------------------------
class DesignResult(SearchResult):
    """A rule search: tables ``trials`` (every trial's rule values, goals and constraints with 95% intervals),
    ``rounds``, ``front`` (several goals: the Pareto front of the trials), ``candidates`` (their rule changes
    and files), ``validation`` (every candidate and the default rules on fresh deals: each goal and
    constraint with its interval and the paired difference from the default), ``cards`` (the balance card's
    facts of every candidate beside the default's), ``card_seats`` and ``card_length``; files
    ``candidate-K.toml`` (load with ``--rules``)."""

    @property
    def candidates(self) -> list[dict]:
        """Each candidate's rule values (dotted key -> value), best first."""
        return [dict(c["values"]) for c in self.setup["candidates"]]

    @property
    def winner(self) -> dict | None:
        """The winner's rule values, or None when no candidate separated from the default rules."""
        return dict(self.setup["winner"]["values"]) if self.setup.get("winner") else None


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
    goal_items = [goal] if isinstance(goal, str) else list(goal or [])
    if not goal_items:
        raise SimkitError("design needs at least one --goal; allowed: seat-balance, length=TARGET, spread, "
                          "spread=max, decisive, min:EXPR, max:EXPR")
    goals = [parse_goal(text, i + 1) for i, text in enumerate(goal_items)]
    if len({g.column for g in goals}) != len(goals):
        raise SimkitError("--goal: the same goal is given twice")
    constraint_items = [constraint] if isinstance(constraint, str) else list(constraint or [])
    constraints = [parse_constraint(text, i + 1) for i, text in enumerate(constraint_items)]
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
    from .retune import retune_targets

    if plan.mix is not None:
        raise SimkitError("--retune needs a line-up (--players), not a --population")
    labels = retune_targets(list(plan.lineup), [family], params)
    return [i for i, seat in enumerate(plan.lineup) if seat.label in labels]


# -- re-evaluation and report -----------------------------------------------------------------------------------
def _changes(plan: _Plan, values: dict) -> list[tuple[str, object, object]]:
    return [(key, rule_value(plan.rules, key), value) for key, value in values.items()
            if rule_value(plan.rules, key) != value]


def changes_text(changes) -> str:
    """``key: default -> value; ...`` (or "the default rules")."""
    if not changes:
        return "the default rules"
    from simkit.reports.format import rule_value as shown

    return "; ".join(f"{key}: {shown(old)} -> {shown(new)}" for key, old, new in changes)


def _identical_play(plan: _Plan, trials) -> list[str]:
    """A warning when every trial of every round (each round's trials play the same deals) gave the very same
    goal values although their rule values differed: the varied keys changed nothing in these games."""
    rounds: dict = {}
    for trial in trials:
        attrs = trial.user_attrs["simkit"]
        entry = rounds.setdefault(attrs.get("round"), (set(), set()))
        entry[0].add(json.dumps(attrs.get("values"), sort_keys=True, default=str))
        entry[1].add(json.dumps([attrs["goals"][g.column] for g in plan.goals], default=str))
    varied = [outcomes for values, outcomes in rounds.values() if len(values) > 1]
    if not varied or any(len(outcomes) > 1 for outcomes in varied):
        return []
    return [f"Warning: every trial played identically ({len(trials)} trials, the same "
            f"{', '.join(g.column for g in plan.goals)} on each round's deals whatever the rule values): the varied "
            "keys never changed a game, so the search could not tell the candidates apart (see whether they came "
            "into play, above)."]


def _report(plan: _Plan, study, state, budget, games: int, count: int, rules, sets, study_name, retune, retune_seats,
            retune_params, retune_budget) -> DesignResult:
    spec = plan.spec
    trials = _completed(study)
    if not trials:
        raise SimkitError("no trial could be played: the game refused every rule set the search asked for "
                          f"(first error: {_first_error(study)})")
    chosen, note = select_candidates(trials, plan.goals, count)
    values = [plan.values_of(t.params) for t in chosen]
    deals = deals_for(games, plan.players, True)
    seed = derived_seed(plan.seed, "validation")
    rule_sets = [plan.rules] + [plan.rules_for(v) for v in values]
    frames, _ = plan.play(rule_sets, seed, deals)
    weights = _validation_weights(plan, deals)
    namespaces = [plan.namespace(frame, weights) for frame in frames]
    judged = [plan.judge(namespace) for namespace in namespaces]
    names = ["default"] + [f"candidate-{k + 1}" for k in range(len(chosen))]
    validation, verdicts = _validation(plan, names, judged)
    tables = {"trials": _trials_table(plan, study), "trial_facts": _trial_facts(study),
              "rounds": pd.DataFrame(state["rounds"])}
    if len(plan.goals) > 1:
        front_numbers = {t.number for t in _front([t for t in trials if _feasible(t.user_attrs["simkit"])] or trials,
                                                   plan.goals)}
        trial_table = tables["trials"]
        trial_table["pareto"] = trial_table["trial"].isin(front_numbers)
        shown = ["trial", *[d.name for d in plan.dims], *[c for g in plan.goals for c in (g.column, f"{g.column}_low",
                                                                                           f"{g.column}_high")]]
        tables["front"] = trial_table.loc[trial_table["pareto"], shown].reset_index(drop=True)
    changes = [_changes(plan, v) for v in values]
    tables["candidates"] = pd.DataFrame([{"candidate": name, "trial": t.number, "rules changed": changes_text(c),
                                          "file": f"{name}.toml"} for name, t, c in zip(names[1:], chosen, changes)])
    tables["validation"] = validation
    cards, card_seats, card_length = _cards(plan, names, frames, namespaces)
    tables.update(cards=cards, card_seats=card_seats)
    if card_length is not None:
        tables["card_length"] = card_length
    winner = _winner(plan, names, verdicts, values)
    balance_command = (f"simkit balance {spec.name} --players {','.join(s.label for s in plan.lineup)} "
                       f"--games {deals * plan.players} --seed {seed}" if plan.mix is None else None)
    files = {f"{name}.toml": _candidate_toml(plan, name, v, c, verdicts[name], balance_command)
             for name, v, c in zip(names[1:], values, changes)}
    findings = _findings(plan, budget, state, trials, names, values, changes, verdicts, winner, note, deals, seed,
                         balance_command)
    findings = _identical_play(plan, trials) + findings
    probe = probe_strategies(spec.name, list(plan.lineup), plan.seed, sets, rules) if plan.mix is None else None
    findings = first_lines(spec, None, None, frames, probe, [(dim.name, "varied by the search") for dim in plan.dims]) \
        + findings
    if retune is not None:
        target = winner or {"name": names[1], "values": values[0]}
        retuned = _retuned(plan, retune, retune_seats, retune_params, retune_budget, target["name"], target["values"],
                           deals, seed)
        tables["retuned"] = retuned["table"]
        findings += retuned["findings"]
    setup = {"negligible": plan.negligible,
             "game": spec.name, "vary": [d.text() for d in plan.dims], "goals": [g.text for g in plan.goals],
             "goal_columns": [g.column for g in plan.goals], "directions": [g.direction for g in plan.goals],
             "constraints": [c.text for c in plan.constraints],
             "constraint_columns": [c.column for c in plan.constraints],
             "players": [s.label for s in plan.lineup] if plan.mix is None else plan.players,
             "population": [[s.label, share] for s, share in plan.mix] if plan.mix is not None else None,
             "sets": list(sets), "rules": rules, "seed": plan.seed, "sampler": plan.sampler,
             "round_size": plan.round_size, "budget": budget.text(), "trial_games": plan.trial_deals * plan.players,
             "validation_games": deals * plan.players, "validation_seed": seed, "study_name": study_name,
             "baseline": state["baseline"],
             "candidates": [{"name": name, "trial": t.number, "values": dict(val), "changes": changes_text(c)}
                            for name, t, val, c in zip(names[1:], chosen, values, changes)],
             "winner": winner, "games_searching": state["games"]}
    title = f"{spec.title}: rule search ({', '.join(g.text for g in plan.goals)})"
    return DesignResult("design", title, spec.name, tables, findings, json.loads(json.dumps(setup, default=str)),
                        files=files, players=plan.players, details=("trials", "trial_facts", "rounds", "card_length"))


def _validation_weights(plan: _Plan, deals: int) -> np.ndarray:
    """The re-evaluation's resamples: the same for every rule set, so differences are paired."""
    return bootstrap_weights(deals, VALIDATION_REPLICATES, derived_seed(plan.seed, "validation-bootstrap"))


def _verdict(goal: Goal, low: float, high: float, diff: float | None = None,
             plan: _Plan | None = None) -> tuple[Judged, str]:
    """What a paired interval of (candidate - default) says about a goal, sized against the plan's negligible
    threshold for the goal's measure, judged once (its sign turned to the goal's: +1 better than the default,
    -1 worse) and in words: "better than the default (significant and larger than negligible, ...)",
    "... (significant but negligible, ...)" or "no significant difference from the default"."""
    if goal.sign > 0:       # a goal minimised: a change below 0 is the better one
        low, high, diff = -high, -low, None if diff is None else -diff
    negligible = None
    if plan is not None and plan.negligible is not None:
        metric = "win" if goal.rate else "length" if "length" in goal.expression else "score"
        negligible = negligible_of(plan.negligible, metric, plan.spec.length_column or "")
    judged = judge(low, high, diff, negligible)
    if not judged.sign:
        return judged, NO_DIFFERENCE
    words = "better than the default" if judged.sign > 0 else "worse than the default"
    if not judged.sized:
        return judged, words
    return judged, f"{words} ({judged.size}; negligible: under {negligible[1]})"


NO_DIFFERENCE = "no significant difference from the default"


def _first_error(study) -> str:
    for trial in study.get_trials(deepcopy=False):
        error = trial.user_attrs.get("simkit", {}).get("error")
        if error:
            return error
    return "none recorded"


def _validation(plan: _Plan, names: list[str], judged: list[dict]) -> tuple[pd.DataFrame, dict]:
    """One row per (rule set, goal or constraint): its value and interval, and for a candidate the paired
    difference from the default (the same deals and resamples) with its interval and what it means."""
    rows, verdicts = [], {name: {} for name in names}
    measures = [(g.column, g.text, "goal", g) for g in plan.goals] + \
               [(c.column, c.text, "constraint", c) for c in plan.constraints]
    for name, result in zip(names, judged):
        for column, text, role, item in measures:
            values = result["goals" if role == "goal" else "constraints"][column]
            base = judged[0]["goals" if role == "goal" else "constraints"][column]
            estimate, low, high = interval(values)
            row = {"rules": name, "measure": text, "role": role, "rate": bool(item.rate), "value": estimate,
                   "value_low": low, "value_high": high}
            decided = None
            if role == "constraint":   # shown as the constrained value, not its slack
                verdict = "met" if high <= 0 else "broken" if low > 0 else "not decided"
                ends = sorted((_unslack(item, low), _unslack(item, high)))
                row.update(value=_unslack(item, estimate), value_low=ends[0], value_high=ends[1])
            elif name == "default":
                verdict = ""
            else:
                diff, diff_low, diff_high = interval(values - base)
                row.update(diff=diff, diff_low=diff_low, diff_high=diff_high)
                decided, verdict = _verdict(item, diff_low, diff_high, diff, plan)
            row["verdict"] = verdict
            verdicts[name][text] = {"role": role, "verdict": verdict, "rate": item.rate,
                                    "judged": decided,
                                    **{k: row.get(k) for k in ("value", "value_low", "value_high", "diff", "diff_low",
                                                               "diff_high")}}
            rows.append(row)
    return pd.DataFrame(rows), verdicts


def _unslack(constraint, slack: float) -> float:
    """The constrained expression's value from its slack."""
    return slack + constraint.bound if constraint.op == "<=" else constraint.bound - slack


def _winner(plan: _Plan, names, verdicts, values) -> dict | None:
    """One goal: the candidate with the best re-evaluated value, if it is better than the default with its
    constraints not broken. Several goals: the first candidate better on one goal and worse on none."""
    goals = [g.text for g in plan.goals]
    eligible = []
    for name, value in zip(names[1:], values):
        verdict = verdicts[name]
        if any(v["role"] == "constraint" and v["verdict"] == "broken" for v in verdict.values()):
            continue
        # better by a negligible margin is no reason to change the rules; worse by any margin is one not to
        better = [g for g in goals if verdict[g]["judged"].sign > 0 and not verdict[g]["judged"].small]
        worse = [g for g in goals if verdict[g]["judged"].sign < 0]
        if better and not worse:
            eligible.append((name, value))
    if not eligible:
        return None
    if len(plan.goals) == 1:
        goal = plan.goals[0]
        name, value = min(eligible, key=lambda e: goal.sign * verdicts[e[0]][goal.text]["value"])
    else:
        name, value = eligible[0]
    return {"name": name, "values": value}


def _cards(plan: _Plan, names, frames, namespaces) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame | None]:
    """The balance card's facts of every rule set side by side (cells with their intervals), each seat's
    advantage (``compare.seat_advantage``, as the card computes it) and the length distributions."""
    spec = plan.spec
    rows = {}
    fields = [("first seat's advantage", "first_seat", True), ("largest seat advantage", "seat_advantage", True)]
    if spec.length_column:
        fields += [(f"{label} {spec.length_column}", key, False)
                   for label, key in (("median", "length"), ("10%", "length_p10"), ("90%", "length_p90"))]
    if spec.limit_hit is not None:
        fields.append((f"games at the limit ({spec.limit_label})", "limit", True))
    fields.append(("shared wins", "shared_win", True))
    if len(plan.labels) > 1:
        fields.append(("win-rate spread between strategies", "spread", True))
    shown = {key for _, key, _ in fields} | {"win", "advantage", "seat", "score", "mean", "games", "players"}
    for item in [*plan.goals, *plan.constraints]:    # what the goals read, e.g. the share of bankrupt players
        for key in sorted(expression_names(item.expression, item.text) - shown):
            fields.append((key if key in RATE_FIELDS or key.startswith("length") else f"{key} (mean per player)", key,
                           key in RATE_FIELDS or key in plan.shares))
            shown.add(key)
    for name, namespace in zip(names, namespaces):
        column = {}
        for label, key, rate in fields:
            column[label] = _cell(*interval(namespace[key]), rate=rate, signed=key == "first_seat")
        for label in plan.labels:
            column[f"win rate of {label}"] = _cell(*interval(namespace["win"][label]), rate=True)
        rows[name] = column
    cards = pd.DataFrame(rows).rename_axis("fact").reset_index()
    seats = pd.concat({name: seat_advantage(frame)[["win", "win_advantage", "win_advantage_low", "win_advantage_high"]]
                       for name, frame in zip(names, frames)}, names=["rules", "seat"]).reset_index()
    length = None
    if spec.length_column:   # each rule set's length distribution on common bins (at most 40, whole widths)
        lengths = [frame.loc[frame["seat"] == 0, spec.length_column].to_numpy(float) for frame in frames]
        low, high = np.floor(np.percentile(np.concatenate(lengths), [0.5, 99.5])) + [0, 1]
        edges = np.arange(low, high + 1, max(1.0, np.ceil((high - low) / 40))) - 0.5
        parts = [pd.DataFrame({"rules": name, "low": edges[:-1], "high": edges[1:],
                               "share": np.histogram(np.clip(values, edges[0], edges[-1]), edges)[0] / len(values)})
                 for name, values in zip(names, lengths)]
        length = pd.concat(parts, ignore_index=True)
    return cards, seats, length


def _trials_table(plan: _Plan, study) -> pd.DataFrame:
    import optuna

    rows = []
    for trial in study.get_trials(deepcopy=False):
        attrs = trial.user_attrs.get("simkit")
        if attrs is None:
            continue
        row = {"trial": trial.number, "round": attrs.get("round"), **attrs.get("values", {})}
        for g in plan.goals:
            v = attrs.get("goals", {}).get(g.column, [math.nan] * 3)
            row.update({g.column: v[0], f"{g.column}_low": v[1], f"{g.column}_high": v[2]})
        for c in plan.constraints:
            v = attrs.get("constraints", {}).get(c.column, [math.nan] * 3)
            values = sorted(_unslack(c, x) for x in v[1:])
            row.update({c.column: _unslack(c, v[0]), f"{c.column}_low": values[0], f"{c.column}_high": values[1]})
        if plan.constraints:
            row["feasible"] = bool(trial.state == optuna.trial.TrialState.COMPLETE and _feasible(attrs))
        row["refused"] = attrs.get("error") or ""
        rows.append(row)
    table = pd.DataFrame(rows)
    if len(table) and not table["refused"].astype(bool).any():
        table = table.drop(columns="refused")
    return table


def _trial_facts(study) -> pd.DataFrame:
    """A few of the card's facts of every trial (estimates on the search's deals)."""
    rows = [{"trial": t.number, **{QUICK_FIELDS[k]: v for k, v in t.user_attrs["simkit"].get("quick", {}).items()}}
            for t in study.get_trials(deepcopy=False) if "simkit" in t.user_attrs]
    return pd.DataFrame(rows)


def _findings(plan: _Plan, budget, state, trials, names, values, changes, verdicts, winner, note, deals, seed,
              balance_command) -> list[str]:
    who = (f"the line-up {', '.join(s.label for s in plan.lineup)}" if plan.mix is None else
           f"a population of {plan.players} players drawn from " + ", ".join(f"{s.label} {share:.0%}"
                                                                         for s, share in plan.mix))
    points = math.prod(len(v) for v in plan.grid.values()) if plan.grid else 0
    sampler = {"cmaes": "CMA-ES", "tpe": "TPE", "nsga2": "NSGA-II", "random": "random search",
               "grid": f"every point of the grid ({points})"}[plan.sampler]
    lines = [f"Searched {', '.join(d.text() for d in plan.dims)} with {sampler} for "
             + "; ".join(f"{g.text} ({g.meaning})" for g in plan.goals)
             + (f", subject to {', '.join(c.text for c in plan.constraints)}" if plan.constraints else "")
             + f": {state['trials']} trials in {state['round']} rounds of up to {plan.round_size}, each "
             f"{games_played(plan.trial_deals, plan.players)}, every trial on the same deals, by {who}; "
             f"{state['games']:,} games searching (a trial repeating a rule set is not played again)."]
    base = state["baseline"]
    if base:
        lines.append("The default rules on the search's deals: " + "; ".join(
            f"{g.text} {_cell(*base['goals'][g.column], rate=g.rate)}" for g in plan.goals) + ".")
    if note:
        lines.append(f"Note: {note}.")
    lines.append(f"Re-evaluated on fresh deals ({games_played(deals, plan.players)} for each rule set, the same "
                 "deals for all, 95% bootstrap intervals over deals, the difference from the default paired):")
    default = verdicts["default"]
    for name, change in zip(names[1:], changes):
        parts = []
        for text, v in verdicts[name].items():
            value = _cell(v["value"], v["value_low"], v["value_high"], rate=v["rate"])
            if v["role"] == "goal":
                d = default[text]
                base = _cell(d["value"], d["value_low"], d["value_high"], v["rate"])
                parts.append(f"{text} {value} (default {base}; difference "
                             f"{_cell(v['diff'], v['diff_low'], v['diff_high'], v['rate'], True)}: {v['verdict']})")
            else:
                parts.append(f"{text}: {value} ({v['verdict']})")
        lines.append(f"{name} ({changes_text(change)}): " + "; ".join(parts) + ".")
    if winner is not None:
        lines.append(f"Winner: {winner['name']} ({changes_text(_changes(plan, winner['values']))}): its interval "
                     "separates it from the default rules" + (" on at least one goal, and it is worse on none"
                                                             if len(plan.goals) > 1 else "") + ".")
    else:
        goal = plan.goals[0]
        ahead = [name for name in names[1:] if goal.sign * verdicts[name][goal.text]["diff"] < 0]
        lines.append("No winner: no candidate's re-evaluated interval separates it from the default rules in its "
                     "favour" + (" (better on one goal and worse on none)" if len(plan.goals) > 1 else "") + ". "
                     + ("With these games the search cannot tell its best rules from the default; more --games, or "
                        "a wider range, might." if ahead else "The default rules are as good as any candidate found "
                        f"on {goal.text}."))
    lines.append("Use a candidate: --rules candidate-K.toml (in the results directory)"
                 + (f"; `{balance_command} --rules candidate-K.toml` prints its full balance card on the "
                    "re-evaluation's games." if balance_command else "."))
    return lines


def _cell(value, low, high, rate: bool = False, signed: bool = False) -> str:
    """An estimate and its interval as reports show them (``24.5% [24.3, 24.8]``)."""
    from simkit.reports.format import present

    name = ("win" if rate else "value") + ("_diff" if signed else "")
    if not (np.isfinite(low) and np.isfinite(high)) or low == high:    # no width to take the decimals from
        return present(pd.DataFrame({name: [value]})).iloc[0, 0]
    return present(pd.DataFrame({name: [value], f"{name}_low": [low], f"{name}_high": [high]})).iloc[0, 0]


def _candidate_toml(plan: _Plan, name: str, values: dict, changes, verdict: dict, balance_command) -> str:
    """The candidate's rules as a rules file: every value that differs from the game's defaults (the search's
    base rules included), ready for ``--rules``."""
    import tomli_w

    from ..rules import overlay_of

    rules = plan.rules_for(values)
    overlay = overlay_of(plan.spec.default_rules, rules) or {}
    lines = [f"# {plan.spec.title}: {name} of a rule search (simkit design)",
             f"# changed by the search: {changes_text(changes)}"]
    for text, v in verdict.items():
        lines.append(f"# {text}: {_cell(v['value'], v['value_low'], v['value_high'], v['rate'])}"
                     + (f", {v['verdict']}" if v["verdict"] else ""))
    lines.append(f"# use: simkit balance {plan.spec.name} --rules {name}.toml"
                 + (f" (the re-evaluation's games: {balance_command} --rules {name}.toml)" if balance_command else ""))
    return "\n".join(lines) + "\n" + tomli_w.dumps(overlay)


def _retuned(plan: _Plan, family: str, entries, params, budget, name: str, values: dict, deals: int,
             seed: int) -> dict:
    """Re-tune ``family`` under candidate ``name``'s rules and under the default rules (the tuner, the same
    search seeds), then judge the goals again with the re-tuned players on the re-evaluation's deals."""
    from ..rules import overlay_of
    from .tune import tune

    seats = list(plan.lineup)
    start = seats[entries[0]]
    self_play = len(entries) == len(seats)
    field = None if self_play else [seat for i, seat in enumerate(seats) if i not in entries]
    weights = _validation_weights(plan, deals)
    judged, tuned_labels = [], []
    for rules in (plan.rules, plan.rules_for(values)):
        tuned = tune(plan.spec.name, start, params=params, field=field, self_play=self_play, players=len(seats),
                     budget=budget, games=deals * plan.players, seed=plan.seed,
                     rules=overlay_of(plan.spec.default_rules, rules) or {}, workers=plan.workers, progress=False)
        lineup = [Seat(start.strategy, {**start.overrides, **tuned.best}) if i in entries else seat
                  for i, seat in enumerate(seats)]
        frame = replace(plan, lineup=tuple(lineup)).play([rules], seed, deals)[0][0]
        # the re-tuned seats keep their strategy's label, so goals over win[...] still name them
        frame["strategy"] = frame["strategy"].replace({lineup[i].label: seats[i].label for i in entries})
        judged.append(plan.judge(plan.namespace(frame, weights)))
        tuned_labels.append(lineup[entries[0]].label)
    rows, lines = [], []
    for g in plan.goals:
        base, candidate = judged[0]["goals"][g.column], judged[1]["goals"][g.column]
        row = {"goal": g.text}
        for label, array in (("default_retuned", base), ("candidate_retuned", candidate), ("diff", candidate - base)):
            estimate, low, high = interval(array)
            row.update({label: estimate, f"{label}_low": low, f"{label}_high": high})
        rows.append(row)
        decided, verdict = _verdict(g, row["diff_low"], row["diff_high"], row["diff"], plan)
        cells = [_cell(*(row[f"{label}{end}"] for end in ("", "_low", "_high")), g.rate, label == "diff")
                 for label in ("candidate_retuned", "default_retuned", "diff")]
        lines.append(f"Re-tuned players ({family} tuned under each rule set: default -> {tuned_labels[0]}, {name} "
                     f"-> {tuned_labels[1]}): {g.text} {cells[0]} against the default's {cells[1]}; difference "
                     f"{cells[2]}: {verdict} with re-tuned players" + ("" if decided.sign > 0 else
                                                           " (its advantage does not survive players who adapt)") + ".")
    return {"table": pd.DataFrame(rows), "findings": lines}
