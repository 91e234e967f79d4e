"""Property tests: random valid rule overlays, player counts and line-ups of every game, played in checking
mode (the engine asserts its conservation laws). ``simkit fuzz GAME --games 1000000`` runs the same draws
as a campaign; here hypothesis draws them, so a failure shrinks to a small case."""
import io
import os
import signal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simkit.fuzz import campaign, draw_case, play_case
from simkit.games import all_games
from simkit.runner import Batch


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


def test_a_campaign_reports_a_broken_case_and_a_crashed_worker_and_goes_on(fresh_pool, monkeypatch):
    real = Batch.play

    def play(self, first, n, check=False):
        if self.seed == 5 + 3:      # case 3 breaks a law
            raise AssertionError("cards not conserved")
        if self.seed == 5 + 6 and n > 1:     # case 6 crashes its worker (as a segmentation fault would)
            os.kill(os.getpid(), signal.SIGKILL)
        return real(self, first, n, check)

    monkeypatch.setattr(Batch, "play", play)      # before the pool forks: its workers play this
    err = io.StringIO()
    result = campaign("dweebies", 10 * 4, per_case=4, workers=2, seed=5, out=err)
    assert result["cases"] == 10 and result["violations"] == 2
    broken, crashed = result["failures"]
    assert broken["case"] == 3 and "AssertionError: cards not conserved" in broken["error"]
    assert crashed["case"] == 6 and "died (SIGKILL" in crashed["error"]
    assert ", 8, rules=" in broken["replay"]      # replays with the case's seed, 5 + 3
    assert err.getvalue().count("VIOLATION") == 2
