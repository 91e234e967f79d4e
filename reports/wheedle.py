"""Wheedle's own report plots."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from . import plot
from .plots import hist_with_overflow


@plot("round_lengths", "Round lengths in ticks (W3); stalemates end at max_ticks (W5; docs/rules/wheedle.md)")
def round_lengths(data):
    games = data.frame[data.frame["seat"] == 0]
    ticks = np.concatenate([games[c].to_numpy() for c in games.columns if c.startswith("ticks_r")])
    stoppers = np.concatenate([games[c].to_numpy() for c in games.columns if c.startswith("stopper_r")])
    fig, ax = plt.subplots(figsize=(8, 3.8))
    hist_with_overflow(ax, ticks, cap=max(10, int(np.percentile(ticks, 99))), max_bins=80, color="#8172B2",
                       unit="rounds")
    stalemate = float(np.mean(stoppers < 0))
    ax.set_title(f"median {np.median(ticks):.0f}, 90th percentile {np.percentile(ticks, 90):.0f} ticks; "
                 f"stalemates {stalemate:.1%} of rounds", fontsize=9)
    ax.set_xlabel("ticks per round (the longest 1% of rounds in the hatched bar)")
    ax.set_ylabel("share of rounds")
    fig.tight_layout()
    return fig
