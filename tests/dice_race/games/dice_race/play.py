"""Playing the dice race: the rules compiled (rules.prepare), a batch simulated into result columns, a replay, the
fuzz drawer and the decisions' signatures (DECISIONS). The declaration is the package's ``GAME``; this
module, and the engine with it, is imported when a game is played."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simkit.columns import ResultColumns
from simkit.strategy import kernel_inputs

from . import engine
from .view import DECISIONS as DECISIONS  # Game.decisions reads it


@dataclass(frozen=True)
class DiceRaceRules:
    """Rules compiled for the kernel, for one player count."""

    vector: np.ndarray      # engine.RULES.vector: the engine's R_* slots
    n_players: int


def prepare(rules: dict, n_players: int) -> DiceRaceRules:
    """Validate effective rules for ``n_players`` and compile them (errors name the key and what is allowed:
    the allowed values are rules.toml's, read by engine.RULES)."""
    return DiceRaceRules(engine.RULES.vector(rules), n_players)


def _kernel_inputs(seats):
    """Each seat's decision functions (roll_again) and the seats' parameters, as engine.play_batch takes them."""
    return kernel_inputs(seats, tuple(DECISIONS), engine.MAX_SEATS)


def simulate(prepared: DiceRaceRules, seats, seed: int, first_game: int, n_games: int, check: bool = False) -> dict:
    """Play games ``first_game .. first_game + n_games - 1``; one row per (game, seat)."""
    out = engine.play_batch(seed, first_game, n_games, prepared, *_kernel_inputs(seats), check=check)
    columns = ResultColumns(first_game, n_games, prepared.n_players)
    columns.seat_counters(engine.SEAT_STATS, out["stats"], np.int32)
    columns.per_seat("winner", out["winner"])
    columns.per_game("rounds", out["game"][:, engine.G_ROUNDS], np.int32)
    columns.per_game("limit_hit", out["game"][:, engine.G_LIMIT_HIT], np.bool_)
    return columns.columns


def record(prepared: DiceRaceRules, seats, seed: int, game: int) -> dict:
    """The kernel's output for one game with its event log (a first pass sizes the log)."""
    functions, params = _kernel_inputs(seats)
    sizing = engine.play_batch(seed, game, 1, prepared, functions, params)["stats"]
    capacity = int(2 * sizing[..., engine.S_ROLLS].sum() + sizing[..., engine.S_TURNS].sum())
    return engine.play_batch(seed, game, 1, prepared, functions, params, check=True, record=True,
                             event_capacity=capacity)


def replay(prepared: DiceRaceRules, seats, seed: int, game: int) -> str:
    from .replay import format_replay

    return format_replay(prepared, seats, seed, game, record(prepared, seats, seed, game))


def fuzz_rules(pick, n: int) -> dict:
    """A random valid rule overlay for ``n`` players, drawn through ``pick`` (simkit.fuzz)."""
    faces = pick.integer(2, 12)
    game = {"target": pick.integer(1, 80), "die_faces": faces, "bust_face": pick.integer(0, faces),
            "max_rounds": pick.integer(1, 60)}
    # the on/off options are left to their declarations: Game.fuzz draws every option of a few words a drawer
    # does not name, so an option added by the recipe (docs/architecture.md) is fuzzed without a line here
    return {"game": game}
