"""A pytest plugin, ``-p tests.dice_race.plugin``: installs the dice race before any test module is collected,
so that the tests which run over every registered game (conformance, fuzz, the command line, reports,
parameters, read-only views, rule options) include it. Loaded only by the nested run in test_dice_race.py."""
from . import install

install()
