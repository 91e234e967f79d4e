import os

import click

from ..experiment_file import default_out
from .early import experiment_check
from .options import GAMES, allow_code_option, execution_options, quiet_option


@click.group("experiment")
def command():
    """Declarative experiments: a TOML file of analyses, run reproducibly into a results directory."""


@command.command("run")
@click.argument("file", type=click.Path())
@click.option("--out", "-o", type=click.Path(), default=None, help="Results directory (default: runs/FILE-STEM).")
@click.option("--games", "-n", type=GAMES, default=None,
              help="Play this many games in every analysis instead of the file's (quick checks).")
@execution_options
@quiet_option
@click.option("--overwrite", is_flag=True, help="Replace an existing results directory.")
@allow_code_option
@click.option("--verbose", "-v", is_flag=True, help="Also print every analysis's tables (they are always in the "
                                                    "results directory).")
def run(file, out, games, workers, overwrite, allow_code, verbose):
    """Run every analysis of FILE and write tables, plots (PNG, SVG) and report.html."""
    from ..analysis import load_experiment
    from ..analysis.runs import run_experiment
    from ..reports.analysis import experiment_headline

    experiment = load_experiment(file)
    out = out or default_out(file)
    results = run_experiment(experiment, out, games, workers or os.cpu_count() or 1, overwrite, allow_code)
    click.echo(experiment_headline(experiment, [{"kind": r.kind, "setup": r.setup, "players": r.players}
                                                for r in results]))
    for result in results:
        click.echo("\n" + result.text(verbose, tables=verbose))
    click.echo(f"\nresults and report written to {out} (open {out}/report.html)")


run.check_first = experiment_check
