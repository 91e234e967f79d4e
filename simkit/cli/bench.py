import json

import click

from ..games import game_names
from .options import GAMES, rules_options, workers_option


@click.command("bench")
@click.argument("game", type=click.Choice(game_names()), metavar="[GAME]", required=False)
@click.option("--all", "every", is_flag=True, help="Every registered game, as one table (with peak memory).")
@click.option("--games", "-n", type=GAMES, default=None,
              help="Games per measurement (default 20,000), per batch with --overhead (default 1,000), or with "
                   "--profile (default 2,000).")
@click.option("--repeat", type=click.IntRange(1), default=3, show_default=True, help="Runs per figure (median).")
@click.option("--memory", is_flag=True, help="Also compare peak memory of runs of N and 10N games (slow).")
@click.option("--overhead", "overhead_", is_flag=True,
              help="Instead: the share of wall time spent outside simulation when --batches small batches are "
                   "played one after another in one process (a sweep's points, a tuner's rounds).")
@click.option("--batches", type=click.IntRange(1), default=50, show_default=True, help="Batches, with --overhead.")
@workers_option
@click.option("--dask", is_flag=True, help="Also time whole runs, and a tune of 40 trials, on the local pool and on a Dask "
                   "LocalCluster of the same workers (with the CPU each worker process used).")
@click.option("--profile", is_flag=True, help="Where the time goes instead: the engine, each decision point of each "
              "strategy, and the work around the kernel (one core; decisions replaced by replays of their answers).")
@click.option("--players", "-p", default=None, help="With --profile: the line-up (comma-separated; default: the "
              "game's default line-up).")
@rules_options
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def command(game, every, games, repeat, memory, overhead_, batches, workers, dask, profile, players, rules_file, sets,
            as_json):
    """Benchmark a game's default line-up (or with --all every game's): games/s and player turns/s on all cores
    and one, JIT speed-up, warm start, peak memory. With --profile: where one core's time goes."""
    from ..bench import format_benchmark, format_overhead, format_table, overhead, run_benchmark
    from ..profile import format_profile, profile_batch
    from ..runner import make_batch

    if every == bool(game):
        raise click.UsageError("give a GAME or --all")
    if overhead_:
        if every or memory or dask or profile or rules_file or sets:
            raise click.UsageError("--overhead takes a GAME and --games, --batches, --repeat, --workers only")
        result = overhead(game, games or 1000, batches, workers, repeat)
        click.echo(json.dumps(result, indent=2) if as_json else format_overhead(result))
        return
    if players and not profile:
        raise click.UsageError("--players is for --profile")
    if profile:
        if every or memory or dask:
            raise click.UsageError("--profile is for one GAME, without --all, --memory or --dask")
        batch = make_batch(game, 1, players, 1, rules_file, sets)
        result = profile_batch(batch, games or 2_000, repeat)
        click.echo(json.dumps(result, indent=2) if as_json else format_profile(result))
        return
    games = games or 20_000
    if every:
        if rules_file or sets:
            raise click.UsageError("--rules and --set are for one GAME, not --all")
        results = [run_benchmark(name, games, repeat, memory=True, memory_scale=10 if memory else None)
                   for name in game_names()]
        click.echo(json.dumps(results, indent=2) if as_json else format_table(results))
        return
    result = run_benchmark(game, games, repeat, memory=memory, rules_file=rules_file, sets=sets, dask=dask)
    click.echo(json.dumps(result, indent=2) if as_json else format_benchmark(result))
