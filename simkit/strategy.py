"""Strategies: named bundles of Numba decision functions plus float parameters.

A game declares its decision points and their Numba signatures (``Game.decisions``); a strategy
supplies one compiled function per decision point. The engine receives the per-seat functions as
first-class function values, so any strategy (shipped or the user's own, from any module) runs in
the same cached engine without recompiling it.

Line-ups are written ``name[:key=value...]`` per seat, comma-separated; ``module:attr[:key=value...]``
names a Strategy object in the user's own module.
"""
from __future__ import annotations

import importlib
import itertools
import re
import sys
import traceback
import weakref
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numba import njit
from numba.core.registry import CPUDispatcher

from .errors import SimkitError

MAX_PARAMS = 16
_REGISTRY: dict[str, dict[str, "Strategy"]] = {}
_SERIALS = itertools.count(1)
_BY_SERIAL: "weakref.WeakValueDictionary[int, Strategy]" = weakref.WeakValueDictionary()
_newest = [0]


class DecisionError(SimkitError):
    """A decision function that does not compile: its strategy, the decision and the reason in one line
    (the compiler's own exception is the ``__cause__``, which ``simkit --debug`` prints in full)."""

    def __init__(self, strategy: str, decision: str, reason: str):
        super().__init__(f"strategy {strategy}, decision {decision}: {reason}")
        self.strategy, self.decision, self.reason = strategy, decision, reason


_NUMBA_HEADER = re.compile(r"^(Failed in \w+ mode pipeline|During: |- Resolution failure|\s*$)")
_NUMBA_PLACE = re.compile(r'^File "([^"]+)", line (\d+)', re.M)


def compile_error_line(exc: Exception, py_func) -> str:
    """The first line of a compiler error that says what is wrong (Numba's first line only names the
    compiler pass), with where it is: the line the compiler points at, or the function's ``def``."""
    text = str(exc)
    reason = next((line.strip() for line in text.splitlines() if not _NUMBA_HEADER.match(line)), "")
    reason = reason or type(exc).__name__
    place = _NUMBA_PLACE.search(text)
    code = getattr(py_func, "__code__", None)
    if place:
        where = f"{Path(place[1]).name}, line {place[2]}"
    elif code is not None:
        where = f"{Path(code.co_filename).name}, def at line {code.co_firstlineno}"
    else:
        return reason
    return f"{reason} ({where})"


def _compile(func, signature):
    """Compile ``func`` for exactly one signature, so the engine sees it as a first-class function. A
    function already compiled for exactly that signature, and only it, is used as it is: its own options
    stay (a strategy may compile its decisions without reference counting, which saves a runtime call
    per array argument and decision). A function that does not compile raises ``ValueError`` with the
    compiler's reason in one line (and the compiler's exception as its cause)."""
    if isinstance(func, CPUDispatcher) and func.signatures == [signature.args] \
            and func.overloads[signature.args].signature.return_type == signature.return_type:
        return func
    py_func = func.py_func if isinstance(func, CPUDispatcher) else func
    try:
        try:
            return njit(signature, cache=True)(py_func)
        except RuntimeError as exc:
            if "no locator available" not in str(exc):
                raise
            return njit(signature)(py_func)    # defined in a notebook or REPL: no file to cache against
    except SimkitError:
        raise
    except Exception as exc:    # Numba's typing errors, a wrong number of arguments, not a function at all
        raise ValueError(compile_error_line(exc, py_func)) from exc


@dataclass(frozen=True)
class Strategy:
    """A strategy for one game: a function per decision point and named float parameters.

    ``decisions`` maps each of the game's decision-point names to a Python or Numba function with the
    game's signature; missing ones are taken from ``base`` (another Strategy), so a user can change a
    single decision and keep the rest of a shipped strategy.
    """

    game: str
    name: str
    decisions: dict
    params: dict = field(default_factory=dict)
    doc: str = ""
    # Every Strategy of a process is numbered as it is made: worker processes forked later know it by number
    # (simkit.pool sends line-ups that way), and a pool forked earlier knows it is new to them.
    serial: int = field(init=False, compare=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "serial", next(_SERIALS))
        _BY_SERIAL[self.serial] = self
        _newest[0] = self.serial

    @classmethod
    def build(cls, game: str, name: str, *, base: "Strategy | None" = None, params: dict | None = None,
              doc: str = "", **decisions) -> "Strategy":
        from .games import get_game

        spec = get_game(game)
        merged_params = dict(base.params) if base else {}
        merged_params.update(params or {})
        if len(merged_params) > MAX_PARAMS:
            raise SimkitError(f"strategy {name}: at most {MAX_PARAMS} parameters")
        unknown = set(decisions) - set(spec.decisions)
        if unknown:
            raise SimkitError(f"strategy {name}: unknown decision {sorted(unknown)[0]!r}; "
                              f"{game} has: {', '.join(spec.decisions)}")
        compiled = {}
        for point, signature in spec.decisions.items():
            func = decisions.get(point) or (base.decisions[point] if base else None)
            if func is None:
                raise SimkitError(f"strategy {name}: no function for decision {point!r} and no base strategy")
            try:
                compiled[point] = func if (base and func is base.decisions.get(point)) else _compile(func, signature)
            except ValueError as exc:
                raise DecisionError(name, point, str(exc)) from exc.__cause__
        return cls(game, name, compiled, {k: float(v) for k, v in merged_params.items()}, doc or (base.doc if base else ""))

    @property
    def module(self) -> str:
        """Where the strategy's code lives (recorded in every manifest)."""
        return next(iter(self.decisions.values())).py_func.__module__

    def param_vector(self, overrides: dict[str, float]) -> np.ndarray:
        values = dict(self.params)
        for key, value in overrides.items():
            if key not in values:
                allowed = ", ".join(self.params) or "none"
                raise SimkitError(f"strategy {self.name}: unknown parameter {key!r}; allowed: {allowed}")
            values[key] = value
        vector = np.zeros(MAX_PARAMS)
        vector[: len(values)] = list(values.values())
        return vector


def by_serial(serial: int) -> Strategy:
    """The strategy numbered ``serial`` in this process (or, in a forked worker, in its parent at fork)."""
    return _BY_SERIAL[serial]


def newest_serial() -> int:
    """The number of the newest strategy made so far (0: none)."""
    return _newest[0]


def register(strategy: Strategy) -> Strategy:
    """Add a strategy to its game's registry (the CLI's choices and the tests read this)."""
    _REGISTRY.setdefault(strategy.game, {})[strategy.name] = strategy
    return strategy


def preset(base: Strategy, name: str, doc: str, **params) -> Strategy:
    """Register ``base`` under another name with some of its parameters changed (a family's preset)."""
    unknown = set(params) - set(base.params)
    if unknown:
        raise SimkitError(f"preset {name}: {base.name} has no parameter {sorted(unknown)[0]!r}")
    return register(Strategy.build(base.game, name, base=base, params=params, doc=doc))


def registered(game: str) -> dict[str, Strategy]:
    """Shipped strategies of a game, by name (imports the game's strategies module once)."""
    from .games import get_game

    spec = get_game(game)
    if game not in _REGISTRY:
        importlib.import_module(spec.strategies_module)
    return _REGISTRY.get(game, {})


@dataclass(frozen=True)
class Seat:
    """One seat of a line-up: a strategy and its parameter values."""

    strategy: Strategy
    overrides: dict

    @property
    def label(self) -> str:
        """The strategy name with its non-default parameters, as written on the command line."""
        extras = [f"{k}={_fmt(v)}" for k, v in self.overrides.items() if self.strategy.params.get(k) != v]
        return ":".join([self.strategy.name, *extras])

    @property
    def values(self) -> dict:
        return {**self.strategy.params, **self.overrides}

    def vector(self) -> np.ndarray:
        return self.strategy.param_vector(self.overrides)


def _fmt(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _import_error_line(exc: BaseException) -> str:
    """``Type: message (file, line N)`` of an exception raised while importing a module of one's own: the
    innermost frame outside Python's import machinery."""
    reason = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}".rstrip(": ")
    if isinstance(exc, SyntaxError) and exc.filename:
        return f"{type(exc).__name__}: {exc.msg} ({Path(exc.filename).name}, line {exc.lineno})"
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if not f.filename.startswith("<frozen")]
    return f"{reason} ({Path(frames[-1].filename).name}, line {frames[-1].lineno})" if frames else reason


def _load_user_strategy(game: str, module_name: str, attr: str) -> Strategy:
    if str(Path.cwd()) not in sys.path:  # let `mymod:name` find mymod.py in the working directory
        sys.path.insert(0, str(Path.cwd()))
    spec = f"{module_name}:{attr}"
    try:
        module = importlib.import_module(module_name)
    except DecisionError as exc:    # the module builds a strategy whose decision does not compile
        who = spec if exc.strategy == attr else f"{module_name}:{exc.strategy} (building {spec})"
        raise SimkitError(f"strategy {who}, decision {exc.decision}: {exc.reason}") from exc.__cause__
    except SimkitError as exc:
        raise SimkitError(f"strategy {spec}: {exc}") from exc
    except ModuleNotFoundError as exc:
        if exc.name != module_name.split(".")[0] and exc.name != module_name:
            raise SimkitError(f"strategy {spec}: cannot import module {module_name!r}: "
                              f"{_import_error_line(exc)}") from exc
        raise SimkitError(f"strategy {spec}: cannot import module {module_name!r}: it is neither in the working "
                          "directory nor on PYTHONPATH") from exc
    except Exception as exc:        # anything the module's own code raises while it is imported
        raise SimkitError(f"strategy {spec}: cannot import module {module_name!r}: {_import_error_line(exc)}") from exc
    strategy = getattr(module, attr, None)
    if not isinstance(strategy, Strategy):
        raise SimkitError(f"strategy {module_name}:{attr}: {module_name}.{attr} is not a simkit Strategy")
    if strategy.game != game:
        raise SimkitError(f"strategy {module_name}:{attr} is for {strategy.game}, not {game}")
    return strategy


def parse_seat(game: str, text: str) -> Seat:
    """Parse ``name[:k=v...]`` or ``module:attr[:k=v...]`` into a Seat."""
    parts = [p.strip() for p in text.strip().split(":")]
    if not parts[0]:
        raise SimkitError(f"empty strategy in line-up {text!r}")
    shipped = registered(game)
    if len(parts) > 1 and "=" not in parts[1]:
        strategy = _load_user_strategy(game, parts[0], parts[1])
        assignments = parts[2:]
    elif parts[0] in shipped:
        strategy = shipped[parts[0]]
        assignments = parts[1:]
    else:
        raise SimkitError(f"unknown strategy {parts[0]!r} for {game}; shipped: {', '.join(shipped)} "
                          "(or module:attr for your own)")
    overrides = {}
    for item in assignments:
        key, sep, raw = item.partition("=")
        try:
            if not sep:
                raise ValueError
            overrides[key.strip()] = float(raw)
        except ValueError:
            raise SimkitError(f"strategy {text!r}: parameter {item!r} must be KEY=NUMBER") from None
    strategy.param_vector(overrides)  # validates the names
    return Seat(strategy, overrides)


def parse_lineup(game: str, players) -> list[Seat]:
    """A line-up from a comma-separated string or a list of seat strings / Seats / Strategies."""
    if isinstance(players, str):
        players = [p for p in players.split(",")]
    seats = []
    for item in players:
        if isinstance(item, Seat):
            seats.append(item)
        elif isinstance(item, Strategy):
            seats.append(Seat(item, {}))
        else:
            seats.append(parse_seat(game, str(item)))
    return seats
