"""A careless strategy cannot break the Wheeler Dealer (UK) engine: random answers in [-1000, 1000] to every
decision, at 2-6 players, with and without checking mode. (UK decisions answer by their return value only:
there is no answer buffer to fill.)"""
import numpy as np
import pytest

from simkit.strategy import parse_lineup

from .harness import GAME
from .scripted import CARELESS

SHIPPED = ("set-at-3", "raider", "random", "hold-for-5", "cautious")


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("sets", [(), ("game.level=2", "game.borrow_on_sale=false")], ids=["default", "level2-off"])
def test_careless_answers_are_refused_counted_and_break_nothing(players, sets):
    prepared = GAME.prepare(GAME.rules(sets=list(sets)), players)
    mixed = [CARELESS if seat % 2 == 0 else SHIPPED[seat // 2] for seat in range(players)]
    for lineup in (mixed, [CARELESS] * players):
        seats = parse_lineup(GAME.name, lineup)
        checked = GAME.simulate(prepared, seats, 12, 0, 200, check=True)     # raises on any broken law
        unchecked = GAME.simulate(prepared, seats, 12, 0, 200, check=False)
        for name, column in checked.items():
            if name != "_totals":
                assert np.array_equal(column, unchecked[name]), name
        illegal = np.asarray(checked["illegal_actions"]).reshape(-1, players)
        careless = np.array([seat.strategy is CARELESS for seat in seats])
        assert illegal[:, careless].sum() > 0 and illegal[:, ~careless].sum() == 0
        winners = np.asarray(checked["winner"]).reshape(-1, players)
        assert (winners.sum(axis=1) >= 1).all()
