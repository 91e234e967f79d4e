"""The search of a rule search (``simkit.analysis.design``): rounds of Optuna trials played on the same deals
until the budget is spent, and the choice of the candidates to re-evaluate (the best, or the Pareto front)."""
from __future__ import annotations

import json
import math
import time

import numpy as np

from ..errors import SimkitError
from .design_space import _feasible, _is_number, _label, _Plan, _summary, _violation
from .goals import Goal, bootstrap_weights
from .search import ask, derived_seed, make_sampler, tell

REPLICATES = 200              # bootstrap resamples of each trial's deals


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

