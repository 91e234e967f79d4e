"""A scripted Wheeler Dealer (UK) strategy for hand-built scenarios: each decision kind answers from a queue
the test writes into the seat's memory (16 floats per kind: count, cursor, then the answers), then a default."""
from numba import njit

from simkit import rng
from simkit.games.wheeler_dealer_uk.view import Q_KIND
from simkit.strategy import Strategy

SLOT = 16
DEFAULTS = (0, 0, -1, -1, -1, 0, 0, 0)   # deal none, refuse, no redeem, no sale, no loan, stay out, decline, yellow card


@njit(cache=True)
def scripted(table, params, memory, state, query):
    base = query[Q_KIND] * SLOT
    count, cursor = int(memory[base]), int(memory[base + 1])
    if cursor < count:
        memory[base + 1] = cursor + 1
        return int(memory[base + 2 + cursor])
    return DEFAULTS[query[Q_KIND]]


SCRIPTED = Strategy.build("wheeler-dealer-uk", "scripted", **{name: scripted for name in
                          ("deal", "answer", "redeem", "sell", "borrow", "enter", "buy", "yellow")})


@njit(cache=True)
def cheat(table, params, memory, state, query):
    """Answers every question with nonsense (a deal with itself, cards it does not have, a 99-card set)."""
    return 10 ** 6 + query[Q_KIND]


CHEAT = Strategy.build("wheeler-dealer-uk", "cheat", **{name: cheat for name in
                       ("deal", "answer", "redeem", "sell", "borrow", "enter", "buy", "yellow")})


@njit(cache=True)
def careless(table, params, memory, state, query):
    """A careless user's strategy: half the time any integer in [-1000, 1000], else one in [-2, 2] (so that
    yes/no and stop answers are often, but not always, in range and the games go on)."""
    if rng.uniform(state) < 0.5:
        return rng.below(state, 2001) - 1000
    return rng.below(state, 5) - 2


CARELESS = Strategy.build("wheeler-dealer-uk", "careless", **{name: careless for name in
                          ("deal", "answer", "redeem", "sell", "borrow", "enter", "buy", "yellow")})
