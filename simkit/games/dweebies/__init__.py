"""Dweebies: place cards next to each other and collect lines whose two ends match.

The rules as simulated, with the decisions D1-D9 and the options that switch them: docs/rules/dweebies.md.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ...columns import ResultColumns
from ...errors import SimkitError
from ...rules import lookup, require_int, require_str
from .. import Game
from . import engine
from .view import COLLECT_RULES, DECISIONS, SPLIT_RULES

SPLIT_DWEEBIES, SPLIT_CARDS = 27, 54   # D1: a split of the published deck keeps both totals
MAX_DWEEBIES, MAX_CARDS = 62, 216
SYMBOLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


@dataclass(frozen=True)
class DweebiesRules:
    """Rules compiled for the kernel, for one player count."""

    copies: np.ndarray    # copies of each Dweebie in the deck
    hand_size: int
    n_players: int
    min_line: int = 2                 # D9 game.min_line
    collect: str = "must"             # D9 game.collect
    split_rule: str = "shortest_link"  # D9 game.split_rule

    @property
    def names(self) -> str:
        """One letter per Dweebie, as replays draw them."""
        return SYMBOLS[: self.copies.size]

    @property
    def vector(self) -> np.ndarray:
        """The rule vector the kernel reads (engine.R_* positions)."""
        vector = np.zeros(engine.RULE_FIELDS, np.int64)
        vector[engine.R_HAND_SIZE] = self.hand_size
        vector[engine.R_MIN_LINE] = self.min_line
        vector[engine.R_COLLECT] = COLLECT_RULES.index(self.collect)
        vector[engine.R_SPLIT_RULE] = SPLIT_RULES.index(self.split_rule)
        return vector


def _int_list(rules: dict, key: str) -> list[int]:
    value = lookup(rules, key)
    if not isinstance(value, list) or any(isinstance(v, bool) or not isinstance(v, int) for v in value):
        raise SimkitError(f"rules: {key} must be an array of integers, not {value!r}")
    return value


def deck_copies(rules: dict) -> np.ndarray:
    """Copies of each Dweebie: ``deck.copies`` when given, else the ``deck.copies_split`` (D1)."""
    custom = _int_list(rules, "deck.copies")
    if custom:
        if len(custom) > MAX_DWEEBIES or min(custom) < 1 or sum(custom) > MAX_CARDS:
            raise SimkitError(f"rules: deck.copies must give 1..{MAX_DWEEBIES} Dweebies with at least one copy "
                              f"each and {MAX_CARDS} cards at most, not {custom}")
        return np.array(custom, np.int64)
    split = _int_list(rules, "deck.copies_split")
    if len(split) != 4 or min(split) < 0:
        raise SimkitError(f"rules: deck.copies_split must be four counts >= 0 (Dweebies appearing once, twice, "
                          f"three and four times), not {split}")
    dweebies, cards = sum(split), sum(k * n for k, n in enumerate(split, 1))
    if (dweebies, cards) != (SPLIT_DWEEBIES, SPLIT_CARDS):
        raise SimkitError(f"rules: deck.copies_split = {split} makes {dweebies} Dweebies and {cards} cards; a split "
                          f"needs n1+n2+n3+n4 = {SPLIT_DWEEBIES} and n1+2n2+3n3+4n4 = {SPLIT_CARDS} (D1), "
                          "or give any deck as deck.copies")
    return np.repeat(np.arange(1, 5, dtype=np.int64), split)


def _choice(rules: dict, key: str, allowed: tuple) -> str:
    value = require_str(rules, key)
    if value not in allowed:
        raise SimkitError(f"rules: {key} = {value!r}; allowed: {' | '.join(repr(a) for a in allowed)}")
    return value


def prepare(rules: dict, n_players: int) -> DweebiesRules:
    """Validate effective rules for ``n_players`` and compile them (errors name the key)."""
    GAME.check_player_count(n_players)
    low = require_int(rules, "game.players_min", min(GAME.player_counts), max(GAME.player_counts))
    high = require_int(rules, "game.players_max", low, max(GAME.player_counts))
    if not low <= n_players <= high:
        raise SimkitError(f"rules: game.players_min..players_max allow {low}-{high} players, not {n_players}")
    hand_size = require_int(rules, "game.hand_size", 1, 20)
    copies = deck_copies(rules)
    if hand_size * n_players > copies.sum():
        raise SimkitError(f"rules: a deck of {copies.sum()} cards cannot deal hands of {hand_size} to {n_players} "
                          f"players; allowed: game.hand_size up to {copies.sum() // n_players}")
    min_line = require_int(rules, "game.min_line", 2, 3)
    collect = _choice(rules, "game.collect", COLLECT_RULES)
    split_rule = _choice(rules, "game.split_rule", SPLIT_RULES)
    return DweebiesRules(copies, hand_size, n_players, min_line, collect, split_rule)


def _kernel_inputs(seats):
    places = tuple(seat.strategy.decisions["place"] for seat in seats)
    params = np.zeros((engine.MAX_SEATS, seats[0].vector().size))
    for i, seat in enumerate(seats):
        params[i] = seat.vector()
    return places, params


def simulate(prepared: DweebiesRules, seats, seed: int, first_game: int, n_games: int, check: bool = False) -> dict:
    """Play games ``first_game .. first_game + n_games - 1``; one row per (game, seat)."""
    places, params = _kernel_inputs(seats)
    out = engine.play_batch(seed, first_game, n_games, prepared.copies, prepared.vector, places, params,
                            check=check)
    columns = ResultColumns(first_game, n_games, prepared.n_players)
    columns.seat_counters(engine.SEAT_STATS, out["stats"], np.int16)
    columns.per_seat("winner", out["winner"])
    for i, name in enumerate(engine.GAME_STATS):
        columns.per_game(name, out["game"][:, i], np.int16)
    columns.totals(collection_sizes=out["sizes"])
    return columns.columns


def replay(prepared: DweebiesRules, seats, seed: int, game: int) -> str:
    from .replay import format_replay

    places, params = _kernel_inputs(seats)
    cards = int(prepared.copies.sum())
    out = engine.play_batch(seed, game, 1, prepared.copies, prepared.vector, places, params, check=True,
                            record=True, event_capacity=cards * (4 * cards + 12))
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
        "turns": "turns in the game (one card placed per turn)",
        "splits": "collections in the game that split the table into groups",
        "left_on_table": "cards on the table when the last hand was played out",
        "restarts": "collections that emptied the table (the next card starts it afresh)",
        "most_groups": "the most groups the table was split into",
        "collection_sizes (totals)": "how many collections took each number of cards, over the batch (simkit.totals)",
    },
    report_plots=("collected_by_seat", "collection_sizes", "table_splits"),
    total_labels=lambda prepared: {"collection_sizes": [str(k) for k in range(int(prepared.copies.sum()) + 1)]},
    player_turns=lambda columns: int(columns["turns"][columns["seat"] == 0].sum()),
    length_column="turns",
)
