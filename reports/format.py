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
import json
import math
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from simkit.errors import SimkitError
from simkit.results import strategy_gap
from simkit.strategy import recorded_spec

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
    widths = widths[np.isfinite(widths) & (widths > 1e-9)]     # below that, rounding error of a zero width
    if not len(widths):
        return floor
    return int(min(max(-math.floor(math.log10(float(np.median(widths)))), floor), ceiling))


def sign_decimals(decimals: int, *values, ceiling: int = 12) -> int:
    """``decimals``, or more, until every value that is not zero keeps a digit that is not zero, so that its
    printed sign is its sign: an interval [0.004, 2.0] printed to one decimal would read [+0.0, +2.0] and hide
    that it excludes zero. A value under 1e-9 of the largest one is rounding error of an exact zero (a
    bootstrap bound of 4e-31 beside 0.5) and keeps the decimals it has."""
    finite = [abs(float(v)) for v in values if v is not None and math.isfinite(float(v))]
    tiny = 1e-9 * max(finite, default=0.0)
    for value in values:
        if value is None or not math.isfinite(float(value)) or abs(float(value)) <= tiny:
            continue
        while decimals < ceiling and round(abs(float(value)), decimals) == 0:
            decimals += 1
    return decimals


def number(value, decimals: int = 0, signed: bool = False, prefix: str = "", suffix: str = "") -> str:
    """``value`` with thousands separators, ``decimals`` places, a sign when ``signed`` (or negative)
    placed before the prefix: ``-$1,250``, ``+3.4%``."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    value = float(value)
    sign = "-" if value < 0 and round(abs(value), decimals) != 0 else ("+" if signed and value > 0 else "")
    return f"{sign}{prefix}{abs(value):,.{decimals}f}{suffix}"


def percent(value, low=None, high=None, signed: bool = False) -> str:
    """A rate (0..1) as a percentage to one decimal, or more where its interval needs them to show its sign
    (``24.5%``, ``+0.04%`` beside an interval [+0.01, +0.07])."""
    places = sign_decimals(1, *(v * 100 for v in (low, high) if v is not None)) if signed else 1
    return number(float(value) * 100, places, signed, suffix="%")


def rate_interval(value, low, high) -> str:
    """A rate and its interval for a sentence: ``24.5% [24.3, 24.8]`` (one decimal, as the tables show it)."""
    return f"{percent(value)} [{number(low * 100, 1)}, {number(high * 100, 1)}]"


def rule_key(column: str) -> str:
    """A column or setting name for people: underscores become spaces, except in a rule key (``deck.copies_split``,
    a dotted path), which is printed as written so that it can be typed into ``--set`` again."""
    return column if "." in column else column.replace("_", " ")


def interval_text(value, low, high, signed: bool = False, prefix: str = "") -> str:
    """An estimate and its interval for a sentence, decimals down to the interval's leading digit:
    ``+$50,783 [-5,986, +107,553]``, ``-9.7 [-16.1, -3.2]``."""
    decimals = sign_decimals(_decimals([(high - low) / 2], 1, 0, 4), low, high)
    return (f"{number(value, decimals, signed, prefix)} [{number(low, decimals, signed)}, "
            f"{number(high, decimals, signed)}]")


def _plain_decimals(values) -> int:
    """Decimals for a column without intervals: none for whole numbers and large values, else about
    three significant digits."""
    values = np.asarray(values, float)
    values = values[np.isfinite(values)]
    if not len(values) or np.all(values == np.round(values)):
        return 0
    typical = float(np.median(np.abs(values[values != 0]))) if np.any(values != 0) else 1.0
    return int(min(max(2 - math.floor(math.log10(typical)), 0), 4))


def _cell_decimals(value, decimals: int) -> int:
    """A cell's decimals: its column's, or more (up to 4) where those would round the value by over 0.5% (a
    small value in a column of large ones: 1.5 beside 1,000 is shown as 1.5, never 2)."""
    value = float(value)
    while decimals < 4 and math.isfinite(value) and abs(round(value, decimals) - value) > 0.005 * abs(value):
        decimals += 1
    return decimals


def _header(column: str, is_money: bool, currency: str) -> str:
    text = rule_key(column)
    if is_money and currency and not is_symbol(currency):
        text += f" ({currency})"
    return text


def present(table: pd.DataFrame, money: set[str] = frozenset(), currency: str = "") -> pd.DataFrame:
    """A flat table as strings for people: ``X``, ``X_low``/``low``, ``X_high``/``high`` (an interval
    follows the estimate it belongs to) become one ``X`` cell; rates become percentages (differences
    of rates signed), money gets the currency and every number its separators. A column is a rate by its
    name, or, in a table with a true/false column ``rate`` (rows measuring different things, e.g. a share
    and a length), in the rows where ``rate`` is true; that column itself is not shown. A
    variance-reduction column with no value in any row is left out."""
    if "rate" in table.columns and pd.api.types.is_bool_dtype(table["rate"]):
        rows = table["rate"].to_numpy(bool)
        rest = table.drop(columns="rate").reset_index(drop=True)
        # rows of different units share a column, so no header names one unit
        shown = pd.concat([_present(rest[rows], money, currency, every_rate=True, unit_in_header=False),
                           _present(rest[~rows], money, currency, unit_in_header=False)]).sort_index()
        return shown.set_axis(table.index)
    return _present(table, money, currency)


def _present(table: pd.DataFrame, money, currency, every_rate: bool = False,
             unit_in_header: bool = True) -> pd.DataFrame:
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
        # a variance reduction that no row has (the paired difference is zero in every game) is no column
        if HIDDEN.search(column) or ("var_reduction" in column and len(values) and values.isna().all()):
            i += 1
            continue
        if not pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values):
            shown[rule_key(column)] = values.astype(str).where(values.notna(), "")
            i += 1
            continue
        rate = every_rate or bool(RATE.search(column))
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
        elif interval is None and not rate and not is_money:
            cells = [number(v, _cell_decimals(v, decimals), signed) for v in values]
        else:
            cells = [number(v * scale, decimals, signed, prefix if is_money else "", "%" if rate and not signed else "")
                     for v in values]
        if interval is not None:
            cells = [cell if not cell or (isinstance(lo, float) and math.isnan(lo)) else
                     f"{cell} [{number(lo * scale, sign_decimals(decimals, lo * scale, hi * scale), signed)}, "
                     f"{number(hi * scale, sign_decimals(decimals, lo * scale, hi * scale), signed)}]"
                     for cell, lo, hi in zip(cells, interval[0], interval[1])]
            i += 3
        else:
            i += 1
        # a difference of rates is in points (the findings' unit), said once in its header
        shown[_header(column, is_money, currency) + (" (points)" if rate and signed and unit_in_header else "")] = cells
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


WIDE_COLUMNS = 14


def table_html(table: pd.DataFrame, money: set[str] = frozenset(), currency: str = "", note: str = "") -> str:
    """A flat table as compact HTML for a report (at most MAX_ROWS rows, the rest in the files)."""
    if {"size", "verdict"} <= set(table.columns):   # the verdict says the size in words: one column, not two
        table = table.drop(columns="size")
    matrix = head_to_head_matrix(table)
    shown = matrix if matrix is not None else present(table.head(MAX_ROWS), money, currency)
    # a table of many columns (a search's raw trials) in smaller type, so that it fits the page's width
    body = shown.to_html(index=False, classes="summary wide" if len(shown.columns) > WIDE_COLUMNS else "summary",
                         escape=True, na_rep="")
    more = (f'<p class="note">First {MAX_ROWS} of {len(table):,} rows; the full table is in the results directory.</p>'
            if matrix is None and len(table) > MAX_ROWS else "")
    return (f'<p class="note">{html.escape(note)}</p>' if note else "") + f'<div class="table">{body}</div>' + more


def rule_value(value) -> str:
    """A rule value as a person reads it: ``2,000,000`` (separators from 10,000 up), ``0.25``, ``"text"``,
    ``true``; never scientific notation."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, int):
        return f"{value:,}" if abs(value) >= 10_000 else str(value)
    if isinstance(value, float):
        return np.format_float_positional(value, trim="-")
    if isinstance(value, (list, dict)):
        return json.dumps(value, separators=(",", ":"))        # as --set takes it: [9,12,3,3]
    return str(value) if value is not None else "(none)"


def rule_changes_text(changes, limit: int | None = None) -> str:
    """``key: default -> value`` for every change (or the first ``limit``, and how many more)."""
    if not changes:
        return "default rules"
    shown = changes if limit is None else changes[:limit]
    parts = [f"{key}: {rule_value(default)} -> {rule_value(value)}" for key, default, value in shown]
    more = f" and {len(changes) - len(shown)} more" if len(changes) > len(shown) else ""
    return "rules changed: " + "; ".join(parts) + more


def lineup_text(labels) -> str:
    """A line-up in a few words: the labels seat by seat, or one strategy in every seat."""
    labels = [str(label) for label in labels]
    if len(labels) > 1 and len(set(labels)) == 1:
        return f"{labels[0]} in every seat"
    return ", ".join(labels)


def headline(game, rules: dict, players: int | None = None, lineup=None, pool=None) -> str:
    """What was tested, in one line: the game, level, players, the line-up (seat by seat) or the pool of
    strategies a tournament draws from, every rule that differs from the defaults and whether the set-up
    is the rulebook's (official) or a house rule. The first line of every command's output and report."""
    level = game.level_of(rules)
    changes = _changes(game, rules)
    parts = [game.title]
    if level is not None:
        parts.append(f"level {level}")
    if players is not None:
        who = ""
        if pool is not None:
            who = f" drawn from {len(pool)} strategies ({', '.join(map(str, pool))})"
        elif lineup is not None:
            who = f" ({lineup_text(lineup)})"
        parts.append(f"{players} players{who}")
    parts.append(f"{rule_changes_text(changes)} ({_status(game, changes, players)})")
    return ", ".join(parts)


def _changes(game, rules: dict) -> list:
    """The rule changes a headline lists: the level is the rulebook's choice, named on its own (``level 2``),
    not a change of the rules."""
    level = game.level_of(rules)
    return [change for change in game.rule_changes(rules) if level is None or change[0] != "game.level"]


def _status(game, changes, players) -> str:
    official_count = players is None or players in game.player_counts
    return "house rules" if changes else "official" if official_count else "a house-rule player count"


def run_headline(game, manifest: dict) -> str:
    """The headline of a run directory (or of the batch it is about to play), from its manifest."""
    return headline(game, manifest["rules"], manifest["players"], [seat["label"] for seat in manifest["lineup"]])


def effective_rules(game, sets, rules, extra=()):
    """The effective rules of an analysis from its recorded set-up (a rules file that has gone since gives
    None: the headline then lists the --set strings as given)."""
    rules_file, overrides = (rules, None) if isinstance(rules, str) else (None, rules or None)
    try:
        return game.rules(rules_file, [*(sets or []), *extra], overrides)
    except SimkitError:
        return None


def _player_count(setup: dict, fallback):
    for key in ("players", "players_a"):
        value = setup.get(key)
        if isinstance(value, list):
            return len(value)
        if isinstance(value, int):
            return value
    return fallback


def tested(game, kind: str, setup: dict, players=None) -> str:
    """What an analysis tested, in one line (``headline`` of its set-up): the game, level, players and
    line-up (a tournament's or meta-game's pool; a parameter sweep's swept strategy; a tuned strategy and
    its field, or its copies in self-play), the rules that differ from the
    defaults; for an A/B analysis (compare, balance with a B side) B's rules and line-up where they differ;
    for a sweep the key swept and its values."""
    players = _player_count(setup, players)
    rules = effective_rules(game, setup.get("sets"), setup.get("rules"))
    if rules is None:
        return f"{game.title}, {players} players, rules: {', '.join(setup.get('sets') or []) or 'from a file'}"
    lineup = setup.get("players_a", setup.get("players"))
    lineup = lineup if isinstance(lineup, list) else None
    if kind == "sweep" and setup.get("swept") == "param" and lineup:
        lineup = [f"{setup['strategy']} ({setup['key']} swept)", *lineup[1:]]
    if kind == "tune" and setup.get("strategy") and isinstance(players, int):
        tuned = f"{setup['strategy']} (tuned)"
        lineup = [tuned, *setup["field"]] if setup.get("field") else [tuned] * players     # self-play: every seat
    pool = setup.get("strategies") if kind in ("tournament", "metagame") else None
    line = headline(game, rules, players, lineup, pool)
    if setup.get("sets_b") or setup.get("players_b"):
        rules_b = effective_rules(game, setup.get("sets"), setup.get("rules"), setup.get("sets_b") or ())
        if rules_b is not None and game.rule_changes(rules_b) != game.rule_changes(rules):
            level_b = game.level_of(rules_b)
            changes_b = _changes(game, rules_b)
            line += (f"; B: {f'level {level_b}, ' if level_b != game.level_of(rules) else ''}"
                     f"{rule_changes_text(changes_b)} ({_status(game, changes_b, players)})")
        if setup.get("players_b") and setup["players_b"] != lineup:
            line += f"; B's line-up: {lineup_text(setup['players_b'])}"
    if kind == "sweep" and setup.get("key"):
        line += f"; swept: {setup['key']} over {', '.join(map(str, setup['values']))}"
    if kind == "design":
        line += f"; searched: {', '.join(setup.get('vary') or [])} for {', '.join(setup.get('goals') or [])}"
        if setup.get("population"):
            line += "; population " + ", ".join(f"{label} {share:.0%}" for label, share in setup["population"])
    return line


def changes_table_html(game, rules: dict) -> str:
    """The rules that differ from the defaults as a small table (never the whole rule data)."""
    changes = game.rule_changes(rules)
    if not changes:
        return (f'<p>Every rule at its default (the rules as the simulator plays them: '
                f'<code>docs/rules/{game.name}.md</code>).</p>')
    frame = pd.DataFrame([(key, rule_value(default), rule_value(value)) for key, default, value in changes],
                         columns=["rule", "default", "played"])
    return f'<div class="table">{frame.to_html(index=False, classes="summary")}</div>'


def setup_table_html(game, setup: dict) -> str:
    """What an analysis ran, as a two-column table (never a raw dump): each setting in words, and the rules
    as the changes from the defaults, side A and side B."""
    rows = []
    rules = effective_rules(game, setup.get("sets"), setup.get("rules"))
    for key, value in setup.items():
        if key in ("rules", "rules_effective", "sets", "sets_b", "game") or value in (None, [], {}, ""):
            continue
        if isinstance(value, list):
            value = ", ".join(json.dumps(v) if isinstance(v, (list, dict)) else str(v) for v in value)
        elif isinstance(value, float):
            value = np.format_float_positional(value, trim="-")
        elif isinstance(value, int) and not isinstance(value, bool):
            value = f"{value:,}" if key not in ("seed", "seed_b") else str(value)
        rows.append((rule_key(key), str(value)))
    rows.append(("rules", rule_changes_text(game.rule_changes(rules)) if rules is not None
                 else ", ".join(setup.get("sets") or []) or "from a rules file"))
    if setup.get("sets_b"):
        rules_b = effective_rules(game, setup.get("sets"), setup.get("rules"), setup["sets_b"])
        rows.append(("rules of B", rule_changes_text(game.rule_changes(rules_b)) if rules_b is not None
                     else ", ".join(setup["sets_b"])))
    frame = pd.DataFrame(rows, columns=["setting", "value"])
    return f'<div class="table">{frame.to_html(index=False, classes="setup")}</div>'


def flat_table(table: pd.DataFrame) -> pd.DataFrame:
    """A table with its index as columns (how results directories store tables)."""
    table = table.reset_index() if any(name is not None for name in table.index.names) else table.reset_index(drop=True)
    table.columns = [str(c) for c in table.columns]
    return table


def table_text(table: pd.DataFrame, game) -> str:
    """A table for the terminal: the cells of the report (one per estimate and interval, percentages,
    money with separators; a head-to-head table as its matrix), as aligned text."""
    table = flat_table(table)
    matrix = head_to_head_matrix(table)
    shown = matrix if matrix is not None else present(table, money_columns(table.columns, game), game.currency)
    return shown.to_string(index=False)


def lineup_spec(manifest: dict) -> str:
    """A run's line-up as ``--players`` takes it again: a registered strategy by its label, one of the
    user's own as ``module:label`` (the module its decisions come from; its attribute is taken to be named
    as the strategy)."""
    return ",".join(recorded_spec(manifest["game"], seat) for seat in manifest["lineup"])


ROTATED_SEATS = ("Seats rotated (--rotate-seats): every strategy played every seat equally often on the same deals, "
                 "so the strategy table is free of seat advantage and the seat table is the seats' own advantage.")


def confounding_note(manifest: dict) -> str:
    """What the seat table of a run can and cannot say for its line-up (a plain run never moves a strategy)."""
    labels = [seat["label"] for seat in manifest["lineup"]]
    if manifest.get("rotate_seats") and len(set(labels)) > 1:
        return ROTATED_SEATS
    if len(set(labels)) == 1:
        return (f"Every seat plays {labels[0]}, so the seat table measures the seats alone: a difference between "
                "seats is the seat's advantage (turn order), not a strategy's.")
    return ("Seat and strategy are confounded here: in a plain run each strategy keeps its seat "
            f"({', '.join(f'seat {i} {label}' for i, label in enumerate(labels))}), so a strategy's numbers include "
            "its seat's advantage and a seat's include its strategy's skill. To separate them, play every seat "
            f"order: simkit balance {manifest['game']} --players {lineup_spec(manifest)} (or simkit compare ... "
            "--rotate-seats).")


def seat_labels(manifest: dict) -> dict:
    """Seat -> the strategy that played it (under --rotate-seats every strategy did, equally often)."""
    rotated = manifest.get("rotate_seats")
    return {entry["seat"]: "all, rotated" if rotated else entry["label"] for entry in manifest["lineup"]}


def summary_frames(summary: dict, manifest: dict) -> dict[str, pd.DataFrame]:
    """The tables of ``simkit summary`` and of a run's report, flat (the seat table names each seat's
    strategy), so both show the same cells."""
    labels = seat_labels(manifest)
    frames = {}
    for key, table in summary.items():
        flat = table.reset_index().rename(columns={"n": "games"})
        if key == "seat":
            flat.insert(1, "strategy", [labels.get(int(seat), "") for seat in flat["seat"]])
        frames[key] = flat
    return frames


# the three size phrases every verdict states (docs/analysis.md, "Verdicts state size as well as sign")
LARGE = "significant and larger than negligible"
SMALL = "significant but negligible"
NOT_SIGNIFICANT = "no significant difference"


@dataclass(frozen=True)
class Judged:
    """A difference judged once from its interval, the structured verdict every analysis renders (``size``,
    ``text``) and decides on (``sign``, ``small``) instead of reading its own words back.

    sign: +1 when the interval lies above 0, -1 below, 0 when it holds 0 (not significant); small: significant
    but closer to 0 than the negligible threshold; sized: a threshold was applied."""

    sign: int
    small: bool = False
    sized: bool = False

    @property
    def significant(self) -> bool:
        return self.sign != 0

    @property
    def large(self) -> bool:
        """Significant and not negligible: a difference worth acting on."""
        return self.sign != 0 and not self.small

    @property
    def size(self) -> str:
        """One of the three phrases: LARGE, SMALL or NOT_SIGNIFICANT (a significant difference judged without
        a threshold counts as LARGE)."""
        return NOT_SIGNIFICANT if not self.sign else SMALL if self.small else LARGE

    def text(self, higher: str = "higher", lower: str = "lower", level: str = "95%",
             threshold: str | None = None) -> str:
        """The verdict in words: ``higher, significant and larger than negligible (0.5 points) at 95%``; the
        threshold's words in brackets when it was sized (``threshold``: how the threshold reads)."""
        if not self.sign:
            return f"no significant difference at {level}"
        direction = higher if self.sign > 0 else lower
        if not self.sized:
            return f"{direction}, significant at {level}"
        size = "but negligible" if self.small else "and larger than negligible"
        return f"{direction}, significant {size} ({threshold}) at {level}"


def judge(low: float, high: float, diff: float | None = None, negligible: tuple | None = None) -> Judged:
    """A difference's Judged from its interval [low, high] and estimate ``diff``, sized against ``negligible``
    = (threshold, words) from negligible_of: significant when the interval excludes 0, negligible when the
    estimate is closer to 0 than the threshold."""
    sign = 1 if low > 0 else -1 if high < 0 else 0
    sized = negligible is not None and diff is not None
    return Judged(sign, bool(sign and sized and abs(diff) < negligible[0]), sized)


def verdict(low: float, high: float, higher: str = "higher", lower: str = "lower", level: str = "95%",
            diff: float | None = None, negligible: tuple | None = None) -> str:
    """A difference's plain-words verdict from its interval (at ``level``, 95% unless an analysis widened it);
    with ``negligible`` = (threshold, how it reads, e.g. "0.5 points") and the estimate ``diff``, a significant
    one is also sized: "significant and larger than negligible" when the estimate is at least the threshold
    away from zero, else "significant but negligible" (judge, rendered by Judged.text)."""
    return judge(low, high, diff, negligible).text(higher, lower, level, negligible[1] if negligible else None)


def points(diff: float, low: float, high: float) -> str:
    """A difference of rates in percentage points with its interval: ``+1.2 points [+0.4, +2.0]`` (a value
    that rounds to zero is written 0.0, never -0.0)."""
    places = sign_decimals(1, low * 100, high * 100)
    return (f"{number(diff * 100, places, True)} points [{number(low * 100, places, True)}, "
            f"{number(high * 100, places, True)}]")


def run_findings(source, manifest: dict, summary: dict, gaps: dict | None = None) -> list[str]:
    """A run's answers in a few sentences (``simkit summary`` prints them first; the report too): what was
    played, the best strategy against the runner-up as a paired difference over the same games with its
    verdict, and what the seat table can say. ``gaps``: ``leader_gaps`` of the run, when already measured."""
    lines = [f"{manifest['games']:,} games, seed {manifest['seed']}; intervals 95% (Wilson for rates); a tie counts "
             "as a win for every tied seat."]
    rates = summary["strategy"].sort_values("win_rate", ascending=False)
    best = rates.iloc[0]
    line = (f"Highest win rate: {rates.index[0]} {best['win_rate']:.1%} [{best['win_low']:.1%}, {best['win_high']:.1%}] "
            f"(a seat at random wins {1 / manifest['players']:.1%})")
    gaps = leader_gaps(source, summary) if gaps is None else gaps
    if len(rates) > 1:
        second = rates.iloc[1]
        diff, low, high = gaps[str(rates.index[1])]
        line += (f"; next {rates.index[1]} {second['win_rate']:.1%}: {rates.index[0]} leads by "
                 f"{points(diff, low, high)}, paired over the same games ({verdict(low, high, 'ahead', 'behind')})")
    lines.append(line + ".")
    if len(gaps) > 1:
        lines.append(f"{rates.index[0]}'s win rate minus each other strategy's, paired over the same games: "
                     + "; ".join(f"{name} {points(*gap)}" for name, gap in gaps.items()) + ".")
    labels = [seat["label"] for seat in manifest["lineup"]]
    lines.append(f"Every seat plays {labels[0]}: the seat table is the seats' own advantage." if len(set(labels)) == 1
                 else ROTATED_SEATS if manifest.get("rotate_seats")
                 else f"Each strategy keeps its seat, so seat and strategy are confounded: simkit balance "
                      f"{manifest['game']} --players {lineup_spec(manifest)} separates them.")
    return lines


def leader_gaps(source, summary: dict) -> dict:
    """The run's highest win rate minus every other strategy's, paired over the same games: name -> (difference,
    low, high) in the order of the strategy table (what a run's findings and its forest plot show)."""
    rates = summary["strategy"].sort_values("win_rate", ascending=False)
    leader = str(rates.index[0])
    return {str(name): strategy_gap(source, leader, str(name)) for name in rates.index[1:]}
