"""The ``simkit`` command: a thin layer over the library, one module per subcommand."""
from __future__ import annotations

import os
import sys
import traceback

import click

from ..errors import RunFailed, SimkitError
from ..pool import WorkerDied
from ..supervise import supervise
from . import bench, fuzz, games, replay, report, rules, run, strategies, summary
from . import balance, compare, design, experiment, metagame, sweep, tournament, tune


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="simkit")
@click.option("--debug", is_flag=True, expose_value=False,
              help="On an error, also print the full traceback (any place on the line; or SIMKIT_DEBUG=1).")
def cli():
    """Monte Carlo strategy analysis for Wheedle, Dweebies and Wheeler Dealer."""


for module in (games, strategies, rules, run, summary, replay, report, bench, fuzz,
               compare, tournament, sweep, experiment, balance, tune, metagame, design):
    cli.add_command(module.command)


def debugging() -> bool:
    """Whether errors show their full traceback (``--debug`` or SIMKIT_DEBUG=1)."""
    return os.environ.get("SIMKIT_DEBUG", "") not in ("", "0")


def _one_line(exc: BaseException, line: str, status: int, debug: bool) -> None:
    if debug:
        traceback.print_exception(exc)
    click.echo(line, err=True)
    sys.exit(status)


def main(argv=None) -> None:
    """Entry point: bad input of any kind ends with one line on stderr and exit status 2 (with ``--debug``
    anywhere on the line, or SIMKIT_DEBUG=1, after the full traceback)."""
    if argv is None and os.environ.get("SIMKIT_SUPERVISOR", "1") != "0":
        supervise()     # the command as a supervised child: its crash or a stuck decision is one line too
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv or debugging()
    try:
        cli.main(args=[arg for arg in argv if arg != "--debug"], prog_name="simkit", standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.Abort as exc:
        _one_line(exc, "simkit: interrupted; nothing was written", 130, debug)
    except click.ClickException as exc:
        _one_line(exc, f"simkit: error: {' '.join(exc.format_message().split())}", 2, debug)
    except SimkitError as exc:
        _one_line(exc, f"simkit: error: {' '.join(str(exc).split())}", 2, debug)
    except (RunFailed, WorkerDied) as exc:    # not the input's fault (a strategy's, a killed process): status 1
        _one_line(exc, f"simkit: error: {' '.join(str(exc).split())}", 1, debug)
    except KeyboardInterrupt as exc:
        _one_line(exc, "simkit: interrupted; nothing was written", 130, debug)
    except BrokenPipeError:
        sys.exit(0)
