"""The game registry. Each game is one sub-package here whose ``__init__`` declares ``GAME``; discovery is
automatic, so a fifth game is one new folder (engine, rules.toml, columns, fuzz drawer) plus one strategies
module. A declaration is data (names, player counts, the rule data's path, result columns, rule counters) and
imports neither Numba nor an engine: the game's play module (``Game.play_module``: rule compilation,
simulate, replay, the fuzz drawer, the decisions' signatures) is imported when a game is first played, so
the command line lists games and checks its input at once (tests/test_cli_startup.py)."""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from functools import cached_property, lru_cache, partial
from pathlib import Path
from types import ModuleType
from typing import Callable

from ..errors import SimkitError
from ..rules import EVERY_GAME as EVERY_GAME  # the games' rule_counters name these two markers from here
from ..rules import PLAYER_COUNTS_ONLY as PLAYER_COUNTS_ONLY
from ..rules import RuleLayout, changed_values, overlay_rules, read_toml


@lru_cache(maxsize=None)
def _rule_layout(rules_path: Path) -> RuleLayout:
    return RuleLayout(rules_path)


def _every_option_drawn(drawer: Callable, rules_path: Path, pick, n_players: int) -> dict:
    """``drawer(pick, n_players)``'s overlay, with a draw for each option whose rule data allows two or more
    words and no number and which the overlay leaves out, in the file's order (after the drawer's own draws,
    so a drawer naming every option draws as it did)."""
    overlay = drawer(pick, n_players)
    for key, allowed in _rule_layout(rules_path).allowed.items():
        table, _, name = key.rpartition(".")
        if allowed.low is None and allowed.high is None and len(allowed.words) > 1 and table and "." not in table \
                and name not in overlay.get(table, {}):
            words = list(allowed.words)
            overlay.setdefault(table, {})[name] = pick.boolean() if set(words) == {False, True} else pick.choice(words)
    return overlay


@dataclass(frozen=True)
class Game:
    """Everything the library, CLI, runner, report and tests need to know about one game."""

    name: str
    title: str
    player_counts: tuple[int, ...]          # the rulebook's
    house_player_counts: tuple[int, ...]    # allowed as house rules, labelled as such in results
    default_lineup: tuple[str, ...]
    strategies_modules: tuple[str, ...]     # the modules registering its shipped strategies, in order
    rules_path: Path
    # The module that plays the game, imported on first use (see the properties below): DECISIONS (decision
    # point -> Numba signature), prepare (rules dict, n_players) -> compiled rules, raising SimkitError;
    # simulate (prepared, seats, seed, first_game, n_games, check) -> columns; replay (prepared, seats, seed,
    # game) -> readable text; fuzz (pick, n_players) -> a random valid rule overlay (simkit.fuzz).
    play_module: str
    score_column: str
    facts: dict = field(default_factory=dict)   # result column -> meaning (documented by `simkit games`)
    levels: tuple[int, ...] = ()
    report_plots: tuple[str, ...] = ()       # game-specific plots, by name in reports' registry
    total_labels: Callable = lambda prepared: {}   # (prepared) -> {total name: labels of its entries}
    player_turns: Callable | None = None     # (simulate's columns) -> player turns those games took (benchmarks)
    report_note: str = ""                   # said at the top of every report of the game (e.g. what isn't simulated)
    # Optional facts for the balance report card (simkit.analysis.balance); a game that leaves one out is
    # reported as not recording it. Each callable takes the rows of a batch (one per game and seat).
    length_column: str | None = None        # per-game column measuring the game's length (e.g. turns)
    limit_hit: Callable | None = None       # rows -> bool per row: the game ended on a safety limit
    limit_label: str = ""                   # what that limit is, in words
    half_time_score: Callable | None = None  # rows -> each seat's score at half-time (same order as rows)
    # Result columns that are amounts of money, and its unit: a symbol ("$") written before amounts, or a
    # word ("credits") that reports put in column headers and axis labels. Reports format these columns
    # with thousands separators and the unit; a column derived from the score column is money when it is.
    money_columns: frozenset = frozenset()
    currency: str = ""
    # Rule option (a key of rule_options, e.g. "scoring.false_stop" or "company") -> the result column that
    # counts, per game and seat, how often it came into play (a count: > 0 means it acted in that game), or
    # EVERY_GAME for a value every game uses (deal sizes, the board), or PLAYER_COUNTS_ONLY for a bound on
    # the player counts a run may use. `simkit rules --options` shows them; analyses that change a rule say
    # from these whether the change came into play.
    rule_counters: dict = field(default_factory=dict)
    # (effective rules, dotted key) -> why those rules never read the key (e.g. another level's table), or "";
    # a search refuses to vary such a key
    unread: Callable = lambda rules, key: ""

    @property
    def play(self) -> ModuleType:
        """The game's play module (imported now if it was not: the engine and Numba with it)."""
        return importlib.import_module(self.play_module)

    @property
    def decisions(self) -> dict:
        """Decision point -> its Numba signature (what a strategy supplies)."""
        return self.play.DECISIONS

    @property
    def simulate(self) -> Callable:
        return self.play.simulate

    @property
    def replay(self) -> Callable:
        return self.play.replay

    @property
    def fuzz(self) -> Callable:
        """The play module's fuzz drawer, completed by a draw of every option of a few words (on/off, a choice
        of named readings) that it leaves out: a rule option added by the recipe (docs/architecture.md) is
        played in checking mode without a line in the drawer."""
        return partial(_every_option_drawn, self.play.fuzz_rules, self.rules_path)

    def prepare(self, rules: dict, n_players: int):
        """Validate effective rules for ``n_players`` and compile them for the engine (errors name the key)."""
        self.check_player_count(n_players)
        return self.play.prepare(rules, n_players)

    def unread_key(self, rules: dict, key: str) -> str:
        """Why ``rules`` never read ``key`` (a search varying it could find nothing), or "" when they do."""
        return self.unread(rules, str(key))

    def rule_counter(self, key: str) -> str | None:
        """The counter of the option a dotted ``--set`` key belongs to (``company.0.cards`` -> the
        ``company`` option's); None when the game names none."""
        parts = str(key).split(".")
        if len(parts) >= 3 and parts[0] in self.rule_counters:   # an array entry's key: level.2.target_wealth
            entry_key = self.rule_counters.get(f"{parts[0]}.{parts[-1]}")
            if entry_key is not None:
                return entry_key
        for end in range(len(parts), 0, -1):
            counter = self.rule_counters.get(".".join(parts[:end]))
            if counter is not None:
                return counter
        return None

    @cached_property
    def default_rules(self) -> dict:
        return read_toml(self.rules_path)

    @property
    def all_player_counts(self) -> tuple[int, ...]:
        return tuple(sorted(set(self.player_counts) | set(self.house_player_counts)))

    def rule_changes(self, rules: dict) -> list[tuple[str, object, object]]:
        """Every value of ``rules`` that differs from the defaults, as (dotted key, default, value)."""
        return changed_values(self.default_rules, rules)

    def level_of(self, rules: dict) -> int | None:
        """The level the rules play (``game.level``) for a game with levels; None for one without."""
        if not self.levels:
            return None
        return rules.get("game", {}).get("level")

    def rules(self, rules_file=None, sets=(), overrides=None) -> dict:
        """Effective rules: defaults, then a TOML file, a dict of overrides and ``--set`` strings."""
        return overlay_rules(self.default_rules, rules_file, sets, overrides)

    def validate(self, rules: dict) -> int:
        """Check rules as a run would, for the first player count they fit; returns that count.
        When none fits, the error is the one for the default line-up's count."""
        for n in self.all_player_counts:
            try:
                self.prepare(rules, n)
                return n
            except SimkitError:
                continue
        self.prepare(rules, len(self.default_lineup))
        raise SimkitError(f"rules fit no player count of {self.name}")

    def check_player_count(self, n_players: int) -> None:
        if n_players not in self.all_player_counts:
            allowed = ", ".join(map(str, self.player_counts))
            house = ", ".join(map(str, self.house_player_counts))
            raise SimkitError(f"{self.name} takes {allowed} players" + (f" ({house} as a house rule)" if house else "")
                              + f", not {n_players}")


def _folders() -> dict[str, str]:
    """Game name -> its sub-package, found without importing any (a game's name is its folder's, with
    hyphens for underscores): a command that plays one game loads one engine."""
    return {info.name.replace("_", "-"): info.name for info in pkgutil.iter_modules(__path__) if info.ispkg}


GAMES: dict[str, Game] = {}


def game_names() -> list[str]:
    """The registered games' names, without loading their engines (command-line choices)."""
    return list(_folders())


def _load(name: str, folder: str) -> Game:
    game = getattr(importlib.import_module(f"{__name__}.{folder}"), "GAME", None)
    if not isinstance(game, Game) or game.name != name:
        raise RuntimeError(f"simkit/games/{folder} must define GAME = Game(name={name!r}, ...)")
    return game


def all_games() -> dict[str, Game]:
    """Every registered game by name (loads every engine; ``game_names`` does not)."""
    return {name: get_game(name) for name in game_names()}


def get_game(name: str) -> Game:
    """The game called ``name`` (loading its engine, once)."""
    if name not in GAMES:
        folders = _folders()
        if name not in folders:
            raise SimkitError(f"unknown game {name!r}; available: {', '.join(folders)}")
        GAMES[name] = _load(name, folders[name])
    return GAMES[name]
