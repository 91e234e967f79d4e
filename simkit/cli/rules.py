import click
import tomli_w

from ..games import get_game
from .options import game_argument, rules_options


@click.command("rules")
@game_argument
@rules_options
def command(game, rules_file, sets):
    """Print the default rule data (with its comments), ready to copy and edit.

    With --rules or --set, print the effective rules after those overrides instead."""
    spec = get_game(game)
    if rules_file or sets:
        effective = spec.rules(rules_file, sets)
        spec.validate(effective)  # the same validation a run applies, for some player count
        click.echo(tomli_w.dumps(effective), nl=False)
    else:
        click.echo(spec.rules_path.read_text(), nl=False)
