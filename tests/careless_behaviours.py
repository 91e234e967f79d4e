"""The careless-strategy campaign: 17 ways a strategy's author can go wrong, each played through ``simkit run``
as a user would, checking that the command ends as documented (docs/strategies.md, "When a strategy
fails"): the exit status, exactly one line on stderr naming what went wrong, and no results written.

The small campaign is tests/test_careless_behaviours.py; the large one is a command (it runs every case as
its own ``simkit`` process, in parallel; minutes), from the repository root:

    .venv/bin/python -m tests.careless_behaviours --games all --players 2-6 --check both --jobs 2

Each behaviour is written into every decision of a strategy module of its own (generated from the game's
decision signatures: the strategy's memory, random stream and answer buffer are the arguments it may
write, the rest are read-only), on top of the game's first default strategy.
"""
from __future__ import annotations

import argparse
import itertools
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from numba import types

ROOT = Path(__file__).resolve().parents[1]
STUCK_TIMEOUT_S = 5


@dataclass(frozen=True)
class Behaviour:
    name: str
    body: str               # the decision's body before it returns; MEM, RNG, ANS and RO name its arguments
    status: int             # the documented exit status
    says: tuple = ()        # words the one line must hold (DECISION: the decision's name)
    module: str = ""        # module-level code (at import)
    helpers: str = ""       # module-level helpers (compiled with the decision)
    needs_supervisor: bool = False   # a crash or a stuck decision: only the simkit process's supervisor can tell
    array: str = ""         # the argument (MEM, RNG, ANS, RO) whose bounds it breaks: the line names it by its role


BEHAVIOURS = (
    Behaviour("rng-one-past", "RNG[4] = np.uint64(12345)", 1, ("index past the end", "decision DECISION"), array="RNG"),
    Behaviour("answer-8-past", "ANS[ANS.size + 7] = 1", 1, ("index past the end", "decision DECISION"), array="ANS"),
    Behaviour("memory-one-past", "MEM[MEM.size] = 1.0", 1, ("index past the end", "decision DECISION"), array="MEM"),
    Behaviour("memory-far-past", "MEM[10 ** 7] = 1.0", 1, ("index past the end", "decision DECISION"), array="MEM"),
    Behaviour("memory-far-before", "MEM[-10 ** 7] = 1.0", 1, ("index before the start", "decision DECISION"),
              array="MEM"),
    Behaviour("read-past", "MEM[0] = RO[RO.size + 3]", 1, ("index past the end", "decision DECISION"), array="RO"),
    Behaviour("helper-writes-past", "_helper(RNG)", 1, ("index past the end", "decision DECISION",
                                                         "array stream in _helper"),
              helpers="@njit\ndef _helper(stream):\n    stream[stream.size + 1] = np.uint64(7)\n"),
    Behaviour("flat-write-readonly", "RO.flat[0] = 1", 2, ("read-only",)),
    Behaviour("nditer-write-readonly", "for x in np.nditer(RO):\n        x[...] = 1", 2, ("read-only",)),
    Behaviour("raises", "if MEM[0] == 0.0:\n        raise ValueError('careless')", 1, ("ValueError: careless", "decision DECISION")),
    Behaviour("divides-by-zero", "MEM[0] = 1 // (np.int64(RNG[0]) * 0)", 1, ("ZeroDivisionError",
                                                                           "decision DECISION")),
    Behaviour("huge-allocation", "big = np.empty(2 ** 40)\n    big[0] = 1.0\n    MEM[0] = big[0]", 1,
              ("does not fit in memory", "decision DECISION")),
    Behaviour("infinite-recursion", "MEM[0] = _deep(1)", 1, ("killed the simkit process",),
              helpers="@njit\ndef _deep(n):\n    return _deep(n + 1) + 1 if n > 0 else 0\n", needs_supervisor=True),
    Behaviour("infinite-loop", "i = 0\n    while MEM[1] == 0.0:\n        i += 1\n    MEM[2] = i", 1,
              ("is stuck", "decision DECISION"), needs_supervisor=True),
    Behaviour("outside-randomness", "RETURN_RANDOM", 1, ("different results when replayed",)),
    Behaviour("sys-exit-at-import", "pass", 2, ("sys.exit(3)",), module="sys.exit(3)"),
    Behaviour("raises-at-import", "pass", 2, ("cannot import",), module="raise RuntimeError('careless import')"),
)


# a game whose small integers are never legal answers: draw among the legal ones (Dweebies' place(hand, public,
# grid, legal, ...) answers (Dweebie << 32) | cell, a Dweebie held and a cell of legal; 0, 1 or 2 are refused)
RANDOM_ANSWER = {"dweebies": "d = 0\n    while a0[d] == 0:\n        d += 1\n"
                             "    return (np.int64(d) << 32) | a3[np.int64(np.random.random() * a3.size)]"}


ROLE_WORDS = {"MEM": "memory", "RNG": "random stream", "ANS": "answer buffer", "RO": "read-only argument"}


def _roles(signature) -> dict:
    """Which argument of a decision is its memory, random stream, answer buffer, and a read-only 1-d array."""
    roles = {}
    for index, arg in enumerate(signature.args):
        if not isinstance(arg, types.Array):
            continue
        if arg.mutable:
            role = {"float64": "MEM", "uint64": "RNG", "int64": "ANS"}.get(str(arg.dtype))
        else:
            role = "RO" if arg.ndim == 1 and str(arg.dtype) == "int64" else None
        if role and role not in roles:
            roles[role] = f"a{index}"
    roles.setdefault("ANS", roles["MEM"])       # a decision without an answer buffer: its memory instead
    return roles


def strategy_source(game: str, behaviour: Behaviour, module: str) -> str:
    """A strategy module whose every decision shows ``behaviour``: STRATEGY in module ``module``."""
    from simkit.games import get_game

    spec = get_game(game)
    lines = ["import sys", "import numpy as np", "from numba import njit",
             "from simkit.strategy import Strategy, registered", behaviour.module, behaviour.helpers]
    points = {}
    for number, (point, signature) in enumerate(spec.decisions.items()):
        roles = _roles(signature)
        args = ", ".join(f"a{i}" for i in range(len(signature.args)))
        result = "False" if signature.return_type == types.boolean else "0"
        body = behaviour.body
        if body == "RETURN_RANDOM":      # an answer the engine accepts, drawn from np.random
            body = "return np.random.random() < 0.5" if result == "False" else \
                RANDOM_ANSWER.get(game, "return np.int64(np.random.random() * 3)")
        for role, name in roles.items():
            body = body.replace(role, name)
        lines += [f"def decide_{number}({args}):", f"    {body}", f"    return {result}", ""]
        points[point] = f"decide_{number}"
    base = spec.default_lineup[0]
    decisions = ", ".join(f"{point!r}: {name}" for point, name in points.items())   # "raise" is a decision
    lines.append(f"STRATEGY = Strategy.build({game!r}, {module!r}, base=registered({game!r})[{base!r}], "
                 f"**{{{decisions}}})")
    return "\n".join(lines) + "\n"


def case_command(game: str, behaviour: Behaviour, players: int, check: bool, out: Path, module: str,
                 games: int = 20) -> list[str]:
    """The ``simkit run`` arguments of one case: the careless strategy in seat 0, shipped ones in the others."""
    from simkit.games import get_game

    spec = get_game(game)
    shipped = [spec.default_lineup[i % len(spec.default_lineup)] for i in range(1, players)]
    argv = ["run", game, "--games", str(games), "-p", ",".join([f"{module}:STRATEGY", *shipped]),
            "--out", str(out), "--seed", "3"]
    if behaviour.name == "infinite-loop":
        argv += ["--decision-timeout", str(STUCK_TIMEOUT_S)]
    return argv + (["--check"] if check else [])


def judge(game: str, behaviour: Behaviour, status: int, stderr: str, out: Path) -> str | None:
    """What is wrong with how a case ended (None: it ended as documented)."""
    from simkit.games import get_game

    lines = [line for line in stderr.splitlines() if line.strip()]
    if status != behaviour.status:
        return f"exit status {status}, not {behaviour.status}: {' | '.join(lines[-3:])}"
    if len(lines) != 1 or not lines[0].startswith("simkit: error: "):
        return f"{len(lines)} lines on stderr: {' | '.join(lines[:3])}"
    decisions = list(get_game(game).decisions)
    for word in behaviour.says:
        if "DECISION" in word:
            if not any(word.replace("DECISION", point) in lines[0] for point in decisions):
                return f"does not name the decision: {lines[0]}"
        elif word not in lines[0]:
            return f"does not say {word!r}: {lines[0]}"
    if behaviour.array:
        point = next(point for point in decisions if f"decision {point} " in lines[0])
        roles = _roles(get_game(game).decisions[point])
        argument = roles[behaviour.array]
        role = next(role for role, name in roles.items() if name == argument)   # no answer buffer: the memory
        named = f"of its {ROLE_WORDS[role]} {argument} ("
        if named not in lines[0]:
            return f"does not name the array ({named!r}): {lines[0]}"
    left = [p.name for p in out.parent.iterdir() if p.name.lstrip(".").startswith(out.name)]
    if left:
        return f"left {', '.join(left)} behind"
    return None


def run_case(game: str, behaviour: Behaviour, players: int, check: bool, folder: Path) -> dict:
    """Play one case as its own simkit process (in ``folder``, which holds its strategy module)."""
    module = f"careless_{behaviour.name.replace('-', '_')}_{game.replace('-', '_')}_{players}{'c' if check else ''}"
    (folder / f"{module}.py").write_text(strategy_source(game, behaviour, module))
    out = folder / f"out-{module}"
    started = time.perf_counter()
    done = subprocess.run([str(Path(sys.executable).parent / "simkit"), *case_command(game, behaviour, players, check, out, module)],
                          cwd=folder, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PYTHONPATH": str(folder)})
    problem = judge(game, behaviour, done.returncode, done.stderr, out)
    return {"game": game, "behaviour": behaviour.name, "players": players, "check": check,
            "passed": problem is None, "problem": problem, "seconds": round(time.perf_counter() - started, 1)}


def main() -> None:
    from simkit.games import game_names

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="all", help="comma-separated games, or all")
    parser.add_argument("--players", default="2-6", help="a count or a range, e.g. 3 or 2-6")
    parser.add_argument("--check", choices=("on", "off", "both"), default="both")
    parser.add_argument("--behaviours", default="all", help="comma-separated names, or all")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    games = game_names() if args.games == "all" else args.games.split(",")
    low, _, high = args.players.partition("-")
    counts = range(int(low), int(high or low) + 1)
    checks = {"on": (True,), "off": (False,), "both": (True, False)}[args.check]
    chosen = [b for b in BEHAVIOURS if args.behaviours == "all" or b.name in args.behaviours.split(",")]
    from simkit.games import get_game

    cases = [(g, b, n, c) for g, b, n, c in itertools.product(games, chosen, counts, checks)
             if n in get_game(g).all_player_counts]
    with tempfile.TemporaryDirectory() as folder, ThreadPoolExecutor(args.jobs) as jobs:
        results = list(jobs.map(lambda case: run_case(*case, Path(folder)), cases))
    for result in results:
        if not result["passed"]:
            print(f"FAILED {result['game']} {result['behaviour']} {result['players']}p "
                  f"check={result['check']}: {result['problem']}")
    print("| behaviour | tried | passed |")
    print("|---|---|---|")
    for behaviour in chosen:
        mine = [r for r in results if r["behaviour"] == behaviour.name]
        print(f"| {behaviour.name} | {len(mine)} | {sum(r['passed'] for r in mine)} |")
    print(f"| all | {len(results)} | {sum(r['passed'] for r in results)} |")


if __name__ == "__main__":
    main()
