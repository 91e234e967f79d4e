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
