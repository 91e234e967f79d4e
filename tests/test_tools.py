"""The maintainer's scripts in tools/ (not installed) keep working: the parts that need no long run are checked
here; datasets.py and bench_pair.py play whole batches and are run by hand (docs/development.md)."""
import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _tool(name: str):
    spec = importlib.util.spec_from_file_location(f"tools_{name}", ROOT / "tools" / f"{name}.py")
    module = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cookbook_reads_every_sample_of_the_cookbook():
    cookbook = _tool("cookbook")
    lines = ["text", "```", "$ simkit run wheedle \\", "    --games 10 -o runs/a", "10 games", "$ simkit summary runs/a",
             "line 1", "line 2", "```", "$ simkit not-in-a-block"]
    found = cookbook.samples(lines)
    assert [(s.command, s.expected) for s in found] == [("simkit run wheedle  --games 10 -o runs/a", ["10 games"]),
                                                         ("simkit summary runs/a", ["line 1", "line 2"])]
    assert cookbook.in_order(["a", "c"], ["a", "b", "c"]) and not cookbook.in_order(["c", "a"], ["a", "b", "c"])
    from simkit.cli import cli

    real = cookbook.samples(cookbook.COOKBOOK.read_text().split("\n"))
    assert real and all(sample.command.split()[1] in cli.commands for sample in real)


def test_perf_jit_names_a_numba_symbol():
    perf_jit = _tool("perf_jit")
    symbol = "_ZN6simkit5games7wheedle6engine5_turnB5v12xxx"
    assert perf_jit.short_name(symbol) == "simkit:engine._turn"
    assert perf_jit.short_name("plain_c_function") == "plain_c_function"


def test_tools_answer_help_without_playing():
    for name in ("bench_pair", "cookbook", "datasets", "perf_jit"):
        done = subprocess.run([sys.executable, str(ROOT / "tools" / f"{name}.py"), "--help"], capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0 and "usage:" in done.stdout, (name, done.stderr)
