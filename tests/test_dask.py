"""The Dask backend gives the local backend's dataset bit for bit (simkit/distributed.py)."""
import json

import pytest

from simkit.cli import main

pytest.importorskip("dask.distributed")

ARGS = ["run", "wheeler-dealer-us", "--games", "400", "--seed", "3", "--chunk-size", "30", "-q"]


def test_dask_equals_local(tmp_path):
    from dask.distributed import LocalCluster

    main(ARGS + ["--out", str(tmp_path / "local"), "-w", "2"])
    main(ARGS + ["--out", str(tmp_path / "dask"), "-w", "2", "--backend", "dask"])   # its own LocalCluster
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        main(ARGS + ["--out", str(tmp_path / "cluster"), "--scheduler", cluster.scheduler_address])
    local = sorted((tmp_path / "local").glob("part-*.parquet"))
    assert len(local) == 14
    for other in ("dask", "cluster"):
        assert [p.read_bytes() for p in local] == [(tmp_path / other / p.name).read_bytes() for p in local]
        manifest = json.loads((tmp_path / other / "manifest.json").read_text())
        assert manifest["backend"] == "dask"
        assert manifest["totals"] == json.loads((tmp_path / "local" / "manifest.json").read_text())["totals"]


def test_the_reproducibility_guard_holds_on_dask(tmp_path, monkeypatch, capsys):
    """A strategy drawing from np.random is named in one line on the Dask backend too (an in-process cluster
    keeps it fast; the replay's outside randomness is seeded afresh wherever it runs)."""
    from dask.distributed import LocalCluster

    from simkit import pool

    from .careless_behaviours import BEHAVIOURS, strategy_source

    behaviour = next(b for b in BEHAVIOURS if b.name == "outside-randomness")
    source = strategy_source("wheedle", behaviour, "outside_dask") + "outside_dask = STRATEGY\n"  # found by its name
    (tmp_path / "outside_dask.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(pool, "_credit", [pool.SAMPLE_EVERY])      # a command's first games are sampled
    argv = ["run", "wheedle", "--games", "20", "--chunk-size", "10", "-q",
            "-p", "outside_dask:outside_dask,tuned,patient"]
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        with pytest.raises(SystemExit) as exit_:
            main(argv + ["--out", str(tmp_path / "out"), "--scheduler", cluster.scheduler_address])
    lines = capsys.readouterr().err.strip().splitlines()
    assert exit_.value.code == 1 and len(lines) == 1, lines
    assert "gave different results when replayed" in lines[0] and "strategy outside_dask:" in lines[0]
    assert not (tmp_path / "out").exists()
