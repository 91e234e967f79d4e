"""`simkit bench`: the --all table (benchmarks themselves are never timed tests)."""
from simkit.bench import format_table
from simkit.games import all_games


def fake(game, turns=True):
    return {"game": game, "games": 1000, "repeat": 3, "cores": 2, "games_per_s_all_cores": 2000.0,
            "games_per_s_one_core": 1000.0, "turns_per_s_all_cores": 9e4 if turns else float("nan"),
            "turns_per_s_one_core": 5e4 if turns else float("nan"), "parallel_speedup": 1.95, "jit_speedup": 120.0,
            "peak_rss_mib": 300.0}


def test_table_has_a_row_per_game():
    lines = format_table([fake(name, turns=i % 2 == 0) for i, name in enumerate(all_games())]).splitlines()
    assert len(lines) == 2 + len(all_games())
    assert "games/s all" in lines[1] and "peak MiB" in lines[1] and "10x ratio" not in lines[1]
    assert lines[2].split()[1:] == ["2,000", "1,000", "90,000", "50,000", "1.95", "120", "300"]
    assert lines[3].split()[3:5] == ["-", "-"]


def test_table_with_memory_ratio():
    assert format_table([{**fake("wheedle"), "memory_ratio": 1.01}]).splitlines()[2].endswith("1.01")


def test_bench_needs_a_game_or_all(cli_error):
    assert "--all" in cli_error(["bench"])
    assert "--all" in cli_error(["bench", "wheedle", "--all"])


def test_overhead_counts_every_chunk_and_splits_the_wall_time():
    from simkit.bench import format_overhead, overhead

    result = overhead("wheedle", games=1000, batches=2, workers=2, repeat=1)
    for mode in ("one_call_per_batch", "all_in_one_call"):
        figures = result[mode]
        assert figures["chunks"] == 4        # 2 batches of 2 chunks (500 games each)
        assert 0 < figures["simulate_s"] <= 2 * figures["wall_s"] and 0 <= figures["outside"] < 1
    text = format_overhead(result)
    assert "one call per batch" in text and "outside simulation" in text


def test_the_speed_up_is_the_median_of_rounds_that_alternate_all_cores_and_one(monkeypatch):
    """A machine that slows down during the measurement must not show as a loss (or gain) of scaling: each
    round times both, in alternating order, and the speed-up is the median of the rounds' own ratios."""
    import simkit.bench as bench

    calls = []
    machine_speed = iter([1.0, 1.0, 0.5, 0.5, 0.5, 0.5, 0.25, 0.25])     # drifts down between rounds

    def fake_throughput(spec, games, workers):
        calls.append(workers)
        if games < 100:          # the warm-up that forks the pool
            return 1.0, 1.0
        speed = next(machine_speed) * (1000.0 if workers == 1 else 1900.0)
        return speed, 10 * speed

    monkeypatch.setattr(bench, "throughput", fake_throughput)
    result = bench._paired_rates({}, 1000, 2, 4)
    assert calls == [2, 2, 1, 1, 2, 2, 1, 1, 2]
    assert result["parallel_speedups"] == [1.9] * 4 and result["parallel_speedup"] == 1.9
    assert result["games_per_s_one_core"] == 500.0 and result["turns_per_s_all_cores"] == 9500.0


def test_analysis_times_names_what_it_can_time_and_what_each_needs():
    import pytest

    from simkit.bench import ANALYSES, analysis_times
    from simkit.errors import SimkitError

    assert ANALYSES == ("tune", "metagame", "design", "balance-retune")
    for analyses, kwargs in ((("sweep",), {}), (("design",), {}), (("balance-retune",), {"vary": "x=1:2"})):
        with pytest.raises(SimkitError, match="analyses from tune, metagame, design, balance-retune"):
            analysis_times("wheedle", 2, 1, analyses=analyses, **kwargs)
