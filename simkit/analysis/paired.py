"""Paired differences B - A of two sides played on the same deals, in tables and in words: what compare,
balance, tune and the re-tuned comparisons share."""
from __future__ import annotations

import pandas as pd

from ..stats import Z95
from .play import block_outcomes
from .result import NEGLIGIBLE, negligible_of, points, score_change, verdict
from .stats import block_means, paired


def paired_tables(a: pd.DataFrame, b: pd.DataFrame, by: str, z: float = Z95) -> pd.DataFrame:
    """Win and score differences B - A per unit ``by`` side by side (columns win_*, score_*)."""
    out_a, out_b = block_outcomes(a, by), block_outcomes(b, by)
    return pd.concat({metric: paired(out_a[metric], out_b[metric], z) for metric in ("win", "score")}, axis=1)


def swapped_entries(a: pd.DataFrame, b: pd.DataFrame, labels_a, labels_b, rotated: bool, z: float = Z95):
    """The paired difference B - A of every line-up entry whose strategy B swapped (kelly -> copper-only):
    pooling by strategy cannot show it, as the two labels are different units. Without rotation an entry
    is its seat; with rotation it is that line-up position played from every seat. ``labels_a``/``labels_b``:
    the line-ups' labels in entry order. None if none swapped."""
    swapped = [entry for entry, (x, y) in enumerate(zip(labels_a, labels_b)) if x != y]
    if not swapped:
        return None
    table = _flatten(paired_tables(a, b, "entry", z)).loc[swapped]
    table.insert(0, "label_a", [labels_a[e] for e in swapped])
    table.insert(1, "label_b", [labels_b[e] for e in swapped])
    return table.rename_axis("entry" if rotated else "seat")


def swapped_findings(table, rotated: bool, game, level: str = "95%") -> list[str]:
    """One sentence per swapped entry: ``seat 0: kelly -> copper-only: win rate ...``."""
    if table is None:
        return []
    where = "entry {0} (every seat in turn)" if rotated else "seat {0}"
    return [f"{where.format(entry)}: {row['label_a']} -> {row['label_b']}: {change_text(row, game, level)}."
            for entry, row in table.iterrows()]


def seat_advantage(frame: pd.DataFrame) -> pd.DataFrame:
    """Under rotation: per seat, its win rate and mean score averaged over the strategies that sat there,
    and the advantage over the average seat, with 95% intervals over deals (the block)."""
    outcomes = block_outcomes(frame, "seat")
    tables = {}
    for metric, values in outcomes.items():
        advantage = values.sub(values.mean(axis=1), axis=0)
        tables[metric] = block_means(values)[["mean"]].join(block_means(advantage).add_prefix("advantage_"))
    table = pd.concat(tables, axis=1)
    table.columns = [f"{metric}_{name}".replace("_mean", "") for metric, name in table.columns]
    return table.drop(columns=["score_advantage_n"]).rename(columns={"win_advantage_n": "deals"})


def _flatten(table: pd.DataFrame) -> pd.DataFrame:
    """Columns win_*, score_*; the count of paired blocks once, as ``deals`` (the unit of the intervals:
    with rotation a deal is played in every seat order, so it is games / players)."""
    table = table.copy()
    table.columns = [f"{metric}_{name}" for metric, name in table.columns]
    deals = table.pop("win_n")
    table.insert(0, "deals", deals)
    return table.drop(columns=["score_n"])


def change_text(row, game, level: str = "95%", thresholds: dict | None = NEGLIGIBLE) -> str:
    """One unit's paired change in words: win rate A -> B, the difference in points with its verdict (sized
    against the negligible threshold), and the mean score's difference."""
    decided = verdict(row['win_low'], row['win_high'], level=level, diff=row['win_diff'],
                      negligible=negligible_of(thresholds, 'win'))
    return (f"win rate {row['win_a']:.1%} -> {row['win_b']:.1%}, B - A {points(row['win_diff'], row['win_low'], row['win_high'])} "
            f"({decided}); "
            f"{score_change(game, row['score_diff'], row['score_low'], row['score_high'])}")
