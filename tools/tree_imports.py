"""Import simkit, simkit.strategies and simkit.reports from one source tree, whatever is installed.

An editable install maps ``simkit.strategies`` and ``simkit.reports`` to the folders of the checkout it was
made from, so ``PYTHONPATH=OTHER_TREE`` alone imports simkit from the other tree but its strategies and
reports from the installed one: a baseline or a timing of another tree would then run this tree's strategies.
``install(tree)`` puts a finder first on ``sys.meta_path`` that maps all three to ``tree``'s folders (setup.py's
layout); call it before anything imports simkit.
"""
from __future__ import annotations

import importlib.util
import os
import sys

FOLDERS = {"simkit": "simkit", "simkit.strategies": "strategies", "simkit.reports": "reports"}


class _TreeFinder:
    def __init__(self, tree: str):
        self.tree = os.path.abspath(tree)

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in FOLDERS:
            return None     # submodules follow their package's __path__
        folder = os.path.join(self.tree, FOLDERS[fullname])
        return importlib.util.spec_from_file_location(fullname, os.path.join(folder, "__init__.py"),
                                                      submodule_search_locations=[folder])


def install(tree) -> None:
    """Import simkit and its strategies and reports from ``tree`` (a checkout of this repository)."""
    if "simkit" in sys.modules:
        raise RuntimeError("tree_imports.install: simkit is already imported")
    sys.meta_path.insert(0, _TreeFinder(str(tree)))
