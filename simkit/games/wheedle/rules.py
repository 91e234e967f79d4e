"""Validation of Wheedle rule data and its compilation into the kernel's rule vector (the rules as played:
docs/rules/wheedle.md)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ...errors import SimkitError
from ...rules import RuleLayout, lookup, require_int, require_str
from . import GAME
from .view import MAX_COMPANIES

# The allowed values of every option are written once, in rules.toml's comments (`simkit rules --options`
# shows them); validation reads them from there.
RULE_DATA = RuleLayout(Path(__file__).with_name("rules.toml"))

# The rule vector the kernel reads (WheedleRules.vector): a slot per option whose allowed values the rule data
# declares, in its order, as it codes them (a flag 0/1, a word its position: W8's "none" 0; RULE_DATA.vector fills
# them), then what prepare derives. The slots engine, view and replay share are named here; an option only the
# engine reads has its slot named there (R_X = RULE_DATA.slot("table.key")), so adding one edits no line here.
R_STOP_BONUS = RULE_DATA.slot("scoring.stop_bonus")
R_FALSE_STOP = RULE_DATA.slot("scoring.false_stop")
R_FALSE_STOPPER_CARDS_SCORED = RULE_DATA.slot("scoring.false_stopper_cards")
R_ALL_POINTS = RULE_DATA.slot("scoring.all_cards")
R_MAJORITY_POINTS = RULE_DATA.slot("scoring.majority")
R_BANKRUPT_POINTS = RULE_DATA.slot("scoring.bankrupt")
R_GIFTS = RULE_DATA.slot("options.gifts_allowed")
R_FALSE_STOP_ENDS_ROUND = RULE_DATA.slot("options.false_stop_ends_round")
R_BANKRUPT_MAJORITY_SCORES = RULE_DATA.slot("options.bankrupt_majority_scores")
R_MAX_TICKS = RULE_DATA.slot("options.max_ticks")
DERIVED = ("hand", "rounds")    # the hand for this player count; options.rounds as a number ("players": n)
R_HAND, R_ROUNDS = range(RULE_DATA.size, RULE_DATA.size + len(DERIVED))
RULE_SIZE = RULE_DATA.size + len(DERIVED)


@dataclass(frozen=True)
class WheedleRules:
    """Rules compiled for the kernel, for one player count."""

    companies: tuple[str, ...]
    counts: np.ndarray       # printed cards per company
    vector: np.ndarray       # the R_* layout above
    n_players: int
    official: bool           # W1: 2 and 3 players are house rules

    @property
    def rounds(self) -> int:
        return int(self.vector[R_ROUNDS])


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
    rounds = RULE_DATA.value(rules, "options.rounds")
    vector = np.zeros(RULE_SIZE, np.int64)
    vector[:RULE_DATA.size] = RULE_DATA.vector(rules)
    vector[R_HAND] = hand
    vector[R_ROUNDS] = n_players if rounds == "players" else rounds
    return WheedleRules(tuple(names), np.array(counts, np.int64), vector, n_players, official)
