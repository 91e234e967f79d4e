"""Dweebies report plots: cards collected by seat and strategy, collection sizes and table splits (the
first seat's advantage by player count is the generic ``seats_by_run`` plot, drawn with --also). The
decision ids in titles (D4, D5) are explained in docs/rules/dweebies.md."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from . import plot
from .plots import int_bins, legend_outside, percent_axis


@plot("collected_by_seat", "Cards collected by seat and strategy (box: quartiles; dot: mean)")
def collected_by_seat(data):
    frame = data.frame
    seats = sorted(frame["seat"].unique())
    values = [frame.loc[frame["seat"] == s, "collected"].to_numpy() for s in seats]
    fig, ax = plt.subplots(figsize=(7, 3.8))
    ax.boxplot(values, showfliers=False)
    ax.plot(np.arange(1, len(seats) + 1), [v.mean() for v in values], "o", color="#C44E52", label="mean")
    ax.set_xticks(np.arange(1, len(seats) + 1), [f"seat {s}\n{data.labels.get(int(s), '')}" for s in seats], fontsize=8)
    ax.set_ylabel("cards collected per game")
    legend_outside(ax)
    fig.tight_layout()
    return fig


@plot("collection_sizes", "Sizes of collections (cards taken in one turn), over the batch")
def collection_sizes(data):
    counts = np.asarray(data.manifest["totals"]["collection_sizes"], float)
    sizes = np.nonzero(counts)[0]
    fig, ax = plt.subplots(figsize=(7, 3.8))
    if sizes.size:
        shown = np.arange(sizes.min(), sizes.max() + 1)
        ax.bar(shown, counts[shown] / counts.sum(), color="#4C72B0")
        mean = (np.arange(counts.size) * counts).sum() / counts.sum()
        ax.set_title(f"{int(counts.sum()):,} collections; mean {mean:.2f} cards", fontsize=9)
    ax.set_xlabel("cards in one collection (a row and a column together count the placed card once, D4)")
    ax.set_ylabel("share of collections")
    percent_axis(ax)
    fig.tight_layout()
    return fig


@plot("table_splits", "How often the table splits (D5, docs/rules/dweebies.md): splits per game")
def table_splits(data):
    games = data.frame[data.frame["seat"] == 0]
    splits = games["splits"].to_numpy()
    fig, ax = plt.subplots(figsize=(7, 3.8))
    ax.hist(splits, bins=int_bins(0, max(1, splits.max())), color="#8172B2",
            weights=np.full(len(splits), 1 / len(splits)))
    placements = data.frame["link_placements"].sum() / max(1, games["turns"].sum())
    ax.set_title(f"{np.mean(splits > 0):.1%} of games split at least once; mean {splits.mean():.2f} splits a game\n"
                 f"{placements:.1%} of cards placed on a link; at most {games['most_groups'].max()} groups at once",
                 fontsize=9)
    ax.set_xlabel("collections in a game that split the table")
    ax.set_ylabel("share of games")
    percent_axis(ax)
    fig.tight_layout()
    return fig
