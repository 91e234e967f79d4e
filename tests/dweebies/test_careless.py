"""A careless strategy cannot break the Dweebies engine (issue 12): seats whose answers are random integers
in [-1000, 1000], or packed moves from random parts (a Dweebie out of range or not held, a cell anywhere,
declining at random), play thousands of games at 2-6 players with and without checking mode. Every
answer is checked before use: an invalid one is counted in illegal_actions and a random legal move is
played instead (D8), so no game crashes and every card ends collected or on the table."""
import numpy as np
import pytest

from simkit.games import get_game
from simkit.strategy import parse_lineup

from . import toy_strategies as toys

GAME = get_game("dweebies")
ALL_OPTIONS = ["game.min_line=3", "game.collect='may'", "game.split_rule='free'"]


@pytest.mark.parametrize("check", [True, False], ids=["checked", "unchecked"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_careless_answers_are_refused_and_counted(players, check):
    others = ["greedy-defensive", "random", "pair-keeper", "greedy"]
    lineup = [toys.CARELESS, toys.CARELESS_PACKED] + others[: players - 2]
    for sets in ([], ALL_OPTIONS):
        prepared = GAME.prepare(GAME.rules(sets=sets), players)
        columns = GAME.simulate(prepared, parse_lineup("dweebies", lineup), 100 + players, 0, 200, check=check)

        def per_game(name, columns=columns, players=players):
            return np.asarray(columns[name]).reshape(-1, players)

        cards = int(prepared.copies.sum())
        assert (per_game("collected").sum(axis=1) + per_game("left_on_table")[:, 0] == cards).all()
        assert (per_game("turns")[:, 0] == cards).all()
        illegal = per_game("illegal_actions")
        assert (illegal[:, :2] > 0).all() and illegal[:, 2:].sum() == 0
        turns = -(-cards // players)   # a careless answer is sometimes legal by chance, never more than a turn
        assert (illegal[:, 0] <= turns).all() and illegal[:, 0].mean() > 0.8 * (cards // players)
