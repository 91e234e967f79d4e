import click

from .analysis import run_one, split
from .early import analysis_check
from .options import (
    analysis_out_options,
    execution_options,
    game_argument,
    games_option,
    good_play_lineup,
    good_play_option,
    negligible_option,
    players_option,
    retune_options,
    rules_options,
    seed_option,
)


def options(params: dict) -> dict:
    """balance's keyword arguments from the command line (simkit.cli.early checks them before the library loads)."""
    p = params
    retune = p["retune"]
    return {"players": split(good_play_lineup(p["game"], p["players"], p["good_play"])),
            "players_b": split(p["players_b"]), "sets_b": list(p["sets_b"]) or None, "retune": retune,
            "retune_params": p["retune_params"] if retune else None,
            "retune_budget": p["retune_budget"] if retune else None, "negligible": list(p["negligible"]) or None}


@click.command("balance")
@game_argument
@players_option
@good_play_option
@click.option("--players-b", default=None, metavar="SPEC,...",
              help="Line-up B (same number of seats): an A/B card of the change from --players to it.")
@rules_options
@click.option("--set-b", "sets_b", multiple=True, metavar="KEY=VALUE",
              help="Rule change for B only, applied after --set (repeatable): an A/B card of the change, both "
                   "sides on the same deals.")
@games_option(20_000)
@seed_option
@retune_options
@negligible_option
@execution_options
@analysis_out_options
def command(**params):
    """Balance report card of a rule set: seat advantage, game length and limits, half-time leader, spread, dominance.

    With --set-b or --players-b, an A/B card: the paired change in each seat's advantage, the strategy spread,
    each strategy's win rate and the game length, with 95% intervals; with --retune also for re-tuned players.
    --good-play: every seat `expert`."""
    run_one("balance", options(params), params)


command.check_first = analysis_check("balance", options)
