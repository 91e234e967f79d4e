import click

from .analysis import run_one, split
from .options import analysis_out_options, game_argument, games_option, players_option, rules_options, seed_option, workers_option


@click.command("balance")
@game_argument
@players_option
@rules_options
@games_option(20_000)
@seed_option
@workers_option
@analysis_out_options
def command(game, players, rules_file, sets, games, seed, workers, out, overwrite):
    """Balance report card of a rule set: seat advantage, game length and limits, half-time leader, spread, dominance."""
    run_one(game, "balance", {"players": split(players)}, seed, games, sets, rules_file, workers, out, overwrite)
