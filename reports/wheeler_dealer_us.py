"""Wheeler-Dealer (US) report plots: bankruptcy timing, the Exchange against its exact odds, board heat map (the
rules and the reconstructed board they follow: docs/rules/wheeler-dealer-us.md)."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from simkit.stats import wilson

from . import plot
from .plots import by_strategy, legend_outside, percent_axis


@plot("bankruptcy_timing", "Share of players bankrupt by game turn, per strategy (bankruptcy as in "
                           "docs/rules/wheeler-dealer-us.md)")
def bankruptcy_timing(data):
    frame = data.frame
    fig, ax = plt.subplots(figsize=(8, 3.8))
    last = max(1, int(frame["turns"].max()))
    turns = np.arange(last + 1)
    for name, group in by_strategy(data):
        when = group.loc[group["bankrupt"], "bankrupt_turn"].to_numpy()
        counts = np.bincount(np.clip(when, 0, last), minlength=last + 1)
        ax.step(turns, np.cumsum(counts) / len(group), where="post", label=str(name))
    ax.set_xlabel("game turn")
    ax.set_ylabel("share bankrupt")
    percent_axis(ax)
    legend_outside(ax)
    fig.tight_layout()
    return fig


@plot("exchange_vs_odds", "Exchange win rate by commodity against the exact 2d6 odds (95% Wilson CI)")
def exchange_vs_odds(data):
    frame, rules = data.frame, data.manifest["rules"]
    names, observed, low, high, exact = [], [], [], [], []
    for commodity in rules["commodity"]:
        key = "".join(ch if ch.isalnum() else "_" for ch in commodity["name"].lower()).strip("_")
        made, won = int(frame[f"invest_{key}"].sum()), int(frame[f"won_{key}"].sum())
        names.append(f"{commodity['name']}\n(n={made:,})")
        lo, hi = wilson(won, made)
        observed.append(won / made if made else np.nan)
        low.append(float(lo))
        high.append(float(hi))
        exact.append(sum(6 - abs(t - 7) for t in commodity["wins"]) / 36)
    observed, low, high = np.array(observed), np.array(low), np.array(high)
    x = np.arange(len(names))
    fig, ax = plt.subplots(figsize=(10, 4))
    ax.errorbar(x, observed, yerr=[np.nan_to_num(np.maximum(observed - low, 0)),
                                   np.nan_to_num(np.maximum(high - observed, 0))],
                fmt="o", color="#4C72B0", capsize=4, label="observed")
    ax.scatter(x, exact, marker="_", s=400, color="#C44E52", label="exact odds", zorder=3)
    ax.set_xticks(x, names, fontsize=7)
    ax.set_ylabel("share of investments won")
    percent_axis(ax)
    legend_outside(ax)
    fig.tight_layout()
    return fig


def _ring(squares):
    """Grid cells for squares laid clockwise around a rectangle, or None if the count doesn't fit one."""
    for top in range(3, squares):
        side = (squares + 4) / 2 - top
        if side >= 3 and side == int(side) and top >= side:
            side = int(side)
            cells = [(0, c) for c in range(top)] + [(r, top - 1) for r in range(1, side)]
            cells += [(side - 1, c) for c in range(top - 2, -1, -1)] + [(r, 0) for r in range(side - 2, 0, -1)]
            return cells, side, top
    return None


@plot("landing_heatmap", "Landing frequency of each square (share of all landings; the board is the reconstructed one "
                         "of docs/rules/wheeler-dealer-us.md unless the rules changed it)")
def landing_heatmap(data):
    landings = np.asarray(data.manifest.get("totals", {}).get("landings", []), float)
    names = data.manifest.get("labels", {}).get("landings", [str(i) for i in range(len(landings))])
    share = landings / max(landings.sum(), 1)
    layout = _ring(len(landings))
    if layout is None:
        fig, ax = plt.subplots(figsize=(10, 3.5))
        ax.bar(range(len(share)), share, color="#DD8452")
        ax.set_xticks(range(len(share)), names, rotation=90, fontsize=6)
        ax.set_ylabel("share of landings")
        percent_axis(ax)
        fig.tight_layout()
        return fig
    cells, rows, cols = layout
    grid = np.full((rows, cols), np.nan)
    for square, (r, c) in enumerate(cells):
        grid[r, c] = share[square]
    fig, ax = plt.subplots(figsize=(10, 8))
    image = ax.imshow(grid, cmap="YlOrRd")
    for square, (r, c) in enumerate(cells):
        dark = image.norm(share[square]) > 0.55      # white on the dark reds, black on the pale ones
        ax.text(c, r, f"{names[square]}\n{share[square]:.1%}", ha="center", va="center", fontsize=6,
                color="white" if dark else "black")
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_title("clockwise from the top-left corner (square 0)", fontsize=9)
    bar = fig.colorbar(image, ax=ax, shrink=0.6, label="share of landings")
    percent_axis(bar.ax)
    fig.tight_layout()
    return fig
