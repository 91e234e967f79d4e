"""Validation of Wheeler Dealer (UK) rule data and its compilation into the kernel's arrays (the rules as
played: docs/rules/wheeler-dealer-uk.md)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...errors import SimkitError
from ...rules import lookup, require_int, require_str
from .view import (
    COLOURS,
    H_COLOUR,
    H_COMMODITIES,
    H_COPIES,
    H_FACE,
    H_HELD,
    H_IN_PACK,
    H_INNER,
    H_INNER_ENTRY,
    H_INNER_SPACES,
    H_INNER_WEALTH,
    H_LEVEL,
    H_MULTIPLE,
    H_ON_SALE,
    H_OUTER,
    H_OUTER_SPACES,
    H_PACK_SIZE,
    H_PLAYERS,
    H_REDEEMABLE,
    H_RISK,
    H_SEATS,
    H_TARGET,
    HEADER,
    MAX_COMMODITIES,
    MAX_SET,
    RULE_DATA,
    SEAT_FIELDS,
    SPACE_CODES,
)

# The allowed values of every option are written once, in rules.toml's comments (`simkit rules --options`
# shows them); validation reads them from there (view.RULE_DATA). The compiled rules are the public table's
# header (view.py): the rule vector RULE_DATA.vector derives, then what prepare derives besides (H_*).

SIZE_CAP = 4   # "size_capped": the multiple is the set size, at most 4

# Command card kinds (the rule data's command.kind words, C_* their codes in this order) and the key each entry
# gives its cards by
COMMAND_KINDS = ("collect", "pay", "pay_cash_percent", "collect_from_each_player", "pay_each_player", "free_card",
                 "discard_cheapest", "miss_turn", "move", "advance_to_blue", "bank_buys_best", "redeem_at_risk")
(C_COLLECT, C_PAY, C_PAY_CASH_PERCENT, C_COLLECT_FROM_EACH, C_PAY_EACH, C_FREE_CARD, C_DISCARD_CHEAPEST,
 C_MISS_TURN, C_MOVE, C_ADVANCE_TO_BLUE, C_BANK_BUYS_BEST, C_REDEEM_AT_RISK) = range(len(COMMAND_KINDS))
_COMMAND_VALUE = {C_COLLECT: "amount", C_PAY: "amount", C_PAY_CASH_PERCENT: "percent", C_COLLECT_FROM_EACH: "amount",
                  C_PAY_EACH: "amount", C_FREE_CARD: "colours", C_MOVE: "steps"}
_MONEY = 10 ** 9    # the most any amount of the [[command]], [[pack]] and [[level]] entries may be


@dataclass(frozen=True)
class UKRules:
    """Rules compiled for the kernel, for one player count."""

    table: np.ndarray           # the public table's static part (view.py layout); the engine fills the rest
    commands: np.ndarray        # [cards, 2]: kind, value of each Command card, unshuffled
    start_hand: np.ndarray      # cards of each pack colour dealt to every player
    start_cash: int
    n_players: int
    commodities: tuple[str, ...]
    level: int

    @property
    def pack_cards(self) -> int:
        return int(self.table[self.table[H_COPIES]:self.table[H_COPIES] + len(self.commodities)].sum())


def _board(rules, key) -> list[int]:
    text = require_str(rules, key)
    spaces = "".join(text.split())
    bad = sorted(set(spaces) - set(SPACE_CODES))
    if bad or not spaces:
        raise SimkitError(f"rules: {key} must be space colours R, G, Y, B (spaces ignored), not {text!r}")
    return [SPACE_CODES.index(ch) for ch in spaces]


def _commands(rules) -> np.ndarray:
    entries = rules.get("command")
    if not isinstance(entries, list) or not entries:
        raise SimkitError("rules: command must be a non-empty array of tables")
    cards = []
    for i, entry in enumerate(entries):
        kind_name = require_str(rules, f"command.{i}.kind")
        if kind_name not in COMMAND_KINDS:
            raise SimkitError(f"rules: command.{i}.kind = {kind_name!r}; allowed: {', '.join(COMMAND_KINDS)}")
        kind = COMMAND_KINDS.index(kind_name)
        value_key = _COMMAND_VALUE.get(kind)
        if value_key == "colours":
            values = lookup(rules, f"command.{i}.colours")
            if not isinstance(values, list) or not values or any(v not in COLOURS for v in values):
                raise SimkitError(f"rules: command.{i}.colours must list pack colours ({', '.join(COLOURS)})")
            values = [COLOURS.index(v) for v in values]
        elif value_key == "steps":
            values = lookup(rules, f"command.{i}.steps")
            if not isinstance(values, list) or not values or any(isinstance(v, bool) or not isinstance(v, int)
                                                                 or v == 0 or abs(v) > 100 for v in values):
                raise SimkitError(f"rules: command.{i}.steps must list non-zero whole numbers of spaces")
        elif value_key == "amount" and "amounts" in entry:
            values = lookup(rules, f"command.{i}.amounts")
            if not isinstance(values, list) or not values or any(isinstance(v, bool) or not isinstance(v, int)
                                                                 or not 0 <= v <= _MONEY for v in values):
                raise SimkitError(f"rules: command.{i}.amounts must list whole numbers of credits")
        else:
            count = require_int(rules, f"command.{i}.count", 1, 100)
            value = 0
            if value_key == "percent":
                value = require_int(rules, f"command.{i}.percent", 0, 100)
            elif value_key == "amount":
                value = require_int(rules, f"command.{i}.amount", 0, _MONEY)
            values = [value] * count
        cards += [(kind, v) for v in values]
    return np.array(cards, np.int64)


def _multiples(rules, min_set) -> np.ndarray:
    """multiple[colour, cards] for sets of ``cards`` cards (the data's set_multiple_rule)."""
    rule = RULE_DATA.value(rules, "game.set_multiple_rule")
    table = np.zeros((len(COLOURS), MAX_SET + 1), np.int64)
    cards = np.arange(MAX_SET + 1)
    if rule == "colour":
        extra = RULE_DATA.value(rules, "game.set_multiple_extra_per_card")
        for k, name in enumerate(COLOURS):
            base = RULE_DATA.entry(rules, "game.set_multiple_colour", name)
            table[k] = base + extra * np.maximum(cards - min_set, 0)
    elif rule == "size":
        sizes = lookup(rules, "game.set_multiple_size")
        if not isinstance(sizes, dict) or not sizes or not all(str(k).isdigit() for k in sizes):
            raise SimkitError("rules: game.set_multiple_size must map set sizes to multiples, e.g. { 3 = 2, 4 = 3 }")
        steps = sorted((int(k), RULE_DATA.entry(rules, "game.set_multiple_size", k)) for k in sizes)
        if steps[0][0] > min_set:
            raise SimkitError(f"rules: game.set_multiple_size has no multiple for a set of {min_set} (game.min_set)")
        for size, value in steps:   # a size beyond the table takes the largest size's multiple
            table[:, size:] = value
    else:
        table[:] = np.minimum(cards, SIZE_CAP)
    table[:, :min_set] = 0
    return table


def prepare(rules: dict, n_players: int) -> UKRules:
    """Validate effective rules for ``n_players`` and compile them (errors name the key)."""
    lo, hi = RULE_DATA.value(rules, "game.players_min"), RULE_DATA.value(rules, "game.players_max")
    if not lo <= n_players <= hi:
        raise SimkitError(f"wheeler-dealer-uk takes {lo}-{hi} players (game.players_min/max), not {n_players}")
    level = require_int(rules, "game.level")
    levels = rules.get("level")
    if not isinstance(levels, list) or not levels:
        raise SimkitError("rules: level must be a non-empty array of tables")
    known = [require_int(rules, f"level.{i}.level", 1, 99) for i in range(len(levels))]
    if level not in known:
        raise SimkitError(f"rules: game.level = {level}; the data has levels {', '.join(map(str, known))}")
    at = known.index(level)
    RULE_DATA.value(rules, "game.empty_pack")   # K6: "no_card", the one way simulated

    packs = rules.get("pack")
    if not isinstance(packs, list) or not packs:
        raise SimkitError("rules: pack must be a non-empty array of tables")
    names, faces, colours, copies = [], [], [], []
    seen_colours = []
    for i in range(len(packs)):
        pack_colour = require_str(rules, f"pack.{i}.colour")
        if pack_colour not in COLOURS or pack_colour in seen_colours:
            raise SimkitError(f"rules: pack.{i}.colour = {pack_colour!r}; each of {', '.join(COLOURS)} once")
        seen_colours.append(pack_colour)
        pack_copies = require_int(rules, f"pack.{i}.copies", 1, MAX_SET)
        items = lookup(rules, f"pack.{i}.commodities")
        if not isinstance(items, list) or not items:
            raise SimkitError(f"rules: pack.{i}.commodities must list [name, face value] pairs")
        for j, item in enumerate(items):
            if (not isinstance(item, list) or len(item) != 2 or not isinstance(item[0], str) or not item[0].strip()
                    or isinstance(item[1], bool) or not isinstance(item[1], int) or not 1 <= item[1] <= _MONEY):
                raise SimkitError(f"rules: pack.{i}.commodities.{j} must be [name, face value > 0], not {item!r}")
            if item[0] in names:
                raise SimkitError(f"rules: commodity {item[0]!r} appears twice")
            names.append(item[0])
            faces.append(item[1])
            colours.append(COLOURS.index(pack_colour))
            copies.append(pack_copies)
    if len(names) > MAX_COMMODITIES:
        raise SimkitError(f"rules: at most {MAX_COMMODITIES} commodities, not {len(names)}")

    start = lookup(rules, "game.start_hand")
    if not isinstance(start, dict) or set(start) - set(COLOURS):
        raise SimkitError(f"rules: game.start_hand must map pack colours ({', '.join(COLOURS)}) to cards")
    start_hand = np.zeros(len(COLOURS), np.int64)
    for name in start:
        start_hand[COLOURS.index(name)] = RULE_DATA.entry(rules, "game.start_hand", name)
        in_pack = sum(k for k, col in zip(copies, colours) if col == COLOURS.index(name))
        if start_hand[COLOURS.index(name)] * n_players > in_pack:
            raise SimkitError(f"rules: game.start_hand.{name} = {start_hand[COLOURS.index(name)]} for {n_players} "
                              f"players needs more than the {in_pack} {name} cards")

    outer, inner = _board(rules, "board.outer"), _board(rules, "board.inner")
    if 3 not in outer:
        raise SimkitError("rules: board.outer needs a blue space (B): tokens start on one")
    min_set = RULE_DATA.value(rules, "game.min_set")
    multiples = _multiples(rules, min_set)
    commands = _commands(rules)
    if (commands[:, 0] == C_FREE_CARD).any() and not set(commands[commands[:, 0] == C_FREE_CARD, 1]) <= set(colours):
        raise SimkitError("rules: a free_card command names a colour with no pack")

    c = len(names)
    header = {
        H_PLAYERS: n_players, H_COMMODITIES: c, H_LEVEL: level,
        H_TARGET: require_int(rules, f"level.{at}.target_wealth", 1, _MONEY * 100),
        H_INNER_WEALTH: require_int(rules, f"level.{at}.inner_circle_wealth", 0, _MONEY * 100),
        H_OUTER_SPACES: len(outer), H_INNER_SPACES: len(inner),
        H_INNER_ENTRY: require_int(rules, "board.inner_entry", 0, len(inner) - 1),
    }
    sections = [(H_FACE, faces), (H_COLOUR, colours), (H_COPIES, copies), (H_MULTIPLE, multiples.ravel().tolist()),
                (H_OUTER, outer), (H_INNER, inner), (H_SEATS, [0] * (n_players * SEAT_FIELDS)),
                (H_HELD, [0] * (n_players * c)), (H_RISK, [0] * (n_players * c)), (H_IN_PACK, [0] * c),
                (H_PACK_SIZE, [0] * len(COLOURS)), (H_ON_SALE, [0] * c), (H_REDEEMABLE, [0] * c)]
    size = HEADER + sum(len(values) for _, values in sections)
    table = np.zeros(size, np.int64)
    # the rule vector validates every option (game.outer_dice and inner_dice too: the one count of each simulated)
    table[:RULE_DATA.size] = RULE_DATA.vector(rules)
    for key, value in header.items():
        table[key] = value
    offset = HEADER
    for key, values in sections:
        table[key] = offset
        table[offset:offset + len(values)] = values
        offset += len(values)
    start_cash = RULE_DATA.value(rules, "game.start_cash")
    return UKRules(table, commands, start_hand, start_cash, n_players, tuple(names), level)
