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
            click.echo("    parameters:")
            for key, value in strategy.params.items():
                param = strategy.declared[key]
                click.echo(f"      {key}={value:g}  ({param.describe()})" + (f"  {param.doc}" if param.doc else ""))
