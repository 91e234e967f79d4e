import click

from ..strategy import registered
from .options import game_argument


@click.command("strategies")
@game_argument
def command(game):
    """List a game's shipped strategies with their parameters and defaults."""
    for name, strategy in registered(game).items():
        click.echo(f"{name}")
        click.echo(f"    {strategy.doc}")
        if strategy.params:
            params = ", ".join(f"{k}={v:g}" for k, v in strategy.params.items())
            click.echo(f"    parameters: {params}")
