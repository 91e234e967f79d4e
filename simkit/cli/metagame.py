import click

from .analysis import run_one, split
from .options import GAMES, analysis_out_options, game_argument, rules_options, seed_option, workers_option


@click.command("metagame")
@game_argument
@click.option("--strategies", "-s", required=True, metavar="SPEC,...",
              help="The strategies of the meta-game (at least two), e.g. hair-trigger,threshold,patient,bluffer,blocker.")
@click.option("--players", "-p", type=click.IntRange(1), default=None,
              help="Players per game (default: the game's default line-up size).")
@click.option("--games", "-n", type=GAMES, default=100_000, show_default=True,
              help="Games in all, split evenly over the profiles (multisets of strategies) and seat rotations.")
@click.option("--bootstrap", type=click.IntRange(0), default=200, show_default=True,
              help="Bootstrap resamples of the deals for the intervals (0: none).")
@seed_option
@rules_options
@workers_option
@analysis_out_options
def command(game, strategies, players, games, bootstrap, seed, rules_file, sets, workers, out, overwrite, verbose):
    """Every multiset of the strategies at the table, in every seat order on common deals: the equilibrium mix
    (replicator dynamics) with bootstrap intervals, and how often each strategy wins there."""
    run_one(game, "metagame", {"strategies": split(strategies), "players": players, "bootstrap": bootstrap}, seed,
            games, sets, rules_file, workers, out, overwrite, verbose)
