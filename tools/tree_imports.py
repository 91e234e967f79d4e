"""Import ``simkit.strategies`` and ``simkit.reports`` from the source tree ``simkit`` itself comes from.

An editable install maps those two sub-packages to its own checkout's folders (setup.py's FOLDERS), so a
process that imports simkit from another tree (``PYTHONPATH=/other/tree``) would otherwise play that tree's
engines with the installed checkout's strategies. The tools that compare two trees call ``use_simkit_tree``
before anything imports a strategy."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

FOLDERS = {"simkit.strategies": "strategies", "simkit.reports": "reports"}   # as in setup.py


def use_simkit_tree() -> Path:
    """Load the sub-packages of FOLDERS from the tree of the ``simkit`` on the import path; return that tree."""
    import simkit

    root = Path(simkit.__file__).resolve().parent.parent
    for name, folder in FOLDERS.items():
        if name in sys.modules:
            if Path(sys.modules[name].__file__).resolve().parent != root / folder:
                raise RuntimeError(f"{name} was imported from another tree before use_simkit_tree")
            continue
        spec = importlib.util.spec_from_file_location(name, root / folder / "__init__.py",
                                                      submodule_search_locations=[str(root / folder)])
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        setattr(simkit, name.rpartition(".")[2], module)
    return root
