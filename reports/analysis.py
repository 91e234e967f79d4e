"""Results directories and HTML reports for analyses (compare, tournament, sweep, balance, tune, metagame).

Plots are registered per kind of analysis with ``@analysis_plot``; each is embedded in report.html as
PNG and also saved beside the tables as PNG and SVG for reuse.
"""
from __future__ import annotations

import base64
import io
import json
import platform
import shutil
from datetime import datetime, timezone
from pathlib import Path

import jinja2
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numba  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from simkit import __version__  # noqa: E402
from simkit.games import get_game  # noqa: E402
from simkit.runner import MANIFEST, staged  # noqa: E402

TEMPLATE = Path(__file__).with_name("analysis.html.j2")
ANALYSIS_PLOTS: dict[str, list] = {}

HOW_TO_READ = {
    "compare": "A and B were played on the same seeds: game g had the same deal, dice and tie-breaks on both sides, so "
               "each game gives a paired difference B - A. An interval that excludes 0 means B changed that outcome. "
               "'Variance reduction' is how many times more games two independent samples would have needed for "
               "intervals as narrow.",
    "tournament": "Every combination of the strategies was played with every seat order, on the same deals. The "
                  "rating is a Bradley-Terry strength from who finished ahead of whom within each game (Elo-like: +100 "
                  "is ahead of an average strategy about 64% of the time). The matrix shows how often the row strategy "
                  "finished ahead of the column strategy when both played.",
    "sweep": "Each point of the grid was played on the same deals, so differences between points are measured game by "
             "game. The band is a 95% interval; points whose paired difference from the best includes 0 cannot be "
             "told apart from the best with these games.",
    "balance": "The line-up was played in every seat order on the same deals, so seat effects and strategy effects "
               "separate. A fair game gives every seat the same win rate; a game that is decided early gives the "
               "half-time leader most wins; a dominant strategy beats every other head to head.",
    "tune": "The search asked several trials at a time and played them, with the incumbent (the best so far), on the same "
            "deals in every seat order; a trial's value is the incumbent's running mean plus the trial's paired "
            "difference from it on those deals. Values are noisy estimates: the best few trials raced again on fresh "
            "seeds, and the winner was compared with the starting values on fresh seeds once more. Only that last, "
            "paired interval says whether tuning helped; a best response 'beats' a field strategy when its win rate "
            "minus that strategy's, in the same games, has an interval above 0.",
    "metagame": "Every multiset of the strategies was played in every seat order on the same deals. If each player picks "
                "a strategy at random from a mix, a mix where no one gains by switching is an equilibrium: the mix "
                "experienced players would settle on. It was found by replicator dynamics (strategies that win more "
                "than average spread) from the uniform mix. At the equilibrium every strategy played wins about "
                "1/players; those not played win less. Intervals come from resampling the deals.",
}


def analysis_plot(kind: str, name: str, title: str):
    """Register a plot ``(Analysis) -> Figure | None`` for analyses of ``kind`` (None: nothing to draw)."""
    def register(func):
        ANALYSIS_PLOTS.setdefault(kind, []).append((name, title, func))
        return func
    return register


def _interval_bars(ax, labels, values, low, high, color="#4C72B0"):
    y = np.arange(len(labels))
    values, low, high = (np.asarray(v, float) for v in (values, low, high))
    ax.barh(y, values, color=color, alpha=0.8)
    ax.errorbar(values, y, xerr=[np.maximum(values - low, 0), np.maximum(high - values, 0)], fmt="none",
                ecolor="black", capsize=4)
    ax.set_yticks(y, [str(label) for label in labels])
    ax.axvline(0, color="grey", linewidth=1)
    ax.invert_yaxis()


def _figure(rows=1, cols=1, height=3.6):
    return plt.subplots(rows, cols, figsize=(8.5, max(height, 0.5)), squeeze=False)


@analysis_plot("compare", "differences", "B - A per strategy: win rate and mean score (paired intervals)")
def compare_differences(result):
    table = result.tables["strategy"]
    fig, axes = _figure(1, 2, 1.2 + 0.45 * len(table))
    _interval_bars(axes[0, 0], table.index, table["win_diff"] * 100, table["win_low"] * 100, table["win_high"] * 100)
    axes[0, 0].set_xlabel("win rate B - A (percentage points)")
    _interval_bars(axes[0, 1], [""] * len(table), table["score_diff"], table["score_low"], table["score_high"], "#C44E52")
    axes[0, 1].set_xlabel("mean score B - A")
    fig.tight_layout()
    return fig


def _seat_bars(tables: list[tuple[str, pd.DataFrame]]):
    fig, axes = _figure(1, len(tables), 1.2 + 0.45 * len(tables[0][1]))
    for ax, (label, table) in zip(axes[0], tables):
        _interval_bars(ax, [f"seat {s}" for s in table.index], table["win_advantage"] * 100,
                       table["win_advantage_low"] * 100, table["win_advantage_high"] * 100, "#55A868")
        ax.set_xlabel(f"{label}win rate minus the average seat's (points)")
    fig.tight_layout()
    return fig


@analysis_plot("compare", "seat_advantage", "Seat advantage under rotation, A and B (95% intervals over deals)")
def compare_seats(result):
    if "seat_advantage_a" not in result.tables:
        return None
    return _seat_bars([("A: ", result.tables["seat_advantage_a"]), ("B: ", result.tables["seat_advantage_b"])])


@analysis_plot("tournament", "ratings", "Bradley-Terry rating (bootstrap 95% interval) and win rate")
def tournament_ratings(result):
    table = result.tables["standings"]
    fig, axes = _figure(1, 2, 1.2 + 0.45 * len(table))
    _interval_bars(axes[0, 0], table.index, table["rating"], table["rating_low"], table["rating_high"])
    axes[0, 0].set_xlabel("rating (Elo-like, mean 0)")
    _interval_bars(axes[0, 1], [""] * len(table), table["win_rate"], table["win_rate_low"], table["win_rate_high"], "#55A868")
    axes[0, 1].set_xlabel("win rate")
    fig.tight_layout()
    return fig


def _matrix(ax, matrix: pd.DataFrame):
    image = ax.imshow(matrix.to_numpy(float), cmap="RdBu", vmin=0, vmax=1)
    ax.set_xticks(range(len(matrix.columns)), matrix.columns, rotation=30, ha="right")
    ax.set_yticks(range(len(matrix.index)), matrix.index)
    for (i, j), value in np.ndenumerate(matrix.to_numpy(float)):
        if not np.isnan(value):
            ax.text(j, i, f"{value:.2f}", ha="center", va="center", fontsize=8)
    return image


@analysis_plot("tournament", "head_to_head", "Head to head: share of shared games the row finished ahead of the column")
def tournament_matrix(result):
    matrix = result.tables["head_to_head"]
    fig, axes = _figure(height=1.5 + 0.5 * len(matrix))
    fig.colorbar(_matrix(axes[0, 0], matrix), ax=axes[0, 0])
    fig.tight_layout()
    return fig


@analysis_plot("sweep", "curve", "Win rate and mean score along the grid (95% bands; the best point marked)")
def sweep_curve(result):
    curve = result.tables["curve"]
    key = curve.index.names[0]
    points = list(dict.fromkeys(curve.index.get_level_values(0)))
    x = np.arange(len(points))
    fig, axes = _figure(1, 2, 3.8)
    for entry in dict.fromkeys(curve.index.get_level_values(1)):
        rows = curve.xs(entry, level=1).loc[points]
        focus = entry == result.setup["focus"]
        for ax, (value, low, high) in zip(axes[0], (("win_rate", "win_low", "win_high"),
                                                     ("mean_score", "score_low", "score_high"))):
            ax.plot(x, rows[value], marker="o", linewidth=2.5 if focus else 1, label=entry)
            ax.fill_between(x, rows[low], rows[high], alpha=0.25 if focus else 0.1)
    focus_rows = curve.xs(result.setup["focus"], level=1).loc[points]
    best = int(np.argmax(focus_rows["win_rate"].to_numpy()))
    axes[0, 0].axvline(best, color="black", linestyle=":", label=f"best: {points[best]}")
    for ax, label in zip(axes[0], ("win rate", "mean score")):
        ax.set_xticks(x, points, rotation=30 if max(len(p) for p in points) > 4 else 0)
        ax.set_xlabel(key)
        ax.set_ylabel(label)
    axes[0, 0].legend(fontsize=7)
    fig.tight_layout()
    return fig


@analysis_plot("balance", "seats", "Seat advantage: win rate minus the average seat's (95% intervals over deals)")
def balance_seats(result):
    return _seat_bars([("", result.tables["seats"])])


@analysis_plot("balance", "length", "Game length distribution")
def balance_length(result):
    if "length" not in result.tables:
        return None
    table = result.tables["length"]
    values, shares = table.index.to_numpy(float), table["share"].to_numpy()
    fig, axes = _figure()
    ax = axes[0, 0]
    if len(values) > 80:   # many distinct lengths: a histogram of them, weighted by their shares
        ax.hist(values, bins=60, weights=shares, color="#4C72B0")
    else:
        ax.bar(values, shares, color="#4C72B0")
    ax.set_xlabel(table.index.name)
    ax.set_ylabel("share of games")
    fig.tight_layout()
    return fig


@analysis_plot("balance", "head_to_head", "Head to head within the line-up: share of games the row finished ahead")
def balance_matrix(result):
    matrix = result.tables["head_to_head"]["ahead"].unstack("opponent")
    order = list(dict.fromkeys(result.tables["head_to_head"].index.get_level_values(0)))
    matrix = matrix.reindex(index=order, columns=order)
    fig, axes = _figure(height=1.5 + 0.5 * len(matrix))
    fig.colorbar(_matrix(axes[0, 0], matrix), ax=axes[0, 0])
    fig.tight_layout()
    return fig


def figures(result):
    """(name, title, Figure) for every registered plot of the analysis's kind that has something to draw."""
    drawn = []
    for name, title, draw in ANALYSIS_PLOTS.get(result.kind, []):
        fig = draw(result)
        if fig is not None:
            drawn.append((name, title, fig))
    return drawn


def _flat(table: pd.DataFrame) -> pd.DataFrame:
    table = table.reset_index() if any(name is not None for name in table.index.names) else table.reset_index(drop=True)
    table.columns = [str(c) for c in table.columns]
    return table


def _html_table(table: pd.DataFrame) -> str:
    shown = table if len(table) <= 60 else table.head(60)
    html = _flat(shown).to_html(index=False, float_format=lambda v: f"{v:.4g}", classes="summary", na_rep="")
    return html + (f'<p class="note">First 60 of {len(table)} rows; the full table is in the results directory.</p>'
                   if len(table) > 60 else "")


def write_results(out, experiment, results, extra: dict, attachments: dict | None = None) -> Path:
    """Write the results directory of an experiment's analyses (built under a temporary name and renamed
    into place when complete, like a run directory). attachments: name -> path of files copied in as they
    are (e.g. the searches' Optuna storage)."""
    out = Path(out).resolve()
    with staged(out) as staging:
        sections = []
        for number, result in enumerate(results, 1):
            folder = staging / f"{number:02d}-{result.kind}"
            folder.mkdir()
            for name, table in result.tables.items():
                _flat(table).to_csv(folder / f"{name}.csv", index=False)
                _flat(table).to_parquet(folder / f"{name}.parquet", index=False)
            for name, text in result.files.items():
                (folder / name).write_text(text)
            (folder / "findings.txt").write_text("\n".join(result.findings) + "\n")
            embedded = []
            for name, title, fig in figures(result):
                fig.savefig(folder / f"{name}.png", dpi=110)
                fig.savefig(folder / f"{name}.svg")
                buffer = io.BytesIO()
                fig.savefig(buffer, format="png", dpi=110)
                plt.close(fig)
                embedded.append({"title": title, "png": base64.b64encode(buffer.getvalue()).decode("ascii")})
            sections.append({"title": result.title, "kind": result.kind, "folder": folder.name,
                             "findings": result.findings, "figures": embedded, "how": HOW_TO_READ[result.kind],
                             "tables": {name: _html_table(table) for name, table in result.tables.items()},
                             "setup": json.dumps(result.setup, indent=2, default=str)})
        manifest = {"experiment": experiment.to_dict(), **extra,
                    "analyses": [{"kind": r.kind, "title": r.title, "setup": r.setup} for r in results],
                    "versions": {"simkit": __version__, "numba": numba.__version__, "numpy": np.__version__,
                                 "pandas": pd.__version__, "python": platform.python_version()},
                    "created": datetime.now(timezone.utc).isoformat(timespec="seconds")}
        (staging / MANIFEST).write_text(json.dumps(manifest, indent=2, default=str))
        (staging / "experiment.toml").write_text(experiment.to_toml())
        for name, path in (attachments or {}).items():
            shutil.copyfile(path, staging / name)
        html = jinja2.Template(TEMPLATE.read_text()).render(experiment=experiment, sections=sections, manifest=manifest,
                                                             note=get_game(experiment.game).report_note)
        (staging / "report.html").write_text(html)
    return out


from . import search  # noqa: E402,F401  (registers the plots of tune, metagame and re-tuned compare)
