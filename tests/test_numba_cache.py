"""Numba's disk cache: a second process loads the engine instead of compiling it, and an edit to a module
a kernel imports from recompiles the kernel by itself (simkit/numba_cache.py)."""
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

from simkit import numba_cache
from simkit.games.wheedle import view

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = """
import json
import simkit
from simkit.games.wheedle import engine
simkit.run("wheedle", games=1, seed=0)
stats = engine._play.stats
print(json.dumps({"hits": sum(stats.cache_hits.values()), "misses": sum(stats.cache_misses.values())}))
"""


def python(script: str, cwd: Path, path: Path = ROOT) -> dict:
    """Run ``script`` in a new interpreter importing simkit from ``path``; its last line, read as JSON."""
    env = dict(os.environ, PYTHONPATH=str(path))
    env.pop("NUMBA_CACHE_LOCATOR_CLASSES", None)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=cwd, env=env,
                          timeout=900)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_second_process_hits_the_cache():
    python(SCRIPT, ROOT)  # may compile and write the cache
    second = python(SCRIPT, ROOT)
    assert second["hits"] > 0
    assert second["misses"] == 0


def closure(path) -> set[str]:
    found, todo = set(), [os.path.realpath(path)]
    while todo:
        current = todo.pop()
        if current not in found:
            found.add(current)
            todo.extend(numba_cache._file(current)[1])
    return {numba_cache._name(p) for p in found}


def test_a_kernel_is_stamped_with_every_module_it_imports_from(tmp_path):
    engine = closure(ROOT / "simkit/games/wheedle/engine.py")
    assert {"simkit/games/wheedle/view.py", "simkit/rng.py"} <= engine
    assert not any("wheeler_dealer" in name or name.startswith("simkit/strategies/") for name in engine)
    # the repository's strategies/ is simkit.strategies, named so whichever folder the install maps it from
    strategy = closure(ROOT / "strategies/wheedle.py")
    assert {"simkit/strategies/wheedle.py", "simkit/games/wheedle/view.py"} <= strategy
    us = closure(ROOT / "strategies/wheeler_dealer_us/investor.py")     # imports simkit.strategies.wheeler_dealer_us.valuation
    assert "simkit/strategies/wheeler_dealer_us/valuation.py" in us
    # a module of one's own: its neighbours and the simkit modules it reads
    (tmp_path / "mine.py").write_text("import numpy as np\nfrom helpers import LIMIT\nfrom simkit.rng import DEAL\n")
    (tmp_path / "helpers.py").write_text("LIMIT = 3\n")
    assert closure(tmp_path / "mine.py") == {str(tmp_path / "mine.py"), str(tmp_path / "helpers.py"), "simkit/rng.py",
                                             "simkit/guard.py",     # rng.py notes each game in simkit.guard
                                             "simkit/numba_cache.py"}   # and installs the cache's locators
    before = numba_cache.source_stamp(str(tmp_path / "mine.py"))
    (tmp_path / "helpers.py").write_text("LIMIT = 4\n")
    numba_cache._stamps.clear()
    assert numba_cache.source_stamp(str(tmp_path / "mine.py")) != before

    # a name of a package's own __init__ (a game's SEAT_STATS) is read from it, even beside a submodule; a comment
    # inside the parentheses is no name; the strategies folder the install maps is a sub-package, not a name
    assert "simkit/games/wheeler_dealer_us/__init__.py" in closure(ROOT / "simkit/games/wheeler_dealer_us/state.py")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg/__init__.py").write_text("COUNTERS = ('a', 'b')\n")
    (tmp_path / "pkg/part.py").write_text("X = 1\n")
    (tmp_path / "pkg/kernel.py").write_text("from . import (\n    COUNTERS,  # why, in words\n    part,\n)\n")
    assert closure(tmp_path / "pkg/kernel.py") == {str(tmp_path / f"pkg/{name}.py") for name in ("kernel", "part",
                                                                                                   "__init__")}
    (tmp_path / "pkg/kernel.py").write_text("from . import part  # only the module\n")
    assert str(tmp_path / "pkg/__init__.py") not in closure(tmp_path / "pkg/kernel.py")
    assert not any(name == "simkit/__init__.py" for name in closure(ROOT / "simkit/strategy.py"))


# A strategy that answers "pass" when the memory vector the engine allocated has ``size`` floats, and an
# illegal action (counted in illegal_actions) otherwise: the engine's MEMORY_SIZE made visible.
PROBE = """
from simkit.strategy import Strategy, registered
from simkit.games.wheedle.view import PASS

def act(hand, public, seen, params, memory, rng, action):
    return PASS if memory.size == {size} else -7

probe = Strategy.build("wheedle", "probe", base=registered("wheedle")["hair-trigger"], act=act)
"""

PLAY = """
import json
import simkit
frame = simkit.run("wheedle", games=20, players=["probe:probe", "hair-trigger", "threshold", "blocker"], seed=1)
print(json.dumps({"file": simkit.__file__, "strategies": simkit.strategies.wheedle.__file__,
                  "illegal": int(frame[frame.seat == 0].illegal_actions.sum())}))
"""


def test_an_edit_to_a_module_a_kernel_imports_from_recompiles_it(tmp_path):
    """A copy of the package (with its warm cache) where wheedle's view.py gets a larger MEMORY_SIZE: the engine
    kernel, whose own file is unchanged, allocates the new size in the next process (with a cache keyed on
    engine.py alone it kept the old one). The copy is laid out as a wheel installs it (strategies/ and
    reports/ inside simkit/)."""
    copy = tmp_path / "src"
    for folder, package in (("simkit", "simkit"), ("strategies", "simkit/strategies"), ("reports", "simkit/reports")):
        shutil.copytree(ROOT / folder, copy / package, ignore=shutil.ignore_patterns("*.pyc"))
    new_size = view.MEMORY_SIZE + 8
    (tmp_path / "probe.py").write_text(PROBE.format(size=new_size))
    before = python(PLAY, tmp_path, copy)
    assert before["file"].startswith(str(copy)) and before["strategies"].startswith(str(copy / "simkit"))
    assert before["illegal"] > 0      # the probe sees the old size
    view_file = copy / "simkit/games/wheedle/view.py"
    text, edits = re.subn(r"^MEMORY_SIZE = (.*?)(\s+#.*)?$", r"MEMORY_SIZE = \1 + 8\2", view_file.read_text(),
                          count=1, flags=re.M)
    assert edits == 1
    view_file.write_text(text)
    assert python(PLAY, tmp_path, copy)["illegal"] == 0


USER = """
from simkit.strategy import Strategy, registered
from simkit.games.wheedle.view import PASS

def act(hand, public, seen, params, memory, rng, action):
    return PASS

mine = Strategy.build("wheedle", "mine", base=registered("wheedle")["hair-trigger"], act=act)
"""

USER_RUN = """
import json
import simkit
from mymod import mine
simkit.run("wheedle", games=2, players=[mine, "hair-trigger", "threshold", "blocker"], seed=1)
stats = mine.decisions["act"].stats
print(json.dumps({"hits": sum(stats.cache_hits.values()), "misses": sum(stats.cache_misses.values())}))
"""


def test_a_strategy_module_of_ones_own_is_cached(tmp_path):
    (tmp_path / "mymod.py").write_text(textwrap.dedent(USER))
    python(USER_RUN, tmp_path)
    second = python(USER_RUN, tmp_path)
    assert second["hits"] == 1 and second["misses"] == 0
    assert list((tmp_path / "__pycache__").glob("mymod.act__bounds_named-*.nbi"))   # a user's: bounds-checked
