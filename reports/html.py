"""One self-contained HTML file per run directory: summary tables and every plot embedded as PNG."""
from __future__ import annotations

import base64
import io
import json
from dataclasses import dataclass, field
from pathlib import Path

import jinja2
import matplotlib.pyplot as plt
import pandas as pd

from simkit.errors import SimkitError
from simkit.games import get_game
from simkit.results import load, read_manifest, summarize

from . import plots_for

TEMPLATE = Path(__file__).with_name("report.html.j2")


@dataclass
class ReportData:
    manifest: dict
    frame: pd.DataFrame
    summary: dict
    score: str
    labels: dict = field(default_factory=dict)
    runs: list = field(default_factory=list)   # (manifest, frame) of this run and any --also runs of its game


def _png(fig) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110)
    plt.close(fig)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def build_report(directory: str | Path, output: str | Path, also=()) -> Path:
    """Write the HTML report of a run directory to ``output`` and return its path. ``also``: other run
    directories of the same game (e.g. other player counts) that plots comparing runs draw beside it."""
    manifest = read_manifest(directory)
    game = get_game(manifest["game"])
    frame = load(directory)
    runs = [(manifest, frame)]
    for other in also:
        other_manifest = read_manifest(other)
        if other_manifest["game"] != game.name:
            raise SimkitError(f"--also {other} is a run of {other_manifest['game']}, not {game.name}")
        runs.append((other_manifest, load(other)))
    data = ReportData(manifest, frame, summarize(directory), manifest["score_column"],
                      {entry["seat"]: entry["label"] for entry in manifest["lineup"]}, runs)
    figures = [{"title": p.title, "png": _png(p.draw(data))} for p in plots_for(game)]
    tables = {key: table.reset_index().to_html(index=False, float_format=lambda v: f"{v:.4f}", classes="summary")
              for key, table in data.summary.items()}
    html = jinja2.Template(TEMPLATE.read_text()).render(
        manifest=manifest, note=game.report_note, figures=figures, tables=tables, rules=json.dumps(manifest["rules"], indent=2))
    output = Path(output)
    tmp = output.with_name(f".{output.name}.tmp")
    tmp.write_text(html)
    tmp.replace(output)
    return output
