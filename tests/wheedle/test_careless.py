"""A careless strategy cannot break the engine: every answer is range- and legality-checked before use,
an invalid one is refused, counted in illegal_actions and played as a pass (docs/rules/wheedle.md,
"Trading")."""
from functools import lru_cache

import numpy as np
import pytest
from numba import njit

from simkit import rng
from simkit.games.wheedle.engine import trace_centre, trace_hands
from simkit.strategy import Strategy

from ..helpers import per_game, per_seat, simulate


@njit
def _careless_value(state, wild):
    """With probability ``wild`` any integer in [-1000, 1000], else one in [-2, 9] (so that some answers are
    legal and the legal paths are exercised too)."""
    if rng.uniform(state) < wild:
        return np.int64(rng.below(state, 2001)) - 1000
    return np.int64(rng.below(state, 12)) - 2


def careless_act(hand, public, seen, params, memory, state, action):
    for i in range(action.size):
        action[i] = _careless_value(state, params[0])
    return _careless_value(state, params[0])


def careless_accept(hand, public, seen, offer, params, memory, state):
    return _careless_value(state, params[0])   # an integer where a yes/no is expected


@lru_cache(maxsize=None)
def careless():
    return Strategy.build("wheedle", "careless", act=careless_act, accept=careless_accept, params={"wild": 0.5})


def _check_games(lineup, games, seed, sets, check):
    rules, prepared, _, cols = simulate(lineup, games, seed=seed, sets=sets, check=check, record=True)
    n = len(lineup)
    trace = cols["_trace"]
    hands = trace_hands(trace)
    centre = trace_centre(trace)
    assert (hands >= 0).all()
    assert ((hands.sum(axis=3) + (centre[..., None] == np.arange(len(prepared.counts)))) == prepared.counts).all(), \
        "cards not conserved"
    rounds = np.stack([per_seat(cols, f"points_r{r + 1}", n) for r in range(prepared.rounds)], axis=2)
    assert np.array_equal(rounds.sum(axis=2), per_seat(cols, "points", n))
    stoppers = np.stack([per_game(cols, f"stopper_r{r + 1}", n) for r in range(prepared.rounds)], axis=1)
    assert ((stoppers >= -1) & (stoppers < n)).all()
    return per_seat(cols, "illegal_actions", n), per_seat(cols, "offers_taken", n), per_seat(cols, "stops", n)


@pytest.mark.parametrize("check", [True, False], ids=["checked", "unchecked"])
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_careless_strategies_cannot_break_the_engine(n, check):
    sloppy = careless()
    lineup = [sloppy] * n
    illegal, taken, stops = _check_games(lineup, 400, 31 + n, (), check)
    assert (illegal.sum(axis=0) > 0).all(), "every careless seat has answers refused"
    assert taken.sum() > 0 and stops.sum() > 0, "and some of its answers are legal and played"
    # mixed with shipped strategies, under house rules that change which answers are legal
    mixed = [sloppy, "hair-trigger", "random", "blocker", "bluffer", sloppy][:n]
    for sets in [("options.gifts_allowed=false", "options.false_stop_ends_round=false", "options.max_ticks=300"),
                 ('scoring.false_stopper_cards="scored"',)]:
        illegal, _, _ = _check_games(mixed, 200, 7 + n, sets, check)
        careless_seats = [i for i, s in enumerate(mixed) if s is sloppy]
        assert illegal[:, careless_seats].sum() > 0
        assert illegal[:, [i for i in range(n) if i not in careless_seats]].sum() == 0
