"""Dice race: a test-only fifth game (tests/dice_race/), declared exactly as a shipped game is.

The rules are in engine.py's docstring; the options in rules.toml.
"""
from __future__ import annotations

from pathlib import Path

from simkit.games import EVERY_GAME, Game

# The per-seat counters, in the order of their result columns (their meanings: facts below); the engine reads each
# one's place by its name
SEAT_STATS = ("points", "turns", "rolls", "busts", "holds", "illegal_actions", "safe_rerolls")

GAME = Game(
    name="dice-race",
    title="Dice race (test game)",
    player_counts=(2, 3, 4),
    house_player_counts=(5, 6),
    default_lineup=("holder", "cautious", "stop-at-target"),
    play_module=f"{__name__}.play",
    strategies_modules=("tests.dice_race.strategies",),
    rules_path=Path(__file__).with_name("rules.toml"),
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
    length_column="rounds",
    rule_counters={"game.target": EVERY_GAME, "game.die_faces": EVERY_GAME, "game.bust_face": "busts",
                   "game.safe_first_roll": "safe_rerolls", "game.max_rounds": "limit_hit"},
    limit_hit=lambda rows: rows["limit_hit"],
    limit_label="game.max_rounds reached",
    player_turns=lambda columns: int(columns["turns"].sum()),
)
