"""The catalogue of shipped strategies (strategies/catalogue.json, simkit.catalogue) stands for the registry:
``simkit strategies GAME`` and the line-up checks read it without compiling anything, so it must say what the
registry says. After changing a shipped strategy, rewrite it: SIMKIT_REGOLD=1 pytest tests/test_strategy_catalogue.py."""
import os

import pytest
from click.testing import CliRunner

from simkit import catalogue
from simkit.catalogue import CATALOGUE_NAME, check_lineup, write_catalogue
from simkit.cli import cli
from simkit.errors import SimkitError
from simkit.games import all_games
from simkit.strategy import parse_lineup, registered


def _shipped_games():
    return [game.name for game in all_games().values() if game.strategies_modules[0].startswith("simkit.strategies.")]


def test_the_catalogue_is_the_registry_s():
    path = catalogue._strategies_folder() / CATALOGUE_NAME
    text = write_catalogue({name: registered(name) for name in _shipped_games()})
    if os.environ.get("SIMKIT_REGOLD"):
        path.write_text(text)
    assert path.read_text() == text, f"{path} is out of date: SIMKIT_REGOLD=1 pytest {__file__}"


@pytest.mark.parametrize("game", ["wheedle", "dweebies", "wheeler-dealer-us", "wheeler-dealer-uk"])
def test_simkit_strategies_says_the_same_from_the_catalogue_and_from_the_registry(game, monkeypatch):
    from_catalogue = CliRunner().invoke(cli, ["strategies", game])
    monkeypatch.setattr(catalogue, "shipped", lambda name: None)
    monkeypatch.setattr("simkit.cli.strategies.shipped", lambda name: None)
    from_registry = CliRunner().invoke(cli, ["strategies", game])
    assert from_catalogue.exit_code == from_registry.exit_code == 0, from_catalogue.output
    assert from_catalogue.output == from_registry.output and "parameters" in from_catalogue.output


@pytest.mark.parametrize("players", ["hair-trigger,nosuch,patient,blocker", "threshold:points=999,patient,blocker,random",
                                     "threshold:nosuch=1,patient,blocker,random", "threshold:points=x,patient,blocker,random",
                                     "patient,,blocker,random", "patient", "patient," * 6 + "patient",
                                     "patient:stop=1.5,blocker,random,random"])
def test_the_catalogue_refuses_a_line_up_as_the_registry_does(players):
    with pytest.raises(SimkitError) as from_registry:
        seats = parse_lineup("wheedle", players)
        all_games()["wheedle"].check_player_count(len(seats))
    with pytest.raises(SimkitError) as from_catalogue:
        check_lineup("wheedle", players)
    assert str(from_catalogue.value) == str(from_registry.value)


def test_a_good_line_up_and_one_naming_a_module_of_one_s_own_pass():
    check_lineup("wheedle", "threshold:points=30,patient,blocker,random")
    check_lineup("wheedle", None)       # the default line-up
    check_lineup("wheedle", "mymodule:mine,nosuch")     # the module is imported first: parse_lineup reports it
