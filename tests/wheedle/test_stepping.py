"""Steppable Wheedle (engine.GameState): a game copied between two ticks and played on reproduces the
uninterrupted game bit for bit, and playing a copy changes nothing in the original."""
import numpy as np
import pytest

from simkit.games.wheedle import engine
from simkit.games.wheedle.play import _kernel_inputs
from simkit.strategy import parse_lineup

from ..helpers import prepare

LINEUP = ["expert", "random", "patient", "blocker"]
FIELDS = ("points", "round_points", "seat_stats", "round_ticks", "round_stopper", "winner")


@pytest.fixture(scope="module")
def table():
    rules, prepared = prepare(4)
    functions, params = _kernel_inputs(parse_lineup("wheedle", LINEUP))
    return prepared, functions, params


def uninterrupted(table, seed, game):
    prepared, functions, params = table
    out = engine.play_batch(seed, game, 1, prepared, functions, params, check=True)
    return {name: out[name] for name in FIELDS}


def start(table, seed, game):
    prepared, functions, params = table
    return engine.start_game(seed, game, prepared, functions, params, check=True)


def assert_same(result, expected):
    for name in FIELDS:
        assert np.array_equal(result[name], expected[name]), name


@pytest.mark.parametrize("seed, game, cut", [(3, 0, 0), (3, 7, 25), (11, 2, 90), (11, 5, 400)])
def test_a_copy_played_on_from_a_decision_reproduces_the_game(table, seed, game, cut):
    expected = uninterrupted(table, seed, game)
    state = start(table, seed, game)
    assert not state.step(cut) or cut >= expected["round_ticks"].sum()
    copy = state.copy()
    assert (copy.round, copy.tick) == (state.round, state.tick)
    assert copy.step() and copy.over
    assert_same(copy.result(), expected)
    assert state.step()                # the original, untouched by its copy's play, ends the same way
    assert_same(state.result(), expected)


def test_stepping_tick_by_tick_reproduces_the_game(table):
    expected = uninterrupted(table, 5, 1)
    state = start(table, 5, 1)
    steps = 0
    while not state.step(1):
        steps += 1
        state = state.copy()           # each tick played from a fresh copy of the last state
    assert steps + 1 >= expected["round_ticks"].sum()
    assert_same(state.result(), expected)


def test_copies_branch_independently(table):
    state = start(table, 9, 4)
    state.step(30)
    first, second = state.copy(), state.copy()
    first.step()
    assert not second.over and second.tick == state.tick
    second.step()
    assert_same(second.result(), first.result())
