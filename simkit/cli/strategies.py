import textwrap

import click

from .options import game_argument


def _value(param, value) -> str:
    """A parameter value as written on the command line, with a choice's name."""
    from ..strategy import _fmt

    text = _fmt(value)
    if param.kind == "choice" and float(value).is_integer() and 0 <= int(value) < len(param.choices):
        text += f" ({param.choices[int(value)]})"
    return text


@click.command("strategies")
@game_argument
def command(game):
    """List a game's strategies (shipped, and from installed packages) with their parameters: default, kind
    and range, and meaning. A preset lists the values it sets; its family lists every parameter."""
    from ..strategy import plugin_module, plugin_package, registered

    families = {}    # the decisions of a family -> its first strategy listed (whose parameters are printed whole)
    for name, strategy in registered(game).items():
        package = plugin_package(game, name)
        click.echo(f"{name}" + (f"  (from package {package}, module {plugin_module(game, name)})" if package else ""))
        for line in textwrap.wrap(strategy.doc, 100, initial_indent="    ", subsequent_indent="    "):
            click.echo(line)
        if not strategy.params:
            continue
        key = (tuple(id(f) for f in strategy.decisions.values()), tuple(strategy.declared))
        family = families.get(key)
        if family is None:
            families[key] = strategy
            click.echo("    parameters (name=default  [kind and range]  meaning):")
            for param_name, value in strategy.params.items():
                param = strategy.declared[param_name]
                click.echo(f"      {param_name}={_value(param, value)}  [{param.describe()}]")
                for line in textwrap.wrap(param.doc, 100, initial_indent=" " * 10, subsequent_indent=" " * 10):
                    click.echo(line)
        else:
            changed = [f"{k}={_value(strategy.declared[k], v)}" for k, v in strategy.params.items()
                       if family.params.get(k) != v]
            click.echo(f"    parameters: those of {family.name}" + (f", with {', '.join(changed)}" if changed else ""))
