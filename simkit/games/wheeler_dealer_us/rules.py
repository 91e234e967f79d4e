"""Validation of Wheeler-Dealer (US) rule data and its compilation into the kernel's arrays (the rules as
the simulator plays them: docs/rules/wheeler-dealer-us.md)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ...errors import SimkitError
from ...rules import RuleLayout, lookup, require_bool, require_int, require_str
from .view import (
    B_KIND,
    B_PROPERTY,
    CARD_KINDS,
    CK_COLLECT,
    CK_COLLECT_FROM_EACH,
    CK_COLLECT_PER_PIP,
    CK_PAY,
    CK_PAY_PERCENT,
    CK_TAXI,
    CORNER_KINDS,
    K_AMOUNT,
    K_KIND,
    K_PERCENT,
    K_SAVE,
    MAX_BLOCK,
    P_BLOCK,
    P_BLOCK_SIZE,
    P_COST,
    P_INCOME,
    P_LOAN,
    P_PAYOFF,
    P_SQUARE,
    SQ_PARK,
    SQ_PROPERTY,
    SQ_SCHOOL,
    TABLE_COLUMNS,
    X_INVEST,
    X_MASK,
    X_RETURN,
    X_WAYS,
)

# The allowed values of every option are written once, in rules.toml's comments (`simkit rules --options`
# shows them); validation reads them from there.
RULE_DATA = RuleLayout(Path(__file__).with_name("rules.toml"))

# The rule vector the kernel reads (USRules.vector): a slot per option whose allowed values the rule data
# declares, in its order (RULE_DATA.vector fills them; each is named R_X = RULE_DATA.slot("table.key") in the
# engine module that plays it), then the values prepare derives from the rest of the data, named here.
DERIVED = ("min_investment", "deck_size", "park_square", "school_square")   # prepare's checks and the board give them
R_MIN_INVEST, R_DECK_SIZE, R_PARK_SQUARE, R_SCHOOL_SQUARE = range(RULE_DATA.size, RULE_DATA.size + len(DERIVED))
RULE_SIZE = RULE_DATA.size + len(DERIVED)
_MONEY = 10 ** 9    # the most any amount of the [[property]], [[commodity]] and [[card]] entries may be


@dataclass(frozen=True)
class USRules:
    """Rules compiled for the kernel, for one player count."""

    vector: np.ndarray          # R_* layout
    table: np.ndarray           # properties, commodities, card types, squares (view.py sections)
    deck: np.ndarray            # card type of each card, unshuffled
    n_players: int
    properties: tuple[str, ...]
    blocks: tuple[str, ...]
    commodities: tuple[str, ...]
    card_types: tuple[str, ...]
    squares: tuple[str, ...]

    @property
    def commodity_row(self) -> int:
        return len(self.properties)

    @property
    def card_row(self) -> int:
        return self.commodity_row + len(self.commodities)

    @property
    def square_row(self) -> int:
        return self.card_row + len(self.card_types)

    @property
    def level(self) -> int:
        return int(self.vector[RULE_DATA.slot("game.level")])


def _money(rules, key, low=0):
    return require_int(rules, key, low, _MONEY)


def _entries(rules, key):
    entries = rules.get(key)
    if not isinstance(entries, list) or not entries:
        raise SimkitError(f"rules: {key} must be a non-empty array of tables")
    return entries


def prepare(rules: dict, n_players: int) -> USRules:
    """Validate effective rules for ``n_players`` and compile them (errors name the key)."""
    lo, hi = RULE_DATA.value(rules, "game.players_min"), RULE_DATA.value(rules, "game.players_max")
    if not lo <= n_players <= hi:
        raise SimkitError(f"wheeler-dealer-us takes {lo}-{hi} players (game.players_min/max), not {n_players}")
    squares = require_int(rules, "board.squares", 4, 200)

    # squares: corners and properties, each square exactly once
    square_kind = [-1] * squares
    square_prop = [-1] * squares
    square_name = [""] * squares

    def claim(square_key, kind, name):
        square = require_int(rules, square_key, 0, squares - 1)
        if square_kind[square] != -1:
            raise SimkitError(f"rules: {square_key} = {square} is already {square_name[square]}")
        square_kind[square], square_name[square] = kind, name
        return square

    for i, _ in enumerate(_entries(rules, "corner")):
        kind = require_str(rules, f"corner.{i}.kind")
        if kind not in CORNER_KINDS:
            raise SimkitError(f"rules: corner.{i}.kind = {kind!r}; allowed: {', '.join(CORNER_KINDS)}")
        claim(f"corner.{i}.square", SQ_PARK + CORNER_KINDS.index(kind), require_str(rules, f"corner.{i}.name"))
    for kind in ("park", "school"):
        if square_kind.count(SQ_PARK + CORNER_KINDS.index(kind)) != 1:
            raise SimkitError(f"rules: the board needs exactly one {kind} corner")

    ids, blocks, props = [], [], []
    for i, _ in enumerate(_entries(rules, "property")):
        pid = require_str(rules, f"property.{i}.id")
        if pid in ids:
            raise SimkitError(f"rules: property.{i}.id {pid!r} appears twice")
        block = require_str(rules, f"property.{i}.block")
        if block not in blocks:
            blocks.append(block)
        income = lookup(rules, f"property.{i}.income")
        if not isinstance(income, list) or not income or not all(isinstance(v, int) and not isinstance(v, bool)
                                                                 and 0 <= v <= _MONEY for v in income):
            raise SimkitError(f"rules: property.{i}.income must be a list of whole dollar multiples")
        square = claim(f"property.{i}.square", SQ_PROPERTY, pid)
        square_prop[square] = i
        ids.append(pid)
        props.append((square, blocks.index(block), _money(rules, f"property.{i}.cost", 1),
                      _money(rules, f"property.{i}.loan"), _money(rules, f"property.{i}.payoff"), income))
    for block in range(len(blocks)):
        members = [p for p in props if p[1] == block]
        if len(members) > MAX_BLOCK:
            raise SimkitError(f"rules: block {blocks[block]} has {len(members)} properties; at most {MAX_BLOCK}")
        for p in members:
            if len(p[5]) != len(members):
                pid = ids[props.index(p)]
                raise SimkitError(f"rules: property {pid} lists {len(p[5])} income multiples but block "
                                  f"{blocks[block]} has {len(members)} properties (one multiple per count held)")
    if -1 in square_kind:
        raise SimkitError(f"rules: square {square_kind.index(-1)} of board.squares = {squares} is neither a corner "
                          "nor a property")

    commodities, exchange = [], []
    for i, _ in enumerate(_entries(rules, "commodity")):
        commodities.append(require_str(rules, f"commodity.{i}.name"))
        wins = lookup(rules, f"commodity.{i}.wins")
        if (not isinstance(wins, list) or not wins or len(set(wins)) != len(wins)
                or not all(isinstance(t, int) and not isinstance(t, bool) and 2 <= t <= 12 for t in wins)):
            raise SimkitError(f"rules: commodity.{i}.wins must list distinct 2d6 totals 2..12")
        mask = sum(1 << t for t in wins)
        ways = sum(6 - abs(t - 7) for t in wins)
        exchange.append((_money(rules, f"commodity.{i}.invest", 1), _money(rules, f"commodity.{i}.total_return"),
                         ways, mask))
    min_invest = require_int(rules, "game.min_investment")
    cheapest = min(row[0] for row in exchange)
    if min_invest != cheapest:
        raise SimkitError(f"rules: game.min_investment = {min_invest} must equal the smallest commodity stake "
                          f"({cheapest})")

    types, deck = [], []
    for i, entry in enumerate(_entries(rules, "card")):
        kind = require_str(rules, f"card.{i}.kind")
        if kind not in CARD_KINDS:
            raise SimkitError(f"rules: card.{i}.kind = {kind!r}; allowed: {', '.join(CARD_KINDS)}")
        code = CARD_KINDS.index(kind)
        save = require_bool(rules, f"card.{i}.save") if "save" in entry else False
        percent = require_int(rules, f"card.{i}.percent", 0, 100) if code == CK_PAY_PERCENT else 0
        if "amounts" in entry:
            if code not in (CK_COLLECT, CK_PAY):
                raise SimkitError(f"rules: card.{i}.amounts is only for collect and pay cards")
            amounts = lookup(rules, f"card.{i}.amounts")
            if not isinstance(amounts, list) or not all(isinstance(a, int) and not isinstance(a, bool)
                                                        and 0 < a <= _MONEY for a in amounts):
                raise SimkitError(f"rules: card.{i}.amounts must be a list of positive whole dollars")
            cards = [(code, a, 0, save) for a in amounts]
        else:
            needs_amount = code in (CK_TAXI, CK_COLLECT, CK_PAY, CK_COLLECT_PER_PIP, CK_COLLECT_FROM_EACH)
            amount = require_int(rules, f"card.{i}.amount", -_MONEY, _MONEY) if needs_amount else 0
            cards = [(code, amount, percent, save)] * require_int(rules, f"card.{i}.count", 0, 1000)
        for card in cards:
            if card not in types:
                types.append(card)
            deck.append(types.index(card))
    deck_size = require_int(rules, "game.deck_size")
    if len(deck) != deck_size:
        raise SimkitError(f"rules: the [[card]] entries hold {len(deck)} cards but game.deck_size = {deck_size}")

    vector = np.zeros(RULE_SIZE, np.int64)
    vector[:RULE_DATA.size] = RULE_DATA.vector(rules)
    vector[R_MIN_INVEST] = min_invest
    vector[R_DECK_SIZE] = deck_size
    vector[R_PARK_SQUARE] = square_kind.index(SQ_PARK)
    vector[R_SCHOOL_SQUARE] = square_kind.index(SQ_SCHOOL)

    n_props = len(props)
    table = np.zeros((n_props + len(exchange) + len(types) + squares, TABLE_COLUMNS), np.int64)
    for i, (square, block, cost, loan, payoff, income) in enumerate(props):
        table[i, [P_SQUARE, P_BLOCK, P_COST, P_LOAN, P_PAYOFF, P_BLOCK_SIZE]] = (
            square, block, cost, loan, payoff, len(income))
        table[i, P_INCOME:P_INCOME + len(income)] = income
    row = n_props
    for invest, ret, ways, mask in exchange:
        table[row, [X_INVEST, X_RETURN, X_WAYS, X_MASK]] = (invest, ret, ways, mask)
        row += 1
    for code, amount, percent, save in types:
        table[row, [K_KIND, K_AMOUNT, K_PERCENT, K_SAVE]] = (code, amount, percent, save)
        row += 1
    for square in range(squares):
        table[row, B_KIND], table[row, B_PROPERTY] = square_kind[square], square_prop[square]
        row += 1
    type_names = tuple(CARD_KINDS[c] + (f" {a:+d}" if a else "") + (f" {p}%" if p else "") for c, a, p, _ in types)
    return USRules(vector, table, np.array(deck, np.int64), n_players, tuple(ids), tuple(blocks),
                   tuple(commodities), type_names, tuple(square_name))
