"""Option decorators shared by the subcommands; choices come from the registries."""
from __future__ import annotations

import functools

import click

from .. import progress
from ..catalogue import check_lineup
from ..games import game_names, get_game
from ..limits import BUDGET_UNITS, MAX_GAMES

GAMES = click.IntRange(1, MAX_GAMES)    # every count of games (simkit.limits)


def game_argument(func):
    return click.argument("game", type=click.Choice(game_names()), metavar="GAME")(func)


def players_option(func):
    return click.option("--players", "-p", default=None, metavar="SPEC,SPEC,...",
                        help="Line-up, one strategy per seat: name[:key=value...] or module:attr[:key=value...]. "
                             "Default: the game's documented line-up.")(func)


def good_play_option(func):
    return click.option("--good-play", is_flag=True,
                        help="Good play: every seat `expert`, the game's strongest shipped strategy, as many seats as "
                             "the game's default line-up (instead of --players).")(func)


def good_play_lineup(game: str, players, good_play: bool, *exclusive: tuple[str, object], seats: int | None = None):
    """The line-up --good-play stands for (``expert`` in every seat; ``seats`` of them, by default as many as
    the default line-up has), or ``players`` without it. ``exclusive``: (option, value) pairs that a line-up
    of its own would replace."""
    if not good_play:
        return players
    for option, value in (("--players", players), *exclusive):
        if value is not None:
            raise click.UsageError(f"--good-play and {option} are exclusive: --good-play sets every seat to expert")
    return ",".join(["expert"] * (seats or len(get_game(game).default_lineup)))


def check_batch_input(game: str, players, rules_file, sets) -> None:
    """The checks ``simkit.runner.make_batch`` makes first, in its order and with its errors, made before the
    library is imported so that bad input answers at once: the rules (the file, then each --set), then the
    line-up's strategies and parameters and the player count (from the strategy catalogue)."""
    get_game(game).rules(rules_file, sets)
    check_lineup(game, players)


def seed_option(func):
    return click.option("--seed", type=click.IntRange(0, 2 ** 64 - 1), default=0, show_default=True,
                        help="Master seed; game i's streams come from (seed, i).")(func)


def rules_options(func):
    func = click.option("--set", "sets", multiple=True, metavar="KEY=VALUE",
                        help="Override one rule value by dotted key (repeatable), e.g. scoring.false_stop=-10.")(func)
    return click.option("--rules", "rules_file", type=click.Path(dir_okay=False), default=None,
                        help="TOML file overriding the default rule data.")(func)


def workers_option(func):
    return click.option("--workers", "-w", type=click.IntRange(1, 256), default=None,
                        help="Local worker processes (default: all cores).")(func)


def check_backend(backend, scheduler) -> str:
    """The backend that --backend and --scheduler name ("local" or "dask"), refusing --scheduler with --backend
    local."""
    if backend == "local" and scheduler:
        raise click.UsageError("--scheduler needs --backend dask (or no --backend)")
    return "dask" if scheduler else backend or "local"


def execution_options(func):
    """--workers, --backend, --scheduler and --upload of a command that plays games through the pool
    (simkit.pool): while the command runs, every game it plays goes to the backend chosen, and the command
    receives ``workers`` as the number of workers to size its chunks and search rounds by."""
    @functools.wraps(func)
    def run_on_backend(*args, backend, scheduler, upload, **kwargs):
        from ..distributed import using

        with using(check_backend(backend, scheduler), kwargs["workers"], scheduler, upload) as workers:
            return func(*args, **{**kwargs, "workers": workers})

    wrapped = click.option("--upload", multiple=True, type=click.Path(exists=True, dir_okay=False), metavar="FILE",
                           help="Send a file of your own strategies (.py, or a .zip/.egg of modules) to every Dask "
                                "worker before playing (repeatable); the workers import it.")(run_on_backend)
    wrapped = click.option("--scheduler", metavar="ADDRESS", default=None,
                           help="Address of a running Dask scheduler, e.g. tcp://10.0.0.5:8786 (implies --backend "
                                "dask).")(wrapped)
    wrapped = click.option("--backend", type=click.Choice(("local", "dask")), default=None,
                           help="Where the games are played: local (this machine's worker processes, the default) or "
                                "dask (a LocalCluster of --workers processes, or the cluster at --scheduler). "
                                "Results are the same bit for bit.")(wrapped)
    return workers_option(wrapped)


def quiet_option(func):
    """--quiet/-q: no progress bar (it is drawn only when stderr is a terminal; SIMKIT_PROGRESS=0 also
    switches it off)."""
    return click.option("--quiet", "-q", is_flag=True, expose_value=False, is_eager=True,
                        callback=lambda ctx, param, value: progress.set_quiet(value),
                        help="No progress bar (also SIMKIT_PROGRESS=0).")(func)


def json_option(func):
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")(func)


def players_list(text):
    return None if text is None else [p for p in text.split(",")]


# Options of the analysis commands (compare, tournament, sweep, balance).
def games_option(default: int):
    return click.option("--games", "-n", type=GAMES, default=default, show_default=True,
                        help="Games per line-up or grid point (with --rotate-seats, split over the seat orders).")


def rotate_option(func):
    return click.option("--rotate-seats", is_flag=True,
                        help="Play every deal under every cyclic rotation of the line-up (duplicate format); the deal "
                             "is the statistical unit and the seat advantage is reported.")(func)


def analysis_out_options(func):
    func = quiet_option(func)
    func = click.option("--verbose", "-v", is_flag=True,
                        help="Also print the long tables (e.g. the whole game-length distribution); without it they "
                             "are only written by --out.")(func)
    func = click.option("--overwrite", is_flag=True, help="Replace an existing results directory.")(func)
    return click.option("--out", "-o", type=click.Path(), default=None,
                        help="Also write a results directory: tables (CSV, Parquet), plots (PNG, SVG), report.html and "
                             "an experiment.toml that reruns it.")(func)


def allow_code_option(func):
    return click.option("--allow-code", is_flag=True,
                        help="Let the file's line-ups name strategies of your own as module:attr (this imports and runs "
                             "that module); without it a data file may name only shipped and installed strategies.")(func)


negligible_option = click.option(
    "--negligible", "negligible", multiple=True, metavar="METRIC=VALUE",
    help="A significant difference smaller than this is called negligible (repeatable): win in points of win rate "
         "(default 0.5), length in the game's length unit (default 1), score (default 0), rating in a tournament's "
         "rating points (default 3.5).")


class BudgetOption(click.Option):
    """A search budget, ``N [trials|games|minutes]``: the unit may follow unquoted (``-b 5 minutes``), the
    parser then takes it as part of the value."""

    def add_to_parser(self, parser, ctx):
        super().add_to_parser(parser, ctx)
        for name in self.opts:
            option = parser._long_opt.get(name) or parser._short_opt.get(name)
            if option is None:
                continue
            process = option.process

            def with_unit(value, state, process=process):
                if isinstance(value, str) and state.rargs and state.rargs[0] in BUDGET_UNITS:
                    value = f"{value} {state.rargs.pop(0)}"
                process(value, state)

            option.process = with_unit


def retune_options(func):
    """--retune [STRATEGY,...], --retune-params, --retune-budget (compare and balance with --set-b)."""
    func = click.option("--retune-budget", cls=BudgetOption, default=None, metavar="N [trials|games|minutes]",
                        help="With --retune: the search budget of each strategy under each rule set (default: 100 "
                             "trials; docs/analysis.md gives its time).")(func)
    func = click.option("--retune-params", default=None, metavar="K=LO:HI[:log|int],...",
                        help="With --retune: the parameters to tune (default: each strategy's declared ranges).")(func)
    return click.option("--retune", default=None, is_flag=False, flag_value="all", metavar="[STRATEGY,...]",
                        help="Also re-tune every tunable strategy of the line-up (or those named) under rules A and "
                             "under rules B, and give each verdict for fixed and for re-tuned players side by side "
                             "(put it last, or write --retune=STRATEGY).")(func)
