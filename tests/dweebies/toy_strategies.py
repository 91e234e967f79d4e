"""Test-only Dweebies strategies: a spy that checks what it is shown, a cheat, a scribbler."""
from numba import njit

from simkit.games.dweebies.table import EMPTY
from simkit.games.dweebies.view import (PUB_CARDS, PUB_DWEEBIES, PUB_LEGAL, PUB_ON_TABLE, PUB_PILE, PUB_PLAYERS,
                                        PUB_SEAT, PUB_SIDE, PUB_SPLIT, collected_by, collected_copies, copies_of,
                                        hand_size_of, pack_move, random_move, table_copies)
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
    """Writes on its table view and leaves it so (the engine's checking mode must notice)."""
    table[0] = 0
    return random_move(hand, legal, public[PUB_LEGAL], rng_state)


SPY = Strategy.build("dweebies", "spy", place=spy)
CHEAT = Strategy.build("dweebies", "cheat", place=cheat)
SCRIBBLER = Strategy.build("dweebies", "scribbler", place=scribbler)
