"""Results that verify themselves: every damage to a run folder is refused in one line by every reader, a
resumed run checks its kept chunks, nothing is written through a link or read from outside the folder, and
a second writer is refused before it deletes anything."""
import errno
import json
import os
import shutil
from pathlib import Path

import pytest

import simkit
from simkit import runner, storage
from simkit.cli import main
from simkit.errors import SimkitError
from simkit.runner import Batch, RunInterrupted, make_batch, partial_dir, run_to_directory

ARGS = ["run", "dweebies", "--games", "300", "--seed", "4", "--chunk-size", "100", "-q", "-w", "1"]


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    out = tmp_path_factory.mktemp("made") / "run"
    run_to_directory(make_batch("dweebies", 300, seed=4), out, chunk_size=100)
    return out


@pytest.fixture
def run_copy(made, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(made, copy)
    return copy


def _flip_byte(path: Path):
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 1
    path.write_bytes(bytes(data))


def _edit_manifest(run: Path, change):
    manifest = json.loads((run / "manifest.json").read_text())
    change(manifest)
    (run / "manifest.json").write_text(json.dumps(manifest))


DAMAGE = {
    "missing part": (lambda r: (r / "part-000001.parquet").unlink(), "part-000001.parquet is missing"),
    "extra part": (lambda r: shutil.copy(r / "part-000000.parquet", r / "part-000003.parquet"),
                   "part-000003.parquet is not one of the run's parts"),
    "truncated part": (lambda r: os.truncate(r / "part-000002.parquet", 50), "part-000002.parquet has 50 bytes"),
    "edited part": (lambda r: _flip_byte(r / "part-000000.parquet"), "part-000000.parquet does not match its checksum"),
    "garbage part": (lambda r: (r / "part-000000.parquet").write_bytes(b"x" * 100), "part-000000.parquet has 100 bytes"),
    "edited games": (lambda r: _edit_manifest(r, lambda m: m.update(games=400)), "manifest.json was edited"),
    "a part listed twice": (lambda r: _edit_manifest(r, lambda m: m["parts"].append(m["parts"][0])),
                            "manifest.json was edited"),
    "deep manifest": (lambda r: (r / "manifest.json").write_text("[" * 20000), "nested more than 64 levels deep"),
    "symlinked part": (lambda r: (os.replace(r / "part-000001.parquet", r.parent / "elsewhere.parquet"),
                                  os.symlink(r.parent / "elsewhere.parquet", r / "part-000001.parquet")),
                       "part-000001.parquet is not a plain file"),
}


@pytest.mark.parametrize("damage", DAMAGE)
@pytest.mark.parametrize("command", ["summary", "report"])
def test_every_damage_is_refused_in_one_line(cli_error, run_copy, damage, command):
    hurt, needle = DAMAGE[damage]
    hurt(run_copy)
    line = cli_error([command, str(run_copy)])
    assert needle in line
    assert "is damaged" not in line or "--overwrite" in line, "the line says what to do"
    assert not (run_copy / "report.html").exists()


@pytest.mark.parametrize("damage", ["missing part", "edited part", "edited games"])
def test_the_library_readers_refuse_too(run_copy, damage):
    DAMAGE[damage][0](run_copy)
    for read in (simkit.load, simkit.summarize):
        with pytest.raises(SimkitError, match="damaged|edited"):
            read(run_copy)


def test_the_same_run_on_a_damaged_folder_is_refused_and_overwrite_replays_it(cli_error, made, tmp_path):
    out = tmp_path / "run"
    shutil.copytree(made, out)
    os.truncate(out / "part-000001.parquet", 10)
    assert "is damaged" in cli_error(ARGS + ["--out", str(out)])
    main(ARGS + ["--out", str(out), "--overwrite"])
    assert (out / "part-000001.parquet").read_bytes() == (made / "part-000001.parquet").read_bytes()
    simkit.summarize(out)


def _interrupted(out: Path, monkeypatch, after: int = 2):
    real_play = Batch.play
    monkeypatch.setattr(Batch, "play", lambda self, first, n, check=False: (_ for _ in ()).throw(KeyboardInterrupt)
                        if first >= after * 100 else real_play(self, first, n, check))
    with pytest.raises(RunInterrupted):
        run_to_directory(make_batch("dweebies", 300, seed=4), out, chunk_size=100)
    monkeypatch.setattr(Batch, "play", real_play)
    return partial_dir(out)


def test_a_resume_refuses_a_damaged_kept_chunk_then_replays_it(cli_error, made, tmp_path, monkeypatch):
    out = tmp_path / "run"
    staging = _interrupted(out, monkeypatch)
    _flip_byte(staging / "part-000001.parquet")
    line = cli_error(ARGS + ["--out", str(out)])
    assert "part-000001.parquet does not match its checksum" in line and "delete it" in line
    (staging / "part-000001.parquet").unlink()
    (staging / "part-000001.record.json").unlink()
    main(ARGS + ["--out", str(out)])
    for name in ("part-000000.parquet", "part-000001.parquet", "part-000002.parquet"):
        assert (out / name).read_bytes() == (made / name).read_bytes()


def test_links_planted_in_a_kept_staging_folder_are_never_written_through(made, tmp_path, monkeypatch):
    out = tmp_path / "run"
    staging = _interrupted(out, monkeypatch)
    outside = tmp_path / "outside"
    outside.mkdir()
    for name in ("manifest.json", "rules.toml", "part-000002.parquet", "part-000002.record.json"):
        (outside / name).write_text("precious")
        os.symlink(outside / name, staging / name)
    main(ARGS + ["--out", str(out)])
    assert all((outside / name).read_text() == "precious" for name in os.listdir(outside))
    assert not any(path.is_symlink() for path in out.iterdir())
    simkit.summarize(out)


def test_a_planted_report_temporary_is_not_followed(made, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(made, run)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    os.symlink(victim, run / ".report.html.tmp")
    main(["report", str(run)])
    assert victim.read_text() == "precious" and (run / "report.html").is_file()
    assert (run / ".report.html.tmp").is_symlink()


def test_a_manifest_folder_outside_the_results_is_refused(cli_error, tmp_path):
    results = tmp_path / "results"
    results.mkdir()
    (tmp_path / "outside").mkdir()
    manifest = {"experiment": {"game": "dweebies", "analysis": [{"kind": "balance"}]},
                "analyses": [{"kind": "balance", "title": "x", "setup": {}, "folder": "../outside"}]}
    (results / "manifest.json").write_text(json.dumps(manifest))
    assert "outside" in cli_error(["report", str(results)])
    assert not (results / "report.html").exists()


def test_overwrite_takes_the_lock_before_it_deletes_anything(cli_error, tmp_path, monkeypatch):
    """A run into --out is writing (it holds the staging folder's lock); a second run with another seed and
    --overwrite is refused in one line and deletes nothing of the first's."""
    out = tmp_path / "run"
    staging = _interrupted(out, monkeypatch)
    kept = sorted(p.name for p in staging.iterdir())
    with runner._run_lock(staging):
        line = cli_error(ARGS + ["--out", str(out), "--seed", "12", "--overwrite"])
        assert "another simkit run" in line and "is writing" in line
        assert sorted(p.name for p in staging.iterdir()) == kept


@pytest.mark.parametrize("fault", [errno.ENOSPC, errno.EROFS])
def test_report_on_a_full_disk_or_read_only_folder_is_one_line_and_leaves_nothing(made, tmp_path, monkeypatch,
                                                                                   capsys, fault):
    run = tmp_path / "run"
    shutil.copytree(made, run)
    monkeypatch.setattr(storage, "write", lambda fd, data: (_ for _ in ()).throw(OSError(fault, os.strerror(fault))))
    capsys.readouterr()
    with pytest.raises(SystemExit) as exc:
        main(["report", str(run)])
    assert exc.value.code == 1
    line, = capsys.readouterr().err.splitlines()
    assert line.startswith("simkit: error: ") and os.strerror(fault) in line
    assert sorted(p.name for p in run.iterdir()) == sorted(p.name for p in made.iterdir()), "no temporary left"


def test_an_output_path_that_cannot_be_made_is_bad_input(cli_error, tmp_path):
    assert "cannot create" in cli_error(ARGS + ["--out", "/proc/simkit-out"])
    assert "characters long" in cli_error(ARGS + ["--out", str(tmp_path / ("x" * 300))])
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("fault", [errno.ENOSPC, errno.EROFS])
def test_an_analysis_out_on_a_full_disk_or_read_only_folder_is_one_line_and_leaves_nothing(tmp_path, monkeypatch,
                                                                                           capsys, fault):
    """tournament --out (tune --out and every analysis write through the same results writer)."""
    import pandas as pd

    def full(*args, **kwargs):
        raise OSError(fault, os.strerror(fault))

    monkeypatch.setattr(pd.DataFrame, "to_csv", full)
    capsys.readouterr()
    with pytest.raises(SystemExit) as exc:
        main(["tournament", "dweebies", "-s", "greedy,pair-keeper,line-shortener", "-p", "2", "-n", "40", "-w", "1", "-q",
              "--out", str(tmp_path / "out")])
    assert exc.value.code == 1
    line, = capsys.readouterr().err.splitlines()
    assert line.startswith("simkit: error: ") and os.strerror(fault) in line
    assert list(tmp_path.iterdir()) == [], "no results folder, staging folder or temporary file is left"
