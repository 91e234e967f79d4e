"""A Dweebies game stopped at a decision, copied and played on (engine.start, GameState.copy, step) is the game
played without stopping, bit for bit: every output row and the whole working state at the end."""
import numpy as np
import pytest

from simkit.games import get_game
from simkit.games.dweebies import engine as E
from simkit.games.dweebies import play as dweebies
from simkit.games.dweebies.play import _kernel_inputs
from simkit.strategy import parse_lineup

GAME = get_game("dweebies")


@pytest.mark.parametrize("lineup, sets, stop_at", [
    (["tuned", "random", "greedy"], (), 17),
    (["expert:samples=2", "greedy-defensive"], ("game.collect='may'", "game.split_rule='free'"), 31),
])
def test_stepping_a_copied_state_reproduces_the_uninterrupted_game(lineup, sets, stop_at):
    seats = parse_lineup("dweebies", lineup)
    prepared = GAME.prepare(GAME.rules(sets=list(sets)), len(seats))
    seed, game = 41, 6
    functions, params = _kernel_inputs(seats)
    whole = E.play_batch(seed, game, 1, prepared, functions, params, check=True)

    state = dweebies.start(prepared, seed, game)
    assert dweebies.step(state, seats, stop_at, check=True) == stop_at and state.turn == stop_at
    copy = state.copy()
    assert dweebies.step(copy, seats, 1000, check=True) < 1000 and copy.over
    np.testing.assert_array_equal(copy.stats, whole["stats"][0])
    np.testing.assert_array_equal(copy.game, whole["game"][0])
    np.testing.assert_array_equal(copy.winner, whole["winner"][0])
    np.testing.assert_array_equal(copy.sizes, whole["sizes"])
    # the original, stepped on turn by turn after its copy went ahead, ends in the very same state
    while dweebies.step(state, seats, 1, check=True):
        pass
    assert state.over and not np.shares_memory(state.work[0], copy.work[0])
    for mine, theirs in zip(state.work, copy.work):
        np.testing.assert_array_equal(mine, theirs)
    np.testing.assert_array_equal(state.stats, copy.stats)
    assert dweebies.step(state, seats, 5) == 0
