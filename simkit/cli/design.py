import click

from .analysis import run_one, split
from .early import analysis_check
from .options import (
    GAMES,
    BudgetOption,
    analysis_out_options,
    execution_options,
    game_argument,
    good_play_lineup,
    good_play_option,
    negligible_option,
    players_option,
    rules_options,
    seed_option,
)


def options(params: dict) -> dict:
    """design's keyword arguments from the command line (simkit.cli.early checks them before the library loads)."""
    p = params
    players = good_play_lineup(p["game"], p["players"], p["good_play"], ("--population", p["population"]),
                               seats=p["player_count"])
    retune = p["retune"]
    return {"vary": list(p["vary"]), "goal": list(p["goal"]), "constraint": list(p["constraint"]) or None,
            "players": split(players), "population": p["population"],
            "player_count": None if p["good_play"] else p["player_count"], "budget": p["budget"],
            "trial_games": p["trial_games"], "candidates": p["candidates"], "sampler": p["sampler"],
            "round_size": p["round_size"], "retune": retune, "retune_params": p["retune_params"],
            "retune_budget": p["retune_budget"] if retune else None, "negligible": list(p["negligible"]) or None}


@click.command("design")
@game_argument
@click.option("--vary", "vary", multiple=True, required=True, metavar="KEY=LO:HI[:int|:log]",
              help="A rule value to search (repeatable): a dotted key as --set names it, over a range (an integer rule "
                   "gives whole values) or choices KEY=V1|V2|... (values as TOML, e.g. arrays). `simkit rules GAME "
                   "--options` lists the keys.")
@click.option("--goal", "-g", "goal", multiple=True, required=True, metavar="GOAL",
              help="seat-balance, length=TARGET, spread, spread=max, decisive, min:EXPR or max:EXPR (repeatable: two "
                   "or more give a Pareto front). EXPR is Python over the balance card's fields: seat_advantage, "
                   "first_seat, length, length_p90, limit, decisive, spread, shared_win, every result column's "
                   "mean by its name (e.g. bankrupt), win[...], advantage[...], score[...] by strategy, seat[i].")
@click.option("--constraint", "-c", "constraint", multiple=True, metavar="EXPR<=N",
              help="A bound the rules must keep (repeatable), e.g. length<=80 or bankrupt>=0.1.")
@players_option
@good_play_option
@click.option("--population", default=None, metavar="SPEC@SHARE,...|DIR",
              help="Instead of a line-up: a mix of strategies (shares, or a `simkit metagame --out` directory for its "
                   "equilibrium); each deal's line-up is one of its profiles, in proportion.")
@click.option("--player-count", type=click.IntRange(1), default=None,
              help="Seats with --population or --good-play (default: the game's default line-up size).")
@click.option("--budget", "-b", cls=BudgetOption, default="100", show_default=True, metavar="N [trials|games|minutes]",
              help="Search budget: trials (100), games (200000 games) or minutes (10 minutes).")
@click.option("--trial-games", type=GAMES, default=1000, show_default=True,
              help="Games per trial (every deal in every seat order; every trial on the same deals).")
@click.option("--games", "-n", type=GAMES, default=10_000, show_default=True,
              help="Games per rule set when the candidates and the default rules are re-evaluated on fresh seeds.")
@click.option("--candidates", type=click.IntRange(1), default=3, show_default=True,
              help="Best trials (one goal) or points of the Pareto front (several) to re-evaluate.")
@click.option("--sampler", type=click.Choice(["auto", "cmaes", "tpe", "nsga2", "grid", "random"]), default="auto",
              show_default=True,
              help="auto: every point when choices and whole numbers make no more points than --budget trials; "
                   "else NSGA-II for two or more goals, CMA-ES for two or more continuous ranges without "
                   "constraints, TPE otherwise.")
@click.option("--parallel", "--round-size", "round_size", type=click.IntRange(1), default=None, metavar="K",
              help="Trials asked at once (a round) and played together, their games spread over the workers "
                   "(default: 8; 12 for NSGA-II; CMA-ES: its population; or the number of workers if more). A "
                   "search is reproducible for a seed and K on any backend and number of workers.")
@click.option("--retune", default=None, metavar="FAMILY",
              help="Re-tune this strategy family of the line-up (simkit tune) under the best candidate's rules and the "
                   "default's, and judge the goals again with the re-tuned players.")
@click.option("--retune-params", default=None, metavar="K=LO:HI,...",
              help="Parameters to re-tune (default: every declared range).")
@click.option("--retune-budget", cls=BudgetOption, default="40", show_default=True, help="Budget of each re-tuning.")
@seed_option
@rules_options
@negligible_option
@execution_options
@analysis_out_options
def command(**params):
    """Search rule values for a design goal over the balance card: trials on common deals, the best candidates
    re-evaluated on fresh seeds against the default rules, their rules as TOML files for --rules.

    With --out the search is resumable: the same command continues a killed run from its Optuna storage.
    --good-play: every seat `expert`."""
    run_one("design", options(params), params)


command.check_first = analysis_check("design", options)
