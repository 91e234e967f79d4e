"""Re-tuned verdicts (balance and compare --retune) and sized verdicts in sweep, design and tournament, on the
test-only coin game (each game's winner drawn by weights, so every run takes milliseconds)."""
from types import SimpleNamespace

import pandas as pd
import pytest

from simkit.analysis.balance import balance
from simkit.analysis.design import _verdict
from simkit.analysis.goals import Goal
from simkit.analysis.result import parse_negligible
from simkit.analysis.retune import retune_targets
from simkit.analysis.sweep import sweep
from simkit.cli.balance import command as balance_command
from simkit.errors import SimkitError
from simkit.strategy import parse_lineup

from .coin import install, uninstall

LINEUP = "lucky,plain,plain"
LUCK_OFF = ["game.luck_power=0"]        # rules B: a seat's luck no longer counts


@pytest.fixture(autouse=True, scope="module")
def coin_game():
    yield install()
    uninstall()


def test_balance_retune_puts_fixed_and_retuned_players_side_by_side():
    result = balance("coin", players=LINEUP, sets_b=LUCK_OFF, games=300, seed=5, retune="lucky",
                     retune_budget="3")
    side = result.tables["retuned"]
    metrics = ["seat 0 advantage", "strategy spread", "length (turns)", "games hitting a limit"]
    assert side.index.tolist() == [(m, p) for m in metrics for p in ("fixed", "re-tuned")]
    # the fixed rows are the plain A/B card's changes, on the same deals
    plain = balance("coin", players=LINEUP, sets_b=LUCK_OFF, games=300, seed=5).tables["changes"]
    fixed = side.xs("fixed", level="players")
    pd.testing.assert_frame_equal(fixed[["A", "B", "diff", "diff_low", "diff_high"]],
                                  plain[["A", "B", "diff", "diff_low", "diff_high"]])
    # the re-tuned rows are an A/B card of the two tuned line-ups, each under its own rules
    tuned_a, tuned_b = result.setup["retune"]["tuned_a"][0], result.setup["retune"]["tuned_b"][0]
    direct = balance("coin", players=f"{tuned_a},plain,plain", players_b=f"{tuned_b},plain,plain", sets_b=LUCK_OFF,
                     games=300, seed=5).tables["changes"]
    retuned = side.xs("re-tuned", level="players")
    pd.testing.assert_frame_equal(retuned[["A", "B", "diff", "diff_low", "diff_high"]],
                                  direct[["A", "B", "diff", "diff_low", "diff_high"]])
    # luck stops counting under B: the lucky seat's edge, and so the spread, narrows for fixed players
    assert fixed.loc["strategy spread", "verdict"].startswith("narrower: significant")
    line = next(f for f in result.findings if f.startswith("Strategy spread: narrower for fixed players"))
    assert "with fixed players" in line and "re-tuned." in line
    assert result.tables["retuned_strategy"].index.tolist() == ["lucky*", "plain"]
    assert any(f.startswith("Re-tuned players: lucky* = lucky re-tuned as a best response") for f in result.findings)
    text = result.text()
    assert "[retuned]" in text and "[retune_a_lucky_trials]" not in text      # trial tables only with --verbose
    assert "[retune_a_lucky_trials]" in result.text(verbose=True)
    table = text.split("[retuned]\n")[1].split("\n\n")[0].splitlines()
    assert len(table) == 9 and max(len(line) for line in table) <= 120
    # readable at 120 columns below the headline: the footnote's tuned values wrap (no spec is one long word)
    assert max(len(line) for line in text.splitlines()[2:]) <= 120
    assert "lucky* = lucky re-tuned as a best response to the rest of the line-up: " in " ".join(result.findings)


def test_retune_targets_every_tunable_strategy_or_those_named():
    seats = parse_lineup("wheedle", ["threshold", "random", "hair-trigger", "threshold"])
    assert retune_targets(seats, "all") == ["threshold", "random", "hair-trigger"]
    assert retune_targets(seats, "hair-trigger,threshold") == ["hair-trigger", "threshold"]
    dweebies = parse_lineup("dweebies", ["greedy", "random"])
    assert retune_targets(dweebies, "all") == ["greedy"]
    with pytest.raises(SimkitError, match="strategy random has no parameter to tune .* tunable in this line-up: greedy"):
        retune_targets(dweebies, "random")


def test_retune_without_a_value_means_every_tunable_strategy():
    context = balance_command.make_context("balance", ["wheedle", "--set-b", "scoring.stop_bonus=15", "--retune"])
    assert context.params["retune"] == "all"
    context = balance_command.make_context("balance", ["wheedle", "--retune=patient", "--set-b", "scoring.stop_bonus=15"])
    assert context.params["retune"] == "patient"


@pytest.mark.parametrize("argv, needle", [
    (["balance", "dweebies", "--players", "greedy,random", "--set-b", "game.collect=may", "--retune", "random"],
     "has no parameter to tune"),
    (["balance", "wheedle", "--retune", "patient"], "give the change as --set-b"),
    (["balance", "wheedle", "--set-b", "scoring.stop_bonus=15", "--retune", "nosuch"], "no seat"),
    (["sweep", "wheedle", "--rule", "scoring.stop_bonus=5|15", "--negligible", "win=-1"],
     "a threshold must be a number >= 0"),
    (["compare", "wheedle", "--set-b", "scoring.stop_bonus=15", "--negligible", "win=-0.5"],
     "a threshold must be a number >= 0"),
    (["balance", "wheedle", "--set-b", "scoring.stop_bonus=15", "--negligible", "length=-1"],
     "a threshold must be a number >= 0"),
    (["compare", "wheeler-dealer-us", "--players", "random,copper-only,builder", "--set-b", "game.level=2",
      "--retune=random"], "strategy random has no parameter to tune"),
    (["tournament", "wheedle", "-s", "patient,threshold", "--players", "2", "--negligible", "speed=1"],
     "METRIC one of"),
])
def test_bad_retune_or_negligible_is_one_line_and_writes_nothing(cli_error, tmp_path, argv, needle):
    line = cli_error([*argv, "--games", "20", "--out", str(tmp_path / "out")])
    assert needle in line and not (tmp_path / "out").exists()


def test_a_sweep_sizes_each_point_against_the_best():
    # seat 0 wins w / (w + 1) at 2 players: 20% at w = 0.25, 80% at w = 4, far apart in 400 games
    result = sweep("coin", rule="game.first_weight=0.25|4", players="plain,plain", games=400, seed=1)
    assert result.tables["focus"]["verdict"].tolist() == ["significant and larger than negligible", "best"]
    loose = sweep("coin", rule="game.first_weight=0.25|4", players="plain,plain", games=400, seed=1,
                  negligible=["win=100"])
    assert loose.tables["focus"]["verdict"].tolist() == ["significant but negligible", "best"]
    assert any(f.startswith("Other points against the best") and "significant but negligible: 0.25" in f
               for f in loose.findings)


def test_a_design_verdict_is_sized_by_the_goal_measure():
    plan = SimpleNamespace(negligible=parse_negligible(["length=2"]), spec=SimpleNamespace(length_column="turns"))
    length = Goal("length=5", "abs(length - 5.0)", "minimize", "length_off_5", "")
    rate = Goal("spread", "spread", "minimize", "spread", "", rate=True)
    judged, words = _verdict(length, -3.0, -0.5, -1.5, plan)
    assert words == "better than the default (significant but negligible; negligible: under 2 turns)"
    assert (judged.sign, judged.small) == (1, True)      # turned to the goal: a shorter distance is better
    judged, words = _verdict(length, -5.0, -2.5, -4.0, plan)
    assert words.startswith("better than the default (significant and larger") and judged.large
    judged, words = _verdict(rate, 0.01, 0.03, 0.02, plan)
    assert words.startswith("worse than the default (significant and larger") and judged.sign == -1
    judged, words = _verdict(rate, -0.01, 0.03, 0.01, plan)
    assert words == "no significant difference from the default" and not judged.significant
