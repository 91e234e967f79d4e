"""`simkit run --rotate-seats`: game g plays deal g // n with the line-up rotated g mod n seats, the same for any
workers, chunk size or backend, and the summary attributes every row to the strategy that really sat there."""
import json

import numpy as np
import pytest

from simkit.cli import main
from simkit.results import load, summarize
from simkit.runner import Batch, make_batch, partial_dir, rotate

LINEUP = ["greedy", "line-shortener", "pair-keeper"]
ARGS = ["run", "dweebies", "--players", ",".join(LINEUP), "--games", "10", "--seed", "5", "--rotate-seats", "-q"]


@pytest.fixture(scope="module")
def rotated(tmp_path_factory):
    out = tmp_path_factory.mktemp("rot") / "run"
    main(ARGS + ["--out", str(out), "-w", "1", "--chunk-size", "4"])
    return out


def test_games_round_up_to_whole_deals_and_the_manifest_records_the_rotation(rotated, tmp_path, capsys):
    manifest = json.loads((rotated / "manifest.json").read_text())
    assert manifest["games"] == 12 and manifest["rotate_seats"] is True
    main(ARGS[:-1] + ["--out", str(tmp_path / "r")])
    assert "12 games (10 rounded up to a multiple of 3)" in capsys.readouterr().err


def test_every_strategy_plays_every_seat_equally(rotated):
    counts = load(rotated).groupby(["strategy", "seat"], observed=True).size()
    assert len(counts) == 9 and set(counts) == {4}


def test_rows_are_the_engines_deals_under_each_rotation(rotated):
    """Re-derived without the runner's rotation: deal g // n played by the rotated line-up, one game at a time."""
    frame = load(rotated)
    plain = make_batch("dweebies", 1, LINEUP, 5)
    for g in range(12):
        seats = rotate(plain.seats, g % 3)
        expected = plain.game.simulate(plain.prepared, seats, 5, g // 3, 1)
        rows = frame[frame["game"] == g]
        assert rows["seat"].tolist() == [0, 1, 2]
        assert rows["collected"].tolist() == expected["collected"].tolist()
        assert rows["winner"].tolist() == expected["winner"].tolist()
        assert rows["strategy"].astype(str).tolist() == [seat.label for seat in seats]


@pytest.mark.parametrize("options", [["-w", "2", "--chunk-size", "4"], ["-w", "2", "--chunk-size", "5"]])
def test_workers_and_chunks_do_not_change_a_rotated_run(rotated, tmp_path, options):
    main(ARGS + ["--out", str(tmp_path / "r")] + options)
    assert load(tmp_path / "r").equals(load(rotated))
    if "4" in options:
        parts = sorted(p.name for p in rotated.glob("part-*.parquet"))
        assert [(rotated / p).read_bytes() for p in parts] == [(tmp_path / "r" / p).read_bytes() for p in parts]


def test_summary_per_strategy_equals_a_hand_count(rotated):
    manifest = json.loads((rotated / "manifest.json").read_text())
    lineup = [seat["label"] for seat in manifest["lineup"]]
    frame = load(rotated)
    sat = [rotate(lineup, g % 3)[s] for g, s in zip(frame["game"], frame["seat"])]   # not the rows' own labels
    table = summarize(rotated)["strategy"]
    for label in LINEUP:
        mine = np.array(sat) == label
        assert table.loc[label, "n"] == mine.sum() == 12
        assert table.loc[label, "win_rate"] == frame["winner"][mine].mean()
        assert table.loc[label, "mean_collected"] == pytest.approx(frame["collected"][mine].mean())


def test_summary_says_the_seats_were_rotated(rotated, capsys):
    capsys.readouterr()
    main(["summary", str(rotated)])
    out = capsys.readouterr().out
    assert "Seats rotated" in out and "confounded" not in out and "all, rotated" in out


def test_a_rotated_run_is_not_an_unrotated_one(rotated, cli_error, tmp_path, capsys):
    capsys.readouterr()
    main(ARGS + ["--out", str(rotated), "--chunk-size", "4"])
    assert "already holds this run" in capsys.readouterr().err
    plain = [a for a in ARGS if a != "--rotate-seats"] + ["--games", "12", "--chunk-size", "4"]
    assert "rotate_seats differs" in cli_error(plain + ["--out", str(rotated)])


def test_dask_plays_the_same_rotated_run(rotated, tmp_path):
    pytest.importorskip("dask.distributed")
    main(ARGS + ["--out", str(tmp_path / "d"), "-w", "2", "--chunk-size", "4", "--backend", "dask"])
    parts = sorted(p.name for p in rotated.glob("part-*.parquet"))
    assert [(rotated / p).read_bytes() for p in parts] == [(tmp_path / "d" / p).read_bytes() for p in parts]


def test_replay_of_a_rotated_game_is_that_game(rotated, capsys):
    frame = load(rotated)
    for g in (4, 8):
        capsys.readouterr()
        main(["replay", "dweebies", "--seed", "5", "--game", str(g), "--players", ",".join(LINEUP), "--rotate-seats"])
        out = capsys.readouterr().out
        rows = frame[frame["game"] == g]
        for seat, label, collected, won in zip(rows["seat"], rows["strategy"].astype(str), rows["collected"],
                                               rows["winner"]):
            line = next(line for line in out.splitlines()
                        if line.strip().startswith(f"seat {seat} ({label}): collected"))
            assert f"collected {collected} cards" in line and ("WINNER" in line) == bool(won)


def test_an_interrupted_rotated_run_resumes_to_the_same_parts(rotated, tmp_path, monkeypatch, capsys):
    real_play, calls = Batch.play, []

    def play(self, first, n, check=False):
        calls.append(first)
        if len(calls) == 3:     # two chunks, then Ctrl-C
            raise KeyboardInterrupt
        return real_play(self, first, n, check)

    monkeypatch.setattr(Batch, "play", play)
    out = tmp_path / "r"
    with pytest.raises(SystemExit):
        main(ARGS + ["--out", str(out), "-w", "1", "--chunk-size", "4"])
    assert len(list(partial_dir(out).glob("part-*.parquet"))) == 2
    monkeypatch.setattr(Batch, "play", real_play)
    main(ARGS + ["--out", str(out), "-w", "2", "--chunk-size", "4"])
    assert json.loads((out / "manifest.json").read_text())["resumed_chunks"] == 2
    parts = sorted(p.name for p in rotated.glob("part-*.parquet"))
    assert [(rotated / p).read_bytes() for p in parts] == [(out / p).read_bytes() for p in parts]


def test_a_faults_replay_command_replays_the_rotated_game(capsys):
    import shlex

    from simkit.faults import replay_command

    command = shlex.split(replay_command(make_batch("dweebies", 12, LINEUP, 5, rotate_seats=True), 4))
    assert "--rotate-seats" in command
    capsys.readouterr()
    main(command[1:])
    assert capsys.readouterr().out.startswith("Dweebies, 3 players (pair-keeper, greedy, line-shortener)")
