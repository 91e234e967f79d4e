"""What every analysis returns: tables, findings in words and the set-up that produced them."""
from __future__ import annotations

import textwrap
from dataclasses import dataclass, field

import pandas as pd

from ..games import get_game
from ..inputs import NEGLIGIBLE, NEGLIGIBLE_UNITS, parse_negligible  # noqa: F401  (re-exported)
from ..reports.format import LARGE, NOT_SIGNIFICANT, SMALL, Judged, interval_text, is_symbol, judge, table_text, tested  # noqa: F401  (re-exported, as points)
from ..reports.format import points as points  # re-exported: the analyses take their wording from here
from ..reports.format import verdict as verdict  # re-exported, as points


def player_count_note(game: str, players: int | None) -> str:
    """The warning every analysis output gives for a player count outside the game's rulebook (Wheedle's
    W1: 2 and 3 players are house rules); empty for an official count."""
    spec = get_game(game)
    if players is None or players in spec.player_counts:
        return ""
    official = ", ".join(map(str, spec.player_counts))
    return (f"HOUSE RULE: {players} players is outside the official rules of {spec.title} ({official} players); "
            "these results are for a house-rule game.")


def games_played(deals: int, orders: int = 1, per_side: bool = False) -> str:
    """How many games an analysis played, said the same way everywhere (findings, terminal, report) so that
    the games in the findings and the deals in the tables visibly agree: "20,000 games (4,000 deals x 5 seat
    orders)" under seat rotation, "20,000 games (one per deal)" without."""
    side = " per side" if per_side else ""
    if orders > 1:
        return f"{deals * orders:,} games{side} ({deals:,} deals x {orders} seat orders)"
    return f"{deals:,} games{side} (one per deal)"


def negligible_of(thresholds: dict | None, metric: str, unit: str = ""):
    """The (threshold, words) pair verdict takes for ``metric`` of parse_negligible's ``thresholds``."""
    if thresholds is None:
        return None
    value = thresholds[metric]
    shown = value * 100 if metric == "win" else value
    unit = {"win": "points", "rating": "rating points"}.get(metric, unit)
    if shown == 1 and unit.endswith("s"):   # 1 turn, 1 point
        unit = unit[:-1]
    return (value, f"{shown:g}{' ' + unit if unit else ''}")


def size_words(low: float, high: float, diff: float, negligible: tuple | None) -> str:
    """The size of a difference in one of three phrases: "significant and larger than negligible" (its
    interval excludes 0 and the estimate is at least the threshold away from 0), "significant but negligible"
    or "no significant difference" (``negligible``: (threshold, words) from negligible_of)."""
    return judge(low, high, diff, negligible).size


def score_change(game, diff: float, low: float, high: float) -> str:
    """A paired change of mean score in words with its interval, in the game's score and currency:
    ``mean net worth -$97,703 [-172,026, -23,380]``."""
    money = game.score_column in game.money_columns
    prefix = game.currency if money and is_symbol(game.currency) else ""
    unit = f" {game.currency}" if money and game.currency and not prefix else ""
    return f"mean {game.score_column.replace('_', ' ')} {interval_text(diff, low, high, True, prefix)}{unit}"


TERMINAL_ROWS = 30      # a longer table goes to the results directory's files, or the terminal with --verbose
FINDINGS_WIDTH = 120    # the findings wrap to this width: readable in a 120-column terminal


@dataclass
class Analysis:
    """The outcome of one analysis.

    kind: compare, tournament, sweep or balance (the report draws plots by kind). tables: named DataFrames
    (written as CSV and Parquet). findings: sentences a person can read without the tables. setup: what
    was run (game, line-ups, rule changes, seed, games), recorded in the results. files: other text files
    (name -> content) for the results directory, e.g. the tuner's best parameters as TOML. players: the
    number of seats played; a count outside the game's rulebook puts a house-rule warning first in the
    findings (so the terminal, findings.txt and report.html all say it). details: tables too long or too
    raw for the terminal (they are written to the results directory, and printed with --verbose).
    """

    kind: str
    title: str
    game: str
    tables: dict[str, pd.DataFrame]
    findings: list[str] = field(default_factory=list)
    setup: dict = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)
    players: int | None = None
    details: tuple[str, ...] = ()

    def __post_init__(self):
        note = player_count_note(self.game, self.players)
        if note and note not in self.findings:
            self.findings.insert(0, note)

    def headline(self) -> str:
        """What was tested, in one line (the report's headline): game, level, players, line-up, rule
        changes as ``key: default -> value`` and official/house-rule status."""
        return tested(get_game(self.game), self.kind, self.setup, self.players)

    def text(self, verbose: bool = False, tables: bool = True) -> str:
        """The analysis for the terminal, answers first: what was tested, the findings, then the compact
        tables in the report's cells; long tables are named with where to find them (every table in
        full with ``verbose``)."""
        headline = self.headline()
        lines = [headline, "=" * min(len(headline), 100), f"{self.title}:",
                 *(textwrap.fill(line, FINDINGS_WIDTH, initial_indent="- ", subsequent_indent="  ",
                                 break_long_words=False, break_on_hyphens=False) for line in self.findings)]
        if not tables:
            return "\n".join(lines)
        game = get_game(self.game)
        held = []
        for name, table in self.tables.items():
            if table.empty:     # e.g. the head-to-head of a line-up of one strategy
                continue
            if not verbose and (name in self.details or len(table) > TERMINAL_ROWS):
                held.append(f"{name} ({len(table):,} row{'' if len(table) == 1 else 's'})")
                continue
            lines += ["", f"[{name}]", table_text(table, game)]
        if held:
            lines += ["", textwrap.fill(f"Not shown: {', '.join(held)}: written by --out DIR (DIR/NN-{self.kind}/"
                                        "NAME.csv), printed by --verbose.", FINDINGS_WIDTH, break_long_words=False,
                                        break_on_hyphens=False)]
        return "\n".join(lines)
