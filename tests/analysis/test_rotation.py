"""Seat rotation: every strategy in every seat equally often, on the same deals."""
import pandas as pd

from simkit.analysis import compare, tournament
from simkit.analysis.play import batches, play, rotate


def test_rotation_moves_entry_i_to_seat_i_plus_r():
    assert rotate(["a", "b", "c", "d"], 1) == ["d", "a", "b", "c"]
    assert [rotate(list(range(5)), r).index(0) for r in range(5)] == list(range(5))


def test_every_strategy_sits_in_every_seat_once_per_deal():
    lineup = ["hair-trigger", "threshold", "patient", "blocker", "random"]
    frame = play(batches("wheedle", lineup, 3, rotate_seats=True), 0, 30)
    counts = frame.groupby(["game", "strategy", "seat"]).size()
    assert (counts == 1).all() and len(counts) == 30 * 5 * 5


def test_rotated_compare_reports_seat_advantage_over_deals():
    result = compare("dweebies", games=120, seed=1, rotate_seats=True)
    seats = result.tables["seat_advantage_a"]
    assert list(seats.index) == [0, 1, 2, 3]
    assert (seats["deals"] == 30).all()
    assert abs(seats["win_advantage"].sum()) < 1e-9     # advantages are measured against the average seat


def test_tournament_seats_every_strategy_equally():
    result = tournament("dweebies", ["greedy", "greedy-defensive", "pair-keeper", "random"], players=3, games=240, seed=2)
    counts = result.tables["seat_counts"]
    assert counts.to_numpy().min() == counts.to_numpy().max()
    head = result.tables["head_to_head"]
    total = head + head.T
    assert ((total.fillna(1) - 1).abs() < 1e-9).all().all()     # ahead + behind (ties half) = every shared game
    assert result.tables["standings"].index[-1] == "random"
    assert isinstance(result.tables["standings"], pd.DataFrame)
