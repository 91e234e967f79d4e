"""Report plots of the searches: tuning (trace, parameter effects, best vs start), the meta-game (equilibrium
mix, dynamics on the simplex), re-tuned comparisons and the rule search (trace or Pareto front, effects,
candidates against the default rules, their seat advantages and game lengths). Registered with
``simkit.reports.analysis_plot``."""
from __future__ import annotations

import numpy as np
import pandas as pd

from simkit.analysis.metagame import SymmetricGame, profiles
from simkit.games import get_game

from . import analysis_plot
from .plots import compact, figure_grid, interval_bars, legend_outside, percent_axis, seat_advantage_figure

STAGE_COLOURS = ["#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3", "#937860"]


def objective_label(result) -> str:
    """What a tuning trial's value is: the tuned seat's win rate or mean score."""
    if result.setup.get("objective") == "win":
        return "tuned seat's win rate"
    return f"tuned seat's mean {get_game(result.game).score_column.replace('_', ' ')}"


@analysis_plot("tune", "trace", "Optimisation trace: each trial's value with its 95% paired interval, the incumbent's "
                                "running mean, games per trial")
def tune_trace(result):
    trials, rounds = result.tables["trials"], result.tables["rounds"]
    if trials.empty:
        return None
    fig, axes = figure_grid(1, 1, 3.8)
    ax = axes[0, 0]
    order = np.arange(len(trials))
    for stage, rows in trials.groupby("stage"):
        # a trial's 95% interval: its paired difference from the incumbent's, on the same deals
        half = 1.96 * rows["diff_se"].astype(float).fillna(0.0).to_numpy() if "diff_se" in rows else None
        ax.errorbar(order[rows.index], rows["value"], yerr=half, fmt="o", markersize=3, alpha=0.6, linewidth=0.8,
                    color=STAGE_COLOURS[(int(stage) - 1) % 6],
                    label=(f"trials, stage {stage}" if trials["stage"].nunique() > 1 else "trials") + " (95% paired interval)")
    # each round's incumbent spans the trials of its round: from the round's first trial to its last
    spans = trials.groupby(["stage", "round"]).apply(lambda rows: (rows.index.min(), rows.index.max()),
                                                     include_groups=False)
    position = [order[spans.loc[(row.stage, row.round)][0]] - 0.5 for row in rounds.itertuples()]
    position.append(order[spans.iloc[-1][1]] + 0.5)
    incumbent = [*rounds["incumbent_mean"], rounds["incumbent_mean"].iloc[-1]]
    per_trial = [*rounds["games_per_trial"], rounds["games_per_trial"].iloc[-1]]
    ax.step(position, incumbent, where="post", color="black", linewidth=1.8,
            label="incumbent (running mean over its rounds)")
    ax.set_xlabel("trial (in the order asked)")
    ax.set_ylabel(objective_label(result))
    if result.setup.get("objective") == "win":
        percent_axis(ax)
    twin = ax.twinx()
    twin.step(position, per_trial, where="post", color="grey", linestyle=":", label="games per trial")
    twin.set_ylabel("games per trial", color="grey")
    twin.set_ylim(0, rounds["games_per_trial"].max() * 1.1)
    handles = ax.get_legend_handles_labels()
    extra = twin.get_legend_handles_labels()
    ax.legend(handles[0] + extra[0], handles[1] + extra[1], fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig


@analysis_plot("tune", "effects", "Parameter effects: each trial's value against each tuned parameter (best: line, start: dashed)")
def tune_effects(result):
    trials, best = result.tables["trials"], result.tables["best"]
    if trials.empty:
        return None
    names = list(best.index)
    cols = min(3, len(names))
    rows = -(-len(names) // cols)
    fig, axes = figure_grid(rows, cols, 2.8 * rows)
    fig.set_layout_engine("constrained")   # room for the colour bar beside every panel
    for k, name in enumerate(names):
        ax = axes[k // cols, k % cols]
        points = ax.scatter(trials[name], trials["value"], c=np.arange(len(trials)), cmap="viridis", s=10, alpha=0.7)
        ax.axvline(best.loc[name, "best"], color="black", linewidth=1.5)
        ax.axvline(best.loc[name, "start"], color="grey", linestyle="--", linewidth=1)
        log = best.loc[name, "scale"] in ("log", "int-log")
        ax.set_xlabel(name + (" (log)" if log else ""))
        if log:
            ax.set_xscale("log")
        if k % cols == 0:
            ax.set_ylabel(objective_label(result))
        if result.setup.get("objective") == "win":
            percent_axis(ax)
    for k in range(len(names), rows * cols):
        axes[k // cols, k % cols].axis("off")
    fig.colorbar(points, ax=axes.ravel().tolist(), label="trial")
    return fig


def _game_from(result) -> tuple[SymmetricGame, list[str]]:
    """The meta-game's payoff function, rebuilt from its payoffs table."""
    names = list(result.setup["strategies"])
    n = result.setup["players"]
    table = result.tables["payoffs"]
    profile_list = profiles(len(names), n)
    rows = {tuple(i for i, name in enumerate(names) for _ in range(int(row[f"n_{name}"]))): row
            for _, row in table.iterrows()}
    values = np.array([[0.0 if pd.isna(rows[p][name]) else rows[p][name] for name in names] for p in profile_list])
    return SymmetricGame(values, profile_list, len(names), n), names


@analysis_plot("metagame", "mix", "Equilibrium mix and each strategy's win share there (95% bootstrap intervals)")
def metagame_mix(result):
    table = result.tables["equilibrium"]
    fig, axes = figure_grid(1, 2, 1.2 + 0.45 * len(table))
    interval_bars(axes[0, 0], table.index, table["mix"], table["mix_low"], table["mix_high"])
    axes[0, 0].set_xlabel("share of players at the equilibrium")
    axes[0, 0].set_xlim(left=0)
    percent_axis(axes[0, 0], "x")
    interval_bars(axes[0, 1], [""] * len(table), table["win_share"], table["win_share_low"], table["win_share_high"],
                   "#55A868")
    axes[0, 1].axvline(1 / result.setup["players"], color="black", linestyle="--", linewidth=1)
    axes[0, 1].set_xlabel("win share there (dashed: 1 / players)")
    percent_axis(axes[0, 1], "x")
    fig.tight_layout()
    return fig


def _corner(mix):
    """Barycentric (3 shares) to the plane: strategy 0 bottom left, 1 bottom right, 2 on top."""
    mix = np.atleast_2d(mix)
    return mix[:, 1] + 0.5 * mix[:, 2], mix[:, 2] * np.sqrt(3) / 2


@analysis_plot("metagame", "growth", "Growing the meta-game: each iteration's mix's exploitability bound (95% interval on "
                                     "fresh seeds)")
def metagame_growth(result):
    if "growth" not in result.tables:
        return None
    table = result.tables["growth"]
    labels = [f"{i}: {row['mix']}" for i, row in table.iterrows()]
    return _bound_bars(labels, table, "iteration and its mix")


@analysis_plot("ladder", "bounds", "Each strategy's exploitability bound (95% interval on fresh seeds), in rating order")
def ladder_bounds(result):
    table = result.tables["ladder"]
    return _bound_bars([f"{name} (by {row['deviator']})" for name, row in table.iterrows()], table, "")


def _bound_bars(labels, table, ylabel: str):
    fig, axes = figure_grid(1, 1, 1.2 + 0.45 * len(table))
    interval_bars(axes[0, 0], labels, table["exploitability_share"] * 100, table["exploitability_share_low"] * 100,
                   table["exploitability_share_high"] * 100, "#C44E52")
    axes[0, 0].set_xlabel("exploitability bound: best deviator's win share - 1/players (points)")
    axes[0, 0].set_ylabel(ylabel)
    fig.tight_layout()
    return fig


@analysis_plot("metagame", "simplex", "Replicator dynamics on the simplex (arrows), the path from the uniform mix and the "
                                      "bootstrap equilibria")
def metagame_simplex(result):
    if len(result.setup["strategies"]) != 3:
        return None
    solver, names = _game_from(result)
    fig, axes = figure_grid(1, 1, 5.2)
    ax = axes[0, 0]
    grid = []
    steps = 14
    for a in range(steps + 1):
        for b in range(steps + 1 - a):
            mix = np.array([a, b, steps - a - b], float) / steps
            if mix.min() > 0:
                grid.append(mix)
    grid = np.array(grid)
    velocity = np.array([mix * (u - mix @ u) for mix in grid for u in [solver.payoffs(mix)]])
    x, y = _corner(grid)
    dx, dy = _corner(velocity)
    length = np.hypot(dx, dy)
    scale = np.where(length > 0, 1 / np.maximum(length, 1e-12), 0)
    ax.quiver(x, y, dx * scale, dy * scale, length, cmap="Greys", scale=28, width=0.004)
    ax.plot(*_corner(np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 0, 0]])), color="black", linewidth=1)
    path = result.tables["path"][names].to_numpy()
    ax.plot(*_corner(path), color="#4C72B0", linewidth=1.5, label="path from the uniform mix")
    if len(result.tables["bootstrap"]):
        # where the resampled equilibria land: one disc per spot (to 2 points of share), its area its share of the
        # resamples, so 43% at one corner reads as 43%, not as one faint dot among many
        spots = (result.tables["bootstrap"][names].round(2) + 0.0).value_counts(normalize=True)
        mixes = np.array([list(index) for index in spots.index], float)
        ax.scatter(*_corner(mixes), s=2000 * spots.to_numpy(), color="#DD8452", alpha=0.45, edgecolor="#9C4F1A",
                   linewidth=0.6, label="bootstrap equilibria (area: share of resamples)", zorder=3)
        top = spots.iloc[:1]
        for index, share in top.items():
            cx, cy = _corner(np.array(index, float))
            ax.annotate(f"{share:.0%} of resamples", (cx[0], cy[0]), textcoords="offset points", xytext=(12, -14),
                        fontsize=7, color="#9C4F1A")
    ax.scatter(*_corner(result.tables["equilibrium"]["mix"].to_numpy()), s=80, color="#C44E52", marker="*",
               zorder=5, label="equilibrium")
    for (cx, cy), name, align in zip([(0, -0.05), (1, -0.05), (0.5, np.sqrt(3) / 2 + 0.03)], names,
                                     ["left", "right", "center"]):
        ax.text(cx, cy, name, ha=align, va="center", fontsize=9)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(0.62, 1.0), markerscale=0.5)
    fig.tight_layout()
    return fig


@analysis_plot("balance", "retuned", "Fixed and re-tuned players: win rate B - A (95% paired intervals)")
@analysis_plot("compare", "retuned", "Fixed and re-tuned players: win rate B - A (95% paired intervals)")
def compare_retuned(result):
    if "retuned_strategy" not in result.tables:
        return None
    fixed = result.tables["strategy" if result.kind == "compare" else "strategies"]
    retuned = result.tables["retuned_strategy"]
    fig, axes = figure_grid(1, 2, 1.4 + 0.5 * max(len(fixed), len(retuned)))
    interval_bars(axes[0, 0], fixed.index, fixed["win_diff"] * 100, fixed["win_low"] * 100, fixed["win_high"] * 100)
    axes[0, 0].set_xlabel("fixed players: B - A (points)")
    interval_bars(axes[0, 1], retuned.index, retuned["win_diff"] * 100, retuned["win_low"] * 100,
                   retuned["win_high"] * 100, "#DD8452")
    axes[0, 1].set_xlabel("re-tuned under each rule set: B - A (points)")
    fig.tight_layout()
    return fig


# -- design: the rule search -------------------------------------------------------------------------------------
def _goal_axis(ax, column: str, axis: str = "y") -> None:
    """Goals that are win rates or shares read as percentages."""
    if "win" in column.split("_") or "share" in column.split("_"):
        percent_axis(ax, axis)


def _spans(value, low, high):
    """Error bar lengths below and above an estimate (none where the interval misses it or is unknown)."""
    value, low, high = (np.atleast_1d(np.asarray(v, float)) for v in (value, low, high))
    return [np.nan_to_num(np.maximum(value - low, 0)), np.nan_to_num(np.maximum(high - value, 0))]


@analysis_plot("design", "trace", "Optimisation trace: each trial's goal with its 95% interval, the best so far, and "
                                  "the default rules on the same deals (dashed)")
def design_trace(result):
    trials = result.tables["trials"]
    columns, directions = result.setup["goal_columns"], result.setup["directions"]
    if len(columns) != 1 or trials.empty or columns[0] not in trials:
        return None
    column, sign = columns[0], 1 if directions[0] == "minimize" else -1
    rows = trials.dropna(subset=[column])
    fig, axes = figure_grid(1, 1, 3.8)
    ax = axes[0, 0]
    feasible = rows["feasible"].to_numpy(bool) if "feasible" in rows else np.ones(len(rows), bool)
    for mask, colour, label in ((feasible, "#4C72B0", "trial"), (~feasible, "#BBBBBB", "trial breaking a constraint")):
        part = rows[mask]
        if len(part):
            ax.errorbar(part["trial"], part[column], yerr=_spans(part[column], part[f"{column}_low"],
                                                                 part[f"{column}_high"]),
                        fmt="o", markersize=3, color=colour, ecolor=colour, alpha=0.6, linewidth=0.8, label=label)
    best = (sign * rows[column].where(feasible, np.nan)).cummin() * sign
    ax.step(rows["trial"], best, where="post", color="black", linewidth=1.6, label="best so far")
    baseline = (result.setup.get("baseline") or {}).get("goals", {}).get(column)
    if baseline:
        ax.axhline(baseline[0], color="#C44E52", linestyle="--", linewidth=1.2, label="default rules")
    ax.set_xlabel("trial (in the order asked)")
    ax.set_ylabel(result.setup["goals"][0])
    _goal_axis(ax, column)
    ax.legend(fontsize=7, loc="best")
    fig.tight_layout()
    return fig


@analysis_plot("design", "front", "Pareto front of the trials (first two goals) with the re-evaluated candidates and "
                                  "the default rules (95% intervals)")
def design_front(result):
    trials = result.tables["trials"]
    columns, goals = result.setup["goal_columns"], result.setup["goals"]
    if len(columns) < 2 or trials.empty:
        return None
    x, y = columns[:2]
    fig, axes = figure_grid(1, 1, 4.6)
    ax = axes[0, 0]
    front = trials["pareto"].to_numpy(bool) if "pareto" in trials else np.zeros(len(trials), bool)
    ax.scatter(trials[x], trials[y], s=12, color="#BBBBBB", label="trials")
    ordered = trials[front].sort_values(x)
    ax.plot(ordered[x], ordered[y], "o-", color="#4C72B0", markersize=4, linewidth=1, label="Pareto front (search deals)")
    validation = result.tables["validation"]
    named = []
    for name, rows in validation[validation["role"] == "goal"].groupby("rules", sort=False):
        rows = rows.set_index("measure")
        if goals[0] not in rows.index or goals[1] not in rows.index:
            continue
        px, py = rows.loc[goals[0]], rows.loc[goals[1]]
        default = name == "default"
        ax.errorbar(px["value"], py["value"], xerr=_spans(*px[["value", "value_low", "value_high"]]),
                    yerr=_spans(*py[["value", "value_low", "value_high"]]), fmt="s" if default else "D",
                    color="#C44E52" if default else "#DD8452", markersize=6, capsize=3,
                    label=("default rules (fresh deals)" if default else "candidates (fresh deals)")
                    if default or not any(not d for _, d, _ in named) else None)
        named.append((name, default, (px["value"], py["value"])))
    ax.set_xlabel(f"{goals[0]} ({'lower' if result.setup['directions'][0] == 'minimize' else 'higher'} is better)")
    ax.set_ylabel(f"{goals[1]} ({'lower' if result.setup['directions'][1] == 'minimize' else 'higher'} is better)")
    _goal_axis(ax, x, "x")
    _goal_axis(ax, y, "y")
    legend_outside(ax)
    fig.tight_layout()
    place_labels(ax, [(name, point) for name, _, point in named])
    return fig


def place_labels(ax, points, fontsize: int = 7) -> None:
    """Name each point beside it where the name covers no other text: try eight spots around the point, nearest
    first, and keep the first free one (the last tried when none is; the tests catch that)."""
    fig = ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    taken = [t.get_window_extent(renderer) for t in ax.get_xticklabels() + ax.get_yticklabels() if t.get_text()]
    offsets = [(6, 6), (6, -12), (-6, 6), (-6, -12), (10, 0), (-10, 0), (0, 12), (0, -16), (14, 16), (-14, -20)]
    for name, point in points:
        for dx, dy in offsets:
            text = ax.annotate(name, point, textcoords="offset points", xytext=(dx, dy), fontsize=fontsize,
                               ha="left" if dx >= 0 else "right", va="bottom" if dy >= 0 else "top")
            box = text.get_window_extent(renderer)
            if not any(box.overlaps(other) for other in taken):
                break
            text.remove()
        else:
            text = ax.annotate(name, point, textcoords="offset points", xytext=offsets[0], fontsize=fontsize)
            box = text.get_window_extent(renderer)
        taken.append(box)


@analysis_plot("design", "effects", "Each goal against each varied rule value, over the trials (colour: trial order)")
def design_effects(result):
    trials = result.tables["trials"]
    names = [text.split("=", 1)[0] for text in result.setup["vary"]]
    columns = result.setup["goal_columns"]
    if trials.empty:
        return None
    fig, axes = figure_grid(len(columns), len(names), 2.8 * len(columns))
    fig.set_layout_engine("constrained")
    for i, column in enumerate(columns):
        for j, name in enumerate(names):
            ax = axes[i, j]
            values = trials[name]
            numeric = pd.api.types.is_numeric_dtype(values)
            positions = values if numeric else pd.Categorical(values.astype(str)).codes
            ax.scatter(positions, trials[column], c=np.arange(len(trials)), cmap="viridis", s=10, alpha=0.7)
            if not numeric:
                categories = pd.Categorical(values.astype(str)).categories
                ax.set_xticks(range(len(categories)), categories, rotation=30, ha="right", fontsize=7)
            if i == len(columns) - 1:
                ax.set_xlabel(name + (" (log)" if ":log" in result.setup["vary"][j] else ""))
            if ":log" in result.setup["vary"][j] and numeric:
                ax.set_xscale("log")
            elif numeric:       # 130k, not 130000
                ax.xaxis.set_major_formatter(lambda v, _: compact(v))
            if j == 0:
                ax.set_ylabel(result.setup["goals"][i])
            _goal_axis(ax, column)
    return fig


@analysis_plot("design", "seats", "The balance card's seat advantage of each rule set (95% intervals over deals)")
def design_seats(result):
    table = result.tables["card_seats"]
    names = list(dict.fromkeys(table["rules"]))
    seats = sorted(table["seat"].unique())
    return seat_advantage_figure(seats, 1.4 + 0.35 * len(names) * len(seats), 0.8 / len(names), [
        (seats, table[table["rules"] == name].set_index("seat").loc[seats], STAGE_COLOURS[k % 6], name)
        for k, name in enumerate(names)])


@analysis_plot("design", "length", "Game length of each rule set (the shortest and longest 0.5% in the end bins)")
def design_length(result):
    if "card_length" not in result.tables:
        return None
    table = result.tables["card_length"]
    fig, axes = figure_grid(1, 1, 3.4)
    ax = axes[0, 0]
    for k, (name, rows) in enumerate(table.groupby("rules", sort=False)):
        edges = np.append(rows["low"].to_numpy(), rows["high"].to_numpy()[-1])
        ax.stairs(rows["share"].to_numpy(), edges, color=STAGE_COLOURS[k % 6], linewidth=1.8 if name == "default" else 1.2,
                  linestyle="--" if name == "default" else "-", label=name)
    ax.set_xlabel(get_game(result.game).length_column or "length")
    ax.set_ylabel("share of games")
    percent_axis(ax)
    legend_outside(ax)
    fig.tight_layout()
    return fig
