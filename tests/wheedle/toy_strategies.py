"""Small user strategies the engine tests play with (built the way a user builds one)."""
from functools import lru_cache

from numba import objmode

from simkit.games.wheedle.view import (
    A_GIVE,
    A_GIVE_COUNT,
    A_WANT,
    A_WANT_COUNT,
    OFFER,
    PASS,
    PUB_ROUND,
    PUB_SEAT,
    PUB_TICK,
    STOP,
)
from simkit.strategies.wheedle import random_accept, random_act
from simkit.strategy import Strategy, registered


def always_stop_act(hand, public, seen, params, memory, state, action):
    return STOP


def gift_act(hand, public, seen, params, memory, state, action):
    """Give one card of the first company held, for nothing."""
    for c in range(hand.size):
        if hand[c] > 0:
            action[A_GIVE] = c
            action[A_GIVE_COUNT] = 1
            return OFFER
    return PASS


def beggar_act(hand, public, seen, params, memory, state, action):
    """Ask for one card of the first company not held, for nothing."""
    for c in range(hand.size):
        if hand[c] == 0:
            action[A_WANT] = c
            action[A_WANT_COUNT] = 1
            return OFFER
    return PASS


def never_accept(hand, public, seen, offer, params, memory, state):
    return False


def always_accept(hand, public, seen, offer, params, memory, state):
    return True


@lru_cache(maxsize=None)
def always_stop():
    return Strategy.build("wheedle", "always-stop", act=always_stop_act, accept=never_accept)


@lru_cache(maxsize=None)
def gift_giver():
    return Strategy.build("wheedle", "gift-giver", act=gift_act, accept=always_accept)


@lru_cache(maxsize=None)
def beggar():
    return Strategy.build("wheedle", "beggar", act=beggar_act, accept=always_accept)


# ---- the spy: plays like `random` and records every argument it is given ----

CALLS = []


def _record(kind, hand, public, seen, offer):
    CALLS.append({"kind": kind, "round": int(public[PUB_ROUND]), "tick": int(public[PUB_TICK]),
                  "seat": int(public[PUB_SEAT]), "hand": hand.copy(), "public": public.copy(),
                  "seen": seen.copy(), "offer": None if offer is None else offer.copy()})


def _record_act(hand, public, seen):
    _record("act", hand, public, seen, None)


def _record_accept(hand, public, seen, offer):
    _record("accept", hand, public, seen, offer)


def spy_act(hand, public, seen, params, memory, state, action):
    with objmode():
        _record_act(hand, public, seen)
    return random_act(hand, public, seen, params, memory, state, action)


def spy_accept(hand, public, seen, offer, params, memory, state):
    with objmode():
        _record_accept(hand, public, seen, offer)
    return random_accept(hand, public, seen, offer, params, memory, state)


@lru_cache(maxsize=None)
def spy():
    return Strategy.build("wheedle", "spy", base=registered("wheedle")["random"], act=spy_act, accept=spy_accept)


def pass_act(hand, public, seen, params, memory, state, action):
    return PASS


@lru_cache(maxsize=None)
def passer():
    """Never trades, swaps or stops: the passive baseline."""
    return Strategy.build("wheedle", "passer", act=pass_act, accept=never_accept)
