"""Experiment files round-trip; the shipped ones are valid; runs are reproducible; reports render for every game."""
from pathlib import Path

import pandas as pd
import pytest

from simkit.analysis import Experiment, load_experiment, sweep
from simkit.analysis.experiment import KINDS, analysis_keys
from simkit.analysis.runs import run_experiment
from simkit.cli import main
from simkit.games import all_games

SHIPPED = sorted(Path(__file__).resolve().parents[2].joinpath("experiments").glob("*.toml"))


def test_experiments_are_shipped_for_every_study_asked_for():
    assert {p.stem for p in SHIPPED} >= {"wheedle-stopping-rules", "us-investing-and-poaching", "wheedle-false-stop",
                                         "dweebies-deck-splits", "us-last-player-standing",
                                         "uk-set-multiples", "design-dweebies-deck-split", "design-uk-level-targets",
                                         "design-us-gold-bankruptcy", "design-wheedle-false-stop",
                                         "design-dweebies-deck-split-good-play", "design-uk-level-targets-good-play",
                                         "design-us-gold-bankruptcy-good-play", "design-wheedle-false-stop-good-play"}


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_shipped_experiment_files_round_trip(path, tmp_path):
    experiment = load_experiment(path)
    again = tmp_path / "again.toml"
    again.write_text(experiment.to_toml())
    assert load_experiment(again) == experiment
    assert experiment.game in all_games()


def test_analysis_keys_come_from_the_library():
    assert "param" in analysis_keys("sweep") and "workers" not in analysis_keys("sweep")
    assert set(KINDS) == {"compare", "tournament", "sweep", "balance", "tune", "metagame", "ladder", "design"}
    assert "storage" not in analysis_keys("tune") and "budget" in analysis_keys("tune")
    assert {"retune", "retune_params", "retune_budget"} <= set(analysis_keys("compare"))


def test_analysis_parameters_read_from_the_source_are_the_functions_own():
    import inspect

    from simkit.experiment_file import parameters

    for kind, function in KINDS.items():
        signature = inspect.signature(function).parameters.values()
        assert parameters(kind) == tuple((p.name, p.default is not inspect.Parameter.empty) for p in signature), kind


def test_experiment_run_writes_results_and_reruns_identically(tmp_path):
    source = tmp_path / "exp.toml"
    source.write_text('game = "wheedle"\nseed = 9\ngames = 80\n[[analysis]]\nkind = "sweep"\nstrategy = "threshold"\n'
                      'param = "points=16:24:8"\nfield = ["hair-trigger", "blocker", "random"]\n')
    main(["experiment", "run", str(source), "--out", str(tmp_path / "one"), "-w", "1"])
    one = tmp_path / "one"
    for name in ("report.html", "manifest.json", "experiment.toml", "01-sweep/curve.csv", "01-sweep/curve.parquet",
                 "01-sweep/curve.png", "01-sweep/curve.svg", "01-sweep/findings.txt"):
        assert (one / name).is_file(), name
    main(["experiment", "run", str(one / "experiment.toml"), "--out", str(tmp_path / "two"), "-w", "2"])
    pd.testing.assert_frame_equal(pd.read_parquet(one / "01-sweep/curve.parquet"),
                                  pd.read_parquet(tmp_path / "two/01-sweep/curve.parquet"))


def test_same_seeds_at_every_sweep_point():
    result = sweep("wheedle", strategy="threshold", param="points=20|20", field="hair-trigger,blocker,random",
                   games=60, seed=3)
    focus = result.tables["curve"].xs("threshold (points)", level="entry")
    assert focus["win_rate"].nunique() == 1 and (focus["win_vs_best"] == 0).all()


@pytest.mark.parametrize("game", list(all_games()))
def test_balance_report_renders_for_every_game(game, tmp_path):
    players = len(all_games()[game].default_lineup)
    experiment = Experiment(game=game, seed=1, games=8 * players, analyses=[{"kind": "balance"}])
    run_experiment(experiment, tmp_path / "card")
    html = (tmp_path / "card" / "report.html").read_text()
    assert "balance report card" in html and "data:image/png;base64," in html
    assert "Seat advantage" in html and "Leader at half-time" in html
    assert (tmp_path / "card/01-balance/seats.png").is_file() and (tmp_path / "card/01-balance/seats.svg").is_file()


def test_an_experiment_tunes_and_retunes(tmp_path):
    source = tmp_path / "search.toml"
    source.write_text('game = "wheedle"\nseed = 4\ngames = 24\n'
                      '[[analysis]]\nkind = "tune"\nstrategy = "threshold"\nparams = "points=10:40,patience=5:60"\n'
                      'field = ["hair-trigger", "blocker"]\nbudget = "4"\ntrial_games = 12\nround_size = 4\n'
                      '[[analysis]]\nkind = "compare"\nplayers = ["threshold", "hair-trigger", "blocker"]\n'
                      'sets_b = ["scoring.false_stop=-10"]\nrotate_seats = true\nretune = "threshold"\n'
                      'retune_params = "points=10:40"\nretune_budget = "2"\n')
    main(["experiment", "run", str(source), "--out", str(tmp_path / "out"), "-w", "1"])
    out = tmp_path / "out"
    assert (out / "study.db").is_file() and not (tmp_path / ".out.partial").exists()
    assert (out / "01-tune/best.txt").read_text().startswith("threshold")
    assert (out / "02-compare/retuned_strategy.csv").is_file() and (out / "02-compare/retuned.png").is_file()
    html = (out / "report.html").read_text()
    assert "Optimisation trace" in html and "for fixed players" in html and "threshold*" in html
