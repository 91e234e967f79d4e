"""Re-tuned rule comparisons: how a rule change moves play between players who adapt to it.

A fixed bot plays the same way under both rule sets, so ``compare`` and ``balance`` measure what the change
does to *these* bots. But a rule change also changes what good play is. With ``retune``, every tunable
strategy of the line-up (or the ones named) is tuned under rules A and again under rules B
(``simkit.analysis.tune``, both searches on the same seeds), and the two tuned line-ups are compared, each
under its own rules, on the deals the fixed line-ups played, in every seat order (common random numbers).
The report puts the change in seat 0's advantage, in the strategy spread and in the game length for fixed
and for re-tuned players side by side, each with its interval and verdict.

The strategies are tuned one after another (the line-up's order), each as a best response to the rest of the
line-up as it stands (the strategies tuned before it play their tuned values): one round of iterated best
response. A strategy that holds every seat is tuned in self-play. Every seat of a re-tuned strategy plays the
tuned values; reports mark it with ``*`` (``builder*``) and say the values in a footnote.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

import pandas as pd

from ..errors import SimkitError
from ..games import get_game
from ..rules import changed_values
from ..strategy import Seat
from .activity import rule_activity
from .card import LIMIT, SEAT0, SPREAD, _card, _compare_cards, change_cell
from .play import Job, play_jobs, rotate
from .result import NOT_SIGNIFICANT, points
from .tune import declared_space, parse_space, tune

ALL = "all"                 # --retune with no value: every tunable strategy of the line-up
RETUNE_BUDGET = "100"       # trials per strategy and rule set (its time: docs/analysis.md, "Re-tuned players")
MARK = "*"


def retune_targets(seats, retune, params=None, players_b=None, seed_b=None) -> list[str]:
    """The line-up labels to re-tune (``retune``: "all", a comma-separated list or a list of labels or strategy
    names), checked before anything is played: each must be a seat of the line-up with a parameter to tune."""
    if players_b is not None:
        raise SimkitError("--retune compares rule sets (give --set-b), not two line-ups: leave out --players-b")
    if seed_b is not None:
        raise SimkitError("--retune needs paired seeds: leave out --seed-b")
    labels = list(dict.fromkeys(seat.label for seat in seats))
    strategy = {seat.label: seat.strategy for seat in seats}

    def tunable(label):
        try:
            parse_space(params, strategy[label]) if params not in (None, "", []) else declared_space(strategy[label])
            return True
        except SimkitError:
            return False

    if isinstance(retune, str) and retune.strip() == ALL:
        targets = [label for label in labels if tunable(label)]
        if not targets:
            raise SimkitError(f"--retune: no strategy of the line-up ({', '.join(labels)}) has a parameter to tune")
        return targets
    names = [part.strip() for part in (retune.split(",") if isinstance(retune, str) else retune) if str(part).strip()]
    if not names:
        raise SimkitError(f"--retune: give {ALL} or the strategies to re-tune, e.g. --retune=builder,kelly")
    targets = []
    for name in names:
        found = [label for label in labels if name in (label, strategy[label].name)]
        if not found:
            raise SimkitError(f"--retune {name}: no seat of line-up A plays it; line-up A: {', '.join(labels)}")
        for label in found:
            if params not in (None, "", []):
                parse_space(params, strategy[label])     # names the parameter the strategy lacks
            elif not tunable(label):
                others = [other for other in labels if tunable(other)]
                raise SimkitError(f"--retune {name}: strategy {strategy[label].name} has no parameter to tune (it "
                                  f"declares no ranges); tunable in this line-up: {', '.join(others) or 'none'}")
            targets.append(label)
    return list(dict.fromkeys(targets))


@dataclass
class Retuned:
    """Line-ups re-tuned under rules A and B. lineups: side -> seats; targets: the re-tuned labels; tuned:
    (side, label) -> TuneResult; short: entry -> the label reports show (``builder*`` for a re-tuned seat)."""

    lineups: dict
    targets: list
    tuned: dict
    short: dict
    self_play: dict

    def footnote(self) -> str:
        """``builder* = builder re-tuned: under A builder with reserve=269, under B builder with reserve=0`` for
        each (the specs spaced so that the findings wrap at 120 columns; the retuned_params table and the setup
        hold them as specs to copy)."""
        parts = []
        for label in self.targets:
            values = {side: _spaced(self.tuned[side, label].best_spec) for side in ("A", "B")}
            how = "in self-play" if self.self_play[label] else "as a best response to the rest of the line-up"
            if values["A"] == values["B"]:
                what = "kept its own values" if values["A"] == _spaced(label) else f"{values['A']} under both"
                parts.append(f"{label}{MARK} = {label} re-tuned {how}: {what}")
            else:
                parts.append(f"{label}{MARK} = {label} re-tuned {how}: under A {values['A']}; under B {values['B']}")
        return "Re-tuned players: " + "; ".join(parts) + "."


def _spaced(spec: str) -> str:
    """``builder:reserve=269:premium=2`` as ``builder with reserve=269, premium=2`` (a spec without values as it is)."""
    name, _, values = spec.partition(":")
    return f"{name} with {values.replace(':', ', ')}" if values else spec


def retune_lineups(game: str, seats, targets, params, budget, sets, sets_b, rules, seed: int, games: int,
                   workers: int, storage, study_name: str) -> Retuned:
    """Tune each target under rules A (``sets``) and under rules B (``sets`` then ``sets_b``), one after another
    as best responses to the line-up as it stands (self-play for one that holds every seat); ``games``: each
    tuner's validation games per side."""
    seats = list(seats)
    n = len(seats)
    lineups, tuned, self_play = {}, {}, {}
    for side, side_sets in (("A", list(sets)), ("B", [*sets, *sets_b])):
        lineup = list(seats)
        for k, label in enumerate(targets):
            entries = [i for i, seat in enumerate(seats) if seat.label == label]
            start = seats[entries[0]]
            self_play[label] = len(entries) == n
            field = None if self_play[label] else [lineup[i] for i in range(n) if i not in entries]
            result = tune(game, start, params=params, field=field, self_play=self_play[label], players=n,
                          budget=budget, games=games, seed=seed, sets=side_sets, rules=rules, workers=workers,
                          storage=storage, study_name=f"{study_name}-{side}-{k + 1}")
            for i in entries:
                lineup[i] = Seat(start.strategy, {**start.overrides, **result.best})
            tuned[side, label] = result
        lineups[side] = lineup
    short = {i: f"{seat.label}{MARK}" if seat.label in targets else seat.label for i, seat in enumerate(seats)}
    return Retuned(lineups, list(targets), tuned, short, self_play)


def play_retuned(retuned: Retuned, batch_a, batch_b, deals: int, workers: int) -> list[pd.DataFrame]:
    """Both re-tuned line-ups, each under its own rules, on deals 0..deals-1 in every seat order (every result
    column); the re-tuned seats carry their short label (``builder*``)."""
    n = len(retuned.short)
    jobs = [Job(tuple(replace(batch, seats=tuple(rotate(retuned.lineups[side], r))) for r in range(n)), 0, deals, "all")
            for side, batch in (("A", batch_a), ("B", batch_b))]
    frames = play_jobs(jobs, workers)
    for frame in frames:
        frame["strategy"] = frame["entry"].map(retuned.short)
    return frames


def retuned_report(spec, batches_ab, fixed: pd.DataFrame, retuned: Retuned, deals: int, seed: int, thresholds,
                   workers: int) -> tuple[dict, list[str], tuple]:
    """Play the re-tuned line-ups and judge the change for fixed and for re-tuned players side by side.
    ``batches_ab``: the rotations of A and of B (their rules); ``fixed``: the fixed players' headline changes
    (balance's ``changes`` table, on deals 0..deals-1). Returns (tables, findings, detail table names)."""
    n = len(retuned.short)
    frames = play_retuned(retuned, batches_ab[0][0], batches_ab[1][0], deals, workers)
    labels = [retuned.short[i] for i in range(n)]
    cards = [_card(spec, batch_list, frame, deals, labels) for batch_list, frame in zip(batches_ab, frames)]
    tuned_tables, _ = _compare_cards(spec, cards, deals, n, seed, thresholds)
    tuned = tuned_tables["changes"]
    side_by_side = pd.concat({"fixed": fixed, "re-tuned": tuned}, names=["players", "metric"]).swaplevel().loc[
        [(metric, players) for metric in fixed.index for players in ("fixed", "re-tuned")]]
    short = [_short_verdict(row) for _, row in side_by_side.iterrows()]
    side_by_side = side_by_side[["rate", "A", "B", "diff", "diff_low", "diff_high"]].assign(verdict=short)
    strategies = tuned_tables["strategies"]
    findings = [f"Re-tuned players ({', '.join(f'{label}{MARK}' for label in retuned.targets)}): "
                f"{_budget_text(retuned)}; then played on the same {deals:,} deals in every seat order as the fixed "
                "players."]
    findings += _retuned_activity(spec, batches_ab[0][0].rules, batches_ab[1][0].rules, frames)
    findings += [_metric_verdict(metric, fixed.loc[metric], tuned.loc[metric]) for metric in fixed.index]
    if len(strategies):
        findings.append("Win rate per strategy with re-tuned players, B - A: " + "; ".join(
            f"{label} {row['win_a']:.1%} -> {row['win_b']:.1%}, {points(row['win_diff'], row['win_low'], row['win_high'])}"
            for label, row in strategies.iterrows()) + ".")
    findings.append(retuned.footnote())
    findings.append(_search_check(retuned))
    tables = {"retuned": side_by_side, "retuned_strategy": strategies, "retuned_params": _params_table(retuned)}
    for (side, label), result in retuned.tuned.items():
        tables[f"retune_{side.lower()}_{re.sub(r'[^A-Za-z0-9-]+', '_', label)}_trials"] = result.trials
    # the per-strategy table is in the findings' words already, and too wide for 120 columns
    details = ("retuned_strategy", "retuned_params", *(name for name in tables if name.endswith("_trials")))
    return tables, findings, details


def _retuned_activity(spec, rules_a: dict, rules_b: dict, frames) -> list[str]:
    """Whether each changed rule came into play in the re-tuned players' games (re-tuned players may bring into
    play a rule the fixed ones never reached, or stop doing so); a value every game uses, or one B never reads,
    is said once already in the first lines."""
    lines = rule_activity(spec, changed_values(rules_a, rules_b), frames, None, [rules_b])
    return [f"With re-tuned players: r{line[1:]}" for line in lines
            if " came into play in " in line and " in every game " not in line]


def _short_verdict(row) -> str:
    """The table's verdict: the direction and the size, without the level and the threshold (the findings
    state them), so that the table fits 120 columns."""
    return f"{row['direction']}: {row['size']}" if row["direction"] else NOT_SIGNIFICANT


def _metric_verdict(metric: str, fixed, tuned) -> str:
    """One sentence for one metric: its change for fixed players, then what is left of it once re-tuned."""
    name = {SEAT0: "Seat 0's advantage", SPREAD: "Strategy spread", LIMIT: "Games hitting a limit"}.get(
        metric, f"Game {metric}")

    def said(row, who):
        if not row["direction"]:
            return f"{NOT_SIGNIFICANT} for {who}"
        return f"{row['direction']} for {who} ({row['size']})"

    first = said(fixed, "fixed players")
    if fixed["direction"] and not tuned["direction"]:
        second = "no longer significant once re-tuned"
    elif fixed["direction"] and tuned["direction"] == fixed["direction"]:
        second = said(tuned, "re-tuned players").replace(f"{tuned['direction']} for re-tuned players",
                                                         f"still {tuned['direction']} once re-tuned")
    else:
        second = said(tuned, "re-tuned players")
    return (f"{name}: {first}; {second}: change {change_cell(fixed)} with fixed players, {change_cell(tuned)} "
            "re-tuned.")


def _budget_text(retuned: Retuned) -> str:
    first = next(iter(retuned.tuned.values()))
    return (f"each re-tuned strategy tuned under A and under B (budget {first.setup['budget']} each, the same "
            "search seeds), one after another in the line-up's order")


def _search_check(retuned: Retuned) -> str:
    """Each search's validation (tuned against its start on fresh seeds), in one line."""
    parts = []
    for (side, label), result in retuned.tuned.items():
        row = result.validation.iloc[0]
        parts.append(f"{label}{MARK} under {side} {points(row['win_diff'], row['win_low'], row['win_high'])}")
    return ("Each search checked against its start on fresh seeds (win rate, tuned - start): " + "; ".join(parts)
            + ". A search that kept its start shows 0.")


def _params_table(retuned: Retuned) -> pd.DataFrame:
    frames = []
    for label in retuned.targets:
        a, b = (retuned.tuned[side, label].tables["best"] for side in ("A", "B"))
        frames.append(pd.DataFrame({"strategy": f"{label}{MARK}", "parameter": a.index, "start": a["start"].to_numpy(),
                                    "tuned_under_a": a["best"].to_numpy(), "tuned_under_b": b["best"].to_numpy()}))
    return pd.concat(frames).set_index(["strategy", "parameter"])


def add_retuned(result, sides, frames, targets, params, budget, sets, sets_b, rules, seed: int, deals: int,
                thresholds, workers: int, storage, study_name: str) -> None:
    """Compare's re-tuned verdicts: the fixed line-ups' balance measures (``frames``, every result column, in
    every seat order of ``sides``) beside the re-tuned line-ups' on the same deals, added to ``result``."""
    spec = get_game(result.game)
    n = len(sides[0][0].seats)
    cards = [_card(spec, side, frame, deals) for side, frame in zip(sides, frames)]
    fixed = _compare_cards(spec, cards, deals, n, seed, thresholds)[0]["changes"]
    retuned = retune_lineups(result.game, sides[0][0].seats, targets, params, budget or RETUNE_BUDGET, sets, sets_b,
                             rules, seed, deals * n, workers, storage, study_name)
    tables, findings, details = retuned_report(spec, sides, fixed, retuned, deals, seed, thresholds, workers)
    result.tables = {"retuned": tables.pop("retuned"), **result.tables, **tables}
    result.findings += findings
    result.details = (*result.details, "seat", "seat_advantage_a", "seat_advantage_b", *details)
    result.setup["retune"] = {"strategies": list(targets), "params": params, "budget": str(budget or RETUNE_BUDGET),
                              "tuned_a": [retuned.tuned["A", t].best_spec for t in targets],
                              "tuned_b": [retuned.tuned["B", t].best_spec for t in targets]}
