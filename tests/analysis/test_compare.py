"""Paired comparisons: exact zero against itself, known effects found, no effect reported at the stated rate."""
import numpy as np
import pandas as pd
import pytest

from simkit.analysis import compare
from simkit.analysis.stats import paired
from simkit.games import all_games


@pytest.mark.parametrize("game", list(all_games()))
def test_a_rule_set_against_itself_differs_by_exactly_zero(game):
    result = compare(game, games=40, seed=5)
    for table in (result.tables["strategy"], result.tables["seat"]):
        for metric in ("win", "score"):
            assert (table[f"{metric}_diff"] == 0).all()
            assert (table[f"{metric}_low"] == 0).all() and (table[f"{metric}_high"] == 0).all()
    assert any("exactly zero" in line for line in result.findings)


def test_a_much_better_copper_return_raises_the_copper_investors_win_rate():
    result = compare("wheeler-dealer-us", games=1000, seed=2, sets_b=["commodity.Copper.total_return=60000"])
    copper = result.tables["strategy"].loc["copper-only"]
    assert copper["win_low"] > 0.03, copper
    assert copper["score_low"] > 0


def test_paired_intervals_cover_a_null_effect_at_the_stated_rate():
    rng = np.random.default_rng(11)
    misses = 0
    for _ in range(1000):
        common = rng.normal(size=200)       # what A and B share (the deal), plus independent noise
        a = pd.DataFrame({"x": common + rng.normal(size=200)})
        b = pd.DataFrame({"x": common + rng.normal(size=200)})
        row = paired(a, b).iloc[0]
        misses += row["low"] > 0 or row["high"] < 0
    assert 30 <= misses <= 75          # 5% of 1000 = 50; a binomial 99.9% range


def test_no_effect_is_reported_where_there_is_none_on_seeded_repeats():
    """B = A on other seeds is a true null with all the noise of real games."""
    significant = total = 0
    for repeat in range(25):
        table = compare("wheedle", games=200, seed=repeat, seed_b=1000 + repeat).tables["strategy"]
        significant += int(((table["win_low"] > 0) | (table["win_high"] < 0)).sum())
        total += len(table)
    assert significant <= 0.05 * total + 7, (significant, total)   # 5 expected in 100; binomial 99.9% bound 13


def test_stopping_early_keeps_its_error_rate_under_a_null():
    decided_wrongly = 0
    for repeat in range(15):
        result = compare("wheedle", games=800, seed=repeat, seed_b=500 + repeat, until_decided=True, first_batch=100)
        table = result.tables["strategy"]
        decided_wrongly += int(((table["win_low"] > 0) | (table["win_high"] < 0)).sum())
        assert len(result.tables["looks"]) == 4     # 100, 200, 400, 800: nothing to decide, so it plays them all
    assert decided_wrongly <= 2


def test_stopping_early_stops_once_a_large_effect_is_clear():
    result = compare("wheeler-dealer-us", games=20_000, seed=3, sets_b=["commodity.Copper.total_return=60000"],
                     until_decided=True, target=0.05, first_batch=250)
    looks = result.tables["looks"]
    assert looks["decided"].iloc[-1] == looks["strategies"].iloc[-1]
    assert result.setup["games_per_side"] < 20_000
    assert any("Stopped after" in line for line in result.findings)


def test_pairing_reduces_variance_and_says_how_much():
    # W8 "scored": the false stopper's majorities still score, so the bluffer bluffs and -10 changes play
    # (under the default "none" a bluff scores only the penalty, nobody false-stops and B equals A exactly)
    result = compare("wheedle", games=400, seed=4, sets=['scoring.false_stopper_cards="scored"'],
                     sets_b=["scoring.false_stop=-10"], players=["hair-trigger", "threshold", "bluffer", "blocker"])
    assert (result.tables["strategy"]["score_var_reduction"] > 3).all()
    assert any("Variance reduction" in line for line in result.findings)


def test_a_change_only_to_scores_is_not_called_identical():
    # random false-stops: -10 lowers its score but (in these games) changes no result, so the win rates are
    # identical while the mean scores are not
    result = compare("wheedle", games=200, seed=4242, sets_b=["scoring.false_stop=-10"],
                     players=["hair-trigger", "threshold", "random", "blocker"])
    strategy = result.tables["strategy"]
    assert strategy.loc["random", "score_diff"] < 0
    assert not any("identical results" in line for line in result.findings)
    assert any("Variance reduction" in line and "mean score" in line for line in result.findings)

