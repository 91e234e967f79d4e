"""A careless strategy cannot break the Wheeler-Dealer (US) engine: decision functions that answer random
integers (and fill every answer-buffer slot with random values) play whole games at 2-6 players, with and
without checking mode. Every answer is checked before use (docs/rules/wheeler-dealer-us.md, "Strategy
answers"): nothing crashes, money and titles stay conserved (checking mode asserts it after every turn),
and the refused answers are counted in ``illegal_actions``."""
import numpy as np
import pytest
from numba import njit

from simkit import rng
from simkit.games.wheeler_dealer_us.view import DECISION_NAMES, DECISION_SIGNATURE, OUT_SIZE
from simkit.runner import make_batch
from simkit.strategy import Seat, Strategy

GAME = "wheeler-dealer-us"


@njit(DECISION_SIGNATURE, cache=True)
def _careless(public, table, query, params, memory, state, out):
    low, high = np.int64(params[0]), np.int64(params[1])
    for i in range(OUT_SIZE):
        out[i] = low + rng.below(state, high - low + 1)
    return low + rng.below(state, high - low + 1)


CARELESS = Strategy.build(GAME, "careless", params={"low": -1000, "high": 1000},
                          **{name: _careless for name in DECISION_NAMES})
WIDE = Seat(CARELESS, {})                            # answers in [-1000, 1000]: nearly all refused
NARROW = Seat(CARELESS, {"low": -2, "high": 40})     # small answers: often legal, so deeper paths are reached


def lineup(n, k):
    """n seats: careless ones (wide and narrow) with, from three players, a shipped strategy among them."""
    pool = [WIDE, NARROW, "random", NARROW, "kelly", WIDE]
    return [pool[(i + k) % len(pool)] for i in range(n)]


@pytest.mark.parametrize("check", [True, False])
@pytest.mark.parametrize("level", [1, 2])
def test_careless_answers_are_refused_counted_and_harmless(level, check):
    for n in range(2, 7):
        players = lineup(n, n)
        batch = make_batch(GAME, 200, players, 40 + n, sets=[f"game.level={level}"])
        columns = batch.play(0, 200, check=check)
        illegal = columns["illegal_actions"].reshape(-1, n).sum(axis=0)
        careless = [i for i, p in enumerate(players) if isinstance(p, Seat)]
        assert (illegal[careless] > 0).all(), (n, illegal)
        assert (illegal[[i for i in range(n) if i not in careless]] == 0).all(), (n, illegal)
        bankrupt = columns["bankrupt"]
        assert (columns["cash"][bankrupt] == 0).all() and (columns["properties"][bankrupt] == 0).all()
        assert (columns["net_worth"][~bankrupt] > -10 ** 9).all()
