"""The tuner: it finds a known optimum, the same seed gives the same history, a killed run resumes to the
history of an uninterrupted one, and bad input is one line."""
import importlib
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from simkit.analysis import compare, tune
from simkit.analysis.tune import declared_space, parse_budget, parse_space
from simkit.cli import main
from simkit.errors import SimkitError
from simkit.strategy import parse_lineup, registered

from .peaked import OPTIMUM

ROOT = Path(__file__).resolve().parents[2]
PEAKED = "tests.analysis.peaked:peaked"
FIELD = "hair-trigger,hair-trigger"     # 3 players (a Wheedle house rule): quick games, a clear signal


def test_tuner_finds_the_known_optimum_and_validates_it():
    result = tune("wheedle", PEAKED, field=FIELD, budget="48", trial_games=60, max_trial_games=480, games=600, seed=2)
    distance = ((result.best["x"] - OPTIMUM["x"]) ** 2 + (result.best["y"] - OPTIMUM["y"]) ** 2) ** 0.5
    assert distance < 1.2, result.best                      # skill there is at least exp(-1.44/8) = 0.84
    assert result.setup["sampler"] == "cmaes"               # two continuous parameters
    validation = result.validation.iloc[0]
    assert validation["win_low"] > 0                        # the start (5, 5) has skill 0.37: beaten significantly
    exploit = result.tables["margin_over_field"].loc["hair-trigger"]
    assert exploit["start_win_diff_high"] < 0                  # the start loses to hair-trigger ...
    assert parse_lineup("wheedle", result.best_spec)[0].values["x"] == result.best["x"]   # the spec plays the best
    assert set(result.trials.columns) >= {"trial", "round", "x", "y", "value", "games"} and len(result.trials) == 48


def test_same_seed_same_history_and_workers_do_not_matter():
    options = dict(field=FIELD, budget="10", trial_games=30, games=30, round_size=4)
    one = tune("wheedle", PEAKED, seed=11, **options)
    two = tune("wheedle", PEAKED, seed=11, workers=2, **options)
    pd.testing.assert_frame_equal(one.trials, two.trials)
    assert one.best == two.best
    other = tune("wheedle", PEAKED, seed=12, **options)
    assert not other.trials[["x", "y"]].equals(one.trials[["x", "y"]])


def test_integer_and_choice_parameters_use_tpe():
    result = tune("wheedle", "threshold", params="points=10:40:int,patience=5|20|60", field=FIELD, budget="6",
                  trial_games=30, games=30, seed=1)
    assert result.setup["sampler"] == "tpe"
    assert result.trials["points"].map(lambda v: float(v).is_integer()).all() and set(result.trials["patience"]) <= {5, 20, 60}
    assert result.trials["points"].iloc[0] == 24            # TPE tries the start first


def test_self_play_stages_play_against_the_previous_best():
    result = tune("wheedle", PEAKED, self_play=True, players=3, budget="16", trial_games=30, games=60, seed=3,
                  stages=2, round_size=4)
    assert list(result.validation.index) == ["among copies of the start", "among copies of the best"]
    assert sorted(result.trials["stage"].unique()) == [1, 2] and len(result.trials) == 16


def _completed(db: Path) -> int:
    """Trials in the storage of a run in progress (0 while it does not exist yet)."""
    if not db.is_file():
        return 0
    try:
        connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)
    except sqlite3.Error:
        return 0
    try:
        return connection.execute("select count(*) from trials").fetchone()[0]
    except sqlite3.Error:
        return 0
    finally:
        connection.close()


def test_a_killed_run_resumes_to_the_uninterrupted_history(tmp_path):
    argv = ["tune", "wheedle", "-s", PEAKED, "--field", FIELD, "--budget", "16", "--trial-games", "30", "--games", "60",
            "--round-size", "4", "--seed", "5", "-w", "1", "--out", str(tmp_path / "killed")]
    process = subprocess.Popen([sys.executable, "-c", "from simkit.cli import main; main()", *argv], cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               env={**os.environ, "PYTHONPATH": str(ROOT)})
    db = tmp_path / ".killed.partial" / "study.db"
    deadline = time.time() + 300
    while _completed(db) < 6 and process.poll() is None and time.time() < deadline:
        time.sleep(0.02)
    assert process.poll() is None, "the run finished before it could be killed"
    process.send_signal(signal.SIGKILL)     # as the OOM killer would: no clean-up at all
    process.wait()
    assert not (tmp_path / "killed").exists() and db.is_file()
    main(argv)                              # the same command continues it
    resumed = pd.read_csv(tmp_path / "killed/01-tune/trials.csv")
    whole = tune("wheedle", PEAKED, field=FIELD, budget="16", trial_games=30, games=60, round_size=4, seed=5)
    pd.testing.assert_frame_equal(resumed, whole.trials, check_dtype=False)
    assert (tmp_path / "killed/01-tune/best.txt").read_text() == whole.best_spec + "\n"
    assert (tmp_path / "killed/study.db").is_file() and not db.parent.exists()
    html = (tmp_path / "killed/report.html").read_text()
    assert "Optimisation trace" in html and "Parameter effects" in html and "Margin over hair-trigger" in html


def test_ctrl_c_keeps_the_search_and_says_how_to_continue(tmp_path, monkeypatch):
    from simkit.runner import RunInterrupted

    tune_module = importlib.import_module("simkit.analysis.tune")   # the package exports the function by that name

    calls = []

    def interrupted(jobs, workers=1):
        calls.append(len(jobs))
        if len(calls) == 2:
            raise KeyboardInterrupt
        return play_jobs(jobs, workers)

    play_jobs = tune_module.play_jobs
    options = dict(field=FIELD, budget="8", trial_games=30, games=30, round_size=4, seed=8,
                   storage=tmp_path / "study.db")
    monkeypatch.setattr(tune_module, "play_jobs", interrupted)
    with pytest.raises(RunInterrupted, match="run the same command again"):
        tune("wheedle", PEAKED, **options)
    monkeypatch.setattr(tune_module, "play_jobs", play_jobs)
    resumed = tune("wheedle", PEAKED, **options)
    whole = tune("wheedle", PEAKED, **{**options, "storage": None})
    pd.testing.assert_frame_equal(resumed.trials, whole.trials)


def test_without_params_the_declared_ranges_are_searched():
    family = registered("wheedle")["patient"]
    dims = {d.name: d for d in declared_space(family)}
    assert set(dims) == set(family.declared)          # every collector parameter declares a finite range
    for name, param in family.declared.items():
        assert (dims[name].low, dims[name].high) == (param.low, param.high)
        assert dims[name].scale == {"float": "float", "int": "int", "bool": "choice", "choice": "choice"}[param.kind]
    with pytest.raises(SimkitError, match="outside patience's declared range"):
        parse_space("patience=0:5000", family)


def test_parsing_of_ranges_and_budgets():
    family = registered("wheedle")["collector"]
    dims = parse_space("points=10:40:int,patience=1:100:log,offer_size=1|2|3", family)
    assert [(d.name, d.scale) for d in dims] == [("points", "int"), ("patience", "int-log"), ("offer_size", "choice")]
    assert parse_budget("200").unit == "trials" and parse_budget("5e5 games").amount == 500_000
    assert parse_budget("10m") == parse_budget("10 minutes")
    with pytest.raises(SimkitError, match="log range"):
        parse_space("points=0:40:log", family)


@pytest.mark.parametrize("argv, needle", [
    (["tune", "wheedle", "-s", "nosuch", "--field", FIELD, "--params", "points=1:5"], "nosuch"),
    (["tune", "wheedle", "-s", "threshold", "--field", FIELD, "--params", "pointz=1:5"], "pointz"),
    (["tune", "wheedle", "-s", "threshold", "--field", FIELD, "--params", "points=30:20"], "empty range"),
    (["tune", "wheedle", "-s", "threshold", "--field", FIELD, "--params", "points=20:20"], "empty range"),
    (["tune", "wheedle", "-s", "threshold", "--field", FIELD, "--params", "points=10:40", "--budget", "0"], "--budget"),
    (["tune", "wheedle", "-s", "threshold", "--field", FIELD, "--params", "points=10:40", "--budget", "5 hours"],
     "--budget"),
    (["tune", "wheedle", "-s", "tests.analysis.peaked:undeclared", "--field", FIELD], "declares no parameter ranges"),
    (["tune", "wheedle", "-s", PEAKED, "--field", FIELD, "--params", "x=-5:5"], "outside"),
    (["tune", "wheedle", "-s", "threshold", "--params", "points=10:40"], "--self-play"),
    (["tune", "wheedle", "-s", "threshold", "--params", "points=10:40", "--field", FIELD, "--self-play"], "--self-play"),
    (["tune", "wheedle", "-s", "threshold", "--params", "points=10:40", "--field", FIELD, "--players", "5"], "--players"),
    (["tune", "wheedle", "-s", "threshold", "--params", "points=10:40", "--field", "nosuch,random"], "nosuch"),
    (["tune", "wheedle", "-s", "threshold", "--params", "points=10:40", "--self-play", "--players", "7"], "not 7"),
    (["tune", "wheedle", "-s", "threshold", "--params", "points=10:40", "--field", FIELD, "--set", "options.max_tick=5"],
     "options.max_tick"),
    (["tune", "wheedle", "-s", "threshold", "--params", "points=1.5:40.5:int", "--field", FIELD], "whole"),
    (["tune", "wheedle", "-s", "threshold", "--params", "points=10:40:int,patience=5:60", "--field", FIELD,
      "--sampler", "cmaes"], "continuous"),
    (["tune", "wheedle", "-s", "threshold", "--params", "points=10:40", "--field", FIELD, "--sampler", "cmaes"],
     "two or more"),
    (["tune", "wheedle", "-s", PEAKED, "--field", FIELD, "--budget", "100 games"], "not enough for one trial"),
    (["tune", "wheedle", "-s", PEAKED, "--self-play", "--budget", "2", "--stages", "3"], "each of the 3 stages"),
    (["metagame", "wheedle", "-s", "hair-trigger,nosuch,blocker"], "nosuch"),
    (["metagame", "wheedle", "-s", "hair-trigger"], "at least two"),
    (["metagame", "wheedle", "-s", "hair-trigger,blocker,hair-trigger"], "twice"),
    (["metagame", "wheedle", "-s", "hair-trigger,blocker", "--players", "7"], "not 7"),
    (["compare", "wheedle", "--set-b", "scoring.false_stop=-10", "--retune", "nosuch"], "no seat"),
    (["compare", "wheedle", "--players-b", "random,random,random,random", "--retune", "threshold"], "--players-b"),
])
def test_bad_input_is_one_line_and_writes_nothing(cli_error, tmp_path, argv, needle):
    out = tmp_path / "out"
    line = cli_error([*argv, "--out", str(out)])
    assert needle in line
    assert not out.exists() and not (tmp_path / ".out.partial").exists()


def test_compare_retune_shows_the_fixed_and_the_retuned_effect():
    result = compare("wheedle", players="threshold,hair-trigger,hair-trigger", sets_b=["scoring.false_stop=-10"],
                     games=60, retune="threshold", retune_params="points=10:40:int", retune_budget="4", seed=4)
    assert result.setup["rotate_seats"]      # seat advantage needs every seat order: --retune plays them
    assert {"strategy", "retuned", "retuned_strategy", "retuned_params"} <= set(result.tables)
    assert result.tables["retuned_strategy"].index.tolist() == ["hair-trigger", "threshold*"]
    assert result.tables["retuned_params"].index.tolist() == [("threshold*", "points")]
    side = result.tables["retuned"]
    assert side.index.get_level_values("players").tolist()[:2] == ["fixed", "re-tuned"]
    # the fixed rows are the fixed line-ups' own changes: seat 0's advantage as compare's seat table has it
    fixed = side.loc[("seat 0 advantage", "fixed")]
    advantage = result.tables["seat_advantage_b"]["win_advantage"][0] - result.tables["seat_advantage_a"]["win_advantage"][0]
    assert fixed["diff"] == pytest.approx(advantage)
    assert any(line.startswith("Seat 0's advantage: ") and "for fixed players" in line for line in result.findings)
    assert any(line.startswith("Re-tuned players: threshold* = threshold re-tuned as a best response")
               for line in result.findings)
    # no percentage on a count, labels short: the terminal shows neither a win n column nor a tuned label
    printed = result.text()
    assert "win n" not in printed and "threshold:points=" not in printed.split("[retuned]")[1]
