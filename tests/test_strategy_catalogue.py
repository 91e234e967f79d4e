"""The catalogue of shipped strategies (strategies/catalogue.json, simkit.catalogue) stands for the registry:
``simkit strategies GAME`` and the line-up checks read it without compiling anything, so it must say what the
registry says. After changing what a shipped strategy declares (its name, doc, parameters, presets), rewrite it:
SIMKIT_REGOLD=1 pytest tests/test_strategy_catalogue.py."""
import json
import os
import shutil

import pytest
from click.testing import CliRunner

from simkit import catalogue
from simkit.catalogue import CATALOGUE_NAME, check_lineup, sources_record, write_catalogue
from simkit.cli import cli
from simkit.errors import SimkitError
from simkit.games import all_games
from simkit.strategy import parse_lineup, registered


def _shipped_games():
    return [game.name for game in all_games().values() if game.strategies_modules[0].startswith("simkit.strategies.")]


def _declared(text: str) -> dict:
    """A catalogue's content less the digests of the sources' text (an edit that declares nothing new, such as
    a decision's code or a comment, changes only those)."""
    data = json.loads(text)
    return {"games": data["games"], "declarations": {name: digests["declarations"]
                                                     for name, digests in data["sources"].items()}}


def test_the_catalogue_is_the_registry_s():
    path = catalogue._strategies_folder() / CATALOGUE_NAME
    text = write_catalogue({name: registered(name) for name in _shipped_games()})
    if os.environ.get("SIMKIT_REGOLD"):
        path.write_text(text)
    assert _declared(path.read_text()) == _declared(text), \
        f"{path} is out of date: regenerate it with SIMKIT_REGOLD=1 pytest {__file__} and commit it"


def _copy_of_the_sources(tmp_path):
    folder = tmp_path / "strategies"
    shutil.copytree(catalogue._strategies_folder(), folder, ignore=shutil.ignore_patterns("__pycache__"))
    return folder, sources_record(folder)


def test_an_edit_to_a_decision_or_a_comment_keeps_the_catalogue(tmp_path):
    folder, recorded = _copy_of_the_sources(tmp_path)
    source = folder / "wheedle.py"
    text = source.read_text()
    edited = text.replace("        memory[M_DROPPED] = -1\n", "        memory[M_DROPPED] = -1  # a new comment\n"
                                                              "        memory[M_DROPPED] = -1\n", 1)
    edited = edited.replace('"""Shipped Wheedle strategies', '# a comment\n"""Shipped Wheedle strategies, reworded', 1)
    assert edited.count("a new comment") == 1 and edited != text
    source.write_text(edited)
    assert catalogue.declarations_unchanged(recorded, folder)


@pytest.mark.parametrize("old, new", [
    ('"offer_size": Param(1, 1, 20,', '"offer_size": Param(2, 1, 20,'),        # a default
    ("most cards given or asked per side", "most cards given per side"),          # a parameter's meaning
    ("stop=STOP_THRESHOLD, points=24)", "stop=STOP_THRESHOLD, points=25)"),      # a preset
])
def test_an_edit_to_a_declaration_sets_the_catalogue_aside(tmp_path, old, new):
    folder, recorded = _copy_of_the_sources(tmp_path)
    source = folder / "wheedle.py"
    assert source.read_text().count(old) == 1
    source.write_text(source.read_text().replace(old, new))
    assert not catalogue.declarations_unchanged(recorded, folder)


def test_a_new_or_removed_source_sets_the_catalogue_aside(tmp_path):
    folder, recorded = _copy_of_the_sources(tmp_path)
    (folder / "extra.py").write_text("")
    assert not catalogue.declarations_unchanged(recorded, folder)
    (folder / "extra.py").unlink()
    (folder / "wheedle_expert.py").unlink()
    assert not catalogue.declarations_unchanged(recorded, folder)


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
