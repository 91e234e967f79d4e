"""Validation of Dweebies rule data and its compilation into the kernel's rule vector (the rules as played:
docs/rules/dweebies.md)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ...errors import SimkitError
from ...rules import RuleLayout, lookup
from .view import COLLECT_RULES, SPLIT_RULES

MAX_SEATS = 6

# The allowed values of every option are written once, in rules.toml's comments (`simkit rules --options`
# shows them); validation reads them from there.
RULE_DATA = RuleLayout(Path(__file__).with_name("rules.toml"))

# The rule vector the kernel reads (DweebiesRules.vector): a slot per option whose allowed values the rule data
# declares, in its order, as it codes them (a word its position: view.COLLECT_RULES, view.SPLIT_RULES), filled by
# RULE_DATA.vector. The slots the engine reads are named here; an option added later has its slot named in the
# engine (R_X = RULE_DATA.slot("game.x")), so adding one edits no line here.
R_HAND_SIZE = RULE_DATA.slot("game.hand_size")
R_MIN_LINE = RULE_DATA.slot("game.min_line")
R_COLLECT = RULE_DATA.slot("game.collect")
R_SPLIT_RULE = RULE_DATA.slot("game.split_rule")

SPLIT_DWEEBIES, SPLIT_CARDS = 27, 54   # D1: a split of the published deck keeps both totals
MAX_DWEEBIES, MAX_CARDS = 62, 216
SYMBOLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


@dataclass(frozen=True)
class DweebiesRules:
    """Rules compiled for the kernel, for one player count."""

    copies: np.ndarray    # copies of each Dweebie in the deck
    vector: np.ndarray    # the rule vector the kernel reads (the R_* layout above)
    n_players: int

    @property
    def names(self) -> str:
        """One letter per Dweebie, as replays draw them."""
        return SYMBOLS[: self.copies.size]

    @property
    def hand_size(self) -> int:
        return int(self.vector[R_HAND_SIZE])

    @property
    def min_line(self) -> int:
        """D9 game.min_line."""
        return int(self.vector[R_MIN_LINE])

    @property
    def collect(self) -> str:
        """D9 game.collect."""
        return COLLECT_RULES[self.vector[R_COLLECT]]

    @property
    def split_rule(self) -> str:
        """D9 game.split_rule."""
        return SPLIT_RULES[self.vector[R_SPLIT_RULE]]


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


def prepare(rules: dict, n_players: int) -> DweebiesRules:
    """Validate effective rules for ``n_players`` and compile them (errors name the key)."""
    low, high = RULE_DATA.value(rules, "game.players_min"), RULE_DATA.value(rules, "game.players_max")
    if not low <= n_players <= high:
        raise SimkitError(f"rules: game.players_min..players_max allow {low}-{high} players, not {n_players}")
    hand_size = RULE_DATA.value(rules, "game.hand_size")
    copies = deck_copies(rules)
    if hand_size * n_players > copies.sum():
        raise SimkitError(f"rules: a deck of {copies.sum()} cards cannot deal hands of {hand_size} to {n_players} "
                          f"players; allowed: game.hand_size up to {copies.sum() // n_players}")
    return DweebiesRules(copies, RULE_DATA.vector(rules), n_players)
