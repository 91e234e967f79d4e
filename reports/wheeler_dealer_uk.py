"""Wheeler Dealer (UK) report plots: wealth over turns for a sample of games, time to win, sets sold by
size, inner-circle entry times (the rules as played: docs/rules/wheeler-dealer-uk.md)."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from simkit.games.wheeler_dealer_uk.play import wealth_traces
from simkit.games.wheeler_dealer_uk.view import H_TARGET
from simkit.runner import batch_from_manifest

from . import plot
from .plots import by_strategy, int_bins, legend_outside, percent_axis

SAMPLE_GAMES = 6
_ENDS = ("target reached", "last player left", "turn limit (flagged)")


@plot("wealth_over_turns", f"Total wealth at the start of each turn, the run's first {SAMPLE_GAMES} games "
                           "(re-played from the manifest)")
def wealth_over_turns(data):
    batch = batch_from_manifest(data.manifest, min(SAMPLE_GAMES, data.manifest["games"]))
    # deals 0.. in the line-up's own order: a rotated run's games 0, n, 2n..., otherwise games 0, 1, 2...
    step = len(batch.seats) if batch.rotate_seats else 1
    labels = {entry["seat"]: entry["label"] for entry in data.manifest["lineup"]}
    deals = range(min(SAMPLE_GAMES, data.manifest["games"] // step))
    traces = wealth_traces(batch.prepared, list(batch.seats), batch.seed, deals)
    fig, axes = plt.subplots(2, (len(traces) + 1) // 2, figsize=(10, 5.5), squeeze=False, sharey=True)
    target = batch.prepared.table[H_TARGET]
    for ax, (game, seats) in zip(axes.ravel(), traces.items()):
        for seat, (rounds, wealth) in enumerate(seats):
            ax.plot(rounds, np.asarray(wealth) / 1000, label=labels.get(seat, str(seat)), linewidth=1.2)
        ax.axhline(target / 1000, color="grey", linestyle="--", linewidth=0.8,
                   label=f"target ({target:,} credits)" if ax is axes[0, 0] else None)
        ax.set_title(f"game {game * step}", fontsize=9)
        ax.set_xlabel("round", fontsize=8)
    axes[0, 0].set_ylabel("total wealth (thousand credits)")
    axes[1, 0].set_ylabel("total wealth (thousand credits)")
    handles = [h for ax in axes.ravel() for h in ax.get_legend_handles_labels()[0]]
    labels = [t for ax in axes.ravel() for t in ax.get_legend_handles_labels()[1]]
    unique = dict(zip(labels, handles))
    axes[0, -1].legend(unique.values(), unique.keys(), loc="upper left", bbox_to_anchor=(1.01, 1.0),
                       borderaxespad=0, fontsize=8, frameon=False)
    fig.tight_layout()
    return fig


@plot("time_to_win", "Rounds to the end of the game, by how it ended (K4 in docs/rules/wheeler-dealer-uk.md)")
def time_to_win(data):
    games = data.frame[data.frame["seat"] == 0]
    rounds, ends = games["rounds"].to_numpy(), games["end"].to_numpy()
    fig, ax = plt.subplots(figsize=(7, 3.8))
    bins = int_bins(0, max(1, rounds.max()), 80)
    shown = [(rounds[ends == e], f"{name}: {np.mean(ends == e):.1%}") for e, name in enumerate(_ENDS) if (ends == e).any()]
    ax.hist([r for r, _ in shown], bins=bins, stacked=True, label=[name for _, name in shown])
    ax.set_title(f"median {np.median(rounds):.0f} rounds, 90th percentile {np.percentile(rounds, 90):.0f}", fontsize=9)
    ax.set_xlabel("rounds played")
    ax.set_ylabel("games")
    legend_outside(ax)
    fig.tight_layout()
    return fig


@plot("set_sizes", "Sets sold to the bank by number of cards, over the batch")
def set_sizes(data):
    counts = np.asarray(data.manifest["totals"]["set_sizes"], float)
    sizes = np.nonzero(counts)[0]
    fig, ax = plt.subplots(figsize=(7, 3.5))
    if sizes.size:
        ax.bar(sizes, counts[sizes] / counts.sum(), color="#4C72B0")
        ax.set_xticks(sizes)
        ax.set_title(f"{int(counts.sum()):,} sets; rule: {data.manifest['rules']['game']['set_multiple_rule']}",
                     fontsize=9)
    ax.set_xlabel("cards in the set")
    ax.set_ylabel("share of sets sold")
    percent_axis(ax)
    fig.tight_layout()
    return fig


@plot("inner_circle_entry", "Round in which players enter the inner circle (K3 in docs/rules/wheeler-dealer-uk.md), "
                            "by strategy")
def inner_circle_entry(data):
    frame = data.frame
    fig, ax = plt.subplots(figsize=(7, 3.8))
    entered = frame.loc[frame["inner_round"] >= 0, "inner_round"]
    bins = int_bins(1, max(1, entered.max() if len(entered) else 1), 60)
    for name, group in by_strategy(data):
        rounds = group.loc[group["inner_round"] >= 0, "inner_round"]
        ax.hist(rounds, bins=bins, histtype="step", linewidth=1.5, density=False,
                label=f"{name} (never: {np.mean(group['inner_round'] < 0):.0%})")
    ax.set_xlabel("round of entry")
    ax.set_ylabel("seats")
    legend_outside(ax)
    fig.tight_layout()
    return fig
