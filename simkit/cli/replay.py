import click

from ..runner import make_batch
from .options import game_argument, players_list, players_option, rules_options, seed_option


@click.command("replay")
@game_argument
@seed_option
@click.option("--game", "game_index", type=click.IntRange(0), required=True, help="Global index of the game.")
@players_option
@rules_options
def command(game, seed, game_index, players, rules_file, sets):
    """Re-play one game of a batch from (seed, game index, line-up) and print every move."""
    batch = make_batch(game, game_index + 1, players_list(players), seed, rules_file, sets)
    click.echo(batch.game.replay(batch.prepared, list(batch.seats), batch.seed, game_index))
