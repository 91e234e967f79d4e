import click
import tomli_w

from ..errors import SimkitError
from ..games import all_games, game_names, get_game
from ..rules import options_markdown, options_text
from .options import rules_options


@click.command("rules")
@click.argument("game", type=click.Choice(game_names()), metavar="GAME", required=False)
@rules_options
@click.option("--options", "list_options", is_flag=True,
              help="List every rule option (key, default, where it comes from, meaning) instead; without GAME, "
                   "of every game.")
@click.option("--markdown", is_flag=True, help="With --options: a Markdown table (docs/rules/options.md is this).")
def command(game, rules_file, sets, list_options, markdown):
    """Print the default rule data (with its comments), ready to copy and edit.

    With --rules or --set, print the effective rules after those overrides instead. With --options, list
    the rule options; the rules as simulated are explained in docs/rules/GAME.md."""
    if list_options:
        games = [get_game(game)] if game else list(all_games().values())
        click.echo((options_markdown if markdown else options_text)(games), nl=False)
        return
    if game is None:
        raise SimkitError("simkit rules needs a GAME (one of: " + ", ".join(game_names()) + "), or --options")
    spec = get_game(game)
    if rules_file or sets:
        effective = spec.rules(rules_file, sets)
        spec.validate(effective)  # the same validation a run applies, for some player count
        click.echo(tomli_w.dumps(effective), nl=False)
    else:
        click.echo(spec.rules_path.read_text(), nl=False)


command.plays_games = False     # simkit.cli.main runs it without a supervising process
