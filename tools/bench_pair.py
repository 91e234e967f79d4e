"""Time one game's default line-up in two source trees, interleaved, on one core: the ratio of their
speeds is what a loaded machine can still measure (the absolute figures are not).

    python tools/bench_pair.py BEFORE_DIR AFTER_DIR [--game NAME] [--games N] [--repeat K] [--set KEY=VALUE ...]

Each round runs BEFORE then AFTER (then the next round AFTER then BEFORE), each in a fresh process that
imports simkit from its tree, plays one warm-up game and then times ``--games`` games. Prints the
median games/s of each and the median of the per-round ratios AFTER / BEFORE.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

_CHILD = """
import json, sys, time
from simkit.runner import make_batch
game, games, sets = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
batch = make_batch(game, games + 1, None, 1, sets=sets)
batch.play(0, 1)
t = time.perf_counter()
batch.play(1, games)
print(json.dumps(games / (time.perf_counter() - t)))
"""


def _speed(tree: str, game: str, games: int, sets: list[str]) -> float:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree), NUMBA_NUM_THREADS="1")
    done = subprocess.run([sys.executable, "-c", _CHILD, game, str(games), json.dumps(sets)], env=env,
                          cwd=os.path.abspath(tree), capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--game", default="wheeler-dealer-us")
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--set", dest="sets", action="append", default=[])
    args = parser.parse_args(argv)
    before, after, ratios = [], [], []
    for i in range(args.repeat):
        order = (0, 1) if i % 2 == 0 else (1, 0)
        speeds = [0.0, 0.0]
        for which in order:
            speeds[which] = _speed((args.before, args.after)[which], args.game, args.games, args.sets)
        before.append(speeds[0])
        after.append(speeds[1])
        ratios.append(speeds[1] / speeds[0])
        print(f"round {i + 1}: before {speeds[0]:,.0f} games/s, after {speeds[1]:,.0f} games/s, "
              f"ratio {ratios[-1]:.3f}", flush=True)
    print(f"median: before {statistics.median(before):,.0f}, after {statistics.median(after):,.0f} games/s; "
          f"ratio after/before {statistics.median(ratios):.3f} (rounds: {', '.join(f'{r:.3f}' for r in ratios)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
