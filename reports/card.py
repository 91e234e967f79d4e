"""The answer card at the top of every report page: what was tested, the verdict in the terminal's words, and
one forest plot of the tested effects (dot and 95% interval on a shared scale, the negligible band shaded).

The effects of a page are exactly the differences its findings state with an interval, read from the tables
the analysis wrote (so a page rendered again from disk shows the same plot): every compare entry's B - A
(swapped ones included), a balance card's seat advantages or A/B changes, each sweep point minus the best
(paired), each design candidate minus the default rules, the tuned strategy minus its start, each re-tuned
change, a tournament's ratings and each one's lead over the next, a run's leader minus every other strategy.
tests/test_browser.py (with tests/figure_checks.py) checks that the plot and the sentences name the same
effects."""
from __future__ import annotations

import base64
import html
import io
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from simkit import version
from simkit.analysis.card import LIMIT
from simkit.analysis.result import NEGLIGIBLE

from .format import interval_text, is_symbol, number, sign_decimals
from .plots import compact

WIN_UNIT = "win rate difference (points)"


@dataclass
class Panel:
    """One scale of the forest plot: effects in the same unit, the half-width of its negligible band."""

    unit: str
    negligible: float = 0.0
    prefix: str = ""            # a currency symbol the values carry ($)
    labels: list = field(default_factory=list)
    values: list = field(default_factory=list)

    def add(self, label, value, low, high, scale: float = 1.0):
        """One effect; none where it is unknown or exactly zero with no spread (A and B identical in every
        game: the findings say so instead of giving an interval)."""
        if isinstance(label, float) and label.is_integer():
            label = int(label)
        if pd.notna(value) and pd.notna(low) and pd.notna(high) and (value, low, high) != (0, 0, 0):
            self.labels.append(str(label))
            self.values.append((float(value) * scale, float(low) * scale, float(high) * scale))


def _negligible(setup: dict, metric: str) -> float:
    """The analysis's --negligible threshold of ``metric`` (its setup keeps them), else the default."""
    return (setup.get("negligible") or NEGLIGIBLE).get(metric, NEGLIGIBLE[metric])


def _win_panel(setup: dict) -> Panel:
    return Panel(WIN_UNIT, _negligible(setup, "win") * 100)


def _rows(table: pd.DataFrame | None):
    """(label, row) of a flat table, the label being its first column (the index it was written from)."""
    if table is None or table.empty:
        return []
    first = table.columns[0]
    return [(row[first], row) for _, row in table.iterrows()]


def _swapped(panel: Panel, table, rotated: bool, column="win", scale=100.0):
    for label, row in _rows(table):
        label = int(label) if isinstance(label, float) and label.is_integer() else label
        where = f"entry {label}" if rotated else f"seat {label}"
        panel.add(f"{where}: {row['label_a']} -> {row['label_b']}", row[f"{column}_diff"], row[f"{column}_low"],
                  row[f"{column}_high"], scale)


def analysis_panels(kind: str, tables: dict[str, pd.DataFrame], setup: dict, game) -> list[Panel]:
    """The forest plot's panels of one analysis, from its flat tables (as written to its folder)."""
    win = _win_panel(setup)
    panels = [win]
    if kind == "compare":
        money = game.score_column in game.money_columns
        score = Panel(f"mean {game.score_column.replace('_', ' ')} B - A"
                      + (f" ({game.currency})" if money and game.currency and not is_symbol(game.currency) else ""),
                      _negligible(setup, "score"), game.currency if money and is_symbol(game.currency) else "")
        rotated = bool(setup.get("rotate_seats"))
        _swapped(win, tables.get("swapped"), rotated)
        _swapped(score, tables.get("swapped"), rotated, "score", 1.0)
        for label, row in _rows(tables.get("strategy")):
            win.add(label, row["win_diff"], row["win_low"], row["win_high"], 100)
            score.add(label, row["score_diff"], row["score_low"], row["score_high"])
        panels.append(score)
    elif kind == "balance" and "seat_advantage_a" in tables:
        for seat, row in _rows(tables.get("seats")):
            win.add(f"seat {int(seat)} advantage", row["win_advantage_change"], row["win_advantage_change_low"],
                    row["win_advantage_change_high"], 100)
        spread = tables.get("spread")
        if spread is not None:
            row = spread.set_index(spread.columns[0]).loc["B - A"]
            win.add("strategy spread", row["win_spread"], row["win_spread_low"], row["win_spread_high"], 100)
        _swapped(win, tables.get("swapped"), True)
        for label, row in _rows(tables.get("strategies")):
            win.add(label, row["win_diff"], row["win_low"], row["win_high"], 100)
        for metric, row in _rows(tables.get("changes")):
            if metric.startswith("length"):
                panel = Panel(f"game length B - A ({game.length_column})", _negligible(setup, "length"))
                panel.add("mean game length", row["diff"], row["diff_low"], row["diff_high"])
                panels.append(panel)
            elif metric == LIMIT:
                win.add(metric, row["diff"], row["diff_low"], row["diff_high"], 100)
    elif kind == "balance":
        win.unit = "win rate minus the average seat's (points)"
        for seat, row in _rows(tables.get("seats")):
            win.add(f"seat {int(seat)}", row["win_advantage"], row["win_advantage_low"], row["win_advantage_high"], 100)
    elif kind == "sweep":
        focus = tables.get("focus")
        win.unit = "win rate minus the highest point's (points, paired)"
        key = setup.get("key", "value")
        best = focus[focus.columns[0]].iloc[int(np.argmax(focus["win_rate"].to_numpy()))] if focus is not None else None
        for value, row in _rows(focus):
            if value != best:       # the best point itself: exactly zero
                win.add(f"{key}={value}", row["win_vs_best"], row["vs_best_low"], row["vs_best_high"], 100)
    elif kind == "tune":
        win.unit = "win rate difference (points, paired, fresh seeds)"
        for label, row in _rows(tables.get("validation")):
            win.add(f"best - start ({label})", row["win_diff"], row["win_low"], row["win_high"], 100)
        for label, row in _rows(tables.get("margin_over_field")):
            win.add(f"best response - {label}", row["best_win_diff"], row["best_win_diff_low"],
                    row["best_win_diff_high"], 100)
            win.add(f"start - {label}", row["start_win_diff"], row["start_win_diff_low"], row["start_win_diff_high"], 100)
    elif kind == "design":
        validation = tables.get("validation")
        panels = []
        if validation is not None and len(validation):
            goals = validation[(validation["role"] == "goal") & (validation["rules"] != "default")]
            directions = dict(zip(setup.get("goals") or [], setup.get("directions") or []))
            for measure, rows in goals.groupby("measure", sort=False):
                rate = _is_rate(rows)
                better = {"minimize": "; lower is better", "maximize": "; higher is better"}.get(directions.get(measure), "")
                panel = Panel(f"{measure}: candidate - default" + (f" (points{better})" if rate else
                                                                   f" ({better[2:]})" if better else ""))
                for _, row in rows.iterrows():
                    panel.add(row["rules"], row["diff"], row["diff_low"], row["diff_high"], 100 if rate else 1)
                panels.append(panel)
    elif kind == "tournament":
        ratings = Panel("rating (Elo-like, mean 0; +100: ahead of an average strategy 64% of the time)")
        leads = Panel("lead in rating over the next in the ranking")
        rows = _rows(tables.get("standings"))
        for k, (label, row) in enumerate(rows):
            ratings.add(label, row["rating"], row["rating_low"], row["rating_high"])
            if k + 1 < len(rows):
                leads.add(f"{label} - {rows[k + 1][0]}", row["lead_over_next"], row["lead_over_next_low"],
                          row["lead_over_next_high"])
        panels = [ratings, leads]
    elif kind in ("metagame", "ladder"):
        name = "growth" if "growth" in tables else "ladder" if "ladder" in tables else None
        if name:
            win.unit = "exploitability bound (points of win share)"
            for label, row in _rows(tables[name]):
                win.add(label, row["exploitability_share"], row["exploitability_share_low"],
                        row["exploitability_share_high"], 100)
    if kind in ("compare", "balance"):      # --retune: each strategy's change once every player is re-tuned
        for label, row in _rows(tables.get("retuned_strategy")):    # beside the same strategy with fixed players
            win.add(f"{label} (re-tuned)", row["win_diff"], row["win_low"], row["win_high"], 100)
        _retuned_metrics(panels, tables.get("retuned"), setup, game)
    return [panel for panel in panels if panel.labels]


def _retuned_metrics(panels: list[Panel], table, setup: dict, game) -> None:
    """--retune's side-by-side verdicts (seat advantage, strategy spread, game length, games at a limit), each
    change B - A for fixed and for re-tuned players; a fixed one already drawn (an A/B card's own change) once."""
    if table is None or table.empty:
        return
    for _, row in table.iterrows():
        if bool(row["rate"]):
            panel, scale = panels[0], 100.0
        else:
            unit = f"game length B - A ({game.length_column})"
            panel = next((p for p in panels if p.unit == unit), None)
            if panel is None:
                panel = Panel(unit, _negligible(setup, "length"))
                panels.append(panel)
            scale = 1.0
        value = tuple(float(row[c]) * scale for c in ("diff", "diff_low", "diff_high"))
        if row["players"] == "fixed" and any(np.allclose(value, drawn) for drawn in panel.values):
            continue
        panel.add(f"{row['metric']} ({row['players']})", *value)


def run_panels(leader: str, gaps: dict) -> list[Panel]:
    """A run's forest plot: its highest win rate minus every other strategy's, paired over the same games
    (``format.leader_gaps``)."""
    panel = Panel(f"{leader}'s win rate minus each other strategy's (points, paired)", NEGLIGIBLE["win"] * 100)
    for name, gap in gaps.items():
        panel.add(name, *gap, scale=100)
    return [panel] if panel.labels else []


def _is_rate(rows: pd.DataFrame) -> bool:
    """A goal that is a rate or share (its name says so and its values lie in 0..1), drawn in points."""
    if not any(word in str(rows["measure"].iloc[0]) for word in ("win", "share", "balance", "bankrupt", "limit")):
        return False
    values = rows[["value", "value_low", "value_high"]].to_numpy(float) if "value" in rows else np.array([0.5])
    values = values[np.isfinite(values)]
    return bool(len(values)) and bool(np.all((values >= 0) & (values <= 1)))


def forest_figure(panels: list[Panel]):
    """Dot and 95% interval of every effect, one row each, a panel per unit (effects of one unit on one shared
    scale), the negligible band shaded and 0 marked; the scale never shrinks below the band (an effect of
    essentially zero sits in the middle of the axis instead of filling it). Each row's estimate and interval
    are written at its right, as the findings print them."""
    import matplotlib.pyplot as plt

    rows = [len(panel.labels) for panel in panels]
    fig, axes = plt.subplots(len(panels), 1, figsize=(8.5, 0.9 + 0.32 * sum(rows) + 0.75 * len(panels)),
                             height_ratios=[r + 1.2 for r in rows], squeeze=False, layout="constrained")
    for ax, panel in zip(axes[:, 0], panels):
        values = np.array(panel.values, float)
        y = np.arange(len(values))
        reach = max(np.nanmax(np.abs(values[:, 1:])), 2 * panel.negligible, 1e-9)
        floor = 1.0 if "points" in panel.unit else 0.0      # a point of win rate at least: ticks never collide
        reach = max(reach, floor) * 1.08
        if panel.negligible:
            ax.axvspan(-panel.negligible, panel.negligible, color="#e8e8e8", zorder=0,
                       label=f"negligible (within \u00b1{number(panel.negligible, 1)})")
        ax.axvline(0, color="#888888", linewidth=1, zorder=1)
        colours = np.where(values[:, 1] > 0, "#2166AC", np.where(values[:, 2] < 0, "#B2182B", "#555555"))
        ax.hlines(y, values[:, 1], values[:, 2], colors=colours, linewidth=2.2, zorder=2)
        ax.scatter(values[:, 0], y, color=colours, s=36, zorder=3)
        ax.set_yticks(y, [label if len(label) <= 42 else label[:40] + "..." for label in panel.labels], fontsize=8)
        ax.set_ylim(len(values) - 0.4, -0.6)
        ax.set_xlim(-reach, reach)
        ax.xaxis.set_major_formatter(lambda v, _: (("+" if v > 0 else "") + compact(v, panel.prefix)) if abs(v) >= 1000
                                     else f"{v:+g}" if v else "0")
        twin = ax.twinx()
        twin.set_ylim(ax.get_ylim())
        twin.set_yticks(y, [_interval(*row, points="points" in panel.unit, prefix=panel.prefix) for row in values],
                        fontsize=8)
        twin.tick_params(length=0)
        ax.set_xlabel(panel.unit, fontsize=9)
        ax.grid(axis="x", color="#eeeeee", zorder=0)
        if panel.negligible:
            ax.legend(loc="lower right", bbox_to_anchor=(1.0, 1.0), fontsize=7, frameon=False, borderaxespad=0.2)
    return fig


def _interval(value, low, high, points: bool = False, prefix: str = "") -> str:
    """An effect as the findings print it: points of win rate to one decimal (more where the sign needs them)."""
    if points:
        places = sign_decimals(1, low, high)
        return f"{number(value, places, True)} [{number(low, places, True)}, {number(high, places, True)}]"
    return interval_text(value, low, high, True, prefix)


def png(fig) -> str:
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110)
    plt.close(fig)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


VERDICT_WORDS = ("Verdict", "significant", "Best", "Highest", "winner", "Winner", "Keep the start", "Use it",
                 "Equilibrium", "equilibrium", "distinguishable")


# sentences that are the answer itself ("Keep the start": a tune whose validation overrules its "Best")
ANSWERS = ("Verdict", "Winner:", "No winner:", "No single winner:", "Keep the start:")
SWAPPED_LINE = re.compile(r"^(entry|seat) \d+( \(every seat in turn\))?: \S+ -> \S+: ")


def verdict_lines(findings: list[str], limit: int = 3) -> list[str]:
    """The sentences of the findings that answer the question (the terminal prints them among the findings):
    each swapped entry's change (what a compare of line-ups tested), then those that give a verdict, at most
    ``limit``; else the first finding after the set-up line."""
    lines = [line for line in findings if SWAPPED_LINE.match(line)] + \
        [line for line in findings if line.startswith(ANSWERS)]
    if not lines:
        lines = [line for line in findings if any(word in line for word in VERDICT_WORDS)
                 and not line.startswith("HOUSE RULE")]
    if not lines:
        lines = findings[1:2] or findings[:1]
    return lines[:limit]


def docs_link(page: str) -> str:
    """A link to one of the docs (docs/PAGE), offline: the file in this checkout when there is one."""
    path = Path(version.__file__).resolve().parents[1] / "docs" / page     # the checkout beside the package
    if path.is_file():
        return f'<a href="{html.escape(path.as_uri())}">docs/{html.escape(page)}</a>'
    return f"<code>docs/{html.escape(page)}</code>"


def card_html(tested: str, facts: list[tuple[str, str]], verdicts: list[str], forest_png: str | None) -> str:
    """The answer card: what was tested (the headline and its facts), the verdict sentences and the forest plot."""
    from markupsafe import escape  # as the page templates escape: the same text reads the same in both

    items = "".join(f"<dt>{escape(name)}</dt><dd>{escape(str(value))}</dd>" for name, value in facts)
    said = "".join(f"<li>{escape(line)}</li>" for line in verdicts)
    plot = (f'<img class="forest" alt="Tested effects: dot and 95% interval, negligible band shaded" '
            f'src="data:image/png;base64,{forest_png}">' if forest_png else "")
    return (f'<section class="answer" id="answer"><p class="tested"><strong>Tested:</strong> {escape(tested)}</p>'
            f'<dl class="facts">{items}</dl><ul class="verdict">{said}</ul>{plot}</section>')


CARD_CSS = """
nav.top { font-size: 0.85em; color: #555; margin-bottom: 0.8em; } nav.top a { margin-right: 1em; }
section.answer { border: 1px solid #c9d6e8; background: #f7faff; border-radius: 6px;
  padding: 0.6em 1.1em 0.8em; margin: 0.8em 0 1.4em; }
section.answer p.tested { margin: 0.3em 0; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.1em 1em; margin: 0.4em 0; font-size: 0.9em; }
dl.facts dt { color: #555; } dl.facts dd { margin: 0; }
ul.verdict { font-weight: 600; padding-left: 1.2em; } ul.verdict li { margin-bottom: 0.3em; }
img.forest { display: block; max-width: 100%; } nav.toc ol { columns: 2; font-size: 0.9em; }
table.summary.wide { font-size: 0.68em; } table.summary.wide td, table.summary.wide th { padding: 2px 4px; }
details.hover svg { display: block; margin: 0.4em 0; }
"""


def nav_html(directory: Path, output: Path, files=(), doc: str = "guide.md") -> str:
    """The bar at the top of every page: back to the index of the folder holding ``directory`` (``simkit report``
    on that folder writes it), the page's files (paths inside ``directory``) and the docs; links relative to
    the page at ``output``, so the folder can be moved or copied whole."""
    import os

    def href(path: Path) -> str:
        return html.escape(Path(os.path.relpath(path.resolve(), output.resolve().parent)).as_posix())

    links = [f'<a href="{href(directory.parent / "index.html")}">&larr; index of runs and analyses</a>']
    links += [f'<a href="{href(directory / path)}">{html.escape(name)}</a>' for name, path in files]
    links.append(docs_link(doc))
    return f'<nav class="top">{" ".join(links)}</nav>'
