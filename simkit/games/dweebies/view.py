"""What a Dweebies strategy sees (D7), and the Numba signature of its one decision (docs/rules/dweebies.md).

``place(hand, public, table, legal, params, memory, rng) -> move`` is called once per turn and returns
``pack_move(dweebie, cell)``: one Dweebie from the hand and one of the legal cells. Under
``game.collect = "may"`` (D9, ``public[PUB_COLLECT] == COLLECT_MAY``) ``pack_move(dweebie, cell, False)``
declines the collection the card would make; a move that does not say collects. Declining under "must",
a Dweebie not in the hand or a cell not legal is an illegal answer: the engine refuses it, counts it in
``illegal_actions`` and plays a random legal move instead (D8). It receives only:
  hand    int64[dweebies]: copies of each Dweebie in the seat's own hand;
  public  int64 vector: the PUB_* fields below, then per seat its hand size and cards collected, then
          per Dweebie its copies in the deck, copies collected so far and copies on the table, then the
          public history of plays, one row per turn played (``played``: seat, Dweebie, cell, cards collected);
  table   int64[side * side]: the table (table.EMPTY or a Dweebie); cell = row * side + col;
  legal   int64 vector: the cells where this turn's card may go (the first public[PUB_LEGAL] entries);
          on a split table under game.split_rule = "shortest_link" (D5) only cells on a shortest link;
plus the seat's parameters, a private ``memory`` of floats zeroed at the start of each game, and its
own random stream. Never another hand or the pile's order. Every array but ``memory`` and the random
stream is read-only (a strategy that writes to one fails to compile); one that looks ahead plays on its
own copy of the table: ``scratch_table`` makes one, ``scratch_place`` places a card on it by the engine's own
rules (collecting what the card collects) and ``scratch_undo`` takes the last placement back.
"""
import numpy as np
from numba import njit, types

from ... import rng
from ...numba_tools import readonly_array
from .table import EMPTY, collect_gain, collection_size, count_groups, joins_table, legal_cells, play_card

# the public header's fields by name; PUB_<NAME> is each one's place (tests/test_layouts.py checks them)
PUBLIC_FIELDS = ("seat", "players", "turn", "pile", "split", "groups", "link", "legal", "dweebies", "side",
                 "on_table", "top", "bottom", "left", "right", "hand_size", "cards", "min_line", "collect",
                 "split_rule")
(PUB_SEAT, PUB_PLAYERS, PUB_TURN, PUB_PILE, PUB_SPLIT, PUB_GROUPS, PUB_LINK, PUB_LEGAL, PUB_DWEEBIES,
 PUB_SIDE, PUB_ON_TABLE, PUB_TOP, PUB_BOTTOM, PUB_LEFT, PUB_RIGHT, PUB_HAND_SIZE, PUB_CARDS,
 PUB_MIN_LINE, PUB_COLLECT, PUB_SPLIT_RULE) = range(len(PUBLIC_FIELDS))
PUB_HEADER = len(PUBLIC_FIELDS)
MEMORY_SIZE = 1024

# D9 rule options as the rule vector and public[PUB_COLLECT] / public[PUB_SPLIT_RULE] give them
COLLECT_RULES = ("must", "may")
COLLECT_MUST, COLLECT_MAY = range(len(COLLECT_RULES))
SPLIT_RULES = ("shortest_link", "free")
SPLIT_SHORTEST_LINK, SPLIT_FREE = range(len(SPLIT_RULES))

# a move is dweebie << 32 | declines << 31 | cell; every int64 decodes to some (dweebie, declines, cell)
MOVE_SHIFT = 32
DECLINE = 1 << 31
CELL_MASK = DECLINE - 1

# What a strategy is shown is read-only (a write is a typing error when the strategy compiles); its memory
# and random stream are its own to write.
_shown = readonly_array(types.int64, 1)
_params = readonly_array(types.float64, 1)
_memory = types.Array(types.float64, 1, "A")
_rng_t = types.Array(types.uint64, 1, "A")
PLACE_SIGNATURE = types.int64(_shown, _shown, _shown, _shown, _params, _memory, _rng_t)
DECISIONS = {"place": PLACE_SIGNATURE}


HISTORY_FIELDS = 4   # per turn played: seat, Dweebie, cell, cards collected
(H_SEAT, H_DWEEBIE, H_CELL, H_COLLECTED) = range(HISTORY_FIELDS)


@njit(cache=True, _nrt=False)
def public_length(players, dweebies, cards=0):
    """The public vector's length; ``cards``: the deck's size (room for the history of plays)."""
    return PUB_HEADER + 2 * players + 3 * dweebies + HISTORY_FIELDS * cards


@njit(cache=True, _nrt=False)
def history_start(public):
    return PUB_HEADER + 2 * public[PUB_PLAYERS] + 3 * public[PUB_DWEEBIES]


@njit(cache=True, _nrt=False)
def played(public, turn):
    """The play of turn ``turn`` (0 .. public[PUB_TURN] - 1, every turn before this one): (seat, Dweebie, cell,
    cards collected; 0 when it collected nothing)."""
    at = history_start(public) + HISTORY_FIELDS * turn
    return public[at + H_SEAT], public[at + H_DWEEBIE], public[at + H_CELL], public[at + H_COLLECTED]


@njit(cache=True, _nrt=False)
def pack_move(dweebie, cell, collect=True):
    """The answer of ``place``; ``collect=False`` declines the collection (only under game.collect = "may")."""
    return (dweebie << MOVE_SHIFT) | cell | (0 if collect else DECLINE)


@njit(cache=True, _nrt=False)
def move_dweebie(move):
    return move >> MOVE_SHIFT


@njit(cache=True, _nrt=False)
def move_cell(move):
    return move & CELL_MASK


@njit(cache=True, _nrt=False)
def move_collects(move):
    return move & DECLINE == 0


@njit(cache=True, _nrt=False)
def hand_size_of(public, seat):
    return public[PUB_HEADER + seat]


@njit(cache=True, _nrt=False)
def collected_by(public, seat):
    return public[PUB_HEADER + public[PUB_PLAYERS] + seat]


@njit(cache=True, _nrt=False)
def copies_of(public, dweebie):
    """Copies of a Dweebie in the whole deck (the deck's makeup is public)."""
    return public[PUB_HEADER + 2 * public[PUB_PLAYERS] + dweebie]


@njit(cache=True, _nrt=False)
def collected_copies(public, dweebie):
    return public[PUB_HEADER + 2 * public[PUB_PLAYERS] + public[PUB_DWEEBIES] + dweebie]


@njit(cache=True, _nrt=False)
def table_copies(public, dweebie):
    return public[PUB_HEADER + 2 * public[PUB_PLAYERS] + 2 * public[PUB_DWEEBIES] + dweebie]


@njit(cache=True, _nrt=False)
def unseen(hand, public, dweebie):
    """Copies this seat has not seen: in the pile or in other hands."""
    return copies_of(public, dweebie) - collected_copies(public, dweebie) - table_copies(public, dweebie) - hand[dweebie]


@njit(cache=True, _nrt=False)
def unseen_total(hand, public):
    """Cards this seat has not seen (the pile plus the other hands)."""
    total = public[PUB_PILE]
    for p in range(public[PUB_PLAYERS]):
        if p != public[PUB_SEAT]:
            total += hand_size_of(public, p)
    return total


@njit(cache=True)
def deal_unseen(hand, public, rng_state, hands, pile):
    """One determinisation for a seat that looks ahead (D7): the cards it has not seen (each Dweebie's copies
    in the deck minus those collected, on the table and in its own hand) shuffled with its own random stream
    and dealt out as the other hands, each of its public size, then as the pile in a random order.

    Fills ``hands`` (int64[players, dweebies]: the seat's own row is its hand) and ``pile[:n]``; returns n.
    Only the deck's makeup and what the seat was shown are used, so no Dweebie is dealt more often than its
    unseen copies (if the counts shown disagree, hands and pile get fewer cards, never invented ones)."""
    players, me = public[PUB_PLAYERS], public[PUB_SEAT]
    total = 0
    for d in range(hand.size):
        total += max(0, unseen(hand, public, d))
    pool = np.empty(total, np.int64)
    i = 0
    for d in range(hand.size):
        for _ in range(unseen(hand, public, d)):
            pool[i] = d
            i += 1
    rng.shuffle(rng_state, pool)
    hands[:, :] = 0
    hands[me, :] = hand
    i = 0
    for p in range(players):
        if p != me:
            for _ in range(min(hand_size_of(public, p), total - i)):
                hands[p, pool[i]] += 1
                i += 1
    n = min(public[PUB_PILE], total - i)
    pile[:n] = pool[i:i + n]
    return n


@njit(cache=True, _nrt=False)
def next_seat(public):
    """The next seat that will still hold a card after this turn (-1 if none): the opponent a move sets up."""
    n = public[PUB_PLAYERS]
    me = public[PUB_SEAT]
    for k in range(1, n + 1):
        p = (me + k) % n
        cards = hand_size_of(public, p)
        if p == me:  # this seat places one card and draws one if the pile has any
            cards += -1 if public[PUB_PILE] == 0 else 0
        if cards > 0:
            return p
    return -1


@njit(cache=True, _nrt=False)
def next_to_play(hand_sizes, actor):
    """Who plays the turn that comes to ``actor``: ``actor`` or the first seat after it still holding a card
    (an empty hand is skipped); -1 when every hand is empty and the game is over."""
    n = hand_sizes.size
    for k in range(n):
        p = (actor + k) % n
        if hand_sizes[p] > 0:
            return p
    return -1


@njit(cache=True, _nrt=False)
def random_move(hand, legal, n_legal, rng_state):
    """D8: a uniform choice among the distinct (Dweebie in hand, legal cell) pairs."""
    kinds = 0
    for d in range(hand.size):
        if hand[d] > 0:
            kinds += 1
    pick = rng.below(rng_state, kinds * n_legal)
    kind, cell = pick // n_legal, legal[pick % n_legal]
    for d in range(hand.size):
        if hand[d] > 0:
            if kind == 0:
                return pack_move(d, cell)
            kind -= 1
    return pack_move(-1, cell)


# ---- a scratch table for look-ahead: place, collect and undo by the engine's own rules ----
# scratch = (grid, cells, info, undo, on_table, taken, label, stack, removed): a writable copy of the table, the
# cells holding cards (cells[:info[SC_ON_TABLE]]), the placements made on it (undo rows, newest last) and the
# engine's working arrays. Its ``on_table`` and ``taken`` count what the placements moved (Dweebies put on and
# taken off since the copy).
(SC_ON_TABLE, SC_GROUPS, SC_SPLIT, SC_DEPTH, SC_MIN_LINE) = range(5)
(U_CELL, U_ON_TABLE, U_GROUPS, U_SPLIT, U_REMOVED) = range(5)    # an undo row, then its removed cells' (cell, Dweebie)


@njit(cache=True)
def scratch_table(table, public):
    """A writable copy of the table a seat is shown (D7), for trying placements on: see scratch_place."""
    side, cards = public[PUB_SIDE], public[PUB_CARDS]
    grid = table.copy()
    cells = np.empty(cards + 1, np.int64)
    n = 0
    for r in range(public[PUB_TOP], public[PUB_BOTTOM] + 1):
        for c in range(public[PUB_LEFT], public[PUB_RIGHT] + 1):
            if grid[r * side + c] != EMPTY:
                cells[n] = r * side + c
                n += 1
    info = np.zeros(5, np.int64)
    info[SC_ON_TABLE] = n
    info[SC_GROUPS] = public[PUB_GROUPS] if n > 0 else 1
    info[SC_SPLIT] = public[PUB_SPLIT]
    info[SC_MIN_LINE] = public[PUB_MIN_LINE]
    dweebies = public[PUB_DWEEBIES]
    return (grid, cells, info, np.zeros((cards + 1, U_REMOVED + 2 * cards + 2), np.int64),
            np.zeros(dweebies, np.int64), np.zeros(dweebies, np.int64), np.full(grid.size, -1, np.int64),
            np.empty(cards + 1, np.int64), np.empty(cards + 1, np.int64))


@njit(cache=True)
def scratch_place(scratch, dweebie, cell, collect=True):
    """Place ``dweebie`` on the empty ``cell`` of a scratch table as the engine would (D3-D5, D9: collected lines
    leave the table, a split table collects nothing until a card joins it; ``collect=False`` declines);
    returns the cards collected (0: none). The cell is not checked for legality (``scratch_legal`` lists the
    legal ones). ``scratch_undo`` takes it back."""
    grid, cells, info, undo, on_table, taken, label, stack, removed = scratch
    side = int(np.sqrt(grid.size) + 0.5)
    row = undo[info[SC_DEPTH]]
    row[U_CELL], row[U_ON_TABLE], row[U_GROUPS], row[U_SPLIT] = cell, info[SC_ON_TABLE], info[SC_GROUPS], info[SC_SPLIT]
    # the cards in line with the cell, the only ones a collection can take (noted before they leave the table)
    n_line = 0
    for step in (1, -1, side, -side):
        x = cell + step
        while grid[x] != EMPTY:
            stack[n_line] = x
            n_line += 1
            x += step
    lined = np.empty((n_line, 2), np.int64)
    for k in range(n_line):
        lined[k, 0], lined[k, 1] = stack[k], grid[stack[k]]
    n_on, groups, row_taken, column_taken, _, _ = play_card(
        grid, side, cells, info[SC_ON_TABLE], on_table, taken, label, stack, info[SC_SPLIT] != 0, dweebie, cell,
        removed, info[SC_MIN_LINE], collect)
    got = collection_size(row_taken, column_taken)
    row[U_REMOVED] = got
    for k in range(got):    # the collected cells (the placed card last) and their Dweebies
        row[U_REMOVED + 1 + 2 * k] = removed[k]
        row[U_REMOVED + 2 + 2 * k] = dweebie
        for j in range(n_line):
            if lined[j, 0] == removed[k]:
                row[U_REMOVED + 2 + 2 * k] = lined[j, 1]
    info[SC_ON_TABLE], info[SC_GROUPS], info[SC_SPLIT] = n_on, groups, groups > 1
    info[SC_DEPTH] += 1
    return got


@njit(cache=True)
def scratch_undo(scratch):
    """Take back the last placement on a scratch table (its collection returns to the table)."""
    grid, cells, info, undo, on_table, taken, label, stack, removed = scratch
    info[SC_DEPTH] -= 1
    row = undo[info[SC_DEPTH]]
    got = row[U_REMOVED]
    for k in range(got):
        x, d = row[U_REMOVED + 1 + 2 * k], row[U_REMOVED + 2 + 2 * k]
        grid[x] = d
        taken[d] -= 1
        on_table[d] += 1
    placed = grid[row[U_CELL]]
    grid[row[U_CELL]] = EMPTY
    on_table[placed] -= 1
    # the cards before the placement: those left on it, less the placed card, plus the ones collected
    n = 0
    for k in range(info[SC_ON_TABLE]):
        if cells[k] != row[U_CELL]:
            cells[n] = cells[k]
            n += 1
    for k in range(got):
        if row[U_REMOVED + 1 + 2 * k] != row[U_CELL]:
            cells[n] = row[U_REMOVED + 1 + 2 * k]
            n += 1
    info[SC_ON_TABLE], info[SC_GROUPS], info[SC_SPLIT] = row[U_ON_TABLE], row[U_GROUPS], row[U_SPLIT]


@njit(cache=True)
def scratch_legal(scratch, public, out):
    """The legal cells of the next placement on a scratch table (the engine's ``table.legal_cells``), written to
    ``out`` (room for 4 * cards + 4); returns how many."""
    grid, cells, info, undo, on_table, taken, label, stack, removed = scratch
    side = public[PUB_SIDE]
    n_on = info[SC_ON_TABLE]
    groups = info[SC_GROUPS]
    if info[SC_SPLIT] != 0:
        groups = count_groups(grid, side, cells, n_on, label, stack)
    mark = np.zeros(grid.size, np.int64)
    return legal_cells(grid, side, cells, n_on, label, groups, info[SC_SPLIT] != 0,
                       public[PUB_SPLIT_RULE] == SPLIT_SHORTEST_LINK, mark, 1, out)[0]


@njit(cache=True)
def scratch_gain(scratch, dweebie, cell):
    """Cards a card of ``dweebie`` on the empty ``cell`` would collect now, the scratch table left as it is."""
    grid, cells, info, undo, on_table, taken, label, stack, removed = scratch
    side = int(np.sqrt(grid.size) + 0.5)
    if info[SC_ON_TABLE] == 0:
        return 0
    got = collect_gain(grid, side, cell, dweebie, info[SC_MIN_LINE])
    if got > 0 and info[SC_SPLIT] != 0 and not joins_table(grid, side, cell, 1, side - 2, 1, side - 2):
        return 0
    return got
