import click

from .analysis import run_one, split
from .early import analysis_check
from .options import (
    analysis_out_options,
    execution_options,
    game_argument,
    games_option,
    negligible_option,
    retune_options,
    rotate_option,
    rules_options,
    seed_option,
)


def options(params: dict) -> dict:
    """compare's keyword arguments from the command line (simkit.cli.early checks them before the library loads)."""
    p = params
    retune = p["retune"]
    return {"players": split(p["players"]), "players_b": split(p["players_b"]), "sets_b": list(p["sets_b"]),
            "seed_b": p["seed_b"], "rotate_seats": p["rotate_seats"] or None, "until_decided": p["until_decided"] or None,
            "target": p["target"] if p["until_decided"] else None, "retune": retune,
            "retune_params": p["retune_params"] if retune else None,
            "retune_budget": p["retune_budget"] if retune else None, "negligible": list(p["negligible"]) or None}


@click.command("compare")
@game_argument
@click.option("--players", "--players-a", "players", default=None, metavar="SPEC,...",
              help="Line-up A (default: the game's); B uses it too unless --players-b is given.")
@click.option("--players-b", default=None, metavar="SPEC,...", help="Line-up B (same number of seats).")
@rules_options
@click.option("--set-b", "sets_b", multiple=True, metavar="KEY=VALUE",
              help="Rule change for B only, applied after --set (repeatable): the house rule under test.")
@games_option(20_000)
@seed_option
@click.option("--seed-b", type=click.IntRange(0, 2 ** 64 - 1), default=None,
              help="Give B other seeds: unpaired sampling, only to measure what pairing saves.")
@rotate_option
@click.option("--until-decided", is_flag=True,
              help="Play in doubling batches and stop once every strategy's win-rate difference is decided "
                   "(sequential intervals with a union bound; --games is then the most played).")
@click.option("--target", type=click.FloatRange(0, min_open=True), default=0.01, show_default=True,
              help="With --until-decided: a difference known to within +-target counts as decided (no effect larger).")
@retune_options
@negligible_option
@execution_options
@analysis_out_options
def command(**params):
    """Compare line-up or rules A with B on the same seeds: paired B - A per strategy and per seat."""
    run_one("compare", options(params), params)


command.check_first = analysis_check("compare", options)
