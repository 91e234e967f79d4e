"""Results directories and HTML reports for analyses (compare, tournament, sweep, balance, tune, metagame,
design).

Plots are registered per kind of analysis with ``@analysis_plot``; each is saved beside the tables as
PNG and SVG, and report.html is rendered from the directory's files (so ``simkit report DIR`` renders
the same page again). Tables are shown through ``simkit.reports.format``: one cell per estimate and interval.
"""
from __future__ import annotations

import base64
import json
import platform
import re
import shutil
from datetime import datetime, timezone
from pathlib import Path

import jinja2
import matplotlib
import numba
import numpy as np
import pandas as pd
from markupsafe import Markup
from matplotlib.ticker import PercentFormatter

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after matplotlib.use: no display)

from simkit.analysis.experiment import Experiment
from simkit.forked import map_forked  # noqa: E402  (after matplotlib.use: no display)
from simkit.games import get_game  # noqa: E402  (after matplotlib.use: no display)
from simkit.results import read_manifest
from simkit.runner import MANIFEST, staged  # noqa: E402  (after matplotlib.use: no display)
from simkit.storage import inside, write_atomic  # noqa: E402  (after matplotlib.use: no display)
from simkit.version import __version__  # noqa: E402  (after matplotlib.use: no display)

from . import ANALYSIS_PLOTS, analysis_plot, search  # noqa: E402,F401  (search: registers the plots of tune, metagame and re-tuned compare)
from .card import CARD_CSS, analysis_panels, card_html, forest_figure, nav_html, png, verdict_lines  # noqa: E402  (after matplotlib.use: no display)
from .format import (  # noqa: E402  (after matplotlib.use: no display)
    effective_rules,
    flat_table,
    lineup_text,
    money_columns,
    rule_changes_text,
    setup_table_html,
    table_html,
    tested,
)
from .hover import views as hover_views  # noqa: E402  (after matplotlib.use: no display)
from .order import sort_tables  # noqa: E402  (after matplotlib.use: no display)
from .plots import (  # noqa: E402  (after matplotlib.use: no display)
    figure_grid,
    hist_with_overflow,
    interval_bars,
    legend_outside,
    money_axis,
    percent_axis,
    seat_advantage_figure,
)

TEMPLATE = Path(__file__).with_name("analysis.html.j2")

HOW_TO_READ = {
    "compare": "A and B were played on the same seeds: game g had the same deal, dice and tie-breaks on both sides, so "
               "each game gives a paired difference B - A. An interval that excludes 0 means B changed that outcome. "
               "'Variance reduction' is how many times more games two independent samples would have needed for "
               "intervals as narrow. The deals column counts the paired units the intervals are over: with "
               "--rotate-seats each deal is played in every seat order (games per side = deals x players). Without "
               "rotation each strategy keeps its seat, so a seat's row also measures its strategy.",
    "tournament": "Every combination of the strategies was played with every seat order, on the same deals. The "
                  "rating is a Bradley-Terry strength from who finished ahead of whom within each game (Elo-like: +100 "
                  "is ahead of an average strategy about 64% of the time). The matrix shows how often the row strategy "
                  "finished ahead of the column strategy when both played.",
    "sweep": "Each point of the grid was played on the same deals, so differences between points are measured game by "
             "game. The band is a 95% interval; points whose paired difference from the best includes 0 cannot be "
             "told apart from the best with these games.",
    "balance": "The line-up was played in every seat order on the same deals, so seat effects and strategy effects "
               "separate. A fair game gives every seat the same win rate; a game that is decided early gives the "
               "half-time leader most wins; a dominant strategy beats every other head to head. An A/B card "
               "(--set-b, --players-b) plays both sides on the same deals and gives each change B - A with its "
               "interval: a seat's advantage, the strategy spread (the best strategy's win rate minus the worst's: "
               "how much the choice of strategy matters), win rates and game length.",
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
    "design": "Each trial is one rule set, played by the same line-up on the same deals in every seat order as every "
              "other trial, so trials differ by their rules rather than their luck; its goal values have 95% intervals "
              "from resampling the deals. Because every trial saw the same deals, the best trials are partly the ones "
              "those deals flatter: the candidates and the default rules were played again on fresh deals with more "
              "games, and a candidate is a winner only if the paired interval of its difference from the default "
              "excludes 0 in its favour. The cards table shows the balance card's facts of each rule set side by side; "
              "each candidate's rules are in candidate-K.toml, ready for --rules.",
}


def _game(result):
    return get_game(result.game)


def _score_label(ax, game, text: str, axis: str = "x") -> str:
    """An axis of the game's score (money formatted as money); returns its label."""
    if game.score_column in game.money_columns:
        return text + money_axis(ax, game, axis)
    return text


def _seat_bars(tables: list[tuple[str, pd.DataFrame]]):
    """Seat advantages in points, every side on one axis (A and B overlaid, a row per seat)."""
    seats = tables[0][1]
    colours = ["#888888", "#2166AC"] if len(tables) > 1 else ["#55A868"]
    return seat_advantage_figure(list(seats.index), 1.3 + 0.5 * len(seats), 0.22, [
        ([f"seat {s}" for s in table.index], table, colour, label.rstrip(": ") or None)
        for (label, table), colour in zip(tables, colours)], legend=len(tables) > 1)


@analysis_plot("compare", "seat_advantage", "Seat advantage under rotation, A and B (95% intervals over deals)")
def compare_seats(result):
    if "seat_advantage_a" not in result.tables:
        return None
    return _seat_bars([("A: ", result.tables["seat_advantage_a"]), ("B: ", result.tables["seat_advantage_b"])])


@analysis_plot("tournament", "ratings", "Bradley-Terry rating (bootstrap 95% interval) and win rate")
def tournament_ratings(result):
    table = result.tables["standings"]
    fig, axes = figure_grid(1, 2, 1.2 + 0.45 * len(table))
    interval_bars(axes[0, 0], table.index, table["rating"], table["rating_low"], table["rating_high"])
    axes[0, 0].set_xlabel("rating (Elo-like, mean 0)")
    interval_bars(axes[0, 1], [""] * len(table), table["win_rate"], table["win_rate_low"], table["win_rate_high"], "#55A868")
    axes[0, 1].set_xlabel("win rate")
    percent_axis(axes[0, 1], "x")
    fig.tight_layout()
    return fig


def _matrix(ax, long: pd.DataFrame):
    """A head-to-head heat map from a long table (strategy, opponent -> ahead, low, high): the colours are
    centred on 0.5 (an even match is white) and stretched to the largest deviation, so 45% against 55%
    reads as a clear difference; every cell shows its share and 95% interval."""
    order = list(dict.fromkeys(long.index.get_level_values(0)))
    grid = {name: long[name].unstack("opponent").reindex(index=order, columns=order) for name in ("ahead", "low", "high")}
    values = grid["ahead"].to_numpy(float)
    spread = np.nanmax(np.abs(values - 0.5), initial=0.0)
    spread = max(0.02, float(np.ceil(spread * 50) / 50))   # round up to 2 points, at least +-2 points
    image = ax.imshow(values, cmap="RdBu", vmin=0.5 - spread, vmax=0.5 + spread)
    ax.set_xticks(range(len(order)), order, rotation=90)     # upright names never run into each other
    ax.set_yticks(range(len(order)), order)
    ax.set_xlabel("opponent (column)")
    ax.set_ylabel("finished ahead (row)")
    size = 8 if len(order) <= 5 else 6
    for (i, j), value in np.ndenumerate(values):
        if not np.isnan(value):
            low, high = grid["low"].iat[i, j], grid["high"].iat[i, j]
            strong = abs(value - 0.5) > 0.6 * spread
            ax.text(j, i, f"{value:.1%}\n[{low * 100:.1f}, {high * 100:.1f}]", ha="center", va="center", fontsize=size,
                    color="white" if strong else "black")
    return image


def _heat_map(long: pd.DataFrame):
    n = len(set(long.index.get_level_values(0)))
    fig, axes = figure_grid(height=1.8 + 0.75 * n)
    fig.set_size_inches(max(6.5, 1.3 * n + 3), 1.8 + 0.75 * n)
    bar = fig.colorbar(_matrix(axes[0, 0], long), ax=axes[0, 0])
    bar.ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    bar.set_label("share of shared games the row finished ahead")
    fig.tight_layout()
    return fig


@analysis_plot("tournament", "head_to_head", "Head to head: share of shared games the row finished ahead of the column "
                                              "(95% intervals over deals; white = an even match)")
def tournament_matrix(result):
    if "head_to_head_intervals" not in result.tables:
        return None
    return _heat_map(result.tables["head_to_head_intervals"])


def _numeric(points) -> np.ndarray | None:
    """The grid's values as numbers (a numeric axis), or None for values that are not (true/false, names)."""
    try:
        values = np.array([float(point) for point in points])
    except (TypeError, ValueError):
        return None
    return None if any(str(point).lower() in ("true", "false") for point in points) else values


@analysis_plot("sweep", "curve", "Win rate and mean score along the grid (95% bands); the best point marked only "
                                 "where its paired difference from every other point excludes 0")
def sweep_curve(result):
    curve = result.tables["curve"]
    key = curve.index.names[0]
    points = list(dict.fromkeys(curve.index.get_level_values(0)))
    numeric = _numeric(points)
    x = numeric if numeric is not None else np.arange(len(points))
    game = _game(result)
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.9), squeeze=False)
    entries = list(dict.fromkeys(curve.index.get_level_values(1)))
    for k, entry in enumerate(entries):
        rows = curve.xs(entry, level=1).loc[points]
        focus = entry == result.setup["focus"]
        for ax, (value, low, high) in zip(axes[0], (("win_rate", "win_low", "win_high"),
                                                     ("mean_score", "score_low", "score_high"))):
            if numeric is not None:
                ax.plot(x, rows[value], marker="o", linewidth=2.5 if focus else 1, label=entry)
                ax.fill_between(x, rows[low], rows[high], alpha=0.25 if focus else 0.1)
            else:       # categories: dots and intervals side by side, no lines joining them
                shift = (k - (len(entries) - 1) / 2) * 0.8 / len(entries)
                ax.errorbar(x + shift, rows[value], yerr=[rows[value] - rows[low], rows[high] - rows[value]], fmt="o",
                            capsize=3, linewidth=2 if focus else 1, label=entry)
    focus_rows = result.tables["focus"] if "focus" in result.tables else None
    if focus_rows is not None and len(points) > 1:
        best = int(np.argmax(focus_rows["win_rate"].to_numpy()))
        others = focus_rows.drop(index=focus_rows.index[best])
        if (others["vs_best_high"] < 0).all():      # the best separates from every other point
            for ax in axes[0]:
                ax.axvline(x[best], color="black", linestyle=":",
                           label=f"best: {points[best]} (separates)" if ax is axes[0, 1] else None)
    for ax, label in zip(axes[0], ("win rate", f"mean {game.score_column.replace('_', ' ')}")):
        if numeric is None:
            ax.set_xticks(x, points, rotation=30 if max(len(str(p)) for p in points) > 4 else 0)
        ax.set_xlabel(key)
        ax.set_ylabel(label)
    percent_axis(axes[0, 0])
    axes[0, 1].set_ylabel(_score_label(axes[0, 1], game, axes[0, 1].get_ylabel(), "y"))
    legend_outside(axes[0, 1])
    fig.tight_layout()
    return fig


@analysis_plot("balance", "seats", "Seat advantage: win rate minus the average seat's (95% intervals over deals)")
def balance_seats(result):
    if "seat_advantage_a" in result.tables:     # an A/B card: both sides, as compare draws them
        return _seat_bars([("A: ", result.tables["seat_advantage_a"]), ("B: ", result.tables["seat_advantage_b"])])
    return _seat_bars([("", result.tables["seats"])])


@analysis_plot("balance", "length", "Game length distribution (the longest 1% of games in the hatched bar)")
def balance_length(result):
    if "length" not in result.tables:
        return None
    table = result.tables["length"]
    sides = [("", "share")] if "share" in table.columns else [("A: ", "share_a"), ("B: ", "share_b")]
    fig, axes = figure_grid(1, len(sides))
    for ax, (label, column) in zip(axes[0], sides):
        shares = table[column].to_numpy()
        values = table.index.to_numpy(float)
        hist_with_overflow(ax, values[shares > 0], weights=shares[shares > 0], max_bins=80)
        ax.set_xlabel(f"{label}{table.index.name}")
        ax.set_ylabel("share of games")
    fig.tight_layout()
    return fig


@analysis_plot("balance", "head_to_head", "Head to head within the line-up: share of games the row finished ahead "
                                          "(95% intervals over deals; white = an even match)")
def balance_matrix(result):
    if "head_to_head" not in result.tables or not len(result.tables["head_to_head"]):
        return None
    return _heat_map(result.tables["head_to_head"])


def _save_figure(job) -> dict | None:
    """Draw one registered plot of an analysis into its folder (PNG and SVG); None if it has nothing to draw."""
    result, folder, name, title, draw = job
    fig = draw(result)
    if fig is None:
        return None
    fig.savefig(folder / f"{name}.png", dpi=110)
    fig.savefig(folder / f"{name}.svg")
    plt.close(fig)
    return {"name": name, "title": title}


def write_results(out, experiment, results, extra: dict, attachments: dict | None = None, workers: int = 1) -> Path:
    """Write the results directory of an experiment's analyses (built under a temporary name and renamed
    into place when complete, like a run directory), then its report.html, rendered from those files by
    ``render_results`` exactly as ``simkit report`` renders it again later. attachments: name -> path of
    files copied in as they are (e.g. the searches' Optuna storage). The figures are drawn on ``workers``
    processes (drawing them took longer than the games of a small experiment)."""
    out = Path(out).resolve()
    with staged(out) as staging:
        entries, plots = [], []
        for number, result in enumerate(results, 1):
            folder = staging / f"{number:02d}-{result.kind}"
            folder.mkdir()
            result.tables = sort_tables(result.kind, result.tables)   # tables, figures and page in one order
            for name, table in result.tables.items():
                flat_table(table).to_csv(folder / f"{name}.csv", index=False)
                flat_table(table).to_parquet(folder / f"{name}.parquet", index=False)
            for name, text in result.files.items():
                (folder / name).write_text(text)
            (folder / "findings.txt").write_text("\n".join([result.headline(), *result.findings]) + "\n")
            plots += [(len(entries), (result, folder, name, title, draw))
                      for name, title, draw in ANALYSIS_PLOTS.get(result.kind, [])]
            entries.append({"kind": result.kind, "title": result.title, "setup": result.setup,
                            "players": result.players, "folder": folder.name, "tables": list(result.tables),
                            "figures": []})
        drawn = map_forked(_save_figure, [job for _, job in plots], workers)
        for (entry, _), figure in zip(plots, drawn):
            if figure is not None:
                entries[entry]["figures"].append(figure)
        manifest = {"experiment": experiment.to_dict(), **extra, "analyses": entries,
                    "versions": {"simkit": __version__, "numba": numba.__version__, "numpy": np.__version__,
                                 "pandas": pd.__version__, "python": platform.python_version()},
                    "created": datetime.now(timezone.utc).isoformat(timespec="seconds")}
        (staging / MANIFEST).write_text(json.dumps(manifest, indent=2, default=str))
        (staging / "experiment.toml").write_text(experiment.to_toml())
        for name, path in (attachments or {}).items():
            shutil.copyfile(path, staging / name)
        render_results(staging, staging / "report.html")
    return out


def experiment_headline(experiment, analyses: list[dict]) -> str:
    """What an experiment tested, in one line: its one analysis's headline, or the rules its analyses share
    (each analysis then says its own line-up and rule changes). ``analyses``: (kind, setup, players) dicts."""
    game = get_game(experiment.game)
    if len(analyses) == 1:
        return tested(game, analyses[0]["kind"], analyses[0]["setup"], analyses[0].get("players"))
    return (tested(game, "experiment", {"sets": experiment.sets, "rules": experiment.rules})
            + f"; {len(analyses)} analyses, each below with its own line-up and rule changes")


def results_headline(manifest: dict) -> str:
    """The headline of an analysis results directory, from its manifest."""
    return experiment_headline(Experiment.from_dict(manifest["experiment"], MANIFEST), manifest["analyses"])


TOTAL_GAMES = re.compile(r"^[^.;]*? = (\d[\d,]*) games")
GAMES = re.compile(r"\b\d[\d,]* games( per side)?( \([^)]*\))?")


def setup_facts(game, setup: dict, players, findings: list[str]) -> list[tuple[str, str]]:
    """The answer card's list of what an analysis tested: game, level, players, line-up, rule changes, games, seed."""
    rules = effective_rules(game, setup.get("sets"), setup.get("rules"))
    facts = [("game", game.title)]
    if rules is not None and game.level_of(rules) is not None:
        facts.append(("level", str(game.level_of(rules))))
    if players:
        facts.append(("players", str(players)))
    lineup = setup.get("players_a") or setup.get("players")
    if setup.get("swept") == "param" and lineup:        # the first point's line-up: say what was swept
        lineup = [f"{setup['strategy']} ({setup['key']} swept)", *lineup[1:]]
    other = setup.get("players_b") if setup.get("players_b") not in (None, lineup) else None
    for name, value in (("line-up A" if other else "line-up", lineup), ("line-up B", other),
                        ("strategies", setup.get("strategies")), ("field", setup.get("field"))):
        if isinstance(value, list) and value:
            facts.append((name, lineup_text(value)))
    if rules is not None:
        facts.append(("rules", rule_changes_text(game.rule_changes(rules))))
    if setup.get("sets_b"):
        facts.append(("rule changes of B", ", ".join(setup["sets_b"])))
    if setup.get("key"):
        facts.append(("swept", f"{setup['key']} over {', '.join(map(str, setup.get('values') or []))}"))
    if setup.get("vary"):
        facts.append(("searched", ", ".join(setup["vary"])))
    # a total stated as one ("4 line-ups x 30 games ... = 120 games") first; else the line that says how many
    # games were played starts with the count (first lines before it may count the games a rule change came
    # into play in)
    games = next((f"{found.group(1)} games ({line.split(' = ')[0]})" for line in findings
                  for found in [TOTAL_GAMES.search(line)] if found), None) or \
        next((found.group(0) for line in findings for found in [GAMES.match(line)] if found), None) or \
        next((found.group(0) for line in findings for found in [GAMES.search(line)] if found), None)
    if setup.get("validation_games") and setup.get("goal_columns"):   # a rule search: trials, then re-evaluation
        games = (f"{setup['trial_games']:,} per trial, {setup.get('games_searching', 0):,} searching; "
                 f"{setup['validation_games']:,} per rule set re-evaluated on fresh deals")
    if games:
        facts.append(("games", games))
    if setup.get("seed") is not None:
        facts.append(("seed", str(setup["seed"])))
    return facts


def _png(path: Path) -> str:
    return base64.b64encode(path.read_bytes()).decode("ascii")


def render_results(directory, output) -> Path:
    """Render report.html of an analysis results directory from its files (manifest, findings, tables,
    plots): what ``write_results`` does last and ``simkit report DIR`` does again."""
    directory = Path(directory)
    manifest = read_manifest(directory)
    experiment = Experiment.from_dict(manifest["experiment"], str(directory / MANIFEST))
    game = get_game(experiment.game)
    sections = []
    for number, entry in enumerate(manifest["analyses"], 1):
        where = str(directory / MANIFEST)
        folder = inside(directory, entry.get("folder", f"{number:02d}-{entry['kind']}"), where)
        names = entry.get("tables") or sorted(p.stem for p in folder.glob("*.parquet"))
        tables = {name: pd.read_parquet(inside(folder, f"{name}.parquet", where)) for name in names}
        shown = {}
        for name, table in tables.items():
            if f"{name}_intervals" in tables or table.empty:    # shown with their intervals; nothing to show
                continue
            shown[name] = Markup(table_html(table, money_columns(table.columns, game), game.currency))
        drawn = entry.get("figures") or [{"name": p.stem, "title": p.stem.replace("_", " ")}
                                         for p in sorted(folder.glob("*.png"))]
        headline = tested(game, entry["kind"], entry["setup"], entry.get("players"))
        findings = (folder / "findings.txt").read_text().splitlines()
        if findings and findings[0] == headline:     # findings.txt starts with what was tested, as the page does
            findings = findings[1:]
        panels = analysis_panels(entry["kind"], tables, entry["setup"], game)
        sections.append({"title": entry["title"], "kind": entry["kind"], "folder": folder.name,
                         "findings": findings, "verdicts": verdict_lines(findings),
                         "forest": png(forest_figure(panels)) if panels else None,
                         "facts": setup_facts(game, entry["setup"], entry.get("players"), findings),
                         "csv": {name: f"{folder.name}/{name}.csv" for name in tables},
                         "figures": [{"title": f["title"], "png": _png(inside(folder, f"{f['name']}.png", where))}
                                     for f in drawn if inside(folder, f"{f['name']}.png", where).is_file()],
                         "hovers": [{"title": view["title"], "svg": Markup(view["svg"])}
                                    for view in hover_views(entry["kind"], tables, entry["setup"])],
                         "how": HOW_TO_READ.get(entry["kind"], ""), "tables": shown,
                         "tested": headline, "setup": Markup(setup_table_html(game, entry["setup"]))})
    title = experiment.title or (sections[0]["title"] if len(sections) == 1 else f"{game.title}: "
                                 + ", ".join(section["kind"] for section in sections))
    if game.title not in title:
        title = f"{game.title}: {title}"
    output = Path(output)
    headline = results_headline(manifest)
    for section in sections:
        section["card"] = Markup(card_html(section["tested"], section.pop("facts"), section["verdicts"],
                                           section.pop("forest")))
    if len(sections) == 1:
        card, sections[0]["card"] = sections[0]["card"], None
    else:
        card = Markup(card_html(headline, [("analyses", len(sections))],
                                [f"{k}. {section['title']}: {line}" for k, section in enumerate(sections, 1)
                                 for line in section["verdicts"][:1]], None))
    files = [("experiment.toml", "experiment.toml"), ("manifest.json", MANIFEST)]
    html = jinja2.Template(TEMPLATE.read_text(), autoescape=True).render(
        experiment=experiment, sections=sections, manifest=manifest, note=game.report_note, title=title,
        tested=headline, card=card, css=Markup(CARD_CSS),
        nav=Markup(nav_html(directory, output, files, "analysis.md")))
    write_atomic(output, html)
    return output

