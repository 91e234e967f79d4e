import json

import click

from ..bench import format_benchmark, run_benchmark
from .options import game_argument, rules_options


@click.command("bench")
@game_argument
@click.option("--games", "-n", type=click.IntRange(1), default=20_000, show_default=True,
              help="Games per throughput measurement.")
@click.option("--repeat", type=click.IntRange(1), default=3, show_default=True, help="Runs per figure (median).")
@click.option("--memory", is_flag=True, help="Also compare peak memory of runs of N and 10N games (slow).")
@rules_options
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def command(game, games, repeat, memory, rules_file, sets, as_json):
    """Benchmark a game's default line-up: games/s on all cores and one, JIT speed-up, warm start, peak memory."""
    result = run_benchmark(game, games, repeat, memory=memory, rules_file=rules_file, sets=sets)
    click.echo(json.dumps(result, indent=2) if as_json else format_benchmark(result))
