"""The dice race, a test-only fifth game: the registry, runner, conformance check, fuzzing, reports and the
command line pick it up with nothing outside tests/dice_race/ edited; its rules checked against exact
answers and against its own event log.

The game is installed for this module only (a module-scoped fixture); the tests that run over every
registered game see it only in the nested run of ``test_the_tests_of_every_game_pass_for_it``.
"""
from __future__ import annotations

import importlib
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import simkit
from simkit.errors import SimkitError
from simkit.fuzz import NumpyPick, campaign, draw_case
from simkit.games import all_games, game_names, get_game
from simkit.runner import make_batch, run_to_frame
from simkit.strategy import Strategy, registered
from simkit.testing import check_conformance

from ..golden import assert_golden
from . import NAME, install, uninstall

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).parent


@pytest.fixture(scope="module", autouse=True)
def installed():
    install()
    yield
    uninstall()


@pytest.fixture
def game():
    return get_game(NAME)


@pytest.fixture
def package():
    importlib.import_module("simkit.games.dice_race.play")    # the engine and view with it
    return importlib.import_module("simkit.games.dice_race")


def test_the_registry_finds_it_by_its_folder_and_its_strategies_by_its_declaration(game):
    assert NAME in game_names() and all_games()[NAME] is game is get_game(NAME)
    assert game.rules_path == HERE / "games/dice_race/rules.toml"
    assert set(registered(NAME)) == {"random", "holder", "cautious", "stop-at-target"}
    assert all(s.module == "tests.dice_race.strategies" for s in registered(NAME).values())


def test_uninstall_removes_it_and_install_brings_it_back():
    uninstall()
    assert NAME not in game_names() and NAME not in all_games()
    with pytest.raises(SimkitError, match="unknown game 'dice-race'"):
        get_game(NAME)
    install()
    assert NAME in game_names() and set(registered(NAME)) >= {"holder", "stop-at-target"}


def test_the_view_s_rule_checks_and_a_decision_on_a_hand_built_position(package):
    view = package.view
    from .strategies import hold_at

    public = np.zeros(view.public_length(3), np.int64)
    public[view.PUB_SEAT], public[view.PUB_TARGET], public[view.PUB_TURN_POINTS] = 1, 30, 14
    public[view.PUB_HEADER + 1] = 17
    assert view.banked_points(public, 1) == 17 and view.banked_points(public, 0) == 0
    assert view.busts(1, 1) and not view.busts(1, 0) and not view.busts(6, 1)
    assert view.is_answer(view.ROLL) and view.is_answer(view.STOP) and not view.is_answer(2)
    params, memory, stream = np.zeros(16), np.zeros(view.MEMORY_SIZE), np.zeros(4, np.uint64)
    params[0] = 15
    assert hold_at(public, params, memory, stream) == view.ROLL
    public[view.PUB_TURN_POINTS] = 15
    assert hold_at(public, params, memory, stream) == view.STOP


@pytest.mark.parametrize("players", [None, ["random", "holder:hold=20"], ["cautious"] * 5])
def test_conformance(players):
    check_conformance(NAME, games=300, seed=3, players=players)


def test_a_fuzz_campaign_finds_no_violation():
    result = campaign(NAME, games=600, per_case=20, workers=1, seed=4)
    assert result["cases"] == 30 and result["violations"] == 0, result["failures"]
    for case in range(200):      # every drawn overlay is valid
        drawn = draw_case(NAME, NumpyPick(9, case))
        make_batch(NAME, 1, list(drawn.players), 0, rules=drawn.rules)


def _reach(target: int, faces: int, bust_face: int) -> Fraction:
    """The exact chance that a turn rolled until the bust face or ``target`` points reaches the target."""
    reach = [Fraction(1)]          # reach[n]: the chance of rolling n more points before the bust face
    for n in range(1, target + 1):
        reach.append(sum((reach[max(0, n - face)] for face in range(1, faces + 1) if face != bust_face),
                         Fraction(0)) / faces)
    return reach[target]


def test_a_race_of_two_players_who_never_bank_matches_the_exact_answer():
    """Each turn of a player who never banks is a fresh try that reaches the target with chance p, so with
    q = 1 - p a game lasts k rounds with chance q^(2(k-1)) (1 - q^2), and the first seat wins 1 / (2 - p)."""
    games = 20_000
    p = float(_reach(30, 6, 1))
    assert 0.2 < p < 0.3
    frame = simkit.run(NAME, games=games, players=["stop-at-target"] * 2, seed=8)
    first = frame[frame.seat == 0]
    win = first.winner.mean()
    assert abs(win - 1 / (2 - p)) < 4.5 * np.sqrt(win * (1 - win) / games), (win, 1 / (2 - p))
    q = 1 - p
    rounds = first.rounds.to_numpy()
    for k in range(1, 7):
        expected = games * q ** (2 * (k - 1)) * (1 - q * q)
        assert abs((rounds == k).sum() - expected) < 4.5 * np.sqrt(expected), (k, (rounds == k).sum(), expected)
    assert (frame.holds == 0).all() and (frame.points[~frame.winner] == 0).all()    # it never banks
    assert frame.points[frame.winner].between(30, 35).all()


def test_without_a_bust_face_the_first_player_who_never_banks_wins_in_the_first_round():
    frame = simkit.run(NAME, games=50, players=["stop-at-target"] * 3, seed=2, sets=["game.bust_face=0"])
    assert (frame.winner == (frame.seat == 0)).all() and (frame.rounds == 1).all() and (frame.busts == 0).all()
    assert (frame.turns == (frame.seat == 0)).all()      # the others never played


def test_the_round_limit_stops_a_game_and_the_most_points_win():
    frame = simkit.run(NAME, games=200, players=["cautious", "cautious"], seed=6, sets=["game.max_rounds=2"])
    assert frame.limit_hit.any() and (frame.rounds <= 2).all()
    decided = frame[frame.limit_hit]
    best = decided.groupby("game").points.transform("max")
    assert (decided.winner == (decided.points == best)).all()


def test_an_illegal_answer_is_counted_and_played_as_stop():
    def answer_seven(public, params, memory, rng):
        return 7

    careless = Strategy.build(NAME, "careless", roll_again=answer_seven)
    played = simkit.run(NAME, games=300, players=[careless, "stop-at-target"], seed=5)
    stopping = simkit.run(NAME, games=300, players=["holder:hold=1", "stop-at-target"], seed=5)
    for column in ("points", "rolls", "busts", "holds", "winner", "rounds"):    # the same dice, the same play
        assert (played[column].to_numpy() == stopping[column].to_numpy()).all(), column
    seat = played[played.seat == 0]
    assert (seat.illegal_actions == seat.holds).all() and seat.holds.sum() > 100   # one refused answer a hold
    assert (stopping.illegal_actions == 0).all()


def test_a_rule_option_added_by_the_recipe_is_three_lines_of_three_files_and_plays():
    """game.safe_first_roll was added as docs/architecture.md's recipe says: its rule data with allowed values
    and meaning (rules.toml), the engine that reads its slot and counts it, its counter's name and meaning
    (__init__); nothing else names it, the fuzz drawer included. A first roll showing the bust face is rolled
    again, so a seat that stops after one roll never busts and rolls again 1/5 times a turn (the chance 1/6, then
    1/6 of that...: 1/6 / (1 - 1/6))."""
    folder = HERE / "games/dice_race"
    naming = sorted(path.name for path in folder.iterdir() if path.is_file() and "safe_first_roll" in path.read_text())
    assert naming == ["__init__.py", "engine.py", "rules.toml"]
    assert not any("safe_first_roll" in path.read_text() for path in (ROOT / "simkit").rglob("*.py"))
    # its counter is a name of the game's SEAT_STATS (__init__.py), whose place the engine reads by the name
    package = importlib.import_module(get_game(NAME).play_module.rpartition(".")[0])
    assert package.SEAT_STATS[-1] == "safe_rerolls" and "safe_rerolls" in package.GAME.facts
    assert importlib.import_module(f"{package.__name__}.engine").S_SAFE_REROLLS == len(package.SEAT_STATS) - 1
    # and the fuzz drawer, which does not name it, draws it (Game.fuzz: every option of a few words)
    drawn = {get_game(NAME).fuzz(NumpyPick(seed, 0), 2)["game"]["safe_first_roll"]
             for seed in range(20)}
    assert drawn == {False, True}
    turns = simkit.run(NAME, games=3000, players=["holder:hold=1"] * 2, seed=12, sets=["game.safe_first_roll=true"])
    assert (turns.busts == 0).all()
    per_turn = turns.safe_rerolls.sum() / turns.turns.sum()
    assert abs(per_turn - 0.2) < 4.5 * np.sqrt(0.2 * 1.2 / turns.turns.sum()), per_turn   # geometric: variance p/q^2
    plain = simkit.run(NAME, games=300, players=["holder:hold=1"] * 2, seed=12)
    assert (plain.safe_rerolls == 0).all() and plain.busts.sum() > 0
    with pytest.raises(SimkitError) as caught:
        make_batch(NAME, 1, None, 0, sets=["game.safe_first_roll=2"])
    assert str(caught.value) == "rules: game.safe_first_roll must be true or false, not 2"


@pytest.mark.parametrize("sets, message", [
    (["game.bust_face=7"], "rules: game.bust_face = 7 is out of range; allowed 0..6"),
    (["game.die_faces=1"], "rules: game.die_faces = 1 is out of range; allowed 2..20"),
    (['game.target="far"'], "rules: game.target must be an integer, not 'far'"),
    (["game.max_rounds=0"], "rules: game.max_rounds = 0 is out of range; allowed 1..100000"),
])
def test_bad_rule_values_name_the_key_and_what_is_allowed(sets, message):
    with pytest.raises(SimkitError) as caught:
        make_batch(NAME, 1, None, 0, sets=sets)
    assert str(caught.value) == message


def test_the_result_columns_are_what_the_event_log_says(game, package):
    """Every seat's points, turns, rolls, busts and holds, the winner and the rounds, re-derived from the
    recorded rolls of each game."""
    batch = make_batch(NAME, 40, ["random", "holder", "stop-at-target"], 11)
    frame = run_to_frame(batch)
    engine = package.engine
    for g in range(40):
        out = package.play.record(batch.prepared, list(batch.seats), 11, g)
        assert out["events_lost"] == 0
        derived = {name: [0, 0, 0] for name in ("points", "turns", "rolls", "busts", "holds", "illegal_actions")}
        faces, last_round = [], 0
        for when, seat, kind, a, b, _, _ in out["events"].tolist():
            last_round = when
            if kind == engine.E_ROLL:
                derived["rolls"][seat] += 1
                faces.append(a)
                continue
            if kind == engine.E_ILLEGAL:
                derived["illegal_actions"][seat] += 1
                continue
            derived["turns"][seat] += 1
            if kind == engine.E_BUST:
                assert faces[-1] == 1 and a == sum(faces[:-1])
                derived["busts"][seat] += 1
            else:
                assert 1 not in faces and a == sum(faces)
                derived["points"][seat] += a
                assert b == derived["points"][seat]
                if kind == engine.E_HOLD:
                    derived["holds"][seat] += 1
                    assert b < 30
                else:
                    assert b >= 30
            faces = []
        rows = frame[frame.game == g]
        for name, values in derived.items():
            assert rows[name].tolist() == values, (g, name)
        assert rows.rounds.iloc[0] == last_round + 1
        assert rows.winner.tolist() == [p == int(np.argmax(derived["points"])) for p in range(3)]


def test_replay_golden(game):
    """A seeded replay, read by hand once: every turn's rolls, busts on 1, the holder's holds at 15 or more."""
    batch = make_batch(NAME, 4, ["random", "holder", "stop-at-target"], 7)
    assert_golden(HERE / "replay_golden.txt", game.replay(batch.prepared, list(batch.seats), 7, 3))


SHARED = ["tests/test_conformance.py", "tests/test_fuzz.py", "tests/test_cli.py", "tests/test_readonly_views.py",
          "tests/test_strategy_params.py", "tests/test_rule_options.py", "tests/analysis/test_compare.py",
          "tests/analysis/test_experiments.py", "tests/dice_race/cli_checks.py"]
# every shipped game ships a `tuned` preset and the search that found it; a test game does not
POLICY_ONLY = "tuned_preset"


def test_the_tests_of_every_game_pass_for_it():
    """The shared tests that run over every registered game, unchanged, in a process where the game is
    installed before they are collected (``-p tests.dice_race.plugin``); ``-k`` keeps its cases."""
    done = subprocess.run([sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider", "-p", "tests.dice_race.plugin",
                           "-k", f"(dice-race or dice_race) and not {POLICY_ONLY}", *SHARED], cwd=ROOT,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    passed = set(re.findall(r"^(\S+) PASSED", done.stdout, re.M))
    for case in ["tests/test_conformance.py::test_game_conformance[dice-race]",
                 "tests/test_fuzz.py::test_conservation_laws_hold_under_random_rules[dice-race]",
                 "tests/test_cli.py::test_every_strategy_runs[dice-race-stop-at-target]",
                 "tests/test_cli.py::test_report_renders_every_plot_for_every_game[dice-race]",
                 "tests/test_cli.py::test_rules_prints_the_defaults[dice-race]",
                 "tests/test_strategy_params.py::test_every_parameter_is_declared_with_meaning_and_range[dice-race-holder]",
                 "tests/test_rule_options.py::test_every_rule_value_is_listed_once_with_its_default[dice-race]",
                 "tests/test_readonly_views.py::test_only_the_strategy_s_own_arrays_are_writable[dice-race-roll_again-a0]",
                 "tests/analysis/test_experiments.py::test_balance_report_renders_for_every_game[dice-race]",
                 "tests/analysis/test_compare.py::test_a_rule_set_against_itself_differs_by_exactly_zero[dice-race]",
                 "tests/dice_race/cli_checks.py::test_run_rules_replay_report"]:
        assert case in passed, case
