import sys

import click

from ..limits import DEFAULT_CHUNK
from .options import (
    GAMES,
    check_backend,
    check_batch_input,
    execution_options,
    game_argument,
    players_list,
    players_option,
    rules_options,
    seed_option,
)


def _check_first(game, players, rules_file, sets, backend, scheduler, **_) -> None:
    """The command's first checks, made by ``simkit.cli.main`` before the library loads (make_batch repeats them)."""
    check_backend(backend, scheduler)
    check_batch_input(game, players_list(players), rules_file, sets)


@click.command("run")
@game_argument
@click.option("--games", "-n", type=GAMES, default=10_000, show_default=True, help="Number of games.")
@players_option
@seed_option
@click.option("--out", "-o", required=True, type=click.Path(), help="Run directory to create.")
@rules_options
@execution_options
@click.option("--chunk-size", type=click.IntRange(1), default=DEFAULT_CHUNK, show_default=True,
              help="Games per chunk (per Parquet part); results do not depend on it.")
@click.option("--overwrite", is_flag=True, help="Replace an existing run directory (or an interrupted run's "
                                                "kept chunks) holding a different run.")
@click.option("--rotate-seats", is_flag=True,
              help="Rotate the line-up over the seats: game g plays deal g // n with the line-up turned g mod n "
                   "seats (n players), so every strategy plays every seat equally often on the same deals; "
                   "--games is rounded up to a multiple of n.")
@click.option("--check", is_flag=True, help="Checking mode: assert the engine's conservation laws during play.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def command(game, games, players, seed, out, rules_file, sets, workers, chunk_size, overwrite, rotate_seats, check,
            quiet):
    """Run a batch of games into a directory of Parquet parts with a manifest.

    An interrupted run resumes when the same command is given again; on a finished run it does nothing."""
    from ..distributed import active_backend
    from ..reports.format import run_headline
    from ..runner import RunInterrupted, finished, make_batch, prepare_output, run_config, run_to_directory

    batch = make_batch(game, games, players_list(players), seed, rules_file, sets, rotate_seats=rotate_seats)
    if batch.games != games:
        click.echo(f"simkit: note: --rotate-seats plays each deal in all {len(batch.seats)} seat orders: "
                   f"{batch.games:,} games ({games:,} rounded up to a multiple of {len(batch.seats)})", err=True)
    for key, _, _ in batch.game.rule_changes(batch.rules):   # e.g. another UK level's table: changes nothing
        unread = batch.game.unread_key(batch.rules, key)
        if unread:
            click.echo(f"simkit: warning: rule change {key} never comes into play: {unread}", err=True)
    config = run_config(batch, chunk_size)
    prepare_output(out, overwrite, config)
    if finished(out, config, overwrite):
        click.echo(f"{out} already holds this run, complete; nothing to do", err=True)
        return
    if not quiet:   # what is about to be played, first (a progress bar then runs below it, on stderr)
        click.echo(run_headline(batch.game, batch.manifest()))
    try:
        path = run_to_directory(batch, out, workers, chunk_size, progress=not quiet, overwrite=overwrite, check=check,
                                backend=active_backend())
    except RunInterrupted as exc:   # one line saying how to resume (click would print "Aborted!")
        click.echo(f"simkit: {exc}", err=True)
        sys.exit(130)
    if not quiet:
        click.echo(f"{batch.games} games of {batch.game.name} written to {path} "
                   f"(next: simkit summary {path}; simkit report {path} -o {path}/report.html)")


command.check_first = _check_first
