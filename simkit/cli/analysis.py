"""What the analysis subcommands share: turning their options into a one-analysis experiment, so that
printing, writing a results directory and rerunning it (its experiment.toml) work the same way."""
from __future__ import annotations

import os
import sys

import click

from ..rules import read_toml


def run_one(kind: str, options: dict, params: dict) -> None:
    """Run one analysis from its command's parsed line (``params``; ``options``: the analysis's own keyword
    arguments, from the command's ``options(params)``), print it (what was tested, the findings, then the
    compact tables; every table with --verbose), and write --out when given."""
    game, seed, games, sets, rules_file = (params[key] for key in ("game", "seed", "games", "sets", "rules_file"))
    workers, out, overwrite, verbose = params["workers"], params["out"], params["overwrite"], params["verbose"]
    from ..analysis import Experiment
    from ..analysis.runs import run_experiment
    from ..runner import RunInterrupted

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
        code = " --allow-code" if _names_code(options) else ""     # its experiment.toml names module:attr
        click.echo(f"results and report written to {out} (report: {out}/report.html; rerun: simkit experiment run "
                   f"{out}/experiment.toml{code})")


def _names_code(value) -> bool:
    """Whether option values name a strategy of one's own (``module:attr``, not ``name:key=value``)."""
    if isinstance(value, dict):     # only the options that name strategies (a goal "min:EXPR" is no module)
        return any(_names_code(v) for k, v in value.items()
                   if any(word in k for word in ("player", "strateg", "field", "population", "opponent")))
    if isinstance(value, (list, tuple)):
        return any(_names_code(v) for v in value)
    if isinstance(value, str):
        return any(len(parts) > 1 and "=" not in parts[1] for parts in (seat.split(":") for seat in value.split(",")))
    return False


def split(text):
    return None if text is None else [item for item in text.split(",")]

