"""Dweebies: place cards next to each other and collect lines whose two ends match.

The rules as simulated, with the decisions D1-D9 and the options that switch them: docs/rules/dweebies.md.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ...columns import ResultColumns
from ...strategy import kernel_inputs
from .. import EVERY_GAME, PLAYER_COUNTS_ONLY, Game
from . import engine
from .rules import SYMBOLS, DweebiesRules  # noqa: F401  (SYMBOLS: the letters replays and tests draw Dweebies with)
from .rules import prepare as _prepare
from .view import DECISIONS


def prepare(rules: dict, n_players: int) -> DweebiesRules:
    """Validate effective rules for ``n_players`` and compile them (errors name the key)."""
    GAME.check_player_count(n_players)
    return _prepare(rules, n_players)


def _kernel_inputs(seats):
    """Each seat's decision functions (place) and the seats' parameters, as engine.play_batch takes them."""
    return kernel_inputs(seats, tuple(DECISIONS), engine.MAX_SEATS)


def simulate(prepared: DweebiesRules, seats, seed: int, first_game: int, n_games: int, check: bool = False) -> dict:
    """Play games ``first_game .. first_game + n_games - 1``; one row per (game, seat)."""
    out = engine.play_batch(seed, first_game, n_games, prepared, *_kernel_inputs(seats), check=check)
    columns = ResultColumns(first_game, n_games, prepared.n_players)
    columns.seat_counters(engine.SEAT_STATS, out["stats"], np.int16)
    columns.per_seat("winner", out["winner"])
    for i, name in enumerate(engine.GAME_STATS):
        columns.per_game(name, out["game"][:, i], np.int16)
    columns.totals(collection_sizes=out["sizes"])
    return columns.columns


def start(prepared: DweebiesRules, seed: int, game: int) -> engine.GameState:
    """Game ``game`` of ``seed`` dealt, before its first turn: a state to copy (``state.copy()``) and play on
    with ``step``; the deal and every later random number are those of ``simulate``."""
    return engine.start(seed, game, prepared.n_players, prepared.copies, prepared.vector)


def step(state: engine.GameState, seats, turns: int = 1, check: bool = False) -> int:
    """Play up to ``turns`` turns of ``state`` in place with the line-up ``seats`` (parsed, as simulate takes
    them); returns the turns played. Once ``state.over``, ``state.stats``/``state.game``/``state.winner`` hold
    the game's results as ``simulate`` reports them."""
    functions, params = _kernel_inputs(seats)
    return engine.step(state, tuple(place for place, in functions), params, turns, check)


def replay(prepared: DweebiesRules, seats, seed: int, game: int) -> str:
    from .replay import format_replay

    cards = int(prepared.copies.sum())
    out = engine.play_batch(seed, game, 1, prepared, *_kernel_inputs(seats), check=True, record=True,
                            event_capacity=cards * (4 * cards + 12))
    return format_replay(prepared, seats, seed, game, out)


def fuzz_rules(pick, n: int) -> dict:
    """A random valid rule overlay for ``n`` players, drawn through ``pick`` (simkit.fuzz: integer, boolean,
    choice); ``simkit fuzz`` and the property tests play it in checking mode."""
    if pick.boolean():   # a split of the published deck: n1+n2+n3+n4 = 27 Dweebies, 54 cards
        n4 = pick.integer(0, 9)
        n3 = pick.integer(0, (27 - 3 * n4) // 2)
        deck, cards = {"copies_split": [n3 + 2 * n4, 27 - 2 * n3 - 3 * n4, n3, n4]}, 54
    else:                # any deck
        copies = [pick.integer(1, 5) for _ in range(pick.integer(n, 40))]   # at least a card a player
        deck, cards = {"copies": copies}, sum(copies)
    return {"deck": deck, "game": {"hand_size": pick.integer(1, min(20, max(1, cards // n))),
                                   "min_line": pick.integer(2, 3), "collect": pick.choice(["must", "may"]),
                                   "split_rule": pick.choice(["shortest_link", "free"])}}


GAME = Game(
    name="dweebies",
    title="Dweebies",
    player_counts=(2, 3, 4, 5, 6),
    house_player_counts=(),
    default_lineup=("greedy", "greedy-defensive", "line-shortener", "pair-keeper"),
    decisions=DECISIONS,
    strategies_module="simkit.strategies.dweebies",
    rules_path=Path(__file__).with_name("rules.toml"),
    prepare=prepare,
    fuzz=fuzz_rules,
    simulate=simulate,
    replay=replay,
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
