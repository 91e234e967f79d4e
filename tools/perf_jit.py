"""Where a kernel's time goes, function by function: sample one batch with Linux ``perf`` and name the
compiled (Numba) functions the samples fall in, engine helpers and strategy functions alike.

    python tools/perf_jit.py GAME [--games N] [--set KEY=VALUE ...] [--top K]

``simkit bench GAME --profile`` splits the time by replaying decisions from tapes and subtracting timings,
which a loaded machine blurs; sampling needs no second run, so its shares hold on a busy machine too. Prints
each compiled function's share of the samples in compiled code (helpers that are not inlined show on their
own, so a decision's share is its function plus its helpers), then that code's share of the whole process
(the rest: imports, loading the cache, Python around the kernel). Needs ``perf`` (linux-tools); the names
come from a perf map (/tmp/perf-PID.map) written from the symbols of every compiled library.
"""
from __future__ import annotations

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time


def _child(game: str, games: int, sets: list[str]) -> None:
    """Play the batch in this process, after writing the perf map of every compiled function it runs."""
    from numba.core import codegen
    from numba.core.registry import CPUDispatcher

    objects = {}    # library -> its object code, as loaded from Numba's cache
    unserialize = codegen.CPUCodeLibrary._unserialize.__func__

    def keep_object(cls, codegen_, state):
        library = unserialize(cls, codegen_, state)
        if state[1] == "object":
            objects[id(library)] = state[2][0]
        return library

    codegen.CPUCodeLibrary._unserialize = classmethod(keep_object)
    import gc

    from simkit.runner import make_batch

    batch = make_batch(game, games + 1, None, 1, sets=sets)
    batch.play(0, 1)
    symbols = {}
    for dispatcher in [o for o in gc.get_objects() if isinstance(o, CPUDispatcher)]:
        for result in dispatcher.overloads.values():
            library = result.library
            if id(library) in objects:     # loaded from the cache: its symbols from the object file
                with tempfile.NamedTemporaryFile(suffix=".o") as handle:
                    handle.write(objects[id(library)])
                    handle.flush()
                    listing = subprocess.run(["nm", "--defined-only", "-S", handle.name], capture_output=True,
                                             text=True).stdout
                names = [(parts[3], int(parts[1], 16)) for parts in map(str.split, listing.splitlines())
                         if len(parts) == 4 and parts[2] in "tT"]
            else:                              # compiled in this process: its module
                names = [(f.name, 0) for f in library._final_module.functions if not f.is_declaration]
            for name, size in names:
                address = library._codegen._engine.get_function_address(name)
                if address:
                    symbols[address] = (size, name)
    addresses = sorted(symbols)
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as out:
        for i, address in enumerate(addresses):
            size, name = symbols[address]
            if not size:
                size = (addresses[i + 1] - address) if i + 1 < len(addresses) else 4096
            out.write(f"{address:x} {size:x} {name}\n")
    start = time.perf_counter()
    batch.play(1, games)
    print(f"{games / (time.perf_counter() - start):,.0f} games/s on one core while sampled", file=sys.stderr)


def short_name(symbol: str) -> str:
    """module.function of a mangled Numba symbol (``_ZN6simkit5games...5_turnB5v12...``)."""
    at = symbol.find("_ZN")
    if at < 0:
        return symbol[:80]
    rest, parts = symbol[at + 3:], []
    while rest[:1].isdigit():
        length = re.match(r"\d+", rest).group()
        parts.append(rest[len(length):len(length) + int(length)])
        rest = rest[len(length) + int(length):]
    if parts[:1] == ["cpython"]:
        parts = parts[1:]
    name = ".".join(parts[-2:]) + (" (wrapper)" if symbol.startswith(("cfunc.", "_ZN7cpython")) else "")
    return f"{parts[0]}:{name}" if len(parts) > 2 else name


def jit_shares(report: str) -> tuple[dict[str, float], float]:
    """The percentages of ``perf report --sort dso,sym --stdio`` that fall in compiled code, by function
    (``short_name``), and the sum of all its percentages."""
    shares, everything = {}, 0.0
    for line in report.splitlines():
        match = re.match(r"\s*([\d.]+)%\s+(\S.*?)\s+\[\.\]\s+(\S+)", line)
        if not match:
            continue
        share = float(match.group(1))
        everything += share
        if match.group(2).startswith("[JIT]"):
            name = short_name(match.group(3))
            shares[name] = shares.get(name, 0.0) + share
    return shares, everything


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--set", dest="sets", action="append", default=[])
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child(args.game, args.games, args.sets)
        return 0
    if not shutil.which("perf"):
        print("perf_jit: error: needs the perf tool (linux-tools)", file=sys.stderr)
        return 2
    maps = set(glob.glob("/tmp/perf-*.map"))
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "perf.data")
        child = [sys.executable, os.path.abspath(__file__), args.game, "--games", str(args.games), "--child"]
        child += [f"--set={s}" for s in args.sets]
        subprocess.run(["perf", "record", "-q", "-F", "4000", "-o", data, "--", *child], check=True)
        report = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "dso,sym", "--stdio"],
                                capture_output=True, text=True, check=True).stdout
    for path in set(glob.glob("/tmp/perf-*.map")) - maps:     # the child's
        os.remove(path)
    shares, everything = jit_shares(report)
    jit = sum(shares.values())
    if not jit:
        print("perf_jit: error: no samples in compiled code", file=sys.stderr)
        return 1
    print(f"{args.game} {' '.join(args.sets)}: share of the samples in compiled code, by function")
    packages = {}
    for rank, (name, share) in enumerate(sorted(shares.items(), key=lambda item: -item[1])):
        package, _, function = name.rpartition(":")
        packages[package] = packages.get(package, 0.0) + share
        if rank < args.top:
            print(f"  {100 * share / jit:6.2f}%  {function}")
    print("by package: " + ", ".join(f"{package or 'other'} {100 * share / jit:.1f}%"
                                      for package, share in sorted(packages.items(), key=lambda item: -item[1])))
    print(f"compiled code: {100 * jit / everything:.1f}% of the process's samples (the rest: imports, cache loading, "
          "Python around the kernel)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
