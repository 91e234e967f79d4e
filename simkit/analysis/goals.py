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

import ast
import math
import re
import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..errors import SimkitError
from ..limits import MAX_CONSTANT, MAX_EXPONENT, MAX_EXPRESSION_CHARS, MAX_EXPRESSION_NODES


def _extreme(reduce, name):
    def extreme(*values):
        if len(values) < 2:
            raise SimkitError(f"{name}() needs two or more values, e.g. {name}(first_seat, 0)")
        return reduce.reduce(np.broadcast_arrays(*values))
    return extreme


FUNCTIONS = {"abs": np.abs, "sqrt": np.sqrt, "log": np.log, "exp": np.exp, "min": _extreme(np.minimum, "min"),
             "max": _extreme(np.maximum, "max")}
NAMED_GOALS = ("seat-balance", "length=TARGET", "spread", "spread=max", "decisive", "min:EXPR", "max:EXPR")
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


def _check_expression(text: str, where: str) -> ast.Expression:
    """Parse an expression over the fields: numbers, names, arithmetic, comparisons, subscripts by a constant
    and the functions in FUNCTIONS; anything else (attributes, lambdas, comprehensions) is refused."""
    if len(text) > MAX_EXPRESSION_CHARS:
        raise SimkitError(f"{where}: the expression is {len(text):,} characters long; the limit is {MAX_EXPRESSION_CHARS:,}")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        raise SimkitError(f"{where}: {text.strip()[:80]!r} is not an expression ({exc.msg})") from None
    except (RecursionError, MemoryError):
        raise SimkitError(f"{where}: the expression is nested too deeply") from None
    _check_bounds(tree, where)
    allowed = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Name, ast.Load, ast.Constant, ast.Subscript, ast.Call,
               ast.operator, ast.unaryop, ast.IfExp, ast.Compare, ast.cmpop, ast.Tuple)
    for node in ast.walk(tree):
        if not isinstance(node, allowed):
            raise SimkitError(f"{where}: {type(node).__name__.lower()} is not allowed in an expression; use "
                              "numbers, fields, + - * / ** and " + ", ".join(FUNCTIONS))
        if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id in FUNCTIONS):
            raise SimkitError(f"{where}: only the functions {', '.join(FUNCTIONS)} may be called")
        if isinstance(node, ast.Call) and node.keywords:
            raise SimkitError(f"{where}: functions take no keyword arguments here")
    return tree


def _constant(node) -> float | None:
    """The value of a number written in an expression, with its sign (None: not a plain number)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = _constant(node.operand)
        return None if inner is None else (-inner if isinstance(node.op, ast.USub) else inner)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return node.value
    return None


def _check_bounds(tree, where: str) -> None:
    """Operators and constants are bounded (simkit.limits): at most MAX_EXPRESSION_NODES nodes, numbers up to
    MAX_CONSTANT, and a power's exponent a written number of at most MAX_EXPONENT, so no expression can run
    for minutes (``9**9**9**9``) or build huge integers."""
    nodes = list(ast.walk(tree))
    if len(nodes) > MAX_EXPRESSION_NODES:
        raise SimkitError(f"{where}: the expression has {len(nodes)} parts; the limit is {MAX_EXPRESSION_NODES}")
    for node in nodes:
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) \
                and not isinstance(node.value, bool) and not abs(node.value) <= MAX_CONSTANT:
            raise SimkitError(f"{where}: the number {node.value:.3g} is beyond the limit of {MAX_CONSTANT:g}")
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            exponent = _constant(node.right)
            if exponent is None or abs(exponent) > MAX_EXPONENT:
                raise SimkitError(f"{where}: a power's exponent must be a number from -{MAX_EXPONENT} to "
                                  f"{MAX_EXPONENT}, not {ast.unparse(node.right)[:40]}")


def _names(tree) -> set[str]:
    calls = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and id(n) not in calls}


def expression_names(expression: str, where: str) -> set[str]:
    """The fields an expression reads."""
    return _names(_check_expression(expression, where))


@dataclass(frozen=True)
class Goal:
    """One objective: an expression over the fields, minimised or maximised; ``column`` names it in tables
    (a name with ``win`` or ``share`` in it is shown as a percentage)."""

    text: str
    expression: str
    direction: str        # "minimize" | "maximize"
    column: str
    meaning: str
    rate: bool = False    # a share or a difference of win rates: shown as a percentage

    @property
    def sign(self) -> int:
        """+1 when smaller is better."""
        return 1 if self.direction == "minimize" else -1


@dataclass(frozen=True)
class Constraint:
    """``expression <= bound`` or ``expression >= bound``; its value (expression - bound, or bound -
    expression) is at most 0 when met, as Optuna's constraints take it."""

    text: str
    expression: str
    op: str
    bound: float
    column: str
    rate: bool = False

    def slack(self, value):
        return value - self.bound if self.op == "<=" else self.bound - value


def parse_goal(text: str, number: int) -> Goal:
    """A ``--goal``: seat-balance, length=TARGET, spread[=min|max], decisive, min:EXPR or max:EXPR."""
    raw = str(text).strip()
    if len(raw) > MAX_EXPRESSION_CHARS:
        raise SimkitError(f"--goal: {len(raw):,} characters; the limit is {MAX_EXPRESSION_CHARS:,}")
    where = f"--goal {raw}"
    name, sep, arg = raw.partition("=")
    name, arg = name.strip(), arg.strip()
    if raw.startswith(("min:", "max:")):
        expression = raw[4:].strip()
        if not expression:
            raise SimkitError(f"{where}: give an expression after {raw[:4]}")
        _check_expression(expression, where)
        return Goal(raw, expression, "minimize" if raw.startswith("min:") else "maximize", f"goal_{number}",
                    f"{raw[:3]}imise {expression}")
    if name == "seat-balance" and not sep:
        return Goal(raw, "seat_advantage", "minimize", "largest_win_advantage",
                    "the largest seat advantage (win rate minus the average seat's), minimised", True)
    if name == "length" and sep:
        try:
            target = float(arg)
        except ValueError:
            raise SimkitError(f"{where}: TARGET must be a number (a median length in the game's length "
                              "unit)") from None
        if not math.isfinite(target) or target <= 0:
            raise SimkitError(f"{where}: TARGET must be a positive number")
        label = f"{target:g}".replace(".", "_").replace("-", "m")
        return Goal(raw, f"abs(length - {target!r})", "minimize", f"length_off_{label}",
                    f"the median game length's distance from {target:g}, minimised")
    if name == "spread" and arg in ("", "min", "max") and (sep or not arg):
        direction = "maximize" if arg == "max" else "minimize"
        return Goal(raw, "spread", direction, "win_spread",
                    f"the win-rate gap between the best and the worst strategy, {direction[:-1]}ed", True)
    if name == "decisive" and not sep:
        return Goal(raw, "decisive", "maximize", "decisive_share", "the share of games not stopped at a limit, "
                    "maximised", True)
    raise SimkitError(f"{where}: unknown goal; allowed: {', '.join(NAMED_GOALS)}")


def parse_constraint(text: str, number: int) -> Constraint:
    """A ``--constraint``: ``EXPR<=NUMBER`` or ``EXPR>=NUMBER`` (e.g. ``length<=80``, ``bankrupt>=0.1``)."""
    raw = str(text).strip()
    if len(raw) > MAX_EXPRESSION_CHARS:
        raise SimkitError(f"--constraint: {len(raw):,} characters; the limit is {MAX_EXPRESSION_CHARS:,}")
    where = f"--constraint {raw}"
    match = re.fullmatch(r"(.+?)\s*(<=|>=|<|>)\s*([-+0-9.eE]+)\s*", raw)
    if not match:
        raise SimkitError(f"{where}: expected EXPR<=NUMBER or EXPR>=NUMBER, e.g. length<=80 or bankrupt>=0.1")
    expression, op, bound = match.groups()
    try:
        value = float(bound)
    except ValueError:
        raise SimkitError(f"{where}: {bound!r} is not a number") from None
    _check_expression(expression, where)
    return Constraint(raw, expression.strip(), "<=" if op.startswith("<") else ">=", value, f"constraint_{number}")


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

