"""The ``simkit`` command: a thin layer over the library, one module per subcommand."""
from __future__ import annotations

import sys

import click

from ..errors import SimkitError
from . import bench, fuzz, games, replay, report, rules, run, strategies, summary
from . import balance, compare, experiment, metagame, sweep, tournament, tune


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="simkit")
def cli():
    """Monte Carlo strategy analysis for Wheedle, Dweebies and Wheeler Dealer."""


for module in (games, strategies, rules, run, summary, replay, report, bench, fuzz,
               compare, tournament, sweep, experiment, balance, tune, metagame):
    cli.add_command(module.command)


def main(argv=None) -> None:
    """Entry point: bad input of any kind ends with one line on stderr and exit status 2."""
    try:
        cli.main(args=argv, prog_name="simkit", standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.Abort:
        click.echo("simkit: interrupted; nothing was written", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        message = " ".join(exc.format_message().split())
        click.echo(f"simkit: error: {message}", err=True)
        sys.exit(2)
    except SimkitError as exc:
        click.echo(f"simkit: error: {' '.join(str(exc).split())}", err=True)
        sys.exit(2)
    except KeyboardInterrupt:
        click.echo("simkit: interrupted; nothing was written", err=True)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(0)
