"""Dweebies: place cards next to each other and collect lines whose two ends match.

The rules as simulated, with the decisions D1-D9 and the options that switch them: docs/rules/dweebies.md.
"""
from __future__ import annotations

from pathlib import Path

from .. import EVERY_GAME, PLAYER_COUNTS_ONLY, Game

# The per-seat counters, in the order of their result columns (their meanings: facts below); the engine reads each
# one's place by its name. The counters link_placements (placements while the table is split: where game.split_rule
# decides the cells), declined (game.collect = "may") and two_card_lines (lines of two matching ends: game.min_line
# = 2) also count where a rule option came into play (GAME.rule_counters)
SEAT_STATS = ("collected", "collections", "largest_collection", "lines_collected", "illegal_actions",
              "link_placements", "reconnections", "splits_caused", "declined", "two_card_lines")

GAME = Game(
    name="dweebies",
    title="Dweebies",
    player_counts=(2, 3, 4, 5, 6),
    house_player_counts=(),
    default_lineup=("greedy", "greedy-defensive", "line-shortener", "pair-keeper"),
    play_module=f"{__name__}.play",
    strategies_modules=("simkit.strategies.dweebies", "simkit.strategies.dweebies_expert"),
    rules_path=Path(__file__).with_name("rules.toml"),
    score_column="collected",
    facts={
        "collected": "cards the seat collected (the score; ties for most all win)",
        "collections": "turns on which the seat collected",
        "largest_collection": "most cards the seat took in one turn",
        "lines_collected": "lines collected (a turn that takes a row and a column counts two, D4)",
        "illegal_actions": "answers the engine refused (a Dweebie not in the hand, a cell not legal, declining "
                           "under game.collect = \"must\") and replaced with a random legal move (D8)",
        "link_placements": "cards the seat placed while the table was split (D5; under split_rule \"free\" any "
                           "cell next to a card)",
        "reconnections": "placements that joined the table back into one group",
        "splits_caused": "the seat's collections that split the table",
        "declined": "collections the seat could have made and declined (game.collect = \"may\", D9)",
        "two_card_lines": "lines of two matching ends the seat collected (game.min_line = 2, D9)",
        "turns": "turns in the game (one card placed per turn)",
        "splits": "collections in the game that split the table into groups",
        "left_on_table": "cards on the table when the last hand was played out",
        "restarts": "collections that emptied the table (the next card starts it afresh)",
        "most_groups": "the most groups the table was split into",
        "collection_sizes (totals)": "how many collections took each number of cards, over the batch (simkit.totals)",
    },
    rule_counters={
        "deck.copies_split": EVERY_GAME, "deck.copies": EVERY_GAME, "game.hand_size": EVERY_GAME,
        "game.players_min": PLAYER_COUNTS_ONLY, "game.players_max": PLAYER_COUNTS_ONLY,
        "game.min_line": "two_card_lines", "game.collect": "declined", "game.split_rule": "link_placements",
    },
    report_plots=("collected_by_seat", "collection_sizes", "table_splits"),
    total_labels=lambda prepared: {"collection_sizes": [str(k) for k in range(int(prepared.copies.sum()) + 1)]},
    player_turns=lambda columns: int(columns["turns"][columns["seat"] == 0].sum()),
    length_column="turns",
)
