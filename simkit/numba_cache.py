"""Numba's disk cache, keyed on every file a cached function's module imports from.

Numba keys a cached function on the content of its own source file only, so a kernel that inlines a
constant or a function from another module (an engine reading ``view.py``, a strategy reading a
game's view, everything reading ``rng.py``) used to keep its stale machine code after that other module
was edited, and results silently changed. simkit therefore gives Numba (through its documented
``CACHE_LOCATOR_CLASSES`` setting) locators that differ from Numba's own in one thing: the source stamp a
cache entry is checked against is a hash of the function's file *and of every file it imports from,
transitively*, within simkit and ``strategies`` and, for a module of your own, within its directory. An
edit anywhere recompiles exactly the kernels that can see it, the next time they run, and nothing else;
there is no cache to clear by hand. Where the cache lives is unchanged (``__pycache__`` beside each
module, Numba's user-wide directory when that is not writable, ``NUMBA_CACHE_DIR`` when set).

Imports are found by reading the source (``import x``, ``from x import y``, relative or absolute, at
any indentation), not by running it. Files are named by their path relative to the package root, so a
copy of the package keeps its cache valid. Each file is read and hashed once per process: the stamps of
every game and every shipped strategy cost about 10 ms of CPU, 0.5% of importing them from the cache.
"""
from __future__ import annotations

import functools
import hashlib
import os
import re

from numba.core import caching, config

SOURCE_ROOT = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))   # holds simkit/ and strategies/
PACKAGES = ("simkit", "strategies")
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
def _inside(path: str) -> bool:
    """Whether ``path`` is a file of simkit or strategies."""
    relative = os.path.relpath(path, SOURCE_ROOT)
    return relative.split(os.sep)[0] in PACKAGES


def _imports(path: str, source: str) -> tuple[str, ...]:
    """The files ``path`` imports from: inside simkit/strategies, or beside a file of one's own."""
    inside = _inside(path)
    here = os.path.dirname(path)
    found = set()
    for dots, module, names, plain in _statements(source):
        if plain:
            targets = [(0, part.split()[0], ()) for part in plain.split(",") if part.split()]
        else:
            targets = [(len(dots), module, [part.split()[0] for part in names.strip("()").split(",") if part.split()])]
        for level, module, names in targets:
            if level:           # relative: from the file's package (or, outside one, its directory)
                base = here
                for _ in range(level - 1):
                    base = os.path.dirname(base)
            elif module.split(".")[0] in PACKAGES:
                base = str(SOURCE_ROOT)
            elif not inside:    # a module of one's own may import its neighbours
                base = here
            else:
                continue
            file = _module_file(base, module)
            if file is None or file.endswith("__init__.py"):
                # ``from package import module`` reads the module, not the package's __init__
                submodules = [_module_file(base, f"{module}.{name}".strip(".")) for name in names if name != "*"]
                if any(submodules):
                    file = None
                    found.update(filter(None, submodules))
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


@functools.lru_cache(maxsize=None)
def _name(path: str) -> str:
    return os.path.relpath(path, SOURCE_ROOT).replace(os.sep, "/") if _inside(path) else path


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
