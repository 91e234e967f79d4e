"""Sweeps: a grid over one strategy parameter or one rule value, every point on the same seeds.

Because every point plays the same deals and dice, the difference between two points is measured
paired, game by game; the best point and which points cannot be told apart from it come from those
paired differences, not from overlapping intervals.
"""
from __future__ import annotations

import pandas as pd

from simkit.reports.format import rate_interval

from ..errors import SimkitError
from ..games import get_game
from ..inputs import MAX_POINTS, grid_label, parse_grid, sweep_points  # noqa: F401  (re-exported)
from .activity import first_lines, probe_strategies
from .play import batches, block_outcomes, deals_for, play_many
from .result import Analysis, games_played, negligible_of, parse_negligible, points, size_words
from .stats import block_means, paired, rate_means


def sweep(game: str, strategy: str | None = None, param: str | None = None, field=None, rule: str | None = None,
          players=None, focus: int = 0, games: int = 10_000, seed: int = 0, sets=(), rules=None,
          rotate_seats: bool = False, workers: int = 1, negligible=()) -> Analysis:
    """Sweep a strategy parameter (``strategy`` + ``param="points=4:20:2"``, played in entry 0 against
    ``field``, default: the rest of the game's line-up) or a rule value (``rule="scoring.false_stop=-20:0:5"``
    with line-up ``players``). Every point plays the same ``games`` (seeds 0..games-1 of ``seed``).

    Tables: curve (per point and line-up entry: win rate and mean score with 95% intervals; for the
    focus entry also the paired difference from the best point). The best point maximises the focus
    entry's win rate (entry 0 = the swept strategy; ``focus`` picks another entry in a rule sweep). Each
    other point's paired difference from the best gets a verdict sized against ``negligible`` (``METRIC=VALUE``
    thresholds, result.parse_negligible; the win threshold applies): within negligible of the best, a point is
    as good for practical purposes.
    """
    thresholds = parse_negligible(negligible)
    spec = get_game(game)
    key, values, lineups, rule_sets = sweep_points(spec.default_lineup, strategy, param, rule, field, players, sets)
    focus = 0 if param is not None else focus
    point_batches = [batches(game, lineup, seed, point_sets, rules, rotate_seats)
                     for lineup, point_sets in zip(lineups, rule_sets)]  # validates every point before playing
    seats = point_batches[0][0].seats
    unread = spec.unread_key(point_batches[0][0].rules, key) if param is None else ""
    if unread:    # every point would play the same games
        raise SimkitError(f"--rule {key}: {unread}")
    if isinstance(focus, bool) or not isinstance(focus, int) or not 0 <= focus < len(seats):
        raise SimkitError(f"focus must be a line-up entry 0..{len(seats) - 1}, not {focus!r}")
    names = [f"{strategy} ({key})" if param is not None and i == 0 else seat.label for i, seat in enumerate(seats)]
    names = [name if names.count(name) == 1 else f"{name} #{i}" for i, name in enumerate(names)]
    deals = deals_for(games, len(seats), rotate_seats)
    outcomes = []
    frames = play_many(point_batches, 0, deals, workers)
    for frame in frames:
        blocks = block_outcomes(frame, "entry")
        outcomes.append({metric: table.set_axis(names, axis=1) for metric, table in blocks.items()})
    focus_name = names[focus]
    best = max(range(len(values)), key=lambda i: outcomes[i]["win"][focus_name].mean())
    rows = []
    for i, value in enumerate(values):
        win, score = rate_means(outcomes[i]["win"]), block_means(outcomes[i]["score"])
        versus = paired(outcomes[best]["win"][[focus_name]], outcomes[i]["win"][[focus_name]]).iloc[0]
        for name in names:
            row = {key: grid_label(value), "entry": name, "deals": int(win.loc[name, "n"]),
                   "win_rate": win.loc[name, "mean"], "win_low": win.loc[name, "low"], "win_high": win.loc[name, "high"],
                   "mean_score": score.loc[name, "mean"], "score_low": score.loc[name, "low"],
                   "score_high": score.loc[name, "high"]}
            if name == focus_name:
                row.update(win_vs_best=versus["diff"], vs_best_low=versus["low"], vs_best_high=versus["high"],
                           verdict="best" if i == best else
                           size_words(versus["low"], versus["high"], versus["diff"], negligible_of(thresholds, "win")))
            rows.append(row)
    curve = pd.DataFrame(rows).set_index([key, "entry"])
    focus_rows = curve.xs(focus_name, level="entry")
    findings = [
        f"{len(values)} points of {key}, {games_played(deals, len(point_batches[0]))} each, on the same deals; a tie "
        "counts as a win for every tied seat.",
        _best_line(key, focus_name, grid_label(values[best]), focus_rows.iloc[best], focus_rows),
        _against_best(focus_rows, negligible_of(thresholds, "win")),
    ]
    if len(values) > 1:
        findings.append(f"Each point's win rate minus the best's ({grid_label(values[best])}), paired over the same deals: "
                        + "; ".join(f"{value} {points(row['win_vs_best'], row['vs_best_low'], row['vs_best_high'])}"
                                    for value, row in focus_rows.iterrows() if value != grid_label(values[best])) + ".")
    changes = [*spec.rule_changes(point_batches[0][0].rules)]
    if param is None:
        changes = [c for c in changes if c[0] != key] + [(key, "swept over " + ", ".join(map(grid_label, values)))]
    findings = first_lines(spec, None, None, frames, probe_strategies(game, players, seed, rule_sets[-1], rules),
                           changes, played=[point_batches[0][0].rules]) + findings
    setup = {"negligible": thresholds,
             "game": game, "key": key, "values": values, "strategy": strategy, "field": field if param else None,
             "players": [s.label for s in seats], "focus": focus_name, "seed": seed, "sets": list(sets),
             "rules": rules, "rotate_seats": rotate_seats, "deals": deals, "swept": "param" if param else "rule"}
    focus_table = focus_rows[["deals", "win_rate", "win_low", "win_high", "win_vs_best", "vs_best_low", "vs_best_high",
                              "verdict", "mean_score", "score_low", "score_high"]]
    return Analysis("sweep", f"{spec.title}: sweep of {key}", game,
                    {"curve": curve, "focus": focus_table.rename_axis(key)}, findings, setup, players=len(seats),
                    details=("curve",))


def _best_line(key: str, focus: str, best: str, row: pd.Series, focus_rows: pd.DataFrame) -> str:
    """The point with the highest win rate, called the best only when its paired difference from every other
    point excludes 0 (a sweep whose points the games cannot tell apart has no best)."""
    rate = rate_interval(row["win_rate"], row["win_low"], row["win_high"])
    tied = [str(value) for value, other in focus_rows.iterrows() if other["verdict"] == "no significant difference"]
    if not tied:
        return f"Best {key} for {focus}: {best} (win rate {rate}), ahead of every other point (paired)."
    return (f"Highest win rate of {focus} at {key} = {best} ({rate}), but not separated from {', '.join(tied)} "
            f"(paired): with these games there is no best {key}.")


def _against_best(focus_rows: pd.DataFrame, negligible) -> str:
    """Every other point against the best, by the paired 95% interval of its difference, in the three
    phrases: no significant difference, significant but negligible, significant and larger than negligible."""
    groups = {}
    for value, row in focus_rows.iterrows():
        if row["verdict"] != "best":
            groups.setdefault(row["verdict"], []).append(value)
    parts = [f"{words}: {', '.join(groups[words])}" for words in
             ("no significant difference", "significant but negligible", "significant and larger than negligible")
             if words in groups]
    return (f"Other points against the best (paired 95% interval of the difference; negligible: under "
            f"{negligible[1]}): " + ("; ".join(parts) or "none") + ".")
