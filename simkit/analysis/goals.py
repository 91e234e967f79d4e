"""Design goals and constraints over the balance card's facts, with bootstrap intervals.

A rule search (``simkit.analysis.design``) plays each candidate rule set with a line-up (or a population)
under every seat rotation on common deals and judges it by the facts of the balance card
(``simkit.analysis.balance``): seat advantage, game length, games stopped at a limit, the win-rate spread
between strategies, and the mean of every result column (e.g. ``bankrupt``: the share of players who went
bankrupt). Every fact is a ratio of sums over deals (or a quantile of the games' lengths), so one bootstrap
over deals gives an interval for any goal or constraint written over them, including a user's expression:
the resample weights every deal's sums at once (a matrix product), and expressions are evaluated on arrays
of (point estimate, replicates...). Resampling the same deals for two rule sets played on the same deals
gives the interval of their paired difference.

Goals (``--goal``): ``seat-balance`` (the largest seat advantage, minimised), ``length=TARGET`` (the median
length's distance from TARGET), ``spread`` / ``spread=max`` (the gap between the best and worst strategy's
win rate, minimised or maximised), ``decisive`` (the share of games not stopped at a limit, maximised),
``min:EXPR`` / ``max:EXPR`` (any expression over the fields). Constraints (``--constraint``):
``EXPR<=NUMBER`` or ``EXPR>=NUMBER``.
"""
from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd

from ..errors import SimkitError
from ..goal_specs import (  # noqa: F401  (public here: the analyses and tests read them from this module)
    FUNCTION_NAMES,
    NAMED_GOALS,
    Constraint,
    Goal,
    _check_expression,
    _names,
    expression_names,
    parse_constraint,
    parse_goal,
)


def _extreme(reduce, name):
    def extreme(*values):
        if len(values) < 2:
            raise SimkitError(f"{name}() needs two or more values, e.g. {name}(first_seat, 0)")
        return reduce.reduce(np.broadcast_arrays(*values))
    return extreme


FUNCTIONS = {"abs": np.abs, "sqrt": np.sqrt, "log": np.log, "exp": np.exp, "min": _extreme(np.minimum, "min"),
             "max": _extreme(np.maximum, "max")}
assert tuple(FUNCTIONS) == FUNCTION_NAMES     # the names goal_specs allows in an expression
# fields that are win rates or shares (an expression over these alone is a rate too, shown as a percentage)
RATE_FIELDS = {"seat_advantage", "first_seat", "limit", "decisive", "spread", "shared_win", "win", "advantage", "seat"}
NOT_COLUMNS = {"game", "seat", "rotation", "entry", "winner", "win", "strategy", "score"}


class Table(dict):
    """A field by key (``win["bluffer"]``); a missing key is one line naming the keys there are."""

    def __init__(self, name: str, values: dict):
        super().__init__(values)
        self.name = name

    def __missing__(self, key):
        raise SimkitError(f"{self.name} has no {key!r}; it has: {', '.join(map(repr, self)) or 'nothing'}")


class DealSums:
    """The sums per deal (the block: one deal played in every seat order) that the card's facts are ratios
    of, and each game's length, from the rows of ``play.play(..., keep="all")`` (any number of line-ups on
    distinct deals: a population's profiles)."""

    def __init__(self, frame: pd.DataFrame, spec, labels: list[str]):
        deals, row_deal = np.unique(frame["game"].to_numpy(), return_inverse=True)
        self.deals = len(deals)
        self.players = int(frame["seat"].max()) + 1
        self.labels = list(labels)
        d, seat = row_deal, frame["seat"].to_numpy()
        wins = frame["win"].to_numpy(float)
        self.seat_win = self._sum(d, seat, wins, self.players)
        self.seat_rows = self._sum(d, seat, np.ones(len(frame)), self.players)
        code = pd.Categorical(frame["strategy"], categories=self.labels).codes
        if (code < 0).any():
            raise ValueError("a row's strategy is not among the labels")
        self.strategy_win = self._sum(d, code, wins, len(self.labels))
        self.strategy_rows = self._sum(d, code, np.ones(len(frame)), len(self.labels))
        self.strategy_score = self._sum(d, code, frame["score"].to_numpy(float), len(self.labels))
        self.columns = [c for c in frame.columns if c not in NOT_COLUMNS and pd.api.types.is_numeric_dtype(frame[c])]
        self.shares = [c for c in self.columns if pd.api.types.is_bool_dtype(frame[c])]   # their means are shares
        self.column_sum = self._sum(d, None, frame[self.columns].to_numpy(float), len(self.columns))
        self.rows = np.bincount(d, minlength=self.deals).astype(float)
        # one entry per game played (a deal in one seat order), from its seat-0 row
        first = seat == 0
        self.game_deal = d[first]
        self.deal_games = np.bincount(self.game_deal, minlength=self.deals).astype(float)
        self.length = frame.loc[first, spec.length_column].to_numpy(float) if spec.length_column else None
        self.quantiles = Quantiles(self.length, self.game_deal, self.deals) if self.length is not None else None
        limit = spec.limit_hit(frame).to_numpy(bool)[first] if spec.limit_hit is not None else np.zeros(first.sum())
        self.limit = np.bincount(self.game_deal, weights=limit.astype(float), minlength=self.deals)
        game_id = d * (int(frame["rotation"].max()) + 1) + frame["rotation"].to_numpy()
        winners = np.bincount(game_id, weights=frame["winner"].to_numpy(float))
        self.shared = np.bincount(self.game_deal, weights=(winners[game_id[first]] > 1).astype(float),
                                  minlength=self.deals)

    def _sum(self, deal, unit, values, units) -> np.ndarray:
        """Per deal (and unit, when given) the sum of ``values``."""
        out = np.zeros((self.deals, units))
        np.add.at(out, (deal, unit) if unit is not None else deal, values)
        return out

    def fields(self, weights: np.ndarray) -> dict:
        """The facts under each row of deal weights, as arrays (one value per row): the expressions'
        namespace."""
        with np.errstate(invalid="ignore", divide="ignore"):
            seat_rate = (weights @ self.seat_win) / (weights @ self.seat_rows)
            average = seat_rate.mean(axis=1)
            seat_adv = seat_rate - average[:, None]
            rate = (weights @ self.strategy_win) / (weights @ self.strategy_rows)
            score = (weights @ self.strategy_score) / (weights @ self.strategy_rows)
            means = (weights @ self.column_sum) / (weights @ self.rows)[:, None]
            games = weights @ self.deal_games
            limit = (weights @ self.limit) / games
            played = ~np.isnan(rate)
            spread = np.where(played.sum(axis=1) > 0, np.nanmax(np.where(played, rate, -np.inf), axis=1)
                              - np.nanmin(np.where(played, rate, np.inf), axis=1), np.nan)
        ns = {name: means[:, i] for i, name in enumerate(self.columns)}
        ns.update({
            "seat_advantage": np.abs(seat_adv).max(axis=1), "first_seat": seat_adv[:, 0],
            "limit": limit, "decisive": 1 - limit, "spread": spread, "shared_win": (weights @ self.shared) / games,
            "players": np.full(len(weights), float(self.players)), "games": games,
            "win": Table("win", {label: rate[:, k] for k, label in enumerate(self.labels)}),
            "advantage": Table("advantage", {label: rate[:, k] - average for k, label in enumerate(self.labels)}),
            "score": Table("score", {label: score[:, k] for k, label in enumerate(self.labels)}),
            "seat": Table("seat", {s: seat_adv[:, s] for s in range(self.players)}),
            "mean": Table("mean", {name: means[:, i] for i, name in enumerate(self.columns)}),
        })
        if self.length is not None:
            for name, q in (("length", 0.5), ("length_p10", 0.1), ("length_p90", 0.9)):
                ns[name] = self.quantiles(weights, q)
            length_sum = np.bincount(self.game_deal, weights=self.length, minlength=self.deals)
            with np.errstate(invalid="ignore", divide="ignore"):
                ns["length_mean"] = (weights @ length_sum) / games
        return ns


def bootstrap_weights(deals: int, replicates: int, seed: int) -> np.ndarray:
    """Row 0: every deal once (the estimate); rows 1..: how often a bootstrap resample draws each deal."""
    rng = np.random.default_rng(seed)
    rows = [np.ones(deals)] + [np.bincount(rng.integers(0, deals, deals), minlength=deals) for _ in range(replicates)]
    return np.array(rows, float)


class Quantiles:
    """Quantiles of the games' lengths under rows of deal weights: each game counts as often as its deal is
    drawn, interpolated linearly as ``numpy.quantile`` does (so the row of every weight 1 gives numpy's
    answer). Lengths take few distinct values, so the games are counted per deal and distinct value once,
    and a row's counts are one matrix product."""

    def __init__(self, values: np.ndarray, deal: np.ndarray, deals: int):
        self.values, code = np.unique(values, return_inverse=True)
        self.counts = np.zeros((deals, len(self.values)))
        np.add.at(self.counts, (deal, code), 1.0)

    def __call__(self, weights: np.ndarray, q: float) -> np.ndarray:
        cumulative = np.cumsum(weights @ self.counts, axis=1)
        position = (cumulative[:, -1] - 1) * q
        low, high = np.floor(position), np.ceil(position)
        last = len(self.values) - 1
        # the value at 0-based rank k of the expanded sample: the first whose cumulative count exceeds k
        at_low = self.values[np.minimum((cumulative <= low[:, None]).sum(axis=1), last)]
        at_high = self.values[np.minimum((cumulative <= high[:, None]).sum(axis=1), last)]
        return at_low + (position - low) * (at_high - at_low)


def evaluate_expression(expression: str, namespace: dict, where: str) -> np.ndarray:
    """An expression over the fields, as an array with one value per weight row."""
    tree = _check_expression(expression, where)
    unknown = sorted(_names(tree) - set(namespace))
    if unknown:
        known = sorted(k for k, v in namespace.items() if not isinstance(v, Table))
        raise SimkitError(f"{where}: unknown field {unknown[0]!r}; fields: {', '.join(known)}; tables: "
                          + ", ".join(f"{k}[...]" for k, v in namespace.items() if isinstance(v, Table)))
    size = len(namespace["games"])
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore", RuntimeWarning)
            value = eval(compile(tree, "<goal>", "eval"), {"__builtins__": {}, **FUNCTIONS}, dict(namespace))
        return np.broadcast_to(np.asarray(value, float), (size,)).copy()
    except SimkitError as exc:
        raise SimkitError(f"{where}: {exc}") from None
    except Exception as exc:
        raise SimkitError(f"{where}: {type(exc).__name__}: {exc}") from None


def interval(values: np.ndarray) -> tuple[float, float, float]:
    """(estimate, low, high): row 0 and the 2.5-97.5% percentiles of the bootstrap rows, widened to hold the
    estimate (a distance such as abs(first_seat) near 0 has resamples all above its estimate; read the
    signed quantity's interval, in the cards, for whether it could be 0)."""
    estimate = float(values[0])
    replicates = values[1:][np.isfinite(values[1:])]
    if not len(replicates):
        return estimate, math.nan, math.nan
    low, high = np.percentile(replicates, [2.5, 97.5])
    return estimate, min(float(low), estimate), max(float(high), estimate)

