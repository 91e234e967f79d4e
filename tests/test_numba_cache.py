"""Numba's disk cache: a second process loads the engine instead of compiling it."""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = """
import json
import simkit
from simkit.games.wheedle import engine
simkit.run("wheedle", games=1, seed=0)
stats = engine._play.stats
print(json.dumps({"hits": sum(stats.cache_hits.values()), "misses": sum(stats.cache_misses.values())}))
"""


def play_once():
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_second_process_hits_the_cache():
    play_once()  # may compile and write the cache
    second = play_once()
    assert second["hits"] > 0
    assert second["misses"] == 0
