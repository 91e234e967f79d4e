"""The ladder: every shipped strategy of a game (or those given) ranked by rating, each with its exploitability
bound, at one player count.

Rating: a seat-rotated round-robin tournament of the strategies (``simkit.analysis.tournament``:
Bradley-Terry on finishing ahead, bootstrap intervals). Exploitability: the lower bound of
``simkit.analysis.exploitability``, with every shipped strategy (and every strategy of the ladder) as a
deviator against copies of each. A strategy can rate high and still be easy to exploit (it beats the
field but loses to one well-aimed reply), which is why the ladder shows both.
"""
from __future__ import annotations

from .. import progress
from ..errors import SimkitError
from ..games import get_game
from ..runner import make_batch
from ..strategy import parse_lineup
from .exploitability import Target, bound_text, bounds, method_text, shipped_seats, tune_budget_of
from .play import deals_for
from .result import Analysis
from .tournament import BOOTSTRAP, ranking_text, tournament

# the bound's columns as the report formats them (a "share" column is a rate, shown in percent)
SHARE = {"exploitability": "exploitability_share", "low": "exploitability_share_low", "high": "exploitability_share_high",
         "confirmed": "confirmed_gain_share"}


def ladder(game: str, players: int | None = None, strategies=None, games: int = 20_000, screen_games: int = 2_000,
           confirm_games: int = 8_000, tune_budget=None, seed: int = 0, sets=(), rules=None, workers: int = 1,
           bootstrap: int = BOOTSTRAP) -> Analysis:
    """Rate ``strategies`` (default: every shipped strategy of the game) in a seat-rotated tournament of
    ``games`` games at ``players`` seats, and bound each one's exploitability: every shipped strategy and every
    strategy of the ladder tries one seat against copies of it on ``screen_games`` games (seat-rotated, common
    deals), and the best is re-played on ``confirm_games`` fresh games. tune_budget (``"24"`` trials, ``"50000
    games"``): also tune a best response against each strategy in every tunable family (slow: one search per
    family and strategy). Tables: ladder (rating, win rate and exploitability bound with their intervals, the
    deviator that reached it), standings (the tournament's) and screening (every deviator's screened gain)."""
    spec = get_game(game)
    n = players or len(spec.default_lineup)
    spec.check_player_count(n)
    seats = parse_lineup(spec.name, strategies) if strategies else shipped_seats(spec.name)
    labels = [seat.label for seat in seats]
    if len(set(labels)) != len(labels):
        raise SimkitError(f"--strategies lists {sorted(x for x in labels if labels.count(x) > 1)[0]!r} twice; give each once")
    if len(seats) < n:
        raise SimkitError(f"--strategies gives {len(seats)} strategies; a ladder of {n} players needs at least {n} "
                          "different ones (a tournament of every combination of them rates them)")
    screen_deals, confirm_deals = deals_for(screen_games, n, True), deals_for(confirm_games, n, True)
    tune_budget = tune_budget_of(tune_budget)
    with progress.label("rating tournament"):
        rated = tournament(spec.name, seats, n, games, seed, sets, rules, workers, bootstrap)
    rules_file, overrides = (rules, None) if isinstance(rules, str) else (None, rules)
    base = make_batch(spec.name, 1, [seats[0]] * n, seed, rules_file, list(sets), overrides)
    found, screening, _ = bounds(spec.name, base, [Target.pure(seat) for seat in seats],
                              [*shipped_seats(spec.name), *seats], screen_deals, confirm_deals, seed, workers,
                              tune_budget, sets, rules)
    standings = rated.tables["standings"]
    table = standings[["rating", "rating_low", "rating_high", "win_rate", "win_rate_low", "win_rate_high"]].join(
        found[["exploitability", "low", "high", "deviator", "confirmed"]].rename(columns=SHARE))
    least = table["exploitability_share"].idxmin()
    findings = [
        f"{len(seats)} strategies at {n} players. Rating: Bradley-Terry on finishing ahead of each opponent within a "
        f"game (Elo-like scale, mean 0), from a seat-rotated tournament of every combination of {n} of them "
        f"({rated.setup['deals'] * n * len(rated.setup['lineups']):,} games; intervals: bootstrap over deals).",
        method_text(n, screen_deals * n, confirm_deals * n, tune_budget is not None),
        f"Top by rating: {table.index[0]} ({table['rating'].iloc[0]:+.0f} [{table['rating_low'].iloc[0]:+.0f}, "
        f"{table['rating_high'].iloc[0]:+.0f}]), exploitability bound {bound_text(table.iloc[0])}. Least exploitable: "
        f"{least}, {bound_text(table.loc[least])} (by {table.loc[least, 'deviator']}).",
        ranking_text(standings),
    ]
    setup = {"game": spec.name, "strategies": labels, "players": n, "games": rated.setup["deals"] * n *
             len(rated.setup["lineups"]), "screen_games": screen_deals * n, "confirm_games": confirm_deals * n,
             "tune_budget": tune_budget, "seed": seed, "sets": list(sets), "rules": rules}
    return Analysis("ladder", f"{spec.title}: ladder of {len(seats)} strategies, {n} players", spec.name,
                    {"ladder": table, "standings": standings, "screening": screening}, findings, setup, players=n,
                    details=("standings", "screening"))

