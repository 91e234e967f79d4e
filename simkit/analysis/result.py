"""What every analysis returns: tables, findings in words and the set-up that produced them."""
from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd


def player_count_note(game: str, players: int | None) -> str:
    """The warning every analysis output gives for a player count outside the game's rulebook (Wheedle's
    W1: 2 and 3 players are house rules); empty for an official count."""
    from ..games import get_game

    spec = get_game(game)
    if players is None or players in spec.player_counts:
        return ""
    official = ", ".join(map(str, spec.player_counts))
    return (f"HOUSE RULE: {players} players is outside the official rules of {spec.title} ({official} players); "
            "these results are for a house-rule game.")


@dataclass
class Analysis:
    """The outcome of one analysis.

    kind: compare, tournament, sweep or balance (the report draws plots by kind). tables: named DataFrames
    (written as CSV and Parquet). findings: sentences a person can read without the tables. setup: what
    was run (game, line-ups, rule changes, seed, games), recorded in the results. files: other text files
    (name -> content) for the results directory, e.g. the tuner's best parameters as TOML. players: the
    number of seats played; a count outside the game's rulebook puts a house-rule warning first in the
    findings (so the terminal, findings.txt and report.html all say it).
    """

    kind: str
    title: str
    game: str
    tables: dict[str, pd.DataFrame]
    findings: list[str] = field(default_factory=list)
    setup: dict = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)
    players: int | None = None

    def __post_init__(self):
        note = player_count_note(self.game, self.players)
        if note and note not in self.findings:
            self.findings.insert(0, note)

    def text(self) -> str:
        """The analysis as plain text: title, findings, then every table."""
        lines = [self.title, "=" * len(self.title), *self.findings, ""]
        with pd.option_context("display.width", 160, "display.max_columns", 30, "display.max_rows", 60, "display.min_rows", 20,
                               "display.float_format", lambda v: f"{v:.4g}"):
            for name, table in self.tables.items():
                lines += [f"[{name}]", table.to_string(), ""]
        return "\n".join(lines)
