"""Tuning a strategy's parameters by search: a best response to a fixed field, or self-play.

The search is Optuna's ask-and-tell loop run in rounds. Each round asks several trials at once (CMA-ES when
every tuned parameter is continuous, TPE when some are whole numbers or choices) and plays them, and the
incumbent (the best configuration so far), on the same deals under every seat rotation: common random
numbers, so a trial's value is the incumbent's running mean plus the trial's paired difference from the
incumbent on those deals, which removes the deals' own luck from the comparison. Noise is handled three
ways: the incumbent is re-played every round (its mean sharpens, and a lucky one is found out); a trial
replaces it only when its paired difference is significant at 20% after a Bonferroni correction for the
round's trials (otherwise the best of 8 equal trials would look better by chance in most rounds); and when
the trials of a round can no longer be told apart (their spread is under twice the noise of one trial) the
games per trial double.

When the budget is spent, the best few trials race on fresh seeds with more games and the winner is
validated against the starting preset on fresh seeds again (a paired, seat-rotated comparison with a 95%
interval), so neither the search's luck nor the race's is reported as strength.

``--field``: the tuned seat plays against that fixed line-up (a best response within the family), and the
report says for each strategy of the field whether the best response beats it significantly. ``--self-play``:
iterated best response in stages: stage 1 tunes against copies of the starting preset, each later stage
against copies of the previous stage's best.

Every trial's random streams are fixed by (seed, stage, round) and every sampler by (seed, stage, trial
number), so the same seed gives the same history, and a run killed at any point continues from its Optuna
SQLite storage to the same history as an uninterrupted run (a round cut short is played again).
"""
from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd

from simkit.reports.format import interval_text, rate_interval
from simkit.reports.order import sort_tables

from ..errors import SimkitError
from ..games import get_game
from ..inputs import check_trial_sizes, declared_space, parse_space  # noqa: F401  (re-exported)
from ..runner import make_batch
from ..strategy import Seat, parse_lineup, parse_seat, seat_spec
from .activity import first_lines, probe_strategies
from .paired import paired_tables
from .play import Job, block_outcomes, deals_for, play_jobs, rotate
from .result import points
from .search import (
    Budget,
    Dimension,
    Progress,
    SearchResult,
    ask,
    derived_seed,
    format_number,
    make_sampler,
    open_storage,
    open_study,
    parse_budget,
    searching,
    tell,
)
from .stats import block_means, paired, z_for

SAMPLERS = ("auto", "cmaes", "tpe", "random")
OBJECTIVES = ("win", "score")
TPE_ROUND = 8          # trials asked at once by TPE (CMA-ES asks one population)
FINALISTS = 4          # trials that race on fresh seeds at the end of a stage (besides the incumbent)
PROMOTE_ALPHA = 0.2    # a trial replaces the incumbent when its paired difference is significant at this level,
                       # Bonferroni-corrected for the trials of the round
GROW_SNR = 2.0         # grow the games per trial when the trials' spread is under this many s.e.


def _entry0(frame: pd.DataFrame, objective: str) -> pd.Series:
    """Per deal (game index), the tuned entry's outcome averaged over the seat rotations."""
    return block_outcomes(frame, "entry")[objective][0]


@dataclass
class _Setup:
    game: str
    start: Seat
    dims: list[Dimension]
    field: list[Seat] | None       # None: self-play
    players: int
    seed: int
    base: object                   # a validated Batch of the starting line-up (rules prepared once)
    objective: str
    round_size: int
    sampler: str
    trial_deals: int
    max_deals: int
    workers: int

    def seat(self, values: dict) -> Seat:
        return Seat(self.start.strategy, {**self.start.overrides, **{k: float(v) for k, v in values.items()}})

    def rotations(self, seats: list[Seat], seed: int) -> tuple:
        return tuple(replace(self.base, seats=tuple(rotate(seats, r)), seed=seed) for r in range(len(seats)))

    def lineup(self, seat: Seat, field: list[Seat]) -> list[Seat]:
        return [seat, *field]

    def start_values(self) -> dict:
        values = self.start.values
        return {d.name: d.clip(values[d.name]) for d in self.dims}


def _config(setup: _Setup, stage: int, rules: dict) -> dict:
    """What determines a stage's history (not the budget: a larger one continues a finished run)."""
    return json.loads(json.dumps({
        "game": setup.game, "start": setup.start.label, "space": [d.text() for d in setup.dims],
        "field": None if setup.field is None else [s.label for s in setup.field], "players": setup.players,
        "seed": setup.seed, "stage": stage, "objective": setup.objective, "round_size": setup.round_size,
        "sampler": setup.sampler, "trial_deals": setup.trial_deals, "max_deals": setup.max_deals, "rules": rules,
    }, default=str))


def _open_study(store, name: str, config: dict, setup: _Setup, first: dict):
    study = open_study(store, name, config, ["maximize"], "tuning")
    if "state" not in study.user_attrs and not study.trials and setup.sampler != "cmaes":
        study.enqueue_trial(first)   # TPE and random search try the stage's start first (CMA-ES: the middle)
    return study


class _Stage:
    """One Optuna study: search rounds until the budget is spent, then the race of the finalists."""

    def __init__(self, setup: _Setup, stage: int, field: list[Seat], study, budget: Budget, bar, first: dict):
        self.setup, self.stage, self.field, self.study, self.budget, self.bar = setup, stage, field, study, budget, bar
        self.state = study.user_attrs.get("state") or {
            "round": 0, "first_trial": 0, "first_game": 0, "deals": setup.trial_deals, "games": 0, "seconds": 0.0,
            "trials": 0, "incumbent": {"values": first, "sum": 0.0, "deals": 0}, "rounds": [],
            "done": False}

    def _sampler(self, number: int):
        """The sampler for trial ``number``: seeded by (seed, stage, number), so asking it again after a kill
        gives the same parameters."""
        return make_sampler(self.setup.sampler, derived_seed(self.setup.seed, "sampler", self.stage, number),
                            self.setup.round_size)

    def run_round(self) -> bool:
        count = self.budget.round_size(self.state, self.setup.round_size, self.state["deals"] * self.setup.players, 1)
        if count == 0:
            return False
        started = time.perf_counter()
        setup, state = self.setup, self.state
        numbers = ask(self.study, state["first_trial"], count, setup.dims, self._sampler)
        frozen = {t.number: t for t in self.study.get_trials(deepcopy=False)}
        values = [frozen[n].params for n in numbers]
        seed = derived_seed(setup.seed, "search", self.stage)
        first, deals = state["first_game"], state["deals"]
        incumbent = state["incumbent"]
        jobs = [Job(setup.rotations(setup.lineup(setup.seat(v), self.field), seed), first, deals)
                for v in [*values, incumbent["values"]]]
        frames = play_jobs(jobs, setup.workers)
        inc = _entry0(frames[-1], setup.objective)
        inc_sum, inc_deals = incumbent["sum"] + float(inc.sum()), incumbent["deals"] + len(inc)
        inc_mean = inc_sum / inc_deals
        rows = []
        for number, frame in zip(numbers, frames[:-1]):
            outcome = _entry0(frame, setup.objective)
            diff = (outcome - inc).to_numpy()
            se = diff.std(ddof=1) / math.sqrt(len(diff)) if len(diff) > 1 else 0.0
            rows.append({"number": number, "raw": float(outcome.mean()), "diff": float(diff.mean()), "se": float(se),
                         "value": inc_mean + float(diff.mean())})
        for row in rows:
            attrs = {"stage": self.stage + 1, "round": state["round"], "first_game": first, "deals": deals,
                     "raw": row["raw"], "diff_vs_incumbent": row["diff"], "diff_se": row["se"]}
            tell(self.study, row["number"], row["value"], attrs)
        best = max(rows, key=lambda r: r["diff"])
        promoted = best["diff"] > 0 and best["diff"] > z_for(2 * PROMOTE_ALPHA / len(rows)) * best["se"]
        spread = float(np.std([r["diff"] for r in rows], ddof=1)) if len(rows) >= 3 else math.inf
        noise = math.sqrt(float(np.mean([r["se"] ** 2 for r in rows])))
        grow = spread < GROW_SNR * noise
        state["rounds"].append({"stage": self.stage + 1, "round": state["round"], "first_game": first, "deals": deals,
                                "games_per_trial": deals * setup.players, "trials": len(rows),
                                "incumbent": setup.seat(incumbent["values"]).label, "incumbent_round": float(inc.mean()),
                                "incumbent_mean": inc_mean, "incumbent_deals": inc_deals,
                                "best_value": max(r["value"] for r in rows), "trial_spread": spread if
                                math.isfinite(spread) else None, "trial_noise": noise, "promoted": promoted})
        if promoted:
            state["incumbent"] = {"values": frozen[best["number"]].params,
                                  "sum": best["raw"] * deals, "deals": deals}
        else:
            state["incumbent"] = {**incumbent, "sum": inc_sum, "deals": inc_deals}
        games = (len(rows) + 1) * deals * setup.players
        state.update(round=state["round"] + 1, first_trial=max(numbers) + 1, first_game=first + deals,
                     deals=min(2 * deals, setup.max_deals) if grow else deals, games=state["games"] + games,
                     trials=state["trials"] + len(rows), seconds=state["seconds"] + time.perf_counter() - started)
        self.study.set_user_attr("state", state)
        self._progress(len(rows), games, time.perf_counter() - started)
        return True

    def _progress(self, trials: int, games: int, seconds: float) -> None:
        inc = self.state["incumbent"]
        self.bar.advance(trials, games, seconds, f"stage {self.stage + 1} best {self.setup.seat(inc['values']).label} "
                                                 f"({inc['sum'] / max(inc['deals'], 1):.3f})")

    # -- end of the stage ---------------------------------------------------------------------------------
    def finish(self) -> dict:
        """Race the finalists on fresh seeds and return the state with ``best`` (values) and ``selection``."""
        import optuna

        state, setup = self.state, self.setup
        if state.get("done"):
            return state
        trials = [t for t in self.study.get_trials(deepcopy=False) if t.state == optuna.trial.TrialState.COMPLETE]
        ranked = sorted(trials, key=lambda t: (-t.value, t.number))
        candidates = {setup.seat(state["incumbent"]["values"]).label: (state["incumbent"]["values"], "incumbent")}
        for trial in ranked:
            if len(candidates) > FINALISTS:
                break
            candidates.setdefault(setup.seat(trial.params).label, (trial.params, f"trial {trial.number}"))
        deals = max(2 * state["deals"], setup.trial_deals)
        seed = derived_seed(setup.seed, "race", self.stage)
        labels = list(candidates)
        frames = play_jobs([Job(setup.rotations(setup.lineup(setup.seat(candidates[label][0]), self.field), seed), 0,
                               deals) for label in labels], setup.workers)
        outcomes = pd.concat({label: _entry0(frame, setup.objective) for label, frame in zip(labels, frames)}, axis=1)
        means = block_means(outcomes)
        chosen = means["mean"].idxmax()
        rows = [{"stage": self.stage + 1, "candidate": label, "from": candidates[label][1],
                 "games": deals * setup.players, "mean": means.loc[label, "mean"], "low": means.loc[label, "low"],
                 "high": means.loc[label, "high"], "chosen": label == chosen} for label in labels]
        state.update(selection=rows, best=candidates[chosen][0], done=True,
                     games_race=len(labels) * deals * setup.players)
        self.study.set_user_attr("state", state)
        return state


class TuneResult(SearchResult):
    """A tuning analysis: tables ``best`` (per tuned parameter: start and best value, range), ``trials``
    (every trial), ``rounds``, ``selection`` (the final race), ``validation`` (best vs start, paired) and,
    against a field, ``margin_over_field`` (not an exploitability: see simkit.analysis.exploitability)."""

    @property
    def best(self) -> dict:
        """The best parameter values (the tuned ones; the rest stay at the starting preset's)."""
        return dict(self.setup["best"])

    @property
    def best_spec(self) -> str:
        """The best as a line-up entry, e.g. ``threshold:points=27:patience=12``."""
        return self.setup["best_spec"]


def _stage_names(study_name: str, stages: int, self_play: bool) -> list[str]:
    return [study_name] if not self_play else [f"{study_name}-stage{s + 1}" for s in range(stages)]


def tune(game: str, strategy: str, params=None, field=None, self_play: bool = False, players: int | None = None,
         budget="200", trial_games: int = 400, max_trial_games: int = 6400, games: int = 10_000, seed: int = 0,
         sets=(), rules=None, objective: str = "win", sampler: str = "auto", round_size: int | None = None,
         stages: int = 3, workers: int = 1, storage=None, study_name: str = "tune", progress=None) -> TuneResult:
    """Tune ``strategy``'s parameters (a registered name or ``module:attr``, with ``:k=v`` for the starting
    values) for the highest win rate (``objective="score"``: mean score) of one seat.

    params: ``"k=lo:hi[:log|int],k=v1|v2,..."`` (default: every parameter the strategy declares a range for).
    field: the fixed other seats (a line-up string or list): a best response to them, every deal in every
    seat order; or self_play with ``players`` seats (stages of iterated best response). budget: ``"200"``
    trials, ``"500000 games"`` or ``"10 minutes"`` (for the search; the final race and the validation come on
    top). trial_games: games per trial at the start (rounded up to whole deals, each in every seat order),
    doubling as the search narrows up to max_trial_games. games: games per side of the validation of the best
    against the start on fresh seeds. storage: an SQLite file (or Optuna storage URL) that makes the run
    resumable; study_name names it inside. Returns a TuneResult (an Analysis of kind ``tune``)."""
    spec = get_game(game)
    start = parse_seat(spec.name, strategy) if isinstance(strategy, str) else parse_lineup(spec.name, [strategy])[0]
    family = start.strategy
    dims = parse_space(params, family) if params not in (None, "", []) else declared_space(family)
    if (field is None or field == [] or field == "") == (not self_play):
        raise SimkitError("tune needs exactly one of --field LINE-UP (tune a best response to it) and --self-play")
    if objective not in OBJECTIVES:
        raise SimkitError(f"objective must be one of {', '.join(OBJECTIVES)}, not {objective!r}")
    if sampler not in SAMPLERS:
        raise SimkitError(f"--sampler must be one of {', '.join(SAMPLERS)}, not {sampler!r}")
    budget = parse_budget(budget)
    for name, value, least in (("trial_games", trial_games, 1), ("max_trial_games", max_trial_games, 1),
                               ("stages", stages, 1), ("round_size", round_size or 1, 1)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < least:
            raise SimkitError(f"--{name.replace('_', '-')} must be a whole number of at least {least}, not {value!r}")
    check_trial_sizes(trial_games, max_trial_games, games)
    field_seats = parse_lineup(spec.name, field) if not self_play else None
    n = len(field_seats) + 1 if field_seats is not None else (players or len(spec.default_lineup))
    if players is not None and n != players:
        raise SimkitError(f"--players {players} does not match the field: the tuned seat and {n - 1} others")
    spec.check_player_count(n)
    deals_for(games, n, True)
    rules_file, overrides = (rules, None) if isinstance(rules, (str, Path)) else (None, rules)
    base = make_batch(spec.name, 1, [start, *(field_seats or [start] * (n - 1))], seed, rules_file, list(sets), overrides)
    kind = sampler if sampler != "auto" else (
        "cmaes" if len(dims) >= 2 and all(d.continuous for d in dims) else "tpe")
    if kind == "cmaes" and (len(dims) < 2 or not all(d.continuous for d in dims)):
        raise SimkitError("--sampler cmaes needs two or more tuned parameters, all continuous (LO:HI or LO:HI:log); "
                          "use tpe")
    # a round is a batch of trials played at once: by default the sampler's own (CMA-ES's population), or one
    # trial per worker when there are more workers (docs/execution.md: what the batch size does to a search)
    size = round_size or max(4 + int(3 * math.log(len(dims))) if kind == "cmaes" else TPE_ROUND, workers)
    if kind == "cmaes" and size < 4:
        raise SimkitError(f"--parallel {size}: CMA-ES needs a population of at least 4")
    trial_deals = deals_for(trial_games, n, True)
    setup = _Setup(spec.name, start, dims, field_seats, n, int(seed), base, objective, size, kind, trial_deals,
                   max(trial_deals, deals_for(max_trial_games, n, True)), workers)
    stage_count = 1 if not self_play else stages
    if budget.unit == "trials" and budget.amount < stage_count:
        raise SimkitError(f"--budget {budget.text()}: fewer than one trial for each of the {stage_count} stages")
    if budget.unit == "games" and budget.amount < 2 * trial_deals * n * stage_count:
        raise SimkitError(f"--budget {budget.text()}: not enough for one trial per stage (a trial and the incumbent "
                          f"play {2 * trial_deals * n:,} games); give more games or fewer --trial-games")

    store = open_storage(storage)
    bar = Progress(budget, progress)
    with searching(store, storage, bar):
        return _search(setup, store, study_name, stage_count, self_play, budget, bar, games, rules, sets)


def _search(setup: _Setup, store, study_name, stage_count, self_play, budget, bar, games, rules, sets) -> TuneResult:
    """Every stage's search rounds and race, then the validation and the report."""
    stage_states, studies = [], []
    best_values = setup.start_values()
    for s, name in enumerate(_stage_names(study_name, stage_count, self_play)):
        opponents = setup.field if not self_play else [setup.seat(best_values)] * (setup.players - 1)
        # the first incumbent: the start, or in self-play the previous stage's best (which its copies play)
        study = _open_study(store, name, _config(setup, s, setup.base.rules), setup, best_values)
        stage = _Stage(setup, s, opponents, study, budget.share(stage_count, s), bar, best_values)
        bar.advance(stage.state["trials"], stage.state["games"], stage.state["seconds"])
        while stage.run_round():
            pass
        state = stage.finish()
        best_values = state["best"]
        stage_states.append((state, opponents))
        studies.append(study)
    bar.close()
    return _report(setup, stage_states, studies, budget, games, rules, sets, study_name)


def _report(setup: _Setup, stage_states, studies, budget: Budget, games: int, rules, sets, study_name) -> TuneResult:
    spec = get_game(setup.game)
    best_values = _rounded(setup, stage_states[-1][0]["best"])
    best = setup.seat(best_values)
    n = setup.players
    deals = deals_for(games, n, True)
    seed = derived_seed(setup.seed, "validation")
    start = setup.start
    if setup.field is not None:
        settings = [("against the field", setup.field, setup.field)]
    else:
        settings = [("among copies of the start", [start] * (n - 1), [start] * (n - 1)),
                    ("among copies of the best", [best] * (n - 1), [best] * (n - 1))]
    jobs = []
    for _, field_a, field_b in settings:
        jobs += [Job(setup.rotations([start, *field_a], seed), 0, deals), Job(setup.rotations([best, *field_b], seed), 0, deals)]
    frames = play_jobs(jobs, setup.workers)
    validation_rows = []
    for i, (label, _, _) in enumerate(settings):
        table = paired_tables(frames[2 * i], frames[2 * i + 1], "entry")
        table.columns = [f"{metric}_{name}" for metric, name in table.columns]
        row = table.loc[0]
        validation_rows.append({"setting": label, "games_per_side": int(deals * n), "win_start": row["win_a"],
                                "win_best": row["win_b"], "win_diff": row["win_diff"], "win_low": row["win_low"],
                                "win_high": row["win_high"], "score_start": row["score_a"], "score_best": row["score_b"],
                                "score_diff": row["score_diff"], "score_low": row["score_low"],
                                "score_high": row["score_high"], "var_reduction": row["win_var_reduction"]})
    validation = pd.DataFrame(validation_rows).set_index("setting")
    tables = {"best": _best_table(setup, best_values)}
    tables["trials"] = _trials_table(setup, studies)
    tables["rounds"] = pd.DataFrame([r for state, _ in stage_states for r in state["rounds"]])
    tables["selection"] = pd.DataFrame([r for state, _ in stage_states for r in state["selection"]]).rename(
        columns={"mean": "win_rate" if setup.objective == "win" else f"mean_{spec.score_column}"})
    tables["validation"] = validation
    if setup.field is not None:
        tables["margin_over_field"] = _margin_over_field(setup, frames[0], frames[1])
        tables = sort_tables("tune", tables)     # the findings list the field in the page's order
    searched = sum(state["games"] for state, _ in stage_states)
    raced = sum(state.get("games_race", 0) for state, _ in stage_states)
    trials = sum(state["trials"] for state, _ in stage_states)
    rounds = tables["rounds"]
    findings = [
        f"Tuned {len(setup.dims)} parameter{'s' * (len(setup.dims) > 1)} of {start.label} ({', '.join(d.text() for d in setup.dims)}) "
        f"with {'CMA-ES' if setup.sampler == 'cmaes' else setup.sampler.upper() if setup.sampler == 'tpe' else 'random search'}: "
        f"{trials} trials in {len(rounds)} rounds of up to {setup.round_size}, "
        f"{rounds['games_per_trial'].min():,}-{rounds['games_per_trial'].max():,} games per trial "
        f"(every deal in every seat order, all trials of a round and the incumbent on the same deals); "
        f"{searched:,} games searching, {raced:,} in the final race, {2 * len(settings) * deals * n:,} validating.",
        ("Objective: the tuned seat's win rate (a tie counts as a win for every tied seat)" if setup.objective == "win"
         else f"Objective: the tuned seat's mean {spec.score_column}")
        + (f" against the field {', '.join(s.label for s in setup.field)}." if setup.field is not None else
           f" in self-play at {n} players: {len(stage_states)} stage(s) of iterated best response, each against "
           f"copies of the previous stage's best (the first against copies of {start.label})."),
        f"Best: {best.label} (the race on fresh seeds: {_race_line(stage_states[-1][0]['selection'], setup.objective)}).",
    ]
    probe = probe_strategies(spec.name, [seat.label for seat in setup.base.seats], setup.base.seed,
                             rules=setup.base.rules)
    findings = first_lines(spec, spec.default_rules, setup.base.rules, frames, probe) + findings
    if best.label == start.label:
        findings.append("The search kept the start: no trial beat it in the race on fresh seeds, so the validation "
                        "below compares the start with itself.")
    for label, row in validation.iterrows():
        verdict = ("better than the start" if row["win_low"] > 0 else "worse than the start" if row["win_high"] < 0
                   else "not significantly different from the start")
        findings.append(f"Validation {label} ({int(row['games_per_side']):,} games per side, fresh seeds, paired): win rate "
                        f"{row['win_start']:.1%} -> {row['win_best']:.1%}, best - start = "
                        f"{points(row['win_diff'], row['win_low'], row['win_high'])}: {verdict}.")
    if "margin_over_field" in tables:
        for label, row in tables["margin_over_field"].iterrows():
            verdict = ("the best response beats it significantly" if row["beaten"] else
                       "it still wins significantly more than the best response" if row["best_win_diff_high"] < 0 else
                       "no significant difference")
            findings.append(f"Margin over {label}: the best response wins {row['best_win']:.1%} to its "
                            f"{row['their_win']:.1%} in the same games "
                            f"({points(*row[['best_win_diff', 'best_win_diff_low', 'best_win_diff_high']])}): {verdict} "
                            f"(the start's margin was "
                            f"{points(*row[['start_win_diff', 'start_win_diff_low', 'start_win_diff_high']])}).")
    if (validation["win_high"] < 0).any():
        # the race picked a finalist by luck: its games could not tell such close trials apart
        findings.append(f"Keep the start: the validation says the best found is worse than {start.label}; the final "
                        f"race ({_race_games(stage_states):,} games per finalist) could not tell the finalists apart. "
                        "More games per trial (--trial-games, --max-trial-games) separate them better.")
    findings.append(f"Use it: --players {seat_spec(best)},... (best.txt and best.toml in the results directory).")
    best_toml = _best_toml(setup, best, best_values)
    setup_record = {"game": setup.game, "strategy": start.label, "family": start.strategy.name,
                    "space": [d.text() for d in setup.dims], "field": None if setup.field is None else
                    [s.label for s in setup.field], "self_play": setup.field is None, "players": n, "budget": budget.text(),
                    "sampler": setup.sampler, "round_size": setup.round_size, "objective": setup.objective,
                    "seed": setup.seed, "sets": list(sets), "rules": rules, "validation_games": deals * n,
                    "study_name": study_name, "best": {k: float(v) for k, v in best_values.items()},
                    "best_spec": seat_spec(best), "games_searching": searched}
    title = f"{spec.title}: tuning {start.label}" + (" (best response)" if setup.field is not None else " (self-play)")
    return TuneResult("tune", title, setup.game, tables, findings, setup_record,
                      files={"best.txt": seat_spec(best) + "\n", "best.toml": best_toml}, players=n,
                      details=("trials", "rounds", "selection"))


def _rounded(setup: _Setup, values: dict) -> dict:
    """The best with continuous values to 4 significant figures (what best.txt plays and the validation tests):
    a difference of 1 in 10,000 is far below what any number of games could tell apart."""
    dims = {d.name: d for d in setup.dims}
    return {k: float(f"{v:.4g}") if dims[k].continuous else v for k, v in values.items()}


def _race_games(stage_states) -> int:
    return next(r["games"] for r in stage_states[-1][0]["selection"])


def _race_line(selection: list[dict], objective: str) -> str:
    chosen = next(r for r in selection if r["chosen"])
    if objective == "win":
        shown = rate_interval(chosen["mean"], chosen["low"], chosen["high"])
    else:
        shown = interval_text(chosen["mean"], chosen["low"], chosen["high"])
    return (f"{shown} over "
            f"{chosen['games']:,} games, "
            f"ahead of {len(selection) - 1} other finalist{'s' * (len(selection) != 2)}")


def _best_table(setup: _Setup, best_values: dict) -> pd.DataFrame:
    start = setup.start_values()
    # the range as text: two numeric columns after "best" would read as its interval in a report
    rows = [{"parameter": d.name, "start": float(setup.start.values[d.name]), "best": float(best_values[d.name]),
             "range": "|".join(map(format_number, d.choices)) if d.scale == "choice" else
             f"{format_number(d.low)}..{format_number(d.high)}", "scale": d.scale, "start_in_range": float(start[d.name])}
            for d in setup.dims]
    return pd.DataFrame(rows).set_index("parameter")


def _trials_table(setup: _Setup, studies) -> pd.DataFrame:
    import optuna

    rows = []
    for study in studies:
        for trial in study.get_trials(deepcopy=False):
            if trial.state != optuna.trial.TrialState.COMPLETE:
                continue
            attrs = trial.user_attrs.get("simkit", {})
            rows.append({"stage": attrs.get("stage"), "trial": trial.number, "round": attrs.get("round"),
                         **{d.name: trial.params.get(d.name) for d in setup.dims}, "value": trial.value,
                         "raw": attrs.get("raw"), "diff_vs_incumbent": attrs.get("diff_vs_incumbent"),
                         "diff_se": attrs.get("diff_se"), "games": attrs.get("deals", 0) * setup.players,
                         "first_game": attrs.get("first_game")})
    return pd.DataFrame(rows)


def _margin_over_field(setup: _Setup, frame_start: pd.DataFrame, frame_best: pd.DataFrame) -> pd.DataFrame:
    """Per strategy of the field: the best response's win rate minus its, in the same games (and the start's).
    A margin over the field, not an exploitability: even the untuned start may have a large one."""
    rows = []
    labels = list(dict.fromkeys(s.label for s in setup.field))
    entries = {label: [i + 1 for i, s in enumerate(setup.field) if s.label == label] for label in labels}
    per_entry = {side: block_outcomes(frame, "entry")["win"] for side, frame in (("start", frame_start), ("best", frame_best))}
    for label in labels:
        row = {"strategy": label}
        for side, table in per_entry.items():
            theirs = table[entries[label]].mean(axis=1).to_frame("x")
            ours = table[[0]].set_axis(["x"], axis=1)
            result = paired(theirs, ours).iloc[0]
            row.update({f"{side}_win": result["b"], f"{side}_win_diff": result["diff"],
                        f"{side}_win_diff_low": result["low"], f"{side}_win_diff_high": result["high"]})
            if side == "best":
                row["their_win"] = result["a"]
        row["beaten"] = bool(row["best_win_diff_low"] > 0)
        rows.append(row)
    columns = ["strategy", "their_win", "best_win", "best_win_diff", "best_win_diff_low", "best_win_diff_high", "beaten",
               "start_win", "start_win_diff", "start_win_diff_low", "start_win_diff_high"]
    return pd.DataFrame(rows)[columns].set_index("strategy")


def _best_toml(setup: _Setup, best: Seat, best_values: dict) -> str:
    import tomli_w

    return tomli_w.dumps({"game": setup.game, "strategy": setup.start.strategy.name, "spec": seat_spec(best),
                          "params": {k: float(v) for k, v in best.values.items()},
                          "tuned": {k: float(v) for k, v in best_values.items()}})
