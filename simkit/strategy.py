"""Strategies: named bundles of Numba decision functions plus float parameters.

A game declares its decision points and their Numba signatures (``Game.decisions``); a strategy
supplies one compiled function per decision point. The engine receives the per-seat functions as
first-class function values, so any strategy (shipped or the user's own, from any module) runs in
the same cached engine without recompiling it.

Line-ups are written ``name[:key=value...]`` per seat, comma-separated; ``module:attr[:key=value...]``
names a Strategy object in the user's own module.
"""
from __future__ import annotations

import contextlib
import contextvars
import importlib
import importlib.metadata
import itertools
import linecache
import re
import sys
import traceback
import types
import weakref
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import numba
import numpy as np
from numba import njit
from numba.core.registry import CPUDispatcher

from . import (
    bounds,
    numba_tools,  # noqa: F401  (closes .flat and np.nditer writes to read-only views before any compiles)
)
from .catalogue import (
    PLUGIN_GROUP,
    Param,
    checked_values,
    format_value,
    read_assignments,
    split_seat,
    unknown_strategy,
)
from .errors import SimkitError
from .games import get_game

# a strategy's parameter vector; the engines size their per-seat float rows from it, so raising it costs only
# memory (8 bytes a place and seat) and changes no result: places past a strategy's own stay zero
MAX_PARAMS = 24
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


_READONLY_WRITE = re.compile(r"setitem\(readonly array|\.flat of a read-only array|nditer\(readonly array")
_WRITTEN_NAME = re.compile(r"^\s*(?:for\s.*\bnditer\(\s*)?([A-Za-z_]\w*)\s*(?:\.flat\b|\[)")


def _readonly_write(text: str, py_func) -> str:
    """What a write to a read-only argument is called in words: the engine shows a strategy its view
    read-only, so the write fails to compile; name the array written (where Numba points first)."""
    places = _NUMBA_PLACE.findall(text)
    name = None
    if places:
        match = _WRITTEN_NAME.match(linecache.getline(places[0][0], int(places[0][1])))
        name = match[1] if match else None
    arguments = getattr(getattr(py_func, "__code__", None), "co_varnames", ())[:getattr(
        getattr(py_func, "__code__", None), "co_argcount", 0)]
    what = (f"writes to its read-only argument {name!r}" if name in arguments
            else f"writes to {name!r}, a read-only array it was shown" if name else "writes to a read-only array")
    return what + " (a strategy may write only to its memory, random stream and answer buffer)"


def compile_error_line(exc: Exception, py_func) -> str:
    """The first line of a compiler error that says what is wrong (Numba's first line only names the
    compiler pass), with where it is: the line the compiler points at, or the function's ``def``."""
    text = str(exc)
    reason = next((line.strip() for line in text.splitlines() if not _NUMBA_HEADER.match(line)), "")
    reason = reason or type(exc).__name__
    if _READONLY_WRITE.search(text):
        reason = _readonly_write(text, py_func)
    place = _NUMBA_PLACE.search(text)
    code = getattr(py_func, "__code__", None)
    if place:
        where = f"{Path(place[1]).name}, line {place[2]}"
    elif code is not None:
        where = f"{Path(code.co_filename).name}, def at line {code.co_firstlineno}"
    else:
        return reason
    return f"{reason} ({where})"


SHIPPED_PACKAGE = "simkit.strategies"


def shipped_code(py_func) -> bool:
    """Whether a decision function is simkit's own (its strategies package), which is compiled as it is; any
    other (a user's module, an installed package, a notebook) is compiled with bounds checking."""
    module = getattr(py_func, "__module__", None) or ""
    return module == SHIPPED_PACKAGE or module.startswith(SHIPPED_PACKAGE + ".")


def _bounds_checked_copy(py_func):
    """``py_func`` under a name of its own, so that its bounds-checked compilation has its own cache entry
    (Numba's cache index does not tell a bounds-checked compilation from a plain one of the same function)."""
    copy = types.FunctionType(py_func.__code__, py_func.__globals__, py_func.__name__, py_func.__defaults__,
                              py_func.__closure__)
    copy.__qualname__ = f"{py_func.__qualname__}__bounds_named"
    copy.__module__ = py_func.__module__
    copy.__doc__ = py_func.__doc__
    return copy


def _compile(func, signature):
    """Compile ``func`` for exactly one signature, so the engine sees it as a first-class function. A
    shipped function already compiled for exactly that signature, and only it, is used as it is: its own
    options stay (a strategy may compile its decisions without reference counting, which saves a runtime
    call per array argument and decision). Any other function is compiled again with bounds checking (its
    own options kept), and so are the helpers it calls that compile with it: an index past the end of its
    memory, random stream or answer buffer raises IndexError there, naming the array (simkit.bounds),
    instead of writing into another seat's arrays or the engine's state (shipped line-ups pay nothing). A function that does not
    compile raises ``ValueError`` with the compiler's reason in one line (and the compiler's exception as
    its cause)."""
    py_func = func.py_func if isinstance(func, CPUDispatcher) else func
    options = dict(func.targetoptions) if isinstance(func, CPUDispatcher) else {}
    if shipped_code(py_func):
        if isinstance(func, CPUDispatcher) and func.signatures == [signature.args] \
                and func.overloads[signature.args].signature.return_type == signature.return_type:
            return func
        checked = False
    else:
        checked = isinstance(py_func, types.FunctionType)
        if checked:
            py_func = _bounds_checked_copy(py_func)
            options["boundscheck"] = True
    options = {key: value for key, value in options.items() if key in ("_nrt", "boundscheck", "fastmath", "error_model")}
    saved = numba.config.BOUNDSCHECK
    try:
        if checked:
            numba.config.BOUNDSCHECK = 1    # helpers compiled for this function check their bounds too
        with bounds.naming_arrays(py_func, signature) if checked else contextlib.nullcontext():
            try:
                return njit(signature, cache=True, **options)(py_func)
            except RuntimeError as exc:
                if "no locator available" not in str(exc):
                    raise
                return njit(signature, **options)(py_func)    # in a notebook or REPL: no file to cache against
    except SimkitError:
        raise
    except Exception as exc:    # Numba's typing errors, a wrong number of arguments, not a function at all
        raise ValueError(compile_error_line(exc, py_func)) from exc
    finally:
        numba.config.BOUNDSCHECK = saved


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
    params: dict = field(default_factory=dict)      # name -> default value (float), in vector order
    doc: str = ""
    declared: dict = field(default_factory=dict)    # name -> Param (range, kind, meaning)
    quick: dict = field(default_factory=dict)       # name -> value for quick runs (fuzzing): a search's small budget
    # Every Strategy of a process is numbered as it is made: worker processes forked later know it by number
    # (simkit.pool sends line-ups that way), and a pool forked earlier knows it is new to them.
    serial: int = field(init=False, compare=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "serial", next(_SERIALS))
        _BY_SERIAL[self.serial] = self
        _newest[0] = self.serial

    @classmethod
    def build(cls, game: str, name: str, *, base: "Strategy | None" = None, params: dict | None = None,
              doc: str = "", quick: dict | None = None, **decisions) -> "Strategy":
        spec = get_game(game)
        declared = dict(base.declared) if base else {}
        for key, value in (params or {}).items():
            declared[key] = value if isinstance(value, Param) else (
                declared[key].with_default(value) if key in declared else Param(float(value)))
        for key, param in declared.items():
            param.check(name, key, param.default)
        merged_params = {key: param.default for key, param in declared.items()}
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
        quick = dict(base.quick if base and quick is None else quick or {})
        for key, value in quick.items():
            if key not in declared:
                raise SimkitError(f"strategy {name}: quick setting for unknown parameter {key!r}")
            quick[key] = declared[key].check(name, key, value)
        return cls(game, name, compiled, merged_params, doc or (base.doc if base else ""), declared, quick)

    @property
    def module(self) -> str:
        """Where the strategy's code lives (recorded in every manifest)."""
        return next(iter(self.decisions.values())).py_func.__module__

    def param_vector(self, overrides: dict[str, float]) -> np.ndarray:
        values = checked_values(self.name, self.params, self.declared, overrides)
        vector = np.zeros(MAX_PARAMS)
        vector[: len(values)] = list(values.values())
        return vector


def param_index(params: dict | None = None, base: Strategy | None = None):
    """Named positions of a strategy's parameters in the vector its decisions receive, as Strategy.build
    orders them (``base``'s parameters first, then the new ones): ``P = param_index(PARAMS, base=collector)``,
    then ``params[P.patience]`` inside a decision. A named tuple of ints: Numba reads it as constants, so this
    costs nothing at run time and no index is kept by hand."""
    import collections

    names = list(base.declared if base else {}) + [k for k in (params or {}) if not base or k not in base.declared]
    if not names:
        return ()
    return collections.namedtuple("ParamIndex", names)(*range(len(names)))


def by_serial(serial: int) -> Strategy:
    """The strategy numbered ``serial`` in this process (or, in a forked worker, in its parent at fork)."""
    return _BY_SERIAL[serial]


def newest_serial() -> int:
    """The number of the newest strategy made so far (0: none)."""
    return _newest[0]


def param_indices(declared, prefix: str) -> dict[str, int]:
    """The index constants a family's compiled decisions read its parameter vector by, derived from its
    declaration: ``{PREFIX + NAME: position}`` in declared order (``P_STOP`` is ``stop``'s place). A family
    writes them out once, from its ``ParamOrder`` (``P_TARGETS, P_STOP, ... = COLLECTOR_ORDER.indices()``);
    tests/test_strategy_params.py checks every family's against this."""
    return {prefix + key.upper(): index for index, key in enumerate(declared)}


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


_SHIPPED_LOADED: set[str] = set()
_PLUGINS: dict[tuple[str, str], tuple[str, str]] = {}   # (game, strategy name) -> (package, module) that added it
_PLUGINS_LOADED = False


def _load_plugins() -> None:
    """Import every module that an installed package names in the ``simkit.strategies`` entry-point group
    (once per process); its strategies register themselves like the shipped ones."""
    global _PLUGINS_LOADED
    if _PLUGINS_LOADED:
        return
    _PLUGINS_LOADED = True
    for entry in importlib.metadata.entry_points(group=PLUGIN_GROUP):
        package = entry.dist.name if entry.dist is not None else entry.value
        before = {(game, name): strategy for game, names in _REGISTRY.items() for name, strategy in names.items()}
        try:
            entry.load()
        except SimkitError:
            raise
        except Exception as exc:
            raise SimkitError(f"strategy package {package}: its entry point {entry.name} = {entry.value} failed "
                              f"to load ({type(exc).__name__}: {exc})") from None
        for game, names in _REGISTRY.items():
            for name, strategy in names.items():
                if (game, name) not in before:
                    _PLUGINS[game, name] = (package, entry.module)
                elif before[game, name] is not strategy:
                    taken = _PLUGINS.get((game, name), ("simkit",))[0]
                    raise SimkitError(f"strategy package {package} defines {game} strategy {name!r}, which {taken} "
                                      "already has; a package must choose names of its own")


def registered(game: str) -> dict[str, Strategy]:
    """The strategies of a game by name: the shipped ones (the game's strategies module, imported once) and
    those of installed packages that declare a ``simkit.strategies`` entry point."""
    spec = get_game(game)
    if spec.name not in _SHIPPED_LOADED:
        for module in spec.strategies_modules:
            importlib.import_module(module)
        _SHIPPED_LOADED.add(spec.name)
    _load_plugins()
    return _REGISTRY.get(spec.name, {})


def plugin_package(game: str, name: str) -> str | None:
    """The installed package that added a strategy (None for a shipped one)."""
    return _PLUGINS.get((game, name), (None,))[0]


def plugin_module(game: str, name: str) -> str | None:
    """The module that added a strategy of an installed package (its entry point's; None for a shipped one)."""
    return _PLUGINS.get((game, name), (None, None))[1]


@dataclass(frozen=True)
class Seat:
    """One seat of a line-up: a strategy and its parameter values."""

    strategy: Strategy
    overrides: dict

    @property
    def label(self) -> str:
        """The strategy name with its non-default parameters, as written on the command line."""
        extras = [f"{k}={format_value(v)}" for k, v in self.overrides.items() if self.strategy.params.get(k) != v]
        return ":".join([self.strategy.name, *extras])

    @property
    def values(self) -> dict:
        return {**self.strategy.params, **self.overrides}

    def vector(self) -> np.ndarray:
        return self.strategy.param_vector(self.overrides)


def _fmt(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


_REFS: dict[int, str] = {}     # strategy serial -> strategy_ref


def strategy_ref(strategy: Strategy) -> str | None:
    """How a line-up names ``strategy`` so that another process (a Dask worker, a replay) finds it again: its
    name when the game's registry holds it (shipped or installed), else ``module:attr`` of a module that
    holds it at its top level, the module of its decisions first (a strategy built from a shipped one keeps
    the shipped module's decisions, so ``Strategy.module`` alone does not say where it was made). None when
    no importable module holds it (one made in a notebook or in ``__main__``)."""
    if strategy.serial not in _REFS:
        if registered(strategy.game).get(strategy.name) is strategy:
            ref = strategy.name
        else:
            places = [(name, attr) for name, module in list(sys.modules.items()) if name != "__main__"
                      for attr, value in list(getattr(module, "__dict__", {}).items()) if value is strategy]
            if not places:
                return None     # not kept: a module imported later may hold it
            ref = "{}:{}".format(*min(places, key=lambda place: place[0] != strategy.module))
        _REFS[strategy.serial] = ref
    return _REFS[strategy.serial]


def seat_spec(seat: Seat) -> str:
    """The ``--players`` entry that plays ``seat`` again: ``strategy_ref`` with the seat's non-default
    parameters (``module:name`` of its decisions' module where no module holds the strategy)."""
    ref = strategy_ref(seat.strategy) or f"{seat.strategy.module}:{seat.strategy.name}"
    return ":".join([ref, *seat.label.split(":")[1:]])


def recorded_spec(game: str, entry: dict, every_value: bool = False) -> str:
    """``seat_spec`` of a seat a run's manifest recorded (its strategy's name, module, label and parameter
    values): the label of a registered strategy whose decisions come from the recorded module, else
    ``module:label`` (the module's attribute taken to be named as the strategy). ``every_value``: every
    recorded parameter value, not only those the label shows (the same seat even if a default has changed)."""
    known = registered(game).get(entry.get("strategy"))
    own = entry.get("module") and (known is None or known.module != entry["module"])
    name = f"{entry['module']}:{entry['strategy']}" if own else entry["strategy"]
    if every_value:
        return ":".join([name, *(f"{key}={_fmt(value)}" for key, value in entry["params"].items())])
    return ":".join([name, *entry["label"].split(":")[1:]])


def _import_error_line(exc: BaseException) -> str:
    """``Type: message (file, line N)`` of an exception raised while importing a module of one's own: the
    innermost frame outside Python's import machinery."""
    reason = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}".rstrip(": ")
    if isinstance(exc, SyntaxError) and exc.filename:
        return f"{type(exc).__name__}: {exc.msg} ({Path(exc.filename).name}, line {exc.lineno})"
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if not f.filename.startswith("<frozen")]
    return f"{reason} ({Path(frames[-1].filename).name}, line {frames[-1].lineno})" if frames else reason


_DATA_FILE: contextvars.ContextVar[str | None] = contextvars.ContextVar("simkit_data_file", default=None)


@contextmanager
def from_data_file(source: str | None):
    """While this block runs, line-ups are read from the data file ``source`` (an experiment, a manifest):
    they may name shipped and installed strategies, and a ``module:attr`` of one's own is refused before
    anything is imported (a data file is inert unless its user passes --allow-code). None: no restriction."""
    token = _DATA_FILE.set(source)
    try:
        yield
    finally:
        _DATA_FILE.reset(token)


def _load_user_strategy(game: str, module_name: str, attr: str) -> Strategy:
    source = _DATA_FILE.get()
    if source is not None:
        raise SimkitError(f"{source} names the strategy {module_name}:{attr}, code from a module of your own; data "
                          "files may name only shipped and installed strategies: add --allow-code if you trust it")
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
    except SystemExit as exc:       # sys.exit() in the module's own code
        raise SimkitError(f"strategy {spec}: module {module_name!r} called sys.exit({exc.code!r}) while it was "
                          f"imported ({_import_error_line(exc).rsplit(' (', 1)[-1]}") from exc
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
    name, attr, assignments = split_seat(text)
    shipped = registered(game)
    if attr is not None:
        strategy = _load_user_strategy(game, name, attr)
    elif name in shipped:
        strategy = shipped[name]
    else:
        raise unknown_strategy(game, name, shipped)
    overrides = read_assignments(text, assignments)
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


def kernel_inputs(seats, decision_names, max_seats: int):
    """What a game's ``engine.play_batch`` takes from a line-up: each seat's decision functions (a tuple per
    seat, in ``decision_names`` order) and the seats' parameters, one row each of a [max_seats, MAX_PARAMS]
    array (rows past the last seat zero)."""
    functions = tuple(tuple(seat.strategy.decisions[name] for name in decision_names) for seat in seats)
    params = np.zeros((max_seats, seats[0].vector().size))
    for i, seat in enumerate(seats):
        params[i] = seat.vector()
    return functions, params
