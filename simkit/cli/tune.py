import click

from .analysis import run_one, split
from .early import analysis_check
from .options import (
    GAMES,
    BudgetOption,
    analysis_out_options,
    execution_options,
    game_argument,
    rules_options,
    seed_option,
)


def options(params: dict) -> dict:
    """tune's keyword arguments from the command line (simkit.cli.early checks them before the library loads)."""
    p = params
    return {"strategy": p["strategy"], "params": p["params"], "field": split(p["field"]),
            "self_play": p["self_play"] or None, "players": p["players"], "budget": p["budget"],
            "trial_games": p["trial_games"], "max_trial_games": p["max_trial_games"], "objective": p["objective"],
            "sampler": p["sampler"], "round_size": p["round_size"], "stages": p["stages"] if p["self_play"] else None}


@click.command("tune")
@game_argument
@click.option("--strategy", "-s", required=True, metavar="SPEC",
              help="The strategy to tune and its starting values: a preset or family (threshold, collector:stop=1) "
                   "or module:attr of your own.")
@click.option("--params", default=None, metavar="K=LO:HI[:log|int],...",
              help="Parameters to tune and their ranges (K=V1|V2|... for a choice). Default: every parameter the "
                   "strategy declares a range for.")
@click.option("--field", default=None, metavar="SPEC,...",
              help="The other seats: tune a best response to this fixed line-up (rotated through every seat).")
@click.option("--self-play", is_flag=True, help="Tune against copies of itself instead (stages of iterated best response).")
@click.option("--players", "-p", type=click.IntRange(1), default=None,
              help="Players with --self-play (default: the game's default line-up size).")
@click.option("--budget", "-b", cls=BudgetOption, default="200", show_default=True, metavar="N [trials|games|minutes]",
              help="Search budget: trials (200), games (500000 games) or minutes (10 minutes).")
@click.option("--trial-games", type=GAMES, default=400, show_default=True,
              help="Games per trial at the start (every deal in every seat order); doubles as the search narrows.")
@click.option("--max-trial-games", type=GAMES, default=6400, show_default=True,
              help="The most games per trial.")
@click.option("--games", "-n", type=GAMES, default=10_000, show_default=True,
              help="Games per side of the final validation (best against the start, fresh seeds).")
@click.option("--objective", type=click.Choice(["win", "score"]), default="win", show_default=True,
              help="Maximise the tuned seat's win rate or its mean score.")
@click.option("--sampler", type=click.Choice(["auto", "cmaes", "tpe", "random"]), default="auto", show_default=True,
              help="auto: CMA-ES when every tuned parameter is continuous (two or more), TPE otherwise.")
@click.option("--parallel", "--round-size", "round_size", type=click.IntRange(1), default=None, metavar="K",
              help="Trials asked at once (a round) and played together on the same deals, their games spread over "
                   "the workers (default: CMA-ES's population, 8 for TPE, or the number of workers if more). A "
                   "search is reproducible for a seed and K on any backend and number of workers.")
@click.option("--stages", type=click.IntRange(1), default=3, show_default=True, help="Self-play stages.")
@seed_option
@rules_options
@execution_options
@analysis_out_options
def command(**params):
    """Tune a strategy's parameters (Optuna) on common random numbers: trace, effects, best vs start with a CI.

    With --out the run is resumable: the same command continues a killed run from its Optuna storage."""
    run_one("tune", options(params), params)


command.check_first = analysis_check("tune", options)
