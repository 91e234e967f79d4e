import os

import click

from ..runner import DEFAULT_CHUNK, make_batch, prepare_output, run_to_directory
from .options import game_argument, players_list, players_option, rules_options, seed_option, workers_option


@click.command("run")
@game_argument
@click.option("--games", "-n", type=click.IntRange(1), default=10_000, show_default=True, help="Number of games.")
@players_option
@seed_option
@click.option("--out", "-o", required=True, type=click.Path(), help="Run directory to create.")
@rules_options
@workers_option
@click.option("--chunk-size", type=click.IntRange(1), default=DEFAULT_CHUNK, show_default=True,
              help="Games per chunk (per Parquet part); results do not depend on it.")
@click.option("--overwrite", is_flag=True, help="Replace an existing run directory.")
@click.option("--check", is_flag=True, help="Checking mode: assert the engine's conservation laws during play.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def command(game, games, players, seed, out, rules_file, sets, workers, chunk_size, overwrite, check, quiet):
    """Run a batch of games into a directory of Parquet parts with a manifest."""
    batch = make_batch(game, games, players_list(players), seed, rules_file, sets)
    prepare_output(out, overwrite)
    workers = workers or os.cpu_count() or 1
    path = run_to_directory(batch, out, workers, chunk_size, progress=not quiet, overwrite=overwrite, check=check)
    if not quiet:
        click.echo(f"{games} games of {batch.game.name} written to {path} "
                   f"(next: simkit summary {path}; simkit report {path} -o {path}/report.html)")
