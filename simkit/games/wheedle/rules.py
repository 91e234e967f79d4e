"""Validation of Wheedle rule data and its compilation into the kernel's rule vector (the rules as played:
docs/rules/wheedle.md)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...errors import SimkitError
from ...rules import lookup, require_bool, require_int, require_str
from . import GAME, engine
from .view import MAX_COMPANIES

MAX_ROUNDS = 60
FALSE_STOPPER_CARDS = ("none", "scored")   # W8: index = the rule vector's R_FALSE_STOPPER_CARDS_SCORED


@dataclass(frozen=True)
class WheedleRules:
    """Rules compiled for the kernel, for one player count."""

    companies: tuple[str, ...]
    counts: np.ndarray       # printed cards per company
    vector: np.ndarray       # engine.R_* layout
    n_players: int
    official: bool           # W1: 2 and 3 players are house rules

    @property
    def rounds(self) -> int:
        return int(self.vector[engine.R_ROUNDS])


def prepare(rules: dict, n_players: int) -> WheedleRules:
    """Validate effective rules for ``n_players`` and compile them (errors name the key)."""
    official = n_players in GAME.player_counts
    entries = rules.get("company")
    if not isinstance(entries, list) or not entries or len(entries) > MAX_COMPANIES:
        raise SimkitError(f"rules: company must be an array of 1..{MAX_COMPANIES} tables with name and cards")
    names, counts = [], []
    for i, _ in enumerate(entries):
        name = require_str(rules, f"company.{i}.name")
        if name in names:
            raise SimkitError(f"rules: company.{i}.name {name!r} appears twice")
        names.append(name)
        counts.append(require_int(rules, f"company.{i}.cards", 1, 99))
    table = "deal.hand" if official else "deal.house_hand"
    hands = lookup(rules, table)
    if str(n_players) not in hands:
        raise SimkitError(f"rules: {table} has no entry for {n_players} players; it has {', '.join(hands) or 'none'}")
    hand = require_int(rules, f"{table}.{n_players}", 1)
    total = sum(counts)
    if hand * n_players + 1 != total:
        raise SimkitError(f"rules: {table}.{n_players} = {hand} deals {hand * n_players} cards + 1 to the centre, "
                          f"but the companies hold {total}; allowed: {(total - 1) / n_players:g} cards each")
    rounds_value = lookup(rules, "options.rounds")
    rounds = n_players if rounds_value == "players" else None
    if rounds is None:
        if isinstance(rounds_value, str):
            raise SimkitError(f"rules: options.rounds must be \"players\" or a number 1..{MAX_ROUNDS}, not {rounds_value!r}")
        rounds = require_int(rules, "options.rounds", 1, MAX_ROUNDS)
    vector = np.zeros(engine.RULE_SIZE, np.int64)
    vector[engine.R_HAND] = hand
    vector[engine.R_ROUNDS] = rounds
    vector[engine.R_MAX_TICKS] = require_int(rules, "options.max_ticks", 1, 1_000_000)
    vector[engine.R_GIFTS] = require_bool(rules, "options.gifts_allowed")
    vector[engine.R_FALSE_STOP_ENDS_ROUND] = require_bool(rules, "options.false_stop_ends_round")
    vector[engine.R_BANKRUPT_MAJORITY_SCORES] = require_bool(rules, "options.bankrupt_majority_scores")
    for index, key in ((engine.R_STOP_BONUS, "stop_bonus"), (engine.R_FALSE_STOP, "false_stop"),
                       (engine.R_ALL_POINTS, "all_cards"), (engine.R_MAJORITY_POINTS, "majority"),
                       (engine.R_BANKRUPT_POINTS, "bankrupt")):
        vector[index] = require_int(rules, f"scoring.{key}", -1000, 1000)
    false_stopper_cards = lookup(rules, "scoring.false_stopper_cards")
    if false_stopper_cards not in FALSE_STOPPER_CARDS:
        allowed = " or ".join(f'"{value}"' for value in FALSE_STOPPER_CARDS)
        raise SimkitError(f"rules: scoring.false_stopper_cards must be {allowed}, not {false_stopper_cards!r}")
    vector[engine.R_FALSE_STOPPER_CARDS_SCORED] = FALSE_STOPPER_CARDS.index(false_stopper_cards)
    return WheedleRules(tuple(names), np.array(counts, np.int64), vector, n_players, official)
