"""Numba's disk cache, keyed on every file a cached function's module imports from.

Numba keys a cached function on the content of its own source file only, so a kernel that inlines a
constant or a function from another module (an engine reading ``view.py``, a strategy reading a
game's view, everything reading ``rng.py``) used to keep its stale machine code after that other module
was edited, and results silently changed. simkit therefore gives Numba (through its documented
``CACHE_LOCATOR_CLASSES`` setting) locators that differ from Numba's own in one thing: the source stamp a
cache entry is checked against is a hash of the function's file *and of every file it imports from,
transitively*, within simkit (``simkit.strategies`` included) and, for a module of your own, within its
directory. An edit anywhere recompiles exactly the kernels that can see it, the next time they run, and
nothing else; there is no cache to clear by hand. Where the cache lives is unchanged (``__pycache__`` beside each
module, Numba's user-wide directory when that is not writable, ``NUMBA_CACHE_DIR`` when set).

Imports are found by reading the source (``import x``, ``from x import y``, relative or absolute, at
any indentation), not by running it. Files are named by their module's path (``simkit/strategies/wheedle.py``)
wherever the install put them, so a copy of the package keeps its cache valid. An editable install of the
repository maps ``simkit.strategies`` to the folder ``strategies/`` beside ``simkit/`` (setup.py); a wheel puts
it inside ``simkit/``; both are found. Each file is read and hashed once per process: the stamps of
every game and every shipped strategy cost about 10 ms of CPU, 0.5% of importing them from the cache.
"""
from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import re
import sys

from numba.core import caching, config

SIMKIT_DIR = os.path.dirname(os.path.realpath(__file__))
SOURCE_ROOT = os.path.dirname(SIMKIT_DIR)     # holds simkit/ (and, in the repository, strategies/ and reports/)
_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]*)"
                     r"|import[ \t]+([^\n#;]*))", re.M)
_files: dict[tuple, tuple[bytes, tuple[str, ...]]] = {}   # (path, mtime, size) -> (content hash, imported files)
_stamps: dict[str, tuple] = {}


@functools.lru_cache(maxsize=None)
def _module_file(base: str, dotted: str) -> str | None:
    """The source file of module ``dotted`` under directory ``base`` (a module or a package), if any."""
    if not dotted:
        return None
    path = os.path.join(base, *dotted.split("."))
    for candidate in (path + ".py", os.path.join(path, "__init__.py")):
        if os.path.isfile(candidate):
            return candidate
    return None


def _statements(source: str):
    """The import statements of ``source`` (found from the word "import": a regular expression over the whole
    text is ten times slower)."""
    at = source.find("import")
    while at != -1:
        match = _IMPORT.match(source, source.rfind("\n", 0, at) + 1)
        if match and match.end() > at:
            yield match.groups("")
            at = source.find("import", match.end())
        else:
            at = source.find("import", at + 6)


@functools.lru_cache(maxsize=None)
def _mapped_folder(name: str) -> str | None:
    """The folder of sub-package ``simkit.<name>`` when the install maps it from outside ``simkit/`` (an
    editable install: ``strategies/`` beside it is ``simkit.strategies``); None for one inside ``simkit/``
    or no such sub-package. Found by the import system's finders, without importing it."""
    if not name.isidentifier() or os.path.exists(os.path.join(SIMKIT_DIR, name)) \
            or os.path.exists(os.path.join(SIMKIT_DIR, name + ".py")):
        return None
    try:
        spec = importlib.util.find_spec(f"simkit.{name}")
    except (ImportError, ValueError):
        return None
    locations = list(spec.submodule_search_locations or []) if spec else []
    return os.path.realpath(locations[0]) if locations else None


def _simkit_file(dotted: str) -> str | None:
    """The source file of module ``dotted`` (``simkit`` or a module in it), wherever its sub-package lies."""
    parts = dotted.split(".")
    folder = _mapped_folder(parts[1]) if len(parts) > 1 else None
    if folder is None:
        found = _module_file(SOURCE_ROOT, dotted)
    elif len(parts) == 2:
        found = os.path.join(folder, "__init__.py")
    else:
        found = _module_file(folder, ".".join(parts[2:]))
    return found or _found_by_finders(dotted)


def _found_by_finders(dotted: str) -> str | None:
    """The file of module ``dotted`` when it is not where its name says but its package, already imported,
    finds it (a package whose ``__path__`` was extended: a test-only game added to ``simkit.games``)."""
    if dotted.rpartition(".")[0] not in sys.modules:
        return None
    try:
        spec = importlib.util.find_spec(dotted)
    except (ImportError, ValueError):
        return None
    origin = spec.origin if spec is not None and spec.has_location else None
    return origin if origin and origin.endswith(".py") else None


@functools.lru_cache(maxsize=None)
def _package_path(path: str) -> str | None:
    """``path`` as the path of its module inside simkit (``simkit/strategies/wheedle.py``), or None for a file
    of no sub-package of simkit."""
    relative = os.path.relpath(path, SOURCE_ROOT)
    top = relative.split(os.sep)[0]
    if top == "simkit":
        return relative.replace(os.sep, "/")
    if _mapped_folder(top) == os.path.join(SOURCE_ROOT, top):     # the repository's strategies/, reports/
        return "simkit/" + relative.replace(os.sep, "/")
    return None


def _mapped_module(level: int, module: str, base: str, name: str) -> str | None:
    """The file of ``from . import name`` in simkit/ when ``name`` is a sub-package the install maps from
    outside it (``from . import strategies``)."""
    if level and not module and os.path.realpath(base) == SIMKIT_DIR and _mapped_folder(name):
        return _simkit_file(f"simkit.{name}")
    return None


def _inside(path: str) -> bool:
    """Whether ``path`` is a file of simkit (its strategies included)."""
    return _package_path(path) is not None


def _imports(path: str, source: str) -> tuple[str, ...]:
    """The files ``path`` imports from: inside simkit, or beside a file of one's own."""
    inside = _inside(path)
    here = os.path.dirname(path)
    found = set()
    for dots, module, names, plain in _statements(source):
        if plain:
            targets = [(0, part.split()[0], ()) for part in plain.split(",") if part.split()]
        else:
            names = re.sub(r"#[^\n]*", "", names).strip("()")      # a comment inside the parentheses is no name
            targets = [(len(dots), module, [part.split()[0] for part in names.split(",") if part.split()])]
        for level, module, names in targets:
            base = here
            if level:           # relative: from the file's package (or, outside one, its directory)
                for _ in range(level - 1):
                    base = os.path.dirname(base)
                find = functools.partial(_module_file, base)
            elif module.split(".")[0] == "simkit":
                find = _simkit_file
            elif not inside:    # a module of one's own may import its neighbours
                find = functools.partial(_module_file, here)
            else:
                continue
            file = find(module)
            if file is None and level and not module and os.path.isfile(os.path.join(base, "__init__.py")):
                file = os.path.join(base, "__init__.py")     # ``from . import NAME``: the package's own names
            if file is None or file.endswith("__init__.py"):
                # ``from package import module`` reads the module, not the package's __init__ (which is read
                # when a name imported with it is not a module: ``from . import SEAT_STATS, engine``)
                submodules = [find(f"{module}.{name}".strip(".")) or _mapped_module(level, module, base, name)
                              for name in names if name != "*"]
                found.update(filter(None, submodules))
                if submodules and all(submodules):
                    file = None
            if file and file != path:
                found.add(file)
    return tuple(sorted(found))


def _file(path: str) -> tuple[bytes, tuple[str, ...]]:
    stat = os.stat(path)
    key = (path, stat.st_mtime_ns, stat.st_size)
    if key not in _files:
        with open(path, "rb") as handle:
            data = handle.read()
        _files[key] = (hashlib.sha256(data).digest(), _imports(path, data.decode("utf-8", "replace")))
    return _files[key]


def _name(path: str) -> str:
    return _package_path(path) or path


def source_stamp(path: str) -> tuple:
    """The hash of ``path`` and of every file it imports from, transitively (see the module docstring)."""
    stamp = _stamps.get(path)
    if stamp is None:
        seen, todo = {}, [os.path.realpath(path)]
        while todo:
            current = todo.pop()
            if current not in seen:
                seen[current], imported = _file(current)
                todo.extend(imported)
        digest = hashlib.sha256()
        for name, file in sorted((_name(file), file) for file in seen):
            digest.update(name.encode() + b"\0" + seen[file])
        stamp = _stamps[path] = ("simkit-closure", digest.hexdigest())
    return stamp


class _ClosureStamp:
    def get_source_stamp(self):
        return source_stamp(self._py_file)


class UserProvidedLocator(_ClosureStamp, caching.UserProvidedCacheLocator):
    """Numba's NUMBA_CACHE_DIR locator, stamped with the import closure."""


class InTreeLocator(_ClosureStamp, caching.InTreeCacheLocator):
    """Numba's __pycache__ locator, stamped with the import closure."""


class UserWideLocator(_ClosureStamp, caching.UserWideCacheLocator):
    """Numba's user-wide locator, stamped with the import closure."""


def install() -> None:
    """Make Numba use these locators (before any cached function is defined). A user who chose locators
    with NUMBA_CACHE_LOCATOR_CLASSES keeps them. The setting is made on numba.config, not in the
    environment, so a child process of another copy of simkit installs its own."""
    if os.environ.get("NUMBA_CACHE_LOCATOR_CLASSES"):
        return
    ours = [f"{__name__}.{cls.__name__}" for cls in (UserProvidedLocator, InTreeLocator, UserWideLocator)]
    config.CACHE_LOCATOR_CLASSES = ",".join([*ours, "IPythonCacheLocator", "ZipCacheLocator"])


# On import: every module that defines a cached kernel imports this module first (tests/test_imports.py checks),
# so importing simkit itself needs no Numba and the command line answers at once.
install()
