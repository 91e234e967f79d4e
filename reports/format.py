"""How reports show numbers and say what was tested, so a person reads them at a glance.

An estimate and its 95% interval share one cell (``24.5% [24.3, 24.8]``); rates are percentages,
counts and large numbers have thousands separators, money carries the game's currency
(``Game.money_columns``, ``Game.currency``); the decimals follow the interval's width, so a cell
shows the digits the data support. Headlines name the game, level, players and every rule that
differs from the defaults (``key: default -> value``).

Tables are the flat ones written to results directories (index as columns), so a report rendered
again from the files on disk shows the same cells as the one written with the analysis.
"""
from __future__ import annotations

import html
import math
import re

import numpy as np
import pandas as pd

RATE = re.compile(r"(^|_)(win|rate|share|ahead|mix)(_|$)")
SIGNED = re.compile(r"(^|_)(diff|advantage|vs_best)(_|$)")
HIDDEN = re.compile(r"half_width$")     # the interval shows it
MAX_ROWS = 60
CI_NOTE = "Cells show an estimate and its 95% interval [low, high]; rates are percentages."


def is_symbol(currency: str) -> bool:
    """A currency written before amounts ("$"), as opposed to a word named in headers ("credits")."""
    return bool(currency) and not currency[0].isalpha()


def money_columns(columns, game) -> set[str]:
    """The columns of a table that hold money: the game's money columns (also as ``mean_<column>``),
    and, when the game's score is money, the score measures of the analyses (``score_*``, ``mean_score``,
    winning margins)."""
    money = set(getattr(game, "money_columns", ()) or ())
    if not money:
        return set()
    score_is_money = game.score_column in money
    found = set()
    for column in map(str, columns):
        if column.endswith("_n") or "var_reduction" in column:
            continue
        base = column[5:] if column.startswith("mean_") else column
        if base in money or (score_is_money and (base.startswith("score") or column in ("winning_margin",
                                                                                           "score_std_in_game"))):
            found.add(column)
    return found


def _decimals(half_widths, scale: float, floor: int, ceiling: int) -> int:
    """Decimals down to the interval's leading digit: a half-width of 0.023 (after ``scale``) gets 2,
    of 0.23 gets 1, of 2.3 or more gets 0; ``floor``/``ceiling`` bound the result."""
    widths = np.abs(np.asarray(half_widths, float)) * scale
    widths = widths[np.isfinite(widths) & (widths > 0)]
    if not len(widths):
        return floor
    return int(min(max(-math.floor(math.log10(float(np.median(widths)))), floor), ceiling))


def number(value, decimals: int = 0, signed: bool = False, prefix: str = "", suffix: str = "") -> str:
    """``value`` with thousands separators, ``decimals`` places, a sign when ``signed`` (or negative)
    placed before the prefix: ``-$1,250``, ``+3.4%``."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    value = float(value)
    sign = "-" if value < 0 and round(abs(value), decimals) != 0 else ("+" if signed and value > 0 else "")
    return f"{sign}{prefix}{abs(value):,.{decimals}f}{suffix}"


def _plain_decimals(values) -> int:
    """Decimals for a column without intervals: none for whole numbers and large values, else about
    three significant digits."""
    values = np.asarray(values, float)
    values = values[np.isfinite(values)]
    if not len(values) or np.all(values == np.round(values)):
        return 0
    typical = float(np.median(np.abs(values[values != 0]))) if np.any(values != 0) else 1.0
    return int(min(max(2 - math.floor(math.log10(typical)), 0), 4))


def _header(column: str, money: bool, currency: str) -> str:
    text = column.replace("_", " ")
    if money and currency and not is_symbol(currency):
        text += f" ({currency})"
    return text


def present(table: pd.DataFrame, money: set[str] = frozenset(), currency: str = "") -> pd.DataFrame:
    """A flat table as strings for people: ``X``, ``X_low``/``low``, ``X_high``/``high`` (an interval
    follows the estimate it belongs to) become one ``X`` cell; rates become percentages (differences
    of rates signed), money gets the currency and every number its separators."""
    columns = [str(c) for c in table.columns]
    table = table.set_axis(columns, axis=1)
    shown = {}
    i = 0
    prefix = currency if is_symbol(currency) else ""
    while i < len(columns):
        column = columns[i]
        values = table[column]
        interval = None
        if i + 2 < len(columns) and columns[i + 1].endswith("low") and columns[i + 2].endswith("high") \
                and columns[i + 1][:-3] == columns[i + 2][:-4]:
            interval = (table[columns[i + 1]], table[columns[i + 2]])
        if HIDDEN.search(column):
            i += 1
            continue
        if not pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values):
            shown[column.replace("_", " ")] = values.astype(str).where(values.notna(), "")
            i += 1
            continue
        rate = bool(RATE.search(column))
        signed = bool(SIGNED.search(column))
        is_money = column in money
        scale = 100 if rate else 1
        if interval is not None:
            half = (interval[1] - interval[0]) / 2
            decimals = _decimals(half, scale, 1 if rate else 0, 3 if rate else 4)
        elif rate:
            decimals = 1
        else:
            decimals = _plain_decimals(values)
        if is_money:
            decimals = min(decimals, 0 if np.nanmedian(np.abs(values.to_numpy(float))) >= 100 else 2)
        if "var_reduction" in column:
            cells = [number(v, 1, suffix="x") for v in values]
        else:
            cells = [number(v * scale, decimals, signed, prefix if is_money else "", "%" if rate else "")
                     for v in values]
        if interval is not None:
            cells = [cell if not cell or (isinstance(lo, float) and math.isnan(lo)) else
                     f"{cell} [{number(lo * scale, decimals, signed)}, {number(hi * scale, decimals, signed)}]"
                     for cell, lo, hi in zip(cells, interval[0], interval[1])]
            i += 3
        else:
            i += 1
        shown[_header(column, is_money, currency)] = cells
    return pd.DataFrame(shown, index=table.index)


def head_to_head_matrix(table: pd.DataFrame) -> pd.DataFrame | None:
    """A long head-to-head table (strategy, opponent, ahead, low, high) as a matrix of cells
    ``55.1% [54.0, 56.2]`` (row ahead of column); None for any other table."""
    if not {"strategy", "opponent", "ahead", "low", "high"} <= set(map(str, table.columns)):
        return None
    cells = present(table[["ahead", "low", "high"]])
    long = pd.DataFrame({"strategy": table["strategy"].astype(str), "opponent": table["opponent"].astype(str),
                         "cell": cells.iloc[:, 0].to_numpy()})
    order = list(dict.fromkeys([*long["strategy"], *long["opponent"]]))
    matrix = long.pivot(index="strategy", columns="opponent", values="cell").reindex(index=order, columns=order)
    return matrix.fillna("").rename_axis(index="row ahead of column", columns=None).reset_index()


def table_html(table: pd.DataFrame, money: set[str] = frozenset(), currency: str = "", note: str = "") -> str:
    """A flat table as compact HTML for a report (at most MAX_ROWS rows, the rest in the files)."""
    matrix = head_to_head_matrix(table)
    shown = matrix if matrix is not None else present(table.head(MAX_ROWS), money, currency)
    body = shown.to_html(index=False, classes="summary", escape=True, na_rep="")
    more = (f'<p class="note">First {MAX_ROWS} of {len(table):,} rows; the full table is in the results directory.</p>'
            if matrix is None and len(table) > MAX_ROWS else "")
    return (f'<p class="note">{html.escape(note)}</p>' if note else "") + f'<div class="table">{body}</div>' + more


def _value(value) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, bool):
        return str(value).lower()
    return str(value) if value is not None else "(none)"


def rule_changes_text(changes, limit: int = 3) -> str:
    """``key: default -> value`` for the first ``limit`` changes, and how many more."""
    if not changes:
        return "default rules"
    parts = [f"{key}: {_value(default)} -> {_value(value)}" for key, default, value in changes[:limit]]
    more = f" and {len(changes) - limit} more" if len(changes) > limit else ""
    return "rules changed: " + "; ".join(parts) + more


def headline(game, rules: dict, players: int | None = None) -> str:
    """What was tested, in one line: the game, level, players, the rules that differ from the defaults
    and whether the set-up is the rulebook's (official) or a house rule."""
    level = game.level_of(rules)
    # the level is the rulebook's choice, named on its own: not a change of the rules
    changes = [change for change in game.rule_changes(rules) if level is None or change[0] != "game.level"]
    parts = [game.title]
    if level is not None:
        parts.append(f"level {level}")
    if players is not None:
        parts.append(f"{players} players")
    official_count = players is None or players in game.player_counts
    status = "house rules" if changes else "official" if official_count else "a house-rule player count"
    parts.append(f"{rule_changes_text(changes)} ({status})")
    return ", ".join(parts)


def changes_table_html(game, rules: dict) -> str:
    """The rules that differ from the defaults as a small table (never the whole rule data)."""
    changes = game.rule_changes(rules)
    if not changes:
        return (f'<p>Every rule at its default (the rules as the simulator plays them: '
                f'<code>docs/rules/{game.name}.md</code>).</p>')
    frame = pd.DataFrame([(key, _value(default), _value(value)) for key, default, value in changes],
                         columns=["rule", "default", "played"])
    return f'<div class="table">{frame.to_html(index=False, classes="summary")}</div>'
