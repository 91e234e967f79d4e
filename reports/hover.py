"""Interactive views of a page, where reading one value off a busy figure helps: the head-to-head heat maps, the
meta-game's simplex and a rule search's Pareto front. Each is inline SVG drawn from the folder's tables, every
mark with a ``<title>`` the browser shows on hover (its value and 95% interval, its mix or its rule values): no
script, no server, nothing fetched, so the page works offline and the static figure above it stays the record.

Registered per kind of analysis with ``@hover_view``; ``views`` gives a section's views for its page."""
from __future__ import annotations

import math
from html import escape

import numpy as np
import pandas as pd

from simkit.analysis.result import points

from .format import _plain_decimals, interval_text, number, rate_interval
from .format import rule_value as shown_value

HOVER_VIEWS: dict[str, list] = {}
WIDTH = 640


def hover_view(kind: str, title: str):
    """Register a view ``(tables, setup) -> SVG text | None`` for analyses of ``kind`` (None: nothing to show)."""
    def register(func):
        HOVER_VIEWS.setdefault(kind, []).append((title, func))
        return func
    return register


def views(kind: str, tables: dict[str, pd.DataFrame], setup: dict) -> list[dict]:
    """The interactive views of one analysis (flat tables, as written to its folder): title and SVG each."""
    out = []
    for title, draw in HOVER_VIEWS.get(kind, []):
        svg = draw(tables, setup)
        if svg:
            out.append({"title": title, "svg": svg})
    return out


def _svg(width: float, height: float, body: list[str], label: str) -> str:
    # scales to its box (never wider than the page) and keeps its proportions
    return (f'<svg class="hover" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" '
            f'role="img" aria-label="{escape(label)}" font-family="system-ui, sans-serif" '
            f'style="width:100%;max-width:{width:.0f}px;height:auto">'
            + "".join(body) + "</svg>")


def _titled(element: str, title: str) -> str:
    """An SVG element with a hover title: ``<rect .../>`` becomes ``<rect ...><title>..</title></rect>``."""
    name = element[1:].split(" ", 1)[0]
    return element[:-2] + f"><title>{escape(title)}</title></{name}>"


def _percent(value: float, low: float | None = None, high: float | None = None) -> str:
    """A rate as the page's tables show it (reports.format): ``24.5% [24.3, 24.8]``."""
    if low is not None and high is not None and np.isfinite(low) and np.isfinite(high):
        return rate_interval(value, low, high)
    return number(value * 100, 1, suffix="%")


def _colour(share: float, spread: float) -> str:
    """White at an even match (50%), blue above, red below, full at ``spread`` from it (as the static map)."""
    if not np.isfinite(share):
        return "#f0f0f0"
    t = max(-1.0, min(1.0, (share - 0.5) / spread))
    end = (33, 102, 172) if t > 0 else (178, 24, 43)
    r, g, b = (round(255 + (c - 255) * abs(t)) for c in end)
    return f"#{r:02x}{g:02x}{b:02x}"


def _heat_map(long: pd.DataFrame) -> str | None:
    if long is None or long.empty or not {"strategy", "opponent", "ahead"} <= set(long.columns):
        return None
    names = list(dict.fromkeys([*long["strategy"].astype(str), *long["opponent"].astype(str)]))
    cell, left, top = 56, 12 + 7 * max(len(n) for n in names), 20
    size = len(names) * cell
    spread = max(0.02, float(np.nanmax(np.abs(long["ahead"].to_numpy(float) - 0.5), initial=0.0)))
    body = []
    for row in long.itertuples(index=False):
        i, j = names.index(str(row.strategy)), names.index(str(row.opponent))
        low, high = getattr(row, "low", None), getattr(row, "high", None)
        share = float(row.ahead)
        text = f"{row.strategy} finished ahead of {row.opponent} in {_percent(share, low, high)} of their shared games"
        x, y = left + j * cell, top + i * cell
        body.append(_titled(f'<rect x="{x}" y="{y}" width="{cell - 2}" height="{cell - 2}" '
                            f'fill="{_colour(share, spread)}" stroke="#ccc"/>', text))
        body.append(f'<text x="{x + cell / 2 - 1}" y="{y + cell / 2 + 3}" font-size="11" text-anchor="middle" '
                    f'pointer-events="none">{share * 100:.1f}%</text>')
    for k, name in enumerate(names):
        body.append(f'<text x="{left - 6}" y="{top + k * cell + cell / 2 + 3}" font-size="11" '
                    f'text-anchor="end">{escape(name)}</text>')
        body.append(f'<text x="{left + k * cell + cell / 2}" y="{top + size + 14}" font-size="10" '
                    f'text-anchor="middle">{escape(name[:9])}</text>')
    body.append(f'<text x="{left}" y="12" font-size="11" fill="#555">row finished ahead of column '
                '(hover a cell for its 95% interval)</text>')
    return _svg(left + size + 10, top + size + 24, body, "head to head, hover for values")


@hover_view("tournament", "Head to head, interactive: hover a cell for its share and 95% interval")
def tournament_hover(tables, setup):
    return _heat_map(tables.get("head_to_head_intervals"))


@hover_view("balance", "Head to head, interactive: hover a cell for its share and 95% interval")
def balance_hover(tables, setup):
    return _heat_map(tables.get("head_to_head"))


def _corner(mix) -> tuple[np.ndarray, np.ndarray]:
    mix = np.atleast_2d(np.asarray(mix, float))
    return mix[:, 1] + 0.5 * mix[:, 2], mix[:, 2] * math.sqrt(3) / 2


@hover_view("metagame", "Simplex, interactive: hover the equilibrium, a bootstrap spot or a step of the path for "
                        "its mix")
def metagame_hover(tables, setup):
    names = [str(n) for n in setup.get("strategies") or []]
    if len(names) != 3 or "path" not in tables or not set(names) <= set(tables["path"].columns):
        return None
    side, pad = 420.0, 46.0

    def place(mix):
        x, y = _corner(mix)
        return pad + x * side, pad + (math.sqrt(3) / 2 - y) * side

    def mix_text(mix):
        return ", ".join(f"{name} {share * 100:.0f}%" for name, share in zip(names, mix))

    corners = [place(m) for m in np.eye(3)]
    body = [f'<polygon points="{" ".join(f"{x[0]:.1f},{y[0]:.1f}" for x, y in corners)}" fill="#fafafa" '
            'stroke="#333"/>']
    body.append('<text x="4" y="12" font-size="10" fill="#555">red: the equilibrium; blue: the path from the uniform '
                'mix;</text><text x="4" y="24" font-size="10" fill="#555">orange discs: where the bootstrap equilibria '
                'land (area: share of resamples)</text>')
    for (x, y), name, anchor, dy in zip(corners, names, ("start", "end", "middle"), (34, 34, -10)):
        body.append(f'<text x="{x[0]:.1f}" y="{y[0] + dy:.1f}" font-size="12" text-anchor="{anchor}">{escape(name)}'
                    "</text>")
    path = tables["path"][names].to_numpy(float)
    xs, ys = place(path)
    body.append(f'<polyline points="{" ".join(f"{x:.1f},{y:.1f}" for x, y in zip(xs, ys))}" fill="none" '
                'stroke="#4C72B0" stroke-width="1.5"/>')
    step = max(1, len(path) // 25)
    for k in range(0, len(path), step):
        body.append(_titled(f'<circle cx="{xs[k]:.1f}" cy="{ys[k]:.1f}" r="3" fill="#4C72B0"/>',
                            f"path from the uniform mix, step {k}: {mix_text(path[k])}"))
    boot = tables.get("bootstrap")
    if boot is not None and len(boot) and set(names) <= set(boot.columns):
        spots = (boot[names].round(2) + 0.0).value_counts(normalize=True)
        for index, share in spots.items():
            x, y = place(np.array(index, float))
            body.append(_titled(f'<circle cx="{x[0]:.1f}" cy="{y[0]:.1f}" r="{3 + 30 * math.sqrt(share):.1f}" '
                                'fill="#DD8452" fill-opacity="0.45" stroke="#9C4F1A"/>',
                                f"{share * 100:.0f}% of the bootstrap resamples land at {mix_text(index)}"))
    equilibrium = tables.get("equilibrium")
    if equilibrium is not None and len(equilibrium) == 3:
        mix = equilibrium.set_index(equilibrium.columns[0]).reindex(names)
        x, y = place(mix["mix"].to_numpy(float))
        lines = [f"{name}: share {_percent(r.mix, getattr(r, 'mix_low', None), getattr(r, 'mix_high', None))}, "
                 f"win share {_percent(r.win_share)}" for name, r in zip(names, mix.itertuples())]
        body.append(_titled(f'<circle cx="{x[0]:.1f}" cy="{y[0]:.1f}" r="7" fill="#C44E52" stroke="#fff"/>',
                            "equilibrium\n" + "\n".join(lines)))
    return _svg(side + 2 * pad, side * math.sqrt(3) / 2 + 2 * pad, body, "simplex, hover for mixes")


def _ticks(low: float, high: float) -> tuple[list[float], int]:
    """Round tick values between ``low`` and ``high`` (at most 6) and the decimals they all need."""
    span = (high - low) or 1.0
    step = 10 ** math.floor(math.log10(span / 4))
    for factor in (1, 2, 5, 10):
        if span / (step * factor) <= 6:
            step *= factor
            break
    values = [float(v) for v in np.arange(math.ceil(low / step) * step, high + step / 2, step) if low <= v <= high]
    return values, max(0, -math.floor(math.log10(step) + 1e-9))


@hover_view("design", "Pareto front, interactive: hover a trial, a candidate or the default rules for its rule values "
                      "and goals")
def design_hover(tables, setup):
    columns, goals = setup.get("goal_columns") or [], setup.get("goals") or []
    trials = tables.get("trials")
    if len(columns) < 2 or trials is None or trials.empty or not set(columns[:2]) <= set(trials.columns):
        return None
    x_col, y_col = columns[:2]
    rates = [bool(c.endswith("_share") or "win" in c.split("_")) for c in (x_col, y_col)]
    varied = [text.split("=", 1)[0] for text in setup.get("vary") or []]
    points = []     # (x, y, colour, radius, title)
    for row in trials.itertuples(index=False):
        values = dict(zip(trials.columns, row))
        x, y = values[x_col], values[y_col]
        if not (np.isfinite(x) and np.isfinite(y)):
            continue
        on_front = bool(values.get("pareto", False))
        title = (f"trial {values['trial']}" + (" (Pareto front)" if on_front else "") + ": "
                 + ", ".join(f"{key} = {shown_value(values[key])}" for key in varied if key in values)
                 + "".join(f"\n{goal}: {_goal_text(values, column, rate)}"
                           for goal, column, rate in zip(goals, (x_col, y_col), rates)))
        points.append((x, y, "#4C72B0" if on_front else "#BBBBBB", 4 if on_front else 3, title))
    validation = tables.get("validation")
    if validation is not None and len(validation):
        chosen = {c["name"]: c.get("changes", "") for c in setup.get("candidates") or []}
        for name, rows in validation[validation["role"] == "goal"].groupby("rules", sort=False):
            rows = rows.set_index("measure")
            if goals[0] not in rows.index or goals[1] not in rows.index:
                continue
            px, py = rows.loc[goals[0]], rows.loc[goals[1]]
            title = (f"{name} (fresh deals)" + (f": {chosen[name]}" if chosen.get(name) else "")
                     + "".join(f"\n{goal}: {_goal_text(r, 'value', rate)}"
                               + (f"; difference from the default {_goal_text(r, 'diff', rate, True)}"
                                  if pd.notna(r.get("diff")) else "")
                               for goal, r, rate in zip(goals, (px, py), rates)))
            points.append((float(px["value"]), float(py["value"]), "#C44E52" if name == "default" else "#DD8452",
                           6, title))
    if not points:
        return None
    xs, ys = np.array([p[0] for p in points]), np.array([p[1] for p in points])
    (x0, x1), (y0, y1) = [(lo - 0.06 * ((hi - lo) or 1), hi + 0.06 * ((hi - lo) or 1))
                          for lo, hi in ((xs.min(), xs.max()), (ys.min(), ys.max()))]
    width, height, left, bottom, top = 620.0, 392.0, 70.0, 46.0, 26.0

    def px_(v):
        return left + (v - x0) / (x1 - x0) * (width - left - 16)

    def py_(v):
        return top + (y1 - v) / (y1 - y0) * (height - top - bottom)

    body = [f'<rect x="{left}" y="{top}" width="{width - left - 16}" height="{height - top - bottom}" fill="#fcfcfc" '
            'stroke="#999"/>']
    ticks = [_ticks(x0 * (100 if rates[0] else 1), x1 * (100 if rates[0] else 1)),
             _ticks(y0 * (100 if rates[1] else 1), y1 * (100 if rates[1] else 1))]
    for v in ticks[0][0]:
        body.append(f'<text x="{px_(v / (100 if rates[0] else 1)):.1f}" y="{height - bottom + 14}" font-size="10" '
                    f'text-anchor="middle">{number(v, ticks[0][1], suffix="%" if rates[0] else "")}</text>')
    for v in ticks[1][0]:
        body.append(f'<text x="{left - 5}" y="{py_(v / (100 if rates[1] else 1)) + 3:.1f}" font-size="10" '
                    f'text-anchor="end">{number(v, ticks[1][1], suffix="%" if rates[1] else "")}</text>')
    legend = [("#BBBBBB", "trial"), ("#4C72B0", "Pareto front (search deals)"), ("#DD8452", "candidate (fresh deals)"),
              ("#C44E52", "default rules (fresh deals)")]
    at = left
    for colour, text in legend:
        body.append(f'<circle cx="{at + 5}" cy="10" r="4" fill="{colour}"/><text x="{at + 12}" y="14" font-size="10">'
                    f"{escape(text)}</text>")
        at += 22 + 5.6 * len(text)
    body.append(f'<text x="{(left + width) / 2:.0f}" y="{height - 8}" font-size="11" text-anchor="middle">'
                f"{escape(goals[0])}</text>")
    body.append(f'<text x="14" y="{(top + height - bottom) / 2:.0f}" font-size="11" text-anchor="middle" '
                f'transform="rotate(-90 14 {(top + height - bottom) / 2:.0f})">{escape(goals[1])}</text>')
    for x, y, colour, radius, title in points:    # the re-evaluated ones last: on top
        body.append(_titled(f'<circle cx="{px_(x):.1f}" cy="{py_(y):.1f}" r="{radius}" fill="{colour}" '
                            'fill-opacity="0.85" stroke="#fff"/>', title))
    return _svg(width, height, body, "Pareto front, hover for values")


def _goal_text(values, column: str, rate: bool, signed: bool = False) -> str:
    """A goal's value (or difference) and its interval as the findings write it: a rate in % (a difference of
    rates in points), any other number to the digits its interval holds."""
    value, low, high = (float(values.get(f"{column}{end}", np.nan)) for end in ("", "_low", "_high"))
    if not (np.isfinite(low) and np.isfinite(high)):
        return _percent(value) if rate and not signed else number(value * (100 if rate else 1),
                                                                 _plain_decimals([value]), signed)
    if rate:
        return points(value, low, high) if signed else _percent(value, low, high)
    return interval_text(value, low, high, signed)


