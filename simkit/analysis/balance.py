"""The balance report card of a rule set: seat advantage, game length and limits, the half-time
leader, score spread, and whether one strategy of the line-up dominates.

The line-up (default: the game's) is played under every seat rotation on common seeds, so seat
effects and strategy effects separate. Game-specific facts come from optional fields of the game's
registry entry (``Game.length_column``, ``limit_hit``, ``half_time_score``); a game that does not
declare one is reported as not recording it, never guessed.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..errors import SimkitError
from ..stats import fmt_amount
from .compare import seat_advantage
from .play import batches, block_outcomes, deals_for, play
from .result import Analysis
from .stats import block_means, rate_means
from .tournament import head_to_head_intervals


def _per_game(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per played game (rotation, game) with the score matrix reduced to spread measures."""
    ordered = frame.sort_values(["rotation", "game", "seat"])
    n = ordered["seat"].nunique()
    scores = ordered["score"].to_numpy().reshape(-1, n)
    top = np.sort(scores, axis=1)[:, ::-1]
    games = ordered.iloc[::n][["rotation", "game"]].reset_index(drop=True)
    games["margin"] = top[:, 0] - top[:, 1]
    games["spread"] = scores.std(axis=1)
    games["shared_win"] = ordered["winner"].to_numpy().reshape(-1, n).sum(axis=1) > 1
    return games, ordered


def _deal_share(games: pd.DataFrame, column: str) -> pd.Series:
    """Block mean and Wilson interval of a per-game indicator (block = deal, over its rotations)."""
    table = rate_means(games.groupby("game")[column].mean().to_frame())
    return table.iloc[0]


def balance(game: str, players=None, sets=(), rules=None, games: int = 10_000, seed: int = 0, workers: int = 1) -> Analysis:
    """Balance report card of a rule set (defaults plus ``rules``/``sets``) for a line-up of shipped or
    user strategies. ``games`` are split over the seat rotations. Tables: seats, strategies,
    head_to_head, length (distribution), spread; ``findings`` says what they mean in words."""
    batch_list = batches(game, players, seed, sets, rules, rotate_seats=True)
    spec = batch_list[0].game
    n = len(batch_list[0].seats)
    deals = deals_for(games, n, True)
    if deals < 2:
        raise SimkitError(f"--games {games}: a balance card needs at least {2 * n} games at {n} players")
    frame = play(batch_list, 0, deals, workers, keep="all")
    per_game, ordered = _per_game(frame)
    labels = list(dict.fromkeys(seat.label for seat in batch_list[0].seats))
    tables = {"seats": seat_advantage(frame)}
    strategy = block_outcomes(frame, "strategy")
    win, score = rate_means(strategy["win"][labels]), block_means(strategy["score"][labels])
    tables["strategies"] = pd.DataFrame({"win_rate": win["mean"], "win_low": win["low"], "win_high": win["high"],
                                         "mean_score": score["mean"], "score_low": score["low"], "score_high": score["high"]})
    tables["head_to_head"] = head_to_head_intervals(frame.assign(lineup=0), labels)
    findings = [f"{len(per_game):,} games: {deals:,} deals, each played in all {n} seat orders; a tie counts as a win "
                f"for every tied seat ({per_game['shared_win'].mean():.2%} of games had a shared win)."]
    findings += _seat_findings(tables["seats"], n)
    findings += _length(spec, ordered, per_game, tables)
    findings += _half_time(spec, frame, per_game)
    findings += _spread(per_game, tables, spec.score_column)
    findings += _dominance(tables["head_to_head"], labels)
    setup = {"game": game, "players": [s.label for s in batch_list[0].seats], "sets": list(sets), "rules": rules,
             "seed": seed, "deals": deals, "games": len(per_game), "rules_effective": batch_list[0].rules}
    return Analysis("balance", f"{spec.title}: balance report card", game, tables, findings, setup, players=n)


def _seat_findings(seats: pd.DataFrame, n: int) -> list[str]:
    first, best = seats.iloc[0], seats["win_advantage"].idxmax()
    significant = seats[(seats["win_advantage_low"] > 0) | (seats["win_advantage_high"] < 0)]
    return [f"Seat advantage (win rate minus the average seat's, over every seat order): seat 0, the first player, "
            f"{first['win_advantage']:+.2%} [{first['win_advantage_low']:+.2%}, {first['win_advantage_high']:+.2%}] "
            f"(wins {first['win']:.2%}; {n} players); the best seat is seat {best} ({seats.loc[best, 'win_advantage']:+.2%}). "
            + (f"Seats with a significant advantage or handicap: {', '.join(map(str, significant.index))}."
               if len(significant) else "No seat's advantage is significant at 95%.")]


def _length(spec, ordered, per_game, tables) -> list[str]:
    lines = []
    if spec.length_column:
        length = ordered.iloc[:: ordered["seat"].nunique()][spec.length_column].to_numpy()
        counts = pd.Series(length).value_counts(normalize=True).sort_index()
        tables["length"] = counts.rename("share").rename_axis(spec.length_column).to_frame()
        q = np.percentile(length, [10, 50, 90])
        lines.append(f"Game length ({spec.length_column}): mean {length.mean():.1f}, median {q[1]:g}, 10-90% range "
                     f"{q[0]:g}-{q[2]:g}" + (" (every game the same length)" if q[0] == q[2] else "") + ".")
    else:
        lines.append("Game length: this game's results record no length measure.")
    if spec.limit_hit is not None:
        per_game["limit"] = spec.limit_hit(ordered).to_numpy()[:: ordered["seat"].nunique()]
        share = _deal_share(per_game, "limit")
        lines.append(f"Games hitting a limit ({spec.limit_label}): {share['mean']:.2%} [{share['low']:.2%}, "
                     f"{share['high']:.2%}].")
    else:
        lines.append("Limits: this game has no safety limit (every game ends by its own rules).")
    return lines


def _half_time(spec, frame, per_game) -> list[str]:
    half = spec.half_time_score(frame) if spec.half_time_score is not None else None
    if half is None:
        return ["Leader at half-time: this game's results do not record a mid-game score, so this is not reported."]
    marked = frame.assign(half=half.to_numpy())
    best = marked.groupby(["rotation", "game"])["half"].transform("max")
    leaders = marked[marked["half"] == best]
    count = leaders.groupby(["rotation", "game"]).size()
    sole = leaders.set_index(["rotation", "game"]).loc[count[count == 1].index]
    result = sole.reset_index()[["rotation", "game", "winner"]].astype({"winner": float})
    share = _deal_share(result, "winner")
    n = frame["seat"].nunique()
    return [f"Leader at half-time: in the {len(result) / len(per_game):.0%} of games with a sole leader at half-time, "
            f"that leader wins {share['mean']:.2%} [{share['low']:.2%}, {share['high']:.2%}] (a random seat would win "
            f"{1 / n:.0%}): " + ("the lead at half-time decides most games." if share["low"] > 0.5 else
                                 "games stay open after half-time." if share["high"] < 0.5 else "a lead helps but is often lost.")]


def _spread(per_game, tables, score) -> list[str]:
    quantiles = [0.1, 0.5, 0.9]
    tables["spread"] = pd.DataFrame({"winning_margin": per_game["margin"].quantile(quantiles),
                                     "score_std_in_game": per_game["spread"].quantile(quantiles)}).rename_axis("quantile")
    margin = per_game["margin"]
    return [f"Score spread: median winning margin {fmt_amount(margin.median())} {score} (10-90%: "
            f"{fmt_amount(margin.quantile(0.1))} to {fmt_amount(margin.quantile(0.9))}); median spread of scores "
            f"within a game (s.d.) {fmt_amount(per_game['spread'].median())}."]


def _dominance(head: pd.DataFrame, labels) -> list[str]:
    if len(labels) < 2:
        return ["Dominance: the line-up has one strategy, so there is nothing to compare."]
    dominant = [s for s in labels if (head.loc[s]["low"] > 0.5).all()]
    if dominant:
        return [f"Dominance: {dominant[0]} finishes ahead of every other strategy of the line-up more often than not "
                "(every head-to-head 95% interval above 50%): it dominates this line-up."]
    return ["Dominance: no strategy of the line-up finishes ahead of every other one significantly more often than not."]
