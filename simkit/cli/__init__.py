"""The ``simkit`` command: a thin layer over the library, one module per subcommand.

The command line is parsed and checked before anything heavy is loaded: a subcommand module imports only
click, ``options`` and light modules (errors, limits, rules, the game registry's names) at its top, and the
library (numba, pandas, the engines) inside its command function; ``main`` parses the whole line first, so
``--help``, ``--version`` and bad input answer at once (tests/test_cli_startup.py)."""
from __future__ import annotations

import os
import sys
import traceback

import click

from ..errors import RunFailed, SimkitError, WorkerDied
from ..version import __version__
from . import (
    balance,
    bench,
    compare,
    design,
    experiment,
    fuzz,
    games,
    ladder,
    metagame,
    replay,
    report,
    rules,
    run,
    strategies,
    summary,
    sweep,
    tournament,
    tune,
)


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="simkit")
@click.option("--debug", is_flag=True, expose_value=False,
              help="On an error, also print the full traceback (any place on the line; or SIMKIT_DEBUG=1).")
@click.option("--decision-timeout", type=float, expose_value=False, metavar="SECONDS",
              help="Stop the command, naming the decision, when a strategy's decision has not returned in "
                   "SECONDS (any place on the line; or SIMKIT_DECISION_TIMEOUT; default 300; 0: never).")
def cli():
    """Monte Carlo strategy analysis for Wheedle, Dweebies and Wheeler Dealer."""


for module in (games, strategies, rules, run, summary, replay, report, bench, fuzz,
               compare, tournament, sweep, experiment, balance, tune, metagame, ladder, design):
    cli.add_command(module.command)


def debugging() -> bool:
    """Whether errors show their full traceback (``--debug`` or SIMKIT_DEBUG=1)."""
    return os.environ.get("SIMKIT_DEBUG", "") not in ("", "0")


def _one_line(exc: BaseException, line: str, status: int, debug: bool) -> None:
    if debug:
        traceback.print_exception(exc)
    click.echo(line, err=True)
    sys.exit(status)


def _decision_timeout(argv: list[str]) -> list[str]:
    """``argv`` without ``--decision-timeout SECONDS`` (accepted anywhere on the line, like ``--debug``), whose
    value goes to SIMKIT_DECISION_TIMEOUT for this process and its children (simkit.guard)."""
    rest, it = [], iter(argv)
    for arg in it:
        if arg == "--decision-timeout" or arg.startswith("--decision-timeout="):
            value = arg.partition("=")[2] if "=" in arg else next(it, "")
            try:
                seconds = float(value)
                if not 0 <= seconds <= 10 ** 6:
                    raise ValueError
            except ValueError:
                raise SimkitError(f"--decision-timeout must be a number of seconds 0..1000000 (0: none), not "
                                  f"{value!r}") from None
            os.environ["SIMKIT_DECISION_TIMEOUT"] = repr(seconds)
        else:
            rest.append(arg)
    return rest


def _parse(args: list[str]) -> click.Context | None:
    """Parse the group's and the subcommand's arguments as ``cli.main`` will, without running the command: its
    errors (and an eager option's answer: ``--help``, ``--version``) come out of here. Returns the command's
    context (its ``params``), or None when the line names no command to run."""
    with cli.make_context("simkit", list(args)) as ctx:
        rest = [*getattr(ctx, "_protected_args", ()), *ctx.args]     # click 8.2+ keeps the subcommand there
        if not rest:
            return None
        name, command, rest = cli.resolve_command(ctx, rest)
        while isinstance(command, click.Group):     # simkit experiment run ...
            ctx = command.make_context(name, rest, parent=ctx)
            rest = [*getattr(ctx, "_protected_args", ()), *ctx.args]     # click 8.2+ keeps the subcommand there
            if not rest:
                return None
            name, command, rest = command.resolve_command(ctx, rest)
        return command.make_context(name, rest, parent=ctx)


def _check_first(ctx: click.Context | None) -> bool:
    """Make the parsed command's own first checks (``options.check_first``: the same checks and errors the
    command makes before it loads the library), so that its bad input answers before anything heavy is
    imported; returns whether the command may play games (and so runs supervised)."""
    if ctx is None:
        return False
    check = getattr(ctx.command, "check_first", None)
    if check is not None:
        check(**ctx.params)
    return getattr(ctx.command, "plays_games", True)


def main(argv=None) -> None:
    """Entry point: bad input of any kind ends with one line on stderr and exit status 2 (with ``--debug``
    anywhere on the line, or SIMKIT_DEBUG=1, after the full traceback)."""
    supervised = argv is None and os.environ.get("SIMKIT_SUPERVISOR", "1") != "0"
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv or debugging()
    try:
        argv = _decision_timeout(argv)
    except SimkitError as exc:
        _one_line(exc, f"simkit: error: {exc}", 2, debug)
    args = [arg for arg in argv if arg != "--debug"]
    try:
        plays = _check_first(_parse(args))  # --help, --version and bad input answer here, before the library loads
        if supervised and plays:
            from ..supervise import supervise  # loads Numba: only for a command line that parsed

            supervise()     # the command as a supervised child: its crash or a stuck decision is one line too
        cli.main(args=args, prog_name="simkit", standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.Abort as exc:
        _one_line(exc, "simkit: interrupted; nothing was written", 130, debug)
    except click.ClickException as exc:
        _one_line(exc, f"simkit: error: {' '.join(exc.format_message().split())}", 2, debug)
    except SimkitError as exc:
        _one_line(exc, f"simkit: error: {' '.join(str(exc).split())}", 2, debug)
    except (RunFailed, WorkerDied) as exc:    # not the input's fault (a strategy's, a killed process): status 1
        resume = ("; the same command resumes it" if isinstance(exc, WorkerDied) and argv[:1] in (["tune"], ["design"])
                  and any(arg == "--out" or arg.startswith("--out=") for arg in argv) else "")
        _one_line(exc, f"simkit: error: {' '.join(str(exc).split())}{resume}", 1, debug)
    except KeyboardInterrupt as exc:
        _one_line(exc, "simkit: interrupted; nothing was written", 130, debug)
    except BrokenPipeError:
        sys.exit(0)
    except OSError as exc:      # a full disk, a read-only folder, an I/O error: not the input's fault, status 1
        where = f" ({exc.filename})" if exc.filename else ""
        _one_line(exc, f"simkit: error: {exc.strerror or ' '.join(str(exc).split())}{where}; nothing was changed", 1,
                  debug)
