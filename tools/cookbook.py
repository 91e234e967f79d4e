"""Run every sample command of docs/cookbook.md and say which samples no longer match what it prints.

    python tools/cookbook.py [--only TEXT] [--skip TEXT] [--write]

A sample is a line ``$ simkit ...`` in a fenced block (continued by lines ending in a backslash) and the
lines after it up to the next ``$`` line or the end of the block. Each command runs in a scratch directory
(with the recipe's own ``mystrats.py`` written there), without a progress bar, and its output is compared
line by line; the directory it ran in reads ``…``, as in the cookbook. A sample may be abridged (the cookbook
says so where it is: some lines of the output, in order): it matches when its lines appear in the output in
that order. ``--write`` replaces every complete sample that drifted by the new output (abridged ones are
listed for a person to redo). ``--only``/``--skip``: run only the commands containing TEXT, or not those
(repeatable; the tune recipe takes minutes). Exit status 1 when a sample differs.
"""
from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COOKBOOK = ROOT / "docs" / "cookbook.md"
SIMKIT = Path(sys.executable).with_name("simkit")


@dataclass
class Sample:
    command: str          # the command line as a shell reads it (continuations joined)
    first: int            # index of the sample's first output line in the cookbook's lines
    expected: list[str]   # the sample's output lines


def samples(lines: list[str]) -> list[Sample]:
    found, block, i = [], False, 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            block = not block
        elif block and line.startswith("$ simkit "):
            command = line[2:]
            while command.endswith("\\"):
                i += 1
                command = command[:-1] + " " + lines[i].strip()
            first = i + 1
            j = first
            while not lines[j].startswith("```") and not lines[j].startswith("$ "):
                j += 1
            found.append(Sample(command, first, lines[first:j]))
            i = j - 1
        i += 1
    return found


def own_strategy(text: str) -> str:
    return re.search(r"```python\n(# mystrats\.py.*?)```", text, re.S).group(1)


def run(sample: Sample, where: Path) -> list[str]:
    argv = shlex.split(sample.command)
    env = {**os.environ, "SIMKIT_PROGRESS": "0", "PYTHONPATH": str(where)}
    done = subprocess.run([str(SIMKIT), *argv[1:]], cwd=where, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise SystemExit(f"{sample.command}: exit {done.returncode}: {done.stderr.strip()}")
    return done.stdout.replace(str(where), "…").rstrip("\n").split("\n")


def in_order(expected: list[str], actual: list[str]) -> bool:
    rest = iter(actual)
    return all(any(line == got for got in rest) for line in expected)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", default=[])
    parser.add_argument("--skip", action="append", default=[])
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args(argv)
    text = COOKBOOK.read_text()
    lines = text.split("\n")
    chosen = [s for s in samples(lines) if (not args.only or any(t in s.command for t in args.only))
              and not any(t in s.command for t in args.skip)]
    drifted = 0
    replacements = []
    with tempfile.TemporaryDirectory() as scratch:
        where = Path(scratch)
        (where / "mystrats.py").write_text(own_strategy(text))
        for sample in chosen:
            actual = run(sample, where)
            if actual == sample.expected:
                print(f"same       {sample.command}")
            elif len(sample.expected) < len(actual) and in_order(sample.expected, actual):
                print(f"same (abridged sample) {sample.command}")
            else:
                drifted += 1
                abridged = len(sample.expected) < len(actual) - 2
                print(f"{'DIFFERS (abridged: redo by hand)' if abridged else 'DIFFERS'}  {sample.command}")
                for old, new in zip(sample.expected + [""] * len(actual), actual + [""] * len(sample.expected)):
                    if old != new:
                        print(f"    sample: {old}\n    now:    {new}")
                        break
                if abridged:
                    print("    its whole output now:\n" + "\n".join(f"    | {line}" for line in actual))
                else:
                    replacements.append((sample, actual))
    if args.write and replacements:
        for sample, actual in sorted(replacements, key=lambda r: -r[0].first):
            lines[sample.first:sample.first + len(sample.expected)] = actual
        COOKBOOK.write_text("\n".join(lines))
        print(f"rewrote {len(replacements)} sample(s) in {COOKBOOK.relative_to(ROOT)}")
    return 1 if drifted else 0


if __name__ == "__main__":
    sys.exit(main())
