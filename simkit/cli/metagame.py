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
    """metagame's keyword arguments from the command line (simkit.cli.early checks them before the library loads)."""
    p = params
    growth = {"grow": p["grow"], "screen_games": p["screen_games"], "confirm_games": p["confirm_games"],
              "tune_budget": p["tune_budget"]} if p["grow"] else {}
    return {"strategies": split(p["strategies"]), "players": p["players"], "bootstrap": p["bootstrap"], **growth}


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
@click.option("--grow", type=click.IntRange(0, 50), default=0, show_default=True, metavar="K",
              help="Grow the meta-game K times (policy-space response oracles): solve, find the best reply to the mix "
                   "among the shipped strategies and best responses tuned against it, add it, solve again; each "
                   "mix's exploitability bound is printed. --games is then per solve.")
@click.option("--screen-games", type=GAMES, default=2_000, show_default=True,
              help="With --grow: games per oracle against each mix (every deal in every seat order).")
@click.option("--confirm-games", type=GAMES, default=8_000, show_default=True,
              help="With --grow: fresh games on which the best oracle is played again: the reported bound.")
@click.option("--tune-budget", default="24", show_default=True, metavar="BUDGET",
              help="With --grow: each tunable family's search for a best response to the mix (trials, 'N games'; "
                   "'none': no tuning).")
@seed_option
@rules_options
@execution_options
@analysis_out_options
def command(**params):
    """Every multiset of the strategies at the table, in every seat order on common deals: the equilibrium mix
    (replicator dynamics) with bootstrap intervals, and how often each strategy wins there."""
    run_one("metagame", options(params), params)


command.check_first = analysis_check("metagame", options)
