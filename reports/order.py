"""One order per page: every table and plot of a page lists its strategies (or entries) in the same order, the
page's ranking, so a reader who finds a row in one finds it in the same place in the next.

The ranking of each kind of page is one column of one of its tables, largest first (``RANKING``): a run's win
rate, a tournament's rating, a compare's or an A/B balance card's effect B - A, a meta-game's equilibrium
share, a tuned strategy's margin over each field strategy. ``sort_tables`` puts every table whose rows (and
a matrix's columns) are those strategies in that order before the tables are written and the figures drawn
from them, so the CSVs, the figures, the page's tables and its forest plot agree. Tables whose rows run along
an axis of their own keep it: seats, sweep points, trials, rounds, length bins, a rule search's candidates
(numbered best first by the search). A table of swapped entries is ranked by its own effect (B - A)."""
from __future__ import annotations

import pandas as pd

# kind -> (the table that ranks the page's strategies, its column in that table; the first that exists)
RANKING: dict[str, list[tuple[str, str]]] = {
    "compare": [("strategy", "win_diff")],
    "balance": [("strategies", "win_diff"), ("strategies", "win_rate")],
    "tournament": [("standings", "rating")],
    "metagame": [("equilibrium", "mix")],
    "tune": [("margin_over_field", "best_win_diff")],
}
SWAPPED = ("swapped", "win_diff")       # the entries a compare or A/B card swapped, by their own effect


def _labels(table: pd.DataFrame, flat: bool) -> list:
    """The row labels of a table: its first column when flat (as written to disk), else its index's first level."""
    if flat:
        return list(table.iloc[:, 0]) if table.shape[1] else []
    return list(table.index.get_level_values(0))


def ranking(kind: str, tables: dict[str, pd.DataFrame], flat: bool = False) -> list[str]:
    """The page's strategies in its order (largest value of its ranking column first; ties keep their order);
    empty when the kind has no ranking or its table is missing. ``flat``: tables as written (labels in the first
    column) rather than indexed."""
    for name, column in RANKING.get(kind, []):
        table = tables.get(name)
        if table is not None and column in table.columns and len(table):
            labels = _labels(table, flat)
            values = pd.to_numeric(table[column], errors="coerce").fillna(float("-inf")).to_numpy()
            order = sorted(range(len(labels)), key=lambda i: -values[i])
            return [str(labels[i]) for i in dict.fromkeys(order)]
    return []


def _reordered(table: pd.DataFrame, order: list[str]) -> pd.DataFrame:
    """``table`` with rows labelled by strategies of ``order`` in that order (every index level that names them;
    a matrix's columns too); unchanged when its rows are something else."""
    position = {name: k for k, name in enumerate(order)}
    index = table.index
    levels = [k for k in range(index.nlevels) if len(index) and
              {ranked_name(v) for v in index.get_level_values(k)} <= set(position)]
    if not levels or 0 not in levels:
        return table
    keys = [[position[ranked_name(v)] for v in index.get_level_values(k)] for k in levels]
    rows = sorted(range(len(index)), key=lambda i: tuple(key[i] for key in keys))
    table = table.iloc[rows]
    if len(table.columns) and {ranked_name(c) for c in table.columns} <= set(position):
        table = table[sorted(table.columns, key=lambda c: position[ranked_name(c)])]
    return table


def ranked_name(label) -> str:
    """The strategy a row names: a re-tuned one (``threshold*``, ``blocker (re-tuned)``) ranks where its strategy
    does."""
    return str(label).removesuffix(" (re-tuned)").rstrip("*")


def sort_tables(kind: str, tables: dict[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """The analysis's tables (indexed, as the analysis returns them) in the page's one order."""
    order = ranking(kind, tables)
    out = {}
    for name, table in tables.items():
        if name == SWAPPED[0] and SWAPPED[1] in table.columns:
            table = table.iloc[sorted(range(len(table)), key=lambda i: -float(table[SWAPPED[1]].iloc[i])
                                      if pd.notna(table[SWAPPED[1]].iloc[i]) else float("inf"))]
        elif order:
            table = _reordered(table, order)
        out[name] = table
    return out


def out_of_order(labels: list, order: list[str]) -> list[str] | None:
    """The labels of ``labels`` that belong to ``order``, in the order they appear (repeats dropped), when that is
    not the order of ``order``; None when they agree (or fewer than two of them are ranked)."""
    seen = [label for label in dict.fromkeys(ranked_name(v) for v in labels) if label in order]
    if len(seen) < 2:
        return None
    return None if seen == [name for name in order if name in seen] else seen
