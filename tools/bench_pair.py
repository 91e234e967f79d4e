"""Time one game's line-up in two source trees, interleaved: the ratio of their speeds is what a loaded
machine can still measure (the absolute figures are not).

    python tools/bench_pair.py BEFORE_DIR AFTER_DIR [--game NAME] [--games N] [--repeat K] [--set KEY=VALUE ...]
                               [--players LINE-UP] [--workers W] [--cpu] [--instructions SMALL]

Each round runs BEFORE then AFTER (then the next round AFTER then BEFORE), each in a fresh process that
imports simkit from its tree, plays one warm-up game and then times ``--games`` games: on one core in the
process (``--workers 1``, the default), or through ``simkit.runner.execute`` on W workers, in chunks of a
quarter of the games per worker as ``simkit bench`` plays them; ``--cpu`` (one worker) divides by the
process's CPU time instead of the wall clock's. Prints the median games/s of each and the
median of the per-round ratios AFTER / BEFORE; also player turns/s where the game counts them (the fair
figure when a change of behaviour makes games longer or shorter).

``--instructions SMALL`` counts instructions instead of time (Valgrind's callgrind, which other jobs on the
machine do not disturb; docs/development.md): each tree plays games 1..SMALL and then games 1..N in one
process under ``valgrind --tool=callgrind --instr-atstart=no``, counting only inside the two ``batch.play`` calls
(a client request switches counting on and off, so importing and loading the Numba cache cost nothing), and
(count(N) - count(SMALL)) / (N - SMALL) is the instructions per game with the fixed cost of a batch taken
out. Needs valgrind, its header valgrind/callgrind.h and a C compiler; one round is enough (counts repeat to
a few parts in a million).
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


# Run under callgrind: the same batch, counted only inside batch.play (client requests from a small C library).
_COUNTING_CHILD = """
import ctypes, json, sys
from simkit.runner import make_batch
control = ctypes.CDLL(sys.argv[1])
game, small, games, sets = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), json.loads(sys.argv[5])
players = sys.argv[6].split(",") if sys.argv[6] else None
batch = make_batch(game, games + 1, players, 1, sets=sets)
batch.play(0, 1)
for n in (small, games):
    control.count_start()
    batch.play(1, n)
    control.count_stop()
"""
_CONTROL = """#include <valgrind/callgrind.h>
void count_start(void) { CALLGRIND_ZERO_STATS; CALLGRIND_START_INSTRUMENTATION; }
void count_stop(void) { CALLGRIND_STOP_INSTRUMENTATION; CALLGRIND_DUMP_STATS_AT("counted"); }
"""


def _control_library(folder: str) -> str:
    """The client-request library the counting child loads, compiled into ``folder``."""
    source, library = os.path.join(folder, "control.c"), os.path.join(folder, "control.so")
    with open(source, "w") as out:
        out.write(_CONTROL)
    subprocess.run(["cc", "-O1", "-shared", "-fPIC", "-o", library, source], check=True)
    return library


def _totals(prefix: str) -> list[int]:
    """The instruction counts of callgrind's dumps ``prefix.1``, ``prefix.2``, ... in order."""
    counts, part = [], 1
    while os.path.exists(f"{prefix}.{part}"):
        with open(f"{prefix}.{part}") as dump:
            counts.append(next(int(line.split()[1]) for line in dump if line.startswith("totals:")))
        part += 1
    return counts


def instructions_per_game(tree: str, args, folder: str) -> float:
    """Instructions per game of ``tree``: (count of games 1..N - count of games 1..SMALL) / (N - SMALL)."""
    prefix = os.path.join(folder, f"callgrind-{len(os.listdir(folder))}")
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree), NUMBA_NUM_THREADS="1", PYTHONHASHSEED="0")
    subprocess.run(["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={prefix}",
                    sys.executable, "-c", _COUNTING_CHILD, _control_library(folder), args.game,
                    str(args.instructions), str(args.games), json.dumps(args.sets), args.players or ""],
                   env=env, cwd=os.path.abspath(tree), capture_output=True, text=True, check=True)
    small, large = _totals(prefix)
    return (large - small) / (args.games - args.instructions)


def _count(args) -> int:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        counts = [instructions_per_game(tree, args, folder) for tree in (args.before, args.after)]
    print(f"instructions per game ({args.game}, games {args.instructions + 1}..{args.games} of one batch): before "
          f"{counts[0]:,.0f}, after {counts[1]:,.0f}; after/before {counts[1] / counts[0]:.4f}")
    return 0


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
    parser.add_argument("--instructions", type=int, metavar="SMALL",
                        help="count instructions per game under valgrind instead of timing (SMALL < --games)")
    args = parser.parse_args(argv)
    if args.instructions is not None:
        if not 0 <= args.instructions < args.games:
            parser.error("--instructions SMALL needs 0 <= SMALL < --games")
        return _count(args)
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
