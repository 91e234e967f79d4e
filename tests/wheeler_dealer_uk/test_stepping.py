"""A UK game stopped between two turns, copied and played on (start, GameState.copy, GameState.step) is the game
played without stopping, bit for bit: every output row, and the whole state at the end."""
import numpy as np
import pytest

from simkit.games import get_game
from simkit.games.wheeler_dealer_uk import engine
from simkit.games.wheeler_dealer_uk.play import start
from simkit.games.wheeler_dealer_uk.view import DECISION_NAMES, MAX_SEATS
from simkit.strategy import kernel_inputs, parse_lineup

GAME = get_game("wheeler-dealer-uk")
FIELDS = ("wealth", "cash", "cards", "bankrupt", "winner", "stats", "rounds", "end", "first_inner")


def table(lineup, sets=()):
    seats = parse_lineup("wheeler-dealer-uk", lineup)
    return GAME.prepare(GAME.rules(sets=list(sets)), len(seats)), seats


def assert_same_game(result, batch, g):
    for name in FIELDS:
        np.testing.assert_array_equal(result[name][0], batch[name][g], err_msg=name)


@pytest.mark.parametrize("lineup, sets, seed, cut", [
    (["expert", "default-counter", "random"], (), 7, 4),
    (["expert", "raider", "commander", "expert"], ("game.start_cash=2000",), 3, 19),
])
def test_a_copy_played_on_from_a_turn_reproduces_the_game(lineup, sets, seed, cut):
    prepared, seats = table(lineup, sets)
    # game 2 of a batch: the batch's earlier games leave nothing behind that the game reads
    batch = engine.play_batch(seed, 0, 3, prepared, *kernel_inputs(seats, DECISION_NAMES, MAX_SEATS), check=True)
    state = start(prepared, seats, seed, 2, check=True)
    assert not state.step(cut) and state.turn == cut
    seat = state.next_seat
    copy = state.copy()
    assert copy.step() and copy.over
    assert_same_game(copy.result(), batch, 2)
    assert (state.turn, state.next_seat) == (cut, seat) and not state.over   # untouched by its copy's play
    while not state.step(1):                   # the original, a turn at a time
        pass
    assert_same_game(state.result(), batch, 2)
    for mine, theirs in zip(state.arrays, copy.arrays):
        if mine is not theirs:
            assert not np.shares_memory(mine, theirs)
    for k in (1, 2, 3, 4):                     # the table, the packs, the strategies' memories, every random stream
        np.testing.assert_array_equal(state.arrays[k], copy.arrays[k])


def test_copies_branch_independently_and_a_finished_game_stays_finished():
    prepared, seats = table(["default-counter", "expert"])
    state = start(prepared, seats, 11, 0)
    state.step(6)
    first, second = state.copy(), state.copy()
    first.step()
    assert not second.over and second.turn == state.turn
    second.step()
    assert_same_game(second.result(), first.result(), 0)
    assert first.step(3) and first.over
    with pytest.raises(ValueError, match="not over"):
        state.result()
