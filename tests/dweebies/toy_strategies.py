"""Test-only Dweebies strategies: a spy that checks what it is shown, a cheat, a scribbler, a seat that
checks the D9 options it is shown, one that always declines, and careless ones answering at random."""
from numba import njit

from simkit import rng
from simkit.games.dweebies.table import EMPTY
from simkit.games.dweebies.view import (
    PUB_CARDS,
    PUB_COLLECT,
    PUB_DWEEBIES,
    PUB_LEGAL,
    PUB_LINK,
    PUB_MIN_LINE,
    PUB_ON_TABLE,
    PUB_PILE,
    PUB_PLAYERS,
    PUB_SEAT,
    PUB_SIDE,
    PUB_SPLIT,
    PUB_SPLIT_RULE,
    SPLIT_FREE,
    collected_by,
    collected_copies,
    copies_of,
    hand_size_of,
    move_cell,
    move_dweebie,
    pack_move,
    random_move,
    table_copies,
)
from simkit.strategy import Strategy


@njit(cache=True)
def spy(hand, public, table, legal, params, memory, rng_state):
    """Checks D7's promises on every call (raising stops the batch), then plays at random."""
    players, dweebies, side = public[PUB_PLAYERS], public[PUB_DWEEBIES], public[PUB_SIDE]
    if hand.sum() != hand_size_of(public, public[PUB_SEAT]) or hand.sum() == 0:
        raise AssertionError("spy: hand and public hand size disagree")
    seen = public[PUB_PILE]
    for p in range(players):
        seen += hand_size_of(public, p) + collected_by(public, p)
    seen += public[PUB_ON_TABLE]
    if seen != public[PUB_CARDS]:
        raise AssertionError("spy: hands + pile + table + collected is not the deck")
    on_table = 0
    for d in range(dweebies):
        if hand[d] + collected_copies(public, d) + table_copies(public, d) > copies_of(public, d):
            raise AssertionError("spy: more copies of a Dweebie seen than the deck has")
        on_table += table_copies(public, d)
    cards = 0
    for x in range(table.size):
        cards += table[x] != EMPTY
    if cards != on_table or cards != public[PUB_ON_TABLE]:
        raise AssertionError("spy: the table view and the public counts disagree")
    if public[PUB_LEGAL] != legal.size or legal.size == 0:
        raise AssertionError("spy: no legal cell")
    for i in range(legal.size):
        x = legal[i]
        if table[x] != EMPTY:
            raise AssertionError("spy: a legal cell is taken")
        if cards > 0 and table[x + 1] == EMPTY and table[x - 1] == EMPTY and table[x + side] == EMPTY \
                and table[x - side] == EMPTY:
            raise AssertionError("spy: a legal cell touches no card")
    if public[PUB_SPLIT] != 0 and cards == 0:
        raise AssertionError("spy: an empty table cannot be split")
    return random_move(hand, legal, public[PUB_LEGAL], rng_state)


@njit(cache=True)
def cheat(hand, public, table, legal, params, memory, rng_state):
    """Plays a Dweebie it does not hold on a cell far from the table."""
    for d in range(hand.size):
        if hand[d] == 0:
            return pack_move(d, 0)
    return pack_move(hand.size, 0)


@njit(cache=True)
def scribbler(hand, public, table, legal, params, memory, rng_state):
    """Writes on its table view: it must not compile, since the view is read-only."""
    table[0] = 0
    return random_move(hand, legal, public[PUB_LEGAL], rng_state)


@njit(cache=True)
def option_checker(hand, public, table, legal, params, memory, rng_state):
    """Raises unless the public view shows the D9 options given as its parameters, and, under split_rule
    "free", unless a split table offers every empty cell next to a card (and no link length)."""
    if public[PUB_MIN_LINE] != params[0] or public[PUB_COLLECT] != params[1] or public[PUB_SPLIT_RULE] != params[2]:
        raise AssertionError("option_checker: the public view shows other D9 options")
    if public[PUB_SPLIT] != 0 and public[PUB_SPLIT_RULE] == SPLIT_FREE:
        side = public[PUB_SIDE]
        around = 0
        for x in range(table.size):
            if table[x] == EMPTY and 0 < x % side < side - 1 and side < x < table.size - side and (
                    table[x + 1] != EMPTY or table[x - 1] != EMPTY or table[x + side] != EMPTY
                    or table[x - side] != EMPTY):
                around += 1
        if around != legal.size or public[PUB_LINK] != 0:
            raise AssertionError("option_checker: a split table under split_rule free limits the cells")
    return random_move(hand, legal, public[PUB_LEGAL], rng_state)


@njit(cache=True)
def decliner(hand, public, table, legal, params, memory, rng_state):
    """A random legal placement that always declines to collect."""
    move = random_move(hand, legal, public[PUB_LEGAL], rng_state)
    return pack_move(move_dweebie(move), move_cell(move), False)


@njit(cache=True)
def careless(hand, public, table, legal, params, memory, rng_state):
    """Any integer in [-1000, 1000]: a cell number with Dweebie 0, or a negative that decodes to Dweebie -1."""
    return rng.below(rng_state, 2001) - 1000


@njit(cache=True)
def careless_packed(hand, public, table, legal, params, memory, rng_state):
    """A packed move from random parts: a Dweebie in [-3, dweebies + 3], a legal cell or any in
    [-1000, 1000], collecting or declining at random (so every check of the engine is met)."""
    dweebie = rng.below(rng_state, public[PUB_DWEEBIES] + 7) - 3
    if rng.below(rng_state, 2) == 0:
        cell = legal[rng.below(rng_state, legal.size)]
    else:
        cell = rng.below(rng_state, 2001) - 1000
    return pack_move(dweebie, cell, rng.below(rng_state, 2) == 0)


SPY = Strategy.build("dweebies", "spy", place=spy)
OPTION_CHECKER = Strategy.build("dweebies", "option_checker", place=option_checker,
                                params={"min_line": 2, "collect": 0, "split_rule": 0})
DECLINER = Strategy.build("dweebies", "decliner", place=decliner)
CARELESS = Strategy.build("dweebies", "careless", place=careless)
CARELESS_PACKED = Strategy.build("dweebies", "careless_packed", place=careless_packed)
CHEAT = Strategy.build("dweebies", "cheat", place=cheat)
