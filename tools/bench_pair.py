"""Time one game's line-up in two source trees, interleaved: the ratio of their speeds is what a loaded
machine can still measure (the absolute figures are not).

    python tools/bench_pair.py BEFORE_DIR AFTER_DIR [--game NAME] [--games N] [--repeat K] [--set KEY=VALUE ...]
                               [--players LINE-UP] [--workers W] [--cpu]

Each round runs BEFORE then AFTER (then the next round AFTER then BEFORE), each in a fresh process that
imports simkit from its tree, plays one warm-up game and then times ``--games`` games: on one core in the
process (``--workers 1``, the default), or through ``simkit.runner.execute`` on W workers, in chunks of a
quarter of the games per worker as ``simkit bench`` plays them; ``--cpu`` (one worker) divides by the
process's CPU time instead of the wall clock's. Prints the median games/s of each and the
median of the per-round ratios AFTER / BEFORE; also player turns/s where the game counts them (the fair
figure when a change of behaviour makes games longer or shorter).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

# The child imports simkit from the tree it runs in (PYTHONPATH), and simkit finds that tree's strategies/ and
# reports/ beside it (simkit/__init__.py). A tree older than that finder takes them from an editable install.
_CHILD = """
import json, sys, time
from simkit.runner import execute, make_batch
game, games, sets, workers = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3]), int(sys.argv[4])
players = sys.argv[5].split(",") if sys.argv[5] else None
clock = time.process_time if sys.argv[6] == "cpu" else time.perf_counter
batch = make_batch(game, games + 1, players, 1, sets=sets)
batch.play(0, 1)
count = getattr(batch.game, "player_turns", None)
turns = [0]
t = clock()
if workers == 1:
    columns = batch.play(1, games)
    seconds = clock() - t
    turns[0] = count(columns) if count else 0
else:
    def sink(index, columns):
        turns[0] += count(columns) if count else 0
    execute(batch, sink, workers=workers, chunk_size=max(1, (games + 1) // (4 * workers)))
    seconds = time.perf_counter() - t
    games += 1
print(json.dumps([games / seconds, turns[0] / seconds]))
"""


def _speed(tree: str, args) -> tuple[float, float]:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree), NUMBA_NUM_THREADS="1")
    done = subprocess.run([sys.executable, "-c", _CHILD, args.game, str(args.games), json.dumps(args.sets),
                           str(args.workers), args.players or "", "cpu" if args.cpu else "wall"], env=env,
                          cwd=os.path.abspath(tree), capture_output=True, text=True, check=True)
    return tuple(json.loads(done.stdout.strip().splitlines()[-1]))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--game", default="wheeler-dealer-us")
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--set", dest="sets", action="append", default=[])
    parser.add_argument("--players", default="", help="a line-up, comma-separated (default: the game's own)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--cpu", action="store_true",
                        help="one worker: time the batch by the process's CPU time, not the wall clock (a loaded "
                             "machine slows both trees alike either way, but CPU time waits for no other job)")
    args = parser.parse_args(argv)
    if args.cpu and args.workers != 1:
        parser.error("--cpu times one worker only")
    speeds = {0: [], 1: []}
    ratios, turn_ratios = [], []
    for i in range(args.repeat):
        order = (0, 1) if i % 2 == 0 else (1, 0)
        for which in order:
            speeds[which].append(_speed((args.before, args.after)[which], args))
        (games_b, turns_b), (games_a, turns_a) = speeds[0][-1], speeds[1][-1]
        ratios.append(games_a / games_b)
        turn_ratios.append(turns_a / turns_b if turns_b else float("nan"))
        print(f"round {i + 1}: before {games_b:,.0f} games/s ({turns_b:,.0f} turns/s), after {games_a:,.0f} games/s "
              f"({turns_a:,.0f} turns/s), ratio {ratios[-1]:.3f} (turns {turn_ratios[-1]:.3f})", flush=True)
    median = {which: [statistics.median(s[k] for s in speeds[which]) for k in range(2)] for which in speeds}
    print(f"median ({args.workers} worker{'s' if args.workers > 1 else ''}): before {median[0][0]:,.0f}, after "
          f"{median[1][0]:,.0f} games/s; ratio after/before {statistics.median(ratios):.3f} "
          f"(rounds: {', '.join(f'{r:.3f}' for r in ratios)})")
    if median[0][1]:
        print(f"player turns/s: before {median[0][1]:,.0f}, after {median[1][1]:,.0f}; ratio "
              f"{statistics.median(turn_ratios):.3f} (per game: before {median[0][1] / median[0][0]:.1f}, after "
              f"{median[1][1] / median[1][0]:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
