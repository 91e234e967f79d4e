"""Confidence intervals (simkit/stats.py), summaries and run directories (simkit/results.py)."""
import math

import numpy as np
import pandas as pd
import pytest

import simkit
from simkit.errors import SimkitError
from simkit.games import get_game
from simkit.results import load, read_manifest
from simkit.stats import Z95, fmt_interval, mean_interval, wilson


def wilson_direct(k, n, z=Z95):
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


@pytest.mark.parametrize("k, n", [(0, 10), (5, 10), (10, 10), (1, 3), (37, 200), (4999, 10000)])
def test_wilson_matches_formula(k, n):
    low, high = wilson(k, n)
    expected = wilson_direct(k, n)
    assert float(low) == pytest.approx(expected[0], abs=1e-12)
    assert float(high) == pytest.approx(expected[1], abs=1e-12)
    eps = 1e-12  # rounding: the bound at k = n is 1 - 1e-16
    assert -eps <= float(low) <= k / n + eps and k / n - eps <= float(high) <= 1 + eps


def test_wilson_interval_contains_the_rate():
    for n in range(1, 60):
        k = np.arange(n + 1)
        low, high = wilson(k, np.full(n + 1, n))
        assert (low <= k / n).all() and (high >= k / n).all(), n


def test_wilson_known_values():
    # published 95% Wilson intervals
    low, high = wilson(0, 10)
    assert float(low) == pytest.approx(0.0, abs=1e-12) and float(high) == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson(5, 10)
    assert float(low) == pytest.approx(0.2366, abs=1e-4) and float(high) == pytest.approx(0.7634, abs=1e-4)
    low, high = wilson(10, 10)
    assert float(low) == pytest.approx(0.7225, abs=1e-4) and float(high) == pytest.approx(1.0, abs=1e-12)


def test_wilson_vectorised_and_narrows():
    low, high = wilson(np.array([5, 50, 500]), np.array([10, 100, 1000]))
    widths = high - low
    assert widths[0] > widths[1] > widths[2]
    assert np.allclose((low + high) / 2 < 0.5 + 1e-12, True)


def test_mean_interval():
    values = np.array([3.0, -1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0])
    mean, low, high = mean_interval(values.sum(), (values ** 2).sum(), len(values))
    half = Z95 * values.std(ddof=1) / math.sqrt(len(values))
    assert float(mean) == pytest.approx(values.mean())
    assert float(low) == pytest.approx(values.mean() - half)
    assert float(high) == pytest.approx(values.mean() + half)


def test_mean_interval_constant_and_single():
    mean, low, high = mean_interval(14.0, 4 * 3.5 ** 2, 4)
    assert (float(mean), float(low), float(high)) == pytest.approx((3.5, 3.5, 3.5))
    mean, low, high = mean_interval(7.0, 49.0, 1)
    assert float(mean) == 7.0 and float(low) == float(high) == 7.0


def test_fmt_interval():
    assert fmt_interval(0.12345, 0.5, 3) == "[0.123, 0.500]"
    assert fmt_interval(float("nan"), float("nan")) == "-"


def tiny_frame():
    """Three games, three seats; game 1 is a two-way tie, game 2 a three-way tie."""
    frame = pd.DataFrame({
        "game": np.repeat([0, 1, 2], 3),
        "seat": np.tile([0, 1, 2], 3),
        "strategy": pd.Categorical(["a", "b", "a"] * 3),
        "points": [10, 5, 3, 7, 7, 1, 4, 4, 4],
    })
    frame["winner"] = frame["points"] == frame.groupby("game")["points"].transform("max")
    return frame


def test_summarize_counts_ties_as_wins():
    tables = simkit.summarize(tiny_frame())
    by_seat, by_strategy = tables["seat"], tables["strategy"]
    assert by_seat["n"].tolist() == [3, 3, 3]
    assert by_seat["win_rate"].tolist() == pytest.approx([1.0, 2 / 3, 1 / 3])
    assert by_seat["win_rate"].sum() > 1  # ties count for every tied seat
    assert by_seat["mean_points"].tolist() == pytest.approx([7.0, 16 / 3, 8 / 3])
    assert by_strategy.loc["a", "n"] == 6 and by_strategy.loc["b", "n"] == 3
    assert by_strategy.loc["a", "win_rate"] == pytest.approx(4 / 6)
    assert by_strategy.loc["b", "win_rate"] == pytest.approx(2 / 3)
    low, high = wilson(4, 6)
    assert by_strategy.loc["a", "win_low"] == pytest.approx(float(low))
    assert by_strategy.loc["a", "win_high"] == pytest.approx(float(high))
    assert by_strategy.loc["a", "mean_low"] < by_strategy.loc["a", "mean_points"] < by_strategy.loc["a", "mean_high"]


def test_summarize_run_counts_per_strategy_and_seat():
    frame = simkit.run("wheedle", games=50, seed=3, players=["random", "hair-trigger", "random", "blocker"])
    tables = simkit.summarize(frame)
    assert tables["strategy"].loc["random", "n"] == 100
    assert tables["strategy"].loc["hair-trigger", "n"] == 50
    assert tables["seat"]["n"].tolist() == [50] * 4
    wins = frame.groupby("strategy", observed=True)["winner"].mean()
    assert tables["strategy"]["win_rate"].to_dict() == pytest.approx(wins.to_dict())


def test_summarize_directory_equals_frame(run_dir):
    from_dir = simkit.summarize(run_dir)
    from_frame = simkit.summarize(simkit.load(run_dir))
    for key in ("strategy", "seat"):
        pd.testing.assert_frame_equal(from_dir[key], from_frame[key], check_dtype=False)


def test_load_run_directory(run_dir):
    frame = load(run_dir)
    assert len(frame) == 800
    assert list(frame.columns[:4]) == ["game", "seat", "strategy", "points"]
    assert frame["game"].tolist() == sorted(frame["game"].tolist())
    manifest = read_manifest(run_dir)
    assert frame.attrs["manifest"] == manifest
    assert manifest["players"] == 4 and manifest["official_player_count"] is True
    assert manifest["rules"] == get_game("wheedle").rules()
    assert {"simkit", "numba", "numpy", "python"} <= set(manifest["versions"])
    # the columns the spec asks for (per game and seat; per game)
    for column in ("points", "points_r1", "points_r4", "stops", "good_stops", "false_stops", "winner",
                   "ticks_r1", "stalemates", "stopper_r1"):
        assert column in frame.columns
    assert "_trace" not in frame.columns


def test_load_columns(run_dir):
    frame = load(run_dir, columns=["game", "points"])
    assert list(frame.columns) == ["game", "points"]


def test_load_not_a_run(tmp_path):
    with pytest.raises(SimkitError, match="not a simkit run directory"):
        load(tmp_path)


def test_summarize_a_run_without_its_parts(tmp_path, run_dir):
    (tmp_path / "manifest.json").write_text((run_dir / "manifest.json").read_text())
    with pytest.raises(SimkitError, match="is damaged: part-000000.parquet is missing"):
        simkit.summarize(tmp_path)


def test_round_points_do_not_overflow(tmp_path):
    path = tmp_path / "big.toml"
    companies = "".join(f'[[company]]\nname = "C{i}"\ncards = 99\n' for i in range(3))
    path.write_text(companies + "[deal]\nhouse_hand = { 2 = 148, 3 = 20 }\n"
                    "[scoring]\nall_cards = 1000\nmajority = 1000\n")
    frame = simkit.run("wheedle", games=10, seed=1, players=["hair-trigger", "hair-trigger"], rules=path)
    assert (frame[["points_r1", "points_r2"]].sum(axis=1) == frame["points"]).all()
