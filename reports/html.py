"""One self-contained HTML file per run directory: what was tested, summary tables and every plot
embedded as PNG. ``simkit report`` on an analysis results directory renders its report instead."""
from __future__ import annotations

import base64
import io
from dataclasses import dataclass, field
from pathlib import Path

import jinja2
import matplotlib.pyplot as plt
import pandas as pd
from markupsafe import Markup

from simkit.errors import SimkitError
from simkit.games import Game, get_game
from simkit.results import load, read_manifest, summarize
from simkit.storage import write_atomic

from . import plots_for
from .analysis import render_results, results_headline
from .card import CARD_CSS, card_html, forest_figure, nav_html, png, run_panels, verdict_lines
from .format import (
    CI_NOTE,
    changes_table_html,
    confounding_note,
    leader_gaps,
    lineup_text,
    money_columns,
    rule_changes_text,
    run_findings,
    run_headline,
    seat_labels,
    summary_frames,
    table_html,
)

TEMPLATE = Path(__file__).with_name("report.html.j2")


@dataclass
class ReportData:
    manifest: dict
    frame: pd.DataFrame
    summary: dict
    score: str
    labels: dict = field(default_factory=dict)
    runs: list = field(default_factory=list)   # (manifest, frame) of this run and any --also runs of its game
    game: Game | None = None


def _png(fig) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110)
    plt.close(fig)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def is_analysis(manifest: dict) -> bool:
    """An analysis results directory (compare, tournament, sweep, balance, experiment) rather than a run."""
    return "experiment" in manifest and "game" not in manifest


def report_headline(directory) -> str:
    """The headline of the report of a run or analysis results directory: what was tested."""
    manifest = read_manifest(directory)
    if is_analysis(manifest):
        return results_headline(manifest)
    return run_headline(get_game(manifest["game"]), manifest)


def build_report(directory: str | Path, output: str | Path, also=()) -> Path:
    """Write the HTML report of a run directory to ``output`` and return its path. ``also``: other run
    directories of the same game (other player counts, line-ups or rules) that the plots comparing runs
    draw beside it. An analysis results directory gets its analysis report (``also`` is refused there)."""
    manifest = read_manifest(directory)
    if is_analysis(manifest):
        if also:
            raise SimkitError(f"--also compares run directories; {directory} holds analysis results (their report "
                              "compares what the analysis played)")
        try:
            return render_results(directory, output)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:   # a damaged or hand-edited folder
            raise SimkitError(f"{directory} is not a readable simkit results folder ({type(exc).__name__}: "
                              f"{' '.join(str(exc).split())[:200]}); write it again with the command that made it "
                              "(its experiment.toml reruns it)") from None
    game = get_game(manifest["game"])
    frame = load(directory)
    runs = [(manifest, frame)]
    for other in also:
        other_manifest = read_manifest(other)
        if is_analysis(other_manifest):
            raise SimkitError(f"--also {other} holds analysis results; --also takes run directories of {game.name}")
        if other_manifest["game"] != game.name:
            raise SimkitError(f"--also {other} is a run of {other_manifest['game']}, not {game.name}")
        runs.append((other_manifest, load(other)))
    summary = summarize(directory)
    # one order on the page: every table and plot lists the strategies by win rate, highest first (reports.order)
    summary["strategy"] = summary["strategy"].sort_values("win_rate", ascending=False, kind="stable")
    data = ReportData(manifest, frame, summary, manifest["score_column"], seat_labels(manifest), runs, game)
    figures = []
    for figure in plots_for(game):
        drawn = figure.draw(data)
        if drawn is not None:
            figures.append({"title": figure.title, "png": _png(drawn)})
    tables = {key: Markup(table_html(flat, money_columns(flat.columns, game), game.currency))
              for key, flat in summary_frames(data.summary, manifest).items()}
    gaps = leader_gaps(directory, data.summary)
    findings = run_findings(directory, manifest, data.summary, gaps)
    output = Path(output)
    html = jinja2.Template(TEMPLATE.read_text(), autoescape=True).render(
        manifest=manifest, note=game.report_note, figures=figures, tables=tables, ci_note=CI_NOTE,
        headline=run_headline(game, manifest), confounding=confounding_note(manifest), findings=findings,
        card=Markup(run_card(game, manifest, data.summary, findings, gaps)), css=Markup(CARD_CSS),
        nav=Markup(nav_html(Path(directory), output, [("manifest.json", "manifest.json")], "guide.md")),
        rules=Markup(changes_table_html(game, manifest["rules"])), also=[m for m, _ in runs[1:]])
    write_atomic(output, html)
    return output


def run_card(game, manifest: dict, summary: dict, findings: list[str], gaps: dict) -> str:
    """A run's answer card: what was played, the highest win rate against the rest, the leader's paired gaps."""
    labels = [seat["label"] for seat in manifest["lineup"]]
    facts = [("game", game.title), ("level", game.level_of(manifest["rules"])),
             ("players", manifest["players"]), ("line-up", lineup_text(labels)),
             ("rules", rule_changes_text(game.rule_changes(manifest["rules"]))),
             ("games", f"{manifest['games']:,}"), ("seed", manifest["seed"])]
    leader = str(summary["strategy"].sort_values("win_rate", ascending=False).index[0])
    panels = run_panels(leader, gaps)
    return card_html(run_headline(game, manifest), [(k, v) for k, v in facts if v is not None],
                     verdict_lines(findings), png(forest_figure(panels)) if panels else None)
