"""Re-tuned rule comparisons: how a rule change moves play between players who adapt to it.

A fixed bot plays the same way under both rule sets, so ``compare`` measures what the change does to *these*
bots. But a rule change also changes what good play is. With ``retune``, the family of one strategy of line-up
A is tuned under rules A and again under rules B (``simkit.analysis.tune``, both searches on the same seeds),
and the two tuned line-ups are compared, each under its own rules, on common deals: the re-tuned effect.

Which seats are tuned: every entry of line-up A whose strategy has the given name (or label). If that is every
seat, the family is tuned in self-play; otherwise the first such entry is tuned as a best response to the other
entries, and every entry of the family then plays the tuned values.
"""
from __future__ import annotations

from dataclasses import replace

import pandas as pd

from ..errors import SimkitError
from ..games import get_game
from ..stats import Z95
from ..strategy import Seat
from .compare import paired_tables, seat_advantage
from .play import Job, play_jobs
from .play import batches, deals_for, rotate
from .result import Analysis, score_change


def retuned_entries(seats, family: str, players_b, seed_b) -> list[int]:
    """The line-up entries that play ``family`` (checked before anything is played)."""
    if players_b is not None:
        raise SimkitError("--retune compares rule sets (give --set-b), not two line-ups: leave out --players-b")
    if seed_b is not None:
        raise SimkitError("--retune needs paired seeds: leave out --seed-b")
    entries = [i for i, seat in enumerate(seats) if family in (seat.strategy.name, seat.label)]
    if not entries:
        raise SimkitError(f"--retune {family}: no seat of line-up A plays it; line-up A: "
                          f"{', '.join(seat.label for seat in seats)}")
    return entries


def add_retuned(result: Analysis, side_a, family: str, params, budget, sets, sets_b, rules, players_b, seed, seed_b,
                games: int, rotate_seats: bool, workers: int, storage, study_name: str) -> None:
    """Tune ``family`` under rules A and B, compare the two tuned line-ups and add the tables and findings to
    ``result`` (a compare analysis): retuned_entry, retuned_seat_advantage_a/_b and retuned_params."""
    from .tune import tune

    seats = list(side_a[0].seats)
    entries = retuned_entries(seats, family, players_b, seed_b)
    start = seats[entries[0]]
    self_play = len(entries) == len(seats)
    field = None if self_play else [seat for i, seat in enumerate(seats) if i not in entries]
    tuned = {}
    for side, side_sets in (("A", list(sets)), ("B", [*sets, *sets_b])):
        tuned[side] = tune(result.game, start, params=params, field=field, self_play=self_play, players=len(seats), budget=budget,
                           games=games, seed=seed, sets=side_sets, rules=rules, workers=workers, storage=storage,
                           study_name=f"{study_name}-{side}")
    lineups = {side: [Seat(start.strategy, {**start.overrides, **tuned[side].best}) if i in entries else seat
                      for i, seat in enumerate(seats)] for side in tuned}
    base = side_a[0]
    n = len(seats)
    deals = deals_for(games, n, rotate_seats)
    rotations = range(n if rotate_seats else 1)
    batch_b = batches(base.game.name, seats, base.seed, [*sets, *sets_b], rules)[0]
    jobs = [Job(tuple(replace(base, seats=tuple(rotate(lineups["A"], r))) for r in rotations), 0, deals),
            Job(tuple(replace(batch_b, seats=tuple(rotate(lineups["B"], r))) for r in rotations), 0, deals)]
    frame_a, frame_b = play_jobs(jobs, workers)
    table = paired_tables(frame_a, frame_b, "entry", Z95)
    table.columns = [f"{metric}_{name}" for metric, name in table.columns]
    table.index = [f"{i}: {lineups['A'][i].label} -> {lineups['B'][i].label}" if i in entries else f"{i}: {seats[i].label}"
                   for i in table.index]
    table.index.name = "entry"
    result.tables["retuned_entry"] = table
    if rotate_seats:
        result.tables["retuned_seat_advantage_a"] = seat_advantage(frame_a)
        result.tables["retuned_seat_advantage_b"] = seat_advantage(frame_b)
    result.tables["retuned_params"] = pd.DataFrame(
        {"start": tuned["A"].tables["best"]["start"], "tuned_under_A": tuned["A"].tables["best"]["best"],
         "tuned_under_B": tuned["B"].tables["best"]["best"]})
    for side in tuned:
        result.tables[f"retune_{side.lower()}_validation"] = tuned[side].validation
        result.tables[f"retune_{side.lower()}_trials"] = tuned[side].trials
    fixed = result.tables["strategy"]
    lines = [f"Re-tuned comparison: {family}'s family was tuned under rules A and under rules B "
             f"({'self-play' if self_play else 'a best response to the other seats'}, budget {tuned['A'].setup['budget']} "
             f"each, the same search seeds); tuned under A: {lineups['A'][entries[0]].label}; under B: "
             f"{lineups['B'][entries[0]].label}."]
    game = get_game(result.game)
    for label, row in fixed.iterrows():
        lines.append(f"Fixed-bot effect on {label}: win rate {row['win_diff']:+.2%} [{row['win_low']:+.2%}, "
                     f"{row['win_high']:+.2%}], {score_change(game, row['score_diff'], row['score_low'], row['score_high'])}.")
    for label, row in table.iterrows():
        lines.append(f"Re-tuned effect on entry {label}: win rate {row['win_a']:.2%} -> {row['win_b']:.2%} "
                     f"({row['win_diff']:+.2%} [{row['win_low']:+.2%}, {row['win_high']:+.2%}]), "
                     f"{score_change(game, row['score_diff'], row['score_low'], row['score_high'])}.")
    for side in tuned:
        row = tuned[side].validation.iloc[0]
        lines.append(f"Tuned under {side} against its start ({tuned[side].validation.index[0]}, fresh seeds): "
                     f"{row['win_diff']:+.2%} [{row['win_low']:+.2%}, {row['win_high']:+.2%}].")
    result.findings += lines
    result.setup["retune"] = {"family": family, "entries": entries, "self_play": self_play, "params": params,
                              "budget": str(budget), "tuned_a": tuned["A"].best_spec, "tuned_b": tuned["B"].best_spec}
