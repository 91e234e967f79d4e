"""A test-only game whose balance is known exactly, for the rule search's tests.

Each game's winner is drawn at random: seat 0 with weight ``w = game.first_weight``, every other seat with
weight 1, each times its strategy's ``luck ** game.luck_power``. Seat 0 therefore wins w / (w + n - 1) of
the games (with equal luck), and the seat advantage vanishes at w = 1 exactly. A game lasts
``round(game.length_scale * w * (0.5 + u))`` turns with u uniform, so its median length is about
``length_scale * w``: a length target of 5 (scale 10) is best at w = 0.5, which conflicts with the seat
balance's w = 1 (the Pareto front between the two is w in [0.5, 1]).

``install()`` adds the game to the registry (and its strategies, ``plain`` and ``lucky``); ``uninstall()``
takes them out again, so that the tests which run over every registered game never see this one.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import types

from simkit.errors import SimkitError
from simkit.games import GAMES, Game, all_games
from simkit.rules import lookup
from simkit.strategy import _REGISTRY, Param, Strategy, register

NAME = "coin"
SIGNATURE = types.float64(types.Array(types.float64, 1, "A", readonly=True))


class Prepared:
    def __init__(self, weight, power, scale, max_length, n):
        self.weight, self.power, self.scale, self.max_length, self.n = weight, power, scale, max_length, n


def prepare(rules: dict, n_players: int) -> Prepared:
    values = []
    for key in ("game.first_weight", "game.luck_power", "game.length_scale"):
        value = lookup(rules, key)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
            raise SimkitError(f"rules: {key} must be a number >= 0, not {value!r}")
        values.append(float(value))
    if values[0] <= 0:
        raise SimkitError("rules: game.first_weight must be positive")
    return Prepared(*values, int(lookup(rules, "game.max_length")), n_players)


def simulate(prepared: Prepared, seats, seed: int, first_game: int, n_games: int, check: bool = False) -> dict:
    n = prepared.n
    luck = np.array([seat.values.get("luck", 1.0) for seat in seats]) ** prepared.power
    weights = luck * np.where(np.arange(n) == 0, prepared.weight, 1.0)
    cumulative = np.cumsum(weights) / weights.sum()
    games = np.arange(first_game, first_game + n_games, dtype=np.uint64)
    draw = [_uniform(seed, games, stream) for stream in (1, 2)]     # two streams per (seed, game)
    winner = np.minimum(np.searchsorted(cumulative, draw[0], side="right"), n - 1)
    length = np.maximum(1, np.round(prepared.scale * prepared.weight * (0.5 + draw[1]))).astype(np.int64)
    seat = np.tile(np.arange(n, dtype=np.int8), n_games)
    won = seat == np.repeat(winner, n)
    return {"game": np.repeat(np.arange(first_game, first_game + n_games, dtype=np.int64), n), "seat": seat,
            "winner": won, "points": won.astype(np.int64), "turns": np.repeat(length, n),
            "stopped": np.repeat(length >= prepared.max_length, n)}


def _uniform(seed: int, games: np.ndarray, stream: int) -> np.ndarray:
    """Uniform numbers on [0, 1) from (seed, game, stream) by splitmix64: the same game gets the same draws
    whatever the batch."""
    with np.errstate(over="ignore"):
        z = np.uint64(seed) + games * np.uint64(0x9E3779B97F4A7C15) + np.uint64(stream) * np.uint64(0xD1B54A32D192ED03)
        for shift, factor in ((30, 0xBF58476D1CE4E5B9), (27, 0x94D049BB133111EB)):
            z = (z ^ (z >> np.uint64(shift))) * np.uint64(factor)
        z ^= z >> np.uint64(31)
    return (z >> np.uint64(11)).astype(np.float64) / float(2 ** 53)


def replay(prepared, seats, seed, game) -> str:
    columns = simulate(prepared, seats, seed, game, 1)
    return f"game {game}: seat {int(np.argmax(columns['winner']))} wins after {int(columns['turns'][0])} turns"


def _luck(params):
    return params[0]


DECISIONS = {"luck": SIGNATURE}


def fuzz_rules(pick, n: int) -> dict:
    return {}


GAME = Game(
    name=NAME, title="Coin (test)", player_counts=(2, 3, 4), house_player_counts=(5,),
    default_lineup=("plain", "plain", "plain", "plain"), play_module=__name__,
    strategies_modules=(__name__,), rules_path=Path(__file__).with_name("rules.toml"), score_column="points",
    length_column="turns",
    limit_hit=lambda rows: rows["stopped"], limit_label="game.max_length reached",
)


def install() -> Game:
    """Register the game and its strategies (once)."""
    all_games()
    if NAME not in GAMES:
        GAMES[NAME] = GAME
        register(Strategy.build(NAME, "plain", luck=_luck, params={"luck": Param(1.0, 0.1, 10.0)},
                                doc="Test only: luck 1."))
        register(Strategy.build(NAME, "lucky", luck=_luck, params={"luck": Param(2.0, 0.1, 10.0)},
                                doc="Test only: luck 2."))
    return GAME


def uninstall() -> None:
    """Remove the game and its strategies from the registries."""
    GAMES.pop(NAME, None)
    _REGISTRY.pop(NAME, None)
