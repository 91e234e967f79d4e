"""The verdict of a rule search (``simkit.analysis.design``): the candidates and the default rules played again
on fresh deals, each goal's paired difference from the default, the winner (if one separates), the balance
cards side by side, the findings and the candidates' rules files, and the re-tuned check."""
from __future__ import annotations

import json
import math
from dataclasses import replace

import numpy as np
import pandas as pd

from simkit.reports.format import present
from simkit.reports.format import rule_value as shown

from ..errors import SimkitError
from ..rules import overlay_of, rule_value
from ..strategy import Seat
from .activity import first_lines, probe_strategies
from .design_search import _completed, _front, select_candidates
from .design_space import QUICK_FIELDS, _feasible, _Plan
from .goals import RATE_FIELDS, Goal, bootstrap_weights, expression_names, interval
from .paired import seat_advantage
from .play import deals_for
from .result import Judged, games_played, judge, negligible_of
from .search import SearchResult, derived_seed
from .tune import tune

VALIDATION_REPLICATES = 1000  # bootstrap resamples of the re-evaluation's deals


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



# -- re-evaluation and report -----------------------------------------------------------------------------------
def _changes(plan: _Plan, values: dict) -> list[tuple[str, object, object]]:
    return [(key, rule_value(plan.rules, key), value) for key, value in values.items()
            if rule_value(plan.rules, key) != value]


def changes_text(changes) -> str:
    """``key: default -> value; ...`` (or "the default rules")."""
    if not changes:
        return "the default rules"
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
    beaten = beaten_by(plan, names, verdicts, judged) if len(plan.goals) > 1 else {}
    winner, contenders = _winner(plan, names, verdicts, values, beaten)
    balance_command = (f"simkit balance {spec.name} --players {','.join(s.label for s in plan.lineup)} "
                       f"--games {deals * plan.players} --seed {seed}" if plan.mix is None else None)
    files = {f"{name}.toml": _candidate_toml(plan, name, v, c, verdicts[name], balance_command)
             for name, v, c in zip(names[1:], values, changes)}
    findings = _findings(plan, budget, state, trials, names, values, changes, verdicts, winner, note, deals, seed,
                         balance_command, contenders, beaten)
    findings = _identical_play(plan, trials) + findings
    probe = probe_strategies(spec.name, list(plan.lineup), plan.seed, sets, rules) if plan.mix is None else None
    varied = {dim.name for dim in plan.dims}
    searched = [c for c in spec.rule_changes(plan.rules) if c[0] not in varied] + \
        [(dim.name, "varied by the search") for dim in plan.dims]
    findings = first_lines(spec, None, None, frames, probe, searched, played=[plan.rules]) + findings
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
             "winner": winner, "contenders": contenders, "games_searching": state["games"]}
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


def _better_worse(goal: Goal, low: float, high: float, diff: float, plan: _Plan) -> tuple[bool, bool]:
    """Whether a paired interval of (one rule set - another) on ``goal`` makes the first better by more than a
    negligible margin, and whether it makes it worse by any margin (a small loss still counts against a change)."""
    judged, _ = _verdict(goal, low, high, diff, plan)
    return judged.sign > 0 and not judged.small, judged.sign < 0


def beaten_by(plan: _Plan, names, verdicts, judged) -> dict[str, list[tuple[str, list[str]]]]:
    """Pareto dominance with intervals among the candidates whose constraints hold: candidate B beats A when the
    paired interval of B - A (the same deals and resamples) shows B better on at least one goal and worse on
    none. Returns, per candidate, the candidates that beat it and the goals they are better on."""
    usable = [k for k, name in enumerate(names) if k and not any(
        v["role"] == "constraint" and v["verdict"] == "broken" for v in verdicts[name].values())]
    beaten = {names[k]: [] for k in range(1, len(names))}
    for a in usable:
        for b in usable:
            if a == b:
                continue
            better, worse = [], False
            for goal in plan.goals:
                diff, low, high = interval(judged[b]["goals"][goal.column] - judged[a]["goals"][goal.column])
                is_better, is_worse = _better_worse(goal, low, high, diff, plan)
                better += [goal.text] if is_better else []
                worse = worse or is_worse
            if better and not worse:
                beaten[names[a]].append((names[b], better))
    return beaten


def _winner(plan: _Plan, names, verdicts, values, beaten) -> tuple[dict | None, list[str]]:
    """The winner and the contenders. A contender is better than the default (by more than a negligible margin)
    on a goal, worse on none, with its constraints not broken. One goal: the winner is the contender with the
    best re-evaluated value. Several: the winner must also be Pareto-undominated with intervals (no candidate
    ``beaten_by`` it); when none or several contenders are, there is no single winner (None) and the contenders
    are returned for the findings to weigh."""
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
        return None, []
    if len(plan.goals) == 1:
        goal = plan.goals[0]
        name, value = min(eligible, key=lambda e: goal.sign * verdicts[e[0]][goal.text]["value"])
        return {"name": name, "values": value}, [name]
    undominated = [(name, value) for name, value in eligible if not beaten[name]]
    if len(undominated) == 1:
        name, value = undominated[0]
        return {"name": name, "values": value}, [name]
    return None, [name for name, _ in eligible]


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
              balance_command, contenders=(), beaten=None) -> list[str]:
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
    several = len(plan.goals) > 1
    if winner is not None:
        lines.append(f"Winner: {winner['name']} ({changes_text(_changes(plan, winner['values']))}): its interval "
                     "separates it from the default rules" + (" on at least one goal, it is worse on none, and no "
                                                             "other candidate beats it (better on a goal, worse on "
                                                             "none, paired)" if several else "") + ".")
    elif contenders:
        lines.append(_no_single_winner(contenders, beaten or {}))
    else:
        goal = plan.goals[0]
        ahead = [name for name in names[1:] if goal.sign * verdicts[name][goal.text]["diff"] < 0]
        lines.append("No winner: no candidate's re-evaluated interval separates it from the default rules in its "
                     "favour" + (" (better on one goal and worse on none)" if several else "") + ". "
                     + ("With these games the search cannot tell its best rules from the default; more --games, or "
                        "a wider range, might." if ahead else "The default rules are as good as any candidate found "
                        f"on {goal.text}."))
    lines.append("Use a candidate: --rules candidate-K.toml (in the results directory)"
                 + (f"; `{balance_command} --rules candidate-K.toml` prints its full balance card on the "
                    "re-evaluation's games." if balance_command else "."))
    return lines


def _no_single_winner(contenders: list[str], beaten: dict) -> str:
    """Several goals, no single winner: each contender beats the default, but another candidate beats it, or
    several contenders stand undominated and the choice between them is a trade-off."""
    free = [name for name in contenders if not beaten.get(name)]
    parts = [f"{name} is beaten by " + ", ".join(f"{other} (better on {' and '.join(goals)}, worse on none)"
                                                 for other, goals in beaten[name])
             for name in contenders if beaten.get(name)]
    if len(free) > 1:
        parts.append(f"{_and(free)} are each beaten by no other candidate: choosing between them is a trade-off "
                     "between the goals, not a winner")
    return (f"No single winner: {_and(contenders)} {'is' if len(contenders) == 1 else 'are each'} better than the "
            "default rules on a goal and worse on none, but " + "; ".join(parts) + " (paired intervals on the "
            "re-evaluation's deals).")


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _cell(value, low, high, rate: bool = False, signed: bool = False) -> str:
    """An estimate and its interval as reports show them (``24.5% [24.3, 24.8]``)."""
    name = ("win" if rate else "value") + ("_diff" if signed else "")
    if not (np.isfinite(low) and np.isfinite(high)) or low == high:    # no width to take the decimals from
        return present(pd.DataFrame({name: [value]})).iloc[0, 0]
    return present(pd.DataFrame({name: [value], f"{name}_low": [low], f"{name}_high": [high]})).iloc[0, 0]


def _candidate_toml(plan: _Plan, name: str, values: dict, changes, verdict: dict, balance_command) -> str:
    """The candidate's rules as a rules file: every value that differs from the game's defaults (the search's
    base rules included), ready for ``--rules``."""
    import tomli_w

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
