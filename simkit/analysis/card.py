"""The balance report card's measures (seat advantage, game length and limits, the half-time leader, score
spread, a dominating strategy) and their paired changes between two rule sets or line-ups: what ``balance``
reports and what the re-tuned comparisons (``retune``) set side by side.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from simkit.reports.format import interval_text, is_symbol, number
from simkit.reports.order import sort_tables

from ..stats import fmt_amount
from .paired import _flatten, paired_tables, seat_advantage, swapped_entries, swapped_findings
from .play import block_outcomes
from .result import NEGLIGIBLE, games_played, judge, negligible_of, points
from .stats import block_means, paired, rate_means
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


SPREAD_BOOTSTRAP = 400


def _card(spec, batch_list, frame, deals, entry_labels=None) -> dict:
    """One side's balance card: its tables and findings, and what an A/B card pairs (the played rows and
    the per-game measures). entry_labels: the line-up's labels as the frame's strategy column has them, when
    they are not the seats' own (re-tuned seats are shown as ``builder*``)."""
    n = len(batch_list[0].seats)
    per_game, ordered = _per_game(frame)
    entry_labels = entry_labels or [seat.label for seat in batch_list[0].seats]
    labels = list(dict.fromkeys(entry_labels))
    tables = {"seats": seat_advantage(frame)}
    strategy = block_outcomes(frame, "strategy")
    win, score = rate_means(strategy["win"][labels]), block_means(strategy["score"][labels])
    tables["strategies"] = pd.DataFrame({"win_rate": win["mean"], "win_low": win["low"], "win_high": win["high"],
                                         "mean_score": score["mean"], "score_low": score["low"], "score_high": score["high"]})
    tables["head_to_head"] = head_to_head_intervals(frame.assign(lineup=0), labels)
    findings = [f"{games_played(deals, n)}; a tie counts as a win for every tied seat "
                f"({per_game['shared_win'].mean():.1%} of games had a shared win)."]
    findings += _seat_findings(tables["seats"], n)
    findings += _length(spec, ordered, per_game, tables)
    findings += _half_time(spec, frame, per_game)
    findings += _spread(per_game, tables, spec)
    findings += _dominance(tables["head_to_head"], labels)
    return {"tables": tables, "findings": findings, "frame": frame, "per_game": per_game, "labels": labels,
            "entry_labels": entry_labels}


def _strategy_spread(cards, seed) -> pd.DataFrame:
    """The strategy spread (best strategy's win rate minus the worst's) of A and B and its change B - A,
    with percentile intervals from one bootstrap over deals shared by both sides (so the change is paired)."""
    outcomes = [block_outcomes(card["frame"], "strategy")["win"][card["labels"]] for card in cards]
    blocks = outcomes[0].index.intersection(outcomes[1].index)
    values = [o.loc[blocks].to_numpy(float) for o in outcomes]
    weights = np.random.default_rng(seed).multinomial(len(blocks), np.full(len(blocks), 1 / len(blocks)),
                                                      SPREAD_BOOTSTRAP) / len(blocks)

    def spread(rates):
        return rates.max(axis=-1) - rates.min(axis=-1)

    point = [spread(v.mean(axis=0)) for v in values]
    samples = [spread(weights @ v) for v in values]
    rows = {}
    for name, estimate, drawn in (("A", point[0], samples[0]), ("B", point[1], samples[1]),
                                  ("B - A", point[1] - point[0], samples[1] - samples[0])):
        low, high = np.percentile(drawn, [2.5, 97.5])
        rows[name] = {"win_spread": estimate, "win_spread_low": low, "win_spread_high": high}
    return pd.DataFrame(rows).T.rename_axis("side")


def _compare_cards(spec, cards, deals, n, seed, thresholds=NEGLIGIBLE) -> tuple[dict, list[str]]:
    """The A/B card: each seat's advantage, the strategy spread, each strategy's win rate, the game length
    and the limit share of A and B, paired by deal, as tables and findings. Table ``changes`` holds the
    headline changes (seat 0's advantage, the spread, the length, the limit share) with their verdicts."""
    a, b = cards
    advantage = []
    for card in cards:
        wins = block_outcomes(card["frame"], "seat")["win"]
        advantage.append(wins.sub(wins.mean(axis=1), axis=0))
    seats = paired(*advantage).rename(columns={"a": "win_advantage_a", "b": "win_advantage_b",
                                              "diff": "win_advantage_change", "low": "win_advantage_change_low",
                                              "high": "win_advantage_change_high", "n": "deals"})
    seats = seats.drop(columns=["half_width", "var_reduction"]).rename_axis("seat")
    spread = _strategy_spread(cards, seed)
    swapped = swapped_entries(a["frame"], b["frame"], *(card["entry_labels"] for card in cards), True)
    changes = headline_changes(spec, cards, seats, spread, thresholds)
    tables = {"changes": changes, "seats": seats, "spread": spread, **({"swapped": swapped} if swapped is not None else {}),
              "strategies": _flatten(paired_tables(a["frame"], b["frame"], "strategy")),
              "seat_advantage_a": a["tables"]["seats"], "seat_advantage_b": b["tables"]["seats"]}
    if spec.length_column:
        shares = [card["tables"]["length"]["share"] for card in cards]
        tables["length"] = pd.concat(shares, axis=1, keys=["share_a", "share_b"]).fillna(0.0).sort_index()
    tables = sort_tables("balance", tables)     # the findings list the strategies in the page's order
    moved = [str(seat) for seat, row in seats.iterrows()
             if row["win_advantage_change_low"] > 0 or row["win_advantage_change_high"] < 0]
    findings = [f"{games_played(deals, n, per_side=True)}, A and B on the same deals; intervals 95%; a tie counts as "
                "a win for every tied seat."]
    rates = [card["tables"]["strategies"]["win_rate"] for card in cards]
    ends = [f"{r.idxmax()} {r.max():.1%} to {r.idxmin()} {r.min():.1%}" for r in rates]
    for metric, row in changes.iterrows():
        if metric == SEAT0:
            findings.append(f"Seat advantage of seat 0, the first player (win rate minus the average seat's): "
                            f"{_change_text(row)} "
                            + (f"Seats whose advantage changes significantly: {', '.join(moved)}." if moved
                               else "No seat's advantage changes significantly at 95%."))
        elif metric == SPREAD:
            findings.append(f"Strategy spread (the best strategy's win rate minus the worst's): A {row['A'] * 100:.1f} "
                            f"points ({ends[0]}) -> B {row['B'] * 100:.1f} points ({ends[1]}); change "
                            f"{change_cell(row)} ({row['verdict']}; bootstrap over deals).")
        elif metric == LIMIT:
            findings.append(f"Games hitting a limit ({spec.limit_label}): {_change_text(row)}")
        else:
            findings.append(f"Game {metric}: {_change_text(row)}")
    findings += swapped_findings(swapped, True, spec)
    strategies = tables["strategies"]
    if len(strategies):
        findings.append("Win rate per strategy, B - A: " + "; ".join(
            f"{label} {row['win_a']:.1%} -> {row['win_b']:.1%}, {points(row['win_diff'], row['win_low'], row['win_high'])}"
            for label, row in strategies.iterrows()) + ".")
    findings.append(_every_seat("Every seat's advantage, B - A", seats, "win_advantage_change"))
    return tables, findings


SEAT0, SPREAD, LIMIT = "seat 0 advantage", "strategy spread", "games hitting a limit"


def headline_changes(spec, cards, seats, spread, thresholds=NEGLIGIBLE) -> pd.DataFrame:
    """The A/B card's headline changes, one row each (index ``metric``): seat 0's advantage (fairer when it
    moves toward zero), the strategy spread, the mean game length and the share of games hitting a limit
    (where the game records them). Columns a, b, change, change_low, change_high (95%), rate (whether the
    row is a rate), direction (the words for the change's sign) and verdict (sized against ``thresholds``)."""
    win = negligible_of(thresholds, "win")
    first = seats.iloc[0]
    fairer = "fairer" if abs(first["win_advantage_b"]) < abs(first["win_advantage_a"]) else "less fair"
    rows = {SEAT0: (first["win_advantage_a"], first["win_advantage_b"], first["win_advantage_change"],
                    first["win_advantage_change_low"], first["win_advantage_change_high"], True, (fairer, fairer), win)}
    s = spread["win_spread"]
    rows[SPREAD] = (s["A"], s["B"], s["B - A"], spread.loc["B - A", "win_spread_low"],
                    spread.loc["B - A", "win_spread_high"], True, ("wider", "narrower"), win)
    if spec.length_column:
        per_deal = [card["frame"].groupby("game")[spec.length_column].mean().to_frame("x") for card in cards]
        row = paired(*per_deal).iloc[0]
        rows[f"length ({spec.length_column})"] = (row["a"], row["b"], row["diff"], row["low"], row["high"], False,
                                                  ("longer", "shorter"),
                                                  negligible_of(thresholds, "length", spec.length_column))
    if spec.limit_hit is not None:
        per_deal = [card["per_game"].groupby("game")["limit"].mean().to_frame("x") for card in cards]
        row = paired(*per_deal).iloc[0]
        rows[LIMIT] = (row["a"], row["b"], row["diff"], row["low"], row["high"], True, ("more", "fewer"), win)
    table = []
    for metric, (a, b, change, low, high, rate, (up, down), negligible) in rows.items():
        judged = judge(low, high, change, negligible)
        direction = up if judged.sign > 0 else down if judged.sign < 0 else ""
        table.append({"metric": metric, "A": a, "B": b, "diff": change, "diff_low": low, "diff_high": high,
                      "rate": rate, "direction": direction, "size": judged.size,
                      "verdict": judged.text(up, down, threshold=negligible[1] if negligible else None)})
    return pd.DataFrame(table).set_index("metric")


def change_cell(row) -> str:
    """A headline change with its interval: in points for a rate, in the metric's unit otherwise."""
    if row["rate"]:
        return points(row["diff"], row["diff_low"], row["diff_high"])
    return interval_text(row["diff"], row["diff_low"], row["diff_high"], True)


def _change_text(row) -> str:
    if row["rate"]:
        values = f"A {row['A']:.2%} -> B {row['B']:.2%}" if row.name == LIMIT else \
            f"A {number(row['A'] * 100, 1, True)} points -> B {number(row['B'] * 100, 1, True)} points"
    else:
        values = f"mean A {row['A']:.1f} -> B {row['B']:.1f}"
    return f"{values}; change {change_cell(row)} ({row['verdict']})."


def _seat_findings(seats: pd.DataFrame, n: int) -> list[str]:
    first, best = seats.iloc[0], seats["win_advantage"].idxmax()
    significant = seats[(seats["win_advantage_low"] > 0) | (seats["win_advantage_high"] < 0)]
    return [f"Seat advantage (win rate minus the average seat's, over every seat order): seat 0, the first player, "
            f"{points(first['win_advantage'], first['win_advantage_low'], first['win_advantage_high'])} "
            f"(wins {first['win']:.1%}; {n} players); the best seat is seat {best} "
            f"({number(seats.loc[best, 'win_advantage'] * 100, 1, True)} points). "
            + (f"Seats with a significant advantage or handicap: {', '.join(map(str, significant.index))}."
               if len(significant) else "No seat's advantage is significant at 95%."),
            _every_seat("Every seat's advantage", seats, "win_advantage")]


def _every_seat(title: str, seats: pd.DataFrame, column: str) -> str:
    """Every seat's value of ``column`` (a difference of win rates) with its interval, in one sentence."""
    return f"{title}: " + "; ".join(f"seat {seat} {points(row[column], row[column + '_low'], row[column + '_high'])}"
                                    for seat, row in seats.iterrows()) + "."


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
        lines.append(f"Games hitting a limit ({spec.limit_label}): {share['mean']:.1%} [{share['low']:.1%}, "
                     f"{share['high']:.1%}].")
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
            f"that leader wins {share['mean']:.1%} [{share['low']:.1%}, {share['high']:.1%}] (a random seat would win "
            f"{1 / n:.0%}): " + ("the lead at half-time decides most games." if share["low"] > 0.5 else
                                 "games stay open after half-time." if share["high"] < 0.5 else "a lead helps but is often lost.")]


def _spread(per_game, tables, spec) -> list[str]:
    quantiles = [0.1, 0.5, 0.9]
    tables["spread"] = pd.DataFrame({"winning_margin": per_game["margin"].quantile(quantiles),
                                     "score_std_in_game": per_game["spread"].quantile(quantiles)}).rename_axis("quantile")
    margin = per_game["margin"]
    money = spec.score_column in spec.money_columns     # money in its currency: "$1,250", "1,250 credits"
    prefix = spec.currency if money and is_symbol(spec.currency) else ""
    unit = "" if prefix else f" {spec.currency}" if money and spec.currency else f" {spec.score_column.replace('_', ' ')}"

    def amount(value):
        return f"{prefix}{fmt_amount(value)}"
    return [f"Score spread: median winning margin {amount(margin.median())}{unit} (10-90%: "
            f"{amount(margin.quantile(0.1))} to {amount(margin.quantile(0.9))}); median spread of scores "
            f"within a game (s.d.) {amount(per_game['spread'].median())}."]


def _dominance(head: pd.DataFrame, labels) -> list[str]:
    if len(labels) < 2:
        return ["Dominance: the line-up has one strategy, so there is nothing to compare."]
    dominant = [s for s in labels if (head.loc[s]["low"] > 0.5).all()]
    if dominant:
        return [f"Dominance: {dominant[0]} finishes ahead of every other strategy of the line-up more often than not "
                "(every head-to-head 95% interval above 50%): it dominates this line-up."]
    return ["Dominance: no strategy of the line-up finishes ahead of every other one significantly more often than not."]
