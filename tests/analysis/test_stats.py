"""Bradley-Terry and the sweep grid syntax."""
import numpy as np
import pytest

from simkit.analysis.stats import bradley_terry
from simkit.analysis.sweep import parse_grid
from simkit.errors import SimkitError


def test_bradley_terry_recovers_known_strengths():
    truth = np.log(np.array([1.0, 2.0, 4.0]))
    p = np.exp(truth)
    games = 100_000
    wins = np.array([[games * p[i] / (p[i] + p[j]) if i != j else 0 for j in range(3)] for i in range(3)])
    fitted = bradley_terry(wins)
    assert np.allclose(fitted - fitted.mean(), truth - truth.mean(), atol=0.01)


@pytest.mark.parametrize("text, key, values", [
    ("points=4:20:4", "points", [4, 8, 12, 16, 20]),
    ("fraction=0.1:0.3:0.1", "fraction", [0.1, 0.2, 0.3]),
    ("scoring.false_stop=-20:0:10", "scoring.false_stop", [-20, -10, 0]),
    ("deck.copies_split=[9,12,3,3]|[12,6,6,3]", "deck.copies_split", [[9, 12, 3, 3], [12, 6, 6, 3]]),
    ("options.gifts_allowed=true|false", "options.gifts_allowed", [True, False]),
])
def test_grids(text, key, values):
    assert parse_grid(text, "--param") == (key, values)


@pytest.mark.parametrize("text", ["points", "points=", "=1:2:1", "points=4:2:1", "points=1:5:0", "points=1:x:1",
                                  "points=0:1000:1", "points=[1,2|3"])
def test_bad_grids(text):
    with pytest.raises(SimkitError):
        parse_grid(text, "--param")
