"""A test-only Wheedle strategy whose strength is a known function of its parameters, for the tuner's tests.

At each move it plays the shipped hair-trigger collector with probability q(x, y) and a uniformly random
legal move otherwise, with q = exp(-((x - 3)^2 + (y - 7)^2) / 8): 1 at (x, y) = (3, 7), falling away from it.
Random moves only lose ground, so the win rate is highest where q is: the tuner should find (3, 7).
"""
import math

from numba import njit

from simkit import rng
from simkit.strategy import Param, Strategy, registered

OPTIMUM = {"x": 3.0, "y": 7.0}
_collector = registered("wheedle")["hair-trigger"]
_good_act = _collector.decisions["act"]
_random_act = registered("wheedle")["random"].decisions["act"]
X, Y = len(_collector.params), len(_collector.params) + 1   # x and y come after the collector's own parameters


@njit(cache=True)
def skill(x, y):
    return math.exp(-((x - 3.0) ** 2 + (y - 7.0) ** 2) / 8.0)


@njit(cache=True)
def peaked_act(hand, public, seen, params, memory, state, action):
    if rng.uniform(state) < skill(params[X], params[Y]):
        return _good_act(hand, public, seen, params, memory, state, action)
    return _random_act(hand, public, seen, params, memory, state, action)


# no base: the collector's parameters come as bare values, so that only x and y declare ranges to tune
peaked = Strategy.build("wheedle", "peaked", act=peaked_act, accept=_collector.decisions["accept"],
                        params={**_collector.params, "x": Param(5.0, 0.0, 10.0), "y": Param(5.0, 0.0, 10.0)},
                        doc="Test only: hair-trigger with probability exp(-((x-3)^2+(y-7)^2)/8) per move, random otherwise.")
# the same player with no declared ranges: bare defaults, and no base whose declarations it would inherit
undeclared = Strategy.build("wheedle", "undeclared", act=peaked_act, accept=_collector.decisions["accept"],
                            params={**_collector.params, "x": 5.0, "y": 5.0},
                            doc="Test only: the peaked player without declared parameter ranges.")
