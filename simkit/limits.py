"""Every input has a bound, documented in docs/guide.md ("Limits"); beyond it, a one-line refusal (exit 2).

The bounds are far above any honest use and well below what would exhaust memory, time or the file system.
"""
from __future__ import annotations

from .errors import SimkitError

DEFAULT_CHUNK = 10_000           # games per chunk (one Parquet part of a run)
BACKENDS = ("local", "dask")     # where a run's chunks are played (simkit.runner.execute)
# a search budget's units as written (``-b 40 trials``, ``5 m``) -> the unit
BUDGET_UNITS = {"t": "trials", "trial": "trials", "trials": "trials", "g": "games", "game": "games", "games": "games",
                "m": "minutes", "min": "minutes", "mins": "minutes", "minute": "minutes", "minutes": "minutes"}

MAX_GAMES = 10 ** 10            # games of one run or analysis (at ~10^5-10^6 games/s on a core: days)
MAX_CHUNKS = 1_000_000          # Parquet parts of one run (--games / --chunk-size)
MAX_GAME_INDEX = 2 ** 62        # a game's global index (seed streams take (seed, index) as 64-bit words)
MAX_TEXT_FILE_BYTES = 4 << 20   # a rules or experiment TOML file, --set value, or a small JSON file
MAX_MANIFEST_BYTES = 256 << 20  # a results folder's manifest.json (one entry per part)
MAX_PART_BYTES = 4 << 30        # one Parquet part of a run
MAX_DEPTH = 64                  # nesting of TOML and JSON (tables in arrays in tables...)
MAX_NAME = 200                  # characters of one component of an output path (the file system allows 255,
                                # and simkit adds ".NAME.partial" and temporary suffixes)
MAX_PATH = 3000                 # characters of an output path (Linux allows 4096)
MAX_EXPRESSION_CHARS = 1000     # a goal or constraint expression
MAX_EXPRESSION_NODES = 200      # its operators, names and numbers
MAX_CONSTANT = 1e15             # the largest number written in an expression
MAX_EXPONENT = 64               # the largest constant power (x ** 64); a power's exponent must be a constant


def check_count(value, what: str, low: int = 1, high: int = MAX_GAMES) -> int:
    """A whole number in low..high, or a one-line SimkitError naming ``what`` and the range."""
    if isinstance(value, bool) or not isinstance(value, int) and not hasattr(value, "__index__"):
        raise SimkitError(f"{what} must be a whole number {low:,}..{high:,}, not {value!r}")
    value = int(value)
    if not low <= value <= high:
        raise SimkitError(f"{what} must be a whole number {low:,}..{high:,}, not {value:,}")
    return value


def check_depth(value, what: str, limit: int = MAX_DEPTH) -> None:
    """Refuse data nested deeper than ``limit`` (walked without recursion, so any depth is safe to check)."""
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            children = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        if depth > limit:
            raise SimkitError(f"{what} is nested more than {limit} levels deep")
        stack.extend((child, depth + 1) for child in children)


def check_output_name(path, given) -> None:
    """An output path's components must fit the file system with simkit's hidden staging names."""
    text = str(path)
    if len(text) > MAX_PATH:
        raise SimkitError(f"output path {str(given)[:60]}... is {len(text):,} characters long; the limit is {MAX_PATH:,}")
    for part in path.parts:
        if len(part) > MAX_NAME:
            raise SimkitError(f"output name {part[:40]}... is {len(part)} characters long; the limit is {MAX_NAME} "
                              "per folder or file name")
