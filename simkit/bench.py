"""Benchmarks (never timed tests): throughput on all cores and one, the JIT speed-up, warm start and
peak memory. Each figure is the median of ``repeat`` runs; compare figures as ratios within one run."""
from __future__ import annotations

import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from . import distributed, pool
from .analysis.balance import balance
from .analysis.design import design
from .analysis.metagame import metagame
from .analysis.play import Job, play_jobs
from .analysis.tune import tune
from .distributed import using
from .errors import SimkitError
from .games import get_game
from .pool import usage
from .runner import execute, make_batch, run_to_directory
from .strategy import parse_lineup

_CHILD = """
import json, os, sys, threading, time
t0 = time.perf_counter()
from simkit.runner import make_batch, execute
mode, spec, games, workers = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
batch = make_batch(spec["game"], games, None, 1, spec["rules_file"], spec["sets"])


def tree_rss_mib(pid):
    # resident memory of a process and all its descendants (Linux /proc), in MiB
    total, stack = 0, [pid]
    while stack:
        p = stack.pop()
        try:
            with open(f"/proc/{p}/status") as f:
                total += next(int(l.split()[1]) for l in f if l.startswith("VmRSS"))
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    stack += [int(c) for c in f.read().split()]
        except (OSError, StopIteration):
            pass
    return total / 1024


peak = [0.0]
def sample():
    while True:
        peak[0] = max(peak[0], tree_rss_mib(os.getpid()))
        time.sleep(0.05)


if mode == "start":
    batch.play(0, 1)
    print(json.dumps({"seconds": time.perf_counter() - t0}))
else:
    threading.Thread(target=sample, daemon=True).start()
    if mode == "run":
        from simkit.runner import run_to_directory
        t1 = time.perf_counter()
        run_to_directory(batch, sys.argv[5], workers, 10_000)
    else:
        batch.play(0, 1)
        t1 = time.perf_counter()
        batch.play(1, games)
    seconds = time.perf_counter() - t1
    print(json.dumps({"seconds": seconds, "games_per_s": games / seconds, "peak_rss_mib": peak[0]}))
"""


def _child(args, env_extra=None) -> dict:
    env = dict(os.environ, **(env_extra or {}))
    done = subprocess.run([sys.executable, "-c", _CHILD, *map(str, args)], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"benchmark child failed: {done.stderr.strip().splitlines()[-1:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def throughput(spec: dict, games: int, workers: int) -> tuple[float, float]:
    """Games and player turns per second of the default line-up (turns: nan where the game doesn't count
    them), engine already compiled, nothing written."""
    batch = make_batch(spec["game"], games, None, 1, spec["rules_file"], spec["sets"])
    batch.play(0, 1)
    count = batch.game.player_turns
    turns = [0]

    def sink(index, columns):
        if count:
            turns[0] += count(columns)

    start = time.perf_counter()
    execute(batch, sink, workers=workers, chunk_size=max(1, games // (4 * workers)))
    seconds = time.perf_counter() - start
    return games / seconds, (turns[0] / seconds if count else float("nan"))


def backend_rates(spec: dict, games: int, workers: int, repeat: int) -> dict:
    """Games/s of whole runs into a directory (parts written, Dask's LocalCluster started and stopped inside
    the timing) on the local and the Dask backend with the same workers, alternated, medians of ``repeat``."""
    batch = make_batch(spec["game"], games, None, 1, spec["rules_file"], spec["sets"])
    rates = {"local": [], "dask": []}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(repeat):
            for backend in rates:
                start = time.perf_counter()
                run_to_directory(batch, f"{tmp}/{backend}{i}", workers, backend=backend)
                rates[backend].append(games / (time.perf_counter() - start))
    local, dask = statistics.median(rates["local"]), statistics.median(rates["dask"])
    return {"games_per_s_local_run": local, "games_per_s_dask_run": dask, "dask_ratio": dask / local,
            "dask_ratios": [d / l for d, l in zip(rates["dask"], rates["local"])]}


def tune_setup(game: str) -> dict:
    """The tune ``simkit bench --dask`` times: the first strategy of the game's default line-up that declares
    ranges to tune, against copies of itself (``simkit tune GAME --strategy S --field S,S,...``)."""
    seats = parse_lineup(game, list(get_game(game).default_lineup))
    name = next(seat.strategy.name for seat in seats if seat.strategy.declared)
    return {"strategy": name, "field": [name] * (len(seats) - 1)}


ANALYSES = ("tune", "metagame", "design", "balance-retune")


def _analysis_calls(game: str, trials: int, games: int, trial_games: int, vary: str | None,
                    change: str | None) -> dict:
    """What ``analysis_times`` times, by name: each a function (budget scale: "full" or "warm", workers) that
    runs the analysis at a small size. ``tune``: ``tune_setup``; ``metagame``: the default line-up's
    strategies (at least two), ``games`` x 5 games; ``design``: ``vary`` (a ``--vary`` item of the game) for
    seat balance, ``trials`` / 2 trials of ``trial_games`` games, ``games`` re-evaluating; ``balance-retune``:
    the default line-up under ``change`` (a ``--set-b`` item) with tune_setup's strategy re-tuned under both
    rule sets (``trials`` / 5 trials each, ``games`` games)."""
    setup = tune_setup(game)
    names = list(dict.fromkeys(get_game(game).default_lineup))
    if len(names) < 2:
        names.append(setup["strategy"] if names[0] != setup["strategy"] else "random")

    def scaled(full, warm, budget):
        return str(full if budget == "full" else warm)

    return {
        "tune": lambda budget, workers: tune(
            game, setup["strategy"], field=setup["field"], budget=scaled(trials, 2, budget),
            games=games if budget == "full" else min(games, 200), trial_games=trial_games, workers=workers,
            seed=1, progress=False),
        "metagame": lambda budget, workers: metagame(
            game, names, games=5 * games if budget == "full" else 200, seed=1, workers=workers),
        "design": lambda budget, workers: design(
            game, vary=vary, goal=["seat-balance"], budget=scaled(max(2, trials // 2), 2, budget),
            trial_games=trial_games, games=games if budget == "full" else 200, candidates=1, seed=1,
            workers=workers, progress=False),
        "balance-retune": lambda budget, workers: balance(
            game, sets_b=[change], retune=setup["strategy"], retune_budget=scaled(max(2, trials // 5), 2, budget),
            games=games if budget == "full" else 200, seed=1, workers=workers),
    }


def analysis_times(game: str, workers: int, repeat: int, trials: int = 40, games: int = 2000,
                   trial_games: int = 400, scheduler: str | None = None, analyses=("tune",), vary: str | None = None,
                   change: str | None = None) -> dict:
    """Wall seconds of each of ``analyses`` (``ANALYSES``; by default a tune of ``trials`` trials,
    ``tune_setup``, with ``games`` per side of its validation; ``_analysis_calls`` sizes the others) on the
    local pool and on a Dask LocalCluster of ``workers`` processes of one thread, alternated, medians of
    ``repeat``; each warmed at a tiny size first, and the cluster started before the timing (as one already
    running; ``scheduler``: use that one, its workers' threads all busy with this). Also the CPU seconds of
    every worker process (with its children) and of this one in each, summed over the rounds: how busy the
    workers were kept.
    ``design`` needs ``vary`` (a ``--vary`` item) and ``balance-retune`` ``change`` (a ``--set-b`` item)."""
    import dask
    import psutil
    from dask.distributed import Client, LocalCluster

    unknown = [name for name in analyses if name not in ANALYSES]
    if unknown or ("design" in analyses and not vary) or ("balance-retune" in analyses and not change):
        raise SimkitError(f"analysis_times: analyses from {', '.join(ANALYSES)} (design needs vary, balance-retune "
                          f"change), not {', '.join(unknown) or 'without them'}")
    calls = _analysis_calls(game, trials, games, trial_games, vary, change)
    setup = tune_setup(game)

    def cpu(pids) -> list[float]:
        # with its children: a Dask worker plays in a watched child when there is a decision timeout
        # (simkit.pool.play_watched), kept warm, so its CPU is the child's
        def used(process):
            return sum(process.cpu_times()[:2])
        return [used(process) + sum(used(child) for child in process.children(recursive=True))
                for process in map(psutil.Process, pids)]

    walls = {name: {"local": [], "dask": []} for name in analyses}
    used = {name: {"local": None, "dask": None} for name in analyses}

    def play(name, backend, address, budget):
        with using(backend, workers, address if backend == "dask" else None):
            calls[name](budget, workers)

    with contextlib.ExitStack() as stack:
        if scheduler is None:
            with dask.config.set(distributed.QUIET):     # as simkit's own LocalCluster (--backend dask)
                scheduler = stack.enter_context(LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                                             dashboard_address=None, silence_logs=50)).scheduler_address
        # a client of our own only to learn the workers' process ids, closed before the timing: one left open
        # as the current client (a `with Client(...)` block) made every tune on the cluster wait ~50 s
        with Client(scheduler) as client:
            pids = {"dask": sorted(client.run(os.getpid).values())}
        for name in analyses:
            for backend in ("local", "dask"):
                play(name, backend, scheduler, "warm")
        pids["local"] = [process.pid for process in pool._pool.processes]
        for round_ in range(repeat):       # interleaved: every analysis on both backends in each round
            for name in analyses:
                for backend in (("local", "dask") if round_ % 2 == 0 else ("dask", "local")):
                    before, mine = cpu(pids[backend]), time.process_time()
                    start = time.perf_counter()
                    play(name, backend, scheduler, "full")
                    walls[name][backend].append(time.perf_counter() - start)
                    spent = [after - b for after, b in zip(cpu(pids[backend]), before)] + [time.process_time() - mine]
                    sums = used[name][backend]
                    used[name][backend] = spent if sums is None else [u + x for u, x in zip(sums, spent)]
    out = {}
    for name in analyses:
        local, dask = statistics.median(walls[name]["local"]), statistics.median(walls[name]["dask"])
        ratios = [d / lo for d, lo in zip(walls[name]["dask"], walls[name]["local"])]
        out[name] = {"game": game, **(setup if name == "tune" else {}), "trials": trials, "validation_games": games,
                     "workers": workers, "wall_s_local": local, "wall_s_dask": dask, "dask_wall_ratio": dask / local,
                     "round_ratios": ratios, "walls_local": walls[name]["local"], "walls_dask": walls[name]["dask"],
                     "worker_cpu_s_local": used[name]["local"][:-1], "worker_cpu_s_dask": used[name]["dask"][:-1],
                     "parent_cpu_s_local": used[name]["local"][-1], "parent_cpu_s_dask": used[name]["dask"][-1],
                     "wall_s_total_local": sum(walls[name]["local"]), "wall_s_total_dask": sum(walls[name]["dask"])}
    return out


def _paired_rates(spec: dict, games: int, cores: int, repeat: int) -> dict:
    """Medians of ``repeat`` rounds on all cores and on one, the two alternated within each round (and the
    round's order flipped each time) so that the machine's drift over the measurement falls on both; the
    parallel speed-up is the median of the rounds' own ratios."""
    throughput(spec, max(1, 8 * cores), cores)      # fork the pool before the first timing
    all_cores, one_core = [], []
    for round_ in range(repeat):
        order = (cores, 1) if round_ % 2 == 0 else (1, cores)
        timed = {workers: throughput(spec, games, workers) for workers in order}
        all_cores.append(timed[cores])
        one_core.append(timed[1])
    speedups = [a[0] / o[0] for a, o in zip(all_cores, one_core)]
    return {"games_per_s_all_cores": statistics.median(r[0] for r in all_cores),
            "turns_per_s_all_cores": statistics.median(r[1] for r in all_cores),
            "games_per_s_one_core": statistics.median(r[0] for r in one_core),
            "turns_per_s_one_core": statistics.median(r[1] for r in one_core),
            "parallel_speedups": speedups, "parallel_speedup": statistics.median(speedups)}


def run_benchmark(game: str, games: int = 20_000, repeat: int = 3, nojit_games: int = 20,
                  memory: bool = False, rules_file=None, sets=(), memory_scale: int | None = 10,
                  dask: bool = False) -> dict:
    """Measure one game's default line-up under the given rules; returns a dict of figures (medians of
    ``repeat`` runs). With ``memory``: peak memory of a run of ``games`` games, and of ``memory_scale``
    times as many (None: only the first)."""
    cores = os.cpu_count() or 1
    spec = {"game": game, "rules_file": str(rules_file) if rules_file else None, "sets": list(sets)}
    make_batch(game, 1, None, 1, rules_file, sets).play(0, 1)  # validate and fill the cache before timing
    result = {"game": game, "sets": list(sets), "cores": cores, "games": games, "repeat": repeat}
    result.update(_paired_rates(spec, games, cores, repeat))
    nojit = statistics.median(_child(["play", json.dumps(spec), nojit_games, 1], {"NUMBA_DISABLE_JIT": "1"})["games_per_s"]
                              for _ in range(repeat))
    result["games_per_s_jit_disabled"] = nojit
    result["jit_speedup"] = result["games_per_s_one_core"] / nojit
    result["warm_start_s"] = statistics.median(_child(["start", json.dumps(spec), 1, 1])["seconds"] for _ in range(repeat))
    if dask:
        result.update(backend_rates(spec, games, cores, repeat))
        result.update(analysis_times(game, cores, repeat))
    if memory:
        with tempfile.TemporaryDirectory() as tmp:
            result["peak_rss_mib"] = _child(["run", json.dumps(spec), games, cores, f"{tmp}/small"])["peak_rss_mib"]
        if memory_scale:
            with tempfile.TemporaryDirectory() as tmp:
                large = _child(["run", json.dumps(spec), games * memory_scale, cores, f"{tmp}/large"])["peak_rss_mib"]
            result.update({"memory_scale": memory_scale, "peak_rss_mib_scaled": large,
                           "memory_ratio": large / result["peak_rss_mib"]})
    return result


def overhead(game: str, games: int = 1000, batches: int = 50, workers: int | None = None, repeat: int = 3) -> dict:
    """How much of the wall time of many small batches in one process is spent outside simulation: a batch of
    ``games`` games of the default line-up played ``batches`` times (each on the next games), as a tuner's
    rounds or a sweep's points are, through the analyses' entry point (``analysis.play.play_jobs``) on the
    process's pool. Measured both with one call per batch (each waits for the last) and with every batch in
    one call (a sweep). "Simulating" is the time the workers spend inside the game's ``simulate`` (the
    engine: allocation, kernel, result columns), summed over them; the rest of ``wall x workers`` is
    overhead: messages, the parent's DataFrames, and workers idle between batches. Medians of ``repeat``."""
    workers = workers or os.cpu_count() or 1
    batch = make_batch(game, games, None, 1)
    batch.play(0, 1)
    play_jobs([Job((batch,), 0, games)], workers)      # fork the pool before timing
    jobs = [Job((batch,), i * games, games) for i in range(batches)]
    figures = {"one_call_per_batch": [], "all_in_one_call": []}
    for _ in range(repeat):
        for mode, calls in (("one_call_per_batch", [[job] for job in jobs]), ("all_in_one_call", [jobs])):
            usage.reset()
            start = time.perf_counter()
            for call in calls:
                play_jobs(call, workers)
            wall = time.perf_counter() - start
            figures[mode].append({"wall_s": wall, "simulate_s": usage.simulate_s, "chunks": usage.chunks,
                                  "outside": 1 - usage.simulate_s / (wall * workers)})
    call = []
    for _ in range(max(repeat, 5)):
        start = time.perf_counter()
        batch.play(0, 1)
        call.append(time.perf_counter() - start)
    result = {"game": game, "games": games, "batches": batches, "workers": workers, "repeat": repeat,
              "simulate_call_ms": 1000 * statistics.median(call)}
    for mode, runs in figures.items():
        middle = sorted(runs, key=lambda r: r["outside"])[len(runs) // 2]
        result[mode] = {**middle, "outside_per_batch_ms": 1000 * middle["outside"] * middle["wall_s"] / batches,
                        "outside_all": [r["outside"] for r in runs]}
    return result


def format_overhead(result: dict) -> str:
    lines = [f"{result['game']}: {result['batches']} batches of {result['games']:,} games in one process, "
             f"{result['workers']} workers, median of {result['repeat']} (share of wall x workers)"]
    for mode, words in (("one_call_per_batch", "one call per batch"), ("all_in_one_call", "all in one call")):
        r = result[mode]
        lines.append(f"  {words:<19} {r['wall_s']:7.2f} s wall, {r['chunks']} chunks, simulating "
                     f"{1 - r['outside']:6.1%}, outside simulation {r['outside']:5.1%} "
                     f"({r['outside_per_batch_ms']:.1f} ms a batch)")
    lines.append(f"  the engine's own fixed cost per call (a 1-game simulate, counted as simulating): "
                 f"{result['simulate_call_ms']:.1f} ms")
    return "\n".join(lines)


def format_table(results: list[dict]) -> str:
    """One row per game (``bench --all``): throughput on all cores and one, JIT speed-up, peak memory."""
    def rate(value):
        return "-" if value != value else f"{value:,.0f}"

    first = results[0]
    head = (f"{'game':<20} {'games/s all':>12} {'games/s one':>12} {'turns/s all':>12} {'turns/s one':>12} "
            f"{'all/one':>7} {'JIT x':>6} {'peak MiB':>9}")
    rows = [f"{r['game']:<20} {rate(r['games_per_s_all_cores']):>12} {rate(r['games_per_s_one_core']):>12} "
            f"{rate(r['turns_per_s_all_cores']):>12} {rate(r['turns_per_s_one_core']):>12} {r['parallel_speedup']:>7.2f} "
            f"{r['jit_speedup']:>6.0f} "
            f"{r.get('peak_rss_mib', float('nan')):>9.0f}"
            + (f" {r['memory_ratio']:>9.2f}" if "memory_ratio" in r else "") for r in results]
    if "memory_ratio" in first:
        head += f" {'10x ratio':>9}"
    return "\n".join([f"default line-ups, {first['games']:,} games a figure, median of {first['repeat']}, "
                      f"all cores = {first['cores']} (all/one: the rounds' median ratio); peak MiB: a run of "
                      f"{first['games']:,} games, all processes", head, *rows])


def format_benchmark(result: dict) -> str:
    rules = f" with {' '.join(result['sets'])}" if result.get("sets") else ""
    def turns(key):
        value = result.get(key, float("nan"))
        return "" if value != value else f", {value:,.0f} player turns/s"

    lines = [f"{result['game']}{rules}: {result['games']} games, median of {result['repeat']}, {result['cores']} cores",
             f"  all cores      {result['games_per_s_all_cores']:>12,.0f} games/s{turns('turns_per_s_all_cores')}",
             f"  one core       {result['games_per_s_one_core']:>12,.0f} games/s{turns('turns_per_s_one_core')}  "
             f"(parallel speed-up {result['parallel_speedup']:.2f}x, median of the rounds "
             f"{', '.join(f'{x:.2f}' for x in result['parallel_speedups'])})",
             f"  JIT disabled   {result['games_per_s_jit_disabled']:>12,.1f} games/s  "
             f"(JIT speed-up {result['jit_speedup']:,.0f}x, one core)",
             f"  warm start     {result['warm_start_s']:>12.2f} s to the first simulated game"]
    if "dask_ratio" in result:
        lines.append(f"  runs to disk   {result['games_per_s_local_run']:>12,.0f} games/s local, "
                     f"{result['games_per_s_dask_run']:,.0f} on a Dask LocalCluster of {result['cores']} workers "
                     f"(ratio {result['dask_ratio']:.2f})")
    if "tune" in result:
        tune = result["tune"]

        def busy(backend):
            total = tune[f"wall_s_total_{backend}"]
            return ", ".join(f"{cpu / total:.0%}" for cpu in tune[f"worker_cpu_s_{backend}"]) + \
                f" (this process {tune[f'parent_cpu_s_{backend}'] / total:.0%})"
        lines += [f"  tune, {tune['trials']} trials ({tune['strategy']} against {','.join(tune['field'])}): "
                  f"{tune['wall_s_local']:.1f} s on the local pool, {tune['wall_s_dask']:.1f} s on the LocalCluster "
                  f"(ratio {tune['dask_wall_ratio']:.2f})",
                  f"  worker CPU / wall: local {busy('local')}; Dask {busy('dask')}"]
    if "peak_rss_mib_scaled" in result:
        lines.append(f"  peak memory    {result['peak_rss_mib']:>10.0f} MiB (all processes) for {result['games']:,} games, "
                     f"{result['peak_rss_mib_scaled']:.0f} MiB for {result['memory_scale'] * result['games']:,} "
                     f"(ratio {result['memory_ratio']:.2f})")
    return "\n".join(lines)
