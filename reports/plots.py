"""The generic plots, drawn for every game, and the drawing helpers every report's plots share (money
and percentage axes, histograms with a labelled overflow bar, legends outside the curves); game-specific
plots live in a module per game beside this."""
from __future__ import annotations

import matplotlib
import numpy as np
from matplotlib.ticker import FuncFormatter

matplotlib.use("Agg")
# no axis of any report in scientific notation or with an offset ("6 x 10^5", "1e-3 + ..."): plain ticks
matplotlib.rcParams.update({"axes.formatter.limits": (-9, 12), "axes.formatter.useoffset": False})
import matplotlib.pyplot as plt  # noqa: E402  (after matplotlib.use: no display)

from simkit.results import summarize  # noqa: E402  (after matplotlib.use: no display)

from . import plot  # noqa: E402  (after matplotlib.use: no display)
from .format import is_symbol, number, rule_changes_text  # noqa: E402  (after matplotlib.use: no display)


def dots_with_ci(ax, labels, values, low, high, color):
    """Each estimate as a dot with its interval as a line, one row per label (never a bar from zero: 49.4 and
    51.9 must not look equal); the axis spans the intervals, not zero, and the labels never collide."""
    y = np.arange(len(labels))
    values, low, high = (np.asarray(v, float) for v in (values, low, high))
    ax.hlines(y, low, high, color=color, linewidth=2.4)
    ax.scatter(values, y, color=color, s=40, zorder=3)
    ax.set_yticks(y, labels)
    ax.set_ylim(len(labels) - 0.5, -0.5)
    ax.grid(axis="x", color="#eeeeee")


def seat_advantage_figure(seats, height: float, spacing: float, sides, legend: bool = True):
    """Seat advantages in points (a table's ``win_advantage`` with its interval), a row per seat and each
    side's dots ``spacing`` apart within it; ``sides``: (row labels, table, colour, legend label) each."""
    fig, axes = figure_grid(1, 1, height)
    ax = axes[0, 0]
    for k, (labels, table, colour, label) in enumerate(sides):
        interval_bars(ax, labels, table["win_advantage"] * 100, table["win_advantage_low"] * 100,
                      table["win_advantage_high"] * 100, colour, floor=1.0,
                      offset=(k - (len(sides) - 1) / 2) * spacing, label=label)
    ax.set_yticks(np.arange(len(seats)), [f"seat {s}" for s in seats])
    ax.set_ylim(len(seats) - 0.5, -0.5)
    ax.set_xlabel("win rate minus the average seat's (points)")
    if legend:
        legend_outside(ax)
    fig.tight_layout()
    return fig


def nice_width(raw: float) -> int:
    """The smallest of 1, 2, 2.5, 5 x 10^k (a whole number) at least ``raw``: bins a reader can add up."""
    if raw <= 1:
        return 1
    power = 10 ** int(np.floor(np.log10(raw)))
    for step in (1, 2, 2.5, 5, 10):
        if step * power >= raw and float(step * power).is_integer():
            return int(step * power)
    return int(10 * power)


def int_bins(low, high, max_bins=60):
    """Bin edges on half-integers, so integer scores never straddle two bins; a bin's width is a round
    number (1, 2, 5, 10, 25, 50...) and its edges multiples of it."""
    low, high = int(np.floor(low)), int(np.ceil(high))
    width = nice_width((high - low + 1) / max_bins)
    start = low - low % width
    return np.arange(start - 0.5, high + width + 0.5, width)


def compact(value: float, prefix: str = "") -> str:
    """An axis tick: ``1.25M``, ``250k``, ``1,500``, ``0.5`` (with a currency prefix)."""
    size = abs(value)
    sign = "-" if value < 0 else ""
    if size >= 1e6:
        text = f"{size / 1e6:.3g}M"
    elif size >= 1e4:
        text = f"{size / 1e3:.3g}k"
    else:
        text = f"{size:,.4g}" if size < 1000 else f"{size:,.0f}"
    return f"{sign}{prefix}{text}"


def percent_axis(ax, axis: str = "y", decimals: int | None = None) -> None:
    """Show an axis of rates (0..1) as percentages, with as few decimals as its ticks need."""
    target = ax.yaxis if axis == "y" else ax.xaxis

    def label(value, _):
        if decimals is not None:
            return f"{value * 100:.{decimals}f}%"
        ticks = target.get_majorticklocs()
        step = np.min(np.diff(ticks)) * 100 if len(ticks) > 1 else 1.0
        places = next((p for p in range(5) if abs(round(step, p) - step) < 1e-6 * max(step, 1e-9)), 4)
        return f"{value * 100:.{places}f}%"

    target.set_major_formatter(FuncFormatter(label))


def money_axis(ax, game, axis: str = "y") -> str:
    """Thousands separators on an axis, and the game's currency symbol when it has one; returns the unit
    to put in the axis label ("" for a symbol, which the ticks carry)."""
    symbol = game.currency if is_symbol(game.currency) else ""
    formatter = FuncFormatter(lambda value, _: compact(value, symbol))
    (ax.yaxis if axis == "y" else ax.xaxis).set_major_formatter(formatter)
    return "" if symbol or not game.currency else f" ({game.currency})"


def score_axis(ax, data, axis: str = "y") -> str:
    """Format an axis of the run's score; returns the label (the score's name and unit)."""
    if data.score in data.game.money_columns:
        return data.score.replace("_", " ") + money_axis(ax, data.game, axis)
    (ax.yaxis if axis == "y" else ax.xaxis).set_major_formatter(FuncFormatter(lambda v, _: compact(v)))
    return data.score.replace("_", " ")


def legend_outside(ax, **kwargs) -> None:
    """A legend to the right of the axes, where it never covers a curve."""
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0, fontsize=8, frameon=False, **kwargs)


def hist_with_overflow(ax, values, weights=None, cap=None, quantile: float = 0.99, max_bins: int = 60,
                       color="#4C72B0", unit: str = "games", label=None, **kwargs) -> float:
    """A histogram of whole-number ``values`` clipped to where the data are: values above ``cap`` (by
    default the ``quantile`` of the data) are drawn as one hatched bar after a gap, labelled with its
    share and range, instead of stretching the axis or piling up as a false peak at the edge. Bars are
    shares of the total weight. Returns the cap."""
    values = np.asarray(values, float)
    weights = np.ones_like(values) if weights is None else np.asarray(weights, float)
    total = weights.sum()
    if cap is None:
        order = np.argsort(values)
        cumulative = np.cumsum(weights[order]) / total
        cap = values[order][min(np.searchsorted(cumulative, quantile), len(values) - 1)]
    low = values.min()
    cap = max(cap, low)
    inside = values <= cap
    bins = int_bins(low, cap, max_bins)
    ax.hist(values[inside], bins=bins, weights=weights[inside] / total, color=color, label=label, **kwargs)
    over = ~inside
    if over.any():
        width = bins[1] - bins[0]
        position = bins[-1] + 2 * width
        share = weights[over].sum() / total
        ax.bar(position, share, width=max(width, (bins[-1] - bins[0]) / 30), color="white", edgecolor=color,
               hatch="///", align="center")
        ax.set_xlim(bins[0] - width, position + 3 * width)
        # headroom above every bar for the label, which sits in the top right corner and points at its bar
        tallest = max([patch.get_height() for patch in ax.patches] + [share])
        ax.set_ylim(0, max(ax.get_ylim()[1], tallest * 1.3))
        ax.annotate(f"> {number(cap)}: {share:.1%} of {unit}\n(up to {number(values[over].max())})",
                    (position, share), xytext=(0.99, 0.97), textcoords="axes fraction", ha="right", va="top",
                    fontsize=7, arrowprops={"arrowstyle": "-", "color": "grey", "linewidth": 0.6})
    percent_axis(ax)
    return float(cap)


def strategy_order(data) -> list[str]:
    """The run's strategies in the page's order (its strategy table's: win rate, highest first) that played;
    without a strategy table, in the frame's own order."""
    column = data.frame["strategy"]
    played = list(dict.fromkeys(map(str, column.cat.categories if hasattr(column, "cat") else sorted(column.unique()))))
    played = [name for name in played if (column.astype(str) == name).any()]
    if "strategy" not in data.summary:
        return played
    return [str(name) for name in data.summary["strategy"].index if str(name) in played]


def by_strategy(data, frame=None):
    """(name, rows) of ``frame`` (default: the run's) per strategy, in the page's order."""
    frame = data.frame if frame is None else frame
    names = frame["strategy"].astype(str)
    for name in strategy_order(data):
        rows = frame[names == name]
        if len(rows):
            yield name, rows


@plot("win_rates", "Win rate by strategy (95% Wilson CI)", generic=True)
def win_rates(data):
    table = data.summary["strategy"]
    fig, ax = plt.subplots(figsize=(7, 1.3 + 0.45 * len(table)))
    dots_with_ci(ax, [str(i) for i in table.index], table["win_rate"].to_numpy(), table["win_low"].to_numpy(),
                 table["win_high"].to_numpy(), "#4C72B0")
    ax.axvline(1 / data.manifest["players"], color="grey", linestyle="--", linewidth=1, label="1 / players")
    ax.set_xlabel("win rate (a tie is a win for every tied seat)")
    percent_axis(ax, "x")
    legend_outside(ax)
    fig.tight_layout()
    return fig


@plot("score_distribution", "Score distribution by strategy (the middle 99% of scores; one row each, shared axes)",
      generic=True)
def score_distribution(data):
    frame, score = data.frame, data.score
    names = strategy_order(data)
    low, high = np.percentile(frame[score], [0.5, 99.5])
    bins = int_bins(low, high)
    fig, axes = plt.subplots(len(names), 1, figsize=(8, 0.9 + 1.1 * len(names)), sharex=True, sharey=True,
                             squeeze=False)
    colours = plt.get_cmap("tab10")(np.arange(len(names)) % 10)
    for ax, name, colour in zip(axes[:, 0], names, colours):
        values = frame.loc[frame["strategy"] == name, score].to_numpy(float)
        # each strategy's bars are shares of its own games (not a density, whose scale is per unit of score)
        ax.hist(values, bins=bins, weights=np.full(len(values), 1 / len(values)), color=colour, alpha=0.85)
        ax.axvline(np.median(values), color="black", linewidth=1)
        ax.set_ylabel(str(name), rotation=0, ha="right", va="center", fontsize=8)
        percent_axis(ax)
        ax.tick_params(labelsize=7)
    axes[-1, 0].set_xlabel(score_axis(axes[-1, 0], data, "x") + " (black line: the strategy's median)")
    width = bins[1] - bins[0]
    symbol = data.game.currency if data.score in data.game.money_columns and is_symbol(data.game.currency) else ""
    fig.suptitle("share of the strategy's games" + (f" per bin of {number(width, prefix=symbol)}" if width > 1 else ""),
                 fontsize=9, x=0.02, ha="left")
    fig.tight_layout()
    return fig


@plot("seat_effects", "Win rate and mean score by seat (95% CIs)", generic=True)
def seat_effects(data):
    """Drawn when some strategy sits in several seats; with a strategy per seat it would repeat the strategy
    plot (seat and strategy are the same rows)."""
    labels = [data.labels.get(seat) for seat in range(data.manifest["players"])]
    if len(set(labels)) == len(labels):
        return None
    table = data.summary["seat"]
    score = data.score
    labels = [f"seat {i} {data.labels.get(int(i), '')}" for i in table.index]
    fig, axes = plt.subplots(1, 2, figsize=(9, 1.3 + 0.5 * len(table)), sharey=True)
    dots_with_ci(axes[0], labels, table["win_rate"].to_numpy(), table["win_low"].to_numpy(),
                 table["win_high"].to_numpy(), "#55A868")
    axes[0].axvline(1 / data.manifest["players"], color="grey", linestyle="--", linewidth=1)
    axes[0].set_xlabel("win rate (dashed: 1 / players)")
    percent_axis(axes[0], "x")
    dots_with_ci(axes[1], labels, table[f"mean_{score}"].to_numpy(), table["mean_low"].to_numpy(),
                 table["mean_high"].to_numpy(), "#C44E52")
    axes[1].set_xlabel("mean " + score_axis(axes[1], data, "x"))
    fig.tight_layout()
    return fig


def run_label(manifest, game) -> str:
    """How a plot comparing runs names one: its player count, line-up and rule changes, in short."""
    labels = [seat["label"] for seat in manifest["lineup"]]
    lineup = f"{labels[0]} x{len(labels)}" if len(set(labels)) == 1 else ", ".join(labels)
    changes = game.rule_changes(manifest["rules"])
    return "\n".join(filter(None, [f"{manifest['players']} players, seed {manifest['seed']}", lineup[:48],
                                   rule_changes_text(changes, 1) if changes else ""]))


@plot("seats_by_run", "Win rate by seat in each run (this run and every --also run; 95% Wilson CIs)", generic=True)
def seats_by_run(data):
    """Every run's seats side by side against that run's average seat: how the first player's edge moves
    with the player count or a rule. Drawn only when --also names other runs; the numbers are those of
    ``simkit summary`` (a tie counts as a win for every tied seat)."""
    if len(data.runs) < 2:
        return None
    runs = sorted(data.runs, key=lambda run: (run[0]["players"], run[0]["seed"]))
    most = max(manifest["players"] for manifest, _ in runs)
    width = 0.8 / most
    fig, ax = plt.subplots(figsize=(max(8, 1.9 * len(runs) + 2), 4.2))
    colors = plt.get_cmap("viridis")(np.linspace(0, 0.9, most))
    for position, (manifest, frame) in enumerate(runs):
        seats = summarize(frame)["seat"]
        offsets = (np.arange(len(seats)) - (len(seats) - 1) / 2) * width
        values = seats["win_rate"].to_numpy()
        ax.bar(position + offsets, values, width=width * 0.95, color=colors[: len(seats)],
               yerr=[values - seats["win_low"].to_numpy(), seats["win_high"].to_numpy() - values], capsize=2)
        ax.hlines(values.mean(), position - 0.45, position + 0.45, color="#C44E52", linewidth=1.5,
                  label="the run's average seat" if position == 0 else None)
    for seat in range(most):
        ax.bar([np.nan], [np.nan], color=colors[seat], label=f"seat {seat}" + (" (plays first)" if seat == 0 else ""))
    ax.set_xticks(range(len(runs)), [run_label(manifest, data.game) for manifest, _ in runs], fontsize=7)
    ax.set_ylabel("win rate (a tie is a win\nfor every tied seat)")
    percent_axis(ax)
    legend_outside(ax)
    fig.tight_layout()
    return fig


def interval_bars(ax, labels, values, low, high, color="#4C72B0", floor: float = 0.0, offset: float = 0.0,
                   label=None):
    """Each estimate as a dot with its interval as a line, one row per label (a dot plot, never bars from
    zero), 0 marked; the axis spans at least -floor..floor, so an effect of essentially zero sits near the
    middle instead of filling the axis with colliding ticks."""
    y = np.arange(len(labels)) + offset
    values, low, high = (np.asarray(v, float) for v in (values, low, high))
    ax.hlines(y, low, high, color=color, linewidth=2.2)
    ax.scatter(values, y, color=color, s=32, zorder=3, label=label)
    if not offset:
        ax.set_yticks(np.arange(len(labels)), [str(label) for label in labels])
        ax.set_ylim(len(labels) - 0.5, -0.5)
    ax.axvline(0, color="grey", linewidth=1)
    reach = np.nanmax(np.abs(np.concatenate([low, high, [0.0]])))
    if reach < floor:
        ax.set_xlim(-floor, floor)
    ax.grid(axis="x", color="#eeeeee")


def figure_grid(rows=1, cols=1, height=3.6):
    """A figure of rows x cols axes (always a 2-D array), 8.5 inches wide: the analyses' plots."""
    return plt.subplots(rows, cols, figsize=(8.5, max(height, 0.5)), squeeze=False)
