"""The meta-game: replicator dynamics find known equilibria; u(x) matches a brute-force enumeration; the payoff
table of a real game is constant-sum, as its definition (shares of the win) requires."""
import itertools
import math

import numpy as np
import pytest

from simkit.analysis import metagame
from simkit.analysis.metagame import SymmetricGame, profiles
from simkit.cli import main


def two_player(matrix) -> SymmetricGame:
    """A symmetric two-player game given by the row player's payoff matrix."""
    matrix = np.asarray(matrix, float)
    profile_list = profiles(len(matrix), 2)
    table = np.zeros((len(profile_list), len(matrix)))
    for p, (i, j) in enumerate(profile_list):
        table[p, i], table[p, j] = matrix[i, j], matrix[j, i]
    return SymmetricGame(table, profile_list, len(matrix), 2)


def test_rock_paper_scissors_with_unequal_prizes():
    # zero-sum; the equilibrium solves A x = 0: x = (1/4, 1/2, 1/4); the dynamics circle it, the time average finds it
    game = two_player(0.5 + np.array([[0, -1, 2], [1, 0, -1], [-2, 1, 0]]) / 4)
    mix, settled, _ = game.replicator()
    assert not settled
    np.testing.assert_allclose(mix, [0.25, 0.5, 0.25], atol=0.01)
    assert game.gap(mix) < 1e-3


def test_plain_rock_paper_scissors_is_uniform():
    game = two_player(0.5 + np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]]) / 2)
    mix, _, _ = game.replicator(start=[0.5, 0.3, 0.2])
    np.testing.assert_allclose(mix, [1 / 3] * 3, atol=0.01)


def test_hawk_dove_settles_at_the_interior_equilibrium():
    mix, settled, _ = two_player([[-1, 2], [0, 1]]).replicator()   # V = 2, C = 4: hawks V / C = 1/2
    assert settled
    np.testing.assert_allclose(mix, [0.5, 0.5], atol=1e-4)


def test_a_dominant_strategy_takes_over_at_four_players():
    profile_list = profiles(3, 4)
    table = np.zeros((len(profile_list), 3))
    for p, profile in enumerate(profile_list):
        count = [profile.count(i) for i in range(3)]
        for i in set(profile):
            table[p, i] = (1 / count[0] if i == 0 else 0.0) if count[0] else 0.25   # strategy 0 wins whenever present
    game = SymmetricGame(table, profile_list, 3, 4)
    mix, settled, _ = game.replicator()
    assert settled and mix[0] > 0.999
    assert game.gap(mix) < 1e-6


def test_expected_payoffs_match_a_brute_force_enumeration():
    rng = np.random.default_rng(1)
    profile_list = profiles(3, 4)
    table = rng.random((len(profile_list), 3))
    game = SymmetricGame(table, profile_list, 3, 4)
    index = {profile: p for p, profile in enumerate(profile_list)}
    x = np.array([0.2, 0.5, 0.3])
    for i in range(3):
        expected = sum(math.prod(x[j] for j in opponents) * table[index[tuple(sorted((i, *opponents)))], i]
                       for opponents in itertools.product(range(3), repeat=3))
        assert game.payoffs(x)[i] == pytest.approx(expected)


def test_wheedle_metagame_tables(tmp_path):
    result = metagame("wheedle", "hair-trigger,threshold,blocker", players=3, games=360, seed=1, bootstrap=5)
    equilibrium, payoffs = result.tables["equilibrium"], result.tables["payoffs"]
    assert equilibrium["mix"].sum() == pytest.approx(1)
    assert (equilibrium["mix_low"] <= equilibrium["mix_high"]).all()
    assert len(payoffs) == len(profiles(3, 3)) == 10
    names = ["hair-trigger", "threshold", "blocker"]
    for _, row in payoffs.iterrows():   # shares of the win: every game's payoffs sum to one
        assert sum(row[f"n_{name}"] * (0 if np.isnan(row[name]) else row[name]) for name in names) == pytest.approx(1)
    assert len(result.tables["bootstrap"]) == 5 and result.setup["games"] == 10 * 3 * 12


def test_metagame_command_writes_the_mix_and_the_simplex(tmp_path):
    main(["metagame", "wheedle", "-s", "hair-trigger,threshold,blocker", "-p", "3", "--games", "120", "--bootstrap", "3",
          "-w", "1", "--out", str(tmp_path / "meta")])
    folder = tmp_path / "meta/01-metagame"
    for name in ("equilibrium.csv", "payoffs.parquet", "mix.png", "simplex.svg", "findings.txt"):
        assert (folder / name).is_file(), name
    html = (tmp_path / "meta/report.html").read_text()
    assert "Equilibrium mix" in html and "Replicator dynamics on the simplex" in html
