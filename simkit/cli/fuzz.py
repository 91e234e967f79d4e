import json
import os

import click

from .options import GAMES, game_argument, json_option, quiet_option, workers_option


@click.command("fuzz")
@game_argument
@click.option("--games", "-n", type=GAMES, default=100_000, show_default=True,
              help="Fuzzed games to play in checking mode.")
@click.option("--games-per-case", type=GAMES, default=200, show_default=True,
              help="Games played under each random rule overlay and line-up.")
@click.option("--seed", type=click.IntRange(0, 2 ** 32), default=0, show_default=True,
              help="Campaign seed; case i is drawn and played from (seed, i).")
@workers_option
@quiet_option
@json_option
def command(game, games, games_per_case, seed, workers, as_json):
    """Play random valid rule overlays, player counts and line-ups in checking mode (the engine asserts its
    conservation laws); exit 1 if any case breaks one, printing the Python that replays it."""
    from ..fuzz import campaign

    result = campaign(game, games, games_per_case, workers or os.cpu_count() or 1, seed)
    if as_json:
        click.echo(json.dumps(result, indent=2))
    else:
        click.echo(f"{game}: {result['games']:,} fuzzed games in checking mode ({result['cases']:,} cases of "
                   f"{games_per_case}, seed {seed}), {result['violations']} violations, {result['seconds']} s")
    if result["violations"]:
        raise SystemExit(1)
