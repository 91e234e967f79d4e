"""The rule search: it finds a known optimum, its Pareto front is non-dominated, the same seed gives the same
history, a killed search resumes to the uninterrupted one, candidates' TOML files load with --rules and
reproduce their balance card, its statistics re-derive the balance card's, and bad input is one line.

Most tests play the test-only coin game (tests/analysis/coin), whose seat advantage is known exactly."""
import os
import signal
import sqlite3
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from simkit.analysis.design import _profiles, design, parse_population
from simkit.analysis.goals import DealSums, Quantiles, bootstrap_weights, evaluate_expression
from simkit.analysis.paired import seat_advantage
from simkit.analysis.play import batches, play
from simkit.cli import main
from simkit.errors import SimkitError
from simkit.games import get_game
from simkit.rules import overlay_of, with_values

from .coin import install, uninstall

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True, scope="module")
def coin_game():
    """The coin game is registered only while this module's tests run: the tests over every game must not
    collect it."""
    yield install()
    uninstall()


def first_seat(weight: float, players: int) -> float:
    """Seat 0's win rate minus the average seat's (1/players): the coin game's answer."""
    return weight / (weight + players - 1) - 1 / players


def test_the_search_finds_the_known_optimum_and_separates_it_from_the_default():
    result = design("coin", vary="game.first_weight=0.25:4:log", goal="seat-balance", players="plain,plain",
                    budget="16", trial_games=2000, games=10_000, seed=4, progress=False)
    assert result.setup["sampler"] == "tpe"                 # one range: CMA-ES needs two
    best = result.winner
    assert best is not None, result.findings
    weight = best["game.first_weight"]
    assert abs(np.log(weight)) < 0.15, weight                # the advantage vanishes at 1
    row = result.validation.set_index("rules").loc[result.setup["winner"]["name"]]
    # the interval of the re-evaluated seat advantage holds the analytic value at the weight found
    assert row["value_low"] <= abs(first_seat(weight, 2)) <= row["value_high"], (row, weight)
    default = result.validation.set_index("rules").loc["default"]
    assert default["value_low"] <= first_seat(2.0, 2) <= default["value_high"]       # 1/6 at the default 2
    assert "better than the default" in row["verdict"]
    assert set(result.trials.columns) >= {"trial", "round", "game.first_weight", "largest_win_advantage",
                                          "largest_win_advantage_low", "largest_win_advantage_high"}
    assert len(result.trials) == 16 and result.files["candidate-1.toml"].count("first_weight") >= 1


def test_two_conflicting_goals_give_a_non_dominated_front():
    # seat balance is best at weight 1, a median length of 5 turns at weight 0.5 (length ~ 10 x weight)
    result = design("coin", vary="game.first_weight=0.2:4:log", goal=["seat-balance", "length=5"],
                    players="plain,plain,plain", budget="36", trial_games=600, games=1200, seed=3, progress=False)
    assert result.setup["sampler"] == "nsga2"
    trials, front = result.trials, result.tables["front"]
    columns = ["largest_win_advantage", "length_off_5"]
    points = trials[columns].to_numpy()
    on_front = trials["pareto"].to_numpy()
    for i in np.flatnonzero(on_front):                      # no trial dominates a front member
        dominated = np.all(points <= points[i], axis=1) & np.any(points < points[i], axis=1)
        assert not dominated.any(), trials.iloc[i]
    for i in np.flatnonzero(~on_front):                     # every other trial is dominated by one
        assert (np.all(points[on_front] <= points[i], axis=1) & np.any(points[on_front] < points[i], axis=1)).any()
    assert len(front) == on_front.sum() >= 2
    assert front["game.first_weight"].between(0.35, 1.3).all(), front["game.first_weight"]   # between 0.5 and 1
    assert len(result.candidates) <= 3
    # the validation table holds a share and a length in the same columns: its rate column tells them apart
    validation = result.validation.set_index("measure")["rate"]
    assert validation.loc["seat-balance"].all() and not validation.loc["length=5"].any()
    shown = result.text().split("[validation]")[1]
    assert all(("%" in line) == ("seat-balance" in line) for line in shown.split("\n\n")[0].splitlines()[2:])


def test_same_seed_same_history_whatever_the_workers():
    options = dict(vary=["game.first_weight=0.2:4:log", "game.length_scale=5:20"], goal="length=30", players="plain,lucky",
                   budget="12", trial_games=200, games=200, round_size=4, progress=False)
    one = design("coin", seed=11, **options)
    two = design("coin", seed=11, workers=2, **options)
    assert one.setup["sampler"] == "cmaes"
    pd.testing.assert_frame_equal(one.trials, two.trials)
    assert one.candidates == two.candidates and one.findings == two.findings
    other = design("coin", seed=12, **options)
    assert not other.trials["game.first_weight"].equals(one.trials["game.first_weight"])


def _completed(db: Path) -> int:
    if not db.is_file():
        return 0
    try:
        connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)
        try:
            return connection.execute("select count(*) from trials where state = 'COMPLETE'").fetchone()[0]
        finally:
            connection.close()
    except sqlite3.Error:
        return 0


SEARCH = dict(vary="game.first_weight=0.2:4:log", goal="seat-balance", constraint="length<=25", players="plain,plain,lucky",
              budget="16", trial_games=1000, games=300, round_size=4, seed=5, progress=False)


def test_a_killed_search_resumes_to_the_uninterrupted_history(tmp_path):
    db = tmp_path / "study.db"
    script = ("import sys; from tests.analysis.coin import install; install(); from simkit.analysis.design import design; "
              f"design('coin', storage=sys.argv[1], **{SEARCH!r})")
    process = subprocess.Popen([sys.executable, "-c", script, str(db)], cwd=ROOT, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, env={**os.environ, "PYTHONPATH": str(ROOT)})
    deadline = time.time() + 300
    while _completed(db) < 6 and process.poll() is None and time.time() < deadline:
        time.sleep(0.02)
    assert process.poll() is None, "the search finished before it could be killed"
    process.send_signal(signal.SIGKILL)     # no clean-up at all
    process.wait()
    assert 6 <= _completed(db) < 16
    resumed = design("coin", storage=db, **SEARCH)
    whole = design("coin", **SEARCH)
    pd.testing.assert_frame_equal(resumed.trials, whole.trials)
    assert resumed.candidates == whole.candidates
    assert "feasible" in whole.trials and not whole.trials["feasible"].all()   # the constraint cuts weights above ~2


def test_ctrl_c_keeps_the_search_and_a_different_command_is_refused(tmp_path, monkeypatch):
    import importlib

    from simkit.runner import RunInterrupted

    module = importlib.import_module("simkit.analysis.design_space")   # where the plan plays
    play_jobs, calls = module.play_jobs, []

    def interrupted(jobs, workers=1):
        calls.append(len(jobs))
        if len(calls) == 3:
            raise KeyboardInterrupt
        return play_jobs(jobs, workers)

    options = {**SEARCH, "budget": "12", "trial_games": 60, "storage": tmp_path / "study.db"}
    monkeypatch.setattr(module, "play_jobs", interrupted)
    with pytest.raises(RunInterrupted, match="run the same command again"):
        design("coin", **options)
    monkeypatch.setattr(module, "play_jobs", play_jobs)
    with pytest.raises(SimkitError, match="goals differ"):
        design("coin", **{**options, "goal": "length=10"})
    resumed = design("coin", **options)
    pd.testing.assert_frame_equal(resumed.trials, design("coin", **{**options, "storage": None}).trials)


def test_the_card_fields_re_derive_the_balance_card():
    spec = get_game("coin")
    frame = play(batches("coin", ["plain", "lucky", "plain"], 9, [], None, True), 0, 400, 1, keep="all")
    sums = DealSums(frame, spec, ["plain", "lucky"])
    fields = sums.fields(np.ones((1, sums.deals)))
    seats = seat_advantage(frame)
    assert fields["first_seat"][0] == pytest.approx(seats.loc[0, "win_advantage"])
    assert fields["seat_advantage"][0] == pytest.approx(seats["win_advantage"].abs().max())
    lengths = frame.loc[frame["seat"] == 0, "turns"]
    assert fields["length"][0] == np.median(lengths) and fields["length_p90"][0] == np.percentile(lengths, 90)
    wins = frame.groupby("strategy")["win"].mean()
    assert fields["win"]["lucky"][0] == pytest.approx(wins["lucky"])
    assert fields["spread"][0] == pytest.approx(wins.max() - wins.min())
    assert fields["points"][0] == pytest.approx(frame["points"].mean()) == fields["mean"]["points"][0]
    assert fields["limit"][0] == 0 and fields["decisive"][0] == 1
    value = evaluate_expression("abs(advantage['lucky']) + max(first_seat, 0)", fields, "--goal")
    assert value[0] == pytest.approx(abs(wins["lucky"] - seats["win"].mean()) + max(seats.loc[0, "win_advantage"], 0))


def test_resampled_quantiles_are_those_of_the_repeated_sample():
    rng = np.random.default_rng(1)
    values, deal = rng.integers(1, 40, 300).astype(float), np.repeat(np.arange(100), 3)
    weights = bootstrap_weights(100, 20, 7)
    for q in (0.1, 0.5, 0.9):
        got = Quantiles(values, deal, 100)(weights, q)
        expected = [np.quantile(np.repeat(values, row[deal].astype(int)), q) for row in weights]
        np.testing.assert_allclose(got, expected)


def test_a_population_plays_its_profiles_in_proportion(tmp_path):
    mix = parse_population("plain@3,lucky@1", "coin")
    assert [(seat.label, share) for seat, share in mix] == [("plain", 0.75), ("lucky", 0.25)]
    lineups = _profiles(mix, 3, 640)
    assert sum(count for _, _, count in lineups) == 640
    shares = {tuple(s.label for s in seats): count / 640 for seats, _, count in lineups}
    assert shares[("plain", "plain", "plain")] == pytest.approx(0.75 ** 3, abs=1 / 640)
    assert shares[("plain", "plain", "lucky")] == pytest.approx(3 * 0.75 ** 2 * 0.25, abs=1 / 640)
    # a meta-game's equilibrium table is read as the mix
    pd.DataFrame({"strategy": ["plain", "lucky"], "mix": [0.5, 0.5]}).to_parquet(tmp_path / "equilibrium.parquet")
    assert [share for _, share in parse_population(tmp_path, "coin")] == [0.5, 0.5]
    result = design("coin", vary="game.luck_power=0:2", goal="spread", population="plain@3,lucky@1", player_count=3,
                    budget="8", trial_games=300, games=600, seed=2, progress=False)
    assert abs(result.winner["game.luck_power"]) < 0.4 if result.winner else True
    assert result.setup["population"] == [["plain", 0.75], ["lucky", 0.25]]


def test_retune_judges_the_best_candidate_with_re_tuned_players():
    result = design("coin", vary="game.luck_power=0:2", goal="spread", players="plain,plain,lucky", budget="4",
                    trial_games=120, games=300, retune="lucky", retune_budget="4", seed=3, progress=False)
    assert list(result.tables["retuned"]["goal"]) == ["spread"]
    assert any(line.startswith("Re-tuned players (lucky tuned under each rule set") for line in result.findings)


def test_candidate_rules_files_hold_only_the_changes_and_load_back():
    spec = get_game("wheeler-dealer-us")
    rules = with_values(spec.default_rules, {"commodity.Gold.total_return": 123_000, "game.start_cash": 90_000})
    overlay = overlay_of(spec.default_rules, rules)
    assert set(overlay) == {"commodity", "game"} and overlay["game"] == {"start_cash": 90_000}
    import tomli_w

    path = Path(os.environ.get("TMPDIR", "/tmp")) / f"candidate-{os.getpid()}.toml"
    path.write_text(tomli_w.dumps(overlay))
    try:
        assert spec.rules(path) == rules
    finally:
        path.unlink()


def test_candidate_toml_loads_with_rules_and_reproduces_its_balance_card(tmp_path):
    out = tmp_path / "design"
    main(["design", "wheedle", "--vary", "scoring.stop_bonus=0:10", "--goal", "seat-balance", "--budget", "3",
          "--trial-games", "24", "--games", "40", "--candidates", "1", "-w", "1", "--seed", "3", "--out", str(out)])
    folder = out / "01-design"
    import json

    chosen = json.loads((out / "manifest.json").read_text())["analyses"][0]["setup"]["candidates"][0]["values"]
    loaded = tomllib.loads((folder / "candidate-1.toml").read_text())    # only what differs from the defaults
    assert loaded.get("scoring", {}).get("stop_bonus", 5) == chosen["scoring.stop_bonus"]
    findings = (folder / "findings.txt").read_text()
    command = findings.split("`")[1].split()          # simkit balance wheedle --players ... --games N --seed S
    card = tmp_path / "card"
    main([*command[1:], "--rules", str(folder / "candidate-1.toml"), "-w", "1", "--out", str(card)])
    seats = pd.read_csv(card / "01-balance" / "seats.csv")
    designed = pd.read_csv(folder / "card_seats.csv")
    designed = designed[designed["rules"] == "candidate-1"].reset_index(drop=True)
    np.testing.assert_allclose(seats["win_advantage"], designed["win_advantage"])
    html = (out / "report.html").read_text()
    assert "Optimisation trace" in html and "candidate-1" in html


@pytest.mark.parametrize("argv, needle", [
    (["--vary", "scoring.nosuch=1:5"], "unknown key 'scoring.nosuch'"),
    (["--vary", "options.rounds=1:5"], "not a number"),
    (["--vary", "options.gifts_allowed=0:1"], "not a number"),
    (["--vary", "company=1:5"], "is a table"),
    (["--vary", "scoring.false_stop=0:-5"], "empty range"),
    (["--vary", "scoring.false_stop=-5:-5"], "empty range"),
    (["--vary", "scoring.false_stop=-1:x"], "not a number"),
    (["--vary", "scoring.false_stop=-5000:0"], "is not allowed"),
    (["--vary", "scoring.false_stop=-5.5:0"], "whole numbers"),
    (["--vary", "options.rounds=players|0"], "is not allowed"),
    (["--vary", "scoring.false_stop=-9:0", "--vary", "scoring.false_stop=-2:0"], "given twice"),
    (["--goal", "fairness"], "unknown goal"),
    (["--goal", "length=long"], "TARGET must be a number"),
    (["--goal", "min:abs("], "not an expression"),
    (["--goal", "min:winn['x']"], "unknown field 'winn'"),
    (["--goal", "min:win['nosuch']"], "win has no 'nosuch'"),
    (["--goal", "min:__import__('os')"], "only the functions"),
    (["--goal", "min:first_seat.real"], "attribute"),
    (["--constraint", "length"], "expected EXPR<=NUMBER"),
    (["--constraint", "lenght<=80"], "unknown field 'lenght'"),
    (["--goal", "max:false_stopz"], "unknown field 'false_stopz'; fields: bankrupt_cards"),    # a counter misspelt
    (["--negligible", "length=-1"], "a threshold must be a number >= 0"),
    (["--players", "hair-trigger,hair-trigger", "--population", "hair-trigger@1"], "not both"),
    (["--population", "hair-trigger@x"], "must be a number"),
    (["--budget", "0"], "--budget"),
    (["--sampler", "cmaes"], "cmaes needs"),
    (["--retune", "nosuch"], "no seat"),
])
def test_bad_input_is_one_line_and_writes_nothing(cli_error, tmp_path, argv, needle):
    command = ["design", "wheedle", "--out", str(tmp_path / "out"), "-w", "1", "--budget", "2", "--trial-games", "8"]
    if "--vary" not in argv:
        command += ["--vary", "scoring.false_stop=-10:0"]
    if "--goal" not in argv:
        command += ["--goal", "seat-balance"]
    line = cli_error(command + argv)
    assert needle in line, line
    assert not (tmp_path / "out").exists() and not list(tmp_path.glob(".out*"))


def test_a_space_no_larger_than_the_budget_is_played_whole():
    result = design("coin", vary=["game.first_weight=0.5|1|2|4", "game.max_length=5:7"], goal="seat-balance",
                    players="plain,plain", budget="20", trial_games=40, games=80, seed=1, progress=False)
    assert result.setup["sampler"] == "grid" and len(result.trials) == 12
    points = set(zip(result.trials["game.first_weight"], result.trials["game.max_length"]))
    assert points == {(w, m) for w in (0.5, 1.0, 2.0, 4.0) for m in (5, 6, 7)}


def _constructed(values: dict[str, tuple[float, float]], seed: int = 1):
    """A two-goal re-evaluation built by hand: each rule set's (x, y) estimates (both minimised) with 400
    resamples of noise 0.1 each, judged as design_verdict judges a real one."""
    from types import SimpleNamespace

    from simkit.analysis.design_verdict import _validation
    from simkit.analysis.goals import parse_goal

    rng = np.random.default_rng(seed)
    plan = SimpleNamespace(goals=[parse_goal("min:x", 1), parse_goal("min:y", 2)], constraints=[], negligible=None,
                           spec=None)
    names = list(values)
    judged = [{"goals": {goal.column: np.concatenate([[centre], centre + rng.normal(0, 0.1, 400)])
                         for goal, centre in zip(plan.goals, values[name])}, "constraints": {}} for name in names]
    _, verdicts = _validation(plan, names, judged)
    return plan, names, judged, verdicts


def test_a_winner_is_undominated_with_intervals():
    """candidate-1 beats the default on x and ties on y, but candidate-2 beats candidate-1 on x and ties it on y:
    candidate-1 is no winner (the old rule named the first candidate better on a goal and worse on none)."""
    from simkit.analysis.design_verdict import _winner, beaten_by

    plan, names, judged, verdicts = _constructed({"default": (0, 0), "candidate-1": (-1, 0), "candidate-2": (-2, 0)})
    beaten = beaten_by(plan, names, verdicts, judged)
    assert beaten["candidate-1"] == [("candidate-2", ["min:x"])] and beaten["candidate-2"] == []
    winner, contenders = _winner(plan, names, verdicts, [{"k": 1}, {"k": 2}], beaten)
    assert winner == {"name": "candidate-2", "values": {"k": 2}} and contenders == ["candidate-2"]


def test_two_undominated_contenders_mean_no_single_winner():
    """Each candidate beats the default on one goal and the other on that goal: a trade-off, not a winner."""
    from simkit.analysis.design_verdict import _no_single_winner, _winner, beaten_by

    plan, names, judged, verdicts = _constructed({"default": (0, 0), "candidate-1": (-1, 0), "candidate-2": (0, -1)})
    beaten = beaten_by(plan, names, verdicts, judged)
    assert beaten == {"candidate-1": [], "candidate-2": []}
    winner, contenders = _winner(plan, names, verdicts, [{"k": 1}, {"k": 2}], beaten)
    assert winner is None and contenders == ["candidate-1", "candidate-2"]
    text = _no_single_winner(contenders, beaten)
    assert text.startswith("No single winner: candidate-1 and candidate-2 are each better") and "trade-off" in text
    # a contender beaten by a candidate that is not one (worse than the default on y) is still no winner
    plan, names, judged, verdicts = _constructed({"default": (0, 0), "candidate-1": (-1, 0), "candidate-2": (-2, 0.5)})
    beaten = beaten_by(plan, names, verdicts, judged)
    assert beaten["candidate-1"] == [] and beaten["candidate-2"] == []     # c2 is worse than c1 on y: no dominance
    plan, names, judged, verdicts = _constructed({"default": (0, 0), "candidate-1": (-1, 0), "candidate-2": (-2, 0.05)})
    winner, contenders = _winner(plan, names, verdicts, [{"k": 1}, {"k": 2}], beaten_by(plan, names, verdicts, judged))
    assert winner["name"] == "candidate-2"
