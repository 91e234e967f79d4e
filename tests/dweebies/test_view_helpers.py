"""The view's look-ahead helpers and public history, checked against a recorded game's event log: every play
replayed on a scratch table (scratch_place) collects what the engine collected, from a legal cell
(scratch_legal), as scratch_gain foresaw; undoing every play (scratch_undo) walks the table back through the
very same states; the history a seat is shown (``played``) is the log's placements."""
import numpy as np

from simkit.games import get_game
from simkit.games.dweebies import engine as E
from simkit.games.dweebies import play as dweebies
from simkit.games.dweebies import view as V
from simkit.games.dweebies.play import _kernel_inputs
from simkit.games.dweebies.table import EMPTY, grid_side
from simkit.strategy import parse_lineup

GAME = get_game("dweebies")


def _recorded(lineup, seed, game):
    seats = parse_lineup("dweebies", lineup)
    prepared = GAME.prepare(GAME.rules(), len(seats))
    functions, params = _kernel_inputs(seats)
    out = E.play_batch(seed, game, 1, prepared, functions, params, record=True,
                       event_capacity=100_000)
    return seats, prepared, out


def _empty_table_view(n_players, copies):
    cards = int(copies.sum())
    side = grid_side(cards)
    public = np.zeros(V.public_length(n_players, copies.size, cards), np.int64)
    public[V.PUB_PLAYERS], public[V.PUB_DWEEBIES], public[V.PUB_SIDE], public[V.PUB_CARDS] = (
        n_players, copies.size, side, cards)
    public[V.PUB_MIN_LINE] = 2
    public[V.PUB_TOP], public[V.PUB_BOTTOM], public[V.PUB_LEFT], public[V.PUB_RIGHT] = side, -1, side, -1
    return public, np.full(side * side, EMPTY, np.int64)


def test_scratch_place_legal_gain_and_undo_follow_the_engine():
    seats, prepared, out = _recorded(["tuned", "random", "greedy"], 8, 3)
    public, table = _empty_table_view(3, prepared.copies)
    scratch = V.scratch_table(table, public)
    legal = np.empty(4 * 54 + 4, np.int64)
    got_by_seat = np.zeros(3, np.int64)
    before = []
    places = out["events"][out["events"][:, E.EV_KIND] == E.E_PLACE]
    assert len(places) == 54
    for row in places:
        seat, d, cell = row[E.EV_SEAT], row[E.EV_DWEEBIE], row[E.EV_CELL]
        n_legal = V.scratch_legal(scratch, public, legal)
        assert cell in legal[:n_legal]
        foreseen = V.scratch_gain(scratch, d, cell)
        before.append(scratch[0].copy())
        got = V.scratch_place(scratch, d, cell)
        assert got == foreseen
        got_by_seat[seat] += got
    np.testing.assert_array_equal(got_by_seat, out["stats"][0, :, E.S_COLLECTED])
    assert got_by_seat.sum() > 20            # the game collected, so undo has collections to put back
    for snapshot in reversed(before):
        V.scratch_undo(scratch)
        np.testing.assert_array_equal(scratch[0], snapshot)
    assert (scratch[0] == EMPTY).all() and scratch[2][V.SC_ON_TABLE] == 0


def test_the_public_history_is_the_games_placements():
    lineup, seed, game = ["greedy-defensive", "random"], 12, 5
    seats, prepared, out = _recorded(lineup, seed, game)
    places = out["events"][out["events"][:, E.EV_KIND] == E.E_PLACE]
    state = dweebies.start(prepared, seed, game)
    dweebies.step(state, seats, 30)
    public = state.work[15]
    collected = np.zeros(2, np.int64)
    for turn in range(30):
        seat, d, cell, got = V.played(public, turn)
        assert (seat, d, cell) == tuple(places[turn, [E.EV_SEAT, E.EV_DWEEBIE, E.EV_CELL]])
        collected[seat] += got
    np.testing.assert_array_equal(collected, state.stats[:, E.S_COLLECTED])
