"""A test-only Wheedle strategy that never does anything: it passes every turn and refuses every offer, so it
never collects a majority and never stops. Any player that trades or swaps beats it: its exploitability is
as large as exploitability gets."""
from numba import njit

from simkit.games.wheedle.view import PASS
from simkit.strategy import Strategy, registered


@njit(cache=True)
def pass_act(hand, public, seen, params, memory, state, action):
    return PASS


@njit(cache=True)
def refuse(hand, public, seen, offer, params, memory, state):
    return False


passer = Strategy.build("wheedle", "passer", base=registered("wheedle")["hair-trigger"], act=pass_act, accept=refuse,
                        doc="Test only: passes every turn and refuses every offer.")
