"""What the analysis subcommands share: turning their options into a one-analysis experiment, so that
printing, writing a results directory and rerunning it (its experiment.toml) work the same way."""
from __future__ import annotations

import os
import sys

import click

from ..analysis import Experiment, run_experiment
from ..rules import read_toml
from ..runner import RunInterrupted


def run_one(game: str, kind: str, options: dict, seed: int, games: int, sets, rules_file, workers, out, overwrite,
            verbose: bool = False) -> None:
    """Run one analysis from command-line options, print it (what was tested, the findings, then the compact
    tables; every table with ``verbose``), and write ``out`` when given."""
    experiment = Experiment(game=game, seed=seed, games=games, sets=list(sets),
                            rules=read_toml(rules_file) if rules_file else {},
                            analyses=[{"kind": kind, **{k: v for k, v in options.items() if v is not None}}])
    try:
        results = run_experiment(experiment, out, workers=workers or os.cpu_count() or 1, overwrite=overwrite)
    except RunInterrupted as exc:   # a search keeps its state: one line saying how to continue it
        click.echo(f"simkit: {exc}", err=True)
        sys.exit(130)
    for result in results:
        click.echo(result.text(verbose))
    if out:
        click.echo(f"results and report written to {out} (report: {out}/report.html; rerun: simkit experiment run "
                   f"{out}/experiment.toml)")


def split(text):
    return None if text is None else [item for item in text.split(",")]
