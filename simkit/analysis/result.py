"""What every analysis returns: tables, findings in words and the set-up that produced them."""
from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd


@dataclass
class Analysis:
    """The outcome of one analysis.

    kind: compare, tournament, sweep or balance (the report draws plots by kind). tables: named DataFrames
    (written as CSV and Parquet). findings: sentences a person can read without the tables. setup: what
    was run (game, line-ups, rule changes, seed, games), recorded in the results. files: other text files
    (name -> content) for the results directory, e.g. the tuner's best parameters as TOML.
    """

    kind: str
    title: str
    game: str
    tables: dict[str, pd.DataFrame]
    findings: list[str] = field(default_factory=list)
    setup: dict = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)

    def text(self) -> str:
        """The analysis as plain text: title, findings, then every table."""
        lines = [self.title, "=" * len(self.title), *self.findings, ""]
        with pd.option_context("display.width", 160, "display.max_columns", 30, "display.max_rows", 60, "display.min_rows", 20,
                               "display.float_format", lambda v: f"{v:.4g}"):
            for name, table in self.tables.items():
                lines += [f"[{name}]", table.to_string(), ""]
        return "\n".join(lines)
