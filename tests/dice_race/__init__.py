"""A test-only fifth game, the dice race, built as a new game is (docs/architecture.md, "Adding a fifth game"):
its package (games/dice_race/: view, engine, replay, rules.toml, the Game declaration with its fuzz drawer),
one strategies module (strategies.py) and its tests, and nothing else edited.

The registry finds games by the folders of ``simkit.games``; ``install()`` adds ``games/`` here to that
package's search path, so the registry, the command line, the runner, fuzzing and reports find
``simkit.games.dice_race`` exactly as they find a shipped game. ``uninstall()`` takes it out again (with
its strategies), so that no test which runs over every registered game sees it: install it only for the
duration of its own tests, never at import.
"""
from __future__ import annotations

import sys
from pathlib import Path

import simkit.games
from simkit import strategy

NAME = "dice-race"
PACKAGE = "simkit.games.dice_race"
STRATEGIES = f"{__name__}.strategies"
FOLDER = str(Path(__file__).with_name("games"))


def install():
    """Make the game a registered game of this process; returns it."""
    if FOLDER not in simkit.games.__path__:
        simkit.games.__path__.append(FOLDER)
    return simkit.games.get_game(NAME)


def uninstall() -> None:
    """Remove the game, its modules and its strategies from the registries."""
    if FOLDER in simkit.games.__path__:
        simkit.games.__path__.remove(FOLDER)
    simkit.games.GAMES.pop(NAME, None)
    strategy._REGISTRY.pop(NAME, None)
    strategy._SHIPPED_LOADED.discard(NAME)
    for module in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".") or m == STRATEGIES]:
        del sys.modules[module]
    simkit.games.__dict__.pop("dice_race", None)
