"""The maintainer's scripts in tools/ (not installed; docs/development.md) keep working: each is run here on a
few games, or on a recorded sample where it needs a program the machine may lack (perf)."""
import argparse
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from .test_browser import require_chromium

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


def test_datasets_saves_compares_and_names_each_difference(tmp_path, monkeypatch, capsys):
    datasets = _tool("datasets")
    monkeypatch.setitem(datasets.CASES, "wheedle", ([["random"] * 4], [(), ("options.max_ticks=50",)], (0,)))
    assert datasets.main(["save", str(tmp_path), "--game", "wheedle", "--games", "3"]) == 0
    assert datasets.main(["compare", str(tmp_path), "--game", "wheedle"]) == 0
    assert capsys.readouterr().out.endswith("all identical\n")
    case = tmp_path / "wheedle-l0-base-r0-c0"
    columns = dict(np.load(case.with_suffix(".npz")))
    columns["ticks"] = columns["ticks"] + 1
    np.savez_compressed(case.with_suffix(".npz"), **columns)
    Path(f"{case}-replay0.txt").write_text("another replay")
    assert datasets.main(["compare", str(tmp_path), "--game", "wheedle"]) == 1
    out = capsys.readouterr().out
    assert "DIFFERS wheedle-l0-base-r0-c0: ticks, replay 0\n" in out and out.endswith("1 cases differ\n")
    assert "same wheedle-l0-base-r1-c0" in out


def test_bench_pair_interleaves_the_trees_and_reports_median_ratios(monkeypatch, capsys):
    bench_pair = _tool("bench_pair")
    order, speeds = [], {"old": (100.0, 1000.0), "new": (150.0, 1200.0)}
    monkeypatch.setattr(bench_pair, "_speed", lambda tree, args: order.append(tree) or speeds[tree])
    assert bench_pair.main(["old", "new", "--repeat", "3"]) == 0
    assert order == ["old", "new", "new", "old", "old", "new"]
    out = capsys.readouterr().out
    assert "ratio after/before 1.500 (rounds: 1.500, 1.500, 1.500)" in out
    assert "player turns/s: before 1,000, after 1,200; ratio 1.200 (per game: before 10.0, after 8.0)" in out


def test_bench_pair_times_a_tree(capsys):
    bench_pair = _tool("bench_pair")
    for workers, cpu in ((1, True), (2, False)):
        args = argparse.Namespace(game="wheedle", games=8, sets=["options.max_ticks=50"], workers=workers,
                                  players="random,random,random,random", cpu=cpu)
        games_per_second, turns_per_second = bench_pair._speed(str(ROOT), args)
        assert games_per_second > 0 and turns_per_second > games_per_second   # a Wheedle game has many ticks
    try:
        bench_pair.main(["a", "b", "--cpu", "--workers", "2"])
    except SystemExit as refused:
        assert refused.code == 2 and "--cpu times one worker only" in capsys.readouterr().err
    else:
        raise AssertionError("--cpu with two workers is refused")


def test_bench_pair_counts_instructions_per_game_without_the_batch_cost(monkeypatch, tmp_path, capsys):
    bench_pair = _tool("bench_pair")
    prefix = tmp_path / "callgrind-0"
    for part, total in ((1, 3_000_000), (2, 23_000_000)):    # games 1..100, then games 1..2100
        (tmp_path / f"callgrind-0.{part}").write_text(f"events: Ir\nsummary: {total}\ntotals: {total}\n")
    assert bench_pair._totals(str(prefix)) == [3_000_000, 23_000_000]
    counts = {"old": 10_000.0, "new": 10_250.0}
    monkeypatch.setattr(bench_pair, "instructions_per_game", lambda tree, args, folder: counts[tree])
    assert bench_pair.main(["old", "new", "--games", "2100", "--instructions", "100"]) == 0
    assert capsys.readouterr().out == ("instructions per game (wheeler-dealer-us, games 101..2100 of one batch): "
                                       "before 10,000, after 10,250; after/before 1.0250\n")
    try:
        bench_pair.main(["a", "b", "--games", "100", "--instructions", "100"])
    except SystemExit as refused:
        assert refused.code == 2 and "--instructions SMALL needs 0 <= SMALL < --games" in capsys.readouterr().err
    else:
        raise AssertionError("SMALL as large as --games is refused")


def test_perf_jit_shares_the_samples_by_compiled_function():
    perf_jit = _tool("perf_jit")
    report = """# Overhead  Shared Object  Symbol
    50.00%  [JIT] tid 7  [.] _ZN6simkit5games7wheedle6engine5_turnB5v12xxx
    20.00%  [JIT] tid 7  [.] _ZN6simkit5games7wheedle6engine5_turnB5v12yyy
    10.00%  [JIT] tid 7  [.] _ZN6simkit10strategies7wheedle13collector_actB3v1
    20.00%  libpython3.11.so  [.] _PyEval_EvalFrameDefault
"""
    shares, everything = perf_jit.jit_shares(report)
    assert shares == {"simkit:engine._turn": 70.0, "simkit:wheedle.collector_act": 10.0} and everything == 100.0


def test_perf_jit_child_names_the_compiled_functions_it_runs():
    child = subprocess.Popen([sys.executable, str(ROOT / "tools" / "perf_jit.py"), "wheedle", "--games", "3",
                              "--set", "options.max_ticks=50", "--child"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    _, err = child.communicate(timeout=600)
    perf_map = Path(f"/tmp/perf-{child.pid}.map")      # the child writes it; perf_jit.py's parent removes it
    try:
        assert child.returncode == 0 and "games/s on one core while sampled" in err, err
        names = [line.split()[2] for line in perf_map.read_text().splitlines()]
    finally:
        perf_map.unlink(missing_ok=True)
    short = {_tool("perf_jit").short_name(name) for name in names}
    assert any(name.startswith("simkit:engine.") for name in short), sorted(short)[:20]


def test_screenshots_pictures_a_page_at_each_width(tmp_path):
    require_chromium()
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "screenshots.py"), str(tmp_path), "run-wheedle"],
                          capture_output=True, text=True, timeout=600, env=dict(os.environ, NUMBA_NUM_THREADS="1"))
    assert done.returncode == 0, done.stderr
    shots = sorted(path.name for path in (tmp_path / "shots").iterdir())
    assert shots == ["run-wheedle-1280.png", "run-wheedle-800.png"]
    assert all((tmp_path / "shots" / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for name in shots)
