import click

from ..strategy import plugin_package, registered
from .options import game_argument


@click.command("strategies")
@game_argument
def command(game):
    """List a game's strategies (shipped, and from installed packages) with their parameters and defaults."""
    for name, strategy in registered(game).items():
        package = plugin_package(game, name)
        click.echo(f"{name}" + (f"  (from package {package})" if package else ""))
        click.echo(f"    {strategy.doc}")
        if strategy.params:
            params = ", ".join(f"{k}={v:g}" for k, v in strategy.params.items())
            click.echo(f"    parameters: {params}")
