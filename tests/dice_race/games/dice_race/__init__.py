"""Dice race: a test-only fifth game (tests/dice_race/), declared exactly as a shipped game is.

The rules are in engine.py's docstring; the options in rules.toml.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simkit.columns import ResultColumns
from simkit.games import EVERY_GAME, Game
from simkit.strategy import kernel_inputs

from . import engine
from .view import DECISIONS


@dataclass(frozen=True)
class DiceRaceRules:
    """Rules compiled for the kernel, for one player count."""

    vector: np.ndarray      # engine.RULES.vector: the engine's R_* slots
    n_players: int


def prepare(rules: dict, n_players: int) -> DiceRaceRules:
    """Validate effective rules for ``n_players`` and compile them (errors name the key and what is allowed:
    the allowed values are rules.toml's, read by engine.RULES)."""
    GAME.check_player_count(n_players)
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
    return {"game": {"target": pick.integer(1, 80), "die_faces": faces, "bust_face": pick.integer(0, faces),
                     "max_rounds": pick.integer(1, 60), "safe_first_roll": pick.boolean()}}


GAME = Game(
    name="dice-race",
    title="Dice race (test game)",
    player_counts=(2, 3, 4),
    house_player_counts=(5, 6),
    default_lineup=("holder", "cautious", "stop-at-target"),
    decisions=DECISIONS,
    strategies_module="tests.dice_race.strategies",
    rules_path=Path(__file__).with_name("rules.toml"),
    prepare=prepare,
    simulate=simulate,
    replay=replay,
    fuzz=fuzz_rules,
    score_column="points",
    facts={
        "points": "points the seat banked (the score; the winner reached game.target unless the game hit the "
                  "round limit)",
        "turns": "turns the seat took",
        "rolls": "dice the seat rolled",
        "busts": "turns that ended on the bust face, losing their points",
        "holds": "turns the seat stopped and banked (the winning turn not counted)",
        "illegal_actions": "answers the engine refused (neither roll nor stop), played as stop",
        "safe_rerolls": "first rolls of a turn that showed the bust face and were rolled again (game.safe_first_roll)",
        "rounds": "rounds the game took (the last one possibly cut short by the win)",
        "limit_hit": "the game reached game.max_rounds undecided",
    },
    rule_counters={"game.target": EVERY_GAME, "game.die_faces": EVERY_GAME, "game.bust_face": "busts",
                   "game.safe_first_roll": "safe_rerolls", "game.max_rounds": "limit_hit"},
    length_column="rounds",
    limit_hit=lambda rows: rows["limit_hit"],
    limit_label="game.max_rounds reached",
    player_turns=lambda columns: int(columns["turns"].sum()),
)
