"""The Dweebies engine: a batch of games in one Numba kernel (the rules as simulated, decisions D1-D9:
docs/rules/dweebies.md).

``play_batch`` allocates the outputs and the working state; the private kernel ``_play`` is a pure function
of (seed, game indices, deck, strategies) and allocates nothing. A game is dealt (``_deal``), played a turn
at a time (``_turn``) and totalled (``_end``); everything between two turns lives in the working state, so
``start``, ``GameState.copy`` and ``step`` can stop a game at any decision, copy it and play it on. Strategies arrive as a tuple of
first-class functions, one per seat padded to MAX_SEATS, so one cached compilation serves every line-up
and every user strategy.
"""
from dataclasses import dataclass

import numpy as np
from numba import njit

from ... import rng
from ...guard import deciding
from ...numba_tools import EVENT_FIELDS, append_event, readonly
from . import SEAT_STATS
from .rules import MAX_SEATS, R_COLLECT, R_HAND_SIZE, R_MIN_LINE, R_SPLIT_RULE
from .table import EMPTY, collection_size, grid_side, legal_cells_into, play_card
from .view import (
    COLLECT_MUST,
    H_CELL,
    H_COLLECTED,
    H_DWEEBIE,
    H_SEAT,
    HISTORY_FIELDS,
    MEMORY_SIZE,
    PUB_BOTTOM,
    PUB_CARDS,
    PUB_COLLECT,
    PUB_DWEEBIES,
    PUB_GROUPS,
    PUB_HAND_SIZE,
    PUB_HEADER,
    PUB_LEFT,
    PUB_LEGAL,
    PUB_LINK,
    PUB_MIN_LINE,
    PUB_ON_TABLE,
    PUB_PILE,
    PUB_PLAYERS,
    PUB_RIGHT,
    PUB_SEAT,
    PUB_SIDE,
    PUB_SPLIT,
    PUB_SPLIT_RULE,
    PUB_TOP,
    PUB_TURN,
    SPLIT_SHORTEST_LINK,
    move_cell,
    move_collects,
    move_dweebie,
    next_to_play,
    public_length,
    random_move,
)

# the per-seat counters' places, by name (SEAT_STATS, the result columns in order, is declared with their
# meanings in __init__.py)
S_COLLECTED = SEAT_STATS.index("collected")
S_COLLECTIONS = SEAT_STATS.index("collections")
S_LARGEST = SEAT_STATS.index("largest_collection")
S_LINES = SEAT_STATS.index("lines_collected")
S_ILLEGAL = SEAT_STATS.index("illegal_actions")
S_LINK_PLACEMENTS = SEAT_STATS.index("link_placements")
S_RECONNECTIONS = SEAT_STATS.index("reconnections")
S_SPLITS_CAUSED = SEAT_STATS.index("splits_caused")
S_DECLINED = SEAT_STATS.index("declined")
S_TWO_CARD_LINES = SEAT_STATS.index("two_card_lines")
GAME_STATS = ("turns", "splits", "left_on_table", "restarts", "most_groups")
G_TURNS, G_SPLITS, G_LEFT, G_RESTARTS, G_MOST_GROUPS = range(len(GAME_STATS))

# event log (replay, numba_tools.append_event): one row per happening: turn, seat, kind, the Dweebie, the cell,
# two more arguments
EV_TURN, EV_SEAT, EV_KIND, EV_DWEEBIE, EV_CELL, EV_A, EV_B = range(EVENT_FIELDS)
EVENT_KINDS = ("deal", "place", "illegal", "collect", "split", "link_cell", "reconnect", "draw", "emptied",
               "decline", "still_split")
(E_DEAL, E_PLACE, E_ILLEGAL, E_COLLECT, E_SPLIT, E_LINK_CELL, E_RECONNECT, E_DRAW, E_EMPTIED, E_DECLINE,
 E_STILL_SPLIT) = range(len(EVENT_KINDS))


@njit(cache=True, _nrt=False)
def _log(events, count, turn, seat, kind, dweebie, cell, a, b):
    count[0] = append_event(events, count[0], turn, seat, kind, dweebie, cell, a, b)


@njit(cache=True, _nrt=False)
def _check(hands, hand_sizes, pile, on_table, taken, copies, grid, cells, n_on):
    """Checking mode's conservation laws (element loops: the kernel runs without the runtime). A strategy
    cannot change the table it is shown (its view is read-only), so that needs no check."""
    n_players, dweebies = hands.shape
    total_on = 0
    for d in range(dweebies):
        held = 0
        for p in range(n_players):
            held += hands[p, d]
        if held + pile[d] + on_table[d] + taken[d] != copies[d]:
            raise AssertionError("dweebies: cards not conserved (deck = collected + table + hands + pile)")
        total_on += on_table[d]
    for p in range(n_players):
        held = 0
        for d in range(dweebies):
            if hands[p, d] < 0:
                raise AssertionError("dweebies: a hand's size does not match its cards")
            held += hands[p, d]
        if held != hand_sizes[p]:
            raise AssertionError("dweebies: a hand's size does not match its cards")
    if total_on != n_on:
        raise AssertionError("dweebies: the table's card count is off")
    for i in range(n_on):
        if grid[cells[i]] == EMPTY:
            raise AssertionError("dweebies: a listed table cell is empty")


# a game's scalars between turns (the working state's last array), so that a game can stop after any turn, be
# copied and go on (``start``, ``GameState.copy``, ``step``). The turn and its neighbours are inlined into the
# kernels (inline="always"): called as functions, their two dozen array arguments cost ordinary runs ~7%.
STATE_FIELDS = 8
(ST_NEXT_CARD, ST_ON_TABLE, ST_SPLIT, ST_GROUPS, ST_MOST_GROUPS, ST_TURN, ST_ACTOR, ST_STAMP) = range(STATE_FIELDS)


def _work_arrays(n_players, copies):
    """The kernel's working state, allocated by its caller: the kernel allocates nothing, so it is compiled
    without reference counting (every array view it makes or hands a strategy would otherwise cost an atomic
    increment and decrement), and arrays from the caller reach the strategies uncounted. The grid starts
    empty and the kernel empties it after each game. Everything a game in progress needs is here (the last
    array holds its scalars, ST_*): a copy of every array is a copy of the game."""
    dweebies, total = copies.size, int(copies.sum())
    area = grid_side(total) ** 2
    int_arrays = [np.zeros(shape, np.int64) for shape in (
        area, 4 * area, total, total, total, total, 4 * total + 4, (n_players, dweebies), n_players, n_players,
        dweebies, dweebies, dweebies, public_length(n_players, dweebies, total))]
    return (np.full(area, EMPTY, np.int64), np.full(area, -1, np.int64), *int_arrays,
            np.zeros((n_players, MEMORY_SIZE)), np.zeros(4, np.uint64), np.zeros(4, np.uint64),
            np.zeros((n_players, 4), np.uint64), np.zeros(STATE_FIELDS, np.int64))


@njit(cache=True, _nrt=False, inline="always")
def _deal(seed, game, n_players, copies, rules, record, events, event_count, work):
    """Start game ``game``: seed its streams, shuffle and deal (D2), fill the public vector's fixed fields."""
    hand_size = rules[R_HAND_SIZE]
    dweebies = copies.size
    total = copies.sum()
    (grid, label, mark, link_scratch, deck, cells, stack, removed, legal, hands, hand_sizes, collected, on_table,
     taken, pile_left, public, memory, deal_rng, fallback_rng, strategy_rng, state) = work
    per_dweebie = PUB_HEADER + 2 * n_players
    public[PUB_PLAYERS] = n_players
    public[PUB_DWEEBIES] = dweebies
    public[PUB_SIDE] = grid_side(total)
    public[PUB_HAND_SIZE] = hand_size
    public[PUB_CARDS] = total
    public[PUB_MIN_LINE] = rules[R_MIN_LINE]
    public[PUB_COLLECT] = rules[R_COLLECT]
    public[PUB_SPLIT_RULE] = rules[R_SPLIT_RULE]
    for d in range(dweebies):   # element loops throughout: an array assignment would need the runtime
        public[per_dweebie + d] = copies[d]
    rng.seed_stream(deal_rng, seed, game, rng.DEAL)
    rng.seed_stream(fallback_rng, seed, game, rng.TIE_BREAK)
    for p in range(n_players):
        rng.seed_stream(strategy_rng[p], seed, game, rng.STRATEGY + p)
    memory[:, :] = 0.0
    i = 0
    for d in range(dweebies):
        for _ in range(copies[d]):
            deck[i] = d
            i += 1
    rng.shuffle(deal_rng, deck)
    hands[:, :] = 0
    collected[:] = 0
    on_table[:] = 0
    taken[:] = 0
    for d in range(dweebies):
        pile_left[d] = copies[d]
    for i in range(n_players * hand_size):  # dealt one at a time from seat 0 (D2)
        hands[i % n_players, deck[i]] += 1
        pile_left[deck[i]] -= 1
        if record:
            _log(events, event_count, -1, i % n_players, E_DEAL, deck[i], -1, 0, 0)
    hand_sizes[:] = hand_size
    state[ST_NEXT_CARD] = n_players * hand_size
    state[ST_ON_TABLE] = 0
    state[ST_SPLIT] = 0
    state[ST_GROUPS] = 1
    state[ST_MOST_GROUPS] = 1
    state[ST_TURN] = 0
    state[ST_ACTOR] = 0


@njit(cache=True, _nrt=False, inline="always")
def _turn(n_players, copies, rules, places, params, check, record, stats, game_stats, sizes, events, event_count,
          work):
    """Play the next turn of the game in ``work`` (its seat's decision included); False, and nothing played,
    when every hand is empty. ``stats`` and ``game_stats``: the game's output rows."""
    min_line = rules[R_MIN_LINE]
    may_decline = rules[R_COLLECT] != COLLECT_MUST
    shortest_link = rules[R_SPLIT_RULE] == SPLIT_SHORTEST_LINK
    dweebies = copies.size
    (grid, label, mark, link_scratch, deck, cells, stack, removed, legal, hands, hand_sizes, collected, on_table,
     taken, pile_left, public, memory, deal_rng, fallback_rng, strategy_rng, state) = work
    total = deck.size
    side = public[PUB_SIDE]
    seats = PUB_HEADER
    per_dweebie = PUB_HEADER + 2 * n_players
    next_card, n_on, split, groups = state[ST_NEXT_CARD], state[ST_ON_TABLE], state[ST_SPLIT] != 0, state[ST_GROUPS]
    turn = state[ST_TURN]
    actor = next_to_play(hand_sizes, state[ST_ACTOR])
    if actor < 0:
        return False
    stamp = state[ST_STAMP] + 1
    state[ST_STAMP] = stamp
    n_legal, link = legal_cells_into(grid, side, cells, n_on, label, groups, split, shortest_link, mark,
                                     stamp, legal, link_scratch)
    if split and record:
        if shortest_link:
            for k in range(n_legal):
                _log(events, event_count, turn, actor, E_LINK_CELL, -1, legal[k], link, groups)
        else:  # split_rule "free" (D9): every cell next to a card
            _log(events, event_count, turn, actor, E_STILL_SPLIT, -1, -1, 0, groups)

    public[PUB_SEAT] = actor
    public[PUB_TURN] = turn
    public[PUB_PILE] = total - next_card
    public[PUB_SPLIT] = split
    public[PUB_GROUPS] = groups if n_on > 0 else 0
    public[PUB_LINK] = link if split and shortest_link else 0
    public[PUB_LEGAL] = n_legal
    public[PUB_ON_TABLE] = n_on
    top, bottom, left, right = side, -1, side, -1
    for k in range(n_on):
        r, c = cells[k] // side, cells[k] % side
        top, bottom, left, right = min(top, r), max(bottom, r), min(left, c), max(right, c)
    public[PUB_TOP], public[PUB_BOTTOM], public[PUB_LEFT], public[PUB_RIGHT] = top, bottom, left, right
    for p in range(n_players):
        public[seats + p] = hand_sizes[p]
        public[seats + n_players + p] = collected[p]
    for d in range(dweebies):
        public[per_dweebie + dweebies + d] = taken[d]
        public[per_dweebie + 2 * dweebies + d] = on_table[d]
    # what the strategy is shown is read-only, so it sees the engine's own arrays (no copies)
    deciding(actor, 0)
    move = places[actor](readonly(hands[actor]), readonly(public), readonly(grid), readonly(legal[:n_legal]),
                         readonly(params[actor]), memory[actor], strategy_rng[actor])
    # the answer is checked before anything is indexed with it (every int64 decodes to some triple)
    dweebie = move_dweebie(move)
    cell = move_cell(move)
    collect = move_collects(move)
    if not (0 <= dweebie < dweebies and hands[actor, dweebie] > 0 and 0 <= cell < grid.size
            and mark[cell] == stamp and grid[cell] == EMPTY and (collect or may_decline)):
        stats[actor, S_ILLEGAL] += 1
        if record:
            _log(events, event_count, turn, actor, E_ILLEGAL, dweebie, cell, 0 if collect else 1, 0)
        move = random_move(hands[actor], legal, n_legal, fallback_rng)
        dweebie = move_dweebie(move)
        cell = move_cell(move)
        collect = True
    if check:
        _check(hands, hand_sizes, pile_left, on_table, taken, copies, grid, cells, n_on)

    n_on, groups, row_taken, column_taken, reconnected, declined = play_card(
        grid, side, cells, n_on, on_table, taken, label, stack, split, dweebie, cell, removed, min_line,
        collect)
    hands[actor, dweebie] -= 1
    hand_sizes[actor] -= 1
    if record:
        _log(events, event_count, turn, actor, E_PLACE, dweebie, cell, n_legal, split)
    if split:
        stats[actor, S_LINK_PLACEMENTS] += 1
        if reconnected:
            stats[actor, S_RECONNECTIONS] += 1
            if record:
                _log(events, event_count, turn, actor, E_RECONNECT, dweebie, cell, 0, 0)
    if declined > 0:
        stats[actor, S_DECLINED] += 1
        if record:
            _log(events, event_count, turn, actor, E_DECLINE, dweebie, cell, declined, 0)
    got = collection_size(row_taken, column_taken)
    history = per_dweebie + 3 * dweebies + HISTORY_FIELDS * turn   # the public history of plays
    public[history + H_SEAT], public[history + H_DWEEBIE], public[history + H_CELL] = actor, dweebie, cell
    public[history + H_COLLECTED] = got
    if got > 0:
        lines = 0
        for cards, first in ((row_taken, 0), (column_taken, row_taken)):
            if cards > 0:
                lines += 1
                if cards == 1:
                    stats[actor, S_TWO_CARD_LINES] += 1
                if record:
                    _log(events, event_count, turn, actor, E_COLLECT, dweebie, cell,
                         removed[first + cards - 1], cards + 1)
        collected[actor] += got
        stats[actor, S_COLLECTED] += got
        stats[actor, S_COLLECTIONS] += 1
        stats[actor, S_LINES] += lines
        stats[actor, S_LARGEST] = max(stats[actor, S_LARGEST], got)
        sizes[got] += 1
        if n_on == 0:
            game_stats[G_RESTARTS] += 1
            if record:
                _log(events, event_count, turn, actor, E_EMPTIED, -1, -1, 0, 0)
        elif groups > 1:
            state[ST_MOST_GROUPS] = max(state[ST_MOST_GROUPS], groups)
            game_stats[G_SPLITS] += 1
            stats[actor, S_SPLITS_CAUSED] += 1
            if record:
                _log(events, event_count, turn, actor, E_SPLIT, -1, -1, groups, 0)
    if next_card < total:
        drawn = deck[next_card]
        next_card += 1
        hands[actor, drawn] += 1
        hand_sizes[actor] += 1
        pile_left[drawn] -= 1
        if record:
            _log(events, event_count, turn, actor, E_DRAW, drawn, -1, 0, 0)
    state[ST_NEXT_CARD] = next_card
    state[ST_ON_TABLE] = n_on
    state[ST_SPLIT] = groups > 1
    state[ST_GROUPS] = groups
    state[ST_TURN] = turn + 1
    state[ST_ACTOR] = (actor + 1) % n_players
    return True


@njit(cache=True, _nrt=False, inline="always")
def _end(n_players, copies, check, game_stats, winner, work):
    """The game's totals and winners once every hand is played out; the grid emptied for the next game."""
    (grid, label, mark, link_scratch, deck, cells, stack, removed, legal, hands, hand_sizes, collected, on_table,
     taken, pile_left, public, memory, deal_rng, fallback_rng, strategy_rng, state) = work
    n_on = state[ST_ON_TABLE]
    if check:
        _check(hands, hand_sizes, pile_left, on_table, taken, copies, grid, cells, n_on)
    game_stats[G_TURNS] = state[ST_TURN]
    game_stats[G_LEFT] = n_on
    game_stats[G_MOST_GROUPS] = state[ST_MOST_GROUPS]
    best = collected[0]
    for p in range(1, n_players):
        best = max(best, collected[p])
    for p in range(n_players):
        winner[p] = collected[p] == best
    for k in range(n_on):  # clear the table for the next game
        grid[cells[k]] = EMPTY
    state[ST_ON_TABLE] = 0


@njit(cache=True, _nrt=False)
def _play(seed, first_game, n_games, n_players, copies, rules, places, params, check, record,
          out_stats, out_game, out_winner, sizes, events, event_count, work):
    for g in range(n_games):
        _deal(seed, first_game + g, n_players, copies, rules, record, events, event_count, work)
        while _turn(n_players, copies, rules, places, params, check, record, out_stats[g], out_game[g], sizes,
                    events, event_count, work):
            pass
        _end(n_players, copies, check, out_game[g], out_winner[g], work)


@njit(cache=True, _nrt=False)
def _step(n_turns, n_players, copies, rules, places, params, check, stats, game_stats, winner, sizes, events,
          event_count, work):
    """Up to ``n_turns`` turns of the game in ``work`` (the game's totals once it ends); returns the turns played."""
    played = 0
    while played < n_turns:
        if not _turn(n_players, copies, rules, places, params, check, False, stats, game_stats, sizes, events,
                     event_count, work):
            _end(n_players, copies, check, game_stats, winner, work)
            break
        played += 1
    return played


def play_batch(seed, first_game, n_games, prepared, functions, params, check=False, record=False, event_capacity=0):
    """Allocate outputs and run ``n_games`` games starting at global index ``first_game``, for compiled rules
    (rules.DweebiesRules: each Dweebie's copies in the deck, the rule vector), each seat's decision functions
    (``functions[seat]``: place) and parameters (``params[seat]``). Validates nothing. ``record``: log events
    (at most ``event_capacity``). The place functions are padded to MAX_SEATS so that the kernel's type, and
    so its cache entry, does not depend on the player count."""
    copies, rules = prepared.copies, prepared.vector
    n_players = len(functions)
    places = tuple(place for place, in functions)
    places = places + (places[0],) * (MAX_SEATS - n_players)
    out = {
        "stats": np.zeros((n_games, n_players, len(SEAT_STATS)), np.int64),
        "game": np.zeros((n_games, len(GAME_STATS)), np.int64),
        "winner": np.zeros((n_games, n_players), np.bool_),
        "sizes": np.zeros(int(copies.sum()) + 1, np.int64),
    }
    events = np.zeros((event_capacity, EVENT_FIELDS), np.int64)
    event_count = np.zeros(1, np.int64)
    _play(np.uint64(seed), first_game, n_games, n_players, copies, rules, places, params, check, record,
          out["stats"], out["game"], out["winner"], out["sizes"], events, event_count, _work_arrays(n_players, copies))
    out["events"] = events[: min(event_count[0], event_capacity)]
    out["events_lost"] = max(0, int(event_count[0]) - event_capacity)
    return out


@dataclass
class GameState:
    """One Dweebies game in progress, between two turns: every array the kernel plays it with (``work``; its
    last array holds the scalars, ST_*) and the game's output rows as play_batch would give them. ``copy()``
    is an independent copy: stepping the copy and the original with the same strategies plays the same game,
    down to the last random number, as playing it without stopping."""

    n_players: int
    copies: np.ndarray
    rules: np.ndarray
    work: tuple
    stats: np.ndarray       # [seat, SEAT_STATS]
    game: np.ndarray        # [GAME_STATS]
    winner: np.ndarray      # [seat]; set when the game ends
    sizes: np.ndarray       # collections of each size so far
    over: bool = False

    def copy(self) -> "GameState":
        return GameState(self.n_players, self.copies, self.rules, tuple(a.copy() for a in self.work),
                         self.stats.copy(), self.game.copy(), self.winner.copy(), self.sizes.copy(), self.over)

    @property
    def turn(self) -> int:
        """Turns played so far."""
        return int(self.work[-1][ST_TURN])


def start(seed, game, n_players, copies, rules) -> GameState:
    """Game ``game`` of ``seed`` dealt and stopped before its first turn (the deal play_batch would make)."""
    work = _work_arrays(n_players, copies)
    _deal(np.uint64(seed), game, n_players, copies, rules, False, np.zeros((0, EVENT_FIELDS), np.int64),
          np.zeros(1, np.int64), work)
    return GameState(n_players, copies, rules, work, np.zeros((n_players, len(SEAT_STATS)), np.int64),
                     np.zeros(len(GAME_STATS), np.int64), np.zeros(n_players, np.bool_),
                     np.zeros(int(copies.sum()) + 1, np.int64))


def step(state: GameState, places, params, turns=1, check=False) -> int:
    """Play up to ``turns`` turns of ``state`` in place, each seat deciding with its function in ``places``
    (and its row of ``params``), as play_batch would; returns the turns played (fewer once the game ends,
    when ``state.over`` turns True and the winners are set)."""
    if state.over:
        return 0
    places = tuple(places) + (places[0],) * (MAX_SEATS - len(places))
    played = _step(turns, state.n_players, state.copies, state.rules, places, params, check, state.stats,
                   state.game, state.winner, state.sizes, np.zeros((0, EVENT_FIELDS), np.int64),
                   np.zeros(1, np.int64), state.work)
    state.over = played < turns
    return int(played)
