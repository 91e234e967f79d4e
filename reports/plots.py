"""The generic plots, drawn for every game; game-specific ones live in a module per game beside this."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from . import plot  # noqa: E402


def bars_with_ci(ax, labels, values, low, high, color):
    x = np.arange(len(labels))
    ax.bar(x, values, color=color, alpha=0.8)
    yerr = [np.maximum(values - low, 0), np.maximum(high - values, 0)]
    ax.errorbar(x, values, yerr=yerr, fmt="none", ecolor="black", capsize=4)
    ax.set_xticks(x, labels, rotation=20, ha="right")


def int_bins(low, high, max_bins=60):
    """Bin edges on half-integers, so integer scores never straddle two bins."""
    low, high = int(np.floor(low)), int(np.ceil(high))
    width = max(1, int(np.ceil((high - low + 1) / max_bins)))
    return np.arange(low - 0.5, high + width + 0.5, width)


@plot("win_rates", "Win rate by strategy (95% Wilson CI)", generic=True)
def win_rates(data):
    table = data.summary["strategy"]
    fig, ax = plt.subplots(figsize=(7, 3.8))
    bars_with_ci(ax, [str(i) for i in table.index], table["win_rate"].to_numpy(), table["win_low"].to_numpy(),
                  table["win_high"].to_numpy(), "#4C72B0")
    ax.axhline(1 / data.manifest["players"], color="grey", linestyle="--", linewidth=1, label="1 / players")
    ax.set_ylabel("win rate (ties count for each tied seat)")
    ax.legend()
    fig.tight_layout()
    return fig


@plot("score_distribution", "Score distribution by strategy", generic=True)
def score_distribution(data):
    frame, score = data.frame, data.score
    fig, ax = plt.subplots(figsize=(7, 3.8))
    names = list(frame["strategy"].cat.categories) if hasattr(frame["strategy"], "cat") else sorted(frame["strategy"].unique())
    low, high = np.percentile(frame[score], [0.5, 99.5])
    bins = int_bins(low, high)
    for name in names:
        values = frame.loc[frame["strategy"] == name, score]
        if len(values):
            ax.hist(values, bins=bins, histtype="step", density=True, linewidth=1.5, label=str(name))
    ax.set_xlabel(score)
    ax.set_ylabel("share of games")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


@plot("seat_effects", "Win rate and mean score by seat (95% CIs)", generic=True)
def seat_effects(data):
    table = data.summary["seat"]
    score = data.score
    labels = [f"seat {i}\n{data.labels.get(int(i), '')}" for i in table.index]
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.8))
    bars_with_ci(axes[0], labels, table["win_rate"].to_numpy(), table["win_low"].to_numpy(),
                  table["win_high"].to_numpy(), "#55A868")
    axes[0].set_ylabel("win rate")
    bars_with_ci(axes[1], labels, table[f"mean_{score}"].to_numpy(), table["mean_low"].to_numpy(),
                  table["mean_high"].to_numpy(), "#C44E52")
    axes[1].set_ylabel(f"mean {score}")
    fig.tight_layout()
    return fig
