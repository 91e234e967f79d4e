import click

from .analysis import run_one, split
from .early import analysis_check
from .options import (
    GAMES,
    analysis_out_options,
    execution_options,
    game_argument,
    negligible_option,
    rules_options,
    seed_option,
)


def options(params: dict) -> dict:
    """tournament's keyword arguments from the command line (simkit.cli.early checks them before the library loads)."""
    return {"strategies": split(params["strategies"]), "players": params["players"],
            "negligible": list(params["negligible"]) or None}


@click.command("tournament")
@game_argument
@click.option("--strategies", "-s", required=True, metavar="SPEC,...",
              help="The strategies (at least --players of them), e.g. hair-trigger,threshold:points=20,blocker,...")
@click.option("--players", "-p", type=click.IntRange(1), default=None,
              help="Players per game (default: the game's default line-up size).")
@click.option("--games", "-n", type=GAMES, default=20_000, show_default=True,
              help="Games in all, split evenly over the line-ups and seat rotations.")
@seed_option
@rules_options
@negligible_option
@execution_options
@analysis_out_options
def command(**params):
    """Every combination of the strategies in every seat order on common seeds: win-rate matrix, mean rank, ratings."""
    run_one("tournament", options(params), params)


command.check_first = analysis_check("tournament", options)
