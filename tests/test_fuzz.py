"""Property tests: random valid rule overlays, player counts and line-ups of every game, played in checking
mode (the engine asserts its conservation laws). ``simkit fuzz GAME --games 1000000`` runs the same draws
as a campaign; here hypothesis draws them, so a failure shrinks to a small case."""
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from simkit.fuzz import draw_case, play_case
from simkit.games import all_games


class HypothesisPick:
    def __init__(self, data):
        self.data = data

    def integer(self, low, high):
        return self.data.draw(st.integers(low, high))

    def boolean(self):
        return self.data.draw(st.booleans())

    def choice(self, values):
        return self.data.draw(st.sampled_from(values))


def test_every_game_declares_a_fuzz_drawer():
    assert all(callable(game.fuzz) for game in all_games().values())


@pytest.mark.parametrize("game", sorted(all_games()))
@settings(max_examples=20, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2 ** 32))
def test_conservation_laws_hold_under_random_rules(game, data, seed):
    play_case(draw_case(game, HypothesisPick(data)), games=5, seed=seed)
