import click

from .analysis import run_one, split
from .early import analysis_check
from .options import (
    analysis_out_options,
    execution_options,
    game_argument,
    games_option,
    negligible_option,
    players_option,
    rotate_option,
    rules_options,
    seed_option,
)


def options(params: dict) -> dict:
    """sweep's keyword arguments from the command line (simkit.cli.early checks them before the library loads)."""
    p = params
    return {"strategy": p["strategy"], "param": p["param"], "field": split(p["field"]), "rule": p["rule"],
            "players": split(p["players"]), "focus": p["focus"] or None, "rotate_seats": p["rotate_seats"] or None,
            "negligible": list(p["negligible"]) or None}


@click.command("sweep")
@game_argument
@click.option("--strategy", default=None, help="Strategy whose parameter --param sweeps (it plays in seat 0 before rotation).")
@click.option("--param", default=None, metavar="KEY=START:STOP:STEP",
              help="Strategy parameter grid, inclusive, e.g. points=4:20:2 (or KEY=V1|V2|...).")
@click.option("--field", default=None, metavar="SPEC,...", help="The other seats of a --param sweep (default: the rest "
              "of the game's line-up).")
@click.option("--rule", default=None, metavar="KEY=START:STOP:STEP",
              help="Rule value grid instead, e.g. scoring.false_stop=-20:0:5 or 'deck.copies_split=[9,12,3,3]|[12,6,6,3]'.")
@players_option
@click.option("--focus", type=click.IntRange(0), default=0, show_default=True,
              help="Line-up entry whose win rate picks the best point of a --rule sweep.")
@games_option(10_000)
@seed_option
@rules_options
@rotate_option
@negligible_option
@execution_options
@analysis_out_options
def command(**params):
    """Sweep a strategy parameter or a rule value on the same seeds at every point: curve, CI bands, best point."""
    run_one("sweep", options(params), params)


command.check_first = analysis_check("sweep", options)
