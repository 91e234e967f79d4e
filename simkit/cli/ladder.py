import click

from .analysis import run_one, split
from .early import analysis_check
from .options import (
    GAMES,
    analysis_out_options,
    execution_options,
    game_argument,
    rules_options,
    seed_option,
)


def options(params: dict) -> dict:
    """ladder's keyword arguments from the command line (simkit.cli.early checks them before the library loads)."""
    p = params
    return {"players": p["players"], "strategies": split(p["strategies"]), "screen_games": p["screen_games"],
            "confirm_games": p["confirm_games"], "tune_budget": p["tune_budget"], "bootstrap": p["bootstrap"]}


@click.command("ladder")
@game_argument
@click.option("--players", "-p", type=click.IntRange(1), default=None,
              help="Players per game (default: the game's default line-up size).")
@click.option("--strategies", "-s", default=None, metavar="SPEC,...",
              help="The strategies to rank (default: every shipped strategy of the game); every shipped strategy "
                   "is a deviator either way.")
@click.option("--games", "-n", type=GAMES, default=20_000, show_default=True,
              help="Games of the rating tournament, split over every combination of --players strategies and seat order.")
@click.option("--screen-games", type=GAMES, default=2_000, show_default=True,
              help="Games per deviator and strategy in the screening (every deal in every seat order).")
@click.option("--confirm-games", type=GAMES, default=8_000, show_default=True,
              help="Fresh games on which the best deviator of each strategy is played again: the reported bound.")
@click.option("--tune-budget", default=None, metavar="BUDGET",
              help="Also tune a best response against each strategy in every tunable family, with this budget "
                   "each (24, '50000 games'; slow). Default: shipped deviators only.")
@click.option("--bootstrap", type=click.IntRange(0), default=200, show_default=True,
              help="Bootstrap resamples of the deals for the rating intervals.")
@seed_option
@rules_options
@execution_options
@analysis_out_options
def command(**params):
    """Every shipped strategy ranked by rating (a seat-rotated tournament), each with its exploitability bound: the
    best a deviator gains in one seat among copies of it, confirmed on fresh games."""
    run_one("ladder", options(params), params)


command.check_first = analysis_check("ladder", options)
