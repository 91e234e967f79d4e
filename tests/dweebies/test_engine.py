"""The Dweebies engine end to end: conservation in checking mode, what a seat sees (D7), illegal moves,
results, deck options (D1) and the replay."""
import re
from pathlib import Path

import numpy as np
import pytest

from simkit.errors import SimkitError
from simkit.games import get_game
from simkit.strategy import parse_lineup, registered

from . import toy_strategies as toys

GAME = get_game("dweebies")
GOLDEN = Path(__file__).with_name("golden_replay.txt")


def play(lineup, n_games=60, seed=3, sets=(), check=True):
    seats = parse_lineup("dweebies", lineup)
    prepared = GAME.prepare(GAME.rules(sets=list(sets)), len(seats))
    return prepared, GAME.simulate(prepared, seats, seed, 0, n_games, check=check)


def per_seat(columns, name, n):
    return np.asarray(columns[name]).reshape(-1, n)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("sets", [(), ("deck.copies_split=[12, 6, 6, 3]",), ("deck.copies_split=[7, 14, 5, 1]",),
                                  ("deck.copies=[3, 3, 3, 3, 3, 3]", "game.hand_size=3")],
                         ids=["default", "split-12-6-6-3", "split-7-14-5-1", "custom-18"])
def test_cards_conserved_in_check_mode(players, sets):
    names = sorted(registered("dweebies"))
    lineup = [names[(players + i) % len(names)] for i in range(players)]
    prepared, columns = play(lineup, 80, seed=players, sets=sets)
    cards = int(prepared.copies.sum())
    collected = per_seat(columns, "collected", players).sum(axis=1)
    left = per_seat(columns, "left_on_table", players)[:, 0]
    assert (collected + left == cards).all()          # the hands and the pile are empty at the end
    assert (per_seat(columns, "turns", players)[:, 0] == cards).all()


def test_check_mode_catches_a_strategy_that_changes_its_table():
    with pytest.raises(AssertionError, match="table view"):
        GAME.simulate(GAME.prepare(GAME.rules(), 2), parse_lineup("dweebies", [toys.SCRIBBLER, "greedy"]), 1, 0, 2,
                      check=True)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_a_seat_sees_what_d7_promises(players):
    play([toys.SPY] + ["greedy-defensive", "random", "pair-keeper", "greedy", "line-shortener"][: players - 1],
         100, seed=7)


def test_illegal_moves_are_replaced_by_random_legal_ones():
    _, columns = play([toys.CHEAT, "greedy", "random"], 30)
    illegal = per_seat(columns, "illegal_moves", 3)
    assert (illegal[:, 0] == 18).all() and illegal[:, 1:].sum() == 0   # 54 turns, a third of them the cheat's


def test_result_columns_are_consistent():
    _, columns = play(list(GAME.default_lineup), 200)
    n = 4
    collected, collections = per_seat(columns, "collected", n), per_seat(columns, "collections", n)
    largest, lines = per_seat(columns, "largest_collection", n), per_seat(columns, "lines_collected", n)
    assert (largest <= collected).all() and (collections <= lines).all() and (lines <= 2 * collections).all()
    assert (collected >= 2 * collections).all() and (largest >= 2 * (collections > 0)).all()
    winner = per_seat(columns, "winner", n)
    assert (winner == (collected == collected.max(axis=1, keepdims=True))).all()   # ties share the win
    splits = per_seat(columns, "splits", n)[:, 0]
    assert (splits == per_seat(columns, "splits_caused", n).sum(axis=1)).all()
    assert (per_seat(columns, "reconnections", n).sum(axis=1) <= splits).all()
    sizes = columns["_totals"]["collection_sizes"]
    assert sizes.sum() == collections.sum() and (np.arange(sizes.size) * sizes).sum() == collected.sum()


def test_ties_share_the_win():
    _, columns = play(["random", "random"], 400, seed=1)
    collected = per_seat(columns, "collected", 2)
    tied = collected[:, 0] == collected[:, 1]
    assert tied.any() and per_seat(columns, "winner", 2)[tied].all()


def test_the_deal_goes_round_from_seat_zero_d2():
    from simkit.games.dweebies import engine

    seats = parse_lineup("dweebies", ["greedy"] * 3)
    prepared = GAME.prepare(GAME.rules(), 3)
    from simkit.games.dweebies import _kernel_inputs

    places, params = _kernel_inputs(seats)
    out = engine.play_batch(5, 0, 1, prepared.copies, 5, places, params, record=True, event_capacity=20000)
    deals = out["events"][out["events"][:, engine.EV_KIND] == engine.E_DEAL]
    assert list(deals[:, engine.EV_SEAT]) == [i % 3 for i in range(15)]
    placed = out["events"][out["events"][:, engine.EV_KIND] == engine.E_PLACE]
    assert list(placed[:6, engine.EV_SEAT]) == [0, 1, 2, 0, 1, 2]


@pytest.mark.parametrize("sets, message", [
    (("deck.copies_split=[9, 12, 3, 4]",), "makes 28 Dweebies and 58 cards; a split needs"),
    (("deck.copies_split=[9, 12, 3]",), "four counts"),
    (("deck.copies=[2, 0, 3]",), "at least one copy"),
    (("deck.copies=[1, 2, 3]",), "cannot deal hands of 5 to 4 players"),
    (("game.hand_size=0",), "hand_size"),
    (("game.players_max=3",), "allow 2-3 players, not 4"),
    (("deck.copies='many'",), "is an array"),
    (("deck.copies=[1.5, 2]",), "array of integers"),
])
def test_bad_decks_and_counts_are_refused(sets, message):
    with pytest.raises(SimkitError, match=re.escape(message)):
        GAME.prepare(GAME.rules(sets=list(sets)), 4)


def test_a_custom_deck_plays():
    prepared, columns = play(["greedy", "random"], 50, sets=("deck.copies=[5, 5, 5, 5]",))
    assert prepared.copies.tolist() == [5, 5, 5, 5]
    assert (per_seat(columns, "collected", 2).sum(axis=1) + per_seat(columns, "left_on_table", 2)[:, 0] == 20).all()


def _replay(seed, game, lineup):
    seats = parse_lineup("dweebies", lineup)
    return GAME.replay(GAME.prepare(GAME.rules(), len(seats)), seats, seed, game)


def test_replay_collections_are_real_lines_and_match_the_batch():
    lineup = list(GAME.default_lineup)
    text = _replay(4, 2, lineup)
    collections = re.findall(r"collects a (row|column) of (\d+): ([A-Za-z ]+) \(both ends (\w)\)", text)
    assert collections
    for _, size, cards, end in collections:
        cards = cards.split()
        assert len(cards) == int(size) and cards[0] == cards[-1] == end
    _, columns = play(lineup, 3, seed=4, check=False)
    for p in range(4):
        got = per_seat(columns, "collected", 4)[2, p]
        assert re.search(rf"seat {p} \([^)]*\): collected {got} cards", text)
    assert text.count("[") >= 54 - len(collections)  # the table is drawn after every move


def test_replay_draws_the_link_cells_of_a_split_table():
    text = _replay(4, 2, ["greedy"] * 4)
    assert "shortest link needs" in text and " * " in text


def test_golden_replay():
    """A seeded game's full transcript; regenerate with SIMKIT_REGOLD=1 after a deliberate change."""
    import os

    text = _replay(1, 1, list(GAME.default_lineup))
    if os.environ.get("SIMKIT_REGOLD"):
        GOLDEN.write_text(text + "\n")
    assert text + "\n" == GOLDEN.read_text()
