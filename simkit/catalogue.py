"""What is known about strategies before any is compiled: parameter declarations (``Param``), the reading of
a seat's text (``name[:key=value...]``), and the catalogue of the shipped strategies.

The catalogue (``strategies/catalogue.json``) lists each game's shipped strategies in the order they register,
with their docs, parameters and families, generated from the registry itself (``write_catalogue``;
tests/test_strategy_catalogue.py fails when it is out of date, and ``SIMKIT_REGOLD=1`` on that test rewrites
it). ``simkit strategies GAME`` and the line-up checks of bad input read it without importing Numba or
compiling a strategy. It records, for each strategy source, a digest of its text and one of its declarations
(``declarations_digest``): an edit that leaves every source declaring the same (a decision's code, a comment)
keeps it in use; when a source declares something else, or installed packages add strategies, it is not used
and the registry is read instead."""
from __future__ import annotations

import ast
import hashlib
import importlib.metadata
import json
import math
from dataclasses import dataclass, replace
from pathlib import Path

from . import strategies as shipped_strategies  # the package only: its __init__ imports no strategy
from .errors import SimkitError
from .games import get_game

PLUGIN_GROUP = "simkit.strategies"   # entry points of installed packages that register strategies
CATALOGUE_NAME = "catalogue.json"


PARAM_KINDS = ("float", "int", "bool", "choice")


@dataclass(frozen=True)
class Param:
    """A strategy parameter's declaration: default, allowed range, kind and meaning. ``simkit strategies``
    prints it, a value outside it is refused, and a search (sweep, tuner) takes its range from it.

    kind: "float"; "int" (whole numbers); "bool" (0 or 1, a switch); "choice" (0..len(choices)-1, each
    value named in ``choices``)."""

    default: float
    low: float = -math.inf
    high: float = math.inf
    kind: str = "float"
    doc: str = ""
    choices: tuple[str, ...] = ()

    def __post_init__(self):
        if self.kind not in PARAM_KINDS:
            raise ValueError(f"Param kind must be one of {PARAM_KINDS}, not {self.kind!r}")
        for name in ("default", "low", "high"):    # values are floats, as the engine's parameter vector holds them
            object.__setattr__(self, name, float(getattr(self, name)))
        if self.kind == "bool":
            object.__setattr__(self, "low", 0.0)
            object.__setattr__(self, "high", 1.0)
        if self.kind == "choice":
            object.__setattr__(self, "low", 0.0)
            object.__setattr__(self, "high", float(len(self.choices) - 1))

    def with_default(self, value: float) -> "Param":
        return replace(self, default=float(value))

    def describe(self) -> str:
        """The kind and range in words, e.g. ``int 0..60``, ``switch 0/1``, ``0 closest, 1 small-first``."""
        if self.kind == "bool":
            return "switch 0/1"
        if self.kind == "choice":
            return ", ".join(f"{i} {name}" for i, name in enumerate(self.choices))
        if math.isinf(self.low) and math.isinf(self.high):
            return self.kind
        low = "" if math.isinf(self.low) else format_value(self.low)
        high = "" if math.isinf(self.high) else format_value(self.high)
        return f"{self.kind} {low}..{high}"

    def check(self, strategy: str, name: str, value: float) -> float:
        """``value`` as a float, or a one-line SimkitError saying what the parameter allows."""
        value = float(value)
        whole = self.kind in ("int", "bool", "choice")
        if math.isnan(value) or (whole and not value.is_integer()) or not self.low <= value <= self.high:
            raise SimkitError(f"strategy {strategy}: parameter {name}={format_value(value)} is not allowed; "
                              f"{name} is {self.describe()}" + (f" ({self.doc})" if self.doc else ""))
        return value



class ParamOrder(tuple):
    """A family's parameter names in the order of its parameter vector, declared in a short block before its
    compiled decisions, which read ``params[P_STOP]``: the index constants are derived from it rather than
    counted by hand, and the family's declaration (``declare``) must list the same names in the same order.

        COLLECTOR_ORDER = ParamOrder("targets offer_size stop points")
        P_TARGETS, P_OFFER_SIZE, P_STOP, P_POINTS = COLLECTOR_ORDER.indices()

    Numba reads the constants as module globals, so each is still written out once, as in any module; tests/
    test_strategy_params.py checks that every family's ``P_NAME`` is ``name``'s place."""

    def __new__(cls, names: str | tuple[str, ...]):
        names = tuple(names.split()) if isinstance(names, str) else tuple(names)
        if len(set(names)) != len(names) or not all(name.isidentifier() for name in names):
            raise ValueError(f"parameter names must be distinct identifiers: {names}")
        return super().__new__(cls, names)

    def indices(self, names: str | None = None) -> tuple[int, ...]:
        """The places of ``names`` (space-separated; default: every parameter, 0, 1, 2...)."""
        if names is None:
            return tuple(range(len(self)))
        unknown = [name for name in names.split() if name not in self]
        if unknown:
            raise ValueError(f"no parameter {unknown[0]!r} in {' '.join(self)}")
        return tuple(self.index(name) for name in names.split())

    def then(self, names: str) -> "ParamOrder":
        """This order followed by more parameters (a family extending another's vector)."""
        return ParamOrder(self + ParamOrder(names))

    def declare(self, params: dict) -> dict:
        """``params`` (name -> Param), checked to declare exactly these parameters, in this order."""
        if tuple(params) != tuple(self):
            raise ValueError(f"the declared parameters {' '.join(params)} are not the order {' '.join(self)}")
        return params


def format_value(value: float) -> str:
    """A parameter value as written on the command line (whole numbers without a point)."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def checked_values(strategy: str, params: dict, declared: dict, overrides: dict) -> dict:
    """A strategy's parameter values (``params``: name -> default, in vector order) with ``overrides`` applied,
    each checked against its declaration; an unknown name or a value outside its range is a SimkitError."""
    values = dict(params)
    for key, value in overrides.items():
        if key not in values:
            allowed = ", ".join(params) or "none"
            raise SimkitError(f"strategy {strategy}: unknown parameter {key!r}; allowed: {allowed}")
        values[key] = declared[key].check(strategy, key, value) if key in declared else float(value)
    return values


def split_seat(text: str) -> tuple[str, str | None, list[str]]:
    """A seat's text as (shipped name, None, assignments) or (module, attribute, assignments): ``name[:k=v...]``
    or ``module:attr[:k=v...]``."""
    parts = [p.strip() for p in text.strip().split(":")]
    if not parts[0]:
        raise SimkitError(f"empty strategy in line-up {text!r}")
    if len(parts) > 1 and "=" not in parts[1]:
        return parts[0], parts[1], parts[2:]
    return parts[0], None, parts[1:]


def read_assignments(text: str, assignments: list[str]) -> dict:
    """``key=number`` assignments of the seat ``text`` as a dict of floats."""
    overrides = {}
    for item in assignments:
        key, sep, raw = item.partition("=")
        try:
            if not sep:
                raise ValueError
            overrides[key.strip()] = float(raw)
        except ValueError:
            raise SimkitError(f"strategy {text!r}: parameter {item!r} must be KEY=NUMBER") from None
    return overrides


def unknown_strategy(game: str, name: str, names) -> SimkitError:
    return SimkitError(f"unknown strategy {name!r} for {game}; shipped: {', '.join(names)} "
                       "(or module:attr for your own)")


def _strategies_folder() -> Path:
    return Path(shipped_strategies.__file__).parent


def _sources(folder: Path) -> dict[str, Path]:
    return {path.relative_to(folder).as_posix(): path for path in sorted(folder.rglob("*.py"))}


def _text_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# AST fields that differ between Python versions without a difference in the code
_VERSION_FIELDS = frozenset({"ctx", "kind", "type_comment", "type_ignores", "type_params"})


def declarations_digest(path: Path) -> str:
    """A digest of what a strategy module declares when imported, not of how it plays: its syntax tree without
    comments, layout, docstrings and the bodies of decorated (compiled) functions. Editing a decision, a comment
    or a docstring leaves it as it was; editing a parameter, a preset, a doc text or what the module imports
    changes it."""
    parts: list[str] = []

    def walk(node):
        if isinstance(node, list):
            parts.append("[")
            for item in node:
                if not (isinstance(item, ast.Expr) and isinstance(item.value, ast.Constant)
                        and isinstance(item.value.value, str)):     # a docstring, or a string used as a comment
                    walk(item)
                    parts.append(",")
            parts.append("]")
        elif isinstance(node, ast.AST):
            parts.append(type(node).__name__ + "(")
            compiled = isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.decorator_list
            for field in node._fields:
                value = getattr(node, field, None)
                if field in _VERSION_FIELDS or value is None or value == [] or (compiled and field == "body"):
                    continue
                parts.append(field + "=")
                walk(value)
                parts.append(",")
            parts.append(")")
        else:
            parts.append(repr(node))

    walk(ast.parse(path.read_bytes(), str(path)))
    return hashlib.sha256("".join(parts).encode()).hexdigest()


def sources_record(folder: Path | None = None) -> dict[str, dict[str, str]]:
    """What the catalogue records of each strategy source (every .py under the strategies folder): a digest of
    its text (when unchanged, nothing is parsed) and of its declarations (``declarations_digest``)."""
    return {name: {"text": _text_digest(path), "declarations": declarations_digest(path)}
            for name, path in _sources(folder or _strategies_folder()).items()}


def declarations_unchanged(recorded: dict, folder: Path | None = None) -> bool:
    """Whether the strategy sources declare what they declared when ``recorded`` (``sources_record``) was made:
    the same files, each with the same text or, failing that, the same declarations."""
    sources = _sources(folder or _strategies_folder())
    if not isinstance(recorded, dict) or set(recorded) != set(sources):
        return False
    return all(isinstance(recorded[name], dict) and (recorded[name].get("text") == _text_digest(path)
                                                     or recorded[name].get("declarations") == declarations_digest(path))
               for name, path in sources.items())


def describe(strategies: dict) -> list[dict]:
    """Registered strategies (name -> Strategy) as catalogue entries: name, doc, the family (the first strategy
    listed with the same decision functions and declared parameters), parameter values and declarations."""
    entries, families = [], {}
    for name, strategy in strategies.items():
        key = (tuple(id(f) for f in strategy.decisions.values()), tuple(strategy.declared))
        family = families.setdefault(key, name)
        entries.append({"name": name, "doc": strategy.doc, "family": family, "params": dict(strategy.params),
                        "declared": {k: _param_data(p) for k, p in strategy.declared.items()}})
    return entries


def _param_data(param: Param) -> dict:
    finite = {k: (None if math.isinf(v) else v) for k, v in (("low", param.low), ("high", param.high))}
    return {"default": param.default, **finite, "kind": param.kind, "doc": param.doc, "choices": list(param.choices)}


def param_from_data(data: dict) -> Param:
    """The Param a catalogue entry declares."""
    low = -math.inf if data["low"] is None else data["low"]
    high = math.inf if data["high"] is None else data["high"]
    return Param(data["default"], low, high, data["kind"], data["doc"], tuple(data["choices"]))


def write_catalogue(games: dict, folder: Path | None = None) -> str:
    """The catalogue's text for ``games`` (game name -> its registered strategies by name), with the record of
    the sources it was generated from (``sources_record``)."""
    return json.dumps({"sources": sources_record(folder), "games": {g: describe(s) for g, s in games.items()}},
                      indent=1, sort_keys=False) + "\n"


def _plugins_installed() -> bool:
    return bool(importlib.metadata.entry_points(group=PLUGIN_GROUP))


_CACHE: dict = {}


def read_catalogue() -> dict | None:
    """The catalogue (game -> its entries), or None when it cannot stand for the registry: missing, written
    from sources that declared something else than the strategies' now (``declarations_unchanged``), or
    installed packages add strategies."""
    if "catalogue" not in _CACHE:
        folder = _strategies_folder()
        try:
            data = json.loads((folder / CATALOGUE_NAME).read_text())
        except (OSError, ValueError):
            data = None
        fresh = (isinstance(data, dict) and declarations_unchanged(data.get("sources"), folder)
                 and not _plugins_installed())
        _CACHE["catalogue"] = data["games"] if fresh else None
    return _CACHE["catalogue"]


def shipped(game: str) -> list[dict] | None:
    """The catalogue entries of ``game``'s shipped strategies, or None when the registry must be read instead
    (see ``read_catalogue``; a game whose strategies are not shipped with simkit, e.g. a test game)."""
    catalogue = read_catalogue()
    return None if catalogue is None else catalogue.get(get_game(game).name)


class CatalogueSeat:
    """A seat checked against the catalogue: its strategy's entry (name, params, declared, as a Strategy has
    them, so that the analyses' option readers take it in its place) and its parameter overrides."""

    def __init__(self, entry: dict, overrides: dict):
        self.name, self.params, self.overrides = entry["name"], entry["params"], overrides
        self.declared = {key: param_from_data(data) for key, data in entry["declared"].items()}

    @property
    def strategy(self) -> "CatalogueSeat":
        return self

    @property
    def label(self) -> str:
        """As ``simkit.strategy.Seat.label``: the name with the parameters that differ from its defaults."""
        extras = [f"{k}={format_value(v)}" for k, v in self.overrides.items() if self.params.get(k) != v]
        return ":".join([self.name, *extras])


def catalogue_seats(game: str, texts) -> list[CatalogueSeat] | None:
    """Check seats' texts as ``simkit.strategy.parse_lineup`` does, in order and with its errors, from the
    catalogue: shipped names, parameter names and ranges. None (after checking the seats before it) at the
    first seat the catalogue cannot check: a ``module:attr`` of one's own (importing it may fail first), or
    anything but text; None at once when the catalogue cannot be used."""
    spec = get_game(game)
    entries = shipped(spec.name)
    if entries is None:
        return None
    by_name = {entry["name"]: entry for entry in entries}
    seats = []
    for text in texts:
        if not isinstance(text, str):
            return None
        name, attr, assignments = split_seat(text)
        if attr is not None:
            return None
        if name not in by_name:
            raise unknown_strategy(spec.name, name, by_name)
        entry = by_name[name]
        overrides = read_assignments(text, assignments)
        checked_values(name, entry["params"], {key: param_from_data(data) for key, data in entry["declared"].items()},
                       overrides)
        seats.append(CatalogueSeat(entry, overrides))
    return seats


def lineup_texts(game: str, players) -> list:
    """A line-up's seats as ``simkit.batch.make_batch`` reads them: the game's default line-up when none is
    given, a comma-separated string split."""
    if not players:
        return list(get_game(game).default_lineup)
    return players.split(",") if isinstance(players, str) else list(players)


def check_lineup(game: str, players) -> bool:
    """Check a line-up's text as ``simkit.strategy.parse_lineup`` and the player count as a batch would, with the
    same errors, from the catalogue (``catalogue_seats``); the player count only once every seat was checked.
    Returns whether every seat was."""
    texts = lineup_texts(game, players)
    if catalogue_seats(game, texts) is None:
        return False
    get_game(game).check_player_count(len(texts))
    return True
