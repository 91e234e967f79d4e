"""Every game's rule options, read from the comments of its rules.toml (simkit rules --options)."""
from pathlib import Path

import pytest
from click.testing import CliRunner

from simkit.cli import cli
from simkit.games import all_games
from simkit.rules import lookup, options_markdown, rule_options

from .golden import assert_golden

DOCS = Path(__file__).resolve().parents[1] / "docs" / "rules"


def _leaves(node, prefix=""):
    """Dotted keys of every value that is not inside an array of tables (those are listed as one entry); a
    table inside a section is an inline table (``hand = { 4 = 15 }``), listed as one value."""
    for key, value in node.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict) and not prefix:
            yield from _leaves(value, dotted + ".")
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            yield key  # an array of tables: one entry named by the array
        else:
            yield dotted


@pytest.mark.parametrize("name", list(all_games()))
def test_every_rule_value_is_listed_once_with_its_default(name):
    game = all_games()[name]
    options = rule_options(game.rules_path)
    keys = [option.key for option in options]
    assert len(keys) == len(set(keys))
    assert set(keys) == set(_leaves(game.default_rules))
    for option in options:
        value = lookup(game.default_rules, option.key)
        if isinstance(value, list) and value and isinstance(value[0], dict):
            assert option.default == f"{len(value)} entries"
        elif isinstance(value, (bool, int, float, str)) and not isinstance(value, bool):
            assert option.default.strip('"') == str(value) or float(option.default) == value


def test_options_page_is_generated_from_the_rule_data():
    """docs/rules/options.md is `simkit rules --options --markdown` (SIMKIT_REGOLD=1 rewrites it)."""
    assert_golden(DOCS / "options.md", options_markdown(list(all_games().values())))


def test_cli_lists_one_games_options():
    result = CliRunner().invoke(cli, ["rules", "wheedle", "--options"])
    assert result.exit_code == 0
    assert "scoring.false_stop = -5" in result.output and "Dweebies" not in result.output


def test_rules_without_a_game_or_options_is_one_line_error(cli_error):
    assert "needs a GAME" in cli_error(["rules"])
