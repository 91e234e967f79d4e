"""The shared conformance check (simkit.testing) for every registered game, with its default line-up."""
import pytest

from simkit.games import all_games
from simkit.testing import check_conformance


@pytest.mark.parametrize("name", sorted(all_games()))
def test_game_conformance(name):
    game = all_games()[name]
    frame = check_conformance(name, games=200, seed=12345)
    assert len(frame) == 200 * len(game.default_lineup)
    assert set(frame["strategy"].astype(str)) <= {label.split(":")[0] for label in game.default_lineup} | set(
        game.default_lineup)


@pytest.mark.parametrize("name", sorted(all_games()))
def test_game_conformance_with_another_seed(name):
    check_conformance(name, games=60, seed=1)


def test_conformance_small_batch():
    check_conformance("wheedle", games=3, seed=1)
