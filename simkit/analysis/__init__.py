"""Analysis on common random numbers: paired comparisons, seat rotation, tournaments, sweeps, balance
report cards, tuning by search (best responses, self-play, re-tuned comparisons), the meta-game and
declarative experiments. Every function here works for any registered game through
the game registry and returns an :class:`Analysis` (tables as pandas DataFrames plus plain-language
findings); ``simkit.reports.analysis`` turns analyses into a results directory with plots and an HTML report.

Game ``g`` of seed ``s`` gets the same deal, dice and tie-breaks whatever the strategies or rules, so
two line-ups or rule sets run on one seed are paired game by game (see ``simkit.rng``).
"""
from .balance import balance
from .compare import compare
from .experiment import Experiment, load_experiment
from .ladder import ladder
from .metagame import metagame
from .result import Analysis
from .sweep import sweep
from .tournament import tournament
from .tune import TuneResult, tune

__all__ = ["Analysis", "compare", "tournament", "sweep", "balance", "tune", "TuneResult", "metagame", "ladder", "Experiment",
           "load_experiment"]
