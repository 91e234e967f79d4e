"""Command-line checks of the dice race that need it registered before the command line is imported (its
game argument's choices are read then). Run only by the nested pytest of test_dice_race.py, which loads
``tests.dice_race.plugin``; the shared all-games tests of that run cover ``run`` and ``report``."""
import tomllib

from click.testing import CliRunner

import simkit
from simkit.cli import cli
from simkit.games import get_game
from simkit.reports.format import run_headline
from simkit.runner import make_batch


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def test_games_lists_it():
    result = invoke("games")
    assert result.exit_code == 0 and "dice-race" in result.output and "holder,cautious,stop-at-target" in result.output


def test_run_rules_replay_report(tmp_path):
    out = tmp_path / "run"
    result = invoke("run", "dice-race", "--games", 200, "--seed", 7, "--out", out, "-q", "-w", 2,
                    "--set", "game.target=40")
    assert result.exit_code == 0, result.output
    frame = simkit.load(out)
    assert len(frame) == 600 and frame.attrs["manifest"]["lineup"][0]["module"] == "tests.dice_race.strategies"
    assert tomllib.loads((out / "rules.toml").read_text())["game"]["target"] == 40

    result = invoke("rules", "dice-race")
    assert result.exit_code == 0 and result.output == get_game("dice-race").rules_path.read_text()
    result = invoke("rules", "dice-race", "--options")
    assert result.exit_code == 0 and "game.bust_face = 1  [race]" in result.output

    result = invoke("replay", "dice-race", "--seed", 7, "--game", 3, "--set", "game.target=40")
    assert result.exit_code == 0
    game = get_game("dice-race")
    batch = make_batch("dice-race", 4, None, 7, sets=["game.target=40"])
    headline = run_headline(game, batch.manifest())      # what is played, first, as every output starts
    assert result.output == headline + "\n" + game.replay(batch.prepared, list(batch.seats), 7, 3) + "\n"
    winner = frame[(frame.game == 3) & frame.winner]
    assert f"seat {int(winner.seat.iloc[0])} ({winner.strategy.iloc[0]}) with {int(winner.points.iloc[0])}" \
        in result.output.rstrip().splitlines()[-1]

    result = invoke("report", out, "-o", tmp_path / "r.html")
    assert result.exit_code == 0, result.output
    assert "Dice race (test game)" in (tmp_path / "r.html").read_text()


def test_bad_rule_values_are_one_line_errors(cli_error, tmp_path):
    line = cli_error(["run", "dice-race", "--set", "game.bust_face=9", "--out", str(tmp_path / "r")])
    assert "game.bust_face = 9 is out of range; allowed 0..6" in line
    assert not (tmp_path / "r").exists()
    assert "game.target must be an integer" in cli_error(["rules", "dice-race", "--set", 'game.target="far"'])
