"""Hand-built Dweebies tables: ASCII art in, the engine's table arrays out, and back again.

A picture is rows of cells separated by spaces: a letter is a Dweebie (A = 0, B = 1, ... as replays draw
them), '.' an empty cell. Its top-left cell sits a few cells up-left of the grid's centre.
"""
from __future__ import annotations

import numpy as np

from simkit.games.dweebies.rules import SYMBOLS
from simkit.games.dweebies.table import EMPTY, adjacent_cells, count_groups, grid_side, link_cells, play_card

CARDS = 54
SIDE = grid_side(CARDS)
ORIGIN = (SIDE // 2 - 4) * SIDE + SIDE // 2 - 4


def at(row: int, col: int) -> int:
    """The grid cell of a picture's (row, column)."""
    return ORIGIN + row * SIDE + col


class Table:
    """The arrays the engine keeps for the table, filled from a picture; ``min_line`` is game.min_line (D9)."""

    def __init__(self, picture: str, min_line: int = 2):
        self.min_line = min_line
        self.declined = 0
        self.grid = np.full(SIDE * SIDE, EMPTY, np.int64)
        self.cells = np.empty(CARDS, np.int64)
        self.on_table = np.zeros(len(SYMBOLS), np.int64)
        self.taken = np.zeros(len(SYMBOLS), np.int64)
        self.label = np.full(SIDE * SIDE, -1, np.int64)
        self.stack = np.empty(CARDS, np.int64)
        self.mark = np.zeros(SIDE * SIDE, np.int64)
        self.removed = np.empty(CARDS, np.int64)
        self.n_on = 0
        for r, line in enumerate(picture.strip("\n").splitlines()):
            for c, symbol in enumerate(line.split()):
                if symbol != ".":
                    self.grid[at(r, c)] = SYMBOLS.index(symbol)
                    self.cells[self.n_on] = at(r, c)
                    self.on_table[SYMBOLS.index(symbol)] += 1
                    self.n_on += 1
        self.groups = count_groups(self.grid, SIDE, self.cells, self.n_on, self.label, self.stack)

    @property
    def split(self) -> bool:
        return self.groups > 1

    def play(self, symbol: str, row: int, col: int, collect: bool = True):
        """Place a card as the engine does; returns (cards taken with it, groups, reconnected). With
        ``collect=False`` (declining under game.collect = "may") ``self.declined`` is what it would have taken."""
        n_on, self.groups, row_taken, column_taken, reconnected, self.declined = play_card(
            self.grid, SIDE, self.cells, self.n_on, self.on_table, self.taken, self.label, self.stack, self.split,
            SYMBOLS.index(symbol), at(row, col), self.removed, self.min_line, collect)
        self.n_on = n_on
        taken = row_taken + column_taken
        return (taken + 1 if taken else 0), self.groups, reconnected

    def links(self):
        """The legal cells of a split table as picture (row, column) pairs, and the link length."""
        legal = np.empty(4 * CARDS, np.int64)
        count, length = link_cells(self.grid, SIDE, self.cells, self.n_on, self.label, self.groups, self.mark, 1,
                                   legal)
        return sorted(((x - ORIGIN) // SIDE, (x - ORIGIN) % SIDE) for x in legal[:count]), length

    def picture(self, rows: int, cols: int) -> str:
        return "\n".join(" ".join("." if self.grid[at(r, c)] == EMPTY else SYMBOLS[self.grid[at(r, c)]]
                                  for c in range(cols)) for r in range(rows))


def legal_cells(table: Table, split_rule: str = "shortest_link"):
    """The engine's legal cells for the next card (grid cells) and the link length (0 unless linking)."""
    legal = np.empty(4 * CARDS, np.int64)
    table.mark[:] = 0
    if table.n_on == 0:
        return [SIDE // 2 * SIDE + SIDE // 2], 0
    if table.split and split_rule == "shortest_link":
        n_legal, link = link_cells(table.grid, SIDE, table.cells, table.n_on, table.label, table.groups,
                                   table.mark, 1, legal)
        return list(legal[:n_legal]), link
    return list(legal[:adjacent_cells(table.grid, SIDE, table.cells, table.n_on, table.mark, 1, legal)]), 0


def decide(strategy, table: Table, hand: str, seat: int = 0, players: int = 4, pile: int = 20,
           hand_sizes=None, copies=None, seed: int = 1, collect: str = "must", split_rule: str = "shortest_link",
           full=False, params=None):
    """What a shipped strategy plays on a hand-built table (its min_line is the table's), with ``params``
    overriding its parameter values: ((symbol, row, col), the legal cells), and with ``full`` a third item, True
    if the move collects."""
    from simkit import rng
    from simkit.games.dweebies import view as V
    from simkit.strategy import registered

    strategy = registered("dweebies")[strategy] if isinstance(strategy, str) else strategy
    dweebies = 27
    copies = np.array(copies if copies is not None else [1] * 9 + [2] * 12 + [3] * 3 + [4] * 3, np.int64)
    held = np.zeros(dweebies, np.int64)
    for symbol in hand:
        held[SYMBOLS.index(symbol)] += 1
    cells, link = legal_cells(table, split_rule)
    legal = np.array(cells, np.int64)
    n_legal = legal.size
    public = np.zeros(V.public_length(players, dweebies), np.int64)
    rows = [c // SIDE for c in table.cells[:table.n_on]] or [-1]
    cols = [c % SIDE for c in table.cells[:table.n_on]] or [-1]
    public[:V.PUB_SPLIT_RULE + 1] = [seat, players, 0, pile, table.split, table.groups, link, n_legal, dweebies, SIDE,
                                table.n_on, min(rows), max(rows), min(cols), max(cols), 5, int(copies.sum()),
                                table.min_line, V.COLLECT_RULES.index(collect), V.SPLIT_RULES.index(split_rule)]
    sizes = hand_sizes if hand_sizes is not None else [len(hand)] * players
    base = V.PUB_HEADER
    public[base:base + players] = sizes
    public[base + 2 * players:base + 2 * players + dweebies] = copies
    public[base + 2 * players + 2 * dweebies:base + 2 * players + 3 * dweebies] = table.on_table[:dweebies]
    state = np.zeros(4, np.uint64)
    rng.seed_stream(state, seed, 0, rng.STRATEGY)
    before = table.grid.copy()
    move = strategy.decisions["place"](held, public, table.grid, legal[:n_legal], strategy.param_vector(params or {}),
                                       np.zeros(V.MEMORY_SIZE), state)
    assert np.array_equal(before, table.grid), "the strategy left its table view changed"
    cell = V.move_cell(move)
    answer = ((SYMBOLS[V.move_dweebie(move)], (cell - ORIGIN) // SIDE, (cell - ORIGIN) % SIDE),
              [((x - ORIGIN) // SIDE, (x - ORIGIN) % SIDE) for x in legal])
    return answer + (bool(V.move_collects(move)),) if full else answer
