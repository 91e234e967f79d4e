import textwrap

import click

from ..catalogue import describe, format_value, param_from_data, shipped
from .options import game_argument


def _value(param, value) -> str:
    """A parameter value as written on the command line, with a choice's name."""
    text = format_value(value)
    if param.kind == "choice" and float(value).is_integer() and 0 <= int(value) < len(param.choices):
        text += f" ({param.choices[int(value)]})"
    return text


def _entries(game: str) -> list[dict]:
    """The game's strategies as catalogue entries (simkit.catalogue), each with the installed package and module
    that added it (None for a shipped one): from the catalogue when it stands for the registry, else from the
    registry (which imports and compiles every strategy)."""
    entries = shipped(game)
    if entries is not None:
        return [{**entry, "package": None, "module": None} for entry in entries]
    from ..strategy import plugin_module, plugin_package, registered

    return [{**entry, "package": plugin_package(game, entry["name"]), "module": plugin_module(game, entry["name"])}
            for entry in describe(registered(game))]


@click.command("strategies")
@game_argument
def command(game):
    """List a game's strategies (shipped, and from installed packages) with their parameters: default, kind
    and range, and meaning. A preset lists the values it sets; its family lists every parameter."""
    entries = _entries(game)
    by_name = {entry["name"]: entry for entry in entries}
    for entry in entries:
        name, package = entry["name"], entry["package"]
        click.echo(f"{name}" + (f"  (from package {package}, module {entry['module']})" if package else ""))
        for line in textwrap.wrap(entry["doc"], 100, initial_indent="    ", subsequent_indent="    "):
            click.echo(line)
        if not entry["params"]:
            continue
        declared = {key: param_from_data(data) for key, data in entry["declared"].items()}
        family = by_name[entry["family"]]
        if family is entry:
            click.echo("    parameters (name=default  [kind and range]  meaning):")
            for param_name, value in entry["params"].items():
                param = declared[param_name]
                click.echo(f"      {param_name}={_value(param, value)}  [{param.describe()}]")
                for line in textwrap.wrap(param.doc, 100, initial_indent=" " * 10, subsequent_indent=" " * 10):
                    click.echo(line)
        else:
            changed = [f"{k}={_value(declared[k], v)}" for k, v in entry["params"].items()
                       if family["params"].get(k) != v]
            click.echo(f"    parameters: those of {family['name']}" + (f", with {', '.join(changed)}" if changed else ""))


command.plays_games = False     # simkit.cli.main runs it without a supervising process
