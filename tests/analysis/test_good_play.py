"""`--good-play` makes balance and design use expert line-ups: every seat `expert`, as many seats as the game's
default line-up; a line-up of one's own beside it is refused in one line."""
import pytest
from click.testing import CliRunner

from simkit.cli import balance as balance_cli
from simkit.cli import cli
from simkit.cli import design as design_cli
from simkit.games import game_names, get_game

DESIGN = ["--vary", "scoring.false_stop=-10:0", "--goal", "seat-balance"]


def _options_of(monkeypatch, module, argv) -> dict:
    seen = {}
    monkeypatch.setattr(module, "run_one", lambda kind, options, *rest, **kw: seen.update(options))
    result = CliRunner().invoke(cli, argv, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return seen


@pytest.mark.parametrize("game", game_names())
def test_good_play_seats_expert_in_every_seat_of_the_default_lineup(game, monkeypatch):
    expected = ["expert"] * len(get_game(game).default_lineup)
    assert _options_of(monkeypatch, balance_cli, ["balance", game, "--good-play"])["players"] == expected
    assert _options_of(monkeypatch, design_cli, ["design", game, "--good-play", "--vary", "x=1:2", "-g", "spread"]
                       )["players"] == expected
    assert _options_of(monkeypatch, balance_cli, ["balance", game])["players"] is None    # without: the default


def test_a_good_play_balance_card_names_its_expert_lineup():
    result = CliRunner().invoke(cli, ["balance", "wheedle", "--good-play", "--games", "40", "-w", "1"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0].startswith("Wheedle, 4 players (expert in every seat), ")


@pytest.mark.parametrize("argv, option", [
    (["balance", "wheedle", "--good-play", "-p", "tuned,tuned,tuned"], "--players"),
    (["design", "wheedle", "--good-play", "--population", "tuned@1", *DESIGN], "--population"),
])
def test_good_play_beside_a_lineup_of_ones_own_is_one_line(cli_error, argv, option):
    assert cli_error(argv) == (f"simkit: error: --good-play and {option} are exclusive: --good-play sets every "
                               "seat to expert")


def test_design_good_play_takes_a_player_count(monkeypatch):
    options = _options_of(monkeypatch, design_cli, ["design", "dweebies", "--good-play", "--player-count", "2", *DESIGN])
    assert options["players"] == ["expert", "expert"] and options.get("player_count") is None
