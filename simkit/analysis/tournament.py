"""Round-robin tournaments for multi-player games: every strategy in every seat equally often.

The line-ups are every combination of ``players`` of the strategies, each played under every cyclic
rotation of its seats, all on the same seed: game index g is the same deal for every line-up and
rotation, so the game index is the block (the statistical unit) and the line-ups are compared on
common random numbers. A strategy is in C(S-1, players-1) of the C(S, players) combinations and, in
each, in every seat once per rotation, so it plays every seat equally often.

Rating: Bradley-Terry on the pairwise results inside each game (A finished ahead of B by score, a tie
half each), fitted by Hunter's MM algorithm, on an Elo-like scale (400 log10 strength, mean 0). Pairs
from one game are not independent, so intervals come from a bootstrap over blocks, not from the
Fisher information.
"""
from __future__ import annotations

import math
from itertools import combinations

import numpy as np
import pandas as pd

from simkit.reports.format import number

from ..errors import SimkitError
from ..games import get_game
from ..strategy import parse_lineup
from .activity import first_lines
from .play import batches, block_outcomes, deals_for, play_many
from .result import LARGE, NOT_SIGNIFICANT, SMALL, Analysis, games_played, negligible_of, parse_negligible, size_words
from .stats import block_means, bradley_terry, rate_means

BOOTSTRAP = 200
ELO = 400 / math.log(10)


def lineups(n_strategies: int, players: int) -> list[tuple[int, ...]]:
    """Every combination of ``players`` strategies (by index), in the order given."""
    return list(combinations(range(n_strategies), players))


def pairwise_by_block(frame: pd.DataFrame, names: list[str]) -> np.ndarray:
    """wins[block, i, j]: over one block's games, how often strategy i finished ahead of j (ties half)."""
    index = {name: i for i, name in enumerate(names)}
    blocks = np.sort(frame["game"].unique())
    frame = frame.assign(code=frame["strategy"].map(index), block=np.searchsorted(blocks, frame["game"]))
    wins = np.zeros((len(blocks), len(names), len(names)))
    for _, games in frame.groupby(["lineup", "rotation"], sort=False):
        games = games.sort_values(["block", "seat"])
        seats = games["seat"].nunique()
        score = games["score"].to_numpy().reshape(-1, seats)
        code = games["code"].to_numpy().reshape(-1, seats)
        block = games["block"].to_numpy().reshape(-1, seats)[:, 0]
        for p in range(seats):
            for q in range(seats):
                if p != q:
                    share = (score[:, p] > score[:, q]) + 0.5 * (score[:, p] == score[:, q])
                    np.add.at(wins, (block, code[:, p], code[:, q]), share)
    return wins


def head_to_head_intervals(frame, labels, wins: np.ndarray | None = None) -> pd.DataFrame:
    """Per ordered pair of strategies, the share of shared games the first finished ahead (ties half), as
    a mean over blocks with its 95% interval (columns ahead, low, high; index strategy, opponent).
    ``wins``: ``pairwise_by_block(frame, labels)`` if the caller has it already."""
    wins = pairwise_by_block(frame, labels) if wins is None else wins
    rows = []
    for i, row in enumerate(labels):
        for j, column in enumerate(labels):
            if i != j:
                with np.errstate(invalid="ignore"):
                    share = wins[:, i, j] / (wins[:, i, j] + wins[:, j, i])
                means = rate_means(pd.DataFrame({"share": share})).iloc[0]
                rows.append({"strategy": row, "opponent": column, "ahead": means["mean"], "low": means["low"],
                             "high": means["high"]})
    # one strategy in every seat has no pairs: an empty table, not an error
    return pd.DataFrame(rows, columns=["strategy", "opponent", "ahead", "low", "high"]).set_index(["strategy", "opponent"])


def order_note(standings: pd.DataFrame, head: pd.DataFrame) -> list[str]:
    """One sentence when the rating order (finishing ahead of each opponent) differs from the win-rate order
    (first places only), naming the first such pair and why they differ."""
    labels = list(standings.index)
    for i, upper in enumerate(labels):
        for lower in labels[i + 1:]:
            if standings.loc[lower, "win_rate"] > standings.loc[upper, "win_rate"]:
                ahead = head.loc[upper, lower]
                return [f"Why {upper} is rated above {lower} although {lower} wins more games "
                        f"({standings.loc[lower, 'win_rate']:.1%} against {standings.loc[upper, 'win_rate']:.1%}): the "
                        f"rating counts finishing ahead of each opponent, not first places; {upper} finishes ahead of "
                        f"{lower} in {ahead:.1%} of their shared games and ranks "
                        f"{standings.loc[upper, 'mean_rank']:.2f} on average against {standings.loc[lower, 'mean_rank']:.2f}, "
                        f"so {lower} wins more multi-player games but places lower when it does not win."]
    return []


def tournament(game: str, strategies, players: int | None = None, games: int = 10_000, seed: int = 0, sets=(),
               rules=None, workers: int = 1, bootstrap: int = BOOTSTRAP, negligible=()) -> Analysis:
    """Play every combination of ``players`` of ``strategies`` under every seat rotation on common seeds.

    strategies: specs (``"threshold:points=20"``) as a list or comma-separated string, at least ``players``
    of them and all different. games: total games, split evenly over the line-ups and rotations (rounded up).
    Tables: standings (win rate, mean score, mean rank with 95% intervals over blocks; Bradley-Terry rating
    with a bootstrap interval), head_to_head (share of shared games in which the row finished ahead of
    the column, ties half) and the same shares with their 95% intervals over deals (head_to_head_intervals).
    Each strategy's lead over the next in the ranking is sized against ``negligible`` (``METRIC=VALUE``
    thresholds, result.parse_negligible; the rating threshold applies).
    """
    thresholds = parse_negligible(negligible)
    spec = get_game(game)
    seats = parse_lineup(game, strategies)
    names = [seat.label for seat in seats]
    if len(set(names)) != len(names):
        raise SimkitError(f"--strategies lists {sorted(n for n in names if names.count(n) > 1)[0]!r} twice; give each once")
    players = players or len(spec.default_lineup)
    spec.check_player_count(players)
    if len(seats) < players:
        raise SimkitError(f"--strategies gives {len(seats)} strategies; a tournament of {players} players needs at "
                          f"least {players} different ones")
    deals_for(games, 1, False)   # validates games
    combos = lineups(len(seats), players)
    deals = max(1, math.ceil(games / (len(combos) * players)))
    groups = [batches(game, [seats[i] for i in combo], seed, sets, rules, rotate_seats=True) for combo in combos]
    frames = play_many(groups, 0, deals, workers)
    frame = pd.concat([frame.assign(lineup=number) for number, frame in enumerate(frames)], ignore_index=True)
    frame["rank"] = frame.groupby(["lineup", "rotation", "game"])["score"].rank(ascending=False, method="average")
    wins = pairwise_by_block(frame, names)
    played = frame.groupby("strategy").size()
    standings = _standings(frame, names, wins, bootstrap, seed, negligible_of(thresholds, "rating"))
    totals = wins.sum(axis=0)
    with np.errstate(invalid="ignore"):
        head = pd.DataFrame(totals / (totals + totals.T), index=pd.Index(names, name="ahead of ->"), columns=names)
    seat_counts = frame.groupby(["strategy", "seat"]).size().unstack("seat").reindex(names)
    tables = {"standings": standings, "head_to_head": head, "head_to_head_intervals": head_to_head_intervals(frame, names, wins),
              "seat_counts": seat_counts}
    best = standings.index[0]
    findings = [
        f"{len(combos)} line-up{'s' if len(combos) > 1 else ''} x {games_played(deals, players)} = "
        f"{len(frame) // players:,} games; each strategy played {played.iloc[0]:,} seats, every seat equally often; a "
        "tie counts as a win for every tied seat.",
        f"Best by rating: {best} ({standings.loc[best, 'rating']:+.0f} [{standings.loc[best, 'rating_low']:+.0f}, "
        f"{standings.loc[best, 'rating_high']:+.0f}]), win rate {standings.loc[best, 'win_rate']:.1%}, mean rank "
        f"{standings.loc[best, 'mean_rank']:.2f} of {players}"
        + (f"; not significantly ahead of {standings.index[1]} (the ranking below)."
           if len(standings) > 1 and not _ahead(standings.iloc[0]) else "."),
        "Rating: Bradley-Terry on finishing ahead of each opponent within a game (Elo-like scale, mean 0; "
        "+100 means ahead of an average strategy about 64% of the time); intervals: bootstrap over deals.",
        ranking_text(standings),
        "Ratings: " + "; ".join(f"{name} {number(row['rating'], 0, True)} [{number(row['rating_low'], 0, True)}, "
                                f"{number(row['rating_high'], 0, True)}]" for name, row in standings.iterrows()) + ".",
        *order_note(standings, head),
    ]
    findings = first_lines(spec, spec.default_rules, groups[0][0].rules, frames) + findings
    setup = {"negligible": thresholds,
             "game": game, "strategies": names, "players": players, "lineups": [[names[i] for i in c] for c in combos],
             "deals": deals, "seed": seed, "sets": list(sets), "rules": rules}
    return Analysis("tournament", f"{spec.title}: tournament of {len(names)} strategies, {players} players", game,
                    tables, findings, setup, players=players, details=("head_to_head", "seat_counts"))


def ranking_text(standings: pd.DataFrame) -> str:
    """The ranking in words, each neighbour's lead with its interval and verdict: ``a > b (+35 [+12, +60],
    significant) ~ c (+5 [-20, +28], not significant at 95%)``; ``>`` where the lead is significant."""
    names = list(standings.index)
    parts = [str(names[0])]
    for i, name in enumerate(names[:-1]):
        row = standings.loc[name]
        sign = ">" if _ahead(row) else "~"
        parts.append(f" {sign} {names[i + 1]} ({number(row['lead_over_next'], 0, True)} "
                     f"[{number(row['lead_over_next_low'], 0, True)}, {number(row['lead_over_next_high'], 0, True)}], "
                     f"{row['ahead_of_next']})")
    tied = sum(standings["ahead_of_next"] == NOT_SIGNIFICANT)
    return ("Ranking by rating, each strategy against the next (its lead in rating points, bootstrap 95% interval): "
            + "".join(parts) + "." + (f" {tied} neighbouring pair{'s' if tied != 1 else ''} cannot be told apart "
                                      "with these games." if tied else " Every neighbour differs significantly."))


def _ahead(row) -> bool:
    """Whether a strategy's lead over the next is significant (negligible or not)."""
    return row["ahead_of_next"] in (LARGE, SMALL)


def _standings(frame, names, wins, bootstrap, seed, negligible=None) -> pd.DataFrame:
    blocks = block_outcomes(frame, "strategy")
    rank = frame.groupby(["game", "strategy"])["rank"].mean().unstack("strategy")
    table = pd.DataFrame(index=pd.Index(names, name="strategy"))
    for column, outcomes in (("win_rate", blocks["win"]), ("mean_score", blocks["score"]), ("mean_rank", rank)):
        means = (rate_means if column == "win_rate" else block_means)(outcomes[names])
        table[column], table[f"{column}_low"], table[f"{column}_high"] = means["mean"], means["low"], means["high"]
    table["rating"] = ELO * bradley_terry(wins.sum(axis=0))
    rng = np.random.default_rng(seed)
    flat = wins.reshape(len(wins), -1)
    draws = rng.multinomial(len(wins), np.full(len(wins), 1 / len(wins)), size=bootstrap)
    samples = ELO * bradley_terry((draws @ flat).reshape(bootstrap, len(names), len(names)))
    table["rating_low"], table["rating_high"] = np.percentile(samples, [2.5, 97.5], axis=0)
    order = np.argsort(-table["rating"].to_numpy(), kind="stable")
    table = table.iloc[order]
    gaps = neighbour_gaps(table["rating"].to_numpy(), samples[:, order], negligible)
    return pd.concat([table, gaps.set_axis(table.index)], axis=1)


def neighbour_gaps(ratings: np.ndarray, samples: np.ndarray, negligible=None) -> pd.DataFrame:
    """For ratings in ranking order, each one's lead over the next below it with a percentile 95% interval
    from the same bootstrap resamples (so the interval is of the difference itself, not two overlapping
    intervals), and its size (result.size_words: significant when the interval excludes 0, negligible when
    the lead is under ``negligible``'s threshold). The last row has no neighbour."""
    rows = []
    for i in range(len(ratings)):
        if i + 1 == len(ratings):
            rows.append({"lead_over_next": np.nan, "lead_over_next_low": np.nan, "lead_over_next_high": np.nan,
                         "ahead_of_next": ""})
            continue
        low, high = np.percentile(samples[:, i] - samples[:, i + 1], [2.5, 97.5])
        rows.append({"lead_over_next": ratings[i] - ratings[i + 1], "lead_over_next_low": low,
                     "lead_over_next_high": high,
                     "ahead_of_next": size_words(low, high, ratings[i] - ratings[i + 1], negligible)})
    return pd.DataFrame(rows)
