"""What the analyses read from their options, in plain Python (no numpy, pandas or Numba), so that the command
line checks bad input before the library loads (simkit.cli.early) with the very functions the analyses then
use: numbers and ranges, search dimensions and budgets, ``--negligible`` thresholds and sweep grids. The
analysis modules import them from here."""
from __future__ import annotations

import json
import math
import re
import tomllib
from dataclasses import dataclass

from .errors import SimkitError
from .limits import BUDGET_UNITS as UNITS
from .limits import check_count

SCALE_SUFFIXES = {"": "float", "log": "log", "int": "int", "int:log": "int-log"}   # LO:HI[:suffix] -> scale


def format_number(value) -> str:
    """A number as written in a range: ``3`` for a whole number, else its repr."""
    value = float(value)
    return str(int(value)) if value.is_integer() else repr(value)


def parse_number(text: str, where: str) -> float:
    """A finite number, or one line naming ``where`` it was given."""
    try:
        value = float(text)
    except ValueError:
        raise SimkitError(f"{where}: {text!r} is not a number") from None
    if not math.isfinite(value):
        raise SimkitError(f"{where}: {text!r} is not a finite number")
    return value


@dataclass(frozen=True)
class Dimension:
    """One searched value: its range and scale (float, log, int, int-log: whole numbers on a log scale, or
    choice). A choice's values are numbers, or labels (strings) that the search maps back to what they
    stand for."""

    name: str
    low: float
    high: float
    scale: str = "float"
    choices: tuple = ()

    @property
    def continuous(self) -> bool:
        return self.scale in ("float", "log")

    @property
    def log(self) -> bool:
        return self.scale in ("log", "int-log")

    def text(self) -> str:
        if self.scale == "choice":
            return f"{self.name}=" + "|".join(c if isinstance(c, str) else format_number(c) for c in self.choices)
        suffix = next(k for k, v in SCALE_SUFFIXES.items() if v == self.scale)
        return f"{self.name}={format_number(self.low)}:{format_number(self.high)}" + (f":{suffix}" if suffix else "")

    def clip(self, value):
        if self.scale == "choice":
            return value if value in self.choices else self.choices[0]
        value = min(max(float(value), self.low), self.high)
        return int(round(value)) if self.scale in ("int", "int-log") else value

    def suggest(self, trial):
        """Ask an Optuna trial for this dimension's value."""
        if self.scale == "choice":
            return trial.suggest_categorical(self.name, list(self.choices))
        if self.scale in ("int", "int-log"):
            return trial.suggest_int(self.name, int(self.low), int(self.high), log=self.log)
        return trial.suggest_float(self.name, self.low, self.high, log=self.log)


def assignments(items, option: str, expected: str) -> list[tuple[str, str, str]]:
    """(key, spec, where) of every ``KEY=SPEC`` item in order (``where`` names the option and the item for
    errors); a malformed item or a key given twice is one line."""
    out = []
    for item in items:
        key, sep, spec = str(item).partition("=")
        key, spec = key.strip(), spec.strip()
        where = f"{option} {item}"
        if not sep or not key or not spec:
            raise SimkitError(f"{where}: expected {expected}")
        if any(key == seen for seen, _, _ in out):
            raise SimkitError(f"{where}: {key} is given twice")
        out.append((key, spec, where))
    return out


def parse_range(spec: str, where: str, whole: bool = False, what: str = "the value") -> tuple[float, float, str]:
    """``LO:HI``, ``LO:HI:log``, ``LO:HI:int`` or ``LO:HI:int:log`` into (low, high, scale). ``whole``: the
    value is a whole number, so a range stays whole (``LO:HI`` is int, ``:log`` int-log); ``what`` names it in
    the error about whole ends."""
    low_text, _, rest = spec.partition(":")
    high_text, _, suffix = rest.partition(":")
    if not rest or suffix not in SCALE_SUFFIXES:
        raise SimkitError(f"{where}: expected KEY=LO:HI, KEY=LO:HI:log, KEY=LO:HI:int or KEY=LO:HI:int:log")
    low, high = parse_number(low_text, where), parse_number(high_text, where)
    scale = SCALE_SUFFIXES[suffix]
    if whole and scale in ("float", "log"):
        scale = "int" if scale == "float" else "int-log"
    if not low < high:
        raise SimkitError(f"{where}: empty range; needs LO < HI")
    if scale in ("log", "int-log") and low <= 0:
        raise SimkitError(f"{where}: a log range needs LO > 0")
    if scale in ("int", "int-log") and not (low.is_integer() and high.is_integer()):
        raise SimkitError(f"{where}: {what} takes whole numbers; give whole LO and HI")
    return low, high, scale


@dataclass(frozen=True)
class Budget:
    """How much search: a number of trials, of games (played by the search, besides the final race and
    validation) or of minutes."""

    amount: float
    unit: str

    def share(self, parts: int, index: int) -> "Budget":
        """The budget of stage ``index`` of ``parts`` (an even split, the last takes what rounding leaves)."""
        if self.unit == "minutes":
            return Budget(self.amount / parts, self.unit)
        each = int(self.amount) // parts
        return Budget(each + (int(self.amount) - each * parts if index == parts - 1 else 0), self.unit)

    def text(self) -> str:
        return f"{format_number(self.amount)} {self.unit}"

    def round_size(self, state: dict, round_size: int, games_per_trial: int, extra_trials: int = 0) -> int:
        """Trials to ask in the next round, given what ``state`` has spent (trials, games, seconds): none
        when the budget is spent. A round also plays ``extra_trials`` line-ups (the tuner's incumbent)."""
        if self.unit == "trials":
            return max(0, min(round_size, int(self.amount) - state["trials"]))
        if self.unit == "games":
            return max(0, min(round_size, (int(self.amount) - state["games"]) // games_per_trial - extra_trials))
        return round_size if state["seconds"] < self.amount * 60 else 0


def parse_budget(text) -> Budget:
    """``200`` or ``200 trials``, ``500000 games`` (or ``500000g``), ``10 minutes`` (or ``10m``)."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d*)?(?:e\d+)?)\s*([a-z]*)\s*", str(text).lower())
    if not match or (match.group(2) and match.group(2) not in UNITS):
        raise SimkitError(f"--budget {text!r}: expected a number of trials (200), games (500000 games) or minutes "
                          "(10 minutes)")
    unit = UNITS.get(match.group(2), "trials")
    amount = float(match.group(1))
    if unit != "minutes":
        if not amount.is_integer():
            raise SimkitError(f"--budget {text!r}: {unit} are whole numbers")
        amount = int(amount)
    if amount <= 0:
        raise SimkitError(f"--budget {text!r}: must be positive")
    return Budget(amount, unit)


def parse_space(text, strategy) -> list[Dimension]:
    """Dimensions from ``k=lo:hi[:log|int],k=v1|v2|...`` (a string or a list of such items); every key must be
    a parameter of ``strategy`` and every range inside its declared one."""
    items = [part.strip() for part in (text.split(",") if isinstance(text, str) else list(text)) if str(part).strip()]
    if not items:
        raise SimkitError("--params is empty; give KEY=LO:HI[:log|int],... for the parameters to tune")
    dims = []
    for key, spec, where in assignments(items, "--params", "KEY=LO:HI[:log|int] or KEY=V1|V2|..."):
        if key not in strategy.params:
            raise SimkitError(f"{where}: strategy {strategy.name} has no parameter {key!r}; its parameters: "
                              f"{', '.join(strategy.params) or 'none'}")
        declared = strategy.declared.get(key)
        whole = declared is not None and declared.kind in ("int", "bool", "choice")
        if "|" in spec:
            choices = tuple(sorted({parse_number(v.strip(), where) for v in spec.split("|")}))
            if len(choices) < 2:
                raise SimkitError(f"{where}: a choice needs at least two different values")
            choices = tuple(int(c) if c.is_integer() else c for c in choices)
            dim = Dimension(key, float(min(choices)), float(max(choices)), "choice", choices)
        else:
            low, high, scale = parse_range(spec, where, whole=whole, what=key)
            dim = Dimension(key, low, high, scale)
        if declared is not None and not (declared.low <= dim.low and dim.high <= declared.high):
            raise SimkitError(f"{where}: outside {key}'s declared range ({declared.describe()})")
        if whole and dim.scale == "choice" and not all(float(c).is_integer() for c in dim.choices):
            raise SimkitError(f"{where}: {key} is {declared.describe()}; its values are whole numbers")
        dims.append(dim)
    return dims


def declared_space(strategy) -> list[Dimension]:
    """Dimensions from the parameters the strategy declares with a finite range (simkit.strategy.Param)."""
    dims = []
    for key, param in strategy.declared.items():
        if not (math.isfinite(param.low) and math.isfinite(param.high) and param.low < param.high):
            continue
        if param.kind in ("bool", "choice"):
            choices = tuple(range(int(param.low), int(param.high) + 1))
            dims.append(Dimension(key, param.low, param.high, "choice", choices))
        else:
            dims.append(Dimension(key, param.low, param.high, "int" if param.kind == "int" else "float"))
    if not dims:
        raise SimkitError(f"strategy {strategy.name} declares no parameter ranges to tune; give --params "
                          f"KEY=LO:HI[:log|int],... (its parameters: {', '.join(strategy.params) or 'none'})")
    return dims


# --negligible defaults per metric: a difference smaller than this is called negligible even when significant
# (rating: a tournament's Bradley-Terry points; 3.5 is finishing ahead 50.5% of the time, half a point of share)
NEGLIGIBLE = {"win": 0.005, "length": 1.0, "score": 0.0, "rating": 3.5}
NEGLIGIBLE_UNITS = {"win": "points of win rate (give 0.5 for half a point)", "length": "turns, rounds or ticks "
                    "(the game's length unit)", "score": "units of the game's score",
                    "rating": "rating points of a tournament"}


def parse_negligible(items) -> dict:
    """``--negligible METRIC=VALUE`` items (win in points of win rate, length in the game's length unit, score
    in its score unit) over NEGLIGIBLE's defaults; a negative, unknown or unreadable one is a SimkitError."""
    out = dict(NEGLIGIBLE)
    for item in items or ():
        metric, sep, raw = str(item).partition("=")
        metric = metric.strip()
        if not sep or metric not in NEGLIGIBLE:
            raise SimkitError(f"--negligible {item!r}: expected METRIC=VALUE with METRIC one of "
                              f"{', '.join(NEGLIGIBLE)} (e.g. win=0.5 for half a point)")
        try:
            value = float(raw)
        except ValueError:
            raise SimkitError(f"--negligible {item!r}: {raw!r} is not a number") from None
        if not value >= 0 or value == float("inf"):
            raise SimkitError(f"--negligible {item!r}: a threshold must be a number >= 0")
        out[metric] = value / 100 if metric == "win" else value
    return out


MAX_POINTS = 200


def parse_grid(text: str, option: str) -> tuple[str, list]:
    """``key=start:stop:step`` (inclusive) or ``key=v1|v2|...`` (values read as TOML, e.g. arrays) into
    (key, values). A range of whole numbers gives ints, so integer rule values stay integers."""
    key, sep, spec = str(text).partition("=")
    key, spec = key.strip(), spec.strip()
    if not sep or not key or not spec:
        raise SimkitError(f"{option} {text!r}: expected KEY=START:STOP:STEP or KEY=V1|V2|...")
    if "|" not in spec and spec.count(":") == 2 and not spec.startswith("["):
        start, stop, step = (parse_number(part, f"{option} {text}") for part in spec.split(":"))
        if step <= 0 or stop < start:
            raise SimkitError(f"{option} {text!r}: needs START <= STOP and a positive STEP")
        count = math.floor((stop - start) / step + 1e-9) + 1
        if count > MAX_POINTS:
            raise SimkitError(f"{option} {text!r}: {count} points; at most {MAX_POINTS}")
        values = [start + i * step for i in range(count)]
        whole = all(float(v).is_integer() for v in (start, stop, step))
        return key, [int(round(v)) if whole else round(v, 12) for v in values]
    values = []
    for raw in spec.split("|"):
        try:
            values.append(tomllib.loads(f"v = {raw.strip()}")["v"])
        except tomllib.TOMLDecodeError:
            raise SimkitError(f"{option} {text!r}: {raw.strip()!r} is not a value (a number, true/false, "
                              "a quoted string or an array)") from None
    if len(values) > MAX_POINTS:
        raise SimkitError(f"{option} {text!r}: {len(values)} points; at most {MAX_POINTS}")
    return key, values


def grid_label(value) -> str:
    """A grid value as a sweep writes it into a seat's text or a point's name (``12``, ``0.5``, ``[1,2]``)."""
    return json.dumps(value).replace(" ", "") if not isinstance(value, float) else f"{value:g}"


def sweep_points(default_lineup, strategy, param, rule, field, players, sets) -> tuple[str, list, list, list]:
    """A sweep's grid as (key, values, line-ups, rule sets), one line-up and rule set per point: a strategy
    parameter over ``--param`` (the swept strategy first, then ``field``, by default the default line-up's
    other seats) or a rule value over ``--rule``. Shared by ``simkit.analysis.sweep`` and the CLI's early
    check, so both refuse bad input alike and in the same order."""
    if (param is None) == (rule is None):
        raise SimkitError("a sweep needs exactly one of --param (with --strategy) and --rule")
    if param is not None:
        if not strategy:
            raise SimkitError("--param needs --strategy, the strategy whose parameter is swept")
        key, values = parse_grid(param, "--param")
        if any(isinstance(v, (bool, str, list)) for v in values):
            raise SimkitError(f"--param {param!r}: strategy parameters are numbers")
        field = list(default_lineup[1:]) if field is None else field
        field = field.split(",") if isinstance(field, str) else list(field)
        return (key, values, [[f"{strategy}:{key}={grid_label(v)}", *field] for v in values],
                [list(sets)] * len(values))
    key, values = parse_grid(rule, "--rule")
    return key, values, [players] * len(values), [[*sets, f"{key}={json.dumps(v)}"] for v in values]


def check_trial_sizes(trial_games, max_trial_games, games) -> None:
    """tune's game counts: each a count of games, and the trials' first size no more than their last."""
    check_count(trial_games, "--trial-games")
    check_count(max_trial_games, "--max-trial-games")
    check_count(games, "--games")
    if trial_games > max_trial_games:
        raise SimkitError(f"--trial-games {trial_games} is more than --max-trial-games {max_trial_games}; the games per "
                          "trial start at the first and double up to the second")
